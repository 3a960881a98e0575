/**
 * A market order's round trip, submit to terminal state, sandbox against live, in the same run:
 *
 *   one service process (WORKERS=2), one client: its live key credentialed on binance, okx and
 *   bybit; its sandbox key reset, then holding USDT on the same three venues only (so both route
 *   among the same venues). Both keys listen on the `orders` WebSocket channel.
 *   Orders alternate live / sandbox (0.001 BTC-USDT market, buy then sell, one at a time): t0 just before POST /v1/orders, t1 when the orders channel says the
 *   order is terminal. Round trip = t1 - t0.
 *
 * Twice: with `SIM_ORDER_LATENCY=venue` (a simulated venue executes a child its one-way latency
 * after it is sent, live and sandbox alike: the realistic case) and `off` (on receipt: the
 * engine's own path, where the sandbox's extra work would show most). Target: sandbox p50 and p99
 * within 1.2x of live in each.
 */
import { WebSocket } from 'ws';
import { percentile, runIfMain, target, type BenchResult } from './lib/results.ts';
import { startServiceProcess, type ServiceProcess } from './lib/processes.ts';

const ORDERS = Number(process.env['BENCH_ROUNDTRIP_ORDERS'] ?? 400);
const WARMUP = 40;
const VENUES = ['binance', 'okx', 'bybit'];
const QTY = 100_000; // 0.001 BTC
const TERMINAL = new Set(['COMPLETED', 'CANCELLED', 'REJECTED', 'EXPIRED', 'FAILED']);
const ORDER_TIMEOUT_MS = 10_000;

type Mode = 'live' | 'sandbox';

/** A key's orders channel: the instant each order was first seen terminal, and a wait for it. */
class TerminalWatch {
  private readonly seen = new Map<string, number>();
  private waiting: { id: string; resolve: (t: number) => void } | undefined;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const t = performance.now();
      const frame = JSON.parse(String(data)) as { channel?: string; data?: { node_order_id?: string; status?: string } };
      const id = frame.data?.node_order_id;
      if (frame.channel !== 'orders' || id === undefined || !TERMINAL.has(frame.data?.status ?? '') || this.seen.has(id)) return;
      this.seen.set(id, t);
      if (this.waiting?.id === id) this.waiting.resolve(t);
    });
  }

  static async open(base: string, port: number, key: string): Promise<TerminalWatch> {
    const ticket = (await json<{ ticket: string }>(base, 'GET', '/v1/ws/ticket', key)).ticket;
    const ws = new WebSocket(`ws://127.0.0.1:${port}/v1/stream?ticket=${ticket}`, { handshakeTimeout: 5_000 });
    const watch = new TerminalWatch(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const subscribed = new Promise<void>((resolve) => ws.on('message', (d) => String(d).includes('"subscribed"') && resolve()));
    ws.send(JSON.stringify({ subscribe: ['orders'] }));
    await subscribed;
    return watch;
  }

  terminalAt(id: string): Promise<number> {
    const t = this.seen.get(id);
    if (t !== undefined) return Promise.resolve(t);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`order ${id} not terminal within ${ORDER_TIMEOUT_MS} ms`)), ORDER_TIMEOUT_MS);
      this.waiting = {
        id,
        resolve: (at) => {
          clearTimeout(timer);
          this.waiting = undefined;
          resolve(at);
        },
      };
    });
  }
}

