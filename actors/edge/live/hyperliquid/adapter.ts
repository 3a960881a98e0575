import type { VenueId } from '../../../../domain/market.ts';
import type { VenueCredentials } from '../../../../storage/credential-shapes.ts';
import type { FundingInfo, FundingPoint } from '../../messages.ts';
import { feeContextOf } from '../fees.ts';
import type { BookFeed, FeedListing } from '../book-feeds.ts';
import type { VenueEndpoints } from '../endpoints.ts';
import { RestFailure, VenueRest } from '../rest.ts';
import { evmAddress } from '../signing-evm.ts';
import { StreamedVenue } from '../streamed-venue.ts';
import { VenueLimits } from '../venue-limits.ts';
import { refusedLeg, VenueRejection, type AccountProbe, type AssetBalance, type LegReport, type LegRequest, type LiveVenue, type OrderLookup, type VenueAccount, type VenueFill } from '../venue.ts';
import { HyperliquidBookSync } from './book-sync.ts';
import {
  ACCEPT_WINDOW_MS,
  EXCHANGE_PATH,
  INFO_PATH,
  PING,
  PING_EVERY_MS,
  RATE_LIMITS,
  SCHEDULE_CANCEL_MAX_TRIGGERS_PER_DAY,
  TESTNET_API,
  WS_PATH,
  accountOf,
  accountProbeOf,
  balancesOf,
  cancelAction,
  cancelByCloidAction,
  clearinghouseStateRequest,
  coinOf,
  decodeCancelAnswer,
  decodeClearinghouseState,
  decodeFundingHistory,
  decodeHourlyCloses,
  decodeMeta,
  decodeMetaAndAssetCtxs,
  decodeOpenOrders,
  decodeOrderAnswer,
  decodeOrderStatus,
  decodeUserFees,
  decodeUserFills,
  decodeUserRole,
  decodeWsFrame,
  exchangeRequestBody,
  exchangeWeight,
  frontendOpenOrdersRequest,
  fundingHistoryRequest,
  fundingInfoOf,
  fundingPointsOf,
  hourlyCandlesRequest,
  hyperliquidCloid,
  infoWeight,
  l2BookSubscription,
  legReportOf,
  metaAndAssetCtxsRequest,
  metaRequest,
  orderAction,
  orderStatusRequest,
  orderTerms,
  parseVenueJson,
  scheduleCancelAction,
  settledReportOf,
  statusKind,
  symbolOfCoin,
  userFeesRequest,
  userFillsByTimeRequest,
  userRoleRequest,
  type HyperliquidAccount,
  type HyperliquidFunding,
  type HyperliquidInstrument,
  type HyperliquidOrder,
  type HyperliquidRole,
  type OrderAck,
} from './codec.ts';

const QUERY_TIMEOUT_MS = 3_000;
/** Order placement times out inside the router's 2 s leg timeout; the router then reconciles. */
const ORDER_TIMEOUT_MS = 1_500;
/** Reads of an order until its fills add up to what it executed (and an IOC is done). */
const SETTLE_POLL_MS = 50;
const SETTLE_POLLS = 10;
/** A stream silent this long is dead: the ping after PING_EVERY_MS of quiet is answered at once. */
const STALE_MS = PING_EVERY_MS + 15_000;
/** Roles read from `userRole` (weight 60, a twentieth of the minute's budget) answer for this long. */
const ROLE_TTL_MS = 10 * 60_000;
/** `userFillsByTime` answers at most 2000 fills; an order's are walked over at most this many pages. */
const FILLS_PAGE = 2_000;
const FILLS_PAGES = 5;
/** Our clock against the venue's: a placement's fills are read from this long before we sent it. */
const CLOCK_SKEW_MS = 60_000;
/** `fundingHistory` answers at most 500 rows; a range is walked over at most this many pages. */
const FUNDING_PAGE = 500;
const FUNDING_PAGES = 20;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/**
 * The dead man's switch the kill switch arms, this far ahead: every order this edge sent before
 * the sweep carries `expiresAfter` at most ACCEPT_WINDOW_MS after its nonce, so whatever of them
 * reaches the book after the sweep is cancelled by the switch; 1 s over the venue's 5 s minimum lead.
 */
const DEAD_MAN_LEAD_MS = ACCEPT_WINDOW_MS + 1_000;

