/**
 * SOR decision latency (issue 4): SmartOrderRouter.route() (execution/sor/sor.ts) for one market
 * order against 10 venues x 50 levels, routing versions 1 and 3, four order sizes; against the
 * reference router (execution/sor/sor-reference.ts: every level an object, Array.sort by cost,
 * BigInt balances, re-sort after every take in v3) in the same run.
 *
 *   SNAPSHOTS seeded BTC-USDT markets, built before timing: the 10 simulated edges listing the
 *   pair (their fees, latency, tick, lot, minimums; depth and spread from their market params),
 *   50 levels a side each, ample balances, v2/v3 venue statistics
 *        |
 *        |   per decision: snapshot i % SNAPSHOTS, one size, one version, buy or sell alternating
 *        v
 *   t0 = performance.now()
 *   router.route(req, views)      (1) selection  (2)+(3) heap k-way merge sweep over the venues'
 *   t1 = performance.now()        next levels  (4) minimum rounds  -> RoutingPlan objects
 *        |
 *        v
 *   (t1 - t0) into a Float64Array; sorted -> p50 / p99 / p99.9 per (version, size)
 *
 * Sizes: small (one level of the best venue), few_levels (a few levels over several venues),
 * large (~40 % of all displayed depth, 170+ levels), full_book (more than the whole book: every
 * one of the 500 levels is taken). The reference runs the same decisions, fewer of them (it is
 * ~100-1000x slower), and its plans must equal the fast ones or the run fails.
 * Target (issue 4): p50 < 20 µs for 10 venues x 50 levels.
 */
import { SmartOrderRouter, type RouteRequest, type RoutingVersion, type VenueView } from '../execution/sor/sor.ts';
import { referenceRoute } from '../execution/sor/sor-reference.ts';
import { edgesListing, rulesOf } from '../domain/venues.ts';
import { simEdge } from '../actors/edge/sim/catalog.ts';
import { mulberry32 } from '../actors/edge/sim/rng.ts';
import { percentile, runIfMain, target, type BenchResult } from './lib/results.ts';

const SYMBOL = 'BTC-USDT';
const LEVELS = 50;
const SNAPSHOTS = 64;
const SEED = 7;
export const MID = 95_000_000_000_000; // 95,000.00
export const NOW = 1_000_000_000_000_000;
const FAST_ITERATIONS = 20_000;
const FAST_WARMUP = 5_000;
const REFERENCE_MAX_ITERATIONS = 2_000;
const REFERENCE_BUDGET_MS = 1_500;
const TARGET_P50_US = 20;

const SIZES = { small: 5_000_000, few_levels: 300_000_000, large: 5_000_000_000, full_book: 50_000_000_000 } as const;
type SizeName = keyof typeof SIZES;
const VERSIONS: readonly RoutingVersion[] = [1, 3];

export function buildSnapshot(rand: () => number): VenueView[] {
  const edges = edgesListing(SYMBOL);
  if (edges.length !== 10) throw new Error(`expected 10 edges listing ${SYMBOL}, got ${edges.length}`);
  return edges.map((e) => {
    const market = simEdge(e.edge_id)!.market;
    const rules = rulesOf(e.edge_id, SYMBOL)!;
    const tick = rules.tick_1e9;
    const lot = rules.lot_1e8;
    const venueMid = MID * (1 + ((rand() - 0.5) * 1) / 10_000); // +-0.5 bps venue offset
    const half = (MID * market.spread_bps) / 2 / 10_000;
    const meanQty = (market.depth_usd / 95_000 / LEVELS) * 100_000_000;
    const side = (dir: 1 | -1) => {
      const px = new Float64Array(LEVELS);
      const qty = new Float64Array(LEVELS);
      let p = dir === 1 ? Math.ceil((venueMid + half) / tick) * tick : Math.floor((venueMid - half) / tick) * tick;
      for (let j = 0; j < LEVELS; j++) {
        px[j] = p;
        qty[j] = Math.max(lot, Math.round((meanQty * (0.3 + 1.4 * rand()) * (1 + (0.35 * j) / 8)) / 4 / lot) * lot);
        // Next level 0.05..0.4 bps further, at least one tick.
        const gap = Math.max(tick, Math.round((MID * (0.05 + 0.35 * rand())) / 10_000 / tick) * tick);
        p += dir * gap;
      }
      return { px, qty };
    };
    const asks = side(1);
    const bids = side(-1);
    return {
      venue: e.venue,
      edge_id: e.edge_id,
      listed: true,
      online: true,
      last_update_ns: NOW - Math.floor(rand() * 200) * 1_000_000,
      has_credentials: true,
      base_available_1e8: 1_000 * 100_000_000,
      quote_available_1e8: 50_000_000 * 100_000_000,
      asks_px: asks.px,
      asks_qty: asks.qty,
      ask_count: LEVELS,
      bids_px: bids.px,
      bids_qty: bids.qty,
      bid_count: LEVELS,
      maker_bps: e.maker_bps,
      taker_bps: e.taker_bps,
      latency_ms: market.latency_ms,
      rules,
      stats: {
        adverse_selection_bps: rand() * 1.5,
        reject_rate: rand() * 0.05,
        impact_bps_per_unit: 0.02 + rand() * 0.1,
      },
    };
  });
}

