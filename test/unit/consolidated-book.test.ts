/**
 * ConsolidatedBook (actors/book/consolidated-book.ts): hand cases for the NBBO rules, snapshots,
 * dropped feeds, depth limits and versions; then a differential test against a naive reference
 * (Maps per venue and side, full scans and sorts) on seeded random streams of deltas, snapshots
 * and clears over 10 venues, compared after every operation (NBBO, versions) and every few
 * operations (every venue's top, merged book at several depths).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConsolidatedBook, type Nbbo, type VenueTop } from '../../actors/book/consolidated-book.ts';
import { Side, type Level } from '../../domain/market.ts';
import { mulberry32 } from '../../actors/edge/sim/rng.ts';

const B = Side.BID;
const A = Side.ASK;
const TICK = 10_000_000; // 0.01 in _1e9
const px = (cents: number) => cents * TICK;
const lv = (cents: number, qty: number): Level => ({ price_1e9: px(cents), qty_1e8: qty });

describe('consolidated book: hand cases', () => {
  it('starts empty: zero prices, venue -1, not crossed, empty merged book', () => {
    const book = new ConsolidatedBook(['a', 'b']);
    assert.deepEqual(book.nbbo(), { bid_1e9: 0, ask_1e9: 0, bid_qty_1e8: 0, ask_qty_1e8: 0, bid_venue: -1, ask_venue: -1, crossed: false, updated_ns: 0 });
    assert.deepEqual(book.venueTop(1), { bid_1e9: 0, ask_1e9: 0, bid_qty_1e8: 0, ask_qty_1e8: 0, updated_ns: 0 });
    assert.deepEqual(book.merged(B, 10), []);
    assert.equal(book.version, 0);
  });

  it('takes the best venue per side and sums the sizes of every venue at the best price', () => {
    const book = new ConsolidatedBook(['a', 'b', 'c']);
    book.applyLevel(0, B, px(10000), 5, 1);
    book.applyLevel(1, B, px(10001), 7, 2);
    book.applyLevel(2, B, px(10001), 3, 3); // ties venue 1 at the best bid
    book.applyLevel(0, A, px(10003), 4, 4);
    book.applyLevel(2, A, px(10002), 6, 5);
    assert.deepEqual(book.nbbo(), {
      bid_1e9: px(10001),
      ask_1e9: px(10002),
      bid_qty_1e8: 10, // 7 (b) + 3 (c) at 100.01
      ask_qty_1e8: 6,
      bid_venue: 1, // lowest index at the best bid
      ask_venue: 2,
      crossed: false,
      updated_ns: 5,
    });
    // A deeper level elsewhere does not move the NBBO or its timestamp.
    const nbboVersion = book.nbboVersion;
    book.applyLevel(0, B, px(9990), 1, 6);
    assert.equal(book.nbbo().updated_ns, 5);
    assert.equal(book.nbboVersion, nbboVersion);
    // A size change at a tied best price does.
    book.applyLevel(2, B, px(10001), 4, 7);
    assert.equal(book.nbbo().bid_qty_1e8, 11);
    assert.equal(book.nbbo().updated_ns, 7);
  });

  it('flags a book crossed across different venues, but not a locked one', () => {
    const book = new ConsolidatedBook(['a', 'b']);
    book.applyLevel(0, B, px(10000), 1, 1);
    book.applyLevel(1, A, px(10000), 1, 2);
    assert.equal(book.nbbo().crossed, false, 'bid = ask is locked, not crossed');
    book.applyLevel(0, B, px(10001), 1, 3);
    const n = book.nbbo();
    assert.equal(n.crossed, true);
    assert.equal(n.bid_1e9, px(10001));
    assert.equal(n.ask_1e9, px(10000));
    assert.equal(n.updated_ns, 3);
    book.applyLevel(0, B, px(10001), 0, 4);
    assert.equal(book.nbbo().crossed, false, 'removing the crossing bid uncrosses');
    assert.equal(book.nbbo().bid_1e9, px(10000));
    // One side empty is never crossed.
    book.applyLevel(1, A, px(10000), 0, 5);
    assert.equal(book.nbbo().crossed, false);
    assert.equal(book.nbbo().ask_venue, -1);
    assert.equal(book.nbbo().ask_1e9, 0);
  });

  it('removing the best level exposes the next one, on this venue or another', () => {
    const book = new ConsolidatedBook(['a', 'b']);
    book.applyLevel(0, A, px(101), 1, 1);
    book.applyLevel(0, A, px(102), 2, 2);
    book.applyLevel(1, A, px(103), 3, 3);
    book.applyLevel(0, A, px(101), 0, 4);
    assert.deepEqual([book.nbbo().ask_1e9, book.nbbo().ask_qty_1e8, book.nbbo().ask_venue], [px(102), 2, 0]);
    book.applyLevel(0, A, px(102), 0, 5);
    assert.deepEqual([book.nbbo().ask_1e9, book.nbbo().ask_qty_1e8, book.nbbo().ask_venue], [px(103), 3, 1]);
    assert.equal(book.levelCount(0, A), 0);
    book.applyLevel(1, A, px(103), 0, 6);
    assert.deepEqual([book.nbbo().ask_1e9, book.nbbo().ask_venue, book.nbbo().updated_ns], [0, -1, 6]);
  });

  it('does not count a no-op as a change, but a no-op still refreshes the venue timestamp', () => {
    const book = new ConsolidatedBook(['a']);
    book.applyLevel(0, B, px(100), 5, 10);
    book.applyLevel(0, B, px(99), 5, 11);
    const v = book.version;
    book.applyLevel(0, B, px(100), 5, 12); // same size at the top
    book.applyLevel(0, B, px(99), 5, 13); // same size below
    book.applyLevel(0, B, px(98), 0, 14); // removal of an absent level
    book.applyLevel(0, A, px(105), 0, 15); // removal on an empty side
    assert.equal(book.version, v);
    assert.equal(book.venueTop(0).updated_ns, 15);
    assert.equal(book.nbbo().updated_ns, 10);
    book.applyLevel(0, B, px(99), 6, 16);
    assert.equal(book.version, v + 1);
  });

  it('replaces a venue book on snapshot, sorted or not, and ignores a snapshot that changes nothing', () => {
    const book = new ConsolidatedBook(['a', 'b']);
    book.applyLevel(0, B, px(100), 1, 1);
    book.applyLevel(0, B, px(90), 1, 2);
    book.applyLevel(0, A, px(110), 1, 3);
    book.applyLevel(1, B, px(95), 2, 4);
    book.applySnapshot(0, [lv(97, 3), lv(96, 4)], [lv(104, 5), lv(106, 6)], 5);
    assert.deepEqual(book.merged(B, 10), [lv(97, 3), lv(96, 4), lv(95, 2)], 'old levels 100 and 90 of venue a are gone');
    assert.deepEqual(book.merged(A, 10), [lv(104, 5), lv(106, 6)]);
    assert.deepEqual(book.nbbo(), { bid_1e9: px(97), ask_1e9: px(104), bid_qty_1e8: 3, ask_qty_1e8: 5, bid_venue: 0, ask_venue: 0, crossed: false, updated_ns: 5 });
    assert.deepEqual(book.venueTop(0), { bid_1e9: px(97), ask_1e9: px(104), bid_qty_1e8: 3, ask_qty_1e8: 5, updated_ns: 5 });

    const v = book.version;
    book.applySnapshot(0, [lv(97, 3), lv(96, 4)], [lv(104, 5), lv(106, 6)], 6);
    assert.equal(book.version, v, 'identical snapshot');
    assert.equal(book.venueTop(0).updated_ns, 6);

    // Unsorted, with a duplicate (last wins) and a zero size (removes the duplicate's earlier entry).
    book.applySnapshot(1, [lv(80, 1), lv(94, 2), lv(80, 3), lv(93, 0), lv(91, 9), lv(91, 0)], [], 7);
    assert.deepEqual(book.merged(B, 10), [lv(97, 3), lv(96, 4), lv(94, 2), lv(80, 3)]);
    assert.equal(book.version, v + 1);
    // The same content again, unsorted this time: no change.
    book.applySnapshot(1, [lv(80, 3), lv(94, 2)], [], 7);
    assert.equal(book.version, v + 1);
    // A bad level anywhere throws before either side changes.
    assert.throws(() => book.applySnapshot(1, [lv(70, 1)], [lv(120, -1)], 7), RangeError);
    assert.deepEqual(book.merged(B, 10), [lv(97, 3), lv(96, 4), lv(94, 2), lv(80, 3)]);

    // An empty snapshot empties the venue.
    book.applySnapshot(0, [], [], 8);
    assert.deepEqual(book.nbbo(), { bid_1e9: px(94), ask_1e9: 0, bid_qty_1e8: 2, ask_qty_1e8: 0, bid_venue: 1, ask_venue: -1, crossed: false, updated_ns: 8 });
  });

  it('stops counting a venue whose feed dropped', () => {
    const book = new ConsolidatedBook(['a', 'b']);
    book.applyLevel(0, B, px(101), 1, 1);
    book.applyLevel(1, B, px(100), 2, 2);
    book.applyLevel(0, A, px(103), 3, 3);
    book.applyLevel(1, A, px(104), 4, 4);
    book.clearVenue(0, 50);
    assert.deepEqual(book.nbbo(), { bid_1e9: px(100), ask_1e9: px(104), bid_qty_1e8: 2, ask_qty_1e8: 4, bid_venue: 1, ask_venue: 1, crossed: false, updated_ns: 50 });
    assert.deepEqual(book.venueTop(0), { bid_1e9: 0, ask_1e9: 0, bid_qty_1e8: 0, ask_qty_1e8: 0, updated_ns: 3 }, 'keeps its last tick time');
    assert.deepEqual(book.merged(A, 5), [lv(104, 4)]);
    const v = book.version;
    book.clearVenue(0, 60);
    assert.equal(book.version, v, 'clearing an empty venue is no change');
    // Without a timestamp, the newest one the book has seen.
    book.applyLevel(0, B, px(99), 1, 70);
    book.clearVenue(1);
    assert.equal(book.nbbo().updated_ns, 70);
    assert.equal(book.nbbo().bid_1e9, px(99));
  });

  it('keeps the best maxLevels levels per venue and side', () => {
    const book = new ConsolidatedBook(['a'], 3);
    for (const c of [100, 99, 98]) book.applyLevel(0, B, px(c), 1, c);
    book.applyLevel(0, B, px(97), 1, 200); // worse than all three kept: dropped
    assert.deepEqual(book.merged(B, 10).map((l) => l.price_1e9), [px(100), px(99), px(98)]);
    book.applyLevel(0, B, px(101), 1, 201); // new best evicts the worst (98)
    assert.deepEqual(book.merged(B, 10).map((l) => l.price_1e9), [px(101), px(100), px(99)]);
    book.applyLevel(0, B, px(100), 0, 203);
    book.applyLevel(0, B, px(98), 2, 204); // room again
    assert.deepEqual(book.merged(B, 10), [lv(101, 1), lv(99, 1), lv(98, 2)]);
    book.applyLevel(0, B, px(100), 3, 205); // full, lands between: evicts 98
    assert.deepEqual(book.merged(B, 10), [lv(101, 1), lv(100, 3), lv(99, 1)]);
    // A snapshot deeper than maxLevels keeps the best.
    book.applySnapshot(0, [lv(50, 1), lv(49, 1), lv(48, 1), lv(47, 1)], [], 206);
    assert.deepEqual(book.merged(B, 10).map((l) => l.price_1e9), [px(50), px(49), px(48)]);
  });

  it('grows past its initial capacity', () => {
    const book = new ConsolidatedBook(['a', 'b'], 1000);
    for (let i = 0; i < 500; i++) book.applyLevel(i % 2, A, px(1000 + ((i * 7919) % 500)), i + 1, i);
    const asks = book.merged(A, 1000);
    assert.equal(asks.length, 500);
    for (let i = 1; i < asks.length; i++) assert.ok(asks[i]!.price_1e9 > asks[i - 1]!.price_1e9);
  });

  it('writes the merged book into caller arrays without allocating levels again', () => {
    const book = new ConsolidatedBook(['a', 'b', 'c']);
    book.applySnapshot(0, [lv(100, 1), lv(99, 1)], [lv(101, 1)], 1);
    book.applySnapshot(1, [lv(100, 2), lv(98, 2)], [lv(102, 2)], 1);
    book.applySnapshot(2, [lv(99, 4), lv(97, 4)], [lv(101, 4)], 1);
    const prices = new Float64Array(3);
    const qtys = new Float64Array(3);
    assert.equal(book.mergedInto(B, 3, prices, qtys), 3);
    assert.deepEqual([...prices], [px(100), px(99), px(98)]);
    assert.deepEqual([...qtys], [3, 5, 2]);
    const out: Level[] = [];
    book.merged(B, 5, out);
    const first = out[0];
    assert.deepEqual(out, [lv(100, 3), lv(99, 5), lv(98, 2), lv(97, 4)], 'four distinct prices');
    book.merged(B, 2, out);
    assert.equal(out.length, 2);
    assert.equal(out[0], first, 'same object reused');
    assert.deepEqual(book.merged(A, 50), [lv(101, 5), lv(102, 2)]);
    assert.deepEqual(book.merged(A, 0), []);
    const reused: Nbbo = book.nbbo();
    assert.equal(book.nbbo(reused), reused);
    const top: VenueTop = book.venueTop(0);
    assert.equal(book.venueTop(1, top), top);
  });

  it('rejects bad construction and bad input', () => {
    assert.throws(() => new ConsolidatedBook([]), RangeError);
    assert.throws(() => new ConsolidatedBook(Array.from({ length: 17 }, (_, i) => `v${i}`)), RangeError);
    assert.throws(() => new ConsolidatedBook(['a'], 0), RangeError);
    const book = new ConsolidatedBook(['a']);
    assert.throws(() => book.applyLevel(1, B, px(1), 1, 1), RangeError);
    assert.throws(() => book.applyLevel(-1, B, px(1), 1, 1), RangeError);
    assert.throws(() => book.applyLevel(0, B, 0, 1, 1), RangeError);
    assert.throws(() => book.applyLevel(0, B, px(1), -1, 1), RangeError);
    assert.throws(() => book.applyLevel(0, B, px(1), Number.NaN, 1), RangeError);
    assert.throws(() => book.applySnapshot(0, [lv(1, -1)], [], 1), RangeError);
    assert.throws(() => book.clearVenue(3), RangeError);
    assert.equal(book.version, 0);
  });
});

// ---------------------------------------------------------------------------------------------
// Differential test against a naive reference.


const better = (side: Side, a: number, b: number) => (side === B ? a > b : a < b);

/**
 * The reference: a Map per venue and side, its top found by a full scan of that Map, the NBBO by
 * a scan of the venues' tops, the merged book by aggregating every level into one Map and sorting.
 * It models the same documented rules: size sum at the best price, lowest venue index, strict
 * crossing, the best `maxLevels` levels kept, version bumps only on content change.
 */
