/**
 * The pure core of `seq bench` (client/src/bench/): the seeded order flow is the same for the
 * same seed and follows the scenario's rate and mix; percentiles are nearest-rank; order prices
 * and sizes are exact integers moved the right way from the touch; TCA is notional-weighted
 * per routing version; a saved report is checked before it is compared.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asReport, behindBy, renderComparison, renderReport } from '../../client/src/bench/report.ts';
import { limitPrice, quantity } from '../../client/src/bench/runner.ts';
import { DEFAULT_SCENARIO, orderFlow, parseMix, type Intent } from '../../client/src/bench/scenario.ts';
import { summarize, tcaByRoutingVersion } from '../../client/src/bench/stats.ts';

const scenario = { ...DEFAULT_SCENARIO, rate: 100, duration_s: 60 };

describe('seq bench: scenario, statistics, pricing', () => {
  it('replays the same orders at the same offsets for a seed, and other orders for another', () => {
    const a = [...orderFlow(scenario)];
    const b = [...orderFlow(scenario)];
    const c = [...orderFlow({ ...scenario, seed: 7 })];
    assert.deepEqual(a, b);
    assert.notDeepEqual(a.slice(0, 20), c.slice(0, 20));
  });

  it('follows the rate (Poisson), the duration, the mix and the symbols', () => {
    const flow = [...orderFlow(scenario)];
    assert.ok(Math.abs(flow.length - 6_000) < 6_000 * 0.05, `about 100/s for 60 s: ${flow.length}`);
    assert.ok(flow.every((x, i) => x.at_ms < 60_000 && (i === 0 || x.at_ms >= flow[i - 1]!.at_ms)), 'due in order, inside the window');
    const share = (k: Intent['kind']) => flow.filter((x) => x.kind === k).length / flow.length;
    assert.ok(Math.abs(share('market') - 0.6) < 0.03 && Math.abs(share('limit') - 0.3) < 0.03 && Math.abs(share('cancel') - 0.1) < 0.02);
    assert.deepEqual(new Set(flow.map((x) => x.symbol)), new Set(scenario.symbols));
    assert.ok(flow.every((x) => x.notional_usd_1e9 >= 20e9 && x.notional_usd_1e9 <= 200e9 && x.notional_usd_1e9 % 10_000_000 === 0), 'whole cents within the range');
    const gaps = flow.slice(1).map((x, i) => x.at_ms - flow[i]!.at_ms);
    const cv = Math.sqrt(gaps.reduce((s, g) => s + (g - 10) ** 2, 0) / gaps.length) / 10;
    assert.ok(cv > 0.9 && cv < 1.1, `exponential gaps have a coefficient of variation near 1, a metronome 0: ${cv}`);
    assert.equal([...orderFlow({ ...scenario, mix: parseMix('market=1') })].every((x) => x.kind === 'market'), true);
  });

  it('refuses a mix it cannot read', () => {
    assert.throws(() => parseMix('market=6,stop=1'), /kind=weight/);
    assert.throws(() => parseMix('market=0,limit=0'), /every weight is 0/);
    assert.throws(() => parseMix('market'), /kind=weight/);
  });

  it('takes nearest-rank percentiles: always a measured value', () => {
    const s = summarize(Array.from({ length: 1_000 }, (_, i) => i + 1).reverse());
    assert.deepEqual([s.count, s.p50, s.p90, s.p99, s.p999, s.max, s.mean], [1_000, 500, 900, 990, 999, 1_000, 500.5]);
    assert.equal(summarize([7]).p999, 7);
    assert.equal(summarize([]).p50, null);
  });

  it('prices a limit through the touch and a resting order behind it, in exact integers', () => {
    const touch = { bid_1e9: 65_000_000_000_000n, ask_1e9: 65_001_000_000_000n };
    const at = (kind: Intent['kind'], side: Intent['side']): Intent => ({ seq: 0, at_ms: 0, kind, symbol: 'BTC-USDT', side, notional_usd_1e9: 130_001_000_000_000 / 1_000, cancel_after_ms: 100 });
    assert.equal(limitPrice(at('market', 'buy'), touch, scenario), null);
    assert.equal(limitPrice(at('limit', 'buy'), touch, scenario), (65_001_000_000_000n * 10_005n) / 10_000n, '5 bps above the ask');
    assert.equal(limitPrice(at('limit', 'sell'), touch, scenario), (65_000_000_000_000n * 9_995n) / 10_000n, '5 bps under the bid');
    assert.equal(limitPrice(at('cancel', 'buy'), touch, scenario), (65_000_000_000_000n * 9_900n) / 10_000n, '100 bps under the bid: it rests');
    assert.equal(limitPrice(at('cancel', 'sell'), touch, scenario), (65_001_000_000_000n * 10_100n) / 10_000n, '100 bps over the ask');
    // $130.001 at the mid 65,000.5: 0.002 BTC, rounded down to the 1e-8 unit
    assert.equal(quantity(at('market', 'buy'), touch), 200_000n);
  });

  it('weighs TCA by notional, over all orders and per routing version', () => {
    const sample = (v: number, usd: number, is: number, savings: number | null) => ({ routing_version: v, notional_usd_1e9: usd * 1e9, implementation_shortfall_bps: is, total_cost_bps: is + 10, savings_vs_best_single_venue_bps: savings, savings_usd_1e9: 1e7 });
    const [all, v1, v2] = tcaByRoutingVersion([sample(1, 100, 1, 2), sample(1, 300, 3, null), sample(2, 100, 5, 4)]);
    assert.deepEqual(all, { group: 'all', orders: 3, notional_usd: 500, shortfall_bps: 3, total_cost_bps: 13, savings_vs_best_single_venue_bps: 3, savings_usd: 0.03 });
    assert.equal(v1!.shortfall_bps, 2.5);
    assert.equal(v1!.savings_vs_best_single_venue_bps, 2, 'a null savings is left out of its average');
    assert.equal(v2!.group, 'v2');
  });

  it('compares only saved reports, and says when the scenarios differ', () => {
    assert.throws(() => asReport({ hello: 1 }, 'x.json'), /x\.json is not a seq bench report/);
    const empty = summarize([]);
    const report = (seed: number, p50: number) =>
      asReport(
        {
          version: 1, base_url: 'http://a', run_id: `r${seed}`, started_at: 't', scenario: { ...scenario, seed }, followed: true, elapsed_s: 1,
          counts: { scheduled: 1, sent: 1, acknowledged: 1, refused: 0, completed: 1, cancelled: 0, rejected: 0, unresolved: 0, unfinished: 0, orders_with_fills: 1, fills: 1, cancels_too_late: 0 },
          throughput: { sent_per_s: 1, acknowledged_per_s: 1, fills_per_s: 1 },
          latency_ms: { acknowledged: { ...summarize([p50]) }, first_fill: empty, ended: empty, cancel_answered: empty, cancel_ended: empty },
          rejects: [], tca: [], harness: { send_lateness_ms: empty, in_flight_cap_waits: 0 },
        },
        'r.json',
      );
    assert.equal(behindBy(report(1, 2)), undefined, 'a run that kept its pace has no warning');
    assert.doesNotMatch(renderReport(report(1, 2)), /warning/);
    const late = report(1, 2);
    late.counts.sent = 0;
    assert.match(behindBy(late)!, /sent 0 of 1 orders/);
    assert.match(renderReport(late), /warning: the harness sent 0 of 1 orders in the window; the figures include/);
    const same = renderComparison(report(1, 2), report(1, 3));
    assert.match(same, /scenario \(both\)/);
    assert.match(same, /submit -> ack p50\s+2\.00\s+3\.00\s+1\.50x/);
    assert.match(renderComparison(report(1, 2), report(2, 2)), /scenarios differ/);
  });
});
