/**
 * Order latency on the simulated venues (real service, SIM_ORDER_LATENCY=venue, the default): a
 * child reaches its venue the venue's one-way latency after it is sent, live and sandbox alike,
 * and a sandbox profile's `latency_ms` adds to it from the next reset. Lower bounds only: the
 * time from the order's arrival to its first fill can be longer under load, never shorter.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { simEdge } from '../../actors/edge/sim/catalog.ts';
import { call, startTradingService, type TestService, until } from '../helpers/service.ts';
import { TERMINAL, type ApiOrder } from '../helpers/orders.ts';

const SYMBOL = 'BTC-USDT';
const VENUE = 'kucoin';
/** The venue's one-way latency, less the millisecond `time_to_first_fill_ms` may round away. */
const FLOOR_MS = simEdge(`venue-edge-${VENUE}`)!.market.latency_ms - 1;

describe('order latency on the simulated venues (real service)', () => {
  let svc: TestService;
  let base: string;
  let live: string;
  let sandbox: string;

  const filled = async (token: string, clientOrderId: string): Promise<ApiOrder & { time_to_first_fill_ms: number | null }> => {
    const placed = await call<ApiOrder>(base, 'POST', '/v1/orders', {
      token,
      body: { client_order_id: clientOrderId, symbol: SYMBOL, side: 'buy', qty_1e8: 100_000, order_type: 'market', venue: VENUE },
    });
    assert.equal(placed.status, 201, JSON.stringify(placed.body));
    const order = await until(`order ${clientOrderId} terminal`, async () => {
      const res = await call<ApiOrder & { time_to_first_fill_ms: number | null }>(base, 'GET', `/v1/orders/${placed.body.node_order_id}`, { token });
      return TERMINAL.has(res.body.status) ? res.body : undefined;
    });
    assert.equal(order.status, 'COMPLETED', JSON.stringify(order));
    assert.notEqual(order.time_to_first_fill_ms, null);
    return order;
  };

  before(async () => {
    const trading = await startTradingService({ client: 'latency-watcher', venues: [VENUE], symbol: SYMBOL });
    ({ svc, base, token: live } = trading);
    sandbox = (await svc.service.storage.apiKeys.create('latency-watcher', { label: 'sandbox', sandbox: true })).raw_key;
    const reset = await call(base, 'POST', '/v1/sandbox/reset', { token: sandbox });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
  });

  after(async () => {
    await svc?.stop();
  });

  it(`a live child reaches ${VENUE} no sooner than its one-way latency`, async () => {
    const order = await filled(live, 'live-latency-1');
    assert.ok(order.time_to_first_fill_ms! >= FLOOR_MS, `first fill after ${order.time_to_first_fill_ms} ms, latency ${FLOOR_MS + 1} ms`);
  });

  it('a sandbox child takes the same venue latency, and a profile latency_ms adds to it after the next reset', async () => {
    const plain = await filled(sandbox, 'sbx-latency-1');
    assert.ok(plain.time_to_first_fill_ms! >= FLOOR_MS, `first fill after ${plain.time_to_first_fill_ms} ms`);

    const extra = 150;
    const put = await call(base, 'PUT', '/v1/sandbox/settings', { token: sandbox, body: { initial_balance_usd: 1_000_000, latency_ms: extra } });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const reset = await call(base, 'POST', '/v1/sandbox/reset', { token: sandbox });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    const slowed = await filled(sandbox, 'sbx-latency-2');
    assert.ok(slowed.time_to_first_fill_ms! >= FLOOR_MS + extra, `first fill after ${slowed.time_to_first_fill_ms} ms, expected >= ${FLOOR_MS + extra}`);
  });
});
