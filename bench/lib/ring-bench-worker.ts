/**
 * Worker side of bench/ring.bench.ts: one role per worker (see BenchJob). Ring roles block on a
 * shared `go` word between rounds, so an idle pair never steals a core from the pair being
 * measured on this 2-vCPU VM.
 */
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { Mailbox } from '../../engine/ring/mailbox.ts';
import { RingReader, RingWriter } from '../../engine/ring/spsc-ring.ts';
import {
  PAYLOAD_BYTES,
  TYPE_DATA,
  TYPE_STOP,
  type BenchJob,
  type BenchReport,
  type IdleMode,
  type OrchestratorMessage,
} from './ring-bench-jobs.ts';

const port = parentPort!;
const post = (report: BenchReport) => port.postMessage(report);

function payload(): Uint8Array {
  const bytes = new Uint8Array(PAYLOAD_BYTES);
  for (let i = 0; i < bytes.length; i++) bytes[i] = i * 7;
  return bytes;
}

/** Blocks until the orchestrator has moved `go` past `round`. */
function waitRound(go: Int32Array, round: number): void {
  for (;;) {
    const value = Atomics.load(go, 0);
    if (value > round) return;
    Atomics.wait(go, 0, value);
  }
}

/** CPU time of this thread in ms: /proc/thread-self/schedstat (ns) where Linux offers it. */
function threadCpuReader(): { read(): number; source: 'thread schedstat' | 'process cpuUsage' } {
  try {
    readFileSync('/proc/thread-self/schedstat', 'utf8');
    return {
      source: 'thread schedstat',
      read: () => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6,
    };
  } catch {
    // Process-wide, so it includes the other threads: an upper bound only.
    return {
      source: 'process cpuUsage',
      read: () => {
        const usage = process.cpuUsage();
        return (usage.user + usage.system) / 1000;
      },
    };
  }
}

function tpRingProducer(job: Extract<BenchJob, { role: 'tp-ring-producer' }>): void {
  const writer = new RingWriter(job.ring, job.control);
  const go = new Int32Array(job.go);
  const bytes = payload();
  post({ kind: 'ready' });
  for (let round = 0; round < job.rounds; round++) {
    waitRound(go, round);
    for (let i = 0; i < job.messages; i++) {
      bytes[0] = i & 0xff;
      while (!writer.tryWrite(TYPE_DATA, bytes)) {
        // busy-spin: the consumer frees space within nanoseconds
      }
    }
  }
  post({ kind: 'done' });
}

function tpRingConsumer(job: Extract<BenchJob, { role: 'tp-ring-consumer' }>): void {
  const reader = new RingReader(job.ring);
  const go = new Int32Array(job.go);
  let checksum = 0;
  const handler = (_type: number, bytes: Uint8Array, offset: number) => {
    checksum = (checksum + bytes[offset]!) | 0;
  };
  post({ kind: 'ready' });
  for (let round = 0; round < job.rounds; round++) {
    waitRound(go, round);
    let received = 0;
    while (received === 0) received = reader.read(handler, job.batch);
    // Clock from the first frame to the last: no cross-thread clock, no start-up skew.
    const start = performance.now();
    while (received < job.messages) received += reader.read(handler, Math.min(job.batch, job.messages - received));
    const elapsedMs = performance.now() - start;
    post({ kind: 'tp-round', round, messages: job.messages - 1, elapsedMs, checksum });
  }
}

function tpPostProducer(job: Extract<BenchJob, { role: 'tp-post-producer' }>): void {
  const go = new Int32Array(job.go);
  const received = new Int32Array(job.received);
  const bytes = payload();
  post({ kind: 'ready' });
  let sent = 0;
  for (let round = 0; round < job.rounds; round++) {
    waitRound(go, round);
    for (let i = 0; i < job.messages; i++) {
      // Bounded in flight like the ring (which holds ~900 such frames): no unbounded queue.
      while (sent - Atomics.load(received, 0) >= job.window) {
        // busy-spin until the consumer catches up
      }
      bytes[0] = i & 0xff;
      job.port.postMessage(bytes);
      sent++;
    }
  }
  post({ kind: 'done' });
}

function tpPostConsumer(job: Extract<BenchJob, { role: 'tp-post-consumer' }>): void {
  const received = new Int32Array(job.received);
  let total = 0;
  let inRound = 0;
  let round = 0;
  let start = 0;
  let checksum = 0;
  job.port.on('message', (bytes: Uint8Array) => {
    checksum = (checksum + bytes[0]!) | 0;
    Atomics.store(received, 0, ++total);
    if (inRound++ === 0) start = performance.now();
    if (inRound === job.messages) {
      post({ kind: 'tp-round', round: round++, messages: job.messages - 1, elapsedMs: performance.now() - start, checksum });
      inRound = 0;
    }
  });
  post({ kind: 'ready' });
}

/** Waits for one frame with the given idle strategy; returns its type. */
function makeReceiver(job: Extract<BenchJob, { role: 'pp-ring-pinger' | 'pp-ring-ponger' }>): () => number {
  const idle: IdleMode = job.idle;
  let lastType = 0;
  if (idle.kind === 'spin') {
    const reader = new RingReader(job.inbound);
    const handler = (type: number) => {
      lastType = type;
    };
    return () => {
      while (reader.read(handler, 1) === 0) {
        // busy-spin
      }
      return lastType;
    };
  }
  const mailbox = new Mailbox(job.ownControl);
  mailbox.attach(0, job.inbound);
  mailbox.onFrame((_source, type) => {
    lastType = type;
  });
  const spinPolls = idle.spinPolls;
  return () => {
    let polls = 0;
    while (mailbox.poll(1) === 0) {
      if (++polls >= spinPolls) {
        mailbox.park(50);
        polls = 0;
      }
    }
    return lastType;
  };
}

