import { Worker } from 'node:worker_threads';
import { bundled } from './bundle.ts';
import type { Logger } from './actor.ts';
import { Endpoint } from './endpoint.ts';
import type { MessageLayout } from './message-layout.ts';
import { GATEWAY_THREAD, systemActorKey } from './placement.ts';
import { createControl, createRing, type RingHandle } from './ring/spsc-ring.ts';
import { LoopDelayMonitor, type LoopDelay } from './loop-delay.ts';
import type { WorkerStats } from './system-actor.ts';
import { eventLoopScheduler } from './timers.ts';
import type { ControlMessage, WorkerBoot, WorkerReport } from './worker-main.ts';

export interface TopologyOptions {
  workers: number;
  /** Threads after the actor workers that host only `algo:` actors (strategy deployments); default 0. */
  algoWorkers?: number;
  /** Module exporting `registry: ActorRegistry` and `layouts: MessageLayout[]`, loaded by every worker. */
  registryUrl: string;
  /** That module's `layouts`, for the gateway thread's endpoint (the same table on every thread). */
  layouts?: readonly MessageLayout[];
  log: Logger;
  logLevel: string;
  /** Shared memory every worker maps, by name; it outlives worker restarts. */
  shared?: Record<string, SharedArrayBuffer>;
  settings?: Record<string, string | number | boolean>;
  ringCapacity?: number;
  spinPolls?: number;
  /** Empty polls an algo worker spins before it parks (default: as the others); large keeps it hot, at the cost of a core. */
  algoSpinPolls?: number;
  parkMaxMs?: number;
  /**
   * A directory holding scripts/build.mjs's bundle: workers boot from its `worker-main.js` and
   * `registry.js` instead of the sources through tsx (the tests' in-process services: a worker
   * loads in about a third of the time). Unset: the layout this file was loaded from.
   */
  workerBundle?: URL;
}

export type WorkerState = 'starting' | 'up' | 'restarting' | 'stopped';

export interface WorkerStatus {
  thread: number;
  /** `actor`: edges, books, routers; `algo`: strategy deployments only */
  role: 'actor' | 'algo';
  state: WorkerState;
  restarts: number;
  thread_id: number | null;
}

interface WorkerSlot {
  thread: number;
  worker: Worker | undefined;
  state: WorkerState;
  restarts: number;
  /** Consecutive fast deaths, for the restart backoff. */
  crashStreak: number;
  startedAt: number;
}

const DEFAULT_RING_CAPACITY = 1 << 20;
const HOT_POLLS = 64;

/**
 * The whole runtime wired in one place. Threads: 0 is the gateway (uWebSockets.js, LMDB),
 * 1..N are actor workers. Data flow, in order of creation:
 *
 *   1. one mailbox control block per thread (doorbell + sleeping flag);
 *   2. a full mesh of SPSC rings, rings[src][dst], including each worker's ring to itself, so
 *      every (producer, consumer) pair has its own single-producer ring;
 *   3. the gateway's endpoint reads rings[w][0] (replies and topic publishes from workers) and
 *      writes rings[0][w] (asks and tells into the actors);
 *   4. workers boot with their row and column of the mesh and load the actor registry;
 *      actors are placed on workers by key hash (engine/placement.ts);
 *   5. supervision: a worker that exits is given fresh rings (the old ones may hold a torn
 *      frame), its peers are rewired, the asks it owed fail fast, and its eager actors restart.
 */
export class Topology {
  readonly endpoint: Endpoint;
  readonly workers: number;
  readonly algoWorkers: number;
  /** Every thread's index after the gateway's: 1 .. workers + algoWorkers. */
  private readonly lastThread: number;
  private readonly options: Required<Omit<TopologyOptions, 'workerBundle'>> & Pick<TopologyOptions, 'workerBundle'>;
  private readonly controls: SharedArrayBuffer[] = [];
  private readonly rings: RingHandle[][] = [];
  private readonly slots: WorkerSlot[] = [];
  private readonly eagerActors = new Set<string>();
  private readonly log: Logger;
  private stopping = false;
  private hotPolls = 0;
  private parked = false;
  private parkGeneration = 0;
  private readyListeners: ((ready: boolean) => void)[] = [];
  private readonly loopDelay = new LoopDelayMonitor();

