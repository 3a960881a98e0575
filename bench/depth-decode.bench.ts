/**
 * A live venue's depth updates, decoded and applied on one thread (issue 16), for every venue
 * with a pure book core, against the simulated edge producing the same book changes, in the
 * same run:
 *
 *   simulated: SimVenue.advance over 100 ms (ten 10 ms steps, as the edge ticks) for every
 *              subscribed symbol of the edge, its level events buffered per symbol as the edge
 *              buffers them
 *   venues:    the same 100 ms of changes as that venue's frames, one per symbol that changed,
 *              each parsed, decoded to integers exactly, held to the venue's sequence or checksum
 *              and applied to the symbol's L2 book by the venue's own sync, as its adapter's
 *              `onFrame` does (bench/lib/venue-replays.ts):
 *     binance      `depthUpdate` on the combined stream, U/u ids over a REST snapshot
 *     okx          `books` updates, seqId/prevSeqId and the CRC-32 of the top 25 over the text
 *                  (OKX stopped sending it in June 2026, the sync still checks one when present:
 *                  the worst case is measured)
 *     kraken       v2 `book` at depth 100, numbers as JSON numbers, the CRC-32 of the top 10
 *     coinbase     `l2_data`, the connection's `sequence_num` through its SequenceGate
 *     bybit        `orderbook.50` deltas, `u` rising by one
 *     kucoin       `/market/level2` increments, sequenceStart/End over a REST snapshot
 *     bitstamp     `diff_order_book` by microtimestamp over a REST snapshot
 *     hyperliquid  `l2Book`, the whole top 20 a side every push, diffed by the sync
 *     kalshi       `orderbook_snapshot`, then one `orderbook_delta` per level (a signed size
 *                  change), `seq` per subscription through KalshiBookStream
 *     polymarket   `book` events, then `price_change` events of absolute sizes, no sequence
 *                  (held to the venue's timestamps)
 *   The prediction venues get each symbol's prices divided by a power of ten into (0, 1): the
 *   same changes as YES prices, decimal text of the same length or so.
 *
 * Five minutes of the simulated venue's flow are recorded first, as each symbol's net level
 * changes per 100 ms (what a venue's 100 ms depth stream carries), then written as every
 * venue's frames with the ids, sequences and checksums its rules need, computed independently
 * of the syncs (bench/lib/venue-frames.ts). Before timing, each venue's frames are replayed once
 * and every book checked against the simulated venue's: no gap, and the same levels.
 *
 * One iteration on either side is 100 ms of the same market: the ratio simulated / venue time
 * says how much faster (> 1) or slower the venue's path handles the flow than the simulated
 * edge makes it. Every task runs once per round, five rounds one after the other, and the
 * ratio is the median round's; beside the wall time (tinybench means), the process's CPU time
 * per call, which other load on the machine does not stretch. Per venue: frames/s, levels/s,
 * µs per frame.
 */
import { Side } from '../domain/market.ts';
import { simEdge, type SimEdgeSpec } from '../actors/edge/sim/catalog.ts';
import { LatentPriceModel } from '../actors/edge/sim/latent-price.ts';
import { SimVenue, type VenueSink } from '../actors/edge/sim/sim-venue.ts';
import { recordFlow, STEP_MS, type Recording } from './lib/venue-frames.ts';
import { REPLAYS, type Replay } from './lib/venue-replays.ts';
import { runIfMain, type BenchResult } from './lib/results.ts';
import { measureRounds, median, medianOfRounds } from './lib/rounds.ts';

const EDGE = 'venue-edge-binance';
const SEED = 11;
const T0 = 1_795_000_000_000_000_000;
const NS_PER_MS = 1_000_000;
const WARMUP_MS = 6_000;
const SLICE_MS = 100;
const SLICES = 3_000; // five minutes of the venue's flow
/** Rounds of every task, and each task's time per round (ms). */
const ROUNDS = 5;
const TIME_MS = 400;
const WARMUP_TIME_MS = 100;
const SIMULATED = 'simulated edge: advance 100 ms';

/** The edge without its injected faults: a disconnect would cut the recording's flow (and the baseline's work) short. */
function steady(spec: SimEdgeSpec): SimEdgeSpec {
  return { ...spec, faults: { ...spec.faults, disconnect_per_h: 0, stale_per_h: 0, lag_per_h: 0 } };
}

/** The simulated side: a fresh venue from the same seed, 100 ms per call, its events buffered per symbol. */
function simulatedTask(spec: SimEdgeSpec): { run: () => void; levelsPerRun: () => number } {
  const buffered = new Map<string, number[]>();
  const sink: VenueSink = {
    onLevel: (symbol, side, price, qty) => {
      let buffer = buffered.get(symbol);
      if (buffer === undefined) buffered.set(symbol, (buffer = []));
      buffer.push(side, price, qty);
    },
    onTrade() {},
    onStatus() {},
  };
  const sim = new SimVenue(spec, new LatentPriceModel(SEED), SEED, sink, { start_ns: T0 });
  let now = T0;
  let levels = 0;
  let runs = 0;
  return {
    run: () => {
      runs++;
      for (let t = 0; t < SLICE_MS; t += STEP_MS) sim.advance((now += STEP_MS * NS_PER_MS));
      for (const buffer of buffered.values()) {
        levels += buffer.length / 3;
        buffer.length = 0;
      }
    },
    levelsPerRun: () => levels / Math.max(1, runs),
  };
}

