import { ConsolidatedBook } from '../../actors/book/consolidated-book.ts';
import { QuoteCacheReader, QuoteSnapshot, MAX_DEPTH } from '../../actors/book/quote-cache.ts';
import type { EdgeMessage, EdgeSnapshot } from '../../actors/edge/messages.ts';
import { listingOf } from '../../domain/venues.ts';
import { edgeKey, type BookEntry, type BookType } from '../../actors/market/directory.ts';
import { Side } from '../../domain/market.ts';
import { decimalLevels, midAndSpread, priceToDecimal, qtyToDecimal } from '../../domain/units.ts';
import type { Endpoint } from '../../engine/endpoint.ts';
import type { MarketMemory } from './memory.ts';
import { SharedMarketView } from '../../execution/market-view.ts';
import { MidHistory } from './mid-history.ts';

/** The spec's quote `source` values (Quote rules 2). */
export type QuoteSource = 'edge_nbbo' | 'edge_rpc_snapshot' | 'venue_public_api' | 'unavailable';

export interface QuoteNbbo {
  bid: number;
  ask: number;
  mid: number;
  spread_bps: number;
  bid_size: number;
  ask_size: number;
  crossed: boolean;
}

export interface QuoteVenue {
  bid: number;
  ask: number;
  bid_size: number;
  ask_size: number;
  age_ms: number;
}

export interface QuoteResponse {
  symbol: string;
  instrument_type: BookType;
  nbbo: QuoteNbbo;
  venues: Record<string, QuoteVenue>;
  book: { bids: [number, number][]; asks: [number, number][] };
  source: QuoteSource;
  /** NBBO-level last update (the `max_age_s` filter), ms since the epoch. */
  updated_ms: number;
}

/** The dynamic-subscribe wait (spec, Limits: up to 2 s per cold symbol). */
export const COLD_WAIT_MS = 2_000;
/** A cache entry older than this is treated as cold (its edges may have restarted). */
const STALE_AFTER_MS = 30_000;
/** Millisecond waits for a book actor caught mid-write (`uncontended`) before going cold. */
const CONTENDED_RETRIES = 20;

/**
 * Quotes for the gateway: the hot path reads the book actor's quote-cache slot from shared
 * memory (no message); the cold path asks the feeding edges for one-shot snapshots, which also
 * starts their subscriptions, and consolidates them here.
 */
export class QuoteService {
  private readonly reader: QuoteCacheReader;
  private readonly market: SharedMarketView;
  private readonly snapshot = new QuoteSnapshot();
  /** Books whose every feeding edge has been asked to subscribe (from the catalog at start). */
  private readonly warmed = new Set<string>();
  /**
   * The last hot answer per slot: identical book version, depth and millisecond give identical
   * JSON (`age_ms` has ms resolution), so a busy symbol is serialised once per change or ms.
   */
  private readonly lastJson: ({ version: number; depth: number; ms: number; json: string } | undefined)[] = [];
  /** Each book's NBBO mid, sampled every 500 ms while the service runs (`start`): the signals' returns and volatility. */
  readonly mids: MidHistory;

  constructor(
    memory: MarketMemory,
    private readonly endpoint: Endpoint,
  ) {
    this.reader = new QuoteCacheReader(memory.quotes);
    this.market = new SharedMarketView(memory.quotes);
    this.mids = new MidHistory(memory.quotes);
  }

  /** Starts sampling the books' mids (mid-history.ts); `stop` ends it. */
  start(): void {
    this.mids.start();
  }

  stop(): void {
    this.mids.stop();
  }

  /** The book for a symbol: the requested instrument type, else spot, else perp. */
  resolve(symbol: string, instrumentType?: string): BookEntry | undefined {
    return this.market.resolve(symbol, instrumentType);
  }

  /** The live cache only; undefined when the book has no data yet. */
  cached(entry: BookEntry, depth: number): QuoteResponse | undefined {
    const s = this.snapshot;
    if (!this.reader.read(entry.slot, Math.min(depth, MAX_DEPTH), s)) return undefined;
    return fromSnapshot(entry, s, Date.now());
  }

  /** The cached NBBO in integer units, or undefined when the book has no data. */
  nbbo1e9(entry: BookEntry): { bid_1e9: number; ask_1e9: number; crossed: boolean } | undefined {
    return this.market.nbbo1e9(entry);
  }

  /** NBBO-level last update from the cache, or undefined. */
  updatedMs(entry: BookEntry): number | undefined {
    return this.reader.read(entry.slot, 0, this.snapshot) ? this.snapshot.updated_ms : undefined;
  }

