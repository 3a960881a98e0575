import { NO_REPLY, type Actor, type ActorContext } from '../../engine/actor.ts';
import { isPredictionVenue, phaseAt, type PredictionVenue } from '../../domain/prediction/catalog.ts';
import type { Leg } from '../../domain/prediction/symbols.ts';
import type { CancelResult, EdgeStatus, FeeTierInfo, OpenOrdersAnswer } from '../edge/messages.ts';
import type { SimEdgeSpec } from '../edge/sim/catalog.ts';
import { LatentPriceModel } from '../edge/sim/latent-price.ts';
import { PredictionPrices } from '../edge/sim/prediction/prices.ts';
import { PredictionWorld, type WorldEntry } from '../edge/sim/prediction/world.ts';
import { MarketStatsTable, type MarketFigures } from './market-stats.ts';
import type { ListedEvent, PredictionBook, PredictionEdgeMessage } from './messages.ts';
import { CatalogChangeLog, tradingSymbols } from './change-log.ts';
import { historyAsked, type PriceHistoryWindow } from '../../domain/prediction/history.ts';
import { MarketCurves, PredictionLegs, type LegQuote } from './legs.ts';

/** The books move once a second (`prices.ts`), so the edge reads its venue once a second. */
const TICK_MS = 1_000;
/** Closed and resolved markets' figures (volume over the last day) are refreshed this often. */
const SLOW_REFRESH_TICKS = 60;
/** A delisted event is kept this long so a reader a few polls behind still sees it go. */
const TOMBSTONE_MS = 10 * 60_000;
const NS_PER_MS = 1_000_000;

interface Listed extends ListedEvent {
  entry: WorldEntry;
  /** Ticks since its figures were last written, per market; -1 forces a write. */
  ticksSinceWrite: number[];
  delisted_at_ms: number;
}

/**
 * A prediction venue edge: connects (here, to the simulated prediction world of the seed),
 * follows the venue's catalog and lifecycle, and publishes each market's figures to shared
 * memory. The catalog is read by the gateway through `Catalog` asks (a change log by
 * sequence); books through `Book` asks.
 *
 *   timer (1 s) -> world.entriesAt(now) -> new events, outcomes, delistings -> change log
 *               -> each trading market's book touch and volumes -> figures table (seqlock)
 */
export function predictionEdgeActor(spec: SimEdgeSpec): Actor<PredictionEdgeMessage> {
  if (!isPredictionVenue(spec.venue)) throw new Error(`${spec.edge_id} is not a prediction venue edge`);
  return new PredictionEdgeActor(spec, spec.venue);
}

class PredictionEdgeActor implements Actor<PredictionEdgeMessage> {
  private world: PredictionWorld | undefined;
  private prices: PredictionPrices | undefined;
  private stats: MarketStatsTable | undefined;
  private ctx: ActorContext | undefined;
  private cancelTimer: (() => void) | undefined;
  private readonly listed = new Map<string, Listed>();
  private readonly byMarket = new Map<string, { rec: Listed; c: number }>();
  /** A leg's canonical symbol (token id, `<ticker>:YES|NO`) -> its market and leg, for child orders. */
  private readonly byLeg = new Map<string, { rec: Listed; c: number; leg: Leg }>();
  /** Each market's fee curve, compiled once. */
  private readonly curves = new MarketCurves();
  private legs: PredictionLegs | undefined;
  private readonly log: CatalogChangeLog<Listed>;
  private nextSlot = 0;
  private lastSeenMs = 0;
  /** Reused for every figures write (thousands a second). */
  private readonly figures: MarketFigures = { yes_bid_1e9: -1, yes_ask_1e9: -1, no_bid_1e9: -1, no_ask_1e9: -1, volume_24h_cents: 0, volume_total_cents: 0, as_of_ms: 0 };

  constructor(
    private readonly spec: SimEdgeSpec,
    private readonly venue: PredictionVenue,
  ) {
    this.log = new CatalogChangeLog<Listed>(venue, this.listed, ({ entry: _e, ticksSinceWrite: _t, delisted_at_ms: _d, ...wire }) => wire);
  }

  onStart(ctx: ActorContext): void {
    this.ctx = ctx;
    const settings = ctx.environment.settings;
    const seed = Number(settings['simSeed'] ?? 1);
    this.world = new PredictionWorld({ seed, events: Number(settings['simPredictionEvents'] ?? 400), resolveMeanS: Number(settings['simMarketResolveS'] ?? 300) });
    this.prices = new PredictionPrices(this.world, new LatentPriceModel(seed));
    const shared = ctx.environment.shared['predictionStats'];
    if (shared !== undefined) this.stats = new MarketStatsTable(shared);
    this.legs = new PredictionLegs({
      venue: this.venue,
      edge_id: this.spec.edge_id,
      latencyMs: settings['simOrderLatency'] === 'off' ? 0 : this.spec.market.latency_ms,
      quote: (symbol, now) => this.legQuote(symbol, now),
      schedule: (ms, fn) => void ctx.schedule(ms, fn),
    });
    this.tick();
  }

