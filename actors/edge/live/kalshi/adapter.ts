import { RecentMap } from '../../../../domain/recent.ts';
import type { PredictionMarket } from '../../../../domain/prediction/catalog.ts';
import type { Leg } from '../../../../domain/prediction/symbols.ts';
import { BookFeeds, type BookFeed } from '../book-feeds.ts';
import type { VenueEndpoints } from '../endpoints.ts';
import type { CatalogFigures, CatalogRecord, LivePredictionVenue, MarketBook } from '../prediction-venue.ts';
import { RestFailure, VenueRest, type RestAnswer } from '../rest.ts';
import { VenueStream } from '../stream.ts';
import { VenueLimits } from '../venue-limits.ts';
import { cancelledBetween, refusedLeg, VenueRejection, type AccountProbe, type AssetBalance, type LegReport, type LegRequest, type MarketSink, type OrderLookup, type VenueAccount, type VenueFill } from '../venue.ts';
import { KalshiBookStream, KalshiBookSync, legLevels, type KalshiStreamMessage } from './book-sync.ts';
import {
  ACCEPT_WINDOW_MS,
  ACCOUNT_LIMITS_PATH,
  BALANCE_PATH,
  BATCH_CANCEL_PATH,
  EXCHANGE_STATUS_PATH,
  ORDERS_V2_PATH,
  WS_PATH,
  accountProbeOf,
  batchCancelBody,
  batchCancelMax,
  cancelPath,
  cashBalance,
  clientOrderLookupPath,
  createOrderBody,
  createOrderOutcome,
  decodeAccountLimits,
  decodeBalance,
  decodeBatchCancel,
  decodeCancel,
  decodeEventsPage,
  decodeExchangeStatus,
  decodeFills,
  decodeOrder,
  decodeOrders,
  decodePositions,
  decodeSeriesFees,
  decodeWsMessage,
  eventsPath,
  fillsPath,
  findByChildId,
  finestStep,
  kalshiAuthHeaders,
  kalshiClientOrderId,
  kalshiError,
  kalshiFeeComponents,
  kalshiKeyOf,
  kalshiLimitRules,
  kalshiTradeFee1e9,
  kalshiWsHeaders,
  legReportOf,
  openEventsPath,
  orderPath,
  orderTerms,
  ownOpenOrders,
  parseLegSymbol,
  positionBalances,
  positionsPath,
  predictionEventOf,
  priceBandsOf,
  requestCost,
  restingOrdersPath,
  seriesPath,
  settledReportOf,
  subscribeCommand,
  tierBuckets,
  updateSubscriptionCommand,
  type KalshiBuckets,
  type KalshiEvent,
  type KalshiFeeSchedule,
  type KalshiKey,
  type KalshiMarket,
  type KalshiOrder,
  type PriceBand,
} from './codec.ts';

const QUERY_TIMEOUT_MS = 3_000;
/** Order placement times out inside the router's 2 s leg timeout; the router then reconciles. */
const ORDER_TIMEOUT_MS = 1_500;
/** Reads of a placed order's fills until they add up to what it executed (the fills list can lag). */
const SETTLE_POLL_MS = 50;
const SETTLE_POLLS = 10;
/** The most pages of one account list walked (orders of a market since a child was sent, resting orders, fills, positions). */
const MAX_PAGES = 20;
const DEFAULT_MAX_EVENTS = 500;
/** A catalog read waits this long at most for this edge's own read budget before it gives up (the edge keeps what it had). */
const PUBLIC_WAIT_MAX_MS = 5_000;
/** Events no longer open are read again by ticker, this many a request (the `tickers` filter). */
const TICKERS_PER_READ = 50;
/** A series' fee schedule is read again after this long (schedules change rarely, and are announced). */
const SERIES_TTL_MS = 60 * 60_000;
/** A child sent before this process knew of it (a restart) is looked for in the market's orders of this long ago at most. */
const LOOKUP_HORIZON_MS = 24 * 60 * 60_000;
/** Kalshi pings every 10 s: a socket without a frame for this long is dead. */
const STALE_MS = 30_000;
/**
 * How long a 429 holds an account here: Kalshi names no `Retry-After`, and its token buckets
 * refill continuously (a create's 10 tokens within 100 ms on Basic), so a second, not the
 * default minute that stopped every order of the account.
 */
const RATE_PAUSE_MS = 1_000;
/** Whole cents are valid in every price structure: the grid of a market the catalog has not told yet. */
const WHOLE_CENTS: readonly PriceBand[] = priceBandsOf('linear_cent')!;
const JSON_HEADERS = { 'Content-Type': 'application/json' };

/** What the catalog read tells of a market that orders and books need. */
interface MarketRules {
  bands: readonly PriceBand[];
  tick_1e9: number;
  exchange_index: number;
  /** the series' (or the event's) fee schedule, for a fill the venue sent without `fee_cost` */
  fee: KalshiFeeSchedule | null;
}

