import { exactScaled, formatScaled, parseScaled, safeNumber, scaledRounded } from '../decimal.ts';
import { idText, integerOf, isRecord } from '../json.ts';
import type { LimitRule } from '../venue-limits.ts';
import { isChildId, type AccountProbe, type AssetBalance, type LegReport, type OrderLookup, type VenueFill } from '../venue.ts';
import type { BitstampDiff } from './book-sync.ts';

/**
 * Bitstamp spot's wire formats (HTTP API v2, WebSocket API v2), decoded into the engine's
 * integers and encoded from them. Pure. Prices are 1e9, quantities 1e8. Market data and order
 * sizes parse exactly (a book never takes a level it could not read); fees and balances written
 * past our scale are rounded against us (a charge up, a balance down).
 *
 * Sources: the API reference at https://www.bitstamp.net/api/ (an OpenAPI 3 description; the
 * schemas, error tables, response codes and changelog quoted below are its text, as a markdown
 * copy of "the Official Bitstamp OpenAPI Spec (bitstamp.json)" has it), the WebSocket v2 page
 * (https://www.bitstamp.net/websocket/v2/, behind a JavaScript challenge; quoted as a
 * 2026-09-15 probe write-up of it quotes it), and, for answers the reference gives no example
 * of, the payloads ccxt's bitstamp.js documents in its comments and the ones JKorf's
 * Bitstamp.Net records in its tests.
 *
 * The API is Django behind an API gateway, and errors come in several shapes, on HTTP 200 as
 * well as 4xx/5xx (ccxt reads the body whatever the status):
 *   {"status": "error", "reason": "Invalid nonce", "code": "API0004"}            the gateway
 *   {"status": "error", "reason": {"__all__": ["Minimum order size is 5.0 EUR."]}} a form
 *   {"status": "error", "reason": {"amount": ["Ensure that ..."]}, "response_code": "400.026"}
 *   {"error": "No permission found"}                                             older views
 * See `bitstampError` and `classifyFailure`.
 */

const PRICE = 9;
const QTY = 8;

export const REST_BASE = 'https://www.bitstamp.net';
/** The reference's second server, "Test server". */
export const SANDBOX_REST_BASE = 'https://sandbox.bitstamp.net';
export const WS_URL = 'wss://ws.bitstamp.net';

// ---------------------------------------------------------------------------------------------
// Symbols

/** A market symbol as Bitstamp writes it in paths and channels: lower-case base and counter, `btcusd`. */
const VENUE_SYMBOL = /^[a-z0-9]{2,24}$/;

/** Our symbol (`BTC-USD`) as Bitstamp's `market_symbol`/`url_symbol` (`btcusd`); undefined for one that is not `BASE-QUOTE`. */
export function venueSymbolOf(symbol: string): string | undefined {
  const m = /^([A-Z0-9]+)-([A-Z0-9]+)$/.exec(symbol);
  return m === null ? undefined : `${m[1]!}${m[2]!}`.toLowerCase();
}

/** A market `name` as Bitstamp writes it (`BTC/USD`) as our symbol (`BTC-USD`); undefined otherwise (a perpetual's `BTC/USD-PERP`). */
export function symbolOfName(name: string): string | undefined {
  const m = /^([A-Z0-9]+)\/([A-Z0-9]+)$/.exec(name);
  return m === null ? undefined : `${m[1]!}-${m[2]!}`;
}

function checked(venueSymbol: string): string {
  if (!VENUE_SYMBOL.test(venueSymbol)) throw new Error(`not a Bitstamp market symbol: ${venueSymbol}`);
  return venueSymbol;
}

// ---------------------------------------------------------------------------------------------
// Readers

/** Bitstamp writes ids and stamps as JSON numbers or quoted digits; up to 16 digits, past that none is safe. */
function integer(v: unknown): number | undefined {
  return integerOf(v, 16);
}

/** `0`/`1` (string or number) as the side: "0 (buy) or 1 (sell)". */
function sideOf(v: unknown): 'buy' | 'sell' | undefined {
  return v === 0 || v === '0' ? 'buy' : v === 1 || v === '1' ? 'sell' : undefined;
}

/** Bitstamp's `datetime` ("2022-01-31 14:43:15", "2021-11-25 12:59:59.322000", "2025-10-17T14:23:01.725000Z"), UTC, as ns; undefined otherwise. */
export function datetimeNs(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?Z?$/.exec(text);
  if (m === null) return undefined;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  if (!Number.isFinite(ms)) return undefined;
  const fraction = Number((m[7] ?? '').padEnd(9, '0'));
  return ms * 1_000_000 + fraction;
}

// ---------------------------------------------------------------------------------------------
// Errors

export interface BitstampError {
  /** `code` (the gateway's `API0004`), else `response_code` (`400.009`), else '' */
  code: string;
  /** every message the body carries, flattened: `reason` (text or a form's field lists), `error`, `errors[].message`, `response_explanation` */
  messages: string[];
}

function messagesOf(v: unknown, out: string[]): void {
  if (typeof v === 'string') {
    if (v !== '') out.push(v);
  } else if (Array.isArray(v)) {
    for (const x of v as unknown[]) messagesOf(x, out);
  } else if (isRecord(v)) {
    for (const key of Object.keys(v)) messagesOf(v[key], out);
  }
}

/** The error an answer carries; undefined for a success (a list, or an object without the error markers). */
export function bitstampError(body: unknown): BitstampError | undefined {
  if (!isRecord(body)) return undefined;
  const list = body['errors'];
  const marked = body['status'] === 'error' || typeof body['error'] === 'string' || (Array.isArray(list) && list.length > 0);
  if (!marked) return undefined;
  const messages: string[] = [];
  messagesOf(body['reason'], messages);
  messagesOf(body['error'], messages);
  if (Array.isArray(list)) for (const e of list as unknown[]) if (isRecord(e)) messagesOf(e['message'], messages);
  messagesOf(body['response_explanation'], messages);
  const first = Array.isArray(list) && isRecord(list[0]) ? list[0]['code'] : undefined;
  const code = [body['code'], body['response_code'], first].find((c): c is string => typeof c === 'string' && c !== '') ?? '';
  return { code, messages };
}

