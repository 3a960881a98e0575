/**
 * Initialized ticks of a simulated pool as a sorted array, and the walk over them that
 * UniswapV3Pool.swap does with TickBitmap.nextInitializedTickWithinOneWord
 * (contracts/libraries/TickBitmap.sol), plus the liquidityNet bookkeeping of Tick.update and
 * the per-tick cap of Tick.tickSpacingToMaxLiquidityPerTick (contracts/libraries/Tick.sol).
 *
 * The bitmap search stops at the edge of a 256-tick-spacing word even where no tick is
 * initialized. Each stop is a separate swap step with its own rounding, so the walk stops there
 * too: skipping straight to the next initialized tick would drift from the chain by a few units.
 */
import { MAX_UINT128 } from './full-math.ts';
import { MAX_TICK, MIN_TICK } from './tick-math.ts';

export interface InitializedTick {
  readonly index: number;
  /** Liquidity added when the price crosses this tick upward (removed when it crosses downward). */
  readonly liquidityNet: bigint;
}

export interface Position {
  readonly tickLower: number;
  readonly tickUpper: number;
  readonly liquidity: bigint;
}

/** Index of the last tick with index <= `tick`, or -1. */
function lastAtOrBelow(ticks: readonly InitializedTick[], tick: number): number {
  let lo = 0;
  let hi = ticks.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ticks[mid]!.index <= tick) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

export function findTick(ticks: readonly InitializedTick[], tick: number): InitializedTick | undefined {
  const at = ticks[lastAtOrBelow(ticks, tick)];
  return at?.index === tick ? at : undefined;
}

/**
 * The next initialized tick at or below `tick` (lte) or above it, searching only the bitmap word
 * of the start; if none, the word's edge, uninitialized. Words are 256 compressed ticks
 * (tick / tickSpacing, floored), so the walk matches the chain's step boundaries exactly.
 */
export function nextInitializedTickWithinOneWord(
  ticks: readonly InitializedTick[],
  tick: number,
  tickSpacing: number,
  lte: boolean,
): { next: number; initialized: boolean } {
  const compressed = Math.floor(tick / tickSpacing);
  if (lte) {
    const wordStart = Math.floor(compressed / 256) * 256;
    const found = ticks[lastAtOrBelow(ticks, compressed * tickSpacing)];
    if (found !== undefined && found.index >= wordStart * tickSpacing) return { next: found.index, initialized: true };
    return { next: wordStart * tickSpacing, initialized: false };
  }
  const from = compressed + 1;
  const wordEnd = Math.floor(from / 256) * 256 + 255;
  const found = ticks[lastAtOrBelow(ticks, from * tickSpacing - 1) + 1];
  if (found !== undefined && found.index <= wordEnd * tickSpacing) return { next: found.index, initialized: true };
  return { next: wordEnd * tickSpacing, initialized: false };
}

/** The most liquidity any tick may reference, so the pool's active liquidity can never pass uint128. */
export function maxLiquidityPerTick(tickSpacing: number): bigint {
  const minTick = Math.ceil(MIN_TICK / tickSpacing) * tickSpacing;
  const maxTick = Math.floor(MAX_TICK / tickSpacing) * tickSpacing;
  const numTicks = BigInt((maxTick - minTick) / tickSpacing + 1);
  return MAX_UINT128 / numTicks;
}

/**
 * The sorted initialized ticks of a set of positions. A tick stays initialized while any
 * position references it (liquidityGross > 0), even if the nets cancel to 0: the chain still
 * stops a swap step there.
 */
export function ticksFromPositions(positions: readonly Position[], tickSpacing: number): InitializedTick[] {
  if (!Number.isInteger(tickSpacing) || tickSpacing <= 0 || tickSpacing >= 16384) throw new RangeError(`tickSpacing out of range: ${tickSpacing}`);
  const gross = new Map<number, bigint>();
  const net = new Map<number, bigint>();
  const cap = maxLiquidityPerTick(tickSpacing);
  for (const { tickLower, tickUpper, liquidity } of positions) {
    if (!Number.isInteger(tickLower) || !Number.isInteger(tickUpper) || tickLower >= tickUpper || tickLower < MIN_TICK || tickUpper > MAX_TICK) {
      throw new RangeError(`position ticks out of range: [${tickLower}, ${tickUpper})`);
    }
    if (tickLower % tickSpacing !== 0 || tickUpper % tickSpacing !== 0) throw new RangeError(`position ticks not multiples of ${tickSpacing}`);
    if (liquidity < 0n) throw new RangeError('position liquidity must be >= 0');
    if (liquidity === 0n) continue;
    for (const [tick, delta] of [[tickLower, liquidity], [tickUpper, -liquidity]] as const) {
      const g = (gross.get(tick) ?? 0n) + liquidity;
      if (g > cap) throw new RangeError(`liquidity at tick ${tick} exceeds the per-tick maximum ${cap}`);
      gross.set(tick, g);
      net.set(tick, (net.get(tick) ?? 0n) + delta);
    }
  }
  return [...net.entries()].sort(([a], [b]) => a - b).map(([index, liquidityNet]) => ({ index, liquidityNet }));
}
