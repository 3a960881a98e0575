import type { VenueId } from '../../../../domain/market.ts';
import type { BookFeed, FeedListing } from '../book-feeds.ts';
import type { VenueEndpoints } from '../endpoints.ts';
import { RestFailure, VenueRest, type RestAnswer } from '../rest.ts';
import { StreamedVenue } from '../streamed-venue.ts';
import { VenueLimits, type LimitRule } from '../venue-limits.ts';
import { refusedLeg, cancelledBetween, VenueRejection, type AccountProbe, type AssetBalance, type LegReport, type LegRequest, type LiveVenue, type OrderLookup, type VenueAccount, type VenueFill } from '../venue.ts';
import { feeContextOf, type FeeContext } from '../fees.ts';
import { BybitBookSync, type BybitBookDepth } from './book-sync.ts';
import { queryString, RECV_WINDOW_MS, signedHeaders } from './signing.ts';
import {
  API_KEY_PATH,
  CANCEL_ALL_PATH,
  CANCEL_ORDER_PATH,
  CREATE_ORDER_PATH,
  INSTRUMENTS_PATH,
  MAX_ARGS_PER_REQUEST,
  NOTHING_TO_CANCEL,
  OPEN_ORDERS_PAGE,
  PING,
  PING_EVERY_MS,
  PUBLIC_SPOT_PATH,
  RATE_LIMITS,
  WALLET_BALANCE_PATH,
  accountProbeOf,
  bookTopic,
  bybitError,
  bybitOrderLinkId,
  BybitSymbols,
  cancelAllBody,
  cancelOrderBody,
  createOrderBody,
  decodeBalances,
  decodeBookFrame,
  decodeCancelAll,
  decodeControl,
  decodeExecutions,
  decodeFeeRate,
  decodeInstruments,
  decodeKeyInfo,
  decodeLimitHeaders,
  decodeOrderAck,
  decodeOrders,
  executionsPath,
  feeRatePath,
  legReportOf,
  openOrdersPath,
  orderHistoryPath,
  orderRealtimePath,
  orderTerms,
  subscriptionRequests,
  venueSymbolOf,
  type BybitInstrument,
  type BybitOrder,
} from './codec.ts';

/** The depth subscribed: the 50 levels the edge publishes (its snapshot and depth-cache depth). */
const DEPTH: BybitBookDepth = 50;
const QUERY_TIMEOUT_MS = 3_000;
/** Order placement times out inside the router's 2 s leg timeout; the router then reconciles. */
const ORDER_TIMEOUT_MS = 1_500;
/** Reads of an order until the engine is done with an IOC and its executions add up to its executed quantity. */
const SETTLE_POLL_MS = 20;
const SETTLE_POLLS = 10;
/** Pages read of a list (open orders, one order's executions) before giving up: an account with 2,500 open orders is not ours to walk. */
const MAX_PAGES = 50;
/** Subscribe requests remembered until answered (a connection that dropped never answers its own). */
const PENDING_KEPT = 256;
/** After a retCode 10006 without a readable reset time: nothing is sent for this long (Bybit's windows are a second). */
const RATE_LIMITED_MS = 1_000;
/** The longest pause a reset timestamp may ask for (a clock apart from Bybit's must not close the venue for long). */
const RATE_LIMITED_MAX_MS = 10_000;

/**
 * Bybit's limits (`RATE_LIMITS`, docs "Rate Limit Rules") as `VenueLimits` rules. Bybit's windows
 * roll (any 5 s per IP, any 1 s per UID and endpoint); windows aligned to the clock hold the
 * rolling count under the venue's only at half its numbers (two halves of adjacent windows make
 * a rolling one). Every request counts on the IP rule and on its endpoint's. The per-UID rules
 * are shared by every client's requests on this edge: stricter than Bybit, never looser.
 */
