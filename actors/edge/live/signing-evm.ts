import { createHmac } from 'node:crypto';
import { keccak_256 } from '@noble/hashes/sha3.js';
// ox's modules one by one: its index loads every module it has (~0.3 s more on each thread).
import * as Address from 'ox/Address';
import * as Secp256k1 from 'ox/Secp256k1';
import * as TypedData from 'ox/TypedData';

/**
 * Request signing of the venues that sign with an EVM key (secp256k1, EIP-712): Polymarket's
 * CLOB and Hyperliquid. Pure, as actors/edge/live/signing.ts: the caller supplies salt,
 * timestamp and nonce, and ECDSA here is RFC 6979 deterministic (no extra entropy), so a
 * signature is reproducible and held to the venues' own SDK test vectors
 * (test/unit/venue-signing-evm.test.ts). Private keys and API secrets come in as arguments and
 * leave in nothing but signatures; no error message quotes them.
 */

export type HexString = `0x${string}`;

/** A recoverable secp256k1 signature split as Hyperliquid's API takes it: r and s as 32-byte hex, v 27 or 28. */
export interface EvmSignature {
  r: HexString;
  s: HexString;
  v: 27 | 28;
}

function privateKeyHex(privateKey: string): HexString {
  const hex = privateKey.startsWith('0x') || privateKey.startsWith('0X') ? privateKey.slice(2) : privateKey;
  // The message names the rule, never the value: a key must not reach a log through an error.
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error('an EVM private key is 32 bytes of hex');
  return `0x${hex.toLowerCase()}`;
}

/**
 * Signs a 32-byte digest as eth_account's `_sign_hash` and ethers' `signTypedData` do: no
 * prefix, no hashing again, RFC 6979 nonce. Extra entropy is pinned off rather than left to
 * ox's process-wide default, which a `setExtraEntropy` anywhere else would change.
 */
function signDigest(digest: HexString, privateKey: string): EvmSignature {
  const { r, s, yParity } = Secp256k1.sign({ payload: digest, privateKey: privateKeyHex(privateKey), extraEntropy: false });
  return { r: word(r), s: word(s), v: yParity === 0 ? 27 : 28 };
}

/** A 32-byte word as 0x and 64 hex digits, leading zeros kept. */
function word(value: string | bigint): HexString {
  return `0x${BigInt(value).toString(16).padStart(64, '0')}`;
}

/** r ‖ s ‖ v (65 bytes, v 0x1b or 0x1c) as 0x hex: the form ethers and viem return and the Polymarket SDKs send. */
function signatureHex(signature: EvmSignature): HexString {
  return `${signature.r}${signature.s.slice(2)}${signature.v.toString(16)}`;
}

/** The checksummed address of a private key: the `maker`/`signer` of the orders it signs and Polymarket's `POLY_ADDRESS`. */
export function evmAddress(privateKey: string): string {
  return Address.checksum(Address.fromPublicKey(Secp256k1.getPublicKey({ privateKey: privateKeyHex(privateKey) })));
}

function uint(value: bigint | number | string, bits: number, what: string): bigint {
  let n: bigint;
  if (typeof value === 'bigint') n = value;
  else if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error(`${what} must be an integer (a safe number, else a bigint or decimal string)`);
    n = BigInt(value);
  } else {
    // Decimal text only: BigInt('0x…') would also parse hex, and a token id is sent in decimal.
    if (!/^\d+$/.test(value)) throw new Error(`${what} must be a decimal integer string`);
    n = BigInt(value);
  }
  if (n < 0n || n >= 1n << BigInt(bits)) throw new Error(`${what} is out of the uint${bits} range`);
  return n;
}

function hexAddress(address: string, what: string): HexString {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new Error(`${what} must be a 20-byte 0x address`);
  return address as HexString;
}

// ------------------------------------------------------------------------------------------
// Polymarket CLOB
// ------------------------------------------------------------------------------------------

