import { createPublicKey } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import type { WebSocket } from 'ws';
import { dec, FakeExchange, isOpen, P, parseDec, Q, type FakeAccount, type FakeOrder, type FakeSymbol, type FakeTrade, type Level } from './exchange-core.ts';
import { FakeVenueServer } from './fake-server.ts';

/**
 * A local Coinbase Advanced Trade (spot) over the shared fake exchange. The market data socket at
 * `/`: `subscribe`/`unsubscribe` of `level2` and `heartbeats`, a `subscriptions` message after
 * each, an `l2_data` snapshot then updates, a heartbeat each second, every message numbered by
 * `sequence_num` counting per connection (across its channels), and a connection closed when it
 * subscribed nothing within 5 s. The REST under `/api/v3/brokerage` checks every token as Coinbase
 * does, with jose against the public key derived (node:crypto) from the account's PEM: ES256,
 * `kid` and `sub` the key name, `iss` "cdp", inside `nbf`..`exp` (at most two minutes), `uri` =
 * `<METHOD> <host><path>` with the host the request came to; anything else is a 401 with the text
 * body `Unauthorized`. Answers in Coinbase's documented JSON shapes. The commission is taken in
 * the quote on both sides, as Coinbase charges it.
 *
 * A `FakeAccount` here: `apiKey` the key name, `secret` the EC P-256 private key PEM.
 */

const API = '/api/v3/brokerage';
/** The products' steps: prices to the cent, sizes to 1e-8. */
const PRICE_STEP = /^\d+(\.\d{1,2})?$/;
const SIZE_STEP = /^\d+(\.\d{1,8})?$/;
/** `quote_min_size`: 1 of the quote, x 1e8 as the fake counts the quote */
const QUOTE_MIN = 1 * Q;
const ORDER_NOT_FOUND = 'order with this orderID was not found';
/** Coinbase closes a connection that subscribed nothing within this long. */
const SUBSCRIBE_WITHIN_MS = 5_000;
const PORTFOLIO = '5a1b1e7e-0000-4000-8000-000000000001';

/** Decimals as Coinbase writes them: no trailing zeros (`21921.3`, `0.02`, `0`). */
const px = (price: number) => trim(dec(price, P));
const sz = (qty: number) => trim(dec(qty, Q));
function trim(text: string): string {
  return text.replace(/\.?0+$/, '');
}

/** The fake's Coinbase order id of an order (a UUID, as Coinbase's are). */
export function coinbaseOrderIdOf(o: FakeOrder): string {
  return `f4ce0000-0000-4000-8000-${String(o.orderId).padStart(12, '0')}`;
}

/** The fake's Coinbase trade id of a fill. */
export function coinbaseTradeIdOf(t: FakeTrade): string {
  return `7ade0000-0000-4000-8000-${String(t.id).padStart(12, '0')}`;
}

interface Connection {
  /** the next `sequence_num` on this connection */
  seq: number;
  firstSeenMs: number;
  subscribedAny: boolean;
  heartbeats: boolean;
  /** the books it streams, by the product id its events carry */
  level2: Set<string>;
}

type OrderConfig = { key: 'limit_limit_gtc' | 'sor_limit_ioc' | 'market_market_ioc'; base_size: string; limit_price?: string };

export class CoinbaseFake extends FakeVenueServer {
  readonly exchange: FakeExchange;
  /** Knobs. */
  swallowOrderAnswers = 0;
  /** Counters a test reads. */
  readonly seen = { requests: 0, orders: 0, badTokens: 0, subscribes: 0, lookups: 0, lists: 0, cancels: 0, heartbeatSubscribes: 0, closedIdle: 0, subscribedProducts: [] as string[] };
  /** the last Create Order body, as received */
  lastOrder: Record<string, unknown> | undefined;
  /** each request's last valid token lifetime (`exp` - `nbf`, s), by `METHOD path` */
  readonly tokenLifetimes: Record<string, number> = {};
  /** every order placed, in order (List Orders reads them all, whatever their state) */
  private readonly placed: FakeOrder[] = [];
  private readonly configs = new Map<number, OrderConfig>();
  private readonly connections = new Map<WebSocket, Connection>();
  private readonly ticker: NodeJS.Timeout;
  private heartbeatCounter = 0;
  private readonly startedMs = Date.now();