/** `bitstamp <code>: <messages>`, a child's reason. */
export function reasonOf(error: BitstampError): string {
  const text = error.messages.join('; ') || 'error';
  return error.code === '' ? `bitstamp: ${text}` : `bitstamp ${error.code}: ${text}`;
}

/**
 * What an error means for a request, decided in this order:
 *   rate_limited   refused for rate: HTTP 429, response codes 400.002 "Request rejected due to
 *                  exceeded rate limit", 400.067 (client) and 400.068 (market). The limits: "all
 *                  clients can make 400 requests per second ... a default limit threshold of
 *                  10,000 requests per 10 minutes" (`LIMIT_RULES`)
 *   clock          API0017 "X-Auth-Timestamp header is out of boundaries" (150 s), API0018 its
 *                  format: refused by the gateway, nothing done
 *   nonce          API0004 "Invalid nonce" (one used in the last 300 s): refused, nothing done
 *   auth           the key, its IP whitelist, its permissions or the account (API0001 key not
 *                  found, API0002 IP not allowed, API0003 "No permission found: API key doesn't
 *                  have permission for calling this api endpoint", API0005 invalid signature,
 *                  API0006 account frozen, API0008, API0009 FATCA, API0011 key format), the
 *                  request's own auth headers (API0010, API0012 to API0016, API0019 content type
 *                  not accepted, API0020 "Content-Type header should not be present", API0021 url
 *                  too long), 403.001 "User verification failed", 403.004 "Trading is blocked
 *                  for user", and a bare 401/403 without a Bitstamp body: refused, nothing done
 *   unknown_order  the order is not there: 404.002 "Order not found for corresponding request",
 *                  "Order not found" (cancel: "Order might already be filled or canceled") and
 *                  "Order not found." (order status: also any closed order older than 30 days)
 *   fate_unknown   the venue may have acted: 500.001 unknown server error, 500.002 "One of
 *                  Bitstamp internal services failed to process request", 500.003 "Unknown error
 *                  while processing order", 500.007 "Error while serializing data", 500.013
 *                  "Unknown matching engine error", 500.016 "Your request timed out before order
 *                  confirmation. Please check order status with id in "order_id" field", 500.019
 *                  "Error at canceling orders", "Order could not be placed." ("perhaps due to
 *                  internal error or trade halt. Please retry placing order": not a promise that
 *                  nothing was placed, and since November 2023 the venue no longer refuses a
 *                  repeated client_order_id, so a retry could double the order), "Order
 *                  cancellation failed due to internal error", and any HTTP 5xx whose body names
 *                  no refusal. Look the order up by its client order id (or the `order_id` a
 *                  500.016 names) before anything else
 *   funds          400.009 "Insufficient balance for provided user", "... Check your account
 *                  balance for details."
 *   refused        anything else (400.020 below the minimum order value, 400.021 price out of
 *                  range, "Price is more than 20% above market price", 400.003 trading disabled,
 *                  the other 500.0xx market states): the order did not reach the book
 * A timeout, and a 200 answer that is unreadable or whose X-Server-Auth-Signature does not
 * verify (signing.ts `checkAnswer`), leave a write's fate unknown too: those are the caller's.
 */
export type BitstampFailure = 'rate_limited' | 'clock' | 'nonce' | 'auth' | 'unknown_order' | 'fate_unknown' | 'funds' | 'refused';

export const RATE_LIMITED_CODES: ReadonlySet<string> = new Set(['400.002', '400.067', '400.068']);
export const CLOCK_CODES: ReadonlySet<string> = new Set(['API0017', 'API0018']);
export const NONCE_CODE = 'API0004';
/** "No permission found": the key lacks the right for this endpoint (the only way the API tells a key's permissions). */
export const NO_PERMISSION_CODE = 'API0003';
export const ACCOUNT_REFUSED_CODES: ReadonlySet<string> = new Set(['403.001', '403.004']);
export const UNKNOWN_ORDER_CODES: ReadonlySet<string> = new Set(['404.002']);
export const FATE_UNKNOWN_CODES: ReadonlySet<string> = new Set(['500.001', '500.002', '500.003', '500.007', '500.013', '500.016', '500.019']);
export const FUNDS_CODES: ReadonlySet<string> = new Set(['400.009']);
/** The gateway's messages for API0001 to API0021 when a body carries the message without the code (ccxt's exact-match table). */
const AUTH_MESSAGES: ReadonlySet<string> = new Set(['api key not found', 'ip address not allowed', 'no permission found', 'invalid signature', 'your account is frozen', 'authentication failed', 'wrong api key format', 'missing key, signature and nonce parameters']);
const NO_SUCH_ORDER = /^order not found(?: for corresponding request)?\.?$/i;
const RATE_TEXT = /exceeded (?:client |market )?rate limit/i;
const FATE_TEXT = /^(?:order could not be placed\.?|order cancellation failed due to internal error.*)$/i;
const FUNDS_TEXT = /check your account balance for details|insufficient balance/i;

export function classifyFailure(httpStatus: number, error: BitstampError | undefined): BitstampFailure {
  const code = error?.code ?? '';
  const messages = error?.messages ?? [];
  const any = (re: RegExp) => messages.some((m) => re.test(m.trim()));
  if (httpStatus === 429 || RATE_LIMITED_CODES.has(code) || any(RATE_TEXT)) return 'rate_limited';
  if (CLOCK_CODES.has(code)) return 'clock';
  if (code === NONCE_CODE || (code === '' && messages.some((m) => m.trim().toLowerCase() === 'invalid nonce'))) return 'nonce';
  if (/^API00\d\d$/.test(code) || ACCOUNT_REFUSED_CODES.has(code) || messages.some((m) => AUTH_MESSAGES.has(m.trim().toLowerCase()))) return 'auth';
  if (error === undefined && (httpStatus === 401 || httpStatus === 403)) return 'auth';
  if (UNKNOWN_ORDER_CODES.has(code) || any(NO_SUCH_ORDER)) return 'unknown_order';
  if (FATE_UNKNOWN_CODES.has(code) || any(FATE_TEXT)) return 'fate_unknown';
  if (httpStatus >= 500 && (error === undefined || code === '')) return 'fate_unknown';
  if (FUNDS_CODES.has(code) || any(FUNDS_TEXT)) return 'funds';
  return 'refused';
}

