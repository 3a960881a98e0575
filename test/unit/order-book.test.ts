/**
 * The simulated venues' matching engine (actors/edge/sim/order-book.ts): hand-written cases for
 * each rule of the Matcher contract, then a differential test against the naive ReferenceBook on
 * seeded random command streams (every result, every fill and level event, the L2 book derived
 * from the events, and a final state hash, exchange-core style), and a fast-check property over
 * short command sequences that shrinks any disagreement to a minimal one.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Side } from '../../domain/market.ts';
import { notionalUsd1e9 } from '../../domain/units.ts';
import type { FillEvent, Matcher, MatchingRules, MatchListener, SubmitResult } from '../../actors/edge/sim/matcher.ts';
import { OrderBook } from '../../actors/edge/sim/order-book.ts';
import { ReferenceBook } from '../../actors/edge/sim/reference-book.ts';
import { mulberry32 } from '../../actors/edge/sim/rng.ts';

const { BID, ASK } = Side;
const PLAIN: MatchingRules = { tick_1e9: 1, lot_1e8: 1, min_qty_1e8: 0, min_notional_1e9: 0 };

type Event = { fill: [maker: number, taker: number, takerSide: Side, price: number, qty: number] } | { level: [side: Side, price: number, total: number] };

/** A listener that records events as plain data (the engine's FillEvent is reused, so copy it). */
class Recorder implements MatchListener {
  events: Event[] = [];
  onFill(f: FillEvent): void {
    this.events.push({ fill: [f.maker_id, f.taker_id, f.taker_side, f.price_1e9, f.qty_1e8] });
  }
  onLevel(side: Side, price: number, total: number): void {
    this.events.push({ level: [side, price, total] });
  }
  take(): Event[] {
    const e = this.events;
    this.events = [];
    return e;
  }
}

function book(rules: MatchingRules = PLAIN): { ob: OrderBook; rec: Recorder } {
  const rec = new Recorder();
  return { ob: new OrderBook(rules, rec, { initialOrders: 16, initialLevels: 16 }), rec };
}

const copy = (r: SubmitResult): SubmitResult => ({ ok: r.ok, reason: r.reason, filled_qty_1e8: r.filled_qty_1e8, resting_qty_1e8: r.resting_qty_1e8 });
const ok = (filled: number, resting: number): SubmitResult => ({ ok: true, reason: undefined, filled_qty_1e8: filled, resting_qty_1e8: resting });
const fills = (events: Event[]) => events.flatMap((e) => ('fill' in e ? [e.fill] : []));

