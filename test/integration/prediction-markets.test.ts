/**
 * `GET /v1/markets` against the real service (gateway, two workers, the simulated prediction
 * venues with seed 7 resolving a market every 3 s, LMDB in a temp dir): the catalog reaches the
 * gateway from the edges, each listing rule holds over it, and bad input is refused.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, envelope, startTestService, TEST_OPERATOR_KEY, type TestService } from '../helpers/service.ts';

interface Row {
  venue: string;
  slug: string;
  symbol: string;
  question: string;
  outcomes: string[];
  outcome_token_ids: string[];
  yes_token_id: string | null;
  no_token_id: string | null;
  event_id: string;
  status: string;
  best_yes_bid: number | null;
  best_yes_ask: number | null;
  best_no_bid: number | null;
  best_no_ask: number | null;
  spread_pct: number | null;
  volume_24h: number;
  start_date: string;
  parent_slug?: string;
  parent_event_id?: string;
  outcome_name?: string | null;
  raw_outcome_name?: string;
  is_placeholder_outcome?: boolean;
  outcome_index?: number;
  equivalents: { venue: string; symbol: string; relation: string }[];
}

interface Quote {
  symbol: string;
  instrument_type: string;
  nbbo: { bid: number; ask: number; mid: number; spread_bps: number; bid_size: number; ask_size: number; crossed: boolean };
  venues: Record<string, unknown>;
  updated_ms: number;
  market: { venue: string; market_id: string; leg: string; token_id: string };
}

interface Page {
  markets: Row[];
  count: number;
  venue: string;
  has_more: boolean;
  next_cursor: string | null;
}

let svc: TestService;
const get = <T = Page>(path: string) => call<T>(svc.base, 'GET', path, { token: TEST_OPERATOR_KEY });

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Every row of a query, following next_cursor; asserts the walk ends. */
async function walk(query: string, limit: number): Promise<Row[]> {
  const rows: Row[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 1_000; pages++) {
    const res: { status: number; body: Page } = await get(`/v1/markets?${query}&limit=${limit}${cursor === null ? '' : `&cursor=${cursor}`}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.count, res.body.markets.length);
    assert.ok(res.body.markets.length <= limit);
    rows.push(...res.body.markets);
    if (!res.body.has_more) {
      assert.equal(res.body.next_cursor, null);
      return rows;
    }
    cursor = res.body.next_cursor;
    assert.ok(cursor !== null);
  }
  throw new Error('walk did not end');
}

describe('prediction markets listing', () => {
  before(async () => {
    svc = await startTestService({ simMarketResolveS: 3 });
    await until('both catalogs', async () => {
      const [k, p] = await Promise.all([get('/v1/markets?venue=kalshi&limit=1'), get('/v1/markets?limit=1')]);
      return k.body.count > 0 && p.body.count > 0 ? true : undefined;
    });
  });
  after(async () => svc?.stop());

  it('defaults: the token-style venue, trading markets only, 20 rows, cursor to more', async () => {
    const res = await get('/v1/markets');
    assert.equal(res.status, 200);
    assert.equal(res.body.venue, 'polymarket');
    assert.equal(res.body.count, 20);
    assert.equal(res.body.has_more, true);
    for (const m of res.body.markets) {
      assert.equal(m.venue, 'polymarket');
      assert.equal(m.status, 'open');
      if (m.yes_token_id !== null) {
        assert.match(m.yes_token_id, /^\d{78}$/);
        assert.equal(m.symbol, `polymarket:${m.yes_token_id}`);
        // Token-style NO is derived from YES.
        if (m.best_yes_ask !== null) assert.ok(Math.abs(m.best_no_bid! - (1 - m.best_yes_ask)) < 1e-9, JSON.stringify(m));
        if (m.best_yes_bid !== null) assert.ok(Math.abs(m.best_no_ask! - (1 - m.best_yes_bid)) < 1e-9, JSON.stringify(m));
      }
    }
  });

  it('a multi-outcome event: null prices unexpanded, one binary row per outcome expanded, placeholders last', async () => {
    const rows = await walk('venue=polymarket', 500);
    const multi = rows.find((m) => m.yes_token_id === null && m.outcomes.length > 2);
    assert.ok(multi !== undefined, 'a multi-outcome event is listed');
    assert.deepEqual([multi.best_yes_bid, multi.best_yes_ask, multi.best_no_bid, multi.best_no_ask, multi.spread_pct], [null, null, null, null, null]);
    const expanded = await get(`/v1/markets?slug=${multi.slug}&expand=outcomes&limit=500`);
    assert.equal(expanded.status, 200);
    const out = expanded.body.markets;
    assert.equal(expanded.body.count, out.length, 'count counts binary rows');
    assert.equal(out.length, multi.outcomes.length);
    const firstPlaceholder = out.findIndex((m) => m.is_placeholder_outcome === true);
    if (firstPlaceholder >= 0) assert.ok(out.slice(firstPlaceholder).every((m) => m.is_placeholder_outcome === true), 'real names first');
    for (const m of out) {
      assert.equal(m.parent_slug, multi.slug);
      assert.equal(m.parent_event_id, multi.event_id);
      assert.deepEqual(m.outcomes, ['Yes', 'No']);
      assert.deepEqual(m.outcome_token_ids, [m.yes_token_id, m.no_token_id]);
      assert.equal(typeof m.raw_outcome_name, 'string');
      assert.equal(m.outcome_name === null, m.is_placeholder_outcome === true);
      assert.ok(Number.isInteger(m.outcome_index));
      if (m.is_placeholder_outcome) assert.deepEqual(m.equivalents, [], 'placeholders have no equivalents');
    }
    // The unexpanded row's ids are the candidates' YES tokens.
    assert.deepEqual([...multi.outcome_token_ids].sort(), out.map((m) => m.yes_token_id!).sort());
  });

  it('a cursor walk over every status on the ticker-style venue visits each row exactly once', async () => {
    const rows = await walk('venue=kalshi&active=false&closed=false&expand=outcomes', 500);
    assert.ok(rows.length > 500, `thousands of rows: ${rows.length}`);
    const slugs = rows.map((m) => m.slug);
    assert.equal(new Set(slugs).size, slugs.length, 'no row twice');
    const statuses = new Set(rows.map((m) => m.status));
    // Every status at once: trading rows and others (which others depends on the clock: an
    // `initialized` market exists only between a listing and its open).
    assert.ok(statuses.has('open') && statuses.size >= 2, [...statuses].join());
    for (const m of rows) assert.match(m.symbol, /:YES$/);
  });

  it('status filters: resolved only, then open/closed/settled; markets resolve while the service runs', async () => {
    const resolved = await until('a resolved up/down market', async () => {
      const res = await get('/v1/markets?venue=kalshi&active=false&closed=true&order=closed_time&limit=50');
      return res.body.markets.find((m) => /UP OR DOWN|up or down/i.test(m.question)) ? res.body : undefined;
    });
    for (const m of resolved.markets) assert.ok(['determined', 'settled'].includes(m.status), m.status);
    const both = await walk('venue=kalshi&active=true&closed=true', 500);
    assert.ok(!both.some((m) => m.status === 'initialized'));
    assert.ok(both.some((m) => m.status === 'open'));
  });

  it('bad input changes nothing: limit outside 1-500, another query\'s cursor, unknown slug', async () => {
    for (const limit of [0, 501, -1]) {
      const res = await get(`/v1/markets?limit=${limit}`);
      assert.equal(res.status, 400);
      assert.equal(envelope(res.body).code, 'VALIDATION_ERROR');
    }
    const first = await get('/v1/markets?limit=5');
    const other = await get(`/v1/markets?venue=kalshi&limit=5&cursor=${first.body.next_cursor}`);
    assert.equal(other.status, 400);
    assert.equal(envelope(other.body).details[0]?.field, 'cursor');
    const garbled = await get('/v1/markets?cursor=not-a-cursor');
    assert.equal(garbled.status, 400);
    const unknown = await get('/v1/markets?slug=no-such-market-anywhere');
    assert.equal(unknown.status, 404);
    assert.equal(envelope(unknown.body).code, 'NOT_FOUND');
    const bad = await get('/v1/markets?venue=binance');
    assert.equal(bad.status, 400);
  });

  it('quotes a leg by ticker, by slug, by token id and by event URL; NO selects the other leg', async () => {
    const kalshi = (await get('/v1/markets?venue=kalshi&limit=50')).body.markets.find((m) => m.best_yes_bid !== null)!;
    const ticker = kalshi.slug;
    const yes = await get<Quote>(`/v1/quotes/${ticker}`);
    assert.equal(yes.status, 200, JSON.stringify(yes.body));
    assert.equal(yes.body.instrument_type, 'prediction');
    assert.deepEqual([yes.body.market.venue, yes.body.market.leg, yes.body.market.token_id], ['kalshi', 'YES', `${ticker}:YES`]);
    assert.ok(yes.body.nbbo.bid > 0 && yes.body.nbbo.bid < yes.body.nbbo.ask && yes.body.nbbo.ask < 1, JSON.stringify(yes.body.nbbo));
    assert.ok(yes.body.venues['kalshi'] !== undefined);
    const no = await get<Quote>(`/v1/quotes/${ticker}:NO`);
    assert.equal(no.body.market.leg, 'NO');
    assert.equal(no.body.market.token_id, `${ticker}:NO`);

    const poly = (await get('/v1/markets?limit=50')).body.markets.find((m) => m.yes_token_id !== null && m.best_yes_bid !== null)!;
    // Token-style NO is the YES book mirrored: no_bid = 1 - yes_ask, no_ask = 1 - yes_bid (one second's book).
    const [bySlug, bySlugNo] = await until('YES and NO of one book second', async () => {
      const r = (await call<{ quotes: Quote[] }>(svc.base, 'POST', '/v1/quotes_batch', { token: TEST_OPERATOR_KEY, body: { symbols: [poly.slug, `${poly.slug}:no`] } })).body.quotes;
      return r[0]!.updated_ms === r[1]!.updated_ms ? r : undefined;
    });
    assert.equal(bySlug!.market.token_id, poly.yes_token_id);
    assert.equal(bySlugNo!.market.token_id, poly.no_token_id);
    assert.ok(Math.abs(bySlugNo!.nbbo.bid - (1 - bySlug!.nbbo.ask)) < 1e-9 && Math.abs(bySlugNo!.nbbo.ask - (1 - bySlug!.nbbo.bid)) < 1e-9);
    for (const symbol of [poly.yes_token_id!, `polymarket:${poly.no_token_id}`, encodeURIComponent(`https://polymarket.com/event/${poly.slug}`)]) {
      const res = await get<Quote>(`/v1/quotes/${symbol}`);
      assert.equal(res.status, 200, `${symbol}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.market.market_id, poly.slug);
    }
  });

  it('cross_venue_equivalents: one outcome quoted over both venues, each venue\'s touch as its own quote shows it', async () => {
    type Touch = { bid: number; ask: number; bid_size: number; ask_size: number; age_ms?: number };
    type Consolidated = Quote & { venues: Record<string, Touch>; book: { bids: [number, number][]; asks: [number, number][] }; equivalents?: { venue: string; market_id: string; leg: string; token_id: string; relation: string; status: string }[] };
    const rows = (await walk('venue=polymarket&expand=outcomes', 500)).filter((m) => m.equivalents.length > 0 && m.best_yes_bid !== null);
    assert.ok(rows.length > 0, 'markets listed on both venues');
    // A market whose equivalent trades too (a new ticker-style market waits 30 minutes to open).
    let q: Consolidated | undefined;
    for (const row of rows) {
      const res = await get<Consolidated>(`/v1/quotes/${row.symbol}?cross_venue_equivalents=true&depth=20`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      if (Object.keys(res.body.venues).length === 2) {
        q = res.body;
        break;
      }
    }
    assert.ok(q !== undefined, 'an outcome trading on both venues');
    const eq = q.equivalents![0]!;
    assert.equal(eq.venue, 'kalshi');
    assert.equal(eq.leg, eq.relation === 'same' ? 'YES' : 'NO', 'the same outcome: the other leg where the question is inverted');
    assert.equal(eq.token_id, `${eq.market_id}:${eq.leg}`);
    // The consolidated touch is the better of the two venues', sizes summed where they quote the same price.
    const touches = Object.values(q.venues);
    const bid = Math.max(...touches.filter((t) => t.bid > 0).map((t) => t.bid));
    const ask = Math.min(...touches.filter((t) => t.ask > 0).map((t) => t.ask));
    assert.deepEqual([q.nbbo.bid, q.nbbo.ask], [bid, ask]);
    const sizeAt = (key: 'bid' | 'ask', size: 'bid_size' | 'ask_size', px: number) => touches.filter((t) => t[key] === px).reduce((n, t) => n + t[size], 0);
    assert.ok(Math.abs(q.nbbo.bid_size - sizeAt('bid', 'bid_size', bid)) < 1e-9 && Math.abs(q.nbbo.ask_size - sizeAt('ask', 'ask_size', ask)) < 1e-9);
    assert.deepEqual(q.book.bids[0], [q.nbbo.bid, q.nbbo.bid_size]);
    assert.equal(q.nbbo.crossed, bid >= ask);
    // The other venue's touch is its leg's own quote (the same book second).
    const strip = (t: Touch) => ({ bid: t.bid, ask: t.ask, bid_size: t.bid_size, ask_size: t.ask_size });
    await until('the same book second on both calls', async () => {
      const [both, own] = await Promise.all([get<Consolidated>(`/v1/quotes/${q.symbol}?cross_venue_equivalents=true`), get<Consolidated>(`/v1/quotes/${eq.token_id}`)]);
      return JSON.stringify(strip(both.body.venues['kalshi']!)) === JSON.stringify(strip(own.body.venues['kalshi']!)) ? true : undefined;
    }, 10_000);
    // Without the flag, one venue and no equivalents block; on a pair the flag is 400.
    const plain = await get<Consolidated>(`/v1/quotes/${q.symbol}`);
    assert.deepEqual(Object.keys(plain.body.venues), ['polymarket']);
    assert.equal(plain.body.equivalents, undefined);
    assert.equal((await get('/v1/quotes/BTC-USDT?cross_venue_equivalents=true')).status, 400);
  });

  it('an event slug of a multi-outcome event is 400 AMBIGUOUS_MULTI_OUTCOME with its candidates; a batch keeps it as an entry', async () => {
    const rows = await walk('venue=polymarket', 500);
    const multi = rows.find((m) => m.yes_token_id === null && m.outcomes.length > 2)!;
    const res = await get<{ error: { code: string; outcomes: string[]; outcome_token_ids: string[] }; code: string; outcomes: string[]; outcome_token_ids: string[] }>(`/v1/quotes/${multi.slug}`);
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'AMBIGUOUS_MULTI_OUTCOME');
    assert.equal(res.body.code, 'AMBIGUOUS_MULTI_OUTCOME', 'also at the top level');
    assert.deepEqual(res.body.error.outcomes, multi.outcomes);
    assert.deepEqual(res.body.outcome_token_ids, multi.outcome_token_ids);
    const retry = await get<Quote>(`/v1/quotes/${res.body.outcome_token_ids[0]}`);
    assert.ok(retry.status === 200 || retry.status === 404, 'a candidate id resolves (404 only when its book is empty)');
    const batch = await call<{ quotes: Record<string, unknown>[] }>(svc.base, 'POST', '/v1/quotes_batch', { token: TEST_OPERATOR_KEY, body: { symbols: [multi.slug, 'no-such-market-anywhere', 'BTC-USDT', '1234'] } });
    assert.equal(batch.status, 200);
    const [amb, unknown, btc, short] = batch.body.quotes;
    assert.equal(amb!['code'], 'AMBIGUOUS_MULTI_OUTCOME');
    assert.deepEqual(amb!['outcome_token_ids'], multi.outcome_token_ids);
    assert.equal(unknown!['code'], 'NOT_FOUND');
    assert.equal(btc!['symbol'], 'BTC-USDT');
    assert.ok(short!['code'] === 'NOT_FOUND' || short!['code'] === 'VALIDATION_ERROR');
    const malformed = await get(`/v1/quotes/${'1'.repeat(79)}`);
    assert.equal(malformed.status, 400);
    assert.equal(envelope(malformed.body).code, 'VALIDATION_ERROR');
  });

  it('GET /v1/fees: each market\'s binary_quadratic curve by ticker, token id or slug', async () => {
    // A binary market: which one lists first changes with the date (an event with more outcomes is ambiguous).
    const kalshi = (await get<{ markets: { slug: string; outcomes: string[] }[] }>('/v1/markets?venue=kalshi&limit=100')).body.markets.find((m) => m.outcomes.length === 2)!;
    const k = await get<{ fees: { venue: string; fee_model: string; components: Record<string, unknown>; maker_bps: number; taker_bps: number; formula: { taker_fee_usd: string } }[] }>(`/v1/fees?ticker=${kalshi.slug}`);
    assert.equal(k.status, 200);
    assert.equal(k.body.fees.length, 1);
    assert.deepEqual(k.body.fees[0]!.components, { rate_bps: 700, multiplier: 1, rounding: 'ceil_to_cent' });
    assert.deepEqual([k.body.fees[0]!.maker_bps, k.body.fees[0]!.taker_bps], [0, 350]);
    const updown = (await get('/v1/markets?q=up%20or%20down&limit=1')).body.markets[0]!;
    const p = await get<{ fees: { components: Record<string, unknown>; taker_bps: number }[] }>(`/v1/fees?ticker=${updown.yes_token_id}`);
    assert.deepEqual(p.body.fees[0]!.components, { rate_bps: 200, exponent: 1 });
    assert.equal(p.body.fees[0]!.taker_bps, 100);
    const bySlug = await get<{ fees: unknown[] }>(`/v1/fees?ticker=${updown.slug}`);
    assert.deepEqual(bySlug.body.fees, p.body.fees);
    assert.equal((await get(`/v1/fees?ticker=${'9'.repeat(79)}`)).status, 400);
    assert.equal((await get('/v1/fees?ticker=no-such-market-anywhere')).status, 404);
    assert.equal((await get<{ fees: unknown[] }>(`/v1/fees?ticker=${kalshi.slug}&venues=polymarket`)).body.fees.length, 0);
  });

  it('maker rewards: /v1/polymarket/rewards lists both tokens of each rewarded trading market; a token in no program is 404', async () => {
    type Config = { token_id: string; condition_id: string; rewards_min_size: number; rewards_max_spread: number; rate_per_day_usdc: number; current_spread: number | null; reward_end_unix_s: number };
    const list = await get<{ venue: string; rewards: Config[]; count: number; refreshed_at_unix_s: number }>('/v1/polymarket/rewards');
    assert.equal(list.status, 200, JSON.stringify(list.body));
    assert.equal(list.body.venue, 'polymarket');
    assert.equal(list.body.count, list.body.rewards.length);
    assert.ok(list.body.count >= 20 && list.body.count % 2 === 0, `${list.body.count} rewarded tokens`);
    assert.ok(Math.abs(list.body.refreshed_at_unix_s - Date.now() / 1000) < 600);
    const now_s = Date.now() / 1000;
    for (const r of list.body.rewards) {
      assert.ok(r.reward_end_unix_s > now_s - 5, 'a running program');
      assert.ok(r.rewards_max_spread > 0 && r.rewards_max_spread <= 0.045 && r.rewards_min_size >= 20 && r.rate_per_day_usdc >= 1);
    }
    // A rewarded token belongs to a trading market whose two tokens are both listed, with the same terms.
    const first = list.body.rewards[0]!;
    const rows = await walk('expand=outcomes', 500);
    const row = rows.find((m) => m.yes_token_id === first.token_id || m.no_token_id === first.token_id);
    const one = await get<Config>(`/v1/polymarket/rewards/${first.token_id}`);
    assert.equal(one.status, 200);
    assert.deepEqual({ ...one.body, current_spread: null }, { ...first, current_spread: null });
    const pair = list.body.rewards.filter((r) => r.condition_id === first.condition_id);
    assert.equal(pair.length, 2);
    assert.ok(row !== undefined, 'a trading market');
    assert.deepEqual(new Set(pair.map((r) => r.token_id)), new Set([row.yes_token_id, row.no_token_id]));
    // Tokens in no program, malformed ones, and the ticker-style venue.
    const rewarded = new Set(list.body.rewards.map((r) => r.token_id));
    const plain = rows.find((m) => m.yes_token_id !== null && !rewarded.has(m.yes_token_id))!;
    const missing = await get(`/v1/polymarket/rewards/${plain.yes_token_id}`);
    assert.equal(missing.status, 404);
    assert.equal(envelope(missing.body).code, 'NOT_FOUND');
    assert.equal((await get(`/v1/polymarket/rewards/${'1'.repeat(79)}`)).status, 400);
    assert.equal((await get('/v1/polymarket/rewards/will-it-rain')).status, 400);
    assert.equal((await get('/v1/kalshi/rewards')).status, 400);
    assert.equal((await call(svc.base, 'GET', '/v1/polymarket/rewards')).status, 401);
  });

  it('price history of a leg from its venue: the minute grid, NO the complement, 7-day windows with paginate, the settled price', async () => {
    type History = { symbol: string; fidelity_secs: number; points: { ts_ns: number; price_1e9: number }[]; truncated: boolean; windows: number };
    const rows = await walk('venue=polymarket&expand=outcomes', 500);
    const old = rows.find((m) => m.best_yes_bid !== null && Date.parse(m.start_date) < Date.now() - 9 * 86_400_000)!;
    const h = await get<History>(`/v1/price_history/${old.slug}?range=1h`);
    assert.equal(h.status, 200, JSON.stringify(h.body));
    assert.ok(h.body.points.length >= 59 && h.body.points.length <= 60, `${h.body.points.length} points`);
    assert.deepEqual([h.body.truncated, h.body.windows], [false, 1]);
    for (let i = 1; i < h.body.points.length; i++) assert.equal(h.body.points[i]!.ts_ns - h.body.points[i - 1]!.ts_ns, 60e9);
    for (const p of h.body.points) assert.ok(p.price_1e9 > 0 && p.price_1e9 < 1e9 && p.price_1e9 % 1e6 === 0);
    const no = await get<History>(`/v1/price_history/${old.slug}:no?range=1h`);
    const yesAt = new Map(h.body.points.map((p) => [p.ts_ns, p.price_1e9]));
    const common = no.body.points.filter((p) => yesAt.has(p.ts_ns));
    assert.ok(common.length >= 58);
    for (const p of common) assert.equal(p.price_1e9, 1e9 - yesAt.get(p.ts_ns)!);
    // A month: one window without paginate (older points left out), every window with it.
    const one = await get<History>(`/v1/price_history/${old.yes_token_id}?range=1m&fidelity_secs=3600`);
    assert.deepEqual([one.body.truncated, one.body.windows], [true, 1]);
    const all = await get<History>(`/v1/price_history/${old.yes_token_id}?range=1m&fidelity_secs=3600&paginate=true`);
    assert.equal(all.body.truncated, false);
    assert.ok(all.body.windows >= 2 && all.body.points.length > one.body.points.length, `${all.body.windows} windows, ${all.body.points.length} points`);
    assert.deepEqual(all.body.points.slice(-one.body.points.length), one.body.points, 'the newest window is the tail of the walk');
    for (let i = 1; i < all.body.points.length; i++) assert.equal(all.body.points[i]!.ts_ns - all.body.points[i - 1]!.ts_ns, 3600e9);
    // A resolved market ends on its settled price.
    const resolved = (await get('/v1/markets?venue=polymarket&active=false&closed=true&limit=5')).body.markets.find((m) => m.yes_token_id !== null)!;
    const settlement = await get<{ resolved_outcome: string }>(`/v1/settlement/${resolved.slug}`);
    const last = (await get<History>(`/v1/price_history/${resolved.slug}?range=max&paginate=true`)).body.points.at(-1)!;
    assert.equal(last.price_1e9, settlement.body.resolved_outcome === 'Yes' ? 1e9 : 0);
    // Bad input.
    for (const q of ['fidelity_secs=0', 'fidelity_secs=90']) {
      const bad = await get(`/v1/price_history/${old.slug}?${q}`);
      assert.equal(bad.status, 400, q);
      assert.equal(envelope(bad.body).details[0]!.field, 'fidelity_secs');
    }
    const multi = rows.find((m) => m.parent_slug !== undefined)!;
    assert.equal(envelope((await get(`/v1/price_history/${multi.parent_slug}`)).body).code, 'AMBIGUOUS_MULTI_OUTCOME');
    assert.equal((await get('/v1/price_history/no-such-market-anywhere')).status, 404);
    assert.equal((await get(`/v1/price_history/${old.slug}?instrument_type=spot`)).status, 404);
    assert.equal((await get('/v1/price_history/BTC-USDT?instrument_type=prediction')).status, 404);
    assert.equal((await get('/v1/price_history/BTC-USDT')).status, 200, 'a pair is still read from the tape');
  });
});
