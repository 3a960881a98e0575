import { Side, type Level } from '../../../../domain/market.ts';
import type { PredictionMarket, PredictionVenue } from '../../../../domain/prediction/catalog.ts';
import { RecentMap } from '../../../../domain/recent.ts';
import { BookFeeds, type BookFeed } from '../book-feeds.ts';
import { parseScaled } from '../decimal.ts';
import type { VenueEndpoints } from '../endpoints.ts';
import { record } from '../json.ts';
import type { L2Book } from '../l2-book.ts';
import type { CatalogFigures, CatalogRecord, LivePredictionVenue, MarketBook } from '../prediction-venue.ts';
import { RestFailure, VenueRest, type RestAnswer } from '../rest.ts';
import type { PolymarketApiCredentials } from '../signing-evm.ts';
import { VenueStream } from '../stream.ts';
import { VenueLimits } from '../venue-limits.ts';
import { cancelledBetween, refusedLeg, VenueRejection, type AccountProbe, type AssetBalance, type LegReport, type LegRequest, type MarketSink, type OrderLookup, type VenueAccount, type VenueFill } from '../venue.ts';
import { PolymarketBookSync } from './book-sync.ts';
import {
  ACCEPT_WINDOW_MS,
  BALANCE_ALLOWANCE_PATH,
  CANCEL_ALL_PATH,
  CANCEL_MARKET_ORDERS_PATH,
  CANCEL_ORDER_PATH,
  CLOSED_ONLY_PATH,
  COLLATERAL_ASSET,
  END_CURSOR,
  GAMMA_HOST,
  HEARTBEAT_PATH,
  INITIAL_CURSOR,
  MARKET_WS_URL,
  MAX_TOKENS_PER_CONNECTION,
  OPEN_ORDERS_PATH,
  PING,
  PING_EVERY_MS,
  POST_ORDER_PATH,
  RATE_LIMITS,
  TRADES_PATH,
  accountProbeOf,
  apiKeyRequest,
  assetBalanceOf,
  balanceAllowanceQuery,
  bookPath,
  cancelMarketOrdersBody,
  cancelOrderBody,
  cancelOutcome,
  catalogTokenId,
  childOrderTerms,
  decodeApiKey,
  decodeBalanceAllowance,
  decodeCancel,
  decodeGammaEvents,
  decodeGammaMarkets,
  decodeHeartbeat,
  decodeMarketFrame,
  decodeOpenOrders,
  decodeOrder,
  decodePostOrder,
  decodeRestBook,
  decodeTrades,
  fillsOfOrder,
  gammaEventsPath,
  gammaMarketsByConditionPath,
  heartbeatBody,
  l2Request,
  legReportOf,
  marketSubscription,
  marketSubscriptionUpdate,
  openOrdersQuery,
  orderPath,
  ownOpenOrdersOf,
  polymarketAccountOf,
  polymarketError,
  settledReportOf,
  signedChildOrder,
  tradesQuery,
  venueTokenId,
  type PolymarketAccount,
  type PolymarketCatalogToken,
  type PolymarketEventRecord,
  type PolymarketFeeSchedule,
  type PolymarketMarketRecord,
  type PolymarketMarketEvent,
  type PolymarketOpenOrder,
  type PolymarketRequest,
  type PolymarketTrade,
} from './codec.ts';

const QUERY_TIMEOUT_MS = 3_000;
/** Order placement times out inside the router's 2 s leg timeout; the router then reconciles by the order id. */
const ORDER_TIMEOUT_MS = 1_500;
/** Gamma pages are large (every market of every event); a read of the catalog is not on an order's path. */
const CATALOG_TIMEOUT_MS = 10_000;
/** Reads of an order and its trades until they agree (a trade can be listed a moment after the order moved). */
const SETTLE_POLL_MS = 50;
const SETTLE_POLLS = 10;
/** The most pages of open orders or trades read in one walk. */
const MAX_PAGES = 20;
/** Gamma events per page (its cap is higher; smaller pages keep each answer well inside the timeout). */
const GAMMA_PAGE = 100;
const DEFAULT_MAX_EVENTS = 500;
/** Our clock against the venue's: an order's trades are read from this long before we signed it. */
const CLOCK_SKEW_S = 60;
/** A stream silent this long is dead: the PING after PING_EVERY_MS of quiet is answered at once. */
const STALE_MS = PING_EVERY_MS + 15_000;
/** Both tokens of a market ride one connection, so a connection holds this many markets. */
const MARKETS_PER_CONNECTION = Math.floor(MAX_TOKENS_PER_CONNECTION / 2);
/**
 * Each whole token's book is read over REST this often and audited against the stream's
 * (`PolymarketBookSync.audit`): the channel has no sequence numbers, so a lost `price_change`
 * on a level nothing touches again is found only this way. 200 tokens a minute is 33 reads in
 * 10 s, against the venue's 1,500 `/book` reads.
 */
const DEFAULT_AUDIT_EVERY_MS = 60_000;
/** An audit that found the books different (`suspect`) is repeated this soon. */
const SUSPECT_RECHECK_MS = 1_000;
const AUDITS_PER_TICK = 4;
/** A closed event that left Gamma's open list is still reported this long after all its markets were determined. */
const RESOLVED_KEPT_MS = 60 * 60_000;
/** Condition ids per Gamma `/markets` read (the core's batch bound). */
const CONDITIONS_PER_READ = 100;
/** Orders this worker signed, kept for lookups (as many as `LiveOrders` keeps sent children). */
const SIGNED_KEPT = 20_000;

/** Requests per 10 s by kind (docs' rate limits, RATE_LIMITS in the core); each request also counts on CLOB. */
const LIMIT_RULES = [
  { name: 'CLOB', limit: RATE_LIMITS.clob_general_per_10s, window_ms: 10_000 },
  { name: 'BOOK', limit: RATE_LIMITS.book_per_10s, window_ms: 10_000 },
  { name: 'POST_ORDER', limit: RATE_LIMITS.post_order.per_10s, window_ms: 10_000 },
  { name: 'DELETE_ORDER', limit: RATE_LIMITS.delete_order.per_10s, window_ms: 10_000 },
  { name: 'LEDGER', limit: RATE_LIMITS.ledger_per_10s, window_ms: 10_000 },
  { name: 'BALANCE', limit: RATE_LIMITS.balance_allowance_per_10s, window_ms: 10_000 },
  { name: 'API_KEYS', limit: RATE_LIMITS.api_keys_per_10s, window_ms: 10_000 },
];
const COST = { general: [1], book: [1, 1], post: [1, 0, 1], cancel: [1, 0, 0, 1], ledger: [1, 0, 0, 0, 1], balance: [1, 0, 0, 0, 0, 1], apiKey: [1, 0, 0, 0, 0, 0, 1] } as const;
const GAMMA_RULES = [
  { name: 'GAMMA_EVENTS', limit: RATE_LIMITS.gamma_events_per_10s, window_ms: 10_000 },
  { name: 'GAMMA_MARKETS', limit: RATE_LIMITS.gamma_markets_per_10s, window_ms: 10_000 },
];
const GAMMA_COST = { events: [1], markets: [0, 1] } as const;
const JSON_HEADERS = { 'Content-Type': 'application/json' };
const NS_PER_MS = 1_000_000;

