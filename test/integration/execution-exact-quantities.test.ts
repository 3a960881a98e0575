/**
 * Exact quantities and honest reasons, as a new user meets them (real service, simulated
 * venues, $100,000 accounts on binance, bybit and okx):
 *   - a 3 BTC market buy, larger than any one account, is planned for exactly 3 BTC (it used
 *     to be planned 790 units short and end CANCELLED for lot dust);
 *   - an order whose remainder is below every venue's lot ends COMPLETED with
 *     `failure_class: lot_rounding` when everything that could be sent filled;
 *   - a 50 ETH GTC limit below the market, more than any one account holds, rests split across
 *     venues instead of being rejected for "concurrent orders";
 *   - TCA's best-single-venue benchmark is a venue the order could use (credentialed).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rulesOf } from '../../domain/venues.ts';
import { TERMINAL, type ApiOrder as Order } from '../helpers/orders.ts';
import { call, startTradingService, type TradingService, until, venueCredentials } from '../helpers/service.ts';

const FUNDED = ['binance', 'bybit', 'okx'];

describe('execution: exact quantities, resting splits and the eligible benchmark (real service)', () => {
  let t: TradingService;
  let token = '';

  before(async () => {
    t = await startTradingService({ client: 'exact-0', venues: [], symbol: 'BTC-USDT' });
    await until('live ETH-USDT', async () => ((await call<{ source: string }>(t.base, 'GET', '/v1/quotes/ETH-USDT', { token: t.token })).body.source === 'edge_nbbo' ? true : undefined), 15_000, 100);
  });

  after(async () => {
    await t?.svc.stop();
  });

  /** A new client with fresh $100,000 accounts on the funded venues: each test starts from full balances. */
  async function freshClient(client: string): Promise<void> {
    const storage = t.svc.service.storage;
    await storage.clients.put({ client_id: client, tier: 'enterprise', rate_limit_qps: 2_000, is_admin: false, created_at_ms: Date.now() });
    token = (await storage.apiKeys.create(client, { label: 'live', sandbox: false })).raw_key;
    for (const venue of FUNDED) assert.equal((await call(t.base, 'POST', `/v1/credentials/${venue}`, { token, body: venueCredentials(venue) })).status, 200);
    await until('sim accounts opened', async () => {
      const res = await call<{ positions: { venue: string; instrument: { code?: string; symbol?: string } }[] }>(t.base, 'GET', '/v1/positions', { token });
      return FUNDED.every((v) => res.body.positions.some((p) => p.venue === v && (p.instrument.symbol ?? p.instrument.code) === 'USDT')) ? true : undefined;
    });
  }

  async function submit(body: Record<string, unknown>): Promise<Order> {
    const res = await call<Order>(t.base, 'POST', '/v1/orders', { token, body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  }

  /** 5 % under the ETH-USDT bid, in whole dollars (every venue's tick divides it). */
  async function limitUnderBid(): Promise<number> {
    const quote = (await call<{ nbbo: { bid: number } }>(t.base, 'GET', '/v1/quotes/ETH-USDT', { token })).body;
    return Math.floor(quote.nbbo.bid * 0.95) * 1e9;
  }

  async function terminal(id: string): Promise<Order> {
    return until(`order ${id} terminal`, async () => {
      const res = await call<Order>(t.base, 'GET', `/v1/orders/${id}`, { token });
      return TERMINAL.has(res.body.status) ? res.body : undefined;
    }, 15_000);
  }

  it('plans a 3 BTC market buy over three balance-bound venues for exactly 3 BTC', async () => {
    await freshClient('exact-1');
    const order = await submit({ client_order_id: 'exact-3btc', symbol: 'BTC-USDT', side: 'buy', qty_1e8: 300_000_000, order_type: 'market' });
    assert.equal(order.status, 'RUNNING', JSON.stringify(order));
    const planned = order.children.reduce((s, c) => s + c.qty_1e8, 0);
    assert.equal(planned, 300_000_000, `children ${JSON.stringify(order.children.map((c) => [c.venue, c.qty_1e8]))}`);
    assert.ok(new Set(order.children.map((c) => c.venue)).size >= 2, 'split: no one account holds $270k');
    const done = await terminal(order.node_order_id);
    // The book may move between plan and legs; what it never is any more is lot dust.
    if (done.status === 'COMPLETED') assert.equal(done.filled_qty_1e8, 300_000_000);
    else assert.equal(done.failure_class, 'ioc_remainder', `${done.status} ${done.failure_reason}`);
    assert.notEqual(done.failure_class, 'lot_rounding');
    assert.ok(done.tca !== null && done.tca.best_single_venue !== null, 'a benchmark');
    assert.ok(FUNDED.includes(done.tca.best_single_venue.venue), `the benchmark ${done.tca.best_single_venue.venue} is a venue the order could use`);
  });

  it('a remainder below every venue\'s lot: COMPLETED with failure_class lot_rounding once the rest filled', async () => {
    await freshClient('exact-2');
    const lot = rulesOf('venue-edge-binance', 'BTC-USDT')!.lot_1e8;
    assert.ok(lot > 1, `binance BTC-USDT lot ${lot}`);
    // 100 lots and half a lot, forced onto binance: the half lot cannot be sent anywhere.
    const qty = 100 * lot + Math.floor(lot / 2);
    const order = await submit({ client_order_id: 'exact-dust', symbol: 'BTC-USDT', side: 'buy', qty_1e8: qty, order_type: 'market', venue: 'binance' });
    assert.deepEqual(order.children.map((c) => c.qty_1e8), [100 * lot]);
    const done = await terminal(order.node_order_id);
    if (done.filled_qty_1e8 === 100 * lot) {
      assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
      assert.equal(done.failure_class, 'lot_rounding');
      assert.match(done.failure_reason ?? '', new RegExp(`remaining ${Math.floor(lot / 2)} is smaller than the lot`));
    } else {
      assert.equal(done.status, 'CANCELLED', 'a partial fill of the sent lots is an IOC remainder');
      assert.equal(done.failure_class, 'ioc_remainder');
    }
  });

  it('rests a 50 ETH GTC limit that no single account can hold split across venues', async () => {
    await freshClient('exact-3');
    // 5 % under the bid: nothing crosses, all 50 ETH rest (more than one $100k account holds).
    const limit = await limitUnderBid();
    const order = await submit({ client_order_id: 'exact-rest-50eth', symbol: 'ETH-USDT', side: 'buy', qty_1e8: 5_000_000_000, order_type: 'limit', limit_price_1e9: limit });
    assert.notEqual(order.status, 'REJECTED', `${order.failure_class}: ${order.failure_reason}`);
    const resting = order.children.filter((c) => c.time_in_force === 'gtc');
    assert.ok(new Set(resting.map((c) => c.venue)).size >= 2, `split over venues: ${JSON.stringify(order.children)}`);
    assert.equal(resting.reduce((s, c) => s + c.qty_1e8, 0), 5_000_000_000, 'all of it rests');
    const working = await until('resting', async () => {
      const res = await call<Order>(t.base, 'GET', `/v1/orders/${order.node_order_id}`, { token });
      return res.body.status === 'ACTIVE' || res.body.status === 'PARTIAL' ? res.body : undefined;
    });
    assert.ok(working.children.filter((c) => c.status === 'resting').length >= 2);
    const cancelled = await call<Order>(t.base, 'DELETE', `/v1/orders/${order.node_order_id}`, { token });
    assert.equal(cancelled.status, 200);
    assert.ok(['CANCELLED', 'COMPLETED'].includes((await terminal(order.node_order_id)).status));
  });

  it('says what really happened when no venue can hold any part of a resting remainder', async () => {
    await freshClient('exact-4');
    // 100 ETH resting: more than all three accounts together; each venue takes what it can.
    const limit = await limitUnderBid();
    const drain = await submit({ client_order_id: 'exact-drain', symbol: 'ETH-USDT', side: 'buy', qty_1e8: 10_000_000_000, order_type: 'limit', limit_price_1e9: limit });
    assert.ok(drain.children.length >= 1, JSON.stringify(drain));
    // Every account's USDT is now reserved: another resting buy cannot rest anywhere.
    const refused = await submit({ client_order_id: 'exact-refused', symbol: 'ETH-USDT', side: 'buy', qty_1e8: 100_000_000, order_type: 'limit', limit_price_1e9: limit });
    assert.equal(refused.status, 'REJECTED');
    assert.equal(refused.failure_class, 'insufficient_balance');
    assert.doesNotMatch(refused.failure_reason ?? '', /concurrent/);
    assert.match(refused.failure_reason ?? '', /available balance/);
    await call(t.base, 'DELETE', `/v1/orders/${drain.node_order_id}`, { token });
    await terminal(drain.node_order_id);
  });
});
