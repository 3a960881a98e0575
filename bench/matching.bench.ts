/**
 * Matching: the simulated venues' engine (actors/edge/sim/order-book.ts) against the npm packages
 * nodejs-order-book 10.1.1 and hft-limit-order-book 7.0.2, on the same seeded streams, same run.
 *
 *   bench/lib/order-stream.ts (seed)
 *     build: adds + 10% cancels until N resting  ─┐  untimed
 *     mix:   70% limit adds / 20% cancels /      ─┤  timed
 *            10% crossing market orders           │
 *                                                 ├──> OrderBook          .limit / .market / .cancel   (ours)
 *                                                 ├──> nodejs-order-book  .limit / .market / .cancel
 *                                                 └──> hft-limit-order-book .limit / .market / .cancel
 *
 * (a) steady: N = 5,000 resting, STEADY_OPS mix operations; rounds alternate the three engines
 *     (ours, peer, peer, ours, ...) and each engine's median round is reported.
 * (b) deep: N = 410,000 resting, then the mix. The peers are measured on the first
 *     DEEP_PEER_OPS mix operations (their cancel and maker fill rewrite a whole level); ours on
 *     the same operations (the ratio) and on all DEEP_OPS (the figure that matters to us).
 * (c) cancel latency, ours: every cancel of the mix timed on its own with performance.now() at
 *     both depths, next to the cost of the timer itself; plus batches of back-to-back cancels
 *     timed as a block (no timer in between) for the mean.
 * (d) differential: every fill (maker id, taker id, price, qty), in order, equal across the three
 *     engines: steady over build + the whole mix; deep over the build and DEEP_CHECK_OPS after the
 *     measured prefix, plus the full L2 book after the measured prefix.
 *
 * Targets (issue 3): steady >= 5x and deep >= 50x the faster peer; cancel p99 < 5 µs at both
 * depths; no fill differs from the peers'.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { Side } from '../domain/market.ts';
import type { OrderBook } from '../actors/edge/sim/order-book.ts';
import { FillLog, OursEngine, PEERS, PeerEngine, preparePeerIds, sameL2, type BenchEngine, type L2 } from './lib/matching-engines.ts';
import { mulberry32 } from '../actors/edge/sim/rng.ts';
import { generateStream, Op, prefix, type GeneratedStream, type OrderStream } from './lib/order-stream.ts';
import { percentile, target, runIfMain, type BenchResult } from './lib/results.ts';

const SEED = 20_240_601;
const STEADY_DEPTH = 5_000;
const STEADY_OPS = 400_000;
const STEADY_ROUNDS = 5;
/** Past 400,000: the build stops here and the mix holds the depth (about +-1%). */
const DEEP_DEPTH = 410_000;
const DEEP_OPS = 1_000_000;
const DEEP_PEER_OPS = 50_000;
const DEEP_CHECK_OPS = 5_000;
const DEEP_ROUNDS_OURS = 5;
/** Order slots for our deep book: past the ~400k resting so no doubling happens mid-measurement. */
const DEEP_CAPACITY = 1 << 19;
const TIMER_SAMPLES = 200_000;

/**
 * A full collection between phases, so one engine's garbage is not collected in the next
 * engine's timed window. `node --expose-gc` is not required: the flag can be set at run time.
 */
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const round2 = (n: number) => Math.round(n * 100) / 100;
const round3 = (n: number) => Math.round(n * 1000) / 1000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function timed(engine: BenchEngine, s: OrderStream, from: number, to: number): number {
  gc();
  const t0 = performance.now();
  engine.run(s, from, to);
  const ms = performance.now() - t0;
  return (to - from) / (ms / 1000);
}

function newEngine(name: string, capacity: number): BenchEngine {
  return name === 'ours' ? new OursEngine(capacity) : new PeerEngine(name as (typeof PEERS)[number]);
}

interface Differential {
  fills: number;
  mismatches: number;
  detail: string[];
}

function compareLogs(label: string, ours: FillLog, peer: FillLog, diff: Differential): void {
  diff.fills += ours.length;
  const at = ours.firstDifference(peer);
  if (at >= 0) {
    diff.mismatches++;
    diff.detail.push(`${label}: ${ours.length} vs ${peer.length} fills, first difference #${at}: ours ${ours.describe(at)} / peer ${peer.describe(at)}`);
  }
}

function compareL2(label: string, ours: L2, peer: L2, diff: Differential): void {
  if (!sameL2(ours, peer)) {
    diff.mismatches++;
    diff.detail.push(`${label}: L2 differs (${ours.bids.length}/${ours.asks.length} vs ${peer.bids.length}/${peer.asks.length} levels)`);
  }
}

