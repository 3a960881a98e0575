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
