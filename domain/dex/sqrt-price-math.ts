/**
 * Token amounts between Q64.96 sqrt prices and the next price after an amount in or out, as
 * Uniswap v3 core's SqrtPriceMath (contracts/libraries/SqrtPriceMath.sol).
 *
 * The Solidity picks between formulas according to whether a uint256 product overflows, and the
 * fallback rounds differently; bigint never overflows, so those checks are reproduced explicitly
 * to land on the same formula, and so on the same integer, as the chain.
 */
import { assertUint, divRoundingUp, MAX_UINT160, MAX_UINT256, mulDiv, mulDivRoundingUp, Q96 } from './full-math.ts';

/** The uint160 cast of SafeCast.toUint160: a price past 160 bits is an error, not truncated. */
function toUint160(value: bigint): bigint {
  if (value > MAX_UINT160) throw new RangeError('sqrt price overflows uint160');
  return value;
}

/**
 * sqrtP after adding (removing) `amount` of token0, rounded up: exact input must move the price
 * less, exact output at least far enough, so rounding always favours the pool.
 */
function nextSqrtPriceFromAmount0RoundingUp(sqrtPX96: bigint, liquidity: bigint, amount: bigint, add: boolean): bigint {
  // Short-circuit: the formula is not guaranteed to return the input price for 0.
  if (amount === 0n) return sqrtPX96;
  const numerator1 = liquidity << 96n;
  const product = amount * sqrtPX96;
  const productFits = product <= MAX_UINT256;
  if (add) {
    if (productFits && numerator1 + product <= MAX_UINT256) {
      return mulDivRoundingUp(numerator1, sqrtPX96, numerator1 + product);
    }
    // The Solidity's fallback when the precise denominator overflows; its `.add` reverts past uint256.
    const denominator = numerator1 / sqrtPX96 + amount;
    if (denominator > MAX_UINT256) throw new RangeError('next sqrt price: amount0 overflows');
    return divRoundingUp(numerator1, denominator);
  }
  // An overflowing product means the denominator would underflow: removing more token0 than the pool has.
  if (!productFits || numerator1 <= product) throw new RangeError('next sqrt price: amount0 exceeds the virtual reserves');
  return toUint160(mulDivRoundingUp(numerator1, sqrtPX96, numerator1 - product));
}

/** sqrtP after adding (removing) `amount` of token1, rounded down (the same reasoning as token0). */
function nextSqrtPriceFromAmount1RoundingDown(sqrtPX96: bigint, liquidity: bigint, amount: bigint, add: boolean): bigint {
  // The Solidity's two branches (shift or mulDiv) compute the same floor/ceil of amount × 2^96 / L.
  if (add) return toUint160(sqrtPX96 + mulDiv(amount, Q96, liquidity));
  const quotient = mulDivRoundingUp(amount, Q96, liquidity);
  if (sqrtPX96 <= quotient) throw new RangeError('next sqrt price: amount1 exceeds the virtual reserves');
  return sqrtPX96 - quotient;
}

function assertPriceAndLiquidity(sqrtPX96: bigint, liquidity: bigint, amount: bigint): void {
  assertUint(sqrtPX96, 160, 'sqrtPX96');
  assertUint(liquidity, 128, 'liquidity');
  assertUint(amount, 256, 'amount');
  if (sqrtPX96 === 0n) throw new RangeError('sqrtPX96 must be > 0');
  if (liquidity === 0n) throw new RangeError('liquidity must be > 0');
}

/** The price after swapping `amountIn` of token0 (zeroForOne) or token1 in; rounds so as not to pass the target. */
export function getNextSqrtPriceFromInput(sqrtPX96: bigint, liquidity: bigint, amountIn: bigint, zeroForOne: boolean): bigint {
  assertPriceAndLiquidity(sqrtPX96, liquidity, amountIn);
  return zeroForOne
    ? nextSqrtPriceFromAmount0RoundingUp(sqrtPX96, liquidity, amountIn, true)
    : nextSqrtPriceFromAmount1RoundingDown(sqrtPX96, liquidity, amountIn, true);
}

/** The price after swapping `amountOut` of token1 (zeroForOne) or token0 out; rounds so as to reach the target. */
export function getNextSqrtPriceFromOutput(sqrtPX96: bigint, liquidity: bigint, amountOut: bigint, zeroForOne: boolean): bigint {
  assertPriceAndLiquidity(sqrtPX96, liquidity, amountOut);
  return zeroForOne
    ? nextSqrtPriceFromAmount1RoundingDown(sqrtPX96, liquidity, amountOut, false)
    : nextSqrtPriceFromAmount0RoundingUp(sqrtPX96, liquidity, amountOut, false);
}

/** Token0 for `liquidity` between two sqrt prices (either order): L × (√b − √a) / (√a × √b). */
export function getAmount0Delta(sqrtRatioAX96: bigint, sqrtRatioBX96: bigint, liquidity: bigint, roundUp: boolean): bigint {
  assertUint(liquidity, 128, 'liquidity');
  const [a, b] = sqrtRatioAX96 > sqrtRatioBX96 ? [sqrtRatioBX96, sqrtRatioAX96] : [sqrtRatioAX96, sqrtRatioBX96];
  assertUint(b, 160, 'sqrt ratio');
  if (a <= 0n) throw new RangeError('sqrt ratio must be > 0');
  const numerator1 = liquidity << 96n;
  const numerator2 = b - a;
  // Two divisions, each rounded the same way, exactly as the Solidity (not one exact rational).
  return roundUp
    ? divRoundingUp(mulDivRoundingUp(numerator1, numerator2, b), a)
    : mulDiv(numerator1, numerator2, b) / a;
}

/** Token1 for `liquidity` between two sqrt prices (either order): L × (√b − √a). */
export function getAmount1Delta(sqrtRatioAX96: bigint, sqrtRatioBX96: bigint, liquidity: bigint, roundUp: boolean): bigint {
  assertUint(liquidity, 128, 'liquidity');
  const [a, b] = sqrtRatioAX96 > sqrtRatioBX96 ? [sqrtRatioBX96, sqrtRatioAX96] : [sqrtRatioAX96, sqrtRatioBX96];
  assertUint(a, 160, 'sqrt ratio');
  assertUint(b, 160, 'sqrt ratio');
  return roundUp ? mulDivRoundingUp(liquidity, b - a, Q96) : mulDiv(liquidity, b - a, Q96);
}
