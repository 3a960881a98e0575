/**
 * The simulated venues' matching engine: price-time priority over integer prices and quantities,
 * no I/O, no allocation on the hot path. One instance per (venue, symbol).
 *
 * Layout (every structure is a typed array that grows by doubling, so steady state allocates
 * nothing and the GC never scans the book):
 *
 *   ids: SlotMap  id -> order slot          (open addressing, [key, value] pairs in one array)
 *
 *   orders: one 32-byte record per slot in one ArrayBuffer, read through a Float64Array and an
 *   Int32Array view; free slots are chained through NEXT
 *
 *     byte 0        8         16      20      24       28
 *          +--------+---------+-------+-------+--------+-------+
 *          | id f64 | qty f64 | prev  | next  | level  | (pad) |
 *          +--------+---------+-------+-------+--------+-------+
 *
 *   levels: the same shape; free levels are chained through HEAD; FIFO: head -> next -> ... -> tail
 *
 *     byte 0           8              16      20      24       28
 *          +-----------+--------------+-------+-------+--------+-------+
 *          | price f64 | total qty f64| head  | tail  | side   | (pad) |
 *          +-----------+--------------+-------+-------+--------+-------+
 *
 *   per side, a Ladder:
 *     byPrice: SlotMap  price -> level      (O(1) add to an existing level)
 *     keys[0..count)  ascending, BEST LAST  (key = price for bids, -price for asks)
 *     levels[0..count) level ids, same order
 *
 * Why a sorted array with the best level last: matching consumes the best level (pop, O(1)), new
 * levels appear near the touch (a memmove of the few better levels), and a level emptied by a
 * cancel deep in the book moves only the levels better than it. The cost is bounded by the number
 * of levels between the price and the touch, which for a venue's book is small; a tree or heap
 * pays log n pointer chases on every best-price change instead. A bitmap over tick offsets would
 * make every step O(1) too, but needs a bounded tick range per engine (a BTC price on a 0.01 tick
 * is tick index ~1e7 and wanders without bound over a long simulation, times ~300 engines).
 * Cancel is O(1) plus that bounded move: the order's record links to its neighbours and its
 * level directly.
 *
 * Why records rather than one typed array per field: with 400,000 resting orders the book is far
 * larger than the cache, and a cancel touches the order and both neighbours. A 32-byte record
 * never straddles a cache line, so that is three line fetches instead of up to fifteen (one per
 * field array per order); on the deep bench mix this took ~1.5M to ~2.5M operations/s.
 *
 * Contract details beyond matcher.ts:
 * - The `SubmitResult` returned by `limit`/`market` is one object reused by every call: read it
 *   before the next call on this engine (copy it to keep it).
 * - The `FillEvent` handed to `onFill` is likewise reused: copy its fields to keep them.
 * - Events fire while the engine is consistent (the filled maker is already unlinked, the level
 *   total already updated), so a listener may read `bestBid()`, `levels()`, ...; it must not
 *   call `limit`/`market`/`cancel`/`reduce` from inside a callback.
 * - Per fill: `onFill`, then `onLevel` for the maker's level. Per rest/cancel/reduce: one `onLevel`.
 * - Validation order: tick, lot, min_qty, min_notional, duplicate_id, then (market) no_liquidity.
 *   A price that is not a positive safe integer is a `tick` rejection; a quantity <= 0 is
 *   `min_qty`. Market orders are not held to min_notional (no price before they trade).
 * - `reduce` takes 0 < new_qty < current, a lot multiple; anything else returns false (use
 *   `cancel` to remove an order).
 * - Order ids must be positive (the id table uses 0 as its empty marker): a non-positive id in
 *   `limit`/`market` is a caller bug and throws a RangeError; `cancel`/`reduce` answer false.
 */
import { Side } from '../../../domain/market.ts';
import { QTY_SCALE } from '../../../domain/units.ts';
import type { FillEvent, Matcher, MatchingRules, MatchListener, RejectReason, SubmitResult } from './matcher.ts';

const NIL = -1;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

