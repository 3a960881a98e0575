import { decimalOf, divRounded, formatScaled, parseScaled, safeNumber, scaledRounded } from '../decimal.ts';
import { integerOf, record, str } from '../json.ts';
import { isChildId, limitOnTick, type AccountProbe, type AssetBalance, type LegReport, type VenueFill } from '../venue.ts';
import type { CoinbaseL2Event } from './book-sync.ts';

/**
 * Coinbase Advanced Trade (spot) wire formats, decoded into the engine's integers and encoded
 * from them. Pure. Prices are 1e9, quantities 1e8. Field names and shapes are those of the
 * Advanced Trade API reference (https://docs.cdp.coinbase.com/api-reference/advanced-trade-api/,
 * its OpenAPI `RetailBrokerageApi_*` operations and the AsyncAPI WebSocket channels) and of
 * Coinbase's own SDK (github.com/coinbase/coinbase-advanced-py, v1.8.4), which mirrors them.
 *
 * Market data and order sizes parse exactly (a book never takes a level it could not read);
 * fees and balances Coinbase writes past our scale are rounded against us: a charge up, a
 * balance down. Every REST path is under `/api/v3/brokerage`; requests are signed with a JWT per
 * request (`jwt.ts`), public `market/` endpoints need none.
 *
 * REST answers and what they say about an order's fate (`coinbaseError`, `createOrderOutcome`,
 * `decodeCancel`):
 *
 *   answer                                               lookup / cancel        placement
 *   200 `{success: true, success_response: {order_id}}`  -                      placed
 *   200 `{success: false, error_response: {error, ...}}` -                      refused (not created)
 *   404 `{error: "NOT_FOUND", message, error_details}`   no such order          refused
 *   `{error: "unknown", message: "order with this orderID was not found"}`  no such order
 *   cancel row `failure_reason: UNKNOWN_CANCEL_ORDER`    no such order          -
 *   cancel row `ORDER_IS_FULLY_FILLED`                   nothing rests          -
 *   400 `{error: "INVALID_ARGUMENT", ...}`               refused                refused
 *   401 (often a bare `Unauthorized` text), 403          refused (auth)         refused
 *     (`PERMISSION_DENIED`, "Missing required scopes")
 *   429                                                  refused (rate limit)   refused
 *   408, 5xx, or a 2xx body that is not the answer       fate unknown           fate unknown
 *
 * Error bodies come in two shapes, both read: the Advanced Trade one `{error, message,
 * error_details}` (also inside a refused order's `error_response`, with `preview_failure_reason`
 * and `new_order_failure_reason`) and the gateway's `{error, code, message, details}`.
 */

const PRICE = 9;
const QTY = 8;

/** Every Advanced Trade REST path starts here. */
export const API = '/api/v3/brokerage';

/** The market data WebSocket (level2, heartbeats; no authentication needed for either). */
export const MARKET_WS_URL = 'wss://advanced-trade-ws.coinbase.com';

/** Our symbol (`BTC-USD`) is Coinbase's product id as is. */
export function productIdOf(symbol: string): string {
  return symbol;
}

// ---------------------------------------------------------------------------------------------
// Time

const RFC3339 = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * An RFC 3339 time (`2023-02-09T20:32:50.714964855Z`: Coinbase writes up to nanoseconds) as Unix
 * nanoseconds; null when it is not one. The result is a double past 2^53, as every `ts_ns` here
 * is: the nearest one to the exact count (within 128 ns today).
 */
export function rfc3339Ns(text: string): number | null {
  const m = RFC3339.exec(text);
  if (m === null) return null;
  const zone = m[4] === 'z' ? 'Z' : m[4]!;
  const ms = Date.parse(`${m[1]!}T${m[2]!}${zone}`);
  if (!Number.isFinite(ms)) return null;
  const frac = (m[3] ?? '').slice(0, 9).padEnd(9, '0');
  // Summed exactly, then rounded once to the nearest double.
  return Number(BigInt(ms) * 1_000_000n + BigInt(frac));
}

// ---------------------------------------------------------------------------------------------
// WebSocket: subscriptions

/**
 * A subscribe or unsubscribe message: one channel per message (the docs: "You can only subscribe
 * to one channel per subscription message"), the products, and `jwt` when given (a token from
 * `wsJwt`, fresh per message). Market data channels take no token: a public subscription leaves
 * the field out. A channel subscribed with no products (heartbeats) leaves `product_ids` out, as
 * the docs' heartbeats request does; unsubscribing a channel with no products drops it entirely.
 */
export function subscription(type: 'subscribe' | 'unsubscribe', channel: string, productIds: readonly string[], jwt?: string): string {
  const msg: Record<string, unknown> = { type };
  if (productIds.length > 0) msg['product_ids'] = productIds;
  msg['channel'] = channel;
  if (jwt !== undefined) msg['jwt'] = jwt;
  return JSON.stringify(msg);
}

/** The `level2` subscription (answered on channel `l2_data`). */
export function level2Subscription(type: 'subscribe' | 'unsubscribe', productIds: readonly string[], jwt?: string): string {
  return subscription(type, 'level2', productIds, jwt);
}

/**
 * The `heartbeats` subscription: a message every second ("Most channels close within 60-90
 * seconds if no updates are sent. Subscribe to heartbeats to keep all subscriptions open"), and
 * the connection must send a subscription within 5 seconds of opening or be closed: the adapter
 * sends this first, on every connection.
 */
export function heartbeatsSubscription(type: 'subscribe' | 'unsubscribe' = 'subscribe', jwt?: string): string {
  return subscription(type, 'heartbeats', [], jwt);
}

// ---------------------------------------------------------------------------------------------
// WebSocket: messages

