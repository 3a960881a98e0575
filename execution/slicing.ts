// Time-sliced execution of an order with a horizon (`constraints.horizon_ms`): the order is cut
// into slices routed one after another until it is filled or the horizon has passed, each slice
// a full SOR sweep of what is left divided over the slices still to come (TWAP-like), and capped
// by the participation limit like any sweep.
import type { VenueView } from './sor/sor-types.ts';
import type { OrderRecord } from '../domain/orders.ts';

/** The wait between slices by urgency: low trades patiently, high nearly continuously. */
const SLICE_INTERVAL_MS = { low: 2_000, medium: 500, high: 100 } as const;

/** Orders that are sliced: a positive horizon, and neither FOK (all now or nothing) nor GTC (rests). */
export function isSliced(order: OrderRecord): boolean {
  const horizon = order.constraints?.horizon_ms;
  return horizon != null && horizon > 0 && order.time_in_force !== 'fok' && order.time_in_force !== 'gtc';
}

export function sliceInterval(order: OrderRecord): number {
  const urgency = order.constraints?.urgency;
  return urgency === 'low' || urgency === 'high' ? SLICE_INTERVAL_MS[urgency] : SLICE_INTERVAL_MS.medium;
}

/**
 * The quantity of the next slice: what is left over the slices that still fit before the
 * deadline (this one included), rounded up, so the last slice takes the rest.
 */
export function sliceQty(remaining_1e8: number, now_ms: number, deadline_ms: number, interval_ms: number): number {
  // Within one interval of the deadline this is the last slice (the loop stops after it).
  const slices = deadline_ms - now_ms < interval_ms ? 1 : Math.floor((deadline_ms - now_ms) / interval_ms) + 1;
  return Math.min(remaining_1e8, Math.ceil(remaining_1e8 / slices));
}

/**
 * A slice rounded up to whole lots of the coarsest venue (at most what is left): slices of
 * fractional lots would leave dust no venue takes.
 */
export function roundUpToLots(slice_1e8: number, remaining_1e8: number, views: readonly VenueView[]): number {
  let lot = 1;
  for (const v of views) if (v.rules.lot_1e8 > lot) lot = v.rules.lot_1e8;
  return Math.min(remaining_1e8, Math.ceil(slice_1e8 / lot) * lot);
}
