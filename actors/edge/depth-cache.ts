import { Side } from '../../domain/market.ts';
import { SeqlockWords, type SlotCopier } from '../../engine/seqlock.ts';
import { EDGES } from '../../domain/venues.ts';
import { books, type BookEntry } from '../market/directory.ts';

/**
 * The depth cache: each edge's own book of each symbol it feeds, 50 levels a side, in shared
 * memory. The edge writes a slot whenever its book of that symbol changes (after each advance
 * and each execution); the router reads it without a message hop. Routing an order then costs
 * a memory copy per venue instead of an ask per venue through the rings (encode, wake-up, decode
 * of 200 numbers, and back).
 *
 * Buffer layout (Float64 words):
 *
 *   words 0 .. 2E-1    per edge (catalog order): heartbeat_ms (the edge's timer is alive) and
 *                      latency_ms (the edge's one-way latency to its venue, as the edge knows it:
 *                      the router's cost model reads it; a real adapter measures it)
 *   then, per slot     (one per (book, feeding edge), in directory order)
 *     word 0           seq (Int32 at the slot's first byte; odd while the writer is inside)
 *     word 1           written (0 until the first write)
 *     word 2           connected (0/1): the venue's feed is up
 *     word 3           book ts_ns: the venue instant the levels are as of
 *     words 4-5        bid count, ask count (<= DEPTH_LEVELS)
 *     6 ...            bid prices, bid qtys, ask prices, ask qtys (DEPTH_LEVELS each)
 *
 * Seqlock per slot (engine/seqlock.ts). A heartbeat is one aligned 8-byte word written by one thread:
 * a reader sees the old or the new value, never a mix.
 */
export const DEPTH_LEVELS = 50;
const SLOT_HEADER = 6;
const SLOT_WORDS = SLOT_HEADER + 4 * DEPTH_LEVELS;
const SLOT_BYTES = SLOT_WORDS * 8;
const EDGE_WORDS = 2;
const HEARTBEAT_WORDS = EDGE_WORDS * EDGES.length;
/** An edge whose timer has not beaten for this long is not publishing. */
export const EDGE_STALE_MS = 1_000;

const EDGE_INDEX = new Map(EDGES.map((e, i) => [e.edge_id, i]));
/** First slot of each book (by directory slot); a book's edges follow in its `edges` order. */
const BOOK_BASE: number[] = [];
let slotTotal = 0;
for (const entry of books()) {
  BOOK_BASE[entry.slot] = slotTotal;
  slotTotal += entry.edges.length;
}
const SLOT_TOTAL = slotTotal;

export function createDepthCache(): SharedArrayBuffer {
  return new SharedArrayBuffer(HEARTBEAT_WORDS * 8 + SLOT_TOTAL * SLOT_BYTES);
}

/** The slot of (book, the book's i-th feeding edge). */
export function depthSlot(entry: BookEntry, edgeIndex: number): number {
  return BOOK_BASE[entry.slot]! + edgeIndex;
}

function slotWord(slot: number): number {
  return HEARTBEAT_WORDS + slot * SLOT_WORDS;
}

/** The writing side, owned by one edge actor: its heartbeat and its slots. */
export class DepthCacheWriter {
  private readonly cache: SeqlockWords;
  private readonly heartbeatWord: number;

  constructor(cache: SharedArrayBuffer, edgeId: string) {
    const index = EDGE_INDEX.get(edgeId);
    if (index === undefined) throw new Error(`no edge ${edgeId} in the catalog`);
    this.cache = new SeqlockWords(cache);
    this.heartbeatWord = index * EDGE_WORDS;
  }

  heartbeat(nowMs: number): void {
    this.cache.words[this.heartbeatWord] = nowMs;
  }

  latency(ms: number): void {
    this.cache.words[this.heartbeatWord + 1] = ms;
  }

  /**
   * Writes a slot: `fill(side, words, pricesAt, qtysAt)` writes that side's levels (at most
   * DEPTH_LEVELS) at those word indexes and returns how many.
   */
  write(slot: number, connected: boolean, tsNs: number, fill: (side: Side, words: Float64Array, pricesAt: number, qtysAt: number) => number): void {
    const w = this.cache.words;
    const base = slotWord(slot);
    this.cache.beginWrite(base);
    w[base + 1] = 1;
    w[base + 2] = connected ? 1 : 0;
    w[base + 3] = tsNs;
    const levels = base + SLOT_HEADER;
    w[base + 4] = fill(Side.BID, w, levels, levels + DEPTH_LEVELS);
    w[base + 5] = fill(Side.ASK, w, levels + 2 * DEPTH_LEVELS, levels + 3 * DEPTH_LEVELS);
    this.cache.endWrite(base);
  }
}

/** One venue's book as the router reads it. */
export interface VenueDepth {
  connected: boolean;
  ts_ns: number;
  heartbeat_ms: number;
  bidCount: number;
  askCount: number;
  bidsPx: Float64Array;
  bidsQty: Float64Array;
  asksPx: Float64Array;
  asksQty: Float64Array;
}

