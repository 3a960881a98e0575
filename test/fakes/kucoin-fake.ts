import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebSocket } from 'ws';
import { dec, FakeExchange, isOpen, P, parseDec, Q, type FakeAccount, type FakeOrder, type FakeSymbol, type FakeTrade, type Level } from './exchange-core.ts';
import { FakeVenueServer } from './fake-server.ts';

/**
 * A local KuCoin spot over the shared fake exchange. Public: `POST /api/v1/bullet-public` hands
 * out a token and this server's own loopback socket as the instance server; a connection must
 * carry an issued token (else `error` 401 and a close), is greeted with `welcome` (its
 * connectId), answers `ping` with `pong`, acks `/market/level2:` subscriptions and pushes
 * `trade.l2update` with per-change sequences; `GET /api/v1/market/orderbook/level2_100` is the
 * snapshot at the symbol's sequence; `GET /api/v2/symbols`. Private: the HF order endpoints
 * (sync place and cancel, by clientOid), fills, open orders, accounts, trade fees and the key's
 * info, each request held to KuCoin's headers (key, KC-API-TIMESTAMP within 5 s, the key's
 * version, KC-API-SIGN over timestamp + method + path and query as received + body, and the
 * passphrase signed with the secret), answered in the `{code, msg, data}` envelope: HTTP 401
 * with the gateway codes for authentication, HTTP 200 with KuCoin's codes for the rest. Which
 * header the gateway checks first is not published: the signature goes before the passphrase
 * here. Fees are taken in the quote, as the reference's fills show (`feeCurrency` USDT on a buy).
 */

/** Prices and sizes as KuCoin prints them: decimal text without trailing zeros. */
const px = (price: number) => dec(price, P).replace(/\.?0+$/, '');
const sz = (qty: number) => dec(qty, Q).replace(/\.?0+$/, '');

/** The symbol's rules as the fake lists them: price increment 0.1, size increment 1e-8, minimum 0.00001, min funds 0.1. */
const TICK_1E9 = 100_000_000;
const MIN_SIZE_1E8 = 1_000;
const MIN_FUNDS = '0.1';
const KEY_VERSION = '3';
const TIMESTAMP_TOLERANCE_MS = 5_000;
/** KuCoin's fill `tradeId` is a bare JSON number past 2^53 (the reference's 11029373945659392). */
const TRADE_ID_BASE = 11029373945659392n;

export class KucoinFake extends FakeVenueServer {
  readonly exchange: FakeExchange;
  /** Knobs. */
  swallowOrderAnswers = 0;
  /** the `pingInterval` bullet-public names, ms */
  pingIntervalMs = 18_000;
  /** how long after connecting the welcome comes; frames before it are not taken */
  welcomeDelayMs = 50;
  /** the next N subscribe frames are refused (`error` 509, the subscription limit) */
  refuseSubscribes = 0;
  /** Counters a test reads. */
  readonly seen = { requests: 0, orders: 0, badSignatures: 0, tokens: 0, connects: 0, badTokens: 0, subscribes: 0, snapshots: 0, pings: 0, lookups: 0, cancels: 0, cancelAlls: 0 };
  /** the last order body, as received */
  lastOrder: Record<string, unknown> | undefined;
  private readonly tokens = new Set<string>();
  private readonly welcomed = new WeakSet<WebSocket>();
  private wsBase = '';

  constructor(symbols: FakeSymbol[], accounts: FakeAccount[]) {
    super('/');
    this.exchange = new FakeExchange(symbols, accounts, (s, bids, asks) => this.publish(s, bids, asks));
    this.exchange.feeInQuote = true;
  }

  override async listen(port = 0): Promise<{ rest: string; ws: string }> {
    const urls = await super.listen(port);
    this.wsBase = urls.ws;
    return urls;
  }

  setLevel(symbol: string, side: 'bid' | 'ask', price: number, qty: number): void {
    this.exchange.setLevel(symbol, side, price, qty);
  }