describe('OrderBook: matching rules', () => {
  it('rests non-crossing limits and reports the aggregated levels', () => {
    const { ob, rec } = book();
    assert.deepEqual(copy(ob.limit(1, BID, 99, 5)), ok(0, 5));
    assert.deepEqual(copy(ob.limit(2, BID, 99, 3)), ok(0, 3));
    assert.deepEqual(copy(ob.limit(3, BID, 98, 7)), ok(0, 7));
    assert.deepEqual(copy(ob.limit(4, ASK, 101, 2)), ok(0, 2));
    assert.deepEqual(rec.take(), [{ level: [BID, 99, 5] }, { level: [BID, 99, 8] }, { level: [BID, 98, 7] }, { level: [ASK, 101, 2] }]);
    assert.equal(ob.bestBid(), 99);
    assert.equal(ob.bestAsk(), 101);
    assert.equal(ob.restingOrders(), 4);
    assert.deepEqual(ob.levels(BID, 10), [
      { price_1e9: 99, qty_1e8: 8 },
      { price_1e9: 98, qty_1e8: 7 },
    ]);
    assert.deepEqual(ob.levels(BID, 1), [{ price_1e9: 99, qty_1e8: 8 }]);
    assert.deepEqual(ob.levels(ASK, 0), []);
  });

  it('fills by price first, then by time within a price', () => {
    const { ob, rec } = book();
    ob.limit(1, ASK, 101, 4);
    ob.limit(2, ASK, 100, 4);
    ob.limit(3, ASK, 101, 4);
    ob.limit(4, ASK, 100, 4);
    rec.take();
    assert.deepEqual(copy(ob.market(10, BID, 14)), ok(14, 0));
    assert.deepEqual(fills(rec.events), [
      [2, 10, BID, 100, 4],
      [4, 10, BID, 100, 4],
      [1, 10, BID, 101, 4],
      [3, 10, BID, 101, 2],
    ]);
    assert.deepEqual(ob.snapshotOrders(ASK), [{ id: 3, price_1e9: 101, qty_1e8: 2 }]);
  });

  it('fills a crossing limit at the makers prices across levels and rests the remainder', () => {
    const { ob, rec } = book();
    ob.limit(1, ASK, 100, 3);
    ob.limit(2, ASK, 102, 3);
    ob.limit(3, ASK, 105, 3);
    rec.take();
    assert.deepEqual(copy(ob.limit(9, BID, 103, 10)), ok(6, 4));
    assert.deepEqual(rec.take(), [
      { fill: [1, 9, BID, 100, 3] },
      { level: [ASK, 100, 0] },
      { fill: [2, 9, BID, 102, 3] },
      { level: [ASK, 102, 0] },
      { level: [BID, 103, 4] },
    ]);
    assert.equal(ob.bestBid(), 103);
    assert.equal(ob.bestAsk(), 105);
    assert.equal(ob.restingQty(9), 4);
  });

  it('reports the level total after every fill, including partial fills of a maker', () => {
    const { ob, rec } = book();
    ob.limit(1, BID, 50, 2);
    ob.limit(2, BID, 50, 5);
    rec.take();
    assert.deepEqual(copy(ob.limit(3, ASK, 50, 4)), ok(4, 0));
    assert.deepEqual(rec.take(), [{ fill: [1, 3, ASK, 50, 2] }, { level: [BID, 50, 5] }, { fill: [2, 3, ASK, 50, 2] }, { level: [BID, 50, 3] }]);
    assert.equal(ob.restingQty(2), 3);
    assert.equal(ob.restingOrders(), 1);
  });

  it('sweeps with market orders, never rests them, and refuses an empty opposite side', () => {
    const { ob, rec } = book();
    assert.deepEqual(copy(ob.market(1, BID, 5)), { ok: false, reason: 'no_liquidity', filled_qty_1e8: 0, resting_qty_1e8: 0 });
    ob.limit(2, ASK, 10, 1);
    ob.limit(3, ASK, 20, 1);
    ob.limit(4, BID, 5, 1);
    rec.take();
    assert.deepEqual(copy(ob.market(5, BID, 10)), ok(2, 0), 'the unfilled part is dropped (IOC)');
    assert.equal(ob.bestAsk(), undefined);
    assert.equal(ob.bestBid(), 5);
    assert.equal(ob.restingQty(5), 0);
    assert.equal(fills(rec.take()).length, 2);
    assert.equal(ob.market(6, BID, 1).reason, 'no_liquidity');
    assert.deepEqual(rec.take(), [], 'a rejection reports nothing');
  });

  it('cancels in O(1) from anywhere in a FIFO and reports the new level total', () => {
    const { ob, rec } = book();
    ob.limit(1, BID, 10, 1);
    ob.limit(2, BID, 10, 2);
    ob.limit(3, BID, 10, 4);
    ob.limit(4, BID, 9, 8);
    rec.take();
    assert.equal(ob.cancel(2), true);
    assert.equal(ob.cancel(2), false, 'already gone');
    assert.equal(ob.cancel(77), false, 'never existed');
    assert.equal(ob.cancel(0), false);
    assert.equal(ob.cancel(-3), false);
    assert.equal(ob.cancel(3), true);
    assert.equal(ob.cancel(1), true);
    assert.deepEqual(rec.take(), [{ level: [BID, 10, 5] }, { level: [BID, 10, 1] }, { level: [BID, 10, 0] }]);
    assert.equal(ob.bestBid(), 9);
    assert.equal(ob.cancel(4), true);
    assert.equal(ob.bestBid(), undefined);
    assert.equal(ob.restingOrders(), 0);
    // Ids are reusable once an order is gone.
    assert.deepEqual(copy(ob.limit(2, BID, 10, 1)), ok(0, 1));
  });

  it('reduces in place, keeping queue position', () => {
    const { ob, rec } = book({ ...PLAIN, lot_1e8: 2 });
    ob.limit(1, ASK, 10, 10);
    ob.limit(2, ASK, 10, 10);
    rec.take();
    assert.equal(ob.reduce(1, 4), true);
    assert.deepEqual(rec.take(), [{ level: [ASK, 10, 14] }]);
    for (const bad of [4, 6, 12, 0, -2, 3]) assert.equal(ob.reduce(1, bad), false, `reduce to ${bad}`);
    assert.equal(ob.reduce(99, 2), false);
    assert.deepEqual(rec.take(), []);
    ob.market(3, BID, 6);
    assert.deepEqual(fills(rec.take()), [
      [1, 3, BID, 10, 4],
      [2, 3, BID, 10, 2],
    ]);
  });

  it('rejects each invalid order with its reason and leaves the book untouched', () => {
    const rules: MatchingRules = { tick_1e9: 10_000_000, lot_1e8: 1_000, min_qty_1e8: 100_000, min_notional_1e9: 5_000_000_000 };
    const { ob, rec } = book(rules);
    const price = 100 * 1e9; // $100
    assert.deepEqual(copy(ob.limit(1, BID, price, 10_000_000)), ok(0, 10_000_000));
    rec.take();
    const cases: [string, () => SubmitResult][] = [
      ['tick', () => ob.limit(2, BID, price + 5_000_000, 10_000_000)],
      ['tick', () => ob.limit(2, BID, 0, 10_000_000)],
      ['tick', () => ob.limit(2, BID, -10_000_000, 10_000_000)],
      ['tick', () => ob.limit(2, BID, NaN, 10_000_000)],
      ['tick', () => ob.limit(2, BID, 2 ** 60, 10_000_000)],
      ['lot', () => ob.limit(2, BID, price, 10_000_500)],
      ['lot', () => ob.limit(2, BID, price, NaN)],
      ['lot', () => ob.market(2, ASK, 1.5)],
      ['min_qty', () => ob.limit(2, BID, price, 99_000)],
      ['min_qty', () => ob.limit(2, BID, price, 0)],
      ['min_qty', () => ob.limit(2, BID, price, -1_000)],
      ['min_qty', () => ob.market(2, ASK, 99_000)],
      // $100 x 0.04999 = $4.999 < $5
      ['min_notional', () => ob.limit(2, BID, price, 4_999_000)],
      ['duplicate_id', () => ob.limit(1, ASK, price + 10_000_000, 10_000_000)],
      ['duplicate_id', () => ob.market(1, ASK, 10_000_000)],
    ];
    for (const [reason, submit] of cases) {
      assert.deepEqual(copy(submit()), { ok: false, reason, filled_qty_1e8: 0, resting_qty_1e8: 0 }, reason);
    }
    assert.deepEqual(rec.take(), []);
    assert.deepEqual(ob.snapshotOrders(BID), [{ id: 1, price_1e9: price, qty_1e8: 10_000_000 }]);
    assert.deepEqual(ob.snapshotOrders(ASK), []);
    // Exactly $5 passes; market orders are not held to min_notional.
    assert.equal(ob.limit(3, BID, price, 5_000_000).ok, true);
    assert.equal(ob.market(4, ASK, 100_000).ok, true);
  });

  it('decides min_notional exactly where price x qty is far beyond 2^53', () => {
    // BTC-like magnitudes: price ~1e14, qty ~1e9, product ~1e23. For each price, the smallest
    // passing qty is ceil(min x 1e8 / price), found with BigInt; one lot less must be refused.
    const min = 10_000_000_000; // $10
    const { ob } = book({ tick_1e9: 1, lot_1e8: 1, min_qty_1e8: 0, min_notional_1e9: min });
    const ref = new ReferenceBook({ tick_1e9: 1, lot_1e8: 1, min_qty_1e8: 0, min_notional_1e9: min }, new Recorder());
    // Products one unit either side of min x 1e8 = 1e18, which doubles cannot tell apart
    // (both round to 1e18): 10^18 - 1 = 999,999,999 x 1,000,000,001 and 10^18 + 1 = 1,000,001 x
    // 999,999,000,001. Only the exact fallback decides these.
    assert.equal(999_999_999 * 1_000_000_001, 1e18, 'the double product is indistinguishable from the minimum');
    assert.equal(ob.limit(1, BID, 999_999_999, 1_000_000_001).reason, 'min_notional');
    assert.equal(ob.limit(1, BID, 1_000_001, 999_999_000_001).ok, true);
    assert.equal(ob.limit(2, BID, 1_000_000_000, 1_000_000_000).ok, true, 'exactly the minimum');
    ob.cancel(1);
    ob.cancel(2);
    let id = 3;
    const random = mulberry32(7);
    for (let i = 0; i < 2_000; i++) {
      const price = Math.floor(1e6 + random() * 2 ** 50);
      const exact = (BigInt(min) * 100_000_000n + BigInt(price) - 1n) / BigInt(price);
      const q = Number(exact);
      assert.ok(notionalUsd1e9(price, q) >= min && (q === 1 || notionalUsd1e9(price, q - 1) < min), 'oracle sanity');
      for (const [qty, pass] of [
        [q, true],
        [q - 1, false],
      ] as const) {
        if (qty <= 0) continue;
        const r = ob.limit(id, BID, price, qty);
        assert.equal(r.ok, pass, `price ${price} qty ${qty}`);
        assert.equal(ref.limit(id, BID, price, qty).ok, pass);
        if (r.ok) ob.cancel(id);
        if (pass) ref.cancel(id);
        id++;
      }
    }
  });

  it('reuses its result object and keeps listeners consistent during callbacks', () => {
    const seen: [number | undefined, number][] = [];
    const ob: OrderBook = new OrderBook(PLAIN, {
      onFill() {},
      onLevel(side) {
        if (side === ASK) seen.push([ob.bestAsk(), ob.restingOrders()]);
      },
    });
    const a = ob.limit(1, ASK, 10, 1);
    const b = ob.limit(2, ASK, 11, 1);
    assert.equal(a, b, 'one SubmitResult per engine, valid until the next call');
    seen.length = 0;
    ob.market(3, BID, 2);
    assert.deepEqual(seen, [
      [11, 1],
      [undefined, 0],
    ]);
  });

  it('grows past its initial capacity and keeps working after the book empties', () => {
    const { ob } = book();
    for (let i = 1; i <= 5_000; i++) ob.limit(i, i % 2 === 0 ? BID : ASK, i % 2 === 0 ? 1_000 - (i % 300) : 1_001 + (i % 300), 1 + (i % 7));
    assert.equal(ob.restingOrders(), 5_000);
    assert.equal(ob.levels(BID, Infinity).length, 150);
    for (let i = 1; i <= 5_000; i += 2) assert.equal(ob.cancel(i), true);
    assert.equal(ob.market(10_001, ASK, 1e9).filled_qty_1e8 > 0, true);
    assert.equal(ob.restingOrders(), 0);
    assert.equal(ob.limit(10_002, BID, 5, 5).resting_qty_1e8, 5);
    assert.deepEqual(ob.levels(BID, 5), [{ price_1e9: 5, qty_1e8: 5 }]);
  });

  it('refuses invalid configuration and ids', () => {
    assert.throws(() => new OrderBook({ ...PLAIN, tick_1e9: 0 }, new Recorder()), RangeError);
    assert.throws(() => new OrderBook({ ...PLAIN, lot_1e8: 0.5 }, new Recorder()), RangeError);
    assert.throws(() => new OrderBook({ ...PLAIN, min_notional_1e9: -1 }, new Recorder()), RangeError);
    const { ob } = book();
    assert.throws(() => ob.limit(0, BID, 1, 1), RangeError);
    assert.throws(() => ob.market(-1, BID, 1), RangeError);
  });
});