export interface PolymarketOptions {
  /** Gamma's base URL (the catalog); default the production host, or the CLOB's own when that is on loopback (a local fake serves both). */
  gammaUrl?: string;
  /** the most events a catalog read pages through (default 500) */
  maxEvents?: number;
  /** the edge's at-mid fee figures, answered as the account's tier (prediction fees are per market) */
  fees?: { maker_bps: number; taker_bps: number };
  /** how often each whole token's book is audited against a REST read (default 60 s) */
  auditEveryMs?: number;
}

// ---------------------------------------------------------------------------------------------
// The orders this worker signed

/** An order signed for a child: what finds it again on the venue (the CLOB keeps no client order id). */
interface SignedChild {
  orderId: string;
  /** the catalog's token id */
  token: string;
  sent_ms: number;
  ioc: boolean;
  /** the market's taker fee schedule when it was signed, for its fills */
  fee: PolymarketFeeSchedule | null;
  /** the venue acknowledged it: it exists there even when no longer open and never filled */
  acked: boolean;
}

/** Our child ids as the order store makes them: `ord_`, 9 base36 of ms, 4 of sequence, 3 of suffix, `-n`. */
const STORE_CHILD_ID = /^ord_([0-9a-z]{9})[0-9a-z]{4}[0-9A-Za-z]{3}-\d+$/;

/**
 * The order ids this worker signed, by child id. A Polymarket order id is the EIP-712 digest of
 * the signed order (salt from the child id, terms, the ms it was signed, the account), so it is
 * known before sending, but it can be recomputed only from everything it was signed with: the
 * child id alone does not give it back. So this journal is what `lookup`, `cancel` and
 * `ownOpenOrders` find our orders by. It is kept per CLOB host at module level, like the edge's
 * `LiveOrders` state: the runtime replaces a failed actor (and its adapter) on the same worker,
 * and the new one must still find what the old one sent. A process restart loses it: a child of
 * the last run cannot be looked up (`lookup` throws rather than answer "not found") and is no
 * longer recognised among the open orders.
 */
class SignedOrders {
  /** every child signed since then is in the journal (or was evicted after it) */
  private coveredSince = Date.now();
  private readonly byChild = new RecentMap<string, SignedChild>(SIGNED_KEPT);

  get(child_id: string): SignedChild | undefined {
    return this.byChild.get(child_id);
  }

  remember(child_id: string, signed: SignedChild): void {
    if (this.byChild.size === this.byChild.capacity && !this.byChild.has(child_id)) {
      // The oldest is forgotten: children signed up to then can no longer be told from never-sent ones.
      const oldest = this.byChild.keys().next();
      if (oldest.done !== true) this.coveredSince = Math.max(this.coveredSince, (this.byChild.get(oldest.value)?.sent_ms ?? 0) + 1);
    }
    this.byChild.set(child_id, signed);
  }

  /** Child id -> order id of every order kept, as `ownOpenOrdersOf` takes them. */
  orderIds(): Map<string, string> {
    const out = new Map<string, string>();
    for (const child of this.byChild.keys()) out.set(child, this.byChild.get(child)!.orderId);
    return out;
  }

  /**
   * A child this journal does not hold may still have been signed before it began (a process
   * restart) when its id is older than that: only then is "not found" not an answer. An id not of
   * the store's shape cannot be dated and was not made by the order store.
   */
  mayPredate(child_id: string): boolean {
    const m = STORE_CHILD_ID.exec(child_id);
    return m !== null && parseInt(m[1]!, 36) < this.coveredSince;
  }
}

const SIGNED = new Map<string, SignedOrders>();

function signedOrdersOf(clobUrl: string): SignedOrders {
  let journal = SIGNED.get(clobUrl);
  if (journal === undefined) SIGNED.set(clobUrl, (journal = new SignedOrders()));
  return journal;
}

// ---------------------------------------------------------------------------------------------
// L2 credentials derived on first use

/** A derivation under way or done: every caller awaits the one promise, so concurrent first requests derive once. */
interface DerivedKey {
  pending: Promise<PolymarketApiCredentials>;
  /** set once derived: what a 401 is compared against before the entry is dropped */
  api?: PolymarketApiCredentials;
}

/**
 * L2 credentials derived (L1 ClobAuth) for accounts stored with the signer key alone, by CLOB
 * host and signer address. In this process's memory only, never logged nor written back: the
 * signer key already stored can always derive them again (the venue answers the same key for the
 * same address and nonce), so keeping a second secret at rest would buy nothing. Module level, as
 * the order journal: an adapter replacing a failed one on the same worker derives nothing anew.
 */
const DERIVED = new Map<string, DerivedKey>();

function derivedKeyOf(clobUrl: string, signerAddress: string): string {
  return `${clobUrl} ${signerAddress.toLowerCase()}`;
}

// ---------------------------------------------------------------------------------------------
// Books

/** A followed market: its two tokens' feeds on one connection, published to the edge while both are whole. */
interface FollowedMarket {
  market_id: string;
  yes: string;
  no: string;
  connection: MarketConnection;
  /** told whole to the edge, and not broken since */
  published: boolean;
  ts_ns: number;
}

/** One market-channel socket and the token feeds on it (the venue takes MAX_TOKENS_PER_CONNECTION per socket). */
interface MarketConnection {
  stream: VenueStream;
  feeds: BookFeeds<PolymarketBookSync>;
  markets: Set<string>;
  /** the first subscription (`type: market`) was sent on the socket now open */
  subscribed: boolean;
}

/** A closed event kept after it left the open list: its last record, and since when all its markets are determined. */
interface ClosedEvent {
  record: PolymarketEventRecord;
  determinedSince: number | null;
}

/**
 * Polymarket (CLOB V2) as a live prediction venue. The catalog from Gamma's open events, paged
 * (`decodeGammaEvents`: markets, both tokens and their trading rules); a closed event that left
 * that list is read by condition id (`/markets`) until its outcome is known. Books from the
 * market channel (`/ws/market`): a `PolymarketBookSync` per token, a market whole when both its
 * tokens are; resyncs from REST `/book`, and each whole book audited against REST now and then
 * (the channel has no sequence numbers). Orders are V2 orders signed for the market's exchange
 * (`signedChildOrder`, FAK for an IOC child) and posted with L2 headers; their id is the EIP-712
 * digest, known and journaled before sending, which lookups, cancels and the open-orders list
 * find them by. An account stored with the signer key alone has its L2 credentials derived on
 * first use and kept in memory. The kill switch's sweep arms the venue's heartbeat dead man's
 * switch. docs/venues/polymarket.md.
 */
