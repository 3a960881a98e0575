import { route } from './sor/sor.ts';
import type { RouteRequest, RoutingPlan, VenueView } from './sor/sor-types.ts';
import { bestSingleVenue } from './views.ts';

const QTY_SCALE = 100_000_000n;

/**
 * The plan of an outcome routed across equivalent markets of several venues: the SOR's sweep
 * over every venue's leg of it, unless the cheapest single venue could fill the whole order for
 * less, all in (price and each fill's fee as the venue rounds it): then that venue alone. The
 * sweep orders levels by a score (fee curves before their per-fill rounding, latency and book
 * age); the comparison is in money, so a cross-venue order is never worse than the best venue
 * it could have used alone.
 */
export function crossVenuePlan(request: RouteRequest, views: readonly VenueView[]): RoutingPlan {
  const plan = route(request, views);
  if (request.venue !== undefined) return plan;
  const single = bestSingleVenue(views, request.side, request.qty_1e8);
  if (single === null) return plan;
  const buy = request.side === 'buy';
  // Both in USD 1e9 x 1e8, exact: the plan's notional is floored to 1e9, so compare levels.
  const planPq = plan.allocations.reduce((s, a) => s + a.levels.reduce((t, l) => t + BigInt(l.price_1e9) * BigInt(l.qty_1e8), 0n), 0n);
  const planCost = (buy ? planPq : -planPq) + BigInt(plan.expected_fee_1e9) * QTY_SCALE;
  const singleCost = (buy ? single.walk.pq : -single.walk.pq) + BigInt(single.walk.fee_1e9) * QTY_SCALE;
  if (plan.planned_qty_1e8 === request.qty_1e8 && planCost <= singleCost) return plan;
  const alone = route({ ...request, venue: single.benchmark.venue }, views);
  return alone.planned_qty_1e8 === request.qty_1e8 ? alone : plan;
}
