/**
 * Consolidation: L2 deltas of 10 venues into one ConsolidatedBook (actors/book), NBBO kept
 * current, on one thread; against a naive Map book in the same run.
 *
 *   seeded delta stream, pre-generated into typed arrays (no allocation while timed)
 *   venue u8 | side u8 | price_1e9 f64 | qty_1e8 f64 | ts_ns f64
 *        |
 *        v
 *   book.applyLevel(venue, side, price, qty, ts)      sorted Float64Arrays per venue/side, best at
 *        |                                            the end: top O(1), deeper = binary search
 *        |-- venue top changed? --> O(venues) scan of that side -> NBBO fields, nbboVersion++
 *        v
 *   nbboVersion moved? --> book.nbbo(out)             what the book actor does before publishing
 *
 *   (a) updates/s over the whole stream, fresh book per round, median of ROUNDS rounds
 *   (b) same window of the same stream (after an untimed preload), fast book vs the baseline:
 *       Map<price, qty> per venue/side; per delta: set/delete, full sort of the touched venue's
 *       prices to find its top, scan of the venues' tops (the "Map + full sort per NBBO" book)
 *   (c) merged(50) on the final book: mergedInto(side, 50, Float64Array, Float64Array) (k-way
 *       merge from each venue's top) and merged(side, 50, reused Level[]), vs aggregating every
 *       level of every venue into a Map and sorting
 *
 * The stream: one mid on a 0.01 tick grid doing a random walk (one tick every ~50 deltas), each
 * venue with its own spread, offset (now and then 1-2 ticks off, so venues sometimes cross each other) and share of
 * the traffic; 55 % of deltas at the venue's touch (0-2 ticks), 20 % at 3-49 ticks, 5 % at 50-200,
 * 20 % removals of existing levels near the top, plus the removals a move of the mid forces
 * (levels it crossed). Target (issue 3): (a) >= 2,000,000 updates/s.
 */
import { ConsolidatedBook, type Nbbo } from '../actors/book/consolidated-book.ts';
import { Side, type Level } from '../domain/market.ts';
import { target, runIfMain, type BenchResult } from './lib/results.ts';
import { mulberry32 } from '../actors/edge/sim/rng.ts';

const VENUES = 10;
const EVENTS = 2_000_000;
const ROUNDS = 5;
const WINDOW_START = 1_000_000;
const WINDOW_FAST = 200_000;
const WINDOW_NAIVE = 40_000;
const MERGE_CALLS = 200_000;
const NAIVE_MERGE_CALLS = 200;
const SEED = 42;
const TICK = 10_000_000; // 0.01 in _1e9
const START_MID_TICKS = 6_000_000; // 60,000.00
const SPREAD_TICKS = [1, 1, 2, 2, 3, 1, 2, 4, 3, 2];
const TRAFFIC = [20, 15, 10, 12, 10, 6, 5, 12, 6, 4];

interface Stream {
  venue: Uint8Array;
  side: Uint8Array;
  price: Float64Array;
  qty: Float64Array;
  ts: Float64Array;
  length: number;
}


