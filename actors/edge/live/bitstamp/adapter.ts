import { randomUUID } from 'node:crypto';
import type { VenueId } from '../../../../domain/market.ts';
import { RecentMap } from '../../../../domain/recent.ts';
import type { BookFeed, FeedListing } from '../book-feeds.ts';
import type { VenueEndpoints } from '../endpoints.ts';
import { RestFailure, VenueRest, type RestAnswer } from '../rest.ts';
import { StreamedVenue } from '../streamed-venue.ts';
import { VenueLimits } from '../venue-limits.ts';
import { refusedLeg, VenueRejection, type AccountProbe, type AssetBalance, type LegReport, type LegRequest, type LiveVenue, type OrderLookup, type VenueAccount } from '../venue.ts';
import { BitstampBookSync } from './book-sync.ts';
import {
  ACCOUNT_REFUSED_CODES,
  DIFF_PREFIX,
  HEARTBEAT_EVERY_MS,
  HEARTBEAT_FRAME,
  LIMIT_RULES,
  NO_PERMISSION_CODE,
  PATHS,
  bitstampClientOrderId,
  bitstampError,
  cancelAllPath,
  cancelOrderBody,
  classifyFailure,
  decodeAccountBalances,
  decodeCancel,
  decodeCancelAll,
  decodeFrame,
  decodeMarkets,
  decodeOpenOrders,
  decodeOrderAck,
  decodeOrderBook,
  decodeOrderStatus,
  decodeTradingFees,
  diffChannel,
  executedOf,
  legReportOf,
  limitOrderPath,
  marketOrderPath,
  orderBody,
  orderBookPath,
  orderStatusBody,
  orderTerms,
  probeOf,
  reasonOf,
  subscriptionFrame,
  venueSymbolOf,
  type BitstampInstrument,
  type BitstampOpenOrder,
  type BitstampOrder,
  type LiquidityHint,
  type OrderRef,
} from './codec.ts';
import { acceptDeadlineMs, checkAnswer, signRequest, type SignedRequest } from './signing.ts';

const QUERY_TIMEOUT_MS = 3_000;
/** Order placement times out inside the router's 2 s leg timeout; the router then reconciles. */
const ORDER_TIMEOUT_MS = 1_500;
/**
 * The gateway refuses a request whose X-Auth-Timestamp is more than 150 s from its clock
 * (API0017), so an order request not taken by then never will be: 150 s, and 5 s for this
 * edge's clock running ahead of the venue's. The stamp is taken when the child is signed, right
 * as it is sent (`sent_ms` in orders.ts is taken just before; its 1 s margin covers the gap).
 */
const ACCEPT_WINDOW_MS = acceptDeadlineMs(0);
/** Reads of an order until an IOC is done and its transactions agree with what it executed. */
const SETTLE_POLL_MS = 20;
const SETTLE_POLLS = 10;
/** Reads of a cancelled order until it is no longer `Cancel pending`. */
const CANCEL_POLL_MS = 40;
const CANCEL_POLLS = 25;
/** A `bts:subscribe` not acknowledged within this is sent again. */
const SUBSCRIBE_TIMEOUT_MS = 5_000;
/** How long a resync waits, after the subscription succeeded, for a first diff to buffer (JKorf's book waits a second). */
const FIRST_DIFF_WAIT_MS = 1_000;
const FIRST_DIFF_POLL_MS = 25;
/**
 * After 400.002 (or 400.067, 400.068) nothing is sent for this long. The venue names neither
 * the rule it counted nor a reset time; 10 s outlasts the per-second rule and lets the 10-minute
 * counter drain by some 130 requests.
 */
const RATE_LIMITED_MS = 10_000;
/** "This API call is cached for 10 seconds" (open orders), and a margin for the venue's clock. */
const OPEN_ORDERS_CACHE_MS = 12_000;
/** The account's maker and taker rates, read with `fees/trading`, kept this long; a read that failed is tried again after a minute. */
const RATES_KEPT_MS = 3_600_000;
const RATES_RETRY_MS = 60_000;
/** Every request counts once on each of the venue's two rules (per second, per ten minutes). */
const COST = [1, 1] as const;
const CHILDREN_KEPT = 20_000;