/**
 * The venue's published limits as `VenueLimits` rules: "400 requests per second" (a window per
 * second) and "a default limit threshold of 10,000 requests per 10 minutes", whose window the
 * reference does not say is fixed or sliding. A fixed window aligned to the clock could let
 * twice the limit through across its boundary, so the ten minutes are counted as a counter that
 * bursts to 2,000 and then drains 8,000 per 600 s: no 10-minute span, however placed, sees more
 * than 2,000 + 8,000. (ccxt paces the same budget at 8,000 per 10 minutes.)
 */
export const LIMIT_RULES: readonly LimitRule[] = [
  { name: 'requests_1s', limit: 400, window_ms: 1_000 },
  { name: 'requests_10min', limit: 2_000, decay_per_s: 8_000 / 600 },
];

// ---------------------------------------------------------------------------------------------
// REST paths and form bodies. Every private call this service makes is a POST whose parameters
// are the form body (signed as sent); a call with no parameter sends no body at all.

export const PATHS = {
  /** "obsolete and replaced by endpoint api/v2/markets/ ... no longer guarantee ... after Dec 31st 2024" (changelog 2024-10-15) */
  tradingPairsInfo: '/api/v2/trading-pairs-info/',
  markets: '/api/v2/markets/',
  orderStatus: '/api/v2/order_status/',
  cancelOrder: '/api/v2/cancel_order/',
  /**
   * All open orders: the reference lists `POST /api/v2/open_orders/`; ccxt still calls the
   * older spelling `/api/v2/open_orders/all/`. "This API call is cached for 10 seconds": an
   * order placed or cancelled in the last 10 s may be missing or still listed.
   */
  openOrders: '/api/v2/open_orders/',
  accountBalances: '/api/v2/account_balances/',
  tradingFees: '/api/v2/fees/trading/',
} as const;

/** `GET`: the whole book, `{timestamp, microtimestamp, bids, asks}` (`group=1`, the default: one level per price). */
export function orderBookPath(venueSymbol: string): string {
  return `/api/v2/order_book/${checked(venueSymbol)}/`;
}

/** `POST`: a limit order, `buy` or `sell`. */
export function limitOrderPath(side: 'buy' | 'sell', venueSymbol: string): string {
  return `/api/v2/${side}/${checked(venueSymbol)}/`;
}

/** `POST`: a market order, `amount` in base ("For BTC/USD pair, amount is quoted in BTC"). */
export function marketOrderPath(side: 'buy' | 'sell', venueSymbol: string): string {
  return `/api/v2/${side}/market/${checked(venueSymbol)}/`;
}

/** `POST`: cancels every open order of the account on one market. */
export function cancelAllPath(venueSymbol: string): string {
  return `/api/v2/cancel_all_orders/${checked(venueSymbol)}/`;
}

/** `POST`: the open orders of one market (cached 10 s, as all of them). */
export function openOrdersPath(venueSymbol: string): string {
  return `/api/v2/open_orders/${checked(venueSymbol)}/`;
}

/** `POST`: the account's fees on one market. */
export function tradingFeePath(venueSymbol: string): string {
  return `/api/v2/fees/trading/${checked(venueSymbol)}/`;
}

/** `application/x-www-form-urlencoded`, fields in the order given (the signature covers these exact bytes). */
export function formBody(fields: readonly (readonly [string, string])[]): string {
  return fields.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}

// ---------------------------------------------------------------------------------------------
// Public WebSocket

export function diffChannel(venueSymbol: string): string {
  return `diff_order_book_${checked(venueSymbol)}`;
}

/**
 * `{"event": "bts:subscribe", "data": {"channel": ...}}` (or `bts:unsubscribe`), one channel a
 * frame. The page: at most 1,024 subscriptions a connection ("Attempting a 1025th subscription
 * causes the connection to be silently closed"), client frames "under 512 bytes". A lower-case
 * market the venue does not list is acknowledged and then silent; a wrongly written one answers
 * `bts:error` "Invalid channel provided.".
 */
export function subscriptionFrame(event: 'bts:subscribe' | 'bts:unsubscribe', channel: string): string {
  return JSON.stringify({ event, data: { channel } });
}

/**
 * The keep-alive the page documents: the venue answers `{"event": "bts:heartbeat", "channel":
 * "", "data": {"status": "success"}}`. The diff channel is silent while a book does not change
 * (up to 49 s on a quiet market in a 2026 probe), so this keeps a live socket from looking dead
 * to the 30 s watchdog; every 15 s.
 */
export const HEARTBEAT_FRAME = '{"event":"bts:heartbeat"}';
export const HEARTBEAT_EVERY_MS = 15_000;

/** A public frame, decoded; undefined for events of other channels and kinds. */
export type BitstampFrame =
  | { kind: 'diff'; venueSymbol: string; diff: BitstampDiff }
  /** a diff this codec could not read exactly: its book has missed a change (resync it) */
  | { kind: 'unreadable'; venueSymbol: string }
  | { kind: 'subscribed'; channel: string }
  | { kind: 'unsubscribed'; channel: string }
  /** `bts:request_reconnect`: the venue's maintenance notice, then "a few seconds to reconnect" */
  | { kind: 'reconnect' }
  | { kind: 'heartbeat'; ok: boolean }
  /** `bts:error`, `data: {code: null | 4009, message}` ("Incorrect JSON format.", "Bad subscription string.", "Invalid channel provided.", 4009 "Connection is unauthorized.") */
  | { kind: 'error'; channel: string; code: number | null; message: string };

