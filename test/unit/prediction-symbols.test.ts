/**
 * Prediction symbol resolution (spec, Quote rules 5-6): the classification table, resolution
 * against a simulated catalog, the ambiguous multi-outcome answer and the 10-minute slug cache.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CatalogIndex, SLUG_CACHE_MS, SymbolResolver } from '../../domain/prediction/catalog-index.ts';
import type { PredictionEvent } from '../../domain/prediction/catalog.ts';
import { classifySymbol, type Resolution } from '../../domain/prediction/symbols.ts';
import { PredictionWorld } from '../../actors/edge/sim/prediction/world.ts';

const TOKEN = '1'.repeat(78);
/** A token id below 10^77 as the venue writes it (77 digits, no leading zero). */
const SHORT_TOKEN = '9'.repeat(77);

describe('classifySymbol', () => {
  const table: [string, ReturnType<typeof classifySymbol>][] = [
    ['BTC-USDT', { kind: 'cex', symbol: 'BTC-USDT' }],
    ['ETH-BTC', { kind: 'cex', symbol: 'ETH-BTC' }],
    ['KXBTC-26DEC31-T100000', { kind: 'ticker', ticker: 'KXBTC-26DEC31-T100000', leg: null }],
    ['KXBTC-26DEC31-T100000:YES', { kind: 'ticker', ticker: 'KXBTC-26DEC31-T100000', leg: 'YES' }],
    ['KXBTC-26DEC31-T100000:NO', { kind: 'ticker', ticker: 'KXBTC-26DEC31-T100000', leg: 'NO' }],
    ['KXBTC-26DEC31', { kind: 'ticker', ticker: 'KXBTC-26DEC31', leg: null }],
    ['KXPRESARC-26NOV03B', { kind: 'ticker', ticker: 'KXPRESARC-26NOV03B', leg: null }],
    ['will-it-rain', { kind: 'slug', slug: 'will-it-rain', leg: null }],
    ['will-it-rain:yes', { kind: 'slug', slug: 'will-it-rain', leg: 'YES' }],
    ['will-it-rain:no', { kind: 'slug', slug: 'will-it-rain', leg: 'NO' }],
    ['will-it-rain:NO', { kind: 'slug', slug: 'will-it-rain', leg: 'NO' }],
    // Kalshi names monthly events by month alone, and strikes carry decimals.
    ['KXCPI-26DEC-T3.0', { kind: 'ticker', ticker: 'KXCPI-26DEC-T3.0', leg: null }],
    ['KXCPI-26DEC-T3.0:NO', { kind: 'ticker', ticker: 'KXCPI-26DEC-T3.0', leg: 'NO' }],
    [TOKEN, { kind: 'token', token_id: TOKEN }],
    [`polymarket:${TOKEN}`, { kind: 'token', token_id: TOKEN }],
    // The venue's own spelling of a token id below 10^77 (no leading zeros): the catalog's padded id.
    [SHORT_TOKEN, { kind: 'token', token_id: `0${SHORT_TOKEN}` }],
    [`polymarket:${SHORT_TOKEN}`, { kind: 'token', token_id: `0${SHORT_TOKEN}` }],
    [`0${SHORT_TOKEN}`, { kind: 'token', token_id: `0${SHORT_TOKEN}` }],
    ['1'.repeat(30), { kind: 'token', token_id: '1'.repeat(30).padStart(78, '0') }],
    ['https://polymarket.com/event/will-it-rain', { kind: 'slug', slug: 'will-it-rain', leg: null }],
    ['https://polymarket.com/event/election-2026/election-2026-ann-lee?tid=1', { kind: 'slug', slug: 'election-2026-ann-lee', leg: null }],
    ['https://kalshi.com/markets/kxbtc/kxbtc-26dec31', { kind: 'ticker', ticker: 'KXBTC-26DEC31', leg: null }],
  ];
  for (const [input, expected] of table) {
    it(`reads ${input.length > 60 ? `${input.slice(0, 57)}...` : input}`, () => assert.deepEqual(classifySymbol(input), expected));
  }

  const invalid = [
    '1'.repeat(79),
    `${TOKEN}:YES`, // a token id is its own leg
    'polymarket:will-it-rain',
    'https://example.com/event/will-it-rain',
    'https://polymarket.com/markets',
    'Will It Rain?',
    '',
  ];
  for (const input of invalid) {
    it(`refuses ${JSON.stringify(input.slice(0, 40))}`, () => assert.equal(classifySymbol(input).kind, 'invalid'));
  }
});

