import { parseSymbol } from '../../../../domain/market.ts';
import { decimalOf, divRounded, exactScaled, formatScaled, parseScaled, safeNumber, scaledRounded, type DecimalParts } from '../decimal.ts';
import { pricedFeeOf, type FeeContext } from '../fees.ts';
import { signedIntegerOf } from '../json.ts';
import { isChildId, limitOnTick, type AccountProbe, type AssetBalance, type LegReport, type VenueFill } from '../venue.ts';
import type { BybitBookData, BybitBookDepth } from './book-sync.ts';
import { queryString } from './signing.ts';

/**
 * Bybit v5 spot's wire formats, decoded into the engine's integers and encoded from them. Pure.
 * Prices are 1e9, quantities 1e8. Field names, shapes and codes are those of
 * https://bybit-exchange.github.io/docs/v5/ (sources: github.com/bybit-exchange/docs): the
 * public WebSocket ("Connect", "Orderbook"), Get Instruments Info, Place Order, Get Open &
 * Closed Orders, Get Order History, Get Trade History, Cancel Order, Cancel All Orders, Get
 * Wallet Balance, Get Fee Rate, Get API Key Information, Rate Limit Rules, Error Codes.
 *
 * Every REST answer is `{retCode, retMsg, result, retExtInfo, time}`, HTTP 200 either way:
 * `retCode` 0 is success, anything else an error (`bybitError`). Market data and order sizes
 * parse exactly (a book never takes a level it could not read); fees and balances Bybit writes
 * past our scale are rounded against us: a charge up, a balance down.
 */

const PRICE = 9;
const QTY = 8;

/** Every request here is spot. */
export const CATEGORY = 'spot';

// ---------------------------------------------------------------------------------------------
// Symbols

/**
 * Our symbol (`BTC-USDT`) as Bybit's (`BTCUSDT`): base and quote written together, which is
 * how every spot listing is named. The way back cannot split the string (is `ABCUSDT` ABC/USDT
 * or AB/CUSDT?): `BybitSymbols` maps it from the listing's own `baseCoin` and `quoteCoin`.
 */
export function venueSymbolOf(symbol: string): string {
  return symbol.replace('-', '');
}

/** Both directions between our symbols and Bybit's, from the instruments list. */
export class BybitSymbols {
  private readonly toVenue = new Map<string, string>();
  private readonly fromVenue = new Map<string, string>();

  constructor(instruments: readonly Pick<BybitInstrument, 'symbol' | 'venueSymbol'>[]) {
    for (const i of instruments) {
      this.toVenue.set(i.symbol, i.venueSymbol);
      this.fromVenue.set(i.venueSymbol, i.symbol);
    }
  }

  /** Bybit's symbol for ours; undefined when the venue does not list it. */
  venueOf(symbol: string): string | undefined {
    return this.toVenue.get(symbol);
  }

  /** Our symbol for Bybit's; undefined for a symbol the list did not hold. */
  ourOf(venueSymbol: string): string | undefined {
    return this.fromVenue.get(venueSymbol);
  }
}

// ---------------------------------------------------------------------------------------------
// Decimals Bybit writes past our scale

/** An optional decimal field: absent or "" is 0. */
function optionalDecimal(v: unknown): DecimalParts | undefined {
  if (v === undefined || v === '') return { mantissa: 0n, places: 0 };
  return typeof v === 'string' ? decimalOf(v) : undefined;
}

// ---------------------------------------------------------------------------------------------
// Public WebSocket: `wss://stream.bybit.com/v5/public/spot`

/** The spot public stream's path on the stream host (`wss://stream.bybit.com`, testnet `wss://stream-testnet.bybit.com`). */
export const PUBLIC_SPOT_PATH = '/v5/public/spot';

/** "Spot can input up to 10 args for each subscription request sent to one connection" (docs, Connect). */
export const MAX_ARGS_PER_REQUEST = 10;

/** The docs' heartbeat: send it every 20 s; the venue cuts a connection silent for 10 minutes. */
export const PING = '{"op":"ping"}';
export const PING_EVERY_MS = 20_000;

/** `orderbook.{depth}.{symbol}`, e.g. `orderbook.50.BTCUSDT`. */
export function bookTopic(depth: BybitBookDepth, venueSymbol: string): string {
  return `orderbook.${depth}.${venueSymbol}`;
}

const BOOK_TOPIC = /^orderbook\.(\d+)\.(.+)$/;

/**
 * Subscribe (or unsubscribe) requests for these topics, at most 10 topics each (the spot
 * limit), in the order given. `reqId`, when given, is echoed in the answer as `req_id` (the
 * request number is appended when there is more than one request).
 */
export function subscriptionRequests(op: 'subscribe' | 'unsubscribe', topics: readonly string[], reqId?: string): string[] {
  const out: string[] = [];
  const many = topics.length > MAX_ARGS_PER_REQUEST;
  for (let i = 0; i < topics.length; i += MAX_ARGS_PER_REQUEST) {
    const args = topics.slice(i, i + MAX_ARGS_PER_REQUEST);
    const id = reqId === undefined ? undefined : many ? `${reqId}-${i / MAX_ARGS_PER_REQUEST}` : reqId;
    out.push(JSON.stringify(id === undefined ? { op, args } : { req_id: id, op, args }));
  }
  return out;
}

/** A control frame of the public stream: a pong, or the answer to a (un)subscribe. */
export type BybitControl =
  | { kind: 'pong' }
  | {
      kind: 'subscribe' | 'unsubscribe';
      success: boolean;
      /** `req_id` as echoed, or null */
      reqId: string | null;
      /** `ret_msg` (spot echoes "subscribe"; a refusal says why) */
      message: string;
    };

/**
 * A pong or a subscription answer; undefined for data pushes and anything else. Pongs come in
 * two shapes (docs, Connect, "How to Send the Heartbeat Packet"): spot and linear answer
 * `{"success":true,"ret_msg":"pong","op":"ping",...}`, option, spread and private streams
 * `{"op":"pong","args":[...]}`.
 */
