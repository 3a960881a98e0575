/**
 * Gateway throughput and latency under wrk, against a plain node:http server in the same run.
 *
 *   wrk (1 thread, 50 connections) --HTTP/1.1 keep-alive--> service main thread
 *        GET /v1/api_keys  Authorization: Bearer sqk_live_...
 *          request id -> route -> SHA-256 + 2 LMDB reads (auth) -> token bucket
 *          -> LMDB read (the key list, stored as JSON bytes) -> uWS cork/end -> access-log line
 *
 *   wrk (same settings) --> node:http hello world (baseline, separate process)
 *   wrk (same settings) --> raw uWS hello world (the ceiling: no JS work per request)
 *
 * Rounds alternate between the servers so drift on this noisy VM hits all alike; the figure
 * reported for each is the median round. Target: service >= 2x the baseline's requests/s,
 * p99 < 5 ms at 50 connections.
 */
import { median, startScript, startServiceProcess, stopChild } from './lib/processes.ts';
import { target, runIfMain, type BenchResult } from './lib/results.ts';
import { assertWrk, runWrk, WRK_CONNECTIONS, type WrkFigures } from './lib/wrk.ts';

const DURATION_S = Number(process.env['BENCH_GATEWAY_SECONDS'] ?? 5);
const ROUNDS = Number(process.env['BENCH_GATEWAY_ROUNDS'] ?? 3);

export const HELLO_SERVER = `
const http = require('node:http');
const body = '{"hello":"world"}';
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => console.log('PORT=' + server.address().port));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

const RAW_UWS_SERVER = `
const { createRequire } = require('node:module');
const uws = createRequire(process.cwd() + '/')(
  'uWebSockets.js/binaries/uws_' + process.platform + '_' + process.arch + '_' + process.versions.modules + '.node');
uws.App().any('/*', (res) => { res.writeHeader('content-type', 'application/json'); res.end('{"hello":"world"}'); })
  .listen('127.0.0.1', 0, (s) => console.log('PORT=' + uws.us_socket_local_port(s)));
`;

export async function run(): Promise<BenchResult> {
  assertWrk();
  const service = await startServiceProcess();
  const baseline = await startScript(HELLO_SERVER);
  const ceiling = await startScript(RAW_UWS_SERVER);
  try {
    const serviceUrl = `http://127.0.0.1:${service.port}/v1/api_keys`;
    const baselineUrl = `http://127.0.0.1:${baseline.port}/`;
    const ceilingUrl = `http://127.0.0.1:${ceiling.port}/`;
    const auth = [`Authorization: Bearer ${service.apiKey}`];

    const probe = await fetch(serviceUrl, { headers: { authorization: `Bearer ${service.apiKey}` } });
    if (probe.status !== 200) throw new Error(`service answered ${probe.status} to the benchmark request`);
    // Warm-up: JIT, LMDB pages, connection setup.
    runWrk(serviceUrl, auth, DURATION_S);
    runWrk(baselineUrl, [], DURATION_S);

    const serviceRounds: WrkFigures[] = [];
    const baselineRounds: WrkFigures[] = [];
    const ceilingRounds: WrkFigures[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      baselineRounds.push(runWrk(baselineUrl, [], DURATION_S));
      serviceRounds.push(runWrk(serviceUrl, auth, DURATION_S));
      ceilingRounds.push(runWrk(ceilingUrl, [], DURATION_S));
    }
    if (serviceRounds.some((r) => r.non2xx > 0)) throw new Error('the service answered non-2xx during the run');

    const serviceRps = median(serviceRounds.map((r) => r.rps));
    const baselineRps = median(baselineRounds.map((r) => r.rps));
    const ceilingRps = median(ceilingRounds.map((r) => r.rps));
    const serviceP99 = median(serviceRounds.map((r) => r.p99_ms));
    const ratio = serviceRps / baselineRps;
    return {
      name: 'gateway',
      description:
        `authenticated GET /v1/api_keys (API key, token bucket, LMDB reads, access log) under wrk -t1 -c${WRK_CONNECTIONS} ` +
        `-d${DURATION_S}s vs a node:http hello world and a raw uWS hello world, ${ROUNDS} alternating rounds, medians`,
      metrics: {
        service_rps: Math.round(serviceRps),
        service_p50_ms: median(serviceRounds.map((r) => r.p50_ms)),
        service_p99_ms: serviceP99,
        baseline_rps: Math.round(baselineRps),
        baseline_p50_ms: median(baselineRounds.map((r) => r.p50_ms)),
        baseline_p99_ms: median(baselineRounds.map((r) => r.p99_ms)),
        raw_uws_hello_rps: Math.round(ceilingRps),
        raw_uws_hello_p99_ms: median(ceilingRounds.map((r) => r.p99_ms)),
        rounds: ROUNDS,
        service_rounds_rps: serviceRounds.map((r) => Math.round(r.rps)).join(','),
        baseline_rounds_rps: baselineRounds.map((r) => Math.round(r.rps)).join(','),
      },
      ratios: {
        service_over_node_http_rps: Number(ratio.toFixed(3)),
        raw_uws_hello_over_node_http_rps: Number((ceilingRps / baselineRps).toFixed(3)),
        service_over_raw_uws_hello_rps: Number((serviceRps / ceilingRps).toFixed(3)),
      },
      targets: {
        rps_ratio: target(Number(ratio.toFixed(3)), 2, '>='),
        p99_ms: target(serviceP99, 5, '<='),
      },
    };
  } finally {
    await Promise.all([service.stop(), stopChild(baseline.child), stopChild(ceiling.child)]);
  }
}

await runIfMain(import.meta.url, run);
