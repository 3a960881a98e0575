/**
 * The sandbox venue (actors/edge/sandbox/sandbox-venue.ts): hand-written cases for the taker
 * walk, the queue model, fees, cancels and each fault knob, then fast-check properties:
 *
 *   1. differential against the live engine (`OrderBook` driven as `SimVenue.executeIoc` and
 *      `placeLimit` drive it): with no faults, the same acceptance, the same reason strings
 *      (tick, lot, min_qty, min_notional, no_liquidity) and the same fills per price level, on
 *      random books and random, often invalid, orders;
 *   2. invariants of every walk, faults on: no fill better than a level of the book at arrival,
 *      no level over its displayed quantity, never past the limit, the book view unchanged;
 *   3. a resting order never fills before its queue ahead has traded at its price or the price
 *      has been traded through, and never for more than the reaching trades printed;
 *   4. determinism: the same seed and the same inputs give the same outputs;
 *   5. each fault knob at 0 changes nothing, at 1 (or true) always acts.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Side } from '../../domain/market.ts';
import { venueFee1e9 } from '../../domain/units.ts';
import type { MatchingRules } from '../../domain/venues.ts';
import type { FillEvent } from '../../actors/edge/sim/matcher.ts';
import { OrderBook } from '../../actors/edge/sim/order-book.ts';
import { SANDBOX_ORDER_BASE, SandboxVenue, type SandboxBook, type SandboxEdge, type SandboxSettings } from '../../actors/edge/sandbox/sandbox-venue.ts';

const { BID, ASK } = Side;
const RUNS = Number(process.env.SANDBOX_PROPERTY_RUNS ?? 300);
/** Wall-clock ns: a double steps by 256 here, so the tests move time in whole ms. */
const T0 = 1_750_000_000_000_000_000;
const MS = 1_000_000;
/** $100.000 on a 0.001 tick; lots of 0.001, at least 2 lots and $1 notional (10 lots here). */
const MID = 100_000_000_000;
const TICK = 1_000_000;
const LOT = 100_000;
const RULES: MatchingRules = { tick_1e9: TICK, lot_1e8: LOT, min_qty_1e8: 2 * LOT, min_notional_1e9: 1_000_000_000 };
const SYM = 'SBX-USDT';
const TAKER_BPS = 10;
const MAKER_BPS = -2;

const edge = (extra: Partial<SandboxEdge> = {}): SandboxEdge => ({
  edge_id: 'venue-edge-test',
  taker_bps: TAKER_BPS,
  maker_bps: MAKER_BPS,
  venue_latency_ms: 12,
  rules: (symbol) => (symbol === SYM ? RULES : undefined),
  ...extra,
});
const venue = (settings: SandboxSettings = {}) => new SandboxVenue(edge(), settings);

/** A book view from [ticks from mid, lots] pairs (asks above the mid, bids below, best first). */
function view(bids: [number, number][], asks: [number, number][], connected?: boolean): SandboxBook {
  return {
    bidsPx: Float64Array.from(bids, ([t]) => MID - t * TICK),
    bidsQty: Float64Array.from(bids, ([, l]) => l * LOT),
    bidCount: bids.length,
    asksPx: Float64Array.from(asks, ([t]) => MID + t * TICK),
    asksQty: Float64Array.from(asks, ([, l]) => l * LOT),
    askCount: asks.length,
    ...(connected === undefined ? {} : { connected }),
  };
}

const BOOK = view(
  [
    [1, 30],
    [2, 40],
    [4, 50],
  ],
  [
    [1, 20],
    [2, 30],
    [3, 100],
  ],
);

const copyBook = (b: SandboxBook) => ({
  bidsPx: Array.from(b.bidsPx),
  bidsQty: Array.from(b.bidsQty),
  asksPx: Array.from(b.asksPx),
  asksQty: Array.from(b.asksQty),
  bidCount: b.bidCount,
  askCount: b.askCount,
});

const pq = (fills: readonly { price_1e9: number; qty_1e8: number }[]) => fills.map((f) => [f.price_1e9, f.qty_1e8]);

