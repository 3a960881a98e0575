import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebSocket } from 'ws';
import { dec, FakeExchange, isOpen, P, parseDec, Q, type FakeAccount, type FakeOrder, type FakeSymbol, type FakeTrade, type Level } from './exchange-core.ts';
import { FakeVenueServer } from './fake-server.ts';

/**
 * A local Bitstamp spot over the shared fake exchange, answering in the formats of
 * https://www.bitstamp.net/api/ (HTTP API v2) and its WebSocket API v2:
 *
 *  - the stream at the root path: `bts:subscribe` / `bts:unsubscribe` of
 *    `diff_order_book_<pair>` (acknowledged with `bts:subscription_succeeded`; a channel that is
 *    not written as one answers `bts:error` "Invalid channel provided."; a pair not listed is
 *    acknowledged and stays silent), `data` events of the changed levels with absolute amounts,
 *    stamped by a `microtimestamp` that rises with every change, `bts:heartbeat` answered, and
 *    `bts:request_reconnect` on demand. No snapshot on the stream: `GET
 *    /api/v2/order_book/<pair>/` serves the whole book stamped the same way.
 *  - the private REST, every call a POST: the `X-Auth*` headers checked in the gateway's order
 *    (API0012 to API0016 missing headers, API0010 version, API0011 key format, API0001 key,
 *    API0020/API0019 Content-Type with and without a body, API0018/API0017 the timestamp and its
 *    150 s window, API0005 the signature, computed here with node:crypto over the string the docs
 *    define, with the Host header and the path and query as received, API0004 a nonce used in the
 *    last 300 s), all HTTP 403 `{status: "error", reason, code}`. Every 200 answer carries
 *    `X-Server-Auth-Signature`, the HMAC of nonce + timestamp + its Content-Type + its body.
 *    Errors past the gateway in the venue's shapes: a form's field lists (`reason: {amount:
 *    [...]}`, `{__all__: [...]}`), `response_code`s (400.0xx, 404.002), the older `Order not
 *    found` of a cancel.
 *
 * Fees are charged in the counter currency (our quote) on both sides, at the account's maker or
 * taker rate as `fees/trading` reports them. Order ids are numbers in the range the venue uses,
 * transaction ids (`tid`) the fake exchange's trade ids. `open_orders` answers are cached 10 s
 * per key and path, as the reference says the venue's are. One gap to the venue: since November
 * 2023 Bitstamp takes a repeated `client_order_id`, but the shared fake exchange keeps one order
 * per client order id, so a repeat is counted (`seen.repeatedClientOrderIds`) and, while the
 * first is open, refused with 400.019 as the venue used to.
 */

/** BTC/USD's rules on the venue: whole dollars (counter_decimals 0), 8 decimals of BTC, 10 USD minimum. */
const COUNTER_DECIMALS = 0;
const BASE_DECIMALS = 8;
const MIN_VALUE = '10';
const ORDER_ID_BASE = 1_600_000_000_000_000;
const TIMESTAMP_WINDOW_MS = 150_000;
const NONCE_KEPT_MS = 300_000;
const OPEN_ORDERS_CACHED_MS = 10_000;
const REQUESTS_PER_S = 400;
const FORM = 'application/x-www-form-urlencoded';

const px = (price: number) => {
  const text = dec(price, P);
  return text.slice(0, text.indexOf('.') + (COUNTER_DECIMALS === 0 ? 0 : 1 + COUNTER_DECIMALS));
};
const amount = (qty: number) => dec(qty, Q);

/** Bitstamp's order id for one of the fake exchange's orders. */
export function bitstampOrderIdOf(o: FakeOrder): number {
  return ORDER_ID_BASE + o.orderId;
}

/** "2024-01-31 14:43:15.322000", UTC. */
function datetime(ms: number): string {
  return `${new Date(ms).toISOString().replace('T', ' ').replace('Z', '')}000`;
}

type Answer = { status: number; body: unknown };

const gateway = (code: string, reason: string): Answer => ({ status: 403, body: { status: 'error', reason, code } });

