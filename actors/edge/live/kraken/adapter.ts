import type { VenueId } from '../../../../domain/market.ts';
import type { BookFeed, FeedListing } from '../book-feeds.ts';
import type { VenueEndpoints } from '../endpoints.ts';
import { RestFailure, VenueRest, type RestAnswer } from '../rest.ts';
import { krakenApiSign } from '../signing.ts';
import { StreamedVenue } from '../streamed-venue.ts';
import { VenueLimits } from '../venue-limits.ts';
import { refusedLeg, cancelledBetween, VenueRejection, type AccountProbe, type AssetBalance, type LegReport, type LegRequest, type LiveVenue, type OrderLookup, type VenueAccount } from '../venue.ts';
import { feeContextOf, type FeeContext } from '../fees.ts';
import { KrakenBookSync, type KrakenBookDepth } from './book-sync.ts';
import {
  addOrderBody,
  assetNames,
  balanceBody,
  bookSubscription,
  cancelOrderBody,
  childIdOfKraken,
  closedOrdersBody,
  decodeAddOrder,
  decodeAssetPairs,
  decodeBalances,
  decodeBookMessage,
  decodeCancel,
  decodeOrders,
  decodeTrades,
  decodeTradeVolume,
  krakenClientOrderId,
  krakenError,
  legReportOf,
  openOrdersBody,
  orderTerms,
  queryOrdersBody,
  queryTradesBody,
  tradeVolumeBody,
  wsSymbolOf,
  type KrakenInstrument,
  type KrakenOrder,
} from './codec.ts';

/** The book depth subscribed: the SOR walks more than the checksum's 10 levels. */
const DEPTH: KrakenBookDepth = 100;
const QUERY_TIMEOUT_MS = 3_000;
/** Order placement times out inside the router's 2 s leg timeout; the router then reconciles. */
const ORDER_TIMEOUT_MS = 1_500;
/**
 * Each order carries AddOrder's `deadline` this far ahead: the matching engine refuses it once
 * passed, so a lookup finding nothing after it (and the edge's margin) is final.
 */
const ACCEPT_WINDOW_MS = 5_000;
/** Reads of an IOC until the engine is done with it and its trades agree with its executed volume. */
const SETTLE_POLL_MS = 20;
const SETTLE_POLLS = 10;
/** Child txids remembered (a resting leg's poll reads by txid). */
const TXIDS_KEPT = 10_000;
/** QueryTrades takes at most 20 trade ids. */
const TRADES_PER_QUERY = 20;
/** After `EAPI:Rate limit exceeded` the account's counter is full: nothing is sent for this long (one decays in ~3 s on a starter tier). */
const RATE_LIMITED_MS = 15_000;

/**
 * Kraken's REST limits are decaying counters per account, modelled as such: starter 15 points
 * losing 0.33/s, intermediate 20 at 0.5/s, pro 20 at 1/s. The intermediate tier's: Kraken asks
 * for intermediate verification before most accounts may trade at all, so a trading key has at
 * least that (a starter key meets `EAPI:Rate limit exceeded` and pauses 15 s). Orders count on
 * the matching engine's own per-pair counter (60 at 1/s on the lowest tier; a cancel soon after
 * the add costs more, kept out of this model).
 */
const LIMIT_RULES = [
  { name: 'API_COUNTER', limit: 20, decay_per_s: 0.5 },
  { name: 'TRADING', limit: 60, decay_per_s: 1 },
  { name: 'PUBLIC', limit: 60, window_ms: 60_000 },
];
const COST = { order: [0, 1], cancel: [0, 1], query: [1, 0], history: [2, 0], public: [0, 0, 1] } as const;

/** A nonce strictly above every one this process sent: microseconds, bumped on a tie (several requests in one ms). */
let lastNonce = 0n;
function nextNonce(): string {
  const now = BigInt(Date.now()) * 1_000n;
  lastNonce = now > lastNonce ? now : lastNonce + 1n;
  return lastNonce.toString();
}

