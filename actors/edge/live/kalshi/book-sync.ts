import { Side, type Level } from '../../../../domain/market.ts';
import type { FeedOutcome, FeedSync } from '../book-feeds.ts';
import type { L2Book } from '../l2-book.ts';

/**
 * Kalshi's books kept whole from the `orderbook_delta` WebSocket channel (and read from the REST
 * orderbook), after docs.kalshi.com (websockets/orderbook-updates, websockets/websocket-connection,
 * getting_started/orderbook_responses and order_direction; mirrored in github.com/ammario/kalshi-docs).
 *
 * Kalshi publishes bids only, on both outcomes of a binary market: YES bids and NO bids. A NO
 * bid at q (in NO prices) is a YES ask at 1 - q, with the same size: whoever pays q for NO takes
 * the other side of a YES buyer at 1 - q ("A NO BID at price Y is equivalent to a YES ASK at
 * price ($1.00 - Y)", orderbook_responses). So one L2Book in YES prices holds everything: bids
 * are the YES bids, asks the NO bids turned round. The NO leg's book is that book mirrored (NO
 * bids at 1 - YES ask, NO asks at 1 - YES bid): `legLevels` and `mirrorChanges`.
 *
 * How NO levels are priced on the wire: the REST orderbook and, by default, the WebSocket give
 * NO bids in NO prices ("no-leg pricing"); a subscription with `use_yes_price: true` gets them
 * in YES prices already (a NO bid at 0.30 reported as 0.70). Kalshi will make YES pricing the
 * only behaviour (the flag's default flips, then the flag goes, and `false` stops meaning
 * anything), so `codec.ts` subscribes with the flag set and every decoded message carries how its
 * NO prices are meant (`NoPricing`): the sync never guesses.
 *
 * Pure: no I/O, no clock.
 */

/** 1 USD in price units: a contract's prices are in (0, ONE). */
export const PRICE_ONE = 1_000_000_000;

/** How a message's NO-side prices are written: in NO prices (REST, legacy stream) or already in YES prices (`use_yes_price`). */
export type NoPricing = 'no-leg' | 'yes-leg';

/** A whole book of one market (`orderbook_snapshot`, or the REST orderbook), decoded by `codec.ts`. */
export interface KalshiBookSnapshot {
  /** the market ticker */
  ticker: string;
  /** YES bids, flat [price_1e9, qty_1e8, ...] in YES prices, in the order sent */
  yes: number[];
  /** NO bids, flat [price_1e9, qty_1e8, ...], priced as `noPricing` says */
  no: number[];
  noPricing: NoPricing;
}

/** One `orderbook_delta`: a change of size (not a size) at one price of one side. */
export interface KalshiBookDelta {
  ticker: string;
  side: 'yes' | 'no';
  /** a NO delta's price is priced as `noPricing` says */
  price_1e9: number;
  /** contracts added (positive) or taken away (negative), x 1e8 */
  delta_1e8: number;
  noPricing: NoPricing;
  /** `ts_ms`, when the venue recorded the change; null when absent */
  ts_ms: number | null;
  /** present when one of this account's orders caused the change */
  client_order_id: string | null;
}

/** Where a bid of `side` at `price_1e9` sits in the YES-priced book. */
export function yesBookLevel(side: 'yes' | 'no', price_1e9: number, noPricing: NoPricing): [Side, number] {
  if (side === 'yes') return [Side.BID, price_1e9];
  return [Side.ASK, noPricing === 'yes-leg' ? price_1e9 : PRICE_ONE - price_1e9];
}

/**
 * One market's book from its stream, in YES prices (bids: YES bids; asks: NO bids turned round).
 *
 *  - `orderbook_snapshot` replaces the book (a subscription's first message for each market,
 *    and the answer to an `update_subscription` `get_snapshot`): 'synced'.
 *  - `orderbook_delta` adds `delta_fp` contracts to one level (negative takes away; a level that
 *    reaches 0 is gone): 'applied', its level published as [side, price_1e9, qty_1e8] with the
 *    absolute size the level now has, as every sync publishes. Sizes are exact integers in 1e8
 *    (the wire has 2 decimals), so a level cancelled to nothing is exactly 0: no phantom dust.
 *  - a delta before the snapshot (or after a gap, before the next one) is 'buffered': nothing to
 *    build on.
 *  - a delta that would leave a level below 0 (taking away more than the book holds there) proves
 *    the book is not the venue's: 'gap', and the book is cleared.
 *  - sequence numbers are per subscription (`sid`), shared by every market of it, so the gap
 *    check is `KalshiBookStream`'s; it calls `onGap` on each book the lost message may have touched.
 */
