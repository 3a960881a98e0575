import { NO_REPLY, type Actor, type ActorContext } from '../../engine/actor.ts';
import { phaseAt, type PredictionMarket, type PredictionVenue } from '../../domain/prediction/catalog.ts';
import { historyAsked, type PriceHistoryWindow } from '../../domain/prediction/history.ts';
import { cashOf } from '../../domain/prediction/order-leg.ts';
import type { Leg } from '../../domain/prediction/symbols.ts';
import { wallClockNs } from '../../domain/units.ts';
import { DEPTH_LEVELS } from '../edge/depth-cache.ts';
import { liveClientOf, LiveDesk } from '../edge/live/desk.ts';
import type { VenueEndpoints } from '../edge/live/endpoints.ts';
import { KalshiPrediction } from '../edge/live/kalshi/adapter.ts';
import { PolymarketPrediction } from '../edge/live/polymarket/adapter.ts';
import type { CatalogFigures, CatalogRecord, LivePredictionVenue } from '../edge/live/prediction-venue.ts';
import type { L2Book } from '../edge/live/l2-book.ts';
import type { MarketSink, VenueAccount } from '../edge/live/venue.ts';
import type { ChildExecution, EdgeStatus, OpenOrdersAnswer } from '../edge/messages.ts';
import type { SimEdgeSpec } from '../edge/sim/catalog.ts';
import { CatalogChangeLog, tradingSymbols } from './change-log.ts';
import { MarketCurves, PredictionLegs, type LegQuote } from './legs.ts';
import { MarketStatsTable, type MarketFigures } from './market-stats.ts';
import type { ListedEvent, PredictionBook, PredictionEdgeMessage } from './messages.ts';

/** How often the venue's catalog is read again (a setting, `liveCatalogMs`, for tests). */
const CATALOG_MS = 30_000;
/** Followed books' touch goes to the figures table this often. */
const FIGURES_MS = 1_000;
/** The kill switch is watched this often. */
const HEARTBEAT_MS = 100;
/** Trading markets whose books are streamed without being asked for, by the catalog's 24h volume (a setting, `liveFollowMax`). */
const FOLLOW_MAX = 200;
/** A `Book` ask for a book not whole waits this long (the askers give up at 500 ms). */
const BOOK_WAIT_MS = 400;
const BOOK_POLL_MS = 25;
/** A delisted event is kept this long so a reader a few polls behind still sees it go. */
const TOMBSTONE_MS = 10 * 60_000;

interface LiveListed extends ListedEvent {
  /** the record as last read, to tell a change from a re-read */
  fingerprint: string;
  figures: (CatalogFigures | null)[];
  delisted_at_ms: number;
}

/**
 * A prediction venue edge on a real venue (`LIVE_VENUES=kalshi,polymarket`): the simulated
 * prediction edge's twin (`actor.ts`), with a `LivePredictionVenue` adapter in place of the
 * simulated world. The gateway reads the same change log (`Catalog`), figures table and books;
 * routers send the same children. What changes is where things come from:
 *
 *   timer (30 s) -> adapter.readCatalog() -> records diffed by fingerprint -> change log
 *                -> trading markets followed (books streamed), delisted ones dropped
 *   timer (1 s)  -> followed books' touch + the catalog's volumes -> figures table
 *   Execute      -> LiveOrders (our child id on the venue; a lost answer reconciled by it)
 *
 * Sandbox children still fill in the adversarial sandbox venue, against these real books.
 */
export class LivePredictionEdgeActor implements Actor<PredictionEdgeMessage>, MarketSink {
  private ctx: ActorContext | undefined;
  private desk: LiveDesk | undefined;
  private legs: PredictionLegs | undefined;
  private stats: MarketStatsTable | undefined;
  private readonly listed = new Map<string, LiveListed>();
  private readonly byMarket = new Map<string, { rec: LiveListed; c: number }>();
  private readonly byLeg = new Map<string, { rec: LiveListed; c: number; leg: Leg }>();
  private readonly curves = new MarketCurves();
  private readonly log: CatalogChangeLog<LiveListed>;
  private readonly followed = new Set<string>();
  private readonly whole = new Set<string>();
  private nextSlot = 0;
  private lastSeenMs = 0;
  private catalogReadMs = 0;
  private timers: NodeJS.Timeout[] = [];
  private readonly figures: MarketFigures = { yes_bid_1e9: -1, yes_ask_1e9: -1, no_bid_1e9: -1, no_ask_1e9: -1, volume_24h_cents: 0, volume_total_cents: 0, as_of_ms: 0 };

