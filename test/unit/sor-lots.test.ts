/**
 * Exact quantities (execution/sor/sor-lots.ts): a market order whose quantity the venues' lots
 * can represent is planned for exactly that quantity.
 *
 *   1. the newcomer's case: a 3 BTC buy over three balance-bound venues with lots 1, 100 and
 *      1,000 units used to be planned 790 units short;
 *   2. property (fast-check): random books, nested lots (1, 10, 100, 1,000), minimums and
 *      balances; whenever a brute-force search finds quantities per venue (whole lots, within
 *      each venue's takeable depth and balance, zero or at least its minimum) that add up to the
 *      order, the plan has planned = requested; both routers agree; the plan never exceeds a
 *      level, a balance or a minimum;
 *   3. a remainder below every candidate's lot is recognised as lot rounding.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { SmartOrderRouter, type RouteRequest, type VenueView } from '../../execution/sor/sor.ts';
import { referenceRoute } from '../../execution/sor/sor-reference.ts';
import { isLotRemainder } from '../../execution/sor/sor-lots.ts';
import { centiBps } from '../../execution/sor/sor-math.ts';

const NOW = 1_000_000_000_000_000;
const MID = 100_000_000_000; // $100
const TICK = 10_000_000; // 1 bps
const RUNS = Number(process.env.SOR_PROPERTY_RUNS ?? 400);

interface VenueSpec {
  name: string;
  lot: number;
  minLots: number;
  levels: number[];
  quote: number;
  base: number;
  taker: number;
}

function view(s: VenueSpec, side: 'buy' | 'sell'): VenueView {
  const px = s.levels.map((_, j) => (side === 'buy' ? MID + (j + 1) * TICK : MID - (j + 1) * TICK));
  const qty = Float64Array.from(s.levels);
  const empty = new Float64Array(0);
  return {
    venue: s.name,
    edge_id: `venue-edge-${s.name}`,
    listed: true,
    online: true,
    last_update_ns: NOW,
    has_credentials: true,
    base_available_1e8: s.base,
    quote_available_1e8: s.quote,
    asks_px: side === 'buy' ? Float64Array.from(px) : empty,
    asks_qty: side === 'buy' ? qty : empty,
    ask_count: side === 'buy' ? px.length : 0,
    bids_px: side === 'sell' ? Float64Array.from(px) : empty,
    bids_qty: side === 'sell' ? qty : empty,
    bid_count: side === 'sell' ? px.length : 0,
    maker_bps: s.taker,
    taker_bps: s.taker,
    latency_ms: 10,
    rules: { tick_1e9: TICK, lot_1e8: s.lot, min_qty_1e8: s.minLots * s.lot, min_notional_1e9: 0 },
  };
}

/** The most venue v can take as the router sizes it: whole lots per level, within its balance. */
function capacity(v: VenueView, side: 'buy' | 'sell'): number {
  const lot = v.rules.lot_1e8;
  const pxs = side === 'buy' ? v.asks_px : v.bids_px;
  const qts = side === 'buy' ? v.asks_qty : v.bids_qty;
  const cb = BigInt(centiBps(v.taker_bps));
  const budget = side === 'buy' ? (BigInt(v.quote_available_1e8) * 1_000_000n) / (1_000_000n + (cb > 0n ? cb : 0n)) : BigInt(v.base_available_1e8);
  let cap = 0;
  for (let j = 0; j < pxs.length; j++) {
    const whole = Math.floor(qts[j]! / lot) * lot;
    for (let k = lot; k <= whole; k += lot) {
      const q = BigInt(cap + k);
      const fits = side === 'buy' ? (BigInt(pxs[j]!) * q + 999_999_999n) / 1_000_000_000n <= budget : q <= budget;
      if (!fits) return cap + k - lot;
    }
    cap += whole;
  }
  return cap;
}

/** Whether `qty` is a sum of one amount per venue, each 0 or a lot multiple in [minimum, capacity]. */
function representable(views: readonly VenueView[], side: 'buy' | 'sell', qty: number): boolean {
  const mask = (1n << BigInt(qty + 1)) - 1n;
  let reach = 1n;
  for (const v of views) {
    const lot = v.rules.lot_1e8;
    const cap = Math.min(capacity(v, side), qty);
    let acc = 0n;
    for (let m = Math.max(lot, v.rules.min_qty_1e8); m <= cap; m += lot) acc |= reach << BigInt(m);
    reach = (reach | acc) & mask;
  }
  return ((reach >> BigInt(qty)) & 1n) === 1n;
}

function request(side: 'buy' | 'sell', qty: number, version: 1 | 2 | 3): RouteRequest {
  return { node_order_id: 'ord_lots', side, qty_1e8: qty, order_type: 'market', arrival_mid_1e9: MID, now_ns: NOW, routing_version: version };
}