export function decodeControl(frame: unknown): BybitControl | undefined {
  if (typeof frame !== 'object' || frame === null) return undefined;
  const f = frame as Record<string, unknown>;
  if ('topic' in f) return undefined;
  const op = f['op'];
  if (op === 'pong' || (op === 'ping' && f['ret_msg'] === 'pong')) return { kind: 'pong' };
  if ((op === 'subscribe' || op === 'unsubscribe') && typeof f['success'] === 'boolean') {
    return { kind: op, success: f['success'], reqId: typeof f['req_id'] === 'string' && f['req_id'] !== '' ? f['req_id'] : null, message: typeof f['ret_msg'] === 'string' ? f['ret_msg'] : '' };
  }
  return undefined;
}

/** A decoded `orderbook` push. */
export interface BybitBookMessage {
  topic: string;
  depth: number;
  /** Bybit's symbol, from the topic */
  venueSymbol: string;
  type: 'snapshot' | 'delta';
  /** null: the push could not be read exactly (a number past our scales, a field missing): the book is no longer known */
  data: BybitBookData | null;
}

/** Levels `[[price, size], ...]` into flat integers; undefined on any level not read exactly. */
function bookLevels(raw: unknown): number[] | undefined {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) return undefined;
  const out = new Array<number>(raw.length * 2);
  for (let i = 0; i < raw.length; i++) {
    const level = raw[i] as unknown;
    if (!Array.isArray(level) || typeof level[0] !== 'string' || typeof level[1] !== 'string') return undefined;
    const price = parseScaled(level[0], PRICE);
    const qty = parseScaled(level[1], QTY);
    if (!(price > 0) || !(qty >= 0)) return undefined;
    out[2 * i] = price;
    out[2 * i + 1] = qty;
  }
  return out;
}

/**
 * An `orderbook.{depth}.{symbol}` push: `{topic, type, ts, data: {s, b, a, u, seq}, cts}`.
 * Undefined for any other frame. `ts` may come as a number or a numeric string (the docs show
 * both). A push whose levels, `u` or symbol cannot be read is returned with `data: null` so the
 * caller can treat its book as broken at once, rather than waiting for the next push to show
 * the gap.
 */
export function decodeBookFrame(frame: unknown): BybitBookMessage | undefined {
  if (typeof frame !== 'object' || frame === null) return undefined;
  const f = frame as Record<string, unknown>;
  const topic = f['topic'];
  const type = f['type'];
  if (typeof topic !== 'string' || (type !== 'snapshot' && type !== 'delta')) return undefined;
  const m = BOOK_TOPIC.exec(topic);
  if (m === null) return undefined;
  const message: BybitBookMessage = { topic, depth: Number(m[1]), venueSymbol: m[2]!, type, data: null };
  const d = f['data'];
  if (typeof d !== 'object' || d === null) return message;
  const data = d as Record<string, unknown>;
  const bids = bookLevels(data['b']);
  const asks = bookLevels(data['a']);
  const u = signedIntegerOf(data['u']);
  const seq = data['seq'] === undefined ? -1 : signedIntegerOf(data['seq']);
  const ts = signedIntegerOf(f['ts']);
  const cts = f['cts'] === undefined ? null : signedIntegerOf(f['cts']);
  if (bids === undefined || asks === undefined || u === undefined || u < 0 || seq === undefined || cts === undefined) return message;
  if (data['s'] !== undefined && data['s'] !== message.venueSymbol) return message;
  message.data = { symbol: message.venueSymbol, bids, asks, u, seq, ts_ms: ts ?? cts ?? 0, cts_ms: cts };
  return message;
}

// ---------------------------------------------------------------------------------------------
// REST envelope and errors

/** What an error says about the request, for the caller's handling. */
export type BybitErrorKind =
  /** the order is not there (lookup, cancel): 110001, 170213 */
  | 'unknown-order'
  /** nothing left to cancel: filled, cancelled, finished (cancel only) */
  | 'not-cancellable'
  /** the venue's side failed or timed out: an order may or may not have been placed (reconcile by orderLinkId) */
  | 'fate-unknown'
  /** the orderLinkId (or the request) was already taken: an earlier send got through; look it up */
  | 'duplicate'
  /** key, signature, permission, IP binding: nothing was done */
  | 'auth'
  /** the timestamp fell outside [server_time - recv_window, server_time + 1000): refused unread, may be resent freshly stamped */
  | 'clock'
  /** a rate limit: refused unread */
  | 'rate-limit'
  | 'funds'
  /** anything else: the request refused as sent */
  | 'refused';

/** 110001 "Order does not exist" (UTA), 170213 "Order does not exist." (Spot Trade). */
export const NO_SUCH_ORDER: ReadonlySet<number> = new Set([110001, 170213]);

/**
 * Cancel answers meaning nothing rests to cancel: the two above, 110008 "The order has been
 * completed or cancelled", 110010 "The order has been cancelled", 170139 "Order has been
 * filled", 170142 "Order has been cancelled", 170143 "Cannot be found on order book", 170190
 * "Cancel order has been finished".
 */
export const NOTHING_TO_CANCEL: ReadonlySet<number> = new Set([...NO_SUCH_ORDER, 110008, 110010, 170139, 170142, 170143, 170190]);

/**
 * Codes after which a write's fate is unknown: 10000 "Server Timeout", 10016 "Server error"
 * (also "Service is restarting"), 170001 "Internal error", 170007 "Timeout waiting for response
 * from backend server", 170032 "Network error", 170035 "Submitted to the system for
 * processing", 170146 "Order creation timeout", 170147 "Order cancellation timeout", 170234
 * "System Error", 110079 "The order is processing and can not be operated", 170212 "Cancel
 * order request processing". The order is looked up by its orderLinkId, never resent blind.
 */
export const FATE_UNKNOWN: ReadonlySet<number> = new Set([10000, 10016, 170001, 170007, 170032, 170035, 170146, 170147, 170234, 110079, 170212]);

