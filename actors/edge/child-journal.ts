import { RecentMap } from '../../domain/recent.ts';

/**
 * What an edge did with each child order it was sent, so a router whose answer was lost can
 * reconcile against the venue instead of guessing: the edge's answer, or, for a child it never
 * saw, a tombstone, so the child is refused if it arrives late (it then never executes, and the
 * router may book it as not received).
 *
 * Bounded twice: entries older than `retentionMs` go (a router reconciles a lost answer within
 * about 11 s: the child timeout, then eight backoffs, `execution/legs.ts`), and at most
 * `capacity` are kept whatever their age. Without the age bound a quiet edge kept its last
 * 20,000 answers for hours (half a kilobyte each), which the soak saw as a steady climb.
 */
export type Reconciled<R> = { known: true; result: R } | { known: false };

const TOMBSTONE = Symbol('tombstone');

export class ChildJournal<R> {
  private readonly entries: RecentMap<string, R | typeof TOMBSTONE>;

  constructor(
    capacity = 20_000,
    private readonly retentionMs = 60_000,
    private readonly clock: () => number = Date.now,
  ) {
    this.entries = new RecentMap(capacity);
  }

  /** True when the child was reconciled as never received: it must not execute now. */
  refused(childId: string): boolean {
    return this.entries.get(childId) === TOMBSTONE;
  }

  record(childId: string, result: R): void {
    this.put(childId, result);
  }

  /** What is known of the child, without refusing it when nothing is (a live edge asks its venue first). */
  peek(childId: string): Reconciled<R> | undefined {
    const entry = this.entries.get(childId);
    if (entry === undefined) return undefined;
    return entry === TOMBSTONE ? { known: false } : { known: true, result: entry };
  }

  /** The child is refused from now on: reconciled as never received. */
  refuse(childId: string): void {
    this.put(childId, TOMBSTONE);
  }

  reconcile(childId: string): Reconciled<R> {
    const entry = this.entries.get(childId);
    if (entry === undefined) {
      this.put(childId, TOMBSTONE);
      return { known: false };
    }
    return entry === TOMBSTONE ? { known: false } : { known: true, result: entry };
  }

  get size(): number {
    return this.entries.size;
  }

  private put(childId: string, entry: R | typeof TOMBSTONE): void {
    const now = this.clock();
    this.entries.forgetBefore(now - this.retentionMs);
    this.entries.set(childId, entry, now);
  }
}