  onStop(): void {
    this.cancelTimer?.();
  }

  onMessage(message: PredictionEdgeMessage): unknown {
    switch (message.t) {
      case 'Status':
        return this.status();
      case 'Catalog':
        return this.log.page(message.after_seq, message.max_markets);
      case 'Book':
        return this.book(message.market_id, message.depth);
      case 'PriceHistory':
        return this.history(message);
      case 'Execute':
        return this.legs!.execute(message).then((answer) => answer ?? NO_REPLY);
      case 'Reconcile':
        return this.legs!.reconcile(message.child_id);
      case 'Cancel':
        return { child_id: message.child_id, found: false, cancelled_qty_1e8: 0 } satisfies CancelResult;
      case 'OpenOrders':
        return { venue: this.venue, edge_id: this.spec.edge_id, resting: [] } satisfies OpenOrdersAnswer;
      case 'Balances':
        return null;
      case 'FeeTier':
        // Fees are per market (binary_quadratic); the tier carries the venue's at-mid figures.
        return { venue: this.venue, edge_id: this.spec.edge_id, tier: 'base', maker_bps: 0, taker_bps: this.spec.taker_bps } satisfies FeeTierInfo;
    }
  }

  /** A leg's book now, for a child order. */
  private legQuote(symbol: string, now: number): LegQuote | undefined {
    const hit = this.byLeg.get(symbol);
    if (hit === undefined) return undefined;
    const m = hit.rec.event.markets[hit.c]!;
    const curve = this.curves.of(m);
    const book = this.prices!.book(hit.rec.entry, this.venue, hit.c, now);
    const side = hit.leg === 'YES' ? book.yes : book.no;
    return { bids: side.bids, asks: side.asks, open: phaseAt(m.timeline, now) === 'open', curve, bucket: Math.floor(now / TICK_MS) };
  }

  private tick = (): void => {
    const now = Date.now();
    this.follow(now);
    this.writeFigures(now);
    this.lastSeenMs = now;
    this.cancelTimer = this.ctx!.schedule(TICK_MS, this.tick);
  };

  /** New listings, outcomes and delistings since the last tick, into the change log. */
  private follow(now: number): void {
    const world = this.world!;
    const current = new Set<string>();
    for (const entry of world.entriesAt(now)) {
      if (!entry.listedOn[this.venue]) continue;
      current.add(entry.event.key);
      let rec = this.listed.get(entry.event.key);
      if (rec === undefined) {
        rec = this.list(entry);
        this.changed(rec);
      }
      if (this.resolve(rec, now)) this.changed(rec);
    }
    for (const [key, rec] of this.listed) {
      if (!rec.delisted && !current.has(key)) {
        rec.delisted = true;
        rec.delisted_at_ms = now;
        for (const m of rec.event.markets) {
          this.byMarket.delete(m.market_id);
          this.byLeg.delete(m.yes_token_id);
          this.byLeg.delete(m.no_token_id);
          this.curves.forget(m.market_id);
        }
        this.changed(rec);
      } else if (rec.delisted && now - rec.delisted_at_ms > TOMBSTONE_MS) {
        this.listed.delete(key);
      }
    }
    this.log.compactIfLarge();
    world.prune(now);
  }

  private list(entry: WorldEntry): Listed {
    const event = this.world!.project(entry, this.venue);
    const n = event.markets.length;
    const rec: Listed = {
      seq: 0,
      event,
      slots: event.markets.map(() => this.nextSlot++),
      yes_won: new Array<boolean | null>(n).fill(null),
      resolved_ms: new Array<number | null>(n).fill(null),
      anchor_usd: null,
      final_usd: null,
      delisted: false,
      entry,
      ticksSinceWrite: new Array<number>(n).fill(-1),
      delisted_at_ms: 0,
    };
    this.listed.set(entry.event.key, rec);
    event.markets.forEach((m, c) => {
      this.byMarket.set(m.market_id, { rec, c });
      this.byLeg.set(m.yes_token_id, { rec, c, leg: 'YES' });
      this.byLeg.set(m.no_token_id, { rec, c, leg: 'NO' });
    });
    return rec;
  }

