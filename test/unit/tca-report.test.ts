/**
 * The TCA report and quality figures (execution/analytics/report.ts) against hand-computed
 * buckets: headline against the previous period, the changes, the groups' order, coverage.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TcaBucket, type TcaSample } from '../../execution/analytics/tca-bucket.ts';
import { change, tcaQuality, tcaReport } from '../../execution/analytics/report.ts';

const T0 = Date.UTC(2026, 10, 24, 10, 0, 0);
const sample = (over: Partial<TcaSample>): TcaSample => ({
  hour_ms: T0, kind: 'price', symbol: 'BTC-USDT', routing_version: 1, venue: '', notional_usd_1e9: 1_000e9, shortfall_bps: 0, spread_bps: 0, fee_bps: 0, impact_bps: 0,
  savings_bps: null, savings_usd_1e9: null, fees_usd_1e9: 0, provenance: 'direct', ...over,
});
const bucket = (...samples: Partial<TcaSample>[]) => {
  const b = new TcaBucket();
  for (const s of samples) b.add(sample(s));
  return b;
};

describe('TCA report', () => {
  it('changes: the difference, and the relative change only against a non-zero previous figure', () => {
    assert.deepEqual(change(6, 4), { current: 6, previous: 4, change: 2, change_pct: 0.5 });
    assert.deepEqual(change(-1, -4), { current: -1, previous: -4, change: 3, change_pct: 0.75 }, 'a shortfall from -4 to -1 bps: +3, 75% of |-4|');
    assert.deepEqual(change(3, 0), { current: 3, previous: 0, change: 3, change_pct: null });
    assert.deepEqual(change(null, 2), { current: null, previous: 2, change: null, change_pct: null });
  });

  it('headline against the previous period; venues and symbols largest first, versions in order', () => {
    // This week: $1,000 at 10 bps (saved 2 bps, $0.20) and $3,000 at 2 bps (saved -1 bps); last week: $2,000 at 8 bps.
    const current = bucket(
      { notional_usd_1e9: 1_000e9, shortfall_bps: 10, fee_bps: 4, savings_bps: 2, savings_usd_1e9: 200_000_000, fees_usd_1e9: 400_000_000, order: { node_order_id: 'a', side: 'buy' } },
      { notional_usd_1e9: 3_000e9, shortfall_bps: 2, fee_bps: 4, savings_bps: -1, savings_usd_1e9: -300_000_000, fees_usd_1e9: 1_200_000_000, order: { node_order_id: 'b', side: 'sell' }, routing_version: 3 },
    );
    const previous = bucket({ notional_usd_1e9: 2_000e9, shortfall_bps: 8, order: { node_order_id: 'z', side: 'buy' } });
    const r = tcaReport({
      current,
      previous,
      byVenue: new Map([['okx', bucket({ venue: 'okx', notional_usd_1e9: 1_000e9 })], ['binance', bucket({ venue: 'binance', notional_usd_1e9: 3_000e9 })]]),
      byVersion: new Map([['3', bucket({ routing_version: 3 })], ['1', bucket({})]]),
      bySymbol: new Map([['ETH-USDT', bucket({ symbol: 'ETH-USDT', notional_usd_1e9: 10e9 })], ['BTC-USDT', bucket({})]]),
      prediction: new TcaBucket(),
    });
    assert.equal(r.headline.orders, 2);
    assert.equal(r.headline.notional_usd_1e9, 4_000_000_000_000n);
    assert.equal(r.headline.avg_implementation_shortfall_bps, (1 * 10 + 3 * 2) / 4, '4 bps');
    assert.equal(r.headline.avg_savings_bps, (1 * 2 + 3 * -1) / 4, '-0.25 bps');
    assert.equal(r.headline.win_rate, 0.5);
    assert.equal(r.headline.total_savings_usd_1e9, -100_000_000n);
    assert.equal(r.previous_headline.avg_implementation_shortfall_bps, 8);
    assert.deepEqual(r.comparison.avg_implementation_shortfall_bps, { current: 4, previous: 8, change: -4, change_pct: -0.5 });
    assert.deepEqual(r.comparison.notional_usd, { current: 4_000, previous: 2_000, change: 2_000, change_pct: 1 });
    assert.deepEqual(r.worst_orders.map((e) => [e.node_order_id, e.shortfall_cost_usd_1e9]), [['a', 1e9], ['b', 0.6e9]], '$1,000 x 10 bps = $1 costs more than $3,000 x 2 bps');
    assert.deepEqual(r.venues.map((v) => [v.venue, v.share_of_notional]), [['binance', 0.75], ['okx', 0.25]]);
    assert.deepEqual(r.routing_versions.map((v) => v.routing_version), [1, 3]);
    assert.deepEqual(r.symbols.map((v) => v.symbol), ['BTC-USDT', 'ETH-USDT']);
  });

  it('quality: coverage of the filled orders, the missing class, provenance of both kinds added', () => {
    const price = bucket({ provenance: 'direct' }, { provenance: 'reconstructed' }, { provenance: 'no_benchmark' });
    const prediction = bucket({ kind: 'prediction', provenance: 'direct' });
    const all = new TcaBucket();
    for (let i = 0; i < 6; i++) all.exec.addOrder({ status: i < 5 ? 'COMPLETED' : 'REJECTED', filled: i < 5, fills: i < 5 ? 1 : 0, volume_usd_1e9: 0, ack_ms: null, first_fill_ms: null, completion_ms: 1 });
    const q = tcaQuality(price, prediction, all);
    assert.deepEqual(q, {
      ended_orders: 6,
      filled_orders: 5,
      with_tca: 4,
      missing: 1,
      coverage: 0.8,
      benchmarked: 0,
      benchmark_coverage: 0,
      provenance: { direct: 2, reconstructed: 1, no_benchmark: 1 },
    });
  });
});
