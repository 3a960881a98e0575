import { Side } from '../../../../domain/market.ts';
import type { FeedOutcome, FeedSync } from '../book-feeds.ts';
import type { L2Book } from '../l2-book.ts';

/**
 * The depths of the spot `orderbook.{depth}.{symbol}` topic (docs, WebSocket "Orderbook",
 * "Depths", Spot: 1 at 10 ms, 50 at 20 ms, 200 at 100 ms, 1000 at 200 ms; level 1000 added
 * 2025-08-14, level 200 moved to 100 ms 2026-03-19 per the v5 changelog). 50 matches the levels the
 * edge publishes (its snapshot and depth-cache depth).
 */
export type BybitBookDepth = 1 | 50 | 200 | 1000;
export const SPOT_BOOK_DEPTHS: readonly BybitBookDepth[] = [1, 50, 200, 1000];

/** One `orderbook` push, decoded by `codec.ts`. */
export interface BybitBookData {
  /** Bybit's symbol (`data.s`, `BTCUSDT`) */
  symbol: string;
  /** all (snapshot) or changed (delta) levels, flat [price_1e9, qty_1e8, ...]; qty 0 removes */
  bids: number[];
  asks: number[];
  /** `data.u`, the update id */
  u: number;
  /** `data.seq`, the cross sequence (orders pushes across depths; not consecutive); -1 when absent */
  seq: number;
  /** `ts`: when the venue's system made the push, ms */
  ts_ms: number;
  /** `cts`: the matching engine's time of this book, ms; null when absent */
  cts_ms: number | null;
}

/**
 * Bybit v5's rules for keeping a local book from the public `orderbook.{depth}.{symbol}` topic
 * (https://bybit-exchange.github.io/docs/v5/websocket/public/orderbook, "Process
 * snapshot/delta"; the `u` continuity rules as the same venue states them for its binary
 * level-50 feed to market makers and its spot `orderbook.full` feed: docs/v5/sbe/market/level-50
 * and docs/v5/websocket/public/full-ob):
 *
 *  - a subscription answers with a `snapshot`, then `delta`s of absolute sizes (0 deletes the
 *    level). Any new `snapshot` resets the book; one is re-sent "if there is a problem on Bybit's
 *    end" and is "guaranteed to contain the latest data". So every snapshot is taken as the
 *    book, whatever its `u`.
 *  - `u` is the update id. The orderbook page itself only says `u` = 1 means a snapshot after a
 *    service restart ("overwrite your local orderbook"). The level-50 SBE page and the full-book
 *    page say more: `u` rises by exactly 1 from one push to the next, snapshots included (a
 *    snapshot sent instead of a delta of more than 100 levels keeps the count: 10002 delta,
 *    10003 snapshot, 10004 delta), and resets to 1 only on a restart or a precision change. The
 *    same rule is taken here: a delta whose `u` is not the last `u` + 1 means pushes were lost.
 *  - spot level 1 is snapshots only, and re-pushes the same snapshot with the same `u` after 3 s
 *    without a change.
 *
 * Outcomes: a snapshot on a book that is not whole, or one that breaks the count (`u` = 1, a
 * jump), is 'synced' (the book is whole from it: publish it entire). A snapshot that continues
 * the count on a whole book (`u` = last + 1, or = last for level 1's repeat) replaces the book
 * too, but is 'applied': its difference from the book it replaces is published as changes, so
 * a book kept from the changes stays the venue's without a full republish at every level-1
 * push (every 10 ms). A delta at last + 1 is 'applied'; one repeating the last `u` is dropped ('buffered');
 * any other (a jump, `u` running backwards, a delta `u` = 1 with no snapshot) is a 'gap': the
 * book is cleared and the caller resubscribes for a new snapshot (Bybit has no REST snapshot
 * that bridges the depth-limited streams). A delta before the first snapshot is 'buffered'
 * (nothing to build on). 'stale' is never answered: the snapshot comes on the stream itself
 * and is the venue's latest, unlike a REST snapshot racing a stream (Binance).
 *
 * A stream that runs backwards is a gap rather than old pushes to ignore (the full-book page's
 * "ignore an event whose u is less than the book's" is for its buffered-before-snapshot case):
 * on one connection nothing older can follow what came, and a book ignoring such a stream would
 * sit frozen while claiming to be whole.
 *
 * The book is kept to the subscribed depth after every push, each level it drops published as
 * removed. The docs do not say whether a level pushed out of the top `depth` is sent as a
 * deletion; if it is, this removes nothing; if not, the book still holds exactly the venue's
 * top `depth` (the level that fell out is worse than every level that stayed). Pure.
 */
export class BybitBookSync implements FeedSync {
  private whole = false;
  private lastU = -1;
  private scratchPx = new Float64Array(64);
  private scratchQty = new Float64Array(64);

