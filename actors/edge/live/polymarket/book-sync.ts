import { Side } from '../../../../domain/market.ts';
import type { FeedOutcome, FeedSync } from '../book-feeds.ts';
import type { L2Book } from '../l2-book.ts';

/**
 * One token's full book as Polymarket publishes it, decoded by `codec.ts`: a market-channel
 * `book` event (sent on subscription and again after every trade that touches the book) or a
 * REST `GET /book` answer.
 */
export interface PolymarketBookSnapshot {
  /** the venue's token id (decimal, as the venue writes it) */
  asset_id: string;
  /** every level, flat [price_1e9, qty_1e8, ...], in any order (the venue sends worst first) */
  bids: number[];
  asks: number[];
  /** the venue's `timestamp`, ms */
  ts_ms: number;
  /** the venue's `hash` of the book (SHA-1 hex; `0x`-prefixed on some answers), or null */
  hash: string | null;
  source: 'stream' | 'rest';
}

/** One level of a `price_change` event: the level's new absolute size (0 removes it). */
export interface PolymarketLevelChange {
  asset_id: string;
  side: Side;
  price_1e9: number;
  qty_1e8: number;
  /** the event's `timestamp`, ms (one per message, shared by all its changes) */
  ts_ms: number;
  hash: string | null;
}

/** What `audit` concluded from a REST book read against the book kept from the stream. */
export type AuditVerdict =
  /** the same levels */
  | 'agree'
  /** different levels, but the two may describe different instants (a change still on its way): check again */
  | 'suspect'
  /** the book is wrong: reset, and settled by the caller as a gap */
  | 'gap'
  /** nothing to compare: the book is not whole */
  | 'idle';

/** Changes kept while the book is not whole, replayed onto the snapshot that makes it whole. */
const DEFAULT_MAX_PENDING = 10_000;

/**
 * A token's book on Polymarket's market channel (wss://ws-subscriptions-clob.polymarket.com/ws/market)
 * kept whole, after the channel's documentation (docs.polymarket.com/market-data/websocket/market-channel)
 * and what the SDKs decode from it (Polymarket/clob-client-v2, nautilus_trader's Polymarket adapter):
 *
 *  - `book` carries every level of the token (a full snapshot), on subscription and after each
 *    trade that affects the book. `price_change` carries levels set by placements and cancels,
 *    each with its new absolute size (0 removes the level), its side (BUY: bids, SELL: asks) and
 *    the book's `hash` after it. REST `GET /book` answers the same full book.
 *  - Polymarket publishes NO sequence number. What the sync can detect:
 *      1. a `price_change` for a token whose book was never snapshotted (or was reset): the first
 *         one answers 'gap' so the caller resyncs now rather than after its confirm timer; later
 *         ones are kept for the replay ('buffered');
 *      2. time going backwards: a `price_change` or a stream `book` older than the last event
 *         applied ('gap'). Within one connection events arrive in order, so an older one means
 *         a reordered or replayed stream;
 *      3. a REST re-check (`audit`) that disagrees with the kept book while carrying the very
 *         hash the stream last reported (the venue says both describe the same book), or that
 *         disagrees twice in a row ('gap').
 *    What it cannot detect: a `price_change` lost on the way to a level that a later event does
 *    not touch again, until a `book` (any trade) rewrites the token or an audit catches it. The
 *    `hash` cannot be verified locally: it is SHA-1 over the server's JSON of the whole book
 *    summary (market, asset_id, timestamp, every level's exact text, min_order_size, tick_size,
 *    neg_risk, last_trade_price — py-clob-client(-v2) `generate_orderbook_summary_hash`), most of
 *    which the stream does not carry, and V2's rewritten backend has not been checked against it.
 *    It is kept only to compare against a REST answer's hash.
 *  - `tick_size_change` makes every level suspect (0.505 is a level at tick 0.001, not at 0.01):
 *    the book is dropped until a fresh snapshot, as nautilus_trader's adapter does.
 *
 * Resync without a sequence number: while not whole the sync keeps the changes it receives with
 * their timestamps. A snapshot at time T (REST or stream) then replays, in order, every kept
 * change with a timestamp >= T. Sizes are absolute, so replaying a change the snapshot already
 * holds sets the level to the value it has; changes at T the snapshot missed land in order after
 * it. This assumes the stream's and REST's timestamps come from the same venue clock and that a
 * snapshot taken at T holds every change stamped before T. When more changes arrive than are
 * kept, a snapshot older than the newest one dropped cannot be bridged ('stale': ask again).
 *
 * Changes published for an applied event are its levels as [side, price_1e9, qty_1e8] (a stream
 * `book` on a whole book is published as the levels it changed, removals as 0), so a book built
 * from them stays the venue's book. Pure: no clock; time is the venue's.
 */