/** One account's requests: its own limits (Kalshi's buckets are per account), Basic's until `/account/limits` is read. */
interface AccountRest {
  rest: VenueRest;
  buckets: KalshiBuckets;
}

export interface KalshiOptions {
  /** the most events a catalog read lists (default 500) */
  maxEvents?: number;
  /**
   * The account whose key signs the book stream's handshake: Kalshi authenticates every
   * WebSocket connection, market data included. Asked at each connection and not kept; while
   * it answers undefined the stream does not connect (retried with backoff).
   */
  streamAccount?: () => VenueAccount | undefined;
}

/**
 * Kalshi, the event-contract exchange (trade API v2): the catalog from `GET /events` with nested
 * markets, one YES-priced book per market from the `orderbook_delta` channel (`KalshiBookSync`,
 * the sequence per subscription by `KalshiBookStream`, both legs by `legLevels`), orders on the
 * V2 endpoints signed with the account's RSA key (`kalshiAuthHeaders`), our child id packed with
 * its leg into the `client_order_id`. Every wire decision is `codec.ts`'s; this is the I/O.
 * docs/venues/kalshi.md.
 */
export class KalshiPrediction implements LivePredictionVenue {
  readonly venue = 'kalshi' as const;
  readonly acceptWindowMs = ACCEPT_WINDOW_MS;
  private readonly maxEvents: number;
  private readonly streamAccount: () => VenueAccount | undefined;
  /** catalog and exchange status reads: no key, the Basic read budget */
  private readonly publicRest: VenueRest;
  private readonly accountRests = new Map<string, AccountRest>();
  private readonly feeds: BookFeeds<KalshiBookSync>;
  private readonly books: KalshiBookStream;
  private readonly stream: VenueStream;
  private sink: MarketSink | undefined;
  /** the book subscription of this connection, once the venue named it */
  private sid: number | undefined;
  /** the id of a `subscribe` not answered yet */
  private subscribing: number | undefined;
  /** markets followed while the subscription was being made: added once it has a sid */
  private readonly pendingAdds = new Set<string>();
  private nextCommandId = 1;
  /** when either leg's book last changed, per market (ns) */
  private readonly changedAt = new Map<string, number>();
  private readonly markets = new Map<string, MarketRules>();
  private readonly seriesFees = new Map<string, { fee: KalshiFeeSchedule | undefined; read_ms: number }>();
  /** events listed open once and not yet settled: read by ticker so their outcome is told */
  private readonly tracked = new Set<string>();
  /** the first instant each market was seen determined (the venue gives none; `predictionEventOf`) */
  private readonly determinedSeen = new Map<string, number>();
  private readonly lastRecords = new Map<string, CatalogRecord>();
  /** when this process sent each child, for the lookup's walk of the market's orders */
  private readonly sentAt = new RecentMap<string, number>(20_000);

  constructor(
    private readonly endpoints: VenueEndpoints,
    options: KalshiOptions = {},
  ) {
    this.maxEvents = options.maxEvents ?? DEFAULT_MAX_EVENTS;
    this.streamAccount = options.streamAccount ?? (() => undefined);
    this.publicRest = new VenueRest(endpoints.rest, new VenueLimits(kalshiLimitRules(tierBuckets('basic'))), undefined, endpoints.headers, RATE_PAUSE_MS);
    this.feeds = new BookFeeds<KalshiBookSync>({
      sink: () => this.sink,
      makeSync: (book, changes) => new KalshiBookSync(book, changes),
      resync: async (feed) => this.resync(feed),
    });
    this.books = new KalshiBookStream((ticker) => this.feeds.get(ticker)?.sync);
    // Kalshi authenticates every connection, market data included, by signed `KALSHI-ACCESS-*`
    // headers made afresh for each (their timestamp is part of the signature).
    const url = `${endpoints.ws}${WS_PATH}`;
    this.stream = new VenueStream(
      async () => ({ url, headers: this.handshakeHeaders() }),
      {
        onOpen: () => this.onStreamOpen(),
        onMessage: (text) => this.onFrame(text),
        onDown: (reason) => this.onStreamDown(reason),
      },
      STALE_MS,
    );
  }

  // --- books --------------------------------------------------------------------------------

  start(sink: MarketSink): void {
    this.sink = sink;
    this.stream.start();
  }

  stop(): void {
    this.stream.stop();
    this.feeds.stop();
  }

  follow(market: PredictionMarket): boolean {
    const ticker = market.market_id;
    if (market.venue !== 'kalshi' || parseLegSymbol(`${ticker}:YES`) === undefined) return false;
    // Once the catalog was read, a market it does not list cannot be subscribed.
    if (this.markets.size > 0 && !this.markets.has(ticker)) return false;
    if (this.feeds.get(ticker) !== undefined) return true;
    const feed = this.feeds.add({ symbol: ticker, base: ticker, quote: 'USD' }, ticker);
    if (this.feeds.connected) this.watch([feed]);
    return true;
  }