/**
 * Kraken spot: the v2 public `book` channel (`/v2`, depth 100), a snapshot then updates, each
 * held to its CRC-32 over the top 10 levels (`kraken/book-sync.ts`; there is no sequence
 * number). Orders over signed REST (`API-Key`, `API-Sign`: HMAC-SHA512 of the path and the
 * SHA-256 of nonce + form body) with our child id packed into `cl_ord_id`. AddOrder answers a
 * txid only: the order and its trades are read after it (OpenOrders / ClosedOrders by
 * `cl_ord_id`, QueryTrades). docs/venues/kraken.md.
 */
export class KrakenSpot extends StreamedVenue<KrakenBookSync, KrakenInstrument> implements LiveVenue {
  readonly venue: VenueId = 'kraken';
  readonly acceptWindowMs = ACCEPT_WINDOW_MS;
  private readonly limits = new VenueLimits(LIMIT_RULES);
  private readonly rest: VenueRest;
  /** child id -> Kraken txid, for the orders this edge placed or found */
  private readonly txids = new Map<string, string>();
  /** Kraken's asset ids (`XXBT`) as ours, from the pairs (balances are keyed by them) */
  private names = new Map<string, string>();

  constructor(
    endpoints: VenueEndpoints,
    listings: readonly FeedListing[],
    private readonly fees: { maker_bps: number; taker_bps: number },
  ) {
    super(listings, {
      url: `${endpoints.ws}/v2`,
      makeSync: (book, changes) => new KrakenBookSync(book, changes, DEPTH),
      // A resync is a fresh subscription: Kraken answers it with a snapshot on the stream.
      resync: async (feed) => {
        if (!this.stream.send(bookSubscription('unsubscribe', [feed.venueSymbol], DEPTH)) || !this.stream.send(bookSubscription('subscribe', [feed.venueSymbol], DEPTH))) throw new Error('stream closed');
        return false;
      },
    });
    this.rest = new VenueRest(endpoints.rest, this.limits, undefined, endpoints.headers);
  }

  // --- market data --------------------------------------------------------------------------

  protected venueSymbolOf(symbol: string): string {
    return wsSymbolOf(symbol);
  }

  protected watch(feeds: readonly BookFeed<KrakenBookSync>[]): void {
    if (this.stream.send(bookSubscription('subscribe', feeds.map((f) => f.venueSymbol), DEPTH))) for (const feed of feeds) this.feeds.expect(feed);
  }

  protected unwatch(feed: BookFeed<KrakenBookSync>): void {
    this.stream.send(bookSubscription('unsubscribe', [feed.venueSymbol], DEPTH));
  }

  protected onFrame(text: string): void {
    const message = decodeBookMessage(text);
    if (message === undefined) return; // heartbeats, status, subscribe answers
    for (const data of message.data) {
      const feed = this.feeds.ofVenueSymbol(data.symbol);
      if (feed === undefined) continue;
      this.feeds.counters.updates++;
      this.feeds.settle(feed, feed.sync.onPush(message.type, data), (data.ts_ms ?? Date.now()) * 1_000_000);
    }
    // A symbol whose levels could not be read exactly: its book is no longer known.
    for (const symbol of message.unreadable) {
      const feed = this.feeds.ofVenueSymbol(symbol);
      if (feed === undefined) continue;
      feed.sync.reset();
      this.feeds.settle(feed, 'gap', Date.now() * 1_000_000);
    }
  }

  protected async readInstruments(): Promise<(readonly [string, KrakenInstrument])[]> {
    const answer = await this.rest.send({ method: 'GET', path: '/0/public/AssetPairs', cost: COST.public, timeoutMs: QUERY_TIMEOUT_MS });
    const instruments = decodeAssetPairs(answer.body);
    if (instruments.length === 0) throw new Error(`AssetPairs ${answer.status}`);
    this.names = assetNames(instruments);
    return instruments.map((i) => [i.wsSymbol, i] as const);
  }

  // --- orders -------------------------------------------------------------------------------

