/**
 * Binance on its live adapter (LIVE_VENUES=binance) against a local protocol fake on loopback
 * (test/fakes/binance-fake.ts), through the real service: the fake's book in /v1/quotes, a
 * routed market order signed, sent, filled and booked with the fake's trade ids and commissions,
 * balances pulled from the venue, a bad signature refused with the venue's message, a depth gap
 * resynced, a lost answer reconciled without a duplicate, a resting order's maker fill, and the
 * kill switch cancelling what rests on the venue.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BinanceFake } from '../fakes/binance-fake.ts';
import { call, clientWithKeys, startTestService, TEST_OPERATOR_KEY, until, type TestService } from '../helpers/service.ts';
import { TERMINAL, type ApiFill, type ApiOrder } from '../helpers/orders.ts';

const SYMBOL = 'BTC-USDT';
const KEY = 'fake-binance-key-0123456789';
const SECRET = 'fake-binance-secret-0123456789abcdef';
const P = 1e9;
const Q = 1e8;

interface Quote {
  venues: Record<string, { bid: number; ask: number; bid_size: number; ask_size: number }>;
}
interface Position {
  venue: string;
  instrument: { symbol: string };
  qty_1e8: number;
}

describe('live Binance adapter against a local fake', { timeout: 120_000 }, () => {
  let fake: BinanceFake;
  let svc: TestService;
  let token: string;
  let mid = 0;

  const order = async (body: Record<string, unknown>, t = token) => {
    const res = await call<ApiOrder>(svc.base, 'POST', '/v1/orders', { token: t, body: { symbol: SYMBOL, venue: 'binance', ...body } });
    assert.ok(res.status === 201 || res.status === 200, JSON.stringify(res.body));
    return res.body;
  };
  const settled = (id: string, t = token, timeoutMs = 20_000) =>
    until(`order ${id} settles`, async () => {
      const res = await call<ApiOrder & { fills?: ApiFill[] }>(svc.base, 'GET', `/v1/orders/${id}?expand=fills`, { token: t });
      return TERMINAL.has(res.body.status) ? res.body : undefined;
    }, timeoutMs, 100);
  const binanceQuote = () => call<Quote>(svc.base, 'GET', `/v1/quotes/${SYMBOL}`, { token: TEST_OPERATOR_KEY }).then((r) => r.body.venues['binance']);

  before(async () => {
    fake = new BinanceFake(
      [{ symbol: 'BTCUSDT', base: 'BTC', quote: 'USDT', bids: [], asks: [] }],
      [{ apiKey: KEY, secret: SECRET, balances: { USDT: { free: 100_000 * Q, locked: 0 }, BTC: { free: 1 * Q, locked: 0 } } }],
    );
    const urls = await fake.listen();
    svc = await startTestService({ liveVenues: [{ venue: 'binance', endpoints: urls }] });
    await until('service ready', async () => ((await call(svc.base, 'GET', '/v1/health/ready')).status === 200 ? true : undefined), 30_000);
    // The fake's book around the simulated venues' mid, so the consolidated quote stays sane.
    const others = await until('a simulated NBBO', async () => {
      const q = await call<{ nbbo: { mid: number } }>(svc.base, 'GET', `/v1/quotes/${SYMBOL}`, { token: TEST_OPERATOR_KEY });
      return q.status === 200 && q.body.nbbo.mid > 0 ? q.body.nbbo.mid : undefined;
    }, 15_000);
    mid = Math.round(others) * P;
    for (let i = 0; i < 5; i++) {
      fake.setLevel('BTCUSDT', 'bid', mid - (i + 1) * P, (i + 1) * 10_000_000);
      fake.setLevel('BTCUSDT', 'ask', mid + (i + 1) * P, (i + 1) * 10_000_000);
    }
    ({ live: token } = await clientWithKeys(svc, 'binance-live'));
    const stored = await call(svc.base, 'POST', '/v1/credentials/binance', { token, body: { api_key: KEY, api_secret: SECRET } });
    assert.equal(stored.status, 200, JSON.stringify(stored.body));
  });

  after(async () => {
    await svc?.stop();
    await fake?.close();
  });

  it("streams the fake's book into /v1/quotes", async () => {
    const quote = await until('binance in the quote', async () => {
      const q = await binanceQuote();
      return q !== undefined && q.ask === mid / P + 1 ? q : undefined;
    });
    assert.equal(quote.bid, mid / P - 1);
    assert.equal(quote.bid_size, 0.1);
    assert.equal(quote.ask_size, 0.1);
    assert.ok(fake.seen.snapshots >= 1 && fake.seen.subscribes >= 1);
  });

  it("pulls the account's balances from the venue into positions", async () => {
    const positions = await until('binance balances', async () => {
      const res = await call<{ positions: Position[] }>(svc.base, 'GET', '/v1/positions?venues=binance', { token });
      const usdt = res.body.positions?.find((p) => p.instrument.symbol === 'USDT');
      return usdt !== undefined ? res.body.positions : undefined;
    });
    assert.equal(positions.find((p) => p.instrument.symbol === 'USDT')?.qty_1e8, 100_000 * Q);
    assert.equal(positions.find((p) => p.instrument.symbol === 'BTC')?.qty_1e8, 1 * Q);
  });

  it("a key the venue reports able to withdraw is flagged unsafe in the credential listing and /v1/health", async () => {
    assert.deepEqual((await call(svc.base, 'GET', '/v1/credentials', { token })).body, { venues: ['binance'], unsafe: [] });
    fake.account(KEY).canWithdraw = true;
    const { live: other } = await clientWithKeys(svc, 'binance-withdrawer');
    assert.equal((await call(svc.base, 'POST', '/v1/credentials/binance', { token: other, body: { api_key: KEY, api_secret: SECRET } })).status, 200);
    await until('flagged unsafe', async () => {
      const listed = await call<{ unsafe: string[] }>(svc.base, 'GET', '/v1/credentials', { token: other });
      return listed.body.unsafe.includes('binance') ? true : undefined;
    });
    assert.equal((await call<{ unsafe_credentials: number }>(svc.base, 'GET', '/v1/health')).body.unsafe_credentials, 1);
    assert.deepEqual((await call(svc.base, 'GET', '/v1/credentials', { token })).body, { venues: ['binance'], unsafe: [] }, 'probed before the permission changed');
    assert.equal((await call(svc.base, 'DELETE', '/v1/credentials/binance', { token: other })).status, 200);
    assert.equal((await call<{ unsafe_credentials: number }>(svc.base, 'GET', '/v1/health')).body.unsafe_credentials, 0);
    fake.account(KEY).canWithdraw = false;
  });

  it('routes a market order to the venue: signed, filled and booked with its trade ids and commissions', async () => {
    // A deposit the service cannot know of: only a pull of the venue's balances brings it in.
    fake.account(KEY).balances['USDT']!.free += 500 * Q;
    const placed = await order({ client_order_id: 'live-1', side: 'buy', qty_1e8: 15_000_000, order_type: 'market' });
    const done = await settled(placed.node_order_id);
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    const child = done.children[0]!;
    const venueOrder = fake.order(KEY, child.child_id);
    assert.ok(venueOrder !== undefined, 'the venue knows the order by our child id');
    assert.equal(venueOrder.status, 'FILLED');
    const trades = fake.tradesOf(venueOrder.orderId);
    assert.equal(trades.length, 2, '0.1 at the best ask, 0.05 at the next');
    const fills = (done as { fills?: (ApiFill & { commission_asset: string; venue_reported_cum_fee_1e9: number })[] }).fills ?? [];
    assert.deepEqual(fills.map((f) => f.trade_id).sort(), trades.map((t) => String(t.id)).sort());
    assert.deepEqual(fills.map((f) => [f.qty_1e8, f.price_1e9]).sort(), trades.map((t) => [t.qty, t.price]).sort());
    // Binance takes a buy's commission in the base received: 10 bps of each fill's BTC, at its price in USD.
    for (const f of fills) {
      const t = trades.find((x) => String(x.id) === f.trade_id)!;
      assert.equal(f.commission_asset, 'BTC');
      assert.equal(f.fee_1e9, Math.ceil((t.commission * t.price) / Q));
    }
    assert.equal(fake.seen.badSignatures, 0);
    // Once the order has ended, the venue's balances are pulled again: the ledger is the venue's.
    const venue = fake.account(KEY).balances;
    await until('balances pulled after the fills', async () => {
      const res = await call<{ positions: Position[] }>(svc.base, 'GET', '/v1/positions?venues=binance', { token });
      const qty = (asset: string) => res.body.positions?.find((p) => p.instrument.symbol === asset)?.qty_1e8;
      return qty('USDT') === venue['USDT']!.free + venue['USDT']!.locked && qty('BTC') === venue['BTC']!.free + venue['BTC']!.locked ? true : undefined;
    });
  });

  it("a bad signature is refused by the venue: the child is rejected with the venue's message", async () => {
    // A client whose key was good when its balances were pulled, then replaced by a wrong secret
    // (a key rotated at the venue): the order passes risk and the venue refuses its signature.
    const { live: other } = await clientWithKeys(svc, 'binance-rotated');
    assert.equal((await call(svc.base, 'POST', '/v1/credentials/binance', { token: other, body: { api_key: KEY, api_secret: SECRET } })).status, 200);
    await until('balances pulled', async () => {
      const res = await call<{ positions: Position[] }>(svc.base, 'GET', '/v1/positions?venues=binance', { token: other });
      return res.body.positions?.some((p) => p.instrument.symbol === 'USDT') === true ? true : undefined;
    });
    assert.equal((await call(svc.base, 'POST', '/v1/credentials/binance', { token: other, body: { api_key: KEY, api_secret: 'not-the-secret-0123456789' } })).status, 200);
    const before = fake.seen.badSignatures;
    const placed = await order({ client_order_id: 'bad-sig', side: 'buy', qty_1e8: 1_000_000, order_type: 'market' }, other);
    const done = await settled(placed.node_order_id, other);
    assert.equal(done.status, 'REJECTED', JSON.stringify(done));
    assert.match(done.children[0]!.reason ?? '', /binance -1022: Signature for this request is not valid\./);
    assert.ok(fake.seen.badSignatures > before, 'the fake saw and refused the bad signature');
    assert.equal(fake.order(KEY, done.children[0]!.child_id), undefined, 'nothing reached the book');
  });

  it('a gap in the depth stream resyncs the book from a new snapshot', async () => {
    const snapshots = fake.seen.snapshots;
    fake.gap('BTCUSDT');
    fake.setLevel('BTCUSDT', 'ask', mid + 1 * P / 2, 20_000_000);
    await until('resynced with the new level', async () => {
      const q = await binanceQuote();
      return fake.seen.snapshots > snapshots && q !== undefined && q.ask === mid / P + 0.5 ? true : undefined;
    });
    fake.setLevel('BTCUSDT', 'ask', mid + 1 * P / 2, 0);
  });

  it('a dropped stream is reported in /v1/health/feeds until the book is whole again: reconnected, resubscribed, resynced', async () => {
    const feed = async () => (await call<{ venues: { edge_id: string; connected: boolean; symbol_count: number }[] }>(svc.base, 'GET', '/v1/health/feeds', { token: TEST_OPERATOR_KEY })).body.venues.find((v) => v.edge_id === 'venue-edge-binance');
    const subscribes = fake.seen.subscribes;
    const snapshots = fake.seen.snapshots;
    fake.snapshotDelayMs = 1_500;
    fake.dropStreams();
    await until('binance reported not publishing', async () => ((await feed())?.connected === false ? true : undefined));
    fake.snapshotDelayMs = 0;
    await until('binance publishing again', async () => ((await feed())?.connected === true ? true : undefined));
    assert.ok(fake.seen.subscribes > subscribes, 'resubscribed on the new connection');
    assert.ok(fake.seen.snapshots > snapshots, 'a fresh snapshot');
    fake.setLevel('BTCUSDT', 'bid', mid - P / 2, 30_000_000);
    await until('updates flow again', async () => ((await binanceQuote())?.bid === mid / P - 0.5 ? true : undefined));
    fake.setLevel('BTCUSDT', 'bid', mid - P / 2, 0);
  });

  it('a lost answer goes UNCONFIRMED and is reconciled from the venue by client order id, never doubled', async () => {
    fake.swallowOrderAnswers = 1;
    const ordersBefore = fake.seen.orders;
    const placed = await order({ client_order_id: 'live-lost', side: 'buy', qty_1e8: 1_000_000, order_type: 'market' });
    const done = await settled(placed.node_order_id, token, 40_000);
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    assert.equal(fake.seen.orders - ordersBefore, 1, 'sent once');
    const venueOrder = fake.order(KEY, done.children[0]!.child_id)!;
    const fills = (done as { fills?: ApiFill[] }).fills ?? [];
    assert.deepEqual(fills.map((f) => f.trade_id), fake.tradesOf(venueOrder.orderId).map((t) => String(t.id)));
    assert.ok(fake.seen.lookups >= 1, 'looked up by client order id');
  });

  it("a 429 rejects the child with the venue's answer and closes the venue for its Retry-After; nothing is sent meanwhile", async () => {
    fake.weightLimit = 0;
    const first = await order({ client_order_id: 'rate-1', side: 'buy', qty_1e8: 1_000_000, order_type: 'market' });
    const refused = await settled(first.node_order_id);
    assert.equal(refused.status, 'REJECTED');
    assert.match(refused.children[0]!.reason ?? '', /binance -1003: Too many requests/);
    fake.weightLimit = 6_000;
    const requests = fake.seen.requests;
    const second = await order({ client_order_id: 'rate-2', side: 'buy', qty_1e8: 1_000_000, order_type: 'market' });
    const held = await settled(second.node_order_id);
    assert.equal(held.status, 'REJECTED');
    assert.match(held.children[0]!.reason ?? '', /rate limit/);
    assert.equal(fake.order(KEY, held.children[0]!.child_id), undefined);
    assert.ok(fake.seen.requests - requests <= 1, 'at most a depth resync reached the venue, never the order');
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const third = await order({ client_order_id: 'rate-3', side: 'buy', qty_1e8: 1_000_000, order_type: 'market' });
    assert.equal((await settled(third.node_order_id)).status, 'COMPLETED');
  });

  it("a resting order's maker fill reaches the order; the kill switch cancels what rests on the venue", async () => {
    const price = mid - 20 * P;
    const resting = await order({ client_order_id: 'live-gtc', side: 'buy', qty_1e8: 2_000_000, order_type: 'limit', limit_price_1e9: price, time_in_force: 'gtc' });
    const child = await until('the leg rests on the venue', async () => fake.openOrders(KEY)[0]);
    fake.fillResting(KEY, child.clientOrderId, 500_000);
    await until('the maker fill is booked', async () => {
      const res = await call<ApiOrder>(svc.base, 'GET', `/v1/orders/${resting.node_order_id}`, { token });
      return res.body.filled_qty_1e8 === 500_000 ? true : undefined;
    });
    const halt = await call(svc.base, 'PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: true, reason: 'test' } });
    assert.equal(halt.status, 200, JSON.stringify(halt.body));
    await until('nothing rests on the venue', async () => (fake.openOrders(KEY).length === 0 ? true : undefined));
    assert.equal(fake.order(KEY, child.clientOrderId)?.status, 'CANCELED');
    // /v1/health/safety says what the venue's cancel-all did (the routers' own cancels may have been first).
    const safety = await until('the venue reported', async () => {
      const res = await call<{ error: { code: string; details: { field: string; message: string }[] } }>(svc.base, 'GET', '/v1/health/safety');
      return res.status === 503 && res.body.error.details.length > 0 ? res.body.error : undefined;
    });
    assert.equal(safety.code, 'DISPATCH_HALTED');
    assert.deepEqual(safety.details.map((d) => d.field), ['binance']);
    // The client whose key was replaced by a wrong secret is refused by the venue: reported, not hidden.
    assert.match(safety.details[0]!.message, /^cancel-all at .*: [01] open orders cancelled on the venue; accounts the venue refused or did not answer: 1$/);
    assert.ok(fake.seen.cancelAlls >= 1, 'DELETE /api/v3/openOrders was sent');
    const done = await settled(resting.node_order_id);
    assert.equal(done.filled_qty_1e8, 500_000);
    await call(svc.base, 'PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: false } });
  });

  it('after a restart, an order of the last run still open on the venue is cancelled; one placed by hand is left alone', async () => {
    const urls = (svc.config.liveVenues ?? [])[0]!.endpoints;
    await svc.stop(false);
    // Left open on the venue as if by a run that crashed: one of ours (a child id), one placed by hand.
    const account = fake.account(KEY);
    for (const clientOrderId of ['ord_0crashed00001-1', 'by-hand-1']) {
      const placed = fake.exchange.place(account, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', qty: 1_000_000, price: 900 * P, clientOrderId });
      assert.ok(placed.ok && placed.order.status === 'NEW');
    }
    svc = await startTestService({ dataDir: svc.dataDir, liveVenues: [{ venue: 'binance', endpoints: urls }] });
    await until('the leftover cancelled', async () => (fake.order(KEY, 'ord_0crashed00001-1')?.status === 'CANCELED' ? true : undefined), 30_000);
    assert.equal(fake.order(KEY, 'by-hand-1')?.status, 'NEW');
  });
});
