import { exactScaled, formatScaled, timesRounded } from '../decimal.ts';
import { pricedFeeOf, type FeeContext } from '../fees.ts';
import { integerOf, isRecord } from '../json.ts';
import { isChildId, type AccountProbe, type AssetBalance, type LegReport, type VenueFill } from '../venue.ts';
import { CHANGE_WIDTH, type Level2Update } from './book-sync.ts';

/**
 * KuCoin spot's JSON, decoded into the engine's integers and encoded from them. Pure. Prices
 * are 1e9, quantities 1e8. Market data and order sizes must parse exactly (a book never takes a
 * level it could not read); fees and balances are rounded past our scale, always against us (a
 * charge up, a balance down).
 *
 * Every REST answer is `{code, msg?, data}`; `code` "200000" is success. Field names, paths and
 * examples are those of KuCoin's API reference (docs-new), as the official SDK generator holds
 * it (Kucoin/kucoin-universal-sdk `spec/rest/api/*.json`, `spec/ws/openapi-spot-public.json`),
 * and of the previous docs (Kucoin/kucoin-api-docs) for the WebSocket protocol and the level-2
 * calibration procedure.
 *
 * Orders go through the high-frequency (HF) spot endpoints `/api/v1/hf/...`: the reference marks
 * `POST /api/v1/orders` "Add Order - Old", `deprecated: true`, `x-abandon: abandon` (weight 2),
 * and `POST /api/v1/hf/orders` "Add Order", current (weight 1); the official SDK's own signed
 * example places on `/api/v1/hf/orders`.
 */

const PRICE = 9;
const QTY = 8;

/** Our symbol is KuCoin's spot `symbol` as is (`BTC-USDT`), its renaming-proof code (not `name`). */
export function venueSymbolOf(symbol: string): string {
  return symbol;
}

/** KuCoin's quoted integers (sequences, ids) are read up to 16 digits: past that none is safe. */
function integer(v: unknown): number | undefined {
  return integerOf(v, 16);
}

// ---------------------------------------------------------------------------------------------
// REST envelope and errors

/** KuCoin's success code. */
export const CODE_OK = '200000';

export interface KucoinError {
  code: string;
  msg: string;
}

/** An answer's error `{code, msg}` when `code` is not "200000"; undefined for a success or a body that is not an answer. */
export function kucoinError(body: unknown): KucoinError | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  const code = typeof b['code'] === 'number' ? String(b['code']) : b['code'];
  if (typeof code !== 'string' || code === CODE_OK) return undefined;
  return { code, msg: typeof b['msg'] === 'string' ? b['msg'] : '' };
}

/** The `data` of a successful answer; undefined for an error or a body that is not an answer. */
function dataOf(body: unknown): unknown {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  return b['code'] === CODE_OK ? b['data'] : undefined;
}

/**
 * What an error means for a request, in the order it is decided:
 *   fate_unknown   the venue may have acted: HTTP 5xx, 500000 "Internal Server Error", or a
 *                  clientOid the venue already holds (400100 "...clientOidDuplicated": an
 *                  earlier send of this child got there); find the order by its clientOid
 *   rate_limited   refused before it was processed: 429000 (HTTP 429, the resource pool is
 *                  spent until `gw-ratelimit-reset`; also the old "stand-alone capacity limit"),
 *                  Cloudflare's 1015 per IP
 *   clock          400002 "Invalid KC-API-TIMESTAMP": more than 5 s from the venue's clock;
 *                  refused, nothing done
 *   auth           the key, its passphrase, signature, version, IP whitelist or permissions
 *                  (400001, 400003-400010, 411100 "User are frozen"); refused, nothing done
 *   unknown_order  the order is not (or no longer) there: 400100, the generic "Parameter Error"
 *                  code, with a message naming a missing order ("order not exist.",
 *                  "order_not_exist_or_not_allow_to_cancel": a filled or cancelled order cannot
 *                  be cancelled, nothing rests either way), or the bare code "order_not_exist"
 *   refused        anything else (balance, size, price, symbol): the order did not reach the book
 * 400100 alone is not a missing order: the same code answers a bad size, a short balance and a
 * duplicated clientOid. 400002 is the timestamp, never a missing order.
 */
export type KucoinFailure = 'fate_unknown' | 'rate_limited' | 'clock' | 'auth' | 'unknown_order' | 'refused';