  /**
   * The hot path of `GET /v1/quotes/{symbol}`: a fresh cache hit serialised straight from the
   * shared-memory copy to JSON text, without building the response object graph first.
   */
  hotJson(entry: BookEntry, depth: number): string | undefined {
    const now = Date.now();
    const last = this.lastJson[entry.slot];
    if (last !== undefined && last.ms === now && last.depth === depth && last.version === this.reader.version(entry.slot)) {
      return last.json;
    }
    const s = this.snapshot;
    if (!this.reader.read(entry.slot, Math.min(depth, MAX_DEPTH), s)) return undefined;
    if (now - s.updated_ms >= STALE_AFTER_MS) return undefined;
    this.warm(entry);
    const json = quoteJson(entry, s, now, 'edge_nbbo');
    this.lastJson[entry.slot] = { version: s.version, depth, ms: now, json };
    return json;
  }

  /** A live, fresh cache hit (source `edge_nbbo`), or undefined: the synchronous hot path. */
  hot(entry: BookEntry, depth: number): QuoteResponse | undefined {
    const quote = this.cached(entry, depth);
    if (quote === undefined || Date.now() - quote.updated_ms >= STALE_AFTER_MS) return undefined;
    this.warm(entry);
    return quote;
  }

  async quote(entry: BookEntry, depth: number, nowait: boolean): Promise<QuoteResponse> {
    const fresh = this.hot(entry, depth) ?? (await this.uncontended(entry, depth));
    if (fresh !== undefined) return fresh;
    // Read before starting subscriptions, so `nowait` reports the state it found.
    const hot = this.cached(entry, depth);
    this.warm(entry);
    if (nowait) return hot ?? unavailable(entry);
    const cold = await this.snapshotQuote(entry, depth);
    return cold ?? hot ?? unavailable(entry);
  }

