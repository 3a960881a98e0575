/**
 * Coinbase on its live adapter (LIVE_VENUES=coinbase) against a local Coinbase Advanced Trade fake
 * on loopback (test/fakes/coinbase-fake.ts), through the real service: the fake's level2 book in
 * /v1/quotes, held to the connection's sequence numbers (a skipped number resubscribes for a
 * fresh snapshot) and kept through a dropped stream, the -USDC alias not streamed, a market order
 * signed with a 10 s ES256 JWT of a key generated here, placed under our child id as
 * client_order_id, its fills read back with Coinbase's trade ids and quote commissions, a key
 * Coinbase does not take refused with its answer, a lost answer reconciled without a duplicate,
 * and a resting leg's maker fill, then the kill switch's cancel.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { CoinbaseFake, coinbaseTradeIdOf } from '../fakes/coinbase-fake.ts';
import { call, clientWithKeys, startTestService, TEST_OPERATOR_KEY, until, type TestService } from '../helpers/service.ts';
import { TERMINAL, type ApiFill, type ApiOrder } from '../helpers/orders.ts';

const SYMBOL = 'BTC-USD';
const KEY_NAME = 'organizations/00000000-0000-4000-8000-000000000000/apiKeys/11111111-1111-4111-8111-111111111111';
const P = 1e9;
const Q = 1e8;

/** An EC P-256 key as the CDP portal hands it out: SEC1 PEM. */
function pem(): string {
  return generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'sec1', format: 'pem' }) as string;
}

