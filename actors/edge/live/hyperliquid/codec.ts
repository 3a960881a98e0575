import { parseSymbol } from '../../../../domain/market.ts';
import type { VenueCredentials } from '../../../../storage/credential-shapes.ts';
import type { FundingInfo, FundingPoint } from '../../messages.ts';
import { exactScaled, formatScaled, safeNumber, scaledRounded, type Rounding } from '../decimal.ts';
import type { FeeContext } from '../fees.ts';
import { nonNegativeInteger, record, u64Text } from '../json.ts';
import { childIdOfKraken, krakenClientOrderId } from '../kraken/codec.ts';
import { evmAddress, hyperliquidOrderAction, hyperliquidOrderWire, hyperliquidSignL1Action, type EvmSignature } from '../signing-evm.ts';
import type { AccountProbe, AssetBalance, LegReport, VenueFill } from '../venue.ts';
import type { HyperliquidBookData } from './book-sync.ts';

/**
 * Hyperliquid perpetuals' wire formats (the first perp dex), decoded into the engine's integers
 * and encoded from them. Pure: nonces, expiry times and "now" are the caller's. Prices and USD
 * are 1e9, quantities 1e8, funding rates 1e9 (a fraction per hourly interval).
 *
 * Sources (hyperliquid.gitbook.io/hyperliquid-docs/for-developers/api/...): info-endpoint and
 * info-endpoint/perpetuals (request bodies and example answers), exchange-endpoint (actions,
 * answers, `expiresAfter`, "Subaccounts and vaults"), tick-and-lot-size, nonces-and-api-wallets,
 * error-responses, rate-limits, websocket/subscriptions and websocket/timeouts-and-heartbeats.
 * Field types follow nktkas/hyperliquid (src/api/**, valibot schemas kept in step with the
 * venue) and hyperliquid-dex/hyperliquid-python-sdk (hyperliquid/exchange.py, info.py,
 * websocket_manager.py; its tests/cassettes hold answers recorded from api.hyperliquid.xyz).
 *
 * Every request is a JSON POST: `/info` (public reads, by `type`) or `/exchange` (L1 actions
 * signed with `hyperliquidSignL1Action`, ../signing-evm.ts). Numbers the venue writes as
 * decimal strings parse exactly where the venue's precision fits our scales (book levels,
 * sizes, limit prices); fees and balances past our scale are rounded against us, a charge up
 * and a balance down. Order and trade ids are u64: answers should be parsed with
 * `parseVenueJson`, which keeps `oid` and `tid` as their decimal text.
 */

const PRICE = 9;
const QTY = 8;
const HOUR_MS = 3_600_000;
const NS_PER_MS = 1_000_000;

/** The collateral and quote of every perp on the first perp dex (`collateralToken` 0 in `meta`). */
export const QUOTE = 'USDC';

export const MAINNET_API = 'https://api.hyperliquid.xyz';
export const TESTNET_API = 'https://api.hyperliquid-testnet.xyz';
export const INFO_PATH = '/info';
export const EXCHANGE_PATH = '/exchange';
/** The WebSocket path on the API host (`wss://api.hyperliquid.xyz/ws`, the Python SDK's websocket_manager). */
export const WS_PATH = '/ws';

// ---------------------------------------------------------------------------------------------
// Exact decimals and ids

/** A decimal string at `scale`, rounded as `mode` says (averages, fees, balances); NaN when unreadable or past 2^53. */
function rounded(v: unknown, scale: number, mode: Rounding): number {
  return safeNumber(scaledRounded(v, scale, mode));
}

/** An optional decimal: null when absent or null, NaN when unreadable. */
function optionalRounded(v: unknown, scale: number, mode: Rounding): number | null {
  return v === undefined || v === null ? null : rounded(v, scale, mode);
}

/** `oid` or `tid` followed by a JSON integer, anchored on the `{` or `,` before the key (inside a JSON string a quote is escaped). */
const U64_FIELD = /([{,]\s*"(?:oid|tid)"\s*:\s*)(\d+)(?=\s*[,}])/g;

/**
 * An answer's text as JSON with every `oid` and `tid` kept as its decimal text: they are u64,
 * and a JSON number past 2^53 would come back as another id. Undefined for text that is not JSON
 * (the 422 "Failed to deserialize the JSON body into the target type", an HTML error page).
 */
export function parseVenueJson(text: string): unknown {
  try {
    return JSON.parse(text.replace(U64_FIELD, '$1"$2"'));
  } catch {
    return undefined;
  }
}

const BIGINT_MARK = '\u0000u64:';

