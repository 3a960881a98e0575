/**
 * Fair price (actors/fair-price/compute.ts) against hand-computed cases: the spec's rules 1-7
 * (spec, "Fair price") with the choices actors/fair-price/README.md documents. Every expected
 * figure is worked out in the comments next to it.
 *
 * Unless a case says otherwise a contribution is fresh (age 0 -> recency 1), has one whole unit
 * at the top (top_qty_1e8 = 1e8 -> log10(1e8 + 1) / 8 = 1.0000000005, clamped to 1) and a zero
 * spread (-> 1), so its weight is exactly 1.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  computeFairPrice,
  contributionWeight,
  FairPriceRegistry,
  underlyingKey,
  weightedMedian,
  type Contribution,
  type FairPrice,
} from '../../actors/fair-price/compute.ts';

/** "now" for every case: an arbitrary instant in ns (small enough that ns differences are exact). */
const NOW = 1_000_000_000_000;
const MS = 1_000_000;
/** Dollars with cents to _1e9, exactly: 100.01 -> 100_010_000_000. */
const P = (dollars: number) => Math.round(dollars * 100) * 10_000_000;

function c(venue: string, instrument_type: 'spot' | 'perp', dollars: number, opts: { ageMs?: number; top?: number; spreadBps?: number } = {}): Contribution {
  return {
    venue,
    instrument_type,
    mid_1e9: P(dollars),
    top_qty_1e8: opts.top ?? 100_000_000,
    spread_bps: opts.spreadBps ?? 0,
    updated_ns: NOW - (opts.ageMs ?? 0) * MS,
  };
}

function close(actual: number | null, expected: number, what: string, tolerance = 1e-9): void {
  assert.ok(actual !== null && Math.abs(actual - expected) <= tolerance * Math.max(1, Math.abs(expected)), `${what}: ${actual} vs ${expected}`);
}

function compute(contributions: Contribution[], underlying = 'BTC'): FairPrice {
  const fp = computeFairPrice(underlying, contributions, NOW);
  assert.ok(fp !== undefined);
  assert.ok(Number.isInteger(fp.fair_mid_1e9), 'fair_mid_1e9 is an integer');
  assert.ok(fp.spot_mid_1e9 === null || Number.isInteger(fp.spot_mid_1e9));
  assert.ok(fp.perp_mid_1e9 === null || Number.isInteger(fp.perp_mid_1e9));
  assert.ok(fp.confidence >= 0 && fp.confidence <= 1);
  return fp;
}

const venuesOf = (fp: FairPrice) => fp.contributors.map((x) => `${x.venue}:${x.instrument_type}`);

describe('fair price: weights (rule 1)', () => {
  it('weight = recency x liquidity x spread', () => {
    // recency exp(-500 ms / 500 ms) = e^-1; liquidity log10(9,999 + 1) / 8 = 4 / 8 = 0.5;
    // spread 1 / (1 + 100 x 0.01) = 0.5  ->  0.25 / e = 0.09196986029286058
    close(contributionWeight(c('a', 'spot', 100, { ageMs: 500, top: 9_999, spreadBps: 100 }), NOW), 0.25 * Math.exp(-1), 'weight');
    // liquidity floor: log10(0 + 1) / 8 = 0 -> 0.1; cap: log10(1e12 + 1) / 8 = 1.5 -> 1.0
    close(contributionWeight(c('a', 'spot', 100, { top: 0 }), NOW), 0.1, 'floor');
    close(contributionWeight(c('a', 'spot', 100, { top: 1e12 }), NOW), 1, 'cap');
    // 999 -> log10(1000) / 8 = 0.375; spread 25 bps -> 1 / 1.25 = 0.8; 1,500 ms -> e^-3
    close(contributionWeight(c('a', 'spot', 100, { top: 999, spreadBps: 25, ageMs: 1_500 }), NOW), 0.375 * 0.8 * Math.exp(-3), 'mixed');
    // A tick stamped in the future (clock skew) counts as age 0; a negative spread (a crossed venue
    // book) as spread 0.
    close(contributionWeight({ ...c('a', 'spot', 100), updated_ns: NOW + 5 * MS, spread_bps: -3 }, NOW), 1, 'skew');
  });
});

