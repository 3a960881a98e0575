import { Side } from '../../../../domain/market.ts';
import type { FeedSync } from '../book-feeds.ts';
import type { L2Book } from '../l2-book.ts';
import { MAX_BUFFERED_EVENTS, type SyncOutcome } from '../binance/depth-sync.ts';

/**
 * One `trade.l2update` push of `/market/level2:{symbol}`, decoded (codec.ts `decodeFrame`).
 * Each side is flat [price_1e9, qty_1e8, sequence, ...]: the level's absolute size (0 removes
 * it) and the sequence of its last change inside [sequenceStart, sequenceEnd]. A price of 0 is
 * an entry that only carries a sequence (the docs: "If the price is 0, ignore the messages and
 * update the sequence").
 */
export interface Level2Update {
  sequenceStart: number;
  sequenceEnd: number;
  bids: number[];
  asks: number[];
  /** the push's `time`, ms */
  ts_ms: number;
}

/** Entries per change in `Level2Update.bids`/`asks`. */
export const CHANGE_WIDTH = 3;

/**
 * KuCoin spot's rule for keeping a local book from `/market/level2` (the "calibration
 * procedure" of docs.kucoin.com, Level-2 Market Data; docs-new "Orderbook - Increment"):
 *   1. buffer the stream;
 *   2. fetch a REST snapshot (`GET /api/v3/market/orderbook/level2`, or the public
 *      `level2_100`, which is what the docs' own worked example uses) with its `sequence`;
 *   3. play the buffer back: a push is taken when `sequenceStart <= book sequence + 1` and
 *      `sequenceEnd > book sequence`; one with `sequenceEnd <= book sequence` is already in the
 *      book and dropped; one with `sequenceStart > book sequence + 1` leaves a hole: a gap;
 *   4. inside a taken push, a change is applied only when its own sequence is above the book's
 *      (the push may overlap what the book already holds); "the sequence on each record in
 *      changes only represents the last modification of the corresponding sequence of the
 *      price, and does not serve as a basis for judging message continuity";
 *   5. size 0 removes the price, price 0 only moves the sequence; the book's sequence becomes
 *      the push's `sequenceEnd`.
 *
 * The outcomes are those of the Binance diff-depth sync (`binance/depth-sync.ts`), which has the
 * same buffer-and-snapshot shape: the book is whole from the snapshot on, so a snapshot that
 * covers everything buffered is published at once; the first push past a snapshot that does
 * not reach back to it means the snapshot is older than the stream (`stale`: fetch another,
 * the buffer is kept); any later hole is a `gap` (the book is cleared and the push that showed
 * it is kept for the next snapshot). Pure.
 */
export class KucoinBookSync implements FeedSync {
  private whole = false;
  /** the book's sequence: the snapshot's, then each taken push's `sequenceEnd` */
  private seq = -1;
  private buffer: Level2Update[] = [];

  /**
   * @param changes receives each applied level as [side, price_1e9, qty_1e8]; the caller drains it
   */
  constructor(
    private readonly book: L2Book,
    private readonly changes: number[],
  ) {}

  /** The book is whole: a snapshot and every push since. */
  get synced(): boolean {
    return this.whole;
  }

  /** The sequence the book stands at, or -1 while it is not whole. */
  get sequence(): number {
    return this.whole ? this.seq : -1;
  }

  /** Pushes held for a snapshot. */
  get buffered(): number {
    return this.buffer.length;
  }

  /** Forgets everything (a reconnect): the next pushes are buffered for a fresh snapshot. */
  reset(): void {
    this.book.clear();
    this.whole = false;
    this.seq = -1;
    this.buffer = [];
  }

  onUpdate(u: Level2Update): SyncOutcome {
    if (!this.whole) {
      if (this.buffer.length >= MAX_BUFFERED_EVENTS) this.buffer.shift();
      this.buffer.push(u);
      return 'buffered';
    }
    const outcome = this.next(u, true);
    if (outcome === 'gap') {
      this.reset();
      this.buffer.push(u);
    }
    return outcome;
  }

  /** A REST snapshot at `sequence`: `bids`/`asks` flat [price_1e9, qty_1e8, ...]. */
  onSnapshot(sequence: number, bids: readonly number[], asks: readonly number[]): SyncOutcome {
    this.book.clear();
    for (let i = 0; i < bids.length; i += 2) this.book.set(Side.BID, bids[i]!, bids[i + 1]!);
    for (let i = 0; i < asks.length; i += 2) this.book.set(Side.ASK, asks[i]!, asks[i + 1]!);
    this.seq = sequence;
    this.whole = true;
    const held = this.buffer;
    this.buffer = [];
    let taken = false;
    for (let i = 0; i < held.length; i++) {
      const outcome = this.next(held[i]!, false);
      if (outcome === 'gap') {
        // The first push past the snapshot starts after it: the snapshot predates the stream.
        // Either way the pushes from here on are kept for the next snapshot.
        this.reset();
        this.buffer = held.slice(i);
        return taken ? 'gap' : 'stale';
      }
      if (outcome === 'applied') taken = true;
    }
    // The whole book is published on a sync: the played-back changes are in it.
    this.changes.length = 0;
    return 'synced';
  }

  /** One push on a whole book: dropped when the book covers it, taken when it reaches back to the book, else a gap. */
  private next(u: Level2Update, record: boolean): SyncOutcome {
    if (u.sequenceEnd <= this.seq) return 'buffered';
    if (u.sequenceStart > this.seq + 1) return 'gap';
    const from = this.seq;
    this.side(Side.BID, u.bids, from, record);
    this.side(Side.ASK, u.asks, from, record);
    this.seq = u.sequenceEnd;
    return 'applied';
  }

  private side(side: Side, levels: readonly number[], from: number, record: boolean): void {
    const { book, changes } = this;
    for (let i = 0; i < levels.length; i += CHANGE_WIDTH) {
      const price = levels[i]!;
      // Already in the book (the snapshot or an earlier push holds this change or a later one),
      // or a sequence-only entry.
      if (levels[i + 2]! <= from || price === 0) continue;
      const qty = levels[i + 1]!;
      book.set(side, price, qty);
      if (record) changes.push(side, price, qty);
    }
  }
}
