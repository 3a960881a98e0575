/**
 * Regions over NATS (docs/regions.md), each figure against its baseline in the same run, on
 * loopback through a real nats-server:
 *
 * 1. Cross-region child latency: two nodes (`na` runs kraken, `eu` bitstamp and the rest), the
 *    simulated venues executing on receipt (SIM_ORDER_LATENCY=off) so only the engine and the
 *    hop count. Market orders on `na` forced onto kraken (local) and bitstamp (remote),
 *    alternated, one at a time; submit to the terminal frame on the orders WebSocket. p50/p99
 *    of each and what the remote adds.
 * 2. Book updates across regions: level updates per second a node takes in from a remote edge
 *    (the owner's `PublishedBook` diff, msgpack, NATS publish, subscribe, `RemoteBookSync`, the
 *    L2 book, then the consolidated book) against a single node's consolidation of the same
 *    levels (`ConsolidatedBook.applyLevel` alone), one process.
 * 3. Orders/s of three nodes (each its own venues, loaded at once) against one node (every
 *    venue) under the same closed-loop load per node: on this 2-core machine three nodes share
 *    the cores one node has, so this says what the split costs, not what three machines give.
 */
import { pack, unpack } from 'msgpackr';
import { connect } from '@nats-io/transport-node';
import { WebSocket } from 'ws';
import { ConsolidatedBook } from '../actors/book/consolidated-book.ts';
import { L2Book } from '../actors/edge/live/l2-book.ts';
import { Side } from '../domain/market.ts';
import { PublishedBook, RemoteBookSync, type RemoteBookMessage } from '../actors/region-link/remote-books.ts';
import { startNats, type NatsCluster } from '../test/helpers/nats.ts';
import { startServiceProcess, type ServiceProcess } from './lib/processes.ts';
import { percentile, runIfMain, type BenchResult } from './lib/results.ts';

const CREDENTIALS_KEY = 'ef'.repeat(32);
const ORDERS_EACH = 150;
const LOAD_MS = 8_000;
const IN_FLIGHT = 32;
const KRAKEN = { api_key: 'key-kraken-0123456789', api_secret: 'secret-kraken-0123456789abcdef' };
const credentialsOf = (venue: string) => ({ api_key: `key-${venue}-0123456789`, api_secret: `secret-${venue}-0123456789abcdef`, ...(venue === 'okx' || venue === 'kucoin' ? { passphrase: 'pass' } : {}) });

async function node(nats: NatsCluster | undefined, region: string | undefined, venues: string | undefined): Promise<ServiceProcess> {
  return startServiceProcess({
    ALGO_WORKERS: '0',
    SIM_ORDER_LATENCY: 'off',
    SIM_ACCOUNT_USD: '100000000',
    CREDENTIALS_KEY,
    ...(nats !== undefined && region !== undefined ? { NATS_URL: nats.urls.join(','), REGION: region, LOCAL_VENUES: venues! } : {}),
  });
}

