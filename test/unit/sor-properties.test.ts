/**
 * Smart order router properties on random markets (fast-check): up to 6 venues with random
 * books, lots, minimums, balances, fees, freshness, flags and statistics; buys and sells,
 * market and limit, forced venues, versions 1-3.
 *
 *   1. differential: the fast router's plan deep-equals the reference router's (objects,
 *      Array.sort, BigInt; execution/sor/sor-reference.ts), with ONE fast router reused across
 *      every run so stale scratch would show;
 *   2. invariants of every plan: quantities add up (planned <= requested, planned + unfilled =
 *      requested by definition), no level over its displayed depth, no venue over its balance
 *      (a buy child affordable at its cap, fee reserve included),
 *      every child a lot multiple at or above its venue's minimums, limit prices respected,
 *      notional / fee / VWAP exact;
 *   3. determinism: same inputs give the same plan, and permuting the views changes nothing
 *      but the order of `candidates`;
 *   4. completeness and greediness (lot 1, no minimums, ample balances, market order): when the
 *      kept venues show enough depth nothing is left unfilled, and no untaken level is cheaper
 *      than a taken one (v1).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { SmartOrderRouter, type RouteRequest, type RoutingPlan, type VenueView } from '../../execution/sor/sor.ts';
import { referenceRoute } from '../../execution/sor/sor-reference.ts';
import { centiBps } from '../../execution/sor/sor-math.ts';

const NOW = 1_000_000_000_000_000;
const NAMES = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta'];
const MIDS = [2_300_000_000, 100_000_000_000, 95_000_000_000_000];
const RUNS = Number(process.env.SOR_PROPERTY_RUNS ?? 600);

interface Market {
  req: RouteRequest;
  views: VenueView[];
}

/** Each selection flag fails one time in twelve. */
const flag = fc.integer({ min: 0, max: 11 }).map((x) => x !== 0);

function venueArb(mid: number) {
  const tick = Math.max(1, Math.round(mid / 10_000)); // 1 bps
  return fc
    .record({
      asks: fc.array(fc.tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 400 })), { maxLength: 8 }),
      bids: fc.array(fc.tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 400 })), { maxLength: 8 }),
      start: fc.integer({ min: -2, max: 15 }),
      /** 0 = sizes in whole lots (most books), else sizes in this unit, lot-aligned or not. */
      qtyUnit: fc.constantFrom(0, 0, 0, 1, 1_000, 100_000, 1_000_000, 100_000_000),
      lot: fc.constantFrom(1, 1_000, 1_000_000, 10_000_000),
      minLots: fc.integer({ min: 0, max: 20 }),
      minNotional: fc.constantFrom(0, 0, 0, 1_000_000_000, 10_000_000_000, 500_000_000_000),
      taker: fc.integer({ min: -2, max: 60 }),
      maker: fc.integer({ min: -3, max: 40 }),
      latency: fc.integer({ min: 0, max: 60 }),
      ageMs: fc.integer({ min: 0, max: 5_500 }),
      listed: flag,
      online: flag,
      creds: flag,
      base: fc.oneof(fc.integer({ min: 0, max: 200_000_000 }), fc.constant(1e12)),
      quote: fc.oneof(fc.integer({ min: 0, max: 2_000_000_000_000 }), fc.constant(4e15)),
      stats: fc.option(
        fc.record({
          adverse_selection_bps: fc.double({ min: 0, max: 5, noNaN: true }),
          reject_rate: fc.double({ min: 0, max: 0.5, noNaN: true }),
          impact_bps_per_unit: fc.double({ min: 0, max: 3, noNaN: true }),
        }),
        { nil: undefined },
      ),
    })
    .map((s) => {
      const side = (levels: [number, number][], dir: 1 | -1) => {
        const px: number[] = [];
        const qty: number[] = [];
        let ticks = s.start;
        for (const [gap, q] of levels) {
          ticks += gap;
          const p = mid + dir * ticks * tick;
          if (p <= 0) break;
          px.push(p);
          qty.push(q * (s.qtyUnit === 0 ? Math.min(s.lot, 1_000_000) : s.qtyUnit));
        }
        return { px: Float64Array.from(px), qty: Float64Array.from(qty) };
      };
      const asks = side(s.asks, 1);
      const bids = side(s.bids, -1);
      return {
        spec: s,
        make: (i: number): VenueView => ({
          venue: NAMES[i]!,
          edge_id: `venue-edge-${NAMES[i]!}`,
          listed: s.listed,
          online: s.online,
          last_update_ns: NOW - s.ageMs * 1_000_000,
          has_credentials: s.creds,
          base_available_1e8: s.base,
          quote_available_1e8: s.quote,
          asks_px: asks.px,
          asks_qty: asks.qty,
          ask_count: asks.px.length,
          bids_px: bids.px,
          bids_qty: bids.qty,
          bid_count: bids.px.length,
          maker_bps: s.maker,
          taker_bps: s.taker,
          latency_ms: s.latency,
          rules: { tick_1e9: tick, lot_1e8: s.lot, min_qty_1e8: s.minLots * s.lot, min_notional_1e9: s.minNotional },
          ...(s.stats === undefined ? {} : { stats: s.stats }),
        }),
      };
    });
}

