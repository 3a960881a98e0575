/**
 * Consolidated L2 book of ONE symbol and ONE instrument type across up to 16 venues: per-venue
 * books, NBBO maintained incrementally, the merged book to a depth. Pure: no I/O, no clock, no
 * timers; every timestamp comes in with the delta that carries it.
 *
 * Layout, per venue and side ("book" = venue * 2 + side), two parallel typed arrays sorted
 * ascending by key, so the BEST level is at the END:
 *
 *     key = price_1e9 for bids, -price_1e9 for asks   (one comparison rule for both sides)
 *
 *     index    0        1       ...      n-2       n-1
 *     keys   [worst] [ ...... ascending ......] [best]   <- top of book, O(1) to read or change
 *     qtys   [  q0 ] [ .......................] [qtop]
 *
 * A delta at the top (the common case: feeds mostly move the touch) is O(1); a deeper level is a
 * binary search and a shift of only the levels BETTER than it (the short tail), never the deep
 * end. Capacity starts at 64 levels and doubles up to `maxLevels`; at `maxLevels` a new level
 * worse than every kept one is dropped and a better one evicts the worst kept one (a new BEST
 * level then costs O(maxLevels): the price of a venue publishing more depth than we keep).
 *
 * NBBO: recomputed only when a delta changes the touched venue's top (price or size), by one
 * O(venues) scan of the side it touched. Prices and sizes are exact integers in doubles
 * (< 2^53), so keys compare exactly.
 */
import { Side, type Level } from '../../domain/market.ts';

export const MAX_VENUES = 16;
const INITIAL_CAPACITY = 64;

/** National best bid and offer across the venues. See README.md for the rules. */
export interface Nbbo {
  /** Best bid across venues, 0 when no venue has a bid. */
  bid_1e9: number;
  /** Best ask across venues, 0 when no venue has an ask. */
  ask_1e9: number;
  /** Sum of the sizes of every venue whose top bid is at `bid_1e9`. */
  bid_qty_1e8: number;
  ask_qty_1e8: number;
  /** Lowest venue index quoting the best bid, -1 when the side is empty. */
  bid_venue: number;
  ask_venue: number;
  /** Best bid strictly above best ask (both sides present). Equal prices (locked) are not crossed. */
  crossed: boolean;
  /** ts_ns of the last delta, snapshot or clear that changed any other field. 0 before the first. */
  updated_ns: number;
}

/** One venue's top of book; 0 for an empty side. */
export interface VenueTop {
  bid_1e9: number;
  ask_1e9: number;
  bid_qty_1e8: number;
  ask_qty_1e8: number;
  /** ts_ns of the last delta or snapshot from this venue (for `age_ms`), 0 before the first. */
  updated_ns: number;
}

/** What `set` changed: nothing, a level below the top, or the top (price or size). */
const UNCHANGED = 0;
const CHANGED_DEEP = 1;
const CHANGED_TOP = 2;
type SetResult = typeof UNCHANGED | typeof CHANGED_DEEP | typeof CHANGED_TOP;

export class ConsolidatedBook {
  readonly venues: readonly string[];
  readonly maxLevels: number;
  /** Increments on every change of any level of any venue (content, not timestamps). */
  version = 0;
  /** Increments on every change of the NBBO (price, size, venue or crossed). */
  nbboVersion = 0;

  private readonly venueCount: number;
  /** Per book (venue * 2 + side): sorted keys and sizes, best at index count - 1. */
  private readonly keys: Float64Array[] = [];
  private readonly qtys: Float64Array[] = [];
  private readonly counts: Int32Array;
  private readonly venueTs: Float64Array;
  /** Newest ts_ns seen on any input: the default time of a `clearVenue`. */
  private latestTs = 0;
  /** Merge cursors, one per venue, reused by every `merged` call. */
  private readonly cursors: Int32Array;
  /** Key at each merge cursor, -Infinity when that venue is exhausted. */
  private readonly heads: Float64Array;
  /** Scratch for `merged`, grown to the largest depth asked for. */
  private scratchPrices = new Float64Array(0);
  private scratchQtys = new Float64Array(0);

