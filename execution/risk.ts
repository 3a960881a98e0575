// Pre-trade risk after routing (docs/execution.md, step 5): the admission checks on the plan,
// then a reservation per leg on the client's ledger. The kill switch is the service's to check.
import { edgeSpec, listingOf } from '../domain/venues.ts';
import type { Instrument, Ledger } from './ledger/ledger.ts';
import { compileBinaryFee, isTickerFeeComponents } from '../domain/prediction/fees.ts';
import { PREDICTION_RULES } from '../domain/prediction/order-leg.ts';
import { legOn } from './prediction-entry.ts';
import type { RoutingPlan } from './sor/sor-types.ts';
import { parseSymbol } from '../domain/market.ts';
import { poolOfEdge } from './dex-orders.ts';
import type { OrderRecord } from '../domain/orders.ts';
import { notionalUsd1e9, PRICE_SCALE } from '../domain/units.ts';
import { fitRemainder, type LotHolder } from './sor/lot-fit.ts';
import { legLimit, legReservation, restingQty, type RestingLeg } from './legs.ts';
import { perpCaps, perpLegReservation } from './perp-orders.ts';

/** Admission after routing: [failure_class, reason] or undefined when the order may go. */
export function admit(order: OrderRecord, plan: RoutingPlan, canRest: boolean, maxOrderNotionalUsd1e9: number): [string, string] | undefined {
  // The request itself is capped, not only what the venues can take of it now: a market order
  // for 2^53 units must not pass because the books and balances cut its plan down.
  const requested = requestedNotional1e9(order);
  if (requested > maxOrderNotionalUsd1e9) {
    return ['risk_notional_cap', `requested notional ${requested} exceeds the per-order cap ${maxOrderNotionalUsd1e9} (USD 1e9)`];
  }
  if (plan.planned_qty_1e8 === 0 && !canRest) {
    const reasons = plan.candidates.filter((c) => c.reason !== null).map((c) => `${c.venue}: ${c.reason}`);
    return ['no_route', reasons.length > 0 ? `no venue can take the order (${reasons.join('; ')})` : 'no liquidity within the order limits'];
  }
  if (order.time_in_force === 'fok' && plan.planned_qty_1e8 < order.qty_1e8) {
    return ['fok_unfillable', `only ${plan.planned_qty_1e8} of ${order.qty_1e8} is available now`];
  }
  // A limit order may trade all of its quantity at its limit: that is its notional.
  const notional = order.limit_price_1e9 !== null ? Math.max(plan.expected_notional_1e9, notionalUsd1e9(order.limit_price_1e9, order.qty_1e8)) : plan.expected_notional_1e9;
  if (notional > maxOrderNotionalUsd1e9) {
    return ['risk_notional_cap', `order notional ${notional} exceeds the per-order cap ${maxOrderNotionalUsd1e9} (USD 1e9)`];
  }
  return undefined;
}

/**
 * The whole requested quantity at the order's own price bound: a limit order's limit, a market
 * buy's `max_price_1e9`, otherwise the arrival mid (0 when there is none: nothing can route).
 */
function requestedNotional1e9(order: OrderRecord): number {
  const bound = order.limit_price_1e9 ?? (order.side === 'buy' ? (order.constraints?.max_price_1e9 ?? null) : null) ?? order.arrival_mid_1e9 ?? 0;
  return notionalUsd1e9(bound, order.qty_1e8);
}

/**
 * Reserves on `ledger` what each leg of the plan may spend, then resting legs for a GTC
 * remainder, and adds them to the order's children (a leg the balance cannot take as
 * `rejected`). Returns each child's reservation, in the children's order.
 */