  /**
   * @param aliases `-USDC` products listed with an `alias` (`{'BTC-USDC': 'BTC-USD'}`): their
   *   market data is the aliased book, streamed under its product id, as Coinbase does
   */
  constructor(
    symbols: FakeSymbol[],
    accounts: FakeAccount[],
    private readonly aliases: Record<string, string> = {},
  ) {
    super('/');
    this.exchange = new FakeExchange(symbols, accounts, (s, bids, asks) => this.publish(s, bids, asks));
    this.exchange.feeInQuote = true;
    this.ticker = setInterval(() => this.tick(), 1_000);
    this.ticker.unref();
  }

  override async close(): Promise<void> {
    clearInterval(this.ticker);
    await super.close();
  }

  setLevel(symbol: string, side: 'bid' | 'ask', price: number, qty: number): void {
    this.exchange.setLevel(symbol, side, price, qty);
  }

  order(apiKey: string, clientOrderId: string): FakeOrder | undefined {
    return this.exchange.order(apiKey, clientOrderId);
  }

  openOrders(apiKey: string): FakeOrder[] {
    return this.exchange.openOrders(apiKey);
  }

  tradesOf(orderId: number): FakeTrade[] {
    return this.exchange.tradesOf(orderId);
  }

  fillResting(apiKey: string, clientOrderId: string, qty: number): void {
    this.exchange.fillResting(apiKey, clientOrderId, qty);
  }

  /** A GTC limit placed on the account by other means (the web app, another program): not one of ours. */
  placeByHand(apiKey: string, symbol: string, side: 'BUY' | 'SELL', qty: number, price: number, clientOrderId: string): FakeOrder {
    const placed = this.exchange.place(this.exchange.account(apiKey)!, { symbol, side, type: 'LIMIT', timeInForce: 'GTC', qty, price, clientOrderId });
    if (!placed.ok) throw new Error(`not placed: ${placed.why}`);
    this.placed.push(placed.order);
    this.configs.set(placed.order.orderId, { key: 'limit_limit_gtc', base_size: sz(qty), limit_price: px(price) });
    return placed.order;
  }

  /** Skips `n` sequence numbers on every open connection: its next message says a message was lost. */
  skipSequence(n = 1): void {
    for (const c of this.connections.values()) c.seq += n;
  }

  // --- WebSocket -------------------------------------------------------------------------------

  protected onWsMessage(ws: WebSocket, text: string): void {
    const c = this.connection(ws);
    let msg: { type?: unknown; channel?: unknown; product_ids?: unknown };
    try {
      msg = JSON.parse(text) as typeof msg;
    } catch {
      ws.send(JSON.stringify({ type: 'error', message: 'failure to parse message' }));
      return;
    }
    const products = Array.isArray(msg.product_ids) ? msg.product_ids.filter((p): p is string => typeof p === 'string') : [];
    if ((msg.type !== 'subscribe' && msg.type !== 'unsubscribe') || (msg.channel !== 'level2' && msg.channel !== 'heartbeats')) {
      ws.send(JSON.stringify({ type: 'error', message: 'failure to subscribe' }));
      return;
    }
    c.subscribedAny = true;
    const on = msg.type === 'subscribe';
    if (msg.channel === 'heartbeats') {
      if (on) this.seen.heartbeatSubscribes++;
      c.heartbeats = on;
    } else {
      for (const product of products) {
        const book = this.aliases[product] ?? product;
        const s = this.exchange.symbol(book);
        if (s === undefined) {
          ws.send(JSON.stringify({ type: 'error', message: 'failure to subscribe' }));
          continue;
        }
        if (!on) {
          c.level2.delete(book);
          continue;
        }
        this.seen.subscribes++;
        this.seen.subscribedProducts.push(product);
        c.level2.add(book);
        this.send(ws, c, 'l2_data', [{ type: 'snapshot', product_id: s.symbol, updates: [...updates('bid', s.bids), ...updates('offer', s.asks)] }]);
      }
    }
    this.send(ws, c, 'subscriptions', [{ subscriptions: { ...(c.level2.size > 0 ? { level2: [...c.level2] } : {}), ...(c.heartbeats ? { heartbeats: ['heartbeats'] } : {}) } }]);
  }

