import { createPrivateKey, type KeyObject } from 'node:crypto';
import { KALSHI_FEE_COMPONENTS } from '../../../../domain/venues.ts';
import type { MarketPhase, MarketTimeline, PredictionEvent, PredictionMarket } from '../../../../domain/prediction/catalog.ts';
import { binaryAtMidBps, binaryTakerFeeUsd1e9, type TickerFeeComponents } from '../../../../domain/prediction/fees.ts';
import type { Leg } from '../../../../domain/prediction/symbols.ts';
import { decimalToScaled } from '../../../../domain/units.ts';
import { rfc3339Ns } from '../coinbase/codec.ts';
import { exactScaled, safeNumber } from '../decimal.ts';
import { instantMs, record, safeInteger, str } from '../json.ts';
import { childIdOfKraken, krakenClientOrderId } from '../kraken/codec.ts';
import { kalshiSignature } from '../signing.ts';
import type { LimitRule } from '../venue-limits.ts';
import type { AccountProbe, AssetBalance, LegReport, VenueFill } from '../venue.ts';
import type { VenueCredentials } from '../../../../storage/credential-shapes.ts';
import { PRICE_ONE, type KalshiBookSnapshot, type KalshiStreamMessage, type NoPricing } from './book-sync.ts';

/**
 * Kalshi's trade API (v2, the event-contract exchange) decoded into the engine's integers and
 * encoded from them. Pure: timestamps, "now" and keys are the caller's. Contract prices are
 * USD x 1e9 per contract (0..1e9), contracts x 1e8, money USD x 1e9.
 *
 * Sources: docs.kalshi.com as of August 2026, read from its mirror github.com/ammario/kalshi-docs
 * (its OpenAPI 3.28.0 pages under api-reference/, the AsyncAPI pages under websockets/, and
 * getting_started/: api_keys, api_environments, fixed_point_migration, subpenny_pricing,
 * orderbook_responses, order_direction, market_lifecycle, fee_rounding, rate_limits,
 * exchange_sharding, quick_start_*), and its changelog. Shapes of answers not printed there
 * follow TexasCoding/kalshi-python-sdk and nautilus_trader's Kalshi adapter.
 *
 * What changed in 2025-2026 and shapes this codec:
 *  - Fixed point (fixed_point_migration, subpenny_pricing): prices are `*_dollars` strings of up
 *    to 4 decimals on the grid of the market's `price_ranges` (sub-cent ticks on some markets),
 *    money up to 6 decimals; counts are `*_fp` strings of 2 decimals, and every market trades
 *    fractions down to 0.01 contract (`fractional_trading_enabled` is "always true"). The
 *    integer-cent and integer-count fields were removed from answers on March 12, 2026. Both are
 *    read, the exact ones preferred: all of them fit our scales exactly, so nothing here rounds
 *    a price, a size or an amount the venue wrote.
 *  - Writes moved to the V2 event-order endpoints (`/portfolio/events/orders`: one YES book,
 *    side `bid`/`ask`, dollar prices). The legacy `POST /portfolio/orders`, `DELETE
 *    /portfolio/orders/{id}` and batch endpoints were deprecated in June 2026 (changelog, June 18:
 *    they answer "Please switch to the V2 endpoints"), after their token cost was raised to 10x
 *    V2's. Reads (`GET /portfolio/orders`, `/orders/{id}`, `/fills`) are unchanged.
 *  - Direction: `outcome_side` (yes|no) and `book_side` (bid|ask, bid = yes) replace the
 *    deprecated `side`/`action` on orders and fills (order_direction).
 *  - Exchange shards (exchange_sharding): a market lives on an `exchange_index`; writes may
 *    name it (else they are auto-routed by ticker, at some latency), balances are per shard.
 *
 * REST answers and what they say (`kalshiError`, `createOrderOutcome`):
 *
 *   answer                                               lookup / cancel       placement
 *   201 `{order_id, fill_count, remaining_count, ...}`   -                     placed
 *   404 (`not_found`)                                    no such order         refused
 *   409 (`order_already_exists`: the client_order_id)    -                     exists: look it up
 *   400 (`invalid_order`, `invalid_order_size`,          refused               refused
 *        `available_balance_too_low`, `MARKET_INACTIVE` ...)
 *   401, 403 (`authentication_error`)                    refused (auth)        refused
 *   429 `{"error": "too many requests"}`                 refused (rate limit)  refused
 *   5xx, 408, `exchange_unavailable`, or a 2xx body      fate unknown          fate unknown
 *     that is not the answer
 *
 * Error bodies come as `{error: {code, message, details, service}}` (as answered in practice,
 * e.g. a 401 `{"error":{"code":"authentication_error","message":"authentication_error",
 * "details":"rpc error: ... INCORRECT_API_KEY_SIGNATURE"}}`), as the OpenAPI's bare `{code,
 * message, details}`, or as the 429's `{"error": "too many requests"}`: all three are read.
 */

const PRICE = 9;
const QTY = 8;
const CENT_1E9 = 10_000_000;
const ONE_CONTRACT = 100_000_000;
/** Counts have 2 decimals: 0.01 contract (fixed_point_migration, "Minimum granularity is 0.01 contracts"). */
export const COUNT_STEP_1E8 = 1_000_000;
/** The finest price any structure has: $0.0001 (`center_centi_edge_centi_cent`); order prices are written with 4 decimals. */
export const PRICE_STEP_MIN_1E9 = 100_000;

// ---------------------------------------------------------------------------------------------
// Hosts and paths (api_environments)

/** The recommended production hosts; `api.elections.kalshi.com` remains supported for both. */
export const REST_HOST = 'https://external-api.kalshi.com';
export const WS_HOST = 'wss://external-api-ws.kalshi.com';
/** The demo environment (its own keys: "Credentials are not shared between environments"). */
export const DEMO_REST_HOST = 'https://external-api.demo.kalshi.co';
export const DEMO_WS_HOST = 'wss://external-api-ws.demo.kalshi.co';
/** Every REST path starts here; the signature covers the path from it (not the host, not the query). */
export const API = '/trade-api/v2';
/** The WebSocket path on the WS host; its handshake is signed as `GET /trade-api/ws/v2`. */
export const WS_PATH = '/trade-api/ws/v2';

// ---------------------------------------------------------------------------------------------
// Small readers

/** A fixed-point dollar string as price_1e9, exactly; NaN when absent or not a plain decimal. */
function dollars(v: unknown): number {
  return exactScaled(v, PRICE);
}

/** A fixed-point count string as contracts x 1e8, exactly (negative allowed: deltas). */
function fp(v: unknown): number {
  return exactScaled(v, QTY);
}

/** The exact `*_dollars` field, else the legacy integer cents one. */
function priceField(o: Record<string, unknown>, dollarsKey: string, centsKey: string): number {
  if (o[dollarsKey] !== undefined && o[dollarsKey] !== null) return dollars(o[dollarsKey]);
  const c = safeInteger(o[centsKey]);
  return c === undefined ? NaN : c * CENT_1E9;
}

/** The `*_fp` field, else the legacy integer count one. */
function countField(o: Record<string, unknown>, fpKey: string, intKey: string): number {
  if (o[fpKey] !== undefined && o[fpKey] !== null) return fp(o[fpKey]);
  const c = safeInteger(o[intKey]);
  return c === undefined ? NaN : c * ONE_CONTRACT;
}

/** Money: the `*_dollars` field exactly as a bigint in USD 1e9, else the legacy cents one; undefined when neither reads. */
function moneyField(o: Record<string, unknown>, dollarsKey: string, centsKey: string): bigint | undefined {
  const d = o[dollarsKey];
  if (typeof d === 'string') return decimalToScaled(d, PRICE);
  const c = safeInteger(o[centsKey]);
  return c === undefined ? undefined : BigInt(c) * BigInt(CENT_1E9);
}

function query(path: string, params: readonly (readonly [string, string | number | boolean | undefined])[]): string {
  const parts: string[] = [];
  for (const [k, v] of params) if (v !== undefined && v !== '') parts.push(`${k}=${encodeURIComponent(String(v))}`);
  return parts.length === 0 ? path : `${path}?${parts.join('&')}`;
}

/** A price as the venue takes it: 4 decimals ("0.5600"; requests accept 2 to 4). Needs a multiple of $0.0001. */
export function formatDollars(price_1e9: number): string {
  if (!Number.isSafeInteger(price_1e9) || price_1e9 < 0 || price_1e9 % PRICE_STEP_MIN_1E9 !== 0) throw new RangeError(`not a 4-decimal price: ${price_1e9}`);
  const units = price_1e9 / PRICE_STEP_MIN_1E9;
  return `${Math.floor(units / 10_000)}.${String(units % 10_000).padStart(4, '0')}`;
}

/** A count as the venue writes it: 2 decimals ("10.00"). Needs a multiple of 0.01 contract. */
export function formatCount(qty_1e8: number): string {
  if (!Number.isSafeInteger(qty_1e8) || qty_1e8 < 0 || qty_1e8 % COUNT_STEP_1E8 !== 0) throw new RangeError(`not a 2-decimal count: ${qty_1e8}`);
  const hundredths = qty_1e8 / COUNT_STEP_1E8;
  return `${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`;
}

// ---------------------------------------------------------------------------------------------
// Authentication (getting_started/api_keys, quick_start_websockets)

export const ACCESS_KEY_HEADER = 'KALSHI-ACCESS-KEY';
export const ACCESS_TIMESTAMP_HEADER = 'KALSHI-ACCESS-TIMESTAMP';
export const ACCESS_SIGNATURE_HEADER = 'KALSHI-ACCESS-SIGNATURE';

/** A Kalshi credential ready to sign: the key id (a UUID) and its RSA key, parsed once (storage/credential-shapes.ts checks both). */
export interface KalshiKey {
  keyId: string;
  privateKey: KeyObject;
}

export function kalshiKeyOf(credentials: VenueCredentials): KalshiKey {
  return { keyId: credentials.api_key, privateKey: createPrivateKey(credentials.api_secret) };
}

/**
 * The three headers of a signed request: the key id, the timestamp in ms, and the signature
 * (`kalshiSignature`, ../signing.ts: RSA-PSS/SHA-256 over timestamp + METHOD + path without its
 * query). `path` is the whole path from the API root (`/trade-api/v2/portfolio/orders`, or the
 * WebSocket's `/trade-api/ws/v2`): the venue signs that, whatever host the request goes to
 * (api_environments, "Request Signing"); a path without it could never verify, so it throws.
 */
export function kalshiAuthHeaders(key: KalshiKey, timestampMs: number, method: string, path: string): Record<string, string> {
  if (!path.startsWith('/trade-api/')) throw new RangeError(`Kalshi signs the path from /trade-api/, got ${path}`);
  if (!Number.isSafeInteger(timestampMs) || timestampMs <= 0) throw new RangeError(`a timestamp in ms, got ${timestampMs}`);
  const ts = String(timestampMs);
  return { [ACCESS_KEY_HEADER]: key.keyId, [ACCESS_TIMESTAMP_HEADER]: ts, [ACCESS_SIGNATURE_HEADER]: kalshiSignature(ts, method, path, key.privateKey) };
}

/**
 * The WebSocket handshake's headers: the same three, signed over `timestamp + "GET" +
 * "/trade-api/ws/v2"` (quick_start_websockets, "Signing the WebSocket Request"). Every connection
 * is signed, public channels included, and `orderbook_delta` is a private channel.
 */
export function kalshiWsHeaders(key: KalshiKey, timestampMs: number): Record<string, string> {
  return kalshiAuthHeaders(key, timestampMs, 'GET', WS_PATH);
}

// ---------------------------------------------------------------------------------------------
// Legs and client order ids