  unfollow(market_id: string): void {
    const feed = this.feeds.get(market_id);
    if (feed === undefined) return;
    this.feeds.remove(feed, 'no longer followed');
    this.pendingAdds.delete(market_id);
    this.changedAt.delete(market_id);
    const sid = this.books.sidOf(market_id);
    if (sid !== undefined) this.stream.send(updateSubscriptionCommand(this.commandId(), sid, 'delete_markets', [market_id]));
  }

  marketBook(market_id: string, depth: number): MarketBook | undefined {
    const book = this.feeds.whole(market_id);
    if (book === undefined) return undefined;
    return { ...legLevels(book, depth), tick_1e9: this.markets.get(market_id)?.tick_1e9 ?? finestStep(WHOLE_CENTS), ts_ns: this.changedAt.get(market_id) ?? 0 };
  }

  stats(): { connected: boolean; subscribed: number; resyncs: number; disconnects: number; updates: number } {
    return { connected: this.feeds.connected, subscribed: this.feeds.size, ...this.feeds.counters };
  }

  /** The handshake's headers; throws why there are none now (a failed connect: backoff). */
  private handshakeHeaders(): Record<string, string> {
    const account = this.streamAccount();
    if (account === undefined) throw new Error('no Kalshi account to sign the stream with');
    let key: ReturnType<typeof kalshiKeyOf>;
    try {
      key = kalshiKeyOf(account.credentials);
    } catch {
      throw new Error("the stream account's RSA key does not parse");
    }
    return kalshiWsHeaders(key, Date.now());
  }

  private onStreamOpen(): void {
    this.feeds.connected = true;
    this.books.reset();
    this.sid = undefined;
    this.subscribing = undefined;
    this.pendingAdds.clear();
    const feeds = this.feeds.all();
    if (feeds.length > 0) this.watch(feeds);
  }

  private onStreamDown(reason: string): void {
    this.sid = undefined;
    this.subscribing = undefined;
    this.pendingAdds.clear();
    this.feeds.down(reason);
  }

  /**
   * Subscribes these markets' books: the session's one `orderbook_delta` subscription is made by
   * the first `subscribe` (a second would be refused, "Already subscribed"), and markets join it
   * with `add_markets`; until its sid is known they wait.
   */
  private watch(feeds: readonly BookFeed<KalshiBookSync>[]): void {
    const tickers = feeds.map((f) => f.venueSymbol);
    if (this.sid !== undefined) this.stream.send(updateSubscriptionCommand(this.commandId(), this.sid, 'add_markets', tickers));
    else if (this.subscribing !== undefined) for (const t of tickers) this.pendingAdds.add(t);
    else {
      const id = this.commandId();
      if (this.stream.send(subscribeCommand(id, tickers))) this.subscribing = id;
    }
    for (const feed of feeds) this.feeds.expect(feed);
  }

  /**
   * A broken book made whole again on the stream: `get_snapshot` for a market of the
   * subscription, `add_markets` for one that never joined it, or the subscription itself.
   */
  private resync(feed: BookFeed<KalshiBookSync>): boolean {
    const ticker = feed.venueSymbol;
    const joined = this.books.sidOf(ticker);
    let sent: boolean;
    if (joined !== undefined) sent = this.stream.send(updateSubscriptionCommand(this.commandId(), joined, 'get_snapshot', [ticker]));
    else if (this.sid !== undefined) sent = this.stream.send(updateSubscriptionCommand(this.commandId(), this.sid, 'add_markets', [ticker]));
    else if (this.subscribing !== undefined) {
      this.pendingAdds.add(ticker);
      sent = true;
    } else {
      const id = this.commandId();
      sent = this.stream.send(subscribeCommand(id, this.feeds.all().map((f) => f.venueSymbol)));
      if (sent) this.subscribing = id;
    }
    if (!sent) throw new Error('stream closed');
    return false;
  }

  private onFrame(text: string): void {
    const message = decodeWsMessage(text, 'yes-leg');
    if (message === undefined) return;
    this.control(message);
    if (message.kind === 'snapshot' || message.kind === 'delta') this.feeds.counters.updates++;
    const now_ns = Date.now() * 1_000_000;
    const ts_ns = message.kind === 'delta' && message.data.ts_ms !== null ? message.data.ts_ms * 1_000_000 : now_ns;
    for (const { ticker, outcome } of this.books.onMessage(message)) {
      const feed = this.feeds.get(ticker);
      if (feed === undefined) continue;
      if (outcome === 'synced' || outcome === 'applied') this.changedAt.set(ticker, ts_ns);
      this.feeds.settle(feed, outcome, ts_ns);
    }
  }

