import type { VenueId } from '../../../../domain/market.ts';
import type { BookFeed, FeedListing } from '../book-feeds.ts';
import type { VenueEndpoints } from '../endpoints.ts';
import { RestFailure, VenueRest, type RestAnswer } from '../rest.ts';
import { StreamedVenue } from '../streamed-venue.ts';
import { VenueLimits } from '../venue-limits.ts';
import { refusedLeg, cancelledBetween, VenueRejection, type AccountProbe, type AssetBalance, type LegReport, type LegRequest, type LiveVenue, type OrderLookup, type VenueAccount, type VenueFill } from '../venue.ts';
import { CoinbaseBookSync, SequenceGate } from './book-sync.ts';
import { coinbaseKey, jwtNonce, restJwt, type CoinbaseKey } from './jwt.ts';
import {
  accountsPath,
  CANCEL_BATCH_MAX,
  CANCEL_PATH,
  cancelBody,
  clientOrderLookupPath,
  coinbaseClientOrderId,
  coinbaseError,
  createOrderBody,
  createOrderOutcome,
  decodeAccounts,
  decodeCancel,
  decodeFills,
  decodeKeyPermissions,
  decodeOrder,
  decodeOrderList,
  decodeProducts,
  decodeTransactionSummary,
  decodeWsMessage,
  fillsCover,
  fillsPath,
  findByClientOrderId,
  heartbeatsSubscription,
  KEY_PERMISSIONS_PATH,
  legReportOf,
  level2Subscription,
  mergeBalances,
  openOrdersPath,
  ORDERS_PATH,
  orderPath,
  orderTerms,
  PAGE,
  probeOf,
  productIdOf,
  productsPath,
  TRANSACTION_SUMMARY_PATH,
  type CoinbaseInstrument,
  type CoinbaseOrder,
} from './codec.ts';

const QUERY_TIMEOUT_MS = 3_000;
/** Order placement times out inside the router's 2 s leg timeout; the router then reconciles. */
const ORDER_TIMEOUT_MS = 1_500;
/**
 * Orders are signed with a token that lives 10 s (`nbf` the signing second, `exp` 10 s on),
 * where every other request's lives Coinbase's full two minutes. Coinbase checks the token
 * before it does anything with the request, and refuses it once `exp` has passed: an order
 * request still on its way 10 s after it was signed can no longer be placed, and no token
 * Coinbase would accept later than that exists. So a lookup that finds nothing after the
 * window is final. A clock ahead of Coinbase's stretches the window by as much: the edge's 1 s
 * margin after it covers up to a second (further ahead, `nbf` is in Coinbase's future and every
 * request is refused).
 */
const ORDER_JWT_LIFETIME_S = 10;
const ACCEPT_WINDOW_MS = ORDER_JWT_LIFETIME_S * 1_000;
/** Reads of an IOC until the engine is done with it and its fills cover its filled size. */
const SETTLE_POLL_MS = 20;
const SETTLE_POLLS = 10;
/** Child order ids remembered (a resting leg's poll reads by order id). */
const ORDER_IDS_KEPT = 10_000;
/** Pages read of any list (an account with 5,000 open orders is not ours to walk). */
const MAX_PAGES = 50;
/**
 * How far back a child is looked for by its client order id (List Orders' `start_date`): the
 * lookup is not told when the child was sent, and a day covers any answer lost in this run.
 */
const LOOKUP_SINCE_MS = 24 * 60 * 60 * 1_000;

/**
 * Coinbase's REST limits (https://docs.cdp.coinbase.com/coinbase-app/advanced-trade-apis/rest-api-rate-limits):
 * private endpoints 30 requests a second per user, public endpoints 10 a second per IP. Counted
 * in one-second windows, every client's requests together.
 */
const LIMIT_RULES = [
  { name: 'PRIVATE', limit: 30, window_ms: 1_000 },
  { name: 'PUBLIC', limit: 10, window_ms: 1_000 },
];
const COST = { private: [1], public: [0, 1] } as const;
/**
 * Messages sent on the market data socket: Coinbase takes 8 unauthenticated messages a second per
 * IP (https://docs.cdp.coinbase.com/coinbase-app/advanced-trade-apis/websocket/websocket-rate-limits),
 * and a connection gap resyncs every book at once, two messages each. A burst of 4 refilled at 4
 * a second never puts more than 8 in any second, however Coinbase counts its second.
 */
