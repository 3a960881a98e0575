/**
 * One simulated venue edge (a venue's spot edge or its perp edge): a matching engine per listed
 * symbol, fed by liquidity providers (LPs) quoting around the shared latent price and crossed by
 * a random taker flow, with the faults a real feed shows. Pure and deterministic: no I/O, no
 * timers, no clock; time comes in as integer ns through `advance(now_ns)`.
 *
 * Determinism contract: everything happens on a fixed timeline of events derived from
 * (edge, model seed, venue seed, start_ns). `advance(now)` processes, in time order, every event
 * with t <= now (ties: fault transitions first, then by symbol index, LP update before taker),
 * stamping each emitted event with the event's own time, never with `now`. So the sequence
 * handed to the sink, and every book, are the same however often and with whatever steps
 * `advance` is called, as long as the subscription set is changed at the same instants.
 *
 *   fault timeline ──┐
 *   per symbol i:    ├─▶ merge by time ─▶ LP update  ──▶ matcher i ─▶ onLevel ─┐
 *     LP arrivals ───┤                  └▶ taker order ─▶ matcher i ─▶ onFill ──┼─▶ sink (if the
 *     taker arrivals ┘                                                         │   symbol is
 *                                                                              │   subscribed and
 *                                                                              │   the feed up)
 *
 * Every listed symbol evolves whether subscribed or not (they are cheap), so `snapshot` serves
 * any listed symbol at once: the cold path of the quote endpoint.
 *
 * Sink contract: callbacks run synchronously inside `advance` (or `snapshot`, which advances
 * first). The `TradeEvent` object is reused for every trade: copy its fields to keep them.
 * Deltas of a symbol apply to the state of `snapshot(symbol)` taken after `subscribe(symbol)`
 * and after every `onStatus(true)`; no delta is emitted while the feed is down.
 */
import { Side, type InstrumentType, type Level } from '../../../domain/market.ts';
import { PRICE_SCALE, QTY_SCALE } from '../../../domain/units.ts';
import type { ListingSpec } from '../../../domain/venues.ts';
import type { MarketParams, SimEdgeSpec } from './catalog.ts';
import { FaultKind, FaultSchedule } from './faults.ts';
import { LatentPriceModel, quoteIndex, smoothNoise } from './latent-price.ts';
import type { FillEvent, Matcher, MatchingRules, MatchListener } from './matcher.ts';
import { OrderBook } from './order-book.ts';
import { Rng, seedFrom } from './rng.ts';

/** One fill of a client's child order. */
export interface ExecutionFill {
  price_1e9: number;
  qty_1e8: number;
  /** the venue trade id (also on the tape) */
  trade_id: string;
  ts_ns: number;
}

export interface ExecutionReport {
  /** false: the venue refused the order (reason says why); no liquidity is ok with no fills */
  ok: boolean;
  reason: string | null;
  fills: ExecutionFill[];
}

/** A client order that may rest: the crossing part's fills, and what rests under `order_id`. */
export interface PlacementReport extends ExecutionReport {
  /** the venue's id of the order; 0 when refused */
  order_id: number;
  resting_qty_1e8: number;
}

export interface TradeEvent {
  symbol: string;
  price_1e9: number;
  qty_1e8: number;
  taker_side: Side;
  ts_ns: number;
  /** Venue trade id `<start ms>-<n>`, n = 1, 2, ... per (edge, symbol): unique across restarts. */
  trade_id: string;
}

export interface VenueSink {
  onLevel(symbol: string, side: Side, price_1e9: number, qty_1e8: number, ts_ns: number): void;
  /** `t` is reused by the next trade: copy what you keep. */
  onTrade(t: TradeEvent): void;
  onStatus(connected: boolean, ts_ns: number, reason?: string): void;
  /**
   * A client's resting order filled as maker (`fill` is reused: copy what you keep);
   * `left_qty_1e8` still rests after it.
   */
  onOwnFill?(order_id: number, symbol: string, fill: ExecutionFill, left_qty_1e8: number): void;
}

export interface BookSnapshot {
  bids: Level[];
  asks: Level[];
  ts_ns: number;
}

/** Current funding of a perp listing (rates per interval). */
export interface FundingInfo {
  symbol: string;
  /** Predicted rate of the interval under way, bps (4 decimals). */
  rate_bps: number;
  /** Same rate as a fraction x 1e9 (1 bps = 100,000). */
  rate_1e9: number;
  interval_hours: number;
  next_funding_ns: number;
  /** Perp premium over the spot index now, bps (4 decimals). */
  premium_bps: number;
  ts_ns: number;
}

export interface FundingPoint {
  /** The funding instant (end of the interval the rate was computed over). */
  ts_ns: number;
  rate_bps: number;
  rate_1e9: number;
  /** The venue's mark at the instant (price_1e9): what positions pay funding on. */
  mark_1e9: number;
}

