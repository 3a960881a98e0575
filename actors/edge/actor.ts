import { NO_REPLY, type Actor, type ActorContext } from '../../engine/actor.ts';
import { WireWriter } from '../../engine/wire.ts';
import { Side } from '../../domain/market.ts';
import { venueFee1e9, wallClockNs } from '../../domain/units.ts';
import type { BookMessage } from '../book/messages.ts';
import { book, bookKey, type BookType } from '../market/directory.ts';
import { ChildJournal } from './child-journal.ts';
import { DEPTH_LEVELS, DepthCacheWriter, depthSlot } from './depth-cache.ts';
import { simEdge, type SimEdgeSpec } from './sim/catalog.ts';
import { rulesOf } from '../../domain/venues.ts';
import { LatentPriceModel } from './sim/latent-price.ts';
import { SimVenue, type ExecutionFill, type TradeEvent, type VenueSink } from './sim/sim-venue.ts';
import { corrupt, VenueFaults, type LegFault } from './sim/venue-faults.ts';
import { childExecutionLayout, childPlacementLayout, EdgeFrame } from './wire.ts';
import { placementOf, pricedFill } from './reports.ts';
import { SandboxLegs } from './sandbox-legs.ts';
import { BookWatchers, type BookChanged } from './book-watchers.ts';
import { TAPE_TOPIC, type CancelResult, type ChildExecution, type ChildPlacement, type EdgeMessage, type EdgeSnapshot, type EdgeStatus, type FeeTierInfo, type MakerFill, type OpenOrdersAnswer, type TapeBatch } from './messages.ts';

/** A client's child resting on the venue. */
interface RestingChild {
  child_id: string;
  order_id: number;
  cum_fee_1e9: number;
  /** The actor its maker fills are told to (the order's router). */
  owner: string;
  /** An injected fault: each of its maker fills is told twice. */
  duplicate: boolean;
}

type Execute = Extract<EdgeMessage, { t: 'Execute' }>;
type Place = Extract<EdgeMessage, { t: 'Place' }>;

/** How often the simulated venue is advanced to the wall clock: the edge publishes its deltas in 10 ms batches, as venue depth streams do (10-100 ms). */
export const ADVANCE_MS = 10;
/** Levels in a snapshot sent to a book actor on (re)connect. */
const SNAPSHOT_DEPTH = 50;
const NS_PER_MS = 1_000_000;

/**
 * One venue edge: connects (here, to a simulated venue), subscribes, normalises to integer L2
 * deltas and forwards them to the book actors; trades go to the gateway's tape.
 *
 *   timer (10 ms) -> SimVenue.advance(now) -> sink -> per-symbol delta buffers
 *                 -> Levels to book:<symbol>[:perp]; trade batch -> $tape topic (gateway, LMDB)
 *                 -> the changed symbols' depth slots (shared memory, read by the router)
 *
 * A real venue adapter (wire formats, signing) replaces SimVenue behind the same sink.
 */
export function edgeActor(key: string): Actor<EdgeMessage> {
  const spec = simEdge(key.slice('edge:'.length));
  if (spec === undefined) throw new Error(`no edge ${key} in the venue catalog`);
  return new EdgeActor(spec);
}

class EdgeActor implements Actor<EdgeMessage>, VenueSink {
  private sim: SimVenue | undefined;
  private ctx: ActorContext | undefined;
  private readonly type: BookType;
  private readonly books = new Map<string, string>();
  /** symbol -> flat [side, price, qty, ...] since the last flush */
  private readonly pending = new Map<string, number[]>();
  private latestTs = 0;
  private tape: TapeBatch;
  private connected = false;
  private lastSeenMs = 0;
  private cancelTimer: (() => void) | undefined;
  private depth: DepthCacheWriter | undefined;
  /** symbol -> its depth-cache slot */
  private readonly depthSlots = new Map<string, number>();
  /** Every child's answer (and tombstones of children reconciled unseen), for `Reconcile`. */
  private readonly journal = new ChildJournal<ChildExecution | ChildPlacement>();
  /** Clients' resting children, by venue order id and by child id. */
  private readonly resting = new Map<number, RestingChild>();
  private readonly restingByChild = new Map<string, RestingChild>();
  /** The symbol `fillDepth` writes; set just before each slot write (no closure per write). */
  private depthSymbol = '';
  /** Sandbox children: executed against this edge's book, never on the venue (`sandbox-legs.ts`). */
  private sandbox: SandboxLegs | undefined;
  /** How long a child order takes to reach the venue (ms): the venue's one-way latency, or 0 with `SIM_ORDER_LATENCY=off`. */
  private arrivalMs = 0;
  /** Strategy deployments told when a book changes (`WatchBook`). */
  private watchers: BookWatchers;
  /** Injected child-order faults (test-only `LegFaults`); undefined, the default, costs one branch per leg. */
  private legFaults: VenueFaults | undefined;

