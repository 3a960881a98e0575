/**
 * Cross-thread messaging: the SPSC ring (engine/ring) against worker.postMessage, same run.
 *
 * (a) one-way throughput, 64-byte messages, 5 alternating rounds, median round reported
 *
 *     producer worker --tryWrite per message--> [64 KiB ring] --read(batch 256)--> consumer worker
 *     producer worker --port.postMessage(Uint8Array(64)), <= 1024 in flight--> consumer worker
 *
 * (b) round trip, one message in flight, continuous traffic, p50 / p99 / p99.9 over 3 rounds
 *     that alternate between the four transports (samples pooled)
 *
 *     pinger worker --ring A--> ponger worker        idle strategy on both sides:
 *           ^                        |               spin       busy-spin on RingReader
 *           +--------ring B----------+               spin-park  Mailbox: 2,000 empty polls, park()
 *                                                    wait       Mailbox: park() at once (futex)
 *     pinger worker --postMessage--> ponger worker --postMessage--> pinger (baseline)
 *
 * (c) idle cost of spin-then-park: one message per ms for ~1 s
 *
 *     producer worker --1 msg / ms--> [ring] --> consumer worker: spin K polls, then Mailbox.park
 *     consumer thread CPU time (/proc/thread-self/schedstat) / wall time, K = 0, 2,000, 20,000
 *
 * Targets: ring throughput >= 8x postMessage; p50(ring spin) <= 1/30 of p50(postMessage).
 */
import { MessageChannel, Worker, type TransferListItem } from 'node:worker_threads';
import { setTimeout as sleep } from 'node:timers/promises';
import { createControl, createRing } from '../engine/ring/spsc-ring.ts';
import { percentile, target, runIfMain, type BenchResult } from './lib/results.ts';
import type { BenchJob, BenchReport, IdleMode, OrchestratorMessage } from './lib/ring-bench-jobs.ts';

const BOOT = new URL('./lib/ring-bench-boot.mjs', import.meta.url);

const TP_ROUNDS = 5;
const TP_RING_MESSAGES = 3_000_000;
const TP_POST_MESSAGES = 150_000;
const TP_RING_CAPACITY = 64 * 1024;
const PP_RING_CAPACITY = 4 * 1024;
const PP_ROUNDS = 3;
/** Pause between measurements, for background GC and the previous pair's threads to wind down. */
const SETTLE_MS = 250;
const IDLE_SPIN_COUNTS = [0, 2_000, 20_000];
const IDLE_INTERVAL_MS = 1;
const IDLE_DURATION_MS = 1_000;
/** The runtime's defaults (engine/topology.ts). */
const DEFAULT_SPIN_POLLS = 2_000;
const PARK_MAX_MS = 50;

class BenchWorker {
  private readonly worker: Worker;
  private readonly queue: BenchReport[] = [];
  private readonly waiters: { resolve(r: BenchReport): void; reject(e: unknown): void }[] = [];
  private failure: unknown;

  constructor(job: BenchJob, transfer: TransferListItem[] = []) {
    this.worker = new Worker(BOOT, { workerData: job, transferList: transfer });
    this.worker.on('message', (report: BenchReport) => {
      const waiter = this.waiters.shift();
      if (waiter !== undefined) waiter.resolve(report);
      else this.queue.push(report);
    });
    const fail = (err: unknown) => {
      this.failure ??= err;
      for (const waiter of this.waiters.splice(0)) waiter.reject(err);
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`${job.role} worker exited (code ${code})`)));
  }

  next<K extends BenchReport['kind']>(kind: K): Promise<Extract<BenchReport, { kind: K }>> {
    const check = (report: BenchReport) => {
      if (report.kind !== kind) throw new Error(`expected ${kind}, got ${report.kind}`);
      return report as Extract<BenchReport, { kind: K }>;
    };
    const queued = this.queue.shift();
    if (queued !== undefined) return Promise.resolve(check(queued));
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise<BenchReport>((resolve, reject) => this.waiters.push({ resolve, reject })).then(check);
  }

  send(message: OrchestratorMessage): void {
    this.worker.postMessage(message);
  }

  async terminate(): Promise<void> {
    await this.worker.terminate();
  }
}

