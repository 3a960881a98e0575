/**
 * Keeping another region's books exact over NATS (pure: the link actor does the I/O). The node
 * running a venue's edge publishes, per venue and symbol, deltas numbered 1, 2, 3... and answers
 * snapshot requests with the book at a number. Core NATS may drop or (across a reconnect) repeat
 * a message, so a consolidating node applies deltas strictly in sequence and, on a gap, holds
 * what comes after it and asks for a snapshot: the venue adapters' own rule (Binance diff-depth),
 * here for the hop between regions. Until it is whole again the remote book is not published
 * (the edge reads as not publishing, and nothing routes on it).
 */

export type RemoteBookMessage =
  /** `levels`: `[side, price_1e9, qty_1e8, ...]`, side 0 bid / 1 ask, qty 0 removes the level */
  | { k: 'delta'; venue: string; symbol: string; seq: number; ts_ns: number; levels: number[] }
  /** the book after delta `seq` (0: before the first) */
  | { k: 'snapshot'; venue: string; symbol: string; seq: number; ts_ns: number; bids: number[]; asks: number[] };

type Delta = Extract<RemoteBookMessage, { k: 'delta' }>;

export interface SyncStep {
  /** what to apply to the book, in order (a snapshot replaces it) */
  apply: RemoteBookMessage[];
  /** ask the owning node for a snapshot now */
  needSnapshot: boolean;
}

/** Deltas held while a snapshot is awaited, at most; past it the oldest go (the snapshot covers them). */
export const MAX_HELD = 10_000;

export class RemoteBookSync {
  /** the last delta applied; undefined until the first snapshot */
  private last: number | undefined;
  private held = new Map<number, Delta>();
  private awaiting = false;

  get whole(): boolean {
    return this.last !== undefined && !this.awaiting;
  }

  /** the last delta applied (the snapshot's number right after one), undefined before the first snapshot */
  get lastSeq(): number | undefined {
    return this.last;
  }

  onMessage(m: RemoteBookMessage): SyncStep {
    return m.k === 'snapshot' ? this.onSnapshot(m) : this.onDelta(m);
  }

  private onDelta(d: Delta): SyncStep {
    if (this.last !== undefined && !this.awaiting) {
      if (d.seq <= this.last) return { apply: [], needSnapshot: false };
      if (d.seq === this.last + 1) {
        this.last = d.seq;
        return { apply: [d], needSnapshot: false };
      }
    }
    // Not whole yet, or a gap: hold it and (once) ask for a snapshot.
    this.hold(d);
    const ask = !this.awaiting;
    this.awaiting = true;
    return { apply: [], needSnapshot: ask };
  }

  private onSnapshot(s: Extract<RemoteBookMessage, { k: 'snapshot' }>): SyncStep {
    if (this.last !== undefined && s.seq <= this.last && !this.awaiting) return { apply: [], needSnapshot: false };
    if (this.last !== undefined && s.seq < this.last) return { apply: [], needSnapshot: false };
    const apply: RemoteBookMessage[] = [s];
    this.last = s.seq;
    this.awaiting = false;
    const held = [...this.held.values()].sort((a, b) => a.seq - b.seq);
    this.held.clear();
    for (let i = 0; i < held.length; i++) {
      const d = held[i]!;
      if (d.seq <= this.last) continue;
      if (d.seq !== this.last + 1) {
        // A gap after the snapshot too: keep the rest and ask again.
        for (const rest of held.slice(i)) this.hold(rest);
        this.awaiting = true;
        return { apply, needSnapshot: true };
      }
      apply.push(d);
      this.last = d.seq;
    }
    return { apply, needSnapshot: false };
  }

  private hold(d: Delta): void {
    this.held.set(d.seq, d);
    // Past the bound the first held goes (a Map iterates in insertion order); the snapshot asked for covers it.
    if (this.held.size > MAX_HELD) this.held.delete(this.held.keys().next().value!);
  }
}

/** One side of a book as the publisher last sent it, best first. */
interface SentSide {
  px: Float64Array;
  qty: Float64Array;
  count: number;
}

function sentSide(levels: number): SentSide {
  return { px: new Float64Array(levels), qty: new Float64Array(levels), count: 0 };
}

/**
 * The publishing half: an edge's book of one symbol as last sent, and the delta that brings a
 * consolidating node from it to the book now (the edge's depth-cache copy, best first, at most
 * `levels` a side). A level that left the copy (taken, or pushed below the top `levels`) goes as
 * size 0, so a replica holds exactly the publisher's top `levels`.
 */
export class PublishedBook {
  private seq = 0;
  private tsNs = 0;
  private readonly sides: [SentSide, SentSide];

  constructor(readonly levels: number) {
    this.sides = [sentSide(levels), sentSide(levels)];
  }

  get lastSeq(): number {
    return this.seq;
  }

  /**
   * The delta to `now` (flat `[side, price_1e9, qty_1e8, ...]`) and its number, or undefined
   * when nothing changed. `now` sides are best first (bids descending, asks ascending).
   */
  update(bids: { px: Float64Array; qty: Float64Array; count: number }, asks: { px: Float64Array; qty: Float64Array; count: number }, ts_ns: number): { seq: number; levels: number[] } | undefined {
    const levels: number[] = [];
    diffSide(0, this.sides[0], bids, levels);
    diffSide(1, this.sides[1], asks, levels);
    if (levels.length === 0) return undefined;
    copySide(this.sides[0], bids, this.levels);
    copySide(this.sides[1], asks, this.levels);
    this.tsNs = ts_ns;
    return { seq: ++this.seq, levels };
  }

  /** The book as sent, at its delta number: a snapshot request's answer. */
  snapshot(venue: string, symbol: string): Extract<RemoteBookMessage, { k: 'snapshot' }> {
    return { k: 'snapshot', venue, symbol, seq: this.seq, ts_ns: this.tsNs, bids: flat(this.sides[0]), asks: flat(this.sides[1]) };
  }
}

function flat(side: SentSide): number[] {
  const out: number[] = [];
  for (let i = 0; i < side.count; i++) out.push(side.px[i]!, side.qty[i]!);
  return out;
}

function copySide(into: SentSide, from: { px: Float64Array; qty: Float64Array; count: number }, max: number): void {
  const n = Math.min(from.count, max);
  for (let i = 0; i < n; i++) {
    into.px[i] = from.px[i]!;
    into.qty[i] = from.qty[i]!;
  }
  into.count = n;
}

/**
 * Walks both best-first lists together: a price only in `before` is removed, one only in `now`
 * or with another size is set. `side` 0 is bids (better = higher), 1 asks (better = lower).
 */
function diffSide(side: 0 | 1, before: SentSide, now: { px: Float64Array; qty: Float64Array; count: number }, out: number[]): void {
  const n = Math.min(now.count, before.px.length);
  let i = 0;
  let j = 0;
  while (i < before.count || j < n) {
    const a = i < before.count ? before.px[i]! : undefined;
    const b = j < n ? now.px[j]! : undefined;
    if (a !== undefined && b !== undefined && a === b) {
      if (before.qty[i] !== now.qty[j]) out.push(side, b, now.qty[j]!);
      i++;
      j++;
    } else if (b === undefined || (a !== undefined && (side === 0 ? a > b : a < b))) {
      out.push(side, a!, 0);
      i++;
    } else {
      out.push(side, b, now.qty[j]!);
      j++;
    }
  }
}
