/**
 * A simulated concentrated-liquidity pool: its state, the swap loop of Uniswap v3 core's
 * UniswapV3Pool.swap (contracts/UniswapV3Pool.sol), building a pool from positions (as mint
 * would), and an exact-input quote.
 *
 * Only what moves prices and amounts is modelled: no oracle, no fee growth per position, no
 * protocol fee (feeProtocol 0, the chain's default). `swap` is pure; `applySwap` writes its
 * result back into a pool for a simulator that keeps one mutable state.
 */
import { MAX_INT256, MAX_UINT128, MIN_INT256 } from './full-math.ts';
import { computeSwapStep } from './swap-math.ts';
import { getSqrtRatioAtTick, getTickAtSqrtRatio, MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK } from './tick-math.ts';
import { findTick, type InitializedTick, nextInitializedTickWithinOneWord, type Position, ticksFromPositions } from './ticks.ts';

export type { InitializedTick, Position } from './ticks.ts';

export interface PoolState {
  /** sqrt(token1 / token0) in Q64.96, a ratio of smallest units (not adjusted for decimals). */
  sqrtPriceX96: bigint;
  /** The greatest tick whose sqrt ratio is <= sqrtPriceX96 (one less after a downward cross onto a tick). */
  tick: number;
  /** Active liquidity: the sum over positions whose range holds `tick`. */
  liquidity: bigint;
  /** Hundredths of a bip: 3000 is 0.30%. */
  feePips: number;
  tickSpacing: number;
  /** Sorted by index, each a multiple of tickSpacing; a swap never changes them. */
  ticks: readonly InitializedTick[];
}

export interface SwapResult {
  /** The pool's token0 delta: positive is paid in, negative paid out (as the chain's int256 amount0). */
  amount0: bigint;
  amount1: bigint;
  sqrtPriceX96: bigint;
  tick: number;
  liquidity: bigint;
  /** Total fee taken from the input, in the input token's units (included in amount0 or amount1). */
  feeAmount: bigint;
  /** Initialized ticks crossed (word edges the walk stopped at are not counted). */
  ticksCrossed: number;
}

function addDelta(liquidity: bigint, delta: bigint): bigint {
  const next = liquidity + delta;
  if (next < 0n || next > MAX_UINT128) throw new RangeError(`liquidity out of range after crossing: ${next}`);
  return next;
}

/**
 * Swaps against the pool without changing it. amountSpecified > 0 is exact input of the token
 * going in, < 0 exact output of the token coming out. The default price limit is the extreme
 * the chain allows, so a swap past all liquidity stops there with part of the amount unused.
 * Throws RangeError where the pool reverts: a zero amount ('AS') or a limit on the wrong side
 * of the current price or beyond the bounds ('SPL').
 */
