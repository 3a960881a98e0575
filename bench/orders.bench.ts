/**
 * End-to-end order throughput: market orders that route, fill and are durable.
 *
 *   wrk (1 thread, 50 conns, Lua: unique client_order_id, alternating buy/sell 0.001 BTC)
 *     --> POST /v1/orders: validate -> idempotency -> edge books (rings) -> SOR -> reserve
 *         -> LMDB put + flushed (group commit) -> 201
 *         -> IOC legs on the edges (rings) -> fills -> ledger -> LMDB + flushed -> WS publish
 *
 *   wrk (same settings) --> raw uWS JSON POST echo (the machine's ceiling for this path)
 *   wrk paced at half the measured rate --> POST /v1/orders (p99 at a fixed rate), and the same
 *   with autocannon's own pacing (a Node load generator: its figure reads higher here)
 *   LMDB put -> flushed at the same rate, in this process (the durable-commit floor under p99)
 *
 * Targets: >= 10,000 orders/s on this 2-core machine; p99 < 10 ms at half that rate.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { baselineWorktree, median, ROOT, runOnly, startScript, startServiceProcess, stopChild, type ServiceProcess } from './lib/processes.ts';
import { runIfMain, target, type BenchResult } from './lib/results.ts';
import { assertWrk, runWrk, WRK_CONNECTIONS, type WrkFigures } from './lib/wrk.ts';
import { commitLatency } from './lib/commit-latency.ts';
import { cpuPerOrder, threadCpuMs } from './lib/thread-cpu.ts';
import { lmdbLastTxnId } from './lib/lmdb-txns.ts';
import { ECHO_SERVER } from './lib/echo-server.ts';

const SECONDS = Number(process.env['BENCH_ORDERS_SECONDS'] ?? 5);
const ROUNDS = Number(process.env['BENCH_ORDERS_ROUNDS'] ?? 2);
const VENUES = ['binance', 'okx', 'bybit'];
const QTY = 100_000; // 0.001 BTC
/** The build before the router actors (issue 9), run in the same session for the same-run ratio; `none` skips it. */
const BASELINE = process.env['BENCH_ORDERS_BASELINE'] ?? '4b8a5dc';
/** Clients at once in the many-clients rounds (one router each). */
const CLIENTS = 4;
/**
 * Worker threads of both builds (`BENCH_ORDERS_WORKERS`, default 2: the four-clients rounds need
 * two to spread over). The simulated venues execute on receipt (`SIM_ORDER_LATENCY=off`; the
 * baseline build had no order latency): this measures the engine, not the venues' latency.
 */
const SERVICE_ENV = { WORKERS: process.env['BENCH_ORDERS_WORKERS'] ?? '2', SIM_ACCOUNT_USD: '1000000000', MAX_ORDER_NOTIONAL_USD: '1000000000', SIM_ORDER_LATENCY: 'off' };

/**
 * Unique orders, alternating sides. With `rate`, each of the 50 connections waits a random
 * 0..2x its share of the interval before each request (wrk's `delay`), so the offered load is
 * about `rate` per second, unsynchronised across connections: an open-ish loop whose latency
 * wrk times itself, in C, without a Node load generator competing for the two cores.
 */
function luaScript(dir: string, prefix: string, key: string | readonly string[], rate?: number): string {
  const keys = typeof key === 'string' ? [key] : key;
  const path = join(dir, `${prefix}.lua`);
  const pace = rate === undefined ? '' : `delay = function()
  return math.random(0, ${Math.max(1, Math.round((2 * WRK_CONNECTIONS * 1000) / rate))})
end
`;
  writeFileSync(
    path,
    `${pace}counter = 0
keys = { ${keys.map((k) => `"${k}"`).join(', ')} }
request = function()
  counter = counter + 1
  local key = keys[(counter % #keys) + 1]
  local side = "buy"
  if counter % 2 == 0 then side = "sell" end
  local body = string.format('{"client_order_id":"${prefix}-%d","symbol":"BTC-USDT","side":"%s","qty_1e8":${QTY},"order_type":"market"}', counter, side)
  return wrk.format("POST", "/v1/orders", {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. key}, body)
end
`,
  );
  return path;
}