const marketArb: fc.Arbitrary<Market> = fc.constantFrom(...MIDS).chain((mid) =>
  fc
    .record({
      venues: fc.array(venueArb(mid), { minLength: 0, maxLength: 6 }),
      side: fc.constantFrom('buy' as const, 'sell' as const),
      qty: fc.oneof(
        { arbitrary: fc.integer({ min: 1, max: 1_000 }), weight: 1 },
        { arbitrary: fc.integer({ min: 1_000_000, max: 1_000_000_000 }), weight: 6 },
        { arbitrary: fc.integer({ min: 1, max: 3_000_000_000 }), weight: 3 },
        // Up to 500 units: at 95,000 a child can pass $9M, where USD 1e9 stops fitting a double.
        { arbitrary: fc.integer({ min: 1, max: 50_000_000_000 }), weight: 1 },
      ),
      // Market orders two times in three; a forced venue one time in five.
      limit: fc.oneof({ arbitrary: fc.constant(undefined), weight: 2 }, { arbitrary: fc.integer({ min: -10, max: 30 }), weight: 1 }),
      forced: fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: fc.constantFrom(...NAMES, 'nowhere'), weight: 1 }),
      version: fc.constantFrom(1 as const, 2 as const, 3 as const),
      id: fc.string({ maxLength: 8 }),
    })
    .map((m) => {
      const sign = m.side === 'buy' ? 1 : -1;
      const tick = Math.max(1, Math.round(mid / 10_000));
      const req: RouteRequest = {
        node_order_id: m.id,
        side: m.side,
        qty_1e8: m.qty,
        order_type: m.limit === undefined ? 'market' : 'limit',
        arrival_mid_1e9: mid,
        now_ns: NOW,
        routing_version: m.version,
        ...(m.limit === undefined ? {} : { limit_price_1e9: mid + sign * m.limit * tick }),
        ...(m.forced === undefined ? {} : { venue: m.forced }),
      };
      return { req, views: m.venues.map((v, i) => v.make(i)) };
    }),
);

const fast = new SmartOrderRouter();