/** What a diff channel's name starts with, before the market symbol. */
export const DIFF_PREFIX = 'diff_order_book_';

export function decodeFrame(frame: unknown): BitstampFrame | undefined {
  if (!isRecord(frame)) return undefined;
  const event = frame['event'];
  const channel = typeof frame['channel'] === 'string' ? frame['channel'] : '';
  switch (event) {
    case 'bts:subscription_succeeded':
      return { kind: 'subscribed', channel };
    case 'bts:unsubscription_succeeded':
      return { kind: 'unsubscribed', channel };
    case 'bts:request_reconnect':
      return { kind: 'reconnect' };
    case 'bts:heartbeat': {
      const data = frame['data'];
      return { kind: 'heartbeat', ok: isRecord(data) && data['status'] === 'success' };
    }
    case 'bts:error': {
      const data = isRecord(frame['data']) ? frame['data'] : {};
      const code = data['code'];
      return { kind: 'error', channel, code: typeof code === 'number' && Number.isInteger(code) ? code : null, message: typeof data['message'] === 'string' ? data['message'] : '' };
    }
    case 'data':
      break;
    default:
      return undefined;
  }
  if (!channel.startsWith(DIFF_PREFIX)) return undefined;
  const venueSymbol = channel.slice(DIFF_PREFIX.length);
  const d = frame['data'];
  if (!isRecord(d)) return { kind: 'unreadable', venueSymbol };
  const micro = integer(d['microtimestamp']);
  const bids = levels(d['bids']);
  const asks = levels(d['asks']);
  if (micro === undefined || bids === undefined || asks === undefined) return { kind: 'unreadable', venueSymbol };
  const seconds = integer(d['timestamp']);
  return { kind: 'diff', venueSymbol, diff: { microtimestamp: micro, bids, asks, ts_ms: seconds === undefined ? Math.floor(micro / 1_000) : seconds * 1_000 } };
}

/**
 * `[[price, amount], ...]` into flat pairs; undefined on any level it cannot read exactly. An
 * amount of zero removes the level, written at the market's size precision (`"0.00000000"`) or
 * as `"0"`: it is the number that counts. A third element (an order id, in some old captures)
 * is ignored.
 */
function levels(raw: unknown): number[] | undefined {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) return undefined;
  const out = new Array<number>(raw.length * 2);
  for (let i = 0; i < raw.length; i++) {
    const level = raw[i] as unknown;
    if (!Array.isArray(level)) return undefined;
    const price = exactScaled(level[0], PRICE);
    const qty = exactScaled(level[1], QTY);
    if (!(price > 0) || !(qty >= 0)) return undefined;
    out[2 * i] = price;
    out[2 * i + 1] = qty;
  }
  return out;
}

/** `GET /api/v2/order_book/{pair}/`: `microtimestamp` and both sides best first; undefined when anything cannot be read exactly. */
export function decodeOrderBook(body: unknown): { microtimestamp: number; bids: number[]; asks: number[] } | undefined {
  if (!isRecord(body) || bitstampError(body) !== undefined) return undefined;
  const micro = integer(body['microtimestamp']);
  const bids = levels(body['bids']);
  const asks = levels(body['asks']);
  if (micro === undefined || bids === undefined || asks === undefined) return undefined;
  return { microtimestamp: micro, bids, asks };
}

// ---------------------------------------------------------------------------------------------
// Instruments

/** A spot market's trading rules, in engine units. */
export interface BitstampInstrument {
  /** ours, `BTC-USD` */
  symbol: string;
  /** Bitstamp's, in paths and channels: `btcusd` */
  venueSymbol: string;
  base: string;
  quote: string;
  /** `trading` "Enabled" */
  trading: boolean;
  /** `instant_and_market_orders` "Enabled": market orders are taken */
  market_orders: boolean;
  /** "Decimal precision for base currency": amounts carry at most this many decimals */
  base_decimals: number;
  /** "Decimal precision for counter currency": prices carry at most this many decimals */
  counter_decimals: number;
  /** one unit of the last price decimal (or `tick_size` where the market gives one) */
  tick_1e9: number;
  /** one unit of the last amount decimal */
  lot_1e8: number;
  /** the smallest order value, in the counter currency x 1e9 (`minimum_order_value`, or `minimum_order` "20.0 USD") */
  min_value_1e9: number;
  /** `minimum_order_amount`, base (0 when not given) */
  min_qty_1e8: number;
}

function instrumentOf(raw: Record<string, unknown>, venueSymbol: unknown, base: string, quote: string, minValueText: string | undefined): BitstampInstrument | undefined {
  const bd = raw['base_decimals'];
  const cd = raw['counter_decimals'];
  if (typeof venueSymbol !== 'string' || !VENUE_SYMBOL.test(venueSymbol)) return undefined;
  if (!Number.isInteger(bd) || !Number.isInteger(cd) || (bd as number) < 0 || (bd as number) > QTY || (cd as number) < 0 || (cd as number) > PRICE) return undefined;
  const tickText = raw['tick_size'];
  const tick = typeof tickText === 'string' ? parseScaled(tickText, PRICE) : 10 ** (PRICE - (cd as number));
  if (!(tick > 0)) return undefined;
  const minValue = minValueText === undefined ? 0 : safeNumber(scaledRounded(minValueText, PRICE, 'ceil'));
  const minQty = typeof raw['minimum_order_amount'] === 'string' ? safeNumber(scaledRounded(raw['minimum_order_amount'], QTY, 'ceil')) : 0;
  return {
    symbol: `${base}-${quote}`,
    venueSymbol,
    base,
    quote,
    trading: raw['trading'] === 'Enabled',
    market_orders: raw['instant_and_market_orders'] === 'Enabled',
    base_decimals: bd as number,
    counter_decimals: cd as number,
    tick_1e9: tick,
    lot_1e8: 10 ** (QTY - (bd as number)),
    min_value_1e9: minValue >= 0 ? minValue : 0,
    min_qty_1e8: minQty >= 0 ? minQty : 0,
  };
}

