import { L2Book } from './l2-book.ts';
import type { MarketSink } from './venue.ts';

/** What every venue's book sync offers the feeds (binance/depth-sync.ts, okx/book-sync.ts). */
export interface FeedSync {
  readonly synced: boolean;
  reset(): void;
}

/** The outcomes a sync reports; see binance/depth-sync.ts. */
export type FeedOutcome = 'buffered' | 'synced' | 'applied' | 'stale' | 'gap';

export interface FeedListing {
  symbol: string;
  base: string;
  quote: string;
}

/** Resync backoff per symbol: 250 ms doubling to 10 s; back to none once the book is whole. */
const BACKOFF_MIN_MS = 250;
const BACKOFF_MAX_MS = 10_000;
/** A resync that has not made the book whole by then is tried again (a snapshot lost on the way). */
const CONFIRM_MS = 5_000;
/** A book that stayed whole this long has earned its backoff back; one that breaks sooner keeps backing off. */
const STEADY_MS = 10_000;

/** One symbol's book on a venue and its sync state. */
export class BookFeed<S extends FeedSync> {
  readonly book = new L2Book();
  readonly changes: number[] = [];
  readonly sync: S;
  busy = false;
  backoffMs = 0;
  /** when the book last became whole (0: not whole since the feed began) */
  wholeAt = 0;
  timer: NodeJS.Timeout | undefined;

  constructor(
    readonly listing: FeedListing,
    readonly venueSymbol: string,
    makeSync: (book: L2Book, changes: number[]) => S,
  ) {
    this.sync = makeSync(this.book, this.changes);
  }
}

/**
 * A venue adapter's subscribed books, and what every adapter does the same way with them: a
 * sync's outcome told to the edge (whole, changes, broken), resyncs with backoff and a retry
 * when one does not make the book whole, and every book broken when the stream goes down. The
 * adapter supplies how a resync is done (Binance fetches a REST snapshot; OKX resubscribes and
 * the snapshot comes on the stream).
 */
export class BookFeeds<S extends FeedSync> {
  private readonly bySymbol = new Map<string, BookFeed<S>>();
  private readonly byVenue = new Map<string, BookFeed<S>>();
  /** The market-data stream is open. */
  connected = false;
  private stopped = false;
  readonly counters = { resyncs: 0, disconnects: 0, updates: 0 };

  constructor(
    private readonly hooks: {
      sink(): MarketSink | undefined;
      makeSync(book: L2Book, changes: number[]): S;
      /**
       * Starts a resync of the feed; rejects when it could not (retried with backoff). Resolves
       * true when the outcome is already settled (a REST snapshot applied), false when the
       * snapshot comes later on the stream (confirmed after CONFIRM_MS).
       */
      resync(feed: BookFeed<S>): Promise<boolean>;
    },
  ) {}

  add(listing: FeedListing, venueSymbol: string): BookFeed<S> {
    const feed = new BookFeed(listing, venueSymbol, this.hooks.makeSync);
    this.bySymbol.set(listing.symbol, feed);
    this.byVenue.set(venueSymbol, feed);
    return feed;
  }

  get(symbol: string): BookFeed<S> | undefined {
    return this.bySymbol.get(symbol);
  }

  ofVenueSymbol(venueSymbol: string): BookFeed<S> | undefined {
    return this.byVenue.get(venueSymbol);
  }

  all(): BookFeed<S>[] {
    return [...this.bySymbol.values()];
  }

  get size(): number {
    return this.bySymbol.size;
  }

  /** The symbol's book while whole. */
  whole(symbol: string): L2Book | undefined {
    const feed = this.bySymbol.get(symbol);
    return feed?.sync.synced === true ? feed.book : undefined;
  }

  remove(feed: BookFeed<S>, reason: string): void {
    if (feed.timer !== undefined) clearTimeout(feed.timer);
    this.bySymbol.delete(feed.listing.symbol);
    this.byVenue.delete(feed.venueSymbol);
    if (feed.sync.synced) this.hooks.sink()?.onBookBroken(feed.listing.symbol, reason);
  }

