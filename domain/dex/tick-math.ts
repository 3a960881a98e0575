/**
 * Ticks and Q64.96 sqrt prices, as Uniswap v3 core's TickMath (contracts/libraries/TickMath.sol):
 * sqrtPriceX96 = sqrt(1.0001^tick) × 2^96, rounded up.
 *
 * Both directions reproduce the Solidity bit for bit: the magic constants are sqrt(1.0001^-2^i)
 * in Q128.128, and the reverse uses the same log2 approximation and the same error bounds, so a
 * tick computed here is the tick the chain would compute for the same price.
 */

export const MIN_TICK = -887272;
export const MAX_TICK = 887272;
export const MIN_SQRT_RATIO = 4295128739n;
export const MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342n;

const MAX_UINT256 = (1n << 256n) - 1n;

/** Factor for bit i of |tick|: sqrt(1.0001^-(2^i)) in Q128.128 (bit 0 is the starting ratio). */
const BIT_FACTORS: readonly bigint[] = [
  0xfffcb933bd6fad37aa2d162d1a594001n,
  0xfff97272373d413259a46990580e213an,
  0xfff2e50f5f656932ef12357cf3c7fdccn,
  0xffe5caca7e10e4e61c3624eaa0941cd0n,
  0xffcb9843d60f6159c9db58835c926644n,
  0xff973b41fa98c081472e6896dfb254c0n,
  0xff2ea16466c96a3843ec78b326b52861n,
  0xfe5dee046a99a2a811c461f1969c3053n,
  0xfcbe86c7900a88aedcffc83b479aa3a4n,
  0xf987a7253ac413176f2b074cf7815e54n,
  0xf3392b0822b70005940c7a398e4b70f3n,
  0xe7159475a2c29b7443b29c7fa6e889d9n,
  0xd097f3bdfd2022b8845ad8f792aa5825n,
  0xa9f746462d870fdf8a65dc1f90e061e5n,
  0x70d869a156d2a1b890bb3df62baf32f7n,
  0x31be135f97d08fd981231505542fcfa6n,
  0x9aa508b5b7a84e1c677de54f3e99bc9n,
  0x5d6af8dedb81196699c329225ee604n,
  0x2216e584f5fa1ea926041bedfe98n,
  0x48a170391f7dc42444e8fa2n,
];

/** sqrt(1.0001^tick) × 2^96, rounded up; throws RangeError if |tick| > MAX_TICK. */
export function getSqrtRatioAtTick(tick: number): bigint {
  if (!Number.isInteger(tick) || tick < MIN_TICK || tick > MAX_TICK) throw new RangeError(`tick out of range: ${tick}`);
  const absTick = Math.abs(tick);
  let ratio = (absTick & 1) !== 0 ? BIT_FACTORS[0]! : 1n << 128n;
  for (let bit = 1; bit < BIT_FACTORS.length; bit++) {
    if ((absTick & (1 << bit)) !== 0) ratio = (ratio * BIT_FACTORS[bit]!) >> 128n;
  }
  if (tick > 0) ratio = MAX_UINT256 / ratio;
  // Rounding up (not down) from Q128.128 keeps getTickAtSqrtRatio(getSqrtRatioAtTick(t)) === t.
  return (ratio >> 32n) + ((ratio & 0xffffffffn) === 0n ? 0n : 1n);
}

/** 1 / log2(sqrt(1.0001)) in Q64.64: turns a Q64.64 log2 into a Q128.128 log base sqrt(1.0001). */
const LOG_SQRT10001_OF_2 = 255738958999603826347141n;
/** The error bounds of the log2 approximation, so the true tick is tickLow or tickHi. */
const TICK_LOW_OFFSET = 3402992956809132418596140100660247210n;
const TICK_HI_OFFSET = 291339464771989622907027621153398088495n;

/**
 * The greatest tick whose sqrt ratio is <= sqrtPriceX96. Throws RangeError outside
 * [MIN_SQRT_RATIO, MAX_SQRT_RATIO): the price can never reach the max tick's ratio.
 */
export function getTickAtSqrtRatio(sqrtPriceX96: bigint): number {
  if (sqrtPriceX96 < MIN_SQRT_RATIO || sqrtPriceX96 >= MAX_SQRT_RATIO) {
    throw new RangeError(`sqrtPriceX96 out of range: ${sqrtPriceX96}`);
  }
  const ratio = sqrtPriceX96 << 32n; // Q128.128
  const msb = BigInt(ratio.toString(2).length - 1);
  // Normalise to [2^127, 2^128) so each squaring exposes one more fractional bit of log2.
  let r = msb >= 128n ? ratio >> (msb - 127n) : ratio << (127n - msb);
  let log2 = (msb - 128n) << 64n; // Q64.64, may be negative; bigint `|` is two's complement like int256
  for (let bit = 63n; bit >= 50n; bit--) {
    r = (r * r) >> 127n;
    const f = r >> 128n;
    log2 |= f << bit;
    r >>= f;
  }
  const logSqrt10001 = log2 * LOG_SQRT10001_OF_2; // Q128.128
  // bigint >> floors like the EVM's arithmetic shift of an int256.
  const tickLow = Number((logSqrt10001 - TICK_LOW_OFFSET) >> 128n);
  const tickHi = Number((logSqrt10001 + TICK_HI_OFFSET) >> 128n);
  if (tickLow === tickHi) return tickLow;
  return getSqrtRatioAtTick(tickHi) <= sqrtPriceX96 ? tickHi : tickLow;
}
