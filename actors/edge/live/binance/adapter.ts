import type { VenueId } from '../../../../domain/market.ts';
import { wallClockNs } from '../../../../domain/units.ts';
import type { VenueEndpoints } from '../endpoints.ts';
import { parseScaled } from '../decimal.ts';
import type { BookFeed, FeedListing } from '../book-feeds.ts';
import { StreamedVenue } from '../streamed-venue.ts';
import { RestFailure, VenueRest, type RestAnswer } from '../rest.ts';
import { binanceSignedQuery } from '../signing.ts';
import { VenueLimits } from '../venue-limits.ts';
import { refusedLeg, isChildId, limitOnTick, VenueRejection, type AccountProbe, type AssetBalance, type LegReport, type LegRequest, type LiveVenue, type OrderLookup, type VenueAccount } from '../venue.ts';
import {
  CLIENT_ORDER_ID,
  decodeBalances,
  decodeDepthSnapshot,
  decodeDepthUpdate,
  decodeExchangeInfo,
  decodeOrderAnswer,
  decodeTrades,
  errorOf,
  NO_SUCH_ORDER,
  orderParams,
  restingOf,
  venueSymbolOf,
  type BinanceInstrument,
  feeContextOf,
  type FeeContext,
} from './codec.ts';
import { DiffDepthSync } from './depth-sync.ts';


/** The window after a signed request's `timestamp` in which Binance still accepts it. */
export const RECV_WINDOW_MS = 5_000;
/** Levels in a REST snapshot (request weight 50). */
const SNAPSHOT_LIMIT = 1000;
/** Reads of an order and its trades until they agree. */
const LOOKUP_ATTEMPTS = 3;
/** Binance's "execution status unknown" codes: the order may or may not be on the book. */
const FATE_UNKNOWN = new Set([-1006, -1007]);
/** Order requests time out here, inside the router's 2 s leg timeout: the router then reconciles. */
const ORDER_TIMEOUT_MS = 1_500;
const QUERY_TIMEOUT_MS = 3_000;

/** Limit rules as Binance publishes them (`exchangeInfo.rateLimits`): weight per minute (per IP), orders per 10 s (per account). */
const WEIGHT = 0;
const LIMIT_RULES = [
  { name: 'REQUEST_WEIGHT', limit: 6_000, window_ms: 60_000 },
  { name: 'ORDERS', limit: 100, window_ms: 10_000 },
];
const COST = {
  order: [1, 1],
  cancel: [1, 0],
  queryOrder: [4, 0],
  myTrades: [20, 0],
  account: [20, 0],
  openOrders: [6, 0],
  allOpenOrders: [80, 0],
  cancelOpen: [1, 0],
  exchangeInfo: [20, 0],
  depth: [50, 0],
} as const;

/**
 * Binance spot: public depth over the combined WebSocket stream (`/stream`, `SUBSCRIBE`
 * `<symbol>@depth@100ms`), kept exact by the diff-depth rules (`depth-sync.ts`); orders,
 * cancels, lookups and balances over signed REST (`X-MBX-APIKEY`, HMAC-SHA256 `signature`,
 * `recvWindow` 5 s). docs/venues/binance.md has the endpoints and what is not supported.
 */
export class BinanceSpot extends StreamedVenue<DiffDepthSync, BinanceInstrument> implements LiveVenue {
  readonly venue: VenueId = 'binance';
  readonly acceptWindowMs = RECV_WINDOW_MS;
  private readonly limits = new VenueLimits(LIMIT_RULES);
  private readonly rest: VenueRest;
  private nextRequestId = 1;

  constructor(
    endpoints: VenueEndpoints,
    listings: readonly FeedListing[],
    private readonly fees: { maker_bps: number; taker_bps: number },
  ) {
    super(listings, {
      url: `${endpoints.ws}/stream`,
      makeSync: (book, changes) => new DiffDepthSync(book, changes),
      resync: (feed) => this.fetchSnapshot(feed),
    });
    this.rest = new VenueRest(endpoints.rest, this.limits, (headers, limits, now) => {
      const used = headers.get('x-mbx-used-weight-1m');
      if (used !== null) limits.observe(WEIGHT, Number(used), now);
    });
  }

