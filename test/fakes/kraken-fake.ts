import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { crc32 } from 'node:zlib';
import type { WebSocket } from 'ws';
import { dec, FakeExchange, isOpen, P, parseDec, Q, type FakeAccount, type FakeOrder, type FakeSymbol, type FakeTrade, type Level } from './exchange-core.ts';
import { FakeVenueServer } from './fake-server.ts';

/**
 * A local Kraken spot over the shared fake exchange: the WebSocket v2 `book` channel on `/v2`
 * (a snapshot on subscribe, then updates, each with the CRC-32 of the top 10 asks then bids,
 * computed here with node:zlib over the numbers' text, independently of the adapter's), a
 * heartbeat, and the private REST (`API-Key`, `API-Sign` checked: base64 HMAC-SHA512 keyed by
 * the base64 secret over path + SHA-256(nonce + body), nonces strictly increasing per key),
 * answering in Kraken's `{error: [], result}` envelope with its documented error strings, HTTP
 * 200 either way. Commission is taken in the quote asset (`oflags=fciq`).
 */

/** Kraken's asset ids and its v1 names for ours (`XBT`). */
const ASSET_ID: Record<string, string> = { BTC: 'XXBT', ETH: 'XETH', USD: 'ZUSD', EUR: 'ZEUR' };
const V1_NAME: Record<string, string> = { BTC: 'XBT' };
const assetId = (a: string) => ASSET_ID[a] ?? a;
const v1 = (a: string) => V1_NAME[a] ?? a;

/** The pair's decimals: prices to 1 place (tick 0.1), volumes to 8. */
const PAIR_DECIMALS = 1;
const LOT_DECIMALS = 8;
const px = (price: number) => dec(price, P).slice(0, -(9 - PAIR_DECIMALS));
const vol = (qty: number) => dec(qty, Q);

export class KrakenFake extends FakeVenueServer {
  readonly exchange: FakeExchange;
  /** Knobs. */
  swallowOrderAnswers = 0;
  /** the next update carries a wrong checksum */
  corruptNextChecksum = false;
  /** Counters a test reads. */
  readonly seen = { requests: 0, orders: 0, badSignatures: 0, subscribes: 0, lookups: 0, cancels: 0, nonceErrors: 0 };
  private readonly lastNonce = new Map<string, bigint>();
  /** the last AddOrder's form fields, as received */
  lastOrder: URLSearchParams | undefined;

  constructor(symbols: FakeSymbol[], accounts: FakeAccount[]) {
    super('/v2');
    this.exchange = new FakeExchange(symbols, accounts, (s, bids, asks) => this.publish(s, bids, asks));
    this.exchange.feeInQuote = true;
  }

  setLevel(symbol: string, side: 'bid' | 'ask', price: number, qty: number): void {
    this.exchange.setLevel(symbol, side, price, qty);
  }

  order(apiKey: string, clOrdId: string): FakeOrder | undefined {
    return this.exchange.order(apiKey, clOrdId);
  }

  openOrders(apiKey: string): FakeOrder[] {
    return this.exchange.openOrders(apiKey);
  }

  fillResting(apiKey: string, clOrdId: string, qty: number): void {
    this.exchange.fillResting(apiKey, clOrdId, qty);
  }

  // --- WebSocket v2 ----------------------------------------------------------------------------

  protected onWsMessage(ws: WebSocket, text: string): void {
    let msg: { method?: string; params?: { channel?: string; symbol?: string[]; depth?: number } };
    try {
      msg = JSON.parse(text) as typeof msg;
    } catch {
      ws.send(JSON.stringify({ error: 'Malformed request', success: false, time_in: now(), time_out: now() }));
      return;
    }
    if (msg.method === 'ping') {
      ws.send(JSON.stringify({ method: 'pong', time_in: now(), time_out: now() }));
      return;
    }
    for (const symbol of msg.params?.symbol ?? []) {
      const s = this.exchange.symbol(symbol);
      if (msg.params?.channel !== 'book' || s === undefined) {
        ws.send(JSON.stringify({ method: msg.method, error: `Currency pair not supported ${symbol}`, success: false, symbol, time_in: now(), time_out: now() }));
        continue;
      }
      const stream = `book:${s.symbol}`;
      const result = { channel: 'book', depth: msg.params.depth ?? 10, snapshot: true, symbol: s.symbol };
      if (msg.method === 'subscribe') {
        this.seen.subscribes++;
        this.subscribers.get(ws)?.add(stream);
        ws.send(JSON.stringify({ method: 'subscribe', result, success: true, time_in: now(), time_out: now() }));
        ws.send(this.message(s, 'snapshot', s.bids, s.asks));
      } else if (msg.method === 'unsubscribe') {
        this.subscribers.get(ws)?.delete(stream);
        ws.send(JSON.stringify({ method: 'unsubscribe', result, success: true, time_in: now(), time_out: now() }));
      }
    }
  }