/** The per-IP weight budget: every /info and /exchange request of this edge counts on it. */
const LIMIT_RULES = [{ name: 'IP_WEIGHT', limit: RATE_LIMITS.ipWeightPerMinute, window_ms: 60_000 }];
const JSON_HEADERS = { 'Content-Type': 'application/json' };
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** A nonce strictly above every one this process sent: ms, bumped on a tie (the venue refuses a nonce it has seen). */
let lastNonce = 0;
function nextNonce(): number {
  const now = Date.now();
  lastNonce = now > lastNonce ? now : lastNonce + 1;
  return lastNonce;
}

/**
 * Hyperliquid perpetuals (the first perp dex, USDC collateral): the `l2Book` WebSocket channel on
 * `/ws` (every push a whole snapshot of 20 levels a side; `hyperliquid/book-sync.ts` publishes
 * what changed), orders as L1 actions on `/exchange` signed by the client's agent key
 * (`hyperliquidSignL1Action`, nonce = ms, `expiresAfter` = nonce + 5 s) under the cloid packed
 * from our child id; the account's state (orders, fills, balances, fees) read from `/info` for
 * the master the agent trades for (its `userRole`), or the vault in the passphrase. Funding from
 * `metaAndAssetCtxs` and `fundingHistory`. docs/venues/hyperliquid.md.
 */
export class HyperliquidPerp extends StreamedVenue<HyperliquidBookSync, HyperliquidInstrument> implements LiveVenue {
  readonly venue: VenueId = 'hyperliquid';
  readonly acceptWindowMs = ACCEPT_WINDOW_MS;
  private readonly limits = new VenueLimits(LIMIT_RULES);
  private readonly rest: VenueRest;
  private readonly isMainnet: boolean;
  /** `userRole` answers by address (lowercase); an unknown address is asked again each time */
  private readonly roles = new Map<string, { role: HyperliquidRole; until_ms: number }>();
  /** dead man's switches armed by this edge, per account traded and UTC day */
  private readonly armed = new Map<string, { day: number; count: number }>();

  constructor(
    endpoints: VenueEndpoints,
    listings: readonly FeedListing[],
    private readonly fees: { maker_bps: number; taker_bps: number },
  ) {
    super(listings, {
      url: `${endpoints.ws}${WS_PATH}`,
      makeSync: (book, changes) => new HyperliquidBookSync(book, changes),
      // A fresh subscription: the venue answers it with a whole snapshot, which syncs the book.
      resync: async (feed) => {
        if (!this.stream.send(l2BookSubscription('unsubscribe', feed.venueSymbol)) || !this.stream.send(l2BookSubscription('subscribe', feed.venueSymbol))) throw new Error('stream closed');
        return false;
      },
      staleMs: STALE_MS,
      ping: { text: PING, everyMs: PING_EVERY_MS },
    });
    this.rest = new VenueRest(endpoints.rest, this.limits, undefined, endpoints.headers);
    // The signature names its network (source "a" or "b"), so the testnet's host signs for it;
    // anything else (production, an override) signs for mainnet.
    this.isMainnet = new URL(endpoints.rest).hostname !== new URL(TESTNET_API).hostname;
  }

  // --- market data --------------------------------------------------------------------------

  protected venueSymbolOf(symbol: string): string {
    return coinOf(symbol) ?? symbol;
  }

  protected watch(feeds: readonly BookFeed<HyperliquidBookSync>[]): void {
    for (const feed of feeds) if (this.stream.send(l2BookSubscription('subscribe', feed.venueSymbol))) this.feeds.expect(feed);
  }

  protected unwatch(feed: BookFeed<HyperliquidBookSync>): void {
    this.stream.send(l2BookSubscription('unsubscribe', feed.venueSymbol));
  }

  protected onFrame(text: string): void {
    const message = decodeWsFrame(text);
    // Pongs, the greeting, subscription answers and errors (a refused subscription is retried when its snapshot does not come).
    if (message?.kind !== 'l2Book' || message.coin === null) return;
    const feed = this.feeds.ofVenueSymbol(message.coin);
    if (feed === undefined) return;
    if (message.data === null) {
      this.feeds.settle(feed, feed.sync.onUnreadable(), Date.now() * 1_000_000);
      return;
    }
    const outcome = feed.sync.onBook(message.data);
    // A push older than the book (an old subscription's frame racing a resubscription) changes
    // nothing: settling it would resubscribe, and the new subscription's frames could race again.
    if (outcome === 'stale') return;
    this.feeds.counters.updates++;
    this.feeds.settle(feed, outcome, message.data.time_ms * 1_000_000);
  }