const half = (n: number) => Math.floor(n / 2);
const PER_S = RATE_LIMITS.perSecond;
const LIMIT_RULES: LimitRule[] = [
  { name: 'IP', limit: half(RATE_LIMITS.ipPer5s), window_ms: 5_000 },
  { name: 'ORDER_CREATE', limit: half(PER_S.create), window_ms: 1_000 },
  { name: 'ORDER_CANCEL', limit: half(PER_S.cancel), window_ms: 1_000 },
  { name: 'ORDER_CANCEL_ALL', limit: half(PER_S.cancelAll), window_ms: 1_000 },
  { name: 'ORDER_REALTIME', limit: half(PER_S.orderRealtime), window_ms: 1_000 },
  { name: 'ORDER_HISTORY', limit: half(PER_S.orderHistory), window_ms: 1_000 },
  { name: 'EXECUTION_LIST', limit: half(PER_S.executions), window_ms: 1_000 },
  { name: 'WALLET_BALANCE', limit: half(PER_S.walletBalance), window_ms: 1_000 },
  { name: 'FEE_RATE', limit: half(PER_S.feeRate), window_ms: 1_000 },
  { name: 'QUERY_API', limit: half(PER_S.apiKey), window_ms: 1_000 },
];
const RULE = { public: 0, create: 1, cancel: 2, cancelAll: 3, realtime: 4, history: 5, executions: 6, wallet: 7, feeRate: 8, apiKey: 9 } as const;
type Rule = (typeof RULE)[keyof typeof RULE];
/** A request's cost: one on the IP rule and one on its endpoint's. */
const COST: readonly (readonly number[])[] = LIMIT_RULES.map((_, rule) => LIMIT_RULES.map((__, i) => (i === 0 || i === rule ? 1 : 0)));

/**
 * Bybit v5 spot: the public `orderbook.50.<SYMBOL>` topic on `/v5/public/spot` (a snapshot on
 * subscribe, then deltas chained by `u`; `bybit/book-sync.ts`), at most 10 topics a subscribe
 * request, `{"op":"ping"}` every 20 s. Orders over signed REST (`X-BAPI-*` headers, HMAC-SHA256
 * over timestamp + key + recv window + query or body; `bybit/signing.ts`) with our child id as
 * the `orderLinkId`. Placing and cancelling are asynchronous at Bybit: an answer is an
 * acknowledgement, and the order and its executions are read after it. docs/venues/bybit.md.
 */
export class BybitSpot extends StreamedVenue<BybitBookSync, BybitInstrument> implements LiveVenue {
  readonly venue: VenueId = 'bybit';
  /** `X-BAPI-RECV-WINDOW`: Bybit refuses a request it receives later than this after its timestamp. */
  readonly acceptWindowMs = RECV_WINDOW_MS;
  private readonly limits = new VenueLimits(LIMIT_RULES);
  private readonly rest: VenueRest;
  /** ours <-> Bybit's symbols, from the listings' own coins once the instruments are read */
  private symbols: BybitSymbols | undefined;
  /** subscribe requests of several topics awaiting their answer, by req_id */
  private readonly pending = new Map<string, readonly string[]>();
  private nextReqId = 1;

  constructor(
    endpoints: VenueEndpoints,
    listings: readonly FeedListing[],
    private readonly fees: { maker_bps: number; taker_bps: number },
  ) {
    super(listings, {
      url: `${endpoints.ws}${PUBLIC_SPOT_PATH}`,
      makeSync: (book, changes) => new BybitBookSync(book, changes, DEPTH),
      // A resync is a fresh subscription: Bybit answers every subscribe with a snapshot.
      resync: async (feed) => {
        const topic = [bookTopic(DEPTH, feed.venueSymbol)];
        if (!this.stream.send(subscriptionRequests('unsubscribe', topic)[0]!) || !this.stream.send(subscriptionRequests('subscribe', topic)[0]!)) throw new Error('stream closed');
        return false;
      },
      ping: { text: PING, everyMs: PING_EVERY_MS },
    });
    this.rest = new VenueRest(endpoints.rest, this.limits, undefined, endpoints.headers);
  }

