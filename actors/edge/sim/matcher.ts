import type { Side } from '../../../domain/market.ts';
import type { MatchingRules } from '../../../domain/venues.ts';

/**
 * The contract between a simulated venue's market model and its matching engine: one engine per
 * (venue, symbol), price-time priority, integer prices and quantities.
 *
 * Order ids are positive integers chosen by the caller, unique per engine while resting.
 * `Side.BID` = buy, `Side.ASK` = sell. Market orders never rest; limit orders rest the part
 * that does not cross. Every change of an aggregated level's total quantity is reported, so the
 * venue can publish exact L2 deltas. The rules an engine enforces (`MatchingRules`: tick, lot,
 * minimums) are the listing's reference data, defined in domain/venues.ts.
 */
export type { MatchingRules };

export interface FillEvent {
  maker_id: number;
  taker_id: number;
  /** side of the taker */
  taker_side: Side;
  price_1e9: number;
  qty_1e8: number;
}

export interface MatchListener {
  onFill(fill: FillEvent): void;
  /** The aggregated quantity at (side, price) is now `total_qty_1e8` (0 = level gone). */
  onLevel(side: Side, price_1e9: number, total_qty_1e8: number): void;
}

export type RejectReason = 'tick' | 'lot' | 'min_qty' | 'min_notional' | 'duplicate_id' | 'no_liquidity';

export interface SubmitResult {
  ok: boolean;
  reason?: RejectReason;
  filled_qty_1e8: number;
  /** quantity left resting on the book (limit orders only) */
  resting_qty_1e8: number;
}

export interface Matcher {
  readonly rules: MatchingRules;
  limit(id: number, side: Side, price_1e9: number, qty_1e8: number): SubmitResult;
  /** Immediate-or-cancel at any price; `no_liquidity` when the other side is empty. */
  market(id: number, side: Side, qty_1e8: number): SubmitResult;
  /** Removes a resting order; false when it is not resting. */
  cancel(id: number): boolean;
  /** Reduces a resting order's quantity in place, keeping its queue position. */
  reduce(id: number, new_qty_1e8: number): boolean;
  bestBid(): number | undefined;
  bestAsk(): number | undefined;
  /** Aggregated levels from the best outwards, at most `depth`. */
  levels(side: Side, depth: number): { price_1e9: number; qty_1e8: number }[];
  /** The same levels written into `prices` from `pricesAt` and `qtys` from `qtysAt`, without allocating; returns how many. */
  levelsInto(side: Side, depth: number, prices: Float64Array, pricesAt: number, qtys: Float64Array, qtysAt: number): number;
  restingOrders(): number;
}
