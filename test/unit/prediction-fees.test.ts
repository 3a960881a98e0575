/**
 * The exact `binary_quadratic` fee curves (domain/prediction/fees.ts; spec, Fee row): the
 * hand-computed values of scratch-tmp/pm-spec-notes.md section 6 (ticker-style rate 700,
 * multiplier 1), fractional multipliers, token-style exponents 1 and 2, the at-mid bps, and
 * fast-check properties against a reference written straight from the spec's formula in
 * bigint rationals. Also: the venue-level rows `feeRowOf` serves are byte-for-byte what they
 * were before the curves moved to fees.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  binaryAtMidBps,
  binaryFeeRow,
  binaryTakerFeeUsd1e9,
  compileBinaryFee,
  type TickerFeeComponents,
  type TokenFeeComponents,
} from '../../domain/prediction/fees.ts';
import { EDGES, feeRowOf } from '../../domain/venues.ts';

const KALSHI: TickerFeeComponents = { rate_bps: 700, multiplier: 1, rounding: 'ceil_to_cent' };
const ticker = (multiplier: number, rate_bps = 700): TickerFeeComponents => ({ rate_bps, multiplier, rounding: 'ceil_to_cent' });
const token = (rate_bps: number, exponent: number): TokenFeeComponents => ({ rate_bps, exponent });

/** Contracts and probabilities as the internal units, from their decimal text (test inputs only). */
const qty = (contracts: number) => Math.round(contracts * 1e8);
const px = (p: number) => Math.round(p * 1e9);
const usd = (dollars: number) => Math.round(dollars * 1e9);
const CENT = 10_000_000;

describe('binary_quadratic fees: ticker-style, hand-computed (rate 700, multiplier 1)', () => {
  const fee = (contracts: number, price: number) => binaryTakerFeeUsd1e9(KALSHI, qty(contracts), px(price));

  it('qty 100 @ 0.50 is $1.75 exactly', () => {
    // 100 x 0.5 x 0.5 x 0.07 = 1.75
    assert.equal(fee(100, 0.5), usd(1.75));
  });

  it('qty 1 @ 0.50 is $0.0175, ceiled to $0.02', () => {
    assert.equal(fee(1, 0.5), usd(0.02));
  });

  it('near 0 and 1: qty 1 @ 0.01 and @ 0.99 are $0.000693, ceiled to $0.01', () => {
    assert.equal(fee(1, 0.01), usd(0.01));
    assert.equal(fee(1, 0.99), usd(0.01));
  });

  it('price 0 or 1 costs nothing', () => {
    assert.equal(fee(100, 0), 0);
    assert.equal(fee(100, 1), 0);
    assert.equal(fee(0, 0.5), 0);
  });

  it('qty 10 @ 0.30 is $0.147, ceiled to $0.15', () => {
    assert.equal(fee(10, 0.3), usd(0.15));
  });

  it('exact cents stay exact where float arithmetic would add a cent', () => {
    // 4 x 0.25 x 0.07 = 0.07 exactly; in doubles 4*0.5*0.5*700/10000*100 is 7.000000000000001,
    // whose ceil is 8 cents. Likewise 200 x 0.7 x 0.3 x 0.07 = 2.94 (doubles: 294.00000000000006).
    assert.equal(fee(4, 0.5), usd(0.07));
    assert.equal(fee(200, 0.7), usd(2.94));
    assert.equal(fee(20, 0.5), usd(0.35));
    assert.equal(fee(1000, 0.3), usd(14.7));
  });

  it('a fractional multiplier applies before the rounding', () => {
    // multiplier 0.5: 100 @ 0.50 is 0.875 -> $0.88 (half of the rounded $1.75 is no whole cent);
    // 10 @ 0.30 is 0.0735 -> $0.08; 1 @ 0.50 is 0.00875 -> $0.01.
    assert.equal(binaryTakerFeeUsd1e9(ticker(0.5), qty(100), px(0.5)), usd(0.88));
    assert.equal(binaryTakerFeeUsd1e9(ticker(0.5), qty(10), px(0.3)), usd(0.08));
    assert.equal(binaryTakerFeeUsd1e9(ticker(0.5), qty(1), px(0.5)), usd(0.01));
    // multiplier 0.25: 100 @ 0.50 is 0.4375 -> $0.44.
    assert.equal(binaryTakerFeeUsd1e9(ticker(0.25), qty(100), px(0.5)), usd(0.44));
    // multiplier 0.1 read from its decimal text: 40 @ 0.50 is 0.07 exactly (doubles: 7.000000000000001 cents).
    assert.equal(binaryTakerFeeUsd1e9(ticker(0.1), qty(40), px(0.5)), usd(0.07));
    // multiplier 0.35: 100 @ 0.50 is 0.6125 -> $0.62.
    assert.equal(binaryTakerFeeUsd1e9(ticker(0.35), qty(100), px(0.5)), usd(0.62));
  });

  it('a sub-contract quantity still pays at least a cent when the fee is not zero', () => {
    assert.equal(binaryTakerFeeUsd1e9(KALSHI, 1, px(0.5)), CENT);
  });
});

