import { topic } from '../../engine/topic.ts';
import type { FundingInfo, FundingPoint } from './sim/sim-venue.ts';
import type { LegFaultPolicy } from './sim/venue-faults.ts';

/** Messages of an edge actor (`edge:<edge_id>`, e.g. `edge:venue-edge-binance-perp`). */
export type EdgeMessage =
  | { t: 'Status' }
  /** Cold path: a one-shot snapshot (after the venue's round trip) and a background subscription. */
  | { t: 'Snapshot'; symbol: string; depth: number }
  | { t: 'Subscribe'; symbol: string }
  /** The edge's own book of a symbol now, for routing (no venue round trip). */
  | { t: 'Book'; symbol: string; depth: number }
  /**
   * A child order: immediate-or-cancel at `limit_price_1e9`, or at any price when null. With a
   * `sandbox` profile it fills in the edge's sandbox venue, never on the venue (`sandbox-legs.ts`).
   * `owner` is the order's router (`router:<mode>|<client>`): a live edge signs with that client's credentials.
   */
  | { t: 'Execute'; owner: string; child_id: string; symbol: string; side: 'buy' | 'sell'; qty_1e8: number; limit_price_1e9: number | null; sandbox?: SandboxProfile | null }
  /** A child order that rests (GTC): crosses what it can now, the rest fills later as maker (`MakerFill` told to `owner`, the order's router). */
  | { t: 'Place'; owner: string; child_id: string; symbol: string; side: 'buy' | 'sell'; qty_1e8: number; limit_price_1e9: number; sandbox?: SandboxProfile | null }
  /** Cancels a resting child; answers `CancelResult`. */
  | { t: 'Cancel'; child_id: string }
  /**
   * What became of a child whose answer was lost: `Reconciled<ChildExecution | ChildPlacement>`;
   * an unseen child is refused from then on. `leg`: what the router knows of it, for a live edge
   * that did not send it (a leg of the last run, reconciled after a restart): asked of the venue.
   */
  | { t: 'Reconcile'; child_id: string; leg?: ReconcileLegFacts }
  /** Which of these children rest on the venue now (the listing's venue view). */
  | { t: 'OpenOrders'; child_ids: string[] }
  /**
   * The account's fee tier on this venue, after the venue's REST latency (`FeeTierInfo`). A live
   * edge asks the venue with `client_id`'s key (its rates and permissions); a simulated one
   * answers the base schedule.
   */
  | { t: 'FeeTier'; client_id?: string }
  | { t: 'Funding'; symbol: string }
  | { t: 'FundingAll' }
  | { t: 'FundingHistory'; symbol: string; from_ns: number; to_ns: number }
  /**
   * A strategy deployment's lease on a book: `BookChanged` is told to `watcher` each time the
   * edge's book of `symbol` changes (its depth-cache slot was written), until `until_ms`.
   */
  | { t: 'WatchBook'; symbol: string; watcher: string; until_ms: number }
  /** Test-only: the simulated venue misbehaves on child orders as `policy` says (null: off, the default); answers true. */
  | { t: 'LegFaults'; policy: LegFaultPolicy | null }
  /** A live edge: the client's balances on the venue (`VenueBalances`); a simulated edge answers null. */
  | { t: 'Balances'; client_id: string };

/** A client's balances on a live venue, exact (decimal integer text x 1e8). */
export interface VenueBalances {
  venue: string;
  balances: { asset: string; free_1e8: string; locked_1e8: string }[];
  /** the venue's refusal (a bad key: its code and message) or why it could not be asked; `balances` is then empty */
  error?: string;
}

/**
 * How a sandbox child is executed: the client's effective sandbox settings (seed and fault
 * knobs, `PUT /v1/sandbox/settings`, effective from the last reset), carried by every sandbox
 * child so the edge keeps no per-client state that a restart could lose.
 */
export interface SandboxProfile {
  seed: number;
  latency_ms: number;
  reject_rate: number;
  partial_fill_rate: number;
  disconnect_rate: number;
  cancel_race: boolean;
}