  /** A heartbeat to every socket (Kraken sends one about each second while subscribed). */
  heartbeat(): void {
    for (const ws of this.subscribers.keys()) ws.send('{"channel":"heartbeat"}');
  }

  private publish(s: FakeSymbol, bids: Level[], asks: Level[]): void {
    this.broadcast(`book:${s.symbol}`, this.message(s, 'update', bids, asks));
  }

  /** Numbers written as JSON numbers with their full decimals (`0.10000000`), as v2 sends them. */
  private message(s: FakeSymbol, type: 'snapshot' | 'update', bids: Level[], asks: Level[]): string {
    const levels = (side: Level[]) => `[${side.map((l) => `{"price":${px(l.price)},"qty":${vol(l.qty)}}`).join(',')}]`;
    let checksum = this.checksum(s);
    if (this.corruptNextChecksum && type === 'update') {
      this.corruptNextChecksum = false;
      checksum = (checksum + 1) >>> 0;
    }
    return `{"channel":"book","type":"${type}","data":[{"symbol":"${s.symbol}","bids":${levels(bids)},"asks":${levels(asks)},"checksum":${checksum},"timestamp":"${now()}"}]}`;
  }

  /** CRC-32 of the top 10 asks then the top 10 bids, each price then qty with the point and leading zeros removed. */
  private checksum(s: FakeSymbol): number {
    const token = (text: string) => text.replace('.', '').replace(/^0+/, '');
    const side = (levels: Level[]) => levels.slice(0, 10).map((l) => token(px(l.price)) + token(vol(l.qty))).join('');
    return crc32(side(s.asks) + side(s.bids));
  }

  // --- REST ------------------------------------------------------------------------------------

