import type { InstrumentType } from '../../domain/market.ts';
import { ASSETS, EDGES, edgesListing, symbolsOf } from '../../domain/venues.ts';

/**
 * Where market data lives, derived once from the static venue catalog so every thread computes
 * the same answers without talking: which book actor owns a (symbol, instrument type), which
 * venues feed it, which quote-cache slot it writes, and the index of each underlying.
 */
export type BookType = 'spot' | 'perp';

export interface BookEntry {
  symbol: string;
  instrument_type: BookType;
  key: string;
  slot: number;
  /** Plain venue ids feeding this book; index = the venue's position in the ConsolidatedBook. */
  venues: readonly string[];
  /** Edge ids feeding this book, parallel to `venues`. */
  edges: readonly string[];
}

export function bookKey(symbol: string, instrument_type: BookType): string {
  return instrument_type === 'spot' ? `book:${symbol}` : `book:${symbol}:perp`;
}

const BOOKS: BookEntry[] = [];
const BY_KEY = new Map<string, BookEntry>();
for (const instrument_type of ['spot', 'perp'] as const) {
  for (const symbol of symbolsOf(instrument_type)) {
    const feeding = edgesListing(symbol, instrument_type);
    const entry: BookEntry = {
      symbol,
      instrument_type,
      key: bookKey(symbol, instrument_type),
      slot: BOOKS.length,
      venues: feeding.map((e) => e.venue),
      edges: feeding.map((e) => e.edge_id),
    };
    BOOKS.push(entry);
    BY_KEY.set(entry.key, entry);
  }
}

export const BOOK_COUNT = BOOKS.length;

export function books(): readonly BookEntry[] {
  return BOOKS;
}

export function bookByKey(key: string): BookEntry | undefined {
  return BY_KEY.get(key);
}

export function book(symbol: string, instrument_type: BookType): BookEntry | undefined {
  return BY_KEY.get(bookKey(symbol, instrument_type));
}

/** Underlyings in catalog order; the index keys shared per-underlying state (WS interest). */
export const UNDERLYING_NAMES: readonly string[] = ASSETS.map((a) => a.asset);
const UNDERLYING_INDEX = new Map(UNDERLYING_NAMES.map((u, i) => [u, i]));

export function underlyingIndex(underlying: string): number | undefined {
  return UNDERLYING_INDEX.get(underlying);
}

export function edgeKey(edge_id: string): string {
  return `edge:${edge_id}`;
}

export function edgeIds(): string[] {
  return EDGES.map((e) => e.edge_id);
}

export function isBookType(t: InstrumentType | string): t is BookType {
  return t === 'spot' || t === 'perp';
}
