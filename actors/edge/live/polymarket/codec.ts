import { createHash } from 'node:crypto';
import { keccak_256 } from '@noble/hashes/sha3.js';
import * as Secp256k1 from 'ox/Secp256k1';
import * as TypedData from 'ox/TypedData';
import { Side } from '../../../../domain/market.ts';
import type { MarketTimeline, PredictionEvent, PredictionMarket, RewardsProgram } from '../../../../domain/prediction/catalog.ts';
import { TOKEN_ID_DIGITS, type Leg } from '../../../../domain/prediction/symbols.ts';
import type { VenueCredentials } from '../../../../storage/credential-shapes.ts';
import { formatScaled, looseDecimalOf, parseScaled, scaledRounded } from '../decimal.ts';
import { instantMs, record, str } from '../json.ts';
import { evmAddress, POLYGON_CHAIN_ID, polymarketL1Headers, polymarketL2Headers, type HexString, type PolymarketApiCredentials } from '../signing-evm.ts';
import { limitOnTick, type AccountProbe, type AssetBalance, type LegReport, type VenueFill } from '../venue.ts';
import type { PolymarketBookSnapshot, PolymarketLevelChange } from './book-sync.ts';

/**
 * Polymarket's wire formats (the token-style prediction venue), decoded into the engine's
 * integers and encoded from them. Pure: timestamps, salts and "now" are the caller's. Prices are
 * 1e9 (a probability, 0..1e9), contracts (shares) 1e8, USD 1e9.
 *
 * THE CLOB IS V2. On 2026-04-28 Polymarket replaced its exchange contracts, CLOB backend and
 * collateral (USDC.e -> pUSD): "Legacy V1 SDKs and V1-signed orders are no longer supported on
 * production" (docs.polymarket.com/v2-migration). The V1 order (`taker`, `expiration`, `nonce`,
 * `feeRateBps` signed under domain version "1" at 0x4bFb41d5...) that ../signing-evm.ts signs
 * is refused now. V2 signs an 11-field `Order` under domain version "2" at new exchanges, and
 * markets of "Polymarket Protocol V2" (Gamma `version: "v2"`, `positionIds`) sign the same
 * struct under version "3" at ExchangeV3. This file builds and signs those orders
 * (`polymarketOrderIdV2`, `signPolymarketOrderV2`), held to py-clob-client-v2's vectors in the
 * unit test; they belong beside the V1 signer in ../signing-evm.ts, which this task may not edit.
 * ClobAuth (L1) and the L2 HMAC are unchanged in V2 and are imported from there.
 *
 * Sources, read 2026-07 (mirrors of the repositories; the docs through their published pages):
 *   - docs.polymarket.com: v2-migration, migrate/polymarket-v2/api-integrations, trading fees,
 *     api-reference/rate-limits, resources/error-codes, api-reference/trade/post-a-new-order and
 *     send-heartbeat, market-data/websocket/market-channel.
 *   - Polymarket/clob-client-v2 (src/config.ts contract addresses, order-utils/exchangeOrderBuilderV2.ts,
 *     order-builder/helpers/roundingConfig.ts, types/ordersV2.ts `orderToJsonV2`, types/clob.ts
 *     response shapes, endpoints.ts) and Polymarket/py-clob-client-v2 (order_builder/builder.py,
 *     utilities.py `generate_orderbook_summary_hash`, tests).
 *   - Polymarket/ts-sdk, the unified SDK that replaces both (actions/orders/amounts.ts, fixed.ts,
 *     context.ts, market.ts, post.ts, cancel.ts, settlement.ts, order-heartbeats.ts;
 *     bindings/clob/order-response.ts, protocol/ids.ts, gamma/market.ts).
 *   - Polymarket/rs-clob-client (order_builder.rs: the salt is masked to 2^53 - 1 "as the backend
 *     parses as an IEEE 754").
 *   - nautilus_trader's Polymarket adapter (crates/adapters/polymarket, 2026-07): signing parity
 *     vectors against py_clob_client_v2, captured Gamma/CLOB answers under test_data/, and
 *     docs/integrations/polymarket.md (trade statuses, fees, rate limits as of 2026-05-06).
 */

const PRICE = 9;
const QTY = 8;
/** pUSD and outcome tokens both have 6 decimals (clob-client-v2 config.ts). */
const BASE_DECIMALS = 6;
/** qty_1e8 per base unit of a share (1e-6 share). */
const QTY_PER_BASE = 100n;
/** price_1e9 per price unit of 1e-6. */
const PRICE_PER_MICRO = 1000;
const NS_PER_MS = 1_000_000;

export const CLOB_HOST = 'https://clob.polymarket.com';
export const GAMMA_HOST = 'https://gamma-api.polymarket.com';
export const MARKET_WS_URL = 'wss://ws-subscriptions-clob.polymarket.com/ws/market';
/** The collateral (pUSD, a USDC-backed ERC-20) under the engine's name for the venue's cash (domain/prediction/order-leg.ts `cashOf`). */
export const COLLATERAL_ASSET = 'USDC';

// ---------------------------------------------------------------------------------------------
// Exact decimals

/** A JSON number or decimal string as its decimal text (a JSON number prints as the literal it was for these short decimals). */
function textOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

/** A decimal (string or JSON number) exact at `scale`: NaN when it is not. */
function exact(v: unknown, scale: number): number {
  const t = textOf(v);
  return t === undefined || /e/i.test(t) ? NaN : parseScaled(t, scale);
}

/** Gamma writes some arrays as JSON inside a string (`"[\"Yes\", \"No\"]"`), newer fields as arrays. */
function stringArray(v: unknown): string[] | undefined {
  let raw = v;
  if (typeof v === 'string') {
    try {
      raw = JSON.parse(v) as unknown;
    } catch {
      return undefined;
    }
  }
  if (!Array.isArray(raw) || !raw.every((x) => typeof x === 'string')) return undefined;
  return raw as string[];
}

/** A venue timestamp in ms: digits (ms; 10 digits or fewer taken as seconds) or an ISO instant. */
function venueMs(v: unknown): number | null {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v < 1e11 ? v * 1000 : v;
  if (typeof v !== 'string') return null;
  if (/^\d+$/.test(v)) {
    const n = Number(v);
    if (!Number.isSafeInteger(n)) return null;
    return v.length <= 10 ? n * 1000 : n;
  }
  return instantMs(v);
}

// ---------------------------------------------------------------------------------------------
// Token ids

const UINT256_MAX = (1n << 256n) - 1n;

/**
 * A venue token id (CTF token or V2 position id: a uint256 in decimal, no leading zeros) as the
 * catalog's 78-digit id. The catalog and symbol resolver take token ids of exactly 78 digits
 * (domain/prediction/symbols.ts TOKEN_ID_DIGITS), but a uint256 below 10^77 has fewer: about one
 * CTF token in nine (the captured Gamma answers hold 77-digit ones) and every Protocol V2 position
 * id (75-76 digits, the module in its top byte). Zero-padding keeps them one canonical form;
 * `venueTokenId` undoes it for the wire. Undefined for anything that is not a uint256.
 */
export function catalogTokenId(venueId: string): string | undefined {
  if (!/^\d{1,78}$/.test(venueId)) return undefined;
  const n = BigInt(venueId);
  return n <= UINT256_MAX ? n.toString().padStart(TOKEN_ID_DIGITS, '0') : undefined;
}

/** A catalog (or venue) token id as the venue writes it: decimal without leading zeros. */
export function venueTokenId(tokenId: string): string {
  return /^\d+$/.test(tokenId) ? BigInt(tokenId).toString() : tokenId;
}

// ---------------------------------------------------------------------------------------------
// Exchanges and accounts

/** Which exchange an order is signed for: CTF markets' two V2 exchanges, or ExchangeV3 (Protocol V2 markets). */
export type PolymarketExchangeKind = 'ctf' | 'ctf-neg-risk' | 'v3';

export interface PolymarketExchangeDomain {
  version: '2' | '3';
  chainId: number;
  verifyingContract: HexString;
}

/**
 * Polygon addresses (clob-client-v2 src/config.ts MATIC_CONTRACTS, pinned by nautilus_trader's
 * eip712.rs test_v2_contract_addresses_pinned): CTF Exchange V2, Neg Risk CTF Exchange V2, and
 * ExchangeV3, whose domain version is "3" (exchangeOrderBuilderV2.ts ExchangeOrderBuilderV3).
 */
export const POLYMARKET_EXCHANGES: Readonly<Record<PolymarketExchangeKind, PolymarketExchangeDomain>> = {
  ctf: { version: '2', chainId: POLYGON_CHAIN_ID, verifyingContract: '0xE111180000d2663C0091e4f400237545B87B996B' },
  'ctf-neg-risk': { version: '2', chainId: POLYGON_CHAIN_ID, verifyingContract: '0xe2222d279d744050d28e00520010520000310F59' },
  v3: { version: '3', chainId: POLYGON_CHAIN_ID, verifyingContract: '0xe3333700cA9d93003F00f0F71f8515005F6c00Aa' },
};

/** The exchange of a market: Gamma `version` "v2" trades on ExchangeV3 whatever its neg-risk flag (clob-client-v2 createOrder). */
export function exchangeKindOf(protocol: 'v1' | 'v2', negRisk: boolean): PolymarketExchangeKind {
  if (protocol === 'v2') return 'v3';
  return negRisk ? 'ctf-neg-risk' : 'ctf';
}

/** V2 signature types (clob-client-v2 signatureTypeV2.ts): 3 is the deposit wallet (EIP-1271, ERC-7739 wrapped). */
export const POLYMARKET_SIGNATURE_TYPE_V2 = { EOA: 0, POLY_PROXY: 1, POLY_GNOSIS_SAFE: 2, POLY_1271: 3 } as const;
export type PolymarketSignatureTypeV2 = 0 | 1 | 2 | 3;

/** How an account trades, from its stored credentials. */
export interface PolymarketAccount {
  /** `extra_json.signer_private_key`: signs orders and L1 requests */
  signerKey: string;
  /** the key's checksummed address: `POLY_ADDRESS` of every request, and the orders' `signer` except for a deposit wallet */
  signerAddress: string;
  /** who holds the funds: `extra_json.proxy_address`, else the signer */
  maker: string;
  signatureType: PolymarketSignatureTypeV2;
  /** `api_key`, `api_secret`, `passphrase` (L2); null until derived with L1 */
  api: PolymarketApiCredentials | null;
}

/** What kind of wallet a stored `proxy_address` is. */
export type PolymarketWalletKind = 'proxy' | 'safe' | 'deposit';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * The account behind stored credentials (storage/credential-shapes.ts, kind `evm_signer`): the
 * signer key in `extra_json.signer_private_key`, the funds' wallet in `extra_json.proxy_address`,
 * L2 credentials in `api_key`/`api_secret`/`passphrase`. The shape stores no signature type, and
 * a proxy address does not say which wallet it is: without one the signer's own address holds the
 * funds (EOA, 0); with one, `wallet` says which (POLY_PROXY 1 for email/Magic accounts,
 * POLY_GNOSIS_SAFE 2 for browser wallets, POLY_1271 3 for the deposit wallets new API users are
 * moved to); it defaults to 'safe', and a wrong guess is refused by the venue order by order
 * ("maker address not allowed..."), never misexecuted. `extra_json.builder` (an address) has no
 * V2 meaning: V2 attributes orders by a bytes32 `builder` code, left zero here.
 */
export function polymarketAccountOf(credentials: VenueCredentials, wallet: PolymarketWalletKind = 'safe'): { ok: true; account: PolymarketAccount } | { ok: false; reason: string } {
  const extra = credentials.extra_json ?? {};
  const key = extra['signer_private_key'];
  if (typeof key !== 'string' || key === '') return { ok: false, reason: 'the signer key (extra_json.signer_private_key) is missing' };
  let signerAddress: string;
  try {
    signerAddress = evmAddress(key);
  } catch {
    return { ok: false, reason: 'the signer key (extra_json.signer_private_key) is not a secp256k1 private key' };
  }
  const proxy = extra['proxy_address'];
  let maker = signerAddress;
  let signatureType: PolymarketSignatureTypeV2 = POLYMARKET_SIGNATURE_TYPE_V2.EOA;
  if (proxy !== undefined && proxy !== null && proxy !== '') {
    if (typeof proxy !== 'string' || !ADDRESS.test(proxy)) return { ok: false, reason: 'the proxy address (extra_json.proxy_address) is not a 0x address' };
    maker = proxy;
    signatureType = wallet === 'proxy' ? POLYMARKET_SIGNATURE_TYPE_V2.POLY_PROXY : wallet === 'deposit' ? POLYMARKET_SIGNATURE_TYPE_V2.POLY_1271 : POLYMARKET_SIGNATURE_TYPE_V2.POLY_GNOSIS_SAFE;
  }
  const l2 = credentials.api_key !== '' && credentials.api_secret !== '' && (credentials.passphrase ?? '') !== '';
  return {
    ok: true,
    account: { signerKey: key, signerAddress, maker, signatureType, api: l2 ? { apiKey: credentials.api_key, secret: credentials.api_secret, passphrase: credentials.passphrase! } : null },
  };
}