export class KalshiBookSync implements FeedSync {
  private whole = false;
  /** the exact size per price of each side, to turn relative deltas into absolute levels */
  private readonly sizes: [Map<number, number>, Map<number, number>] = [new Map(), new Map()];

  /**
   * @param book the market's YES-priced book
   * @param changes receives each applied level as [side, price_1e9, qty_1e8]; the caller drains it
   */
  constructor(
    private readonly book: L2Book,
    private readonly changes: number[],
  ) {}

  /** The book is whole: a snapshot and every delta since, with no message of the subscription lost. */
  get synced(): boolean {
    return this.whole;
  }

  /** Forgets the book (a gap, a reconnect): nothing is whole until the next snapshot. */
  reset(): void {
    this.book.clear();
    this.sizes[0].clear();
    this.sizes[1].clear();
    this.whole = false;
  }

  onSnapshot(snapshot: KalshiBookSnapshot): FeedOutcome {
    this.reset();
    this.load('yes', snapshot.yes, snapshot.noPricing);
    this.load('no', snapshot.no, snapshot.noPricing);
    this.whole = true;
    // The whole book is published on a sync, not its levels one by one.
    this.changes.length = 0;
    return 'synced';
  }

  onDelta(delta: KalshiBookDelta): FeedOutcome {
    if (!this.whole) return 'buffered';
    const [side, price] = yesBookLevel(delta.side, delta.price_1e9, delta.noPricing);
    const sizes = this.sizes[side];
    const next = (sizes.get(price) ?? 0) + delta.delta_1e8;
    if (next < 0) {
      this.reset();
      return 'gap';
    }
    if (delta.delta_1e8 === 0) return 'applied';
    if (next === 0) sizes.delete(price);
    else sizes.set(price, next);
    this.book.set(side, price, next);
    this.changes.push(side, price, next);
    return 'applied';
  }

  /** A message this book may have needed was lost (or could not be read): the book is no longer known. */
  onGap(): FeedOutcome {
    this.reset();
    return 'gap';
  }

  /** The exact size at a YES-priced level (0 when none), for checks. */
  sizeAt(side: Side, price_1e9: number): number {
    return this.sizes[side].get(price_1e9) ?? 0;
  }

  private load(side: 'yes' | 'no', levels: readonly number[], noPricing: NoPricing): void {
    for (let i = 0; i < levels.length; i += 2) {
      const [s, price] = yesBookLevel(side, levels[i]!, noPricing);
      const qty = levels[i + 1]!;
      if (qty <= 0) continue;
      this.sizes[s].set(price, qty);
      this.book.set(s, price, qty);
    }
  }
}

/**
 * What the order book stream hands to `KalshiBookStream`: the book messages and the control
 * messages that carry the subscription's sequence, decoded by `codec.ts` (`decodeWsMessage`).
 */
export type KalshiStreamMessage =
  | { kind: 'snapshot'; sid: number; seq: number; data: KalshiBookSnapshot }
  | { kind: 'delta'; sid: number; seq: number; data: KalshiBookDelta }
  /** a book message that could not be read exactly: it still takes its place in the sequence */
  | { kind: 'unreadable'; type: string; sid: number | null; seq: number | null; ticker: string | null }
  | { kind: 'subscribed'; id: number | null; channel: string; sid: number }
  /** `update_subscription` answered (`add_markets`, `delete_markets`, `get_snapshot`); `list_subscriptions` answers with no sid */
  | { kind: 'ok'; id: number | null; sid: number | null; seq: number | null; market_tickers: string[] | null }
  | { kind: 'unsubscribed'; id: number | null; sid: number; seq: number | null }
  | { kind: 'error'; id: number | null; code: number; message: string }
  /** any other message (other channels): ignored by the books */
  | { kind: 'other'; type: string; sid: number | null; seq: number | null };

