/**
 * Exact quantities: the step after the sweep that closes lot dust.
 *
 * The greedy sweep rounds every take down to its venue's lot. When the cheap fine-lot venues
 * are used up (their balance or depth bound), what is left can be smaller than the lot of every
 * venue that still has room, although the venues' lots together could represent the order: a
 * 3 BTC buy over okx (lot 1), bybit (lot 100) and binance (lot 1,000), each bound by its
 * balance, was planned for 2.9999921 BTC and left 790 units nobody could take.
 *
 * This step gives the plan's venues to the lot fit (lot-fit.ts): room on a venue is its next
 * levels within the limit, its balance and, for a venue new to the plan, its minimums; what a
 * venue gives back comes off its worst levels. It runs only on a plan with dust, so it is
 * written for clarity, in BigInt;
 * both routers apply it to their sweep's plan, and test/unit/sor-lots.test.ts checks
 * planned = requested against a brute-force search whenever the lots can represent the order.
 */
import { fitRemainder, type LotHolder } from './lot-fit.ts';
import { centiBps, feeE9Big } from './sor-math.ts';
import { constantCostOf, curveFee1e9, impactBps, impactSlope, levelFeeBps, planSummary, roundBps, slippageBps } from './sor-cost.ts';
import type { PlanAllocation, PlanLevel, RouteRequest, RoutingPlan, SorOptions, VenueView } from './sor-types.ts';

const B1E9 = 1_000_000_000n;
const B1E8 = 100_000_000n;

interface Slot extends LotHolder {
  index: number;
  view: VenueView;
  /** Levels taken, best first (a copy: the plan is not changed in place). */
  levels: PlanLevel[];
  /** Sum of cost_bps x qty over its levels. */
  costQty: number;
}

/** The plan with its lot dust closed when the venues' lots and room allow, else `plan` itself. */
export function closeLotDust(plan: RoutingPlan, req: RouteRequest, views: readonly VenueView[], o: Readonly<SorOptions>): RoutingPlan {
  const dust = plan.unfilled_qty_1e8;
  if (dust <= 0 || plan.arrival_mid_1e9 <= 0) return plan;
  const slots = new Map<number, Slot>();
  const byEdge = new Map<string, PlanAllocation>();
  for (const a of plan.allocations) byEdge.set(`${a.venue}|${a.edge_id}`, a);
  plan.candidates.forEach((c, i) => {
    // A venue dropped below its minimum (rule 4) may come back with at least its minimum.
    if (!c.kept) return;
    const view = views[i]!;
    const a = byEdge.get(`${view.venue}|${view.edge_id}`);
    const levels = a === undefined ? [] : a.levels.map((l) => ({ ...l }));
    const lot = lotOf(view);
    const slot: Slot = { index: i, view, lot, levels, alloc: a?.qty_1e8 ?? 0, costQty: a === undefined ? 0 : a.avg_cost_bps * a.qty_1e8, keep: 0, least: 0 };
    slot.keep = levels.length > 0 ? minimumKept(slot) : 0;
    slot.least = Math.ceil(Math.max(view.rules.min_qty_1e8, lot) / lot) * lot;
    slots.set(i, slot);
  });
  // Finest lot first, then by name, so the plan does not depend on the order of the views.
  const order = [...slots.values()].sort((x, y) => x.lot - y.lot || byName(x.view, y.view));
  let extra: PlanLevel[] | undefined;
  const fix = fitRemainder(order, dust, (c, t) => (extra = room(c, t, plan, req, o)) !== undefined);
  if (fix === undefined) return plan;
  // `extra` is the last room asked for: the fix's own (the search stops at the first that works).
  const c = fix.on;
  for (const l of extra!) {
    c.levels.push(l);
    c.alloc += l.qty_1e8;
    c.costQty += l.cost_bps * l.qty_1e8;
  }
  mergeLevels(c);
  for (const [f, x] of fix.giveBack) takeBack(f, x);
  return rebuild(plan, req, slots);
}

/**
 * True when `rest` (by default what the plan leaves unfilled) is smaller than the lot of every
 * venue that passed candidate selection: no venue could have been asked for it (lot rounding).
 */