  // --- market data --------------------------------------------------------------------------

  protected venueSymbolOf(symbol: string): string {
    return venueSymbolOf(symbol);
  }

  protected watch(feeds: readonly BookFeed<DiffDepthSync>[]): void {
    this.stream.send(JSON.stringify({ method: 'SUBSCRIBE', params: feeds.map((f) => `${f.venueSymbol.toLowerCase()}@depth@100ms`), id: this.nextRequestId++ }));
    for (const feed of feeds) this.feeds.resync(feed);
  }

  protected unwatch(feed: BookFeed<DiffDepthSync>): void {
    this.stream.send(JSON.stringify({ method: 'UNSUBSCRIBE', params: [`${feed.venueSymbol.toLowerCase()}@depth@100ms`], id: this.nextRequestId++ }));
  }

  protected onFrame(text: string): void {
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    const data = (frame as { data?: unknown } | null)?.data;
    if (data === undefined) return; // a SUBSCRIBE answer, or another stream's frame
    const decoded = decodeDepthUpdate(data);
    if (decoded === undefined) return;
    const feed = this.feeds.ofVenueSymbol(decoded.venueSymbol);
    if (feed === undefined) return;
    this.feeds.counters.updates++;
    this.feeds.settle(feed, feed.sync.onEvent(decoded.event), decoded.event.ts_ms * 1_000_000);
  }

  /** A REST snapshot into the feed's sync; rejects (retried with backoff) when none could be read. */
  private async fetchSnapshot(feed: BookFeed<DiffDepthSync>): Promise<boolean> {
    const answer = await this.rest.send({ method: 'GET', path: `/api/v3/depth?symbol=${feed.venueSymbol}&limit=${SNAPSHOT_LIMIT}`, cost: COST.depth, timeoutMs: QUERY_TIMEOUT_MS });
    const snapshot = answer.status === 200 ? decodeDepthSnapshot(answer.body) : undefined;
    if (snapshot === undefined) throw new Error(`depth snapshot ${answer.status}`);
    if (!this.feeds.connected) return true;
    this.feeds.settle(feed, feed.sync.onSnapshot(snapshot.lastUpdateId, snapshot.bids, snapshot.asks), wallClockNs());
    return true;
  }

  protected async readInstruments(): Promise<(readonly [string, BinanceInstrument])[]> {
    const answer = await this.rest.send({ method: 'GET', path: '/api/v3/exchangeInfo?permissions=SPOT', cost: COST.exchangeInfo, timeoutMs: QUERY_TIMEOUT_MS });
    if (answer.status !== 200) throw new Error(`exchangeInfo ${answer.status}`);
    return decodeExchangeInfo(answer.body).map((i) => [i.venueSymbol, i] as const);
  }

  // --- orders -------------------------------------------------------------------------------

  async submit(account: VenueAccount, leg: LegRequest): Promise<LegReport> {
    if (!CLIENT_ORDER_ID.test(leg.child_id)) return refusedLeg(`child id ${leg.child_id} is not a Binance client order id`);
    const venueSymbol = venueSymbolOf(leg.symbol);
    const instrument = await this.instrumentFor(venueSymbol);
    // The venue's own step, when it is finer-grained than ours it changes nothing; coarser, the child is cut down to it.
    const qty = instrument === undefined ? leg.qty_1e8 : leg.qty_1e8 - (leg.qty_1e8 % instrument.lot_1e8);
    if (qty <= 0 || (instrument !== undefined && qty < instrument.min_qty_1e8)) {
      return refusedLeg(`below Binance's minimum quantity for ${venueSymbol}`);
    }
    const limit = limitOnTick(leg.side, leg.limit_price_1e9, instrument?.tick_1e9 ?? 0);
    if (limit !== null && limit <= 0) return refusedLeg(`limit below Binance's tick for ${venueSymbol}`);
    const params = orderParams(venueSymbol, leg.child_id, leg.side, qty, limit, leg.time_in_force);
    let answer: RestAnswer;
    try {
      answer = await this.signed(account, 'POST', '/api/v3/order', params, COST.order, ORDER_TIMEOUT_MS);
    } catch (err) {
      if (err instanceof VenueRejection) return refusedLeg(err.reason);
      throw err;
    }
    const report = decodeOrderAnswer(answer.body, this.feeContext(leg.symbol));
    if (report === undefined) throw new RestFailure('unreadable order answer', 'timeout');
    return report;
  }

