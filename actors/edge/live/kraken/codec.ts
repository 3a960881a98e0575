import { decimalOf, divRounded, formatScaled, parseScaled, safeNumber, scaledRounded } from '../decimal.ts';
import type { FeeContext } from '../fees.ts';
import type { AssetBalance, LegReport, VenueFill } from '../venue.ts';
import type { KrakenBookData, KrakenBookDepth } from './book-sync.ts';

/**
 * Kraken spot's wire formats, decoded into the engine's integers and encoded from them. Pure.
 * Prices are 1e9, quantities 1e8. Field names and shapes are those of Kraken's REST OpenAPI
 * spec (github.com/krakenfx/api-specs, spot-rest/) and the WebSocket v2 docs
 * (https://docs.kraken.com/api/docs/websocket-v2/book and the v2 book checksum guide).
 *
 * Every REST answer is `{error: [...], result: {...}}`: HTTP 200 either way, a request refused
 * when `error` holds an entry of severity E (`EOrder:Insufficient funds`); entries of severity W
 * are warnings on a success. Private requests are form-encoded with `nonce` first and signed
 * with `krakenApiSign` (../signing.ts) over the exact body string built here.
 *
 * Market data and order sizes parse exactly (a book never takes a level it could not read); fees
 * and balances Kraken writes past our scale (the spec's own balance example: XXBT
 * "3.2223768244") are rounded against us: a charge up, a balance down.
 */

const PRICE = 9;
const QTY = 8;

// ---------------------------------------------------------------------------------------------
// Symbols

/**
 * REST `wsname` codes that v2 spells otherwise: `AssetPairs` still answers `XBT/USD` while v2
 * subscribes and answers `BTC/USD` (as nautilus_trader's Kraken adapter maps them, and as
 * captured v2 traffic shows); XDG is v2's DOGE.
 */
const V2_NAMES: ReadonlyMap<string, string> = new Map([
  ['XBT', 'BTC'],
  ['XDG', 'DOGE'],
]);

/** A `wsname` asset code as v2 (and this service) names it. */
export function v2AssetName(code: string): string {
  return V2_NAMES.get(code) ?? code;
}

/** Our symbol (`BTC-USD`) as Kraken's v2 symbol (`BTC/USD`): v2 names assets as we do. */
export function wsSymbolOf(symbol: string): string {
  return symbol.replace('-', '/');
}

/** A v2 symbol (`BTC/USD`) as ours (`BTC-USD`). */
export function symbolOfWs(wsSymbol: string): string {
  return wsSymbol.replace('/', '-');
}

// ---------------------------------------------------------------------------------------------
// WebSocket v2: the `book` channel

/** A decoded `book` message. */
export interface KrakenBookMessage {
  type: 'snapshot' | 'update';
  /** one entry per symbol the message carries, in order */
  data: KrakenBookData[];
  /** symbols whose entry could not be read exactly: their books are no longer known (resubscribe) */
  unreadable: string[];
}

/**
 * The JSON number after a `"price"` or `"qty"` key, to be quoted before `JSON.parse` so its text
 * survives (a float would print 0.10000000 as 0.1). Anchored on the `{` or `,` before the key:
 * inside a JSON string a quote is escaped, so in valid JSON this only matches real keys.
 */