  // --- market data --------------------------------------------------------------------------

  protected venueSymbolOf(symbol: string): string {
    return this.symbols?.venueOf(symbol) ?? venueSymbolOf(symbol);
  }

  protected watch(feeds: readonly BookFeed<BybitBookSync>[]): void {
    if (this.pending.size > PENDING_KEPT) this.pending.clear();
    const topics = feeds.map((f) => bookTopic(DEPTH, f.venueSymbol));
    for (let i = 0; i < topics.length; i += MAX_ARGS_PER_REQUEST) {
      const chunk = topics.slice(i, i + MAX_ARGS_PER_REQUEST);
      const reqId = `sub-${this.nextReqId++}`;
      if (!this.stream.send(subscriptionRequests('subscribe', chunk, reqId)[0]!)) return;
      if (chunk.length > 1) this.pending.set(reqId, chunk);
      for (const feed of feeds.slice(i, i + MAX_ARGS_PER_REQUEST)) this.feeds.expect(feed);
    }
  }

  protected unwatch(feed: BookFeed<BybitBookSync>): void {
    this.stream.send(subscriptionRequests('unsubscribe', [bookTopic(DEPTH, feed.venueSymbol)])[0]!);
  }

  protected onFrame(text: string): void {
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    const control = decodeControl(frame);
    if (control !== undefined) {
      if (control.kind === 'subscribe') this.onSubscribed(control.reqId, control.success);
      return;
    }
    const message = decodeBookFrame(frame);
    if (message === undefined || message.depth !== DEPTH) return;
    const feed = this.feeds.ofVenueSymbol(message.venueSymbol);
    if (feed === undefined) return;
    this.feeds.counters.updates++;
    // A push whose levels could not be read exactly: the book is no longer known.
    if (message.data === null) this.feeds.settle(feed, feed.sync.onUnreadable(), Date.now() * 1_000_000);
    else this.feeds.settle(feed, feed.sync.onPush(message.type, message.data), message.data.ts_ms * 1_000_000);
  }

  /**
   * A refused subscribe request names one bad topic at most (`error:handler not found,topic:...`),
   * and whether the others of its request were taken is not documented: each of its books not
   * yet whole is asked for alone at once, rather than waiting out the feeds' 5 s confirmation.
   * A topic refused alone is left to that confirmation (and to the instrument list, which drops
   * a symbol Bybit does not trade).
   */
  private onSubscribed(reqId: string | null, success: boolean): void {
    if (reqId === null) return;
    const topics = this.pending.get(reqId);
    this.pending.delete(reqId);
    if (success || topics === undefined) return;
    for (const topic of topics) {
      const feed = this.feeds.ofVenueSymbol(topic.slice(topic.lastIndexOf('.') + 1));
      if (feed !== undefined && !feed.sync.synced) this.stream.send(subscriptionRequests('subscribe', [topic])[0]!);
    }
  }

  /**
   * Spot instruments come in one answer ("spot does not support pagination"); a
   * `nextPageCursor` is followed anyway, since a listing missing from a cut list would be
   * dropped as not traded.
   */
  protected async readInstruments(): Promise<(readonly [string, BybitInstrument])[]> {
    const instruments: BybitInstrument[] = [];
    let cursor = '';
    for (let page = 0; page < MAX_PAGES; page++) {
      const path = cursor === '' ? INSTRUMENTS_PATH : `${INSTRUMENTS_PATH}&${queryString([['cursor', cursor]])}`;
      const answer = await this.rest.send({ method: 'GET', path, cost: COST[RULE.public]!, timeoutMs: QUERY_TIMEOUT_MS });
      const decoded = decodeInstruments(answer.body);
      if (decoded === undefined) throw new Error(`instruments-info ${answer.status}: ${bybitError(answer.body)?.reason ?? 'unreadable'}`);
      instruments.push(...decoded.instruments);
      if (decoded.cursor === '' || decoded.cursor === cursor) break;
      cursor = decoded.cursor;
    }
    if (instruments.length === 0) throw new Error('instruments-info: no spot listing');
    this.symbols = new BybitSymbols(instruments);
    return instruments.map((i) => [i.venueSymbol, i] as const);
  }

