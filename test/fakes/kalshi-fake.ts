import { constants, createPublicKey, generateKeyPairSync, randomUUID, verify, type KeyObject } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebSocket } from 'ws';
import { P, parseDec, Q } from './exchange-core.ts';
import { FakeVenueServer } from './fake-server.ts';

/**
 * A local Kalshi (trade API v2) on loopback, written from Kalshi's docs independently of the
 * adapter's core (`actors/edge/live/kalshi/codec.ts` is not imported here):
 *
 *  - Every request under `/trade-api/v2/portfolio` and `/account` is authenticated as Kalshi does:
 *    `KALSHI-ACCESS-KEY` (the key id), `KALSHI-ACCESS-TIMESTAMP` (ms, within 60 s) and
 *    `KALSHI-ACCESS-SIGNATURE`, RSA-PSS/SHA-256 (salt of the digest's length) over timestamp +
 *    METHOD + the path without its query, verified with the account's public key; refused with
 *    the 401 body Kalshi answers (`authentication_error`, INCORRECT_API_KEY_SIGNATURE).
 *  - The WebSocket `/trade-api/ws/v2` checks the same headers on its handshake (signed as
 *    `GET /trade-api/ws/v2`); a connection without them is closed at once (1008), where Kalshi
 *    refuses the upgrade with a 401. It pings every 10 s, as Kalshi does.
 *  - `orderbook_delta`: `subscribe` answers `subscribed` with the session's sid (a second one is
 *    refused, error 6), then an `orderbook_snapshot` per market; every book message, `ok` and
 *    `unsubscribed` of the subscription takes the next `seq` of its sid. `update_subscription`
 *    adds or deletes markets or sends their snapshots again. Books are Kalshi's own: YES bids and
 *    NO bids; with `use_yes_price` NO levels go out in YES prices.
 *  - Orders on the V2 endpoints only (`POST /portfolio/events/orders`: a bid or an ask on the YES
 *    book, `immediate_or_cancel` or `good_till_canceled`), matched against the other side's bids;
 *    fills with UUID fill ids and `fee_cost` (0.07 x C x P x (1 - P) x the series' multiplier,
 *    rounded up to $0.0001). The legacy `POST /portfolio/orders` answers "Please switch to the V2
 *    endpoints".
 *  - Lists page by `cursor` (`limit`, and `pageMax` to force small pages): events (with nested
 *    markets, `status`, `tickers`), orders (`ticker`, `status`, `min_ts`), fills (`order_id`),
 *    positions.
 *  - Rate limits (`rateLimitNext`): a signed request over the account's bucket is answered 429
 *    `{"error": "too many requests"}`, without `Retry-After` (Kalshi sends none), and nothing is
 *    done.
 *
 * Prices are USD x 1e9, counts contracts x 1e8, money USD x 1e9, as the engine's.
 */

export interface KalshiFakeMarket {
  ticker: string;
  event_ticker: string;
  series_ticker: string;
  event_title: string;
  category: string;
  title: string;
  yes_sub_title: string;
  market_type: 'binary' | 'scalar';
  status: 'initialized' | 'active' | 'inactive' | 'closed' | 'determined' | 'finalized';
  result: '' | 'yes' | 'no';
  created_ms: number;
  open_ms: number;
  close_ms: number;
  settlement_ms: number | null;
  structure: string;
  exchange_index: number;
  volume_1e8: number;
  volume_24h_1e8: number;
  /** YES bids by YES price, NO bids by NO price: Kalshi's two books (contracts x 1e8) */
  yes: Map<number, number>;
  no: Map<number, number>;
}

/** What `addMarket` takes: the market's ticker and event, the rest defaulted (an active binary market on whole cents, open an hour ago, closing in a day). */
export type KalshiMarketSpec = Pick<KalshiFakeMarket, 'ticker' | 'event_ticker'> & Partial<Omit<KalshiFakeMarket, 'ticker' | 'event_ticker' | 'yes' | 'no'>>;

export interface KalshiFakeAccount {
  keyId: string;
  publicKey: KeyObject;
  /** available cash, USD x 1e9 */
  balance_1e9: bigint;
  /** `usage_tier` of `/account/limits` */
  tier: string;
  /** contracts held by market: positive YES, negative NO (x 1e8) */
  positions: Map<string, number>;
}

export interface KalshiFakeOrder {
  order_id: string;
  client_order_id: string;
  keyId: string;
  ticker: string;
  /** on the YES book: bid buys YES, ask sells it (buys NO) */
  side: 'bid' | 'ask';
  yes_price_1e9: number;
  time_in_force: 'immediate_or_cancel' | 'good_till_canceled';
  initial_1e8: number;
  filled_1e8: number;
  /** resting: on the book; executed: filled whole; canceled: what was left cancelled */
  status: 'resting' | 'executed' | 'canceled';
  taker_fees_1e9: number;
  created_ms: number;
  exchange_index: number;
}

export interface KalshiFakeFill {
  fill_id: string;
  order_id: string;
  keyId: string;
  ticker: string;
  side: 'bid' | 'ask';
  yes_price_1e9: number;
  count_1e8: number;
  is_taker: boolean;
  fee_1e9: number;
  created_ms: number;
}

