/**
 * The data engine's signals (gateway/market/signals.ts) against figures worked by hand, and the
 * mid history they read (gateway/market/mid-history.ts): the ring's order, wrap and reference
 * search, and the sampler's rules (fresh, two-sided books only). docs/data-engine.md has the
 * formulas.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createQuoteCache, QuoteSlotWriter, QuoteSnapshot } from '../../actors/book/quote-cache.ts';
import type { BookEntry } from '../../actors/market/directory.ts';
import { MID_HISTORY_SLOTS, MidHistory, MidRing } from '../../gateway/market/mid-history.ts';
import {
  basisBps,
  bookImbalance,
  computeSignals,
  mid1e9,
  realizedVol,
  referenceSample,
  returnBps,
  spreadBps,
  tradeFlow,
  type MidSample,
} from '../../gateway/market/signals.ts';

const E9 = 1e9;
const E8 = 1e8;

/** Mids 100, 101, 100, 100 (price units) one second apart, from t = 10 s. */
const MIDS: MidSample[] = [
  { ts_ms: 10_000, mid_1e9: 100 * E9 },
  { ts_ms: 11_000, mid_1e9: 101 * E9 },
  { ts_ms: 12_000, mid_1e9: 100 * E9 },
  { ts_ms: 13_000, mid_1e9: 100 * E9 },
];

describe('signals: spread, mid, return, basis', () => {
  it('spread in bps of the mid, negative when crossed, null without both sides', () => {
    // (101 - 100) / 100.5 x 10,000 = 99.502487... -> 99.5025
    assert.equal(spreadBps(100 * E9, 101 * E9), 99.5025);
    assert.equal(spreadBps(101 * E9, 100 * E9), -99.5025);
    assert.equal(spreadBps(0, 101 * E9), null);
    assert.equal(spreadBps(100 * E9, 0), null);
  });

  it('the mid keeps the half of an odd bid + ask', () => {
    assert.equal(mid1e9(3, 4), 3.5);
    assert.equal(mid1e9(0, 4), null);
  });

  it('the reference of a return is the last sample at or before now - horizon', () => {
    // now 13.5 s, horizon 2 s: the cutoff is 11.5 s, so the 11 s sample.
    assert.deepEqual(referenceSample(MIDS, 13_500, 2_000), MIDS[1]);
    // A sample exactly at the cutoff is the reference.
    assert.deepEqual(referenceSample(MIDS, 14_000, 2_000), MIDS[2]);
    // A horizon the history does not reach: none.
    assert.equal(referenceSample(MIDS, 13_500, 4_000), undefined);
    assert.equal(referenceSample([], 13_500, 1_000), undefined);
  });

  it('return and basis in bps', () => {
    // 101 / 100 - 1 = 1% = 100 bps; 100 / 101 - 1 = -0.990099...% = -99.0099 bps
    assert.equal(returnBps(101 * E9, 100 * E9), 100);
    assert.equal(returnBps(100 * E9, 101 * E9), -99.0099);
    // (100.5 - 100) / 100 = 0.5% = 50 bps
    assert.equal(basisBps(100.5 * E9, 100 * E9), 50);
    assert.equal(basisBps(99.99 * E9, 100 * E9), -1);
  });
});

describe('signals: realised volatility', () => {
  it('sum of squared log returns over the seconds, per sqrt-second in bps and annualised', () => {
    // r = ln(101/100) = 0.0099503309, ln(100/101) = -0.0099503309, ln(100/100) = 0
    // sum r^2 = 2 x 0.0000990091 = 0.000198018168; over T = 3 s: 0.0000660060561 per s
    // sqrt = 0.00812441 -> 81.2441 bps per sqrt-s; x sqrt(31,536,000 s) = 45.624193 (4,562% a year)
    assert.deepEqual(realizedVol(MIDS), { bps_per_sqrt_s: 81.2441, annualized: 45.624193, samples: 4, window_s: 3 });
  });

  it('a flat mid has no volatility; fewer than two samples has none to give', () => {
    const flat = [0, 500, 1000].map((ts_ms) => ({ ts_ms, mid_1e9: 5 * E9 }));
    assert.deepEqual(realizedVol(flat), { bps_per_sqrt_s: 0, annualized: 0, samples: 3, window_s: 1 });
    assert.deepEqual(realizedVol([MIDS[0]!]), { bps_per_sqrt_s: null, annualized: null, samples: 1, window_s: 0 });
    assert.deepEqual(realizedVol([]), { bps_per_sqrt_s: null, annualized: null, samples: 0, window_s: 0 });
  });

  it('scales with the square root of time: the same moves over four times the seconds halve it', () => {
    const slow = MIDS.map((s, i) => ({ ts_ms: 10_000 + i * 4_000, mid_1e9: s.mid_1e9 }));
    // 0.000198018168 / 12 s = 0.0000165015140 per s; sqrt = 0.00406220 -> 40.6221 bps per sqrt-s
    assert.equal(realizedVol(slow).bps_per_sqrt_s, 40.6221);
  });
});

