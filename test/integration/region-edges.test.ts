/**
 * Remote edges across regions (docs/regions.md), with two real service processes joined over a
 * real `nats-server` on loopback: `na` runs coinbase's edge, `eu` runs kraken's and bitstamp's
 * (and the others). On `na`, `/v1/edges` lists eu's edges as `remote: true` in region `eu` with
 * their age, `/v1/health/edges` says so too, and the BTC-USD quote consolidates coinbase (local)
 * with kraken and bitstamp (remote) at their real tops; a symbol no local venue lists is quoted
 * from remote books alone. When `eu` is SIGKILLed, its edges turn `connected: false` on `na`
 * within seconds and leave the quote; when it comes back (a new run, numbering its deltas from
 * 1 again) they resync and return.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createClientIn, startProcess, type Running } from '../helpers/process.ts';
import { StreamClient } from '../helpers/stream-client.ts';
import { TERMINAL, type ApiFill, type ApiOrder } from '../helpers/orders.ts';
import { generateKeyPairSync } from 'node:crypto';
import { skipWithoutNats, startNats, type NatsCluster } from '../helpers/nats.ts';
import { TEST_OPERATOR_KEY, until, venueCredentials } from '../helpers/service.ts';

interface Edge {
  edge_id: string;
  venue: string;
  connected: boolean;
  region: string;
  remote?: boolean;
  age_ms?: number;
  symbol_count: number;
}
interface VenueQuote {
  bid: number;
  ask: number;
}
interface Quote {
  nbbo: { bid: number; ask: number };
  venues: Record<string, VenueQuote>;
}

const get = async <T,>(node: Running, path: string): Promise<T> => {
  const res = await fetch(`${node.base}${path}`, { headers: { authorization: `Bearer ${TEST_OPERATOR_KEY}` }, signal: AbortSignal.timeout(5_000) });
  assert.equal(res.status, 200, `${path}: ${res.status}`);
  return (await res.json()) as T;
};

const EU_VENUES = 'kraken,bitstamp,binance,okx,bybit,kucoin,hyperliquid,polymarket';

describe('regions: remote edges over NATS', { timeout: 180_000, skip: skipWithoutNats }, () => {
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  let nats: NatsCluster;
  let na: Running;
  let eu: Running;
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), 'seq-region-'));
    dirs.push(d);
    return d;
  };
  const euDir = dir();
  const startEu = () => startProcess(euDir, children, { NATS_URL: nats.urls.join(','), REGION: 'eu', LOCAL_VENUES: EU_VENUES });

  let token: string;
  const naDir = dir();

  before(async () => {
    nats = await startNats(1);
    token = createClientIn(naDir, 'trader').live;
    [na, eu] = await Promise.all([startProcess(naDir, children, { NATS_URL: nats.urls.join(','), REGION: 'na', LOCAL_VENUES: 'coinbase,kalshi' }), startEu()]);
  });
  const send = async <T,>(node: Running, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const res = await fetch(`${node.base}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }), signal: AbortSignal.timeout(10_000) });
    return { status: res.status, body: (await res.json()) as T };
  };
  after(async () => {
    for (const c of children) c.kill('SIGKILL');
    await nats?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('lists the other region’s edges as remote, in their region, with their age', async () => {
    const edges = await until('kraken connected on na as a remote edge', async () => {
      const list = await get<Edge[]>(na, '/v1/edges');
      return list.find((e) => e.edge_id === 'venue-edge-kraken')?.connected ? list : undefined;
    }, 30_000, 250);
    const byId = new Map(edges.map((e) => [e.edge_id, e]));
    const kraken = byId.get('venue-edge-kraken')!;
    assert.equal(kraken.remote, true);
    assert.equal(kraken.region, 'eu');
    assert.ok(kraken.symbol_count > 0);
    assert.ok(typeof kraken.age_ms === 'number' && kraken.age_ms >= 0 && kraken.age_ms < 5_000, `age ${kraken.age_ms}`);
    const coinbase = byId.get('venue-edge-coinbase')!;
    assert.equal(coinbase.remote, undefined, 'a local edge has no remote flag');
    assert.equal(coinbase.region, 'na', 'a local edge is in this node’s region');
    assert.equal(coinbase.connected, true);
    // eu sees coinbase the other way round.
    const fromEu = await until('coinbase remote on eu', async () => (await get<Edge[]>(eu, '/v1/edges')).find((e) => e.edge_id === 'venue-edge-coinbase' && e.connected), 30_000, 250);
    assert.equal(fromEu.remote, true);
    assert.equal(fromEu.region, 'na');
    const health = await get<{ edges: { edge_id: string; remote: boolean; region: string }[] }>(na, '/v1/health/edges');
    assert.deepEqual(health.edges.find((e) => e.edge_id === 'venue-edge-kraken'), { edge_id: 'venue-edge-kraken', venue: 'kraken', connected: true, remote: true, region: 'eu' });
  });

  it('consolidates local and remote books into one quote, at the remote venue’s real top', async () => {
    const quote = await until('BTC-USD on na with coinbase, kraken and bitstamp', async () => {
      const q = await get<Quote>(na, '/v1/quotes/BTC-USD');
      return q.venues['coinbase'] && q.venues['kraken'] && q.venues['bitstamp'] ? q : undefined;
    }, 30_000, 250);
    const tops = [quote.venues['coinbase']!, quote.venues['kraken']!, quote.venues['bitstamp']!];
    assert.equal(quote.nbbo.bid, Math.max(...tops.map((t) => t.bid)), 'the best bid over local and remote venues');
    assert.equal(quote.nbbo.ask, Math.min(...tops.map((t) => t.ask)));
    // The same kraken top on both nodes: sampled together until a pair matches (the book moves every 10 ms).
    await until('kraken’s top on na equal to eu’s own', async () => {
      const [here, there] = await Promise.all([get<Quote>(na, '/v1/quotes/BTC-USD'), get<Quote>(eu, '/v1/quotes/BTC-USD')]);
      const a = here.venues['kraken'];
      const b = there.venues['kraken'];
      return a && b && a.bid === b.bid && a.ask === b.ask ? true : undefined;
    }, 20_000, 20);
    // No local venue lists BTC-USDT's perpetual: it is quoted from eu's books alone.
    const perp = await until('a perp quoted on na from remote books', async () => {
      const q = await get<Quote>(na, '/v1/quotes/BTC-USDT?instrument_type=perp');
      return Object.keys(q.venues).length >= 2 ? q : undefined;
    }, 30_000, 250);
    assert.ok(perp.nbbo.bid > 0 && perp.nbbo.ask > perp.nbbo.bid);
  });

  it('splits an order on na across a local and a remote venue, journaled at home in order, fills from both regions', async () => {
    const coinbaseKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'sec1', format: 'pem' }) as string;
    for (const [venue, body] of [['coinbase', { api_key: 'organizations/o/apiKeys/k', api_secret: coinbaseKey }], ['kraken', venueCredentials('kraken')], ['bitstamp', venueCredentials('bitstamp')]] as const) {
      const stored = await send(na, 'POST', `/v1/credentials/${venue}`, body);
      assert.equal(stored.status, 200, JSON.stringify(stored.body));
    }
    const ticket = await send<{ ticket: string }>(na, 'GET', '/v1/ws/ticket');
    const stream = await StreamClient.open(`ws://127.0.0.1:${na.port}/v1/stream?ticket=${ticket.body.ticket}`);
    try {
      stream.send({ subscribe: ['orders', 'fills'] });
      await stream.next((f) => f.type === 'subscribed');
      // 3 BTC is deeper than any one venue's top levels: the sweep takes coinbase's and the remote ones'.
      const placed = await send<ApiOrder>(na, 'POST', '/v1/orders', { symbol: 'BTC-USD', side: 'buy', qty_1e8: 300_000_000, order_type: 'market', client_order_id: 'x-region-1' });
      assert.equal(placed.status, 201, JSON.stringify(placed.body));
      const id = placed.body.node_order_id;
      assert.equal(placed.body['home_region'], 'na');
      // The journal's order on the stream: the acceptance, each fill, then the terminal state after every fill.
      const events: string[] = [];
      let filled = 0;
      for (;;) {
        const frame = await stream.next((f) => (f.channel === 'orders' || f.channel === 'fills') && f.data?.['node_order_id'] === id, 15_000);
        if (frame.channel === 'fills') {
          filled += Number(frame.data!['qty_1e8']);
          events.push(`fill:${String(frame.data!['execution_region'])}`);
        } else {
          events.push(String(frame.data!['status']));
          if (TERMINAL.has(String(frame.data!['status']))) break;
        }
      }
      assert.equal(events.at(-1), 'COMPLETED', events.join(' '));
      assert.ok(!events.slice(events.indexOf('COMPLETED') + 1).some((e) => e.startsWith('fill')), 'no fill after the terminal state');
      assert.equal(filled, 300_000_000, 'the fills published add up to the order');
      const order = (await send<ApiOrder & { fills: ApiFill[] }>(na, 'GET', `/v1/orders/${id}`)).body;
      assert.equal(order.status, 'COMPLETED');
      const children = order.children.map((c) => c.venue);
      assert.ok(children.includes('coinbase'), `a local leg: ${children.join(', ')}`);
      assert.ok(children.some((v) => v === 'kraken' || v === 'bitstamp'), `a remote leg: ${children.join(', ')}`);
      const fills = (await send<{ fills: (ApiFill & { execution_region: string; trade_id: string })[] }>(na, 'GET', `/v1/fills?node_order_id=${id}&limit=1000`)).body.fills.filter((f) => f.node_order_id === id);
      for (const f of fills) {
        assert.equal(f.execution_region, f.venue === 'coinbase' ? 'na' : 'eu', `${f.venue} executed where its edge runs`);
        assert.ok(f.trade_id.length > 0);
      }
      assert.deepEqual(new Set(fills.map((f) => f.venue)), new Set(children));
      assert.equal(fills.reduce((s, f) => s + f.qty_1e8, 0), 300_000_000, 'durable fills equal the published ones');
    } finally {
      stream.close();
    }
  });

  it('drops a killed node’s edges within seconds, and takes them back when it returns', async () => {
    eu.child.kill('SIGKILL');
    const killedAt = Date.now();
    await until('kraken disconnected on na', async () => ((await get<Edge[]>(na, '/v1/edges')).find((e) => e.edge_id === 'venue-edge-kraken')?.connected === false ? true : undefined), 10_000, 100);
    assert.ok(Date.now() - killedAt < 6_000, `noticed after ${Date.now() - killedAt} ms`);
    const quote = await until('kraken out of the quote', async () => {
      const q = await get<Quote>(na, '/v1/quotes/BTC-USD');
      return q.venues['kraken'] === undefined && q.venues['bitstamp'] === undefined ? q : undefined;
    }, 10_000, 100);
    assert.ok(quote.venues['coinbase'], 'the local venue still quotes');
    // An order that needs the dead region's venue is rejected with a reason, never left hanging.
    const started = Date.now();
    const stranded = await send<ApiOrder>(na, 'POST', '/v1/orders', { symbol: 'BTC-USD', side: 'buy', qty_1e8: 1_000_000, order_type: 'market', venue: 'kraken', client_order_id: 'x-region-down' });
    const final = stranded.status === 201 ? await until('the stranded order ends', async () => {
      const o = (await send<ApiOrder>(na, 'GET', `/v1/orders/${stranded.body.node_order_id}`)).body;
      return TERMINAL.has(o.status) ? o : undefined;
    }, 10_000, 100) : undefined;
    assert.ok(stranded.status !== 201 || final!.status === 'REJECTED', JSON.stringify(final ?? stranded.body));
    assert.ok(Date.now() - started < 5_000, 'rejected within seconds');
    const reason = JSON.stringify(final?.['failure_reason'] ?? stranded.body);
    assert.match(reason, /kraken|venue|edge/i, reason);
    eu = await startEu();
    await until('kraken back in na’s quote', async () => ((await get<Quote>(na, '/v1/quotes/BTC-USD')).venues['kraken'] ? true : undefined), 30_000, 250);
    // Connected again once every book it streams is whole (each one resynced by a snapshot).
    const kraken = await until('kraken connected again on na', async () => (await get<Edge[]>(na, '/v1/edges')).find((e) => e.edge_id === 'venue-edge-kraken' && e.connected), 30_000, 250);
    assert.equal(kraken.remote, true);
  });
});
