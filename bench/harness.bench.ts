/**
 * The benchmark harness's own ceiling (`seq bench`, client/src/bench/): how many orders per
 * second it can drive when the other end costs nothing, against the raw uWS echo
 * (bench/lib/echo-server.ts, its own process). In the same rounds, against the same echo:
 *
 *   autocannon, the same POST body over as many connections as the harness keeps in flight
 *     (a purpose-built Node load generator: the ceiling of a Node process here);
 *   a bare `fetch` loop with the same concurrency (what the harness pays for on top of the
 *     transport: the typed client, scheduling, bookkeeping).
 *
 * The harness runs acknowledgements only (`--acks-only`: the echo has no stream) at a rate far
 * above what it can reach, so the in-flight cap closes the loop and the figure is its ceiling.
 * Two alternating rounds, the median reported; ratios are harness over each baseline.
 */
import autocannon from 'autocannon';
import { createClient } from '../client/src/index.ts';
import { runBench } from '../client/src/bench/runner.ts';
import { DEFAULT_SCENARIO } from '../client/src/bench/scenario.ts';
import { ECHO_SERVER } from './lib/echo-server.ts';
import { median, startScript, stopChild } from './lib/processes.ts';
import { runIfMain, type BenchResult } from './lib/results.ts';

const SECONDS = Number(process.env['BENCH_HARNESS_SECONDS'] ?? 4);
const ROUNDS = 2;
const IN_FLIGHT = 64;
const BODY = JSON.stringify({ client_order_id: 'x', symbol: 'BTC-USDT', side: 'buy', order_type: 'market', qty_1e8: 100_000 });

async function autocannonRate(base: string): Promise<number> {
  const result = await autocannon({
    url: base,
    connections: IN_FLIGHT,
    duration: SECONDS,
    requests: [{ method: 'POST', path: '/v1/orders', headers: { 'content-type': 'application/json', authorization: 'Bearer bench' }, body: BODY }],
  });
  return result.requests.total / SECONDS;
}

async function fetchLoopRate(base: string): Promise<number> {
  const until = performance.now() + SECONDS * 1_000;
  let done = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (performance.now() < until) {
        const res = await fetch(`${base}/v1/orders`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer bench' }, body: BODY });
        await res.json();
        done++;
      }
    }),
  );
  return done / SECONDS;
}

async function harnessRate(base: string, round: number): Promise<{ rate: number; ackP50: number | null; ackP99: number | null }> {
  const report = await runBench({
    client: createClient({ baseUrl: base, apiKey: 'bench', retry: false }),
    baseUrl: base,
    scenario: { ...DEFAULT_SCENARIO, rate: 1_000_000, duration_s: SECONDS, symbols: ['BTC-USDT'] },
    follow: false,
    maxInFlight: IN_FLIGHT,
    drainMs: 0,
    runId: `ceiling-${round}`,
  });
  if (report.counts.refused > 0) throw new Error(`the echo refused ${report.counts.refused}: ${JSON.stringify(report.rejects)}`);
  return { rate: report.throughput.acknowledged_per_s, ackP50: report.latency_ms.acknowledged.p50, ackP99: report.latency_ms.acknowledged.p99 };
}

export async function run(): Promise<BenchResult> {
  const echo = await startScript(ECHO_SERVER);
  try {
    const base = `http://127.0.0.1:${echo.port}`;
    await fetchLoopRate(base); // warm: connections, JIT
    const harness: number[] = [];
    const cannon: number[] = [];
    const loop: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      harness.push((await harnessRate(base, round)).rate);
      cannon.push(await autocannonRate(base));
      loop.push(await fetchLoopRate(base));
    }
    const h = median(harness);
    const a = median(cannon);
    const f = median(loop);
    const r2 = (x: number) => Math.round(x * 100) / 100;
    return {
      name: 'harness',
      description: `seq bench's ceiling: orders/s it drives (acknowledgements only, ${IN_FLIGHT} in flight) against the raw uWS echo in its own process, with autocannon and a bare fetch loop at the same concurrency against the same echo as baselines; ${SECONDS} s rounds, ${ROUNDS} alternating, medians`,
      metrics: { rounds: ROUNDS, in_flight: IN_FLIGHT, harness_orders_per_s: Math.round(h), autocannon_requests_per_s: Math.round(a), fetch_loop_requests_per_s: Math.round(f) },
      ratios: { harness_over_autocannon: r2(h / a), harness_over_fetch_loop: r2(h / f) },
      targets: {},
    };
  } finally {
    await stopChild(echo.child);
  }
}

await runIfMain(import.meta.url, run);
