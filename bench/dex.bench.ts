/**
 * A DEX swap quote on one thread (issue 13): the price of a given size through a simulated
 * concentrated-liquidity pool, exact on bigint, crossing initialized ticks:
 *
 *   size (USDC) --quoteExactInput--> swap loop: step to the next tick / word edge, cross, repeat --> ETH out
 *
 * against, in the same tinybench run, the baseline every CEX quote of a size does: walking 50
 * price levels of a book (floats of price_1e9 x qty_1e8) to the same notional.
 */
import assert from 'node:assert/strict';
import { Bench } from 'tinybench';
import { buildPool, orientationOf, POOLS } from '../actors/dex-chain/pools.ts';
import { quoteExactInput, swap } from '../domain/dex/pool.ts';
import { runIfMain, type BenchResult } from './lib/results.ts';

const TIME_MS = 1_000;
const PRICE = 3_500;
/** $60M into the $150M ETH-USDC 5 bps pool: through its 0.5% and 2% positions' edges. */
const SIZE_USD = 60_000_000;

export async function run(): Promise<BenchResult> {
  const spec = POOLS.find((p) => p.symbol === 'ETH-USDC-dex-eth' && p.fee_bps === 5)!;
  const pool = buildPool(spec, PRICE, PRICE);
  const o = orientationOf(spec);
  const amountIn = BigInt(SIZE_USD) * 10n ** BigInt(o.quoteDecimals);
  const zeroForOne = !o.baseIsToken0; // the quote goes in
  const crossed = swap(pool, zeroForOne, amountIn).ticksCrossed;
  assert.ok(crossed >= 2, `the quoted size crosses initialized ticks (${crossed})`);

  // The CEX baseline: 50 levels 1 bp apart, $1M each, walked to the same notional.
  const px = new Float64Array(50);
  const qty = new Float64Array(50);
  for (let i = 0; i < 50; i++) {
    px[i] = Math.round(PRICE * (1 + i / 1e4) * 1e9);
    qty[i] = Math.round((1_000_000 / PRICE) * 1e8);
  }
  const walk = (notional_1e9: number) => {
    let left = notional_1e9;
    let base = 0;
    for (let i = 0; i < 50 && left > 0; i++) {
      const levelNotional = (px[i]! * qty[i]!) / 1e8;
      const take = Math.min(left, levelNotional);
      base += (take * 1e8) / px[i]!;
      left -= take;
    }
    return base;
  };
  let sink = 0;
  const bench = new Bench({ time: TIME_MS });
  bench
    .add('book walk (50 levels)', () => void (sink += walk(SIZE_USD * 1e9)))
    .add('pool swap quote (exact, across ticks)', () => void (sink += Number(quoteExactInput(pool, zeroForOne, amountIn).amountOut & 1n)));
  await bench.run();
  const hz = (name: string) => Math.round((bench.getTask(name)!.result as { throughput: { mean: number } }).throughput.mean);
  const walkHz = hz('book walk (50 levels)');
  const quoteHz = hz('pool swap quote (exact, across ticks)');
  void sink;
  return {
    name: 'dex',
    description: `a DEX swap quote on one thread: $${SIZE_USD / 1e6}M of USDC into the ETH-USDC 5 bps pool (exact bigint pool math, ${crossed} initialized ticks crossed), against walking 50 CEX book levels to the same notional, tinybench, ops/s`,
    metrics: { swap_quotes_per_s: quoteHz, book_walks_per_s: walkHz, ticks_crossed: crossed },
    ratios: { swap_quote_over_book_walk: Number((quoteHz / walkHz).toFixed(4)) },
    targets: {},
  };
}

await runIfMain(import.meta.url, run);