  constructor(private readonly spec: SimEdgeSpec) {
    this.type = spec.instrument_type === 'perp' ? 'perp' : 'spot';
    this.tape = this.emptyTape();
    this.watchers = new BookWatchers(spec.edge_id);
  }

  onStart(ctx: ActorContext): void {
    this.ctx = ctx;
    const seed = Number(ctx.environment.settings['simSeed'] ?? 1);
    this.arrivalMs = ctx.environment.settings['simOrderLatency'] === 'off' ? 0 : this.spec.market.latency_ms;
    const model = new LatentPriceModel(seed);
    const fundingIntervalS = Number(ctx.environment.settings['simFundingIntervalS'] ?? 0);
    this.sim = new SimVenue(this.spec, model, seed, this, { start_ns: Date.now() * NS_PER_MS, ...(fundingIntervalS > 0 ? { funding_interval_s: fundingIntervalS } : {}) });
    const depth = ctx.environment.shared['depth'];
    if (depth !== undefined) {
      this.depth = new DepthCacheWriter(depth, this.spec.edge_id);
      // The router prices in the one-way latency to the venue: the simulated venue's here; a
      // real adapter writes what it measures.
      this.depth.latency(this.spec.market.latency_ms);
      for (const listing of this.spec.listings) {
        const entry = book(listing.symbol, this.type);
        const index = entry?.edges.indexOf(this.spec.edge_id) ?? -1;
        if (entry !== undefined && index >= 0) this.depthSlots.set(listing.symbol, depthSlot(entry, index));
      }
    }
    const sim = this.sim;
    this.sandbox = new SandboxLegs({
      spec: this.spec,
      arrivalMs: this.arrivalMs,
      bookInto: (symbol, b) => {
        sim.advance(Date.now() * NS_PER_MS);
        b.bidCount = sim.levelsInto(symbol, Side.BID, DEPTH_LEVELS, b.bidsPx, 0, b.bidsQty, 0);
        b.askCount = sim.levelsInto(symbol, Side.ASK, DEPTH_LEVELS, b.asksPx, 0, b.asksQty, 0);
        b.connected = sim.isConnected();
      },
      rules: (symbol) => rulesOf(this.spec.edge_id, symbol),
      nowNs: () => Date.now() * NS_PER_MS,
      schedule: (ms, fn) => void ctx.schedule(ms, fn),
      tell: (owner, fill) => void ctx.tell(owner, fill),
    });
    this.tick();
  }

  onStop(): void {
    this.cancelTimer?.();
  }

