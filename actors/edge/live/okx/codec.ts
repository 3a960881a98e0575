import { formatScaled, parseScaled, timesRounded } from '../decimal.ts';
import { pricedFeeOf, type FeeContext } from '../fees.ts';
import { lossyIntegerOf } from '../json.ts';
import type { OkxBookData } from './book-sync.ts';
import type { AssetBalance, LegReport, VenueFill } from '../venue.ts';

/**
 * OKX v5 spot's JSON, decoded into the engine's integers and encoded from them. Pure. Prices
 * are 1e9, quantities 1e8. Market data and order sizes must parse exactly (a book never takes a
 * level it could not read), but OKX writes fees and balances to more places than that (the
 * docs' own examples: a fee of "-0.00000192834" BTC, a balance of "4834.317093622894" USDT),
 * so those are rounded, always against us: a charge up, a balance down.
 *
 * Every REST answer is `{code, msg, data: [...]}`; `code` "0" is success, anything else an
 * error (https://www.okx.com/docs-v5/en/#error-code). Field names are those of
 * https://www.okx.com/docs-v5/en/ (order book channel, get instruments, place order, order
 * details, transaction details, get balance).
 */

const PRICE = 9;
const QTY = 8;

/** Our symbol is OKX's spot `instId` as is (`BTC-USDT`). */
export function instIdOf(symbol: string): string {
  return symbol;
}

// ---------------------------------------------------------------------------------------------
// Public WebSocket: the `books` channel

/** A `books` push frame: `{arg: {channel, instId}, action, data: [...]}`. */
export interface OkxBookFrame {
  channel: string;
  instId: string;
  action: 'snapshot' | 'update';
  data: OkxBookData[];
}

/** The subscribe (or unsubscribe) request for the `books` channel of these instruments. */
export function booksSubscription(op: 'subscribe' | 'unsubscribe', instIds: readonly string[]): string {
  return JSON.stringify({ op, args: instIds.map((instId) => ({ channel: 'books', instId })) });
}

/** Levels `[px, sz, "0", numOrders]` into flat integers and the venue's text; undefined on any unreadable level. */
function bookLevels(raw: unknown): { levels: number[]; text: string[] } | undefined {
  if (!Array.isArray(raw)) return undefined;
  const levels = new Array<number>(raw.length * 2);
  const text = new Array<string>(raw.length * 2);
  for (let i = 0; i < raw.length; i++) {
    const level = raw[i] as unknown;
    if (!Array.isArray(level) || typeof level[0] !== 'string' || typeof level[1] !== 'string') return undefined;
    const price = parseScaled(level[0], PRICE);
    const qty = parseScaled(level[1], QTY);
    if (!(price > 0) || !(qty >= 0)) return undefined;
    levels[2 * i] = price;
    levels[2 * i + 1] = qty;
    text[2 * i] = level[0];
    text[2 * i + 1] = level[1];
  }
  return { levels, text };
}

/**
 * A `books` (or `books-l2-tbt`, `books50-l2-tbt`) push. Undefined for anything else (event
 * answers, `books5`/`bbo-tbt` which carry no `action`) and for a push with an unreadable level.
 * `seqId` travels as a JSON number: past 2^53 a parser would round it, which the sequence check
 * tolerates (both sides of the comparison round alike) but which could hide a gap inside the
 * rounding step; spot ids are far below that today.
 */
export function decodeBookFrame(frame: unknown): OkxBookFrame | undefined {
  if (typeof frame !== 'object' || frame === null) return undefined;
  const f = frame as Record<string, unknown>;
  const arg = f['arg'] as Record<string, unknown> | undefined;
  const action = f['action'];
  if (typeof arg !== 'object' || arg === null || typeof arg['channel'] !== 'string' || typeof arg['instId'] !== 'string') return undefined;
  if ((action !== 'snapshot' && action !== 'update') || !Array.isArray(f['data'])) return undefined;
  const data: OkxBookData[] = [];
  for (const raw of f['data'] as unknown[]) {
    if (typeof raw !== 'object' || raw === null) return undefined;
    const d = raw as Record<string, unknown>;
    const bids = bookLevels(d['bids']);
    const asks = bookLevels(d['asks']);
    const seqId = lossyIntegerOf(d['seqId']);
    const prevSeqId = d['prevSeqId'] === undefined ? -1 : lossyIntegerOf(d['prevSeqId']);
    const checksum = d['checksum'] === undefined ? 0 : lossyIntegerOf(d['checksum']);
    if (bids === undefined || asks === undefined || seqId === undefined || prevSeqId === undefined || checksum === undefined) return undefined;
    const ts = typeof d['ts'] === 'string' ? Number(d['ts']) : NaN;
    data.push({ bids: bids.levels, asks: asks.levels, bidText: bids.text, askText: asks.text, checksum, prevSeqId, seqId, ts_ms: Number.isFinite(ts) ? ts : Date.now() });
  }
  return { channel: arg['channel'], instId: arg['instId'], action, data };
}