async function post(base: string, key: string, path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function waitFor(what: string, probe: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await probe().catch(() => false))) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** 1: submit -> terminal frame on the orders socket, local venue against remote, alternated. */
async function childLatency(nats: NatsCluster): Promise<{ local: number[]; remote: number[] }> {
  const eu = await node(nats, 'eu', 'coinbase,bitstamp,binance,okx,bybit,kucoin,hyperliquid,polymarket');
  const na = await node(nats, 'na', 'kraken,kalshi');
  try {
    const base = `http://127.0.0.1:${na.port}`;
    for (const venue of ['kraken', 'bitstamp']) {
      const res = await post(base, na.apiKey, `/v1/credentials/${venue}`, venue === 'kraken' ? KRAKEN : credentialsOf(venue));
      if (res.status !== 200) throw new Error(`credentials ${venue}: ${res.status}`);
    }
    await waitFor('bitstamp quoted on na', async () => {
      const q = (await (await fetch(`${base}/v1/quotes/BTC-USD`, { headers: { authorization: `Bearer ${na.apiKey}` } })).json()) as { venues: Record<string, unknown> };
      return q.venues['bitstamp'] !== undefined && q.venues['kraken'] !== undefined;
    });
    const ticket = (await (await fetch(`${base}/v1/ws/ticket`, { headers: { authorization: `Bearer ${na.apiKey}` } })).json()) as { ticket: string };
    const ws = new WebSocket(`ws://127.0.0.1:${na.port}/v1/stream?ticket=${ticket.ticket}`);
    await new Promise((r) => ws.once('open', r));
    const done = new Map<string, () => void>();
    ws.on('message', (data) => {
      const f = JSON.parse(String(data)) as { channel?: string; data?: { client_order_id?: string; status?: string } };
      const status = f.data?.status;
      if (f.channel === 'orders' && (status === 'COMPLETED' || status === 'CANCELLED' || status === 'REJECTED')) done.get(f.data!.client_order_id!)?.();
    });
    ws.send(JSON.stringify({ subscribe: ['orders'] }));
    await new Promise((r) => setTimeout(r, 300));
    const local: number[] = [];
    const remote: number[] = [];
    for (let i = 0; i < ORDERS_EACH * 2 + 20; i++) {
      const venue = i % 2 === 0 ? 'kraken' : 'bitstamp';
      const id = `lat-${i}`;
      const ended = new Promise<void>((resolve) => done.set(id, resolve));
      const t0 = performance.now();
      const res = await post(base, na.apiKey, '/v1/orders', { client_order_id: id, symbol: 'BTC-USD', side: i % 4 < 2 ? 'buy' : 'sell', qty_1e8: 100_000, order_type: 'market', venue });
      if (res.status !== 201) throw new Error(`order ${id}: ${res.status} ${JSON.stringify(res.body)}`);
      await ended;
      const ms = performance.now() - t0;
      if (i >= 20) (venue === 'kraken' ? local : remote).push(ms); // the first 20 warm up
    }
    ws.close();
    return { local, remote };
  } finally {
    await na.stop();
    await eu.stop();
  }
}

/** A seeded random walk of one venue's 50-level book: each step moves a few levels. */
function* bookSteps(n: number): Generator<{ bids: { px: Float64Array; qty: Float64Array; count: number }; asks: { px: Float64Array; qty: Float64Array; count: number } }> {
  let seed = 42;
  const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const mid = 100_000_000_000_000;
  const tick = 10_000_000;
  const bids = { px: new Float64Array(50), qty: new Float64Array(50), count: 50 };
  const asks = { px: new Float64Array(50), qty: new Float64Array(50), count: 50 };
  for (let i = 0; i < 50; i++) {
    bids.px[i] = mid - (i + 1) * tick;
    asks.px[i] = mid + (i + 1) * tick;
    bids.qty[i] = asks.qty[i] = 1_000_000 + Math.floor(rand() * 1e7);
  }
  for (let s = 0; s < n; s++) {
    for (let k = 0; k < 3; k++) {
      const side = rand() < 0.5 ? bids : asks;
      side.qty[Math.floor(rand() * rand() * 50)] = 1_000_000 + Math.floor(rand() * 1e7);
    }
    yield { bids, asks };
  }
}

