/**
 * Exact `binary_quadratic` taker fees of the prediction venues (spec, "Fee row"):
 *
 *   fee = qty x price x (1 - price)^exponent x rate_bps / 10000
 *
 * - Token-style venue (polymarket): components `{rate_bps, exponent}`, exponent 1 unless the
 *   venue says otherwise. The spec gives no rounding, so the fee is ceiled to the smallest unit
 *   we hold (1e-9 USD): rounding up keeps the cost model conservative, as `venueFee1e9` does.
 * - Ticker-style venue (kalshi): components `{rate_bps, multiplier, rounding: 'ceil_to_cent'}`,
 *   fee = ceil(qty x price x (1 - price) x rate_bps x multiplier / 10000 x 100) / 100. The spec
 *   asks clients to mirror that rounding, and it is applied per (qty, price): one fill, or one
 *   level the SOR plans to take, each rounds up on its own.
 * - Maker fees are 0 on both (formula `0`).
 *
 * Units: qty_1e8 (contracts x 1e8), price_1e9 (probability x 1e9), money in usd_1e9. The product
 * qty_1e8 x price_1e9 x (1e9 - price_1e9) x rate already passes 2^53 for one contract, so the
 * arithmetic is bigint throughout; components given as decimals (a multiplier of 0.25, a
 * fractional rate) are read from their decimal text (`decimalToScaled`), never multiplied as
 * floats: 4 contracts at 0.50 cost exactly $0.07, where the float product is 7.000000000000001
 * cents and a float ceil charges $0.08.
 */
import type { VenueId } from '../market.ts';
import { BPS, decimalToScaled, PRICE_SCALE, QTY_SCALE, USD_SCALE } from '../units.ts';
// A type-only import: venues.ts imports this module's values, and `import type` is erased, so
// there is no runtime cycle. The row type stays with the linear rows it shares a shape with.
import type { FeeRow } from '../venues.ts';

/** Ticker-style components. `multiplier` may be fractional (0.5, 0.25 on some series). */
export interface TickerFeeComponents {
  rate_bps: number;
  multiplier: number;
  rounding: 'ceil_to_cent';
}

/** Token-style components. `exponent` is an integer >= 1 (the spec's default is 1). */
export interface TokenFeeComponents {
  rate_bps: number;
  exponent: number;
}

export type BinaryFeeComponents = TickerFeeComponents | TokenFeeComponents;

/** The two rows' formula strings, exactly as `/v1/fees` has always served them. */
export const TICKER_TAKER_FORMULA = 'ceil(qty * price * (1 - price) * rate_bps * multiplier / 10000 * 100) / 100';
export const TOKEN_TAKER_FORMULA = 'qty * price * (1 - price) ^ exponent * rate_bps / 10000';
/** Spec: "Maker fee for prediction venues is currently 0". */
export const MAKER_FORMULA = '0';

/**
 * Decimal places a component may carry. Components are rates and multipliers written by hand
 * (700, 0.25); twelve places hold any of them, and more would be a typo, refused rather than
 * silently truncated.
 */
const COMPONENT_DECIMALS = 12;
const COMPONENT_SCALE = 10n ** BigInt(COMPONENT_DECIMALS);

/**
 * The largest exponent accepted. No venue's curve is flatter than a few powers; the bound keeps
 * (1e9)^(exponent + 1) a small bigint whatever a venue payload says.
 */
export const MAX_EXPONENT = 16;

const P = BigInt(PRICE_SCALE);
const Q = BigInt(QTY_SCALE);
const USD = BigInt(USD_SCALE);
const B = BigInt(BPS);
const CENTS_PER_USD = 100n;
const USD_1E9_PER_CENT = USD / CENTS_PER_USD;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export function isTickerFeeComponents(c: BinaryFeeComponents): c is TickerFeeComponents {
  return 'rounding' in c;
}