  constructor(
    private readonly spec: SimEdgeSpec,
    private readonly venue: LivePredictionVenue,
  ) {
    this.log = new CatalogChangeLog<LiveListed>(venue.venue, this.listed, ({ fingerprint: _f, figures: _g, delisted_at_ms: _d, ...wire }) => wire);
  }

  private get name(): PredictionVenue {
    return this.venue.venue;
  }

  onStart(ctx: ActorContext): void {
    this.ctx = ctx;
    ctx.holdsSockets();
    const { shared, settings } = ctx.environment;
    this.desk = new LiveDesk(this.spec, this.venue, ctx);
    if (shared['predictionStats'] !== undefined) this.stats = new MarketStatsTable(shared['predictionStats']);
    this.legs = new PredictionLegs({
      venue: this.name,
      edge_id: this.spec.edge_id,
      latencyMs: this.spec.market.latency_ms,
      quote: (symbol, now) => this.legQuote(symbol, now),
      schedule: (ms, fn) => void ctx.schedule(ms, fn),
    });
    this.venue.start(this);
    const catalogMs = Number(settings['liveCatalogMs'] ?? CATALOG_MS);
    this.readCatalog();
    const halt = shared['halt'] === undefined ? undefined : new Int32Array(shared['halt']);
    this.timers = [
      setInterval(() => this.readCatalog(), catalogMs),
      setInterval(() => this.writeFollowedFigures(Date.now()), FIGURES_MS),
      setInterval(() => {
        if (halt !== undefined) this.desk!.watchHalt(Atomics.load(halt, 0) === 1, this.legSymbols);
      }, HEARTBEAT_MS),
    ];
    for (const t of this.timers) t.unref();
    ctx.log.info({ edge: this.spec.edge_id, venue: this.name }, 'live prediction edge started');
    if (ctx.restarts === 0) this.desk.cancelLeftovers();
  }

  onStop(): void {
    for (const t of this.timers) clearInterval(t);
    this.desk?.stop();
    this.venue.stop();
  }

  onMessage(message: PredictionEdgeMessage, ctx: ActorContext): unknown {
    const orders = this.desk!.orders;
    switch (message.t) {
      case 'Status':
        return this.status();
      case 'Catalog':
        return this.log.page(message.after_seq, message.max_markets);
      case 'Book':
        return this.bookWhenWhole(message.market_id, message.depth, ctx);
      case 'PriceHistory':
        return this.history(message);
      case 'Execute': {
        if (message.sandbox) return this.legs!.execute(message).then((answer) => answer ?? NO_REPLY);
        const client = liveClientOf(message.owner);
        if (client === undefined) return this.refusal(message.child_id, 'a live venue child needs a live router as its owner');
        const hit = this.byLeg.get(message.symbol);
        if (hit === undefined) return this.refusal(message.child_id, 'not_listed');
        this.follow(hit.rec.event.markets[hit.c]!);
        return orders.leg(client, message.owner, message.child_id, message.symbol, message.side, message.qty_1e8, message.limit_price_1e9, false);
      }
      case 'Reconcile':
        return this.legs!.known(message.child_id) ?? orders.reconcile(message.child_id, message.leg);
      case 'Cancel':
        return orders.cancel(message.child_id);
      case 'OpenOrders': {
        const open = new Set(orders.openChildren());
        return { venue: this.name, edge_id: this.spec.edge_id, resting: message.child_ids.filter((id) => open.has(id)) } satisfies OpenOrdersAnswer;
      }
      case 'FeeTier':
        return this.desk!.feeTier(message.client_id);
      case 'Balances': {
        // The cash only: contracts held on the venue are not instruments the ledger can seed by
        // name; it books them from the fills of orders sent through the service.
        const cash = cashOf(this.name);
        return this.desk!.balances(message.client_id, [cash]).then((b) => (b === null ? null : { ...b, balances: b.balances.filter((r) => r.asset === cash) }));
      }
    }
  }

