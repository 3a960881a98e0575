/**
 * The kill switch and execution against the real service (spec, States and transitions: kill
 * switch active -> all new orders are rejected; existing orders are cancelled): while active,
 * POST /v1/orders answers 503 DISPATCH_HALTED and stores nothing, /v1/health/safety is 503,
 * armed orders are cancelled, nothing is left working; released, orders trade again.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, envelope, startTestService, TEST_OPERATOR_KEY, type JsonResponse, type TestService, until } from '../helpers/service.ts';
import { StreamClient } from '../helpers/stream-client.ts';

const SYMBOL = 'BTC-USDT';
const FUNDED = ['binance', 'okx', 'bybit'];
const TERMINAL = new Set(['COMPLETED', 'CANCELLED', 'REJECTED', 'UNRESOLVED']);

interface Order {
  node_order_id: string;
  graph_id: string;
  status: string;
  execution_type: string;
  filled_qty_1e8: number;
  failure_class: string | null;
  children: unknown[];
  [k: string]: unknown;
}

function assertError(res: JsonResponse, status: number, code: string): void {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  assert.equal(envelope(res.body).code, code, JSON.stringify(res.body));
}

describe('execution: kill switch (real service)', () => {
  let svc: TestService;
  let base: string;
  let token: string;
  let sandboxToken: string;
  const streams: StreamClient[] = [];

  const setKillSwitch = (active: boolean, reason?: string) =>
    call<{ status: string }>(base, 'PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active, ...(reason !== undefined ? { reason } : {}) } });

  const market = (coid: string, extra: Record<string, unknown> = {}) => ({
    client_order_id: coid,
    symbol: SYMBOL,
    side: 'buy',
    qty_1e8: 1_000_000,
    order_type: 'market',
    ...extra,
  });
  const submit = (body: unknown, key = token) => call<Order>(base, 'POST', '/v1/orders', { token: key, body });
  const getOrder = async (id: string, key = token) => {
    const res = await call<Order>(base, 'GET', `/v1/orders/${id}`, { token: key });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  const waitStatus = (id: string, accept: (o: Order) => boolean, what: string, key = token) =>
    until(`order ${id} ${what}`, async () => {
      const o = await getOrder(id, key);
      return accept(o) ? o : undefined;
    });
  const counts = async (key = token) => ({
    orders: (await call<{ total: number }>(base, 'GET', '/v1/orders', { token: key })).body.total,
    fills: (await call<{ total: number }>(base, 'GET', '/v1/fills', { token: key })).body.total,
  });

  before(async () => {
    svc = await startTestService();
    base = svc.base;
    await until('service ready', async () => ((await call(base, 'GET', '/v1/health/ready')).status === 200 ? true : undefined), 30_000);
    const storage = svc.service.storage;
    await storage.clients.put({ client_id: 'halt-client', tier: 'enterprise', rate_limit_qps: 2_000, is_admin: false, created_at_ms: Date.now() });
    token = (await storage.apiKeys.create('halt-client', { label: 'live', sandbox: false })).raw_key;
    sandboxToken = (await storage.apiKeys.create('halt-client', { label: 'sandbox', sandbox: true })).raw_key;
    for (const key of [token, sandboxToken]) {
      for (const venue of FUNDED) {
        const body = { api_key: `key-${venue}-0123456789`, api_secret: `secret-${venue}-0123456789abcdef`, ...(venue === 'okx' ? { passphrase: 'pass' } : {}) };
        assert.equal((await call(base, 'POST', `/v1/credentials/${venue}`, { token: key, body })).status, 200);
      }
    }
    await until('a live BTC-USDT quote', async () => {
      const res = await call<{ source: string }>(base, 'GET', `/v1/quotes/${SYMBOL}`, { token });
      return res.status === 200 && res.body.source === 'edge_nbbo' ? true : undefined;
    }, 15_000, 100);
  });

  after(async () => {
    for (const s of streams) s.close();
    await svc?.stop();
  });

  it('halts admission: 503 DISPATCH_HALTED with nothing stored, armed orders cancelled, then trades again when released', async () => {
    // Before: a completed order, and two armed ones.
    const placed = await submit(market('before-halt-1'));
    assert.equal(placed.status, 201, JSON.stringify(placed.body));
    await waitStatus(placed.body.node_order_id, (o) => TERMINAL.has(o.status), 'terminal');
    const armed1 = await submit(market('armed-before-halt-1', { start_armed: true }));
    const armed2 = await submit(market('armed-before-halt-2', { start_armed: true }), sandboxToken);
    for (const a of [armed1, armed2]) {
      assert.equal(a.status, 201, JSON.stringify(a.body));
      assert.equal(a.body.status, 'WAITING');
      assert.equal(a.body.execution_type, 'armed');
    }
    const ticket = await call<{ ticket: string }>(base, 'GET', '/v1/ws/ticket', { token });
    const stream = await StreamClient.open(`ws://127.0.0.1:${svc.service.port}/v1/stream?ticket=${ticket.body.ticket}`);
    streams.push(stream);
    stream.send({ subscribe: ['orders', 'system'] });
    await stream.next((f) => f.type === 'subscribed');
    assert.equal((await call(base, 'GET', '/v1/health/safety')).status, 200);
    const live0 = await counts();
    const sandbox0 = await counts(sandboxToken);

    // Halt.
    const on = await setKillSwitch(true, 'execution test halt');
    assert.equal(on.status, 200, JSON.stringify(on.body));
    assert.equal(on.body.status, 'active');
    const safety = await call(base, 'GET', '/v1/health/safety');
    assertError(safety, 503, 'DISPATCH_HALTED');
    assert.match(envelope(safety.body).message, /execution test halt/);
    const risk = await call<{ kill_switch: { active: boolean } }>(base, 'GET', '/v1/risk', { token });
    assert.equal(risk.body.kill_switch.active, true);

    // Armed orders are cancelled, live and sandbox alike, and the stream says so.
    const cancelled1 = await waitStatus(armed1.body.node_order_id, (o) => o.status !== 'WAITING', 'cancelled by the halt');
    assert.equal(cancelled1.status, 'CANCELLED');
    assert.equal(cancelled1.failure_class, 'kill_switch');
    assert.equal(cancelled1.filled_qty_1e8, 0);
    assert.deepEqual(cancelled1.children, [], 'an armed order never reached a venue');
    const cancelled2 = await waitStatus(armed2.body.node_order_id, (o) => o.status !== 'WAITING', 'cancelled by the halt', sandboxToken);
    assert.equal(cancelled2.status, 'CANCELLED');
    assert.equal(cancelled2.failure_class, 'kill_switch');
    const frame = await stream.next((f) => f.channel === 'orders' && f.data?.['node_order_id'] === armed1.body.node_order_id && f.data?.['status'] === 'CANCELLED');
    assert.equal(frame.data!['failure_class'], 'kill_switch');
    await stream.next((f) => f.channel === 'system' && f.data?.['event'] === 'kill_switch' && f.data?.['active'] === true);

    // New orders of every shape are refused and nothing is stored.
    const refused = [
      await submit(market('during-halt-1')),
      await submit(market('during-halt-2', { start_armed: true })),
      await submit(market('during-halt-3', { venue: 'binance' })),
      await submit({ ...market('during-halt-4'), order_type: 'limit', limit_price_1e9: 200_000 * 1e9, time_in_force: 'ioc' }),
      await submit(market('during-halt-5'), sandboxToken),
    ];
    for (const res of refused) assertError(res, 503, 'DISPATCH_HALTED');
    // Activating a graph is a dispatch too; the cancelled one is not armed any more.
    const act = await call(base, 'POST', `/v1/execution_graphs/${armed1.body.graph_id}/activate`, { token });
    assert.ok(act.status === 409 || act.status === 503, `activation during the halt: ${act.status} ${JSON.stringify(act.body)}`);
    // A retry of an order placed before the halt still gets its original answer.
    const retry = await submit(market('before-halt-1'));
    assert.equal(retry.status, 200, JSON.stringify(retry.body));
    assert.equal(retry.body.node_order_id, placed.body.node_order_id);
    // Nothing was added; nothing is working.
    assert.deepEqual(await counts(), live0);
    assert.deepEqual(await counts(sandboxToken), sandbox0);
    const open = await call<{ orders: Order[]; total: number }>(base, 'GET', '/v1/orders?status=open', { token });
    assert.equal(open.body.total, 0, JSON.stringify(open.body.orders.map((o) => [o.node_order_id, o.status])));
    const risk2 = await call<{ working_orders: number; reserved: unknown[] }>(base, 'GET', '/v1/risk', { token });
    assert.equal(risk2.body.working_orders, 0);
    assert.deepEqual(risk2.body.reserved, []);

    // Release: the refused client_order_ids were not consumed; orders trade again.
    const off = await setKillSwitch(false);
    assert.equal(off.status, 200);
    assert.equal(off.body.status, 'inactive');
    assert.equal((await call(base, 'GET', '/v1/health/safety')).status, 200);
    const again = await submit(market('during-halt-1'));
    assert.equal(again.status, 201, JSON.stringify(again.body));
    const done = await waitStatus(again.body.node_order_id, (o) => TERMINAL.has(o.status), 'terminal');
    assert.notEqual(done.failure_class, 'kill_switch');
    const sandboxAgain = await submit(market('during-halt-5'), sandboxToken);
    assert.equal(sandboxAgain.status, 201, JSON.stringify(sandboxAgain.body));
    // A cancelled armed order stays cancelled.
    assert.equal((await getOrder(armed1.body.node_order_id)).status, 'CANCELLED');
    const reactivate = await call(base, 'POST', `/v1/execution_graphs/${armed1.body.graph_id}/activate`, { token });
    assert.equal(reactivate.status, 409, JSON.stringify(reactivate.body));
  });

  it('orders in flight when the switch is thrown end terminal and nothing stays working or reserved', async () => {
    const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => submit(market(`in-flight-${i}`))));
    const on = await setKillSwitch(true, 'mid-burst');
    assert.equal(on.status, 200);
    try {
      for (const res of burst) assert.ok(res.status === 201 || res.status === 503, `${res.status} ${JSON.stringify(res.body)}`);
      const accepted = burst.filter((r) => r.status === 201).map((r) => r.body.node_order_id);
      for (const id of accepted) await waitStatus(id, (o) => TERMINAL.has(o.status), 'terminal');
      const open = await call<{ total: number }>(base, 'GET', '/v1/orders?status=open', { token });
      assert.equal(open.body.total, 0);
      const positions = await call<{ positions: { qty_1e8: number; locked_qty_1e8: number }[] }>(base, 'GET', '/v1/positions', { token });
      for (const p of positions.body.positions) {
        assert.equal(p.locked_qty_1e8, 0, `no reservation left: ${JSON.stringify(p)}`);
        assert.ok(p.qty_1e8 >= 0, `no overspend: ${JSON.stringify(p)}`);
      }
      assertError(await submit(market('after-throw')), 503, 'DISPATCH_HALTED');
    } finally {
      assert.equal((await setKillSwitch(false)).status, 200);
    }
  });
});
