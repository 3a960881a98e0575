/**
 * Market analytics of one consolidated quote: the depth sums, the imbalance, and a book crossed
 * across venues said as such (mid and spread_bps 0 as in the quote, the spread negative).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { marketAnalytics } from '../../gateway/market/market-analytics.ts';
import type { QuoteResponse } from '../../gateway/market/quotes.ts';

const quote = (bid: number, ask: number, crossed: boolean): QuoteResponse => ({
  symbol: 'BTC-USDT',
  instrument_type: 'spot',
  nbbo: { bid, ask, mid: crossed ? 0 : (bid + ask) / 2, spread_bps: crossed ? 0 : ((ask - bid) / ((bid + ask) / 2)) * 10_000, bid_size: 1, ask_size: 2, crossed },
  venues: {
    binance: { bid, ask: ask + 1, bid_size: 1, ask_size: 1, age_ms: 3 },
    okx: { bid: bid - 1, ask, bid_size: 1, ask_size: 2, age_ms: 4 },
  },
  book: { bids: [[bid, 1], [bid - 1, 3]], asks: [[ask, 2], [ask + 1, 1], [ask + 2, 5]] },
  source: 'edge_nbbo',
  updated_ms: 1,
});

describe('market analytics', () => {
  it('sums the first levels of each side and their imbalance', () => {
    const m = marketAnalytics(quote(100, 101, false), 2);
    assert.deepEqual([m.bid_depth, m.ask_depth, m.bid_depth_notional, m.ask_depth_notional], [4, 3, 100 + 99 * 3, 101 * 2 + 102]);
    assert.equal(m.imbalance, 1 / 7);
    assert.deepEqual([m.mid, m.spread, m.crossed], [100.5, 1, false]);
  });

  it('a book crossed across venues: crossed, mid 0, the spread negative', () => {
    const m = marketAnalytics(quote(101.5, 101, true), 5);
    assert.deepEqual([m.crossed, m.mid, m.spread_bps, m.spread], [true, 0, 0, -0.5]);
  });
});
