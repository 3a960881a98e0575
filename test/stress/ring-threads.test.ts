/**
 * The SPSC ring and the mailbox across real worker threads.
 *
 *   ring:     producer worker --RingWriter--> [4-16 KiB ring] --RingReader--> main thread
 *   mailbox:  producer worker 0 --ring--> \
 *             producer worker 1 --ring-->  +--> Mailbox (consumer worker, spins then park())
 *             producer worker 2 --ring--> /
 *
 * Frames carry their sequence number (type and first payload bytes) and a byte pattern derived
 * from it; sizes come from a seeded PRNG both sides share, and include sizes near half the ring,
 * so wrap-around and padding happen constantly. Consumers check no loss, no duplication, order
 * and every byte. No timing is asserted: the only clock reads bound a hang.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { createControl, createRing, maxPayload, RingReader, type RingHandle } from '../../engine/ring/spsc-ring.ts';
import { checkPayload, Prng, stressSize } from '../helpers/frames.ts';
import {
  COUNTER_REFUSALS,
  COUNTER_WRITTEN,
  frameTag,
  type ConsumerJob,
  type ProducerJob,
  type RingWorkerJob,
  type RingWorkerReport,
} from '../helpers/ring-jobs.ts';

const BOOT = new URL('../helpers/ring-worker-boot.mjs', import.meta.url);
/** No progress for this long means a hang (lost frame, lost wake-up): fail instead of waiting. */
const STALL_MS = 20_000;

type Produced = Extract<RingWorkerReport, { kind: 'produced' }>;
type Consumed = Extract<RingWorkerReport, { kind: 'consumed' }>;

interface Spawned<R> {
  worker: Worker;
  ready: Promise<void>;
  done: Promise<R>;
}

function spawn<R extends RingWorkerReport>(job: RingWorkerJob): Spawned<R> {
  const worker = new Worker(BOOT, { workerData: job });
  let onReady!: () => void;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  const done = new Promise<R>((resolve, reject) => {
    worker.on('message', (report: RingWorkerReport) => {
      if (report.kind === 'ready') onReady();
      else resolve(report as R);
    });
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`${job.role} worker exited with code ${code} before reporting`)));
  });
  // A worker that fails before `ready` must fail the test, not leave it waiting.
  done.catch(() => onReady());
  return { worker, ready, done };
}

function startAll(go: SharedArrayBuffer): void {
  const flag = new Int32Array(go);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}

async function withWorkers<T>(workers: Worker[], body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

interface RingRun {
  seed: number;
  capacity: number;
  count: number;
}

/** Producer in a worker, consumer on this thread reading random batch sizes with random stalls. */
async function runRing({ seed, capacity, count }: RingRun): Promise<{ produced: Produced; received: number; holds: number }> {
  const ring: RingHandle = createRing(capacity);
  const go = new SharedArrayBuffer(4);
  const counters = new SharedArrayBuffer(8);
  const job: ProducerJob = {
    role: 'producer',
    ring,
    control: createControl(),
    go,
    counters,
    source: 0,
    seed,
    count,
    inPlaceChance: 0.25,
    pauseChance: 0,
    maxPauseMs: 0,
  };
  const producer = spawn<Produced>(job);
  return withWorkers([producer.worker], async () => {
    let failure: unknown;
    producer.done.catch((err: unknown) => (failure = err));
    await producer.ready;
    if (failure !== undefined) throw failure;

    const reader = new RingReader(ring);
    const shared = new Int32Array(counters);
    const sizes = new Prng(seed);
    const behaviour = new Prng(seed ^ 0x27d4eb2f);
    const max = maxPayload(capacity);
    let next = 0;
    let errorCount = 0;
    const errors: string[] = [];
    const handler = (type: number, bytes: Uint8Array, offset: number, length: number) => {
      const seq = next++;
      const expectedLength = seq < count ? stressSize(sizes, max) : -1;
      let problem = '';
      if (type !== seq) problem = `type ${type}, expected seq ${seq}`;
      else if (length !== expectedLength) problem = `length ${length}, expected ${expectedLength}`;
      else {
        const at = checkPayload(bytes, offset, length, frameTag(0, seq));
        if (at >= 0) problem = `byte ${at} differs`;
      }
      if (problem !== '') {
        errorCount++;
        if (errors.length < 10) errors.push(`frame ${seq}: ${problem}`);
      }
    };

    startAll(go);
    let holds = 0;
    let lastProgress = performance.now();
    let seen = -1;
    /** Stops reading until the producer has been refused again: backpressure on demand. */
    let holdUntilRefusals = 1;
    for (let iteration = 0; next < count; iteration++) {
      if (holdUntilRefusals > 0) {
        if (Atomics.load(shared, COUNTER_REFUSALS) >= holdUntilRefusals) {
          holdUntilRefusals = 0;
          holds++;
        } else if (Atomics.load(shared, COUNTER_WRITTEN) === count) {
          holdUntilRefusals = 0; // the producer finished before filling the ring again
        }
      } else {
        const handled = reader.read(handler, behaviour.int(1, 96));
        if (handled > 0 && behaviour.chance(0.002)) holdUntilRefusals = Atomics.load(shared, COUNTER_REFUSALS) + 1;
      }
      if ((iteration & 1023) === 0) {
        await yieldToLoop(); // lets a worker error surface
        if (failure !== undefined) throw failure;
        const now = performance.now();
        if (next !== seen) {
          seen = next;
          lastProgress = now;
        } else if (now - lastProgress > STALL_MS) {
          throw new Error(`no progress: received ${next} of ${count}, producer wrote ${Atomics.load(shared, COUNTER_WRITTEN)}`);
        }
      }
    }
    const produced = await producer.done;
    assert.deepEqual(errors, [], `${errorCount} bad frames`);
    assert.equal(errorCount, 0);
    assert.equal(reader.isEmpty(), true, 'no frame beyond the last one');
    assert.equal(reader.usedBytes(), 0);
    return { produced, received: next, holds };
  });
}

interface MailboxRun {
  seed: number;
  producers: number;
  capacity: number;
  count: number;
}

/** k producer workers, one ring each, into one consumer worker's Mailbox that parks when idle. */
async function runMailbox({ seed, producers, capacity, count }: MailboxRun): Promise<{ produced: Produced[]; consumed: Consumed }> {
  const control = createControl();
  const go = new SharedArrayBuffer(4);
  const seeds = Array.from({ length: producers }, (_, s) => (seed + 0x9e3779b9 * (s + 1)) >>> 0);
  const rings = seeds.map(() => createRing(capacity));
  const producerJobs: ProducerJob[] = rings.map((ring, source) => ({
    role: 'producer',
    ring,
    control,
    go,
    counters: new SharedArrayBuffer(8),
    source,
    seed: seeds[source]!,
    count,
    inPlaceChance: 0.2,
    // Frequent pauses of up to 1.5 ms: long enough that every producer is sometimes quiet at
    // once and the consumer spins out and parks.
    pauseChance: 0.004,
    maxPauseMs: 1.5,
  }));
  const consumerJob: ConsumerJob = {
    role: 'mailbox-consumer',
    control,
    go,
    rings,
    seeds,
    count,
    seed: seed ^ 0x85ebca6b,
    maxSpin: 300,
    // Far longer than any producer pause: a park that runs this long lost its wake-up.
    parkTimeoutMs: 1_000,
  };
  const spawned = [...producerJobs.map((job) => spawn<Produced>(job)), spawn<Consumed>(consumerJob)];
  return withWorkers(
    spawned.map((s) => s.worker),
    async () => {
      const all = Promise.all(spawned.map((s) => s.done));
      all.catch(() => {});
      await Promise.race([Promise.all(spawned.map((s) => s.ready)), all]);
      startAll(go);
      let timer: NodeJS.Timeout | undefined;
      const stalled = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('mailbox run did not finish: hang')), 3 * STALL_MS);
      });
      try {
        const reports = await Promise.race([all, stalled]);
        return { produced: reports.slice(0, producers) as Produced[], consumed: reports[producers] as Consumed };
      } finally {
        clearTimeout(timer);
      }
    },
  );
}