  onMessage(message: EdgeMessage, ctx: ActorContext): unknown {
    const sim = this.sim!;
    switch (message.t) {
      case 'Status':
        return this.status();
      case 'Subscribe':
        return this.subscribe(message.symbol);
      case 'WatchBook':
        if (!this.subscribe(message.symbol)) return false;
        this.watchers.watch(message.symbol, message.watcher, message.until_ms);
        return true;
      case 'Snapshot': {
        if (!sim.isListed(message.symbol)) return null;
        this.subscribe(message.symbol);
        // The venue's REST round trip: the reply comes after its latency, like a real fetch.
        const latencyMs = 100 + (this.spec.market.latency_ms % 50) * 4;
        return new Promise<EdgeSnapshot | null>((resolve) =>
          ctx.schedule(latencyMs, () => resolve(this.snapshot(message.symbol, message.depth))),
        );
      }
      case 'Book':
        return this.snapshot(message.symbol, message.depth);
      case 'FeeTier':
        // The simulated venues charge every account their base schedule; the answer comes after
        // the venue's REST round trip, as a real account-info call would.
        return new Promise<FeeTierInfo>((resolve) =>
          ctx.schedule(this.spec.market.latency_ms, () =>
            resolve({ venue: this.spec.venue, edge_id: this.spec.edge_id, tier: 'base', maker_bps: this.spec.maker_bps, taker_bps: this.spec.taker_bps }),
          ),
        );
      case 'Execute':
      case 'Place':
        if (message.sandbox) return this.sandboxLeg(message);
        return this.arrivalMs === 0 ? this.leg(message, ctx.askThread, ctx.askCorrelation) : this.afterArrival(message, ctx);
      case 'Cancel':
        if (this.sandbox?.isResting(message.child_id)) {
          const cancelled = this.sandbox.cancel(message.child_id);
          return { child_id: message.child_id, found: cancelled > 0, cancelled_qty_1e8: cancelled } satisfies CancelResult;
        }
        if (this.legFaults?.sessionDown(Date.now())) return NO_REPLY;
        return this.cancel(message.child_id);
      case 'Reconcile':
        // A request to a venue whose session is down goes unanswered: the asker times out and asks again.
        if (this.legFaults?.sessionDown(Date.now())) return NO_REPLY;
        return this.journal.reconcile(message.child_id);
      case 'OpenOrders':
        if (this.legFaults?.sessionDown(Date.now())) return NO_REPLY;
        return { venue: this.spec.venue, edge_id: this.spec.edge_id, resting: message.child_ids.filter((id) => this.restingByChild.has(id)) } satisfies OpenOrdersAnswer;
      case 'Funding':
        return sim.funding(message.symbol, Date.now() * NS_PER_MS) ?? null;
      case 'FundingAll': {
        const now = Date.now() * NS_PER_MS;
        return sim.symbols().flatMap((symbol) => sim.funding(symbol, now) ?? []);
      }
      case 'FundingHistory':
        return sim.fundingHistory(message.symbol, message.from_ns, message.to_ns);
      case 'Balances':
        // A simulated venue's account lives in the router's ledger (opened from SIM_ACCOUNT_USD).
        return null;
      case 'LegFaults':
        this.legFaults = message.policy === null ? undefined : new VenueFaults(message.policy, this.spec.edge_id);
        ctx.log.info({ edge: this.spec.edge_id, policy: message.policy }, 'injected leg faults');
        return true;
    }
  }

  // VenueSink: the simulated venue's events, buffered until the end of the advance.
  onLevel(symbol: string, side: Side, price_1e9: number, qty_1e8: number, ts_ns: number): void {
    this.sandbox?.onLevel(symbol, side, price_1e9, qty_1e8);
    let buffer = this.pending.get(symbol);
    if (buffer === undefined) {
      buffer = [];
      this.pending.set(symbol, buffer);
    }
    buffer.push(side, price_1e9, qty_1e8);
    if (ts_ns > this.latestTs) this.latestTs = ts_ns;
  }

  onOwnFill(order_id: number, _symbol: string, fill: ExecutionFill, left_qty_1e8: number): void {
    const child = this.resting.get(order_id);
    if (child === undefined) return;
    // Maker fee in USD 1e9, rounded up (a rebate, negative, rounds toward zero).
    const fee = venueFee1e9(fill.price_1e9, fill.qty_1e8, this.spec.maker_bps);
    child.cum_fee_1e9 += fee;
    if (left_qty_1e8 <= 0) {
      this.resting.delete(order_id);
      this.restingByChild.delete(child.child_id);
    }
    const report: MakerFill = {
      t: 'MakerFill',
      child_id: child.child_id,
      venue: this.spec.venue,
      edge_id: this.spec.edge_id,
      fill: pricedFill(fill, fee, child.cum_fee_1e9),
      left_qty_1e8: Math.max(0, left_qty_1e8),
      maker_bps: this.spec.maker_bps,
    };
    this.ctx!.tell(child.owner, report);
    if (child.duplicate) this.ctx!.tell(child.owner, report);
  }

  onTrade(t: TradeEvent): void {
    this.sandbox?.onTrade(t.symbol, t.price_1e9, t.qty_1e8, t.taker_side, t.ts_ns);
    const tape = this.tape;
    tape.symbols.push(t.symbol);
    tape.numbers.push(t.price_1e9, t.qty_1e8, t.taker_side, Math.floor(t.ts_ns / NS_PER_MS));
    tape.trade_ids.push(t.trade_id);
  }