  protected async readInstruments(): Promise<(readonly [string, HyperliquidInstrument])[]> {
    const instruments = decodeMeta(await this.info(metaRequest(), infoWeight('meta'), 'meta'));
    if (instruments === undefined || instruments.length === 0) throw new Error('meta: no perp listed');
    return instruments.map((i) => [i.coin, i] as const);
  }

  // --- funding ------------------------------------------------------------------------------

  /** Every perp's context in one read (`metaAndAssetCtxs`): the rate of the hour under way, paid at the next whole hour. */
  async funding(symbols: readonly string[]): Promise<FundingInfo[]> {
    const decoded = decodeMetaAndAssetCtxs(await this.info(metaAndAssetCtxsRequest(), infoWeight('metaAndAssetCtxs'), 'metaAndAssetCtxs'));
    if (decoded === undefined) throw new RestFailure('unreadable metaAndAssetCtxs answer', 'network');
    const wanted = new Set(symbols);
    const now = Date.now();
    return decoded.ctxs.filter((c) => wanted.has(c.symbol)).map((c) => fundingInfoOf(c, now));
  }

  /**
   * The hourly fundings settled in [from_ns, to_ns] (`fundingHistory`, 500 rows a page), each on
   * the hourly close at its instant (`candleSnapshot`): Hyperliquid pays on the oracle price,
   * which no public history serves. An hour without a close (older than the venue's last 5000
   * candles) is left out rather than booked at 0.
   */
  async fundingHistory(symbol: string, from_ns: number, to_ns: number): Promise<FundingPoint[]> {
    const coin = coinOf(symbol);
    if (coin === undefined || !this.listings.has(symbol) || to_ns < from_ns) return [];
    const from_ms = Math.ceil(from_ns / 1_000_000);
    const to_ms = Math.floor(to_ns / 1_000_000);
    const rows: HyperliquidFunding[] = [];
    let start = from_ms;
    for (let page = 0; page < FUNDING_PAGES && start <= to_ms; page++) {
      const expected = Math.min(FUNDING_PAGE, Math.ceil((to_ms - start) / HOUR_MS) + 1);
      const decoded = decodeFundingHistory(await this.info(fundingHistoryRequest(coin, start, to_ms), infoWeight('fundingHistory', expected), 'fundingHistory'));
      if (decoded === undefined) throw new RestFailure('unreadable fundingHistory answer', 'network');
      rows.push(...decoded);
      if (decoded.length < FUNDING_PAGE) break;
      start = Math.max(...decoded.map((r) => r.time_ms)) + 1;
    }
    if (rows.length === 0) return [];
    const instants = rows.map((r) => r.instant_ms);
    const first = Math.min(...instants) - HOUR_MS;
    const last = Math.max(...instants);
    const candles = Math.ceil((last - first) / HOUR_MS) + 1;
    const closes = decodeHourlyCloses(await this.info(hourlyCandlesRequest(coin, first, last), infoWeight('candleSnapshot', candles), 'candleSnapshot'));
    if (closes === undefined) throw new RestFailure('unreadable candleSnapshot answer', 'network');
    return fundingPointsOf(rows, (instant) => closes.get(instant)).filter((p) => p.ts_ns >= from_ns && p.ts_ns <= to_ns);
  }

  // --- orders -------------------------------------------------------------------------------

