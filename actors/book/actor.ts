import type { Actor, ActorContext } from '../../engine/actor.ts';
import { Side, underlyingOf } from '../../domain/market.ts';
import { BPS, decimalLevels, midAndSpread, priceToDecimal, qtyToDecimal } from '../../domain/units.ts';
import type { FairMessage } from '../fair-price/messages.ts';
import { FAIR_ACTOR } from '../fair-price/messages.ts';
import { bookByKey, type BookEntry } from '../market/directory.ts';
import { bookInterestIndex, InterestKind } from '../market/interest.ts';
import { ConsolidatedBook, type Nbbo, type VenueTop } from './consolidated-book.ts';
import type { BookMessage, BookView } from './messages.ts';
import { MAX_DEPTH, QuoteSlotWriter, QuoteSnapshot } from './quote-cache.ts';

/** Levels on the `book:<symbol>` WebSocket channel. */
export const BOOK_CHANNEL_DEPTH = 20;
const NS_PER_MS = 1_000_000;

/**
 * One consolidated book (a symbol and an instrument type across every venue listing it).
 *
 *   edge actors --Levels/Snapshot/VenueDown--> book --(batch end)--> quote cache slot (shared memory)
 *                                                                --> prices:/book: topics (if anyone listens)
 *                                                                --> fair:all contributions (venue tops that moved)
 *
 * Deltas are applied as they arrive; everything derived is produced once per drained batch.
 */
export function bookActor(key: string): Actor<BookMessage> {
  const entry = bookByKey(key);
  if (entry === undefined) throw new Error(`no book ${key} in the market directory`);
  return new BookActor(entry);
}

class BookActor implements Actor<BookMessage> {
  private readonly book: ConsolidatedBook;
  private readonly venueIndex: Map<string, number>;
  private readonly snapshot = new QuoteSnapshot();
  private readonly nbboScratch: Nbbo;
  private readonly topScratch: VenueTop;
  /** Last published top per venue: bid, ask, bid qty, ask qty. */
  private readonly lastTops: Float64Array;
  private readonly underlying: string | undefined;
  private readonly pricesTopic: string;
  private readonly bookTopic: string;
  private writer: QuoteSlotWriter | undefined;
  private interest: Int32Array | undefined;
  private flushedVersion = -1;
  private publishedNbboVersion = -1;
  /** Last published NBBO: bid, ask, bid qty, ask qty, crossed. */
  private readonly publishedNbbo = new Float64Array(5).fill(-1);
  private publishedBookHash = 0;
  /** Bit i set: venue i changed in this batch. */
  private dirtyVenues = 0;
  /** Latest edge hand-off stamp of the batch, carried to the frames for latency measurement. */
  private edgeTsNs = 0;

  constructor(private readonly entry: BookEntry) {
    this.book = new ConsolidatedBook(entry.venues);
    this.venueIndex = new Map(entry.venues.map((v, i) => [v, i]));
    this.nbboScratch = this.book.nbbo();
    this.topScratch = this.book.venueTop(0);
    this.lastTops = new Float64Array(entry.venues.length * 4);
    this.underlying = underlyingOf(entry.symbol);
    const suffix = entry.instrument_type === 'perp' ? ':perp' : '';
    this.pricesTopic = `prices:${entry.symbol}${suffix}`;
    this.bookTopic = `book:${entry.symbol}${suffix}`;
  }

  onStart(ctx: ActorContext): void {
    const quotes = ctx.environment.shared['quotes'];
    if (quotes !== undefined) this.writer = new QuoteSlotWriter(quotes, this.entry.slot);
    const interest = ctx.environment.shared['interest'];
    if (interest !== undefined) this.interest = new Int32Array(interest);
  }

  onMessage(message: BookMessage, ctx: ActorContext): unknown {
    switch (message.t) {
      case 'Levels': {
        const venue = this.venueIndex.get(message.venue);
        if (venue === undefined) return undefined;
        const levels = message.levels;
        for (let i = 0; i + 2 < levels.length; i += 3) {
          this.book.applyLevel(venue, levels[i] as Side, levels[i + 1]!, levels[i + 2]!, message.ts_ns);
        }
        this.dirtyVenues |= 1 << venue;
        if (message.edge_ts_ns > this.edgeTsNs) this.edgeTsNs = message.edge_ts_ns;
        return undefined;
      }
      case 'Snapshot': {
        const venue = this.venueIndex.get(message.venue);
        if (venue === undefined) return undefined;
        this.book.applySnapshot(venue, toLevels(message.bids), toLevels(message.asks), message.ts_ns);
        this.dirtyVenues |= 1 << venue;
        return undefined;
      }
      case 'VenueDown': {
        const venue = this.venueIndex.get(message.venue);
        if (venue === undefined) return undefined;
        this.book.clearVenue(venue, message.ts_ns);
        this.dirtyVenues |= 1 << venue;
        return undefined;
      }
      case 'Get':
        this.onBatchEnd(ctx);
        return this.view(Math.min(Math.max(1, message.depth), MAX_DEPTH));
    }
  }