describe('binary_quadratic fees: token-style, hand-computed', () => {
  it('exponent 1: rate 200, qty 100 @ 0.40 is 100 x 0.4 x 0.6 x 0.02 = $0.48', () => {
    assert.equal(binaryTakerFeeUsd1e9(token(200, 1), qty(100), px(0.4)), usd(0.48));
  });

  it('exponent 2: rate 200, qty 100 @ 0.40 is 100 x 0.4 x 0.36 x 0.02 = $0.288', () => {
    assert.equal(binaryTakerFeeUsd1e9(token(200, 2), qty(100), px(0.4)), usd(0.288));
    // qty 1 @ 0.50: 0.5 x 0.25 x 0.02 = $0.0025.
    assert.equal(binaryTakerFeeUsd1e9(token(200, 2), qty(1), px(0.5)), 2_500_000);
  });

  it('exponent 3: rate 100, qty 3 @ 0.10 is 3 x 0.1 x 0.729 x 0.01 = $0.002187', () => {
    assert.equal(binaryTakerFeeUsd1e9(token(100, 3), qty(3), px(0.1)), 2_187_000);
  });

  it('ceils to 1e-9 USD, not to the cent', () => {
    // 0.333333333 x 0.666666667 = 0.222222222111111111; x 0.02 = 0.00444444444222... USD
    // = 4,444,444.44222 units of 1e-9 -> 4,444,445.
    assert.equal(binaryTakerFeeUsd1e9(token(200, 1), qty(1), 333_333_333), 4_444_445);
    // 1e-8 contract @ 0.50, rate 200, exponent 2: 2.5e-11 USD -> one unit.
    assert.equal(binaryTakerFeeUsd1e9(token(200, 2), 1, px(0.5)), 1);
  });

  it('rate 0 (the token-style venue default) costs nothing', () => {
    assert.equal(binaryTakerFeeUsd1e9(token(0, 1), qty(1_000_000), px(0.5)), 0);
  });
});

describe('at-mid bps', () => {
  it('is half the rate for exponent 1 and rate x 0.5^e otherwise, rounded up', () => {
    assert.equal(binaryAtMidBps(KALSHI), 350);
    assert.equal(binaryAtMidBps(ticker(0.5)), 175);
    assert.equal(binaryAtMidBps(ticker(1, 701)), 351); // 350.5 rounded up
    assert.equal(binaryAtMidBps(token(200, 1)), 100);
    assert.equal(binaryAtMidBps(token(200, 2)), 50);
    assert.equal(binaryAtMidBps(token(100, 3)), 13); // 12.5 rounded up
    assert.equal(binaryAtMidBps(token(0, 1)), 0);
  });

  it('is the fee per notional at price 0.5, in bps', () => {
    // token rate 200 exponent 2: 1000 contracts @ 0.50 are $500 of notional (qty x price) and
    // pay 1000 x 0.5 x 0.25 x 0.02 = $2.50, which is 50 bps of it: 0.5^2 x 200, not 200 / 2.
    const fee = binaryTakerFeeUsd1e9(token(200, 2), qty(1000), px(0.5));
    assert.equal(fee, usd(2.5));
    assert.equal((fee * 10_000) / usd(500), binaryAtMidBps(token(200, 2)));
  });
});

