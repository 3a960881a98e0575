import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { crc32 } from 'node:zlib';
import type { WebSocket } from 'ws';
import { dec, FakeExchange, isOpen, P, parseDec, Q, type FakeAccount, type FakeOrder, type FakeSymbol, type FakeTrade, type Level } from './exchange-core.ts';
import { FakeVenueServer } from './fake-server.ts';

/**
 * A local OKX v5 spot over the shared fake exchange: the public `books` channel on
 * `/ws/v5/public` (a snapshot on subscribe, then updates with `prevSeqId`/`seqId` and the CRC32
 * checksum of the top 25 levels, computed here with node:zlib, independently of the adapter's),
 * `ping`/`pong`, and the signed REST (`OK-ACCESS-*` headers checked: key, passphrase, base64
 * HMAC-SHA256 of timestamp + method + path + body, a timestamp within 30 s), answering in OKX's
 * `{code, msg, data}` envelope with its documented codes.
 */

/** OKX prints prices without trailing zeros and sizes with their lot's places. */
function px(price: number): string {
  return dec(price, P).replace(/\.?0+$/, '');
}
function sz(qty: number): string {
  return dec(qty, Q);
}

const ENVELOPE_OK = { code: '0', msg: '' };

export class OkxFake extends FakeVenueServer {
  readonly exchange: FakeExchange;
  /** Knobs. */
  swallowOrderAnswers = 0;
  /** the next push carries a wrong checksum */
  corruptNextChecksum = false;
  /** Counters a test reads. */
  readonly seen = { requests: 0, orders: 0, badSignatures: 0, subscribes: 0, lookups: 0, cancels: 0, batchCancels: 0 };

  constructor(symbols: FakeSymbol[], accounts: FakeAccount[]) {
    super('/ws/v5/public');
    this.exchange = new FakeExchange(symbols, accounts, (s, bids, asks) => this.publish(s, bids, asks));
  }

  setLevel(symbol: string, side: 'bid' | 'ask', price: number, qty: number): void {
    this.exchange.setLevel(symbol, side, price, qty);
  }

  /** Skips `n` sequence numbers of a symbol: its next update's prevSeqId is not the last seqId sent. */
  gap(symbol: string, n = 3): void {
    const s = this.exchange.symbol(symbol)!;
    s.updateId = (s.updateId ?? 100) + n;
  }

  order(apiKey: string, clOrdId: string): FakeOrder | undefined {
    return this.exchange.order(apiKey, clOrdId);
  }

  openOrders(apiKey: string): FakeOrder[] {
    return this.exchange.openOrders(apiKey);
  }

  tradesOf(orderId: number): FakeTrade[] {
    return this.exchange.tradesOf(orderId);
  }

  fillResting(apiKey: string, clOrdId: string, qty: number): void {
    this.exchange.fillResting(apiKey, clOrdId, qty);
  }

  // --- WebSocket -------------------------------------------------------------------------------

  protected onWsMessage(ws: WebSocket, text: string): void {
    if (text === 'ping') {
      ws.send('pong');
      return;
    }
    let msg: { op?: string; args?: { channel?: string; instId?: string }[] };
    try {
      msg = JSON.parse(text) as typeof msg;
    } catch {
      ws.send(JSON.stringify({ event: 'error', code: '60012', msg: `Invalid request: ${text}` }));
      return;
    }
    for (const arg of msg.args ?? []) {
      const s = this.exchange.symbol(arg.instId ?? '');
      if (arg.channel !== 'books' || s === undefined) {
        ws.send(JSON.stringify({ event: 'error', code: '60018', msg: `Wrong URL or channel:${arg.channel},instId:${arg.instId} doesn't exist.` }));
        continue;
      }
      const stream = `books:${s.symbol}`;
      if (msg.op === 'subscribe') {
        this.seen.subscribes++;
        this.subscribers.get(ws)?.add(stream);
        ws.send(JSON.stringify({ event: 'subscribe', arg: { channel: 'books', instId: s.symbol }, connId: 'a4d3ae55' }));
        ws.send(this.push(s, 'snapshot', s.bids, s.asks, -1));
      } else if (msg.op === 'unsubscribe') {
        this.subscribers.get(ws)?.delete(stream);
        ws.send(JSON.stringify({ event: 'unsubscribe', arg: { channel: 'books', instId: s.symbol }, connId: 'a4d3ae55' }));
      }
    }
  }

  private publish(s: FakeSymbol, bids: Level[], asks: Level[]): void {
    const prev = s.updateId ?? 100;
    s.updateId = prev + 1;
    this.broadcast(`books:${s.symbol}`, this.push(s, 'update', bids, asks, prev));
  }

  private push(s: FakeSymbol, action: 'snapshot' | 'update', bids: Level[], asks: Level[], prevSeqId: number): string {
    if (action === 'snapshot') s.updateId ??= 100;
    const level = (l: Level) => [px(l.price), sz(l.qty), '0', l.qty === 0 ? '0' : '1'];
    let checksum = this.checksum(s);
    if (this.corruptNextChecksum && action === 'update') {
      this.corruptNextChecksum = false;
      checksum ^= 1;
    }
    return JSON.stringify({
      arg: { channel: 'books', instId: s.symbol },
      action,
      data: [{ asks: asks.map(level), bids: bids.map(level), ts: String(Date.now()), checksum, prevSeqId, seqId: s.updateId }],
    });
  }