/** Price level structures (getting_started/fixed_point_migration), [start, end, step] in USD x 1e9. */
const STRUCTURES: Record<string, [number, number, number][]> = {
  linear_cent: [[0, P, 10_000_000]],
  deci_cent: [[0, P, 1_000_000]],
  tapered_deci_cent: [[0, 100_000_000, 1_000_000], [100_000_000, 900_000_000, 10_000_000], [900_000_000, P, 1_000_000]],
};
/** Tiers' buckets (getting_started/rate_limits): tokens refilled a second and the bucket's capacity. */
const TIERS: Record<string, { read: [number, number]; write: [number, number] }> = {
  basic: { read: [200, 400], write: [100, 100] },
  advanced: { read: [300, 600], write: [300, 600] },
  premier: { read: [1000, 1000], write: [1000, 2000] },
};
const WS_PATH = '/trade-api/ws/v2';
const API = '/trade-api/v2';
const TIMESTAMP_WINDOW_MS = 60_000;
const DAY_MS = 86_400_000;

/** `value` (x 10^`scale`) with `places` decimals; the fake never writes a figure it would have to round. */
function fixed(value: number | bigint, scale: number, places: number): string {
  const v = BigInt(value);
  const negative = v < 0n;
  const abs = negative ? -v : v;
  const unit = 10n ** BigInt(scale - places);
  if (abs % unit !== 0n) throw new RangeError(`${value} has more than ${places} decimals at scale ${scale}`);
  const digits = (abs / unit).toString().padStart(places + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, digits.length - places)}.${digits.slice(digits.length - places)}`;
}
const dollars = (p: number) => fixed(p, 9, 4);
const money = (m: number | bigint) => fixed(m, 9, 6);
const count = (q: number) => fixed(q, 8, 2);
const iso = (ms: number) => new Date(ms).toISOString();

/** A text decimal with at most `places` decimals as an integer x 10^`scale`; NaN otherwise. */
function decimal(text: unknown, scale: number, places: number): number {
  if (typeof text !== 'string' || !new RegExp(`^\\d+(\\.\\d{1,${places}})?$`).test(text)) return NaN;
  return parseDec(text, 10 ** scale);
}

/** The taker's fee of a fill: 0.07 x C x P x (1 - P) x multiplier, rounded up to $0.0001 (USD x 1e9). */
function takerFee(qty_1e8: number, price_1e9: number, multiplier: number): number {
  const num = 7n * BigInt(Math.round(multiplier * 1000)) * BigInt(qty_1e8) * BigInt(price_1e9) * BigInt(P - price_1e9);
  const den = 100n * 1000n * BigInt(Q) * BigInt(P) * 100_000n;
  return Number((num + den - 1n) / den) * 100_000;
}

/** One `orderbook_delta` subscription of a connection. */
interface Subscription {
  sid: number;
  seq: number;
  tickers: Set<string>;
  useYesPrice: boolean;
}

type Send = (status: number, payload: unknown) => void;

export class KalshiFake extends FakeVenueServer {
  /** Knobs. */
  swallowOrderAnswers = 0;
  /** the most rows a list answers at once, whatever `limit` asks (to test paging) */
  pageMax = Number.POSITIVE_INFINITY;
  exchangeStatus = { exchange_active: true, trading_active: true };
  /** The next N signed requests find the account's bucket empty: 429, nothing done. */
  rateLimitNext = 0;
  /** Counters a test reads. */
  readonly seen = { requests: 0, orders: 0, rate_limited: 0, signatures_refused: 0, ws_refused: 0, order_lists: 0, order_reads: 0, fill_reads: 0, cancels: 0, batch_cancels: 0, event_pages: 0, series_reads: 0, subscribes: 0, snapshots: 0, deltas: 0 };
  private readonly markets = new Map<string, KalshiFakeMarket>();
  private readonly series = new Map<string, { fee_type: string; fee_multiplier: number }>();
  private readonly accounts = new Map<string, KalshiFakeAccount>();
  private readonly orders: KalshiFakeOrder[] = [];
  private readonly fills: KalshiFakeFill[] = [];
  private readonly streams = new Map<WebSocket, { nextSid: number; book?: Subscription }>();
  private readonly breakNext = new Set<string>();
  private nextFill = 1;
  private readonly pinger: NodeJS.Timeout;

  constructor() {
    super(WS_PATH);
    this.pinger = setInterval(() => {
      for (const ws of this.subscribers.keys()) ws.ping();
    }, 10_000);
    this.pinger.unref();
  }

  override async close(): Promise<void> {
    clearInterval(this.pinger);
    await super.close();
  }

  /** A fresh RSA key as a Kalshi API key: its id, the private PEM (what the credentials store), the public key (what `addAccount` takes). */
  static newKey(): { keyId: string; privatePem: string; publicKey: KeyObject } {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    return { keyId: randomUUID(), privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), publicKey };
  }

  // --- knobs -----------------------------------------------------------------------------------

  /** An account: its API key id and public key, its cash (USD x 1e9), its usage tier (default basic). */
  addAccount(a: { keyId: string; publicKey: KeyObject | string; balance_1e9: number | bigint; tier?: string }): KalshiFakeAccount {
    const account = { keyId: a.keyId, publicKey: typeof a.publicKey === 'string' ? createPublicKey(a.publicKey) : a.publicKey, balance_1e9: BigInt(a.balance_1e9), tier: a.tier ?? 'basic', positions: new Map<string, number>() };
    this.accounts.set(a.keyId, account);
    return account;
  }

  account(keyId: string): KalshiFakeAccount | undefined {
    return this.accounts.get(keyId);
  }

  /**
   * Lists a market (its event made on first use, named by `event_title`; its series the event
   * ticker's first segment unless given). Calling it again for a ticker changes what is given
   * and keeps the book.
   */
  addMarket(spec: KalshiMarketSpec): KalshiFakeMarket {
    const now = Date.now();
    const known = this.markets.get(spec.ticker);
    const market: KalshiFakeMarket = {
      series_ticker: spec.event_ticker.split('-')[0]!,
      event_title: `Event ${spec.event_ticker}?`,
      category: 'Economics',
      title: `Market ${spec.ticker}?`,
      yes_sub_title: spec.ticker.slice(spec.event_ticker.length + 1),
      market_type: 'binary',
      status: 'active',
      result: '',
      created_ms: now - 2 * 3_600_000,
      open_ms: now - 3_600_000,
      close_ms: now + DAY_MS,
      settlement_ms: null,
      structure: 'linear_cent',
      exchange_index: 0,
      volume_1e8: 0,
      volume_24h_1e8: 0,
      yes: new Map(),
      no: new Map(),
      ...known,
      ...spec,
    };
    if (STRUCTURES[market.structure] === undefined) throw new Error(`the fake knows no structure ${market.structure}`);
    this.markets.set(spec.ticker, market);
    return market;
  }

  /** A series' fee schedule (`GET /series/{ticker}`); a series never set answers quadratic x 1. */
  setSeriesFee(series: string, fee_type: string, fee_multiplier: number): void {
    this.series.set(series, { fee_type, fee_multiplier });
  }

  /**
   * The market's outcome is determined (status `determined`, `result` yes or no); `finalized`:
   * paid out too (status `finalized`, `settlement_ts` now, each position worth $1 a contract on
   * the winning side).
   */
  resolve(marketId: string, yesWon: boolean, finalized = false): void {
    const m = this.markets.get(marketId)!;
    m.result = yesWon ? 'yes' : 'no';
    m.status = finalized ? 'finalized' : 'determined';
    // Determined means closed (a market that can close early closes then).
    m.close_ms = Math.min(m.close_ms, Date.now());
    if (!finalized) return;
    m.settlement_ms = Date.now();
    for (const a of this.accounts.values()) {
      const held = a.positions.get(marketId) ?? 0;
      if ((held > 0 && yesWon) || (held < 0 && !yesWon)) a.balance_1e9 += (BigInt(Math.abs(held)) * BigInt(P)) / BigInt(Q);
      a.positions.delete(marketId);
    }
  }

  /**
   * A level of a leg's book in engine units (qty 0 removes it), kept as Kalshi keeps it: a YES
   * ask at p is a NO bid at 1 - p, a NO ask at p a YES bid at 1 - p. Subscribers get the delta.
   */
  setLevel(marketId: string, leg: 'YES' | 'NO', side: 'bid' | 'ask', price_1e9: number, qty_1e8: number): void {
    const m = this.markets.get(marketId)!;
    const book: 'yes' | 'no' = (leg === 'YES') === (side === 'bid') ? 'yes' : 'no';
    const price = side === 'bid' ? price_1e9 : P - price_1e9;
    this.changeLevel(m, book, price, qty_1e8 - (m[book].get(price) ?? 0));
  }

  /** The next delta of this market skips a sequence number on every subscription carrying it. */
  breakNextDelta(marketId: string): void {
    this.breakNext.add(marketId);
  }

  /** The orders an account placed (by its key id), oldest first. */
  ordersOf(accountKey: string): KalshiFakeOrder[] {
    return this.orders.filter((o) => o.keyId === accountKey);
  }

  fillsOf(orderId: string): KalshiFakeFill[] {
    return this.fills.filter((f) => f.order_id === orderId);
  }

  // --- the stream ------------------------------------------------------------------------------

  protected override onWsConnection(ws: WebSocket, req: IncomingMessage): boolean {
    if (this.authenticate(req, 'GET', WS_PATH) === undefined) {
      this.seen.ws_refused++;
      ws.close(1008, 'authentication_error');
      return false;
    }
    this.streams.set(ws, { nextSid: 1 });
    ws.on('close', () => this.streams.delete(ws));
    return true;
  }

  protected onWsMessage(ws: WebSocket, text: string): void {
    const session = this.streams.get(ws);
    if (session === undefined) return;
    let cmd: { id?: number; cmd?: string; params?: { channels?: string[]; market_tickers?: string[]; use_yes_price?: boolean; sids?: number[]; action?: string } };
    try {
      cmd = JSON.parse(text) as typeof cmd;
    } catch {
      return this.wsError(ws, undefined, 1, 'Unable to process message');
    }
    const id = cmd.id;
    const params = cmd.params ?? {};
    const tickers = params.market_tickers ?? [];
    const unknown = tickers.find((t) => !this.markets.has(t));
    switch (cmd.cmd) {
      case 'subscribe': {
        if (!(params.channels ?? []).includes('orderbook_delta')) return this.wsError(ws, id, 8, 'Unknown channel name');
        if (session.book !== undefined) return this.wsError(ws, id, 6, 'Already subscribed');
        if (tickers.length === 0) return this.wsError(ws, id, 14, 'Market Ticker required');
        if (unknown !== undefined) return this.wsError(ws, id, 16, 'Market not found');
        this.seen.subscribes++;
        const sub: Subscription = { sid: session.nextSid++, seq: 0, tickers: new Set(tickers), useYesPrice: params.use_yes_price === true };
        session.book = sub;
        ws.send(JSON.stringify({ id, type: 'subscribed', msg: { channel: 'orderbook_delta', sid: sub.sid } }));
        for (const t of tickers) this.sendSnapshot(ws, sub, t);
        return;
      }
      case 'update_subscription': {
        const sub = session.book;
        if (sub === undefined || params.sids?.length !== 1 || params.sids[0] !== sub.sid) return this.wsError(ws, id, 7, 'Unknown subscription ID');
        if (tickers.length === 0) return this.wsError(ws, id, 14, 'Market Ticker required');
        if (unknown !== undefined) return this.wsError(ws, id, 16, 'Market not found');
        if (params.action === 'add_markets') for (const t of tickers) sub.tickers.add(t);
        else if (params.action === 'delete_markets') for (const t of tickers) sub.tickers.delete(t);
        else if (params.action !== 'get_snapshot') return this.wsError(ws, id, 13, 'Unsupported action');
        ws.send(JSON.stringify({ id, type: 'ok', sid: sub.sid, seq: ++sub.seq, msg: { market_tickers: [...sub.tickers] } }));
        if (params.action !== 'delete_markets') for (const t of tickers) if (sub.tickers.has(t)) this.sendSnapshot(ws, sub, t);
        return;
      }
      case 'unsubscribe': {
        const sub = session.book;
        if (sub === undefined || !(params.sids ?? []).includes(sub.sid)) return this.wsError(ws, id, 7, 'Unknown subscription ID');
        session.book = undefined;
        ws.send(JSON.stringify({ id, type: 'unsubscribed', sid: sub.sid, seq: ++sub.seq }));
        return;
      }
      default:
        return this.wsError(ws, id, 5, 'Unknown command');
    }
  }

  private wsError(ws: WebSocket, id: number | undefined, code: number, msg: string): void {
    ws.send(JSON.stringify({ id, type: 'error', msg: { code, msg } }));
  }

  /** NO levels in NO prices, or in YES prices for a `use_yes_price` subscription; ascending; a side absent when empty. */
  private sendSnapshot(ws: WebSocket, sub: Subscription, ticker: string): void {
    const m = this.markets.get(ticker)!;
    const levels = (book: Map<number, number>, mirror: boolean) =>
      [...book.entries()]
        .map(([p, q]) => [mirror ? P - p : p, q] as const)
        .sort((a, b) => a[0] - b[0])
        .map(([p, q]) => [dollars(p), count(q)]);
    const msg: Record<string, unknown> = { market_ticker: ticker, market_id: marketUuid(ticker) };
    if (m.yes.size > 0) msg['yes_dollars_fp'] = levels(m.yes, false);
    if (m.no.size > 0) msg['no_dollars_fp'] = levels(m.no, sub.useYesPrice);
    this.seen.snapshots++;
    ws.send(JSON.stringify({ type: 'orderbook_snapshot', sid: sub.sid, seq: ++sub.seq, msg }));
  }

  /** Adds `delta` contracts at a price of one of Kalshi's books (its own leg's price) and tells the subscribers. */
  private changeLevel(m: KalshiFakeMarket, book: 'yes' | 'no', price: number, delta: number): void {
    if (delta === 0) return;
    const next = (m[book].get(price) ?? 0) + delta;
    if (next < 0) throw new Error(`the fake's ${book} book at ${price} would go below 0`);
    if (next === 0) m[book].delete(price);
    else m[book].set(price, next);
    const skip = this.breakNext.delete(m.ticker);
    const now = Date.now();
    for (const [ws, session] of this.streams) {
      const sub = session.book;
      if (sub === undefined || !sub.tickers.has(m.ticker)) continue;
      if (skip) sub.seq++;
      const sent = book === 'no' && sub.useYesPrice ? P - price : price;
      this.seen.deltas++;
      ws.send(JSON.stringify({ type: 'orderbook_delta', sid: sub.sid, seq: ++sub.seq, msg: { market_ticker: m.ticker, market_id: marketUuid(m.ticker), price_dollars: dollars(sent), delta_fp: count(delta), side: book, ts: iso(now), ts_ms: now } }));
    }
  }

  // --- REST ------------------------------------------------------------------------------------

  /** The account a request is signed by, verified as Kalshi does; undefined when it is not. */
  private authenticate(req: IncomingMessage, method: string, path: string): KalshiFakeAccount | undefined {
    const header = (name: string) => {
      const v = req.headers[name];
      return typeof v === 'string' ? v : '';
    };
    const account = this.accounts.get(header('kalshi-access-key'));
    const timestamp = header('kalshi-access-timestamp');
    const signature = header('kalshi-access-signature');
    if (account === undefined || !/^\d{13}$/.test(timestamp) || signature === '' || Math.abs(Date.now() - Number(timestamp)) > TIMESTAMP_WINDOW_MS) {
      this.seen.signatures_refused++;
      return undefined;
    }
    const signed = verify('sha256', Buffer.from(timestamp + method + path), { key: account.publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }, Buffer.from(signature, 'base64'));
    if (!signed) {
      this.seen.signatures_refused++;
      return undefined;
    }
    return account;
  }

  protected async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.seen.requests++;
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    const path = url.pathname;
    const body = await FakeVenueServer.body(req);
    const send: Send = (status, payload) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    const q = url.searchParams;
    if (!path.startsWith(API)) return send(404, { error: { code: 'not_found', message: 'not found' } });
    const route = path.slice(API.length);
    // Public: the catalog and the exchange's status.
    if (method === 'GET' && route === '/events') return this.events(q, send);
    if (method === 'GET' && route.startsWith('/series/')) return this.seriesAnswer(decodeURIComponent(route.slice('/series/'.length)), send);
    if (method === 'GET' && route === '/exchange/status') return send(200, { ...this.exchangeStatus, exchange_estimated_resume_time: null });
    const account = this.authenticate(req, method, path);
    if (account === undefined) return send(401, { error: { code: 'authentication_error', message: 'authentication_error', details: 'rpc error: code = Unauthenticated desc = INCORRECT_API_KEY_SIGNATURE' } });
    // After the signature: Kalshi's buckets are per account, so the key must be known first.
    if (this.rateLimitNext > 0) {
      this.rateLimitNext--;
      this.seen.rate_limited++;
      return send(429, { error: 'too many requests' });
    }
    if (method === 'POST' && route === '/portfolio/events/orders') return this.create(account, body, send, res);
    if (method === 'POST' && route === '/portfolio/orders') return send(400, { error: { code: 'bad_request', message: 'Please switch to the V2 endpoints' } });
    if (method === 'DELETE' && route === '/portfolio/events/orders/batched') return this.batchCancel(account, body, send);
    if (method === 'DELETE' && route.startsWith('/portfolio/events/orders/')) return this.cancel(account, decodeURIComponent(route.slice('/portfolio/events/orders/'.length)), send);
    if (method === 'GET' && route === '/portfolio/orders') return this.orderList(account, q, send);
    if (method === 'GET' && route.startsWith('/portfolio/orders/')) {
      this.seen.order_reads++;
      const o = this.orders.find((x) => x.keyId === account.keyId && x.order_id === decodeURIComponent(route.slice('/portfolio/orders/'.length)));
      return o === undefined ? send(404, { error: { code: 'not_found', message: 'order not found' } }) : send(200, { order: orderJson(o) });
    }
    if (method === 'GET' && route === '/portfolio/fills') return this.fillList(account, q, send);
    if (method === 'GET' && route === '/portfolio/balance') return send(200, { balance: Number(account.balance_1e9 / 10_000_000n), balance_dollars: money(account.balance_1e9), portfolio_value: 0, updated_ts: Math.floor(Date.now() / 1000) });
    if (method === 'GET' && route === '/portfolio/positions') {
      const rows = [...account.positions].filter(([, n]) => n !== 0).map(([ticker, n]) => ({ ticker, position_fp: count(n), market_exposure_dollars: '0.0000', realized_pnl_dollars: '0.0000', fees_paid_dollars: '0.0000', exchange_index: this.markets.get(ticker)?.exchange_index ?? 0 }));
      return send(200, { ...this.page(rows, q, 1000, 'market_positions') });
    }
    if (method === 'GET' && route === '/account/limits') {
      const t = TIERS[account.tier] ?? TIERS['basic']!;
      return send(200, { usage_tier: account.tier, read: { refill_rate: t.read[0], bucket_capacity: t.read[1] }, write: { refill_rate: t.write[0], bucket_capacity: t.write[1] }, grants: [] });
    }
    return send(404, { error: { code: 'not_found', message: `unknown route ${method} ${path}` } });
  }

  /** A list's page from `cursor` (the offset, as Kalshi's opaque text), `limit` rows at most (and `pageMax`); the next cursor empty on the last page. */
  private page<T>(rows: readonly T[], q: URLSearchParams, maxLimit: number, key: string): Record<string, unknown> {
    const offset = q.get('cursor') === null || q.get('cursor') === '' ? 0 : Number(Buffer.from(q.get('cursor')!, 'base64url').toString());
    const size = Math.min(Number(q.get('limit') ?? 100), maxLimit, this.pageMax);
    const end = offset + size;
    return { [key]: rows.slice(offset, end), cursor: end < rows.length ? Buffer.from(String(end)).toString('base64url') : '' };
  }

  private events(q: URLSearchParams, send: Send): void {
    this.seen.event_pages++;
    const byEvent = new Map<string, KalshiFakeMarket[]>();
    for (const m of this.markets.values()) byEvent.set(m.event_ticker, [...(byEvent.get(m.event_ticker) ?? []), m]);
    const status = q.get('status');
    const wanted = q.get('tickers')?.split(',');
    const matches: Record<string, readonly string[]> = { open: ['active', 'inactive'], unopened: ['initialized'], closed: ['closed'], settled: ['finalized'] };
    const rows = [...byEvent.entries()]
      .filter(([event, markets]) => (wanted === undefined || wanted.includes(event)) && (status === null || markets.some((m) => matches[status]?.includes(m.status))))
      .map(([event, markets]) => ({
        event_ticker: event,
        series_ticker: markets[0]!.series_ticker,
        title: markets[0]!.event_title,
        sub_title: '',
        category: markets[0]!.category,
        mutually_exclusive: markets.length > 1,
        collateral_return_type: '',
        ...(q.get('with_nested_markets') === 'true' ? { markets: markets.map((m) => this.marketJson(m)) } : {}),
      }));
    send(200, this.page(rows, q, 200, 'events'));
  }

  private marketJson(m: KalshiFakeMarket): Record<string, unknown> {
    const best = (book: Map<number, number>) => (book.size === 0 ? undefined : Math.max(...book.keys()));
    const yesBid = best(m.yes);
    const noBid = best(m.no);
    return {
      ticker: m.ticker,
      event_ticker: m.event_ticker,
      market_type: m.market_type,
      title: m.title,
      yes_sub_title: m.yes_sub_title,
      no_sub_title: m.yes_sub_title,
      created_time: iso(m.created_ms),
      open_time: iso(m.open_ms),
      close_time: iso(m.close_ms),
      expected_expiration_time: iso(m.close_ms + 3_600_000),
      latest_expiration_time: iso(m.close_ms + 7 * DAY_MS),
      settlement_timer_seconds: 1800,
      ...(m.settlement_ms === null ? {} : { settlement_ts: iso(m.settlement_ms) }),
      status: m.status,
      result: m.result,
      can_close_early: true,
      notional_value_dollars: '1.0000',
      yes_bid_dollars: dollars(yesBid ?? 0),
      yes_ask_dollars: dollars(noBid === undefined ? P : P - noBid),
      no_bid_dollars: dollars(noBid ?? 0),
      no_ask_dollars: dollars(yesBid === undefined ? P : P - yesBid),
      last_price_dollars: '0.0000',
      volume_fp: count(m.volume_1e8),
      volume_24h_fp: count(m.volume_24h_1e8),
      open_interest_fp: '0.00',
      rules_primary: `If ${m.title} then the market resolves to Yes.`,
      rules_secondary: '',
      price_level_structure: m.structure,
      price_ranges: STRUCTURES[m.structure]!.map(([start, end, step]) => ({ start: dollars(start), end: dollars(end), step: dollars(step) })),
      exchange_index: m.exchange_index,
    };
  }

  private seriesAnswer(ticker: string, send: Send): void {
    this.seen.series_reads++;
    const known = [...this.markets.values()].some((m) => m.series_ticker === ticker);
    if (!known) return send(404, { error: { code: 'not_found', message: 'series not found' } });
    const fee = this.series.get(ticker) ?? { fee_type: 'quadratic', fee_multiplier: 1 };
    send(200, { series: { ticker, frequency: 'daily', title: `Series ${ticker}`, category: 'Economics', tags: [], settlement_sources: [], contract_url: '', contract_terms_url: '', fee_type: fee.fee_type, fee_multiplier: fee.fee_multiplier, additional_prohibitions: [] } });
  }

  // --- orders ----------------------------------------------------------------------------------

  private create(account: KalshiFakeAccount, body: string, send: Send, res: ServerResponse): void {
    this.seen.orders++;
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(body) as Record<string, unknown>;
    } catch {
      return send(400, { error: { code: 'invalid_parameters', message: 'invalid request body' } });
    }
    const refuse = (status: number, code: string, message: string) => send(status, { error: { code, message, details: '', service: 'exchange' } });
    const m = this.markets.get(String(o['ticker']));
    if (m === undefined) return refuse(404, 'market_not_found', 'market not found');
    const side = o['side'];
    const tif = o['time_in_force'];
    const clientOrderId = typeof o['client_order_id'] === 'string' ? o['client_order_id'] : '';
    if ((side !== 'bid' && side !== 'ask') || (tif !== 'immediate_or_cancel' && tif !== 'good_till_canceled') || typeof o['self_trade_prevention_type'] !== 'string') return refuse(400, 'invalid_parameters', 'side, time_in_force and self_trade_prevention_type are required');
    const qty = decimal(o['count'], 8, 2);
    if (!(qty > 0)) return refuse(400, 'invalid_order_size', 'count must be a positive multiple of 0.01');
    const price = decimal(o['price'], 9, 4);
    if (!onGrid(m, price)) return refuse(400, 'invalid_price', `price ${String(o['price'])} is not a price level of ${m.ticker}`);
    if (clientOrderId !== '' && this.orders.some((x) => x.keyId === account.keyId && x.client_order_id === clientOrderId)) return refuse(409, 'order_already_exists', 'order already exists');
    if (!this.exchangeStatus.trading_active || !this.exchangeStatus.exchange_active) return refuse(400, 'trading_paused', 'trading is paused');
    if (m.status !== 'active') return refuse(400, 'MARKET_INACTIVE', 'market is not active');
    // What opening the whole order at its limit would cost: the buyer's price, or 1 - price for the NO it buys.
    const worst = (BigInt(qty) * BigInt(side === 'bid' ? price : P - price)) / BigInt(Q);
    if (account.balance_1e9 < worst) return refuse(400, 'available_balance_too_low', 'Insufficient available balance');
    const order: KalshiFakeOrder = { order_id: randomUUID(), client_order_id: clientOrderId, keyId: account.keyId, ticker: m.ticker, side, yes_price_1e9: price, time_in_force: tif, initial_1e8: qty, filled_1e8: 0, status: 'executed', taker_fees_1e9: 0, created_ms: Date.now(), exchange_index: m.exchange_index };
    this.orders.push(order);
    this.match(account, m, order);
    const left = order.initial_1e8 - order.filled_1e8;
    if (left > 0 && tif === 'good_till_canceled') {
      order.status = 'resting';
      // Resting: a YES bid at its price, or (an ask) a NO bid at 1 - price.
      if (side === 'bid') this.changeLevel(m, 'yes', price, left);
      else this.changeLevel(m, 'no', P - price, left);
    } else order.status = left > 0 ? 'canceled' : 'executed';
    if (this.swallowOrderAnswers > 0) {
      this.swallowOrderAnswers--;
      res.socket?.destroy();
      return;
    }
    send(201, { order_id: order.order_id, client_order_id: clientOrderId, fill_count: count(order.filled_1e8), remaining_count: count(left), ts_ms: order.created_ms });
  }

  /** Takes what crosses: a bid the NO bids at or under 1 - price (best first), an ask the YES bids at or over its price. */
  private match(account: KalshiFakeAccount, m: KalshiFakeMarket, order: KalshiFakeOrder): void {
    const bid = order.side === 'bid';
    const book = bid ? m.no : m.yes;
    const levels = [...book.keys()].sort((a, b) => b - a).filter((p) => (bid ? P - p <= order.yes_price_1e9 : p >= order.yes_price_1e9));
    const multiplier = this.series.get(m.series_ticker)?.fee_multiplier ?? 1;
    for (const level of levels) {
      const take = Math.min(order.initial_1e8 - order.filled_1e8, book.get(level)!);
      if (take <= 0) break;
      const yesPrice = bid ? P - level : level;
      const fee = takerFee(take, yesPrice, multiplier);
      const cost = this.cashFor(account, m.ticker, order.side, take, yesPrice);
      if (account.balance_1e9 < cost + BigInt(fee)) break;
      account.balance_1e9 -= cost + BigInt(fee);
      account.positions.set(m.ticker, (account.positions.get(m.ticker) ?? 0) + (bid ? take : -take));
      order.filled_1e8 += take;
      order.taker_fees_1e9 += fee;
      m.volume_1e8 += take;
      m.volume_24h_1e8 += take;
      this.fills.push({ fill_id: fillUuid(this.nextFill++), order_id: order.order_id, keyId: account.keyId, ticker: m.ticker, side: order.side, yes_price_1e9: yesPrice, count_1e8: take, is_taker: true, fee_1e9: fee, created_ms: Date.now() });
      this.changeLevel(m, bid ? 'no' : 'yes', level, -take);
    }
  }

  /** What a fill costs (negative: pays out): closing a position receives its side's price, opening one pays it. */
  private cashFor(account: KalshiFakeAccount, ticker: string, side: 'bid' | 'ask', qty: number, yesPrice: number): bigint {
    const held = account.positions.get(ticker) ?? 0;
    const closing = Math.min(qty, Math.max(0, side === 'bid' ? -held : held));
    const opening = qty - closing;
    const mine = side === 'bid' ? yesPrice : P - yesPrice;
    return (BigInt(opening) * BigInt(mine) - BigInt(closing) * BigInt(P - mine)) / BigInt(Q);
  }

  private cancelOne(account: KalshiFakeAccount, orderId: string): KalshiFakeOrder | undefined {
    const o = this.orders.find((x) => x.keyId === account.keyId && x.order_id === orderId);
    if (o === undefined || o.status !== 'resting') return undefined;
    const m = this.markets.get(o.ticker)!;
    const left = o.initial_1e8 - o.filled_1e8;
    if (o.side === 'bid') this.changeLevel(m, 'yes', o.yes_price_1e9, -Math.min(left, m.yes.get(o.yes_price_1e9) ?? 0));
    else this.changeLevel(m, 'no', P - o.yes_price_1e9, -Math.min(left, m.no.get(P - o.yes_price_1e9) ?? 0));
    o.status = 'canceled';
    return o;
  }

  private cancel(account: KalshiFakeAccount, orderId: string, send: Send): void {
    this.seen.cancels++;
    const o = this.cancelOne(account, orderId);
    if (o === undefined) return send(404, { error: { code: 'not_found', message: 'order not found' } });
    send(200, { order_id: o.order_id, client_order_id: o.client_order_id, reduced_by: count(o.initial_1e8 - o.filled_1e8), ts_ms: Date.now() });
  }

  private batchCancel(account: KalshiFakeAccount, body: string, send: Send): void {
    this.seen.batch_cancels++;
    let rows: { order_id?: string }[];
    try {
      rows = (JSON.parse(body) as { orders?: { order_id?: string }[] }).orders ?? [];
    } catch {
      return send(400, { error: { code: 'invalid_parameters', message: 'invalid request body' } });
    }
    if (rows.length === 0) return send(400, { error: { code: 'invalid_parameters', message: 'orders is required' } });
    send(200, {
      orders: rows.map((r) => {
        const o = this.cancelOne(account, r.order_id ?? '');
        if (o === undefined) return { order_id: r.order_id ?? '', client_order_id: '', reduced_by: '0.00', ts_ms: null, error: { code: 'not_found', message: 'order not found' } };
        return { order_id: o.order_id, client_order_id: o.client_order_id, reduced_by: count(o.initial_1e8 - o.filled_1e8), ts_ms: Date.now() };
      }),
    });
  }

  /** Newest first, as Kalshi lists; `min_ts`/`max_ts` in Unix seconds on the creation time. */
  private orderList(account: KalshiFakeAccount, q: URLSearchParams, send: Send): void {
    this.seen.order_lists++;
    const min = q.get('min_ts') === null ? -Infinity : Number(q.get('min_ts')) * 1000;
    const max = q.get('max_ts') === null ? Infinity : Number(q.get('max_ts')) * 1000;
    const rows = this.orders
      .filter((o) => o.keyId === account.keyId && (q.get('ticker') === null || o.ticker === q.get('ticker')) && (q.get('status') === null || o.status === q.get('status')) && o.created_ms >= min && o.created_ms <= max)
      .reverse()
      .map(orderJson);
    send(200, this.page(rows, q, 1000, 'orders'));
  }

  private fillList(account: KalshiFakeAccount, q: URLSearchParams, send: Send): void {
    this.seen.fill_reads++;
    const rows = this.fills
      .filter((f) => f.keyId === account.keyId && (q.get('order_id') === null || f.order_id === q.get('order_id')) && (q.get('ticker') === null || f.ticker === q.get('ticker')))
      .reverse()
      .map((f) => ({
        fill_id: f.fill_id,
        trade_id: f.fill_id,
        order_id: f.order_id,
        ticker: f.ticker,
        market_ticker: f.ticker,
        outcome_side: f.side === 'bid' ? 'yes' : 'no',
        book_side: f.side,
        count_fp: count(f.count_1e8),
        yes_price_dollars: dollars(f.yes_price_1e9),
        no_price_dollars: dollars(P - f.yes_price_1e9),
        is_taker: f.is_taker,
        fee_cost: money(f.fee_1e9),
        created_time: iso(f.created_ms),
        ts: Math.floor(f.created_ms / 1000),
        exchange_index: this.markets.get(f.ticker)?.exchange_index ?? 0,
      }));
    send(200, this.page(rows, q, 1000, 'fills'));
  }
}