/** Polygon mainnet, where Polymarket's exchanges and the CLOB's auth domain live. */
export const POLYGON_CHAIN_ID = 137;

/** An exchange contract an order is signed for: its address and chain make the EIP-712 domain. */
export interface PolymarketExchange {
  chainId: number;
  verifyingContract: string;
}

/** The CTF Exchange on Polygon: binary markets. */
export const POLYMARKET_CTF_EXCHANGE: PolymarketExchange = { chainId: POLYGON_CHAIN_ID, verifyingContract: '0x4bFb41d5B3570DeFd03C39a9A4D8dE6Bd8B8982E' };

/**
 * The Neg Risk CTF Exchange on Polygon: multi-outcome (negative risk) markets. Same order type,
 * another verifying contract, so another digest: an order signed for one exchange is refused by the other.
 */
export const POLYMARKET_NEG_RISK_CTF_EXCHANGE: PolymarketExchange = { chainId: POLYGON_CHAIN_ID, verifyingContract: '0xC5d563A36AE78145C45a50134d48A1215220f80a' };

/** The exchange's uint8 sides. */
export const POLYMARKET_SIDE = { BUY: 0, SELL: 1 } as const;

/** The exchange's uint8 signature types: the signer's own EOA, or an EOA owning a Polymarket proxy wallet or Gnosis safe (the maker). */
export const POLYMARKET_SIGNATURE_TYPE = { EOA: 0, POLY_PROXY: 1, POLY_GNOSIS_SAFE: 2 } as const;

type Uint = bigint | number | string;

/**
 * The fields of the exchange's `Order` struct, in the units it settles: amounts in the 6-decimal
 * base units of USDC and of the outcome tokens, `tokenId` the ERC-1155 id (a uint256: a bigint or
 * decimal string, beyond a number's precision), `expiration` in unix seconds (0: none).
 */
export interface PolymarketOrder {
  salt: Uint;
  maker: string;
  signer: string;
  taker: string;
  tokenId: Uint;
  makerAmount: Uint;
  takerAmount: Uint;
  expiration: Uint;
  nonce: Uint;
  feeRateBps: Uint;
  side: 0 | 1;
  signatureType: 0 | 1 | 2;
}

/** The exchange's EIP-712 type; the field order is part of the type hash. */
const POLYMARKET_ORDER_TYPES = {
  Order: [
    { name: 'salt', type: 'uint256' },
    { name: 'maker', type: 'address' },
    { name: 'signer', type: 'address' },
    { name: 'taker', type: 'address' },
    { name: 'tokenId', type: 'uint256' },
    { name: 'makerAmount', type: 'uint256' },
    { name: 'takerAmount', type: 'uint256' },
    { name: 'expiration', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'feeRateBps', type: 'uint256' },
    { name: 'side', type: 'uint8' },
    { name: 'signatureType', type: 'uint8' },
  ],
} as const;

function oneOf(value: number, allowed: readonly number[], what: string): number {
  if (!allowed.includes(value)) throw new Error(`${what} is ${value}`);
  return value;
}

function polymarketOrderMessage(order: PolymarketOrder) {
  return {
    salt: uint(order.salt, 256, 'salt'),
    maker: hexAddress(order.maker, 'maker'),
    signer: hexAddress(order.signer, 'signer'),
    taker: hexAddress(order.taker, 'taker'),
    tokenId: uint(order.tokenId, 256, 'tokenId'),
    makerAmount: uint(order.makerAmount, 256, 'makerAmount'),
    takerAmount: uint(order.takerAmount, 256, 'takerAmount'),
    expiration: uint(order.expiration, 256, 'expiration'),
    nonce: uint(order.nonce, 256, 'nonce'),
    feeRateBps: uint(order.feeRateBps, 256, 'feeRateBps'),
    side: oneOf(order.side, [0, 1], 'side (0 BUY, 1 SELL)'),
    signatureType: oneOf(order.signatureType, [0, 1, 2], 'signatureType (0 EOA, 1 POLY_PROXY, 2 POLY_GNOSIS_SAFE)'),
  };
}

