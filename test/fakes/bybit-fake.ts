import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebSocket } from 'ws';
import { dec, FakeExchange, isOpen, P, parseDec, Q, type FakeAccount, type FakeOrder, type FakeSymbol, type FakeTrade, type Level } from './exchange-core.ts';
import { FakeVenueServer } from './fake-server.ts';

/**
 * A local Bybit v5 spot (a unified trading account) over the shared fake exchange, answering in
 * the formats of https://bybit-exchange.github.io/docs/v5/:
 *
 *  - the public stream on `/v5/public/spot`: `orderbook.50.<SYMBOL>` (a snapshot on subscribe,
 *    then deltas whose `u` rises by one a push), `{"op":"ping"}` answered with the spot pong, at
 *    most 10 topics a subscribe request. A request naming a topic it cannot serve is refused
 *    whole, `error:handler not found,topic:...` (the message Bybit sends; whether it still takes
 *    the request's other topics is not documented, and the stricter reading is served here).
 *    Only level 50 is served.
 *  - the signed REST: `X-BAPI-API-KEY`, `X-BAPI-TIMESTAMP`, `X-BAPI-RECV-WINDOW`, `X-BAPI-SIGN`
 *    checked (hex HMAC-SHA256, computed here with node:crypto over timestamp + key + window +
 *    the raw query string or body), the timestamp held to [now - window, now + 1000), the
 *    per-endpoint limits counted over a rolling second and reported in `X-Bapi-Limit*` headers;
 *    every answer `{retCode, retMsg, result, retExtInfo, time}` with HTTP 200, codes and messages
 *    from the docs' error table.
 *
 * Commission is taken in what the order receives (a buy's base, a sell's quote), Bybit's spot
 * rule for takers and for makers on a positive rate; `feeCurrency` names it. Order ids are
 * numeric strings, execution ids UUIDs, as Bybit writes them.
 */

/** The listing's rules, as the docs' BTCUSDT example: tick 0.1, step 0.000001, minimum value 5 USDT. */
const TICK = 100_000_000; // 0.1 x 1e9
const STEP = 100; // 0.000001 x 1e8
const MIN_AMOUNT_1E9 = 5_000_000_000;
const DEPTH = 50;
const ORDER_ID_BASE = 1_900_000_000_000_000_000n;

/** Per-UID limits per endpoint, per rolling second (docs, Rate Limit Rules, spot on a unified account). */
const LIMITS: Record<string, number> = {
  'POST /v5/order/create': 20,
  'POST /v5/order/cancel': 20,
  'POST /v5/order/cancel-all': 20,
  'GET /v5/order/realtime': 50,
  'GET /v5/order/history': 50,
  'GET /v5/execution/list': 50,
  'GET /v5/account/wallet-balance': 50,
  'GET /v5/account/fee-rate': 5,
  'GET /v5/user/query-api': 10,
};

/** Prices to 2 places, sizes to the step's 6 (a deletion is "0"), fees and balances to 8. */
const px = (price: number) => dec(price, P).slice(0, -7);
const sz = (qty: number) => (qty === 0 ? '0' : dec(qty, Q).slice(0, -2));
const amount = (qty: number) => dec(qty, Q);

/** The execution id Bybit would write for one of the fake exchange's trades (a UUID). */
export function execIdOf(tradeId: number): string {
  return `e0cbe81d-0f18-5866-9415-${String(tradeId).padStart(12, '0')}`;
}

/** Bybit's order id for one of the fake exchange's orders. */
export function orderIdOf(o: FakeOrder): string {
  return String(ORDER_ID_BASE + BigInt(o.orderId));
}

type Answer = { status: number; body: unknown; headers?: Record<string, string> };

export class BybitFake extends FakeVenueServer {
  readonly exchange: FakeExchange;
  /** Knobs. */
  swallowOrderAnswers = 0;
  /**
   * Whether `/v5/order/realtime` still answers closed orders. After a Bybit release or restart
   * it answers open orders only, and closed ones are in `/v5/order/history` alone.
   */
  realtimeKeepsClosed = true;
  /** Executions written with an empty `feeCurrency` (as the docs' example row is): the coin is then the fee rules'. */
  blankFeeCurrency = false;
  /** Counters a test reads. */
  readonly seen = { requests: 0, orders: 0, badSignatures: 0, staleTimestamps: 0, rateLimited: 0, subscribes: 0, refusedSubscribes: 0, pings: 0, realtimeReads: 0, historyReads: 0, executionReads: 0, cancels: 0, cancelAlls: 0 };
  /** the last order/create body, as received */
  lastOrder: Record<string, unknown> | undefined;
  private readonly calls = new Map<string, number[]>();
  private seq = 7_961_638_724;

