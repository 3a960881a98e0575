/**
 * Worker side of the cross-thread ring stress tests (test/stress/ring-threads.test.ts).
 *
 *   producer:          seeded frames -> RingWriter (retry on refusal, random pauses)
 *   mailbox-consumer:  k rings -> Mailbox -> verify per-source order and bytes; spin, then park()
 *
 * Every worker posts `ready`, then blocks on the shared `go` flag so all threads start together
 * after the slow tsx boot. Frame `seq` of source `s` has type `seq` and the payload of
 * `frameTag(s, seq)` (test/helpers/frames.ts), with a length drawn from `Prng(seed)`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Mailbox } from '../../engine/ring/mailbox.ts';
import { maxPayload, RingWriter } from '../../engine/ring/spsc-ring.ts';
import { checkPayload, fillPayload, Prng, stressSize } from './frames.ts';
import {
  COUNTER_REFUSALS,
  COUNTER_WRITTEN,
  frameTag,
  type ConsumerJob,
  type ProducerJob,
  type RingWorkerJob,
  type RingWorkerReport,
} from './ring-jobs.ts';

const post = (report: RingWorkerReport) => parentPort!.postMessage(report);

function waitForGo(go: SharedArrayBuffer): void {
  const flag = new Int32Array(go);
  while (Atomics.load(flag, 0) === 0) Atomics.wait(flag, 0, 0);
}

function produce(job: ProducerJob): void {
  const writer = new RingWriter(job.ring, job.control);
  const counters = new Int32Array(job.counters);
  const max = maxPayload(job.ring.capacity);
  const sizes = new Prng(job.seed);
  const behaviour = new Prng(job.seed ^ 0x5bd1e995);
  const scratch = new Uint8Array(max);
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  let refusals = 0;
  let refusedFrames = 0;
  let pauses = 0;
  post({ kind: 'ready' });
  waitForGo(job.go);
  for (let seq = 0; seq < job.count; seq++) {
    const size = stressSize(sizes, max);
    const tag = frameTag(job.source, seq);
    if (behaviour.chance(job.pauseChance)) {
      pauses++;
      Atomics.wait(sleeper, 0, 0, behaviour.int(20, job.maxPauseMs * 1000) / 1000);
    }
    const inPlace = behaviour.chance(job.inPlaceChance);
    if (!inPlace) fillPayload(scratch, 0, size, tag);
    let tries = 0;
    for (;;) {
      let ok: boolean;
      if (inPlace) {
        const offset = writer.claim(size);
        ok = offset >= 0;
        if (ok) {
          fillPayload(writer.slotBytes, offset, size, tag);
          writer.commit(seq, size);
        }
      } else {
        ok = writer.tryWrite(seq, scratch, 0, size);
      }
      if (ok) break;
      if (tries === 0) refusedFrames++;
      refusals++;
      Atomics.add(counters, COUNTER_REFUSALS, 1);
      // Back off a little once the ring stays full, so an oversubscribed CPU reaches the consumer.
      if (++tries % 256 === 0) Atomics.wait(sleeper, 0, 0, 0.05);
    }
    Atomics.store(counters, COUNTER_WRITTEN, seq + 1);
  }
  post({ kind: 'produced', source: job.source, written: job.count, refusals, refusedFrames, pauses });
}

function consume(job: ConsumerJob): void {
  // Record what each park's futex wait returned: a lost wake-up shows up as 'timed-out'.
  const waits: Record<string, number> = { ok: 0, 'not-equal': 0, 'timed-out': 0 };
  const realWait = Atomics.wait;
  Atomics.wait = ((typedArray: Int32Array, index: number, value: number, timeout?: number) => {
    const result = realWait(typedArray, index, value, timeout);
    waits[result] = (waits[result] ?? 0) + 1;
    return result;
  }) as typeof Atomics.wait;

  const mailbox = new Mailbox(job.control);
  job.rings.forEach((ring, source) => mailbox.attach(source, ring));
  const sizes = job.seeds.map((seed) => new Prng(seed));
  const maxima = job.rings.map((ring) => maxPayload(ring.capacity));
  const received = job.rings.map(() => 0);
  const errors: string[] = [];
  let errorCount = 0;
  mailbox.onFrame((source, type, bytes, offset, length) => {
    const seq = received[source]!;
    received[source] = seq + 1;
    const expectedLength = seq < job.count ? stressSize(sizes[source]!, maxima[source]!) : -1;
    let problem = '';
    if (type !== seq) problem = `type ${type}, expected seq ${seq}`;
    else if (length !== expectedLength) problem = `length ${length}, expected ${expectedLength}`;
    else {
      const at = checkPayload(bytes, offset, length, frameTag(source, seq));
      if (at >= 0) problem = `byte ${at} differs`;
    }
    if (problem !== '') {
      errorCount++;
      if (errors.length < 10) errors.push(`source ${source} frame ${seq}: ${problem}`);
    }
  });

  const behaviour = new Prng(job.seed);
  const expected = job.count * job.rings.length;
  let total = 0;
  let idle = 0;
  let spin = behaviour.int(0, job.maxSpin);
  let parks = 0;
  post({ kind: 'ready' });
  waitForGo(job.go);
  while (total < expected) {
    const handled = mailbox.poll(behaviour.int(1, 64));
    total += handled;
    if (handled > 0) {
      idle = 0;
    } else if (++idle > spin) {
      parks++;
      mailbox.park(job.parkTimeoutMs);
      idle = 0;
      spin = behaviour.int(0, job.maxSpin);
    }
  }
  Atomics.wait = realWait;
  post({ kind: 'consumed', received, errorCount, errors, parks, waits, leftover: mailbox.hasWork() });
}

const job = workerData as RingWorkerJob;
if (job.role === 'producer') produce(job);
else consume(job);