async function withWorkers<T>(workers: BenchWorker[], body: () => Promise<T>): Promise<T> {
  try {
    await Promise.all(workers.map((w) => w.next('ready')));
    return await body();
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

function release(go: SharedArrayBuffer, value: number): void {
  const flag = new Int32Array(go);
  Atomics.store(flag, 0, value);
  Atomics.notify(flag, 0);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** (a) Rounds alternate ring / postMessage so VM drift hits both alike. */
async function throughput(): Promise<{ ring: number[]; post: number[] }> {
  const ring = createRing(TP_RING_CAPACITY);
  const ringGo = new SharedArrayBuffer(4);
  const postGo = new SharedArrayBuffer(4);
  const received = new SharedArrayBuffer(4);
  const channel = new MessageChannel();
  const ringConsumer = new BenchWorker({ role: 'tp-ring-consumer', ring, go: ringGo, messages: TP_RING_MESSAGES, rounds: TP_ROUNDS, batch: 256 });
  const ringProducer = new BenchWorker({
    role: 'tp-ring-producer',
    ring,
    control: createControl(),
    go: ringGo,
    messages: TP_RING_MESSAGES,
    rounds: TP_ROUNDS,
  });
  const postConsumer = new BenchWorker({ role: 'tp-post-consumer', port: channel.port2, received, messages: TP_POST_MESSAGES }, [channel.port2]);
  const postProducer = new BenchWorker(
    { role: 'tp-post-producer', port: channel.port1, go: postGo, received, messages: TP_POST_MESSAGES, rounds: TP_ROUNDS, window: 1024 },
    [channel.port1],
  );
  return withWorkers([ringConsumer, ringProducer, postConsumer, postProducer], async () => {
    const rates = { ring: [] as number[], post: [] as number[] };
    for (let round = 0; round < TP_ROUNDS; round++) {
      await sleep(SETTLE_MS);
      release(ringGo, round + 1);
      const r = await ringConsumer.next('tp-round');
      rates.ring.push(r.messages / (r.elapsedMs / 1000));
      await sleep(SETTLE_MS);
      release(postGo, round + 1);
      const p = await postConsumer.next('tp-round');
      rates.post.push(p.messages / (p.elapsedMs / 1000));
    }
    await Promise.all([ringProducer.next('done'), postProducer.next('done')]);
    return rates;
  });
}

interface Latency {
  p50: number;
  p99: number;
  p999: number;
  samples: number;
  /** p50 of each round, to show drift between rounds. */
  roundP50s: number[];
}

function latency(rounds: Float64Array[]): Latency {
  const pooled = new Float64Array(rounds.reduce((n, r) => n + r.length, 0));
  let at = 0;
  for (const r of rounds) {
    pooled.set(r, at);
    at += r.length;
  }
  pooled.sort();
  const roundP50s = rounds.map((r) => percentile(Float64Array.from(r).sort(), 50));
  return { p50: percentile(pooled, 50), p99: percentile(pooled, 99), p999: percentile(pooled, 99.9), samples: pooled.length, roundP50s };
}

/** One ping-pong pair, kept alive across rounds; `round()` returns that round's RTTs in µs. */
interface PingPong {
  workers: BenchWorker[];
  round(index: number): Promise<Float64Array>;
}

/** (b) Ring ping-pong with the given idle strategy on both threads. */
function ringPingPong(idle: IdleMode, samples: number): PingPong {
  const a = createRing(PP_RING_CAPACITY);
  const b = createRing(PP_RING_CAPACITY);
  const pingerControl = createControl();
  const pongerControl = createControl();
  const go = new SharedArrayBuffer(4);
  const common = { idle, go, rounds: PP_ROUNDS, warmup: Math.max(2_000, samples / 10), samples };
  const pinger = new BenchWorker({ role: 'pp-ring-pinger', inbound: b, outbound: a, ownControl: pingerControl, peerControl: pongerControl, ...common });
  const ponger = new BenchWorker({ role: 'pp-ring-ponger', inbound: a, outbound: b, ownControl: pongerControl, peerControl: pingerControl, ...common });
  return {
    workers: [pinger, ponger],
    async round(index) {
      release(go, index + 1);
      const [rtt] = await Promise.all([pinger.next('rtt'), ponger.next('done')]);
      return rtt.samplesUs;
    },
  };
}

function postPingPong(samples: number): PingPong {
  const channel = new MessageChannel();
  const ponger = new BenchWorker({ role: 'pp-post-ponger', port: channel.port2 }, [channel.port2]);
  const pinger = new BenchWorker({ role: 'pp-post-pinger', port: channel.port1, warmup: Math.max(2_000, samples / 10), samples }, [channel.port1]);
  return {
    workers: [ponger, pinger],
    async round() {
      pinger.send({ kind: 'start' });
      return (await pinger.next('rtt')).samplesUs;
    },
  };
}

/** Rounds alternate between the transports so drift on the VM hits all of them alike. */
async function roundTrips(): Promise<Record<'spin' | 'spinPark' | 'wait' | 'post', Latency>> {
  const pairs = {
    spin: ringPingPong({ kind: 'spin' }, 100_000),
    spinPark: ringPingPong({ kind: 'park', spinPolls: DEFAULT_SPIN_POLLS }, 100_000),
    wait: ringPingPong({ kind: 'park', spinPolls: 0 }, 10_000),
    post: postPingPong(10_000),
  };
  const names = Object.keys(pairs) as (keyof typeof pairs)[];
  return withWorkers(
    names.flatMap((n) => pairs[n].workers),
    async () => {
      const samples = { spin: [] as Float64Array[], spinPark: [] as Float64Array[], wait: [] as Float64Array[], post: [] as Float64Array[] };
      for (let round = 0; round < PP_ROUNDS; round++) {
        for (const name of names) {
          await sleep(SETTLE_MS);
          samples[name].push(await pairs[name].round(round));
        }
      }
      return { spin: latency(samples.spin), spinPark: latency(samples.spinPark), wait: latency(samples.wait), post: latency(samples.post) };
    },
  );
}

/** (c) A consumer that parks when idle, fed one message per interval. */
async function idleCost(spinPolls: number): Promise<Extract<BenchReport, { kind: 'idle' }>> {
  const ring = createRing(PP_RING_CAPACITY);
  const control = createControl();
  const go = new SharedArrayBuffer(4);
  const consumer = new BenchWorker({ role: 'idle-consumer', ring, control, go, spinPolls, parkMaxMs: PARK_MAX_MS });
  const producer = new BenchWorker({ role: 'idle-producer', ring, control, go, intervalMs: IDLE_INTERVAL_MS, durationMs: IDLE_DURATION_MS });
  return withWorkers([consumer, producer], async () => {
    release(go, 1);
    const [report] = await Promise.all([consumer.next('idle'), producer.next('done')]);
    return report;
  });
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export async function run(): Promise<BenchResult> {
  const tp = await throughput();
  const ringRate = median(tp.ring);
  const postRate = median(tp.post);

  // Let the throughput phase's garbage (hundreds of thousands of cloned messages) be collected
  // by the background GC threads before latency is measured on the same two cores.
  await sleep(4 * SETTLE_MS);
  const { spin, spinPark, wait, post } = await roundTrips();

  const idle: Record<string, Extract<BenchReport, { kind: 'idle' }>> = {};
  for (const k of IDLE_SPIN_COUNTS) {
    await sleep(SETTLE_MS);
    idle[k] = await idleCost(k);
  }

  const metrics: BenchResult['metrics'] = {
    tp_message_bytes: 64,
    tp_ring_msgs_per_s: Math.round(ringRate),
    tp_postmessage_msgs_per_s: Math.round(postRate),
    tp_ring_rounds_msgs_per_s: tp.ring.map(Math.round).join(', '),
    tp_postmessage_rounds_msgs_per_s: tp.post.map(Math.round).join(', '),
  };
  const rtts: [string, Latency][] = [
    ['ring_spin', spin],
    [`ring_spin${DEFAULT_SPIN_POLLS}_park`, spinPark],
    ['ring_atomics_wait', wait],
    ['postmessage', post],
  ];
  for (const [name, l] of rtts) {
    metrics[`rtt_${name}_p50_us`] = round2(l.p50);
    metrics[`rtt_${name}_p99_us`] = round2(l.p99);
    metrics[`rtt_${name}_p999_us`] = round2(l.p999);
    metrics[`rtt_${name}_samples`] = l.samples;
    metrics[`rtt_${name}_round_p50s_us`] = l.roundP50s.map(round2).join(', ');
  }
  for (const k of IDLE_SPIN_COUNTS) {
    const r = idle[k]!;
    metrics[`idle_spin${k}_cpu_fraction`] = Math.round((r.cpuMs / r.wallMs) * 10_000) / 10_000;
    metrics[`idle_spin${k}_cpu_ms`] = round2(r.cpuMs);
    metrics[`idle_spin${k}_wall_ms`] = round2(r.wallMs);
    metrics[`idle_spin${k}_messages`] = r.messages;
    metrics[`idle_spin${k}_parks`] = r.parks;
    metrics[`idle_spin${k}_spin_us_per_1000_polls`] = round2(r.spinUsPer1000Polls);
  }
  metrics['idle_cpu_source'] = idle[IDLE_SPIN_COUNTS[0]!]!.cpuSource;
  metrics['idle_message_interval_ms'] = IDLE_INTERVAL_MS;
  metrics['idle_park_max_ms'] = PARK_MAX_MS;

  const throughputRatio = ringRate / postRate;
  const p50Ratio = spin.p50 / post.p50;
  return {
    name: 'ring',
    description:
      'SharedArrayBuffer SPSC ring vs worker.postMessage between two worker threads, same run: one-way throughput of 64-byte ' +
      'messages (median of 5 alternating rounds), ping-pong round trip (3 alternating rounds, samples pooled) with busy-spin, spin-then-park (Mailbox), pure ' +
      'Atomics.wait/notify and postMessage, and the CPU cost of the spin-then-park idle strategy at 1 message/ms.',
    metrics,
    ratios: {
      throughput_ring_over_postmessage: round2(throughputRatio),
      rtt_p50_ring_spin_over_postmessage: Math.round(p50Ratio * 10_000) / 10_000,
      rtt_p50_spin_park_over_postmessage: Math.round((spinPark.p50 / post.p50) * 10_000) / 10_000,
      rtt_p50_atomics_wait_over_postmessage: Math.round((wait.p50 / post.p50) * 10_000) / 10_000,
    },
    targets: {
      throughput_ring_over_postmessage: target(round2(throughputRatio), 8, '>='),
      rtt_p50_ring_spin_over_postmessage: target(Math.round(p50Ratio * 10_000) / 10_000, Math.round((1 / 30) * 10_000) / 10_000, '<='),
    },
  };
}

await runIfMain(import.meta.url, run);