/** 2: level updates per second, across regions and within one node. */
async function bookThroughput(nats: NatsCluster): Promise<{ remoteLevelsPerS: number; localLevelsPerS: number; messages: number }> {
  const STEPS = 60_000;
  const deltas: number[][] = [];
  const publisher = new PublishedBook(50);
  for (const step of bookSteps(STEPS)) deltas.push(publisher.update(step.bids, step.asks, 1)?.levels ?? []);
  const levels = deltas.reduce((s, d) => s + d.length / 3, 0);

  // A single node's consolidation: the same levels applied straight to the consolidated book.
  const local = new ConsolidatedBook(['kraken', 'coinbase'], 1000);
  let t0 = performance.now();
  for (const d of deltas) for (let i = 0; i < d.length; i += 3) local.applyLevel(0, d[i] === 0 ? Side.BID : Side.ASK, d[i + 1]!, d[i + 2]!, 1);
  const localMs = performance.now() - t0;

  // Across regions: diffed and numbered at the owner, over NATS, kept exact, then consolidated.
  const [pub, sub] = await Promise.all([connect({ servers: nats.urls }), connect({ servers: nats.urls })]);
  const sync = new RemoteBookSync();
  sync.onMessage({ k: 'snapshot', venue: 'kraken', symbol: 'BTC-USD', seq: 0, ts_ns: 0, bids: [], asks: [] });
  const mirror = new L2Book();
  const book = new ConsolidatedBook(['kraken', 'coinbase'], 1000);
  let received = 0;
  const all = new Promise<void>((resolve) => {
    sub.subscribe('bench.book.kraken.BTC-USD', {
      callback: (_err, msg) => {
        const step = sync.onMessage(unpack(msg.data) as RemoteBookMessage);
        for (const m of step.apply) {
          if (m.k !== 'delta') continue;
          for (let i = 0; i < m.levels.length; i += 3) {
            const side = m.levels[i] === 0 ? Side.BID : Side.ASK;
            mirror.set(side, m.levels[i + 1]!, m.levels[i + 2]!);
            book.applyLevel(0, side, m.levels[i + 1]!, m.levels[i + 2]!, 1);
          }
        }
        if (++received === STEPS) resolve();
      },
    });
  });
  await sub.flush();
  t0 = performance.now();
  let seq = 0;
  for (const d of deltas) {
    pub.publish('bench.book.kraken.BTC-USD', pack({ k: 'delta', venue: 'kraken', symbol: 'BTC-USD', seq: ++seq, ts_ns: 1, levels: d } satisfies RemoteBookMessage));
    // Yield now and then: a publisher that never does starves the subscriber on the same thread.
    if (seq % 500 === 0) await new Promise((r) => setImmediate(r));
  }
  await pub.flush();
  await all;
  const remoteMs = performance.now() - t0;
  if (!sync.whole) throw new Error('the remote book was not kept whole');
  await Promise.all([pub.close(), sub.close()]);
  return { remoteLevelsPerS: Math.round(levels / (remoteMs / 1000)), localLevelsPerS: Math.round(levels / (localMs / 1000)), messages: STEPS };
}

/** Closed-loop market orders onto `venue` for LOAD_MS, IN_FLIGHT at a time: acknowledged orders. */
async function load(svc: ServiceProcess, symbol: string, venue: string, tag: string): Promise<number> {
  const base = `http://127.0.0.1:${svc.port}`;
  let acked = 0;
  let n = 0;
  const end = Date.now() + LOAD_MS;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (Date.now() < end) {
        const res = await post(base, svc.apiKey, '/v1/orders', { client_order_id: `${tag}-${n++}`, symbol, side: n % 2 === 0 ? 'buy' : 'sell', qty_1e8: 100_000, order_type: 'market', venue });
        if (res.status === 201) acked++;
      }
    }),
  );
  return acked / (LOAD_MS / 1000);
}

async function ready(svc: ServiceProcess, venues: string[], symbol: string): Promise<void> {
  const base = `http://127.0.0.1:${svc.port}`;
  for (const venue of venues) {
    const res = await post(base, svc.apiKey, `/v1/credentials/${venue}`, credentialsOf(venue));
    if (res.status !== 200) throw new Error(`credentials ${venue}: ${res.status}`);
  }
  await waitFor(`${symbol} quoted`, async () => {
    const q = (await (await fetch(`${base}/v1/quotes/${symbol}`, { headers: { authorization: `Bearer ${svc.apiKey}` } })).json()) as { venues: Record<string, unknown> };
    return venues.every((v) => q.venues[v] !== undefined);
  });
}

