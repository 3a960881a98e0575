/**
 * The simulated prediction world (actors/edge/sim/prediction): catalog shape and ids, determinism
 * for a seed, cross-venue equivalents, the lifecycle's resolution rate, and the books.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { phaseAt, MARKET_PHASES, type PredictionEvent } from '../../domain/prediction/catalog.ts';
import { LatentPriceModel } from '../../actors/edge/sim/latent-price.ts';
import { PredictionPrices, PRICE_ONE } from '../../actors/edge/sim/prediction/prices.ts';
import { PredictionWorld } from '../../actors/edge/sim/prediction/world.ts';

const NOW = Date.UTC(2026, 10, 24, 12, 0, 0);
const world = (seed = 42, resolveMeanS = 300, events = 400) => new PredictionWorld({ seed, events, resolveMeanS });

function rows(events: PredictionEvent[]) {
  return events.flatMap((e) => e.markets);
}

describe('prediction world: catalog', () => {
  const w = world();
  const kalshi = w.eventsAt('kalshi', NOW);
  const poly = w.eventsAt('polymarket', NOW);

  it('lists hundreds of binary events and dozens of multi-outcome events on each venue', () => {
    for (const events of [kalshi, poly]) {
      const binary = events.filter((e) => !e.multi).length;
      const multi = events.filter((e) => e.multi).length;
      assert.ok(binary >= 200 && binary <= 600, `binary ${binary}`);
      assert.ok(multi >= 24 && multi <= 120, `multi ${multi}`);
    }
  });

  it('has placeholder slots with generic names, and an event of 128 markets', () => {
    const all = [...kalshi, ...poly];
    const withSlots = all.filter((e) => e.markets.some((m) => m.is_placeholder));
    assert.ok(withSlots.length > 0);
    for (const e of withSlots) for (const m of e.markets.filter((x) => x.is_placeholder)) assert.match(m.raw_outcome_name ?? '', /^Person [A-Z0-9]+$/);
    assert.ok(all.some((e) => e.markets.length === 128), 'an event with 128 markets');
  });

  it('gives 78-digit token ids on the token-style venue and ticker-shaped ids on the ticker-style one, all unique', () => {
    const seen = new Set<string>();
    for (const m of rows(poly)) {
      assert.match(m.yes_token_id, /^[1-9]\d{77}$/);
      assert.match(m.no_token_id, /^[1-9]\d{77}$/);
      assert.match(m.condition_id ?? '', /^0x[0-9a-f]{64}$/);
      for (const id of [m.market_id, m.yes_token_id, m.no_token_id]) {
        assert.ok(!seen.has(id), `duplicate ${id}`);
        seen.add(id);
      }
    }
    for (const m of rows(kalshi)) {
      assert.match(m.market_id, /^KX[A-Z0-9]+-\d{2}[A-Z]{3}\d{2}[A-Z0-9]*-[A-Z0-9.]+$/);
      assert.equal(m.yes_token_id, `${m.market_id}:YES`);
      assert.equal(m.no_token_id, `${m.market_id}:NO`);
      assert.equal(m.condition_id, null);
      assert.ok(!seen.has(m.market_id), `duplicate ${m.market_id}`);
      seen.add(m.market_id);
    }
    assert.ok(rows(kalshi).some((m) => /^KXBTC-\d{2}[A-Z]{3}\d{2}-T\d+$/.test(m.market_id)), 'a KXBTC-26DEC31-T100000-shaped ticker');
  });

  it('gives slugs and event URLs', () => {
    for (const e of poly) {
      assert.match(e.slug, /^[a-z0-9]+(-[a-z0-9]+)*$/);
      assert.equal(e.url, `https://polymarket.com/event/${e.slug}`);
    }
    for (const e of kalshi) assert.match(e.url, /^https:\/\/kalshi\.com\/markets\/kx[a-z0-9]+\/kx/);
  });

  it('is the same catalog for the same seed, a different one for another seed, and the same ids an hour later', () => {
    assert.deepEqual(world().eventsAt('polymarket', NOW), poly);
    assert.notDeepEqual(rows(world(7).eventsAt('polymarket', NOW)).map((m) => m.yes_token_id).slice(0, 50), rows(poly).map((m) => m.yes_token_id).slice(0, 50));
    // A restart (a new world) later on lists what is still listed under the same ids.
    const later = new Map(rows(world().eventsAt('kalshi', NOW + 3_600_000)).map((m) => [m.market_id, m.question]));
    const still = rows(kalshi).filter((m) => later.has(m.market_id));
    assert.ok(still.length > rows(kalshi).length / 2);
    for (const m of still) assert.equal(later.get(m.market_id), m.question);
  });

  it('lists some events on both venues, with symmetric equivalents and none on placeholder rows', () => {
    const byId = new Map(rows([...kalshi, ...poly]).map((m) => [`${m.venue}:${m.market_id}`, m]));
    let shared = 0;
    const relations = new Set<string>();
    for (const m of byId.values()) {
      if (m.is_placeholder) assert.deepEqual(m.equivalents, []);
      for (const eq of m.equivalents) {
        shared++;
        relations.add(eq.relation);
        const other = byId.get(`${eq.venue}:${eq.market_id}`);
        assert.ok(other !== undefined, `equivalent ${eq.market_id} is listed`);
        assert.notEqual(other.venue, m.venue);
        assert.deepEqual(other.equivalents.map((x) => [x.market_id, x.relation]), [[m.market_id, eq.relation]]);
      }
    }
    assert.ok(shared > 40, `shared ${shared}`);
    assert.deepEqual([...relations].sort(), ['complement', 'same']);
  });
});

describe('prediction world: lifecycle', () => {
  it('moves each market through its phases in order', () => {
    for (const m of rows(world().eventsAt('kalshi', NOW)).slice(0, 200)) {
      const t = m.timeline;
      assert.ok(t.listed_ms <= t.open_ms && t.open_ms < t.close_ms && t.close_ms < t.determined_ms);
      assert.ok(t.settled_ms !== null && t.settled_ms > t.determined_ms);
      let last = -1;
      for (const at of [t.listed_ms, t.open_ms, t.close_ms, t.determined_ms, t.settled_ms, t.settled_ms + 1]) {
        const phase = MARKET_PHASES.indexOf(phaseAt(t, at));
        assert.ok(phase >= last);
        last = phase;
      }
    }
    for (const m of rows(world().eventsAt('polymarket', NOW))) assert.equal(m.timeline.settled_ms, null);
  });

  it('resolves markets on each venue every resolveMeanS seconds on average', () => {
    const s = 2;
    const w = world(42, s);
    for (const venue of ['kalshi', 'polymarket'] as const) {
      const determined = new Set<string>();
      const from = NOW;
      const to = NOW + 400_000;
      for (let t = from; t <= to; t += 5_000) {
        for (const e of w.eventsAt(venue, t)) {
          const d = e.markets[0]!.timeline.determined_ms;
          if (d > from && d <= to) determined.add(e.event_id);
        }
      }
      const meanGap = 400 / determined.size;
      assert.ok(meanGap > s * 0.8 && meanGap < s * 1.2, `${venue}: mean gap ${meanGap.toFixed(2)} s over ${determined.size} resolutions`);
    }
  });
});

describe('prediction world: prices and books', () => {
  const w = world();
  const prices = new PredictionPrices(w, new LatentPriceModel(42));
  const trading = w.entriesAt(NOW).filter((e) => e.timeline.kalshi.open_ms <= NOW && NOW < e.timeline.kalshi.close_ms);

  it('derives the token-style NO book from YES exactly, and quotes the ticker-style NO book on its own', () => {
    let independent = 0;
    for (const e of trading) {
      for (let c = 0; c < e.event.candidates.length; c++) {
        if (e.listedOn.polymarket) {
          const b = prices.book(e, 'polymarket', c, NOW);
          assert.deepEqual(b.no.bids, b.yes.asks.map((l) => ({ price_1e9: PRICE_ONE - l.price_1e9, qty_1e8: l.qty_1e8 })));
          assert.deepEqual(b.no.asks, b.yes.bids.map((l) => ({ price_1e9: PRICE_ONE - l.price_1e9, qty_1e8: l.qty_1e8 })));
        }
        if (e.listedOn.kalshi) {
          const b = prices.book(e, 'kalshi', c, NOW);
          if (b.no.bids[0] !== undefined && b.yes.asks[0] !== undefined && b.no.bids[0].price_1e9 !== PRICE_ONE - b.yes.asks[0].price_1e9) independent++;
        }
      }
    }
    assert.ok(independent > 10, `ticker-style NO books quoted on their own: ${independent}`);
  });

  it('keeps every book inside (0, 1), on its tick, sorted and uncrossed, at any instant', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: trading.length - 1 }), fc.integer({ min: 0, max: 86_400_000 }), fc.constantFrom('kalshi' as const, 'polymarket' as const), (i, dt, venue) => {
        const e = trading[i]!;
        if (!e.listedOn[venue]) return;
        const b = prices.book(e, venue, 0, NOW + dt);
        for (const leg of [b.yes, b.no]) {
          for (const l of [...leg.bids, ...leg.asks]) {
            assert.ok(l.price_1e9 > 0 && l.price_1e9 < PRICE_ONE && l.price_1e9 % b.tick_1e9 === 0 && l.qty_1e8 > 0 && l.qty_1e8 % 1e8 === 0);
          }
          for (let k = 1; k < leg.bids.length; k++) assert.ok(leg.bids[k]!.price_1e9 < leg.bids[k - 1]!.price_1e9);
          for (let k = 1; k < leg.asks.length; k++) assert.ok(leg.asks[k]!.price_1e9 > leg.asks[k - 1]!.price_1e9);
          if (leg.bids[0] !== undefined && leg.asks[0] !== undefined) assert.ok(leg.bids[0].price_1e9 < leg.asks[0].price_1e9);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('prices the candidates of an event as probabilities that sum to 1', () => {
    for (const e of trading.filter((x) => x.event.multi).slice(0, 10)) {
      let sum = 0;
      for (let c = 0; c < e.event.candidates.length; c++) sum += prices.worldProbability(e, c, NOW);
      assert.ok(Math.abs(sum - 1) < 1e-9);
    }
  });

  it('converges to the outcome by the close, and an up/down market resolves up iff final >= anchor', () => {
    for (const e of trading.filter((x) => !x.fast && !x.event.multi).slice(0, 40)) {
      const p = prices.worldProbability(e, 0, e.timeline.polymarket.close_ms - 1);
      assert.ok(e.event.winner === 0 ? p > 0.98 : p < 0.02, `${e.event.key}: ${p}`);
    }
    const fast = w.entriesAt(NOW).filter((x) => x.fast && x.timeline.polymarket.close_ms <= NOW);
    assert.ok(fast.length > 0);
    for (const e of fast) {
      const { anchor, price } = prices.underlyingAt(e, e.timeline.polymarket.close_ms);
      assert.equal(prices.worldProbability(e, 0, NOW), price >= anchor ? 1 : 0);
      assert.equal(w.yesWins(e, 'polymarket', 0, prices.closedUp(e)), price >= anchor);
    }
  });

  it('quotes the complement on the ticker-style venue when it asks the question the other way', () => {
    const inverted = trading.filter((e) => e.kalshiComplement);
    assert.ok(inverted.length > 0);
    for (const e of inverted) {
      const k = prices.probability(e, 'kalshi', 0, NOW);
      const p = prices.probability(e, 'polymarket', 0, NOW);
      assert.ok(Math.abs(k - (1 - p)) < 0.15, `${k} vs 1 - ${p}`);
      assert.equal(w.yesWins(e, 'kalshi', 0, false), !w.yesWins(e, 'polymarket', 0, false));
    }
  });
});