/** JSON with bigints written as bare integers: an `oid` past 2^53 is sent as the venue's u64, as msgpack hashes it. */
function jsonBody(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${BIGINT_MARK}${v}` : v)).replace(/"\\u0000u64:(\d+)"/g, '$1');
}

/** An order id for an action or a request: a number while exact, else a bigint (uint64 in msgpack, a bare integer in JSON). */
function u64(oid: string): number | bigint {
  const n = Number(oid);
  return Number.isSafeInteger(n) ? n : BigInt(oid);
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

function address(value: string, what: string): string {
  if (!ADDRESS.test(value)) throw new Error(`${what} must be a 20-byte 0x address`);
  return value.toLowerCase();
}

// ---------------------------------------------------------------------------------------------
// Symbols and instruments: POST /info {"type":"meta"}

/** Our symbol for a coin of the first perp dex (`BTC` -> `BTC-USDC`); undefined when the name is not one of ours (`kPEPE`, `xyz:TSLA`). */
export function symbolOfCoin(coin: string): string | undefined {
  const symbol = `${coin}-${QUOTE}`;
  return parseSymbol(symbol) === undefined ? undefined : symbol;
}

/** The coin of one of our perp symbols (`BTC-USDC` -> `BTC`); undefined for another quote. */
export function coinOf(symbol: string): string | undefined {
  const parts = parseSymbol(symbol);
  return parts?.quote === QUOTE ? parts.base : undefined;
}

/** A perp listing's rules, in engine units. */
export interface HyperliquidInstrument {
  /** ours, `BTC-USDC` */
  symbol: string;
  /** Hyperliquid's, `BTC` */
  coin: string;
  /** the order's `a`: the coin's index in `meta.universe` (exchange-endpoint, "Asset") */
  asset: number;
  szDecimals: number;
  /** 10^-szDecimals, x 1e8 */
  lot_1e8: number;
  maxLeverage: number;
  /** `onlyIsolated` (deprecated for `marginMode`): no cross margin */
  onlyIsolated: boolean;
  delisted: boolean;
  trading: boolean;
}

export function metaRequest(): string {
  return jsonBody({ type: 'meta' });
}

/**
 * The listings of a `meta` answer (`{universe: [{name, szDecimals, maxLeverage, onlyIsolated?,
 * isDelisted?, marginMode?}], marginTables}`). The asset index is the position in `universe`
 * counting every entry, delisted or not ours: skipping one must not shift the others. Left out:
 * names that are not our symbols (`kPEPE`) and `szDecimals` past our quantity scale. Undefined
 * for a body without a universe.
 */
export function decodeMeta(body: unknown): HyperliquidInstrument[] | undefined {
  const universe = record(body)?.['universe'];
  if (!Array.isArray(universe)) return undefined;
  const out: HyperliquidInstrument[] = [];
  (universe as unknown[]).forEach((raw, asset) => {
    const u = record(raw);
    const name = u?.['name'];
    const sz = u?.['szDecimals'];
    if (u === undefined || typeof name !== 'string' || !Number.isInteger(sz) || (sz as number) < 0 || (sz as number) > QTY) return;
    const symbol = symbolOfCoin(name);
    if (symbol === undefined) return;
    const delisted = u['isDelisted'] === true;
    out.push({
      symbol,
      coin: name,
      asset,
      szDecimals: sz as number,
      lot_1e8: 10 ** (QTY - (sz as number)),
      maxLeverage: typeof u['maxLeverage'] === 'number' ? u['maxLeverage'] : 1,
      onlyIsolated: u['onlyIsolated'] === true || u['marginMode'] === 'strictIsolated' || u['marginMode'] === 'noCross',
      delisted,
      trading: !delisted,
    });
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Tick and lot size

/** Perp prices carry at most 6 - szDecimals decimals (spot: 8 - szDecimals): tick-and-lot-size. */
export const PERP_MAX_DECIMALS = 6;
/** ... and at most 5 significant figures, an integer price always being allowed. */
export const MAX_SIG_FIGS = 5;

/** How many decimals a price of this magnitude may carry on a perp with these szDecimals. */
function priceDecimals(price_1e9: number, szDecimals: number): number {
  const byDecimals = Math.max(0, PERP_MAX_DECIMALS - szDecimals);
  const whole = (price_1e9 - (price_1e9 % 1e9)) / 1e9;
  let bySigFigs: number;
  if (whole > 0) bySigFigs = Math.max(0, MAX_SIG_FIGS - String(whole).length);
  else {
    // 0.000ddd: the first significant digit sits after the leading zeros of the 9 decimals.
    const leadingZeros = String(price_1e9).padStart(PRICE, '0').search(/[1-9]/);
    bySigFigs = leadingZeros + MAX_SIG_FIGS;
  }
  return Math.min(byDecimals, bySigFigs, PRICE);
}

/** The price grid (1e9 units) around `price_1e9`: 10^-decimals with the decimals this price may have. */
export function priceStep1e9(price_1e9: number, szDecimals: number): number {
  return 10 ** (PRICE - priceDecimals(price_1e9, szDecimals));
}

/** Whether Hyperliquid takes this perp price: positive, on its own magnitude's grid. */
export function isValidPrice(price_1e9: number, szDecimals: number): boolean {
  return Number.isSafeInteger(price_1e9) && price_1e9 > 0 && price_1e9 % priceStep1e9(price_1e9, szDecimals) === 0;
}

/**
 * A limit on Hyperliquid's price rule, toward the passive side: a buy's down, a sell's up, so
 * the limit never loosens. The grid depends on the price's magnitude; rounding a sell up can
 * only leave its magnitude by landing on the next power of ten, which every grid holds, and
 * rounding a buy down never leaves it (the power of ten below is on the grid). 0 when a buy
 * rounds below the smallest price.
 */
export function priceOnTick(side: 'buy' | 'sell', limit_1e9: number, szDecimals: number): number {
  const step = priceStep1e9(limit_1e9, szDecimals);
  const rest = limit_1e9 % step;
  if (rest === 0) return limit_1e9;
  return side === 'buy' ? limit_1e9 - rest : limit_1e9 - rest + step;
}

/** A size down to the lot (10^-szDecimals): never more than asked. */
export function sizeOnLot(qty_1e8: number, szDecimals: number): number {
  const lot = 10 ** Math.max(0, QTY - szDecimals);
  return qty_1e8 - (qty_1e8 % lot);
}

/** "Order must have minimum value of $10." (error-responses, MinTradeNtl): size x limit, USD 1e9. */
export const MIN_ORDER_VALUE_1e9 = 10_000_000_000;

/** A child's size and limit as Hyperliquid will take them. */
export interface OrderTerms {
  sz_1e8: number;
  px_1e9: number;
}

/**
 * A child's terms on the listing: the size down to the lot, the limit onto the price rule
 * toward the passive side, refused when nothing is left, when the listing is delisted, or below
 * the $10 minimum (the venue would refuse it). Hyperliquid has no unpriced order (a "market"
 * order is an aggressive IOC limit), so a child without a limit is refused.
 */
export function orderTerms(instrument: HyperliquidInstrument, side: 'buy' | 'sell', qty_1e8: number, limit_1e9: number | null): { ok: true; terms: OrderTerms } | { ok: false; reason: string } {
  const coin = instrument.coin;
  if (!instrument.trading) return { ok: false, reason: `${coin} is delisted on Hyperliquid` };
  if (limit_1e9 === null) return { ok: false, reason: 'Hyperliquid takes priced orders only' };
  const sz = sizeOnLot(qty_1e8, instrument.szDecimals);
  if (!(sz > 0)) return { ok: false, reason: `below Hyperliquid's size step for ${coin} (${formatScaled(instrument.lot_1e8, QTY)})` };
  const px = priceOnTick(side, limit_1e9, instrument.szDecimals);
  if (!(px > 0)) return { ok: false, reason: `limit below Hyperliquid's smallest price for ${coin}` };
  if (BigInt(sz) * BigInt(px) < BigInt(MIN_ORDER_VALUE_1e9) * 10n ** BigInt(QTY)) return { ok: false, reason: `below Hyperliquid's minimum order value for ${coin} ($10)` };
  return { ok: true, terms: { sz_1e8: sz, px_1e9: px } };
}

// ---------------------------------------------------------------------------------------------
// Client order ids

/** "Client Order ID (cloid) is an optional 128 bit hex string, e.g. 0x1234567890abcdef1234567890abcdef" (exchange-endpoint). */
export const CLOID = /^0x[0-9a-fA-F]{32}$/;

/**
 * Our child id as a cloid: the 128 bits Kraken's packing makes of it (`krakenClientOrderId`: a
 * 20-bit tag 0x5e9ce, the child number, the process suffix and the time-and-sequence part, in a
 * version-4-shaped UUID), written as 0x and 32 hex. Injective; `childIdOfCloid` undoes it.
 * Undefined for an id Kraken's packing refuses: that leg must be refused (a child that cannot be
 * found by its id could be sent twice).
 */
export function hyperliquidCloid(childId: string): string | undefined {
  const uuid = krakenClientOrderId(childId);
  return uuid === undefined ? undefined : `0x${uuid.replace(/-/g, '')}`;
}

/** The child id a cloid was made from, in either case; undefined for a cloid this service did not make. */
export function childIdOfCloid(cloid: string): string | undefined {
  return CLOID.test(cloid) ? childIdOfKraken(cloid.slice(2)) : undefined;
}

// ---------------------------------------------------------------------------------------------
// Account: who signs, whose state is read

export function userRoleRequest(user: string): string {
  return jsonBody({ type: 'userRole', user: address(user, 'user') });
}

/** A `userRole` answer: "missing", "user", "agent" (with its master), "vault" or "subAccount" (with its master). */
export type HyperliquidRole = { role: 'missing' | 'user' | 'vault' } | { role: 'agent' | 'subAccount'; master: string };

/**
 * `{"role":"user"}`, `{"role":"agent","data":{"user":"0x..."}}`, `{"role":"vault"}`,
 * `{"role":"subAccount","data":{"master":"0x..."}}`, `{"role":"missing"}` (info-endpoint, "Query
 * a user's role"); undefined for anything else.
 */
export function decodeUserRole(body: unknown): HyperliquidRole | undefined {
  const b = record(body);
  const role = b?.['role'];
  if (role === 'missing' || role === 'user' || role === 'vault') return { role };
  if (role !== 'agent' && role !== 'subAccount') return undefined;
  const master = record(b!['data'])?.[role === 'agent' ? 'user' : 'master'];
  return typeof master === 'string' && ADDRESS.test(master) ? { role, master: master.toLowerCase() } : undefined;
}

/** How an account's requests are made. Addresses lowercase. */
export interface HyperliquidAccount {
  /** the signer's address (`api_key`): nonces are tracked per signer */
  signer: string;
  /** 'agent': an approved API wallet, which cannot withdraw; 'owner': the account's own key */
  signerKind: 'agent' | 'owner';
  /** the master account the signer trades for */
  master: string;
  /** the address whose state the info requests read (`user`): the vault or subaccount when trading for one, else the master */
  user: string;
  /** sent, and hashed, as the action's `vaultAddress`; null for the master's own account */
  vaultAddress: string | null;
}

/**
 * The account behind credentials (`evm_agent`: api_key the agent address, api_secret its key,
 * passphrase an optional vault or subaccount address), from the venue's `userRole` of the agent
 * and, with a passphrase, of that address.
 *
 * The agent's key cannot yield the master's address, and the info requests need it ("API wallets
 * are only used to sign. To query the account data associated with a master or sub-account, you
 * must pass in the actual address of that account", nonces-and-api-wallets). `userRole` of the
 * agent names it (`{"role":"agent","data":{"user": master}}`), so no credential field carries it:
 * the passphrase keeps the meaning storage/credential-shapes.ts gives it (the vault), and
 * `extra_json` is not read. An address whose role is "user" is a master signing with its own
 * key: allowed, flagged as able to withdraw. "missing" is an agent never approved, expired or
 * pruned: nothing can be signed for it. With a vault or subaccount (which have no keys: "signing
 * should be done by the master account and the vaultAddress field should be set",
 * exchange-endpoint), its role must be "vault" (its leader cannot be read here) or a subaccount
 * of the same master.
 */