function checkInvariants({ req, views }: Market, p: RoutingPlan): void {
  const isBuy = req.side === 'buy';
  assert.equal(p.candidates.length, views.length);
  assert.ok(p.planned_qty_1e8 >= 0 && p.planned_qty_1e8 <= req.qty_1e8);
  assert.equal(p.planned_qty_1e8 + p.unfilled_qty_1e8, req.qty_1e8);
  assert.equal(p.allocations.reduce((s, a) => s + a.qty_1e8, 0), p.planned_qty_1e8);
  let pqAll = 0n;
  for (const a of p.allocations) {
    const i = views.findIndex((v) => v.venue === a.venue && v.edge_id === a.edge_id);
    const view = views[i]!;
    const cand = p.candidates[i]!;
    assert.ok(cand.kept && cand.reason === null, 'allocation on a venue that is not kept');
    assert.equal(cand.allocated_qty_1e8, a.qty_1e8);
    if (req.venue !== undefined) assert.equal(a.venue, req.venue);
    const lot = Math.max(1, view.rules.lot_1e8);
    assert.equal(a.qty_1e8 % lot, 0, 'child not a lot multiple');
    assert.ok(a.qty_1e8 >= view.rules.min_qty_1e8, 'child below min qty');
    assert.equal(a.levels.reduce((s, l) => s + l.qty_1e8, 0), a.qty_1e8);
    const pxs = isBuy ? view.asks_px : view.bids_px;
    const qts = isBuy ? view.asks_qty : view.bids_qty;
    let pq = 0n;
    let spend = 0n;
    let prev = isBuy ? -Infinity : Infinity;
    for (const l of a.levels) {
      const j = pxs.indexOf(l.price_1e9);
      assert.ok(j >= 0, 'level price not in the book');
      assert.ok(l.qty_1e8 > 0 && l.qty_1e8 <= qts[j]!, 'more than displayed');
      assert.ok(isBuy ? l.price_1e9 > prev : l.price_1e9 < prev, 'levels not in book order');
      prev = l.price_1e9;
      if (req.order_type === 'limit') {
        assert.ok(isBuy ? l.price_1e9 <= req.limit_price_1e9! : l.price_1e9 >= req.limit_price_1e9!, 'beyond the limit');
      }
      const x = BigInt(l.price_1e9) * BigInt(l.qty_1e8);
      pq += x;
      spend += (x + 999_999_999n) / 1_000_000_000n;
    }
    assert.equal(a.limit_price_1e9, a.levels[a.levels.length - 1]!.price_1e9);
    if (isBuy) {
      assert.ok(spend <= BigInt(view.quote_available_1e8), 'quote overspent');
      // Stronger: the child is affordable at its cap (the venue locks cap x qty), fee reserve
      // included, exactly as the order actor reserves it (execution/risk.ts `reserveLegs`).
      const locked = (BigInt(a.limit_price_1e9) * BigInt(a.qty_1e8) + 999_999_999n) / 1_000_000_000n;
      const feeBps = BigInt(Math.max(0, view.taker_bps, view.maker_bps));
      assert.ok(locked + (locked * feeBps + 9_999n) / 10_000n <= BigInt(view.quote_available_1e8), 'child not affordable at its cap');
    }
    else assert.ok(a.qty_1e8 <= view.base_available_1e8, 'base overspent');
    const notional = pq / 100_000_000n;
    // Exact below 2^53 (~$9M); beyond it the nearest double (units.ts convention).
    assert.equal(a.notional_1e9, Number(notional));
    assert.ok(notional >= BigInt(view.rules.min_notional_1e9), 'child below min notional');
    assert.equal(BigInt(a.avg_price_1e9), pq / BigInt(a.qty_1e8));
    const cb = BigInt(centiBps(a.fee_bps));
    const fee = cb >= 0n ? (notional * cb + 999_999n) / 1_000_000n : -((notional * -cb) / 1_000_000n);
    assert.equal(BigInt(a.expected_fee_1e9), fee);
    pqAll += pq;
  }
  if (p.planned_qty_1e8 > 0) assert.equal(BigInt(p.expected_avg_price_1e9!), pqAll / BigInt(p.planned_qty_1e8));
  assertFinite(p, 'plan');
}

/** Every number in the plan is finite (JSON would turn NaN and Infinity into null silently). */
function assertFinite(x: unknown, path: string): void {
  if (typeof x === 'number') assert.ok(Number.isFinite(x), `${path} is ${x}`);
  else if (Array.isArray(x)) x.forEach((y, i) => assertFinite(y, `${path}[${i}]`));
  else if (x !== null && typeof x === 'object') for (const [k, y] of Object.entries(x)) assertFinite(y, `${path}.${k}`);
}