/** The `l2_data` part of a message. */
export interface CoinbaseL2Message {
  /** one entry per readable product event, in order */
  events: CoinbaseL2Event[];
  /** products whose event could not be read exactly: their books are no longer known (resubscribe) */
  unreadable: string[];
  /**
   * The message cannot be trusted as a whole (an event without a product id, or no readable
   * `sequence_num`): which book it changed is unknown, so every book on the connection is (treat
   * it as a connection gap).
   */
  broken: boolean;
}

/**
 * A decoded frame of the market data connection. Every message has the envelope `{channel,
 * client_id, timestamp, sequence_num, events}`; errors come as `{type: "error", message}` with no
 * sequence number.
 */
export interface CoinbaseWsMessage {
  /** `l2_data`, `heartbeats`, `subscriptions`, ... as sent; `error` for an error frame */
  channel: string;
  /** `sequence_num`, for the connection's `SequenceGate`; null when absent (error frames) or unreadable */
  seq: number | null;
  /** the envelope's `timestamp` in ns; null when absent */
  ts_ns: number | null;
  l2?: CoinbaseL2Message;
  /** heartbeats: `heartbeat_counter` (the docs print it as a string, captures as a number) */
  heartbeat?: { counter: number | null };
  /** subscriptions: the channels now subscribed and their products, `{level2: ["BTC-USD"], heartbeats: []}` */
  subscriptions?: Record<string, string[]>;
  /** an error frame's message ("failure to subscribe", ...) */
  error?: string;
}

/**
 * A market data frame, parsed JSON. The sequence number is read from every message whatever its
 * channel, even one whose payload is unreadable: the gate must see every number. Undefined only
 * for what is not a Coinbase envelope at all (not an object, no `channel` and no error `type`).
 */
export function decodeWsMessage(frame: unknown): CoinbaseWsMessage | undefined {
  const f = record(frame);
  if (f === undefined) return undefined;
  if (f['type'] === 'error') return { channel: 'error', seq: null, ts_ns: null, error: str(f['message']) ?? '' };
  const channel = str(f['channel']);
  if (channel === undefined) return undefined;
  const seqRaw = f['sequence_num'];
  const seq = typeof seqRaw === 'number' && Number.isSafeInteger(seqRaw) && seqRaw >= 0 ? seqRaw : null;
  const ts_ns = typeof f['timestamp'] === 'string' ? rfc3339Ns(f['timestamp']) : null;
  const events = Array.isArray(f['events']) ? (f['events'] as unknown[]) : [];
  const out: CoinbaseWsMessage = { channel, seq, ts_ns };
  if (channel === 'l2_data') out.l2 = l2Message(events, seq === null);
  else if (channel === 'heartbeats') out.heartbeat = { counter: integerOf(record(events[0])?.['heartbeat_counter']) ?? null };
  else if (channel === 'subscriptions') out.subscriptions = subscriptionsOf(record(events[0])?.['subscriptions']);
  return out;
}

function l2Message(events: readonly unknown[], noSeq: boolean): CoinbaseL2Message {
  const out: CoinbaseL2Message = { events: [], unreadable: [], broken: noSeq };
  for (const raw of events) {
    const e = record(raw);
    const product = str(e?.['product_id']);
    if (e === undefined || product === undefined || product === '') {
      out.broken = true;
      continue;
    }
    const event = l2Event(e, product);
    if (event === undefined) out.unreadable.push(product);
    else out.events.push(event);
  }
  return out;
}

/** One product's event; undefined when any of its entries cannot be read exactly. */
function l2Event(e: Record<string, unknown>, product_id: string): CoinbaseL2Event | undefined {
  const type = e['type'];
  if ((type !== 'snapshot' && type !== 'update') || !Array.isArray(e['updates'])) return undefined;
  const bids: number[] = [];
  const asks: number[] = [];
  for (const raw of e['updates'] as unknown[]) {
    const u = record(raw);
    if (u === undefined) return undefined;
    const side = u['side'];
    const price = str(u['price_level']);
    const qty = str(u['new_quantity']);
    if ((side !== 'bid' && side !== 'offer') || price === undefined || qty === undefined) return undefined;
    const px = parseScaled(price, PRICE);
    const sz = parseScaled(qty, QTY);
    if (!(px > 0) || !(sz >= 0)) return undefined;
    (side === 'bid' ? bids : asks).push(px, sz);
  }
  return { type, product_id, bids, asks };
}

