/**
 * domain/dex/full-math.ts and sqrt-price-math.ts against Uniswap v3-core's published vectors
 * (repository Uniswap/v3-core): every value-checking case of test/FullMath.spec.ts and
 * test/SqrtPriceMath.spec.ts, reverts as RangeError. Then fast-check ports of the invariants
 * of contracts/test/SqrtPriceMathEchidnaTest.sol (rounding direction, symmetry, the chained
 * division of getAmount0Delta equal to the single full-precision one).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { MAX_UINT128, MAX_UINT256, mulDiv, mulDivRoundingUp } from '../../domain/dex/full-math.ts';
import {
  getAmount0Delta,
  getAmount1Delta,
  getNextSqrtPriceFromInput,
  getNextSqrtPriceFromOutput,
} from '../../domain/dex/sqrt-price-math.ts';
import { E18, encodePriceSqrt } from '../helpers/dex.ts';

const Q128 = 1n << 128n;
const P1 = encodePriceSqrt(1n, 1n);

describe('dex FullMath (test/FullMath.spec.ts)', () => {
  it('mulDiv reverts on a zero denominator or a result past uint256', () => {
    assert.throws(() => mulDiv(Q128, 5n, 0n), RangeError);
    assert.throws(() => mulDiv(Q128, Q128, 0n), RangeError);
    assert.throws(() => mulDiv(Q128, Q128, 1n), RangeError);
    assert.throws(() => mulDiv(MAX_UINT256, MAX_UINT256, MAX_UINT256 - 1n), RangeError);
  });

  it('mulDiv: all max inputs, with and without phantom overflow', () => {
    assert.equal(mulDiv(MAX_UINT256, MAX_UINT256, MAX_UINT256), MAX_UINT256);
    assert.equal(mulDiv(Q128, (50n * Q128) / 100n, (150n * Q128) / 100n), Q128 / 3n);
    assert.equal(mulDiv(Q128, 35n * Q128, 8n * Q128), (4375n * Q128) / 1000n);
    assert.equal(mulDiv(Q128, 1000n * Q128, 3000n * Q128), Q128 / 3n);
  });

  it('mulDivRoundingUp reverts likewise, and when rounding up passes uint256', () => {
    assert.throws(() => mulDivRoundingUp(Q128, 5n, 0n), RangeError);
    assert.throws(() => mulDivRoundingUp(Q128, Q128, 0n), RangeError);
    assert.throws(() => mulDivRoundingUp(Q128, Q128, 1n), RangeError);
    assert.throws(() => mulDivRoundingUp(MAX_UINT256, MAX_UINT256, MAX_UINT256 - 1n), RangeError);
    assert.throws(() => mulDivRoundingUp(535006138814359n, 432862656469423142931042426214547535783388063929571229938474969n, 2n), RangeError);
    assert.throws(
      () =>
        mulDivRoundingUp(
          115792089237316195423570985008687907853269984659341747863450311749907997002549n,
          115792089237316195423570985008687907853269984659341747863450311749907997002550n,
          115792089237316195423570985008687907853269984653042931687443039491902864365164n,
        ),
      RangeError,
    );
  });

  it('mulDivRoundingUp: all max inputs, with and without phantom overflow', () => {
    assert.equal(mulDivRoundingUp(MAX_UINT256, MAX_UINT256, MAX_UINT256), MAX_UINT256);
    assert.equal(mulDivRoundingUp(Q128, (50n * Q128) / 100n, (150n * Q128) / 100n), Q128 / 3n + 1n);
    assert.equal(mulDivRoundingUp(Q128, 35n * Q128, 8n * Q128), (4375n * Q128) / 1000n);
    assert.equal(mulDivRoundingUp(Q128, 1000n * Q128, 3000n * Q128), Q128 / 3n + 1n);
  });

  it('rounding up differs by exactly the remainder (SqrtPriceMathEchidnaTest.mulDivRoundingUpInvariants)', () => {
    const uint256 = fc.bigInt({ min: 0n, max: MAX_UINT256 });
    fc.assert(
      fc.property(uint256, uint256, fc.bigInt({ min: 1n, max: MAX_UINT256 }), (x, y, z) => {
        let down: bigint;
        try {
          down = mulDiv(x, y, z);
        } catch {
          return; // the Solidity reverts too
        }
        let up: bigint;
        try {
          up = mulDivRoundingUp(x, y, z);
        } catch {
          assert.equal(down, MAX_UINT256);
          return;
        }
        assert.equal(up - down, (x * y) % z === 0n ? 0n : 1n);
      }),
    );
  });
});

describe('dex SqrtPriceMath #getNextSqrtPriceFromInput (test/SqrtPriceMath.spec.ts)', () => {
  it('fails if price or liquidity is zero, or the input overflows the price', () => {
    assert.throws(() => getNextSqrtPriceFromInput(0n, 0n, E18 / 10n, false), RangeError);
    assert.throws(() => getNextSqrtPriceFromInput(1n, 0n, E18 / 10n, true), RangeError);
    assert.throws(() => getNextSqrtPriceFromInput((1n << 160n) - 1n, 1024n, 1024n, false), RangeError);
  });

  it('any input amount cannot underflow the price', () => {
    assert.equal(getNextSqrtPriceFromInput(1n, 1n, 1n << 255n, true), 1n);
  });

  it('returns the input price if the amount in is zero', () => {
    assert.equal(getNextSqrtPriceFromInput(P1, E18 / 10n, 0n, true), P1);
    assert.equal(getNextSqrtPriceFromInput(P1, E18 / 10n, 0n, false), P1);
  });

  it('returns the minimum price for max inputs (the overflow fallback formula)', () => {
    const sqrtP = (1n << 160n) - 1n;
    const maxAmountNoOverflow = MAX_UINT256 - (MAX_UINT128 << 96n) / sqrtP;
    assert.equal(getNextSqrtPriceFromInput(sqrtP, MAX_UINT128, maxAmountNoOverflow, true), 1n);
  });

  it('input amount of 0.1 token1 and of 0.1 token0', () => {
    assert.equal(getNextSqrtPriceFromInput(P1, E18, E18 / 10n, false), 87150978765690771352898345369n);
    assert.equal(getNextSqrtPriceFromInput(P1, E18, E18 / 10n, true), 72025602285694852357767227579n);
  });

  it('amountIn > type(uint96).max and zeroForOne = true', () => {
    assert.equal(getNextSqrtPriceFromInput(P1, 10n * E18, 2n ** 100n, true), 624999999995069620n);
  });

  it('can return 1 with enough amountIn and zeroForOne = true', () => {
    assert.equal(getNextSqrtPriceFromInput(P1, 1n, MAX_UINT256 / 2n, true), 1n);
  });
});

describe('dex SqrtPriceMath #getNextSqrtPriceFromOutput (test/SqrtPriceMath.spec.ts)', () => {
  const price = 20282409603651670423947251286016n;

  it('fails if price or liquidity is zero', () => {
    assert.throws(() => getNextSqrtPriceFromOutput(0n, 0n, E18 / 10n, false), RangeError);
    assert.throws(() => getNextSqrtPriceFromOutput(1n, 0n, E18 / 10n, true), RangeError);
  });

  it('fails if the output is at or past the virtual reserves of token0 (4) or token1 (262144)', () => {
    assert.throws(() => getNextSqrtPriceFromOutput(price, 1024n, 4n, false), RangeError);
    assert.throws(() => getNextSqrtPriceFromOutput(price, 1024n, 5n, false), RangeError);
    assert.throws(() => getNextSqrtPriceFromOutput(price, 1024n, 262145n, true), RangeError);
    assert.throws(() => getNextSqrtPriceFromOutput(price, 1024n, 262144n, true), RangeError);
  });

  it('succeeds if output amount is just less than the virtual reserves of token1', () => {
    assert.equal(getNextSqrtPriceFromOutput(price, 1024n, 262143n, true), 77371252455336267181195264n);
  });

  it('returns the input price if the amount is zero', () => {
    assert.equal(getNextSqrtPriceFromOutput(P1, E18 / 10n, 0n, true), P1);
    assert.equal(getNextSqrtPriceFromOutput(P1, E18 / 10n, 0n, false), P1);
  });

  it('output amount of 0.1 token1 and of 0.1 token0', () => {
    assert.equal(getNextSqrtPriceFromOutput(P1, E18, E18 / 10n, false), 88031291682515930659493278152n);
    assert.equal(getNextSqrtPriceFromOutput(P1, E18, E18 / 10n, true), 71305346262837903834189555302n);
  });

  it('reverts if amountOut is impossible in either direction', () => {
    assert.throws(() => getNextSqrtPriceFromOutput(P1, 1n, MAX_UINT256, true), RangeError);
    assert.throws(() => getNextSqrtPriceFromOutput(P1, 1n, MAX_UINT256, false), RangeError);
  });
});

describe('dex SqrtPriceMath #getAmount0Delta / #getAmount1Delta (test/SqrtPriceMath.spec.ts)', () => {
  it('return 0 if liquidity is 0 or the prices are equal', () => {
    assert.equal(getAmount0Delta(P1, encodePriceSqrt(2n, 1n), 0n, true), 0n);
    assert.equal(getAmount0Delta(P1, P1, 0n, true), 0n);
    assert.equal(getAmount1Delta(P1, encodePriceSqrt(2n, 1n), 0n, true), 0n);
    assert.equal(getAmount1Delta(P1, P1, 0n, true), 0n);
  });

  it('amount0 for price 1 to 1.21: 0.0909.. rounded up, one less rounded down', () => {
    assert.equal(getAmount0Delta(P1, encodePriceSqrt(121n, 100n), E18, true), 90909090909090910n);
    assert.equal(getAmount0Delta(P1, encodePriceSqrt(121n, 100n), E18, false), 90909090909090909n);
  });

  it('amount0 works for prices that overflow (up = down + 1)', () => {
    const a = encodePriceSqrt(2n ** 90n, 1n);
    const b = encodePriceSqrt(2n ** 96n, 1n);
    assert.equal(getAmount0Delta(a, b, E18, true), getAmount0Delta(a, b, E18, false) + 1n);
  });

  it('amount1 for price 1 to 1.21: 0.1 rounded up, one less rounded down', () => {
    assert.equal(getAmount1Delta(P1, encodePriceSqrt(121n, 100n), E18, true), 100000000000000000n);
    assert.equal(getAmount1Delta(P1, encodePriceSqrt(121n, 100n), E18, false), 99999999999999999n);
  });

  it('swap computation: sqrtP * sqrtQ overflows', () => {
    const sqrtP = 1025574284609383690408304870162715216695788925244n;
    const liquidity = 50015962439936049619261659728067971248n;
    const sqrtQ = getNextSqrtPriceFromInput(sqrtP, liquidity, 406n, true);
    assert.equal(sqrtQ, 1025574284609383582644711336373707553698163132913n);
    assert.equal(getAmount0Delta(sqrtQ, sqrtP, liquidity, true), 406n);
  });
});

describe('dex SqrtPriceMath invariants (contracts/test/SqrtPriceMathEchidnaTest.sol)', () => {
  const sqrtPrice = fc.bigInt({ min: 1n, max: (1n << 160n) - 1n });
  const liquidity = fc.bigInt({ min: 1n, max: MAX_UINT128 });
  const amount = fc.oneof(fc.bigInt({ min: 0n, max: 1n << 128n }), fc.bigInt({ min: 0n, max: MAX_UINT256 }));

  it('the next price from an input moves the right way and never needs more than the input', () => {
    fc.assert(
      fc.property(sqrtPrice, liquidity, amount, fc.boolean(), (sqrtP, l, amountIn, zeroForOne) => {
        let sqrtQ: bigint;
        try {
          sqrtQ = getNextSqrtPriceFromInput(sqrtP, l, amountIn, zeroForOne);
        } catch {
          return;
        }
        if (zeroForOne) {
          assert.ok(sqrtQ <= sqrtP);
          assert.ok(amountIn >= getAmount0Delta(sqrtQ, sqrtP, l, true));
        } else {
          assert.ok(sqrtQ >= sqrtP);
          assert.ok(amountIn >= getAmount1Delta(sqrtP, sqrtQ, l, true));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('the next price from an output moves the right way and yields at least the output', () => {
    fc.assert(
      fc.property(sqrtPrice, liquidity, amount, fc.boolean(), (sqrtP, l, amountOut, zeroForOne) => {
        let sqrtQ: bigint;
        try {
          sqrtQ = getNextSqrtPriceFromOutput(sqrtP, l, amountOut, zeroForOne);
        } catch {
          return;
        }
        if (zeroForOne) {
          assert.ok(sqrtQ <= sqrtP);
          assert.ok(amountOut <= getAmount1Delta(sqrtQ, sqrtP, l, false));
        } else {
          assert.ok(sqrtQ > 0n && sqrtQ >= sqrtP);
          assert.ok(amountOut <= getAmount0Delta(sqrtP, sqrtQ, l, false));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('amount deltas are symmetric in the prices and round up by at most 1', () => {
    fc.assert(
      fc.property(sqrtPrice, sqrtPrice, fc.bigInt({ min: 0n, max: MAX_UINT128 }), (p, q, l) => {
        for (const delta of [getAmount0Delta, getAmount1Delta]) {
          const down = delta(p, q, l, false);
          const up = delta(p, q, l, true);
          assert.equal(down, delta(q, p, l, false));
          assert.equal(up, delta(q, p, l, true));
          assert.ok(up - down === 0n || up - down === 1n);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('getAmount0Delta\'s chained division equals the full-precision L(√P − √Q) / (√P √Q)', () => {
    fc.assert(
      fc.property(sqrtPrice, sqrtPrice, fc.bigInt({ min: 0n, max: MAX_UINT128 }), fc.boolean(), (a, b, l, roundUp) => {
        const [q, p] = a <= b ? [a, b] : [b, a];
        if (p * q > MAX_UINT256) return; // the Echidna test's precondition
        const numerator = (l << 96n) * (p - q);
        const denominator = p * q;
        const exact = numerator / denominator + (roundUp && numerator % denominator !== 0n ? 1n : 0n);
        assert.equal(getAmount0Delta(q, p, l, roundUp), exact);
      }),
      { numRuns: 500 },
    );
  });
});