function polymarketOrderDomain(exchange: PolymarketExchange) {
  return { name: 'Polymarket CTF Exchange', version: '1', chainId: exchange.chainId, verifyingContract: hexAddress(exchange.verifyingContract, 'verifyingContract') };
}

/** EIP-712 `hashStruct(order)`: keccak256(typeHash ‖ the encoded fields), without the domain. */
export function polymarketOrderStructHash(order: PolymarketOrder): HexString {
  return TypedData.hashStruct({ data: polymarketOrderMessage(order), primaryType: 'Order', types: POLYMARKET_ORDER_TYPES });
}

/**
 * The digest signed: keccak256(0x1901 ‖ domainSeparator ‖ hashStruct(order)). It is also the
 * order hash the exchange and the CLOB identify the order by (what the Polymarket SDKs call the
 * "order hash", and python-order-utils' `_create_struct_hash`).
 */
export function polymarketOrderDigest(order: PolymarketOrder, exchange: PolymarketExchange = POLYMARKET_CTF_EXCHANGE): HexString {
  return TypedData.getSignPayload({ domain: polymarketOrderDomain(exchange), types: POLYMARKET_ORDER_TYPES, primaryType: 'Order', message: polymarketOrderMessage(order) });
}

/**
 * The order's `signature` field for an EOA key (every signature type signs with the EOA; with
 * POLY_PROXY or POLY_GNOSIS_SAFE the maker is the wallet the key owns): 65 bytes r ‖ s ‖ v as
 * 0x hex, v 27/28. The key must be the order's `signer`.
 */
export function polymarketOrderSignature(order: PolymarketOrder, privateKey: string, exchange: PolymarketExchange = POLYMARKET_CTF_EXCHANGE): HexString {
  return signatureHex(signDigest(polymarketOrderDigest(order, exchange), privateKey));
}

/** The text a ClobAuth message carries: fixed by the CLOB. */
export const POLYMARKET_CLOB_AUTH_MESSAGE = 'This message attests that I control the given wallet';

/**
 * L1 authentication (creating or deriving the L2 API key): the EIP-712 digest of
 * `ClobAuth(address address,string timestamp,uint256 nonce,string message)` under the domain
 * { name "ClobAuthDomain", version "1", chainId } — a domain without a verifying contract. The
 * timestamp is unix seconds as text (the same text as `POLY_TIMESTAMP`); the nonce picks which key
 * is derived (0 by default in the SDKs).
 */
export function polymarketClobAuthDigest(address: string, chainId: number, timestampSeconds: number | string, nonce: bigint | number): HexString {
  return TypedData.getSignPayload({
    domain: { name: 'ClobAuthDomain', version: '1', chainId },
    types: {
      ClobAuth: [
        { name: 'address', type: 'address' },
        { name: 'timestamp', type: 'string' },
        { name: 'nonce', type: 'uint256' },
        { name: 'message', type: 'string' },
      ],
    },
    primaryType: 'ClobAuth',
    message: { address: hexAddress(address, 'address'), timestamp: String(timestampSeconds), nonce: uint(nonce, 256, 'nonce'), message: POLYMARKET_CLOB_AUTH_MESSAGE },
  });
}

/** `POLY_SIGNATURE` of an L1 request: the ClobAuth signed by the key, for the key's own address. */
export function polymarketClobAuthSignature(privateKey: string, chainId: number, timestampSeconds: number | string, nonce: bigint | number): HexString {
  return signatureHex(signDigest(polymarketClobAuthDigest(evmAddress(privateKey), chainId, timestampSeconds, nonce), privateKey));
}