  constructor(symbols: FakeSymbol[], accounts: FakeAccount[]) {
    super('/v5/public/spot');
    for (const s of symbols) s.updateId ??= 18_521_288;
    this.exchange = new FakeExchange(symbols, accounts, (s, bids, asks) => this.publish(s, bids, asks));
  }

  setLevel(symbol: string, side: 'bid' | 'ask', price: number, qty: number): void {
    this.exchange.setLevel(symbol, side, price, qty);
  }

  /** Skips `n` update ids of a symbol: its next delta's `u` is not the last one + 1. */
  gap(symbol: string, n = 3): void {
    const s = this.exchange.symbol(symbol)!;
    s.updateId = s.updateId! + n;
  }

  order(apiKey: string, orderLinkId: string): FakeOrder | undefined {
    return this.exchange.order(apiKey, orderLinkId);
  }

  openOrders(apiKey: string): FakeOrder[] {
    return this.exchange.openOrders(apiKey);
  }

  fillResting(apiKey: string, orderLinkId: string, qty: number): void {
    this.exchange.fillResting(apiKey, orderLinkId, qty);
  }

  // --- public WebSocket ------------------------------------------------------------------------

  protected onWsMessage(ws: WebSocket, text: string): void {
    const connId = 'cejreaspqfh3sjdnldmg-p';
    let msg: { op?: unknown; args?: unknown; req_id?: unknown };
    try {
      msg = JSON.parse(text) as typeof msg;
    } catch {
      // Not from the docs: Bybit's answer to a frame that is not JSON is not published.
      ws.send(JSON.stringify({ success: false, ret_msg: `error:request not json,body:${text}`, conn_id: connId, op: '' }));
      return;
    }
    const reqId = typeof msg.req_id === 'string' ? { req_id: msg.req_id } : {};
    const answer = (op: string, success: boolean, retMsg: string) => ws.send(JSON.stringify({ success, ret_msg: retMsg, conn_id: connId, ...reqId, op }));
    if (msg.op === 'ping') {
      this.seen.pings++;
      answer('ping', true, 'pong');
      return;
    }
    if (msg.op !== 'subscribe' && msg.op !== 'unsubscribe') {
      answer(String(msg.op), false, `error:unknown op ${String(msg.op)}`);
      return;
    }
    const op = msg.op;
    const topics = Array.isArray(msg.args) ? (msg.args as unknown[]).map(String) : [];
    const streams = this.subscribers.get(ws);
    if (streams === undefined) return;
    if (op === 'unsubscribe') {
      for (const topic of topics) streams.delete(topic);
      answer(op, true, '');
      return;
    }
    // Not from the docs: the refusal's wording for more than 10 args.
    if (topics.length > 10) {
      this.seen.refusedSubscribes++;
      answer(op, false, `error:args size ${topics.length} exceeds 10`);
      return;
    }
    const bad = topics.find((t) => this.symbolOfTopic(t) === undefined);
    if (bad !== undefined) {
      this.seen.refusedSubscribes++;
      answer(op, false, `error:handler not found,topic:${bad}`);
      return;
    }
    answer(op, true, 'subscribe');
    for (const topic of topics) {
      this.seen.subscribes++;
      streams.add(topic);
      const s = this.symbolOfTopic(topic)!;
      ws.send(this.push(s, 'snapshot', s.bids.slice(0, DEPTH), s.asks.slice(0, DEPTH), s.updateId!));
    }
  }

  private symbolOfTopic(topic: string): FakeSymbol | undefined {
    const m = /^orderbook\.50\.([A-Z0-9]+)$/.exec(topic);
    return m === null ? undefined : this.exchange.symbol(m[1]!);
  }

  private publish(s: FakeSymbol, bids: Level[], asks: Level[]): void {
    s.updateId = s.updateId! + 1;
    this.broadcast(`orderbook.${DEPTH}.${s.symbol}`, this.push(s, 'delta', bids, asks, s.updateId));
  }

  private push(s: FakeSymbol, type: 'snapshot' | 'delta', bids: Level[], asks: Level[], u: number): string {
    const levels = (side: Level[]) => side.map((l) => [px(l.price), sz(l.qty)]);
    const now = Date.now();
    return JSON.stringify({ topic: `orderbook.${DEPTH}.${s.symbol}`, type, ts: now, data: { s: s.symbol, b: levels(bids), a: levels(asks), u, seq: this.seq++ }, cts: now - 1 });
  }