/** A fee curve with its components read once (decide at configuration time, not per fill). */
export interface BinaryFeeCurve {
  /** The at-mid taker bps (the row's `taker_bps`). */
  readonly at_mid_bps: number;
  /** Taker fee of one fill in usd_1e9; RangeError past 2^53 (use `takerFeeUsd1e9Exact`). */
  takerFeeUsd1e9(qty_1e8: number, price_1e9: number): number;
  /** Taker fee of one fill in usd_1e9 as a bigint: exact at any size. */
  takerFeeUsd1e9Exact(qty_1e8: number, price_1e9: number): bigint;
  /** The curve's rate at a price, bps of notional, before rounding (a routing score, never money). */
  bpsAt(price_1e9: number): number;
  /** The highest rate on the curve (price near 0), rounded up: what a reservation must allow for. */
  readonly max_bps: number;
}

/** A component as an exact integer x 1e12 from its decimal text; RangeError when it is not one. */
function scaledComponent(name: string, value: number): bigint {
  const scaled = typeof value === 'number' && value >= 0 ? decimalToScaled(value, COMPONENT_DECIMALS) : undefined;
  if (scaled === undefined) {
    throw new RangeError(`fee component ${name} must be a finite number >= 0 with at most ${COMPONENT_DECIMALS} decimals, got ${String(value)}`);
  }
  return scaled;
}

function exponentOf(c: TokenFeeComponents): number {
  const e = c.exponent;
  if (!Number.isInteger(e) || e < 1 || e > MAX_EXPONENT) {
    throw new RangeError(`fee component exponent must be an integer in [1, ${MAX_EXPONENT}], got ${String(e)}`);
  }
  return e;
}

function ceilDiv(num: bigint, den: bigint): bigint {
  // num >= 0 and den > 0 here (checked inputs), so the truncating division plus one when a
  // remainder is left is the ceiling.
  const q = num / den;
  return q * den === num ? q : q + 1n;
}

function checkFill(qty_1e8: number, price_1e9: number): void {
  if (!Number.isSafeInteger(qty_1e8) || qty_1e8 < 0) throw new RangeError(`qty_1e8 must be a safe integer >= 0, got ${qty_1e8}`);
  if (!Number.isSafeInteger(price_1e9) || price_1e9 < 0 || price_1e9 > PRICE_SCALE) {
    throw new RangeError(`price_1e9 must be an integer in [0, ${PRICE_SCALE}], got ${price_1e9}`);
  }
}

function toSafeNumber(fee: bigint): number {
  // Only a single fill of ~1e8 contracts at an extreme rate gets here; a rounded number would
  // be a wrong fee, so refuse rather than round.
  if (fee > MAX_SAFE) throw new RangeError(`fee ${fee} usd_1e9 is past 2^53; use takerFeeUsd1e9Exact`);
  return Number(fee);
}

/**
 * Reads and checks the components once. RangeError on components no venue could mean (negative
 * or non-finite rate, a multiplier with more than 12 decimals, a non-integer exponent, an
 * unknown rounding): they come from reference data or a venue payload, and a fee computed from
 * them would be silently wrong.
 */