/** A child this process sent: what the venue cannot tell back (`order_status` has no original amount). */
interface SentChild {
  /** the amount sent, after `orderTerms` cut it to the market's decimals */
  amount_1e8: number;
  /** a market order is an IOC here: it never rests */
  tif: 'ioc' | 'gtc';
  sent_ms: number;
  /** Bitstamp's order id, once an answer named it */
  id?: string;
}

/**
 * The children sent, by child id, kept at module level as orders.ts keeps its own: an actor
 * restart makes a fresh adapter, and its lookups and cancels still need each child's amount and
 * the venue's id.
 */
const CHILDREN = new RecentMap<string, SentChild>(CHILDREN_KEPT);
/** When a resting child was last sent, by key and market (`api_key|btcusd`): the kill switch's pairs the cached open orders may not list yet. */
const RESTING_SENT = new Map<string, number>();

/** An error answer that is the venue's refusal: its code, for what the caller learns of the key. */
class BitstampRefusal extends VenueRejection {
  constructor(
    reason: string,
    readonly code: string,
    unknownOrder = false,
  ) {
    super(reason, unknownOrder);
  }
}

/**
 * Bitstamp spot: the public `diff_order_book_<pair>` channel of `wss://ws.bitstamp.net` (full
 * depth, changed levels only, stamped by `microtimestamp`, no sequence number) over the REST
 * snapshot `GET /api/v2/order_book/<pair>/`, asked only once the subscription succeeded
 * (`bitstamp/book-sync.ts`); `bts:heartbeat` on a quiet socket and a reconnect on
 * `bts:request_reconnect`. Orders over signed REST (`X-Auth*` headers, HMAC-SHA256 v2, and every
 * 200 answer's `X-Server-Auth-Signature` checked: `bitstamp/signing.ts`) with our child id as the
 * `client_order_id`. An order's answer is an acknowledgement: its fills are read back from
 * `order_status`. docs/venues/bitstamp.md.
 */
export class BitstampSpot extends StreamedVenue<BitstampBookSync, BitstampInstrument> implements LiveVenue {
  readonly venue: VenueId = 'bitstamp';
  readonly acceptWindowMs = ACCEPT_WINDOW_MS;
  private readonly limits = new VenueLimits(LIMIT_RULES);
  private readonly rest: VenueRest;
  /** the stream's connections so far: a snapshot asked on one is no good on the next */
  private connection = 0;
  /** channels (by venue symbol) this connection acknowledged */
  private readonly acked = new Set<string>();
  /** channels subscribed on this connection, not yet acknowledged, and when they were asked */
  private readonly asked = new Map<string, number>();
  /** resyncs waiting for their channel's acknowledgement */
  private readonly waiting = new Map<string, Set<{ resolve(connection: number): void; reject(err: Error): void }>>();
  /** keys whose order was refused for the key's rights or the account's state (API0003, 403.001, 403.004) */
  private readonly cannotTrade = new Set<string>();
  /** each key's rates by market symbol, as `fees/trading` answered them */
  private readonly rates = new Map<string, { at_ms: number; byMarket: Map<string, { maker_bps: number; taker_bps: number }> | undefined }>();

  constructor(
    endpoints: VenueEndpoints,
    listings: readonly FeedListing[],
    private readonly fees: { maker_bps: number; taker_bps: number },
  ) {
    super(listings, {
      url: endpoints.ws,
      makeSync: (book, changes) => new BitstampBookSync(book, changes),
      resync: (feed) => this.fetchSnapshot(feed),
      // The diff channel says nothing while a book does not change (49 s seen on a quiet market):
      // the socket is kept talking so the 30 s watchdog only fires on a dead one.
      ping: { text: HEARTBEAT_FRAME, everyMs: HEARTBEAT_EVERY_MS },
    });
    this.rest = new VenueRest(endpoints.rest, this.limits, undefined, endpoints.headers);
  }

