import type { VenueId } from '../../../../domain/market.ts';
import type { BookFeed, FeedListing } from '../book-feeds.ts';
import { StreamedVenue } from '../streamed-venue.ts';
import type { VenueEndpoints } from '../endpoints.ts';
import { RestFailure, VenueRest, type RestAnswer } from '../rest.ts';
import { okxSignature } from '../signing.ts';
import { VenueLimits } from '../venue-limits.ts';
import { refusedLeg, cancelledBetween, limitOnTick, VenueRejection, type AccountProbe, type AssetBalance, type LegReport, type LegRequest, type LiveVenue, type OrderLookup, type VenueAccount } from '../venue.ts';
import { feeContextOf, type FeeContext } from '../fees.ts';
import { OkxBookSync } from './book-sync.ts';
import { booksSubscription, childIdOfOkx, decodeBalances, decodeBookFrame, decodeFills, decodeInstruments, decodeOrder, decodeOrderAck, instIdOf, legReportOf, NO_SUCH_ORDER, okxClientOrderId, okxError, orderBody, type OkxInstrument, type OkxOrder } from './codec.ts';

const QUERY_TIMEOUT_MS = 3_000;
/** Order placement times out inside the router's 2 s leg timeout; the router then reconciles. */
const ORDER_TIMEOUT_MS = 1_200;
/**
 * Each order carries OKX's `expTime` header this far ahead: OKX drops an order it has not
 * processed by then, so a lookup finding nothing after it (and the edge's margin) is final,
 * well inside the router's reconciliation attempts (~27 s).
 */
const ACCEPT_WINDOW_MS = 5_000;
/** OKX codes that leave an order's fate unknown: 50004 "endpoint request timeout", 51149 "order timed out". */
const FATE_UNKNOWN = new Set(['50004', '51149']);
/** How often, and how many times, an IOC's state is read until the matching engine is done with it. */
const SETTLE_POLL_MS = 20;
const SETTLE_POLLS = 10;
/** OKX's page size for lists, and the most pages read (an account with 5,000 open orders is not ours to walk). */
const PAGE = 100;
const MAX_PAGES = 50;

/**
 * OKX's limits are per endpoint, per 2 s: placing and cancelling 60, order and fills reads 60,
 * `/account/balance` 10, `/account/config` and `/account/trade-fee` 5 each, instruments 20.
 */
const LIMIT_RULES = [
  { name: 'TRADE', limit: 60, window_ms: 2_000 },
  { name: 'QUERY', limit: 60, window_ms: 2_000 },
  { name: 'BALANCE', limit: 10, window_ms: 2_000 },
  { name: 'CONFIG', limit: 5, window_ms: 2_000 },
  { name: 'TRADE_FEE', limit: 5, window_ms: 2_000 },
  { name: 'PUBLIC', limit: 20, window_ms: 2_000 },
];
const COST = { trade: [1], query: [0, 1], balance: [0, 0, 1], config: [0, 0, 0, 1], tradeFee: [0, 0, 0, 0, 1], public: [0, 0, 0, 0, 0, 1] } as const;

/**
 * OKX v5 spot: the public `books` channel on `/ws/v5/public` (a snapshot, then updates checked
 * by `prevSeqId`/`seqId` and, when non-zero, the CRC32 checksum; `okx/book-sync.ts`); orders over
 * signed REST (`OK-ACCESS-*` headers, `okxSignature`) with our child id as `clOrdId`
 * (`okxClientOrderId`). A place answer carries no fills: the order's state and fills are read
 * after it. docs/venues/okx.md.
 */
export class OkxSpot extends StreamedVenue<OkxBookSync, OkxInstrument> implements LiveVenue {
  readonly venue: VenueId = 'okx';
  readonly acceptWindowMs = ACCEPT_WINDOW_MS;
  private readonly limits = new VenueLimits(LIMIT_RULES);
  private readonly rest: VenueRest;

  constructor(
    endpoints: VenueEndpoints,
    listings: readonly FeedListing[],
    private readonly fees: { maker_bps: number; taker_bps: number },
  ) {
    super(listings, {
      url: `${endpoints.ws}/ws/v5/public`,
      makeSync: (book, changes) => new OkxBookSync(book, changes),
      // A resync is a fresh subscription: OKX answers it with a snapshot on the stream.
      resync: async (feed) => {
        if (!this.stream.send(booksSubscription('unsubscribe', [feed.venueSymbol])) || !this.stream.send(booksSubscription('subscribe', [feed.venueSymbol]))) throw new Error('stream closed');
        return false;
      },
      ping: { text: 'ping', everyMs: 20_000 },
    });
    this.rest = new VenueRest(endpoints.rest, this.limits, undefined, endpoints.headers);
  }

