import { createQuoteCache } from '../../actors/book/quote-cache.ts';
import { createDepthCache } from '../../actors/edge/depth-cache.ts';
import { BOOK_COUNT } from '../../actors/market/directory.ts';
import { createInterest } from '../../actors/market/interest.ts';

/**
 * The shared memory of market data: quote cache slots (consolidated books), depth cache slots
 * (each edge's own book, for routing) and WebSocket interest counters.
 */
export interface MarketMemory {
  quotes: SharedArrayBuffer;
  depth: SharedArrayBuffer;
  interest: SharedArrayBuffer;
}

export function createMarketMemory(): MarketMemory {
  return { quotes: createQuoteCache(BOOK_COUNT), depth: createDepthCache(), interest: createInterest() };
}