export interface SimVenueStats {
  /** Internal events processed (LP updates, taker arrivals, fault transitions). */
  events: number;
  /** Events handed to the sink, by kind. */
  levels: number;
  trades: number;
  statuses: number;
  /** Trades on this venue including those not emitted (unsubscribed symbol or feed down). */
  venue_trades: number;
  /** Orders the matcher refused (should stay 0: the model sizes orders to the rules). */
  rejects: number;
  /** ts_ns of the last event handed to the sink (0 before the first). */
  last_event_ns: number;
  /** Everything up to here has been processed. */
  processed_to_ns: number;
  connected: boolean;
  stale: boolean;
  lag_ms: number;
  /** Fault episodes begun so far. */
  disconnects: number;
  stale_episodes: number;
  lag_episodes: number;
}

export type MatcherFactory = (rules: MatchingRules, listener: MatchListener) => Matcher;

export interface SimVenueOptions {
  /** Instant the venue starts (books built, first onStatus(true)); default: the first advance. */
  start_ns?: number;
  /** Matching engine per symbol; default `OrderBook`. */
  matcher?: MatcherFactory;
  /** Seconds between funding instants instead of the venue's schedule (a compressed clock for demos and tests; the rate per interval is unchanged). */
  funding_interval_s?: number;
}

const NS_PER_MS = 1e6;
const NS_PER_S = 1e9;
const NS_PER_HOUR = 3600e9;
/** Order ids are seq * SLOT_SPACE + slot, so a fill's maker id names its LP slot directly. */
const SLOT_SPACE = 256;
const TAKER_SLOT = SLOT_SPACE - 1;
/** Premium samples within a funding interval (fixed instants: the rate is a pure function). */
const FUNDING_SAMPLE_NS = 5 * 60 * NS_PER_S;
const FUNDING_HISTORY_MAX = 1000;
/** LP quote skew per update (fraction of its half spread) and size dispersion (log sd). */
const LP_SKEW = 0.15;
const SIZE_SD = 0.4;
const TRADE_SIZE_SD = 1.1;
/** Taker arrivals never come closer than this (guards against a zero interval). */
const MIN_GAP_NS = 1_000;

/** Per-symbol state; all per-order bookkeeping lives in typed arrays indexed by LP slot. */
class SymbolSim {
  readonly symbol: string;
  readonly listing: ListingSpec;
  readonly rules: MatchingRules;
  readonly matcher: Matcher;
  readonly rng: Rng;
  readonly u: number;
  readonly q: number;
  readonly noiseKey: number;
  readonly premiumKey: number;
  subscribed: boolean;

  // Scaled parameters.
  readonly halfSpread: number; // fraction, best LP
  readonly noiseFrac: number;
  readonly lpRateNs: number; // LP updates per ns (all LPs)
  readonly tradeRateNs: number;
  readonly levelUsd: number; // USD at the top level of one LP before growth and dispersion
  readonly medianTradeUsd: number;
  readonly depthUsd: number;

  // LP book keeping: slot = (lp * 2 + side) * levels + k.
  readonly ids: Float64Array;
  readonly px: Float64Array;
  readonly qty: Float64Array;
  readonly anchor: Float64Array; // per (lp, side): price of level 0, 0 = none
  readonly gap: Float64Array; // per lp: level spacing, a multiple of the tick
  readonly lpHalf: Float64Array; // per lp: half spread (fraction)
  readonly staleUntil: Float64Array; // per lp
  orderSeq = 1;
  tradeSeq = 0;
  /** `<start ms>-`: trade ids stay unique across restarts of the simulator. */
  tradePrefix = '';

  constructor(
    listenerFor: (s: SymbolSim) => MatchListener,
    edge: SimEdgeSpec,
    listing: ListingSpec,
    model: LatentPriceModel,
    seed: number,
    createMatcher: MatcherFactory,
  ) {
    const m = edge.market;
    this.symbol = listing.symbol;
    this.listing = listing;
    this.rules = listing.rules;
    this.subscribed = listing.subscribed;
    this.u = model.indexOf(listing.base);
    this.q = quoteIndex(listing.quote);
    this.rng = new Rng(seedFrom(seed, edge.edge_id, listing.symbol));
    this.noiseKey = seedFrom(seed, edge.edge_id, listing.symbol, 'noise');
    this.premiumKey = seedFrom(seed, edge.edge_id, listing.symbol, 'premium');
    const liq = Math.max(listing.liquidity, 0.01);
    const widen = Math.min(8, 1 / Math.sqrt(liq));
    this.halfSpread = (m.spread_bps / 2 / 1e4) * widen;
    this.noiseFrac = (m.noise_bps / 1e4) * widen;
    this.lpRateNs = Math.max(1, m.update_hz * Math.sqrt(liq)) / NS_PER_S;
    this.tradeRateNs = Math.max(0.1, m.trade_hz * liq ** 0.7) / NS_PER_S;
    this.depthUsd = m.depth_usd * liq;
    let weights = 0;
    for (let k = 0; k < m.levels; k++) weights += 1 + m.level_growth * k;
    this.levelUsd = this.depthUsd / (m.lp_count * weights);
    this.medianTradeUsd = m.median_trade_usd * Math.sqrt(liq);

    const slots = m.lp_count * 2 * m.levels;
    if (slots >= TAKER_SLOT) throw new RangeError(`${edge.edge_id}: lp_count x levels too large`);
    this.ids = new Float64Array(slots);
    this.px = new Float64Array(slots);
    this.qty = new Float64Array(slots);
    this.anchor = new Float64Array(m.lp_count * 2);
    this.gap = new Float64Array(m.lp_count);
    this.lpHalf = new Float64Array(m.lp_count);
    this.staleUntil = new Float64Array(m.lp_count);
    for (let i = 0; i < m.lp_count; i++) this.lpHalf[i] = this.halfSpread * (1 + 0.6 * i);

    this.matcher = createMatcher(listing.rules, listenerFor(this));
  }
}