/** The headers of an L1 request (POST /auth/api-key, GET /auth/derive-api-key). */
export function polymarketL1Headers(privateKey: string, chainId: number, timestampSeconds: number | string, nonce: bigint | number = 0): Record<string, string> {
  return {
    POLY_ADDRESS: evmAddress(privateKey),
    POLY_SIGNATURE: polymarketClobAuthSignature(privateKey, chainId, timestampSeconds, nonce),
    POLY_TIMESTAMP: String(timestampSeconds),
    POLY_NONCE: String(nonce),
  };
}

/**
 * L2 `POLY_SIGNATURE`: HMAC-SHA256, keyed by the base64-decoded API secret, of timestamp (unix
 * seconds) + method + request path + body, in URL-safe base64 that keeps its `=` padding (so not
 * Node's 'base64url', which drops it). Node's base64 decoder takes the secret in either alphabet
 * and skips stray characters, as Polymarket's TypeScript client does on purpose. The method is
 * signed as given (the clients send capitals); the path without host, as sent.
 *
 * The body is signed verbatim: it must be the exact bytes sent. py-clob-client also swaps `'` for
 * `"` in the body before signing, a leftover from signing `str(dict)`; its JSON bodies hold no
 * quote but inside a string value, where the TypeScript client (followed here) signs the `'` as is.
 */
export function polymarketL2Signature(apiSecret: string, timestampSeconds: number | string, method: string, requestPath: string, body = ''): string {
  return createHmac('sha256', Buffer.from(apiSecret, 'base64'))
    .update(`${timestampSeconds}${method}${requestPath}${body}`)
    .digest('base64')
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
}

/** An L2 API key as the CLOB issues it: the secret signs, the key and passphrase are sent. */
export interface PolymarketApiCredentials {
  apiKey: string;
  secret: string;
  passphrase: string;
}

/** The headers of an L2 (trading) request; `address` is the signing EOA's, as in L1. */
export function polymarketL2Headers(address: string, credentials: PolymarketApiCredentials, timestampSeconds: number | string, method: string, requestPath: string, body = ''): Record<string, string> {
  return {
    POLY_ADDRESS: address,
    POLY_SIGNATURE: polymarketL2Signature(credentials.secret, timestampSeconds, method, requestPath, body),
    POLY_TIMESTAMP: String(timestampSeconds),
    POLY_API_KEY: credentials.apiKey,
    POLY_PASSPHRASE: credentials.passphrase,
  };
}

// ------------------------------------------------------------------------------------------
// Hyperliquid L1 actions
// ------------------------------------------------------------------------------------------

const MSGPACK_UINT_LIMIT = 1n << 64n;
const MSGPACK_INT_FLOOR = -(1n << 63n);

function pushBigEndian(out: number[], value: bigint, bytes: number): void {
  const unsigned = value < 0n ? value + (1n << BigInt(bytes * 8)) : value;
  for (let i = bytes - 1; i >= 0; i--) out.push(Number((unsigned >> BigInt(i * 8)) & 0xffn));
}

function pushInteger(out: number[], v: bigint, path: string): void {
  if (v >= 0n) {
    if (v < 0x80n) out.push(Number(v));
    else if (v < 0x100n) out.push(0xcc, Number(v));
    else if (v < 0x10000n) { out.push(0xcd); pushBigEndian(out, v, 2); }
    else if (v < 0x100000000n) { out.push(0xce); pushBigEndian(out, v, 4); }
    else if (v < MSGPACK_UINT_LIMIT) { out.push(0xcf); pushBigEndian(out, v, 8); }
    else throw new Error(`${path}: an integer beyond 64 bits has no msgpack form`);
  } else if (v >= -32n) out.push(Number(v + 0x100n));
  else if (v >= -0x80n) { out.push(0xd0); pushBigEndian(out, v, 1); }
  else if (v >= -0x8000n) { out.push(0xd1); pushBigEndian(out, v, 2); }
  else if (v >= -0x80000000n) { out.push(0xd2); pushBigEndian(out, v, 4); }
  else if (v >= MSGPACK_INT_FLOOR) { out.push(0xd3); pushBigEndian(out, v, 8); }
  else throw new Error(`${path}: an integer beyond 64 bits has no msgpack form`);
}