export function reserveLegs(order: OrderRecord, plan: RoutingPlan, restable: readonly RestingLeg[], ledger: Ledger): (number | false)[] {
  const parts = parseSymbol(order.symbol);
  const reservations: (number | false)[] = [];
  for (const a of plan.allocations) {
    // Each leg reserves what it may spend at worst (see legs.ts). The SOR sized the legs to
    // fit the plan's own limits exactly: when the protection band does not fit the balance,
    // the leg goes at the plan's limit.
    const terms = legTerms(order, a.venue, a.edge_id, parts);
    const asset = order.side === 'buy' ? terms.quote : terms.base;
    const clientLimit = order.order_type === 'limit' ? order.limit_price_1e9 : order.side === 'buy' ? (order.constraints?.max_price_1e9 ?? null) : null;
    let limit = Math.min(terms.maxPrice, legLimit(order.side, order.order_type, a.limit_price_1e9, clientLimit, terms.tick));
    // A fee rounded up to the cent per fill can pass the curve's rate on a tiny fill: a cent a level more.
    const extra = order.side === 'buy' ? terms.perFill * a.levels.length : 0;
    // A perp leg reserves margin and fee in the quote, either side: at its limit when buying,
    // at the best level it takes when selling (a short's margin is on the price it sells at).
    const perp = order.instrument_type === 'perp';
    const amount = (at: number) =>
      perp
        ? perpLegReservation(a.venue, order.symbol, order.side, a.qty_1e8, order.side === 'buy' ? at : Math.max(at, a.levels[0]?.price_1e9 ?? at), terms.feeBps, ledger)
        : legReservation(order.side, at, a.qty_1e8, terms.feeBps) + extra;
    let reservation = ledger.reserve(a.venue, perp ? terms.quote : asset, amount(limit));
    if (reservation === false && limit !== a.limit_price_1e9) {
      limit = a.limit_price_1e9;
      reservation = ledger.reserve(a.venue, perp ? terms.quote : asset, amount(limit));
    }
    reservations.push(reservation);
    order.children.push({
      child_id: `${order.node_order_id}-${order.children.length + 1}`,
      venue: a.venue,
      edge_id: a.edge_id,
      qty_1e8: a.qty_1e8,
      limit_price_1e9: limit,
      filled_qty_1e8: 0,
      status: reservation === false ? 'rejected' : 'sent',
      reason: reservation === false ? 'insufficient_balance' : null,
      fee_1e9: 0,
      venue_reported_cum_fee_1e9: 0,
    });
  }
  // A GTC remainder rests on the venues in order (lowest maker fee first), each taking what its
  // balance can, until all of it rests; lot dust left by that is fitted like the SOR's. (Never
  // a prediction order's: those are immediate-or-cancel.)
  if (restable.length === 0 || parts === undefined) return reservations;
  const perp = order.instrument_type === 'perp';
  const asset = perp || order.side === 'buy' ? parts.quote : parts.base;
  // A perp rests on margin: what the quote balance carries at the venue's leverage, as a spot
  // leg's balance would be read (the reservation itself is the perp's, exact).
  const available = (leg: RestingLeg) =>
    perp ? BigInt(perpCaps(ledger, leg.venue, order.symbol, leg.limit_price_1e9, reserveFeeBps(leg.edge_id))[order.side === 'buy' ? 'quote_available_1e8' : 'base_available_1e8']) : ledger.available(leg.venue, asset);
  const split = splitResting(order.side, order.qty_1e8 - plan.planned_qty_1e8, restable, available);
  for (const { leg, qty } of split) {
    const amount = perp
      ? perpLegReservation(leg.venue, order.symbol, order.side, qty, leg.limit_price_1e9, reserveFeeBps(leg.edge_id), ledger)
      : legReservation(order.side, leg.limit_price_1e9, qty, reserveFeeBps(leg.edge_id));
    const reservation = ledger.reserve(leg.venue, asset, amount);
    if (reservation === false) continue;
    reservations.push(reservation);
    order.children.push({
      child_id: `${order.node_order_id}-${order.children.length + 1}`,
      venue: leg.venue,
      edge_id: leg.edge_id,
      qty_1e8: qty,
      limit_price_1e9: leg.limit_price_1e9,
      time_in_force: 'gtc',
      filled_qty_1e8: 0,
      status: 'sent',
      reason: null,
      fee_1e9: 0,
      venue_reported_cum_fee_1e9: 0,
    });
  }
  return reservations;
}

interface RestingShare extends LotHolder {
  leg: RestingLeg;
  /** the most this venue's balance (and the remainder) lets it rest */
  cap: number;
}

/**
 * How much of `rest` each venue rests: greedy in the candidates' order, each up to what its
 * available balance reserves, then lot dust fitted by moving whole lots between venues
 * (lot-fit.ts). Pure apart from reading balances through `available`.
 */