  // NBBO, kept as fields so an update allocates nothing.
  private bidKey = -Infinity;
  private bidQty = 0;
  private bidVenue = -1;
  private askKey = -Infinity;
  private askQty = 0;
  private askVenue = -1;
  private isCrossed = false;
  private nbboTs = 0;

  constructor(venues: readonly string[], maxLevels = 1000) {
    if (venues.length < 1 || venues.length > MAX_VENUES) throw new RangeError(`1 to ${MAX_VENUES} venues, got ${venues.length}`);
    if (!Number.isInteger(maxLevels) || maxLevels < 1) throw new RangeError(`maxLevels must be a positive integer, got ${maxLevels}`);
    this.venues = [...venues];
    this.venueCount = venues.length;
    this.maxLevels = maxLevels;
    const capacity = Math.min(INITIAL_CAPACITY, maxLevels);
    for (let b = 0; b < venues.length * 2; b++) {
      this.keys.push(new Float64Array(capacity));
      this.qtys.push(new Float64Array(capacity));
    }
    this.counts = new Int32Array(venues.length * 2);
    this.venueTs = new Float64Array(venues.length);
    this.cursors = new Int32Array(venues.length);
    this.heads = new Float64Array(venues.length);
  }

  /**
   * L2 set semantics: the venue's level at `price_1e9` becomes `qty_1e8`; 0 removes it. A removal
   * of an absent level or a repeat of the same size changes nothing (no version bump) but still
   * counts as a tick from the venue for `venueTop().updated_ns`.
   */
  applyLevel(venue: number, side: Side, price_1e9: number, qty_1e8: number, ts_ns: number): void {
    if (!(venue >= 0 && venue < this.venueCount)) throw new RangeError(`venue index ${venue} outside 0..${this.venueCount - 1}`);
    if (!(price_1e9 > 0) || !(qty_1e8 >= 0)) throw new RangeError(`bad level ${price_1e9} x ${qty_1e8}`);
    this.venueTs[venue] = ts_ns;
    if (ts_ns > this.latestTs) this.latestTs = ts_ns;
    const changed = this.set(venue * 2 + side, side === Side.BID ? price_1e9 : -price_1e9, qty_1e8);
    if (changed === UNCHANGED) return;
    this.version++;
    if (changed === CHANGED_TOP && this.refreshSide(side)) this.stampNbbo(ts_ns);
  }

  /**
   * Replaces the venue's book. Levels best first; beyond `maxLevels` only the best are kept.
   * Sorted input (strictly worsening prices, sizes > 0) takes the fast path; anything else
   * (unsorted, duplicates, zero sizes) is applied as a sequence of sets on an empty side, so the
   * last size given for a price wins and a 0 removes it. Bad levels throw before anything changes.
   */
  applySnapshot(venue: number, bids: readonly Level[], asks: readonly Level[], ts_ns: number): void {
    if (!(venue >= 0 && venue < this.venueCount)) throw new RangeError(`venue index ${venue} outside 0..${this.venueCount - 1}`);
    const bidsSorted = checkSnapshotSide(bids, 1);
    const asksSorted = checkSnapshotSide(asks, -1);
    this.venueTs[venue] = ts_ns;
    if (ts_ns > this.latestTs) this.latestTs = ts_ns;
    const bidChanged = this.replaceSide(venue * 2 + Side.BID, bids, 1, bidsSorted);
    const askChanged = this.replaceSide(venue * 2 + Side.ASK, asks, -1, asksSorted);
    if (!bidChanged && !askChanged) return;
    this.version++;
    // Both sides first, then one stamp: one operation is at most one NBBO change.
    const bidMoved = bidChanged && this.refreshSide(Side.BID);
    const askMoved = askChanged && this.refreshSide(Side.ASK);
    if (bidMoved || askMoved) this.stampNbbo(ts_ns);
  }

