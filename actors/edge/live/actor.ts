import { NO_REPLY, type Actor, type ActorContext } from '../../../engine/actor.ts';
import { Side } from '../../../domain/market.ts';
import { wallClockNs } from '../../../domain/units.ts';
import { rulesOf } from '../../../domain/venues.ts';
import type { BookMessage } from '../../book/messages.ts';
import { book as bookEntry, bookKey } from '../../market/directory.ts';
import { BookWatchers, type BookChanged } from '../book-watchers.ts';
import { ChildJournal } from '../child-journal.ts';
import { DEPTH_LEVELS, DepthCacheWriter, depthSlot } from '../depth-cache.ts';
import type { CancelResult, ChildExecution, ChildPlacement, EdgeMessage, EdgeSnapshot, EdgeStatus, FundingInfo, FundingPoint, OpenOrdersAnswer } from '../messages.ts';
import { SandboxLegs } from '../sandbox-legs.ts';
import type { SimEdgeSpec } from '../sim/catalog.ts';
import { liveClientOf, LiveDesk } from './desk.ts';
import type { L2Book } from './l2-book.ts';
import { edgeOrderState } from './orders.ts';
import type { LiveVenue, MarketSink } from './venue.ts';

/** Levels in a snapshot sent to a book actor when a book becomes whole. */
const SNAPSHOT_DEPTH = 50;
/** The edge's heartbeat into the depth cache while its stream is up (the router's freshness rule reads it). */
const HEARTBEAT_MS = 100;
/** How long a cold-path snapshot waits for a fresh subscription's book to become whole. */
const SNAPSHOT_WAIT_MS = 3_000;
/**
 * How long a venue's funding figures (or its failure to give them) answer the edge's asks: the
 * funding clock asks every second while a perp's instant is due, the funding feed every 5 s, and
 * each read costs the venue's request weight that orders share.
 */
const FUNDING_CACHE_MS = 5_000;
const NS_PER_HOUR = 3_600_000_000_000;

/** A venue read shared by the asks of its time: its answer, or undefined when the venue did not give one. */
interface FundingRead<T> {
  at_ms: number;
  answer: Promise<T | undefined>;
}

/**
 * A venue edge on a real venue (`LIVE_VENUES`): the same messages, book actors, depth-cache
 * slots, child journal and reconciliation as the simulated edge (`../actor.ts`), with a
 * `LiveVenue` adapter in place of `SimVenue`. Books are published only while whole: a gap, a
 * stale stream or a disconnect tells the book actor `VenueDown` and marks the slot not
 * connected, so nothing routes on a broken book until the adapter has resynced it. Sandbox
 * children still fill in the sandbox venue against this (real) book.
 */
export class LiveEdgeActor implements Actor<EdgeMessage>, MarketSink {
  private ctx: ActorContext | undefined;
  private readonly type: 'spot' | 'perp';
  private depth: DepthCacheWriter | undefined;
  private readonly depthSlots = new Map<string, number>();
  private readonly whole = new Set<string>();
  private readonly journal: ChildJournal<ChildExecution | ChildPlacement>;
  private desk: LiveDesk | undefined;
  private sandbox: SandboxLegs | undefined;
  private readonly watchers: BookWatchers;
  private depthBook: L2Book | undefined;
  private lastSeenMs = 0;
  private heartbeat: NodeJS.Timeout | undefined;
  private fundingNow: FundingRead<Map<string, FundingInfo>> | undefined;
  /** by `symbol|from_ns`: the funding clock asks again with the same start until an instant is accrued */
  private readonly fundingPast = new Map<string, FundingRead<FundingPoint[]> & { to_ns: number }>();

  constructor(
    private readonly spec: SimEdgeSpec,
    private readonly venue: LiveVenue,
  ) {
    this.type = spec.instrument_type === 'perp' ? 'perp' : 'spot';
    this.watchers = new BookWatchers(spec.edge_id);
    this.journal = edgeOrderState(spec.edge_id).journal;
  }

