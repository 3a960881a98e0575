import { Side } from '../../../../domain/market.ts';
import type { FeedOutcome, FeedSync } from '../book-feeds.ts';
import type { L2Book } from '../l2-book.ts';

/** One product's event of an `l2_data` message (an element of its `events`), decoded by `codec.ts`. */
export interface CoinbaseL2Event {
  type: 'snapshot' | 'update';
  /** the venue's product id as the event names it (`BTC-USD`; a `-USDC` book comes back as its `-USD` alias) */
  product_id: string;
  /** all (snapshot) or changed (update) levels, flat [price_1e9, qty_1e8, ...]; qty 0 removes, in the order sent */
  bids: number[];
  asks: number[];
}

/**
 * What the connection's sequence says of a message: the first one seen since the connection (or
 * the gate) was reset, the one right after the last, or a gap (a number that is not the last
 * plus one: a message was lost, or came out of order).
 */
export type SequenceVerdict = 'first' | 'next' | 'gap';

/**
 * The `sequence_num` check of one WebSocket connection to the Advanced Trade market data feed.
 *
 * Why a gate apart from the books: every message on the connection carries `sequence_num` in its
 * envelope (`{channel, client_id, timestamp, sequence_num, events}`), and the number counts the
 * messages of the connection, across its channels (`heartbeats`, `subscriptions`, `l2_data`, ...),
 * not the updates of one product. A gap is therefore seen on whatever message follows the lost
 * one, often a heartbeat or another product's update, and says nothing of which product lost an
 * update. So the adapter keeps one gate per connection, shows it every message that has a
 * `sequence_num` before applying anything in that message, and on 'gap' tells every book on the
 * connection (`CoinbaseBookSync.onConnectionGap`), whether or not the message at hand is one of
 * its own. The book syncs themselves never see sequence numbers.
 *
 * The per-connection scope is this adapter's premise, consistent with the docs' envelope (the
 * number sits beside `channel`, outside the per-product events, and the docs print it on
 * `heartbeats` and `subscriptions` messages too); the Coinbase pages read for this do not spell
 * the scope out, so it is to be confirmed on the live feed. Should it prove per channel, the
 * adapter keeps one gate per channel instead (a per-connection gate would then report a gap on
 * the first heartbeat after any book update, at once and every time): the gate does not change.
 *
 * After a gap the gate takes the new number as its base (the loss was reported once; the next
 * message is checked against this one). `reset` on every new connection: the count starts over.
 * Pure.
 */
export class SequenceGate {
  private last: number | null = null;
  /** gaps seen since the gate was made (diagnostics) */
  gaps = 0;

  /** The last number seen, or null before the first message of the connection. */
  get lastSeq(): number | null {
    return this.last;
  }

  /** Forgets the connection's count (a new connection). */
  reset(): void {
    this.last = null;
  }

  /** Checks and records a message's `sequence_num` (a non-negative integer, as `codec.ts` reads it). */
  observe(seq: number): SequenceVerdict {
    const last = this.last;
    this.last = seq;
    if (last === null) return 'first';
    if (seq === last + 1) return 'next';
    this.gaps++;
    return 'gap';
  }
}

/**
 * One product's book from Coinbase Advanced Trade's `level2` channel (messages of channel
 * `l2_data`), after https://docs.cdp.coinbase.com/coinbase-app/advanced-trade-apis/websocket/websocket-channels
 * ("Level2 Channel": guarantees delivery of all updates and is the easiest way to keep an order
 * book snapshot in sync):
 *
 *  - a subscription answers with one `snapshot` event of the product's whole book, then `update`
 *    events; each entry `{side: bid|offer, price_level, new_quantity}` sets the level's absolute
 *    quantity ("the updated size at that price level, not a delta"), "0" removing it. Entries are
 *    applied in the order sent; one event is applied whole before the outcome is reported.
 *  - there is no per-product sequence and no checksum: what can break the book is a message lost
 *    on the connection, which the connection's `SequenceGate` sees and reports here through
 *    `onConnectionGap` (the book is cleared and 'gap' answered; the caller subscribes the product
 *    again, unsubscribing first, for a fresh snapshot). A stream closed is `reset` (BookFeeds.down).
 *  - updates before the first snapshot (or after a gap, before the new one) have nothing to build
 *    on and are 'buffered' (dropped: the snapshot that follows covers them).
 *  - a snapshot on a book already whole (a resubscription) replaces it.
 *
 * Changes published for an update are its entries as applied, [side, price_1e9, qty_1e8] each,
 * as the OKX and Kraken syncs record them; a snapshot publishes the whole book instead (the
 * `changes` array is emptied). The snapshot is the whole book, so nothing is truncated. Pure.
 */
export class CoinbaseBookSync implements FeedSync {
  private whole = false;

  /**
   * @param changes receives each applied level as [side, price_1e9, qty_1e8]; the caller drains it
   */
  constructor(
    private readonly book: L2Book,
    private readonly changes: number[],
  ) {}

  /** The book is whole: a snapshot and every update since, no message lost on the connection. */
  get synced(): boolean {
    return this.whole;
  }

  /** Forgets the book (a gap, a reconnect): nothing is whole until the next snapshot. */
  reset(): void {
    this.book.clear();
    this.whole = false;
  }

  onEvent(event: CoinbaseL2Event): FeedOutcome {
    return event.type === 'snapshot' ? this.onSnapshot(event) : this.onUpdate(event);
  }

  onSnapshot(event: CoinbaseL2Event): FeedOutcome {
    this.reset();
    this.apply(event, false);
    this.whole = true;
    // The whole book is published on a sync, not its levels one by one.
    this.changes.length = 0;
    return 'synced';
  }

  onUpdate(event: CoinbaseL2Event): FeedOutcome {
    // Before the snapshot (or after a gap, until the new one): nothing to build on.
    if (!this.whole) return 'buffered';
    this.apply(event, true);
    return 'applied';
  }

  /**
   * A message was lost on the connection (its `SequenceGate` said 'gap'): any product's update may
   * have been in it, so this book is no longer known to be whole. Answers 'gap' whether or not the
   * book was whole: a snapshot still awaited may have been the message lost, and the caller's
   * resync then asks for it again.
   */
  onConnectionGap(): FeedOutcome {
    this.reset();
    return 'gap';
  }

  /** An event of this product could not be read exactly (`codec.ts` lists it unreadable): the book cannot take it. */
  onUnreadable(): FeedOutcome {
    this.reset();
    return 'gap';
  }

  private apply(event: CoinbaseL2Event, record: boolean): void {
    this.side(Side.BID, event.bids, record);
    this.side(Side.ASK, event.asks, record);
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
}