function subscriptionsOf(raw: unknown): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const s = record(raw);
  if (s === undefined) return out;
  for (const [channel, ids] of Object.entries(s)) {
    out[channel] = Array.isArray(ids) ? ids.filter((x): x is string => typeof x === 'string') : [];
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// REST errors

/** What an error answer says, for the caller's handling. */
export type CoinbaseErrorKind =
  /** the order is not (or no longer) there: 404 NOT_FOUND on an order, or "order with this orderID was not found" */
  | 'no-such-order'
  /** 401, 403 (bad or expired token, a key without the scope): refused before anything else */
  | 'auth'
  /** 429: refused, not processed */
  | 'rate-limit'
  /** 408 or 5xx: the request may or may not have been carried out */
  | 'fate-unknown'
  /** anything else: the request refused as sent (400 INVALID_ARGUMENT, ...) */
  | 'refused';

export interface CoinbaseError {
  status: number;
  /** the body's `error` code as sent (`NOT_FOUND`, `INVALID_ARGUMENT`, `unknown`); '' without a JSON body */
  error: string;
  /** `message`, else `error_details` */
  message: string;
  kind: CoinbaseErrorKind;
  /** `coinbase <status> <error>: <message>`, the child's reason */
  reason: string;
}

/** The message Coinbase answers an order lookup with when it has no such order (with `error` "unknown", as ccxt records it). */
export const ORDER_NOT_FOUND_TEXT = 'order with this orderID was not found';

/**
 * The error of an HTTP answer; undefined for a 2xx answer (a refused order is a 200, read by
 * `createOrderOutcome`). Reads `{error, message, error_details}` and the gateway's `{error,
 * code, message, details}`; a body that is not JSON (401 answers a bare `Unauthorized`) is
 * classified by its status alone.
 */
export function coinbaseError(status: number, body: unknown): CoinbaseError | undefined {
  if (status >= 200 && status < 300) return undefined;
  const b = record(body) ?? {};
  const error = str(b['error']) ?? '';
  // A body that is not JSON (401's bare `Unauthorized`) is the message itself.
  const message = str(b['message']) || str(b['error_details']) || (typeof body === 'string' ? body.trim().slice(0, 200) : '');
  const details = str(b['error_details']) ?? '';
  let kind: CoinbaseErrorKind;
  if (message.includes(ORDER_NOT_FOUND_TEXT) || details.includes(ORDER_NOT_FOUND_TEXT)) kind = 'no-such-order';
  else if (status === 404 && (error === 'NOT_FOUND' || error === 'not_found')) kind = 'no-such-order';
  else if (status === 401 || status === 403) kind = 'auth';
  else if (status === 429) kind = 'rate-limit';
  else if (status === 408 || status >= 500) kind = 'fate-unknown';
  else kind = 'refused';
  return { status, error, message, kind, reason: `coinbase ${status}${error === '' ? '' : ` ${error}`}${message === '' ? '' : `: ${message}`}` };
}

// ---------------------------------------------------------------------------------------------
// Instruments

/** A spot product from `GET /api/v3/brokerage/market/products?product_type=SPOT`, in engine units. */
export interface CoinbaseInstrument {
  /** ours and Coinbase's, `BTC-USD` */
  symbol: string;
  base: string;
  quote: string;
  /**
   * The product whose `level2` stream carries this book: `alias` when set (`BTC-USDC` trades on
   * the unified `BTC-USD` book, and the docs say `-USDC` products' market data channels answer
   * with the `-USD` product's data), else the product itself.
   */
  bookProductId: string;
  /** `online`, `offline`, `internal`, `delisted` */
  status: string;
  /**
   * Orders can be placed as this service sends them (limit GTC without post-only, limit IOC):
   * `status` online, and none of `is_disabled`, `trading_disabled`, `cancel_only`, `post_only`
   * (which would refuse both), `auction_mode`, `view_only`. `limit_only` is fine: every child is
   * a limit.
   */
  trading: boolean;
  limit_only: boolean;
  /** `price_increment` ("Minimum amount price can be increased or decreased at once"), else `quote_increment` */
  tick_1e9: number;
  /** `base_increment` */
  lot_1e8: number;
  /** `base_min_size`, rounded up; 0 when absent */
  min_qty_1e8: number;
  /** `base_max_size`, rounded down; 0 when absent or past our range (no maximum checked) */
  max_qty_1e8: number;
  /** `quote_min_size` in the quote currency x 1e9, rounded up; 0 when absent */
  min_notional_1e9: number;
}

/** The public products listing; `cursor` from the previous page's `pagination.next_cursor`. */
export function productsPath(cursor?: string): string {
  return `${API}/market/products?product_type=SPOT${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
}

/**
 * A products answer `{products: [...], num_products, pagination: {next_cursor, has_next}}`.
 * Left out: products that are not SPOT, without a base or quote id, or whose tick or lot our
 * scales cannot hold (finer than 1e-9 / 1e-8). Undefined for a body that is not an answer.
 */
export function decodeProducts(body: unknown): { instruments: CoinbaseInstrument[]; next_cursor: string | null } | undefined {
  const b = record(body);
  if (b === undefined || !Array.isArray(b['products'])) return undefined;
  const instruments: CoinbaseInstrument[] = [];
  for (const raw of b['products'] as unknown[]) {
    const p = record(raw);
    if (p === undefined) continue;
    const symbol = str(p['product_id']);
    const base = str(p['base_currency_id']) || str(p['base_display_symbol']);
    const quote = str(p['quote_currency_id']) || str(p['quote_display_symbol']);
    if (symbol === undefined || !base || !quote) continue;
    if (p['product_type'] !== undefined && p['product_type'] !== 'SPOT') continue;
    const priceStep = str(p['price_increment']) || str(p['quote_increment']);
    const tick = priceStep === undefined ? NaN : parseScaled(priceStep, PRICE);
    const lot = typeof p['base_increment'] === 'string' ? parseScaled(p['base_increment'], QTY) : NaN;
    if (!(tick > 0) || !(lot > 0)) continue;
    const rounded = (v: unknown, decimals: number, mode: 'ceil' | 'floor') => {
      const n = typeof v === 'string' && v !== '' ? safeNumber(scaledRounded(v, decimals, mode)) : 0;
      return n >= 0 ? n : 0;
    };
    const status = str(p['status']) ?? '';
    const flag = (name: string) => p[name] === true;
    const alias = str(p['alias']);
    instruments.push({
      symbol,
      base,
      quote,
      bookProductId: alias !== undefined && alias !== '' ? alias : symbol,
      status,
      trading: status === 'online' && !flag('is_disabled') && !flag('trading_disabled') && !flag('cancel_only') && !flag('post_only') && !flag('auction_mode') && !flag('view_only'),
      limit_only: flag('limit_only'),
      tick_1e9: tick,
      lot_1e8: lot,
      min_qty_1e8: rounded(p['base_min_size'], QTY, 'ceil'),
      max_qty_1e8: rounded(p['base_max_size'], QTY, 'floor'),
      min_notional_1e9: rounded(p['quote_min_size'], PRICE, 'ceil'),
    });
  }
  const pagination = record(b['pagination']);
  const next = str(pagination?.['next_cursor']);
  return { instruments, next_cursor: pagination?.['has_next'] === true && next !== undefined && next !== '' ? next : null };
}

// ---------------------------------------------------------------------------------------------
// Client order ids

/**
 * The longest `client_order_id` Coinbase takes. The API reference gives no length or character
 * set; 128 is what public clients enforce (and what an over-long id is refused with). Coinbase
 * clients are seen sending UUIDs, bare hex, `ccxt-<uuid>` and free words.
 */
export const CLIENT_ORDER_ID_MAX = 128;

/**
 * Our child id as the order's `client_order_id`: the id itself (`ord_0mwz4ka3500001oq-1`: letters,
 * digits, `_` and `-`, well under 128), so an order on the venue is known as ours by its id and
 * a lost answer is found by it. Undefined for an id that is not one of our child ids: that leg
 * must be refused (a child that cannot be found by its id could be sent twice). The docs on a
 * duplicate: "If the ID provided is not unique, the order fails to be created and the order
 * corresponding to that ID is returned" (`createOrderOutcome` reads that as 'exists').
 */
export function coinbaseClientOrderId(childId: string): string | undefined {
  return isChildId(childId) && childId.length <= CLIENT_ORDER_ID_MAX ? childId : undefined;
}

/** The child id a `client_order_id` is; undefined for an order placed by hand or by another program. */
export function childIdOfCoinbase(clientOrderId: string): string | undefined {
  return isChildId(clientOrderId) && clientOrderId.length <= CLIENT_ORDER_ID_MAX ? clientOrderId : undefined;
}

// ---------------------------------------------------------------------------------------------
// Orders: placing

/** A child's size and limit as Coinbase will take them. */
export interface OrderTerms {
  base_size_1e8: number;
  /** null: a market order */
  limit_1e9: number | null;
}

/**
 * A child's terms on the product: the size down to `base_increment` (never more than asked), the
 * limit to the tick toward the passive side (a buy down, a sell up: never beyond the SOR's
 * limit); refused below `base_min_size`, above `base_max_size`, or, priced, below
 * `quote_min_size` of notional, as Coinbase would refuse it. A market order's notional is the
 * caller's.
 */
export function orderTerms(instrument: CoinbaseInstrument, side: 'buy' | 'sell', qty_1e8: number, limit_1e9: number | null): { ok: true; terms: OrderTerms } | { ok: false; reason: string } {
  const size = qty_1e8 - (qty_1e8 % instrument.lot_1e8);
  const name = instrument.symbol;
  if (!(size > 0)) return { ok: false, reason: `below Coinbase's size increment for ${name} (${formatScaled(instrument.lot_1e8, QTY)})` };
  if (size < instrument.min_qty_1e8) return { ok: false, reason: `below Coinbase's minimum size for ${name} (base_min_size ${formatScaled(instrument.min_qty_1e8, QTY)})` };
  if (instrument.max_qty_1e8 > 0 && size > instrument.max_qty_1e8) return { ok: false, reason: `above Coinbase's maximum size for ${name} (base_max_size ${formatScaled(instrument.max_qty_1e8, QTY)})` };
  if (limit_1e9 === null) return { ok: true, terms: { base_size_1e8: size, limit_1e9: null } };
  const limit = limitOnTick(side, limit_1e9, instrument.tick_1e9)!;
  if (!(limit > 0)) return { ok: false, reason: `limit below Coinbase's price increment for ${name}` };
  if (BigInt(size) * BigInt(limit) < BigInt(instrument.min_notional_1e9) * 10n ** BigInt(QTY)) {
    return { ok: false, reason: `below Coinbase's minimum order value for ${name} (quote_min_size ${formatScaled(instrument.min_notional_1e9, PRICE)} ${instrument.quote})` };
  }
  return { ok: true, terms: { base_size_1e8: size, limit_1e9: limit } };
}

/** `POST` here places an order (Create Order). */
export const ORDERS_PATH = `${API}/orders`;

/** The configuration keys this service sends, and what a found order's configuration can be read from. */
export const ORDER_CONFIGS = { gtc: 'limit_limit_gtc', ioc: 'sor_limit_ioc', market: 'market_market_ioc' } as const;

/**
 * The JSON body of `POST /api/v3/brokerage/orders` for a child; undefined when the child id has
 * no `client_order_id`. A priced GTC child is `limit_limit_gtc` with `post_only: false`; a
 * priced IOC child is `sor_limit_ioc` (the API's only limit IOC configuration, "smart order
 * routing" in name); an unpriced one `market_market_ioc` sized in base (`base_size`, accepted for
 * buys too since 2024). Sizes and prices as plain decimals, no exponent.
 */
export function createOrderBody(productId: string, childId: string, side: 'buy' | 'sell', terms: OrderTerms, tif: 'ioc' | 'gtc'): string | undefined {
  const clientOrderId = coinbaseClientOrderId(childId);
  if (clientOrderId === undefined) return undefined;
  const base_size = formatScaled(terms.base_size_1e8, QTY);
  let order_configuration: Record<string, unknown>;
  if (terms.limit_1e9 === null) order_configuration = { [ORDER_CONFIGS.market]: { base_size } };
  else {
    const limit_price = formatScaled(terms.limit_1e9, PRICE);
    order_configuration = tif === 'ioc' ? { [ORDER_CONFIGS.ioc]: { base_size, limit_price } } : { [ORDER_CONFIGS.gtc]: { base_size, limit_price, post_only: false } };
  }
  return JSON.stringify({ client_order_id: clientOrderId, product_id: productId, side: side === 'buy' ? 'BUY' : 'SELL', order_configuration });
}

/** What became of a `POST /orders`. */
export type CreateOrderOutcome =
  /** on the venue under this id (its state and fills are read after) */
  | { kind: 'placed'; order_id: string; client_order_id: string | null }
  /** not created: the child's refusal */
  | { kind: 'refused'; code: string; reason: string }
  /** not created because the `client_order_id` is already an order: that order is the child's (look it up) */
  | { kind: 'exists'; reason: string }
  /** the order may or may not be on the venue: leave it to reconciliation by its client order id */
  | { kind: 'unknown'; reason: string };

/** An answer saying the client order id was used already (the docs describe the case, not its code). */
function isDuplicateClientId(...texts: string[]): boolean {
  const all = texts.join(' ');
  return /client[ _]?order[ _]?id/i.test(all) && /duplicate|already|exist|not unique|unique/i.test(all);
}

/**
 * The answer to `POST /api/v3/brokerage/orders`, with its HTTP status. Success is
 * `{success: true, success_response: {order_id, product_id, side, client_order_id}}` (answers
 * before September 2024 also carried `order_id` at the top, read as a fallback); a refusal is a
 * 200 `{success: false, error_response: {error, message, error_details, preview_failure_reason,
 * new_order_failure_reason}}` (older answers: a top-level `failure_reason`). A 4xx is a refusal
 * (the order was not taken), a 408/5xx or a 2xx body that is neither leaves the fate unknown.
 */
export function createOrderOutcome(status: number, body: unknown): CreateOrderOutcome {
  const err = coinbaseError(status, body);
  if (err !== undefined) {
    if (err.kind === 'fate-unknown') return { kind: 'unknown', reason: err.reason };
    if (isDuplicateClientId(err.error, err.message)) return { kind: 'exists', reason: err.reason };
    return { kind: 'refused', code: err.error === '' ? String(status) : err.error, reason: err.reason };
  }
  const b = record(body);
  if (b === undefined || typeof b['success'] !== 'boolean') return { kind: 'unknown', reason: `coinbase ${status}: unreadable order answer` };
  if (b['success']) {
    const ok = record(b['success_response']);
    const orderId = str(ok?.['order_id']) || str(b['order_id']);
    if (!orderId) return { kind: 'unknown', reason: `coinbase ${status}: order accepted without an order_id` };
    return { kind: 'placed', order_id: orderId, client_order_id: str(ok?.['client_order_id']) ?? null };
  }
  const er = record(b['error_response']) ?? {};
  const code = str(er['error']) || str(b['failure_reason']) || 'UNKNOWN_FAILURE_REASON';
  const message = str(er['message']) || str(er['error_details']) || '';
  const why = [str(er['new_order_failure_reason']), str(er['preview_failure_reason'])].filter((r) => r !== undefined && r !== '' && !r.startsWith('UNKNOWN_'));
  const reason = `coinbase ${code}${message === '' ? '' : `: ${message}`}${why.length === 0 ? '' : ` (${why.join(', ')})`}`;
  if (isDuplicateClientId(code, message, str(er['error_details']) ?? '')) return { kind: 'exists', reason };
  return { kind: 'refused', code, reason };
}

// ---------------------------------------------------------------------------------------------
// Orders: reading

export type CoinbaseOrderStatus = 'PENDING' | 'OPEN' | 'FILLED' | 'CANCELLED' | 'EXPIRED' | 'FAILED' | 'QUEUED' | 'CANCEL_QUEUED';

const STATUSES = new Set<string>(['PENDING', 'OPEN', 'FILLED', 'CANCELLED', 'EXPIRED', 'FAILED', 'QUEUED', 'CANCEL_QUEUED']);
/** States in which the venue may still fill the order (a cancel queued is not done until it is). */
const WORKING = new Set<string>(['PENDING', 'OPEN', 'QUEUED', 'CANCEL_QUEUED']);

/** An order from Get Order or List Orders, in engine units. */
export interface CoinbaseOrder {
  order_id: string;
  client_order_id: string;
  /** our child id, when the client order id is one */
  child_id: string | null;
  product_id: string;
  side: 'buy' | 'sell';
  status: CoinbaseOrderStatus;
  /** the `order_configuration` key (`limit_limit_gtc`, `sor_limit_ioc`, ...); null when the answer has none */
  config: string | null;
  /** the configuration's `base_size`; null for an order sized in the quote currency */
  qty_1e8: number | null;
  /** `filled_size`, base */
  filled_qty_1e8: number;
  /** the venue may still fill it: PENDING, OPEN, QUEUED or CANCEL_QUEUED */
  working: boolean;
  /** what may still fill on the book: base_size - filled_size while working; 0 once done and for market orders */
  resting_qty_1e8: number;
  /** `number_of_fills`; null when absent */
  number_of_fills: number | null;
}

/** One order row; undefined when it cannot be read (an unknown status included: `UNKNOWN_ORDER_STATUS`). */
function orderOf(o: Record<string, unknown>): CoinbaseOrder | undefined {
  const order_id = str(o['order_id']);
  const product_id = str(o['product_id']);
  const side = o['side'];
  const status = o['status'];
  if (!order_id || product_id === undefined || (side !== 'BUY' && side !== 'SELL') || typeof status !== 'string' || !STATUSES.has(status)) return undefined;
  const filledText = str(o['filled_size']);
  const filled = filledText === undefined || filledText === '' ? 0 : parseScaled(filledText, QTY);
  if (!(filled >= 0)) return undefined;
  const configs = record(o['order_configuration']);
  let config: string | null = null;
  let qty: number | null = null;
  if (configs !== undefined) {
    for (const [key, value] of Object.entries(configs)) {
      const c = record(value);
      if (c === undefined) continue;
      config = key;
      const size = str(c['base_size']);
      if (size !== undefined && size !== '') {
        qty = parseScaled(size, QTY);
        if (!(qty >= 0)) return undefined;
      }
      break;
    }
  }
  const working = WORKING.has(status);
  let resting = 0;
  if (working && config !== ORDER_CONFIGS.market) {
    // A working limit must say its size, or what rests is unknown.
    if (qty === null) return undefined;
    resting = qty > filled ? qty - filled : 0;
  }
  const clientOrderId = str(o['client_order_id']) ?? '';
  return {
    order_id,
    client_order_id: clientOrderId,
    child_id: childIdOfCoinbase(clientOrderId) ?? null,
    product_id,
    side: side === 'BUY' ? 'buy' : 'sell',
    status: status as CoinbaseOrderStatus,
    config,
    qty_1e8: qty,
    filled_qty_1e8: filled,
    working,
    resting_qty_1e8: resting,
    number_of_fills: integerOf(o['number_of_fills']) ?? null,
  };
}

/** `GET /api/v3/brokerage/orders/historical/{order_id}` (Coinbase's order id: the path takes no client order id). */
export function orderPath(orderId: string): string {
  return `${API}/orders/historical/${encodeURIComponent(orderId)}`;
}

/** A Get Order answer `{order: {...}}`; undefined for an error or an unreadable order. */
export function decodeOrder(body: unknown): CoinbaseOrder | undefined {
  const o = record(record(body)?.['order']);
  return o === undefined ? undefined : orderOf(o);
}

/** The List Orders filters this adapter uses; arrays are sent as repeated keys (`order_status=OPEN&order_status=PENDING`). */
export interface OrderListQuery {
  product_ids?: readonly string[];
  order_status?: readonly CoinbaseOrderStatus[];
  /** RFC 3339; orders created at or after */
  start_date?: string;
  product_type?: 'SPOT';
  limit?: number;
  cursor?: string;
}

/** `GET /api/v3/brokerage/orders/historical/batch` with these filters. */
export function ordersListPath(q: OrderListQuery): string {
  const parts: string[] = [];
  const add = (key: string, value: string) => parts.push(`${key}=${encodeURIComponent(value)}`);
  for (const id of q.product_ids ?? []) add('product_ids', id);
  for (const s of q.order_status ?? []) add('order_status', s);
  if (q.product_type !== undefined) add('product_type', q.product_type);
  if (q.start_date !== undefined) add('start_date', q.start_date);
  if (q.limit !== undefined) add('limit', String(q.limit));
  if (q.cursor !== undefined) add('cursor', q.cursor);
  return `${API}/orders/historical/batch${parts.length === 0 ? '' : `?${parts.join('&')}`}`;
}

/** The page size asked of lists. */
export const PAGE = 100;

/** The account's open spot orders, a page (`ownOpenOrders`, the start-up sweep). */
export function openOrdersPath(cursor?: string): string {
  return ordersListPath({ order_status: ['OPEN'], product_type: 'SPOT', limit: PAGE, ...(cursor === undefined ? {} : { cursor }) });
}

/**
 * Finding a child by its client order id when its Coinbase order id is not known (the placing
 * answer was lost). Get Order needs the order id in its path (its `client_order_id` query is
 * marked deprecated in the reference and still needs a path id), and List Orders takes no
 * `client_order_id` filter (its filters: order ids, products, statuses, dates, types, side,
 * time in force, ...). So the child is looked for among the product's orders created since it
 * was sent: this path, page after page, each page searched with `findByClientOrderId`; a list
 * that ends without it means no such order (final only after the venue's accept window, as for
 * every venue). `sentAtMs` should hold a margin for clock skew; no status filter, so a filled or
 * cancelled child is found too.
 */
export function clientOrderLookupPath(productId: string, sentAtMs: number, cursor?: string): string {
  return ordersListPath({ product_ids: [productId], start_date: new Date(sentAtMs).toISOString(), limit: PAGE, ...(cursor === undefined ? {} : { cursor }) });
}

/**
 * A List Orders answer `{orders: [...], sequence, has_next, cursor}`. Rows that cannot be read are
 * skipped when they are not ours (an order placed by hand in a state or shape this service does
 * not trade), but one of ours that cannot be read makes the whole page undefined: it must not be
 * taken as absent. Undefined for a body that is not an answer.
 */
export function decodeOrderList(body: unknown): { orders: CoinbaseOrder[]; next_cursor: string | null } | undefined {
  const b = record(body);
  if (b === undefined || !Array.isArray(b['orders'])) return undefined;
  const orders: CoinbaseOrder[] = [];
  for (const raw of b['orders'] as unknown[]) {
    const o = record(raw);
    const order = o === undefined ? undefined : orderOf(o);
    if (order !== undefined) {
      orders.push(order);
      continue;
    }
    const clientOrderId = str(o?.['client_order_id']);
    if (clientOrderId !== undefined && childIdOfCoinbase(clientOrderId) !== undefined) return undefined;
  }
  const cursor = str(b['cursor']);
  return { orders, next_cursor: b['has_next'] === true && cursor !== undefined && cursor !== '' ? cursor : null };
}

/** The order with this client order id among a page's, if any. */
export function findByClientOrderId(orders: readonly CoinbaseOrder[], clientOrderId: string): CoinbaseOrder | undefined {
  return orders.find((o) => o.client_order_id === clientOrderId);
}

/** A child's report from its order and its fills (which should add up to `filled_qty_1e8`: `fillsCover`). */
export function legReportOf(order: CoinbaseOrder, fills: VenueFill[]): LegReport {
  return { ok: true, reason: null, fills, resting_qty_1e8: order.resting_qty_1e8 };
}

/** The fills account for everything the order says it filled (the fills list can lag the order). */
export function fillsCover(order: CoinbaseOrder, fills: readonly VenueFill[]): boolean {
  return fills.reduce((sum, f) => sum + f.qty_1e8, 0) === order.filled_qty_1e8;
}

// ---------------------------------------------------------------------------------------------
// Fills

/** `GET /api/v3/brokerage/orders/historical/fills` of these orders (repeated `order_ids`). */
export function fillsPath(orderIds: readonly string[], cursor?: string, limit = PAGE): string {
  if (orderIds.length === 0) throw new RangeError('fills of no order');
  const parts = orderIds.map((id) => `order_ids=${encodeURIComponent(id)}`);
  parts.push(`limit=${limit}`);
  if (cursor !== undefined) parts.push(`cursor=${encodeURIComponent(cursor)}`);
  return `${API}/orders/historical/fills?${parts.join('&')}`;
}

/**
 * A List Fills answer `{fills: [...], cursor}` as fills, oldest first; with `orderId`, only that
 * order's. Each row: `trade_id` (the fill's id; `entry_id` when it has none), `price` (rounded to
 * the nearest 1e-9 past our scale), `size` (base, exact), `commission` (in the quote currency:
 * USD here, quotes being USD-pegged; rounded up past 1e-9), `liquidity_indicator` (MAKER is a
 * maker fill, TAKER and UNKNOWN_LIQUIDITY_INDICATOR taker), `trade_time`. Undefined, so that
 * nothing is booked from it, for an error answer and for any row of the order that is not a plain
 * fill: `trade_type` other than FILL (a REVERSAL or CORRECTION restates a trade under the same
 * id), or `size_in_quote` (a size in the quote currency: our orders are sized in base).
 * `next_cursor` is null once the answer's `cursor` is empty or, with `limit`, the page was short.
 */
export function decodeFills(body: unknown, opts: { orderId?: string; limit?: number } = {}): { fills: VenueFill[]; next_cursor: string | null } | undefined {
  const b = record(body);
  if (b === undefined || !Array.isArray(b['fills'])) return undefined;
  const rows = b['fills'] as unknown[];
  const fills: VenueFill[] = [];
  for (const raw of rows) {
    const t = record(raw);
    if (t === undefined) return undefined;
    if (opts.orderId !== undefined && t['order_id'] !== opts.orderId) continue;
    if ((t['trade_type'] !== undefined && t['trade_type'] !== 'FILL') || t['size_in_quote'] === true) return undefined;
    const id = str(t['trade_id']) || str(t['entry_id']);
    const price = str(t['price']);
    const size = str(t['size']);
    if (!id || price === undefined || size === undefined) return undefined;
    const price_1e9 = safeNumber(scaledRounded(price, PRICE, 'nearest'));
    const qty_1e8 = parseScaled(size, QTY);
    if (!(price_1e9 > 0) || !(qty_1e8 > 0)) return undefined;
    const commission = str(t['commission']);
    const fee_1e9 = safeNumber(scaledRounded(commission === undefined || commission === '' ? '0' : commission, PRICE, 'ceil'));
    if (Number.isNaN(fee_1e9)) return undefined;
    const ts = typeof t['trade_time'] === 'string' ? rfc3339Ns(t['trade_time']) : null;
    fills.push({ price_1e9, qty_1e8, trade_id: id, ts_ns: ts ?? 0, fee_1e9, is_maker: t['liquidity_indicator'] === 'MAKER' });
  }
  fills.sort((a, b) => a.ts_ns - b.ts_ns || (a.trade_id < b.trade_id ? -1 : a.trade_id > b.trade_id ? 1 : 0));
  const cursor = str(b['cursor']);
  const more = cursor !== undefined && cursor !== '' && (opts.limit === undefined || rows.length >= opts.limit);
  return { fills, next_cursor: more ? cursor : null };
}

// ---------------------------------------------------------------------------------------------
// Cancels

/** Order ids per `batch_cancel` request this adapter sends (the reference states no maximum; kept small). */
export const CANCEL_BATCH_MAX = 100;

export const CANCEL_PATH = `${API}/orders/batch_cancel`;

/** The body of `POST /api/v3/brokerage/orders/batch_cancel`: `{order_ids: [...]}` (Coinbase's ids). */
export function cancelBody(orderIds: readonly string[]): string {
  if (orderIds.length === 0 || orderIds.length > CANCEL_BATCH_MAX) throw new RangeError(`batch_cancel takes 1 to ${CANCEL_BATCH_MAX} order ids, got ${orderIds.length}`);
  return JSON.stringify({ order_ids: orderIds });
}

/**
 * What one cancel did:
 *   requested      accepted (`success`), or a cancel of it already on its way (DUPLICATE_CANCEL_REQUEST):
 *                  the order is to be read again for what it filled before it went
 *   no-such-order  UNKNOWN_CANCEL_ORDER: the venue has no such open order
 *   done           ORDER_IS_FULLY_FILLED: nothing rests to cancel
 *   refused        any other failure (COMMANDER_REJECTED_CANCEL_ORDER, NOT_ALLOWED_TO_CANCEL, ORDER_IS_BEING_REPLACED, ...)
 */
export type CancelOutcome = 'requested' | 'no-such-order' | 'done' | 'refused';

/** The rows of a batch cancel answer `{results: [{success, failure_reason, order_id}]}`; undefined for a body that is not one. */
export function decodeCancel(body: unknown): { order_id: string; outcome: CancelOutcome; failure_reason: string | null }[] | undefined {
  const results = record(body)?.['results'];
  if (!Array.isArray(results)) return undefined;
  const out: { order_id: string; outcome: CancelOutcome; failure_reason: string | null }[] = [];
  for (const raw of results as unknown[]) {
    const r = record(raw);
    if (r === undefined || typeof r['success'] !== 'boolean') return undefined;
    const reason = str(r['failure_reason']) ?? null;
    let outcome: CancelOutcome;
    if (r['success']) outcome = 'requested';
    else if (reason === 'UNKNOWN_CANCEL_ORDER') outcome = 'no-such-order';
    else if (reason === 'ORDER_IS_FULLY_FILLED') outcome = 'done';
    else if (reason === 'DUPLICATE_CANCEL_REQUEST') outcome = 'requested';
    else outcome = 'refused';
    out.push({ order_id: str(r['order_id']) ?? '', outcome, failure_reason: r['success'] ? null : reason });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Balances

/** `GET /api/v3/brokerage/accounts`, 250 a page (the most it gives). */
export function accountsPath(cursor?: string): string {
  return `${API}/accounts?limit=250${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
}

/**
 * A List Accounts answer `{accounts: [...], has_next, cursor, size}` as balances: one row per
 * account, free = `available_balance.value`, locked = `hold.value` (what open orders hold), both
 * exact as bigints (a large stablecoin account passes 2^53 in 1e8 units) and rounded down past 8
 * places (never more than the account holds). Zero rows are kept: an asset sold out must reach
 * the ledger as 0. Vault accounts (ACCOUNT_TYPE_VAULT) are left out: their funds are not
 * tradable. Several accounts of one currency are summed by `mergeBalances` over all pages.
 */
export function decodeAccounts(body: unknown): { balances: AssetBalance[]; next_cursor: string | null } | undefined {
  const b = record(body);
  if (b === undefined || !Array.isArray(b['accounts'])) return undefined;
  const balances: AssetBalance[] = [];
  for (const raw of b['accounts'] as unknown[]) {
    const a = record(raw);
    if (a === undefined) return undefined;
    if (a['type'] === 'ACCOUNT_TYPE_VAULT') continue;
    const asset = str(a['currency']);
    const available = str(record(a['available_balance'])?.['value']);
    const holdRaw = a['hold'] === undefined || a['hold'] === null ? '0' : str(record(a['hold'])?.['value']);
    if (!asset || available === undefined || holdRaw === undefined) return undefined;
    const free = scaledRounded(available, QTY, 'floor');
    const locked = scaledRounded(holdRaw === '' ? '0' : holdRaw, QTY, 'floor');
    if (free === undefined || locked === undefined) return undefined;
    balances.push({ asset, free_1e8: free, locked_1e8: locked });
  }
  const cursor = str(b['cursor']);
  return { balances, next_cursor: b['has_next'] === true && cursor !== undefined && cursor !== '' ? cursor : null };
}

/** Balances summed by asset, in first-seen order. */
export function mergeBalances(rows: readonly AssetBalance[]): AssetBalance[] {
  const by = new Map<string, AssetBalance>();
  for (const r of rows) {
    const sum = by.get(r.asset);
    if (sum === undefined) by.set(r.asset, { ...r });
    else by.set(r.asset, { asset: r.asset, free_1e8: sum.free_1e8 + r.free_1e8, locked_1e8: sum.locked_1e8 + r.locked_1e8 });
  }
  return [...by.values()];
}

// ---------------------------------------------------------------------------------------------
// Account: fee tier and key permissions

export const TRANSACTION_SUMMARY_PATH = `${API}/transaction_summary?product_type=SPOT`;
export const KEY_PERMISSIONS_PATH = `${API}/key_permissions`;

/** A fee rate (a fraction, "0.006") in basis points (60); NaN when it is not a plain decimal. */
function bpsOf(rate: unknown): number {
  const d = typeof rate === 'string' ? decimalOf(rate) : undefined;
  if (d === undefined) return NaN;
  // Millionths of a basis point, then back: exact for any rate the venue writes to 10 places.
  return Number(divRounded(d.mantissa * 10n ** 10n, 10n ** BigInt(d.places), 'nearest')) / 1e6;
}

/** `GET /api/v3/brokerage/transaction_summary`: `fee_tier.{pricing_tier, maker_fee_rate, taker_fee_rate}`. */
export function decodeTransactionSummary(body: unknown): { tier: string; maker_bps: number; taker_bps: number } | undefined {
  const tier = record(record(body)?.['fee_tier']);
  if (tier === undefined) return undefined;
  const maker = bpsOf(tier['maker_fee_rate']);
  const taker = bpsOf(tier['taker_fee_rate']);
  if (Number.isNaN(maker) || Number.isNaN(taker)) return undefined;
  return { tier: str(tier['pricing_tier']) ?? '', maker_bps: maker, taker_bps: taker };
}

/** `GET /api/v3/brokerage/key_permissions`: `{can_view, can_trade, can_transfer, portfolio_uuid, portfolio_type}`. */
export function decodeKeyPermissions(body: unknown): { can_view: boolean; can_trade: boolean; can_transfer: boolean | null; portfolio_uuid: string | null } | undefined {
  const b = record(body);
  if (b === undefined || typeof b['can_trade'] !== 'boolean') return undefined;
  return {
    can_view: b['can_view'] === true,
    can_trade: b['can_trade'],
    can_transfer: typeof b['can_transfer'] === 'boolean' ? b['can_transfer'] : null,
    portfolio_uuid: str(b['portfolio_uuid']) ?? null,
  };
}

/** The account probe from the fee tier and the key's permissions; the tier's name, or its rates, as the tier. */
export function probeOf(summary: { tier: string; maker_bps: number; taker_bps: number }, permissions: { can_trade: boolean; can_transfer: boolean | null }): AccountProbe {
  return {
    tier: summary.tier !== '' ? summary.tier : `${summary.maker_bps}/${summary.taker_bps} bps`,
    maker_bps: summary.maker_bps,
    taker_bps: summary.taker_bps,
    can_trade: permissions.can_trade,
    can_withdraw: permissions.can_transfer,
  };
}