  /** The subscription's own answers: its sid, and a refused subscribe to make again. */
  private control(message: KalshiStreamMessage): void {
    if (message.kind === 'subscribed' && message.channel === 'orderbook_delta') {
      this.sid = message.sid;
      this.subscribing = undefined;
      const waiting = [...this.pendingAdds].filter((t) => this.feeds.get(t) !== undefined);
      this.pendingAdds.clear();
      if (waiting.length > 0) this.stream.send(updateSubscriptionCommand(this.commandId(), message.sid, 'add_markets', waiting));
    } else if (message.kind === 'error' && message.id !== null && message.id === this.subscribing) {
      // Refused: the feeds' confirmations find their books not whole and subscribe again, with backoff.
      this.subscribing = undefined;
      this.pendingAdds.clear();
    }
  }

  private commandId(): number {
    return this.nextCommandId++;
  }

  // --- catalog ------------------------------------------------------------------------------

  /**
   * The open events (`GET /events?status=open&with_nested_markets=true`, by cursor, at most
   * `maxEvents`), and the events listed open before and no longer (closed, determined, settled)
   * read by ticker until every market of theirs is settled, so their outcome reaches the edge.
   */
  async readCatalog(): Promise<CatalogRecord[]> {
    const now = Date.now();
    const events = new Map<string, { event: KalshiEvent; unreadable: boolean }>();
    const open = new Set<string>();
    let cursor: string | undefined;
    while (open.size < this.maxEvents) {
      const read = decodeEventsPage(await this.publicRead(openEventsPath(cursor)));
      if (read === undefined) throw new RestFailure('kalshi: unreadable events page', 'network');
      const before = open.size;
      for (const event of read.events) {
        if (open.size >= this.maxEvents) break;
        open.add(event.event_ticker);
        events.set(event.event_ticker, { event, unreadable: read.unreadable.some((t) => ofEvent(t, event.event_ticker)) });
      }
      // The last page, or one that brought nothing new (a cursor going round): the walk is done.
      if (read.cursor === null || open.size === before) break;
      cursor = read.cursor;
    }
    const gone = [...this.tracked].filter((t) => !open.has(t));
    for (let i = 0; i < gone.length; i += TICKERS_PER_READ) {
      const chunk = gone.slice(i, i + TICKERS_PER_READ);
      const read = decodeEventsPage(await this.publicRead(eventsPath({ tickers: chunk, with_nested_markets: true })));
      if (read === undefined) throw new RestFailure('kalshi: unreadable events page', 'network');
      for (const event of read.events) {
        // Still open, only past `maxEvents` in this walk: out of the bound, as any other event past it.
        if (!chunk.includes(event.event_ticker) || event.markets.some((m) => m.phase === 'open' || m.phase === 'initialized')) continue;
        events.set(event.event_ticker, { event, unreadable: read.unreadable.some((t) => ofEvent(t, event.event_ticker)) });
      }
      // The venue no longer has it, or it is past the bound: nothing more to tell.
      for (const t of chunk) if (!events.has(t)) this.forget(t);
    }
    await this.readSeriesFees([...events.values()].map((e) => e.event));
    const records: CatalogRecord[] = [];
    for (const [ticker, { event, unreadable }] of events) {
      // A market that did not read: the event as it was last read stands (the core names it so the caller can).
      const record = unreadable ? (this.lastRecords.get(ticker) ?? this.recordOf(event, now)) : this.recordOf(event, now);
      records.push(record);
      this.lastRecords.set(ticker, record);
      if (open.has(ticker)) this.tracked.add(ticker);
      else if (event.markets.every((m) => m.phase === 'settled')) this.forget(ticker);
    }
    return records;
  }

  private recordOf(event: KalshiEvent, now: number): CatalogRecord {
    const fee = event.fee_override ?? this.seriesFees.get(event.series_ticker)?.fee ?? null;
    for (const m of event.markets) {
      this.markets.set(m.ticker, { bands: m.bands, tick_1e9: m.tick_1e9, exchange_index: m.exchange_index, fee });
      if ((m.phase === 'determined' || m.phase === 'settled') && !this.determinedSeen.has(m.ticker)) this.determinedSeen.set(m.ticker, now);
    }
    // Each market's determination at the instant it was first seen determined: one listing per
    // distinct instant, each market taken from the listing made with its own (markets are parallel).
    const seenOf = (m: KalshiMarket) => this.determinedSeen.get(m.ticker) ?? now;
    const listings = new Map<number, ReturnType<typeof predictionEventOf>>();
    const opts = (observed_ms: number) => ({ observed_ms, seriesFee: (series: string) => this.seriesFees.get(series)?.fee });
    for (const m of event.markets) if (!listings.has(seenOf(m))) listings.set(seenOf(m), predictionEventOf(event, opts(seenOf(m))));
    const base = listings.get(now) ?? predictionEventOf(event, opts(now));
    const byTicker = new Map(event.markets.map((m) => [m.ticker, m]));
    const markets = base.event.markets.map((pm, i) => {
      const listing = listings.get(seenOf(byTicker.get(pm.market_id)!))!;
      return { market: listing.event.markets[i]!, yes_won: listing.yes_won[i]!, resolved_ms: listing.resolved_ms[i]! };
    });
    return {
      event: { ...base.event, markets: markets.map((m) => m.market) },
      yes_won: markets.map((m) => m.yes_won),
      resolved_ms: markets.map((m) => m.resolved_ms),
      anchor_usd: null,
      final_usd: null,
      figures: base.event.markets.map((pm) => figuresOf(byTicker.get(pm.market_id)!)),
    };
  }