  // --- orders -------------------------------------------------------------------------------

  async submit(account: VenueAccount, leg: LegRequest): Promise<LegReport> {
    const venueSymbol = this.venueSymbolOf(leg.symbol);
    const instrument = await this.instrumentFor(venueSymbol);
    // Without the listing's step, tick and minimum value the order could only be guessed at.
    if (instrument === undefined) return refusedLeg(`bybit: ${leg.symbol} is not (yet) known from instruments-info`);
    const terms = orderTerms(instrument, leg.side, leg.qty_1e8, leg.limit_price_1e9);
    if (!terms.ok) return refusedLeg(terms.reason);
    const body = createOrderBody(venueSymbol, leg.child_id, leg.side, terms.terms, leg.time_in_force);
    const orderLinkId = bybitOrderLinkId(leg.child_id);
    if (body === undefined || orderLinkId === undefined) return refusedLeg(`child id ${leg.child_id} is not a Bybit orderLinkId`);
    let answer: RestAnswer;
    try {
      answer = await this.signed(account, 'POST', CREATE_ORDER_PATH, body, RULE.create, ORDER_TIMEOUT_MS, false);
    } catch (err) {
      // Refused as a whole (a bad key or signature, a stale timestamp, a rate limit): nothing reached the book.
      if (err instanceof VenueRejection) return refusedLeg(err.reason);
      throw err;
    }
    const ack = decodeOrderAck(answer.body);
    if (ack === undefined) throw new RestFailure('unreadable order/create answer', 'timeout');
    // A duplicate orderLinkId means an earlier send of this child got through: it is read like a placement.
    if (!ack.ok && ack.kind !== 'duplicate') return refusedLeg(ack.reason);
    // The order is on the venue now: any failure from here leaves its fate to reconciliation.
    try {
      const found = await this.settled(account, orderLinkId, leg.symbol, { ioc: leg.time_in_force === 'ioc', placed: true });
      if (!found.found) throw new Error('placed but not found');
      return found.report;
    } catch (err) {
      throw new RestFailure(`order placed, its state not read: ${(err as Error).message}`, 'timeout');
    }
  }

  async lookup(account: VenueAccount, child_id: string, symbol: string, knownFilled_1e8?: number): Promise<OrderLookup> {
    const orderLinkId = bybitOrderLinkId(child_id);
    if (orderLinkId === undefined) return { found: false };
    return this.settled(account, orderLinkId, symbol, { ioc: false, placed: false }, knownFilled_1e8);
  }

  async cancel(account: VenueAccount, child_id: string, symbol: string): Promise<{ found: boolean; cancelled_qty_1e8: number }> {
    void symbol;
    const orderLinkId = bybitOrderLinkId(child_id);
    if (orderLinkId === undefined) return { found: false, cancelled_qty_1e8: 0 };
    const before = await this.order(account, orderLinkId);
    if (before === undefined || before.resting_qty_1e8 === 0) return { found: false, cancelled_qty_1e8: 0 };
    const answer = await this.signed(account, 'POST', CANCEL_ORDER_PATH, cancelOrderBody(before.venueSymbol, orderLinkId), RULE.cancel, QUERY_TIMEOUT_MS, false);
    const ack = decodeOrderAck(answer.body);
    if (ack === undefined) throw new RestFailure('unreadable order/cancel answer', 'timeout');
    if (!ack.ok) {
      // Filled or cancelled since it was read: nothing rests to cancel (its fills are the caller's next lookup).
      if (NOTHING_TO_CANCEL.has(ack.retCode)) return { found: false, cancelled_qty_1e8: 0 };
      throw new VenueRejection(ack.reason);
    }
    // The cancel is acknowledged, not done: what filled before it took is told by the order read again.
    const after = await this.order(account, orderLinkId);
    return cancelledBetween(before, after);
  }

