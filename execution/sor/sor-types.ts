/**
 * The smart order router's vocabulary (spec, "Smart order routing rules"): what goes in (one
 * order, one view per venue listing the symbol), what comes out (a `RoutingPlan`, which is also
 * the `routing` WebSocket channel's payload), the reason codes and the tuning options.
 *
 * Units follow the spec's Conventions: prices `_1e9`, quantities `_1e8` (a quote balance is
 * held in the quote asset's `_1e8` units: buying q at p costs p * q / 1e9 of them), USD `_1e9`,
 * timestamps ns. Every amount is an integer; only scores (`*_bps`) are floats.
 */

export type RoutingVersion = 1 | 2 | 3;
export type OrderSide = 'buy' | 'sell';
export type OrderType = 'market' | 'limit';

export interface RouteRequest {
  node_order_id: string;
  side: OrderSide;
  /** Requested quantity, a positive integer. */
  qty_1e8: number;
  order_type: OrderType;
  /**
   * Only levels at or better than it are taken. Required for `limit` (a limit order without one
   * routes nothing); optional for `market`, where it is the client's `max_price_1e9` protection.
   */
  limit_price_1e9?: number;
  /** Forces single-venue execution (rule 6). */
  venue?: string;
  /** The consolidated mid when the order arrived: the reference of every cost in bps. Must be > 0. */
  arrival_mid_1e9: number;
  /** The decision time, passed in (the core never reads a clock). */
  now_ns: number;
  /**
   * Overrides the version derived from `node_order_id` (rule 7). For benchmarks, tests and for
   * replaying a stored order's plan with the version stored on it; the order path leaves it unset.
   */
  routing_version?: RoutingVersion;
}

/** The venue's matching rules for the symbol (the same fields as the simulator's `MatchingRules`). */
export interface VenueRules {
  tick_1e9: number;
  /** Every child quantity is a multiple of it; values below 1 count as 1. */
  lot_1e8: number;
  min_qty_1e8: number;
  /** Minimum price x qty in USD 1e9 (quote as USD); 0 = none. */
  min_notional_1e9: number;
}

/** Observed venue statistics, used by routing versions 2 and 3 (missing = all zero). */
export interface VenueStats {
  /** Expected post-trade drift against us on this venue (bps). */
  adverse_selection_bps: number;
  /** Share of child orders the venue rejects, 0..1; costed as `reject_rate x reject_penalty_bps`. */
  reject_rate: number;
  /** Temporary impact per base unit (1e8 qty_1e8) already routed to this venue in this order (bps). */
  impact_bps_per_unit: number;
}

/**
 * One venue's view for one symbol, as the router actor assembles it from the consolidated book,
 * the edge status, the credential store and the balances. The level arrays are read, never
 * written, and only for the duration of the `route` call.
 */
export interface VenueView {
  venue: string;
  edge_id: string;
  listed: boolean;
  online: boolean;
  /** ts_ns of the venue's last book update (freshness). */
  last_update_ns: number;
  has_credentials: boolean;
  /** Tradeable base balance (sells spend it), qty_1e8. */
  base_available_1e8: number;
  /** Tradeable quote balance (buys spend it), in the quote asset's _1e8 units. */
  quote_available_1e8: number;
  /** Levels best first (bids descending, asks ascending); only the first `*_count` entries are read. */
  bids_px: Float64Array;
  bids_qty: Float64Array;
  bid_count: number;
  asks_px: Float64Array;
  asks_qty: Float64Array;
  ask_count: number;
  maker_bps: number;
  taker_bps: number;
  latency_ms: number;
  rules: VenueRules;
  stats?: VenueStats;
  /**
   * A venue whose taker fee follows the price (binary_quadratic: prediction legs): each level's
   * cost carries the curve's rate at its price instead of a flat `taker_bps`, and a leg's
   * expected fee is the sum of each level's fee as the venue rounds one fill. `taker_bps` is
   * then the curve's highest rate (what a reservation allows for); makers pay 0.
   */
  fee_curve?: LevelFeeCurve;
  /**
   * A fee per child whatever its size (a DEX swap's gas), in USD 1e9 and in the chain's gas
   * currency (_1e8). The sweep weighs it through `taker_bps` (its share of the order's
   * notional); the plan charges it exactly (dex-orders.ts `withGasFees`).
   */
  fixed_fee?: { usd_1e9: number; native_1e8: number };
}

export interface LevelFeeCurve {
  /** The fee of one fill of `qty_1e8` at `price_1e9`, usd_1e9, rounded as the venue rounds it. */
  takerFeeUsd1e9(qty_1e8: number, price_1e9: number): number;
  /** The rate at a price, bps of notional (a score, never money). */
  bpsAt(price_1e9: number): number;
}

/**
 * Why a venue is not used, in the order the checks run (the first failing one is reported).
 * The first seven are candidate selection (rule 1 and rule 6); the last two are rule 4: the
 * venue was a candidate and received quantity, but less than its minimum, so it was dropped.
 */
