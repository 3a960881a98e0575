import type { VenueId } from '../../../domain/market.ts';
import type { VenueCredentials } from '../../../storage/credential-shapes.ts';
import type { FundingInfo, FundingPoint } from '../messages.ts';
import type { L2Book } from './l2-book.ts';

/**
 * What a real venue adapter implements (`binance/adapter.ts`, ...), and what the live edge
 * (`actor.ts`) gives it. The adapter speaks the venue's wire formats and signing; the edge keeps
 * everything the simulated edge keeps (books to the book actors and the depth cache, the child
 * journal, resting children, reconciliation), so the router cannot tell the two apart.
 */

/** One client's account on the venue: its decrypted credentials, held in memory only. */
export interface VenueAccount {
  client_id: string;
  credentials: VenueCredentials;
}

/** A child order as the venue is asked for it. */
export interface LegRequest {
  /** our child id: sent as the venue's client order id, so a lost answer is found by it and never doubled */
  child_id: string;
  symbol: string;
  side: 'buy' | 'sell';
  qty_1e8: number;
  /** null: at any price (the SOR always sends a limit; kept for adapters' own use) */
  limit_price_1e9: number | null;
  /** ioc: what does not fill now is cancelled; gtc: it rests */
  time_in_force: 'ioc' | 'gtc';
}

/** A fill as the venue reports it, its commission priced in USD 1e9. */
export interface VenueFill {
  price_1e9: number;
  qty_1e8: number;
  trade_id: string;
  ts_ns: number;
  /** the commission in USD 1e9 (quote currencies are USD-pegged; other assets at the fill's price) */
  fee_1e9: number;
  /** the asset the venue took its commission in, and how much (x 1e8), when it is not the quote */
  commission?: { asset: string; qty_1e8: number };
  is_maker: boolean;
  /** executed by another region's node (a remote edge): its region */
  region?: string;
}

/** What became of a child at the venue. */
export interface LegReport {
  /** false: the venue refused it (`reason` has the venue's code and message) */
  ok: boolean;
  reason: string | null;
  fills: VenueFill[];
  /** what still rests on the venue's book */
  resting_qty_1e8: number;
}

/** A child the venue refused, or that was refused before it was sent: nothing reached the book. */
export function refusedLeg(reason: string): LegReport {
  return { ok: false, reason, fills: [], resting_qty_1e8: 0 };
}

/** A child looked up by its client order id (reconciliation, resting fills). */
export type OrderLookup = { found: false } | { found: true; report: LegReport };

/**
 * A child's limit on the venue's tick: a buy's rounds down, a sell's up, so the limit never
 * loosens (the catalog's tick can be finer than the venue's). Integers only.
 */
export function limitOnTick(side: 'buy' | 'sell', limit_1e9: number | null, tick_1e9: number): number | null {
  if (limit_1e9 === null || !(tick_1e9 > 0)) return limit_1e9;
  const off = limit_1e9 % tick_1e9;
  return side === 'buy' ? limit_1e9 - off : limit_1e9 + ((tick_1e9 - off) % tick_1e9);
}

/**
 * What a cancel took off the book: what rested before it, less what filled between the read
 * before and the read after (`after` undefined: the venue no longer lists the order, nothing
 * more filled). The venues acknowledge a cancel before it is done, so only the two reads tell.
 */
export function cancelledBetween(before: { resting_qty_1e8: number; filled_qty_1e8: number }, after: { filled_qty_1e8: number } | undefined): { found: boolean; cancelled_qty_1e8: number } {
  const filledMeanwhile = after === undefined ? 0 : after.filled_qty_1e8 - before.filled_qty_1e8;
  const cancelled = Math.max(0, before.resting_qty_1e8 - filledMeanwhile);
  return { found: cancelled > 0, cancelled_qty_1e8: cancelled };
}

/** Our child ids (`ord_<id>-<n>`, execution/risk.ts): how an order on the venue is known as ours. */
const CHILD_ID = /^ord_[0-9A-Za-z]+-\d+$/;

export function isChildId(id: string): boolean {
  return CHILD_ID.test(id);
}

/** A venue refused a request outright (an error body): the child did not reach the book. */
export class VenueRejection extends Error {
  constructor(
    /** the venue's code and message, as the child's reason */
    readonly reason: string,
    /** the venue says the order does not exist (lookup and cancel) */
    readonly unknownOrder = false,
  ) {
    super(reason);
  }
}

