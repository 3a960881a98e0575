/**
 * Tick-to-client latency of a market-data channel fanned out to many WebSocket clients.
 *
 *   simulated venue --edge actor (stamps edge_ts_ns)--> ring --> book actor --> ring
 *     --> gateway: JSON once --> uWS topic publish --> 1,000 sockets --> client process
 *                                                                     (latency = arrival - edge_ts_ns)
 *
 * Same run, same service: the same channel with a single subscriber is the baseline, so the
 * ratio shows what fan-out itself costs. Clients run in their own process; both processes
 * share this machine's two cores with the service, as a colocated consumer would.
 * Target: p99 under 5 ms with 1,000 clients.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ROOT, startServiceProcess } from './lib/processes.ts';
import { target, writeResult, type BenchResult } from './lib/results.ts';

const CHANNEL = process.env['BENCH_FANOUT_CHANNEL'] ?? 'prices:BTC-USDT';
const CLIENTS = Number(process.env['BENCH_FANOUT_CLIENTS'] ?? 1000);
const SECONDS = Number(process.env['BENCH_FANOUT_SECONDS'] ?? 10);
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
    const many = await clients(service.port, service.apiKey, CLIENTS);
    if (many.samples === 0 || single.samples === 0) throw new Error(`no frames on ${CHANNEL}`);
    const p99ms = (many.p99_us ?? 0) / 1000;
    return {
      name: 'fanout',
      description: `${CHANNEL} to ${CLIENTS} WebSocket clients vs 1 client, ${SECONDS}s each, latency from the edge's hand-off to arrival at the client`,
      metrics: {
        clients: CLIENTS,
        frames_per_client_per_s: Number(many.frames_per_connection_per_s.toFixed(1)),
        frames_delivered: many.frames,
        p50_us: many.p50_us,
        p99_us: many.p99_us,
        p999_us: many.p999_us,
        max_us: many.max_us,
        single_client_p50_us: single.p50_us,
        single_client_p99_us: single.p99_us,
        single_client_frames_per_s: Number(single.frames_per_connection_per_s.toFixed(1)),
      },
      ratios: {
        p50_many_over_single: Number(((many.p50_us ?? 0) / (single.p50_us ?? 1)).toFixed(3)),
        p99_many_over_single: Number(((many.p99_us ?? 0) / (single.p99_us ?? 1)).toFixed(3)),
      },
      targets: { p99_ms: target(Number(p99ms.toFixed(3)), 5, '<=') },
    };
  } finally {
    await service.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await run();
  console.log(JSON.stringify(result, null, 2));
  console.log('wrote', writeResult(result));
}