// ---------------------------------------------------------------------------------------------
// Differential: OrderBook vs ReferenceBook

type Command =
  | { kind: 'limit'; id: number; side: Side; price: number; qty: number }
  | { kind: 'market'; id: number; side: Side; qty: number }
  | { kind: 'cancel'; id: number }
  | { kind: 'reduce'; id: number; qty: number };


/** A side of the L2 book rebuilt from onLevel events only: what a venue would publish. */
class DerivedL2 implements MatchListener {
  readonly sides = [new Map<number, number>(), new Map<number, number>()];
  constructor(private readonly inner: MatchListener) {}
  onFill(f: FillEvent): void {
    this.inner.onFill(f);
  }
  onLevel(side: Side, price: number, total: number): void {
    if (total === 0) this.sides[side]!.delete(price);
    else this.sides[side]!.set(price, total);
    this.inner.onLevel(side, price, total);
  }
  levels(side: Side): { price_1e9: number; qty_1e8: number }[] {
    return [...this.sides[side]!.entries()].sort((a, b) => (side === BID ? b[0] - a[0] : a[0] - b[0])).map(([price_1e9, qty_1e8]) => ({ price_1e9, qty_1e8 }));
  }
}

/** FNV-1a over (side, id, price, qty) of every resting order in priority order. */
function stateHash(b: OrderBook | ReferenceBook): number {
  let h = 0x811c9dc5;
  const mix = (v: number) => {
    for (const word of [v >>> 0, Math.floor(v / 4294967296) >>> 0]) {
      h = Math.imul(h ^ word, 0x01000193) >>> 0;
    }
  };
  for (const side of [BID, ASK] as const) {
    mix(side + 7);
    for (const o of b.snapshotOrders(side)) {
      mix(o.id);
      mix(o.price_1e9);
      mix(o.qty_1e8);
    }
  }
  return h;
}

