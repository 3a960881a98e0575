/**
 * Inputs as Uniswap v3-core's tests write them (test/shared/utilities.ts), for the domain/dex
 * tests that copy its published vectors. encodePriceSqrt there is bignumber.js with
 * DECIMAL_PLACES 40: reserve1 / reserve0 and its square root each rounded half-up to 40
 * decimals, times 2^96, floored. Some vectors (1:2^127, 1:10) depend on those roundings, so
 * they are reproduced in exact integers rather than taken as floor(sqrt(r1 / r0) × 2^96).
 */

export const E18 = 10n ** 18n;

const SCALE = 10n ** 40n;

function isqrt(x: bigint): bigint {
  if (x < 2n) return x;
  let r = x;
  let y = (r + 1n) / 2n;
  while (y < r) {
    r = y;
    y = (r + x / r) / 2n;
  }
  return r;
}

function divRoundHalfUp(n: bigint, d: bigint): bigint {
  return 2n * (n % d) >= d ? n / d + 1n : n / d;
}

export function encodePriceSqrt(reserve1: bigint, reserve0: bigint): bigint {
  const ratio = divRoundHalfUp(reserve1 * SCALE, reserve0); // ratio × 10^40
  const x = ratio * SCALE; // (sqrt(ratio) × 10^40)^2
  const floor = isqrt(x);
  const sqrt = x - floor * floor > floor ? floor + 1n : floor; // half-up: x >= (floor + 1/2)^2
  return (sqrt << 96n) / SCALE;
}

/** getMinTick / getMaxTick of the tests: the extreme usable ticks for a spacing. */
export const minUsableTick = (tickSpacing: number): number => Math.ceil(-887272 / tickSpacing) * tickSpacing;
export const maxUsableTick = (tickSpacing: number): number => Math.floor(887272 / tickSpacing) * tickSpacing;
