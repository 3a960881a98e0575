import { Side } from '../../../../domain/market.ts';
import type { FeedSync } from '../book-feeds.ts';
import type { L2Book } from '../l2-book.ts';
import { MAX_BUFFERED_EVENTS, type SyncOutcome } from '../binance/depth-sync.ts';

/**
 * One `data` event of the `diff_order_book_{pair}` channel, decoded (codec.ts `decodeFrame`):
 * the levels that changed since the venue's last broadcast, each flat [price_1e9, qty_1e8, ...]
 * with the level's new absolute amount (0 removes it), stamped with the broadcast's
 * `microtimestamp`.
 */
export interface BitstampDiff {
  /** µs since the epoch (`microtimestamp`): about 1.8e15 now, well inside 2^53 */
  microtimestamp: number;
  bids: number[];
  asks: number[];
  /** `timestamp` (s) as ms, for the edge's event time */
  ts_ms: number;
}

/**
 * Bitstamp's rule for a local book from `diff_order_book_{pair}` ("only changed levels", "Full
 * depth") and the REST snapshot `GET /api/v2/order_book/{pair}/`: the stream sends no snapshot,
 * so subscribe, buffer the diffs, take a snapshot (its `microtimestamp` says when it was the
 * venue's book), "drop buffered diffs whose microtimestamp is at or before the snapshot's, then
 * apply the rest" (the WebSocket v2 page, as a 2026-09-15 probe write-up of it quotes it: the
 * page sits behind a JavaScript challenge). ccxt's Bitstamp book watcher and JKorf's
 * Bitstamp.Net book do the same, with `microtimestamp` as their only order.
 *
 * What the venue does not give: a sequence number or a checksum. No diff and no snapshot says
 * which broadcast came before it, so a diff lost between the venue and us cannot be seen in the
 * stream: the stamps only order what did arrive. (Only the order-by-order `live_orders_{pair}`
 * channel chains its events, `event_id` and `pre_event_id`, with `POST /api/v2/order_data/` to
 * fill a hole, since 2026-02-16: another book, built from orders, not this one.) What this sync
 * can and does check:
 *   - the snapshot must reach the stream: one stamped before the first diff still buffered may
 *     predate the subscription (the REST book lags the stream: ccxt asks only after several
 *     diffs, "the rest API is very delayed"), and the changes between it and the subscription
 *     would be missing. It is `stale`: fetch another, the buffer is kept. After a gap the
 *     snapshot must also reach every diff this subscription has seen (those were applied to the
 *     book just cleared, or were out of order), so a lagging snapshot cannot skip them. With
 *     nothing buffered and no gap behind, the snapshot is taken as is (a quiet book may send
 *     nothing for a minute): it must then have been asked for after `bts:subscription_succeeded`,
 *     and a lagging one can still miss a change made just before the subscription. The adapter
 *     may wait for a first diff before asking (JKorf's book waits up to a second for one).
 *   - stamps must not go back: a diff stamped before the last one applied is a `gap` (one
 *     connection delivers in order: the probe saw no stamp go back or repeat in 13,577 book
 *     frames). An equal stamp is applied: levels are absolute, so a repeated diff changes nothing.
 *   - the book must not stay crossed. The venue warns that "a snapshot may occasionally show the
 *     best bid >= best ask" and that this "will self-correct within the next message"; so a
 *     crossed book is published, but one still crossed after the next diff has missed a change:
 *     a `gap`. Absolute levels also mean a missed change spoils only the levels it touched,
 *     until they change again.
 * What the adapter adds around it: a reconnect, and a resync of every book, on
 * `bts:request_reconnect` (the venue's maintenance notice, then "a few seconds to reconnect")
 * and on a stream silent for 30 s (`StreamedVenue`'s watchdog; the diff channel is silent on a
 * quiet book, so the socket is kept talking with `bts:heartbeat`, codec.ts); and, if wanted, an
 * audit of the book against a fresh snapshot now and then.
 *
 * The outcomes are those of the Binance diff-depth sync (binance/depth-sync.ts), which has the
 * same buffer-and-snapshot shape:
 *   buffered  held for a snapshot, or covered by the one held: nothing to publish
 *   synced    the book is whole from this instant: publish it entire
 *   applied   the diff changed the whole book: publish `changes`
 *   stale     the snapshot does not reach the stream: fetch another, the buffer is kept
 *   gap       a stamp went back or the book stayed crossed: the book and the buffer are cleared,
 *             and the next snapshot must reach the newest diff seen
 * Pure.
 */
export class BitstampBookSync implements FeedSync {
  private whole = false;
  /** the held snapshot's `microtimestamp`: diffs at or before it are in it */
  private snapshotAt = -1;
  /** the stamp the book stands at: the snapshot's, then each applied diff's */
  private stampAt = -1;
  /** the book was crossed after the snapshot or the last diff: the next one must uncross it */
  private wasCrossed = false;
  /** the newest stamp this subscription has seen */
  private seenAt = -1;
  /** the stamp the next snapshot must reach: after a gap, every diff seen is gone from the book */
  private floorAt = -1;
  private buffer: BitstampDiff[] = [];

