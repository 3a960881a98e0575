/**
 * Each live venue's depth path over a recording's frames (bench/lib/venue-frames.ts), for
 * bench/depth-decode.bench.ts: what the venue's adapter does in `onFrame` with a book frame,
 * without the edge around it. Parse the text, decode it into integers exactly (the venue's
 * codec.ts), find the symbol's book, check the venue's sequence or checksum and apply (its
 * book sync), then drain the changes the sync published, as the edge does.
 *
 * Every outcome other than the one expected (a gap, a stale snapshot, a frame that did not
 * decode, a buffered update) is counted in `failures`: the bench asserts none, since a path that
 * measures a broken book measures nothing.
 */
import { L2Book } from '../../actors/edge/live/l2-book.ts';
import { DiffDepthSync } from '../../actors/edge/live/binance/depth-sync.ts';
import { decodeDepthUpdate } from '../../actors/edge/live/binance/codec.ts';
import { OkxBookSync } from '../../actors/edge/live/okx/book-sync.ts';
import { decodeBookFrame as decodeOkxFrame } from '../../actors/edge/live/okx/codec.ts';
import { KrakenBookSync } from '../../actors/edge/live/kraken/book-sync.ts';
import { decodeBookMessage } from '../../actors/edge/live/kraken/codec.ts';
import { CoinbaseBookSync, SequenceGate } from '../../actors/edge/live/coinbase/book-sync.ts';
import { decodeWsMessage } from '../../actors/edge/live/coinbase/codec.ts';
import { BybitBookSync } from '../../actors/edge/live/bybit/book-sync.ts';
import { decodeBookFrame as decodeBybitFrame } from '../../actors/edge/live/bybit/codec.ts';
import { KucoinBookSync } from '../../actors/edge/live/kucoin/book-sync.ts';
import { decodeFrame as decodeKucoinFrame } from '../../actors/edge/live/kucoin/codec.ts';
import { BitstampBookSync } from '../../actors/edge/live/bitstamp/book-sync.ts';
import { decodeFrame as decodeBitstampFrame } from '../../actors/edge/live/bitstamp/codec.ts';
import { HyperliquidBookSync } from '../../actors/edge/live/hyperliquid/book-sync.ts';
import { decodeWsFrame as decodeHyperliquidFrame } from '../../actors/edge/live/hyperliquid/codec.ts';
import { KalshiBookStream, KalshiBookSync } from '../../actors/edge/live/kalshi/book-sync.ts';
import { decodeWsMessage as decodeKalshiMessage } from '../../actors/edge/live/kalshi/codec.ts';
import { PolymarketBookSync, type PolymarketLevelChange } from '../../actors/edge/live/polymarket/book-sync.ts';
import { decodeMarketFrame as decodePolymarketFrame } from '../../actors/edge/live/polymarket/codec.ts';
import {
  binanceSymbol,
  bitstampSymbol,
  BYBIT_DEPTH,
  hyperliquidCoin,
  kalshiTicker,
  KRAKEN_DEPTH,
  krakenSymbol,
  polymarketToken,
  renderBinance,
  renderBitstamp,
  renderBybit,
  renderCoinbase,
  renderHyperliquid,
  renderKalshi,
  renderKraken,
  renderKucoin,
  renderOkx,
  renderPolymarket,
  type Recording,
  type VenueStream,
} from './venue-frames.ts';

/** One symbol's book on a venue, the changes its sync publishes, and the sync. */
export interface Feed<S> {
  book: L2Book;
  changes: number[];
  sync: S;
}

/** A venue's books, by symbol index and by the venue's name for the symbol, and what became of its frames. */
export class Feeds<S> {
  readonly list: Feed<S>[];
  readonly byVenue = new Map<string, Feed<S>>();
  /** outcomes other than the one expected, and frames that did not decode */
  failures = 0;
  /** levels the syncs published (drained after every frame) */
  published = 0;

  constructor(venueSymbols: readonly string[], makeSync: (book: L2Book, changes: number[]) => S) {
    this.list = venueSymbols.map((venueSymbol) => {
      const book = new L2Book();
      const changes: number[] = [];
      const feed = { book, changes, sync: makeSync(book, changes) };
      this.byVenue.set(venueSymbol, feed);
      return feed;
    });
  }