  onStart(ctx: ActorContext): void {
    this.ctx = ctx;
    ctx.holdsSockets();
    const { shared } = ctx.environment;
    this.desk = new LiveDesk(this.spec, this.venue, ctx);
    const depth = shared['depth'];
    if (depth !== undefined) {
      this.depth = new DepthCacheWriter(depth, this.spec.edge_id);
      this.depth.latency(this.spec.market.latency_ms);
      for (const listing of this.spec.listings) {
        const entry = bookEntry(listing.symbol, this.type);
        const index = entry?.edges.indexOf(this.spec.edge_id) ?? -1;
        if (entry !== undefined && index >= 0) this.depthSlots.set(listing.symbol, depthSlot(entry, index));
      }
    }
    this.sandbox = new SandboxLegs({
      spec: this.spec,
      arrivalMs: this.spec.market.latency_ms,
      bookInto: (symbol, b) => {
        const l2 = this.venue.book(symbol);
        b.connected = l2 !== undefined && this.whole.has(symbol);
        b.bidCount = l2?.levelsInto(Side.BID, DEPTH_LEVELS, b.bidsPx, 0, b.bidsQty, 0) ?? 0;
        b.askCount = l2?.levelsInto(Side.ASK, DEPTH_LEVELS, b.asksPx, 0, b.asksQty, 0) ?? 0;
      },
      rules: (symbol) => rulesOf(this.spec.edge_id, symbol),
      nowNs: () => Date.now() * 1_000_000,
      schedule: (ms, fn) => void ctx.schedule(ms, fn),
      tell: (owner, fill) => void ctx.tell(owner, fill),
    });
    const halt = shared['halt'] === undefined ? undefined : new Int32Array(shared['halt']);
    this.venue.start(this);
    for (const listing of this.spec.listings) if (listing.subscribed) this.venue.subscribe(listing.symbol);
    this.heartbeat = setInterval(() => {
      const now = Date.now();
      if (this.venue.stats().connected) this.depth?.heartbeat(now);
      // A venue behind another region's node is as far as measured (its edge's latency plus half the round trip).
      const remote = this.venue.remote?.();
      if (remote !== undefined) this.depth?.latency(remote.latency_ms);
      if (halt !== undefined) this.desk!.watchHalt(Atomics.load(halt, 0) === 1, this.listedSymbols);
    }, HEARTBEAT_MS);
    ctx.log.info({ edge: this.spec.edge_id, venue: this.spec.venue }, 'live venue edge started');
    // After a runtime restart of this actor (not of the process) its own children still work:
    // they are this run's, not leftovers.
    if (ctx.restarts === 0) this.desk!.cancelLeftovers();
  }

  onStop(): void {
    if (this.heartbeat !== undefined) clearInterval(this.heartbeat);
    this.desk?.stop();
    this.venue.stop();
  }

  onMessage(message: EdgeMessage, ctx: ActorContext): unknown {
    const orders = this.desk!.orders;
    switch (message.t) {
      case 'Status':
        return this.status();
      case 'Subscribe':
        return this.venue.subscribe(message.symbol);
      case 'WatchBook':
        if (!this.venue.subscribe(message.symbol)) return false;
        this.watchers.watch(message.symbol, message.watcher, message.until_ms);
        return true;
      case 'Snapshot':
        if (!this.venue.subscribe(message.symbol)) return null;
        return this.snapshotWhenWhole(message.symbol, message.depth, ctx);
      case 'Book':
        return this.snapshot(message.symbol, message.depth);
      case 'FeeTier':
        return this.desk!.feeTier(message.client_id);
      case 'Execute':
      case 'Place': {
        if (message.sandbox) return this.sandboxLeg(message);
        const client = liveClientOf(message.owner);
        if (client === undefined) return this.refusal(message.child_id, message.t === 'Place', 'a live venue child needs a live router as its owner');
        return orders.leg(client, message.owner, message.child_id, message.symbol, message.side, message.qty_1e8, message.limit_price_1e9, message.t === 'Place');
      }
      case 'Cancel':
        if (this.sandbox?.isResting(message.child_id)) {
          const cancelled = this.sandbox.cancel(message.child_id);
          return { child_id: message.child_id, found: cancelled > 0, cancelled_qty_1e8: cancelled } satisfies CancelResult;
        }
        return orders.cancel(message.child_id);
      case 'Reconcile':
        return orders.reconcile(message.child_id, message.leg);
      case 'OpenOrders': {
        const open = new Set(orders.openChildren());
        return { venue: this.spec.venue, edge_id: this.spec.edge_id, resting: message.child_ids.filter((id) => open.has(id)) } satisfies OpenOrdersAnswer;
      }
      case 'Balances':
        return this.desk!.balances(message.client_id, this.tradedAssets());
      // A venue that could not be read leaves the ask unanswered (NO_REPLY), as reconciliation
      // does: the funding clock then keeps its instant due and asks again, rather than taking
      // "no funding" for an answer.
      case 'Funding':
        return this.venue.funding === undefined ? null : this.currentFunding().then((bySymbol) => (bySymbol === undefined ? NO_REPLY : (bySymbol.get(message.symbol) ?? null)));
      case 'FundingAll':
        return this.venue.funding === undefined ? [] : this.currentFunding().then((bySymbol) => (bySymbol === undefined ? NO_REPLY : [...bySymbol.values()]));
      case 'FundingHistory':
        return this.venue.fundingHistory === undefined ? [] : this.settledFunding(message.symbol, message.from_ns, message.to_ns).then((points) => points ?? NO_REPLY);
      case 'LegFaults':
        // Faults are the simulator's; a real venue brings its own.
        return false;
    }
  }

