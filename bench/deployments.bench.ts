/**
 * A colocated algo's order path against the same order over HTTP, in the same run:
 *
 *   edge actor (worker)  --BookChanged (ring)-->  algo actor (algo worker): depth cache -> WASM
 *   memory -> algo_on_book -> IOC buy  --Submit (ring)-->  router (worker): admission, SOR,
 *   journal -> answer
 *
 *   book_to_callback  the edge published the change -> algo_on_book began
 *   book_to_router    -> the router took the order           (target: p50 < 50 µs)
 *   book_to_ack       -> the router answered it (admitted, durable in the journal)
 *   host_to_router    the algo host took the change -> the router took the order (the host's
 *                     own path, without the edge's turn and this thread's wake-up)
 *
 * Baseline, same service, after the deployment stopped: the same order (IOC buy 0.00001 BTC at
 * half the best bid, sandbox key, binance) by `POST /v1/orders`, one at a time: request -> 201.
 *
 * And on this thread, algo callbacks per second: a whole host round of `algo_on_book` (book and
 * state written into the module's memory, the call, the actions read) against a JavaScript
 * callback reading the same book from the same arrays.
 */
import { readFileSync } from 'node:fs';
import { Bench } from 'tinybench';
import { startServiceProcess, type ServiceProcess } from './lib/processes.ts';
import { percentile, runIfMain, target, type BenchResult } from './lib/results.ts';
import { checkArtifact } from '../execution/algo/artifact.ts';
import { WasmAlgo } from '../execution/algo/wasm-algo.ts';
import { AlgoState } from '../execution/algo/algo-state.ts';

const SECONDS = Number(process.env['BENCH_DEPLOY_SECONDS'] ?? 10);
const HTTP_ORDERS = Number(process.env['BENCH_DEPLOY_HTTP_ORDERS'] ?? 600);
const fixture = (name: string) => readFileSync(new URL(`../test/fixtures/algos/${name}.wasm`, import.meta.url));

interface Summary {
  n: number;
  p50: number;
  p99: number;
}

