/**
 * Binance on its live adapter (LIVE_VENUES=binance) against a local protocol fake on loopback
 * (test/fakes/binance-fake.ts), through the real service: the fake's book in /v1/quotes, a
 * routed market order signed, sent, filled and booked with the fake's trade ids and commissions,
 * balances pulled from the venue, a bad signature refused with the venue's message, a depth gap
 * resynced, a lost answer reconciled without a duplicate, a resting order's maker fill, and the
 * kill switch cancelling what rests on the venue.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BinanceFake } from '../fakes/binance-fake.ts';
import { call, TEST_OPERATOR_KEY, until } from '../helpers/service.ts';
import { assertFillsAre, P, Q, withLiveVenue } from '../helpers/live-venue.ts';

const VENUE_SYMBOL = 'BTCUSDT';
const KEY = 'fake-binance-key-0123456789';
const SECRET = 'fake-binance-secret-0123456789abcdef';

describe('live Binance adapter against a local fake', { timeout: 120_000 }, () => {
  const run = withLiveVenue({ venue: 'binance', symbol: 'BTC-USDT', fakeSymbol: VENUE_SYMBOL, quote: 'USDT', fake: (markets, accounts) => new BinanceFake(markets, accounts), credentials: { api_key: KEY, api_secret: SECRET }, client: 'binance-live' });
  const fake = run.fake;
  const credentialsOf = async (token: string) => (await call<{ venues: string[]; unsafe: string[] }>(run.svc.base, 'GET', '/v1/credentials', { token })).body;
  const unsafeInHealth = async () => (await call<{ unsafe_credentials: number }>(run.svc.base, 'GET', '/v1/health')).body.unsafe_credentials;

  it("streams the fake's book into /v1/quotes", async () => {
    const quote = await run.seededQuote();
    assert.equal(quote.bid, run.mid / P - 1);
    assert.equal(quote.bid_size, 0.1);
    assert.equal(quote.ask_size, 0.1);
    assert.ok(fake.seen.snapshots >= 1 && fake.seen.subscribes >= 1);
  });

  it("pulls the account's balances from the venue into positions", async () => {
    const positions = await until('binance balances', async () => {
      const rows = await run.positions();
      return rows.some((p) => p.instrument.symbol === 'USDT') ? rows : undefined;
    });
    assert.equal(positions.find((p) => p.instrument.symbol === 'USDT')?.qty_1e8, 100_000 * Q);
    assert.equal(positions.find((p) => p.instrument.symbol === 'BTC')?.qty_1e8, 1 * Q);
  });

  it('a key the venue reports able to withdraw is flagged unsafe in the credential listing and /v1/health', async () => {
    assert.deepEqual(await credentialsOf(run.token), { venues: ['binance'], unsafe: [] });
    fake.account(KEY).canWithdraw = true;
    const other = await run.client('binance-withdrawer');
    await run.storeCredentials(other, { api_key: KEY, api_secret: SECRET });
    await until('flagged unsafe', async () => ((await credentialsOf(other)).unsafe.includes('binance') ? true : undefined));
    assert.equal(await unsafeInHealth(), 1);
    assert.deepEqual(await credentialsOf(run.token), { venues: ['binance'], unsafe: [] }, 'probed before the permission changed');
    assert.equal((await call(run.svc.base, 'DELETE', '/v1/credentials/binance', { token: other })).status, 200);
    assert.equal(await unsafeInHealth(), 0);
    fake.account(KEY).canWithdraw = false;
  });

  it('routes a market order to the venue: signed, filled and booked with its trade ids and commissions', async () => {
    // A deposit the service cannot know of: only a pull of the venue's balances brings it in.
    fake.account(KEY).balances['USDT']!.free += 500 * Q;
    const done = await run.marketBuy('live-1', 15_000_000);
    const venueOrder = run.venueOrder(done);
    assert.equal(venueOrder.status, 'FILLED');
    const trades = fake.tradesOf(venueOrder.orderId);
    assert.equal(trades.length, 2, '0.1 at the best ask, 0.05 at the next');
    assert.deepEqual((done.fills ?? []).map((f) => [f.qty_1e8, f.price_1e9]).sort(), trades.map((t) => [t.qty, t.price]).sort());
    // Binance takes a buy's commission in the base received: 10 bps of each fill's BTC, at its price in USD.
    assertFillsAre(done, trades, (t) => String(t.id), (f, t) => {
      assert.equal(f.commission_asset, 'BTC');
      assert.equal(f.fee_1e9, Math.ceil((t.commission * t.price) / Q));
    });
    assert.equal(fake.seen.badSignatures, 0);
    // Once the order has ended, the venue's balances are pulled again: the ledger is the venue's.
    const venue = fake.account(KEY).balances;
    await until('balances pulled after the fills', async () => {
      const rows = await run.positions();
      const qty = (asset: string) => rows.find((p) => p.instrument.symbol === asset)?.qty_1e8;
      return qty('USDT') === venue['USDT']!.free + venue['USDT']!.locked && qty('BTC') === venue['BTC']!.free + venue['BTC']!.locked ? true : undefined;
    });
  });

  it("a bad signature is refused by the venue: the child is rejected with the venue's message", async () => {
    // A client whose key was good when its balances were pulled, then replaced by a wrong secret
    // (a key rotated at the venue): the order passes risk and the venue refuses its signature.
    const done = await run.refusedBuy('binance-rotated', 'USDT', { api_secret: 'not-the-secret-0123456789' }, 'bad-sig', () => fake.seen.badSignatures);
    assert.match(done.children[0]!.reason ?? '', /binance -1022: Signature for this request is not valid\./);
    assert.equal(fake.order(KEY, done.children[0]!.child_id), undefined, 'nothing reached the book');
  });

  it('a gap in the depth stream resyncs the book from a new snapshot', async () => {
    await run.resyncs('resynced with the new level', () => fake.seen.snapshots, () => fake.gap(VENUE_SYMBOL), 'ask', 20_000_000);
    fake.setLevel(VENUE_SYMBOL, 'ask', run.mid + P / 2, 0);
  });

  it('a dropped stream is reported in /v1/health/feeds until the book is whole again: reconnected, resubscribed, resynced', async () => {
    const feed = async () => (await call<{ venues: { edge_id: string; connected: boolean; symbol_count: number }[] }>(run.svc.base, 'GET', '/v1/health/feeds', { token: TEST_OPERATOR_KEY })).body.venues.find((v) => v.edge_id === 'venue-edge-binance');
    const subscribes = fake.seen.subscribes;
    const snapshots = fake.seen.snapshots;
    fake.snapshotDelayMs = 1_500;
    fake.dropStreams();
    await until('binance reported not publishing', async () => ((await feed())?.connected === false ? true : undefined));
    fake.snapshotDelayMs = 0;
    await until('binance publishing again', async () => ((await feed())?.connected === true ? true : undefined));
    assert.ok(fake.seen.subscribes > subscribes, 'resubscribed on the new connection');
    assert.ok(fake.seen.snapshots > snapshots, 'a fresh snapshot');
    await run.quoted('bid', 30_000_000, 'updates flow again');
    fake.setLevel(VENUE_SYMBOL, 'bid', run.mid - P / 2, 0);
  });

  it('a lost answer goes UNCONFIRMED and is reconciled from the venue by client order id, never doubled', async () => {
    const done = await run.lostAnswer('live-lost');
    const venueOrder = run.venueOrder(done);
    assert.deepEqual((done.fills ?? []).map((f) => f.trade_id), fake.tradesOf(venueOrder.orderId).map((t) => String(t.id)));
    assert.ok(fake.seen.lookups >= 1, 'looked up by client order id');
  });

  it("a 429 rejects the child with the venue's answer and closes the venue for its Retry-After; nothing is sent meanwhile", async () => {
    fake.weightLimit = 0;
    const refused = await run.marketBuy('rate-1', 1_000_000, { status: 'REJECTED' });
    assert.match(refused.children[0]!.reason ?? '', /binance -1003: Too many requests/);
    fake.weightLimit = 6_000;
    const requests = fake.seen.requests;
    const held = await run.marketBuy('rate-2', 1_000_000, { status: 'REJECTED' });
    assert.match(held.children[0]!.reason ?? '', /rate limit/);
    assert.equal(fake.order(KEY, held.children[0]!.child_id), undefined);
    assert.ok(fake.seen.requests - requests <= 1, 'at most a depth resync reached the venue, never the order');
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await run.marketBuy('rate-3', 1_000_000);
  });

  it("a resting order's maker fill reaches the order; the kill switch cancels what rests on the venue", async () => {
    const leg = await run.restingLeg('live-gtc');
    await run.makerFill(leg);
    await run.halt();
    assert.equal(fake.order(KEY, leg.onVenue.clientOrderId)?.status, 'CANCELED');
    // /v1/health/safety says what the venue's cancel-all did (the routers' own cancels may have been first).
    const safety = await until('the venue reported', async () => {
      const res = await call<{ error: { code: string; details: { field: string; message: string }[] } }>(run.svc.base, 'GET', '/v1/health/safety');
      return res.status === 503 && res.body.error.details.length > 0 ? res.body.error : undefined;
    });
    assert.equal(safety.code, 'DISPATCH_HALTED');
    assert.deepEqual(safety.details.map((d) => d.field), ['binance']);
    // The client whose key was replaced by a wrong secret is refused by the venue: reported, not hidden.
    assert.match(safety.details[0]!.message, /^cancel-all at .*: [01] open orders cancelled on the venue; accounts the venue refused or did not answer: 1$/);
    assert.ok(fake.seen.cancelAlls >= 1, 'DELETE /api/v3/openOrders was sent');
    const done = await run.settled(leg.order.node_order_id);
    assert.equal(done.filled_qty_1e8, 500_000);
    await run.release();
  });

  it('after a restart, an order of the last run still open on the venue is cancelled; one placed by hand is left alone', async () => {
    await run.restart(() => {
      // Left open on the venue as if by a run that crashed: one of ours (a child id), one placed by hand.
      for (const clientOrderId of ['ord_0crashed00001-1', 'by-hand-1']) {
        const placed = fake.exchange.place(fake.account(KEY), { symbol: VENUE_SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', qty: 1_000_000, price: 900 * P, clientOrderId });
        assert.ok(placed.ok && placed.order.status === 'NEW');
      }
    });
    await until('the leftover cancelled', async () => (fake.order(KEY, 'ord_0crashed00001-1')?.status === 'CANCELED' ? true : undefined), 30_000);
    assert.equal(fake.order(KEY, 'by-hand-1')?.status, 'NEW');
  });
});