export class PolymarketPrediction implements LivePredictionVenue {
  readonly venue: PredictionVenue = 'polymarket';
  readonly acceptWindowMs = ACCEPT_WINDOW_MS;
  private readonly rest: VenueRest;
  private readonly gamma: VenueRest;
  private readonly wsUrl: string;
  private readonly maxEvents: number;
  private readonly fees: { maker_bps: number; taker_bps: number };
  private readonly auditEveryMs: number;
  private readonly signed: SignedOrders;
  /** the dead man's switch by API key: the heartbeat id the venue expects next, and the send under way (sends are serialised) */
  private readonly heartbeats = new Map<string, { id: string; sending: Promise<void> }>();
  /** token rules by catalog token id, from the last catalog read */
  private tokens = new Map<string, PolymarketCatalogToken>();
  private readonly closed = new Map<string, ClosedEvent>();
  private lastOpen = new Map<string, PolymarketEventRecord>();
  private catalogRead: Promise<CatalogRecord[]> | undefined;
  private readonly followed = new Map<string, FollowedMarket>();
  private readonly marketOfToken = new Map<string, FollowedMarket>();
  private readonly connections: MarketConnection[] = [];
  /** counters of connections closed since (their markets all unfollowed) */
  private readonly retired = { resyncs: 0, disconnects: 0, updates: 0 };
  private readonly lastAudit = new Map<string, number>();
  private readonly auditing = new Set<string>();
  private auditTimer: NodeJS.Timeout | undefined;
  private sink: MarketSink | undefined;
  private started = false;

  constructor(endpoints: VenueEndpoints, options: PolymarketOptions = {}) {
    this.rest = new VenueRest(endpoints.rest, new VenueLimits(LIMIT_RULES), undefined, endpoints.headers);
    this.gamma = new VenueRest((options.gammaUrl ?? (isLoopback(endpoints.rest) ? endpoints.rest : GAMMA_HOST)).replace(/\/+$/, ''), new VenueLimits(GAMMA_RULES));
    this.wsUrl = `${endpoints.ws}${new URL(MARKET_WS_URL).pathname}`;
    this.maxEvents = options.maxEvents ?? DEFAULT_MAX_EVENTS;
    this.fees = options.fees ?? { maker_bps: 0, taker_bps: 0 };
    this.auditEveryMs = options.auditEveryMs ?? DEFAULT_AUDIT_EVERY_MS;
    this.signed = signedOrdersOf(endpoints.rest);
  }

  // --- book stream --------------------------------------------------------------------------

  start(sink: MarketSink): void {
    this.sink = sink;
    this.started = true;
    for (const c of this.connections) c.stream.start();
    this.auditTimer = setInterval(() => this.auditDue(), Math.max(100, Math.min(1_000, this.auditEveryMs)));
    this.auditTimer.unref();
  }

  stop(): void {
    this.started = false;
    if (this.auditTimer !== undefined) clearInterval(this.auditTimer);
    this.auditTimer = undefined;
    for (const c of this.connections) {
      c.stream.stop();
      c.feeds.stop();
    }
  }

  follow(market: PredictionMarket): boolean {
    if (market.venue !== 'polymarket') return false;
    if (this.followed.has(market.market_id)) return true;
    const yes = catalogTokenId(market.yes_token_id);
    const no = catalogTokenId(market.no_token_id);
    if (yes === undefined || no === undefined) return false;
    // Before the first catalog read nothing is known yet; after it, a market it does not list (or
    // no longer trades) has no book to stream.
    if (this.tokens.size > 0 && (this.tokens.get(yes)?.trading !== true || this.tokens.get(no)?.trading !== true)) return false;
    const connection = this.connectionWithRoom();
    const followed: FollowedMarket = { market_id: market.market_id, yes, no, connection, published: false, ts_ns: 0 };
    this.followed.set(market.market_id, followed);
    connection.markets.add(market.market_id);
    const feeds = [yes, no].map((token) => {
      this.marketOfToken.set(token, followed);
      return connection.feeds.add({ symbol: token, base: token, quote: COLLATERAL_ASSET }, venueTokenId(token));
    });
    if (connection.feeds.connected) this.subscribe(connection, feeds);
    return true;
  }

  unfollow(market_id: string): void {
    const m = this.followed.get(market_id);
    if (m === undefined) return;
    const c = m.connection;
    for (const token of [m.yes, m.no]) {
      const feed = c.feeds.get(token);
      if (feed !== undefined) c.feeds.remove(feed, 'unfollowed');
      this.marketOfToken.delete(token);
      this.lastAudit.delete(token);
    }
    this.followed.delete(market_id);
    c.markets.delete(market_id);
    if (c.markets.size > 0) {
      if (c.feeds.connected) c.stream.send(marketSubscriptionUpdate('unsubscribe', [m.yes, m.no]));
      return;
    }
    c.stream.stop();
    c.feeds.stop();
    this.retired.resyncs += c.feeds.counters.resyncs;
    this.retired.disconnects += c.feeds.counters.disconnects;
    this.retired.updates += c.feeds.counters.updates;
    this.connections.splice(this.connections.indexOf(c), 1);
  }

  marketBook(market_id: string, depth: number): MarketBook | undefined {
    const m = this.followed.get(market_id);
    const yes = m?.connection.feeds.whole(m.yes);
    const no = m?.connection.feeds.whole(m.no);
    if (m === undefined || !m.published || yes === undefined || no === undefined) return undefined;
    const tick = m.connection.feeds.get(m.yes)?.sync.tick_1e9 ?? this.tokens.get(m.yes)?.tick_1e9 ?? 0;
    return { yes: sidesOf(yes, depth), no: sidesOf(no, depth), tick_1e9: tick, ts_ns: m.ts_ns };
  }

  stats(): { connected: boolean; subscribed: number; resyncs: number; disconnects: number; updates: number } {
    const out = { connected: this.connections.every((c) => c.feeds.connected), subscribed: this.followed.size, ...this.retired };
    for (const c of this.connections) {
      out.resyncs += c.feeds.counters.resyncs;
      out.disconnects += c.feeds.counters.disconnects;
      out.updates += c.feeds.counters.updates;
    }
    return out;
  }

  private connectionWithRoom(): MarketConnection {
    const open = this.connections.find((c) => c.markets.size < MARKETS_PER_CONNECTION);
    if (open !== undefined) return open;
    const feeds: BookFeeds<PolymarketBookSync> = new BookFeeds({
      sink: () => this.legSink,
      makeSync: (book, changes) => new PolymarketBookSync(book, changes),
      resync: (feed) => this.resyncFromRest(c, feed),
    });
    const c: MarketConnection = {
      feeds,
      markets: new Set(),
      subscribed: false,
      stream: new VenueStream(
        this.wsUrl,
        {
          onOpen: () => {
            c.feeds.connected = true;
            c.subscribed = false;
            const all = c.feeds.all();
            if (all.length > 0) this.subscribe(c, all);
          },
          onMessage: (text) => this.onFrame(c, text),
          onDown: (reason) => {
            c.subscribed = false;
            c.feeds.down(reason);
          },
        },
        STALE_MS,
        { text: PING, everyMs: PING_EVERY_MS },
      ),
    };
    this.connections.push(c);
    if (this.started) c.stream.start();
    return c;
  }