const WS_RULES = [{ name: 'WS_MESSAGES', limit: 4, decay_per_s: 4 }];

/**
 * Coinbase Advanced Trade spot: the public `level2` channel on the market data socket (a snapshot,
 * then absolute level updates; `coinbase/book-sync.ts`), every message held to the connection's
 * `sequence_num` (one count for all channels of a connection, so a loss breaks every book on it),
 * with `heartbeats` subscribed so quiet channels stay open. Orders over REST, each request
 * carrying a fresh ES256 JWT (`jwt.ts`) for its method, host and path, with our child id as
 * `client_order_id`. Create Order answers an order id only: the order and its fills are read
 * after it (Get Order, List Fills). docs/venues/coinbase.md.
 */
export class CoinbaseSpot extends StreamedVenue<CoinbaseBookSync, CoinbaseInstrument> implements LiveVenue {
  readonly venue: VenueId = 'coinbase';
  readonly acceptWindowMs = ACCEPT_WINDOW_MS;
  private readonly limits = new VenueLimits(LIMIT_RULES);
  private readonly wsLimits = new VenueLimits(WS_RULES);
  private readonly rest: VenueRest;
  /** The host tokens name (`api.coinbase.com`): the configured REST URL's, port included, which is what the request reaches. */
  private readonly host: string;
  /** The `sequence_num` check of the stream's current connection. */
  private readonly gate = new SequenceGate();
  /** child id -> Coinbase order id, for the orders this edge placed or found */
  private readonly orderIds = new Map<string, string>();

  constructor(endpoints: VenueEndpoints, listings: readonly FeedListing[]) {
    super(listings, {
      url: endpoints.ws,
      makeSync: (book, changes) => new CoinbaseBookSync(book, changes),
      // A resync is a fresh subscription: Coinbase answers it with a snapshot on the stream.
      resync: async (feed) => {
        if (!this.mayStream(feed)) throw new Error('products not read yet');
        await this.wsSend([level2Subscription('unsubscribe', [feed.venueSymbol]), level2Subscription('subscribe', [feed.venueSymbol])]);
        return false;
      },
    });
    this.rest = new VenueRest(endpoints.rest, this.limits, undefined, endpoints.headers);
    this.host = new URL(endpoints.rest).host;
  }

  // --- market data --------------------------------------------------------------------------

  protected venueSymbolOf(symbol: string): string {
    return productIdOf(symbol);
  }

  /**
   * A `-USDC` product with an `alias` trades on the `-USD` book, and Coinbase streams it under the
   * `-USD` product id: it is not streamed in this version (its book would be the `-USD` one under
   * another name, and unsubscribing it could take the `-USD` stream with it). Its listing is
   * dropped once the products are read, as one the venue does not trade.
   */
  protected override trades(venueSymbol: string): boolean {
    const instrument = this.instruments.get(venueSymbol);
    return super.trades(venueSymbol) && (instrument === undefined || instrument.bookProductId === instrument.symbol);
  }

  /**
   * Coinbase closes a connection that subscribes nothing within 5 s, and a channel idle for a
   * minute: heartbeats, once per connection (books or none), keep both open. A new connection
   * counts its sequence numbers from its own start.
   */
  protected override onStreamOpen(): void {
    this.gate.reset();
    void this.wsSend([heartbeatsSubscription()]).catch(() => undefined);
  }

  protected watch(feeds: readonly BookFeed<CoinbaseBookSync>[]): void {
    const messages: string[] = [];
    const products = feeds.filter((f) => this.mayStream(f)).map((f) => f.venueSymbol);
    if (products.length > 0) messages.push(level2Subscription('subscribe', products));
    // A feed held back until the products are read is expected too: its resync subscribes it then.
    this.wsSend(messages).then(
      () => {
        for (const feed of feeds) this.feeds.expect(feed);
      },
      () => undefined,
    );
  }