// ---------------------------------------------------------------------------------------------
// Ticks and order amounts

/** The tick sizes the CLOB uses (clob-client-v2 types/clob.ts TickSize; 0.005 and 0.0025 added in v1.0.8). */
export type PolymarketTickSize = '0.1' | '0.01' | '0.005' | '0.0025' | '0.001' | '0.0001';

/**
 * Decimals per tick size (clob-client-v2 roundingConfig.ts, ts-sdk context.ts resolveRoundingConfig):
 * `price` decimals of the price, `size` of a share count, `amount` of a product of the two.
 */
export const ROUNDING_CONFIG: Readonly<Record<PolymarketTickSize, { price: number; size: number; amount: number }>> = {
  '0.1': { price: 1, size: 2, amount: 3 },
  '0.01': { price: 2, size: 2, amount: 4 },
  '0.005': { price: 3, size: 2, amount: 5 },
  '0.0025': { price: 4, size: 2, amount: 6 },
  '0.001': { price: 3, size: 2, amount: 5 },
  '0.0001': { price: 4, size: 2, amount: 6 },
};

const TICKS: ReadonlyMap<number, PolymarketTickSize> = new Map(
  (Object.keys(ROUNDING_CONFIG) as PolymarketTickSize[]).map((t) => [parseScaled(t, PRICE), t]),
);

/** A tick (1e9) as the CLOB's tick size; undefined for one it does not use. */
export function tickSizeOf(tick_1e9: number): PolymarketTickSize | undefined {
  return TICKS.get(tick_1e9);
}

function quantum(decimals: number): bigint {
  return 10n ** BigInt(BASE_DECIMALS - decimals);
}

/** value x multiplier / denominator, rounded down or up (non-negative operands). */
function mulDiv(value: bigint, multiplier: bigint, denominator: bigint, up: boolean): bigint {
  const n = value * multiplier;
  const q = n / denominator;
  return up && n % denominator !== 0n ? q + 1n : q;
}

/** Maker and taker amounts of an order, in 6-decimal base units of pUSD and of the outcome token. */
export interface PolymarketAmounts {
  makerAmount: bigint;
  takerAmount: bigint;
}

/**
 * A resting (GTC/GTD) order's amounts, as ts-sdk computeLimitOrderAmounts (and py-clob-client-v2
 * get_order_amounts, whose float steps it makes exact): the size down to 2 decimals; BUY offers
 * size x price in pUSD (down to the tick's `amount` decimals) for the size in shares; SELL offers
 * the shares for that pUSD. `size` in base units (1e-6 share), `price` in 1e-6 (on the tick).
 */
export function limitOrderAmounts(side: 'buy' | 'sell', size: bigint, price: bigint, tick: PolymarketTickSize): PolymarketAmounts {
  const cfg = ROUNDING_CONFIG[tick];
  const shares = (size / quantum(cfg.size)) * quantum(cfg.size);
  const q = quantum(cfg.amount);
  const notional = mulDiv(shares, price, 10n ** BigInt(BASE_DECIMALS) * q, false) * q;
  return side === 'buy' ? { makerAmount: notional, takerAmount: shares } : { makerAmount: shares, takerAmount: notional };
}

/**
 * A marketable (FAK/FOK) order's amounts with a price bound, as ts-sdk computeMarketOrderAmounts
 * with `protectPrice`: a BUY offers `amount` pUSD (down to 2 decimals: marketable buys spend
 * whole cents) for amount / price shares rounded UP to the tick's `amount` decimals, so the
 * signed ratio never exceeds the bound; a SELL offers `amount` shares (2 decimals) for
 * shares x price pUSD rounded UP, so it never sells below the bound. Base units and 1e-6 prices.
 */
export function marketableOrderAmounts(side: 'buy' | 'sell', amount: bigint, price: bigint, tick: PolymarketTickSize): PolymarketAmounts {
  const cfg = ROUNDING_CONFIG[tick];
  const offered = (amount / quantum(cfg.size)) * quantum(cfg.size);
  const q = quantum(cfg.amount);
  const scale = 10n ** BigInt(BASE_DECIMALS);
  const requested = side === 'buy' ? mulDiv(offered, scale, price * q, true) * q : mulDiv(offered, price, scale * q, true) * q;
  return { makerAmount: offered, takerAmount: requested };
}

/** A marketable order must be worth at least 1 pUSD ("invalid amount for a marketable BUY order ... min size: $1"). */
export const MIN_MARKETABLE_NOTIONAL_1e9 = 1_000_000_000;

/** What the adapter knows of a token to trade it (from the catalog, `GET /clob-markets/{condition_id}` or a `book`). */
export interface PolymarketTokenRules {
  /** the venue's id (`venueTokenId`) */
  token_id: string;
  tick_1e9: number;
  /** `orderMinSize` / `minimum_order_size`: shares a resting order must show, x 1e8 */
  min_size_1e8: number;
  exchange: PolymarketExchangeKind;
  /** accepting orders and with an order book */
  trading: boolean;
}

/** A child's order as it will be signed. */
export interface PolymarketOrderTerms {
  side: 'buy' | 'sell';
  /** FAK for an IOC child (fills what it can now, the rest is cancelled), GTC for a resting one */
  orderType: 'FAK' | 'GTC';
  price_1e9: number;
  /** the most shares the order can fill, x 1e8 */
  qty_1e8: number;
  amounts: PolymarketAmounts;
}

/**
 * A child's terms: its limit onto the token's tick toward the passive side (`limitOnTick`: a buy
 * down, a sell up) and inside [tick, 1 - tick] (clamping only tightens), its size down to 0.01
 * share. IOC -> FAK with the price-protected marketable amounts (refused under 1 pUSD); GTC ->
 * resting amounts (refused under the market's minimum size). The CLOB has no unpriced order that
 * bounds its price, so a child without a limit is refused.
 */
export function childOrderTerms(rules: PolymarketTokenRules, side: 'buy' | 'sell', qty_1e8: number, limit_1e9: number | null, tif: 'ioc' | 'gtc'): { ok: true; terms: PolymarketOrderTerms } | { ok: false; reason: string } {
  if (!rules.trading) return { ok: false, reason: 'polymarket: the market is not accepting orders' };
  const tick = tickSizeOf(rules.tick_1e9);
  if (tick === undefined) return { ok: false, reason: `polymarket: unknown tick size ${formatScaled(rules.tick_1e9, PRICE)}` };
  if (limit_1e9 === null) return { ok: false, reason: 'polymarket takes priced orders only' };
  let price = limitOnTick(side, limit_1e9, rules.tick_1e9)!;
  const lo = rules.tick_1e9;
  const hi = 1_000_000_000 - rules.tick_1e9;
  if (side === 'buy' ? price < lo : price > hi) return { ok: false, reason: 'polymarket: limit outside the market\'s price range' };
  if (price > hi) price = hi;
  if (price < lo) price = lo;
  const cfg = ROUNDING_CONFIG[tick];
  const sizeStep = Number(quantum(cfg.size) * QTY_PER_BASE);
  const size_1e8 = qty_1e8 - (qty_1e8 % sizeStep);
  if (!(size_1e8 > 0)) return { ok: false, reason: 'polymarket: below the 0.01 share size step' };
  const size = BigInt(size_1e8) / QTY_PER_BASE;
  const priceMicro = BigInt(price / PRICE_PER_MICRO);
  if (tif === 'gtc') {
    if (size_1e8 < rules.min_size_1e8) return { ok: false, reason: `polymarket: below the market's minimum order size (${formatScaled(rules.min_size_1e8, QTY)} shares)` };
    return { ok: true, terms: { side, orderType: 'GTC', price_1e9: price, qty_1e8: size_1e8, amounts: limitOrderAmounts(side, size, priceMicro, tick) } };
  }
  const scale = 10n ** BigInt(BASE_DECIMALS);
  if (side === 'buy') {
    // Spend the whole cents of size x limit: at most the size, never above the limit.
    const cents = quantum(2);
    const spend = ((size * priceMicro) / scale / cents) * cents;
    if (spend * 1000n < BigInt(MIN_MARKETABLE_NOTIONAL_1e9)) return { ok: false, reason: 'polymarket: a marketable order must be worth at least $1' };
    const amounts = marketableOrderAmounts('buy', spend, priceMicro, tick);
    return { ok: true, terms: { side, orderType: 'FAK', price_1e9: price, qty_1e8: Number(amounts.takerAmount * QTY_PER_BASE), amounts } };
  }
  if (size * priceMicro * 1000n < BigInt(MIN_MARKETABLE_NOTIONAL_1e9) * scale) return { ok: false, reason: 'polymarket: a marketable order must be worth at least $1' };
  return { ok: true, terms: { side, orderType: 'FAK', price_1e9: price, qty_1e8: size_1e8, amounts: marketableOrderAmounts('sell', size, priceMicro, tick) } };
}

// ---------------------------------------------------------------------------------------------
// V2 orders: struct, id, signature

/** The V2 (and V3) exchange's signed `Order` (clob-client-v2 ctfExchangeV2TypedData.ts); the field order is the type hash's. */
const ORDER_V2_FIELDS = [
  { name: 'salt', type: 'uint256' },
  { name: 'maker', type: 'address' },
  { name: 'signer', type: 'address' },
  { name: 'tokenId', type: 'uint256' },
  { name: 'makerAmount', type: 'uint256' },
  { name: 'takerAmount', type: 'uint256' },
  { name: 'side', type: 'uint8' },
  { name: 'signatureType', type: 'uint8' },
  { name: 'timestamp', type: 'uint256' },
  { name: 'metadata', type: 'bytes32' },
  { name: 'builder', type: 'bytes32' },
] as const;

/** The `Order` type string: the ERC-7739 wrapping of a deposit-wallet signature carries it verbatim. */
export const ORDER_V2_TYPE_STRING =
  'Order(uint256 salt,address maker,address signer,uint256 tokenId,uint256 makerAmount,uint256 takerAmount,uint8 side,uint8 signatureType,uint256 timestamp,bytes32 metadata,bytes32 builder)';

export const ZERO_BYTES32: HexString = `0x${'0'.repeat(64)}`;

/** The largest salt the CLOB takes: it parses `salt` as a JSON number (IEEE 754), rs-clob-client and ts-sdk post.ts. */
export const MAX_SALT = BigInt(Number.MAX_SAFE_INTEGER);

/** A V2 order before its signature. Amounts in 6-decimal base units; `timestamp` in ms (per-address uniqueness, not an expiry). */
export interface PolymarketOrderV2 {
  salt: bigint;
  maker: string;
  signer: string;
  /** the venue's token (or V2 position) id, decimal */
  tokenId: string;
  makerAmount: bigint;
  takerAmount: bigint;
  side: 0 | 1;
  signatureType: PolymarketSignatureTypeV2;
  timestamp: bigint;
  metadata: HexString;
  builder: HexString;
}

function checked(order: PolymarketOrderV2) {
  if (order.salt < 0n || order.salt > MAX_SALT) throw new Error('a Polymarket salt is an integer in [0, 2^53 - 1]');
  if (!ADDRESS.test(order.maker) || !ADDRESS.test(order.signer)) throw new Error('maker and signer must be 20-byte 0x addresses');
  if (!/^\d{1,78}$/.test(order.tokenId) || BigInt(order.tokenId) > UINT256_MAX) throw new Error('tokenId must be a uint256 in decimal');
  if (order.makerAmount <= 0n || order.takerAmount <= 0n) throw new Error('order amounts must be positive');
  if (!/^0x[0-9a-fA-F]{64}$/.test(order.metadata) || !/^0x[0-9a-fA-F]{64}$/.test(order.builder)) throw new Error('metadata and builder are bytes32');
  return {
    salt: order.salt,
    maker: order.maker as HexString,
    signer: order.signer as HexString,
    tokenId: BigInt(order.tokenId),
    makerAmount: order.makerAmount,
    takerAmount: order.takerAmount,
    side: order.side,
    signatureType: order.signatureType,
    timestamp: order.timestamp,
    metadata: order.metadata,
    builder: order.builder,
  };
}