describe('SandboxVenue: taker walk', () => {
  it('a market buy walks the asks best first, each level at its own price, taker fees', () => {
    const v = venue();
    const r = v.executeIoc(BOOK, SYM, BID, 60 * LOT, undefined, T0);
    assert.equal(r.ok, true);
    assert.equal(r.reason, null);
    assert.deepEqual(pq(r.fills), [
      [MID + TICK, 20 * LOT],
      [MID + 2 * TICK, 30 * LOT],
      [MID + 3 * TICK, 10 * LOT],
    ]);
    for (const f of r.fills) {
      assert.equal(f.fee_1e9, venueFee1e9(f.price_1e9, f.qty_1e8, TAKER_BPS));
      assert.equal(f.liquidity, 'taker');
      assert.equal(f.ts_ns, T0);
      assert.match(f.trade_id, /^sbx-\d+$/);
    }
    assert.equal(new Set(r.fills.map((f) => f.trade_id)).size, r.fills.length);
  });

  it('a limit IOC stops at its limit; what the depth cannot take is not filled', () => {
    const v = venue();
    const r = v.executeIoc(BOOK, SYM, BID, 500 * LOT, MID + 2 * TICK, T0);
    assert.deepEqual(pq(r.fills), [
      [MID + TICK, 20 * LOT],
      [MID + 2 * TICK, 30 * LOT],
    ]);
    const all = v.executeIoc(BOOK, SYM, ASK, 500 * LOT, undefined, T0);
    assert.equal(all.fills.reduce((s, f) => s + f.qty_1e8, 0), 120 * LOT, 'the whole visible bid side, no more');
  });

  it('takes whole lots of a level only and never changes the book', () => {
    const odd: SandboxBook = { ...view([], []), asksPx: Float64Array.of(MID + TICK, MID + 2 * TICK), asksQty: Float64Array.of(2.5 * LOT, 4 * LOT), askCount: 2 };
    const before = copyBook(odd);
    const r = venue().executeIoc(odd, SYM, BID, 5 * LOT, undefined, T0);
    assert.deepEqual(pq(r.fills), [
      [MID + TICK, 2 * LOT],
      [MID + 2 * TICK, 3 * LOT],
    ]);
    assert.deepEqual(copyBook(odd), before);
  });

  it('refuses as the live venue does, with its reasons', () => {
    const v = venue();
    assert.deepEqual(v.executeIoc(view([[1, 5]], []), SYM, BID, 10 * LOT, undefined, T0), { ok: true, reason: 'no_liquidity', fills: [] }, 'market buy, no ask');
    assert.deepEqual(v.executeIoc(view([], [[1, 5]]), SYM, ASK, 10 * LOT, undefined, T0), { ok: true, reason: 'no_liquidity', fills: [] }, 'market sell, no bid');
    assert.equal(v.executeIoc(BOOK, SYM, BID, LOT, undefined, T0).reason, 'min_qty');
    assert.equal(v.executeIoc(BOOK, SYM, BID, 0, undefined, T0).reason, 'min_qty');
    assert.equal(v.executeIoc(BOOK, SYM, BID, 10 * LOT + 1, undefined, T0).reason, 'lot');
    assert.equal(v.executeIoc(BOOK, SYM, BID, 5 * LOT, MID, T0).reason, 'min_notional', '$0.50 < $1');
    assert.equal(v.executeIoc(BOOK, SYM, BID, 5 * LOT, undefined, T0).ok, true, 'market orders are not held to min notional');
    assert.equal(v.executeIoc(BOOK, SYM, BID, 20 * LOT, MID + 1, T0).reason, 'tick');
    assert.equal(v.executeIoc(BOOK, 'NOPE-USDT', BID, 20 * LOT, undefined, T0).reason, 'not_listed');
    assert.equal(v.executeIoc({ ...BOOK, connected: false }, SYM, BID, 20 * LOT, undefined, T0).reason, 'venue_disconnected');
    assert.equal(v.placeLimit(BOOK, SYM, BID, 20 * LOT, MID - 1, T0).reason, 'tick');
    for (const r of [v.executeIoc(BOOK, SYM, BID, LOT, undefined, T0), v.placeLimit(BOOK, SYM, BID, LOT, MID, T0)]) {
      assert.equal(r.ok, false);
      assert.deepEqual(r.fills, []);
    }
  });
});

