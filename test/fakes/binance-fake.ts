import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebSocket } from 'ws';
import { dec, FakeExchange, isOpen, P, parseDec, Q, type FakeAccount, type FakeOrder, type FakeSymbol, type FakeTrade, type Level } from './exchange-core.ts';
import { FakeVenueServer } from './fake-server.ts';

export type { FakeAccount, FakeSymbol } from './exchange-core.ts';

/** A price as Binance prints it: 8 decimals (the engine's 1e9 prices of a 0.01 tick divide by 10 exactly). */
function px(price: number): string {
  return dec(price / 10, Q);
}

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
export class BinanceFake extends FakeVenueServer {
  readonly exchange: FakeExchange;
  private weightUsed = 0;
  private weightWindow = 0;
  /** Knobs. */
  weightLimit = 6_000;
  /** orders whose answer is swallowed (executed, never answered): the next N */
  swallowOrderAnswers = 0;
  /** how long a depth snapshot takes to answer (a slow venue), ms */
  snapshotDelayMs = 0;
  /** Counters a test reads. */
  readonly seen = { requests: 0, snapshots: 0, orders: 0, badSignatures: 0, cancels: 0, cancelAlls: 0, lookups: 0, subscribes: 0 };

  constructor(symbols: FakeSymbol[], accounts: FakeAccount[]) {
    super('/stream');
    this.exchange = new FakeExchange(symbols, accounts, (s, bids, asks) => this.publish(s, bids, asks));
  }

  // --- test controls ---------------------------------------------------------------------------

  setLevel(symbol: string, side: 'bid' | 'ask', price: number, qty: number): void {
    this.exchange.setLevel(symbol, side, price, qty);
  }

  /** Skips `n` update ids of a symbol: its next event does not follow the previous one (a lost event). */
  gap(symbol: string, n = 5): void {
    const s = this.exchange.symbol(symbol)!;
    s.updateId = (s.updateId ?? 1_000) + n;
  }

  book(symbol: string): FakeSymbol {
    return this.exchange.symbol(symbol)!;
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

  account(apiKey: string): FakeAccount {
    return this.exchange.account(apiKey)!;
  }

  fillResting(apiKey: string, clientOrderId: string, qty: number): void {
    this.exchange.fillResting(apiKey, clientOrderId, qty);
  }

  set commissionBps(bps: number) {
    this.exchange.commissionBps = bps;
  }

  // --- WebSocket -------------------------------------------------------------------------------

  protected onWsMessage(ws: WebSocket, text: string): void {
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
    this.broadcast(stream, JSON.stringify({ stream, data }));
  }

  // --- REST ------------------------------------------------------------------------------------

  protected async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
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
        symbols: this.exchange.allSymbols().map((s) => ({
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
      const s = this.exchange.symbol(q.get('symbol') ?? '');
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
    const account = typeof apiKey === 'string' ? this.exchange.account(apiKey) : undefined;
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
        const o = this.exchange.order(account.apiKey, q.get('origClientOrderId') ?? '');
        if (o === undefined || !isOpen(o)) return send(400, { code: -2011, msg: 'Unknown order sent.' });
        this.exchange.cancel(account, o);
        return send(200, this.orderJson(o));
      }
      case 'GET /api/v3/order': {
        this.seen.lookups++;
        const o = this.exchange.order(account.apiKey, q.get('origClientOrderId') ?? '');
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
        for (const o of open) this.exchange.cancel(account, o);
        return send(200, open.map((o) => this.orderJson(o)));
      }
      case 'GET /api/v3/account':
        return send(200, {
          makerCommission: this.exchange.commissionBps,
          takerCommission: this.exchange.commissionBps,
          canTrade: true,
          canWithdraw: account.canWithdraw ?? false,
          canDeposit: true,
          accountType: 'SPOT',
          commissionRates: { maker: dec(this.exchange.commissionBps * 1e4, Q), taker: dec(this.exchange.commissionBps * 1e4, Q), buyer: '0.00000000', seller: '0.00000000' },
          balances: Object.entries(account.balances).map(([asset, b]) => ({ asset, free: dec(b.free, Q), locked: dec(b.locked, Q) })),
          permissions: ['SPOT'],
        });
      default:
        return send(404, { code: -1000, msg: `unknown route ${route}` });
    }
  }

  private newOrder(account: FakeAccount, q: URLSearchParams, send: (status: number, body: unknown) => void, res: ServerResponse): void {
    this.seen.orders++;
    const side = q.get('side');
    const type = q.get('type');
    const qty = parseDec(q.get('quantity') ?? undefined, Q);
    const price = type === 'MARKET' ? NaN : parseDec(q.get('price') ?? undefined, P);
    if ((side !== 'BUY' && side !== 'SELL') || (type !== 'LIMIT' && type !== 'MARKET') || !(qty > 0) || (type === 'LIMIT' && !(price > 0))) {
      return send(400, { code: -1102, msg: 'Mandatory parameter was not sent, was empty/null, or malformed.' });
    }
    const tif = type === 'LIMIT' && q.get('timeInForce') === 'IOC' ? 'IOC' : 'GTC';
    const placed = this.exchange.place(account, { symbol: q.get('symbol') ?? '', side, type, timeInForce: type === 'MARKET' ? 'IOC' : tif, qty, price, clientOrderId: q.get('newClientOrderId') ?? `auto-${Date.now()}` });
    if (!placed.ok) {
      const refusal = { unknown_symbol: { code: -1121, msg: 'Invalid symbol.' }, duplicate: { code: -2010, msg: 'Duplicate order sent.' }, insufficient: { code: -2010, msg: 'Account has insufficient balance for requested action.' } }[placed.why];
      return send(400, refusal);
    }
    if (this.swallowOrderAnswers > 0) {
      this.swallowOrderAnswers--;
      // Executed, never answered: the connection is left hanging until the client gives up.
      res.on('close', () => undefined);
      return;
    }
    send(200, {
      ...this.orderJson(placed.order),
      fills: placed.fills.map((t) => ({ price: px(t.price), qty: dec(t.qty, Q), commission: dec(t.commission, Q), commissionAsset: t.commissionAsset, tradeId: t.id })),
    });
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
