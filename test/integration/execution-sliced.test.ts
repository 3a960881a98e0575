/**
 * Time-sliced execution (`constraints.horizon_ms`, `urgency`): the order is routed in slices
 * until it is filled or the horizon passes, RUNNING/PARTIAL with `engine_phase: working` in
 * between; DELETE and the kill switch stop it before its next slice.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, startTestService, startTradingService, TEST_OPERATOR_KEY, type TestService, until } from '../helpers/service.ts';

const SYMBOL = 'BTC-USDT';
const FUNDED = ['binance', 'okx', 'bybit'];
const TERMINAL = new Set(['COMPLETED', 'CANCELLED', 'REJECTED', 'UNRESOLVED']);

interface Order {
  node_order_id: string;
  status: string;
  engine_phase: string;
  failure_class: string | null;
  qty_1e8: number;
  filled_qty_1e8: number;
  children: { child_id: string; status: string; qty_1e8: number }[];
  tca: Record<string, unknown> | null;
}

describe('execution: time-sliced orders (real service)', () => {
  let svc: TestService;
  let base: string;
  let token: string;

  const getOrder = async (id: string) => (await call<Order>(base, 'GET', `/v1/orders/${id}`, { token })).body;
  const settled = (id: string, timeoutMs = 20_000) =>
    until(`order ${id} settled`, async () => {
      const o = await getOrder(id);
      return TERMINAL.has(o.status) ? o : undefined;
    }, timeoutMs, 100);
  const sliced = (coid: string, constraints: Record<string, unknown>, qty = 5_000_000) =>
    call<Order>(base, 'POST', '/v1/orders', { token, body: { client_order_id: coid, symbol: SYMBOL, side: 'buy', qty_1e8: qty, order_type: 'market', constraints } });

  before(async () => {
    ({ svc, base, token } = await startTradingService({ client: 'slice-client', venues: FUNDED, symbol: SYMBOL }));
  });

  after(async () => {
    await svc?.stop();
  });

  it('routes slice after slice over the horizon and completes', async () => {
    const started = Date.now();
    const placed = await sliced('slice-1', { horizon_ms: 3_000, urgency: 'high' });
    assert.equal(placed.status, 201, JSON.stringify(placed.body));
    const working = await until('working between slices', async () => {
      const o = await getOrder(placed.body.node_order_id);
      return o.engine_phase === 'working' ? o : TERMINAL.has(o.status) ? o : undefined;
    });
    assert.equal(working.engine_phase, 'working', `between slices: ${JSON.stringify(working)}`);
    assert.ok(['RUNNING', 'PARTIAL'].includes(working.status), working.status);
    const done = await settled(placed.body.node_order_id);
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    assert.equal(done.filled_qty_1e8, 5_000_000, 'all of it');
    // Slices follow the clock (what is left over the slices that still fit): a descheduled service
    // on a loaded machine fits fewer than the 15 of an idle one, but never one.
    assert.ok(done.children.length >= 2, `several slices: ${done.children.length} legs`);
    assert.ok(Date.now() - started >= 1_000, 'spread over the horizon, not at once');
    assert.ok(done.tca !== null, 'TCA over every slice');
    const fills = await call<{ fills: { qty_1e8: number }[] }>(base, 'GET', `/v1/fills?node_order_id=${done.node_order_id}&limit=1000`, { token });
    assert.equal(fills.body.fills.reduce((s, f) => s + f.qty_1e8, 0), done.filled_qty_1e8, 'the fills add up');
  });

  it('DELETE stops it before its next slice: CANCELLED with what filled', async () => {
    const placed = await sliced('slice-2', { horizon_ms: 6_000, urgency: 'medium' });
    assert.equal(placed.status, 201, JSON.stringify(placed.body));
    await until('some of it filled', async () => ((await getOrder(placed.body.node_order_id)).filled_qty_1e8 > 0 ? true : undefined));
    const res = await call<{ status: string }>(base, 'DELETE', `/v1/orders/${placed.body.node_order_id}`, { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const done = await settled(placed.body.node_order_id);
    assert.equal(done.status, 'CANCELLED', JSON.stringify(done));
    assert.equal(done.failure_class, 'cancelled');
    assert.ok(done.filled_qty_1e8 > 0 && done.filled_qty_1e8 < done.qty_1e8, `partly filled: ${done.filled_qty_1e8}`);
    const legs = done.children.length;
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    assert.equal((await getOrder(placed.body.node_order_id)).children.length, legs, 'no slice after the cancel');
    assert.deepEqual((await call<{ reserved: unknown[] }>(base, 'GET', '/v1/risk', { token })).body.reserved, [], 'nothing reserved');
  });

  it('the kill switch stops it too (failure_class kill_switch)', async () => {
    const placed = await sliced('slice-3', { horizon_ms: 6_000, urgency: 'medium' });
    assert.equal(placed.status, 201, JSON.stringify(placed.body));
    await until('some of it filled', async () => ((await getOrder(placed.body.node_order_id)).filled_qty_1e8 > 0 ? true : undefined));
    assert.equal((await call(base, 'PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: true, reason: 'slice test' } })).status, 200);
    try {
      const done = await settled(placed.body.node_order_id);
      assert.equal(done.status, 'CANCELLED', JSON.stringify(done));
      assert.equal(done.failure_class, 'kill_switch');
    } finally {
      assert.equal((await call(base, 'PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: false } })).status, 200);
    }
  });
});

describe('execution: a sliced order at shutdown (real service)', () => {
  it('stops with what filled (failure_class shutdown) instead of holding the shutdown to its horizon', async () => {
    const { svc: first, base, token } = await startTradingService({ client: 'slice-stop', venues: ['binance'], symbol: SYMBOL });
    try {
      const placed = await call<Order>(base, 'POST', '/v1/orders', {
        token,
        body: { client_order_id: 'slice-stop-1', symbol: SYMBOL, side: 'buy', qty_1e8: 50_000_000, order_type: 'market', constraints: { horizon_ms: 60_000, urgency: 'low' } },
      });
      assert.equal(placed.status, 201, JSON.stringify(placed.body));
      await until('some of it filled', async () => ((await call<Order>(base, 'GET', `/v1/orders/${placed.body.node_order_id}`, { token })).body.filled_qty_1e8 > 0 ? true : undefined));
      const stopping = Date.now();
      await first.stop(false);
      assert.ok(Date.now() - stopping < 15_000, `the shutdown did not wait for the one-minute horizon (${Date.now() - stopping} ms)`);
      const again = await startTestService({ dataDir: first.dataDir });
      try {
        const order = again.service.storage.orders.getOrder('slice-stop', 'live', placed.body.node_order_id)!;
        assert.equal(order.status, 'CANCELLED', JSON.stringify(order));
        assert.equal(order.failure_class, 'shutdown', 'stopped by the shutdown, not reconciled after a crash');
        assert.ok(order.filled_qty_1e8 > 0 && order.filled_qty_1e8 < order.qty_1e8, `kept what filled: ${order.filled_qty_1e8}`);
      } finally {
        await again.stop();
      }
    } finally {
      await first.stop().catch(() => undefined); // a second stop only removes the data
    }
  });
});
