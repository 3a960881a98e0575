/**
 * Bybit on its live adapter (LIVE_VENUES=bybit) against a local Bybit v5 spot fake on loopback
 * (test/fakes/bybit-fake.ts), through the real service: the fake's `orderbook.50` topic in
 * /v1/quotes, kept whole through an update-id gap (resubscribed, a fresh snapshot) and a dropped
 * stream, a market order signed with X-BAPI-SIGN and placed under our child id as its
 * orderLinkId, its fills read back with Bybit's execution ids and fees in the coin Bybit's spot
 * rules name, a wrong secret refused with Bybit's retCode and retMsg, a lost answer reconciled
 * once (from the order history, as after a Bybit restart), and the kill switch's cancel-all.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BybitFake, execIdOf } from '../fakes/bybit-fake.ts';
import { call, clientWithKeys, startTestService, TEST_OPERATOR_KEY, until, type TestService } from '../helpers/service.ts';
import { TERMINAL, type ApiFill, type ApiOrder } from '../helpers/orders.ts';
import { bybitOrderLinkId, spotFeeCoin } from '../../actors/edge/live/bybit/codec.ts';

const SYMBOL = 'BTC-USDT';
const VENUE_SYMBOL = 'BTCUSDT';
const KEY = 'fakeBybitKey0123456';
const SECRET = 'fakeBybitSecret0123456789abcdefghijk';
const P = 1e9;
const Q = 1e8;

type Fill = ApiFill & { commission_asset: string; commission_qty_1e8?: number };

describe('live Bybit adapter against a local fake', { timeout: 120_000 }, () => {
  let fake: BybitFake;
  let svc: TestService;
  let token: string;
  let mid = 0;

  const order = async (body: Record<string, unknown>, t = token) => {
    const res = await call<ApiOrder>(svc.base, 'POST', '/v1/orders', { token: t, body: { symbol: SYMBOL, venue: 'bybit', ...body } });
    assert.ok(res.status === 201 || res.status === 200, JSON.stringify(res.body));
    return res.body;
  };
  const settled = (id: string, t = token, timeoutMs = 20_000) =>
    until(`order ${id} settles`, async () => {
      const res = await call<ApiOrder & { fills?: Fill[] }>(svc.base, 'GET', `/v1/orders/${id}?expand=fills`, { token: t });
      return TERMINAL.has(res.body.status) ? res.body : undefined;
    }, timeoutMs, 100);
  const bybitQuote = () => call<{ venues: Record<string, { bid: number; ask: number }> }>(svc.base, 'GET', `/v1/quotes/${SYMBOL}`, { token: TEST_OPERATOR_KEY }).then((r) => r.body.venues['bybit']);
  /** Each fill as the fake's trade it came from: execution id, price, and the fee in the coin Bybit's spot rules name, priced against us. */
  const assertFills = (fills: Fill[], orderLinkId: string, side: 'buy' | 'sell') => {
    const venueOrder = fake.order(KEY, orderLinkId);
    assert.ok(venueOrder !== undefined, 'the venue knows the order by our child id as its orderLinkId');
    const trades = fake.exchange.tradesOf(venueOrder.orderId);
    assert.ok(trades.length > 0);
    assert.deepEqual(fills.map((f) => f.trade_id).sort(), trades.map((t) => execIdOf(t.id)).sort());
    for (const f of fills) {
      const t = trades.find((x) => execIdOf(x.id) === f.trade_id)!;
      const coin = spotFeeCoin(side, t.isMaker, false, 'BTC', 'USDT');
      assert.equal(coin, t.commissionAsset, "the fake charges in the coin Bybit's rules name");
      assert.equal(f.commission_asset, coin);
      assert.equal(f.price_1e9, t.price);
      assert.equal(f.qty_1e8, t.qty);
      assert.equal(f.is_maker, t.isMaker);
      if (coin === 'BTC') {
        assert.equal(f.commission_qty_1e8, t.commission);
        assert.equal(f.fee_1e9, Math.ceil((t.commission * t.price) / Q), 'a base fee is worth its quantity at the fill price, rounded up');
      } else assert.equal(f.fee_1e9, t.commission * 10);
    }
  };

  before(async () => {
    fake = new BybitFake(
      [{ symbol: VENUE_SYMBOL, base: 'BTC', quote: 'USDT', bids: [], asks: [] }],
      [{ apiKey: KEY, secret: SECRET, balances: { USDT: { free: 100_000 * Q, locked: 0 }, BTC: { free: 1 * Q, locked: 0 } } }],
    );
    const urls = await fake.listen();
    svc = await startTestService({ liveVenues: [{ venue: 'bybit', endpoints: urls }] });
    await until('service ready', async () => ((await call(svc.base, 'GET', '/v1/health/ready')).status === 200 ? true : undefined), 30_000);
    const others = await until('a simulated NBBO', async () => {
      const q = await call<{ nbbo: { mid: number } }>(svc.base, 'GET', `/v1/quotes/${SYMBOL}`, { token: TEST_OPERATOR_KEY });
      return q.status === 200 && q.body.nbbo.mid > 0 ? q.body.nbbo.mid : undefined;
    }, 15_000);
    mid = Math.round(others) * P;
    for (let i = 0; i < 5; i++) {
      fake.setLevel(VENUE_SYMBOL, 'bid', mid - (i + 1) * P, (i + 1) * 10_000_000);
      fake.setLevel(VENUE_SYMBOL, 'ask', mid + (i + 1) * P, (i + 1) * 10_000_000);
    }
    ({ live: token } = await clientWithKeys(svc, 'bybit-live'));
    const stored = await call(svc.base, 'POST', '/v1/credentials/bybit', { token, body: { api_key: KEY, api_secret: SECRET } });
    assert.equal(stored.status, 200, JSON.stringify(stored.body));
  });

  after(async () => {
    await svc?.stop();
    await fake?.close();
  });

  it("streams the fake's orderbook.50 into /v1/quotes", async () => {
    const quote = await until('bybit in the quote', async () => {
      const q = await bybitQuote();
      return q !== undefined && q.ask === mid / P + 1 && q.bid === mid / P - 1 ? q : undefined;
    });
    assert.ok(quote !== undefined && fake.seen.subscribes >= 1);
  });

  it('an update-id gap resubscribes for a fresh snapshot; a dropped stream reconnects and resyncs', async () => {
    const subscribes = fake.seen.subscribes;
    fake.gap(VENUE_SYMBOL);
    fake.setLevel(VENUE_SYMBOL, 'ask', mid + P / 2, 20_000_000);
    await until('resynced after the gap', async () => (fake.seen.subscribes > subscribes && (await bybitQuote())?.ask === mid / P + 0.5 ? true : undefined));
    const again = fake.seen.subscribes;
    fake.dropStreams();
    fake.setLevel(VENUE_SYMBOL, 'ask', mid + P / 2, 0);
    await until('resynced after the reconnect', async () => (fake.seen.subscribes > again && (await bybitQuote())?.ask === mid / P + 1 ? true : undefined), 15_000);
  });

  it("routes a market order: placed under our child id as its orderLinkId, its fills read back with Bybit's execution ids and fees", async () => {
    await until('balances pulled', async () => {
      const res = await call<{ positions: { instrument: { symbol?: string; code?: string }; qty_1e8: number }[] }>(svc.base, 'GET', '/v1/positions?venues=bybit', { token });
      return res.body.positions?.find((p) => p.instrument.code === 'USDT' || p.instrument.symbol === 'USDT')?.qty_1e8 === 100_000 * Q ? true : undefined;
    });
    const placed = await order({ client_order_id: 'bybit-1', side: 'buy', qty_1e8: 15_000_000, order_type: 'market' });
    const done = await settled(placed.node_order_id);
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    const child = done.children[0]!;
    const orderLinkId = bybitOrderLinkId(child.child_id)!;
    assert.equal(orderLinkId, child.child_id);
    const sent = fake.lastOrder!;
    assert.equal(sent['orderLinkId'], orderLinkId);
    assert.equal(sent['category'], 'spot');
    assert.equal(fake.exchange.tradesOf(fake.order(KEY, orderLinkId)!.orderId).length, 2, 'two ask levels taken');
    assertFills(done.fills ?? [], orderLinkId, 'buy');
    assert.equal(fake.seen.badSignatures, 0);
    assert.equal(fake.seen.staleTimestamps, 0);
    assert.equal(fake.seen.rateLimited, 0, "inside Bybit's per-endpoint limits");
  });

  it("a wrong secret is refused by the venue: the child is rejected with Bybit's retCode and retMsg", async () => {
    const { live: other } = await clientWithKeys(svc, 'bybit-rotated');
    // First the right key (its balances make the order affordable), then a rotated secret the venue does not know.
    assert.equal((await call(svc.base, 'POST', '/v1/credentials/bybit', { token: other, body: { api_key: KEY, api_secret: SECRET } })).status, 200);
    await until('balances pulled', async () => {
      const res = await call<{ positions: { instrument: { symbol?: string; code?: string } }[] }>(svc.base, 'GET', '/v1/positions?venues=bybit', { token: other });
      return res.body.positions?.some((p) => p.instrument.code === 'USDT' || p.instrument.symbol === 'USDT') === true ? true : undefined;
    }, 30_000);
    assert.equal((await call(svc.base, 'POST', '/v1/credentials/bybit', { token: other, body: { api_key: KEY, api_secret: 'wrongBybitSecret0123456789abcdefgh' } })).status, 200);
    const before = fake.seen.badSignatures;
    const orders = fake.seen.orders;
    const placed = await order({ client_order_id: 'bybit-bad', side: 'buy', qty_1e8: 1_000_000, order_type: 'market' }, other);
    const done = await settled(placed.node_order_id, other);
    assert.equal(done.status, 'REJECTED');
    assert.match(done.children[0]!.reason ?? '', /^bybit 10004: error sign! origin_string\[/);
    assert.ok(fake.seen.badSignatures > before);
    assert.equal(fake.seen.orders, orders, 'nothing reached the matching engine');
  });

  it('a lost answer is reconciled by orderLinkId, never doubled; after a Bybit restart the order is found in its history', async () => {
    fake.swallowOrderAnswers = 1;
    fake.realtimeKeepsClosed = false;
    fake.blankFeeCurrency = true;
    const orders = fake.seen.orders;
    const history = fake.seen.historyReads;
    try {
      const placed = await order({ client_order_id: 'bybit-lost', side: 'buy', qty_1e8: 1_000_000, order_type: 'market' });
      const done = await settled(placed.node_order_id, token, 40_000);
      assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
      assert.equal(fake.seen.orders - orders, 1, 'placed once');
      assert.ok(fake.seen.historyReads > history, 'realtime no longer answers a closed order: read from the history');
      // No feeCurrency on the executions: the coin is the one Bybit's spot fee rules name.
      assertFills(done.fills ?? [], bybitOrderLinkId(done.children[0]!.child_id)!, 'buy');
    } finally {
      fake.realtimeKeepsClosed = true;
      fake.blankFeeCurrency = false;
    }
  });

  it('a resting leg fills as maker on the venue, then the kill switch cancels what rests', async () => {
    const resting = await order({ client_order_id: 'bybit-gtc', side: 'buy', qty_1e8: 2_000_000, order_type: 'limit', limit_price_1e9: mid - 20 * P, time_in_force: 'gtc' });
    const venueOrder = await until('the leg rests on the venue', async () => fake.openOrders(KEY)[0]);
    // The venue's fill must come after the edge read the placement, or it is the placement's fill, not a maker fill.
    await until('the router knows the leg rests', async () => {
      const res = await call<ApiOrder>(svc.base, 'GET', `/v1/orders/${resting.node_order_id}`, { token });
      return res.body.children.some((c) => c.status === 'resting') ? true : undefined;
    });
    assert.equal(fake.lastOrder!['timeInForce'], 'GTC');
    fake.fillResting(KEY, venueOrder.clientOrderId, 500_000);
    await until('the maker fill is booked', async () => {
      const res = await call<ApiOrder & { fills?: Fill[] }>(svc.base, 'GET', `/v1/orders/${resting.node_order_id}?expand=fills`, { token });
      return (res.body.fills ?? []).length === 1 ? true : undefined;
    }, 15_000);
    // An order placed on the account by hand: only the edge's cancel-all knows of it.
    const byHand = fake.exchange.place(fake.exchange.account(KEY)!, { symbol: VENUE_SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', qty: 1_000_000, price: mid - 30 * P, clientOrderId: 'placed-by-hand' });
    assert.ok(byHand.ok && fake.openOrders(KEY).length === 2);
    const cancelAlls = fake.seen.cancelAlls;
    assert.equal((await call(svc.base, 'PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: true, reason: 'test' } })).status, 200);
    await until('nothing rests on the venue', async () => (fake.openOrders(KEY).length === 0 ? true : undefined));
    const done = await settled(resting.node_order_id);
    assert.equal(done.status, 'CANCELLED');
    assert.equal(done.filled_qty_1e8, 500_000);
    assertFills(done.fills ?? [], venueOrder.clientOrderId, 'buy');
    assert.equal(done.fills![0]!.is_maker, true);
    assert.ok(fake.seen.cancelAlls > cancelAlls, "the hand-placed order went by the edge's cancel-all");
    await call(svc.base, 'PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: false } });
  });
});
