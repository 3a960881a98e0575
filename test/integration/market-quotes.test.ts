/**
 * Quotes against the real service (gateway, two workers, the simulated venues with seed 7):
 * the single-symbol quote is self-consistent (NBBO = best venue quotes, merged book sorted and
 * depth-limited, mid and spread from the NBBO, zeroed when crossed), live, and validated; the
 * spec's quote rules (`max_age_s`, sources, the cold path, `nowait`) and the batch endpoint with
 * its partial failures and 400s.
 *
 * Fully cold books (no feeding edge subscribed at start) are used once each: the first quote
 * of such a book changes its state for the rest of the service's life. No other test in this
 * file touches them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { listingOf } from '../../domain/venues.ts';
import { book, type BookType } from '../../actors/market/directory.ts';
import { call, envelope, startTestService, TEST_OPERATOR_KEY, type JsonResponse, type TestService, until } from '../helpers/service.ts';

interface Nbbo {
  bid: number;
  ask: number;
  mid: number;
  spread_bps: number;
  bid_size: number;
  ask_size: number;
  crossed: boolean;
}

interface VenueQuote {
  bid: number;
  ask: number;
  bid_size: number;
  ask_size: number;
  age_ms: number;
}

interface Quote {
  symbol: string;
  instrument_type: string;
  nbbo: Nbbo;
  venues: Record<string, VenueQuote>;
  book: { bids: [number, number][]; asks: [number, number][] };
  source: string;
  updated_ms: number;
}

interface BatchError {
  symbol: string;
  error: string;
  code: string;
}

const SOURCES = ['edge_nbbo', 'edge_rpc_snapshot', 'venue_public_api', 'unavailable'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function assertError(res: JsonResponse, status: number, code: string, field?: string): void {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  const err = envelope(res.body);
  assert.equal(err.code, code);
  if (field !== undefined) {
    assert.ok(
      err.details.some((d) => d.field === field),
      `details name ${field}: ${JSON.stringify(err.details)}`,
    );
  }
}

/** The spec's rounding of spread_bps (2 decimals) leaves at most one unit in the last place. */
const SPREAD_TOLERANCE = 0.0100001;

/**
 * Every invariant a single quote must satisfy on its own. The NBBO, the venue quotes and the
 * merged book come from one consistent read, so the equalities are exact.
 */