export class PolymarketBookSync implements FeedSync {
  private whole = false;
  /** the newest event time applied to the book (ms) */
  private lastTs = -1;
  private lastHash: string | null = null;
  /** a gap was already reported since the book was last whole */
  private gapReported = false;
  private pending: PolymarketLevelChange[] = [];
  /** the newest timestamp among changes dropped from `pending` (-1: none dropped) */
  private droppedTs = -1;
  /** consecutive audits that found different levels */
  private strikes = 0;
  /** the token's tick (1e9), once told by a snapshot's answer or a tick_size_change; null until then */
  tick_1e9: number | null = null;

  /**
   * @param changes receives each applied level as [side, price_1e9, qty_1e8]; the caller drains it
   */
  constructor(
    private readonly book: L2Book,
    private readonly changes: number[],
    private readonly maxPending = DEFAULT_MAX_PENDING,
  ) {}

  get synced(): boolean {
    return this.whole;
  }

  /** The newest event time applied (ms), -1 before any. */
  get lastEventMs(): number {
    return this.lastTs;
  }

  /** The hash the stream last reported for the book, null before any. */
  get lastStreamHash(): string | null {
    return this.lastHash;
  }

  /** Changes kept for the next snapshot's replay. */
  get pendingCount(): number {
    return this.pending.length;
  }

  /** Forgets the book (a gap, a closed stream): nothing is whole until the next snapshot. */
  reset(): void {
    this.book.clear();
    this.whole = false;
    this.gapReported = false;
    this.pending = [];
    this.droppedTs = -1;
    this.strikes = 0;
    this.lastHash = null;
  }

  onSnapshot(s: PolymarketBookSnapshot): FeedOutcome {
    if (this.whole) return this.onSnapshotWhole(s);
    if (this.droppedTs >= s.ts_ms) {
      // Changes stamped at or after the snapshot were dropped: the replay could not restore them.
      this.pending = [];
      this.droppedTs = -1;
      return 'stale';
    }
    this.book.clear();
    this.setAll(Side.BID, s.bids);
    this.setAll(Side.ASK, s.asks);
    this.lastTs = s.ts_ms;
    this.lastHash = s.hash;
    for (const c of this.pending) {
      if (c.ts_ms < s.ts_ms) continue;
      this.book.set(c.side, c.price_1e9, c.qty_1e8);
      this.lastTs = c.ts_ms;
      this.lastHash = c.hash;
    }
    this.pending = [];
    this.droppedTs = -1;
    this.whole = true;
    this.gapReported = false;
    this.strikes = 0;
    // The whole book is published on a sync, not its levels one by one.
    this.changes.length = 0;
    return 'synced';
  }

  onChange(c: PolymarketLevelChange): FeedOutcome {
    if (!this.whole) {
      this.keep(c);
      if (this.gapReported) return 'buffered';
      this.gapReported = true;
      return 'gap';
    }
    if (c.ts_ms < this.lastTs) return this.gap(c);
    this.book.set(c.side, c.price_1e9, c.qty_1e8);
    this.changes.push(c.side, c.price_1e9, c.qty_1e8);
    this.lastTs = c.ts_ms;
    this.lastHash = c.hash;
    return 'applied';
  }

  /** Several changes of one `price_change` message, applied in order; the first gap stops it. */
  onChanges(list: readonly PolymarketLevelChange[]): FeedOutcome {
    let outcome: FeedOutcome = 'applied';
    for (let i = 0; i < list.length; i++) {
      const o = this.onChange(list[i]!);
      if (o === 'gap') {
        // What follows in the message is kept for the replay after the resync.
        for (let j = i + 1; j < list.length; j++) this.keep(list[j]!);
        return 'gap';
      }
      if (o === 'buffered') outcome = 'buffered';
    }
    return outcome;
  }