  // MarketSink: the adapter's books, by market id.
  onBookWhole(market_id: string, _book: L2Book, ts_ns: number): void {
    this.whole.add(market_id);
    this.lastSeenMs = Math.floor(ts_ns / 1_000_000);
  }

  onBookChanges(_market_id: string, _changes: number[], ts_ns: number): void {
    this.lastSeenMs = Math.floor(ts_ns / 1_000_000);
  }

  onBookBroken(market_id: string, reason: string): void {
    if (this.whole.delete(market_id)) this.ctx!.log.warn({ edge: this.spec.edge_id, market_id, reason }, 'live prediction book not whole: not quoted until resynced');
  }

  /**
   * An account to open the venue's book stream with (Kalshi signs every connection, market data
   * too): the first client with credentials on the venue; undefined until one stores them (the
   * stream waits, retrying with backoff). Read at each connection, never kept.
   */
  streamAccount(): VenueAccount | undefined {
    const accounts = this.desk?.accounts;
    if (accounts === undefined) return undefined;
    try {
      const client = accounts.clients()[0];
      return client === undefined ? undefined : accounts.account(client);
    } catch {
      return undefined;
    }
  }

  private readonly legSymbols = (): string[] => [...this.byLeg.keys()];

  /** Reads the venue's catalog; a read that fails leaves the catalog as it was (logged). */
  private readCatalog(): void {
    this.venue.readCatalog().then(
      (records) => this.apply(records, Date.now()),
      (err: unknown) => this.ctx!.log.warn({ edge: this.spec.edge_id, err: (err as Error).message }, 'venue catalog not read: kept as it was'),
    );
  }

  /** One catalog read into the change log: new and changed events, and those the venue no longer lists. */
  private apply(records: readonly CatalogRecord[], now: number): void {
    this.catalogReadMs = now;
    const seen = new Set<string>();
    for (const r of records) {
      const key = r.event.event_id;
      if (seen.has(key)) continue;
      seen.add(key);
      const fingerprint = JSON.stringify([r.event, r.yes_won, r.resolved_ms, r.anchor_usd, r.final_usd]);
      const rec = this.listed.get(key);
      if (rec !== undefined && !rec.delisted && rec.fingerprint === fingerprint) {
        rec.figures = r.figures;
        continue;
      }
      if (rec !== undefined) this.unindex(rec);
      const slots = r.event.markets.map((m) => {
        const before = rec?.event.markets.findIndex((x) => x.market_id === m.market_id) ?? -1;
        return before >= 0 ? rec!.slots[before]! : this.nextSlot++;
      });
      const next: LiveListed = { seq: 0, event: r.event, slots, yes_won: r.yes_won, resolved_ms: r.resolved_ms, anchor_usd: r.anchor_usd, final_usd: r.final_usd, delisted: false, fingerprint, figures: r.figures, delisted_at_ms: 0 };
      this.listed.set(key, next);
      this.index(next);
      this.log.changed(key, next);
    }
    for (const [key, rec] of this.listed) {
      if (!rec.delisted && !seen.has(key)) {
        rec.delisted = true;
        rec.delisted_at_ms = now;
        this.unindex(rec);
        this.log.changed(key, rec);
      } else if (rec.delisted && now - rec.delisted_at_ms > TOMBSTONE_MS) {
        this.listed.delete(key);
      }
    }
    this.log.compactIfLarge();
    this.followTrading(now);
    this.writeCatalogFigures(now);
  }

  private index(rec: LiveListed): void {
    rec.event.markets.forEach((m, c) => {
      this.byMarket.set(m.market_id, { rec, c });
      this.byLeg.set(m.yes_token_id, { rec, c, leg: 'YES' });
      this.byLeg.set(m.no_token_id, { rec, c, leg: 'NO' });
    });
  }

