import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebSocket } from 'ws';
import { Address, Secp256k1, Signature, TypedData } from 'ox';
import type { VenueCredentials } from '../../storage/credential-shapes.ts';
import { FakeVenueServer } from './fake-server.ts';

/**
 * A local Polymarket: the CLOB V2 (one loopback host: orders, the account's orders and trades,
 * cancels, balances, books over REST and the market channel at `/ws/market`) and Gamma's catalog
 * (`/events`, `/markets`) on the same host, as the adapter takes both URLs.
 *
 * What it checks as the venue does:
 *   - every L2 request's headers (`POLY_ADDRESS`, `POLY_API_KEY`, `POLY_PASSPHRASE`,
 *     `POLY_TIMESTAMP`, `POLY_SIGNATURE` = URL-safe base64 HMAC-SHA256 keyed by the base64 secret
 *     over timestamp + METHOD + path without query + body), computed here with node:crypto apart
 *     from the adapter's signer: a bad one is refused 401 `{"error":"Unauthorized/Invalid api key"}`;
 *   - every posted order's EIP-712 V2 signature: the `Order` struct rebuilt from the JSON body as
 *     received (ox TypedData under the "Polymarket CTF Exchange" "2" domain of the market's
 *     exchange, CTF or Neg Risk CTF), the signer recovered (ox Secp256k1) and held to the order's
 *     `signer`, which must be the API key's address, and the `maker` to the account's wallet; a
 *     bad one is refused 400 `{"error":"invalid signature"}`. The order id is that digest.
 *   - price range and tick, amount decimals per tick, the $1 marketable minimum, the minimum
 *     size of a resting order, balances ("not enough balance / allowance").
 *   - the L1 requests that yield API keys (`GET /auth/derive-api-key`, `POST /auth/api-key`): the
 *     ClobAuth EIP-712 (domain "ClobAuthDomain" "1", chain 137, no verifying contract) rebuilt
 *     from `POLY_ADDRESS`, `POLY_TIMESTAMP`, `POLY_NONCE` and the fixed message, the signer
 *     recovered from `POLY_SIGNATURE` and held to `POLY_ADDRESS`; a bad one is refused 401
 *     `{"error":"Invalid L1 Request headers"}`. Derive answers the key the address has for that
 *     nonce (400 "Could not derive api key!" when none), create makes one (400 "Could not create
 *     api key" when the nonce has one already); the keys made are accepted on every L2 request.
 *
 * Heartbeats (`POST /v1/heartbeats`, L2): a chain per API key, `{"heartbeat_id": ""}` to start,
 * then the id the last answer gave; any other id is refused 400 `{"error_msg": "Invalid Heartbeat
 * ID", "heartbeat_id": <expected>}`. Once a key has sent one, a deadline without the next
 * (`heartbeatDeadlineMs`, the venue's 10 s) cancels every open order the key placed and ends the
 * chain (the next starts from "" again: that the venue resets it so is this fake's reading).
 *
 * Books: one book per market kept as the YES token's; the NO token's is its mirror (a NO bid at p
 * is a YES ask at 1 - p), as the CLOB shows them. `setLevel` takes either leg and pushes a
 * `price_change` carrying both tokens' changes, each with the SHA-1 summary hash of its book
 * (`generate_orderbook_summary_hash`'s fields and order) and its best bid and ask; a trade pushes
 * each token's whole `book`. REST `/book` answers the same summary, stamped with the book's last
 * change, so its hash equals the last one the stream sent. A FAK order takes the crossing
 * levels (one trade per level, at the level's price, the taker fee of the market's schedule in
 * pUSD); a BUY spends at most its maker amount and takes at most its taker amount of shares, a
 * SELL sells at most its maker amount; a GTC's rest is held open (off the published book; filled
 * only by `fillResting`). Orders are listed (`/data/order/{id}`, `/data/orders`) only while
 * LIVE, as the CLOB lists them; trades list their status MATCHED for a second, then CONFIRMED.
 * Rate limits (`rateLimitNext`): an L2 request over the limit is answered 429 with the docs'
 * body `{"error": "Too Many Requests"}` (resources/error-codes) and, as Cloudflare throttles, a
 * `Retry-After`; nothing is done.
 * Prices 1e9, shares 1e8, pUSD in 6-decimal base units inside, 1e9 (USD) at the knobs.
 */