describe('signals: book and trade-flow imbalance', () => {
  it('sums the first N levels each side', () => {
    const bids = [3 * E8, 1 * E8, 5 * E8];
    const asks = [1 * E8, 1 * E8];
    // 2 levels: bid 4, ask 2 -> (4 - 2) / 6 = 0.333333
    assert.deepEqual(bookImbalance(bids, asks, 2), { levels: 2, bid_depth_1e8: 4n * 100_000_000n, ask_depth_1e8: 2n * 100_000_000n, imbalance: 0.333333 });
    // 1 level: 3 vs 1 -> 0.5
    assert.equal(bookImbalance(bids, asks, 1).imbalance, 0.5);
    // 10 levels: all there is, 9 vs 2 -> 7 / 11 = 0.636364
    assert.equal(bookImbalance(bids, asks, 10).imbalance, 0.636364);
    assert.deepEqual(bookImbalance([], [], 5), { levels: 5, bid_depth_1e8: 0n, ask_depth_1e8: 0n, imbalance: null });
    assert.equal(bookImbalance([], [2 * E8], 5).imbalance, -1);
  });

  it('depth sums stay exact past 2^53', () => {
    const big = 2 ** 52; // two of them pass 2^53
    const out = bookImbalance([big, big, 1], [], 3);
    assert.equal(out.bid_depth_1e8, 2n ** 53n + 1n);
    assert.equal(out.imbalance, 1);
  });

  it("takers' buy against sell quantity", () => {
    const trades = [
      { side: 'buy' as const, qty_1e8: 3 * E8 },
      { side: 'sell' as const, qty_1e8: 2 * E8 },
      { side: 'buy' as const, qty_1e8: 1 * E8 },
    ];
    // buy 4, sell 2 -> (4 - 2) / 6 = 0.333333
    assert.deepEqual(tradeFlow(trades, false), { trades: 3, buy_qty_1e8: 400_000_000n, sell_qty_1e8: 200_000_000n, imbalance: 0.333333, truncated: false });
    assert.deepEqual(tradeFlow([], true), { trades: 0, buy_qty_1e8: 0n, sell_qty_1e8: 0n, imbalance: null, truncated: true });
  });
});

describe('signals: every signal of one book', () => {
  it('puts the pieces together at one instant', () => {
    const out = computeSignals({
      now_ms: 13_500,
      horizon_s: 3,
      levels: 2,
      // bid 100.9, ask 101.1: mid 101, spread 0.2 / 101 = 19.8020 bps
      book: { bid_1e9: 100.9 * E9, ask_1e9: 101.1 * E9, crossed: false, updated_ms: 13_200, bid_qtys_1e8: [2 * E8, 2 * E8, 9 * E8], ask_qtys_1e8: [1 * E8, 3 * E8] },
      mids: MIDS,
      history_from_ms: 10_000,
      trades: [{ side: 'sell', qty_1e8: 1 * E8 }],
      trades_truncated: false,
      fair: { underlying: 'BTC', fair_mid_1e9: 100 * E9, confidence: 0.9 },
    });
    assert.deepEqual(out, {
      bid_1e9: 100.9 * E9,
      ask_1e9: 101.1 * E9,
      mid: 101,
      crossed: false,
      quote_age_ms: 300,
      spread_bps: 19.802,
      // the cutoff 10.5 s: the reference is the 10 s sample (100); 101 / 100 - 1 = 100 bps
      mid_return_bps: 100,
      return_reference_ms: 10_000,
      return_reference_mid: 100,
      // from the reference on: all four samples (above)
      realized_vol: { bps_per_sqrt_s: 81.2441, annualized: 45.624193, samples: 4, window_s: 3 },
      // 2 levels: bid 4, ask 4 -> 0
      book_imbalance: { levels: 2, bid_depth_1e8: 400_000_000n, ask_depth_1e8: 400_000_000n, imbalance: 0 },
      trade_flow: { trades: 1, buy_qty_1e8: 0n, sell_qty_1e8: 100_000_000n, imbalance: -1, truncated: false },
      // (101 - 100) / 100 = 100 bps
      fair_price: { underlying: 'BTC', fair_mid_1e9: 100 * E9, confidence: 0.9, basis_bps: 100 },
      history_s: 3.5,
    });
  });

  it('a horizon past the history: no return, volatility over what there is', () => {
    const out = computeSignals({ now_ms: 13_500, horizon_s: 60, levels: 5, book: undefined, mids: MIDS, history_from_ms: 10_000, trades: [], trades_truncated: false, fair: null });
    assert.equal(out.mid_return_bps, null);
    assert.equal(out.return_reference_ms, null);
    assert.equal(out.return_reference_mid, null);
    assert.equal(out.realized_vol.samples, 4);
    assert.equal(out.mid, null);
    assert.equal(out.spread_bps, null);
    assert.equal(out.quote_age_ms, null);
    assert.equal(out.fair_price, null);
  });

  it('the volatility window starts at the reference: older samples are left out', () => {
    // now 13 s, horizon 1 s: reference 12 s (100), then 13 s (100): flat.
    const out = computeSignals({ now_ms: 13_000, horizon_s: 1, levels: 5, book: undefined, mids: MIDS, history_from_ms: 10_000, trades: [], trades_truncated: false, fair: null });
    assert.deepEqual(out.realized_vol, { bps_per_sqrt_s: 0, annualized: 0, samples: 2, window_s: 1 });
  });
});