  async submit(account: VenueAccount, leg: LegRequest): Promise<LegReport> {
    const instrument = await this.instrumentFor(wsSymbolOf(leg.symbol));
    // Without the pair's lot, tick and minimums the order could only be guessed at.
    if (instrument === undefined) return refusedLeg(`kraken: ${leg.symbol} is not (yet) known from AssetPairs`);
    const terms = orderTerms(instrument, leg.side, leg.qty_1e8, leg.limit_price_1e9);
    if (!terms.ok) return refusedLeg(terms.reason);
    const clOrdId = krakenClientOrderId(leg.child_id);
    if (clOrdId === undefined) return refusedLeg(`child id ${leg.child_id} has no Kraken cl_ord_id`);
    const deadline = new Date(Date.now() + ACCEPT_WINDOW_MS).toISOString();
    let answer: RestAnswer;
    try {
      answer = await this.private(account, '/0/private/AddOrder', (nonce) => addOrderBody(nonce, instrument, leg.child_id, leg.side, terms.terms, leg.time_in_force, deadline)!, COST.order, ORDER_TIMEOUT_MS);
    } catch (err) {
      // Refused as a whole (a bad key or signature, a rate limit): nothing reached the book.
      if (err instanceof VenueRejection) return refusedLeg(err.reason);
      throw err;
    }
    const ack = decodeAddOrder(answer.body);
    if (ack === undefined) throw new RestFailure('unreadable AddOrder answer', 'timeout');
    if (!ack.ok) {
      if (ack.kind === 'service') throw new RestFailure(ack.reason, 'timeout');
      return refusedLeg(ack.reason);
    }
    this.remember(leg.child_id, ack.txid);
    // The order is on the venue now: any failure from here leaves its fate to reconciliation.
    try {
      const found = await this.settled(account, clOrdId, leg.symbol, leg.time_in_force === 'ioc');
      if (!found.found) throw new Error('placed but not found');
      return found.report;
    } catch (err) {
      throw new RestFailure(`order placed, its state not read: ${(err as Error).message}`, 'timeout');
    }
  }

  async lookup(account: VenueAccount, child_id: string, symbol: string, knownFilled_1e8?: number): Promise<OrderLookup> {
    const clOrdId = krakenClientOrderId(child_id);
    if (clOrdId === undefined) return { found: false };
    // A resting leg's poll (it knows what filled) is background: Kraken's counter is small, and
    // a cancel or a kill switch must find points left when it comes.
    return this.settled(account, clOrdId, symbol, false, knownFilled_1e8, knownFilled_1e8 !== undefined);
  }

  async cancel(account: VenueAccount, child_id: string, symbol: string): Promise<{ found: boolean; cancelled_qty_1e8: number }> {
    void symbol;
    const clOrdId = krakenClientOrderId(child_id);
    if (clOrdId === undefined) return { found: false, cancelled_qty_1e8: 0 };
    const before = await this.order(account, clOrdId);
    if (before === undefined || before.resting_qty_1e8 === 0) return { found: false, cancelled_qty_1e8: 0 };
    const answer = await this.private(account, '/0/private/CancelOrder', (nonce) => cancelOrderBody(nonce, { cl_ord_id: clOrdId }), COST.cancel, QUERY_TIMEOUT_MS, true);
    if (decodeCancel(answer.body) === undefined) throw new RestFailure('unreadable CancelOrder answer', 'timeout');
    const after = await this.order(account, clOrdId);
    return cancelledBetween(before, after);
  }

  async ownOpenOrders(account: VenueAccount): Promise<{ child_id: string; symbol: string }[]> {
    const out: { child_id: string; symbol: string }[] = [];
    for (const order of await this.openOrders(account)) {
      const symbol = this.symbolOfPair(order.pair);
      if (order.child_id !== null && symbol !== undefined) out.push({ child_id: order.child_id, symbol });
    }
    return out;
  }

  /**
   * Every open order of the account on these symbols, ours or placed by hand (the kill switch):
   * one CancelOrder per txid. Kraken's CancelAll would also take the account's other pairs.
   */
  async cancelAll(account: VenueAccount, symbols: readonly string[]): Promise<number> {
    const wanted = new Set(symbols);
    let cancelled = 0;
    for (const order of await this.openOrders(account)) {
      const symbol = this.symbolOfPair(order.pair);
      if (symbol === undefined || !wanted.has(symbol)) continue;
      try {
        const answer = await this.private(account, '/0/private/CancelOrder', (nonce) => cancelOrderBody(nonce, { txid: order.txid }), COST.cancel, QUERY_TIMEOUT_MS, true);
        cancelled += decodeCancel(answer.body)?.count ?? 0;
      } catch (err) {
        // Filled or cancelled since the list was read: nothing left to cancel.
        if (!(err instanceof VenueRejection && err.unknownOrder)) throw err;
      }
    }
    return cancelled;
  }