  onBatchEnd(ctx: ActorContext): void {
    const book = this.book;
    if (book.version === this.flushedVersion && this.dirtyVenues === 0) return;
    this.flushedVersion = book.version;
    const nbbo = book.nbbo(this.nbboScratch);
    this.fillSnapshot(nbbo);
    this.writer?.write(this.snapshot);
    if (book.nbboVersion !== this.publishedNbboVersion && this.listening(InterestKind.PRICES)) {
      this.publishedNbboVersion = book.nbboVersion;
      // The version moves on every intermediate change; a batch that ends where it began
      // (a level removed and re-added) is not a change for the channel.
      if (this.nbboChanged(nbbo)) ctx.publish(this.pricesTopic, pricesFrame(nbbo, this.edgeTsNs));
    }
    if (this.listening(InterestKind.BOOK)) this.publishBook(ctx, nbbo);
    if (this.dirtyVenues !== 0 && this.underlying !== undefined) this.contribute(ctx);
    this.dirtyVenues = 0;
  }

  private nbboChanged(nbbo: Nbbo): boolean {
    const p = this.publishedNbbo;
    const crossed = nbbo.crossed ? 1 : 0;
    if (p[0] === nbbo.bid_1e9 && p[1] === nbbo.ask_1e9 && p[2] === nbbo.bid_qty_1e8 && p[3] === nbbo.ask_qty_1e8 && p[4] === crossed) {
      return false;
    }
    p[0] = nbbo.bid_1e9;
    p[1] = nbbo.ask_1e9;
    p[2] = nbbo.bid_qty_1e8;
    p[3] = nbbo.ask_qty_1e8;
    p[4] = crossed;
    return true;
  }

  private listening(kind: 0 | 1): boolean {
    const interest = this.interest;
    return interest === undefined || Atomics.load(interest, bookInterestIndex(this.entry.slot, kind)) > 0;
  }

  private fillSnapshot(nbbo: Nbbo): void {
    const s = this.snapshot;
    const book = this.book;
    s.version = book.version;
    s.updated_ms = Math.floor(nbbo.updated_ns / NS_PER_MS);
    s.bid_1e9 = nbbo.bid_1e9;
    s.ask_1e9 = nbbo.ask_1e9;
    s.bid_qty_1e8 = nbbo.bid_qty_1e8;
    s.ask_qty_1e8 = nbbo.ask_qty_1e8;
    s.crossed = nbbo.crossed;
    const venues = this.entry.venues.length;
    s.venueCount = venues;
    for (let v = 0; v < venues; v++) {
      const top = book.venueTop(v, this.topScratch);
      const out = s.venues[v]!;
      out.venue = v;
      out.bid_1e9 = top.bid_1e9;
      out.ask_1e9 = top.ask_1e9;
      out.bid_qty_1e8 = top.bid_qty_1e8;
      out.ask_qty_1e8 = top.ask_qty_1e8;
      out.last_tick_ms = Math.floor(top.updated_ns / NS_PER_MS);
    }
    s.bidCount = book.mergedInto(Side.BID, MAX_DEPTH, s.bidPrices, s.bidQtys);
    s.askCount = book.mergedInto(Side.ASK, MAX_DEPTH, s.askPrices, s.askQtys);
  }

  /** The book channel fires only when its visible levels change. */
  private publishBook(ctx: ActorContext, nbbo: Nbbo): void {
    const s = this.snapshot;
    const bids = Math.min(s.bidCount, BOOK_CHANNEL_DEPTH);
    const asks = Math.min(s.askCount, BOOK_CHANNEL_DEPTH);
    let hash = 0x811c9dc5;
    for (let i = 0; i < bids; i++) hash = mix(mix(hash, s.bidPrices[i]!), s.bidQtys[i]!);
    for (let i = 0; i < asks; i++) hash = mix(mix(hash, s.askPrices[i]!), s.askQtys[i]!);
    if (hash === this.publishedBookHash) return;
    this.publishedBookHash = hash;
    const frame = {
      bids: decimalLevels(s.bidPrices, s.bidQtys, bids),
      asks: decimalLevels(s.askPrices, s.askQtys, asks),
      ts_ns: nbbo.updated_ns,
      edge_ts_ns: this.edgeTsNs,
    };
    ctx.publish(this.bookTopic, frame);
  }

