/**
 * The market-data endpoints other than quotes, against the real service (gateway, two workers,
 * the simulated venues with seed 7, LMDB in a temp dir): the newcomer's flow (edges, health,
 * symbols), fair price, fees, price history and the data engine (trade tape in LMDB), funding,
 * feed health, and the OpenAPI document listing each of them.
 *
 * Reference lists (which edges exist, what each lists and subscribes at start) come from the
 * venue catalog; the spec's own minimums are asserted beside them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EDGES, listingsOf } from '../../domain/venues.ts';
import { book, books } from '../../actors/market/directory.ts';
import { call, envelope, startTestService, TEST_OPERATOR_KEY, type JsonResponse, type TestService } from '../helpers/service.ts';

const SPOT_VENUES = ['binance', 'coinbase', 'kraken', 'okx', 'bybit', 'kucoin', 'bitstamp'];
const TEN_VENUES = [...SPOT_VENUES, 'hyperliquid', 'kalshi', 'polymarket'];

interface EdgeStatus {
  edge_id: string;
  connected: boolean;
  symbol_count: number;
  symbols: { symbol: string; instrument_type: string }[];
  last_seen_ms: number;
  supports_algo_runtime: boolean;
  region?: string | null;
  remote?: boolean | null;
  venue: string;
  instrument_type: string;
}

interface FairPrice {
  underlying: string;
  fair_mid_1e9: number;
  spot_mid_1e9: number | null;
  perp_mid_1e9: number | null;
  basis_bps: number | null;
  confidence: number;
  contributors: { venue: string; instrument_type: string; mid_1e9: number; weight: number; staleness_ms: number }[];
  cc_ts_ns: number;
}

interface FeeRow {
  venue: string;
  fee_model: string;
  components: Record<string, unknown>;
  formula: { taker_fee_usd: string; maker_fee_usd: string };
  maker_bps: number | null;
  taker_bps: number | null;
}

interface Point {
  ts_ns: number;
  price_1e9: number;
  qty_1e8?: number;
  side?: string;
  venue_id?: string;
}

interface Tick {
  ts_ns: number;
  price_1e9: number;
  qty_1e8: number;
  side: string;
  venue_id: string;
  trade_id: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000, everyMs = 150): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    const value = await probe().catch((err: unknown) => {
      last = err;
      return undefined;
    });
    if (value !== undefined) return value;
    if (Date.now() >= deadline) assert.fail(`${what}: not within ${timeoutMs} ms${last ? ` (last error: ${String(last)})` : ''}`);
    await sleep(everyMs);
  }
}

function assertError(res: JsonResponse, status: number, code: string, field?: string): void {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  const err = envelope(res.body);
  assert.equal(err.code, code);
  if (field !== undefined) assert.ok(err.details.some((d) => d.field === field), `details name ${field}: ${JSON.stringify(err.details)}`);
}

const where = (v: unknown) => JSON.stringify(v);
const isInt = (v: unknown) => typeof v === 'number' && Number.isInteger(v);

function assertAscending(values: number[], what: string, strict = false): void {
  for (let i = 1; i < values.length; i++) {
    assert.ok(strict ? values[i]! > values[i - 1]! : values[i]! >= values[i - 1]!, `${what}: ${values[i - 1]} then ${values[i]}`);
  }
}

describe('market data: edges, symbols, fair price, fees, history, funding, health (real service)', () => {
  let svc: TestService;
  let base: string;
  let startedMs: number;
  const op = TEST_OPERATOR_KEY;
  const get = <T = any>(path: string) => call<T>(base, 'GET', path, { token: op });

  before(async () => {
    startedMs = Date.now();
    svc = await startTestService();
    base = svc.base;
  });

  after(async () => {
    await svc?.stop();
  });

  it('GET /v1/edges: every venue edge of the catalog, connected within a bounded wait, symbol_count == symbols.length', async () => {
    const edges = await until('every edge connected', async () => {
      const res = await get<EdgeStatus[]>('/v1/edges');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      // Connected, and every edge that streams symbols has delivered data (last_seen_ms > 0).
      return res.body.every((e) => e.connected && (e.symbol_count === 0 || e.last_seen_ms > 0)) ? res.body : undefined;
    });
    assert.ok(Array.isArray(edges), 'a bare array');
    const ids = edges.map((e) => e.edge_id);
    assert.deepEqual([...ids].sort(), EDGES.map((e) => e.edge_id).sort(), 'the catalog\'s edges');
    assert.equal(new Set(ids).size, ids.length, 'edge ids are unique');

    // The spec's shape of the universe: seven spot edges, hyperliquid, at least two -perp edges of
    // spot exchanges, the two prediction venues; ten venue ids in all.
    for (const venue of SPOT_VENUES) assert.ok(ids.includes(`venue-edge-${venue}`), venue);
    for (const venue of ['hyperliquid', 'kalshi', 'polymarket']) assert.ok(ids.includes(`venue-edge-${venue}`), venue);
    const perpEdges = edges.filter((e) => e.edge_id.endsWith('-perp'));
    assert.ok(perpEdges.length >= 2, `at least two -perp edges: ${perpEdges.map((e) => e.edge_id)}`);
    for (const e of perpEdges) {
      assert.equal(e.instrument_type, 'perp');
      assert.equal(e.edge_id, `venue-edge-${e.venue}-perp`, 'a -perp edge reports the exchange\'s plain venue id');
      assert.ok(SPOT_VENUES.includes(e.venue) && ids.includes(`venue-edge-${e.venue}`), `${e.edge_id} has a spot sibling`);
    }
    assert.deepEqual([...new Set(edges.map((e) => e.venue))].sort(), [...TEN_VENUES].sort(), 'the ten venue ids');
    assert.equal(edges.length, SPOT_VENUES.length + 3 + perpEdges.length);

    for (const e of edges) {
      const where = JSON.stringify({ ...e, symbols: e.symbols.length });
      assert.equal(e.connected, true, where);
      assert.ok(isInt(e.symbol_count) && e.symbol_count >= 0, where);
      assert.equal(e.symbol_count, e.symbols.length, where);
      assert.ok(isInt(e.last_seen_ms) && e.last_seen_ms >= 0, where);
      assert.equal(typeof e.supports_algo_runtime, 'boolean', where);
      assert.ok(e.region === undefined || e.region === null || typeof e.region === 'string', where);
      assert.ok(e.remote === undefined || e.remote === null || e.remote === false, `local edges: ${where}`);
      for (const s of e.symbols) {
        assert.equal(s.instrument_type, e.instrument_type, where);
        assert.ok(['spot', 'perp', 'prediction'].includes(s.instrument_type), where);
        if (e.instrument_type === 'prediction') {
          // Each trading market by its YES leg's symbol: a 78-digit token id or a ticker.
          assert.match(s.symbol, e.venue === 'polymarket' ? /^polymarket:\d{78}$/ : /^KX[A-Z0-9]+-[A-Z0-9.-]+:YES$/, where);
        } else {
          assert.match(s.symbol, /^[A-Z0-9]+-[A-Z0-9]+$/, 'canonical BASE-QUOTE symbols');
        }
      }
      if (e.instrument_type === 'prediction') {
        assert.ok(e.symbol_count > 100, `${e.edge_id} lists its trading markets`);
        continue;
      }
      // Nothing has asked for a cold symbol in this service: each edge streams its start set.
      const expected = listingsOf(e.edge_id).filter((l) => l.subscribed).map((l) => l.symbol).sort();
      assert.deepEqual(e.symbols.map((s) => s.symbol).sort(), expected, `${e.edge_id} streams its subscription set`);
    }
    for (const venue of ['hyperliquid', ...SPOT_VENUES]) {
      const edge = edges.find((e) => e.edge_id === `venue-edge-${venue}`)!;
      assert.ok(edge.symbol_count > 0, `${venue} streams symbols`);
      assert.ok(edge.last_seen_ms > 0, `${venue} has been seen`);
    }
    // The canonical symbol is shared by spot and perp of one exchange.
    const binanceSpot = edges.find((e) => e.edge_id === 'venue-edge-binance')!;
    const binancePerp = edges.find((e) => e.edge_id === 'venue-edge-binance-perp');
    if (binancePerp !== undefined) {
      assert.ok(binanceSpot.symbols.some((s) => s.symbol === 'BTC-USDT') && binancePerp.symbols.some((s) => s.symbol === 'BTC-USDT'));
    }
  });

  it('GET /v1/health/edges is public and reports no drift once the ten venues are connected', async () => {
    const health = await until('health/edges ok', async () => {
      const res = await call<{ ok: boolean; expected: string[]; connected: string[]; missing: string[]; unexpected: string[]; edges: { edge_id: string; connected: boolean }[] }>(
        base,
        'GET',
        '/v1/health/edges',
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.ok ? res.body : undefined;
    });
    assert.deepEqual([...health.expected].sort(), [...TEN_VENUES].sort());
    assert.deepEqual([...health.connected].sort(), [...TEN_VENUES].sort());
    assert.deepEqual(health.missing, []);
    assert.deepEqual(health.unexpected, []);
    assert.deepEqual(health.edges.map((e) => e.edge_id).sort(), EDGES.map((e) => e.edge_id).sort());
    // A bad credential does not matter on a public route.
    const withBadToken = await call(base, 'GET', '/v1/health/edges', { token: 'not-a-key' });
    assert.equal(withBadToken.status, 200);
  });

  it('GET /v1/symbols: at least 25 spot pairs in USD, USDT and USDC, perps sharing the canonical symbol, per-venue rules', async () => {
    const anonymous = await call(base, 'GET', '/v1/symbols');
    assertError(anonymous, 401, 'UNAUTHENTICATED');
    const res = await get<{ symbols: { symbol: string; instrument_type: string; base: string; quote: string; venues: Record<string, unknown>[] }[]; count: number }>('/v1/symbols');
    assert.equal(res.status, 200);
    const { symbols, count } = res.body;
    assert.equal(count, symbols.length);
    const spot = symbols.filter((s) => s.instrument_type === 'spot');
    const perp = symbols.filter((s) => s.instrument_type === 'perp');
    assert.ok(spot.length >= 25, `${spot.length} spot pairs`);
    assert.ok(perp.length > 0, 'perpetuals');
    for (const s of symbols) {
      assert.equal(s.symbol, `${s.base}-${s.quote}`);
      assert.ok(['USD', 'USDT', 'USDC'].includes(s.quote), s.symbol);
      assert.ok(s.venues.length > 0, s.symbol);
      for (const v of s.venues) {
        assert.ok(TEN_VENUES.includes(v['venue'] as string), JSON.stringify(v));
        assert.match(v['edge_id'] as string, /^venue-edge-[a-z]+(-perp)?$/);
        for (const k of ['tick_1e9', 'lot_1e8', 'min_qty_1e8', 'min_notional_1e9']) assert.ok(isInt(v[k]) && (v[k] as number) >= 0, `${s.symbol} ${k}`);
        assert.ok((v['tick_1e9'] as number) > 0 && (v['lot_1e8'] as number) > 0);
      }
    }
    const names = new Set(spot.map((s) => s.symbol));
    for (const base of ['BTC', 'ETH', 'SOL']) for (const quote of ['USD', 'USDT', 'USDC']) assert.ok(names.has(`${base}-${quote}`), `${base}-${quote}`);
    // Not every venue lists every pair.
    assert.ok(spot.some((s) => s.venues.length < SPOT_VENUES.length));
    // Perps on hyperliquid and on spot exchanges; BTC-USDT is both spot and perp.
    const perpVenues = new Set(perp.flatMap((s) => s.venues.map((v) => v['venue'] as string)));
    assert.ok(perpVenues.has('hyperliquid'));
    assert.ok([...perpVenues].filter((v) => SPOT_VENUES.includes(v)).length >= 2, [...perpVenues].join(','));
    assert.ok(names.has('BTC-USDT') && perp.some((s) => s.symbol === 'BTC-USDT'));
    assert.equal(symbols.length, books().length, 'one entry per book');
  });

  it('GET /v1/fair_price lists BTC, ETH and SOL once contributions arrive', async () => {
    const list = await until('fair prices for BTC, ETH, SOL', async () => {
      const res = await get<{ underlyings: string[] }>('/v1/fair_price');
      assert.equal(res.status, 200);
      return ['BTC', 'ETH', 'SOL'].every((u) => res.body.underlyings.includes(u)) ? res.body.underlyings : undefined;
    });
    assert.deepEqual(Object.keys((await get('/v1/fair_price')).body), ['underlyings']);
    for (const u of list) assert.match(u, /^[A-Z0-9]+$/, 'uppercase assets, settlement variants collapsed');
    assert.equal(new Set(list).size, list.length);
    assert.ok(list.length <= 256);
  });

  it('GET /v1/fair_price/{underlying}: the spec\'s fields, fair mid within the contributors\' range', async () => {
    const fair = await until('fair price of BTC with spot and perp legs', async () => {
      const res = await get<FairPrice>('/v1/fair_price/BTC');
      return res.status === 200 && res.body.spot_mid_1e9 !== null && res.body.perp_mid_1e9 !== null ? res.body : undefined;
    });
    const check = (f: FairPrice, underlying: string) => {
      const where = JSON.stringify(f);
      assert.equal(f.underlying, underlying);
      assert.ok(isInt(f.fair_mid_1e9) && f.fair_mid_1e9 > 0, where);
      assert.ok(f.spot_mid_1e9 === null || isInt(f.spot_mid_1e9), where);
      assert.ok(f.perp_mid_1e9 === null || isInt(f.perp_mid_1e9), where);
      assert.equal(f.basis_bps === null, f.spot_mid_1e9 === null || f.perp_mid_1e9 === null, `basis null iff a leg is missing: ${where}`);
      if (f.basis_bps !== null) {
        assert.equal(typeof f.basis_bps, 'number');
        // Signed: positive when perps trade above spot.
        assert.equal(Math.sign(f.basis_bps), Math.sign(f.perp_mid_1e9! - f.spot_mid_1e9!), where);
      }
      assert.ok(typeof f.confidence === 'number' && f.confidence >= 0 && f.confidence <= 1, where);
      assert.ok(isInt(f.cc_ts_ns) && f.cc_ts_ns > startedMs * 1e6, where);
      assert.ok(f.contributors.length > 0, where);
      for (const c of f.contributors) {
        assert.deepEqual(Object.keys(c).sort(), ['instrument_type', 'mid_1e9', 'staleness_ms', 'venue', 'weight'], where);
        assert.ok(TEN_VENUES.includes(c.venue), `plain venue ids: ${c.venue}`);
        assert.ok(['spot', 'perp'].includes(c.instrument_type), where);
        assert.ok(isInt(c.mid_1e9) && c.mid_1e9 > 0, where);
        assert.ok(typeof c.weight === 'number' && c.weight >= 0 && c.weight <= 1, where);
        assert.ok(isInt(c.staleness_ms) && c.staleness_ms >= 0, where);
      }
      const mids = f.contributors.map((c) => c.mid_1e9);
      assert.ok(f.fair_mid_1e9 >= Math.min(...mids) && f.fair_mid_1e9 <= Math.max(...mids), `fair mid within [min, max] of contributors: ${where}`);
      for (const [leg, type] of [[f.spot_mid_1e9, 'spot'], [f.perp_mid_1e9, 'perp']] as const) {
        const legMids = f.contributors.filter((c) => c.instrument_type === type).map((c) => c.mid_1e9);
        if (leg === null) continue;
        assert.ok(legMids.length > 0, `${type} leg has contributors`);
        assert.ok(leg >= Math.min(...legMids) && leg <= Math.max(...legMids), `${type} mid within its contributors: ${where}`);
      }
    };
    check(fair, 'BTC');
    // BTC trades spot and perp on many venues: both legs among the survivors (outliers are not listed).
    assert.ok(new Set(fair.contributors.map((c) => c.venue)).size >= 3, where(fair));
    assert.ok(fair.contributors.some((c) => c.instrument_type === 'spot') && fair.contributors.some((c) => c.instrument_type === 'perp'));

    const lower = await get<FairPrice>('/v1/fair_price/btc');
    assert.equal(lower.status, 200);
    check(lower.body, 'BTC');
    for (const u of ['ETH', 'SOL']) {
      const res = await get<FairPrice>(`/v1/fair_price/${u}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      check(res.body, u);
    }
    // A spot-only underlying has no perp leg, so no basis (ATOM is cold; pick one listed spot only).
    const spotOnly = ['NEAR', 'DOT', 'BCH', 'UNI'].find((u) => books().every((b) => !(b.instrument_type === 'perp' && b.symbol.startsWith(`${u}-`))));
    if (spotOnly !== undefined) {
      const res = await until(`fair price of ${spotOnly}`, async () => {
        const r = await get<FairPrice>(`/v1/fair_price/${spotOnly}`);
        return r.status === 200 ? r.body : undefined;
      });
      check(res, spotOnly);
      assert.equal(res.perp_mid_1e9, null);
      assert.equal(res.basis_bps, null);
    }

    assertError(await get('/v1/fair_price/ZZZ'), 404, 'NOT_FOUND');
    assertError(await get('/v1/fair_price/BTC-USDT'), 400, 'VALIDATION_ERROR', 'underlying');
  });

  it('GET /v1/fees: linear rows with formula strings and integer bps for the venues listing the ticker', async () => {
    const res = await get<{ ticker: string; fees: FeeRow[] }>('/v1/fees?ticker=BTC-USDT');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.ticker, 'BTC-USDT');
    const listing = [...new Set([...book('BTC-USDT', 'spot')!.venues, ...(book('BTC-USDT', 'perp')?.venues ?? [])])];
    assert.deepEqual(res.body.fees.map((f) => f.venue).sort(), [...listing].sort(), 'every venue listing BTC-USDT, once');
    for (const row of res.body.fees) {
      const where = JSON.stringify(row);
      assert.deepEqual(Object.keys(row).sort(), ['components', 'fee_model', 'formula', 'maker_bps', 'taker_bps', 'venue'], where);
      assert.equal(row.fee_model, 'linear', where);
      assert.deepEqual(row.components, {}, where);
      assert.ok(isInt(row.maker_bps) && row.maker_bps! >= 0, where);
      assert.ok(isInt(row.taker_bps) && row.taker_bps! >= 0, where);
      assert.equal(typeof row.formula.taker_fee_usd, 'string');
      assert.equal(typeof row.formula.maker_fee_usd, 'string');
      for (const [formula, bps] of [[row.formula.taker_fee_usd, row.taker_bps], [row.formula.maker_fee_usd, row.maker_bps]] as const) {
        assert.match(formula, /\bqty\b/, where);
        assert.match(formula, /\bprice\b/, where);
        // The formula evaluates to qty x price x bps / 10000 (plain arithmetic only, checked first).
        assert.match(formula, /^[\sA-Za-z0-9_.*+\/()-]+$/, where);
        const value = Function('qty', 'price', `return ${formula};`)(2, 50_000) as number;
        assert.ok(Math.abs(value - (2 * 50_000 * bps!) / 10_000) < 1e-9, `${formula} with bps ${bps}`);
      }
    }

    const filtered = await get<{ ticker: string; fees: FeeRow[] }>('/v1/fees?ticker=BTC-USDT&venues=binance,kraken');
    assert.equal(filtered.status, 200);
    assert.deepEqual(filtered.body.fees.map((f) => f.venue).sort(), ['binance', 'kraken']);
    for (const row of filtered.body.fees) assert.equal(row.fee_model, 'linear');

    assertError(await get('/v1/fees?ticker=BTC-USDT&venues=nope'), 400, 'VALIDATION_ERROR', 'venues');
    assertError(await get('/v1/fees?ticker=BTC-USDT&venues=binance,nope'), 400, 'VALIDATION_ERROR', 'venues');
    assertError(await get('/v1/fees'), 400, 'VALIDATION_ERROR', 'ticker');
    assertError(await get('/v1/fees?venues=binance'), 400, 'VALIDATION_ERROR', 'ticker');
  });

  it('GET /v1/price_history/{symbol}: tick mode and minute buckets from the tape, ascending', async () => {
    const ticks = await until('trades of BTC-USDT on the tape', async () => {
      const res = await get<{ symbol: string; range: string; fidelity_secs: number; points: Point[] }>('/v1/price_history/BTC-USDT?fidelity_secs=0&limit=5');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.points.length >= 2 ? res.body : undefined;
    });
    assert.equal(ticks.symbol, 'BTC-USDT');
    assert.equal(ticks.range, '1d');
    assert.equal(ticks.fidelity_secs, 0);
    assert.ok(ticks.points.length <= 5);
    assertAscending(ticks.points.map((p) => p.ts_ns), 'tick ts_ns ascending');
    const venues = book('BTC-USDT', 'spot')!.venues;
    for (const p of ticks.points) {
      const where = JSON.stringify(p);
      assert.ok(isInt(p.ts_ns) && p.ts_ns > startedMs * 1e6 - 60e9, where);
      assert.ok(isInt(p.price_1e9) && p.price_1e9 > 0, where);
      assert.ok(isInt(p.qty_1e8) && p.qty_1e8! > 0, where);
      assert.ok(p.side === 'buy' || p.side === 'sell', where);
      assert.ok(venues.includes(p.venue_id!), `a spot venue of BTC-USDT: ${where}`);
    }

    const minutes = await get<{ symbol: string; range: string; fidelity_secs: number; points: Point[] }>('/v1/price_history/BTC-USDT');
    assert.equal(minutes.status, 200);
    assert.equal(minutes.body.range, '1d');
    assert.equal(minutes.body.fidelity_secs, 60);
    assert.ok(minutes.body.points.length >= 1);
    assertAscending(minutes.body.points.map((p) => p.ts_ns), 'minute buckets ascending', true);
    for (const p of minutes.body.points) {
      assert.ok(isInt(p.ts_ns) && p.ts_ns % 60e9 === 0, `minute bucket: ${p.ts_ns}`);
      assert.ok(isInt(p.price_1e9) && p.price_1e9 > 0);
      assert.equal(p.qty_1e8, undefined, 'qty only in tick mode');
    }

    const seconds = await get<{ points: Point[]; range: string }>('/v1/price_history/BTC-USDT?fidelity_secs=1&range=1h');
    assert.equal(seconds.status, 200, JSON.stringify(seconds.body));
    assert.equal(seconds.body.range, '1h');
    assertAscending(seconds.body.points.map((p) => p.ts_ns), 'second buckets ascending', true);
    for (const p of seconds.body.points) assert.ok(p.ts_ns % 1e9 === 0, `second bucket: ${p.ts_ns}`);

    const perp = await get<{ points: Point[] }>('/v1/price_history/BTC-USDT?fidelity_secs=0&limit=3&instrument_type=perp');
    assert.equal(perp.status, 200);
    for (const p of perp.body.points) assert.ok(book('BTC-USDT', 'perp')!.venues.includes(p.venue_id!), JSON.stringify(p));

    assertError(await get('/v1/price_history/BTC-USDT?range=2d'), 400, 'VALIDATION_ERROR', 'range');
    assertError(await get('/v1/price_history/BTC-USDT?fidelity_secs=0&limit=501'), 400, 'VALIDATION_ERROR', 'limit');
    assertError(await get('/v1/price_history/BTC-USDT?fidelity_secs=-1'), 400, 'VALIDATION_ERROR', 'fidelity_secs');
    assertError(await get('/v1/price_history/BTC-USDT?range=1w&fidelity_secs=1'), 400, 'VALIDATION_ERROR', 'fidelity_secs');
    assertError(await get('/v1/price_history/NOPE-USD'), 404, 'NOT_FOUND');
  });

  it('data engine: /v1/data/health, /v1/data/ticks, /v1/data/ticks/range, /v1/data/stats', async () => {
    const health = await until('data health ok', async () => {
      const res = await get<{ ok: boolean; written: number }>('/v1/data/health');
      assert.equal(res.status, 200);
      return res.body.ok ? res.body : undefined;
    });
    assert.ok(health.written > 0, JSON.stringify(health));

    const recent = await until('three recent ticks', async () => {
      const res = await get<{ symbol: string; ticks: Tick[] }>('/v1/data/ticks?symbol=BTC-USDT&limit=3');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.ticks.length === 3 ? res.body : undefined;
    });
    assert.equal(recent.symbol, 'BTC-USDT');
    assertAscending(recent.ticks.map((t) => t.ts_ns), 'recent ticks ascending');
    for (const t of recent.ticks) {
      assert.ok(isInt(t.ts_ns) && isInt(t.price_1e9) && isInt(t.qty_1e8), JSON.stringify(t));
      assert.ok(t.side === 'buy' || t.side === 'sell');
      assert.equal(typeof t.trade_id, 'string');
      assert.ok(t.trade_id.length > 0);
    }
    const onVenue = await get<{ ticks: Tick[] }>('/v1/data/ticks?symbol=BTC-USDT&limit=5&venue=binance');
    assert.equal(onVenue.status, 200);
    for (const t of onVenue.body.ticks) assert.equal(t.venue_id, 'binance');

    const from = new Date(Date.now() - 120_000).toISOString();
    const to = new Date(Date.now() + 1_000).toISOString();
    const range = await get<{ symbol: string; ticks: Tick[]; has_more: boolean }>(
      `/v1/data/ticks/range?symbol=BTC-USDT&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&limit=50`,
    );
    assert.equal(range.status, 200, JSON.stringify(range.body));
    assert.ok(range.body.ticks.length > 0 && range.body.ticks.length <= 50);
    assert.equal(typeof range.body.has_more, 'boolean');
    assertAscending(range.body.ticks.map((t) => t.ts_ns), 'range ticks ascending');
    for (const t of range.body.ticks) assert.ok(t.ts_ns >= Date.parse(from) * 1e6 && t.ts_ns < Date.parse(to) * 1e6, JSON.stringify(t));
    // Integer nanoseconds work as well as ISO 8601.
    const byNs = await get<{ ticks: Tick[] }>(`/v1/data/ticks/range?symbol=BTC-USDT&from=${Date.parse(from)}000000&limit=5`);
    assert.equal(byNs.status, 200, JSON.stringify(byNs.body));
    assert.ok(byNs.body.ticks.length > 0);

    assertError(await get(`/v1/data/ticks/range?symbol=BTC-USDT&from=${encodeURIComponent(to)}&to=${encodeURIComponent(from)}`), 400, 'VALIDATION_ERROR', 'to');
    assertError(await get('/v1/data/ticks/range?symbol=BTC-USDT&from=yesterday'), 400, 'VALIDATION_ERROR', 'from');
    assertError(await get('/v1/data/ticks/range?symbol=BTC-USDT'), 400, 'VALIDATION_ERROR', 'from');
    assertError(await get('/v1/data/ticks?limit=3'), 400, 'VALIDATION_ERROR', 'symbol');
    assertError(await get('/v1/data/ticks?symbol=NOPE-USD'), 404, 'NOT_FOUND');

    const stats = await get<{ window_ms: number; trades_last_hour: Record<string, number>; tape: { written: number } }>('/v1/data/stats');
    assert.equal(stats.status, 200);
    assert.ok((stats.body.trades_last_hour['BTC-USDT'] ?? 0) > 0, JSON.stringify(stats.body.trades_last_hour));
    for (const [symbol, n] of Object.entries(stats.body.trades_last_hour)) assert.ok(isInt(n) && n >= 0, symbol);
  });

  it('GET /v1/market/funding-rates: current rates for every perp listing on hyperliquid and the -perp edges', async () => {
    const res = await get<{ rates: { venue: string; edge_id: string; symbol: string; rate_bps: number; rate_1e9: number; interval_hours: number; next_funding_ns: number; premium_bps: number; ts_ns: number }[] }>(
      '/v1/market/funding-rates',
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const perpEdges = EDGES.filter((e) => e.instrument_type === 'perp');
    assert.ok(perpEdges.some((e) => e.venue === 'hyperliquid'));
    assert.deepEqual(
      [...new Set(res.body.rates.map((r) => r.venue))].sort(),
      [...new Set(perpEdges.map((e) => e.venue))].sort(),
      'hyperliquid and the venues of the -perp edges',
    );
    for (const edge of perpEdges) {
      const rows = res.body.rates.filter((r) => r.edge_id === edge.edge_id);
      assert.deepEqual(rows.map((r) => r.symbol).sort(), edge.listings.map((l) => l.symbol).sort(), `${edge.edge_id}: one rate per listing`);
    }
    const nowNs = Date.now() * 1e6;
    for (const r of res.body.rates) {
      const where = JSON.stringify(r);
      assert.ok(isInt(r.rate_1e9) && isInt(r.ts_ns) && isInt(r.next_funding_ns), where);
      assert.ok(Math.abs(r.rate_1e9 - r.rate_bps * 1e5) <= 10, `rate_1e9 and rate_bps agree: ${where}`);
      assert.ok(r.interval_hours > 0, where);
      assert.equal(r.interval_hours, r.venue === 'hyperliquid' ? 1 : 8, where);
      assert.ok(r.next_funding_ns > r.ts_ns && r.next_funding_ns - r.ts_ns <= r.interval_hours * 3_600e9, where);
      assert.ok(r.ts_ns <= nowNs + 1e9, where);
      assert.equal(typeof r.premium_bps, 'number');
    }
  });

  it('GET /v1/funding_history/{symbol}: ascending per venue, for the perp venues listing the symbol; 404 otherwise', async () => {
    type History = { symbol: string; history: { venue: string; ts_ns: number; rate_bps: number; rate_1e9: number }[] };
    const res = await get<History>('/v1/funding_history/BTC-USDT');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.symbol, 'BTC-USDT');
    const perpVenues = book('BTC-USDT', 'perp')!.venues;
    assert.deepEqual([...new Set(res.body.history.map((h) => h.venue))].sort(), [...perpVenues].sort());
    const nowNs = Date.now() * 1e6;
    for (const venue of perpVenues) {
      const points = res.body.history.filter((h) => h.venue === venue);
      assert.ok(points.length > 1, `${venue}: a week of 8-hour points`);
      assertAscending(points.map((p) => p.ts_ns), `${venue} ascending`, true);
      for (const p of points) {
        assert.ok(isInt(p.ts_ns) && isInt(p.rate_1e9) && typeof p.rate_bps === 'number', JSON.stringify(p));
        assert.ok(p.ts_ns <= nowNs && p.ts_ns >= nowNs - 7 * 86_400e9 - 1e9, JSON.stringify(p));
      }
    }
    const hyper = await get<History>('/v1/funding_history/btc-usdc');
    assert.equal(hyper.status, 200);
    assert.equal(hyper.body.symbol, 'BTC-USDC');
    assert.deepEqual([...new Set(hyper.body.history.map((h) => h.venue))], ['hyperliquid']);
    assertAscending(hyper.body.history.map((p) => p.ts_ns), 'hyperliquid ascending', true);

    const one = await get<History>('/v1/funding_history/BTC-USDT?venue=okx&range=1d&limit=2');
    assert.equal(one.status, 200);
    assert.ok(one.body.history.length > 0 && one.body.history.length <= 2);
    for (const p of one.body.history) assert.equal(p.venue, 'okx');

    assertError(await get('/v1/funding_history/BTC-USD'), 404, 'NOT_FOUND');
    assertError(await get('/v1/funding_history/NOPE-USD'), 404, 'NOT_FOUND');
    assertError(await get('/v1/funding_history/BTC-USDT?range=2y'), 400, 'VALIDATION_ERROR', 'range');
  });

  it('GET /v1/health/feeds (bearer): symbols with age_ms, rings, venues, tape', async () => {
    assertError(await call(base, 'GET', '/v1/health/feeds'), 401, 'UNAUTHENTICATED');
    const res = await get<{
      symbols: { symbol: string; instrument_type: string; age_ms: number | null; venues_expected: number; venues_quoting: number; crossed: boolean; gap: boolean }[];
      rings: { thread: number; up: boolean; fullest_ring: number | null; heap_used_bytes: number | null }[];
      venues: { edge_id: string; connected: boolean; last_seen_age_ms: number | null; symbol_count: number }[];
      tape: { written: number };
      gateway_thread: { heap_used_bytes: number; fullest_ring: number; event_loop_delay: { window_ms: number; p99_ms: number } };
    }>('/v1/health/feeds');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const { symbols, rings, venues, tape, gateway_thread } = res.body;
    assert.equal(symbols.length, books().length, 'one row per book');
    for (const s of symbols) {
      assert.ok(s.age_ms === null || isInt(s.age_ms), JSON.stringify(s));
      assert.ok(isInt(s.venues_expected) && s.venues_quoting <= s.venues_expected, JSON.stringify(s));
    }
    const btc = symbols.find((s) => s.symbol === 'BTC-USDT' && s.instrument_type === 'spot')!;
    assert.ok(btc.age_ms !== null, 'BTC-USDT is fresh');
    assert.ok(btc.venues_quoting > 0);
    assert.equal(rings.length, 2, 'the two actor workers (test services start no algo worker)');
    for (const r of rings) {
      assert.equal(r.up, true);
      assert.ok(r.heap_used_bytes !== null && r.heap_used_bytes > 1_000_000, `a worker's heap is megabytes: ${JSON.stringify(r)}`);
      assert.ok(r.fullest_ring !== null && r.fullest_ring >= 0 && r.fullest_ring <= 1, JSON.stringify(r));
    }
    // Thread 0's own figures: a live heap, a ring share, and the loop's delay window (0 before the first 10 s end).
    assert.ok(gateway_thread.heap_used_bytes > 1_000_000, JSON.stringify(gateway_thread));
    assert.ok(gateway_thread.fullest_ring >= 0 && gateway_thread.fullest_ring <= 1);
    assert.ok([0, 10_000].includes(gateway_thread.event_loop_delay.window_ms), JSON.stringify(gateway_thread));
    assert.ok(gateway_thread.event_loop_delay.p99_ms >= 0);
    assert.deepEqual(venues.map((v) => v.edge_id).sort(), EDGES.map((e) => e.edge_id).sort());
    assert.equal(typeof tape, 'object');
    assert.ok(isInt(tape.written));
  });

  it(
    'GET /v1/health/feeds never reports a negative age (age_ms, last_seen_age_ms)',
    async () => {
      const negative: string[] = [];
      for (let i = 0; i < 15; i++) {
        const res = await get<{ symbols: { symbol: string; instrument_type: string; age_ms: number | null }[]; venues: { edge_id: string; last_seen_age_ms: number | null }[] }>(
          '/v1/health/feeds',
        );
        assert.equal(res.status, 200);
        for (const s of res.body.symbols) if (s.age_ms !== null && s.age_ms < 0) negative.push(`${s.symbol} ${s.instrument_type} age_ms ${s.age_ms}`);
        for (const v of res.body.venues) if (v.last_seen_age_ms !== null && v.last_seen_age_ms < 0) negative.push(`${v.edge_id} last_seen_age_ms ${v.last_seen_age_ms}`);
        await sleep(30);
      }
      assert.deepEqual(negative, [], 'negative ages');
    },
  );

  it('every market-data endpoint is in the OpenAPI document with its method and security', async () => {
    const res = await call<{ paths: Record<string, Record<string, { operationId: string; security?: unknown[]; parameters?: { name: string; in: string; schema?: Record<string, unknown> }[]; requestBody?: unknown }>> }>(
      base,
      'GET',
      '/v1/openapi.json',
    );
    assert.equal(res.status, 200);
    const paths = res.body.paths;
    const bearer: [string, string][] = [
      ['get', '/v1/symbols'],
      ['get', '/v1/edges'],
      ['get', '/v1/health/feeds'],
      ['get', '/v1/quotes'],
      ['get', '/v1/quotes/{symbol}'],
      ['post', '/v1/quotes_batch'],
      ['get', '/v1/fair_price'],
      ['get', '/v1/fair_price/{underlying}'],
      ['get', '/v1/fees'],
      ['get', '/v1/price_history/{symbol}'],
      ['get', '/v1/market/funding-rates'],
      ['get', '/v1/funding_history/{symbol}'],
      ['get', '/v1/data/health'],
      ['get', '/v1/data/ticks'],
      ['get', '/v1/data/ticks/range'],
      ['get', '/v1/data/stats'],
    ];
    for (const [method, path] of bearer) {
      const op = paths[path]?.[method];
      assert.ok(op !== undefined, `${method.toUpperCase()} ${path} is documented`);
      assert.ok(typeof op.operationId === 'string' && op.operationId.length > 0);
      assert.deepEqual(op.security, [{ bearer: [] }], `${method.toUpperCase()} ${path} requires bearer`);
    }
    const publicOp = paths['/v1/health/edges']?.['get'];
    assert.ok(publicOp !== undefined, 'GET /v1/health/edges is documented');
    assert.deepEqual(publicOp.security, [], 'GET /v1/health/edges is public');

    const param = (method: string, path: string, name: string) => paths[path]![method]!.parameters?.find((p) => p.name === name);
    assert.equal(param('get', '/v1/quotes/{symbol}', 'depth')?.schema?.['maximum'], 50, 'the single-symbol route documents depth max 50');
    assert.equal(param('get', '/v1/quotes/{symbol}', 'depth')?.schema?.['minimum'], 1);
    for (const name of ['nowait', 'instrument_type']) assert.ok(param('get', '/v1/quotes/{symbol}', name), name);
    for (const name of ['symbols', 'symbol', 'max_age_s']) assert.ok(param('get', '/v1/quotes', name), name);
    for (const name of ['range', 'fidelity_secs', 'limit']) assert.ok(param('get', '/v1/price_history/{symbol}', name), name);
    assert.ok(param('get', '/v1/fees', 'ticker'), 'ticker');
    assert.ok(paths['/v1/quotes_batch']!['post']!.requestBody, 'quotes_batch documents its body');
  });
});