/**
 * 110072 "OrderLinkedID is duplicate", 170141 "Duplicate clientOrderId", 10014 "Invalid
 * duplicate request": on a placement, the first send may have got through.
 */
export const DUPLICATE: ReadonlySet<number> = new Set([110072, 170141, 10014]);

/**
 * 10003 "API key is invalid", 10004 "Error sign", 10005 "Permission denied", 10007 "User
 * authentication failed", 10009 region restricted, 10010 "Unmatched IP", 33004 and -2015 "api key
 * has expired".
 */
export const AUTH: ReadonlySet<number> = new Set([10003, 10004, 10005, 10007, 10009, 10010, 33004, -2015]);

/** 10002 "The request time exceeds the time window range", -1 "request expired". */
export const CLOCK: ReadonlySet<number> = new Set([10002, -1]);

/**
 * 10006 "Too many visits. Exceeded the API Rate Limit." (the per-UID limit), 10018 "Exceeded the
 * IP Rate Limit." (struck out of the current table, kept for old answers), 429 "high server
 * load", 170005 "Too many new orders", 170222 "Too many requests in this time frame".
 */
export const RATE_LIMITED: ReadonlySet<number> = new Set([10006, 10018, 429, 170005, 170222]);

/** 110004, 110007, 110012 (UTA) and 170131 "Balance insufficient", 170033 (Spot). */
export const FUNDS: ReadonlySet<number> = new Set([110004, 110007, 110012, 170131, 170033]);

export interface BybitError {
  retCode: number;
  retMsg: string;
  kind: BybitErrorKind;
  /** `bybit <retCode>: <retMsg>`, the child's reason */
  reason: string;
  /** the venue says the order does not exist (lookup and cancel) */
  unknownOrder: boolean;
}

/** The kind of a retCode. */
export function errorKindOf(retCode: number): BybitErrorKind {
  if (NO_SUCH_ORDER.has(retCode)) return 'unknown-order';
  if (NOTHING_TO_CANCEL.has(retCode)) return 'not-cancellable';
  if (FATE_UNKNOWN.has(retCode)) return 'fate-unknown';
  if (DUPLICATE.has(retCode)) return 'duplicate';
  if (AUTH.has(retCode)) return 'auth';
  if (CLOCK.has(retCode)) return 'clock';
  if (RATE_LIMITED.has(retCode)) return 'rate-limit';
  if (FUNDS.has(retCode)) return 'funds';
  return 'refused';
}

/** An answer's error; undefined for a success or a body that is not an answer. */
export function bybitError(body: unknown): BybitError | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  const retCode = b['retCode'];
  if (typeof retCode !== 'number' || !Number.isInteger(retCode) || retCode === 0) return undefined;
  const retMsg = typeof b['retMsg'] === 'string' ? b['retMsg'] : '';
  return { retCode, retMsg, kind: errorKindOf(retCode), reason: `bybit ${retCode}: ${retMsg}`, unknownOrder: NO_SUCH_ORDER.has(retCode) };
}

/**
 * What an HTTP status other than 200 means (docs, Error Codes, "HTTP Code"): 401 a missing or
 * wrong key, 403 the IP limit (or a GET with a JSON body, or a restricted region), 429 the
 * system's frequency protection, 5xx the venue's side (a write's fate unknown). 404 (a wrong
 * path, or a category the account mode does not have) is a refusal.
 */
export function statusKind(status: number): BybitErrorKind | undefined {
  if (status === 200) return undefined;
  if (status === 401) return 'auth';
  if (status === 403 || status === 429) return 'rate-limit';
  if (status >= 500) return 'fate-unknown';
  return 'refused';
}

/** The `result` object of a successful answer; undefined for an error or an unreadable body. */
function resultOf(body: unknown): Record<string, unknown> | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  if (b['retCode'] !== 0) return undefined;
  const result = b['result'];
  return typeof result === 'object' && result !== null && !Array.isArray(result) ? (result as Record<string, unknown>) : undefined;
}

/** `result.list` of a successful answer (each row an object) and its `nextPageCursor` ('' when none). */
function listOf(body: unknown): { rows: Record<string, unknown>[]; cursor: string } | undefined {
  const result = resultOf(body);
  if (result === undefined || !Array.isArray(result['list'])) return undefined;
  const rows = result['list'] as unknown[];
  for (const row of rows) if (typeof row !== 'object' || row === null) return undefined;
  const cursor = result['nextPageCursor'];
  return { rows: rows as Record<string, unknown>[], cursor: typeof cursor === 'string' ? cursor : '' };
}

// ---------------------------------------------------------------------------------------------
// Rate limits

/**
 * Bybit's limits (docs, Rate Limit Rules):
 *
 *  - per IP: 600 requests in any 5 s to the REST host. Past it the answer is HTTP 403 "access
 *    too frequent", and the docs say to stop every session and wait at least 10 minutes.
 *  - per UID and endpoint, a rolling one-second window (spot, UTA): `/v5/order/create`,
 *    `/cancel` and `/cancel-all` 20/s; `/v5/order/realtime`, `/v5/order/history`,
 *    `/v5/execution/list` and `/v5/account/wallet-balance` 50/s; `/v5/account/fee-rate` 5/s;
 *    `/v5/user/query-api` 10/s. Past it the answer is retCode 10006 "Too many visits!".
 *
 * Every answer carries the endpoint's count in its headers: `X-Bapi-Limit` (the limit),
 * `X-Bapi-Limit-Status` (requests left in the window) and `X-Bapi-Limit-Reset-Timestamp` (when
 * the limit resets if it was exceeded, else about now), read by `decodeLimitHeaders`. The windows
 * roll, so a counter of fixed windows aligned to the clock (`VenueLimits`) must be given half
 * these numbers to never exceed one in any rolling second.
 */
export const RATE_LIMITS = {
  ipPer5s: 600,
  ipBanMs: 10 * 60_000,
  perSecond: { create: 20, cancel: 20, cancelAll: 20, orderRealtime: 50, orderHistory: 50, executions: 50, walletBalance: 50, feeRate: 5, apiKey: 10 },
} as const;