export function splitResting(side: 'buy' | 'sell', rest: number, restable: readonly RestingLeg[], available: (leg: RestingLeg) => bigint): { leg: RestingLeg; qty: number }[] {
  const shares: RestingShare[] = [];
  let left = rest;
  for (const leg of restable) {
    const cap = restingQty(leg, side, rest, available(leg), reserveFeeBps(leg.edge_id));
    if (cap === 0) continue;
    const least = Math.ceil(Math.max(leg.min_qty_1e8, leg.lot_1e8) / leg.lot_1e8) * leg.lot_1e8;
    // The cap fits the balance, so a smaller take does too: only its lots and minimums remain.
    const take = left >= cap ? cap : left > 0 ? restingQty(leg, side, left, available(leg), reserveFeeBps(leg.edge_id)) : 0;
    shares.push({ leg, cap, lot: leg.lot_1e8, alloc: take, keep: least, least });
    left -= take;
  }
  if (left > 0) {
    const finestFirst = [...shares].sort((a, b) => a.lot - b.lot || (a.leg.venue < b.leg.venue ? -1 : a.leg.venue > b.leg.venue ? 1 : 0));
    const fix = fitRemainder(finestFirst, left, (s, t) => s.alloc + t <= s.cap && restingQty(s.leg, side, s.alloc + t, available(s.leg), reserveFeeBps(s.leg.edge_id)) === s.alloc + t);
    if (fix !== undefined) {
      fix.on.alloc += fix.add;
      for (const [s, x] of fix.giveBack) s.alloc -= x;
    }
  }
  return shares.filter((s) => s.alloc > 0).map((s) => ({ leg: s.leg, qty: s.alloc }));
}

/** What a leg reserves in and for: its assets, the venue's price tick and ceiling, its fee allowance. */
interface LegTerms {
  base: string | Instrument;
  quote: string;
  tick: number;
  maxPrice: number;
  feeBps: number;
  /** A fixed amount per fill the fee may add beyond its rate (quote 1e8 units). */
  perFill: number;
}

const ONE_CENT_1E8 = 1_000_000;

/**
 * A spot or perp leg trades its pair; a prediction leg its venue's contract for cash, at most
 * at price 1, for the curve's highest rate (plus a cent per fill on the ticker-style venue,
 * which rounds each fill's fee up to the cent).
 */
function legTerms(order: OrderRecord, venue: string, edgeId: string, parts: { base: string; quote: string } | undefined): LegTerms {
  const leg = legOn(order.prediction_legs, venue);
  if (leg !== undefined) {
    const perFill = isTickerFeeComponents(leg.fee) ? ONE_CENT_1E8 : 0;
    return { base: leg.instrument, quote: leg.cash, tick: PREDICTION_RULES.tick_1e9, maxPrice: PRICE_SCALE, feeBps: compileBinaryFee(leg.fee).max_bps, perFill };
  }
  // A pool leg trades the pool's pair; its gas is paid in ETH, checked apart (dex-orders.ts `gasRefusal`).
  const pool = poolOfEdge(edgeId);
  if (pool !== undefined) return { base: pool.base, quote: pool.quote, tick: 1, maxPrice: Number.MAX_SAFE_INTEGER, feeBps: 0, perFill: 0 };
  return { base: parts!.base, quote: parts!.quote, tick: listingOf(edgeId, order.symbol)?.rules.tick_1e9 ?? 1, maxPrice: Number.MAX_SAFE_INTEGER, feeBps: reserveFeeBps(edgeId), perFill: 0 };
}

/** A leg reserves for the larger of the venue's fees: a limit leg that crosses pays the taker rate. */
function reserveFeeBps(edgeId: string): number {
  const spec = edgeSpec(edgeId)!;
  return Math.max(spec.taker_bps, spec.maker_bps);
}

/**
 * Why an order whose legs could not be reserved is rejected, in the words of what happened: the
 * plan's legs were sized on balances that concurrent orders reserved first, or no venue's
 * available balance could take the part that was to rest.
 */
export function unreservedReason(order: OrderRecord, plan: RoutingPlan): string {
  if (plan.allocations.length > 0) return 'the balances the plan was sized on were reserved by concurrent orders first';
  const rest = order.qty_1e8 - plan.planned_qty_1e8;
  return `no venue that can rest the order has the available balance for any part of its ${rest} (qty_1e8) at the limit`;
}
