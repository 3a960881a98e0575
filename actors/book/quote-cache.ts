/**
 * The quote cache: one shared-memory slot per consolidated book, written by its book actor and
 * read by the gateway without a message hop. A quote request then costs a memory copy instead
 * of an ask through the rings (two encodes, two decodes and a thread wake-up).
 *
 * Slot layout (Float64 words; integers below 2^53 are exact in a double):
 *
 *   word  0       seq (Int32 at byte 0; odd while the writer is inside)
 *   word  1       book version
 *   word  2       updated_ms: last change of the NBBO (the `max_age_s` filter)
 *   words 3-6     nbbo bid_1e9, ask_1e9, bid_qty_1e8, ask_qty_1e8
 *   word  7       crossed (0/1)
 *   word  8       venue count v (<= MAX_VENUES)
 *   words 9-10    bid level count, ask level count (<= MAX_DEPTH)
 *   word  11      written (0 until the first write)
 *   12 + 6i ...   venue i: venue index, bid_1e9, ask_1e9, bid_qty_1e8, ask_qty_1e8, last_tick_ms
 *   VENUE_END ... bid prices, bid quantities, ask prices, ask quantities (MAX_DEPTH each)
 *
 * Seqlock (engine/seqlock.ts): one writer per slot, readers never block it.
 */
import { SeqlockWords, type SlotCopier } from '../../engine/seqlock.ts';

export const MAX_VENUES = 16;
export const MAX_DEPTH = 50;
const HEADER_WORDS = 12;
const VENUE_WORDS = 6;
const VENUE_END = HEADER_WORDS + MAX_VENUES * VENUE_WORDS;
export const SLOT_WORDS = VENUE_END + 4 * MAX_DEPTH;
const BID_PRICES = VENUE_END;
const BID_QTYS = VENUE_END + MAX_DEPTH;
const ASK_PRICES = VENUE_END + 2 * MAX_DEPTH;
const ASK_QTYS = VENUE_END + 3 * MAX_DEPTH;
const SLOT_BYTES = SLOT_WORDS * 8;

export interface VenueQuote {
  venue: number;
  bid_1e9: number;
  ask_1e9: number;
  bid_qty_1e8: number;
  ask_qty_1e8: number;
  last_tick_ms: number;
}

/** A decoded slot; readers and the writer reuse one instance each. Levels are best first. */
export class QuoteSnapshot {
  version = 0;
  updated_ms = 0;
  bid_1e9 = 0;
  ask_1e9 = 0;
  bid_qty_1e8 = 0;
  ask_qty_1e8 = 0;
  crossed = false;
  written = false;
  venueCount = 0;
  readonly venues: VenueQuote[] = Array.from({ length: MAX_VENUES }, () => ({
    venue: 0,
    bid_1e9: 0,
    ask_1e9: 0,
    bid_qty_1e8: 0,
    ask_qty_1e8: 0,
    last_tick_ms: 0,
  }));
  bidCount = 0;
  askCount = 0;
  readonly bidPrices = new Float64Array(MAX_DEPTH);
  readonly bidQtys = new Float64Array(MAX_DEPTH);
  readonly askPrices = new Float64Array(MAX_DEPTH);
  readonly askQtys = new Float64Array(MAX_DEPTH);
}

export function createQuoteCache(slots: number): SharedArrayBuffer {
  return new SharedArrayBuffer(slots * SLOT_BYTES);
}

export function slotCount(cache: SharedArrayBuffer): number {
  return cache.byteLength / SLOT_BYTES;
}

/** The writing side of one slot; owned by exactly one book actor. */
export class QuoteSlotWriter {
  private readonly slot: SeqlockWords;

  constructor(cache: SharedArrayBuffer, slot: number) {
    if (slot < 0 || slot >= slotCount(cache)) throw new RangeError(`quote cache has no slot ${slot}`);
    this.slot = new SeqlockWords(cache, slot * SLOT_BYTES, SLOT_WORDS);
  }