export const RATE_LIMITED_CODES = new Set(['429000', '1015']);
export const AUTH_CODES = new Set(['400001', '400003', '400004', '400005', '400006', '400007', '400008', '400009', '400010', '411100']);
export const CLOCK_CODE = '400002';
export const FATE_UNKNOWN_CODES = new Set(['500000']);
const NO_SUCH_ORDER_TEXT = /order[\s_.-]*(?:does[\s_]*)?not[\s_]*exist/i;
const DUPLICATE_CLIENT_OID = /clientOid[\s_.-]*(?:is[\s_]*)?duplicat/i;

export function classifyFailure(httpStatus: number, error: KucoinError | undefined): KucoinFailure {
  const code = error?.code ?? '';
  const msg = error?.msg ?? '';
  if (httpStatus >= 500 || FATE_UNKNOWN_CODES.has(code) || DUPLICATE_CLIENT_OID.test(msg)) return 'fate_unknown';
  if (httpStatus === 429 || RATE_LIMITED_CODES.has(code)) return 'rate_limited';
  if (code === CLOCK_CODE) return 'clock';
  if (AUTH_CODES.has(code) || (error === undefined && (httpStatus === 401 || httpStatus === 403))) return 'auth';
  if (code === 'order_not_exist' || (code === '400100' && NO_SUCH_ORDER_TEXT.test(msg))) return 'unknown_order';
  return 'refused';
}

/** `kucoin <code>: <msg>`, a child's reason. */
export function reasonOf(error: KucoinError): string {
  return `kucoin ${error.code}: ${error.msg}`;
}