describe('exactness at large sizes', () => {
  it('1e15 qty_1e8 (1e7 contracts) loses nothing', () => {
    // 1e7 x 0.25 x 0.07 = $175,000; the intermediate product is ~1.75e35, far past 2^53.
    assert.equal(binaryTakerFeeUsd1e9(KALSHI, 1e15, px(0.5)), usd(175_000));
    const odd = 999_999_999_999_999;
    assert.equal(binaryTakerFeeUsd1e9(KALSHI, odd, 123_456_789), Number(referenceTickerUsd1e9(700n, 1n, 1n, odd, 123_456_789)));
    assert.equal(binaryTakerFeeUsd1e9(token(200, 2), odd, 123_456_789), Number(referenceTokenUsd1e9(200n, 2, odd, 123_456_789)));
  });

  it('a fee past 2^53 is refused as a number and exact as a bigint', () => {
    const curve = compileBinaryFee(token(10_000, 1));
    const q = Number.MAX_SAFE_INTEGER;
    assert.throws(() => curve.takerFeeUsd1e9(q, px(0.5)), RangeError);
    assert.equal(curve.takerFeeUsd1e9Exact(q, px(0.5)), referenceTokenUsd1e9(10_000n, 1, q, px(0.5)));
  });
});

describe('invalid inputs', () => {
  it('refuses fills and components no venue could mean', () => {
    assert.throws(() => binaryTakerFeeUsd1e9(KALSHI, -1, px(0.5)), RangeError);
    assert.throws(() => binaryTakerFeeUsd1e9(KALSHI, 1.5, px(0.5)), RangeError);
    assert.throws(() => binaryTakerFeeUsd1e9(KALSHI, 1, 1_000_000_001), RangeError);
    assert.throws(() => binaryTakerFeeUsd1e9(KALSHI, 1, -1), RangeError);
    assert.throws(() => binaryAtMidBps(ticker(1, -700)), RangeError);
    assert.throws(() => binaryAtMidBps(ticker(Number.NaN)), RangeError);
    assert.throws(() => binaryAtMidBps(ticker(1e-13)), RangeError);
    assert.throws(() => binaryAtMidBps(token(200, 0)), RangeError);
    assert.throws(() => binaryAtMidBps(token(200, 1.5)), RangeError);
    assert.throws(() => binaryAtMidBps(token(200, 17)), RangeError);
    assert.throws(() => binaryAtMidBps({ rate_bps: 700, multiplier: 1, rounding: 'floor' } as unknown as TickerFeeComponents), RangeError);
  });
});

// ---------------------------------------------------------------------------------------------
// Properties against the spec's formula, as exact rationals
// ---------------------------------------------------------------------------------------------

const P = 1_000_000_000n;

/** Exact ticker-style fee in USD as num/den (rate bps, multiplier mN/mD). */
function exactTicker(rate: bigint, mN: bigint, mD: bigint, q: number, p: number): [bigint, bigint] {
  const pb = BigInt(p);
  return [BigInt(q) * pb * (P - pb) * rate * mN, 100_000_000n * P * P * 10_000n * mD];
}

function referenceTickerUsd1e9(rate: bigint, mN: bigint, mD: bigint, q: number, p: number): bigint {
  const [num, den] = exactTicker(rate, mN, mD, q, p);
  const cents = (num * 100n + den - 1n) / den;
  return cents * 10_000_000n;
}