  onStatus(connected: boolean, ts_ns: number): void {
    this.connected = connected;
    const sim = this.sim;
    const ctx = this.ctx;
    if (sim === undefined || ctx === undefined) return;
    for (const symbol of sim.subscribed()) {
      this.pending.delete(symbol);
      this.writeDepth(symbol);
      this.watchers.notify(symbol, Date.now(), wallClockNs(), this.tellWatcher);
      if (connected) this.sendSnapshot(symbol, ts_ns);
      else ctx.tell(this.bookOf(symbol), { t: 'VenueDown', venue: this.spec.venue, ts_ns } satisfies BookMessage);
    }
  }

  private tick = (): void => {
    const sim = this.sim!;
    const now = Date.now();
    sim.advance(now * NS_PER_MS);
    this.depth?.heartbeat(now);
    this.flush();
    this.cancelTimer = this.ctx!.schedule(ADVANCE_MS, this.tick);
  };

  private flush(): void {
    const ctx = this.ctx!;
    if (this.pending.size > 0) {
      this.lastSeenMs = Math.floor(this.latestTs / NS_PER_MS);
      const edge_ts_ns = wallClockNs();
      const nowMs = Date.now();
      for (const [symbol, levels] of this.pending) {
        if (levels.length === 0) continue;
        this.writeDepth(symbol);
        this.watchers.notify(symbol, nowMs, edge_ts_ns, this.tellWatcher);
        ctx.tell(this.bookOf(symbol), { t: 'Levels', venue: this.spec.venue, ts_ns: this.latestTs, edge_ts_ns, levels } satisfies BookMessage);
      }
      this.pending.clear();
    }
    if (this.tape.symbols.length > 0) {
      ctx.publish(TAPE_TOPIC.name, this.tape);
      this.tape = this.emptyTape();
    }
  }

  /**
   * A sandbox child: executed by the sandbox venue against this edge's book at its arrival, never
   * on the venue. Its answer is journaled like a live one (so `Reconcile` finds it), and goes
   * unanswered when the client's profile draws a lost answer.
   */
  private sandboxLeg(message: Execute | Place): Promise<unknown> | ChildExecution {
    if (this.journal.refused(message.child_id)) return this.childExecution(message.child_id, false, 'reconciled_as_not_received', []);
    const profile = message.sandbox!;
    const answer =
      message.t === 'Execute'
        ? this.sandbox!.execute(profile, message.child_id, message.symbol, message.side, message.qty_1e8, message.limit_price_1e9)
        : this.sandbox!.place(profile, message.owner, message.child_id, message.symbol, message.side, message.qty_1e8, message.limit_price_1e9);
    return answer.then(({ answer: result, lost }) => {
      this.journal.record(message.child_id, result);
      return lost ? NO_REPLY : result;
    });
  }

  /**
   * A live child reaches the venue its one-way latency after the router sent it: the book may
   * have moved meanwhile (the router's limit price bounds what that can cost), as on a real venue.
   */
  private afterArrival(message: Execute | Place, ctx: ActorContext): Promise<unknown> {
    const thread = ctx.askThread;
    const correlation = ctx.askCorrelation;
    return new Promise((resolve) => ctx.schedule(this.arrivalMs, () => resolve(this.leg(message, thread, correlation))));
  }

  /** A live child at the venue; `thread`/`correlation` name the ask (an injected duplicate answers it twice). */
  private leg(message: Execute | Place, thread: number, correlation: number): unknown {
    if (this.legFaults !== undefined) return this.faulty(message, this.legFaults, thread, correlation);
    return message.t === 'Execute' ? this.execute(message) : this.place(message);
  }

  /** Runs a child order against the venue's book and prices its fills with the taker fee. */
  private execute(message: Extract<EdgeMessage, { t: 'Execute' }>): ChildExecution {
    if (this.journal.refused(message.child_id)) return this.childExecution(message.child_id, false, 'reconciled_as_not_received', []);
    const report = this.sim!.executeIoc(
      message.symbol,
      message.side === 'buy' ? Side.BID : Side.ASK,
      message.qty_1e8,
      message.limit_price_1e9 ?? undefined,
      Date.now() * NS_PER_MS,
    );
    this.flush();
    const execution = this.childExecution(message.child_id, report.ok, report.reason, report.fills);
    this.journal.record(message.child_id, execution);
    return execution;
  }

