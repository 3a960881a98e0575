/**
 * An order on a listed symbol no edge streams yet (ATOM-USDT starts cold on binance and okx):
 * the router asks the edges for their books (there is no depth-cache slot yet), prices the
 * arrival from those books (there is no consolidated quote yet), fills, and subscribes the
 * symbol, so the quote cache and the depth cache are warm for the next order.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, startTradingService, type TestService, until } from '../helpers/service.ts';

const SYMBOL = 'ATOM-USDT';
const TERMINAL = new Set(['COMPLETED', 'CANCELLED', 'REJECTED', 'UNRESOLVED']);

interface Order {
  node_order_id: string;
  status: string;
  filled_qty_1e8: number;
  arrival_mid_1e9: number | null;
  tca: Record<string, unknown> | null;
  children: { venue: string; status: string; limit_price_1e9: number }[];
}

describe('execution: an order on a cold symbol (real service)', () => {
  let svc: TestService;
  let base: string;
  let token: string;

  before(async () => {
    ({ svc, base, token } = await startTradingService({ client: 'cold-client', venues: ['binance', 'okx'] }));
  });

  after(async () => {
    await svc?.stop();
  });

  it('routes from the edges books, prices the arrival from them, and warms the symbol', async () => {
    const before = await call<{ source: string }>(base, 'GET', `/v1/quotes/${SYMBOL}?nowait=true`, { token });
    assert.equal(before.body.source, 'unavailable', `the symbol starts cold: ${JSON.stringify(before.body)}`);

    const placed = await call<Order>(base, 'POST', '/v1/orders', {
      token,
      body: { client_order_id: 'cold-1', symbol: SYMBOL, side: 'buy', qty_1e8: 1_000_000_000, order_type: 'market' },
    });
    assert.equal(placed.status, 201, JSON.stringify(placed.body));
    const done = await until('the order terminal', async () => {
      const o = (await call<Order>(base, 'GET', `/v1/orders/${placed.body.node_order_id}`, { token })).body;
      return TERMINAL.has(o.status) ? o : undefined;
    });
    assert.ok(done.filled_qty_1e8 > 0, `filled from the fetched books: ${JSON.stringify(done)}`);
    assert.ok(done.arrival_mid_1e9 !== null && done.arrival_mid_1e9 > 1, `an arrival mid from the venue books: ${done.arrival_mid_1e9}`);
    const legLimit = Math.max(...done.children.map((c) => c.limit_price_1e9));
    assert.ok(done.arrival_mid_1e9! < legLimit * 1.01 && done.arrival_mid_1e9! > legLimit * 0.98, 'the mid sits by the prices it bought at');
    assert.ok(done.tca !== null, 'TCA against that mid');

    await until('the symbol streamed after the order', async () => {
      const q = await call<{ source: string }>(base, 'GET', `/v1/quotes/${SYMBOL}?nowait=true`, { token });
      return q.body.source === 'edge_nbbo' ? true : undefined;
    }, 15_000, 100);
  });
});