const P = 1_000_000_000;
const Q = 100_000_000;
const P_BIG = 1_000_000_000n;
/** shares and pUSD have 6 decimals on chain; the engine's shares are 1e8 */
const QTY_PER_BASE = 100;
const USD_PER_BASE_1E9 = 1000n;
const CHAIN_ID = 137;
/** clob-client-v2 config.ts MATIC_CONTRACTS: CTF Exchange V2 and Neg Risk CTF Exchange V2 */
const CTF_EXCHANGE = '0xE111180000d2663C0091e4f400237545B87B996B';
const NEG_RISK_EXCHANGE = '0xe2222d279d744050d28e00520010520000310F59';
const ORDER_FIELDS = [
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
/** decimals of a share count and of a product by tick (clob-client-v2 roundingConfig.ts) */
const AMOUNT_DECIMALS: Record<string, number> = { '0.1': 3, '0.01': 4, '0.005': 5, '0.0025': 6, '0.001': 5, '0.0001': 6 };
/** A chain a ClobAuth for the wrong network is checked under (`wrongL1ChainNext`): Polygon Amoy. */
const OTHER_CHAIN_ID = 80_002;
const CLOB_AUTH_FIELDS = [
  { name: 'address', type: 'address' },
  { name: 'timestamp', type: 'string' },
  { name: 'nonce', type: 'uint256' },
  { name: 'message', type: 'string' },
] as const;
/** The text every ClobAuth carries, fixed by the CLOB. */
const CLOB_AUTH_MESSAGE = 'This message attests that I control the given wallet';
const CONFIRM_AFTER_MS = 1_000;
const END_CURSOR = 'LTE=';

export type FakeTick = '0.1' | '0.01' | '0.005' | '0.0025' | '0.001' | '0.0001';

/** A market to list: `slug` is the catalog's market id and how every knob names the market. */
export interface FakeMarketSpec {
  /** the event's slug: markets added under one slug make one event (two or more: multi-outcome) */
  event: string;
  eventTitle?: string;
  slug: string;
  question?: string;
  /** the candidate's name in a multi-outcome event (Gamma `groupItemTitle`) */
  groupItemTitle?: string;
  /** venue token ids (decimal, no leading zeros); made up when absent, the YES one 77 digits long (a uint256 below 10^77) */
  yesToken?: string;
  noToken?: string;
  conditionId?: string;
  /** default 0.01 */
  tick?: FakeTick;
  /** a resting order's minimum size in shares (Gamma `orderMinSize`), default 5 */
  minSize?: number;
  /** traded on the Neg Risk CTF Exchange (orders signed for it) */
  negRisk?: boolean;
  /** the taker fee schedule (Gamma `feeSchedule`); null: fees off. Default rate 0.02, exponent 1 */
  fee?: { rate: string; exponent: number } | null;
  end_ms?: number;
  /** Gamma's 24 h and total volume in USD */
  volume24hr?: number;
  volumeNum?: number;
}

/** A listed market as the fake holds it. */
export interface FakeMarketInfo {
  marketId: string;
  eventId: string;
  conditionId: string;
  yesToken: string;
  noToken: string;
}

/** An account: an EOA signer (its own funds) or, with `proxy`, a Gnosis safe it owns (signature type 2). */
export interface FakeAccountSpec {
  /** 0x + 64 hex; made up when absent */
  privateKey?: string;
  /** pUSD (USD 1e9) */
  cash_1e9: number;
  /** the funds sit in a safe the signer owns (a made-up address): orders carry it as maker, signature type 2 */
  proxy?: boolean;
  closedOnly?: boolean;
  /**
   * The account's L2 API key (nonce 0): made and stored with the credentials ('stored', the
   * default); made on the venue but not stored ('unstored': derive answers it); or none yet
   * ('none': derive is refused, create makes it). Without 'stored' the credentials hold the signer key alone.
   */
  apiKey?: 'stored' | 'unstored' | 'none';
}

export interface FakeApiKey {
  apiKey: string;
  secret: string;
  passphrase: string;
}

export interface FakeAccountInfo {
  /** how the knobs name the account: its first API key, or its signer address when it was added without one */
  key: string;
  privateKey: string;
  /** the signer's address (checksummed) */
  address: string;
  proxyAddress: string | null;
  /** the API key made when the account was added (null for 'none') */
  api: FakeApiKey | null;
  /** as stored for the venue (storage/credential-shapes.ts `evm_signer`) */
  credentials: VenueCredentials;
}

export type FakeOrderStatus = 'LIVE' | 'MATCHED' | 'CANCELED' | 'CANCELED_MARKET_RESOLVED';

/** An order as `ordersOf` shows it: the CLOB's id (the EIP-712 digest) and its salt, there being no client order id. */
export interface FakeOrderView {
  id: string;
  salt: string;
  status: FakeOrderStatus;
  market_id: string;
  token_id: string;
  side: 'BUY' | 'SELL';
  order_type: string;
  original_1e8: number;
  matched_1e8: number;
  price_1e9: number;
  trade_ids: string[];
  created_ms: number;
}

interface Market {
  info: FakeMarketInfo;
  spec: FakeMarketSpec;
  tick_1e9: number;
  /** the YES token's book: price_1e9 -> shares 1e8 */
  bids: Map<number, number>;
  asks: Map<number, number>;
  /** each token's last change, ms */
  stamp: Map<string, number>;
  lastTrade_1e9: number;
  closed: boolean;
  yesWon: boolean | null;
  closed_ms: number | null;
  created_ms: number;
  brokenNext: 'gap' | 'hash' | null;
}

/** An API key as the venue holds it: its account and the L1 nonce it was made under. */
interface ApiKey extends FakeApiKey {
  account: Account;
  nonce: string;
}

interface Account {
  info: FakeAccountInfo;
  /** API keys by L1 nonce */
  keys: Map<string, ApiKey>;
  signatureType: 0 | 2;
  maker: string;
  cash_base: bigint;
  /** shares by venue token id, base units */
  positions: Map<string, bigint>;
  closedOnly: boolean;
}

interface Order {
  view: FakeOrderView;
  account: Account;
  /** the API key that placed it (the owner the dead man's switch cancels by) */
  apiKey: string;
  market: Market;
  token: string;
  /** base units */
  makerAmount: bigint;
  takerAmount: bigint;
}

interface Trade {
  account: Account;
  row: Record<string, unknown>;
  token: string;
  market: Market;
  match_ms: number;
}

/** A decimal's text from an integer x 10^places, without trailing zeros (the venue writes "0.45", "30"). */
function text(value: bigint | number, places: number): string {
  const v = BigInt(value);
  const negative = v < 0n;
  const digits = (negative ? -v : v).toString().padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places);
  const frac = digits.slice(digits.length - places).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${frac === '' ? '' : `.${frac}`}`;
}

/** A decimal text as an integer x 10^places; undefined when it is not one at that scale. */
function scaled(t: string, places: number): bigint | undefined {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(t);
  if (m === null || (m[2] ?? '').replace(/0+$/, '').length > places) return undefined;
  return BigInt(m[1]!) * 10n ** BigInt(places) + BigInt((m[2] ?? '').padEnd(places, '0').slice(0, places) || '0');
}

const cursorOf = (offset: number) => Buffer.from(String(offset)).toString('base64');

type Send = (status: number, answer: unknown, headers?: Record<string, string>) => void;

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return typeof v === 'string' ? v : undefined;
}

/** An API key as the auth endpoints answer it (clob-client-v2 ApiKeyRaw). */
function apiKeyJson(api: FakeApiKey): Record<string, string> {
  return { apiKey: api.apiKey, secret: api.secret, passphrase: api.passphrase };
}

export class PolymarketFake extends FakeVenueServer {
  /** Knobs. The next N order placements are executed and their answer dropped (the socket destroyed). */
  swallowOrderAnswers = 0;
  /** The next N orders are checked against the other exchange's domain (a neg-risk flag the catalog got wrong): their signature recovers to another address. */
  wrongDomainNext = 0;
  /** Page size of `/data/orders` and `/data/trades`. */
  pageSize = 100;
  /** The next N L2 requests are throttled: 429, nothing done. Public reads (Gamma, `/book`) are left alone so background audits cannot use them up. */
  rateLimitNext = 0;
  /** The throttled answers' `Retry-After` in seconds; null sends none. Short, so a test can wait it out. */
  rateLimitRetryAfterS: number | null = 1;
  /** The next N L1 requests are checked as signed for another chain (a ClobAuth for the wrong network): their signature recovers to another address. */
  wrongL1ChainNext = 0;
  /** How long after a key's last heartbeat its open orders are cancelled (the venue's 10 s); read when a heartbeat arrives. */
  heartbeatDeadlineMs = 10_000;
  readonly seen = {
    requests: 0,
    orders: 0,
    rate_limited: 0,
    signatures_refused: 0,
    l2_refused: 0,
    l1_refused: 0,
    api_key_derives: 0,
    api_key_creates: 0,
    heartbeats: 0,
    heartbeats_refused: 0,
    dead_man_cancels: 0,
    order_reads: 0,
    open_order_pages: 0,
    trade_pages: 0,
    cancels: 0,
    cancel_alls: 0,
    cancel_market_orders: 0,
    book_reads: 0,
    gamma_event_pages: 0,
    gamma_market_reads: 0,
    subscriptions: 0,
    pings: 0,
  };
  private readonly markets = new Map<string, Market>();
  private readonly byToken = new Map<string, Market>();
  private readonly events = new Map<string, { id: string; slug: string; title: string; markets: Market[] }>();
  private readonly accounts = new Map<string, Account>();
  private readonly byAddress = new Map<string, Account>();
  private readonly apiKeys = new Map<string, ApiKey>();
  /** the heartbeat chain of each API key that has sent one: the id expected next and its deadline */
  private readonly heartbeatChains = new Map<string, { id: string; deadline: NodeJS.Timeout }>();
  /** orders kept out of open-order lists and bulk cancels (`hideFromSweep`) */
  private readonly unswept = new Set<string>();
  private readonly orders = new Map<string, Order>();
  private readonly trades: Trade[] = [];
  private lastStamp = 0;
  private nextEventId = 16_000;

  constructor() {
    super('/ws/market');
  }

  // --- knobs ---------------------------------------------------------------------------------

  addMarket(spec: FakeMarketSpec): FakeMarketInfo {
    if (this.markets.has(spec.slug)) throw new Error(`market ${spec.slug} listed twice`);
    let event = this.events.get(spec.event);
    if (event === undefined) this.events.set(spec.event, (event = { id: String(this.nextEventId++), slug: spec.event, title: spec.eventTitle ?? spec.event, markets: [] }));
    const info: FakeMarketInfo = {
      marketId: spec.slug,
      eventId: event.id,
      conditionId: spec.conditionId ?? `0x${randomBytes(32).toString('hex')}`,
      yesToken: spec.yesToken ?? madeUpToken(77),
      noToken: spec.noToken ?? madeUpToken(78),
    };
    const tick = spec.tick ?? '0.01';
    const now = Date.now();
    const m: Market = { info, spec, tick_1e9: Number(scaled(tick, 9)), bids: new Map(), asks: new Map(), stamp: new Map([[info.yesToken, now], [info.noToken, now]]), lastTrade_1e9: P / 2, closed: false, yesWon: null, closed_ms: null, created_ms: now, brokenNext: null };
    this.markets.set(spec.slug, m);
    this.byToken.set(info.yesToken, m);
    this.byToken.set(info.noToken, m);
    event.markets.push(m);
    return info;
  }

  addAccount(spec: FakeAccountSpec): FakeAccountInfo {
    const privateKey = spec.privateKey ?? `0x${randomBytes(32).toString('hex')}`;
    const address = Address.fromPublicKey(Secp256k1.getPublicKey({ privateKey: privateKey as `0x${string}` }));
    const proxyAddress = spec.proxy === true ? Address.checksum(`0x${randomBytes(20).toString('hex')}`) : null;
    const mode = spec.apiKey ?? 'stored';
    const signerOnly: VenueCredentials = { api_key: '', api_secret: '', extra_json: { signer_private_key: privateKey, ...(proxyAddress === null ? {} : { proxy_address: proxyAddress }) } };
    const info: FakeAccountInfo = { key: address, privateKey, address, proxyAddress, api: null, credentials: signerOnly };
    const account: Account = { info, keys: new Map(), signatureType: proxyAddress === null ? 0 : 2, maker: proxyAddress ?? address, cash_base: BigInt(spec.cash_1e9) / USD_PER_BASE_1E9, positions: new Map(), closedOnly: spec.closedOnly === true };
    if (mode !== 'none') {
      const { apiKey, secret, passphrase } = this.makeApiKey(account, '0');
      info.key = apiKey;
      info.api = { apiKey, secret, passphrase };
      if (mode === 'stored') info.credentials = { ...signerOnly, api_key: apiKey, api_secret: secret, passphrase };
    }
    this.accounts.set(info.key, account);
    this.byAddress.set(address.toLowerCase(), account);
    return info;
  }

  /** The account's API keys as the venue holds them, oldest first. */
  apiKeysOf(accountKey: string): FakeApiKey[] {
    return [...this.account(accountKey).keys.values()].map(({ apiKey, secret, passphrase }) => ({ apiKey, secret, passphrase }));
  }

  /** Every API key of the account is revoked: L2 requests signed with one are refused 401 from now on, and the next create makes a new one. */
  revokeApiKeys(accountKey: string): void {
    const a = this.account(accountKey);
    for (const k of a.keys.values()) {
      this.apiKeys.delete(k.apiKey);
      this.endHeartbeats(k.apiKey);
    }
    a.keys.clear();
  }

  /**
   * The order is left out of `/data/orders` and of `/cancel-all` and `/cancel-market-orders`
   * until something cancels it: an order that reaches the book just after the kill switch's
   * sweep read the list. Read by id, and cancelled by id or by the dead man's switch, as any other.
   */
  hideFromSweep(orderId: string): void {
    this.unswept.add(orderId.toLowerCase());
  }

  /** Sets a level of either leg's book (qty 0 removes it) and pushes the change of both tokens. */
  setLevel(marketId: string, leg: 'YES' | 'NO', side: 'bid' | 'ask', price_1e9: number, qty_1e8: number): void {
    const m = this.market(marketId);
    const yesSide = leg === 'YES' ? side : side === 'bid' ? 'ask' : 'bid';
    const yesPrice = leg === 'YES' ? price_1e9 : P - price_1e9;
    const levels = yesSide === 'bid' ? m.bids : m.asks;
    if (qty_1e8 > 0) levels.set(yesPrice, qty_1e8);
    else levels.delete(yesPrice);
    this.pushChange(m, yesSide, yesPrice, qty_1e8);
  }

  /** The market's outcome is determined: closed, resolved on Gamma, its open orders cancelled, `market_resolved` pushed. */
  resolve(marketId: string, yesWon: boolean): void {
    const m = this.market(marketId);
    m.closed = true;
    m.yesWon = yesWon;
    m.closed_ms = Date.now();
    for (const o of this.orders.values()) if (o.market === m && o.view.status === 'LIVE') o.view.status = 'CANCELED_MARKET_RESOLVED';
    const event = { event_type: 'market_resolved', market: m.info.conditionId, assets_ids: [m.info.yesToken, m.info.noToken], winning_asset_id: yesWon ? m.info.yesToken : m.info.noToken, timestamp: String(this.stamp()) };
    this.sendToMarket(m, JSON.stringify(event));
  }

  /** The next `price_change` of the market is broken: stamped before the last one ('gap'), or with a wrong size under the true book's hash ('hash'). */
  breakNextDelta(marketId: string, how: 'gap' | 'hash' = 'gap'): void {
    this.market(marketId).brokenNext = how;
  }

  /** Every order the fake holds for the account (by its knob name, `FakeAccountInfo.key`), oldest first. */
  ordersOf(accountKey: string): FakeOrderView[] {
    return [...this.orders.values()].filter((o) => o.account.info.key === accountKey).map((o) => ({ ...o.view, trade_ids: [...o.view.trade_ids] }));
  }

  /** The account's pUSD (USD 1e9). */
  cashOf(accountKey: string): number {
    return Number(this.account(accountKey).cash_base * USD_PER_BASE_1E9);
  }

  /** The account's shares of a market's leg (1e8). */
  positionOf(accountKey: string, marketId: string, leg: 'YES' | 'NO'): number {
    const m = this.market(marketId);
    return Number(this.account(accountKey).positions.get(leg === 'YES' ? m.info.yesToken : m.info.noToken) ?? 0n) * QTY_PER_BASE;
  }

  setPosition(accountKey: string, marketId: string, leg: 'YES' | 'NO', qty_1e8: number): void {
    const m = this.market(marketId);
    this.account(accountKey).positions.set(leg === 'YES' ? m.info.yesToken : m.info.noToken, BigInt(Math.floor(qty_1e8 / QTY_PER_BASE)));
  }

  /** A resting (GTC) order meets a taker: `qty_1e8` of it fills at its price, as maker (no fee). */
  fillResting(orderId: string, qty_1e8: number): void {
    const o = this.orders.get(orderId.toLowerCase());
    if (o === undefined || o.view.status !== 'LIVE') throw new Error(`no live order ${orderId}`);
    const take = Math.min(qty_1e8, o.view.original_1e8 - o.view.matched_1e8);
    const shares = BigInt(Math.floor(take / QTY_PER_BASE));
    const amount = (shares * BigInt(o.view.price_1e9)) / P_BIG;
    const a = o.account;
    const held = a.positions.get(o.token) ?? 0n;
    if (o.view.side === 'BUY') {
      a.cash_base -= amount;
      a.positions.set(o.token, held + shares);
    } else {
      a.cash_base += amount;
      a.positions.set(o.token, held - shares);
    }
    o.view.matched_1e8 += take;
    if (o.view.matched_1e8 >= o.view.original_1e8) o.view.status = 'MATCHED';
    const id = randomUUID();
    o.view.trade_ids.push(id);
    const now = Date.now();
    const outcome = o.token === o.market.info.yesToken ? 'Yes' : 'No';
    this.trades.push({
      account: a,
      token: o.token,
      market: o.market,
      match_ms: now,
      row: {
        id,
        taker_order_id: `0x${randomBytes(32).toString('hex')}`,
        market: o.market.info.conditionId,
        asset_id: o.token,
        side: o.view.side === 'BUY' ? 'SELL' : 'BUY',
        size: text(take, 8),
        fee_rate_bps: '0',
        price: text(o.view.price_1e9, 9),
        match_time: String(Math.floor(now / 1000)),
        outcome,
        bucket_index: 0,
        owner: 'fake-taker',
        maker_address: `0x${randomBytes(20).toString('hex')}`,
        transaction_hash: `0x${randomBytes(32).toString('hex')}`,
        trader_side: 'MAKER',
        maker_orders: [{ order_id: o.view.id, owner: o.apiKey, maker_address: a.maker, matched_amount: text(take, 8), price: text(o.view.price_1e9, 9), fee_rate_bps: '0', asset_id: o.token, outcome, side: o.view.side }],
      },
    });
  }

  private market(marketId: string): Market {
    const m = this.markets.get(marketId);
    if (m === undefined) throw new Error(`no market ${marketId}`);
    return m;
  }

  private account(key: string): Account {
    const a = this.accounts.get(key);
    if (a === undefined) throw new Error(`no account ${key}`);
    return a;
  }

  /** The venue's clock for book events: ms, strictly increasing. */
  private stamp(): number {
    this.lastStamp = Math.max(Date.now(), this.lastStamp + 1);
    return this.lastStamp;
  }

  // --- books ---------------------------------------------------------------------------------

  /** A token's book, best first: the YES book as kept, the NO book its mirror. */
  private bookOf(m: Market, token: string): { bids: [number, number][]; asks: [number, number][] } {
    const desc = (a: [number, number], b: [number, number]) => b[0] - a[0];
    const asc = (a: [number, number], b: [number, number]) => a[0] - b[0];
    if (token === m.info.yesToken) return { bids: [...m.bids].sort(desc), asks: [...m.asks].sort(asc) };
    const mirror = (levels: Map<number, number>) => [...levels].map(([p, q]): [number, number] => [P - p, q]);
    return { bids: mirror(m.asks).sort(desc), asks: mirror(m.bids).sort(asc) };
  }

  /** The REST `/book` answer (and, less the summary fields, a stream `book`): levels worst first, every value as text, the SHA-1 summary hash. */
  private summary(m: Market, token: string): Record<string, unknown> {
    const book = this.bookOf(m, token);
    const level = ([p, q]: [number, number]) => ({ price: text(p, 9), size: text(q, 8) });
    const body: Record<string, unknown> = {
      market: m.info.conditionId,
      asset_id: token,
      timestamp: String(m.stamp.get(token)!),
      hash: '',
      bids: [...book.bids].reverse().map(level),
      asks: [...book.asks].reverse().map(level),
      min_order_size: String(m.spec.minSize ?? 5),
      tick_size: m.spec.tick ?? '0.01',
      neg_risk: m.spec.negRisk === true,
      last_trade_price: text(m.lastTrade_1e9, 9),
    };
    body['hash'] = createHash('sha1').update(JSON.stringify(body)).digest('hex');
    return body;
  }

  private bookEvent(m: Market, token: string): Record<string, unknown> {
    const s = this.summary(m, token);
    return { event_type: 'book', asset_id: token, market: m.info.conditionId, bids: s['bids'], asks: s['asks'], timestamp: s['timestamp'], hash: s['hash'] };
  }

  private best(m: Market, token: string): { best_bid: string; best_ask: string } {
    const book = this.bookOf(m, token);
    return { best_bid: book.bids.length === 0 ? '0' : text(book.bids[0]![0], 9), best_ask: book.asks.length === 0 ? '1' : text(book.asks[0]![0], 9) };
  }

  /** A YES level changed: `price_change` with the YES change and its NO mirror, each with its book's hash after it. */
  private pushChange(m: Market, yesSide: 'bid' | 'ask', yesPrice: number, qty: number): void {
    const ts = this.stamp();
    const previous = Math.min(m.stamp.get(m.info.yesToken)!, m.stamp.get(m.info.noToken)!);
    m.stamp.set(m.info.yesToken, ts);
    m.stamp.set(m.info.noToken, ts);
    const broken = m.brokenNext;
    m.brokenNext = null;
    const change = (token: string, side: 'BUY' | 'SELL', price: number) => ({
      asset_id: token,
      price: text(price, 9),
      size: text(broken === 'hash' ? qty + Q : qty, 8),
      side,
      hash: this.summary(m, token)['hash'],
      ...this.best(m, token),
    });
    const changes = [change(m.info.yesToken, yesSide === 'bid' ? 'BUY' : 'SELL', yesPrice), change(m.info.noToken, yesSide === 'bid' ? 'SELL' : 'BUY', P - yesPrice)];
    const stampSent = broken === 'gap' ? previous - 1_000 : ts;
    this.sendToMarket(m, JSON.stringify({ market: m.info.conditionId, price_changes: changes, timestamp: String(stampSent), event_type: 'price_change' }));
  }

  /** After a trade the venue sends each token's whole book again. */
  private pushBooks(m: Market): void {
    const ts = this.stamp();
    m.stamp.set(m.info.yesToken, ts);
    m.stamp.set(m.info.noToken, ts);
    this.sendToMarket(m, JSON.stringify([this.bookEvent(m, m.info.yesToken), this.bookEvent(m, m.info.noToken)]));
  }

  /** Sends a frame once to every socket subscribed to either token of the market. */
  private sendToMarket(m: Market, frame: string): void {
    for (const [ws, tokens] of this.subscribers) if (tokens.has(m.info.yesToken) || tokens.has(m.info.noToken)) ws.send(frame);
  }

  // --- the market channel ---------------------------------------------------------------------

  protected onWsMessage(ws: WebSocket, raw: string): void {
    if (raw === 'PING') {
      this.seen.pings++;
      ws.send('PONG');
      return;
    }
    let msg: { assets_ids?: unknown; type?: unknown; operation?: unknown };
    try {
      msg = JSON.parse(raw) as typeof msg;
    } catch {
      return;
    }
    const ids = Array.isArray(msg.assets_ids) ? msg.assets_ids.filter((x): x is string => typeof x === 'string') : [];
    const tokens = this.subscribers.get(ws)!;
    if (msg.operation === 'unsubscribe') {
      for (const id of ids) tokens.delete(id);
      return;
    }
    if (msg.operation !== 'subscribe' && String(msg.type).toLowerCase() !== 'market') return;
    this.seen.subscriptions++;
    const books: Record<string, unknown>[] = [];
    for (const id of ids) {
      tokens.add(id);
      const m = this.byToken.get(id);
      if (m !== undefined && !m.closed) books.push(this.bookEvent(m, id));
    }
    if (books.length > 0) ws.send(JSON.stringify(books));
  }

  // --- HTTP ----------------------------------------------------------------------------------

  protected async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.seen.requests++;
    const body = await FakeVenueServer.body(req);
    const url = new URL(req.url ?? '/', 'http://fake');
    const send = (status: number, answer: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(answer));
    };
    const route = `${req.method} ${url.pathname}`;
    // Public: Gamma and the book.
    if (route === 'GET /events') return send(200, this.gammaEvents(url.searchParams));
    if (route === 'GET /markets') return send(200, this.gammaMarkets(url.searchParams));
    if (route === 'GET /book') {
      this.seen.book_reads++;
      const token = canonical(url.searchParams.get('token_id') ?? '');
      const m = this.byToken.get(token);
      if (m === undefined || m.closed) return send(404, { error: 'No orderbook exists for the requested token id' });
      return send(200, this.summary(m, token));
    }
    // Before the L2 check: Cloudflare throttles in front of the CLOB, which never sees the request.
    if (this.rateLimitNext > 0) {
      this.rateLimitNext--;
      this.seen.rate_limited++;
      return send(429, { error: 'Too Many Requests' }, this.rateLimitRetryAfterS === null ? {} : { 'retry-after': String(this.rateLimitRetryAfterS) });
    }
    if (route === 'GET /auth/derive-api-key' || route === 'POST /auth/api-key') return this.l1ApiKey(req, route === 'POST /auth/api-key', send);
    const api = this.authenticated(req, url.pathname, body);
    if (api === undefined) {
      this.seen.l2_refused++;
      this.seen.signatures_refused++;
      return send(401, { error: 'Unauthorized/Invalid api key' });
    }
    const account = api.account;
    if (route === 'POST /order') return this.postOrder(api, body, res, send);
    if (req.method === 'GET' && url.pathname.startsWith('/data/order/')) {
      this.seen.order_reads++;
      const o = this.orders.get(url.pathname.slice('/data/order/'.length).toLowerCase());
      return send(200, o !== undefined && o.account === account && o.view.status === 'LIVE' ? this.orderJson(o) : null);
    }
    switch (route) {
      case 'GET /data/orders':
        return send(200, this.openOrders(account, url.searchParams));
      case 'GET /data/trades':
        return send(200, this.tradesPage(account, url.searchParams));
      case 'DELETE /order': {
        this.seen.cancels++;
        const id = String(parse(body)?.['orderID'] ?? '');
        return send(200, this.cancelOrders(account, [...this.orders.values()].filter((o) => o.view.id === id.toLowerCase()), [id]));
      }
      case 'DELETE /cancel-all':
        this.seen.cancel_alls++;
        return send(200, this.cancelOrders(account, this.swept(), []));
      case 'DELETE /cancel-market-orders': {
        this.seen.cancel_market_orders++;
        const filter = parse(body) ?? {};
        const market = typeof filter['market'] === 'string' ? filter['market'] : undefined;
        const asset = typeof filter['asset_id'] === 'string' ? canonical(filter['asset_id']) : undefined;
        return send(200, this.cancelOrders(account, this.swept().filter((o) => (market === undefined || o.market.info.conditionId === market) && (asset === undefined || o.token === asset)), []));
      }
      case 'GET /balance-allowance':
        return send(200, this.balance(account, url.searchParams));
      case 'GET /auth/ban-status/closed-only':
        return send(200, { closed_only: account.closedOnly });
      case 'POST /v1/heartbeats':
        return this.heartbeat(api, body, send);
      default:
        return send(404, { error: 'not found' });
    }
  }

  /** The API key of a request whose L2 headers check out, else undefined. */
  private authenticated(req: IncomingMessage, path: string, body: string): ApiKey | undefined {
    const header = (name: string) => headerOf(req, name);
    const key = header('POLY_API_KEY');
    const api = key === undefined ? undefined : this.apiKeys.get(key);
    const ts = header('POLY_TIMESTAMP');
    const signature = header('POLY_SIGNATURE');
    if (api === undefined || ts === undefined || !/^\d+$/.test(ts) || signature === undefined) return undefined;
    if (header('POLY_PASSPHRASE') !== api.passphrase || header('POLY_ADDRESS')?.toLowerCase() !== api.account.info.address.toLowerCase()) return undefined;
    const expected = createHmac('sha256', Buffer.from(api.secret, 'base64')).update(`${ts}${req.method}${path}${body}`).digest('base64').replace(/\+/g, '-').replace(/\//g, '_');
    return expected === signature ? api : undefined;
  }

  // --- API keys (L1) -------------------------------------------------------------------------

  /** `GET /auth/derive-api-key` and `POST /auth/api-key`: the ClobAuth checked, then the address's key for the nonce answered, or made. */
  private l1ApiKey(req: IncomingMessage, create: boolean, send: Send): void {
    const signer = this.clobAuthSigner(req);
    if (signer === undefined) {
      this.seen.l1_refused++;
      return send(401, { error: 'Invalid L1 Request headers' });
    }
    const account = this.byAddress.get(signer.address.toLowerCase());
    const existing = account?.keys.get(signer.nonce);
    if (create) {
      this.seen.api_key_creates++;
      if (account === undefined || existing !== undefined) return send(400, { error: 'Could not create api key' });
      return send(200, apiKeyJson(this.makeApiKey(account, signer.nonce)));
    }
    this.seen.api_key_derives++;
    if (existing === undefined) return send(400, { error: 'Could not derive api key!' });
    return send(200, apiKeyJson(existing));
  }

  /** The address and nonce of an L1 request whose ClobAuth signature recovers to its `POLY_ADDRESS`, else undefined. */
  private clobAuthSigner(req: IncomingMessage): { address: string; nonce: string } | undefined {
    const address = headerOf(req, 'POLY_ADDRESS');
    const ts = headerOf(req, 'POLY_TIMESTAMP');
    const nonce = headerOf(req, 'POLY_NONCE');
    const signature = headerOf(req, 'POLY_SIGNATURE');
    if (address === undefined || !/^0x[0-9a-fA-F]{40}$/.test(address) || ts === undefined || !/^\d+$/.test(ts) || nonce === undefined || !/^\d+$/.test(nonce) || signature === undefined) return undefined;
    const chainId = this.wrongL1ChainNext > 0 ? OTHER_CHAIN_ID : CHAIN_ID;
    if (this.wrongL1ChainNext > 0) this.wrongL1ChainNext--;
    const payload = TypedData.getSignPayload({
      domain: { name: 'ClobAuthDomain', version: '1', chainId },
      types: { ClobAuth: CLOB_AUTH_FIELDS },
      primaryType: 'ClobAuth',
      message: { address: address as `0x${string}`, timestamp: ts, nonce: BigInt(nonce), message: CLOB_AUTH_MESSAGE },
    });
    let recovered = '';
    try {
      recovered = Secp256k1.recoverAddress({ payload, signature: Signature.fromHex(signature as `0x${string}`) });
    } catch {
      recovered = '';
    }
    return recovered.toLowerCase() === address.toLowerCase() ? { address, nonce: BigInt(nonce).toString() } : undefined;
  }

  private makeApiKey(account: Account, nonce: string): ApiKey {
    const api: ApiKey = { apiKey: randomUUID(), secret: randomBytes(32).toString('base64url') + '=', passphrase: randomBytes(32).toString('hex'), account, nonce };
    account.keys.set(nonce, api);
    this.apiKeys.set(api.apiKey, api);
    return api;
  }

  // --- heartbeats (the dead man's switch) ---------------------------------------------------

  /** `POST /v1/heartbeats`: the id the key's chain expects ("" before its first) moves the deadline and answers the next id. */
  private heartbeat(api: ApiKey, body: string, send: Send): void {
    const sent = parse(body)?.['heartbeat_id'];
    const chain = this.heartbeatChains.get(api.apiKey);
    const expected = chain?.id ?? '';
    if (sent !== expected) {
      this.seen.heartbeats_refused++;
      return send(400, { error_msg: 'Invalid Heartbeat ID', heartbeat_id: expected });
    }
    this.seen.heartbeats++;
    if (chain !== undefined) clearTimeout(chain.deadline);
    const id = randomUUID();
    const deadline = setTimeout(() => this.deadManFired(api.apiKey), this.heartbeatDeadlineMs);
    deadline.unref();
    this.heartbeatChains.set(api.apiKey, { id, deadline });
    send(200, { heartbeat_id: id });
  }

  /** The key missed its deadline: every open order it placed is cancelled, and its chain ends. */
  private deadManFired(apiKey: string): void {
    this.heartbeatChains.delete(apiKey);
    for (const o of this.orders.values()) {
      if (o.apiKey !== apiKey || o.view.status !== 'LIVE') continue;
      o.view.status = 'CANCELED';
      this.unswept.delete(o.view.id);
      this.seen.dead_man_cancels++;
    }
  }

  private endHeartbeats(apiKey: string): void {
    const chain = this.heartbeatChains.get(apiKey);
    if (chain !== undefined) clearTimeout(chain.deadline);
    this.heartbeatChains.delete(apiKey);
  }

  override async close(): Promise<void> {
    for (const apiKey of [...this.heartbeatChains.keys()]) this.endHeartbeats(apiKey);
    await super.close();
  }

  // --- orders --------------------------------------------------------------------------------

  private postOrder(api: ApiKey, body: string, res: ServerResponse, send: Send): void {
    this.seen.orders++;
    const answer = this.placeOrder(api, body);
    if (this.swallowOrderAnswers > 0) {
      this.swallowOrderAnswers--;
      res.socket?.destroy();
      return;
    }
    send(answer.status, answer.body);
  }

  private placeOrder(api: ApiKey, body: string): { status: number; body: unknown } {
    const account = api.account;
    const refuse = (error: string) => ({ status: 400, body: { error } });
    const b = parse(body);
    const o = b === undefined ? undefined : parse(b['order']);
    const orderType = typeof b?.['orderType'] === 'string' ? b['orderType'] : '';
    // FOK and GTD are the venue's too; the fake serves what the adapter sends.
    if (b === undefined || o === undefined || (orderType !== 'FAK' && orderType !== 'GTC')) return refuse('Invalid order payload');
    if (b['owner'] !== api.apiKey) return refuse('the order owner has to be the owner of the API KEY');
    const signer = typeof o['signer'] === 'string' ? o['signer'] : '';
    const maker = typeof o['maker'] === 'string' ? o['maker'] : '';
    if (signer.toLowerCase() !== account.info.address.toLowerCase()) return refuse('the order signer address has to be the address of the API KEY');
    if (maker.toLowerCase() !== account.maker.toLowerCase() || o['signatureType'] !== account.signatureType) return refuse('maker address not allowed, please use the deposit wallet flow');
    const token = typeof o['tokenId'] === 'string' && /^\d+$/.test(o['tokenId']) ? o['tokenId'] : '';
    const m = this.byToken.get(token);
    if (m === undefined) return refuse(`the orderbook ${token} does not exist`);
    const struct = structOf(o);
    if (struct === undefined) return refuse('Invalid order payload');
    const negRisk = (m.spec.negRisk === true) !== this.wrongDomainNext > 0;
    if (this.wrongDomainNext > 0) this.wrongDomainNext--;
    const domain = { name: 'Polymarket CTF Exchange', version: '2', chainId: CHAIN_ID, verifyingContract: (negRisk ? NEG_RISK_EXCHANGE : CTF_EXCHANGE) as `0x${string}` };
    const id = TypedData.getSignPayload({ domain, types: { Order: ORDER_FIELDS }, primaryType: 'Order', message: struct }).toLowerCase();
    let recovered = '';
    try {
      recovered = Secp256k1.recoverAddress({ payload: id as `0x${string}`, signature: Signature.fromHex(String(o['signature']) as `0x${string}`) });
    } catch {
      recovered = '';
    }
    if (recovered.toLowerCase() !== signer.toLowerCase()) {
      this.seen.signatures_refused++;
      return refuse('invalid signature');
    }
    if (this.orders.has(id)) return refuse(`order ${id} is invalid. Duplicated.`);
    if (m.closed) return refuse('the market is closed');
    if (account.closedOnly && struct.side === 0) return refuse('address in closed only mode');
    const terms = termsOf(m, struct.side === 0 ? 'BUY' : 'SELL', struct.makerAmount, struct.takerAmount, orderType);
    if (typeof terms === 'string') return refuse(terms);
    const held = struct.side === 0 ? account.cash_base : (account.positions.get(token) ?? 0n);
    if (held < struct.makerAmount) return refuse('not enough balance / allowance');
    const order: Order = {
      view: { id, salt: String(o['salt']), status: 'LIVE', market_id: m.info.marketId, token_id: token, side: terms.side, order_type: orderType, original_1e8: Number(terms.shares) * QTY_PER_BASE, matched_1e8: 0, price_1e9: terms.price_1e9, trade_ids: [], created_ms: Date.now() },
      account,
      apiKey: api.apiKey,
      market: m,
      token,
      makerAmount: struct.makerAmount,
      takerAmount: struct.takerAmount,
    };
    const taken = this.match(order);
    if (orderType === 'FAK' && taken.length === 0) {
      order.view.status = 'CANCELED';
      this.orders.set(id, order);
      return refuse('no orders found to match with FAK order. FAK orders are partially filled or killed if no match is found.');
    }
    // A FAK's rest is killed; a GTC filled whole is done.
    if (orderType === 'FAK' || order.view.matched_1e8 >= order.view.original_1e8) order.view.status = 'MATCHED';
    this.orders.set(id, order);
    if (taken.length > 0) this.pushBooks(m);
    const making = taken.reduce((s, t) => s + (terms.side === 'BUY' ? t.amount : t.shares), 0n);
    const taking = taken.reduce((s, t) => s + (terms.side === 'BUY' ? t.shares : t.amount), 0n);
    return {
      status: 200,
      body: {
        success: true,
        errorMsg: '',
        orderID: id,
        status: order.view.status === 'LIVE' ? 'live' : 'matched',
        makingAmount: text(making, 6),
        takingAmount: text(taking, 6),
        transactionsHashes: taken.length > 0 ? [`0x${randomBytes(32).toString('hex')}`] : [],
        tradeIDs: taken.map((t) => t.tradeId),
      },
    };
  }

  /**
   * Takes the crossing levels of the token's book, best first, one trade each: a BUY spends at
   * most its maker amount (cost and fee) and takes at most its taker amount of shares, a SELL
   * sells at most its maker amount.
   */
  private match(order: Order): { shares: bigint; amount: bigint; tradeId: string }[] {
    const m = order.market;
    const buy = order.view.side === 'BUY';
    const yes = order.token === m.info.yesToken;
    // The YES book side the order meets, and each of its levels' price as the order's token sees it.
    const levels = yes === buy ? m.asks : m.bids;
    const priceOf = (yesPrice: number) => (yes ? yesPrice : P - yesPrice);
    const ordered = [...levels.keys()].sort((a, b) => (buy ? priceOf(a) - priceOf(b) : priceOf(b) - priceOf(a)));
    const fee = m.spec.fee === undefined ? { rate: '0.02', exponent: 1 } : m.spec.fee;
    const a = order.account;
    let budget = buy ? order.makerAmount : 0n;
    let sharesLeft = buy ? order.takerAmount : order.makerAmount;
    const out: { shares: bigint; amount: bigint; tradeId: string }[] = [];
    for (const yesPrice of ordered) {
      const p = priceOf(yesPrice);
      if (buy ? p > order.view.price_1e9 : p < order.view.price_1e9) break;
      const levelShares = BigInt(Math.floor(levels.get(yesPrice)! / QTY_PER_BASE));
      let take = levelShares < sharesLeft ? levelShares : sharesLeft;
      if (buy) {
        const affordable = (budget * P_BIG) / BigInt(p);
        if (affordable < take) take = affordable;
      }
      if (take <= 0n) break;
      const amount = buy ? ceilDiv(take * BigInt(p), P_BIG) : (take * BigInt(p)) / P_BIG;
      const fee_base = fee === null ? 0n : takerFee1e9(take * BigInt(QTY_PER_BASE), p, fee) / USD_PER_BASE_1E9;
      if (buy && amount + fee_base > a.cash_base) break;
      const held = a.positions.get(order.token) ?? 0n;
      if (buy) {
        a.cash_base -= amount + fee_base;
        budget -= amount;
        a.positions.set(order.token, held + take);
      } else {
        a.cash_base += amount - fee_base;
        a.positions.set(order.token, held - take);
      }
      sharesLeft -= take;
      const left = levels.get(yesPrice)! - Number(take) * QTY_PER_BASE;
      if (left > 0) levels.set(yesPrice, left);
      else levels.delete(yesPrice);
      m.lastTrade_1e9 = p;
      const tradeId = randomUUID();
      out.push({ shares: take, amount, tradeId });
      order.view.matched_1e8 += Number(take) * QTY_PER_BASE;
      order.view.trade_ids.push(tradeId);
      this.trades.push(this.takerTrade(order, tradeId, take, p, fee));
      if (sharesLeft <= 0n || (buy && budget <= 0n)) break;
    }
    return out;
  }

  /** A trade as `/data/trades` lists it for the taker: its order, token, size and price, the resting side's order among `maker_orders`. */
  private takerTrade(order: Order, id: string, shares: bigint, price: number, fee: { rate: string; exponent: number } | null): Trade {
    const m = order.market;
    const now = Date.now();
    const outcome = order.token === m.info.yesToken ? 'Yes' : 'No';
    const size = text(shares * BigInt(QTY_PER_BASE), 8);
    return {
      account: order.account,
      token: order.token,
      market: m,
      match_ms: now,
      row: {
        id,
        taker_order_id: order.view.id,
        market: m.info.conditionId,
        asset_id: order.token,
        side: order.view.side,
        size,
        fee_rate_bps: fee === null ? '0' : text(scaled(fee.rate, 4) ?? 0n, 0),
        price: text(price, 9),
        match_time: String(Math.floor(now / 1000)),
        last_update: String(Math.floor(now / 1000)),
        outcome,
        bucket_index: 0,
        owner: order.apiKey,
        maker_address: order.account.maker,
        transaction_hash: `0x${randomBytes(32).toString('hex')}`,
        trader_side: 'TAKER',
        maker_orders: [{ order_id: `0x${randomBytes(32).toString('hex')}`, owner: 'fake-maker', maker_address: `0x${randomBytes(20).toString('hex')}`, matched_amount: size, price: text(price, 9), fee_rate_bps: '0', asset_id: order.token, outcome, side: order.view.side === 'BUY' ? 'SELL' : 'BUY' }],
      },
    };
  }

  private orderJson(o: Order): Record<string, unknown> {
    return {
      id: o.view.id,
      status: o.view.status,
      owner: o.apiKey,
      maker_address: o.account.maker,
      market: o.market.info.conditionId,
      asset_id: o.token,
      side: o.view.side,
      original_size: text(o.view.original_1e8, 8),
      size_matched: text(o.view.matched_1e8, 8),
      price: text(o.view.price_1e9, 9),
      outcome: o.token === o.market.info.yesToken ? 'Yes' : 'No',
      expiration: '0',
      order_type: o.view.order_type,
      associate_trades: [...o.view.trade_ids],
      created_at: Math.floor(o.view.created_ms / 1000),
    };
  }

  private openOrders(account: Account, q: URLSearchParams): Record<string, unknown> {
    this.seen.open_order_pages++;
    const market = q.get('market');
    const asset = q.get('asset_id');
    const open = this.swept().filter((o) => o.account === account && o.view.status === 'LIVE' && (market === null || o.market.info.conditionId === market) && (asset === null || o.token === canonical(asset)));
    return this.page(open.map((o) => this.orderJson(o)), q.get('next_cursor'));
  }

  private tradesPage(account: Account, q: URLSearchParams): Record<string, unknown> {
    this.seen.trade_pages++;
    const maker = q.get('maker_address');
    const asset = q.get('asset_id');
    const market = q.get('market');
    const after = q.get('after');
    const before = q.get('before');
    const now = Date.now();
    const rows = this.trades
      .filter((t) => t.account === account && (maker === null || maker.toLowerCase() === account.maker.toLowerCase()))
      .filter((t) => (asset === null || t.token === canonical(asset)) && (market === null || t.market.info.conditionId === market))
      .filter((t) => (after === null || t.match_ms >= Number(after) * 1000) && (before === null || t.match_ms < Number(before) * 1000))
      .map((t) => ({ ...t.row, status: now - t.match_ms >= CONFIRM_AFTER_MS ? 'CONFIRMED' : 'MATCHED' }));
    return this.page(rows, q.get('next_cursor'));
  }

  /** One page of a list under the CLOB's cursors: base64 of the offset, `LTE=` after the last. */
  private page(rows: unknown[], cursor: string | null): Record<string, unknown> {
    // `MA==` (base64 "0") is the first page.
    const offset = cursor === null || cursor === '' ? 0 : Number(Buffer.from(cursor, 'base64').toString('utf8'));
    const start = Number.isSafeInteger(offset) && offset >= 0 ? offset : 0;
    const data = rows.slice(start, start + this.pageSize);
    const next = start + this.pageSize < rows.length ? cursorOf(start + this.pageSize) : END_CURSOR;
    return { limit: this.pageSize, count: data.length, next_cursor: next, data };
  }

  /** Every order but those kept out of the sweep (`hideFromSweep`): what open-order lists and bulk cancels see. */
  private swept(): Order[] {
    return [...this.orders.values()].filter((o) => !this.unswept.has(o.view.id));
  }

  /** Cancels the account's LIVE orders among `candidates`; ids asked for by name that are not cancellable are listed as such. */
  private cancelOrders(account: Account, candidates: Order[], named: string[]): Record<string, unknown> {
    const canceled: string[] = [];
    for (const o of candidates) {
      if (o.account !== account || o.view.status !== 'LIVE') continue;
      o.view.status = 'CANCELED';
      this.unswept.delete(o.view.id);
      canceled.push(o.view.id);
    }
    const notCanceled: Record<string, string> = {};
    for (const id of named) if (!canceled.includes(id.toLowerCase())) notCanceled[id] = "order can't be found - already canceled or matched";
    return { canceled, not_canceled: notCanceled };
  }

  private balance(account: Account, q: URLSearchParams): Record<string, unknown> {
    // The CLOB reads the wallet from the signature type: another type names another wallet, empty here.
    const sameWallet = Number(q.get('signature_type') ?? '0') === account.signatureType;
    const type = q.get('asset_type');
    const amount = !sameWallet ? 0n : type === 'COLLATERAL' ? account.cash_base : (account.positions.get(canonical(q.get('token_id') ?? '')) ?? 0n);
    const max = ((1n << 256n) - 1n).toString();
    return { balance: amount.toString(), allowances: { [CTF_EXCHANGE]: max, [NEG_RISK_EXCHANGE]: max } };
  }

  // --- Gamma ---------------------------------------------------------------------------------

  /** `/events?active=true&closed=false&limit=&offset=`: events with a market still open, in listing order. */
  private gammaEvents(q: URLSearchParams): unknown[] {
    this.seen.gamma_event_pages++;
    const limit = Math.min(Number(q.get('limit') ?? '20'), 500);
    const offset = Number(q.get('offset') ?? '0');
    const openOnly = q.get('closed') === 'false';
    const events = [...this.events.values()].filter((e) => !openOnly || e.markets.some((m) => !m.closed));
    return events.slice(offset, offset + limit).map((e) => ({
      id: e.id,
      slug: e.slug,
      title: e.title,
      description: `${e.title}: resolves per the rules.`,
      active: true,
      closed: e.markets.every((m) => m.closed),
      negRisk: e.markets.some((m) => m.spec.negRisk === true),
      tags: [{ label: 'Fake' }],
      markets: e.markets.map((m) => this.gammaMarket(m, e.markets.length > 1)),
    }));
  }

  /** `/markets?condition_ids=...`: each market with its event in `events[0]`. */
  private gammaMarkets(q: URLSearchParams): unknown[] {
    this.seen.gamma_market_reads++;
    const wanted = new Set(q.getAll('condition_ids'));
    const out: unknown[] = [];
    for (const e of this.events.values()) {
      for (const m of e.markets) {
        if (!wanted.has(m.info.conditionId)) continue;
        out.push({ ...this.gammaMarket(m, e.markets.length > 1), events: [{ id: e.id, slug: e.slug, title: e.title, negRisk: e.markets.some((x) => x.spec.negRisk === true) }] });
      }
    }
    return out;
  }

  private gammaMarket(m: Market, multi: boolean): Record<string, unknown> {
    const yes = this.bookOf(m, m.info.yesToken);
    const fee = m.spec.fee === undefined ? { rate: '0.02', exponent: 1 } : m.spec.fee;
    const iso = (ms: number) => new Date(ms).toISOString();
    return {
      id: String(100_000 + [...this.markets.values()].indexOf(m)),
      question: m.spec.question ?? m.spec.slug,
      conditionId: m.info.conditionId,
      slug: m.spec.slug,
      description: 'Resolves YES if it happens.',
      outcomes: '["Yes", "No"]',
      outcomePrices: m.yesWon === null ? '["0.5", "0.5"]' : m.yesWon ? '["1", "0"]' : '["0", "1"]',
      clobTokenIds: JSON.stringify([m.info.yesToken, m.info.noToken]),
      startDate: iso(m.created_ms),
      endDate: iso(m.spec.end_ms ?? m.created_ms + 30 * 86_400_000),
      ...(m.closed_ms === null ? {} : { closedTime: iso(m.closed_ms) }),
      active: true,
      closed: m.closed,
      acceptingOrders: !m.closed,
      enableOrderBook: true,
      umaResolutionStatus: m.yesWon === null ? undefined : 'resolved',
      orderPriceMinTickSize: Number(m.spec.tick ?? '0.01'),
      orderMinSize: m.spec.minSize ?? 5,
      negRisk: m.spec.negRisk === true,
      feesEnabled: fee !== null,
      ...(fee === null ? {} : { feeSchedule: { rate: Number(fee.rate), exponent: fee.exponent, takerOnly: true } }),
      ...(multi ? { groupItemTitle: m.spec.groupItemTitle ?? m.spec.slug } : {}),
      ...(yes.bids.length > 0 ? { bestBid: Number(text(yes.bids[0]![0], 9)) } : {}),
      ...(yes.asks.length > 0 ? { bestAsk: Number(text(yes.asks[0]![0], 9)) } : {}),
      volume24hr: m.spec.volume24hr ?? 0,
      volumeNum: m.spec.volumeNum ?? 0,
    };
  }
}

// ---------------------------------------------------------------------------------------------

function parse(v: unknown): Record<string, unknown> | undefined {
  let x = v;
  if (typeof v === 'string') {
    try {
      x = JSON.parse(v) as unknown;
    } catch {
      return undefined;
    }
  }
  return typeof x === 'object' && x !== null && !Array.isArray(x) ? (x as Record<string, unknown>) : undefined;
}

/** A token id as the venue keys it: decimal without leading zeros. */
function canonical(token: string): string {
  return /^\d+$/.test(token) ? BigInt(token).toString() : token;
}

/** A made-up uint256 token id of 77 or 78 digits (a 78-digit one starts "10": 2^256 is about 1.16e77). */
function madeUpToken(digits: 77 | 78): string {
  let out = digits === 78 ? '10' : String(1 + (randomBytes(1)[0]! % 9));
  while (out.length < digits) out += String(randomBytes(1)[0]! % 10);
  return out;
}

function ceilDiv(n: bigint, d: bigint): bigint {
  return (n + d - 1n) / d;
}

/** The signed struct as the JSON body carries it; undefined when a field is missing or malformed. */
function structOf(o: Record<string, unknown>) {
  const uint = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? BigInt(v) : typeof v === 'string' && /^\d+$/.test(v) ? BigInt(v) : undefined);
  const bytes32 = (v: unknown) => (typeof v === 'string' && /^0x[0-9a-fA-F]{64}$/.test(v) ? (v as `0x${string}`) : undefined);
  const address = (v: unknown) => (typeof v === 'string' && /^0x[0-9a-fA-F]{40}$/.test(v) ? (v as `0x${string}`) : undefined);
  const salt = uint(o['salt']);
  const tokenId = uint(o['tokenId']);
  const makerAmount = uint(o['makerAmount']);
  const takerAmount = uint(o['takerAmount']);
  const timestamp = uint(o['timestamp']);
  const maker = address(o['maker']);
  const signer = address(o['signer']);
  const metadata = bytes32(o['metadata']);
  const builder = bytes32(o['builder']);
  const side = o['side'] === 'BUY' ? 0 : o['side'] === 'SELL' ? 1 : undefined;
  const signatureType = typeof o['signatureType'] === 'number' ? o['signatureType'] : undefined;
  if (salt === undefined || tokenId === undefined || makerAmount === undefined || takerAmount === undefined || timestamp === undefined || maker === undefined || signer === undefined || metadata === undefined || builder === undefined || side === undefined || signatureType === undefined) return undefined;
  if (makerAmount <= 0n || takerAmount <= 0n) return undefined;
  return { salt, maker, signer, tokenId, makerAmount, takerAmount, side, signatureType, timestamp, metadata, builder };
}

/**
 * An order's price and size as the CLOB reads them from its amounts, or the venue's refusal: the
 * price is maker/taker (BUY) or taker/maker (SELL), a resting order's exactly on the tick, a
 * marketable one's to the nearest tick; the decimals of each amount per the tick's rounding; the
 * $1 floor of a marketable order and the minimum size of a resting one.
 */
function termsOf(m: Market, side: 'BUY' | 'SELL', makerAmount: bigint, takerAmount: bigint, orderType: string): { side: 'BUY' | 'SELL'; price_1e9: number; shares: bigint } | string {
  const tick = m.spec.tick ?? '0.01';
  const amountDecimals = AMOUNT_DECIMALS[tick]!;
  const shares = side === 'BUY' ? takerAmount : makerAmount;
  const usd = side === 'BUY' ? makerAmount : takerAmount;
  const marketable = orderType !== 'GTC';
  const step = (decimals: number) => 10n ** BigInt(6 - decimals);
  // Marketable buys spend whole cents and sells offer 0.01 share; the other amount per the tick.
  const [firstDecimals, secondDecimals] = marketable ? [2, amountDecimals] : side === 'BUY' ? [amountDecimals, 2] : [2, amountDecimals];
  if (makerAmount % step(firstDecimals) !== 0n || takerAmount % step(secondDecimals) !== 0n) {
    return `invalid amounts, the ${marketable ? 'market ' : ''}${side.toLowerCase()} orders maker amount supports a max accuracy of ${firstDecimals} decimals, taker amount a max of ${secondDecimals} decimals`;
  }
  const tick_1e9 = BigInt(m.tick_1e9);
  const exact = (usd * P_BIG) % shares === 0n;
  const raw = (usd * P_BIG) / shares;
  const price = marketable ? ((raw + tick_1e9 / 2n) / tick_1e9) * tick_1e9 : raw;
  if (!marketable && (!exact || raw % tick_1e9 !== 0n)) return `invalid price (${text(raw, 9)}), the market's tick size is ${tick}`;
  if (price < tick_1e9 || price > P_BIG - tick_1e9) return `invalid price (${text(price, 9)}), min: ${tick} - max: ${text(P_BIG - tick_1e9, 9)}`;
  if (marketable && (side === 'BUY' ? usd : (shares * price) / P_BIG) < 1_000_000n) return `invalid amount for a marketable ${side} order ($${text(side === 'BUY' ? usd : (shares * price) / P_BIG, 6)}), min size: $1`;
  const minShares = BigInt(Math.round((m.spec.minSize ?? 5) * 1e6));
  if (!marketable && shares < minShares) return `Size (${text(shares, 6)}) lower than the minimum: ${m.spec.minSize ?? 5}`;
  return { side, price_1e9: Number(price), shares };
}

/** The taker fee in USD 1e9: shares x rate x (p(1 - p))^exponent, floored to 0.00001 (docs' trading fees). */
function takerFee1e9(qty_1e8: bigint, price_1e9: number, fee: { rate: string; exponent: number }): bigint {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(fee.rate);
  if (m === null) return 0n;
  const places = (m[2] ?? '').length;
  const rate = BigInt(m[1]! + (m[2] ?? ''));
  const p = BigInt(price_1e9);
  const e = BigInt(fee.exponent);
  const num = qty_1e8 * rate * (p * (P_BIG - p)) ** e * 100_000n;
  const den = 100_000_000n * 10n ** BigInt(places) * 10n ** (18n * e);
  return (num / den) * 10_000n;
}