describe('SandboxVenue: resting orders', () => {
  it('rests behind the displayed quantity at its price and fills after it has traded', () => {
    const v = venue();
    const p = v.placeLimit(BOOK, SYM, BID, 20 * LOT, MID - TICK, T0);
    assert.equal(p.ok, true);
    assert.deepEqual(p.fills, []);
    assert.equal(p.resting_qty_1e8, 20 * LOT);
    assert.ok(p.order_id > SANDBOX_ORDER_BASE);
    assert.equal(v.order(p.order_id)!.queue_ahead_1e8, 30 * LOT);
    assert.deepEqual(v.onTrade(SYM, MID - TICK, 10 * LOT, ASK, T0), [], 'a trade at the arrival instant is in the book it met');
    assert.deepEqual(v.onTrade(SYM, MID - TICK, 25 * LOT, ASK, T0 + MS), []);
    assert.equal(v.order(p.order_id)!.queue_ahead_1e8, 5 * LOT);
    assert.deepEqual(v.onTrade(SYM, MID - TICK, 50 * LOT, BID, T0 + 2 * MS), [], 'a buy taker does not reach a resting buy');
    assert.deepEqual(v.onTrade(SYM, MID - 2 * TICK, 50 * LOT, BID, T0 + 2 * MS), []);
    const fills = v.onTrade(SYM, MID - TICK, 12 * LOT, ASK, T0 + 3 * MS);
    assert.equal(fills.length, 1);
    const f = fills[0]!;
    assert.equal(f.order_id, p.order_id);
    assert.equal(f.symbol, SYM);
    assert.deepEqual(pq([f.fill]), [[MID - TICK, 7 * LOT]], '12 traded, 5 of them ahead');
    assert.equal(f.fill.liquidity, 'maker');
    assert.equal(f.fill.fee_1e9, venueFee1e9(MID - TICK, 7 * LOT, MAKER_BPS));
    assert.ok(f.fill.fee_1e9 <= 0, 'a maker rebate');
    assert.equal(f.left_qty_1e8, 13 * LOT);
    assert.equal(v.order(p.order_id)!.left_qty_1e8, 13 * LOT);
  });

  it('a trade through its price fills it for up to the traded quantity, queue or not', () => {
    const v = venue();
    const p = v.placeLimit(BOOK, SYM, ASK, 40 * LOT, MID + TICK, T0);
    assert.equal(v.order(p.order_id)!.queue_ahead_1e8, 20 * LOT);
    const a = v.onTrade(SYM, MID + 2 * TICK, 15 * LOT, BID, T0 + MS);
    assert.deepEqual(pq(a.map((x) => x.fill)), [[MID + TICK, 15 * LOT]], 'at its own price, never the better trade price');
    assert.equal(v.order(p.order_id)!.queue_ahead_1e8, 0);
    const b = v.onTrade(SYM, MID + 3 * TICK, 100 * LOT, BID, T0 + 2 * MS);
    assert.deepEqual(pq(b.map((x) => x.fill)), [[MID + TICK, 25 * LOT]]);
    assert.equal(b[0]!.left_qty_1e8, 0);
    assert.equal(v.order(p.order_id), undefined);
    assert.equal(v.restingOrders(), 0);
  });

  it('a price that improves the book has nothing ahead; onLevel moves the queue up, never back', () => {
    const v = venue();
    const better = v.placeLimit(BOOK, SYM, BID, 20 * LOT, MID, T0);
    assert.equal(v.order(better.order_id)!.queue_ahead_1e8, 0);
    const deep = v.placeLimit(BOOK, SYM, BID, 20 * LOT, MID - 2 * TICK, T0);
    assert.equal(v.order(deep.order_id)!.queue_ahead_1e8, 40 * LOT);
    v.onLevel(SYM, BID, MID - 2 * TICK, 15 * LOT);
    assert.equal(v.order(deep.order_id)!.queue_ahead_1e8, 15 * LOT);
    v.onLevel(SYM, BID, MID - 2 * TICK, 90 * LOT);
    assert.equal(v.order(deep.order_id)!.queue_ahead_1e8, 15 * LOT, 'quantity added behind');
    v.onLevel(SYM, ASK, MID - 2 * TICK, 0);
    assert.equal(v.order(deep.order_id)!.queue_ahead_1e8, 15 * LOT, 'the other side');
    v.onLevel(SYM, BID, MID - 2 * TICK, 0);
    assert.equal(v.order(deep.order_id)!.queue_ahead_1e8, 0);
  });

  it('the crossing part fills as taker, the rest rests', () => {
    const v = venue();
    const p = v.placeLimit(BOOK, SYM, BID, 60 * LOT, MID + 2 * TICK, T0);
    assert.deepEqual(pq(p.fills), [
      [MID + TICK, 20 * LOT],
      [MID + 2 * TICK, 30 * LOT],
    ]);
    assert.ok(p.fills.every((f) => f.liquidity === 'taker'));
    assert.equal(p.resting_qty_1e8, 10 * LOT);
    assert.equal(v.order(p.order_id)!.queue_ahead_1e8, 0, 'nothing displayed on its own side at its price');
    const full = v.placeLimit(BOOK, SYM, ASK, 30 * LOT, MID - TICK, T0);
    assert.equal(full.order_id, 0);
    assert.equal(full.resting_qty_1e8, 0);
  });

  it('sandbox orders share a trade in priority order (price, then arrival)', () => {
    const v = venue();
    const a = v.placeLimit(BOOK, SYM, BID, 12 * LOT, MID - TICK, T0);
    const b = v.placeLimit(BOOK, SYM, BID, 12 * LOT, MID, T0 + MS);
    const c = v.placeLimit(BOOK, SYM, BID, 12 * LOT, MID - TICK, T0 + 2 * MS);
    // A sell of 46 at MID - TICK: b (better price, traded through) takes 12, the 30 displayed
    // ahead of a trade, a takes the last 4; c (also 30 behind, and behind a) gets nothing.
    const fills = v.onTrade(SYM, MID - TICK, 46 * LOT, ASK, T0 + 3 * MS);
    assert.deepEqual(
      fills.map((f) => [f.order_id, f.fill.qty_1e8]),
      [
        [b.order_id, 12 * LOT],
        [a.order_id, 4 * LOT],
      ],
    );
    assert.equal(v.order(c.order_id)!.left_qty_1e8, 12 * LOT);
  });

  it('cancel returns what is left; unknown ids cancel nothing', () => {
    const v = venue();
    const p = v.placeLimit(BOOK, SYM, BID, 20 * LOT, MID - TICK, T0);
    assert.deepEqual(v.cancel(p.order_id, T0 + MS), { cancelled_qty_1e8: 20 * LOT, fills: [] });
    assert.deepEqual(v.cancel(p.order_id, T0 + 2 * MS), { cancelled_qty_1e8: 0, fills: [] });
    assert.deepEqual(v.onTrade(SYM, MID - 5 * TICK, 100 * LOT, ASK, T0 + 3 * MS), []);
  });
});