  private forget(eventTicker: string): void {
    this.tracked.delete(eventTicker);
    const last = this.lastRecords.get(eventTicker);
    this.lastRecords.delete(eventTicker);
    for (const m of last?.event.markets ?? []) {
      this.determinedSeen.delete(m.market_id);
      if (this.feeds.get(m.market_id) === undefined) this.markets.delete(m.market_id);
    }
  }

  /** The fee schedules of the events' series not read in the last SERIES_TTL_MS (one `GET /series/{ticker}` each); a series that cannot be read lists at the venue's rate until it can. */
  private async readSeriesFees(events: readonly KalshiEvent[]): Promise<void> {
    const now = Date.now();
    const wanted = new Set(events.filter((e) => e.fee_override === null && e.series_ticker !== '').map((e) => e.series_ticker));
    for (const series of wanted) {
      const known = this.seriesFees.get(series);
      if (known !== undefined && now - known.read_ms < SERIES_TTL_MS) continue;
      try {
        const answer = await this.publicSend(seriesPath(series));
        if (answer.status === 404) this.seriesFees.set(series, { fee: undefined, read_ms: now });
        else if (answer.status === 200) this.seriesFees.set(series, { fee: decodeSeriesFees(answer.body)?.get(series), read_ms: now });
      } catch {
        // Not read now: asked again at the next catalog read.
      }
    }
  }

