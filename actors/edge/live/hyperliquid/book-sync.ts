import { Side } from '../../../../domain/market.ts';
import type { FeedOutcome, FeedSync } from '../book-feeds.ts';
import type { L2Book } from '../l2-book.ts';

/** One `l2Book` snapshot (WebSocket push or `POST /info {type: "l2Book"}` answer), decoded by `codec.ts`. */
export interface HyperliquidBookData {
  /** Hyperliquid's coin, `BTC` */
  coin: string;
  /** the venue's `time`, ms */
  time_ms: number;
  /** every level of the side, flat [price_1e9, qty_1e8, ...], best first as sent */
  bids: number[];
  asks: number[];
}

/**
 * Hyperliquid's `l2Book` WebSocket channel kept as the venue's book. Every push is a whole
 * snapshot of the (up to 20) levels a side the venue sends, `{coin, time, levels: [bids, asks]}`
 * (docs: websocket/subscriptions, `WsBook`; info-endpoint "L2 book snapshot": "Returns at most 20
 * levels per side"): there are no deltas, no sequence numbers and no checksum, so a lost push is
 * healed by the next one and nothing can be a gap.
 *
 *  - the first push after a (re)subscription replaces the book and makes it whole: 'synced', the
 *    whole book published at once (no changes recorded);
 *  - every later push replaces the book too, but only the levels that differ from the book it
 *    replaces are applied and published, as [side, price_1e9, qty_1e8] with 0 for a level that
 *    is gone: the edge's consumers were told the old book, and a diff is what keeps them equal
 *    to the new one without re-sending 40 unchanged levels several times a second;
 *  - a push whose `time` is older than the last applied one is 'stale' and ignored (the book
 *    stays as the newer push left it, and stays whole). On one connection pushes come in order,
 *    so an older one means a resubscription raced an old subscription's frames;
 *  - a push that could not be read (`onUnreadable`) leaves the book unknown: 'gap'.
 *
 * The levels per price are kept beside the book so the diff is per price, not per position:
 * the 20-level window slides as the market moves, and a level that merely shifted position is
 * not a change. Pure.
 */
export class HyperliquidBookSync implements FeedSync {
  private whole = false;
  private last_ms = -Infinity;
  /** the book's levels by price, per side, exactly as the last applied push left them */
  private readonly levels: [Map<number, number>, Map<number, number>] = [new Map(), new Map()];

  /** @param changes receives each changed level as [side, price_1e9, qty_1e8]; the caller drains it */
  constructor(
    private readonly book: L2Book,
    private readonly changes: number[],
  ) {}

  /** The book is the venue's last push. */
  get synced(): boolean {
    return this.whole;
  }

  /** The `time` of the last push applied (ms); -Infinity before the first. */
  get lastTimeMs(): number {
    return this.last_ms;
  }

  /** Forgets the book (a reconnect, an unreadable push): nothing is whole until the next push. */
  reset(): void {
    this.book.clear();
    this.levels[0].clear();
    this.levels[1].clear();
    this.whole = false;
    this.last_ms = -Infinity;
  }

  /** A push for this book's coin. */
  onBook(data: HyperliquidBookData): FeedOutcome {
    if (this.whole && data.time_ms < this.last_ms) return 'stale';
    const first = !this.whole;
    this.replace(Side.BID, data.bids, !first);
    this.replace(Side.ASK, data.asks, !first);
    this.last_ms = data.time_ms;
    if (!first) return 'applied';
    this.whole = true;
    // The whole book is published on a sync, not its levels one by one.
    this.changes.length = 0;
    return 'synced';
  }

  /** A push that named this coin but could not be read exactly: the book is no longer known. */
  onUnreadable(): FeedOutcome {
    this.reset();
    return 'gap';
  }

  private replace(side: Side, flat: readonly number[], record: boolean): void {
    const old = this.levels[side];
    const next = new Map<number, number>();
    // A price sent twice keeps its last quantity, as setting the levels in order would.
    for (let i = 0; i < flat.length; i += 2) {
      const qty = flat[i + 1]!;
      if (qty > 0) next.set(flat[i]!, qty);
      else next.delete(flat[i]!);
    }
    const { book, changes } = this;
    for (const px of old.keys()) {
      if (next.has(px)) continue;
      book.set(side, px, 0);
      if (record) changes.push(side, px, 0);
    }
    for (const [px, qty] of next) {
      if (old.get(px) === qty) continue;
      book.set(side, px, qty);
      if (record) changes.push(side, px, qty);
    }
    this.levels[side] = next;
  }
}
