/**
 * The smart order router (spec, "Smart order routing rules" 1-8) as a pure core: no I/O, no
 * clock (the decision time comes in on the request), no state kept between calls except
 * reusable scratch. A decision over 10 venues x 50 levels takes 3-4 µs for an order that takes a
 * few levels, plus ~90 ns per further level taken (bench/sor.bench.ts, docs/sor.md).
 *
 *   views[] ──(1) candidate selection: forced venue, listed, online, credentials, fresh book,
 *            │     non-empty side, balance for the venue's minimum          -> reason codes
 *            v
 *   kept venues, each a cursor on its own book side (best first)
 *            │
 *            │ (2) cost of a venue's next level = slippage + venue terms + impact(S)   sor-cost.ts
 *            v
 *   (3) greedy depth sweep = k-way merge: a binary heap of venues keyed by the cost of their
 *       next level; pop the cheapest, take min(level, remaining, balance) rounded down to the
 *       lot, advance the venue and re-key it. Costs never decrease along one venue's book, so
 *       the pops come out in exactly the order of "sort every level by cost", in
 *       O(levels taken x log venues) instead of O(all levels x log all levels).
 *            │
 *            v
 *   (4) minimums: a venue below min_qty / min_notional is dropped; its quantity goes back to
 *       the sweep, which continues from every other venue's cursor (the survivors' headroom);
 *       repeat until no venue is dropped (each round drops one for good, so at most n rounds)
 *            │
 *            v
 *   RoutingPlan: children in sweep order, every candidate with its reason and cost terms
 *
 * Ties in cost go to the better price, then to the venue name, then the edge id, so a plan does
 * not depend on the order of `views`. Every quantity and balance is an integer and every
 * product of price and quantity is exact (sor-math.ts); only the bps scores are floats.
 * sor-reference.ts implements the same rules the naive way (objects, Array.sort, BigInt); the
 * differential test holds the two to identical plans. Decisions: docs/sor.md.
 */
import {
  centiBps,
  feeE9,
  feeE9Big,
  floorDiv,
  lastRemE9,
  maxAffordable,
  minQtyForNotional,
  mulDivE9Ceil,
  mulDivSmall,
  notionalE9,
  pqAdd,
  pqClear,
  pqDivE9,
  PQ_LIMBS,
  vwapE9,
} from './sor-math.ts';
import { closeLotDust } from './sor-lots.ts';
import {
  constantCostOf,
  curveFee1e9,
  flatFeeBps,
  levelFeeBps,
  impactBps,
  impactSlope,
  planSummary,
  roundBps,
  bookAgeMs,
  routingVersion,
  slippageBps,
} from './sor-cost.ts';
import {
  CANDIDATE_REASONS,
  DEFAULT_SOR_OPTIONS,
  type PlanAllocation,
  type PlanCandidate,
  type PlanLevel,
  type RouteRequest,
  type RoutingPlan,
  type RoutingVersion,
  type SorOptions,
  type LevelFeeCurve,
  type VenueCostTerms,
  type VenueView,
} from './sor-types.ts';

export * from './sor-types.ts';
export { routingVersion } from './sor-cost.ts';

const E9 = 1_000_000_000;

// Venue states during one decision.
const OUT = 0; // failed candidate selection
const ACTIVE = 1; // may take more in this or a later round
const DONE = 2; // book side, limit price or balance exhausted for good
const DROPPED = 3; // below its minimum after a round (rule 4)

// Reason codes: indexes into CANDIDATE_REASONS, NO_REASON for none.
const R_FORCED = 0;
const R_NOT_LISTED = 1;
const R_OFFLINE = 2;
const R_NO_CREDENTIALS = 3;
const R_STALE = 4;
const R_EMPTY = 5;
const R_BALANCE = 6;
const R_MIN_QTY = 7;
const R_MIN_NOTIONAL = 8;
const NO_REASON = 255;

const EMPTY_F64 = new Float64Array(0);