describe('mid history', () => {
  it('a ring keeps samples ascending and finds the reference by time', () => {
    const ring = new MidRing();
    assert.equal(ring.oldestMs(), null);
    assert.deepEqual(ring.since(0), []);
    for (const s of MIDS) ring.push(s.ts_ms, s.mid_1e9);
    ring.push(12_500, 1); // earlier than the last: dropped
    assert.equal(ring.size, 4);
    assert.deepEqual(ring.since(11_500), MIDS.slice(1), 'led by the last sample at or before 11.5 s');
    assert.deepEqual(ring.since(12_000), MIDS.slice(2));
    assert.deepEqual(ring.since(0), MIDS, 'nothing before: from the oldest');
    assert.deepEqual(ring.since(99_000), MIDS.slice(3), 'everything before: the last one');
  });

  it('overwrites the oldest once full', () => {
    const ring = new MidRing();
    const n = MID_HISTORY_SLOTS + 10;
    for (let i = 0; i < n; i++) ring.push(i * 500, i);
    assert.equal(ring.size, MID_HISTORY_SLOTS);
    assert.equal(ring.oldestMs(), 10 * 500);
    const tail = ring.since((n - 3) * 500);
    assert.deepEqual(tail.map((s) => s.mid_1e9), [n - 3, n - 2, n - 1]);
    assert.equal(ring.since(0).length, MID_HISTORY_SLOTS);
  });

  it('samples fresh two-sided books from the quote cache, and nothing else', () => {
    const cache = createQuoteCache(3);
    const entries: BookEntry[] = [0, 1, 2].map((slot) => ({ symbol: `S${slot}-USD`, instrument_type: 'spot', key: `book:S${slot}-USD`, slot, venues: [], edges: [] }));
    const write = (slot: number, bid: number, ask: number, updated_ms: number) => {
      const s = new QuoteSnapshot();
      Object.assign(s, { version: 1, updated_ms, bid_1e9: bid, ask_1e9: ask });
      new QuoteSlotWriter(cache, slot).write(s);
    };
    const history = new MidHistory(cache, entries);
    write(0, 100, 103, 1_000); // fresh, two-sided
    write(1, 100, 0, 1_000); // one-sided
    // slot 2: never written
    history.sample(1_000);
    write(0, 100, 105, 1_000);
    history.sample(1_500);
    history.sample(31_000); // unchanged for 30 s: stale, not sampled
    assert.deepEqual(history.since(entries[0]!, 0), [
      { ts_ms: 1_000, mid_1e9: 101.5 },
      { ts_ms: 1_500, mid_1e9: 102.5 },
    ]);
    assert.equal(history.oldestMs(entries[0]!), 1_000);
    assert.deepEqual(history.since(entries[1]!, 0), []);
    assert.equal(history.oldestMs(entries[2]!), null);
  });
});