/** 3: one node with every venue, then three nodes each with its own, the same load per node. */
async function ordersPerSecond(): Promise<{ one: number; three: number; perNode: number[] }> {
  const plan = [
    { region: 'na', venues: 'kraken,kalshi', venue: 'kraken', symbol: 'BTC-USD' },
    { region: 'eu', venues: 'bitstamp,coinbase,polymarket', venue: 'bitstamp', symbol: 'BTC-USD' },
    { region: 'ap', venues: 'binance,okx,bybit,kucoin,hyperliquid', venue: 'binance', symbol: 'BTC-USDT' },
  ];
  const single = await node(undefined, undefined, undefined);
  let one: number;
  try {
    await ready(single, ['kraken'], 'BTC-USD');
    one = await load(single, 'BTC-USD', 'kraken', 'one');
  } finally {
    await single.stop();
  }
  const nats = await startNats(3);
  const nodes: ServiceProcess[] = [];
  try {
    for (const p of plan) nodes.push(await node(nats, p.region, p.venues));
    await Promise.all(plan.map((p, i) => ready(nodes[i]!, [p.venue], p.symbol)));
    const perNode = await Promise.all(plan.map((p, i) => load(nodes[i]!, p.symbol, p.venue, p.region)));
    return { one, three: perNode.reduce((s, x) => s + x, 0), perNode };
  } finally {
    for (const n of nodes) await n.stop();
    await nats.stop();
  }
}

export async function run(): Promise<BenchResult> {
  const nats = await startNats(1);
  let latency: { local: number[]; remote: number[] };
  let books: Awaited<ReturnType<typeof bookThroughput>>;
  try {
    latency = await childLatency(nats);
    books = await bookThroughput(nats);
  } finally {
    await nats.stop();
  }
  const orders = await ordersPerSecond();
  const sorted = (a: number[]) => Float64Array.from(a).sort();
  const [lo, re] = [sorted(latency.local), sorted(latency.remote)];
  const r1 = (x: number) => Math.round(x * 10) / 10;
  const r2 = (x: number) => Math.round(x * 100) / 100;
  return {
    name: 'regions',
    description:
      'Regions over NATS on loopback (real nats-server). Child latency: market orders on na forced onto kraken (local) and bitstamp (eu), alternated, submit to terminal WebSocket frame, venues executing on receipt. ' +
      'Book updates: level updates/s through PublishedBook -> msgpack -> NATS -> RemoteBookSync -> L2 book -> ConsolidatedBook, against ConsolidatedBook.applyLevel of the same levels in the same process. ' +
      `Orders/s: ${IN_FLIGHT} in flight per node for ${LOAD_MS / 1000} s, one node (every venue) against three nodes (each its own venues) loaded at once on this 2-core machine.`,
    metrics: {
      local_child_p50_ms: r1(percentile(lo, 50)),
      local_child_p99_ms: r1(percentile(lo, 99)),
      remote_child_p50_ms: r1(percentile(re, 50)),
      remote_child_p99_ms: r1(percentile(re, 99)),
      added_p50_ms: r1(percentile(re, 50) - percentile(lo, 50)),
      added_p99_ms: r1(percentile(re, 99) - percentile(lo, 99)),
      orders_each: lo.length,
      remote_levels_per_s: books.remoteLevelsPerS,
      local_levels_per_s: books.localLevelsPerS,
      book_messages: books.messages,
      one_node_orders_per_s: Math.round(orders.one),
      three_nodes_orders_per_s: Math.round(orders.three),
      three_nodes_per_node: orders.perNode.map((x) => Math.round(x)).join(' / '),
    },
    ratios: {
      remote_over_local_child_p50: r2(percentile(re, 50) / percentile(lo, 50)),
      remote_over_local_child_p99: r2(percentile(re, 99) / percentile(lo, 99)),
      remote_over_local_levels_per_s: r2(books.remoteLevelsPerS / books.localLevelsPerS),
      three_nodes_over_one: r2(orders.three / orders.one),
    },
    targets: {},
  };
}

await runIfMain(import.meta.url, run);
