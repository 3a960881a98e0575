/**
 * Perpetual positions' arithmetic, exact on bigint (docs/positions-and-tca.md, "Perpetuals").
 * A perp position is margined in isolation: its initial margin, at the venue's maximum leverage
 * for the symbol, is locked from the venue's quote balance (a $1 asset); maintenance is half of
 * initial (the rule the hyperliquid venue states, and tier 1 elsewhere); funding settles into the
 * quote balance at each funding instant. Units: qty x 1e8 (signed), prices and USD x 1e9, the
 * quote balance x 1e8, rates in bps of notional.
 */

const QTY_SCALE = 100_000_000n;
const PRICE_SCALE = 1_000_000_000n;
const BPS = 10_000n;
/** USD x 1e9 per quote unit x 1e8 of a $1 asset. */
const USD_PER_QUOTE_UNIT = PRICE_SCALE / QTY_SCALE;

function abs(x: bigint): bigint {
  return x < 0n ? -x : x;
}

/** n / d rounded toward +infinity (d > 0). */
function ceilDiv(n: bigint, d: bigint): bigint {
  const q = n / d;
  return n % d !== 0n && n > 0n ? q + 1n : q;
}

/** n / d rounded toward -infinity (d > 0). */
function floorDiv(n: bigint, d: bigint): bigint {
  const q = n / d;
  return n % d !== 0n && n < 0n ? q - 1n : q;
}

/** Margin terms of a perp listing: initial margin in bps of notional (10000 / max leverage); maintenance is half. */
export interface PerpTerms {
  imr_bps: number;
}

export function maintenanceBps(imr_bps: number): number {
  return imr_bps / 2;
}

/** A rate in bps as half-bps, exact for the half of an odd initial rate. */
function halfBps(bps: number): bigint {
  return BigInt(Math.round(bps * 2));
}

/** Maintenance margin of a position at `mark`, USD x 1e9, rounded up: |qty| x mark x mmr. */
export function maintenanceMargin1e9(qty_1e8: bigint, mark_1e9: bigint, mmr_bps: number): bigint {
  return ceilDiv(abs(qty_1e8) * mark_1e9 * halfBps(mmr_bps), QTY_SCALE * BPS * 2n);
}

/** Initial margin of a position, in quote units x 1e8, rounded up: |qty| x entry x imr. */
export function initialMargin1e8(qty_1e8: bigint, entry_1e9: bigint, imr_bps: number): bigint {
  return ceilDiv(abs(qty_1e8) * entry_1e9 * BigInt(imr_bps), PRICE_SCALE * BPS);
}

/** The USD value (x 1e9) of an amount of a $1 quote asset (x 1e8). */
export function quoteUsd1e9(amount_1e8: bigint): bigint {
  return amount_1e8 * USD_PER_QUOTE_UNIT;
}

/**
 * The quote units (x 1e8) a USD amount (x 1e9) settles as: rounded toward -infinity, against the
 * holder (a gain credits the unit below, a loss debits the unit above).
 */
export function settleUsd1e8(usd_1e9: bigint): bigint {
  return floorDiv(usd_1e9, USD_PER_QUOTE_UNIT);
}

/**
 * What a position pays at a funding instant, USD x 1e9: qty x mark x rate (rate x 1e9 per
 * interval), positive when it pays (a long at a positive rate, a short at a negative one),
 * rounded up: against the holder both ways.
 */
export function fundingPayment1e9(qty_1e8: bigint, mark_1e9: bigint, rate_1e9: bigint): bigint {
  return ceilDiv(qty_1e8 * mark_1e9 * rate_1e9, QTY_SCALE * PRICE_SCALE);
}

/**
 * The mark at which the position's equity in isolation (its margin plus unrealized PnL) falls
 * to maintenance (|qty| x mark x mmr): long (qty x entry - margin) / (qty x (1 - mmr)), short
 * (|qty| x entry + margin) / (|qty| x (1 + mmr)); USD x 1e9, rounded toward the entry (it
 * warns early). Null when flat or when no positive price reaches it.
 */
export function liquidationPrice1e9(qty_1e8: bigint, entry_1e9: bigint, margin_usd_1e9: bigint, mmr_bps: number): bigint | null {
  if (qty_1e8 === 0n) return null;
  const mmr2 = halfBps(mmr_bps);
  const BPS2 = BPS * 2n;
  const q = abs(qty_1e8);
  if (qty_1e8 > 0n) {
    const num = (q * entry_1e9 - margin_usd_1e9 * QTY_SCALE) * BPS2;
    if (num <= 0n) return null;
    return ceilDiv(num, q * (BPS2 - mmr2));
  }
  return floorDiv((q * entry_1e9 + margin_usd_1e9 * QTY_SCALE) * BPS2, q * (BPS2 + mmr2));
}

/** Whether a position at `mark` is at or past its liquidation price (under maintenance). */
export function belowMaintenance(qty_1e8: bigint, mark_1e9: bigint, liquidation_1e9: bigint | null): boolean {
  if (liquidation_1e9 === null || qty_1e8 === 0n) return false;
  return qty_1e8 > 0n ? mark_1e9 <= liquidation_1e9 : mark_1e9 >= liquidation_1e9;
}