  private connection(ws: WebSocket): Connection {
    let c = this.connections.get(ws);
    if (c === undefined) {
      c = { seq: 0, firstSeenMs: Date.now(), subscribedAny: false, heartbeats: false, level2: new Set() };
      this.connections.set(ws, c);
      ws.on('close', () => this.connections.delete(ws));
    }
    return c;
  }

  /** One envelope on one connection, numbered on it. */
  private send(ws: WebSocket, c: Connection, channel: string, events: unknown[]): void {
    ws.send(JSON.stringify({ channel, client_id: '', timestamp: new Date().toISOString(), sequence_num: c.seq++, events }));
  }

  private publish(s: FakeSymbol, bids: Level[], asks: Level[]): void {
    for (const [ws, c] of this.connections) {
      if (c.level2.has(s.symbol)) this.send(ws, c, 'l2_data', [{ type: 'update', product_id: s.symbol, updates: [...updates('bid', bids), ...updates('offer', asks)] }]);
    }
  }

  /** Each second: a heartbeat where subscribed, and a connection that subscribed nothing in time closed. */
  private tick(): void {
    const now = Date.now();
    this.heartbeatCounter++;
    for (const ws of this.subscribers.keys()) {
      const c = this.connection(ws);
      if (!c.subscribedAny && now - c.firstSeenMs > SUBSCRIBE_WITHIN_MS) {
        this.seen.closedIdle++;
        ws.close(1000, 'no subscription');
        continue;
      }
      if (c.heartbeats) this.send(ws, c, 'heartbeats', [{ current_time: goTime(now, now - this.startedMs), heartbeat_counter: String(this.heartbeatCounter) }]);
    }
  }

  // --- REST ------------------------------------------------------------------------------------

  protected async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.seen.requests++;
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = await FakeVenueServer.body(req);
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    const path = url.pathname;
    if (req.method === 'GET' && path === `${API}/market/products`) return json(200, this.products());
    if (!path.startsWith(`${API}/`)) {
      res.writeHead(404);
      res.end();
      return;
    }
    const account = await this.authorize(req, path);
    if (account === undefined) {
      this.seen.badTokens++;
      res.writeHead(401, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Unauthorized');
      return;
    }
    const q = url.searchParams;
    if (req.method === 'POST' && path === `${API}/orders`) return this.createOrder(account, body, json, res);
    if (req.method === 'POST' && path === `${API}/orders/batch_cancel`) return this.batchCancel(account, body, json);
    if (req.method !== 'GET') return json(404, { error: 'NOT_FOUND', message: 'Not Found' });
    if (path === `${API}/orders/historical/batch`) {
      this.seen.lists++;
      return json(200, this.listOrders(account, q));
    }
    if (path === `${API}/orders/historical/fills`) return json(200, this.listFills(account, q));
    if (path.startsWith(`${API}/orders/historical/`)) {
      this.seen.lookups++;
      const o = this.byOrderId(account, decodeURIComponent(path.slice(`${API}/orders/historical/`.length)));
      if (o === undefined) return json(404, { error: 'NOT_FOUND', error_details: ORDER_NOT_FOUND, message: ORDER_NOT_FOUND });
      return json(200, { order: this.orderJson(o) });
    }
    if (path === `${API}/accounts`) return json(200, this.accounts(account, q));
    if (path === `${API}/transaction_summary`) return json(200, this.transactionSummary());
    if (path === `${API}/key_permissions`) return json(200, { can_view: true, can_trade: true, can_transfer: account.canWithdraw === true, portfolio_uuid: PORTFOLIO, portfolio_type: 'DEFAULT' });
    res.writeHead(404);
    res.end();
  }

