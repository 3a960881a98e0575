/**
 * TCA (execution/tca/tca.ts): hand-computed reports, arithmetic in the comments. "units" are 1e-4
 * bps, the integers every bps figure is computed in. Properties are in tca-properties.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bpsToUnits, computeTca, divRound, tcaInputError, type TcaFill, type TcaInput, type TcaReport } from '../../execution/tca/tca.ts';
import type { VenueView } from '../../execution/sor/sor-types.ts';
import { venueFee1e9 } from '../../domain/units.ts';
import { bestSingleVenue } from '../../execution/views.ts';

const USD = 1_000_000_000;
const BTC = 100_000_000;
const T0 = 1_000_000_000_000; // arrival, ns

function f(venue: string, qty: number, price: number, fee: number, dtMs: number, isMaker = false): TcaFill {
  return { venue, qty_1e8: qty, price_1e9: price, fee_1e9: fee, ts_ns: T0 + dtMs * 1_000_000, is_maker: isMaker };
}

function tca(input: TcaInput): TcaReport {
  const r = computeTca(input);
  assert.ok(r !== undefined, String(tcaInputError(input)));
  return r;
}

/** The worked example of docs/positions-and-tca.md: buy 1 BTC split over two venues. */
const buyExample: TcaInput = {
  side: 'buy',
  qty_1e8: BTC,
  fills: [
    f('binance', 60_000_000, 100_010 * USD, 60_006_000_000, 2), // 0.6 @ 100,010, fee $60.006 (10 bps)
    f('coinbase', 40_000_000, 100_025 * USD, 20_005_000_000, 5), // 0.4 @ 100,025, fee $20.005 (5 bps)
  ],
  arrival_mid_1e9: 100_000 * USD, // bid 99,990 / ask 100,010
  arrival_ts_ns: T0,
  completed_ts_ns: T0 + 7_500_000, // 7.5 ms
  best_single_venue: { venue: 'binance', avg_price_1e9: 100_030 * USD, fee_bps: 10 },
  arrival_spread_bps: 2, // 20 / 100,000
};

describe('tca: the worked example (buy, two venues)', () => {
  const r = tca(buyExample);

  it('VWAP, quantities, notional and fees', () => {
    // sum(p x q) = 100,010 x 0.6 + 100,025 x 0.4 = 60,006 + 40,010 = 100,016 (USD)
    assert.equal(r.achieved_vwap_1e9, 100_016 * USD);
    assert.equal(r.arrival_mid_1e9, 100_000 * USD);
    assert.equal(r.filled_qty_1e8, BTC);
    assert.equal(r.fill_ratio, 1);
    assert.equal(r.notional_usd_1e9, 100_016 * USD);
    assert.equal(r.fees_usd_1e9, 80_011_000_000); // 60.006 + 20.005
  });

  it('decomposes the cost: shortfall = spread + impact, total = shortfall + fee', () => {
    // shortfall = (100,016 - 100,000) / 100,000 x 1e4 = 1.6 bps
    assert.equal(r.implementation_shortfall_bps, 1.6);
    // spread cost = 2 / 2 = 1 bps; impact = 1.6 - 1 = 0.6 bps
    assert.equal(r.spread_cost_bps, 1);
    assert.equal(r.impact_bps, 0.6);
    // fee = 80.011 / 100,016 x 1e4 = 7.99982003... -> 7.9998 bps (79,998 units)
    assert.equal(r.fee_bps, 7.9998);
    // total = 16,000 + 79,998 = 95,998 units = 9.5998 bps
    assert.equal(r.total_cost_bps, 9.5998);
    assert.equal(bpsToUnits(r.implementation_shortfall_bps), bpsToUnits(r.spread_cost_bps) + bpsToUnits(r.impact_bps));
    assert.equal(bpsToUnits(r.total_cost_bps), bpsToUnits(r.implementation_shortfall_bps) + bpsToUnits(r.fee_bps));
  });

  it('savings against the best single venue, in bps and USD', () => {
    // benchmark = (100,030 - 100,000) / 100,000 x 1e4 + 10 = 3 + 10 = 13 bps (130,000 units)
    // savings = 130,000 - 95,998 = 34,002 units = 3.4002 bps
    assert.equal(r.savings_vs_best_single_venue_bps, 3.4002);
    // USD: price (100,030 - 100,016) x 1 = $14, + benchmark fee 10 bps x $100,030 = $100.03,
    //      - our fees $80.011 = $34.019
    assert.equal(r.savings_usd_1e9, 34_019_000_000);
    assert.deepEqual(r.best_single_venue, buyExample.best_single_venue);
  });

  it('times and venues', () => {
    assert.equal(r.execution_time_ms, 7); // 7.5 ms floored
    assert.equal(r.time_to_first_fill_ms, 2);
    assert.deepEqual(r.venues, [
      { venue: 'binance', qty_1e8: 60_000_000, vwap_1e9: 100_010 * USD, fee_1e9: 60_006_000_000, share: 0.6 },
      { venue: 'coinbase', qty_1e8: 40_000_000, vwap_1e9: 100_025 * USD, fee_1e9: 20_005_000_000, share: 0.4 },
    ]);
  });

  it('prediction fields are zero for spot', () => {
    assert.equal(r.is_prediction, false);
    assert.equal(r.arrival_implied_prob_bps, 0);
    assert.equal(r.achieved_implied_prob_bps, 0);
    assert.equal(r.probability_slippage_bps, 0);
  });
});

