/**
 * domain/dex/swap-math.ts against Uniswap v3-core's published vectors: every case of
 * test/SwapMath.spec.ts with its exact amounts (repository Uniswap/v3-core), then the
 * invariants of contracts/test/SwapMathEchidnaTest.sol as fast-check properties.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { MAX_UINT128 } from '../../domain/dex/full-math.ts';
import { getNextSqrtPriceFromInput, getNextSqrtPriceFromOutput } from '../../domain/dex/sqrt-price-math.ts';
import { computeSwapStep } from '../../domain/dex/swap-math.ts';
import { E18, encodePriceSqrt } from '../helpers/dex.ts';

const P1 = encodePriceSqrt(1n, 1n);

describe('dex SwapMath #computeSwapStep (test/SwapMath.spec.ts)', () => {
  it('exact amount in that gets capped at price target in one for zero', () => {
    const target = encodePriceSqrt(101n, 100n);
    const step = computeSwapStep(P1, target, 2n * E18, E18, 600);
    assert.equal(step.amountIn, 9975124224178055n);
    assert.equal(step.feeAmount, 5988667735148n);
    assert.equal(step.amountOut, 9925619580021728n);
    assert.ok(step.amountIn + step.feeAmount < E18, 'entire amount is not used');
    assert.equal(step.sqrtPriceNext, target, 'price is capped at price target');
    assert.ok(step.sqrtPriceNext < getNextSqrtPriceFromInput(P1, 2n * E18, E18, false));
  });

  it('exact amount out that gets capped at price target in one for zero', () => {
    const target = encodePriceSqrt(101n, 100n);
    const step = computeSwapStep(P1, target, 2n * E18, -E18, 600);
    assert.equal(step.amountIn, 9975124224178055n);
    assert.equal(step.feeAmount, 5988667735148n);
    assert.equal(step.amountOut, 9925619580021728n);
    assert.ok(step.amountOut < E18, 'entire amount out is not returned');
    assert.equal(step.sqrtPriceNext, target);
    assert.ok(step.sqrtPriceNext < getNextSqrtPriceFromOutput(P1, 2n * E18, E18, false));
  });

  it('exact amount in that is fully spent in one for zero', () => {
    const target = encodePriceSqrt(1000n, 100n);
    const step = computeSwapStep(P1, target, 2n * E18, E18, 600);
    assert.equal(step.amountIn, 999400000000000000n);
    assert.equal(step.feeAmount, 600000000000000n);
    assert.equal(step.amountOut, 666399946655997866n);
    assert.equal(step.amountIn + step.feeAmount, E18, 'entire amount is used');
    assert.ok(step.sqrtPriceNext < target);
    assert.equal(step.sqrtPriceNext, getNextSqrtPriceFromInput(P1, 2n * E18, E18 - step.feeAmount, false));
  });

  it('exact amount out that is fully received in one for zero', () => {
    const target = encodePriceSqrt(10000n, 100n);
    const step = computeSwapStep(P1, target, 2n * E18, -E18, 600);
    assert.equal(step.amountIn, 2000000000000000000n);
    assert.equal(step.feeAmount, 1200720432259356n);
    assert.equal(step.amountOut, E18);
    assert.ok(step.sqrtPriceNext < target);
    assert.equal(step.sqrtPriceNext, getNextSqrtPriceFromOutput(P1, 2n * E18, E18, false));
  });

  it('amount out is capped at the desired amount out', () => {
    const step = computeSwapStep(417332158212080721273783715441582n, 1452870262520218020823638996n, 159344665391607089467575320103n, -1n, 1);
    assert.equal(step.amountIn, 1n);
    assert.equal(step.feeAmount, 1n);
    assert.equal(step.amountOut, 1n, 'would be 2 if not capped');
    assert.equal(step.sqrtPriceNext, 417332158212080721273783715441581n);
  });

  it('target price of 1 uses partial input amount', () => {
    const step = computeSwapStep(2n, 1n, 1n, 3915081100057732413702495386755767n, 1);
    assert.equal(step.amountIn, 39614081257132168796771975168n);
    assert.equal(step.feeAmount, 39614120871253040049813n);
    assert.ok(step.amountIn + step.feeAmount <= 3915081100057732413702495386755767n);
    assert.equal(step.amountOut, 0n);
    assert.equal(step.sqrtPriceNext, 1n);
  });

  it('entire input amount taken as fee', () => {
    const step = computeSwapStep(2413n, 79887613182836312n, 1985041575832132834610021537970n, 10n, 1872);
    assert.deepEqual(step, { sqrtPriceNext: 2413n, amountIn: 0n, amountOut: 0n, feeAmount: 10n });
  });

  it('handles intermediate insufficient liquidity in zero for one exact output case', () => {
    const sqrtP = 20282409603651670423947251286016n;
    const target = (sqrtP * 11n) / 10n;
    const step = computeSwapStep(sqrtP, target, 1024n, -4n, 3000);
    assert.deepEqual(step, { sqrtPriceNext: target, amountIn: 26215n, amountOut: 0n, feeAmount: 79n });
  });

  it('handles intermediate insufficient liquidity in one for zero exact output case', () => {
    const sqrtP = 20282409603651670423947251286016n;
    const target = (sqrtP * 9n) / 10n;
    const step = computeSwapStep(sqrtP, target, 1024n, -263000n, 3000);
    assert.deepEqual(step, { sqrtPriceNext: target, amountIn: 1n, amountOut: 26214n, feeAmount: 1n });
  });

  it('rejects a fee of 100% or more and a non-integer fee', () => {
    assert.throws(() => computeSwapStep(P1, encodePriceSqrt(2n, 1n), E18, E18, 1_000_000), RangeError);
    assert.throws(() => computeSwapStep(P1, encodePriceSqrt(2n, 1n), E18, E18, 0.5), RangeError);
  });
});

describe('dex SwapMath invariants (contracts/test/SwapMathEchidnaTest.sol)', () => {
  const sqrtPrice = fc.oneof(fc.bigInt({ min: 1n, max: (1n << 160n) - 1n }), fc.bigInt({ min: 1n << 80n, max: 1n << 112n }));
  const amountRemaining = fc.oneof(fc.bigInt({ min: -(1n << 128n), max: 1n << 128n }), fc.bigInt({ min: -(1n << 255n), max: (1n << 255n) - 1n }));

  it('never spends more than the remaining input nor pays more than the remaining output; stays between price and target', () => {
    fc.assert(
      fc.property(sqrtPrice, sqrtPrice, fc.bigInt({ min: 0n, max: MAX_UINT128 }), amountRemaining, fc.integer({ min: 1, max: 999_999 }), (price, target, liquidity, remaining, fee) => {
        let step: ReturnType<typeof computeSwapStep>;
        try {
          step = computeSwapStep(price, target, liquidity, remaining, fee);
        } catch {
          return; // where the Solidity reverts as well (an impossible next price)
        }
        const { sqrtPriceNext, amountIn, amountOut, feeAmount } = step;
        if (remaining < 0n) assert.ok(amountOut <= -remaining);
        else assert.ok(amountIn + feeAmount <= remaining);
        if (price === target) assert.deepEqual(step, { sqrtPriceNext: target, amountIn: 0n, amountOut: 0n, feeAmount: 0n });
        if (sqrtPriceNext !== target) {
          // Short of the target, the entire amount must be consumed.
          if (remaining < 0n) assert.equal(amountOut, -remaining);
          else assert.equal(amountIn + feeAmount, remaining);
        }
        if (target <= price) assert.ok(target <= sqrtPriceNext && sqrtPriceNext <= price);
        else assert.ok(price <= sqrtPriceNext && sqrtPriceNext <= target);
      }),
      { numRuns: 1000 },
    );
  });
});
