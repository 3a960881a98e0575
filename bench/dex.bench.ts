/**
 * A DEX swap quote on one thread (issue 13): the price of a given size through a simulated
 * concentrated-liquidity pool, exact on bigint, crossing initialized ticks:
 *
 *   size (USDC) --quoteExactInput--> swap loop: step to the next tick / word edge, cross, repeat --> ETH out
 *
 * against, in the same tinybench run, the baseline every CEX quote of a size does: walking 50
 * price levels of a book (floats of price_1e9 x qty_1e8) to the same notional.
 *
 * Then the SOR decision with pools (issue 13): the 10 CEX venues of sor.bench.ts's BTC-USDT
 * snapshots plus the two BTC-USDC pools (dex-eth 30 bps, dex-arb 5 bps), each its swap curve
 * cut in levels and its gas as a fixed fee (execution/dex-orders.ts `poolView`), routed and
 * charged its gas (`withGasFees`), against the CEX-only decision on the same snapshots, in the
 * same run, p50 of 20,000 decisions each. Also: what building one pool's curve costs (the
 * chain actor does it per DEX order and side), and the plans' expected cost with and without.
 */
import assert from 'node:assert/strict';
import { Bench } from 'tinybench';
import { buildPool, orientationOf, POOLS } from '../actors/dex-chain/pools.ts';
import { quoteExactInput, swap } from '../domain/dex/pool.ts';
import { percentile, runIfMain, type BenchResult } from './lib/results.ts';
import { curveLevels } from '../actors/dex-chain/swaps.ts';
import type { PoolCurve } from '../actors/dex-chain/chain.ts';
import { chainSpec } from '../domain/chains.ts';
import { poolView, withGasFees } from '../execution/dex-orders.ts';
import { SmartOrderRouter } from '../execution/sor/sor.ts';
import type { VenueView } from '../execution/sor/sor-types.ts';
import { mulberry32 } from '../actors/edge/sim/rng.ts';
import { buildSnapshot, MID, NOW, request } from './sor.bench.ts';

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
  const sor = sorWithPools();
  return {
    name: 'dex',
    description: `a DEX swap quote on one thread: $${SIZE_USD / 1e6}M of USDC into the ETH-USDC 5 bps pool (exact bigint pool math, ${crossed} initialized ticks crossed), against walking 50 CEX book levels to the same notional, tinybench, ops/s; the SOR decision over 10 CEX venues plus 2 pools against the CEX-only decision, same snapshots, same run`,
    metrics: { swap_quotes_per_s: quoteHz, book_walks_per_s: walkHz, ticks_crossed: crossed, ...sor.metrics },
    ratios: { swap_quote_over_book_walk: Number((quoteHz / walkHz).toFixed(4)), ...sor.ratios },
    targets: {},
  };
}

const SNAPSHOTS = 16;
const DECISIONS = 20_000;
const SOR_SIZES = { few_levels: 300_000_000, large: 5_000_000_000 } as const;

/** The BTC pools' curves on a side, at the snapshots' mid, with each chain's typical gas and ETH at $3,400. */
function btcPoolCurves(side: 'buy' | 'sell'): { spec: (typeof POOLS)[number]; curve: PoolCurve }[] {
  const price = MID / 1e9;
  return POOLS.filter((p) => p.base === 'BTC').map((spec) => {
    const chain = chainSpec(spec.chain)!;
    const gas = { chain: chain.chain, chain_id: chain.chain_id, base_fee_native: chain.base_fee_gwei * 1e9, priority_fee_native: chain.priority_fee_gwei * 1e9, estimated_gas_units: chain.swap_gas_units, native_price_1e9: 3_400e9, estimated_cost_usd: 0, last_update_ns: NOW };
    const levels = curveLevels(buildPool(spec, price, price), orientationOf(spec), side, price);
    return { spec, curve: { pool_address: spec.pool_address, fee_bps: spec.fee_bps, lot_1e8: 1, ...levels, gas } };
  });
}