  protected unwatch(feed: BookFeed<CoinbaseBookSync>): void {
    // An alias was never subscribed (held back until the products said what it is).
    const instrument = this.instruments.get(feed.venueSymbol);
    if (instrument !== undefined && instrument.bookProductId !== instrument.symbol) return;
    this.wsSend([level2Subscription('unsubscribe', [feed.venueSymbol])]).catch(() => undefined);
  }

  protected onFrame(text: string): void {
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    const message = decodeWsMessage(frame);
    if (message === undefined) return;
    const ts_ns = message.ts_ns ?? Date.now() * 1_000_000;
    // Before anything in the message is applied: a number skipped on the connection may have been
    // any product's update. A message that cannot be trusted whole (`broken`) may have been too.
    const skipped = message.seq !== null && this.gate.observe(message.seq) === 'gap';
    const l2 = message.l2;
    if (skipped || l2?.broken === true) this.connectionGap(ts_ns);
    if (l2 === undefined || l2.broken) return; // heartbeats, subscriptions, errors; or nothing of it applied
    for (const event of l2.events) {
      const feed = this.feeds.ofVenueSymbol(event.product_id);
      if (feed === undefined) continue;
      this.feeds.counters.updates++;
      this.feeds.settle(feed, feed.sync.onEvent(event), ts_ns);
    }
    // A product whose levels could not be read exactly: its book is no longer known.
    for (const product of l2.unreadable) {
      const feed = this.feeds.ofVenueSymbol(product);
      if (feed !== undefined) this.feeds.settle(feed, feed.sync.onUnreadable(), ts_ns);
    }
  }

  protected async readInstruments(): Promise<(readonly [string, CoinbaseInstrument])[]> {
    const instruments: CoinbaseInstrument[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      // Public: the market endpoints take no token.
      const answer = await this.rest.send({ method: 'GET', path: productsPath(cursor), cost: COST.public, timeoutMs: QUERY_TIMEOUT_MS });
      const decoded = decodeProducts(answer.body);
      if (decoded === undefined) throw new Error(`products ${answer.status}`);
      instruments.push(...decoded.instruments);
      if (decoded.next_cursor === null) break;
      cursor = decoded.next_cursor;
    }
    if (instruments.length === 0) throw new Error('no products');
    return instruments.map((i) => [i.symbol, i] as const);
  }

  // --- orders -------------------------------------------------------------------------------

  async submit(account: VenueAccount, leg: LegRequest): Promise<LegReport> {
    const productId = productIdOf(leg.symbol);
    const instrument = await this.instrumentFor(productId);
    // Without the product's increments and minimums the order could only be guessed at.
    if (instrument === undefined) return refusedLeg(`coinbase: ${leg.symbol} is not (yet) known from the products list`);
    if (!instrument.trading) return refusedLeg(`coinbase: ${leg.symbol} takes no orders now (status ${instrument.status})`);
    const terms = orderTerms(instrument, leg.side, leg.qty_1e8, leg.limit_price_1e9);
    if (!terms.ok) return refusedLeg(terms.reason);
    const body = createOrderBody(productId, leg.child_id, leg.side, terms.terms, leg.time_in_force);
    if (body === undefined) return refusedLeg(`child id ${leg.child_id} has no Coinbase client_order_id`);
    let answer: RestAnswer;
    try {
      answer = await this.signed(account, 'POST', ORDERS_PATH, body, ORDER_TIMEOUT_MS, false, ORDER_JWT_LIFETIME_S);
    } catch (err) {
      // Refused as a whole (a key it does not take, a rate limit): nothing reached the book.
      if (err instanceof VenueRejection) return refusedLeg(err.reason);
      throw err;
    }
    const outcome = createOrderOutcome(answer.status, answer.body ?? answer.text);
    if (outcome.kind === 'refused') return refusedLeg(outcome.reason);
    if (outcome.kind === 'unknown') throw new RestFailure(outcome.reason, 'timeout');
    // 'exists': the order already under this client order id is the child's, found by that id.
    if (outcome.kind === 'placed') this.remember(leg.child_id, outcome.order_id);
    // The order is on the venue now: any failure from here leaves its fate to reconciliation,
    // never a refusal (a local rate limit on the read included).
    try {
      const found = await this.settled(account, leg.child_id, productId, leg.time_in_force === 'ioc');
      if (!found.found) throw new Error('placed but not found');
      return found.report;
    } catch (err) {
      throw new RestFailure(`order placed, its state not read: ${(err as Error).message}`, 'timeout');
    }
  }