describe('fair price: weighted median', () => {
  it('is the lower weighted median: the smallest value whose cumulative weight reaches half', () => {
    assert.equal(weightedMedian([1, 2], [1, 1]), 1, 'cumulative 1 = half of 2: the lower value');
    assert.equal(weightedMedian([1, 2, 3], [1, 1, 1]), 2);
    assert.equal(weightedMedian([1, 2, 3], [1, 1, 2]), 2, 'total 4, cumulative 2 at value 2 = half');
    assert.equal(weightedMedian([1, 2, 3], [1, 1, 2.5]), 3, 'total 4.5, cumulative 2 at value 2 < 2.25');
    assert.equal(weightedMedian([1, 2, 3], [5, 1, 1]), 1);
    assert.equal(weightedMedian([7], [0.3]), 7);
    assert.equal(weightedMedian([5, 6, 7], [0, 0, 0]), 6, 'all weights 0: equal weights');
  });
});

describe('fair price: hand-computed cases', () => {
  it('rejects a spot outlier beyond 3 MAD and keeps the rest (rules 1-4)', () => {
    const fp = compute([
      c('binance', 'spot', 100.0),
      c('coinbase', 'spot', 100.01),
      c('kraken', 'spot', 100.02),
      c('okx', 'spot', 100.03),
      c('bybit', 'spot', 110.0),
      c('hyperliquid', 'perp', 100.05),
    ]);
    // Spot side, all weights 1, sorted 100.00 100.01 100.02 100.03 110.00: total 5, cumulative
    // reaches 2.5 at the third -> center 100.02. |deviations| 0.02 0.01 0 0.01 9.98, sorted
    // 0 0.01 0.01 0.02 9.98 -> MAD 0.01; floor 1 bps of 100.02 = 0.010002 > 0.01, so the scale is
    // 0.010002 and the limit 3 x 0.010002 = 0.030006: 110.00 (9.98 away) is out, 0.02 is in.
    // Perp side: one contributor, nothing to reject.
    assert.deepEqual(venuesOf(fp), ['binance:spot', 'coinbase:spot', 'kraken:spot', 'okx:spot', 'hyperliquid:perp']);
    // spot_mid: survivors 100.00 100.01 100.02 100.03, total 4, cumulative 2 = half at 100.01.
    assert.equal(fp.spot_mid_1e9, P(100.01));
    assert.equal(fp.perp_mid_1e9, P(100.05));
    // basis: (100.05 - 100.01) / 100.01 x 10,000 = 3.99960004 bps, perp above spot: positive.
    close(fp.basis_bps, (0.04 / 100.01) * 10_000, 'basis');
    // fair: union 100.00 100.01 100.02 100.03 100.05, total 5, cumulative 3 >= 2.5 at 100.02.
    assert.equal(fp.fair_mid_1e9, P(100.02));
    // confidence: mass 5 / max(5, 4) = 1; spot distances from 100.01: 0.01 0 0.01 0.02 = 0.04,
    // perp 0 -> d = (0.04 / 100.01 x 1e4) / 5 = 0.79992 bps -> agreement 1 / (1 + 0.079992);
    // survival 5 of 6 -> 0.925933 x 0.833333 = 0.771611.
    close(fp.confidence, (1 / (1 + (((0.04 / 100.01) * 1e4) / 5) / 10)) * (5 / 6), 'confidence');
    assert.equal(fp.underlying, 'BTC');
    assert.equal(fp.cc_ts_ns, NOW);
  });

  it('with MAD = 0 uses a floor of 1 bps of the median: a tick away stays, 10 bps away goes', () => {
    const fp = compute([
      c('binance', 'spot', 100.0),
      c('coinbase', 'spot', 100.0),
      c('kraken', 'spot', 100.0),
      c('okx', 'spot', 100.02),
      c('bybit', 'spot', 100.1),
    ]);
    // center 100.00 (third of five); deviations 0 0 0 0.02 0.10 -> MAD 0 -> scale = 1 bps of
    // 100.00 = 0.01, limit 0.03: 100.02 (2 bps) kept, 100.10 (10 bps) rejected.
    assert.deepEqual(venuesOf(fp), ['binance:spot', 'coinbase:spot', 'kraken:spot', 'okx:spot']);
    assert.equal(fp.spot_mid_1e9, P(100.0));
    assert.equal(fp.fair_mid_1e9, P(100.0));
    // Exactly at the limit is kept ("farther than" rejects): 100.03 is 3 x 0.01 away.
    const edge = compute([c('a', 'spot', 100.0), c('b', 'spot', 100.0), c('c', 'spot', 100.0), c('d', 'spot', 100.03)]);
    assert.equal(edge.contributors.length, 4);
  });

  it('filters spot and perp independently (the basis is not an outlier)', () => {
    const fp = compute([
      c('binance', 'spot', 100.0),
      c('coinbase', 'spot', 100.01),
      c('kraken', 'spot', 100.02),
      c('hyperliquid', 'perp', 100.5),
      c('binance', 'perp', 100.51),
      c('okx', 'perp', 100.52),
      c('bybit', 'perp', 103.0),
    ]);
    // Spot: center 100.01, deviations 0.01 0 0.01 -> MAD 0.01, floor 0.010001 -> limit 0.030003:
    // all kept. Pooled with the perps they would not be. Perp: 100.50 100.51 100.52 103.00,
    // total 4, cumulative 2 at 100.51 = center; deviations 0.01 0 0.01 2.49 -> sorted
    // 0 0.01 0.01 2.49, MAD (0.01 + 0.01) / 2 = 0.01, floor 0.010051 -> limit 0.030153: 103 out.
    assert.deepEqual(venuesOf(fp), ['binance:spot', 'coinbase:spot', 'kraken:spot', 'binance:perp', 'hyperliquid:perp', 'okx:perp']);
    assert.equal(fp.spot_mid_1e9, P(100.01));
    assert.equal(fp.perp_mid_1e9, P(100.51));
    close(fp.basis_bps, (0.5 / 100.01) * 10_000, 'basis 49.995 bps');
    // Union of 6 with weight 1: cumulative 3 = half at the third value, 100.02.
    assert.equal(fp.fair_mid_1e9, P(100.02));
    // confidence: mass 6 / 6 = 1; distances from own leg: spot 0.01/100.01 x 2, perp
    // 0.01/100.51 x 2 (in bps x 1e4), mean over 6; survival 6 of 7.
    const d = (((0.02 / 100.01) * 1e4 + (0.02 / 100.51) * 1e4) / 6) as number;
    close(fp.confidence, (1 / (1 + d / 10)) * (6 / 7), 'confidence');
  });

  it('one contributor: no rejection, low confidence (rule 5), no basis', () => {
    const fp = compute([c('kraken', 'spot', 100.0, { ageMs: 500, top: 9_999, spreadBps: 100 })], 'XYZ');
    // weight = e^-1 x 0.5 x 0.5 = 0.0919698602928606 (see rule 1 case)
    const w = 0.25 * Math.exp(-1);
    assert.equal(fp.fair_mid_1e9, P(100.0));
    assert.equal(fp.spot_mid_1e9, P(100.0));
    assert.equal(fp.perp_mid_1e9, null);
    assert.equal(fp.basis_bps, null);
    assert.equal(fp.contributors.length, 1);
    assert.equal(fp.contributors[0]!.staleness_ms, 500);
    close(fp.contributors[0]!.weight, w, 'weight');
    // confidence = w / max(1, 4) x agreement 1 x survival 1 = 0.02299
    close(fp.confidence, w / 4, 'confidence');
    // Even a perfect single contributor stays at the floor: 1 / 4.
    close(compute([c('kraken', 'spot', 100.0)]).confidence, 0.25, 'perfect single');
    // A single perp works the same way, with the spot leg missing.
    const perp = compute([c('hyperliquid', 'perp', 100.0)]);
    assert.deepEqual([perp.spot_mid_1e9, perp.perp_mid_1e9, perp.basis_bps, perp.fair_mid_1e9], [null, P(100.0), null, P(100.0)]);
  });

  it('two contributors on a side are never outliers of each other', () => {
    // center = lower median 100 (weights equal); deviations 0 and 100 -> MAD (0 + 100) / 2 = 50,
    // limit 150 > 100. With two there is no majority to tell which one is wrong.
    const fp = compute([c('a', 'spot', 100.0), c('b', 'spot', 200.0)]);
    assert.equal(fp.contributors.length, 2);
    assert.equal(fp.fair_mid_1e9, P(100.0));
    // confidence: mass 2/4 = 0.5; distances from 100: 0 and 100 (= 10,000 bps), mean 5,000 bps
    // -> agreement 1 / (1 + 500) -> 0.000998
    close(fp.confidence, 0.5 / 501, 'confidence');
  });

  it('missing perp leg: perp_mid and basis null', () => {
    const fp = compute([c('binance', 'spot', 100.0), c('coinbase', 'spot', 100.02), c('kraken', 'spot', 100.04)]);
    assert.equal(fp.perp_mid_1e9, null);
    assert.equal(fp.basis_bps, null);
    assert.equal(fp.spot_mid_1e9, P(100.02));
    assert.equal(fp.fair_mid_1e9, P(100.02));
  });

  it('missing spot leg: spot_mid and basis null, fair from the perps', () => {
    // Two perps, weights 1 and 0.5 (spread 100 bps): sorted 100.00 (w 0.5), 100.10 (w 1),
    // total 1.5, cumulative 0.5 < 0.75, 1.5 >= 0.75 -> 100.10.
    const fp = compute([c('hyperliquid', 'perp', 100.1), c('binance', 'perp', 100.0, { spreadBps: 100 })]);
    assert.equal(fp.spot_mid_1e9, null);
    assert.equal(fp.basis_bps, null);
    assert.equal(fp.perp_mid_1e9, P(100.1));
    assert.equal(fp.fair_mid_1e9, P(100.1));
  });

  it('basis is signed: perps below spot give a negative basis', () => {
    const fp = compute([c('binance', 'spot', 100.0), c('hyperliquid', 'perp', 99.9)]);
    close(fp.basis_bps, (-0.1 / 100) * 10_000, 'basis -10 bps');
  });

  it('recency decay: a stale venue loses the median to a fresh one', () => {
    // 100.00 and 100.01 are 1,000 ms old: e^-2 = 0.135335 each; 100.02 fresh: 1.
    // Sorted: 0.135, 0.271, 1.271 cumulative; half of 1.2707 = 0.635 -> 100.02, where the
    // unweighted median would be 100.01. Rejection: center 100.02, deviations 0.02 0.01 0 ->
    // MAD 0.01, floor 0.010002 -> limit 0.030006: all kept.
    const fp = compute([c('binance', 'spot', 100.0, { ageMs: 1_000 }), c('coinbase', 'spot', 100.01, { ageMs: 1_000 }), c('kraken', 'spot', 100.02)]);
    assert.equal(fp.fair_mid_1e9, P(100.02));
    assert.equal(fp.contributors.length, 3);
    // Fresh again, the same three give the plain median.
    const fresh = compute([c('binance', 'spot', 100.0), c('coinbase', 'spot', 100.01), c('kraken', 'spot', 100.02)]);
    assert.equal(fresh.fair_mid_1e9, P(100.01));
    // All so stale that every weight underflows to 0 (1,000 s -> e^-2000): equal weights.
    const ancient = compute([c('a', 'spot', 100.0, { ageMs: 1e6 }), c('b', 'spot', 100.01, { ageMs: 1e6 }), c('c', 'spot', 100.02, { ageMs: 1e6 })]);
    assert.equal(ancient.fair_mid_1e9, P(100.01));
    assert.equal(ancient.confidence, 0);
  });

  it('reports each contributor with its weight and staleness_ms', () => {
    const fp = compute([
      c('kraken', 'spot', 100.0, { top: 999, spreadBps: 25, ageMs: 1_500 }),
      { ...c('binance', 'spot', 100.01, { top: 0 }), updated_ns: NOW - 1_234_567 },
      c('hyperliquid', 'perp', 100.03, { spreadBps: 100, ageMs: 250 }),
    ]);
    assert.deepEqual(
      fp.contributors.map((x) => [x.venue, x.instrument_type, x.mid_1e9, x.staleness_ms]),
      [
        ['binance', 'spot', P(100.01), 1], // 1.234567 ms -> 1 (floor)
        ['kraken', 'spot', P(100.0), 1_500],
        ['hyperliquid', 'perp', P(100.03), 250],
      ],
    );
    close(fp.contributors[0]!.weight, Math.exp(-1_234_567 / 5e8) * 0.1, 'binance: liquidity floor 0.1');
    close(fp.contributors[1]!.weight, Math.exp(-3) * 0.375 * 0.8, 'kraken: e^-3 x 0.375 x 0.8 = 0.014936');
    close(fp.contributors[2]!.weight, Math.exp(-0.5) * 0.5, 'hyperliquid: e^-0.5 x 1 x 0.5 = 0.303265');
    // fair: sorted 100.00 (0.014936), 100.01 (0.099753), 100.03 (0.303265): total 0.417955,
    // half 0.208977; cumulative 0.0149, 0.1147, 0.4180 -> 100.03.
    assert.equal(fp.fair_mid_1e9, P(100.03));
  });

  it('ignores contributions without a positive mid; none at all gives undefined', () => {
    assert.equal(computeFairPrice('BTC', [], NOW), undefined);
    assert.equal(computeFairPrice('BTC', [{ ...c('a', 'spot', 1), mid_1e9: 0 }], NOW), undefined);
    const fp = compute([{ ...c('a', 'spot', 1), mid_1e9: 0 }, c('b', 'spot', 100)]);
    assert.deepEqual(venuesOf(fp), ['b:spot']);
  });
});