  /** A sync's outcome: anything but `expected` is a failure. The published changes are drained, as the edge drains them. */
  settle(feed: Feed<S>, outcome: string, expected: string): void {
    if (outcome !== expected) this.failures++;
    this.published += feed.changes.length / 3;
    feed.changes.length = 0;
  }

  /** A frame that did not decode, or named no book of ours. */
  unread(): void {
    this.failures++;
  }
}

/** A venue's frames and its depth path over them. */
export interface Replay {
  venue: string;
  stream: VenueStream<unknown>;
  feeds: Feeds<unknown>;
  /** Every book back to its opening snapshot (a REST answer applied, or the stream's opening frames through `apply`). */
  open(): void;
  /** One frame: parse, decode, find the book, sequence or checksum check, apply, drain. */
  apply(text: string): void;
}

/** A sync that resyncs from a REST snapshot (Binance, KuCoin, Bitstamp). */
interface SnapshotSync {
  reset(): void;
  onSnapshot(id: number, bids: number[], asks: number[]): string;
}

/** Every book back to the REST snapshot its venue answers, as a resync does. */
function openFromSnapshots<S extends SnapshotSync>(feeds: Feeds<S>, opening: readonly { id: number; bids: number[]; asks: number[] }[]): void {
  feeds.list.forEach((feed, i) => {
    const s = opening[i]!;
    feed.sync.reset();
    feeds.settle(feed, feed.sync.onSnapshot(s.id, s.bids, s.asks), 'synced');
  });
}

// ---------------------------------------------------------------------------------------------

export function binanceReplay(rec: Recording): Replay {
  const stream = renderBinance(rec);
  const feeds = new Feeds(rec.symbols.map(binanceSymbol), (book, changes) => new DiffDepthSync(book, changes));
  return {
    venue: 'binance',
    stream,
    feeds,
    open: () => openFromSnapshots(feeds, stream.opening),
    apply(text) {
      const decoded = decodeDepthUpdate((JSON.parse(text) as { data?: unknown }).data);
      const feed = decoded === undefined ? undefined : feeds.byVenue.get(decoded.venueSymbol);
      if (feed === undefined) return feeds.unread();
      feeds.settle(feed, feed.sync.onEvent(decoded!.event), 'applied');
    },
  };
}

export function okxReplay(rec: Recording): Replay {
  const stream = renderOkx(rec);
  const feeds = new Feeds(rec.symbols, (book, changes) => new OkxBookSync(book, changes));
  const replay: Replay = {
    venue: 'okx',
    stream,
    feeds,
    open() {
      for (const feed of feeds.list) feed.sync.reset();
      for (const text of stream.opening) replay.apply(text);
    },
    apply(text) {
      const decoded = decodeOkxFrame(JSON.parse(text));
      const feed = decoded === undefined ? undefined : feeds.byVenue.get(decoded.instId);
      if (feed === undefined) return feeds.unread();
      for (const data of decoded!.data) feeds.settle(feed, feed.sync.onPush(decoded!.action, data), decoded!.action === 'snapshot' ? 'synced' : 'applied');
    },
  };
  return replay;
}

export function krakenReplay(rec: Recording): Replay {
  const stream = renderKraken(rec);
  const feeds = new Feeds(rec.symbols.map(krakenSymbol), (book, changes) => new KrakenBookSync(book, changes, KRAKEN_DEPTH));
  const replay: Replay = {
    venue: 'kraken',
    stream,
    feeds,
    open() {
      for (const feed of feeds.list) feed.sync.reset();
      for (const text of stream.opening) replay.apply(text);
    },
    apply(text) {
      // The codec takes the frame's text: it quotes the numbers before JSON.parse to keep their digits.
      const message = decodeBookMessage(text);
      if (message === undefined || message.unreadable.length > 0) return feeds.unread();
      for (const data of message.data) {
        const feed = feeds.byVenue.get(data.symbol);
        if (feed === undefined) feeds.unread();
        else feeds.settle(feed, feed.sync.onPush(message.type, data), message.type === 'snapshot' ? 'synced' : 'applied');
      }
    },
  };
  return replay;
}