/** A book outcome for one market, for `BookFeeds.settle`. */
export interface MarketOutcome {
  ticker: string;
  outcome: FeedOutcome;
}

/**
 * WebSocket error codes after which messages of running subscriptions may be missing
 * (quick_start_websockets, "WebSocket Error Codes"): 25 "Subscription buffer overflow" (the
 * subscription's buffer overflowed during a burst) and 10 "Channel error" (an internal error
 * while starting or running a subscription). The error names no subscription, so every book is
 * taken as broken.
 */
export const BOOK_BREAKING_WS_ERRORS: ReadonlySet<number> = new Set([10, 25]);

interface SidState {
  /** the last `seq` taken; null before the subscription's first numbered message */
  last: number | null;
  /** the markets whose snapshot came on this subscription */
  tickers: Set<string>;
}

/**
 * The `orderbook_delta` subscriptions of one connection, and the gap check they need.
 *
 * `seq` is per subscription (`sid`): "Sequential number that should be checked if you want to
 * guarantee you received all the messages" (orderbook-updates). A session has one subscription
 * per channel (error 6 "Already subscribed: A subscription to the same channel is already active
 * in this session"); markets are added to it with `update_subscription` `add_markets`. So one
 * counter runs across every market of the subscription, and it also counts the `ok` and
 * `unsubscribed` answers that carry the sid (the docs' examples: `{"type":"ok","sid":456,
 * "seq":222}`, `{"type":"unsubscribed","sid":2,"seq":7}`). A lost message could have been any
 * market's: a jump breaks every book of the subscription (each one 'gap'), and each is resynced
 * (`get_snapshot`), its deltas 'buffered' until its snapshot comes, which continues the same
 * count.
 *
 *   seq            outcome
 *   first of sid   taken, whatever it is
 *   last + 1       taken
 *   last           a repeat: dropped
 *   > last + 1     gap: every whole book of the sid breaks; the count goes on from it
 *   < last         the count started again (the venue restarted it): as a gap
 *
 * The message that reveals a gap is still applied after the books are broken: a snapshot makes
 * its market whole again (its market is not reported broken first), a delta finds its book not
 * whole and is 'buffered'. Pure: the caller sends the resync commands.
 */
export class KalshiBookStream {
  private readonly sids = new Map<number, SidState>();
  private readonly sidOfTicker = new Map<string, number>();

  /** @param syncOf a subscribed market's sync by ticker; undefined for a market no longer followed */
  constructor(private readonly syncOf: (ticker: string) => KalshiBookSync | undefined) {}

  /** A new connection: no subscription is known and every count starts again. */
  reset(): void {
    this.sids.clear();
    this.sidOfTicker.clear();
  }

  /** The subscription a market's book came on, if any (for `get_snapshot` and `delete_markets`). */
  sidOf(ticker: string): number | undefined {
    return this.sidOfTicker.get(ticker);
  }

  /** The last sequence taken on a subscription (null before its first). */
  lastSeq(sid: number): number | null | undefined {
    return this.sids.get(sid)?.last;
  }