/** A market's leg symbol as the engine names it: `<ticker>:YES|NO` (domain/prediction/catalog.ts). */
export function legSymbol(ticker: string, leg: Leg): string {
  return `${ticker}:${leg}`;
}

/** Kalshi tickers: capitals, digits, `-` and `.` (`FED-23DEC-T3.00`, `KXBTCD-25AUG0517-T114999.99`). */
const TICKER = /^[A-Z0-9][A-Z0-9.-]*$/;

/** A leg symbol's market ticker and leg; undefined for anything else. */
export function parseLegSymbol(symbol: string): { ticker: string; leg: Leg } | undefined {
  const colon = symbol.lastIndexOf(':');
  if (colon <= 0) return undefined;
  const ticker = symbol.slice(0, colon);
  const leg = symbol.slice(colon + 1);
  if ((leg !== 'YES' && leg !== 'NO') || !TICKER.test(ticker)) return undefined;
  return { ticker, leg };
}

/** The first 5 hex digits of every `krakenClientOrderId` UUID (its 20-bit tag 0x5e9ce), and the NO leg's variant of them. */
const YES_MARK = '5e9ce';
const NO_MARK = '5e9cf';

/**
 * Our child id (and the leg it trades) as a Kalshi `client_order_id`. The REST schema types it as
 * a plain string; the FIX spec asks for "UUID preferred, max 64 chars" and every example is a
 * UUID. So the child id is packed into a version-4-shaped UUID by `krakenClientOrderId` (kraken/
 * codec.ts: injective, undone by `childIdOfKraken`). The leg goes into the tag's last bit: a V2
 * order is a bid or ask on the YES book, and a YES buy looks the same as a NO sell there, so an
 * open order read back (`ownOpenOrders`) could not otherwise say which symbol it was.
 * Undefined when the child id cannot be packed: such a leg must be refused, not sent without an id.
 */
export function kalshiClientOrderId(childId: string, leg: Leg): string | undefined {
  const uuid = krakenClientOrderId(childId);
  if (uuid === undefined) return undefined;
  return leg === 'YES' ? uuid : NO_MARK + uuid.slice(YES_MARK.length);
}

/** The child and leg a `client_order_id` was made from (either case); undefined for one that is not ours. */
export function childOfKalshi(clientOrderId: string): { child_id: string; leg: Leg } | undefined {
  const id = clientOrderId.toLowerCase();
  const leg: Leg = id.startsWith(NO_MARK) ? 'NO' : 'YES';
  const child = childIdOfKraken(leg === 'NO' ? YES_MARK + id.slice(NO_MARK.length) : id);
  return child === undefined ? undefined : { child_id: child, leg };
}

// ---------------------------------------------------------------------------------------------
// Price grids (fixed_point_migration, "Price Level Structures")

/** One band of a market's grid: prices in [start, end] on multiples of `step` from `start`. */
export interface PriceBand {
  start_1e9: number;
  end_1e9: number;
  step_1e9: number;
}

/**
 * The named structures, as the docs tabulate them: only a fallback for a market answer without
 * `price_ranges`, which "is the source of truth for valid prices" ("Do not key pricing logic off
 * this name; new structures are introduced over time").
 */
export const PRICE_LEVEL_STRUCTURES: Readonly<Record<string, readonly (readonly [string, string, string])[]>> = {
  linear_cent: [['0.00', '1.00', '0.01']],
  deci_cent: [['0.00', '1.00', '0.001']],
  tapered_deci_cent: [['0.00', '0.10', '0.001'], ['0.10', '0.90', '0.01'], ['0.90', '1.00', '0.001']],
  center_whole_edge_half_cent: [['0.00', '0.10', '0.005'], ['0.10', '0.90', '0.01'], ['0.90', '1.00', '0.005']],
  center_whole_edge_quint_cent: [['0.00', '0.10', '0.002'], ['0.10', '0.90', '0.01'], ['0.90', '1.00', '0.002']],
  center_half_edge_half_cent: [['0.00', '1.00', '0.005']],
  center_half_edge_quint_cent: [['0.00', '0.10', '0.002'], ['0.10', '0.90', '0.005'], ['0.90', '1.00', '0.002']],
  center_half_edge_deci_cent: [['0.00', '0.10', '0.001'], ['0.10', '0.90', '0.005'], ['0.90', '1.00', '0.001']],
  center_quint_edge_quint_cent: [['0.00', '1.00', '0.002']],
  center_quint_edge_deci_cent: [['0.00', '0.10', '0.001'], ['0.10', '0.90', '0.002'], ['0.90', '1.00', '0.001']],
  center_centi_edge_centi_cent: [['0.00', '1.00', '0.0001']],
  center_deci_edge_centi_cent: [['0.00', '0.01', '0.0001'], ['0.01', '0.99', '0.001'], ['0.99', '1.00', '0.0001']],
};

function band(start: unknown, end: unknown, step: unknown): PriceBand | undefined {
  const s = dollars(start);
  const e = dollars(end);
  const t = dollars(step);
  if (!(s >= 0 && e > s && e <= PRICE_ONE && t > 0) || t % PRICE_STEP_MIN_1E9 !== 0 || (e - s) % t !== 0) return undefined;
  return { start_1e9: s, end_1e9: e, step_1e9: t };
}

/** A structure's bands by name; undefined for a name the table does not know. */
export function priceBandsOf(structure: string): PriceBand[] | undefined {
  const rows = PRICE_LEVEL_STRUCTURES[structure];
  if (rows === undefined) return undefined;
  return rows.map(([s, e, t]) => band(s, e, t)!);
}

/** The finest step of a grid: the book's tick (every price on the grid is a multiple of it). */
export function finestStep(bands: readonly PriceBand[]): number {
  return bands.reduce((min, b) => Math.min(min, b.step_1e9), Number.POSITIVE_INFINITY);
}

/** Is the price one the market takes? Strictly between $0 and $1 ("off-tick, out-of-band, `$0`, or `$1`" are refused: changelog, July 2, 2026). */
export function isOnGrid(bands: readonly PriceBand[], price_1e9: number): boolean {
  if (!Number.isSafeInteger(price_1e9) || price_1e9 <= 0 || price_1e9 >= PRICE_ONE) return false;
  return bands.some((b) => price_1e9 >= b.start_1e9 && price_1e9 <= b.end_1e9 && (price_1e9 - b.start_1e9) % b.step_1e9 === 0);
}

/**
 * The nearest price on the grid at or below (`down`) or at or above (`up`) the given one;
 * undefined when there is none strictly inside (0, 1). Band edges are on both neighbours' grids
 * (every structure's edges are whole cents), so the band holding the price decides.
 */
export function priceOnGrid(bands: readonly PriceBand[], price_1e9: number, direction: 'down' | 'up'): number | undefined {
  if (!Number.isSafeInteger(price_1e9)) return undefined;
  let best: number | undefined;
  for (const b of bands) {
    if (price_1e9 < b.start_1e9 || price_1e9 > b.end_1e9) continue;
    const off = (price_1e9 - b.start_1e9) % b.step_1e9;
    const p = off === 0 ? price_1e9 : direction === 'down' ? price_1e9 - off : price_1e9 - off + b.step_1e9;
    if (best === undefined || (direction === 'down' ? p > best : p < best)) best = p;
  }
  return best !== undefined && best > 0 && best < PRICE_ONE ? best : undefined;
}

// ---------------------------------------------------------------------------------------------
// Catalog: events, markets, series, exchange status

/** Market statuses (market_lifecycle) and the legacy filter words older answers used. */
const PHASES: Readonly<Record<string, MarketPhase>> = {
  initialized: 'initialized',
  unopened: 'initialized',
  active: 'open',
  open: 'open',
  // Paused by the exchange: not closed, but nothing trades ("Trading is paused").
  inactive: 'open',
  paused: 'open',
  closed: 'closed',
  determined: 'determined',
  disputed: 'determined',
  amended: 'determined',
  finalized: 'settled',
  settled: 'settled',
};

/** A market `status` as the catalog's phase; undefined for a status not in the docs. */
export function marketPhase(status: string): MarketPhase | undefined {
  return PHASES[status];
}

/** A binary market from `GET /markets`, `GET /events?with_nested_markets=true` or `GET /markets/{ticker}`, in engine units. */
export interface KalshiMarket {
  ticker: string;
  event_ticker: string;
  /** `binary` or `scalar` */
  market_type: string;
  /** as sent: initialized, active, inactive, closed, determined, disputed, amended, finalized */
  status: string;
  phase: MarketPhase | null;
  /** orders are taken now: `active` only */
  trading: boolean;
  /** set once determined: `yes`, `no` (binary) or `scalar`; may change while disputed */
  result: 'yes' | 'no' | 'scalar' | null;
  /** deprecated by the venue, still sent */
  title: string;
  yes_sub_title: string;
  no_sub_title: string;
  rules_primary: string;
  rules_secondary: string;
  created_ms: number | null;
  open_ms: number | null;
  close_ms: number | null;
  expected_expiration_ms: number | null;
  latest_expiration_ms: number | null;
  /** `settlement_ts`: when it was paid out (finalized markets) */
  settlement_ms: number | null;
  /** how long after determination it settles */
  settlement_timer_s: number | null;
  can_close_early: boolean;
  price_level_structure: string | null;
  bands: PriceBand[];
  /** the grid's finest step */
  tick_1e9: number;
  /** the top of the book as the market row has it; null when that side is empty */
  yes_bid_1e9: number | null;
  yes_ask_1e9: number | null;
  no_bid_1e9: number | null;
  no_ask_1e9: number | null;
  last_price_1e9: number | null;
  volume_1e8: number;
  volume_24h_1e8: number;
  open_interest_1e8: number;
  /** the YES side's settlement value, once determined */
  settlement_value_1e9: number | null;
  /** what a contract pays: $1 for a binary market */
  notional_1e9: number;
  exchange_index: number;
  fee_waiver_expiration_ms: number | null;
}

/** A top-of-book figure: null when absent or the side is empty (written as `empty`), NaN when it does not read. */
function optionalPrice(o: Record<string, unknown>, dollarsKey: string, centsKey: string, empty: number): number | null {
  if ((o[dollarsKey] === undefined || o[dollarsKey] === null) && (o[centsKey] === undefined || o[centsKey] === null)) return null;
  const p = priceField(o, dollarsKey, centsKey);
  return p === empty ? null : p;
}

function countOrZero(o: Record<string, unknown>, fpKey: string, intKey: string): number {
  if (o[fpKey] === undefined && o[intKey] === undefined) return 0;
  return countField(o, fpKey, intKey);
}

/**
 * A market row; undefined when it cannot be read (no ticker, a grid that does not parse, a
 * number that is not exact, a top-of-book figure that does not read). The grid: `price_ranges`
 * when sent (the Market schema requires it); else the named `price_level_structure`; else the
 * legacy `tick_size` in cents; else whole cents, valid in every structure ("Whole-cent prices are
 * valid in every structure"), so an order priced on it is never refused for its tick.
 */