export interface OrderBookOptions {
  /** Initial order-slot capacity (grows by doubling); size it to the expected resting count. */
  initialOrders?: number;
  /** Initial price-level capacity per engine (grows by doubling). */
  initialLevels?: number;
}

/**
 * Open-addressing hash map from a positive number (an order id or a price) to a non-negative
 * int32, linear probing with backward-shift deletion (no tombstones, so lookups never slow down
 * after churn). Keys and values share one Float64Array so a probe touches one cache line.
 */
class SlotMap {
  private table!: Float64Array;
  private mask = 0;
  private shift = 0;
  private size = 0;

  constructor(expected: number) {
    let bits = 4;
    while (1 << bits < expected * 2) bits++;
    this.alloc(bits);
  }

  private alloc(bits: number): void {
    this.table = new Float64Array(2 << bits);
    this.mask = (1 << bits) - 1;
    this.shift = 32 - bits;
  }

  /**
   * Fibonacci hashing of the low and high 32-bit halves: ids are often sequential and prices
   * are multiples of a tick (trailing zero bits), and both spread once multiplied and taken
   * from the top bits.
   */
  private home(key: number): number {
    return Math.imul((key >>> 0) ^ Math.imul((key / 4294967296) >>> 0, 0x85ebca6b), 0x9e3779b1) >>> this.shift;
  }

  /** The value for `key`, or NIL. */
  get(key: number): number {
    const t = this.table;
    const mask = this.mask;
    let i = this.home(key);
    for (;;) {
      const k = t[i << 1]!;
      // Empty is checked first so that key 0 (the empty marker) is never found.
      if (k === 0) return NIL;
      if (k === key) return t[(i << 1) + 1]!;
      i = (i + 1) & mask;
    }
  }

  /** Inserts a key known to be absent. */
  set(key: number, value: number): void {
    if (++this.size * 2 > this.mask + 1) this.grow();
    const t = this.table;
    const mask = this.mask;
    let i = this.home(key);
    while (t[i << 1] !== 0) i = (i + 1) & mask;
    t[i << 1] = key;
    t[(i << 1) + 1] = value;
  }

  /** Removes `key`; returns its value, or NIL when absent. */
  delete(key: number): number {
    const t = this.table;
    const mask = this.mask;
    let i = this.home(key);
    for (;;) {
      const k = t[i << 1]!;
      if (k === 0) return NIL;
      if (k === key) break;
      i = (i + 1) & mask;
    }
    const value = t[(i << 1) + 1]!;
    this.size--;
    // Backward shift: pull later entries of the probe run into the hole unless their home lies
    // cyclically after the hole (moving them would put them before their home).
    let j = i;
    for (;;) {
      j = (j + 1) & mask;
      const k = t[j << 1]!;
      if (k === 0) break;
      const h = this.home(k);
      if (((j - h) & mask) >= ((j - i) & mask)) {
        t[i << 1] = k;
        t[(i << 1) + 1] = t[(j << 1) + 1]!;
        i = j;
      }
    }
    t[i << 1] = 0;
    return value;
  }

  private grow(): void {
    const old = this.table;
    this.alloc(32 - this.shift + 1);
    const t = this.table;
    const mask = this.mask;
    for (let s = 0; s < old.length; s += 2) {
      const k = old[s]!;
      if (k === 0) continue;
      let i = this.home(k);
      while (t[i << 1] !== 0) i = (i + 1) & mask;
      t[i << 1] = k;
      t[(i << 1) + 1] = old[s + 1]!;
    }
  }
}

/** One side's price levels, sorted by key ascending with the best level last (see the header). */
class Ladder {
  keys: Float64Array;
  levels: Int32Array;
  count = 0;
  readonly byPrice: SlotMap;

  constructor(
    readonly side: Side,
    /** key = sign x price: +1 for bids (best = highest), -1 for asks (best = lowest). */
    readonly sign: 1 | -1,
    capacity: number,
  ) {
    this.keys = new Float64Array(capacity);
    this.levels = new Int32Array(capacity);
    this.byPrice = new SlotMap(capacity);
  }