/** ms until the spent resource pool refills (`gw-ratelimit-reset`, ms, rate limit 2.0); undefined when absent. */
export function rateLimitResetMs(headers: { get(name: string): string | null }): number | undefined {
  const value = headers.get('gw-ratelimit-reset');
  if (value === null || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}

// ---------------------------------------------------------------------------------------------
// REST paths. Every query value here is unreserved text (symbols, client order ids, hex order
// ids, digits, and the comma of a symbol list), so a path is sent exactly as it is signed.

export const PATHS = {
  bulletPublic: '/api/v1/bullet-public',
  symbols: '/api/v2/symbols',
  order: '/api/v1/hf/orders',
  /** the same order, answered once matching is done (`status`, `dealSize`, `remainSize`, `canceledSize`) */
  orderSync: '/api/v1/hf/orders/sync',
  activeSymbols: '/api/v1/hf/orders/active/symbols',
  accounts: '/api/v1/accounts?type=trade',
  apiKey: '/api/v1/user/api-key',
} as const;

const SYMBOL = /^[A-Za-z0-9]+-[A-Za-z0-9]+$/;
const HEX_ID = /^[0-9a-fA-F]{1,64}$/;

function checked(symbol: string): string {
  if (!SYMBOL.test(symbol)) throw new Error(`not a KuCoin symbol: ${symbol}`);
  return symbol;
}

/** The full order book (`GET`, signed: "General" permission) or the public top 100 (`level2_100`). */
export function snapshotPath(symbol: string, full: boolean): string {
  return full ? `/api/v3/market/orderbook/level2?symbol=${checked(symbol)}` : `/api/v1/market/orderbook/level2_100?symbol=${checked(symbol)}`;
}

/** `GET` (look up) or `DELETE` (cancel) one order by its clientOid. */
export function clientOrderPath(clientOid: string, symbol: string): string {
  if (!CLIENT_OID.test(clientOid)) throw new Error('not a KuCoin clientOid');
  return `/api/v1/hf/orders/client-order/${clientOid}?symbol=${checked(symbol)}`;
}

/** `DELETE`: cancel by clientOid and answer the order's sizes once the cancel is done ("Cancel Order By ClientOid Sync"). */
export function cancelSyncPath(clientOid: string, symbol: string): string {
  if (!CLIENT_OID.test(clientOid)) throw new Error('not a KuCoin clientOid');
  return `/api/v1/hf/orders/sync/client-order/${clientOid}?symbol=${checked(symbol)}`;
}

/** `DELETE`: every open order of the account on a symbol (answers "success", not what it cancelled). */
export function cancelAllPath(symbol: string): string {
  return `/api/v1/hf/orders?symbol=${checked(symbol)}`;
}

/** `GET`: the account's open orders on a symbol (the symbol is required). */
export function openOrdersPath(symbol: string): string {
  return `/api/v1/hf/orders/active?symbol=${checked(symbol)}`;
}

/** `GET`: an order's fills, 100 a page; `lastId` (the previous page's) for the next. */
export function fillsPath(symbol: string, orderId: string, lastId?: number): string {
  if (!HEX_ID.test(orderId)) throw new Error('not a KuCoin orderId');
  return `/api/v1/hf/fills?symbol=${checked(symbol)}&orderId=${orderId}&limit=100${lastId === undefined ? '' : `&lastId=${lastId}`}`;
}

/** `GET`: the account's actual fee rates, at most 10 symbols per request. */
export function tradeFeesPath(symbols: readonly string[]): string {
  if (symbols.length === 0 || symbols.length > 10) throw new Error('1 to 10 symbols per trade-fees request');
  return `/api/v1/trade-fees?symbols=${symbols.map(checked).join(',')}`;
}

// ---------------------------------------------------------------------------------------------
// Public WebSocket: token, connection, subscription, frames

/** `POST /api/v1/bullet-public`: what a connection needs. */
export interface BulletToken {
  token: string;
  /** `instanceServers[0].endpoint` ("It is recommended to use a dynamic URL, as the URL may change") */
  endpoint: string;
  /** the venue's recommended ping interval, ms */
  pingIntervalMs: number;
  /** no pong within this long: the connection is dead, ms */
  pingTimeoutMs: number;
}

/**
 * @param plaintext a `ws://` endpoint is taken too: only for a venue reached over plain HTTP
 *   (a local fake), so a TLS REST base can never hand the book stream to an unencrypted socket
 */
export function decodeBulletToken(body: unknown, plaintext = false): BulletToken | undefined {
  const data = dataOf(body);
  if (!isRecord(data) || typeof data['token'] !== 'string' || data['token'] === '' || !Array.isArray(data['instanceServers'])) return undefined;
  const server = data['instanceServers'][0] as unknown;
  if (!isRecord(server) || typeof server['endpoint'] !== 'string' || !(plaintext ? /^wss?:\/\// : /^wss:\/\//).test(server['endpoint'])) return undefined;
  const ping = integer(server['pingInterval']);
  const timeout = integer(server['pingTimeout']);
  if (ping === undefined || ping <= 0) return undefined;
  return { token: data['token'], endpoint: server['endpoint'], pingIntervalMs: ping, pingTimeoutMs: timeout !== undefined && timeout > 0 ? timeout : ping };
}

/**
 * The connection URL: `endpoint?token=...&connectId=...`. The token is base64-like text with
 * `=` and `+`, so it is encoded (the official SDK builds it with URLSearchParams). The welcome
 * frame's `id` is the `connectId`.
 */
export function streamUrl(token: BulletToken, connectId: string): string {
  return `${token.endpoint}?token=${encodeURIComponent(token.token)}&connectId=${encodeURIComponent(connectId)}`;
}

/** Symbols per subscribe: a topic takes at most 100 (WebSocket error 509 past that). */
export const SYMBOLS_PER_TOPIC = 100;

/**
 * `subscribe`/`unsubscribe` frames for `/market/level2` of these symbols, 100 a frame, each with
 * its own id (`${idPrefix}-${n}`, echoed as the `ack`'s id), `response: true` to be acked.
 */
export function level2Subscriptions(type: 'subscribe' | 'unsubscribe', symbols: readonly string[], idPrefix: string): { id: string; text: string }[] {
  const out: { id: string; text: string }[] = [];
  for (let i = 0; i < symbols.length; i += SYMBOLS_PER_TOPIC) {
    const id = `${idPrefix}-${out.length}`;
    const topic = `/market/level2:${symbols.slice(i, i + SYMBOLS_PER_TOPIC).map(checked).join(',')}`;
    out.push({ id, text: JSON.stringify({ id, type, topic, privateChannel: false, response: true }) });
  }
  return out;
}

/** The keep-alive the venue wants every `pingInterval`: `{id, type: 'ping'}`, answered by a `pong` with the same id. */
export function pingFrame(id: string): string {
  return JSON.stringify({ id, type: 'ping' });
}

/** A public-stream frame, decoded; undefined for frames of other topics or kinds and for an unreadable level2 push. */
export type KucoinFrame =
  | { type: 'welcome'; id: string }
  | { type: 'pong'; id: string }
  | { type: 'ack'; id: string }
  /** `{id, type: 'error', code, data}`: 401 token invalid, 404 topic does not exist, 509 limits, ... */
  | { type: 'error'; id: string; code: number; message: string }
  | { type: 'level2'; symbol: string; update: Level2Update };

const LEVEL2_TOPIC = '/market/level2:';

export function decodeFrame(frame: unknown): KucoinFrame | undefined {
  if (!isRecord(frame)) return undefined;
  const type = frame['type'];
  const id = typeof frame['id'] === 'string' ? frame['id'] : typeof frame['id'] === 'number' ? String(frame['id']) : '';
  switch (type) {
    case 'welcome':
    case 'pong':
    case 'ack':
      return { type, id };
    case 'error': {
      const code = typeof frame['code'] === 'number' ? frame['code'] : Number(frame['code']);
      return { type, id, code: Number.isFinite(code) ? code : 0, message: typeof frame['data'] === 'string' ? frame['data'] : '' };
    }
    case 'message':
      break;
    default:
      return undefined;
  }
  const topic = frame['topic'];
  if (typeof topic !== 'string' || !topic.startsWith(LEVEL2_TOPIC) || frame['subject'] !== 'trade.l2update' || !isRecord(frame['data'])) return undefined;
  const d = frame['data'];
  const start = integer(d['sequenceStart']);
  const end = integer(d['sequenceEnd']);
  const changes = d['changes'];
  if (start === undefined || end === undefined || start > end || !isRecord(changes)) return undefined;
  const bids = changeLevels(changes['bids']);
  const asks = changeLevels(changes['asks']);
  if (bids === undefined || asks === undefined) return undefined;
  const symbol = typeof d['symbol'] === 'string' ? d['symbol'] : topic.slice(LEVEL2_TOPIC.length);
  const time = integer(d['time']);
  return { type: 'level2', symbol, update: { sequenceStart: start, sequenceEnd: end, bids, asks, ts_ms: time ?? Date.now() } };
}

/** `[[price, size, sequence], ...]` into flat triples; price 0 (a sequence-only entry) is kept as 0. */
function changeLevels(raw: unknown): number[] | undefined {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) return undefined;
  const out = new Array<number>(raw.length * CHANGE_WIDTH);
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as unknown;
    if (!Array.isArray(c)) return undefined;
    const price = exactScaled(c[0], PRICE);
    const qty = exactScaled(c[1], QTY);
    const seq = integer(c[2]);
    if (!(price >= 0) || !(qty >= 0) || seq === undefined) return undefined;
    out[CHANGE_WIDTH * i] = price;
    out[CHANGE_WIDTH * i + 1] = qty;
    out[CHANGE_WIDTH * i + 2] = seq;
  }
  return out;
}

/** `[[price, size], ...]` into flat pairs; undefined on any level it cannot read exactly. */
function levels(raw: unknown): number[] | undefined {
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

/** A REST order-book snapshot (full or `level2_100`): `sequence` (a decimal string) and both sides best first. */
export function decodeSnapshot(body: unknown): { sequence: number; bids: number[]; asks: number[]; ts_ms: number } | undefined {
  const data = dataOf(body);
  if (!isRecord(data)) return undefined;
  const sequence = integer(data['sequence']);
  const bids = levels(data['bids']);
  const asks = levels(data['asks']);
  if (sequence === undefined || bids === undefined || asks === undefined) return undefined;
  return { sequence, bids, asks, ts_ms: integer(data['time']) ?? Date.now() };
}

// ---------------------------------------------------------------------------------------------
// Instruments

/** A spot listing's trading rules from `GET /api/v2/symbols`, in engine units. */
export interface KucoinInstrument {
  symbol: string;
  base: string;
  quote: string;
  /** `enableTrading` */
  trading: boolean;
  /** `priceIncrement` */
  tick_1e9: number;
  /** `baseIncrement` */
  lot_1e8: number;
  /** `baseMinSize` */
  min_qty_1e8: number;
  /** `minFunds`, in the quote currency: the smallest order value */
  min_funds_1e9: number;
}

/** Listings; one whose tick or lot our scales cannot hold (finer than 1e-9 / 1e-8) is left out. */
export function decodeSymbols(body: unknown): KucoinInstrument[] {
  const data = dataOf(body);
  if (!Array.isArray(data)) return [];
  const out: KucoinInstrument[] = [];
  for (const raw of data as unknown[]) {
    if (!isRecord(raw) || typeof raw['symbol'] !== 'string' || typeof raw['baseCurrency'] !== 'string' || typeof raw['quoteCurrency'] !== 'string') continue;
    const instrument: KucoinInstrument = {
      symbol: raw['symbol'],
      base: raw['baseCurrency'],
      quote: raw['quoteCurrency'],
      trading: raw['enableTrading'] === true,
      tick_1e9: exactScaled(raw['priceIncrement'], PRICE),
      lot_1e8: exactScaled(raw['baseIncrement'], QTY),
      min_qty_1e8: exactScaled(raw['baseMinSize'], QTY),
      min_funds_1e9: exactScaled(raw['minFunds'], PRICE),
    };
    if (!(instrument.tick_1e9 > 0) || !(instrument.lot_1e8 > 0)) continue;
    if (!(instrument.min_qty_1e8 >= 0)) instrument.min_qty_1e8 = 0;
    if (!(instrument.min_funds_1e9 >= 0)) instrument.min_funds_1e9 = 0;
    out.push(instrument);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Client order ids

/**
 * KuCoin's `clientOid`: "can only contain numbers, letters, underscores (_), and hyphens (-)
 * ... The maximum length for the ClientOid is 40 characters" (Add Order, HF).
 */
export const CLIENT_OID = /^[A-Za-z0-9_-]{1,40}$/;

/**
 * Our child id as the order's `clientOid`, unchanged: `ord_<16 alphanumerics>-<n>` is letters,
 * digits, `_` and `-`, 22 characters for the first children. Undefined for an id that is not
 * one of ours or is past 40 characters: that leg must be refused (a child that cannot be found
 * by its id could be sent twice).
 */
export function kucoinClientOid(childId: string): string | undefined {
  return isChildId(childId) && CLIENT_OID.test(childId) ? childId : undefined;
}

/** The child id of an order on the venue; undefined for one this service did not place. */
export function childIdOfKucoin(clientOid: string): string | undefined {
  return CLIENT_OID.test(clientOid) && isChildId(clientOid) ? clientOid : undefined;
}

// ---------------------------------------------------------------------------------------------
// Orders

/**
 * The JSON body of `POST /api/v1/hf/orders` for a child; undefined when the child id cannot be
 * a `clientOid`. A priced child is `limit` with `timeInForce` IOC or GTC; an unpriced one is
 * `market` by `size` (base quantity, either side; the alternative is `funds` in quote). With
 * `acceptBy` the gateway refuses the order once `clientTimestamp + allowMaxTimeWindow` has
 * passed when it arrives, so a lookup that finds nothing after that is final
 * (`clientTimestamp` must equal the request's KC-API-TIMESTAMP).
 */
export function orderBody(
  symbol: string,
  childId: string,
  side: 'buy' | 'sell',
  qty_1e8: number,
  limit_1e9: number | null,
  tif: 'ioc' | 'gtc',
  acceptBy?: { clientTimestampMs: number; allowMaxTimeWindowMs: number },
): string | undefined {
  const clientOid = kucoinClientOid(childId);
  if (clientOid === undefined || !SYMBOL.test(symbol) || !(qty_1e8 > 0)) return undefined;
  const size = formatScaled(qty_1e8, QTY);
  const window = acceptBy === undefined ? {} : { allowMaxTimeWindow: acceptBy.allowMaxTimeWindowMs, clientTimestamp: acceptBy.clientTimestampMs };
  if (limit_1e9 === null) return JSON.stringify({ clientOid, side, symbol, type: 'market', size, ...window });
  if (!(limit_1e9 > 0)) return undefined;
  return JSON.stringify({ clientOid, side, symbol, type: 'limit', price: formatScaled(limit_1e9, PRICE), size, timeInForce: tif === 'ioc' ? 'IOC' : 'GTC', ...window });
}

/** An order's sizes as the sync endpoints answer them (place sync, cancel sync). */
export interface KucoinOrderSizes {
  /** `status` "done" (no longer working), else "open" */
  done: boolean;
  filled_qty_1e8: number;
  cancelled_qty_1e8: number;
  remain_qty_1e8: number;
}

function sizesOf(data: Record<string, unknown>): KucoinOrderSizes | undefined {
  if (data['status'] !== 'done' && data['status'] !== 'open') return undefined;
  const filled = exactScaled(data['dealSize'], QTY);
  const cancelled = exactScaled(data['canceledSize'], QTY);
  const remain = exactScaled(data['remainSize'], QTY);
  if (!(filled >= 0) || !(cancelled >= 0) || !(remain >= 0)) return undefined;
  return { done: data['status'] === 'done', filled_qty_1e8: filled, cancelled_qty_1e8: cancelled, remain_qty_1e8: remain };
}

/** What `POST /api/v1/hf/orders` (or `/sync`) said. */
export type KucoinOrderAck =
  | {
      ok: true;
      orderId: string;
      clientOid: string;
      /** with `/api/v1/hf/orders/sync` only: the order once matching is done */
      sizes?: KucoinOrderSizes;
    }
  | { ok: false; failure: KucoinFailure; error: KucoinError; reason: string };

/**
 * The answer to a place request: `{code: "200000", data: {orderId, clientOid}}`, or an error.
 * `POST /api/v1/hf/orders` is asynchronous: the answer says the order was taken, not what it
 * did (read it back by clientOid); `/api/v1/hf/orders/sync` answers after matching, with the
 * sizes (an IOC is then done in one round trip). Undefined for a body that is neither.
 */
export function decodeOrderAck(httpStatus: number, body: unknown): KucoinOrderAck | undefined {
  const error = kucoinError(body);
  if (error !== undefined) return { ok: false, failure: classifyFailure(httpStatus, error), error, reason: reasonOf(error) };
  const data = dataOf(body);
  if (!isRecord(data) || typeof data['orderId'] !== 'string' || data['orderId'] === '') return undefined;
  const ack: KucoinOrderAck = { ok: true, orderId: data['orderId'], clientOid: typeof data['clientOid'] === 'string' ? data['clientOid'] : '' };
  if (data['status'] !== undefined) {
    const sizes = sizesOf(data);
    if (sizes === undefined) return undefined;
    ack.sizes = sizes;
  }
  return ack;
}

/** An HF order (`GET /api/v1/hf/orders/client-order/{clientOid}`, or a row of the open orders), in engine units. */
export interface KucoinOrder {
  orderId: string;
  clientOid: string;
  symbol: string;
  type: 'limit' | 'market';
  /** `active`: the order is not done (it may still be matching, `inOrderBook` false) */
  active: boolean;
  /** `dealSize` */
  filled_qty_1e8: number;
  /** what still rests on the book: `remainSize` of an active limit order, else 0 */
  resting_qty_1e8: number;
}

/**
 * `{found: false}` when the venue answers success with no order (`data` null); an error answer
 * (400100 "order not exist.", see `classifyFailure`) is the caller's to read with
 * `kucoinError`. Undefined for an unreadable body. HF orders have no `status` string: `active`
 * says whether the order is done; `remainSize` is what is left, `size - dealSize -
 * cancelledSize` when absent.
 */
export function decodeOrder(body: unknown): { found: false } | { found: true; order: KucoinOrder } | undefined {
  if (kucoinError(body) !== undefined || !isRecord(body) || !('data' in body)) return undefined;
  const data = body['data'];
  if (data === null) return { found: false };
  const order = orderOf(data);
  return order === undefined ? undefined : { found: true, order };
}

function orderOf(row: unknown): KucoinOrder | undefined {
  if (!isRecord(row)) return undefined;
  const { id, clientOid, symbol, type, active } = row;
  if (typeof id !== 'string' || typeof symbol !== 'string' || (type !== 'limit' && type !== 'market') || typeof active !== 'boolean') return undefined;
  const filled = exactScaled(row['dealSize'], QTY);
  if (!(filled >= 0)) return undefined;
  let resting = 0;
  if (active && type === 'limit') {
    let remain = exactScaled(row['remainSize'], QTY);
    if (Number.isNaN(remain)) {
      const size = exactScaled(row['size'], QTY);
      const cancelled = row['cancelledSize'] === undefined ? 0 : exactScaled(row['cancelledSize'], QTY);
      remain = size - filled - cancelled;
    }
    if (Number.isNaN(remain)) return undefined;
    resting = remain > 0 ? remain : 0;
  }
  return { orderId: id, clientOid: typeof clientOid === 'string' ? clientOid : '', symbol, type, active, filled_qty_1e8: filled, resting_qty_1e8: resting };
}

/** `GET /api/v1/hf/orders/active?symbol=`: the open orders of one symbol. Undefined for an error or an unreadable row. */
export function decodeOpenOrders(body: unknown): KucoinOrder[] | undefined {
  const data = dataOf(body);
  if (data === null) return [];
  if (!Array.isArray(data)) return undefined;
  const out: KucoinOrder[] = [];
  for (const row of data as unknown[]) {
    const order = orderOf(row);
    if (order === undefined) return undefined;
    out.push(order);
  }
  return out;
}

/** `GET /api/v1/hf/orders/active/symbols`: the symbols with open orders. */
export function decodeActiveSymbols(body: unknown): string[] | undefined {
  const data = dataOf(body);
  if (data === null) return [];
  if (!isRecord(data)) return undefined;
  const symbols = data['symbols'];
  if (symbols === null || symbols === undefined) return [];
  if (!Array.isArray(symbols) || !symbols.every((s) => typeof s === 'string')) return undefined;
  return symbols as string[];
}

/**
 * `DELETE /api/v1/hf/orders/sync/client-order/{clientOid}`: the order's sizes once the cancel
 * is done, `status` "done" or "open" (still working: ask again).
 */
export function decodeCancelSync(body: unknown): KucoinOrderSizes | undefined {
  const data = dataOf(body);
  return isRecord(data) ? sizesOf(data) : undefined;
}

/** `DELETE /api/v1/hf/orders/client-order/{clientOid}`: the cancel request was taken (its result is read from the order). */
export function decodeCancelAck(body: unknown): { clientOid: string } | undefined {
  const data = dataOf(body);
  return isRecord(data) && typeof data['clientOid'] === 'string' ? { clientOid: data['clientOid'] } : undefined;
}

/** `DELETE /api/v1/hf/orders?symbol=`: "success" (the cancels were requested, not done). */
export function decodeCancelAllAck(body: unknown): boolean {
  return dataOf(body) === 'success';
}

/** A child's report from its order and its fills. */
export function legReportOf(order: KucoinOrder, fills: VenueFill[]): LegReport {
  return { ok: true, reason: null, fills, resting_qty_1e8: order.resting_qty_1e8 };
}

// ---------------------------------------------------------------------------------------------
// Fills

/**
 * `GET /api/v1/hf/fills` (one order's, asked by `orderId`): `data.items` as fills, oldest first
 * (the venue lists newest first), and `lastId` for the next page.
 *
 * The trade id is the row's `id` ("Id of transaction detail"), not `tradeId`: KuCoin sends
 * `tradeId` as a bare JSON number past 2^53 (the reference's own examples: 11029373945659392;
 * 10046097631627265 in a ledger row), which JSON.parse rounds to an even neighbour, so two
 * fills could read as one and the edge, which tells a fill once per trade id, would drop one.
 * `id` is unique per fill row of the account and well inside 2^53 (19814995255305). A row
 * whose `id` is not a safe integer makes the answer unreadable rather than guessed.
 */
export function decodeFills(body: unknown, fees: FeeContext): { fills: VenueFill[]; lastId: number | undefined } | undefined {
  const data = dataOf(body);
  if (!isRecord(data)) return undefined;
  const items = data['items'] === null ? [] : data['items'];
  if (!Array.isArray(items)) return undefined;
  const fills: VenueFill[] = [];
  for (const t of items as unknown[]) {
    if (!isRecord(t)) return undefined;
    const id = integer(t['id']);
    const price_1e9 = exactScaled(t['price'], PRICE);
    const qty_1e8 = exactScaled(t['size'], QTY);
    if (id === undefined || !(price_1e9 > 0) || !(qty_1e8 > 0)) return undefined;
    const isMaker = t['liquidity'] === 'maker';
    // `fee` is a charge positive (a maker rebate negative); one without a currency is taken to be
    // in the quote. A third currency is KCS, when the account pays fees with it.
    const asset = typeof t['feeCurrency'] === 'string' && t['feeCurrency'] !== '' ? t['feeCurrency'] : fees.quote;
    const priced = pricedFeeOf(asset, typeof t['fee'] === 'string' && t['fee'] !== '' ? t['fee'] : '0', fees, price_1e9, fees.fallbackFee(price_1e9, qty_1e8, isMaker), 1n);
    if (priced === undefined) return undefined;
    const ms = integer(t['createdAt']) ?? 0;
    const fill: VenueFill = { price_1e9, qty_1e8, trade_id: String(id), ts_ns: ms * 1_000_000, fee_1e9: priced.fee_1e9, is_maker: isMaker };
    if (priced.commission !== undefined) fill.commission = priced.commission;
    fills.push(fill);
  }
  fills.sort((a, b) => a.ts_ns - b.ts_ns || Number(a.trade_id) - Number(b.trade_id));
  return { fills, lastId: integer(data['lastId']) };
}

// ---------------------------------------------------------------------------------------------
// Account

/**
 * `GET /api/v1/accounts?type=trade`: `available` free and `holds` locked, per currency of the
 * trading account (rows of another type, should the filter be ignored, are left out). Zero rows
 * are kept: an asset sold out must reach the ledger as 0. Exact as bigints (a large stablecoin
 * account passes 2^53 in 1e8 units) and rounded down past 8 places: never more than the account
 * holds.
 */
export function decodeBalances(body: unknown): AssetBalance[] | undefined {
  const data = dataOf(body);
  if (!Array.isArray(data)) return undefined;
  const scale = 10n ** BigInt(QTY);
  const byAsset = new Map<string, AssetBalance>();
  for (const row of data as unknown[]) {
    if (!isRecord(row) || typeof row['currency'] !== 'string' || typeof row['available'] !== 'string' || typeof row['holds'] !== 'string') return undefined;
    if (row['type'] !== undefined && row['type'] !== 'trade') continue;
    const free = timesRounded(row['available'], scale, 'floor');
    const locked = timesRounded(row['holds'], scale, 'floor');
    if (free === undefined || locked === undefined) return undefined;
    const seen = byAsset.get(row['currency']);
    if (seen === undefined) byAsset.set(row['currency'], { asset: row['currency'], free_1e8: free, locked_1e8: locked });
    else {
      seen.free_1e8 += free;
      seen.locked_1e8 += locked;
    }
  }
  return [...byAsset.values()];
}

/** A fee rate ("0.001", "-0.00005") in basis points, exactly; NaN when unreadable. */
function rateBps(v: unknown): number {
  // 1e-8 of a rate is 1e-4 bps: rates have at most 5 decimals in practice.
  const scaled = exactScaled(v, 8);
  return Number.isNaN(scaled) ? NaN : scaled / 10_000;
}

/** `GET /api/v1/trade-fees?symbols=`: the account's actual maker and taker rates per symbol, in bps. */
export function decodeTradeFees(body: unknown): Map<string, { maker_bps: number; taker_bps: number }> | undefined {
  const data = dataOf(body);
  if (!Array.isArray(data)) return undefined;
  const out = new Map<string, { maker_bps: number; taker_bps: number }>();
  for (const row of data as unknown[]) {
    if (!isRecord(row) || typeof row['symbol'] !== 'string') return undefined;
    const maker_bps = rateBps(row['makerFeeRate']);
    const taker_bps = rateBps(row['takerFeeRate']);
    if (Number.isNaN(maker_bps) || Number.isNaN(taker_bps)) return undefined;
    out.set(row['symbol'], { maker_bps, taker_bps });
  }
  return out;
}

/** `GET /api/v1/user/api-key`: the key's permissions and version. */
export interface KucoinKeyInfo {
  /** `permission`, split: "General, Spot, Margin, Futures, InnerTransfer, Transfer, Earn" */
  permissions: string[];
  /** `apiVersion` (2 or 3), null when absent */
  apiVersion: number | null;
}

export function decodeApiKeyInfo(body: unknown): KucoinKeyInfo | undefined {
  const data = dataOf(body);
  if (!isRecord(data) || typeof data['permission'] !== 'string') return undefined;
  const permissions = data['permission'].split(',').map((p) => p.trim()).filter((p) => p !== '');
  return { permissions, apiVersion: integer(data['apiVersion']) ?? null };
}

/**
 * The account probe from the key's permissions and the account's fee rates on one symbol (or
 * the edge's schedule when unread). Trading spot needs `Spot` (the permission the reference
 * names for placing and cancelling; `Trade` on keys of the older scheme). Withdrawing: the
 * withdrawal endpoints require the `Withdrawal` permission, while the key answer lists the
 * possible values as "General, Spot, Margin, Futures, InnerTransfer, Transfer, Earn"; so
 * `Transfer` is read as the withdrawal right and `Withdrawal` too should it appear.
 * `InnerTransfer` (and `FlexTransfers`) only move funds between the user's own accounts.
 */
export function probeOf(key: KucoinKeyInfo, rates: { maker_bps: number; taker_bps: number } | undefined, fallback: { maker_bps: number; taker_bps: number }): AccountProbe {
  const has = (name: string) => key.permissions.some((p) => p.toLowerCase() === name.toLowerCase());
  const { maker_bps, taker_bps } = rates ?? fallback;
  return {
    tier: `maker ${maker_bps} bps / taker ${taker_bps} bps`,
    maker_bps,
    taker_bps,
    can_trade: has('Spot') || has('Trade'),
    can_withdraw: has('Transfer') || has('Withdrawal'),
  };
}