/** An exchange by kind, or a domain spelled out (another chain: Amoy testnet's vectors). */
export type PolymarketExchange = PolymarketExchangeKind | PolymarketExchangeDomain;

function exchangeDomain(exchange: PolymarketExchange) {
  const d = typeof exchange === 'string' ? POLYMARKET_EXCHANGES[exchange] : exchange;
  return { name: 'Polymarket CTF Exchange', version: d.version, chainId: d.chainId, verifyingContract: d.verifyingContract };
}

/** EIP-712 `hashStruct(order)`: also the `contentsHash` of a deposit-wallet signature. */
export function polymarketOrderStructHashV2(order: PolymarketOrderV2): HexString {
  return TypedData.hashStruct({ data: checked(order), primaryType: 'Order', types: { Order: ORDER_V2_FIELDS } });
}

/**
 * The order's id: its EIP-712 digest keccak256(0x1901 ‖ domainSeparator ‖ hashStruct(order)),
 * the exchange's order hash, which the CLOB answers as `orderID` and lists orders and trades by
 * (nautilus_trader eip712.rs `order_hash`, "the EIP-712 signing hash used by Polymarket as the
 * order ID", and its submitter caching it as the venue order id before the answer). Known before
 * the order is sent: a lost answer is looked up by it. The same for every signature type.
 */
export function polymarketOrderIdV2(order: PolymarketOrderV2, exchange: PolymarketExchange): HexString {
  return TypedData.getSignPayload({ domain: exchangeDomain(exchange), types: { Order: ORDER_V2_FIELDS }, primaryType: 'Order', message: checked(order) });
}

function keyHex(privateKey: string): HexString {
  const hex = privateKey.startsWith('0x') || privateKey.startsWith('0X') ? privateKey.slice(2) : privateKey;
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error('an EVM private key is 32 bytes of hex');
  return `0x${hex.toLowerCase()}`;
}

/** r ‖ s ‖ v (v 0x1b/0x1c) of an RFC 6979 signature of a digest, as ../signing-evm.ts signs (extra entropy pinned off). */
function signDigestHex(digest: HexString, privateKey: string): string {
  const { r, s, yParity } = Secp256k1.sign({ payload: digest, privateKey: keyHex(privateKey), extraEntropy: false });
  return `${BigInt(r).toString(16).padStart(64, '0')}${BigInt(s).toString(16).padStart(64, '0')}${yParity === 0 ? '1b' : '1c'}`;
}

/** The deposit wallet's ERC-7739 `TypedDataSign` (clob-client-v2 exchangeOrderBuilderV2.ts TYPED_DATA_SIGN_STRUCT). */
const TYPED_DATA_SIGN_FIELDS = [
  { name: 'contents', type: 'Order' },
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
  { name: 'salt', type: 'bytes32' },
] as const;

/**
 * The order's `signature` field. Types 0-2: the signer key's signature of the order id (65 bytes).
 * Type 3 (deposit wallet, EIP-1271): the key signs the ERC-7739 `TypedDataSign` of the order for
 * the wallet (`DepositWallet` "1" at the order's `signer`, which is the wallet), and the field is
 * that signature ‖ the exchange's domain separator ‖ hashStruct(order) ‖ the Order type string ‖
 * its length as uint16 (clob-client-v2 buildOrderSignature; nautilus sign_poly_1271_order).
 */
export function signPolymarketOrderV2(order: PolymarketOrderV2, privateKey: string, exchange: PolymarketExchange): HexString {
  if (order.signatureType !== POLYMARKET_SIGNATURE_TYPE_V2.POLY_1271) return `0x${signDigestHex(polymarketOrderIdV2(order, exchange), privateKey)}`;
  if (order.signer.toLowerCase() !== order.maker.toLowerCase()) throw new Error('a deposit-wallet order has the wallet as maker and signer');
  const domain = exchangeDomain(exchange);
  const contents = checked(order);
  const digest = TypedData.getSignPayload({
    domain,
    types: { TypedDataSign: TYPED_DATA_SIGN_FIELDS, Order: ORDER_V2_FIELDS },
    primaryType: 'TypedDataSign',
    message: { contents, name: 'DepositWallet', version: '1', chainId: BigInt(domain.chainId), verifyingContract: order.signer as HexString, salt: ZERO_BYTES32 },
  });
  const typeHex = Buffer.from(ORDER_V2_TYPE_STRING, 'utf8').toString('hex');
  const length = ORDER_V2_TYPE_STRING.length.toString(16).padStart(4, '0');
  return `0x${signDigestHex(digest, privateKey)}${TypedData.domainSeparator(domain).slice(2)}${polymarketOrderStructHashV2(order).slice(2)}${typeHex}${length}`;
}

/**
 * The salt of a child's order: the top 53 bits of keccak256("polymarket-salt:" ‖ child id),
 * bits 52..0 of the salt. A salt cannot carry the child id: the CLOB takes at most 53 bits
 * (`MAX_SALT`) and our ids hold about 102 (Kraken's packing: 68 bits of time and sequence, 18 of
 * process suffix, 16 of child number), so no 53-bit function of them is injective; nor does the
 * CLOB ever show a salt back (open orders, trades and the user channel carry the order id, never
 * the struct). What finds a child again is its ORDER ID, the EIP-712 digest, computed before the
 * order is sent and journaled with the child. The salt's job is to make that id a pure function
 * of (child id, terms, timestamp, account), so the journal can rebuild it, and to keep two
 * children with the same terms in the same millisecond apart (a collision needs 2^-53 luck on
 * top of identical token, side, amounts and ms).
 */
export function childOrderSalt(childId: string): bigint {
  const h = keccak_256(Buffer.from(`polymarket-salt:${childId}`, 'utf8'));
  let x = 0n;
  for (let i = 0; i < 7; i++) x = (x << 8n) | BigInt(h[i]!);
  return x >> 3n;
}

/** A child's order, unsigned: the account's maker and signer, the child's salt, `timestamp_ms` the caller's clock (journal it with the child). */
export function childOrderV2(account: PolymarketAccount, tokenId: string, childId: string, terms: PolymarketOrderTerms, timestamp_ms: number): PolymarketOrderV2 {
  if (!Number.isSafeInteger(timestamp_ms) || timestamp_ms <= 0) throw new Error('the order timestamp is ms since the epoch');
  const deposit = account.signatureType === POLYMARKET_SIGNATURE_TYPE_V2.POLY_1271;
  return {
    salt: childOrderSalt(childId),
    maker: account.maker,
    // A deposit wallet signs through EIP-1271: it is both maker and signer (clob-client-v2 createOrder).
    signer: deposit ? account.maker : account.signerAddress,
    tokenId: venueTokenId(tokenId),
    makerAmount: terms.amounts.makerAmount,
    takerAmount: terms.amounts.takerAmount,
    side: terms.side === 'buy' ? 0 : 1,
    signatureType: account.signatureType,
    timestamp: BigInt(timestamp_ms),
    metadata: ZERO_BYTES32,
    builder: ZERO_BYTES32,
  };
}

export type PolymarketOrderType = 'FOK' | 'FAK' | 'GTC' | 'GTD';

/**
 * The `POST /order` body: `{deferExec, order: {...}, owner, orderType}` as clob-client-v2
 * `orderToJsonV2` and ts-sdk post.ts write it; `salt` a JSON number, amounts and the token id
 * decimal strings, `side` "BUY"/"SELL", `expiration` unix seconds as text ("0": none; only GTD
 * uses it, and it is not signed in V2). `owner` is the L2 API key. The L2 signature must cover
 * these exact bytes.
 */
export function postOrderBody(order: PolymarketOrderV2, signature: string, owner: string, orderType: PolymarketOrderType, expirationSeconds = 0): string {
  checked(order);
  return JSON.stringify({
    deferExec: false,
    order: {
      salt: Number(order.salt),
      maker: order.maker,
      signer: order.signer,
      tokenId: order.tokenId,
      makerAmount: order.makerAmount.toString(),
      takerAmount: order.takerAmount.toString(),
      side: order.side === 0 ? 'BUY' : 'SELL',
      signatureType: order.signatureType,
      timestamp: order.timestamp.toString(),
      expiration: String(expirationSeconds),
      metadata: order.metadata,
      builder: order.builder,
      signature,
    },
    owner,
    orderType,
  });
}

/** A child's order built, signed and serialized, with the id to journal before it is sent. */
export interface SignedChildOrder {
  order: PolymarketOrderV2;
  orderId: HexString;
  orderType: PolymarketOrderType;
  body: string;
}

/** Everything `POST /order` needs for a child (the account must hold L2 credentials). */
export function signedChildOrder(account: PolymarketAccount, rules: PolymarketTokenRules, childId: string, terms: PolymarketOrderTerms, timestamp_ms: number): SignedChildOrder {
  if (account.api === null) throw new Error('L2 credentials are needed to post orders: derive them first');
  const order = childOrderV2(account, rules.token_id, childId, terms, timestamp_ms);
  const signature = signPolymarketOrderV2(order, account.signerKey, rules.exchange);
  return { order, orderId: polymarketOrderIdV2(order, rules.exchange), orderType: terms.orderType, body: postOrderBody(order, signature, account.api.apiKey, terms.orderType) };
}

// ---------------------------------------------------------------------------------------------
// Requests: L2 (trading) and L1 (API keys)

export const POST_ORDER_PATH = '/order';
export const CANCEL_ORDER_PATH = '/order';
export const CANCEL_ALL_PATH = '/cancel-all';
export const CANCEL_MARKET_ORDERS_PATH = '/cancel-market-orders';
export const OPEN_ORDERS_PATH = '/data/orders';
export const TRADES_PATH = '/data/trades';
export const BALANCE_ALLOWANCE_PATH = '/balance-allowance';
export const HEARTBEAT_PATH = '/v1/heartbeats';
export const CLOSED_ONLY_PATH = '/auth/ban-status/closed-only';
export const VERSION_PATH = '/version';
/** First and last page markers of the CLOB's cursors: base64 "0" and "-1". */
export const INITIAL_CURSOR = 'MA==';
export const END_CURSOR = 'LTE=';

export interface PolymarketRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** path and query, to append to `CLOB_HOST` */
  path: string;
  headers: Record<string, string>;
  /** the exact body to send ('' for none) */
  body: string;
}