  insert(key: number, level: number): void {
    const n = this.count;
    if (n === this.keys.length) this.grow();
    const keys = this.keys;
    const levels = this.levels;
    if (n === 0 || key > keys[n - 1]!) {
      keys[n] = key;
      levels[n] = level;
    } else {
      // First index whose key is greater; keys are unique, so this is the insertion point.
      let lo = 0;
      let hi = n - 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (keys[mid]! > key) hi = mid;
        else lo = mid + 1;
      }
      keys.copyWithin(lo + 1, lo, n);
      levels.copyWithin(lo + 1, lo, n);
      keys[lo] = key;
      levels[lo] = level;
    }
    this.count = n + 1;
  }

  remove(key: number): void {
    const n = this.count;
    const keys = this.keys;
    if (keys[n - 1] === key) {
      this.count = n - 1;
      return;
    }
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    keys.copyWithin(lo, lo + 1, n);
    this.levels.copyWithin(lo, lo + 1, n);
    this.count = n - 1;
  }

  private grow(): void {
    const keys = new Float64Array(this.keys.length * 2);
    keys.set(this.keys);
    this.keys = keys;
    const levels = new Int32Array(this.levels.length * 2);
    levels.set(this.levels);
    this.levels = levels;
  }
}

function checkRules(rules: MatchingRules): void {
  const positive = (v: number) => Number.isSafeInteger(v) && v > 0;
  const nonNegative = (v: number) => Number.isSafeInteger(v) && v >= 0;
  if (!positive(rules.tick_1e9) || !positive(rules.lot_1e8) || !nonNegative(rules.min_qty_1e8) || !nonNegative(rules.min_notional_1e9)) {
    throw new RangeError(`invalid matching rules ${JSON.stringify(rules)}: tick and lot must be positive integers, minimums non-negative integers`);
  }
}

/** Record layout shared by orders and levels: 32 bytes, 4 f64 words or 8 i32 words. */
const RECORD_BYTES = 32;
const F64_PER_RECORD = 4;
const I32_PER_RECORD = 8;
/** f64 word offsets */
const ORDER_ID = 0;
const ORDER_QTY = 1;
const LEVEL_PRICE = 0;
const LEVEL_QTY = 1;
/** i32 word offsets */
const ORDER_PREV = 4;
const ORDER_NEXT = 5;
const ORDER_LEVEL = 6;
const LEVEL_HEAD = 4;
const LEVEL_TAIL = 5;
const LEVEL_SIDE = 6;

export class OrderBook implements Matcher {
  readonly rules: MatchingRules;
  private readonly listener: MatchListener;
  private readonly tick: number;
  private readonly lot: number;
  private readonly minQty: number;
  private readonly minNotional: number;
  /** min_notional x QTY_SCALE: notional(p, q) = floor(p x q / QTY_SCALE) >= min  <=>  p x q >= this. */
  private readonly minNotionalScaled: number;
  private readonly minNotionalScaledBig: bigint;

  /** order records: f64 view (word = slot x 4 + ORDER_*) and i32 view (slot x 8 + ORDER_*) */
  private of: Float64Array;
  private oi: Int32Array;
  private orderCapacity: number;
  private oFree = NIL;
  private resting = 0;

  /** level records, same shape (LEVEL_*) */
  private lf: Float64Array;
  private li: Int32Array;
  private levelCapacity: number;
  private lFree = NIL;

  private readonly ids: SlotMap;
  private readonly bids: Ladder;
  private readonly asks: Ladder;

  private readonly result: SubmitResult = { ok: true, reason: undefined, filled_qty_1e8: 0, resting_qty_1e8: 0 };
  private readonly fill: FillEvent = { maker_id: 0, taker_id: 0, taker_side: Side.BID, price_1e9: 0, qty_1e8: 0 };