export interface BybitLimitHeaders {
  /** `X-Bapi-Limit` */
  limit: number;
  /** `X-Bapi-Limit-Status`: requests left */
  remaining: number;
  /** `X-Bapi-Limit-Reset-Timestamp`, ms */
  resetAtMs: number;
}

/** The endpoint's limit headers (names are case-insensitive, as `Headers.get` reads them); undefined when absent or unreadable. */
export function decodeLimitHeaders(get: (name: string) => string | null): BybitLimitHeaders | undefined {
  const limit = signedIntegerOf(get('X-Bapi-Limit'));
  const remaining = signedIntegerOf(get('X-Bapi-Limit-Status'));
  const resetAtMs = signedIntegerOf(get('X-Bapi-Limit-Reset-Timestamp'));
  if (limit === undefined || remaining === undefined || resetAtMs === undefined) return undefined;
  return { limit, remaining, resetAtMs };
}

// ---------------------------------------------------------------------------------------------
// Instruments: GET /v5/market/instruments-info?category=spot

/**
 * Spot instruments, all in one answer: "Spot does not support pagination, so `limit`, `cursor`
 * are invalid" (docs, Get Instruments Info). `decodeInstruments` still reports a
 * `nextPageCursor` should one ever come, so a cut list is not taken as whole.
 */
export const INSTRUMENTS_PATH = `/v5/market/instruments-info?category=${CATEGORY}`;

/** A spot listing's trading rules, in engine units. */
export interface BybitInstrument {
  /** ours, `BTC-USDT`, from `baseCoin` and `quoteCoin` */
  symbol: string;
  /** Bybit's, `BTCUSDT` */
  venueSymbol: string;
  base: string;
  quote: string;
  /** `PreLaunch`, `Trading`, `Delivering`, `Closed` */
  status: string;
  trading: boolean;
  /** `priceFilter.tickSize` */
  tick_1e9: number;
  /** `lotSizeFilter.basePrecision`: the quantity step */
  lot_1e8: number;
  /** `lotSizeFilter.minOrderQty`: reported, not enforced (the docs: "deprecated, no longer check") */
  min_qty_1e8: number;
  /** `lotSizeFilter.minOrderAmt`, quote x 1e9: what an order must be worth */
  min_amount_1e9: number;
  /** `maxLimitOrderQty` and `maxMarketOrderQty` (0: not given) */
  max_limit_qty_1e8: number;
  max_market_qty_1e8: number;
}

/**
 * The spot listings of an instruments answer, and its `nextPageCursor` ('' when none). Left out:
 * rows whose coins do not make one of our symbols, and those whose tick or step our scales
 * cannot hold (finer than 1e-9 / 1e-8). Minimums Bybit writes past our scale are rounded up,
 * maximums down. Undefined for an error answer.
 */
export function decodeInstruments(body: unknown): { instruments: BybitInstrument[]; cursor: string } | undefined {
  const list = listOf(body);
  if (list === undefined) return undefined;
  const instruments: BybitInstrument[] = [];
  for (const raw of list.rows) {
    const { symbol, baseCoin, quoteCoin } = raw;
    if (typeof symbol !== 'string' || typeof baseCoin !== 'string' || typeof quoteCoin !== 'string') continue;
    const ours = `${baseCoin}-${quoteCoin}`;
    if (parseSymbol(ours) === undefined) continue;
    const lot = (typeof raw['lotSizeFilter'] === 'object' && raw['lotSizeFilter'] !== null ? raw['lotSizeFilter'] : {}) as Record<string, unknown>;
    const price = (typeof raw['priceFilter'] === 'object' && raw['priceFilter'] !== null ? raw['priceFilter'] : {}) as Record<string, unknown>;
    const tick = exactScaled(price['tickSize'], PRICE);
    const step = exactScaled(lot['basePrecision'], QTY);
    if (!(tick > 0) || !(step > 0)) continue;
    const rounded = (v: unknown, decimals: number, mode: 'ceil' | 'floor') => {
      const n = typeof v === 'string' && v !== '' ? safeNumber(scaledRounded(v, decimals, mode)) : 0;
      return n >= 0 ? n : 0;
    };
    const status = typeof raw['status'] === 'string' ? raw['status'] : '';
    instruments.push({
      symbol: ours,
      venueSymbol: symbol,
      base: baseCoin,
      quote: quoteCoin,
      status,
      trading: status === 'Trading',
      tick_1e9: tick,
      lot_1e8: step,
      min_qty_1e8: rounded(lot['minOrderQty'], QTY, 'ceil'),
      min_amount_1e9: rounded(lot['minOrderAmt'], PRICE, 'ceil'),
      max_limit_qty_1e8: rounded(lot['maxLimitOrderQty'], QTY, 'floor'),
      max_market_qty_1e8: rounded(lot['maxMarketOrderQty'], QTY, 'floor'),
    });
  }
  return { instruments, cursor: list.cursor };
}

// ---------------------------------------------------------------------------------------------
// orderLinkId

/**
 * Place Order: "User customised order ID. A max of 36 characters. Combinations of numbers,
 * letters (upper and lower cases), dashes, and underscores are supported", unique.
 */
export const ORDER_LINK_ID = /^[A-Za-z0-9_-]{1,36}$/;

/**
 * Our child id as Bybit's `orderLinkId`: the id itself. Child ids (`ord_<base36/62>-<n>`,
 * 22 to 26 characters as the store makes them) are letters, digits, one underscore and one
 * dash, all in Bybit's alphabet, so no mapping is needed and a lookup by orderLinkId names the
 * child as journaled. Undefined for an id that is not a child id or passes 36 characters (the
 * leg must then be refused: a child that cannot be found by its id could be sent twice).
 */
export function bybitOrderLinkId(childId: string): string | undefined {
  return isChildId(childId) && ORDER_LINK_ID.test(childId) ? childId : undefined;
}