export class SimVenue {
  readonly edge: SimEdgeSpec;
  readonly model: LatentPriceModel;
  readonly seed: number;

  private readonly sink: VenueSink;
  private readonly market: MarketParams;
  private readonly syms: SymbolSim[];
  private readonly bySymbol = new Map<string, SymbolSim>();
  /** Clients' resting orders by venue order id, with what is left of each. */
  private readonly clientOrders = new Map<number, { s: SymbolSim; left: number }>();
  private readonly ownFill: ExecutionFill = { price_1e9: 0, qty_1e8: 0, trade_id: '', ts_ns: 0 };
  private readonly isPerp: boolean;
  /** Between funding instants (ns): the venue's schedule or the compressed clock of `SimVenueOptions`; 0 on a spot edge. */
  private readonly fundingIntervalNs: number;
  private readonly latencyNs: number;
  private readonly levelsPerSide: number;
  private readonly lpCount: number;
  /** Next event time: [0] fault timeline, [1 + 2i] LP update of symbol i, [2 + 2i] its taker. */
  private readonly due: Float64Array;
  private faults: FaultSchedule | undefined;
  private started = false;
  private startNs: number | undefined;
  private processedTo = 0;
  /** Time of the event being processed: the ts_ns of everything it emits. */
  private now = 0;
  /** Books are being built at start: nothing is emitted. */
  private silent = true;
  /** The client order being executed, whose fills `onFill` records. */
  private capture: { id: number; fills: ExecutionFill[]; symbol: SymbolSim } | undefined;
  private readonly trade: TradeEvent = { symbol: '', price_1e9: 0, qty_1e8: 0, taker_side: Side.BID, ts_ns: 0, trade_id: '' };
  private readonly keepId: Float64Array;
  private readonly keepPx: Float64Array;
  private readonly keepQty: Float64Array;
  private readonly counters = {
    events: 0,
    levels: 0,
    trades: 0,
    statuses: 0,
    venue_trades: 0,
    rejects: 0,
    last_event_ns: 0,
  };

  constructor(edge: SimEdgeSpec, model: LatentPriceModel, seed: number, sink: VenueSink, options: SimVenueOptions = {}) {
    this.edge = edge;
    this.model = model;
    this.seed = seed >>> 0;
    this.sink = sink;
    this.market = edge.market;
    this.isPerp = edge.instrument_type === 'perp';
    this.latencyNs = edge.market.latency_ms * NS_PER_MS;
    this.levelsPerSide = edge.market.levels;
    this.lpCount = edge.market.lp_count;
    this.startNs = options.start_ns;
    this.fundingIntervalNs = edge.funding === null ? 0 : options.funding_interval_s !== undefined ? options.funding_interval_s * NS_PER_S : edge.funding.interval_h * NS_PER_HOUR;
    const createMatcher = options.matcher ?? ((rules, listener) => new OrderBook(rules, listener));
    // One listener per symbol, made once: the matcher's callbacks reach this venue's private
    // handlers with the symbol already bound, so no event allocates a closure.
    const listenerFor = (s: SymbolSim): MatchListener => ({
      onFill: (f) => this.onFill(s, f),
      onLevel: (side, price, total) => this.onLevel(s, side, price, total),
    });
    this.syms = edge.listings.map((l) => new SymbolSim(listenerFor, edge, l, model, this.seed, createMatcher));
    for (const s of this.syms) {
      if (s.u < 0 || s.q < 0) throw new RangeError(`${edge.edge_id}: no latent price for ${s.symbol}`);
      this.bySymbol.set(s.symbol, s);
    }
    this.due = new Float64Array(1 + 2 * this.syms.length).fill(Infinity);
    this.keepId = new Float64Array(this.levelsPerSide);
    this.keepPx = new Float64Array(this.levelsPerSide);
    this.keepQty = new Float64Array(this.levelsPerSide);
  }

  // -------------------------------------------------------------------------------------------
  // Public API
  // -------------------------------------------------------------------------------------------

  get edge_id(): string {
    return this.edge.edge_id;
  }

  get instrument_type(): InstrumentType {
    return this.edge.instrument_type;
  }

  /** Listed symbols in listing order. */
  symbols(): readonly string[] {
    return this.edge.listings.map((l) => l.symbol);
  }

  isListed(symbol: string): boolean {
    return this.bySymbol.has(symbol);
  }