  /** Records the outcome of every market of `rec` determined by `now`; true when one was new. */
  private resolve(rec: Listed, now: number): boolean {
    let news = false;
    const prices = this.prices!;
    rec.event.markets.forEach((m, c) => {
      if (rec.yes_won[c] !== null || now < m.timeline.determined_ms) return;
      const upWins = rec.entry.event.underlying !== null && prices.closedUp(rec.entry);
      rec.yes_won[c] = this.world!.yesWins(rec.entry, this.venue, c, upWins);
      rec.resolved_ms[c] = m.timeline.determined_ms;
      rec.ticksSinceWrite[c] = -1;
      news = true;
    });
    // Up/down: the anchor is known at the open, the final price at the close.
    const t = rec.entry.timeline.polymarket;
    if (rec.entry.event.underlying !== null && rec.anchor_usd === null && now >= t.open_ms) {
      rec.anchor_usd = round8(prices.underlyingAt(rec.entry, t.open_ms).anchor);
      news = true;
    }
    if (rec.entry.event.underlying !== null && rec.final_usd === null && now >= t.close_ms) {
      rec.final_usd = round8(prices.underlyingAt(rec.entry, t.close_ms).price);
      news = true;
    }
    return news;
  }

  private changed(rec: Listed): void {
    this.log.changed(rec.entry.event.key, rec);
  }

  /** Each market's book touch and volumes: trading markets every tick, the others now and then. */
  private writeFigures(now: number): void {
    const stats = this.stats;
    if (stats === undefined) return;
    const prices = this.prices!;
    for (const rec of this.listed.values()) {
      if (rec.delisted) continue;
      rec.event.markets.forEach((m, c) => {
        const trading = phaseAt(m.timeline, now) === 'open';
        const since = rec.ticksSinceWrite[c]!;
        if (!trading && since >= 0 && since < SLOW_REFRESH_TICKS) {
          rec.ticksSinceWrite[c] = since + 1;
          return;
        }
        rec.ticksSinceWrite[c] = trading ? 0 : 1;
        const book = prices.book(rec.entry, this.venue, c, now);
        const v = prices.volumes(rec.entry, this.venue, c, now);
        const f = this.figures;
        f.yes_bid_1e9 = book.yes.bids[0]?.price_1e9 ?? -1;
        f.yes_ask_1e9 = book.yes.asks[0]?.price_1e9 ?? -1;
        f.no_bid_1e9 = book.no.bids[0]?.price_1e9 ?? -1;
        f.no_ask_1e9 = book.no.asks[0]?.price_1e9 ?? -1;
        f.volume_24h_cents = Math.round(v.volume_24h * 100);
        f.volume_total_cents = Math.round(v.volume_total * 100);
        f.as_of_ms = now;
        stats.write(this.venue, rec.slots[c]!, f);
      });
    }
  }

  private book(market_id: string, depth: number): PredictionBook | null {
    const hit = this.byMarket.get(market_id);
    if (hit === undefined) return null;
    const now = Date.now();
    const b = this.prices!.book(hit.rec.entry, this.venue, hit.c, now);
    const d = Math.max(1, Math.min(50, depth));
    return {
      venue: this.venue,
      market_id,
      yes: { bids: b.yes.bids.slice(0, d), asks: b.yes.asks.slice(0, d) },
      no: { bids: b.no.bids.slice(0, d), asks: b.no.asks.slice(0, d) },
      tick_1e9: b.tick_1e9,
      ts_ns: Math.floor(now / 1000) * 1000 * NS_PER_MS,
    };
  }

  private history(ask: Extract<PredictionEdgeMessage, { t: 'PriceHistory' }>): PriceHistoryWindow | null {
    const hit = this.byMarket.get(ask.market_id);
    if (hit === undefined) return null;
    const { to_ms, step_ms } = historyAsked(ask, Date.now());
    return this.prices!.history(hit.rec.entry, this.venue, hit.c, ask.leg === 'YES', ask.from_ms, to_ms, step_ms, hit.rec.yes_won[hit.c] ?? null);
  }

  private status(): EdgeStatus {
    const now = Date.now();
    const symbols = tradingSymbols(this.listed.values(), now);
    return {
      edge_id: this.spec.edge_id,
      venue: this.spec.venue,
      instrument_type: 'prediction',
      connected: this.lastSeenMs > 0,
      symbol_count: symbols.length,
      symbols,
      last_seen_ms: this.lastSeenMs,
      region: this.spec.region,
      supports_algo_runtime: this.spec.supports_algo_runtime,
      stats: { levels: 0, trades: 0, disconnects: 0, stale: false },
    };
  }
}

function round8(x: number): number {
  return Math.round(x * 1e8) / 1e8;
}
