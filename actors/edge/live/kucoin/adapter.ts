import type { VenueId } from '../../../../domain/market.ts';
import type { BookFeed, FeedListing } from '../book-feeds.ts';
import type { VenueEndpoints } from '../endpoints.ts';
import { RestFailure, VenueRest, type RestAnswer } from '../rest.ts';
import { StreamedVenue } from '../streamed-venue.ts';
import { VenueLimits } from '../venue-limits.ts';
import { refusedLeg, limitOnTick, VenueRejection, type AccountProbe, type AssetBalance, type LegReport, type LegRequest, type LiveVenue, type MarketSink, type OrderLookup, type VenueAccount, type VenueFill } from '../venue.ts';
import { feeContextOf, type FeeContext } from '../fees.ts';
import { KucoinBookSync } from './book-sync.ts';
import {
  cancelAllPath,
  cancelSyncPath,
  childIdOfKucoin,
  classifyFailure,
  clientOrderPath,
  decodeActiveSymbols,
  decodeApiKeyInfo,
  decodeBalances,
  decodeBulletToken,
  decodeCancelAllAck,
  decodeCancelSync,
  decodeFills,
  decodeFrame,
  decodeOpenOrders,
  decodeOrder,
  decodeOrderAck,
  decodeSnapshot,
  decodeSymbols,
  decodeTradeFees,
  fillsPath,
  kucoinClientOid,
  kucoinError,
  legReportOf,
  level2Subscriptions,
  openOrdersPath,
  orderBody,
  PATHS,
  pingFrame,
  probeOf,
  rateLimitResetMs,
  reasonOf,
  snapshotPath,
  streamUrl,
  SYMBOLS_PER_TOPIC,
  tradeFeesPath,
  venueSymbolOf,
  type KucoinInstrument,
  type KucoinOrder,
} from './codec.ts';
import { kucoinHeaders } from './signing.ts';

const QUERY_TIMEOUT_MS = 3_000;
/** Order placement times out inside the router's 2 s leg timeout; the router then reconciles. */
const ORDER_TIMEOUT_MS = 1_500;
/**
 * Each order carries `allowMaxTimeWindow` this long with `clientTimestamp` = its KC-API-TIMESTAMP:
 * the gateway fails an order that reaches it later, so a lookup finding nothing after it (and the
 * edge's margin) is final. 5 s is also the gateway's own tolerance for KC-API-TIMESTAMP.
 */
const ACCEPT_WINDOW_MS = 5_000;
/** Reads until an IOC is done and its fills add up to its deal size (the fill rows can lag the order). */
const SETTLE_POLL_MS = 20;
const SETTLE_POLLS = 10;
/** `/api/v1/hf/fills` pages: 100 rows, and the most read for one order. */
const FILLS_PAGE = 100;
const MAX_FILL_PAGES = 50;
/** The ping interval bullet-public documents (18 s), until a token names its own. */
const PING_MS = 18_000;
/** A 429000 without `gw-ratelimit-reset` (the venue overloaded, not our quota): a short pause. */
const OVERLOADED_MS = 1_000;

/**
 * KuCoin's REST limits (rate limit 2.0): resource pools refilled every 30 s, each request
 * costing its endpoint's weight (the reference's `x-api-rate-limit-weight`). The VIP0 quotas,
 * the least every account has: Spot 4,000 and Management 2,000 per UID, Public 2,000 per IP.
 * The pools are per account at the venue but shared here by every client's requests, which
 * only errs on the safe side.
 */
const LIMIT_RULES = [
  { name: 'SPOT', limit: 4_000, window_ms: 30_000 },
  { name: 'MANAGEMENT', limit: 2_000, window_ms: 30_000 },
  { name: 'PUBLIC', limit: 2_000, window_ms: 30_000 },
];
const COST = {
  order: [1], // Add Order Sync
  orderRead: [2], // Get Order By ClientOid
  cancel: [1], // Cancel Order By ClientOid Sync
  cancelAll: [2], // Cancel All Orders By Symbol
  openOrders: [2],
  activeSymbols: [2],
  fills: [2], // Get Trade History (HF)
  tradeFees: [3],
  accounts: [0, 5],
  apiKey: [0, 20],
  symbols: [0, 0, 4],
  snapshot: [0, 0, 2], // level2_100
  bullet: [0, 0, 10],
} as const;

