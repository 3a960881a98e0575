import type { EventContract, PredictionLeg } from './prediction/order-leg.ts';

/**
 * Orders and fills as the API shows them (the spec's OrderRest and FillRecord), plus what the
 * engine keeps beside them. States and transitions: docs/order-states.md.
 */
export const ORDER_STATUSES = [
  'ACCEPTED',
  'RUNNING',
  'PARTIAL',
  'ACTIVE',
  'COMPLETED',
  'CANCELLED',
  'REJECTED',
  'UNCONFIRMED',
  'UNRESOLVED',
  'WAITING',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const TERMINAL_STATUSES: ReadonlySet<OrderStatus> = new Set(['COMPLETED', 'CANCELLED', 'REJECTED', 'UNRESOLVED']);

export function isTerminal(status: OrderStatus): boolean {
  return TERMINAL_STATUSES.has(status);
}

export type Mode = 'live' | 'sandbox';
export type OrderSide = 'buy' | 'sell';
export type OrderType = 'market' | 'limit';
export type TimeInForce = 'ioc' | 'gtc' | 'fok';

export interface OrderConstraints {
  horizon_ms?: number | null;
  max_price_1e9?: number | null;
  participation_limit_bps?: number | null;
  urgency?: 'low' | 'medium' | 'high' | null;
}

/** A child order: one venue leg of the parent, with its own status and fills. */
export interface ChildOrder {
  child_id: string;
  venue: string;
  edge_id: string;
  qty_1e8: number;
  limit_price_1e9: number | null;
  filled_qty_1e8: number;
  /** `ioc` legs take displayed liquidity; the one `gtc` leg rests a limit order's remainder. */
  time_in_force?: 'ioc' | 'gtc';
  /** `resting`: on the venue's book, filling as maker (gtc legs only) */
  status: 'sent' | 'resting' | 'filled' | 'partial' | 'cancelled' | 'rejected' | 'unconfirmed';
  reason: string | null;
  fee_1e9: number;
  venue_reported_cum_fee_1e9: number;
  /**
   * The leg's cumulative filled quantity as the venue last reported it: an answer's fills, or a
   * maker fill's leg quantity less what it leaves resting. Absent until the venue reports (and on
   * legs recorded before it was kept); reconciliation compares it with our fills (execution/recon.ts).
   */
  venue_reported_cum_qty_1e8?: number;
  /** when the leg was sent to its venue, and when the venue's answer came (wall clock, ns): its ack latency */
  sent_unix_ns?: number;
  answered_unix_ns?: number;
}

export interface OrderRecord {
  node_order_id: string;
  client_id: string;
  client_order_id: string;
  mode: Mode;
  is_sandbox: boolean;
  side: OrderSide;
  symbol: string;
  instrument_type: 'spot' | 'perp' | 'prediction';
  qty_1e8: number;
  filled_qty_1e8: number;
  order_type: OrderType;
  time_in_force: TimeInForce;
  limit_price_1e9: number | null;
  status: OrderStatus;
  execution_type: 'graph' | 'armed' | 'adopted';
  venue_state: string;
  reconciliation_state: 'in_sync' | 'reconciling' | 'reconciled' | 'unknown';
  engine_phase: 'admitted' | 'routed' | 'dispatching' | 'working' | 'settling' | 'done';
  created_unix_ns: number;
  updated_unix_ns: number;
  constraints: OrderConstraints | null;
  expected_fee_1e9: number | null;
  expected_fee_bps: number | null;
  failure_class: string | null;
  failure_reason: string | null;
  first_fill_ts_ns: number | null;
  graph_id: string | null;
  graph_name: string | null;
  home_region: string | null;
  node_id: string | null;
  placed_price_1e9: number | null;
  pool_id: string | null;
  tca: Record<string, unknown> | null;
  time_to_first_fill_ms: number | null;
  lineage_deployment_id: string | null;
  routing_version: 1 | 2 | 3;
  forced_venue: string | null;
  arrival_mid_1e9: number | null;
  children: ChildOrder[];
  fill_ids: number[];
  /** sha256 of the canonical request, for idempotency */
  request_hash: string;
  /** the `Idempotency-Key` header the order was placed with, if any (engine-internal) */
  idempotency_key?: string | null;
  /** the part below every usable venue's lot, which no leg could be sent for (engine-internal) */
  lot_remainder_1e8?: number;
  /** the status the stored record is indexed under (storage-internal: keeps the status index exact) */
  stored_status?: OrderStatus;
  /** A prediction order: the legs it may trade, one per venue, the first the one it names (engine-internal). */
  prediction_legs?: PredictionLeg[];
  /** A DEX order: the trading wallet it swaps from (`<signer_backend>:<address>`). */
  wallet_id?: string;
  /** A DEX order: its wallet and the wallet's signature over the order (engine-internal). */
  wallet?: { wallet_id: string; address: string; signature: string };
}

export interface FeeBreakdown {
  commission_1e9: number;
  lp_fee_1e9: number;
  gas_1e9: number;
  priority_fee_1e9: number;
  mev_tip_1e9: number;
  funding_1e9: number;
  rebate_1e9: number;
  hop_fees_1e9: number;
  commission_asset: string;
}

export interface FillRecord {
  id: number;
  fill_id: string;
  node_order_id: string;
  venue: string;
  symbol: string;
  side: OrderSide;
  instrument_type: 'spot' | 'perp' | 'prediction';
  qty_1e8: number;
  price_1e9: number;
  fee_1e9: number;
  ts_unix_ns: number;
  commission_asset: string;
  exchange_ts_ns: number;
  execution_region: string;
  fee_breakdown: FeeBreakdown;
  is_maker: boolean;
  maker_fee_bps_applied: number | null;
  taker_fee_bps_applied: number | null;
  trade_id: string;
  venue_reported_cum_fee_1e9: number;
  lineage_deployment_id: string | null;
  /** A prediction fill's event contract (the position it books to); absent on spot and perp fills. */
  instrument?: EventContract;
  /** The fee in `commission_asset` units x 1e8 when that is not the quote (a DEX swap's gas, in ETH); absent otherwise. */
  commission_qty_1e8?: number;
}

/** The record's engine-internal fields: never in the API's view of an order. */
export const INTERNAL_ORDER_FIELDS: ReadonlySet<string> = new Set(['request_hash', 'fill_ids', 'mode', 'idempotency_key', 'lot_remainder_1e8', 'stored_status', 'prediction_legs', 'wallet'] satisfies (keyof OrderRecord)[]);

/** The order as the API and the `orders` channel show it: the record minus engine-internal fields. */
export function publicOrder(order: OrderRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in order) if (!INTERNAL_ORDER_FIELDS.has(key)) out[key] = order[key as keyof OrderRecord];
  return out;
}

/** The API view of an order, with its fills when expanded (`fills: null` otherwise). */
export function orderView(order: OrderRecord, fills?: FillRecord[]): Record<string, unknown> {
  const rest = publicOrder(order);
  rest.fills = fills ?? null;
  return rest;
}
