// The reconciliation state as `GET /v1/data/recon` shows it (docs/data-engine.md). Pure: no I/O,
// no clock (callers pass the instants).
//
//   router (per client and mode)         ReconcileLog: each Reconcile (and cancel confirmation)
//                                          answer per edge; the orders it is reconciling now
//   LMDB (the gateway reads it)           the working orders in doubt; the recent orders and
//                                          their fills
//   -> ordersInDoubt         the LMDB orders in doubt, with the router's since / attempts
//   -> lastReconcilePerEdge  the router's last answer per edge, or a restart's closing
//   -> fillDrift             per venue: our fills' fees and quantity vs the venue's reports
import type { ChildOrder, FillRecord, OrderRecord } from '../domain/orders.ts';
import { isTerminal } from '../domain/orders.ts';

/**
 * What a reconcile with an edge found:
 *   found                 the venue answered with its record of the leg (booked)
 *   not_received          the venue never saw the leg: it ended cancelled
 *   report_refused        the venue's record could not be true of the leg: asked again
 *   unanswered            no answer within the leg timeout (the session or the edge is away)
 *   cancel_confirmed      a cancel whose answer was lost, answered when asked again
 *   gave_up               still in doubt after every attempt: a restart reconciles it
 *   closed_after_restart  a restart closed the working order (the venue keeps no record)
 */
export const RECONCILE_OUTCOMES = ['found', 'not_received', 'report_refused', 'unanswered', 'cancel_confirmed', 'gave_up', 'closed_after_restart'] as const;
export type ReconcileOutcome = (typeof RECONCILE_OUTCOMES)[number];

/** The reason a restart gives the resting legs it closes (reconciliation.ts `closeAfterRestart`). */
export const NO_RECORD_AFTER_RESTART = 'no record on the venue after a restart';
/** The failure class of an order a restart closed. */
export const RECONCILED_AFTER_RESTART = 'reconciled_after_restart';

/** A router's last reconcile answer from one edge, with its counts since the router started. */
export interface EdgeReconcile {
  edge_id: string;
  venue: string;
  at_unix_ns: number;
  outcome: ReconcileOutcome;
  node_order_id: string;
  child_id: string | null;
  /** asks (Reconcile, or a cancel asked again) the router sent the edge since it started */
  asks: number;
  /** of them, unanswered within the leg timeout */
  unanswered: number;
}

/** An order the router is reconciling now: its legs' lost answers, or its cancels' lost answers. */
export interface RouterInDoubt {
  node_order_id: string;
  kind: 'legs' | 'cancel';
  since_unix_ns: number;
  attempts: number;
  last_attempt_unix_ns: number | null;
}

/** The router's answer to `Recon`. */
export interface ReconLogAnswer {
  started_unix_ns: number;
  edges: EdgeReconcile[];
  in_doubt: RouterInDoubt[];
}

/** At most this many orders in doubt travel in a router's answer (oldest first); one ring frame holds them. */
export const MAX_ROUTER_IN_DOUBT = 200;

/**
 * What one router did to reconcile with the venues since it started: the last answer per edge
 * and the orders under reconciliation now. Kept in the router's memory (a restart's own
 * reconciliation is read from the orders it closed: `lastReconcilePerEdge`). Bounded: one row
 * per edge of the catalog, one entry per order being reconciled (each ends when its attempts do).
 */
export class ReconcileLog {
  private readonly edges = new Map<string, EdgeReconcile>();
  private readonly open = new Map<string, RouterInDoubt>();

  constructor(readonly startedNs: number) {}

  /** An order's reconciliation starts (its legs', or its cancels'). */
  opened(nodeOrderId: string, kind: RouterInDoubt['kind'], nowNs: number): void {
    if (!this.open.has(nodeOrderId)) this.open.set(nodeOrderId, { node_order_id: nodeOrderId, kind, since_unix_ns: nowNs, attempts: 0, last_attempt_unix_ns: null });
  }

  /** One round of asks for the order begins. */
  attempt(nodeOrderId: string, nowNs: number): void {
    const entry = this.open.get(nodeOrderId);
    if (entry === undefined) return;
    entry.attempts++;
    entry.last_attempt_unix_ns = nowNs;
  }