class ReferenceBook {
  readonly books: Map<number, number>[][];
  readonly tops: { price: number; qty: number }[][];
  readonly ts: number[];
  version = 0;
  nbboVersion = 0;
  private current: Nbbo = { bid_1e9: 0, ask_1e9: 0, bid_qty_1e8: 0, ask_qty_1e8: 0, bid_venue: -1, ask_venue: -1, crossed: false, updated_ns: 0 };

  constructor(
    readonly venues: number,
    readonly maxLevels: number,
  ) {
    this.books = Array.from({ length: venues }, () => [new Map(), new Map()]);
    this.tops = Array.from({ length: venues }, () => [
      { price: 0, qty: 0 },
      { price: 0, qty: 0 },
    ]);
    this.ts = new Array<number>(venues).fill(0);
  }

  private set(map: Map<number, number>, side: Side, price: number, qty: number): boolean {
    const old = map.get(price);
    if (qty === 0) return map.delete(price);
    if (old === qty) return false;
    if (old === undefined && map.size >= this.maxLevels) {
      let worst = NaN;
      for (const p of map.keys()) if (Number.isNaN(worst) || better(side, worst, p)) worst = p;
      if (!better(side, price, worst)) return false;
      map.delete(worst);
    }
    map.set(price, qty);
    return true;
  }