export interface AssetBalance {
  asset: string;
  free_1e8: bigint;
  locked_1e8: bigint;
}

export interface AccountProbe {
  /** the venue's fee tier name, or its maker/taker rates as the tier */
  tier: string;
  maker_bps: number;
  taker_bps: number;
  can_trade: boolean;
  /** true, false, or null when the venue does not say */
  can_withdraw: boolean | null;
}

/** What the adapter tells the edge about its books. */
export interface MarketSink {
  /** The book of `symbol` is whole (again) from now: publish it entire. */
  onBookWhole(symbol: string, book: L2Book, ts_ns: number): void;
  /** Levels changed on a whole book, flat [side, price_1e9, qty_1e8, ...] (drained by the edge). */
  onBookChanges(symbol: string, changes: number[], ts_ns: number): void;
  /** The book is no longer whole (gap, checksum, stale or closed stream): route nothing on it until whole again. */
  onBookBroken(symbol: string, reason: string): void;
}

/** Where a venue reached through another region's node is (`actors/region-link/region-venue.ts`). */
export interface RemoteOrigin {
  region: string;
  /** the data's age here, transit included, ms; undefined before the first status */
  age_ms: number | undefined;
  /** an order's one-way time to the venue from here, ms: the edge's own latency plus half the round trip to its node */
  latency_ms: number;
}

export interface LiveVenue {
  readonly venue: VenueId;
  /** Instruments (rules into the adapter's catalog) and streams for the symbols subscribed so far. */
  start(sink: MarketSink): void;
  stop(): void;
  /** Starts streaming a symbol's book; false when the venue does not list it. */
  subscribe(symbol: string): boolean;
  book(symbol: string): L2Book | undefined;
  /** Market-data connection state and counters, for the edge status. */
  stats(): { connected: boolean; subscribed: number; resyncs: number; disconnects: number; updates: number };
  submit(account: VenueAccount, leg: LegRequest): Promise<LegReport>;
  /** Cancels a resting child; answers what was cancelled, or `found: false` when nothing rested. */
  cancel(account: VenueAccount, child_id: string, symbol: string): Promise<{ found: boolean; cancelled_qty_1e8: number }>;
  /**
   * The child as the venue has it: its fills (all of them, consistent with the venue's executed
   * quantity) and what rests. With `knownFilled_1e8` (what the caller was already told), an
   * adapter may skip reading trades when nothing more executed: `fills` is then empty.
   */
  lookup(account: VenueAccount, child_id: string, symbol: string, knownFilled_1e8?: number): Promise<OrderLookup>;
  /** The account's open orders this service placed: our child ids (read back from the venue's client order ids) and their symbols. */
  ownOpenOrders(account: VenueAccount): Promise<{ child_id: string; symbol: string }[]>;
  /** Cancels every open order of the account on these symbols; answers how many. */
  cancelAll(account: VenueAccount, symbols: readonly string[]): Promise<number>;
  balances(account: VenueAccount): Promise<AssetBalance[]>;
  probe(account: VenueAccount): Promise<AccountProbe>;
  /** How long after a write was sent the venue can no longer accept it (Binance `recvWindow`): a lookup that finds nothing after this is final. */
  readonly acceptWindowMs: number;
  /**
   * A perp venue's funding now, one entry per symbol it has figures for (one read may serve them
   * all: Hyperliquid's `metaAndAssetCtxs`). Absent on a spot venue; rejects when the venue could
   * not be read. The edge caches the answer briefly.
   */
  funding?(symbols: readonly string[]): Promise<FundingInfo[]>;
  /** A perp venue's settled funding of `symbol` at the instants in [from_ns, to_ns], ascending; rejects when the venue could not be read. */
  fundingHistory?(symbol: string, from_ns: number, to_ns: number): Promise<FundingPoint[]>;
  /** A venue reached through another region's node: where, and how far; absent for a venue reached directly. */
  remote?(): RemoteOrigin | undefined;
}

/** The order half every live venue shares, spot, perp or prediction (`orders.ts` `LiveOrders` drives it). */
export type OrderVenue = Pick<LiveVenue, 'venue' | 'submit' | 'cancel' | 'lookup' | 'ownOpenOrders' | 'cancelAll' | 'acceptWindowMs'>;