  /**
   * @param changes receives each published level as [side, price_1e9, qty_1e8]; the caller drains it
   * @param depth the depth subscribed (the book is kept to it)
   */
  constructor(
    private readonly book: L2Book,
    private readonly changes: number[],
    readonly depth: BybitBookDepth = 50,
  ) {}

  /** The book is whole: a snapshot and every push since, in sequence. */
  get synced(): boolean {
    return this.whole;
  }

  /** The last applied `u`, or -1 while the book is not whole. */
  get updateId(): number {
    return this.whole ? this.lastU : -1;
  }

  /** Forgets the book (a gap, a reconnect): nothing is whole until the next snapshot. */
  reset(): void {
    this.book.clear();
    this.whole = false;
    this.lastU = -1;
  }

  onPush(type: 'snapshot' | 'delta', data: BybitBookData): FeedOutcome {
    return type === 'snapshot' ? this.onSnapshot(data) : this.onDelta(data);
  }

  onSnapshot(data: BybitBookData): FeedOutcome {
    if (this.whole && data.u !== 1 && (data.u === this.lastU + 1 || data.u === this.lastU)) {
      this.replace(data);
      this.lastU = data.u;
      return 'applied';
    }
    this.reset();
    this.side(Side.BID, data.bids, false);
    this.side(Side.ASK, data.asks, false);
    this.truncate(Side.BID, false);
    this.truncate(Side.ASK, false);
    this.lastU = data.u;
    this.whole = true;
    // The whole book is published on a sync, not its levels one by one.
    this.changes.length = 0;
    return 'synced';
  }

  onDelta(data: BybitBookData): FeedOutcome {
    // Before the snapshot (or after a gap, until the new one): nothing to build on.
    if (!this.whole) return 'buffered';
    if (data.u === this.lastU + 1 && data.u !== 1) {
      this.side(Side.BID, data.bids, true);
      this.side(Side.ASK, data.asks, true);
      this.truncate(Side.BID, true);
      this.truncate(Side.ASK, true);
      this.lastU = data.u;
      return 'applied';
    }
    if (data.u === this.lastU && data.u !== 1) return 'buffered';
    this.reset();
    return 'gap';
  }

  /**
   * A push of this topic that could not be read exactly (a number past our scales): the book is
   * no longer known. Always a 'gap', so the caller resubscribes even while awaiting a snapshot
   * (an unreadable snapshot would otherwise leave it waiting for one that already came).
   */
  onUnreadable(): FeedOutcome {
    this.reset();
    return 'gap';
  }

  private side(side: Side, levels: readonly number[], record: boolean): void {
    const { book, changes } = this;
    for (let i = 0; i < levels.length; i += 2) {
      const px = levels[i]!;
      const qty = levels[i + 1]!;
      book.set(side, px, qty);
      if (record) changes.push(side, px, qty);
    }
  }

  /**
   * The book becomes the snapshot's; what differs from before is published: removals for levels
   * it no longer has, then every level it sets to a new quantity. Rare enough (a snapshot in
   * place of a large delta, level 1's pushes) that maps are fine here.
   */
  private replace(data: BybitBookData): void {
    for (const side of [Side.BID, Side.ASK] as const) {
      const levels = side === Side.BID ? data.bids : data.asks;
      const next = new Map<number, number>();
      for (let i = 0; i < levels.length; i += 2) {
        const qty = levels[i + 1]!;
        if (qty > 0) next.set(levels[i]!, qty);
        else next.delete(levels[i]!);
      }
      const before = this.book.flat(side, this.book.depth(side));
      const had = new Map<number, number>();
      for (let i = 0; i < before.length; i += 2) {
        const px = before[i]!;
        had.set(px, before[i + 1]!);
        if (!next.has(px)) {
          this.book.set(side, px, 0);
          this.changes.push(side, px, 0);
        }
      }
      for (const [px, qty] of next) {
        if (had.get(px) === qty) continue;
        this.book.set(side, px, qty);
        this.changes.push(side, px, qty);
      }
      this.truncate(side, true);
    }
  }

  /** Drops the levels past the subscribed depth, worst first. */
  private truncate(side: Side, record: boolean): void {
    const count = this.book.depth(side);
    if (count <= this.depth) return;
    if (this.scratchPx.length < count) {
      this.scratchPx = new Float64Array(count);
      this.scratchQty = new Float64Array(count);
    }
    this.book.levelsInto(side, count, this.scratchPx, 0, this.scratchQty, 0);
    for (let i = count - 1; i >= this.depth; i--) {
      const px = this.scratchPx[i]!;
      this.book.set(side, px, 0);
      if (record) this.changes.push(side, px, 0);
    }
  }
}
