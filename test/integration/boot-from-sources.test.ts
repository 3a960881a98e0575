/**
 * The service as `npm start` runs it: workers loading the TypeScript sources through tsx
 * (engine/worker-boot.mjs), not the bundle every other test service boots from
 * (test/helpers/bundle.ts). Quotes flow and a market order fills, so both layouts stay working.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, startTradingService, until, type TradingService } from '../helpers/service.ts';

describe('a service whose workers load the sources (as npm start)', () => {
  let t: TradingService;
  before(async () => {
    t = await startTradingService({ client: 'sources-client', venues: ['binance', 'okx'], symbol: 'BTC-USDT', service: { workerBundle: undefined } });
  });
  after(async () => {
    await t?.svc.stop();
  });

  it('boots its workers from the sources, quotes and fills an order', async () => {
    assert.equal(t.svc.config.workerBundle, undefined);
    const q = await call<{ source: string; venues: Record<string, unknown> }>(t.base, 'GET', '/v1/quotes/BTC-USDT', { token: t.token });
    assert.equal(q.status, 200);
    assert.equal(q.body.source, 'edge_nbbo');
    const placed = await call<{ node_order_id: string }>(t.base, 'POST', '/v1/orders', { token: t.token, body: { client_order_id: 'src-1', symbol: 'BTC-USDT', side: 'buy', qty_1e8: 1_000_000, order_type: 'market' } });
    assert.equal(placed.status, 201, JSON.stringify(placed.body));
    const done = await until('the order ends', async () => {
      const o = await call<{ status: string; filled_qty_1e8: number }>(t.base, 'GET', `/v1/orders/${placed.body.node_order_id}`, { token: t.token });
      return ['COMPLETED', 'CANCELLED', 'REJECTED', 'UNRESOLVED'].includes(o.body.status) ? o.body : undefined;
    });
    assert.deepEqual([done.status, done.filled_qty_1e8], ['COMPLETED', 1_000_000]);
  });
});