  async cancel(account: VenueAccount, child_id: string, symbol: string): Promise<{ found: boolean; cancelled_qty_1e8: number }> {
    try {
      const answer = await this.signed(account, 'DELETE', '/api/v3/order', `symbol=${venueSymbolOf(symbol)}&origClientOrderId=${encodeURIComponent(child_id)}`, COST.cancel, QUERY_TIMEOUT_MS);
      const order = answer.body as Record<string, unknown>;
      // The answer is the order as cancelled: what had not executed was cancelled.
      const left = restingOf({ ...order, status: 'NEW' });
      return { found: left > 0, cancelled_qty_1e8: left };
    } catch (err) {
      if (err instanceof VenueRejection && err.unknownOrder) return { found: false, cancelled_qty_1e8: 0 };
      throw err;
    }
  }

  /**
   * The order (`GET /api/v3/order`) and, when it executed more than `knownFilled_1e8`, its trades
   * (`myTrades`). The two reads are not atomic: a trade between them would leave the trades
   * ahead of the order's executed quantity, so the pair is read again until they agree.
   */
  async lookup(account: VenueAccount, child_id: string, symbol: string, knownFilled_1e8?: number): Promise<OrderLookup> {
    const venueSymbol = venueSymbolOf(symbol);
    for (let attempt = 0; attempt < LOOKUP_ATTEMPTS; attempt++) {
      let order: Record<string, unknown>;
      try {
        const answer = await this.signed(account, 'GET', '/api/v3/order', `symbol=${venueSymbol}&origClientOrderId=${encodeURIComponent(child_id)}`, COST.queryOrder, QUERY_TIMEOUT_MS);
        order = answer.body as Record<string, unknown>;
      } catch (err) {
        if (err instanceof VenueRejection && err.unknownOrder) return { found: false };
        throw err;
      }
      const executed = parseScaled(typeof order['executedQty'] === 'string' ? order['executedQty'] : '', 8);
      if (!(executed >= 0)) throw new RestFailure('unreadable order answer', 'timeout');
      const refused = order['status'] === 'REJECTED';
      const report = (fills: LegReport['fills']): OrderLookup => ({ found: true, report: { ok: !refused, reason: refused ? 'binance: order rejected' : null, fills, resting_qty_1e8: restingOf(order) } });
      if (executed === 0 || executed === knownFilled_1e8) return report([]);
      const trades = await this.signed(account, 'GET', '/api/v3/myTrades', `symbol=${venueSymbol}&orderId=${String(order['orderId'])}&limit=1000`, COST.myTrades, QUERY_TIMEOUT_MS);
      const fills = decodeTrades(trades.body, this.feeContext(symbol));
      if (fills === undefined) throw new RestFailure('unreadable trades answer', 'timeout');
      if (fills.reduce((sum, f) => sum + f.qty_1e8, 0) === executed) return report(fills);
    }
    throw new RestFailure(`order ${child_id}: trades and executed quantity disagree`, 'timeout');
  }

  async ownOpenOrders(account: VenueAccount): Promise<{ child_id: string; symbol: string }[]> {
    const answer = await this.signed(account, 'GET', '/api/v3/openOrders', '', COST.allOpenOrders, QUERY_TIMEOUT_MS);
    const bySymbol = new Map([...this.listings.values()].map((l) => [venueSymbolOf(l.symbol), l.symbol]));
    const out: { child_id: string; symbol: string }[] = [];
    for (const o of Array.isArray(answer.body) ? (answer.body as Record<string, unknown>[]) : []) {
      const symbol = bySymbol.get(String(o['symbol']));
      const id = o['clientOrderId'];
      if (symbol !== undefined && typeof id === 'string' && isChildId(id)) out.push({ child_id: id, symbol });
    }
    return out;
  }

