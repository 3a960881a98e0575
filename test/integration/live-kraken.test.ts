/**
 * Kraken on its live adapter (LIVE_VENUES=kraken) against a local Kraken spot fake on loopback
 * (test/fakes/kraken-fake.ts), through the real service: the fake's v2 book in /v1/quotes, kept
 * whole through a checksum mismatch (resubscribed, a fresh snapshot) and a dropped stream, a
 * market order signed with API-Sign, placed under the cl_ord_id packed from our child id, its
 * fills read back with Kraken's trade ids and quote fees, a wrong secret refused with Kraken's
 * error, a lost answer reconciled without a duplicate, and the kill switch's cancel.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KrakenFake } from '../fakes/kraken-fake.ts';
import { assertFillsAre, Q, withLiveVenue } from '../helpers/live-venue.ts';
import { krakenClientOrderId } from '../../actors/edge/live/kraken/codec.ts';

const WS_SYMBOL = 'BTC/USD';
const KEY = 'fake-kraken-key-0123456789';
const SECRET = Buffer.from('fake-kraken-secret-0123456789abcdef-64-bytes-of-key-material-here').toString('base64');
const clOrdId = (childId: string) => krakenClientOrderId(childId);
const tradeId = (t: { id: number }) => `T${t.id}-FAKE0-TRADE0`;

describe('live Kraken adapter against a local fake', { timeout: 120_000 }, () => {
  const run = withLiveVenue({ venue: 'kraken', symbol: 'BTC-USD', fakeSymbol: WS_SYMBOL, quote: 'USD', fake: (markets, accounts) => new KrakenFake(markets, accounts), credentials: { api_key: KEY, api_secret: SECRET }, client: 'kraken-live' });
  const fake = run.fake;

  it("streams the fake's v2 book into /v1/quotes, each message held to its checksum", async () => {
    const quote = await run.seededQuote();
    assert.ok(quote !== undefined && fake.seen.subscribes >= 1);
  });

  it('a checksum mismatch resubscribes for a fresh snapshot; a dropped stream reconnects and resyncs', async () => {
    await run.resyncs('resynced after the checksum mismatch', () => fake.seen.subscribes, () => { fake.corruptNextChecksum = true; }, 'ask', 20_000_000);
    await run.resyncs('resynced after the reconnect', () => fake.seen.subscribes, () => fake.dropStreams(), 'ask', 0, 15_000);
  });

  it('routes a market order: placed under the cl_ord_id of our child id with a deadline, its fills read back with trade ids and quote fees', async () => {
    await run.balancePulled(run.token, 'USD', 100_000 * Q);
    const done = await run.marketBuy('kraken-1', 15_000_000);
    const venueOrder = run.venueOrder(done, clOrdId);
    const sent = fake.lastOrder!;
    assert.equal(sent.get('oflags'), 'fciq');
    assert.ok(Date.parse(sent.get('deadline') ?? '') > venueOrder.transactTime, 'a deadline ahead of the order');
    const trades = fake.exchange.tradesOf(venueOrder.orderId);
    assert.equal(trades.length, 2);
    assertFillsAre(done, trades, tradeId, (f, t) => {
      assert.equal(f.commission_asset, 'USD', 'fciq: the fee in the quote');
      assert.equal(f.fee_1e9, t.commission * 10);
      assert.equal(f.price_1e9, t.price);
    });
  });

  it("a wrong secret is refused by the venue: the child is rejected with Kraken's error", async () => {
    const wrong = Buffer.from('wrong-secret-0123456789').toString('base64');
    const done = await run.refusedBuy('kraken-rotated', 'USD', { api_secret: wrong }, 'kraken-bad', () => fake.seen.badSignatures);
    assert.match(done.children[0]!.reason ?? '', /kraken EAPI:Invalid signature/);
  });

  it('a lost answer is reconciled from the venue by cl_ord_id, never doubled', async () => {
    const done = await run.lostAnswer('kraken-lost');
    const venueOrder = run.venueOrder(done, clOrdId);
    assert.deepEqual((done.fills ?? []).map((f) => f.trade_id), fake.exchange.tradesOf(venueOrder.orderId).map(tradeId));
  });

  it('a resting leg fills as maker on the venue, then the kill switch cancels what rests', async () => {
    const leg = await run.restingLeg('kraken-gtc');
    // Resting legs are polled as Kraken's decaying API counter allows: one read per 3 s once its burst is spent.
    await run.makerFill(leg, 30_000);
    // The router's cancel reads the order first: on Kraken's counter, after the polls and the
    // kill switch's own reads, that can wait for points to decay.
    const done = await run.killSwitchCancels(leg, 40_000);
    assert.equal(done.filled_qty_1e8, 500_000);
    await run.release();
  });
});
