/**
 * Messages between test/stress/ring-threads.test.ts and its workers (test/helpers/ring-worker.ts).
 * Kept apart from the worker entry so the test can import them without running a worker body.
 */
import type { RingHandle } from '../../engine/ring/spsc-ring.ts';

export interface ProducerJob {
  role: 'producer';
  ring: RingHandle;
  control: SharedArrayBuffer;
  go: SharedArrayBuffer;
  /** Shared counters the consumer may watch: [refusals, frames written]. */
  counters: SharedArrayBuffer;
  source: number;
  seed: number;
  count: number;
  /** Chance per frame of writing through claim/commit instead of tryWrite. */
  inPlaceChance: number;
  /** Chance per frame of pausing before it, and the longest pause. */
  pauseChance: number;
  maxPauseMs: number;
}

export interface ConsumerJob {
  role: 'mailbox-consumer';
  control: SharedArrayBuffer;
  go: SharedArrayBuffer;
  rings: RingHandle[];
  seeds: number[];
  count: number;
  seed: number;
  /** Empty polls before parking are drawn from [0, maxSpin] after every park. */
  maxSpin: number;
  parkTimeoutMs: number;
}

export type RingWorkerJob = ProducerJob | ConsumerJob;

export const COUNTER_REFUSALS = 0;
export const COUNTER_WRITTEN = 1;

export type RingWorkerReport =
  | { kind: 'ready' }
  | { kind: 'produced'; source: number; written: number; refusals: number; refusedFrames: number; pauses: number }
  | {
      kind: 'consumed';
      received: number[];
      errorCount: number;
      errors: string[];
      parks: number;
      /** Results of the Atomics.wait calls made by Mailbox.park: 'ok' | 'not-equal' | 'timed-out'. */
      waits: Record<string, number>;
      leftover: boolean;
    };

/** The byte pattern of a frame names its source too, so crossed rings cannot pass unnoticed. */
export function frameTag(source: number, seq: number): number {
  return ((source << 24) | seq) >>> 0;
}