  private recomputeTop(venue: number, side: Side): void {
    let price = 0;
    let qty = 0;
    for (const [p, q] of this.books[venue]![side]!) {
      if (price === 0 || better(side, p, price)) {
        price = p;
        qty = q;
      }
    }
    this.tops[venue]![side] = { price, qty };
  }

  private afterChange(venue: number, ts: number, changed: boolean): void {
    if (changed) this.version++;
    this.recomputeTop(venue, B);
    this.recomputeTop(venue, A);
    const next = this.computeNbbo();
    const c = this.current;
    if (
      next.bid_1e9 !== c.bid_1e9 ||
      next.ask_1e9 !== c.ask_1e9 ||
      next.bid_qty_1e8 !== c.bid_qty_1e8 ||
      next.ask_qty_1e8 !== c.ask_qty_1e8 ||
      next.bid_venue !== c.bid_venue ||
      next.ask_venue !== c.ask_venue ||
      next.crossed !== c.crossed
    ) {
      this.current = { ...next, updated_ns: ts };
      this.nbboVersion++;
    }
  }

  applyLevel(venue: number, side: Side, price: number, qty: number, ts: number): void {
    this.ts[venue] = ts;
    this.afterChange(venue, ts, this.set(this.books[venue]![side]!, side, price, qty));
  }