/** (a) + (d) on the steady stream. */
function steady(stream: GeneratedStream, diff: Differential): Record<string, number[]> {
  const { build, mix } = stream;
  preparePeerIds(build);
  preparePeerIds(mix);
  // Differential first: it also warms every engine's code up before anything is timed.
  const logs = new Map<string, FillLog>();
  const books = new Map<string, L2>();
  for (const name of ['ours', ...PEERS]) {
    const engine = newEngine(name, STEADY_DEPTH * 2);
    const log = new FillLog();
    engine.run(build, 0, build.length, log);
    engine.run(mix, 0, mix.length, log);
    logs.set(name, log);
    books.set(name, engine.l2());
  }
  for (const peer of PEERS) {
    compareLogs(`steady fills vs ${peer}`, logs.get('ours')!, logs.get(peer)!, diff);
    compareL2(`steady final book vs ${peer}`, books.get('ours')!, books.get(peer)!, diff);
  }

  const rates: Record<string, number[]> = { ours: [], [PEERS[0]!]: [], [PEERS[1]!]: [] };
  for (let round = 0; round < STEADY_ROUNDS; round++) {
    for (const name of ['ours', ...PEERS]) {
      const engine = newEngine(name, STEADY_DEPTH * 2);
      engine.run(build, 0, build.length);
      rates[name]!.push(timed(engine, mix, 0, mix.length));
    }
  }
  return rates;
}

interface DeepRates {
  oursPrefix: number[];
  oursFull: number[];
  peers: Record<string, number>;
}

/** (b) + (d) on the deep stream. */
function deep(stream: GeneratedStream, diff: Differential): DeepRates {
  const { build, mix } = stream;
  const peerMix = prefix(mix, DEEP_PEER_OPS + DEEP_CHECK_OPS);
  preparePeerIds(build);
  preparePeerIds(peerMix);

  // Ours, untimed: the reference fills for the peers (build, then the check window after the
  // measured prefix) and the L2 book at the end of the prefix.
  const reference = new OursEngine(DEEP_CAPACITY);
  const oursBuild = new FillLog();
  const oursCheck = new FillLog();
  reference.run(build, 0, build.length, oursBuild);
  reference.run(mix, 0, DEEP_PEER_OPS);
  const oursBookAtPrefix = reference.l2();
  reference.run(mix, DEEP_PEER_OPS, DEEP_PEER_OPS + DEEP_CHECK_OPS, oursCheck);

  const rates: DeepRates = { oursPrefix: [], oursFull: [], peers: {} };
  for (let round = 0; round < DEEP_ROUNDS_OURS; round++) {
    const ours = new OursEngine(DEEP_CAPACITY);
    ours.run(build, 0, build.length);
    gc();
    const t0 = performance.now();
    ours.run(mix, 0, DEEP_PEER_OPS);
    const t1 = performance.now();
    ours.run(mix, DEEP_PEER_OPS, mix.length);
    const t2 = performance.now();
    rates.oursPrefix.push(DEEP_PEER_OPS / ((t1 - t0) / 1000));
    rates.oursFull.push(mix.length / ((t2 - t0) / 1000));
  }

  for (const name of PEERS) {
    gc();
    const peer = new PeerEngine(name);
    const buildLog = new FillLog();
    const checkLog = new FillLog();
    peer.run(build, 0, build.length, buildLog);
    rates.peers[name] = timed(peer, peerMix, 0, DEEP_PEER_OPS);
    compareL2(`deep book after ${DEEP_PEER_OPS} mix ops vs ${name}`, oursBookAtPrefix, peer.l2(), diff);
    peer.run(peerMix, DEEP_PEER_OPS, DEEP_PEER_OPS + DEEP_CHECK_OPS, checkLog);
    compareLogs(`deep build fills vs ${name}`, oursBuild, buildLog, diff);
    compareLogs(`deep fills in mix ops ${DEEP_PEER_OPS}..${DEEP_PEER_OPS + DEEP_CHECK_OPS} vs ${name}`, oursCheck, checkLog, diff);
  }
  return rates;
}

interface Latency {
  p50: number;
  p99: number;
  p999: number;
  max: number;
  samples: number;
}

function summarize(samplesMs: Float64Array, n: number): Latency {
  const us = samplesMs.slice(0, n).map((v) => v * 1000).sort();
  return { p50: percentile(us, 50), p99: percentile(us, 99), p999: percentile(us, 99.9), max: us[us.length - 1] ?? NaN, samples: n };
}