  /**
   * The venue's feed dropped: its levels stop counting. `ts_ns` is the time of the drop, stamped
   * on the NBBO if this changes it; by default the newest timestamp this book has seen (the pure
   * core has no clock). The venue's own `updated_ns` keeps its last tick.
   */
  clearVenue(venue: number, ts_ns: number = this.latestTs): void {
    if (!(venue >= 0 && venue < this.venueCount)) throw new RangeError(`venue index ${venue} outside 0..${this.venueCount - 1}`);
    if (ts_ns > this.latestTs) this.latestTs = ts_ns;
    const bid = venue * 2 + Side.BID;
    const ask = venue * 2 + Side.ASK;
    const hadBids = this.counts[bid]! > 0;
    const hadAsks = this.counts[ask]! > 0;
    this.counts[bid] = 0;
    this.counts[ask] = 0;
    if (!hadBids && !hadAsks) return;
    this.version++;
    const bidMoved = hadBids && this.refreshSide(Side.BID);
    const askMoved = hadAsks && this.refreshSide(Side.ASK);
    if (bidMoved || askMoved) this.stampNbbo(ts_ns);
  }

  /** The NBBO, written into `out` when given (no allocation), else into a new object. */
  nbbo(out?: Nbbo): Nbbo {
    const o = out ?? ({} as Nbbo);
    const hasBid = this.bidVenue >= 0;
    const hasAsk = this.askVenue >= 0;
    o.bid_1e9 = hasBid ? this.bidKey : 0;
    o.ask_1e9 = hasAsk ? -this.askKey : 0;
    o.bid_qty_1e8 = this.bidQty;
    o.ask_qty_1e8 = this.askQty;
    o.bid_venue = this.bidVenue;
    o.ask_venue = this.askVenue;
    o.crossed = this.isCrossed;
    o.updated_ns = this.nbboTs;
    return o;
  }

  /** One venue's top of book, written into `out` when given. */
  venueTop(venue: number, out?: VenueTop): VenueTop {
    if (!(venue >= 0 && venue < this.venueCount)) throw new RangeError(`venue index ${venue} outside 0..${this.venueCount - 1}`);
    const o = out ?? ({} as VenueTop);
    const bid = venue * 2 + Side.BID;
    const ask = venue * 2 + Side.ASK;
    const nb = this.counts[bid]!;
    const na = this.counts[ask]!;
    o.bid_1e9 = nb > 0 ? this.keys[bid]![nb - 1]! : 0;
    o.bid_qty_1e8 = nb > 0 ? this.qtys[bid]![nb - 1]! : 0;
    o.ask_1e9 = na > 0 ? -this.keys[ask]![na - 1]! : 0;
    o.ask_qty_1e8 = na > 0 ? this.qtys[ask]![na - 1]! : 0;
    o.updated_ns = this.venueTs[venue]!;
    return o;
  }

  /** Number of levels the venue holds on a side. */
  levelCount(venue: number, side: Side): number {
    return this.counts[venue * 2 + side] ?? 0;
  }

  /**
   * Consolidated levels of a side, aggregated across venues by price, best first, at most `depth`,
   * written into `prices`/`qtys` (typed arrays or plain arrays, at least `depth` long); returns
   * how many were written. A k-way merge from the top of each venue's sorted book: each output
   * level costs two O(venues) passes, and the merge stops at `depth`, never touching the deep
   * book. With at most 16 venues a linear scan beats a heap.
   */
  mergedInto(side: Side, depth: number, prices: { [i: number]: number }, qtys: { [i: number]: number }): number {
    const venues = this.venueCount;
    const cursors = this.cursors;
    const heads = this.heads;
    const keys = this.keys;
    const sizes = this.qtys;
    for (let v = 0; v < venues; v++) {
      const at = this.counts[v * 2 + side]! - 1;
      cursors[v] = at;
      heads[v] = at >= 0 ? keys[v * 2 + side]![at]! : -Infinity;
    }
    const sign = side === Side.BID ? 1 : -1;
    let written = 0;
    while (written < depth) {
      // Pass 1 reads only the contiguous heads; pass 2 touches the venues at the best price.
      let best = -Infinity;
      for (let v = 0; v < venues; v++) if (heads[v]! > best) best = heads[v]!;
      if (best === -Infinity) break;
      let qty = 0;
      for (let v = 0; v < venues; v++) {
        if (heads[v] !== best) continue;
        const book = v * 2 + side;
        const at = cursors[v]!;
        qty += sizes[book]![at]!;
        cursors[v] = at - 1;
        heads[v] = at > 0 ? keys[book]![at - 1]! : -Infinity;
      }
      prices[written] = sign * best;
      qtys[written] = qty;
      written++;
    }
    return written;
  }