  constructor(rules: MatchingRules, listener: MatchListener, options: OrderBookOptions = {}) {
    checkRules(rules);
    this.rules = { ...rules };
    this.listener = listener;
    this.tick = rules.tick_1e9;
    this.lot = rules.lot_1e8;
    this.minQty = rules.min_qty_1e8;
    this.minNotional = rules.min_notional_1e9;
    this.minNotionalScaled = rules.min_notional_1e9 * QTY_SCALE;
    this.minNotionalScaledBig = BigInt(rules.min_notional_1e9) * BigInt(QTY_SCALE);

    this.orderCapacity = Math.max(16, options.initialOrders ?? 1024);
    const orders = new ArrayBuffer(this.orderCapacity * RECORD_BYTES);
    this.of = new Float64Array(orders);
    this.oi = new Int32Array(orders);
    this.chainFreeOrders(0, this.orderCapacity);
    this.ids = new SlotMap(this.orderCapacity);

    this.levelCapacity = Math.max(16, options.initialLevels ?? 256);
    const levels = new ArrayBuffer(this.levelCapacity * RECORD_BYTES);
    this.lf = new Float64Array(levels);
    this.li = new Int32Array(levels);
    this.chainFreeLevels(0, this.levelCapacity);
    this.bids = new Ladder(Side.BID, 1, 64);
    this.asks = new Ladder(Side.ASK, -1, 64);
  }

  limit(id: number, side: Side, price_1e9: number, qty_1e8: number): SubmitResult {
    if (!(id > 0)) throw new RangeError(`order id must be positive, got ${id}`);
    if (!(price_1e9 > 0 && price_1e9 <= MAX_SAFE) || price_1e9 % this.tick !== 0) return this.reject('tick');
    if (!(qty_1e8 <= MAX_SAFE) || qty_1e8 % this.lot !== 0) return this.reject('lot');
    if (!(qty_1e8 > 0) || qty_1e8 < this.minQty) return this.reject('min_qty');
    if (this.minNotional > 0 && !this.notionalAtLeastMin(price_1e9, qty_1e8)) return this.reject('min_notional');
    if (this.ids.get(id) !== NIL) return this.reject('duplicate_id');

    // A buy crosses asks priced <= limit, i.e. ask keys (-price) >= -limit; a sell crosses
    // bids priced >= limit, i.e. bid keys >= limit.
    const filled =
      side === Side.BID ? this.match(id, side, this.asks, -price_1e9, qty_1e8) : this.match(id, side, this.bids, price_1e9, qty_1e8);
    const rest = qty_1e8 - filled;
    if (rest > 0) this.rest(id, side, price_1e9, rest);
    const r = this.result;
    r.ok = true;
    r.reason = undefined;
    r.filled_qty_1e8 = filled;
    r.resting_qty_1e8 = rest;
    return r;
  }

  market(id: number, side: Side, qty_1e8: number): SubmitResult {
    if (!(id > 0)) throw new RangeError(`order id must be positive, got ${id}`);
    if (!(qty_1e8 <= MAX_SAFE) || qty_1e8 % this.lot !== 0) return this.reject('lot');
    if (!(qty_1e8 > 0) || qty_1e8 < this.minQty) return this.reject('min_qty');
    if (this.ids.get(id) !== NIL) return this.reject('duplicate_id');
    const opposite = side === Side.BID ? this.asks : this.bids;
    if (opposite.count === 0) return this.reject('no_liquidity');
    const filled = this.match(id, side, opposite, -Infinity, qty_1e8);
    const r = this.result;
    r.ok = true;
    r.reason = undefined;
    r.filled_qty_1e8 = filled;
    r.resting_qty_1e8 = 0;
    return r;
  }