  /** What a message means for the books, market by market. */
  onMessage(m: KalshiStreamMessage): MarketOutcome[] {
    const out: MarketOutcome[] = [];
    switch (m.kind) {
      case 'subscribed':
        if (m.channel === 'orderbook_delta' && !this.sids.has(m.sid)) this.sids.set(m.sid, { last: null, tickers: new Set() });
        return out;
      case 'snapshot': {
        if (!this.step(m.sid, m.seq, out, m.data.ticker)) return out;
        const sync = this.syncOf(m.data.ticker);
        if (sync === undefined) return out;
        this.join(m.sid, m.data.ticker);
        out.push({ ticker: m.data.ticker, outcome: sync.onSnapshot(m.data) });
        return out;
      }
      case 'delta': {
        if (!this.step(m.sid, m.seq, out)) return out;
        const sync = this.syncOf(m.data.ticker);
        if (sync !== undefined) out.push({ ticker: m.data.ticker, outcome: sync.onDelta(m.data) });
        return out;
      }
      case 'unreadable': {
        if (m.sid !== null && m.seq !== null && !this.step(m.sid, m.seq, out)) return out;
        if (m.ticker !== null) this.breakTicker(m.ticker, out);
        else if (m.sid !== null) this.breakSid(m.sid, out);
        else for (const sid of this.sids.keys()) this.breakSid(sid, out);
        return out;
      }
      case 'ok':
        if (m.sid !== null && m.seq !== null && this.sids.has(m.sid)) this.step(m.sid, m.seq, out);
        return out;
      case 'unsubscribed': {
        const state = this.sids.get(m.sid);
        if (state === undefined) return out;
        this.breakSid(m.sid, out);
        for (const ticker of state.tickers) if (this.sidOfTicker.get(ticker) === m.sid) this.sidOfTicker.delete(ticker);
        this.sids.delete(m.sid);
        return out;
      }
      case 'error':
        if (BOOK_BREAKING_WS_ERRORS.has(m.code)) for (const sid of this.sids.keys()) this.breakSid(sid, out);
        return out;
      case 'other':
        return out;
    }
  }

  /**
   * Takes `seq` on `sid`; false when the message is a repeat to drop. On a gap, breaks the
   * subscription's whole books first (all but `except`, whose snapshot is the message itself).
   */
  private step(sid: number, seq: number, out: MarketOutcome[], except?: string): boolean {
    let state = this.sids.get(sid);
    if (state === undefined) {
      state = { last: null, tickers: new Set() };
      this.sids.set(sid, state);
    }
    const last = state.last;
    if (last !== null && seq === last) return false;
    if (last !== null && seq !== last + 1) this.breakSid(sid, out, except);
    state.last = seq;
    return true;
  }

  private join(sid: number, ticker: string): void {
    const before = this.sidOfTicker.get(ticker);
    if (before !== undefined && before !== sid) this.sids.get(before)?.tickers.delete(ticker);
    this.sidOfTicker.set(ticker, sid);
    this.sids.get(sid)!.tickers.add(ticker);
  }

  private breakSid(sid: number, out: MarketOutcome[], except?: string): void {
    const state = this.sids.get(sid);
    if (state === undefined) return;
    for (const ticker of state.tickers) if (ticker !== except) this.breakTicker(ticker, out);
  }

  private breakTicker(ticker: string, out: MarketOutcome[]): void {
    const sync = this.syncOf(ticker);
    if (sync !== undefined && sync.synced) out.push({ ticker, outcome: sync.onGap() });
  }
}

/**
 * A market's two legs from its YES-priced book, `depth` levels each, best first: the YES leg as
 * the book is, the NO leg mirrored (a NO bid at 1 - each YES ask, a NO ask at 1 - each YES bid,
 * same sizes). The `Book` answer of a prediction edge (`PredictionBook.yes`/`.no`).
 */
export function legLevels(book: L2Book, depth: number): { yes: { bids: Level[]; asks: Level[] }; no: { bids: Level[]; asks: Level[] } } {
  const side = (s: Side, mirror: boolean): Level[] => {
    const flat = book.flat(s, depth);
    const out = new Array<Level>(flat.length / 2);
    for (let i = 0; i < flat.length; i += 2) out[i / 2] = { price_1e9: mirror ? PRICE_ONE - flat[i]! : flat[i]!, qty_1e8: flat[i + 1]! };
    return out;
  };
  return {
    yes: { bids: side(Side.BID, false), asks: side(Side.ASK, false) },
    no: { bids: side(Side.ASK, true), asks: side(Side.BID, true) },
  };
}

/**
 * The NO leg's changes from the YES book's, flat [side, price_1e9, qty_1e8, ...] appended to
 * `out`: a YES bid level is a NO ask at 1 - price, a YES ask a NO bid. For an adapter that keeps
 * the NO leg as a book of its own symbol (`<ticker>:NO`).
 */
export function mirrorChanges(changes: readonly number[], out: number[]): void {
  for (let i = 0; i < changes.length; i += 3) {
    out.push(changes[i] === Side.BID ? Side.ASK : Side.BID, PRICE_ONE - changes[i + 1]!, changes[i + 2]!);
  }
}