function apply(m: Matcher, c: Command): SubmitResult | boolean {
  switch (c.kind) {
    case 'limit':
      return copy(m.limit(c.id, c.side, c.price, c.qty));
    case 'market':
      return copy(m.market(c.id, c.side, c.qty));
    case 'cancel':
      return m.cancel(c.id);
    case 'reduce':
      return m.reduce(c.id, c.qty);
  }
}

interface Pair {
  fast: OrderBook;
  ref: ReferenceBook;
  fastRec: Recorder;
  refRec: Recorder;
  l2: DerivedL2;
}

function pair(rules: MatchingRules): Pair {
  const fastRec = new Recorder();
  const refRec = new Recorder();
  const l2 = new DerivedL2(fastRec);
  // Tiny initial capacities so that growth of every table happens inside the test.
  return { fast: new OrderBook(rules, l2, { initialOrders: 16, initialLevels: 16 }), ref: new ReferenceBook(rules, refRec), fastRec, refRec, l2 };
}

/** Applies one command to both books; asserts the same result and the same events. */
function step(p: Pair, c: Command, at: string): void {
  const a = apply(p.fast, c);
  const b = apply(p.ref, c);
  const ea = p.fastRec.take();
  const eb = p.refRec.take();
  if (!sameResult(a, b) || !sameEvents(ea, eb)) {
    assert.deepEqual({ result: a, events: ea }, { result: b, events: eb }, `${at}: ${JSON.stringify(c)}`);
  }
}

