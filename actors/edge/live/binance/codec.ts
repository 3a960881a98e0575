import { decimalToScaled } from '../../../../domain/units.ts';
import { exactScaled, formatScaled, parseScaled } from '../decimal.ts';
import type { FeeContext, PricedFee } from '../fees.ts';
import type { DepthEvent } from './depth-sync.ts';
import type { AssetBalance, LegReport, VenueFill } from '../venue.ts';

/**
 * Binance spot's JSON, decoded into the engine's integers and encoded from them. Pure. Prices
 * are 1e9, quantities 1e8; Binance sends at most 8 decimals of either, so nothing is lost. A
 * value that does not parse exactly makes the whole message undefined: a book must never take
 * a level it could not read.
 */

const PRICE = 9;
const QTY = 8;

/** Our symbol (`BTC-USDT`) as Binance spells it (`BTCUSDT`). */
export function venueSymbolOf(symbol: string): string {
  return symbol.replace('-', '');
}

/** Binance's client order id rule (`newClientOrderId`). */
export const CLIENT_ORDER_ID = /^[.A-Z:/a-z0-9_-]{1,36}$/;

function levels(raw: unknown, decimalsPrice: number, decimalsQty: number): number[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const out = new Array<number>(raw.length * 2);
  for (let i = 0; i < raw.length; i++) {
    const level = raw[i] as unknown;
    if (!Array.isArray(level) || typeof level[0] !== 'string' || typeof level[1] !== 'string') return undefined;
    const price = parseScaled(level[0], decimalsPrice);
    const qty = parseScaled(level[1], decimalsQty);
    if (!(price > 0) || !(qty >= 0)) return undefined;
    out[2 * i] = price;
    out[2 * i + 1] = qty;
  }
  return out;
}

/** A `depthUpdate` event (the `data` of a combined-stream frame), with its Binance symbol. */
export function decodeDepthUpdate(data: unknown): { venueSymbol: string; event: DepthEvent } | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const d = data as Record<string, unknown>;
  if (d['e'] !== 'depthUpdate' || typeof d['s'] !== 'string' || typeof d['U'] !== 'number' || typeof d['u'] !== 'number') return undefined;
  const bids = levels(d['b'], PRICE, QTY);
  const asks = levels(d['a'], PRICE, QTY);
  if (bids === undefined || asks === undefined) return undefined;
  return { venueSymbol: d['s'], event: { first: d['U'], last: d['u'], bids, asks, ts_ms: typeof d['E'] === 'number' ? d['E'] : Date.now() } };
}

/** `GET /api/v3/depth`: `lastUpdateId` and both sides best first. */
export function decodeDepthSnapshot(body: unknown): { lastUpdateId: number; bids: number[]; asks: number[] } | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  if (typeof b['lastUpdateId'] !== 'number') return undefined;
  const bids = levels(b['bids'], PRICE, QTY);
  const asks = levels(b['asks'], PRICE, QTY);
  if (bids === undefined || asks === undefined) return undefined;
  return { lastUpdateId: b['lastUpdateId'], bids, asks };
}

/** A listing's trading rules from `GET /api/v3/exchangeInfo`, in engine units. */
export interface BinanceInstrument {
  venueSymbol: string;
  base: string;
  quote: string;
  trading: boolean;
  tick_1e9: number;
  lot_1e8: number;
  min_qty_1e8: number;
  min_notional_1e9: number;
}