/**
 * KuCoin spot. Market data: a public token per connection (`POST /api/v1/bullet-public`), the
 * instance server it names, subscriptions sent once the `welcome` came, `/market/level2`
 * pushes kept exact by their sequences against a REST snapshot (`level2_100`; `book-sync.ts`),
 * JSON pings. Orders over signed REST (`KC-API-*` headers, `signing.ts`) on the HF endpoints:
 * `/api/v1/hf/orders/sync` answers once matching is done, so an IOC's outcome comes in one round
 * trip and only its fills are read after it; our child id is the `clientOid`, by which every
 * lookup and cancel goes. docs/venues/kucoin.md.
 */
export class KucoinSpot extends StreamedVenue<KucoinBookSync, KucoinInstrument> implements LiveVenue {
  readonly venue: VenueId = 'kucoin';
  readonly acceptWindowMs = ACCEPT_WINDOW_MS;
  private readonly limits = new VenueLimits(LIMIT_RULES);
  private readonly rest: VenueRest;
  /** The connection's id: its `welcome` and an `error` about the connection itself carry it. */
  private connectId = '';
  /** The connection's `welcome` came: subscriptions sent before it are not taken. */
  private welcomed = false;
  /** Feeds to subscribe once the welcome comes. */
  private readonly waiting = new Set<BookFeed<KucoinBookSync>>();
  /** subscribe frame id -> its feeds, until acked; an error answer to it marks them refused */
  private readonly unacked = new Map<string, BookFeed<KucoinBookSync>[]>();
  /** Feeds whose subscription the venue refused: their next resync subscribes again first. */
  private readonly refused = new Set<BookFeed<KucoinBookSync>>();
  private frameIds = 0;
  private pingIntervalMs = PING_MS;
  private lastPingAt = 0;
  private keepalive: NodeJS.Timeout | undefined;

  constructor(
    endpoints: VenueEndpoints,
    listings: readonly FeedListing[],
    private readonly fees: { maker_bps: number; taker_bps: number },
  ) {
    super(listings, {
      url: () => this.connectionUrl(endpoints),
      makeSync: (book, changes) => new KucoinBookSync(book, changes),
      resync: (feed) => this.fetchSnapshot(feed),
      ping: { text: () => this.ping(), everyMs: PING_MS },
    });
    this.rest = new VenueRest(endpoints.rest, this.limits, undefined, endpoints.headers);
  }

  override start(sink: MarketSink): void {
    super.start(sink);
    if (this.keepalive !== undefined) clearInterval(this.keepalive);
    // The stream pings a quiet socket only; KuCoin drops a client it has not heard from for a
    // while even when its own pushes flow, so a busy socket is pinged here every pingInterval.
    this.keepalive = setInterval(() => {
      if (this.welcomed && Date.now() - this.lastPingAt >= this.pingIntervalMs) this.stream.send(this.ping());
    }, 1_000);
    this.keepalive.unref();
  }

  override stop(): void {
    if (this.keepalive !== undefined) clearInterval(this.keepalive);
    this.keepalive = undefined;
    super.stop();
  }

  // --- market data --------------------------------------------------------------------------

  /**
   * A fresh public token and the instance server it names, per connection (the venue may move
   * its servers; a token is what lets the socket in). `endpoints.ws`, when set (KUCOIN_WS_URL),
   * replaces the server, not the token. A plaintext server is taken only from a plaintext REST
   * base (a local fake).
   */
  private async connectionUrl(endpoints: VenueEndpoints): Promise<string> {
    this.welcomed = false;
    this.waiting.clear();
    this.unacked.clear();
    this.refused.clear();
    const answer = await this.rest.send({ method: 'POST', path: PATHS.bulletPublic, cost: COST.bullet, timeoutMs: QUERY_TIMEOUT_MS });
    const token = decodeBulletToken(answer.body, endpoints.rest.startsWith('http://'));
    if (token === undefined) {
      const error = kucoinError(answer.body);
      throw new Error(`bullet-public ${error === undefined ? answer.status : reasonOf(error)}`);
    }
    this.pingIntervalMs = token.pingIntervalMs;
    this.connectId = `c${Date.now()}${++this.frameIds}`;
    return streamUrl(endpoints.ws === '' ? token : { ...token, endpoint: endpoints.ws }, this.connectId);
  }