  /** What a sync's outcome means for the edge; a gap or a stale snapshot starts a resync. */
  settle(feed: BookFeed<S>, outcome: FeedOutcome, ts_ns: number): void {
    // A feed unsubscribed (or the adapter stopped) while its snapshot was on the way publishes nothing.
    if (this.stopped || this.bySymbol.get(feed.listing.symbol) !== feed) return;
    const sink = this.hooks.sink();
    switch (outcome) {
      case 'applied':
        if (feed.changes.length > 0) sink?.onBookChanges(feed.listing.symbol, feed.changes, ts_ns);
        feed.changes.length = 0;
        return;
      case 'synced':
        feed.wholeAt = Date.now();
        feed.changes.length = 0;
        if (feed.timer !== undefined) {
          clearTimeout(feed.timer);
          feed.timer = undefined;
        }
        sink?.onBookWhole(feed.listing.symbol, feed.book, ts_ns);
        return;
      case 'gap':
      case 'stale':
        this.counters.resyncs++;
        feed.changes.length = 0;
        if (outcome === 'gap') sink?.onBookBroken(feed.listing.symbol, 'book stream gap: resyncing');
        this.resync(feed);
        return;
      case 'buffered':
        return;
    }
  }

  /** The stream closed: no book is whole until resynced on the next connection. */
  down(reason: string): void {
    if (this.connected) this.counters.disconnects++;
    this.connected = false;
    const sink = this.hooks.sink();
    for (const feed of this.bySymbol.values()) {
      const wasWhole = feed.sync.synced;
      feed.sync.reset();
      feed.changes.length = 0;
      if (wasWhole) sink?.onBookBroken(feed.listing.symbol, `stream ${reason}`);
    }
  }

  /** Resyncs the feed after its backoff; one at a time per feed, and only while it is subscribed and the stream is up. */
  resync(feed: BookFeed<S>): void {
    if (feed.busy || feed.timer !== undefined || this.stopped || this.bySymbol.get(feed.listing.symbol) !== feed) return;
    // A book that broke right after it was whole (a checksum that keeps failing) keeps backing off.
    if (feed.wholeAt > 0 && Date.now() - feed.wholeAt >= STEADY_MS) feed.backoffMs = 0;
    feed.wholeAt = 0;
    const delay = feed.backoffMs;
    feed.backoffMs = Math.min(BACKOFF_MAX_MS, Math.max(BACKOFF_MIN_MS, feed.backoffMs * 2));
    const run = () => {
      feed.timer = undefined;
      if (!this.connected) return;
      feed.busy = true;
      this.hooks.resync(feed).then(
        (settled) => {
          feed.busy = false;
          if (feed.sync.synced) return;
          // Settled and still not whole (a stale snapshot, a gap in what it bridged): again, after
          // the backoff. Otherwise the snapshot is on its way: confirm it came.
          if (settled) this.resync(feed);
          else this.later(feed, CONFIRM_MS);
        },
        () => {
          feed.busy = false;
          this.resync(feed);
        },
      );
    };
    if (delay === 0) run();
    else this.later(feed, delay, run);
  }

  /** A subscription just sent: its snapshot must come within CONFIRM_MS, else the feed resyncs. */
  expect(feed: BookFeed<S>): void {
    this.later(feed, CONFIRM_MS);
  }

  stop(): void {
    this.stopped = true;
    for (const feed of this.bySymbol.values()) if (feed.timer !== undefined) clearTimeout(feed.timer);
  }

  private later(feed: BookFeed<S>, ms: number, run?: () => void): void {
    if (feed.timer !== undefined) return;
    feed.timer = setTimeout(
      run ??
        (() => {
          feed.timer = undefined;
          if (!feed.sync.synced) this.resync(feed);
        }),
      ms,
    );
    feed.timer.unref();
  }
}