/** The child id an orderLinkId names; undefined for one this service did not make (an order placed by hand). */
export function childIdOfBybit(orderLinkId: string): string | undefined {
  return ORDER_LINK_ID.test(orderLinkId) && isChildId(orderLinkId) ? orderLinkId : undefined;
}

// ---------------------------------------------------------------------------------------------
// Orders: bodies and paths

export const CREATE_ORDER_PATH = '/v5/order/create';
export const CANCEL_ORDER_PATH = '/v5/order/cancel';
export const CANCEL_ALL_PATH = '/v5/order/cancel-all';

/** A child's quantity and price as Bybit will take them. */
export interface OrderTerms {
  qty_1e8: number;
  /** null: a market order */
  price_1e9: number | null;
}

/**
 * A child's terms on the listing: the quantity down to `basePrecision` (never more than asked),
 * the limit onto the tick toward the passive side (a buy down, a sell up: never beyond the
 * SOR's limit). Refused when nothing is left, above the limit or market order maximum, or,
 * priced, worth less than `minOrderAmt` (Bybit would refuse it: 170140 "Order value exceeded
 * lower limit"). `minOrderQty` is not checked: the docs say Bybit no longer does. A market
 * order's worth is the caller's to check.
 */
export function orderTerms(instrument: BybitInstrument, side: 'buy' | 'sell', qty_1e8: number, limit_1e9: number | null): { ok: true; terms: OrderTerms } | { ok: false; reason: string } {
  const name = instrument.venueSymbol;
  const qty = qty_1e8 - (qty_1e8 % instrument.lot_1e8);
  if (!(qty > 0)) return { ok: false, reason: `below Bybit's quantity step for ${name} (${formatScaled(instrument.lot_1e8, QTY)})` };
  const max = limit_1e9 === null ? instrument.max_market_qty_1e8 : instrument.max_limit_qty_1e8;
  if (max > 0 && qty > max) return { ok: false, reason: `above Bybit's maximum ${limit_1e9 === null ? 'market' : 'limit'} order quantity for ${name} (${formatScaled(max, QTY)})` };
  if (limit_1e9 === null) return { ok: true, terms: { qty_1e8: qty, price_1e9: null } };
  const price = limitOnTick(side, limit_1e9, instrument.tick_1e9)!;
  if (!(price > 0)) return { ok: false, reason: `limit below Bybit's tick for ${name}` };
  if (BigInt(qty) * BigInt(price) < BigInt(instrument.min_amount_1e9) * 10n ** BigInt(QTY)) {
    return { ok: false, reason: `below Bybit's minimum order value for ${name} (minOrderAmt ${formatScaled(instrument.min_amount_1e9, PRICE)} ${instrument.quote})` };
  }
  return { ok: true, terms: { qty_1e8: qty, price_1e9: price } };
}

/**
 * The JSON body of `POST /v5/order/create` for a child (signed as these exact bytes); undefined
 * when the child id is no orderLinkId. Spot, no borrowing (`isLeverage` left at its default 0).
 * A priced child is `Limit` with `timeInForce` IOC or GTC; an unpriced one `Market` with
 * `marketUnit` baseCoin, since a spot market buy's `qty` is otherwise in the quote coin (Bybit
 * turns a market order into an IOC limit within its slippage band, and `timeInForce` is always
 * IOC for it, so none is sent).
 */
export function createOrderBody(venueSymbol: string, childId: string, side: 'buy' | 'sell', terms: OrderTerms, tif: 'ioc' | 'gtc'): string | undefined {
  const orderLinkId = bybitOrderLinkId(childId);
  if (orderLinkId === undefined) return undefined;
  const qty = formatScaled(terms.qty_1e8, QTY);
  const bybitSide = side === 'buy' ? 'Buy' : 'Sell';
  if (terms.price_1e9 === null) return JSON.stringify({ category: CATEGORY, symbol: venueSymbol, side: bybitSide, orderType: 'Market', qty, marketUnit: 'baseCoin', orderLinkId });
  return JSON.stringify({ category: CATEGORY, symbol: venueSymbol, side: bybitSide, orderType: 'Limit', qty, price: formatScaled(terms.price_1e9, PRICE), timeInForce: tif === 'ioc' ? 'IOC' : 'GTC', orderLinkId });
}

/** `POST /v5/order/cancel` by orderLinkId (the symbol is required). */
export function cancelOrderBody(venueSymbol: string, orderLinkId: string): string {
  return JSON.stringify({ category: CATEGORY, symbol: venueSymbol, orderLinkId });
}

/** `POST /v5/order/cancel-all` of one symbol (normal orders: `orderFilter` defaults to Order for spot). */
export function cancelAllBody(venueSymbol: string): string {
  return JSON.stringify({ category: CATEGORY, symbol: venueSymbol });
}

/** How an order is named in a query: Bybit's `orderId` or our `orderLinkId` (the docs give orderId priority when both are sent, so one is sent). */
export type OrderRef = { orderId: string } | { orderLinkId: string };

function refFields(ref: OrderRef): [string, string][] {
  return 'orderId' in ref ? [['orderId', ref.orderId]] : [['orderLinkId', ref.orderLinkId]];
}

/**
 * `GET /v5/order/realtime` for one order: open orders, and the most recent 500 closed ones. "After
 * a server release or restart, filled, cancelled, and rejected orders of Unified account should
 * only be queried through order history": an empty answer here is not "no such order" until
 * `orderHistoryPath` also finds nothing.
 */
export function orderRealtimePath(ref: OrderRef): string {
  return `/v5/order/realtime?${queryString([['category', CATEGORY], ...refFields(ref)])}`;
}

/**
 * `GET /v5/order/history` for one order (7 days by default; cancelled and rejected orders only
 * for 24 hours, and the docs warn its data "may delay" behind the order's real state).
 */
export function orderHistoryPath(ref: OrderRef): string {
  return `/v5/order/history?${queryString([['category', CATEGORY], ...refFields(ref)])}`;
}

/** Page size of the open-orders listing (its maximum). */
export const OPEN_ORDERS_PAGE = 50;

