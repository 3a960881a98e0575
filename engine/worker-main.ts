/**
 * Entry point of an actor worker thread. Unless an actor on it holds sockets (a live venue
 * edge, `ActorContext.holdsSockets`), it parks in `Atomics.wait` on its mailbox doorbell when
 * idle; the event loop still turns between batches so promise continuations, runtime timers
 * and control messages from the gateway thread run. A thread with sockets parks with
 * `Atomics.waitAsync` instead, so its sockets are heard while it waits.
 *
 * Idle strategy: after the last frame, spin `spinPolls` empty polls (tens of microseconds),
 * then park until a producer rings, the next runtime timer is due, or `parkMaxMs` passes.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ActorRegistry } from './actor.ts';
import { Endpoint } from './endpoint.ts';
import { createLogger, flushLogs } from './log.ts';
import type { MessageLayout } from './message-layout.ts';
import type { RingHandle } from './ring/spsc-ring.ts';
import { systemActor } from './system-actor.ts';
import { TimerQueue } from './timers.ts';

export interface WorkerBoot {
  thread: number;
  workers: number;
  algoWorkers: number;
  /** Mailbox control block of every thread, indexed by thread. */
  controls: SharedArrayBuffer[];
  /** inbound[source]: ring from `source` into this thread. */
  inbound: RingHandle[];
  /** outbound[dest]: ring from this thread to `dest`. */
  outbound: RingHandle[];
  registryUrl: string;
  logLevel: string;
  /** Shared memory regions created by the gateway thread (quote cache, ...), by name. */
  shared: Record<string, SharedArrayBuffer>;
  /** Plain settings every actor may read (simulation seed, ...). */
  settings: Record<string, string | number | boolean>;
  spinPolls: number;
  parkMaxMs: number;
}

export type ControlMessage =
  | { kind: 'rewire'; peer: number; inbound: RingHandle; outbound: RingHandle; peerControl: SharedArrayBuffer }
  | { kind: 'stop' };

export type WorkerReport = { kind: 'ready'; thread: number } | { kind: 'rewired'; peer: number } | { kind: 'stopped' };

const BATCH = 256;
const SLICE_MS = 2;

async function main(): Promise<void> {
  const boot = workerData as WorkerBoot;
  const port = parentPort!;
  const log = createLogger(boot.logLevel, { thread: boot.thread });
  const timers = new TimerQueue();
  const { registry, layouts } = (await import(boot.registryUrl)) as { registry: ActorRegistry; layouts?: readonly MessageLayout[] };
  const endpoint: Endpoint = new Endpoint({
    thread: boot.thread,
    workers: boot.workers,
    algoWorkers: boot.algoWorkers,
    control: boot.controls[boot.thread]!,
    scheduler: timers,
    log,
    registry: { ...registry, sys: () => systemActor(endpoint) },
    environment: { shared: boot.shared, settings: boot.settings },
    layouts,
  });
  for (let t = 0; t < boot.controls.length; t++) {
    endpoint.attachInbound(t, boot.inbound[t]!);
    endpoint.attachOutbound(t, boot.outbound[t]!, boot.controls[t]!);
  }

  let stopping = false;
  port.on('message', (msg: ControlMessage) => {
    if (msg.kind === 'rewire') {
      endpoint.attachInbound(msg.peer, msg.inbound);
      endpoint.attachOutbound(msg.peer, msg.outbound, msg.peerControl);
      endpoint.failPendingTo(msg.peer, `thread ${msg.peer} restarted`);
      port.postMessage({ kind: 'rewired', peer: msg.peer } satisfies WorkerReport);
    } else if (msg.kind === 'stop') {
      stopping = true;
      endpoint.mailbox.wake();
    }
  });

  port.postMessage({ kind: 'ready', thread: boot.thread } satisfies WorkerReport);

  const onTimerError = (err: unknown) => log.error({ err }, 'timer callback threw');
  const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
  let idle = 0;
  let settled = true;
  let sliceEnd = performance.now() + SLICE_MS;
  while (!stopping) {
    const ran = timers.size > 0 ? timers.runDue(onTimerError) : 0;
    const handled = endpoint.poll(BATCH);
    if (handled > 0 || ran > 0) {
      idle = 0;
      settled = false;
      // Let promise continuations (async handlers, settled asks) take a step before the next batch.
      await null;
    } else if (!settled) {
      // `await null` resumes this loop ahead of the continuations those steps queued: an async
      // chain would stall behind the spin and the park below. One event-loop turn runs every
      // queued continuation to the end before this thread spins or sleeps.
      settled = true;
      await yieldToEventLoop();
      sliceEnd = performance.now() + SLICE_MS;
    } else if (++idle >= boot.spinPolls) {
      idle = 0;
      const parkMs = Math.min(timers.nextDelay(), boot.parkMaxMs);
      if (endpoint.socketsHeld) await endpoint.mailbox.parkAsync(parkMs);
      else endpoint.mailbox.park(parkMs);
      await yieldToEventLoop();
      sliceEnd = performance.now() + SLICE_MS;
      continue;
    }
    if ((idle & 63) === 0 && performance.now() >= sliceEnd) {
      await yieldToEventLoop();
      sliceEnd = performance.now() + SLICE_MS;
    }
  }

  // Graceful stop: drain what producers already published, then stop the actors.
  for (let i = 0; i < 1000 && endpoint.poll(BATCH) > 0; i++) await null;
  endpoint.stopActors();
  endpoint.failAllPending('worker stopping');
  await flushLogs();
  port.postMessage({ kind: 'stopped' } satisfies WorkerReport);
  port.close();
}

main().catch((err: unknown) => {
  // A boot failure is fatal for this worker; the topology sees the exit and restarts it.
  console.error('worker failed to boot', err);
  process.exit(1);
});
