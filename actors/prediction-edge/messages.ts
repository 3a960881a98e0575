import type { Level } from '../../domain/market.ts';
import type { PredictionEvent, PredictionVenue } from '../../domain/prediction/catalog.ts';
import type { EdgeMessage } from '../edge/messages.ts';

/**
 * Messages of a prediction venue edge (`edge:venue-edge-kalshi`, `edge:venue-edge-polymarket`).
 * The catalog is pulled, not pushed: the gateway asks for what changed after the last sequence
 * it saw, so nothing is lost when a ring is full and a restarted edge is simply read again.
 */
export type PredictionEdgeMessage =
  | { t: 'Status' }
  /** Events whose record changed after `after_seq`, oldest change first, up to about `max_markets` markets. */
  | { t: 'Catalog'; after_seq: number; max_markets: number }
  /** Both legs' books of a market now (`market_id`), `depth` levels each. */
  | { t: 'Book'; market_id: string; depth: number }
  /**
   * A leg's price history in [from_ms, to_ms) at `step_ms` (a whole number of minutes, as the
   * venues publish it), one window of at most 7 days (`domain/prediction/history.ts`); null for an unknown market.
   */
  | { t: 'PriceHistory'; market_id: string; leg: 'YES' | 'NO'; from_ms: number; to_ms: number; step_ms: number }
  /**
   * Child orders from the routers, as every edge takes them (`actors/edge/messages.ts`): IOC
   * `Execute` on a leg's canonical symbol (its token id, `<ticker>:YES|NO`), `Reconcile`; nothing
   * rests on a prediction venue, so `Cancel` and `OpenOrders` find nothing.
   */
  | Extract<EdgeMessage, { t: 'Execute' | 'Reconcile' | 'Cancel' | 'OpenOrders' | 'FeeTier' }>
  /** The client's cash on a live venue (`VenueBalances`); a simulated venue's account lives in the router's ledger (null). */
  | Extract<EdgeMessage, { t: 'Balances' }>;

/** An event as the edge lists it, with what the gateway needs beyond the reference data. */
export interface ListedEvent {
  /** The sequence of this record's last change (listed, a market resolved, delisted). */
  seq: number;
  event: PredictionEvent;
  /** Each market's slot in the shared figures table (`market-stats.ts`), parallel to `event.markets`. */
  slots: number[];
  /** Parallel to `event.markets`: null while undetermined, else whether YES won. */
  yes_won: (boolean | null)[];
  /** Instant (ms) each market's outcome was observed, parallel; null while undetermined. */
  resolved_ms: (number | null)[];
  /** Up/down events: the underlying's anchor (at the open) and final (at the close) prices, USD; null otherwise or before the close. */
  anchor_usd: number | null;
  final_usd: number | null;
  /** Past its history window: the gateway forgets it. */
  delisted: boolean;
}

export interface CatalogPage {
  venue: PredictionVenue;
  /** Changes when the edge restarts: the reader starts again from sequence 0. */
  epoch: number;
  events: ListedEvent[];
  /** Pass back as `after_seq`. */
  next_seq: number;
  /** More changes wait beyond this page. */
  more: boolean;
}

export interface PredictionBook {
  venue: PredictionVenue;
  market_id: string;
  yes: { bids: Level[]; asks: Level[] };
  no: { bids: Level[]; asks: Level[] };
  tick_1e9: number;
  ts_ns: number;
}
