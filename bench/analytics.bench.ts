/**
 * Analytics over a long history, and what keeping it costs each order.
 *
 *   A. query latency over 100,000 completed orders (30 days, 5 symbols, 3 routing versions, 3 venues):
 *
 *      this process: 100,000 completed orders -> TcaDelta.fold, 1,000 a delta -> TcaAggregates.merge (the journal stage's)
 *                    -> hourly buckets in LMDB (DATA_DIR of the service below), then closed
 *      service process (main.ts) over that DATA_DIR:
 *        sequential keep-alive GETs, rounds alternating:
 *          GET /v1/api_keys                          (baseline: an authenticated read of one record)
 *          GET /v1/analytics/tca                     (30 days, repeated: the kept answer)
 *          GET /v1/analytics/tca?until=<new hour>    (30 days, a window never asked before: every bucket merged)
 *
 *   B. orders/s with the aggregates kept and without (TCA_AGGREGATES=off: routers keep no delta,
 *      the journal marks and merges nothing), same build, alternating wrk rounds of market orders (as
 *      orders.bench.ts) after a warm-up round each, only the measured service running; two
 *      sessions of fresh services, started in both orders; CPU per order beside orders/s.
 *
 * Targets: repeated `GET /v1/analytics/tca` p50 within 2x of `GET /v1/api_keys`; keeping the
 * aggregates costs under 5% of orders/s.
 */
import { request, Agent } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, runOnly, startServiceProcess, type ServiceProcess } from './lib/processes.ts';
import { percentile, runIfMain, target, type BenchResult } from './lib/results.ts';
import { assertWrk, runWrk, WRK_CONNECTIONS } from './lib/wrk.ts';
import { cpuPerOrder, threadCpuMs } from './lib/thread-cpu.ts';
import { closeDatabases, openDatabases } from '../storage/database.ts';
import { TcaBucketStore } from '../storage/tca-buckets.ts';
import { TcaAggregates } from '../execution/analytics/tca-aggregates.ts';
import { TcaDelta } from '../execution/analytics/tca-delta.ts';
import { completedOrder } from '../test/helpers/completed-orders.ts';

const ORDERS = Number(process.env['BENCH_ANALYTICS_ORDERS'] ?? 100_000);
const ROUNDS = Number(process.env['BENCH_ANALYTICS_ROUNDS'] ?? 5);
const PER_ROUND = 200;
const COLD_PER_ROUND = 10;
const ORDER_ROUNDS = Number(process.env['BENCH_ANALYTICS_ORDER_ROUNDS'] ?? 8);
const ORDER_SECONDS = Number(process.env['BENCH_ANALYTICS_ORDER_SECONDS'] ?? 5);
const HOUR_MS = 3_600_000;
const SYMBOLS = ['BTC-USDT', 'ETH-USDT', 'SOL-USDT', 'BTC-USD', 'ETH-USD'];
const SERVICE_ENV = { WORKERS: '2', SIM_ACCOUNT_USD: '1000000000', MAX_ORDER_NOTIONAL_USD: '1000000000', SIM_ORDER_LATENCY: 'off' };

