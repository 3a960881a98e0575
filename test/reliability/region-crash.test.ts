/**
 * A home node killed during a burst of cross-region orders (docs/regions.md, failure), over a
 * three-server NATS cluster one of whose servers is SIGKILLed first (nothing visible changes:
 * the clients fail over, the streams keep two of three replicas): `na` runs kraken, `eu` runs
 * bitstamp (and the rest); orders on `na` buy on bitstamp through `eu` and on kraken at home.
 * `na` is SIGKILLed mid-burst. While it is down its orders stay readable
 * from `eu` (the regions' stream), with `na` marked incomplete. Restarted, `na` holds every order
 * it acknowledged, all terminal, each order's filled quantity equal to its fills, every fill
 * once, the BTC bought on each venue equal to its fills and nothing reserved (the execution
 * issue's recovery invariant); and `eu`'s view catches up to exactly `na`'s orders.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createClientIn, sendTo, startProcess, type Running } from '../helpers/process.ts';
import { skipWithoutNats, startNats, type NatsCluster } from '../helpers/nats.ts';
import { TEST_OPERATOR_KEY, until, venueCredentials } from '../helpers/service.ts';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { LIFECYCLE_STREAM, ORDERS_STREAM } from '../../actors/region-link/subjects.ts';
import { allFills, allOrders, assertOrdersMatchFills, exitOf, positions, qtyOf, type Order } from '../helpers/recovery.ts';

const CREDENTIALS_KEY = 'cd'.repeat(32);

describe('regions: a home node killed during a burst of cross-region orders', { timeout: 240_000, skip: skipWithoutNats }, () => {
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  let nats: NatsCluster;
  let na: Running;
  let eu: Running;
  let token: string;
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), 'seq-region-crash-'));
    dirs.push(d);
    return d;
  };
  const naDir = dir();
  const startNa = () => startProcess(naDir, children, { NATS_URL: nats.urls.join(','), REGION: 'na', LOCAL_VENUES: 'kraken,kalshi', SIM_ACCOUNT_USD: '5000000', CREDENTIALS_KEY });
  const send = <T,>(node: Running, method: string, path: string, body?: unknown) => sendTo<T>(node, token, method, path, body);

  before(async () => {
    nats = await startNats(3);
    token = createClientIn(naDir, 'burst', { CREDENTIALS_KEY }).live;
    [na, eu] = await Promise.all([startNa(), startProcess(dir(), children, { NATS_URL: nats.urls.join(','), REGION: 'eu', LOCAL_VENUES: 'coinbase,bitstamp,binance,okx,bybit,kucoin,hyperliquid,polymarket', CREDENTIALS_KEY, LOG_LEVEL: 'warn' })]);
    for (const venue of ['kraken', 'bitstamp']) assert.equal((await send(na, 'POST', `/v1/credentials/${venue}`, venueCredentials(venue))).status, 200);
    await until('bitstamp quoted on na from eu', async () => {
      const q = await fetch(`${na.base}/v1/quotes/BTC-USD`, { headers: { authorization: `Bearer ${TEST_OPERATOR_KEY}` } }).then((r) => r.json() as Promise<{ venues: Record<string, unknown> }>);
      return q.venues['bitstamp'] !== undefined && q.venues['kraken'] !== undefined ? true : undefined;
    }, 30_000, 250);
  });
  after(async () => {
    for (const c of children) c.kill('SIGKILL');
    await nats?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('loses nothing acknowledged, and every region converges on the home’s orders', async () => {
    // Both nodes have joined: their streams exist (three replicas: created while all three servers
    // are up) and each reads them (an ordered consumer per node and stream).
    const nc = await connect({ servers: nats.urls.slice(1), reconnectTimeWait: 100 });
    try {
      const jsm = await jetstreamManager(nc);
      const streamsRead = () =>
        until('both nodes reading the regions’ streams', async () => {
          const counts = await Promise.all([ORDERS_STREAM.name, LIFECYCLE_STREAM.name].map(async (s) => (await jsm.streams.info(s)).state.consumer_count)).catch(() => [0]);
          return counts.every((n) => n >= 2) ? true : undefined;
        }, 60_000, 250);
      await streamsRead();
      // A NATS server dies first: the nodes' connections to it fail over to the other two. If it
      // led a stream, the other two elect another within seconds (writes meanwhile are kept and
      // written again); the burst starts once the streams answer again.
      await nats.servers[0]!.kill();
      await streamsRead();
    } finally {
      await nc.close();
    }
    await until('bitstamp still quoted on na after a NATS server died', async () => {
      const q = await fetch(`${na.base}/v1/quotes/BTC-USD`, { headers: { authorization: `Bearer ${TEST_OPERATOR_KEY}` } }).then((r) => r.json() as Promise<{ venues: Record<string, { age_ms: number }> }>);
      return q.venues['bitstamp'] !== undefined && q.venues['bitstamp'].age_ms < 1_000 ? true : undefined;
    }, 30_000, 250);
    // The burst: 6 in flight, most forced onto bitstamp (a leg to eu), some routed freely.
    const acknowledged = new Set<string>();
    let sent = 0;
    let stop = false;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const n = sent++;
        const body = { symbol: 'BTC-USD', side: 'buy', qty_1e8: 1_000_000, order_type: 'market', client_order_id: `burst-${w}-${i}`, ...(n % 4 === 3 ? {} : { venue: 'bitstamp' }) };
        try {
          const res = await send<{ node_order_id: string }>(na, 'POST', '/v1/orders', body);
          if (res.status === 201) acknowledged.add(res.body.node_order_id);
        } catch {
          return; // the node died under this request
        }
      }
    };
    const burst = Promise.all([0, 1, 2, 3, 4, 5].map(worker));
    // Killed once some orders are in, legs sent to eu among them (a remote edge can be down for a
    // moment after the NATS server's death: the orders meanwhile are rejected, and the burst goes on).
    const crossed = async () => {
      const res = await send<{ orders: Order[] }>(na, 'GET', '/v1/orders?limit=100');
      return res.status === 200 && res.body.orders.some((o) => (o.children as { venue?: string }[]).some((c) => c.venue === 'bitstamp'));
    };
    await until('some orders acknowledged, legs to eu among them', async () => (acknowledged.size >= 25 && (await crossed()) ? true : undefined), 60_000, 50);
    na.child.kill('SIGKILL');
    stop = true;
    await burst;
    await exitOf(na.child, 5_000);

    // While na is down its orders are read from the stream on eu, na marked unreachable.
    let seen = '';
    const whileDown = await until('na’s orders readable on eu, na marked incomplete', async () => {
      const res = await send<{ orders: Order[]; sources: { source: string; region?: string; complete: boolean }[] }>(eu, 'GET', '/v1/orders?region=na&limit=1000');
      seen = `${res.status} ${JSON.stringify(res.body.sources)} ${res.body.orders?.length} orders`;
      return res.status === 200 && res.body.sources.some((s) => s.region === 'na' && !s.complete) && res.body.orders.length > 0 ? res.body : undefined;
    }, 30_000, 200).catch((err: Error) => {
      throw new Error(`${err.message}; eu answered ${seen}; ${acknowledged.size} acknowledged on na; eu's log:\n${eu.output().slice(-4_000)}`);
    });
    assert.ok(whileDown.orders.every((o) => o['home_region' as keyof Order] === 'na'));
    // A cancel of one of them from eu needs na, which is down: refused with the reason, never guessed.
    const refused = await send<{ error: { code: string; message: string } }>(eu, 'DELETE', `/v1/orders/${whileDown.orders[0]!.node_order_id}`);
    assert.equal(refused.status, 503, JSON.stringify(refused.body));
    assert.equal(refused.body.error.code, 'REGION_UNREACHABLE');

    na = await startNa();
    const orders = await until('na’s working orders reconciled after the restart', async () => {
      const all = await allOrders(na.base, token);
      return all.every((o) => ['COMPLETED', 'CANCELLED', 'REJECTED', 'UNRESOLVED'].includes(o.status)) ? all : undefined;
    }, 60_000, 250);
    const fills = await allFills(na.base, token);
    const ids = new Set(orders.map((o) => o.node_order_id));
    for (const id of acknowledged) assert.ok(ids.has(id), `acknowledged ${id} is on na after the restart`);
    assertOrdersMatchFills(orders, fills, 'na after the restart');
    // The burst did cross regions (its legs filled, or, sent when the kill came, were reconciled).
    const outcomes = [...new Set(orders.map((o) => `${o.status}:${String(o['failure_reason' as keyof Order] ?? '')}`))].join('; ');
    assert.ok(orders.some((o) => (o.children as { venue?: string }[]).some((c) => c.venue === 'bitstamp')), `legs went to eu: ${orders.length} orders, ${outcomes}`);
    const rows = await positions(na.base, token);
    for (const venue of new Set(fills.map((f) => f.venue))) {
      const bought = fills.filter((f) => f.venue === venue).reduce((s, f) => s + BigInt(f.qty_1e8), 0n);
      // A simulated venue account opens with 1 BTC (execution/ledgers.ts): held = that + what the fills bought.
      assert.equal(qtyOf(rows, venue, 'BTC'), 100_000_000n + bought, `${venue}: BTC held = the opening 1 BTC + its fills`);
    }
    for (const row of rows) assert.equal(row.locked_qty_1e8, 0, `nothing stays reserved: ${JSON.stringify(row)}`);

    // eu converges on exactly na's orders: the same ids, statuses and filled quantities.
    const fingerprint = (list: Order[]) => list.map((o) => `${o.node_order_id}:${o.status}:${o.filled_qty_1e8}`).sort();
    await until('eu’s view equal to na’s orders', async () => {
      const res = await send<{ orders: Order[]; sources: { region?: string; complete: boolean }[] }>(eu, 'GET', '/v1/orders?region=na&limit=1000');
      const complete = res.body.sources.some((s) => s.region === 'na' && s.complete);
      return complete && JSON.stringify(fingerprint(res.body.orders)) === JSON.stringify(fingerprint(orders)) ? true : undefined;
    }, 60_000, 250);
  });
});