  constructor(options: TopologyOptions) {
    if (!Number.isInteger(options.workers) || options.workers < 1) throw new RangeError('workers must be >= 1');
    this.options = {
      ringCapacity: DEFAULT_RING_CAPACITY,
      spinPolls: 256,
      algoSpinPolls: options.spinPolls ?? 256,
      parkMaxMs: 50,
      shared: {},
      settings: {},
      layouts: [],
      algoWorkers: 0,
      ...options,
    };
    this.workers = options.workers;
    this.algoWorkers = this.options.algoWorkers;
    this.lastThread = this.workers + this.algoWorkers;
    this.log = options.log;
    const threads = this.lastThread + 1;
    // 1. control blocks
    for (let t = 0; t < threads; t++) this.controls.push(createControl());
    // 2. the ring mesh
    for (let src = 0; src < threads; src++) {
      const row: RingHandle[] = [];
      for (let dst = 0; dst < threads; dst++) row.push(createRing(this.options.ringCapacity));
      this.rings.push(row);
    }
    // 3. the gateway's endpoint
    this.endpoint = new Endpoint({
      thread: GATEWAY_THREAD,
      workers: this.workers,
      algoWorkers: this.algoWorkers,
      control: this.controls[GATEWAY_THREAD]!,
      scheduler: eventLoopScheduler,
      log: this.log,
      environment: { shared: this.options.shared, settings: this.options.settings },
      onAskSent: () => this.kick(),
      layouts: this.options.layouts,
    });
    for (let w = 1; w < threads; w++) this.wireGateway(w);
    for (let w = 1; w < threads; w++) {
      this.slots[w] = { thread: w, worker: undefined, state: 'starting', restarts: 0, crashStreak: 0, startedAt: 0 };
    }
  }

  /** Starts every worker and resolves once each answered a ping through its rings. */
  async start(): Promise<void> {
    this.pump();
    // 4. workers
    await Promise.all(this.slots.slice(1).map((slot) => this.spawn(slot)));
  }

  /** Every actor worker is up (an algo worker restarting after a runaway algo does not make the service unready). */
  get ready(): boolean {
    if (this.stopping) return false;
    for (let w = 1; w <= this.workers; w++) if (this.slots[w]!.state !== 'up') return false;
    return true;
  }

  /** Whether a thread hosts only algo actors. */
  isAlgoThread(thread: number): boolean {
    return thread > this.workers && thread <= this.lastThread;
  }

  onReadyChange(listener: (ready: boolean) => void): void {
    this.readyListeners.push(listener);
  }

  status(): WorkerStatus[] {
    return this.slots.slice(1).map((s) => ({
      thread: s.thread,
      role: this.isAlgoThread(s.thread) ? 'algo' : 'actor',
      state: s.state,
      restarts: s.restarts,
      thread_id: s.worker?.threadId ?? null,
    }));
  }

  /** The gateway thread's own figures: its heap, its event-loop delay over the last window, its fullest inbound ring. */
  gatewayStats(): { heap_used_bytes: number; event_loop_delay: LoopDelay; fullest_ring: number } {
    return { heap_used_bytes: process.memoryUsage().heapUsed, event_loop_delay: this.loopDelay.lastWindow(), fullest_ring: this.endpoint.mailbox.fullestRing() };
  }

  /** Per-worker statistics gathered through the rings (the system actors). */
  async stats(timeoutMs = 1_000): Promise<(WorkerStats | null)[]> {
    return Promise.all(
      this.slots.slice(1).map((s) =>
        s.state === 'up'
          ? this.endpoint.ask<WorkerStats>(systemActorKey(s.thread), { t: 'Stats' }, timeoutMs).catch(() => null)
          : Promise.resolve(null),
      ),
    );
  }

  /** Creates an actor now and again after every restart of its worker. */
  startActor(key: string): void {
    this.eagerActors.add(key);
    if (this.slots[this.endpoint.ownerOf(key)]?.state === 'up') this.endpoint.startActor(key);
  }

  /** No longer restarts the actor with its worker (a stopped deployment). */
  forgetActor(key: string): void {
    this.eagerActors.delete(key);
  }

  /** Test and operations hook: ends a worker abruptly, as a crash would (also how a runaway algo is stopped). */
  async killWorker(thread: number): Promise<void> {
    await this.slots[thread]?.worker?.terminate();
  }