describe('SPSC ring across worker threads', { timeout: 120_000 }, () => {
  it('delivers every frame once, in order, byte-identical, under constant wrap-around and backpressure', async (t) => {
    const runs: { capacity: number; count: number }[] = [
      { capacity: 4096, count: 100_000 },
      { capacity: 16_384, count: 40_000 },
    ];
    for (const { capacity, count } of runs) {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 0x7fffffff }), async (seed) => {
          const { produced, received, holds } = await runRing({ seed, capacity, count });
          assert.equal(received, count);
          assert.equal(produced.written, count);
          assert.ok(produced.refusals > 0, 'the producer met a full ring');
          assert.ok(produced.refusedFrames >= holds, 'every hold ended with a refusal');
          assert.ok(holds >= 1);
          t.diagnostic(`ring ${capacity} B, seed ${seed}: ${count} frames, ${produced.refusals} refusals on ${produced.refusedFrames} frames, ${holds} holds`);
        }),
        { numRuns: 2, endOnFailure: true },
      );
    }
  });

  it('a Mailbox fed by 2-3 producer threads keeps per-producer order and totals across park/wake', async (t) => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 0x7fffffff }), fc.integer({ min: 2, max: 3 }), fc.constantFrom(4096, 8192), async (seed, producers, capacity) => {
        const count = 30_000;
        const { produced, consumed } = await runMailbox({ seed, producers, capacity, count });
        assert.deepEqual(consumed.errors, [], `${consumed.errorCount} bad frames`);
        assert.equal(consumed.errorCount, 0);
        assert.deepEqual(consumed.received, new Array<number>(producers).fill(count));
        assert.equal(consumed.leftover, false, 'no frame beyond the last one');
        assert.deepEqual(
          produced.map((p) => [p.source, p.written]),
          produced.map((_, s) => [s, count]),
        );
        assert.ok(produced.some((p) => p.pauses > 0));
        // The sleep/wake protocol was exercised, and every futex wait ended by a doorbell.
        assert.ok(consumed.parks > 0, 'the consumer parked');
        assert.ok(consumed.waits['ok']! > 0, `a producer's doorbell woke the parked consumer (${JSON.stringify(consumed.waits)})`);
        assert.equal(consumed.waits['timed-out'], 0, 'no park waited out its timeout: no lost wake-up');
        t.diagnostic(
          `${producers} producers, ring ${capacity} B, seed ${seed}: ${consumed.parks} parks, waits ${JSON.stringify(consumed.waits)}, ` +
            `refusals ${produced.map((p) => p.refusals).join('/')}, pauses ${produced.map((p) => p.pauses).join('/')}`,
        );
      }),
      { numRuns: 3, endOnFailure: true },
    );
  });
});