  /** The account whose key signed a valid token for exactly this request; undefined for anything Coinbase would refuse. */
  private async authorize(req: IncomingMessage, path: string): Promise<FakeAccount | undefined> {
    const token = /^Bearer ([\w-]+\.[\w-]+\.[\w-]+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (token === undefined) return undefined;
    let kid: unknown;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      return undefined;
    }
    const account = typeof kid === 'string' ? this.exchange.account(kid) : undefined;
    if (account === undefined) return undefined;
    try {
      const { payload, protectedHeader } = await jwtVerify(token, createPublicKey(account.secret), { algorithms: ['ES256'], typ: 'JWT', issuer: 'cdp', subject: account.apiKey, requiredClaims: ['nbf', 'exp', 'uri'] });
      if (typeof protectedHeader['nonce'] !== 'string' || protectedHeader['nonce'] === '') return undefined;
      if (payload.exp! - payload.nbf! > 120) return undefined;
      if (payload['uri'] !== `${req.method} ${req.headers.host}${path}`) return undefined;
      this.tokenLifetimes[`${req.method} ${path}`] = payload.exp! - payload.nbf!;
      return account;
    } catch {
      return undefined;
    }
  }

  private createOrder(account: FakeAccount, body: string, json: (status: number, value: unknown) => void, res: ServerResponse): void {
    this.seen.orders++;
    const invalid = (message: string) => json(400, { error: 'INVALID_ARGUMENT', message, error_details: message });
    let r: { client_order_id?: unknown; product_id?: unknown; side?: unknown; order_configuration?: unknown };
    try {
      r = JSON.parse(body) as typeof r;
    } catch {
      return invalid('invalid request body');
    }
    this.lastOrder = r;
    const cl = r.client_order_id;
    const side = r.side;
    const configs = typeof r.order_configuration === 'object' && r.order_configuration !== null ? Object.entries(r.order_configuration as Record<string, unknown>) : [];
    if (typeof cl !== 'string' || cl === '' || (side !== 'BUY' && side !== 'SELL') || configs.length !== 1) return invalid('invalid order');
    // The docs: a client order id already used creates nothing, and the order under it is returned.
    const existing = this.exchange.order(account.apiKey, cl);
    if (existing !== undefined) return json(200, this.placedJson(existing));
    const s = typeof r.product_id === 'string' ? this.exchange.symbol(r.product_id) : undefined;
    if (s === undefined) return invalid('invalid product_id');
    const [key, raw] = configs[0]!;
    const c = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const refuse = (error: string, message: string, preview = `PREVIEW_${error}`) =>
      json(200, { success: false, failure_reason: 'UNKNOWN_FAILURE_REASON', order_id: '', error_response: { error, message, error_details: '', preview_failure_reason: preview, new_order_failure_reason: error }, order_configuration: { [key]: c } });
    if (key !== 'limit_limit_gtc' && key !== 'sor_limit_ioc' && key !== 'market_market_ioc') return refuse('UNSUPPORTED_ORDER_CONFIGURATION', 'unsupported order configuration');
    const base_size = c['base_size'];
    if (typeof base_size !== 'string' || !SIZE_STEP.test(base_size) || !(parseDec(base_size, Q) > 0)) return refuse('INVALID_SIZE_PRECISION', 'Invalid size precision');
    const qty = parseDec(base_size, Q);
    let price = NaN;
    const config: OrderConfig = { key, base_size };
    if (key !== 'market_market_ioc') {
      const limit = c['limit_price'];
      if (typeof limit !== 'string' || !PRICE_STEP.test(limit) || !(parseDec(limit, P) > 0)) return refuse('INVALID_PRICE_PRECISION', 'Invalid price precision');
      if (key === 'limit_limit_gtc' && c['post_only'] === true) return refuse('UNSUPPORTED_ORDER_CONFIGURATION', 'post-only orders are not in this fake');
      price = parseDec(limit, P);
      config.limit_price = limit;
      if (Math.round((qty * price) / P) < QUOTE_MIN) return refuse('INVALID_LIMIT_PRICE', 'Order value below the quote minimum size');
    }
    const placed = this.exchange.place(account, { symbol: s.symbol, side, type: key === 'market_market_ioc' ? 'MARKET' : 'LIMIT', timeInForce: key === 'limit_limit_gtc' ? 'GTC' : 'IOC', qty, price, clientOrderId: cl });
    if (!placed.ok) {
      if (placed.why === 'insufficient') return refuse('INSUFFICIENT_FUND', 'Insufficient balance in source account');
      return invalid('invalid order');
    }
    this.placed.push(placed.order);
    this.configs.set(placed.order.orderId, config);
    if (this.swallowOrderAnswers > 0) {
      this.swallowOrderAnswers--;
      res.on('close', () => undefined);
      return;
    }
    json(200, this.placedJson(placed.order));
  }