describe('SOR exact quantities (lot dust)', () => {
  it('plans the newcomer\'s 3 BTC buy over three balance-bound venues for exactly 3 BTC', () => {
    // BTC near $90,000: okx lot 1 unit, bybit 100, binance 1,000; $100,000 on each venue.
    const mid = 90_000_000_000_000;
    const tick = 1_000_000_000;
    const make = (name: string, lot: number, taker: number, offset: number): VenueView => {
      const px = Float64Array.from({ length: 40 }, (_, j) => mid + (offset + j) * tick);
      const qty = Float64Array.from({ length: 40 }, (_, j) => 3_137_913 + j * 1_000_003);
      return {
        venue: name, edge_id: `venue-edge-${name}`, listed: true, online: true, last_update_ns: NOW, has_credentials: true,
        base_available_1e8: 0, quote_available_1e8: 10_000_000_000_000,
        asks_px: px, asks_qty: qty, ask_count: 40, bids_px: new Float64Array(0), bids_qty: new Float64Array(0), bid_count: 0,
        maker_bps: taker, taker_bps: taker, latency_ms: 12,
        rules: { tick_1e9: tick, lot_1e8: lot, min_qty_1e8: lot, min_notional_1e9: 5_000_000_000 },
      };
    };
    const views = [make('binance', 1_000, 10, 1), make('bybit', 100, 10, 2), make('okx', 1, 10, 1)];
    const req: RouteRequest = { node_order_id: 'ord_3btc', side: 'buy', qty_1e8: 300_000_000, order_type: 'market', arrival_mid_1e9: mid, now_ns: NOW, routing_version: 1 };
    const plan = new SmartOrderRouter().route(req, views);
    assert.equal(plan.planned_qty_1e8, 300_000_000);
    assert.equal(plan.unfilled_qty_1e8, 0);
    assert.equal(plan.allocations.reduce((s, a) => s + a.qty_1e8, 0), 300_000_000);
    for (const a of plan.allocations) {
      const lot = views.find((v) => v.venue === a.venue)!.rules.lot_1e8;
      assert.equal(a.qty_1e8 % lot, 0, `${a.venue} child is whole lots`);
      // Affordable at its cap with the fee reserve, as the sweep requires.
      assert.ok(Math.ceil((a.limit_price_1e9 * a.qty_1e8) / 1e9) <= Math.floor((10_000_000_000_000 * 1e6) / (1e6 + centiBps(10))));
    }
    assert.deepEqual(referenceRoute(req, views), plan);
  });

  it('plans exactly the requested quantity whenever the lots and room can represent it (property)', () => {
    const router = new SmartOrderRouter();
    const venue = (name: string) =>
      fc.record({
        name: fc.constant(name),
        lot: fc.constantFrom(1, 10, 100, 1_000),
        minLots: fc.integer({ min: 1, max: 3 }),
        levels: fc.array(fc.integer({ min: 0, max: 2_500 }), { minLength: 1, maxLength: 5 }),
        quote: fc.integer({ min: 0, max: 700_000 }),
        base: fc.integer({ min: 0, max: 7_000 }),
        taker: fc.integer({ min: 0, max: 30 }),
      });
    fc.assert(
      fc.property(
        fc.array(venue('a'), { minLength: 1, maxLength: 1 }),
        fc.array(venue('b'), { maxLength: 1 }),
        fc.array(venue('c'), { maxLength: 1 }),
        fc.array(venue('d'), { maxLength: 1 }),
        fc.constantFrom('buy' as const, 'sell' as const),
        fc.integer({ min: 1, max: 6_000 }),
        fc.constantFrom(1 as const, 2 as const, 3 as const),
        (a, b, c, d, side, qty, version) => {
          const views = [...a, ...b, ...c, ...d].map((s) => view(s, side));
          const req = request(side, qty, version);
          const plan = router.route(req, views);
          assert.deepEqual(referenceRoute(req, views), plan);
          if (representable(views, side, qty)) assert.equal(plan.planned_qty_1e8, qty, 'representable, so planned exactly');
          for (const alloc of plan.allocations) {
            const v = views.find((x) => x.venue === alloc.venue)!;
            assert.equal(alloc.qty_1e8 % v.rules.lot_1e8, 0);
            assert.ok(alloc.qty_1e8 >= v.rules.min_qty_1e8);
            assert.ok(alloc.qty_1e8 <= capacity(v, side), `${alloc.venue} within its depth and balance`);
            const pxs = side === 'buy' ? v.asks_px : v.bids_px;
            const qts = side === 'buy' ? v.asks_qty : v.bids_qty;
            for (const l of alloc.levels) assert.ok(l.qty_1e8 <= qts[pxs.indexOf(l.price_1e9)]!, 'within the level');
            assert.equal(alloc.limit_price_1e9, alloc.levels[alloc.levels.length - 1]!.price_1e9);
          }
          assert.equal(plan.planned_qty_1e8 + plan.unfilled_qty_1e8, qty);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('recognises a remainder below every candidate\'s lot as lot rounding, and nothing else', () => {
    const spec = (name: string, lot: number): VenueSpec => ({ name, lot, minLots: 1, levels: [100_000], quote: 1e12, base: 1e12, taker: 10 });
    const views = [view(spec('a', 1_000), 'buy'), view(spec('b', 100), 'buy')];
    const dusty = new SmartOrderRouter().route(request('buy', 150_050, 1), views);
    assert.equal(dusty.planned_qty_1e8, 150_000);
    assert.equal(isLotRemainder(dusty, views), true);
    const thin = [view({ ...spec('a', 1_000), levels: [5_000] }, 'buy')];
    const short = new SmartOrderRouter().route(request('buy', 9_000, 1), thin);
    assert.equal(short.planned_qty_1e8, 5_000);
    assert.equal(isLotRemainder(short, thin), false, 'a depth shortfall is not lot rounding');
  });
});
