/**
 * Kalshi on its live adapter, end to end: the real service (`LIVE_VENUES=kalshi`, its catalog
 * read every second) against the local Kalshi fake (test/fakes/kalshi-fake.ts), which checks
 * every RSA-PSS signature. The fake's events become the catalog and its books the quotes; a
 * market buy by ticker is one signed V2 IOC order whose fills are Kalshi's fill ids and
 * `fee_cost`, booked as an event-contract position against the USD pulled from the venue; a
 * lost answer is reconciled by the client order id, once; a market the venue resolves reads
 * resolved; a key the venue does not know is refused with its message.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { KalshiFake } from '../fakes/kalshi-fake.ts';
import { startLivePrediction, type LivePredictionRun } from '../helpers/live-prediction.ts';

const P = 1e9;
const C = 1e8;
const EVENT = 'KXCPI-26DEC';
const MARKET = 'KXCPI-26DEC-T3.0';
const OTHER = 'KXCPI-26DEC-T3.5';

function rsaKey(): { keyId: string; privatePem: string; publicPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { keyId: randomUUID(), privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

describe('Kalshi live adapter end to end (real service, local fake)', { timeout: 120_000 }, () => {
  const fake = new KalshiFake();
  const key = rsaKey();
  let run: LivePredictionRun;

  before(async () => {
    fake.addAccount({ keyId: key.keyId, publicKey: key.publicPem, balance_1e9: 500 * P });
    fake.addMarket({ ticker: MARKET, event_ticker: EVENT, event_title: 'CPI above in December?', yes_sub_title: '3.0% or above', volume_24h_1e8: 900 * C });
    fake.addMarket({ ticker: OTHER, event_ticker: EVENT, yes_sub_title: '3.5% or above', volume_24h_1e8: 10 * C });
    fake.setLevel(MARKET, 'YES', 'bid', 410_000_000, 20 * C);
    fake.setLevel(MARKET, 'YES', 'ask', 440_000_000, 3 * C);
    fake.setLevel(MARKET, 'NO', 'bid', 540_000_000, 10 * C); // a YES ask at 0.46
    const urls = await fake.listen();
    run = await startLivePrediction({ venue: 'kalshi', urls, credentials: { api_key: key.keyId, api_secret: key.privatePem }, client: 'kalshi-live' });
  });
  after(async () => {
    await run?.stop();
    await fake.close();
  });

  it('lists the venue\'s events and quotes both legs from its signed book stream; a moved level shows', async () => {
    const row = await run.listed(MARKET);
    assert.equal(row.venue, 'kalshi');
    assert.equal(row.status, 'open');
    assert.ok(fake.seen.event_pages > 0 && fake.seen.subscribes > 0, JSON.stringify(fake.seen));
    const yes = await run.quoted(`${MARKET}:YES`, (q) => q.nbbo.bid === 0.41 && q.nbbo.ask === 0.44, 'the YES touch');
    assert.equal(yes.nbbo.ask_size, 3);
    await run.quoted(`${MARKET}:NO`, (q) => q.nbbo.bid === 0.56 && q.nbbo.ask === 0.59, 'the NO leg: the complement of the YES book');
    fake.setLevel(MARKET, 'YES', 'ask', 430_000_000, 2 * C);
    await run.quoted(`${MARKET}:YES`, (q) => q.nbbo.ask === 0.43, 'a delta on the stream');
    fake.breakNextDelta(MARKET);
    const snapshots = fake.seen.snapshots;
    fake.setLevel(MARKET, 'YES', 'ask', 430_000_000, 0);
    await run.quoted(`${MARKET}:YES`, (q) => q.nbbo.ask === 0.44 && fake.seen.snapshots > snapshots, 'a sequence gap resynced from a fresh snapshot');
  });

  it('a market buy of YES by ticker: one signed V2 IOC order, Kalshi\'s fill ids and fee_cost, an event contract against the venue\'s USD', async () => {
    await run.quoted(`${MARKET}:YES`, (q) => q.nbbo.ask === 0.44, 'the touch');
    const placed = await run.place({ symbol: MARKET, qty_1e8: 5 * C });
    assert.equal(placed.status, 201, JSON.stringify(placed.body));
    const done = await run.settled(placed.body.node_order_id);
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    assert.equal(done.filled_qty_1e8, 5 * C);
    const [venueOrder] = fake.ordersOf(key.keyId).filter((o) => o.ticker === MARKET);
    assert.ok(venueOrder !== undefined, 'the order reached the venue');
    assert.equal(venueOrder.filled_1e8, 5 * C);
    const venueFills = fake.fillsOf(venueOrder.order_id);
    assert.deepEqual(done.fills!.map((f) => f.trade_id).sort(), venueFills.map((f) => f.fill_id).sort(), 'the fills are the venue\'s');
    assert.equal(done.fills!.reduce((s, f) => s + f.fee_1e9, 0), venueFills.reduce((s, f) => s + f.fee_1e9, 0), 'the venue\'s fee_cost');
    assert.deepEqual(done.fills!.map((f) => [f.price_1e9, f.qty_1e8]).sort(), [[440_000_000, 3 * C], [460_000_000, 2 * C]], 'the ask at 0.44, then the NO bid at 0.54 as a YES ask at 0.46');
    const held = (await run.positions()).find((p) => p.instrument.kind === 'event_contract' && p.instrument.market_slug === MARKET);
    assert.equal(held?.qty_1e8, 5 * C, 'an event contract position');
  });

  it('a lost answer: the order is UNCONFIRMED, reconciled by its client order id, booked once', async () => {
    fake.setLevel(MARKET, 'YES', 'ask', 450_000_000, 10 * C);
    await run.quoted(`${MARKET}:YES`, (q) => q.nbbo.ask === 0.45, 'a deeper ask');
    const before = fake.seen.orders;
    fake.swallowOrderAnswers = 1;
    const placed = await run.place({ symbol: `${MARKET}:YES`, qty_1e8: 2 * C });
    assert.equal(placed.status, 201, JSON.stringify(placed.body));
    const done = await run.settled(placed.body.node_order_id, run.token, 40_000);
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    assert.equal(done.reconciliation_state, 'reconciled');
    assert.equal(fake.seen.orders, before + 1, 'sent once, never again');
    assert.equal(done.fills!.length, new Set(done.fills!.map((f) => f.trade_id)).size, 'each fill once');
    const held = (await run.positions()).find((p) => p.instrument.kind === 'event_contract' && p.instrument.market_slug === MARKET);
    assert.equal(held?.qty_1e8, 7 * C);
  });

  it('a market the venue resolves reads resolved in the catalog', async () => {
    fake.resolve(OTHER, false);
    const row = await run.listed(OTHER, (r) => r.status === 'determined' || r.status === 'settled');
    assert.ok(['determined', 'settled'].includes(row.status), JSON.stringify(row));
  });

  it('a key the venue does not know: the venue refuses its signature when its USD is pulled, so the order is refused and nothing reaches the venue', async () => {
    const token = await run.client('kalshi-stranger');
    const stranger = rsaKey();
    await run.storeCredentials(token, { api_key: stranger.keyId, api_secret: stranger.privatePem });
    const placed = await run.place({ symbol: MARKET, qty_1e8: 1 * C }, token);
    // The venue refused the key's signature when its USD was pulled: no cash, so the order is refused.
    assert.equal(placed.status, 201, JSON.stringify(placed.body));
    const done = await run.settled(placed.body.node_order_id, token);
    assert.equal(done.status, 'REJECTED', JSON.stringify(done));
    assert.ok(fake.seen.signatures_refused > 0, 'the venue refused the signature');
    assert.equal(fake.ordersOf(stranger.keyId).length, 0, 'nothing reached the venue');
  });
});
