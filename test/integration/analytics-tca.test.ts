/**
 * `GET /v1/analytics/tca` against the real service: market orders across three venues, then the
 * analytics checked by hand against the orders' own TCA (notional-weighted averages, savings, win
 * rate, provenance, the routing-version and venue filters); sandbox and live apart, another
 * client sees nothing, bad windows are 400s.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, clientWithKeys, envelope, startTradingService, until, type TradingService } from '../helpers/service.ts';
import { assertNbbo } from '../helpers/nbbo.ts';

const SYMBOL = 'BTC-USDT';
const VENUES = ['binance', 'okx', 'bybit'];
const TERMINAL = new Set(['COMPLETED', 'CANCELLED', 'REJECTED', 'UNRESOLVED']);

interface Tca {
  notional_usd_1e9: number;
  implementation_shortfall_bps: number;
  spread_cost_bps: number;
  fee_bps: number;
  impact_bps: number;
  savings_vs_best_single_venue_bps: number | null;
  savings_usd_1e9: number | null;
  fees_usd_1e9: number;
  best_single_venue: unknown;
  venues: { venue: string; share: number }[];
}
interface Order {
  node_order_id: string;
  status: string;
  routing_version: number;
  filled_qty_1e8: number;
  children: { venue: string; status: string; filled_qty_1e8: number; sent_unix_ns?: number; answered_unix_ns?: number }[];
  tca: Tca | null;
}
interface Summary {
  orders: number;
  notional_usd_1e9: number;
  avg_implementation_shortfall_bps: number | null;
  avg_spread_cost_bps: number | null;
  avg_fee_bps: number | null;
  avg_impact_bps: number | null;
  avg_savings_bps: number | null;
  shortfall_percentiles_bps: Record<'p50' | 'p75' | 'p95' | 'p99', number | null>;
  total_savings_usd_1e9: number;
  fees_usd_1e9: number;
  benchmarked_orders: number;
  win_rate: number | null;
  provenance: Record<string, number>;
}
interface Analytics {
  since: string;
  until: string;
  is_sandbox: boolean;
  tca: Summary;
  prediction: Summary & { is_prediction: boolean };
}

/** What the analytics must say of these orders, computed from their own TCA. */
function expected(orders: Order[]): Omit<Summary, 'shortfall_percentiles_bps'> {
  const done = orders.filter((o) => o.tca !== null);
  const w = (o: Order) => o.tca!.notional_usd_1e9 / 1e9;
  const weight = done.reduce((s, o) => s + w(o), 0);
  const avg = (f: (t: Tca) => number) => Math.round((done.reduce((s, o) => s + w(o) * f(o.tca!), 0) / weight) * 1e4) / 1e4;
  const bench = done.filter((o) => o.tca!.savings_vs_best_single_venue_bps !== null);
  const benchWeight = bench.reduce((s, o) => s + w(o), 0);
  return {
    orders: done.length,
    notional_usd_1e9: done.reduce((s, o) => s + o.tca!.notional_usd_1e9, 0),
    avg_implementation_shortfall_bps: avg((t) => t.implementation_shortfall_bps),
    avg_spread_cost_bps: avg((t) => t.spread_cost_bps),
    avg_fee_bps: avg((t) => t.fee_bps),
    avg_impact_bps: avg((t) => t.impact_bps),
    avg_savings_bps: bench.length === 0 ? null : Math.round((bench.reduce((s, o) => s + w(o) * o.tca!.savings_vs_best_single_venue_bps!, 0) / benchWeight) * 1e4) / 1e4,
    total_savings_usd_1e9: bench.reduce((s, o) => s + o.tca!.savings_usd_1e9!, 0),
    fees_usd_1e9: done.reduce((s, o) => s + o.tca!.fees_usd_1e9, 0),
    benchmarked_orders: bench.length,
    win_rate: bench.length === 0 ? null : Math.round((bench.filter((o) => o.tca!.savings_vs_best_single_venue_bps! > 0).length / bench.length) * 1e4) / 1e4,
    provenance: { direct: bench.length, reconstructed: 0, no_benchmark: done.length - bench.length },
  };
}

function assertSummary(got: Summary, want: ReturnType<typeof expected>, what: string): void {
  const { shortfall_percentiles_bps, ...rest } = got;
  for (const k of ['avg_implementation_shortfall_bps', 'avg_spread_cost_bps', 'avg_fee_bps', 'avg_impact_bps', 'avg_savings_bps'] as const) {
    const a = rest[k];
    const b = want[k];
    assert.ok(a === b || (a !== null && b !== null && Math.abs(a - b) <= 2e-4), `${what}: ${k} ${a} vs ${b}`);
    rest[k] = b;
  }
  assert.deepEqual(rest, want, what);
  if (want.orders > 0) assert.ok(shortfall_percentiles_bps.p50 !== null && shortfall_percentiles_bps.p50 <= shortfall_percentiles_bps.p99!, what);
}

