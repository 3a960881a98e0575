/**
 * A timer queue for threads whose event loop is parked in `Atomics.wait` between messages: the
 * worker loop asks `nextDelay()` so it parks no longer than the earliest deadline. A binary
 * min-heap on deadline; cancelled entries are skipped when they surface.
 */
interface TimerEntry {
  deadline: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

export interface Scheduler {
  schedule(delayMs: number, fn: () => void): () => void;
}

export class TimerQueue implements Scheduler {
  private readonly heap: TimerEntry[] = [];
  private seq = 0;
  private cancelled = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  schedule(delayMs: number, fn: () => void): () => void {
    const entry: TimerEntry = { deadline: this.now() + delayMs, seq: this.seq++, fn, cancelled: false };
    this.push(entry);
    return () => {
      if (entry.cancelled) return;
      entry.cancelled = true;
      // Every answered ask cancels its timeout: without compaction a busy worker's heap would
      // hold one dead entry per ask for the whole timeout.
      if (++this.cancelled > 64 && this.cancelled * 2 > this.heap.length) this.compact();
    };
  }

  private compact(): void {
    const live = this.heap.filter((e) => !e.cancelled);
    this.heap.length = 0;
    this.cancelled = 0;
    for (const entry of live) this.push(entry);
  }

  /** Runs every due timer; returns how many ran. A throwing timer does not stop the others. */
  runDue(onError: (err: unknown) => void): number {
    const now = this.now();
    let ran = 0;
    while (this.heap.length > 0 && this.heap[0]!.deadline <= now) {
      const entry = this.pop();
      if (entry.cancelled) {
        this.cancelled--;
        continue;
      }
      ran++;
      try {
        entry.fn();
      } catch (err) {
        onError(err);
      }
    }
    return ran;
  }

  /** Milliseconds until the earliest live deadline, or Infinity. */
  nextDelay(): number {
    while (this.heap.length > 0 && this.heap[0]!.cancelled) {
      this.pop();
      this.cancelled--;
    }
    if (this.heap.length === 0) return Infinity;
    return Math.max(0, this.heap[0]!.deadline - this.now());
  }

  get size(): number {
    return this.heap.length;
  }

  private less(a: TimerEntry, b: TimerEntry): boolean {
    return a.deadline < b.deadline || (a.deadline === b.deadline && a.seq < b.seq);
  }

  private push(entry: TimerEntry): void {
    const heap = this.heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  private pop(): TimerEntry {
    const heap = this.heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && this.less(heap[l]!, heap[m]!)) m = l;
        if (r < heap.length && this.less(heap[r]!, heap[m]!)) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m]!, heap[i]!];
        i = m;
      }
    }
    return top;
  }
}

/** The event-loop scheduler for the gateway thread, whose loop is never parked. */
export const eventLoopScheduler: Scheduler = {
  schedule(delayMs, fn) {
    const handle = setTimeout(fn, delayMs);
    return () => clearTimeout(handle);
  },
};