/** `GET /v5/order/realtime`, the account's open spot orders, 50 a page, the next page by `cursor`. */
export function openOrdersPath(cursor?: string): string {
  return `/v5/order/realtime?${queryString([['category', CATEGORY], ['openOnly', 0], ['limit', OPEN_ORDERS_PAGE], ['cursor', cursor === '' ? undefined : cursor]])}`;
}

/** Page size of the trade history (its maximum). */
export const EXECUTIONS_PAGE = 100;

/**
 * `GET /v5/execution/list` of one order's fills, 100 a page, the next page by `cursor`. With an
 * orderId or orderLinkId every other filter is ignored (docs); the default window is the last 7 days.
 */
export function executionsPath(ref: OrderRef, cursor?: string): string {
  return `/v5/execution/list?${queryString([['category', CATEGORY], ...refFields(ref), ['limit', EXECUTIONS_PAGE], ['cursor', cursor === '' ? undefined : cursor]])}`;
}

// ---------------------------------------------------------------------------------------------
// Orders: answers

/** What a place (or cancel) request answered. */
export type BybitOrderAck = { ok: true; orderId: string; orderLinkId: string } | ({ ok: false } & BybitError);

/**
 * The answer to `POST /v5/order/create` or `/v5/order/cancel`: `result: {orderId, orderLinkId}`.
 * An acknowledgement only: "This request is asynchronous", so the order's state is read after
 * it. Undefined for a body that is neither an answer nor an error.
 */
export function decodeOrderAck(body: unknown): BybitOrderAck | undefined {
  const error = bybitError(body);
  if (error !== undefined) return { ok: false, ...error };
  const result = resultOf(body);
  if (result === undefined || typeof result['orderId'] !== 'string' || result['orderId'] === '') return undefined;
  return { ok: true, orderId: result['orderId'], orderLinkId: typeof result['orderLinkId'] === 'string' ? result['orderLinkId'] : '' };
}

/** `POST /v5/order/cancel-all`: the orders it cancelled, and `success` ("1"; absent for some account types). */
export function decodeCancelAll(body: unknown): { cancelled: { orderId: string; orderLinkId: string }[]; success: boolean } | undefined {
  const list = listOf(body);
  if (list === undefined) return undefined;
  const cancelled = list.rows.map((r) => ({ orderId: typeof r['orderId'] === 'string' ? r['orderId'] : '', orderLinkId: typeof r['orderLinkId'] === 'string' ? r['orderLinkId'] : '' }));
  return { cancelled, success: resultOf(body)!['success'] !== '0' };
}

const OPEN_STATUSES = new Set(['New', 'PartiallyFilled', 'Untriggered']);
const CLOSED_STATUSES = new Set(['Rejected', 'PartiallyFilledCanceled', 'Filled', 'Cancelled', 'Triggered', 'Deactivated']);

/** An order from Get Open & Closed Orders or Get Order History, in engine units. */
export interface BybitOrder {
  orderId: string;
  orderLinkId: string;
  /** our child id, when the orderLinkId is one */
  child_id: string | null;
  venueSymbol: string;
  side: 'buy' | 'sell';
  orderType: string;
  /** `New`, `PartiallyFilled`, `Untriggered` (open); `Rejected`, `PartiallyFilledCanceled`, `Filled`, `Cancelled`, `Triggered`, `Deactivated` (closed) */
  status: string;
  /** the venue is still working the order (an open status): an IOC in this state is not settled yet */
  open: boolean;
  /** the order's size in base; null for a market order sized in the quote coin (`marketUnit` quoteCoin) */
  qty_1e8: number | null;
  /** `cumExecQty`, base */
  filled_qty_1e8: number;
  /** what still rests on the book: `leavesQty` of an open limit order */
  resting_qty_1e8: number;
  /** `rejectReason` (`EC_NoError` when none) */
  rejectReason: string;
  updated_ms: number;
}

/**
 * The orders of an order answer (`result.list`, newest first as the venue lists them) and the
 * next page's cursor. Undefined for an error answer or an unreadable row (an unknown status, a
 * size that does not parse).
 */
export function decodeOrders(body: unknown): { orders: BybitOrder[]; cursor: string } | undefined {
  const list = listOf(body);
  if (list === undefined) return undefined;
  const orders: BybitOrder[] = [];
  for (const r of list.rows) {
    const status = r['orderStatus'];
    const side = r['side'];
    if (typeof r['orderId'] !== 'string' || typeof status !== 'string' || (!OPEN_STATUSES.has(status) && !CLOSED_STATUSES.has(status))) return undefined;
    if (side !== 'Buy' && side !== 'Sell') return undefined;
    const filled = exactScaled(r['cumExecQty'], QTY);
    if (!(filled >= 0)) return undefined;
    const orderType = typeof r['orderType'] === 'string' ? r['orderType'] : '';
    const inQuote = orderType === 'Market' && r['marketUnit'] === 'quoteCoin';
    const qty = inQuote ? null : exactScaled(r['qty'], QTY);
    if (qty !== null && !(qty >= 0)) return undefined;
    const open = OPEN_STATUSES.has(status);
    let resting = 0;
    if (open && orderType === 'Limit') {
      const leaves = r['leavesQty'] === undefined || r['leavesQty'] === '' ? (qty ?? 0) - filled : exactScaled(r['leavesQty'], QTY);
      if (!(leaves >= 0)) return undefined;
      resting = leaves;
    }
    const orderLinkId = typeof r['orderLinkId'] === 'string' ? r['orderLinkId'] : '';
    orders.push({
      orderId: r['orderId'],
      orderLinkId,
      child_id: orderLinkId === '' ? null : (childIdOfBybit(orderLinkId) ?? null),
      venueSymbol: typeof r['symbol'] === 'string' ? r['symbol'] : '',
      side: side === 'Buy' ? 'buy' : 'sell',
      orderType,
      status,
      open,
      qty_1e8: qty,
      filled_qty_1e8: filled,
      resting_qty_1e8: resting,
      rejectReason: typeof r['rejectReason'] === 'string' ? r['rejectReason'] : '',
      updated_ms: signedIntegerOf(r['updatedTime']) ?? 0,
    });
  }
  return { orders, cursor: list.cursor };
}