  /** The token's tick changed: old levels may be off the new grid, so the book waits for a snapshot. */
  onTickSizeChange(tick_1e9: number): FeedOutcome {
    this.tick_1e9 = tick_1e9;
    const wasWhole = this.whole;
    this.reset();
    // The venue follows a tick change with a snapshot; the gap makes the caller resync if it does not.
    this.gapReported = true;
    return wasWhole ? 'gap' : 'buffered';
  }

  /**
   * Compares a REST `GET /book` answer with the book kept from the stream (the periodic re-check
   * Polymarket's missing sequence numbers call for). The two reads are not synchronised: a change
   * can be in flight on the stream while REST already shows it, so one difference is only
   * 'suspect'. Two in a row, or one where the REST hash equals the hash the stream last reported
   * (the venue says both are the same book), mean the kept book is wrong: it is reset and 'gap'
   * answered. Nothing is published.
   */
  audit(s: PolymarketBookSnapshot): AuditVerdict {
    if (!this.whole) return 'idle';
    if (this.sameLevels(Side.BID, s.bids) && this.sameLevels(Side.ASK, s.asks)) {
      this.strikes = 0;
      return 'agree';
    }
    const sameHash = s.hash !== null && this.lastHash !== null && normalizeHash(s.hash) === normalizeHash(this.lastHash);
    if (sameHash || ++this.strikes >= 2) {
      this.reset();
      this.gapReported = true;
      return 'gap';
    }
    return 'suspect';
  }

  /** A stream `book` on a whole book: published as the levels it changed. */
  private onSnapshotWhole(s: PolymarketBookSnapshot): FeedOutcome {
    if (s.ts_ms < this.lastTs) return this.gap(null);
    this.diffInto(Side.BID, s.bids);
    this.diffInto(Side.ASK, s.asks);
    this.lastTs = s.ts_ms;
    this.lastHash = s.hash;
    this.strikes = 0;
    return 'applied';
  }

  private gap(keep: PolymarketLevelChange | null): FeedOutcome {
    this.reset();
    this.gapReported = true;
    if (keep !== null) this.keep(keep);
    return 'gap';
  }

  private keep(c: PolymarketLevelChange): void {
    if (this.pending.length >= this.maxPending) {
      const dropped = this.pending.shift()!;
      if (dropped.ts_ms > this.droppedTs) this.droppedTs = dropped.ts_ms;
    }
    this.pending.push(c);
  }

  private setAll(side: Side, levels: readonly number[]): void {
    for (let i = 0; i < levels.length; i += 2) this.book.set(side, levels[i]!, levels[i + 1]!);
  }

  private diffInto(side: Side, levels: readonly number[]): void {
    const next = new Map<number, number>();
    for (let i = 0; i < levels.length; i += 2) if (levels[i + 1]! > 0) next.set(levels[i]!, levels[i + 1]!);
    const current = this.book.flat(side, this.book.depth(side));
    for (let i = 0; i < current.length; i += 2) {
      const px = current[i]!;
      if (!next.has(px)) {
        this.book.set(side, px, 0);
        this.changes.push(side, px, 0);
      }
    }
    const had = new Map<number, number>();
    for (let i = 0; i < current.length; i += 2) had.set(current[i]!, current[i + 1]!);
    for (const [px, qty] of next) {
      if (had.get(px) === qty) continue;
      this.book.set(side, px, qty);
      this.changes.push(side, px, qty);
    }
  }

  private sameLevels(side: Side, levels: readonly number[]): boolean {
    const want = new Map<number, number>();
    for (let i = 0; i < levels.length; i += 2) if (levels[i + 1]! > 0) want.set(levels[i]!, levels[i + 1]!);
    if (want.size !== this.book.depth(side)) return false;
    const have = this.book.flat(side, this.book.depth(side));
    for (let i = 0; i < have.length; i += 2) if (want.get(have[i]!) !== have[i + 1]) return false;
    return true;
  }
}

/** The book hash compared without the `0x` some answers carry, and without case. */
function normalizeHash(hash: string): string {
  return (hash.startsWith('0x') ? hash.slice(2) : hash).toLowerCase();
}
