/**
 * Gateway throughput and latency under wrk, against a plain node:http server in the same run.
 *
 *   wrk (1 thread, 50 connections) --HTTP/1.1 keep-alive--> service main thread
 *        GET /v1/api_keys  Authorization: Bearer sqk_live_...
 *          request id -> route -> SHA-256 + 2 LMDB reads (auth) -> token bucket
 *          -> LMDB range read (the keys) -> JSON -> uWS cork/end -> pino request line
 *
 *   wrk (same settings) --> node:http hello world (baseline, separate process)
 *   wrk (same settings) --> raw uWS hello world (the ceiling: no JS work per request)
 *
 * Rounds alternate between the two servers so drift on this noisy VM hits both alike; the
 * figure reported for each is the median round. Target: service >= 2x the baseline's
 * requests/s, p99 < 5 ms at 50 connections.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { target, writeResult, type BenchResult } from './lib/results.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DURATION_S = Number(process.env['BENCH_GATEWAY_SECONDS'] ?? 5);
const ROUNDS = Number(process.env['BENCH_GATEWAY_ROUNDS'] ?? 3);
const CONNECTIONS = 50;

interface WrkFigures {
  rps: number;
  p50_ms: number;
  p99_ms: number;
  non2xx: number;
}

function wrkAvailable(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (err) {
    // wrk --version exits 1 after printing its banner; only a missing binary is ENOENT.
    return (err as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

function toMs(value: string, unit: string): number {
  const n = Number(value);
  return unit === 'us' ? n / 1000 : unit === 's' ? n * 1000 : n;
}

function runWrk(url: string, headers: string[]): WrkFigures {
  const args = ['-t1', `-c${CONNECTIONS}`, `-d${DURATION_S}s`, '--latency', ...headers.flatMap((h) => ['-H', h]), url];
  const out = execFileSync('wrk', args, { encoding: 'utf8', timeout: (DURATION_S + 30) * 1000 });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const p50 = /\s50%\s+([\d.]+)(us|ms|s)/.exec(out);
  const p99 = /\s99%\s+([\d.]+)(us|ms|s)/.exec(out);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  if (!Number.isFinite(rps) || !p50 || !p99) throw new Error(`could not parse wrk output:\n${out}`);
  return { rps, p50_ms: toMs(p50[1]!, p50[2]!), p99_ms: toMs(p99[1]!, p99[2]!), non2xx };
}

function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}: ${seen}`)), timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = pattern.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    });
  });
}

async function waitForFileLine(path: string, pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const match = pattern.exec(readFileSync(path, 'utf8'));
    if (match) return match;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${pattern} in ${path}`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

const HELLO_SERVER = `
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

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function run(): Promise<BenchResult> {
  if (!wrkAvailable()) {
    throw new Error('wrk is not installed: `apt-get install -y wrk` (Debian package) and run again');
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'seq-bench-gw-'));
  const env = { ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', WORKERS: '1' };
  // A client whose bucket is checked on every request but never empties during the run.
  const created = execFileSync(
    process.execPath,
    ['--import', 'tsx', 'scripts/admin.ts', 'create-client', 'bench', '--tier', 'enterprise', '--qps', '1000000'],
    { cwd: ROOT, env, encoding: 'utf8' },
  );
  const apiKey = /live key\s+\([^)]*\):\s+(\S+)/.exec(created)?.[1];
  if (apiKey === undefined) throw new Error(`admin CLI printed no key:\n${created}`);

  // The service logs every request; its stdout goes to a file, as in production, rather than a
  // pipe this process would have to drain on the same two cores as wrk and the server.
  const logPath = join(dataDir, 'service.log');
  const logFd = openSync(logPath, 'w');
  const service = spawn(process.execPath, ['--import', 'tsx', 'main.ts'], { cwd: ROOT, env, stdio: ['ignore', logFd, 'inherit'] });
  closeSync(logFd);
  const baseline = spawn(process.execPath, ['-e', HELLO_SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const ceiling = spawn(process.execPath, ['-e', RAW_UWS_SERVER], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const servicePort = (await waitForFileLine(logPath, /Listening on http:\/\/[^:]+:(\d+)/, 30_000))[1]!;
    const baselinePort = (await waitForLine(baseline, /PORT=(\d+)/, 10_000))[1]!;
    const ceilingUrl = `http://127.0.0.1:${(await waitForLine(ceiling, /PORT=(\d+)/, 10_000))[1]!}/`;
    const serviceUrl = `http://127.0.0.1:${servicePort}/v1/api_keys`;
    const baselineUrl = `http://127.0.0.1:${baselinePort}/`;
    const auth = [`Authorization: Bearer ${apiKey}`];

    // Warm-up: JIT, LMDB pages, connection setup.
    const probe = await fetch(serviceUrl, { headers: { authorization: `Bearer ${apiKey}` } });
    if (probe.status !== 200) throw new Error(`service answered ${probe.status} to the benchmark request`);
    runWrk(serviceUrl, auth);
    runWrk(baselineUrl, []);

    const serviceRounds: WrkFigures[] = [];
    const baselineRounds: WrkFigures[] = [];
    const ceilingRounds: WrkFigures[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      baselineRounds.push(runWrk(baselineUrl, []));
      serviceRounds.push(runWrk(serviceUrl, auth));
      ceilingRounds.push(runWrk(ceilingUrl, []));
    }
    if (serviceRounds.some((r) => r.non2xx > 0)) throw new Error('the service answered non-2xx during the run');

    const serviceRps = median(serviceRounds.map((r) => r.rps));
    const baselineRps = median(baselineRounds.map((r) => r.rps));
    const serviceP99 = median(serviceRounds.map((r) => r.p99_ms));
    const ratio = serviceRps / baselineRps;
    const ceilingRps = median(ceilingRounds.map((r) => r.rps));
    return {
      name: 'gateway',
      description:
        `authenticated GET /v1/api_keys (API key, token bucket, LMDB reads, pino request log) under wrk -t1 -c${CONNECTIONS} ` +
        `-d${DURATION_S}s vs a node:http hello world, ${ROUNDS} alternating rounds, medians`,
      metrics: {
        service_rps: Math.round(serviceRps),
        service_p50_ms: median(serviceRounds.map((r) => r.p50_ms)),
        service_p99_ms: serviceP99,
        baseline_rps: Math.round(baselineRps),
        baseline_p50_ms: median(baselineRounds.map((r) => r.p50_ms)),
        baseline_p99_ms: median(baselineRounds.map((r) => r.p99_ms)),
        rounds: ROUNDS,
        service_rounds_rps: serviceRounds.map((r) => Math.round(r.rps)).join(','),
        baseline_rounds_rps: baselineRounds.map((r) => Math.round(r.rps)).join(','),
        raw_uws_hello_rps: Math.round(ceilingRps),
        raw_uws_hello_p99_ms: median(ceilingRounds.map((r) => r.p99_ms)),
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
    await Promise.all([stopChild(service), stopChild(baseline), stopChild(ceiling)]);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await run();
  console.log(JSON.stringify(result, null, 2));
  console.log('wrote', writeResult(result));
}