/**
 * A router with its scratch. One per thread (the router actor holds one); options are fixed at
 * construction. `route` is re-entrant only in the sense that it keeps nothing between calls.
 */
export class SmartOrderRouter {
  readonly options: Readonly<SorOptions>;

  // Per venue, indexed like `views`; grown to the largest n seen.
  private cap = 0;
  private state = new Uint8Array(0);
  private reason = new Uint8Array(0);
  private cursor = new Int32Array(0);
  private rank = new Int32Array(0);
  private takeFirst = new Int32Array(0);
  private takeLast = new Int32Array(0);
  private count = new Int32Array(0);
  private heap = new Int32Array(0);
  private outOrder = new Int32Array(0);
  private levelLeft = new Float64Array(0);
  private alloc = new Float64Array(0);
  private droppedQty = new Float64Array(0);
  /** Spendable balance: quote _1e8 for buys (after the fee reserve), base _1e8 for sells. */
  private budget = new Float64Array(0);
  private lot = new Float64Array(0);
  private invLot = new Float64Array(0);
  private constCost = new Float64Array(0);
  /** Each venue's fee curve, when its fee follows the price (prediction legs); undefined for a flat fee. */
  private curve: (LevelFeeCurve | undefined)[] = [];
  private slope = new Float64Array(0);
  private bestCost = new Float64Array(0);
  private headCost = new Float64Array(0);
  /** side x price of the venue's next level: lower is better for both sides. */
  private headKey = new Float64Array(0);
  /** Exact sum of price x qty over the venue's takes, PQ_LIMBS limbs per venue (sor-math.ts). */
  private pq = new Float64Array(0);
  /** 1 when the balance cannot bind whatever the sweep gives the venue: no balance arithmetic per take. */
  private ample = new Uint8Array(0);
  private px: Float64Array[] = [];
  private qt: Float64Array[] = [];

  // The take log: one entry per (venue, level, round) taken, linked per venue.
  private takeCap = 0;
  private takes = 0;
  private tNext = new Int32Array(0);
  private tPrice = new Float64Array(0);
  private tQty = new Float64Array(0);
  private tCost = new Float64Array(0);

  // Rank cache: recomputed only when the venue list changes.
  private rankVenue: string[] = [];
  private rankEdge: string[] = [];

  // Per decision, copied into fields so the helpers need no arguments.
  private version: RoutingVersion = 1;
  private sideSign = 1;
  private midKey = 0;
  private bpsPerUnit = 0;
  private limitKey = Infinity;
  private invOrderQty = 0;

  constructor(options: Partial<SorOptions> = {}) {
    this.options = Object.freeze({ ...DEFAULT_SOR_OPTIONS, ...options });
  }