export function decodeMarket(raw: unknown): KalshiMarket | undefined {
  const m = record(raw);
  const ticker = str(m?.['ticker']);
  const event = str(m?.['event_ticker']);
  if (m === undefined || ticker === undefined || event === undefined || !TICKER.test(ticker)) return undefined;
  let bands: PriceBand[] | undefined;
  const ranges = m['price_ranges'];
  const structure = str(m['price_level_structure']) ?? null;
  if (Array.isArray(ranges) && ranges.length > 0) {
    bands = [];
    for (const r of ranges as unknown[]) {
      const b = record(r);
      const parsed = b === undefined ? undefined : band(b['start'], b['end'], b['step']);
      if (parsed === undefined) return undefined;
      bands.push(parsed);
    }
  } else if (structure !== null && priceBandsOf(structure) !== undefined) bands = priceBandsOf(structure);
  else if (safeInteger(m['tick_size']) !== undefined && safeInteger(m['tick_size'])! > 0) bands = [{ start_1e9: 0, end_1e9: PRICE_ONE, step_1e9: safeInteger(m['tick_size'])! * CENT_1E9 }];
  else bands = priceBandsOf('linear_cent');
  if (bands === undefined) return undefined;
  const status = str(m['status']) ?? '';
  const result = m['result'] === 'yes' || m['result'] === 'no' || m['result'] === 'scalar' ? m['result'] : null;
  const notional = m['notional_value_dollars'] !== undefined || m['notional_value'] !== undefined ? priceField(m, 'notional_value_dollars', 'notional_value') : PRICE_ONE;
  const settlement = m['settlement_value_dollars'] ?? m['settlement_value'];
  const market: KalshiMarket = {
    ticker,
    event_ticker: event,
    market_type: str(m['market_type']) ?? 'binary',
    status,
    phase: marketPhase(status) ?? null,
    trading: status === 'active' || status === 'open',
    result,
    title: str(m['title']) ?? '',
    yes_sub_title: str(m['yes_sub_title']) ?? '',
    no_sub_title: str(m['no_sub_title']) ?? '',
    rules_primary: str(m['rules_primary']) ?? '',
    rules_secondary: str(m['rules_secondary']) ?? '',
    created_ms: instantMs(m['created_time']),
    open_ms: instantMs(m['open_time']),
    close_ms: instantMs(m['close_time']),
    expected_expiration_ms: instantMs(m['expected_expiration_time']),
    latest_expiration_ms: instantMs(m['latest_expiration_time']) ?? instantMs(m['expiration_time']),
    settlement_ms: instantMs(m['settlement_ts']),
    settlement_timer_s: safeInteger(m['settlement_timer_seconds']) ?? null,
    can_close_early: m['can_close_early'] === true,
    price_level_structure: structure,
    bands,
    tick_1e9: finestStep(bands),
    // An empty side is written as $0 (bids) or $1 (asks).
    yes_bid_1e9: optionalPrice(m, 'yes_bid_dollars', 'yes_bid', 0),
    yes_ask_1e9: optionalPrice(m, 'yes_ask_dollars', 'yes_ask', PRICE_ONE),
    no_bid_1e9: optionalPrice(m, 'no_bid_dollars', 'no_bid', 0),
    no_ask_1e9: optionalPrice(m, 'no_ask_dollars', 'no_ask', PRICE_ONE),
    last_price_1e9: optionalPrice(m, 'last_price_dollars', 'last_price', 0),
    volume_1e8: countOrZero(m, 'volume_fp', 'volume'),
    volume_24h_1e8: countOrZero(m, 'volume_24h_fp', 'volume_24h'),
    open_interest_1e8: countOrZero(m, 'open_interest_fp', 'open_interest'),
    settlement_value_1e9: settlement === undefined || settlement === null ? null : priceField(m, 'settlement_value_dollars', 'settlement_value'),
    notional_1e9: notional,
    exchange_index: safeInteger(m['exchange_index']) ?? 0,
    fee_waiver_expiration_ms: instantMs(m['fee_waiver_expiration_time']),
  };
  const numbers = [market.volume_1e8, market.volume_24h_1e8, market.open_interest_1e8, market.notional_1e9, market.settlement_value_1e9, market.yes_bid_1e9, market.yes_ask_1e9, market.no_bid_1e9, market.no_ask_1e9, market.last_price_1e9].map((n) => n ?? 0);
  return numbers.some(Number.isNaN) ? undefined : market;
}

/** A fee schedule: the series' `fee_type`/`fee_multiplier`, or an event's override of them. */
export interface KalshiFeeSchedule {
  /** `quadratic`, `quadratic_with_maker_fees`, `quadratic_with_combo_maker_fees` or `flat` */
  fee_type: string;
  fee_multiplier: number;
}

/** An event from `GET /events` (and `GET /events/{ticker}`), its markets when nested. */
export interface KalshiEvent {
  event_ticker: string;
  series_ticker: string;
  title: string;
  sub_title: string;
  /** deprecated at the event level ("use series-level category") */
  category: string | null;
  /** at most one of its markets resolves YES */
  mutually_exclusive: boolean;
  /** `fee_type_override` with `fee_multiplier_override`: "takes precedence over the series-level fee" */
  fee_override: KalshiFeeSchedule | null;
  exchange_index: number;
  markets: KalshiMarket[];
}

export interface EventsQuery {
  /** `unopened`, `open`, `closed`, `settled` (matched on child markets) */
  status?: 'unopened' | 'open' | 'closed' | 'settled';
  with_nested_markets?: boolean;
  series_ticker?: string;
  /** event tickers, comma-joined (`tickers`) */
  tickers?: readonly string[];
  min_close_ts?: number;
  /** at most 200 (the default) */
  limit?: number;
  cursor?: string;
}

/** `GET /trade-api/v2/events`, paged by `cursor` (the answer's is empty on the last page). */
export function eventsPath(q: EventsQuery = {}): string {
  return query(`${API}/events`, [
    ['limit', q.limit ?? 200],
    ['status', q.status],
    ['with_nested_markets', q.with_nested_markets],
    ['series_ticker', q.series_ticker],
    ['tickers', q.tickers?.join(',')],
    ['min_close_ts', q.min_close_ts],
    ['cursor', q.cursor],
  ]);
}

/** The catalog's walk: open events with their markets. */
export function openEventsPath(cursor?: string): string {
  return eventsPath({ status: 'open', with_nested_markets: true, ...(cursor === undefined ? {} : { cursor }) });
}

export interface MarketsQuery {
  /** `unopened`, `open`, `paused`, `closed`, `settled` (one at a time) */
  status?: 'unopened' | 'open' | 'paused' | 'closed' | 'settled';
  event_ticker?: string;
  series_ticker?: string;
  tickers?: readonly string[];
  /** at most 1000; the default is 100 */
  limit?: number;
  cursor?: string;
}

/** `GET /trade-api/v2/markets`, paged by `cursor`. */
export function marketsPath(q: MarketsQuery = {}): string {
  return query(`${API}/markets`, [
    ['limit', q.limit ?? 1000],
    ['status', q.status],
    ['event_ticker', q.event_ticker],
    ['series_ticker', q.series_ticker],
    ['tickers', q.tickers?.join(',')],
    ['cursor', q.cursor],
  ]);
}

