/**
 * Jobs and reports exchanged between bench/ring.bench.ts and its worker threads
 * (bench/lib/ring-bench-worker.ts). Kept apart from the worker entry so the bench can import
 * them without running a worker body.
 */
import type { MessagePort } from 'node:worker_threads';
import type { RingHandle } from '../../engine/ring/spsc-ring.ts';

export const PAYLOAD_BYTES = 64;
export const TYPE_DATA = 1;
export const TYPE_STOP = 2;

/** Idle strategy of a ring endpoint: busy-spin forever, or spin `spinPolls` empty polls then park. */
export type IdleMode = { kind: 'spin' } | { kind: 'park'; spinPolls: number };

export type BenchJob =
  | { role: 'tp-ring-producer'; ring: RingHandle; control: SharedArrayBuffer; go: SharedArrayBuffer; messages: number; rounds: number }
  | { role: 'tp-ring-consumer'; ring: RingHandle; go: SharedArrayBuffer; messages: number; rounds: number; batch: number }
  | {
      role: 'tp-post-producer';
      port: MessagePort;
      go: SharedArrayBuffer;
      /** Messages the consumer has handled, for the in-flight window. */
      received: SharedArrayBuffer;
      messages: number;
      rounds: number;
      window: number;
    }
  | { role: 'tp-post-consumer'; port: MessagePort; received: SharedArrayBuffer; messages: number }
  | {
      role: 'pp-ring-pinger' | 'pp-ring-ponger';
      idle: IdleMode;
      inbound: RingHandle;
      outbound: RingHandle;
      ownControl: SharedArrayBuffer;
      peerControl: SharedArrayBuffer;
      go: SharedArrayBuffer;
      rounds: number;
      warmup: number;
      samples: number;
    }
  /** Starts a round on each `start` message from the orchestrator. */
  | { role: 'pp-post-pinger'; port: MessagePort; warmup: number; samples: number }
  | { role: 'pp-post-ponger'; port: MessagePort }
  | { role: 'idle-consumer'; ring: RingHandle; control: SharedArrayBuffer; go: SharedArrayBuffer; spinPolls: number; parkMaxMs: number }
  | { role: 'idle-producer'; ring: RingHandle; control: SharedArrayBuffer; go: SharedArrayBuffer; intervalMs: number; durationMs: number };

export type OrchestratorMessage = { kind: 'start' };

export type BenchReport =
  | { kind: 'ready' }
  | { kind: 'tp-round'; round: number; messages: number; elapsedMs: number; checksum: number }
  | { kind: 'rtt'; samplesUs: Float64Array }
  | {
      kind: 'idle';
      cpuMs: number;
      cpuSource: 'thread schedstat' | 'process cpuUsage';
      wallMs: number;
      messages: number;
      parks: number;
      spinUsPer1000Polls: number;
    }
  | { kind: 'done' };