  /** A resting child: its crossing part answers now (taker fees); the rest fills later as maker. */
  private place(message: Extract<EdgeMessage, { t: 'Place' }>): ChildPlacement {
    if (this.journal.refused(message.child_id)) {
      return placementOf(this.childExecution(message.child_id, false, 'reconciled_as_not_received', []), 0);
    }
    const report = this.sim!.placeLimit(message.symbol, message.side === 'buy' ? Side.BID : Side.ASK, message.qty_1e8, message.limit_price_1e9, Date.now() * NS_PER_MS);
    this.flush();
    const execution = this.childExecution(message.child_id, report.ok, report.reason, report.fills);
    if (report.resting_qty_1e8 > 0) {
      const last = execution.fills[execution.fills.length - 1];
      const child: RestingChild = { child_id: message.child_id, order_id: report.order_id, cum_fee_1e9: last?.cum_fee_1e9 ?? 0, owner: message.owner, duplicate: false };
      this.resting.set(report.order_id, child);
      this.restingByChild.set(message.child_id, child);
    }
    const placement = placementOf(execution, report.resting_qty_1e8);
    this.journal.record(message.child_id, placement);
    return placement;
  }

  /**
   * A leg under an injected fault (`sim/venue-faults.ts`). The venue's own record (the child
   * journal) always holds what it really did, so reconciliation finds the truth.
   */
  private faulty(message: Execute | Place, faults: VenueFaults, thread: number, correlation: number): unknown {
    const ctx = this.ctx!;
    const fault: LegFault = faults.draw();
    if (fault.kind !== 'none') ctx.log.debug({ edge: this.spec.edge_id, child_id: message.child_id, fault }, 'injected leg fault');
    const run = (): ChildExecution | ChildPlacement => (message.t === 'Execute' ? this.execute(message) : this.place(message));
    switch (fault.kind) {
      case 'none':
        return run();
      case 'stall':
        return NO_REPLY;
      case 'late': {
        const answer = run();
        return new Promise((resolve) => ctx.schedule(fault.delay_ms, () => resolve(answer)));
      }
      case 'duplicate': {
        const answer = run();
        this.duplicate(message, answer, thread, correlation, fault.delay_ms);
        return answer;
      }
      case 'disconnect': {
        if (fault.reached) run();
        const now = Date.now();
        faults.dropSession(now, fault.down_ms);
        this.sim!.dropFeed(now * NS_PER_MS, (now + fault.down_ms) * NS_PER_MS);
        this.flush();
        return NO_REPLY;
      }
      case 'garbage':
        return corrupt(run(), fault.garbage, message.qty_1e8, message.limit_price_1e9 ?? 0);
    }
  }

  /**
   * The same report delivered again: the answer's frame a second time under the ask's
   * correlation (the asker's endpoint settles an ask once), and, for a placement, its crossing
   * fills again on the execution stream, with its later maker fills each told twice.
   */
  private duplicate(message: Execute | Place, answer: ChildExecution | ChildPlacement, thread: number, correlation: number, delayMs: number): void {
    const ctx = this.ctx!;
    if (message.t === 'Place') {
      const child = this.restingByChild.get(message.child_id);
      if (child !== undefined) child.duplicate = true;
    }
    ctx.schedule(delayMs, () => {
      if (correlation !== 0) {
        const w = new WireWriter().u32(correlation);
        if ('resting_qty_1e8' in answer) childPlacementLayout.encode(answer, w);
        else childExecutionLayout.encode(answer, w);
        ctx.sendBinary(thread, (message.t === 'Place' ? EdgeFrame.PLACE : EdgeFrame.EXECUTE) + 1, w.bytes());
      }
      if (message.t !== 'Place') return;
      const left = 'resting_qty_1e8' in answer ? answer.resting_qty_1e8 : 0;
      for (const fill of answer.fills) {
        ctx.tell(message.owner, { t: 'MakerFill', child_id: message.child_id, venue: this.spec.venue, edge_id: this.spec.edge_id, fill, left_qty_1e8: left, maker_bps: this.spec.maker_bps } satisfies MakerFill);
      }
    });
  }