function checkQuote(q: Quote, depth: number, label: string): void {
  const where = `${label}: ${JSON.stringify(q)}`;
  assert.ok(SOURCES.includes(q.source), where);
  assert.ok(Number.isInteger(q.updated_ms) && q.updated_ms >= 0, where);
  const venues = Object.entries(q.venues);
  for (const [venue, v] of venues) {
    assert.match(venue, /^[a-z]+$/, `plain venue ids (perp edges report under the exchange's id): ${where}`);
    assert.ok(Number.isInteger(v.age_ms) && v.age_ms >= 0, `${venue} age_ms: ${where}`);
    for (const k of ['bid', 'ask', 'bid_size', 'ask_size'] as const) assert.ok(v[k] >= 0, `${venue}.${k}: ${where}`);
    // A venue's own book comes from a matching engine: it never crosses itself.
    if (v.bid > 0 && v.ask > 0) assert.ok(v.bid < v.ask, `${venue} bid < ask: ${where}`);
  }
  const venueBids = venues.map(([, v]) => v.bid).filter((p) => p > 0);
  const venueAsks = venues.map(([, v]) => v.ask).filter((p) => p > 0);
  const { nbbo, book: merged } = q;
  assert.equal(nbbo.bid, venueBids.length > 0 ? Math.max(...venueBids) : 0, `NBBO bid is the best venue bid: ${where}`);
  assert.equal(nbbo.ask, venueAsks.length > 0 ? Math.min(...venueAsks) : 0, `NBBO ask is the best venue ask: ${where}`);
  const sizeAt = (side: 'bid' | 'ask', price: number) =>
    venues.filter(([, v]) => v[side] === price).reduce((sum, [, v]) => sum + v[side === 'bid' ? 'bid_size' : 'ask_size'], 0);
  if (nbbo.bid > 0) assert.ok(Math.abs(nbbo.bid_size - sizeAt('bid', nbbo.bid)) < 1e-7, `bid_size sums the venues at the best bid: ${where}`);
  if (nbbo.ask > 0) assert.ok(Math.abs(nbbo.ask_size - sizeAt('ask', nbbo.ask)) < 1e-7, `ask_size sums the venues at the best ask: ${where}`);

  // Merged book: sorted, depth-limited, its top is the NBBO.
  assert.ok(merged.bids.length <= depth && merged.asks.length <= depth, `depth ${depth}: ${where}`);
  for (const side of [merged.bids, merged.asks]) {
    for (const level of side) {
      assert.equal(level.length, 2, where);
      assert.ok(level[0] > 0 && level[1] > 0, `positive price and size: ${where}`);
    }
  }
  for (let i = 1; i < merged.bids.length; i++) assert.ok(merged.bids[i]![0] < merged.bids[i - 1]![0], `bids strictly descending: ${where}`);
  for (let i = 1; i < merged.asks.length; i++) assert.ok(merged.asks[i]![0] > merged.asks[i - 1]![0], `asks strictly ascending: ${where}`);
  if (merged.bids.length > 0) {
    assert.equal(nbbo.bid, merged.bids[0]![0], `nbbo.bid == book.bids[0][0]: ${where}`);
    assert.equal(nbbo.bid_size, merged.bids[0]![1], `nbbo.bid_size == book.bids[0][1]: ${where}`);
  } else assert.equal(nbbo.bid, 0, where);
  if (merged.asks.length > 0) {
    assert.equal(nbbo.ask, merged.asks[0]![0], `nbbo.ask == book.asks[0][0]: ${where}`);
    assert.equal(nbbo.ask_size, merged.asks[0]![1], `nbbo.ask_size == book.asks[0][1]: ${where}`);
  } else assert.equal(nbbo.ask, 0, where);

  // Crossed: best bid strictly above best ask; then (and with a side missing) mid and spread are 0.
  assert.equal(nbbo.crossed, nbbo.bid > 0 && nbbo.ask > 0 && nbbo.bid > nbbo.ask, `crossed flag: ${where}`);
  if (nbbo.crossed || nbbo.bid === 0 || nbbo.ask === 0) {
    assert.equal(nbbo.mid, 0, `mid zeroed: ${where}`);
    assert.equal(nbbo.spread_bps, 0, `spread_bps zeroed: ${where}`);
  } else {
    const mid = (nbbo.bid + nbbo.ask) / 2;
    assert.ok(Math.abs(nbbo.mid - mid) <= mid * 1e-12, `mid == (bid + ask) / 2: ${where}`);
    const spread = ((nbbo.ask - nbbo.bid) / mid) * 10_000;
    assert.ok(nbbo.spread_bps >= 0, where);
    assert.ok(Math.abs(nbbo.spread_bps - spread) <= SPREAD_TOLERANCE, `spread_bps ${nbbo.spread_bps} vs ${spread}: ${where}`);
  }
}

/** A book none of whose feeding edges subscribes at start (checked against the catalog). */
function fullyCold(symbol: string, type: BookType): string {
  const entry = book(symbol, type);
  assert.ok(entry !== undefined, `${symbol} ${type} is in the directory`);
  assert.ok(
    entry.edges.every((edge) => listingOf(edge, symbol)?.subscribed === false),
    `${symbol} ${type} must be fully cold for this test (catalog changed?)`,
  );
  return symbol;
}

