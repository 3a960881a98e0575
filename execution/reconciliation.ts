// Legs in doubt, reconciled with their venues, never guessed: while the process runs, by asking
// the edge (`Reconcile`) with backoff; after a restart, by closing the working orders the
// simulated venues no longer know.
import type { Messenger, OrderLog, Schedule } from './types.ts';
import type { Reconciled } from '../actors/edge/child-journal.ts';
import type { ChildExecution, ChildPlacement, EdgeMessage, MakerFill, ReconcileLegFacts } from '../actors/edge/messages.ts';
import { edgeKey } from '../actors/market/directory.ts';
import type { VenueView } from './sor/sor-types.ts';
import type { ChildOrder, FillRecord, OrderRecord } from '../domain/orders.ts';
import { venueSymbol } from './prediction-entry.ts';
import type { Logger } from '../engine/actor.ts';
import type { Booking } from './booking.ts';
import type { Ledgers } from './ledgers.ts';
import { CHILD_TIMEOUT_MS, RECONCILE_ATTEMPTS, RECONCILE_BACKOFF_MS, RECONCILE_SLOW_FOR_MS, RECONCILE_SLOW_MS } from './legs.ts';
import { legReportProblem } from './leg-reports.ts';
import { finish } from './order-record.ts';
import { NO_RECORD_AFTER_RESTART, RECONCILED_AFTER_RESTART, ReconcileLog } from './recon.ts';
import type { RestingLegs } from './resting-legs.ts';
import { nowNs } from '../domain/units.ts';

export class Reconciliation {
  /** Set at shutdown: attempts stop, and the next start reconciles what is still in doubt. */
  private stopped = false;

  constructor(
    private readonly endpoint: Messenger,
    private readonly ledgers: Ledgers,
    private readonly legs: Pick<RestingLegs, 'applyLegAnswer' | 'afterLegs' | 'forget'>,
    private readonly booking: Pick<Booking, 'commit'>,
    private readonly log: Logger,
    private readonly schedule: Schedule,
    /** What each Reconcile found, per edge, and the orders being reconciled (`GET /v1/data/recon`). */
    private readonly reconciles: ReconcileLog = new ReconcileLog(nowNs()),
    /** this router's key: a leg's owner, told to a live edge that did not send the leg */
    private readonly self = '',
  ) {}

  /**
   * Legs whose answer was lost are asked of their venue (`Reconcile`) until it answers: what it
   * did is booked; a child it never saw is refused from then on and ends `cancelled`. Never
   * guessed. RECONCILE_ATTEMPTS quick tries, then one every RECONCILE_SLOW_MS for
   * RECONCILE_SLOW_FOR_MS; then it gives up (the order stays UNCONFIRMED, and a restart
   * reconciles it).
   */
  stop(): void {
    this.stopped = true;
  }

  async reconcileLegs(order: OrderRecord, views: readonly VenueView[], started: number, reservations: readonly (number | false | undefined)[]): Promise<void> {
    this.reconciles.opened(order.node_order_id, 'legs', nowNs());
    try {
      await this.attempts(order, views, started, reservations);
    } finally {
      this.reconciles.closed(order.node_order_id);
    }
  }

  /** What a live edge needs to ask its venue about a leg it did not send itself (one of the last run). */
  private legFacts(order: OrderRecord, child: ChildOrder): ReconcileLegFacts {
    return {
      client_id: order.client_id,
      owner: this.self,
      symbol: venueSymbol(order, child.venue),
      resting: child.time_in_force === 'gtc',
      sent_ms: Math.floor((child.sent_unix_ns ?? order.created_unix_ns) / 1_000_000),
      qty_1e8: child.qty_1e8,
    };
  }