async function json<T>(base: string, method: string, path: string, key: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

interface Samples {
  live: number[];
  sandbox: number[];
  statuses: Record<string, number>;
}

async function measure(latency: 'venue' | 'off'): Promise<Samples> {
  const service: ServiceProcess = await startServiceProcess({ WORKERS: '2', SIM_ORDER_LATENCY: latency, SIM_ACCOUNT_USD: '1000000', MAX_ORDER_NOTIONAL_USD: '1000000' });
  try {
    const base = `http://127.0.0.1:${service.port}`;
    const keys: Record<Mode, string> = { live: service.apiKey, sandbox: service.sandboxKey };
    for (const venue of VENUES) {
      const body = venue === 'okx' ? { api_key: 'bench', api_secret: 'bench', passphrase: 'bench' } : { api_key: 'bench', api_secret: 'bench' };
      await json(base, 'POST', `/v1/credentials/${venue}`, keys.live, body);
    }
    // The sandbox account holds cash on the live key's three venues only, so both route among the same three.
    await json(base, 'POST', '/v1/sandbox/reset', keys.sandbox);
    const cash = VENUES.map((venue) => ({ venue, kind: 'crypto', symbol: 'USDT', qty: 1_000_000 }));
    await json(base, 'POST', '/v1/sandbox/positions', keys.sandbox, { replace: true, positions: cash });
    const deadline = Date.now() + 20_000;
    for (;;) {
      const res = await fetch(`${base}/v1/quotes/BTC-USDT`, { headers: { authorization: `Bearer ${keys.live}` } });
      await res.arrayBuffer();
      if (res.status === 200) break;
      if (Date.now() > deadline) throw new Error('BTC-USDT never quoted');
      await new Promise((r) => setTimeout(r, 200));
    }
    const watches: Record<Mode, TerminalWatch> = { live: await TerminalWatch.open(base, service.port, keys.live), sandbox: await TerminalWatch.open(base, service.port, keys.sandbox) };
    const samples: Samples = { live: [], sandbox: [], statuses: {} };
    const roundTrip = async (mode: Mode, n: number): Promise<number> => {
      const t0 = performance.now();
      const order = await json<{ node_order_id: string; status: string }>(base, 'POST', '/v1/orders', keys[mode], {
        client_order_id: `rt-${latency}-${mode}-${n}`,
        symbol: 'BTC-USDT',
        side: n % 2 === 0 ? 'buy' : 'sell',
        qty_1e8: QTY,
        order_type: 'market',
      });
      return (await watches[mode].terminalAt(order.node_order_id)) - t0;
    };
    // Pairs (buy, sell) per mode, the mode first in a pair alternating: neither always goes first.
    for (let i = 0; i < WARMUP + ORDERS; i += 2) {
      const modes: Mode[] = (i / 2) % 2 === 0 ? ['live', 'sandbox'] : ['sandbox', 'live'];
      for (const mode of modes) {
        for (const n of [i, i + 1]) {
          const ms = await roundTrip(mode, n);
          if (i >= WARMUP) samples[mode].push(ms);
        }
      }
    }
    for (const mode of ['live', 'sandbox'] as const) {
      const orders = await json<{ orders: { status: string }[] }>(base, 'GET', `/v1/orders?limit=1000`, keys[mode]);
      for (const o of orders.orders) samples.statuses[`${mode}_${o.status}`] = (samples.statuses[`${mode}_${o.status}`] ?? 0) + 1;
      // A round trip that ended in a rejection is not the path measured here.
      const completed = samples.statuses[`${mode}_COMPLETED`] ?? 0;
      if (completed < 0.98 * orders.orders.length) throw new Error(`${latency}: ${mode} orders did not complete: ${JSON.stringify(samples.statuses)}`);
    }
    for (const w of Object.values(watches)) w.ws.close();
    return samples;
  } finally {
    await service.stop();
  }
}

export async function run(): Promise<BenchResult> {
  const metrics: BenchResult['metrics'] = {};
  const ratios: BenchResult['ratios'] = {};
  const targets: BenchResult['targets'] = {};
  for (const latency of ['venue', 'off'] as const) {
    const samples = await measure(latency);
    const stat = (mode: Mode, p: number) => Number(percentile(samples[mode].slice().sort((a, b) => a - b), p).toFixed(2));
    for (const mode of ['live', 'sandbox'] as const) {
      metrics[`${latency}_latency_${mode}_p50_ms`] = stat(mode, 50);
      metrics[`${latency}_latency_${mode}_p99_ms`] = stat(mode, 99);
    }
    for (const [k, v] of Object.entries(samples.statuses)) metrics[`${latency}_latency_${k}`] = v;
    for (const p of [50, 99]) {
      const ratio = Number((stat('sandbox', p) / stat('live', p)).toFixed(3));
      ratios[`${latency}_latency_sandbox_over_live_p${p}`] = ratio;
      targets[`${latency}_latency_sandbox_over_live_p${p}`] = target(ratio, 1.2, '<=');
    }
  }
  return {
    name: 'roundtrip',
    description: `0.001 BTC-USDT market orders on binance/okx/bybit, one at a time, live and sandbox keys of one client alternating in pairs (${ORDERS} measured each after ${WARMUP} warm-up): POST /v1/orders to the terminal frame on the key's orders channel; one service (WORKERS=2) with SIM_ORDER_LATENCY=venue (simulated venues execute after their one-way latency, sandbox and live alike), then another with off (on receipt)`,
    metrics,
    ratios,
    targets,
  };
}

await runIfMain(import.meta.url, run);
