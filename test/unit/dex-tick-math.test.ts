/**
 * domain/dex/tick-math.ts against Uniswap v3-core's published vectors: test/TickMath.spec.ts
 * (bounds, MIN_TICK + 1, MAX_TICK - 1, the ratio at either end) and the exact results of
 * test/__snapshots__/TickMath.spec.ts.snap (repository Uniswap/v3-core), plus fast-check
 * properties from the spec's own checks: a tick's ratio round-trips, and any price lies in
 * [ratio(tick), ratio(tick + 1)).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  getSqrtRatioAtTick,
  getTickAtSqrtRatio,
  MAX_SQRT_RATIO,
  MAX_TICK,
  MIN_SQRT_RATIO,
  MIN_TICK,
} from '../../domain/dex/tick-math.ts';
import { encodePriceSqrt } from '../helpers/dex.ts';

// test/__snapshots__/TickMath.spec.ts.snap, "#getSqrtRatioAtTick tick <t> result".
const SQRT_RATIO_AT_TICK: readonly [number, string][] = [
  [-50, '79030349367926598376800521322'],
  [-100, '78833030112140176575862854579'],
  [-250, '78244023372248365697264290337'],
  [-500, '77272108795590369356373805297'],
  [-1000, '75364347830767020784054125655'],
  [-2500, '69919044979842180277688105136'],
  [-3000, '68192822843687888778582228483'],
  [-4000, '64867181785621769311890333195'],
  [-5000, '61703726247759831737814779831'],
  [-50000, '6504256538020985011912221507'],
  [-150000, '43836292794701720435367485'],
  [-250000, '295440463448801648376846'],
  [-500000, '1101692437043807371'],
  [-738203, '7409801140451'],
  [50, '79426470787362580746886972461'],
  [100, '79625275426524748796330556128'],
  [250, '80224679980005306637834519095'],
  [500, '81233731461783161732293370115'],
  [1000, '83290069058676223003182343270'],
  [2500, '89776708723587163891445672585'],
  [3000, '92049301871182272007977902845'],
  [4000, '96768528593268422080558758223'],
  [5000, '101729702841318637793976746270'],
  [50000, '965075977353221155028623082916'],
  [150000, '143194173941309278083010301478497'],
  [250000, '21246587762933397357449903968194344'],
  [500000, '5697689776495288729098254600827762987878'],
  [738203, '847134979253254120489401328389043031315994541'],
];

// test/__snapshots__/TickMath.spec.ts.snap, "#getTickAtSqrtRatio ratio <r> result"; the ratios
// are the spec's encodePriceSqrt inputs, in the spec's order.
const TICK_AT_SQRT_RATIO: readonly [string, string, number][] = [
  ['MIN_SQRT_RATIO', '4295128739', -887272],
  ['10^12 : 1', '79228162514264337593543950336000000', 276324],
  ['10^6 : 1', '79228162514264337593543950336000', 138162],
  ['1 : 64', '9903520314283042199192993792', -41591],
  ['1 : 8', '28011385487393069959365969113', -20796],
  ['1 : 2', '56022770974786139918731938227', -6932],
  ['1 : 1', '79228162514264337593543950336', 0],
  ['2 : 1', '112045541949572279837463876454', 6931],
  ['8 : 1', '224091083899144559674927752909', 20795],
  ['64 : 1', '633825300114114700748351602688', 41590],
  ['1 : 10^6', '79228162514264337593543950', -138163],
  ['1 : 10^12', '79228162514264337593543', -276325],
  ['MAX_SQRT_RATIO - 1', '1461446703485210103287273052203988822378723970341', 887271],
];

describe('dex tick math: getSqrtRatioAtTick (TickMath.spec.ts)', () => {
  it('has the bounds of TickMath.sol', () => {
    assert.equal(MIN_TICK, -887272);
    assert.equal(MAX_TICK, 887272);
    assert.equal(MIN_SQRT_RATIO, 4295128739n);
    assert.equal(MAX_SQRT_RATIO, 1461446703485210103287273052203988822378723970342n);
  });

  it('throws RangeError past either bound (and for a non-integer tick)', () => {
    assert.throws(() => getSqrtRatioAtTick(MIN_TICK - 1), RangeError);
    assert.throws(() => getSqrtRatioAtTick(MAX_TICK + 1), RangeError);
    assert.throws(() => getSqrtRatioAtTick(0.5), RangeError);
  });

  it('min tick, min tick + 1, max tick - 1, max tick', () => {
    assert.equal(getSqrtRatioAtTick(MIN_TICK), 4295128739n);
    assert.equal(getSqrtRatioAtTick(MIN_TICK + 1), 4295343490n);
    assert.equal(getSqrtRatioAtTick(MAX_TICK - 1), 1461373636630004318706518188784493106690254656249n);
    assert.equal(getSqrtRatioAtTick(MAX_TICK), 1461446703485210103287273052203988822378723970342n);
    assert.equal(getSqrtRatioAtTick(MIN_TICK), MIN_SQRT_RATIO);
    assert.equal(getSqrtRatioAtTick(MAX_TICK), MAX_SQRT_RATIO);
  });

  it('the ratio at the bounds is outside the JS price 2^-127 .. 2^127', () => {
    assert.ok(getSqrtRatioAtTick(MIN_TICK) < encodePriceSqrt(1n, 2n ** 127n));
    assert.ok(getSqrtRatioAtTick(MAX_TICK) > encodePriceSqrt(2n ** 127n, 1n));
  });

  it('matches every snapshotted result exactly, and is within 1/100th of a bip of sqrt(1.0001^tick)', () => {
    for (const [tick, expected] of SQRT_RATIO_AT_TICK) {
      const result = getSqrtRatioAtTick(tick);
      assert.equal(result, BigInt(expected), `tick ${tick}`);
      const float = Math.sqrt(1.0001 ** tick) * 2 ** 96;
      assert.ok(Math.abs(Number(result) - float) / float < 0.000001, `tick ${tick} near the float`);
    }
  });

  it('the encodePriceSqrt helper reproduces the ratios the spec printed', () => {
    const inputs: [bigint, bigint][] = [[10n ** 12n, 1n], [10n ** 6n, 1n], [1n, 64n], [1n, 8n], [1n, 2n], [1n, 1n], [2n, 1n], [8n, 1n], [64n, 1n], [1n, 10n ** 6n], [1n, 10n ** 12n]];
    assert.deepEqual(inputs.map(([a, b]) => String(encodePriceSqrt(a, b))), TICK_AT_SQRT_RATIO.slice(1, -1).map(([, ratio]) => ratio));
  });
});

describe('dex tick math: getTickAtSqrtRatio (TickMath.spec.ts)', () => {
  it('throws RangeError below MIN_SQRT_RATIO and at MAX_SQRT_RATIO', () => {
    assert.throws(() => getTickAtSqrtRatio(MIN_SQRT_RATIO - 1n), RangeError);
    assert.throws(() => getTickAtSqrtRatio(MAX_SQRT_RATIO), RangeError);
  });

  it('ratio of min tick, min tick + 1, max tick - 1, closest to max tick', () => {
    assert.equal(getTickAtSqrtRatio(MIN_SQRT_RATIO), MIN_TICK);
    assert.equal(getTickAtSqrtRatio(4295343490n), MIN_TICK + 1);
    assert.equal(getTickAtSqrtRatio(1461373636630004318706518188784493106690254656249n), MAX_TICK - 1);
    assert.equal(getTickAtSqrtRatio(MAX_SQRT_RATIO - 1n), MAX_TICK - 1);
  });

  it('matches every snapshotted result, each ratio between its tick and tick + 1', () => {
    for (const [label, ratio, expected] of TICK_AT_SQRT_RATIO) {
      const tick = getTickAtSqrtRatio(BigInt(ratio));
      assert.equal(tick, expected, label);
      assert.ok(getSqrtRatioAtTick(tick) <= BigInt(ratio), label);
      assert.ok(BigInt(ratio) < getSqrtRatioAtTick(tick + 1), label);
    }
  });

  it('inverts getSqrtRatioAtTick: a tick\'s ratio maps to it, one less maps to the tick below', () => {
    fc.assert(
      fc.property(fc.integer({ min: MIN_TICK, max: MAX_TICK - 1 }), (tick) => {
        const ratio = getSqrtRatioAtTick(tick);
        assert.equal(getTickAtSqrtRatio(ratio), tick);
        if (tick > MIN_TICK) assert.equal(getTickAtSqrtRatio(ratio - 1n), tick - 1);
      }),
      { numRuns: 2000 },
    );
  });

  it('any price between ratio(t) and ratio(t + 1) maps to t', () => {
    // Prices drawn per tick (log-uniform over the whole range) and uniformly in value.
    const withinTick = fc
      .tuple(fc.integer({ min: MIN_TICK, max: MAX_TICK - 1 }), fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }))
      .map(([tick, fraction]) => {
        const low = getSqrtRatioAtTick(tick);
        return { tick, price: low + (((getSqrtRatioAtTick(tick + 1) - low) * fraction) >> 64n) };
      });
    fc.assert(
      fc.property(withinTick, ({ tick, price }) => {
        assert.equal(getTickAtSqrtRatio(price), tick);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.bigInt({ min: MIN_SQRT_RATIO, max: MAX_SQRT_RATIO - 1n }), (price) => {
        const tick = getTickAtSqrtRatio(price);
        assert.ok(getSqrtRatioAtTick(tick) <= price);
        assert.ok(price < getSqrtRatioAtTick(tick + 1));
      }),
      { numRuns: 1000 },
    );
  });

  it('is monotonic in the price', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: MIN_SQRT_RATIO, max: MAX_SQRT_RATIO - 1n }), fc.bigInt({ min: MIN_SQRT_RATIO, max: MAX_SQRT_RATIO - 1n }), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        assert.ok(getTickAtSqrtRatio(lo) <= getTickAtSqrtRatio(hi));
      }),
    );
  });
});