describe('sor properties', () => {
  it('fast plan equals the reference plan', () => {
    fc.assert(
      fc.property(marketArb, (m) => {
        assert.deepEqual(fast.route(m.req, m.views), referenceRoute(m.req, m.views, fast.options));
      }),
      { numRuns: RUNS },
    );
  });

  it('every plan keeps the quantity, depth, balance, lot, minimum and limit invariants', () => {
    fc.assert(
      fc.property(marketArb, (m) => checkInvariants(m, fast.route(m.req, m.views))),
      { numRuns: RUNS * 2 },
    );
  });

  it('is deterministic and independent of the order of the views', () => {
    fc.assert(
      fc.property(marketArb, fc.integer({ min: 0, max: 719 }), (m, perm) => {
        const first = fast.route(m.req, m.views);
        assert.deepEqual(new SmartOrderRouter().route(m.req, m.views), first);
        assert.deepEqual(fast.route(m.req, m.views), first);
        // One of the permutations of the views, picked by `perm` (factorial number system).
        const pool = m.views.map((_, i) => i);
        const idx: number[] = [];
        let k = perm;
        while (pool.length > 0) {
          idx.push(pool.splice(k % pool.length, 1)[0]!);
          k = Math.floor(k / (pool.length + 1));
        }
        const shuffled = fast.route(m.req, idx.map((i) => m.views[i]!));
        assert.deepEqual(shuffled.allocations, first.allocations);
        assert.deepEqual(shuffled.candidates, idx.map((i) => first.candidates[i]!));
        const { allocations: _a, candidates: _c, ...restShuffled } = shuffled;
        const { allocations: _b, candidates: _d, ...restFirst } = first;
        assert.deepEqual(restShuffled, restFirst);
      }),
      { numRuns: RUNS },
    );
  });

  it('fills completely when depth suffices, and greedily (v1: no untaken level is cheaper than a taken one)', () => {
    const ample = marketArb.map(({ req, views }): Market => ({
      req: { ...req, order_type: 'market', limit_price_1e9: undefined, venue: undefined, routing_version: 1 },
      views: views.map((v) => ({
        ...v,
        listed: true,
        online: true,
        has_credentials: true,
        last_update_ns: NOW,
        base_available_1e8: 1e15,
        quote_available_1e8: 9e15,
        rules: { ...v.rules, lot_1e8: 1, min_qty_1e8: 1, min_notional_1e9: 0 },
      })),
    }));
    fc.assert(
      fc.property(ample, (m) => {
        const p = fast.route(m.req, m.views);
        checkInvariants(m, p);
        const isBuy = m.req.side === 'buy';
        let depth = 0;
        for (const v of m.views) {
          const q = isBuy ? v.asks_qty : v.bids_qty;
          for (let j = 0; j < (isBuy ? v.ask_count : v.bid_count); j++) depth += q[j]!;
        }
        assert.equal(p.unfilled_qty_1e8, Math.max(0, m.req.qty_1e8 - depth));
        // Greedy: the dearest level taken costs no more than the cheapest level with quantity left.
        let maxTaken = -Infinity;
        for (const a of p.allocations) for (const l of a.levels) maxTaken = Math.max(maxTaken, l.cost_bps);
        const mid = m.req.arrival_mid_1e9;
        for (let i = 0; i < m.views.length; i++) {
          const v = m.views[i]!;
          const cand = p.candidates[i]!;
          const pxs = isBuy ? v.asks_px : v.bids_px;
          const qts = isBuy ? v.asks_qty : v.bids_qty;
          const taken = new Map((p.allocations.find((a) => a.venue === v.venue)?.levels ?? []).map((l) => [l.price_1e9, l.qty_1e8]));
          for (let j = 0; j < pxs.length; j++) {
            if (qts[j]! - (taken.get(pxs[j]!) ?? 0) <= 0) continue;
            const slip = ((isBuy ? 1 : -1) * (pxs[j]! - mid) * 10_000) / mid;
            const cost = slip + cand.cost!.fee_bps + cand.cost!.latency_bps + cand.cost!.freshness_bps;
            assert.ok(cost >= maxTaken - 1e-3, `untaken level at ${cost} bps cheaper than a taken one at ${maxTaken}`);
          }
        }
      }),
      { numRuns: RUNS },
    );
  });
});