  async ownOpenOrders(account: VenueAccount): Promise<{ child_id: string; symbol: string }[]> {
    const out: { child_id: string; symbol: string }[] = [];
    for (const order of await this.openOrders(account)) {
      const symbol = this.listedSymbolOf(order.venueSymbol);
      if (order.child_id !== null && symbol !== undefined) out.push({ child_id: order.child_id, symbol });
    }
    return out;
  }

  /**
   * Every open order of the account on these symbols, ours or placed by hand (the kill switch):
   * the open orders are read first, then `cancel-all` goes to each of our symbols that has one
   * (a request per listing would spend the endpoint's limit on empty books; one without a
   * symbol would also take the account's other pairs).
   */
  async cancelAll(account: VenueAccount, symbols: readonly string[]): Promise<number> {
    const wanted = new Set(symbols);
    const books = new Set<string>();
    for (const order of await this.openOrders(account)) {
      const symbol = this.listedSymbolOf(order.venueSymbol);
      if (symbol !== undefined && wanted.has(symbol)) books.add(order.venueSymbol);
    }
    let cancelled = 0;
    for (const venueSymbol of books) {
      const answer = await this.signed(account, 'POST', CANCEL_ALL_PATH, cancelAllBody(venueSymbol), RULE.cancelAll, QUERY_TIMEOUT_MS, true);
      const done = decodeCancelAll(answer.body);
      if (done === undefined) throw new RestFailure('unreadable order/cancel-all answer', 'network');
      if (!done.success) throw new VenueRejection(`bybit: cancel-all on ${venueSymbol} answered success "0"`);
      cancelled += done.cancelled.length;
    }
    return cancelled;
  }

  async balances(account: VenueAccount): Promise<AssetBalance[]> {
    const answer = await this.signed(account, 'GET', WALLET_BALANCE_PATH, '', RULE.wallet, QUERY_TIMEOUT_MS, true);
    const balances = decodeBalances(answer.body);
    if (balances === undefined) throw new RestFailure('unreadable wallet-balance answer', 'network');
    return balances;
  }

  /**
   * The key's permissions and VIP level (`query-api`) and its rates on a symbol we list
   * (`fee-rate`); the edge's schedule when the rates could not be had (the key itself must answer).
   */
  async probe(account: VenueAccount): Promise<AccountProbe> {
    const keyAnswer = await this.signed(account, 'GET', API_KEY_PATH, '', RULE.apiKey, QUERY_TIMEOUT_MS, true);
    const key = decodeKeyInfo(keyAnswer.body);
    if (key === undefined) throw new RestFailure('unreadable query-api answer', 'network');
    const venueSymbol = [...this.instruments.values()].find((i) => i.trading && this.listings.has(i.symbol))?.venueSymbol ?? 'BTCUSDT';
    let rates: { maker_bps: number; taker_bps: number } | undefined;
    try {
      rates = decodeFeeRate((await this.signed(account, 'GET', feeRatePath(venueSymbol), '', RULE.feeRate, QUERY_TIMEOUT_MS, true)).body, venueSymbol);
    } catch (err) {
      if (!(err instanceof VenueRejection) && !(err instanceof RestFailure && err.kind === 'rate_limited')) throw err;
    }
    return accountProbeOf(key, rates, this.fees);
  }

  // --- reads --------------------------------------------------------------------------------