/** The mix with every cancel timed on its own; other commands run untimed in between. */
function cancelLatency(book: OrderBook, s: OrderStream): Latency {
  const samples = new Float64Array(s.length);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const k = s.op[i];
    if (k === Op.CANCEL) {
      const t0 = performance.now();
      book.cancel(s.id[i]!);
      samples[n++] = performance.now() - t0;
    } else if (k === Op.LIMIT) book.limit(s.id[i]!, s.side[i] as Side, s.price[i]!, s.qty[i]!);
    else book.market(s.id[i]!, s.side[i] as Side, s.qty[i]!);
  }
  return summarize(samples, n);
}

/**
 * What two back-to-back performance.now() calls cost: the floor under every sample above. The
 * smallest non-zero difference is the clock's effective resolution (Node's performance.now is
 * the monotonic ns clock as fractional ms, not clamped as in browsers).
 */
function timerOverhead(): Latency & { minDeltaNs: number } {
  const samples = new Float64Array(TIMER_SAMPLES);
  let minDelta = Infinity;
  for (let i = 0; i < TIMER_SAMPLES; i++) {
    const t0 = performance.now();
    const d = performance.now() - t0;
    samples[i] = d;
    if (d > 0 && d < minDelta) minDelta = d;
  }
  return { ...summarize(samples, TIMER_SAMPLES), minDeltaNs: minDelta * 1e6 };
}

/** Cancels of random resting orders in back-to-back batches, one clock read per batch. */
function batchCancelMeans(book: OrderBook, count: number, batch: number, seed: number): { median: number; max: number } {
  const random = mulberry32(seed);
  const ids = [...book.snapshotOrders(Side.BID), ...book.snapshotOrders(Side.ASK)].map((o) => o.id);
  for (let i = ids.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [ids[i], ids[j]] = [ids[j]!, ids[i]!];
  }
  const victims = Float64Array.from(ids.slice(0, Math.min(count, ids.length)));
  const means: number[] = [];
  for (let at = 0; at + batch <= victims.length; at += batch) {
    const t0 = performance.now();
    for (let i = at; i < at + batch; i++) book.cancel(victims[i]!);
    means.push(((performance.now() - t0) * 1000) / batch);
  }
  return { median: median(means), max: Math.max(...means) };
}

