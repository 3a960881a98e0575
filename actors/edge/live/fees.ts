import { venueFee1e9 } from '../../../domain/units.ts';
import { safeNumber, timesRounded } from './decimal.ts';

export interface FeeContext {
  base: string;
  quote: string;
  /** the fee the account's rate implies for a fill, USD 1e9 (prices a commission in a third asset) */
  fallbackFee(price_1e9: number, qty_1e8: number, isMaker: boolean): number;
}

/** A listing's fee context at the edge's schedule (every adapter prices commissions alike). */
export function feeContextOf(listing: { base: string; quote: string } | undefined, fees: { maker_bps: number; taker_bps: number }): FeeContext {
  return {
    base: listing?.base ?? '',
    quote: listing?.quote ?? '',
    fallbackFee: (price, qty, isMaker) => venueFee1e9(price, qty, isMaker ? fees.maker_bps : fees.taker_bps),
  };
}

/** What a fill's fee costs the engine, and the asset it was taken in when that is not USD. */
export interface PricedFee {
  fee_1e9: number;
  commission?: { asset: string; qty_1e8: number };
}

/**
 * A fee of `amount` (a plain decimal) in `asset` as the engine books it, for venues that write
 * fees past our scale. A quote-asset fee is USD (quotes here are USD-pegged), rounded up past 9
 * places; a base-asset one is a commission in base (rounded up past 8 places) worth its
 * quantity at the fill's price, priced from the exact amount rather than the rounded quantity;
 * any other asset is a commission priced by `fallback`, the fee the account's rate implies.
 * `chargeSign` is 1n where the venue writes a charge positive, -1n where it writes it negative
 * (OKX signs fees from the account's side): the engine's charges are positive, its rebates
 * negative, and both round toward +inf, against us. Undefined when `amount` is unreadable or
 * past 2^53 scaled.
 */
export function pricedFeeOf(asset: string, amount: string, fees: { base: string; quote: string }, price_1e9: number, fallback: number, chargeSign: 1n | -1n): PricedFee | undefined {
  if (asset === fees.quote) {
    const fee_1e9 = safeNumber(timesRounded(amount, chargeSign * 1_000_000_000n, 'ceil'));
    return Number.isNaN(fee_1e9) ? undefined : { fee_1e9 };
  }
  const qty_1e8 = safeNumber(timesRounded(amount, chargeSign * 100_000_000n, 'ceil'));
  if (Number.isNaN(qty_1e8)) return undefined;
  if (asset === fees.base) {
    const fee_1e9 = safeNumber(timesRounded(amount, chargeSign * BigInt(price_1e9), 'ceil'));
    return Number.isNaN(fee_1e9) ? undefined : { fee_1e9, commission: { asset, qty_1e8 } };
  }
  return { fee_1e9: fallback, commission: { asset, qty_1e8 } };
}