// ---------------------------------------------------------------------------------------------
// REST envelope

/** A REST answer's error, `{code, msg}` when `code` is not "0"; undefined for a success or a body that is not an answer. */
export function okxError(body: unknown): { code: string; msg: string } | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  if (typeof b['code'] !== 'string' || b['code'] === '0') return undefined;
  return { code: b['code'], msg: typeof b['msg'] === 'string' ? b['msg'] : '' };
}

/**
 * Codes that mean the order is not (or no longer) there: 51603 "Order does not exist." (order
 * details), and 51400 "Order cancellation failed as the order has been filled, canceled or does
 * not exist." (cancel: nothing rests either way).
 */
export const NO_SUCH_ORDER = new Set(['51603', '51400']);

/** The `data` rows of a successful answer; undefined for an error or an unreadable body. */
function rows(body: unknown): Record<string, unknown>[] | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  if (b['code'] !== '0' || !Array.isArray(b['data'])) return undefined;
  const data = b['data'] as unknown[];
  for (const row of data) if (typeof row !== 'object' || row === null) return undefined;
  return data as Record<string, unknown>[];
}

// ---------------------------------------------------------------------------------------------
// Instruments

/** A spot listing's trading rules from `GET /api/v5/public/instruments?instType=SPOT`, in engine units. */
export interface OkxInstrument {
  instId: string;
  base: string;
  quote: string;
  /** `state` is `live` (not `suspend`, `preopen` or `test`) */
  trading: boolean;
  tick_1e9: number;
  lot_1e8: number;
  min_qty_1e8: number;
}