  /**
   * A written slot that could not be copied met its writer mid-update: on a loaded machine the
   * book actor's thread can be descheduled inside a write for a time slice, longer than the
   * seqlock's spins. Waiting a millisecond or two lets it finish, which is cheaper and truer
   * than a cold snapshot of every feeding edge.
   */
  private async uncontended(entry: BookEntry, depth: number): Promise<QuoteResponse | undefined> {
    for (let i = 0; i < CONTENDED_RETRIES && this.reader.version(entry.slot) >= 0 && !this.reader.read(entry.slot, 0, this.snapshot); i++) {
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    return this.hot(entry, depth);
  }

  /** Starts background subscriptions on feeding edges that were not subscribed at start. */
  private warm(entry: BookEntry): void {
    if (this.warmed.has(entry.key)) return;
    this.warmed.add(entry.key);
    for (const edge of entry.edges) {
      if (listingOf(edge, entry.symbol)?.subscribed === true) continue;
      this.endpoint.tell(edgeKey(edge), { t: 'Subscribe', symbol: entry.symbol } satisfies EdgeMessage);
    }
  }

  private async snapshotQuote(entry: BookEntry, depth: number): Promise<QuoteResponse | undefined> {
    const replies = await Promise.all(
      entry.edges.map((edge) =>
        this.endpoint
          .ask<EdgeSnapshot | null>(edgeKey(edge), { t: 'Snapshot', symbol: entry.symbol, depth: MAX_DEPTH } satisfies EdgeMessage, COLD_WAIT_MS)
          .catch(() => null),
      ),
    );
    const consolidated = new ConsolidatedBook(entry.venues);
    let any = false;
    replies.forEach((reply, v) => {
      if (reply === null) return;
      any = true;
      consolidated.applySnapshot(v, pairsToLevels(reply.bids), pairsToLevels(reply.asks), reply.ts_ns);
    });
    if (!any) return undefined;
    const s = new QuoteSnapshot();
    const nbbo = consolidated.nbbo();
    s.updated_ms = Math.floor(nbbo.updated_ns / 1_000_000);
    s.bid_1e9 = nbbo.bid_1e9;
    s.ask_1e9 = nbbo.ask_1e9;
    s.bid_qty_1e8 = nbbo.bid_qty_1e8;
    s.ask_qty_1e8 = nbbo.ask_qty_1e8;
    s.crossed = nbbo.crossed;
    s.venueCount = entry.venues.length;
    for (let v = 0; v < entry.venues.length; v++) {
      const top = consolidated.venueTop(v);
      Object.assign(s.venues[v]!, {
        venue: v,
        bid_1e9: top.bid_1e9,
        ask_1e9: top.ask_1e9,
        bid_qty_1e8: top.bid_qty_1e8,
        ask_qty_1e8: top.ask_qty_1e8,
        last_tick_ms: Math.floor(top.updated_ns / 1_000_000),
      });
    }
    const d = Math.min(depth, MAX_DEPTH);
    s.bidCount = consolidated.mergedInto(Side.BID, d, s.bidPrices, s.bidQtys);
    s.askCount = consolidated.mergedInto(Side.ASK, d, s.askPrices, s.askQtys);
    return { ...fromSnapshot(entry, s, Date.now()), source: 'edge_rpc_snapshot' };
  }
}

export function nbboOf(bid_1e9: number, ask_1e9: number, bid_qty: number, ask_qty: number, crossed: boolean): QuoteNbbo {
  const { mid, spread_bps } = midAndSpread(bid_1e9, ask_1e9, crossed);
  return {
    bid: priceToDecimal(bid_1e9),
    ask: priceToDecimal(ask_1e9),
    mid,
    spread_bps,
    bid_size: qtyToDecimal(bid_qty),
    ask_size: qtyToDecimal(ask_qty),
    crossed,
  };
}

export function fromSnapshot(entry: BookEntry, s: QuoteSnapshot, nowMs: number): QuoteResponse {
  const venues: Record<string, QuoteVenue> = {};
  for (let i = 0; i < s.venueCount; i++) {
    const v = s.venues[i]!;
    if (v.bid_1e9 === 0 && v.ask_1e9 === 0) continue; // no book from that venue (feed down)
    venues[entry.venues[v.venue]!] = {
      bid: priceToDecimal(v.bid_1e9),
      ask: priceToDecimal(v.ask_1e9),
      bid_size: qtyToDecimal(v.bid_qty_1e8),
      ask_size: qtyToDecimal(v.ask_qty_1e8),
      age_ms: Math.max(0, nowMs - v.last_tick_ms),
    };
  }
  const bids = decimalLevels(s.bidPrices, s.bidQtys, s.bidCount);
  const asks = decimalLevels(s.askPrices, s.askQtys, s.askCount);
  return {
    symbol: entry.symbol,
    instrument_type: entry.instrument_type,
    nbbo: nbboOf(s.bid_1e9, s.ask_1e9, s.bid_qty_1e8, s.ask_qty_1e8, s.crossed),
    venues,
    book: { bids, asks },
    source: 'edge_nbbo',
    updated_ms: s.updated_ms,
  };
}

/** `fromSnapshot` as JSON text; field for field the same document (a unit test holds them equal). */
export function quoteJson(entry: BookEntry, s: QuoteSnapshot, nowMs: number, source: QuoteSource): string {
  const n = nbboOf(s.bid_1e9, s.ask_1e9, s.bid_qty_1e8, s.ask_qty_1e8, s.crossed);
  let out =
    `{"symbol":"${entry.symbol}","instrument_type":"${entry.instrument_type}","nbbo":{"bid":${n.bid},"ask":${n.ask},` +
    `"mid":${n.mid},"spread_bps":${n.spread_bps},"bid_size":${n.bid_size},"ask_size":${n.ask_size},"crossed":${n.crossed}},"venues":{`;
  let first = true;
  for (let i = 0; i < s.venueCount; i++) {
    const v = s.venues[i]!;
    if (v.bid_1e9 === 0 && v.ask_1e9 === 0) continue;
    out +=
      `${first ? '' : ','}"${entry.venues[v.venue]}":{"bid":${priceToDecimal(v.bid_1e9)},"ask":${priceToDecimal(v.ask_1e9)},` +
      `"bid_size":${qtyToDecimal(v.bid_qty_1e8)},"ask_size":${qtyToDecimal(v.ask_qty_1e8)},"age_ms":${Math.max(0, nowMs - v.last_tick_ms)}}`;
    first = false;
  }
  out += '},"book":{"bids":[';
  for (let i = 0; i < s.bidCount; i++) out += `${i === 0 ? '' : ','}[${priceToDecimal(s.bidPrices[i]!)},${qtyToDecimal(s.bidQtys[i]!)}]`;
  out += '],"asks":[';
  for (let i = 0; i < s.askCount; i++) out += `${i === 0 ? '' : ','}[${priceToDecimal(s.askPrices[i]!)},${qtyToDecimal(s.askQtys[i]!)}]`;
  return `${out}]},"source":"${source}","updated_ms":${s.updated_ms}}`;
}

function unavailable(entry: BookEntry): QuoteResponse {
  return {
    symbol: entry.symbol,
    instrument_type: entry.instrument_type,
    nbbo: nbboOf(0, 0, 0, 0, false),
    venues: {},
    book: { bids: [], asks: [] },
    source: 'unavailable',
    updated_ms: 0,
  };
}

function pairsToLevels(flat: number[]): { price_1e9: number; qty_1e8: number }[] {
  const out: { price_1e9: number; qty_1e8: number }[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push({ price_1e9: flat[i]!, qty_1e8: flat[i + 1]! });
  return out;
}