  private unindex(rec: LiveListed): void {
    for (const m of rec.event.markets) {
      this.byMarket.delete(m.market_id);
      this.byLeg.delete(m.yes_token_id);
      this.byLeg.delete(m.no_token_id);
      this.curves.forget(m.market_id);
    }
  }

  /**
   * The books streamed: the trading markets with the most volume (up to `liveFollowMax`) and
   * those asked for since; a market no longer listed or trading is dropped.
   */
  private followTrading(now: number): void {
    for (const id of [...this.followed]) {
      const hit = this.byMarket.get(id);
      if (hit === undefined || phaseAt(hit.rec.event.markets[hit.c]!.timeline, now) !== 'open') this.unfollow(id);
    }
    const max = Number(this.ctx!.environment.settings['liveFollowMax'] ?? FOLLOW_MAX);
    const trading: { m: PredictionMarket; volume: number }[] = [];
    for (const rec of this.listed.values()) {
      if (rec.delisted) continue;
      rec.event.markets.forEach((m, c) => {
        if (phaseAt(m.timeline, now) === 'open') trading.push({ m, volume: rec.figures[c]?.volume_24h_usd ?? 0 });
      });
    }
    trading.sort((a, b) => b.volume - a.volume);
    for (const { m } of trading) {
      if (this.followed.size >= max) break;
      this.follow(m);
    }
  }

  private follow(m: PredictionMarket): void {
    if (this.followed.has(m.market_id)) return;
    if (this.venue.follow(m)) this.followed.add(m.market_id);
  }

  private unfollow(market_id: string): void {
    this.followed.delete(market_id);
    this.whole.delete(market_id);
    this.venue.unfollow(market_id);
  }

  private book(market_id: string, depth: number): PredictionBook | null {
    if (!this.whole.has(market_id)) return null;
    const b = this.venue.marketBook(market_id, Math.max(1, Math.min(50, depth)));
    if (b === undefined) return null;
    return { venue: this.name, market_id, yes: b.yes, no: b.no, tick_1e9: b.tick_1e9, ts_ns: b.ts_ns };
  }

  /** A market's books now, or once whole within BOOK_WAIT_MS (a market not followed yet is followed now); null for an unknown market or a book still broken. */
  private bookWhenWhole(market_id: string, depth: number, ctx: ActorContext): PredictionBook | null | Promise<PredictionBook | null> {
    const hit = this.byMarket.get(market_id);
    if (hit === undefined) return null;
    this.follow(hit.rec.event.markets[hit.c]!);
    const now = this.book(market_id, depth);
    if (now !== null) return now;
    const until = Date.now() + BOOK_WAIT_MS;
    return new Promise((resolve) => {
      const check = () => {
        const b = this.book(market_id, depth);
        if (b !== null || Date.now() >= until) resolve(b);
        else ctx.schedule(BOOK_POLL_MS, check);
      };
      ctx.schedule(BOOK_POLL_MS, check);
    });
  }

  /** A leg's book now, for a sandbox child (the sandbox venue reads it at arrival). */
  private legQuote(symbol: string, now: number): LegQuote | undefined {
    const hit = this.byLeg.get(symbol);
    if (hit === undefined) return undefined;
    const m = hit.rec.event.markets[hit.c]!;
    const curve = this.curves.of(m);
    this.follow(m);
    const book = this.book(m.market_id, DEPTH_LEVELS);
    const side = book === null ? { bids: [], asks: [] } : hit.leg === 'YES' ? book.yes : book.no;
    return { bids: side.bids, asks: side.asks, open: book !== null && phaseAt(m.timeline, now) === 'open', curve, bucket: Math.floor(now / FIGURES_MS) };
  }

  private history(ask: Extract<PredictionEdgeMessage, { t: 'PriceHistory' }>): Promise<PriceHistoryWindow | null | typeof NO_REPLY> | null {
    const hit = this.byMarket.get(ask.market_id);
    if (hit === undefined || this.venue.history === undefined) return null;
    const { to_ms, step_ms } = historyAsked(ask, Date.now());
    return this.venue.history(hit.rec.event.markets[hit.c]!, ask.leg, ask.from_ms, to_ms, step_ms).catch((err: unknown) => {
      // Unanswered, so the gateway says the venue is unavailable rather than that there is no history.
      this.ctx!.log.warn({ edge: this.spec.edge_id, market_id: ask.market_id, err: (err as Error).message }, 'price history not read from the venue');
      return NO_REPLY;
    });
  }

