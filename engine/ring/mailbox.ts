import { DOORBELL_I32, SLEEPING_I32 } from './layout.ts';
import { RingReader, type FrameHandler, type RingHandle } from './spsc-ring.ts';

/** Called with the index of the producing thread before its frames are handed over. */
export type SourcedFrameHandler = (source: number, ...frame: Parameters<FrameHandler>) => void;

/**
 * The consuming side of one thread's mailbox: one SPSC ring per producer thread, drained
 * round-robin, plus the control block producers use to wake a parked consumer.
 *
 *   producer 0 --ring--> \
 *   producer 1 --ring-->  +--> Mailbox (this thread) --> dispatch
 *   producer k --ring--> /
 */
export class Mailbox {
  private readonly readers: (RingReader | undefined)[] = [];
  private readonly handlers: FrameHandler[] = [];
  private readonly control: Int32Array;
  private sourceHandler: SourcedFrameHandler = () => {};

  constructor(control: SharedArrayBuffer) {
    this.control = new Int32Array(control);
  }

  /** Replaces (or adds) the ring fed by thread `source`, as after that thread restarted. */
  attach(source: number, ring: RingHandle): void {
    this.readers[source] = new RingReader(ring);
    this.handlers[source] = (type, bytes, offset, length, endOfBatch) =>
      this.sourceHandler(source, type, bytes, offset, length, endOfBatch);
  }

  detach(source: number): void {
    this.readers[source] = undefined;
  }

  onFrame(handler: SourcedFrameHandler): void {
    this.sourceHandler = handler;
  }

  /** Drains up to `budget` frames from each ring; returns how many were handled. */
  poll(budget: number): number {
    let handled = 0;
    const readers = this.readers;
    for (let source = 0; source < readers.length; source++) {
      const reader = readers[source];
      if (reader !== undefined) handled += reader.read(this.handlers[source]!, budget);
    }
    return handled;
  }

  hasWork(): boolean {
    const readers = this.readers;
    for (let i = 0; i < readers.length; i++) {
      const reader = readers[i];
      if (reader !== undefined && !reader.isEmpty()) return true;
    }
    return false;
  }

  /** Bytes waiting across all rings, for the feeds health read-out. */
  pendingBytes(): number {
    let total = 0;
    for (const reader of this.readers) if (reader !== undefined) total += reader.usedBytes();
    return total;
  }

  /** The fullest inbound ring's share in use, 0..1: one full ring is backpressure on its producer. */
  fullestRing(): number {
    let fullest = 0;
    for (const reader of this.readers) if (reader !== undefined) fullest = Math.max(fullest, reader.usedBytes() / reader.capacity);
    return fullest;
  }

  /**
   * Blocks the thread until a producer rings or `timeoutMs` passes. Only for threads that own
   * no sockets: the event loop does not run while parked.
   */
  park(timeoutMs: number): void {
    const doorbell = this.announceSleep();
    if (doorbell !== undefined) Atomics.wait(this.control, DOORBELL_I32, doorbell, timeoutMs);
    Atomics.store(this.control, SLEEPING_I32, 0);
  }

  /**
   * The event-loop-friendly park: resolves when a producer rings or `timeoutMs` passes. The
   * returned promise resolves at once when work is already waiting.
   */
  parkAsync(timeoutMs: number): Promise<unknown> {
    const doorbell = this.announceSleep();
    if (doorbell === undefined) {
      Atomics.store(this.control, SLEEPING_I32, 0);
      return Promise.resolve();
    }
    const wait = Atomics.waitAsync(this.control, DOORBELL_I32, doorbell, timeoutMs);
    const wake = () => Atomics.store(this.control, SLEEPING_I32, 0);
    if (!wait.async) {
      wake();
      return Promise.resolve();
    }
    return wait.value.then(wake);
  }

  /** Wakes a parked consumer from outside (shutdown, rewiring). */
  wake(): void {
    Atomics.add(this.control, DOORBELL_I32, 1);
    Atomics.notify(this.control, DOORBELL_I32);
  }

  /**
   * Sets SLEEPING, then reads the doorbell and re-checks the rings. Returns the doorbell value
   * to wait on, or undefined when work arrived. The order matters: a producer that published
   * before our SLEEPING store is seen by the re-check; one that published after it sees
   * SLEEPING and bumps the doorbell, so the wait returns at once.
   */
  private announceSleep(): number | undefined {
    Atomics.store(this.control, SLEEPING_I32, 1);
    const doorbell = Atomics.load(this.control, DOORBELL_I32);
    if (this.hasWork()) {
      Atomics.store(this.control, SLEEPING_I32, 0);
      return undefined;
    }
    return doorbell;
  }
}
