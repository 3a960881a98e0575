/**
 * domain/dex/pool.ts across initialized ticks: a hand-built three-position pool crossed in each
 * direction (ticks crossed, active liquidity equal to the positions covering the new tick),
 * then fast-check properties on random pools: the output of an exact-input swap never exceeds
 * an exact-rational, fee-free walk of the same liquidity curve; a swap and its reverse never
 * return more than was put in; prices move the way of the trade; liquidity always equals the
 * positions covering the tick; swap leaves its input untouched.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { applySwap, poolFromPositions, type PoolState, type Position, quoteExactInput, swap } from '../../domain/dex/pool.ts';
import { getSqrtRatioAtTick, MAX_SQRT_RATIO, MIN_SQRT_RATIO } from '../../domain/dex/tick-math.ts';
import { E18 } from '../helpers/dex.ts';

const Q96 = 1n << 96n;

/** Active liquidity by definition: the positions whose [tickLower, tickUpper) holds the tick. */
const covering = (positions: readonly Position[], tick: number): bigint =>
  positions.reduce((sum, p) => (p.tickLower <= tick && tick < p.tickUpper ? sum + p.liquidity : sum), 0n);

const A: Position = { tickLower: -6000, tickUpper: 6000, liquidity: 2n * E18 };
const B: Position = { tickLower: -1200, tickUpper: 1200, liquidity: 3n * E18 };
const C: Position = { tickLower: 600, tickUpper: 3000, liquidity: 1n * E18 };

describe('dex pool: swaps across initialized ticks', () => {
  const build = () => poolFromPositions(getSqrtRatioAtTick(0), 3000, 60, [A, B, C]);

  it('builds liquidityNet per tick and the active liquidity at the current tick', () => {
    const pool = build();
    assert.equal(pool.tick, 0);
    assert.equal(pool.liquidity, 5n * E18, 'A + B');
    assert.deepEqual(pool.ticks, [
      { index: -6000, liquidityNet: 2n * E18 },
      { index: -1200, liquidityNet: 3n * E18 },
      { index: 600, liquidityNet: 1n * E18 },
      { index: 1200, liquidityNet: -3n * E18 },
      { index: 3000, liquidityNet: -1n * E18 },
      { index: 6000, liquidityNet: -2n * E18 },
    ]);
  });

  it('selling token0 crosses -1200 (B leaves) and stops before -6000', () => {
    const pool = build();
    const result = swap(pool, true, E18 / 2n);
    assert.equal(result.ticksCrossed, 1);
    assert.ok(result.tick < -1200 && result.tick >= -6000, `tick ${result.tick}`);
    assert.equal(result.liquidity, 2n * E18);
    assert.equal(result.liquidity, covering([A, B, C], result.tick));
    assert.equal(result.amount0, E18 / 2n, 'the whole input is used');
    assert.ok(result.amount1 < 0n);
    assert.ok(result.feeAmount > 0n && result.feeAmount <= (E18 / 2n) * 3000n / 1_000_000n + 2n);
  });

  it('buying token0 crosses 600 (C joins) and 1200 (B leaves), and stops before 3000', () => {
    const pool = build();
    const result = swap(pool, false, E18 / 2n);
    assert.equal(result.ticksCrossed, 2);
    assert.ok(result.tick >= 1200 && result.tick < 3000, `tick ${result.tick}`);
    assert.equal(result.liquidity, 3n * E18, 'A + C');
    assert.equal(result.liquidity, covering([A, B, C], result.tick));
  });

  it('an exact-output swap crosses the same way and delivers exactly the amount asked', () => {
    const pool = build();
    const result = swap(pool, true, -(E18 / 2n));
    assert.equal(result.amount1, -(E18 / 2n));
    assert.equal(result.ticksCrossed, 1);
    assert.equal(result.liquidity, covering([A, B, C], result.tick));
  });

  it('a price limit exactly on a tick crosses it (tick - 1 below), and the way back re-crosses it at once', () => {
    const pool = build();
    const down = swap(pool, true, E18, getSqrtRatioAtTick(-1200));
    assert.equal(down.sqrtPriceX96, getSqrtRatioAtTick(-1200));
    assert.equal(down.tick, -1201);
    assert.equal(down.ticksCrossed, 1);
    assert.equal(down.liquidity, 2n * E18);
    applySwap(pool, down);
    const up = swap(pool, false, 1000n);
    assert.equal(up.ticksCrossed, 1);
    assert.equal(up.liquidity, 5n * E18);
    assert.equal(up.liquidity, covering([A, B, C], up.tick));
  });

  it('runs out of liquidity at the price limit, using only part of the input', () => {
    const pool = build();
    const result = swap(pool, true, 10n ** 30n);
    assert.equal(result.sqrtPriceX96, MIN_SQRT_RATIO + 1n);
    assert.equal(result.ticksCrossed, 2);
    assert.equal(result.liquidity, 0n);
    assert.ok(result.amount0 < 10n ** 30n);
    const quote = quoteExactInput(pool, true, 10n ** 30n);
    assert.equal(quote.filled, false);
    assert.equal(quote.amountIn, result.amount0);
  });

  it('is pure; applySwap writes the result back', () => {
    const pool = build();
    const before = structuredClone(pool);
    const result = swap(pool, false, E18 / 2n);
    assert.deepEqual(pool, before);
    applySwap(pool, result);
    assert.deepEqual([pool.sqrtPriceX96, pool.tick, pool.liquidity], [result.sqrtPriceX96, result.tick, result.liquidity]);
  });

  it('quoteExactInput gives the swap\'s output and its average price (token1 per token0)', () => {
    const pool = build();
    const quote = quoteExactInput(pool, true, E18 / 10n);
    const result = swap(pool, true, E18 / 10n);
    assert.equal(quote.amountOut, -result.amount1);
    assert.equal(quote.amountIn, E18 / 10n);
    assert.equal(quote.filled, true);
    assert.equal(quote.averagePrice, Number(-result.amount1) / Number(E18 / 10n));
    // 0.1 token0 into L = 5e18 moves √P by ~2%: the average is ~√P×√P' ≈ 0.980, less the 0.3% fee.
    assert.ok(quote.averagePrice! > 0.97 && quote.averagePrice! < 0.98);
    const buy = quoteExactInput(pool, false, E18 / 10n);
    assert.ok(buy.averagePrice! > 1.02 && buy.averagePrice! < 1.03);
  });

  it('rejects a zero amount, a limit on the wrong side, and malformed positions', () => {
    const pool = build();
    assert.throws(() => swap(pool, true, 0n), RangeError);
    assert.throws(() => swap(pool, true, E18, pool.sqrtPriceX96 + 1n), RangeError);
    assert.throws(() => swap(pool, false, E18, pool.sqrtPriceX96), RangeError);
    assert.throws(() => swap(pool, false, E18, MAX_SQRT_RATIO), RangeError);
    assert.throws(() => poolFromPositions(Q96, 3000, 60, [{ tickLower: 60, tickUpper: 60, liquidity: 1n }]), RangeError);
    assert.throws(() => poolFromPositions(Q96, 3000, 60, [{ tickLower: -61, tickUpper: 60, liquidity: 1n }]), RangeError);
  });
});

