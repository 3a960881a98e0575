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
import { call, TEST_OPERATOR_KEY, until } from '../helpers/service.ts';
import type { ApiFill, ApiOrder } from '../helpers/orders.ts';
import { P, Q, startLiveVenue, type LiveVenueRun } from '../helpers/live-venue.ts';
import { krakenClientOrderId } from '../../actors/edge/live/kraken/codec.ts';

const WS_SYMBOL = 'BTC/USD';
const KEY = 'fake-kraken-key-0123456789';
const SECRET = Buffer.from('fake-kraken-secret-0123456789abcdef-64-bytes-of-key-material-here').toString('base64');

describe('live Kraken adapter against a local fake', { timeout: 120_000 }, () => {
  let fake: KrakenFake;
  let run: LiveVenueRun;
  let mid = 0;

  before(async () => {
    fake = new KrakenFake(
      [{ symbol: WS_SYMBOL, base: 'BTC', quote: 'USD', bids: [], asks: [] }],
      [{ apiKey: KEY, secret: SECRET, balances: { USD: { free: 100_000 * Q, locked: 0 }, BTC: { free: 1 * Q, locked: 0 } } }],
    );
    run = await startLiveVenue({ venue: 'kraken', symbol: 'BTC-USD', fakeSymbol: WS_SYMBOL, fake, urls: await fake.listen(), credentials: { api_key: KEY, api_secret: SECRET }, client: 'kraken-live' });
    mid = run.mid;
  });

  after(async () => {
    await run?.stop();
    await fake?.close();
  });

  it("streams the fake's v2 book into /v1/quotes, each message held to its checksum", async () => {
    const quote = await until('kraken in the quote', async () => {
      const q = await run.venueQuote();
      return q !== undefined && q.ask === mid / P + 1 && q.bid === mid / P - 1 ? q : undefined;
    });
    assert.ok(quote !== undefined && fake.seen.subscribes >= 1);
  });

  it('a checksum mismatch resubscribes for a fresh snapshot; a dropped stream reconnects and resyncs', async () => {
    const subscribes = fake.seen.subscribes;
    fake.corruptNextChecksum = true;
    fake.setLevel(WS_SYMBOL, 'ask', mid + P / 2, 20_000_000);
    await until('resynced after the checksum mismatch', async () => (fake.seen.subscribes > subscribes && (await run.venueQuote())?.ask === mid / P + 0.5 ? true : undefined));
    const again = fake.seen.subscribes;
    fake.dropStreams();
    fake.setLevel(WS_SYMBOL, 'ask', mid + P / 2, 0);
    await until('resynced after the reconnect', async () => (fake.seen.subscribes > again && (await run.venueQuote())?.ask === mid / P + 1 ? true : undefined), 15_000);
  });

  it('routes a market order: placed under the cl_ord_id of our child id with a deadline, its fills read back with trade ids and quote fees', async () => {
    await run.balancePulled(run.token, 'USD', 100_000 * Q);
    const placed = await run.order({ client_order_id: 'kraken-1', side: 'buy', qty_1e8: 15_000_000, order_type: 'market' });
    const done = await run.settled(placed.node_order_id);
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
    const other = await run.client('kraken-rotated');
    // First the right key (its balances make the order affordable), then a rotated secret the venue does not know.
    await run.storeCredentials(other, { api_key: KEY, api_secret: SECRET });
    await run.balancePulled(other, 'USD');
    await run.storeCredentials(other, { api_key: KEY, api_secret: Buffer.from('wrong-secret-0123456789').toString('base64') });
    const before = fake.seen.badSignatures;
    const placed = await run.order({ client_order_id: 'kraken-bad', side: 'buy', qty_1e8: 1_000_000, order_type: 'market' }, other);
    const done = await run.settled(placed.node_order_id, other);
    assert.equal(done.status, 'REJECTED');
    assert.match(done.children[0]!.reason ?? '', /kraken EAPI:Invalid signature/);
    assert.ok(fake.seen.badSignatures > before);
  });

  it('a lost answer is reconciled from the venue by cl_ord_id, never doubled', async () => {
    fake.swallowOrderAnswers = 1;
    const orders = fake.seen.orders;
    const placed = await run.order({ client_order_id: 'kraken-lost', side: 'buy', qty_1e8: 1_000_000, order_type: 'market' });
    const done = await run.settled(placed.node_order_id, run.token, 40_000);
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    assert.equal(fake.seen.orders - orders, 1, 'placed once');
    const venueOrder = fake.order(KEY, krakenClientOrderId(done.children[0]!.child_id)!)!;
    assert.deepEqual((done.fills ?? []).map((f) => f.trade_id), fake.exchange.tradesOf(venueOrder.orderId).map((t) => `T${t.id}-FAKE0-TRADE0`));
  });

  it('a resting leg fills as maker on the venue, then the kill switch cancels what rests', async () => {
    const resting = await run.order({ client_order_id: 'kraken-gtc', side: 'buy', qty_1e8: 2_000_000, order_type: 'limit', limit_price_1e9: mid - 20 * P, time_in_force: 'gtc' });
    const venueOrder = await until('the leg rests on the venue', async () => fake.openOrders(KEY)[0]);
    fake.fillResting(KEY, venueOrder.clientOrderId, 500_000);
    await until('the maker fill is booked', async () => {
      const res = await call<ApiOrder & { fills?: ApiFill[] }>(run.svc.base, 'GET', `/v1/orders/${resting.node_order_id}?expand=fills`, { token: run.token });
      return (res.body.fills ?? []).length === 1 ? true : undefined;
      // Resting legs are polled as Kraken's decaying API counter allows: one read per 3 s once its burst is spent.
    }, 30_000);
    assert.equal((await call(run.svc.base, 'PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: true, reason: 'test' } })).status, 200);
    await until('nothing rests on the venue', async () => (fake.openOrders(KEY).length === 0 ? true : undefined));
    // The router's cancel reads the order first: on Kraken's counter, after the polls and the
    // kill switch's own reads, that can wait for points to decay.
    const done = await run.settled(resting.node_order_id, run.token, 40_000);
    assert.equal(done.status, 'CANCELLED');
    assert.equal(done.filled_qty_1e8, 500_000);
    await call(run.svc.base, 'PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: false } });
  });
});