export function compileBinaryFee(c: BinaryFeeComponents): BinaryFeeCurve {
  const rate = scaledComponent('rate_bps', c.rate_bps);
  if (isTickerFeeComponents(c)) {
    if (c.rounding !== 'ceil_to_cent') throw new RangeError(`fee component rounding must be 'ceil_to_cent', got ${String(c.rounding)}`);
    const mult = scaledComponent('multiplier', c.multiplier);
    // fee_cents = ceil(q/1e8 x p/1e9 x (1e9-p)/1e9 x (rate/S) x (mult/S) / 1e4 x 100)
    const num = rate * mult * CENTS_PER_USD;
    const den = Q * P * P * B * COMPONENT_SCALE * COMPONENT_SCALE;
    // At mid: (1 - 0.5) x rate x multiplier.
    const at_mid_bps = Number(ceilDiv(rate * mult, 2n * COMPONENT_SCALE * COMPONENT_SCALE));
    const exact = (qty_1e8: number, price_1e9: number): bigint => {
      checkFill(qty_1e8, price_1e9);
      const p = BigInt(price_1e9);
      const cents = ceilDiv(BigInt(qty_1e8) * p * (P - p) * num, den);
      return cents * USD_1E9_PER_CENT;
    };
    const full = Number(rate * mult) / Number(COMPONENT_SCALE * COMPONENT_SCALE);
    const max_bps = Number(ceilDiv(rate * mult, COMPONENT_SCALE * COMPONENT_SCALE));
    return { at_mid_bps, max_bps, bpsAt: (p) => full * (1 - p / PRICE_SCALE), takerFeeUsd1e9Exact: exact, takerFeeUsd1e9: (q, p) => toSafeNumber(exact(q, p)) };
  }
  const e = exponentOf(c);
  // fee_usd_1e9 = ceil(q/1e8 x p/1e9 x ((1e9-p)/1e9)^e x (rate/S) / 1e4 x 1e9)
  const num = rate * USD;
  const den = Q * P ** BigInt(e + 1) * B * COMPONENT_SCALE;
  // At mid: 0.5^e x rate, which is rate / 2 only for e = 1 (the spec's "twice" rule).
  const at_mid_bps = Number(ceilDiv(rate, 2n ** BigInt(e) * COMPONENT_SCALE));
  const exact = (qty_1e8: number, price_1e9: number): bigint => {
    checkFill(qty_1e8, price_1e9);
    const p = BigInt(price_1e9);
    return ceilDiv(BigInt(qty_1e8) * p * (P - p) ** BigInt(e) * num, den);
  };
  const full = Number(rate) / Number(COMPONENT_SCALE);
  const max_bps = Number(ceilDiv(rate, COMPONENT_SCALE));
  return { at_mid_bps, max_bps, bpsAt: (p) => full * (1 - p / PRICE_SCALE) ** e, takerFeeUsd1e9Exact: exact, takerFeeUsd1e9: (q, p) => toSafeNumber(exact(q, p)) };
}

/** Taker fee of one fill, exact integer USD x 1e9: ticker-style ceiled to the cent, token-style ceiled to 1e-9 USD. */
export function binaryTakerFeeUsd1e9(c: BinaryFeeComponents, qty_1e8: number, price_1e9: number): number {
  return compileBinaryFee(c).takerFeeUsd1e9(qty_1e8, price_1e9);
}

/**
 * The at-mid (price 0.5) taker rate in bps, rounded up to an integer (exponent != 1 makes it
 * rate x 0.5^e, not rate/2). The spec's `taker_bps` is an integer and "rate_bps is twice the
 * at-mid taker bps" holds only for exponent 1 and an even rate; rounding up keeps routing
 * conservative, as the linear venues' rates are rounded up (venues.ts).
 */
export function binaryAtMidBps(c: BinaryFeeComponents): number {
  return compileBinaryFee(c).at_mid_bps;
}

/**
 * The spec's `FeeRow` of a prediction venue for these components: venue-level defaults today
 * (venues.ts), per-market components later. The row gets fresh component objects in a fixed key
 * order, whatever order (or extra keys) the caller's object has, and the formula of its style.
 */
export function binaryFeeRow(venue: VenueId, c: BinaryFeeComponents): FeeRow {
  const at_mid = binaryAtMidBps(c); // also checks the components
  if (isTickerFeeComponents(c)) {
    return {
      venue,
      fee_model: 'binary_quadratic',
      components: { rate_bps: c.rate_bps, multiplier: c.multiplier, rounding: c.rounding },
      formula: { taker_fee_usd: TICKER_TAKER_FORMULA, maker_fee_usd: MAKER_FORMULA },
      maker_bps: 0,
      taker_bps: at_mid,
    };
  }
  return {
    venue,
    fee_model: 'binary_quadratic',
    components: { rate_bps: c.rate_bps, exponent: c.exponent },
    formula: { taker_fee_usd: TOKEN_TAKER_FORMULA, maker_fee_usd: MAKER_FORMULA },
    maker_bps: 0,
    taker_bps: at_mid,
  };
}