export class BitstampFake extends FakeVenueServer {
  readonly exchange: FakeExchange;
  /** Knobs. */
  swallowOrderAnswers = 0;
  /** order answers sent with an X-Server-Auth-Signature that does not verify */
  badAnswerSignatures = 0;
  /** the next diff is stamped before the one sent last (a diff lost or reordered on the way would look so) */
  stampNextDiffBack = false;
  /** the next diff writes its amounts in exponent notation, which no exact reader takes */
  garbleNextDiff = false;
  /** the account's rates, in bps (the fake exchange charges them) */
  makerBps = 30;
  takerBps = 40;
  /** Counters a test reads. */
  readonly seen = {
    requests: 0,
    connections: 0,
    orders: 0,
    badSignatures: 0,
    nonceReuses: 0,
    staleTimestamps: 0,
    contentTypeErrors: 0,
    rateLimited: 0,
    subscribes: 0,
    heartbeats: 0,
    snapshots: 0,
    /** snapshots asked while no socket had the pair's channel acknowledged */
    snapshotsUnsubscribed: 0,
    statusReads: 0,
    cancels: 0,
    cancelAlls: 0,
    openOrderReads: 0,
    repeatedClientOrderIds: 0,
  };
  /** the last order's path and form fields, as received */
  lastOrder: { path: string; form: URLSearchParams } | undefined;
  private readonly nonces = new Map<string, number>();
  private readonly calls = new Map<string, number[]>();
  private readonly clientOrderIds = new Set<string>();
  private readonly openOrdersCache = new Map<string, { at: number; body: unknown }>();
  private stampAt = 0;

