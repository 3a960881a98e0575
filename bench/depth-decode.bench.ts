/**
 * A live venue's depth updates, decoded and applied on one thread (issue 16), against the
 * simulated edge producing the same book changes, in the same run:
 *
 *   simulated: SimVenue.advance over 100 ms (ten 10 ms steps, as the edge ticks), its level
 *              events buffered as the edge buffers them
 *   binance:   the same level changes as Binance `depthUpdate` frames on the combined stream
 *              (one per 100 ms, decimal strings): JSON.parse, decode to integers exactly
 *              (decimal.ts), diff-depth sequence check and apply to the L2 book (depth-sync.ts)
 *   okx:       the same changes as OKX `books` updates (seqId/prevSeqId, and the CRC32 checksum
 *              of the top 25 levels over the venue's text, which OKX stopped sending in June
 *              2026 but which the sync still checks when present: the worst case is measured)
 *
 * The frames are recorded from the simulated venue first, so both sides carry the same levels.
 * Reported: frames/s and levels/s on each side, and their ratio (live decode over simulation).
 */
import { Bench } from 'tinybench';
import { Side } from '../domain/market.ts';
import { simEdge } from '../actors/edge/sim/catalog.ts';
import { LatentPriceModel } from '../actors/edge/sim/latent-price.ts';
import { SimVenue, type VenueSink } from '../actors/edge/sim/sim-venue.ts';
import { formatScaled } from '../actors/edge/live/decimal.ts';
import { L2Book } from '../actors/edge/live/l2-book.ts';
import { DiffDepthSync } from '../actors/edge/live/binance/depth-sync.ts';
import { decodeDepthUpdate } from '../actors/edge/live/binance/codec.ts';
import { OkxBookSync } from '../actors/edge/live/okx/book-sync.ts';
import { decodeBookFrame } from '../actors/edge/live/okx/codec.ts';
import { crc32 } from 'node:zlib';
import { runIfMain, type BenchResult } from './lib/results.ts';

const SYMBOL = 'BTC-USDT';
const EDGE = 'venue-edge-binance';
const T0 = 1_795_000_000_000_000_000;
const NS_PER_MS = 1_000_000;
const FRAME_MS = 100;
const FRAMES = 3_000; // five minutes of the venue's flow
const TIME_MS = 1_500;