function ppRing(job: Extract<BenchJob, { role: 'pp-ring-pinger' | 'pp-ring-ponger' }>): void {
  const writer = new RingWriter(job.outbound, job.peerControl);
  const receive = makeReceiver(job);
  const bytes = payload();
  const send = (type: number) => {
    while (!writer.tryWrite(type, bytes)) {
      // one message in flight: never full
    }
  };
  const go = new Int32Array(job.go);
  post({ kind: 'ready' });
  const samples = new Float64Array(job.samples);
  const total = job.warmup + job.samples;
  for (let round = 0; round < job.rounds; round++) {
    waitRound(go, round);
    if (job.role === 'pp-ring-ponger') {
      while (receive() !== TYPE_STOP) send(TYPE_DATA);
      post({ kind: 'done' });
      continue;
    }
    for (let i = 0; i < total; i++) {
      const t0 = performance.now();
      send(TYPE_DATA);
      receive();
      const rtt = performance.now() - t0;
      if (i >= job.warmup) samples[i - job.warmup] = rtt * 1000;
    }
    send(TYPE_STOP);
    post({ kind: 'rtt', samplesUs: samples.slice() });
  }
}

function ppPostPinger(job: Extract<BenchJob, { role: 'pp-post-pinger' }>): void {
  const samples = new Float64Array(job.samples);
  const total = job.warmup + job.samples;
  const bytes = payload();
  let i = 0;
  let t0 = 0;
  job.port.on('message', () => {
    const rtt = performance.now() - t0;
    if (i >= job.warmup) samples[i - job.warmup] = rtt * 1000;
    if (++i === total) {
      post({ kind: 'rtt', samplesUs: samples.slice() });
      return;
    }
    t0 = performance.now();
    job.port.postMessage(bytes);
  });
  port.on('message', (msg: OrchestratorMessage) => {
    if (msg.kind !== 'start') return;
    i = 0;
    t0 = performance.now();
    job.port.postMessage(bytes);
  });
  post({ kind: 'ready' });
}

function ppPostPonger(job: Extract<BenchJob, { role: 'pp-post-ponger' }>): void {
  job.port.on('message', (bytes: Uint8Array) => job.port.postMessage(bytes));
  post({ kind: 'ready' });
}

function idleConsumer(job: Extract<BenchJob, { role: 'idle-consumer' }>): void {
  const mailbox = new Mailbox(job.control);
  mailbox.attach(0, job.ring);
  let messages = 0;
  let stop = false;
  mailbox.onFrame((_source, type) => {
    if (type === TYPE_STOP) stop = true;
    else messages++;
  });
  // The cost of the spin phase, measured with the same loop on an empty ring (after warm-up).
  const spinLoop = (polls: number) => {
    for (let i = 0; i < polls; i++) if (mailbox.poll(256) > 0) return;
  };
  spinLoop(200_000);
  const calibration = 2_000_000;
  const t0 = performance.now();
  spinLoop(calibration);
  const spinUsPer1000Polls = ((performance.now() - t0) * 1000) / (calibration / 1000);

  const cpu = threadCpuReader();
  post({ kind: 'ready' });
  waitRound(new Int32Array(job.go), 0);
  const wall0 = performance.now();
  const cpu0 = cpu.read();
  let parks = 0;
  let idle = 0;
  while (!stop) {
    if (mailbox.poll(256) > 0) {
      idle = 0;
    } else if (++idle >= job.spinPolls) {
      parks++;
      mailbox.park(job.parkMaxMs);
      idle = 0;
    }
  }
  const cpuMs = cpu.read() - cpu0;
  const wallMs = performance.now() - wall0;
  post({ kind: 'idle', cpuMs, cpuSource: cpu.source, wallMs, messages, parks, spinUsPer1000Polls });
}

function idleProducer(job: Extract<BenchJob, { role: 'idle-producer' }>): void {
  const writer = new RingWriter(job.ring, job.control);
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  const bytes = payload();
  post({ kind: 'ready' });
  waitRound(new Int32Array(job.go), 0);
  const start = performance.now();
  for (let i = 1; i * job.intervalMs <= job.durationMs; i++) {
    const deadline = start + i * job.intervalMs;
    for (let left = deadline - performance.now(); left > 0; left = deadline - performance.now()) {
      Atomics.wait(sleeper, 0, 0, left);
    }
    while (!writer.tryWrite(TYPE_DATA, bytes)) Atomics.wait(sleeper, 0, 0, 0.1);
  }
  while (!writer.tryWrite(TYPE_STOP, bytes)) Atomics.wait(sleeper, 0, 0, 0.1);
  post({ kind: 'done' });
}

const job = workerData as BenchJob;
switch (job.role) {
  case 'tp-ring-producer':
    tpRingProducer(job);
    break;
  case 'tp-ring-consumer':
    tpRingConsumer(job);
    break;
  case 'tp-post-producer':
    tpPostProducer(job);
    break;
  case 'tp-post-consumer':
    tpPostConsumer(job);
    break;
  case 'pp-ring-pinger':
  case 'pp-ring-ponger':
    ppRing(job);
    break;
  case 'pp-post-pinger':
    ppPostPinger(job);
    break;
  case 'pp-post-ponger':
    ppPostPonger(job);
    break;
  case 'idle-consumer':
    idleConsumer(job);
    break;
  case 'idle-producer':
    idleProducer(job);
    break;
}
