/**
 * Readers of parsed venue JSON, each undefined (never a guess) when a field is not what it must
 * be. Venues differ in how they write integers (numbers, quoted digits, signed or not, ids past
 * 2^53), so each rule has its own reader and a codec picks the one its venue's docs call for.
 */

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** A JSON object (not an array, not null). */
export function record(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A JSON number that is a safe integer; a quoted one is not read. */
export function safeInteger(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) ? v : undefined;
}

/** As `safeInteger`, and not negative (ms timestamps). */
export function nonNegativeInteger(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined;
}

/**
 * A safe integer sent as a JSON number or as unsigned decimal digits (venues quote sequences,
 * counters and ids), at most `maxDigits` of them; undefined otherwise.
 */
export function integerOf(v: unknown, maxDigits = Infinity): number | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : undefined;
  if (typeof v === 'string' && v.length <= maxDigits && /^\d+$/.test(v)) {
    const n = Number(v);
    return Number.isSafeInteger(n) ? n : undefined;
  }
  return undefined;
}

/** As `integerOf`, the text allowed a leading minus. */
export function signedIntegerOf(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : undefined;
  if (typeof v === 'string' && /^-?\d+$/.test(v)) {
    const n = Number(v);
    return Number.isSafeInteger(n) ? n : undefined;
  }
  return undefined;
}

/**
 * An integer sent as a JSON number or signed digits, past 2^53 as the nearest double rather than
 * refused: for a sequence whose checks compare two values rounded alike (OKX's `seqId`).
 */
export function lossyIntegerOf(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isInteger(v) ? v : undefined;
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v);
  return undefined;
}

/** An id as text: a string of up to 20 digits as is, a number only while it is exact (JSON.parse rounds past 2^53). */
export function idText(v: unknown): string | undefined {
  if (typeof v === 'string' && /^\d{1,20}$/.test(v)) return v;
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return String(v);
  return undefined;
}

/** A u64 id as its canonical decimal text (no leading zeros, below 2^64), from a string or a safe JSON number. */
export function u64Text(v: unknown): string | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0 ? String(v) : undefined;
  if (typeof v === 'string' && /^(?:0|[1-9]\d{0,19})$/.test(v) && BigInt(v) < 1n << 64n) return v;
  return undefined;
}

/** An ISO instant (or anything `Date.parse` reads) as ms; null when absent, empty or unreadable. */
export function instantMs(v: unknown): number | null {
  if (typeof v !== 'string' || v === '') return null;
  const ms = Date.parse(v);
  return Number.isFinite(ms) ? ms : null;
}
