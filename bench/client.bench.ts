/**
 * What the typed client (client/, issue 17) adds to a request, against raw `fetch` in the same
 * run: a sandbox market order submitted to the real service in its own process, and a quote
 * read. Each pair is the same HTTP request (the raw order carries an Idempotency-Key too, as the
 * client's does); the client's path adds openapi-fetch's request building, its
 * middleware, the retrying transport, the exact-JSON response. Mean µs per request and the
 * bench process's CPU µs per request (the client's own cost, which the service's time does not
 * cloud), in three interleaved rounds (bench/lib/rounds.ts), the median round reported.
 */
import { randomUUID } from 'node:crypto';
import { createClient, ok } from '../client/src/index.ts';
import { startServiceProcess } from './lib/processes.ts';
import { runIfMain, type BenchResult } from './lib/results.ts';
import { measureRounds, median, medianOfRounds } from './lib/rounds.ts';

const ROUNDS = 3;
const TIME_MS = 1_500;
const WARMUP_MS = 300;
const QTY = 100_000;

export async function run(): Promise<BenchResult> {
  const service = await startServiceProcess({ ALGO_WORKERS: '0' });
  try {
    const base = `http://127.0.0.1:${service.port}`;
    const headers = { authorization: `Bearer ${service.sandboxKey}`, 'content-type': 'application/json' };
    await fetch(`${base}/v1/sandbox/reset`, { method: 'POST', headers });
    const client = createClient({ baseUrl: base, apiKey: service.sandboxKey });
    ok(await client.GET('/v1/quotes/{symbol}', { params: { path: { symbol: 'BTC-USDT' } } }));
    let n = 0;
    const order = () => ({ client_order_id: `cb-${process.pid}-${n++}`, symbol: 'BTC-USDT', side: 'buy' as const, order_type: 'market' as const, qty_1e8: QTY });
    const tasks: [string, () => Promise<unknown>][] = [
      [
        'order, raw fetch',
        async () => {
          // The same request the client sends: its Idempotency-Key makes the service record the key
          // with the order, which the raw path would otherwise skip and look faster for.
          const res = await fetch(`${base}/v1/orders`, { method: 'POST', headers: { ...headers, 'idempotency-key': randomUUID() }, body: JSON.stringify(order()) });
          if (res.status !== 201) throw new Error(`order: ${res.status}`);
          return res.json();
        },
      ],
      ['order, client', async () => ok(await client.POST('/v1/orders', { body: order() }))],
      [
        'quote, raw fetch',
        async () => {
          const res = await fetch(`${base}/v1/quotes/BTC-USDT`, { headers });
          if (res.status !== 200) throw new Error(`quote: ${res.status}`);
          return res.json();
        },
      ],
      ['quote, client', async () => ok(await client.GET('/v1/quotes/{symbol}', { params: { path: { symbol: 'BTC-USDT' } } }))],
    ];
    const t = await measureRounds(tasks, { rounds: ROUNDS, timeMs: TIME_MS, warmupMs: WARMUP_MS });
    const get = (name: string) => t.get(name)!;
    const [rawOrder, clientOrder, rawQuote, clientQuote] = ['order, raw fetch', 'order, client', 'quote, raw fetch', 'quote, client'].map(get) as [ReturnType<typeof get>, ReturnType<typeof get>, ReturnType<typeof get>, ReturnType<typeof get>];
    const us = (ms: number[]) => Math.round(median(ms) * 1000 * 10) / 10;
    const added = (a: number[], b: number[]) => Math.round(medianOfRounds(b, a, (x, y) => (x - y) * 1000) * 10) / 10;
    const addedCpu = (a: number[], b: number[]) => Math.round(medianOfRounds(b, a, (x, y) => x - y) * 10) / 10;
    const ratio = (a: number[], b: number[]) => Math.round(medianOfRounds(b, a, (x, y) => x / y) * 100) / 100;
    return {
      name: 'client',
      description: 'the typed client (openapi-fetch, middleware, retrying transport, exact JSON) against raw fetch, the same sandbox market order and quote read against the real service in its own process; mean µs per request and bench-process CPU µs per request, median of 3 interleaved rounds',
      metrics: {
        rounds: ROUNDS,
        order_raw_us: us(rawOrder.wallMs),
        order_client_us: us(clientOrder.wallMs),
        order_client_added_us: added(rawOrder.wallMs, clientOrder.wallMs),
        order_client_added_cpu_us: addedCpu(rawOrder.cpuUs, clientOrder.cpuUs),
        quote_raw_us: us(rawQuote.wallMs),
        quote_client_us: us(clientQuote.wallMs),
        quote_client_added_us: added(rawQuote.wallMs, clientQuote.wallMs),
        quote_client_added_cpu_us: addedCpu(rawQuote.cpuUs, clientQuote.cpuUs),
      },
      ratios: {
        order_client_over_raw: ratio(rawOrder.wallMs, clientOrder.wallMs),
        order_client_over_raw_cpu: ratio(rawOrder.cpuUs, clientOrder.cpuUs),
        quote_client_over_raw: ratio(rawQuote.wallMs, clientQuote.wallMs),
        quote_client_over_raw_cpu: ratio(rawQuote.cpuUs, clientQuote.cpuUs),
      },
      targets: {},
    };
  } finally {
    await service.stop();
  }
}

await runIfMain(import.meta.url, run);
