import { createQuoteCache } from '../../actors/book/quote-cache.ts';
import { BOOK_COUNT } from '../../actors/market/directory.ts';
import { createInterest } from '../../actors/market/interest.ts';

/** The shared memory of market data: quote cache slots and WebSocket interest counters. */
export interface MarketMemory {
  quotes: SharedArrayBuffer;
  interest: SharedArrayBuffer;
}

export function createMarketMemory(): MarketMemory {
  return { quotes: createQuoteCache(BOOK_COUNT), interest: createInterest() };
}