  /** Subscribed symbols in listing order. */
  subscribed(): string[] {
    return this.syms.filter((s) => s.subscribed).map((s) => s.symbol);
  }

  isSubscribed(symbol: string): boolean {
    return this.bySymbol.get(symbol)?.subscribed === true;
  }

  /** Starts emitting the symbol's events from the next one; false when not listed. */
  subscribe(symbol: string): boolean {
    const s = this.bySymbol.get(symbol);
    if (s === undefined) return false;
    s.subscribed = true;
    return true;
  }

  /** Stops emitting the symbol's events (the book keeps evolving); false when not listed. */
  unsubscribe(symbol: string): boolean {
    const s = this.bySymbol.get(symbol);
    if (s === undefined) return false;
    s.subscribed = false;
    return true;
  }

  /**
   * The feed drops now (after advancing to now_ns) and comes back at `until_ns`, on top of the
   * venue's own fault timeline: `onStatus(false)` at once, child orders refused with
   * `venue_disconnected` meanwhile, `onStatus(true)` and fresh snapshots when it is back. For
   * injected faults (`venue-faults.ts`); the timeline stays deterministic for the same drops.
   */
  dropFeed(now_ns: number, until_ns: number): void {
    this.advance(now_ns);
    // 1 µs after what is processed: wall-clock ns (~1.8e18) are 256 ns apart as doubles, so +1 would be no later.
    const from = Math.max(now_ns, this.processedTo) + 1_000;
    this.faults!.force(FaultKind.DISCONNECT, from, Math.max(from, until_ns));
    this.due[0] = this.faults!.nextChange();
    this.advance(from);
  }

  /** Feed state as of the last processed instant. */
  isConnected(): boolean {
    return this.faults?.connected ?? true;
  }

  /**
   * Processes every event with t <= now_ns in time order and hands the subscribed symbols'
   * events to the sink. The first call (or `start_ns`) builds the books and emits onStatus(true).
   * A now_ns at or before the last one processed does nothing.
   */
  advance(now_ns: number): void {
    if (!this.started) this.start(this.startNs ?? now_ns);
    if (now_ns <= this.processedTo) return;
    const due = this.due;
    const n = due.length;
    for (;;) {
      let m = 0;
      let t = due[0]!;
      for (let i = 1; i < n; i++) {
        if (due[i]! < t) {
          t = due[i]!;
          m = i;
        }
      }
      if (t > now_ns) break;
      this.now = t;
      this.counters.events++;
      if (m === 0) {
        this.onFault();
      } else {
        const s = this.syms[(m - 1) >> 1]!;
        if (((m - 1) & 1) === 0) {
          this.lpEvent(s, t);
          due[m] = Math.floor(t + Math.max(MIN_GAP_NS, s.rng.exponential(s.lpRateNs))) + 1;
        } else {
          this.takerEvent(s, t);
          due[m] = Math.floor(t + Math.max(MIN_GAP_NS, s.rng.exponential(s.tradeRateNs))) + 1;
        }
      }
    }
    this.processedTo = now_ns;
  }

  /**
   * The symbol's book to `depth` levels per side, as of now_ns: advances to now_ns first (which
   * may hand due events to the sink), so it is current. Works for any listed symbol, subscribed
   * or not; undefined when the symbol is not listed. Served while the feed is down too (the
   * REST path of a real venue is separate from its stream).
   */
  snapshot(symbol: string, depth: number, now_ns: number): BookSnapshot | undefined {
    const s = this.bySymbol.get(symbol);
    if (s === undefined) return undefined;
    this.advance(now_ns);
    return {
      bids: s.matcher.levels(Side.BID, depth),
      asks: s.matcher.levels(Side.ASK, depth),
      ts_ns: this.processedTo,
    };
  }

  /**
   * The symbol's levels as of the last processed instant (no advance), written into caller
   * arrays: the depth cache's writer path. Returns how many, -1 when not listed.
   */
  levelsInto(symbol: string, side: Side, depth: number, prices: Float64Array, pricesAt: number, qtys: Float64Array, qtysAt: number): number {
    const s = this.bySymbol.get(symbol);
    return s === undefined ? -1 : s.matcher.levelsInto(side, depth, prices, pricesAt, qtys, qtysAt);
  }

  /** The instant the simulation has been processed to, ns. */
  get processedToNs(): number {
    return this.processedTo;
  }

  /** Best bid / ask of a listed symbol as of the last processed instant (undefined = empty side). */
  bestBid(symbol: string): number | undefined {
    return this.bySymbol.get(symbol)?.matcher.bestBid();
  }

  bestAsk(symbol: string): number | undefined {
    return this.bySymbol.get(symbol)?.matcher.bestAsk();
  }

  /**
   * The venue's own reference price for a listed symbol at t (price_1e9, float): latent price
   * in the quote currency, plus the perp premium on a perp edge, plus the venue's quote noise.
   * LPs quote around this value taken `latency_ms` (+ any lag spike) in the past.
   */
  referencePrice(symbol: string, t_ns: number): number | undefined {
    const s = this.bySymbol.get(symbol);
    return s === undefined ? undefined : this.venueRef(s, t_ns);
  }