  /** One edge's answer (or its silence) about one leg. */
  answered(leg: Pick<ChildOrder, 'venue' | 'edge_id' | 'child_id'>, nodeOrderId: string, outcome: ReconcileOutcome, nowNs: number): void {
    const previous = this.edges.get(leg.edge_id);
    const asks = (previous?.asks ?? 0) + (outcome === 'gave_up' ? 0 : 1);
    const unanswered = (previous?.unanswered ?? 0) + (outcome === 'unanswered' ? 1 : 0);
    this.edges.set(leg.edge_id, { edge_id: leg.edge_id, venue: leg.venue, at_unix_ns: nowNs, outcome, node_order_id: nodeOrderId, child_id: leg.child_id, asks, unanswered });
  }

  /** The order's reconciliation ended (resolved, or given up). */
  closed(nodeOrderId: string): void {
    this.open.delete(nodeOrderId);
  }

  snapshot(): ReconLogAnswer {
    return {
      started_unix_ns: this.startedNs,
      edges: [...this.edges.values()].map((e) => ({ ...e })),
      // Map order is insertion order: the oldest first.
      in_doubt: [...this.open.values()].slice(0, MAX_ROUTER_IN_DOUBT).map((e) => ({ ...e })),
    };
  }
}

/** A working order in doubt: a leg's answer lost (`UNCONFIRMED`), or a cancel's (`reconciling`). */
export function isInDoubt(order: Pick<OrderRecord, 'status' | 'reconciliation_state' | 'children'>): boolean {
  if (isTerminal(order.status)) return false;
  return order.status === 'UNCONFIRMED' || order.reconciliation_state === 'reconciling' || order.children.some((c) => c.status === 'unconfirmed');
}

export interface InDoubtLeg {
  child_id: string;
  venue: string;
  edge_id: string;
  status: ChildOrder['status'];
  qty_1e8: number;
  filled_qty_1e8: number;
  sent_unix_ns: number | null;
}

export interface InDoubtOrder {
  node_order_id: string;
  client_order_id: string;
  symbol: string;
  side: OrderRecord['side'];
  status: OrderRecord['status'];
  reconciliation_state: OrderRecord['reconciliation_state'];
  /** what is in doubt: legs' answers, or cancels' answers */
  kind: RouterInDoubt['kind'];
  /** since when: the router's record of the reconciliation's start, else the order's last write */
  since_unix_ns: number;
  since_source: 'router' | 'order_record';
  /** the router's attempts so far; null when the router is not reconciling it (it gave up, or restarted) */
  attempts: number | null;
  last_attempt_unix_ns: number | null;
  legs: InDoubtLeg[];
}

/** The legs of an order in doubt that are: a lost answer's, or a resting leg whose cancel's answer was lost. */
function legsInDoubt(order: OrderRecord): ChildOrder[] {
  const cancel = order.reconciliation_state === 'reconciling';
  return order.children.filter((c) => c.status === 'unconfirmed' || (cancel && c.status === 'resting'));
}

/**
 * The working orders in doubt (from LMDB: durable, whatever the router remembers), oldest first,
 * with what the router says of each.
 */
export function ordersInDoubt(open: readonly OrderRecord[], router: readonly RouterInDoubt[]): InDoubtOrder[] {
  const known = new Map(router.map((r) => [r.node_order_id, r]));
  return open
    .filter(isInDoubt)
    .map((order): InDoubtOrder => {
      const r = known.get(order.node_order_id);
      const legs = legsInDoubt(order);
      return {
        node_order_id: order.node_order_id,
        client_order_id: order.client_order_id,
        symbol: order.symbol,
        side: order.side,
        status: order.status,
        reconciliation_state: order.reconciliation_state,
        kind: r?.kind ?? (legs.some((c) => c.status === 'unconfirmed') || order.status === 'UNCONFIRMED' ? 'legs' : 'cancel'),
        since_unix_ns: r?.since_unix_ns ?? order.updated_unix_ns,
        since_source: r === undefined ? 'order_record' : 'router',
        attempts: r?.attempts ?? null,
        last_attempt_unix_ns: r?.last_attempt_unix_ns ?? null,
        legs: legs.map((c) => ({ child_id: c.child_id, venue: c.venue, edge_id: c.edge_id, status: c.status, qty_1e8: c.qty_1e8, filled_qty_1e8: c.filled_qty_1e8, sent_unix_ns: c.sent_unix_ns ?? null })),
      };
    })
    .sort((a, b) => a.since_unix_ns - b.since_unix_ns || a.node_order_id.localeCompare(b.node_order_id));
}