export function coinbaseReplay(rec: Recording): Replay {
  const stream = renderCoinbase(rec);
  const feeds = new Feeds(rec.symbols, (book, changes) => new CoinbaseBookSync(book, changes));
  /** The connection's `sequence_num` check, before anything in a message is applied (as the adapter). */
  const gate = new SequenceGate();
  const replay: Replay = {
    venue: 'coinbase',
    stream,
    feeds,
    open() {
      // A new connection: the count starts over, every product's snapshot comes on it.
      gate.reset();
      for (const feed of feeds.list) feed.sync.reset();
      for (const text of stream.opening) replay.apply(text);
    },
    apply(text) {
      const message = decodeWsMessage(JSON.parse(text));
      const l2 = message?.l2;
      if (l2 === undefined || message!.seq === null) return feeds.unread();
      if (gate.observe(message!.seq) === 'gap' || l2.broken) {
        for (const feed of feeds.list) feeds.settle(feed, feed.sync.onConnectionGap(), 'applied');
        return;
      }
      for (const event of l2.events) {
        const feed = feeds.byVenue.get(event.product_id);
        if (feed === undefined) feeds.unread();
        else feeds.settle(feed, feed.sync.onEvent(event), event.type === 'snapshot' ? 'synced' : 'applied');
      }
      if (l2.unreadable.length > 0) feeds.unread();
    },
  };
  return replay;
}

export function bybitReplay(rec: Recording): Replay {
  const stream = renderBybit(rec);
  const feeds = new Feeds(rec.symbols.map(binanceSymbol), (book, changes) => new BybitBookSync(book, changes, BYBIT_DEPTH));
  const replay: Replay = {
    venue: 'bybit',
    stream,
    feeds,
    open() {
      for (const feed of feeds.list) feed.sync.reset();
      for (const text of stream.opening) replay.apply(text);
    },
    apply(text) {
      const message = decodeBybitFrame(JSON.parse(text));
      const feed = message?.data == null || message.depth !== BYBIT_DEPTH ? undefined : feeds.byVenue.get(message.venueSymbol);
      if (feed === undefined) return feeds.unread();
      feeds.settle(feed, feed.sync.onPush(message!.type, message!.data!), message!.type === 'snapshot' ? 'synced' : 'applied');
    },
  };
  return replay;
}

export function kucoinReplay(rec: Recording): Replay {
  const stream = renderKucoin(rec);
  const feeds = new Feeds(rec.symbols, (book, changes) => new KucoinBookSync(book, changes));
  return {
    venue: 'kucoin',
    stream,
    feeds,
    open: () => openFromSnapshots(feeds, stream.opening),
    apply(text) {
      const frame = decodeKucoinFrame(JSON.parse(text));
      const feed = frame?.type === 'level2' ? feeds.byVenue.get(frame.symbol) : undefined;
      if (feed === undefined || frame?.type !== 'level2') return feeds.unread();
      feeds.settle(feed, feed.sync.onUpdate(frame.update), 'applied');
    },
  };
}

export function bitstampReplay(rec: Recording): Replay {
  const stream = renderBitstamp(rec);
  const feeds = new Feeds(rec.symbols.map(bitstampSymbol), (book, changes) => new BitstampBookSync(book, changes));
  return {
    venue: 'bitstamp',
    stream,
    feeds,
    open: () => openFromSnapshots(feeds, stream.opening),
    apply(text) {
      const frame = decodeBitstampFrame(JSON.parse(text));
      const feed = frame?.kind === 'diff' ? feeds.byVenue.get(frame.venueSymbol) : undefined;
      if (feed === undefined || frame?.kind !== 'diff') return feeds.unread();
      feeds.settle(feed, feed.sync.onDiff(frame.diff), 'applied');
    },
  };
}

