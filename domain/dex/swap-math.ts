/**
 * One swap step within a single liquidity range, as Uniswap v3 core's SwapMath.computeSwapStep
 * (contracts/libraries/SwapMath.sol): how far the price moves toward a target, with the amounts
 * in and out and the fee, for exact input (amountRemaining >= 0) or exact output (< 0).
 */
import { assertUint, MAX_INT256, MIN_INT256, mulDiv, mulDivRoundingUp } from './full-math.ts';
import { getAmount0Delta, getAmount1Delta, getNextSqrtPriceFromInput, getNextSqrtPriceFromOutput } from './sqrt-price-math.ts';

/** Fees are in hundredths of a bip: 1e6 is 100%. */
export const FEE_DENOMINATOR = 1_000_000n;

export interface SwapStep {
  /** The price after the step, never beyond the target. */
  sqrtPriceNext: bigint;
  /** Input used by the price move, excluding the fee. */
  amountIn: bigint;
  amountOut: bigint;
  /** Input taken as fee (on top of amountIn). */
  feeAmount: bigint;
}

export function computeSwapStep(
  sqrtPriceCurrent: bigint,
  sqrtPriceTarget: bigint,
  liquidity: bigint,
  amountRemaining: bigint,
  feePips: number,
): SwapStep {
  assertUint(sqrtPriceCurrent, 160, 'sqrtPriceCurrent');
  assertUint(sqrtPriceTarget, 160, 'sqrtPriceTarget');
  if (amountRemaining < MIN_INT256 || amountRemaining > MAX_INT256) throw new RangeError('amountRemaining must be an int256');
  // Below 1e6: at 100% the final fee formula divides by zero, as the Solidity would.
  if (!Number.isInteger(feePips) || feePips < 0 || feePips >= 1_000_000) throw new RangeError(`feePips out of range: ${feePips}`);
  const fee = BigInt(feePips);
  const zeroForOne = sqrtPriceCurrent >= sqrtPriceTarget;
  const exactIn = amountRemaining >= 0n;

  let sqrtPriceNext: bigint;
  let amountIn = 0n;
  let amountOut = 0n;
  if (exactIn) {
    const amountRemainingLessFee = mulDiv(amountRemaining, FEE_DENOMINATOR - fee, FEE_DENOMINATOR);
    amountIn = zeroForOne
      ? getAmount0Delta(sqrtPriceTarget, sqrtPriceCurrent, liquidity, true)
      : getAmount1Delta(sqrtPriceCurrent, sqrtPriceTarget, liquidity, true);
    sqrtPriceNext = amountRemainingLessFee >= amountIn
      ? sqrtPriceTarget
      : getNextSqrtPriceFromInput(sqrtPriceCurrent, liquidity, amountRemainingLessFee, zeroForOne);
  } else {
    amountOut = zeroForOne
      ? getAmount1Delta(sqrtPriceTarget, sqrtPriceCurrent, liquidity, false)
      : getAmount0Delta(sqrtPriceCurrent, sqrtPriceTarget, liquidity, false);
    sqrtPriceNext = -amountRemaining >= amountOut
      ? sqrtPriceTarget
      : getNextSqrtPriceFromOutput(sqrtPriceCurrent, liquidity, -amountRemaining, zeroForOne);
  }

  // At the target the amount computed above is reused; otherwise both sides follow the new price.
  const max = sqrtPriceTarget === sqrtPriceNext;
  if (zeroForOne) {
    if (!(max && exactIn)) amountIn = getAmount0Delta(sqrtPriceNext, sqrtPriceCurrent, liquidity, true);
    if (!(max && !exactIn)) amountOut = getAmount1Delta(sqrtPriceNext, sqrtPriceCurrent, liquidity, false);
  } else {
    if (!(max && exactIn)) amountIn = getAmount1Delta(sqrtPriceCurrent, sqrtPriceNext, liquidity, true);
    if (!(max && !exactIn)) amountOut = getAmount0Delta(sqrtPriceCurrent, sqrtPriceNext, liquidity, false);
  }

  // Rounding the price up can leave one unit more output than asked for; never pay it out.
  if (!exactIn && amountOut > -amountRemaining) amountOut = -amountRemaining;

  // Short of the target, the whole remaining input is spent: what the price move did not use is fee.
  const feeAmount = exactIn && sqrtPriceNext !== sqrtPriceTarget
    ? amountRemaining - amountIn
    : mulDivRoundingUp(amountIn, fee, FEE_DENOMINATOR - fee);
  return { sqrtPriceNext, amountIn, amountOut, feeAmount };
}