  private placedJson(o: FakeOrder): Record<string, unknown> {
    return { success: true, success_response: { order_id: coinbaseOrderIdOf(o), product_id: o.symbol, side: o.side, client_order_id: o.clientOrderId }, order_configuration: this.configJson(o) };
  }

  private batchCancel(account: FakeAccount, body: string, json: (status: number, value: unknown) => void): void {
    let ids: unknown;
    try {
      ids = (JSON.parse(body) as { order_ids?: unknown }).order_ids;
    } catch {
      ids = undefined;
    }
    if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) return json(400, { error: 'INVALID_ARGUMENT', message: 'order_ids is required', error_details: 'order_ids is required' });
    const results = (ids as string[]).map((order_id) => {
      this.seen.cancels++;
      const o = this.byOrderId(account, order_id);
      if (o === undefined || !isOpen(o)) return { success: false, failure_reason: 'UNKNOWN_CANCEL_ORDER', order_id };
      this.exchange.cancel(account, o);
      return { success: true, failure_reason: 'UNKNOWN_CANCEL_FAILURE_REASON', order_id };
    });
    json(200, { results });
  }

  /** List Orders: `product_ids`, `order_status` (repeated), `start_date`, newest first, paged by an offset cursor. */
  private listOrders(account: FakeAccount, q: URLSearchParams): Record<string, unknown> {
    const products = q.getAll('product_ids');
    const statuses = q.getAll('order_status');
    const start = q.get('start_date');
    const since = start === null ? 0 : Date.parse(start);
    const rows = this.placed
      .filter((o) => o.apiKey === account.apiKey && (products.length === 0 || products.includes(o.symbol)) && (statuses.length === 0 || statuses.includes(statusOf(o))) && o.transactTime >= since)
      .sort((a, b) => b.transactTime - a.transactTime || b.orderId - a.orderId);
    const page = paged(rows, q, 100, 1_000);
    return { orders: page.rows.map((o) => this.orderJson(o)), sequence: '0', has_next: page.next !== '', cursor: page.next };
  }

  /** List Fills: `order_ids` (repeated), newest first, paged by an offset cursor. */
  private listFills(account: FakeAccount, q: URLSearchParams): Record<string, unknown> {
    const ids = new Set(q.getAll('order_ids'));
    const rows: { t: FakeTrade; o: FakeOrder }[] = [];
    for (const o of this.placed) {
      if (o.apiKey !== account.apiKey || (ids.size > 0 && !ids.has(coinbaseOrderIdOf(o)))) continue;
      for (const t of this.exchange.tradesOf(o.orderId)) rows.push({ t, o });
    }
    rows.sort((a, b) => b.t.time - a.t.time || b.t.id - a.t.id);
    const page = paged(rows, q, 100, 1_000);
    return { fills: page.rows.map(({ t, o }) => this.fillJson(t, o)), cursor: page.next };
  }

  private accounts(account: FakeAccount, q: URLSearchParams): Record<string, unknown> {
    const rows = Object.entries(account.balances);
    const page = paged(rows, q, 49, 250);
    const created = new Date(this.startedMs).toISOString();
    return {
      accounts: page.rows.map(([currency, b]) => ({
        uuid: `acc0${currency.toLowerCase().padEnd(4, '0').slice(0, 4)}-0000-4000-8000-000000000000`,
        name: `${currency} Wallet`,
        currency,
        available_balance: { value: sz(b.free), currency },
        default: true,
        active: true,
        created_at: created,
        updated_at: created,
        deleted_at: null,
        type: currency === 'USD' || currency === 'EUR' ? 'ACCOUNT_TYPE_FIAT' : 'ACCOUNT_TYPE_CRYPTO',
        ready: true,
        hold: { value: sz(b.locked), currency },
        retail_portfolio_id: PORTFOLIO,
      })),
      has_next: page.next !== '',
      cursor: page.next,
      size: page.rows.length,
    };
  }

  private transactionSummary(): Record<string, unknown> {
    const rate = String(this.exchange.commissionBps / 10_000);
    return {
      total_volume: 0,
      total_fees: 0,
      fee_tier: { pricing_tier: 'Advanced 1', usd_from: '0', usd_to: '10000', taker_fee_rate: rate, maker_fee_rate: rate, aop_from: '', aop_to: '' },
      margin_rate: null,
      goods_and_services_tax: null,
      advanced_trade_only_volume: 0,
      advanced_trade_only_fees: 0,
      coinbase_pro_volume: 0,
      coinbase_pro_fees: 0,
      total_balance: '',
      has_promo_fee: false,
    };
  }

  private products(): Record<string, unknown> {
    const rows = this.exchange.allSymbols().map((s) => productJson(s.symbol, s.base, s.quote, ''));
    for (const [product, book] of Object.entries(this.aliases)) {
      const s = this.exchange.symbol(book);
      if (s !== undefined) rows.push(productJson(product, s.base, product.slice(s.base.length + 1), book));
    }
    return { products: rows, num_products: rows.length, pagination: { prev_cursor: '', next_cursor: '', has_next: false, has_prev: false } };
  }

  private byOrderId(account: FakeAccount, orderId: string): FakeOrder | undefined {
    const m = /^f4ce0000-0000-4000-8000-(\d{12})$/.exec(orderId);
    return m === null ? undefined : this.exchange.orderById(account.apiKey, Number(m[1]));
  }

  private configJson(o: FakeOrder): Record<string, unknown> {
    const c = this.configs.get(o.orderId)!;
    if (c.key === 'market_market_ioc') return { market_market_ioc: { base_size: c.base_size } };
    if (c.key === 'sor_limit_ioc') return { sor_limit_ioc: { base_size: c.base_size, limit_price: c.limit_price } };
    return { limit_limit_gtc: { base_size: c.base_size, limit_price: c.limit_price, post_only: false } };
  }

  private orderJson(o: FakeOrder): Record<string, unknown> {
    const trades = this.exchange.tradesOf(o.orderId);
    const fees = trades.reduce((sum, t) => sum + t.commission, 0);
    const filledValue = o.quoteQty;
    const gtc = this.configs.get(o.orderId)?.key === 'limit_limit_gtc';
    const resting = isOpen(o) ? o.origQty - o.executedQty : 0;
    return {
      order_id: coinbaseOrderIdOf(o),
      product_id: o.symbol,
      user_id: '2222-000000-000000',
      order_configuration: this.configJson(o),
      side: o.side,
      client_order_id: o.clientOrderId,
      status: statusOf(o),
      time_in_force: gtc ? 'GOOD_UNTIL_CANCELLED' : 'IMMEDIATE_OR_CANCEL',
      created_time: new Date(o.transactTime).toISOString(),
      completion_percentage: trim(dec(Math.floor((o.executedQty * 100 * 100) / o.origQty), 100)),
      filled_size: sz(o.executedQty),
      average_filled_price: o.executedQty === 0 ? '0' : px(Math.round((o.quoteQty * P) / o.executedQty)),
      fee: '',
      number_of_fills: String(trades.length),
      filled_value: sz(filledValue),
      pending_cancel: false,
      size_in_quote: false,
      total_fees: sz(fees),
      size_inclusive_of_fees: false,
      total_value_after_fees: sz(o.side === 'BUY' ? filledValue + fees : filledValue - fees),
      trigger_status: 'INVALID_ORDER_TYPE',
      order_type: o.type === 'MARKET' ? 'MARKET' : 'LIMIT',
      reject_reason: 'REJECT_REASON_UNSPECIFIED',
      settled: !isOpen(o),
      product_type: 'SPOT',
      reject_message: '',
      cancel_message: '',
      order_placement_source: 'RETAIL_ADVANCED',
      outstanding_hold_amount: o.side === 'BUY' ? sz(Math.round((resting * o.price) / P)) : sz(resting),
      is_liquidation: false,
      last_fill_time: trades.length === 0 ? null : new Date(trades[trades.length - 1]!.time).toISOString(),
      edit_history: [],
      leverage: '',
      margin_type: 'UNKNOWN_MARGIN_TYPE',
      retail_portfolio_id: PORTFOLIO,
    };
  }

  private fillJson(t: FakeTrade, o: FakeOrder): Record<string, unknown> {
    const time = new Date(t.time).toISOString();
    return {
      entry_id: `e0${coinbaseTradeIdOf(t).slice(2)}`,
      trade_id: coinbaseTradeIdOf(t),
      order_id: coinbaseOrderIdOf(o),
      trade_time: time,
      trade_type: 'FILL',
      price: px(t.price),
      size: sz(t.qty),
      commission: sz(t.commission),
      product_id: o.symbol,
      sequence_timestamp: time,
      liquidity_indicator: t.isMaker ? 'MAKER' : 'TAKER',
      size_in_quote: false,
      user_id: '2222-000000-000000',
      side: t.isBuyer ? 'BUY' : 'SELL',
      retail_portfolio_id: PORTFOLIO,
    };
  }
}