export function hyperliquidReplay(rec: Recording): Replay {
  const stream = renderHyperliquid(rec);
  const feeds = new Feeds(rec.symbols.map(hyperliquidCoin), (book, changes) => new HyperliquidBookSync(book, changes));
  const replay: Replay = {
    venue: 'hyperliquid',
    stream,
    feeds,
    open() {
      for (const feed of feeds.list) feed.sync.reset();
      for (const text of stream.opening) replay.apply(text);
    },
    apply(text) {
      const message = decodeHyperliquidFrame(text);
      const data = message?.kind === 'l2Book' ? message.data : null;
      const feed = data === null ? undefined : feeds.byVenue.get(data.coin);
      if (feed === undefined) return feeds.unread();
      // Every push is a whole book: the first makes it whole, the rest are diffed against it.
      const expected = feed.sync.synced ? 'applied' : 'synced';
      feeds.settle(feed, feed.sync.onBook(data!), expected);
    },
  };
  return replay;
}

export function kalshiReplay(rec: Recording): Replay {
  const stream = renderKalshi(rec);
  const feeds = new Feeds(rec.symbols.map(kalshiTicker), (book, changes) => new KalshiBookSync(book, changes));
  /** The subscription's `seq` check across its markets. */
  const books = new KalshiBookStream((ticker) => feeds.byVenue.get(ticker)?.sync);
  const replay: Replay = {
    venue: 'kalshi',
    stream,
    feeds,
    open() {
      // A new connection: the subscription's count starts over, each market's snapshot comes on it.
      books.reset();
      for (const feed of feeds.list) feed.sync.reset();
      for (const text of stream.opening) replay.apply(text);
    },
    apply(text) {
      // Subscribed with `use_yes_price`: NO bids come in YES prices.
      const message = decodeKalshiMessage(text, 'yes-leg');
      if (message === undefined || (message.kind !== 'snapshot' && message.kind !== 'delta')) return feeds.unread();
      const outcomes = books.onMessage(message);
      if (outcomes.length === 0) return feeds.unread();
      for (const { ticker, outcome } of outcomes) feeds.settle(feeds.byVenue.get(ticker)!, outcome, message.kind === 'snapshot' ? 'synced' : 'applied');
    },
  };
  return replay;
}

export function polymarketReplay(rec: Recording): Replay {
  const stream = renderPolymarket(rec);
  const feeds = new Feeds(
    rec.symbols.map((_, i) => polymarketToken(i)),
    (book, changes) => new PolymarketBookSync(book, changes),
  );
  /** One token's run of a `price_change`'s changes, applied together. */
  const changesOf = (feed: Feed<PolymarketBookSync>, list: readonly PolymarketLevelChange[]) => feeds.settle(feed, feed.sync.onChanges(list), 'applied');
  const replay: Replay = {
    venue: 'polymarket',
    stream,
    feeds,
    open() {
      for (const feed of feeds.list) feed.sync.reset();
      for (const text of stream.opening) replay.apply(text);
    },
    apply(text) {
      const events = decodePolymarketFrame(text);
      if (events === undefined || events === 'pong') return feeds.unread();
      for (const event of events) {
        if (event.type === 'book') {
          const feed = feeds.byVenue.get(event.snapshot.asset_id);
          if (feed === undefined) {
            feeds.unread();
            continue;
          }
          // The first makes the book whole; one on a whole book (after a trade) is diffed against it.
          const expected = feed.sync.synced ? 'applied' : 'synced';
          feeds.settle(feed, feed.sync.onSnapshot(event.snapshot), expected);
        } else if (event.type === 'price_change') {
          // A message may carry several tokens' changes: each token's run goes to its book.
          const list = event.changes;
          for (let i = 0, j = 0; i < list.length; i = j) {
            const asset = list[i]!.asset_id;
            while (j < list.length && list[j]!.asset_id === asset) j++;
            const feed = feeds.byVenue.get(asset);
            if (feed === undefined) feeds.unread();
            else changesOf(feed, i === 0 && j === list.length ? list : list.slice(i, j));
          }
        } else feeds.unread();
      }
    },
  };
  return replay;
}

/** Every venue with a pure book core, in the order reported. */
export const REPLAYS: readonly ((rec: Recording) => Replay)[] = [binanceReplay, okxReplay, krakenReplay, coinbaseReplay, bybitReplay, kucoinReplay, bitstampReplay, hyperliquidReplay, kalshiReplay, polymarketReplay];