describe('fair price: underlyings (rules 6, 7)', () => {
  it('collapses USD, USDT and USDC variants into one underlying', () => {
    assert.equal(underlyingKey('BTC-USDT'), 'BTC');
    assert.equal(underlyingKey('BTC-USDC'), 'BTC');
    assert.equal(underlyingKey('BTC-USD'), 'BTC');
    assert.equal(underlyingKey('ETH-BTC'), undefined, 'not USD-settled: no USD fair price');
    assert.equal(underlyingKey('btc-usdt'), undefined, 'canonical symbols are uppercase');

    const registry = new FairPriceRegistry();
    assert.equal(registry.update('BTC-USDT', c('binance', 'spot', 100.0)), true);
    assert.equal(registry.update('BTC-USDC', c('binance', 'spot', 100.02)), true, 'same venue, other variant: a second contribution');
    assert.equal(registry.update('BTC-USD', c('coinbase', 'spot', 100.04)), true);
    assert.equal(registry.update('BTC-USDT', c('hyperliquid', 'perp', 100.1)), true);
    assert.equal(registry.update('ETH-BTC', c('binance', 'spot', 0.05)), false);
    assert.deepEqual(registry.underlyings(), ['BTC']);
    const fp = registry.compute('BTC', NOW)!;
    // Spot 100.00 100.02 100.04 -> 100.02; perp 100.10; union of 4: cumulative 2 = half at 100.02.
    assert.equal(fp.spot_mid_1e9, P(100.02));
    assert.equal(fp.perp_mid_1e9, P(100.1));
    assert.equal(fp.fair_mid_1e9, P(100.02));
    assert.deepEqual(venuesOf(fp), ['binance:spot', 'binance:spot', 'coinbase:spot', 'hyperliquid:perp']);
    // A newer tick replaces the venue's contribution for that symbol.
    const v = registry.version('BTC');
    registry.update('BTC-USDT', c('hyperliquid', 'perp', 100.2));
    assert.equal(registry.compute('BTC', NOW)!.perp_mid_1e9, P(100.2));
    assert.equal(registry.version('BTC'), v + 1);
    assert.equal(registry.contributions('BTC').length, 4);
    // A dropped feed removes it; the underlying keeps its slot.
    assert.equal(registry.remove('BTC-USDT', 'hyperliquid', 'perp'), true);
    assert.equal(registry.remove('BTC-USDT', 'hyperliquid', 'perp'), false);
    assert.equal(registry.compute('BTC', NOW)!.perp_mid_1e9, null);
    for (const [symbol, venue] of [['BTC-USDT', 'binance'], ['BTC-USDC', 'binance'], ['BTC-USD', 'coinbase']] as const) registry.remove(symbol, venue, 'spot');
    assert.equal(registry.compute('BTC', NOW), undefined);
    assert.equal(registry.has('BTC'), true);
    assert.equal(registry.compute('ETH', NOW), undefined);
    assert.equal(registry.version('ETH'), -1);
  });

  it('tracks at most 256 underlyings and refuses the 257th', () => {
    const registry = new FairPriceRegistry();
    for (let i = 0; i < 256; i++) assert.equal(registry.update(`U${i}-USDT`, c('binance', 'spot', 1 + i)), true, `U${i}`);
    assert.equal(registry.size, 256);
    assert.equal(registry.update('U256-USDT', c('binance', 'spot', 1)), false);
    assert.equal(registry.updateDetailed('U256-USD', c('binance', 'spot', 1)), 'full');
    assert.equal(registry.has('U256'), false);
    assert.equal(registry.size, 256);
    // Existing underlyings keep working, including a new variant of one.
    assert.equal(registry.updateDetailed('U0-USDC', c('kraken', 'spot', 1)), 'updated');
    assert.equal(registry.update('U255-USDT', c('binance', 'spot', 7)), true);
    assert.equal(registry.compute('U255', NOW)!.fair_mid_1e9, P(7));
    assert.equal(new FairPriceRegistry().updateDetailed('V-USD', c('a', 'spot', 1)), 'added');
    assert.equal(new FairPriceRegistry().updateDetailed('V-EUR', c('a', 'spot', 1)), 'not_usd');
  });
});