export async function run(): Promise<BenchResult> {
  const spec = simEdge(EDGE)!;
  // 1. Record five minutes of the simulated venue's level changes, one frame per 100 ms.
  const pending: number[] = [];
  const recorder: VenueSink = { onLevel: (_s, side, price, qty) => void pending.push(side, price, qty), onTrade() {}, onStatus() {} };
  const recorded = new SimVenue(spec, new LatentPriceModel(11), 11, recorder, { start_ns: T0 });
  recorded.subscribe(SYMBOL);
  for (let i = 1; i <= 600; i++) recorded.advance(T0 + i * 10 * NS_PER_MS);
  const snapshot = recorded.snapshot(SYMBOL, 1_000, T0 + 6_000 * NS_PER_MS)!;
  pending.length = 0;
  const frames: string[] = [];
  const okxFrames: string[] = [];
  // The OKX side's own view of the book, to write each frame's checksum as the venue would.
  const okxBook = { bids: new Map<number, [string, string]>(), asks: new Map<number, [string, string]>() };
  const okxText = (price: number, qty: number): [string, string] => [formatScaled(price, 9), formatScaled(qty, 8)];
  for (const l of snapshot.bids) okxBook.bids.set(l.price_1e9, okxText(l.price_1e9, l.qty_1e8));
  for (const l of snapshot.asks) okxBook.asks.set(l.price_1e9, okxText(l.price_1e9, l.qty_1e8));
  const okxChecksum = () => {
    const bids = [...okxBook.bids].sort((a, b) => b[0] - a[0]).slice(0, 25);
    const asks = [...okxBook.asks].sort((a, b) => a[0] - b[0]).slice(0, 25);
    const parts: string[] = [];
    for (let i = 0; i < 25; i++) {
      if (bids[i] !== undefined) parts.push(...bids[i]![1]);
      if (asks[i] !== undefined) parts.push(...asks[i]![1]);
    }
    return crc32(parts.join(':')) | 0;
  };
  let seq = 500;
  let levels = 0;
  let id = 1_000_000;
  let now = T0 + 6_000 * NS_PER_MS;
  for (let f = 0; f < FRAMES; f++) {
    for (let s = 0; s < FRAME_MS / 10; s++) recorded.advance((now += 10 * NS_PER_MS));
    const b: [string, string][] = [];
    const a: [string, string][] = [];
    for (let i = 0; i < pending.length; i += 3) {
      const text = okxText(pending[i + 1]!, pending[i + 2]!);
      (pending[i] === Side.BID ? b : a).push(text);
      const side = pending[i] === Side.BID ? okxBook.bids : okxBook.asks;
      if (pending[i + 2] === 0) side.delete(pending[i + 1]!);
      else side.set(pending[i + 1]!, text);
    }
    levels += pending.length / 3;
    pending.length = 0;
    const first = id + 1;
    id += Math.max(1, b.length + a.length);
    frames.push(JSON.stringify({ stream: 'btcusdt@depth@100ms', data: { e: 'depthUpdate', E: Math.floor(now / NS_PER_MS), s: 'BTCUSDT', U: first, u: id, b, a } }));
    const level = (l: [string, string]) => [l[0], l[1], '0', '1'];
    okxFrames.push(JSON.stringify({ arg: { channel: 'books', instId: 'BTC-USDT' }, action: 'update', data: [{ asks: a.map(level), bids: b.map(level), ts: String(Math.floor(now / NS_PER_MS)), checksum: okxChecksum(), prevSeqId: seq, seqId: seq + 1 }] }));
    seq++;
  }
  const levelsPerFrame = levels / FRAMES;

  // 2. The simulated side: a fresh venue from the same seed, advanced 100 ms per iteration.
  const buffered = new Map<string, number[]>();
  const edgeSink: VenueSink = {
    onLevel: (symbol, side, price, qty) => {
      let buffer = buffered.get(symbol);
      if (buffer === undefined) buffered.set(symbol, (buffer = []));
      buffer.push(side, price, qty);
    },
    onTrade() {},
    onStatus() {},
  };
  const sim = new SimVenue(spec, new LatentPriceModel(11), 11, edgeSink, { start_ns: T0 });
  sim.subscribe(SYMBOL);
  let simNow = T0;
  let simLevels = 0;
  let simFrames = 0;

  // 3. The live side: the recorded frames through the Binance adapter's pure path.
  const book = new L2Book();
  const changes: number[] = [];
  const sync = new DiffDepthSync(book, changes);
  const snapshotBids = snapshot.bids.flatMap((l) => [l.price_1e9, l.qty_1e8]);
  const snapshotAsks = snapshot.asks.flatMap((l) => [l.price_1e9, l.qty_1e8]);
  const firstId = 1_000_000;
  sync.onSnapshot(firstId, snapshotBids, snapshotAsks);
  let next = 0;
  let liveLevels = 0;
  let gaps = 0;

  // 4. OKX: its snapshot push, then the recorded updates through its sync (sequence and checksum).
  const okxLevel = (l: { price_1e9: number; qty_1e8: number }) => [...okxText(l.price_1e9, l.qty_1e8), '0', '1'];
  const okxSnapshotFrame = decodeBookFrame(JSON.parse(JSON.stringify({ arg: { channel: 'books', instId: 'BTC-USDT' }, action: 'snapshot', data: [{ asks: snapshot.asks.map(okxLevel), bids: snapshot.bids.map(okxLevel), ts: '0', checksum: 0, prevSeqId: -1, seqId: 500 }] })))!;
  const okxChanges: number[] = [];
  const okxSync = new OkxBookSync(new L2Book(), okxChanges);
  okxSync.onPush('snapshot', okxSnapshotFrame.data[0]!);
  let okxNext = 0;
  let okxGaps = 0;

  const bench = new Bench({ time: TIME_MS, warmupTime: 300 });
  bench
    .add('simulated edge: advance 100 ms', () => {
      for (let s = 0; s < FRAME_MS / 10; s++) sim.advance((simNow += 10 * NS_PER_MS));
      for (const buffer of buffered.values()) {
        simLevels += buffer.length / 3;
        buffer.length = 0;
      }
      simFrames++;
    })
    .add('binance: parse + decode + sync + apply one frame', () => {
      if (next === FRAMES) {
        // The recording ran out: start over from its snapshot (not timed apart; one in 3,000).
        next = 0;
        sync.reset();
        sync.onSnapshot(firstId, snapshotBids, snapshotAsks);
      }
      const frame = JSON.parse(frames[next++]!) as { data: unknown };
      const decoded = decodeDepthUpdate(frame.data)!;
      if (sync.onEvent(decoded.event) === 'gap') gaps++;
      liveLevels += changes.length / 3;
      changes.length = 0;
    })
    .add('okx: parse + decode + sequence + checksum + apply one frame', () => {
      if (okxNext === FRAMES) {
        okxNext = 0;
        okxSync.reset();
        okxSync.onPush('snapshot', okxSnapshotFrame.data[0]!);
      }
      const frame = decodeBookFrame(JSON.parse(okxFrames[okxNext++]!))!;
      if (okxSync.onPush(frame.action, frame.data[0]!) === 'gap') okxGaps++;
      okxChanges.length = 0;
    });
  await bench.run();
  const mean = (name: string) => (bench.getTask(name)!.result as { latency: { mean: number } }).latency.mean; // ms
  const simMs = mean('simulated edge: advance 100 ms');
  const liveMs = mean('binance: parse + decode + sync + apply one frame');
  const okxMs = mean('okx: parse + decode + sequence + checksum + apply one frame');
  const simLevelsPerFrame = simLevels / Math.max(1, simFrames);
  const metrics: BenchResult['metrics'] = {
    recorded_levels_per_frame: Number(levelsPerFrame.toFixed(1)),
    simulated_frames_per_s: Math.round(1000 / simMs),
    simulated_levels_per_s: Math.round((simLevelsPerFrame * 1000) / simMs),
    binance_frames_per_s: Math.round(1000 / liveMs),
    binance_levels_per_s: Math.round((levelsPerFrame * 1000) / liveMs),
    binance_us_per_frame: Number((liveMs * 1000).toFixed(2)),
    binance_levels_applied: liveLevels,
    binance_gaps: gaps,
    okx_frames_per_s: Math.round(1000 / okxMs),
    okx_levels_per_s: Math.round((levelsPerFrame * 1000) / okxMs),
    okx_us_per_frame: Number((okxMs * 1000).toFixed(2)),
    okx_gaps: okxGaps,
  };
  return {
    name: 'depth-decode',
    description:
      'depth updates on one thread: a Binance depthUpdate frame (recorded from the simulated venue, one per 100 ms) parsed, decoded exactly, sequence-checked and applied to the live L2 book, against the simulated edge producing the same 100 ms of changes; tinybench means',
    metrics,
    ratios: {
      binance_over_simulated_levels_per_s: Number(((levelsPerFrame / liveMs) / (simLevelsPerFrame / simMs)).toFixed(2)),
      okx_over_simulated_levels_per_s: Number(((levelsPerFrame / okxMs) / (simLevelsPerFrame / simMs)).toFixed(2)),
    },
    targets: {},
  };
}

await runIfMain(import.meta.url, run);