  /** Every listed market's figures as the catalog read gave them (a followed, whole book's touch overrides them each second). */
  private writeCatalogFigures(now: number): void {
    if (this.stats === undefined) return;
    for (const rec of this.listed.values()) {
      if (rec.delisted) continue;
      rec.event.markets.forEach((m, c) => {
        if (!this.whole.has(m.market_id)) this.writeFigures(rec, c, now, undefined);
      });
    }
  }

  private writeFollowedFigures(now: number): void {
    if (this.stats === undefined) return;
    for (const id of this.followed) {
      const hit = this.byMarket.get(id);
      const book = this.book(id, 1);
      if (hit !== undefined && book !== null) this.writeFigures(hit.rec, hit.c, now, book);
    }
  }

  private writeFigures(rec: LiveListed, c: number, now: number, book: PredictionBook | undefined): void {
    const read = rec.figures[c] ?? null;
    const f = this.figures;
    f.yes_bid_1e9 = book !== undefined ? (book.yes.bids[0]?.price_1e9 ?? -1) : (read?.yes_bid_1e9 ?? -1);
    f.yes_ask_1e9 = book !== undefined ? (book.yes.asks[0]?.price_1e9 ?? -1) : (read?.yes_ask_1e9 ?? -1);
    f.no_bid_1e9 = book !== undefined ? (book.no.bids[0]?.price_1e9 ?? -1) : (read?.no_bid_1e9 ?? -1);
    f.no_ask_1e9 = book !== undefined ? (book.no.asks[0]?.price_1e9 ?? -1) : (read?.no_ask_1e9 ?? -1);
    f.volume_24h_cents = Math.round((read?.volume_24h_usd ?? 0) * 100);
    f.volume_total_cents = Math.round((read?.volume_total_usd ?? 0) * 100);
    f.as_of_ms = now;
    this.stats!.write(this.name, rec.slots[c]!, f);
  }

  private refusal(child_id: string, reason: string): ChildExecution {
    return { child_id, venue: this.name, edge_id: this.spec.edge_id, ok: false, reason, fills: [], taker_bps: this.spec.taker_bps, maker_bps: 0, ack_ns: wallClockNs() };
  }

  private status(): EdgeStatus {
    const now = Date.now();
    const stats = this.venue.stats();
    const symbols = tradingSymbols(this.listed.values(), now);
    return {
      edge_id: this.spec.edge_id,
      venue: this.spec.venue,
      instrument_type: 'prediction',
      // Connected: the catalog was read and the book stream is up.
      connected: this.catalogReadMs > 0 && stats.connected,
      symbol_count: symbols.length,
      symbols,
      last_seen_ms: Math.max(this.lastSeenMs, this.catalogReadMs),
      region: this.spec.region,
      supports_algo_runtime: this.spec.supports_algo_runtime,
      stats: { levels: stats.updates, trades: 0, disconnects: stats.disconnects + stats.resyncs, stale: !stats.connected },
    };
  }
}

/** The live prediction edge of a spec on these endpoints (Kalshi, Polymarket): what `selectedEdge` starts for a prediction venue in `LIVE_VENUES`. */
export function livePredictionEdgeOf(spec: SimEdgeSpec): (endpoints: VenueEndpoints) => Actor<PredictionEdgeMessage> | undefined {
  return (endpoints) => {
    switch (spec.venue) {
      case 'kalshi': {
        // Kalshi signs its book stream with an account: the edge lends one per connection.
        const actor: LivePredictionEdgeActor = new LivePredictionEdgeActor(spec, new KalshiPrediction(endpoints, { streamAccount: () => actor.streamAccount() }));
        return actor;
      }
      case 'polymarket':
        return new LivePredictionEdgeActor(spec, new PolymarketPrediction(endpoints, { fees: { maker_bps: spec.maker_bps, taker_bps: spec.taker_bps } }));
      default:
        return undefined;
    }
  };
}