describe('tca: other cases', () => {
  it('a sell mirrors the buy: paying below the mid is the cost', () => {
    const r = tca({
      ...buyExample,
      side: 'sell',
      fills: [f('binance', 60_000_000, 99_990 * USD, 60 * USD, 2), f('coinbase', 40_000_000, 99_975 * USD, 20 * USD, 5)],
      best_single_venue: { venue: 'binance', avg_price_1e9: 99_970 * USD, fee_bps: 10 },
    });
    // VWAP = 99,990 x 0.6 + 99,975 x 0.4 = 59,994 + 39,990 = 99,984
    assert.equal(r.achieved_vwap_1e9, 99_984 * USD);
    // shortfall = -(99,984 - 100,000) / 100,000 = +1.6 bps; spread 1, impact 0.6
    assert.equal(r.implementation_shortfall_bps, 1.6);
    assert.equal(r.impact_bps, 0.6);
    // fee = 80 / 99,984 x 1e4 = 8.00128... -> 8.0013; total = 1.6 + 8.0013 = 9.6013
    assert.equal(r.fee_bps, 8.0013);
    assert.equal(r.total_cost_bps, 9.6013);
    // benchmark = -(99,970 - 100,000) / 100,000 x 1e4 + 10 = 13 bps; savings = 13 - 9.6013
    assert.equal(r.savings_vs_best_single_venue_bps, 3.3987);
    // USD: (99,984 - 99,970) = $14 + 10 bps x $99,970 = $99.97 - $80 = $33.97
    assert.equal(r.savings_usd_1e9, 33_970_000_000);
  });

  it('a maker fill inside the spread with a rebate: negative impact and negative fee', () => {
    const r = tca({
      ...buyExample,
      fills: [f('kraken', BTC, 99_995 * USD, -500_000_000, 40, true)], // 1 BTC @ 99,995, rebate $0.50
      best_single_venue: null,
    });
    // shortfall = (99,995 - 100,000) / 100,000 = -0.5 bps; impact = -0.5 - 1 = -1.5 bps
    assert.equal(r.implementation_shortfall_bps, -0.5);
    assert.equal(r.spread_cost_bps, 1);
    assert.equal(r.impact_bps, -1.5);
    // fee = -0.5 / 99,995 x 1e8 units = -500.025 -> -500 units (nearest) = -0.05 bps
    assert.equal(r.fee_bps, -0.05);
    assert.equal(r.total_cost_bps, -0.55);
    assert.equal(r.savings_vs_best_single_venue_bps, null);
    assert.equal(r.savings_usd_1e9, null);
    assert.equal(r.best_single_venue, null);
  });

  it('a partial fill: fill ratio below 1, costs over what filled', () => {
    const r = tca({ ...buyExample, qty_1e8: 4 * BTC });
    assert.equal(r.fill_ratio, 0.25);
    assert.equal(r.implementation_shortfall_bps, 1.6);
    assert.equal(r.savings_vs_best_single_venue_bps, 3.4002, 'savings compare per unit, over what filled');
  });

  it('no fills: a report with zero costs and null VWAP, first fill and savings', () => {
    const r = tca({ ...buyExample, fills: [] });
    assert.deepEqual(r, {
      achieved_vwap_1e9: null,
      arrival_mid_1e9: 100_000 * USD,
      filled_qty_1e8: 0,
      fill_ratio: 0,
      implementation_shortfall_bps: 0,
      spread_cost_bps: 0,
      impact_bps: 0,
      fee_bps: 0,
      total_cost_bps: 0,
      fees_usd_1e9: 0,
      notional_usd_1e9: 0,
      best_single_venue: buyExample.best_single_venue,
      savings_vs_best_single_venue_bps: null,
      savings_usd_1e9: null,
      execution_time_ms: 7,
      time_to_first_fill_ms: null,
      venues: [],
      is_prediction: false,
      arrival_implied_prob_bps: 0,
      achieved_implied_prob_bps: 0,
      probability_slippage_bps: 0,
    });
    assert.equal(tca({ ...buyExample, fills: [], arrival_mid_1e9: 0 }).arrival_mid_1e9, 0, 'no mid is fine with no fills');
  });

  it('a prediction buy: probability bps beside the price bps', () => {
    const r = tca({
      side: 'buy',
      qty_1e8: 100 * BTC, // 100 contracts
      fills: [f('kalshi', 60 * BTC, 560_000_000, 0, 1), f('polymarket', 40 * BTC, 570_000_000, 0, 3)],
      arrival_mid_1e9: 550_000_000, // 0.55: bid 0.54 / ask 0.56
      arrival_ts_ns: T0,
      completed_ts_ns: T0 + 4_000_000,
      best_single_venue: null,
      arrival_spread_bps: (0.02 / 0.55) * 10_000, // 363.6363... bps of the mid
      is_prediction: true,
    });
    // VWAP = 0.56 x 0.6 + 0.57 x 0.4 = 0.564
    assert.equal(r.achieved_vwap_1e9, 564_000_000);
    assert.equal(r.is_prediction, true);
    assert.equal(r.arrival_implied_prob_bps, 5_500); // 0.55 = 5,500 bps of probability
    assert.equal(r.achieved_implied_prob_bps, 5_640);
    assert.equal(r.probability_slippage_bps, 140); // 5,640 - 5,500, against the buyer
    // price bps: (0.564 - 0.55) / 0.55 x 1e4 = 254.54545... -> 254.5455
    assert.equal(r.implementation_shortfall_bps, 254.5455);
    // spread cost = 363.6363.../2 = 181.8181... -> 181.8182; impact = 2,545,455 - 1,818,182 units
    assert.equal(r.spread_cost_bps, 181.8182);
    assert.equal(r.impact_bps, 72.7273);
    assert.equal(r.notional_usd_1e9, 56_400_000_000); // $56.40
  });

  it('a prediction sell: selling below the arrival probability is slippage against the client', () => {
    const r = tca({
      side: 'sell',
      qty_1e8: 10 * BTC,
      fills: [f('kalshi', 10 * BTC, 530_000_000, 0, 1)],
      arrival_mid_1e9: 550_000_000,
      arrival_ts_ns: T0,
      completed_ts_ns: T0,
      best_single_venue: null,
      arrival_spread_bps: 0,
      is_prediction: true,
    });
    assert.equal(r.probability_slippage_bps, 200); // -(5,300 - 5,500)
    assert.equal(r.achieved_implied_prob_bps, 5_300);
    const none = tca({ ...buyExample, fills: [], is_prediction: true, arrival_mid_1e9: 550_000_000 });
    assert.equal(none.arrival_implied_prob_bps, 5_500);
    assert.equal(none.achieved_implied_prob_bps, null, 'a prediction order with no fill has no achieved probability');
  });

  it('a crossed arrival book (negative spread) costs no spread', () => {
    const r = tca({ ...buyExample, arrival_spread_bps: -3 });
    assert.equal(r.spread_cost_bps, 0);
    assert.equal(r.impact_bps, 1.6);
  });

  it('values a non-USD quote with quote_usd_1e9 (ETH-BTC with BTC at $60,000)', () => {
    const r = tca({
      ...buyExample,
      qty_1e8: 2 * BTC,
      fills: [f('kraken', 2 * BTC, 50_000_000, 6 * USD, 1)], // 2 ETH @ 0.05 BTC = 0.1 BTC = $6,000
      arrival_mid_1e9: 50_000_000,
      best_single_venue: null,
      quote_usd_1e9: 60_000 * USD,
    });
    assert.equal(r.notional_usd_1e9, 6_000 * USD);
    assert.equal(r.fee_bps, 10); // $6 / $6,000
    assert.equal(r.implementation_shortfall_bps, 0);
  });

  it('times with real epoch nanoseconds, and fills stamped before arrival count as 0 ms', () => {
    const t0 = 1_700_000_000_000_000_000; // a double: multiples of 256 ns are exact here
    const r = tca({
      ...buyExample,
      fills: [{ ...(buyExample.fills[0] as TcaFill), ts_ns: t0 + 5_000_192 }, { ...(buyExample.fills[1] as TcaFill), ts_ns: t0 + 9_000_192 }],
      arrival_ts_ns: t0,
      completed_ts_ns: t0 + 12_000_256,
    });
    assert.equal(r.time_to_first_fill_ms, 5);
    assert.equal(r.execution_time_ms, 12);
    const early = tca({ ...buyExample, fills: [{ ...(buyExample.fills[0] as TcaFill), ts_ns: T0 - 3_000_000 }], completed_ts_ns: T0 - 1 });
    assert.equal(early.time_to_first_fill_ms, 0);
    assert.equal(early.execution_time_ms, 0);
  });

  it('orders venues by quantity, ties by name, and merges fills of one venue', () => {
    const r = tca({
      ...buyExample,
      qty_1e8: 4 * BTC,
      fills: [
        f('okx', BTC, 100_000 * USD, 0, 1),
        f('bybit', BTC, 100_002 * USD, 0, 1),
        f('okx', BTC, 100_001 * USD, 0, 2), // okx: 2 BTC, VWAP 100,000.5
      ],
    });
    assert.deepEqual(r.venues.map((v) => [v.venue, v.qty_1e8, v.vwap_1e9, v.share]), [
      ['okx', 2 * BTC, 100_000_500_000_000, 2 / 3],
      ['bybit', BTC, 100_002 * USD, 1 / 3],
    ]);
    const tie = tca({ ...buyExample, fills: [f('okx', BTC, 100_000 * USD, 0, 1), f('bybit', BTC, 100_000 * USD, 0, 1)] });
    assert.deepEqual(tie.venues.map((v) => v.venue), ['bybit', 'okx']);
  });

  it('rejects unusable input with a reason', () => {
    const bad: [Partial<TcaInput>, string][] = [
      [{ side: 'BUY' as 'buy' }, 'invalid_side'],
      [{ qty_1e8: 0 }, 'invalid_qty'],
      [{ qty_1e8: 1.5 }, 'invalid_qty'],
      [{ fills: [f('x', 0, USD, 0, 0)] }, 'invalid_fill'],
      [{ fills: [f('x', 1, -1, 0, 0)] }, 'invalid_fill'],
      [{ fills: [f('x', 1, 1, 0.5, 0)] }, 'invalid_fill'],
      [{ arrival_mid_1e9: 0 }, 'invalid_arrival_mid'],
      [{ arrival_mid_1e9: -1 }, 'invalid_arrival_mid'],
      [{ completed_ts_ns: Number.NaN }, 'invalid_timestamps'],
      [{ arrival_spread_bps: Number.POSITIVE_INFINITY }, 'invalid_spread'],
      [{ quote_usd_1e9: 0 }, 'invalid_quote_usd'],
      [{ best_single_venue: { venue: 'x', avg_price_1e9: 0, fee_bps: 1 } }, 'invalid_benchmark'],
    ];
    for (const [over, reason] of bad) {
      const input = { ...buyExample, ...over };
      assert.equal(tcaInputError(input), reason, JSON.stringify(over));
      assert.equal(computeTca(input), undefined);
    }
    assert.equal(tcaInputError(buyExample), undefined);
  });

  it('divRound rounds halves away from zero', () => {
    assert.equal(divRound(5n, 2n), 3n);
    assert.equal(divRound(-5n, 2n), -3n);
    assert.equal(divRound(4n, 3n), 1n);
    assert.equal(divRound(-4n, 3n), -1n);
    assert.equal(divRound(5n, 3n), 2n);
    assert.equal(divRound(-5n, 3n), -2n);
  });
});

