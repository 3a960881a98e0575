/**
 * Fixed-point units of the spec (Conventions): prices `_1e9`, quantities `_1e8`, USD `_usd_1e9`,
 * timestamps in ns. Engine arithmetic stays in integers; decimals appear only at the gateway.
 * A BTC price of 100,000 is 1e14 in _1e9 units, 1,000 BTC is 1e11 in _1e8 units: each fits a
 * double exactly (< 2^53), but their product does not, so notional goes through BigInt.
 */
export const PRICE_SCALE = 1_000_000_000;
export const QTY_SCALE = 100_000_000;
export const USD_SCALE = 1_000_000_000;
export const BPS = 10_000;

/** USD notional in _usd_1e9 of qty_1e8 at price_1e9 (quote currency treated as USD). */
export function notionalUsd1e9(price1e9: number, qty1e8: number): number {
  return Number((BigInt(price1e9) * BigInt(qty1e8)) / BigInt(QTY_SCALE));
}

/**
 * A venue's fee on one fill in USD 1e9 at `bps` (quote currencies here are USD-pegged), rounded
 * up as venues round (a rebate, negative, rounds toward zero).
 */
export function venueFee1e9(price1e9: number, qty1e8: number, bps: number): number {
  return Math.ceil((notionalUsd1e9(price1e9, qty1e8) * bps) / BPS);
}

/** Decimal for JSON output where the spec asks for plain numbers (quote `bid`, `ask`, sizes). */
export function priceToDecimal(price1e9: number): number {
  return price1e9 / PRICE_SCALE;
}

export function qtyToDecimal(qty1e8: number): number {
  return qty1e8 / QTY_SCALE;
}

/**
 * The spec's decimal mid and spread (bps, two decimals) of a top of book; both 0 when a side
 * is missing or the book is crossed (Quote rules).
 */
export function midAndSpread(bid1e9: number, ask1e9: number, crossed: boolean): { mid: number; spread_bps: number } {
  if (bid1e9 <= 0 || ask1e9 <= 0 || crossed) return { mid: 0, spread_bps: 0 };
  const mid = (bid1e9 + ask1e9) / 2;
  return { mid: priceToDecimal(mid), spread_bps: Math.round((((ask1e9 - bid1e9) * BPS) / mid) * 100) / 100 };
}

/** Book levels as the spec's `[price, size]` decimal pairs, best first. */
export function decimalLevels(prices: Float64Array, qtys: Float64Array, count: number): [number, number][] {
  const out: [number, number][] = new Array(count);
  for (let i = 0; i < count; i++) out[i] = [priceToDecimal(prices[i]!), qtyToDecimal(qtys[i]!)];
  return out;
}

/**
 * Wall-clock nanoseconds with sub-millisecond resolution (monotonic clock anchored at the
 * thread's time origin), for latency stamps compared across threads and processes. Beyond 2^53
 * a double rounds to 256 ns, which is below what it is used to measure.
 */
export function wallClockNs(): number {
  return Math.round((performance.timeOrigin + performance.now()) * 1_000_000);
}

/** Integer nanoseconds since the epoch for "now"; ms resolution is what the clock gives. */
export function nowNs(): number {
  return Date.now() * 1_000_000;
}

/** An integer as the API writes it: a number while it is a safe integer, past that the exact bigint (written as a JSON integer literal, never rounded). */
export type ExactInt = number | bigint;

const MAX_SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);

/** `x` as a number when that is exact, else `x` itself. */
export function exactInt(x: bigint): ExactInt {
  return x <= MAX_SAFE_BIG && x >= -MAX_SAFE_BIG ? Number(x) : x;
}

/** Digits of a scaled decimal at most (10^40: far past int64, still a small bigint). */
const MAX_SCALED_DIGITS = 40;

/** A decimal as JSON or `String(number)` writes it: sign, digits, fraction, exponent (`1e+21`, `1E5`). */
const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * A decimal number (a JSON number where the spec asks for one, e.g. sandbox `qty`) as an exact
 * integer x 10^`decimals`, from its decimal text: the literal's own source text when given as a
 * string (`gateway/http/exact-json.ts`: a double cannot hold 123456789012.12345678), else the
 * number's shortest decimal text (`String(0.1)` is `0.1`), so no float multiply drifts (0.29 x
 * 1e8 is 28999999.999999996). Undefined when the value is not finite, needs more than
 * `decimals` decimal places, or is past 10^40 scaled.
 */
export function decimalToScaled(value: number | string, decimals: number): bigint | undefined {
  if (typeof value === 'number' && !Number.isFinite(value)) return undefined;
  const m = DECIMAL.exec(String(value));
  if (m === null) return undefined;
  const digits = (m[2]! + (m[3] ?? '')).replace(/^0+/, '');
  if (digits === '') return 0n;
  // The value's decimal places: those written, less the exponent.
  const places = (m[3]?.length ?? 0) - Number(m[4] ?? 0);
  const shift = decimals - places;
  // Past 10^40 no amount here is meaningful, and a huge exponent must not build a huge power.
  if (digits.length + shift > MAX_SCALED_DIGITS) return undefined;
  let scaled: bigint;
  if (shift >= 0) scaled = BigInt(digits) * 10n ** BigInt(shift);
  else {
    // More places than allowed, unless the extra ones are zeros.
    const cut = digits.length + shift;
    const extra = cut > 0 ? digits.slice(cut) : digits;
    if (!/^0*$/.test(extra)) return undefined;
    scaled = cut > 0 ? BigInt(digits.slice(0, cut)) : 0n;
  }
  return m[1] === '-' ? -scaled : scaled;
}