const EXACT_NUMBER = /([{,]\s*"(?:price|qty)"\s*:\s*)(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;

/**
 * A v2 `book` message, from the frame's text (not a parsed object: the numbers' text is needed).
 * Undefined for any other frame (heartbeat, status, subscribe answers, other channels) and for
 * text that is not JSON. Prices and quantities are taken as written, whether JSON numbers (the
 * wire) or strings (the checksum guide's example); one with an exponent, a price that is not
 * positive, or a digit past our scale makes its symbol's entry unreadable rather than rounded.
 */
export function decodeBookMessage(text: string): KrakenBookMessage | undefined {
  if (text.indexOf('"book"') < 0) return undefined;
  let frame: unknown;
  try {
    frame = JSON.parse(text.replace(EXACT_NUMBER, '$1"$2"'));
  } catch {
    return undefined;
  }
  if (typeof frame !== 'object' || frame === null) return undefined;
  const f = frame as Record<string, unknown>;
  const type = f['type'];
  if (f['channel'] !== 'book' || (type !== 'snapshot' && type !== 'update') || !Array.isArray(f['data'])) return undefined;
  const data: KrakenBookData[] = [];
  const unreadable: string[] = [];
  for (const raw of f['data'] as unknown[]) {
    if (typeof raw !== 'object' || raw === null) return undefined;
    const d = raw as Record<string, unknown>;
    const symbol = d['symbol'];
    if (typeof symbol !== 'string') return undefined;
    const bids = bookLevels(d['bids']);
    const asks = bookLevels(d['asks']);
    const checksum = d['checksum'] === undefined ? null : d['checksum'];
    if (bids === undefined || asks === undefined || (checksum !== null && !(Number.isInteger(checksum) && (checksum as number) >= 0 && (checksum as number) <= 0xffffffff))) {
      unreadable.push(symbol);
      continue;
    }
    const ts = typeof d['timestamp'] === 'string' ? Date.parse(d['timestamp']) : NaN;
    data.push({ symbol, bids: bids.levels, asks: asks.levels, bidText: bids.text, askText: asks.text, checksum: checksum as number | null, ts_ms: Number.isFinite(ts) ? ts : null });
  }
  return { type, data, unreadable };
}

/** Levels `[{price, qty}]` (text after `decodeBookMessage`'s quoting) into flat integers and their text; an absent side is empty. */
function bookLevels(raw: unknown): { levels: number[]; text: string[] } | undefined {
  if (raw === undefined) return { levels: [], text: [] };
  if (!Array.isArray(raw)) return undefined;
  const levels = new Array<number>(raw.length * 2);
  const text = new Array<string>(raw.length * 2);
  for (let i = 0; i < raw.length; i++) {
    const level = raw[i] as unknown;
    if (typeof level !== 'object' || level === null) return undefined;
    const { price, qty } = level as Record<string, unknown>;
    if (typeof price !== 'string' || typeof qty !== 'string') return undefined;
    const px = parseScaled(price, PRICE);
    const sz = parseScaled(qty, QTY);
    if (!(px > 0) || !(sz >= 0)) return undefined;
    levels[2 * i] = px;
    levels[2 * i + 1] = sz;
    text[2 * i] = price;
    text[2 * i + 1] = qty;
  }
  return { levels, text };
}

/** The `book` subscribe (or unsubscribe) request; the depth must be the one the sync truncates to. */
export function bookSubscription(method: 'subscribe' | 'unsubscribe', wsSymbols: readonly string[], depth: KrakenBookDepth = 10): string {
  return JSON.stringify({ method, params: { channel: 'book', symbol: wsSymbols, depth } });
}

/** A v2 request's answer (one per symbol for a subscription). */
export interface KrakenAck {
  method: string;
  success: boolean;
  channel: string | null;
  symbol: string | null;
  /** the venue's message when refused ("Subscription depth not supported") */
  error: string | null;
}

/** A v2 answer (`{method, success, result?, error?}`); undefined for channel messages. */
export function decodeAck(frame: unknown): KrakenAck | undefined {
  if (typeof frame !== 'object' || frame === null) return undefined;
  const f = frame as Record<string, unknown>;
  if (typeof f['method'] !== 'string' || typeof f['success'] !== 'boolean') return undefined;
  const result = (typeof f['result'] === 'object' && f['result'] !== null ? f['result'] : {}) as Record<string, unknown>;
  return {
    method: f['method'],
    success: f['success'],
    channel: typeof result['channel'] === 'string' ? result['channel'] : null,
    symbol: typeof result['symbol'] === 'string' ? result['symbol'] : null,
    error: typeof f['error'] === 'string' ? f['error'] : null,
  };
}

// ---------------------------------------------------------------------------------------------
// REST envelope

/** What an error says about the request, for the caller's handling. */
export type KrakenErrorKind =
  /** `EOrder:Unknown order`, `EOrder:Invalid order` (a lookup or cancel of an id the venue does not know) */
  | 'unknown-order'
  /** `EAPI:Invalid key`, `EAPI:Invalid signature`, `EGeneral:Permission denied` */
  | 'auth'
  /** `EAPI:Invalid nonce`: refused before anything else, a fresh nonce may be sent */
  | 'nonce'
  /** `EAPI:Rate limit exceeded`, `EOrder:Rate limit exceeded`, `EGeneral:Temporary lockout`, `EService:Throttled` */
  | 'rate-limit'
  /** `EOrder:Insufficient funds` */
  | 'funds'
  /** `EService:*`, `EGeneral:Internal error`: the venue's side; the docs do not say whether an order got through */
  | 'service'
  /** anything else: the request refused as sent (`EGeneral:Invalid arguments`, `EOrder:Order minimum not met`, ...) */
  | 'refused';

export interface KrakenError {
  /** the E entries as sent */
  errors: string[];
  /** `kraken <errors>`, the child's reason */
  reason: string;
  kind: KrakenErrorKind;
  /**
   * The venue says the order does not exist. Only for a lookup or a cancel: an AddOrder refused
   * with `EOrder:Invalid order` is a refusal of its parameters, and any AddOrder error is a refusal.
   */
  unknownOrder: boolean;
}

/** Error entries that mean the order is not (or no longer) there: CancelOrder answers `Unknown order`; QueryOrders and CancelOrder answer `Invalid order` for an id they cannot place. */
export const NO_SUCH_ORDER: ReadonlySet<string> = new Set(['EOrder:Unknown order', 'EOrder:Invalid order']);

const KINDS: readonly (readonly [string, KrakenErrorKind])[] = [
  ['EOrder:Unknown order', 'unknown-order'],
  ['EOrder:Invalid order', 'unknown-order'],
  ['EAPI:Invalid key', 'auth'],
  ['EAPI:Invalid signature', 'auth'],
  ['EGeneral:Permission denied', 'auth'],
  ['EAPI:Invalid nonce', 'nonce'],
  ['EAPI:Rate limit exceeded', 'rate-limit'],
  ['EOrder:Rate limit exceeded', 'rate-limit'],
  ['EGeneral:Temporary lockout', 'rate-limit'],
  ['EService:Throttled', 'rate-limit'],
  ['EOrder:Insufficient funds', 'funds'],
  ['EService:', 'service'],
  ['EGeneral:Internal error', 'service'],
];

function kindOf(error: string): KrakenErrorKind {
  // Entries may carry a detail after the message ("EGeneral:Internal error:<code>", "EService:Throttled: <ts>").
  for (const [prefix, kind] of KINDS) if (error.startsWith(prefix)) return kind;
  return 'refused';
}

/** The errors of an answer; undefined for a success (warnings only) or a body that is not an answer. */
export function krakenError(body: unknown): KrakenError | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const list = (body as Record<string, unknown>)['error'];
  if (!Array.isArray(list)) return undefined;
  const errors = list.filter((e): e is string => typeof e === 'string' && e.startsWith('E'));
  if (errors.length === 0) return undefined;
  const kinds = errors.map(kindOf);
  // The first entry that says more than 'refused' decides; Kraken sends one entry in practice.
  const kind = kinds.find((k) => k !== 'refused') ?? 'refused';
  return { errors, reason: `kraken ${errors.join('; ')}`, kind, unknownOrder: errors.some((e) => NO_SUCH_ORDER.has(e)) };
}

/** The `result` object of a successful answer; undefined for an error or an unreadable body. */
function resultOf(body: unknown): Record<string, unknown> | undefined {
  if (typeof body !== 'object' || body === null || krakenError(body) !== undefined) return undefined;
  const b = body as Record<string, unknown>;
  if (!Array.isArray(b['error'])) return undefined;
  const result = b['result'];
  return typeof result === 'object' && result !== null && !Array.isArray(result) ? (result as Record<string, unknown>) : undefined;
}

/** The object values of a map-shaped result (`{txid: order}`), with their keys; undefined when one is not an object. */
function entries(map: unknown): [string, Record<string, unknown>][] | undefined {
  if (typeof map !== 'object' || map === null || Array.isArray(map)) return undefined;
  const out: [string, Record<string, unknown>][] = [];
  for (const [key, value] of Object.entries(map as Record<string, unknown>)) {
    if (typeof value !== 'object' || value === null) return undefined;
    out.push([key, value as Record<string, unknown>]);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Instruments

/** A spot pair from `GET /0/public/AssetPairs`, in engine units. */
export interface KrakenInstrument {
  /** ours, `BTC-USD` */
  symbol: string;
  /** v2's, `BTC/USD` (from `wsname`, with v2's asset names) */
  wsSymbol: string;
  /** the result key, `XXBTZUSD` (trades name their pair so) */
  pair: string;
  /** `XBTUSD`: what orders are sent with and name their pair by */
  altname: string;
  /** our asset names (`BTC`, `USD`) and Kraken's asset ids (`XXBT`, `ZUSD`, as balances key them) */
  base: string;
  quote: string;
  baseId: string;
  quoteId: string;
  /** `online`, `cancel_only`, `post_only`, `limit_only`, `reduce_only` */
  status: string;
  trading: boolean;
  /** `pair_decimals`: prices carry at most this many decimals (more is refused) */
  price_decimals: number;
  lot_decimals: number;
  tick_1e9: number;
  /** one unit of the last volume decimal */
  lot_1e8: number;
  /** `ordermin`, base */
  min_qty_1e8: number;
  /** `costmin`, in the quote currency x 1e9 (0 when not given) */
  min_cost_1e9: number;
}

/**
 * The listings of an `AssetPairs` answer. Left out: pairs without a `wsname` (not on the
 * WebSocket), of another asset class than `currency` (tokenized stocks need their own order
 * parameter), and pairs whose decimals our scales cannot hold (prices past 9, volumes past 8).
 */
export function decodeAssetPairs(body: unknown): KrakenInstrument[] {
  const pairs = entries(resultOf(body));
  if (pairs === undefined) return [];
  const out: KrakenInstrument[] = [];
  for (const [pair, p] of pairs) {
    const { altname, wsname, base, quote, pair_decimals, lot_decimals } = p;
    if (typeof altname !== 'string' || typeof wsname !== 'string' || typeof base !== 'string' || typeof quote !== 'string') continue;
    if (p['aclass_base'] !== undefined && p['aclass_base'] !== 'currency') continue;
    if (!Number.isInteger(pair_decimals) || !Number.isInteger(lot_decimals)) continue;
    const pd = pair_decimals as number;
    const ld = lot_decimals as number;
    if (pd < 0 || pd > PRICE || ld < 0 || ld > QTY) continue;
    const parts = wsname.split('/');
    if (parts.length !== 2 || parts[0] === '' || parts[1] === '') continue;
    const baseName = v2AssetName(parts[0]!);
    const quoteName = v2AssetName(parts[1]!);
    const tick = typeof p['tick_size'] === 'string' ? parseScaled(p['tick_size'], PRICE) : 10 ** (PRICE - pd);
    if (!(tick > 0)) continue;
    const minQty = typeof p['ordermin'] === 'string' ? safeNumber(scaledRounded(p['ordermin'], QTY, 'ceil')) : 0;
    const minCost = typeof p['costmin'] === 'string' ? safeNumber(scaledRounded(p['costmin'], PRICE, 'ceil')) : 0;
    const status = typeof p['status'] === 'string' ? p['status'] : 'online';
    out.push({
      symbol: `${baseName}-${quoteName}`,
      wsSymbol: `${baseName}/${quoteName}`,
      pair,
      altname,
      base: baseName,
      quote: quoteName,
      baseId: base,
      quoteId: quote,
      status,
      trading: status === 'online',
      price_decimals: pd,
      lot_decimals: ld,
      tick_1e9: tick,
      lot_1e8: 10 ** (QTY - ld),
      min_qty_1e8: minQty >= 0 ? minQty : 0,
      min_cost_1e9: minCost >= 0 ? minCost : 0,
    });
  }
  return out;
}

/** Kraken's asset ids (`XXBT`, `ZUSD`, `USDT`) as our asset names, from the pairs that list them. */
export function assetNames(instruments: readonly KrakenInstrument[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const i of instruments) {
    names.set(i.baseId, i.base);
    names.set(i.quoteId, i.quote);
  }
  return names;
}

// ---------------------------------------------------------------------------------------------
// Client order ids

/**
 * Kraken's `cl_ord_id` formats (AddOrder, spot-rest OpenAPI): a long UUID (32 hex in 8-4-4-4-12),
 * a short UUID (32 hex, no dashes), or free ASCII text of up to 18 characters.
 */
export const CL_ORD_ID = /^(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[0-9a-fA-F]{32}|[\x20-\x7e]{1,18})$/;

/**
 * Our child ids as the store makes them: `ord_`, 13 base36 characters (9 of ms, 4 of sequence),
 * 3 base62 characters (the process suffix), `-`, the child's number (no leading zero).
 */
const NODE_CHILD_ID = /^ord_([0-9a-z]{13})([0-9A-Za-z]{3})-(0|[1-9]\d{0,4})$/;
const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const TIME_SPAN = 36n ** 13n;
const SUFFIX_SPAN = 62n ** 3n;
/** Marks a UUID as ours: a foreign random UUID passes for one of our child ids with a chance below 1 in 2^20. */
const TAG = 0x5e9cen;
const MAX_CHILD = 0xffff;

function digitsValue(text: string, alphabet: string): bigint {
  let v = 0n;
  const radix = BigInt(alphabet.length);
  for (let i = 0; i < text.length; i++) v = v * radix + BigInt(alphabet.indexOf(text[i]!));
  return v;
}

function valueDigits(value: bigint, alphabet: string, width: number): string {
  const radix = BigInt(alphabet.length);
  let out = '';
  for (let i = 0; i < width; i++) {
    out = alphabet[Number(value % radix)]! + out;
    value /= radix;
  }
  return out;
}

/**
 * Our child id (`ord_0mwz4ka3500001oq-1`, 22 characters and more) as a Kraken `cl_ord_id`: too
 * long for free text (18), so packed into a version-4-shaped long UUID. Its 122 free bits hold
 * a 20-bit tag (0x5e9ce: the UUID starts `5e9ce`), the child number (16 bits), the suffix
 * (3 base62, 18 bits) and the time-and-sequence part (13 base36, 68 bits); the version nibble
 * (4) and variant bits (10) are set as RFC 4122 has them, so no validator can refuse it.
 * Injective, and `childIdOfKraken` undoes it. Undefined for an id not of the store's shape or
 * with a child number past 65535: that leg must be refused (a child that cannot be found by its
 * id could be sent twice).
 */
export function krakenClientOrderId(childId: string): string | undefined {
  const m = NODE_CHILD_ID.exec(childId);
  if (m === null) return undefined;
  const n = Number(m[3]!);
  if (n > MAX_CHILD) return undefined;
  const x = (TAG << 102n) | (BigInt(n) << 86n) | (digitsValue(m[2]!, BASE62) << 68n) | digitsValue(m[1]!, BASE36);
  const hi = (x >> 62n).toString(16).padStart(15, '0');
  const lo = x & ((1n << 62n) - 1n);
  const hex = `${hi.slice(0, 12)}4${hi.slice(12)}${(8n | (lo >> 60n)).toString(16)}${(lo & ((1n << 60n) - 1n)).toString(16).padStart(15, '0')}`;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The child id a `cl_ord_id` was made from, in its long or short UUID spelling and either case
 * (the docs do not say in which spelling Kraken echoes a UUID back); undefined for one
 * `krakenClientOrderId` cannot have made (an order placed by hand or by another program).
 */
export function childIdOfKraken(clOrdId: string): string | undefined {
  let hex = clOrdId.toLowerCase();
  if (hex.length === 36) {
    if (hex[8] !== '-' || hex[13] !== '-' || hex[18] !== '-' || hex[23] !== '-') return undefined;
    hex = hex.slice(0, 8) + hex.slice(9, 13) + hex.slice(14, 18) + hex.slice(19, 23) + hex.slice(24);
  }
  if (!/^[0-9a-f]{32}$/.test(hex) || hex[12] !== '4') return undefined;
  const variant = parseInt(hex[16]!, 16);
  if (variant < 8 || variant > 11) return undefined;
  const x = (BigInt(`0x${hex.slice(0, 12)}${hex.slice(13, 16)}`) << 62n) | (BigInt(variant & 3) << 60n) | BigInt(`0x${hex.slice(17)}`);
  if (x >> 102n !== TAG) return undefined;
  const n = (x >> 86n) & 0xffffn;
  const suffix = (x >> 68n) & ((1n << 18n) - 1n);
  const time = x & ((1n << 68n) - 1n);
  if (suffix >= SUFFIX_SPAN || time >= TIME_SPAN) return undefined;
  return `ord_${valueDigits(time, BASE36, 13)}${valueDigits(suffix, BASE62, 3)}-${n}`;
}

// ---------------------------------------------------------------------------------------------
// Private request bodies

/** `application/x-www-form-urlencoded`, fields in the order given (the signature covers these exact bytes). */
export function formBody(fields: readonly (readonly [string, string])[]): string {
  return fields.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}

/** A child's volume and price as Kraken will take them. */
export interface OrderTerms {
  volume_1e8: number;
  /** null: a market order */
  price_1e9: number | null;
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/** The finest price the pair takes: a multiple of its tick that has no more than `pair_decimals` decimals. */
export function priceStep1e9(instrument: KrakenInstrument): number {
  const decimals = 10 ** (PRICE - instrument.price_decimals);
  return (instrument.tick_1e9 / gcd(instrument.tick_1e9, decimals)) * decimals;
}

/**
 * A child's terms on the pair: the volume down to the lot (never more than asked), the limit to
 * the price step toward the passive side (a buy down, a sell up: never beyond the SOR's limit),
 * refused below `ordermin` or, priced, below `costmin` (Kraken would refuse it: `EOrder:Order
 * minimum not met`, `EOrder:Cost minimum not met`). A market order's cost is the caller's.
 */
export function orderTerms(instrument: KrakenInstrument, side: 'buy' | 'sell', qty_1e8: number, limit_1e9: number | null): { ok: true; terms: OrderTerms } | { ok: false; reason: string } {
  const volume = qty_1e8 - (qty_1e8 % instrument.lot_1e8);
  if (!(volume > 0)) return { ok: false, reason: `below Kraken's lot size for ${instrument.altname} (${formatScaled(instrument.lot_1e8, QTY)})` };
  if (volume < instrument.min_qty_1e8) return { ok: false, reason: `below Kraken's minimum order size for ${instrument.altname} (ordermin ${formatScaled(instrument.min_qty_1e8, QTY)})` };
  if (limit_1e9 === null) return { ok: true, terms: { volume_1e8: volume, price_1e9: null } };
  const step = priceStep1e9(instrument);
  const rest = limit_1e9 % step;
  const price = rest === 0 ? limit_1e9 : side === 'buy' ? limit_1e9 - rest : limit_1e9 - rest + step;
  if (!(price > 0)) return { ok: false, reason: `limit below Kraken's price step for ${instrument.altname}` };
  if (BigInt(volume) * BigInt(price) < BigInt(instrument.min_cost_1e9) * 10n ** BigInt(QTY)) {
    return { ok: false, reason: `below Kraken's minimum order cost for ${instrument.altname} (costmin ${formatScaled(instrument.min_cost_1e9, PRICE)} ${instrument.quote})` };
  }
  return { ok: true, terms: { volume_1e8: volume, price_1e9: price } };
}

/**
 * `POST /0/private/AddOrder` for a child; undefined when the child id has no `cl_ord_id`. A
 * priced child is `limit` with `timeinforce` IOC or GTC (the price has at most `pair_decimals`
 * decimals after `orderTerms`), an unpriced one `market` (volume in base). `oflags=fciq` on every
 * order: the fee in the quote currency, which the spec makes the default only for buys (`fcib`,
 * the fee in base, is "default if selling"). With `deadline` (RFC 3339, 2 to 60 s ahead) the
 * matching engine refuses the order once it passes: after it, a lookup that finds nothing is final.
 */
export function addOrderBody(nonce: string, instrument: KrakenInstrument, childId: string, side: 'buy' | 'sell', terms: OrderTerms, tif: 'ioc' | 'gtc', deadline?: string): string | undefined {
  const clOrdId = krakenClientOrderId(childId);
  if (clOrdId === undefined) return undefined;
  const fields: [string, string][] = [
    ['nonce', nonce],
    ['ordertype', terms.price_1e9 === null ? 'market' : 'limit'],
    ['type', side],
    ['volume', formatScaled(terms.volume_1e8, QTY)],
    ['pair', instrument.altname],
  ];
  if (terms.price_1e9 !== null) fields.push(['price', formatScaled(terms.price_1e9, PRICE)], ['timeinforce', tif === 'ioc' ? 'IOC' : 'GTC']);
  fields.push(['oflags', 'fciq'], ['cl_ord_id', clOrdId]);
  if (deadline !== undefined) fields.push(['deadline', deadline]);
  return formBody(fields);
}

/** `POST /0/private/CancelOrder`, by our `cl_ord_id` or Kraken's `txid`. */
export function cancelOrderBody(nonce: string, order: { cl_ord_id: string } | { txid: string }): string {
  return formBody([['nonce', nonce], 'cl_ord_id' in order ? ['cl_ord_id', order.cl_ord_id] : ['txid', order.txid]]);
}

/** `POST /0/private/CancelAll`: every open order of the account, whoever placed it (no pair filter). */
export function cancelAllBody(nonce: string): string {
  return formBody([['nonce', nonce]]);
}

/**
 * `POST /0/private/OpenOrders` (all, or the one with this `cl_ord_id`), with the trade ids of each
 * order. Unlike ClosedOrders and QueryOrders it takes no `consolidate_taker`.
 */
export function openOrdersBody(nonce: string, clOrdId?: string): string {
  const fields: [string, string][] = [['nonce', nonce], ['trades', 'true']];
  if (clOrdId !== undefined) fields.push(['cl_ord_id', clOrdId]);
  return formBody(fields);
}

/**
 * `POST /0/private/ClosedOrders` filtered by `cl_ord_id` (QueryOrders takes only txids), taker
 * trades not consolidated: each trade id a fill at a book price, not an average over makers.
 */
export function closedOrdersBody(nonce: string, clOrdId: string): string {
  return formBody([['nonce', nonce], ['trades', 'true'], ['cl_ord_id', clOrdId], ['consolidate_taker', 'false']]);
}

/** `POST /0/private/QueryOrders` by txid (at most 50). */
export function queryOrdersBody(nonce: string, txids: readonly string[]): string {
  if (txids.length === 0 || txids.length > 50) throw new RangeError(`QueryOrders takes 1 to 50 txids, got ${txids.length}`);
  return formBody([['nonce', nonce], ['txid', txids.join(',')], ['trades', 'true'], ['consolidate_taker', 'false']]);
}

/** `POST /0/private/QueryTrades` by trade txid (at most 20). */
export function queryTradesBody(nonce: string, tradeIds: readonly string[]): string {
  if (tradeIds.length === 0 || tradeIds.length > 20) throw new RangeError(`QueryTrades takes 1 to 20 txids, got ${tradeIds.length}`);
  return formBody([['nonce', nonce], ['txid', tradeIds.join(',')]]);
}

/** `POST /0/private/Balance` and `/0/private/BalanceEx`: the nonce alone. */
export function balanceBody(nonce: string): string {
  return formBody([['nonce', nonce]]);
}

// ---------------------------------------------------------------------------------------------
// Orders

/** What AddOrder said. */
export type KrakenOrderAck = { ok: true; txid: string } | { ok: false; reason: string; kind: KrakenErrorKind };

/** The AddOrder answer (`result.txid: [id]`); undefined for a body that is neither an answer nor an error. */
export function decodeAddOrder(body: unknown): KrakenOrderAck | undefined {
  const error = krakenError(body);
  if (error !== undefined) return { ok: false, reason: error.reason, kind: error.kind };
  const txid = resultOf(body)?.['txid'];
  if (!Array.isArray(txid) || typeof txid[0] !== 'string' || txid[0] === '') return undefined;
  return { ok: true, txid: txid[0] };
}

/** A CancelOrder or CancelAll answer: how many orders were cancelled, and whether pending. */
export function decodeCancel(body: unknown): { count: number; pending: boolean } | undefined {
  const result = resultOf(body);
  if (result === undefined || !Number.isInteger(result['count'])) return undefined;
  return { count: result['count'] as number, pending: result['pending'] === true };
}

const ORDER_STATUSES = new Set<string>(['pending', 'open', 'closed', 'canceled', 'expired']);
/** `descr.order`: "sell 3.00000000 XBTUSD @ limit 500.00000" (type, volume, pair, @, ordertype, price). */
const DESCR_ORDER = /^(buy|sell) \S+ (\S+) @ (\S+)/;

/** An order from QueryOrders, OpenOrders or ClosedOrders, in engine units. */
export interface KrakenOrder {
  txid: string;
  /** as the venue echoes it, or null */
  cl_ord_id: string | null;
  /** our child id, when the `cl_ord_id` is one `krakenClientOrderId` made */
  child_id: string | null;
  status: 'pending' | 'open' | 'closed' | 'canceled' | 'expired';
  /** the altname (`XBTUSD`) */
  pair: string;
  side: 'buy' | 'sell';
  ordertype: string;
  qty_1e8: number;
  filled_qty_1e8: number;
  /** what still rests on the book */
  resting_qty_1e8: number;
  /** the order's trade txids (asked with `trades=true`), for QueryTrades */
  trade_ids: string[];
  /** `oflags` has `fcib`: the venue took the fee in the base asset */
  fee_in_base: boolean;
}

/**
 * The orders of a QueryOrders (`{txid: order}`), OpenOrders (`{open: {...}}`) or ClosedOrders
 * (`{closed: {...}, count}`) answer, in the answer's order. What rests is `vol - vol_exec` while
 * `pending` (not yet on the book) or `open`; a market order never rests. Undefined for an error
 * answer (see `krakenError`) or an unreadable order.
 */
export function decodeOrders(body: unknown): KrakenOrder[] | undefined {
  const result = resultOf(body);
  if (result === undefined) return undefined;
  const map = typeof result['open'] === 'object' ? result['open'] : typeof result['closed'] === 'object' ? result['closed'] : result;
  const list = entries(map);
  if (list === undefined) return undefined;
  const out: KrakenOrder[] = [];
  for (const [txid, o] of list) {
    const status = o['status'];
    const descr = o['descr'] as Record<string, unknown> | undefined;
    if (typeof status !== 'string' || !ORDER_STATUSES.has(status) || typeof descr !== 'object' || descr === null) return undefined;
    // The spec's own OpenOrders example has only the `order` sentence in `descr`: read it when the fields are missing.
    const sentence = typeof descr['order'] === 'string' ? DESCR_ORDER.exec(descr['order']) : null;
    const side = typeof descr['type'] === 'string' ? descr['type'] : sentence?.[1];
    if (side !== 'buy' && side !== 'sell') return undefined;
    const qty = typeof o['vol'] === 'string' ? parseScaled(o['vol'], QTY) : NaN;
    const filled = typeof o['vol_exec'] === 'string' ? parseScaled(o['vol_exec'], QTY) : NaN;
    if (!(qty >= 0) || !(filled >= 0)) return undefined;
    const ordertype = typeof descr['ordertype'] === 'string' ? descr['ordertype'] : (sentence?.[3] ?? '');
    const working = (status === 'open' || status === 'pending') && ordertype !== 'market';
    const clOrdId = typeof o['cl_ord_id'] === 'string' && o['cl_ord_id'] !== '' ? o['cl_ord_id'] : null;
    const trades = Array.isArray(o['trades']) ? (o['trades'] as unknown[]).filter((t): t is string => typeof t === 'string') : [];
    const oflags = typeof o['oflags'] === 'string' ? o['oflags'].split(',') : [];
    out.push({
      txid,
      cl_ord_id: clOrdId,
      child_id: clOrdId === null ? null : (childIdOfKraken(clOrdId) ?? null),
      status: status as KrakenOrder['status'],
      pair: typeof descr['pair'] === 'string' ? descr['pair'] : (sentence?.[2] ?? ''),
      side,
      ordertype,
      qty_1e8: qty,
      filled_qty_1e8: filled,
      resting_qty_1e8: working && qty > filled ? qty - filled : 0,
      trade_ids: trades,
      fee_in_base: oflags.includes('fcib'),
    });
  }
  return out;
}

/** A child's report from its order and its fills. */
export function legReportOf(order: KrakenOrder, fills: VenueFill[]): LegReport {
  return { ok: true, reason: null, fills, resting_qty_1e8: order.resting_qty_1e8 };
}

// ---------------------------------------------------------------------------------------------
// Fills

/**
 * QueryTrades (`{txid: trade}`) or TradesHistory (`{trades: {...}, count}`) rows as fills, oldest
 * first; with `order`, only that order's (`ordertxid`). The trade's txid is the fill's id (Kraken's
 * unique trade reference; `trade_id` is not documented as unique across pairs). `fee` is
 * documented as "Total fee (quote currency)": a quote fee is USD (quotes here are USD-pegged),
 * rounded up past 9 places. On an order whose `oflags` say `fcib` the venue took the fee in
 * base, reported as a commission of fee / price in base (rounded up). A price written past our
 * scale (an average) is rounded to the nearest 1e-9; a volume must be exact. Undefined for an
 * error answer or an unreadable row.
 */
export function decodeTrades(body: unknown, fees: FeeContext, order?: Pick<KrakenOrder, 'txid' | 'fee_in_base'>): VenueFill[] | undefined {
  const result = resultOf(body);
  if (result === undefined) return undefined;
  const list = entries(typeof result['trades'] === 'object' ? result['trades'] : result);
  if (list === undefined) return undefined;
  const fills: VenueFill[] = [];
  for (const [id, t] of list) {
    if (order !== undefined && t['ordertxid'] !== order.txid) continue;
    if (typeof t['price'] !== 'string' || typeof t['vol'] !== 'string') return undefined;
    const price_1e9 = safeNumber(scaledRounded(t['price'], PRICE, 'nearest'));
    const qty_1e8 = parseScaled(t['vol'], QTY);
    if (!(price_1e9 > 0) || !(qty_1e8 > 0)) return undefined;
    const feeText = typeof t['fee'] === 'string' && t['fee'] !== '' ? t['fee'] : '0';
    const fee_1e9 = safeNumber(scaledRounded(feeText, PRICE, 'ceil'));
    if (Number.isNaN(fee_1e9)) return undefined;
    const time = typeof t['time'] === 'number' && Number.isFinite(t['time']) ? t['time'] : 0;
    const fill: VenueFill = { price_1e9, qty_1e8, trade_id: id, ts_ns: Math.round(time * 1e6) * 1000, fee_1e9, is_maker: t['maker'] === true };
    if (order?.fee_in_base === true && fee_1e9 !== 0) {
      // fee (quote) / price (quote per base) in base x 1e8, from the exact fee text.
      const d = decimalOf(feeText)!;
      const qty = safeNumber(divRounded(d.mantissa * 10n ** BigInt(PRICE + QTY), 10n ** BigInt(d.places) * BigInt(price_1e9), 'ceil'));
      if (Number.isNaN(qty)) return undefined;
      fill.commission = { asset: fees.base, qty_1e8: qty };
    }
    fills.push(fill);
  }
  return fills.sort((a, b) => a.ts_ns - b.ts_ns || (a.trade_id < b.trade_id ? -1 : a.trade_id > b.trade_id ? 1 : 0));
}

// ---------------------------------------------------------------------------------------------
// Balances

/**
 * `Balance` (`{asset: "total"}`) or `BalanceEx` (`{asset: {balance, hold_trade, ...}}`) as
 * balances under our asset names (`names`, from `assetNames`; an id it lacks, such as an earn
 * balance `XBT.F`, stays as Kraken writes it), non-zero only. `Balance` gives totals alone, all
 * taken as free; `BalanceEx` splits off what open orders hold: free = balance - hold_trade, a
 * credit line not counted. Exact as bigints (a large stablecoin account passes 2^53 in 1e8
 * units), rounded down past 8 places: never more than the account holds.
 */
export function decodeBalances(body: unknown, names: ReadonlyMap<string, string>): AssetBalance[] | undefined {
  const list = resultOf(body);
  if (list === undefined) return undefined;
  const totals = new Map<string, { free: bigint; locked: bigint }>();
  for (const [id, value] of Object.entries(list)) {
    let free: bigint | undefined;
    let locked: bigint | undefined;
    if (typeof value === 'string') {
      free = scaledRounded(value, QTY, 'floor');
      locked = 0n;
    } else if (typeof value === 'object' && value !== null) {
      const v = value as Record<string, unknown>;
      const balance = typeof v['balance'] === 'string' ? decimalOf(v['balance']) : undefined;
      const hold = v['hold_trade'] === undefined ? { mantissa: 0n, places: 0 } : typeof v['hold_trade'] === 'string' ? decimalOf(v['hold_trade']) : undefined;
      if (balance !== undefined && hold !== undefined) {
        const places = Math.max(balance.places, hold.places);
        const at = (d: { mantissa: bigint; places: number }) => d.mantissa * 10n ** BigInt(places - d.places);
        const unit = 10n ** BigInt(places);
        free = divRounded((at(balance) - at(hold)) * 10n ** BigInt(QTY), unit, 'floor');
        locked = divRounded(at(hold) * 10n ** BigInt(QTY), unit, 'floor');
      }
    }
    if (free === undefined || locked === undefined) return undefined;
    if (free === 0n && locked === 0n) continue;
    const asset = names.get(id) ?? id;
    const sum = totals.get(asset) ?? { free: 0n, locked: 0n };
    totals.set(asset, { free: sum.free + free, locked: sum.locked + locked });
  }
  return [...totals].map(([asset, b]) => ({ asset, free_1e8: b.free, locked_1e8: b.locked }));
}

// ---------------------------------------------------------------------------------------------
// Fee tier

/** `POST /0/private/TradeVolume` for one pair (its fee schedule needs the pair named). */
export function tradeVolumeBody(nonce: string, pair: string): string {
  return formBody([['nonce', nonce], ['pair', pair]]);
}

/**
 * The account's 30-day volume and the pair's rates from a TradeVolume answer: `fees` (taker)
 * and `fees_maker` per pair, each `fee` in percent ("0.2600"), as bps. Kraken keys the rows
 * by the pair as asked or by its result key: the first row is the pair's (one pair is asked).
 * Undefined for an error or an answer without a taker row.
 */
export function decodeTradeVolume(body: unknown): { volume: string; currency: string; taker_bps: number; maker_bps: number | null } | undefined {
  const result = resultOf(body);
  if (result === undefined) return undefined;
  const rate = (table: unknown): number | null => {
    const row = entries(table)?.[0]?.[1];
    const fee = row?.['fee'];
    if (typeof fee !== 'string') return null;
    // percent with at most 4 decimals -> bps, exactly: "0.2600" % = 26 bps
    const hundredths = scaledRounded(fee, 4, 'ceil');
    return hundredths === undefined ? null : Number(hundredths) / 100;
  };
  const taker = rate(result['fees']);
  if (taker === null) return undefined;
  return {
    volume: typeof result['volume'] === 'string' ? result['volume'] : '0',
    currency: typeof result['currency'] === 'string' ? result['currency'] : 'ZUSD',
    taker_bps: taker,
    maker_bps: rate(result['fees_maker']),
  };
}