  cancel(id: number): boolean {
    const o = this.ids.delete(id);
    if (o === NIL) return false;
    const of = this.of;
    const oi = this.oi;
    const lf = this.lf;
    const li = this.li;
    const oI = o * I32_PER_RECORD;
    const lvl = oi[oI + ORDER_LEVEL]!;
    const lF = lvl * F64_PER_RECORD;
    const lI = lvl * I32_PER_RECORD;
    // Unlink from the level's FIFO: O(1) through the record's own prev/next.
    const prev = oi[oI + ORDER_PREV]!;
    const next = oi[oI + ORDER_NEXT]!;
    if (prev === NIL) li[lI + LEVEL_HEAD] = next;
    else oi[prev * I32_PER_RECORD + ORDER_NEXT] = next;
    if (next === NIL) li[lI + LEVEL_TAIL] = prev;
    else oi[next * I32_PER_RECORD + ORDER_PREV] = prev;
    const total = lf[lF + LEVEL_QTY]! - of[o * F64_PER_RECORD + ORDER_QTY]!;
    lf[lF + LEVEL_QTY] = total;
    oi[oI + ORDER_NEXT] = this.oFree;
    this.oFree = o;
    this.resting--;
    const side = li[lI + LEVEL_SIDE] as Side;
    const price = lf[lF + LEVEL_PRICE]!;
    if (li[lI + LEVEL_HEAD] === NIL) {
      const book = side === Side.BID ? this.bids : this.asks;
      book.remove(book.sign * price);
      book.byPrice.delete(price);
      this.freeLevel(lvl);
    }
    this.listener.onLevel(side, price, total);
    return true;
  }

  reduce(id: number, new_qty_1e8: number): boolean {
    const o = this.ids.get(id);
    if (o === NIL) return false;
    const qtyWord = o * F64_PER_RECORD + ORDER_QTY;
    const current = this.of[qtyWord]!;
    if (!(new_qty_1e8 > 0 && new_qty_1e8 < current) || new_qty_1e8 % this.lot !== 0) return false;
    // In place: the order keeps its place in the FIFO, so its queue position is unchanged.
    this.of[qtyWord] = new_qty_1e8;
    const lvl = this.oi[o * I32_PER_RECORD + ORDER_LEVEL]!;
    const lF = lvl * F64_PER_RECORD;
    const total = this.lf[lF + LEVEL_QTY]! - (current - new_qty_1e8);
    this.lf[lF + LEVEL_QTY] = total;
    this.listener.onLevel(this.li[lvl * I32_PER_RECORD + LEVEL_SIDE] as Side, this.lf[lF + LEVEL_PRICE]!, total);
    return true;
  }

  bestBid(): number | undefined {
    const b = this.bids;
    return b.count === 0 ? undefined : this.lf[b.levels[b.count - 1]! * F64_PER_RECORD + LEVEL_PRICE];
  }

  bestAsk(): number | undefined {
    const a = this.asks;
    return a.count === 0 ? undefined : this.lf[a.levels[a.count - 1]! * F64_PER_RECORD + LEVEL_PRICE];
  }

  /** Allocates the answer; for snapshots and tests, not for the per-order path. */
  levels(side: Side, depth: number): { price_1e9: number; qty_1e8: number }[] {
    const ladder = side === Side.BID ? this.bids : this.asks;
    const out: { price_1e9: number; qty_1e8: number }[] = [];
    for (let i = ladder.count - 1; i >= 0 && out.length < depth; i--) {
      const lF = ladder.levels[i]! * F64_PER_RECORD;
      out.push({ price_1e9: this.lf[lF + LEVEL_PRICE]!, qty_1e8: this.lf[lF + LEVEL_QTY]! });
    }
    return out;
  }

  levelsInto(side: Side, depth: number, prices: Float64Array, pricesAt: number, qtys: Float64Array, qtysAt: number): number {
    const ladder = side === Side.BID ? this.bids : this.asks;
    let n = 0;
    for (let i = ladder.count - 1; i >= 0 && n < depth; i--, n++) {
      const lF = ladder.levels[i]! * F64_PER_RECORD;
      prices[pricesAt + n] = this.lf[lF + LEVEL_PRICE]!;
      qtys[qtysAt + n] = this.lf[lF + LEVEL_QTY]!;
    }
    return n;
  }

  restingOrders(): number {
    return this.resting;
  }

  /** Remaining quantity of a resting order, 0 when it is not resting. */
  restingQty(id: number): number {
    const o = this.ids.get(id);
    return o === NIL ? 0 : this.of[o * F64_PER_RECORD + ORDER_QTY]!;
  }