  // MarketSink: the adapter's books.
  onBookWhole(symbol: string, book: L2Book, ts_ns: number): void {
    this.whole.add(symbol);
    this.lastSeenMs = Math.floor(ts_ns / 1_000_000);
    this.writeDepth(symbol, book, ts_ns);
    this.ctx!.tell(this.bookOf(symbol), { t: 'Snapshot', venue: this.spec.venue, bids: book.flat(Side.BID, SNAPSHOT_DEPTH), asks: book.flat(Side.ASK, SNAPSHOT_DEPTH), ts_ns } satisfies BookMessage);
    this.watchers.notify(symbol, Date.now(), wallClockNs(), this.tellWatcher);
  }

  onBookChanges(symbol: string, changes: number[], ts_ns: number): void {
    const book = this.venue.book(symbol);
    if (book === undefined) return;
    this.lastSeenMs = Math.floor(ts_ns / 1_000_000);
    const sandbox = this.sandbox;
    if (sandbox !== undefined) for (let i = 0; i < changes.length; i += 3) sandbox.onLevel(symbol, changes[i] as Side, changes[i + 1]!, changes[i + 2]!);
    this.writeDepth(symbol, book, ts_ns);
    this.ctx!.tell(this.bookOf(symbol), { t: 'Levels', venue: this.spec.venue, ts_ns, edge_ts_ns: wallClockNs(), levels: changes.slice() } satisfies BookMessage);
    this.watchers.notify(symbol, Date.now(), wallClockNs(), this.tellWatcher);
  }

  onBookBroken(symbol: string, reason: string): void {
    if (!this.whole.delete(symbol)) return;
    const ctx = this.ctx!;
    ctx.log.warn({ edge: this.spec.edge_id, symbol, reason }, 'live book not whole: not publishing until resynced');
    const slot = this.depthSlots.get(symbol);
    if (slot !== undefined) this.depth?.write(slot, false, wallClockNs(), () => 0);
    ctx.tell(this.bookOf(symbol), { t: 'VenueDown', venue: this.spec.venue, ts_ns: wallClockNs() } satisfies BookMessage);
  }

  private readonly tellWatcher = (to: string, message: BookChanged): void => void this.ctx!.tell(to, message);

  private writeDepth(symbol: string, book: L2Book, ts_ns: number): void {
    const slot = this.depthSlots.get(symbol);
    if (this.depth === undefined || slot === undefined) return;
    this.depthBook = book;
    this.depth.write(slot, true, ts_ns, this.fillDepth);
  }

  private readonly fillDepth = (side: Side, words: Float64Array, pricesAt: number, qtysAt: number): number =>
    this.depthBook!.levelsInto(side, DEPTH_LEVELS, words, pricesAt, words, qtysAt);

  private readonly listedSymbols = (): string[] => this.spec.listings.map((l) => l.symbol);

  /** A spot edge's bases and quotes (a perp venue's collateral is whatever it reports). */
  private tradedAssets(): string[] {
    return this.spec.instrument_type === 'spot' ? this.spec.listings.flatMap((l) => [l.base, l.quote]) : [];
  }

  /** Every listing's funding now: one venue read shared by the asks of FUNDING_CACHE_MS. */
  private currentFunding(): Promise<Map<string, FundingInfo> | undefined> {
    const now = Date.now();
    if (this.fundingNow !== undefined && now - this.fundingNow.at_ms < FUNDING_CACHE_MS) return this.fundingNow.answer;
    const answer = this.venue.funding!(this.spec.listings.map((l) => l.symbol)).then(
      (infos) => new Map(infos.map((i) => [i.symbol, i])),
      (err: unknown) => {
        this.ctx!.log.warn({ edge: this.spec.edge_id, err: (err as Error).message }, 'funding rates not read from the venue');
        return undefined;
      },
    );
    this.fundingNow = { at_ms: now, answer };
    return answer;
  }