  /** The first tokens of a socket go in its `type: market` subscription, later ones as `operation: subscribe`; each answers with a `book`. */
  private subscribe(c: MarketConnection, feeds: readonly BookFeed<PolymarketBookSync>[]): void {
    const tokens = feeds.map((f) => f.listing.symbol);
    const sent = c.stream.send(c.subscribed ? marketSubscriptionUpdate('subscribe', tokens) : marketSubscription(tokens));
    if (!sent) return;
    c.subscribed = true;
    for (const feed of feeds) c.feeds.expect(feed);
  }

  /** The feeds speak per token; the edge hears per market, and of a market only while both its tokens are whole. */
  private readonly legSink: MarketSink = {
    onBookWhole: (token, _book, ts_ns) => {
      const m = this.marketOfToken.get(token);
      if (m === undefined) return;
      this.lastAudit.set(token, Date.now());
      m.ts_ns = Math.max(m.ts_ns, ts_ns);
      const yes = m.connection.feeds.whole(m.yes);
      if (m.published || yes === undefined || m.connection.feeds.whole(m.no) === undefined) return;
      m.published = true;
      this.sink?.onBookWhole(m.market_id, yes, m.ts_ns);
    },
    onBookChanges: (token, changes, ts_ns) => {
      const m = this.marketOfToken.get(token);
      if (m === undefined) return;
      m.ts_ns = Math.max(m.ts_ns, ts_ns);
      if (m.published) this.sink?.onBookChanges(m.market_id, changes, ts_ns);
    },
    onBookBroken: (token, reason) => {
      const m = this.marketOfToken.get(token);
      if (m === undefined || !m.published) return;
      m.published = false;
      this.sink?.onBookBroken(m.market_id, reason);
    },
  };

  private onFrame(c: MarketConnection, text: string): void {
    const events = decodeMarketFrame(text);
    if (events === undefined || events === 'pong') return;
    for (const event of events) this.onEvent(c, event);
  }

  private onEvent(c: MarketConnection, event: PolymarketMarketEvent): void {
    const feedOf = (asset: string) => c.feeds.ofVenueSymbol(venueTokenId(asset));
    switch (event.type) {
      case 'book': {
        const feed = feedOf(event.snapshot.asset_id);
        if (feed === undefined) return;
        c.feeds.counters.updates++;
        c.feeds.settle(feed, feed.sync.onSnapshot(event.snapshot), event.snapshot.ts_ms * NS_PER_MS);
        return;
      }
      case 'price_change': {
        const byAsset = new Map<string, typeof event.changes>();
        for (const change of event.changes) {
          const list = byAsset.get(change.asset_id);
          if (list === undefined) byAsset.set(change.asset_id, [change]);
          else list.push(change);
        }
        for (const [asset, changes] of byAsset) {
          const feed = feedOf(asset);
          if (feed === undefined) continue;
          c.feeds.counters.updates++;
          const outcome = feed.sync.onChanges(changes);
          c.feeds.settle(feed, outcome, changes[changes.length - 1]!.ts_ms * NS_PER_MS);
          const best = event.best.filter((b) => b.asset_id === asset).pop();
          // The venue names its top after the change: a kept book whose top differs is audited now.
          if (outcome === 'applied' && best !== undefined && !topAgrees(feed.book, best)) this.auditSoon(feed.listing.symbol);
        }
        return;
      }
      case 'tick_size_change': {
        const feed = feedOf(event.asset_id);
        const rules = this.tokens.get(catalogTokenId(event.asset_id) ?? '');
        // Orders must go on the new tick at once; the book waits for the snapshot that follows.
        if (rules !== undefined) rules.tick_1e9 = event.new_tick_1e9;
        if (feed !== undefined) c.feeds.settle(feed, feed.sync.onTickSizeChange(event.new_tick_1e9), event.ts_ms * NS_PER_MS);
        return;
      }
      case 'market_resolved':
        for (const asset of event.asset_ids) {
          const rules = this.tokens.get(catalogTokenId(asset) ?? '');
          if (rules !== undefined) rules.trading = false;
        }
        return;
      case 'unreadable':
        for (const asset of event.asset_ids) {
          const feed = feedOf(asset);
          if (feed === undefined) continue;
          feed.sync.reset();
          c.feeds.settle(feed, 'gap', Date.now() * NS_PER_MS);
        }
        return;
      default:
        return;
    }
  }

  /** A resync: the token's whole book from REST `/book`, the changes kept meanwhile replayed onto it by the sync. */
  private async resyncFromRest(c: MarketConnection, feed: BookFeed<PolymarketBookSync>): Promise<boolean> {
    const rest = await this.restBook(feed.listing.symbol);
    if (rest.tick_1e9 !== null) {
      feed.sync.tick_1e9 = rest.tick_1e9;
      const rules = this.tokens.get(feed.listing.symbol);
      if (rules !== undefined) rules.tick_1e9 = rest.tick_1e9;
    }
    c.feeds.settle(feed, feed.sync.onSnapshot(rest.snapshot), rest.snapshot.ts_ms * NS_PER_MS);
    return true;
  }

  private async restBook(token: string): Promise<NonNullable<ReturnType<typeof decodeRestBook>>> {
    const answer = await this.rest.send({ method: 'GET', path: bookPath(token), cost: COST.book, timeoutMs: QUERY_TIMEOUT_MS, background: true });
    const book = answer.status === 200 ? decodeRestBook(answer.body) : undefined;
    if (book === undefined) throw new RestFailure(`polymarket /book: HTTP ${answer.status}`, 'network');
    return book;
  }

  private auditSoon(token: string): void {
    this.lastAudit.set(token, Date.now() - this.auditEveryMs);
    this.auditDue();
  }

  /** Audits the whole tokens whose turn has come, a few at a time, one read per token in flight. */
  private auditDue(): void {
    const now = Date.now();
    let budget = AUDITS_PER_TICK - this.auditing.size;
    for (const c of this.connections) {
      for (const feed of c.feeds.all()) {
        if (budget <= 0) return;
        const token = feed.listing.symbol;
        if (!feed.sync.synced || feed.busy || this.auditing.has(token) || (this.lastAudit.get(token) ?? now) + this.auditEveryMs > now) continue;
        budget--;
        void this.audit(c, feed);
      }
    }
  }

  private async audit(c: MarketConnection, feed: BookFeed<PolymarketBookSync>): Promise<void> {
    const token = feed.listing.symbol;
    this.auditing.add(token);
    try {
      const rest = await this.restBook(token);
      // The feed may have been resynced or dropped while the read was on its way.
      if (c.feeds.get(token) !== feed || feed.busy) return;
      const verdict = feed.sync.audit(rest.snapshot);
      this.lastAudit.set(token, verdict === 'suspect' ? Date.now() - this.auditEveryMs + SUSPECT_RECHECK_MS : Date.now());
      if (verdict === 'gap') c.feeds.settle(feed, 'gap', Date.now() * NS_PER_MS);
    } catch {
      // Not read (the venue's limit, a timeout): the next turn tries again.
      this.lastAudit.set(token, Date.now());
    } finally {
      this.auditing.delete(token);
    }
  }