  applySnapshot(venue: number, bids: Level[], asks: Level[], ts: number): void {
    this.ts[venue] = ts;
    const before = this.dump(venue);
    for (const [side, levels] of [
      [B, bids],
      [A, asks],
    ] as const) {
      const map = this.books[venue]![side]!;
      map.clear();
      for (const l of levels) this.set(map, side, l.price_1e9, l.qty_1e8);
    }
    this.afterChange(venue, ts, this.dump(venue) !== before);
  }

  clearVenue(venue: number, ts: number): void {
    const changed = this.books[venue]![B]!.size + this.books[venue]![A]!.size > 0;
    this.books[venue]![B]!.clear();
    this.books[venue]![A]!.clear();
    this.afterChange(venue, ts, changed);
  }

  private dump(venue: number): string {
    return JSON.stringify(this.books[venue]!.map((m) => [...m].sort((x, y) => x[0] - y[0])));
  }

  private computeNbbo(): Nbbo {
    const best = (side: Side) => {
      let price = 0;
      let qty = 0;
      let venue = -1;
      for (let v = 0; v < this.venues; v++) {
        const top = this.tops[v]![side]!;
        if (top.price === 0) continue;
        if (venue < 0 || better(side, top.price, price)) {
          price = top.price;
          qty = top.qty;
          venue = v;
        } else if (top.price === price) qty += top.qty;
      }
      return { price, qty, venue };
    };
    const bid = best(B);
    const ask = best(A);
    return {
      bid_1e9: bid.price,
      ask_1e9: ask.price,
      bid_qty_1e8: bid.qty,
      ask_qty_1e8: ask.qty,
      bid_venue: bid.venue,
      ask_venue: ask.venue,
      crossed: bid.venue >= 0 && ask.venue >= 0 && bid.price > ask.price,
      updated_ns: 0,
    };
  }