export function isLotRemainder(plan: RoutingPlan, views: readonly VenueView[], rest = plan.unfilled_qty_1e8): boolean {
  if (rest <= 0) return false;
  let kept = false;
  for (let i = 0; i < plan.candidates.length; i++) {
    if (!plan.candidates[i]!.kept) continue;
    kept = true;
    if (lotOf(views[i]!) <= rest) return false;
  }
  return kept;
}

function byName(a: VenueView, b: VenueView): number {
  return a.venue < b.venue ? -1 : a.venue > b.venue ? 1 : a.edge_id < b.edge_id ? -1 : a.edge_id > b.edge_id ? 1 : 0;
}

function lotOf(view: VenueView): number {
  return view.rules.lot_1e8 >= 1 ? view.rules.lot_1e8 : 1;
}

/**
 * The next `t` units venue c can take beyond its plan (whole lots, within the limit, its
 * balance and, for a venue new to the plan, its minimums), as levels; undefined when it cannot.
 */
function room(c: Slot, t: number, plan: RoutingPlan, req: RouteRequest, o: Readonly<SorOptions>): PlanLevel[] | undefined {
  const view = c.view;
  const isBuy = plan.side === 'buy';
  const sign = isBuy ? 1 : -1;
  const pxs = isBuy ? view.asks_px : view.bids_px;
  const qts = isBuy ? view.asks_qty : view.bids_qty;
  const cnt = Math.min(isBuy ? view.ask_count : view.bid_count, pxs.length, qts.length);
  const limitKey = req.limit_price_1e9 !== undefined ? sign * req.limit_price_1e9 : plan.order_type === 'market' ? Infinity : -Infinity;
  const taken = new Map<number, number>();
  for (const l of c.levels) taken.set(l.price_1e9, (taken.get(l.price_1e9) ?? 0) + l.qty_1e8);
  const mid = plan.arrival_mid_1e9;
  const constant = constantCostOf(view, plan.routing_version, plan.order_type === 'market', plan.decided_ns, o);
  const slope = impactSlope(view, plan.routing_version);
  const out: PlanLevel[] = [];
  let need = t;
  let held = c.alloc;
  for (let j = 0; j < cnt && need > 0; j++) {
    const price = pxs[j]!;
    if (sign * price > limitKey) break;
    const left = qts[j]! - (taken.get(price) ?? 0);
    const whole = Math.floor(left / c.lot) * c.lot;
    if (whole <= 0) continue;
    const q = Math.min(whole, need);
    const cost = slippageBps(sign * price, sign * mid, 10_000 / mid) + constant + levelFeeBps(view.fee_curve, price) + impactBps(plan.routing_version, slope, held, 1 / plan.requested_qty_1e8);
    out.push({ price_1e9: price, qty_1e8: q, cost_bps: roundBps(cost) });
    need -= q;
    held += q;
  }
  if (need > 0) return undefined;
  const total = BigInt(c.alloc + t);
  const worst = BigInt(out[out.length - 1]!.price_1e9);
  if (isBuy) {
    const cb = BigInt(centiBps(Math.max(view.taker_bps, view.maker_bps)));
    const quote = BigInt(view.quote_available_1e8);
    const budget = o.reserve_fee_on_buy && cb > 0n ? (quote * 1_000_000n) / (1_000_000n + cb) : quote;
    if ((worst * total + B1E9 - 1n) / B1E9 > budget) return undefined;
  } else if (total > BigInt(view.base_available_1e8)) return undefined;
  if (c.alloc === 0 && (t < view.rules.min_qty_1e8 || notionalOf(out) < BigInt(view.rules.min_notional_1e9))) return undefined;
  return out;
}

/**
 * The least venue f must keep: its minimum quantity, and its minimum notional at the lowest
 * price it takes (what is given back comes off its worst levels, so this bound holds), in lots.
 */
function minimumKept(f: Slot): number {
  const rules = f.view.rules;
  let low = f.levels[0]!.price_1e9;
  for (const l of f.levels) if (l.price_1e9 < low) low = l.price_1e9;
  const best = BigInt(low);
  const forNotional = rules.min_notional_1e9 > 0 ? Number((BigInt(rules.min_notional_1e9) * B1E8 + best - 1n) / best) : 0;
  const q = Math.max(rules.min_qty_1e8, f.lot, forNotional);
  return Math.ceil(q / f.lot) * f.lot;
}

