/**
 * The order path as the design card draws it, against the real service (two workers):
 *
 * - two clients whose routers live on different workers trade at the same time and never see
 *   each other's orders, fills, positions or ids;
 * - an order entered by an actor on a worker (the probe, standing in for a strategy
 *   deployment) goes through the same router as `POST /v1/orders`: the kill switch, the
 *   per-order notional cap, the balance reservations, idempotency and the journal (the order
 *   and its fills are read back over HTTP, durable).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { placeActor } from '../../engine/placement.ts';
import { routerKey, type RouterAnswer, type SubmitAnswer } from '../../execution/router/messages.ts';
import { ResultCode } from '../../execution/result-codes.ts';
import type { OrderRequest } from '../../execution/types.ts';
import { TERMINAL, type ApiOrder } from '../helpers/orders.ts';
import { call, startLiveService, TEST_OPERATOR_KEY, type TestService, until, venueCredentials } from '../helpers/service.ts';

const SYMBOL = 'BTC-USDT';
const VENUES = ['binance', 'okx', 'bybit'];
const CAP_USD = 200_000;

interface Position {
  venue: string;
  instrument: { symbol?: string; code?: string };
  qty_1e8: number;
  locked_qty_1e8: number;
}

/** Two client ids whose routers hash to different workers of two (the placement rule). */
function clientsOnTwoWorkers(): [string, string] {
  const first = 'iso-a';
  for (let i = 0; i < 1000; i++) {
    const other = `iso-b${i}`;
    if (placeActor(routerKey('live', other), 2) !== placeActor(routerKey('live', first), 2)) return [first, other];
  }
  throw new Error('no pair of clients on two workers');
}