  protected venueSymbolOf(symbol: string): string {
    return instIdOf(symbol);
  }

  protected watch(feeds: readonly BookFeed<OkxBookSync>[]): void {
    if (this.stream.send(booksSubscription('subscribe', feeds.map((f) => f.venueSymbol)))) for (const feed of feeds) this.feeds.expect(feed);
  }

  protected unwatch(feed: BookFeed<OkxBookSync>): void {
    this.stream.send(booksSubscription('unsubscribe', [feed.venueSymbol]));
  }

  protected onFrame(text: string): void {
    if (text === 'pong') return;
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    const decoded = decodeBookFrame(frame);
    if (decoded === undefined) return; // subscribe/unsubscribe answers, errors, other channels
    const feed = this.feeds.ofVenueSymbol(decoded.instId);
    if (feed === undefined) return;
    for (const data of decoded.data) {
      this.feeds.counters.updates++;
      this.feeds.settle(feed, feed.sync.onPush(decoded.action, data), data.ts_ms * 1_000_000);
      if (!feed.sync.synced && decoded.action === 'update') break;
    }
  }

  protected async readInstruments(): Promise<(readonly [string, OkxInstrument])[]> {
    const answer = await this.rest.send({ method: 'GET', path: '/api/v5/public/instruments?instType=SPOT', cost: COST.public, timeoutMs: QUERY_TIMEOUT_MS });
    const instruments = decodeInstruments(answer.body);
    if (instruments.length === 0) throw new Error(`instruments ${answer.status}`);
    return instruments.map((i) => [i.instId, i] as const);
  }

  // --- orders -------------------------------------------------------------------------------

  async submit(account: VenueAccount, leg: LegRequest): Promise<LegReport> {
    const instId = instIdOf(leg.symbol);
    const instrument = await this.instrumentFor(instId);
    const qty = instrument === undefined ? leg.qty_1e8 : leg.qty_1e8 - (leg.qty_1e8 % instrument.lot_1e8);
    if (qty <= 0 || (instrument !== undefined && qty < instrument.min_qty_1e8)) return refusedLeg(`below OKX's minimum size for ${instId}`);
    const limit = limitOnTick(leg.side, leg.limit_price_1e9, instrument?.tick_1e9 ?? 0);
    if (limit !== null && limit <= 0) return refusedLeg(`limit below OKX's tick for ${instId}`);
    const body = orderBody(instId, leg.child_id, leg.side, qty, limit, leg.time_in_force);
    if (body === undefined) return refusedLeg(`child id ${leg.child_id} has no OKX clOrdId`);
    let answer: RestAnswer;
    try {
      answer = await this.signed(account, 'POST', '/api/v5/trade/order', body, COST.trade, ORDER_TIMEOUT_MS, false, { expTime: String(Date.now() + ACCEPT_WINDOW_MS) });
    } catch (err) {
      // Refused as a whole (a bad signature, a rate limit): nothing reached the book.
      if (err instanceof VenueRejection) return refusedLeg(err.reason);
      throw err;
    }
    const ack = decodeOrderAck(answer.body);
    if (ack === undefined) throw new RestFailure('unreadable order answer', 'timeout');
    if (!ack.ok) {
      if (FATE_UNKNOWN.has(ack.code)) throw new RestFailure(ack.reason, 'timeout');
      return refusedLeg(ack.reason);
    }
    // The place answer carries no fills: read the order until the engine is done with an IOC.
    // The order is on the venue now: any failure from here leaves its fate to reconciliation,
    // never a refusal (a local rate limit on the read included).
    try {
      const found = await this.settled(account, instId, okxClientOrderId(leg.child_id)!, leg.symbol, leg.time_in_force === 'ioc');
      if (!found.found) throw new Error('placed but not found');
      return found.report;
    } catch (err) {
      throw new RestFailure(`order placed, its state not read: ${(err as Error).message}`, 'timeout');
    }
  }

  async lookup(account: VenueAccount, child_id: string, symbol: string, knownFilled_1e8?: number): Promise<OrderLookup> {
    const clOrdId = okxClientOrderId(child_id);
    if (clOrdId === undefined) return { found: false };
    return this.settled(account, instIdOf(symbol), clOrdId, symbol, false, knownFilled_1e8);
  }