function withQuery(path: string, query: Record<string, string | number | undefined> | undefined): string {
  if (query === undefined) return path;
  const parts = Object.entries(query)
    .filter((e): e is [string, string | number] => e[1] !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return parts.length === 0 ? path : `${path}?${parts.join('&')}`;
}

/**
 * An L2 request: the HMAC covers timestamp + method + the path WITHOUT its query + the body, as
 * the SDKs sign it (clob-client-v2 passes `requestPath: endpoint` and the query apart). The
 * timestamp is unix seconds, the caller's (the SDKs offer the server's `/time` for a drifting clock).
 */
export function l2Request(account: PolymarketAccount, method: PolymarketRequest['method'], path: string, timestampSeconds: number, options: { query?: Record<string, string | number | undefined>; body?: string } = {}): PolymarketRequest {
  if (account.api === null) throw new Error('L2 credentials are needed: derive them first');
  const body = options.body ?? '';
  return { method, path: withQuery(path, options.query), headers: polymarketL2Headers(account.signerAddress, account.api, timestampSeconds, method, path, body), body };
}

/**
 * The L1 requests that yield the account's L2 credentials (clob-client-v2 endpoints.ts):
 * `GET /auth/derive-api-key` answers the key a nonce already made; `POST /auth/api-key` makes a
 * new one (the SDKs' createOrDerive tries create, then derive). Signed with ClobAuth for the
 * signer's own address, whatever wallet holds the funds: "API credentials stay bound to the signer".
 */
export function apiKeyRequest(kind: 'create' | 'derive', signerKey: string, timestampSeconds: number, nonce = 0): PolymarketRequest {
  return {
    method: kind === 'create' ? 'POST' : 'GET',
    path: kind === 'create' ? '/auth/api-key' : '/auth/derive-api-key',
    headers: polymarketL1Headers(signerKey, POLYGON_CHAIN_ID, timestampSeconds, nonce),
    body: '',
  };
}

/** An API key answer `{apiKey, secret, passphrase}` (clob-client-v2 ApiKeyRaw); undefined for anything else. */
export function decodeApiKey(body: unknown): PolymarketApiCredentials | undefined {
  const b = record(body);
  const apiKey = str(b?.['apiKey']);
  const secret = str(b?.['secret']);
  const passphrase = str(b?.['passphrase']);
  if (apiKey === undefined || secret === undefined || passphrase === undefined || apiKey === '' || secret === '' || passphrase === '') return undefined;
  return { apiKey, secret, passphrase };
}

/** The stored credentials with derived L2 credentials, in the names storage/credential-shapes.ts checks. */
export function credentialsWithApiKey(credentials: VenueCredentials, api: PolymarketApiCredentials): VenueCredentials {
  return { ...credentials, api_key: api.apiKey, api_secret: api.secret, passphrase: api.passphrase };
}

// ---------------------------------------------------------------------------------------------
// Errors

/** What an error says about a request. */
export type PolymarketErrorKind =
  /** cancel or lookup of an order the venue does not have open ("order not found", "already canceled or matched") */
  | 'unknown-order'
  /** a FAK/FOK that matched nothing: not a refusal, nothing filled */
  | 'no-fill'
  /** "not enough balance / allowance" */
  | 'funds'
  /** the key, its headers or the wallet setup: nothing was done */
  | 'auth'
  /** 429 "Too Many Requests" (Cloudflare throttles first, then refuses) */
  | 'rate-limit'
  /** 503: trading disabled or cancel-only; nothing was placed */
  | 'halted'
  /** "order_version_mismatch": the CLOB expects another order version (re-read `GET /version`) */
  | 'version'
  /** 5xx or an unreadable answer to a write: it may have been done (look the order up by its id) */
  | 'fate-unknown'
  /** anything else: the request refused as sent */
  | 'refused';

export interface PolymarketError {
  kind: PolymarketErrorKind;
  /** `polymarket <status>: <message>`, a child's reason */
  reason: string;
  message: string;
}

/** Messages by what they mean (docs.polymarket.com/resources/error-codes; ts-sdk order-response.ts; nautilus consts.rs; py-clob-client-v2 issue #83). */
const MESSAGE_KINDS: readonly (readonly [RegExp, PolymarketErrorKind])[] = [
  [/order not found|already canceled or matched|order can(?:'|no)t be found|does not exist/i, 'unknown-order'],
  [/no orders found to match with FAK order|couldn't be fully filled|FOK orders are fully filled or killed/i, 'no-fill'],
  [/not enough balance|insufficient (?:balance|funds)|allowance/i, 'funds'],
  [/Unauthorized|Invalid api key|Invalid L1 Request headers|invalid signature|maker address not allowed|signer address has to be the address of the API KEY/i, 'auth'],
  [/Too Many Requests/i, 'rate-limit'],
  [/Trading is currently (?:disabled|cancel-only)/i, 'halted'],
  [/order_version_mismatch/i, 'version'],
];

export function errorKindOf(message: string): PolymarketErrorKind {
  for (const [pattern, kind] of MESSAGE_KINDS) if (pattern.test(message)) return kind;
  return 'refused';
}

/**
 * The error of an answer: `{"error": "<message>"}` with a 4xx/5xx status (every CLOB error, per
 * the error-codes page). Undefined for a 2xx answer without `error`. A 5xx other than the
 * documented 503s, or a non-JSON error page, is fate-unknown: a write may have happened.
 */
export function polymarketError(status: number, body: unknown): PolymarketError | undefined {
  const b = record(body);
  const message = str(b?.['error']) ?? str(b?.['errorMsg']) ?? (typeof body === 'string' ? body : '');
  if (status >= 200 && status < 300 && str(b?.['error']) === undefined) return undefined;
  let kind = errorKindOf(message);
  if (status === 429) kind = 'rate-limit';
  else if (status === 401 && kind === 'refused') kind = 'auth';
  else if (status >= 500 && kind !== 'halted') kind = 'fate-unknown';
  return { kind, reason: `polymarket ${status}: ${message || 'no message'}`, message };
}

// ---------------------------------------------------------------------------------------------
// POST /order answers

/** What `POST /order` said about one order. */
export type PolymarketOrderAck =
  /** placed: `live` rests, `matched` filled at placement (fully or partly), `delayed` queued by the market's matching delay */
  | { kind: 'accepted'; orderId: string; status: 'live' | 'matched' | 'delayed'; tradeIds: string[]; making: string; taking: string }
  /** a FAK/FOK that matched nothing: done, no fills */
  | { kind: 'no-fill'; reason: string }
  | { kind: 'refused'; error: PolymarketError }
  /** cannot say: look the order up by its id */
  | { kind: 'fate-unknown'; reason: string };

/**
 * The answer of `POST /order`: `{success, errorMsg, orderID, status, makingAmount,
 * takingAmount, transactionsHashes?, tradeIDs?}` (docs' example, clob-client-v2 OrderResponse),
 * accepted iff `success`, no `errorMsg`, an `orderID` and a status of live/matched/delayed (ts-sdk
 * normalizeOrderResponse). `makingAmount`/`takingAmount` are kept as text: the docs' example
 * reads like base units, answers seen in SDK tests like decimals, and fills are read from trades
 * anyway. `unmatched` (a marketable order placed without a match, in V1's wording) is not
 * trusted either way: fate-unknown, looked up by id.
 */
export function decodePostOrder(status: number, body: unknown): PolymarketOrderAck {
  const b = record(body);
  if (b === undefined || (b['success'] === undefined && b['error'] === undefined)) {
    return status >= 200 && status < 500 && status !== 429 && body !== undefined
      ? { kind: 'refused', error: polymarketError(status, body) ?? { kind: 'refused', reason: `polymarket ${status}: an answer that cannot be read`, message: '' } }
      : { kind: 'fate-unknown', reason: `polymarket ${status}: an answer that cannot be read` };
  }
  const error = polymarketError(status, body);
  if (error !== undefined) return error.kind === 'no-fill' ? { kind: 'no-fill', reason: error.reason } : error.kind === 'fate-unknown' ? { kind: 'fate-unknown', reason: error.reason } : { kind: 'refused', error };
  const errorMsg = str(b['errorMsg']) ?? '';
  const orderId = str(b['orderID']) ?? '';
  const st = (str(b['status']) ?? '').toLowerCase();
  if (b['success'] === true && errorMsg === '' && orderId !== '' && (st === 'live' || st === 'matched' || st === 'delayed')) {
    const ids = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x !== '') : []);
    return { kind: 'accepted', orderId, status: st, tradeIds: ids(b['tradeIDs']), making: str(b['makingAmount']) ?? '', taking: str(b['takingAmount']) ?? '' };
  }
  if (st === 'unmatched') return { kind: 'fate-unknown', reason: `polymarket: order ${orderId || '?'} answered unmatched` };
  const kind = errorKindOf(errorMsg);
  if (kind === 'no-fill') return { kind: 'no-fill', reason: `polymarket: ${errorMsg}` };
  if (errorMsg === '' && orderId !== '') return { kind: 'fate-unknown', reason: `polymarket: order ${orderId} answered without a known status (${st || 'none'})` };
  return { kind: 'refused', error: { kind, reason: `polymarket ${status}: ${errorMsg || 'refused'}`, message: errorMsg } };
}

/** A child's report when its ack settles it alone: a refusal, or a FAK that matched nothing. Undefined when its fills must be read. */
export function settledReportOf(ack: PolymarketOrderAck): LegReport | undefined {
  if (ack.kind === 'no-fill') return { ok: true, reason: null, fills: [], resting_qty_1e8: 0 };
  if (ack.kind === 'refused') return { ok: false, reason: ack.error.reason, fills: [], resting_qty_1e8: 0 };
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Orders: GET /data/order/{id}, GET /data/orders

export type PolymarketOrderStatus = 'LIVE' | 'MATCHED' | 'DELAYED' | 'CANCELED' | 'CANCELED_MARKET_RESOLVED' | 'INVALID' | 'UNMATCHED';

export interface PolymarketOpenOrder {
  id: string;
  status: PolymarketOrderStatus | string;
  /** the venue's token id */
  asset_id: string;
  market: string;
  side: 'buy' | 'sell';
  original_1e8: number;
  matched_1e8: number;
  price_1e9: number;
  /** what still rests (LIVE and DELAYED orders work; any other status rests nothing) */
  resting_1e8: number;
  trade_ids: string[];
  order_type: string;
  created_ms: number | null;
}

/** `GET /data/order/{orderID}` (the order id is its hash). */
export function orderPath(orderId: string): string {
  return `/data/order/${orderId}`;
}

/** `GET /data/orders`, all of the key's open orders or those of one market/token, page by page. */
export function openOrdersQuery(cursor: string = INITIAL_CURSOR, filter: { market?: string; asset_id?: string } = {}): Record<string, string | undefined> {
  return { market: filter.market, asset_id: filter.asset_id === undefined ? undefined : venueTokenId(filter.asset_id), next_cursor: cursor };
}

function openOrderOf(raw: unknown): PolymarketOpenOrder | undefined {
  const o = record(raw);
  const id = str(o?.['id']);
  const asset = str(o?.['asset_id']);
  const side = str(o?.['side'])?.toUpperCase();
  if (o === undefined || id === undefined || id === '' || asset === undefined || (side !== 'BUY' && side !== 'SELL')) return undefined;
  const original = exact(o['original_size'], QTY);
  const matched = o['size_matched'] === undefined || o['size_matched'] === '' ? 0 : exact(o['size_matched'], QTY);
  const price = exact(o['price'], PRICE);
  if (!(original >= 0) || !(matched >= 0) || !(price >= 0)) return undefined;
  const status = (str(o['status']) ?? '').toUpperCase();
  const working = status === 'LIVE' || status === 'DELAYED';
  return {
    id,
    status,
    asset_id: asset,
    market: str(o['market']) ?? '',
    side: side === 'BUY' ? 'buy' : 'sell',
    original_1e8: original,
    matched_1e8: matched,
    price_1e9: price,
    resting_1e8: working && original > matched ? original - matched : 0,
    trade_ids: Array.isArray(o['associate_trades']) ? (o['associate_trades'] as unknown[]).filter((t): t is string => typeof t === 'string') : [],
    order_type: str(o['order_type']) ?? '',
    created_ms: venueMs(o['created_at']),
  };
}

/**
 * `GET /data/order/{id}`: the order, or `found: false` for the empty answer the CLOB gives an
 * order it does not hold open (nautilus: "/data/order/{id} only returns active orders, so a Filled
 * or Canceled order returns an empty response": its fills are then read from trades). Undefined
 * for an answer that is neither.
 */
export function decodeOrder(body: unknown): { found: false } | { found: true; order: PolymarketOpenOrder } | undefined {
  if (body === null || body === '' || (record(body) !== undefined && Object.keys(record(body)!).length === 0)) return { found: false };
  const order = openOrderOf(body);
  return order === undefined ? undefined : { found: true, order };
}

/** A `GET /data/orders` page `{data: [...], next_cursor}`; undefined for an unreadable one. */
export function decodeOpenOrders(body: unknown): { orders: PolymarketOpenOrder[]; next_cursor: string } | undefined {
  const b = record(body);
  const data = Array.isArray(body) ? body : b?.['data'];
  if (!Array.isArray(data)) return undefined;
  const orders: PolymarketOpenOrder[] = [];
  for (const raw of data as unknown[]) {
    const o = openOrderOf(raw);
    if (o === undefined) return undefined;
    orders.push(o);
  }
  return { orders, next_cursor: str(b?.['next_cursor']) ?? END_CURSOR };
}

/**
 * Which open orders are the children this service placed: the venue keeps no client order id,
 * so an open order is recognised by its id among the order ids the adapter journaled when it sent
 * them (`SignedChildOrder.orderId`, keyed by child id). Order ids compare case-insensitively.
 */
export function ownOpenOrdersOf(orders: readonly PolymarketOpenOrder[], journal: ReadonlyMap<string, string>): { child_id: string; order: PolymarketOpenOrder }[] {
  const byId = new Map<string, string>();
  for (const [childId, orderId] of journal) byId.set(orderId.toLowerCase(), childId);
  const out: { child_id: string; order: PolymarketOpenOrder }[] = [];
  for (const order of orders) {
    const childId = byId.get(order.id.toLowerCase());
    if (childId !== undefined && order.resting_1e8 > 0) out.push({ child_id: childId, order });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Trades and fills: GET /data/trades

/** Trade statuses (docs; nautilus docs/integrations/polymarket.md "Trades"). */
export type PolymarketTradeStatus = 'MATCHED' | 'MINED' | 'CONFIRMED' | 'RETRYING' | 'FAILED';

/**
 * Statuses that count as a fill: every one but FAILED. MATCHED means the operator matched the
 * orders and sent the trade to be settled: the order's `size_matched` already counts it, so a
 * report consistent with the venue's executed quantity must too. MINED and RETRYING are the same
 * obligation on its way (RETRYING: "being retried/resubmitted by the operator"). Only FAILED
 * ("has failed and is not being retried") undoes it; ts-sdk settlement.ts likewise treats
 * CONFIRMED and FAILED as the only terminal outcomes. A fill reported at MATCHED can still turn
 * FAILED: `fillsOfOrder` lists the trades not yet CONFIRMED so the adapter can look again.
 */
export const FILL_STATUSES: ReadonlySet<string> = new Set(['MATCHED', 'MINED', 'CONFIRMED', 'RETRYING']);

export interface PolymarketMakerOrder {
  order_id: string;
  asset_id: string;
  side: 'buy' | 'sell';
  matched_1e8: number;
  price_1e9: number;
  fee_rate_bps: number | null;
}

export interface PolymarketTrade {
  id: string;
  status: string;
  taker_order_id: string;
  asset_id: string;
  side: 'buy' | 'sell';
  qty_1e8: number;
  price_1e9: number;
  /** `match_time_nano` when given, else `match_time` (seconds or ISO) */
  match_ns: number;
  fee_rate_bps: number | null;
  maker_orders: PolymarketMakerOrder[];
}

/** `GET /data/trades` of the account's maker address, one token, after an instant (unix seconds); filtered by order id client-side (no order filter exists). */
export function tradesQuery(makerAddress: string, filter: { asset_id?: string; market?: string; after_s?: number; before_s?: number; cursor?: string } = {}): Record<string, string | number | undefined> {
  return {
    maker_address: makerAddress,
    market: filter.market,
    asset_id: filter.asset_id === undefined ? undefined : venueTokenId(filter.asset_id),
    after: filter.after_s,
    before: filter.before_s,
    next_cursor: filter.cursor ?? INITIAL_CURSOR,
  };
}

function sideOf(v: unknown): 'buy' | 'sell' | undefined {
  const s = str(v)?.toUpperCase();
  return s === 'BUY' ? 'buy' : s === 'SELL' ? 'sell' : undefined;
}

function bpsOf(v: unknown): number | null {
  const n = exact(v, 0);
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

function tradeOf(raw: unknown): PolymarketTrade | undefined {
  const t = record(raw);
  const id = str(t?.['id']);
  const side = sideOf(t?.['side']);
  if (t === undefined || id === undefined || side === undefined) return undefined;
  const qty = exact(t['size'], QTY);
  const price = exact(t['price'], PRICE);
  let match_ns: number | null = null;
  const nano = str(t['match_time_nano']);
  if (nano !== undefined && /^\d+$/.test(nano)) match_ns = Number(BigInt(nano) / 1000n) * 1000;
  if (match_ns === null) {
    const ms = venueMs(t['match_time']);
    if (ms !== null) match_ns = ms * NS_PER_MS;
  }
  if (!(qty > 0) || !(price > 0) || match_ns === null) return undefined;
  const makers: PolymarketMakerOrder[] = [];
  for (const m of Array.isArray(t['maker_orders']) ? (t['maker_orders'] as unknown[]) : []) {
    const r = record(m);
    const oid = str(r?.['order_id']);
    const matched = exact(r?.['matched_amount'], QTY);
    const px = exact(r?.['price'], PRICE);
    if (r === undefined || oid === undefined || !(matched >= 0) || !(px > 0)) return undefined;
    makers.push({ order_id: oid, asset_id: str(r['asset_id']) ?? str(t['asset_id']) ?? '', side: sideOf(r['side']) ?? (side === 'buy' ? 'sell' : 'buy'), matched_1e8: matched, price_1e9: px, fee_rate_bps: bpsOf(r['fee_rate_bps']) });
  }
  return {
    id,
    status: (str(t['status']) ?? '').toUpperCase(),
    taker_order_id: str(t['taker_order_id']) ?? '',
    asset_id: str(t['asset_id']) ?? '',
    side,
    qty_1e8: qty,
    price_1e9: price,
    match_ns,
    fee_rate_bps: bpsOf(t['fee_rate_bps']),
    maker_orders: makers,
  };
}

/** A `GET /data/trades` page (`{data, next_cursor}`, or a bare array); undefined for an unreadable one. */
export function decodeTrades(body: unknown): { trades: PolymarketTrade[]; next_cursor: string } | undefined {
  const b = record(body);
  const data = Array.isArray(body) ? body : b?.['data'] ?? b?.['trades'];
  if (!Array.isArray(data)) return undefined;
  const trades: PolymarketTrade[] = [];
  for (const raw of data as unknown[]) {
    const t = tradeOf(raw);
    if (t === undefined) return undefined;
    trades.push(t);
  }
  return { trades, next_cursor: str(b?.['next_cursor']) ?? END_CURSOR };
}

/** A market's taker fee schedule (Gamma `feeSchedule`, CLOB `fd`): `rate` as decimal text ("0.072"), an integer exponent. */
export interface PolymarketFeeSchedule {
  rate: string;
  exponent: number;
  taker_only: boolean;
}

/**
 * The taker fee of a fill in USD 1e9: fee = C x feeRate x (p x (1 - p))^exponent, C the shares,
 * p the price (docs.polymarket.com/trading/fees; the exponent form is ts-sdk market.ts and
 * clob-client-v2 fees adjustBuyAmountForFees; exponent 1 in every schedule seen), charged in
 * pUSD, "rounded to 5 decimal places" with 0.00001 the smallest fee: floored to 1e-5 here, as
 * nautilus_trader's compute_commission does "matching the venue charge". Makers pay nothing.
 * Exact: bigint throughout, the rate read from its decimal text.
 */
export function polymarketTakerFee1e9(qty_1e8: number, price_1e9: number, schedule: PolymarketFeeSchedule): number {
  if (!Number.isSafeInteger(qty_1e8) || qty_1e8 < 0) throw new RangeError('qty_1e8 must be a safe integer >= 0');
  if (!Number.isSafeInteger(price_1e9) || price_1e9 < 0 || price_1e9 > 1e9) throw new RangeError('price_1e9 must be in [0, 1e9]');
  if (!Number.isInteger(schedule.exponent) || schedule.exponent < 1 || schedule.exponent > 8) throw new RangeError('the fee exponent must be an integer in [1, 8]');
  const rate = looseDecimalOf(schedule.rate);
  if (rate === undefined || rate.mantissa < 0n) throw new RangeError('the fee rate must be a non-negative decimal');
  const p = BigInt(price_1e9);
  const e = BigInt(schedule.exponent);
  const curve = (p * (1_000_000_000n - p)) ** e;
  // fee_1e5 = Q/1e8 x R/10^r x curve/1e18^e x 1e5, floored
  const num = BigInt(qty_1e8) * rate.mantissa * curve * 100_000n;
  const den = 100_000_000n * 10n ** BigInt(rate.places) * 10n ** (18n * e);
  return Number(num / den) * 10_000;
}

/** The fills of one order (by its id) among trades, with what is not settled yet. */
export interface OrderFills {
  fills: VenueFill[];
  /** trade ids counted as fills but not yet CONFIRMED (a later FAILED takes them back) */
  unsettled: string[];
  /** trade ids of the order that FAILED (not fills) */
  failed: string[];
}

/**
 * The fills of order `orderId` among trade rows, oldest first: as taker (`taker_order_id`: the
 * trade's size at its price, the taker fee of `fee`) or as maker (an entry of `maker_orders`: its
 * matched amount at its price, no fee; on a neg-risk market the maker order can be on the other
 * token, at its own price). The fill id is the trade id. `fee` is the market's schedule (null: no
 * fee); the trade's `fee_rate_bps` is not used, since V2 sets fees at match time and that field's
 * scale is not documented (nautilus reads the market schedule for the same reason).
 */
export function fillsOfOrder(trades: readonly PolymarketTrade[], orderId: string, fee: PolymarketFeeSchedule | null): OrderFills {
  const id = orderId.toLowerCase();
  const out: OrderFills = { fills: [], unsettled: [], failed: [] };
  for (const t of trades) {
    let fill: VenueFill | undefined;
    if (t.taker_order_id.toLowerCase() === id) {
      fill = { price_1e9: t.price_1e9, qty_1e8: t.qty_1e8, trade_id: t.id, ts_ns: t.match_ns, fee_1e9: fee === null ? 0 : polymarketTakerFee1e9(t.qty_1e8, t.price_1e9, fee), is_maker: false };
    } else {
      const m = t.maker_orders.find((x) => x.order_id.toLowerCase() === id);
      if (m !== undefined && m.matched_1e8 > 0) fill = { price_1e9: m.price_1e9, qty_1e8: m.matched_1e8, trade_id: t.id, ts_ns: t.match_ns, fee_1e9: 0, is_maker: true };
    }
    if (fill === undefined) continue;
    if (!FILL_STATUSES.has(t.status)) {
      if (t.status === 'FAILED') out.failed.push(t.id);
      continue;
    }
    if (t.status !== 'CONFIRMED') out.unsettled.push(t.id);
    out.fills.push(fill);
  }
  out.fills.sort((a, b) => a.ts_ns - b.ts_ns || (a.trade_id < b.trade_id ? -1 : a.trade_id > b.trade_id ? 1 : 0));
  return out;
}

/** A child's report from its order (null when the CLOB no longer holds it open) and its fills. */
export function legReportOf(order: PolymarketOpenOrder | null, fills: VenueFill[]): LegReport {
  return { ok: true, reason: null, fills, resting_qty_1e8: order?.resting_1e8 ?? 0 };
}

// ---------------------------------------------------------------------------------------------
// Cancels

/** `DELETE /order` body: `{"orderID": <hash>}` (ts-sdk cancel.ts). */
export function cancelOrderBody(orderId: string): string {
  return JSON.stringify({ orderID: orderId });
}

/** `DELETE /cancel-market-orders` body: a market (condition id) and/or a token. */
export function cancelMarketOrdersBody(filter: { market?: string; asset_id?: string }): string {
  return JSON.stringify({ market: filter.market, asset_id: filter.asset_id === undefined ? undefined : venueTokenId(filter.asset_id) });
}

/** A cancel answer `{canceled: [ids], not_canceled: {id: reason}}`; undefined for anything else. */
export function decodeCancel(body: unknown): { canceled: string[]; notCanceled: Map<string, string> } | undefined {
  const b = record(body);
  if (b === undefined || !Array.isArray(b['canceled'])) return undefined;
  const notCanceled = new Map<string, string>();
  const nc = record(b['not_canceled']);
  if (nc !== undefined) for (const [k, v] of Object.entries(nc)) notCanceled.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  return { canceled: (b['canceled'] as unknown[]).filter((x): x is string => typeof x === 'string'), notCanceled };
}

/** What cancelling one order did: cancelled, not there (already filled, cancelled or unknown: nothing rested), or refused otherwise. */
export function cancelOutcome(body: unknown, orderId: string): 'cancelled' | 'not-found' | { refused: string } | undefined {
  const c = decodeCancel(body);
  if (c === undefined) return undefined;
  const id = orderId.toLowerCase();
  if (c.canceled.some((x) => x.toLowerCase() === id)) return 'cancelled';
  for (const [k, reason] of c.notCanceled) if (k.toLowerCase() === id) return errorKindOf(reason) === 'unknown-order' ? 'not-found' : { refused: `polymarket: ${reason}` };
  return 'not-found';
}

// ---------------------------------------------------------------------------------------------
// Dead man's switch: POST /v1/heartbeats

/**
 * Heartbeats (ts-sdk order-heartbeats.ts, clob-client-v2 postHeartbeat): POST `/v1/heartbeats`
 * `{"heartbeat_id": <last id, "" to start>}` with L2 headers answers `{heartbeat_id}`, the id to
 * send next. "Send every five seconds; missing the ten-second deadline triggers cancellation of
 * this API key's orders." A stale id is refused with `{error_msg: "Invalid Heartbeat ID",
 * heartbeat_id: <expected>}`: resend with it. Sends must be serialised. That the switch only arms
 * with a key's first heartbeat is inferred, not stated: keys that never send one keep their orders.
 * The docs' API reference still shows the legacy `POST /heartbeats` answering `{"status": "ok"}`
 * (ts-sdk: it shares the key's registration and resets the expected id to "").
 */
export const HEARTBEAT_EVERY_MS = 5_000;
export const HEARTBEAT_DEADLINE_MS = 10_000;

export function heartbeatBody(heartbeatId: string): string {
  return JSON.stringify({ heartbeat_id: heartbeatId });
}

export function decodeHeartbeat(body: unknown): { ok: true; heartbeatId: string } | { ok: false; expected: string } | undefined {
  const b = record(body);
  const id = str(b?.['heartbeat_id']);
  if (b === undefined || id === undefined) return undefined;
  if (str(b['error_msg']) !== undefined) return { ok: false, expected: id };
  return id === '' ? undefined : { ok: true, heartbeatId: id };
}

// ---------------------------------------------------------------------------------------------
// Balances and account

/**
 * `GET /balance-allowance` query: `asset_type` COLLATERAL (pUSD), CONDITIONAL with `token_id`
 * (CTF tokens) or CONDITIONAL-V2 (Protocol V2 positions, migrate/polymarket-v2/api-integrations),
 * and the account's `signature_type` (clob-client-v2 getBalanceAllowance adds it: the CLOB reads
 * the maker wallet from it).
 */
export function balanceAllowanceQuery(account: PolymarketAccount, asset: { collateral: true } | { token_id: string; exchange: PolymarketExchangeKind }): Record<string, string | number> {
  if ('collateral' in asset) return { asset_type: 'COLLATERAL', signature_type: account.signatureType };
  return { asset_type: asset.exchange === 'v3' ? 'CONDITIONAL-V2' : 'CONDITIONAL', token_id: venueTokenId(asset.token_id), signature_type: account.signatureType };
}

/**
 * A balance-allowance answer `{balance, allowances: {spender: amount}}`, "returned in base units"
 * (6 decimals). The answer does not say what open orders hold, so everything is free. Undefined
 * for a balance that is not a base-unit integer.
 */
export function decodeBalanceAllowance(body: unknown): { balance_base: bigint; allowances: Map<string, bigint> } | undefined {
  const b = record(body);
  const text = textOf(b?.['balance']);
  if (text === undefined || !/^\d+$/.test(text)) return undefined;
  const allowances = new Map<string, bigint>();
  const a = record(b!['allowances']);
  if (a !== undefined) for (const [k, v] of Object.entries(a)) if (typeof v === 'string' && /^\d+$/.test(v)) allowances.set(k, BigInt(v));
  const single = textOf(b!['allowance']);
  if (single !== undefined && /^\d+$/.test(single)) allowances.set('', BigInt(single));
  return { balance_base: BigInt(text), allowances };
}

/** A balance in base units as the engine's balance of `asset` (x 1e8). */
export function assetBalanceOf(asset: string, balance_base: bigint): AssetBalance {
  return { asset, free_1e8: balance_base * QTY_PER_BASE, locked_1e8: 0n };
}

/**
 * The account probe: prediction fees are per market (maker 0, taker by schedule), so the tier
 * carries the edge's at-mid figures; trading is off in close-only mode (`GET
 * /auth/ban-status/closed-only` answers `{closed_only}`). The signer key owns the wallet (or its
 * proxy), so whoever holds these credentials can move the funds: withdrawal is possible.
 */
export function accountProbeOf(closedOnly: unknown, atMid: { maker_bps: number; taker_bps: number }): AccountProbe {
  const c = record(closedOnly)?.['closed_only'];
  return { tier: 'base', maker_bps: atMid.maker_bps, taker_bps: atMid.taker_bps, can_trade: c !== true, can_withdraw: true };
}

// ---------------------------------------------------------------------------------------------
// Catalog: Gamma events and markets, CLOB markets

/** `GET /events` of active, open events, a page at a time (Gamma caps `limit`; page by `offset`). */
export function gammaEventsPath(limit: number, offset: number): string {
  return `/events?active=true&closed=false&limit=${limit}&offset=${offset}`;
}

/** `GET /markets` by condition ids (at most 100 per call, nautilus GAMMA_CONDITION_IDS_BATCH_SIZE): how a listed market's resolution is read once it closes. */
export function gammaMarketsByConditionPath(conditionIds: readonly string[]): string {
  if (conditionIds.length === 0 || conditionIds.length > 100) throw new RangeError(`1 to 100 condition ids, got ${conditionIds.length}`);
  return `/markets?${conditionIds.map((c) => `condition_ids=${encodeURIComponent(c)}`).join('&')}`;
}

/** A token's trading rules as the catalog reads them. */
export interface PolymarketCatalogToken extends PolymarketTokenRules {
  /** the catalog's 78-digit id */
  catalog_id: string;
  market_id: string;
  condition_id: string;
  leg: Leg;
  /** the venue's outcome name ("Yes", "Up", a team) */
  outcome: string;
  neg_risk: boolean;
  fee: PolymarketFeeSchedule | null;
}

/** One event as the catalog change log lists it (actors/prediction-edge/messages.ts ListedEvent, less what the edge assigns: seq, slots, delisted). */
export interface PolymarketEventRecord {
  event: PredictionEvent;
  /** parallel to `event.markets`: null while undetermined, else whether YES (the first outcome) won */
  yes_won: (boolean | null)[];
  resolved_ms: (number | null)[];
  /** up/down events: Gamma `eventMetadata.priceToBeat` and, when given, `finalPrice` (USD) */
  anchor_usd: number | null;
  final_usd: number | null;
  /** both tokens of every market, in market order */
  tokens: PolymarketCatalogToken[];
}

/** A market's record alone (for `GET /markets` answers). */
export interface PolymarketMarketRecord {
  market: PredictionMarket;
  yes_won: boolean | null;
  resolved_ms: number | null;
  tokens: PolymarketCatalogToken[];
}

/**
 * A phase instant not known yet (a market whose outcome is not determined): far in the future so
 * `phaseAt` keeps it `closed`, never `determined`, until the record changes with its outcome.
 */
export const UNKNOWN_INSTANT_MS = Number.MAX_SAFE_INTEGER;

/** Placeholder candidates of augmented neg-risk events ("Person A", "Other"-style slots). */
const PLACEHOLDER = /^(?:Person|Player|Team|Candidate|Option|Other) [A-Z]{1,2}$/;

/** Crypto up/down series by their slug's first word (`btc-updown-5m-...`, `bitcoin-up-or-down-...`). */
const UPDOWN_UNDERLYINGS: Readonly<Record<string, string>> = {
  btc: 'BTC',
  bitcoin: 'BTC',
  eth: 'ETH',
  ethereum: 'ETH',
  sol: 'SOL',
  solana: 'SOL',
  xrp: 'XRP',
  doge: 'DOGE',
  dogecoin: 'DOGE',
  bnb: 'BNB',
  hype: 'HYPE',
  hyperliquid: 'HYPE',
};

function feeScheduleOf(m: Record<string, unknown>): PolymarketFeeSchedule | null {
  if (m['feesEnabled'] === false) return null;
  const fs = record(m['feeSchedule']);
  if (fs === undefined) return null;
  const rate = textOf(fs['rate']);
  const exponent = typeof fs['exponent'] === 'number' ? fs['exponent'] : 1;
  if (rate === undefined || looseDecimalOf(rate) === undefined || !Number.isInteger(exponent) || exponent < 1) return null;
  return { rate, exponent, taker_only: fs['takerOnly'] !== false };
}

/** bps of a rate's decimal text: "0.072" -> 720 (may be fractional: "0.00625" -> 62.5). */
function bpsOfRate(rate: string): number {
  const d = looseDecimalOf(rate)!;
  return Number(d.mantissa * 10_000n) / 10 ** d.places;
}

/**
 * The outcome of a closed market, strictly (as nautilus_trader's resolution reads it): closed,
 * UMA status `resolved`, two outcome prices of exactly 1 and 0. Anything else is undetermined.
 */
function yesWonOf(m: Record<string, unknown>): boolean | null {
  if (m['closed'] !== true || str(m['umaResolutionStatus']) !== 'resolved') return null;
  const prices = stringArray(m['outcomePrices']);
  if (prices === undefined || prices.length !== 2) return null;
  const a = parseScaled(prices[0]!, PRICE);
  const b = parseScaled(prices[1]!, PRICE);
  if (a === 1e9 && b === 0) return true;
  if (a === 0 && b === 1e9) return false;
  return null;
}

function rewardsOf(m: Record<string, unknown>, close_ms: number): RewardsProgram | null {
  const rewards = Array.isArray(m['clobRewards']) ? (m['clobRewards'] as unknown[]).map(record).filter((r): r is Record<string, unknown> => r !== undefined) : [];
  const minSize = typeof m['rewardsMinSize'] === 'number' ? m['rewardsMinSize'] : NaN;
  const spreadCents = textOf(m['rewardsMaxSpread']);
  let daily = 0n;
  let end = -1;
  for (const r of rewards) {
    const rate = textOf(r['rewardsDailyRate']);
    const d = rate === undefined ? undefined : scaledRounded(rate, PRICE, 'floor', looseDecimalOf);
    if (d === undefined || d <= 0n) continue;
    daily += d;
    end = Math.max(end, instantMs(r['endDate']) ?? -1);
  }
  const spread = spreadCents === undefined ? undefined : scaledRounded(spreadCents, PRICE - 2, 'floor', looseDecimalOf);
  if (daily === 0n || !(minSize > 0) || spread === undefined || spread <= 0n) return null;
  return { min_size: minSize, max_spread_1e9: Number(spread), rate_per_day_usdc_1e9: Number(daily), end_ms: end < 0 ? close_ms : Math.min(end, close_ms) };
}

interface EventContext {
  event_id: string;
  event_slug: string;
  multi: boolean;
  negRisk: boolean;
  description: string;
}

/** One Gamma market into the catalog's market and its two tokens; a reason when it cannot be listed. */
function gammaMarketOf(m: Record<string, unknown>, index: number, ctx: EventContext): PolymarketMarketRecord | { skip: string } {
  const slug = str(m['slug']);
  const conditionId = str(m['conditionId']);
  if (slug === undefined || slug === '' || conditionId === undefined || conditionId === '') return { skip: 'no slug or condition id' };
  const outcomes = stringArray(m['outcomes']);
  if (outcomes === undefined || outcomes.length !== 2) return { skip: `${slug}: not a binary market` };
  const protocol = str(m['version']) === 'v2' ? 'v2' : 'v1';
  // Protocol V2 markets trade their `positionIds`; CTF markets their `clobTokenIds` (api-integrations: "Choose the ID field by version").
  const ids = stringArray(protocol === 'v2' ? m['positionIds'] : m['clobTokenIds']);
  if (ids === undefined || ids.length !== 2) return { skip: `${slug}: no token ids` };
  const yes = catalogTokenId(ids[0]!);
  const no = catalogTokenId(ids[1]!);
  if (yes === undefined || no === undefined) return { skip: `${slug}: token ids are not uint256` };
  const tick = exact(m['orderPriceMinTickSize'], PRICE);
  const minSize = m['orderMinSize'] === undefined ? 0 : exact(m['orderMinSize'], QTY);
  if (!(tick > 0) || tickSizeOf(tick) === undefined || !(minSize >= 0)) return { skip: `${slug}: unknown tick size` };
  const negRisk = m['negRisk'] === true || ctx.negRisk;
  const exchange = exchangeKindOf(protocol, negRisk);
  const fee = feeScheduleOf(m);
  const closed = m['closed'] === true;
  const start = instantMs(m['startDate']) ?? instantMs(m['createdAt']) ?? 0;
  const open = instantMs(m['acceptingOrdersTimestamp']) ?? start;
  const end = instantMs(m['endDate']) ?? UNKNOWN_INSTANT_MS;
  const closedAt = instantMs(m['closedTime']);
  const close_ms = closed && closedAt !== null ? closedAt : end;
  const yes_won = yesWonOf(m);
  const resolved_ms = yes_won === null ? null : (closedAt ?? close_ms);
  const timeline: MarketTimeline = { listed_ms: start, open_ms: Math.max(start, open), close_ms, determined_ms: resolved_ms ?? UNKNOWN_INSTANT_MS, settled_ms: null };
  const groupTitle = str(m['groupItemTitle']) ?? null;
  const underlying = outcomes[0]!.toLowerCase() === 'up' && outcomes[1]!.toLowerCase() === 'down' ? (UPDOWN_UNDERLYINGS[ctx.event_slug.split('-')[0]!] ?? UPDOWN_UNDERLYINGS[slug.split('-')[0]!] ?? null) : null;
  const market: PredictionMarket = {
    venue: 'polymarket',
    market_id: slug,
    event_id: ctx.event_id,
    event_slug: ctx.event_slug,
    question: str(m['question']) ?? slug,
    description: str(m['description']) ?? ctx.description,
    yes_token_id: yes,
    no_token_id: no,
    condition_id: conditionId,
    outcome_index: index,
    raw_outcome_name: ctx.multi ? (groupTitle ?? outcomes[0]!) : null,
    is_placeholder: groupTitle !== null && PLACEHOLDER.test(groupTitle),
    timeline,
    fee_rate_bps: fee === null ? 0 : bpsOfRate(fee.rate),
    updown: underlying === null ? null : { underlying },
    equivalents: [],
    rewards: rewardsOf(m, close_ms),
  };
  const trading = m['enableOrderBook'] !== false && m['acceptingOrders'] !== false && !closed;
  const token = (catalog_id: string, leg: Leg, outcome: string): PolymarketCatalogToken => ({
    token_id: venueTokenId(catalog_id),
    catalog_id,
    market_id: slug,
    condition_id: conditionId,
    leg,
    outcome,
    tick_1e9: tick,
    min_size_1e8: minSize,
    exchange,
    neg_risk: negRisk,
    trading,
    fee,
  });
  return { market, yes_won, resolved_ms, tokens: [token(yes, 'YES', outcomes[0]!), token(no, 'NO', outcomes[1]!)] };
}

function priceOfMetadata(meta: Record<string, unknown> | undefined, key: string): number | null {
  const v = meta?.[key];
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  return Number.isFinite(n) && n > 0 ? n : null;
}

/**
 * A `GET /events` answer (an array of events, each with its `markets`) into catalog records. A
 * market is the binary question (`slug`, `question`, `outcomes` and its token ids, JSON inside a
 * string on CTF markets); YES is the first outcome ("Yes", "Up", the first team). An event with
 * several markets is multi-outcome (`multi`), each market a candidate named by `groupItemTitle`.
 * Left out, with a reason: markets that are not binary, without token ids, or on an unknown tick.
 * Events left without markets are left out. Undefined for a body that is not an array.
 *
 * Up/down anchors come from the event's `eventMetadata.priceToBeat` (filled by Gamma some seconds
 * after the window opens, as third-party clients observe; `finalPrice` read when present: not
 * documented). Rewards: `clobRewards[].rewardsDailyRate` summed, `rewardsMinSize`,
 * `rewardsMaxSpread` in cents.
 */
export function decodeGammaEvents(body: unknown): { events: PolymarketEventRecord[]; skipped: string[] } | undefined {
  if (!Array.isArray(body)) return undefined;
  const events: PolymarketEventRecord[] = [];
  const skipped: string[] = [];
  for (const raw of body as unknown[]) {
    const e = record(raw);
    const id = textOf(e?.['id']);
    const slug = str(e?.['slug']);
    if (e === undefined || id === undefined || slug === undefined || slug === '') {
      skipped.push('an event without id or slug');
      continue;
    }
    const markets = Array.isArray(e['markets']) ? (e['markets'] as unknown[]).map(record).filter((m): m is Record<string, unknown> => m !== undefined) : [];
    const ctx: EventContext = { event_id: id, event_slug: slug, multi: markets.length > 1, negRisk: e['negRisk'] === true || e['enableNegRisk'] === true, description: str(e['description']) ?? '' };
    const rec: PolymarketEventRecord = {
      event: { venue: 'polymarket', event_id: id, slug, title: str(e['title']) ?? slug, description: ctx.description, tags: tagsOf(e['tags']), multi: ctx.multi, neg_risk: ctx.negRisk, url: `https://polymarket.com/event/${slug}`, markets: [] },
      yes_won: [],
      resolved_ms: [],
      anchor_usd: priceOfMetadata(record(e['eventMetadata']), 'priceToBeat'),
      final_usd: priceOfMetadata(record(e['eventMetadata']), 'finalPrice'),
      tokens: [],
    };
    markets.forEach((m) => {
      const got = gammaMarketOf(m, rec.event.markets.length, ctx);
      if ('skip' in got) {
        skipped.push(got.skip);
        return;
      }
      rec.event.markets.push(got.market);
      rec.yes_won.push(got.yes_won);
      rec.resolved_ms.push(got.resolved_ms);
      rec.tokens.push(...got.tokens);
    });
    if (rec.event.markets.length === 0) continue;
    if (rec.event.markets.every((m) => m.updown === null)) {
      rec.anchor_usd = null;
      rec.final_usd = null;
    }
    events.push(rec);
  }
  return { events, skipped };
}

function tagsOf(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  const out: string[] = [];
  for (const t of v as unknown[]) {
    const label = typeof t === 'string' ? t : (str(record(t)?.['label']) ?? str(record(t)?.['slug']));
    if (label !== undefined && label !== '') out.push(label);
  }
  return out;
}

/** A `GET /markets` answer (an array of markets, each naming its event in `events[0]`) into market records. */
export function decodeGammaMarkets(body: unknown): { markets: PolymarketMarketRecord[]; skipped: string[] } | undefined {
  if (!Array.isArray(body)) return undefined;
  const markets: PolymarketMarketRecord[] = [];
  const skipped: string[] = [];
  for (const raw of body as unknown[]) {
    const m = record(raw);
    if (m === undefined) continue;
    const ev = record(Array.isArray(m['events']) ? (m['events'] as unknown[])[0] : undefined);
    const ctx: EventContext = {
      event_id: textOf(ev?.['id']) ?? '',
      event_slug: str(ev?.['slug']) ?? str(m['slug']) ?? '',
      multi: false,
      negRisk: ev?.['negRisk'] === true,
      description: str(ev?.['description']) ?? '',
    };
    const got = gammaMarketOf(m, 0, ctx);
    if ('skip' in got) skipped.push(got.skip);
    else markets.push(got);
  }
  return { markets, skipped };
}

/**
 * A canonical text of what the change log publishes of a record (the event, outcomes, anchors):
 * the edge bumps a record's sequence when it changes between two reads of the catalog.
 */
export function listingFingerprint(rec: Pick<PolymarketEventRecord, 'event' | 'yes_won' | 'resolved_ms' | 'anchor_usd' | 'final_usd'>): string {
  return JSON.stringify([rec.event, rec.yes_won, rec.resolved_ms, rec.anchor_usd, rec.final_usd]);
}

/** A CLOB market (`GET /markets/{condition_id}`): its tokens' outcomes and winners, and its rules. */
export interface PolymarketClobMarket {
  condition_id: string;
  tokens: { token_id: string; outcome: string; winner: boolean }[];
  tick_1e9: number;
  min_size_1e8: number;
  neg_risk: boolean;
  accepting_orders: boolean;
  closed: boolean;
  /** the winner among two tokens once closed with exactly one winner: whether it is the first (YES) */
  yes_won: boolean | null;
}

/**
 * `GET /markets/{condition_id}` (`condition_id`, `tokens[{token_id, outcome, price, winner}]`,
 * `minimum_tick_size`, `minimum_order_size`, `neg_risk`, `accepting_orders`, `closed`; nautilus
 * test_data/clob_market_closed_binary_*.json, captured), undefined when unreadable.
 */
export function decodeClobMarket(body: unknown): PolymarketClobMarket | undefined {
  const b = record(body);
  const cid = str(b?.['condition_id']);
  if (b === undefined || cid === undefined || !Array.isArray(b['tokens'])) return undefined;
  const tokens: PolymarketClobMarket['tokens'] = [];
  for (const raw of b['tokens'] as unknown[]) {
    const t = record(raw);
    const id = textOf(t?.['token_id']);
    if (t === undefined || id === undefined) return undefined;
    tokens.push({ token_id: id, outcome: str(t['outcome']) ?? '', winner: t['winner'] === true });
  }
  const tick = exact(b['minimum_tick_size'], PRICE);
  const min = b['minimum_order_size'] === undefined ? 0 : exact(b['minimum_order_size'], QTY);
  if (!(tick > 0) || !(min >= 0)) return undefined;
  const closed = b['closed'] === true;
  const winners = tokens.filter((t) => t.winner);
  return {
    condition_id: cid,
    tokens,
    tick_1e9: tick,
    min_size_1e8: min,
    neg_risk: b['neg_risk'] === true,
    accepting_orders: b['accepting_orders'] === true,
    closed,
    yes_won: closed && tokens.length === 2 && winners.length === 1 ? winners[0] === tokens[0] : null,
  };
}

/**
 * `GET /clob-markets/{condition_id}`, the compact form the V2 SDKs read order metadata from
 * (clob-client-v2 MarketDetails: `c` condition, `t` [{t: token, o: outcome}], `mts` tick, `nr`
 * neg risk, `fd` {r rate, e exponent, to taker-only}, `mos` min size, `ao` accepting orders).
 */
export function decodeClobMarketInfo(body: unknown): { condition_id: string; token_ids: string[]; tick_1e9: number; min_size_1e8: number; neg_risk: boolean; accepting: boolean; fee: PolymarketFeeSchedule | null } | undefined {
  const b = record(body);
  const cid = str(b?.['c']);
  if (b === undefined || cid === undefined || !Array.isArray(b['t'])) return undefined;
  const ids = (b['t'] as unknown[]).map((t) => textOf(record(t)?.['t'])).filter((t): t is string => t !== undefined && t !== '');
  const tick = exact(b['mts'], PRICE);
  if (!(tick > 0)) return undefined;
  const fd = record(b['fd']);
  const rate = textOf(fd?.['r']);
  const exponent = fd?.['e'];
  const positive = rate === undefined ? undefined : looseDecimalOf(rate);
  const fee = rate !== undefined && positive !== undefined && positive.mantissa > 0n ? { rate, exponent: typeof exponent === 'number' && Number.isInteger(exponent) && exponent >= 1 ? exponent : 1, taker_only: fd?.['to'] === true } : null;
  const min = b['mos'] === undefined ? 0 : exact(b['mos'], QTY);
  return { condition_id: cid, token_ids: ids, tick_1e9: tick, min_size_1e8: min >= 0 ? min : 0, neg_risk: b['nr'] === true, accepting: b['ao'] !== false, fee };
}

/** `GET /markets/{condition_id}`, `GET /clob-markets/{condition_id}`, `GET /tick-size?token_id=`, `GET /neg-risk?token_id=`. */
export function clobMarketPath(conditionId: string, compact = false): string {
  return `${compact ? '/clob-markets/' : '/markets/'}${conditionId}`;
}

export function tokenQueryPath(endpoint: '/tick-size' | '/neg-risk' | '/fee-rate', tokenId: string): string {
  return `${endpoint}?token_id=${venueTokenId(tokenId)}`;
}

/** `GET /tick-size?token_id=` answers `{minimum_tick_size: 0.01}`. */
export function decodeTickSize(body: unknown): number | undefined {
  const t = exact(record(body)?.['minimum_tick_size'], PRICE);
  return t > 0 && tickSizeOf(t) !== undefined ? t : undefined;
}

/** `GET /neg-risk?token_id=` answers `{neg_risk: bool}`. */
export function decodeNegRisk(body: unknown): boolean | undefined {
  const v = record(body)?.['neg_risk'];
  return typeof v === 'boolean' ? v : undefined;
}

/** `GET /version` answers `{version}`, the order version the CLOB expects (clob-client-v2 defaults to 2). */
export function decodeVersion(body: unknown): number {
  const v = record(body)?.['version'];
  return typeof v === 'number' && Number.isInteger(v) ? v : 2;
}

// ---------------------------------------------------------------------------------------------
// Books: REST GET /book and the market channel

/** `GET /book?token_id=`. */
export function bookPath(tokenId: string): string {
  return `/book?token_id=${venueTokenId(tokenId)}`;
}

function levelsOf(raw: unknown): number[] | undefined {
  if (!Array.isArray(raw)) return raw === undefined || raw === null ? [] : undefined;
  const out = new Array<number>(raw.length * 2);
  for (let i = 0; i < raw.length; i++) {
    const l = record(raw[i]);
    const px = exact(l?.['price'], PRICE);
    const sz = exact(l?.['size'], QTY);
    if (!(px > 0) || !(sz >= 0)) return undefined;
    out[2 * i] = px;
    out[2 * i + 1] = sz;
  }
  return out;
}

export interface PolymarketRestBook {
  snapshot: PolymarketBookSnapshot;
  market: string;
  tick_1e9: number | null;
  min_size_1e8: number | null;
  neg_risk: boolean | null;
  /** the answer's hash matches its own content by the summary hash (`bookSummaryHash`) */
  hash_verified: boolean;
}

/**
 * A `GET /book` answer `{market, asset_id, timestamp, hash, bids, asks, min_order_size,
 * tick_size, neg_risk, last_trade_price}` (price/size strings; bids worst first); undefined when a
 * level or the timestamp cannot be read exactly.
 */
export function decodeRestBook(body: unknown): PolymarketRestBook | undefined {
  const b = record(body);
  const asset = textOf(b?.['asset_id']);
  const ts = venueMs(b?.['timestamp']);
  const bids = levelsOf(b?.['bids']);
  const asks = levelsOf(b?.['asks']);
  if (b === undefined || asset === undefined || ts === null || bids === undefined || asks === undefined) return undefined;
  const hash = str(b['hash']) ?? null;
  const tick = b['tick_size'] === undefined ? NaN : exact(b['tick_size'], PRICE);
  const min = b['min_order_size'] === undefined ? NaN : exact(b['min_order_size'], QTY);
  return {
    snapshot: { asset_id: asset, bids, asks, ts_ms: ts, hash, source: 'rest' },
    market: str(b['market']) ?? '',
    tick_1e9: tick > 0 ? tick : null,
    min_size_1e8: min >= 0 ? min : null,
    neg_risk: typeof b['neg_risk'] === 'boolean' ? b['neg_risk'] : null,
    hash_verified: hash !== null && bookSummaryHash(b) === hash.replace(/^0x/, '').toLowerCase(),
  };
}

/**
 * The book summary hash as py-clob-client and py-clob-client-v2 compute it ("server-compatible":
 * SHA-1 of compact JSON in the Go server's struct order market, asset_id, timestamp, hash "",
 * bids, asks, min_order_size, tick_size, neg_risk, last_trade_price, every value as sent). Only a
 * whole REST answer carries all of it.
 */
export function bookSummaryHash(book: Record<string, unknown>): string {
  const levels = (v: unknown) => (Array.isArray(v) ? (v as unknown[]).map((l) => ({ price: record(l)?.['price'], size: record(l)?.['size'] })) : []);
  const payload = {
    market: book['market'],
    asset_id: book['asset_id'],
    timestamp: book['timestamp'],
    hash: '',
    bids: levels(book['bids']),
    asks: levels(book['asks']),
    min_order_size: book['min_order_size'],
    tick_size: book['tick_size'],
    neg_risk: book['neg_risk'],
    last_trade_price: book['last_trade_price'],
  };
  return createHash('sha1').update(JSON.stringify(payload)).digest('hex');
}

/** One event of the market channel, decoded. */
export type PolymarketMarketEvent =
  | { type: 'book'; market: string; snapshot: PolymarketBookSnapshot }
  | { type: 'price_change'; market: string; changes: PolymarketLevelChange[]; best: { asset_id: string; bid_1e9: number | null; ask_1e9: number | null }[] }
  | { type: 'tick_size_change'; market: string; asset_id: string; old_tick_1e9: number; new_tick_1e9: number; ts_ms: number }
  | { type: 'last_trade_price'; market: string; asset_id: string; price_1e9: number; qty_1e8: number; side: 'buy' | 'sell'; ts_ms: number }
  | { type: 'best_bid_ask'; asset_id: string; bid_1e9: number | null; ask_1e9: number | null; ts_ms: number }
  | { type: 'market_resolved'; market: string; asset_ids: string[]; winning_asset_id: string; ts_ms: number }
  | { type: 'new_market'; market: string; slug: string; asset_ids: string[]; ts_ms: number }
  /** an event of these types that could not be read exactly: its tokens' books are no longer known */
  | { type: 'unreadable'; event_type: string; asset_ids: string[] };

function optionalPrice(v: unknown): number | null {
  const p = exact(v, PRICE);
  return p >= 0 ? p : null;
}

function assetIdsOf(v: unknown): string[] {
  return Array.isArray(v) ? (v as unknown[]).map(textOf).filter((x): x is string => x !== undefined) : [];
}

function marketEventOf(raw: unknown): PolymarketMarketEvent | undefined {
  const e = record(raw);
  const type = str(e?.['event_type']);
  if (e === undefined) return undefined;
  const market = str(e['market']) ?? '';
  const ts = venueMs(e['timestamp']);
  const asset = textOf(e['asset_id']);
  // A `book` without event_type is the initial subscription answer's shape in older captures.
  if (type === 'book' || (type === undefined && Array.isArray(e['bids']) && asset !== undefined)) {
    const bids = levelsOf(e['bids']);
    const asks = levelsOf(e['asks']);
    if (asset === undefined || ts === null || bids === undefined || asks === undefined) return { type: 'unreadable', event_type: 'book', asset_ids: asset === undefined ? [] : [asset] };
    return { type: 'book', market, snapshot: { asset_id: asset, bids, asks, ts_ms: ts, hash: str(e['hash']) ?? null, source: 'stream' } };
  }
  switch (type) {
    case 'price_change': {
      const list = Array.isArray(e['price_changes']) ? (e['price_changes'] as unknown[]) : [];
      const ids = list.map((c) => textOf(record(c)?.['asset_id'])).filter((x): x is string => x !== undefined);
      if (ts === null) return { type: 'unreadable', event_type: type, asset_ids: ids };
      const changes: PolymarketLevelChange[] = [];
      const best: { asset_id: string; bid_1e9: number | null; ask_1e9: number | null }[] = [];
      for (const raw of list) {
        const c = record(raw);
        const id = textOf(c?.['asset_id']);
        const side = sideOf(c?.['side']);
        const px = exact(c?.['price'], PRICE);
        const sz = exact(c?.['size'], QTY);
        if (c === undefined || id === undefined || side === undefined || !(px > 0) || !(sz >= 0)) return { type: 'unreadable', event_type: type, asset_ids: ids };
        changes.push({ asset_id: id, side: side === 'buy' ? Side.BID : Side.ASK, price_1e9: px, qty_1e8: sz, ts_ms: ts, hash: str(c['hash']) ?? null });
        best.push({ asset_id: id, bid_1e9: optionalPrice(c['best_bid']), ask_1e9: optionalPrice(c['best_ask']) });
      }
      return { type: 'price_change', market, changes, best };
    }
    case 'tick_size_change': {
      const oldTick = exact(e['old_tick_size'], PRICE);
      const newTick = exact(e['new_tick_size'], PRICE);
      if (asset === undefined || ts === null || !(newTick > 0)) return { type: 'unreadable', event_type: type, asset_ids: asset === undefined ? [] : [asset] };
      return { type: 'tick_size_change', market, asset_id: asset, old_tick_1e9: oldTick > 0 ? oldTick : 0, new_tick_1e9: newTick, ts_ms: ts };
    }
    case 'last_trade_price': {
      const px = exact(e['price'], PRICE);
      const sz = exact(e['size'], QTY);
      const side = sideOf(e['side']);
      if (asset === undefined || ts === null || !(px > 0) || !(sz >= 0) || side === undefined) return undefined;
      return { type: 'last_trade_price', market, asset_id: asset, price_1e9: px, qty_1e8: sz, side, ts_ms: ts };
    }
    case 'best_bid_ask':
      if (asset === undefined || ts === null) return undefined;
      return { type: 'best_bid_ask', asset_id: asset, bid_1e9: optionalPrice(e['best_bid']), ask_1e9: optionalPrice(e['best_ask']), ts_ms: ts };
    case 'market_resolved': {
      const winner = textOf(e['winning_asset_id']);
      if (winner === undefined || ts === null) return undefined;
      return { type: 'market_resolved', market, asset_ids: assetIdsOf(e['assets_ids']), winning_asset_id: winner, ts_ms: ts };
    }
    case 'new_market':
      return { type: 'new_market', market, slug: str(e['slug']) ?? '', asset_ids: assetIdsOf(e['assets_ids']), ts_ms: ts ?? 0 };
    default:
      return undefined;
  }
}

/**
 * A market-channel frame: one event object, or an array of them (the subscription answer lists
 * one `book` per token). `'pong'` for the keepalive answer; undefined for text that is not JSON
 * or carries no known event. Prices and sizes are read exactly (".48" included, as the docs'
 * example writes them).
 */
export function decodeMarketFrame(text: string): PolymarketMarketEvent[] | 'pong' | undefined {
  if (text === 'PONG') return 'pong';
  let frame: unknown;
  try {
    frame = JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
  const list = Array.isArray(frame) ? (frame as unknown[]) : [frame];
  const out: PolymarketMarketEvent[] = [];
  for (const raw of list) {
    const ev = marketEventOf(raw);
    if (ev !== undefined) out.push(ev);
  }
  return out.length === 0 ? undefined : out;
}

/**
 * Subscribe on a fresh connection: `{assets_ids, type: "market"}`, and `custom_feature_enabled`
 * for `best_bid_ask`, `new_market` and `market_resolved` (docs' market channel). Later changes on
 * the same connection: `{assets_ids, operation: "subscribe" | "unsubscribe"}` (nautilus
 * messages.rs). At most 500 tokens per connection, above which snapshots stop coming (nautilus
 * docs: undocumented venue limit; they keep 200).
 */
export function marketSubscription(tokenIds: readonly string[], customFeatures = true): string {
  return JSON.stringify({ assets_ids: tokenIds.map(venueTokenId), type: 'market', ...(customFeatures ? { custom_feature_enabled: true } : {}) });
}

export function marketSubscriptionUpdate(operation: 'subscribe' | 'unsubscribe', tokenIds: readonly string[]): string {
  return JSON.stringify({ assets_ids: tokenIds.map(venueTokenId), operation });
}

export const MAX_TOKENS_PER_CONNECTION = 200;
/** The channel's keepalive: the text `PING` every 10 s, answered `PONG`. */
export const PING = 'PING';
export const PING_EVERY_MS = 10_000;

// ---------------------------------------------------------------------------------------------
// Rate limits

/**
 * docs.polymarket.com/api-reference/rate-limits (as of 2026-05, nautilus integration guide):
 * requests per 10 s unless named otherwise; Cloudflare queues above them, then answers 429.
 */
export const RATE_LIMITS = {
  general_per_10s: 15_000,
  clob_general_per_10s: 9_000,
  book_per_10s: 1_500,
  books_per_10s: 500,
  tick_size_per_10s: 200,
  balance_allowance_per_10s: 200,
  balance_allowance_update_per_10s: 50,
  data_orders_per_10s: 500,
  data_trades_per_10s: 500,
  /** GET /trades, /orders, /notifications, /order together */
  ledger_per_10s: 900,
  api_keys_per_10s: 100,
  post_order: { per_10s: 3_500, per_10min: 36_000 },
  delete_order: { per_10s: 3_000, per_10min: 30_000 },
  post_orders: { per_10s: 1_000, per_10min: 15_000 },
  delete_orders: { per_10s: 1_000, per_10min: 15_000 },
  gamma_general_per_10s: 4_000,
  gamma_events_per_10s: 500,
  gamma_markets_per_10s: 300,
} as const;

/**
 * How long after an order is sent a lookup that finds nothing is taken as final. Polymarket has
 * no acceptance deadline for an order (V2's `timestamp` is not an expiry and a FAK cannot carry
 * one), so this is a margin over the answer times seen, not a venue guarantee.
 */
export const ACCEPT_WINDOW_MS = 10_000;