export interface EdgeReconcileRow {
  venue: string;
  edge_id: string;
  last_reconcile_unix_ns: number | null;
  outcome: ReconcileOutcome | null;
  node_order_id: string | null;
  source: 'router' | 'restart' | null;
  asks_since_router_start: number;
  unanswered_since_router_start: number;
  legs_in_doubt: number;
}

/**
 * The last reconcile per edge: the router's last answer, or a restart's closing of a working
 * order (read from the recent orders: the router of a new process never saw it), whichever is
 * later. Every edge the router asked, a recent order traded on or a leg in doubt waits on has a
 * row (null figures when it was never reconciled); by venue, then edge.
 */
export function lastReconcilePerEdge(log: readonly EdgeReconcile[], recent: readonly OrderRecord[], inDoubt: readonly InDoubtOrder[]): EdgeReconcileRow[] {
  const rows = new Map<string, EdgeReconcileRow>();
  const row = (venue: string, edge_id: string): EdgeReconcileRow => {
    let r = rows.get(edge_id);
    if (r === undefined) {
      r = { venue, edge_id, last_reconcile_unix_ns: null, outcome: null, node_order_id: null, source: null, asks_since_router_start: 0, unanswered_since_router_start: 0, legs_in_doubt: 0 };
      rows.set(edge_id, r);
    }
    return r;
  };
  const later = (r: EdgeReconcileRow, at: number, outcome: ReconcileOutcome, nodeOrderId: string, source: 'router' | 'restart') => {
    if (r.last_reconcile_unix_ns !== null && r.last_reconcile_unix_ns >= at) return;
    r.last_reconcile_unix_ns = at;
    r.outcome = outcome;
    r.node_order_id = nodeOrderId;
    r.source = source;
  };
  for (const e of log) {
    const r = row(e.venue, e.edge_id);
    r.asks_since_router_start = e.asks;
    r.unanswered_since_router_start = e.unanswered;
    later(r, e.at_unix_ns, e.outcome, e.node_order_id, 'router');
  }
  for (const order of recent) {
    const restart = order.failure_class === RECONCILED_AFTER_RESTART;
    for (const c of order.children) {
      const r = row(c.venue, c.edge_id);
      if (restart && (c.status === 'unconfirmed' || c.reason === NO_RECORD_AFTER_RESTART)) later(r, order.updated_unix_ns, 'closed_after_restart', order.node_order_id, 'restart');
    }
  }
  for (const order of inDoubt) for (const leg of order.legs) row(leg.venue, leg.edge_id).legs_in_doubt++;
  return [...rows.values()].sort((a, b) => a.venue.localeCompare(b.venue) || a.edge_id.localeCompare(b.edge_id));
}

/** One venue's figures of one order, or of every recent order (bigint: sums may pass 2^53). */
export interface DriftFigures {
  /** the sum of our fills' fee_1e9 on the venue */
  our_fee_1e9: bigint;
  /** the venue's reported cumulative fee: each leg's last venue_reported_cum_fee_1e9, summed over the legs */
  venue_fee_1e9: bigint;
  /** the sum of our fills' qty_1e8 on the venue */
  our_qty_1e8: bigint;
  /** the venue's reported cumulative filled quantity of each leg, summed (a leg recorded before it was kept: its filled quantity) */
  venue_qty_1e8: bigint;
}

export interface VenueDrift extends DriftFigures {
  venue: string;
  orders: number;
  legs: number;
  fills: number;
  /** venue minus ours */
  fee_drift_1e9: bigint;
  qty_drift_1e8: bigint;
  orders_disagreeing: number;
}

export interface OrderDrift {
  node_order_id: string;
  symbol: string;
  status: OrderRecord['status'];
  /** fill ids the order lists that have no stored fill */
  missing_fills: number;
  venues: (DriftFigures & { venue: string })[];
}