function pushHeader(out: number[], length: number, fix: number, fixLimit: number, c8: number | null, c16: number, c32: number): void {
  if (length < fixLimit) out.push(fix | length);
  else if (c8 !== null && length < 0x100) out.push(c8, length);
  else if (length < 0x10000) { out.push(c16); pushBigEndian(out, BigInt(length), 2); }
  else { out.push(c32); pushBigEndian(out, BigInt(length), 4); }
}

function pushValue(out: number[], value: unknown, path: string): void {
  if (value === null) out.push(0xc0);
  else if (value === true) out.push(0xc3);
  else if (value === false) out.push(0xc2);
  else if (typeof value === 'string') {
    // Python's encoder refuses a lone surrogate; TextEncoder would swap in U+FFFD and sign other bytes than the JSON carries.
    if (!value.isWellFormed()) throw new Error(`${path}: a string with a lone surrogate`);
    const bytes = Buffer.from(value, 'utf8');
    pushHeader(out, bytes.length, 0xa0, 0x20, 0xd9, 0xda, 0xdb);
    for (const b of bytes) out.push(b);
  } else if (typeof value === 'bigint') pushInteger(out, value, path);
  else if (typeof value === 'number') {
    // Prices and sizes travel as decimal strings; a number here is a count, index, id or time. A
    // fraction would be a float64 for Python but a parse error or another value for the venue.
    if (!Number.isSafeInteger(value)) throw new Error(`${path}: numbers in an action must be safe integers (decimals go as strings, large ids as bigint)`);
    pushInteger(out, BigInt(value), path);
  } else if (Array.isArray(value)) {
    pushHeader(out, value.length, 0x90, 0x10, null, 0xdc, 0xdd);
    value.forEach((item, i) => {
      if (item === undefined) throw new Error(`${path}[${i}]: undefined has no msgpack (nor JSON) form`);
      pushValue(out, item, `${path}[${i}]`);
    });
  } else if (typeof value === 'object' && (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null)) {
    // A key with an undefined value is left out, as JSON.stringify leaves it out of the body sent:
    // the venue hashes the action it parsed from that body.
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    pushHeader(out, entries.length, 0x80, 0x10, null, 0xde, 0xdf);
    for (const [key, item] of entries) {
      // JavaScript enumerates integer-like keys first, whatever the insertion order: the order
      // hashed would not be the order written.
      if (/^(?:0|[1-9]\d*)$/.test(key)) throw new Error(`${path}.${key}: integer-like keys do not keep their insertion order`);
      pushValue(out, key, path);
      pushValue(out, item, `${path}.${key}`);
    }
  } else throw new Error(`${path}: only plain objects, arrays, strings, integers, booleans and null are packed`);
}

/**
 * The action's msgpack bytes as Python's `msgpack.packb` writes them (and the Rust SDK's
 * rmp-serde): maps in insertion order, every integer, string, array and map length in its
 * smallest form, str8 for 32–255 byte strings, and uint64 (0xcf) for integers of 2^32 and up.
 *
 * Written here rather than with msgpackr, which differs on two points: a plain object is always a
 * map16 (0xde) unless `variableMapSize` is set, and no option writes uint64 — an integer number
 * of 2^32 or more becomes a float64 (0xcb), a bigint below 2^63 an int64 (0xd3). Order ids are
 * past 2^32, so a cancel signed from msgpackr's bytes would hash differently and be refused; its
 * only hook for raw bytes is a process-wide extension. The test holds this encoder to msgpackr's
 * output wherever the two formats agree, and to Python-SDK vectors where they do not.
 */
export function hyperliquidMsgpack(value: object): Uint8Array {
  const out: number[] = [];
  pushValue(out, value, 'action');
  return Uint8Array.from(out);
}