  async submit(account: VenueAccount, leg: LegRequest): Promise<LegReport> {
    const coin = coinOf(leg.symbol);
    const instrument = coin === undefined ? undefined : await this.instrumentFor(coin);
    // Without the listing's asset index and size decimals the order could only be guessed at.
    if (instrument === undefined) return refusedLeg(`hyperliquid: ${leg.symbol} is not (yet) known from meta`);
    const terms = orderTerms(instrument, leg.side, leg.qty_1e8, leg.limit_price_1e9);
    if (!terms.ok) return refusedLeg(terms.reason);
    const action = orderAction(instrument, leg.child_id, leg.side, terms.terms, leg.time_in_force);
    if (action === undefined) return refusedLeg(`child id ${leg.child_id} has no Hyperliquid cloid`);
    const problem = signerProblem(account.credentials);
    if (problem !== undefined) return refusedLeg(`hyperliquid: ${problem}`);
    const sent_ms = Date.now();
    let body: unknown;
    try {
      body = await this.exchange(account.credentials, action, { expires: true, timeoutMs: ORDER_TIMEOUT_MS });
    } catch (err) {
      if (err instanceof VenueRejection) return refusedLeg(err.reason);
      // Never sent (the IP budget): a refusal the edge answers itself.
      if (err instanceof RestFailure && err.kind === 'rate_limited') throw err;
      throw new RestFailure(`order sent, no answer: ${(err as Error).message}`, 'timeout');
    }
    const answer = decodeOrderAnswer(body);
    if (!answer.ok) {
      if (answer.kind === 'fate-unknown') throw new RestFailure(answer.reason, 'timeout');
      // The whole action refused before it reached the book (an unknown agent, a bad signature).
      if (answer.kind === 'auth') this.roles.delete(account.credentials.api_key.toLowerCase());
      return refusedLeg(answer.reason);
    }
    const ack = answer.statuses[0]!;
    const settled = settledReportOf(ack);
    if (settled !== undefined) return settled;
    // The order reached the book, or its fate is not written yet: any failure from here is left to reconciliation.
    try {
      const found = await this.afterAck(account, ack, hyperliquidCloid(leg.child_id)!, leg.symbol, leg.time_in_force === 'ioc', sent_ms);
      if (!found.found) throw new Error('placed but not found');
      return found.report;
    } catch (err) {
      throw new RestFailure(`order placed, its state not read: ${(err as Error).message}`, 'timeout');
    }
  }

  async lookup(account: VenueAccount, child_id: string, symbol: string, knownFilled_1e8?: number): Promise<OrderLookup> {
    const cloid = hyperliquidCloid(child_id);
    if (cloid === undefined) return { found: false };
    return this.settled(await this.account(account.credentials), cloid, symbol, false, knownFilled_1e8);
  }

  async cancel(account: VenueAccount, child_id: string, symbol: string): Promise<{ found: boolean; cancelled_qty_1e8: number }> {
    const cloid = hyperliquidCloid(child_id);
    const coin = coinOf(symbol);
    const instrument = coin === undefined ? undefined : this.instruments.get(coin);
    if (cloid === undefined || instrument === undefined) return { found: false, cancelled_qty_1e8: 0 };
    const hl = await this.account(account.credentials);
    const before = await this.order(hl, cloid);
    if (before === undefined || before.resting_1e8 === 0) return { found: false, cancelled_qty_1e8: 0 };
    const answer = decodeCancelAnswer(await this.exchange(account.credentials, cancelByCloidAction(instrument.asset, cloid), { expires: false, timeoutMs: QUERY_TIMEOUT_MS }));
    const status = answer.ok ? answer.statuses[0]! : answer;
    if (!status.ok) {
      if (status.kind === 'fate-unknown') throw new RestFailure(status.reason, 'timeout');
      // Filled or cancelled since it was read: what became of it is read below.
      if (status.kind !== 'unknown-order') throw new VenueRejection(status.reason);
    }
    const after = await this.order(hl, cloid);
    // Still on the book after the venue's answer: not cancelled yet, the caller asks again.
    if (after === undefined || after.state === 'working') throw new RestFailure(`order ${cloid} still working after its cancel`, 'timeout');
    const cancelled = Math.max(0, before.resting_1e8 - (after.filled_1e8 - before.filled_1e8));
    return { found: cancelled > 0, cancelled_qty_1e8: cancelled };
  }

  async ownOpenOrders(account: VenueAccount): Promise<{ child_id: string; symbol: string }[]> {
    const out: { child_id: string; symbol: string }[] = [];
    for (const order of await this.openOrders(await this.account(account.credentials))) {
      const symbol = symbolOfCoin(order.coin);
      if (order.child_id !== null && symbol !== undefined && this.listings.has(symbol)) out.push({ child_id: order.child_id, symbol });
    }
    return out;
  }