export interface FillDrift {
  orders_checked: number;
  orders_disagreeing: number;
  by_venue: VenueDrift[];
  /** the disagreeing orders, newest first as given, at most `maxListed` */
  disagreeing: OrderDrift[];
}

function figuresOf(legs: readonly ChildOrder[], fills: readonly FillRecord[]): DriftFigures {
  let our_fee_1e9 = 0n;
  let our_qty_1e8 = 0n;
  for (const f of fills) {
    our_fee_1e9 += BigInt(f.fee_1e9);
    our_qty_1e8 += BigInt(f.qty_1e8);
  }
  let venue_fee_1e9 = 0n;
  let venue_qty_1e8 = 0n;
  for (const c of legs) {
    venue_fee_1e9 += BigInt(c.venue_reported_cum_fee_1e9);
    venue_qty_1e8 += BigInt(c.venue_reported_cum_qty_1e8 ?? c.filled_qty_1e8);
  }
  return { our_fee_1e9, venue_fee_1e9, our_qty_1e8, venue_qty_1e8 };
}

const agrees = (f: DriftFigures) => f.our_fee_1e9 === f.venue_fee_1e9 && f.our_qty_1e8 === f.venue_qty_1e8;

/**
 * Drift between our fills and the venues' reports over `orders` (the recent ones): per order and
 * venue, the sum of our fills' fees and quantities against the venue's reported cumulative fee
 * and quantity of the order's legs there. An order disagrees when any venue's figures differ, or
 * a fill it lists is missing. `fillsOf` gives an order's stored fills.
 */
export function fillDrift(orders: readonly OrderRecord[], fillsOf: (order: OrderRecord) => readonly FillRecord[], maxListed = 50): FillDrift {
  const venues = new Map<string, VenueDrift>();
  const disagreeing: OrderDrift[] = [];
  let disagreeingCount = 0;
  for (const order of orders) {
    const fills = fillsOf(order);
    const missing = Math.max(0, order.fill_ids.length - fills.length);
    const names = [...new Set([...order.children.map((c) => c.venue), ...fills.map((f) => f.venue)])].sort();
    const perVenue = names.map((venue) => ({
      venue,
      ...figuresOf(
        order.children.filter((c) => c.venue === venue),
        fills.filter((f) => f.venue === venue),
      ),
    }));
    const disagrees = missing > 0 || perVenue.some((v) => !agrees(v));
    for (const v of perVenue) {
      let d = venues.get(v.venue);
      if (d === undefined) {
        d = { venue: v.venue, orders: 0, legs: 0, fills: 0, our_fee_1e9: 0n, venue_fee_1e9: 0n, our_qty_1e8: 0n, venue_qty_1e8: 0n, fee_drift_1e9: 0n, qty_drift_1e8: 0n, orders_disagreeing: 0 };
        venues.set(v.venue, d);
      }
      d.orders++;
      d.legs += order.children.filter((c) => c.venue === v.venue).length;
      d.fills += fills.filter((f) => f.venue === v.venue).length;
      d.our_fee_1e9 += v.our_fee_1e9;
      d.venue_fee_1e9 += v.venue_fee_1e9;
      d.our_qty_1e8 += v.our_qty_1e8;
      d.venue_qty_1e8 += v.venue_qty_1e8;
      if (!agrees(v)) d.orders_disagreeing++;
    }
    if (!disagrees) continue;
    disagreeingCount++;
    if (disagreeing.length < maxListed) disagreeing.push({ node_order_id: order.node_order_id, symbol: order.symbol, status: order.status, missing_fills: missing, venues: perVenue });
  }
  const byVenue = [...venues.values()].sort((a, b) => a.venue.localeCompare(b.venue));
  for (const d of byVenue) {
    d.fee_drift_1e9 = d.venue_fee_1e9 - d.our_fee_1e9;
    d.qty_drift_1e8 = d.venue_qty_1e8 - d.our_qty_1e8;
  }
  return { orders_checked: orders.length, orders_disagreeing: disagreeingCount, by_venue: byVenue, disagreeing };
}