  async balances(account: VenueAccount): Promise<AssetBalance[]> {
    // Kraken keys balances by its asset ids (`ZUSD`, `XXBT`): without the pairs read, they could
    // not be named as ours, and a USD balance booked as ZUSD would refuse every order.
    if (this.names.size === 0) await this.readInstruments();
    const answer = await this.private(account, '/0/private/BalanceEx', balanceBody, COST.query, QUERY_TIMEOUT_MS, true);
    const balances = decodeBalances(answer.body, this.names);
    if (balances === undefined) throw new RestFailure('unreadable BalanceEx answer', 'network');
    return balances;
  }

  /**
   * The fee tier from TradeVolume on a pair we list. Kraken publishes no read of a key's
   * permissions: `can_withdraw` stays null ("the venue does not say"), and a key that cannot
   * trade is found out by its first order's `EGeneral:Permission denied`.
   */
  async probe(account: VenueAccount): Promise<AccountProbe> {
    const pair = [...this.instruments.values()].find((i) => this.listings.has(i.symbol))?.altname ?? 'XBTUSD';
    const answer = await this.private(account, '/0/private/TradeVolume', (nonce) => tradeVolumeBody(nonce, pair), COST.query, QUERY_TIMEOUT_MS, true);
    const volume = decodeTradeVolume(answer.body);
    if (volume === undefined) throw new RestFailure('unreadable TradeVolume answer', 'network');
    return {
      tier: `30d volume ${volume.volume} ${volume.currency}`,
      maker_bps: volume.maker_bps ?? this.fees.maker_bps,
      taker_bps: volume.taker_bps,
      can_trade: true,
      can_withdraw: null,
    };
  }

  // --- reads --------------------------------------------------------------------------------

  /** The order and its trades, read again while an IOC is still in the engine or its trades lag its executed volume. */
  private async settled(account: VenueAccount, clOrdId: string, symbol: string, ioc: boolean, knownFilled_1e8?: number, background = false): Promise<OrderLookup> {
    for (let poll = 0; ; poll++) {
      const order = await this.order(account, clOrdId, background);
      if (order === undefined) return { found: false };
      const working = order.status === 'open' || order.status === 'pending';
      // Nothing executed since the caller was told: the trades need no read (a resting leg's poll).
      if (order.filled_qty_1e8 === knownFilled_1e8 && !(ioc && working)) return { found: true, report: legReportOf(order, []) };
      const fills = order.filled_qty_1e8 > 0 ? await this.tradesOf(account, order, this.feeContext(symbol)) : [];
      const complete = fills.reduce((sum, f) => sum + f.qty_1e8, 0) === order.filled_qty_1e8;
      if ((complete && !(ioc && working)) || poll >= SETTLE_POLLS) {
        if (!complete || (ioc && working)) throw new RestFailure(`order ${clOrdId} not settled`, 'timeout');
        return { found: true, report: legReportOf(order, fills) };
      }
      await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
    }
  }

  /**
   * The order with this `cl_ord_id`. By its txid when this edge placed it (QueryOrders: one
   * point of the API counter, whatever the status); otherwise (an answer lost, a restart) the
   * open orders first, then the closed ones (two points), each filtered by `cl_ord_id`.
   */
  private async order(account: VenueAccount, clOrdId: string, background = false): Promise<KrakenOrder | undefined> {
    const child = childIdOfKraken(clOrdId);
    const txid = child === undefined ? undefined : this.txids.get(child);
    const reads: (readonly [string, (nonce: string) => string, readonly number[]])[] =
      txid !== undefined
        ? [['/0/private/QueryOrders', (nonce) => queryOrdersBody(nonce, [txid]), COST.query]]
        : [
            ['/0/private/OpenOrders', (nonce) => openOrdersBody(nonce, clOrdId), COST.query],
            ['/0/private/ClosedOrders', (nonce) => closedOrdersBody(nonce, clOrdId), COST.history],
          ];
    for (const [path, body, cost] of reads) {
      let orders: KrakenOrder[] | undefined;
      try {
        orders = decodeOrders((await this.private(account, path, body, cost, QUERY_TIMEOUT_MS, true, background)).body);
      } catch (err) {
        if (err instanceof VenueRejection && err.unknownOrder) continue;
        throw err;
      }
      if (orders === undefined) throw new RestFailure(`unreadable ${path} answer`, 'network');
      // Kraken may echo a UUID in another spelling: compared as the child ids they carry.
      const order = orders.find((o) => o.child_id !== null && o.child_id === child);
      if (order !== undefined) {
        this.remember(order.child_id!, order.txid);
        return order;
      }
    }
    return undefined;
  }