function pageCursor(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

function feeSchedule(type: unknown, multiplier: unknown): KalshiFeeSchedule | null {
  if (typeof type !== 'string' || type === '') return null;
  return { fee_type: type, fee_multiplier: typeof multiplier === 'number' && Number.isFinite(multiplier) && multiplier >= 0 ? multiplier : 1 };
}

function decodeEvent(raw: unknown, unreadable: string[]): KalshiEvent | undefined {
  const e = record(raw);
  const ticker = str(e?.['event_ticker']);
  if (e === undefined || ticker === undefined) return undefined;
  const markets: KalshiMarket[] = [];
  for (const m of Array.isArray(e['markets']) ? (e['markets'] as unknown[]) : []) {
    const market = decodeMarket(m);
    if (market === undefined) unreadable.push(str(record(m)?.['ticker']) ?? ticker);
    else markets.push(market);
  }
  return {
    event_ticker: ticker,
    series_ticker: str(e['series_ticker']) ?? '',
    title: str(e['title']) ?? '',
    sub_title: str(e['sub_title']) ?? '',
    category: str(e['category']) ?? null,
    mutually_exclusive: e['mutually_exclusive'] === true,
    fee_override: feeSchedule(e['fee_type_override'], e['fee_multiplier_override']),
    exchange_index: safeInteger(e['exchange_index']) ?? 0,
    markets,
  };
}

/**
 * A `GET /events` page: its events (markets that cannot be read left out and named in
 * `unreadable`, so the caller can keep what it had for them), and the next cursor (null on the
 * last page). Undefined for a body that is not a page.
 */
export function decodeEventsPage(body: unknown): { events: KalshiEvent[]; cursor: string | null; unreadable: string[] } | undefined {
  const b = record(body);
  if (b === undefined || !Array.isArray(b['events'])) return undefined;
  const unreadable: string[] = [];
  const events: KalshiEvent[] = [];
  for (const raw of b['events'] as unknown[]) {
    const event = decodeEvent(raw, unreadable);
    if (event !== undefined) events.push(event);
  }
  return { events, cursor: pageCursor(b['cursor']), unreadable };
}

/** A `GET /markets` page, as `decodeEventsPage`. */
export function decodeMarketsPage(body: unknown): { markets: KalshiMarket[]; cursor: string | null; unreadable: string[] } | undefined {
  const b = record(body);
  if (b === undefined || !Array.isArray(b['markets'])) return undefined;
  const unreadable: string[] = [];
  const markets: KalshiMarket[] = [];
  for (const raw of b['markets'] as unknown[]) {
    const market = decodeMarket(raw);
    if (market === undefined) unreadable.push(str(record(raw)?.['ticker']) ?? '');
    else markets.push(market);
  }
  return { markets, cursor: pageCursor(b['cursor']), unreadable };
}

/** A series' fees (`GET /series/{ticker}` answers `{series}`, `GET /series` `{series: [...]}`), by series ticker. */
export function decodeSeriesFees(body: unknown): Map<string, KalshiFeeSchedule> | undefined {
  const b = record(body);
  const list = Array.isArray(b?.['series']) ? (b!['series'] as unknown[]) : record(b?.['series']) !== undefined ? [b!['series']] : undefined;
  if (list === undefined) return undefined;
  const out = new Map<string, KalshiFeeSchedule>();
  for (const raw of list) {
    const s = record(raw);
    const ticker = str(s?.['ticker']);
    const fee = feeSchedule(s?.['fee_type'], s?.['fee_multiplier']);
    if (ticker !== undefined && fee !== null) out.set(ticker, fee);
  }
  return out;
}

/**
 * A market's taker `rate_bps` for the catalog (binary_quadratic with multiplier 1, as
 * `marketFeeComponents` reads it): 700 x the schedule's multiplier for the quadratic types;
 * null for `flat` ("the Specific Trading Fees Table", which the API does not publish) and for a
 * type not in the docs.
 */
export function takerRateBps(schedule: KalshiFeeSchedule): number | null {
  if (!QUADRATIC_MAKER_SHARE.has(schedule.fee_type)) return null;
  const scaled = decimalToScaled(schedule.fee_multiplier, 12);
  if (scaled === undefined) return null;
  return (Number(scaled) * KALSHI_FEE_COMPONENTS.rate_bps) / 1e12;
}

/** What `predictionEventOf` makes of an event: the catalog's event and each market's outcome, parallel to `event.markets`. */
export interface ListedKalshiEvent {
  event: PredictionEvent;
  /** null while undetermined, else whether YES won */
  yes_won: (boolean | null)[];
  /** when the outcome was determined, as well as the venue tells it (see `predictionEventOf`); null while undetermined */
  resolved_ms: (number | null)[];
  /** the tickers left out: scalar markets, rows without a close time */
  skipped: string[];
}

/**
 * An event as the prediction catalog lists it (the shapes the simulated venue makes: world.ts
 * `kalshiEvent`): event id and slug = the event ticker, one binary market per outcome with
 * `<ticker>:YES|NO` legs, the question (the event title, with the outcome's `yes_sub_title` for a
 * multi-market event), the rules, the timeline, the taker rate (`takerRateBps` of the event's
 * override, else of `seriesFee(series)`, else the venue's 700).
 *
 * The timeline from the venue's times: listed at `created_time` (else the open), open, close.
 * The venue gives no instant of determination: a market not yet determined is given its
 * `latest_expiration_time` ("Latest possible time for this market to expire"), so that
 * `phaseAt` never calls it determined before it is; a finalized one `settlement_ts` less its
 * settlement timer; one determined but not settled `observed_ms` (the caller's "now", the first
 * instant it is known determined: the caller keeps the first value it recorded). Settled:
 * `settlement_ts`, else determination + `settlement_timer_seconds`.
 *
 * A market's `fee_waiver_expiration_time` is not applied (the rate would change with the clock):
 * the waiver only lowers what a fill costs, which the fill's own `fee_cost` then says.
 *
 * Left out: scalar markets (their payout is not $1 or $0) and rows without a close time.
 * Kalshi has no placeholders, no up/down anchors, no maker rewards and no negative-risk flag;
 * equivalents to the other venue are matched elsewhere.
 */
export function predictionEventOf(e: KalshiEvent, opts: { observed_ms: number; seriesFee?: (series: string) => KalshiFeeSchedule | undefined }): ListedKalshiEvent {
  const schedule = e.fee_override ?? opts.seriesFee?.(e.series_ticker) ?? null;
  const rate = (schedule === null ? null : takerRateBps(schedule)) ?? KALSHI_FEE_COMPONENTS.rate_bps;
  const binary = e.markets.filter((m) => m.market_type === 'binary' && m.close_ms !== null);
  const skipped = e.markets.filter((m) => !binary.includes(m)).map((m) => m.ticker);
  const multi = binary.length > 1;
  const title = e.title !== '' ? e.title : (binary[0]?.title ?? '');
  const yes_won: (boolean | null)[] = [];
  const resolved_ms: (number | null)[] = [];
  const markets = binary.map((m, i): PredictionMarket => {
    const determinedNow = m.phase === 'determined' || m.phase === 'settled';
    const won = determinedNow && (m.result === 'yes' || m.result === 'no') ? m.result === 'yes' : null;
    const timerMs = m.settlement_timer_s === null ? null : m.settlement_timer_s * 1000;
    const close = m.close_ms!;
    let determined: number | null = null;
    if (won !== null) {
      if (m.phase === 'settled' && m.settlement_ms !== null) determined = Math.max(close, m.settlement_ms - (timerMs ?? 0));
      else determined = Math.max(close, opts.observed_ms);
    }
    const determined_ms = determined ?? Math.max(close, m.latest_expiration_ms ?? m.expected_expiration_ms ?? close);
    const timeline: MarketTimeline = {
      listed_ms: m.created_ms ?? m.open_ms ?? close,
      open_ms: m.open_ms ?? m.created_ms ?? close,
      close_ms: close,
      determined_ms,
      settled_ms: m.settlement_ms ?? (timerMs === null ? null : determined_ms + timerMs),
    };
    yes_won.push(won);
    resolved_ms.push(determined);
    const rules = m.rules_secondary === '' ? m.rules_primary : `${m.rules_primary}\n\n${m.rules_secondary}`;
    return {
      venue: 'kalshi',
      market_id: m.ticker,
      event_id: e.event_ticker,
      event_slug: e.event_ticker,
      question: multi ? `${title} - ${m.yes_sub_title || m.title}` : title,
      description: rules,
      yes_token_id: legSymbol(m.ticker, 'YES'),
      no_token_id: legSymbol(m.ticker, 'NO'),
      condition_id: null,
      outcome_index: i,
      raw_outcome_name: multi ? m.yes_sub_title || null : null,
      is_placeholder: false,
      timeline,
      fee_rate_bps: rate,
      updown: null,
      equivalents: [],
      rewards: null,
    };
  });
  const series = e.series_ticker !== '' ? e.series_ticker : (e.event_ticker.split('-')[0] ?? e.event_ticker);
  return {
    event: {
      venue: 'kalshi',
      event_id: e.event_ticker,
      slug: e.event_ticker,
      title,
      description: markets[0]?.description ?? '',
      tags: e.category === null || e.category === '' ? [] : [e.category],
      multi,
      neg_risk: false,
      url: `https://kalshi.com/markets/${series.toLowerCase()}/${e.event_ticker.toLowerCase()}`,
      markets,
    },
    yes_won,
    resolved_ms,
    skipped,
  };
}

export const EXCHANGE_STATUS_PATH = `${API}/exchange/status`;

export interface KalshiExchangeStatus {
  /** false under maintenance: no state changes at all */
  exchange_active: boolean;
  /** trading permitted now (exchange hours, no pause) */
  trading_active: boolean;
  resume_ms: number | null;
  /** per shard, when the venue breaks it down; the top-level fields are shard 0's */
  shards: { exchange_index: number; exchange_active: boolean; trading_active: boolean }[];
}

/** `GET /exchange/status` (also the body of its 500/503/504 answers); undefined when the two flags are missing. */
export function decodeExchangeStatus(body: unknown): KalshiExchangeStatus | undefined {
  const b = record(body);
  if (b === undefined || typeof b['exchange_active'] !== 'boolean' || typeof b['trading_active'] !== 'boolean') return undefined;
  const shards: KalshiExchangeStatus['shards'] = [];
  for (const raw of Array.isArray(b['exchange_index_statuses']) ? (b['exchange_index_statuses'] as unknown[]) : []) {
    const s = record(raw);
    const index = safeInteger(s?.['exchange_index']);
    if (s === undefined || index === undefined) continue;
    shards.push({ exchange_index: index, exchange_active: s['exchange_active'] === true, trading_active: s['trading_active'] === true });
  }
  return { exchange_active: b['exchange_active'], trading_active: b['trading_active'], resume_ms: instantMs(b['exchange_estimated_resume_time']), shards };
}

/** Whether a shard takes orders now: its own row when the venue sent one, else the top-level flags (shard 0's). */
export function tradingActive(status: KalshiExchangeStatus, exchange_index = 0): boolean {
  const shard = status.shards.find((s) => s.exchange_index === exchange_index);
  return shard !== undefined ? shard.exchange_active && shard.trading_active : status.exchange_active && status.trading_active;
}

// ---------------------------------------------------------------------------------------------
// Order books: REST and the `orderbook_delta` channel

/** `GET /trade-api/v2/markets/{ticker}/orderbook`: `depth` 1..100 levels a side, 0 for all. */
export function orderbookPath(ticker: string, depth = 0): string {
  return query(`${API}/markets/${encodeURIComponent(ticker)}/orderbook`, [['depth', depth > 0 ? Math.min(100, depth) : undefined]]);
}

/**
 * Levels `[[price, count], ...]` into flat [price_1e9, qty_1e8, ...] in the order sent. Each level
 * is `[dollars, fp]` strings (the fixed-point shapes), `[dollars, integer count]` (2025's
 * `yes_dollars`), or `[cents, count]` integers (the legacy `yes`); `null` or absent is an empty
 * side. A price must be strictly inside (0, 1) and a count not negative; undefined otherwise.
 */
function bookLevels(raw: unknown, cents: boolean): number[] | undefined {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) return undefined;
  const list = raw as unknown[];
  const out = new Array<number>(list.length * 2);
  for (let i = 0; i < list.length; i++) {
    const level = list[i];
    if (!Array.isArray(level) || level.length < 2) return undefined;
    const [p, q] = level as unknown[];
    const price = cents ? (safeInteger(p) === undefined ? NaN : safeInteger(p)! * CENT_1E9) : dollars(p);
    const qty = typeof q === 'string' ? fp(q) : safeInteger(q) === undefined ? NaN : safeInteger(q)! * ONE_CONTRACT;
    if (!(price > 0 && price < PRICE_ONE) || !(qty >= 0)) return undefined;
    out[2 * i] = price;
    out[2 * i + 1] = qty;
  }
  return out;
}

/** A side of a book object: the fixed-point key, else the 2025 dollars key, else the legacy cents key. */
function bookSide(o: Record<string, unknown>, side: 'yes' | 'no', fpKey: string | null): number[] | undefined {
  if (fpKey !== null && o[fpKey] !== undefined) return bookLevels(o[fpKey], false);
  if (o[`${side}_dollars`] !== undefined) return bookLevels(o[`${side}_dollars`], false);
  return bookLevels(o[side], true);
}

/**
 * The REST orderbook: `{orderbook_fp: {yes_dollars: [["0.4200","13.00"], ...], no_dollars: [...]}}`
 * (orderbook_responses; levels ascending, best last), or the older `{orderbook: {yes, no,
 * yes_dollars, no_dollars}}`. YES bids and NO bids, the NO ones in NO prices ('no-leg'): the
 * sync turns them into YES asks. Undefined when the body is neither or a level does not read.
 */
export function decodeOrderbook(body: unknown, ticker: string): KalshiBookSnapshot | undefined {
  const b = record(body);
  const fpBook = record(b?.['orderbook_fp']);
  const book = fpBook ?? record(b?.['orderbook']);
  if (book === undefined) return undefined;
  const yes = bookSide(book, 'yes', null);
  const no = bookSide(book, 'no', null);
  if (yes === undefined || no === undefined) return undefined;
  return { ticker, yes, no, noPricing: 'no-leg' };
}

/**
 * The order book subscription: the `orderbook_delta` channel for these markets, with
 * `use_yes_price` so NO levels come in YES prices (order_direction: the flag's default will flip
 * to true and the flag will then go away, so asking for it now is the one behaviour that stays
 * the same). Decode its messages with `decodeWsMessage(text, 'yes-leg')`.
 */
export function subscribeCommand(id: number, tickers: readonly string[], useYesPrice = true): string {
  if (tickers.length === 0) throw new RangeError('orderbook_delta needs at least one market ticker');
  return JSON.stringify({ id, cmd: 'subscribe', params: { channels: ['orderbook_delta'], market_tickers: tickers, use_yes_price: useYesPrice } });
}

/** `update_subscription` on the book subscription: add markets, drop them, or ask their snapshots again (a resync). */
export function updateSubscriptionCommand(id: number, sid: number, action: 'add_markets' | 'delete_markets' | 'get_snapshot', tickers: readonly string[]): string {
  if (tickers.length === 0) throw new RangeError(`${action} needs at least one market ticker`);
  return JSON.stringify({ id, cmd: 'update_subscription', params: { sids: [sid], market_tickers: tickers, action } });
}

export function unsubscribeCommand(id: number, sids: readonly number[]): string {
  return JSON.stringify({ id, cmd: 'unsubscribe', params: { sids } });
}

function wsDelta(msg: Record<string, unknown>, noPricing: NoPricing): Extract<KalshiStreamMessage, { kind: 'delta' }>['data'] | undefined {
  const ticker = str(msg['market_ticker']);
  const side = msg['side'];
  if (ticker === undefined || (side !== 'yes' && side !== 'no')) return undefined;
  const price = priceField(msg, 'price_dollars', 'price');
  const delta = countField(msg, 'delta_fp', 'delta');
  if (!(price > 0 && price < PRICE_ONE) || Number.isNaN(delta)) return undefined;
  return { ticker, side, price_1e9: price, delta_1e8: delta, noPricing, ts_ms: safeInteger(msg['ts_ms']) ?? instantMs(msg['ts']), client_order_id: str(msg['client_order_id']) ?? null };
}

