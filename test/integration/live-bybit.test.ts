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
import { describe, it } from 'node:test';
import { BybitFake, execIdOf } from '../fakes/bybit-fake.ts';
import { until } from '../helpers/service.ts';
import { assertFillsAre, P, Q, withLiveVenue, type SettledOrder } from '../helpers/live-venue.ts';
import { bybitOrderLinkId, spotFeeCoin } from '../../actors/edge/live/bybit/codec.ts';

const VENUE_SYMBOL = 'BTCUSDT';
const KEY = 'fakeBybitKey0123456';
const SECRET = 'fakeBybitSecret0123456789abcdefghijk';

describe('live Bybit adapter against a local fake', { timeout: 120_000 }, () => {
  const run = withLiveVenue({ venue: 'bybit', symbol: 'BTC-USDT', fakeSymbol: VENUE_SYMBOL, quote: 'USDT', fake: (markets, accounts) => new BybitFake(markets, accounts), credentials: { api_key: KEY, api_secret: SECRET }, client: 'bybit-live' });
  const fake = run.fake;

  /** Each fill as the fake's trade it came from: execution id, price, and the fee in the coin Bybit's spot rules name, priced against us. */
  const assertFills = (done: SettledOrder, orderLinkId: string, side: 'buy' | 'sell') => {
    const venueOrder = fake.order(KEY, orderLinkId);
    assert.ok(venueOrder !== undefined, 'the venue knows the order by our child id as its orderLinkId');
    const trades = fake.exchange.tradesOf(venueOrder.orderId);
    assert.ok(trades.length > 0);
    assertFillsAre(done, trades, (t) => execIdOf(t.id), (f, t) => {
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
    });
  };

  it("streams the fake's orderbook.50 into /v1/quotes", async () => {
    const quote = await run.seededQuote();
    assert.ok(quote !== undefined && fake.seen.subscribes >= 1);
  });

  it('an update-id gap resubscribes for a fresh snapshot; a dropped stream reconnects and resyncs', async () => {
    await run.resyncs('resynced after the gap', () => fake.seen.subscribes, () => fake.gap(VENUE_SYMBOL), 'ask', 20_000_000);
    await run.resyncs('resynced after the reconnect', () => fake.seen.subscribes, () => fake.dropStreams(), 'ask', 0, 15_000);
  });

  it("routes a market order: placed under our child id as its orderLinkId, its fills read back with Bybit's execution ids and fees", async () => {
    await run.balancePulled(run.token, 'USDT', 100_000 * Q);
    const done = await run.marketBuy('bybit-1', 15_000_000);
    const child = done.children[0]!;
    const orderLinkId = bybitOrderLinkId(child.child_id)!;
    assert.equal(orderLinkId, child.child_id);
    const sent = fake.lastOrder!;
    assert.equal(sent['orderLinkId'], orderLinkId);
    assert.equal(sent['category'], 'spot');
    assert.equal(fake.exchange.tradesOf(fake.order(KEY, orderLinkId)!.orderId).length, 2, 'two ask levels taken');
    assertFills(done, orderLinkId, 'buy');
    assert.equal(fake.seen.badSignatures, 0);
    assert.equal(fake.seen.staleTimestamps, 0);
    assert.equal(fake.seen.rateLimited, 0, "inside Bybit's per-endpoint limits");
  });

  it("a wrong secret is refused by the venue: the child is rejected with Bybit's retCode and retMsg", async () => {
    const orders = fake.seen.orders;
    const done = await run.refusedBuy('bybit-rotated', 'USDT', { api_secret: 'wrongBybitSecret0123456789abcdefgh' }, 'bybit-bad', () => fake.seen.badSignatures);
    assert.match(done.children[0]!.reason ?? '', /^bybit 10004: error sign! origin_string\[/);
    assert.equal(fake.seen.orders, orders, 'nothing reached the matching engine');
  });

  it('a lost answer is reconciled by orderLinkId, never doubled; after a Bybit restart the order is found in its history', async () => {
    fake.realtimeKeepsClosed = false;
    fake.blankFeeCurrency = true;
    const history = fake.seen.historyReads;
    try {
      const done = await run.lostAnswer('bybit-lost');
      assert.ok(fake.seen.historyReads > history, 'realtime no longer answers a closed order: read from the history');
      // No feeCurrency on the executions: the coin is the one Bybit's spot fee rules name.
      assertFills(done, bybitOrderLinkId(done.children[0]!.child_id)!, 'buy');
    } finally {
      fake.realtimeKeepsClosed = true;
      fake.blankFeeCurrency = false;
    }
  });

  it('a resting leg fills as maker on the venue, then the kill switch cancels what rests', async () => {
    const leg = await run.restingLeg('bybit-gtc');
    // The venue's fill must come after the edge read the placement, or it is the placement's fill, not a maker fill.
    await until('the router knows the leg rests', async () => ((await run.current(leg.order.node_order_id)).children.some((c) => c.status === 'resting') ? true : undefined));
    assert.equal(fake.lastOrder!['timeInForce'], 'GTC');
    await run.makerFill(leg, 15_000);
    // An order placed on the account by hand: only the edge's cancel-all knows of it.
    const byHand = fake.exchange.place(fake.exchange.account(KEY)!, { symbol: VENUE_SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', qty: 1_000_000, price: run.mid - 30 * P, clientOrderId: 'placed-by-hand' });
    assert.ok(byHand.ok && fake.openOrders(KEY).length === 2);
    const cancelAlls = fake.seen.cancelAlls;
    const done = await run.killSwitchCancels(leg);
    assert.equal(done.filled_qty_1e8, 500_000);
    assertFills(done, leg.onVenue.clientOrderId, 'buy');
    assert.equal(done.fills![0]!.is_maker, true);
    assert.ok(fake.seen.cancelAlls > cancelAlls, "the hand-placed order went by the edge's cancel-all");
    await run.release();
  });
});