function generate(events: number, seed: number): Stream {
  const rand = mulberry32(seed);
  const capacity = events + events; // forced removals come on top of the drawn deltas
  const s: Stream = {
    venue: new Uint8Array(capacity),
    side: new Uint8Array(capacity),
    price: new Float64Array(capacity),
    qty: new Float64Array(capacity),
    ts: new Float64Array(capacity),
    length: 0,
  };
  // The generator's own view of which levels exist, so removals hit real levels (as feeds do).
  const live: Set<number>[][] = Array.from({ length: VENUES }, () => [new Set<number>(), new Set<number>()]);
  const offsets = new Array<number>(VENUES).fill(0);
  const cumulative: number[] = [];
  let total = 0;
  for (const t of TRAFFIC) cumulative.push((total += t));
  let mid = START_MID_TICKS;
  let ts = 1_700_000_000_000_000_000;

  const push = (venue: number, side: number, ticks: number, qty: number) => {
    const i = s.length++;
    s.venue[i] = venue;
    s.side[i] = side;
    s.price[i] = ticks * TICK;
    s.qty[i] = qty;
    s.ts[i] = ts;
    if (qty === 0) live[venue]![side]!.delete(ticks);
    else live[venue]![side]!.add(ticks);
  };
  const center = (v: number) => mid + offsets[v]!;
  const half = (v: number) => Math.ceil(SPREAD_TICKS[v]! / 2);
  const touch = (v: number, side: number) => (side === Side.BID ? center(v) - half(v) : center(v) + half(v));
  const away = (v: number, side: number, d: number) => (side === Side.BID ? touch(v, side) - d : touch(v, side) + d);
  /** After a venue's center moved from `was`: drop its levels the move put on the wrong side. */
  const uncross = (v: number, was: number) => {
    const c = center(v);
    for (let t = c; t < was; t++) if (live[v]![Side.BID]!.has(t)) push(v, Side.BID, t, 0);
    for (let t = was + 1; t <= c; t++) if (live[v]![Side.ASK]!.has(t)) push(v, Side.ASK, t, 0);
  };

  for (let drawn = 0; drawn < events; drawn++) {
    ts += 200 + Math.floor(rand() * 1_600);
    if (rand() < 0.02) {
      const step = rand() < 0.5 ? -1 : 1;
      mid += step;
      for (let v = 0; v < VENUES; v++) uncross(v, center(v) - step);
    }
    if (rand() < 0.002) {
      // A venue's own mid strays from the consensus for a while: mostly 0, sometimes 1 tick,
      // rarely 2 (two venues 2 ticks apart in opposite directions cross the consolidated book).
      const v = Math.floor(rand() * VENUES);
      const was = center(v);
      const r = rand();
      offsets[v] = r < 0.6 ? 0 : (rand() < 0.5 ? -1 : 1) * (r < 0.95 ? 1 : 2);
      uncross(v, was);
    }
    const pick = rand() * total;
    let venue = 0;
    while (cumulative[venue]! <= pick) venue++;
    const side = rand() < 0.5 ? Side.BID : Side.ASK;
    const qty = (1 + Math.floor(rand() * 100)) * 1_000_000;
    const r = rand();
    if (r < 0.55) push(venue, side, away(venue, side, Math.floor(rand() * 3)), qty);
    else if (r < 0.75) push(venue, side, away(venue, side, 3 + Math.floor(rand() * 47)), qty);
    else if (r < 0.8) push(venue, side, away(venue, side, 50 + Math.floor(rand() * 151)), qty);
    else {
      // Removal near the top: geometric distance from the touch, an existing level if any.
      let d = 0;
      while (rand() < 0.6 && d < 20) d++;
      const ticks = away(venue, side, d);
      push(venue, side, ticks, live[venue]![side]!.has(ticks) ? 0 : qty);
    }
  }
  return s;
}

/** The baseline: Maps, and a full sort of the touched venue's prices per delta. */
class NaiveBook {
  private readonly books: Map<number, number>[][];
  private readonly tops: number[][];
  private readonly topQtys: number[][];
  bid = 0;
  ask = 0;
  bidQty = 0;
  askQty = 0;
  bidVenue = -1;
  askVenue = -1;

  constructor(venues: number) {
    this.books = Array.from({ length: venues }, () => [new Map(), new Map()]);
    this.tops = Array.from({ length: venues }, () => [0, 0]);
    this.topQtys = Array.from({ length: venues }, () => [0, 0]);
  }

  /** Preload without maintaining the NBBO. */
  load(venue: number, side: number, price: number, qty: number): void {
    if (qty === 0) this.books[venue]![side]!.delete(price);
    else this.books[venue]![side]!.set(price, qty);
  }

  apply(venue: number, side: number, price: number, qty: number): void {
    this.load(venue, side, price, qty);
    this.refresh(venue, side);
  }

  refreshAll(): void {
    for (let v = 0; v < this.books.length; v++) {
      this.refresh(v, Side.BID);
      this.refresh(v, Side.ASK);
    }
  }

  private refresh(venue: number, side: number): void {
    const map = this.books[venue]![side]!;
    const prices = [...map.keys()].sort((a, b) => (side === Side.BID ? b - a : a - b));
    this.tops[venue]![side] = prices.length > 0 ? prices[0]! : 0;
    this.topQtys[venue]![side] = prices.length > 0 ? map.get(prices[0]!)! : 0;
    let best = 0;
    let qty = 0;
    let at = -1;
    for (let v = 0; v < this.books.length; v++) {
      const p = this.tops[v]![side]!;
      if (p === 0) continue;
      if (at < 0 || (side === Side.BID ? p > best : p < best)) {
        best = p;
        qty = this.topQtys[v]![side]!;
        at = v;
      } else if (p === best) qty += this.topQtys[v]![side]!;
    }
    if (side === Side.BID) [this.bid, this.bidQty, this.bidVenue] = [best, qty, at];
    else [this.ask, this.askQty, this.askVenue] = [best, qty, at];
  }