  stats(): SimVenueStats {
    const f = this.faults;
    return {
      ...this.counters,
      processed_to_ns: this.processedTo,
      connected: f?.connected ?? true,
      stale: f?.stale ?? false,
      lag_ms: (f?.lag_ns ?? 0) / NS_PER_MS,
      disconnects: f?.begun[FaultKind.DISCONNECT] ?? 0,
      stale_episodes: f?.begun[FaultKind.STALE] ?? 0,
      lag_episodes: f?.begun[FaultKind.LAG] ?? 0,
    };
  }

  /**
   * Funding of a perp listing at now_ns (undefined on a spot edge or an unlisted symbol):
   * the rate predicted for the interval under way from the premium averaged over its elapsed
   * part (5-minute samples at fixed instants). Pure: does not advance the venue.
   */
  funding(symbol: string, now_ns: number): FundingInfo | undefined {
    const s = this.bySymbol.get(symbol);
    const spec = this.edge.funding;
    if (s === undefined || spec === null || !this.isPerp) return undefined;
    const interval = this.fundingIntervalNs;
    const start = Math.floor(now_ns / interval) * interval;
    const rate = this.fundingRate(s, start, now_ns);
    return {
      symbol,
      rate_bps: round4(rate * 1e4),
      rate_1e9: Math.round(rate * PRICE_SCALE),
      interval_hours: interval / NS_PER_HOUR,
      next_funding_ns: start + interval,
      premium_bps: round4(this.premium(s, now_ns) * 1e4),
      ts_ns: now_ns,
    };
  }

  /**
   * Settled funding of a perp listing at every funding instant in [from_ns, to_ns], ascending,
   * at most the last 1,000; [] on a spot edge or an unlisted symbol. Pure, any time range.
   */
  fundingHistory(symbol: string, from_ns: number, to_ns: number): FundingPoint[] {
    const s = this.bySymbol.get(symbol);
    const spec = this.edge.funding;
    if (s === undefined || spec === null || !this.isPerp || to_ns < from_ns) return [];
    const interval = this.fundingIntervalNs;
    const last = Math.floor(to_ns / interval);
    const first = Math.max(Math.ceil(from_ns / interval), last - FUNDING_HISTORY_MAX + 1);
    const out: FundingPoint[] = [];
    for (let k = first; k <= last; k++) {
      const at = k * interval;
      const rate = this.fundingRate(s, at - interval, at - 1);
      out.push({ ts_ns: at, rate_bps: round4(rate * 1e4), rate_1e9: Math.round(rate * PRICE_SCALE), mark_1e9: Math.round(this.venueRef(s, at)) });
    }
    return out;
  }

  // -------------------------------------------------------------------------------------------
  // Matcher callbacks
  // -------------------------------------------------------------------------------------------

  private onLevel(s: SymbolSim, side: Side, price_1e9: number, total_qty_1e8: number): void {
    if (this.silent || !s.subscribed || !this.faults!.connected) return;
    this.counters.levels++;
    this.counters.last_event_ns = this.now;
    this.sink.onLevel(s.symbol, side, price_1e9, total_qty_1e8, this.now);
  }

  /**
   * A client's child order against the venue's live book: immediate-or-cancel at
   * `limit_price_1e9` (any price when undefined). The venue is first advanced to `now_ns`, so
   * the order meets the book as it is now; its trades reach the tape like any other. Client
   * orders consume simulated liquidity, so a market with client flow is deterministic only for
   * the same flow.
   */
  executeIoc(symbol: string, side: Side, qty_1e8: number, limit_price_1e9: number | undefined, now_ns: number): ExecutionReport {
    this.advance(now_ns);
    const s = this.bySymbol.get(symbol);
    const report: ExecutionReport = { ok: false, reason: null, fills: [] };
    if (s === undefined) return { ...report, reason: 'not_listed' };
    if (!this.faults!.connected) return { ...report, reason: 'venue_disconnected' };
    const id = s.orderSeq++ * SLOT_SPACE + TAKER_SLOT;
    this.now = Math.max(this.now, now_ns);
    this.capture = { id, fills: report.fills, symbol: s };
    try {
      const m = s.matcher;
      const r = limit_price_1e9 === undefined ? m.market(id, side, qty_1e8) : m.limit(id, side, limit_price_1e9, qty_1e8);
      const resting = r.resting_qty_1e8;
      if (resting > 0) m.cancel(id);
      report.ok = r.ok || r.reason === 'no_liquidity';
      report.reason = r.ok ? null : (r.reason ?? 'rejected');
    } finally {
      this.capture = undefined;
    }
    return report;
  }