  // --- catalog ------------------------------------------------------------------------------

  readCatalog(): Promise<CatalogRecord[]> {
    this.catalogRead ??= this.readCatalogNow().finally(() => {
      this.catalogRead = undefined;
    });
    return this.catalogRead;
  }

  private async readCatalogNow(): Promise<CatalogRecord[]> {
    const raw = await this.openEvents();
    const decoded = decodeGammaEvents(raw);
    if (decoded === undefined) throw new RestFailure('polymarket gamma /events: unreadable answer', 'network');
    const figures = figuresBySlug(raw);
    const open = new Map(decoded.events.map((e) => [e.event.event_id, e]));
    const gone = [...this.lastOpen.values(), ...[...this.closed.values()].map((c) => c.record)].filter((e) => !open.has(e.event.event_id));
    const closed = await this.closedEvents(gone);
    this.lastOpen = open;
    const records = [...open.values(), ...closed];
    const tokens = new Map<string, PolymarketCatalogToken>();
    for (const r of records) for (const t of r.tokens) tokens.set(t.catalog_id, t);
    this.tokens = tokens;
    return records.map((r) => ({
      event: r.event,
      yes_won: r.yes_won,
      resolved_ms: r.resolved_ms,
      anchor_usd: r.anchor_usd,
      final_usd: r.final_usd,
      figures: r.event.markets.map((m) => (open.has(r.event.event_id) ? (figures.get(m.market_id) ?? null) : null)),
    }));
  }

  /** Gamma's open events, page by page up to `maxEvents`. */
  private async openEvents(): Promise<unknown[]> {
    const raw: unknown[] = [];
    while (raw.length < this.maxEvents) {
      const limit = Math.min(GAMMA_PAGE, this.maxEvents - raw.length);
      const page = await this.gammaRead(gammaEventsPath(limit, raw.length), GAMMA_COST.events);
      if (!Array.isArray(page)) throw new RestFailure('polymarket gamma /events: not a list', 'network');
      raw.push(...(page as unknown[]));
      if (page.length < limit) break;
    }
    return raw;
  }

  /**
   * Events that left the open list: their markets read again by condition id, so an outcome
   * determined after the event closed still reaches the edge. An event none of whose markets is
   * closed left the list for another reason (past `maxEvents`, archived) and is dropped; one whose
   * markets are all determined is reported RESOLVED_KEPT_MS more, then dropped.
   */
  private async closedEvents(gone: PolymarketEventRecord[]): Promise<PolymarketEventRecord[]> {
    const conditions = [...new Set(gone.flatMap((e) => e.event.markets.map((m) => m.condition_id ?? '')).filter((c) => c !== ''))];
    const byCondition = new Map<string, PolymarketMarketRecord>();
    for (let i = 0; i < conditions.length; i += CONDITIONS_PER_READ) {
      const decoded = decodeGammaMarkets(await this.gammaRead(gammaMarketsByConditionPath(conditions.slice(i, i + CONDITIONS_PER_READ)), GAMMA_COST.markets));
      if (decoded === undefined) throw new RestFailure('polymarket gamma /markets: not a list', 'network');
      for (const m of decoded.markets) if (m.market.condition_id !== null) byCondition.set(m.market.condition_id, m);
    }
    const now = Date.now();
    const before = new Map(this.closed);
    this.closed.clear();
    const kept: PolymarketEventRecord[] = [];
    for (const old of gone) {
      const rec = closedRecordOf(old, byCondition);
      if (rec === undefined) continue;
      const previous = before.get(rec.event.event_id)?.determinedSince ?? null;
      const determinedSince = rec.yes_won.every((w) => w !== null) ? (previous ?? now) : null;
      if (determinedSince !== null && now - determinedSince > RESOLVED_KEPT_MS) continue;
      this.closed.set(rec.event.event_id, { record: rec, determinedSince });
      kept.push(rec);
    }
    return kept;
  }

  private async gammaRead(path: string, cost: readonly number[]): Promise<unknown> {
    const answer = await this.gamma.send({ method: 'GET', path, cost, timeoutMs: CATALOG_TIMEOUT_MS });
    if (answer.status !== 200 || answer.body === undefined) throw new RestFailure(`polymarket gamma ${path.split('?')[0]}: HTTP ${answer.status}`, 'network');
    return answer.body;
  }

  // --- orders -------------------------------------------------------------------------------

  async submit(account: VenueAccount, leg: LegRequest): Promise<LegReport> {
    const rules = this.tokens.get(catalogTokenId(leg.symbol) ?? '');
    // Without the catalog's rules (tick, exchange, fee) the order could only be guessed at.
    if (rules === undefined) return refusedLeg(`polymarket: ${leg.symbol} is not (yet) known from the catalog`);
    const terms = childOrderTerms(rules, leg.side, leg.qty_1e8, leg.limit_price_1e9, leg.time_in_force);
    if (!terms.ok) return refusedLeg(terms.reason);
    let pm: PolymarketAccount;
    try {
      pm = await this.accountFor(account);
    } catch (err) {
      // The order was not sent: credentials that cannot trade, or L2 credentials not derived, refuse it.
      if (err instanceof RestFailure && err.kind === 'rate_limited') throw err;
      return refusedLeg(err instanceof VenueRejection ? err.reason : `polymarket: L2 API credentials not derived (${(err as Error).message})`);
    }
    const sent_ms = Date.now();
    const order = signedChildOrder(pm, rules, leg.child_id, terms.terms, sent_ms);
    const entry: SignedChild = { orderId: order.orderId, token: rules.catalog_id, sent_ms, ioc: terms.terms.orderType === 'FAK', fee: rules.fee, acked: false };
    // Journaled before it is sent: a lost answer is looked up by this id.
    this.signed.remember(leg.child_id, entry);
    let answer: RestAnswer;
    try {
      answer = await this.clob(pm, 'POST', POST_ORDER_PATH, { body: order.body }, COST.post, ORDER_TIMEOUT_MS);
    } catch (err) {
      // Never sent (the venue's limits): a refusal the edge answers itself.
      if (err instanceof RestFailure && err.kind === 'rate_limited') throw err;
      throw new RestFailure(`order sent, no answer: ${(err as Error).message}`, 'timeout');
    }
    const ack = decodePostOrder(answer.status, answer.body);
    const settled = settledReportOf(ack);
    if (settled !== undefined) return settled;
    if (ack.kind !== 'accepted') throw new RestFailure(ack.kind === 'fate-unknown' ? ack.reason : 'polymarket: unexpected order answer', 'timeout');
    entry.acked = true;
    // The venue names the order by its own hash of it: should ours ever differ, its name is the one it lists.
    if (ack.orderId.toLowerCase() !== entry.orderId.toLowerCase()) entry.orderId = ack.orderId;
    try {
      const found = await this.settled(pm, entry, ack.tradeIds);
      if (!found.found) throw new Error('placed but not found');
      return found.report;
    } catch (err) {
      throw new RestFailure(`order placed, its state not read: ${(err as Error).message}`, 'timeout');
    }
  }

