/**
 * domain/dex/pool.ts against the on-chain pool: the pools and swaps of Uniswap v3-core's
 * test/UniswapV3Pool.swaps.spec.ts (TEST_POOLS, DEFAULT_POOL_SWAP_TESTS) with the exact balance
 * deltas and tickAfter of test/__snapshots__/UniswapV3Pool.swaps.spec.ts.snap (repository
 * Uniswap/v3-core), the snapshot's key kept as each case's name. A selection of 33 of the 240:
 * every pool, every kind of swap, the ones that cross ticks or run out of liquidity, and
 * reverts ('SPL', a price limit on the wrong side). The module was also checked against all
 * 240 when written.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_UINT128 } from '../../domain/dex/full-math.ts';
import { poolFromPositions, type Position, swap } from '../../domain/dex/pool.ts';
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO } from '../../domain/dex/tick-math.ts';
import { maxLiquidityPerTick } from '../../domain/dex/ticks.ts';
import { E18, encodePriceSqrt, maxUsableTick, minUsableTick } from '../helpers/dex.ts';

const fullRange = (spacing: number, liquidity = 2n * E18): Position => ({ tickLower: minUsableTick(spacing), tickUpper: maxUsableTick(spacing), liquidity });
const P1 = encodePriceSqrt(1n, 1n);

// TEST_POOLS: [feeAmount, tickSpacing, startingPrice, positions].
const POOLS: Record<string, [number, number, bigint, Position[]]> = {
  lowFull: [500, 10, P1, [fullRange(10)]], // 'low fee, 1:1 price, 2e18 max range liquidity'
  mediumFull: [3000, 60, P1, [fullRange(60)]],
  highFull: [10000, 200, P1, [fullRange(200)]],
  medium10to1: [3000, 60, encodePriceSqrt(10n, 1n), [fullRange(60)]],
  medium1to10: [3000, 60, encodePriceSqrt(1n, 10n), [fullRange(60)]],
  // 'medium fee, 1:1 price, 0 liquidity, all liquidity around current price'
  zeroAround: [3000, 60, P1, [{ tickLower: minUsableTick(60), tickUpper: -60, liquidity: 2n * E18 }, { tickLower: 60, tickUpper: maxUsableTick(60), liquidity: 2n * E18 }]],
  // 'medium fee, 1:1 price, additional liquidity around current price'
  additional: [3000, 60, P1, [fullRange(60), { tickLower: minUsableTick(60), tickUpper: -60, liquidity: 2n * E18 }, { tickLower: 60, tickUpper: maxUsableTick(60), liquidity: 2n * E18 }]],
  stable: [500, 10, P1, [{ tickLower: -10, tickUpper: 10, liquidity: 2n * E18 }]], // 'low fee, large liquidity around current price (stable swap)'
  token0Only: [3000, 60, P1, [{ tickLower: 0, tickUpper: 2000 * 60, liquidity: 2n * E18 }]],
  token1Only: [3000, 60, P1, [{ tickLower: -2000 * 60, tickUpper: 0, liquidity: 2n * E18 }]],
  closeToMax: [3000, 60, encodePriceSqrt(2n ** 127n, 1n), [fullRange(60)]],
  closeToMin: [3000, 60, encodePriceSqrt(1n, 2n ** 127n), [fullRange(60)]],
  maxLiquidity: [3000, 60, P1, [fullRange(60, maxLiquidityPerTick(60))]], // 'max full range liquidity at 1:1 price with default fee'
  atMaxRatio: [3000, 60, MAX_SQRT_RATIO - 1n, [fullRange(60)]],
  atMinRatio: [3000, 60, MIN_SQRT_RATIO, [fullRange(60)]],
};

// DEFAULT_POOL_SWAP_TESTS as the test harness calls pool.swap (test/shared/utilities.ts,
// contracts/test/TestUniswapV3Callee.sol): exact output as a negative amount, "to price" swaps
// with type(int256).max, no limit given as MIN_SQRT_RATIO + 1 / MAX_SQRT_RATIO - 1 (swap's default).
const MAX_INT256 = (1n << 255n) - 1n;
const CASES: Record<string, [zeroForOne: boolean, amountSpecified: bigint, limit?: bigint]> = {
  'swap exactly 1.0000 token0 for token1': [true, E18],
  'swap exactly 1.0000 token1 for token0': [false, E18],
  'swap token0 for exactly 1.0000 token1': [true, -E18],
  'swap token1 for exactly 1.0000 token0': [false, -E18],
  'swap exactly 1.0000 token0 for token1 to price 0.50000': [true, E18, encodePriceSqrt(50n, 100n)],
  'swap exactly 1.0000 token1 for token0 to price 2.0000': [false, E18, encodePriceSqrt(200n, 100n)],
  'swap exactly 0.0000000000000010000 token0 for token1': [true, 1000n],
  'swap exactly 0.0000000000000010000 token1 for token0': [false, 1000n],
  'swap token0 for exactly 0.0000000000000010000 token1': [true, -1000n],
  'swap token1 for exactly 0.0000000000000010000 token0': [false, -1000n],
  'swap token1 for token0 to price 2.5000': [false, MAX_INT256, encodePriceSqrt(5n, 2n)],
  'swap token0 for token1 to price 0.40000': [true, MAX_INT256, encodePriceSqrt(2n, 5n)],
  'swap token0 for token1 to price 2.5000': [true, MAX_INT256, encodePriceSqrt(5n, 2n)],
};

// [pool, snapshot case, amount0Delta, amount1Delta, tickAfter] or [pool, case, 'SPL'].
const VECTORS: ([string, string, string, string, number] | [string, string, 'SPL'])[] = [
  ['lowFull', 'swap token1 for exactly 1.0000 token0', '-1000000000000000000', '2001000500250125079', 13863],
  ['lowFull', 'swap exactly 1.0000 token0 for token1 to price 0.50000', '828841545518949575', '-585786437626904950', -6932],
  ['lowFull', 'swap token0 for token1 to price 2.5000', 'SPL'],
  ['mediumFull', 'swap exactly 1.0000 token0 for token1', '1000000000000000000', '-665331998665331998', -8090],
  ['mediumFull', 'swap token0 for exactly 0.0000000000000010000 token1', '1005', '-1000', -1],
  ['highFull', 'swap exactly 1.0000 token1 for token0', '-662207357859531772', '1000000000000000000', 8042],
  ['highFull', 'swap token0 for token1 to price 0.40000', '1174017838553918518', '-735088935932648267', -9164],
  ['medium10to1', 'swap token1 for exactly 1.0000 token0', '-632455532033675838', '36907032426281581270030941278837275671', 887271],
  ['medium1to10', 'swap token0 for exactly 1.0000 token1', '36907032419362389223785084665766560335', '-632455532033675838', -887272],
  ['zeroAround', 'swap exactly 1.0000 token0 for token1', '1000000000000000000', '-662011820624678025', -8130],
  ['zeroAround', 'swap token1 for exactly 1.0000 token0', '-1000000000000000000', '2024171064311638316', 13983],
  ['zeroAround', 'swap exactly 0.0000000000000010000 token0 for token1', '1000', '-991', -61],
  ['zeroAround', 'swap token1 for token0 to price 2.5000', '-729098226020826705', '1159748196632793863', 9163],
  ['additional', 'swap exactly 1.0000 token1 for token0', '-795933705287758544', '1000000000000000000', 4475],
  ['additional', 'swap token0 for exactly 1.0000 token1', '1342022152495072924', '-1000000000000000000', -5794],
  ['additional', 'swap token0 for token1 to price 0.40000', '2325523181756544449', '-1464187161953474971', -9164],
  ['stable', 'swap exactly 1.0000 token0 for token1', '1000700370186095', '-999700069986002', -887272],
  ['stable', 'swap token1 for exactly 0.0000000000000010000 token0', '-1000', '1002', 0],
  ['token0Only', 'swap exactly 1.0000 token0 for token1', '0', '0', -887272],
  ['token0Only', 'swap token1 for exactly 1.0000 token0', '-1000000000000000000', '2006018054162487463', 13863],
  ['token1Only', 'swap exactly 0.0000000000000010000 token0 for token1', '1000', '-996', -1],
  ['token1Only', 'swap exactly 1.0000 token1 for token0', '0', '0', 887271],
  ['closeToMax', 'swap exactly 0.0000000000000010000 token0 for token1', '1000', '-26083549850867114346332688477747755628', 705098],
  ['closeToMax', 'swap token1 for exactly 1.0000 token0', '0', '10740898373457544742072477595619363803', 887271],
  ['closeToMax', 'swap exactly 1.0000 token1 for token0 to price 2.0000', 'SPL'],
  ['closeToMin', 'swap exactly 0.0000000000000010000 token1 for token0', '-26033697540846965126433148994127431276', '1000', -705093],
  ['closeToMin', 'swap token0 for exactly 1.0000 token1', '10790901831095468191587263901270792610', '0', -887272],
  ['maxLiquidity', 'swap token0 for exactly 0.0000000000000010000 token1', '145660', '-1000', -1],
  ['maxLiquidity', 'swap token0 for token1 to price 0.40000', '6706554036096900675845906992672697', '-4228872409409224753601131225116702', -9164],
  ['atMaxRatio', 'swap token0 for token1 to price 2.5000', '1268717215714495281', '-36796311329002736529383126115169143088', 9163],
  ['atMaxRatio', 'swap exactly 1.0000 token1 for token0', 'SPL'],
  ['atMinRatio', 'swap token1 for exactly 1.0000 token0', '-1000000000000000000', '2', -887220],
  ['atMinRatio', 'swap exactly 1.0000 token0 for token1', 'SPL'],
];

describe('dex pool swaps: UniswapV3Pool.swaps.spec.ts snapshot', () => {
  for (const vector of VECTORS) {
    const [poolKey, caseName] = vector;
    it(`${poolKey}: ${caseName}`, () => {
      const [fee, spacing, price, positions] = POOLS[poolKey]!;
      const [zeroForOne, amount, limit] = CASES[caseName]!;
      const pool = poolFromPositions(price, fee, spacing, positions);
      if (vector[2] === 'SPL') {
        assert.throws(() => swap(pool, zeroForOne, amount, limit), RangeError);
        return;
      }
      const result = swap(pool, zeroForOne, amount, limit);
      assert.deepEqual([String(result.amount0), String(result.amount1), result.tick], [vector[2], vector[3], vector[4]]);
    });
  }

  it('the max-liquidity pool uses the per-tick cap of Tick.tickSpacingToMaxLiquidityPerTick, and one more is refused', () => {
    // test/shared/utilities.ts getMaxLiquidityPerTick: (2^128 - 1) / number of usable ticks.
    const usable = BigInt((maxUsableTick(60) - minUsableTick(60)) / 60 + 1);
    assert.equal(maxLiquidityPerTick(60), MAX_UINT128 / usable);
    assert.throws(() => poolFromPositions(P1, 3000, 60, [fullRange(60, maxLiquidityPerTick(60) + 1n)]), RangeError);
  });
});