  route(req: RouteRequest, views: readonly VenueView[]): RoutingPlan {
    const o = this.options;
    const n = views.length;
    const isBuy = req.side === 'buy';
    const isMarket = req.order_type === 'market';
    const sign = isBuy ? 1 : -1;
    const version = req.routing_version ?? routingVersion(req.node_order_id);
    const mid = req.arrival_mid_1e9;
    const requested = req.qty_1e8;
    const forced = req.venue;
    const now = req.now_ns;
    const routable = mid > 0 && requested > 0;

    let levelTotal = 0;
    for (let i = 0; i < n; i++) levelTotal += isBuy ? views[i]!.ask_count : views[i]!.bid_count;
    this.ensure(n, levelTotal);
    this.computeRanks(views);

    this.version = version;
    this.sideSign = sign;
    this.midKey = sign * mid;
    this.bpsPerUnit = routable ? 10_000 / mid : 0;
    this.invOrderQty = 1 / requested;
    this.limitKey = req.limit_price_1e9 !== undefined ? sign * req.limit_price_1e9 : isMarket ? Infinity : -Infinity;
    this.takes = 0;

    // (1) Candidate selection, checks in CANDIDATE_REASONS order.
    const state = this.state;
    const reason = this.reason;
    for (let v = 0; v < n; v++) {
      const view = views[v]!;
      state[v] = OUT;
      this.alloc[v] = 0;
      this.droppedQty[v] = 0;
      this.takeFirst[v] = -1;
      this.takeLast[v] = -1;
      pqClear(this.pq, v * PQ_LIMBS);
      this.bestCost[v] = NaN;
      const pxs = isBuy ? view.asks_px : view.bids_px;
      const qts = isBuy ? view.asks_qty : view.bids_qty;
      const cnt = Math.min(isBuy ? view.ask_count : view.bid_count, pxs.length, qts.length);
      this.px[v] = pxs;
      this.qt[v] = qts;
      this.count[v] = cnt;
      const lot = view.rules.lot_1e8 >= 1 ? view.rules.lot_1e8 : 1;
      this.lot[v] = lot;
      this.invLot[v] = 1 / lot;
      let r = NO_REASON;
      if (forced !== undefined && view.venue !== forced) r = R_FORCED;
      else if (!view.listed) r = R_NOT_LISTED;
      else if (!view.online) r = R_OFFLINE;
      else if (!view.has_credentials) r = R_NO_CREDENTIALS;
      else if (now - view.last_update_ns > o.stale_after_ns) r = R_STALE;
      else if (cnt === 0) r = R_EMPTY;
      else {
        const best = pxs[0]!;
        const rules = view.rules;
        // Minimum tradable quantity at the best price. A float upper bound settles the balance
        // check for any venue that is not close to it; the exact quantity only near the edge.
        const roughQ = Math.max(rules.min_qty_1e8, lot, (rules.min_notional_1e9 / best) * 1e8 * (1 + 1e-12) + 1) + lot;
        if (isBuy) {
          // The reserve takes the larger fee: a limit child that crosses pays the taker rate.
          const cb = centiBps(Math.max(view.taker_bps, view.maker_bps));
          const quote = view.quote_available_1e8;
          const budget = o.reserve_fee_on_buy && cb > 0 ? mulDivSmall(quote, 1_000_000, 1_000_000 + cb) : quote;
          this.budget[v] = budget;
          // Negated comparisons: a minimum beyond 2^53 (Infinity) reads as insufficient.
          if (((best * roughQ) / E9) * (1 + 1e-12) + 1 > budget && !(mulDivE9Ceil(best, minTradable(best, rules, lot)) <= budget)) {
            r = R_BALANCE;
          }
          // The most this order can lock here: all of it at the worst displayed price.
          const most = (requested * pxs[cnt - 1]!) / E9;
          this.ample[v] = most * (1 + 1e-12) + 1 <= budget ? 1 : 0;
        } else {
          this.budget[v] = view.base_available_1e8;
          if (view.base_available_1e8 < roughQ && !(view.base_available_1e8 >= minTradable(best, rules, lot))) r = R_BALANCE;
          this.ample[v] = view.base_available_1e8 >= requested ? 1 : 0;
        }
      }
      reason[v] = r;
      if (r !== NO_REASON) continue;
      state[v] = ACTIVE;
      this.constCost[v] = constantCostOf(view, version, isMarket, now, o);
      this.curve[v] = view.fee_curve;
      this.slope[v] = impactSlope(view, version);
      this.cursor[v] = 0;
      this.levelLeft[v] = this.qt[v]![0]!;
      if (routable) this.bestCost[v] = slippageBps(sign * this.px[v]![0]!, this.midKey, this.bpsPerUnit) + this.constCost[v]! + levelFeeBps(view.fee_curve, this.px[v]![0]!);
    }

    // (3) + (4) Sweep rounds.
    let remaining = routable ? requested : 0;
    for (let round = 0; round <= n && remaining > 0; round++) {
      remaining = this.sweep(remaining, isBuy);
      let droppedAny = false;
      for (let v = 0; v < n; v++) {
        if (state[v] === OUT || state[v] === DROPPED || this.alloc[v] === 0) continue;
        const rules = views[v]!.rules;
        let r = NO_REASON;
        if (this.alloc[v]! < rules.min_qty_1e8) r = R_MIN_QTY;
        else if (rules.min_notional_1e9 > 0) {
          const expected = this.notionalOf(v);
          const atLimit = notionalE9(this.tPrice[this.takeLast[v]!]!, this.alloc[v]!);
          if (Math.min(expected, atLimit) < rules.min_notional_1e9) r = R_MIN_NOTIONAL;
        }
        if (r === NO_REASON) continue;
        state[v] = DROPPED;
        reason[v] = r;
        this.droppedQty[v] = this.alloc[v]!;
        remaining += this.alloc[v]!;
        this.alloc[v] = 0;
        droppedAny = true;
      }
      if (!droppedAny) break;
    }

    const plan = this.buildPlan(req, views, version, isMarket, requested);
    // Lot dust: what the sweep's lot rounding left over, closed when the lots allow (sor-lots.ts).
    return plan.unfilled_qty_1e8 > 0 ? closeLotDust(plan, req, views, o) : plan;
  }