  async lookup(account: VenueAccount, child_id: string, symbol: string, knownFilled_1e8?: number): Promise<OrderLookup> {
    if (coinbaseClientOrderId(child_id) === undefined) return { found: false };
    return this.settled(account, child_id, productIdOf(symbol), false, knownFilled_1e8);
  }

  async cancel(account: VenueAccount, child_id: string, symbol: string): Promise<{ found: boolean; cancelled_qty_1e8: number }> {
    if (coinbaseClientOrderId(child_id) === undefined) return { found: false, cancelled_qty_1e8: 0 };
    const productId = productIdOf(symbol);
    const before = await this.order(account, child_id, productId);
    if (before === undefined || before.resting_qty_1e8 === 0) return { found: false, cancelled_qty_1e8: 0 };
    const answer = await this.signed(account, 'POST', CANCEL_PATH, cancelBody([before.order_id]), QUERY_TIMEOUT_MS, true);
    const row = decodeCancel(answer.body)?.find((r) => r.order_id === before.order_id);
    if (row === undefined) throw new RestFailure('unreadable batch_cancel answer', 'timeout');
    if (row.outcome === 'refused') throw new VenueRejection(`coinbase ${row.failure_reason ?? 'cancel refused'}`);
    // Filled or cancelled since it was read: nothing of it was cancelled here.
    if (row.outcome !== 'requested') return { found: false, cancelled_qty_1e8: 0 };
    const after = await this.order(account, child_id, productId);
    return cancelledBetween(before, after);
  }

  async ownOpenOrders(account: VenueAccount): Promise<{ child_id: string; symbol: string }[]> {
    const out: { child_id: string; symbol: string }[] = [];
    for (const order of await this.openOrders(account)) {
      if (order.child_id === null || !this.listings.has(order.product_id)) continue;
      this.remember(order.child_id, order.order_id);
      out.push({ child_id: order.child_id, symbol: order.product_id });
    }
    return out;
  }

  /**
   * Every open order of the account on these symbols, ours or placed by hand (the kill switch):
   * `batch_cancel` by order id, 100 a request. A row Coinbase refuses is reported once every
   * batch was sent, so one refusal does not leave the other orders working.
   */
  async cancelAll(account: VenueAccount, symbols: readonly string[]): Promise<number> {
    const wanted = new Set(symbols.map(productIdOf));
    const ids = (await this.openOrders(account)).filter((o) => wanted.has(o.product_id)).map((o) => o.order_id);
    let cancelled = 0;
    const refusals: string[] = [];
    for (let i = 0; i < ids.length; i += CANCEL_BATCH_MAX) {
      const answer = await this.signed(account, 'POST', CANCEL_PATH, cancelBody(ids.slice(i, i + CANCEL_BATCH_MAX)), QUERY_TIMEOUT_MS, true);
      const rows = decodeCancel(answer.body);
      if (rows === undefined) throw new RestFailure('unreadable batch_cancel answer', 'timeout');
      for (const row of rows) {
        if (row.outcome === 'requested') cancelled++;
        else if (row.outcome === 'refused') refusals.push(row.failure_reason ?? 'refused');
      }
    }
    if (refusals.length > 0) throw new VenueRejection(`coinbase: ${refusals.length} orders not cancelled (${refusals[0]})`);
    return cancelled;
  }

  async balances(account: VenueAccount): Promise<AssetBalance[]> {
    const rows: AssetBalance[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = await this.signed(account, 'GET', accountsPath(cursor), undefined, QUERY_TIMEOUT_MS, true);
      const decoded = decodeAccounts(answer.body);
      if (decoded === undefined) throw new RestFailure('unreadable accounts answer', 'network');
      rows.push(...decoded.balances);
      if (decoded.next_cursor === null) return mergeBalances(rows);
      cursor = decoded.next_cursor;
    }
    throw new RestFailure(`accounts: more than ${MAX_PAGES} pages`, 'network');
  }

