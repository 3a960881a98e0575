// An order's record as a request opens it, as it finishes and as its first fill stamps it.
import type { RouteEntry } from './prediction-entry.ts';
import { routingVersion } from './sor/sor-cost.ts';
import type { FillRecord, OrderRecord, OrderStatus } from '../domain/orders.ts';
import { nowNs } from '../domain/units.ts';
import type { OrderOwner, OrderRequest } from './types.ts';

const NODE_ID = 'node-1';
/** A single node's orders: one home, no regions (docs/regions.md). */
export const SINGLE_NODE_REGION = 'local';

/**
 * The record a validated request opens as (`ACCEPTED`, nothing sent), with the id `id`, at
 * `now`, homed in `homeRegion` (the accepting node's `REGION`).
 */
export function newOrder(id: string, now: number, principal: OrderOwner, request: OrderRequest, idempotencyKey: string | null, hash: string, entry: RouteEntry, homeRegion = SINGLE_NODE_REGION): OrderRecord {
  // Nothing rests on a prediction venue here: its limit orders are immediate-or-cancel.
  const prediction = entry.instrument_type === 'prediction';
  const tif = request.time_in_force ?? (request.order_type === 'market' || prediction || entry.instrument_type === 'dex' ? 'ioc' : 'gtc');
  const order: OrderRecord = {
    node_order_id: id,
    client_id: principal.client_id,
    client_order_id: request.client_order_id,
    idempotency_key: idempotencyKey,
    mode: principal.mode,
    is_sandbox: principal.mode === 'sandbox',
    side: request.side,
    symbol: entry.symbol,
    // A swap is a spot trade; its pools are the order's venues.
    instrument_type: entry.instrument_type === 'dex' ? 'spot' : entry.instrument_type,
    qty_1e8: request.qty_1e8,
    filled_qty_1e8: 0,
    order_type: request.order_type,
    time_in_force: tif,
    limit_price_1e9: request.limit_price_1e9 ?? null,
    status: 'ACCEPTED',
    execution_type: 'graph',
    venue_state: 'not_sent',
    reconciliation_state: 'in_sync',
    engine_phase: 'admitted',
    created_unix_ns: now,
    updated_unix_ns: now,
    constraints: request.constraints ?? null,
    expected_fee_1e9: null,
    expected_fee_bps: null,
    failure_class: null,
    failure_reason: null,
    first_fill_ts_ns: null,
    graph_id: graphIdOf(id),
    graph_name: null,
    home_region: homeRegion,
    node_id: NODE_ID,
    placed_price_1e9: request.limit_price_1e9 ?? request.constraints?.max_price_1e9 ?? null,
    pool_id: null,
    tca: null,
    time_to_first_fill_ms: null,
    lineage_deployment_id: request.lineage_deployment_id ?? null,
    routing_version: routingVersion(id),
    forced_venue: request.venue ?? null,
    arrival_mid_1e9: null,
    children: [],
    fill_ids: [],
    request_hash: hash,
  };
  if (prediction) order.prediction_legs = [...entry.legs];
  if (request.wallet !== undefined) {
    order.wallet_id = request.wallet.wallet_id;
    order.wallet = { ...request.wallet };
  }
  return order;
}

/** A terminal status, with its failure class and reason (null when it completed). */
export function finish(order: OrderRecord, status: OrderStatus, failureClass: string | null, reason: string | null): void {
  order.status = status;
  order.failure_class = failureClass;
  order.failure_reason = reason;
  order.engine_phase = 'done';
  order.venue_state = status === 'COMPLETED' ? 'filled' : status === 'REJECTED' && order.children.length === 0 ? 'not_sent' : 'closed';
  order.updated_unix_ns = nowNs();
}

/** The order's first fill times, set once. */
export function stampFirstFill(order: OrderRecord, fill: FillRecord): void {
  if (order.first_fill_ts_ns !== null) return;
  order.first_fill_ts_ns = fill.exchange_ts_ns;
  order.time_to_first_fill_ms = Math.max(0, Math.round((fill.ts_unix_ns - order.created_unix_ns) / 1e6));
}

/** An order's execution graph id: its node order id under the graph prefix (a graph is one order). */
export function graphIdOf(nodeOrderId: string): string {
  return `grf_${nodeOrderId.slice(4)}`;
}

/** The node order id of a graph id; '' for an id that is not a graph's. */
export function orderIdOfGraph(graphId: string): string {
  return graphId.startsWith('grf_') ? `ord_${graphId.slice(4)}` : '';
}