  /**
   * The kill switch: every open order of the account on these symbols' coins, ours or placed by
   * hand, in one `cancel` by oid; then the dead man's switch (`armDeadMan`). Orders on the
   * account's other coins are left alone by the sweep.
   */
  async cancelAll(account: VenueAccount, symbols: readonly string[]): Promise<number> {
    const hl = await this.account(account.credentials);
    const coins = new Set(symbols.map(coinOf));
    const open = (await this.openOrders(hl)).filter((o) => coins.has(o.coin) && this.instruments.has(o.coin));
    let cancelled = 0;
    let refusal: string | undefined;
    if (open.length > 0) {
      const action = { type: 'cancel' as const, cancels: open.map((o) => cancelAction(this.instruments.get(o.coin)!.asset, o.oid).cancels[0]!) };
      const answer = decodeCancelAnswer(await this.exchange(account.credentials, action, { expires: false, timeoutMs: QUERY_TIMEOUT_MS, batch: open.length }), open.length);
      if (!answer.ok) {
        if (answer.kind === 'fate-unknown') throw new RestFailure(answer.reason, 'timeout');
        throw new VenueRejection(answer.reason);
      }
      for (const status of answer.statuses) {
        if (status.ok) cancelled++;
        else if (status.kind !== 'unknown-order') refusal ??= status.reason;
      }
    }
    await this.armDeadMan(account.credentials, hl);
    if (refusal !== undefined) throw new VenueRejection(refusal);
    return cancelled;
  }

  /** USDC of the perp account (`clearinghouseState`): free what can be withdrawn, locked the rest of the equity. */
  async balances(account: VenueAccount): Promise<AssetBalance[]> {
    const hl = await this.account(account.credentials);
    const state = decodeClearinghouseState(await this.info(clearinghouseStateRequest(hl.user), infoWeight('clearinghouseState'), 'clearinghouseState'));
    if (state === undefined) throw new RestFailure('unreadable clearinghouseState answer', 'network');
    return balancesOf(state);
  }

  /** The account's own rates (`userFees`); an agent cannot withdraw, the account's own key can. */
  async probe(account: VenueAccount): Promise<AccountProbe> {
    const hl = await this.account(account.credentials);
    const fees = decodeUserFees(await this.info(userFeesRequest(hl.user), infoWeight('userFees'), 'userFees'));
    return accountProbeOf(hl, fees, this.fees);
  }

  // --- reads --------------------------------------------------------------------------------

  /**
   * A placed order's report. An IOC filled: its fills by oid until they add up to the answer's
   * `totalSz`, nothing resting (the venue cancels the remainder). Anything else (resting, not yet
   * settled, a GTC filled: the docs do not say a GTC's `filled` means all of it) is read by cloid,
   * as a lookup does, so what rests is the venue's figure.
   */
  private async afterAck(account: VenueAccount, ack: OrderAck, cloid: string, symbol: string, ioc: boolean, sent_ms: number): Promise<OrderLookup> {
    const hl = await this.account(account.credentials);
    if (ack.kind !== 'filled' || !ioc) return this.settled(hl, cloid, symbol, ioc);
    for (let poll = 0; ; poll++) {
      const fills = await this.fillsOf(hl, ack.oid, sent_ms - CLOCK_SKEW_MS, symbol);
      if (sumOf(fills) === ack.total_1e8) return { found: true, report: { ok: true, reason: null, fills, resting_qty_1e8: 0 } };
      if (poll >= SETTLE_POLLS) throw new RestFailure(`fills of ${ack.oid} do not add up to ${ack.total_1e8}`, 'timeout');
      await sleep(SETTLE_POLL_MS);
    }
  }

  /** The order and its fills, read again while an IOC is working or its fills lag what it executed. */
  private async settled(hl: HyperliquidAccount, cloid: string, symbol: string, ioc: boolean, knownFilled_1e8?: number): Promise<OrderLookup> {
    for (let poll = 0; ; poll++) {
      const order = await this.order(hl, cloid);
      if (order === undefined) return { found: false };
      const working = order.state === 'working';
      // Nothing executed since the caller was told: the fills need no read (a resting leg's poll).
      if (order.filled_1e8 === knownFilled_1e8 && !(ioc && working)) return { found: true, report: legReportOf(order, []) };
      const fills = order.filled_1e8 > 0 ? await this.fillsOf(hl, order.oid, order.timestamp_ms, symbol) : [];
      const complete = sumOf(fills) === order.filled_1e8;
      if ((complete && !(ioc && working)) || poll >= SETTLE_POLLS) {
        if (!complete || (ioc && working)) throw new RestFailure(`order ${cloid} not settled`, 'timeout');
        return { found: true, report: legReportOf(order, fills) };
      }
      await sleep(SETTLE_POLL_MS);
    }
  }