  write(s: QuoteSnapshot): void {
    const w = this.slot.words;
    this.slot.beginWrite(0);
    w[1] = s.version;
    w[2] = s.updated_ms;
    w[3] = s.bid_1e9;
    w[4] = s.ask_1e9;
    w[5] = s.bid_qty_1e8;
    w[6] = s.ask_qty_1e8;
    w[7] = s.crossed ? 1 : 0;
    const venues = Math.min(s.venueCount, MAX_VENUES);
    w[8] = venues;
    const bids = Math.min(s.bidCount, MAX_DEPTH);
    const asks = Math.min(s.askCount, MAX_DEPTH);
    w[9] = bids;
    w[10] = asks;
    w[11] = 1;
    for (let i = 0; i < venues; i++) {
      const v = s.venues[i]!;
      const o = HEADER_WORDS + i * VENUE_WORDS;
      w[o] = v.venue;
      w[o + 1] = v.bid_1e9;
      w[o + 2] = v.ask_1e9;
      w[o + 3] = v.bid_qty_1e8;
      w[o + 4] = v.ask_qty_1e8;
      w[o + 5] = v.last_tick_ms;
    }
    w.set(s.bidPrices.subarray(0, bids), BID_PRICES);
    w.set(s.bidQtys.subarray(0, bids), BID_QTYS);
    w.set(s.askPrices.subarray(0, asks), ASK_PRICES);
    w.set(s.askQtys.subarray(0, asks), ASK_QTYS);
    this.slot.endWrite(0);
  }
}

/** The reading side, for any slot; the gateway holds one. */
export class QuoteCacheReader implements SlotCopier {
  private readonly cache: SeqlockWords;
  /** The copy under way (read() sets them, copySlot fills `out`). */
  private out = new QuoteSnapshot();
  private depth = 0;

  constructor(cache: SharedArrayBuffer) {
    this.cache = new SeqlockWords(cache);
  }

  /** The slot's book version (a single word: no seqlock needed to compare), -1 if never written. */
  version(slot: number): number {
    const base = slot * SLOT_WORDS;
    const w = this.cache.words;
    return w[base + 11] === 1 ? w[base + 1]! : -1;
  }

  /**
   * Copies slot `slot` into `out`, levels up to `depth`. Returns false when the slot was never
   * written or a consistent copy could not be taken in a few tries.
   */
  read(slot: number, depth: number, out: QuoteSnapshot): boolean {
    this.out = out;
    this.depth = depth;
    if (!this.cache.read(slot * SLOT_WORDS, this)) return false;
    out.written = true;
    return true;
  }

  copySlot(w: Float64Array, base: number): boolean {
    const out = this.out;
    if (w[base + 11] !== 1) return false;
    out.version = w[base + 1]!;
    out.updated_ms = w[base + 2]!;
    out.bid_1e9 = w[base + 3]!;
    out.ask_1e9 = w[base + 4]!;
    out.bid_qty_1e8 = w[base + 5]!;
    out.ask_qty_1e8 = w[base + 6]!;
    out.crossed = w[base + 7] === 1;
    const venues = Math.min(w[base + 8]!, MAX_VENUES);
    out.venueCount = venues;
    for (let i = 0; i < venues; i++) {
      const o = base + HEADER_WORDS + i * VENUE_WORDS;
      const v = out.venues[i]!;
      v.venue = w[o]!;
      v.bid_1e9 = w[o + 1]!;
      v.ask_1e9 = w[o + 2]!;
      v.bid_qty_1e8 = w[o + 3]!;
      v.ask_qty_1e8 = w[o + 4]!;
      v.last_tick_ms = w[o + 5]!;
    }
    const bids = Math.min(w[base + 9]!, this.depth, MAX_DEPTH);
    const asks = Math.min(w[base + 10]!, this.depth, MAX_DEPTH);
    out.bidCount = bids;
    out.askCount = asks;
    out.bidPrices.set(w.subarray(base + BID_PRICES, base + BID_PRICES + bids));
    out.bidQtys.set(w.subarray(base + BID_QTYS, base + BID_QTYS + bids));
    out.askPrices.set(w.subarray(base + ASK_PRICES, base + ASK_PRICES + asks));
    out.askQtys.set(w.subarray(base + ASK_QTYS, base + ASK_QTYS + asks));
    return true;
  }
}