  /** Skips `n` sequences of a symbol: its next push does not follow the last one (a lost push). */
  gap(symbol: string, n = 5): void {
    const s = this.exchange.symbol(symbol)!;
    s.updateId = (s.updateId ?? 1_000) + n;
  }

  order(apiKey: string, clientOid: string): FakeOrder | undefined {
    return this.exchange.order(apiKey, clientOid);
  }

  openOrders(apiKey: string): FakeOrder[] {
    return this.exchange.openOrders(apiKey);
  }

  fillResting(apiKey: string, clientOid: string, qty: number): void {
    this.exchange.fillResting(apiKey, clientOid, qty);
  }

  // --- WebSocket -------------------------------------------------------------------------------

  /** A KuCoin socket is let in by its token and greeted before it may subscribe. */
  protected override onWsConnection(ws: WebSocket, req: IncomingMessage): boolean {
    const query = new URL(req.url ?? '/', 'http://fake').searchParams;
    const connectId = query.get('connectId') ?? '';
    if (!this.tokens.has(query.get('token') ?? '')) {
      this.seen.badTokens++;
      ws.send(JSON.stringify({ id: connectId, type: 'error', code: 401, data: 'token is invalid' }));
      ws.close();
      return false;
    }
    this.seen.connects++;
    setTimeout(() => {
      this.welcomed.add(ws);
      ws.send(JSON.stringify({ id: connectId, type: 'welcome' }));
    }, this.welcomeDelayMs).unref();
    return true;
  }

  protected onWsMessage(ws: WebSocket, text: string): void {
    // "Only when the welcome message is received will the connection be available."
    if (!this.welcomed.has(ws)) return;
    let msg: { id?: string | number; type?: string; topic?: string; response?: boolean };
    try {
      msg = JSON.parse(text) as typeof msg;
    } catch {
      ws.send(JSON.stringify({ id: '', type: 'error', code: 400, data: 'invalid message' }));
      return;
    }
    const id = String(msg.id ?? '');
    if (msg.type === 'ping') {
      this.seen.pings++;
      ws.send(JSON.stringify({ id, type: 'pong', timestamp: Date.now() * 1_000 }));
      return;
    }
    if (msg.type !== 'subscribe' && msg.type !== 'unsubscribe') return;
    const topic = msg.topic ?? '';
    const symbols = topic.startsWith('/market/level2:') ? topic.slice('/market/level2:'.length).split(',') : [];
    if (symbols.length === 0 || symbols.some((s) => this.exchange.symbol(s) === undefined)) {
      ws.send(JSON.stringify({ id, type: 'error', code: 404, data: `topic ${topic} is not found` }));
      return;
    }
    if (msg.type === 'subscribe' && this.refuseSubscribes > 0) {
      this.refuseSubscribes--;
      ws.send(JSON.stringify({ id, type: 'error', code: 509, data: 'exceed max subscription count limitation of 400 per session' }));
      return;
    }
    const streams = this.subscribers.get(ws);
    for (const s of symbols) {
      if (msg.type === 'subscribe') streams?.add(`level2:${s}`);
      else streams?.delete(`level2:${s}`);
    }
    if (msg.type === 'subscribe') this.seen.subscribes++;
    if (msg.response === true) ws.send(JSON.stringify({ id, type: 'ack' }));
  }

  /** One push per book change, each level with its own sequence, the push spanning them. */
  private publish(s: FakeSymbol, bids: Level[], asks: Level[]): void {
    const start = (s.updateId ?? 1_000) + 1;
    let seq = start - 1;
    const change = (l: Level) => [px(l.price), sz(l.qty), String(++seq)];
    const b = bids.map(change);
    const a = asks.map(change);
    if (seq < start) return;
    s.updateId = seq;
    const data = { changes: { asks: a, bids: b }, sequenceEnd: seq, sequenceStart: start, symbol: s.symbol, time: Date.now() };
    this.broadcast(`level2:${s.symbol}`, JSON.stringify({ topic: `/market/level2:${s.symbol}`, type: 'message', subject: 'trade.l2update', data }));
  }

