import { createQuoteCache } from '../../actors/book/quote-cache.ts';
import { createDepthCache } from '../../actors/edge/depth-cache.ts';
import { BOOK_COUNT } from '../../actors/market/directory.ts';
import { createInterest } from '../../actors/market/interest.ts';
import { createMarketStats, statsSlotsFor } from '../../actors/prediction-edge/market-stats.ts';

/**
 * The shared memory of market data: quote cache slots (consolidated books), depth cache slots
 * (each edge's own book, for routing), WebSocket interest counters and the prediction markets'
 * figures (best prices and volumes, written by the prediction edges).
 */
export interface MarketMemory {
  quotes: SharedArrayBuffer;
  depth: SharedArrayBuffer;
  interest: SharedArrayBuffer;
  predictionStats: SharedArrayBuffer;
}

/** `predictionEvents`: the simulated prediction world's size (`SIM_PREDICTION_EVENTS`), which sizes the figures table. */
export function createMarketMemory(predictionEvents = 400): MarketMemory {
  return { quotes: createQuoteCache(BOOK_COUNT), depth: createDepthCache(), interest: createInterest(), predictionStats: createMarketStats(statsSlotsFor(predictionEvents)) };
}
