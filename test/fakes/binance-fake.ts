import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * A local Binance spot, enough of it to run the live adapter against on loopback: the public
 * REST (`exchangeInfo`, `depth`), the combined WebSocket stream with `SUBSCRIBE` and
 * `depthUpdate` events, and the SIGNED REST (order, cancel, query, myTrades, openOrders,
 * account) with every signature checked as Binance checks it (HMAC-SHA256 of the query as
 * received, `signature` last, `timestamp` inside `recvWindow`). Answers and error bodies are in
 * Binance's documented shapes and codes. Orders match against the fake's own book: IOC and
 * MARKET take liquidity and publish the change on the stream; GTC remainders rest off-book until
 * the test fills them (`fillResting`). Knobs let a test open a gap in the stream, swallow an
 * order's answer, or exhaust the request weight.
 */

const P = 1e9;
const Q = 1e8;

export interface FakeAccount {
  apiKey: string;
  secret: string;
  balances: Record<string, { free: number; locked: number }>;
  canWithdraw?: boolean;
}

interface Level {
  price: number; // 1e9
  qty: number; // 1e8
}

interface FakeOrder {
  symbol: string;
  orderId: number;
  clientOrderId: string;
  apiKey: string;
  side: 'BUY' | 'SELL';
  type: string;
  timeInForce: string;
  price: number;
  origQty: number;
  executedQty: number;
  quoteQty: number;
  status: 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'EXPIRED';
  transactTime: number;
}

interface FakeTrade {
  symbol: string;
  id: number;
  orderId: number;
  price: number;
  qty: number;
  commission: number; // 1e8 of commissionAsset
  commissionAsset: string;
  time: number;
  isBuyer: boolean;
  isMaker: boolean;
}

export interface FakeSymbol {
  symbol: string; // BTCUSDT
  base: string;
  quote: string;
  bids: Level[];
  asks: Level[];
  /** the symbol's last update id (Binance numbers each symbol's book updates apart) */
  updateId?: number;
}

function dec(value: number, scale: number): string {
  const digits = String(Math.round(value)).padStart(String(scale).length, '0');
  const places = String(scale).length - 1;
  return `${digits.slice(0, digits.length - places)}.${digits.slice(digits.length - places)}`;
}

/** A price as Binance prints it: 8 decimals (the engine's 1e9 prices of a 0.01 tick divide by 10 exactly). */
function px(price: number): string {
  return dec(price / 10, Q);
}

function parseDec(text: string | undefined, scale: number): number {
  if (text === undefined || !/^\d+(\.\d+)?$/.test(text)) return NaN;
  const [whole, frac = ''] = text.split('.');
  const places = String(scale).length - 1;
  return Number(whole) * scale + Number(frac.padEnd(places, '0').slice(0, places));
}

export class BinanceFake {
  private readonly http: Server;
  private readonly wss: WebSocketServer;
  private readonly symbols = new Map<string, FakeSymbol>();
  private readonly accounts = new Map<string, FakeAccount>();
  private readonly orders = new Map<string, FakeOrder>(); // by apiKey|clientOrderId
  private readonly trades: FakeTrade[] = [];
  private readonly subscribers = new Map<WebSocket, Set<string>>();
  private nextOrderId = 1;
  private nextTradeId = 5_000_000;
  private weightUsed = 0;
  private weightWindow = 0;
  /** Knobs. */
  weightLimit = 6_000;
  commissionBps = 10;
  /** orders whose answer is swallowed (executed, never answered): the next N */
  swallowOrderAnswers = 0;
  /** how long a depth snapshot takes to answer (a slow venue), ms */
  snapshotDelayMs = 0;
  /** Counters a test reads. */
  readonly seen = { requests: 0, snapshots: 0, orders: 0, badSignatures: 0, cancels: 0, cancelAlls: 0, lookups: 0, subscribes: 0 };
  private readonly sockets = new Set<import('node:net').Socket>();

  constructor(symbols: FakeSymbol[], accounts: FakeAccount[]) {
    for (const s of symbols) this.symbols.set(s.symbol, s);
    for (const a of accounts) this.accounts.set(a.apiKey, a);
    this.http = createServer((req, res) => void this.onRequest(req, res));
    this.http.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    this.wss = new WebSocketServer({ server: this.http, path: '/stream' });
    this.wss.on('connection', (ws) => {
      this.subscribers.set(ws, new Set());
      ws.on('message', (data) => this.onWsMessage(ws, data.toString()));
      ws.on('close', () => this.subscribers.delete(ws));
    });
  }

