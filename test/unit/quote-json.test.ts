import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QuoteSnapshot } from '../../actors/book/quote-cache.ts';
import { book } from '../../actors/market/directory.ts';
import { fromSnapshot, quoteJson } from '../../gateway/market/quotes.ts';

/** The hand-written serialiser of the hot path must say exactly what the object path says. */
describe('quoteJson', () => {
  it('equals JSON.stringify of the response object for the same snapshot', () => {
    const entry = book('BTC-USDT', 'spot')!;
    const s = new QuoteSnapshot();
    s.updated_ms = 1_795_000_000_123;
    s.bid_1e9 = 98_500_120_000_000;
    s.ask_1e9 = 98_501_370_000_000;
    s.bid_qty_1e8 = 12_345_678;
    s.ask_qty_1e8 = 1;
    s.venueCount = entry.venues.length;
    for (let v = 0; v < entry.venues.length; v++) {
      Object.assign(s.venues[v]!, {
        venue: v,
        bid_1e9: v === 2 ? 0 : s.bid_1e9 - v * 1_000_000,
        ask_1e9: v === 2 ? 0 : s.ask_1e9 + v * 1_000_000,
        bid_qty_1e8: 100 + v,
        ask_qty_1e8: 200 + v,
        last_tick_ms: s.updated_ms - v,
      });
    }
    s.bidCount = 3;
    s.askCount = 2;
    s.bidPrices.set([98_500_120_000_000, 98_500_000_000_000, 98_499_990_000_000]);
    s.bidQtys.set([1, 2_000_000, 300_000_000]);
    s.askPrices.set([98_501_370_000_000, 98_502_000_000_000]);
    s.askQtys.set([5, 6]);
    const now = s.updated_ms + 40;
    assert.deepEqual(JSON.parse(quoteJson(entry, s, now, 'edge_nbbo')), JSON.parse(JSON.stringify(fromSnapshot(entry, s, now))));
    s.crossed = true;
    assert.deepEqual(JSON.parse(quoteJson(entry, s, now, 'edge_nbbo')), JSON.parse(JSON.stringify(fromSnapshot(entry, s, now))));
  });
});