describe('analytics: TCA over completed orders (real service)', () => {
  let t: TradingService;
  const live: Order[] = [];

  const place = async (token: string, i: number): Promise<Order> => {
    const body = { client_order_id: `tca-${i}`, symbol: SYMBOL, side: i % 3 === 2 ? 'sell' : 'buy', qty_1e8: 1_000_000 + i * 250_000, order_type: 'market' };
    const res = await call<Order>(t.base, 'POST', '/v1/orders', { token, body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return until(`order ${i} settles`, async () => {
      const o = await call<Order>(t.base, 'GET', `/v1/orders/${res.body.node_order_id}`, { token });
      return TERMINAL.has(o.body.status) ? o.body : undefined;
    });
  };
  const analytics = (token: string, query = '') => call<Analytics>(t.base, 'GET', `/v1/analytics/tca${query}`, { token });

  before(async () => {
    t = await startTradingService({ client: 'tca-client', venues: VENUES, symbol: SYMBOL });
    for (let i = 0; i < 12; i++) live.push(await place(t.token, i));
  });
  after(async () => {
    await t.svc.stop();
  });

  it('the figures are the orders’ own TCA, notional-weighted', async () => {
    assert.ok(live.filter((o) => o.tca !== null).length >= 10, 'most orders filled');
    const res = await analytics(t.token);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.is_sandbox, false);
    assertSummary(res.body.tca, expected(live), 'all');
    assert.equal(res.body.prediction.orders, 0, 'no prediction orders, and none averaged in');
    assert.equal(res.body.prediction.is_prediction, true);
    // The window is whole UTC hours around now.
    assert.equal(Date.parse(res.body.until) % 3_600_000, 0);
  });

  it('filters by routing version, symbol and venue (a venue reads each order’s slice there)', async () => {
    for (const rv of [1, 2, 3]) {
      const res = await analytics(t.token, `?routing_version=${rv}`);
      assert.equal(res.status, 200);
      const mine = live.filter((o) => o.routing_version === rv);
      if (mine.some((o) => o.tca !== null)) assertSummary(res.body.tca, expected(mine), `routing_version ${rv}`);
      else assert.equal(res.body.tca.orders, 0);
    }
    assert.equal((await analytics(t.token, '?symbol=ETH-USDT')).body.tca.orders, 0);
    assert.equal((await analytics(t.token, `?symbol=${SYMBOL}`)).body.tca.orders, live.filter((o) => o.tca !== null).length);
    for (const venue of VENUES) {
      const res = await analytics(t.token, `?venue=${venue}`);
      const onVenue = live.filter((o) => o.tca?.venues.some((v) => v.venue === venue && v.share > 0));
      assert.equal(res.body.tca.orders, onVenue.length, venue);
      assert.equal(res.body.tca.benchmarked_orders, 0, 'savings belong to the order, not a venue');
    }
  });

  it('sandbox orders are sandbox analytics only; another client sees nothing', async () => {
    const keys = await clientWithKeys(t.svc, 'tca-other');
    assert.equal((await call(t.base, 'POST', '/v1/sandbox/reset', { token: keys.sandbox })).status, 200);
    const sandbox = [await place(keys.sandbox, 100), await place(keys.sandbox, 101)];
    const sbx = await analytics(keys.sandbox);
    assert.equal(sbx.body.is_sandbox, true);
    assertSummary(sbx.body.tca, expected(sandbox), 'sandbox');
    assert.equal((await analytics(keys.live)).body.tca.orders, 0, 'the same client live: none');
    assertSummary((await analytics(t.token)).body.tca, expected(live), 'the first client, unchanged');
  });

  it('per venue: each venue’s slices, shares of the notional; over time: UTC-aligned intervals that add up', async () => {
    const done = live.filter((o) => o.tca !== null);
    const total = done.reduce((s, o) => s + o.tca!.notional_usd_1e9, 0);
    const v = await call<{ venues: (Summary & { venue: string; share_of_notional: number })[] }>(t.base, 'GET', '/v1/analytics/tca/venues', { token: t.token });
    assert.equal(v.status, 200, JSON.stringify(v.body));
    assert.deepEqual(v.body.venues.map((x) => x.venue).sort(), [...new Set(done.flatMap((o) => o.tca!.venues.filter((x) => x.share > 0).map((x) => x.venue)))].sort());
    for (const row of v.body.venues) assert.equal(row.orders, done.filter((o) => o.tca!.venues.some((x) => x.venue === row.venue && x.share > 0)).length, row.venue);
    const slices = v.body.venues.reduce((s, x) => s + x.notional_usd_1e9, 0);
    assert.ok(Math.abs(slices - total) <= done.length * 3, `the slices add up to the orders' notional (${slices} vs ${total}, rounding per slice)`);
    assert.ok(Math.abs(v.body.venues.reduce((s, x) => s + x.share_of_notional, 0) - 1) < 1e-3);
    for (let i = 1; i < v.body.venues.length; i++) assert.ok(v.body.venues[i - 1]!.notional_usd_1e9 >= v.body.venues[i]!.notional_usd_1e9, 'largest first');

    for (const interval of ['1h', '4h', '1d']) {
      const ts = await call<{ interval: string; points: (Summary & { start: string; end: string })[] }>(t.base, 'GET', `/v1/analytics/tca/timeseries?interval=${interval}`, { token: t.token });
      assert.equal(ts.status, 200, JSON.stringify(ts.body));
      assert.equal(ts.body.interval, interval);
      const step = { '1h': 3_600_000, '4h': 14_400_000, '1d': 86_400_000 }[interval]!;
      for (const pt of ts.body.points) {
        assert.equal(Date.parse(pt.start) % step, 0, `${interval} aligned to UTC`);
        assert.equal(Date.parse(pt.end) - Date.parse(pt.start), step);
      }
      assert.equal(ts.body.points.reduce((s, x) => s + x.orders, 0), done.length, `${interval}: the points add up`);
      assert.equal(ts.body.points.reduce((s, x) => s + x.notional_usd_1e9, 0), total);
    }
    assert.equal((await call(t.base, 'GET', '/v1/analytics/tca/timeseries?interval=2h', { token: t.token })).status, 400);
  });

  it('routing versions side by side, each difference with its 95% interval', async () => {
    type V = Summary & { routing_version: number; mean_shortfall_bps: number | null; standard_error_bps: number | null };
    const res = await call<{ versions: V[]; comparisons: { routing_version: number; baseline_version: number; difference_bps: number | null; ci95_bps: { low: number; high: number } | null; significant: boolean }[] }>(
      t.base, 'GET', '/v1/analytics/tca/versions', { token: t.token },
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.versions.map((x) => x.routing_version), [1, 2, 3]);
    for (const x of res.body.versions) {
      const mine = live.filter((o) => o.routing_version === x.routing_version && o.tca !== null);
      assert.equal(x.orders, mine.length, `version ${x.routing_version}`);
      if (mine.length >= 2) assert.ok(Math.abs(x.mean_shortfall_bps! - x.avg_implementation_shortfall_bps!) <= 1e-4 && x.standard_error_bps! >= 0);
    }
    assert.deepEqual(res.body.comparisons.map((c) => [c.routing_version, c.baseline_version]), [[2, 1], [3, 1], [3, 2]]);
    for (const c of res.body.comparisons) {
      const a = res.body.versions[c.routing_version - 1]!;
      const b = res.body.versions[c.baseline_version - 1]!;
      if (c.difference_bps === null) {
        assert.ok(a.standard_error_bps === null || b.standard_error_bps === null);
        continue;
      }
      assert.ok(Math.abs(c.difference_bps - (a.mean_shortfall_bps! - b.mean_shortfall_bps!)) < 1e-9);
      assert.ok(c.ci95_bps!.low <= c.difference_bps && c.difference_bps <= c.ci95_bps!.high);
      assert.equal(c.significant, c.ci95_bps!.low > 0 || c.ci95_bps!.high < 0);
    }
  });

  it('market analytics: NBBO, spread, depth and imbalance of the merged book, each venue’s top', async () => {
    const res = await call<{ nbbo: { bid: number; ask: number }; mid: number; crossed: boolean; spread: number; spread_bps: number; bid_depth: number; ask_depth: number; imbalance: number; depth_levels: number; venues: Record<string, { bid: number }> }>(
      t.base, 'GET', `/v1/analytics/market/${SYMBOL}?depth=5`, { token: t.token },
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const m = res.body;
    assertNbbo({ ...m.nbbo, mid: m.mid, crossed: m.crossed });
    assert.ok(Math.abs(m.spread - (m.nbbo.ask - m.nbbo.bid)) < 1e-9);
    assert.equal(m.depth_levels, 5);
    assert.ok(m.bid_depth > 0 && m.ask_depth > 0);
    assert.ok(Math.abs(m.imbalance - (m.bid_depth - m.ask_depth) / (m.bid_depth + m.ask_depth)) < 1e-12);
    for (const venue of VENUES) assert.ok(m.venues[venue] !== undefined && m.venues[venue]!.bid <= m.nbbo.bid, venue);
    assert.equal((await call(t.base, 'GET', '/v1/analytics/market/NOPE-USDT', { token: t.token })).status, 404);
  });

  it('execution: every ended order by status, fills and volume, latencies, quality; each leg carries its send and answer instants', async () => {
    const res = await call<{
      orders: Record<string, number | null>;
      fills: { count: number; volume_usd_1e9: number };
      latency: Record<'ack' | 'first_fill' | 'completion', { p50: number | null; p95: number | null; p99: number | null }>;
      execution_quality: { avg_slippage_bps: number | null; avg_savings_bps: number | null; total_savings_usd_1e9: number; avg_execution_time_ms: number | null };
    }>(t.base, 'GET', '/v1/analytics/execution', { token: t.token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const o = res.body.orders;
    const count = (st: string) => live.filter((x) => x.status === st).length;
    assert.deepEqual(
      [o['submitted'], o['completed'], o['cancelled'], o['rejected'], o['unresolved'], o['filled']],
      [live.length, count('COMPLETED'), count('CANCELLED'), count('REJECTED'), count('UNRESOLVED'), live.filter((x) => x.filled_qty_1e8 > 0).length],
    );
    assert.equal(o['fill_rate'], Math.round((o['filled']! / live.length) * 1e4) / 1e4);
    const fills = await call<{ total: number }>(t.base, 'GET', '/v1/fills?limit=1', { token: t.token });
    assert.equal(res.body.fills.count, fills.body.total, 'every fill of these orders');
    assert.equal(res.body.fills.volume_usd_1e9, expected(live).notional_usd_1e9);
    const { ack, first_fill, completion } = res.body.latency;
    assert.ok(ack.p50! > 0 && ack.p50! <= ack.p99!, JSON.stringify(ack));
    // Completion runs from the order's creation (ms resolution), the ack from its legs leaving.
    assert.ok(first_fill.p50 !== null && completion.p50! + 1 >= ack.p50! * 0.98, JSON.stringify(res.body.latency));
    const tca = (await analytics(t.token)).body.tca;
    assert.equal(res.body.execution_quality.avg_slippage_bps, tca.avg_implementation_shortfall_bps);
    assert.equal(res.body.execution_quality.total_savings_usd_1e9, tca.total_savings_usd_1e9);
    for (const x of live) for (const c of x.children) if (c.sent_unix_ns !== undefined) assert.ok(c.answered_unix_ns! >= c.sent_unix_ns, 'answered after sent');
  });

  it('venues: legs sent, answered, filled, refused, their rates, ack latency, quality score and sizes', async () => {
    type Row = { venue: string; sent: number; acked: number; filled: number; rejected: number; fill_rate: number; reject_rate: number; avg_ack_latency_ms: number | null; quality_score: number; sizes: Record<string, { sent: number; filled: number }> };
    const res = await call<{ venues: Row[] }>(t.base, 'GET', '/v1/analytics/venues', { token: t.token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(res.body.venues.length > 0);
    for (const v of res.body.venues) {
      const legs = live.flatMap((x) => x.children).filter((c) => c.venue === v.venue && c.sent_unix_ns !== undefined);
      assert.equal(v.sent, legs.length, v.venue);
      assert.equal(v.acked, legs.filter((c) => c.answered_unix_ns !== undefined).length);
      assert.equal(v.filled, legs.filter((c) => c.filled_qty_1e8 > 0).length);
      assert.equal(v.rejected, legs.filter((c) => c.status === 'rejected').length);
      const acks = legs.filter((c) => c.answered_unix_ns !== undefined).map((c) => (c.answered_unix_ns! - c.sent_unix_ns!) / 1e6);
      assert.ok(Math.abs(v.avg_ack_latency_ms! - acks.reduce((a, b) => a + b, 0) / acks.length) < 0.01, `${v.venue} average ack`);
      const speed = 1 / (1 + v.avg_ack_latency_ms! / 10);
      assert.ok(Math.abs(v.quality_score - 100 * (0.5 * v.fill_rate + 0.3 * (1 - v.reject_rate) + 0.2 * speed)) < 0.02, `${v.venue} score`);
      assert.equal(Object.values(v.sizes).reduce((a, b) => a + b.sent, 0), v.sent, 'the sizes add up');
    }
  });

  it('the report: headline figures against the period before, best and worst orders by shortfall cost, per venue and version; quality counts', async () => {
    type Extreme = { node_order_id: string; shortfall_bps: number; notional_usd_1e9: number; shortfall_cost_usd_1e9: number };
    type Report = { period: string; since: string; until: string; previous: { since: string; until: string }; headline: Record<string, number | null>; previous_headline: Record<string, number | null>; comparison: Record<string, { current: number | null; previous: number | null; change: number | null }>; best_orders: Extreme[]; worst_orders: Extreme[]; venues: { venue: string }[]; routing_versions: (Summary & { routing_version: number })[]; symbols: { symbol: string; orders: number }[]; prediction: { is_prediction: boolean } };
    const done = live.filter((o) => o.tca !== null);
    const want = expected(live);
    for (const period of ['week', 'month']) {
      const res = await call<Report>(t.base, 'GET', `/v1/analytics/tca/report?period=${period}`, { token: t.token });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const r = res.body;
      const days = period === 'week' ? 7 : 30;
      assert.equal(Date.parse(r.until) - Date.parse(r.since), days * 86_400_000 + 3_600_000, `${period}: whole UTC hours around ${days} days`);
      assert.equal(r.previous.until, r.since);
      assert.equal(r.headline['orders'], done.length);
      assert.equal(r.headline['notional_usd_1e9'], want.notional_usd_1e9);
      assert.equal(r.headline['ended_orders'], live.length);
      assert.equal(r.headline['avg_implementation_shortfall_bps'], (await analytics(t.token)).body.tca.avg_implementation_shortfall_bps);
      assert.equal(r.previous_headline['orders'], 0, 'nothing the period before');
      assert.deepEqual(r.comparison['orders'], { current: done.length, previous: 0, change: done.length, change_pct: null });
      // Best and worst: ranked by shortfall x notional, as the orders' own TCA says.
      const cost = (o: Order) => (o.tca!.implementation_shortfall_bps * o.tca!.notional_usd_1e9) / 10_000;
      const ranked = [...done].sort((a, b) => cost(a) - cost(b));
      assert.deepEqual(r.best_orders.map((e) => e.node_order_id), ranked.slice(0, 5).map((o) => o.node_order_id));
      assert.deepEqual(r.worst_orders.map((e) => e.node_order_id), ranked.reverse().slice(0, 5).map((o) => o.node_order_id));
      for (const e of r.worst_orders) assert.ok(Math.abs(e.shortfall_cost_usd_1e9 - (e.shortfall_bps * e.notional_usd_1e9) / 10_000) <= 1);
      assert.equal(r.routing_versions.reduce((s, v) => s + v.orders, 0), done.length, 'the versions add up');
      assert.deepEqual(r.symbols.map((x) => [x.symbol, x.orders]), [[SYMBOL, done.length]]);
      assert.ok(r.venues.length > 0 && r.prediction.is_prediction);
    }
    const quality = await call<{ ended_orders: number; filled_orders: number; with_tca: number; missing: number; coverage: number; provenance: Record<string, number> }>(t.base, 'GET', '/v1/analytics/tca/quality', { token: t.token });
    assert.equal(quality.status, 200, JSON.stringify(quality.body));
    const q = quality.body;
    assert.deepEqual([q.ended_orders, q.filled_orders, q.with_tca], [live.length, live.filter((o) => o.filled_qty_1e8 > 0).length, done.length]);
    assert.equal(q.missing, q.filled_orders - q.with_tca);
    assert.deepEqual(q.provenance, want.provenance);
    for (const bad of ['?period=year', '?period=week&until=nope']) {
      const res = await call(t.base, 'GET', `/v1/analytics/tca/report${bad}`, { token: t.token });
      assert.equal(res.status, 400, bad);
      assert.equal(envelope(res.body).code, 'VALIDATION_ERROR', bad);
    }
  });

  it('a window in the past has none; bad windows and versions are 400s in the envelope', async () => {
    assert.equal((await analytics(t.token, '?since=2020-01-01T00:00:00Z&until=2020-01-02T00:00:00Z')).body.tca.orders, 0);
    const bad = ['?since=2026-13-01', '?since=2026-11-25T00:00:00Z&until=2026-11-24T00:00:00Z', '?routing_version=4', '?routing_version=x', '?since=2020-01-01T00:00:00Z&until=2026-01-01T00:00:00Z'];
    for (const q of bad) {
      const res = await analytics(t.token, q);
      assert.equal(res.status, 400, `${q}: ${JSON.stringify(res.body)}`);
      assert.equal(envelope(res.body).code, 'VALIDATION_ERROR', q);
    }
  });
});