describe('SandboxVenue: fault knobs', () => {
  it('latency: arrival is the decision plus the venue latency plus latency_ms', () => {
    assert.equal(venue().arrivalNs(T0), T0 + 12 * MS);
    assert.equal(venue({ latency_ms: 0 }).arrivalNs(T0), T0 + 12 * MS);
    assert.equal(venue({ latency_ms: 250 }).arrivalNs(T0), T0 + 262 * MS);
  });

  it('reject_rate 1 refuses every order the rules accept; the rules answer first', () => {
    const v = venue({ reject_rate: 1 });
    assert.equal(v.executeIoc(BOOK, SYM, BID, 20 * LOT, undefined, T0).reason, 'venue_rejected');
    assert.equal(v.placeLimit(BOOK, SYM, BID, 20 * LOT, MID, T0).reason, 'venue_rejected');
    assert.equal(v.executeIoc(BOOK, SYM, BID, LOT, undefined, T0).reason, 'min_qty');
  });

  it('cancel_race: the cancel arrives after a fill of at least one lot at the order price', () => {
    const v = venue({ cancel_race: true, seed: 7 });
    for (let i = 0; i < 20; i++) {
      const p = v.placeLimit(BOOK, SYM, ASK, (11 + i) * LOT, MID + 5 * TICK, T0 + i * MS);
      const c = v.cancel(p.order_id, T0 + (i + 1) * MS);
      assert.equal(c.fills.length, 1);
      const f = c.fills[0]!;
      assert.equal(f.fill.price_1e9, MID + 5 * TICK);
      assert.ok(f.fill.qty_1e8 >= LOT && f.fill.qty_1e8 % LOT === 0);
      assert.equal(f.fill.liquidity, 'maker');
      assert.equal(f.fill.qty_1e8 + c.cancelled_qty_1e8, (11 + i) * LOT);
      assert.equal(f.left_qty_1e8, c.cancelled_qty_1e8);
      assert.equal(v.order(p.order_id), undefined);
    }
  });

  it('disconnect_rate 1 loses every answer, 0 none', () => {
    const lost = venue({ disconnect_rate: 1 });
    const kept = venue({ disconnect_rate: 0 });
    for (let i = 0; i < 100; i++) {
      assert.equal(lost.answerLost(), true);
      assert.equal(kept.answerLost(), false);
    }
  });

  it('settings out of range are refused at construction', () => {
    assert.throws(() => venue({ reject_rate: 1.5 }), RangeError);
    assert.throws(() => venue({ partial_fill_rate: -0.1 }), RangeError);
    assert.throws(() => venue({ disconnect_rate: Number.NaN }), RangeError);
    assert.throws(() => venue({ latency_ms: -20 }), RangeError);
  });

  it('trade ids take the edge prefix and never look like live ids', () => {
    const v = new SandboxVenue(edge({ trade_id_prefix: 'sbx-1750000000000-' }));
    const ids = v.executeIoc(BOOK, SYM, BID, 60 * LOT, undefined, T0).fills.map((f) => f.trade_id);
    assert.deepEqual(ids, ['sbx-1750000000000-1', 'sbx-1750000000000-2', 'sbx-1750000000000-3']);
  });
});

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