  // --- REST ------------------------------------------------------------------------------------

  protected async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.seen.requests++;
    const raw = req.url ?? '/';
    const url = new URL(raw, 'http://fake');
    const body = await FakeVenueServer.body(req);
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      // `tradeId` goes out as a bare number past 2^53, as KuCoin writes it.
      res.end(JSON.stringify(payload).replace(/"tradeId":"(\d+)"/g, '"tradeId":$1'));
    };
    const ok = (data: unknown) => send(200, { code: '200000', data });
    const fail = (status: number, code: string, msg: string) => send(status, { code, msg });
    const route = `${req.method} ${url.pathname}`;
    const symbolParam = url.searchParams.get('symbol') ?? '';

    // Public.
    if (route === 'POST /api/v1/bullet-public') {
      const token = randomBytes(24).toString('base64');
      this.tokens.add(token);
      this.seen.tokens++;
      return ok({ token, instanceServers: [{ endpoint: `${this.wsBase}/`, encrypt: false, protocol: 'websocket', pingInterval: this.pingIntervalMs, pingTimeout: 10_000 }] });
    }
    if (route === 'GET /api/v2/symbols') return ok(this.exchange.allSymbols().map((s) => symbolJson(s)));
    if (route === 'GET /api/v1/market/orderbook/level2_100') {
      const s = this.exchange.symbol(symbolParam);
      if (s === undefined) return fail(200, '900001', 'symbol not exists');
      this.seen.snapshots++;
      const top = (levels: Level[]) => levels.slice(0, 100).map((l) => [px(l.price), sz(l.qty)]);
      return ok({ time: Date.now(), sequence: String(s.updateId ?? 1_000), bids: top(s.bids), asks: top(s.asks) });
    }
    if (!url.pathname.startsWith('/api/')) return fail(404, '404000', 'Url Not Found');

    // Private.
    const account = this.authenticate(req, raw, body, fail);
    if (account === undefined) return;
    const clientOid = /^\/api\/v1\/hf\/orders\/(?:sync\/)?client-order\/([^/]+)$/.exec(url.pathname)?.[1];
    if ((route === 'POST /api/v1/hf/orders/sync' || route === 'POST /api/v1/hf/orders') && body !== '' && req.headers['content-type'] !== 'application/json') {
      return fail(415, '415000', 'Unsupported Media Type');
    }
    switch (route) {
      case 'POST /api/v1/hf/orders/sync':
      case 'POST /api/v1/hf/orders':
        return this.addOrder(account, body, route.endsWith('/sync'), Number(req.headers['kc-api-timestamp']), ok, fail, res);
      case `GET /api/v1/hf/orders/client-order/${clientOid}`: {
        this.seen.lookups++;
        const o = this.exchange.order(account.apiKey, clientOid!);
        return ok(o === undefined || o.symbol !== symbolParam ? null : this.orderJson(o));
      }
      case `DELETE /api/v1/hf/orders/sync/client-order/${clientOid}`: {
        this.seen.cancels++;
        const o = this.exchange.order(account.apiKey, clientOid!);
        if (o === undefined || o.symbol !== symbolParam || !isOpen(o)) return fail(200, '400100', 'order_not_exist_or_not_allow_to_cancel');
        const left = o.origQty - o.executedQty;
        this.exchange.cancel(account, o);
        return ok({ clientOid: o.clientOrderId, originSize: sz(o.origQty), dealSize: sz(o.executedQty), remainSize: '0', canceledSize: sz(left), status: 'done' });
      }
      case 'GET /api/v1/hf/orders/active':
        if (this.exchange.symbol(symbolParam) === undefined) return fail(200, '400100', 'symbol is required');
        return ok(this.exchange.openOrders(account.apiKey).filter((o) => o.symbol === symbolParam).map((o) => this.orderJson(o)));
      case 'GET /api/v1/hf/orders/active/symbols':
        return ok({ symbols: [...new Set(this.exchange.openOrders(account.apiKey).map((o) => o.symbol))] });
      case 'DELETE /api/v1/hf/orders': {
        this.seen.cancelAlls++;
        for (const o of this.exchange.openOrders(account.apiKey)) if (o.symbol === symbolParam) this.exchange.cancel(account, o);
        return ok('success');
      }
      case 'GET /api/v1/hf/fills':
        return ok(this.fills(account, url.searchParams));
      case 'GET /api/v1/accounts':
        return ok(
          Object.entries(account.balances)
            .filter(() => (url.searchParams.get('type') ?? 'trade') === 'trade')
            .map(([currency, b], i) => ({ id: `6${String(i).padStart(11, '0')}`, currency, type: 'trade', balance: sz(b.free + b.locked), available: sz(b.free), holds: sz(b.locked) })),
        );
      case 'GET /api/v1/trade-fees': {
        const rate = dec(this.exchange.commissionBps, 1e4).replace(/\.?0+$/, '');
        return ok((url.searchParams.get('symbols') ?? '').split(',').map((symbol) => ({ symbol, takerFeeRate: rate, makerFeeRate: rate })));
      }
      case 'GET /api/v1/user/api-key':
        return ok({ remark: 'fake', apiKey: account.apiKey, apiVersion: Number(KEY_VERSION), permission: account.canWithdraw === true ? 'General,Spot,Transfer' : 'General,Spot', ipWhitelist: '', createdAt: 1728443843000, uid: 165111215, isMaster: true });
      default:
        return fail(404, '404000', 'Url Not Found');
    }
  }

  /** KuCoin's gateway checks: every header, the key, the clock, the version, the signature, the passphrase; answered 401 with its code. */
  private authenticate(req: IncomingMessage, raw: string, body: string, fail: (status: number, code: string, msg: string) => void): FakeAccount | undefined {
    const header = (name: string) => {
      const v = req.headers[name];
      return typeof v === 'string' ? v : '';
    };
    const [key, sign, timestamp, passphrase, version] = ['kc-api-key', 'kc-api-sign', 'kc-api-timestamp', 'kc-api-passphrase', 'kc-api-key-version'].map(header) as [string, string, string, string, string];
    if (key === '' || sign === '' || timestamp === '' || passphrase === '') {
      fail(401, '400001', 'Please check the header of your request for KC-API-KEY, KC-API-SIGN, KC-API-TIMESTAMP, KC-API-PASSPHRASE');
      return undefined;
    }
    const account = this.exchange.account(key);
    if (account === undefined) {
      fail(401, '400003', 'KC-API-KEY not exists');
      return undefined;
    }
    if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() - Number(timestamp)) > TIMESTAMP_TOLERANCE_MS) {
      fail(401, '400002', 'Invalid KC-API-TIMESTAMP');
      return undefined;
    }
    if (version !== KEY_VERSION) {
      fail(401, '400009', 'Invalid KC-API-KEY-VERSION');
      return undefined;
    }
    const hmac = (text: string) => createHmac('sha256', account.secret).update(text).digest('base64');
    if (!same(sign, hmac(timestamp + (req.method ?? '') + raw + body))) {
      this.seen.badSignatures++;
      fail(401, '400005', 'Invalid KC-API-SIGN');
      return undefined;
    }
    if (!same(passphrase, hmac(account.passphrase ?? ''))) {
      fail(401, '400004', 'Invalid KC-API-PASSPHRASE');
      return undefined;
    }
    return account;
  }

  private addOrder(account: FakeAccount, text: string, sync: boolean, headerTimestamp: number, ok: (data: unknown) => void, fail: (status: number, code: string, msg: string) => void, res: ServerResponse): void {
    this.seen.orders++;
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return fail(200, '400100', 'Invalid Parameter.');
    }
    this.lastOrder = o;
    const { clientOid, side, symbol, type, allowMaxTimeWindow, clientTimestamp } = o;
    const tif = o['timeInForce'] ?? 'GTC';
    const s = typeof symbol === 'string' ? this.exchange.symbol(symbol) : undefined;
    if (s === undefined) return fail(200, '900001', 'symbol not exists');
    const qty = parseDec(typeof o['size'] === 'string' ? o['size'] : undefined, Q);
    const price = type === 'limit' ? parseDec(typeof o['price'] === 'string' ? o['price'] : undefined, P) : NaN;
    if (typeof clientOid !== 'string' || !/^[A-Za-z0-9_-]{1,40}$/.test(clientOid) || (side !== 'buy' && side !== 'sell') || (type !== 'limit' && type !== 'market') || !(qty > 0) || (type === 'limit' && !(price > 0)) || (tif !== 'GTC' && tif !== 'IOC')) {
      return fail(200, '400100', 'Invalid Parameter.');
    }
    if (allowMaxTimeWindow !== undefined) {
      if (clientTimestamp !== headerTimestamp || typeof allowMaxTimeWindow !== 'number') return fail(200, '400100', 'clientTimestamp must equal KC-API-TIMESTAMP.');
      // KuCoin publishes no code for an order past its window; the reference says only that it fails.
      if (clientTimestamp + allowMaxTimeWindow < Date.now()) return fail(200, '400100', 'Order timeout: clientTimestamp + allowMaxTimeWindow passed.');
    }
    if (type === 'limit' && price % TICK_1E9 !== 0) return fail(200, '400100', 'Price increment invalid.');
    if (qty < MIN_SIZE_1E8) return fail(200, '400100', 'Order size below the minimum requirement.');
    if (this.exchange.order(account.apiKey, clientOid) !== undefined) return fail(200, '400100', 'validation.createOrder.clientOidDuplicated');
    const placed = this.exchange.place(account, { symbol: s.symbol, side: side === 'buy' ? 'BUY' : 'SELL', type: type === 'market' ? 'MARKET' : 'LIMIT', timeInForce: tif === 'IOC' ? 'IOC' : 'GTC', qty, price, clientOrderId: clientOid });
    if (!placed.ok) return placed.why === 'insufficient' ? fail(200, '200004', 'Balance insufficient') : fail(200, '400100', 'Invalid Parameter.');
    if (this.swallowOrderAnswers > 0) {
      this.swallowOrderAnswers--;
      res.on('close', () => undefined);
      return;
    }
    const order = placed.order;
    if (!sync) return ok({ orderId: orderIdOf(order), clientOid });
    const open = isOpen(order);
    const left = order.origQty - order.executedQty;
    ok({ orderId: orderIdOf(order), clientOid, orderTime: order.transactTime, originSize: sz(order.origQty), dealSize: sz(order.executedQty), remainSize: sz(open ? left : 0), canceledSize: sz(open ? 0 : left), status: open ? 'open' : 'done', matchTime: Date.now() });
  }

  /** `GET /api/v1/hf/fills` of one order: newest first, 100 a page at most, below `lastId` when given. */
  private fills(account: FakeAccount, query: URLSearchParams): { items: Record<string, unknown>[]; lastId: number | null } {
    const hex = /^6717422bd51c2900([0-9a-f]{8})$/.exec(query.get('orderId') ?? '')?.[1];
    const o = hex === undefined ? undefined : this.exchange.orderById(account.apiKey, parseInt(hex, 16));
    if (o === undefined || o.symbol !== query.get('symbol')) return { items: [], lastId: null };
    const below = query.get('lastId');
    const limit = Math.min(100, Number(query.get('limit') ?? 20));
    const rows = this.exchange
      .tradesOf(o.orderId)
      .filter((t) => below === null || t.id < Number(below))
      .sort((a, b) => b.id - a.id)
      .slice(0, limit);
    return { items: rows.map((t) => this.fillJson(t, o)), lastId: rows.length === 0 ? null : rows[rows.length - 1]!.id };
  }

  private fillJson(t: FakeTrade, o: FakeOrder): Record<string, unknown> {
    const rate = dec(this.exchange.commissionBps, 1e4).replace(/\.?0+$/, '');
    return {
      id: t.id,
      orderId: orderIdOf(o),
      counterOrderId: '67174228135f9e000709da8c',
      tradeId: String(TRADE_ID_BASE + BigInt(t.id)),
      symbol: o.symbol,
      side: t.isBuyer ? 'buy' : 'sell',
      liquidity: t.isMaker ? 'maker' : 'taker',
      type: o.type === 'MARKET' ? 'market' : 'limit',
      forceTaker: false,
      price: px(t.price),
      size: sz(t.qty),
      funds: sz(Math.round((t.qty * t.price) / P)),
      fee: sz(t.commission),
      feeRate: rate,
      feeCurrency: t.commissionAsset,
      stop: '',
      tradeType: 'TRADE',
      taxRate: '0',
      tax: '0',
      createdAt: t.time,
    };
  }

  private orderJson(o: FakeOrder): Record<string, unknown> {
    const s = this.exchange.symbol(o.symbol)!;
    const active = isOpen(o);
    const left = o.origQty - o.executedQty;
    const fee = this.exchange.tradesOf(o.orderId).reduce((sum, t) => sum + t.commission, 0);
    return {
      id: orderIdOf(o),
      clientOid: o.clientOrderId,
      symbol: o.symbol,
      opType: 'DEAL',
      type: o.type === 'MARKET' ? 'market' : 'limit',
      side: o.side === 'BUY' ? 'buy' : 'sell',
      price: o.type === 'MARKET' ? '0' : px(o.price),
      size: sz(o.origQty),
      funds: '0',
      dealSize: sz(o.executedQty),
      dealFunds: sz(o.quoteQty),
      remainSize: sz(active ? left : 0),
      remainFunds: '0',
      cancelledSize: sz(active ? 0 : left),
      cancelledFunds: '0',
      fee: sz(fee),
      feeCurrency: s.quote,
      stp: null,
      timeInForce: o.timeInForce,
      postOnly: false,
      hidden: false,
      iceberg: false,
      visibleSize: '0',
      cancelAfter: 0,
      channel: 'API',
      remark: null,
      tags: null,
      cancelExist: !active && left > 0,
      tradeType: 'TRADE',
      inOrderBook: active,
      active,
      tax: '0',
      createdAt: o.transactTime,
      lastUpdatedAt: Date.now(),
    };
  }
}

function symbolJson(s: FakeSymbol): Record<string, unknown> {
  return {
    symbol: s.symbol,
    name: s.symbol,
    baseCurrency: s.base,
    quoteCurrency: s.quote,
    feeCurrency: s.quote,
    market: 'USDS',
    baseMinSize: sz(MIN_SIZE_1E8),
    quoteMinSize: '0.1',
    baseMaxSize: '10000000000',
    quoteMaxSize: '99999999',
    baseIncrement: '0.00000001',
    quoteIncrement: '0.000001',
    priceIncrement: px(TICK_1E9),
    priceLimitRate: '0.1',
    minFunds: MIN_FUNDS,
    isMarginEnabled: true,
    enableTrading: true,
    feeCategory: 1,
    makerFeeCoefficient: '1.00',
    takerFeeCoefficient: '1.00',
    st: false,
  };
}

/** A 24-hex order id as KuCoin's, the fake's number in its last 8 digits. */
function orderIdOf(o: FakeOrder): string {
  return `6717422bd51c2900${o.orderId.toString(16).padStart(8, '0')}`;
}

function same(given: string, expected: string): boolean {
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}