  /** Every resting order of a side in priority order (best price, then time). Allocates; tests and diagnostics. */
  snapshotOrders(side: Side): { id: number; price_1e9: number; qty_1e8: number }[] {
    const ladder = side === Side.BID ? this.bids : this.asks;
    const out: { id: number; price_1e9: number; qty_1e8: number }[] = [];
    for (let i = ladder.count - 1; i >= 0; i--) {
      const lvl = ladder.levels[i]!;
      const price = this.lf[lvl * F64_PER_RECORD + LEVEL_PRICE]!;
      for (let o = this.li[lvl * I32_PER_RECORD + LEVEL_HEAD]!; o !== NIL; o = this.oi[o * I32_PER_RECORD + ORDER_NEXT]!) {
        out.push({ id: this.of[o * F64_PER_RECORD + ORDER_ID]!, price_1e9: price, qty_1e8: this.of[o * F64_PER_RECORD + ORDER_QTY]! });
      }
    }
    return out;
  }

  /**
   * Fills the taker against `book` (the opposite side) while its best key is >= `threshold`;
   * returns the filled quantity. One iteration per fill, each leaving the engine consistent
   * before the listener is called (see the header).
   */
  private match(takerId: number, takerSide: Side, book: Ladder, threshold: number, qty: number): number {
    const listener = this.listener;
    const fill = this.fill;
    const makerSide = book.side;
    // Matching only frees records, never allocates, so the views cannot be replaced meanwhile.
    const of = this.of;
    const oi = this.oi;
    const lf = this.lf;
    const li = this.li;
    fill.taker_id = takerId;
    fill.taker_side = takerSide;
    let remaining = qty;
    while (remaining > 0) {
      const top = book.count - 1;
      if (top < 0 || book.keys[top]! < threshold) break;
      const lvl = book.levels[top]!;
      const lF = lvl * F64_PER_RECORD;
      const lI = lvl * I32_PER_RECORD;
      const price = lf[lF + LEVEL_PRICE]!;
      const o = li[lI + LEVEL_HEAD]!;
      const oF = o * F64_PER_RECORD;
      const makerQty = of[oF + ORDER_QTY]!;
      const makerId = of[oF + ORDER_ID]!;
      let q: number;
      if (makerQty <= remaining) {
        q = makerQty;
        const next = oi[o * I32_PER_RECORD + ORDER_NEXT]!;
        li[lI + LEVEL_HEAD] = next;
        if (next === NIL) li[lI + LEVEL_TAIL] = NIL;
        else oi[next * I32_PER_RECORD + ORDER_PREV] = NIL;
        this.ids.delete(makerId);
        oi[o * I32_PER_RECORD + ORDER_NEXT] = this.oFree;
        this.oFree = o;
        this.resting--;
      } else {
        q = remaining;
        of[oF + ORDER_QTY] = makerQty - q;
      }
      remaining -= q;
      const total = lf[lF + LEVEL_QTY]! - q;
      lf[lF + LEVEL_QTY] = total;
      if (li[lI + LEVEL_HEAD] === NIL) {
        // The best level emptied: it is the last entry of the ladder, so this is a pop.
        book.count = top;
        book.byPrice.delete(price);
        this.freeLevel(lvl);
      }
      fill.maker_id = makerId;
      fill.price_1e9 = price;
      fill.qty_1e8 = q;
      listener.onFill(fill);
      listener.onLevel(makerSide, price, total);
    }
    return qty - remaining;
  }

  /** Appends a new resting order at the tail of its level, creating the level if needed. */
  private rest(id: number, side: Side, price: number, qty: number): void {
    const book = side === Side.BID ? this.bids : this.asks;
    let lvl = book.byPrice.get(price);
    if (lvl === NIL) {
      lvl = this.allocLevel(side, price);
      book.byPrice.set(price, lvl);
      book.insert(book.sign * price, lvl);
    }
    if (this.oFree === NIL) this.growOrders();
    const o = this.oFree;
    const oi = this.oi;
    const of = this.of;
    const li = this.li;
    const lf = this.lf;
    const oI = o * I32_PER_RECORD;
    const lI = lvl * I32_PER_RECORD;
    this.oFree = oi[oI + ORDER_NEXT]!;
    this.resting++;
    of[o * F64_PER_RECORD + ORDER_ID] = id;
    of[o * F64_PER_RECORD + ORDER_QTY] = qty;
    oi[oI + ORDER_LEVEL] = lvl;
    oi[oI + ORDER_NEXT] = NIL;
    const tail = li[lI + LEVEL_TAIL]!;
    oi[oI + ORDER_PREV] = tail;
    if (tail === NIL) li[lI + LEVEL_HEAD] = o;
    else oi[tail * I32_PER_RECORD + ORDER_NEXT] = o;
    li[lI + LEVEL_TAIL] = o;
    this.ids.set(id, o);
    const lQ = lvl * F64_PER_RECORD + LEVEL_QTY;
    const total = lf[lQ]! + qty;
    lf[lQ] = total;
    this.listener.onLevel(side, price, total);
  }