/**
 * A WebSocket frame's text as what the books need of it; undefined for text that is not a JSON
 * object. `noPricing` is how the book subscription was made (`subscribeCommand` asks for
 * 'yes-leg'). Book messages (websockets/orderbook-updates):
 *
 *   {"type":"orderbook_snapshot","sid":2,"seq":2,"msg":{"market_ticker":..., "market_id":...,
 *     "yes_dollars_fp":[["0.0800","300.00"], ...], "no_dollars_fp":[...]}}   (a side absent when empty)
 *   {"type":"orderbook_delta","sid":2,"seq":3,"msg":{"market_ticker":..., "price_dollars":"0.960",
 *     "delta_fp":"-54.00", "side":"yes", "ts_ms":1669149841000, "client_order_id"?: ...}}
 *
 * and the older `yes`/`no` (cents) or `yes_dollars` levels, `price`/`delta` integers. A book
 * message that does not read exactly is 'unreadable' (its place in the sequence still counts).
 * Control: `subscribed` `{id, msg: {channel, sid}}`, `ok` `{id, sid?, seq?, msg?}`, `unsubscribed`
 * `{id, sid, seq}`, `error` `{id, msg: {code, msg}}`.
 */
export function decodeWsMessage(text: string, noPricing: NoPricing = 'yes-leg'): KalshiStreamMessage | undefined {
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    return undefined;
  }
  const f = record(frame);
  if (f === undefined) return undefined;
  const type = str(f['type']) ?? '';
  const id = safeInteger(f['id']) ?? null;
  const sid = safeInteger(f['sid']) ?? null;
  const seq = safeInteger(f['seq']) ?? null;
  const msg = record(f['msg']);
  switch (type) {
    case 'orderbook_snapshot':
    case 'orderbook_delta': {
      const ticker = str(msg?.['market_ticker']) ?? null;
      const unreadable = { kind: 'unreadable' as const, type, sid, seq, ticker };
      if (msg === undefined || ticker === null || sid === null || seq === null) return unreadable;
      if (type === 'orderbook_delta') {
        const data = wsDelta(msg, noPricing);
        return data === undefined ? unreadable : { kind: 'delta', sid, seq, data };
      }
      const yes = bookSide(msg, 'yes', 'yes_dollars_fp');
      const no = bookSide(msg, 'no', 'no_dollars_fp');
      return yes === undefined || no === undefined ? unreadable : { kind: 'snapshot', sid, seq, data: { ticker, yes, no, noPricing } };
    }
    case 'subscribed': {
      const s = safeInteger(msg?.['sid']);
      return s === undefined ? { kind: 'other', type, sid, seq } : { kind: 'subscribed', id, channel: str(msg?.['channel']) ?? '', sid: s };
    }
    case 'ok': {
      const tickers = msg?.['market_tickers'];
      return { kind: 'ok', id, sid, seq, market_tickers: Array.isArray(tickers) ? (tickers as unknown[]).filter((t): t is string => typeof t === 'string') : null };
    }
    case 'unsubscribed':
      return sid === null ? { kind: 'other', type, sid, seq } : { kind: 'unsubscribed', id, sid, seq };
    case 'error':
      return { kind: 'error', id, code: safeInteger(msg?.['code']) ?? 0, message: str(msg?.['msg']) ?? '' };
    default:
      return { kind: 'other', type, sid, seq };
  }
}

// ---------------------------------------------------------------------------------------------
// REST errors

/** What an error answer says, for the caller's handling. */
export type KalshiErrorKind =
  /** the order is not there (404 on an order id): for a lookup or a cancel */
  | 'no-such-order'
  /** the client_order_id is already an order (409 `order_already_exists`): that order is the child's */
  | 'exists'
  /** 401, 403: a key, signature, timestamp or scope refused before anything else */
  | 'auth'
  /** 429: refused unprocessed; back off (no Retry-After is sent) */
  | 'rate-limit'
  /** not enough available balance on the market's shard */
  | 'funds'
  /** the market or the exchange takes no orders now (closed, paused, inactive) */
  | 'market-closed'
  /** 408, 5xx, `exchange_unavailable`: the request may or may not have been carried out */
  | 'fate-unknown'
  /** a legacy endpoint switched off ("Please switch to the V2 endpoints") */
  | 'deprecated'
  /** anything else: the request refused as sent */
  | 'refused';

export interface KalshiError {
  /** the HTTP status; 0 for an error row inside a 200 (batch cancel) */
  status: number;
  /** the body's code as sent ('' when none) */
  code: string;
  message: string;
  details: string;
  kind: KalshiErrorKind;
  /** `kalshi <status> <code>: <message> (<details>)`, the child's reason */
  reason: string;
}

/**
 * Codes by kind, as documented: `available_balance_too_low` (changelog, Jan 26, 2026), and the
 * exchange's reject texts (fix/order-entry "Text Field Values", market_lifecycle "rejected with
 * `MARKET_INACTIVE`"), which REST answers carry as codes in either case.
 */
const FUNDS = /^(insufficient_balance|available_balance_too_low)$/;
const CLOSED = /^(market_inactive|market_already_closed|exchange_paused|trading_paused)$/;

/** The kind of an error by its status and code (codes compared lowercased: REST writes `invalid_order`, FIX and some REST texts `MARKET_INACTIVE`). */
function errorKind(status: number, code: string, message: string): KalshiErrorKind {
  const c = code.toLowerCase();
  const text = `${c} ${message.toLowerCase()}`;
  if (status === 429 || text.includes('too many requests')) return 'rate-limit';
  if (c === 'exchange_unavailable' || status === 408 || status >= 500) return 'fate-unknown';
  if (status === 401 || status === 403 || c === 'authentication_error') return 'auth';
  if (status === 409 || c === 'order_already_exists') return 'exists';
  if (FUNDS.test(c)) return 'funds';
  if (CLOSED.test(c)) return 'market-closed';
  if (text.includes('switch to the v2')) return 'deprecated';
  if ((status === 404 || c === 'not_found' || c === 'order_not_found') && !c.includes('market')) return 'no-such-order';
  return 'refused';
}

function errorOf(status: number, code: string, message: string, details: string): KalshiError {
  const reason = `kalshi${status === 0 ? '' : ` ${status}`}${code === '' ? '' : ` ${code}`}${message === '' || message === code ? '' : `: ${message}`}${details === '' ? '' : ` (${details})`}`;
  return { status, code, message, details, kind: errorKind(status, code, message), reason };
}

/**
 * The error of an HTTP answer; undefined for a 2xx. Reads `{error: {code, message, details}}`,
 * `{code, message, details}` and `{error: "text"}`; a body that is not JSON is the message.
 */
export function kalshiError(status: number, body: unknown): KalshiError | undefined {
  if (status >= 200 && status < 300) return undefined;
  const b = record(body);
  const inner = record(b?.['error']) ?? b ?? {};
  const code = str(inner['code']) ?? '';
  const message = str(inner['message']) ?? str(b?.['error']) ?? (typeof body === 'string' ? body.trim().slice(0, 200) : '');
  return errorOf(status, code, message, str(inner['details']) ?? '');
}

// ---------------------------------------------------------------------------------------------
// Orders: placing (V2, `POST /trade-api/v2/portfolio/events/orders`)

export const ORDERS_V2_PATH = `${API}/portfolio/events/orders`;

/** A child as the V2 endpoint takes it: a bid or an ask on the YES book. */
export interface KalshiOrderTerms {
  /** `bid` buys YES, `ask` sells YES ("Selling YES is economically equivalent to buying NO at 1 - price") */
  side: 'bid' | 'ask';
  /** the YES price, on the market's grid */
  yes_price_1e9: number;
  count_1e8: number;
}

/**
 * A child on a leg as a V2 order. The YES leg trades as it is; the NO leg through the YES book:
 * buying NO at p is selling YES at 1 - p, selling NO at p is buying YES at 1 - p. The limit goes
 * to the grid toward the passive side, so it never loosens: a YES bid's price down, a YES ask's up
 * (a NO buy's limit therefore never rises). The count goes down to 0.01 contract. A child without
 * a limit (at any price) is sent at the grid's last price before $1 (a bid) or first after $0
 * (an ask): V2 orders always carry a price.
 */
export function orderTerms(bands: readonly PriceBand[], leg: Leg, side: 'buy' | 'sell', qty_1e8: number, limit_1e9: number | null): { ok: true; terms: KalshiOrderTerms } | { ok: false; reason: string } {
  const count = Math.floor(qty_1e8 / COUNT_STEP_1E8) * COUNT_STEP_1E8;
  if (!(count > 0)) return { ok: false, reason: "below Kalshi's smallest order (0.01 contract)" };
  const bookSide: 'bid' | 'ask' = (leg === 'YES') === (side === 'buy') ? 'bid' : 'ask';
  let yesPrice: number | undefined;
  if (limit_1e9 === null) yesPrice = priceOnGrid(bands, bookSide === 'bid' ? PRICE_ONE - 1 : 1, bookSide === 'bid' ? 'down' : 'up');
  else {
    if (!Number.isSafeInteger(limit_1e9) || limit_1e9 <= 0 || limit_1e9 >= PRICE_ONE) return { ok: false, reason: `limit outside Kalshi's prices (0, 1): ${limit_1e9}` };
    yesPrice = priceOnGrid(bands, leg === 'YES' ? limit_1e9 : PRICE_ONE - limit_1e9, bookSide === 'bid' ? 'down' : 'up');
  }
  if (yesPrice === undefined || yesPrice % PRICE_STEP_MIN_1E9 !== 0) return { ok: false, reason: "no price on the market's grid within the limit" };
  return { ok: true, terms: { side: bookSide, yes_price_1e9: yesPrice, count_1e8: count } };
}

/** The child's limit as the leg sees it, from the YES price it was sent at. */
export function legPrice(leg: Leg, yes_price_1e9: number): number {
  return leg === 'YES' ? yes_price_1e9 : PRICE_ONE - yes_price_1e9;
}

/**
 * The body of `POST /portfolio/events/orders` (create-order-v2): ticker, our `client_order_id`,
 * side, `count` (2 decimals), `price` (4 decimals), `time_in_force` (`immediate_or_cancel` for
 * an IOC child, `good_till_canceled` for one that rests), and `self_trade_prevention_type`
 * `taker_at_cross` (required; on meeting our own resting order the incoming one stops and what
 * it matched stands: no resting order of ours is cancelled behind the engine's back). With the
 * market's `exchange_index` the order goes straight to its shard (omitted, the venue routes by
 * ticker at some latency). Undefined when the child id cannot be a client order id.
 */
export function createOrderBody(ticker: string, childId: string, leg: Leg, terms: KalshiOrderTerms, tif: 'ioc' | 'gtc', opts: { exchange_index?: number; subaccount?: number } = {}): string | undefined {
  const clientOrderId = kalshiClientOrderId(childId, leg);
  if (clientOrderId === undefined) return undefined;
  const body: Record<string, unknown> = {
    ticker,
    client_order_id: clientOrderId,
    side: terms.side,
    count: formatCount(terms.count_1e8),
    price: formatDollars(terms.yes_price_1e9),
    time_in_force: tif === 'ioc' ? 'immediate_or_cancel' : 'good_till_canceled',
    self_trade_prevention_type: 'taker_at_cross',
  };
  if (opts.subaccount !== undefined) body['subaccount'] = opts.subaccount;
  if (opts.exchange_index !== undefined) body['exchange_index'] = opts.exchange_index;
  return JSON.stringify(body);
}

/** What became of a create. */
export type CreateOrderOutcome =
  /** on the venue under this id: what filled at once, what remains (an IOC's remainder is already cancelled) */
  | { kind: 'placed'; order_id: string; client_order_id: string | null; filled_1e8: number; remaining_1e8: number; avg_yes_price_1e9: number | null; avg_fee_1e9: number | null; ts_ms: number | null }
  /** not created: the child's refusal */
  | { kind: 'refused'; error: KalshiError }
  /** not created because the client_order_id is already an order: that order is the child's (look it up) */
  | { kind: 'exists'; error: KalshiError }
  /** the order may or may not be on the venue: look it up by its client order id */
  | { kind: 'unknown'; reason: string };