  async cancel(account: VenueAccount, child_id: string, symbol: string): Promise<{ found: boolean; cancelled_qty_1e8: number }> {
    const instId = instIdOf(symbol);
    const clOrdId = okxClientOrderId(child_id);
    if (clOrdId === undefined) return { found: false, cancelled_qty_1e8: 0 };
    const before = await this.order(account, instId, clOrdId);
    if (before === undefined || before.resting_qty_1e8 === 0) return { found: false, cancelled_qty_1e8: 0 };
    const answer = await this.signed(account, 'POST', '/api/v5/trade/cancel-order', JSON.stringify({ instId, clOrdId }), COST.trade, QUERY_TIMEOUT_MS, false);
    const ack = decodeOrderAck(answer.body);
    if (ack === undefined) throw new RestFailure('unreadable cancel answer', 'timeout');
    if (!ack.ok) {
      if (ack.unknownOrder) return { found: false, cancelled_qty_1e8: 0 };
      throw new VenueRejection(ack.reason);
    }
    const after = await this.order(account, instId, clOrdId);
    return cancelledBetween(before, after);
  }

  /**
   * Every row of a paged list (100 a page, the next page `after` the last row's cursor field):
   * an account with more than 100 open orders, or an order with more than 100 fills, is read whole.
   */
  private async allRows(account: VenueAccount, path: string, cursor: string): Promise<Record<string, unknown>[]> {
    const rows: Record<string, unknown>[] = [];
    let after = '';
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = await this.signed(account, 'GET', `${path}&limit=${PAGE}${after === '' ? '' : `&after=${after}`}`, '', COST.query, QUERY_TIMEOUT_MS, true);
      const data = ((answer.body as { data?: unknown }).data ?? []) as Record<string, unknown>[];
      rows.push(...data);
      const last = data[data.length - 1]?.[cursor];
      if (data.length < PAGE || typeof last !== 'string' || last === '') return rows;
      after = last;
    }
    throw new RestFailure(`${path}: more than ${MAX_PAGES} pages`, 'network');
  }

  async ownOpenOrders(account: VenueAccount): Promise<{ child_id: string; symbol: string }[]> {
    const out: { child_id: string; symbol: string }[] = [];
    for (const r of await this.allRows(account, '/api/v5/trade/orders-pending?instType=SPOT', 'ordId')) {
      const child = typeof r['clOrdId'] === 'string' ? childIdOfOkx(r['clOrdId']) : undefined;
      if (child !== undefined && typeof r['instId'] === 'string' && this.listings.has(r['instId'])) out.push({ child_id: child, symbol: r['instId'] });
    }
    return out;
  }

  async cancelAll(account: VenueAccount, symbols: readonly string[]): Promise<number> {
    const wanted = new Set(symbols.map(instIdOf));
    const rows = await this.allRows(account, '/api/v5/trade/orders-pending?instType=SPOT', 'ordId');
    const open = rows.filter((r) => typeof r['instId'] === 'string' && wanted.has(r['instId']) && typeof r['ordId'] === 'string').map((r) => ({ instId: r['instId'] as string, ordId: r['ordId'] as string }));
    let cancelled = 0;
    // At most 20 orders per batch request.
    for (let i = 0; i < open.length; i += 20) {
      const answer = await this.signed(account, 'POST', '/api/v5/trade/cancel-batch-orders', JSON.stringify(open.slice(i, i + 20)), COST.trade, QUERY_TIMEOUT_MS, false);
      const done = ((answer.body as { data?: unknown }).data ?? []) as Record<string, unknown>[];
      cancelled += done.filter((r) => r['sCode'] === '0').length;
      // 51400 (already filled or cancelled) is nothing left to cancel; anything else is a refusal to report.
      const refusedRows = done.filter((r) => r['sCode'] !== '0' && r['sCode'] !== '51400');
      if (refusedRows.length > 0) throw new VenueRejection(`okx: ${refusedRows.length} orders not cancelled (${String(refusedRows[0]!['sCode'])}: ${String(refusedRows[0]!['sMsg'])})`);
    }
    return cancelled;
  }

  async balances(account: VenueAccount): Promise<AssetBalance[]> {
    const answer = await this.signed(account, 'GET', '/api/v5/account/balance', '', COST.balance, QUERY_TIMEOUT_MS, true);
    const balances = decodeBalances(answer.body);
    if (balances === undefined) throw new RestFailure('unreadable balance answer', 'network');
    return balances;
  }

  async probe(account: VenueAccount): Promise<AccountProbe> {
    const config = await this.signed(account, 'GET', '/api/v5/account/config', '', COST.config, QUERY_TIMEOUT_MS, true);
    const perm = String(((config.body as { data?: Record<string, unknown>[] }).data ?? [])[0]?.['perm'] ?? '');
    const fee = await this.signed(account, 'GET', '/api/v5/account/trade-fee?instType=SPOT', '', COST.tradeFee, QUERY_TIMEOUT_MS, true);
    const row = ((fee.body as { data?: Record<string, unknown>[] }).data ?? [])[0] ?? {};
    // OKX writes a charged rate as a negative fraction ("-0.001"): bps, charged positive.
    const bps = (v: unknown, fallback: number) => (typeof v === 'string' && v !== '' ? -Number(v) * 10_000 : fallback);
    return {
      tier: typeof row['level'] === 'string' ? row['level'] : 'unknown',
      maker_bps: bps(row['maker'], this.fees.maker_bps),
      taker_bps: bps(row['taker'], this.fees.taker_bps),
      can_trade: perm.split(',').includes('trade'),
      can_withdraw: perm === '' ? null : perm.split(',').includes('withdraw'),
    };
  }

  /** The order and its fills, read again while an IOC is still in the matching engine or its fills lag its state. */
  private async settled(account: VenueAccount, instId: string, clOrdId: string, symbol: string, ioc: boolean, knownFilled_1e8?: number): Promise<OrderLookup> {
    for (let poll = 0; ; poll++) {
      const order = await this.order(account, instId, clOrdId);
      if (order === undefined) return { found: false };
      const working = order.state === 'live' || order.state === 'partially_filled';
      // Nothing executed since the caller was told: the fills need no read (a resting leg's poll).
      if (order.filled_qty_1e8 === knownFilled_1e8 && !(ioc && working)) return { found: true, report: legReportOf(order, []) };
      let fills: LegReport['fills'] = [];
      if (order.filled_qty_1e8 > 0) {
        const rows = await this.allRows(account, `/api/v5/trade/fills?instType=SPOT&instId=${instId}&ordId=${order.ordId}`, 'billId');
        fills = decodeFills({ code: '0', msg: '', data: rows }, this.feeContext(symbol)) ?? [];
      }
      const complete = fills.reduce((sum, f) => sum + f.qty_1e8, 0) === order.filled_qty_1e8;
      if ((complete && !(ioc && working)) || poll >= SETTLE_POLLS) {
        if (!complete || (ioc && working)) throw new RestFailure(`order ${clOrdId} not settled`, 'timeout');
        return { found: true, report: legReportOf(order, fills) };
      }
      await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
    }
  }

  private async order(account: VenueAccount, instId: string, clOrdId: string): Promise<OkxOrder | undefined> {
    try {
      const answer = await this.signed(account, 'GET', `/api/v5/trade/order?instId=${instId}&clOrdId=${clOrdId}`, '', COST.query, QUERY_TIMEOUT_MS, true);
      const order = decodeOrder(answer.body);
      if (order === undefined) throw new RestFailure('unreadable order', 'network');
      return order;
    } catch (err) {
      if (err instanceof VenueRejection && err.unknownOrder) return undefined;
      throw err;
    }
  }

  /**
   * A signed request: `OK-ACCESS-SIGN` over timestamp + method + path (with query) + body.
   * `strict`: a non-"0" code in a 200 answer is a rejection (reads); an order or cancel answer
   * is decoded by the caller, whose rows say more.
   */
  private async signed(account: VenueAccount, method: 'GET' | 'POST', path: string, body: string, cost: readonly number[], timeoutMs: number, strict: boolean, extra: Record<string, string> = {}): Promise<RestAnswer> {
    const { api_key, api_secret, passphrase } = account.credentials;
    const timestamp = new Date().toISOString();
    const answer = await this.rest.send({
      method,
      path,
      headers: {
        'OK-ACCESS-KEY': api_key,
        'OK-ACCESS-SIGN': okxSignature(timestamp, method, path, body, api_secret),
        'OK-ACCESS-TIMESTAMP': timestamp,
        'OK-ACCESS-PASSPHRASE': passphrase ?? '',
        ...(body === '' ? {} : { 'Content-Type': 'application/json' }),
        ...extra,
      },
      ...(body === '' ? {} : { body }),
      cost,
      timeoutMs,
    });
    const error = okxError(answer.body);
    if (answer.status >= 500 || (error !== undefined && FATE_UNKNOWN.has(error.code))) throw new RestFailure(`okx ${error?.code ?? answer.status}: fate unknown`, 'timeout');
    if (answer.status !== 200) throw new VenueRejection(error === undefined ? `okx ${answer.status}` : `okx ${error.code}: ${error.msg}`, error !== undefined && NO_SUCH_ORDER.has(error.code));
    if (strict && error !== undefined) throw new VenueRejection(`okx ${error.code}: ${error.msg}`, NO_SUCH_ORDER.has(error.code));
    return answer;
  }

  private feeContext(symbol: string): FeeContext {
    return feeContextOf(this.listings.get(symbol), this.fees);
  }
}