  async stop(timeoutMs = 5_000): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.loopDelay.stop();
    this.emitReady();
    await Promise.all(
      this.slots.slice(1).map(async (slot) => {
        const worker = slot.worker;
        if (worker === undefined) return;
        const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
        worker.postMessage({ kind: 'stop' } satisfies ControlMessage);
        const timer = setTimeout(() => void worker.terminate(), timeoutMs);
        await exited;
        clearTimeout(timer);
        slot.state = 'stopped';
      }),
    );
    // Replies the workers sent while draining are still in our rings.
    this.endpoint.poll(1 << 16);
    this.endpoint.failAllPending('runtime stopped');
    this.endpoint.mailbox.wake();
  }

  private wireGateway(w: number): void {
    this.endpoint.attachOutbound(w, this.rings[GATEWAY_THREAD]![w]!, this.controls[w]!);
    this.endpoint.attachInbound(w, this.rings[w]![GATEWAY_THREAD]!);
  }

  private boot(thread: number): WorkerBoot {
    return {
      thread,
      workers: this.workers,
      algoWorkers: this.algoWorkers,
      controls: this.controls,
      inbound: this.rings.map((row) => row[thread]!),
      outbound: this.rings[thread]!,
      registryUrl: this.options.workerBundle === undefined ? this.options.registryUrl : new URL('registry.js', this.options.workerBundle).href,
      logLevel: this.options.logLevel,
      shared: this.options.shared,
      settings: this.options.settings,
      spinPolls: this.isAlgoThread(thread) ? this.options.algoSpinPolls : this.options.spinPolls,
      parkMaxMs: this.options.parkMaxMs,
    };
  }

  private spawn(slot: WorkerSlot): Promise<void> {
    // From the sources a worker registers tsx first (worker-boot.mjs); a bundle's worker entry is plain JS beside this file.
    const bundle = this.options.workerBundle;
    const entry =
      bundle !== undefined ? new URL('worker-main.js', bundle) : bundled(import.meta.url) ? new URL('./worker-main.js', import.meta.url) : new URL('./worker-boot.mjs', import.meta.url);
    const worker = new Worker(entry, { workerData: this.boot(slot.thread) });
    slot.worker = worker;
    slot.startedAt = Date.now();
    return new Promise<void>((resolve) => {
      worker.on('message', (report: WorkerReport) => {
        if (report.kind !== 'ready') return;
        this.confirmUp(slot).then(resolve, (err: unknown) => {
          this.log.error({ thread: slot.thread, err }, 'worker did not answer its first ping');
          void worker.terminate();
          resolve();
        });
      });
      worker.on('error', (err) => this.log.error({ thread: slot.thread, err }, 'worker thread error'));
      worker.on('exit', (code) => {
        if (slot.worker !== worker) return;
        slot.worker = undefined;
        if (this.stopping) return;
        this.onWorkerDeath(slot, code);
        resolve();
      });
    });
  }

  private async confirmUp(slot: WorkerSlot): Promise<void> {
    await this.endpoint.ask(systemActorKey(slot.thread), { t: 'Ping' }, 5_000);
    if (this.stopping) return;
    slot.state = 'up';
    for (const key of this.eagerActors) {
      if (this.endpoint.ownerOf(key) === slot.thread) this.endpoint.startActor(key);
    }
    this.emitReady();
  }

  private onWorkerDeath(slot: WorkerSlot, code: number): void {
    const w = slot.thread;
    slot.state = 'restarting';
    slot.restarts++;
    slot.crashStreak = Date.now() - slot.startedAt < 10_000 ? slot.crashStreak + 1 : 1;
    this.log.error({ thread: w, exit_code: code, restarts: slot.restarts }, 'worker died; restarting');
    this.emitReady();
    this.endpoint.failPendingTo(w, `worker ${w} died`);
    // 5. fresh rings in and out of the dead thread; its control block is reused, zeroed.
    new Int32Array(this.controls[w]!).fill(0);
    for (let t = 0; t <= this.lastThread; t++) {
      this.rings[t]![w] = createRing(this.options.ringCapacity);
      this.rings[w]![t] = createRing(this.options.ringCapacity);
    }
    this.wireGateway(w);
    for (let t = 1; t <= this.lastThread; t++) {
      const peer = this.slots[t]!.worker;
      if (t === w || peer === undefined) continue;
      peer.postMessage({
        kind: 'rewire',
        peer: w,
        inbound: this.rings[w]![t]!,
        outbound: this.rings[t]![w]!,
        peerControl: this.controls[w]!,
      } satisfies ControlMessage);
    }
    const backoffMs = Math.min(5_000, 50 * 2 ** Math.max(0, slot.crashStreak - 1));
    setTimeout(() => {
      if (!this.stopping) void this.spawn(slot);
    }, backoffMs);
  }

  private emitReady(): void {
    const ready = this.ready;
    for (const listener of this.readyListeners) listener(ready);
  }

  /**
   * The gateway thread cannot block, so it parks with `Atomics.waitAsync`; while asks are in
   * flight it polls on `setImmediate` for a few turns first, which keeps reply latency in the
   * microseconds without starving the sockets.
   */
  private pump = (): void => {
    if (this.stopping) return;
    const handled = this.endpoint.poll(1024);
    if (handled > 0 || (this.endpoint.pendingAsks > 0 && this.hotPolls++ < HOT_POLLS)) {
      if (handled > 0) this.hotPolls = 0;
      setImmediate(this.pump);
      return;
    }
    this.hotPolls = 0;
    this.parked = true;
    const generation = ++this.parkGeneration;
    void this.endpoint.mailbox.parkAsync(1_000).then(() => {
      if (!this.parked || generation !== this.parkGeneration) return;
      this.parked = false;
      this.pump();
    });
  };

  /**
   * An ask just left while the pump was parked: a futex wake-up through `waitAsync` costs tens
   * of microseconds here, so poll on the event loop instead and retire the pending park.
   */
  private kick(): void {
    if (!this.parked) return;
    this.parked = false;
    this.parkGeneration++;
    this.endpoint.mailbox.wake();
    setImmediate(this.pump);
  }
}