  /**
   * A client's limit order that may rest (GTC): what crosses fills now, as taker; the rest stays
   * on the book in price-time priority and fills later, as maker, when the market's flow reaches
   * it (reported to the sink's `onOwnFill`) until filled or `cancelOrder`.
   */
  placeLimit(symbol: string, side: Side, qty_1e8: number, limit_price_1e9: number, now_ns: number): PlacementReport {
    this.advance(now_ns);
    const s = this.bySymbol.get(symbol);
    const report: PlacementReport = { ok: false, reason: null, fills: [], order_id: 0, resting_qty_1e8: 0 };
    if (s === undefined) return { ...report, reason: 'not_listed' };
    if (!this.faults!.connected) return { ...report, reason: 'venue_disconnected' };
    const id = s.orderSeq++ * SLOT_SPACE + TAKER_SLOT;
    this.now = Math.max(this.now, now_ns);
    this.capture = { id, fills: report.fills, symbol: s };
    try {
      const r = s.matcher.limit(id, side, limit_price_1e9, qty_1e8);
      report.ok = r.ok;
      report.reason = r.ok ? null : (r.reason ?? 'rejected');
      if (r.ok && r.resting_qty_1e8 > 0) {
        report.order_id = id;
        report.resting_qty_1e8 = r.resting_qty_1e8;
        this.clientOrders.set(id, { s, left: r.resting_qty_1e8 });
      }
    } finally {
      this.capture = undefined;
    }
    return report;
  }

  /** Cancels a client's resting order (after advancing to now_ns); returns the quantity cancelled, 0 when none rests. */
  cancelOrder(order_id: number, now_ns: number): number {
    this.advance(now_ns);
    const order = this.clientOrders.get(order_id);
    if (order === undefined) return 0;
    this.clientOrders.delete(order_id);
    order.s.matcher.cancel(order_id);
    return order.left;
  }

  /** The FillEvent is the matcher's, reused by its next fill: read it here only. */
  private onFill(s: SymbolSim, f: FillEvent): void {
    const capture = this.capture;
    if (capture !== undefined && f.taker_id === capture.id) {
      capture.fills.push({ price_1e9: f.price_1e9, qty_1e8: f.qty_1e8, trade_id: s.tradePrefix + (s.tradeSeq + 1), ts_ns: this.now });
    }
    const own = this.clientOrders.get(f.maker_id);
    if (own !== undefined) {
      own.left -= f.qty_1e8;
      if (own.left <= 0) this.clientOrders.delete(f.maker_id);
      const fill = this.ownFill;
      fill.price_1e9 = f.price_1e9;
      fill.qty_1e8 = f.qty_1e8;
      fill.trade_id = s.tradePrefix + (s.tradeSeq + 1);
      fill.ts_ns = this.now;
      this.sink.onOwnFill?.(f.maker_id, s.symbol, fill, own.left);
    }
    const id = f.maker_id;
    const slot = id % SLOT_SPACE;
    if (slot < s.ids.length && s.ids[slot] === id) {
      const left = s.qty[slot]! - f.qty_1e8;
      s.qty[slot] = left;
      if (left <= 0) s.ids[slot] = 0;
    }
    s.tradeSeq++;
    this.counters.venue_trades++;
    if (this.silent || !s.subscribed || !this.faults!.connected) return;
    const t = this.trade;
    t.symbol = s.symbol;
    t.price_1e9 = f.price_1e9;
    t.qty_1e8 = f.qty_1e8;
    t.taker_side = f.taker_side;
    t.ts_ns = this.now;
    t.trade_id = s.tradePrefix + s.tradeSeq;
    this.counters.trades++;
    this.counters.last_event_ns = this.now;
    this.sink.onTrade(t);
  }

  // -------------------------------------------------------------------------------------------
  // The model
  // -------------------------------------------------------------------------------------------

  private start(t0: number): void {
    this.started = true;
    this.processedTo = t0;
    this.now = t0;
    this.faults = new FaultSchedule(this.edge.faults, seedFrom(this.seed, this.edge.edge_id), t0);
    this.silent = true;
    const prefix = `${Math.floor(t0 / NS_PER_MS)}-`;
    for (const s of this.syms) {
      s.tradePrefix = prefix;
      const ref = this.venueRef(s, t0 - this.latencyNs);
      for (let i = 0; i < this.lpCount; i++) {
        s.gap[i] = this.gapFor(s, i, ref);
        this.quote(s, i, ref, false);
      }
    }
    this.silent = false;
    const due = this.due;
    due[0] = this.faults.nextChange();
    for (let i = 0; i < this.syms.length; i++) {
      const s = this.syms[i]!;
      due[1 + 2 * i] = Math.floor(t0 + s.rng.exponential(s.lpRateNs)) + 1;
      due[2 + 2 * i] = Math.floor(t0 + s.rng.exponential(s.tradeRateNs)) + 1;
    }
    this.counters.statuses++;
    this.counters.last_event_ns = t0;
    this.sink.onStatus(true, t0, 'connected');
  }

  private onFault(): void {
    const f = this.faults!;
    const kind = f.step();
    this.due[0] = f.nextChange();
    if (kind === FaultKind.DISCONNECT) {
      this.counters.statuses++;
      this.counters.last_event_ns = this.now;
      this.sink.onStatus(f.connected, this.now, f.connected ? 'reconnected' : 'feed dropped');
    }
  }

