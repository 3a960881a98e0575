/**
 * The reference smart order router: the same rules as sor.ts written the obvious way, to hold
 * the fast one to account (test/unit/sor-properties.test.ts compares their plans on random
 * markets) and as the benchmark's same-run baseline (bench/sor.bench.ts).
 *
 *   every level of every kept venue -> one object { venue, price, left, cost }
 *   Array.sort by (cost, price, venue rank); take from the front, skipping levels of venues
 *   that cannot take more; v2/v3 re-score the venue's levels and re-sort after every take
 *   (its impact grew). Balances and notionals in BigInt.
 *
 * Nothing here is tuned; it shares only the cost formulas (sor-cost.ts) with the fast router,
 * so the two can disagree only on selection, sweep, rounding, minimums and plan assembly.
 */
import { centiBps } from './sor-math.ts';
import { closeLotDust } from './sor-lots.ts';
import {
  curveFee1e9,
  levelFeeBps,
  impactBps,
  impactSlope,
  planSummary,
  roundBps,
  routingVersion,
  slippageBps,
  venueCostTerms,
  constantCost,
} from './sor-cost.ts';
import {
  DEFAULT_SOR_OPTIONS,
  type CandidateReason,
  type PlanAllocation,
  type PlanCandidate,
  type PlanLevel,
  type RouteRequest,
  type RoutingPlan,
  type SorOptions,
  type VenueCostTerms,
  type VenueView,
} from './sor-types.ts';

interface RefTake {
  price: number;
  qty: number;
  cost: number;
}

interface RefVenue {
  view: VenueView;
  rank: number;
  lot: number;
  kept: boolean;
  done: boolean;
  dropped: boolean;
  reason: CandidateReason | null;
  terms: VenueCostTerms | null;
  constCost: number;
  slope: number;
  bestCost: number | null;
  /** quote _1e8 (buys, after fee reserve) or base _1e8 (sells); the allocation at its worst price must fit. */
  budget: bigint;
  alloc: number;
  droppedQty: number;
  takes: RefTake[];
  firstSeq: number;
}

interface RefLevel {
  venue: RefVenue;
  price: number;
  key: number;
  left: number;
  cost: number;
}

const B1E9 = 1_000_000_000n;
const B1E8 = 100_000_000n;

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