describe('market data: quotes (real service)', () => {
  let svc: TestService;
  let base: string;
  const op = TEST_OPERATOR_KEY;
  const get = <T = any>(path: string) => call<T>(base, 'GET', path, { token: op });
  const post = <T = any>(path: string, body: unknown) => call<T>(base, 'POST', path, { token: op, body });

  before(async () => {
    svc = await startTestService();
    base = svc.base;
    // The subscribed books used below have live data within a bounded wait.
    for (const path of [
      '/v1/quotes/BTC-USDT',
      '/v1/quotes/ETH-USD',
      '/v1/quotes/SOL-USDC',
      '/v1/quotes/ETH-USDT',
      '/v1/quotes/BTC-USDT?instrument_type=perp',
    ]) {
      await until(`live data on ${path}`, async () => {
        const res = await get<Quote>(path);
        return res.status === 200 && res.body.source === 'edge_nbbo' && res.body.book.bids.length > 0 ? true : undefined;
      });
    }
  });

  after(async () => {
    await svc?.stop();
  });

  it('is self-consistent over several samples, symbols and depths (NBBO, venues, merged book)', async (t) => {
    const cases: { path: string; symbol: string; type: string; depth: number }[] = [];
    for (const [symbol, suffix, type] of [
      ['BTC-USDT', '', 'spot'],
      ['ETH-USD', '', 'spot'],
      ['SOL-USDC', '', 'spot'],
      ['BTC-USDT', '&instrument_type=perp', 'perp'],
      ['ETH-USDT', '&instrument_type=spot', 'spot'],
    ] as const) {
      for (const depth of [1, 5, 10, 50]) cases.push({ path: `/v1/quotes/${symbol}?depth=${depth}${suffix}`, symbol, type, depth });
    }
    let crossed = 0;
    for (let round = 0; round < 3; round++) {
      for (const c of cases) {
        const res = await get<Quote>(c.path);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const q = res.body;
        assert.equal(q.symbol, c.symbol);
        assert.equal(q.instrument_type, c.type);
        assert.equal(q.source, 'edge_nbbo', `${c.path} is subscribed at start`);
        assert.ok(Object.keys(q.venues).length > 0, `${c.path} has venue quotes`);
        checkQuote(q, c.depth, c.path);
        // These books are deep: the requested depth is filled.
        if (c.depth <= 5) {
          assert.equal(q.book.bids.length, c.depth, c.path);
          assert.equal(q.book.asks.length, c.depth, c.path);
        }
        if (q.nbbo.crossed) crossed++;
      }
      await sleep(150);
    }
    // The default depth is 10.
    const byDefault = await get<Quote>('/v1/quotes/BTC-USDT');
    assert.equal(byDefault.status, 200);
    checkQuote(byDefault.body, 10, 'default depth');
    assert.equal(byDefault.body.book.bids.length, 10);
    t.diagnostic(`${crossed} of ${cases.length * 3} samples were crossed`);
  });

  it('serves the perp book under instrument_type=perp, reporting the exchanges by their plain venue ids', async () => {
    const perp = await get<Quote>('/v1/quotes/BTC-USDT?instrument_type=perp&depth=3');
    const spot = await get<Quote>('/v1/quotes/BTC-USDT?instrument_type=spot&depth=3');
    assert.equal(perp.status, 200);
    assert.equal(spot.status, 200);
    assert.equal(perp.body.instrument_type, 'perp');
    assert.equal(spot.body.instrument_type, 'spot');
    const perpBook = book('BTC-USDT', 'perp')!;
    assert.deepEqual(Object.keys(perp.body.venues).sort(), [...perpBook.venues].sort(), 'the perp book is fed by the perp edges');
    for (const v of Object.keys(perp.body.venues)) assert.ok(!v.endsWith('-perp'), v);
    // Auto-detection: a symbol that trades spot resolves to spot; a perp-only symbol to perp.
    const auto = await get<Quote>('/v1/quotes/BTC-USDT?depth=1');
    assert.equal(auto.body.instrument_type, 'spot');
    const perpOnly = await get<Quote>('/v1/quotes/BTC-USDC?depth=1&instrument_type=perp');
    assert.equal(perpOnly.status, 200);
    assert.equal(perpOnly.body.instrument_type, 'perp');
    assert.deepEqual(Object.keys(perpOnly.body.venues), ['hyperliquid']);
  });

  it('moves: the NBBO of BTC-USDT changes within a few seconds and ages stay small', async () => {
    const seen = new Set<string>();
    let firstUpdated = -1;
    let lastUpdated = -1;
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline) {
      const res = await get<Quote>('/v1/quotes/BTC-USDT?depth=1');
      assert.equal(res.status, 200);
      const { nbbo, updated_ms } = res.body;
      seen.add(`${nbbo.bid}/${nbbo.ask}/${nbbo.bid_size}/${nbbo.ask_size}`);
      if (firstUpdated < 0) firstUpdated = updated_ms;
      lastUpdated = updated_ms;
      if (seen.size >= 3 && lastUpdated > firstUpdated) break;
      await sleep(100);
    }
    assert.ok(seen.size >= 3, `the NBBO moved: ${[...seen].join(', ')}`);
    assert.ok(lastUpdated > firstUpdated, `updated_ms advanced: ${firstUpdated} -> ${lastUpdated}`);
  });

  it('validates depth (1..50), instrument_type and answers 404 NOT_FOUND for unknown symbols', async () => {
    assertError(await get('/v1/quotes/BTC-USDT?depth=0'), 400, 'VALIDATION_ERROR', 'depth');
    assertError(await get('/v1/quotes/BTC-USDT?depth=51'), 400, 'VALIDATION_ERROR', 'depth');
    assertError(await get('/v1/quotes/BTC-USDT?depth=ten'), 400, 'VALIDATION_ERROR', 'depth');
    assertError(await get('/v1/quotes/BTC-USDT?instrument_type=option'), 400, 'VALIDATION_ERROR', 'instrument_type');
    assertError(await get('/v1/quotes/BTC-USDT?nowait=maybe'), 400, 'VALIDATION_ERROR', 'nowait');
    const max = await get<Quote>('/v1/quotes/BTC-USDT?depth=50');
    assert.equal(max.status, 200);
    checkQuote(max.body, 50, 'depth=50');

    const unknown = await get('/v1/quotes/NOPE-USD');
    assertError(unknown, 404, 'NOT_FOUND');
    assert.deepEqual(envelope(unknown.body).details, []);
    assert.equal(unknown.headers.get('x-request-id'), envelope(unknown.body).request_id);
    // A known symbol without a book of the requested type is "no quote data" too.
    assertError(await get('/v1/quotes/BTC-USD?instrument_type=perp'), 404, 'NOT_FOUND');
    assertError(await get('/v1/quotes/ATOMX-USDT?nowait=true'), 404, 'NOT_FOUND');
  });

  it('GET /v1/quotes filters on the NBBO age: max_age_s=0 drops everything, 86400 keeps both, default 300', async () => {
    const zero = await get<{ quotes: unknown[] }>('/v1/quotes?symbols=BTC-USDT,ETH-USDT&max_age_s=0');
    assert.equal(zero.status, 200, JSON.stringify(zero.body));
    assert.deepEqual(zero.body, { quotes: [] });

    const day = await get<{ quotes: Pick<Quote, 'symbol' | 'nbbo' | 'venues'>[] }>('/v1/quotes?symbols=BTC-USDT,ETH-USDT&max_age_s=86400');
    assert.equal(day.status, 200);
    assert.deepEqual(day.body.quotes.map((q) => q.symbol).sort(), ['BTC-USDT', 'ETH-USDT']);
    for (const q of day.body.quotes) {
      assert.deepEqual(Object.keys(q).sort(), ['nbbo', 'symbol', 'venues']);
      assert.ok(q.nbbo.bid > 0 && q.nbbo.ask > 0, JSON.stringify(q));
      const bids = Object.values(q.venues).map((v) => v.bid).filter((p) => p > 0);
      assert.equal(q.nbbo.bid, Math.max(...bids));
    }

    const byDefault = await get<{ quotes: { symbol: string }[] }>('/v1/quotes?symbols=BTC-USDT,ETH-USDT');
    assert.deepEqual(byDefault.body.quotes.map((q) => q.symbol).sort(), ['BTC-USDT', 'ETH-USDT']);

    // `symbol` is an alias of `symbols`; spaces around the names are ignored.
    const alias = await get<{ quotes: { symbol: string }[] }>('/v1/quotes?symbol=BTC-USDT,%20SOL-USDC&max_age_s=86400');
    assert.equal(alias.status, 200);
    assert.deepEqual(alias.body.quotes.map((q) => q.symbol).sort(), ['BTC-USDT', 'SOL-USDC']);
    const one = await get<{ quotes: { symbol: string }[] }>('/v1/quotes?symbol=ETH-USD');
    assert.deepEqual(one.body.quotes.map((q) => q.symbol), ['ETH-USD']);
  });

  it('GET /v1/quotes rejects a missing symbol list and a negative max_age_s', async () => {
    assertError(await get('/v1/quotes'), 400, 'VALIDATION_ERROR', 'symbols');
    assertError(await get('/v1/quotes?symbols='), 400, 'VALIDATION_ERROR', 'symbols');
    assertError(await get('/v1/quotes?symbols=,,'), 400, 'VALIDATION_ERROR', 'symbols');
    assertError(await get('/v1/quotes?max_age_s=10'), 400, 'VALIDATION_ERROR', 'symbols');
    assertError(await get('/v1/quotes?symbols=BTC-USDT&max_age_s=-1'), 400, 'VALIDATION_ERROR', 'max_age_s');
    assertError(await get('/v1/quotes?symbols=BTC-USDT&max_age_s=soon'), 400, 'VALIDATION_ERROR', 'max_age_s');
  });

  it('source: a subscribed symbol is a live cache hit (edge_nbbo)', async () => {
    for (const path of ['/v1/quotes/BTC-USDT', '/v1/quotes/ETH-USD?nowait=true', '/v1/quotes/BTC-USDT?instrument_type=perp']) {
      const res = await get<Quote>(path);
      assert.equal(res.status, 200);
      assert.equal(res.body.source, 'edge_nbbo', path);
    }
  });

  it('source: a fully cold symbol is served by a one-shot snapshot first, then from the live cache', async () => {
    const symbol = fullyCold('ATOM-USDT', 'spot');
    const first = await get<Quote>(`/v1/quotes/${symbol}?depth=5`);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.source, 'edge_rpc_snapshot', JSON.stringify(first.body));
    assert.equal(first.body.symbol, symbol);
    assert.ok(first.body.book.bids.length > 0 && first.body.book.asks.length > 0, 'the snapshot carries book data');
    assert.ok(first.body.nbbo.bid > 0 && first.body.nbbo.ask > 0);
    assert.deepEqual(
      Object.keys(first.body.venues).sort(),
      [...book(symbol, 'spot')!.venues].sort(),
      'every feeding venue answered the snapshot',
    );
    checkQuote(first.body, 5, 'cold snapshot');

    // The background subscription makes later calls live cache hits (spec: within about 5 to 15 s).
    const live = await until(
      `${symbol} from the live cache`,
      async () => {
        const res = await get<Quote>(`/v1/quotes/${symbol}?depth=5`);
        assert.equal(res.status, 200);
        assert.ok(['edge_nbbo', 'edge_rpc_snapshot'].includes(res.body.source), res.body.source);
        return res.body.source === 'edge_nbbo' ? res.body : undefined;
      },
      15_000,
      250,
    );
    checkQuote(live, 5, 'cold symbol, now live');
    assert.ok(live.book.bids.length > 0);
  });

  it('source: nowait on a fully cold symbol does not wait for a snapshot: unavailable (200, empty book, zero NBBO), live later', async (t) => {
    // The first nowait call warms the symbol and reads the cache at once. A worker may, rarely,
    // fill the cache between those two steps (then the answer is a true edge_nbbo); it never
    // waits for a snapshot. Several fully cold books make observing `unavailable` certain.
    const candidates: [string, BookType][] = [
      ['LTC-USDT', 'perp'],
      ['ATOM-USD', 'spot'],
      ['OP-USDC', 'perp'],
      ['LINK-USDC', 'spot'],
    ];
    const unavailable: [string, BookType][] = [];
    for (const [symbol, type] of candidates) {
      fullyCold(symbol, type);
      const res = await get<Quote>(`/v1/quotes/${symbol}?nowait=true&instrument_type=${type}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.notEqual(res.body.source, 'edge_rpc_snapshot', `nowait never takes the snapshot path (${symbol} ${type})`);
      if (res.body.source === 'unavailable') {
        assert.equal(res.body.symbol, symbol);
        assert.equal(res.body.instrument_type, type);
        assert.deepEqual(res.body.nbbo, { bid: 0, ask: 0, mid: 0, spread_bps: 0, bid_size: 0, ask_size: 0, crossed: false });
        assert.deepEqual(res.body.venues, {});
        assert.deepEqual(res.body.book, { bids: [], asks: [] });
        unavailable.push([symbol, type]);
      } else {
        assert.equal(res.body.source, 'edge_nbbo');
        checkQuote(res.body, 10, `${symbol} nowait`);
        t.diagnostic(`${symbol} ${type}: the cache filled before the nowait read (edge_nbbo)`);
      }
      if (unavailable.length > 0) break;
    }
    assert.ok(unavailable.length > 0, 'a first nowait call on a fully cold book answers unavailable');
    for (const [symbol, type] of unavailable) {
      const live = await until(
        `${symbol} ${type} live after the background subscription`,
        async () => {
          const res = await get<Quote>(`/v1/quotes/${symbol}?nowait=true&instrument_type=${type}`);
          assert.equal(res.status, 200);
          return res.body.source === 'edge_nbbo' ? res.body : undefined;
        },
        15_000,
        100,
      );
      checkQuote(live, 10, `${symbol} live`);
      assert.ok(live.book.bids.length > 0 || live.book.asks.length > 0);
    }
  });

  it('POST /v1/quotes_batch: partial failures are entries in order at HTTP 200', async () => {
    const symbols = ['BTC-USDT', 'NOPE-USD', 'ETH-USD', 'btc-usdt', 'SOL-USDC', 'ZZZ-ZZZ', 'BTC-USDT'];
    const res = await post<{ quotes: (Quote | BatchError)[]; count: number; elapsed_ms: number }>('/v1/quotes_batch', { symbols, depth: 3 });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body).sort(), ['count', 'elapsed_ms', 'quotes']);
    assert.equal(res.body.count, symbols.length);
    assert.equal(res.body.quotes.length, symbols.length);
    assert.ok(Number.isInteger(res.body.elapsed_ms) && res.body.elapsed_ms >= 0, String(res.body.elapsed_ms));
    const expected = ['BTC-USDT', 'NOPE-USD', 'ETH-USD', 'BTC-USDT', 'SOL-USDC', 'ZZZ-ZZZ', 'BTC-USDT'];
    res.body.quotes.forEach((entry, i) => {
      if (symbols[i] === 'NOPE-USD' || symbols[i] === 'ZZZ-ZZZ') {
        const e = entry as BatchError;
        assert.deepEqual(Object.keys(e).sort(), ['code', 'error', 'symbol'], JSON.stringify(e));
        assert.equal(e.symbol, symbols[i]);
        assert.equal(e.code, 'NOT_FOUND');
        assert.equal(typeof e.error, 'string');
        assert.ok(e.error.length > 0);
      } else {
        const q = entry as Quote;
        assert.equal(q.symbol, expected[i], `entry ${i} in request order`);
        assert.equal(q.source, 'edge_nbbo');
        assert.equal(q.instrument_type, 'spot');
        checkQuote(q, 3, `batch entry ${i}`);
        assert.ok(q.book.bids.length > 0);
      }
    });

    // instrument_type applies to every symbol; a symbol without that book is a partial failure.
    const perp = await post<{ quotes: (Quote | BatchError)[]; count: number }>('/v1/quotes_batch', {
      symbols: ['BTC-USDT', 'BTC-USD'],
      instrument_type: 'perp',
      depth: 2,
      concurrency: 1,
      nowait: true,
    });
    assert.equal(perp.status, 200, JSON.stringify(perp.body));
    assert.equal(perp.body.count, 2);
    assert.equal((perp.body.quotes[0] as Quote).instrument_type, 'perp');
    checkQuote(perp.body.quotes[0] as Quote, 2, 'batch perp');
    assert.equal((perp.body.quotes[1] as BatchError).code, 'NOT_FOUND');
    assert.equal((perp.body.quotes[1] as BatchError).symbol, 'BTC-USD');

    // Depth above the single-symbol route's 50 is accepted in a batch and capped at 50.
    const deep = await post<{ quotes: Quote[] }>('/v1/quotes_batch', { symbols: ['BTC-USDT'], depth: 100, instrument_type: null });
    assert.equal(deep.status, 200, JSON.stringify(deep.body));
    checkQuote(deep.body.quotes[0]!, 100, 'batch depth 100');
    assert.ok(deep.body.quotes[0]!.book.bids.length <= 50);

    // Every entry an error is still a 200.
    const allBad = await post<{ quotes: BatchError[]; count: number }>('/v1/quotes_batch', { symbols: ['NOPE-USD'] });
    assert.equal(allBad.status, 200);
    assert.deepEqual(allBad.body.quotes.map((e) => e.code), ['NOT_FOUND']);
  });

  it('POST /v1/quotes_batch takes up to 2000 symbols, concurrency up to 256', async () => {
    const hot = ['BTC-USDT', 'ETH-USDT', 'ETH-USD', 'SOL-USDC', 'BTC-USD'];
    const symbols = Array.from({ length: 2000 }, (_, i) => hot[i % hot.length]!);
    const res = await post<{ quotes: Quote[]; count: number; elapsed_ms: number }>('/v1/quotes_batch', {
      symbols,
      depth: 1,
      concurrency: 256,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 500));
    assert.equal(res.body.count, 2000);
    assert.equal(res.body.quotes.length, 2000);
    res.body.quotes.forEach((q, i) => assert.equal(q.symbol, symbols[i], `entry ${i} in request order`));
    assert.ok(Number.isInteger(res.body.elapsed_ms) && res.body.elapsed_ms >= 0);
  });

  it('POST /v1/quotes_batch answers 400 for an empty list, depth out of 1..100, > 2000 symbols, concurrency out of 1..256', async () => {
    assertError(await post('/v1/quotes_batch', { symbols: [] }), 400, 'VALIDATION_ERROR', 'symbols');
    assertError(await post('/v1/quotes_batch', {}), 400, 'VALIDATION_ERROR');
    assertError(await post('/v1/quotes_batch', { symbols: ['BTC-USDT'], depth: 0 }), 400, 'VALIDATION_ERROR', 'depth');
    assertError(await post('/v1/quotes_batch', { symbols: ['BTC-USDT'], depth: 101 }), 400, 'VALIDATION_ERROR', 'depth');
    const tooMany = Array.from({ length: 2001 }, () => 'BTC-USDT');
    assertError(await post('/v1/quotes_batch', { symbols: tooMany }), 400, 'VALIDATION_ERROR', 'symbols');
    assertError(await post('/v1/quotes_batch', { symbols: ['BTC-USDT'], concurrency: 257 }), 400, 'VALIDATION_ERROR', 'concurrency');
    assertError(await post('/v1/quotes_batch', { symbols: ['BTC-USDT'], concurrency: 0 }), 400, 'VALIDATION_ERROR', 'concurrency');
    assertError(await post('/v1/quotes_batch', { symbols: 'BTC-USDT' }), 400, 'VALIDATION_ERROR', 'symbols');
    assertError(await post('/v1/quotes_batch', { symbols: ['BTC-USDT'], instrument_type: 'option' }), 400, 'VALIDATION_ERROR', 'instrument_type');
  });
});