  protected async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.seen.requests++;
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = await FakeVenueServer.body(req);
    const send = (result: unknown, error: string[] = []) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(error.length > 0 ? { error } : { error, result }));
    };
    if (req.method === 'GET' && url.pathname === '/0/public/AssetPairs') return send(Object.fromEntries(this.exchange.allSymbols().map((s) => [pairKey(s), this.pairJson(s)])));
    if (req.method !== 'POST' || !url.pathname.startsWith('/0/private/')) {
      res.writeHead(404);
      res.end();
      return;
    }
    const header = (name: string) => {
      const v = req.headers[name];
      return typeof v === 'string' ? v : '';
    };
    const account = this.exchange.account(header('api-key'));
    if (account === undefined) return send(undefined, ['EAPI:Invalid key']);
    const form = new URLSearchParams(body);
    const nonce = form.get('nonce') ?? '';
    const expected = createHmac('sha512', Buffer.from(account.secret, 'base64'))
      .update(url.pathname)
      .update(createHash('sha256').update(nonce + body).digest())
      .digest('base64');
    const given = header('api-sign');
    if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected))) {
      this.seen.badSignatures++;
      return send(undefined, ['EAPI:Invalid signature']);
    }
    if (!/^\d+$/.test(nonce) || BigInt(nonce) <= (this.lastNonce.get(account.apiKey) ?? 0n)) {
      this.seen.nonceErrors++;
      return send(undefined, ['EAPI:Invalid nonce']);
    }
    this.lastNonce.set(account.apiKey, BigInt(nonce));
    switch (url.pathname) {
      case '/0/private/AddOrder':
        return this.addOrder(account, form, send, res);
      case '/0/private/OpenOrders': {
        this.seen.lookups++;
        const cl = form.get('cl_ord_id');
        const open = this.exchange.openOrders(account.apiKey).filter((o) => cl === null || o.clientOrderId === cl);
        return send({ open: Object.fromEntries(open.map((o) => [txidOf(o), this.orderJson(o)])) });
      }
      case '/0/private/ClosedOrders': {
        this.seen.lookups++;
        const cl = form.get('cl_ord_id');
        const o = cl === null ? undefined : this.exchange.order(account.apiKey, cl);
        const closed = o !== undefined && !isOpen(o) ? [o] : [];
        return send({ closed: Object.fromEntries(closed.map((c) => [txidOf(c), this.orderJson(c)])), count: closed.length });
      }
      case '/0/private/QueryOrders': {
        this.seen.lookups++;
        const found = (form.get('txid') ?? '').split(',').map((t) => this.byTxid(account, t));
        if (found.some((o) => o === undefined)) return send(undefined, ['EOrder:Invalid order']);
        return send(Object.fromEntries(found.map((o) => [txidOf(o!), this.orderJson(o!)])));
      }
      case '/0/private/QueryTrades': {
        const ids = (form.get('txid') ?? '').split(',');
        const rows: [string, Record<string, unknown>][] = [];
        for (const id of ids) {
          const t = this.tradeByTxid(id);
          if (t === undefined) return send(undefined, ['EGeneral:Invalid arguments']);
          const o = this.exchange.orderById(account.apiKey, t.orderId);
          if (o === undefined) return send(undefined, ['EGeneral:Invalid arguments']);
          rows.push([id, this.tradeJson(t, o)]);
        }
        return send(Object.fromEntries(rows));
      }
      case '/0/private/CancelOrder': {
        this.seen.cancels++;
        const cl = form.get('cl_ord_id');
        const txid = form.get('txid');
        const o = cl !== null ? this.exchange.order(account.apiKey, cl) : txid !== null ? this.byTxid(account, txid) : undefined;
        if (o === undefined || !isOpen(o)) return send(undefined, ['EOrder:Unknown order']);
        this.exchange.cancel(account, o);
        return send({ count: 1 });
      }
      case '/0/private/BalanceEx':
        return send(Object.fromEntries(Object.entries(account.balances).map(([a, b]) => [assetId(a), { balance: vol(b.free + b.locked), hold_trade: vol(b.locked) }])));
      case '/0/private/TradeVolume': {
        const fee = dec(this.exchange.commissionBps * 1e4, 1e6).slice(0, -2); // bps as percent, 4 places
        const pair = form.get('pair') ?? '';
        return send({ currency: 'ZUSD', volume: '0.0000', fees: { [pair]: { fee, minfee: '0.1000', maxfee: '0.4000', nextfee: null, nextvolume: null, tiervolume: '0.0000' } }, fees_maker: { [pair]: { fee, minfee: '0.0000', maxfee: '0.2500', nextfee: null, nextvolume: null, tiervolume: '0.0000' } } });
      }
      default:
        return send(undefined, ['EGeneral:Unknown method']);
    }
  }

  private addOrder(account: FakeAccount, form: URLSearchParams, send: (result: unknown, error?: string[]) => void, res: ServerResponse): void {
    this.seen.orders++;
    this.lastOrder = form;
    const s = this.exchange.allSymbols().find((x) => altname(x) === form.get('pair'));
    if (s === undefined) return send(undefined, ['EQuery:Unknown asset pair']);
    const type = form.get('type');
    const ordertype = form.get('ordertype');
    const qty = parseDec(form.get('volume') ?? undefined, Q);
    const price = ordertype === 'market' ? NaN : parseDec(form.get('price') ?? undefined, P);
    const tif = form.get('timeinforce') ?? 'GTC';
    const deadline = form.get('deadline');
    const cl = form.get('cl_ord_id');
    if ((type !== 'buy' && type !== 'sell') || (ordertype !== 'market' && ordertype !== 'limit') || !(qty > 0) || (ordertype === 'limit' && !(price > 0)) || !['GTC', 'IOC'].includes(tif) || cl === null) {
      return send(undefined, ['EGeneral:Invalid arguments']);
    }
    if (form.get('oflags') !== 'fciq') return send(undefined, ['EGeneral:Invalid arguments:oflags']);
    if (deadline !== null && !(Date.parse(deadline) > Date.now())) return send(undefined, ['EOrder:Deadline elapsed']);
    // Prices past the pair's decimals are refused, as Kraken does.
    if (ordertype === 'limit' && price % 10 ** (9 - PAIR_DECIMALS) !== 0) return send(undefined, ['EOrder:Invalid price:XBTUSD price can only be specified up to 1 decimals.']);
    const placed = this.exchange.place(account, { symbol: s.symbol, side: type === 'buy' ? 'BUY' : 'SELL', type: ordertype === 'market' ? 'MARKET' : 'LIMIT', timeInForce: tif === 'IOC' ? 'IOC' : 'GTC', qty, price, clientOrderId: cl });
    if (!placed.ok) return send(undefined, [placed.why === 'insufficient' ? 'EOrder:Insufficient funds' : 'EGeneral:Invalid arguments']);
    if (this.swallowOrderAnswers > 0) {
      this.swallowOrderAnswers--;
      res.on('close', () => undefined);
      return;
    }
    send({ descr: { order: `${type} ${vol(qty)} ${altname(s)} @ ${ordertype}${ordertype === 'limit' ? ` ${px(price)}` : ''}` }, txid: [txidOf(placed.order)] });
  }

  private byTxid(account: FakeAccount, txid: string): FakeOrder | undefined {
    const m = /^O(\d+)-FAKE0-ORDER0$/.exec(txid);
    return m === null ? undefined : this.exchange.orderById(account.apiKey, Number(m[1]));
  }

  private tradeByTxid(txid: string): FakeTrade | undefined {
    const m = /^T(\d+)-FAKE0-TRADE0$/.exec(txid);
    return m === null ? undefined : this.exchange.tradeById(Number(m[1]));
  }

  private pairJson(s: FakeSymbol): Record<string, unknown> {
    return {
      altname: altname(s),
      wsname: `${v1(s.base)}/${v1(s.quote)}`,
      aclass_base: 'currency',
      base: assetId(s.base),
      aclass_quote: 'currency',
      quote: assetId(s.quote),
      pair_decimals: PAIR_DECIMALS,
      cost_decimals: 5,
      lot_decimals: LOT_DECIMALS,
      lot_multiplier: 1,
      fees: [[0, 0.26]],
      fees_maker: [[0, 0.16]],
      fee_volume_currency: 'ZUSD',
      margin_call: 80,
      margin_stop: 40,
      ordermin: '0.00005',
      costmin: '0.5',
      tick_size: '0.1',
      status: 'online',
    };
  }

  private orderJson(o: FakeOrder): Record<string, unknown> {
    const s = this.exchange.symbol(o.symbol)!;
    const status = o.status === 'NEW' || o.status === 'PARTIALLY_FILLED' ? 'open' : o.status === 'FILLED' ? 'closed' : 'canceled';
    const type = o.side === 'BUY' ? 'buy' : 'sell';
    const ordertype = o.type === 'MARKET' ? 'market' : 'limit';
    return {
      refid: null,
      userref: 0,
      cl_ord_id: o.clientOrderId,
      status,
      opentm: o.transactTime / 1000,
      starttm: 0,
      expiretm: 0,
      descr: { pair: altname(s), type, ordertype, price: o.type === 'MARKET' ? '0' : px(o.price), price2: '0', leverage: 'none', order: `${type} ${vol(o.origQty)} ${altname(s)} @ ${ordertype} ${px(o.price)}`, close: '' },
      vol: vol(o.origQty),
      vol_exec: vol(o.executedQty),
      cost: dec(o.quoteQty * 10, P),
      fee: '0.00000',
      price: o.executedQty === 0 ? '0.00000' : px(Math.round((o.quoteQty * P) / o.executedQty)),
      stopprice: '0.00000',
      limitprice: '0.00000',
      misc: '',
      oflags: 'fciq',
      trades: this.exchange.tradesOf(o.orderId).map((t) => `T${t.id}-FAKE0-TRADE0`),
    };
  }

  private tradeJson(t: FakeTrade, o: FakeOrder): Record<string, unknown> {
    const s = this.exchange.symbol(o.symbol)!;
    return {
      ordertxid: txidOf(o),
      postxid: 'TKH2SE-M7IF5-CFI7LT',
      pair: pairKey(s),
      time: t.time / 1000,
      type: t.isBuyer ? 'buy' : 'sell',
      ordertype: o.type === 'MARKET' ? 'market' : 'limit',
      price: px(t.price),
      cost: dec(Math.round((t.qty * t.price) / P) * 10, P),
      fee: vol(t.commission),
      vol: vol(t.qty),
      margin: '0.00000',
      misc: '',
      trade_id: t.id,
      maker: t.isMaker,
    };
  }
}

function now(): string {
  return new Date().toISOString();
}

function altname(s: FakeSymbol): string {
  return `${v1(s.base)}${s.quote}`;
}

function pairKey(s: FakeSymbol): string {
  return `${assetId(s.base)}${assetId(s.quote)}`;
}

function txidOf(o: FakeOrder): string {
  return `O${o.orderId}-FAKE0-ORDER0`;
}