describe('resolution against the simulated catalog', () => {
  const NOW = Date.UTC(2026, 10, 24, 12);
  const world = new PredictionWorld({ seed: 42, events: 400, resolveMeanS: 300 });
  const events: PredictionEvent[] = [...world.eventsAt('kalshi', NOW), ...world.eventsAt('polymarket', NOW)];
  const index = new CatalogIndex(events);
  const resolver = new SymbolResolver(index);
  const ok = (r: Resolution | undefined) => {
    assert.ok(r !== undefined && r.ok, JSON.stringify(r));
    return r.resolved;
  };
  const kBinary = events.find((e) => e.venue === 'kalshi' && !e.multi)!;
  const pBinary = events.find((e) => e.venue === 'polymarket' && !e.multi)!;
  const pMulti = events.find((e) => e.venue === 'polymarket' && e.multi)!;
  const kMulti = events.find((e) => e.venue === 'kalshi' && e.multi)!;

  it('resolves a bare ticker to YES and :NO to the NO leg', () => {
    const m = kBinary.markets[0]!;
    assert.deepEqual(ok(resolver.resolve(m.market_id)), { venue: 'kalshi', market: m, leg: 'YES', token_id: `${m.market_id}:YES` });
    assert.equal(ok(resolver.resolve(`${m.market_id}:NO`)).token_id, `${m.market_id}:NO`);
    // A binary event's ticker names its one market.
    assert.equal(ok(resolver.resolve(kBinary.slug)).market, m);
  });

  it('resolves a slug (default YES, :no the NO leg), a token id to its own leg, and an event URL', () => {
    const m = pBinary.markets[0]!;
    assert.equal(ok(resolver.resolve(pBinary.slug)).token_id, m.yes_token_id);
    assert.equal(ok(resolver.resolve(`${pBinary.slug}:no`)).token_id, m.no_token_id);
    assert.deepEqual(ok(resolver.resolve(m.no_token_id)), { venue: 'polymarket', market: m, leg: 'NO', token_id: m.no_token_id });
    assert.equal(ok(resolver.resolve(pBinary.url)).market, m);
    const candidate = pMulti.markets[1]!;
    assert.equal(ok(resolver.resolve(`${pMulti.url}/${candidate.market_id}`)).market, candidate);
    assert.equal(ok(resolver.resolve(candidate.market_id)).market, candidate);
  });

  it('resolves a token id below 10^77 by the venue\'s spelling (no leading zeros) to the catalog\'s padded id', () => {
    const m = { ...pBinary.markets[0]!, yes_token_id: `0${SHORT_TOKEN}`, no_token_id: `00${'8'.repeat(76)}` };
    const short = new SymbolResolver(new CatalogIndex([{ ...pBinary, markets: [m] }]));
    assert.deepEqual(ok(short.resolve(SHORT_TOKEN)), { venue: 'polymarket', market: m, leg: 'YES', token_id: m.yes_token_id });
    assert.deepEqual(ok(short.resolve(`polymarket:${'8'.repeat(76)}`)), { venue: 'polymarket', market: m, leg: 'NO', token_id: m.no_token_id });
    assert.equal(ok(short.resolve(m.no_token_id)).leg, 'NO');
  });

  it('answers AMBIGUOUS_MULTI_OUTCOME with every outcome and its YES token for a multi-outcome event', () => {
    for (const e of [pMulti, kMulti]) {
      for (const name of [e.slug, e.url]) {
        const r = resolver.resolve(name);
        assert.ok(r !== undefined && !r.ok && r.code === 'AMBIGUOUS_MULTI_OUTCOME', JSON.stringify(r));
        assert.deepEqual(r.outcomes, e.markets.map((m) => m.raw_outcome_name));
        assert.deepEqual(r.outcome_token_ids, e.markets.map((m) => m.yes_token_id));
      }
    }
  });

  it('says NOT_FOUND for unknown names, VALIDATION_ERROR for malformed ones, and leaves CEX pairs alone', () => {
    for (const name of ['KXNOPE-26DEC31-T1', 'no-such-market', '9'.repeat(78)]) {
      const r = resolver.resolve(name);
      assert.ok(r !== undefined && !r.ok && r.code === 'NOT_FOUND', `${name}: ${JSON.stringify(r)}`);
    }
    const bad = resolver.resolve('1'.repeat(79));
    assert.ok(bad !== undefined && !bad.ok && bad.code === 'VALIDATION_ERROR');
    assert.equal(resolver.resolve('BTC-USDT'), undefined);
  });

  it('keeps a resolved slug for 10 minutes, and does not keep a miss', () => {
    let now = 0;
    const live = new CatalogIndex();
    const cached = new SymbolResolver(live, () => now);
    assert.equal((cached.resolve(pBinary.slug) as { code?: string }).code, 'NOT_FOUND');
    live.add(pBinary);
    assert.equal(ok(cached.resolve(pBinary.slug)).market, pBinary.markets[0]);
    // Served from the cache even once the index forgets it, until the cache entry expires.
    const emptied = new CatalogIndex();
    const fresh = new SymbolResolver(emptied, () => now);
    emptied.add(pBinary);
    assert.ok(fresh.resolve(pBinary.slug)?.ok);
    emptied.remove(pBinary);
    assert.equal(emptied.event('polymarket', pBinary.slug), undefined);
    now = SLUG_CACHE_MS - 1;
    assert.ok(fresh.resolve(pBinary.slug)?.ok, 'still cached');
    now = SLUG_CACHE_MS;
    assert.equal((fresh.resolve(pBinary.slug) as { code?: string }).code, 'NOT_FOUND', 'expired');
  });
});
