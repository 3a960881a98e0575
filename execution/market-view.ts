import { QuoteCacheReader, QuoteSnapshot } from '../actors/book/quote-cache.ts';
import { book, type BookEntry } from '../actors/market/directory.ts';
import type { MarketView } from './types.ts';

/**
 * The consolidated market as execution reads it on any thread: symbol resolution from the
 * directory, the NBBO from the book actors' shared-memory quote slots (no message).
 */
export class SharedMarketView implements MarketView {
  private readonly reader: QuoteCacheReader;
  private readonly snapshot = new QuoteSnapshot();

  constructor(quotes: SharedArrayBuffer) {
    this.reader = new QuoteCacheReader(quotes);
  }

  /** The book for a symbol: the requested instrument type, else spot, else perp. */
  resolve(symbol: string, instrumentType?: string): BookEntry | undefined {
    const normalized = symbol.toUpperCase();
    if (instrumentType === 'spot' || instrumentType === 'perp') return book(normalized, instrumentType);
    if (instrumentType !== undefined) return undefined;
    return book(normalized, 'spot') ?? book(normalized, 'perp');
  }

  /** The cached NBBO in integer units, or undefined when the book has no data. */
  nbbo1e9(entry: BookEntry): { bid_1e9: number; ask_1e9: number; crossed: boolean } | undefined {
    const s = this.snapshot;
    if (!this.reader.read(entry.slot, 0, s)) return undefined;
    return { bid_1e9: s.bid_1e9, ask_1e9: s.ask_1e9, crossed: s.crossed };
  }
}