  private async attempts(order: OrderRecord, views: readonly VenueView[], started: number, reservations: readonly (number | false | undefined)[]): Promise<void> {
    const slowUntil = Date.now() + RECONCILE_SLOW_FOR_MS;
    for (let attempt = 1; attempt <= RECONCILE_ATTEMPTS || Date.now() < slowUntil; attempt++) {
      await new Promise<void>((resolve) => this.schedule(attempt <= RECONCILE_ATTEMPTS ? RECONCILE_BACKOFF_MS * attempt : RECONCILE_SLOW_MS, resolve));
      if (this.stopped) return;
      this.reconciles.attempt(order.node_order_id, nowNs());
      const fills: FillRecord[] = [];
      const early: MakerFill[] = [];
      await Promise.all(
        order.children.map(async (child, i) => {
          if (child.status !== 'unconfirmed') return;
          let answer: Reconciled<ChildExecution | ChildPlacement>;
          try {
            answer = await this.endpoint.ask(edgeKey(child.edge_id), { t: 'Reconcile', child_id: child.child_id, leg: this.legFacts(order, child) } satisfies EdgeMessage, CHILD_TIMEOUT_MS);
          } catch {
            this.reconciles.answered(child, order.node_order_id, 'unanswered', nowNs());
            return; // the edge is still away: the next attempt asks again
          }
          if (answer.known) {
            // The venue's record must be true of the leg too; one that is not is asked again.
            const problem = legReportProblem(child, order.side, answer.result);
            if (problem !== null) {
              this.reconciles.answered(child, order.node_order_id, 'report_refused', nowNs());
              this.log.warn({ node_order_id: order.node_order_id, child_id: child.child_id, problem }, 'reconciled report refused');
              return;
            }
            this.reconciles.answered(child, order.node_order_id, 'found', nowNs());
            this.legs.applyLegAnswer(order, child, answer.result, reservations[i], fills, early);
            return;
          }
          this.reconciles.answered(child, order.node_order_id, 'not_received', nowNs());
          child.status = 'cancelled';
          child.reason = 'not received by the venue (reconciled)';
          this.legs.forget(child.child_id);
          const reservation = reservations[i];
          if (reservation !== false && reservation !== undefined) this.ledgers.ledger(order.client_id, order.mode).release(reservation);
        }),
      );
      if (!order.children.some((c) => c.status === 'unconfirmed')) {
        await this.legs.afterLegs(order, views, started, fills, early, true);
        return;
      }
      if (fills.length > 0) await this.booking.commit(order, fills);
    }
    for (const child of order.children) if (child.status === 'unconfirmed') this.reconciles.answered(child, order.node_order_id, 'gave_up', nowNs());
    this.log.error({ node_order_id: order.node_order_id }, 'legs still unconfirmed after reconciliation attempts');
  }
}

/**
 * After a restart: a working order whose child answers were lost is reconciled against the
 * venues, never guessed. The simulated venues keep no history across a restart, so an order
 * of theirs ends CANCELLED with what LMDB holds as filled and `reconciliation_state` reconciled.
 * A live venue keeps its orders: an order with a leg there in doubt or resting stays open,
 * UNCONFIRMED with those legs `unconfirmed`, for its router to reconcile (`recoverAfterRestart`):
 * what the venue filled meanwhile is booked, what still rests is cancelled (the last run's
 * orders end). Answers how many were closed and the owners whose routers must recover orders.
 */
export async function closeAfterRestart(
  orders: Pick<OrderLog, 'openOrders' | 'putOrder' | 'durable'>,
  /** Told of each order closed, in the same transaction (the TCA aggregates mark it). */
  ended: (order: OrderRecord) => void = () => {},
  /** The venues on their live adapter this run. */
  liveVenues: readonly string[] = [],
): Promise<{ closed: number; recover: { client_id: string; mode: OrderRecord['mode'] }[] }> {
  let closed = 0;
  const recover = new Map<string, { client_id: string; mode: OrderRecord['mode'] }>();
  const live = new Set(liveVenues);
  for (const order of orders.openOrders()) {
    if (order.status === 'WAITING') continue;
    const kept = order.mode === 'live' && order.children.some((c) => live.has(c.venue) && (c.status === 'sent' || c.status === 'unconfirmed' || c.status === 'resting'));
    for (const child of order.children) {
      if (child.status === 'sent' || child.status === 'unconfirmed' || (kept && live.has(child.venue) && child.status === 'resting')) child.status = 'unconfirmed';
      else if (child.status === 'resting') {
        // The venue restarted with the process: nothing of the resting leg is left on its book.
        child.status = child.filled_qty_1e8 > 0 ? 'partial' : 'cancelled';
        child.reason = NO_RECORD_AFTER_RESTART;
      }
    }
    if (kept) {
      order.status = 'UNCONFIRMED';
      order.venue_state = 'unknown';
      order.reconciliation_state = 'reconciling';
      order.updated_unix_ns = nowNs();
      recover.set(`${order.mode}|${order.client_id}`, { client_id: order.client_id, mode: order.mode });
    } else {
      order.reconciliation_state = 'reconciled';
      finish(order, 'CANCELLED', RECONCILED_AFTER_RESTART, 'the venue has no record of the working legs after a restart; nothing further will fill');
      ended(order);
      closed++;
    }
    orders.putOrder(order);
  }
  await orders.durable();
  return { closed, recover: [...recover.values()] };
}
