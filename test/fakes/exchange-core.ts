/**
 * The venue-neutral half of the local exchange fakes (binance-fake.ts, okx-fake.ts): books,
 * accounts with free and locked balances, orders by client order id, matching and trades with
 * commission taken in the asset received. The protocol halves speak each venue's wire formats
 * and check its signatures over this core. Prices are 1e9, quantities and balances 1e8.
 */

export const P = 1e9;
export const Q = 1e8;

export interface FakeAccount {
  apiKey: string;
  secret: string;
  passphrase?: string;
  balances: Record<string, { free: number; locked: number }>;
  canWithdraw?: boolean;
}

export interface Level {
  price: number;
  qty: number;
}

export type FakeStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'EXPIRED';

export interface FakeOrder {
  symbol: string;
  orderId: number;
  clientOrderId: string;
  apiKey: string;
  side: 'BUY' | 'SELL';
  type: 'LIMIT' | 'MARKET';
  timeInForce: 'IOC' | 'GTC';
  price: number;
  origQty: number;
  executedQty: number;
  quoteQty: number;
  status: FakeStatus;
  transactTime: number;
}

export interface FakeTrade {
  symbol: string;
  id: number;
  orderId: number;
  price: number;
  qty: number;
  /** in commissionAsset, 1e8 */
  commission: number;
  commissionAsset: string;
  time: number;
  isBuyer: boolean;
  isMaker: boolean;
}

export interface FakeSymbol {
  /** the venue's spelling (BTCUSDT, BTC-USDT) */
  symbol: string;
  base: string;
  quote: string;
  bids: Level[];
  asks: Level[];
  /** the symbol's last book sequence number (venues number each symbol's updates apart) */
  updateId?: number;
}

export interface PlaceRequest {
  symbol: string;
  side: 'BUY' | 'SELL';
  type: 'LIMIT' | 'MARKET';
  timeInForce: 'IOC' | 'GTC';
  qty: number;
  /** NaN for a market order */
  price: number;
  clientOrderId: string;
}

export type PlaceResult = { ok: true; order: FakeOrder; fills: FakeTrade[] } | { ok: false; why: 'unknown_symbol' | 'duplicate' | 'insufficient' };

/** Decimal text of an integer x `scale` (scale a power of ten), always with its decimals. */
export function dec(value: number, scale: number): string {
  const digits = String(Math.round(value)).padStart(String(scale).length, '0');
  const places = String(scale).length - 1;
  return `${digits.slice(0, digits.length - places)}.${digits.slice(digits.length - places)}`;
}

/** A decimal's text as an integer x `scale`; NaN when it is not a plain decimal. */
export function parseDec(text: string | undefined, scale: number): number {
  if (text === undefined || !/^\d+(\.\d+)?$/.test(text)) return NaN;
  const [whole, frac = ''] = text.split('.');
  const places = String(scale).length - 1;
  return Number(whole) * scale + Number(frac.padEnd(places, '0').slice(0, places));
}

export class FakeExchange {
  private readonly symbols = new Map<string, FakeSymbol>();
  private readonly accounts = new Map<string, FakeAccount>();
  private readonly orders = new Map<string, FakeOrder>(); // by apiKey|clientOrderId
  private readonly trades: FakeTrade[] = [];
  private nextOrderId = 1;
  private nextTradeId = 5_000_000;
  commissionBps = 10;
  /** the commission in the quote asset on both sides (Kraken's `fciq`), not in the asset received */
  feeInQuote = false;

  constructor(
    symbols: FakeSymbol[],
    accounts: FakeAccount[],
    /** a book changed: the protocol publishes the levels (qty 0 removes) */
    private readonly onBookChange: (s: FakeSymbol, bids: Level[], asks: Level[]) => void,
  ) {
    for (const s of symbols) this.symbols.set(s.symbol, s);
    for (const a of accounts) this.accounts.set(a.apiKey, a);
  }

  symbol(symbol: string): FakeSymbol | undefined {
    return this.symbols.get(symbol);
  }

  allSymbols(): FakeSymbol[] {
    return [...this.symbols.values()];
  }

  account(apiKey: string): FakeAccount | undefined {
    return this.accounts.get(apiKey);
  }

  order(apiKey: string, clientOrderId: string): FakeOrder | undefined {
    return this.orders.get(`${apiKey}|${clientOrderId}`);
  }

  orderById(apiKey: string, orderId: number): FakeOrder | undefined {
    for (const o of this.orders.values()) if (o.apiKey === apiKey && o.orderId === orderId) return o;
    return undefined;
  }

  openOrders(apiKey: string): FakeOrder[] {
    return [...this.orders.values()].filter((o) => o.apiKey === apiKey && isOpen(o));
  }

  tradesOf(orderId: number): FakeTrade[] {
    return this.trades.filter((t) => t.orderId === orderId);
  }

  tradeById(id: number): FakeTrade | undefined {
    return this.trades.find((t) => t.id === id);
  }

  /** Sets a level and publishes it (qty 0 removes it). */
  setLevel(symbol: string, side: 'bid' | 'ask', price: number, qty: number): void {
    const s = this.symbols.get(symbol)!;
    put(s, side, price, qty);
    this.onBookChange(s, side === 'bid' ? [{ price, qty }] : [], side === 'ask' ? [{ price, qty }] : []);
  }

