import { isLotRemainder } from './sor/sor-lots.ts';
import type { RoutingPlan, VenueView } from './sor/sor-types.ts';
import type { OrderRecord } from '../domain/orders.ts';
import { BPS, notionalUsd1e9 } from '../domain/units.ts';

/**
 * How far past the plan's worst level a market order's leg may fill: the book the plan read is
 * up to one edge batch (10 ms) old, and a leg capped exactly at that level finds nothing when
 * the level has just moved. A protection band, as venues' own market-order protection does.
 */
export const MARKET_PROTECTION_BPS = 10;

/** How long a venue's answer to a leg (Execute, Place, Cancel, Reconcile) is awaited; then the leg is in doubt. */
export const CHILD_TIMEOUT_MS = 2_000;

/** Reconciliation of legs (and cancels) in doubt: attempts, each after a longer wait (250 ms, 500 ms, ...). */
export const RECONCILE_ATTEMPTS = 8;
export const RECONCILE_BACKOFF_MS = 250;
/**
 * After the quick attempts, a leg still in doubt is asked again this often, for this long: a
 * venue unreachable for minutes, or one whose accept window is long (Kalshi 30 s, Bitstamp
 * 155 s: until then a lookup that finds nothing is not final), is still reconciled while the
 * process runs rather than left to a restart.
 */
export const RECONCILE_SLOW_MS = 15_000;
export const RECONCILE_SLOW_FOR_MS = 10 * 60_000;

/**
 * The price a leg is sent with. Market: the plan's worst level widened by the protection band
 * (buy up, sell down) to the venue's tick, never past the client's `max_price_1e9` on a buy.
 * Limit: the client's limit on the venue's tick, rounded the way that never trades worse than
 * it (a buy down, a sell up): venues reject an off-tick price outright, and a limit that suits
 * one venue's tick is off another's. Every level the plan took is on the tick and within the
 * client's limit, so rounding loses none of them.
 */
export function legLimit(
  side: 'buy' | 'sell',
  orderType: 'market' | 'limit',
  plannedLimit: number,
  clientLimit: number | null,
  tick_1e9: number,
  bandBps = MARKET_PROTECTION_BPS,
): number {
  const tick = tick_1e9 >= 1 ? tick_1e9 : 1;
  if (orderType === 'limit') {
    const limit = clientLimit ?? plannedLimit;
    return side === 'buy' ? Math.floor(limit / tick) * tick : Math.ceil(limit / tick) * tick;
  }
  const band = Math.floor((plannedLimit * bandBps) / BPS / tick) * tick;
  if (side === 'sell') return Math.max(tick, plannedLimit - band);
  const widened = plannedLimit + band;
  return clientLimit === null ? widened : Math.max(plannedLimit, Math.min(widened, clientLimit));
}

/**
 * What a leg reserves: a buy its cap price for the whole quantity plus the larger of the two fees
 * (rounded up), in quote 1e8; a sell its base quantity.
 */
export function legReservation(side: 'buy' | 'sell', limit_1e9: number, qty_1e8: number, feeBps: number): number {
  if (side === 'sell') return qty_1e8;
  const worst = Number((BigInt(limit_1e9) * BigInt(qty_1e8) + 999_999_999n) / 1_000_000_000n);
  return worst + Math.ceil((worst * feeBps) / BPS);
}

/** Where the unfilled remainder of a GTC limit order may rest, and that venue's sizing rules. */
export interface RestingLeg {
  venue: string;
  edge_id: string;
  /** The remainder in the venue's whole lots: the most this venue is offered. */
  qty_1e8: number;
  limit_price_1e9: number;
  lot_1e8: number;
  min_qty_1e8: number;
  min_notional_1e9: number;
}

/**
 * The part of `want` a resting leg on this venue can take with `available` (quote 1e8 for a
 * buy, base 1e8 for a sell) reserved as `legReservation` reserves it: whole lots, at least the
 * venue's minimums, else 0.
 */
