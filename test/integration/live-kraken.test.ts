/**
 * Kraken on its live adapter (LIVE_VENUES=kraken) against a local Kraken spot fake on loopback
 * (test/fakes/kraken-fake.ts), through the real service: the fake's v2 book in /v1/quotes, kept
 * whole through a checksum mismatch (resubscribed, a fresh snapshot) and a dropped stream, a
 * market order signed with API-Sign, placed under the cl_ord_id packed from our child id, its
 * fills read back with Kraken's trade ids and quote fees, a wrong secret refused with Kraken's
 * error, a lost answer reconciled without a duplicate, and the kill switch's cancel.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { KrakenFake } from '../fakes/kraken-fake.ts';
import { call, clientWithKeys, startTestService, TEST_OPERATOR_KEY, until, type TestService } from '../helpers/service.ts';
import { TERMINAL, type ApiFill, type ApiOrder } from '../helpers/orders.ts';
import { krakenClientOrderId } from '../../actors/edge/live/kraken/codec.ts';

const SYMBOL = 'BTC-USD';
const WS_SYMBOL = 'BTC/USD';
const KEY = 'fake-kraken-key-0123456789';
const SECRET = Buffer.from('fake-kraken-secret-0123456789abcdef-64-bytes-of-key-material-here').toString('base64');
const P = 1e9;
const Q = 1e8;

describe('live Kraken adapter against a local fake', { timeout: 120_000 }, () => {
  let fake: KrakenFake;
  let svc: TestService;
  let token: string;
  let mid = 0;

  const order = async (body: Record<string, unknown>, t = token) => {
    const res = await call<ApiOrder>(svc.base, 'POST', '/v1/orders', { token: t, body: { symbol: SYMBOL, venue: 'kraken', ...body } });
    assert.ok(res.status === 201 || res.status === 200, JSON.stringify(res.body));
    return res.body;
  };
  const settled = (id: string, t = token, timeoutMs = 20_000) =>
    until(`order ${id} settles`, async () => {
      const res = await call<ApiOrder & { fills?: (ApiFill & { commission_asset: string })[] }>(svc.base, 'GET', `/v1/orders/${id}?expand=fills`, { token: t });
      return TERMINAL.has(res.body.status) ? res.body : undefined;
    }, timeoutMs, 100);
  const krakenQuote = () => call<{ venues: Record<string, { bid: number; ask: number }> }>(svc.base, 'GET', `/v1/quotes/${SYMBOL}`, { token: TEST_OPERATOR_KEY }).then((r) => r.body.venues['kraken']);

  before(async () => {
    fake = new KrakenFake(
      [{ symbol: WS_SYMBOL, base: 'BTC', quote: 'USD', bids: [], asks: [] }],
      [{ apiKey: KEY, secret: SECRET, balances: { USD: { free: 100_000 * Q, locked: 0 }, BTC: { free: 1 * Q, locked: 0 } } }],
    );
    const urls = await fake.listen();
    svc = await startTestService({ liveVenues: [{ venue: 'kraken', endpoints: urls }] });
    await until('service ready', async () => ((await call(svc.base, 'GET', '/v1/health/ready')).status === 200 ? true : undefined), 30_000);
    const others = await until('a simulated NBBO', async () => {
      const q = await call<{ nbbo: { mid: number } }>(svc.base, 'GET', `/v1/quotes/${SYMBOL}`, { token: TEST_OPERATOR_KEY });
      return q.status === 200 && q.body.nbbo.mid > 0 ? q.body.nbbo.mid : undefined;
    }, 15_000);
    mid = Math.round(others) * P;
    for (let i = 0; i < 5; i++) {
      fake.setLevel(WS_SYMBOL, 'bid', mid - (i + 1) * P, (i + 1) * 10_000_000);
      fake.setLevel(WS_SYMBOL, 'ask', mid + (i + 1) * P, (i + 1) * 10_000_000);
    }
    ({ live: token } = await clientWithKeys(svc, 'kraken-live'));
    const stored = await call(svc.base, 'POST', '/v1/credentials/kraken', { token, body: { api_key: KEY, api_secret: SECRET } });
    assert.equal(stored.status, 200, JSON.stringify(stored.body));
  });

  after(async () => {
    await svc?.stop();
    await fake?.close();
  });

  it("streams the fake's v2 book into /v1/quotes, each message held to its checksum", async () => {
    const quote = await until('kraken in the quote', async () => {
      const q = await krakenQuote();
      return q !== undefined && q.ask === mid / P + 1 && q.bid === mid / P - 1 ? q : undefined;
    });
    assert.ok(quote !== undefined && fake.seen.subscribes >= 1);
  });

  it('a checksum mismatch resubscribes for a fresh snapshot; a dropped stream reconnects and resyncs', async () => {
    const subscribes = fake.seen.subscribes;
    fake.corruptNextChecksum = true;
    fake.setLevel(WS_SYMBOL, 'ask', mid + P / 2, 20_000_000);
    await until('resynced after the checksum mismatch', async () => (fake.seen.subscribes > subscribes && (await krakenQuote())?.ask === mid / P + 0.5 ? true : undefined));
    const again = fake.seen.subscribes;
    fake.dropStreams();
    fake.setLevel(WS_SYMBOL, 'ask', mid + P / 2, 0);
    await until('resynced after the reconnect', async () => (fake.seen.subscribes > again && (await krakenQuote())?.ask === mid / P + 1 ? true : undefined), 15_000);
  });

  it('routes a market order: placed under the cl_ord_id of our child id with a deadline, its fills read back with trade ids and quote fees', async () => {
    await until('balances pulled', async () => {
      const res = await call<{ positions: { instrument: { symbol?: string; code?: string }; qty_1e8: number }[] }>(svc.base, 'GET', '/v1/positions?venues=kraken', { token });
      return res.body.positions?.find((p) => p.instrument.code === 'USD' || p.instrument.symbol === 'USD')?.qty_1e8 === 100_000 * Q ? true : undefined;
    });
    const placed = await order({ client_order_id: 'kraken-1', side: 'buy', qty_1e8: 15_000_000, order_type: 'market' });
    const done = await settled(placed.node_order_id);
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    const child = done.children[0]!;
    const clOrdId = krakenClientOrderId(child.child_id)!;
    const venueOrder = fake.order(KEY, clOrdId);
    assert.ok(venueOrder !== undefined, 'the venue knows the order by the cl_ord_id of our child id');
    const sent = fake.lastOrder!;
    assert.equal(sent.get('oflags'), 'fciq');
    assert.ok(Date.parse(sent.get('deadline') ?? '') > venueOrder.transactTime, 'a deadline ahead of the order');
    const trades = fake.exchange.tradesOf(venueOrder.orderId);
    assert.equal(trades.length, 2);
    const fills = done.fills ?? [];
    assert.deepEqual(fills.map((f) => f.trade_id).sort(), trades.map((t) => `T${t.id}-FAKE0-TRADE0`).sort());
    for (const f of fills) {
      const t = trades.find((x) => `T${x.id}-FAKE0-TRADE0` === f.trade_id)!;
      assert.equal(f.commission_asset, 'USD', 'fciq: the fee in the quote');
      assert.equal(f.fee_1e9, t.commission * 10);
      assert.equal(f.price_1e9, t.price);
    }
  });

  it("a wrong secret is refused by the venue: the child is rejected with Kraken's error", async () => {
    const { live: other } = await clientWithKeys(svc, 'kraken-rotated');
    // First the right key (its balances make the order affordable), then a rotated secret the venue does not know.
    assert.equal((await call(svc.base, 'POST', '/v1/credentials/kraken', { token: other, body: { api_key: KEY, api_secret: SECRET } })).status, 200);
    await until('balances pulled', async () => {
      const res = await call<{ positions: { instrument: { code?: string } }[] }>(svc.base, 'GET', '/v1/positions?venues=kraken', { token: other });
      return res.body.positions?.some((p) => p.instrument.code === 'USD') === true ? true : undefined;
    }, 30_000);
    assert.equal((await call(svc.base, 'POST', '/v1/credentials/kraken', { token: other, body: { api_key: KEY, api_secret: Buffer.from('wrong-secret-0123456789').toString('base64') } })).status, 200);
    const before = fake.seen.badSignatures;
    const placed = await order({ client_order_id: 'kraken-bad', side: 'buy', qty_1e8: 1_000_000, order_type: 'market' }, other);
    const done = await settled(placed.node_order_id, other);
    assert.equal(done.status, 'REJECTED');
    assert.match(done.children[0]!.reason ?? '', /kraken EAPI:Invalid signature/);
    assert.ok(fake.seen.badSignatures > before);
  });

  it('a lost answer is reconciled from the venue by cl_ord_id, never doubled', async () => {
    fake.swallowOrderAnswers = 1;
    const orders = fake.seen.orders;
    const placed = await order({ client_order_id: 'kraken-lost', side: 'buy', qty_1e8: 1_000_000, order_type: 'market' });
    const done = await settled(placed.node_order_id, token, 40_000);
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    assert.equal(fake.seen.orders - orders, 1, 'placed once');
    const venueOrder = fake.order(KEY, krakenClientOrderId(done.children[0]!.child_id)!)!;
    assert.deepEqual((done.fills ?? []).map((f) => f.trade_id), fake.exchange.tradesOf(venueOrder.orderId).map((t) => `T${t.id}-FAKE0-TRADE0`));
  });

  it('a resting leg fills as maker on the venue, then the kill switch cancels what rests', async () => {
    const resting = await order({ client_order_id: 'kraken-gtc', side: 'buy', qty_1e8: 2_000_000, order_type: 'limit', limit_price_1e9: mid - 20 * P, time_in_force: 'gtc' });
    const venueOrder = await until('the leg rests on the venue', async () => fake.openOrders(KEY)[0]);
    fake.fillResting(KEY, venueOrder.clientOrderId, 500_000);
    await until('the maker fill is booked', async () => {
      const res = await call<ApiOrder & { fills?: ApiFill[] }>(svc.base, 'GET', `/v1/orders/${resting.node_order_id}?expand=fills`, { token });
      return (res.body.fills ?? []).length === 1 ? true : undefined;
      // Resting legs are polled as Kraken's decaying API counter allows: one read per 3 s once its burst is spent.
    }, 30_000);
    assert.equal((await call(svc.base, 'PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: true, reason: 'test' } })).status, 200);
    await until('nothing rests on the venue', async () => (fake.openOrders(KEY).length === 0 ? true : undefined));
    const done = await settled(resting.node_order_id);
    assert.equal(done.status, 'CANCELLED');
    assert.equal(done.filled_qty_1e8, 500_000);
    await call(svc.base, 'PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: false } });
  });
});
