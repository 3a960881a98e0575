import type { BookEntry } from '../actors/market/directory.ts';
import type { PredictionLeg } from '../domain/prediction/order-leg.ts';
import type { OrderRecord } from '../domain/orders.ts';
import type { DexEntry } from './dex-orders.ts';

/**
 * What an order routes over: a consolidated book's entry (spot, perp), or a prediction order's
 * legs. A prediction leg has no book actor and no quote slot: its venues' books are asked of
 * their edges when the order routes (views.ts), and each venue trades its own leg of the same
 * outcome (`legs`, parallel to `venues`).
 */
export interface PredictionEntry {
  symbol: string;
  instrument_type: 'prediction';
  venues: readonly string[];
  edges: readonly string[];
  legs: readonly PredictionLeg[];
}

export type RouteEntry = BookEntry | PredictionEntry | DexEntry;

export function predictionEntry(legs: readonly PredictionLeg[]): PredictionEntry {
  return { symbol: legs[0]!.symbol, instrument_type: 'prediction', venues: legs.map((l) => l.venue), edges: legs.map((l) => l.edge_id), legs };
}

export function isPredictionEntry(entry: RouteEntry): entry is PredictionEntry {
  return entry.instrument_type === 'prediction';
}

/** The leg an order trades on `venue` (a prediction order), or undefined. */
export function legOn(legs: readonly PredictionLeg[] | undefined, venue: string): PredictionLeg | undefined {
  return legs?.find((l) => l.venue === venue);
}

/** The symbol a venue knows the order's instrument by: a prediction order's leg on that venue, else the pair. */
export function venueSymbol(order: Pick<OrderRecord, 'prediction_legs' | 'symbol'>, venue: string): string {
  return legOn(order.prediction_legs, venue)?.symbol ?? order.symbol;
}
