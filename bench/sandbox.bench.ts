/**
 * The sandbox venue's fills on one thread, against the live simulated venue in the same run:
 *
 *   two SimVenues (binance, BTC-USDT, same seed, after a minute of simulated flow), each
 *   advanced 1 ms of simulated time before every order (the edge advances its venue before a
 *   leg too, and without it the live orders would empty the book):
 *     live:    advance + SimVenue.executeIoc(0.01 BTC, alternating sides)   matches, changes the book
 *     sandbox: advance + levelsInto (50 levels a side, as the edge reads its book)
 *              + SandboxVenue.executeIoc(the same order)                     walks the view, changes nothing
 *   and the simulator alone: SandboxVenue.executeIoc on one fixed view (its fills/s on one thread).
 *
 * Same tinybench run. Reported: the sandbox's orders/s and fills/s, and its time per order over
 * the live one's.
 */
import { Bench } from 'tinybench';
import { Side } from '../domain/market.ts';
import { rulesOf } from '../domain/venues.ts';
import { DEPTH_LEVELS } from '../actors/edge/depth-cache.ts';
import { SandboxVenue } from '../actors/edge/sandbox/sandbox-venue.ts';
import { simEdge } from '../actors/edge/sim/catalog.ts';
import { LatentPriceModel } from '../actors/edge/sim/latent-price.ts';
import { SimVenue, type VenueSink } from '../actors/edge/sim/sim-venue.ts';
import { runIfMain, type BenchResult } from './lib/results.ts';

const SYMBOL = 'BTC-USDT';
const EDGE = 'venue-edge-binance';
const QTY = 1_000_000; // 0.01 BTC
const T0 = 1_795_000_000_000_000_000;
const NS_PER_MS = 1_000_000;
const TIME_MS = 1_500;

export async function run(): Promise<BenchResult> {
  const spec = simEdge(EDGE)!;
  const sink: VenueSink = { onLevel() {}, onTrade() {}, onStatus() {} };
  const venue = () => {
    const sim = new SimVenue(spec, new LatentPriceModel(11), 11, sink, { start_ns: T0 });
    sim.subscribe(SYMBOL);
    // A minute of the venue's own flow, so the book has its usual depth.
    for (let i = 1; i <= 6_000; i++) sim.advance(T0 + i * 10 * NS_PER_MS);
    return sim;
  };
  const liveSim = venue();
  const sandboxSim = venue();
  let liveNow = T0 + 60_000 * NS_PER_MS;
  let sandboxNow = liveNow;
  const sandbox = new SandboxVenue({ edge_id: EDGE, taker_bps: spec.taker_bps, maker_bps: spec.maker_bps, venue_latency_ms: spec.market.latency_ms, rules: (s) => rulesOf(EDGE, s) }, { seed: 1 });
  const book = { bidsPx: new Float64Array(DEPTH_LEVELS), bidsQty: new Float64Array(DEPTH_LEVELS), bidCount: 0, asksPx: new Float64Array(DEPTH_LEVELS), asksQty: new Float64Array(DEPTH_LEVELS), askCount: 0 };
  const fixed = { bidsPx: new Float64Array(DEPTH_LEVELS), bidsQty: new Float64Array(DEPTH_LEVELS), bidCount: 0, asksPx: new Float64Array(DEPTH_LEVELS), asksQty: new Float64Array(DEPTH_LEVELS), askCount: 0 };
  fixed.bidCount = sandboxSim.levelsInto(SYMBOL, Side.BID, DEPTH_LEVELS, fixed.bidsPx, 0, fixed.bidsQty, 0);
  fixed.askCount = sandboxSim.levelsInto(SYMBOL, Side.ASK, DEPTH_LEVELS, fixed.asksPx, 0, fixed.asksQty, 0);
  const count = { live: [0, 0], sandbox: [0, 0], walk: [0, 0] };
  let side: Side = Side.BID;
  const flip = () => (side = side === Side.BID ? Side.ASK : Side.BID);
  const bench = new Bench({ time: TIME_MS, warmupTime: 300 });
  bench
    .add('live: advance + SimVenue.executeIoc', () => {
      liveNow += NS_PER_MS;
      const r = liveSim.executeIoc(SYMBOL, flip(), QTY, undefined, liveNow);
      count.live[0]!++;
      count.live[1]! += r.fills.length;
    })
    .add('sandbox: advance + book view + SandboxVenue.executeIoc', () => {
      sandboxNow += NS_PER_MS;
      sandboxSim.advance(sandboxNow);
      book.bidCount = sandboxSim.levelsInto(SYMBOL, Side.BID, DEPTH_LEVELS, book.bidsPx, 0, book.bidsQty, 0);
      book.askCount = sandboxSim.levelsInto(SYMBOL, Side.ASK, DEPTH_LEVELS, book.asksPx, 0, book.asksQty, 0);
      const r = sandbox.executeIoc(book, SYMBOL, flip(), QTY, undefined, sandboxNow);
      count.sandbox[0]!++;
      count.sandbox[1]! += r.fills.length;
    })
    .add('the simulator alone: SandboxVenue.executeIoc on a fixed view', () => {
      const r = sandbox.executeIoc(fixed, SYMBOL, flip(), QTY, undefined, sandboxNow);
      count.walk[0]!++;
      count.walk[1]! += r.fills.length;
    });
  await bench.run();
  const meanNs = (i: number) => (bench.tasks[i]!.result as { latency: { mean: number } }).latency.mean * 1e6;
  const [liveNs, sandboxNs, walkNs] = [meanNs(0), meanNs(1), meanNs(2)];
  const perOrder = ([orders, fills]: number[]) => fills! / orders!;
  if (perOrder(count.live) < 0.9 || perOrder(count.sandbox) < 0.9 || perOrder(count.walk) < 0.9) throw new Error(`orders did not fill: ${JSON.stringify(count)}`);
  return {
    name: 'sandbox',
    description: `one 0.01 BTC IOC market order (alternating sides) on ${EDGE} ${SYMBOL}, the venue advanced 1 ms of simulated time before each: the sandbox venue (a ${DEPTH_LEVELS}-level book view read as the edge reads it, then the walk, the book unchanged) against the live simulated venue's matching, and the sandbox walk alone on a fixed view; same tinybench run, ${TIME_MS} ms each`,
    metrics: {
      live_ns_per_order: Math.round(liveNs),
      sandbox_ns_per_order: Math.round(sandboxNs),
      simulator_ns_per_order: Math.round(walkNs),
      simulator_orders_per_s: Math.round(1e9 / walkNs),
      simulator_fills_per_s: Math.round((1e9 / walkNs) * perOrder(count.walk)),
      live_fills_per_order: Number(perOrder(count.live).toFixed(2)),
      sandbox_fills_per_order: Number(perOrder(count.sandbox).toFixed(2)),
    },
    ratios: { sandbox_over_live_time_per_order: Number((sandboxNs / liveNs).toFixed(2)) },
    targets: {},
  };
}

await runIfMain(import.meta.url, run);