async function call<T>(svc: ServiceProcess, method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`http://127.0.0.1:${svc.port}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? null : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

async function algoPath(svc: ServiceProcess): Promise<{ latency: Record<string, Summary>; callbacks: number; orders: number }> {
  const token = svc.sandboxKey;
  const created = await call<{ deployment_id: string; status: string }>(svc, 'POST', '/v1/deployments', token, {
    name: 'bench',
    symbols: ['BTC-USDT'],
    venue: 'binance',
    start_immediately: true,
    artifact_base64: fixture('bench-taker').toString('base64'),
  });
  if (created.status !== 201 || created.body.status !== 'running') throw new Error(`deployment not running: ${JSON.stringify(created.body)}`);
  await new Promise((r) => setTimeout(r, SECONDS * 1_000));
  const d = await call<{ runtime: { callbacks: number; latency: Record<string, Summary> }; edges: { orders_sent: number }[] }>(svc, 'GET', `/v1/deployments/${created.body.deployment_id}`, token);
  await call(svc, 'POST', `/v1/deployments/${created.body.deployment_id}/stop`, token);
  return { latency: d.body.runtime.latency, callbacks: d.body.runtime.callbacks, orders: d.body.edges[0]!.orders_sent };
}

async function httpPath(svc: ServiceProcess): Promise<Summary> {
  const token = svc.sandboxKey;
  const times: number[] = [];
  for (let i = 0; i < HTTP_ORDERS; i++) {
    // The quote's prices are decimals: half the bid, in whole cents, as 1e9 units.
    const quote = await call<{ nbbo: { bid: number } }>(svc, 'GET', '/v1/quotes/BTC-USDT?depth=1', token);
    const body = { client_order_id: `http-${i}`, symbol: 'BTC-USDT', side: 'buy', qty_1e8: 1_000, order_type: 'limit', time_in_force: 'ioc', limit_price_1e9: Math.floor(quote.body.nbbo.bid * 50) * 10_000_000, venue: 'binance' };
    const t0 = performance.now();
    const res = await call(svc, 'POST', '/v1/orders', token, body);
    const t1 = performance.now();
    if (res.status !== 201) throw new Error(`order refused: ${JSON.stringify(res.body)}`);
    if (i >= 50) times.push((t1 - t0) * 1_000);
  }
  times.sort((a, b) => a - b);
  return { n: times.length, p50: Math.round(percentile(times, 50)), p99: Math.round(percentile(times, 99)) };
}

/** One thread: a host round of algo_on_book against a JavaScript callback over the same book. */
async function callbacksPerSecond(): Promise<{ wasm_hz: number; js_hz: number }> {
  const artifact = checkArtifact(fixture('bench-taker'), 64 << 20);
  if (!artifact.ok) throw new Error(artifact.message);
  const algo = WasmAlgo.create(artifact.module, { log: () => undefined, meshSend: () => -1 });
  if (!(algo instanceof WasmAlgo)) throw new Error(algo.failed);
  const px = Float64Array.from({ length: 20 }, (_, i) => 93_000_000_000_000 - i * 10_000_000);
  const qty = Float64Array.from({ length: 20 }, (_, i) => 10_000_000 + i * 1_000);
  const ask = px.map((p) => p + 20_000_000);
  const bids = { count: 20, px, qty };
  const asks = { count: 20, px: ask, qty };
  const state = new AlgoState();
  let sink = 0;
  const js = (b: typeof bids, s: AlgoState) => {
    let notional = 0;
    for (let i = 0; i < b.count; i++) notional += b.px[i]! * b.qty[i]!;
    return s.liveOrders === 0 && notional > 0 ? 1 : 0;
  };
  const bench = new Bench({ time: 1_500, warmupTime: 300 });
  bench.add('wasm algo_on_book round', () => {
    const r = algo.onBook(bids, asks, 0, 1, state);
    sink += typeof r === 'number' ? r : 0;
  });
  bench.add('js callback', () => {
    sink += js(bids, state);
  });
  await bench.run();
  if (sink < 0) console.log(sink);
  const hz = (name: string) => Math.round((bench.getTask(name)!.result as { throughput: { mean: number } }).throughput.mean);
  return { wasm_hz: hz('wasm algo_on_book round'), js_hz: hz('js callback') };
}

export async function run(): Promise<BenchResult> {
  const svc = await startServiceProcess({ WORKERS: '2', ALGO_WORKERS: '1', ALGO_ORDERS_PER_S: '100000', SIM_ORDER_LATENCY: 'off' });
  try {
    const reset = await call(svc, 'POST', '/v1/sandbox/reset', svc.sandboxKey);
    if (reset.status !== 200) throw new Error('sandbox reset failed');
    const algo = await algoPath(svc);
    const http = await httpPath(svc);
    const perThread = await callbacksPerSecond();
    const { book_to_callback_us: cb, book_to_router_us: router, book_to_ack_us: ack, host_to_router_us: host } = algo.latency as Record<string, Summary>;
    return {
      name: 'deployments',
      description: 'A deployed WASM algo: book change -> algo_on_book -> order at the router (and acknowledged), against the same order by POST /v1/orders (request -> 201) on the same service; algo_on_book host rounds per second on one thread against a JS callback over the same book',
      metrics: {
        seconds: SECONDS,
        algo_orders: algo.orders,
        algo_callbacks: algo.callbacks,
        book_to_callback_p50_us: cb!.p50,
        book_to_callback_p99_us: cb!.p99,
        book_to_router_p50_us: router!.p50,
        book_to_router_p99_us: router!.p99,
        host_to_router_p50_us: host!.p50,
        host_to_router_p99_us: host!.p99,
        book_to_ack_p50_us: ack!.p50,
        book_to_ack_p99_us: ack!.p99,
        http_orders: http.n,
        http_order_to_201_p50_us: http.p50,
        http_order_to_201_p99_us: http.p99,
        wasm_callbacks_per_s: perThread.wasm_hz,
        js_callbacks_per_s: perThread.js_hz,
      },
      ratios: {
        algo_ack_over_http_201_p50: Math.round((ack!.p50 / http.p50) * 1000) / 1000,
        algo_ack_over_http_201_p99: Math.round((ack!.p99 / http.p99) * 1000) / 1000,
        wasm_over_js_callbacks: Math.round((perThread.wasm_hz / perThread.js_hz) * 1000) / 1000,
      },
      targets: { book_to_router_p50_us: target(router!.p50, 50, '<='), host_to_router_p50_us: target(host!.p50, 50, '<=') },
    };
  } finally {
    await svc.stop();
  }
}

await runIfMain(import.meta.url, run);