function sameResult(a: SubmitResult | boolean, b: SubmitResult | boolean): boolean {
  if (typeof a === 'boolean' || typeof b === 'boolean') return a === b;
  return a.ok === b.ok && a.reason === b.reason && a.filled_qty_1e8 === b.filled_qty_1e8 && a.resting_qty_1e8 === b.resting_qty_1e8;
}

function sameEvents(a: Event[], b: Event[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    const u = 'fill' in x ? x.fill : x.level;
    const v = 'fill' in y ? y.fill : y.level;
    if ('fill' in x !== 'fill' in y || u.length !== v.length || u.some((n, j) => n !== v[j])) return false;
  }
  return true;
}

/** Book-level state: best prices, counts, full L2 of both books and the event-derived L2. */
function checkState(p: Pair, at: string): void {
  assert.equal(p.fast.restingOrders(), p.ref.restingOrders(), `${at}: resting orders`);
  assert.equal(p.fast.bestBid(), p.ref.bestBid(), `${at}: best bid`);
  assert.equal(p.fast.bestAsk(), p.ref.bestAsk(), `${at}: best ask`);
  for (const side of [BID, ASK] as const) {
    const expected = p.ref.levels(side, Infinity);
    assert.deepEqual(p.fast.levels(side, Infinity), expected, `${at}: levels side ${side}`);
    assert.deepEqual(p.l2.levels(side), expected, `${at}: L2 from events, side ${side}`);
  }
  const bid = p.fast.bestBid();
  const ask = p.fast.bestAsk();
  assert.ok(bid === undefined || ask === undefined || bid < ask, `${at}: book crossed ${bid} / ${ask}`);
}

