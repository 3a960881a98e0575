// What a perp order may trade on a venue, and what a perp leg reserves: both in the venue's
// quote balance, which is the margin (docs/positions-and-tca.md, "Perpetuals"). Pure.
import { perpImrBps } from '../domain/venues.ts';
import { parseSymbol } from '../domain/market.ts';
import type { Instrument, Ledger } from './ledger/ledger.ts';

const BPS = 10_000n;
const PRICE_SCALE = 1_000_000_000n;

/** The perp row of a symbol on a venue. */
export function perpInstrument(symbol: string): Instrument {
  return { kind: 'perp', symbol, base: parseSymbol(symbol)?.base ?? symbol };
}

/**
 * The SOR's balance caps for a perp on one venue: a buy may spend the notional the available
 * quote balance carries as margin and fee (available / (imr + fee)) plus what closes a short; a
 * sell may trade what that notional buys at the best bid plus what closes a long. The legs'
 * reservations are exact; these caps keep the plan within them.
 */
export function perpCaps(ledger: Ledger, venue: string, symbol: string, bestBid_1e9: number, feeBps: number): { quote_available_1e8: number; base_available_1e8: number } {
  const parts = parseSymbol(symbol);
  const imr = parts === undefined ? undefined : perpImrBps(venue, parts.base);
  if (parts === undefined || imr === undefined) return { quote_available_1e8: 0, base_available_1e8: 0 };
  const margin = ledger.available(venue, parts.quote);
  const position = ledger.row(venue, perpInstrument(symbol))?.qty_1e8 ?? 0n;
  const onMargin = margin > 0n ? (margin * BPS * 100n) / BigInt(Math.ceil((imr + feeBps) * 100)) : 0n;
  const shortQty = position < 0n ? -position : 0n;
  const longQty = position > 0n ? position : 0n;
  const closeShort = bestBid_1e9 > 0 ? (shortQty * BigInt(bestBid_1e9)) / PRICE_SCALE : 0n;
  const sellable = bestBid_1e9 > 0 ? (onMargin * PRICE_SCALE) / BigInt(bestBid_1e9) : 0n;
  return { quote_available_1e8: Number(onMargin + closeShort), base_available_1e8: Number(sellable + longQty) };
}

/**
 * What a perp leg reserves on the quote row: the initial margin of the part that opens or adds
 * (the leg's quantity beyond the opposite position it closes) at `price_1e9`, and the fee on
 * all of it, each rounded up.
 */
export function perpLegReservation(venue: string, symbol: string, side: 'buy' | 'sell', qty_1e8: number, price_1e9: number, feeBps: number, ledger: Ledger): number {
  const base = parseSymbol(symbol)?.base ?? symbol;
  const imr = BigInt(perpImrBps(venue, base) ?? 10_000);
  const position = ledger.row(venue, perpInstrument(symbol))?.qty_1e8 ?? 0n;
  const closes = side === 'buy' ? (position < 0n ? -position : 0n) : position > 0n ? position : 0n;
  const qty = BigInt(qty_1e8);
  const opens = qty > closes ? qty - closes : 0n;
  const px = BigInt(price_1e9);
  const ceil = (n: bigint, d: bigint) => (n + d - 1n) / d;
  const margin = ceil(opens * px * imr, PRICE_SCALE * BPS);
  const fee = ceil(qty * px * BigInt(Math.ceil(feeBps * 100)), PRICE_SCALE * BPS * 100n);
  return Number(margin + fee);
}

/** The views' figures a margin check reads. */
interface MarginView {
  venue: string;
  online: boolean;
  has_credentials: boolean;
  quote_available_1e8: number;
  base_available_1e8: number;
  ask_count: number;
  asks_px: Float64Array;
}

/**
 * Pre-trade risk of a perp order, before routing: refused when the venues it may use cannot
 * post the margin of all of it (their caps, `perpCaps`, summed), as a venue refuses an order
 * its margin balance cannot carry rather than filling part of it. Undefined when they can.
 */
export function perpMarginRefusal(order: { side: 'buy' | 'sell'; qty_1e8: number; forced_venue: string | null }, views: readonly MarginView[]): [string, string] | undefined {
  let carried = 0;
  for (const v of views) {
    if (!v.online || !v.has_credentials || (order.forced_venue !== null && v.venue !== order.forced_venue)) continue;
    carried += order.side === 'buy' ? (v.ask_count > 0 ? Math.floor((v.quote_available_1e8 * 1e9) / v.asks_px[0]!) : 0) : v.base_available_1e8;
  }
  if (carried >= order.qty_1e8) return undefined;
  return ['insufficient_margin', `the margin available on ${order.forced_venue ?? 'the perpetual venues'} carries at most ${carried} of the ${order.qty_1e8} ordered (qty_1e8) at the venues' maximum leverage, fees included`];
}