  /** Matches an order against the book: IOC and MARKET take what crosses, a GTC limit rests the rest (funds locked). */
  place(account: FakeAccount, req: PlaceRequest): PlaceResult {
    const s = this.symbols.get(req.symbol);
    if (s === undefined) return { ok: false, why: 'unknown_symbol' };
    const key = `${account.apiKey}|${req.clientOrderId}`;
    const existing = this.orders.get(key);
    if (existing !== undefined && isOpen(existing)) return { ok: false, why: 'duplicate' };
    const order: FakeOrder = { symbol: s.symbol, orderId: this.nextOrderId++, clientOrderId: req.clientOrderId, apiKey: account.apiKey, side: req.side, type: req.type, timeInForce: req.timeInForce, price: Number.isNaN(req.price) ? 0 : req.price, origQty: req.qty, executedQty: 0, quoteQty: 0, status: 'NEW', transactTime: Date.now() };
    const book = req.side === 'BUY' ? s.asks : s.bids;
    const cross = (l: Level) => req.type === 'MARKET' || (req.side === 'BUY' ? l.price <= req.price : l.price >= req.price);
    const changed: Level[] = [];
    let left = req.qty;
    const fills: FakeTrade[] = [];
    while (left > 0 && book.length > 0 && cross(book[0]!)) {
      const level = book[0]!;
      const take = Math.min(left, level.qty);
      const wallet = req.side === 'BUY' ? account.balances[s.quote] : account.balances[s.base];
      const need = req.side === 'BUY' ? Math.round((take * level.price) / P) : take;
      if (wallet === undefined || wallet.free < need) {
        if (fills.length === 0) return { ok: false, why: 'insufficient' };
        break;
      }
      fills.push(this.execute(order, s, level.price, take, false));
      level.qty -= take;
      left -= take;
      changed.push({ price: level.price, qty: level.qty });
      if (level.qty === 0) book.shift();
    }
    if (changed.length > 0) this.onBookChange(s, req.side === 'SELL' ? changed : [], req.side === 'BUY' ? changed : []);
    if (order.executedQty >= order.origQty) order.status = 'FILLED';
    else if (req.timeInForce === 'GTC' && req.type === 'LIMIT') {
      order.status = order.executedQty > 0 ? 'PARTIALLY_FILLED' : 'NEW';
      this.lock(account, s, order, order.origQty - order.executedQty, +1);
    } else order.status = 'EXPIRED';
    this.orders.set(key, order);
    return { ok: true, order, fills };
  }

  /** A resting order meets a taker: `qty` of it fills at its price, as maker. */
  fillResting(apiKey: string, clientOrderId: string, qty: number): void {
    const o = this.orders.get(`${apiKey}|${clientOrderId}`)!;
    this.execute(o, this.symbols.get(o.symbol)!, o.price, Math.min(qty, o.origQty - o.executedQty), true);
    o.status = o.executedQty >= o.origQty ? 'FILLED' : 'PARTIALLY_FILLED';
  }

  cancel(account: FakeAccount, o: FakeOrder): void {
    this.lock(account, this.symbols.get(o.symbol)!, o, o.origQty - o.executedQty, -1);
    o.status = 'CANCELED';
  }

  /** Moves what a resting order needs between free and locked (`sign` +1 locks, -1 releases). */
  private lock(account: FakeAccount, s: FakeSymbol, o: FakeOrder, left: number, sign: 1 | -1): void {
    const lock = o.side === 'BUY' ? { asset: s.quote, qty: Math.round((left * o.price) / P) } : { asset: s.base, qty: left };
    const wallet = account.balances[lock.asset];
    if (wallet === undefined) return;
    wallet.free -= sign * lock.qty;
    wallet.locked += sign * lock.qty;
  }

  /** One fill of `order`: balances moved, commission taken in the asset received. */
  private execute(order: FakeOrder, s: FakeSymbol, price: number, qty: number, isMaker: boolean): FakeTrade {
    const account = this.accounts.get(order.apiKey)!;
    const quoteQty = Math.round((qty * price) / P);
    const buy = order.side === 'BUY';
    const received = this.feeInQuote ? s.quote : buy ? s.base : s.quote;
    const commission = Math.ceil(((buy && !this.feeInQuote ? qty : quoteQty) * this.commissionBps) / 10_000);
    const base = (account.balances[s.base] ??= { free: 0, locked: 0 });
    const quote = (account.balances[s.quote] ??= { free: 0, locked: 0 });
    if (buy) {
      if (isMaker) {
        const reserved = Math.round((qty * order.price) / P);
        quote.locked -= reserved;
        quote.free += reserved - quoteQty;
      } else quote.free -= quoteQty;
      if (this.feeInQuote) {
        quote.free -= commission;
        base.free += qty;
      } else base.free += qty - commission;
    } else {
      if (isMaker) base.locked -= qty;
      else base.free -= qty;
      quote.free += quoteQty - commission;
    }
    order.executedQty += qty;
    order.quoteQty += quoteQty;
    const trade: FakeTrade = { symbol: s.symbol, id: this.nextTradeId++, orderId: order.orderId, price, qty, commission, commissionAsset: received, time: Date.now(), isBuyer: buy, isMaker };
    this.trades.push(trade);
    return trade;
  }
}

export function isOpen(o: FakeOrder): boolean {
  return o.status === 'NEW' || o.status === 'PARTIALLY_FILLED';
}

/** A level set on a side, kept best first. */
export function put(s: FakeSymbol, side: 'bid' | 'ask', price: number, qty: number): void {
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