export const CANDIDATE_REASONS = [
  'forced_venue_mismatch',
  'not_listed',
  'offline',
  'no_credentials',
  'stale_book',
  'empty_book',
  'insufficient_balance',
  'below_min_qty',
  'below_min_notional',
] as const;
export type CandidateReason = (typeof CANDIDATE_REASONS)[number];

/** The per-venue constant part of every level's cost (bps), shown on the plan. */
export interface VenueCostTerms {
  /** taker_bps for market orders, maker_bps for limit orders (rule 8). */
  fee_bps: number;
  /** latency_ms x latency_bps_per_ms. */
  latency_bps: number;
  /** Book age in ms x freshness_bps_per_ms. */
  freshness_bps: number;
  /** Versions 2 and 3 only, else 0. */
  adverse_selection_bps: number;
  /** Versions 2 and 3 only: reject_rate x reject_penalty_bps, else 0. */
  reject_bps: number;
  /** Versions 2 and 3 only, else 0: the slope of the venue-impact term (see docs/sor.md). */
  impact_bps_per_unit: number;
}

export interface PlanCandidate {
  venue: string;
  edge_id: string;
  /** Passed candidate selection (rule 1 / rule 6). */
  kept: boolean;
  /** Why it is not used: a selection reason when `kept` is false, `below_min_*` when dropped by rule 4; null when used or simply not needed. */
  reason: CandidateReason | null;
  /** Cost of its top level on the order's side before any allocation; null when not kept. */
  best_cost_bps: number | null;
  cost: VenueCostTerms | null;
  /** Quantity in the plan for this venue (0 when dropped or not needed). */
  allocated_qty_1e8: number;
  /** Quantity the sweep gave it before a rule-4 drop, else 0. */
  dropped_qty_1e8: number;
}

export interface PlanLevel {
  price_1e9: number;
  qty_1e8: number;
  /** Expected all-in cost of this level when it was taken (bps vs arrival mid, positive = worse). */
  cost_bps: number;
}

/** One child order: one venue, a quantity and the worst price to accept. */
export interface PlanAllocation {
  venue: string;
  edge_id: string;
  qty_1e8: number;
  /** Worst price to accept: the last level taken (the child's limit / cap). */
  limit_price_1e9: number;
  /** Expected VWAP of the child (floor of the exact quotient). */
  avg_price_1e9: number;
  /**
   * Expected notional, USD 1e9 (floor). Exact up to $9,007,199 (2^53 units); a larger child
   * carries the nearest double, as units.ts `notionalUsd1e9` does (its fee is still exact).
   */
  notional_1e9: number;
  fee_bps: number;
  /** ceil(notional x fee_bps / 10,000), USD 1e9 (a rebate, negative, rounds toward zero). */
  expected_fee_1e9: number;
  /** Quantity-weighted cost of its levels (bps). */
  avg_cost_bps: number;
  levels: PlanLevel[];
}

export interface RoutingPlan {
  node_order_id: string;
  routing_version: RoutingVersion;
  side: OrderSide;
  order_type: OrderType;
  requested_qty_1e8: number;
  limit_price_1e9: number | null;
  forced_venue: string | null;
  arrival_mid_1e9: number;
  decided_ns: number;
  /** Children in the order the sweep first reached their venue (cheapest first). */
  allocations: PlanAllocation[];
  /** One per input view, in input order. */
  candidates: PlanCandidate[];
  planned_qty_1e8: number;
  /** Always `requested_qty_1e8 - planned_qty_1e8` (depth, balance, limit, lot and minimum shortfalls together). */
  unfilled_qty_1e8: number;
  expected_notional_1e9: number;
  expected_fee_1e9: number;
  /** expected_fee / expected_notional in bps; null when nothing is planned. */
  expected_fee_bps: number | null;
  /** VWAP over every child (floor); null when nothing is planned. */
  expected_avg_price_1e9: number | null;
  /** VWAP vs arrival mid, side-adjusted (positive = worse); null when nothing is planned. */
  expected_slippage_bps: number | null;
  /** Quantity-weighted all-in cost of the plan (the objective the sweep minimises greedily); null when nothing is planned. */
  expected_cost_bps: number | null;
}

export interface SorOptions {
  /** A book older than this is `stale_book` (ns). */
  stale_after_ns: number;
  /** Latency risk: bps per ms of one-way latency. */
  latency_bps_per_ms: number;
  /** Freshness penalty: bps per ms of book age. */
  freshness_bps_per_ms: number;
  /** Cost of one reject (bps), multiplied by the venue's reject rate (v2, v3). */
  reject_penalty_bps: number;
  /**
   * Buys keep the fee in reserve: the quote budget is quote / (1 + fee_bps / 10,000), with the
   * larger of the venue's taker and maker rates. A buy child must fit the budget at its cap
   * (its worst level) for its whole quantity, as a venue locks cap x qty.
   */
  reserve_fee_on_buy: boolean;
}

export const DEFAULT_SOR_OPTIONS: Readonly<SorOptions> = Object.freeze({
  stale_after_ns: 5_000_000_000,
  latency_bps_per_ms: 0.01,
  freshness_bps_per_ms: 0.002,
  reject_penalty_bps: 25,
  reserve_fee_on_buy: true,
});