function referenceTokenUsd1e9(rate: bigint, e: number, q: number, p: number): bigint {
  const pb = BigInt(p);
  const num = BigInt(q) * pb * (P - pb) ** BigInt(e) * rate * P;
  const den = 100_000_000n * P ** BigInt(e + 1) * 10_000n;
  return (num + den - 1n) / den;
}

/** Multipliers as their decimal and exact fraction. */
const MULTIPLIERS: readonly [number, bigint, bigint][] = [
  [1, 1n, 1n],
  [0.5, 1n, 2n],
  [0.25, 1n, 4n],
  [0.1, 1n, 10n],
  [0.35, 7n, 20n],
  [2, 2n, 1n],
];

const qtyArb = fc.integer({ min: 0, max: 1e15 });
const priceArb = fc.oneof(fc.integer({ min: 0, max: 1_000_000_000 }), fc.constantFrom(0, 1, 10_000_000, 500_000_000, 990_000_000, 999_999_999, 1_000_000_000));
const rateArb = fc.integer({ min: 0, max: 10_000 });
const multArb = fc.constantFrom(...MULTIPLIERS);
const expArb = fc.integer({ min: 1, max: 4 });

describe('properties (fast-check)', () => {
  it('ticker-style: whole cents, at most one cent above the exact value, never below it', () => {
    fc.assert(
      fc.property(qtyArb, priceArb, rateArb, multArb, (q, p, rate, [m, mN, mD]) => {
        const fee = binaryTakerFeeUsd1e9(ticker(m, rate), q, p);
        assert.ok(fee >= 0);
        assert.equal(fee % CENT, 0);
        const [num, den] = exactTicker(BigInt(rate), mN, mD, q, p);
        const f = BigInt(fee);
        // exact (USD) = num/den; fee in 1e-9 USD: fee >= exact x 1e9 > fee - 1 cent.
        assert.ok(f * den >= num * P, 'not below the exact fee');
        assert.ok((f - BigInt(CENT)) * den < num * P, 'less than a cent above the exact fee');
      }),
      { numRuns: 2000 },
    );
  });

  it('token-style: the exact value ceiled to 1e-9 USD', () => {
    fc.assert(
      fc.property(qtyArb, priceArb, rateArb, expArb, (q, p, rate, e) => {
        const fee = binaryTakerFeeUsd1e9(token(rate, e), q, p);
        assert.ok(fee >= 0);
        assert.equal(BigInt(fee), referenceTokenUsd1e9(BigInt(rate), e, q, p));
      }),
      { numRuns: 2000 },
    );
  });

  it('bounded by qty x $1 x rate x multiplier / 1e4 (after the same rounding), and by a quarter of it', () => {
    fc.assert(
      fc.property(qtyArb, priceArb, rateArb, multArb, expArb, (q, p, rate, [m, mN, mD], e) => {
        // price x (1 - price)^e <= 1/4 for e >= 1, so the fee is within a quarter of qty x rate.
        const bound = (divisor: bigint, unit: bigint) => {
          const num = BigInt(q) * BigInt(rate) * mN * P;
          const den = 100_000_000n * 10_000n * mD * divisor * unit;
          return ((num + den - 1n) / den) * unit;
        };
        const tickerFee = BigInt(binaryTakerFeeUsd1e9(ticker(m, rate), q, p));
        assert.ok(tickerFee <= bound(1n, BigInt(CENT)));
        assert.ok(tickerFee <= bound(4n, BigInt(CENT)));
        const tokenFee = BigInt(binaryTakerFeeUsd1e9(token(rate, e), q, p));
        const tokenBound = (divisor: bigint) => {
          const num = BigInt(q) * BigInt(rate) * P;
          const den = 100_000_000n * 10_000n * divisor;
          return (num + den - 1n) / den;
        };
        assert.ok(tokenFee <= tokenBound(1n));
        assert.ok(tokenFee <= tokenBound(4n));
      }),
      { numRuns: 2000 },
    );
  });

  it('monotone in qty, and symmetric in price <-> 1 - price at exponent 1', () => {
    fc.assert(
      fc.property(qtyArb, qtyArb, priceArb, rateArb, multArb, expArb, (a, b, p, rate, [m], e) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        for (const c of [ticker(m, rate), token(rate, e)]) {
          assert.ok(binaryTakerFeeUsd1e9(c, lo, p) <= binaryTakerFeeUsd1e9(c, hi, p));
        }
        assert.equal(binaryTakerFeeUsd1e9(ticker(m, rate), a, p), binaryTakerFeeUsd1e9(ticker(m, rate), a, 1_000_000_000 - p));
        assert.equal(binaryTakerFeeUsd1e9(token(rate, 1), a, p), binaryTakerFeeUsd1e9(token(rate, 1), a, 1_000_000_000 - p));
      }),
      { numRuns: 1000 },
    );
  });

  it('the ticker-style fee equals the reference per fill for every multiplier', () => {
    fc.assert(
      fc.property(qtyArb, priceArb, rateArb, multArb, (q, p, rate, [m, mN, mD]) => {
        assert.equal(BigInt(binaryTakerFeeUsd1e9(ticker(m, rate), q, p)), referenceTickerUsd1e9(BigInt(rate), mN, mD, q, p));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('fee rows', () => {
  it('feeRowOf serves the prediction venues exactly the rows it served before fees.ts', () => {
    assert.equal(
      JSON.stringify(feeRowOf('kalshi')),
      '{"venue":"kalshi","fee_model":"binary_quadratic","components":{"rate_bps":700,"multiplier":1,"rounding":"ceil_to_cent"},' +
        '"formula":{"taker_fee_usd":"ceil(qty * price * (1 - price) * rate_bps * multiplier / 10000 * 100) / 100","maker_fee_usd":"0"},' +
        '"maker_bps":0,"taker_bps":350}',
    );
    assert.equal(
      JSON.stringify(feeRowOf('polymarket', 'prediction')),
      '{"venue":"polymarket","fee_model":"binary_quadratic","components":{"rate_bps":0,"exponent":1},' +
        '"formula":{"taker_fee_usd":"qty * price * (1 - price) ^ exponent * rate_bps / 10000","maker_fee_usd":"0"},' +
        '"maker_bps":0,"taker_bps":0}',
    );
  });

  it('the prediction edges carry the rows\' at-mid bps', () => {
    for (const v of ['kalshi', 'polymarket'] as const) {
      const edge = EDGES.find((e) => e.venue === v)!;
      assert.deepEqual([edge.maker_bps, edge.taker_bps], [feeRowOf(v)!.maker_bps, feeRowOf(v)!.taker_bps], v);
    }
  });

  it('binaryFeeRow builds a per-market row in canonical key order with fresh components', () => {
    const components = { exponent: 2, rate_bps: 200 };
    const row = binaryFeeRow('polymarket', components);
    assert.deepEqual(Object.keys(row.components), ['rate_bps', 'exponent']);
    assert.deepEqual(row.components, { rate_bps: 200, exponent: 2 });
    assert.equal(row.taker_bps, 50);
    assert.equal(row.maker_bps, 0);
    assert.notEqual(row.components, components);
    const half = binaryFeeRow('kalshi', { rounding: 'ceil_to_cent', multiplier: 0.5, rate_bps: 700 });
    assert.deepEqual(Object.keys(half.components), ['rate_bps', 'multiplier', 'rounding']);
    assert.equal(half.taker_bps, 175);
    assert.equal(half.formula.taker_fee_usd, feeRowOf('kalshi')!.formula.taker_fee_usd);
    assert.throws(() => binaryFeeRow('kalshi', ticker(1, -1)), RangeError);
  });
});