/** A child's report from its order and its fills. */
export function legReportOf(order: BybitOrder, fills: VenueFill[]): LegReport {
  return { ok: true, reason: null, fills, resting_qty_1e8: order.resting_qty_1e8 };
}

// ---------------------------------------------------------------------------------------------
// Fills: GET /v5/execution/list

/**
 * The coin a spot fill's fee is taken in, by the docs' "Spot Fee Currency Instruction" (enum
 * page): a taker, or a maker whose fee rate is positive, pays in what it receives (a buy in
 * base, a sell in quote); a maker on a negative (rebate) rate is paid in what it gives (a buy in
 * quote, a sell in base). Used when a row's `feeCurrency` is empty.
 */
export function spotFeeCoin(side: 'buy' | 'sell', isMaker: boolean, feeRateNegative: boolean, base: string, quote: string): string {
  const receives = side === 'buy' ? base : quote;
  const gives = side === 'buy' ? quote : base;
  return isMaker && feeRateNegative ? gives : receives;
}

/** The sum of two plain decimals, as text (for an extra fee added to the trading fee). */
function addDecimals(a: string, b: string): string | undefined {
  const x = decimalOf(a);
  const y = decimalOf(b);
  if (x === undefined || y === undefined) return undefined;
  const places = Math.max(x.places, y.places);
  const sum = x.mantissa * 10n ** BigInt(places - x.places) + y.mantissa * 10n ** BigInt(places - y.places);
  const negative = sum < 0n;
  const digits = (negative ? -sum : sum).toString().padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places);
  return `${negative ? '-' : ''}${whole}${places > 0 ? `.${digits.slice(digits.length - places)}` : ''}`;
}

/**
 * `extraFees` entries in the fee's own coin, added to it. The field carries taxes (GST and the
 * like) charged to Indian-KYC users and on the Indonesian and EU sites, as `[{feeCoin, fee, ...}]`
 * on the stream and as a string in REST ("" when none; its non-empty form is taken to be the
 * same list as JSON text). This is the only place Bybit names a `feeCoin`; the trading fee's coin
 * is `feeCurrency`. An entry in another coin cannot be told to the ledger beside a fee in this
 * one (a fill has one fee asset) and is left out.
 */
function withExtraFees(fee: string, coin: string, extra: unknown): string | undefined {
  let list: unknown = extra;
  if (typeof extra === 'string') {
    if (extra === '') return fee;
    try {
      list = JSON.parse(extra);
    } catch {
      return fee;
    }
  }
  if (!Array.isArray(list)) return fee;
  let total = fee;
  for (const e of list as unknown[]) {
    if (typeof e !== 'object' || e === null) continue;
    const { feeCoin, fee: amount } = e as Record<string, unknown>;
    if (feeCoin !== coin || typeof amount !== 'string' || amount === '') continue;
    const next = addDecimals(total, amount);
    if (next === undefined) return undefined;
    total = next;
  }
  return total;
}

/**
 * Trade history rows (one order's) as fills, oldest first (the venue lists newest first, and
 * rows of the same `execTime` in no set order: ties go by `execId`), and the next page's cursor.
 * The fill id is `execId`; `execFee` is charged positive in `feeCurrency` (when empty, the coin
 * the docs' instruction names); `isMaker` as sent. Rows of another `execType` than `Trade`, or of
 * another order than `orderId` when given, are skipped. Undefined for an error answer or an
 * unreadable row.
 */
export function decodeExecutions(body: unknown, fees: FeeContext, orderId?: string): { fills: VenueFill[]; cursor: string } | undefined {
  const list = listOf(body);
  if (list === undefined) return undefined;
  const fills: VenueFill[] = [];
  for (const t of list.rows) {
    if (t['execType'] !== undefined && t['execType'] !== 'Trade') continue;
    if (orderId !== undefined && t['orderId'] !== orderId) continue;
    const { execId, side } = t;
    if (typeof execId !== 'string' || execId === '' || (side !== 'Buy' && side !== 'Sell')) return undefined;
    const price_1e9 = exactScaled(t['execPrice'], PRICE);
    const qty_1e8 = exactScaled(t['execQty'], QTY);
    if (!(price_1e9 > 0) || !(qty_1e8 > 0)) return undefined;
    const isMaker = t['isMaker'] === true;
    const feeRate = typeof t['feeRate'] === 'string' ? t['feeRate'] : '';
    const coin = typeof t['feeCurrency'] === 'string' && t['feeCurrency'] !== '' ? t['feeCurrency'] : spotFeeCoin(side === 'Buy' ? 'buy' : 'sell', isMaker, feeRate.startsWith('-'), fees.base, fees.quote);
    const fee = withExtraFees(typeof t['execFee'] === 'string' && t['execFee'] !== '' ? t['execFee'] : '0', coin, t['extraFees']);
    if (fee === undefined) return undefined;
    const priced = pricedFeeOf(coin, fee, fees, price_1e9, fees.fallbackFee(price_1e9, qty_1e8, isMaker), 1n);
    if (priced === undefined) return undefined;
    const fill: VenueFill = { price_1e9, qty_1e8, trade_id: execId, ts_ns: (signedIntegerOf(t['execTime']) ?? 0) * 1_000_000, fee_1e9: priced.fee_1e9, is_maker: isMaker };
    if (priced.commission !== undefined) fill.commission = priced.commission;
    fills.push(fill);
  }
  fills.sort((a, b) => a.ts_ns - b.ts_ns || (a.trade_id < b.trade_id ? -1 : a.trade_id > b.trade_id ? 1 : 0));
  return { fills, cursor: list.cursor };
}

// ---------------------------------------------------------------------------------------------
// Account: balances, fee rate, key permissions