  async cancelAll(account: VenueAccount, symbols: readonly string[]): Promise<number> {
    let cancelled = 0;
    for (const symbol of symbols) {
      try {
        const answer = await this.signed(account, 'DELETE', '/api/v3/openOrders', `symbol=${venueSymbolOf(symbol)}`, COST.cancelOpen, QUERY_TIMEOUT_MS);
        if (Array.isArray(answer.body)) cancelled += answer.body.length;
      } catch (err) {
        // No open orders on the symbol is an "unknown order" error at Binance.
        if (!(err instanceof VenueRejection && err.unknownOrder)) throw err;
      }
    }
    return cancelled;
  }

  async balances(account: VenueAccount): Promise<AssetBalance[]> {
    const answer = await this.signed(account, 'GET', '/api/v3/account', '', COST.account, QUERY_TIMEOUT_MS);
    const balances = decodeBalances(answer.body);
    if (balances === undefined) throw new RestFailure('unreadable account answer', 'network');
    return balances;
  }

  async probe(account: VenueAccount): Promise<AccountProbe> {
    const answer = await this.signed(account, 'GET', '/api/v3/account', 'omitZeroBalances=true', COST.account, QUERY_TIMEOUT_MS);
    const body = answer.body as Record<string, unknown>;
    const rates = body['commissionRates'] as Record<string, unknown> | undefined;
    // `commissionRates` are fractions ("0.00100000"); the older integer fields are in bps.
    const bps = (rate: unknown, legacy: unknown, fallback: number) => (typeof rate === 'string' ? Number(rate) * 10_000 : typeof legacy === 'number' ? legacy : fallback);
    const maker_bps = bps(rates?.['maker'], body['makerCommission'], this.fees.maker_bps);
    const taker_bps = bps(rates?.['taker'], body['takerCommission'], this.fees.taker_bps);
    return {
      tier: `maker ${maker_bps} bps / taker ${taker_bps} bps`,
      maker_bps,
      taker_bps,
      can_trade: body['canTrade'] !== false,
      can_withdraw: typeof body['canWithdraw'] === 'boolean' ? body['canWithdraw'] : null,
    };
  }

  /**
   * A SIGNED request: the parameters, `recvWindow` and `timestamp`, signed as sent. A 200 answers
   * its body; an error body is a `VenueRejection` with the venue's code and message; a 5xx
   * without one leaves the request's fate unknown (Binance documents it so) and throws.
   */
  private async signed(account: VenueAccount, method: 'GET' | 'POST' | 'DELETE', path: string, params: string, cost: readonly number[], timeoutMs: number): Promise<RestAnswer> {
    const query = `${params === '' ? '' : `${params}&`}recvWindow=${RECV_WINDOW_MS}&timestamp=${Date.now()}`;
    const answer = await this.rest.send({
      method,
      path: `${path}?${binanceSignedQuery(query, account.credentials.api_secret)}`,
      headers: { 'X-MBX-APIKEY': account.credentials.api_key },
      cost,
      timeoutMs,
    });
    if (answer.status === 200) return answer;
    const error = errorOf(answer.body);
    if (error !== undefined && FATE_UNKNOWN.has(error.code)) throw new RestFailure(`binance ${error.code}: ${error.msg}`, 'timeout');
    if (error !== undefined && answer.status < 500) throw new VenueRejection(`binance ${error.code}: ${error.msg}`, NO_SUCH_ORDER.has(error.code));
    if (answer.status === 429 || answer.status === 418) throw new VenueRejection(`binance ${answer.status}: rate limited`);
    if (answer.status < 500) throw new VenueRejection(`binance ${answer.status}`);
    throw new RestFailure(`binance ${answer.status}: fate unknown`, 'timeout');
  }

  private feeContext(symbol: string): FeeContext {
    return feeContextOf(this.listings.get(symbol), this.fees);
  }
}