  nbbo(): Nbbo {
    return this.current;
  }

  venueTop(venue: number): VenueTop {
    const [bid, ask] = this.tops[venue]!;
    return { bid_1e9: bid!.price, ask_1e9: ask!.price, bid_qty_1e8: bid!.qty, ask_qty_1e8: ask!.qty, updated_ns: this.ts[venue]! };
  }

  merged(side: Side, depth: number): Level[] {
    const all = new Map<number, number>();
    for (const sides of this.books) for (const [p, q] of sides[side]!) all.set(p, (all.get(p) ?? 0) + q);
    return [...all]
      .sort((x, y) => (side === B ? y[0] - x[0] : x[0] - y[0]))
      .slice(0, depth)
      .map(([price_1e9, qty_1e8]) => ({ price_1e9, qty_1e8 }));
  }
}

interface Stream {
  ops: number;
  venues: number;
  maxLevels: number;
  /** Price levels per side around each venue's mid. */
  width: number;
}

/**
 * Drives both books with the same seeded operations: 10 venues with their own drifting mids (so
 * venues cross each other and tie at equal prices), deltas biased to the top, 30 % removals,
 * sizes from a small set (so repeats happen), occasional snapshots (some unsorted) and clears.
 */
function differential(seed: number, s: Stream): { crossedSeen: number; tiesSeen: number; checks: number } {
  const rand = mulberry32(seed);
  const names = Array.from({ length: s.venues }, (_, i) => `v${i}`);
  const fast = new ConsolidatedBook(names, s.maxLevels);
  const ref = new ReferenceBook(s.venues, s.maxLevels);
  let mid = 100_000; // in ticks
  const offsets = new Array<number>(s.venues).fill(0);
  const depths = [1, 5, 20, s.maxLevels * s.venues];
  let crossedSeen = 0;
  let tiesSeen = 0;
  let checks = 0;
  let ts = 1_700_000_000_000_000_000;
  const level = (side: Side, venue: number): number => {
    // Distance from the venue's touch: mostly 0..3, sometimes anywhere in the width.
    const d = rand() < 0.7 ? Math.floor(rand() * 4) : Math.floor(rand() * s.width);
    const center = mid + offsets[venue]!;
    return (side === B ? center - 1 - d : center + 1 + d) * TICK;
  };
  const qty = () => (1 + Math.floor(rand() * 5)) * 1_000_000;

  for (let i = 0; i < s.ops; i++) {
    ts += 1 + Math.floor(rand() * 1000);
    if (rand() < 0.01) mid += rand() < 0.5 ? -1 : 1;
    if (rand() < 0.005) {
      const v = Math.floor(rand() * s.venues);
      offsets[v] = Math.max(-3, Math.min(3, offsets[v]! + (rand() < 0.5 ? -1 : 1)));
    }
    const venue = Math.floor(rand() * s.venues);
    const r = rand();
    if (r < 0.003) {
      const make = (side: Side) => {
        const n = Math.floor(rand() * 30);
        const levels: Level[] = [];
        for (let k = 0; k < n; k++) levels.push({ price_1e9: level(side, venue), qty_1e8: rand() < 0.05 ? 0 : qty() });
        // Mostly a proper best-first snapshot, sometimes raw (unsorted, duplicates, zeros).
        if (rand() < 0.8) {
          const byPrice = new Map(levels.filter((l) => l.qty_1e8 > 0).map((l) => [l.price_1e9, l]));
          return [...byPrice.values()].sort((x, y) => (side === B ? y.price_1e9 - x.price_1e9 : x.price_1e9 - y.price_1e9));
        }
        return levels;
      };
      const bids = make(B);
      const asks = make(A);
      fast.applySnapshot(venue, bids, asks, ts);
      ref.applySnapshot(venue, bids, asks, ts);
    } else if (r < 0.005) {
      fast.clearVenue(venue, ts);
      ref.clearVenue(venue, ts);
    } else {
      const side: Side = rand() < 0.5 ? B : A;
      const price = level(side, venue);
      const q = rand() < 0.3 ? 0 : qty();
      fast.applyLevel(venue, side, price, q, ts);
      ref.applyLevel(venue, side, price, q, ts);
    }

    const got = fast.nbbo();
    assert.deepEqual(got, ref.nbbo(), `seed ${seed} op ${i}: nbbo`);
    assert.equal(fast.version, ref.version, `seed ${seed} op ${i}: version`);
    assert.equal(fast.nbboVersion, ref.nbboVersion, `seed ${seed} op ${i}: nbboVersion`);
    if (got.crossed) crossedSeen++;
    if (got.bid_venue >= 0 && got.bid_qty_1e8 !== fast.venueTop(got.bid_venue).bid_qty_1e8) tiesSeen++;

    if (i % 97 === 0 || i === s.ops - 1) {
      checks++;
      for (let v = 0; v < s.venues; v++) assert.deepEqual(fast.venueTop(v), ref.venueTop(v), `seed ${seed} op ${i}: venueTop(${v})`);
      for (const side of [B, A] as const) {
        for (const depth of depths) assert.deepEqual(fast.merged(side, depth), ref.merged(side, depth), `seed ${seed} op ${i}: merged(${side}, ${depth})`);
      }
    }
  }
  return { crossedSeen, tiesSeen, checks };
}

describe('consolidated book: differential against a naive reference', () => {
  for (const seed of [1, 2, 3, 20240601]) {
    it(`seed ${seed}: 120,000 operations over 10 venues, maxLevels 1000, 150 prices per side`, () => {
      const r = differential(seed, { ops: 120_000, venues: 10, maxLevels: 1000, width: 150 });
      // The stream must exercise what it claims to: crossed NBBOs and sizes summed over venues.
      assert.ok(r.crossedSeen > 1000, `crossed NBBO seen ${r.crossedSeen} times`);
      assert.ok(r.tiesSeen > 1000, `best price shared by venues ${r.tiesSeen} times`);
      assert.ok(r.checks > 1000);
    });
  }
  for (const seed of [7, 8]) {
    it(`seed ${seed}: 60,000 operations with maxLevels 8 (eviction of the worst level)`, () => {
      differential(seed, { ops: 60_000, venues: 10, maxLevels: 8, width: 40 });
    });
  }
  it('seed 9: 16 venues, 30,000 operations', () => {
    differential(9, { ops: 30_000, venues: 16, maxLevels: 1000, width: 100 });
  });
});
