import type { Mode } from '../../domain/orders.ts';

/**
 * User-defined alerts (docs/alerts.md). Market kinds are watched by a timer on the gateway
 * thread; order kinds are told by the journal stage as the orders and fills it writes arrive.
 */
export const ALERT_KINDS = ['price', 'spread_bps', 'basis_bps', 'fill', 'order_rejected', 'pnl_below', 'edge_stale'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export type Direction = 'above' | 'below';

/** Kinds that fire on a level crossing, watched by the timer; the rest fire on an order event. */
export const LEVEL_KINDS: ReadonlySet<AlertKind> = new Set(['price', 'spread_bps', 'basis_bps', 'pnl_below', 'edge_stale']);

/** Alerts a client may keep per mode (active or fired), and fired events kept per client and mode. */
export const MAX_ALERTS_PER_OWNER = 100;
export const MAX_EVENTS_PER_OWNER = 10_000;
/** An edge is stale when it last published longer ago than this, unless the alert sets a threshold (seconds). */
export const DEFAULT_STALE_S = 5;

/** What `POST /v1/alerts` asks for, checked (conditions.ts `checkAlertRequest`). */
export interface AlertSpec {
  kind: AlertKind;
  symbol: string | null;
  underlying: string | null;
  node_order_id: string | null;
  edge_id: string | null;
  direction: Direction | null;
  /** as the client wrote it: price in quote units, bps, USD, or seconds (edge_stale) */
  threshold: number | null;
  /** the threshold in integer units where the kind compares integers: price 1e9, PnL USD 1e9 */
  threshold_1e9: bigint | null;
  once: boolean;
  label: string | null;
}

export type AlertStatus = 'active' | 'fired';

export interface AlertRecord extends AlertSpec {
  alert_id: string;
  client_id: string;
  mode: Mode;
  status: AlertStatus;
  /** a repeating alert fires again only once its condition has been seen false (no chatter at the level) */
  armed: boolean;
  fired_count: number;
  created_at_ms: number;
  last_fired_at_ms: number | null;
}

/** What an alert's events repeat of it (its identity and condition). */
export type AlertIdentity = Pick<AlertRecord, 'alert_id' | 'kind' | 'label' | 'symbol' | 'underlying' | 'node_order_id' | 'edge_id' | 'direction' | 'threshold'>;

/** The identity fields of an alert, copied (an event carries them as they were when it fired). */
export function alertIdentity(a: AlertIdentity): AlertIdentity {
  return { alert_id: a.alert_id, kind: a.kind, label: a.label, symbol: a.symbol, underlying: a.underlying, node_order_id: a.node_order_id, edge_id: a.edge_id, direction: a.direction, threshold: a.threshold };
}

/** One firing, durable before it is published; `seq` orders a client's events in a mode. */
export interface AlertEvent extends AlertIdentity {
  seq: number;
  /** what was observed: the mid, spread or basis in bps, PnL in USD, seconds since the edge last published; null for order kinds */
  value: number | null;
  message: string;
  fired_at_ms: number;
  /** order kinds: the fill or the order that fired it */
  fill_id?: string;
  venue?: string;
  reason?: string | null;
}
