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
import { describe, it } from 'node:test';
import { KucoinFake } from '../fakes/kucoin-fake.ts';
import { until } from '../helpers/service.ts';
import { assertFillsAre, Q, withLiveVenue } from '../helpers/live-venue.ts';

const SYMBOL = 'BTC-USDT';
const KEY = 'fake-kucoin-key-0123456789';
const SECRET = 'fake-kucoin-secret-0123456789abcdef';
const PASSPHRASE = 'fake kucoin passphrase';

describe('live KuCoin adapter against a local fake', { timeout: 120_000 }, () => {
  // No WebSocket URL: the adapter connects where the fake's bullet-public sends it.
  const endpoints = (urls: { rest: string }) => ({ rest: urls.rest, ws: '' });
  // The passphrase is the account's on the fake and stored with the key: the rotation below keeps it.
  const credentials = { api_key: KEY, api_secret: SECRET, passphrase: PASSPHRASE };
  const run = withLiveVenue({ venue: 'kucoin', symbol: SYMBOL, fakeSymbol: SYMBOL, quote: 'USDT', fake: (markets, accounts) => new KucoinFake(markets, accounts), endpoints, credentials, client: 'kucoin-live' });
  const fake = run.fake;
  // Pings every second: the adapter must ping on its own schedule, not only a quiet socket.
  fake.pingIntervalMs = 1_000;

  it("streams the fake's level2 book into /v1/quotes: a token from bullet-public, subscribed after the welcome, a level2_100 snapshot", async () => {
    const quote = await run.seededQuote();
    assert.ok(quote !== undefined);
    assert.ok(fake.seen.tokens >= 1 && fake.seen.connects >= 1 && fake.seen.subscribes >= 1 && fake.seen.snapshots >= 1);
    assert.equal(fake.seen.badTokens, 0, 'every connection carried an issued token');
    await until('pinged at the interval bullet-public named', async () => (fake.seen.pings >= 2 ? true : undefined), 5_000);
  });

  it('a sequence gap resyncs the book from a new snapshot', async () => {
    await run.resyncs('resynced after the gap', () => fake.seen.snapshots, () => fake.gap(SYMBOL), 'ask', 20_000_000);
    await run.quoted('ask', 0, 'the level removed again');
  });

  it('a dropped stream reconnects with a fresh token, resubscribes (again after a refusal) and resyncs', async () => {
    const tokens = fake.seen.tokens;
    const snapshots = fake.seen.snapshots;
    const subscribes = fake.seen.subscribes;
    // The first subscription on the new connection is refused: its book must not be whole on a snapshot alone.
    fake.refuseSubscribes = 1;
    await run.resyncs('resynced after the reconnect', () => fake.seen.connects, () => fake.dropStreams(), 'bid', 30_000_000, 15_000);
    assert.ok(fake.seen.tokens > tokens, 'a fresh token for the new connection');
    assert.ok(fake.seen.snapshots > snapshots, 'a fresh snapshot');
    assert.equal(fake.refuseSubscribes, 0);
    assert.ok(fake.seen.subscribes > subscribes, 'subscribed again after the refusal');
    await run.quoted('bid', 0, 'the level removed again');
  });

  it('routes a market order: placed on the HF sync endpoint under our child id with its accept window, its fills read back by fill id with quote fees', async () => {
    await run.balancePulled(run.token, 'USDT', 100_000 * Q);
    const done = await run.marketBuy('kucoin-1', 15_000_000);
    const venueOrder = run.venueOrder(done);
    const sent = fake.lastOrder!;
    assert.equal(sent['clientOid'], done.children[0]!.child_id);
    assert.equal(sent['allowMaxTimeWindow'], 5_000);
    assert.ok(typeof sent['clientTimestamp'] === 'number' && sent['clientTimestamp'] <= venueOrder.transactTime, 'the accept window runs from the request timestamp');
    const trades = fake.exchange.tradesOf(venueOrder.orderId);
    assert.equal(trades.length, 2);
    // The fill rows' ids, not the rounded tradeId.
    assertFillsAre(done, trades, (t) => String(t.id), (f, t) => {
      assert.equal(f.commission_asset, 'USDT', 'the fee in the quote');
      assert.equal(f.fee_1e9, t.commission * 10);
      assert.equal(f.price_1e9, t.price);
      assert.equal(f.qty_1e8, t.qty);
    });
  });

  it("a wrong secret is refused by the venue: the child is rejected with KuCoin's code and message", async () => {
    const orders = fake.seen.orders;
    const done = await run.refusedBuy('kucoin-rotated', 'USDT', { api_secret: 'wrong-secret-0123456789' }, 'kucoin-bad', () => fake.seen.badSignatures);
    assert.match(done.children[0]!.reason ?? '', /kucoin 400005: Invalid KC-API-SIGN/);
    assert.equal(fake.seen.orders, orders, 'refused at the gateway: nothing reached the matching engine');
  });

  it('a lost answer is reconciled from the venue by clientOid, never doubled', async () => {
    const done = await run.lostAnswer('kucoin-lost');
    const venueOrder = run.venueOrder(done);
    assert.deepEqual((done.fills ?? []).map((f) => f.trade_id), fake.exchange.tradesOf(venueOrder.orderId).map((t) => String(t.id)));
  });

  it('a resting leg fills as maker on the venue, then the kill switch cancels what rests by symbol', async () => {
    const leg = await run.restingLeg('kucoin-gtc');
    const booked = await run.makerFill(leg);
    assert.equal(booked.fills![0]!.is_maker, true);
    const cancels = fake.seen.cancelAlls + fake.seen.cancels;
    const done = await run.killSwitchCancels(leg);
    assert.equal(done.filled_qty_1e8, 500_000);
    // The router's cancel of its leg (by clientOid) and the edge's cancel-all by symbol race: either empties the book.
    assert.ok(fake.seen.cancelAlls + fake.seen.cancels > cancels, 'cancelled on the venue');
    await run.release();
  });
});