  private reject(reason: RejectReason): SubmitResult {
    const r = this.result;
    r.ok = false;
    r.reason = reason;
    r.filled_qty_1e8 = 0;
    r.resting_qty_1e8 = 0;
    return r;
  }

  /**
   * floor(price x qty / QTY_SCALE) >= min_notional, i.e. price x qty >= min x QTY_SCALE, decided
   * exactly without allocating in the common case. Both products exceed 2^53 for real prices, so
   * the doubles are rounded, but IEEE rounding is monotonic: if the rounded products differ, the
   * exact ones are ordered the same way. Only when they round to the same double (the exact
   * values are within one ulp, ~1e-16 relative) does BigInt decide.
   */
  private notionalAtLeastMin(price: number, qty: number): boolean {
    const approx = price * qty;
    const min = this.minNotionalScaled;
    if (approx > min) return true;
    if (approx < min) return false;
    return BigInt(price) * BigInt(qty) >= this.minNotionalScaledBig;
  }

  private allocLevel(side: Side, price: number): number {
    if (this.lFree === NIL) this.growLevels();
    const lvl = this.lFree;
    const lI = lvl * I32_PER_RECORD;
    const lF = lvl * F64_PER_RECORD;
    this.lFree = this.li[lI + LEVEL_HEAD]!;
    this.lf[lF + LEVEL_PRICE] = price;
    this.lf[lF + LEVEL_QTY] = 0;
    this.li[lI + LEVEL_HEAD] = NIL;
    this.li[lI + LEVEL_TAIL] = NIL;
    this.li[lI + LEVEL_SIDE] = side;
    return lvl;
  }

  private freeLevel(lvl: number): void {
    this.li[lvl * I32_PER_RECORD + LEVEL_HEAD] = this.lFree;
    this.lFree = lvl;
  }

  private chainFreeOrders(from: number, to: number): void {
    for (let o = to - 1; o >= from; o--) {
      this.oi[o * I32_PER_RECORD + ORDER_NEXT] = this.oFree;
      this.oFree = o;
    }
  }

  private chainFreeLevels(from: number, to: number): void {
    for (let l = to - 1; l >= from; l--) {
      this.li[l * I32_PER_RECORD + LEVEL_HEAD] = this.lFree;
      this.lFree = l;
    }
  }

  /** The only allocation after construction: doubling, amortised; presize with `initialOrders`. */
  private growOrders(): void {
    const n = this.orderCapacity;
    const buffer = grown(this.of.buffer as ArrayBuffer, n * 2 * RECORD_BYTES);
    this.of = new Float64Array(buffer);
    this.oi = new Int32Array(buffer);
    this.orderCapacity = n * 2;
    this.chainFreeOrders(n, n * 2);
  }

  private growLevels(): void {
    const n = this.levelCapacity;
    const buffer = grown(this.lf.buffer as ArrayBuffer, n * 2 * RECORD_BYTES);
    this.lf = new Float64Array(buffer);
    this.li = new Int32Array(buffer);
    this.levelCapacity = n * 2;
    this.chainFreeLevels(n, n * 2);
  }
}

function grown(buffer: ArrayBuffer, bytes: number): ArrayBuffer {
  const bigger = new ArrayBuffer(bytes);
  new Uint8Array(bigger).set(new Uint8Array(buffer));
  return bigger;
}