export function request(i: number, qty: number, version: RoutingVersion): RouteRequest {
  return {
    node_order_id: `bench-${i}`,
    side: (i & 1) === 0 ? 'buy' : 'sell',
    qty_1e8: qty,
    order_type: 'market',
    arrival_mid_1e9: MID,
    now_ns: NOW,
    routing_version: version,
  };
}

interface Series {
  p50: number;
  p99: number;
  p999: number;
  n: number;
}

function summarise(samplesMs: Float64Array, n: number): Series {
  const us = samplesMs.subarray(0, n).map((x) => x * 1_000).sort();
  const r = (x: number) => Math.round(x * 100) / 100;
  return { p50: r(percentile(us, 50)), p99: r(percentile(us, 99)), p999: r(percentile(us, 99.9)), n };
}

export async function run(): Promise<BenchResult> {
  const rand = mulberry32(SEED);
  const snapshots = Array.from({ length: SNAPSHOTS }, () => buildSnapshot(rand));
  const router = new SmartOrderRouter();
  const metrics: BenchResult['metrics'] = {
    venues: 10,
    levels_per_venue_side: LEVELS,
    snapshots: SNAPSHOTS,
    fast_iterations_per_series: FAST_ITERATIONS,
  };
  const ratios: BenchResult['ratios'] = {};
  const targets: BenchResult['targets'] = {};

  // Shape of the workload: what each size actually does on snapshot 0 (buy side).
  let depth = 0;
  for (const v of snapshots[0]!) for (let j = 0; j < LEVELS; j++) depth += v.asks_qty[j]!;
  metrics.total_ask_depth_btc = Math.round(depth / 1e6) / 100;
  for (const version of VERSIONS) {
    for (const [name, qty] of Object.entries(SIZES) as [SizeName, number][]) {
      const plan = router.route(request(0, qty, version), snapshots[0]!);
      const levels = plan.allocations.reduce((s, a) => s + a.levels.length, 0);
      metrics[`v${version}_${name}_shape`] = `${qty / 1e8} BTC -> ${plan.allocations.length} venues, ${levels} levels, unfilled ${plan.unfilled_qty_1e8 / 1e8}`;
      // The fast plans must be the reference plans, or the comparison means nothing.
      for (let s = 0; s < 4; s++) {
        const req = request(s, qty, version);
        const a = JSON.stringify(router.route(req, snapshots[s]!));
        const b = JSON.stringify(referenceRoute(req, snapshots[s]!, router.options));
        if (a !== b) throw new Error(`fast and reference plans differ: v${version} ${name} snapshot ${s}`);
      }
    }
  }

  const samples = new Float64Array(FAST_ITERATIONS);
  let sink = 0;
  for (const version of VERSIONS) {
    for (const [name, qty] of Object.entries(SIZES) as [SizeName, number][]) {
      const reqs = Array.from({ length: SNAPSHOTS }, (_, i) => request(i, qty, version));
      for (let i = 0; i < FAST_WARMUP; i++) sink += router.route(reqs[i % SNAPSHOTS]!, snapshots[i % SNAPSHOTS]!).planned_qty_1e8;
      for (let i = 0; i < FAST_ITERATIONS; i++) {
        const k = i % SNAPSHOTS;
        const t0 = performance.now();
        const plan = router.route(reqs[k]!, snapshots[k]!);
        samples[i] = performance.now() - t0;
        sink += plan.planned_qty_1e8;
      }
      const fast = summarise(samples, FAST_ITERATIONS);

      let n = 0;
      const refSamples = new Float64Array(REFERENCE_MAX_ITERATIONS);
      const started = performance.now();
      while (n < REFERENCE_MAX_ITERATIONS && (n < 20 || performance.now() - started < REFERENCE_BUDGET_MS)) {
        const k = n % SNAPSHOTS;
        const t0 = performance.now();
        const plan = referenceRoute(reqs[k]!, snapshots[k]!, router.options);
        refSamples[n++] = performance.now() - t0;
        sink += plan.planned_qty_1e8;
      }
      const ref = summarise(refSamples, n);

      const key = `v${version}_${name}`;
      metrics[`${key}_p50_us`] = fast.p50;
      metrics[`${key}_p99_us`] = fast.p99;
      metrics[`${key}_p999_us`] = fast.p999;
      metrics[`${key}_reference_p50_us`] = ref.p50;
      metrics[`${key}_reference_p99_us`] = ref.p99;
      metrics[`${key}_reference_n`] = ref.n;
      ratios[`${key}_reference_over_fast_p50`] = Math.round((ref.p50 / fast.p50) * 10) / 10;
      targets[`${key}_p50_us`] = target(fast.p50, TARGET_P50_US, '<=');
    }
  }
  if (sink === 0) console.log('nothing planned');

  return {
    name: 'sor',
    description:
      'SmartOrderRouter.route() decision latency, one market order against 10 venues x 50 levels (the 10 simulated edges listing ' +
      'BTC-USDT, seeded books), versions 1 and 3, four sizes, each decision timed alone with performance.now(), ' +
      `${FAST_ITERATIONS} per series after ${FAST_WARMUP} warm-up; same-run baseline: the reference router (level objects, ` +
      'Array.sort by cost, BigInt, re-sort after every take in v3) on the same decisions, whose plans must be identical.',
    metrics,
    ratios,
    targets,
  };
}

await runIfMain(import.meta.url, run);