  /** The order with this cloid (`orderStatus`), or undefined when the venue does not know it. */
  private async order(hl: HyperliquidAccount, cloid: string): Promise<HyperliquidOrder | undefined> {
    const status = decodeOrderStatus(await this.info(orderStatusRequest(hl.user, { cloid }), infoWeight('orderStatus'), 'orderStatus'));
    if (status === undefined) throw new RestFailure('unreadable orderStatus answer', 'network');
    return status.found ? status.order : undefined;
  }

  private async openOrders(hl: HyperliquidAccount): Promise<HyperliquidOrder[]> {
    const orders = decodeOpenOrders(await this.info(frontendOpenOrdersRequest(hl.user), infoWeight('frontendOpenOrders'), 'frontendOpenOrders'));
    if (orders === undefined) throw new RestFailure('unreadable frontendOpenOrders answer', 'network');
    return orders;
  }

  /**
   * The fills of order `oid` since `from_ms` (`userFillsByTime`, 2000 a page, walked from the last
   * time read; rows of a shared ms are read twice and kept once by trade id). The venue charges
   * one weight per 20 rows returned: counted once the rows are known.
   */
  private async fillsOf(hl: HyperliquidAccount, oid: string, from_ms: number, symbol: string): Promise<VenueFill[]> {
    const fees = feeContextOf(this.listings.get(symbol), this.fees);
    const mine = new Map<string, VenueFill>();
    let start = from_ms;
    for (let page = 0; page < FILLS_PAGES; page++) {
      const charged = infoWeight('userFillsByTime');
      const body = await this.info(userFillsByTimeRequest(hl.user, start), charged, 'userFillsByTime');
      const all = decodeUserFills(body, fees);
      const ours = decodeUserFills(body, fees, { oid });
      if (all === undefined || ours === undefined) throw new RestFailure('unreadable userFillsByTime answer', 'network');
      this.limits.admit([infoWeight('userFillsByTime', all.length) - charged], Date.now());
      for (const f of ours) mine.set(f.trade_id, f);
      if (all.length < FILLS_PAGE) break;
      start = Math.floor(all[all.length - 1]!.ts_ns / 1_000_000);
    }
    return [...mine.values()].sort((a, b) => a.ts_ns - b.ts_ns);
  }

  /**
   * Whose state the info requests read and how orders are signed: `accountOf` over the agent's
   * role (and the vault's), each read from `userRole` once per ROLE_TTL_MS. An address the venue
   * does not know is asked again next time (an agent approved since must work at once).
   */
  private async account(credentials: VenueCredentials): Promise<HyperliquidAccount> {
    const signerRole = await this.role(credentials.api_key);
    const vault = credentials.passphrase ?? '';
    const resolved = accountOf(credentials, signerRole, vault === '' ? undefined : await this.role(vault));
    if (!resolved.ok) throw new VenueRejection(`hyperliquid: ${resolved.reason}`);
    return resolved.account;
  }

  private async role(address: string): Promise<HyperliquidRole> {
    const key = address.toLowerCase();
    const known = this.roles.get(key);
    if (known !== undefined && known.until_ms > Date.now()) return known.role;
    // Not an address: nothing to ask the venue about (`accountOf` says what is wrong with it).
    if (!ADDRESS.test(address)) return { role: 'missing' };
    const role = decodeUserRole(await this.info(userRoleRequest(address), infoWeight('userRole'), 'userRole'));
    if (role === undefined) throw new RestFailure('unreadable userRole answer', 'network');
    if (role.role !== 'missing') this.roles.set(key, { role, until_ms: Date.now() + ROLE_TTL_MS });
    return role;
  }