/**
 * The answer to a V2 create, with its HTTP status: 201 `{order_id, client_order_id, fill_count,
 * remaining_count, average_fill_price?, average_fee_paid?, ts_ms}` (create-order-v2; the average
 * price is taken as a YES price, as everything on that endpoint is quoted from the YES side).
 * A legacy `{order: {...}}` answer is read too. A 2xx body that is neither leaves the fate
 * unknown, as a 5xx does.
 */
export function createOrderOutcome(status: number, body: unknown): CreateOrderOutcome {
  const error = kalshiError(status, body);
  if (error !== undefined) {
    if (error.kind === 'fate-unknown') return { kind: 'unknown', reason: error.reason };
    if (error.kind === 'exists') return { kind: 'exists', error };
    return { kind: 'refused', error };
  }
  const b = record(body);
  const legacy = record(b?.['order']);
  if (legacy !== undefined) {
    const o = orderOf(legacy);
    if (o === undefined) return { kind: 'unknown', reason: `kalshi ${status}: unreadable order answer` };
    return { kind: 'placed', order_id: o.order_id, client_order_id: o.client_order_id, filled_1e8: o.filled_1e8, remaining_1e8: o.resting_1e8, avg_yes_price_1e9: null, avg_fee_1e9: null, ts_ms: null };
  }
  const orderId = str(b?.['order_id']);
  const filled = fp(b?.['fill_count']);
  const remaining = fp(b?.['remaining_count']);
  if (b === undefined || orderId === undefined || orderId === '' || !(filled >= 0) || !(remaining >= 0)) return { kind: 'unknown', reason: `kalshi ${status}: unreadable order answer` };
  const avg = b['average_fill_price'] === undefined ? null : dollars(b['average_fill_price']);
  const fee = b['average_fee_paid'] === undefined ? null : dollars(b['average_fee_paid']);
  return { kind: 'placed', order_id: orderId, client_order_id: str(b['client_order_id']) ?? null, filled_1e8: filled, remaining_1e8: remaining, avg_yes_price_1e9: avg === null || Number.isNaN(avg) ? null : avg, avg_fee_1e9: fee === null || Number.isNaN(fee) ? null : fee, ts_ms: safeInteger(b['ts_ms']) ?? null };
}

/**
 * The child's report when the create answer settles it alone: nothing filled (an IOC that met
 * nothing, or a resting order untouched so far). Undefined when fills must be read (trade ids,
 * prices, fees are only in `GET /portfolio/fills`).
 */
export function settledReportOf(placed: Extract<CreateOrderOutcome, { kind: 'placed' }>, tif: 'ioc' | 'gtc'): LegReport | undefined {
  if (placed.filled_1e8 !== 0) return undefined;
  return { ok: true, reason: null, fills: [], resting_qty_1e8: tif === 'gtc' ? placed.remaining_1e8 : 0 };
}

/**
 * How long after a create was sent a lookup that finds nothing may be taken as final. Kalshi
 * documents no request deadline (no recvWindow, no expiry on the signature's timestamp), so this
 * is the edge's own patience, not a venue guarantee: a lookup after it that finds nothing still
 * leaves a small chance the order lands later.
 */
export const ACCEPT_WINDOW_MS = 30_000;

// ---------------------------------------------------------------------------------------------
// Orders: reading (`GET /portfolio/orders`, `GET /portfolio/orders/{order_id}`)

export type KalshiOrderStatus = 'resting' | 'canceled' | 'executed' | 'pending';
const ORDER_STATUSES: ReadonlySet<string> = new Set(['resting', 'canceled', 'executed', 'pending']);

/** An order in engine units. */
export interface KalshiOrder {
  order_id: string;
  client_order_id: string | null;
  /** ours: the child and leg the client order id was made from */
  child_id: string | null;
  leg: Leg | null;
  ticker: string;
  outcome_side: 'yes' | 'no';
  book_side: 'bid' | 'ask';
  status: KalshiOrderStatus;
  yes_price_1e9: number;
  no_price_1e9: number;
  initial_1e8: number;
  filled_1e8: number;
  /** `remaining_count`: not filled, whether still resting or cancelled */
  remaining_1e8: number;
  /** what rests on the book now */
  resting_1e8: number;
  /** taker + maker fees so far, USD 1e9 */
  fees_1e9: number;
  created_ns: number | null;
  exchange_index: number | null;
}

/** Direction from the current fields, else the deprecated `side`/`action` (buy yes and sell no are long YES). */
function outcomeSideOf(o: Record<string, unknown>): 'yes' | 'no' | undefined {
  const outcome = o['outcome_side'];
  if (outcome === 'yes' || outcome === 'no') return outcome;
  const book = o['book_side'];
  if (book === 'bid' || book === 'ask') return book === 'bid' ? 'yes' : 'no';
  const side = o['side'];
  const action = o['action'];
  if ((side !== 'yes' && side !== 'no') || (action !== 'buy' && action !== 'sell')) return undefined;
  return (side === 'yes') === (action === 'buy') ? 'yes' : 'no';
}

function orderOf(o: Record<string, unknown>): KalshiOrder | undefined {
  const orderId = str(o['order_id']);
  const ticker = str(o['ticker']) ?? str(o['market_ticker']);
  const status = str(o['status']);
  const outcome = outcomeSideOf(o);
  if (!orderId || ticker === undefined || status === undefined || !ORDER_STATUSES.has(status) || outcome === undefined) return undefined;
  let yes = priceField(o, 'yes_price_dollars', 'yes_price');
  let no = priceField(o, 'no_price_dollars', 'no_price');
  if (Number.isNaN(yes) && no >= 0) yes = PRICE_ONE - no;
  if (Number.isNaN(no) && yes >= 0) no = PRICE_ONE - yes;
  const filled = countField(o, 'fill_count_fp', 'fill_count');
  const remaining = countField(o, 'remaining_count_fp', 'remaining_count');
  const initialRaw = o['initial_count_fp'] !== undefined || o['initial_count'] !== undefined ? countField(o, 'initial_count_fp', 'initial_count') : filled + remaining;
  const fees = (moneyField(o, 'taker_fees_dollars', 'taker_fees') ?? 0n) + (moneyField(o, 'maker_fees_dollars', 'maker_fees') ?? 0n);
  if (!(yes >= 0 && yes <= PRICE_ONE) || !(no >= 0) || !(filled >= 0) || !(remaining >= 0) || !(initialRaw >= 0)) return undefined;
  const clientOrderId = str(o['client_order_id']) || null;
  const ours = clientOrderId === null ? undefined : childOfKalshi(clientOrderId);
  const created = str(o['created_time']);
  return {
    order_id: orderId,
    client_order_id: clientOrderId,
    child_id: ours?.child_id ?? null,
    leg: ours?.leg ?? null,
    ticker,
    outcome_side: outcome,
    book_side: outcome === 'yes' ? 'bid' : 'ask',
    status: status as KalshiOrderStatus,
    yes_price_1e9: yes,
    no_price_1e9: no,
    initial_1e8: initialRaw,
    filled_1e8: filled,
    remaining_1e8: remaining,
    resting_1e8: status === 'resting' || status === 'pending' ? remaining : 0,
    fees_1e9: safeNumber(fees),
    created_ns: created === undefined ? null : rfc3339Ns(created),
    exchange_index: safeInteger(o['exchange_index']) ?? null,
  };
}

/** `GET /trade-api/v2/portfolio/orders/{order_id}`. */
export function orderPath(orderId: string): string {
  return `${API}/portfolio/orders/${encodeURIComponent(orderId)}`;
}

/** `GET /portfolio/orders/{id}` answers `{order: {...}}`; undefined when unreadable (a 404 is `kalshiError`'s no-such-order). */
export function decodeOrder(body: unknown): KalshiOrder | undefined {
  const o = record(record(body)?.['order']);
  return o === undefined ? undefined : orderOf(o);
}

export interface OrdersQuery {
  ticker?: string;
  event_ticker?: string;
  status?: 'resting' | 'canceled' | 'executed';
  /** Unix seconds */
  min_ts?: number;
  max_ts?: number;
  /** at most 1000 */
  limit?: number;
  cursor?: string;
}

/** `GET /trade-api/v2/portfolio/orders`: filters by ticker, event, status and time; none by client order id. */
export function ordersPath(q: OrdersQuery = {}): string {
  return query(`${API}/portfolio/orders`, [
    ['ticker', q.ticker],
    ['event_ticker', q.event_ticker],
    ['status', q.status],
    ['min_ts', q.min_ts],
    ['max_ts', q.max_ts],
    ['limit', q.limit ?? 1000],
    ['cursor', q.cursor],
  ]);
}

/**
 * Finding a child by its client order id when its order id is not known (the create's answer
 * was lost): the list takes no client order id filter, so the market's orders since the child
 * was sent are walked page by page (`findByChildId` on each); seconds, with a minute's margin
 * for clocks. A walk that ends without it means no such order, final after `ACCEPT_WINDOW_MS`.
 */
export function clientOrderLookupPath(ticker: string, sentAtMs: number, cursor?: string): string {
  return ordersPath({ ticker, min_ts: Math.max(0, Math.floor(sentAtMs / 1000) - 60), ...(cursor === undefined ? {} : { cursor }) });
}

/** The resting orders of the account (the start-up sweep, `cancelAll`), optionally of one market. */
export function restingOrdersPath(ticker?: string, cursor?: string): string {
  return ordersPath({ status: 'resting', ...(ticker === undefined ? {} : { ticker }), ...(cursor === undefined ? {} : { cursor }) });
}

/**
 * A `GET /portfolio/orders` page `{orders, cursor}`. A row that cannot be read is skipped when it
 * is not ours, but one of ours that cannot be read makes the page undefined: it must not be taken
 * as absent.
 */
export function decodeOrders(body: unknown): { orders: KalshiOrder[]; cursor: string | null } | undefined {
  const b = record(body);
  if (b === undefined || !Array.isArray(b['orders'])) return undefined;
  const orders: KalshiOrder[] = [];
  for (const raw of b['orders'] as unknown[]) {
    const o = record(raw);
    const order = o === undefined ? undefined : orderOf(o);
    if (order !== undefined) {
      orders.push(order);
      continue;
    }
    const clientOrderId = str(o?.['client_order_id']);
    if (clientOrderId !== undefined && childOfKalshi(clientOrderId) !== undefined) return undefined;
  }
  return { orders, cursor: pageCursor(b['cursor']) };
}

export function findByChildId(orders: readonly KalshiOrder[], childId: string): KalshiOrder | undefined {
  return orders.find((o) => o.child_id === childId);
}

/** The open orders this service placed, as the edge names them: child id and leg symbol. */
export function ownOpenOrders(orders: readonly KalshiOrder[]): { child_id: string; symbol: string }[] {
  const out: { child_id: string; symbol: string }[] = [];
  for (const o of orders) if (o.child_id !== null && o.leg !== null && o.resting_1e8 > 0) out.push({ child_id: o.child_id, symbol: legSymbol(o.ticker, o.leg) });
  return out;
}

/** A child's report from its order and its fills (which should add up to `filled_1e8`: `fillsCover`). */
export function legReportOf(order: KalshiOrder, fills: VenueFill[]): LegReport {
  return { ok: true, reason: null, fills, resting_qty_1e8: order.resting_1e8 };
}

/** The fills account for everything the order says it filled (the fills list can lag the order). */
export function fillsCover(order: KalshiOrder, fills: readonly VenueFill[]): boolean {
  return fills.reduce((sum, f) => sum + f.qty_1e8, 0) === order.filled_1e8;
}

