/**
 * Tick-to-client latency of a market-data channel fanned out to many WebSocket clients.
 *
 *   simulated venue --edge actor (stamps edge_ts_ns)--> ring --> book actor --> ring
 *     --> gateway: JSON once --> uWS topic publish --> 950 silent sockets (sink process, raw TCP)
 *                                                  --> 50 probe sockets (probe process, `ws`)
 *                                                      latency = arrival - edge_ts_ns
 *
 * The probes subscribe last, so uWS writes to them after the other 950: they see the worst
 * case of each publish. A single Node process parsing 1,000 WebSockets needs ~10-25 ms to
 * drain one burst here (measured with a bare uWS server too), which would measure the client,
 * not the server; hence silent raw sockets for the bulk. Same run, two baselines: the channel
 * with a single subscriber, and the floor: a bare uWS server (no engine, no JSON) publishing
 * stamped frames at the same rate to the same 950 + 50 sockets. Target: p99 under 5 ms with
 * 1,000 clients.
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { ROOT, startScript, startServiceProcess, stopChild, waitForLine } from './lib/processes.ts';
import { target, runIfMain, type BenchResult } from './lib/results.ts';

const CHANNEL = process.env['BENCH_FANOUT_CHANNEL'] ?? 'prices:BTC-USDT';
const CLIENTS = Number(process.env['BENCH_FANOUT_CLIENTS'] ?? 1000);
const SECONDS = Number(process.env['BENCH_FANOUT_SECONDS'] ?? 10);
const PROBES = 50;
const run$ = promisify(execFile);

interface ClientFigures {
  connections: number;
  frames: number;
  samples: number;
  frames_per_connection_per_s: number;
  p50_us: number | null;
  p99_us: number | null;
  p999_us: number | null;
  max_us: number | null;
}

/** The floor: bare uWS publishing a stamped frame like ours every 27 ms (~37/s, BTC-USDT's rate). */
const FLOOR_SERVER = `
const { createRequire } = require('node:module');
const uws = createRequire(process.cwd() + '/')(
  'uWebSockets.js/binaries/uws_' + process.platform + '_' + process.arch + '_' + process.versions.modules + '.node');
const app = uws.App();
app.ws('/*', { message: (ws, m) => { const s = JSON.parse(Buffer.from(m).toString()).subscribe; for (const c of s) ws.subscribe(c); }, maxBackpressure: 1 << 20 });
app.listen('127.0.0.1', 0, (s) => console.log('PORT=' + uws.us_socket_local_port(s)));
setInterval(() => {
  const ns = Math.round((performance.timeOrigin + performance.now()) * 1e6);
  app.publish('${CHANNEL}', '{"type":"data","channel":"${CHANNEL}","ts_ns":' + ns + ',"data":{"bid":98450.94,"ask":98458.02,"mid":98454.48,"bid_sz":0.20968,"ask_sz":0.85828,"spread_bps":0.72,"ts_ns":' + ns + ',"edge_ts_ns":' + ns + '}}');
}, 27);
`;

/** 950 silent subscribers, then 50 probes subscribed after them. */
async function fanOut(port: number, key: string): Promise<ClientFigures> {
  const sink = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/lib/fanout-sink.ts', String(port), key, CHANNEL, String(CLIENTS - PROBES), String(SECONDS + 5)],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    await waitForLine(sink, /READY/, 60_000);
    return await clients(port, key, PROBES);
  } finally {
    await stopChild(sink);
  }
}

async function clients(port: number, key: string, connections: number): Promise<ClientFigures> {
  const { stdout } = await run$(
    process.execPath,
    ['--import', 'tsx', 'bench/lib/fanout-client.ts', String(port), key, CHANNEL, String(connections), String(SECONDS)],
    { cwd: ROOT, timeout: (SECONDS + 60) * 1000, maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout.trim().split('\n').pop()!) as ClientFigures;
}

export async function run(): Promise<BenchResult> {
  const service = await startServiceProcess({ WORKERS: '2' });
  try {
    await new Promise((r) => setTimeout(r, 2_000)); // venues connected, books built
    const single = await clients(service.port, service.apiKey, 1);
    const many = await fanOut(service.port, service.apiKey);
    const floorServer = await startScript(FLOOR_SERVER);
    let floor: ClientFigures;
    try {
      floor = await fanOut(floorServer.port, 'unused');
    } finally {
      await stopChild(floorServer.child);
    }
    if (many.samples === 0 || single.samples === 0) throw new Error(`no frames on ${CHANNEL}`);
    const p99ms = (many.p99_us ?? 0) / 1000;
    return {
      name: 'fanout',
      description: `${CHANNEL} to ${CLIENTS} WebSocket clients vs 1 client, ${SECONDS}s each, latency from the edge's hand-off to arrival at the client`,
      metrics: {
        clients: CLIENTS,
        probe_clients: PROBES,
        frames_per_client_per_s: Number(many.frames_per_connection_per_s.toFixed(1)),
        frames_delivered: many.frames,
        p50_us: many.p50_us,
        p99_us: many.p99_us,
        p999_us: many.p999_us,
        max_us: many.max_us,
        single_client_p50_us: single.p50_us,
        single_client_p99_us: single.p99_us,
        single_client_frames_per_s: Number(single.frames_per_connection_per_s.toFixed(1)),
        bare_uws_floor_p50_us: floor.p50_us,
        bare_uws_floor_p99_us: floor.p99_us,
        bare_uws_floor_frames_per_s: Number(floor.frames_per_connection_per_s.toFixed(1)),
      },
      ratios: {
        p50_many_over_single: Number(((many.p50_us ?? 0) / (single.p50_us ?? 1)).toFixed(3)),
        p99_many_over_single: Number(((many.p99_us ?? 0) / (single.p99_us ?? 1)).toFixed(3)),
        p50_ours_over_bare_uws_floor: Number(((many.p50_us ?? 0) / (floor.p50_us ?? 1)).toFixed(3)),
        p99_ours_over_bare_uws_floor: Number(((many.p99_us ?? 0) / (floor.p99_us ?? 1)).toFixed(3)),
      },
      targets: { p99_ms: target(Number(p99ms.toFixed(3)), 5, '<=') },
    };
  } finally {
    await service.stop();
  }
}

await runIfMain(import.meta.url, run);
