/** Percentiles of the last N samples (pure; a fixed ring, nothing allocated per sample). */
export class LatencySamples {
  private readonly ring: Float64Array;
  private count = 0;

  constructor(size = 4_096) {
    this.ring = new Float64Array(size);
  }

  add(value: number): void {
    if (!Number.isFinite(value)) return;
    this.ring[this.count % this.ring.length] = value;
    this.count++;
  }

  /** p50 and p99 (nearest rank) of the kept samples, rounded to 0.1; zeros when none. */
  summary(): { n: number; p50: number; p99: number } {
    const n = Math.min(this.count, this.ring.length);
    if (n === 0) return { n: 0, p50: 0, p99: 0 };
    const sorted = this.ring.slice(0, n).sort();
    const at = (q: number) => Math.round(sorted[Math.min(n - 1, Math.ceil(q * n) - 1)]! * 10) / 10;
    return { n: this.count, p50: at(0.5), p99: at(0.99) };
  }
}

/** A deployment's latency figures, microseconds: the edge published a book change -> ... */
export interface AlgoLatency {
  /** -> the algo's algo_on_book began */
  book_to_callback_us: { n: number; p50: number; p99: number };
  /** -> the order the callback returned was taken by the client's router */
  book_to_router_us: { n: number; p50: number; p99: number };
  /** -> the router answered it (admitted, durable in the journal) */
  book_to_ack_us: { n: number; p50: number; p99: number };
  /** this host took the book change -> the router took the order (the host's own path: no edge, no wake-up of this thread) */
  host_to_router_us: { n: number; p50: number; p99: number };
}