export async function run(): Promise<BenchResult> {
  const started = performance.now();
  const diff: Differential = { fills: 0, mismatches: 0, detail: [] };

  const steadyStream = generateStream({ seed: SEED, startDepth: STEADY_DEPTH, mixOps: STEADY_OPS });
  const deepStream = generateStream({ seed: SEED + 1, startDepth: DEEP_DEPTH, mixOps: DEEP_OPS });

  const steadyRates = steady(steadyStream, diff);
  gc();
  const deepRates = deep(deepStream, diff);
  gc();

  // (c) cancel latency, after the throughput phases so the code is warm.
  const timer = timerOverhead();
  const steadyBook = new OursEngine(STEADY_DEPTH * 2);
  steadyBook.run(steadyStream.build, 0, steadyStream.build.length);
  gc();
  const cancelSteady = cancelLatency(steadyBook.book, steadyStream.mix);
  const batchSteady = batchCancelMeans(steadyBook.book, 4_000, 100, SEED);
  const deepBook = new OursEngine(DEEP_CAPACITY);
  deepBook.run(deepStream.build, 0, deepStream.build.length);
  gc();
  const cancelDeep = cancelLatency(deepBook.book, deepStream.mix);
  const deepRestingAtCancel = deepBook.book.restingOrders();
  const batchDeep = batchCancelMeans(deepBook.book, 200_000, 1_000, SEED);

  const steadyOurs = median(steadyRates.ours!);
  const steadyPeers = PEERS.map((p) => median(steadyRates[p]!));
  const steadyFaster = Math.max(...steadyPeers);
  const deepOurs = median(deepRates.oursPrefix);
  const deepOursFull = median(deepRates.oursFull);
  const deepPeers = PEERS.map((p) => deepRates.peers[p]!);
  const deepFaster = Math.max(...deepPeers);

  const metrics: BenchResult['metrics'] = {
    seed: SEED,
    stream: 'uniform 1..500 ticks each side of a wandering mid, sizes 1..100 lots, tick 1 / lot 1 (see bench/lib/order-stream.ts)',
    steady_resting_after_build: steadyStream.stats.restingAfterBuild,
    steady_resting_min_max_in_mix: `${steadyStream.stats.minRestingInMix}..${steadyStream.stats.maxRestingInMix}`,
    steady_levels_after_build: steadyStream.stats.levelsAfterBuild,
    steady_mix_ops: STEADY_OPS,
    steady_mix_fills: steadyStream.stats.mixFills,
    steady_mix_limit_cancel_market: `${steadyStream.stats.mixLimits} / ${steadyStream.stats.mixCancels} / ${steadyStream.stats.mixMarkets}`,
    steady_ours_ops_s: Math.round(steadyOurs),
    steady_ours_rounds_ops_s: steadyRates.ours!.map(Math.round).join(', '),
    deep_resting_after_build: deepStream.stats.restingAfterBuild,
    deep_resting_min_max_in_mix: `${deepStream.stats.minRestingInMix}..${deepStream.stats.maxRestingInMix}`,
    deep_levels_after_build: deepStream.stats.levelsAfterBuild,
    deep_build_ops: deepStream.build.length,
    deep_peer_measured_ops: DEEP_PEER_OPS,
    deep_ours_ops_s: Math.round(deepOurs),
    deep_ours_rounds_ops_s: deepRates.oursPrefix.map(Math.round).join(', '),
    deep_ours_full_mix_ops: DEEP_OPS,
    deep_ours_full_mix_ops_s: Math.round(deepOursFull),
    deep_ours_full_mix_rounds_ops_s: deepRates.oursFull.map(Math.round).join(', '),
  };
  PEERS.forEach((p, i) => {
    const key = p.replaceAll('-', '_');
    metrics[`steady_${key}_ops_s`] = Math.round(steadyPeers[i]!);
    metrics[`steady_${key}_rounds_ops_s`] = steadyRates[p]!.map(Math.round).join(', ');
    metrics[`deep_${key}_ops_s`] = Math.round(deepPeers[i]!);
  });
  for (const [name, l] of [
    ['cancel_steady', cancelSteady],
    ['cancel_deep', cancelDeep],
    ['timer_overhead', timer],
  ] as const) {
    metrics[`${name}_p50_us`] = round3(l.p50);
    metrics[`${name}_p99_us`] = round3(l.p99);
    metrics[`${name}_p999_us`] = round3(l.p999);
    metrics[`${name}_max_us`] = round3(l.max);
    metrics[`${name}_samples`] = l.samples;
  }
  metrics['timer_min_nonzero_delta_ns'] = Math.round(timer.minDeltaNs);
  metrics['cancel_deep_resting_orders_at_end'] = deepRestingAtCancel;
  metrics['cancel_timing_note'] =
    'each cancel timed alone with performance.now() (sub-µs resolution in Node); samples include one timer pair, whose own cost is timer_overhead_*';
  metrics['cancel_steady_batch_mean_us_median'] = round3(batchSteady.median);
  metrics['cancel_steady_batch_mean_us_max'] = round3(batchSteady.max);
  metrics['cancel_deep_batch_mean_us_median'] = round3(batchDeep.median);
  metrics['cancel_deep_batch_mean_us_max'] = round3(batchDeep.max);
  metrics['differential_fills_compared'] = diff.fills;
  metrics['differential_mismatches'] = diff.mismatches;
  metrics['differential_detail'] = diff.detail.length === 0 ? 'all fills and books equal' : diff.detail.join(' | ');
  metrics['elapsed_s'] = round2((performance.now() - started) / 1000);

  const steadyRatio = round2(steadyOurs / steadyFaster);
  const deepRatio = round2(deepOurs / deepFaster);
  return {
    name: 'matching',
    description:
      'Our matching engine vs nodejs-order-book 10.1.1 and hft-limit-order-book 7.0.2 on the same seeded streams, same run: ' +
      `ops/s on a 70/20/10 limit/cancel/market mix at ~${STEADY_DEPTH.toLocaleString('en')} resting orders (median of ${STEADY_ROUNDS} alternating rounds) and ` +
      `at ~${DEEP_DEPTH.toLocaleString('en')} resting orders (peers and ours on the same first ${DEEP_PEER_OPS.toLocaleString('en')} mix ops; ours also on ${DEEP_OPS.toLocaleString('en')}); ` +
      'our cancel latency at both depths; every fill compared with both peers.',
    metrics,
    ratios: {
      steady_ours_over_faster_peer: steadyRatio,
      deep_ours_over_faster_peer: deepRatio,
      deep_full_mix_ours_over_faster_peer: round2(deepOursFull / deepFaster),
    },
    targets: {
      steady_ours_over_faster_peer: target(steadyRatio, 5, '>='),
      deep_ours_over_faster_peer: target(deepRatio, 50, '>='),
      cancel_steady_p99_us: target(round3(cancelSteady.p99), 5, '<='),
      cancel_deep_p99_us: target(round3(cancelDeep.p99), 5, '<='),
      differential_mismatches: target(diff.mismatches, 0, '<='),
    },
  };
}

await runIfMain(import.meta.url, run);