/** The spec's Edge status (EdgeStatusResponse). */
export interface EdgeStatus {
  edge_id: string;
  venue: string;
  instrument_type: 'spot' | 'perp' | 'prediction';
  connected: boolean;
  symbol_count: number;
  symbols: { symbol: string; instrument_type: 'spot' | 'perp' | 'prediction' }[];
  last_seen_ms: number;
  region: string;
  /** reached through another region's node (docs/regions.md); absent for a local edge */
  remote?: boolean;
  /** a remote edge's data age here, transit included, ms */
  age_ms?: number;
  supports_algo_runtime: boolean;
  stats: { levels: number; trades: number; disconnects: number; stale: boolean };
}

export interface EdgeSnapshot {
  venue: string;
  bids: number[];
  asks: number[];
  ts_ns: number;
}

export interface ChildExecution {
  child_id: string;
  venue: string;
  edge_id: string;
  ok: boolean;
  reason: string | null;
  fills: {
    price_1e9: number;
    qty_1e8: number;
    trade_id: string;
    ts_ns: number;
    fee_1e9: number;
    cum_fee_1e9: number;
    dex?: DexFillFacts;
    /** a live venue's commission taken in an asset other than the quote (x 1e8): the ledger debits it there */
    commission?: { asset: string; qty_1e8: number };
    /** a live venue's own word on the fill's side of the book (a GTC filled as maker between its acknowledgement and the read back); absent: the answer's kind decides */
    is_maker?: boolean;
    /** the region whose node executed it, when that is another region's (a remote edge, docs/regions.md); absent: here */
    region?: string;
  }[];
  taker_bps: number;
  maker_bps: number;
  /** venue ack time, wall clock ns */
  ack_ns: number;
}

/** What a pool leg's fill carries beyond a venue's (execution/dex-orders.ts): its pair, the pool's fee tier, the fee by part (USD 1e9), the gas paid in ETH (_1e8). */
/** A leg as its router recorded it (`Reconcile`): enough for a live edge to ask its venue. */
export interface ReconcileLegFacts {
  client_id: string;
  /** the router key that owns the leg (its maker fills go there) */
  owner: string;
  symbol: string;
  /** a gtc leg (it may rest) */
  resting: boolean;
  sent_ms: number;
  qty_1e8: number;
}

export interface DexFillFacts {
  pair: string;
  fee_bps: number;
  lp_fee_1e9: number;
  gas_1e9: number;
  priority_fee_1e9: number;
  gas_native_1e8: number;
}

export interface FeeTierInfo {
  venue: string;
  edge_id: string;
  tier: string;
  maker_bps: number;
  taker_bps: number;
  /** a live venue's report that the key can withdraw (null or absent: not said) */
  can_withdraw?: boolean | null;
}

/** The answer to `Place`: the crossing part as for `Execute`, and what rests. */
export interface ChildPlacement extends ChildExecution {
  resting_qty_1e8: number;
}

export interface CancelResult {
  child_id: string;
  /** false: nothing of this child rests on the venue (filled meanwhile, or unknown) */
  found: boolean;
  cancelled_qty_1e8: number;
}

/** The answer to `OpenOrders`: the asked children that rest on the venue's book. */
export interface OpenOrdersAnswer {
  venue: string;
  edge_id: string;
  resting: string[];
}

/** A resting child's maker fill, told by the edge to the child's owner (its router). */
export interface MakerFill {
  t: 'MakerFill';
  child_id: string;
  venue: string;
  edge_id: string;
  fill: ChildExecution['fills'][number];
  /** what still rests after this fill */
  left_qty_1e8: number;
  maker_bps: number;
}


export interface TapeBatch {
  venue: string;
  instrument_type: 'spot' | 'perp';
  symbols: string[];
  /** flat per trade: price_1e9, qty_1e8, taker side (0 buy, 1 sell), ts_ms */
  numbers: number[];
  trade_ids: string[];
}

/** Trade batches from the edges to the tape writer on the gateway thread (never a WebSocket channel). */
export const TAPE_TOPIC = topic<TapeBatch>('$tape');

/** What a live edge did on the venue when the kill switch halted dispatch (its cancel-all). */
export interface LiveHaltReport {
  venue: string;
  edge_id: string;
  at_ms: number;
  /** open orders the venue reports cancelled */
  cancelled: number;
  /** clients whose cancel-all the venue refused or did not answer */
  failed: number;
}

/** Live edges' halt reports to the kill switch on the gateway thread (`/v1/health/safety`). */
export const LIVE_HALT_TOPIC = topic<LiveHaltReport>('$live_halt');

export type { FundingInfo, FundingPoint, LegFaultPolicy };