describe('tca: the benchmark walk (exact savings, eligible venues only)', () => {
  // A venue's ask side: 0.3 @ 100,010.00000001 and 0.5 @ 100,020.33333333 (odd prices, so the
  // floored average price and the per-level fee rounding both lose something).
  const px = [100_010 * USD + 10, 100_020 * USD + 333_333_333];
  const qt = [30_000_000, 50_000_000];
  const view = (venue: string, creds: boolean): VenueView => ({
    venue, edge_id: `venue-edge-${venue}`, listed: true, online: true, last_update_ns: 0, has_credentials: creds,
    base_available_1e8: 0, quote_available_1e8: 0,
    asks_px: Float64Array.from(px), asks_qty: Float64Array.from(qt), ask_count: 2,
    bids_px: new Float64Array(0), bids_qty: new Float64Array(0), bid_count: 0,
    maker_bps: 7, taker_bps: 7, latency_ms: 10,
    rules: { tick_1e9: 1, lot_1e8: 1, min_qty_1e8: 1, min_notional_1e9: 0 },
  });

  it('an order that filled exactly the best venue\'s walk saves exactly 0 (bps and USD)', () => {
    const best = bestSingleVenue([view('okx', true)], 'buy', 70_000_000);
    assert.ok(best !== null);
    const fills = [
      f('okx', 30_000_000, px[0]!, venueFee1e9(px[0]!, 30_000_000, 7), 1),
      f('okx', 40_000_000, px[1]!, venueFee1e9(px[1]!, 40_000_000, 7), 2),
    ];
    const r = tca({ ...buyExample, qty_1e8: 70_000_000, fills, best_single_venue: best.benchmark, best_single_venue_walk: best.walk });
    assert.equal(r.savings_usd_1e9, 0);
    assert.equal(r.savings_vs_best_single_venue_bps, 0);
    // Without the walk, the floored average and the fee rate lose a little: not exactly 0.
    const rough = tca({ ...buyExample, qty_1e8: 70_000_000, fills, best_single_venue: best.benchmark });
    assert.notEqual(rough.savings_usd_1e9, 0);
  });

  it('the benchmark is never a venue the order could not use (no credentials, or not the forced venue)', () => {
    // kraken shows the better book but the client has no credentials there.
    const cheaper = { ...view('kraken', false), asks_px: Float64Array.from(px.map((p) => p - 5 * USD)) };
    assert.equal(bestSingleVenue([cheaper, view('okx', true)], 'buy', 70_000_000)?.benchmark.venue, 'okx');
    assert.equal(bestSingleVenue([cheaper], 'buy', 70_000_000), null);
    assert.equal(bestSingleVenue([view('okx', true), view('bybit', true)], 'buy', 70_000_000, 'bybit')?.benchmark.venue, 'bybit');
  });
});