/** An order's status as Coinbase names it: an IOC's unfilled rest ends it as cancelled. */
function statusOf(o: FakeOrder): string {
  if (isOpen(o)) return 'OPEN';
  return o.status === 'FILLED' ? 'FILLED' : 'CANCELLED';
}

function updates(side: 'bid' | 'offer', levels: Level[]): Record<string, string>[] {
  const event_time = new Date().toISOString();
  return levels.map((l) => ({ side, event_time, price_level: px(l.price), new_quantity: sz(l.qty) }));
}

/** `rows` from the offset in `cursor`, `limit` of them (`byDefault` when not asked, at most `max`); `next` is '' on the last page. */
function paged<T>(rows: T[], q: URLSearchParams, byDefault: number, max: number): { rows: T[]; next: string } {
  const from = Number(q.get('cursor') || '0');
  const limit = Math.min(max, Math.max(1, Number(q.get('limit') || String(byDefault))));
  const page = rows.slice(from, from + limit);
  return { rows: page, next: from + limit < rows.length ? String(from + limit) : '' };
}

function productJson(product_id: string, base: string, quote: string, alias: string): Record<string, unknown> {
  return {
    product_id,
    price: '',
    price_percentage_change_24h: '',
    volume_24h: '',
    volume_percentage_change_24h: '',
    base_increment: '0.00000001',
    quote_increment: '0.01',
    quote_min_size: '1',
    quote_max_size: '150000000',
    base_min_size: '0.00000001',
    base_max_size: '3400',
    base_name: base,
    quote_name: quote,
    watched: false,
    is_disabled: false,
    new: false,
    status: 'online',
    cancel_only: false,
    limit_only: false,
    post_only: false,
    trading_disabled: false,
    auction_mode: false,
    product_type: 'SPOT',
    quote_currency_id: quote,
    base_currency_id: base,
    fcm_trading_session_details: null,
    mid_market_price: '',
    alias,
    alias_to: [],
    base_display_symbol: base,
    quote_display_symbol: quote,
    view_only: false,
    price_increment: '0.01',
    display_name: `${base}/${quote}`,
    product_venue: 'CBE',
  };
}

/** A heartbeat's `current_time` as Coinbase's (Go) server prints it. */
function goTime(nowMs: number, uptimeMs: number): string {
  return `${new Date(nowMs).toISOString().replace('T', ' ').replace('Z', '')} +0000 UTC m=+${(uptimeMs / 1_000).toFixed(9)}`;
}
