import type { ChildExecution, ChildPlacement } from './messages.ts';
import type { ExecutionFill } from './sim/sim-venue.ts';

/**
 * A fill with its fees, as one literal. Not `{ ...f, fee_1e9, cum_fee_1e9 }`: that spread gave
 * every fill its own hidden class here (V8 cloned the source's map, then added two fields out of
 * object), tens of thousands of maps a minute that the child journal kept alive.
 */
export function pricedFill(f: ExecutionFill, fee_1e9: number, cum_fee_1e9: number): ChildExecution['fills'][number] {
  return { price_1e9: f.price_1e9, qty_1e8: f.qty_1e8, trade_id: f.trade_id, ts_ns: f.ts_ns, fee_1e9, cum_fee_1e9 };
}

/** A placement's answer, one literal for the same reason as `pricedFill`. */
export function placementOf(e: ChildExecution, resting_qty_1e8: number): ChildPlacement {
  return { child_id: e.child_id, venue: e.venue, edge_id: e.edge_id, ok: e.ok, reason: e.reason, fills: e.fills, taker_bps: e.taker_bps, maker_bps: e.maker_bps, ack_ns: e.ack_ns, resting_qty_1e8 };
}