  /**
   * One round of the greedy sweep over the ACTIVE venues; returns what is left to place.
   * The hot loop of the router: every field it touches is copied into a local first and the
   * heap operations are written out in place (measured faster than calling heap methods).
   */
  private sweep(remaining: number, isBuy: boolean): number {
    const n = this.cap;
    const state = this.state;
    const heap = this.heap;
    const alloc = this.alloc;
    const budget = this.budget;
    const levelLeft = this.levelLeft;
    const ample = this.ample;
    const pq = this.pq;
    const lots = this.lot;
    const invLot = this.invLot;
    const cursor = this.cursor;
    const count = this.count;
    const headCost = this.headCost;
    const headKey = this.headKey;
    const rank = this.rank;
    const constCost = this.constCost;
    const slope = this.slope;
    const pxs = this.px;
    const qts = this.qt;
    const tPrice = this.tPrice;
    const tQty = this.tQty;
    const tCost = this.tCost;
    const tNext = this.tNext;
    const takeFirst = this.takeFirst;
    const takeLast = this.takeLast;
    const sign = this.sideSign;
    const midKey = this.midKey;
    const bpu = this.bpsPerUnit;
    const limitKey = this.limitKey;
    const version = this.version;
    const invOrderQty = this.invOrderQty;
    let takes = this.takes;

    let size = 0;
    for (let v = 0; v < n; v++) {
      if (state[v] !== ACTIVE || !this.seek(v)) continue;
      let i = size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!before(headCost, headKey, rank, v, heap[parent]!)) break;
        heap[i] = heap[parent]!;
        i = parent;
      }
      heap[i] = v;
    }

    while (remaining > 0 && size > 0) {
      const v = heap[0]!;
      const lot = lots[v]!;
      const c = cursor[v]!;
      const px = pxs[v]!;
      const price = px[c]!;
      const left = levelLeft[v]!;
      let take = left < remaining ? left : remaining;
      let balanceBound = false;
      if (ample[v] === 0) {
        const held = alloc[v]!;
        if (isBuy) {
          // The child goes out capped at its worst level, and a venue locks cap x qty: the
          // whole allocation must be affordable at this (its new worst) price. A float bound
          // first; the exact check only near the edge of the budget.
          const total = held + take;
          if (((price * total) / E9) * (1 + 1e-12) + 1 > budget[v]! && mulDivE9Ceil(price, total) > budget[v]!) {
            const most = maxAffordable(budget[v]!, price, total) - held;
            take = most > 0 ? most : 0;
            balanceBound = true;
          }
        } else if (budget[v]! - held < take) {
          take = budget[v]! - held;
          balanceBound = true;
        }
      }
      // Round down to the lot. `%` on doubles beyond the small-integer range is a libc fmod call
      // in V8 and a division is slow too: multiply by 1 / lot, then correct the last unit.
      if (lot !== 1) {
        let k = Math.floor(take * invLot[v]!);
        const r = take - k * lot;
        if (r < 0) k -= 1;
        else if (r >= lot) k += 1;
        take = k * lot;
      }
      if (take > 0) {
        pqAdd(pq, v * PQ_LIMBS, price, take);
        const t = takes++;
        tPrice[t] = price;
        tQty[t] = take;
        tCost[t] = headCost[v]!;
        tNext[t] = -1;
        if (takeFirst[v] === -1) takeFirst[v] = t;
        else tNext[takeLast[v]!] = t;
        takeLast[v] = t;
        alloc[v] = alloc[v]! + take;
        levelLeft[v] = left - take;
        remaining -= take;
      }

      // Re-key v at the root (its next level) or replace the root with the last leaf.
      let top = -1;
      if (!balanceBound && left - take < lot) {
        // Level used up: advance to the next level of at least one lot within the limit.
        const qt = qts[v]!;
        const cnt = count[v]!;
        let next = c + 1;
        while (next < cnt && !(qt[next]! >= lot)) next++;
        cursor[v] = next;
        if (next < cnt) {
          const key = sign * px[next]!;
          if (key <= limitKey) {
            levelLeft[v] = qt[next]!;
            headKey[v] = key;
            headCost[v] =
              slippageBps(key, midKey, bpu) + constCost[v]! + levelFeeBps(this.curve[v], px[next]!) + (version === 1 ? 0 : impactBps(version, slope[v]!, alloc[v]!, invOrderQty));
            top = v;
          } else state[v] = DONE;
        } else state[v] = DONE;
      } else if (balanceBound) {
        // What is left buys less than a lot here, and every later level is worse.
        state[v] = DONE;
      }
      // else: the order's remainder is below this venue's lot: out for this round only.
      if (top === -1) {
        if (--size === 0) break;
        top = heap[size]!;
      }
      let i = 0;
      for (;;) {
        let child = 2 * i + 1;
        if (child >= size) break;
        if (child + 1 < size && before(headCost, headKey, rank, heap[child + 1]!, heap[child]!)) child++;
        if (!before(headCost, headKey, rank, heap[child]!, top)) break;
        heap[i] = heap[child]!;
        i = child;
      }
      heap[i] = top;
    }
    this.takes = takes;
    return remaining;
  }

  /**
   * Moves venue v's cursor to its first takeable level from the cursor on (at least one lot,
   * within the limit) and keys it; marks the venue DONE and returns false when there is none.
   */
  private seek(v: number): boolean {
    const lot = this.lot[v]!;
    const cnt = this.count[v]!;
    const qt = this.qt[v]!;
    let c = this.cursor[v]!;
    let left = this.levelLeft[v]!;
    while (!(left >= lot)) {
      c++;
      if (c >= cnt) {
        this.cursor[v] = c;
        this.state[v] = DONE;
        return false;
      }
      left = qt[c]!;
    }
    this.cursor[v] = c;
    this.levelLeft[v] = left;
    const key = this.sideSign * this.px[v]![c]!;
    if (key > this.limitKey) {
      this.state[v] = DONE;
      return false;
    }
    this.headKey[v] = key;
    this.headCost[v] =
      slippageBps(key, this.midKey, this.bpsPerUnit) +
      this.constCost[v]! +
      levelFeeBps(this.curve[v], this.px[v]![c]!) +
      (this.version === 1 ? 0 : impactBps(this.version, this.slope[v]!, this.alloc[v]!, this.invOrderQty));
    return true;
  }

  /** Exact expected notional of venue v's takes, USD 1e9 (floor); leaves sum/1e9's remainder in lastRemE9(). */
  private notionalOf(v: number): number {
    const q = pqDivE9(this.pq, v * PQ_LIMBS);
    const r = lastRemE9();
    const n = q * 10 + floorDiv(r * 10, E9);
    return n > Number.MAX_SAFE_INTEGER ? Infinity : n;
  }

  /** Sum of price x qty over venue v's takes in BigInt: the rare path for children above $9M. */
  private bigSum(v: number): bigint {
    let sum = 0n;
    for (let t = this.takeFirst[v]!; t !== -1; t = this.tNext[t]!) sum += BigInt(this.tPrice[t]!) * BigInt(this.tQty[t]!);
    return sum;
  }

  // --- setup ---------------------------------------------------------------------------------

  private ensure(n: number, levels: number): void {
    if (this.state.length < n) {
      const c = Math.max(n, 16);
      this.state = new Uint8Array(c);
      this.reason = new Uint8Array(c);
      this.cursor = new Int32Array(c);
      this.rank = new Int32Array(c);
      this.takeFirst = new Int32Array(c);
      this.takeLast = new Int32Array(c);
      this.count = new Int32Array(c);
      this.heap = new Int32Array(c);
      this.outOrder = new Int32Array(c);
      this.levelLeft = new Float64Array(c);
      this.alloc = new Float64Array(c);
      this.droppedQty = new Float64Array(c);
      this.budget = new Float64Array(c);
      this.lot = new Float64Array(c);
      this.invLot = new Float64Array(c);
      this.constCost = new Float64Array(c);
      this.slope = new Float64Array(c);
      this.bestCost = new Float64Array(c);
      this.headCost = new Float64Array(c);
      this.headKey = new Float64Array(c);
      this.pq = new Float64Array(c * PQ_LIMBS);
      this.ample = new Uint8Array(c);
      this.px = new Array<Float64Array>(c).fill(EMPTY_F64);
      this.qt = new Array<Float64Array>(c).fill(EMPTY_F64);
      this.rankVenue = [];
      this.rankEdge = [];
    }
    this.cap = n;
    // A level is taken at most once per round while it is a venue's partially taken head, so
    // levels + one extra entry per venue per round (at most n + 1 rounds) bounds the log.
    const takes = levels + n * (n + 2) + 1;
    if (takes > this.takeCap) {
      const c = Math.max(takes, 1024);
      this.takeCap = c;
      this.tNext = new Int32Array(c);
      this.tPrice = new Float64Array(c);
      this.tQty = new Float64Array(c);
      this.tCost = new Float64Array(c);
    }
  }

  /** rank[v] = position of (venue, edge_id) in sorted order: the last tie-break. */
  private computeRanks(views: readonly VenueView[]): void {
    const n = views.length;
    let same = this.rankVenue.length === n;
    for (let i = 0; same && i < n; i++) {
      same = this.rankVenue[i] === views[i]!.venue && this.rankEdge[i] === views[i]!.edge_id;
    }
    if (same) return;
    const order = this.outOrder;
    for (let i = 0; i < n; i++) {
      const vi = views[i]!;
      let j = i;
      while (j > 0 && nameBefore(vi, views[order[j - 1]!]!)) {
        order[j] = order[j - 1]!;
        j--;
      }
      order[j] = i;
    }
    for (let i = 0; i < n; i++) this.rank[order[i]!] = i;
    this.rankVenue = views.map((v) => v.venue);
    this.rankEdge = views.map((v) => v.edge_id);
  }

  // --- output --------------------------------------------------------------------------------

  private buildPlan(
    req: RouteRequest,
    views: readonly VenueView[],
    version: RoutingVersion,
    isMarket: boolean,
    requested: number,
  ): RoutingPlan {
    const n = views.length;
    const o = this.options;
    // Children in the order the sweep first reached their venue.
    const order = this.outOrder;
    let m = 0;
    for (let v = 0; v < n; v++) {
      if (this.state[v] === OUT || this.state[v] === DROPPED || this.alloc[v] === 0) continue;
      // takeFirst is the index of the venue's first take, i.e. when the sweep first reached it.
      const seq = this.takeFirst[v]!;
      let j = m++;
      while (j > 0 && this.takeFirst[order[j - 1]!]! > seq) {
        order[j] = order[j - 1]!;
        j--;
      }
      order[j] = v;
    }

    const takeFirst = this.takeFirst;
    const tNext = this.tNext;
    const tPrice = this.tPrice;
    const tQty = this.tQty;
    const tCost = this.tCost;
    const allocations: PlanAllocation[] = [];
    let planned = 0;
    let totalQ = 0;
    let totalR = 0;
    let notionalSum = 0;
    let feeSum = 0;
    let costQty = 0;
    let big = false;
    for (let k = 0; k < m; k++) {
      const v = order[k]!;
      const view = views[v]!;
      const qty = this.alloc[v]!;
      // Takes of one level in several rounds are adjacent in the venue's list: merged into one
      // level, its cost the quantity-weighted mean. Counted first so the array is allocated once.
      let runs = 0;
      for (let t = takeFirst[v]!, prev = -1; t !== -1; t = tNext[t]!) {
        if (tPrice[t] !== prev) runs++;
        prev = tPrice[t]!;
      }
      const levels = new Array<PlanLevel>(runs);
      let out = 0;
      let vCostQty = 0;
      let px = -1;
      let lq = 0;
      let lcq = 0;
      for (let t = takeFirst[v]!; t !== -1; t = tNext[t]!) {
        const p = tPrice[t]!;
        const q = tQty[t]!;
        const cq = tCost[t]! * q;
        vCostQty += cq;
        if (p !== px && lq > 0) {
          levels[out++] = { price_1e9: px, qty_1e8: lq, cost_bps: roundBps(lcq / lq) };
          lq = 0;
          lcq = 0;
        }
        px = p;
        lq += q;
        lcq += cq;
      }
      levels[out] = { price_1e9: px, qty_1e8: lq, cost_bps: roundBps(lcq / lq) };
      let fee_bps = isMarket ? view.taker_bps : view.maker_bps;
      const sumQ = pqDivE9(this.pq, v * PQ_LIMBS);
      const sumR = lastRemE9();
      const n10 = sumQ * 10 + floorDiv(sumR * 10, E9);
      let notional = n10;
      let fee: number;
      let avg: number;
      if (n10 <= Number.MAX_SAFE_INTEGER) {
        fee = feeE9(notional, centiBps(fee_bps));
        avg = vwapE9(sumQ, sumR, qty);
      } else {
        // A child above $9,007,199 of notional: USD 1e9 no longer fits a double exactly.
        // Rare, so BigInt; the notional is then the nearest double, as units.ts notionalUsd1e9.
        big = true;
        const exact = this.bigSum(v);
        const nBig = exact / 100_000_000n;
        const cb = BigInt(centiBps(fee_bps));
        notional = Number(nBig);
        fee = Number(feeE9Big(nBig, cb));
        avg = Number(exact / BigInt(qty));
      }
      if (view.fee_curve !== undefined) {
        fee = curveFee1e9(view.fee_curve, levels);
        fee_bps = notional > 0 ? roundBps((fee / notional) * 10_000) : 0;
      }
      allocations.push({
        venue: view.venue,
        edge_id: view.edge_id,
        qty_1e8: qty,
        limit_price_1e9: tPrice[this.takeLast[v]!]!,
        avg_price_1e9: avg,
        notional_1e9: notional,
        fee_bps,
        expected_fee_1e9: fee,
        avg_cost_bps: roundBps(vCostQty / qty),
        levels,
      });
      planned += qty;
      notionalSum += notional;
      feeSum += fee;
      costQty += vCostQty;
      totalQ += sumQ;
      totalR += sumR;
      if (totalR >= E9) {
        totalQ += 1;
        totalR -= E9;
      }
    }

    const candidates: PlanCandidate[] = [];
    for (let v = 0; v < n; v++) {
      const view = views[v]!;
      const kept = this.state[v] !== OUT;
      const r = this.reason[v]!;
      let cost: VenueCostTerms | null = null;
      if (kept) {
        // The same terms as venueCostTerms (sor-cost.ts), built once and rounded for display.
        const stats = version === 1 ? undefined : view.stats;
        cost = {
          fee_bps: flatFeeBps(view, isMarket),
          latency_bps: roundBps(view.latency_ms * o.latency_bps_per_ms),
          freshness_bps: roundBps(bookAgeMs(view, req.now_ns) * o.freshness_bps_per_ms),
          adverse_selection_bps: stats === undefined ? 0 : roundBps(stats.adverse_selection_bps),
          reject_bps: stats === undefined ? 0 : roundBps(stats.reject_rate * o.reject_penalty_bps),
          impact_bps_per_unit: stats === undefined ? 0 : Math.max(0, stats.impact_bps_per_unit),
        };
      }
      const best = this.bestCost[v]!;
      candidates.push({
        venue: view.venue,
        edge_id: view.edge_id,
        kept,
        reason: r === NO_REASON ? null : CANDIDATE_REASONS[r]!,
        best_cost_bps: kept && best === best ? roundBps(best) : null,
        cost,
        allocated_qty_1e8: kept && this.state[v] !== DROPPED ? this.alloc[v]! : 0,
        dropped_qty_1e8: this.droppedQty[v]!,
      });
    }

    let avg: number | null = null;
    if (planned > 0 && !big) avg = vwapE9(totalQ, totalR, planned);
    else if (planned > 0) {
      let exact = 0n;
      for (let k = 0; k < m; k++) exact += this.bigSum(order[k]!);
      avg = Number(exact / BigInt(planned));
    }
    return {
      node_order_id: req.node_order_id,
      routing_version: version,
      side: req.side,
      order_type: req.order_type,
      requested_qty_1e8: requested,
      limit_price_1e9: req.order_type === 'limit' && req.limit_price_1e9 !== undefined ? req.limit_price_1e9 : null,
      forced_venue: req.venue ?? null,
      arrival_mid_1e9: req.arrival_mid_1e9,
      decided_ns: req.now_ns,
      allocations,
      candidates,
      ...planSummary({ requested, planned, notional: notionalSum, fee: feeSum, costQty, avg, sign: this.sideSign, midKey: this.midKey, bpsPerUnit: this.bpsPerUnit }),
    };
  }
}