  private cancel(child_id: string): CancelResult {
    const child = this.restingByChild.get(child_id);
    if (child === undefined) return { child_id, found: false, cancelled_qty_1e8: 0 };
    // Advancing first may fill it (published before this answer); what is left is cancelled.
    const cancelled = this.sim!.cancelOrder(child.order_id, Date.now() * NS_PER_MS);
    this.flush();
    this.resting.delete(child.order_id);
    this.restingByChild.delete(child_id);
    return { child_id, found: cancelled > 0, cancelled_qty_1e8: cancelled };
  }

  private childExecution(child_id: string, ok: boolean, reason: string | null, executed: readonly ExecutionFill[]): ChildExecution {
    let cum = 0;
    const fills = executed.map((f) => {
      // Fee in USD 1e9 (quote currencies here are USD-pegged); the venue rounds up, as venues do.
      const fee = venueFee1e9(f.price_1e9, f.qty_1e8, this.spec.taker_bps);
      cum += fee;
      return pricedFill(f, fee, cum);
    });
    return {
      child_id,
      venue: this.spec.venue,
      edge_id: this.spec.edge_id,
      ok,
      reason,
      fills,
      taker_bps: this.spec.taker_bps,
      maker_bps: this.spec.maker_bps,
      ack_ns: wallClockNs(),
    };
  }

  private subscribe(symbol: string): boolean {
    const sim = this.sim!;
    if (!sim.isListed(symbol)) return false;
    if (sim.isSubscribed(symbol)) return true;
    sim.subscribe(symbol);
    if (this.connected) this.sendSnapshot(symbol, Date.now() * NS_PER_MS);
    this.writeDepth(symbol);
    return true;
  }

  /** The symbol's book into its depth-cache slot, as of the last processed instant. */
  private writeDepth(symbol: string): void {
    const slot = this.depthSlots.get(symbol);
    if (this.depth === undefined || slot === undefined) return;
    this.depthSymbol = symbol;
    this.depth.write(slot, this.connected, this.sim!.processedToNs, this.fillDepth);
  }

  private readonly tellWatcher = (to: string, message: BookChanged): void => void this.ctx!.tell(to, message);

  private readonly fillDepth = (side: Side, words: Float64Array, pricesAt: number, qtysAt: number): number =>
    this.sim!.levelsInto(this.depthSymbol, side, DEPTH_LEVELS, words, pricesAt, words, qtysAt);

  private sendSnapshot(symbol: string, ts_ns: number): void {
    const snapshot = this.snapshot(symbol, SNAPSHOT_DEPTH, ts_ns);
    if (snapshot === null) return;
    this.ctx!.tell(this.bookOf(symbol), { t: 'Snapshot', ...snapshot } satisfies BookMessage);
  }

  private snapshot(symbol: string, depth: number, now_ns = Date.now() * NS_PER_MS): EdgeSnapshot | null {
    const snapshot = this.sim!.snapshot(symbol, depth, now_ns);
    if (snapshot === undefined) return null;
    return {
      venue: this.spec.venue,
      bids: snapshot.bids.flatMap((l) => [l.price_1e9, l.qty_1e8]),
      asks: snapshot.asks.flatMap((l) => [l.price_1e9, l.qty_1e8]),
      ts_ns: snapshot.ts_ns,
    };
  }

  private bookOf(symbol: string): string {
    let key = this.books.get(symbol);
    if (key === undefined) {
      key = bookKey(symbol, this.type);
      this.books.set(symbol, key);
    }
    return key;
  }

  private status(): EdgeStatus {
    const sim = this.sim!;
    const stats = sim.stats();
    const subscribed = sim.subscribed();
    return {
      edge_id: this.spec.edge_id,
      venue: this.spec.venue,
      instrument_type: this.spec.instrument_type,
      connected: this.connected,
      symbol_count: subscribed.length,
      symbols: subscribed.map((symbol) => ({ symbol, instrument_type: this.spec.instrument_type })),
      last_seen_ms: this.lastSeenMs,
      region: this.spec.region,
      supports_algo_runtime: this.spec.supports_algo_runtime,
      stats: { levels: stats.levels, trades: stats.trades, disconnects: stats.disconnects, stale: stats.stale },
    };
  }

  private emptyTape(): TapeBatch {
    return { venue: this.spec.venue, instrument_type: this.type, symbols: [], numbers: [], trade_ids: [] };
  }
}

