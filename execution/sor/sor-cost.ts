/**
 * The cost model (spec, Smart order routing rule 2) and the routing version (rule 7). Shared by
 * the fast router (sor.ts) and the reference router (sor-reference.ts), so the two can only
 * differ in how they sweep, never in what a level costs.
 *
 * Cost of taking a level, bps relative to the arrival mid, positive = worse for us:
 *
 *     cost = slippage(price) + venue terms + impact(S)
 *
 *     slippage(price) = side x (price - mid) / mid x 10,000        (side = +1 buy, -1 sell)
 *     venue terms     = fee + latency_ms x latency_bps_per_ms + age_ms x freshness_bps_per_ms
 *                       (a fee-curve venue: the curve's rate at the level's price instead of a flat fee)
 *                       (+ adverse_selection_bps + reject_rate x reject_penalty_bps   in v2, v3)
 *     impact(S)       = 0                                           (v1)
 *                     = k x S                                       (v2)
 *                     = k x S x (1 + S / Q)                         (v3)
 *
 * with S the base units (qty_1e8 / 1e8) already routed to this venue by this order before the
 * level, Q the order's size in base units and k = impact_bps_per_unit. v3's quadratic term
 * makes concentration expensive: a venue that takes the whole order pays twice v2's impact on
 * its last unit, so v3 spreads large orders across more venues.
 *
 * Within one venue the cost never decreases from one level to the next (price gets worse, S
 * only grows, k >= 0), which is what lets the sweep merge the venues' books instead of sorting.
 */
import type { LevelFeeCurve, PlanLevel, RoutingPlan, RoutingVersion, SorOptions, VenueCostTerms, VenueView } from './sor-types.ts';

/** Base units per qty_1e8 unit. */
const PER_UNIT = 1e-8;

/**
 * Routing version 1..3 from `node_order_id` (rule 7): FNV-1a over the UTF-16 code units, mod 3.
 * Deterministic across processes and restarts; spread evenly (test/unit/sor.test.ts).
 */