  /** A child's txid, so later reads of it cost one point; the oldest forgotten past TXIDS_KEPT. */
  private remember(child_id: string, txid: string): void {
    if (this.txids.has(child_id)) return;
    this.txids.set(child_id, txid);
    if (this.txids.size > TXIDS_KEPT) this.txids.delete(this.txids.keys().next().value!);
  }

  private async openOrders(account: VenueAccount): Promise<KrakenOrder[]> {
    const answer = await this.private(account, '/0/private/OpenOrders', (nonce) => openOrdersBody(nonce), COST.query, QUERY_TIMEOUT_MS, true);
    const orders = decodeOrders(answer.body);
    if (orders === undefined) throw new RestFailure('unreadable OpenOrders answer', 'network');
    return orders;
  }

  /** The order's trades (QueryTrades, 20 ids a request), oldest first. */
  private async tradesOf(account: VenueAccount, order: KrakenOrder, fees: FeeContext): Promise<LegReport['fills']> {
    const fills: LegReport['fills'] = [];
    for (let i = 0; i < order.trade_ids.length; i += TRADES_PER_QUERY) {
      const ids = order.trade_ids.slice(i, i + TRADES_PER_QUERY);
      const answer = await this.private(account, '/0/private/QueryTrades', (nonce) => queryTradesBody(nonce, ids), COST.query, QUERY_TIMEOUT_MS, true);
      const page = decodeTrades(answer.body, fees, order);
      if (page === undefined) throw new RestFailure('unreadable QueryTrades answer', 'network');
      fills.push(...page);
    }
    return fills.sort((a, b) => a.ts_ns - b.ts_ns);
  }

  private symbolOfPair(altname: string): string | undefined {
    for (const i of this.instruments.values()) if (i.altname === altname || i.pair === altname) return this.listings.has(i.symbol) ? i.symbol : undefined;
    return undefined;
  }

  /**
   * A private request: form body with a fresh nonce, `API-Sign` over its path and body. Kraken
   * answers 200 with an `error` list: `EService:*` and a 5xx leave a write's fate unknown; an
   * invalid nonce (refused before anything else) is sent again once with a new one; a rate
   * limit closes the account's requests for a while. `strict`: any other error is a rejection
   * (reads and cancels); AddOrder's is decoded by the caller.
   */
  private async private(account: VenueAccount, path: string, body: (nonce: string) => string, cost: readonly number[], timeoutMs: number, strict = false, background = false): Promise<RestAnswer> {
    for (let attempt = 0; ; attempt++) {
      const nonce = nextNonce();
      const form = body(nonce);
      const answer = await this.rest.send({
        method: 'POST',
        path,
        headers: { 'API-Key': account.credentials.api_key, 'API-Sign': krakenApiSign(path, nonce, form, account.credentials.api_secret), 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8' },
        body: form,
        cost,
        timeoutMs,
        background,
      });
      if (answer.status >= 500) throw new RestFailure(`kraken ${answer.status}: fate unknown`, 'timeout');
      const error = krakenError(answer.body);
      if (error?.kind === 'nonce' && attempt === 0) continue;
      if (error?.kind === 'rate-limit') this.limits.closeFor(RATE_LIMITED_MS, Date.now());
      if (error?.kind === 'service') throw new RestFailure(`${error.reason}: fate unknown`, 'timeout');
      if (answer.status !== 200) throw new VenueRejection(error?.reason ?? `kraken ${answer.status}`, error?.unknownOrder ?? false);
      if (error !== undefined && (strict || error.kind === 'auth' || error.kind === 'rate-limit' || error.kind === 'nonce')) throw new VenueRejection(error.reason, error.unknownOrder);
      return answer;
    }
  }

  private feeContext(symbol: string): FeeContext {
    return feeContextOf(this.listings.get(symbol), this.fees);
  }
}
