/**
 * The markets listing (domain/prediction/listing.ts) over the simulated catalog: the four status
 * combinations, a cursor walk that visits every row exactly once while markets are listed,
 * expanded rows and placeholders, count, and the refusals.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { phaseAt, type PredictionVenue } from '../../domain/prediction/catalog.ts';
import { listMarkets, selectPage, LISTING_ORDERS, type ListingQuery, type MarketRow, type StatsOf } from '../../domain/prediction/listing.ts';
import { marketsPageJson } from '../../gateway/market/market-rows-json.ts';
import { LatentPriceModel } from '../../actors/edge/sim/latent-price.ts';
import { PredictionPrices } from '../../actors/edge/sim/prediction/prices.ts';
import { PredictionWorld } from '../../actors/edge/sim/prediction/world.ts';

const NOW = Date.UTC(2026, 10, 24, 12);
const world = new PredictionWorld({ seed: 42, events: 2_000, resolveMeanS: 300 });
const prices = new PredictionPrices(world, new LatentPriceModel(42));
// Each market's catalog entry, found once per instant and venue (a scan per market made a
// page sorted by volume quadratic in the catalog: 10 s a page).
const statsAt = (now: number): StatsOf => {
  const entries = new Map<string, Map<unknown, ReturnType<typeof world.entriesAt>[number]>>();
  const entryOf = (m: Parameters<StatsOf>[0]) => {
    let byMarket = entries.get(m.venue);
    if (byMarket === undefined) {
      byMarket = new Map();
      for (const e of world.entriesAt(now)) for (const market of world.project(e, m.venue).markets) byMarket.set(market, e);
      entries.set(m.venue, byMarket);
    }
    return byMarket.get(m);
  };
  return (m) => {
    const entry = entryOf(m);
    const book = entry === undefined ? undefined : prices.book(entry, m.venue, m.outcome_index, now);
    const p = (l: { price_1e9: number } | undefined) => (l === undefined ? null : l.price_1e9 / 1e9);
    return {
      volume_24h: 100, volume_total: 1_000,
      best_yes_bid: p(book?.yes.bids[0]), best_yes_ask: p(book?.yes.asks[0]), best_no_bid: p(book?.no.bids[0]), best_no_ask: p(book?.no.asks[0]),
    };
  };
};
const cheapStats: StatsOf = () => ({ volume_24h: 1, volume_total: 2, best_yes_bid: 0.4, best_yes_ask: 0.42, best_no_bid: 0.58, best_no_ask: 0.6 });
const query = (venue: PredictionVenue, extra: Partial<ListingQuery> = {}): ListingQuery => ({ venue, active: true, closed: false, limit: 500, expand: false, ...extra });

function walk(venue: PredictionVenue, extra: Partial<ListingQuery>, nowOfPage: (page: number) => number, over = world): MarketRow[] {
  const rows: MarketRow[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 1_000; page++) {
    const now = nowOfPage(page);
    const r = listMarkets(over.eventsAt(venue, now), query(venue, { ...extra, cursor }), cheapStats, now);
    assert.ok(r.ok, JSON.stringify(r));
    rows.push(...r.page.markets);
    assert.equal(r.page.count, r.page.markets.length);
    if (!r.page.has_more) {
      assert.equal(r.page.next_cursor, null);
      return rows;
    }
    cursor = r.page.next_cursor!;
  }
  assert.fail('the walk did not end');
}

describe('markets listing', () => {
  it('lists exactly the statuses of each (active, closed) combination', () => {
    const expected: Record<string, Record<PredictionVenue, string[]>> = {
      'true,false': { kalshi: ['open'], polymarket: ['open'] },
      'true,true': { kalshi: ['closed', 'determined', 'open', 'settled'], polymarket: ['closed', 'determined', 'open'] },
      'false,true': { kalshi: ['determined', 'settled'], polymarket: ['determined'] },
      'false,false': { kalshi: ['closed', 'determined', 'initialized', 'open', 'settled'], polymarket: ['open'] },
    };
    // Sampled instants (closed and initialized are brief), over a smaller catalog.
    const small = new PredictionWorld({ seed: 42, events: 400, resolveMeanS: 300 });
    for (const [combo, byVenue] of Object.entries(expected)) {
      const [active, closed] = combo.split(',').map((x) => x === 'true') as [boolean, boolean];
      for (const venue of ['kalshi', 'polymarket'] as const) {
        const seen = new Set<string>();
        for (let k = 0; k < 24; k++) {
          const now = NOW + k * 37_000;
          const rows = walk(venue, { active, closed, expand: true }, () => now, small);
          for (const r of rows) seen.add(r.status);
          const all = small.eventsAt(venue, now).flatMap((e) => e.markets).filter((m) => byVenue[venue].includes(phaseAt(m.timeline, now)));
          assert.equal(rows.length, all.length, `${combo} ${venue}: every row in those statuses`);
        }
        assert.deepEqual([...seen].sort(), byVenue[venue], `${combo} ${venue}`);
      }
    }
  });

  it('walks thousands of expanded rows with a cursor, each exactly once, while markets are listed', () => {
    for (const venue of ['kalshi', 'polymarket'] as const) {
      const before = new Set(walk(venue, { expand: true, closed: true }, () => NOW).map((r) => r.slug));
      assert.ok(before.size > 2_000, `${venue}: ${before.size} rows`);
      // The same walk with time moving 10 minutes a page: new markets are listed and none repeats.
      const rows = walk(venue, { expand: true, closed: true }, (page) => NOW + page * 600_000);
      const slugs = rows.map((r) => r.slug);
      assert.equal(new Set(slugs).size, slugs.length, 'no row twice');
      const end = NOW + (Math.ceil(rows.length / 500) - 1) * 600_000;
      const stillListed = new Set(world.eventsAt(venue, end).flatMap((e) => e.markets).filter((m) => phaseAt(m.timeline, end) !== 'initialized').map((m) => m.market_id));
      for (const slug of before) if (stillListed.has(slug)) assert.ok(slugs.includes(slug), `${slug} visited`);
      assert.ok(slugs.some((s) => !before.has(s)), 'markets listed during the walk are visited too');
    }
  });

  it('expands a multi-outcome event into binary rows, real names first, counting rows not events', () => {
    const events = world.eventsAt('polymarket', NOW);
    const multi = events.find((e) => e.multi && e.markets.some((m) => m.is_placeholder) && phaseAt(e.markets[0]!.timeline, NOW) === 'open')!;
    const r = listMarkets(events, query('polymarket', { slug: multi.slug, expand: true }), statsAt(NOW), NOW);
    assert.ok(r.ok);
    assert.equal(r.page.count, multi.markets.length);
    const rows = r.page.markets;
    const firstPlaceholder = rows.findIndex((x) => x.is_placeholder_outcome === true);
    assert.ok(firstPlaceholder > 0 && rows.slice(firstPlaceholder).every((x) => x.is_placeholder_outcome === true));
    for (const row of rows) {
      assert.equal(row.parent_event_id, multi.event_id);
      assert.equal(row.parent_slug, multi.slug);
      assert.deepEqual(row.outcomes, ['Yes', 'No']);
      assert.equal(row.outcome_token_ids.length, 2);
      assert.ok(row.yes_token_id !== null && row.no_token_id !== null);
      assert.equal(row.symbol, `polymarket:${row.yes_token_id}`);
      assert.equal(row.outcome_name, row.is_placeholder_outcome ? null : row.raw_outcome_name);
      assert.equal(typeof row.outcome_index, 'number');
      if (row.is_placeholder_outcome) assert.deepEqual(row.equivalents, []);
    }
    const real = rows.filter((x) => x.is_placeholder_outcome === false);
    assert.deepEqual(real.map((x) => x.outcome_index), [...real.map((x) => x.outcome_index!)].sort((a, b) => a - b));
    // Unexpanded: one row, candidates listed, best prices and spread null.
    const one = listMarkets(events, query('polymarket', { slug: multi.slug }), statsAt(NOW), NOW);
    assert.ok(one.ok);
    assert.equal(one.page.count, 1);
    const row = one.page.markets[0]!;
    assert.equal(row.outcomes.length, multi.markets.length);
    for (const f of ['best_yes_bid', 'best_yes_ask', 'best_no_bid', 'best_no_ask', 'spread_pct'] as const) assert.equal(row[f], null);
    assert.equal(row.parent_event_id, undefined, 'placeholder fields unset on unexpanded rows');
    // A binary row carries its prices and spread (ask - bid) / mid.
    const binary = listMarkets(events, query('polymarket', { limit: 50 }), statsAt(NOW), NOW);
    assert.ok(binary.ok);
    const priced = binary.page.markets.find((x) => x.yes_token_id !== null && x.best_yes_bid !== null)!;
    assert.ok(Math.abs(priced.spread_pct! - (priced.best_yes_ask! - priced.best_yes_bid!) / ((priced.best_yes_ask! + priced.best_yes_bid!) / 2)) < 1e-6);
    assert.equal(priced.best_no_bid, Number((1 - priced.best_yes_ask!).toFixed(9)));
  });

  it('refuses a cursor from another query or made up, and an unknown slug, and filters by tag and text', () => {
    const events = world.eventsAt('kalshi', NOW);
    const first = listMarkets(events, query('kalshi', { limit: 5 }), cheapStats, NOW);
    assert.ok(first.ok && first.page.next_cursor !== null);
    const other = listMarkets(events, query('kalshi', { limit: 5, tag: 'crypto', cursor: first.page.next_cursor }), cheapStats, NOW);
    assert.deepEqual(other.ok ? null : [other.status, other.field], [400, 'cursor']);
    const sameQueryOtherLimit = listMarkets(events, query('kalshi', { limit: 7, cursor: first.page.next_cursor }), cheapStats, NOW);
    assert.ok(sameQueryOtherLimit.ok, 'the page size may change during a walk');
    for (const junk of ['x', Buffer.from('{"v":1}').toString('base64url')]) {
      const r = listMarkets(events, query('kalshi', { cursor: junk }), cheapStats, NOW);
      assert.deepEqual(r.ok ? null : [r.status, r.field], [400, 'cursor']);
    }
    const missing = listMarkets(events, query('kalshi', { slug: 'KXNOPE-26DEC31' }), cheapStats, NOW);
    assert.deepEqual(missing.ok ? null : [missing.status, missing.field], [404, 'slug']);
    const crypto = listMarkets(events, query('kalshi', { tag: 'crypto' }), cheapStats, NOW);
    assert.ok(crypto.ok && crypto.page.count > 0 && crypto.page.markets.every((r) => r.tags.includes('crypto')));
    const fed = listMarkets(events, query('kalshi', { q: 'FOMC' }), cheapStats, NOW);
    assert.ok(fed.ok && fed.page.count > 0 && fed.page.markets.every((r) => /fed/i.test(r.question)));
  });

  it('every order walks to the end; the static orders visit each row exactly once, in their order', () => {
    const events = world.eventsAt('polymarket', NOW);
    for (const order of [undefined, ...LISTING_ORDERS]) {
      const rows = walk('polymarket', { order, expand: true, limit: 333 }, () => NOW);
      const slugs = rows.map((r) => r.slug);
      assert.equal(new Set(slugs).size, slugs.length, `${order}: no row twice`);
      const all = listMarkets(events, query('polymarket', { order, expand: true, limit: 500 }), cheapStats, NOW);
      assert.ok(all.ok);
      if (order === 'end_date') for (let i = 1; i < rows.length; i++) assert.ok(rows[i - 1]!.end_date <= rows[i]!.end_date);
      if (order === 'created') for (let i = 1; i < rows.length; i++) assert.ok(rows[i - 1]!.start_date >= rows[i]!.start_date);
    }
  });

  it('the JSON page is the built page, byte for byte once parsed', () => {
    const events = world.eventsAt('polymarket', NOW);
    const stats = statsAt(NOW);
    for (const extra of [{ expand: true }, { expand: false }, { expand: true, order: 'volume' as const }, { active: false, closed: true }]) {
      const q = query('polymarket', { limit: 60, ...extra });
      const built = listMarkets(events, q, stats, NOW);
      const selected = selectPage(events, q, stats, NOW);
      assert.ok(built.ok && selected.ok);
      assert.deepEqual(JSON.parse(marketsPageJson(selected.refs, stats, NOW)), JSON.parse(JSON.stringify(built.page)));
    }
  });
});
