/**
 * OKX on its live adapter (LIVE_VENUES=okx) against a local OKX v5 fake on loopback
 * (test/fakes/okx-fake.ts), through the real service: the fake's book in /v1/quotes, kept whole
 * through a sequence gap and a checksum mismatch (resubscribed, a fresh snapshot), a market
 * order signed with the passphrase, placed under an OKX clOrdId made from our child id, its
 * fills read back with OKX's trade ids and fees, a wrong secret refused with OKX's message, a
 * lost answer reconciled without a duplicate, and the kill switch's cancel-all.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OkxFake } from '../fakes/okx-fake.ts';
import { assertFillsAre, Q, withLiveVenue } from '../helpers/live-venue.ts';
import { until } from '../helpers/service.ts';
import { okxClientOrderId } from '../../actors/edge/live/okx/codec.ts';

const SYMBOL = 'BTC-USDT';
const KEY = 'fake-okx-key-0123456789';
const SECRET = 'fake-okx-secret-0123456789abcdef';
const PASSPHRASE = 'fake-passphrase';
const tradeId = (t: { id: number }) => String(t.id);

describe('live OKX adapter against a local fake', { timeout: 120_000 }, () => {
  // The passphrase is the account's on the fake and stored with the key: the rotation below keeps it.
  const run = withLiveVenue({ venue: 'okx', symbol: SYMBOL, fakeSymbol: SYMBOL, quote: 'USDT', fake: (markets, accounts) => new OkxFake(markets, accounts), credentials: { api_key: KEY, api_secret: SECRET, passphrase: PASSPHRASE }, client: 'okx-live' });
  const fake = run.fake;

  it("streams the fake's book into /v1/quotes, checked by sequence and checksum", async () => {
    const quote = await run.seededQuote();
    assert.ok(quote !== undefined && fake.seen.subscribes >= 1);
  });

  it('a sequence gap and a checksum mismatch each resubscribe for a fresh snapshot', async () => {
    await run.resyncs('resynced after the gap', () => fake.seen.subscribes, () => fake.gap(SYMBOL), 'ask', 20_000_000);
    await run.resyncs('resynced after the checksum mismatch', () => fake.seen.subscribes, () => { fake.corruptNextChecksum = true; }, 'ask', 0);
  });

  it('routes a market order: placed under the clOrdId of our child id, its fills read back with trade ids and fees', async () => {
    await run.balancePulled(run.token, 'USDT', 100_000 * Q);
    const done = await run.marketBuy('okx-1', 15_000_000);
    const trades = fake.tradesOf(run.venueOrder(done, okxClientOrderId).orderId);
    assert.equal(trades.length, 2);
    // A buy's fee is taken in the base received, priced at its fill, rounded against us.
    assertFillsAre(done, trades, tradeId, (f, t) => {
      assert.equal(f.commission_asset, 'BTC');
      assert.equal(f.fee_1e9, Math.ceil((t.commission * t.price) / Q));
    });
  });

  it("a wrong secret is refused by the venue: the child is rejected with OKX's message", async () => {
    const done = await run.refusedBuy('okx-rotated', 'USDT', { api_secret: 'wrong-secret-0123456789' }, 'okx-bad', () => fake.seen.badSignatures);
    assert.match(done.children[0]!.reason ?? '', /okx 50113: Invalid Sign/);
  });

  it('a lost answer is reconciled from the venue by clOrdId, never doubled', async () => {
    const done = await run.lostAnswer('okx-lost');
    const venueOrder = run.venueOrder(done, okxClientOrderId);
    assert.deepEqual((done.fills ?? []).map((f) => f.trade_id), fake.tradesOf(venueOrder.orderId).map(tradeId));
  });

  it('the kill switch cancels what rests on the venue', async () => {
    await run.killSwitchCancels(await run.restingLeg('okx-gtc'));
    await run.release();
  });

  it('an asset sold out on the venue, which OKX then leaves out of its balances, reaches the ledger as zero', async () => {
    await run.balancePulled(run.token, 'BTC');
    const btc = fake.exchange.account(KEY)!.balances['BTC']!;
    btc.free = 0;
    btc.locked = 0;
    // Storing the key again pulls the venue's balances (as a start or the end of an order does).
    await run.storeCredentials(run.token, { api_key: KEY, api_secret: SECRET, passphrase: PASSPHRASE });
    await until('the BTC row closed', async () => ((await run.positions()).some((p) => p.instrument.symbol === 'BTC') ? undefined : true), 20_000);
    assert.ok((await run.positions()).some((p) => p.instrument.symbol === 'USDT'), 'what OKX listed stays');
  });
});