  /**
   * The order and its executions, read again while an IOC is still working, while its executions
   * lag its executed quantity, or (`placed`: just acknowledged, and Bybit places asynchronously)
   * while it cannot be read yet.
   */
  private async settled(account: VenueAccount, orderLinkId: string, symbol: string, mode: { ioc: boolean; placed: boolean }, knownFilled_1e8?: number): Promise<OrderLookup> {
    for (let poll = 0; ; poll++) {
      const last = poll >= SETTLE_POLLS;
      const order = await this.order(account, orderLinkId);
      if (order === undefined) {
        if (!mode.placed) return { found: false };
        if (last) throw new RestFailure(`order ${orderLinkId} acknowledged, not readable`, 'timeout');
      } else {
        const working = mode.ioc && order.open;
        // Nothing executed since the caller was told: the executions need no read (a resting leg's poll).
        if (order.filled_qty_1e8 === knownFilled_1e8 && !working) return { found: true, report: reportOf(order, []) };
        const fills = order.filled_qty_1e8 > 0 ? await this.executionsOf(account, order, this.feeContext(symbol)) : [];
        const complete = fills.reduce((sum, f) => sum + f.qty_1e8, 0) === order.filled_qty_1e8;
        if (complete && !working) return { found: true, report: reportOf(order, fills) };
        if (last) throw new RestFailure(`order ${orderLinkId} not settled`, 'timeout');
      }
      await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
    }
  }

  /**
   * The order with this orderLinkId: `/v5/order/realtime` (open orders and the last 500 closed
   * ones), then `/v5/order/history`, since after a Bybit release or restart closed orders are only
   * there.
   */
  private async order(account: VenueAccount, orderLinkId: string): Promise<BybitOrder | undefined> {
    const reads: (readonly [string, Rule])[] = [
      [orderRealtimePath({ orderLinkId }), RULE.realtime],
      [orderHistoryPath({ orderLinkId }), RULE.history],
    ];
    for (const [path, rule] of reads) {
      let page: ReturnType<typeof decodeOrders>;
      try {
        page = decodeOrders((await this.signed(account, 'GET', path, '', rule, QUERY_TIMEOUT_MS, true)).body);
      } catch (err) {
        if (err instanceof VenueRejection && err.unknownOrder) continue;
        throw err;
      }
      if (page === undefined) throw new RestFailure(`unreadable ${path.slice(0, path.indexOf('?'))} answer`, 'network');
      const order = page.orders.find((o) => o.orderLinkId === orderLinkId);
      if (order !== undefined) return order;
    }
    return undefined;
  }