// ---- An exact-rational, fee-free walk of the same liquidity curve, from the positions alone.

interface Frac {
  n: bigint;
  d: bigint;
}
const lte = (a: Frac, b: Frac) => a.n * b.d <= b.n * a.d;
const add = (a: Frac, b: Frac): Frac => ({ n: a.n * b.d + b.n * a.d, d: a.d * b.d });
const sub = (a: Frac, b: Frac): Frac => ({ n: a.n * b.d - b.n * a.d, d: a.d * b.d });

/**
 * Output of an exact-input swap with no fee and no rounding: constant liquidity between
 * consecutive position bounds (x = L / √P, y = L √P in real numbers), stopping at the limit.
 */
function idealOutput(positions: readonly Position[], start: bigint, zeroForOne: boolean, amountIn: bigint, limit: bigint): Frac {
  const bounds = [...new Set(positions.flatMap((p) => [getSqrtRatioAtTick(p.tickLower), getSqrtRatioAtTick(p.tickUpper)])), limit];
  let s = start; // stays on an integer bound until the last, partial step
  let remaining: Frac = { n: amountIn, d: 1n };
  let out: Frac = { n: 0n, d: 1n };
  while (remaining.n > 0n && s !== limit) {
    const ahead = bounds.filter((b) => (zeroForOne ? b < s && b >= limit : b > s && b <= limit));
    const b = ahead.reduce((x, y) => (zeroForOne ? (y > x ? y : x) : y < x ? y : x));
    const [lo, hi] = zeroForOne ? [b, s] : [s, b];
    const l = positions.reduce((sum, p) => (getSqrtRatioAtTick(p.tickLower) <= lo && getSqrtRatioAtTick(p.tickUpper) >= hi ? sum + p.liquidity : sum), 0n);
    const { n, d } = remaining;
    const inFull: Frac = zeroForOne ? { n: l * Q96 * (hi - lo), d: hi * lo } : { n: l * (hi - lo), d: Q96 };
    if (lte(inFull, remaining)) {
      out = add(out, zeroForOne ? { n: l * (hi - lo), d: Q96 } : { n: l * Q96 * (hi - lo), d: hi * lo });
      remaining = sub(remaining, inFull);
      s = b;
      continue;
    }
    // The partial step: √P' from the remaining input, then the output between √P and √P'.
    out = add(out, zeroForOne
      ? { n: l * n * s * s, d: Q96 * (l * Q96 * d + n * s) }
      : { n: l * Q96 * Q96 * n, d: s * (s * l * d + n * Q96) });
    break;
  }
  return out;
}

