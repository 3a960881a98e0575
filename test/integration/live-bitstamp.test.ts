/**
 * Bitstamp on its live adapter (LIVE_VENUES=bitstamp) against a local Bitstamp fake on loopback
 * (test/fakes/bitstamp-fake.ts), through the real service: the fake's diff_order_book over a
 * REST snapshot asked only once the subscription succeeded, in /v1/quotes, resynced from a fresh
 * snapshot after a diff stamped back and an unreadable diff, kept whole through
 * `bts:request_reconnect` and a dropped stream (a new subscription, a fresh snapshot); a market
 * order signed with the v2 X-Auth headers, sent once under our child id as its client_order_id,
 * its fills read back from order_status with Bitstamp's transaction ids and fees; a wrong secret
 * refused with the gateway's code and reason; a lost answer, and an answer whose
 * X-Server-Auth-Signature does not verify, each reconciled once; a resting leg's maker fill, then
 * the kill switch's cancel_all_orders while the venue still serves a cached open-orders list.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BitstampFake } from '../fakes/bitstamp-fake.ts';
import { call, TEST_OPERATOR_KEY, until } from '../helpers/service.ts';
import type { ApiFill, ApiOrder } from '../helpers/orders.ts';
import { P, Q, startLiveVenue, type LiveVenueRun, type SettledOrder } from '../helpers/live-venue.ts';

const PAIR = 'btcusd';
const KEY = 'fakeBitstampKey0123456789';
const SECRET = 'fakeBitstampSecret0123456789abcdef';

describe('live Bitstamp adapter against a local fake', { timeout: 150_000 }, () => {
  let fake: BitstampFake;
  let run: LiveVenueRun;
  let mid = 0;

  /** The order's fills are the fake's transactions of the order our child id names: ids, prices, quantities, fees in the counter currency. */
  const assertFills = (done: SettledOrder, makers = 0) => {
    const venueOrder = fake.order(KEY, done.children[0]!.child_id);
    assert.ok(venueOrder !== undefined, 'the venue knows the order by our child id as its client_order_id');
    const trades = fake.exchange.tradesOf(venueOrder.orderId);
    const fills = done.fills ?? [];
    assert.deepEqual(fills.map((f) => f.trade_id).sort(), trades.map((t) => String(t.id)).sort());
    for (const f of fills) {
      const t = trades.find((x) => String(x.id) === f.trade_id)!;
      assert.equal(f.price_1e9, t.price);
      assert.equal(f.qty_1e8, t.qty);
      assert.equal(f.commission_asset, 'USD', 'the fee in the counter currency');
      assert.equal(f.fee_1e9, t.commission * 10);
      assert.equal(f.is_maker, t.isMaker, 'told by its fee: the transactions carry no flag');
    }
    assert.equal(fills.filter((f) => f.is_maker).length, makers);
  };

  before(async () => {
    fake = new BitstampFake(
      [{ symbol: PAIR, base: 'BTC', quote: 'USD', bids: [], asks: [] }],
      [{ apiKey: KEY, secret: SECRET, balances: { USD: { free: 100_000 * Q, locked: 0 }, BTC: { free: 1 * Q, locked: 0 } } }],
    );
    run = await startLiveVenue({ venue: 'bitstamp', symbol: 'BTC-USD', fakeSymbol: PAIR, fake, urls: await fake.listen(), credentials: { api_key: KEY, api_secret: SECRET }, client: 'bitstamp-live' });
    mid = run.mid;
  });

  after(async () => {
    await run?.stop();
    await fake?.close();
  });

  it("streams the fake's diff_order_book into /v1/quotes, over a snapshot asked once the subscription succeeded", async () => {
    const quote = await until('bitstamp in the quote', async () => {
      const q = await run.venueQuote();
      return q !== undefined && q.ask === mid / P + 1 && q.bid === mid / P - 1 ? q : undefined;
    });
    assert.ok(quote !== undefined && fake.seen.subscribes >= 1 && fake.seen.snapshots >= 1);
    assert.equal(fake.seen.snapshotsUnsubscribed, 0);
  });

  it('a diff stamped before the last one, and a diff that cannot be read exactly, each resync the book from a fresh snapshot', async () => {
    let snapshots = fake.seen.snapshots;
    // A change the book applies, then one stamped before it (right after a snapshot it would be taken as in the snapshot).
    fake.setLevel(PAIR, 'bid', mid - 10 * P, 10_000_000);
    fake.stampNextDiffBack = true;
    fake.setLevel(PAIR, 'ask', mid + P, 0);
    await until('resynced after the stamp went back', async () => (fake.seen.snapshots > snapshots && (await run.venueQuote())?.ask === mid / P + 2 ? true : undefined));
    snapshots = fake.seen.snapshots;
    fake.garbleNextDiff = true;
    fake.setLevel(PAIR, 'ask', mid + P, 10_000_000);
    await until('resynced after the unreadable diff', async () => (fake.seen.snapshots > snapshots && (await run.venueQuote())?.ask === mid / P + 1 ? true : undefined));
  });

  it('bts:request_reconnect and a dropped stream each reconnect, resubscribe and resync from a fresh snapshot', async () => {
    const connections = fake.seen.connections;
    const subscribes = fake.seen.subscribes;
    const snapshots = fake.seen.snapshots;
    fake.requestReconnect();
    // Sent after the notice on the same socket: the adapter has left it, so only the new snapshot has it.
    fake.setLevel(PAIR, 'ask', mid + P, 0);
    await until('resynced after bts:request_reconnect', async () => (fake.seen.connections > connections && fake.seen.subscribes > subscribes && (await run.venueQuote())?.ask === mid / P + 2 ? true : undefined), 15_000);
    assert.ok(fake.seen.snapshots > snapshots);
    const again = fake.seen.connections;
    fake.dropStreams();
    fake.setLevel(PAIR, 'ask', mid + P, 10_000_000);
    await until('resynced after the reconnect', async () => (fake.seen.connections > again && (await run.venueQuote())?.ask === mid / P + 1 ? true : undefined), 15_000);
    assert.equal(fake.seen.snapshotsUnsubscribed, 0, 'never a snapshot before the subscription succeeded');
  });

  it("routes a market order: sent once under our child id as its client_order_id, its fills read back from order_status with Bitstamp's ids and fees", async () => {
    await run.balancePulled(run.token, 'USD', 100_000 * Q);
    const orders = fake.seen.orders;
    const placed = await run.order({ client_order_id: 'bitstamp-1', side: 'buy', qty_1e8: 15_000_000, order_type: 'market' });
    const done = await run.settled(placed.node_order_id);
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    assert.equal(fake.seen.orders - orders, 1);
    const child = done.children[0]!;
    const sent = fake.lastOrder!;
    assert.equal(sent.path, `/api/v2/buy/${PAIR}/`, 'a limit order (the SOR always sends a limit)');
    assert.equal(sent.form.get('client_order_id'), child.child_id);
    assert.equal(sent.form.get('ioc_order'), 'True');
    assert.equal(fake.exchange.tradesOf(fake.order(KEY, child.child_id)!.orderId).length, 2, 'two ask levels taken');
    assertFills(done);
    assert.equal(fake.seen.badSignatures, 0);
    assert.equal(fake.seen.nonceReuses, 0);
    assert.equal(fake.seen.staleTimestamps, 0);
    assert.equal(fake.seen.contentTypeErrors, 0, 'bodiless calls (balances, fees) sent no Content-Type');
  });

  it("a wrong secret is refused by the venue: the child is rejected with Bitstamp's code and reason", async () => {
    const other = await run.client('bitstamp-rotated');
    // First the right key (its balances make the order affordable), then a rotated secret the venue does not know.
    await run.storeCredentials(other, { api_key: KEY, api_secret: SECRET });
    await run.balancePulled(other, 'USD');
    await run.storeCredentials(other, { api_key: KEY, api_secret: 'wrongBitstampSecret0123456789abcd' });
    const before = fake.seen.badSignatures;
    const orders = fake.seen.orders;
    const placed = await run.order({ client_order_id: 'bitstamp-bad', side: 'buy', qty_1e8: 1_000_000, order_type: 'market' }, other);
    const done = await run.settled(placed.node_order_id, other);
    assert.equal(done.status, 'REJECTED');
    assert.match(done.children[0]!.reason ?? '', /^bitstamp API0005: Invalid signature$/);
    assert.ok(fake.seen.badSignatures > before);
    assert.equal(fake.seen.orders, orders, 'nothing reached the matching engine');
  });

  it('a lost answer is reconciled from order_status by client_order_id, never sent again', async () => {
    fake.swallowOrderAnswers = 1;
    const orders = fake.seen.orders;
    const placed = await run.order({ client_order_id: 'bitstamp-lost', side: 'buy', qty_1e8: 1_000_000, order_type: 'market' });
    const done = await run.settled(placed.node_order_id, run.token, 40_000);
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    assert.equal(fake.seen.orders - orders, 1, 'placed once');
    assert.equal(fake.seen.repeatedClientOrderIds, 0);
    assertFills(done);
  });

  it('an answer whose X-Server-Auth-Signature does not verify leaves the fate unknown: reconciled, never sent again', async () => {
    fake.badAnswerSignatures = 1;
    const orders = fake.seen.orders;
    const placed = await run.order({ client_order_id: 'bitstamp-unsigned', side: 'sell', qty_1e8: 1_000_000, order_type: 'market' });
    const done = await run.settled(placed.node_order_id, run.token, 40_000);
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    assert.equal(fake.badAnswerSignatures, 0, 'the answer went out with a signature that does not verify');
    assert.equal(fake.seen.orders - orders, 1, 'placed once');
    assert.equal(fake.seen.repeatedClientOrderIds, 0);
    assertFills(done);
  });

  it("a resting leg fills as maker on the venue, then the kill switch cancels what rests, though the venue's open-orders list is cached", async () => {
    // Someone read the open orders just now: for 10 s the venue serves that list, without the leg.
    fake.cacheOpenOrders(KEY);
    const resting = await run.order({ client_order_id: 'bitstamp-gtc', side: 'buy', qty_1e8: 2_000_000, order_type: 'limit', limit_price_1e9: mid - 20 * P, time_in_force: 'gtc' });
    const venueOrder = await until('the leg rests on the venue', async () => fake.openOrders(KEY)[0]);
    assert.equal(fake.lastOrder!.form.get('ioc_order'), null, 'a GTC limit: no flag');
    // The venue's fill must come after the edge read the placement, or it is the placement's fill, not a maker fill.
    await until('the router knows the leg rests', async () => {
      const res = await call<ApiOrder>(run.svc.base, 'GET', `/v1/orders/${resting.node_order_id}`, { token: run.token });
      return res.body.children.some((c) => c.status === 'resting') ? true : undefined;
    });
    fake.fillResting(KEY, venueOrder.clientOrderId, 500_000);
    await until('the maker fill is booked', async () => {
      const res = await call<ApiOrder & { fills?: ApiFill[] }>(run.svc.base, 'GET', `/v1/orders/${resting.node_order_id}?expand=fills`, { token: run.token });
      return (res.body.fills ?? []).length === 1 ? true : undefined;
    }, 15_000);
    // An order placed on the account by hand: only the edge's cancel-all knows of it.
    assert.ok(fake.placeByHand(KEY, PAIR, 'BUY', 1_000_000, mid - 30 * P, 'placed-by-hand'));
    const cancelAlls = fake.seen.cancelAlls;
    assert.equal((await call(run.svc.base, 'PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: true, reason: 'test' } })).status, 200);
    await until('nothing rests on the venue', async () => (fake.openOrders(KEY).length === 0 ? true : undefined));
    assert.ok(fake.seen.cancelAlls > cancelAlls, "the orders went by the edge's cancel_all_orders/btcusd/");
    const done = await run.settled(resting.node_order_id);
    assert.equal(done.status, 'CANCELLED');
    assert.equal(done.filled_qty_1e8, 500_000);
    assertFills(done, 1);
    await call(run.svc.base, 'PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: false } });
  });
});