/**
 * The venue's minimum tradable quantity at price `best`: the largest of its min qty, one lot and
 * the quantity that reaches its min notional, rounded up to the lot.
 */
function minTradable(best: number, rules: VenueView['rules'], lot: number): number {
  const q = Math.max(rules.min_qty_1e8, lot, minQtyForNotional(best, rules.min_notional_1e9));
  return Math.ceil(q / lot) * lot;
}

/** Heap order of venues a and b: cost, then better price (lower key), then name rank. */
function before(cost: Float64Array, key: Float64Array, rank: Int32Array, a: number, b: number): boolean {
  const ca = cost[a]!;
  const cb = cost[b]!;
  if (ca !== cb) return ca < cb;
  const ka = key[a]!;
  const kb = key[b]!;
  if (ka !== kb) return ka < kb;
  return rank[a]! < rank[b]!;
}

/** Name order of two views: venue, then edge id (the last tie-break, and the `rank` order). */
function nameBefore(a: VenueView, b: VenueView): boolean {
  return a.venue < b.venue || (a.venue === b.venue && a.edge_id < b.edge_id);
}

let shared: SmartOrderRouter | undefined;

/** One decision with the default options, on a shared router (single-threaded callers). */
export function route(req: RouteRequest, views: readonly VenueView[]): RoutingPlan {
  shared ??= new SmartOrderRouter();
  return shared.route(req, views);
}