  async lookup(account: VenueAccount, child_id: string, _symbol: string, knownFilled_1e8?: number): Promise<OrderLookup> {
    const entry = this.signed.get(child_id);
    if (entry === undefined) {
      if (this.signed.mayPredate(child_id)) throw new RestFailure(`polymarket: ${child_id} may have been signed before this process started; its order id cannot be recomputed`, 'network');
      return { found: false };
    }
    const pm = await this.accountFor(account);
    return this.settled(pm, entry, [], knownFilled_1e8);
  }

  async cancel(account: VenueAccount, child_id: string, _symbol: string): Promise<{ found: boolean; cancelled_qty_1e8: number }> {
    const entry = this.signed.get(child_id);
    if (entry === undefined) return { found: false, cancelled_qty_1e8: 0 };
    const pm = await this.accountFor(account);
    const before = await this.order(pm, entry.orderId);
    if (before === null || before.resting_1e8 === 0) return { found: false, cancelled_qty_1e8: 0 };
    const answer = await this.clob(pm, 'DELETE', CANCEL_ORDER_PATH, { body: cancelOrderBody(entry.orderId) }, COST.cancel, QUERY_TIMEOUT_MS);
    const outcome = cancelOutcome(answer.body, entry.orderId);
    if (outcome === undefined) throw failureOf(answer, 'cancel');
    if (typeof outcome === 'object') throw new VenueRejection(outcome.refused);
    const after = await this.order(pm, entry.orderId);
    // Still on the book after the venue's answer: not cancelled yet, the caller asks again.
    if (after !== null && after.resting_1e8 > 0) throw new RestFailure(`order ${entry.orderId} still working after its cancel`, 'timeout');
    // The CLOB lists only working orders: what filled up to the cancel is read from the trades.
    const filled = after?.matched_1e8 ?? sumOf((await this.fills(pm, entry)).fills);
    return cancelledBetween({ resting_qty_1e8: before.resting_1e8, filled_qty_1e8: before.matched_1e8 }, { filled_qty_1e8: filled });
  }

  /**
   * The account's open orders that are children of ours: those whose id this worker journaled
   * when it signed them (`ownOpenOrdersOf`). The CLOB keeps no client order id and an order id
   * cannot be recomputed from a child id alone, so orders signed before this process started are
   * not found here (prediction children are FAK: none of ours rests past its answer).
   */
  async ownOpenOrders(account: VenueAccount): Promise<{ child_id: string; symbol: string }[]> {
    const pm = await this.accountFor(account);
    return ownOpenOrdersOf(await this.openOrders(pm), this.signed.orderIds()).map(({ child_id, order }) => ({ child_id, symbol: catalogTokenId(order.asset_id) ?? order.asset_id }));
  }

  /**
   * The kill switch: every open order of the account on these tokens, ours or placed by hand.
   * `DELETE /cancel-all` when every open order of the account is on them (one request), else
   * `DELETE /cancel-market-orders` per token with an open order, so the account's other markets
   * are left alone by the sweep. Then the dead man's switch (`armDeadMan`), whether the sweep
   * went through or not: a sweep that failed is when the venue's own cancel matters most.
   */
  async cancelAll(account: VenueAccount, symbols: readonly string[]): Promise<number> {
    const pm = await this.accountFor(account);
    try {
      return await this.sweep(pm, symbols);
    } finally {
      await this.armDeadMan(pm);
    }
  }

  private async sweep(pm: PolymarketAccount, symbols: readonly string[]): Promise<number> {
    const wanted = new Set(symbols.map((s) => catalogTokenId(s) ?? s));
    const open = await this.openOrders(pm);
    const mine = open.filter((o) => wanted.has(catalogTokenId(o.asset_id) ?? o.asset_id));
    if (mine.length === 0) return 0;
    const requests = mine.length === open.length ? [{ path: CANCEL_ALL_PATH, body: '' }] : [...new Set(mine.map((o) => o.asset_id))].map((asset_id) => ({ path: CANCEL_MARKET_ORDERS_PATH, body: cancelMarketOrdersBody({ asset_id }) }));
    let cancelled = 0;
    let refusal: string | undefined;
    for (const r of requests) {
      const answer = await this.clob(pm, 'DELETE', r.path, { body: r.body }, COST.cancel, QUERY_TIMEOUT_MS);
      const decoded = answer.status === 200 ? decodeCancel(answer.body) : undefined;
      if (decoded === undefined) throw failureOf(answer, 'cancel-all');
      cancelled += decoded.canceled.length;
      for (const reason of decoded.notCanceled.values()) if (polymarketError(400, { error: reason })?.kind !== 'unknown-order') refusal ??= `polymarket: ${reason}`;
    }
    if (refusal !== undefined) throw new VenueRejection(refusal);
    return cancelled;
  }

  /** The account's pUSD (the venue's collateral, booked as USDC): `GET /balance-allowance`, all of it free. */
  async balances(account: VenueAccount): Promise<AssetBalance[]> {
    const pm = await this.accountFor(account);
    const body = await this.read(pm, BALANCE_ALLOWANCE_PATH, balanceAllowanceQuery(pm, { collateral: true }), COST.balance, 'balance-allowance');
    const decoded = decodeBalanceAllowance(body);
    if (decoded === undefined) throw new RestFailure('polymarket balance-allowance: unreadable answer', 'network');
    return [assetBalanceOf(COLLATERAL_ASSET, decoded.balance_base)];
  }

  /** Trading is off in close-only mode; fees are per market, so the tier is the edge's at-mid figures. */
  async probe(account: VenueAccount): Promise<AccountProbe> {
    const pm = await this.accountFor(account);
    return accountProbeOf(await this.read(pm, CLOSED_ONLY_PATH, undefined, COST.general, 'closed-only'), this.fees);
  }

  /**
   * The dead man's switch: one heartbeat (`POST /v1/heartbeats`) and then none, so the venue
   * cancels every open order of the API key HEARTBEAT_DEADLINE_MS later, on every market of the
   * account, as Hyperliquid's `scheduleCancel` does. An order the sweep did not see (in flight,
   * reaching the book just after the list was read) is cancelled then. The venue chains
   * heartbeats by id: the one it last gave us, "" to start; one it no longer expects (a chain
   * ended at its deadline, another sender's) is refused naming the id it does, which is resent
   * once. Sends of one key are serialised, as the venue asks. Best effort: never throws.
   */
  private armDeadMan(pm: PolymarketAccount): Promise<void> {
    const key = pm.api?.apiKey ?? pm.signerAddress;
    let chain = this.heartbeats.get(key);
    if (chain === undefined) this.heartbeats.set(key, (chain = { id: '', sending: Promise.resolve() }));
    const armed = chain;
    armed.sending = armed.sending.then(() => this.heartbeat(pm, armed));
    return armed.sending;
  }