  /** The fee tier (transaction summary) and what the key may do (key permissions). */
  async probe(account: VenueAccount): Promise<AccountProbe> {
    const summary = decodeTransactionSummary((await this.signed(account, 'GET', TRANSACTION_SUMMARY_PATH, undefined, QUERY_TIMEOUT_MS, true)).body);
    if (summary === undefined) throw new RestFailure('unreadable transaction_summary answer', 'network');
    const permissions = decodeKeyPermissions((await this.signed(account, 'GET', KEY_PERMISSIONS_PATH, undefined, QUERY_TIMEOUT_MS, true)).body);
    if (permissions === undefined) throw new RestFailure('unreadable key_permissions answer', 'network');
    return probeOf(summary, permissions);
  }

  // --- reads --------------------------------------------------------------------------------

  /** The order and its fills, read again while an IOC is still working or its fills lag its filled size. */
  private async settled(account: VenueAccount, child_id: string, productId: string, ioc: boolean, knownFilled_1e8?: number): Promise<OrderLookup> {
    for (let poll = 0; ; poll++) {
      const order = await this.order(account, child_id, productId);
      if (order === undefined) return { found: false };
      const inEngine = ioc && order.working;
      // Nothing executed since the caller was told: the fills need no read (a resting leg's poll).
      if (order.filled_qty_1e8 === knownFilled_1e8 && !inEngine) return { found: true, report: legReportOf(order, []) };
      const fills = order.filled_qty_1e8 > 0 ? await this.fillsOf(account, order.order_id) : [];
      const complete = fillsCover(order, fills);
      if ((complete && !inEngine) || poll >= SETTLE_POLLS) {
        if (!complete || inEngine) throw new RestFailure(`order ${order.order_id} not settled`, 'timeout');
        return { found: true, report: legReportOf(order, fills) };
      }
      await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
    }
  }