  merged(side: number, depth: number): Level[] {
    const all = new Map<number, number>();
    for (const sides of this.books) for (const [p, q] of sides[side]!) all.set(p, (all.get(p) ?? 0) + q);
    return [...all]
      .sort((x, y) => (side === Side.BID ? y[0] - x[0] : x[0] - y[0]))
      .slice(0, depth)
      .map(([price_1e9, qty_1e8]) => ({ price_1e9, qty_1e8 }));
  }
}

const NAMES = Array.from({ length: VENUES }, (_, i) => `venue${i}`);

/** Applies [from, to) of the stream as the book actor would; returns the elapsed ms. */
function runFast(book: ConsolidatedBook, s: Stream, from: number, to: number, out: Nbbo): number {
  const { venue, side, price, qty, ts } = s;
  let seen = book.nbboVersion;
  const started = performance.now();
  for (let i = from; i < to; i++) {
    book.applyLevel(venue[i]!, side[i] as Side, price[i]!, qty[i]!, ts[i]!);
    if (book.nbboVersion !== seen) {
      seen = book.nbboVersion;
      book.nbbo(out);
    }
  }
  return performance.now() - started;
}

function preloaded(s: Stream, to: number): ConsolidatedBook {
  const book = new ConsolidatedBook(NAMES);
  for (let i = 0; i < to; i++) book.applyLevel(s.venue[i]!, s.side[i] as Side, s.price[i]!, s.qty[i]!, s.ts[i]!);
  return book;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export async function run(): Promise<BenchResult> {
  const stream = generate(EVENTS, SEED);
  const n = stream.length;
  const out = {} as Nbbo;

  // (a) the whole stream, fresh book per round (first round is warm-up).
  runFast(new ConsolidatedBook(NAMES), stream, 0, n, out);
  const rates: number[] = [];
  let book = new ConsolidatedBook(NAMES);
  let nbboChanges = 0;
  for (let round = 0; round < ROUNDS; round++) {
    book = new ConsolidatedBook(NAMES);
    const ms = runFast(book, stream, 0, n, out);
    rates.push(n / (ms / 1000));
    nbboChanges = book.nbboVersion;
  }
  const fullRate = median(rates);

  // Shape of the stream: how often a delta moves its venue's top, how often the NBBO is crossed.
  let crossed = 0;
  let touchedTop = 0;
  {
    const probe = new ConsolidatedBook(NAMES);
    const before = { bid_1e9: 0, ask_1e9: 0, bid_qty_1e8: 0, ask_qty_1e8: 0, updated_ns: 0 };
    const after = { ...before };
    for (let i = 0; i < n; i++) {
      const v = stream.venue[i]!;
      probe.venueTop(v, before);
      probe.applyLevel(v, stream.side[i] as Side, stream.price[i]!, stream.qty[i]!, stream.ts[i]!);
      probe.venueTop(v, after);
      if (stream.side[i] === Side.BID ? before.bid_1e9 !== after.bid_1e9 || before.bid_qty_1e8 !== after.bid_qty_1e8 : before.ask_1e9 !== after.ask_1e9 || before.ask_qty_1e8 !== after.ask_qty_1e8) touchedTop++;
      if (probe.nbbo(out).crossed) crossed++;
    }
  }
  let levels = 0;
  for (let v = 0; v < VENUES; v++) levels += book.levelCount(v, Side.BID) + book.levelCount(v, Side.ASK);

  // (b) same window, fast vs naive, alternating rounds.
  const fastWindow: number[] = [];
  const naiveWindow: number[] = [];
  let naive = new NaiveBook(VENUES);
  for (let round = 0; round < 3; round++) {
    const fast = preloaded(stream, WINDOW_START);
    fastWindow.push(WINDOW_FAST / (runFast(fast, stream, WINDOW_START, WINDOW_START + WINDOW_FAST, out) / 1000));

    naive = new NaiveBook(VENUES);
    for (let i = 0; i < WINDOW_START; i++) naive.load(stream.venue[i]!, stream.side[i]!, stream.price[i]!, stream.qty[i]!);
    naive.refreshAll();
    const started = performance.now();
    for (let i = WINDOW_START; i < WINDOW_START + WINDOW_NAIVE; i++) naive.apply(stream.venue[i]!, stream.side[i]!, stream.price[i]!, stream.qty[i]!);
    naiveWindow.push(WINDOW_NAIVE / ((performance.now() - started) / 1000));
  }
  // Both books must agree on the NBBO after the naive window, or the comparison means nothing.
  {
    const check = preloaded(stream, WINDOW_START + WINDOW_NAIVE).nbbo();
    const got = [check.bid_1e9, check.bid_qty_1e8, check.bid_venue, check.ask_1e9, check.ask_qty_1e8, check.ask_venue].join();
    const want = [naive.bid, naive.bidQty, naive.bidVenue, naive.ask, naive.askQty, naive.askVenue].join();
    if (got !== want) throw new Error(`fast and naive NBBO differ: ${got} vs ${want}`);
  }
  const fastWindowRate = median(fastWindow);
  const naiveWindowRate = median(naiveWindow);

  // (c) merged(50) on the final book of the whole stream.
  const prices = new Float64Array(50);
  const qtys = new Float64Array(50);
  const reused: Level[] = [];
  for (let i = 0; i < 20_000; i++) book.mergedInto((i & 1) as Side, 50, prices, qtys);
  let started = performance.now();
  for (let i = 0; i < MERGE_CALLS; i++) book.mergedInto((i & 1) as Side, 50, prices, qtys);
  const mergedIntoNs = ((performance.now() - started) * 1e6) / MERGE_CALLS;
  for (let i = 0; i < 20_000; i++) book.merged((i & 1) as Side, 50, reused);
  started = performance.now();
  for (let i = 0; i < MERGE_CALLS; i++) book.merged((i & 1) as Side, 50, reused);
  const mergedLevelsNs = ((performance.now() - started) * 1e6) / MERGE_CALLS;
  const naiveFinal = new NaiveBook(VENUES);
  for (let i = 0; i < n; i++) naiveFinal.load(stream.venue[i]!, stream.side[i]!, stream.price[i]!, stream.qty[i]!);
  const expected = naiveFinal.merged(Side.BID, 50);
  if (JSON.stringify(expected) !== JSON.stringify(book.merged(Side.BID, 50))) throw new Error('merged(50) differs from the naive merge');
  started = performance.now();
  for (let i = 0; i < NAIVE_MERGE_CALLS; i++) naiveFinal.merged(i & 1, 50);
  const naiveMergedNs = ((performance.now() - started) * 1e6) / NAIVE_MERGE_CALLS;

  const windowRatio = fastWindowRate / naiveWindowRate;
  return {
    name: 'consolidation',
    description:
      'ConsolidatedBook.applyLevel + NBBO (read on every NBBO change) over a seeded 10-venue L2 delta stream on one thread, median of ' +
      `${ROUNDS} rounds over ${n} deltas; same-run baseline on the same window of the stream: a Map book that sorts the touched ` +
      "venue's prices per delta to find its top and scans the venues' tops; merged(50) on the final book vs aggregate-Map-and-sort.",
    metrics: {
      venues: VENUES,
      deltas: n,
      updates_per_s: Math.round(fullRate),
      ns_per_update: round2(1e9 / fullRate),
      rounds_updates_per_s: rates.map(Math.round).join(', '),
      nbbo_changes_per_update: round2(nbboChanges / n),
      venue_top_touched_per_update: round2(touchedTop / n),
      crossed_nbbo_fraction: Math.round((crossed / n) * 10_000) / 10_000,
      final_levels_per_venue_side: round2(levels / (VENUES * 2)),
      window_deltas_fast: WINDOW_FAST,
      window_deltas_naive: WINDOW_NAIVE,
      window_start: WINDOW_START,
      window_fast_updates_per_s: Math.round(fastWindowRate),
      window_naive_updates_per_s: Math.round(naiveWindowRate),
      merged50_into_typed_arrays_ns: round2(mergedIntoNs),
      merged50_reused_levels_ns: round2(mergedLevelsNs),
      merged50_naive_map_sort_ns: Math.round(naiveMergedNs),
    },
    ratios: {
      window_fast_over_naive: round2(windowRatio),
      merged50_naive_over_fast: round2(naiveMergedNs / mergedIntoNs),
    },
    targets: {
      updates_per_s: target(Math.round(fullRate), 2_000_000, '>='),
    },
  };
}

await runIfMain(import.meta.url, run);
