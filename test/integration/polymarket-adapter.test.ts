/**
 * The live Polymarket adapter (`actors/edge/live/polymarket/adapter.ts`) against the local
 * Polymarket (`test/fakes/polymarket-fake.ts`) on loopback, without the service: Gamma's catalog
 * paged and a resolved market's outcome read after its event closed; a market's two token books
 * whole over the market channel, a change applied, a reordered change and a change whose hash
 * the REST audit disproves both resynced, a dropped stream resynced; a FAK buy filled with the
 * fake's trade ids and the market's taker fee, its order id the EIP-712 digest the fake recovered
 * the signer from; refusals before sending (price, size, $1), by the venue (balance, a signature
 * for the wrong exchange, a bad L2 key); a lost answer found by lookup with its fills, placed
 * once; a never-sent child not found; resting orders listed (paged), cancelled one by one and by
 * the kill switch; balances and the probe; a 429 that refuses the order and holds the CLOB host
 * here for its Retry-After. An account stored with the signer key alone: its L2 credentials
 * derived (or created) once with ClobAuth, even for concurrent first orders, a refused ClobAuth
 * answered with the venue's words, a derived key the venue stops taking derived again. The kill
 * switch arming the heartbeat dead man's switch: an order its sweep missed cancelled by the venue
 * at the deadline.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { PolymarketPrediction } from '../../actors/edge/live/polymarket/adapter.ts';
import { apiKeyRequest, childOrderSalt, polymarketTakerFee1e9 } from '../../actors/edge/live/polymarket/codec.ts';
import type { CatalogRecord } from '../../actors/edge/live/prediction-venue.ts';
import { RestFailure } from '../../actors/edge/live/rest.ts';
import type { LegRequest, MarketSink, VenueAccount } from '../../actors/edge/live/venue.ts';
import type { PredictionMarket } from '../../domain/prediction/catalog.ts';
import { PolymarketFake, type FakeAccountInfo, type FakeMarketInfo } from '../fakes/polymarket-fake.ts';

const P = 1e9;
const Q = 1e8;
const FEE = { rate: '0.02', exponent: 1, taker_only: true };

/** A child id as the order store makes them (`ord_`, 9 base36 of ms, 4 of sequence, 3 of suffix, `-n`). */
let seq = 0;
function childId(ms = Date.now()): string {
  return `ord_${ms.toString(36).padStart(9, '0')}${(seq++).toString(36).padStart(4, '0')}Pm1-1`;
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 8_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() >= deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** What the adapter told the edge, per market id. */
class RecordingSink implements MarketSink {
  readonly whole: string[] = [];
  readonly changes: string[] = [];
  readonly broken: { market: string; reason: string }[] = [];
  onBookWhole(market: string): void {
    this.whole.push(market);
  }
  onBookChanges(market: string): void {
    this.changes.push(market);
  }
  onBookBroken(market: string, reason: string): void {
    this.broken.push({ market, reason });
  }
  count(list: readonly string[], market: string): number {
    return list.filter((m) => m === market).length;
  }
}

describe('Polymarket adapter against a local Polymarket', { timeout: 120_000 }, () => {
  const fake = new PolymarketFake();
  const sink = new RecordingSink();
  let adapter: PolymarketPrediction;
  let fed: FakeMarketInfo;
  let candA: FakeMarketInfo;
  let rain: FakeMarketInfo;
  let alice: FakeAccountInfo;
  let bob: FakeAccountInfo;
  let carol: FakeAccountInfo;
  let catalog: CatalogRecord[] = [];
  let urls: { rest: string; ws: string };
  let lostChild = '';
  const accountOf = (a: FakeAccountInfo): VenueAccount => ({ client_id: `client-${a.key.slice(0, 8)}`, credentials: a.credentials });
  const marketOf = (slug: string): PredictionMarket => {
    for (const r of catalog) for (const m of r.event.markets) if (m.market_id === slug) return m;
    throw new Error(`${slug} not in the catalog`);
  };
  const pad = (token: string) => token.padStart(78, '0');
  const ioc = (symbol: string, side: 'buy' | 'sell', qty_1e8: number, limit: number, child = childId()): LegRequest => ({ child_id: child, symbol, side, qty_1e8, limit_price_1e9: limit, time_in_force: 'ioc' });

  before(async () => {
    fed = fake.addMarket({ event: 'fed-july', slug: 'fed-cut-july', question: 'Will the Fed cut in July?', fee: FEE, volume24hr: 1234.5, volumeNum: 98765 });
    candA = fake.addMarket({ event: 'election', eventTitle: 'Who wins?', slug: 'election-ann', groupItemTitle: 'Ann', negRisk: true, fee: null });
    fake.addMarket({ event: 'election', slug: 'election-bob', groupItemTitle: 'Bob', negRisk: true, fee: null });
    fake.addMarket({ event: 'election', slug: 'election-cid', groupItemTitle: 'Cid', negRisk: true, fee: null });
    rain = fake.addMarket({ event: 'rain-today', slug: 'rain-today', fee: FEE });
    // Enough events for two pages under a cap of 150 (Gamma pages of 100), and more past the cap.
    for (let i = 0; i < 160; i++) fake.addMarket({ event: `filler-${i}`, slug: `filler-${i}` });
    fake.setLevel('fed-cut-july', 'YES', 'bid', 0.5 * P, 40 * Q);
    fake.setLevel('fed-cut-july', 'YES', 'bid', 0.49 * P, 25 * Q);
    fake.setLevel('fed-cut-july', 'YES', 'ask', 0.55 * P, 10 * Q);
    fake.setLevel('fed-cut-july', 'YES', 'ask', 0.56 * P, 10 * Q);
    fake.setLevel('election-ann', 'YES', 'ask', 0.3 * P, 100 * Q);
    alice = fake.addAccount({ cash_1e9: 1_000 * P });
    bob = fake.addAccount({ cash_1e9: 100 * P, proxy: true });
    carol = fake.addAccount({ cash_1e9: 50 * P, closedOnly: true });
    urls = await fake.listen();
    const { rest, ws } = urls;
    adapter = new PolymarketPrediction({ rest, ws }, { gammaUrl: rest, maxEvents: 150, auditEveryMs: 300, fees: { maker_bps: 0, taker_bps: 50 } });
    adapter.start(sink);
    catalog = await adapter.readCatalog();
  });

  after(async () => {
    adapter.stop();
    await fake.close();
  });

  describe('catalog', () => {
    it('pages Gamma\'s open events up to the cap, with both padded token ids, the multi-outcome event and Gamma\'s touch', () => {
      assert.equal(catalog.length, 150);
      assert.equal(fake.seen.gamma_event_pages, 2);
      const m = marketOf('fed-cut-july');
      assert.equal(m.yes_token_id, pad(fed.yesToken));
      assert.equal(m.yes_token_id.length, 78);
      assert.ok(m.yes_token_id.startsWith('0'), 'a 77-digit venue id is padded');
      assert.equal(m.no_token_id, fed.noToken);
      assert.equal(m.condition_id, fed.conditionId);
      assert.equal(m.fee_rate_bps, 200);
      const rec = catalog.find((r) => r.event.slug === 'fed-july')!;
      assert.deepEqual(rec.figures[0], { yes_bid_1e9: 0.5 * P, yes_ask_1e9: 0.55 * P, no_bid_1e9: 0.45 * P, no_ask_1e9: 0.5 * P, volume_24h_usd: 1234.5, volume_total_usd: 98765 });
      assert.deepEqual(rec.yes_won, [null]);
      const election = catalog.find((r) => r.event.slug === 'election')!;
      assert.equal(election.event.multi, true);
      assert.equal(election.event.neg_risk, true);
      assert.deepEqual(election.event.markets.map((x) => x.raw_outcome_name), ['Ann', 'Bob', 'Cid']);
    });

    it('reads a resolved market in an open event, and one whose event closed by condition id', async () => {
      fake.resolve('election-cid', false);
      fake.resolve('rain-today', true);
      const reads = fake.seen.gamma_market_reads;
      catalog = await adapter.readCatalog();
      const election = catalog.find((r) => r.event.slug === 'election')!;
      assert.deepEqual(election.yes_won, [null, null, false]);
      assert.ok(election.resolved_ms[2]! > 0);
      const closed = catalog.find((r) => r.event.slug === 'rain-today');
      assert.ok(closed !== undefined, 'the closed event is still reported with its outcome');
      assert.deepEqual(closed.yes_won, [true]);
      assert.deepEqual(closed.figures, [null]);
      assert.equal(fake.seen.gamma_market_reads, reads + 1);
      // The market no longer trades: orders to it are refused before anything is sent.
      const sent = fake.seen.orders;
      const r = await adapter.submit(accountOf(alice), ioc(pad(rain.yesToken), 'buy', 10 * Q, 0.5 * P));
      assert.equal(r.ok, false);
      assert.match(r.reason!, /not accepting orders/);
      assert.equal(fake.seen.orders, sent);
      assert.equal(adapter.follow(marketOf('rain-today')), false);
    });
  });

  describe('books', () => {
    const yesBook = () => adapter.marketBook('fed-cut-july', 10);

    it('follows a market: whole when both token books are, the NO book the YES book\'s mirror', async () => {
      assert.equal(adapter.follow(marketOf('fed-cut-july')), true);
      assert.equal(adapter.follow(marketOf('fed-cut-july')), true, 'idempotent');
      const book = await until('whole', yesBook);
      assert.deepEqual(book.yes.bids, [{ price_1e9: 0.5 * P, qty_1e8: 40 * Q }, { price_1e9: 0.49 * P, qty_1e8: 25 * Q }]);
      assert.deepEqual(book.yes.asks, [{ price_1e9: 0.55 * P, qty_1e8: 10 * Q }, { price_1e9: 0.56 * P, qty_1e8: 10 * Q }]);
      assert.deepEqual(book.no.bids, [{ price_1e9: 0.45 * P, qty_1e8: 10 * Q }, { price_1e9: 0.44 * P, qty_1e8: 10 * Q }]);
      assert.deepEqual(book.no.asks, [{ price_1e9: 0.5 * P, qty_1e8: 40 * Q }, { price_1e9: 0.51 * P, qty_1e8: 25 * Q }]);
      assert.equal(book.tick_1e9, 0.01 * P);
      assert.equal(sink.count(sink.whole, 'fed-cut-july'), 1);
      assert.equal(adapter.stats().subscribed, 1);
      assert.equal(adapter.stats().connected, true);
    });

    it('applies a price_change to both legs', async () => {
      const changes = sink.count(sink.changes, 'fed-cut-july');
      // A NO bid at 0.42 is a YES ask at 0.58.
      fake.setLevel('fed-cut-july', 'NO', 'bid', 0.42 * P, 7 * Q);
      const book = await until('change applied', () => (yesBook()?.yes.asks.some((l) => l.price_1e9 === 0.58 * P && l.qty_1e8 === 7 * Q) === true ? yesBook() : undefined));
      assert.deepEqual(book.no.bids.at(-1), { price_1e9: 0.42 * P, qty_1e8: 7 * Q });
      assert.ok(sink.count(sink.changes, 'fed-cut-july') > changes);
    });

    it('resyncs from REST after a change stamped before the last one (a reordered stream)', async () => {
      const broken = sink.broken.length;
      const resyncs = adapter.stats().resyncs;
      fake.breakNextDelta('fed-cut-july', 'gap');
      fake.setLevel('fed-cut-july', 'YES', 'bid', 0.47 * P, 3 * Q);
      await until('broken', () => (sink.broken.length > broken ? true : undefined));
      assert.equal(sink.broken.at(-1)!.market, 'fed-cut-july');
      const book = await until('whole again with the change', () => (yesBook()?.yes.bids.some((l) => l.price_1e9 === 0.47 * P) === true ? yesBook() : undefined));
      assert.deepEqual(book.no.asks.find((l) => l.price_1e9 === 0.53 * P), { price_1e9: 0.53 * P, qty_1e8: 3 * Q });
      assert.ok(adapter.stats().resyncs > resyncs);
    });

    it('resyncs when the REST audit disproves a change the stream sent under the true book\'s hash', async () => {
      const broken = sink.broken.length;
      fake.breakNextDelta('fed-cut-july', 'hash');
      // A level below the top: the change's best bid and ask agree, only the audit can tell.
      fake.setLevel('fed-cut-july', 'YES', 'bid', 0.46 * P, 4 * Q);
      await until('audit broke the book', () => (sink.broken.length > broken ? true : undefined));
      const book = await until('whole again, right', () => (yesBook()?.yes.bids.find((l) => l.price_1e9 === 0.46 * P)?.qty_1e8 === 4 * Q ? yesBook() : undefined));
      assert.deepEqual(book.no.asks.find((l) => l.price_1e9 === 0.54 * P), { price_1e9: 0.54 * P, qty_1e8: 4 * Q });
      assert.ok(fake.seen.book_reads >= 2);
    });

    it('breaks every book on a dropped stream and makes it whole again on the next connection', async () => {
      const broken = sink.broken.length;
      const whole = sink.count(sink.whole, 'fed-cut-july');
      fake.dropStreams();
      await until('broken', () => (sink.broken.slice(broken).some((b) => b.market === 'fed-cut-july' && /stream/.test(b.reason)) ? true : undefined));
      await until('whole again', () => (sink.count(sink.whole, 'fed-cut-july') > whole && yesBook() !== undefined ? true : undefined), 10_000);
      assert.ok(adapter.stats().disconnects >= 1);
    });
  });

  describe('orders', () => {
    const yes = () => pad(fed.yesToken);

    it('fills a FAK buy across two levels with the fake\'s trade ids and the market\'s taker fee', async () => {
      const child = childId();
      const cash = fake.cashOf(alice.key);
      const report = await adapter.submit(accountOf(alice), ioc(yes(), 'buy', 15 * Q, 0.56 * P, child));
      assert.equal(report.ok, true, report.reason ?? '');
      assert.equal(report.resting_qty_1e8, 0);
      const [order] = fake.ordersOf(alice.key);
      assert.ok(order !== undefined);
      assert.equal(order.salt, String(childOrderSalt(child)));
      assert.equal(order.status, 'MATCHED');
      assert.deepEqual(report.fills.map((f) => f.trade_id).sort(), [...order.trade_ids].sort());
      // Both trades in one second of `match_time`: the core orders them by trade id then.
      const fills = [...report.fills].sort((a, b) => a.price_1e9 - b.price_1e9);
      assert.deepEqual(
        fills.map((f) => [f.price_1e9, f.qty_1e8, f.is_maker]),
        [
          [0.55 * P, 10 * Q, false],
          [0.56 * P, 5 * Q, false],
        ],
      );
      // 10 x 0.02 x 0.55 x 0.45 = 0.0495; 5 x 0.02 x 0.56 x 0.44 = 0.02464.
      assert.deepEqual(fills.map((f) => f.fee_1e9), [49_500_000, 24_640_000]);
      assert.equal(fills[0]!.fee_1e9, polymarketTakerFee1e9(10 * Q, 0.55 * P, FEE));
      assert.equal(fake.positionOf(alice.key, 'fed-cut-july', 'YES'), 15 * Q);
      assert.equal(fake.cashOf(alice.key), cash - 8.3 * P - 49_500_000 - 24_640_000);
      // What is left of the book is what the stream tells.
      await until('book after the trade', () => (adapter.marketBook('fed-cut-july', 5)?.yes.asks[0]?.qty_1e8 === 5 * Q ? true : undefined));
    });

    it('sells on the NO token against the YES bids (the mirror), and a FAK that meets nothing is done without fills', async () => {
      fake.setPosition(bob.key, 'fed-cut-july', 'NO', 20 * Q);
      // NO bids mirror the YES asks: the best is 1 - 0.56 = 0.44 for 5 shares.
      const sold = await adapter.submit(accountOf(bob), ioc(pad(fed.noToken), 'sell', 5 * Q, 0.44 * P));
      assert.equal(sold.ok, true, sold.reason ?? '');
      assert.deepEqual(sold.fills.map((f) => [f.price_1e9, f.qty_1e8]), [[0.44 * P, 5 * Q]]);
      const none = await adapter.submit(accountOf(alice), ioc(yes(), 'buy', 10 * Q, 0.3 * P));
      assert.deepEqual(none, { ok: true, reason: null, fills: [], resting_qty_1e8: 0 });
    });

    it('refuses before sending what the venue would refuse: a limit off the price range, under a 0.01 share, under $1', async () => {
      const sent = fake.seen.orders;
      const offRange = await adapter.submit(accountOf(alice), ioc(yes(), 'buy', 10 * Q, 0.004 * P));
      assert.match(offRange.reason!, /outside the market's price range/);
      const dust = await adapter.submit(accountOf(alice), ioc(yes(), 'buy', 0.004 * Q, 0.5 * P));
      assert.match(dust.reason!, /0\.01 share/);
      const small = await adapter.submit(accountOf(alice), ioc(yes(), 'buy', 1 * Q, 0.5 * P));
      assert.match(small.reason!, /at least \$1/);
      const unknown = await adapter.submit(accountOf(alice), ioc('9'.repeat(78), 'buy', 10 * Q, 0.5 * P));
      assert.match(unknown.reason!, /not \(yet\) known from the catalog/);
      assert.equal(fake.seen.orders, sent);
    });

    it('answers the venue\'s refusals: balance, an order signed for another exchange, a bad L2 key', async () => {
      const poor = await adapter.submit(accountOf(bob), ioc(yes(), 'buy', 500 * Q, 0.56 * P));
      assert.equal(poor.ok, false);
      assert.match(poor.reason!, /polymarket 400: not enough balance \/ allowance/);
      const refused = fake.seen.signatures_refused;
      fake.wrongDomainNext = 1;
      const badSig = await adapter.submit(accountOf(alice), ioc(yes(), 'buy', 5 * Q, 0.56 * P));
      assert.equal(badSig.ok, false);
      assert.equal(badSig.reason, 'polymarket 400: invalid signature');
      assert.equal(fake.seen.signatures_refused, refused + 1);
      const forged: VenueAccount = { client_id: 'forged', credentials: { ...alice.credentials, api_secret: Buffer.from('not the secret').toString('base64') } };
      const badKey = await adapter.submit(forged, ioc(yes(), 'buy', 5 * Q, 0.56 * P));
      assert.equal(badKey.ok, false);
      assert.equal(badKey.reason, 'polymarket 401: Unauthorized/Invalid api key');
      assert.equal(fake.seen.signatures_refused, refused + 2);
      await assert.rejects(adapter.balances(forged), /Unauthorized/);
    });

    it("a 429 refuses the order with the venue's words, nothing placed; the CLOB host is held here for its Retry-After, then takes the next", async () => {
      const heldHere = (err: unknown) => err instanceof RestFailure && err.kind === 'rate_limited';
      // Under every ask: a FAK the venue takes and kills, nothing filled.
      const quiet = () => ioc(yes(), 'buy', 10 * Q, 0.3 * P);
      const placed = fake.ordersOf(alice.key).length;
      const limited = fake.seen.rate_limited;
      fake.rateLimitNext = 1;
      const refused = await adapter.submit(accountOf(alice), quiet());
      assert.deepEqual(refused, { ok: false, reason: 'polymarket 429: Too Many Requests', fills: [], resting_qty_1e8: 0 });
      assert.equal(fake.seen.rate_limited, limited + 1);
      assert.equal(fake.ordersOf(alice.key).length, placed, 'nothing placed');
      const sent = fake.seen.orders;
      let waitMs = 0;
      await assert.rejects(adapter.submit(accountOf(alice), quiet()), (err: unknown) => {
        waitMs = (err as RestFailure).retryInMs;
        return heldHere(err) && waitMs > 0 && waitMs <= 1_000;
      });
      // Every account's requests: the venue throttles the host, not a key.
      await assert.rejects(adapter.balances(accountOf(bob)), heldHere);
      assert.equal(fake.seen.orders, sent, 'held here: no order reached the venue');
      await new Promise((resolve) => setTimeout(resolve, waitMs + 50));
      assert.deepEqual(await adapter.submit(accountOf(alice), quiet()), { ok: true, reason: null, fills: [], resting_qty_1e8: 0 });
      assert.equal(fake.ordersOf(alice.key).length, placed + 1, 'placed');
      // A read throttled by the venue is a failure the caller retries, never an answer.
      fake.rateLimitNext = 1;
      await assert.rejects(adapter.balances(accountOf(bob)), (err: unknown) => err instanceof RestFailure && /429: Too Many Requests/.test(err.message));
      assert.equal(fake.seen.rate_limited, limited + 2);
      // That 429 closed the host again: the tests after this one need it open.
      await new Promise((resolve) => setTimeout(resolve, 1_050));
    });

    it('finds a child whose answer was lost by its order id, with its fills, placed once', async () => {
      fake.setLevel('fed-cut-july', 'YES', 'ask', 0.57 * P, 20 * Q);
      const child = (lostChild = childId());
      const before = fake.ordersOf(alice.key).length;
      fake.swallowOrderAnswers = 1;
      await assert.rejects(adapter.submit(accountOf(alice), ioc(yes(), 'buy', 8 * Q, 0.57 * P, child)), (err: unknown) => err instanceof RestFailure && err.kind === 'timeout');
      const found = await adapter.lookup(accountOf(alice), child, yes());
      assert.ok(found.found);
      const orders = fake.ordersOf(alice.key);
      assert.equal(orders.length, before + 1, 'placed once');
      const order = orders.at(-1)!;
      assert.equal(order.salt, String(childOrderSalt(child)));
      assert.deepEqual(found.report.fills.map((f) => f.trade_id).sort(), [...order.trade_ids].sort());
      assert.equal(found.report.fills.reduce((s, f) => s + f.qty_1e8, 0), order.matched_1e8);
      assert.equal(order.matched_1e8, 8 * Q);
      assert.equal(found.report.resting_qty_1e8, 0);
    });

    it('a fresh adapter on the same worker (the runtime replacing the edge) still finds what the first one signed; Gamma on the loopback CLOB host', async () => {
      const again = new PolymarketPrediction(urls);
      const records = await again.readCatalog();
      assert.ok(records.some((r) => r.event.slug === 'fed-july'));
      const found = await again.lookup(accountOf(alice), lostChild, yes());
      assert.ok(found.found);
      assert.equal(found.report.fills.reduce((s, f) => s + f.qty_1e8, 0), 8 * Q);
    });

    it('does not find a child never sent; one older than the journal cannot be told apart and is not answered', async () => {
      assert.deepEqual(await adapter.lookup(accountOf(alice), childId(), yes()), { found: false });
      assert.deepEqual(await adapter.lookup(accountOf(alice), 'ord_never-1', yes()), { found: false });
      await assert.rejects(adapter.lookup(accountOf(alice), childId(Date.now() - 3_600_000), yes()), /before this process started/);
    });

    it('lists resting children (paged), tells a maker fill, cancels one, and the kill switch the rest by token or all', async () => {
      const gtc = (symbol: string, qty: number, limit: number, child = childId()): LegRequest => ({ child_id: child, symbol, side: 'buy', qty_1e8: qty, limit_price_1e9: limit, time_in_force: 'gtc' });
      const one = childId();
      const two = childId();
      const three = childId();
      const ann = pad(candA.yesToken);
      for (const [child, symbol, qty, limit] of [[one, yes(), 10 * Q, 0.4 * P], [two, yes(), 6 * Q, 0.41 * P], [three, ann, 5 * Q, 0.2 * P]] as const) {
        const r = await adapter.submit(accountOf(alice), gtc(symbol, qty, limit, child));
        assert.equal(r.ok, true, r.reason ?? '');
        assert.deepEqual(r.fills, []);
        assert.equal(r.resting_qty_1e8, qty);
      }
      fake.pageSize = 1;
      const own = await adapter.ownOpenOrders(accountOf(alice));
      assert.deepEqual(own.sort((a, b) => a.child_id.localeCompare(b.child_id)), [{ child_id: one, symbol: yes() }, { child_id: two, symbol: yes() }, { child_id: three, symbol: ann }].sort((a, b) => a.child_id.localeCompare(b.child_id)));
      assert.ok(fake.seen.open_order_pages >= 3);
      fake.pageSize = 100;

      const twoId = fake.ordersOf(alice.key).find((o) => o.salt === String(childOrderSalt(two)))!.id;
      fake.fillResting(twoId, 2 * Q);
      const polled = await adapter.lookup(accountOf(alice), two, yes(), 0);
      assert.ok(polled.found);
      assert.deepEqual(polled.report.fills.map((f) => [f.price_1e9, f.qty_1e8, f.is_maker, f.fee_1e9]), [[0.41 * P, 2 * Q, true, 0]]);
      assert.equal(polled.report.resting_qty_1e8, 4 * Q);
      const quiet = await adapter.lookup(accountOf(alice), two, yes(), 2 * Q);
      assert.ok(quiet.found);
      assert.deepEqual(quiet.report.fills, [], 'nothing more executed: no trades read');

      assert.deepEqual(await adapter.cancel(accountOf(alice), one, yes()), { found: true, cancelled_qty_1e8: 10 * Q });
      assert.deepEqual(await adapter.cancel(accountOf(alice), one, yes()), { found: false, cancelled_qty_1e8: 0 });
      const afterCancel = await adapter.lookup(accountOf(alice), one, yes());
      assert.deepEqual(afterCancel, { found: true, report: { ok: true, reason: null, fills: [], resting_qty_1e8: 0 } });

      // The fed tokens only: per token, the election order left alone.
      assert.equal(await adapter.cancelAll(accountOf(alice), [yes(), pad(fed.noToken)]), 1);
      assert.equal(fake.seen.cancel_market_orders, 1);
      assert.deepEqual((await adapter.ownOpenOrders(accountOf(alice))).map((o) => o.child_id), [three]);
      // Every open order is on the tokens asked: one cancel-all.
      assert.equal(await adapter.cancelAll(accountOf(alice), [ann]), 1);
      assert.equal(fake.seen.cancel_alls, 1);
      assert.deepEqual(await adapter.ownOpenOrders(accountOf(alice)), []);
      assert.equal(await adapter.cancelAll(accountOf(alice), [ann]), 0);
    });
  });

  describe('L2 credentials derived on first use', () => {
    const yes = () => pad(fed.yesToken);
    const usdc = (a: FakeAccountInfo) => [{ asset: 'USDC', free_1e8: BigInt(fake.cashOf(a.key) / 10), locked_1e8: 0n }];
    let dave: FakeAccountInfo;

    before(() => {
      fake.setLevel('fed-cut-july', 'YES', 'ask', 0.6 * P, 100 * Q);
    });

    it('an account stored with the signer key alone: two concurrent first orders derive once (the key created, none existing), both placed with it; balances read with it', async () => {
      dave = fake.addAccount({ cash_1e9: 100 * P, apiKey: 'none' });
      assert.deepEqual([dave.credentials.api_key, dave.credentials.api_secret, dave.credentials.passphrase], ['', '', undefined]);
      const derives = fake.seen.api_key_derives;
      const creates = fake.seen.api_key_creates;
      const reports = await Promise.all([adapter.submit(accountOf(dave), ioc(yes(), 'buy', 2 * Q, 0.6 * P)), adapter.submit(accountOf(dave), ioc(yes(), 'buy', 2 * Q, 0.6 * P))]);
      for (const r of reports) {
        assert.equal(r.ok, true, r.reason ?? '');
        assert.equal(r.fills.reduce((sum, f) => sum + f.qty_1e8, 0), 2 * Q);
      }
      assert.equal(fake.seen.api_key_derives, derives + 1, 'derived once: the second order awaited the first derivation');
      assert.equal(fake.seen.api_key_creates, creates + 1, 'no key for the nonce yet: created');
      assert.equal(fake.apiKeysOf(dave.key).length, 1);
      assert.equal(fake.ordersOf(dave.key).length, 2);
      assert.deepEqual(await adapter.balances(accountOf(dave)), usdc(dave));
      assert.equal(fake.seen.api_key_derives + fake.seen.api_key_creates, derives + creates + 2, 'kept: nothing derived again');
      assert.equal(dave.credentials.api_key, '', 'the stored credentials are left as they were');
    });

    it('a key the venue already has for the signer is derived, not created', async () => {
      const erin = fake.addAccount({ cash_1e9: 20 * P, apiKey: 'unstored' });
      const creates = fake.seen.api_key_creates;
      assert.deepEqual(await adapter.balances(accountOf(erin)), usdc(erin));
      assert.equal(fake.seen.api_key_creates, creates);
      assert.equal(fake.apiKeysOf(erin.key).length, 1);
    });

    it("a ClobAuth the venue refuses refuses the order with the venue's words, nothing sent; the refusal is not kept", async () => {
      const frank = fake.addAccount({ cash_1e9: 20 * P, apiKey: 'unstored' });
      const sent = fake.seen.orders;
      const refused = fake.seen.l1_refused;
      fake.wrongL1ChainNext = 1;
      const r = await adapter.submit(accountOf(frank), ioc(yes(), 'buy', 2 * Q, 0.6 * P));
      assert.deepEqual(r, { ok: false, reason: 'polymarket 401: Invalid L1 Request headers', fills: [], resting_qty_1e8: 0 });
      assert.equal(fake.seen.l1_refused, refused + 1);
      assert.equal(fake.seen.orders, sent);
      // The fake's own check: a ClobAuth signed by another key for the address is refused the same way.
      const forged = apiKeyRequest('derive', `0x${randomBytes(32).toString('hex')}`, Math.floor(Date.now() / 1000));
      const answer = await fetch(`${urls.rest}${forged.path}`, { headers: { ...forged.headers, POLY_ADDRESS: frank.address } });
      assert.equal(answer.status, 401);
      assert.deepEqual(await answer.json(), { error: 'Invalid L1 Request headers' });
      assert.deepEqual(await adapter.balances(accountOf(frank)), usdc(frank), 'derived on the next request');
    });

    it('a derived key the venue stops taking (401) is dropped: that request is refused, the next derives again', async () => {
      const [old] = fake.apiKeysOf(dave.key);
      fake.revokeApiKeys(dave.key);
      await assert.rejects(adapter.balances(accountOf(dave)), /polymarket 401: Unauthorized\/Invalid api key/);
      const derives = fake.seen.api_key_derives;
      const creates = fake.seen.api_key_creates;
      assert.deepEqual(await adapter.balances(accountOf(dave)), usdc(dave));
      assert.equal(fake.seen.api_key_derives, derives + 1);
      assert.equal(fake.seen.api_key_creates, creates + 1);
      const keys = fake.apiKeysOf(dave.key);
      assert.equal(keys.length, 1);
      assert.notEqual(keys[0]!.apiKey, old!.apiKey);
    });
  });

  describe("the kill switch's dead man's switch", () => {
    it('arms one heartbeat and then none: an order the sweep missed is cancelled by the venue at the deadline', async () => {
      fake.heartbeatDeadlineMs = 300;
      try {
        const gina = fake.addAccount({ cash_1e9: 100 * P });
        const ann = pad(candA.yesToken);
        const child = childId();
        const placed = await adapter.submit(accountOf(gina), { child_id: child, symbol: ann, side: 'buy', qty_1e8: 5 * Q, limit_price_1e9: 0.2 * P, time_in_force: 'gtc' });
        assert.equal(placed.resting_qty_1e8, 5 * Q, placed.reason ?? '');
        const status = () => fake.ordersOf(gina.key)[0]!.status;
        fake.hideFromSweep(fake.ordersOf(gina.key)[0]!.id);
        const beats = fake.seen.heartbeats;
        const stale = fake.seen.heartbeats_refused;
        assert.equal(await adapter.cancelAll(accountOf(gina), [ann]), 0, 'the sweep did not see it');
        assert.equal(fake.seen.heartbeats, beats + 1);
        // A second sweep inside the deadline chains on the id the first heartbeat was given.
        assert.equal(await adapter.cancelAll(accountOf(gina), [ann]), 0);
        const armed_ms = Date.now();
        assert.equal(fake.seen.heartbeats, beats + 2);
        assert.equal(fake.seen.heartbeats_refused, stale);
        assert.equal(status(), 'LIVE');
        await until('cancelled by the venue', () => (status() === 'CANCELED' ? true : undefined), 10_000);
        assert.ok(Date.now() - armed_ms >= 200, 'at the deadline, not before');
        assert.equal(fake.seen.heartbeats, beats + 2, 'no heartbeat after the one that armed it');
        assert.deepEqual(await adapter.lookup(accountOf(gina), child, ann), { found: true, report: { ok: true, reason: null, fills: [], resting_qty_1e8: 0 } });
        // The chain ended at its deadline: the next arm is refused its old id and resent with the one the venue names.
        assert.equal(await adapter.cancelAll(accountOf(gina), [ann]), 0);
        assert.equal(fake.seen.heartbeats_refused, stale + 1);
        assert.equal(fake.seen.heartbeats, beats + 3);
      } finally {
        fake.heartbeatDeadlineMs = 10_000;
      }
    });
  });

  describe('account', () => {
    it('reads the pUSD balance of the maker wallet, EOA or safe', async () => {
      assert.deepEqual(await adapter.balances(accountOf(alice)), [{ asset: 'USDC', free_1e8: BigInt(fake.cashOf(alice.key) / 10), locked_1e8: 0n }]);
      assert.deepEqual(await adapter.balances(accountOf(bob)), [{ asset: 'USDC', free_1e8: BigInt(fake.cashOf(bob.key) / 10), locked_1e8: 0n }]);
    });

    it('probes close-only mode; the tier is the edge\'s at-mid figures', async () => {
      assert.deepEqual(await adapter.probe(accountOf(alice)), { tier: 'base', maker_bps: 0, taker_bps: 50, can_trade: true, can_withdraw: true });
      assert.equal((await adapter.probe(accountOf(carol))).can_trade, false);
      // L2 credentials alone sign nothing: orders and the L1 requests that derive keys need the signer key.
      const noSigner: VenueAccount = { client_id: 'x', credentials: { ...alice.credentials, extra_json: {} } };
      const sent = () => [fake.seen.orders, fake.seen.l2_refused, fake.seen.api_key_derives, fake.seen.api_key_creates, fake.seen.l1_refused];
      const before = sent();
      await assert.rejects(adapter.probe(noSigner), /signer key \(extra_json\.signer_private_key\) is missing/);
      const refused = await adapter.submit(noSigner, ioc(pad(fed.yesToken), 'buy', 10 * Q, 0.5 * P));
      assert.equal(refused.reason, 'polymarket: the signer key (extra_json.signer_private_key) is missing');
      assert.deepEqual(sent(), before, 'nothing sent');
    });

    it('unfollows a market', () => {
      adapter.unfollow('fed-cut-july');
      assert.equal(adapter.marketBook('fed-cut-july', 5), undefined);
      assert.equal(adapter.stats().subscribed, 0);
    });
  });
});