interface StreamShape {
  rules: MatchingRules;
  /** price of the mid in ticks, and the typical quantity in lots */
  midTicks: number;
  maxLots: number;
}

/**
 * Seeded commands that exercise every path: passive and crossing limits, markets (sometimes on
 * an empty side), cancels and reduces of live, filled, cancelled and unknown ids, duplicates,
 * and invalid prices and sizes. The mix leans on removals when the oracle's book gets large,
 * which keeps the naive book fast without making the stream depend on the fast book.
 */
function* commands(seed: number, count: number, shape: StreamShape, ref: ReferenceBook): Generator<Command> {
  const random = mulberry32(seed);
  const { tick_1e9: tick, lot_1e8: lot, min_qty_1e8: minQty } = shape.rules;
  const int = (n: number) => Math.floor(random() * n);
  let nextId = 1;
  let mid = shape.midTicks;
  // The last 256 limit ids: most are resting, some filled or cancelled since.
  const limitIds: number[] = [];
  let limitCount = 0;
  const recent = (): number => (limitIds.length === 0 ? 1 : limitIds[int(limitIds.length)]!);
  const qty = (): number => {
    const u = random();
    if (u < 0.01) return lot * int(3) * -1; // zero or negative
    if (u < 0.02) return lot * (1 + int(5)) + Math.max(1, Math.floor(lot / 2)); // off the lot grid
    if (u < 0.04) return Math.max(lot, minQty - lot); // below the minimum (when there is one)
    return Math.max(minQty, lot) + lot * int(shape.maxLots);
  };
  const price = (side: Side): number => {
    const u = random();
    if (u < 0.01) return mid * tick + Math.max(1, Math.floor(tick / 2)); // off tick
    if (u < 0.015) return -tick * int(2); // zero or negative
    // Mostly passive within 40 ticks; some land through the touch and cross.
    const offset = int(46) - 6;
    return (side === BID ? mid - 1 - offset : mid + 1 + offset) * tick;
  };
  for (let i = 0; i < count; i++) {
    if (random() < 0.05) mid += random() < 0.5 - (mid - shape.midTicks) / 40 ? 1 : -1;
    // Above 300 resting orders, fewer adds and more cancels and markets.
    const crowded = ref.restingOrders() > 300;
    const u = random();
    const side: Side = random() < 0.5 ? BID : ASK;
    if (u < (crowded ? 0.3 : 0.5)) {
      const id = random() < 0.03 ? recent() : nextId++;
      limitIds[limitCount++ % 256] = id;
      yield { kind: 'limit', id, side, price: price(side), qty: qty() };
    } else if (u < (crowded ? 0.45 : 0.6)) {
      const id = random() < 0.02 ? recent() : nextId++;
      yield { kind: 'market', id, side, qty: random() < 0.5 ? qty() : Math.max(minQty, lot) * (1 + int(40)) };
    } else if (u < 0.85) {
      const r = random();
      yield { kind: 'cancel', id: r < 0.03 ? nextId + 1000 : r < 0.04 ? -int(2) : recent() };
    } else {
      const r = random();
      const q = r < 0.05 ? 0 : r < 0.08 ? lot * int(10) + Math.max(1, Math.floor(lot / 3)) : lot * (1 + int(shape.maxLots));
      yield { kind: 'reduce', id: recent(), qty: q };
    }
  }
}

const SHAPES: Record<string, StreamShape> = {
  // tick 1, lot 1, no minimums: the densest book, every price a level.
  plain: { rules: PLAIN, midTicks: 10_000, maxLots: 40 },
  // Venue-like units: $100 mid on a 0.01 tick, 0.01 lot, minimum 0.01, minimum $5 notional, so
  // min_notional rejections are common and price x qty (~1e18) is far beyond 2^53.
  venue: {
    rules: { tick_1e9: 10_000_000, lot_1e8: 1_000_000, min_qty_1e8: 1_000_000, min_notional_1e9: 5_000_000_000 },
    midTicks: 10_000,
    maxLots: 60,
  },
};