  private async heartbeat(pm: PolymarketAccount, chain: { id: string }): Promise<void> {
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        const answer = await this.clob(pm, 'POST', HEARTBEAT_PATH, { body: heartbeatBody(chain.id) }, COST.general, QUERY_TIMEOUT_MS);
        const decoded = decodeHeartbeat(answer.body);
        if (decoded === undefined) return;
        if (decoded.ok) {
          chain.id = decoded.heartbeatId;
          return;
        }
        chain.id = decoded.expected;
      }
    } catch {
      // Not armed (no answer, the venue's limit): the sweep stands on its own.
    }
  }

  // --- credentials --------------------------------------------------------------------------

  /**
   * The account behind the credentials, a VenueRejection when these cannot trade. Stored L2
   * credentials are used as stored; without them they are derived with the signer key on first
   * use (`derivedApi`).
   */
  private async accountFor(account: VenueAccount): Promise<PolymarketAccount> {
    const resolved = polymarketAccountOf(account.credentials);
    if (!resolved.ok) throw new VenueRejection(`polymarket: ${resolved.reason}`);
    if (resolved.account.api !== null) return resolved.account;
    return { ...resolved.account, api: await this.derivedApi(resolved.account) };
  }

  /** The signer's derived L2 credentials, derived once per host and signer (DERIVED); a failed derivation is forgotten, so the next request tries again. */
  private derivedApi(pm: PolymarketAccount): Promise<PolymarketApiCredentials> {
    const key = derivedKeyOf(this.rest.baseUrl, pm.signerAddress);
    const known = DERIVED.get(key);
    if (known !== undefined) return known.pending;
    const entry: DerivedKey = { pending: this.deriveApiKey(pm) };
    DERIVED.set(key, entry);
    entry.pending.then(
      (api) => {
        entry.api = api;
      },
      () => {
        if (DERIVED.get(key) === entry) DERIVED.delete(key);
      },
    );
    return entry.pending;
  }

  /**
   * `GET /auth/derive-api-key` (the key the signer already has for nonce 0), else, when it has
   * none (400 "Could not derive api key!"), `POST /auth/api-key` to make one. Derive first: it
   * changes nothing at the venue. A refused ClobAuth (401 "Invalid L1 Request headers") is the
   * venue's refusal, not tried again.
   */
  private async deriveApiKey(pm: PolymarketAccount): Promise<PolymarketApiCredentials> {
    const derived = await this.l1(apiKeyRequest('derive', pm.signerKey, Math.floor(Date.now() / 1000)));
    const api = derived.status === 200 ? decodeApiKey(derived.body) : undefined;
    if (api !== undefined) return api;
    if (derived.status !== 400 || polymarketError(derived.status, derived.body)?.kind !== 'refused') throw failureOf(derived, 'derive-api-key');
    const created = await this.l1(apiKeyRequest('create', pm.signerKey, Math.floor(Date.now() / 1000)));
    const made = created.status === 200 ? decodeApiKey(created.body) : undefined;
    if (made === undefined) throw failureOf(created, 'api-key');
    return made;
  }

  private l1(req: PolymarketRequest): Promise<RestAnswer> {
    return this.rest.send({ method: req.method, path: req.path, headers: req.headers, cost: COST.apiKey, timeoutMs: QUERY_TIMEOUT_MS });
  }

  // --- reads --------------------------------------------------------------------------------

  /**
   * An order's report: read (the CLOB lists it while it works) with its trades until they agree:
   * the fills add up to what the order matched, every trade the placement answer named is among
   * them, and an IOC is no longer working (a market's matching delay holds a FAK `DELAYED`). An
   * order neither listed nor traded was never placed, unless the venue acknowledged it (a resting
   * order cancelled before any fill).
   */
  private async settled(pm: PolymarketAccount, entry: SignedChild, tradeIds: readonly string[], knownFilled_1e8?: number): Promise<OrderLookup> {
    for (let poll = 0; ; poll++) {
      const order = await this.order(pm, entry.orderId);
      const working = order !== null && order.resting_1e8 > 0;
      // Nothing executed since the caller was told: no trades to read (a resting leg's poll).
      if (order !== null && order.matched_1e8 === knownFilled_1e8 && !(entry.ioc && working)) return { found: true, report: legReportOf(order, []) };
      const { fills } = await this.fills(pm, entry);
      const ids = new Set(fills.map((f) => f.trade_id));
      const complete = (order === null || sumOf(fills) === order.matched_1e8) && tradeIds.every((t) => ids.has(t));
      if (complete && !(entry.ioc && working)) {
        if (order === null && fills.length === 0 && !entry.acked) return { found: false };
        return { found: true, report: legReportOf(order, fills) };
      }
      if (poll >= SETTLE_POLLS) throw new RestFailure(`order ${entry.orderId} not settled`, 'timeout');
      await sleep(SETTLE_POLL_MS);
    }
  }

  /** The order while the CLOB lists it (working), else null (filled, cancelled, killed or never placed). */
  private async order(pm: PolymarketAccount, orderId: string): Promise<PolymarketOpenOrder | null> {
    const answer = await this.clob(pm, 'GET', orderPath(orderId), {}, COST.ledger, QUERY_TIMEOUT_MS);
    if (answer.status !== 200) {
      const error = polymarketError(answer.status, answer.body);
      if (error?.kind === 'unknown-order') return null;
      throw failureOf(answer, 'order');
    }
    const decoded = decodeOrder(answer.body ?? null);
    if (decoded === undefined) throw new RestFailure('polymarket order: unreadable answer', 'network');
    return decoded.found ? decoded.order : null;
  }

  /** The order's fills among the account's trades on its token since it was signed (the CLOB filters trades by token, not by order). */
  private async fills(pm: PolymarketAccount, entry: SignedChild): Promise<ReturnType<typeof fillsOfOrder>> {
    const trades: PolymarketTrade[] = [];
    let cursor = INITIAL_CURSOR;
    for (let page = 0; page < MAX_PAGES && cursor !== END_CURSOR; page++) {
      const body = await this.read(pm, TRADES_PATH, tradesQuery(pm.maker, { asset_id: entry.token, after_s: Math.floor(entry.sent_ms / 1000) - CLOCK_SKEW_S, cursor }), COST.ledger, 'trades');
      const decoded = decodeTrades(body);
      if (decoded === undefined) throw new RestFailure('polymarket trades: unreadable answer', 'network');
      trades.push(...decoded.trades);
      cursor = decoded.next_cursor === '' ? END_CURSOR : decoded.next_cursor;
    }
    return fillsOfOrder(trades, entry.orderId, entry.fee);
  }

  private async openOrders(pm: PolymarketAccount): Promise<PolymarketOpenOrder[]> {
    const orders: PolymarketOpenOrder[] = [];
    let cursor = INITIAL_CURSOR;
    for (let page = 0; page < MAX_PAGES && cursor !== END_CURSOR; page++) {
      const decoded = decodeOpenOrders(await this.read(pm, OPEN_ORDERS_PATH, openOrdersQuery(cursor), COST.ledger, 'orders'));
      if (decoded === undefined) throw new RestFailure('polymarket orders: unreadable answer', 'network');
      orders.push(...decoded.orders);
      cursor = decoded.next_cursor === '' ? END_CURSOR : decoded.next_cursor;
    }
    return orders;
  }

  /** An L2 read: its body, or why not (a refused key is a rejection, anything else a read that did not happen). */
  private async read(pm: PolymarketAccount, path: string, query: Record<string, string | number | undefined> | undefined, cost: readonly number[], what: string): Promise<unknown> {
    const answer = await this.clob(pm, 'GET', path, query === undefined ? {} : { query }, cost, QUERY_TIMEOUT_MS);
    if (answer.status !== 200) throw failureOf(answer, what);
    return answer.body;
  }

  /**
   * An L2-authenticated CLOB request: the HMAC covers the path without its query, and the exact
   * body sent. A derived key the venue refuses (401: revoked, or replaced by a newer one) is
   * forgotten, so the next request derives again; this one stands refused.
   */
  private async clob(pm: PolymarketAccount, method: 'GET' | 'POST' | 'DELETE', path: string, options: { query?: Record<string, string | number | undefined>; body?: string }, cost: readonly number[], timeoutMs: number): Promise<RestAnswer> {
    const req = l2Request(pm, method, path, Math.floor(Date.now() / 1000), options);
    const answer = await this.rest.send({ method, path: req.path, headers: req.body === '' ? req.headers : { ...JSON_HEADERS, ...req.headers }, ...(req.body === '' ? {} : { body: req.body }), cost, timeoutMs });
    if (answer.status === 401) {
      const key = derivedKeyOf(this.rest.baseUrl, pm.signerAddress);
      if (DERIVED.get(key)?.api === pm.api) DERIVED.delete(key);
    }
    return answer;
  }
}

