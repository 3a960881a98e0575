/**
 * Venue wire decimals <-> the engine's scaled integers, exactly and without allocating on the
 * parse side: a depth update carries dozens of "96000.01000000" strings, and `Number(s) * 1e9`
 * would both allocate nothing and drift (0.29 * 1e8 is 28999999.999999996). Venues send at most
 * 8 decimals of quantity and 8-10 of price, inside the scales used here (qty 1e8, price 1e9).
 */

const ZERO = 48;
const DOT = 46;
const MINUS = 45;

/** Powers of ten up to the largest scale used here. */
const POW10 = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000];

/**
 * `text` (a plain decimal, optionally negative) as an integer x 10^`decimals`; NaN when it is not
 * a plain decimal, carries non-zero digits past `decimals` places, or is past 2^53 scaled.
 */
export function parseScaled(text: string, decimals: number): number {
  let i = 0;
  const n = text.length;
  let negative = false;
  if (n > 0 && text.charCodeAt(0) === MINUS) {
    negative = true;
    i = 1;
  }
  let whole = 0;
  let digits = 0;
  for (; i < n; i++) {
    const c = text.charCodeAt(i) - ZERO;
    if (c === DOT - ZERO) break;
    if (c < 0 || c > 9) return NaN;
    whole = whole * 10 + c;
    digits++;
  }
  let frac = 0;
  let places = 0;
  if (i < n) {
    for (i++; i < n; i++) {
      const c = text.charCodeAt(i) - ZERO;
      if (c < 0 || c > 9) return NaN;
      if (places < decimals) {
        frac = frac * 10 + c;
        places++;
      } else if (c !== 0) return NaN;
      digits++;
    }
  }
  if (digits === 0) return NaN;
  const scaled = whole * POW10[decimals]! + frac * POW10[decimals - places]!;
  if (!Number.isSafeInteger(scaled)) return NaN;
  return negative ? -scaled : scaled;
}

/** An integer x 10^`decimals` as the plain decimal a venue accepts: no exponent, no trailing zeros. */
export function formatScaled(scaled: number, decimals: number): string {
  const negative = scaled < 0;
  const digits = String(Math.abs(scaled)).padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const frac = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return (negative ? '-' : '') + (frac === '' ? whole : `${whole}.${frac}`);
}

// ---------------------------------------------------------------------------------------------
// Decimals past our scale, as bigints: fees and balances a venue writes to more places than the
// engine keeps are rounded, and which way is the caller's (a charge up, a balance down).

/** How a value finer than the scale is rounded; `nearest` takes a half away from zero. */
export type Rounding = 'ceil' | 'floor' | 'nearest';

/** A decimal as its digits and how many of them are places: 12.5 is {125n, 1}. */
export interface DecimalParts {
  mantissa: bigint;
  places: number;
}

const PLAIN = /^(-?)(\d+)(?:\.(\d+))?$/;
/** Also ".48" and "5.": Polymarket writes both. */
const LOOSE = /^(-?)(\d*)(?:\.(\d*))?$/;

/** A plain decimal ("-12.50"); undefined for anything else (exponents, "", ".5", "5."). */
export function decimalOf(text: string): DecimalParts | undefined {
  const m = PLAIN.exec(text);
  if (m === null) return undefined;
  const frac = m[3] ?? '';
  return { mantissa: BigInt(m[2]! + frac) * (m[1] === '-' ? -1n : 1n), places: frac.length };
}

/** As `decimalOf`, but with the digits on either side of the point optional (not both). */
export function looseDecimalOf(text: string): DecimalParts | undefined {
  const m = LOOSE.exec(text);
  if (m === null || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const frac = m[3] ?? '';
  return { mantissa: BigInt((m[2] || '0') + frac) * (m[1] === '-' ? -1n : 1n), places: frac.length };
}

/** n / d rounded as `mode` says, for d > 0 (bigint division alone truncates toward zero). */
export function divRounded(n: bigint, d: bigint, mode: Rounding): bigint {
  if (mode === 'nearest') return n >= 0n ? (2n * n + d) / (2n * d) : -((-2n * n + d) / (2n * d));
  if (mode === 'ceil') return n >= 0n ? (n + d - 1n) / d : n / d;
  return n >= 0n ? n / d : -((-n + d - 1n) / d);
}

/**
 * `text` x `factor`, rounded as `mode` says when it does not come out whole; undefined when
 * `text` is not a decimal string as `parse` reads them. The factor may be negative, to flip a
 * venue's sign before rounding.
 */
export function timesRounded(text: unknown, factor: bigint, mode: Rounding, parse: (text: string) => DecimalParts | undefined = decimalOf): bigint | undefined {
  if (typeof text !== 'string') return undefined;
  const d = parse(text);
  if (d === undefined) return undefined;
  return divRounded(d.mantissa * factor, 10n ** BigInt(d.places), mode);
}

/** `text` x 10^`decimals`, rounded as `mode` says when it is finer than that. */
export function scaledRounded(text: unknown, decimals: number, mode: Rounding, parse: (text: string) => DecimalParts | undefined = decimalOf): bigint | undefined {
  return timesRounded(text, 10n ** BigInt(decimals), mode, parse);
}

/** A bigint as a number; NaN when absent or past 2^53, where a number would no longer be exact. */
export function safeNumber(n: bigint | undefined): number {
  if (n === undefined) return NaN;
  const x = Number(n);
  return Number.isSafeInteger(x) ? x : NaN;
}

/** A JSON field that must be a decimal string exact at `decimals` places (sizes, book prices); NaN otherwise. */
export function exactScaled(v: unknown, decimals: number): number {
  return typeof v === 'string' ? parseScaled(v, decimals) : NaN;
}