  // --- market data --------------------------------------------------------------------------

  protected venueSymbolOf(symbol: string): string {
    // A symbol that is not BASE-QUOTE gets a name no market has: the instrument list drops it.
    return venueSymbolOf(symbol) ?? `not-a-market:${symbol}`;
  }

  protected override onStreamOpen(): void {
    this.connection++;
    this.acked.clear();
    this.asked.clear();
  }

  /** One `bts:subscribe` a channel, then each book's resync, which waits for the acknowledgement. */
  protected watch(feeds: readonly BookFeed<BitstampBookSync>[]): void {
    for (const feed of feeds) {
      this.ask(feed.venueSymbol);
      this.feeds.resync(feed);
    }
  }

  protected unwatch(feed: BookFeed<BitstampBookSync>): void {
    const channel = channelOf(feed.venueSymbol);
    if (channel !== undefined) this.stream.send(subscriptionFrame('bts:unsubscribe', channel));
    this.acked.delete(feed.venueSymbol);
    this.asked.delete(feed.venueSymbol);
  }

  protected onFrame(text: string): void {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return;
    }
    const frame = decodeFrame(raw);
    if (frame === undefined) return;
    switch (frame.kind) {
      case 'diff': {
        const feed = this.feeds.ofVenueSymbol(frame.venueSymbol);
        if (feed === undefined) return;
        this.feeds.counters.updates++;
        this.feeds.settle(feed, feed.sync.onDiff(frame.diff), frame.diff.ts_ms * 1_000_000);
        return;
      }
      case 'unreadable': {
        const feed = this.feeds.ofVenueSymbol(frame.venueSymbol);
        if (feed !== undefined) this.feeds.settle(feed, feed.sync.onUnreadable(), Date.now() * 1_000_000);
        return;
      }
      case 'subscribed': {
        const venueSymbol = venueSymbolOfChannel(frame.channel);
        if (venueSymbol === undefined) return;
        this.acked.add(venueSymbol);
        this.asked.delete(venueSymbol);
        this.settleWaiters(venueSymbol, (w) => w.resolve(this.connection));
        return;
      }
      case 'error': {
        const venueSymbol = venueSymbolOfChannel(frame.channel);
        if (venueSymbol === undefined) return;
        this.asked.delete(venueSymbol);
        this.settleWaiters(venueSymbol, (w) => w.reject(new Error(`bts:error ${frame.message}`)));
        return;
      }
      case 'reconnect':
        // The venue's maintenance notice: it closes the socket soon; a new one resyncs every book.
        this.stream.drop('bts:request_reconnect');
        return;
      default:
        return;
    }
  }

  private ask(venueSymbol: string): boolean {
    const channel = channelOf(venueSymbol);
    if (channel === undefined || !this.stream.send(subscriptionFrame('bts:subscribe', channel))) return false;
    this.asked.set(venueSymbol, Date.now());
    return true;
  }

  private settleWaiters(venueSymbol: string, settle: (w: { resolve(connection: number): void; reject(err: Error): void }) => void): void {
    const waiters = this.waiting.get(venueSymbol);
    if (waiters === undefined) return;
    this.waiting.delete(venueSymbol);
    for (const w of waiters) settle(w);
  }

  /** The connection on which the channel is acknowledged: at once when it already is, else once it is (subscribing again when no request is out). */
  private subscribed(venueSymbol: string): Promise<number> {
    if (this.acked.has(venueSymbol)) return Promise.resolve(this.connection);
    const askedAt = this.asked.get(venueSymbol);
    if ((askedAt === undefined || Date.now() - askedAt >= SUBSCRIBE_TIMEOUT_MS) && !this.ask(venueSymbol)) return Promise.reject(new Error(`${venueSymbol}: not subscribed (stream closed)`));
    return new Promise<number>((resolve, reject) => {
      let waiters = this.waiting.get(venueSymbol);
      if (waiters === undefined) this.waiting.set(venueSymbol, (waiters = new Set()));
      const waiter = {
        resolve: (connection: number) => {
          clearTimeout(timer);
          resolve(connection);
        },
        reject: (err: Error) => {
          clearTimeout(timer);
          reject(err);
        },
      };
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        if (waiters.size === 0 && this.waiting.get(venueSymbol) === waiters) this.waiting.delete(venueSymbol);
        reject(new Error(`${DIFF_PREFIX}${venueSymbol}: no bts:subscription_succeeded within ${SUBSCRIBE_TIMEOUT_MS} ms`));
      }, SUBSCRIBE_TIMEOUT_MS);
      timer.unref();
      waiters.add(waiter);
    });
  }

  /**
   * A REST snapshot into the feed's sync, asked only after this connection's subscription
   * succeeded: one asked before may predate the first diff the stream will send, and with
   * nothing buffered the sync could not tell. It waits up to a second for a first diff, so a
   * snapshot the REST side serves late is found `stale` against it rather than taken.
   */
  private async fetchSnapshot(feed: BookFeed<BitstampBookSync>): Promise<boolean> {
    const connection = await this.subscribed(feed.venueSymbol);
    for (let waited = 0; waited < FIRST_DIFF_WAIT_MS && feed.sync.buffered === 0 && connection === this.connection; waited += FIRST_DIFF_POLL_MS) {
      await new Promise((resolve) => setTimeout(resolve, FIRST_DIFF_POLL_MS));
    }
    if (!this.feeds.connected || connection !== this.connection) return true;
    const answer = await this.rest.send({ method: 'GET', path: orderBookPath(feed.venueSymbol), cost: COST, timeoutMs: QUERY_TIMEOUT_MS });
    const snapshot = answer.status === 200 ? decodeOrderBook(answer.body) : undefined;
    if (snapshot === undefined) throw new Error(`order_book ${answer.status}: ${reasonOfAnswer(answer)}`);
    // The stream went down or came back meanwhile: this snapshot may predate the new subscription.
    if (!this.feeds.connected || connection !== this.connection) return true;
    this.feeds.settle(feed, feed.sync.onSnapshot(snapshot.microtimestamp, snapshot.bids, snapshot.asks), Math.floor(snapshot.microtimestamp / 1_000) * 1_000_000);
    return true;
  }

  /** `GET /api/v2/markets/` (trading-pairs-info is obsolete since 2024): spot markets only. */
  protected async readInstruments(): Promise<(readonly [string, BitstampInstrument])[]> {
    const answer = await this.rest.send({ method: 'GET', path: PATHS.markets, cost: COST, timeoutMs: QUERY_TIMEOUT_MS });
    const instruments = answer.status === 200 ? decodeMarkets(answer.body) : [];
    if (instruments.length === 0) throw new Error(`markets ${answer.status}: ${reasonOfAnswer(answer)}`);
    return instruments.map((i) => [i.venueSymbol, i] as const);
  }

  // --- orders -------------------------------------------------------------------------------

  async submit(account: VenueAccount, leg: LegRequest): Promise<LegReport> {
    const venueSymbol = venueSymbolOf(leg.symbol);
    const instrument = venueSymbol === undefined ? undefined : await this.instrumentFor(venueSymbol);
    // Without the market's decimals and minimum the order could only be guessed at.
    if (venueSymbol === undefined || instrument === undefined) return refusedLeg(`bitstamp: ${leg.symbol} is not (yet) known from markets`);
    if (!instrument.trading) return refusedLeg(`bitstamp: trading on ${venueSymbol} is disabled`);
    if (leg.limit_price_1e9 === null && !instrument.market_orders) return refusedLeg(`bitstamp: market orders on ${venueSymbol} are disabled`);
    const terms = orderTerms(instrument, leg.side, leg.qty_1e8, leg.limit_price_1e9);
    if (!terms.ok) return refusedLeg(terms.reason);
    const body = orderBody(leg.child_id, terms.terms, leg.time_in_force);
    if (body === undefined) return refusedLeg(`child id ${leg.child_id} is not a Bitstamp client_order_id`);
    const path = terms.terms.price_1e9 === null ? marketOrderPath(leg.side, venueSymbol) : limitOrderPath(leg.side, venueSymbol);
    // Remembered before it is sent: a lost answer is looked up, and its fills checked, with it.
    const child: SentChild = { amount_1e8: terms.terms.amount_1e8, tif: terms.terms.price_1e9 === null ? 'ioc' : leg.time_in_force, sent_ms: Date.now() };
    CHILDREN.set(leg.child_id, child, child.sent_ms);
    if (child.tif === 'gtc') RESTING_SENT.set(`${account.credentials.api_key}|${venueSymbol}`, child.sent_ms);
    // Sent once, whatever happens: Bitstamp takes a repeated client_order_id since November 2023,
    // so a second send could be a second order. A failure is reconciled by the id instead.
    let answer: RestAnswer;
    try {
      answer = await this.signed(account, path, body, ORDER_TIMEOUT_MS);
    } catch (err) {
      if (err instanceof BitstampRefusal && (err.code === NO_PERMISSION_CODE || ACCOUNT_REFUSED_CODES.has(err.code))) this.cannotTrade.add(account.credentials.api_key);
      // Refused as a whole (the gateway's auth, a rate limit, the order's terms): nothing reached the book.
      if (err instanceof VenueRejection) return refusedLeg(err.reason);
      throw err;
    }
    const ack = decodeOrderAck(answer.status, answer.body);
    if (ack === undefined || !ack.ok) throw new RestFailure('unreadable order answer: fate unknown', 'timeout');
    child.id = ack.id;
    this.cannotTrade.delete(account.credentials.api_key);
    // The order is on the venue now: any failure from here leaves its fate to reconciliation.
    try {
      const found = await this.settled(account, leg.child_id, leg.symbol, child);
      if (!found.found) throw new Error('placed but not found');
      return found.report;
    } catch (err) {
      throw new RestFailure(`order placed, its state not read: ${(err as Error).message}`, 'timeout');
    }
  }

  async lookup(account: VenueAccount, child_id: string, symbol: string, knownFilled_1e8?: number): Promise<OrderLookup> {
    if (bitstampClientOrderId(child_id) === undefined) return { found: false };
    // A resting leg's poll (it knows what filled) is background: it must leave requests for orders and cancels.
    return this.settled(account, child_id, symbol, CHILDREN.get(child_id), knownFilled_1e8 !== undefined);
  }

  /**
   * `cancel_order`, then the order read again: what rested when the cancel took is its
   * `amount_remaining` once `Canceled` (the answer's `amount` is not documented as either what
   * was cancelled or what was ordered). An order gone already (filled or cancelled) is not found.
   */
  async cancel(account: VenueAccount, child_id: string, symbol: string): Promise<{ found: boolean; cancelled_qty_1e8: number }> {
    if (bitstampClientOrderId(child_id) === undefined) return { found: false, cancelled_qty_1e8: 0 };
    const child = CHILDREN.get(child_id);
    let answer: RestAnswer;
    try {
      answer = await this.signed(account, PATHS.cancelOrder, cancelOrderBody(refOf(child_id, child)), QUERY_TIMEOUT_MS);
    } catch (err) {
      if (err instanceof VenueRejection && err.unknownOrder) return { found: false, cancelled_qty_1e8: 0 };
      throw err;
    }
    const ack = decodeCancel(answer.body);
    if (ack === undefined) throw new RestFailure('unreadable cancel_order answer', 'timeout');
    if (child !== undefined) child.id ??= ack.id;
    for (let poll = 0; ; poll++) {
      const order = await this.orderStatus(account, { id: ack.id }, symbol, { tif: child?.tif ?? 'gtc' }, true);
      if (order === undefined) throw new RestFailure(`order ${ack.id} cancelled, then not found`, 'timeout');
      if (!order.working) {
        const cancelled = order.status === 'Canceled' || order.status === 'Expired' ? order.remaining_1e8 : 0;
        return { found: cancelled > 0, cancelled_qty_1e8: cancelled };
      }
      if (poll >= CANCEL_POLLS) throw new RestFailure(`order ${ack.id}: cancel still pending`, 'timeout');
      await new Promise((resolve) => setTimeout(resolve, CANCEL_POLL_MS));
    }
  }

  async ownOpenOrders(account: VenueAccount): Promise<{ child_id: string; symbol: string }[]> {
    const out: { child_id: string; symbol: string }[] = [];
    for (const order of await this.openOrders(account)) {
      if (order.child_id !== null && this.listings.has(order.symbol)) out.push({ child_id: order.child_id, symbol: order.symbol });
    }
    return out;
  }

  /**
   * Every open order of the account on these symbols, ours or placed by hand (the kill switch):
   * `cancel_all_orders/<pair>/` on each of our pairs with an open order (the one without a pair
   * would also take the account's other markets). The open orders are cached 10 s by the venue,
   * so a pair this edge sent a resting order to since then is cancelled too, listed or not.
   */
  async cancelAll(account: VenueAccount, symbols: readonly string[]): Promise<number> {
    const wanted = new Set(symbols);
    const pairs = new Set<string>();
    for (const order of await this.openOrders(account)) {
      const venueSymbol = wanted.has(order.symbol) ? venueSymbolOf(order.symbol) : undefined;
      if (venueSymbol !== undefined) pairs.add(venueSymbol);
    }
    const since = Date.now() - OPEN_ORDERS_CACHE_MS;
    for (const symbol of wanted) {
      const venueSymbol = venueSymbolOf(symbol);
      if (venueSymbol !== undefined && (RESTING_SENT.get(`${account.credentials.api_key}|${venueSymbol}`) ?? 0) >= since) pairs.add(venueSymbol);
    }
    let cancelled = 0;
    const failed: string[] = [];
    for (const venueSymbol of pairs) {
      const answer = await this.signed(account, cancelAllPath(venueSymbol), '', QUERY_TIMEOUT_MS);
      const done = decodeCancelAll(answer.body);
      if (done === undefined) throw new RestFailure(`unreadable cancel_all_orders/${venueSymbol}/ answer`, 'network');
      cancelled += done.ids.length;
      if (!done.success) failed.push(venueSymbol);
    }
    // "success: true if all orders were successfully canceled": what did cancel is counted, the rest told.
    if (failed.length > 0) throw new VenueRejection(`bitstamp: cancel_all_orders answered success false on ${failed.join(', ')} (${cancelled} cancelled)`);
    return cancelled;
  }

  async balances(account: VenueAccount): Promise<AssetBalance[]> {
    const answer = await this.signed(account, PATHS.accountBalances, '', QUERY_TIMEOUT_MS);
    const balances = decodeAccountBalances(answer.body);
    if (balances === undefined) throw new RestFailure('unreadable account_balances answer', 'network');
    return balances;
  }

  /**
   * The account's rates on a market we list (`fees/trading`). Bitstamp has no read of a key's
   * permissions: `can_withdraw` is unknown, and `can_trade` is false only once an order of this
   * key was refused for its rights or the account's state.
   */
  async probe(account: VenueAccount): Promise<AccountProbe> {
    const byMarket = await this.readRates(account);
    if (byMarket === undefined) throw new RestFailure('unreadable fees/trading answer', 'network');
    const listed = [...this.listings.keys()].map((s) => venueSymbolOf(s)).find((v) => v !== undefined && byMarket.has(v));
    return probeOf(listed === undefined ? undefined : byMarket.get(listed), this.fees, !this.cannotTrade.has(account.credentials.api_key));
  }

  // --- reads --------------------------------------------------------------------------------

  /**
   * The child's `order_status`, read again while an IOC is still working or its transactions do
   * not add up to what it executed (its amount sent less `amount_remaining`). The transactions
   * come in the same answer as the amount left, so one read is the whole picture once they agree.
   */
  private async settled(account: VenueAccount, child_id: string, symbol: string, child: SentChild | undefined, background = false): Promise<OrderLookup> {
    const tif = child?.tif ?? 'gtc';
    const hint: LiquidityHint = tif === 'ioc' ? { tif } : { tif, rates: await this.ratesOf(account, venueSymbolOf(symbol)) };
    for (let poll = 0; ; poll++) {
      const order = await this.orderStatus(account, refOf(child_id, child), symbol, hint, false, background);
      if (order === undefined) return { found: false };
      if (child !== undefined) child.id ??= order.id;
      const filled = order.fills.reduce((sum, f) => sum + f.qty_1e8, 0);
      // Without the amount sent (a child this process did not send) the venue's word is taken as it is.
      const agrees = child === undefined || filled === executedOf(order, child.amount_1e8);
      const working = tif === 'ioc' && order.working;
      if (agrees && !working) return { found: true, report: legReportOf(order) };
      if (poll >= SETTLE_POLLS) throw new RestFailure(`order ${child_id} not settled`, 'timeout');
      await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
    }
  }

  /** `order_status` of one order; undefined when the venue has none by that reference. */
  private async orderStatus(account: VenueAccount, ref: OrderRef, symbol: string, hint: LiquidityHint, omitTransactions: boolean, background = false): Promise<BitstampOrder | undefined> {
    let answer: RestAnswer;
    try {
      answer = await this.signed(account, PATHS.orderStatus, orderStatusBody(ref, omitTransactions), QUERY_TIMEOUT_MS, background);
    } catch (err) {
      if (err instanceof VenueRejection && err.unknownOrder) return undefined;
      throw err;
    }
    const base = this.listings.get(symbol)?.base ?? symbol.split('-')[0] ?? '';
    const order = decodeOrderStatus(answer.body, { base }, hint);
    if (order === undefined) throw new RestFailure('unreadable order_status answer', 'network');
    return order;
  }

  private async openOrders(account: VenueAccount): Promise<BitstampOpenOrder[]> {
    const answer = await this.signed(account, PATHS.openOrders, '', QUERY_TIMEOUT_MS);
    const orders = decodeOpenOrders(answer.body);
    if (orders === undefined) throw new RestFailure('unreadable open_orders answer', 'network');
    return orders;
  }

  /** `fees/trading` for every market, by market symbol; undefined when it could not be read. */
  private async readRates(account: VenueAccount): Promise<Map<string, { maker_bps: number; taker_bps: number }> | undefined> {
    let byMarket: Map<string, { maker_bps: number; taker_bps: number }> | undefined;
    try {
      byMarket = decodeTradingFees((await this.signed(account, PATHS.tradingFees, '', QUERY_TIMEOUT_MS)).body);
    } finally {
      this.rates.set(account.credentials.api_key, { at_ms: Date.now(), byMarket });
    }
    return byMarket;
  }

  /**
   * The account's rates on a market, for telling a resting child's maker fills from its taker
   * ones (the transactions carry no flag): read once an hour, the edge's schedule meanwhile
   * when they could not be read.
   */
  private async ratesOf(account: VenueAccount, venueSymbol: string | undefined): Promise<{ maker_bps: number; taker_bps: number }> {
    const known = this.rates.get(account.credentials.api_key);
    const age = known === undefined ? Infinity : Date.now() - known.at_ms;
    let byMarket = known?.byMarket;
    if (age >= RATES_KEPT_MS || (byMarket === undefined && age >= RATES_RETRY_MS)) byMarket = await this.readRates(account).catch(() => undefined);
    return (venueSymbol === undefined ? undefined : byMarket?.get(venueSymbol)) ?? this.fees;
  }

  /**
   * A private request: a POST with its parameters as the form body (none: no body and no
   * Content-Type), signed with a fresh nonce and the clock now. A 200 whose
   * X-Server-Auth-Signature does not verify is not the venue's answer to it: a write's fate is
   * then unknown. Error bodies are classed by codec.ts `classifyFailure`: the venue's refusals
   * are `VenueRejection`s (a rate limit also pauses every request), what may have been done is a
   * `RestFailure` of unknown fate. Nothing is ever sent again from here.
   */
  private async signed(account: VenueAccount, path: string, body: string, timeoutMs: number, background = false): Promise<RestAnswer> {
    const request = signRequest(account.credentials, 'POST', this.rest.baseUrl + path, body, randomUUID(), Date.now());
    const answer = await this.rest.send({ method: 'POST', path, headers: headersOf(request), ...(request.body === undefined ? {} : { body: request.body }), cost: COST, timeoutMs, background });
    const error = bitstampError(answer.body);
    if (answer.status === 200) {
      const check = checkAnswer(answer.headers.get('x-server-auth-signature'), request, answer.headers.get('content-type'), answer.text, account.credentials.api_secret);
      if (check !== 'verified') throw new RestFailure(`bitstamp: answer signature ${check}, fate unknown`, 'timeout');
      if (error === undefined) return answer;
    } else if (error === undefined && answer.status < 400) {
      throw new RestFailure(`bitstamp ${answer.status}: fate unknown`, 'timeout');
    }
    const reason = error === undefined ? `bitstamp ${answer.status}` : reasonOf(error);
    const code = error?.code ?? '';
    switch (classifyFailure(answer.status, error)) {
      case 'fate_unknown':
        throw new RestFailure(`${reason}: fate unknown`, 'timeout');
      case 'rate_limited':
        this.limits.closeFor(RATE_LIMITED_MS, Date.now());
        throw new BitstampRefusal(reason, code);
      case 'unknown_order':
        throw new BitstampRefusal(reason, code, true);
      default:
        // clock, nonce, auth, funds, refused: the gateway or the venue turned it down as a whole.
        throw new BitstampRefusal(reason, code);
    }
  }
}