function uint64Bytes(value: bigint | number, what: string): number[] {
  const out: number[] = [];
  pushBigEndian(out, uint(value, 64, what), 8);
  return out;
}

/**
 * The L1 action hash (the phantom agent's `connectionId`): keccak256 of msgpack(action) ‖ nonce
 * as 8 bytes big-endian ‖ 0x00 without a vault, or 0x01 and the vault's (or subaccount's) 20
 * bytes ‖ and, only when the request sets `expiresAfter` (ms since the epoch), 0x00 and it as 8
 * bytes big-endian. The nonce is the request's `nonce`, the ms timestamp the venue keeps the most
 * recent per signer of; `vaultAddress` and `expiresAfter` must be sent as hashed.
 */
export function hyperliquidActionHash(action: object, nonce: bigint | number, vaultAddress?: string | null, expiresAfter?: bigint | number | null): HexString {
  const tail = uint64Bytes(nonce, 'nonce');
  if (vaultAddress === undefined || vaultAddress === null) tail.push(0x00);
  else tail.push(0x01, ...Buffer.from(hexAddress(vaultAddress, 'vaultAddress').slice(2), 'hex'));
  if (expiresAfter !== undefined && expiresAfter !== null) tail.push(0x00, ...uint64Bytes(expiresAfter, 'expiresAfter'));
  const packed = hyperliquidMsgpack(action);
  const data = new Uint8Array(packed.length + tail.length);
  data.set(packed);
  data.set(tail, packed.length);
  return `0x${Buffer.from(keccak_256(data)).toString('hex')}`;
}

/**
 * The digest an L1 action's signature signs: the "phantom agent" `Agent(string source,bytes32
 * connectionId)`, source "a" on mainnet and "b" on testnet, under the domain { name "Exchange",
 * version "1", chainId 1337, verifyingContract the zero address } — the same on both networks,
 * the source keeping a testnet signature from replaying on mainnet.
 */
export function hyperliquidL1Digest(actionHash: HexString, isMainnet: boolean): HexString {
  return TypedData.getSignPayload({
    domain: { name: 'Exchange', version: '1', chainId: 1337, verifyingContract: '0x0000000000000000000000000000000000000000' },
    types: {
      Agent: [
        { name: 'source', type: 'string' },
        { name: 'connectionId', type: 'bytes32' },
      ],
    },
    primaryType: 'Agent',
    message: { source: isMainnet ? 'a' : 'b', connectionId: actionHash },
  });
}

export interface HyperliquidL1Options {
  /** Mainnet or testnet: a required choice, not a default. */
  isMainnet: boolean;
  /** Trading for a vault or subaccount: its address, sent as the request's `vaultAddress`. */
  vaultAddress?: string | null;
  /** The request's `expiresAfter` (ms since the epoch), when set. */
  expiresAfter?: bigint | number | null;
}

/**
 * The `signature` of a POST /exchange L1 action (order, cancel, modify, leverage, …), signed by
 * the account's key or an approved API wallet's. r and s are 32-byte hex with leading zeros kept,
 * as nktkas/hyperliquid sends them; the Python SDK sends the same integers without leading zeros.
 */
export function hyperliquidSignL1Action(privateKey: string, action: object, nonce: bigint | number, options: HyperliquidL1Options): EvmSignature {
  const hash = hyperliquidActionHash(action, nonce, options.vaultAddress, options.expiresAfter);
  return signDigest(hyperliquidL1Digest(hash, options.isMainnet), privateKey);
}

/**
 * A price or size as the venue hashes it: at most 8 decimals, trailing zeros and a bare point
 * dropped ("1670.1", "100", "0.0147"). A number follows the Python SDK's `float_to_wire`: refused
 * when 8 decimals would round it (by 1e-12 or more). A decimal string is normalized the same way
 * without passing through a float, and refused past 8 significant decimals. Negative zero is "0".
 */
