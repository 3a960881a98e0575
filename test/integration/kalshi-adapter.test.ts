/**
 * The live Kalshi adapter (actors/edge/live/kalshi/adapter.ts) against a local Kalshi fake on
 * loopback (test/fakes/kalshi-fake.ts), without the service: the catalog paged by cursor, with
 * the series' fee rates, the touch and volumes, and the outcome of markets that left the open
 * listing; a market's book on the signed stream, both legs from the one YES book, a delta
 * applied, a sequence gap and a dropped stream each resynced; IOC orders on the V2 endpoints
 * filled with Kalshi's fill ids and `fee_cost`, on either leg; refusals before sending (price,
 * size) and by the venue (funds, a closed market, a bad RSA signature); a lost answer that
 * `submit` throws on and `lookup` finds by client order id; cancels and the kill switch's
 * cancel-all; balances and the probe; rate limits: a 429 refuses the order and holds the account
 * here for a second, and what the account's own write bucket cannot take is never sent. RSA keys
 * are generated here with node:crypto.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { KalshiFake } from '../fakes/kalshi-fake.ts';
import { KalshiPrediction } from '../../actors/edge/live/kalshi/adapter.ts';
import { kalshiClientOrderId } from '../../actors/edge/live/kalshi/codec.ts';
import type { L2Book } from '../../actors/edge/live/l2-book.ts';
import { RestFailure } from '../../actors/edge/live/rest.ts';
import type { LegReport, LegRequest, MarketSink, VenueAccount } from '../../actors/edge/live/venue.ts';
import type { PredictionMarket } from '../../domain/prediction/catalog.ts';

const P = 1e9;
const C = 1e8;
const FED = 'KXFED-26DEC';
const FED_T4 = 'KXFED-26DEC-T4.00';
const FED_T425 = 'KXFED-26DEC-T4.25';
const RAIN = 'KXRAIN-26AUG01';
const RAIN_T1 = 'KXRAIN-26AUG01-T1';
const FILLERS = 5;

/** An RSA key as Kalshi issues one: its id (a UUID) and the PEM the credentials store. */
function rsaKey(): { keyId: string; privatePem: string; publicPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { keyId: randomUUID(), privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

let childSeq = 0;
/** A child id of the store's shape: the parent's creation ms in base36, a sequence, a suffix, the child number. */
function childId(): string {
  childSeq++;
  return `ord_${Date.now().toString(36).padStart(9, '0')}${childSeq.toString(36).padStart(4, '0')}Kt1-1`;
}

async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() >= deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

class RecordingSink implements MarketSink {
  readonly whole: string[] = [];
  readonly broken: { market: string; reason: string }[] = [];
  changes = 0;
  onBookWhole(symbol: string, book: L2Book): void {
    void book;
    this.whole.push(symbol);
  }
  onBookChanges(symbol: string, changes: number[]): void {
    void symbol;
    this.changes += changes.length / 3;
    changes.length = 0;
  }
  onBookBroken(symbol: string, reason: string): void {
    this.broken.push({ market: symbol, reason });
  }
}

describe('live Kalshi adapter against a local fake', { timeout: 90_000 }, () => {
  const key = rsaKey();
  const account: VenueAccount = { client_id: 'kalshi-live', credentials: { api_key: key.keyId, api_secret: key.privatePem } };
  const fake = new KalshiFake();
  const sink = new RecordingSink();
  let adapter: KalshiPrediction;
  let urls: { rest: string; ws: string };
  const markets = new Map<string, PredictionMarket>();
  const leg = (symbol: string, side: 'buy' | 'sell', qty_1e8: number, limit_price_1e9: number | null, time_in_force: 'ioc' | 'gtc' = 'ioc'): LegRequest => ({ child_id: childId(), symbol, side, qty_1e8, limit_price_1e9, time_in_force });

  before(async () => {
    fake.addAccount({ keyId: key.keyId, publicKey: key.publicPem, balance_1e9: 1_000 * P });
    fake.addMarket({ ticker: FED_T4, event_ticker: FED, event_title: 'Fed rate after December?', yes_sub_title: '4.00% or above', structure: 'tapered_deci_cent', volume_1e8: 12_345 * C, volume_24h_1e8: 100 * C });
    fake.addMarket({ ticker: FED_T425, event_ticker: FED, yes_sub_title: '4.25% or above' });
    fake.addMarket({ ticker: RAIN_T1, event_ticker: RAIN, event_title: 'Rain in NYC on Aug 1?' });
    for (let i = 0; i < FILLERS; i++) fake.addMarket({ ticker: `KXFILL-26SEP0${i}-A`, event_ticker: `KXFILL-26SEP0${i}` });
    fake.setSeriesFee('KXFED', 'quadratic_with_maker_fees', 0.5);
    // FED_T4's book: YES bids 0.40 x 10 and (a NO ask at 0.62) 0.38 x 4; YES asks 0.45 x 5 and 0.47 x 8.
    fake.setLevel(FED_T4, 'YES', 'bid', 400_000_000, 10 * C);
    fake.setLevel(FED_T4, 'NO', 'ask', 620_000_000, 4 * C);
    fake.setLevel(FED_T4, 'YES', 'ask', 450_000_000, 5 * C);
    fake.setLevel(FED_T4, 'NO', 'bid', 530_000_000, 8 * C);
    fake.setLevel(RAIN_T1, 'YES', 'ask', 300_000_000, 50 * C);
    urls = await fake.listen();
    adapter = new KalshiPrediction(urls, { maxEvents: 50, streamAccount: () => account });
  });

  after(async () => {
    adapter.stop();
    await fake.close();
  });

  it('reads the catalog by cursor: events, legs, the series fee rate, the touch and volumes', async () => {
    fake.pageMax = 2;
    const pagesBefore = fake.seen.event_pages;
    const records = await adapter.readCatalog();
    fake.pageMax = Number.POSITIVE_INFINITY;
    assert.equal(records.length, 2 + FILLERS);
    assert.ok(fake.seen.event_pages - pagesBefore >= 4, 'seven events two a page');
    const fed = records.find((r) => r.event.event_id === FED)!;
    assert.deepEqual(fed.event.markets.map((m) => [m.market_id, m.yes_token_id, m.no_token_id, m.fee_rate_bps]), [
      [FED_T4, `${FED_T4}:YES`, `${FED_T4}:NO`, 350],
      [FED_T425, `${FED_T425}:YES`, `${FED_T425}:NO`, 350],
    ]);
    assert.equal(fed.event.markets[0]!.question, 'Fed rate after December? - 4.00% or above');
    assert.deepEqual([fed.yes_won, fed.resolved_ms, fed.anchor_usd], [[null, null], [null, null], null]);
    assert.deepEqual(fed.figures[0], { yes_bid_1e9: 400_000_000, yes_ask_1e9: 450_000_000, no_bid_1e9: 550_000_000, no_ask_1e9: 600_000_000, volume_24h_usd: 100, volume_total_usd: 12_345 });
    assert.deepEqual(fed.figures[1], { yes_bid_1e9: -1, yes_ask_1e9: -1, no_bid_1e9: -1, no_ask_1e9: -1, volume_24h_usd: 0, volume_total_usd: 0 });
    const rain = records.find((r) => r.event.event_id === RAIN)!;
    assert.deepEqual([rain.event.multi, rain.event.markets[0]!.fee_rate_bps], [false, 700], "a series without a schedule of its own: the venue's rate");
    const bounded = new KalshiPrediction(urls, { maxEvents: 3 });
    assert.equal((await bounded.readCatalog()).length, 3, 'maxEvents bounds the walk');
  });

  it('tells the outcome of markets that left the open listing, until they are settled', async () => {
    fake.resolve(FED_T425, false);
    fake.resolve(RAIN_T1, true);
    const t0 = Date.now();
    const records = await adapter.readCatalog();
    const fed = records.find((r) => r.event.event_id === FED)!;
    const rain = records.find((r) => r.event.event_id === RAIN);
    assert.ok(rain !== undefined, 'a determined event is read by ticker once out of the open listing');
    assert.deepEqual(fed.yes_won, [null, false]);
    assert.deepEqual(rain.yes_won, [true]);
    const determined = rain.resolved_ms[0]!;
    assert.ok(determined >= t0 - 1 && determined <= Date.now() && rain.event.markets[0]!.timeline.determined_ms === determined);
    // The instant first seen stands on the next read.
    const again = (await adapter.readCatalog()).find((r) => r.event.event_id === RAIN)!;
    assert.equal(again.resolved_ms[0], determined);
    fake.resolve(RAIN_T1, true, true);
    const settled = (await adapter.readCatalog()).find((r) => r.event.event_id === RAIN)!;
    assert.equal(settled.event.markets[0]!.timeline.settled_ms !== null && settled.event.markets[0]!.timeline.settled_ms <= Date.now(), true, 'finalized: settled');
    assert.equal((await adapter.readCatalog()).find((r) => r.event.event_id === RAIN), undefined, 'told settled once, then no longer read');
    for (const r of await adapter.readCatalog()) for (const m of r.event.markets) markets.set(m.market_id, m);
  });

  it('streams a market on the signed socket: both legs whole, a delta applied, a gap and a drop resynced', async () => {
    adapter.start(sink);
    assert.equal(adapter.follow(markets.get(FED_T4)!), true);
    assert.equal(adapter.follow({ ...markets.get(FED_T4)!, market_id: 'KXNOPE-26DEC-X' }), false, 'a market the catalog does not list');
    await until('the book whole', () => sink.whole.includes(FED_T4));
    const book = adapter.marketBook(FED_T4, 10)!;
    assert.deepEqual(book.yes, { bids: [{ price_1e9: 400_000_000, qty_1e8: 10 * C }, { price_1e9: 380_000_000, qty_1e8: 4 * C }], asks: [{ price_1e9: 450_000_000, qty_1e8: 5 * C }, { price_1e9: 470_000_000, qty_1e8: 8 * C }] });
    assert.deepEqual(book.no, { bids: [{ price_1e9: 550_000_000, qty_1e8: 5 * C }, { price_1e9: 530_000_000, qty_1e8: 8 * C }], asks: [{ price_1e9: 600_000_000, qty_1e8: 10 * C }, { price_1e9: 620_000_000, qty_1e8: 4 * C }] });
    assert.equal(book.tick_1e9, 1_000_000, "the finest step of the market's tapered grid");
    // A NO bid at 0.56 is a YES ask at 0.44: a delta on the NO side of Kalshi's book.
    fake.setLevel(FED_T4, 'NO', 'bid', 560_000_000, 3 * C);
    await until('the delta applied', () => adapter.marketBook(FED_T4, 1)?.yes.asks[0]?.price_1e9 === 440_000_000);
    assert.deepEqual(adapter.marketBook(FED_T4, 1)!.no.bids, [{ price_1e9: 560_000_000, qty_1e8: 3 * C }]);
    assert.ok(sink.changes >= 1);

    const snapshots = fake.seen.snapshots;
    fake.breakNextDelta(FED_T4);
    fake.setLevel(FED_T4, 'NO', 'bid', 560_000_000, 0);
    await until('the gap seen', () => sink.broken.some((b) => b.market === FED_T4 && /gap/.test(b.reason)));
    await until('resynced by a snapshot', () => fake.seen.snapshots > snapshots && adapter.marketBook(FED_T4, 1)?.yes.asks[0]?.price_1e9 === 450_000_000);
    assert.ok(adapter.stats().resyncs >= 1);

    const whole = sink.whole.length;
    const broken = sink.broken.length;
    fake.dropStreams();
    await until('broken on the drop', () => sink.broken.slice(broken).some((b) => b.market === FED_T4 && b.reason.startsWith('stream closed')));
    await until('whole again after reconnecting', () => sink.whole.length > whole && adapter.marketBook(FED_T4, 1) !== undefined);
    assert.deepEqual([adapter.stats().connected, adapter.stats().subscribed, adapter.stats().disconnects >= 1], [true, 1, true]);
  });

  it('signs the stream with the account key: a key the venue does not know is refused on connect', async () => {
    const stranger = rsaKey();
    const refused = fake.seen.ws_refused;
    const subscribes = fake.seen.subscribes;
    const other = new KalshiPrediction(urls, { streamAccount: () => ({ client_id: 'x', credentials: { api_key: stranger.keyId, api_secret: stranger.privatePem } }) });
    other.start(new RecordingSink());
    try {
      await until('the handshake refused', () => fake.seen.ws_refused > refused);
      assert.equal(fake.seen.subscribes, subscribes, 'nothing heard from it');
    } finally {
      other.stop();
    }
  });

  it('buys YES with an IOC: filled at the asks with Kalshi fill ids and fee_cost', async () => {
    const before = fake.account(key.keyId)!.balance_1e9;
    const child = leg(`${FED_T4}:YES`, 'buy', 7 * C, 470_000_000);
    const report = await adapter.submit(account, child);
    const order = fake.ordersOf(key.keyId).at(-1)!;
    assert.equal(order.client_order_id, kalshiClientOrderId(child.child_id, 'YES'), 'our child id as the client order id');
    assert.deepEqual([order.side, order.time_in_force, order.yes_price_1e9], ['bid', 'immediate_or_cancel', 470_000_000]);
    const fills = fake.fillsOf(order.order_id);
    // 0.07 x C x P x (1 - P) x 0.5 (the series' multiplier), up to $0.0001: 5 @ 0.45 = $0.043313 -> $0.0434; 2 @ 0.47 = $0.017437 -> $0.0175.
    assert.deepEqual(report, {
      ok: true,
      reason: null,
      resting_qty_1e8: 0,
      fills: [
        { price_1e9: 450_000_000, qty_1e8: 5 * C, trade_id: fills[0]!.fill_id, ts_ns: fills[0]!.created_ms * 1e6, fee_1e9: 43_400_000, is_maker: false },
        { price_1e9: 470_000_000, qty_1e8: 2 * C, trade_id: fills[1]!.fill_id, ts_ns: fills[1]!.created_ms * 1e6, fee_1e9: 17_500_000, is_maker: false },
      ],
    });
    assert.equal(before - fake.account(key.keyId)!.balance_1e9, BigInt(5 * 450_000_000 + 2 * 470_000_000 + 43_400_000 + 17_500_000));
  });

  it('buys NO through the YES book: sold YES at the bids, filled at the NO price', async () => {
    const report = await adapter.submit(account, leg(`${FED_T4}:NO`, 'buy', 3 * C, 600_000_000));
    const order = fake.ordersOf(key.keyId).at(-1)!;
    assert.deepEqual([order.side, order.yes_price_1e9], ['ask', 400_000_000]);
    assert.deepEqual(report.fills.map((f) => [f.price_1e9, f.qty_1e8]), [[600_000_000, 3 * C]]);
    // An IOC that meets nothing is answered at once: no fills, nothing rests.
    const nothing = await adapter.submit(account, leg(`${FED_T4}:YES`, 'buy', C, 300_000_000));
    assert.deepEqual(nothing, { ok: true, reason: null, fills: [], resting_qty_1e8: 0 });
  });

  it('refuses before sending what Kalshi cannot take, and reports what the venue refuses with its own words', async () => {
    const sent = fake.seen.orders;
    assert.match((await adapter.submit(account, leg(`${FED_T4}:YES`, 'buy', C, P))).reason ?? '', /limit outside/);
    assert.match((await adapter.submit(account, leg(`${FED_T4}:YES`, 'buy', 500_000, 450_000_000))).reason ?? '', /smallest order/);
    assert.match((await adapter.submit(account, leg('not a leg', 'buy', C, 450_000_000))).reason ?? '', /not a Kalshi leg/);
    assert.equal(fake.seen.orders, sent, 'nothing sent');
    const poor = await adapter.submit(account, leg(`${FED_T4}:YES`, 'buy', 1_000_000 * C, 450_000_000));
    assert.deepEqual([poor.ok, poor.reason], [false, 'kalshi 400 available_balance_too_low: Insufficient available balance']);
    const closed = await adapter.submit(account, leg(`${FED_T425}:YES`, 'buy', C, 500_000_000));
    assert.match(closed.reason ?? '', /^kalshi 400 MARKET_INACTIVE/);
    const refusedBefore = fake.seen.signatures_refused;
    const wrong = rsaKey();
    const forged: VenueAccount = { client_id: 'kalshi-live', credentials: { api_key: key.keyId, api_secret: wrong.privatePem } };
    const bad = await adapter.submit(forged, leg(`${FED_T4}:YES`, 'buy', C, 450_000_000));
    assert.deepEqual([bad.ok, bad.reason], [false, 'kalshi 401 authentication_error (rpc error: code = Unauthenticated desc = INCORRECT_API_KEY_SIGNATURE)']);
    assert.equal(fake.seen.signatures_refused, refusedBefore + 1);
  });

  it('a lost answer: submit throws, lookup finds the order by its client order id, with its fills', async () => {
    fake.setLevel(FED_T4, 'YES', 'ask', 450_000_000, 6 * C);
    fake.swallowOrderAnswers = 1;
    const child = leg(`${FED_T4}:YES`, 'buy', 2 * C, 450_000_000);
    await assert.rejects(adapter.submit(account, child));
    const found = await adapter.lookup(account, child.child_id, child.symbol);
    assert.ok(found.found);
    const mine = fake.ordersOf(key.keyId).filter((o) => o.client_order_id === kalshiClientOrderId(child.child_id, 'YES'));
    assert.equal(mine.length, 1, 'placed once');
    assert.deepEqual(found.report.fills.map((f) => f.trade_id), fake.fillsOf(mine[0]!.order_id).map((f) => f.fill_id));
    assert.deepEqual([found.report.ok, found.report.resting_qty_1e8, found.report.fills.reduce((s, f) => s + f.qty_1e8, 0)], [true, 0, 2 * C]);
    const told = await adapter.lookup(account, child.child_id, child.symbol, 2 * C);
    assert.deepEqual(told, { found: true, report: { ok: true, reason: null, fills: [], resting_qty_1e8: 0 } }, 'nothing new: no fills read');
    // A child this process never sent (a restart): found from the parent's time in its id.
    const restarted = new KalshiPrediction(urls);
    assert.equal((await restarted.lookup(account, child.child_id, child.symbol)).found, true);
  });

  it('a child never sent is not found', async () => {
    const lists = fake.seen.order_lists;
    assert.deepEqual(await adapter.lookup(account, childId(), `${FED_T4}:NO`), { found: false });
    assert.ok(fake.seen.order_lists > lists, 'the venue was asked');
    assert.deepEqual(await adapter.lookup(account, 'someone-else', `${FED_T4}:NO`), { found: false });
  });

  it('cancels a resting order, and the kill switch cancels every resting order on the legs given', async () => {
    fake.pageMax = 1;
    try {
      const resting = leg(`${FED_T4}:YES`, 'buy', 4 * C, 350_000_000, 'gtc');
      assert.deepEqual(await adapter.submit(account, resting), { ok: true, reason: null, fills: [], resting_qty_1e8: 4 * C });
      const noSide = leg(`${FED_T4}:NO`, 'buy', 2 * C, 300_000_000, 'gtc');
      await adapter.submit(account, noSide);
      const third = leg(`${FED_T4}:YES`, 'buy', C, 340_000_000, 'gtc');
      await adapter.submit(account, third);
      const open = await adapter.ownOpenOrders(account);
      assert.deepEqual(open.map((o) => o.symbol).sort(), [`${FED_T4}:NO`, `${FED_T4}:YES`, `${FED_T4}:YES`]);
      assert.ok(open.some((o) => o.child_id === noSide.child_id && o.symbol === `${FED_T4}:NO`), 'the leg read back from the client order id');
      await until('the resting bid on the book', () => adapter.marketBook(FED_T4, 5)?.yes.bids.some((l) => l.price_1e9 === 350_000_000));
      assert.deepEqual(await adapter.cancel(account, resting.child_id, resting.symbol), { found: true, cancelled_qty_1e8: 4 * C });
      assert.deepEqual(await adapter.cancel(account, resting.child_id, resting.symbol), { found: false, cancelled_qty_1e8: 0 }, 'nothing rests any more');
      const batches = fake.seen.batch_cancels;
      assert.equal(await adapter.cancelAll(account, [`${FED_T4}:YES`]), 2, 'both legs of the market');
      assert.equal(fake.seen.batch_cancels, batches + 1);
      assert.deepEqual(await adapter.ownOpenOrders(account), []);
      assert.deepEqual(fake.ordersOf(key.keyId).filter((o) => o.status === 'resting'), []);
      assert.equal(await adapter.cancelAll(account, [`${FED_T4}:YES`]), 0);
    } finally {
      fake.pageMax = Number.POSITIVE_INFINITY;
    }
  });

  it('reads the balance and positions, and probes the tier and whether the exchange trades', async () => {
    const balances = await adapter.balances(account);
    const cash = fake.account(key.keyId)!.balance_1e9;
    assert.deepEqual(balances[0], { asset: 'USD', free_1e8: cash / 10n, locked_1e8: 0n });
    // 7 + 2 YES bought, 3 NO bought (YES sold): 6 YES net.
    assert.deepEqual(balances.slice(1), [{ asset: `${FED_T4}:YES`, free_1e8: 6n * BigInt(C), locked_1e8: 0n }]);
    // The venue's at-mid rate: 0.07 x 0.5 x 0.5 a contract is 350 bps of the $0.50 paid.
    assert.deepEqual(await adapter.probe(account), { tier: 'basic', maker_bps: 0, taker_bps: 350, can_trade: true, can_withdraw: null });
    fake.account(key.keyId)!.tier = 'premier';
    fake.exchangeStatus.trading_active = false;
    const probe = await adapter.probe(account);
    fake.exchangeStatus.trading_active = true;
    assert.deepEqual([probe.tier, probe.can_trade], ['premier', false]);
    await assert.rejects(adapter.probe({ client_id: 'x', credentials: { api_key: randomUUID(), api_secret: key.privatePem } }), /authentication_error/);
  });

  /** An account of its own, so the budgets these tests spend or close are not `account`'s. */
  const freshAccount = (client_id: string): { keyId: string; venueAccount: VenueAccount } => {
    const k = rsaKey();
    fake.addAccount({ keyId: k.keyId, publicKey: k.publicPem, balance_1e9: 100 * P });
    return { keyId: k.keyId, venueAccount: { client_id, credentials: { api_key: k.keyId, api_secret: k.privatePem } } };
  };
  /** An IOC under every ask: the venue takes it and answers at once, nothing filled. */
  const quiet = () => leg(`${FED_T4}:YES`, 'buy', C, 300_000_000);
  const heldHere = (err: unknown) => err instanceof RestFailure && err.kind === 'rate_limited';

  it("never sends what the account's own write bucket cannot take: refused here, the venue sees only what was admitted", async () => {
    const { keyId, venueAccount } = freshAccount('kalshi-burst');
    // Basic's write bucket holds 100 tokens, 10 a create: a burst of 20 at once cannot all go.
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => adapter.submit(venueAccount, quiet())));
    const sent = results.filter((r): r is PromiseFulfilledResult<LegReport> => r.status === 'fulfilled');
    const held = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    assert.ok(held.length >= 1 && held.every((r) => heldHere(r.reason)), 'the rest held here as rate_limited');
    // The bucket refills 100 tokens a second: the next create is 100 ms away at most.
    assert.ok(held.every((r) => (r.reason as RestFailure).retryInMs <= 100));
    assert.ok(sent.every((r) => r.value.ok));
    assert.equal(fake.ordersOf(keyId).length, sent.length, 'only what was admitted reached the venue');
  });

  it("a 429 refuses the order with Kalshi's words, nothing placed; the account is then held here for a second (no Retry-After; its buckets refill continuously), other accounts not", async () => {
    const { keyId, venueAccount: limited } = freshAccount('kalshi-limited');
    const limitedBefore = fake.seen.rate_limited;
    fake.rateLimitNext = 1;
    const refused = await adapter.submit(limited, quiet());
    assert.deepEqual(refused, { ok: false, reason: 'kalshi 429: too many requests', fills: [], resting_qty_1e8: 0 });
    assert.deepEqual([fake.seen.rate_limited - limitedBefore, fake.ordersOf(keyId).length], [1, 0], 'refused before the book: nothing placed');
    const requests = fake.seen.requests;
    await assert.rejects(adapter.submit(limited, quiet()), (err: unknown) => heldHere(err) && (err as RestFailure).retryInMs > 0 && (err as RestFailure).retryInMs <= 1_000);
    await assert.rejects(adapter.balances(limited), heldHere);
    assert.equal(fake.seen.requests, requests, 'held here: nothing reached the venue');
    assert.equal(fake.ordersOf(keyId).length, 0);
    assert.equal((await adapter.balances(account))[0]!.asset, 'USD', "another account's buckets are its own");
    // A second later the account's budget is open again.
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    assert.deepEqual(await adapter.submit(limited, quiet()), { ok: true, reason: null, fills: [], resting_qty_1e8: 0 });
    assert.equal(fake.ordersOf(keyId).length, 1, 'placed');
    // A read refused for rate is a failure the caller retries, in Kalshi's words.
    fake.rateLimitNext = 1;
    await assert.rejects(adapter.balances(limited), /kalshi 429: too many requests/);
    assert.equal(fake.seen.rate_limited - limitedBefore, 2);
  });
});