/** Gives back `x` units from f's worst levels. */
function takeBack(f: Slot, x: number): void {
  let left = x;
  while (left > 0) {
    const last = f.levels[f.levels.length - 1]!;
    const q = Math.min(last.qty_1e8, left);
    last.qty_1e8 -= q;
    f.costQty -= last.cost_bps * q;
    f.alloc -= q;
    left -= q;
    if (last.qty_1e8 === 0) f.levels.pop();
  }
}

function mergeLevels(c: Slot): void {
  const merged: PlanLevel[] = [];
  for (const l of c.levels) {
    const prev = merged[merged.length - 1];
    if (prev !== undefined && prev.price_1e9 === l.price_1e9) {
      prev.cost_bps = roundBps((prev.cost_bps * prev.qty_1e8 + l.cost_bps * l.qty_1e8) / (prev.qty_1e8 + l.qty_1e8));
      prev.qty_1e8 += l.qty_1e8;
    } else merged.push({ ...l });
  }
  c.levels = merged;
}

function notionalOf(levels: readonly PlanLevel[]): bigint {
  return pqOf(levels) / B1E8;
}

function pqOf(levels: readonly PlanLevel[]): bigint {
  let s = 0n;
  for (const l of levels) s += BigInt(l.price_1e9) * BigInt(l.qty_1e8);
  return s;
}

/** The plan again from the adjusted venues: the same arithmetic as the routers' plan assembly. */
function rebuild(plan: RoutingPlan, req: RouteRequest, slots: ReadonlyMap<number, Slot>): RoutingPlan {
  const isMarket = plan.order_type === 'market';
  const bySlot = new Map<string, Slot>();
  for (const s of slots.values()) bySlot.set(`${s.view.venue}|${s.view.edge_id}`, s);
  const allocation = (s: Slot): PlanAllocation => {
    const pq = pqOf(s.levels);
    const n = pq / B1E8;
    const curve = s.view.fee_curve;
    const flatBps = isMarket ? s.view.taker_bps : s.view.maker_bps;
    const cb = BigInt(centiBps(flatBps));
    const fee = curve !== undefined ? curveFee1e9(curve, s.levels) : Number(feeE9Big(n, cb));
    const feeBps = curve === undefined ? flatBps : n > 0n ? roundBps((fee / Number(n)) * 10_000) : 0;
    return {
      venue: s.view.venue,
      edge_id: s.view.edge_id,
      qty_1e8: s.alloc,
      limit_price_1e9: s.levels[s.levels.length - 1]!.price_1e9,
      avg_price_1e9: Number(pq / BigInt(s.alloc)),
      notional_1e9: Number(n),
      fee_bps: feeBps,
      expected_fee_1e9: fee,
      avg_cost_bps: roundBps(s.costQty / s.alloc),
      levels: s.levels,
    };
  };
  const seen = new Set<Slot>();
  const allocations: PlanAllocation[] = [];
  for (const a of plan.allocations) {
    const s = bySlot.get(`${a.venue}|${a.edge_id}`)!;
    seen.add(s);
    if (s.alloc > 0) allocations.push(allocation(s));
  }
  for (const s of slots.values()) if (!seen.has(s) && s.alloc > 0) allocations.push(allocation(s));

  let planned = 0;
  let pqAll = 0n;
  let notionalSum = 0;
  let feeSum = 0;
  let costQty = 0;
  for (const a of allocations) {
    planned += a.qty_1e8;
    pqAll += pqOf(a.levels);
    notionalSum += a.notional_1e9;
    feeSum += a.expected_fee_1e9;
    costQty += bySlot.get(`${a.venue}|${a.edge_id}`)!.costQty;
  }
  const candidates = plan.candidates.map((c, i) => {
    const s = slots.get(i);
    if (s === undefined) return c;
    return c.dropped_qty_1e8 > 0 && s.alloc > 0 ? { ...c, reason: null, dropped_qty_1e8: 0, allocated_qty_1e8: s.alloc } : { ...c, allocated_qty_1e8: s.alloc };
  });
  const sign = plan.side === 'buy' ? 1 : -1;
  const mid = plan.arrival_mid_1e9;
  const avg = planned > 0 ? Number(pqAll / BigInt(planned)) : null;
  return {
    ...plan,
    allocations,
    candidates,
    ...planSummary({ requested: req.qty_1e8, planned, notional: notionalSum, fee: feeSum, costQty, avg, sign, midKey: sign * mid, bpsPerUnit: 10_000 / mid }),
  };
}