export function accountOf(credentials: VenueCredentials, signerRole: HyperliquidRole, vaultRole?: HyperliquidRole): { ok: true; account: HyperliquidAccount } | { ok: false; reason: string } {
  if (!ADDRESS.test(credentials.api_key)) return { ok: false, reason: 'the agent address (api_key) is not a 0x address' };
  const signer = credentials.api_key.toLowerCase();
  let derived: string;
  try {
    derived = evmAddress(credentials.api_secret).toLowerCase();
  } catch {
    return { ok: false, reason: 'the agent key (api_secret) is not a secp256k1 private key' };
  }
  if (derived !== signer) return { ok: false, reason: 'the agent key (api_secret) is not the key of the agent address (api_key)' };
  let master: string;
  let signerKind: HyperliquidAccount['signerKind'];
  if (signerRole.role === 'agent') {
    master = signerRole.master;
    signerKind = 'agent';
  } else if (signerRole.role === 'user') {
    master = signer;
    signerKind = 'owner';
  } else if (signerRole.role === 'missing') return { ok: false, reason: 'Hyperliquid does not know this agent: never approved, expired or pruned' };
  else return { ok: false, reason: `the agent address is a ${signerRole.role}, which has no key` };
  const vault = credentials.passphrase ?? '';
  if (vault === '') return { ok: true, account: { signer, signerKind, master, user: master, vaultAddress: null } };
  if (!ADDRESS.test(vault)) return { ok: false, reason: 'the vault address (passphrase) is not a 0x address' };
  const vaultAddress = vault.toLowerCase();
  if (vaultRole === undefined) return { ok: false, reason: "the vault's role is needed to trade for it" };
  if (vaultRole.role === 'subAccount' && vaultRole.master !== master) return { ok: false, reason: "the subaccount is not the agent's master's" };
  if (vaultRole.role !== 'vault' && vaultRole.role !== 'subAccount') return { ok: false, reason: `the vault address is a ${vaultRole.role}, not a vault or subaccount` };
  return { ok: true, account: { signer, signerKind, master, user: vaultAddress, vaultAddress } };
}

export function extraAgentsRequest(master: string): string {
  return jsonBody({ type: 'extraAgents', user: address(master, 'user') });
}

/**
 * When the named agent `agent` expires, from an `extraAgents` answer (`[{name, address,
 * validUntil}]`, as the Python SDK's test_extra_agents cassette recorded it); null when the list
 * does not hold it (an unnamed agent is not listed), undefined for an unreadable answer.
 */