  /** A ping with a fresh id (the pong echoes it). */
  private ping(): string {
    this.lastPingAt = Date.now();
    return pingFrame(`p${++this.frameIds}`);
  }

  protected venueSymbolOf(symbol: string): string {
    return venueSymbolOf(symbol);
  }

  protected watch(feeds: readonly BookFeed<KucoinBookSync>[]): void {
    if (!this.welcomed) {
      for (const feed of feeds) this.waiting.add(feed);
      return;
    }
    if (!this.subscribe100(feeds)) return;
    // The snapshot is asked right after the subscription: pushes from then on are buffered, and
    // one that starts past the snapshot makes it stale (asked again).
    for (const feed of feeds) this.feeds.resync(feed);
  }

  protected unwatch(feed: BookFeed<KucoinBookSync>): void {
    this.waiting.delete(feed);
    this.refused.delete(feed);
    if (this.welcomed) for (const { text } of level2Subscriptions('unsubscribe', [feed.venueSymbol], `u${++this.frameIds}`)) this.stream.send(text);
  }

  /** `/market/level2` subscriptions, 100 symbols a frame; false when the stream closed meanwhile (the next connection subscribes all). */
  private subscribe100(feeds: readonly BookFeed<KucoinBookSync>[]): boolean {
    const frames = level2Subscriptions('subscribe', feeds.map((f) => f.venueSymbol), `s${++this.frameIds}`);
    for (let i = 0; i < frames.length; i++) {
      if (!this.stream.send(frames[i]!.text)) return false;
      this.unacked.set(frames[i]!.id, feeds.slice(i * SYMBOLS_PER_TOPIC, (i + 1) * SYMBOLS_PER_TOPIC));
    }
    return true;
  }