function echoScript(dir: string): string {
  const path = join(dir, 'echo.lua');
  writeFileSync(
    path,
    `wrk.method = "POST"
wrk.body = '{"client_order_id":"x","symbol":"BTC-USDT","side":"buy","qty_1e8":${QTY},"order_type":"market"}'
wrk.headers["Content-Type"] = "application/json"
`,
  );
  return path;
}

async function fixedRate(port: number, key: string, rate: number): Promise<{ p50_ms: number; p99_ms: number; rps: number; non2xx: number }> {
  let n = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: 50,
    duration: SECONDS,
    overallRate: rate,
    requests: [
      {
        method: 'POST',
        path: '/v1/orders',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        setupRequest: (req) => {
          n++;
          return {
            ...req,
            body: JSON.stringify({ client_order_id: `ac-${n}`, symbol: 'BTC-USDT', side: n % 2 === 0 ? 'sell' : 'buy', qty_1e8: QTY, order_type: 'market' }),
          };
        },
      },
    ],
  });
  return { p50_ms: result.latency.p50, p99_ms: result.latency.p99, rps: result.requests.average, non2xx: result.non2xx };
}

/** The client's three venues credentialed (which opens its simulated accounts). */
async function credential(base: string, key: string): Promise<void> {
  const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  for (const venue of VENUES) {
    const body = venue === 'okx' ? { api_key: 'bench', api_secret: 'bench', passphrase: 'bench' } : { api_key: 'bench', api_secret: 'bench' };
    const res = await fetch(`${base}/v1/credentials/${venue}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
    if (res.status >= 300) throw new Error(`credentials for ${venue}: ${res.status} ${await res.text()}`);
  }
}

/**
 * Three more clients of a running service (created by the admin CLI on its data directory),
 * credentialed: with the benchmark client, four routers. Their ids hash two to each worker
 * (`router:live|bench`, `|bench-1` on worker 2; `|bench-2`, `|bench-3` on worker 1).
 */
async function moreClients(service: ServiceProcess, root: string): Promise<string[]> {
  const keys = [service.apiKey];
  for (let i = 1; i < CLIENTS; i++) {
    const created = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', 'create-client', `bench-${i}`, '--tier', 'enterprise', '--qps', '1000000'], {
      cwd: root,
      env: { ...process.env, DATA_DIR: service.dataDir },
      encoding: 'utf8',
    });
    const key = /live key\s+\([^)]*\):\s+(\S+)/.exec(created)?.[1];
    if (key === undefined) throw new Error(`admin CLI printed no key:\n${created}`);
    await credential(`http://127.0.0.1:${service.port}`, key);
    keys.push(key);
  }
  await new Promise((r) => setTimeout(r, 1_000));
  return keys;
}

/** A service process with the benchmark client's three venues credentialed and one order through. */
async function tradingService(root?: string): Promise<ServiceProcess> {
  const service = await startServiceProcess(SERVICE_ENV, root);
  const base = `http://127.0.0.1:${service.port}`;
  const auth = { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json' };
  await credential(base, service.apiKey);
  await new Promise((r) => setTimeout(r, 2_000));
  const probe = await fetch(`${base}/v1/orders`, { method: 'POST', headers: auth, body: JSON.stringify({ client_order_id: 'probe', symbol: 'BTC-USDT', side: 'buy', qty_1e8: QTY, order_type: 'market' }) });
  if (probe.status !== 201) throw new Error(`probe order: ${probe.status} ${await probe.text()}`);
  return service;
}

export async function run(): Promise<BenchResult> {
  assertWrk();
  const echo = await startScript(ECHO_SERVER);
  const worktree = BASELINE === 'none' ? undefined : baselineWorktree(BASELINE);
  const service = await tradingService();
  // The baseline build runs beside it, stopped while the other is measured (runOnly).
  const baseline = worktree === undefined ? undefined : await tradingService(worktree.root);
  try {
    const base = `http://127.0.0.1:${service.port}`;
    const orderRounds: WrkFigures[] = [];
    const echoRounds: WrkFigures[] = [];
    const baselineRounds: WrkFigures[] = [];
    const echoLua = echoScript(service.dataDir);
    const header = `Authorization: Bearer ${service.apiKey}`;
    const cpu: Record<string, number>[] = [];
    const baselineCpu: Record<string, number>[] = [];
    /**
     * One wrk round against a service, with the CPU its threads spent per order meanwhile and
     * its orders per LMDB write transaction (how well its commits group).
     */
    const measured = async (svc: ServiceProcess, prefix: string, into: Record<string, number>[], keys: string | readonly string[] = svc.apiKey): Promise<WrkFigures> => {
      await runOnly(svc, [service, baseline]);
      const pid = svc.child.pid!;
      const before = threadCpuMs(pid);
      const txnsBefore = lmdbLastTxnId(svc.dataDir);
      const figures = runWrk(`http://127.0.0.1:${svc.port}/v1/orders`, [], SECONDS, luaScript(svc.dataDir, prefix, keys));
      const orders = figures.rps * SECONDS;
      const txns = lmdbLastTxnId(svc.dataDir) - txnsBefore;
      into.push({ ...cpuPerOrder(pid, before, threadCpuMs(pid), orders), orders_per_txn: Number((orders / Math.max(1, txns)).toFixed(1)) });
      return figures;
    };
    const keys = await moreClients(service, ROOT);
    const manyRounds: WrkFigures[] = [];
    const manyCpu: Record<string, number>[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await runOnly(undefined, [service, baseline]);
      echoRounds.push(runWrk(`http://127.0.0.1:${echo.port}/`, [], SECONDS, echoLua));
      orderRounds.push(await measured(service, `w${round}`, cpu));
      manyRounds.push(await measured(service, `m${round}`, manyCpu, keys));
      if (baseline !== undefined) baselineRounds.push(await measured(baseline, `b${round}`, baselineCpu));
    }
    const medianOf = (rows: Record<string, number>[], key: string) => (rows.length === 0 ? null : median(rows.map((r) => r[key]!)));
    const baselineRps = baselineRounds.length === 0 ? null : median(baselineRounds.map((r) => r.rps));
    const bad = orderRounds.reduce((s, r) => s + r.non2xx, 0);
    const ordersRps = median(orderRounds.map((r) => r.rps));
    const manyRps = median(manyRounds.map((r) => r.rps));
    const echoRps = median(echoRounds.map((r) => r.rps));
    const halfRate = Math.max(100, Math.round(ordersRps / 2));
    await runOnly(service, [service, baseline]);
    const half = runWrk(`${base}/v1/orders`, [header], SECONDS, luaScript(service.dataDir, 'paced', service.apiKey, halfRate));
    const halfAutocannon = await fixedRate(service.port, service.apiKey, halfRate);
    const floor = await commitLatency(Math.max(100, Math.round(ordersRps / 2)), SECONDS);
    return {
      name: 'orders',
      description:
        `POST /v1/orders market orders (0.001 BTC-USDT, alternating sides, 3 credentialed venues, durable orders and fills) under wrk -t1 -c${WRK_CONNECTIONS} ` +
        `-d${SECONDS}s vs a raw uWS JSON POST echo, ${ROUNDS} alternating rounds (and ${CLIENTS} clients at once, one router each, in the same rounds); then wrk paced at half the measured rate for p99 (and autocannon's pacing, for comparison), ` +
        'against the p99 of a bare LMDB put -> flushed at that rate (the durable-commit floor)',
      metrics: {
        orders_rps: Math.round(ordersRps),
        orders_p50_ms: median(orderRounds.map((r) => r.p50_ms)),
        orders_p99_ms: median(orderRounds.map((r) => r.p99_ms)),
        orders_non2xx: bad,
        // Every round's figure, in order: a trend across rounds (a build that slows as its data grows) shows here.
        orders_rps_rounds: orderRounds.map((r) => Math.round(r.rps)).join(' '),
        baseline_orders_rps_rounds: baselineRounds.map((r) => Math.round(r.rps)).join(' '),
        clients_4_orders_rps_rounds: manyRounds.map((r) => Math.round(r.rps)).join(' '),
        echo_rps: Math.round(echoRps),
        baseline_ref: BASELINE,
        baseline_orders_rps: baselineRps === null ? null : Math.round(baselineRps),
        baseline_orders_p99_ms: baselineRounds.length === 0 ? null : median(baselineRounds.map((r) => r.p99_ms)),
        cpu_per_order_main_us: medianOf(cpu, 'main_us'),
        cpu_per_order_workers_us: medianOf(cpu, 'workers_us'),
        cpu_per_order_helpers_us: medianOf(cpu, 'helpers_us'),
        cpu_per_order_total_us: medianOf(cpu, 'total_us'),
        orders_per_lmdb_txn: medianOf(cpu, 'orders_per_txn'),
        clients_4_orders_rps: Math.round(manyRps),
        clients_4_non2xx: manyRounds.reduce((s, r) => s + r.non2xx, 0),
        clients_4_cpu_per_order_main_us: medianOf(manyCpu, 'main_us'),
        clients_4_cpu_per_order_worker_a_us: medianOf(manyCpu, 'worker_a_us'),
        clients_4_cpu_per_order_worker_b_us: medianOf(manyCpu, 'worker_b_us'),
        clients_4_cpu_per_order_helpers_us: medianOf(manyCpu, 'helpers_us'),
        clients_1_cpu_per_order_worker_a_us: medianOf(cpu, 'worker_a_us'),
        clients_1_cpu_per_order_worker_b_us: medianOf(cpu, 'worker_b_us'),
        baseline_cpu_per_order_main_us: medianOf(baselineCpu, 'main_us'),
        baseline_cpu_per_order_workers_us: medianOf(baselineCpu, 'workers_us'),
        baseline_cpu_per_order_helpers_us: medianOf(baselineCpu, 'helpers_us'),
        baseline_cpu_per_order_total_us: medianOf(baselineCpu, 'total_us'),
        baseline_orders_per_lmdb_txn: medianOf(baselineCpu, 'orders_per_txn'),
        clients_4_orders_per_lmdb_txn: medianOf(manyCpu, 'orders_per_txn'),
        echo_p99_ms: median(echoRounds.map((r) => r.p99_ms)),
        half_rate_target_rps: Math.round(ordersRps / 2),
        half_rate_achieved_rps: Math.round(half.rps),
        half_rate_p50_ms: half.p50_ms,
        half_rate_p99_ms: half.p99_ms,
        half_rate_non2xx: half.non2xx,
        half_rate_autocannon_p50_ms: halfAutocannon.p50_ms,
        half_rate_autocannon_p99_ms: halfAutocannon.p99_ms,
        commit_floor_p50_ms: floor.p50_ms,
        commit_floor_p99_ms: floor.p99_ms,
      },
      ratios: {
        orders_over_echo_rps: Number((ordersRps / echoRps).toFixed(3)),
        clients_4_over_clients_1_rps: Number((manyRps / ordersRps).toFixed(3)),
        ...(baselineRps === null
          ? {}
          : {
              orders_over_baseline_rps: Number((ordersRps / baselineRps).toFixed(3)),
              // Each round's pair (the two builds measured seconds apart), then the median: one
              // slow window on either side moves it less than it moves a ratio of medians.
              orders_over_baseline_rps_paired_median: Number(median(orderRounds.map((r, i) => r.rps / baselineRounds[i]!.rps)).toFixed(3)),
            }),
        half_rate_p99_over_commit_floor_p99: Number((half.p99_ms / floor.p99_ms).toFixed(2)),
      },
      targets: {
        orders_per_s: target(Math.round(ordersRps), 10_000, '>='),
        half_rate_p99_ms: target(half.p99_ms, 10, '<='),
      },
    };
  } finally {
    await Promise.all([service.stop(), stopChild(echo.child), baseline?.stop()]);
    worktree?.remove();
  }
}

await runIfMain(import.meta.url, run);