// ---------------------------------------------------------------------------------------------
// Fills (`GET /portfolio/fills`)

export interface FillsQuery {
  order_id?: string;
  ticker?: string;
  min_ts?: number;
  max_ts?: number;
  limit?: number;
  cursor?: string;
}

export function fillsPath(q: FillsQuery): string {
  return query(`${API}/portfolio/fills`, [
    ['order_id', q.order_id],
    ['ticker', q.ticker],
    ['min_ts', q.min_ts],
    ['max_ts', q.max_ts],
    ['limit', q.limit ?? 1000],
    ['cursor', q.cursor],
  ]);
}

/**
 * A `GET /portfolio/fills` page `{fills, cursor}` as the child's fills, oldest first; with
 * `order_id`, only that order's. Each row (get-fills): `fill_id` (the fill's unique id; its legacy
 * name `trade_id`), `count_fp`, `yes_price_dollars`/`no_price_dollars` (the price on the child's
 * `leg` is the fill's price for it: a NO child trades through the YES book, and its fill reads
 * `no_price_dollars`), `is_taker`, `fee_cost` (dollars, exact: at most 6 decimals), `created_time`
 * (else the legacy `ts`, seconds). A fill without `fee_cost` (before January 28, 2026) takes
 * `fallbackFee` (for instance the market's fee curve); without one it is unreadable. Undefined for
 * a body that is not a page or a row of the order that does not read.
 */
export function decodeFills(body: unknown, leg: Leg, opts: { order_id?: string; fallbackFee?: (qty_1e8: number, price_1e9: number, isMaker: boolean) => number } = {}): { fills: VenueFill[]; cursor: string | null } | undefined {
  const b = record(body);
  if (b === undefined || !Array.isArray(b['fills'])) return undefined;
  const fills: VenueFill[] = [];
  for (const raw of b['fills'] as unknown[]) {
    const t = record(raw);
    if (t === undefined) return undefined;
    if (opts.order_id !== undefined && t['order_id'] !== opts.order_id) continue;
    const id = str(t['fill_id']) || str(t['trade_id']);
    const qty = countField(t, 'count_fp', 'count');
    const price = leg === 'YES' ? priceField(t, 'yes_price_dollars', 'yes_price') : priceField(t, 'no_price_dollars', 'no_price');
    if (!id || !(qty > 0) || !(price > 0 && price < PRICE_ONE) || typeof t['is_taker'] !== 'boolean') return undefined;
    const isMaker = !t['is_taker'];
    let fee: number;
    if (t['fee_cost'] !== undefined && t['fee_cost'] !== null) fee = safeNumber(typeof t['fee_cost'] === 'string' ? decimalToScaled(t['fee_cost'], PRICE) : undefined);
    else if (opts.fallbackFee !== undefined) fee = opts.fallbackFee(qty, price, isMaker);
    else return undefined;
    if (!(fee >= 0)) return undefined;
    const created = str(t['created_time']);
    const seconds = safeInteger(t['ts']);
    const ts_ns = (created === undefined ? null : rfc3339Ns(created)) ?? (seconds === undefined ? 0 : seconds * 1e9);
    fills.push({ price_1e9: price, qty_1e8: qty, trade_id: id, ts_ns, fee_1e9: fee, is_maker: isMaker });
  }
  fills.sort((a, c) => a.ts_ns - c.ts_ns || (a.trade_id < c.trade_id ? -1 : a.trade_id > c.trade_id ? 1 : 0));
  return { fills, cursor: pageCursor(b['cursor']) };
}

// ---------------------------------------------------------------------------------------------
// Cancels (V2)

/**
 * `DELETE /trade-api/v2/portfolio/events/orders/{order_id}` (cancel-order-v2). The market
 * ticker lets the venue route to the market's shard; `exchange_index` names it outright. The
 * signature covers the path without this query.
 */
export function cancelPath(orderId: string, opts: { market_ticker?: string; exchange_index?: number; subaccount?: number } = {}): string {
  return query(`${ORDERS_V2_PATH}/${encodeURIComponent(orderId)}`, [
    ['subaccount', opts.subaccount],
    ['exchange_index', opts.exchange_index],
    ['market_ticker', opts.market_ticker],
  ]);
}

export interface KalshiCancel {
  order_id: string;
  client_order_id: string | null;
  /** contracts cancelled: what rested at the time */
  reduced_by_1e8: number;
  ts_ms: number | null;
}

/**
 * A V2 cancel answer `{order_id, client_order_id, reduced_by, ts_ms}` (or the legacy `{order,
 * reduced_by(_fp)}`). The changelog (May 21, 2026) says that in uncommon cases the answer
 * describes another order than the one cancelled ("the cancel itself executes correctly"): the
 * caller compares `order_id` with the one it cancelled and, when they differ, reads the order.
 */
export function decodeCancel(body: unknown): KalshiCancel | undefined {
  const b = record(body);
  const legacy = record(b?.['order']);
  const orderId = str(b?.['order_id']) ?? str(legacy?.['order_id']);
  if (b === undefined || !orderId) return undefined;
  const reduced = typeof b['reduced_by'] === 'string' ? fp(b['reduced_by']) : countField(b, 'reduced_by_fp', 'reduced_by');
  if (!(reduced >= 0)) return undefined;
  return { order_id: orderId, client_order_id: str(b['client_order_id']) ?? str(legacy?.['client_order_id']) ?? null, reduced_by_1e8: reduced, ts_ms: safeInteger(b['ts_ms']) ?? null };
}

export const BATCH_CANCEL_PATH = `${ORDERS_V2_PATH}/batched`;

/** The body of `DELETE /portfolio/events/orders/batched`: `{orders: [{order_id, exchange_index?, market_ticker?}]}`. */
export function batchCancelBody(orders: readonly { order_id: string; exchange_index?: number; market_ticker?: string }[]): string {
  if (orders.length === 0) throw new RangeError('a batch cancel of no order');
  return JSON.stringify({ orders: orders.map((o) => ({ order_id: o.order_id, ...(o.exchange_index === undefined ? {} : { exchange_index: o.exchange_index }), ...(o.market_ticker === undefined ? {} : { market_ticker: o.market_ticker }) })) });
}

/**
 * The largest batch a write bucket of `capacity` tokens takes at once: "The whole batch must fit
 * in the bucket at once", each cancel costing `COSTS.cancel` (rate_limits, "Batch endpoints
 * don't save tokens"; batch-cancel-orders-v2: "The maximum batch size scales with your tier's
 * write budget").
 */
export function batchCancelMax(writeCapacity: number): number {
  return Math.max(1, Math.floor(writeCapacity / COSTS.cancel));
}