function orderJson(o: KalshiFakeOrder): Record<string, unknown> {
  return {
    order_id: o.order_id,
    user_id: 'fake-user',
    client_order_id: o.client_order_id,
    ticker: o.ticker,
    outcome_side: o.side === 'bid' ? 'yes' : 'no',
    book_side: o.side,
    type: 'limit',
    status: o.status,
    yes_price_dollars: dollars(o.yes_price_1e9),
    no_price_dollars: dollars(P - o.yes_price_1e9),
    fill_count_fp: count(o.filled_1e8),
    remaining_count_fp: count(o.initial_1e8 - o.filled_1e8),
    initial_count_fp: count(o.initial_1e8),
    taker_fees_dollars: money(o.taker_fees_1e9),
    maker_fees_dollars: '0.000000',
    created_time: iso(o.created_ms),
    exchange_index: o.exchange_index,
  };
}

/** Strictly inside (0, 1), on a band's step from its start. */
function onGrid(m: KalshiFakeMarket, price: number): boolean {
  if (!(price > 0 && price < P)) return false;
  return STRUCTURES[m.structure]!.some(([start, end, step]) => price >= start && price <= end && (price - start) % step === 0);
}

/** A market's `market_id` (a UUID on Kalshi), made from its ticker so it stays the same. */
function marketUuid(ticker: string): string {
  const hex = Buffer.from(ticker).toString('hex').padEnd(32, '0').slice(0, 32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20)}`;
}

/** Fill ids are UUIDs; these count up, so fills of one instant keep their order. */
function fillUuid(n: number): string {
  return `f0000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}