  /** CRC32 of the top 25 levels, bid and ask alternating, as signed 32-bit. */
  private checksum(s: FakeSymbol): number {
    const parts: string[] = [];
    for (let i = 0; i < 25; i++) {
      const b = s.bids[i];
      const a = s.asks[i];
      if (b !== undefined) parts.push(px(b.price), sz(b.qty));
      if (a !== undefined) parts.push(px(a.price), sz(a.qty));
    }
    return crc32(parts.join(':')) | 0;
  }

  // --- REST ------------------------------------------------------------------------------------

  protected async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.seen.requests++;
    const path = req.url ?? '/';
    const url = new URL(path, 'http://fake');
    const route = `${req.method} ${url.pathname}`;
    const body = await FakeVenueServer.body(req);
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (route === 'GET /api/v5/public/instruments') {
      return send(200, {
        ...ENVELOPE_OK,
        data: this.exchange.allSymbols().map((s) => ({ instType: 'SPOT', instId: s.symbol, baseCcy: s.base, quoteCcy: s.quote, tickSz: '0.1', lotSz: '0.00000001', minSz: '0.00001', state: 'live' })),
      });
    }
    // Private endpoints.
    const header = (name: string) => {
      const v = req.headers[name];
      return typeof v === 'string' ? v : '';
    };
    const account = this.exchange.account(header('ok-access-key'));
    if (account === undefined) return send(401, { code: '50111', msg: 'Invalid OK-ACCESS-KEY.' });
    if (header('ok-access-passphrase') !== (account.passphrase ?? '')) return send(401, { code: '50105', msg: 'Request header OK-ACCESS-PASSPHRASE incorrect.' });
    const timestamp = header('ok-access-timestamp');
    const expected = createHmac('sha256', account.secret).update(timestamp + (req.method ?? '') + path + body).digest('base64');
    const given = header('ok-access-sign');
    if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected))) {
      this.seen.badSignatures++;
      return send(401, { code: '50113', msg: 'Invalid Sign' });
    }
    if (!(Math.abs(Date.now() - Date.parse(timestamp)) <= 30_000)) return send(401, { code: '50102', msg: 'Timestamp request expired' });
    const q = url.searchParams;
    switch (route) {
      case 'POST /api/v5/trade/order':
        return this.placeOrder(account, body, send, res);
      case 'GET /api/v5/trade/order': {
        this.seen.lookups++;
        const o = this.exchange.order(account.apiKey, q.get('clOrdId') ?? '');
        if (o === undefined || o.symbol !== q.get('instId')) return send(200, { code: '51603', msg: 'Order does not exist.', data: [] });
        return send(200, { ...ENVELOPE_OK, data: [this.orderJson(o)] });
      }
      case 'GET /api/v5/trade/fills': {
        const o = this.exchange.orderById(account.apiKey, Number(q.get('ordId')));
        const trades = o === undefined ? [] : this.exchange.tradesOf(o.orderId).slice().reverse();
        return send(200, { ...ENVELOPE_OK, data: trades.map((t) => this.fillJson(t, o!)) });
      }
      case 'POST /api/v5/trade/cancel-order': {
        this.seen.cancels++;
        const { clOrdId, instId } = JSON.parse(body) as { clOrdId?: string; instId?: string };
        const o = this.exchange.order(account.apiKey, clOrdId ?? '');
        if (o === undefined || o.symbol !== instId || !isOpen(o)) {
          return send(200, { code: '1', msg: 'All operations failed', data: [{ clOrdId, ordId: '', sCode: '51400', sMsg: 'Order cancellation failed as the order has been filled, canceled or does not exist.' }] });
        }
        this.exchange.cancel(account, o);
        return send(200, { ...ENVELOPE_OK, data: [{ clOrdId, ordId: String(o.orderId), sCode: '0', sMsg: '' }] });
      }
      case 'GET /api/v5/trade/orders-pending':
        return send(200, { ...ENVELOPE_OK, data: this.exchange.openOrders(account.apiKey).map((o) => this.orderJson(o)) });
      case 'POST /api/v5/trade/cancel-batch-orders': {
        this.seen.batchCancels++;
        const rows = JSON.parse(body) as { instId: string; ordId: string }[];
        const data = rows.map((r) => {
          const o = this.exchange.orderById(account.apiKey, Number(r.ordId));
          if (o === undefined || !isOpen(o)) return { ordId: r.ordId, clOrdId: '', sCode: '51400', sMsg: 'Order cancellation failed as the order has been filled, canceled or does not exist.' };
          this.exchange.cancel(account, o);
          return { ordId: r.ordId, clOrdId: o.clientOrderId, sCode: '0', sMsg: '' };
        });
        return send(200, { ...ENVELOPE_OK, data });
      }
      case 'GET /api/v5/account/balance':
        // OKX lists only the currencies the account holds something of.
        return send(200, { ...ENVELOPE_OK, data: [{ totalEq: '0', details: Object.entries(account.balances).filter(([, b]) => b.free + b.locked > 0).map(([ccy, b]) => ({ ccy, availBal: sz(b.free), frozenBal: sz(b.locked), cashBal: sz(b.free + b.locked), eq: sz(b.free + b.locked) })) }] });
      case 'GET /api/v5/account/config':
        return send(200, { ...ENVELOPE_OK, data: [{ uid: '44705892343619584', acctLv: '1', perm: account.canWithdraw === true ? 'read_only,trade,withdraw' : 'read_only,trade' }] });
      case 'GET /api/v5/account/trade-fee':
        return send(200, { ...ENVELOPE_OK, data: [{ instType: 'SPOT', level: 'Lv1', maker: `-${dec(this.exchange.commissionBps * 1e4, Q)}`, taker: `-${dec(this.exchange.commissionBps * 1e4, Q)}` }] });
      default:
        return send(404, { code: '50000', msg: `unknown route ${route}` });
    }
  }

  private placeOrder(account: FakeAccount, body: string, send: (status: number, payload: unknown) => void, res: ServerResponse): void {
    this.seen.orders++;
    const o = JSON.parse(body) as { instId?: string; tdMode?: string; clOrdId?: string; side?: string; ordType?: string; sz?: string; px?: string; tgtCcy?: string };
    const fail = (sCode: string, sMsg: string) => send(200, { code: '1', msg: 'All operations failed', data: [{ clOrdId: o.clOrdId ?? '', ordId: '', tag: '', sCode, sMsg }] });
    const qty = parseDec(o.sz, Q);
    const price = o.ordType === 'market' ? NaN : parseDec(o.px, P);
    if (o.tdMode !== 'cash' || (o.side !== 'buy' && o.side !== 'sell') || !['market', 'limit', 'ioc'].includes(o.ordType ?? '') || !(qty > 0) || (o.ordType !== 'market' && !(price > 0))) {
      return fail('51000', 'Parameter error');
    }
    if (o.clOrdId !== undefined && !/^[A-Za-z0-9]{1,32}$/.test(o.clOrdId)) return fail('51000', 'Parameter clOrdId error');
    const placed = this.exchange.place(account, { symbol: o.instId ?? '', side: o.side === 'buy' ? 'BUY' : 'SELL', type: o.ordType === 'market' ? 'MARKET' : 'LIMIT', timeInForce: o.ordType === 'limit' ? 'GTC' : 'IOC', qty, price, clientOrderId: o.clOrdId ?? `auto${Date.now()}` });
    if (!placed.ok) {
      if (placed.why === 'unknown_symbol') return fail('51001', "Instrument ID doesn't exist.");
      if (placed.why === 'duplicate') return fail('51016', 'Duplicated client order ID');
      return fail('51008', 'Order failed. Insufficient balance.');
    }
    if (this.swallowOrderAnswers > 0) {
      this.swallowOrderAnswers--;
      res.on('close', () => undefined);
      return;
    }
    send(200, { ...ENVELOPE_OK, data: [{ clOrdId: o.clOrdId ?? '', ordId: String(placed.order.orderId), tag: '', ts: String(Date.now()), sCode: '0', sMsg: 'Order placed' }], inTime: '', outTime: '' });
  }

  private orderJson(o: FakeOrder): Record<string, unknown> {
    const state = o.status === 'NEW' ? 'live' : o.status === 'PARTIALLY_FILLED' ? 'partially_filled' : o.status === 'FILLED' ? 'filled' : 'canceled';
    return {
      instType: 'SPOT',
      instId: o.symbol,
      ordId: String(o.orderId),
      clOrdId: o.clientOrderId,
      px: o.type === 'MARKET' ? '' : px(o.price),
      sz: sz(o.origQty),
      ordType: o.type === 'MARKET' ? 'market' : o.timeInForce === 'IOC' ? 'ioc' : 'limit',
      side: o.side === 'BUY' ? 'buy' : 'sell',
      accFillSz: sz(o.executedQty),
      avgPx: o.executedQty === 0 ? '' : px(Math.round((o.quoteQty * P) / o.executedQty)),
      state,
      cTime: String(o.transactTime),
      uTime: String(Date.now()),
    };
  }

  private fillJson(t: FakeTrade, o: FakeOrder): Record<string, unknown> {
    return {
      instType: 'SPOT',
      instId: t.symbol,
      tradeId: String(t.id),
      ordId: String(o.orderId),
      clOrdId: o.clientOrderId,
      billId: String(t.id * 7),
      fillPx: px(t.price),
      fillSz: sz(t.qty),
      side: t.isBuyer ? 'buy' : 'sell',
      execType: t.isMaker ? 'M' : 'T',
      feeCcy: t.commissionAsset,
      fee: `-${sz(t.commission)}`,
      ts: String(t.time),
      fillTime: String(t.time),
    };
  }
}