/** Distinct tick offsets with lot counts, best first. */
/** At least 12 lots a level: the live engine holding the levels only takes orders of $1 or more. */
const sideArb = fc
  .uniqueArray(fc.tuple(fc.integer({ min: 1, max: 25 }), fc.integer({ min: 12, max: 120 })), { maxLength: 12, selector: ([t]) => t })
  .map((levels) => [...levels].sort((a, b) => a[0] - b[0]));
const bookArb = fc.record({ bids: sideArb, asks: sideArb }).map(({ bids, asks }) => view(bids, asks));

/** Quantities: mostly valid, sometimes off-lot, below the minimum, zero or negative. */
const qtyArb = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 400 }).map((l) => l * LOT), weight: 8 },
  { arbitrary: fc.integer({ min: 1, max: 400 * LOT }), weight: 2 },
  { arbitrary: fc.constantFrom(0, -LOT, LOT), weight: 1 },
);
/** Limits: on the tick around the mid, sometimes off the tick or non-positive. */
const limitArb = fc.oneof(
  { arbitrary: fc.integer({ min: -30, max: 30 }).map((t) => MID + t * TICK), weight: 8 },
  { arbitrary: fc.integer({ min: 1, max: TICK - 1 }).map((d) => MID + d), weight: 1 },
  { arbitrary: fc.constantFrom(0, -TICK), weight: 1 },
);
const sideOf = fc.constantFrom(BID, ASK);
const settingsArb: fc.Arbitrary<SandboxSettings> = fc.record(
  {
    seed: fc.integer({ min: 0, max: 2 ** 31 }),
    latency_ms: fc.integer({ min: 0, max: 500 }),
    reject_rate: fc.double({ min: 0, max: 1, noNaN: true }),
    partial_fill_rate: fc.double({ min: 0, max: 1, noNaN: true }),
    cancel_race: fc.boolean(),
    disconnect_rate: fc.double({ min: 0, max: 1, noNaN: true }),
  },
  { requiredKeys: [] },
);

/** The live engine holding `b`'s levels (one order per level), driven as SimVenue drives it. */
function liveBook(b: SandboxBook): { ob: OrderBook; fills: [number, number][] } {
  const fills: [number, number][] = [];
  const ob = new OrderBook(RULES, {
    onFill: (f: FillEvent) => {
      const last = fills[fills.length - 1];
      if (last !== undefined && last[0] === f.price_1e9) last[1] += f.qty_1e8;
      else fills.push([f.price_1e9, f.qty_1e8]);
    },
    onLevel: () => {},
  });
  let id = 1_000;
  for (let i = 0; i < b.bidCount; i++) assert.ok(ob.limit(id++, BID, b.bidsPx[i]!, b.bidsQty[i]!).ok);
  for (let i = 0; i < b.askCount; i++) assert.ok(ob.limit(id++, ASK, b.asksPx[i]!, b.asksQty[i]!).ok);
  fills.length = 0;
  return { ob, fills };
}