export function agentValidUntil(body: unknown, agent: string): number | null | undefined {
  if (!Array.isArray(body)) return undefined;
  const wanted = agent.toLowerCase();
  for (const raw of body as unknown[]) {
    const a = record(raw);
    if (typeof a?.['address'] !== 'string') return undefined;
    if (a['address'].toLowerCase() === wanted) return nonNegativeInteger(a['validUntil']) ?? null;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Fees: POST /info {"type":"userFees"}

export function userFeesRequest(user: string): string {
  return jsonBody({ type: 'userFees', user: address(user, 'user') });
}

/** A rate as a fraction ("0.000315") in basis points, exact for up to 9 decimals; NaN otherwise. */
function bps(rate: unknown): number {
  const scaled = exactScaled(rate, PRICE);
  return Number.isNaN(scaled) ? NaN : scaled / 100_000;
}

/**
 * The account's own perp rates from `userFees`: `userAddRate` (maker: "add" liquidity, negative
 * a rebate) and `userCrossRate` (taker: "cross" the spread), with the account's volume tier,
 * referral and staking discounts already applied (the docs' example: cross 0.00045 x (1 - 0.3)
 * = userCrossRate 0.000315). Undefined for an answer without both.
 */
export function decodeUserFees(body: unknown): { maker_bps: number; taker_bps: number; add: string; cross: string } | undefined {
  const b = record(body);
  const add = b?.['userAddRate'];
  const cross = b?.['userCrossRate'];
  const maker = bps(add);
  const taker = bps(cross);
  if (Number.isNaN(maker) || Number.isNaN(taker)) return undefined;
  return { maker_bps: maker, taker_bps: taker, add: add as string, cross: cross as string };
}

/**
 * The account probe: the account's rates (the edge's schedule when they could not be read) as
 * the tier. An agent can trade and cannot withdraw ("The agent does not have permission to
 * transfer or withdraw funds", the Python SDK's examples/basic_agent.py); the account's own key can.
 */
export function accountProbeOf(account: HyperliquidAccount, fees: ReturnType<typeof decodeUserFees>, fallback: { maker_bps: number; taker_bps: number }): AccountProbe {
  const r = fees ?? fallback;
  return {
    tier: fees === undefined ? 'base schedule' : `add ${fees.add} / cross ${fees.cross}`,
    maker_bps: r.maker_bps,
    taker_bps: r.taker_bps,
    can_trade: true,
    can_withdraw: account.signerKind === 'owner',
  };
}

// ---------------------------------------------------------------------------------------------
// Balances and positions: POST /info {"type":"clearinghouseState"} (and spot for unified accounts)

export function clearinghouseStateRequest(user: string): string {
  return jsonBody({ type: 'clearinghouseState', user: address(user, 'user') });
}

export function spotClearinghouseStateRequest(user: string): string {
  return jsonBody({ type: 'spotClearinghouseState', user: address(user, 'user') });
}

/** One perp position, in engine units (prices and USD 1e9). */
export interface HyperliquidPosition {
  coin: string;
  /** ours, or null for a coin that is not one of our symbols */
  symbol: string | null;
  /** `szi`: signed, long positive */
  qty_1e8: number;
  entry_1e9: number;
  position_value_1e9: number;
  unrealized_pnl_1e9: number;
  margin_used_1e9: number;
  leverage: { type: 'cross' | 'isolated'; value: number } | null;
  /** null while the venue sees no liquidation price */
  liquidation_1e9: number | null;
  max_leverage: number | null;
  /** `cumFunding.allTime` and `.sinceOpen`, USD 1e9, as Hyperliquid signs them; null where absent */
  cum_funding_all_time_1e9: number | null;
  cum_funding_since_open_1e9: number | null;
}

/** The perp account (the clearinghouse), USDC in 1e8 as balances are kept. */
export interface HyperliquidAccountState {
  /** `marginSummary.accountValue`: equity, unrealized PnL included */
  account_value_1e8: bigint;
  /** what can leave the account (or back new margin) now */
  withdrawable_1e8: bigint;
  /** `marginSummary.totalMarginUsed` */
  margin_used_1e8: bigint;
  positions: HyperliquidPosition[];
  time_ms: number | null;
}

function position(raw: unknown): HyperliquidPosition | undefined {
  const p = record(record(raw)?.['position']);
  const coin = p?.['coin'];
  if (p === undefined || typeof coin !== 'string') return undefined;
  const qty = exactScaled(p['szi'], QTY);
  const entry = rounded(p['entryPx'], PRICE, 'nearest');
  const value = rounded(p['positionValue'], PRICE, 'nearest');
  const pnl = rounded(p['unrealizedPnl'], PRICE, 'nearest');
  const margin = rounded(p['marginUsed'], PRICE, 'ceil');
  const liquidation = optionalRounded(p['liquidationPx'], PRICE, 'nearest');
  const funding = record(p['cumFunding']);
  const allTime = optionalRounded(funding?.['allTime'], PRICE, 'nearest');
  const sinceOpen = optionalRounded(funding?.['sinceOpen'], PRICE, 'nearest');
  if ([qty, entry, value, pnl, margin, liquidation ?? 0, allTime ?? 0, sinceOpen ?? 0].some(Number.isNaN)) return undefined;
  const lev = record(p['leverage']);
  const levType = lev?.['type'];
  return {
    coin,
    symbol: symbolOfCoin(coin) ?? null,
    qty_1e8: qty,
    entry_1e9: entry,
    position_value_1e9: value,
    unrealized_pnl_1e9: pnl,
    margin_used_1e9: margin,
    leverage: (levType === 'cross' || levType === 'isolated') && typeof lev!['value'] === 'number' ? { type: levType, value: lev!['value'] } : null,
    liquidation_1e9: liquidation,
    max_leverage: typeof p['maxLeverage'] === 'number' ? p['maxLeverage'] : null,
    cum_funding_all_time_1e9: allTime,
    cum_funding_since_open_1e9: sinceOpen,
  };
}

/**
 * A `clearinghouseState` answer: `{marginSummary: {accountValue, totalMarginUsed, ...},
 * withdrawable, assetPositions: [{type: "oneWay", position: {coin, szi, entryPx, leverage,
 * liquidationPx, marginUsed, cumFunding, ...}}], time}`. Balances round down past 8 places,
 * margin up. Undefined for an unreadable answer.
 */
export function decodeClearinghouseState(body: unknown): HyperliquidAccountState | undefined {
  const b = record(body);
  const summary = record(b?.['marginSummary']);
  const value = scaledRounded(summary?.['accountValue'], QTY, 'floor');
  const withdrawable = scaledRounded(b?.['withdrawable'], QTY, 'floor');
  const margin = scaledRounded(summary?.['totalMarginUsed'], QTY, 'ceil');
  const list = b?.['assetPositions'];
  if (value === undefined || withdrawable === undefined || margin === undefined || !Array.isArray(list)) return undefined;
  const positions: HyperliquidPosition[] = [];
  for (const raw of list as unknown[]) {
    const p = position(raw);
    if (p === undefined) return undefined;
    positions.push(p);
  }
  return { account_value_1e8: value, withdrawable_1e8: withdrawable, margin_used_1e8: margin, positions, time_ms: nonNegativeInteger(b!['time']) ?? null };
}

/**
 * The perp account as a USDC balance: its cash, which is the equity less the positions'
 * unrealized PnL (the ledger's perp rows mark that PnL themselves: counting it in the cash too
 * would count it twice); free is what is withdrawable (never more than the cash), locked the
 * rest (margin held by positions and orders). A debt is not a balance. Unrealized PnL is in USD
 * 1e9 and the balance in 1e8: the PnL is taken at 1e8 rounded up (the cash rounded down).
 */
export function balancesOf(state: HyperliquidAccountState): AssetBalance[] {
  let unrealized = 0n;
  for (const p of state.positions) {
    const pnl = BigInt(p.unrealized_pnl_1e9);
    // Rounded up (bigint division truncates toward zero: up for a loss, down for a gain).
    unrealized += pnl >= 0n ? (pnl + 9n) / 10n : pnl / 10n;
  }
  const cash = state.account_value_1e8 - unrealized;
  const total = cash > 0n ? cash : 0n;
  const withdrawable = state.withdrawable_1e8 > 0n ? state.withdrawable_1e8 : 0n;
  const free = withdrawable < total ? withdrawable : total;
  return [{ asset: QUOTE, free_1e8: free, locked_1e8: total - free }];
}

/**
 * A `spotClearinghouseState` answer (`{balances: [{coin, token, total, hold, entryNtl}]}`) as
 * balances, free = total - hold: under a unified account or portfolio margin the perp margin is
 * this USDC ("use spot balances endpoint instead", info-endpoint/perpetuals). Rounded down.
 */
export function decodeSpotBalances(body: unknown): AssetBalance[] | undefined {
  const list = record(body)?.['balances'];
  if (!Array.isArray(list)) return undefined;
  const out: AssetBalance[] = [];
  for (const raw of list as unknown[]) {
    const b = record(raw);
    const total = scaledRounded(b?.['total'], QTY, 'floor');
    const hold = scaledRounded(b?.['hold'] ?? '0', QTY, 'ceil');
    if (b === undefined || typeof b['coin'] !== 'string' || total === undefined || hold === undefined) return undefined;
    const locked = hold < total ? hold : total;
    out.push({ asset: b['coin'], free_1e8: total - locked, locked_1e8: locked > 0n ? locked : 0n });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Orders: POST /info {"type":"orderStatus"} and {"type":"frontendOpenOrders"}

/** How an order is named in a lookup: Hyperliquid's `oid` (decimal text) or our cloid. */
export type OrderRef = { oid: string } | { cloid: string };

/** `oid` takes "Either u64 representing the order id or 16-byte hex string representing the client order id" (info-endpoint). */
export function orderStatusRequest(user: string, ref: OrderRef): string {
  return jsonBody({ type: 'orderStatus', user: address(user, 'user'), oid: 'oid' in ref ? u64(ref.oid) : ref.cloid.toLowerCase() });
}

/** Open orders with `cloid` (plain `openOrders` leaves it out when there is none). */
export function frontendOpenOrdersRequest(user: string): string {
  return jsonBody({ type: 'frontendOpenOrders', user: address(user, 'user') });
}

/** What an order status means for a child. */
export type OrderState = 'working' | 'filled' | 'cancelled' | 'rejected' | 'no-fill';

/**
 * The order statuses of info-endpoint's table: `open` and `triggered` work; `filled`; `canceled`,
 * the `...Canceled` family and `scheduledCancel` (the dead man's switch) end without more fills;
 * `rejected` and the `...Rejected` family never reached the book, except `iocCancelRejected`
 * ("Rejected due to IOC not able to match"), which is an IOC that found nothing: not a refusal.
 * A status the table does not have yet is read by its suffix; undefined when it has none.
 */
export function orderStateOf(status: string): OrderState | undefined {
  if (status === 'open' || status === 'triggered') return 'working';
  if (status === 'filled') return 'filled';
  if (status === 'iocCancelRejected') return 'no-fill';
  if (status === 'rejected' || status.endsWith('Rejected')) return 'rejected';
  if (status === 'canceled' || status.endsWith('Canceled') || status.endsWith('Cancel')) return 'cancelled';
  return undefined;
}

/** An order as the info endpoint reports it, in engine units. */
export interface HyperliquidOrder {
  oid: string;
  /** lowercase, or null */
  cloid: string | null;
  /** our child id, when the cloid is one `hyperliquidCloid` made */
  child_id: string | null;
  coin: string;
  side: 'buy' | 'sell';
  limit_1e9: number;
  /** `origSz` */
  qty_1e8: number;
  /** `sz`: what is left unfilled */
  remaining_1e8: number;
  filled_1e8: number;
  /** the venue's status (`open` for a listed open order) */
  status: string;
  state: OrderState;
  /** what rests on the book: what is left of a working order */
  resting_1e8: number;
  timestamp_ms: number;
  status_ms: number | null;
}

function order(raw: unknown, status: string, statusMs: number | null): HyperliquidOrder | undefined {
  const o = record(raw);
  const state = orderStateOf(status);
  const oid = u64Text(o?.['oid']);
  const side = o?.['side'];
  if (o === undefined || state === undefined || oid === undefined || typeof o['coin'] !== 'string' || (side !== 'B' && side !== 'A')) return undefined;
  const limit = exactScaled(o['limitPx'], PRICE);
  const remaining = exactScaled(o['sz'], QTY);
  // `openOrders` omits origSz on old answers; an open order's original size is then not known beyond what is left.
  const qty = o['origSz'] === undefined ? remaining : exactScaled(o['origSz'], QTY);
  if (!(limit >= 0) || !(remaining >= 0) || !(qty >= remaining)) return undefined;
  const cloid = typeof o['cloid'] === 'string' && CLOID.test(o['cloid']) ? o['cloid'].toLowerCase() : null;
  return {
    oid,
    cloid,
    child_id: cloid === null ? null : (childIdOfCloid(cloid) ?? null),
    coin: o['coin'],
    side: side === 'B' ? 'buy' : 'sell',
    limit_1e9: limit,
    qty_1e8: qty,
    remaining_1e8: remaining,
    filled_1e8: qty - remaining,
    status,
    state,
    resting_1e8: state === 'working' ? remaining : 0,
    timestamp_ms: nonNegativeInteger(o['timestamp']) ?? 0,
    status_ms: statusMs,
  };
}

/**
 * An `orderStatus` answer: `{"status":"order","order":{"order":{...},"status":"<status>",
 * "statusTimestamp":...}}` or `{"status":"unknownOid"}` (the docs' "Missing Order"). Undefined
 * for anything else, or a status that cannot be read.
 */
export function decodeOrderStatus(body: unknown): { found: false } | { found: true; order: HyperliquidOrder } | undefined {
  const b = record(body);
  if (b?.['status'] === 'unknownOid') return { found: false };
  const wrapper = record(b?.['order']);
  if (b?.['status'] !== 'order' || wrapper === undefined || typeof wrapper['status'] !== 'string') return undefined;
  const o = order(wrapper['order'], wrapper['status'], nonNegativeInteger(wrapper['statusTimestamp']) ?? null);
  return o === undefined ? undefined : { found: true, order: o };
}

/** An `openOrders` or `frontendOpenOrders` answer: every order listed is open. Undefined for an unreadable one. */
export function decodeOpenOrders(body: unknown): HyperliquidOrder[] | undefined {
  if (!Array.isArray(body)) return undefined;
  const out: HyperliquidOrder[] = [];
  for (const raw of body as unknown[]) {
    const o = order(raw, 'open', null);
    if (o === undefined) return undefined;
    out.push(o);
  }
  return out;
}

/**
 * A child's report from its order and its fills (the venue's order status has no fills of its
 * own). A rejection is refused with the venue's status as the reason; an IOC that matched
 * nothing is a report without fills.
 */
export function legReportOf(o: HyperliquidOrder, fills: VenueFill[]): LegReport {
  if (o.state === 'rejected') return { ok: false, reason: `hyperliquid: ${o.status}`, fills: [], resting_qty_1e8: 0 };
  return { ok: true, reason: null, fills, resting_qty_1e8: o.resting_1e8 };
}

// ---------------------------------------------------------------------------------------------
// Fills: POST /info {"type":"userFillsByTime"}

/**
 * A user's fills in [start, end] ms, inclusive both ends; "Returns at most 2000 fills per
 * response and only the 10000 most recent fills are available" (info-endpoint), so a wider
 * window is walked from the last returned time. Not aggregated: one row per trade id.
 */
export function userFillsByTimeRequest(user: string, startTime_ms: number, endTime_ms?: number): string {
  return jsonBody({ type: 'userFillsByTime', user: address(user, 'user'), startTime: startTime_ms, endTime: endTime_ms, aggregateByTime: false });
}

/** The most recent 2000 fills. */
export function userFillsRequest(user: string): string {
  return jsonBody({ type: 'userFills', user: address(user, 'user'), aggregateByTime: false });
}

/** Which order's fills: Hyperliquid's oid, or our cloid (fills carry it when the order had one). */
export type FillFilter = { oid: string } | { cloid: string };

/**
 * A `userFills` / `userFillsByTime` answer as fills, oldest first (ties by trade id), only the
 * order `only` names when given. The fill's id is `tid` (unique per partial fill of an order); the
 * price is exact where it fits 1e9 and rounded to nearest past it; `crossed` is the taker side;
 * `fee` ("the total fee, inclusive of builderFee", a negative one a rebate) is in `feeToken`: in
 * the quote (USDC) it is the USD fee, rounded up; in any other token a commission priced by the
 * account's rate. Undefined for an unreadable row (a 2023-era row without `tid` included).
 */
export function decodeUserFills(body: unknown, fees: FeeContext, only?: FillFilter): VenueFill[] | undefined {
  if (!Array.isArray(body)) return undefined;
  const fills: VenueFill[] = [];
  for (const raw of body as unknown[]) {
    const f = record(raw);
    if (f === undefined) return undefined;
    if (only !== undefined && ('oid' in only ? u64Text(f['oid']) !== only.oid : typeof f['cloid'] !== 'string' || f['cloid'].toLowerCase() !== only.cloid.toLowerCase())) continue;
    const tid = u64Text(f['tid']);
    const time = nonNegativeInteger(f['time']);
    if (tid === undefined || time === undefined || typeof f['crossed'] !== 'boolean' || typeof f['feeToken'] !== 'string') return undefined;
    const price = rounded(f['px'], PRICE, 'nearest');
    const qty = exactScaled(f['sz'], QTY);
    if (!(price > 0) || !(qty > 0)) return undefined;
    const isMaker = !f['crossed'];
    const fill: VenueFill = { price_1e9: price, qty_1e8: qty, trade_id: tid, ts_ns: time * NS_PER_MS, fee_1e9: 0, is_maker: isMaker };
    const feeText = f['fee'] ?? '0';
    if (f['feeToken'] === fees.quote) {
      fill.fee_1e9 = rounded(feeText, PRICE, 'ceil');
    } else {
      const qtyFee = rounded(feeText, QTY, 'ceil');
      fill.commission = { asset: f['feeToken'], qty_1e8: qtyFee };
      fill.fee_1e9 = fees.fallbackFee(price, qty, isMaker);
      if (Number.isNaN(qtyFee)) return undefined;
    }
    if (Number.isNaN(fill.fee_1e9)) return undefined;
    fills.push(fill);
  }
  return fills.sort((a, b) => a.ts_ns - b.ts_ns || (BigInt(a.trade_id) < BigInt(b.trade_id) ? -1 : a.trade_id === b.trade_id ? 0 : 1));
}

// ---------------------------------------------------------------------------------------------
// Exchange actions: POST /exchange {action, nonce, signature, vaultAddress?, expiresAfter?}

/**
 * How long an order may wait to be processed: orders carry `expiresAfter` = nonce + this
 * ("a timestamp in milliseconds after which the action will be rejected", exchange-endpoint), so
 * a lookup that finds nothing after it is final. A rejected stale action costs 5x the usual
 * address-based limit, so it is set wide enough not to expire in normal operation.
 */
export const ACCEPT_WINDOW_MS = 5_000;

/**
 * The `order` action for a child: a limit with tif Ioc or Gtc, never reduce-only, our cloid as
 * `c`, keys in the venue's order (`hyperliquidOrderWire`); undefined when the child id has no
 * cloid. Prices and sizes go as decimal text (`hyperliquidFloatToWire` normalizes them).
 */
export function orderAction(instrument: HyperliquidInstrument, childId: string, side: 'buy' | 'sell', terms: OrderTerms, tif: 'ioc' | 'gtc'): ReturnType<typeof hyperliquidOrderAction> | undefined {
  const cloid = hyperliquidCloid(childId);
  if (cloid === undefined) return undefined;
  const wire = hyperliquidOrderWire({
    asset: instrument.asset,
    isBuy: side === 'buy',
    limitPx: formatScaled(terms.px_1e9, PRICE),
    sz: formatScaled(terms.sz_1e8, QTY),
    reduceOnly: false,
    orderType: { limit: { tif: tif === 'ioc' ? 'Ioc' : 'Gtc' } },
    cloid,
  });
  return hyperliquidOrderAction([wire]);
}

/** `cancelByCloid`: `{type, cancels: [{asset, cloid}]}`, keys in the Python SDK's order (the hash depends on it). */
export function cancelByCloidAction(asset: number, cloid: string): { type: 'cancelByCloid'; cancels: { asset: number; cloid: string }[] } {
  if (!CLOID.test(cloid)) throw new Error('a cloid is 0x and 16 bytes of hex');
  return { type: 'cancelByCloid', cancels: [{ asset, cloid: cloid.toLowerCase() }] };
}

/** `cancel` by Hyperliquid's order id: `{type, cancels: [{a, o}]}`. */
export function cancelAction(asset: number, oid: string): { type: 'cancel'; cancels: { a: number; o: number | bigint }[] } {
  if (u64Text(oid) === undefined) throw new Error('an oid is a u64 in decimal');
  return { type: 'cancel', cancels: [{ a: asset, o: u64(oid) }] };
}

/** "The time must be at least 5 seconds after the current time" (exchange-endpoint, Python SDK `schedule_cancel`). */
export const SCHEDULE_CANCEL_MIN_LEAD_MS = 5_000;
/** "The max number of triggers per day is 10. This trigger count is reset at 00:00 UTC." */
export const SCHEDULE_CANCEL_MAX_TRIGGERS_PER_DAY = 10;

/**
 * `scheduleCancel`, the dead man's switch: every open order of the account is cancelled at
 * `time_ms` unless the switch is moved on (sent again) or removed (`null`: the action without a
 * `time`). The switch trips at most 10 times a day, and the venue refuses it until the account
 * has traded enough volume. Throws for a time less than 5 s after `now_ms`.
 */
export function scheduleCancelAction(time_ms: number | null, now_ms: number): { type: 'scheduleCancel'; time?: number } {
  if (time_ms === null) return { type: 'scheduleCancel' };
  if (!Number.isSafeInteger(time_ms) || time_ms < now_ms + SCHEDULE_CANCEL_MIN_LEAD_MS) throw new Error('a scheduled cancel must be at least 5 s ahead');
  return { type: 'scheduleCancel', time: time_ms };
}

/** What signs an action. */
export interface ExchangeSigning {
  privateKey: string;
  /** ms; unique and increasing per signer, within (T - 2 days, T + 1 day) of the block time (nonces-and-api-wallets) */
  nonce: number;
  isMainnet: boolean;
  vaultAddress?: string | null;
  /** ms after which the venue refuses the action (`ACCEPT_WINDOW_MS` after the nonce for orders) */
  expiresAfter?: number | null;
}

/**
 * The JSON body of `POST /exchange` for an L1 action: `{action, nonce, signature: {r, s, v},
 * vaultAddress?, expiresAfter?}`, signed over the action exactly as sent (a vault and an expiry
 * are hashed only when set, and sent only then).
 */
export function exchangeRequestBody(action: object, signing: ExchangeSigning): string {
  const vaultAddress = signing.vaultAddress === undefined || signing.vaultAddress === null ? null : address(signing.vaultAddress, 'vaultAddress');
  const expiresAfter = signing.expiresAfter ?? null;
  const signature: EvmSignature = hyperliquidSignL1Action(signing.privateKey, action, signing.nonce, { isMainnet: signing.isMainnet, vaultAddress, expiresAfter });
  const body: Record<string, unknown> = { action, nonce: signing.nonce, signature };
  if (vaultAddress !== null) body['vaultAddress'] = vaultAddress;
  if (expiresAfter !== null) body['expiresAfter'] = expiresAfter;
  return jsonBody(body);
}

// ---------------------------------------------------------------------------------------------
// Exchange answers and errors

/** What an error says about the request. */
export type HyperliquidErrorKind =
  /** the order is not on the book: "Order was never placed, already canceled, or filled." */
  | 'unknown-order'
  /** an IOC that matched nothing: "Order could not immediately match against any resting orders." (not a refusal: nothing filled) */
  | 'no-fill'
  /** "Insufficient margin to place order." */
  | 'funds'
  /** the signer is unknown or the signature does not recover to it: nothing was done */
  | 'auth'
  /** the address-based limit: "Too many cumulative requests sent (...)"; only cancels still pass */
  | 'rate-limit'
  /** the venue's side failed or answered what cannot be read: the action may have been executed (look the order up by cloid) */
  | 'fate-unknown'
  /** anything else: the request refused as sent */
  | 'refused';

/** Error strings by prefix: error-responses' table, and ccxt's hyperliquid `exceptions.broad` for the top-level ones. */
const ERROR_PREFIXES: readonly (readonly [string, HyperliquidErrorKind])[] = [
  ['Order was never placed, already canceled, or filled.', 'unknown-order'],
  ['Order could not immediately match against any resting orders.', 'no-fill'],
  ['Insufficient margin to place order.', 'funds'],
  ['User or API Wallet ', 'auth'],
  ['Unable to recover signer', 'auth'],
  ['Too many cumulative requests sent', 'rate-limit'],
];

/** The kind of a venue error string. */
export function errorKindOf(message: string): HyperliquidErrorKind {
  for (const [prefix, kind] of ERROR_PREFIXES) if (message.startsWith(prefix)) return kind;
  return 'refused';
}

/**
 * What an HTTP status other than 200 means for a write: 422 a body the venue could not
 * deserialize ("Failed to deserialize the JSON body into the target type", text/plain) and
 * other 4xx are refusals, 429 the IP limit (refused unread), 5xx the venue's side (fate unknown).
 */
export function statusKind(status: number): HyperliquidErrorKind | undefined {
  if (status === 200) return undefined;
  if (status === 429) return 'rate-limit';
  if (status >= 500) return 'fate-unknown';
  return 'refused';
}

export interface HyperliquidError {
  kind: HyperliquidErrorKind;
  /** `hyperliquid: <message>`, a child's reason */
  reason: string;
}

function errorOf(message: string): HyperliquidError {
  return { kind: errorKindOf(message), reason: `hyperliquid: ${message}` };
}

/** One order's fate in an `order` answer. */
export type OrderAck =
  | { kind: 'resting'; oid: string; cloid: string | null }
  /** every unit the order will ever fill (an IOC's remainder is cancelled): `totalSz` at `avgPx`, the average rounded to nearest */
  | { kind: 'filled'; oid: string; cloid: string | null; total_1e8: number; avg_1e9: number }
  | { kind: 'error'; error: HyperliquidError }
  /** "waitingForFill" / "waitingForTrigger": not settled when the answer was written, so looked up by cloid */
  | { kind: 'pending'; status: string };

/**
 * The envelope of every `/exchange` answer, HTTP 200 either way: `{"status":"ok","response":
 * {"type": ..., "data"?: ...}}` or `{"status":"err","response":"<message>"}`, the whole action
 * refused before it reached the book (a wrong signature, an unknown agent, the address limit).
 * A body that is neither, or an "ok" without the expected type, is fate-unknown: it cannot say
 * what was done.
 */
function envelope(body: unknown, ...types: string[]): { ok: true; data: Record<string, unknown> | undefined } | ({ ok: false } & HyperliquidError) {
  const b = record(body);
  if (b?.['status'] === 'err') return { ok: false, ...errorOf(typeof b['response'] === 'string' ? b['response'] : JSON.stringify(b['response'] ?? null)) };
  const response = record(b?.['response']);
  if (b?.['status'] !== 'ok' || response === undefined || !types.includes(response['type'] as string)) return { ok: false, kind: 'fate-unknown', reason: 'hyperliquid: an answer that cannot be read' };
  return { ok: true, data: record(response['data']) };
}

/** The statuses of an `order` or `cancel` answer, one per order of the batch; undefined when not an array of `count`. */
function statusesOf(data: Record<string, unknown> | undefined, count: number): unknown[] | undefined {
  const raw = data?.['statuses'];
  if (!Array.isArray(raw)) return undefined;
  const statuses = raw as unknown[];
  // A payload-level error (an empty batch, some tick checks) comes back once for a whole batch: error-responses.
  if (statuses.length === count) return statuses;
  return statuses.length === 1 ? new Array<unknown>(count).fill(statuses[0]) : undefined;
}

function orderAck(raw: unknown): OrderAck | undefined {
  if (raw === 'waitingForFill' || raw === 'waitingForTrigger') return { kind: 'pending', status: raw };
  const s = record(raw);
  if (s === undefined) return undefined;
  if (typeof s['error'] === 'string') return { kind: 'error', error: errorOf(s['error']) };
  const resting = record(s['resting']);
  const filled = record(s['filled']);
  const inner = resting ?? filled;
  const oid = u64Text(inner?.['oid']);
  if (inner === undefined || oid === undefined) return undefined;
  const cloid = typeof inner['cloid'] === 'string' && CLOID.test(inner['cloid']) ? inner['cloid'].toLowerCase() : null;
  if (resting !== undefined) return { kind: 'resting', oid, cloid };
  const total = exactScaled(inner['totalSz'], QTY);
  const avg = rounded(inner['avgPx'], PRICE, 'nearest');
  return total > 0 && avg > 0 ? { kind: 'filled', oid, cloid, total_1e8: total, avg_1e9: avg } : undefined;
}

/**
 * An `order` answer for a batch of `count` orders (1 for a child): the fate of each, or the
 * whole action's error. A status that cannot be read is fate-unknown for that order.
 */
export function decodeOrderAnswer(body: unknown, count = 1): { ok: true; statuses: OrderAck[] } | ({ ok: false } & HyperliquidError) {
  const env = envelope(body, 'order');
  if (!env.ok) return env;
  const raw = statusesOf(env.data, count);
  if (raw === undefined) return { ok: false, kind: 'fate-unknown', reason: 'hyperliquid: an order answer without one status per order' };
  return { ok: true, statuses: raw.map((s): OrderAck => orderAck(s) ?? { kind: 'error', error: { kind: 'fate-unknown', reason: 'hyperliquid: an order status that cannot be read' } }) };
}

/**
 * The child's report when its order's ack settles it alone: a refusal, or an IOC that matched
 * nothing (a report without fills). Undefined when its fills must be read (resting, filled) or
 * its fate is unknown (a status not yet settled or not readable): then the order is looked up
 * by cloid, and a lookup that finds nothing is final only after `ACCEPT_WINDOW_MS`.
 */
export function settledReportOf(ack: OrderAck): LegReport | undefined {
  if (ack.kind !== 'error' || ack.error.kind === 'fate-unknown') return undefined;
  if (ack.error.kind === 'no-fill') return { ok: true, reason: null, fills: [], resting_qty_1e8: 0 };
  return { ok: false, reason: ack.error.reason, fills: [], resting_qty_1e8: 0 };
}

/** A `cancel` or `cancelByCloid` answer (`statuses: ["success" | {error}]`, the answer's type is "cancel" for both). */
export function decodeCancelAnswer(body: unknown, count = 1): { ok: true; statuses: ({ ok: true } | ({ ok: false } & HyperliquidError))[] } | ({ ok: false } & HyperliquidError) {
  const env = envelope(body, 'cancel');
  if (!env.ok) return env;
  const raw = statusesOf(env.data, count);
  if (raw === undefined) return { ok: false, kind: 'fate-unknown', reason: 'hyperliquid: a cancel answer without one status per cancel' };
  return {
    ok: true,
    statuses: raw.map((s) => {
      if (s === 'success') return { ok: true };
      const error = record(s)?.['error'];
      return typeof error === 'string' ? { ok: false, ...errorOf(error) } : { ok: false, kind: 'fate-unknown', reason: 'hyperliquid: a cancel status that cannot be read' };
    }),
  };
}

/**
 * A `scheduleCancel` answer: `{"status":"ok","response":{"type":"default"}}` (nktkas/hyperliquid's
 * schema; Chainstack's reference shows the type "scheduleCancel", also taken), or the action's error.
 */
export function decodeScheduleCancelAnswer(body: unknown): { ok: true } | ({ ok: false } & HyperliquidError) {
  const env = envelope(body, 'default', 'scheduleCancel');
  return env.ok ? { ok: true } : env;
}

// ---------------------------------------------------------------------------------------------
// Market data: l2Book (REST and WebSocket), asset contexts, funding

/** `POST /info {"type":"l2Book","coin":...}` at full precision ("Returns at most 20 levels per side"). */
export function l2BookRequest(coin: string): string {
  return jsonBody({ type: 'l2Book', coin });
}

function levels(raw: unknown): number[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const list = raw as unknown[];
  const out = new Array<number>(list.length * 2);
  for (let i = 0; i < list.length; i++) {
    const level = record(list[i]);
    const px = exactScaled(level?.['px'], PRICE);
    const sz = exactScaled(level?.['sz'], QTY);
    if (!(px > 0) || !(sz >= 0)) return undefined;
    out[2 * i] = px;
    out[2 * i + 1] = sz;
  }
  return out;
}

/**
 * An l2Book snapshot, `{coin, time, levels: [[{px, sz, n}...bids], [...asks]]}`, shared by the
 * info answer and the WebSocket push. Levels must read exactly (a book never takes a level it
 * could not read); undefined otherwise.
 */
export function decodeL2Book(data: unknown): HyperliquidBookData | undefined {
  const d = record(data);
  const time = nonNegativeInteger(d?.['time']);
  const sides = d?.['levels'];
  if (d === undefined || typeof d['coin'] !== 'string' || time === undefined || !Array.isArray(sides) || sides.length !== 2) return undefined;
  const [bidSide, askSide] = sides as [unknown, unknown];
  const bids = levels(bidSide);
  const asks = levels(askSide);
  return bids === undefined || asks === undefined ? undefined : { coin: d['coin'], time_ms: time, bids, asks };
}

/** The `l2Book` subscription (or unsubscription) for a coin, at full precision. */
export function l2BookSubscription(method: 'subscribe' | 'unsubscribe', coin: string): string {
  return JSON.stringify({ method, subscription: { type: 'l2Book', coin } });
}

/**
 * The heartbeat: "The server will close any connection if it hasn't sent a message to it in the
 * last 60 seconds" (websocket/timeouts-and-heartbeats); `{"method":"ping"}` is answered
 * `{"channel":"pong"}`. Every 30 s, as nktkas/hyperliquid's keep-alive (the Python SDK: 50 s).
 */
export const PING = '{"method":"ping"}';
export const PING_EVERY_MS = 30_000;

/** A WebSocket frame, decoded. */
export type HyperliquidWsMessage =
  /** a book push; `data` null when it could not be read (the book of `coin`, when named, is no longer known) */
  | { kind: 'l2Book'; coin: string | null; data: HyperliquidBookData | null }
  | { kind: 'pong' }
  /** the venue's echo of a (un)subscribe */
  | { kind: 'subscriptionResponse'; method: string; type: string | null; coin: string | null }
  /** `{"channel":"error","data":"..."}` (a refused subscription, a malformed request) */
  | { kind: 'error'; message: string }
  /** the plain-text "Websocket connection established." the server sends first (websocket_manager.py skips it) */
  | { kind: 'greeting' };

/** A frame's text as a message; undefined for other channels and for text that is not JSON. */
export function decodeWsFrame(text: string): HyperliquidWsMessage | undefined {
  if (text === 'Websocket connection established.') return { kind: 'greeting' };
  const frame = record(parseVenueJson(text));
  const channel = frame?.['channel'];
  if (channel === 'pong') return { kind: 'pong' };
  if (channel === 'l2Book') {
    const data = decodeL2Book(frame!['data']);
    const coin = record(frame!['data'])?.['coin'];
    return { kind: 'l2Book', coin: data?.coin ?? (typeof coin === 'string' ? coin : null), data: data ?? null };
  }
  if (channel === 'subscriptionResponse') {
    const data = record(frame!['data']);
    const sub = record(data?.['subscription']);
    return { kind: 'subscriptionResponse', method: typeof data?.['method'] === 'string' ? data['method'] : '', type: typeof sub?.['type'] === 'string' ? sub['type'] : null, coin: typeof sub?.['coin'] === 'string' ? sub['coin'] : null };
  }
  if (channel === 'error') return { kind: 'error', message: typeof frame!['data'] === 'string' ? frame!['data'] : JSON.stringify(frame!['data'] ?? null) };
  return undefined;
}

export function metaAndAssetCtxsRequest(): string {
  return jsonBody({ type: 'metaAndAssetCtxs' });
}

/** A perp's live context (`metaAndAssetCtxs`), in engine units. */
export interface HyperliquidAssetCtx {
  coin: string;
  symbol: string;
  asset: number;
  mark_1e9: number;
  oracle_1e9: number;
  /** null when the book is one-sided */
  mid_1e9: number | null;
  /** `funding`: the rate of the hour under way, a fraction x 1e9 */
  funding_1e9: number;
  /** the same in bps to 4 decimals */
  funding_bps: number;
  /** `premium` in bps to 4 decimals; null when the venue has none (no impact prices) */
  premium_bps: number | null;
  open_interest_1e8: number;
}

/** A fraction's text in bps to 4 decimals (bps x 1e4 = fraction x 1e8), rounded to nearest as the simulated edge rounds. */
function bps4(text: unknown): number {
  const n = rounded(text, QTY, 'nearest');
  return Number.isNaN(n) ? NaN : n / 10_000;
}

/**
 * A `metaAndAssetCtxs` answer, `[meta, [ctx per universe entry]]`: each of our listings with its
 * mark, oracle, mid, funding, premium and open interest, matched to the universe by position.
 * Undefined for an unreadable answer.
 */
export function decodeMetaAndAssetCtxs(body: unknown): { instruments: HyperliquidInstrument[]; ctxs: HyperliquidAssetCtx[] } | undefined {
  if (!Array.isArray(body) || body.length !== 2) return undefined;
  const [meta, list] = body as [unknown, unknown];
  const instruments = decodeMeta(meta);
  if (instruments === undefined || !Array.isArray(list)) return undefined;
  const ctxs: HyperliquidAssetCtx[] = [];
  for (const i of instruments) {
    const c = record((list as unknown[])[i.asset]);
    if (c === undefined) continue;
    const mark = rounded(c['markPx'], PRICE, 'nearest');
    const oracle = rounded(c['oraclePx'], PRICE, 'nearest');
    const mid = optionalRounded(c['midPx'], PRICE, 'nearest');
    const funding = rounded(c['funding'], PRICE, 'nearest');
    const fundingBps = bps4(c['funding']);
    const premium = c['premium'] === null || c['premium'] === undefined ? null : bps4(c['premium']);
    const oi = rounded(c['openInterest'], QTY, 'floor');
    if ([mark, oracle, mid ?? 0, funding, fundingBps, premium ?? 0, oi].some(Number.isNaN)) return undefined;
    ctxs.push({ coin: i.coin, symbol: i.symbol, asset: i.asset, mark_1e9: mark, oracle_1e9: oracle, mid_1e9: mid, funding_1e9: funding, funding_bps: fundingBps, premium_bps: premium, open_interest_1e8: oi });
  }
  return { instruments, ctxs };
}

/** Funding is paid every hour ("premium sampled every 5 seconds, averaged over the hour"; the edge's FUNDING_1H). */
export const FUNDING_INTERVAL_HOURS = 1;

/**
 * The edge's `FundingInfo` from a perp's context at `now_ms`: the rate of the hour under way
 * (`funding` is the predicted hourly rate), paid at the next whole hour; the premium over the
 * oracle, or, when the venue has none, the mark's over the oracle.
 */
export function fundingInfoOf(ctx: HyperliquidAssetCtx, now_ms: number): FundingInfo {
  const next = (Math.floor(now_ms / HOUR_MS) + 1) * HOUR_MS;
  const premium = ctx.premium_bps ?? Math.round(((ctx.mark_1e9 - ctx.oracle_1e9) / ctx.oracle_1e9) * 1e8) / 1e4;
  return { symbol: ctx.symbol, rate_bps: ctx.funding_bps, rate_1e9: ctx.funding_1e9, interval_hours: FUNDING_INTERVAL_HOURS, next_funding_ns: next * NS_PER_MS, premium_bps: premium, ts_ns: now_ms * NS_PER_MS };
}

/** `fundingHistory` of a coin from `startTime` (ms, inclusive) to `endTime` (inclusive, default now); 500 rows an answer, walked by the last time. */
export function fundingHistoryRequest(coin: string, startTime_ms: number, endTime_ms?: number): string {
  return jsonBody({ type: 'fundingHistory', coin, startTime: startTime_ms, endTime: endTime_ms });
}

/** One settled funding of a `fundingHistory` answer. */
export interface HyperliquidFunding {
  coin: string;
  /** the venue's `time` (a few ms after the hour) */
  time_ms: number;
  /** the whole hour it settled at */
  instant_ms: number;
  rate_1e9: number;
  rate_bps: number;
  premium_bps: number;
}

/** A `fundingHistory` answer (`[{coin, fundingRate, premium, time}]`), in the answer's order; undefined for an unreadable row. */
export function decodeFundingHistory(body: unknown): HyperliquidFunding[] | undefined {
  if (!Array.isArray(body)) return undefined;
  const out: HyperliquidFunding[] = [];
  for (const raw of body as unknown[]) {
    const r = record(raw);
    const time = nonNegativeInteger(r?.['time']);
    const rate = rounded(r?.['fundingRate'], PRICE, 'nearest');
    const rateBps = bps4(r?.['fundingRate']);
    const premium = bps4(r?.['premium']);
    if (r === undefined || typeof r['coin'] !== 'string' || time === undefined || [rate, rateBps, premium].some(Number.isNaN)) return undefined;
    out.push({ coin: r['coin'], time_ms: time, instant_ms: time - (time % HOUR_MS), rate_1e9: rate, rate_bps: rateBps, premium_bps: premium });
  }
  return out;
}

/**
 * The edge's `FundingPoint`s, ascending, one per hour. A point needs the price positions paid
 * on at its instant; Hyperliquid pays on the oracle price ("position_size x oracle_price x
 * funding_rate", trading/funding), which no public history serves, so `priceAt` supplies the
 * nearest public one (`decodeHourlyCloses`). Hours it has no price for are left out rather than
 * booked at 0.
 */
export function fundingPointsOf(rows: readonly HyperliquidFunding[], priceAt: (instant_ms: number) => number | undefined): FundingPoint[] {
  const out: FundingPoint[] = [];
  for (const r of rows) {
    const mark = priceAt(r.instant_ms);
    if (mark === undefined || !(mark > 0)) continue;
    out.push({ ts_ns: r.instant_ms * NS_PER_MS, rate_bps: r.rate_bps, rate_1e9: r.rate_1e9, mark_1e9: mark });
  }
  return out.sort((a, b) => a.ts_ns - b.ts_ns);
}

/** `candleSnapshot` of hourly candles over [start, end] ms ("Only the most recent 5000 candles are available"). */
export function hourlyCandlesRequest(coin: string, startTime_ms: number, endTime_ms: number): string {
  return jsonBody({ type: 'candleSnapshot', req: { coin, interval: '1h', startTime: startTime_ms, endTime: endTime_ms } });
}

/**
 * Hourly closes by the whole hour each candle ends at (`T` + 1 ms, `T` being its last ms): the
 * last traded price as the funding of that hour settled. Candles of another interval are skipped.
 */
export function decodeHourlyCloses(body: unknown): Map<number, number> | undefined {
  if (!Array.isArray(body)) return undefined;
  const out = new Map<number, number>();
  for (const raw of body as unknown[]) {
    const c = record(raw);
    const end = nonNegativeInteger(c?.['T']);
    const close = rounded(c?.['c'], PRICE, 'nearest');
    if (c === undefined || end === undefined || !(close > 0)) return undefined;
    if (c['i'] === '1h') out.set(end + 1, close);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Rate limits

/**
 * Hyperliquid's limits (rate-limits):
 *
 *  - per IP, REST: an aggregated weight of 1200 per minute. `/exchange` actions weigh
 *    1 + floor(batch_length / 40); `/info` requests weigh 2 (l2Book, allMids,
 *    clearinghouseState, orderStatus, spotClearinghouseState, exchangeStatus), 60 (userRole) or
 *    20 (all others), plus one per 20 items returned for the history requests (userFills,
 *    userFillsByTime, fundingHistory, userFunding, historicalOrders, recentTrades, ...) and per
 *    60 for candleSnapshot; explorer requests 40.
 *  - per IP, WebSocket: 100 connections, 1000 subscriptions, 10 unique users across user
 *    subscriptions, 2000 messages sent per minute, 100 inflight posts.
 *  - per address, actions only: 1 request per 1 USDC traded since the address began, on an
 *    initial buffer of 10000; once exhausted, one request every 10 s. Cancels have
 *    min(limit + 100000, limit x 2), so an exhausted address can still cancel. A batch of n
 *    orders is one request for the IP limit and n for the address limit; an action refused for
 *    a stale `expiresAfter` costs 5x.
 */
export const RATE_LIMITS = {
  ipWeightPerMinute: 1200,
  ws: { connections: 100, subscriptions: 1000, uniqueUsers: 10, messagesPerMinute: 2000, inflightPosts: 100 },
  address: { initialBuffer: 10_000, requestsPerUsdcTraded: 1, throttledEveryMs: 10_000, cancelHeadroom: 100_000, staleExpiryCost: 5 },
} as const;

const INFO_WEIGHT_2 = new Set(['l2Book', 'allMids', 'clearinghouseState', 'orderStatus', 'spotClearinghouseState', 'exchangeStatus']);
const PER_20_ITEMS = new Set(['recentTrades', 'historicalOrders', 'userFills', 'userFillsByTime', 'fundingHistory', 'userFunding', 'nonUserFundingUpdates', 'twapHistory', 'userTwapSliceFills', 'userTwapSliceFillsByTime', 'delegatorHistory', 'delegatorRewards', 'validatorStats']);

/**
 * The IP weight of an info request of `type` whose answer held `items` rows. The docs charge
 * "an additional rate limit weight per 20 items returned"; a part of 20 is counted as one, so a
 * limiter never under-counts.
 */
export function infoWeight(type: string, items = 0): number {
  const base = INFO_WEIGHT_2.has(type) ? 2 : type === 'userRole' ? 60 : 20;
  if (PER_20_ITEMS.has(type)) return base + Math.ceil(items / 20);
  if (type === 'candleSnapshot') return base + Math.ceil(items / 60);
  return base;
}

/** The IP weight of an `/exchange` action over `batchLength` orders or cancels. */
export function exchangeWeight(batchLength = 1): number {
  return 1 + Math.floor(batchLength / 40);
}

/** The address-based cap of cancels, given the cap of other actions. */
export function cancelCap(limit: number): number {
  return Math.min(limit + RATE_LIMITS.address.cancelHeadroom, limit * 2);
}