  /** The order's executions, page after page until they add up to its executed quantity. */
  private async executionsOf(account: VenueAccount, order: BybitOrder, fees: FeeContext): Promise<VenueFill[]> {
    const byId = new Map<string, VenueFill>();
    let total = 0;
    let cursor = '';
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = await this.signed(account, 'GET', executionsPath({ orderId: order.orderId }, cursor), '', RULE.executions, QUERY_TIMEOUT_MS, true);
      const decoded = decodeExecutions(answer.body, fees, order.orderId);
      if (decoded === undefined) throw new RestFailure('unreadable execution/list answer', 'network');
      for (const fill of decoded.fills) {
        if (byId.has(fill.trade_id)) continue;
        byId.set(fill.trade_id, fill);
        total += fill.qty_1e8;
      }
      if (total >= order.filled_qty_1e8 || decoded.cursor === '' || decoded.cursor === cursor) break;
      cursor = decoded.cursor;
    }
    return [...byId.values()].sort((a, b) => a.ts_ns - b.ts_ns || (a.trade_id < b.trade_id ? -1 : a.trade_id > b.trade_id ? 1 : 0));
  }

  /** The account's open spot orders, every page. */
  private async openOrders(account: VenueAccount): Promise<BybitOrder[]> {
    const out: BybitOrder[] = [];
    let cursor = '';
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = await this.signed(account, 'GET', openOrdersPath(cursor), '', RULE.realtime, QUERY_TIMEOUT_MS, true);
      const decoded = decodeOrders(answer.body);
      if (decoded === undefined) throw new RestFailure('unreadable order/realtime answer', 'network');
      out.push(...decoded.orders);
      if (decoded.cursor === '' || decoded.cursor === cursor || decoded.orders.length < OPEN_ORDERS_PAGE) return out;
      cursor = decoded.cursor;
    }
    throw new RestFailure(`order/realtime: more than ${MAX_PAGES} pages of open orders`, 'network');
  }

  /** Our symbol for a Bybit symbol, when it is one of our listings. */
  private listedSymbolOf(venueSymbol: string): string | undefined {
    const symbol = this.instruments.get(venueSymbol)?.symbol ?? this.symbols?.ourOf(venueSymbol);
    return symbol !== undefined && this.listings.has(symbol) ? symbol : undefined;
  }

  /**
   * A signed request. Bybit answers HTTP 200 with a `retCode` either way: a 5xx or a code of
   * unknown fate (10016, 170007, ...) leaves a write's fate unknown; a 403 is its IP limit (the
   * docs: stop for 10 minutes); a rate-limit code closes our requests until the endpoint's reset.
   * Key, signature, timestamp and rate-limit codes are rejections whatever the request (nothing
   * was done). `strict`: any other code is a rejection too (reads); a place or cancel answer is
   * decoded by the caller.
   */
  private async signed(account: VenueAccount, method: 'GET' | 'POST', path: string, body: string, rule: Rule, timeoutMs: number, strict: boolean): Promise<RestAnswer> {
    const { api_key, api_secret } = account.credentials;
    const headers = signedHeaders({ method, path, body, apiKey: api_key, apiSecret: api_secret, timestampMs: Date.now(), recvWindowMs: RECV_WINDOW_MS });
    const answer = await this.rest.send({ method, path, headers, ...(body === '' ? {} : { body }), cost: COST[rule]!, timeoutMs });
    const now = Date.now();
    const usage = decodeLimitHeaders((name) => answer.headers.get(name));
    // Bybit's own count of this endpoint knows requests this edge did not send (the key used elsewhere).
    if (usage !== undefined && usage.limit > 0) this.limits.observe(rule, Math.ceil(((usage.limit - usage.remaining) * LIMIT_RULES[rule]!.limit) / usage.limit), now);
    const error = bybitError(answer.body);
    if (answer.status >= 500 || error?.kind === 'fate-unknown') throw new RestFailure(`${error?.reason ?? `bybit HTTP ${answer.status}`}: fate unknown`, 'timeout');
    if (answer.status === 403) this.limits.closeFor(RATE_LIMITS.ipBanMs, now);
    else if (error?.kind === 'rate-limit') {
      const wait = usage === undefined ? RATE_LIMITED_MS : usage.resetAtMs - now;
      this.limits.closeFor(Math.min(RATE_LIMITED_MAX_MS, Math.max(RATE_LIMITED_MS, wait)), now);
    }
    if (answer.status !== 200) throw new VenueRejection(error?.reason ?? `bybit HTTP ${answer.status}`, error?.unknownOrder ?? false);
    if (error !== undefined && (strict || error.kind === 'auth' || error.kind === 'clock' || error.kind === 'rate-limit')) throw new VenueRejection(error.reason, error.unknownOrder);
    return answer;
  }

  private feeContext(symbol: string): FeeContext {
    return feeContextOf(this.listings.get(symbol), this.fees);
  }
}

/** A child's report. An acknowledged order the engine then rejected without filling anything was refused by the venue. */
function reportOf(order: BybitOrder, fills: VenueFill[]): LegReport {
  if (order.status === 'Rejected' && order.filled_qty_1e8 === 0) return refusedLeg(`bybit: order rejected (${order.rejectReason || 'no reason given'})`);
  return legReportOf(order, fills);
}
