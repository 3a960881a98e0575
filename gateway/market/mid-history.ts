import { QuoteCacheReader, QuoteSnapshot } from '../../actors/book/quote-cache.ts';
import { books, type BookEntry } from '../../actors/market/directory.ts';
import type { MidSample } from './signals.ts';

/**
 * A short history of every consolidated book's NBBO mid, for the signals' returns and realised
 * volatility (`GET /v1/data/signals`): the books keep no history, so the gateway thread samples
 * each book's quote-cache slot on a fixed clock into one ring per book.
 *
 *   timer (MID_SAMPLE_MS) -> each book's slot (shared memory, no message) -> MidRing of the book
 *
 *   MidRing (MID_HISTORY_SLOTS samples, the oldest overwritten):
 *     ts_ms  | t0 | t1 | ... | t(n-1) |      parallel Float64Arrays, `next` is the slot
 *     mid    | m0 | m1 | ... | m(n-1) |      written next (the oldest once full)
 *
 * A book is sampled only while its NBBO is fresh (changed within STALE_AFTER_MS, the quote
 * service's rule) and two-sided; a book with no data allocates no ring.
 */
export const MID_SAMPLE_MS = 500;
/** Power of two: 1,024 s of samples at MID_SAMPLE_MS. */
export const MID_HISTORY_SLOTS = 2048;
/** The longest horizon the signals serve: within the history, with room for its reference sample. */
export const MAX_SIGNAL_HORIZON_S = 900;
/** A book whose NBBO has not changed for this long is not sampled (its feeds may be down). */
const STALE_AFTER_MS = 30_000;

/** One book's mid samples, ascending in time. Pure: the caller passes the instants. */
export class MidRing {
  private readonly ts = new Float64Array(MID_HISTORY_SLOTS);
  private readonly mid = new Float64Array(MID_HISTORY_SLOTS);
  private next = 0;
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** A sample; one not later than the last is dropped (the clock stepped back). */
  push(ts_ms: number, mid_1e9: number): void {
    if (this.count > 0 && ts_ms <= this.ts[(this.next - 1) & (MID_HISTORY_SLOTS - 1)]!) return;
    this.ts[this.next] = ts_ms;
    this.mid[this.next] = mid_1e9;
    this.next = (this.next + 1) & (MID_HISTORY_SLOTS - 1);
    if (this.count < MID_HISTORY_SLOTS) this.count++;
  }

  /** The oldest sample's time, or null when empty. */
  oldestMs(): number | null {
    return this.count === 0 ? null : this.ts[this.index(0)]!;
  }

  /**
   * The samples from `from_ms` on, ascending, led by the last sample at or before `from_ms` when
   * there is one (the reference of a return over the window).
   */
  since(from_ms: number): MidSample[] {
    let first = 0;
    // The last sample at or before from_ms, by binary search over the ascending ring.
    let lo = 0;
    let hi = this.count - 1;
    while (lo <= hi) {
      const m = (lo + hi) >> 1;
      if (this.ts[this.index(m)]! <= from_ms) {
        first = m;
        lo = m + 1;
      } else hi = m - 1;
    }
    const out: MidSample[] = [];
    for (let i = first; i < this.count; i++) {
      const j = this.index(i);
      out.push({ ts_ms: this.ts[j]!, mid_1e9: this.mid[j]! });
    }
    return out;
  }

  /** The slot of the i-th oldest sample. */
  private index(i: number): number {
    return (this.next - this.count + i) & (MID_HISTORY_SLOTS - 1);
  }
}

/** Every book's mid ring, sampled on the gateway thread. */
export class MidHistory {
  private readonly reader: QuoteCacheReader;
  private readonly snapshot = new QuoteSnapshot();
  private readonly rings: (MidRing | undefined)[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    quotes: SharedArrayBuffer,
    private readonly entries: readonly BookEntry[] = books(),
  ) {
    this.reader = new QuoteCacheReader(quotes);
  }

  start(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => this.sample(Date.now()), MID_SAMPLE_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One sample of every fresh, two-sided book at `now_ms`. */
  sample(now_ms: number): void {
    const s = this.snapshot;
    for (const entry of this.entries) {
      if (!this.reader.read(entry.slot, 0, s)) continue;
      if (s.bid_1e9 <= 0 || s.ask_1e9 <= 0 || now_ms - s.updated_ms >= STALE_AFTER_MS) continue;
      let ring = this.rings[entry.slot];
      if (ring === undefined) ring = this.rings[entry.slot] = new MidRing();
      ring.push(now_ms, (s.bid_1e9 + s.ask_1e9) / 2);
    }
  }

  /** The book's samples from `from_ms` on, with the reference before it (`MidRing.since`). */
  since(entry: BookEntry, from_ms: number): MidSample[] {
    return this.rings[entry.slot]?.since(from_ms) ?? [];
  }

  /** The book's oldest sample, or null when it has none. */
  oldestMs(entry: BookEntry): number | null {
    return this.rings[entry.slot]?.oldestMs() ?? null;
  }
}