describe('OrderBook vs ReferenceBook (differential)', () => {
  const COMMANDS = 100_000;
  const runs: [string, number][] = [
    ['plain', 1],
    ['plain', 2],
    ['plain', 3],
    ['venue', 4],
    ['venue', 5],
    ['venue', 6],
  ];
  for (const [shape, seed] of runs) {
    it(`agrees on ${COMMANDS.toLocaleString('en')} seeded commands (${shape}, seed ${seed})`, () => {
      const p = pair(SHAPES[shape]!.rules);
      const tally = { limit: 0, market: 0, cancel: 0, reduce: 0 };
      let i = 0;
      for (const c of commands(seed, COMMANDS, SHAPES[shape]!, p.ref)) {
        const at = `seed ${seed} #${i}`;
        tally[c.kind]++;
        step(p, c, at);
        if (++i % 1_000 === 0) checkState(p, at);
      }
      checkState(p, 'end');
      assert.equal(stateHash(p.fast), stateHash(p.ref), 'final state hash');
      assert.deepEqual(p.fast.snapshotOrders(BID), p.ref.snapshotOrders(BID));
      assert.deepEqual(p.fast.snapshotOrders(ASK), p.ref.snapshotOrders(ASK));
      assert.ok(tally.limit > 0 && tally.market > 0 && tally.cancel > 0 && tally.reduce > 0);
    });
  }

  it('covers every outcome on a seeded stream (the differential is not vacuous)', () => {
    const p = pair(SHAPES.venue!.rules);
    const outcomes = new Map<string, number>();
    const count = (k: string) => outcomes.set(k, (outcomes.get(k) ?? 0) + 1);
    let fillsSeen = 0;
    let crossingLimits = 0;
    for (const c of commands(11, 10_000, SHAPES.venue!, p.ref)) {
      const r = apply(p.ref, c);
      const events = p.refRec.take();
      fillsSeen += fills(events).length;
      if (typeof r === 'boolean') count(`${c.kind}:${r}`);
      else {
        count(`${c.kind}:${r.ok ? 'ok' : r.reason}`);
        if (c.kind === 'limit' && r.filled_qty_1e8 > 0) crossingLimits++;
      }
    }
    for (const k of [
      'limit:ok',
      'limit:tick',
      'limit:lot',
      'limit:min_qty',
      'limit:min_notional',
      'limit:duplicate_id',
      'market:ok',
      'market:no_liquidity',
      'cancel:true',
      'cancel:false',
      'reduce:true',
      'reduce:false',
    ]) {
      assert.ok((outcomes.get(k) ?? 0) > 0, `${k} never happened: ${JSON.stringify([...outcomes])}`);
    }
    assert.ok(fillsSeen > 1_000, `fills ${fillsSeen}`);
    assert.ok(crossingLimits > 100, `crossing limits ${crossingLimits}`);
  });

  it('agrees on arbitrary short command sequences (fast-check, shrinking)', () => {
    const id = fc.integer({ min: 1, max: 30 });
    const side = fc.constantFrom(BID, ASK);
    const command: fc.Arbitrary<Command> = fc.oneof(
      { weight: 5, arbitrary: fc.record({ kind: fc.constant('limit' as const), id, side, price: fc.integer({ min: 95, max: 105 }), qty: fc.integer({ min: 1, max: 9 }) }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('market' as const), id, side, qty: fc.integer({ min: 1, max: 20 }) }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), id }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('reduce' as const), id, qty: fc.integer({ min: 0, max: 9 }) }) },
    );
    fc.assert(
      fc.property(fc.array(command, { maxLength: 120 }), (cmds) => {
        const p = pair(PLAIN);
        cmds.forEach((c, i) => step(p, c, `#${i}`));
        checkState(p, 'end');
        assert.equal(stateHash(p.fast), stateHash(p.ref));
      }),
      { numRuns: 400, seed: 20_240_601 },
    );
  });
});