  constructor(symbols: FakeSymbol[], accounts: FakeAccount[]) {
    super('/');
    this.exchange = new FakeExchange(symbols, accounts, (s, bids, asks) => this.publish(s, bids, asks));
    this.exchange.feeInQuote = true;
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

  /** A taker meets a resting order: `qty` of it fills as maker, charged the maker rate. */
  fillResting(apiKey: string, clientOrderId: string, qty: number): void {
    this.charging(this.makerBps, () => this.exchange.fillResting(apiKey, clientOrderId, qty));
  }

  /** Places an order as another front end would (by hand on the website): no request, no check. */
  placeByHand(apiKey: string, symbol: string, side: 'BUY' | 'SELL', qty: number, price: number, clientOrderId: string): boolean {
    return this.charging(this.takerBps, () => this.exchange.place(this.exchange.account(apiKey)!, { symbol, side, type: 'LIMIT', timeInForce: 'GTC', qty, price, clientOrderId })).ok;
  }

  /** The maintenance notice: clients are to reconnect within a few seconds. */
  requestReconnect(): void {
    for (const ws of this.subscribers.keys()) ws.send(JSON.stringify({ event: 'bts:request_reconnect', channel: '', data: '' }));
  }

  /** As if the key's open orders had just been read by someone: the venue serves that list for 10 s. */
  cacheOpenOrders(apiKey: string): void {
    const account = this.exchange.account(apiKey)!;
    for (const path of ['/api/v2/open_orders/', '/api/v2/open_orders/all/']) this.openOrdersCache.set(`${apiKey} ${path}`, { at: Date.now(), body: this.openOrdersJson(account, undefined) });
  }

  private charging<T>(bps: number, run: () => T): T {
    const was = this.exchange.commissionBps;
    this.exchange.commissionBps = bps;
    try {
      return run();
    } finally {
      this.exchange.commissionBps = was;
    }
  }

  // --- WebSocket v2 ----------------------------------------------------------------------------

  protected override onWsConnection(ws: WebSocket, req: IncomingMessage): boolean {
    void ws;
    void req;
    this.seen.connections++;
    return true;
  }

  protected onWsMessage(ws: WebSocket, text: string): void {
    const error = (message: string, channel = '') => ws.send(JSON.stringify({ event: 'bts:error', channel, data: { code: null, message } }));
    let msg: { event?: unknown; data?: { channel?: unknown } };
    try {
      msg = JSON.parse(text) as typeof msg;
    } catch {
      return error('Incorrect JSON format.');
    }
    if (msg.event === 'bts:heartbeat') {
      this.seen.heartbeats++;
      ws.send(JSON.stringify({ event: 'bts:heartbeat', channel: '', data: { status: 'success' } }));
      return;
    }
    if (msg.event !== 'bts:subscribe' && msg.event !== 'bts:unsubscribe') return error('Bad subscription string.');
    const channel = msg.data?.channel;
    if (typeof channel !== 'string' || !/^diff_order_book_[a-z0-9]+$/.test(channel)) return error('Invalid channel provided.', typeof channel === 'string' ? channel : '');
    if (msg.event === 'bts:subscribe') {
      this.seen.subscribes++;
      this.subscribers.get(ws)?.add(channel);
      ws.send(JSON.stringify({ event: 'bts:subscription_succeeded', channel, data: {} }));
    } else {
      this.subscribers.get(ws)?.delete(channel);
      ws.send(JSON.stringify({ event: 'bts:unsubscription_succeeded', channel, data: {} }));
    }
  }

  /** A stamp above every one given before: each change, and each snapshot, is its own instant. */
  private stamp(): number {
    this.stampAt = Math.max(Date.now() * 1_000, this.stampAt + 1);
    return this.stampAt;
  }

  private publish(s: FakeSymbol, bids: Level[], asks: Level[]): void {
    const last = this.stampAt;
    let micro = this.stamp();
    if (this.stampNextDiffBack) {
      this.stampNextDiffBack = false;
      micro = last - 1;
    }
    const garbled = this.garbleNextDiff;
    this.garbleNextDiff = false;
    const levels = (side: Level[]) => side.map((l) => [px(l.price), garbled ? `${l.qty}e-8` : amount(l.qty)]);
    const data = { timestamp: String(Math.floor(micro / 1_000_000)), microtimestamp: String(micro), bids: levels(bids), asks: levels(asks) };
    this.broadcast(`diff_order_book_${s.symbol}`, JSON.stringify({ data, channel: `diff_order_book_${s.symbol}`, event: 'data' }));
  }

  // --- REST ------------------------------------------------------------------------------------

  protected async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.seen.requests++;
    const raw = req.url ?? '/';
    const at = raw.indexOf('?');
    const path = at === -1 ? raw : raw.slice(0, at);
    const query = at === -1 ? '' : raw.slice(at);
    const body = await FakeVenueServer.body(req);
    if (req.method === 'GET') return this.write(res, this.publicAnswer(path));
    if (req.method !== 'POST' || !path.startsWith('/api/v2/')) return this.write(res, { status: 404, body: { status: 'error', reason: 'Not found' } });
    const header = (name: string) => {
      const v = req.headers[name];
      return typeof v === 'string' ? v : undefined;
    };
    const xAuth = header('x-auth');
    const signature = header('x-auth-signature');
    const nonce = header('x-auth-nonce');
    const timestamp = header('x-auth-timestamp');
    const version = header('x-auth-version');
    const contentType = header('content-type');
    if (xAuth === undefined) return this.write(res, gateway('API0012', 'X-Auth header is required'));
    if (signature === undefined) return this.write(res, gateway('API0013', 'X-Auth-Signature header is required'));
    if (nonce === undefined) return this.write(res, gateway('API0014', 'X-Auth-Nonce header is required'));
    if (timestamp === undefined) return this.write(res, gateway('API0015', 'X-Auth-Timestamp header is required'));
    if (version === undefined) return this.write(res, gateway('API0016', 'X-Auth-Version header is required'));
    if (version !== 'v2') return this.write(res, gateway('API0010', 'Invalid version'));
    const key = /^BITSTAMP (\S+)$/.exec(xAuth)?.[1];
    if (key === undefined) return this.write(res, gateway('API0011', 'Wrong API key format'));
    const account = this.exchange.account(key);
    if (account === undefined) return this.write(res, gateway('API0001', 'API key not found'));
    if (body === '' && contentType !== undefined) {
      this.seen.contentTypeErrors++;
      return this.write(res, gateway('API0020', 'Content-Type header should not be present'));
    }
    if (body !== '' && contentType !== FORM) {
      this.seen.contentTypeErrors++;
      return this.write(res, gateway('API0019', 'Content-Type header is not accepted'));
    }
    if (!/^\d{13}$/.test(timestamp)) return this.write(res, gateway('API0018', 'X-Auth-Timestamp header is invalid'));
    if (Math.abs(Date.now() - Number(timestamp)) > TIMESTAMP_WINDOW_MS) {
      this.seen.staleTimestamps++;
      return this.write(res, gateway('API0017', 'X-Auth-Timestamp header is out of boundaries'));
    }
    const signed = `BITSTAMP ${key}POST${req.headers.host ?? ''}${path}${query}${body === '' ? '' : FORM}${nonce}${timestamp}v2${body}`;
    const expected = createHmac('sha256', account.secret).update(signed, 'utf8').digest('hex');
    const given = signature.toLowerCase();
    if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected))) {
      this.seen.badSignatures++;
      return this.write(res, gateway('API0005', 'Invalid signature'));
    }
    const now = Date.now();
    for (const [k, t] of this.nonces) if (t < now - NONCE_KEPT_MS) this.nonces.delete(k);
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(nonce) || this.nonces.has(`${key} ${nonce}`)) {
      this.seen.nonceReuses++;
      return this.write(res, gateway('API0004', 'Invalid nonce'));
    }
    this.nonces.set(`${key} ${nonce}`, now);
    const used = (this.calls.get(key) ?? []).filter((t) => t > now - 1_000);
    this.calls.set(key, used);
    if (used.length >= REQUESTS_PER_S) {
      this.seen.rateLimited++;
      return this.write(res, { status: 400, body: { status: 'error', reason: 'Request rejected due to exceeded rate limit.', response_code: '400.002' } });
    }
    used.push(now);
    const form = new URLSearchParams(body);
    const answer = this.privateAnswer(path, account, form, res);
    if (answer === undefined) return; // swallowed: the order is placed, its answer never comes
    const corrupt = answer.status === 200 && ORDER_PATH.test(path) && this.badAnswerSignatures > 0;
    if (corrupt) this.badAnswerSignatures--;
    this.write(res, answer, { nonce, timestamp, secret: account.secret, corrupt });
  }

  private write(res: ServerResponse, answer: Answer, signing?: { nonce: string; timestamp: string; secret: string; corrupt: boolean }): void {
    const text = JSON.stringify(answer.body);
    const contentType = 'application/json';
    const headers: Record<string, string> = { 'content-type': contentType };
    // The venue signs what it answers 200 to a signed request; an error of the gateway (or anything else) comes unsigned.
    if (signing !== undefined && answer.status === 200) {
      const mac = createHmac('sha256', signing.secret).update(signing.nonce + signing.timestamp + contentType + text, 'utf8').digest('hex');
      headers['x-server-auth-signature'] = signing.corrupt ? mac.replace(/^./, (c) => (c === '0' ? '1' : '0')) : mac;
    }
    res.writeHead(answer.status, headers);
    res.end(text);
  }

  private publicAnswer(path: string): Answer {
    if (path === '/api/v2/markets/') return { status: 200, body: this.exchange.allSymbols().map((s) => this.marketJson(s)) };
    const book = /^\/api\/v2\/order_book\/([a-z0-9]+)\/$/.exec(path);
    const s = book === null ? undefined : this.exchange.symbol(book[1]!);
    if (s === undefined) return { status: 404, body: { status: 'error', reason: 'Order book not found.', response_code: '404.005' } };
    this.seen.snapshots++;
    const channel = `diff_order_book_${s.symbol}`;
    if (![...this.subscribers.values()].some((channels) => channels.has(channel))) this.seen.snapshotsUnsubscribed++;
    const micro = this.stamp();
    const levels = (side: Level[]) => side.map((l) => [px(l.price), amount(l.qty)]);
    return { status: 200, body: { timestamp: String(Math.floor(micro / 1_000_000)), microtimestamp: String(micro), bids: levels(s.bids), asks: levels(s.asks) } };
  }

  private privateAnswer(path: string, account: FakeAccount, form: URLSearchParams, res: ServerResponse): Answer | undefined {
    const order = ORDER_PATH.exec(path);
    if (order !== null) return this.placeOrder(path, account, order[1] === 'buy' ? 'BUY' : 'SELL', order[2] !== undefined, order[3]!, form, res);
    if (path === '/api/v2/order_status/') {
      this.seen.statusReads++;
      const o = this.find(account, form);
      if (o === undefined) return { status: 404, body: { status: 'error', reason: 'Order not found.', response_code: '404.002' } };
      return { status: 200, body: this.statusJson(o, /^true$/i.test(form.get('omit_transactions') ?? '')) };
    }
    if (path === '/api/v2/cancel_order/') {
      this.seen.cancels++;
      const o = this.find(account, form);
      // The older shape the cancel still answers in (ccxt's capture), on HTTP 200.
      if (o === undefined || !isOpen(o)) return { status: 200, body: { status: 'error', reason: 'Order not found' } };
      const left = o.origQty - o.executedQty;
      this.exchange.cancel(account, o);
      return { status: 200, body: { id: bitstampOrderIdOf(o), amount: amount(left), price: px(o.price), type: o.side === 'BUY' ? 0 : 1, market: this.marketName(o.symbol), status: 'Canceled' } };
    }
    const cancelAll = /^\/api\/v2\/cancel_all_orders\/(?:([a-z0-9]+)\/)?$/.exec(path);
    if (cancelAll !== null) {
      this.seen.cancelAlls++;
      const pair = cancelAll[1];
      if (pair !== undefined && this.exchange.symbol(pair) === undefined) return { status: 404, body: { status: 'error', reason: 'Market not found for corresponding request.', response_code: '404.007' } };
      const canceled = this.exchange.openOrders(account.apiKey).filter((o) => pair === undefined || o.symbol === pair).map((o) => {
        const left = o.origQty - o.executedQty;
        this.exchange.cancel(account, o);
        const market = this.marketName(o.symbol);
        return { id: bitstampOrderIdOf(o), amount: amount(left), price: px(o.price), type: o.side === 'BUY' ? 0 : 1, currency_pair: market, market };
      });
      return { status: 200, body: { canceled, success: true } };
    }
    const open = /^\/api\/v2\/open_orders\/(?:(all|[a-z0-9]+)\/)?$/.exec(path);
    if (open !== null) {
      this.seen.openOrderReads++;
      const cacheKey = `${account.apiKey} ${path}`;
      const cached = this.openOrdersCache.get(cacheKey);
      if (cached !== undefined && Date.now() - cached.at < OPEN_ORDERS_CACHED_MS) return { status: 200, body: cached.body };
      const pair = open[1] === undefined || open[1] === 'all' ? undefined : open[1];
      const body = this.openOrdersJson(account, pair);
      this.openOrdersCache.set(cacheKey, { at: Date.now(), body });
      return { status: 200, body };
    }
    if (path === '/api/v2/account_balances/') {
      return { status: 200, body: Object.entries(account.balances).map(([asset, b]) => ({ currency: asset.toLowerCase(), total: amount(b.free + b.locked), available: amount(b.free), reserved: amount(b.locked) })) };
    }
    const fees = /^\/api\/v2\/fees\/trading\/(?:([a-z0-9]+)\/)?$/.exec(path);
    if (fees !== null) {
      const percent = (bps: number) => dec(bps * 1_000, 100_000); // "0.30000"
      const row = (s: FakeSymbol) => ({ currency_pair: s.symbol, market: s.symbol, fees: { maker: percent(this.makerBps), taker: percent(this.takerBps) } });
      if (fees[1] === undefined) return { status: 200, body: this.exchange.allSymbols().map(row) };
      const s = this.exchange.symbol(fees[1]);
      return s === undefined ? { status: 404, body: { status: 'error', reason: 'Market not found for corresponding request.', response_code: '404.007' } } : { status: 200, body: row(s) };
    }
    return { status: 404, body: { status: 'error', reason: 'Not found' } };
  }

  private placeOrder(path: string, account: FakeAccount, side: 'BUY' | 'SELL', market: boolean, pair: string, form: URLSearchParams, res: ServerResponse): Answer | undefined {
    this.seen.orders++;
    this.lastOrder = { path, form };
    const s = this.exchange.symbol(pair);
    if (s === undefined) return { status: 404, body: { status: 'error', reason: 'Market not found for corresponding request.', response_code: '404.007' } };
    const amountText = form.get('amount') ?? undefined;
    const priceText = form.get('price') ?? undefined;
    if (amountText === undefined || (!market && priceText === undefined)) return { status: 200, body: { status: 'error', reason: { __all__: ['Missing amount and/or price POST parameters'] } } };
    const decimals = (text: string) => (text.includes('.') ? text.length - text.indexOf('.') - 1 : 0);
    const qty = parseDec(amountText, Q);
    if (!(qty > 0)) return { status: 200, body: { status: 'error', reason: { amount: ['Enter a number. Use "." as a decimal point.'] }, response_code: '400.026' } };
    if (decimals(amountText) > BASE_DECIMALS) return { status: 200, body: { status: 'error', reason: { amount: [`Ensure that there are no more than ${BASE_DECIMALS} decimal places.`] }, response_code: '400.026' } };
    const price = market ? NaN : parseDec(priceText, P);
    if (!market && !(price > 0)) return { status: 200, body: { status: 'error', reason: { price: ['Enter a number. Use "." as a decimal point.'] }, response_code: '400.041' } };
    if (!market && decimals(priceText!) > COUNTER_DECIMALS) return { status: 200, body: { status: 'error', reason: { price: [`Ensure that there are no more than ${COUNTER_DECIMALS} decimal places.`] }, response_code: '400.041' } };
    const flags = ['daily_order', 'ioc_order', 'fok_order', 'moc_order', 'gtd_order'].filter((f) => /^(true|1)$/i.test(form.get(f) ?? ''));
    if (flags.length > 1) return { status: 200, body: { status: 'error', reason: 'Only one of optional parameters can be set.', response_code: '400.024' } };
    if (flags.some((f) => f !== 'ioc_order')) return { status: 200, body: { status: 'error', reason: 'The fake serves IOC and GTC orders only.', response_code: '400.001' } };
    const clientOrderId = form.get('client_order_id');
    if (clientOrderId === null || clientOrderId === '' || clientOrderId.length > 180) return { status: 200, body: { status: 'error', reason: 'POST parameter(s) is malformed: client_order_id.', response_code: '400.008' } };
    const value = market ? Math.round((qty * (side === 'BUY' ? (s.asks[0]?.price ?? 0) : (s.bids[0]?.price ?? 0))) / Q) : Math.round((qty * price) / Q);
    if (value < parseDec(MIN_VALUE, P)) return { status: 200, body: { status: 'error', reason: { __all__: [`Minimum order size is ${MIN_VALUE} ${s.quote}.`] } } };
    const repeated = this.clientOrderIds.has(`${account.apiKey} ${clientOrderId}`);
    if (repeated) this.seen.repeatedClientOrderIds++;
    this.clientOrderIds.add(`${account.apiKey} ${clientOrderId}`);
    const tif = market || flags.includes('ioc_order') ? 'IOC' : 'GTC';
    const placed = this.charging(this.takerBps, () => this.exchange.place(account, { symbol: s.symbol, side, type: market ? 'MARKET' : 'LIMIT', timeInForce: tif, qty, price, clientOrderId }));
    if (!placed.ok) {
      if (placed.why === 'duplicate') return { status: 400, body: { status: 'error', reason: 'Provided client_order_id already exists.', response_code: '400.019' } };
      const need = side === 'BUY' ? `${dec(Math.round((qty * (market ? (s.asks[0]?.price ?? 0) : price)) / P), Q)} ${s.quote}` : `${amount(qty)} ${s.base}`;
      const have = account.balances[side === 'BUY' ? s.quote : s.base]?.free ?? 0;
      return { status: 200, body: { status: 'error', reason: { __all__: [`You need ${need} to open that order. You have only ${amount(have)} ${side === 'BUY' ? s.quote : s.base} available. Check your account balance for details.`] } } };
    }
    if (this.swallowOrderAnswers > 0) {
      this.swallowOrderAnswers--;
      res.on('close', () => undefined);
      return undefined;
    }
    const o = placed.order;
    const average = o.executedQty === 0 ? 0 : Math.round((o.quoteQty * P) / o.executedQty);
    return { status: 200, body: { id: String(bitstampOrderIdOf(o)), market: this.marketName(s.symbol), datetime: datetime(o.transactTime), type: side === 'BUY' ? '0' : '1', price: px(market ? average : o.price), amount: amount(o.origQty), client_order_id: clientOrderId } };
  }

  /** The order a form names by `id` or by `client_order_id`. */
  private find(account: FakeAccount, form: URLSearchParams): FakeOrder | undefined {
    const id = form.get('id');
    if (id !== null) return /^\d+$/.test(id) ? this.exchange.orderById(account.apiKey, Number(id) - ORDER_ID_BASE) : undefined;
    const clientOrderId = form.get('client_order_id');
    return clientOrderId === null ? undefined : this.exchange.order(account.apiKey, clientOrderId);
  }

  private marketName(symbol: string): string {
    const s = this.exchange.symbol(symbol)!;
    return `${s.base}/${s.quote}`;
  }

  private marketJson(s: FakeSymbol): Record<string, unknown> {
    return {
      name: `${s.base}/${s.quote}`,
      market_symbol: s.symbol,
      base_currency: s.base,
      base_decimals: BASE_DECIMALS,
      counter_currency: s.quote,
      counter_decimals: COUNTER_DECIMALS,
      minimum_order_value: MIN_VALUE,
      maximum_order_value: '10000000',
      minimum_order_amount: '0.00000001',
      maximum_order_amount: '10000',
      trading: 'Enabled',
      instant_and_market_orders: 'Enabled',
      instant_order_counter_decimals: 2,
      description: `${s.base} / ${s.quote}`,
      market_type: 'SPOT',
    };
  }

  private statusJson(o: FakeOrder, omitTransactions: boolean): Record<string, unknown> {
    const status = isOpen(o) ? 'Open' : o.status === 'FILLED' ? 'Finished' : o.status === 'CANCELED' ? 'Canceled' : 'Expired';
    const body: Record<string, unknown> = {
      id: bitstampOrderIdOf(o),
      datetime: datetime(o.transactTime),
      type: o.side === 'BUY' ? '0' : '1',
      status,
      market: this.marketName(o.symbol),
      amount_remaining: amount(o.status === 'FILLED' ? 0 : o.origQty - o.executedQty),
      client_order_id: o.clientOrderId,
    };
    if (!omitTransactions) body['transactions'] = this.exchange.tradesOf(o.orderId).map((t) => this.transactionJson(o, t));
    return body;
  }

  /** A fill as order_status lists it: the amounts keyed by the lower-case currency codes, the fee in the counter currency. */
  private transactionJson(o: FakeOrder, t: FakeTrade): Record<string, unknown> {
    const s = this.exchange.symbol(o.symbol)!;
    return { tid: t.id, price: px(t.price), fee: amount(t.commission), [s.base.toLowerCase()]: amount(t.qty), [s.quote.toLowerCase()]: amount(Math.round((t.qty * t.price) / P)), datetime: datetime(t.time), type: 2 };
  }

  private openOrdersJson(account: FakeAccount, pair: string | undefined): unknown[] {
    return this.exchange.openOrders(account.apiKey).filter((o) => pair === undefined || o.symbol === pair).map((o) => {
      const market = this.marketName(o.symbol);
      return { id: String(bitstampOrderIdOf(o)), datetime: datetime(o.transactTime), type: o.side === 'BUY' ? '0' : '1', price: px(o.price), amount: amount(o.origQty - o.executedQty), amount_at_create: amount(o.origQty), currency_pair: market, market, client_order_id: o.clientOrderId };
    });
  }
}

/** `/api/v2/{buy,sell}/[market/]{pair}/`. */
const ORDER_PATH = /^\/api\/v2\/(buy|sell)\/(market\/)?([a-z0-9]+)\/$/;