// ---- Random pools.

const SPACINGS = [1, 10, 60, 200];
const FEES = [0, 100, 500, 3000, 10000];
const amount = fc.tuple(fc.integer({ min: 0, max: 24 }), fc.integer({ min: 1, max: 9 })).map(([e, k]) => BigInt(k) * 10n ** BigInt(e));
const randomPool = fc
  .record({
    spacing: fc.constantFrom(...SPACINGS),
    fee: fc.constantFrom(...FEES),
    ranges: fc.array(fc.tuple(fc.integer({ min: -300, max: 300 }), fc.integer({ min: 1, max: 300 }), amount), { minLength: 1, maxLength: 4 }),
    startTick: fc.integer({ min: -300, max: 300 }),
    fraction: fc.bigInt({ min: 0n, max: (1n << 32n) - 1n }),
  })
  .map(({ spacing, fee, ranges, startTick, fraction }) => {
    const positions: Position[] = ranges.map(([lower, width, liquidity]) => ({ tickLower: lower * spacing, tickUpper: (lower + width) * spacing, liquidity: liquidity + 1000n }));
    // A start anywhere in a tick, not only on its boundary.
    const tick = startTick * spacing;
    const low = getSqrtRatioAtTick(tick);
    const price = low + (((getSqrtRatioAtTick(tick + 1) - low) * fraction) >> 32n);
    return { positions, pool: poolFromPositions(price, fee, spacing, positions) };
  });

describe('dex pool: properties on random pools', () => {
  it('exact-input output never exceeds the fee-free exact-rational output of the same curve', () => {
    fc.assert(
      fc.property(randomPool, fc.boolean(), amount, ({ positions, pool }, zeroForOne, amountIn) => {
        const result = swap(pool, zeroForOne, amountIn);
        const out = zeroForOne ? -result.amount1 : -result.amount0;
        const limit = zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n;
        const ideal = idealOutput(positions, pool.sqrtPriceX96, zeroForOne, amountIn, limit);
        assert.ok(lte({ n: out, d: 1n }, ideal), `out ${out} > ideal ${ideal.n}/${ideal.d}`);
      }),
      { numRuns: 150 },
    );
  });

  it('a swap and then its reverse return at most what was put in (no free money)', () => {
    fc.assert(
      fc.property(randomPool, fc.boolean(), amount, ({ pool }, zeroForOne, amountIn) => {
        const there = swap(pool, zeroForOne, amountIn);
        const [paid, received] = zeroForOne ? [there.amount0, -there.amount1] : [there.amount1, -there.amount0];
        if (received === 0n) return;
        const after = { ...pool };
        applySwap(after, there);
        const back = swap(after, !zeroForOne, received);
        const returned = zeroForOne ? -back.amount0 : -back.amount1;
        assert.ok(returned <= paid, `put in ${paid}, got back ${returned}`);
      }),
      { numRuns: 150 },
    );
  });

  it('prices and amounts move the way of the trade; liquidity always equals the covering positions; swap is pure', () => {
    fc.assert(
      fc.property(randomPool, fc.array(fc.tuple(fc.boolean(), fc.boolean(), amount), { minLength: 1, maxLength: 4 }), ({ positions, pool }, trades) => {
        assert.equal(pool.liquidity, covering(positions, pool.tick));
        const state: PoolState = { ...pool };
        for (const [zeroForOne, exactOut, size] of trades) {
          const atLimit = zeroForOne ? state.sqrtPriceX96 <= MIN_SQRT_RATIO + 1n : state.sqrtPriceX96 >= MAX_SQRT_RATIO - 1n;
          if (atLimit) continue;
          const before = structuredClone(state);
          const result = swap(state, zeroForOne, exactOut ? -size : size);
          assert.deepEqual(state, before, 'swap must not mutate');
          const [paid, received] = zeroForOne ? [result.amount0, -result.amount1] : [result.amount1, -result.amount0];
          assert.ok(paid >= 0n && received >= 0n, `paid ${paid}, received ${received}`);
          assert.ok(result.feeAmount <= paid);
          if (exactOut) assert.ok(received <= size);
          else assert.ok(paid <= size);
          if (zeroForOne) assert.ok(result.sqrtPriceX96 <= state.sqrtPriceX96 && result.tick <= state.tick);
          else assert.ok(result.sqrtPriceX96 >= state.sqrtPriceX96 && result.tick >= state.tick);
          assert.equal(result.liquidity, covering(positions, result.tick));
          applySwap(state, result);
        }
      }),
      { numRuns: 150 },
    );
  });
});