/** The venue's frames replayed whole once; every book must be the simulated venue's (to the venue's depth), with no failure. */
function verify(replay: Replay, rec: Recording): void {
  replay.open();
  for (const frames of replay.stream.slices) for (const text of frames) replay.apply(text);
  const depth = replay.stream.depth ?? Infinity;
  rec.symbols.forEach((symbol, i) => {
    const divisor = replay.stream.priceDivisors[i]!;
    for (const side of [Side.BID, Side.ASK] as const) {
      const want = rec.closing[i]!.flat(side, depth).map((x, k) => (k % 2 === 0 ? x / divisor : x)).join();
      const got = replay.feeds.list[i]!.book.flat(side, 100_000).join();
      if (got !== want) throw new Error(`${replay.venue}: ${symbol} ${side === Side.BID ? 'bids' : 'asks'} differ from the simulated venue's after the replay`);
    }
  });
  if (replay.feeds.failures !== 0) throw new Error(`${replay.venue}: ${replay.feeds.failures} gaps or unread frames in the replay`);
}

/** One 100 ms slice of the venue's frames per call, from the start again when the recording runs out. */
function venueTask(replay: Replay): () => void {
  const slices = replay.stream.slices;
  let next = slices.length;
  return () => {
    // Every book back to its snapshot: inside the timing, once in 3,000 slices.
    if (next === slices.length) {
      replay.open();
      next = 0;
    }
    const frames = slices[next++]!;
    for (let i = 0; i < frames.length; i++) replay.apply(frames[i]!);
  };
}

const taskName = (venue: string) => `${venue}: 100 ms of frames, parsed, decoded, checked, applied`;

export async function run(): Promise<BenchResult> {
  const spec = steady(simEdge(EDGE)!);
  const rec = recordFlow(spec, SEED, T0, WARMUP_MS, SLICE_MS, SLICES);
  const replays = REPLAYS.map((make) => make(rec));
  for (const replay of replays) verify(replay, rec);

  const sim = simulatedTask(spec);
  const timed = await measureRounds([[SIMULATED, sim.run], ...replays.map((r) => [taskName(r.venue), venueTask(r)] as const)], { rounds: ROUNDS, timeMs: TIME_MS, warmupMs: WARMUP_TIME_MS });
  const sims = timed.get(SIMULATED)!;
  const simMs = median(sims.wallMs);
  const simEvents = sim.levelsPerRun();
  const recordedEvents = rec.slices.reduce((n, s) => n + s.events, 0) / SLICES;
  const metrics: BenchResult['metrics'] = {
    symbols: rec.symbols.length,
    rounds: ROUNDS,
    recorded_level_events_per_100ms: Number(recordedEvents.toFixed(1)),
    simulated_level_events_per_100ms: Number(simEvents.toFixed(1)),
    simulated_us_per_100ms: Number((simMs * 1000).toFixed(2)),
    simulated_cpu_us_per_100ms: Number(median(sims.cpuUs).toFixed(2)),
    simulated_level_events_per_s: Math.round((simEvents * 1000) / simMs),
  };
  const ratios: BenchResult['ratios'] = {};
  for (const replay of replays) {
    const v = replay.venue;
    const t = timed.get(taskName(v))!;
    const ms = median(t.wallMs);
    const frames = replay.stream.slices.reduce((n, s) => n + s.length, 0) / SLICES;
    const levels = replay.stream.levels / SLICES;
    if (replay.feeds.failures !== 0) throw new Error(`${v}: ${replay.feeds.failures} gaps or unread frames while timed`);
    metrics[`${v}_frames_per_100ms`] = Number(frames.toFixed(2));
    metrics[`${v}_levels_per_frame`] = Number((levels / frames).toFixed(1));
    metrics[`${v}_frames_per_s`] = Math.round((frames * 1000) / ms);
    metrics[`${v}_levels_per_s`] = Math.round((levels * 1000) / ms);
    metrics[`${v}_us_per_frame`] = Number(((ms * 1000) / frames).toFixed(2));
    metrics[`${v}_cpu_us_per_frame`] = Number((median(t.cpuUs) / frames).toFixed(2));
    metrics[`${v}_gaps`] = replay.feeds.failures;
    // Per round, simulated over venue for the same 100 ms; the median round.
    ratios[`${v}_over_simulated`] = Number(medianOfRounds(sims.wallMs, t.wallMs, (s, x) => s / x).toFixed(2));
    ratios[`${v}_over_simulated_cpu`] = Number(medianOfRounds(sims.cpuUs, t.cpuUs, (s, x) => s / x).toFixed(2));
  }
  return {
    name: 'depth-decode',
    description:
      'depth updates on one thread, per venue format: 100 ms of the simulated Binance edge\'s level changes (all its subscribed symbols, recorded once) as each venue\'s frames, parsed, decoded exactly, sequence- or checksum-checked and applied by the venue\'s own sync, against the simulated edge producing the same 100 ms; ratio = simulated time / venue time for the same 100 ms (wall: tinybench means; cpu: process CPU time per call), median of 5 interleaved rounds',
    metrics,
    ratios,
    targets: {},
  };
}

await runIfMain(import.meta.url, run);