/** The reading side (the router). */
export class DepthCacheReader implements SlotCopier {
  private readonly cache: SeqlockWords;
  /** The copy under way: read() names the edge, copySlot builds the depth. */
  private edgeId = '';
  private depth: VenueDepth | undefined;

  constructor(cache: SharedArrayBuffer) {
    this.cache = new SeqlockWords(cache);
  }

  heartbeatMs(edgeId: string): number {
    const index = EDGE_INDEX.get(edgeId);
    return index === undefined ? 0 : this.cache.words[index * EDGE_WORDS]!;
  }

  /** The edge's one-way latency to its venue (ms), 0 until the edge has written it. */
  latencyMs(edgeId: string): number {
    const index = EDGE_INDEX.get(edgeId);
    return index === undefined ? 0 : this.cache.words[index * EDGE_WORDS + 1]!;
  }

  /**
   * A consistent copy of a slot into fresh arrays (the plan keeps them), or undefined when the
   * slot was never written (the edge does not stream that symbol) or no consistent copy could
   * be taken.
   */
  read(slot: number, edgeId: string): VenueDepth | undefined {
    this.edgeId = edgeId;
    const depth = this.cache.read(slotWord(slot), this) ? this.depth : undefined;
    this.depth = undefined;
    return depth;
  }

  copySlot(w: Float64Array, base: number): boolean {
    if (w[base + 1] !== 1) return false;
    const bidCount = Math.min(w[base + 4]!, DEPTH_LEVELS);
    const askCount = Math.min(w[base + 5]!, DEPTH_LEVELS);
    const levels = base + SLOT_HEADER;
    // One allocation for the four level arrays, sized to the levels there are (typed-array
    // allocation and its collection are most of the cost), then views.
    const copy = new Float64Array(2 * (bidCount + askCount));
    const asksAt = 2 * bidCount;
    // Element loops rather than set(w.subarray(...)): a subarray is a typed-array object for
    // the collector, four per venue per order, to copy at most 50 numbers each.
    for (let i = 0; i < bidCount; i++) {
      copy[i] = w[levels + i]!;
      copy[bidCount + i] = w[levels + DEPTH_LEVELS + i]!;
    }
    for (let i = 0; i < askCount; i++) {
      copy[asksAt + i] = w[levels + 2 * DEPTH_LEVELS + i]!;
      copy[asksAt + askCount + i] = w[levels + 3 * DEPTH_LEVELS + i]!;
    }
    this.depth = {
      connected: w[base + 2] === 1,
      ts_ns: w[base + 3]!,
      heartbeat_ms: this.heartbeatMs(this.edgeId),
      bidCount,
      askCount,
      bidsPx: copy.subarray(0, bidCount),
      bidsQty: copy.subarray(bidCount, asksAt),
      asksPx: copy.subarray(asksAt, asksAt + askCount),
      asksQty: copy.subarray(asksAt + askCount, asksAt + 2 * askCount),
    };
    return true;
  }
}

/** One side of a slot's top levels: prices and sizes best first, `count` of them valid. */
export interface DepthSide {
  count: number;
  readonly px: Float64Array;
  readonly qty: Float64Array;
}

/**
 * A reusable copy of a slot's top `levels` levels a side, for a reader that reads the same books
 * over and over (a strategy deployment on every change): nothing is allocated per read.
 */
export class DepthTop implements SlotCopier {
  readonly bids: DepthSide;
  readonly asks: DepthSide;
  connected = false;
  ts_ns = 0;
  private readonly cache: SeqlockWords;

  constructor(cache: SharedArrayBuffer, readonly levels: number) {
    this.cache = new SeqlockWords(cache);
    this.bids = { count: 0, px: new Float64Array(levels), qty: new Float64Array(levels) };
    this.asks = { count: 0, px: new Float64Array(levels), qty: new Float64Array(levels) };
  }

  /** The slot's write sequence: unchanged since the last read, nothing to copy. */
  version(slot: number): number {
    return this.cache.sequence(slotWord(slot));
  }

  /** False when the slot was never written (the edge does not stream that symbol yet). */
  read(slot: number): boolean {
    return this.cache.read(slotWord(slot), this);
  }

  copySlot(w: Float64Array, base: number): boolean {
    if (w[base + 1] !== 1) return false;
    this.connected = w[base + 2] === 1;
    this.ts_ns = w[base + 3]!;
    const levels = base + SLOT_HEADER;
    const bids = (this.bids.count = Math.min(w[base + 4]!, this.levels));
    const asks = (this.asks.count = Math.min(w[base + 5]!, this.levels));
    for (let i = 0; i < bids; i++) {
      this.bids.px[i] = w[levels + i]!;
      this.bids.qty[i] = w[levels + DEPTH_LEVELS + i]!;
    }
    for (let i = 0; i < asks; i++) {
      this.asks.px[i] = w[levels + 2 * DEPTH_LEVELS + i]!;
      this.asks.qty[i] = w[levels + 3 * DEPTH_LEVELS + i]!;
    }
    return true;
  }
}