/** The benchmark client's 100,000 completed orders over the last 30 days, folded as routers fold them and merged as the journal merges them. */
async function populate(dataDir: string, clientId: string): Promise<number> {
  const db = openDatabases(dataDir);
  const aggregates = new TcaAggregates(new TcaBucketStore(db));
  const now = Date.now();
  const started = performance.now();
  let delta = new TcaDelta();
  for (let i = 0; i < ORDERS; i++) {
    // Five symbols, three routing versions, one to three venues, spread over the last 30 days.
    const venues = ['binance', 'okx', 'bybit'].slice(0, 1 + (i % 3));
    delta.fold(completedOrder(i, now - ((i * 7919) % (30 * 24 * HOUR_MS)), ((i % 3) + 1) as 1 | 2 | 3, SYMBOLS[i % SYMBOLS.length]!, venues));
    if (i % 1_000 === 999) {
      aggregates.merge(clientId, 'live', delta);
      delta = new TcaDelta();
    }
  }
  aggregates.merge(clientId, 'live', delta);
  await aggregates.durable();
  await closeDatabases(db);
  return performance.now() - started;
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function get(port: number, path: string, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request({ host: '127.0.0.1', port, path, agent, headers: { authorization: `Bearer ${key}` } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - t0) : reject(new Error(`${path}: ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

function figures(samples: number[]): { p50_ms: number; p99_ms: number; n: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50_ms: percentile(sorted, 50), p99_ms: percentile(sorted, 99), n: sorted.length };
}

async function queryLatency() {
  const dataDir = mkdtempSync(join(tmpdir(), 'seq-bench-analytics-'));
  const populateMs = await populate(dataDir, 'bench');
  // The admin CLI adds the `bench` client to the same DATA_DIR.
  const service = await startServiceProcess({ ...SERVICE_ENV, DATA_DIR: dataDir });
  try {
    const key = service.apiKey;
    const first = await get(service.port, '/v1/analytics/tca', key);
    const apiKeys: number[] = [];
    const repeated: number[] = [];
    const cold: number[] = [];
    let coldHour = 0;
    for (let r = 0; r < ROUNDS; r++) {
      for (let i = 0; i < PER_ROUND; i++) apiKeys.push(await get(service.port, '/v1/api_keys', key));
      for (let i = 0; i < PER_ROUND; i++) repeated.push(await get(service.port, '/v1/analytics/tca', key));
      for (let i = 0; i < COLD_PER_ROUND; i++) {
        // Each `until` a different hour: a window no answer is kept for (at most 30 days of hours to choose from).
        const until = new Date(Date.now() - ++coldHour * HOUR_MS).toISOString();
        cold.push(await get(service.port, `/v1/analytics/tca?until=${until}`, key));
      }
    }
    const base = figures(apiKeys);
    const rep = figures(repeated);
    const c = figures(cold);
    return {
      orders: ORDERS,
      populate_ms: Math.round(populateMs),
      first_query_ms: first,
      api_keys: base,
      tca_repeated: rep,
      tca_new_window: c,
    };
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Unique market orders, alternating sides, as orders.bench.ts sends them. */
function orderScript(dir: string, prefix: string, key: string): string {
  const path = join(dir, `${prefix}.lua`);
  writeFileSync(
    path,
    `counter = 0
request = function()
  counter = counter + 1
  local side = "buy"
  if counter % 2 == 0 then side = "sell" end
  local body = string.format('{"client_order_id":"${prefix}-%d","symbol":"BTC-USDT","side":"%s","qty_1e8":100000,"order_type":"market"}', counter, side)
  return wrk.format("POST", "/v1/orders", {["Content-Type"] = "application/json", ["Authorization"] = "Bearer ${key}"}, body)
end
`,
  );
  return path;
}

async function credential(svc: ServiceProcess): Promise<void> {
  for (const venue of ['binance', 'okx', 'bybit']) {
    const body = venue === 'okx' ? { api_key: 'bench', api_secret: 'bench', passphrase: 'bench' } : { api_key: 'bench', api_secret: 'bench' };
    const res = await fetch(`http://127.0.0.1:${svc.port}/v1/credentials/${venue}`, { method: 'POST', headers: { authorization: `Bearer ${svc.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (res.status >= 300) throw new Error(`credentials for ${venue}: ${res.status} ${await res.text()}`);
  }
}

/**
 * Alternating rounds of market orders against a service with the aggregates and one without.
 * Two sessions of fresh services, started in both orders: the service started second ran
 * about 4% faster here in an A/A run (both with the aggregates), whatever it kept.
 */
async function completionCost() {
  assertWrk();
  const rounds: { on: number; off: number }[] = [];
  // The service's CPU per order (every thread, /proc): a second view of the same cost.
  const cpu: { on: number; off: number }[] = [];
  for (const startFirst of ['on', 'off'] as const) {
    const started: Partial<Record<'on' | 'off', ServiceProcess>> = {};
    for (const which of startFirst === 'on' ? (['on', 'off'] as const) : (['off', 'on'] as const)) started[which] = await startServiceProcess({ ...SERVICE_ENV, TCA_AGGREGATES: which });
    const on = started.on!;
    const off = started.off!;
    try {
      await credential(on);
      await credential(off);
      // A warm-up round each, not counted: the first seconds of a fresh service run cold (JIT, LMDB pages).
      for (const svc of [on, off]) {
        await runOnly(svc, [on, off]);
        runWrk(`http://127.0.0.1:${svc.port}/v1/orders`, [], 3, orderScript(svc.dataDir, `warm-${svc === on ? 'on' : 'off'}`, svc.apiKey));
      }
      for (let r = 0; r < ORDER_ROUNDS / 2; r++) {
        const pair = { on: 0, off: 0 };
        const cpuPair = { on: 0, off: 0 };
        // Alternate which goes first, so a drift over the run does not favour one.
        for (const which of r % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
          const svc = which === 'on' ? on : off;
          await runOnly(svc, [on, off]);
          const before = threadCpuMs(svc.child.pid!);
          pair[which] = runWrk(`http://127.0.0.1:${svc.port}/v1/orders`, [], ORDER_SECONDS, orderScript(svc.dataDir, `${which}-${startFirst}-${r}`, svc.apiKey)).rps;
          cpuPair[which] = cpuPerOrder(svc.child.pid!, before, threadCpuMs(svc.child.pid!), pair[which] * ORDER_SECONDS)['total_us']!;
        }
        rounds.push(pair);
        cpu.push(cpuPair);
      }
    } finally {
      for (const svc of [on, off]) svc.child.kill('SIGCONT');
      await on.stop();
      await off.stop();
    }
  }
  return {
    connections: WRK_CONNECTIONS,
    rounds,
    cpu_us_per_order: cpu,
    orders_per_s_on: median(rounds.map((p) => p.on)),
    orders_per_s_off: median(rounds.map((p) => p.off)),
    on_over_off_paired_median: median(rounds.map((p) => p.on / p.off)),
    cpu_on_over_off_paired_median: median(cpu.map((p) => p.on / p.off)),
  };
}

export async function run(): Promise<BenchResult> {
  const query = await queryLatency();
  const cost = await completionCost();
  const loss = 1 - cost.on_over_off_paired_median;
  const metrics: BenchResult['metrics'] = {
    orders: ORDERS,
    populate_ms: query.populate_ms,
    first_query_ms: query.first_query_ms,
    orders_per_s_with_aggregates: cost.orders_per_s_on,
    orders_per_s_without_aggregates: cost.orders_per_s_off,
    order_rounds: JSON.stringify(cost.rounds),
    cpu_us_per_order_rounds: JSON.stringify(cost.cpu_us_per_order),
  };
  for (const [name, f] of Object.entries({ api_keys: query.api_keys, tca_repeated: query.tca_repeated, tca_new_window: query.tca_new_window })) {
    metrics[`${name}_p50_ms`] = f.p50_ms;
    metrics[`${name}_p99_ms`] = f.p99_ms;
    metrics[`${name}_requests`] = f.n;
  }
  return {
    name: 'analytics',
    description: `GET /v1/analytics/tca over ${ORDERS} completed orders (30 days; repeated, and a window never asked before) against GET /v1/api_keys, sequential keep-alive requests in alternating rounds; POST /v1/orders orders/s under wrk with the TCA aggregates kept and without (TCA_AGGREGATES=off), alternating rounds`,
    metrics,
    ratios: {
      tca_repeated_p50_over_api_keys: query.tca_repeated.p50_ms / query.api_keys.p50_ms,
      tca_repeated_p99_over_api_keys: query.tca_repeated.p99_ms / query.api_keys.p99_ms,
      tca_new_window_p50_over_api_keys: query.tca_new_window.p50_ms / query.api_keys.p50_ms,
      orders_per_s_with_over_without_aggregates: cost.on_over_off_paired_median,
      cpu_per_order_with_over_without_aggregates: cost.cpu_on_over_off_paired_median,
    },
    targets: {
      tca_p50_within_2x_of_api_keys: target(query.tca_repeated.p50_ms / query.api_keys.p50_ms, 2, '<='),
      aggregates_cost_under_5pct_of_orders_per_s: target(loss, 0.05, '<='),
    },
  };
}

await runIfMain(import.meta.url, run);