/**
 * `GET /api/v2/trading-pairs-info/`: `{name: "BTC/USD", url_symbol: "btcusd", base_decimals: 8,
 * counter_decimals: 2, minimum_order: "20.0 USD", trading: "Enabled", instant_and_market_orders:
 * "Enabled", description}` (ccxt's capture). `minimum_order` names its currency, which must be
 * the counter's. Markets our scales cannot hold (amounts past 8 decimals, prices past 9) are
 * left out.
 */
export function decodeTradingPairsInfo(body: unknown): BitstampInstrument[] {
  if (!Array.isArray(body)) return [];
  const out: BitstampInstrument[] = [];
  for (const raw of body as unknown[]) {
    if (!isRecord(raw) || typeof raw['name'] !== 'string') continue;
    const symbol = symbolOfName(raw['name']);
    if (symbol === undefined) continue;
    const [base, quote] = symbol.split('-') as [string, string];
    let minValue: string | undefined;
    if (typeof raw['minimum_order'] === 'string') {
      const m = /^(\d+(?:\.\d+)?)\s+([A-Za-z0-9]+)$/.exec(raw['minimum_order'].trim());
      if (m !== null && m[2]!.toUpperCase() === quote) minValue = m[1];
    }
    const instrument = instrumentOf(raw, raw['url_symbol'], base, quote, minValue);
    if (instrument !== undefined) out.push(instrument);
  }
  return out;
}

/**
 * `GET /api/v2/markets/`, the listing that replaces trading-pairs-info: `{name, market_symbol,
 * base_currency, counter_currency, base_decimals, counter_decimals, minimum_order_value,
 * minimum_order_amount?, trading, instant_and_market_orders, market_type, tick_size?}`. Only
 * `market_type` "SPOT" (or none, as before perpetuals existed): perpetuals are `-PERP` markets.
 */