export function decodeExchangeInfo(body: unknown): BinanceInstrument[] {
  const symbols = (body as { symbols?: unknown } | undefined)?.symbols;
  if (!Array.isArray(symbols)) return [];
  const out: BinanceInstrument[] = [];
  for (const raw of symbols as Record<string, unknown>[]) {
    if (typeof raw['symbol'] !== 'string' || typeof raw['baseAsset'] !== 'string' || typeof raw['quoteAsset'] !== 'string') continue;
    const filters = Array.isArray(raw['filters']) ? (raw['filters'] as Record<string, unknown>[]) : [];
    const filter = (type: string) => filters.find((f) => f['filterType'] === type);
    const price = filter('PRICE_FILTER');
    const lot = filter('LOT_SIZE');
    const notional = filter('NOTIONAL') ?? filter('MIN_NOTIONAL');
    const instrument: BinanceInstrument = {
      venueSymbol: raw['symbol'],
      base: raw['baseAsset'],
      quote: raw['quoteAsset'],
      trading: raw['status'] === 'TRADING',
      tick_1e9: exactScaled(price?.['tickSize'], PRICE),
      lot_1e8: exactScaled(lot?.['stepSize'], QTY),
      min_qty_1e8: exactScaled(lot?.['minQty'], QTY),
      min_notional_1e9: exactScaled(notional?.['minNotional'], PRICE),
    };
    if (!(instrument.tick_1e9 > 0) || !(instrument.lot_1e8 > 0)) continue;
    if (!(instrument.min_qty_1e8 >= 0)) instrument.min_qty_1e8 = 0;
    if (!(instrument.min_notional_1e9 >= 0)) instrument.min_notional_1e9 = 0;
    out.push(instrument);
  }
  return out;
}

/** The parameters of `POST /api/v3/order` for a child (without timestamp and signature). */
export function orderParams(venueSymbol: string, childId: string, side: 'buy' | 'sell', qty_1e8: number, limit_1e9: number | null, tif: 'ioc' | 'gtc'): string {
  const common = `symbol=${venueSymbol}&side=${side === 'buy' ? 'BUY' : 'SELL'}`;
  const size = `quantity=${formatScaled(qty_1e8, QTY)}`;
  const tail = `newClientOrderId=${encodeURIComponent(childId)}&newOrderRespType=FULL`;
  if (limit_1e9 === null) return `${common}&type=MARKET&${size}&${tail}`;
  return `${common}&type=LIMIT&timeInForce=${tif === 'ioc' ? 'IOC' : 'GTC'}&${size}&price=${formatScaled(limit_1e9, PRICE)}&${tail}`;
}

/** Binance's error body `{code, msg}` as a child's reason; undefined when the body is not one. */
export function errorOf(body: unknown): { code: number; msg: string } | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  return typeof b['code'] === 'number' && typeof b['msg'] === 'string' ? { code: b['code'], msg: b['msg'] } : undefined;
}

/** Error codes of an order that does not exist: query (-2013) and cancel (-2011). */
export const NO_SUCH_ORDER = new Set([-2013, -2011]);

/**
 * A commission in USD 1e9: a quote-asset commission is USD (quotes here are USD-pegged); a
 * base-asset one is worth its quantity at the fill's price; any other asset (BNB) is priced by
 * `fallback`, the fee the account's rate implies. Read exactly, not rounded as `pricedFeeOf`
 * (../fees.ts) rounds: Binance writes commissions within our scale, so one past it is unreadable.
 */
function commissionUsd1e9(asset: string, amount: string, base: string, quote: string, price_1e9: number, fallback: number): PricedFee | undefined {
  if (asset === quote || asset === '') {
    const fee = parseScaled(amount, 9);
    return Number.isNaN(fee) ? undefined : { fee_1e9: fee };
  }
  const qty_1e8 = parseScaled(amount, QTY);
  if (Number.isNaN(qty_1e8)) return undefined;
  if (asset === base) {
    const fee = Number((BigInt(qty_1e8) * BigInt(price_1e9) + 99_999_999n) / 100_000_000n);
    return { fee_1e9: fee, commission: { asset, qty_1e8 } };
  }
  return { fee_1e9: fallback, commission: { asset, qty_1e8 } };
}

// Kept here too: tests and older imports read them from this module.
export { feeContextOf, type FeeContext } from '../fees.ts';

/**
 * A new-order answer (`newOrderRespType=FULL`): its fills (with `tradeId` and commission) and
 * what rests. Undefined when the body is not an order.
 */