export function restingQty(leg: RestingLeg, side: 'buy' | 'sell', want: number, available: bigint, feeBps: number): number {
  const lot = leg.lot_1e8;
  let qty = Math.floor(Math.min(want, leg.qty_1e8) / lot) * lot;
  if (side === 'sell') qty = Math.min(qty, Math.floor(Number(available) / lot) * lot);
  else {
    // A float estimate from above, then down by lots until the exact reservation fits.
    const perUnit = (leg.limit_price_1e9 / 1e9) * (1 + Math.max(feeBps, 0) / BPS);
    qty = Math.min(qty, Math.floor(Number(available) / perUnit / lot) * lot + lot);
    while (qty > 0 && BigInt(legReservation(side, leg.limit_price_1e9, qty, feeBps)) > available) qty -= lot;
  }
  if (qty <= 0 || qty < leg.min_qty_1e8 || notionalUsd1e9(leg.limit_price_1e9, qty) < leg.min_notional_1e9) return 0;
  return qty;
}

/**
 * The venues a GTC remainder may rest on, best first (the remainder is split over them in this
 * order when one venue's balance cannot take all of it): online and credentialed (the forced venue
 * only, when there is one), the lowest maker fee first, then the venue name. Each with the
 * remainder in whole lots and the limit on the venue's tick (a buy rounds down, a sell up: never
 * a worse price than the client's); venues where that falls below the minimum quantity or
 * notional are left out. Balances are the caller's to reserve, in this order.
 */
export function restingCandidates(
  views: readonly VenueView[],
  side: 'buy' | 'sell',
  remainder_1e8: number,
  limit_1e9: number,
  forced: string | null,
): RestingLeg[] {
  const out: (RestingLeg & { maker_bps: number })[] = [];
  for (const v of views) {
    if (!v.listed || !v.online || !v.has_credentials || (forced !== null && v.venue !== forced)) continue;
    const tick = v.rules.tick_1e9 >= 1 ? v.rules.tick_1e9 : 1;
    const lot = v.rules.lot_1e8 >= 1 ? v.rules.lot_1e8 : 1;
    const price = side === 'buy' ? Math.floor(limit_1e9 / tick) * tick : Math.ceil(limit_1e9 / tick) * tick;
    const qty = Math.floor(remainder_1e8 / lot) * lot;
    if (price <= 0 || qty <= 0 || qty < v.rules.min_qty_1e8 || notionalUsd1e9(price, qty) < v.rules.min_notional_1e9) continue;
    out.push({
      venue: v.venue, edge_id: v.edge_id, qty_1e8: qty, limit_price_1e9: price, maker_bps: v.maker_bps,
      lot_1e8: lot, min_qty_1e8: v.rules.min_qty_1e8, min_notional_1e9: v.rules.min_notional_1e9,
    });
  }
  out.sort((a, b) => a.maker_bps - b.maker_bps || (a.venue < b.venue ? -1 : a.venue > b.venue ? 1 : 0));
  return out.map(({ maker_bps: _m, ...leg }) => leg);
}

/**
 * `constraints.participation_limit_bps` on a single sweep: the order may take at most that share
 * of each displayed level (500 = 5 %), so the views the SOR sees show only that share (rounded
 * down); what the cap leaves is unfilled, as an IOC remainder. Views without levels are kept
 * as they are.
 */
export function withParticipation(views: readonly VenueView[], participation_bps: number): VenueView[] {
  const share = (qty: Float64Array, count: number): Float64Array => {
    const out = new Float64Array(count);
    for (let i = 0; i < count; i++) out[i] = Math.floor((qty[i]! * participation_bps) / BPS);
    return out;
  };
  return views.map((v) => ({ ...v, bids_qty: share(v.bids_qty, v.bid_count), asks_qty: share(v.asks_qty, v.ask_count) }));
}

/**
 * The part of the order no leg was sent for because it is smaller than the lot of every venue
 * that could trade it (reported as lot rounding, docs/order-states.md); 0 when there is none.
 */
export function lotRemainder(order: OrderRecord, views: readonly VenueView[], plan: RoutingPlan): number {
  let sent = 0;
  for (const c of order.children) if (c.status !== 'rejected') sent += c.qty_1e8;
  const rest = order.qty_1e8 - sent;
  return sent > 0 && isLotRemainder(plan, views, rest) ? rest : 0;
}