/** Spot instruments; one whose tick or lot our scales cannot hold (finer than 1e-9 / 1e-8) is left out. */
export function decodeInstruments(body: unknown): OkxInstrument[] {
  const data = rows(body);
  if (data === undefined) return [];
  const out: OkxInstrument[] = [];
  for (const raw of data) {
    if (raw['instType'] !== undefined && raw['instType'] !== 'SPOT') continue;
    if (typeof raw['instId'] !== 'string' || typeof raw['baseCcy'] !== 'string' || typeof raw['quoteCcy'] !== 'string') continue;
    const num = (v: unknown, decimals: number) => (typeof v === 'string' ? parseScaled(v, decimals) : NaN);
    const instrument: OkxInstrument = {
      instId: raw['instId'],
      base: raw['baseCcy'],
      quote: raw['quoteCcy'],
      trading: raw['state'] === 'live',
      tick_1e9: num(raw['tickSz'], PRICE),
      lot_1e8: num(raw['lotSz'], QTY),
      min_qty_1e8: num(raw['minSz'], QTY),
    };
    if (!(instrument.tick_1e9 > 0) || !(instrument.lot_1e8 > 0)) continue;
    if (!(instrument.min_qty_1e8 >= 0)) instrument.min_qty_1e8 = 0;
    out.push(instrument);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Client order ids

/** OKX's `clOrdId`: "A combination of case-sensitive alphanumerics, all numbers, or all letters of up to 32 characters." */
export const CLIENT_ORDER_ID = /^[A-Za-z0-9]{1,32}$/;

/** Our child id: a node order id `ord_<alphanumerics>`, `-`, the child's number. */
const CHILD_ID = /^ord_([A-Za-z0-9]+)-(\d+)$/;
/** Its image: the greedy body stops at the last `x`, which is the separator since the number has none. */
const OKX_CHILD_ID = /^([A-Za-z0-9]+)x(\d+)$/;

/**
 * Our child id (`ord_0mwz4ka3500001oq-1`) as an OKX `clOrdId` (`0mwz4ka3500001oqx1`): the
 * `ord_` prefix dropped (every node order id has it) and the dash written `x`. Injective: the
 * number after the dash is digits only, so the last `x` of the image is always the one written
 * for the dash, whatever `x`s the body holds; `childIdOfOkx` undoes it. Undefined for an id that
 * is not of that form or whose image passes 32 characters (the leg must then be refused: a
 * child that cannot be found by its id could be sent twice).
 */
export function okxClientOrderId(childId: string): string | undefined {
  const m = CHILD_ID.exec(childId);
  if (m === null) return undefined;
  const id = `${m[1]!}x${m[2]!}`;
  return CLIENT_ORDER_ID.test(id) ? id : undefined;
}

/** The child id an OKX `clOrdId` was made from; undefined for one `okxClientOrderId` cannot have made. */
export function childIdOfOkx(clOrdId: string): string | undefined {
  if (!CLIENT_ORDER_ID.test(clOrdId)) return undefined;
  const m = OKX_CHILD_ID.exec(clOrdId);
  return m === null ? undefined : `ord_${m[1]!}-${m[2]!}`;
}

// ---------------------------------------------------------------------------------------------
// Orders

/**
 * The JSON body of `POST /api/v5/trade/order` for a child; undefined when the child id has no
 * `clOrdId`. Spot on a cash (non-margin) account: `tdMode` "cash". A priced IOC child is
 * `ordType` "ioc", a priced GTC child "limit", an unpriced one "market" with `tgtCcy` "base_ccy"
 * (a spot market buy's `sz` is otherwise in the quote currency).
 */
export function orderBody(instId: string, childId: string, side: 'buy' | 'sell', qty_1e8: number, limit_1e9: number | null, tif: 'ioc' | 'gtc'): string | undefined {
  const clOrdId = okxClientOrderId(childId);
  if (clOrdId === undefined) return undefined;
  const sz = formatScaled(qty_1e8, QTY);
  if (limit_1e9 === null) return JSON.stringify({ instId, tdMode: 'cash', clOrdId, side, ordType: 'market', sz, tgtCcy: 'base_ccy' });
  return JSON.stringify({ instId, tdMode: 'cash', clOrdId, side, ordType: tif === 'ioc' ? 'ioc' : 'limit', sz, px: formatScaled(limit_1e9, PRICE) });
}

/** What `POST /api/v5/trade/order` (or `cancel-order`) said of the one order in it. */
export type OkxOrderAck =
  | { ok: true; ordId: string; clOrdId: string }
  | {
      ok: false;
      code: string;
      /** `okx <code>: <message>`, the child's reason */
      reason: string;
      /** the venue says the order does not exist */
      unknownOrder: boolean;
    };

/**
 * The answer to a place (or cancel) request: `{code, msg, data: [{ordId, clOrdId, sCode, sMsg}]}`.
 * A refused order has a non-"0" `sCode` (with `code` "1"); a request refused as a whole has a
 * non-"0" `code` and maybe no row. The row's code is the more precise and wins. Undefined for a
 * body that is neither.
 */
export function decodeOrderAck(body: unknown): OkxOrderAck | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  if (typeof b['code'] !== 'string') return undefined;
  const data = Array.isArray(b['data']) ? (b['data'] as unknown[]) : [];
  const row = (typeof data[0] === 'object' && data[0] !== null ? data[0] : {}) as Record<string, unknown>;
  const refused = (code: string, msg: unknown): OkxOrderAck => ({ ok: false, code, reason: `okx ${code}: ${typeof msg === 'string' ? msg : ''}`, unknownOrder: NO_SUCH_ORDER.has(code) });
  if (typeof row['sCode'] === 'string' && row['sCode'] !== '0') return refused(row['sCode'], row['sMsg']);
  if (b['code'] !== '0') return refused(b['code'], b['msg']);
  if (typeof row['ordId'] !== 'string' || row['ordId'] === '') return undefined;
  return { ok: true, ordId: row['ordId'], clOrdId: typeof row['clOrdId'] === 'string' ? row['clOrdId'] : '' };
}

/** `GET /api/v5/trade/order`, in engine units. */
export interface OkxOrder {
  ordId: string;
  clOrdId: string;
  state: 'live' | 'partially_filled' | 'filled' | 'canceled' | 'mmp_canceled';
  filled_qty_1e8: number;
  /** what still rests on the book */
  resting_qty_1e8: number;
}

const ORDER_STATES = new Set<string>(['live', 'partially_filled', 'filled', 'canceled', 'mmp_canceled']);

/**
 * An order's state and what of it rests (`sz` - `accFillSz` while `live` or
 * `partially_filled`). A market order never rests, and its `sz` may be in the quote currency
 * (`tgtCcy` quote_ccy) while `accFillSz` is always base. Undefined for an error answer (see
 * `okxError`: 51603 when there is no such order), an empty one, or an unknown state.
 */
export function decodeOrder(body: unknown): OkxOrder | undefined {
  const row = rows(body)?.[0];
  if (row === undefined) return undefined;
  const state = row['state'];
  if (typeof state !== 'string' || !ORDER_STATES.has(state) || typeof row['ordId'] !== 'string') return undefined;
  const filled = typeof row['accFillSz'] === 'string' ? parseScaled(row['accFillSz'], QTY) : NaN;
  if (!(filled >= 0)) return undefined;
  let resting = 0;
  if ((state === 'live' || state === 'partially_filled') && row['ordType'] !== 'market') {
    const size = typeof row['sz'] === 'string' ? parseScaled(row['sz'], QTY) : NaN;
    if (!(size >= 0)) return undefined;
    resting = size > filled ? size - filled : 0;
  }
  return { ordId: row['ordId'], clOrdId: typeof row['clOrdId'] === 'string' ? row['clOrdId'] : '', state: state as OkxOrder['state'], filled_qty_1e8: filled, resting_qty_1e8: resting };
}

/** A child's report from its order and its fills. */
export function legReportOf(order: OkxOrder, fills: VenueFill[]): LegReport {
  return { ok: true, reason: null, fills, resting_qty_1e8: order.resting_qty_1e8 };
}

// ---------------------------------------------------------------------------------------------
// Fills

/**
 * `GET /api/v5/trade/fills` rows (one order's, asked by `ordId`) as fills, oldest first (the
 * venue lists newest first). Time is `fillTime`, else `ts`; `execType` M is maker. Undefined
 * for an error answer or an unreadable row.
 */
export function decodeFills(body: unknown, fees: FeeContext): VenueFill[] | undefined {
  const data = rows(body);
  if (data === undefined) return undefined;
  const fills: VenueFill[] = [];
  for (const t of data) {
    const { fillPx, fillSz, tradeId, fee, feeCcy } = t;
    if (typeof fillPx !== 'string' || typeof fillSz !== 'string' || typeof tradeId !== 'string' || tradeId === '') return undefined;
    const price_1e9 = parseScaled(fillPx, PRICE);
    const qty_1e8 = parseScaled(fillSz, QTY);
    if (!(price_1e9 > 0) || !(qty_1e8 > 0)) return undefined;
    const isMaker = t['execType'] === 'M';
    // OKX signs `fee` from the account's side (a charge negative, "-0.01"; a rebate positive), the
    // engine the other way; a fee without a currency is taken to be in the quote.
    const asset = typeof feeCcy === 'string' && feeCcy !== '' ? feeCcy : fees.quote;
    const priced = pricedFeeOf(asset, typeof fee === 'string' && fee !== '' ? fee : '0', fees, price_1e9, fees.fallbackFee(price_1e9, qty_1e8, isMaker), -1n);
    if (priced === undefined) return undefined;
    const time = typeof t['fillTime'] === 'string' && t['fillTime'] !== '' ? t['fillTime'] : t['ts'];
    const ms = typeof time === 'string' ? Number(time) : NaN;
    const fill: VenueFill = { price_1e9, qty_1e8, trade_id: tradeId, ts_ns: (Number.isFinite(ms) ? ms : 0) * 1_000_000, fee_1e9: priced.fee_1e9, is_maker: isMaker };
    if (priced.commission !== undefined) fill.commission = priced.commission;
    fills.push(fill);
  }
  return fills.sort((a, b) => a.ts_ns - b.ts_ns || compareTradeIds(a.trade_id, b.trade_id));
}

/** Trade ids are decimal integers of any length: by length, then text. */
function compareTradeIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

// ---------------------------------------------------------------------------------------------
// Balances

/**
 * `GET /api/v5/account/balance`: `data[0].details[]`, `availBal` free and `frozenBal` locked,
 * non-zero only. Exact as bigints (a large stablecoin account passes 2^53 in 1e8 units), and
 * rounded down past 8 places: never more than the account holds.
 */
export function decodeBalances(body: unknown): AssetBalance[] | undefined {
  const account = rows(body)?.[0];
  if (account === undefined || !Array.isArray(account['details'])) return undefined;
  const out: AssetBalance[] = [];
  const scale = 10n ** BigInt(QTY);
  for (const d of account['details'] as Record<string, unknown>[]) {
    if (typeof d !== 'object' || d === null) return undefined;
    if (typeof d['ccy'] !== 'string' || typeof d['availBal'] !== 'string' || typeof d['frozenBal'] !== 'string') return undefined;
    const free = timesRounded(d['availBal'], scale, 'floor');
    const locked = timesRounded(d['frozenBal'], scale, 'floor');
    if (free === undefined || locked === undefined) return undefined;
    if (free === 0n && locked === 0n) continue;
    out.push({ asset: d['ccy'], free_1e8: free, locked_1e8: locked });
  }
  return out;
}