export function hyperliquidFloatToWire(value: number | string): string {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || Math.abs(value) >= 1e21) throw new Error(`${value} has no 8-decimal wire form`);
    text = value.toFixed(8);
    if (Math.abs(Number(text) - value) >= 1e-12) throw new Error(`${value} would be rounded by its 8-decimal wire form`);
  } else {
    const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value);
    if (!match) throw new Error(`"${value}" is not a decimal`);
    const decimals = (match[3] ?? '').replace(/0+$/, '');
    if (decimals.length > 8) throw new Error(`"${value}" has more than 8 decimals`);
    text = `${match[1]}${match[2]}.${decimals}`;
  }
  const [sign, integer, fraction] = /^(-?)(\d+)\.?(\d*)$/.exec(text)!.slice(1) as [string, string, string];
  const digits = integer.replace(/^0+(?=\d)/, '');
  const decimals = fraction.replace(/0+$/, '');
  const normalized = decimals ? `${digits}.${decimals}` : digits;
  return normalized === '0' ? '0' : `${sign}${normalized}`;
}

export type HyperliquidTif = 'Alo' | 'Ioc' | 'Gtc';

export type HyperliquidOrderType =
  | { limit: { tif: HyperliquidTif } }
  | { trigger: { triggerPx: number | string; isMarket: boolean; tpsl: 'tp' | 'sl' } };

/** An order before its wire form: `asset` the venue's index (perp universe index, 10000 + spot index for spot). */
export interface HyperliquidOrderRequest {
  asset: number;
  isBuy: boolean;
  limitPx: number | string;
  sz: number | string;
  reduceOnly: boolean;
  orderType: HyperliquidOrderType;
  /** Client order id: 0x and 16 bytes of hex. */
  cloid?: string | undefined;
}

/** An order on the wire. A type alias, not an interface, so that it packs as any plain object. */
export type HyperliquidOrderWire = {
  a: number;
  b: boolean;
  p: string;
  s: string;
  r: boolean;
  t: { limit: { tif: HyperliquidTif } } | { trigger: { isMarket: boolean; triggerPx: string; tpsl: 'tp' | 'sl' } };
  c?: string;
};

/** The wire form, keys in the venue's (and the Python SDK's) order, which the hash depends on. */
export function hyperliquidOrderWire(order: HyperliquidOrderRequest): HyperliquidOrderWire {
  const t = 'limit' in order.orderType
    ? { limit: { tif: order.orderType.limit.tif } }
    : { trigger: { isMarket: order.orderType.trigger.isMarket, triggerPx: hyperliquidFloatToWire(order.orderType.trigger.triggerPx), tpsl: order.orderType.trigger.tpsl } };
  const wire: HyperliquidOrderWire = { a: order.asset, b: order.isBuy, p: hyperliquidFloatToWire(order.limitPx), s: hyperliquidFloatToWire(order.sz), r: order.reduceOnly, t };
  if (order.cloid !== undefined) {
    if (!/^0x[0-9a-fA-F]{32}$/.test(order.cloid)) throw new Error('a cloid is 0x and 16 bytes of hex');
    wire.c = order.cloid;
  }
  return wire;
}

export type HyperliquidGrouping = 'na' | 'normalTpsl' | 'positionTpsl';

/** The `order` action: type, orders, grouping, and a builder fee ({ b: address, f: tenths of a basis point }) when one is charged. */
export function hyperliquidOrderAction(orders: HyperliquidOrderWire[], grouping: HyperliquidGrouping = 'na', builder?: { b: string; f: number }) {
  const action: { type: 'order'; orders: HyperliquidOrderWire[]; grouping: HyperliquidGrouping; builder?: { b: string; f: number } } = { type: 'order', orders, grouping };
  // The Python SDK lowercases the builder address before signing; the hash is over the text sent.
  if (builder) action.builder = { b: builder.b.toLowerCase(), f: builder.f };
  return action;
}
