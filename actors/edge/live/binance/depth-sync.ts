import { Side } from '../../../../domain/market.ts';
import type { L2Book } from '../l2-book.ts';

/** A diff-depth event, decoded: update ids and the changed levels, flat [price_1e9, qty_1e8, ...]. */
export interface DepthEvent {
  /** first update id in the event (`U`) */
  first: number;
  /** final update id in the event (`u`) */
  last: number;
  bids: number[];
  asks: number[];
  /** event time, ms (`E`) */
  ts_ms: number;
}

/**
 * What an event or a snapshot did to the book:
 *   buffered  held for a snapshot, or covered by the one held; nothing to publish
 *   synced    the book is whole from this instant: publish it entire
 *   applied   the event's levels changed the whole book: publish `changes`
 *   stale     the snapshot is older than the buffered stream: fetch another
 *   gap       an update id was skipped: the book is cleared; fetch a snapshot and start over
 */
export type SyncOutcome = 'buffered' | 'synced' | 'applied' | 'stale' | 'gap';

/** Events held while a snapshot is awaited; past this the stream outran the snapshot badly, start over. */
export const MAX_BUFFERED_EVENTS = 2_000;

/**
 * Binance spot's rule for keeping a local book from `<symbol>@depth` and `GET /api/v3/depth`
 * (its "How to manage a local order book correctly"): buffer the stream, fetch a snapshot,
 * drop events with `u <= lastUpdateId`, the first applied event must straddle
 * `lastUpdateId + 1` (`U <= lastUpdateId + 1 <= u`), and each later one must start right after
 * the previous (`U == previous u + 1`); anything else is a gap and the book starts over. Spot
 * events carry no `pu` (futures do), so the chain is checked arithmetically.
 *
 * The book is whole from the snapshot on: the snapshot is the venue's book at `lastUpdateId`,
 * and every event after it is applied or checked. So a quiet symbol whose snapshot covers
 * everything buffered is published at once, not held until its next change; its next event
 * must still straddle `lastUpdateId + 1` or it is a gap. Pure.
 */
export class DiffDepthSync {
  /** The held snapshot's `lastUpdateId`, or -1 while none is held (the book is not whole). */
  private snapshotId = -1;
  /** The last applied event's `u`, or -1 until the first event after the snapshot. */
  private lastApplied = -1;
  private buffer: DepthEvent[] = [];

  /**
   * @param changes receives each applied level as [side, price_1e9, qty_1e8]; the caller drains it
   */
  constructor(
    private readonly book: L2Book,
    private readonly changes: number[],
  ) {}

  /** The book is whole: a snapshot and every event since. */
  get synced(): boolean {
    return this.snapshotId >= 0;
  }

  get buffered(): number {
    return this.buffer.length;
  }

  /** Forgets everything (a reconnect): the next events are buffered for a fresh snapshot. */
  reset(): void {
    this.book.clear();
    this.snapshotId = -1;
    this.lastApplied = -1;
    this.buffer = [];
  }

  onEvent(e: DepthEvent): SyncOutcome {
    if (this.snapshotId < 0) {
      if (this.buffer.length >= MAX_BUFFERED_EVENTS) this.buffer.shift();
      this.buffer.push(e);
      return 'buffered';
    }
    const outcome = this.next(e, true);
    if (outcome === 'gap') {
      this.reset();
      this.buffer.push(e);
    }
    return outcome;
  }

  /** A REST snapshot: `bids`/`asks` flat [price_1e9, qty_1e8, ...], best first. */
  onSnapshot(lastUpdateId: number, bids: readonly number[], asks: readonly number[]): SyncOutcome {
    this.book.clear();
    for (let i = 0; i < bids.length; i += 2) this.book.set(Side.BID, bids[i]!, bids[i + 1]!);
    for (let i = 0; i < asks.length; i += 2) this.book.set(Side.ASK, asks[i]!, asks[i + 1]!);
    this.snapshotId = lastUpdateId;
    this.lastApplied = -1;
    const held = this.buffer;
    this.buffer = [];
    for (let i = 0; i < held.length; i++) {
      const outcome = this.next(held[i]!, false);
      if (outcome === 'gap') {
        // The first event past the snapshot starts after it: the snapshot predates the stream.
        // Keep the stream, drop the snapshot, fetch another.
        const stale = this.lastApplied < 0;
        this.reset();
        this.buffer = held.slice(i);
        return stale ? 'stale' : 'gap';
      }
    }
    // The whole book is published on a sync: the drained events' changes are in it.
    this.changes.length = 0;
    return 'synced';
  }

  /** One event on a whole book: dropped if the snapshot covers it, applied if it follows, else a gap. */
  private next(e: DepthEvent, record: boolean): SyncOutcome {
    if (this.lastApplied < 0) {
      if (e.last <= this.snapshotId) return 'buffered';
      if (e.first > this.snapshotId + 1) return 'gap';
    } else if (e.first !== this.lastApplied + 1) return 'gap';
    this.apply(e, record);
    return 'applied';
  }

  private apply(e: DepthEvent, record: boolean): void {
    const { book, changes } = this;
    for (let i = 0; i < e.bids.length; i += 2) {
      book.set(Side.BID, e.bids[i]!, e.bids[i + 1]!);
      if (record) changes.push(Side.BID, e.bids[i]!, e.bids[i + 1]!);
    }
    for (let i = 0; i < e.asks.length; i += 2) {
      book.set(Side.ASK, e.asks[i]!, e.asks[i + 1]!);
      if (record) changes.push(Side.ASK, e.asks[i]!, e.asks[i + 1]!);
    }
    this.lastApplied = e.last;
  }
}
