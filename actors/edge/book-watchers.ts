/**
 * Who wants to hear that a book of this edge changed: strategy deployments (`algo:` actors) that
 * read the edge's book from the depth cache when told. A watch is a lease: the watcher renews it
 * (every second or so) and it lapses unrenewed, so an edge that restarted, or a watcher that
 * went away, needs no unsubscribe and leaves nothing behind.
 */
export interface BookChanged {
  t: 'BookChanged';
  edge_id: string;
  symbol: string;
  /** when the edge published the change: wall clock, ns, sub-microsecond (the algo's L2Book recv_ns) */
  edge_ns: number;
}

export class BookWatchers {
  /** symbol -> watcher key -> lease end (ms) */
  private readonly bySymbol = new Map<string, Map<string, number>>();

  constructor(private readonly edgeId: string) {}

  watch(symbol: string, watcher: string, untilMs: number): void {
    let watchers = this.bySymbol.get(symbol);
    if (watchers === undefined) this.bySymbol.set(symbol, (watchers = new Map()));
    watchers.set(watcher, untilMs);
  }

  /** Tells every live watcher of `symbol` that its book changed; drops lapsed leases. */
  notify(symbol: string, nowMs: number, edgeNs: number, tell: (to: string, message: BookChanged) => void): void {
    const watchers = this.bySymbol.get(symbol);
    if (watchers === undefined) return;
    for (const [watcher, until] of watchers) {
      if (until < nowMs) watchers.delete(watcher);
      else tell(watcher, { t: 'BookChanged', edge_id: this.edgeId, symbol, edge_ns: edgeNs });
    }
    if (watchers.size === 0) this.bySymbol.delete(symbol);
  }
}