function sorWithPools(): Pick<BenchResult, 'metrics' | 'ratios'> {
  const rand = mulberry32(7);
  const cex = Array.from({ length: SNAPSHOTS }, () => buildSnapshot(rand));
  const curves = { buy: btcPoolCurves('buy'), sell: btcPoolCurves('sell') };
  const ample = { base: 1_000n * 100_000_000n, quote: 50_000_000n * 100_000_000n, eth: 100n * 100_000_000n };
  const router = new SmartOrderRouter();
  const metrics: BenchResult['metrics'] = {};
  const ratios: BenchResult['ratios'] = {};
  // One pool's curve, as the chain actor builds it for a DEX order (32 exact swaps).
  const spec = POOLS.find((p) => p.symbol === 'BTC-USDC-dex-arb')!;
  const pool = buildPool(spec, MID / 1e9, MID / 1e9);
  const o = orientationOf(spec);
  const t0 = performance.now();
  let built = 0;
  while (performance.now() - t0 < 500) built += curveLevels(pool, o, 'buy', MID / 1e9).px.length > 0 ? 1 : 0;
  metrics.pool_curve_build_us = Math.round(((performance.now() - t0) * 1_000) / built);
  metrics.pool_curve_levels = curves.buy[0]!.curve.px.length;
  for (const [name, qty] of Object.entries(SOR_SIZES)) {
    const reqs = Array.from({ length: SNAPSHOTS }, (_, i) => request(i, qty, 1));
    const mixed = reqs.map((r, i) => [...cex[i]!, ...curves[r.side].map((p) => poolView(p.spec, p.curve, r.side, qty, ample, true, NOW))] as VenueView[]);
    const cexOnly = () => timed((i) => router.route(reqs[i % SNAPSHOTS]!, cex[i % SNAPSHOTS]!).planned_qty_1e8);
    const withPools = () => timed((i) => withGasFees(router.route(reqs[i % SNAPSHOTS]!, mixed[i % SNAPSHOTS]!), mixed[i % SNAPSHOTS]!).planned_qty_1e8);
    // Interleaved halves, so drift on a noisy machine lands on both.
    const a1 = cexOnly();
    const b1 = withPools();
    const a2 = cexOnly();
    const b2 = withPools();
    const cexP50 = (a1 + a2) / 2;
    const poolsP50 = (b1 + b2) / 2;
    metrics[`${name}_cex_only_p50_us`] = round2(cexP50);
    metrics[`${name}_with_pools_p50_us`] = round2(poolsP50);
    ratios[`${name}_with_pools_over_cex_only_p50`] = round2(poolsP50 / cexP50);
    const planA = router.route(reqs[0]!, cex[0]!);
    const planB = withGasFees(router.route(reqs[0]!, mixed[0]!), mixed[0]!);
    metrics[`${name}_cex_only_expected_cost_bps`] = planA.expected_cost_bps ?? 0;
    metrics[`${name}_with_pools_expected_cost_bps`] = planB.expected_cost_bps ?? 0;
    metrics[`${name}_pools_share_of_plan`] = round2(planB.allocations.filter((a) => a.edge_id.startsWith('dex-')).reduce((s, a) => s + a.qty_1e8, 0) / planB.planned_qty_1e8);
  }
  return { metrics, ratios };
}

/** p50 of DECISIONS/2 timed calls, microseconds. */
function timed(decide: (i: number) => number): number {
  const n = DECISIONS / 2;
  const samples = new Float64Array(n);
  let sink = 0;
  for (let i = 0; i < 2_000; i++) sink += decide(i);
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    sink += decide(i);
    samples[i] = (performance.now() - t0) * 1_000;
  }
  if (sink < 0) console.log(sink);
  return percentile(samples.sort(), 50);
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

await runIfMain(import.meta.url, run);