export function swap(pool: PoolState, zeroForOne: boolean, amountSpecified: bigint, sqrtPriceLimitX96?: bigint): SwapResult {
  if (amountSpecified === 0n) throw new RangeError('swap: amountSpecified is 0');
  if (amountSpecified < MIN_INT256 || amountSpecified > MAX_INT256) throw new RangeError('swap: amountSpecified must be an int256');
  const limit = sqrtPriceLimitX96 ?? (zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n);
  const limitOk = zeroForOne
    ? limit < pool.sqrtPriceX96 && limit > MIN_SQRT_RATIO
    : limit > pool.sqrtPriceX96 && limit < MAX_SQRT_RATIO;
  if (!limitOk) throw new RangeError(`swap: price limit ${limit} is not ${zeroForOne ? 'below' : 'above'} the price ${pool.sqrtPriceX96} within the bounds`);

  const exactInput = amountSpecified > 0n;
  let remaining = amountSpecified;
  let calculated = 0n;
  let sqrtPriceX96 = pool.sqrtPriceX96;
  let tick = pool.tick;
  let liquidity = pool.liquidity;
  let feeAmount = 0n;
  let ticksCrossed = 0;

  while (remaining !== 0n && sqrtPriceX96 !== limit) {
    const sqrtPriceStart = sqrtPriceX96;
    const found = nextInitializedTickWithinOneWord(pool.ticks, tick, pool.tickSpacing, zeroForOne);
    // The bitmap knows nothing of the tick bounds.
    const tickNext = Math.min(Math.max(found.next, MIN_TICK), MAX_TICK);
    const sqrtPriceNext = getSqrtRatioAtTick(tickNext);
    const target = (zeroForOne ? sqrtPriceNext < limit : sqrtPriceNext > limit) ? limit : sqrtPriceNext;
    const step = computeSwapStep(sqrtPriceX96, target, liquidity, remaining, pool.feePips);
    sqrtPriceX96 = step.sqrtPriceNext;
    if (exactInput) {
      remaining -= step.amountIn + step.feeAmount;
      calculated -= step.amountOut;
    } else {
      remaining += step.amountOut;
      calculated += step.amountIn + step.feeAmount;
    }
    feeAmount += step.feeAmount;

    if (sqrtPriceX96 === sqrtPriceNext) {
      if (found.initialized) {
        const net = findTick(pool.ticks, tickNext)?.liquidityNet ?? 0n;
        // liquidityNet is written for an upward cross; moving down undoes it.
        liquidity = addDelta(liquidity, zeroForOne ? -net : net);
        ticksCrossed++;
      }
      // Just below the tick when moving down: its liquidity is no longer active.
      tick = zeroForOne ? tickNext - 1 : tickNext;
    } else if (sqrtPriceX96 !== sqrtPriceStart) {
      // Unless the price has not moved (e.g. sitting on a lower tick boundary already crossed).
      tick = getTickAtSqrtRatio(sqrtPriceX96);
    }
  }

  const specifiedUsed = amountSpecified - remaining;
  const [amount0, amount1] = zeroForOne === exactInput ? [specifiedUsed, calculated] : [calculated, specifiedUsed];
  return { amount0, amount1, sqrtPriceX96, tick, liquidity, feeAmount, ticksCrossed };
}

/** Writes a swap's resulting price, tick and liquidity into `pool` (the one mutating call here). */
export function applySwap(pool: PoolState, result: SwapResult): void {
  pool.sqrtPriceX96 = result.sqrtPriceX96;
  pool.tick = result.tick;
  pool.liquidity = result.liquidity;
}

/**
 * A pool at `sqrtPriceX96` holding `positions`, as initialize then mint would leave it: the
 * initialized ticks with their liquidityNet, and the active liquidity of the positions with
 * tickLower <= tick < tickUpper.
 */
export function poolFromPositions(sqrtPriceX96: bigint, feePips: number, tickSpacing: number, positions: readonly Position[]): PoolState {
  if (!Number.isInteger(feePips) || feePips < 0 || feePips >= 1_000_000) throw new RangeError(`feePips out of range: ${feePips}`);
  const tick = getTickAtSqrtRatio(sqrtPriceX96);
  const ticks = ticksFromPositions(positions, tickSpacing);
  let liquidity = 0n;
  for (const p of positions) if (p.tickLower <= tick && tick < p.tickUpper) liquidity += p.liquidity;
  return { sqrtPriceX96, tick, liquidity, feePips, tickSpacing, ticks };
}

export interface Quote {
  /** Input actually consumed, fee included: less than asked if the pool ran out of liquidity. */
  amountIn: bigint;
  amountOut: bigint;
  /** amountIn === the amount asked for. */
  filled: boolean;
  /** Average execution price as token1 per token0 in smallest units (not decimals-adjusted); null if no token0 moved. */
  averagePrice: number | null;
  /** The pool's sqrt price after the swap. */
  sqrtPriceX96After: bigint;
}

/** What selling `amountIn` of token0 (zeroForOne) or token1 would return now, without changing the pool. */
export function quoteExactInput(pool: PoolState, zeroForOne: boolean, amountIn: bigint): Quote {
  if (amountIn <= 0n) throw new RangeError('quoteExactInput: amountIn must be > 0');
  const result = swap(pool, zeroForOne, amountIn);
  const [used, out] = zeroForOne ? [result.amount0, -result.amount1] : [result.amount1, -result.amount0];
  const token0 = zeroForOne ? used : out;
  const token1 = zeroForOne ? out : used;
  return {
    amountIn: used,
    amountOut: out,
    filled: used === amountIn,
    averagePrice: token0 === 0n ? null : Number(token1) / Number(token0),
    sqrtPriceX96After: result.sqrtPriceX96,
  };
}