export function decodeOrderAnswer(body: unknown, fees: FeeContext): LegReport | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  if (typeof b['status'] !== 'string' || typeof b['origQty'] !== 'string' || typeof b['executedQty'] !== 'string') return undefined;
  const ts_ns = (typeof b['transactTime'] === 'number' ? b['transactTime'] : Date.now()) * 1_000_000;
  const fills: VenueFill[] = [];
  for (const f of Array.isArray(b['fills']) ? (b['fills'] as Record<string, unknown>[]) : []) {
    const fill = decodeFill(f['price'], f['qty'], f['tradeId'], f['commission'], f['commissionAsset'], ts_ns, false, fees);
    if (fill === undefined) return undefined;
    fills.push(fill);
  }
  return { ok: true, reason: null, fills, resting_qty_1e8: restingOf(b) };
}

/** What of an order still rests on the book, from its status and quantities. */
export function restingOf(order: Record<string, unknown>): number {
  const status = order['status'];
  if (status !== 'NEW' && status !== 'PARTIALLY_FILLED') return 0;
  const orig = parseScaled(String(order['origQty']), QTY);
  const executed = parseScaled(String(order['executedQty']), QTY);
  return orig > executed ? orig - executed : 0;
}

/** `GET /api/v3/myTrades` rows of one order, oldest first, as fills. */
export function decodeTrades(body: unknown, fees: FeeContext): VenueFill[] | undefined {
  if (!Array.isArray(body)) return undefined;
  const fills: VenueFill[] = [];
  for (const t of body as Record<string, unknown>[]) {
    const ts_ns = (typeof t['time'] === 'number' ? t['time'] : 0) * 1_000_000;
    const fill = decodeFill(t['price'], t['qty'], t['id'], t['commission'], t['commissionAsset'], ts_ns, t['isMaker'] === true, fees);
    if (fill === undefined) return undefined;
    fills.push(fill);
  }
  return fills;
}

function decodeFill(price: unknown, qty: unknown, tradeId: unknown, commission: unknown, commissionAsset: unknown, ts_ns: number, isMaker: boolean, fees: FeeContext): VenueFill | undefined {
  if (typeof price !== 'string' || typeof qty !== 'string' || (typeof tradeId !== 'number' && typeof tradeId !== 'string')) return undefined;
  const price_1e9 = parseScaled(price, PRICE);
  const qty_1e8 = parseScaled(qty, QTY);
  if (!(price_1e9 > 0) || !(qty_1e8 > 0)) return undefined;
  const fee = commissionUsd1e9(
    typeof commissionAsset === 'string' ? commissionAsset : '',
    typeof commission === 'string' ? commission : '0',
    fees.base,
    fees.quote,
    price_1e9,
    fees.fallbackFee(price_1e9, qty_1e8, isMaker),
  );
  if (fee === undefined) return undefined;
  const fill: VenueFill = { price_1e9, qty_1e8, trade_id: String(tradeId), ts_ns, fee_1e9: fee.fee_1e9, is_maker: isMaker };
  if (fee.commission !== undefined) fill.commission = fee.commission;
  return fill;
}

/** `GET /api/v3/account` balances, non-zero only. */
export function decodeBalances(body: unknown): AssetBalance[] | undefined {
  const balances = (body as { balances?: unknown } | undefined)?.balances;
  if (!Array.isArray(balances)) return undefined;
  const out: AssetBalance[] = [];
  for (const b of balances as Record<string, unknown>[]) {
    if (typeof b['asset'] !== 'string' || typeof b['free'] !== 'string' || typeof b['locked'] !== 'string') return undefined;
    // Balances can pass 2^53 in 1e8 units (a large stablecoin account): exact as bigints.
    const free = decimalToScaled(b['free'], QTY);
    const locked = decimalToScaled(b['locked'], QTY);
    if (free === undefined || locked === undefined) return undefined;
    // Zero rows are kept: an asset sold out or withdrawn on the venue must reach the ledger as 0.
    out.push({ asset: b['asset'], free_1e8: free, locked_1e8: locked });
  }
  return out;
}