  /** Reference (price_1e9 units, float) of symbol s at t as this venue sees it. */
  private venueRef(s: SymbolSim, t: number): number {
    const model = this.model;
    let p = model.usdAt(s.u, t) / model.quoteUsdAt(s.q, t);
    if (this.isPerp) p *= 1 + this.premium(s, t);
    const noise = 0.7 * smoothNoise(this.seed, s.noiseKey, t, 33) + 0.7 * smoothNoise(this.seed, s.noiseKey + 1, t, 36);
    return p * (1 + s.noiseFrac * noise) * PRICE_SCALE;
  }

  /** Perp premium over spot on this venue: the shared premium plus a small venue offset. */
  private premium(s: SymbolSim, t: number): number {
    const own = 0.05 * smoothNoise(this.seed, s.premiumKey, t, 38) + 0.1 * smoothNoise(this.seed, s.premiumKey + 1, t, 41);
    return this.model.perpPremiumAt(s.u, t) + own / 1e4;
  }

  /** Binance-style rate over [from, to]: P + clamp(I - P, +-c), capped; P scaled to the interval. */
  private fundingRate(s: SymbolSim, from: number, to: number): number {
    const spec = this.edge.funding!;
    let sum = 0;
    let n = 0;
    for (let t = from; t <= to; t += FUNDING_SAMPLE_NS) {
      sum += this.premium(s, t);
      n++;
    }
    const p = ((sum / n) * spec.interval_h) / 8;
    const i = spec.interest_bps / 1e4;
    const c = spec.clamp_bps / 1e4;
    const cap = spec.cap_bps / 1e4;
    const rate = p + Math.min(c, Math.max(-c, i - p));
    return Math.min(cap, Math.max(-cap, rate));
  }

  /** Level spacing of LP i: a multiple of the tick, about 0.6-2.2 half spreads. */
  private gapFor(s: SymbolSim, i: number, ref: number): number {
    const tick = s.rules.tick_1e9;
    const frac = s.halfSpread * (0.6 + 0.8 * i);
    return Math.max(1, Math.round((frac * ref) / tick)) * tick;
  }

  /** Smallest quantity the rules accept at this price (lot multiple, min qty, min notional). */
  private minQty(s: SymbolSim, price: number): number {
    const r = s.rules;
    let q = r.min_qty_1e8;
    if (r.min_notional_1e9 > 0) {
      const need = Math.ceil(((r.min_notional_1e9 * QTY_SCALE) / price / r.lot_1e8) * 1.001) * r.lot_1e8;
      if (need > q) q = need;
    }
    return q;
  }

  /** Lot-rounded quantity for usd at price, at least the minimum. */
  private qtyFor(s: SymbolSim, usd: number, price: number): number {
    const lot = s.rules.lot_1e8;
    const q = Math.round(((usd * PRICE_SCALE) / price) * (QTY_SCALE / lot)) * lot;
    const min = this.minQty(s, price);
    return q < min ? min : q;
  }

  private lpSize(s: SymbolSim, k: number, price: number): number {
    const usd = s.levelUsd * (1 + this.market.level_growth * k) * Math.exp(SIZE_SD * s.rng.normal());
    return this.qtyFor(s, usd, price);
  }

  private slotOf(i: number, side: Side, k: number): number {
    return (i * 2 + side) * this.levelsPerSide + k;
  }

  /** Rests an LP order in slot; the part that crosses trades at once (a stale quote picked off). */
  private place(s: SymbolSim, slot: number, side: Side, price: number, qty: number): void {
    if (price <= 0) return;
    const id = s.orderSeq++ * SLOT_SPACE + slot;
    const r = s.matcher.limit(id, side, price, qty);
    if (!r.ok) {
      this.counters.rejects++;
      s.ids[slot] = 0;
      return;
    }
    if (r.resting_qty_1e8 > 0) {
      s.ids[slot] = id;
      s.px[slot] = price;
      s.qty[slot] = r.resting_qty_1e8;
    } else {
      s.ids[slot] = 0;
    }
  }

  private lpEvent(s: SymbolSim, t: number): void {
    if (this.faults!.stale) return;
    const rng = s.rng;
    const i = rng.int(this.lpCount);
    if (s.staleUntil[i]! > t) return;
    if (rng.uniform() < this.market.lp_stale_prob) {
      // The LP stops updating for a while; its resting orders stay where they are.
      s.staleUntil[i] = t + rng.exponential(1 / this.market.lp_stale_ms) * NS_PER_MS;
      return;
    }
    const ref = this.venueRef(s, t - this.latencyNs - this.faults!.lag_ns);
    this.quote(s, i, ref, true);
  }