/** A V2 batch cancel answer: one row per order, `reduced_by` "Zero if the cancel errored", `error` the row's refusal. */
export function decodeBatchCancel(body: unknown): { order_id: string; reduced_by_1e8: number; error: KalshiError | null }[] | undefined {
  const b = record(body);
  if (b === undefined || !Array.isArray(b['orders'])) return undefined;
  const out: { order_id: string; reduced_by_1e8: number; error: KalshiError | null }[] = [];
  for (const raw of b['orders'] as unknown[]) {
    const r = record(raw);
    const orderId = str(r?.['order_id']);
    const reduced = r?.['reduced_by'] === undefined ? 0 : fp(r['reduced_by']);
    if (r === undefined || !orderId || !(reduced >= 0)) return undefined;
    const e = record(r['error']);
    out.push({ order_id: orderId, reduced_by_1e8: reduced, error: e === undefined ? null : errorOf(0, str(e['code']) ?? '', str(e['message']) ?? '', str(e['details']) ?? '') });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Balance and positions

export const BALANCE_PATH = `${API}/portfolio/balance`;

export interface KalshiBalance {
  /** the available balance (all shards), USD 1e9 */
  balance_1e9: bigint;
  /** positions' value, USD 1e9; null when absent */
  portfolio_value_1e9: bigint | null;
  /** per shard ("Programmatic traders must preallocate collateral on a given exchange shard") */
  by_exchange: { exchange_index: number; balance_1e9: bigint }[];
  updated_ts: number | null;
}

/**
 * `GET /portfolio/balance` (get-balance): `balance_dollars` (exact) else `balance` in cents,
 * `portfolio_value` in cents, `balance_breakdown` per exchange index. Undefined when the balance
 * does not read.
 */
export function decodeBalance(body: unknown): KalshiBalance | undefined {
  const b = record(body);
  if (b === undefined) return undefined;
  const balance = moneyField(b, 'balance_dollars', 'balance');
  if (balance === undefined) return undefined;
  const by_exchange: KalshiBalance['by_exchange'] = [];
  for (const raw of Array.isArray(b['balance_breakdown']) ? (b['balance_breakdown'] as unknown[]) : []) {
    const r = record(raw);
    const index = safeInteger(r?.['exchange_index']);
    const amount = typeof r?.['balance'] === 'string' ? decimalToScaled(r['balance'], PRICE) : undefined;
    if (index === undefined || amount === undefined) return undefined;
    by_exchange.push({ exchange_index: index, balance_1e9: amount });
  }
  return { balance_1e9: balance, portfolio_value_1e9: moneyField(b, 'portfolio_value_dollars', 'portfolio_value') ?? null, by_exchange, updated_ts: safeInteger(b['updated_ts']) ?? null };
}

/**
 * The cash as the edge's balances: USD x 1e8 (AssetBalance's scale), rounded down, all free (the
 * available balance already leaves out what resting orders hold, which Kalshi does not report
 * beside it).
 */
export function cashBalance(balance: KalshiBalance): AssetBalance {
  return { asset: 'USD', free_1e8: balance.balance_1e9 / 10n, locked_1e8: 0n };
}

export interface PositionsQuery {
  ticker?: string;
  event_ticker?: string;
  /** `position` (non-zero positions only) or `total_traded` */
  count_filter?: 'position' | 'total_traded';
  limit?: number;
  cursor?: string;
}

export function positionsPath(q: PositionsQuery = {}): string {
  return query(`${API}/portfolio/positions`, [
    ['ticker', q.ticker],
    ['event_ticker', q.event_ticker],
    ['count_filter', q.count_filter ?? 'position'],
    ['limit', q.limit ?? 1000],
    ['cursor', q.cursor],
  ]);
}

export interface KalshiPosition {
  ticker: string;
  /** signed: positive is YES contracts, negative NO */
  position_1e8: number;
  exposure_1e9: bigint;
  realized_pnl_1e9: bigint;
  fees_paid_1e9: bigint;
  exchange_index: number;
}

/** A `GET /portfolio/positions` page (`market_positions`, `cursor`); undefined when a row does not read. */
export function decodePositions(body: unknown): { positions: KalshiPosition[]; cursor: string | null } | undefined {
  const b = record(body);
  if (b === undefined || !Array.isArray(b['market_positions'])) return undefined;
  const positions: KalshiPosition[] = [];
  for (const raw of b['market_positions'] as unknown[]) {
    const p = record(raw);
    const ticker = str(p?.['ticker']);
    if (p === undefined || ticker === undefined) return undefined;
    const position = countField(p, 'position_fp', 'position');
    if (Number.isNaN(position)) return undefined;
    positions.push({
      ticker,
      position_1e8: position,
      exposure_1e9: moneyField(p, 'market_exposure_dollars', 'market_exposure') ?? 0n,
      realized_pnl_1e9: moneyField(p, 'realized_pnl_dollars', 'realized_pnl') ?? 0n,
      fees_paid_1e9: moneyField(p, 'fees_paid_dollars', 'fees_paid') ?? 0n,
      exchange_index: safeInteger(p['exchange_index']) ?? 0,
    });
  }
  return { positions, cursor: pageCursor(b['cursor']) };
}

/** Positions as the edge's balances: contracts of each leg held, by leg symbol. */
export function positionBalances(positions: readonly KalshiPosition[]): AssetBalance[] {
  return positions
    .filter((p) => p.position_1e8 !== 0)
    .map((p) => ({ asset: legSymbol(p.ticker, p.position_1e8 > 0 ? 'YES' : 'NO'), free_1e8: BigInt(Math.abs(p.position_1e8)), locked_1e8: 0n }));
}

// ---------------------------------------------------------------------------------------------
// Fees (kalshi.com/fee-schedule; series `fee_type`; getting_started/fee_rounding)

/**
 * The maker's share of the taker rate by fee type (get-series `FeeType`): `quadratic` charges
 * makers nothing; `quadratic_with_maker_fees` charges them 0.0175 x C x P x (1 - P), a quarter
 * of the taker's 0.07 ("Maker Fees" section); `quadratic_with_combo_maker_fees` "the same
 * maker-fee structure with a 0.5 maker multiplier instead of 0.25". `flat` is another table.
 */
export const QUADRATIC_MAKER_SHARE: ReadonlyMap<string, number> = new Map([
  ['quadratic', 0],
  ['quadratic_with_maker_fees', 0.25],
  ['quadratic_with_combo_maker_fees', 0.5],
]);

/**
 * A fill's fee curve as the domain's binary_quadratic components (domain/prediction/fees.ts):
 * rate 700 bps (0.07) for a taker, 700 x the maker share for a maker, times the schedule's
 * `fee_multiplier`. Null for a fee type whose formula is not quadratic (`flat`) or not known.
 */
export function kalshiFeeComponents(schedule: KalshiFeeSchedule, role: 'taker' | 'maker'): TickerFeeComponents | null {
  const share = QUADRATIC_MAKER_SHARE.get(schedule.fee_type);
  if (share === undefined) return null;
  return { rate_bps: role === 'taker' ? KALSHI_FEE_COMPONENTS.rate_bps : KALSHI_FEE_COMPONENTS.rate_bps * share, multiplier: schedule.fee_multiplier, rounding: 'ceil_to_cent' };
}

const CENTICENT_1E9 = 100_000n;

/**
 * The trade fee of one fill, USD 1e9: rate x C x P x (1 - P) x multiplier, rounded up.
 *  - `cent`: up to the cent, the fee schedule's "round up to the next cent" and the domain's
 *    ticker-style rounding (`binaryTakerFeeUsd1e9`, which it is).
 *  - `centicent`: up to $0.0001, the trade fee as fee_rounding defines it since sub-cent prices and
 *    fractional counts ("Trade fee: fee from the fee model, rounded up to the nearest $0.0001");
 *    the balance then moves by whole cents (a non-direct member) through `fillCharges`.
 * Exact in bigints; the multiplier read from its decimal text.
 */
export function kalshiTradeFee1e9(c: TickerFeeComponents, qty_1e8: number, price_1e9: number, unit: 'cent' | 'centicent'): number {
  if (unit === 'cent') return binaryTakerFeeUsd1e9(c, qty_1e8, price_1e9);
  if (!Number.isSafeInteger(qty_1e8) || qty_1e8 < 0 || !Number.isSafeInteger(price_1e9) || price_1e9 < 0 || price_1e9 > PRICE_ONE) throw new RangeError(`a fill of ${qty_1e8} at ${price_1e9}`);
  const rate = decimalToScaled(c.rate_bps, 12);
  const mult = decimalToScaled(c.multiplier, 12);
  if (rate === undefined || mult === undefined || rate < 0n || mult < 0n) throw new RangeError('fee components must be decimals >= 0');
  const p = BigInt(price_1e9);
  // fee_1e9 = rate/1e12/1e4 x mult/1e12 x q/1e8 x p/1e9 x (1e9 - p)/1e9 x 1e9
  const num = rate * mult * BigInt(qty_1e8) * p * (BigInt(PRICE_ONE) - p);
  const den = 10n ** 12n * 10n ** 4n * 10n ** 12n * 10n ** 8n * 10n ** 9n * CENTICENT_1E9;
  const units = (num + den - 1n) / den;
  return safeNumber(units * CENTICENT_1E9);
}

/** The fill's cash flow before fees, USD 1e9, signed as fee_rounding has it: negative for a buyer. Exact (at most 6 decimals). */
export function fillRevenue1e9(side: 'buy' | 'sell', qty_1e8: number, price_1e9: number): bigint {
  const gross = (BigInt(qty_1e8) * BigInt(price_1e9)) / BigInt(ONE_CONTRACT);
  return side === 'buy' ? -gross : gross;
}

/** The balance precisions of fee_rounding: direct members to $0.0001, others to $0.01. */
export const BALANCE_PRECISION_1E9 = { direct: 100_000n, nonDirect: BigInt(CENT_1E9) } as const;

export interface FillCharges {
  /** floor(revenue - trade fee) to the precision: what the balance moves by */
  balance_change_1e9: bigint;
  rounding_fee_1e9: bigint;
  /** the order's accumulated rounding with this fill's, before any rebate */
  accumulated_1e9: bigint;
  /** a whole cent back once the accumulated rounding exceeds $0.01 */
  rebate_1e9: bigint;
  /** what the order carries to its next fill */
  carry_1e9: bigint;
  /** trade fee + rounding fee - rebate */
  net_fee_1e9: bigint;
}

/**
 * fee_rounding's "Rounding Mechanics" and "Fee Accumulator" for one fill of an order: the balance
 * change is revenue - trade fee floored (toward -inf) to the member's precision, the difference
 * is the rounding fee, which accumulates per order (taker and maker fills alike); once the
 * accumulation exceeds $0.01 a $0.01 rebate comes back and the accumulation drops by $0.01.
 * `tradeFee_1e9` is `kalshiTradeFee1e9(..., 'centicent')`; `carried_1e9` the previous fill's `carry_1e9` (0 first).
 */
export function fillCharges(revenue_1e9: bigint, tradeFee_1e9: bigint, carried_1e9: bigint, precision_1e9: bigint): FillCharges {
  const change = revenue_1e9 - tradeFee_1e9;
  const floored = change >= 0n ? (change / precision_1e9) * precision_1e9 : -((-change + precision_1e9 - 1n) / precision_1e9) * precision_1e9;
  const rounding = change - floored;
  const accumulated = carried_1e9 + rounding;
  const cent = BigInt(CENT_1E9);
  const rebate = accumulated > cent ? cent : 0n;
  return { balance_change_1e9: floored, rounding_fee_1e9: rounding, accumulated_1e9: accumulated, rebate_1e9: rebate, carry_1e9: accumulated - rebate, net_fee_1e9: tradeFee_1e9 + rounding - rebate };
}

// ---------------------------------------------------------------------------------------------
// Rate limits (getting_started/rate_limits) and the account probe

/**
 * Token costs: "Most requests cost the default of 10 tokens"; a V2 cancel costs 2 ("cancelling
 * 25 orders costs 25 x 2 = 50"); V2 creates the default. Legacy `/portfolio/orders` writes cost
 * 10x V2's before they were switched off. `GET /account/endpoint_costs` lists the exceptions in
 * force (the adapter may read it and override these).
 */
export const COSTS = { read: 10, create: 10, cancel: 2 } as const;

/**
 * Per-second budgets by tier (tokens refilled per second in each bucket), "Tiers and budgets".
 * At the default cost, Basic is 20 reads and 10 writes a second.
 */
export const TIER_BUDGETS: Readonly<Record<string, { read: number; write: number }>> = {
  basic: { read: 200, write: 100 },
  advanced: { read: 300, write: 300 },
  expert: { read: 600, write: 600 },
  premier: { read: 1000, write: 1000 },
  paragon: { read: 2000, write: 2000 },
  prime: { read: 4000, write: 4000 },
  prestige: { read: 10000, write: 8000 },
};

export interface KalshiBuckets {
  usage_tier: string;
  read: { refill_rate: number; bucket_capacity: number };
  write: { refill_rate: number; bucket_capacity: number };
}

export const ACCOUNT_LIMITS_PATH = `${API}/account/limits`;

/**
 * A tier's buckets when `GET /account/limits` cannot be read: capacity two seconds of budget for
 * Basic and Advanced reads and for writes above Basic, one second otherwise ("Bucket capacity
 * and bursting").
 */
export function tierBuckets(tier: string): KalshiBuckets {
  const budget = TIER_BUDGETS[tier] ?? TIER_BUDGETS['basic']!;
  const readSeconds = tier === 'basic' || tier === 'advanced' ? 2 : 1;
  const writeSeconds = tier === 'basic' ? 1 : 2;
  return { usage_tier: TIER_BUDGETS[tier] === undefined ? 'basic' : tier, read: { refill_rate: budget.read, bucket_capacity: budget.read * readSeconds }, write: { refill_rate: budget.write, bucket_capacity: budget.write * writeSeconds } };
}

function bucket(v: unknown): { refill_rate: number; bucket_capacity: number } | undefined {
  const b = record(v);
  const rate = safeInteger(b?.['refill_rate']);
  const capacity = safeInteger(b?.['bucket_capacity']);
  return rate !== undefined && capacity !== undefined && rate > 0 && capacity > 0 ? { refill_rate: rate, bucket_capacity: capacity } : undefined;
}

/** `GET /account/limits` (get-account-api-limits): `{usage_tier, read: {refill_rate, bucket_capacity}, write: {...}, grants}`. */
export function decodeAccountLimits(body: unknown): KalshiBuckets | undefined {
  const b = record(body);
  const read = bucket(b?.['read']);
  const write = bucket(b?.['write']);
  const tier = str(b?.['usage_tier']);
  return read === undefined || write === undefined || tier === undefined ? undefined : { usage_tier: tier, read, write };
}

/**
 * The two buckets as `VenueLimits` rules: a counter of `bucket_capacity` decaying at `refill_rate`
 * a second is the token bucket turned round (a request fits while used + cost <= capacity).
 * Index 0 is Read, 1 is Write; see `requestCost`. Single order writes to a shard >= 1 draw from
 * that shard's own Write bucket of the same size: one more such rule per shard traded.
 */
export function kalshiLimitRules(buckets: KalshiBuckets): LimitRule[] {
  return [
    { name: 'kalshi read', limit: buckets.read.bucket_capacity, decay_per_s: buckets.read.refill_rate },
    { name: 'kalshi write', limit: buckets.write.bucket_capacity, decay_per_s: buckets.write.refill_rate },
  ];
}

/** A request's cost against `kalshiLimitRules`' [read, write]. */
export function requestCost(kind: 'read' | 'create' | 'cancel', count = 1): [number, number] {
  return kind === 'read' ? [COSTS.read * count, 0] : [0, COSTS[kind] * count];
}

/**
 * The account's probe: its API usage tier as the tier, the venue's at-mid binary_quadratic rates
 * (fees are per market: 0 maker on plain `quadratic` series; `kalshiFeeComponents` per fill),
 * trading as the exchange says. Kalshi reports no withdrawal permission.
 */
export function accountProbeOf(buckets: KalshiBuckets | undefined, status: KalshiExchangeStatus | undefined): AccountProbe {
  return {
    tier: buckets?.usage_tier ?? 'basic',
    maker_bps: 0,
    taker_bps: binaryAtMidBps(KALSHI_FEE_COMPONENTS),
    can_trade: status === undefined ? true : status.exchange_active && status.trading_active,
    can_withdraw: null,
  };
}

/** `GET /trade-api/v2/series/{ticker}` (its `fee_type` and `fee_multiplier`: `decodeSeriesFees`). */
export function seriesPath(ticker: string): string {
  return `${API}/series/${encodeURIComponent(ticker)}`;
}