describe('live Coinbase adapter against a local fake', { timeout: 120_000 }, () => {
  const PEM = pem();
  let fake: CoinbaseFake;
  let svc: TestService;
  let token: string;
  let mid = 0;

  const order = async (body: Record<string, unknown>, t = token) => {
    const res = await call<ApiOrder>(svc.base, 'POST', '/v1/orders', { token: t, body: { symbol: SYMBOL, venue: 'coinbase', ...body } });
    assert.ok(res.status === 201 || res.status === 200, JSON.stringify(res.body));
    return res.body;
  };
  const settled = (id: string, t = token, timeoutMs = 20_000) =>
    until(`order ${id} settles`, async () => {
      const res = await call<ApiOrder & { fills?: (ApiFill & { commission_asset: string })[] }>(svc.base, 'GET', `/v1/orders/${id}?expand=fills`, { token: t });
      return TERMINAL.has(res.body.status) ? res.body : undefined;
    }, timeoutMs, 100);
  const coinbaseQuote = () => call<{ venues: Record<string, { bid: number; ask: number }> }>(svc.base, 'GET', `/v1/quotes/${SYMBOL}`, { token: TEST_OPERATOR_KEY }).then((r) => r.body.venues['coinbase']);
  const usdPulled = (t: string, qty?: number) =>
    until('balances pulled', async () => {
      const res = await call<{ positions: { instrument: { symbol?: string; code?: string }; qty_1e8: number }[] }>(svc.base, 'GET', '/v1/positions?venues=coinbase', { token: t });
      const usd = res.body.positions?.find((p) => p.instrument.code === 'USD' || p.instrument.symbol === 'USD');
      return usd !== undefined && (qty === undefined || usd.qty_1e8 === qty) ? true : undefined;
    }, 30_000);

  before(async () => {
    fake = new CoinbaseFake(
      [{ symbol: SYMBOL, base: 'BTC', quote: 'USD', bids: [], asks: [] }],
      [{ apiKey: KEY_NAME, secret: PEM, balances: { USD: { free: 100_000 * Q, locked: 0 }, BTC: { free: 1 * Q, locked: 0 } } }],
      { 'BTC-USDC': SYMBOL },
    );
    const urls = await fake.listen();
    svc = await startTestService({ liveVenues: [{ venue: 'coinbase', endpoints: urls }] });
    await until('service ready', async () => ((await call(svc.base, 'GET', '/v1/health/ready')).status === 200 ? true : undefined), 30_000);
    const others = await until('a simulated NBBO', async () => {
      const q = await call<{ nbbo: { mid: number } }>(svc.base, 'GET', `/v1/quotes/${SYMBOL}`, { token: TEST_OPERATOR_KEY });
      return q.status === 200 && q.body.nbbo.mid > 0 ? q.body.nbbo.mid : undefined;
    }, 15_000);
    mid = Math.round(others) * P;
    for (let i = 0; i < 5; i++) {
      fake.setLevel(SYMBOL, 'bid', mid - (i + 1) * P, (i + 1) * 10_000_000);
      fake.setLevel(SYMBOL, 'ask', mid + (i + 1) * P, (i + 1) * 10_000_000);
    }
    ({ live: token } = await clientWithKeys(svc, 'coinbase-live'));
    const stored = await call(svc.base, 'POST', '/v1/credentials/coinbase', { token, body: { api_key: KEY_NAME, api_secret: PEM } });
    assert.equal(stored.status, 200, JSON.stringify(stored.body));
  });

  after(async () => {
    await svc?.stop();
    await fake?.close();
  });

  it("streams the fake's level2 book into /v1/quotes with heartbeats on the connection; the -USDC alias is not streamed", async () => {
    const quote = await until('coinbase in the quote', async () => {
      const q = await coinbaseQuote();
      return q !== undefined && q.ask === mid / P + 1 && q.bid === mid / P - 1 ? q : undefined;
    });
    assert.ok(quote !== undefined && fake.seen.subscribes >= 1);
    assert.ok(fake.seen.heartbeatSubscribes >= 1, 'heartbeats keep the connection open');
    assert.ok(fake.seen.subscribedProducts.includes(SYMBOL));
    assert.ok(!fake.seen.subscribedProducts.includes('BTC-USDC'), 'BTC-USDC streams the BTC-USD book: not subscribed');
    assert.equal(fake.seen.closedIdle, 0);
  });

  it('a sequence number skipped on the connection resubscribes for a fresh snapshot', async () => {
    const subscribes = fake.seen.subscribes;
    fake.skipSequence();
    fake.setLevel(SYMBOL, 'ask', mid + P / 2, 20_000_000);
    await until('resynced after the gap', async () => (fake.seen.subscribes > subscribes && (await coinbaseQuote())?.ask === mid / P + 0.5 ? true : undefined));
  });

  it('a dropped stream reconnects, subscribes heartbeats again and resyncs', async () => {
    const subscribes = fake.seen.subscribes;
    const heartbeats = fake.seen.heartbeatSubscribes;
    fake.dropStreams();
    fake.setLevel(SYMBOL, 'ask', mid + P / 2, 0);
    await until('resynced after the reconnect', async () => (fake.seen.subscribes > subscribes && (await coinbaseQuote())?.ask === mid / P + 1 ? true : undefined), 15_000);
    assert.ok(fake.seen.heartbeatSubscribes > heartbeats, 'a new connection subscribes heartbeats');
  });

  it('routes a market order: a 10 s token, our child id as client_order_id, its fills read back with trade ids and quote commissions', async () => {
    await usdPulled(token, 100_000 * Q);
    const placed = await order({ client_order_id: 'coinbase-1', side: 'buy', qty_1e8: 15_000_000, order_type: 'market' });
    const done = await settled(placed.node_order_id);
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    const child = done.children[0]!;
    const venueOrder = fake.order(KEY_NAME, child.child_id);
    assert.ok(venueOrder !== undefined, 'the venue knows the order by our child id');
    const sent = fake.lastOrder!;
    assert.equal(sent['client_order_id'], child.child_id);
    assert.ok('sor_limit_ioc' in (sent['order_configuration'] as object), 'a priced IOC');
    assert.equal(fake.tokenLifetimes['POST /api/v3/brokerage/orders'], 10, 'orders are signed for the accept window');
    assert.equal(fake.tokenLifetimes['GET /api/v3/brokerage/accounts'], 120);
    const trades = fake.tradesOf(venueOrder.orderId);
    assert.equal(trades.length, 2);
    const fills = done.fills ?? [];
    assert.deepEqual(fills.map((f) => f.trade_id).sort(), trades.map(coinbaseTradeIdOf).sort());
    for (const f of fills) {
      const t = trades.find((x) => coinbaseTradeIdOf(x) === f.trade_id)!;
      assert.equal(f.commission_asset, 'USD', 'the commission in the quote');
      assert.equal(f.fee_1e9, t.commission * 10);
      assert.equal(f.price_1e9, t.price);
    }
  });

  it("a key Coinbase does not take is refused: the child is rejected with Coinbase's answer", async () => {
    const { live: other } = await clientWithKeys(svc, 'coinbase-rotated');
    // First the right key (its balances make the order affordable), then another private key under the same name.
    assert.equal((await call(svc.base, 'POST', '/v1/credentials/coinbase', { token: other, body: { api_key: KEY_NAME, api_secret: PEM } })).status, 200);
    await usdPulled(other);
    assert.equal((await call(svc.base, 'POST', '/v1/credentials/coinbase', { token: other, body: { api_key: KEY_NAME, api_secret: pem() } })).status, 200);
    const before = fake.seen.badTokens;
    const placed = await order({ client_order_id: 'coinbase-bad', side: 'buy', qty_1e8: 1_000_000, order_type: 'market' }, other);
    const done = await settled(placed.node_order_id, other);
    assert.equal(done.status, 'REJECTED');
    assert.match(done.children[0]!.reason ?? '', /coinbase 401: Unauthorized/);
    assert.ok(fake.seen.badTokens > before);
  });

  it('a lost answer is reconciled from the venue by client order id, never doubled', async () => {
    fake.swallowOrderAnswers = 1;
    const orders = fake.seen.orders;
    const lists = fake.seen.lists;
    const placed = await order({ client_order_id: 'coinbase-lost', side: 'buy', qty_1e8: 1_000_000, order_type: 'market' });
    const done = await settled(placed.node_order_id, token, 40_000);
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    assert.equal(fake.seen.orders - orders, 1, 'placed once');
    assert.ok(fake.seen.lists > lists, 'found among the listed orders (Get Order needs the order id the lost answer had)');
    const venueOrder = fake.order(KEY_NAME, done.children[0]!.child_id)!;
    assert.deepEqual((done.fills ?? []).map((f) => f.trade_id).sort(), fake.tradesOf(venueOrder.orderId).map(coinbaseTradeIdOf).sort());
  });

  it('a resting leg fills as maker on the venue, then the kill switch cancels what rests, an order placed by hand too', async () => {
    const resting = await order({ client_order_id: 'coinbase-gtc', side: 'buy', qty_1e8: 2_000_000, order_type: 'limit', limit_price_1e9: mid - 20 * P, time_in_force: 'gtc' });
    const venueOrder = await until('the leg rests on the venue', async () => fake.openOrders(KEY_NAME)[0]);
    fake.fillResting(KEY_NAME, venueOrder.clientOrderId, 500_000);
    await until('the maker fill is booked', async () => {
      const res = await call<ApiOrder & { fills?: ApiFill[] }>(svc.base, 'GET', `/v1/orders/${resting.node_order_id}?expand=fills`, { token });
      return (res.body.fills ?? []).length === 1 ? true : undefined;
    });
    const byHand = fake.placeByHand(KEY_NAME, SYMBOL, 'SELL', 1_000_000, mid + 50 * P, 'web-app-order');
    const cancels = fake.seen.cancels;
    assert.equal((await call(svc.base, 'PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: true, reason: 'test' } })).status, 200);
    await until('nothing rests on the venue', async () => (fake.openOrders(KEY_NAME).length === 0 ? true : undefined));
    assert.equal(byHand.status, 'CANCELED', 'the kill switch cancels every open order on our symbols (batch_cancel)');
    assert.ok(fake.seen.cancels > cancels);
    const done = await settled(resting.node_order_id);
    assert.equal(done.status, 'CANCELLED');
    assert.equal(done.filled_qty_1e8, 500_000);
    await call(svc.base, 'PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: false } });
  });
});
