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
import { describe, it } from 'node:test';
import { CoinbaseFake, coinbaseTradeIdOf } from '../fakes/coinbase-fake.ts';
import { assertFillsAre, P, Q, withLiveVenue } from '../helpers/live-venue.ts';
import { until } from '../helpers/service.ts';

const SYMBOL = 'BTC-USD';
const KEY_NAME = 'organizations/00000000-0000-4000-8000-000000000000/apiKeys/11111111-1111-4111-8111-111111111111';

/** An EC P-256 key as the CDP portal hands it out: SEC1 PEM. */
function pem(): string {
  return generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'sec1', format: 'pem' }) as string;
}

describe('live Coinbase adapter against a local fake', { timeout: 120_000 }, () => {
  // BTC-USDC listed as an alias of BTC-USD: its market data is the BTC-USD book, as Coinbase streams it.
  const aliases = { 'BTC-USDC': SYMBOL };
  const run = withLiveVenue({ venue: 'coinbase', symbol: SYMBOL, fakeSymbol: SYMBOL, quote: 'USD', fake: (markets, accounts) => new CoinbaseFake(markets, accounts, aliases), credentials: { api_key: KEY_NAME, api_secret: pem() }, client: 'coinbase-live' });
  const fake = run.fake;

  it("streams the fake's level2 book into /v1/quotes with heartbeats on the connection; the -USDC alias is not streamed", async () => {
    const quote = await run.seededQuote();
    assert.ok(quote !== undefined && fake.seen.subscribes >= 1);
    assert.ok(fake.seen.heartbeatSubscribes >= 1, 'heartbeats keep the connection open');
    assert.ok(fake.seen.subscribedProducts.includes(SYMBOL));
    assert.ok(!fake.seen.subscribedProducts.includes('BTC-USDC'), 'BTC-USDC streams the BTC-USD book: not subscribed');
    assert.equal(fake.seen.closedIdle, 0);
  });

  it('a sequence number skipped on the connection resubscribes for a fresh snapshot', async () => {
    await run.resyncs('resynced after the gap', () => fake.seen.subscribes, () => fake.skipSequence(), 'ask', 20_000_000);
  });

  it('a dropped stream reconnects, subscribes heartbeats again and resyncs', async () => {
    const heartbeats = fake.seen.heartbeatSubscribes;
    await run.resyncs('resynced after the reconnect', () => fake.seen.subscribes, () => fake.dropStreams(), 'ask', 0, 15_000);
    // The quote can come back on a resubscription already under way: the new connection's heartbeats are awaited, not assumed.
    await until('a new connection subscribes heartbeats', async () => (fake.seen.heartbeatSubscribes > heartbeats ? true : undefined), 10_000);
  });

  it('routes a market order: a 10 s token, our child id as client_order_id, its fills read back with trade ids and quote commissions', async () => {
    await run.balancePulled(run.token, 'USD', 100_000 * Q);
    const done = await run.marketBuy('coinbase-1', 15_000_000);
    const venueOrder = run.venueOrder(done);
    const sent = fake.lastOrder!;
    assert.equal(sent['client_order_id'], done.children[0]!.child_id);
    assert.ok('sor_limit_ioc' in (sent['order_configuration'] as object), 'a priced IOC');
    assert.equal(fake.tokenLifetimes['POST /api/v3/brokerage/orders'], 10, 'orders are signed for the accept window');
    assert.equal(fake.tokenLifetimes['GET /api/v3/brokerage/accounts'], 120);
    const trades = fake.tradesOf(venueOrder.orderId);
    assert.equal(trades.length, 2);
    assertFillsAre(done, trades, coinbaseTradeIdOf, (f, t) => {
      assert.equal(f.commission_asset, 'USD', 'the commission in the quote');
      assert.equal(f.fee_1e9, t.commission * 10);
      assert.equal(f.price_1e9, t.price);
    });
  });

  it("a key Coinbase does not take is refused: the child is rejected with Coinbase's answer", async () => {
    // Another private key under the same name: its tokens do not verify.
    const done = await run.refusedBuy('coinbase-rotated', 'USD', { api_secret: pem() }, 'coinbase-bad', () => fake.seen.badTokens);
    assert.match(done.children[0]!.reason ?? '', /coinbase 401: Unauthorized/);
  });

  it('a lost answer is reconciled from the venue by client order id, never doubled', async () => {
    const lists = fake.seen.lists;
    const done = await run.lostAnswer('coinbase-lost');
    assert.ok(fake.seen.lists > lists, 'found among the listed orders (Get Order needs the order id the lost answer had)');
    const venueOrder = run.venueOrder(done);
    assert.deepEqual((done.fills ?? []).map((f) => f.trade_id).sort(), fake.tradesOf(venueOrder.orderId).map(coinbaseTradeIdOf).sort());
  });

  it('a resting leg fills as maker on the venue, then the kill switch cancels what rests, an order placed by hand too', async () => {
    const leg = await run.restingLeg('coinbase-gtc');
    await run.makerFill(leg);
    const byHand = fake.placeByHand(KEY_NAME, SYMBOL, 'SELL', 1_000_000, run.mid + 50 * P, 'web-app-order');
    const cancels = fake.seen.cancels;
    const done = await run.killSwitchCancels(leg);
    assert.equal(byHand.status, 'CANCELED', 'the kill switch cancels every open order on our symbols (batch_cancel)');
    assert.ok(fake.seen.cancels > cancels);
    assert.equal(done.filled_qty_1e8, 500_000);
    await run.release();
  });
});