// ---------------------------------------------------------------------------------------------

/** A local fake (`POLYMARKET_REST_URL=http://127.0.0.1:...`) serves Gamma too; any other CLOB override is the real catalog's business. */
function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === '127.0.0.1' || host === 'localhost' || host === '[::1]' || host === '::1';
}

/** An error answer as the caller throws it: a refused key or request is a rejection; anything else a read that did not happen. */
function failureOf(answer: RestAnswer, what: string): Error {
  const error = polymarketError(answer.status, answer.body);
  if (error !== undefined && (error.kind === 'auth' || error.kind === 'refused' || error.kind === 'halted' || error.kind === 'funds')) return new VenueRejection(error.reason);
  return new RestFailure(`polymarket ${what}: ${error?.reason ?? `HTTP ${answer.status}`}`, 'network');
}

/**
 * An event that left the open list, with its markets as `/markets` tells them now (their
 * timeline, outcome and whether they trade; the rest of the record as it was listed). Undefined
 * when none of its markets is closed: it did not close.
 */
function closedRecordOf(old: PolymarketEventRecord, byCondition: ReadonlyMap<string, PolymarketMarketRecord>): PolymarketEventRecord | undefined {
  let anyClosed = false;
  const rec: PolymarketEventRecord = { ...old, event: { ...old.event, markets: [] }, yes_won: [], resolved_ms: [], tokens: [] };
  old.event.markets.forEach((market, i) => {
    const fresh = market.condition_id === null ? undefined : byCondition.get(market.condition_id);
    const trading = fresh?.tokens.every((t) => t.trading) ?? false;
    if (fresh !== undefined && !trading) anyClosed = true;
    rec.event.markets.push(fresh === undefined ? market : { ...market, timeline: fresh.market.timeline });
    rec.yes_won.push(fresh?.yes_won ?? old.yes_won[i] ?? null);
    rec.resolved_ms.push(fresh?.resolved_ms ?? old.resolved_ms[i] ?? null);
    rec.tokens.push(...old.tokens.filter((t) => t.market_id === market.market_id).map((t) => ({ ...t, trading: trading && t.trading })));
  });
  return anyClosed ? rec : undefined;
}

/** Gamma's touch and volumes of each market (by slug, the catalog's market id), from the same pages. */
function figuresBySlug(events: readonly unknown[]): Map<string, CatalogFigures> {
  const out = new Map<string, CatalogFigures>();
  for (const e of events) {
    const markets = record(e)?.['markets'];
    if (!Array.isArray(markets)) continue;
    for (const raw of markets as unknown[]) {
      const m = record(raw);
      const slug = m?.['slug'];
      const figures = m === undefined ? null : figuresOf(m);
      if (typeof slug === 'string' && figures !== null) out.set(slug, figures);
    }
  }
  return out;
}

/** A market's `bestBid`/`bestAsk` (the YES token's; NO's book is its mirror) and `volume24hr`/`volumeNum`; null when Gamma gives none. */
function figuresOf(m: Record<string, unknown>): CatalogFigures | null {
  const bid = priceOf(m['bestBid']);
  const ask = priceOf(m['bestAsk']);
  const day = usdOf(m['volume24hr']);
  const total = usdOf(m['volumeNum'] ?? m['volume']);
  if (bid === undefined && ask === undefined && day === undefined && total === undefined) return null;
  const yesBid = bid !== undefined && bid > 0 ? bid : -1;
  const yesAsk = ask !== undefined && ask > 0 && ask < 1_000_000_000 ? ask : -1;
  return {
    yes_bid_1e9: yesBid,
    yes_ask_1e9: yesAsk,
    no_bid_1e9: yesAsk < 0 ? -1 : 1_000_000_000 - yesAsk,
    no_ask_1e9: yesBid < 0 ? -1 : 1_000_000_000 - yesBid,
    volume_24h_usd: day ?? 0,
    volume_total_usd: total ?? 0,
  };
}

function priceOf(v: unknown): number | undefined {
  const text = typeof v === 'number' && Number.isFinite(v) ? String(v) : typeof v === 'string' ? v : undefined;
  const p = text === undefined ? NaN : parseScaled(text, 9);
  return p >= 0 && p <= 1_000_000_000 ? p : undefined;
}

/** A volume in USD as Gamma writes it (a JSON number, or text): a figure shown, never booked. */
function usdOf(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v !== '' ? Number(v) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** Whether the kept book's top is the one the venue named with a change (a side it names as empty or at 0/1 is not compared). */
function topAgrees(book: L2Book, best: { bid_1e9: number | null; ask_1e9: number | null }): boolean {
  if (best.bid_1e9 !== null && best.bid_1e9 > 0 && book.best(Side.BID) !== best.bid_1e9) return false;
  if (best.ask_1e9 !== null && best.ask_1e9 > 0 && best.ask_1e9 < 1_000_000_000 && book.best(Side.ASK) !== best.ask_1e9) return false;
  return true;
}

function levelsOf(book: L2Book, side: Side, depth: number): Level[] {
  const flat = book.flat(side, depth);
  const out: Level[] = [];
  for (let i = 0; i < flat.length; i += 2) out.push({ price_1e9: flat[i]!, qty_1e8: flat[i + 1]! });
  return out;
}

function sidesOf(book: L2Book, depth: number): { bids: Level[]; asks: Level[] } {
  return { bids: levelsOf(book, Side.BID, depth), asks: levelsOf(book, Side.ASK, depth) };
}

function sumOf(fills: readonly VenueFill[]): number {
  return fills.reduce((sum, f) => sum + f.qty_1e8, 0);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