  protected onFrame(text: string): void {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return;
    }
    const frame = decodeFrame(raw);
    if (frame === undefined) {
      this.unreadable(raw);
      return;
    }
    switch (frame.type) {
      case 'welcome': {
        this.welcomed = true;
        const feeds = [...this.waiting];
        this.waiting.clear();
        if (feeds.length > 0) this.watch(feeds);
        return;
      }
      case 'ack':
        this.unacked.delete(frame.id);
        return;
      case 'error': {
        const feeds = this.unacked.get(frame.id);
        if (feeds === undefined) {
          // About the connection itself (its token): only a new one helps. An answer to an
          // unsubscribe or a ping leaves nothing to mend.
          if (frame.id === this.connectId || frame.id === '') this.stream.drop(`kucoin stream error ${frame.code}: ${frame.message}`);
          return;
        }
        // A refused subscription: a snapshot must not make its books whole without pushes.
        this.unacked.delete(frame.id);
        for (const feed of feeds) {
          if (this.feeds.get(feed.listing.symbol) !== feed) continue;
          this.refused.add(feed);
          feed.sync.reset();
          this.feeds.settle(feed, 'gap', Date.now() * 1_000_000);
        }
        return;
      }
      case 'level2': {
        const feed = this.feeds.ofVenueSymbol(frame.symbol);
        if (feed === undefined) return;
        this.feeds.counters.updates++;
        this.feeds.settle(feed, feed.sync.onUpdate(frame.update), frame.update.ts_ms * 1_000_000);
        return;
      }
      case 'pong':
        return;
    }
  }

  /** A level2 push that could not be read exactly: its book is no longer known. */
  private unreadable(raw: unknown): void {
    if (typeof raw !== 'object' || raw === null) return;
    const topic = (raw as Record<string, unknown>)['topic'];
    if ((raw as Record<string, unknown>)['type'] !== 'message' || typeof topic !== 'string' || !topic.startsWith('/market/level2:')) return;
    for (const symbol of topic.slice('/market/level2:'.length).split(',')) {
      const feed = this.feeds.ofVenueSymbol(symbol);
      if (feed === undefined) continue;
      feed.sync.reset();
      this.feeds.settle(feed, 'gap', Date.now() * 1_000_000);
    }
  }

  /**
   * The public top 100 (`level2_100`) into the feed's sync; rejects (retried with backoff) when
   * none could be read. Public rather than the signed full book: the book is shared market data,
   * held before any client stored a key and by no client's key (a revoked one must not stop it),
   * and the SOR walks far fewer than 100 levels.
   */
  private async fetchSnapshot(feed: BookFeed<KucoinBookSync>): Promise<boolean> {
    // Before the welcome nothing is subscribed: a snapshot now would be whole without pushes.
    if (!this.welcomed) throw new Error('stream not welcomed yet');
    if (this.refused.delete(feed) && !this.subscribe100([feed])) throw new Error('stream closed');
    const answer = await this.rest.send({ method: 'GET', path: snapshotPath(feed.venueSymbol, false), cost: COST.snapshot, timeoutMs: QUERY_TIMEOUT_MS });
    const snapshot = answer.status === 200 ? decodeSnapshot(answer.body) : undefined;
    if (snapshot === undefined) throw new Error(`level2_100 ${answer.status}`);
    if (!this.feeds.connected || this.refused.has(feed)) return true;
    this.feeds.settle(feed, feed.sync.onSnapshot(snapshot.sequence, snapshot.bids, snapshot.asks), snapshot.ts_ms * 1_000_000);
    return true;
  }

  protected async readInstruments(): Promise<(readonly [string, KucoinInstrument])[]> {
    const answer = await this.rest.send({ method: 'GET', path: PATHS.symbols, cost: COST.symbols, timeoutMs: QUERY_TIMEOUT_MS });
    const instruments = decodeSymbols(answer.body);
    if (instruments.length === 0) throw new Error(`symbols ${answer.status}`);
    return instruments.map((i) => [i.symbol, i] as const);
  }

  // --- orders -------------------------------------------------------------------------------

  async submit(account: VenueAccount, leg: LegRequest): Promise<LegReport> {
    const symbol = venueSymbolOf(leg.symbol);
    const instrument = await this.instrumentFor(symbol);
    // Without the symbol's increments and minimums the order could only be guessed at.
    if (instrument === undefined) return refusedLeg(`kucoin: ${leg.symbol} is not (yet) known from the symbol list`);
    const qty = leg.qty_1e8 - (leg.qty_1e8 % instrument.lot_1e8);
    if (qty <= 0 || qty < instrument.min_qty_1e8) return refusedLeg(`below KuCoin's minimum size for ${symbol}`);
    const limit = limitOnTick(leg.side, leg.limit_price_1e9, instrument.tick_1e9);
    if (limit !== null && limit <= 0) return refusedLeg(`limit below KuCoin's tick for ${symbol}`);
    // minFunds: size x price (1e8 x 1e9) against the quote minimum (1e9).
    if (limit !== null && BigInt(qty) * BigInt(limit) < BigInt(instrument.min_funds_1e9) * 100_000_000n) return refusedLeg(`below KuCoin's minimum funds for ${symbol}`);
    const clientOid = kucoinClientOid(leg.child_id);
    if (clientOid === undefined) return refusedLeg(`child id ${leg.child_id} is not a KuCoin clientOid`);
    let answer: RestAnswer;
    try {
      answer = await this.signed(account, 'POST', PATHS.orderSync, (timestampMs) => orderBody(symbol, leg.child_id, leg.side, qty, limit, leg.time_in_force, { clientTimestampMs: timestampMs, allowMaxTimeWindowMs: ACCEPT_WINDOW_MS })!, COST.order, ORDER_TIMEOUT_MS);
    } catch (err) {
      // Refused as a whole (a bad key or signature, a balance, a size): nothing reached the book.
      if (err instanceof VenueRejection) return refusedLeg(err.reason);
      throw err;
    }
    // The order is on the venue now: any failure from here leaves its fate to reconciliation,
    // never a refusal (a local rate limit on a read included).
    try {
      const ack = decodeOrderAck(answer.status, answer.body);
      if (ack === undefined || !ack.ok) throw new Error('unreadable order answer');
      const sizes = ack.sizes;
      const ioc = leg.time_in_force === 'ioc';
      // Done, or resting untouched: the sync answer is the whole story but for the fill rows.
      if (sizes !== undefined && (sizes.done || sizes.filled_qty_1e8 === 0) && !(ioc && !sizes.done)) {
        const fills = sizes.filled_qty_1e8 > 0 ? await this.settledFills(account, symbol, ack.orderId, sizes.filled_qty_1e8) : [];
        return { ok: true, reason: null, fills, resting_qty_1e8: sizes.done ? 0 : sizes.remain_qty_1e8 };
      }
      // Still matching, or resting after fills that may go on: the order is read until it agrees with its fills.
      const found = await this.settled(account, clientOid, symbol, ioc);
      if (!found.found) throw new Error('placed but not found');
      return found.report;
    } catch (err) {
      throw new RestFailure(`order placed, its state not read: ${(err as Error).message}`, 'timeout');
    }
  }

  async lookup(account: VenueAccount, child_id: string, symbol: string, knownFilled_1e8?: number): Promise<OrderLookup> {
    const clientOid = kucoinClientOid(child_id);
    if (clientOid === undefined) return { found: false };
    return this.settled(account, clientOid, venueSymbolOf(symbol), false, knownFilled_1e8);
  }

  /**
   * "Cancel Order By ClientOid Sync": answered once the cancel is done, with what it cancelled.
   * A filled or already cancelled order is "order_not_exist_or_not_allow_to_cancel": nothing rests.
   */
  async cancel(account: VenueAccount, child_id: string, symbol: string): Promise<{ found: boolean; cancelled_qty_1e8: number }> {
    const clientOid = kucoinClientOid(child_id);
    if (clientOid === undefined) return { found: false, cancelled_qty_1e8: 0 };
    const venueSymbol = venueSymbolOf(symbol);
    let answer: RestAnswer;
    try {
      answer = await this.signed(account, 'DELETE', cancelSyncPath(clientOid, venueSymbol), '', COST.cancel, QUERY_TIMEOUT_MS);
    } catch (err) {
      if (err instanceof VenueRejection && err.unknownOrder) return { found: false, cancelled_qty_1e8: 0 };
      throw err;
    }
    const sizes = decodeCancelSync(answer.body);
    if (sizes === undefined) throw new RestFailure('unreadable cancel answer', 'timeout');
    let cancelled = sizes.cancelled_qty_1e8;
    if (!sizes.done) {
      // Still working: what remained is cancelled but for what fills before the cancel lands.
      const after = await this.order(account, clientOid, venueSymbol);
      if (after === undefined || after.active) throw new RestFailure(`cancel of ${clientOid} not done yet`, 'timeout');
      cancelled = Math.max(0, sizes.remain_qty_1e8 - (after.filled_qty_1e8 - sizes.filled_qty_1e8));
    }
    return { found: cancelled > 0, cancelled_qty_1e8: cancelled };
  }

  /** Our orders among the account's open ones, on the symbols that have any and we list. */
  async ownOpenOrders(account: VenueAccount): Promise<{ child_id: string; symbol: string }[]> {
    const out: { child_id: string; symbol: string }[] = [];
    for (const symbol of await this.activeSymbols(account, [...this.listings.keys()])) {
      for (const order of await this.openOrders(account, symbol)) {
        const child = childIdOfKucoin(order.clientOid);
        if (child !== undefined) out.push({ child_id: child, symbol });
      }
    }
    return out;
  }

  /**
   * Every open order of the account on these symbols, ours or placed by hand (the kill switch).
   * Only the symbols with open orders (one request, so an edge's many listings cost nothing, and
   * a listing the venue does not know is never asked about) have them listed (what is counted),
   * then "Cancel All Orders By Symbol". That answers "success" once the cancels are requested;
   * the edge's polls of its resting legs then read them cancelled.
   */
  async cancelAll(account: VenueAccount, symbols: readonly string[]): Promise<number> {
    let cancelled = 0;
    for (const symbol of await this.activeSymbols(account, symbols.map(venueSymbolOf))) {
      const open = await this.openOrders(account, symbol);
      if (open.length === 0) continue;
      const answer = await this.signed(account, 'DELETE', cancelAllPath(symbol), '', COST.cancelAll, QUERY_TIMEOUT_MS);
      if (!decodeCancelAllAck(answer.body)) throw new RestFailure(`unreadable cancel-all answer for ${symbol}`, 'network');
      cancelled += open.length;
    }
    return cancelled;
  }

  /** The trading account's balances: what spot orders trade with (main and others are not). */
  async balances(account: VenueAccount): Promise<AssetBalance[]> {
    const answer = await this.signed(account, 'GET', PATHS.accounts, '', COST.accounts, QUERY_TIMEOUT_MS);
    const balances = decodeBalances(answer.body);
    if (balances === undefined) throw new RestFailure('unreadable accounts answer', 'network');
    return balances;
  }

  /** The account's actual rates on a symbol we list (`trade-fees`) and the key's permissions (`api-key`). */
  async probe(account: VenueAccount): Promise<AccountProbe> {
    const listed = [...this.listings.keys()].map(venueSymbolOf);
    const symbol = listed.find((s) => this.instruments.get(s)?.trading === true) ?? listed[0];
    let rates: { maker_bps: number; taker_bps: number } | undefined;
    if (symbol !== undefined) {
      const answer = await this.signed(account, 'GET', tradeFeesPath([symbol]), '', COST.tradeFees, QUERY_TIMEOUT_MS);
      const fees = decodeTradeFees(answer.body);
      if (fees === undefined) throw new RestFailure('unreadable trade-fees answer', 'network');
      rates = fees.get(symbol);
    }
    const answer = await this.signed(account, 'GET', PATHS.apiKey, '', COST.apiKey, QUERY_TIMEOUT_MS);
    const key = decodeApiKeyInfo(answer.body);
    if (key === undefined) throw new RestFailure('unreadable api-key answer', 'network');
    return probeOf(key, rates, this.fees);
  }

  // --- reads --------------------------------------------------------------------------------

  /** The order and its fills, read again while an IOC is still matching or its fills lag its deal size. */
  private async settled(account: VenueAccount, clientOid: string, symbol: string, ioc: boolean, knownFilled_1e8?: number): Promise<OrderLookup> {
    for (let poll = 0; ; poll++) {
      const order = await this.order(account, clientOid, symbol);
      if (order === undefined) return { found: false };
      const working = ioc && order.active;
      // Nothing executed since the caller was told: the fills need no read (a resting leg's poll).
      if (order.filled_qty_1e8 === knownFilled_1e8 && !working) return { found: true, report: legReportOf(order, []) };
      const fills = order.filled_qty_1e8 > 0 ? await this.fillsOf(account, symbol, order.orderId) : [];
      const complete = sumQty(fills) === order.filled_qty_1e8;
      if ((complete && !working) || poll >= SETTLE_POLLS) {
        if (!complete || working) throw new RestFailure(`order ${clientOid} not settled`, 'timeout');
        return { found: true, report: legReportOf(order, fills) };
      }
      await sleep(SETTLE_POLL_MS);
    }
  }

  /** The fills of a done order, read again until they add up to what the venue said it dealt. */
  private async settledFills(account: VenueAccount, symbol: string, orderId: string, filled_1e8: number): Promise<VenueFill[]> {
    for (let poll = 0; ; poll++) {
      const fills = await this.fillsOf(account, symbol, orderId);
      if (sumQty(fills) === filled_1e8) return fills;
      if (poll >= SETTLE_POLLS) throw new RestFailure(`order ${orderId}: fills do not add up to its deal size`, 'timeout');
      await sleep(SETTLE_POLL_MS);
    }
  }

  /** The order with this clientOid; undefined when the venue has none (`data: null`, or "order not exist."). */
  private async order(account: VenueAccount, clientOid: string, symbol: string): Promise<KucoinOrder | undefined> {
    let answer: RestAnswer;
    try {
      answer = await this.signed(account, 'GET', clientOrderPath(clientOid, symbol), '', COST.orderRead, QUERY_TIMEOUT_MS);
    } catch (err) {
      if (err instanceof VenueRejection && err.unknownOrder) return undefined;
      throw err;
    }
    const read = decodeOrder(answer.body);
    if (read === undefined) throw new RestFailure('unreadable order answer', 'network');
    return read.found ? read.order : undefined;
  }

  /** Which of these symbols have open orders of the account (`active/symbols`). */
  private async activeSymbols(account: VenueAccount, among: readonly string[]): Promise<string[]> {
    const answer = await this.signed(account, 'GET', PATHS.activeSymbols, '', COST.activeSymbols, QUERY_TIMEOUT_MS);
    const symbols = decodeActiveSymbols(answer.body);
    if (symbols === undefined) throw new RestFailure('unreadable active symbols answer', 'network');
    const wanted = new Set(among);
    return symbols.filter((s) => wanted.has(s));
  }

  private async openOrders(account: VenueAccount, symbol: string): Promise<KucoinOrder[]> {
    const answer = await this.signed(account, 'GET', openOrdersPath(symbol), '', COST.openOrders, QUERY_TIMEOUT_MS);
    const orders = decodeOpenOrders(answer.body);
    if (orders === undefined) throw new RestFailure('unreadable open orders answer', 'network');
    return orders;
  }

  /** Every fill of an order, 100 a page (newest first: the next page is below the last row's id), oldest first. */
  private async fillsOf(account: VenueAccount, symbol: string, orderId: string): Promise<VenueFill[]> {
    const fees = this.feeContext(symbol);
    const fills: VenueFill[] = [];
    let lastId: number | undefined;
    for (let page = 0; page < MAX_FILL_PAGES; page++) {
      const answer = await this.signed(account, 'GET', fillsPath(symbol, orderId, lastId), '', COST.fills, QUERY_TIMEOUT_MS);
      const read = decodeFills(answer.body, fees);
      if (read === undefined) throw new RestFailure('unreadable fills answer', 'network');
      fills.push(...read.fills);
      if (read.fills.length < FILLS_PAGE || read.lastId === undefined) return fills.sort((a, b) => a.ts_ns - b.ts_ns || Number(a.trade_id) - Number(b.trade_id));
      lastId = read.lastId;
    }
    throw new RestFailure(`order ${orderId}: more than ${MAX_FILL_PAGES} pages of fills`, 'network');
  }

  /**
   * A signed request: the `KC-API-*` headers over timestamp + method + path (with its query) +
   * the exact JSON sent; `body` may be built from the timestamp (an order's `clientTimestamp`).
   * Success is HTTP 200 with code "200000"; anything else is decided by `classifyFailure`: the
   * venue may have acted (5xx, 500000, a clientOid it already holds) is a failure of unknown
   * fate; a spent pool is never sent (closes the pool until its reset); the rest is a rejection
   * with KuCoin's code and message, flagged when it says the order does not exist.
   */
  private async signed(account: VenueAccount, method: 'GET' | 'POST' | 'DELETE', path: string, body: string | ((timestampMs: number) => string), cost: readonly number[], timeoutMs: number): Promise<RestAnswer> {
    const timestampMs = Date.now();
    const text = typeof body === 'string' ? body : body(timestampMs);
    const answer = await this.rest.send({
      method,
      path,
      headers: { ...kucoinHeaders(account.credentials, method, path, text, timestampMs) },
      ...(text === '' ? {} : { body: text }),
      cost,
      timeoutMs,
    });
    this.observe(answer.headers, cost);
    const error = kucoinError(answer.body);
    if (answer.status === 200 && error === undefined) return answer;
    const failure = classifyFailure(answer.status, error);
    const reason = error === undefined ? `kucoin HTTP ${answer.status}` : reasonOf(error);
    switch (failure) {
      case 'fate_unknown':
        throw new RestFailure(`${reason}: fate unknown`, 'timeout');
      case 'rate_limited': {
        const wait = rateLimitResetMs(answer.headers) ?? OVERLOADED_MS;
        this.limits.closeFor(wait, Date.now());
        throw new RestFailure(`${reason}: rate limited`, 'rate_limited', wait);
      }
      default:
        throw new VenueRejection(reason, failure === 'unknown_order');
    }
  }

  /**
   * The pool's use as the venue counts it (`gw-ratelimit-limit`/`-remaining`, per account): its
   * window starts at the account's first request, not on our clock, and it knows requests this
   * edge did not send. Scaled to our rule, since a higher VIP tier has a bigger pool.
   */
  private observe(headers: Headers, cost: readonly number[]): void {
    const pool = cost.findIndex((c) => c > 0);
    const limit = Number(headers.get('gw-ratelimit-limit'));
    const remaining = Number(headers.get('gw-ratelimit-remaining'));
    if (pool < 0 || !(limit > 0) || !(remaining >= 0) || headers.get('gw-ratelimit-remaining') === null) return;
    this.limits.observe(pool, Math.ceil(((limit - Math.min(limit, remaining)) / limit) * LIMIT_RULES[pool]!.limit), Date.now());
  }

  private feeContext(symbol: string): FeeContext {
    return feeContextOf(this.listings.get(symbol), this.fees);
  }
}

function sumQty(fills: readonly VenueFill[]): number {
  return fills.reduce((sum, f) => sum + f.qty_1e8, 0);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
