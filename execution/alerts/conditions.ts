import { decimalToScaled } from '../../domain/units.ts';
import { ALERT_KINDS, DEFAULT_STALE_S, type AlertKind, type AlertRecord, type AlertSpec, type Direction } from './types.ts';

/**
 * The pure part of alerts: a request checked into an AlertSpec, whether a level alert's
 * condition holds for an observation, and the arming rule that turns "holds" into a firing.
 */

export interface FieldProblem {
  field: string;
  message: string;
}

/** What the request names, checked against what the service knows. */
export interface AlertCatalog {
  isSymbol(symbol: string): boolean;
  isUnderlying(underlying: string): boolean;
  isEdge(edgeId: string): boolean;
}

export interface AlertRequest {
  kind: string;
  symbol?: string | undefined;
  underlying?: string | undefined;
  node_order_id?: string | undefined;
  edge_id?: string | undefined;
  direction?: string | undefined;
  threshold?: number | undefined;
  once?: boolean | undefined;
  label?: string | undefined;
}

/** Which fields each kind needs, and which it may take. */
const NEEDS: Record<AlertKind, { required: (keyof AlertRequest)[]; allowed: (keyof AlertRequest)[] }> = {
  price: { required: ['symbol', 'direction', 'threshold'], allowed: [] },
  spread_bps: { required: ['symbol', 'threshold'], allowed: ['direction'] },
  basis_bps: { required: ['underlying', 'direction', 'threshold'], allowed: [] },
  fill: { required: [], allowed: ['symbol', 'node_order_id'] },
  order_rejected: { required: [], allowed: ['symbol', 'node_order_id'] },
  pnl_below: { required: ['threshold'], allowed: [] },
  edge_stale: { required: ['edge_id'], allowed: ['threshold'] },
};
const COMMON: (keyof AlertRequest)[] = ['kind', 'once', 'label'];

/**
 * A request as an AlertSpec, or what is wrong with it. `thresholdText` is the threshold's source
 * text when a double would round it (exact-json), so a price threshold is exact in 1e9 units.
 */
export function checkAlertRequest(r: AlertRequest, catalog: AlertCatalog, thresholdText?: string): AlertSpec | FieldProblem[] {
  if (!(ALERT_KINDS as readonly string[]).includes(r.kind)) return [{ field: 'kind', message: `unknown kind ${r.kind}: one of ${ALERT_KINDS.join(', ')}` }];
  const kind = r.kind as AlertKind;
  const problems: FieldProblem[] = [];
  const rule = NEEDS[kind];
  for (const f of rule.required) if (r[f] === undefined) problems.push({ field: f, message: `required for a ${kind} alert` });
  for (const f of Object.keys(r) as (keyof AlertRequest)[]) {
    if (r[f] !== undefined && !rule.required.includes(f) && !rule.allowed.includes(f) && !COMMON.includes(f)) problems.push({ field: f, message: `not used by a ${kind} alert` });
  }
  if (r.symbol !== undefined && !catalog.isSymbol(r.symbol)) problems.push({ field: 'symbol', message: `unknown symbol ${r.symbol}` });
  const underlying = r.underlying?.toUpperCase();
  if (underlying !== undefined && !catalog.isUnderlying(underlying)) problems.push({ field: 'underlying', message: `no fair price for ${r.underlying}` });
  if (r.edge_id !== undefined && !catalog.isEdge(r.edge_id)) problems.push({ field: 'edge_id', message: `unknown edge ${r.edge_id}` });
  if (r.direction !== undefined && r.direction !== 'above' && r.direction !== 'below') problems.push({ field: 'direction', message: "'above' or 'below'" });
  let threshold_1e9: bigint | null = null;
  if (r.threshold !== undefined) {
    if (!Number.isFinite(r.threshold)) problems.push({ field: 'threshold', message: 'must be a finite number' });
    else if (kind === 'price' && !(r.threshold > 0)) problems.push({ field: 'threshold', message: 'a price must be positive' });
    else if (kind === 'edge_stale' && !(r.threshold > 0 && r.threshold <= 86_400)) problems.push({ field: 'threshold', message: 'seconds, in (0, 86400]' });
    else if (kind === 'price' || kind === 'pnl_below') {
      const scaled = decimalToScaled(thresholdText ?? r.threshold, 9);
      if (scaled === undefined) problems.push({ field: 'threshold', message: 'at most 9 decimals' });
      else threshold_1e9 = scaled;
    }
  }
  if (problems.length > 0) return problems;
  return {
    kind,
    symbol: r.symbol ?? null,
    underlying: underlying ?? null,
    node_order_id: r.node_order_id ?? null,
    edge_id: r.edge_id ?? null,
    direction: (r.direction as Direction | undefined) ?? (kind === 'spread_bps' ? 'above' : kind === 'pnl_below' ? 'below' : null),
    threshold: r.threshold ?? (kind === 'edge_stale' ? DEFAULT_STALE_S : null),
    threshold_1e9,
    once: r.once ?? true,
    label: r.label ?? null,
  };
}

/** What the timer observed for a level alert (integer units where the kind compares integers). */
export type Observation =
  | { kind: 'price'; mid_1e9: number }
  | { kind: 'spread_bps'; spread_bps: number }
  | { kind: 'basis_bps'; basis_bps: number }
  | { kind: 'pnl_below'; pnl_usd_1e9: bigint }
  | { kind: 'edge_stale'; connected: boolean; stale_s: number };

/** Whether a level alert's condition holds: strictly beyond its threshold in its direction. */
export function levelHolds(a: Pick<AlertSpec, 'direction' | 'threshold' | 'threshold_1e9'>, o: Observation): boolean {
  const beyond = (x: number | bigint, level: number | bigint) => (a.direction === 'below' ? x < level : x > level);
  switch (o.kind) {
    case 'price':
      return beyond(BigInt(o.mid_1e9), a.threshold_1e9!);
    case 'spread_bps':
      return beyond(o.spread_bps, a.threshold!);
    case 'basis_bps':
      return beyond(o.basis_bps, a.threshold!);
    case 'pnl_below':
      return o.pnl_usd_1e9 < a.threshold_1e9!;
    case 'edge_stale':
      return !o.connected || o.stale_s > a.threshold!;
  }
}

/** The observed value an event reports. */
export function observedValue(o: Observation): number {
  switch (o.kind) {
    case 'price':
      return o.mid_1e9 / 1e9;
    case 'spread_bps':
      return o.spread_bps;
    case 'basis_bps':
      return o.basis_bps;
    case 'pnl_below':
      return Number(o.pnl_usd_1e9) / 1e9;
    case 'edge_stale':
      return o.stale_s;
  }
}

/**
 * The arming rule. An alert is armed when made, so a condition already true fires at once; a
 * repeating alert (`once: false`) fires again only after its condition has been seen false, so a
 * price sitting on the level does not fire on every look.
 */
export function step(a: Pick<AlertRecord, 'status' | 'armed'>, holds: boolean): { fire: boolean; armed: boolean } {
  if (a.status !== 'active') return { fire: false, armed: a.armed };
  if (holds) return { fire: a.armed, armed: false };
  return { fire: false, armed: true };
}

/** Whether an order kind's alert wants this order or fill. */
export function orderMatches(a: Pick<AlertSpec, 'symbol' | 'node_order_id'>, e: { node_order_id: string; symbol: string }): boolean {
  return (a.node_order_id === null || a.node_order_id === e.node_order_id) && (a.symbol === null || a.symbol === e.symbol);
}