describe('execution: router actors on the workers (real service)', () => {
  let svc: TestService;
  let base: string;
  const tokens = new Map<string, string>();

  const newClient = async (client: string): Promise<string> => {
    const storage = svc.service.storage;
    await storage.clients.put({ client_id: client, tier: 'enterprise', rate_limit_qps: 2_000, is_admin: false, created_at_ms: Date.now() });
    const token = (await storage.apiKeys.create(client, { label: 'router-test', sandbox: false })).raw_key;
    for (const venue of VENUES) {
      const res = await call(base, 'POST', `/v1/credentials/${venue}`, { token, body: venueCredentials(venue) });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    tokens.set(client, token);
    return token;
  };

  const finalOrder = (token: string, id: string) =>
    until(`order ${id} terminal`, async () => {
      const res = await call<ApiOrder>(base, 'GET', `/v1/orders/${id}`, { token });
      return res.status === 200 && TERMINAL.has(res.body.status) && (res.body as { engine_phase?: string }).engine_phase === 'done' ? res.body : undefined;
    }, 15_000);

  const btc = async (token: string): Promise<bigint> => {
    const res = await call<{ positions: Position[] }>(base, 'GET', '/v1/positions', { token });
    return res.body.positions.filter((p) => (p.instrument.symbol ?? p.instrument.code) === 'BTC').reduce((s, p) => s + BigInt(p.qty_1e8), 0n);
  };

  before(async () => {
    svc = await startLiveService([SYMBOL], { workers: 2, maxOrderNotionalUsd: CAP_USD });
    base = svc.base;
  });
  after(async () => {
    await svc.stop();
  });

  it('two clients on different workers trading at once never see each other\'s state', async () => {
    const [a, b] = clientsOnTwoWorkers();
    const [ta, tb] = await Promise.all([newClient(a), newClient(b)]);
    const [btcA0, btcB0] = await Promise.all([btc(ta), btc(tb)]);
    const N = 12;
    const order = (side: 'buy' | 'sell', i: number) => ({ client_order_id: `iso-${side}-${i}`, symbol: SYMBOL, side, qty_1e8: 1_000_000, order_type: 'market' });
    // Both clients use the same client_order_ids at the same time: idempotency keys are per client.
    const placed = await Promise.all(
      Array.from({ length: N }, (_, i) => [
        call<ApiOrder>(base, 'POST', '/v1/orders', { token: ta, body: order('buy', i) }),
        call<ApiOrder>(base, 'POST', '/v1/orders', { token: tb, body: order('sell', i) }),
      ]).flat(),
    );
    for (const res of placed) assert.equal(res.status, 201, JSON.stringify(res.body));
    const idsA = placed.filter((_, i) => i % 2 === 0).map((r) => r.body.node_order_id);
    const idsB = placed.filter((_, i) => i % 2 === 1).map((r) => r.body.node_order_id);
    const finalsA = await Promise.all(idsA.map((id) => finalOrder(ta, id)));
    const finalsB = await Promise.all(idsB.map((id) => finalOrder(tb, id)));
    assert.ok(finalsA.every((o) => o.side === 'buy' && o.filled_qty_1e8 > 0), 'every buy of a filled');
    assert.ok(finalsB.every((o) => o.side === 'sell' && o.filled_qty_1e8 > 0), 'every sell of b filled');

    // Listings: each client sees exactly its own orders and fills.
    const listA = await call<{ orders: ApiOrder[] }>(base, 'GET', '/v1/orders?limit=100', { token: ta });
    const listB = await call<{ orders: ApiOrder[] }>(base, 'GET', '/v1/orders?limit=100', { token: tb });
    assert.deepEqual(new Set(listA.body.orders.map((o) => o.node_order_id)), new Set(idsA));
    assert.deepEqual(new Set(listB.body.orders.map((o) => o.node_order_id)), new Set(idsB));
    const fillsA = await call<{ fills: { node_order_id: string }[] }>(base, 'GET', '/v1/fills?limit=500', { token: ta });
    assert.ok(fillsA.body.fills.length > 0 && fillsA.body.fills.every((f) => idsA.includes(f.node_order_id)), 'a sees only its fills');

    // Another client's order id is 404, by GET and by DELETE, and nothing changes.
    assert.equal((await call(base, 'GET', `/v1/orders/${idsB[0]}`, { token: ta })).status, 404);
    assert.equal((await call(base, 'DELETE', `/v1/orders/${idsB[0]}`, { token: ta })).status, 404);

    // Positions moved by each client's own fills only: a bought, b sold, by what each filled.
    const filledA = finalsA.reduce((s, o) => s + BigInt(o.filled_qty_1e8), 0n);
    const filledB = finalsB.reduce((s, o) => s + BigInt(o.filled_qty_1e8), 0n);
    assert.equal(await btc(ta), btcA0 + filledA);
    assert.equal(await btc(tb), btcB0 - filledB);
  });

  it('an order entered by an actor on a worker goes through the same admission and journal as HTTP', async () => {
    const client = 'engine-client';
    const token = await newClient(client);
    const router = routerKey('live', client);
    // The probe actor sits on the other worker than the router: the order crosses the rings.
    const probe = [...Array(100).keys()].map((i) => `probe:strategy-${i}`).find((k) => placeActor(k, 2) !== placeActor(router, 2))!;
    const endpoint = svc.service.topology.endpoint;
    const submit = (request: OrderRequest) =>
      endpoint.ask<RouterAnswer<SubmitAnswer>>(probe, { t: 'AskPeer', peer: router, message: { t: 'Submit', request, idempotency_key: null }, timeout_ms: 10_000 }, 15_000);
    const btc0 = await btc(token);

    // Accepted, durable, filled: read back over HTTP.
    const first = await submit({ client_order_id: 'eng-1', symbol: SYMBOL, side: 'buy', qty_1e8: 2_000_000, order_type: 'market' });
    assert.ok('ok' in first, JSON.stringify(first));
    assert.equal(first.ok.status, 201);
    const done = await finalOrder(token, first.ok.order.node_order_id);
    assert.equal(done.status, 'COMPLETED');
    assert.equal(await btc(token), btc0 + BigInt(done.filled_qty_1e8));
    const fills = await call<{ fills: { node_order_id: string }[] }>(base, 'GET', `/v1/fills?limit=100`, { token });
    assert.ok(fills.body.fills.some((f) => f.node_order_id === done.node_order_id), 'its fills are durable and listed');

    // Idempotency: the same client_order_id answers the original order (200), over HTTP too.
    const again = await submit({ client_order_id: 'eng-1', symbol: SYMBOL, side: 'buy', qty_1e8: 2_000_000, order_type: 'market' });
    assert.ok('ok' in again && again.ok.status === 200 && again.ok.order.node_order_id === done.node_order_id);
    const http = await call<ApiOrder>(base, 'POST', '/v1/orders', { token, body: { client_order_id: 'eng-1', symbol: SYMBOL, side: 'buy', qty_1e8: 2_000_000, order_type: 'market' } });
    assert.equal(http.status, 200);
    assert.equal(http.body.node_order_id, done.node_order_id);

    // The per-order notional cap: what the balances let 10 BTC plan (~3 BTC, ~$290k) is over $200k.
    const capped = await submit({ client_order_id: 'eng-cap', symbol: SYMBOL, side: 'buy', qty_1e8: 1_000_000_000, order_type: 'market' });
    assert.ok('ok' in capped && capped.ok.order.status === 'REJECTED' && capped.ok.order.failure_class === 'risk_notional_cap', JSON.stringify(capped));

    // Reservations: a sell on okx of more BTC than the okx account holds takes only what it holds.
    const okxBtc = async () => {
      const res = await call<{ positions: Position[] }>(base, 'GET', '/v1/positions?venues=okx', { token });
      return res.body.positions.filter((p) => (p.instrument.symbol ?? p.instrument.code) === 'BTC').reduce((s, p) => s + p.qty_1e8, 0);
    };
    const held = await okxBtc();
    const oversell = await submit({ client_order_id: 'eng-big', symbol: SYMBOL, side: 'sell', qty_1e8: 150_000_000, order_type: 'market', venue: 'okx' });
    assert.ok('ok' in oversell, JSON.stringify(oversell));
    const settled = await finalOrder(token, oversell.ok.order.node_order_id);
    assert.ok(settled.filled_qty_1e8 > 0 && settled.filled_qty_1e8 <= held, `sold ${settled.filled_qty_1e8} of ${held} held`);
    assert.equal(await okxBtc(), held - settled.filled_qty_1e8);
    const positions = await call<{ positions: Position[] }>(base, 'GET', '/v1/positions', { token });
    assert.ok(positions.body.positions.every((p) => p.qty_1e8 >= 0 && p.locked_qty_1e8 === 0), 'no negative balance, nothing left locked');

    // The kill switch stops it exactly as it stops HTTP.
    assert.equal((await call(base, 'PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: true, reason: 'router test' } })).status, 200);
    try {
      const halted = await submit({ client_order_id: 'eng-halted', symbol: SYMBOL, side: 'buy', qty_1e8: 1_000_000, order_type: 'market' });
      assert.ok('refused' in halted && halted.refused.code === ResultCode.DISPATCH_HALTED, JSON.stringify(halted));
      const viaHttp = await call(base, 'POST', '/v1/orders', { token, body: { client_order_id: 'eng-halted', symbol: SYMBOL, side: 'buy', qty_1e8: 1_000_000, order_type: 'market' } });
      assert.equal(viaHttp.status, 503);
    } finally {
      await call(base, 'PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: false } });
    }
    assert.equal((await call(base, 'GET', '/v1/orders/eng-halted', { token })).status, 404, 'nothing was created while halted');
  });
});