  /**
   * `mergedInto` as `Level` objects. With `out`, its objects are reused and it is truncated to
   * the levels written, so a caller that keeps one array per book allocates only when the book
   * gets deeper than ever before.
   */
  merged(side: Side, depth: number, out: Level[] = []): Level[] {
    // The merged book never has more levels than all venues' books together.
    const capacity = Math.min(Math.max(0, Math.floor(depth)), this.venueCount * this.maxLevels);
    if (this.scratchPrices.length < capacity) {
      this.scratchPrices = new Float64Array(capacity);
      this.scratchQtys = new Float64Array(capacity);
    }
    const written = this.mergedInto(side, capacity, this.scratchPrices, this.scratchQtys);
    for (let i = 0; i < written; i++) {
      const level = out[i];
      if (level === undefined) out.push({ price_1e9: this.scratchPrices[i]!, qty_1e8: this.scratchQtys[i]! });
      else {
        level.price_1e9 = this.scratchPrices[i]!;
        level.qty_1e8 = this.scratchQtys[i]!;
      }
    }
    out.length = written;
    return out;
  }

  /** Sets one level of one book by key; reports what changed. Nothing else is touched. */
  private set(book: number, key: number, qty: number): SetResult {
    let keys = this.keys[book]!;
    let qtys = this.qtys[book]!;
    const n = this.counts[book]!;
    const top = n - 1;

    // The top itself: size change or removal, O(1).
    if (n > 0 && key === keys[top]) {
      if (qty === 0) this.counts[book] = top;
      else if (qtys[top] === qty) return UNCHANGED;
      else qtys[top] = qty;
      return CHANGED_TOP;
    }

    // A new best: append, O(1) (or evict the worst when full).
    if (n === 0 || key > keys[top]!) {
      if (qty === 0) return UNCHANGED;
      if (n === keys.length) {
        if (n < this.maxLevels) [keys, qtys] = this.grow(book);
        else {
          shiftDown(keys, qtys, 0, n);
          keys[top] = key;
          qtys[top] = qty;
          return CHANGED_TOP;
        }
      }
      keys[n] = key;
      qtys[n] = qty;
      this.counts[book] = n + 1;
      return CHANGED_TOP;
    }

    // Below the top: binary search for the first index whose key >= key, in [0, top).
    let lo = 0;
    let hi = top;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    if (keys[lo] === key) {
      if (qty === 0) {
        shiftDown(keys, qtys, lo, n);
        this.counts[book] = top;
      } else if (qtys[lo] === qty) return UNCHANGED;
      else qtys[lo] = qty;
      return CHANGED_DEEP;
    }
    if (qty === 0) return UNCHANGED;
    if (n === keys.length) {
      if (n < this.maxLevels) [keys, qtys] = this.grow(book);
      else {
        // Full: the worst kept level (index 0) makes room, unless the new one is worse still.
        if (lo === 0) return UNCHANGED;
        shiftDown(keys, qtys, 0, lo);
        keys[lo - 1] = key;
        qtys[lo - 1] = qty;
        return CHANGED_DEEP;
      }
    }
    // Shift the better levels (the short tail above `lo`) up by one.
    for (let i = n; i > lo; i--) {
      keys[i] = keys[i - 1]!;
      qtys[i] = qtys[i - 1]!;
    }
    keys[lo] = key;
    qtys[lo] = qty;
    this.counts[book] = n + 1;
    return CHANGED_DEEP;
  }

  /** Doubles a book's capacity, up to maxLevels. */
  private grow(book: number): [Float64Array, Float64Array] {
    const old = this.keys[book]!;
    const capacity = Math.min(this.maxLevels, old.length * 2);
    const keys = new Float64Array(capacity);
    const qtys = new Float64Array(capacity);
    keys.set(old);
    qtys.set(this.qtys[book]!);
    this.keys[book] = keys;
    this.qtys[book] = qtys;
    return [keys, qtys];
  }