  /** Tells the fair-price actor about every venue whose top of book moved in this batch. */
  private contribute(ctx: ActorContext): void {
    const venues = this.entry.venues;
    for (let v = 0; v < venues.length; v++) {
      if ((this.dirtyVenues & (1 << v)) === 0) continue;
      const top = this.book.venueTop(v, this.topScratch);
      const o = v * 4;
      const t = this.lastTops;
      if (t[o] === top.bid_1e9 && t[o + 1] === top.ask_1e9 && t[o + 2] === top.bid_qty_1e8 && t[o + 3] === top.ask_qty_1e8) {
        continue;
      }
      t[o] = top.bid_1e9;
      t[o + 1] = top.ask_1e9;
      t[o + 2] = top.bid_qty_1e8;
      t[o + 3] = top.ask_qty_1e8;
      let message: FairMessage;
      if (top.bid_1e9 > 0 && top.ask_1e9 > 0) {
        const mid = Math.round((top.bid_1e9 + top.ask_1e9) / 2);
        message = {
          t: 'Contribution',
          symbol: this.entry.symbol,
          venue: venues[v]!,
          instrument_type: this.entry.instrument_type,
          mid_1e9: mid,
          top_qty_1e8: Math.min(top.bid_qty_1e8, top.ask_qty_1e8),
          spread_bps: ((top.ask_1e9 - top.bid_1e9) * BPS) / mid,
          updated_ns: top.updated_ns,
        };
      } else {
        message = { t: 'Remove', symbol: this.entry.symbol, venue: venues[v]!, instrument_type: this.entry.instrument_type };
      }
      ctx.tell(FAIR_ACTOR, message);
    }
  }

  private view(depth: number): BookView {
    const s = this.snapshot;
    const bids = Math.min(s.bidCount, depth);
    const asks = Math.min(s.askCount, depth);
    return {
      symbol: this.entry.symbol,
      instrument_type: this.entry.instrument_type,
      updated_ms: s.updated_ms,
      nbbo: { bid_1e9: s.bid_1e9, ask_1e9: s.ask_1e9, bid_qty_1e8: s.bid_qty_1e8, ask_qty_1e8: s.ask_qty_1e8, crossed: s.crossed },
      venues: this.entry.venues.map((venue, i) => {
        const v = s.venues[i]!;
        return {
          venue,
          bid_1e9: v.bid_1e9,
          ask_1e9: v.ask_1e9,
          bid_qty_1e8: v.bid_qty_1e8,
          ask_qty_1e8: v.ask_qty_1e8,
          last_tick_ms: v.last_tick_ms,
        };
      }),
      bids: Array.from({ length: bids }, (_, i) => [s.bidPrices[i]!, s.bidQtys[i]!] as [number, number]),
      asks: Array.from({ length: asks }, (_, i) => [s.askPrices[i]!, s.askQtys[i]!] as [number, number]),
    };
  }
}

/** The spec's `prices:<symbol>` data: decimals; mid and spread zeroed when crossed. */
export function pricesFrame(nbbo: Nbbo, edgeTsNs: number): Record<string, number> {
  const { mid, spread_bps } = midAndSpread(nbbo.bid_1e9, nbbo.ask_1e9, nbbo.crossed);
  return {
    bid: priceToDecimal(nbbo.bid_1e9),
    ask: priceToDecimal(nbbo.ask_1e9),
    mid,
    bid_sz: qtyToDecimal(nbbo.bid_qty_1e8),
    ask_sz: qtyToDecimal(nbbo.ask_qty_1e8),
    spread_bps,
    ts_ns: nbbo.updated_ns,
    edge_ts_ns: edgeTsNs,
  };
}


function toLevels(flat: number[]): { price_1e9: number; qty_1e8: number }[] {
  const out: { price_1e9: number; qty_1e8: number }[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push({ price_1e9: flat[i]!, qty_1e8: flat[i + 1]! });
  return out;
}

function mix(hash: number, value: number): number {
  // Prices and sizes are integers below 2^53: fold both halves into the hash.
  hash = Math.imul(hash ^ (value >>> 0), 0x01000193);
  return Math.imul(hash ^ Math.floor(value / 4294967296), 0x01000193);
}