  /** Listens on loopback (`port` 0: an ephemeral one). */
  async listen(port = 0): Promise<{ rest: string; ws: string }> {
    await new Promise<void>((resolve) => this.http.listen(port, '127.0.0.1', resolve));
    const bound = (this.http.address() as AddressInfo).port;
    return { rest: `http://127.0.0.1:${bound}`, ws: `ws://127.0.0.1:${bound}` };
  }

  async close(): Promise<void> {
    for (const ws of this.subscribers.keys()) ws.terminate();
    this.wss.close();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  // --- test controls ---------------------------------------------------------------------------

  /** Sets a level and publishes it as one depth update (qty 0 removes it). */
  setLevel(symbol: string, side: 'bid' | 'ask', price: number, qty: number): void {
    const s = this.symbols.get(symbol)!;
    this.put(s, side, price, qty);
    this.publish(s, side === 'bid' ? [{ price, qty }] : [], side === 'ask' ? [{ price, qty }] : []);
  }

  /** Skips `n` update ids of a symbol: its next event does not follow the previous one (a lost event). */
  gap(symbol: string, n = 5): void {
    const s = this.symbols.get(symbol)!;
    s.updateId = (s.updateId ?? 1_000) + n;
  }

  /** Drops every stream connection (the adapter reconnects). */
  dropStreams(): void {
    for (const ws of this.subscribers.keys()) ws.terminate();
  }

  book(symbol: string): FakeSymbol {
    return this.symbols.get(symbol)!;
  }

  order(apiKey: string, clientOrderId: string): FakeOrder | undefined {
    return this.orders.get(`${apiKey}|${clientOrderId}`);
  }

  openOrders(apiKey: string): FakeOrder[] {
    return [...this.orders.values()].filter((o) => o.apiKey === apiKey && (o.status === 'NEW' || o.status === 'PARTIALLY_FILLED'));
  }

  tradesOf(orderId: number): FakeTrade[] {
    return this.trades.filter((t) => t.orderId === orderId);
  }

  account(apiKey: string): FakeAccount {
    return this.accounts.get(apiKey)!;
  }

  /** A resting order meets a taker: `qty` of it fills at its price, as maker. */
  fillResting(apiKey: string, clientOrderId: string, qty: number): void {
    const o = this.orders.get(`${apiKey}|${clientOrderId}`)!;
    this.execute(o, this.symbols.get(o.symbol)!, o.price, Math.min(qty, o.origQty - o.executedQty), true);
    o.status = o.executedQty >= o.origQty ? 'FILLED' : 'PARTIALLY_FILLED';
  }

  // --- WebSocket -------------------------------------------------------------------------------

  private onWsMessage(ws: WebSocket, text: string): void {
    let msg: { method?: string; params?: string[]; id?: number };
    try {
      msg = JSON.parse(text) as typeof msg;
    } catch {
      ws.send(JSON.stringify({ code: 3, msg: 'Invalid JSON' }));
      return;
    }
    if (msg.method === 'SUBSCRIBE' && Array.isArray(msg.params)) {
      this.seen.subscribes++;
      for (const p of msg.params) this.subscribers.get(ws)?.add(p);
      ws.send(JSON.stringify({ result: null, id: msg.id }));
    }
  }

  private publish(s: FakeSymbol, bids: Level[], asks: Level[]): void {
    const first = (s.updateId ?? 1_000) + 1;
    s.updateId = first - 1 + Math.max(1, bids.length + asks.length);
    const stream = `${s.symbol.toLowerCase()}@depth@100ms`;
    const data = {
      e: 'depthUpdate',
      E: Date.now(),
      s: s.symbol,
      U: first,
      u: s.updateId,
      b: bids.map((l) => [px(l.price), dec(l.qty, Q)]),
      a: asks.map((l) => [px(l.price), dec(l.qty, Q)]),
    };
    const text = JSON.stringify({ stream, data });
    for (const [ws, streams] of this.subscribers) if (streams.has(stream)) ws.send(text);
  }

  private put(s: FakeSymbol, side: 'bid' | 'ask', price: number, qty: number): void {
    const levels = side === 'bid' ? s.bids : s.asks;
    const i = levels.findIndex((l) => l.price === price);
    if (qty <= 0) {
      if (i >= 0) levels.splice(i, 1);
    } else if (i >= 0) levels[i]!.qty = qty;
    else {
      levels.push({ price, qty });
      levels.sort((a, b) => (side === 'bid' ? b.price - a.price : a.price - b.price));
    }
  }

  // --- REST ------------------------------------------------------------------------------------

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const rawQuery = (req.url ?? '').includes('?') ? (req.url ?? '').slice((req.url ?? '').indexOf('?') + 1) : '';
    const q = url.searchParams;
    const route = `${req.method} ${url.pathname}`;
    this.seen.requests++;
    if (route === 'GET /api/v3/depth' && this.snapshotDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.snapshotDelayMs));
    const now = Date.now();
    if (now - this.weightWindow >= 60_000) {
      this.weightWindow = now - (now % 60_000);
      this.weightUsed = 0;
    }
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', 'x-mbx-used-weight-1m': String(this.weightUsed), ...headers });
      res.end(JSON.stringify(body));
    };
    const weight = ({ 'GET /api/v3/depth': 50, 'GET /api/v3/exchangeInfo': 20, 'GET /api/v3/account': 20, 'GET /api/v3/myTrades': 20, 'GET /api/v3/order': 4, 'GET /api/v3/openOrders': 6 } as Record<string, number>)[route] ?? 1;
    if (this.weightUsed + weight > this.weightLimit) {
      send(429, { code: -1003, msg: 'Too many requests; current limit of IP is 6000 requests per minute. Please use the websocket for live updates to avoid polling the API.' }, { 'retry-after': '2' });
      return;
    }
    this.weightUsed += weight;

    if (route === 'GET /api/v3/exchangeInfo') {
      send(200, {
        timezone: 'UTC',
        serverTime: now,
        rateLimits: [
          { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 6000 },
          { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 100 },
        ],
        symbols: [...this.symbols.values()].map((s) => ({
          symbol: s.symbol,
          status: 'TRADING',
          baseAsset: s.base,
          quoteAsset: s.quote,
          filters: [
            { filterType: 'PRICE_FILTER', minPrice: '0.01000000', maxPrice: '1000000.00000000', tickSize: '0.01000000' },
            { filterType: 'LOT_SIZE', minQty: '0.00001000', maxQty: '9000.00000000', stepSize: '0.00001000' },
            { filterType: 'NOTIONAL', minNotional: '5.00000000', applyMinToMarket: true, maxNotional: '9000000.00000000', applyMaxToMarket: false, avgPriceMins: 5 },
          ],
        })),
      });
      return;
    }
    if (route === 'GET /api/v3/depth') {
      const s = this.symbols.get(q.get('symbol') ?? '');
      if (s === undefined) return send(400, { code: -1121, msg: 'Invalid symbol.' });
      this.seen.snapshots++;
      const limit = Number(q.get('limit') ?? 100);
      send(200, {
        lastUpdateId: s.updateId ?? 1_000,
        bids: s.bids.slice(0, limit).map((l) => [px(l.price), dec(l.qty, Q)]),
        asks: s.asks.slice(0, limit).map((l) => [px(l.price), dec(l.qty, Q)]),
      });
      return;
    }

    // SIGNED endpoints.
    const apiKey = req.headers['x-mbx-apikey'];
    const account = typeof apiKey === 'string' ? this.accounts.get(apiKey) : undefined;
    if (account === undefined) return send(401, { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' });
    const signatureAt = rawQuery.lastIndexOf('&signature=');
    const signature = signatureAt < 0 ? '' : rawQuery.slice(signatureAt + '&signature='.length);
    const expected = createHmac('sha256', account.secret).update(signatureAt < 0 ? rawQuery : rawQuery.slice(0, signatureAt)).digest('hex');
    if (signature.length !== expected.length || !timingSafeEqual(Buffer.from(signature), Buffer.from(expected))) {
      this.seen.badSignatures++;
      return send(400, { code: -1022, msg: 'Signature for this request is not valid.' });
    }
    const timestamp = Number(q.get('timestamp'));
    const recvWindow = Number(q.get('recvWindow') ?? 5000);
    if (!Number.isFinite(timestamp) || now - timestamp > recvWindow || timestamp - now > 1000) {
      return send(400, { code: -1021, msg: "Timestamp for this request is outside of the recvWindow." });
    }

    switch (route) {
      case 'POST /api/v3/order':
        return this.newOrder(account, q, send, res);
      case 'DELETE /api/v3/order': {
        this.seen.cancels++;
        const o = this.orders.get(`${account.apiKey}|${q.get('origClientOrderId')}`);
        if (o === undefined || (o.status !== 'NEW' && o.status !== 'PARTIALLY_FILLED')) return send(400, { code: -2011, msg: 'Unknown order sent.' });
        this.cancelOrder(account, o);
        return send(200, this.orderJson(o));
      }
      case 'GET /api/v3/order': {
        this.seen.lookups++;
        const o = this.orders.get(`${account.apiKey}|${q.get('origClientOrderId')}`);
        if (o === undefined) return send(400, { code: -2013, msg: 'Order does not exist.' });
        return send(200, this.orderJson(o));
      }
      case 'GET /api/v3/myTrades': {
        const orderId = Number(q.get('orderId'));
        return send(200, this.tradesOf(orderId).map((t) => this.tradeJson(t)));
      }
      case 'GET /api/v3/openOrders':
        return send(200, this.openOrders(account.apiKey).map((o) => this.orderJson(o)));
      case 'DELETE /api/v3/openOrders': {
        this.seen.cancelAlls++;
        const open = this.openOrders(account.apiKey).filter((o) => o.symbol === q.get('symbol'));
        if (open.length === 0) return send(400, { code: -2011, msg: 'Unknown order sent.' });
        for (const o of open) this.cancelOrder(account, o);
        return send(200, open.map((o) => this.orderJson(o)));
      }
      case 'GET /api/v3/account':
        return send(200, {
          makerCommission: this.commissionBps,
          takerCommission: this.commissionBps,
          canTrade: true,
          canWithdraw: account.canWithdraw ?? false,
          canDeposit: true,
          accountType: 'SPOT',
          commissionRates: { maker: dec(this.commissionBps * 1e4, Q), taker: dec(this.commissionBps * 1e4, Q), buyer: '0.00000000', seller: '0.00000000' },
          balances: Object.entries(account.balances).map(([asset, b]) => ({ asset, free: dec(b.free, Q), locked: dec(b.locked, Q) })),
          permissions: ['SPOT'],
        });
      default:
        return send(404, { code: -1000, msg: `unknown route ${route}` });
    }
  }

  private newOrder(account: FakeAccount, q: URLSearchParams, send: (status: number, body: unknown) => void, res: ServerResponse): void {
    this.seen.orders++;
    const s = this.symbols.get(q.get('symbol') ?? '');
    if (s === undefined) return send(400, { code: -1121, msg: 'Invalid symbol.' });
    const side = q.get('side');
    const type = q.get('type');
    const clientOrderId = q.get('newClientOrderId') ?? `auto-${this.nextOrderId}`;
    const qty = parseDec(q.get('quantity') ?? undefined, Q);
    const price = type === 'MARKET' ? NaN : parseDec(q.get('price') ?? undefined, P);
    if ((side !== 'BUY' && side !== 'SELL') || (type !== 'LIMIT' && type !== 'MARKET') || !(qty > 0) || (type === 'LIMIT' && !(price > 0))) {
      return send(400, { code: -1102, msg: 'Mandatory parameter was not sent, was empty/null, or malformed.' });
    }
    const key = `${account.apiKey}|${clientOrderId}`;
    const existing = this.orders.get(key);
    if (existing !== undefined && (existing.status === 'NEW' || existing.status === 'PARTIALLY_FILLED')) return send(400, { code: -2010, msg: 'Duplicate order sent.' });
    const tif = type === 'MARKET' ? 'GTC' : (q.get('timeInForce') ?? 'GTC');
    const order: FakeOrder = { symbol: s.symbol, orderId: this.nextOrderId++, clientOrderId, apiKey: account.apiKey, side, type, timeInForce: tif, price: Number.isNaN(price) ? 0 : price, origQty: qty, executedQty: 0, quoteQty: 0, status: 'NEW', transactTime: Date.now() };
    // Funds: a buy needs the quote at its limit (or the book's walk), a sell the base.
    const book = side === 'BUY' ? s.asks : s.bids;
    const cross = (l: Level) => type === 'MARKET' || (side === 'BUY' ? l.price <= price : l.price >= price);
    const changed: Level[] = [];
    let left = qty;
    const fills: FakeTrade[] = [];
    while (left > 0 && book.length > 0 && cross(book[0]!)) {
      const level = book[0]!;
      const take = Math.min(left, level.qty);
      const cost = Math.round((take * level.price) / P);
      const wallet = side === 'BUY' ? account.balances[s.quote] : account.balances[s.base];
      const need = side === 'BUY' ? cost : take;
      if (wallet === undefined || wallet.free < need) {
        if (fills.length === 0) return send(400, { code: -2010, msg: 'Account has insufficient balance for requested action.' });
        break;
      }
      fills.push(this.execute(order, s, level.price, take, false));
      level.qty -= take;
      left -= take;
      changed.push({ price: level.price, qty: level.qty });
      if (level.qty === 0) book.shift();
    }
    if (changed.length > 0) this.publish(s, side === 'SELL' ? changed : [], side === 'BUY' ? changed : []);
    if (order.executedQty >= order.origQty) order.status = 'FILLED';
    else if (tif === 'GTC' && type === 'LIMIT') {
      order.status = order.executedQty > 0 ? 'PARTIALLY_FILLED' : 'NEW';
      const lock = side === 'BUY' ? { asset: s.quote, qty: Math.round(((order.origQty - order.executedQty) * price) / P) } : { asset: s.base, qty: order.origQty - order.executedQty };
      const wallet = account.balances[lock.asset];
      if (wallet !== undefined) {
        wallet.free -= lock.qty;
        wallet.locked += lock.qty;
      }
    } else order.status = 'EXPIRED';
    this.orders.set(key, order);
    if (this.swallowOrderAnswers > 0) {
      this.swallowOrderAnswers--;
      // Executed, never answered: the connection is left hanging until the client gives up.
      res.on('close', () => undefined);
      return;
    }
    send(200, {
      ...this.orderJson(order),
      fills: fills.map((t) => ({ price: px(t.price), qty: dec(t.qty, Q), commission: dec(t.commission, Q), commissionAsset: t.commissionAsset, tradeId: t.id })),
    });
  }

  /** One fill of `order`: balances moved, commission taken in the asset received. */
  private execute(order: FakeOrder, s: FakeSymbol, price: number, qty: number, isMaker: boolean): FakeTrade {
    const account = this.accounts.get(order.apiKey)!;
    const quoteQty = Math.round((qty * price) / P);
    const buy = order.side === 'BUY';
    const received = buy ? s.base : s.quote;
    const receivedQty = buy ? qty : quoteQty;
    const commission = Math.ceil((receivedQty * this.commissionBps) / 10_000);
    const base = (account.balances[s.base] ??= { free: 0, locked: 0 });
    const quote = (account.balances[s.quote] ??= { free: 0, locked: 0 });
    const fromLocked = isMaker;
    if (buy) {
      if (fromLocked) quote.locked -= Math.round((qty * order.price) / P);
      else quote.free -= quoteQty;
      if (fromLocked) quote.free += Math.round((qty * order.price) / P) - quoteQty;
      base.free += qty - commission;
    } else {
      if (fromLocked) base.locked -= qty;
      else base.free -= qty;
      quote.free += quoteQty - commission;
    }
    order.executedQty += qty;
    order.quoteQty += quoteQty;
    const trade: FakeTrade = { symbol: s.symbol, id: this.nextTradeId++, orderId: order.orderId, price, qty, commission, commissionAsset: received, time: Date.now(), isBuyer: buy, isMaker };
    this.trades.push(trade);
    return trade;
  }

  private cancelOrder(account: FakeAccount, o: FakeOrder): void {
    const s = this.symbols.get(o.symbol)!;
    const left = o.origQty - o.executedQty;
    const lock = o.side === 'BUY' ? { asset: s.quote, qty: Math.round((left * o.price) / P) } : { asset: s.base, qty: left };
    const wallet = account.balances[lock.asset];
    if (wallet !== undefined) {
      wallet.locked -= lock.qty;
      wallet.free += lock.qty;
    }
    o.status = 'CANCELED';
  }

  private orderJson(o: FakeOrder): Record<string, unknown> {
    return {
      symbol: o.symbol,
      orderId: o.orderId,
      orderListId: -1,
      clientOrderId: o.clientOrderId,
      transactTime: o.transactTime,
      price: px(o.price),
      origQty: dec(o.origQty, Q),
      executedQty: dec(o.executedQty, Q),
      cummulativeQuoteQty: dec(o.quoteQty, Q),
      status: o.status,
      timeInForce: o.timeInForce,
      type: o.type,
      side: o.side,
      workingTime: o.transactTime,
      selfTradePreventionMode: 'EXPIRE_MAKER',
    };
  }

  private tradeJson(t: FakeTrade): Record<string, unknown> {
    return {
      symbol: t.symbol,
      id: t.id,
      orderId: t.orderId,
      orderListId: -1,
      price: px(t.price),
      qty: dec(t.qty, Q),
      quoteQty: dec(Math.round((t.qty * t.price) / P), Q),
      commission: dec(t.commission, Q),
      commissionAsset: t.commissionAsset,
      time: t.time,
      isBuyer: t.isBuyer,
      isMaker: t.isMaker,
      isBestMatch: true,
    };
  }
}