  /** Snapshot of one (checked) side; `sign` maps price to key. Returns whether its content changed. */
  private replaceSide(book: number, levels: readonly Level[], sign: 1 | -1, sorted: boolean): boolean {
    if (!sorted) {
      // Generic path (rare: a raw venue snapshot): an empty side, then set semantics in input
      // order; a copy of the old side tells whether anything changed.
      const n = this.counts[book]!;
      const oldKeys = this.keys[book]!.slice(0, n);
      const oldQtys = this.qtys[book]!.slice(0, n);
      this.counts[book] = 0;
      for (const l of levels) this.set(book, sign * l.price_1e9, l.qty_1e8);
      if (this.counts[book] !== n) return true;
      const keys = this.keys[book]!;
      const qtys = this.qtys[book]!;
      for (let i = 0; i < n; i++) if (keys[i] !== oldKeys[i] || qtys[i] !== oldQtys[i]) return true;
      return false;
    }
    const m = Math.min(levels.length, this.maxLevels);
    while (this.keys[book]!.length < m) this.grow(book);
    const keys = this.keys[book]!;
    const qtys = this.qtys[book]!;
    let changed = this.counts[book] !== m;
    for (let i = 0; i < m; i++) {
      const l = levels[i]!;
      const at = m - 1 - i;
      const key = sign * l.price_1e9;
      if (!changed && (keys[at] !== key || qtys[at] !== l.qty_1e8)) changed = true;
      keys[at] = key;
      qtys[at] = l.qty_1e8;
    }
    this.counts[book] = m;
    return changed;
  }

  /** O(venues) scan of one side's tops into the NBBO fields; returns whether any of them moved. */
  private refreshSide(side: Side): boolean {
    let best = -Infinity;
    let qty = 0;
    let venue = -1;
    const counts = this.counts;
    for (let v = 0; v < this.venueCount; v++) {
      const book = v * 2 + side;
      const n = counts[book]!;
      if (n === 0) continue;
      const k = this.keys[book]![n - 1]!;
      if (k > best) {
        best = k;
        qty = this.qtys[book]![n - 1]!;
        venue = v;
      } else if (k === best) qty += this.qtys[book]![n - 1]!;
    }
    if (side === Side.BID) {
      if (best === this.bidKey && qty === this.bidQty && venue === this.bidVenue) return false;
      this.bidKey = best;
      this.bidQty = qty;
      this.bidVenue = venue;
    } else {
      if (best === this.askKey && qty === this.askQty && venue === this.askVenue) return false;
      this.askKey = best;
      this.askQty = qty;
      this.askVenue = venue;
    }
    return true;
  }

  /** After a side moved: crossed flag, timestamp, version. */
  private stampNbbo(ts_ns: number): void {
    // Crossed: best bid > best ask, i.e. bidKey > -askKey, i.e. bidKey + askKey > 0 (exact: both
    // are integers below 2^53 in magnitude, so the sum is exact).
    this.isCrossed = this.bidVenue >= 0 && this.askVenue >= 0 && this.bidKey + this.askKey > 0;
    this.nbboTs = ts_ns;
    this.nbboVersion++;
  }
}

/** Throws on a bad level; returns whether the side is strictly best-first with sizes > 0. */
function checkSnapshotSide(levels: readonly Level[], sign: 1 | -1): boolean {
  let sorted = true;
  let prev = Infinity;
  for (const l of levels) {
    if (!(l.price_1e9 > 0) || !(l.qty_1e8 >= 0)) throw new RangeError(`bad level ${l.price_1e9} x ${l.qty_1e8}`);
    const key = sign * l.price_1e9;
    if (l.qty_1e8 === 0 || !(key < prev)) sorted = false;
    prev = key;
  }
  return sorted;
}

/**
 * Removes index `at` of [0, n) by moving [at + 1, n) down by one: the cost is the number of
 * levels BETTER than the removed one, small near the top. (`at` = 0 evicts the worst level.)
 */
function shiftDown(keys: Float64Array, qtys: Float64Array, at: number, n: number): void {
  for (let i = at; i < n - 1; i++) {
    keys[i] = keys[i + 1]!;
    qtys[i] = qtys[i + 1]!;
  }
}