  // --- REST ------------------------------------------------------------------------------------

  protected async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.seen.requests++;
    const raw = req.url ?? '/';
    const at = raw.indexOf('?');
    const pathname = at === -1 ? raw : raw.slice(0, at);
    const query = at === -1 ? '' : raw.slice(at + 1);
    const body = await FakeVenueServer.body(req);
    const route = `${req.method ?? ''} ${pathname}`;
    const answer = this.answer(route, new URLSearchParams(query), query, body, req, res);
    if (answer === undefined) return; // swallowed
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
  }

  private answer(route: string, q: URLSearchParams, query: string, body: string, req: IncomingMessage, res: ServerResponse): Answer | undefined {
    if (route === 'GET /v5/market/instruments-info') {
      if (q.get('category') !== 'spot') return fail(10001, 'Request parameter error.');
      return ok({ category: 'spot', list: this.exchange.allSymbols().map((s) => this.instrumentJson(s)) });
    }
    const limit = LIMITS[route];
    if (limit === undefined) return { status: 404, body: undefined };
    const header = (name: string) => {
      const v = req.headers[name];
      return typeof v === 'string' ? v : '';
    };
    const key = header('x-bapi-api-key');
    const account = this.exchange.account(key);
    if (account === undefined) return fail(10003, 'API key is invalid.');
    const timestamp = header('x-bapi-timestamp');
    const window = header('x-bapi-recv-window') || '5000';
    const origin = timestamp + key + window + (route.startsWith('GET ') ? query : body);
    const expected = createHmac('sha256', account.secret).update(origin).digest('hex');
    const given = header('x-bapi-sign');
    if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected))) {
      this.seen.badSignatures++;
      return fail(10004, `error sign! origin_string[${origin}]`);
    }
    const now = Date.now();
    const ts = Number(timestamp);
    if (!(now - Number(window) <= ts && ts < now + 1_000)) {
      this.seen.staleTimestamps++;
      return fail(10002, `invalid request, please check your server timestamp or recv_window param. req_timestamp[${timestamp}],server_timestamp[${now}],recv_window[${window}]`);
    }
    const used = (this.calls.get(`${key} ${route}`) ?? []).filter((t) => t > now - 1_000);
    this.calls.set(`${key} ${route}`, used);
    if (used.length >= limit) {
      this.seen.rateLimited++;
      return { ...fail(10006, 'Too many visits!'), headers: { 'X-Bapi-Limit': String(limit), 'X-Bapi-Limit-Status': '0', 'X-Bapi-Limit-Reset-Timestamp': String(used[0]! + 1_000) } };
    }
    used.push(now);
    const headers = { 'X-Bapi-Limit': String(limit), 'X-Bapi-Limit-Status': String(limit - used.length), 'X-Bapi-Limit-Reset-Timestamp': String(now) };
    const result = this.privateAnswer(route, account, q, body, res);
    return result === undefined ? undefined : { ...result, headers };
  }

  private privateAnswer(route: string, account: FakeAccount, q: URLSearchParams, body: string, res: ServerResponse): Answer | undefined {
    if (route.startsWith('POST ')) {
      let fields: Record<string, unknown>;
      try {
        fields = JSON.parse(body) as Record<string, unknown>;
      } catch {
        return fail(10001, 'Request parameter error.');
      }
      if (fields['category'] !== 'spot') return fail(10001, 'Request parameter error.');
      switch (route) {
        case 'POST /v5/order/create':
          return this.create(account, fields, res);
        case 'POST /v5/order/cancel': {
          this.seen.cancels++;
          const o = this.find(account, fields['orderId'], fields['orderLinkId']);
          if (o === undefined || o.symbol !== fields['symbol'] || !isOpen(o)) return fail(170213, 'Order does not exist.');
          this.exchange.cancel(account, o);
          return ok({ orderId: orderIdOf(o), orderLinkId: o.clientOrderId });
        }
        case 'POST /v5/order/cancel-all': {
          this.seen.cancelAlls++;
          const symbol = typeof fields['symbol'] === 'string' ? fields['symbol'] : undefined;
          const open = this.exchange.openOrders(account.apiKey).filter((o) => symbol === undefined || o.symbol === symbol);
          for (const o of open) this.exchange.cancel(account, o);
          return ok({ list: open.map((o) => ({ orderId: orderIdOf(o), orderLinkId: o.clientOrderId })), success: '1' });
        }
      }
    }
    if (route === 'GET /v5/account/wallet-balance') {
      if (q.get('accountType') !== 'UNIFIED') return fail(10001, 'accountType only support UNIFIED.');
      return ok({ list: [this.walletJson(account)] });
    }
    if (route === 'GET /v5/user/query-api') return ok(this.keyJson(account));
    if (q.get('category') !== 'spot') return fail(10001, 'Request parameter error.');
    switch (route) {
      case 'GET /v5/order/realtime': {
        this.seen.realtimeReads++;
        if (q.has('orderId') || q.has('orderLinkId')) {
          // By id, openOnly is ignored: open orders, and closed ones until a restart clears them.
          const o = this.find(account, q.get('orderId'), q.get('orderLinkId'));
          return ok({ list: o !== undefined && (isOpen(o) || this.realtimeKeepsClosed) ? [this.orderJson(o)] : [], nextPageCursor: '', category: 'spot' });
        }
        const open = this.exchange.openOrders(account.apiKey).filter((o) => !q.has('symbol') || o.symbol === q.get('symbol'));
        return ok(this.page(open.reverse().map((o) => this.orderJson(o)), q, 20, 50));
      }
      case 'GET /v5/order/history': {
        this.seen.historyReads++;
        const o = this.find(account, q.get('orderId'), q.get('orderLinkId'));
        return ok({ list: o === undefined ? [] : [this.orderJson(o)], nextPageCursor: '', category: 'spot' });
      }
      case 'GET /v5/execution/list': {
        this.seen.executionReads++;
        const o = this.find(account, q.get('orderId'), q.get('orderLinkId'));
        const trades = o === undefined ? [] : this.exchange.tradesOf(o.orderId).slice().reverse();
        return ok(this.page(trades.map((t) => this.executionJson(t, o!)), q, 50, 100));
      }
      case 'GET /v5/account/fee-rate': {
        const rate = dec(this.exchange.commissionBps * 10_000, Q);
        const symbols = this.exchange.allSymbols().filter((s) => !q.has('symbol') || s.symbol === q.get('symbol'));
        return ok({ list: symbols.map((s) => ({ symbol: s.symbol, baseCoin: '', takerFeeRate: rate, makerFeeRate: rate })) });
      }
    }
    return { status: 404, body: undefined };
  }

  private create(account: FakeAccount, o: Record<string, unknown>, res: ServerResponse): Answer | undefined {
    this.seen.orders++;
    this.lastOrder = o;
    const s = typeof o['symbol'] === 'string' ? this.exchange.symbol(o['symbol']) : undefined;
    if (s === undefined) return fail(170121, 'Invalid symbol.');
    const side = o['side'];
    const type = o['orderType'];
    if (side !== 'Buy' && side !== 'Sell') return fail(170117, 'Invalid side.');
    if (type !== 'Limit' && type !== 'Market') return fail(170116, 'Invalid orderType.');
    const qty = typeof o['qty'] === 'string' ? parseDec(o['qty'], Q) : NaN;
    if (!(qty > 0)) return fail(170130, "Data sent for paramter 'qty' is not valid.");
    if (qty % STEP !== 0) return fail(170137, 'Order volume decimal too long');
    let price = NaN;
    if (type === 'Limit') {
      price = typeof o['price'] === 'string' ? parseDec(o['price'], P) : NaN;
      if (!(price > 0)) return fail(170130, "Data sent for paramter 'price' is not valid.");
      if (price % TICK !== 0) return fail(170134, 'Order price decimal too long.');
      if (BigInt(qty) * BigInt(price) < BigInt(MIN_AMOUNT_1E9) * BigInt(Q)) return fail(170140, 'Transaction amount lower than the minimum.');
    }
    const tif = type === 'Market' ? 'IOC' : (o['timeInForce'] ?? 'GTC');
    // The fake matches GTC and IOC only; a market buy sized in the quote coin is not modelled.
    if (tif !== 'GTC' && tif !== 'IOC') return fail(170115, 'Invalid timeInForce.');
    if (type === 'Market' && side === 'Buy' && o['marketUnit'] !== 'baseCoin') return fail(170130, "Data sent for paramter 'marketUnit' is not valid.");
    const link = o['orderLinkId'];
    if (typeof link !== 'string' || !/^[A-Za-z0-9_-]{1,36}$/.test(link)) return fail(170130, "Data sent for paramter 'orderLinkId' is not valid.");
    if (this.exchange.order(account.apiKey, link) !== undefined) return fail(170141, 'Duplicate clientOrderId');
    const placed = this.exchange.place(account, { symbol: s.symbol, side: side === 'Buy' ? 'BUY' : 'SELL', type: type === 'Market' ? 'MARKET' : 'LIMIT', timeInForce: tif, qty, price, clientOrderId: link });
    if (!placed.ok) return placed.why === 'insufficient' ? fail(170131, 'Balance insufficient') : fail(170149, 'Create order failed');
    if (this.swallowOrderAnswers > 0) {
      this.swallowOrderAnswers--;
      res.on('close', () => undefined);
      return undefined;
    }
    return ok({ orderId: orderIdOf(placed.order), orderLinkId: link });
  }

  private find(account: FakeAccount, orderId: unknown, orderLinkId: unknown): FakeOrder | undefined {
    // orderId first, as Bybit reads both.
    if (typeof orderId === 'string' && /^\d+$/.test(orderId)) {
      const n = BigInt(orderId) - ORDER_ID_BASE;
      return n > 0n ? this.exchange.orderById(account.apiKey, Number(n)) : undefined;
    }
    return typeof orderLinkId === 'string' ? this.exchange.order(account.apiKey, orderLinkId) : undefined;
  }

  /** A page of a list by `limit` and `cursor` (the offset, handed out encoded as Bybit's are). */
  private page(rows: Record<string, unknown>[], q: URLSearchParams, byDefault: number, max: number): Record<string, unknown> {
    const limit = Math.min(max, Number(q.get('limit') ?? byDefault) || byDefault);
    const from = Number(/^page_args=(\d+)&$/.exec(q.get('cursor') ?? '')?.[1] ?? 0);
    const list = rows.slice(from, from + limit);
    const next = from + limit < rows.length ? `page_args%3D${from + limit}%26` : '';
    return { category: 'spot', list, nextPageCursor: next };
  }

  private instrumentJson(s: FakeSymbol): Record<string, unknown> {
    return {
      symbol: s.symbol,
      baseCoin: s.base,
      quoteCoin: s.quote,
      innovation: '0',
      status: 'Trading',
      marginTrading: 'utaOnly',
      stTag: '0',
      lotSizeFilter: { basePrecision: '0.000001', quotePrecision: '0.0000001', minOrderQty: '0.000011', maxOrderQty: '83', minOrderAmt: '5', maxOrderAmt: '8000000', maxLimitOrderQty: '83', maxMarketOrderQty: '41.5', postOnlyMaxLimitOrderSize: '60000' },
      priceFilter: { tickSize: '0.1' },
      riskParameters: { priceLimitRatioX: '0.005', priceLimitRatioY: '0.01' },
      symbolType: '',
    };
  }

  private orderJson(o: FakeOrder): Record<string, unknown> {
    const open = isOpen(o);
    const status = o.status === 'NEW' ? 'New' : o.status === 'PARTIALLY_FILLED' ? 'PartiallyFilled' : o.status === 'FILLED' ? 'Filled' : o.executedQty > 0 ? 'PartiallyFilledCanceled' : 'Cancelled';
    const fees = this.exchange.tradesOf(o.orderId).reduce((sum, t) => sum + t.commission, 0);
    const leaves = open ? o.origQty - o.executedQty : 0;
    return {
      orderId: orderIdOf(o),
      orderLinkId: o.clientOrderId,
      blockTradeId: '',
      symbol: o.symbol,
      price: o.type === 'MARKET' ? '0' : px(o.price),
      qty: sz(o.origQty),
      side: o.side === 'BUY' ? 'Buy' : 'Sell',
      isLeverage: '0',
      positionIdx: 0,
      orderStatus: status,
      cancelType: o.status === 'CANCELED' ? 'CancelByUser' : 'UNKNOWN',
      rejectReason: 'EC_NoError',
      avgPrice: o.executedQty === 0 ? '' : dec(Math.round((o.quoteQty * P) / o.executedQty), P),
      leavesQty: sz(leaves),
      leavesValue: amount(Math.round((leaves * o.price) / P)),
      cumExecQty: sz(o.executedQty),
      cumExecValue: amount(o.quoteQty),
      cumExecFee: amount(fees),
      timeInForce: o.timeInForce,
      orderType: o.type === 'MARKET' ? 'Market' : 'Limit',
      stopOrderType: '',
      orderIv: '',
      marketUnit: o.type === 'MARKET' ? 'baseCoin' : '',
      triggerPrice: '0.00',
      takeProfit: '0.00',
      stopLoss: '0.00',
      tpTriggerBy: '',
      slTriggerBy: '',
      triggerDirection: 0,
      triggerBy: '',
      lastPriceOnCreated: '',
      reduceOnly: false,
      closeOnTrigger: false,
      smpType: 'None',
      smpGroup: 0,
      smpOrderId: '',
      tpslMode: '',
      tpLimitPrice: '',
      slLimitPrice: '',
      placeType: '',
      createdTime: String(o.transactTime),
      updatedTime: String(Date.now()),
    };
  }

  private executionJson(t: FakeTrade, o: FakeOrder): Record<string, unknown> {
    return {
      symbol: t.symbol,
      orderType: o.type === 'MARKET' ? 'Market' : 'Limit',
      underlyingPrice: '',
      orderLinkId: o.clientOrderId,
      side: o.side === 'BUY' ? 'Buy' : 'Sell',
      indexPrice: '',
      orderId: orderIdOf(o),
      stopOrderType: '',
      leavesQty: sz(isOpen(o) ? o.origQty - o.executedQty : 0),
      execTime: String(t.time),
      feeCurrency: this.blankFeeCurrency ? '' : t.commissionAsset,
      isMaker: t.isMaker,
      execFee: amount(t.commission),
      feeRate: dec(this.exchange.commissionBps * 10_000, Q),
      execId: execIdOf(t.id),
      tradeIv: '',
      blockTradeId: '',
      markPrice: px(t.price),
      execPrice: px(t.price),
      markIv: '',
      orderQty: sz(o.origQty),
      orderPrice: o.type === 'MARKET' ? '0' : px(o.price),
      execValue: amount(Math.round((t.qty * t.price) / P)),
      execType: 'Trade',
      execQty: sz(t.qty),
      closedSize: '',
      extraFees: '',
      seq: this.seq++,
    };
  }

  private walletJson(account: FakeAccount): Record<string, unknown> {
    const coin = Object.entries(account.balances).map(([asset, b]) => ({
      availableToBorrow: '',
      bonus: '0',
      accruedInterest: '0',
      availableToWithdraw: '',
      totalOrderIM: '0',
      equity: amount(b.free + b.locked),
      totalPositionMM: '0',
      usdValue: '0',
      unrealisedPnl: '0',
      collateralSwitch: true,
      spotHedgingQty: '0',
      borrowAmount: '0.000000000000000000',
      totalPositionIM: '0',
      walletBalance: amount(b.free + b.locked),
      cumRealisedPnl: '0',
      locked: amount(b.locked),
      marginCollateral: true,
      coin: asset,
      spotBorrow: '0',
    }));
    return { totalEquity: '0', accountIMRate: '0', totalMarginBalance: '0', totalInitialMargin: '0', accountType: 'UNIFIED', totalAvailableBalance: '0', accountMMRate: '0', totalPerpUPL: '0', totalWalletBalance: '0', accountLTV: '0', totalMaintenanceMargin: '0', coin };
  }

  private keyJson(account: FakeAccount): Record<string, unknown> {
    return {
      id: '13770661',
      note: 'fake',
      apiKey: account.apiKey,
      readOnly: 0,
      secret: '',
      permissions: { ContractTrade: [], Spot: ['SpotTrade'], Wallet: account.canWithdraw === true ? ['AccountTransfer', 'SubMemberTransfer', 'Withdraw'] : ['AccountTransfer', 'SubMemberTransfer'], Options: [], Derivatives: [], CopyTrading: [], BlockTrade: [], Exchange: [], NFT: [], Affiliate: [], Earn: [] },
      ips: ['*'],
      type: 1,
      deadlineDay: 83,
      expiredAt: '2099-01-01T00:00:00Z',
      createdAt: '2024-01-01T00:00:00Z',
      unified: 0,
      uta: 1,
      userID: 24617703,
      inviterID: 0,
      vipLevel: 'No VIP',
      mktMakerLevel: '0',
      affiliateID: 0,
      rsaPublicKey: '',
      isMaster: true,
      parentUid: '0',
      kycLevel: 'LEVEL_DEFAULT',
      kycRegion: '',
    };
  }
}

function ok(result: unknown): Answer {
  return { status: 200, body: { retCode: 0, retMsg: 'OK', result, retExtInfo: {}, time: Date.now() } };
}

function fail(retCode: number, retMsg: string): Answer {
  return { status: 200, body: { retCode, retMsg, result: {}, retExtInfo: {}, time: Date.now() } };
}
