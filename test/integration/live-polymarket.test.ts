/**
 * Polymarket on its live adapter, end to end: the real service (`LIVE_VENUES=polymarket`, its
 * catalog read every second from the fake's Gamma) against the local Polymarket fake
 * (test/fakes/polymarket-fake.ts), which checks every L2 HMAC and recovers every order's EIP-712
 * V2 signature. The client's stored credentials are the signer key alone: the adapter derives
 * the L2 API key with ClobAuth (none exists yet: it is created) and keeps it in memory. The
 * fake's events become the catalog (token ids padded to 78 digits) and its token books the quotes; a market buy by slug is one signed FAK order whose fills are the
 * venue's trades, booked as an event contract against the USDC pulled from the venue; a lost
 * answer is reconciled by the order id known before sending, once; a stale change resyncs the
 * book; a resolved market reads resolved.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PolymarketFake, type FakeAccountInfo, type FakeMarketInfo } from '../fakes/polymarket-fake.ts';
import { startLivePrediction, type LivePredictionRun } from '../helpers/live-prediction.ts';

const P = 1e9;
const Q = 1e8;
const SLUG = 'fed-cut-december';
const OTHER = 'snow-in-july';

describe('Polymarket live adapter end to end (real service, local fake)', { timeout: 120_000 }, () => {
  const fake = new PolymarketFake();
  let run: LivePredictionRun;
  let market: FakeMarketInfo;
  let account: FakeAccountInfo;
  const yesToken = () => market.yesToken.padStart(78, '0');
  const held = async () => (await run.positions()).find((p) => p.instrument.kind === 'event_contract' && p.instrument.market_slug === SLUG)?.qty_1e8 ?? 0;

  before(async () => {
    market = fake.addMarket({ event: 'fed-december', slug: SLUG, question: 'Will the Fed cut in December?', fee: { rate: '0.02', exponent: 1 }, volume24hr: 5000 });
    fake.addMarket({ event: OTHER, slug: OTHER, question: 'Snow in July?', fee: null, volume24hr: 10 });
    fake.setLevel(SLUG, 'YES', 'bid', 0.6 * P, 50 * Q);
    fake.setLevel(SLUG, 'YES', 'ask', 0.63 * P, 4 * Q);
    fake.setLevel(SLUG, 'YES', 'ask', 0.65 * P, 20 * Q);
    account = fake.addAccount({ cash_1e9: 400 * P, apiKey: 'none' });
    const urls = await fake.listen();
    run = await startLivePrediction({ venue: 'polymarket', urls, credentials: account.credentials as unknown as Record<string, unknown>, client: 'polymarket-live' });
  });
  after(async () => {
    await run?.stop();
    await fake.close();
  });

  it('lists Gamma\'s events with the venue\'s token ids padded to 78 digits, and quotes both tokens from the market stream', async () => {
    const row = await run.listed(SLUG);
    assert.equal(row.venue, 'polymarket');
    assert.equal(row.status, 'open');
    assert.equal(row.yes_token_id, yesToken());
    assert.ok(fake.seen.gamma_event_pages > 0 && fake.seen.subscriptions > 0, JSON.stringify(fake.seen));
    await run.quoted(yesToken(), (q) => q.nbbo.bid === 0.6 && q.nbbo.ask === 0.63 && q.nbbo.ask_size === 4, 'the YES token\'s touch');
    // The venue's own spelling of the token (no leading zero) is the same leg.
    await run.quoted(market.yesToken, (q) => q.nbbo.ask === 0.63, 'the unpadded token id');
    await run.quoted(`${SLUG}:NO`, (q) => q.nbbo.bid === 0.37 && q.nbbo.ask === 0.4, 'the NO token: the YES book\'s mirror');
  });

  it('a change stamped before the last one: the book resyncs from REST and the quote moves on', async () => {
    // (A hash mismatch is caught by the adapter's periodic REST audit, a minute apart: the
    // adapter's own test runs it faster.)
    const reads = fake.seen.book_reads;
    fake.breakNextDelta(SLUG, 'gap');
    fake.setLevel(SLUG, 'YES', 'bid', 0.61 * P, 5 * Q);
    await run.quoted(yesToken(), (q) => q.nbbo.bid === 0.61 && fake.seen.book_reads > reads, 'resynced from /book', 20_000);
  });

  it('a market buy by slug: one signed FAK order, the venue\'s trades and fee, an event contract against the venue\'s USDC', async () => {
    const placed = await run.place({ symbol: SLUG, qty_1e8: 6 * Q });
    assert.equal(placed.status, 201, JSON.stringify(placed.body));
    const done = await run.settled(placed.body.node_order_id);
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    assert.equal(done.filled_qty_1e8, 6 * Q);
    const orders = fake.ordersOf(account.key);
    assert.equal(orders.length, 1, 'one order reached the venue');
    assert.equal(orders[0]!.order_type, 'FAK');
    assert.deepEqual(done.fills!.map((f) => f.trade_id).sort(), [...orders[0]!.trade_ids].sort(), 'the fills are the venue\'s trades');
    assert.deepEqual(done.fills!.map((f) => f.price_1e9).sort(), [0.63 * P, 0.65 * P]);
    assert.ok(done.fills!.every((f) => f.fee_1e9 > 0), 'the market\'s taker fee');
    assert.equal(await held(), 6 * Q);
    assert.equal(fake.positionOf(account.key, SLUG, 'YES'), 6 * Q, 'the venue holds the same');
    assert.equal(fake.seen.api_key_creates, 1, 'the L2 key made once, on first use');
    assert.equal(fake.apiKeysOf(account.key).length, 1);
  });

  it('a lost answer: UNCONFIRMED, found by the order id known before sending, booked once', async () => {
    const before = fake.seen.orders;
    fake.swallowOrderAnswers = 1;
    const placed = await run.place({ symbol: `${SLUG}:YES`, qty_1e8: 2 * Q });
    assert.equal(placed.status, 201, JSON.stringify(placed.body));
    const done = await run.settled(placed.body.node_order_id, run.token, 40_000);
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    assert.equal(done.reconciliation_state, 'reconciled');
    assert.equal(fake.seen.orders, before + 1, 'sent once, never again');
    assert.equal(await held(), 8 * Q);
  });

  it('a market the venue resolves reads resolved in the catalog', async () => {
    fake.resolve(OTHER, true);
    const row = await run.listed(OTHER, (r) => r.status === 'determined' || r.status === 'settled');
    assert.ok(['determined', 'settled'].includes(row.status), JSON.stringify(row));
  });
});