  /**
   * LP i quotes around ref: when its ladder's inside price moved, the ladder shifts (orders
   * still on the new ladder keep their queue place, the others are cancelled, gaps filled);
   * otherwise it adjusts one level's size (reduce in place, or cancel and re-join the queue)
   * and refills levels the taker flow consumed.
   */
  private quote(s: SymbolSim, i: number, ref: number, micro: boolean): void {
    const rng = s.rng;
    const half = s.lpHalf[i]!;
    const r = ref * (1 + LP_SKEW * half * rng.normal());
    const gap = s.gap[i]!;
    const bid0 = Math.floor((r * (1 - half)) / gap) * gap;
    const ask0 = Math.ceil((r * (1 + half)) / gap) * gap;
    const oldBid = s.anchor[i * 2 + Side.BID]!;
    const moveBid = bid0 !== oldBid;
    const moveAsk = ask0 !== s.anchor[i * 2 + Side.ASK]!;
    if (moveBid || moveAsk) {
      // Move the side going away first so the new quote never meets this LP's own old one.
      if (bid0 > oldBid) {
        if (moveAsk) this.shift(s, i, Side.ASK, ask0);
        if (moveBid) this.shift(s, i, Side.BID, bid0);
      } else {
        if (moveBid) this.shift(s, i, Side.BID, bid0);
        if (moveAsk) this.shift(s, i, Side.ASK, ask0);
      }
      return;
    }
    if (!micro) return;
    const L = this.levelsPerSide;
    const side: Side = rng.uniform() < 0.5 ? Side.BID : Side.ASK;
    const u = rng.uniform();
    const k = Math.min(L - 1, Math.floor(L * u * u)); // top levels change most often
    const slot = this.slotOf(i, side, k);
    const id = s.ids[slot]!;
    if (id !== 0) {
      const target = this.lpSize(s, k, s.px[slot]!);
      const have = s.qty[slot]!;
      if (target < have) {
        if (s.matcher.reduce(id, target)) s.qty[slot] = target;
      } else if (target > have * 1.25) {
        s.matcher.cancel(id);
        s.ids[slot] = 0;
        this.place(s, slot, side, s.px[slot]!, target);
      }
    }
    this.refill(s, i, Side.BID);
    this.refill(s, i, Side.ASK);
  }

  private refill(s: SymbolSim, i: number, side: Side): void {
    const p0 = s.anchor[i * 2 + side]!;
    if (p0 === 0) return;
    const dir = side === Side.BID ? -1 : 1;
    const gap = s.gap[i]!;
    const base = this.slotOf(i, side, 0);
    for (let k = 0; k < this.levelsPerSide; k++) {
      if (s.ids[base + k] !== 0) continue;
      const price = p0 + dir * k * gap;
      this.place(s, base + k, side, price, this.lpSize(s, k, price));
    }
  }

  /** Moves LP i's ladder on one side so that level 0 is at p0. */
  private shift(s: SymbolSim, i: number, side: Side, p0: number): void {
    const L = this.levelsPerSide;
    const base = this.slotOf(i, side, 0);
    const dir = side === Side.BID ? -1 : 1;
    const gap = s.gap[i]!;
    const keepId = this.keepId;
    const keepPx = this.keepPx;
    const keepQty = this.keepQty;
    keepId.fill(0);
    for (let j = 0; j < L; j++) {
      const id = s.ids[base + j]!;
      if (id === 0) continue;
      // Prices and p0 are multiples of gap, so k is an exact integer.
      const k = ((s.px[base + j]! - p0) * dir) / gap;
      if (k >= 0 && k < L && keepId[k] === 0) {
        keepId[k] = id;
        keepPx[k] = s.px[base + j]!;
        keepQty[k] = s.qty[base + j]!;
      } else {
        s.matcher.cancel(id);
      }
    }
    for (let k = 0; k < L; k++) {
      s.ids[base + k] = keepId[k]!;
      s.px[base + k] = keepPx[k]!;
      s.qty[base + k] = keepQty[k]!;
    }
    s.anchor[i * 2 + side] = p0;
    this.refill(s, i, side);
  }

  private takerEvent(s: SymbolSim, t: number): void {
    if (this.faults!.stale) return;
    const m = s.matcher;
    const bb = m.bestBid();
    const ba = m.bestAsk();
    if (bb === undefined && ba === undefined) return;
    const rng = s.rng;
    // Informed flow: takers lean towards the venue's current reference, so quotes left behind
    // by a lagging or stale LP get picked off.
    const ref = this.venueRef(s, t);
    const mid = bb !== undefined && ba !== undefined ? (bb + ba) / 2 : (bb ?? ba)!;
    const lean = Math.tanh((ref - mid) / (mid * s.halfSpread));
    const side: Side = rng.uniform() < 0.5 + 0.35 * lean ? Side.BID : Side.ASK;
    let usd: number;
    if (rng.uniform() < this.market.sweep_prob) usd = s.depthUsd * rng.range(0.1, 0.4);
    else usd = Math.min(s.medianTradeUsd * 50, s.medianTradeUsd * Math.exp(TRADE_SIZE_SD * rng.normal()));
    const qty = this.qtyFor(s, usd, ref);
    const id = s.orderSeq++ * SLOT_SPACE + TAKER_SLOT;
    const r = m.market(id, side, qty);
    if (!r.ok && r.reason !== 'no_liquidity') this.counters.rejects++;
  }
}

function round4(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