/** `GET /v5/account/wallet-balance`, the unified trading account (the only account type the endpoint takes). */
export const WALLET_BALANCE_PATH = '/v5/account/wallet-balance?accountType=UNIFIED';

/**
 * The coin rows of the unified account as balances. `walletBalance` includes what is borrowed
 * (the docs: old walletBalance = new walletBalance - spotBorrow) and what open spot orders lock;
 * so what the account owns is walletBalance - spotBorrow, of which `locked` is held by orders
 * and the rest free (never below zero: a debt is not a balance). Exact as bigints (a large
 * stablecoin account passes 2^53 in 1e8 units), rounded down past 8 places. Zero rows are kept;
 * note the venue leaves out coins with nothing and no liability, so a coin missing here is 0.
 * Undefined for an error answer or an unreadable row.
 */
export function decodeBalances(body: unknown): AssetBalance[] | undefined {
  const list = listOf(body);
  if (list === undefined) return undefined;
  const account = list.rows.find((a) => a['accountType'] === 'UNIFIED') ?? list.rows[0];
  if (account === undefined) return [];
  if (!Array.isArray(account['coin'])) return undefined;
  const out: AssetBalance[] = [];
  const scale = 10n ** BigInt(QTY);
  for (const c of account['coin'] as unknown[]) {
    if (typeof c !== 'object' || c === null) return undefined;
    const row = c as Record<string, unknown>;
    if (typeof row['coin'] !== 'string' || typeof row['walletBalance'] !== 'string') return undefined;
    const wallet = decimalOf(row['walletBalance']);
    const borrowed = optionalDecimal(row['spotBorrow']);
    const locked = optionalDecimal(row['locked']);
    if (wallet === undefined || borrowed === undefined || locked === undefined) return undefined;
    const places = Math.max(wallet.places, borrowed.places, locked.places);
    const at = (d: { mantissa: bigint; places: number }) => d.mantissa * 10n ** BigInt(places - d.places);
    const unit = 10n ** BigInt(places);
    const owned = at(wallet) - at(borrowed);
    const held = at(locked);
    // What orders hold is part of what is owned: never more of it than that, never below zero.
    const lockedPart = held < owned ? held : owned > 0n ? owned : 0n;
    const freePart = owned > held ? owned - held : 0n;
    out.push({ asset: row['coin'], free_1e8: divRounded(freePart * scale, unit, 'floor'), locked_1e8: divRounded((lockedPart > 0n ? lockedPart : 0n) * scale, unit, 'floor') });
  }
  return out;
}

/** `GET /v5/account/fee-rate` of one spot symbol. */
export function feeRatePath(venueSymbol: string): string {
  return `/v5/account/fee-rate?${queryString([['category', CATEGORY], ['symbol', venueSymbol]])}`;
}

/** A rate (`"0.001"`) in basis points, exactly for rates of up to 9 decimals; NaN otherwise. */
function bps(rate: unknown): number {
  const scaled = exactScaled(rate, 9);
  return Number.isNaN(scaled) ? NaN : scaled / 100_000;
}

/** The account's maker and taker rates for the symbol, in bps (negative: a rebate); undefined for an error answer or no such row. */
export function decodeFeeRate(body: unknown, venueSymbol: string): { maker_bps: number; taker_bps: number } | undefined {
  const row = listOf(body)?.rows.find((r) => r['symbol'] === venueSymbol);
  if (row === undefined) return undefined;
  const maker = bps(row['makerFeeRate']);
  const taker = bps(row['takerFeeRate']);
  return Number.isNaN(maker) || Number.isNaN(taker) ? undefined : { maker_bps: maker, taker_bps: taker };
}

/** `GET /v5/user/query-api`: the calling key's own information ("any permission can access this endpoint"). */
export const API_KEY_PATH = '/v5/user/query-api';

/** What the key may do, from Get API Key Information. */
export interface BybitKeyInfo {
  /** `readOnly` 1 */
  readOnly: boolean;
  /** `permissions.Spot` has `SpotTrade` */
  spotTrade: boolean;
  /** `permissions.Wallet` has `Withdraw`; null when the answer carries no permissions */
  withdraw: boolean | null;
  /** `vipLevel` ("No VIP", "VIP-1", ..., "PRO-6") */
  vipLevel: string;
  /** `uta` 1: a unified trading account (what `accountType=UNIFIED` reads) */
  unified: boolean | null;
}

/** The key's information; undefined for an error answer. */
export function decodeKeyInfo(body: unknown): BybitKeyInfo | undefined {
  const result = resultOf(body);
  if (result === undefined) return undefined;
  const permissions = typeof result['permissions'] === 'object' && result['permissions'] !== null ? (result['permissions'] as Record<string, unknown>) : undefined;
  const has = (group: string, name: string) => {
    const list = permissions?.[group];
    return Array.isArray(list) && list.includes(name);
  };
  return {
    readOnly: result['readOnly'] !== 0,
    spotTrade: has('Spot', 'SpotTrade'),
    withdraw: permissions === undefined ? null : has('Wallet', 'Withdraw'),
    vipLevel: typeof result['vipLevel'] === 'string' && result['vipLevel'] !== '' ? result['vipLevel'] : 'unknown',
    unified: result['uta'] === 1 ? true : result['uta'] === 0 ? false : null,
  };
}

/**
 * The account probe from the key's information and its fee rate (the edge's schedule when the
 * rate could not be read). It can trade spot when the key is read-write with `SpotTrade`. It
 * can withdraw when `Withdraw` is granted, whatever `readOnly` says: the flag exists to warn, and
 * a key listing the permission is flagged rather than trusted.
 */
export function accountProbeOf(key: BybitKeyInfo, rates: { maker_bps: number; taker_bps: number } | undefined, fallback: { maker_bps: number; taker_bps: number }): AccountProbe {
  const r = rates ?? fallback;
  return { tier: key.vipLevel, maker_bps: r.maker_bps, taker_bps: r.taker_bps, can_trade: !key.readOnly && key.spotTrade, can_withdraw: key.withdraw };
}