  /** A public read, waiting out this edge's own budget (catalog reads are background work). */
  private async publicSend(path: string): Promise<RestAnswer> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.publicRest.send({ method: 'GET', path, cost: requestCost('read'), timeoutMs: QUERY_TIMEOUT_MS });
      } catch (err) {
        // A pause of the venue's own (after a 429) is not waited out here.
        if (!(err instanceof RestFailure) || err.kind !== 'rate_limited' || err.retryInMs > PUBLIC_WAIT_MAX_MS || attempt >= 20) throw err;
        await sleep(err.retryInMs);
      }
    }
  }

  private async publicRead(path: string): Promise<unknown> {
    const answer = await this.publicSend(path);
    throwOnError(answer);
    return answer.body;
  }

  // --- orders -------------------------------------------------------------------------------

  async submit(account: VenueAccount, leg: LegRequest): Promise<LegReport> {
    const parsed = parseLegSymbol(leg.symbol);
    if (parsed === undefined) return refusedLeg(`kalshi: ${leg.symbol} is not a Kalshi leg (<ticker>:YES|NO)`);
    const rules = this.markets.get(parsed.ticker);
    const terms = orderTerms(rules?.bands ?? WHOLE_CENTS, parsed.leg, leg.side, leg.qty_1e8, leg.limit_price_1e9);
    if (!terms.ok) return refusedLeg(`kalshi: ${terms.reason}`);
    const body = createOrderBody(parsed.ticker, leg.child_id, parsed.leg, terms.terms, leg.time_in_force, rules === undefined ? {} : { exchange_index: rules.exchange_index });
    if (body === undefined) return refusedLeg(`kalshi: child id ${leg.child_id} cannot be a client_order_id`);
    this.sentAt.set(leg.child_id, Date.now(), Date.now());
    let answer: RestAnswer;
    try {
      answer = await this.signed(account, 'POST', ORDERS_V2_PATH, 'create', ORDER_TIMEOUT_MS, body);
    } catch (err) {
      // Not sent (a key that does not parse): refused. A local rate limit (never sent) and a
      // timeout or a broken connection (fate unknown) go up as they are.
      if (err instanceof VenueRejection) return refusedLeg(err.reason);
      throw err;
    }
    const outcome = createOrderOutcome(answer.status, answer.body ?? answer.text);
    switch (outcome.kind) {
      case 'refused':
        return refusedLeg(outcome.error.reason);
      case 'unknown':
        throw new RestFailure(outcome.reason, 'timeout');
      case 'exists': {
        // The client order id is already an order: this child's, sent before. Its report is the venue's.
        const found = await this.lookup(account, leg.child_id, leg.symbol).catch(() => undefined);
        if (found?.found === true) return found.report;
        throw new RestFailure(`${outcome.error.reason}: the order is not read yet`, 'timeout');
      }
      case 'placed': {
        const settled = settledReportOf(outcome, leg.time_in_force);
        if (settled !== undefined) return settled;
        // On the book now: any failure from here leaves its fate to reconciliation, never a refusal.
        try {
          const resting = leg.time_in_force === 'gtc' ? outcome.remaining_1e8 : 0;
          return { ok: true, reason: null, fills: await this.fillsAddingUp(account, outcome.order_id, parsed.ticker, parsed.leg, outcome.filled_1e8), resting_qty_1e8: resting };
        } catch (err) {
          throw new RestFailure(`order placed, its fills not read: ${(err as Error).message}`, 'timeout');
        }
      }
    }
  }

  async lookup(account: VenueAccount, child_id: string, symbol: string, knownFilled_1e8?: number): Promise<OrderLookup> {
    const parsed = parseLegSymbol(symbol);
    if (parsed === undefined || kalshiClientOrderId(child_id, parsed.leg) === undefined) return { found: false };
    const order = await this.findChild(account, parsed.ticker, child_id);
    if (order === undefined) return { found: false };
    // Nothing executed since the caller was told: the fills need no read.
    if (order.filled_1e8 === knownFilled_1e8) return { found: true, report: legReportOf(order, []) };
    const fills = await this.fillsAddingUp(account, order.order_id, parsed.ticker, parsed.leg, order.filled_1e8);
    return { found: true, report: legReportOf(order, fills) };
  }

  async cancel(account: VenueAccount, child_id: string, symbol: string): Promise<{ found: boolean; cancelled_qty_1e8: number }> {
    const parsed = parseLegSymbol(symbol);
    if (parsed === undefined) return { found: false, cancelled_qty_1e8: 0 };
    const before = await this.findChild(account, parsed.ticker, child_id);
    if (before === undefined || before.resting_1e8 === 0) return { found: false, cancelled_qty_1e8: 0 };
    const exchange_index = this.markets.get(parsed.ticker)?.exchange_index;
    const answer = await this.signed(account, 'DELETE', cancelPath(before.order_id, { market_ticker: parsed.ticker, ...(exchange_index === undefined ? {} : { exchange_index }) }), 'cancel', QUERY_TIMEOUT_MS);
    const error = kalshiError(answer.status, answer.body ?? answer.text);
    if (error?.kind === 'fate-unknown') throw new RestFailure(error.reason, 'timeout');
    // Filled or cancelled since it was read: the read below tells which.
    if (error !== undefined && error.kind !== 'no-such-order') throw new VenueRejection(error.reason);
    if (error === undefined && decodeCancel(answer.body) === undefined) throw new RestFailure('kalshi: unreadable cancel answer', 'timeout');
    // The answer may describe another order than the one cancelled (changelog, May 21, 2026): the order itself is read.
    const after = await this.orderById(account, before.order_id);
    if (after !== undefined && after.resting_1e8 > 0) throw new RestFailure(`kalshi: order ${before.order_id} still rests after its cancel`, 'timeout');
    return cancelledBetween({ resting_qty_1e8: before.resting_1e8, filled_qty_1e8: before.filled_1e8 }, after === undefined ? undefined : { filled_qty_1e8: after.filled_1e8 });
  }

  async ownOpenOrders(account: VenueAccount): Promise<{ child_id: string; symbol: string }[]> {
    return ownOpenOrders(await this.restingOrders(account));
  }

  /** The kill switch: every resting order of the account on these legs' markets, ours or placed by hand, in batches the write bucket takes at once. */
  async cancelAll(account: VenueAccount, symbols: readonly string[]): Promise<number> {
    const tickers = new Set(symbols.map((s) => parseLegSymbol(s)?.ticker).filter((t) => t !== undefined));
    const open = (await this.restingOrders(account)).filter((o) => tickers.has(o.ticker));
    const batch = batchCancelMax(this.accountRest(account).buckets.write.bucket_capacity);
    let cancelled = 0;
    let refusal: string | undefined;
    for (let i = 0; i < open.length; i += batch) {
      const chunk = open.slice(i, i + batch);
      const body = batchCancelBody(chunk.map((o) => ({ order_id: o.order_id, market_ticker: o.ticker, ...(o.exchange_index === null ? {} : { exchange_index: o.exchange_index }) })));
      const answer = await this.signed(account, 'DELETE', BATCH_CANCEL_PATH, 'cancel', QUERY_TIMEOUT_MS, body, chunk.length);
      throwOnError(answer);
      const rows = decodeBatchCancel(answer.body);
      if (rows === undefined) throw new RestFailure('kalshi: unreadable batch cancel answer', 'timeout');
      for (const row of rows) {
        if (row.error === null) cancelled++;
        else if (row.error.kind !== 'no-such-order') refusal ??= row.error.reason;
      }
    }
    if (refusal !== undefined) throw new VenueRejection(refusal);
    return cancelled;
  }

  /** The cash (USD, all shards' available balance) and the contracts held of each leg. Not in the contract: for the edge's balance pulls. */
  async balances(account: VenueAccount): Promise<AssetBalance[]> {
    const balance = decodeBalance(await this.read(account, BALANCE_PATH));
    if (balance === undefined) throw new RestFailure('kalshi: unreadable balance answer', 'network');
    const rows: AssetBalance[] = [cashBalance(balance)];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const read = decodePositions(await this.read(account, positionsPath(cursor === undefined ? {} : { cursor })));
      if (read === undefined) throw new RestFailure('kalshi: unreadable positions answer', 'network');
      rows.push(...positionBalances(read.positions));
      if (read.cursor === null) return rows;
      cursor = read.cursor;
    }
    throw new RestFailure(`kalshi: positions past ${MAX_PAGES} pages`, 'network');
  }

  /** The account's usage tier (`GET /account/limits`, which also sizes its request budget here) and whether the exchange trades now. */
  async probe(account: VenueAccount): Promise<AccountProbe> {
    const buckets = decodeAccountLimits(await this.read(account, ACCOUNT_LIMITS_PATH));
    if (buckets !== undefined) this.setBuckets(account.credentials.api_key, buckets);
    // Under maintenance the status comes with a 5xx: its body still says so.
    const status = decodeExchangeStatus((await this.publicSend(EXCHANGE_STATUS_PATH)).body);
    if (status === undefined) throw new RestFailure('kalshi: unreadable exchange status', 'network');
    return accountProbeOf(buckets, status);
  }

  // --- reads --------------------------------------------------------------------------------

  /**
   * Our child among the market's orders since it was sent (the list has no client order id
   * filter: `clientOrderLookupPath` walked by cursor). Since when: this process's send time, else
   * the parent order's creation in the child id, else LOOKUP_HORIZON_MS ago.
   */
  private async findChild(account: VenueAccount, ticker: string, child_id: string): Promise<KalshiOrder | undefined> {
    const since = this.sentAt.get(child_id) ?? parentCreatedMs(child_id) ?? Date.now() - LOOKUP_HORIZON_MS;
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const read = decodeOrders(await this.read(account, clientOrderLookupPath(ticker, since, cursor)));
      if (read === undefined) throw new RestFailure('kalshi: unreadable orders page', 'network');
      const found = findByChildId(read.orders, child_id);
      if (found !== undefined) return found;
      if (read.cursor === null) return undefined;
      cursor = read.cursor;
    }
    // Not walked to the end: absence is not known.
    throw new RestFailure(`kalshi: ${ticker}'s orders past ${MAX_PAGES} pages`, 'network');
  }

  private async orderById(account: VenueAccount, orderId: string): Promise<KalshiOrder | undefined> {
    try {
      const order = decodeOrder(await this.read(account, orderPath(orderId)));
      if (order === undefined) throw new RestFailure('kalshi: unreadable order', 'network');
      return order;
    } catch (err) {
      if (err instanceof VenueRejection && err.unknownOrder) return undefined;
      throw err;
    }
  }

  private async restingOrders(account: VenueAccount): Promise<KalshiOrder[]> {
    const orders: KalshiOrder[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const read = decodeOrders(await this.read(account, restingOrdersPath(undefined, cursor)));
      if (read === undefined) throw new RestFailure('kalshi: unreadable orders page', 'network');
      orders.push(...read.orders.filter((o) => o.resting_1e8 > 0));
      if (read.cursor === null) return orders;
      cursor = read.cursor;
    }
    throw new RestFailure(`kalshi: resting orders past ${MAX_PAGES} pages`, 'network');
  }

  /** The order's fills, read again until they add up to `filled_1e8` (the fills list can lag the order). */
  private async fillsAddingUp(account: VenueAccount, orderId: string, ticker: string, leg: Leg, filled_1e8: number): Promise<VenueFill[]> {
    if (filled_1e8 === 0) return [];
    for (let poll = 0; ; poll++) {
      const fills = await this.fillsOf(account, orderId, ticker, leg);
      if (fills.reduce((sum, f) => sum + f.qty_1e8, 0) === filled_1e8) return fills;
      if (poll >= SETTLE_POLLS) throw new RestFailure(`kalshi: the fills of ${orderId} do not add up to what it filled`, 'timeout');
      await sleep(SETTLE_POLL_MS);
    }
  }

  private async fillsOf(account: VenueAccount, orderId: string, ticker: string, leg: Leg): Promise<VenueFill[]> {
    const fee = this.markets.get(ticker)?.fee ?? null;
    // A fill without `fee_cost` (before January 28, 2026) is charged as the schedule said then: to the cent.
    const fallbackFee = (qty_1e8: number, price_1e9: number, isMaker: boolean): number => {
      const components = kalshiFeeComponents(fee ?? { fee_type: 'quadratic', fee_multiplier: 1 }, isMaker ? 'maker' : 'taker');
      return components === null ? NaN : kalshiTradeFee1e9(components, qty_1e8, price_1e9, 'cent');
    };
    const fills = new Map<string, VenueFill>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const read = decodeFills(await this.read(account, fillsPath({ order_id: orderId, ...(cursor === undefined ? {} : { cursor }) })), leg, { order_id: orderId, fallbackFee });
      if (read === undefined) throw new RestFailure('kalshi: unreadable fills page', 'network');
      for (const f of read.fills) fills.set(f.trade_id, f);
      if (read.cursor === null) return [...fills.values()].sort((a, b) => a.ts_ns - b.ts_ns);
      cursor = read.cursor;
    }
    throw new RestFailure(`kalshi: fills of ${orderId} past ${MAX_PAGES} pages`, 'network');
  }

  // --- signed requests ----------------------------------------------------------------------

  /** A signed request: the three `KALSHI-ACCESS-*` headers over timestamp + method + path without its query. */
  private async signed(account: VenueAccount, method: 'GET' | 'POST' | 'DELETE', path: string, kind: 'read' | 'create' | 'cancel', timeoutMs: number, body?: string, count = 1): Promise<RestAnswer> {
    let key: KalshiKey;
    try {
      key = kalshiKeyOf(account.credentials);
    } catch {
      throw new VenueRejection('kalshi: the stored RSA key does not parse');
    }
    const headers = { ...kalshiAuthHeaders(key, Date.now(), method, path), ...(body === undefined ? {} : JSON_HEADERS) };
    return this.accountRest(account).rest.send({ method, path, headers, ...(body === undefined ? {} : { body }), cost: requestCost(kind, count), timeoutMs });
  }

  /** A signed read: its body, or the venue's refusal thrown. */
  private async read(account: VenueAccount, path: string): Promise<unknown> {
    const answer = await this.signed(account, 'GET', path, 'read', QUERY_TIMEOUT_MS);
    throwOnError(answer);
    return answer.body;
  }

  private accountRest(account: VenueAccount): AccountRest {
    const keyId = account.credentials.api_key;
    let known = this.accountRests.get(keyId);
    if (known === undefined) known = this.setBuckets(keyId, tierBuckets('basic'));
    return known;
  }

  /** The account's buckets as read from the venue: its requests counted against them from now. */
  private setBuckets(keyId: string, buckets: KalshiBuckets): AccountRest {
    const known = this.accountRests.get(keyId);
    if (known !== undefined && JSON.stringify(known.buckets) === JSON.stringify(buckets)) return known;
    const fresh = { rest: new VenueRest(this.endpoints.rest, new VenueLimits(kalshiLimitRules(buckets)), undefined, this.endpoints.headers, RATE_PAUSE_MS), buckets };
    this.accountRests.set(keyId, fresh);
    return fresh;
  }
}