/** Bitstamp's own id once known (a repeated client_order_id is not refused, so an id is the exact one), else our client order id. */
function refOf(child_id: string, child: SentChild | undefined): OrderRef {
  return child?.id !== undefined ? { id: child.id } : { client_order_id: child_id };
}

/** The diff channel of a market; undefined for a name Bitstamp could not have (a symbol that is not BASE-QUOTE). */
function channelOf(venueSymbol: string): string | undefined {
  try {
    return diffChannel(venueSymbol);
  } catch {
    return undefined;
  }
}

function venueSymbolOfChannel(channel: string): string | undefined {
  return channel.startsWith(DIFF_PREFIX) ? channel.slice(DIFF_PREFIX.length) : undefined;
}

function headersOf(request: SignedRequest): Record<string, string> {
  const h = request.headers;
  const headers: Record<string, string> = { 'X-Auth': h['X-Auth'], 'X-Auth-Signature': h['X-Auth-Signature'], 'X-Auth-Nonce': h['X-Auth-Nonce'], 'X-Auth-Timestamp': h['X-Auth-Timestamp'], 'X-Auth-Version': h['X-Auth-Version'] };
  if (h['Content-Type'] !== undefined) headers['Content-Type'] = h['Content-Type'];
  return headers;
}

/** What a public answer that could not be read says, for the retry's log. */
function reasonOfAnswer(answer: RestAnswer): string {
  const error = bitstampError(answer.body);
  return error === undefined ? 'unreadable' : reasonOf(error);
}
