/**
 * KuCoin on its live adapter (LIVE_VENUES=kucoin) against a local KuCoin spot fake on loopback
 * (test/fakes/kucoin-fake.ts), through the real service: the stream reached through the fake's
 * own bullet-public (a token checked on connect, subscriptions after the welcome), its level2
 * book in /v1/quotes, kept whole through a sequence gap (a new level2_100 snapshot) and a
 * dropped stream (a fresh token, resubscribed, resynced), a market order signed with the
 * KC-API-* headers and placed on the HF sync endpoint under our child id as clientOid with its
 * accept window, its fills read back by fill row id with quote fees, a wrong secret refused
 * with KuCoin's code and message, a lost answer reconciled without a duplicate, and the kill
 * switch's cancel-all by symbol.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { KucoinFake } from '../fakes/kucoin-fake.ts';
import { call, clientWithKeys, startTestService, TEST_OPERATOR_KEY, until, type TestService } from '../helpers/service.ts';
import { TERMINAL, type ApiFill, type ApiOrder } from '../helpers/orders.ts';

const SYMBOL = 'BTC-USDT';
const KEY = 'fake-kucoin-key-0123456789';
const SECRET = 'fake-kucoin-secret-0123456789abcdef';
const PASSPHRASE = 'fake kucoin passphrase';
const P = 1e9;
const Q = 1e8;

describe('live KuCoin adapter against a local fake', { timeout: 120_000 }, () => {
  let fake: KucoinFake;
  let svc: TestService;
  let token: string;
  let mid = 0;

  const order = async (body: Record<string, unknown>, t = token) => {
    const res = await call<ApiOrder>(svc.base, 'POST', '/v1/orders', { token: t, body: { symbol: SYMBOL, venue: 'kucoin', ...body } });
    assert.ok(res.status === 201 || res.status === 200, JSON.stringify(res.body));
    return res.body;
  };
  const settled = (id: string, t = token, timeoutMs = 20_000) =>
    until(`order ${id} settles`, async () => {
      const res = await call<ApiOrder & { fills?: (ApiFill & { commission_asset: string })[] }>(svc.base, 'GET', `/v1/orders/${id}?expand=fills`, { token: t });
      return TERMINAL.has(res.body.status) ? res.body : undefined;
    }, timeoutMs, 100);
  const kucoinQuote = () => call<{ venues: Record<string, { bid: number; ask: number }> }>(svc.base, 'GET', `/v1/quotes/${SYMBOL}`, { token: TEST_OPERATOR_KEY }).then((r) => r.body.venues['kucoin']);
  const store = (t: string, secret: string) => call(svc.base, 'POST', '/v1/credentials/kucoin', { token: t, body: { api_key: KEY, api_secret: secret, passphrase: PASSPHRASE } });

  before(async () => {
    fake = new KucoinFake(
      [{ symbol: SYMBOL, base: 'BTC', quote: 'USDT', bids: [], asks: [] }],
      [{ apiKey: KEY, secret: SECRET, passphrase: PASSPHRASE, balances: { USDT: { free: 100_000 * Q, locked: 0 }, BTC: { free: 1 * Q, locked: 0 } } }],
    );
    // Pings every second: the adapter must ping on its own schedule, not only a quiet socket.
    fake.pingIntervalMs = 1_000;
    const urls = await fake.listen();
    // No WebSocket URL: the adapter connects where the fake's bullet-public sends it.
    svc = await startTestService({ liveVenues: [{ venue: 'kucoin', endpoints: { rest: urls.rest, ws: '' } }] });
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
    ({ live: token } = await clientWithKeys(svc, 'kucoin-live'));
    const stored = await store(token, SECRET);
    assert.equal(stored.status, 200, JSON.stringify(stored.body));
  });

  after(async () => {
    await svc?.stop();
    await fake?.close();
  });

  it("streams the fake's level2 book into /v1/quotes: a token from bullet-public, subscribed after the welcome, a level2_100 snapshot", async () => {
    const quote = await until('kucoin in the quote', async () => {
      const q = await kucoinQuote();
      return q !== undefined && q.ask === mid / P + 1 && q.bid === mid / P - 1 ? q : undefined;
    });
    assert.ok(quote !== undefined);
    assert.ok(fake.seen.tokens >= 1 && fake.seen.connects >= 1 && fake.seen.subscribes >= 1 && fake.seen.snapshots >= 1);
    assert.equal(fake.seen.badTokens, 0, 'every connection carried an issued token');
    await until('pinged at the interval bullet-public named', async () => (fake.seen.pings >= 2 ? true : undefined), 5_000);
  });

  it('a sequence gap resyncs the book from a new snapshot', async () => {
    const snapshots = fake.seen.snapshots;
    fake.gap(SYMBOL);
    fake.setLevel(SYMBOL, 'ask', mid + P / 2, 20_000_000);
    await until('resynced after the gap', async () => (fake.seen.snapshots > snapshots && (await kucoinQuote())?.ask === mid / P + 0.5 ? true : undefined));
    fake.setLevel(SYMBOL, 'ask', mid + P / 2, 0);
    await until('the level removed again', async () => ((await kucoinQuote())?.ask === mid / P + 1 ? true : undefined));
  });

  it('a dropped stream reconnects with a fresh token, resubscribes (again after a refusal) and resyncs', async () => {
    const tokens = fake.seen.tokens;
    const connects = fake.seen.connects;
    const snapshots = fake.seen.snapshots;
    const subscribes = fake.seen.subscribes;
    // The first subscription on the new connection is refused: its book must not be whole on a snapshot alone.
    fake.refuseSubscribes = 1;
    fake.dropStreams();
    fake.setLevel(SYMBOL, 'bid', mid - P / 2, 30_000_000);
    await until('resynced after the reconnect', async () => (fake.seen.connects > connects && (await kucoinQuote())?.bid === mid / P - 0.5 ? true : undefined), 15_000);
    assert.ok(fake.seen.tokens > tokens, 'a fresh token for the new connection');
    assert.ok(fake.seen.snapshots > snapshots, 'a fresh snapshot');
    assert.equal(fake.refuseSubscribes, 0);
    assert.ok(fake.seen.subscribes > subscribes, 'subscribed again after the refusal');
    fake.setLevel(SYMBOL, 'bid', mid - P / 2, 0);
    await until('the level removed again', async () => ((await kucoinQuote())?.bid === mid / P - 1 ? true : undefined));
  });

  it('routes a market order: placed on the HF sync endpoint under our child id with its accept window, its fills read back by fill id with quote fees', async () => {
    await until('balances pulled', async () => {
      const res = await call<{ positions: { instrument: { symbol?: string; code?: string }; qty_1e8: number }[] }>(svc.base, 'GET', '/v1/positions?venues=kucoin', { token });
      return res.body.positions?.find((p) => p.instrument.code === 'USDT' || p.instrument.symbol === 'USDT')?.qty_1e8 === 100_000 * Q ? true : undefined;
    });
    const placed = await order({ client_order_id: 'kucoin-1', side: 'buy', qty_1e8: 15_000_000, order_type: 'market' });
    const done = await settled(placed.node_order_id);
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    const child = done.children[0]!;
    const venueOrder = fake.order(KEY, child.child_id);
    assert.ok(venueOrder !== undefined, 'the venue knows the order by our child id as clientOid');
    const sent = fake.lastOrder!;
    assert.equal(sent['clientOid'], child.child_id);
    assert.equal(sent['allowMaxTimeWindow'], 5_000);
    assert.ok(typeof sent['clientTimestamp'] === 'number' && sent['clientTimestamp'] <= venueOrder.transactTime, 'the accept window runs from the request timestamp');
    const trades = fake.exchange.tradesOf(venueOrder.orderId);
    assert.equal(trades.length, 2);
    const fills = done.fills ?? [];
    assert.deepEqual(fills.map((f) => f.trade_id).sort(), trades.map((t) => String(t.id)).sort(), "the fill rows' ids, not the rounded tradeId");
    for (const f of fills) {
      const t = trades.find((x) => String(x.id) === f.trade_id)!;
      assert.equal(f.commission_asset, 'USDT', 'the fee in the quote');
      assert.equal(f.fee_1e9, t.commission * 10);
      assert.equal(f.price_1e9, t.price);
      assert.equal(f.qty_1e8, t.qty);
    }
  });

  it("a wrong secret is refused by the venue: the child is rejected with KuCoin's code and message", async () => {
    const { live: other } = await clientWithKeys(svc, 'kucoin-rotated');
    // First the right key (its balances make the order affordable), then a rotated secret the venue does not know.
    assert.equal((await store(other, SECRET)).status, 200);
    await until('balances pulled', async () => {
      const res = await call<{ positions: { instrument: { code?: string; symbol?: string } }[] }>(svc.base, 'GET', '/v1/positions?venues=kucoin', { token: other });
      return res.body.positions?.some((p) => p.instrument.code === 'USDT' || p.instrument.symbol === 'USDT') === true ? true : undefined;
    }, 30_000);
    assert.equal((await store(other, 'wrong-secret-0123456789')).status, 200);
    const before = fake.seen.badSignatures;
    const orders = fake.seen.orders;
    const placed = await order({ client_order_id: 'kucoin-bad', side: 'buy', qty_1e8: 1_000_000, order_type: 'market' }, other);
    const done = await settled(placed.node_order_id, other);
    assert.equal(done.status, 'REJECTED', JSON.stringify(done));
    assert.match(done.children[0]!.reason ?? '', /kucoin 400005: Invalid KC-API-SIGN/);
    assert.ok(fake.seen.badSignatures > before);
    assert.equal(fake.seen.orders, orders, 'refused at the gateway: nothing reached the matching engine');
  });

  it('a lost answer is reconciled from the venue by clientOid, never doubled', async () => {
    fake.swallowOrderAnswers = 1;
    const orders = fake.seen.orders;
    const placed = await order({ client_order_id: 'kucoin-lost', side: 'buy', qty_1e8: 1_000_000, order_type: 'market' });
    const done = await settled(placed.node_order_id, token, 40_000);
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    assert.equal(fake.seen.orders - orders, 1, 'placed once');
    const venueOrder = fake.order(KEY, done.children[0]!.child_id)!;
    assert.deepEqual((done.fills ?? []).map((f) => f.trade_id), fake.exchange.tradesOf(venueOrder.orderId).map((t) => String(t.id)));
  });

  it('a resting leg fills as maker on the venue, then the kill switch cancels what rests by symbol', async () => {
    const resting = await order({ client_order_id: 'kucoin-gtc', side: 'buy', qty_1e8: 2_000_000, order_type: 'limit', limit_price_1e9: mid - 20 * P, time_in_force: 'gtc' });
    const venueOrder = await until('the leg rests on the venue', async () => fake.openOrders(KEY)[0]);
    fake.fillResting(KEY, venueOrder.clientOrderId, 500_000);
    await until('the maker fill is booked', async () => {
      const res = await call<ApiOrder & { fills?: ApiFill[] }>(svc.base, 'GET', `/v1/orders/${resting.node_order_id}?expand=fills`, { token });
      const fills = res.body.fills ?? [];
      return fills.length === 1 && fills[0]!.is_maker ? true : undefined;
    });
    const cancels = fake.seen.cancelAlls + fake.seen.cancels;
    assert.equal((await call(svc.base, 'PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: true, reason: 'test' } })).status, 200);
    await until('nothing rests on the venue', async () => (fake.openOrders(KEY).length === 0 ? true : undefined));
    const done = await settled(resting.node_order_id);
    assert.equal(done.status, 'CANCELLED');
    assert.equal(done.filled_qty_1e8, 500_000);
    // The router's cancel of its leg (by clientOid) and the edge's cancel-all by symbol race: either empties the book.
    assert.ok(fake.seen.cancelAlls + fake.seen.cancels > cancels, 'cancelled on the venue');
    await call(svc.base, 'PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: false } });
  });
});