export function decodeMarkets(body: unknown): BitstampInstrument[] {
  if (!Array.isArray(body)) return [];
  const out: BitstampInstrument[] = [];
  for (const raw of body as unknown[]) {
    if (!isRecord(raw)) continue;
    if (raw['market_type'] !== undefined && raw['market_type'] !== 'SPOT') continue;
    const { base_currency: base, counter_currency: quote } = raw;
    if (typeof base !== 'string' || typeof quote !== 'string' || !/^[A-Z0-9]+$/.test(base) || !/^[A-Z0-9]+$/.test(quote)) continue;
    const minValue = typeof raw['minimum_order_value'] === 'string' ? raw['minimum_order_value'] : undefined;
    const instrument = instrumentOf(raw, raw['market_symbol'], base, quote, minValue);
    if (instrument !== undefined) out.push(instrument);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Client order ids

/**
 * `client_order_id`: "Client order ID set by the client for internal reference. It should be
 * unique, but there are no additional constraints or checks guaranteed on the field by
 * Bitstamp"; cancel and replace refuse one of more than 180 characters. No character set is
 * documented: the form encoding carries any, and printable ASCII is kept here. Since November
 * 2023 the venue no longer refuses a repeated one (changelog 2023-10-12): it identifies an order
 * only because this service never sends a child twice.
 */
export const CLIENT_ORDER_ID = /^[\x21-\x7e]{1,180}$/;

/** Our child id (`ord_<16>-<n>`, 22 characters and more) as the `client_order_id`, unchanged; undefined for any other id. */
export function bitstampClientOrderId(childId: string): string | undefined {
  return isChildId(childId) && CLIENT_ORDER_ID.test(childId) ? childId : undefined;
}

/** The child id of an order on the venue; undefined for one this service did not place. */
export function childIdOfBitstamp(clientOrderId: unknown): string | undefined {
  return typeof clientOrderId === 'string' && CLIENT_ORDER_ID.test(clientOrderId) && isChildId(clientOrderId) ? clientOrderId : undefined;
}

// ---------------------------------------------------------------------------------------------
// Orders

/** A child's amount and price as the market takes them. */
export interface OrderTerms {
  amount_1e8: number;
  /** null: a market order */
  price_1e9: number | null;
}

/**
 * A child's terms on the market: the amount down to `base_decimals` (never more than asked),
 * the limit to the tick toward the passive side (a buy down, a sell up: never beyond the SOR's
 * limit), refused below `minimum_order_amount` or, priced, below the minimum order value (the
 * venue would refuse: 400.020 "Provided order size is lower than minimum order value"). A
 * market order's value is the caller's to check.
 */
export function orderTerms(instrument: BitstampInstrument, side: 'buy' | 'sell', qty_1e8: number, limit_1e9: number | null): { ok: true; terms: OrderTerms } | { ok: false; reason: string } {
  const amount = qty_1e8 - (qty_1e8 % instrument.lot_1e8);
  if (!(amount > 0)) return { ok: false, reason: `below Bitstamp's amount precision for ${instrument.venueSymbol} (${formatScaled(instrument.lot_1e8, QTY)})` };
  if (amount < instrument.min_qty_1e8) return { ok: false, reason: `below Bitstamp's minimum order amount for ${instrument.venueSymbol} (${formatScaled(instrument.min_qty_1e8, QTY)})` };
  if (limit_1e9 === null) return { ok: true, terms: { amount_1e8: amount, price_1e9: null } };
  const rest = limit_1e9 % instrument.tick_1e9;
  const price = rest === 0 ? limit_1e9 : side === 'buy' ? limit_1e9 - rest : limit_1e9 - rest + instrument.tick_1e9;
  if (!(price > 0)) return { ok: false, reason: `limit below Bitstamp's price tick for ${instrument.venueSymbol}` };
  if (BigInt(amount) * BigInt(price) < BigInt(instrument.min_value_1e9) * 10n ** BigInt(QTY)) {
    return { ok: false, reason: `below Bitstamp's minimum order value for ${instrument.venueSymbol} (${formatScaled(instrument.min_value_1e9, PRICE)} ${instrument.quote})` };
  }
  return { ok: true, terms: { amount_1e8: amount, price_1e9: price } };
}

/**
 * The form body of `POST /api/v2/{buy,sell}/{pair}/` (priced) or `/{buy,sell}/market/{pair}/`
 * (unpriced) for a child; undefined when the child id cannot be a `client_order_id`. A limit
 * order rests until cancelled unless `ioc_order=True` ("Any portion of an IOC order that cannot
 * be filled immediately will be cancelled"); only one of `daily_order`, `ioc_order`, `fok_order`,
 * `moc_order`, `gtd_order` may be set (400.024). `True` is the spelling the reference gives for
 * its boolean form fields (`omit_transactions`: "Possible value: True"). Amounts and prices
 * carry no more decimals than the market's (`orderTerms`), else "Ensure that there are no more
 * than N decimal places".
 */
export function orderBody(childId: string, terms: OrderTerms, tif: 'ioc' | 'gtc'): string | undefined {
  const clientOrderId = bitstampClientOrderId(childId);
  if (clientOrderId === undefined || !(terms.amount_1e8 > 0)) return undefined;
  const fields: [string, string][] = [['amount', formatScaled(terms.amount_1e8, QTY)]];
  if (terms.price_1e9 !== null) {
    if (!(terms.price_1e9 > 0)) return undefined;
    fields.push(['price', formatScaled(terms.price_1e9, PRICE)]);
    if (tif === 'ioc') fields.push(['ioc_order', 'True']);
  }
  fields.push(['client_order_id', clientOrderId]);
  return formBody(fields);
}

/** An order as `POST /api/v2/order_status/` and `/cancel_order/` name it: Bitstamp's `id`, or our `client_order_id`. */
export type OrderRef = { id: string } | { client_order_id: string };

/**
 * The form body of `POST /api/v2/order_status/`: "Order can be fetched by using either id or
 * client_order_id parameter". `omit_transactions=True` leaves the fills out (what is left and
 * the status say whether anything more executed).
 */
export function orderStatusBody(ref: OrderRef, omitTransactions = false): string {
  const fields: [string, string][] = ['id' in ref ? ['id', ref.id] : ['client_order_id', ref.client_order_id]];
  if (omitTransactions) fields.push(['omit_transactions', 'True']);
  return formBody(fields);
}

/** The form body of `POST /api/v2/cancel_order/`: by `id` or by `client_order_id` (both are request fields). */
export function cancelOrderBody(ref: OrderRef): string {
  return formBody(['id' in ref ? ['id', ref.id] : ['client_order_id', ref.client_order_id]]);
}

/** What a placement answered. */
export type BitstampOrderAck =
  | {
      ok: true;
      /** Bitstamp's order id, as text */
      id: string;
      client_order_id: string | null;
      side: 'buy' | 'sell' | null;
      price_1e9: number;
      amount_1e8: number;
      ts_ns: number;
    }
  | { ok: false; failure: BitstampFailure; error: BitstampError; reason: string };

/**
 * `POST /api/v2/{buy,sell}/{pair}/` (and `/market/`): `{id, market: "BTC/USD", datetime, type:
 * "0"|"1", price, amount, client_order_id}` ("client_order_id ... Only returned if parameter was
 * used in request"). The answer is an acknowledgement only: it carries no fills, and an IOC's
 * fills are read back with `order_status`. Undefined for a body that is neither an order nor an
 * error (the write's fate is then unknown).
 */
export function decodeOrderAck(httpStatus: number, body: unknown): BitstampOrderAck | undefined {
  const error = bitstampError(body);
  if (error !== undefined) return { ok: false, failure: classifyFailure(httpStatus, error), error, reason: reasonOf(error) };
  if (!isRecord(body) || httpStatus < 200 || httpStatus >= 300) return undefined;
  const id = idText(body['id']);
  const price = exactScaled(body['price'], PRICE);
  const amount = exactScaled(body['amount'], QTY);
  if (id === undefined || !(price >= 0) || !(amount > 0)) return undefined;
  const client = typeof body['client_order_id'] === 'string' && body['client_order_id'] !== '' ? body['client_order_id'] : null;
  return { ok: true, id, client_order_id: client, side: sideOf(body['type']) ?? null, price_1e9: price, amount_1e8: amount, ts_ns: datetimeNs(body['datetime']) ?? 0 };
}

/** Order states of `order_status` ("Open, Finished, Expired or Canceled"), the cancel answer's "Cancel pending", and ccxt's "In Queue". */
export const ORDER_STATUSES: ReadonlySet<string> = new Set(['Open', 'In Queue', 'Cancel pending', 'Finished', 'Canceled', 'Expired']);

/** `POST /api/v2/order_status/`, in engine units. */
export interface BitstampOrder {
  id: string;
  client_order_id: string | null;
  child_id: string | null;
  status: string;
  /** still working: `Open`, `In Queue`, `Cancel pending` (until the cancel is done it may still fill) */
  working: boolean;
  /** `amount_remaining`: what is not filled (cancelled, or resting while working) */
  remaining_1e8: number;
  /** what rests on the book: `amount_remaining` while working, else 0 */
  resting_qty_1e8: number;
  /** the order's fills, oldest first (empty when asked with `omit_transactions`) */
  fills: VenueFill[];
}

/**
 * How a fill's liquidity is told: `order_status` transactions carry no maker/taker flag (the
 * reference's OrderTransaction: tid, price, the two amounts, fee, datetime, type). An IOC child
 * never rests, so it never makes. A resting child's fill is a maker fill when its fee is nearer
 * what the account's maker rate charges than what its taker rate does; with equal (or unknown)
 * rates the label cannot be told and it is booked as taker (the charge is the same either way).
 */
export interface LiquidityHint {
  tif: 'ioc' | 'gtc';
  rates?: { maker_bps: number; taker_bps: number };
}

function isMakerFill(hint: LiquidityHint, price_1e9: number, qty_1e8: number, fee_1e9: number): boolean {
  const rates = hint.rates;
  if (hint.tif === 'ioc' || rates === undefined || rates.maker_bps === rates.taker_bps) return false;
  // price_1e9 x qty_1e8 is the notional x 1e17, and a rate's fee is the notional x bps / 1e4:
  // both sides in 1e-21 of the counter currency (bps to 1e-4, the finest the venue writes).
  const notional = BigInt(price_1e9) * BigInt(qty_1e8);
  const fee = BigInt(fee_1e9) * 10n ** 12n;
  const at = (bps: number) => (notional * BigInt(Math.round(bps * 10_000))) / 10_000n;
  const dist = (x: bigint) => (x > fee ? x - fee : fee - x);
  return dist(at(rates.maker_bps)) < dist(at(rates.taker_bps));
}

/**
 * An order-status row (`{tid, price, fee, datetime, type: 2, <base>: amount, <counter>:
 * amount}`, the amounts keyed by the lower-case currency codes: `"eth": "0.00500000", "usdt":
 * "22.25625000"`) as a fill. `fee` is in the counter currency (ccxt books it so), which is our
 * quote and USD here, rounded up past 1e-9. The counter amount (written to 16 decimals at times)
 * is not used: price x quantity is. Undefined when unreadable.
 */
function fillOf(t: Record<string, unknown>, base: string, hint: LiquidityHint): VenueFill | undefined {
  const tid = idText(t['tid']);
  const price_1e9 = exactScaled(t['price'], PRICE);
  const amount = t[base.toLowerCase()];
  const qtyText = typeof amount === 'string' ? amount.replace(/^-/, '') : undefined;
  const qty_1e8 = qtyText === undefined ? NaN : parseScaled(qtyText, QTY);
  const feeText = typeof t['fee'] === 'string' && t['fee'] !== '' ? t['fee'] : '0';
  const fee_1e9 = safeNumber(scaledRounded(feeText, PRICE, 'ceil'));
  const ts_ns = datetimeNs(t['datetime']);
  if (tid === undefined || !(price_1e9 > 0) || !(qty_1e8 > 0) || Number.isNaN(fee_1e9) || ts_ns === undefined) return undefined;
  return { price_1e9, qty_1e8, trade_id: tid, ts_ns, fee_1e9, is_maker: isMakerFill(hint, price_1e9, qty_1e8, fee_1e9) };
}

/**
 * `POST /api/v2/order_status/`: `{id, datetime, type, status, market, amount_remaining,
 * client_order_id?, transactions: [...]}`. Rows of another `type` than 2 (market trade) are
 * not fills and are left out. Undefined for an error answer (see `bitstampError`: "Order not
 * found." is `unknown_order`) or anything unreadable.
 */
export function decodeOrderStatus(body: unknown, pair: { base: string }, hint: LiquidityHint): BitstampOrder | undefined {
  if (!isRecord(body) || bitstampError(body) !== undefined) return undefined;
  const id = idText(body['id']);
  const status = body['status'];
  const remaining = exactScaled(body['amount_remaining'], QTY);
  if (id === undefined || typeof status !== 'string' || !ORDER_STATUSES.has(status) || !(remaining >= 0)) return undefined;
  const rows = body['transactions'] === undefined || body['transactions'] === null ? [] : body['transactions'];
  if (!Array.isArray(rows)) return undefined;
  const fills: VenueFill[] = [];
  for (const row of rows as unknown[]) {
    if (!isRecord(row)) return undefined;
    if (row['type'] !== undefined && row['type'] !== 2 && row['type'] !== '2') continue;
    const fill = fillOf(row, pair.base, hint);
    if (fill === undefined) return undefined;
    fills.push(fill);
  }
  fills.sort((a, b) => a.ts_ns - b.ts_ns || (a.trade_id.length - b.trade_id.length || (a.trade_id < b.trade_id ? -1 : a.trade_id > b.trade_id ? 1 : 0)));
  const client = typeof body['client_order_id'] === 'string' && body['client_order_id'] !== '' ? body['client_order_id'] : null;
  const working = status === 'Open' || status === 'In Queue' || status === 'Cancel pending';
  return { id, client_order_id: client, child_id: childIdOfBitstamp(client) ?? null, status, working, remaining_1e8: remaining, resting_qty_1e8: working ? remaining : 0, fills };
}

/** What of a child of `qty_1e8` has executed, from what is left (order_status gives no original amount). */
export function executedOf(order: BitstampOrder, qty_1e8: number): number {
  return Math.max(0, qty_1e8 - order.remaining_1e8);
}

/** A child's report from its order. */
export function legReportOf(order: BitstampOrder): LegReport {
  return { ok: true, reason: null, fills: order.fills, resting_qty_1e8: order.resting_qty_1e8 };
}

/**
 * A child looked up by its client order id, from the order-status answer: found, not found
 * (`unknown_order`: never received, or closed more than 30 days ago), or, for any other error
 * or an unreadable body, undefined (ask again later; nothing is concluded).
 */
export function decodeLookup(httpStatus: number, body: unknown, pair: { base: string }, hint: LiquidityHint): OrderLookup | undefined {
  const error = bitstampError(body);
  if (error !== undefined) return classifyFailure(httpStatus, error) === 'unknown_order' ? { found: false } : undefined;
  const order = decodeOrderStatus(body, pair, hint);
  return order === undefined ? undefined : { found: true, report: legReportOf(order) };
}

/**
 * `POST /api/v2/cancel_order/`: `{id, amount, price, type, market, status}`, `status`
 * "Canceled", or "Cancel pending" for a repeated cancel of an order still being cancelled
 * (changelog 2025-10-23). The reference calls `amount` the "Order amount" without saying
 * whether it is what was cancelled or what was ordered: what rested is read from the order's
 * status (`amount_remaining` of a Canceled order). Undefined for an error or unreadable body.
 */
export function decodeCancel(body: unknown): { id: string; amount_1e8: number; status: string | null } | undefined {
  if (!isRecord(body) || bitstampError(body) !== undefined) return undefined;
  const id = idText(body['id']);
  const amount = exactScaled(body['amount'], QTY);
  if (id === undefined || !(amount >= 0)) return undefined;
  return { id, amount_1e8: amount, status: typeof body['status'] === 'string' ? body['status'] : null };
}

/** `POST /api/v2/cancel_all_orders/{pair}/`: `{canceled: [{id, amount, price, type, market}], success}` ("true if all orders were successfully canceled"). */
export function decodeCancelAll(body: unknown): { success: boolean; ids: string[] } | undefined {
  if (!isRecord(body) || bitstampError(body) !== undefined || !Array.isArray(body['canceled'])) return undefined;
  const ids: string[] = [];
  for (const row of body['canceled'] as unknown[]) {
    const id = isRecord(row) ? idText(row['id']) : undefined;
    if (id === undefined) return undefined;
    ids.push(id);
  }
  return { success: body['success'] === true, ids };
}

/** An open order (`POST /api/v2/open_orders/`), in engine units. */
export interface BitstampOpenOrder {
  id: string;
  client_order_id: string | null;
  /** our child id, when the order is ours */
  child_id: string | null;
  /** ours, from `market` ("BTC/USD") or the deprecated `currency_pair` */
  symbol: string;
  side: 'buy' | 'sell';
  price_1e9: number;
  /** `amount`: "Remaining amount" */
  remaining_1e8: number;
}

/** The open-orders answer, every market's; undefined for an error or an unreadable row. */
export function decodeOpenOrders(body: unknown): BitstampOpenOrder[] | undefined {
  if (!Array.isArray(body)) return undefined;
  const out: BitstampOpenOrder[] = [];
  for (const row of body as unknown[]) {
    if (!isRecord(row)) return undefined;
    const id = idText(row['id']);
    const name = typeof row['market'] === 'string' ? row['market'] : row['currency_pair'];
    const symbol = typeof name === 'string' ? symbolOfName(name) : undefined;
    const side = sideOf(row['type']);
    const price = exactScaled(row['price'], PRICE);
    const remaining = exactScaled(row['amount'], QTY);
    if (id === undefined || symbol === undefined || side === undefined || !(price >= 0) || !(remaining >= 0)) return undefined;
    const client = typeof row['client_order_id'] === 'string' && row['client_order_id'] !== '' ? row['client_order_id'] : null;
    out.push({ id, client_order_id: client, child_id: childIdOfBitstamp(client) ?? null, symbol, side, price_1e9: price, remaining_1e8: remaining });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Account

/**
 * `POST /api/v2/account_balances/`: `[{currency: "usdt", total, available, reserved}]`, the
 * currency in lower case. As our asset names (upper case), every row kept (an asset sold out
 * must reach the ledger as 0): free = `available`, locked = `total` - `available`, so free +
 * locked is the venue's total ("Total balance on exchange") even when something besides open
 * orders holds part of it. Exact as bigints (a large stablecoin account passes 2^53 in 1e8
 * units) and rounded down past 8 places: never more than the account holds.
 */
export function decodeAccountBalances(body: unknown): AssetBalance[] | undefined {
  if (!Array.isArray(body)) return undefined;
  const out: AssetBalance[] = [];
  for (const row of body as unknown[]) {
    if (!isRecord(row) || typeof row['currency'] !== 'string' || typeof row['total'] !== 'string' || typeof row['available'] !== 'string') return undefined;
    const total = scaledRounded(row['total'], QTY, 'floor');
    const available = scaledRounded(row['available'], QTY, 'floor');
    if (total === undefined || available === undefined || total < 0n || available < 0n) return undefined;
    const free = available < total ? available : total;
    out.push({ asset: row['currency'].toUpperCase(), free_1e8: free, locked_1e8: total - free });
  }
  return out;
}

/** A rate in percent ("0.15000", "0.075") as basis points, exactly: percent x 100. NaN when unreadable. */
function percentBps(v: unknown): number {
  if (typeof v !== 'string') return NaN;
  // 1e-6 % is 1e-4 bps: the venue writes 5 decimals of percent.
  const millionths = parseScaled(v, 6);
  return Number.isNaN(millionths) ? NaN : millionths / 10_000;
}

/**
 * `POST /api/v2/fees/trading/` (every market) or `/fees/trading/{pair}/` (one): `{market:
 * "btcusd", currency_pair (deprecated), fees: {maker: "0.15000", taker: "0.16000"}}`, in percent,
 * as bps by market symbol. Undefined for an error or an unreadable row.
 */
export function decodeTradingFees(body: unknown): Map<string, { maker_bps: number; taker_bps: number }> | undefined {
  if (bitstampError(body) !== undefined) return undefined;
  const rows = Array.isArray(body) ? (body as unknown[]) : [body];
  const out = new Map<string, { maker_bps: number; taker_bps: number }>();
  for (const row of rows) {
    if (!isRecord(row) || !isRecord(row['fees'])) return undefined;
    const market = typeof row['market'] === 'string' ? row['market'] : row['currency_pair'];
    const maker_bps = percentBps(row['fees']['maker']);
    const taker_bps = percentBps(row['fees']['taker']);
    if (typeof market !== 'string' || Number.isNaN(maker_bps) || Number.isNaN(taker_bps)) return undefined;
    out.set(market.toLowerCase(), { maker_bps, taker_bps });
  }
  return out;
}

/**
 * The account probe. No endpoint tells what a key may do: the reference has no key-information
 * call (only `revoke_all_api_keys` and `websockets_token` touch keys), and `GET
 * /api/v2/my_markets/` lists the markets the account may trade, not the key's rights. A call the
 * key may not make answers API0003 "No permission found". So `can_trade` is what the caller
 * has seen (false once an order call answered API0003, 403.004 or 403.001; true otherwise) and
 * `can_withdraw` is unknown.
 */
export function probeOf(rates: { maker_bps: number; taker_bps: number } | undefined, fallback: { maker_bps: number; taker_bps: number }, canTrade: boolean): AccountProbe {
  const { maker_bps, taker_bps } = rates ?? fallback;
  return { tier: `maker ${maker_bps} bps / taker ${taker_bps} bps`, maker_bps, taker_bps, can_trade: canTrade, can_withdraw: null };
}