  /**
   * The dead man's switch: `scheduleCancel` DEAD_MAN_LEAD_MS ahead, so an order in flight at the
   * sweep that lands after it is cancelled by the venue (the switch cancels every open order of
   * the account, on every coin). At most SCHEDULE_CANCEL_MAX_TRIGGERS_PER_DAY arms per account
   * and UTC day, the venue's own cap of triggers. Best effort: the sweep stands without it, and
   * the venue refuses it on an account that has not traded enough yet.
   */
  private async armDeadMan(credentials: VenueCredentials, hl: HyperliquidAccount): Promise<void> {
    const now = Date.now();
    const day = Math.floor(now / DAY_MS);
    const armed = this.armed.get(hl.user);
    const count = armed?.day === day ? armed.count : 0;
    if (count >= SCHEDULE_CANCEL_MAX_TRIGGERS_PER_DAY) return;
    this.armed.set(hl.user, { day, count: count + 1 });
    try {
      await this.exchange(credentials, scheduleCancelAction(now + DEAD_MAN_LEAD_MS, now), { expires: false, timeoutMs: QUERY_TIMEOUT_MS });
    } catch {
      // Not armed (refused, or no answer): the sweep above is the kill switch's answer.
    }
  }

  /** A public or account read: `/info`, its u64 ids kept as text. Any failure is a read that did not happen. */
  private async info(body: string, weight: number, what: string): Promise<unknown> {
    const answer = await this.rest.send({ method: 'POST', path: INFO_PATH, headers: JSON_HEADERS, body, cost: [weight], timeoutMs: QUERY_TIMEOUT_MS });
    const parsed = parseVenueJson(answer.text);
    if (answer.status !== 200 || parsed === undefined) throw new RestFailure(`hyperliquid ${what}: HTTP ${answer.status}`, 'network');
    return parsed;
  }

  /**
   * A signed L1 action on `/exchange`, the answer's body as parsed (decoded by the caller, every
   * answer being HTTP 200 either way). A 5xx leaves the action's fate unknown; another status
   * refused it unread. A nonce the venue refuses is refused before anything is done, so the
   * action goes once more with a new one (another process signing with the same agent).
   */
  private async exchange(credentials: VenueCredentials, action: object, options: { expires: boolean; timeoutMs: number; batch?: number }): Promise<unknown> {
    const vault = credentials.passphrase ?? '';
    for (let attempt = 0; ; attempt++) {
      const nonce = nextNonce();
      const body = exchangeRequestBody(action, { privateKey: credentials.api_secret, nonce, isMainnet: this.isMainnet, vaultAddress: vault === '' ? null : vault, expiresAfter: options.expires ? nonce + ACCEPT_WINDOW_MS : null });
      const answer = await this.rest.send({ method: 'POST', path: EXCHANGE_PATH, headers: JSON_HEADERS, body, cost: [exchangeWeight(options.batch)], timeoutMs: options.timeoutMs });
      const kind = statusKind(answer.status);
      if (kind === 'fate-unknown') throw new RestFailure(`hyperliquid HTTP ${answer.status}: fate unknown`, 'timeout');
      if (kind !== undefined) throw new VenueRejection(`hyperliquid: HTTP ${answer.status}${answer.text === '' ? '' : ` ${answer.text.slice(0, 200)}`}`);
      const parsed = parseVenueJson(answer.text);
      if (attempt === 0 && isNonceRefusal(parsed)) continue;
      return parsed;
    }
  }
}

/** Why these credentials cannot sign (nothing is sent), or undefined: the key must be the agent address's, the vault an address. */
function signerProblem(credentials: VenueCredentials): string | undefined {
  let derived: string;
  try {
    derived = evmAddress(credentials.api_secret);
  } catch {
    return 'the agent key (api_secret) is not a secp256k1 private key';
  }
  if (derived.toLowerCase() !== credentials.api_key.toLowerCase()) return 'the agent key (api_secret) is not the key of the agent address (api_key)';
  const vault = credentials.passphrase ?? '';
  if (vault !== '' && !ADDRESS.test(vault)) return 'the vault address (passphrase) is not a 0x address';
  return undefined;
}

/** `{"status":"err","response":"Invalid nonce: duplicate nonce ..."}` (as public clients recorded it). */
function isNonceRefusal(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  return b['status'] === 'err' && typeof b['response'] === 'string' && b['response'].startsWith('Invalid nonce');
}

function sumOf(fills: readonly VenueFill[]): number {
  return fills.reduce((sum, f) => sum + f.qty_1e8, 0);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