/** `SimVenue.executeIoc`'s use of the engine (actors/edge/sim/sim-venue.ts). */
function liveIoc(b: SandboxBook, side: Side, qty: number, limit: number | undefined) {
  const { ob, fills } = liveBook(b);
  const r = limit === undefined ? ob.market(1, side, qty) : ob.limit(1, side, limit, qty);
  const ok = r.ok || r.reason === 'no_liquidity';
  const reason = r.ok ? null : (r.reason ?? 'rejected');
  if (r.resting_qty_1e8 > 0) ob.cancel(1);
  return { ok, reason, fills };
}

/** `SimVenue.placeLimit`'s use of the engine. */
function livePlace(b: SandboxBook, side: Side, qty: number, limit: number) {
  const { ob, fills } = liveBook(b);
  const r = ob.limit(1, side, limit, qty);
  return { ok: r.ok, reason: r.ok ? null : (r.reason ?? 'rejected'), fills, resting: r.ok ? r.resting_qty_1e8 : 0 };
}

describe('SandboxVenue properties', () => {
  it('mirrors the live engine: same refusals and reasons, same fills per level (no faults)', () => {
    fc.assert(
      // A random seed: a fresh venue's first draws would otherwise be the same in every run.
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), bookArb, sideOf, qtyArb, fc.option(limitArb, { nil: undefined }), fc.boolean(), (seed, b, side, qty, limit, resting) => {
        const v = venue({ seed });
        if (resting && limit !== undefined) {
          const live = livePlace(b, side, qty, limit);
          const r = v.placeLimit(b, SYM, side, qty, limit, T0);
          assert.deepEqual({ ok: r.ok, reason: r.reason, fills: pq(r.fills), resting: r.resting_qty_1e8 }, live);
        } else {
          const live = liveIoc(b, side, qty, limit);
          const r = v.executeIoc(b, SYM, side, qty, limit, T0);
          assert.deepEqual({ ok: r.ok, reason: r.reason, fills: pq(r.fills) }, live);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('never fills better than the book at arrival, nor more than displayed, nor past the limit, and leaves the book as it was', () => {
    fc.assert(
      fc.property(settingsArb, bookArb, sideOf, qtyArb, fc.option(limitArb, { nil: undefined }), fc.boolean(), (s, b, side, qty, limit, resting) => {
        const v = venue(s);
        const before = copyBook(b);
        const r = resting && limit !== undefined ? v.placeLimit(b, SYM, side, qty, limit, T0) : v.executeIoc(b, SYM, side, qty, limit, T0);
        assert.deepEqual(copyBook(b), before, 'the book view changed');
        const isBuy = side === BID;
        const px = Array.from(isBuy ? b.asksPx : b.bidsPx);
        const sz = Array.from(isBuy ? b.asksQty : b.bidsQty);
        let total = 0;
        let prev = isBuy ? -Infinity : Infinity;
        for (const f of r.fills) {
          const i = px.indexOf(f.price_1e9);
          assert.ok(i >= 0, 'a fill at a price the book did not show');
          assert.ok(f.qty_1e8 > 0 && f.qty_1e8 <= sz[i]!, 'more than displayed');
          assert.equal(f.qty_1e8 % LOT, 0);
          assert.ok(isBuy ? f.price_1e9 > prev : f.price_1e9 < prev, 'not best first');
          prev = f.price_1e9;
          if (limit !== undefined) assert.ok(isBuy ? f.price_1e9 <= limit : f.price_1e9 >= limit, 'past the limit');
          assert.equal(f.fee_1e9, venueFee1e9(f.price_1e9, f.qty_1e8, TAKER_BPS));
          total += f.qty_1e8;
        }
        assert.ok(total <= Math.max(0, qty));
        if (!r.ok) assert.equal(r.fills.length, 0);
      }),
      { numRuns: RUNS },
    );
  });

  it('a resting order fills only after its queue ahead traded or its price was traded through', () => {
    const tradeArb = fc.record({ dt: fc.integer({ min: 0, max: 2 }), ticks: fc.integer({ min: -2, max: 2 }), lots: fc.integer({ min: 1, max: 40 }), taker: sideOf });
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 }),
        sideOf,
        fc.integer({ min: 11, max: 60 }),
        fc.integer({ min: 0, max: 80 }),
        fc.array(tradeArb, { maxLength: 30 }),
        (seed, side, lots, ahead, trades) => {
          const isBuy = side === BID;
          const price = isBuy ? MID - 3 * TICK : MID + 3 * TICK;
          // Its own side displays `ahead` lots at its price (none when 0); the other side is far away.
          const own: [number, number][] = ahead > 0 ? [[3, ahead]] : [];
          const b = isBuy ? view(own, [[10, 50]]) : view([[10, 50]], own);
          const v = venue({ seed });
          const p = v.placeLimit(b, SYM, side, lots * LOT, price, T0);
          assert.equal(p.resting_qty_1e8, lots * LOT);
          let ts = T0;
          let atPrice = 0;
          let throughSeen = false;
          let reached = 0;
          let filled = 0;
          for (const t of trades) {
            ts += t.dt * MS; // whole ms: at ~1.75e18 ns a double steps by 256
            const tp = price + (isBuy ? -t.ticks : t.ticks) * TICK; // ticks > 0: through its price
            const fills = v.onTrade(SYM, tp, t.lots * LOT, t.taker, ts);
            const reaches = t.taker !== side && t.ticks >= 0 && ts > T0;
            if (reaches) {
              reached += t.lots * LOT;
              if (t.ticks > 0) throughSeen = true;
              else atPrice += t.lots * LOT;
            }
            for (const f of fills) {
              assert.ok(reaches, 'filled by a trade that does not reach it');
              assert.equal(f.fill.price_1e9, price, 'a maker fills at its own price');
              assert.ok(f.fill.qty_1e8 <= t.lots * LOT, 'more than the trade printed');
              if (!throughSeen) assert.ok(atPrice > ahead * LOT, 'filled before the queue ahead traded');
              assert.equal(f.fill.fee_1e9, venueFee1e9(price, f.fill.qty_1e8, MAKER_BPS));
              filled += f.fill.qty_1e8;
            }
          }
          assert.ok(filled <= reached && filled <= lots * LOT);
          assert.equal((v.order(p.order_id)?.left_qty_1e8 ?? 0) + filled, lots * LOT);
        },
      ),
      { numRuns: RUNS },
    );
  });

  /** A random session: orders, trades, level updates, cancels, answers; every output recorded. */
  const opArb = fc.oneof(
    fc.record({ k: fc.constant('ioc' as const), book: fc.nat(2), side: sideOf, qty: qtyArb, limit: fc.option(limitArb, { nil: undefined }) }),
    fc.record({ k: fc.constant('place' as const), book: fc.nat(2), side: sideOf, qty: qtyArb, limit: limitArb }),
    fc.record({ k: fc.constant('trade' as const), ticks: fc.integer({ min: -8, max: 8 }), lots: fc.integer({ min: 1, max: 80 }), taker: sideOf }),
    fc.record({ k: fc.constant('level' as const), side: sideOf, ticks: fc.integer({ min: -8, max: 8 }), lots: fc.integer({ min: 0, max: 80 }) }),
    fc.record({ k: fc.constant('cancel' as const), which: fc.nat(20) }),
    fc.record({ k: fc.constant('answer' as const) }),
  );
  type Op = typeof opArb extends fc.Arbitrary<infer T> ? T : never;
  const sessionArb = fc.record({ books: fc.array(bookArb, { minLength: 3, maxLength: 3 }), ops: fc.array(opArb, { maxLength: 40 }) });

  function run(settings: SandboxSettings, books: SandboxBook[], ops: Op[]): unknown[] {
    const v = venue(settings);
    const out: unknown[] = [v.arrivalNs(T0)];
    const ids: number[] = [];
    let ts = T0;
    for (const op of ops) {
      ts += MS;
      switch (op.k) {
        case 'ioc':
          out.push(v.executeIoc(books[op.book]!, SYM, op.side, op.qty, op.limit, ts));
          break;
        case 'place': {
          const r = v.placeLimit(books[op.book]!, SYM, op.side, op.qty, op.limit, ts);
          if (r.order_id !== 0) ids.push(r.order_id);
          out.push(r);
          break;
        }
        case 'trade':
          out.push(v.onTrade(SYM, MID + op.ticks * TICK, op.lots * LOT, op.taker, ts));
          break;
        case 'level':
          v.onLevel(SYM, op.side, MID + op.ticks * TICK, op.lots * LOT);
          break;
        case 'cancel':
          out.push(ids.length === 0 ? null : v.cancel(ids[op.which % ids.length]!, ts));
          break;
        case 'answer':
          out.push(v.answerLost());
          break;
      }
    }
    out.push(ids.map((id) => v.order(id)));
    return out;
  }

  it('is deterministic: the same seed and inputs give the same fills', () => {
    fc.assert(
      fc.property(settingsArb, sessionArb, (s, { books, ops }) => {
        assert.deepEqual(run(s, books, ops), run(s, books, ops));
      }),
      { numRuns: RUNS },
    );
  });

  it('each fault knob at 0 (false) changes nothing, whatever the other knobs do', () => {
    const knobs = ['latency_ms', 'reject_rate', 'partial_fill_rate', 'cancel_race', 'disconnect_rate'] as const;
    fc.assert(
      fc.property(settingsArb, sessionArb, fc.constantFrom(...knobs), (s, { books, ops }, knob) => {
        const absent: SandboxSettings = { ...s };
        delete absent[knob];
        const zero: SandboxSettings = { ...s };
        if (knob === 'cancel_race') zero.cancel_race = false;
        else zero[knob] = 0;
        assert.deepEqual(run(zero, books, ops), run(absent, books, ops));
      }),
      { numRuns: RUNS },
    );
  });

  it('reject_rate 1 refuses every order the live rules accept, with the live reason otherwise', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), bookArb, sideOf, qtyArb, fc.option(limitArb, { nil: undefined }), (seed, b, side, qty, limit) => {
        const clean = venue().executeIoc(b, SYM, side, qty, limit, T0);
        const r = venue({ seed, reject_rate: 1 }).executeIoc(b, SYM, side, qty, limit, T0);
        if (clean.ok) assert.deepEqual(r, { ok: false, reason: 'venue_rejected', fills: [] });
        else assert.deepEqual(r, clean);
      }),
      { numRuns: RUNS },
    );
  });

  it('partial_fill_rate 1 always cuts a walk short, keeping its best levels', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), bookArb, sideOf, qtyArb, fc.option(limitArb, { nil: undefined }), (seed, b, side, qty, limit) => {
        const clean = venue().executeIoc(b, SYM, side, qty, limit, T0);
        const cut = venue({ seed, partial_fill_rate: 1 }).executeIoc(b, SYM, side, qty, limit, T0);
        const sum = (fills: { qty_1e8: number }[]) => fills.reduce((a, f) => a + f.qty_1e8, 0);
        assert.equal(cut.ok, clean.ok);
        if (sum(clean.fills) === 0) return assert.deepEqual(cut.fills, []);
        assert.ok(sum(cut.fills) < sum(clean.fills), 'not cut');
        assert.equal(sum(cut.fills) % LOT, 0);
        // A prefix of the uncut walk: the same levels, the last one maybe smaller.
        cut.fills.forEach((f, i) => {
          assert.equal(f.price_1e9, clean.fills[i]!.price_1e9);
          assert.ok(f.qty_1e8 <= clean.fills[i]!.qty_1e8);
          if (i < cut.fills.length - 1) assert.equal(f.qty_1e8, clean.fills[i]!.qty_1e8);
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('partial_fill_rate 1 always cuts a maker fill short', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), fc.integer({ min: 11, max: 60 }), fc.integer({ min: 1, max: 80 }), (seed, lots, traded) => {
        const trade = (v: SandboxVenue) => {
          assert.equal(v.placeLimit(BOOK, SYM, BID, lots * LOT, MID - 2 * TICK, T0).resting_qty_1e8, lots * LOT);
          // A sell below its price: traded through, its queue does not matter.
          return v.onTrade(SYM, MID - 3 * TICK, traded * LOT, ASK, T0 + MS).reduce((a, f) => a + f.fill.qty_1e8, 0);
        };
        const clean = trade(venue());
        assert.equal(clean, Math.min(lots, traded) * LOT);
        const cut = trade(venue({ seed, partial_fill_rate: 1 }));
        assert.ok(cut < clean && cut % LOT === 0);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('sandbox import rule', () => {
  it('imports only domain/ and, of the simulator, rng.ts', () => {
    const dir = join(import.meta.dirname, '..', '..', 'actors', 'edge', 'sandbox');
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
      for (const m of readFileSync(join(dir, name), 'utf8').matchAll(/from\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
        const target = m[1]!;
        assert.ok(/^\.\/[a-z-]+\.ts$/.test(target) || target.startsWith('../../../domain/') || target === '../sim/rng.ts', `${name} imports ${target}`);
      }
    }
  });
});