/** An error answer thrown: fate unknown as a timeout, anything else as the venue's refusal (a missing order marked so). */
function throwOnError(answer: RestAnswer): void {
  const error = kalshiError(answer.status, answer.body ?? answer.text);
  if (error === undefined) return;
  if (error.kind === 'fate-unknown') throw new RestFailure(error.reason, 'timeout');
  throw new VenueRejection(error.reason, error.kind === 'no-such-order');
}

/** Whether a ticker named unreadable by `decodeEventsPage` is the event's (its own ticker, or a market's: `<event>-<suffix>`). */
function ofEvent(ticker: string, eventTicker: string): boolean {
  return ticker === eventTicker || ticker.startsWith(`${eventTicker}-`);
}

/** The market's touch and volumes as its row tells them: -1 for an empty side; volumes in contracts, each worth $1 at settlement. */
function figuresOf(m: KalshiMarket): CatalogFigures {
  return {
    yes_bid_1e9: m.yes_bid_1e9 ?? -1,
    yes_ask_1e9: m.yes_ask_1e9 ?? -1,
    no_bid_1e9: m.no_bid_1e9 ?? -1,
    no_ask_1e9: m.no_ask_1e9 ?? -1,
    volume_24h_usd: m.volume_24h_1e8 / 1e8,
    volume_total_usd: m.volume_1e8 / 1e8,
  };
}

/** Our child ids start with their parent's creation in ms, 9 base36 digits (`ord_` + ..., storage/orders.ts): a child was sent no earlier. */
function parentCreatedMs(child_id: string): number | undefined {
  const digits = /^ord_([0-9a-z]{9})/.exec(child_id)?.[1];
  if (digits === undefined) return undefined;
  const ms = parseInt(digits, 36);
  return ms > Date.now() - LOOKUP_HORIZON_MS * 30 && ms <= Date.now() + 60_000 ? ms : undefined;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