export function routingVersion(node_order_id: string): RoutingVersion {
  let h = 0x811c9dc5;
  for (let i = 0; i < node_order_id.length; i++) {
    h ^= node_order_id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (((h >>> 0) % 3) + 1) as RoutingVersion;
}

/** Book age in ms at decision time (a book stamped in the future counts as fresh). */
export function bookAgeMs(view: VenueView, now_ns: number): number {
  const age = now_ns - view.last_update_ns;
  return age > 0 ? age / 1_000_000 : 0;
}

/** The venue's constant cost terms for this order. */
export function venueCostTerms(
  view: VenueView,
  version: RoutingVersion,
  isMarket: boolean,
  now_ns: number,
  o: Readonly<SorOptions>,
): VenueCostTerms {
  const stats = version === 1 ? undefined : view.stats;
  return {
    fee_bps: flatFeeBps(view, isMarket),
    latency_bps: view.latency_ms * o.latency_bps_per_ms,
    freshness_bps: bookAgeMs(view, now_ns) * o.freshness_bps_per_ms,
    adverse_selection_bps: stats === undefined ? 0 : stats.adverse_selection_bps,
    reject_bps: stats === undefined ? 0 : stats.reject_rate * o.reject_penalty_bps,
    impact_bps_per_unit: stats === undefined ? 0 : Math.max(0, stats.impact_bps_per_unit),
  };
}

/** Sum of the constant terms, in one fixed order (both routers must add them identically). */
export function constantCost(t: VenueCostTerms): number {
  return t.fee_bps + t.latency_bps + t.freshness_bps + t.adverse_selection_bps + t.reject_bps;
}

/** Same sum straight from the view, without building the terms object (the hot path). */
export function constantCostOf(
  view: VenueView,
  version: RoutingVersion,
  isMarket: boolean,
  now_ns: number,
  o: Readonly<SorOptions>,
): number {
  const fee = flatFeeBps(view, isMarket);
  const latency = view.latency_ms * o.latency_bps_per_ms;
  const freshness = bookAgeMs(view, now_ns) * o.freshness_bps_per_ms;
  const stats = version === 1 ? undefined : view.stats;
  if (stats === undefined) return fee + latency + freshness + 0 + 0;
  return fee + latency + freshness + stats.adverse_selection_bps + stats.reject_rate * o.reject_penalty_bps;
}

/**
 * The venue's flat fee term: taker_bps for market orders, maker_bps for limit orders (rule 8);
 * 0 on a venue with a fee curve, whose rate is a level's (`levelFeeBps`).
 */
export function flatFeeBps(view: VenueView, isMarket: boolean): number {
  return view.fee_curve !== undefined ? 0 : isMarket ? view.taker_bps : view.maker_bps;
}

/**
 * A level's fee term on a venue with a fee curve: the curve's rate at the level's price (0 on
 * a flat-fee venue). A prediction leg always takes, so a limit order pays it too. Along one
 * book side price plus this rate never decreases (the rate moves at most rate_bps over the
 * whole 0..1 range, far less than the price does), so the sweep's merge order holds.
 */
export function levelFeeBps(curve: LevelFeeCurve | undefined, price_1e9: number): number {
  return curve === undefined ? 0 : curve.bpsAt(price_1e9);
}

/** A leg's expected fee on a venue with a fee curve: each level's fee as the venue rounds one fill. */
export function curveFee1e9(curve: LevelFeeCurve, levels: readonly PlanLevel[]): number {
  let fee = 0;
  for (const l of levels) fee += curve.takerFeeUsd1e9(l.qty_1e8, l.price_1e9);
  return fee;
}

/** The impact slope used by the sweep (0 in v1 or without stats). */
export function impactSlope(view: VenueView, version: RoutingVersion): number {
  return version === 1 || view.stats === undefined ? 0 : Math.max(0, view.stats.impact_bps_per_unit);
}

/**
 * Impact term for a venue that already holds `allocated1e8` of the order; `invOrderQty` is
 * 1 / the order's qty_1e8, computed once per decision (multiplications only: this runs once
 * per level the sweep reaches).
 */
export function impactBps(version: RoutingVersion, k: number, allocated1e8: number, invOrderQty: number): number {
  if (version === 1 || k === 0 || allocated1e8 === 0) return 0;
  const s = allocated1e8 * PER_UNIT;
  if (version === 2) return k * s;
  return k * s * (1 + allocated1e8 * invOrderQty);
}

/**
 * Slippage of one level in bps: `(key - midKey) * bpsPerUnit` with key = side x price,
 * midKey = side x mid and bpsPerUnit = 10,000 / mid, the form both routers evaluate.
 */
export function slippageBps(key: number, midKey: number, bpsPerUnit: number): number {
  return (key - midKey) * bpsPerUnit;
}

/** Output rounding of every bps figure on the plan: 1e-4 bps, enough to read and stable to compare. */
export function roundBps(x: number): number {
  // + 0 turns -0 into 0: a plan never shows a negative zero.
  return Math.round(x * 10_000) / 10_000 + 0;
}

/** What a plan's summary is computed from: the sums over its allocations, its VWAP, the mid as the routers key it. */
export interface PlanSums {
  requested: number;
  planned: number;
  notional: number;
  fee: number;
  /** quantity-weighted cost, bps x qty_1e8 */
  costQty: number;
  avg: number | null;
  sign: number;
  midKey: number;
  bpsPerUnit: number;
}

/** The plan's summary fields, computed the same way by the sweep, its reference and the lot fit. */
export function planSummary(t: PlanSums): Pick<
  RoutingPlan,
  'planned_qty_1e8' | 'unfilled_qty_1e8' | 'expected_notional_1e9' | 'expected_fee_1e9' | 'expected_fee_bps' | 'expected_avg_price_1e9' | 'expected_slippage_bps' | 'expected_cost_bps'
> {
  return {
    planned_qty_1e8: t.planned,
    unfilled_qty_1e8: t.requested - t.planned,
    expected_notional_1e9: t.notional,
    expected_fee_1e9: t.fee,
    expected_fee_bps: t.notional > 0 ? roundBps((t.fee / t.notional) * 10_000) : null,
    expected_avg_price_1e9: t.avg,
    expected_slippage_bps: t.avg === null ? null : roundBps(slippageBps(t.sign * t.avg, t.midKey, t.bpsPerUnit)),
    expected_cost_bps: t.planned > 0 ? roundBps(t.costQty / t.planned) : null,
  };
}