  /**
   * The child's order. By its order id when this edge placed or found it (Get Order); otherwise
   * (an answer lost, a restart) among the product's orders of the last day, page after page, by
   * client order id: Get Order takes no client order id and List Orders does not filter by one.
   */
  private async order(account: VenueAccount, child_id: string, productId: string): Promise<CoinbaseOrder | undefined> {
    const orderId = this.orderIds.get(child_id);
    if (orderId !== undefined) return this.orderById(account, orderId);
    const clientOrderId = coinbaseClientOrderId(child_id);
    if (clientOrderId === undefined) return undefined;
    const since = Date.now() - LOOKUP_SINCE_MS;
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = await this.signed(account, 'GET', clientOrderLookupPath(productId, since, cursor), undefined, QUERY_TIMEOUT_MS, true);
      const list = decodeOrderList(answer.body);
      if (list === undefined) throw new RestFailure('unreadable List Orders answer', 'network');
      const order = findByClientOrderId(list.orders, clientOrderId);
      if (order !== undefined) {
        this.remember(child_id, order.order_id);
        return order;
      }
      if (list.next_cursor === null) return undefined;
      cursor = list.next_cursor;
    }
    // Not every page read: its absence would be a guess.
    throw new RestFailure(`${productId} orders: more than ${MAX_PAGES} pages`, 'network');
  }

  private async orderById(account: VenueAccount, orderId: string): Promise<CoinbaseOrder | undefined> {
    let answer: RestAnswer;
    try {
      answer = await this.signed(account, 'GET', orderPath(orderId), undefined, QUERY_TIMEOUT_MS, true);
    } catch (err) {
      if (err instanceof VenueRejection && err.unknownOrder) return undefined;
      throw err;
    }
    const order = decodeOrder(answer.body);
    if (order === undefined) throw new RestFailure('unreadable Get Order answer', 'network');
    return order;
  }

  /** A child's order id, so later reads of it are one Get Order; the oldest forgotten past ORDER_IDS_KEPT. */
  private remember(child_id: string, orderId: string): void {
    if (this.orderIds.has(child_id)) return;
    this.orderIds.set(child_id, orderId);
    if (this.orderIds.size > ORDER_IDS_KEPT) this.orderIds.delete(this.orderIds.keys().next().value!);
  }

  private async openOrders(account: VenueAccount): Promise<CoinbaseOrder[]> {
    const orders: CoinbaseOrder[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = await this.signed(account, 'GET', openOrdersPath(cursor), undefined, QUERY_TIMEOUT_MS, true);
      const list = decodeOrderList(answer.body);
      if (list === undefined) throw new RestFailure('unreadable List Orders answer', 'network');
      orders.push(...list.orders);
      if (list.next_cursor === null) return orders;
      cursor = list.next_cursor;
    }
    throw new RestFailure(`open orders: more than ${MAX_PAGES} pages`, 'network');
  }

  /** The order's fills (List Fills by order id, paged), oldest first. */
  private async fillsOf(account: VenueAccount, orderId: string): Promise<VenueFill[]> {
    const fills: VenueFill[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = await this.signed(account, 'GET', fillsPath([orderId], cursor), undefined, QUERY_TIMEOUT_MS, true);
      const decoded = decodeFills(answer.body, { orderId, limit: PAGE });
      if (decoded === undefined) throw new RestFailure('unreadable List Fills answer', 'network');
      fills.push(...decoded.fills);
      if (decoded.next_cursor === null) return fills.sort((a, b) => a.ts_ns - b.ts_ns);
      cursor = decoded.next_cursor;
    }
    throw new RestFailure(`fills of ${orderId}: more than ${MAX_PAGES} pages`, 'network');
  }

  // --- transport ----------------------------------------------------------------------------

  /**
   * A private request with its own token: the credential is parsed here and dropped with the
   * request (a replaced key signs the next one). A key that does not parse is refused before
   * anything is sent. Coinbase's 401/403 (a token or key it does not take) and 429 refuse before
   * anything else; 408, a 5xx or no answer leave a write's fate unknown. `strict`: any other
   * error answer is a rejection too (reads and cancels); Create Order's is decoded by the caller.
   */
  private async signed(account: VenueAccount, method: 'GET' | 'POST', path: string, body: string | undefined, timeoutMs: number, strict: boolean, lifetimeS?: number): Promise<RestAnswer> {
    let key: CoinbaseKey;
    try {
      key = coinbaseKey(account.credentials);
    } catch (err) {
      throw new VenueRejection((err as Error).message);
    }
    const token = await restJwt(key, method, this.host, path, Math.floor(Date.now() / 1_000), jwtNonce(), lifetimeS);
    const answer = await this.rest.send({
      method,
      path,
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body }),
      cost: COST.private,
      timeoutMs,
    });
    const error = coinbaseError(answer.status, answer.body ?? answer.text);
    if (error === undefined) return answer;
    if (error.kind === 'fate-unknown') throw new RestFailure(`${error.reason}: fate unknown`, 'timeout');
    if (strict || error.kind === 'auth' || error.kind === 'rate-limit') throw new VenueRejection(error.reason, error.kind === 'no-such-order');
    return answer;
  }

  /** Sends on the market data socket within Coinbase's message rate, waiting for room; rejects once the socket is closed. */
  private async wsSend(messages: readonly string[]): Promise<void> {
    if (messages.length === 0) return;
    for (;;) {
      if (this.stopped) throw new Error('stopped');
      const wait = this.wsLimits.admit([messages.length], Date.now());
      if (wait === 0) break;
      await new Promise<void>((resolve) => setTimeout(resolve, wait).unref());
    }
    for (const message of messages) if (!this.stream.send(message)) throw new Error('stream closed');
  }

  /** Until the products are read, a `-USDC` listing may be an alias (see `trades`): it is not subscribed yet. */
  private mayStream(feed: BookFeed<CoinbaseBookSync>): boolean {
    return this.instruments.size > 0 || feed.listing.quote !== 'USDC';
  }

  /** A message was lost on the connection: any product's update may have been in it, so every book resyncs. */
  private connectionGap(ts_ns: number): void {
    for (const feed of this.feeds.all()) this.feeds.settle(feed, feed.sync.onConnectionGap(), ts_ns);
  }
}