  /**
   * A symbol's settled funding from `from_ns`: a read of the last FUNDING_CACHE_MS with the same
   * start answers again (cut at `to_ns`) unless a funding instant may have passed since it was
   * made, which only a fresh read can hold.
   */
  private settledFunding(symbol: string, from_ns: number, to_ns: number): Promise<FundingPoint[] | undefined> {
    const now = Date.now();
    const key = `${symbol}|${from_ns}`;
    const interval = (this.spec.funding?.interval_h ?? 1) * NS_PER_HOUR;
    const cached = this.fundingPast.get(key);
    if (cached !== undefined && now - cached.at_ms < FUNDING_CACHE_MS && (to_ns <= cached.to_ns || Math.floor(to_ns / interval) === Math.floor(cached.to_ns / interval))) {
      return cached.answer.then((points) => points?.filter((p) => p.ts_ns <= to_ns));
    }
    for (const [k, read] of this.fundingPast) if (now - read.at_ms >= FUNDING_CACHE_MS) this.fundingPast.delete(k);
    const answer = this.venue.fundingHistory!(symbol, from_ns, to_ns).catch((err: unknown) => {
      this.ctx!.log.warn({ edge: this.spec.edge_id, symbol, err: (err as Error).message }, 'funding history not read from the venue');
      return undefined;
    });
    this.fundingPast.set(key, { at_ms: now, to_ns, answer });
    return answer;
  }

  private sandboxLeg(message: Extract<EdgeMessage, { t: 'Execute' | 'Place' }>): Promise<unknown> {
    const profile = message.sandbox!;
    const sandbox = this.sandbox!;
    const answer =
      message.t === 'Execute'
        ? sandbox.execute(profile, message.child_id, message.symbol, message.side, message.qty_1e8, message.limit_price_1e9)
        : sandbox.place(profile, message.owner, message.child_id, message.symbol, message.side, message.qty_1e8, message.limit_price_1e9);
    return answer.then(({ answer: result, lost }) => {
      this.journal.record(message.child_id, result);
      return lost ? NO_REPLY : result;
    });
  }

  private refusal(child_id: string, place: boolean, reason: string): ChildExecution | ChildPlacement {
    const execution: ChildExecution = { child_id, venue: this.spec.venue, edge_id: this.spec.edge_id, ok: false, reason, fills: [], taker_bps: this.spec.taker_bps, maker_bps: this.spec.maker_bps, ack_ns: wallClockNs() };
    return place ? { ...execution, resting_qty_1e8: 0 } : execution;
  }

  private snapshot(symbol: string, depth: number): EdgeSnapshot | null {
    const book = this.whole.has(symbol) ? this.venue.book(symbol) : undefined;
    if (book === undefined) return null;
    return { venue: this.spec.venue, bids: book.flat(Side.BID, depth), asks: book.flat(Side.ASK, depth), ts_ns: this.lastSeenMs * 1_000_000 };
  }

  /** A cold-path snapshot: the book once whole (a fresh subscription needs its REST snapshot first), or null after the wait. */
  private snapshotWhenWhole(symbol: string, depth: number, ctx: ActorContext): EdgeSnapshot | null | Promise<EdgeSnapshot | null> {
    const now = this.snapshot(symbol, depth);
    if (now !== null) return now;
    const until = Date.now() + SNAPSHOT_WAIT_MS;
    return new Promise((resolve) => {
      const check = () => {
        const s = this.snapshot(symbol, depth);
        if (s !== null || Date.now() >= until) resolve(s);
        else ctx.schedule(50, check);
      };
      ctx.schedule(50, check);
    });
  }

  private bookOf(symbol: string): string {
    return bookKey(symbol, this.type);
  }

  private status(): EdgeStatus {
    const stats = this.venue.stats();
    const symbols = [...this.whole];
    const remote = this.venue.remote?.();
    return {
      edge_id: this.spec.edge_id,
      venue: this.spec.venue,
      instrument_type: this.spec.instrument_type,
      // Publishing: the stream is up and every subscribed book is whole (a resync in progress reads as down).
      connected: stats.connected && symbols.length === stats.subscribed,
      symbol_count: symbols.length,
      symbols: symbols.map((symbol) => ({ symbol, instrument_type: this.spec.instrument_type })),
      last_seen_ms: this.lastSeenMs,
      region: remote?.region ?? this.spec.region,
      ...(remote !== undefined ? { remote: true, ...(remote.age_ms !== undefined ? { age_ms: remote.age_ms } : {}) } : {}),
      supports_algo_runtime: this.spec.supports_algo_runtime,
      stats: { levels: stats.updates, trades: 0, disconnects: stats.disconnects + stats.resyncs, stale: !stats.connected },
    };
  }
}
