import { setTimeout as delay } from 'node:timers/promises';
import { BookFeeds, type BookFeed, type FeedListing, type FeedSync } from './book-feeds.ts';
import type { L2Book } from './l2-book.ts';
import { VenueStream } from './stream.ts';
import type { MarketSink } from './venue.ts';

/** What the shared half needs to know of a venue's instrument: whether it trades now. */
export interface TradedInstrument {
  trading: boolean;
}

export interface StreamOptions<S extends FeedSync> {
  /** the public book stream's full URL, or how to get one per connection (a venue token in it) */
  url: string | (() => Promise<string>);
  makeSync(book: L2Book, changes: number[]): S;
  /** how a broken book is made whole again (see `BookFeeds`): a REST snapshot, or a fresh subscription */
  resync(feed: BookFeed<S>): Promise<boolean>;
  /** a stream silent this long is dead (default 30 s) */
  staleMs?: number;
  /** a text ping the venue wants on a quiet socket (a function: one with a fresh id each time) */
  ping?: { text: string | (() => string); everyMs: number };
}

/** Instrument list reload: 1 s doubling to a minute while the venue does not answer. */
const INSTRUMENTS_RETRY_MIN_MS = 1_000;
const INSTRUMENTS_RETRY_MAX_MS = 60_000;
/** An order that meets an unread instrument list reads it at once and waits this long for it. */
const INSTRUMENTS_WAIT_MS = 5_000;

/**
 * The half of a live venue adapter that is the same on every venue: its listings, its
 * instrument list (loaded at start, retried until read; a listing the venue does not trade is
 * dropped so a book that can never be whole cannot hold the edge down), and its public book
 * stream with the feeds on it (subscribed on every open, broken on every close). A venue
 * supplies how it names a symbol, reads its instruments, subscribes and reads a frame; orders
 * stay in the venue's own class, which extends this one.
 */
export abstract class StreamedVenue<S extends FeedSync, I extends TradedInstrument> {
  protected readonly listings: Map<string, FeedListing>;
  /** by venue symbol; empty until the venue answered */
  protected readonly instruments = new Map<string, I>();
  protected readonly feeds: BookFeeds<S>;
  protected readonly stream: VenueStream;
  protected sink: MarketSink | undefined;
  protected stopped = false;
  /** the instrument list read under way, shared by the start, its retries and any order waiting on it */
  private reading: Promise<boolean> | undefined;

  constructor(listings: readonly FeedListing[], options: StreamOptions<S>) {
    this.listings = new Map(listings.map((l) => [l.symbol, l]));
    this.feeds = new BookFeeds({ sink: () => this.sink, makeSync: options.makeSync, resync: options.resync });
    this.stream = new VenueStream(
      options.url,
      {
        onOpen: () => {
          this.feeds.connected = true;
          this.onStreamOpen();
          const feeds = this.feeds.all();
          if (feeds.length > 0) this.watch(feeds);
        },
        onMessage: (text) => this.onFrame(text),
        onDown: (reason) => this.feeds.down(reason),
      },
      options.staleMs ?? 30_000,
      options.ping,
    );
  }

  /** How the venue names one of our symbols (`BTC-USDT` -> `BTCUSDT`). */
  protected abstract venueSymbolOf(symbol: string): string;
  /** The venue's instrument list by venue symbol; throws when it could not be read (retried with backoff). */
  protected abstract readInstruments(): Promise<(readonly [string, I])[]>;
  /** The stream is open: subscribe these feeds and start their sync (`feeds.resync` or `feeds.expect`). */
  protected abstract watch(feeds: readonly BookFeed<S>[]): void;
  /** Stops the stream of a feed that was just removed. */
  protected abstract unwatch(feed: BookFeed<S>): void;
  /** One text frame of the public stream. */
  protected abstract onFrame(text: string): void;

  /** A connection opened, before its feeds are watched: what a venue sends once per connection (Coinbase's heartbeats, a sequence count reset). */
  protected onStreamOpen(): void {}

  start(sink: MarketSink): void {
    this.sink = sink;
    this.stopped = false;
    void this.keepReadingInstruments(0);
    this.stream.start();
  }

  stop(): void {
    this.stopped = true;
    this.stream.stop();
    this.feeds.stop();
  }

  /** Starts streaming a symbol's book; false when it is not a listing of ours or the venue does not trade it. */
  subscribe(symbol: string): boolean {
    const listing = this.listings.get(symbol);
    const venueSymbol = this.venueSymbolOf(symbol);
    if (listing === undefined || !this.trades(venueSymbol)) return false;
    if (this.feeds.get(symbol) !== undefined) return true;
    const feed = this.feeds.add(listing, venueSymbol);
    if (this.feeds.connected) this.watch([feed]);
    return true;
  }

  book(symbol: string): L2Book | undefined {
    return this.feeds.whole(symbol);
  }

  stats(): { connected: boolean; subscribed: number; resyncs: number; disconnects: number; updates: number } {
    return { connected: this.feeds.connected, subscribed: this.feeds.size, ...this.feeds.counters };
  }

  /** Whether the venue trades this symbol: true until the instrument list is loaded. */
  protected trades(venueSymbol: string): boolean {
    if (this.instruments.size === 0) return true;
    return this.instruments.get(venueSymbol)?.trading === true;
  }

  /**
   * The venue's instrument for an order. An order that comes before the list was read (the venue
   * slow to answer at start, a retry waiting out its backoff) reads it now and waits for it a
   * while, rather than being refused for what one more read would have told.
   */
  protected async instrumentFor(venueSymbol: string): Promise<I | undefined> {
    if (this.instruments.size === 0 && !this.stopped) await Promise.race([this.readInstrumentsOnce(), delay(INSTRUMENTS_WAIT_MS, undefined, { ref: false })]);
    return this.instruments.get(venueSymbol);
  }

  private async keepReadingInstruments(attempt: number): Promise<void> {
    // A retry that an order's read got ahead of has nothing left to do.
    if (this.stopped || (attempt > 0 && this.instruments.size > 0)) return;
    if (await this.readInstrumentsOnce()) return;
    if (this.stopped) return;
    const t = setTimeout(() => void this.keepReadingInstruments(attempt + 1), Math.min(INSTRUMENTS_RETRY_MAX_MS, INSTRUMENTS_RETRY_MIN_MS * 2 ** attempt));
    t.unref();
  }

  /** One read of the instrument list (joined when one is under way); false when the venue did not answer it. */
  private readInstrumentsOnce(): Promise<boolean> {
    this.reading ??= this.applyInstruments().finally(() => {
      this.reading = undefined;
    });
    return this.reading;
  }

  private async applyInstruments(): Promise<boolean> {
    try {
      const instruments = await this.readInstruments();
      if (instruments.length === 0) throw new Error('no instruments');
      for (const [venueSymbol, i] of instruments) this.instruments.set(venueSymbol, i);
      for (const feed of this.feeds.all()) {
        if (this.trades(feed.venueSymbol)) continue;
        this.feeds.remove(feed, 'not traded on the venue');
        if (this.feeds.connected) this.unwatch(feed);
      }
      return true;
    } catch {
      return false;
    }
  }
}