  /**
   * @param changes receives each applied level as [side, price_1e9, qty_1e8]; the caller drains it
   */
  constructor(
    private readonly book: L2Book,
    private readonly changes: number[],
  ) {}

  /** The book is whole: a snapshot and every diff since. */
  get synced(): boolean {
    return this.whole;
  }

  /** The `microtimestamp` the book stands at, or -1 while it is not whole. */
  get microtimestamp(): number {
    return this.whole ? this.stampAt : -1;
  }

  /** Diffs held for a snapshot. */
  get buffered(): number {
    return this.buffer.length;
  }

  /** Forgets everything (a reconnect: a new subscription): the next diffs are buffered for a fresh snapshot. */
  reset(): void {
    this.clear();
    this.buffer = [];
    this.seenAt = -1;
    this.floorAt = -1;
  }

  onDiff(d: BitstampDiff): SyncOutcome {
    if (d.microtimestamp > this.seenAt) this.seenAt = d.microtimestamp;
    if (!this.whole) {
      if (this.buffer.length >= MAX_BUFFERED_EVENTS) this.buffer.shift();
      this.buffer.push(d);
      return 'buffered';
    }
    const outcome = this.next(d, true);
    if (outcome === 'gap') {
      // A crossing is seen only once the diff is in: what it recorded is not to be published.
      this.changes.length = 0;
      this.broken();
    }
    return outcome;
  }

  /**
   * A REST snapshot stamped `microtimestamp`: `bids`/`asks` flat [price_1e9, qty_1e8, ...]. It
   * must reach the first diff buffered and, after a gap, every diff seen: else `stale`.
   */
  onSnapshot(microtimestamp: number, bids: readonly number[], asks: readonly number[]): SyncOutcome {
    // A snapshot in place of a whole book must reach every diff that book holds.
    if (this.whole) this.floorAt = Math.max(this.floorAt, this.seenAt);
    const held = this.buffer;
    this.clear();
    this.buffer = held;
    if (microtimestamp < this.floorAt || (held.length > 0 && microtimestamp < held[0]!.microtimestamp)) {
      // Changes the stream no longer holds may be missing from it: keep the stream, fetch another.
      return 'stale';
    }
    this.buffer = [];
    for (let i = 0; i < bids.length; i += 2) this.book.set(Side.BID, bids[i]!, bids[i + 1]!);
    for (let i = 0; i < asks.length; i += 2) this.book.set(Side.ASK, asks[i]!, asks[i + 1]!);
    this.whole = true;
    this.snapshotAt = microtimestamp;
    this.stampAt = microtimestamp;
    this.wasCrossed = this.crossed();
    for (let i = 0; i < held.length; i++) {
      if (this.next(held[i]!, false) === 'gap') {
        this.broken();
        return 'gap';
      }
    }
    // The whole book is published on a sync: the played-back changes are in it.
    this.changes.length = 0;
    return 'synced';
  }

  /**
   * A diff of this subscription that could not be read exactly (codec.ts `unreadable`): a change
   * is missing, so it is a gap whether or not the book was whole. Unlike `reset`, the stamps seen
   * stay: the next snapshot must reach every diff seen, or it may predate the lost one.
   */
  onUnreadable(): SyncOutcome {
    this.changes.length = 0;
    this.broken();
    return 'gap';
  }

  /** One diff on a whole book: dropped if the snapshot has it, applied if it is in order, else a gap. */
  private next(d: BitstampDiff, record: boolean): SyncOutcome {
    if (d.microtimestamp <= this.snapshotAt) return 'buffered';
    if (d.microtimestamp < this.stampAt) return 'gap';
    const { book, changes } = this;
    for (let i = 0; i < d.bids.length; i += 2) {
      book.set(Side.BID, d.bids[i]!, d.bids[i + 1]!);
      if (record) changes.push(Side.BID, d.bids[i]!, d.bids[i + 1]!);
    }
    for (let i = 0; i < d.asks.length; i += 2) {
      book.set(Side.ASK, d.asks[i]!, d.asks[i + 1]!);
      if (record) changes.push(Side.ASK, d.asks[i]!, d.asks[i + 1]!);
    }
    this.stampAt = d.microtimestamp;
    const crossed = this.crossed();
    if (crossed && this.wasCrossed) return 'gap';
    this.wasCrossed = crossed;
    return 'applied';
  }

  /** A gap: the book and what is buffered are gone, so the next snapshot must reach every diff seen. */
  private broken(): void {
    this.clear();
    this.buffer = [];
    this.floorAt = this.seenAt;
  }

  /** The book is no longer whole (the buffer and the subscription's stamps stay). */
  private clear(): void {
    this.book.clear();
    this.whole = false;
    this.snapshotAt = -1;
    this.stampAt = -1;
    this.wasCrossed = false;
  }

  private crossed(): boolean {
    const bid = this.book.best(Side.BID);
    const ask = this.book.best(Side.ASK);
    return bid !== undefined && ask !== undefined && bid >= ask;
  }
}