export function referenceRoute(req: RouteRequest, views: readonly VenueView[], options: Partial<SorOptions> = {}): RoutingPlan {
  const o: SorOptions = { ...DEFAULT_SOR_OPTIONS, ...options };
  const version = req.routing_version ?? routingVersion(req.node_order_id);
  const isBuy = req.side === 'buy';
  const isMarket = req.order_type === 'market';
  const sign = isBuy ? 1 : -1;
  const mid = req.arrival_mid_1e9;
  const requested = req.qty_1e8;
  const routable = mid > 0 && requested > 0;
  const midKey = sign * mid;
  const invQty = 1 / requested;
  const bpu = routable ? 10_000 / mid : 0;
  const limitKey = req.limit_price_1e9 !== undefined ? sign * req.limit_price_1e9 : isMarket ? Infinity : -Infinity;

  const byName = views
    .map((_, i) => i)
    .sort((a, b) => {
      const x = views[a]!;
      const y = views[b]!;
      if (x.venue !== y.venue) return x.venue < y.venue ? -1 : 1;
      if (x.edge_id !== y.edge_id) return x.edge_id < y.edge_id ? -1 : 1;
      return a - b;
    });
  const ranks = new Array<number>(views.length);
  byName.forEach((v, i) => (ranks[v] = i));

  const venues: RefVenue[] = views.map((view, i) => {
    const lot = view.rules.lot_1e8 >= 1 ? view.rules.lot_1e8 : 1;
    const pxs = isBuy ? view.asks_px : view.bids_px;
    const cnt = Math.min(isBuy ? view.ask_count : view.bid_count, pxs.length, (isBuy ? view.asks_qty : view.bids_qty).length);
    const rv: RefVenue = {
      view, rank: ranks[i]!, lot, kept: false, done: false, dropped: false, reason: null, terms: null,
      constCost: 0, slope: 0, bestCost: null, budget: 0n, alloc: 0, droppedQty: 0, takes: [], firstSeq: -1,
    };
    let reason: CandidateReason | null = null;
    if (req.venue !== undefined && view.venue !== req.venue) reason = 'forced_venue_mismatch';
    else if (!view.listed) reason = 'not_listed';
    else if (!view.online) reason = 'offline';
    else if (!view.has_credentials) reason = 'no_credentials';
    else if (req.now_ns - view.last_update_ns > o.stale_after_ns) reason = 'stale_book';
    else if (cnt === 0) reason = 'empty_book';
    else {
      const best = BigInt(pxs[0]!);
      const minN = BigInt(view.rules.min_notional_1e9);
      const forNotional = minN > 0n ? ceilDiv(minN * B1E8, best) : 0n;
      let minQ = BigInt(Math.max(view.rules.min_qty_1e8, lot));
      if (forNotional > minQ) minQ = forNotional;
      minQ = ceilDiv(minQ, BigInt(lot)) * BigInt(lot);
      if (isBuy) {
        const cb = BigInt(centiBps(Math.max(view.taker_bps, view.maker_bps)));
        const quote = BigInt(view.quote_available_1e8);
        rv.budget = o.reserve_fee_on_buy && cb > 0n ? (quote * 1_000_000n) / (1_000_000n + cb) : quote;
        if (ceilDiv(best * minQ, B1E9) > rv.budget) reason = 'insufficient_balance';
      } else {
        rv.budget = BigInt(view.base_available_1e8);
        if (rv.budget < minQ) reason = 'insufficient_balance';
      }
    }
    rv.reason = reason;
    if (reason === null) {
      rv.kept = true;
      rv.terms = venueCostTerms(view, version, isMarket, req.now_ns, o);
      rv.constCost = constantCost(rv.terms);
      rv.slope = impactSlope(view, version);
      if (routable) rv.bestCost = slippageBps(sign * pxs[0]!, midKey, bpu) + rv.constCost + levelFeeBps(view.fee_curve, pxs[0]!);
    }
    return rv;
  });

  const levels: RefLevel[] = [];
  for (const venue of venues) {
    if (!venue.kept) continue;
    const pxs = isBuy ? venue.view.asks_px : venue.view.bids_px;
    const qts = isBuy ? venue.view.asks_qty : venue.view.bids_qty;
    const cnt = isBuy ? venue.view.ask_count : venue.view.bid_count;
    for (let j = 0; j < cnt; j++) {
      levels.push({ venue, price: pxs[j]!, key: sign * pxs[j]!, left: qts[j]!, cost: 0 });
    }
  }
  const score = (l: RefLevel) => {
    l.cost = slippageBps(l.key, midKey, bpu) + l.venue.constCost + levelFeeBps(l.venue.view.fee_curve, l.price) + impactBps(version, l.venue.slope, l.venue.alloc, invQty);
  };
  const byCost = (a: RefLevel, b: RefLevel) => a.cost - b.cost || a.key - b.key || a.venue.rank - b.venue.rank;

  let seq = 0;
  let remaining = routable ? requested : 0;
  for (let round = 0; round <= views.length && remaining > 0; round++) {
    const outThisRound = new Set<RefVenue>();
    for (const l of levels) score(l);
    levels.sort(byCost);
    for (;;) {
      if (remaining <= 0) break;
      const level = levels.find(
        (l) => !l.venue.done && !l.venue.dropped && !outThisRound.has(l.venue) && l.left >= l.venue.lot && l.key <= limitKey,
      );
      if (level === undefined) break;
      const venue = level.venue;
      const price = BigInt(level.price);
      let take = Math.min(level.left, remaining);
      let bound = false;
      const held = BigInt(venue.alloc);
      if (isBuy) {
        // The whole allocation at its worst price (this level) must fit the budget.
        if (ceilDiv(price * (held + BigInt(take)), B1E9) > venue.budget) {
          take = Math.max(0, Number((venue.budget * B1E9) / price - held));
          bound = true;
        }
      } else if (venue.budget - held < BigInt(take)) {
        take = Number(venue.budget - held);
        bound = true;
      }
      take -= take % venue.lot;
      if (take > 0) {
        venue.takes.push({ price: level.price, qty: take, cost: level.cost });
        if (venue.firstSeq < 0) venue.firstSeq = seq;
        seq++;
        venue.alloc += take;
        level.left -= take;
        remaining -= take;
      }
      if (bound) venue.done = true;
      else if (level.left >= venue.lot) outThisRound.add(venue);
      if (version !== 1 && take > 0) {
        for (const l of levels) if (l.venue === venue) score(l);
        levels.sort(byCost);
      }
    }
    let droppedAny = false;
    for (const venue of venues) {
      if (!venue.kept || venue.dropped || venue.alloc === 0) continue;
      const rules = venue.view.rules;
      let reason: CandidateReason | null = null;
      if (venue.alloc < rules.min_qty_1e8) reason = 'below_min_qty';
      else if (rules.min_notional_1e9 > 0) {
        const expected = notional(venue.takes);
        const last = venue.takes[venue.takes.length - 1]!;
        const atLimit = (BigInt(last.price) * BigInt(venue.alloc)) / B1E8;
        const lower = expected < atLimit ? expected : atLimit;
        if (lower < BigInt(rules.min_notional_1e9)) reason = 'below_min_notional';
      }
      if (reason === null) continue;
      venue.dropped = true;
      venue.reason = reason;
      venue.droppedQty = venue.alloc;
      remaining += venue.alloc;
      venue.alloc = 0;
      droppedAny = true;
    }
    if (!droppedAny) break;
  }

  const used = venues.filter((v) => v.kept && !v.dropped && v.alloc > 0).sort((a, b) => a.firstSeq - b.firstSeq);
  const allocations: PlanAllocation[] = [];
  let planned = 0;
  let pqAll = 0n;
  let notionalSum = 0;
  let feeSum = 0;
  let costQty = 0;
  for (const venue of used) {
    // Takes of one level in several rounds are adjacent: one level, quantity-weighted cost.
    const merged: { price: number; qty: number; cq: number }[] = [];
    let vCostQty = 0;
    for (const t of venue.takes) {
      const cq = t.cost * t.qty;
      vCostQty += cq;
      const prev = merged[merged.length - 1];
      if (prev !== undefined && prev.price === t.price) {
        prev.qty += t.qty;
        prev.cq += cq;
      } else merged.push({ price: t.price, qty: t.qty, cq });
    }
    const levelsOut: PlanLevel[] = merged.map((l) => ({ price_1e9: l.price, qty_1e8: l.qty, cost_bps: roundBps(l.cq / l.qty) }));
    const pq = venue.takes.reduce((s, t) => s + BigInt(t.price) * BigInt(t.qty), 0n);
    const nBig = pq / B1E8;
    const n = Number(nBig);
    const curve = venue.view.fee_curve;
    const flatBps = isMarket ? venue.view.taker_bps : venue.view.maker_bps;
    const cb = BigInt(centiBps(flatBps));
    const fee = curve !== undefined ? curveFee1e9(curve, levelsOut) : Number(cb >= 0n ? ceilDiv(nBig * cb, 1_000_000n) : -((nBig * -cb) / 1_000_000n));
    const feeBps = curve === undefined ? flatBps : n > 0 ? roundBps((fee / n) * 10_000) : 0;
    allocations.push({
      venue: venue.view.venue,
      edge_id: venue.view.edge_id,
      qty_1e8: venue.alloc,
      limit_price_1e9: venue.takes[venue.takes.length - 1]!.price,
      avg_price_1e9: Number(pq / BigInt(venue.alloc)),
      notional_1e9: n,
      fee_bps: feeBps,
      expected_fee_1e9: fee,
      avg_cost_bps: roundBps(vCostQty / venue.alloc),
      levels: levelsOut,
    });
    planned += venue.alloc;
    pqAll += pq;
    notionalSum += n;
    feeSum += fee;
    costQty += vCostQty;
  }

  const candidates: PlanCandidate[] = venues.map((venue) => ({
    venue: venue.view.venue,
    edge_id: venue.view.edge_id,
    kept: venue.kept,
    reason: venue.reason,
    best_cost_bps: venue.bestCost === null ? null : roundBps(venue.bestCost),
    cost:
      venue.terms === null
        ? null
        : {
            fee_bps: venue.terms.fee_bps,
            latency_bps: roundBps(venue.terms.latency_bps),
            freshness_bps: roundBps(venue.terms.freshness_bps),
            adverse_selection_bps: roundBps(venue.terms.adverse_selection_bps),
            reject_bps: roundBps(venue.terms.reject_bps),
            impact_bps_per_unit: venue.terms.impact_bps_per_unit,
          },
    allocated_qty_1e8: venue.kept && !venue.dropped ? venue.alloc : 0,
    dropped_qty_1e8: venue.droppedQty,
  }));

  const avg = planned > 0 ? Number(pqAll / BigInt(planned)) : null;
  const plan: RoutingPlan = {
    node_order_id: req.node_order_id,
    routing_version: version,
    side: req.side,
    order_type: req.order_type,
    requested_qty_1e8: requested,
    limit_price_1e9: req.order_type === 'limit' && req.limit_price_1e9 !== undefined ? req.limit_price_1e9 : null,
    forced_venue: req.venue ?? null,
    arrival_mid_1e9: mid,
    decided_ns: req.now_ns,
    allocations,
    candidates,
    ...planSummary({ requested, planned, notional: notionalSum, fee: feeSum, costQty, avg, sign, midKey, bpsPerUnit: bpu }),
  };
  // Lot dust is closed by the one shared step after the sweep (sor-lots.ts has its own test).
  return plan.unfilled_qty_1e8 > 0 ? closeLotDust(plan, req, views, o) : plan;
}

function notional(takes: readonly RefTake[]): bigint {
  return takes.reduce((s, t) => s + BigInt(t.price) * BigInt(t.qty), 0n) / B1E8;
}
