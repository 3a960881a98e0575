// The legs' answers and the resting (GTC) legs: whether a leg rests on its venue's book or its
// order settles once every leg has answered; a resting leg's maker fills (each venue trade booked
// once, however often it is reported) and its cancel on the venue, confirmed with the venue when
// its answer is lost. Booking, settling and committing are `Booking`'s.
import type { CancelResult, ChildExecution, ChildPlacement, EdgeMessage, MakerFill } from '../actors/edge/messages.ts';
import { edgeKey } from '../actors/market/directory.ts';
import type { VenueView } from './sor/sor-types.ts';
import type { ChildOrder, FillRecord, OrderRecord } from '../domain/orders.ts';
import { isTerminal } from '../domain/orders.ts';
import { nowNs } from '../domain/units.ts';
import type { Logger } from '../engine/actor.ts';
import type { Messenger, Schedule } from './types.ts';
import type { Booking } from './booking.ts';
import { makerFillProblem } from './leg-reports.ts';
import type { Ledgers } from './ledgers.ts';
import { CHILD_TIMEOUT_MS, RECONCILE_ATTEMPTS, RECONCILE_BACKOFF_MS } from './legs.ts';
import { stampFirstFill } from './order-record.ts';
import type { ReconcileLog } from './recon.ts';

type CancelReason = 'cancelled' | 'kill_switch';

/** A GTC leg on a venue's book, with what its fills and its order's settlement need. */
interface RestingLeg {
  order: OrderRecord;
  child: ChildOrder;
  reservation: number | false | undefined;
  /** the books at routing, for TCA's best-single-venue benchmark */
  views: readonly VenueView[];
  started: number;
  /** maker fills that arrived before the placement's answer was booked */
  early: MakerFill[];
  /** The venue trades booked on this leg: a fill reported again (the same trade id) is not booked twice. */
  trades: Set<string>;
  /** A cancel of this leg is out (or being confirmed): not sent again meanwhile. */
  cancelling: boolean;
}

export class RestingLegs {
  /** Resting (GTC) legs by child id: what their maker fills are booked against. */
  private readonly restingLegs = new Map<string, RestingLeg>();
  /**
   * Orders cancelled (by the client or the kill switch) while a GTC leg's placement was out or in
   * doubt, by node_order_id: the leg may yet turn out to rest, and is then cancelled at once.
   */
  private readonly cancelWanted = new Map<string, CancelReason>();
  /** Set at shutdown: cancels in doubt are no longer confirmed (the next start reconciles the order). */
  private stopped = false;

  constructor(
    private readonly endpoint: Messenger,
    private readonly ledgers: Ledgers,
    private readonly booking: Pick<Booking, 'bookChildFills' | 'settle' | 'commit'>,
    private readonly log: Logger,
    private readonly schedule: Schedule,
    /** Cancels confirmed again are reconciles too (`GET /v1/data/recon`). */
    private readonly reconciles?: ReconcileLog,
  ) {}

  stop(): void {
    this.stopped = true;
  }

  /** A GTC leg about to be sent: registered first, so maker fills find it whatever order they arrive in. */
  register(order: OrderRecord, child: ChildOrder, reservation: number | false | undefined, views: readonly VenueView[], started: number): void {
    this.restingLegs.set(child.child_id, { order, child, reservation, views, started, early: [], trades: new Set(), cancelling: false });
  }

  /** A leg that will not rest (the venue never saw it): its maker fills have nothing to book against. */
  forget(childId: string): void {
    this.restingLegs.delete(childId);
  }

  /** The orders with a leg resting (or registered to rest). */
  orders(): Set<OrderRecord> {
    return new Set([...this.restingLegs.values()].map((l) => l.order));
  }

  /** The in-memory order of a resting leg (the one its fills update), if the order has one. */
  workingOrder(nodeOrderId: string): OrderRecord | undefined {
    for (const leg of this.restingLegs.values()) if (leg.order.node_order_id === nodeOrderId) return leg.order;
    return undefined;
  }

  /** A leg's answer, from the venue or from reconciliation: its fills booked, and whether it rests. */
  applyLegAnswer(order: OrderRecord, child: ChildOrder, result: ChildExecution | ChildPlacement, reservation: number | false | undefined, fills: FillRecord[], early: MakerFill[]): void {
    const leg = this.restingLegs.get(child.child_id);
    const rests = 'resting_qty_1e8' in result && result.resting_qty_1e8 > 0;
    this.booking.bookChildFills(order, child, result, reservation, fills, rests);
    // The crossing part's trades too: the venue's stream may report them again.
    if (leg !== undefined) for (const f of result.fills) leg.trades.add(f.trade_id);
    if (rests && leg !== undefined) {
      child.status = 'resting';
      child.reason = null;
      early.push(...leg.early);
      leg.early = [];
    } else {
      this.restingLegs.delete(child.child_id);
    }
  }

  /** Every leg has answered or is in doubt: the order rests, or settles; either way it is committed. */
  async afterLegs(order: OrderRecord, views: readonly VenueView[], started: number, fills: FillRecord[], early: MakerFill[], reconciled = false): Promise<void> {
    if (fills.length > 0) stampFirstFill(order, fills[0]!);
    const doubtful = order.children.some((c) => c.status === 'unconfirmed');
    if (!doubtful && order.children.some((c) => c.status === 'resting')) {
      if (reconciled) order.reconciliation_state = 'reconciled';
      // Working on a venue's book: fills come as the market reaches it (onMakerFill).
      order.status = order.filled_qty_1e8 > 0 ? 'PARTIAL' : 'ACTIVE';
      order.venue_state = 'open';
      order.engine_phase = 'working';
      order.updated_unix_ns = nowNs();
      await this.booking.commit(order, fills);
      for (const m of early) this.onMakerFill(m);
      // A cancel that came while the leg was in doubt holds now that it is known to rest.
      const why = this.cancelWanted.get(order.node_order_id);
      if (why !== undefined) {
        this.cancelWanted.delete(order.node_order_id);
        await this.cancelResting(order, why);
      }
      return;
    }
    // A cancel asked while a leg was in doubt, and the venue had it end without resting: the
    // order ends as the client's cancel (unless every leg was refused outright: then it was rejected).
    const why = this.cancelWanted.get(order.node_order_id);
    const cancelled = why !== undefined && !order.children.every((c) => c.status === 'rejected');
    this.booking.settle(order, views, started, cancelled);
    if (reconciled) order.reconciliation_state = 'reconciled';
    if (cancelled && why === 'kill_switch' && order.status === 'CANCELLED') order.failure_class = 'kill_switch';
    if (isTerminal(order.status)) this.cancelWanted.delete(order.node_order_id);
    await this.booking.commit(order, fills);
  }

  /**
   * A resting leg filled as maker (told by the edge). Booked against the leg's reservation;
   * the leg ends when nothing is left, the order when no leg rests.
   */
  onMakerFill(m: MakerFill): void {
    const leg = this.restingLegs.get(m.child_id);
    if (leg === undefined) {
      this.log.warn({ child_id: m.child_id }, 'maker fill for no resting leg');
      return;
    }
    const { order, child } = leg;
    if (child.status === 'sent' || child.status === 'unconfirmed') {
      leg.early.push(m); // the placement's answer is still on its way (or being reconciled)
      return;
    }
    const fills: FillRecord[] = [];
    if (!this.bookMakerFill(leg, m, fills, m.left_qty_1e8 > 0)) return;
    stampFirstFill(order, fills[0]!);
    if (m.left_qty_1e8 > 0) {
      child.status = 'resting';
      order.status = 'PARTIAL';
      order.updated_unix_ns = nowNs();
    } else {
      this.restingLegs.delete(m.child_id);
      if (!order.children.some((c) => c.status === 'resting')) this.booking.settle(order, leg.views, leg.started);
    }
    void this.booking.commit(order, fills).catch((err: unknown) => this.log.error({ node_order_id: order.node_order_id, err }, 'maker fill commit failed'));
  }

  /**
   * One maker fill booked on its leg (into `fills`), unless its trade was booked on the leg
   * already (a venue reporting it again) or it cannot be true of the leg. True when booked.
   */
  private bookMakerFill(leg: RestingLeg, m: MakerFill, fills: FillRecord[], rests: boolean): boolean {
    const { order, child } = leg;
    if (leg.trades.has(m.fill.trade_id)) {
      this.log.warn({ node_order_id: order.node_order_id, child_id: child.child_id, trade_id: m.fill.trade_id }, 'maker fill reported again; booked once');
      return false;
    }
    const problem = makerFillProblem(child, order.side, m);
    if (problem !== null) {
      this.log.error({ node_order_id: order.node_order_id, child_id: child.child_id, problem }, 'maker fill refused');
      return false;
    }
    leg.trades.add(m.fill.trade_id);
    const execution: ChildExecution = { child_id: m.child_id, venue: m.venue, edge_id: m.edge_id, ok: true, reason: null, fills: [m.fill], taker_bps: 0, maker_bps: m.maker_bps, ack_ns: 0 };
    this.booking.bookChildFills(order, child, execution, leg.reservation, fills, rests, true);
    child.venue_reported_cum_qty_1e8 = child.qty_1e8 - m.left_qty_1e8;
    return true;
  }

  /**
   * Cancels an order's resting legs on their venues; the order then settles as CANCELLED (or
   * COMPLETED if they filled meanwhile). A leg whose placement is still out or in doubt is
   * cancelled when it turns out to rest (`afterLegs`). A leg whose cancel's answer is lost still
   * rests as far as anyone knows (its fills are booked as they come) and its cancel is asked
   * again until the venue answers (`confirmCancels`).
   */
  async cancelResting(order: OrderRecord, why: CancelReason): Promise<void> {
    if (order.children.some((c) => (c.status === 'sent' || c.status === 'unconfirmed') && this.restingLegs.has(c.child_id))) {
      this.cancelWanted.set(order.node_order_id, why);
    }
    const legs = order.children
      .filter((c) => c.status === 'resting')
      .map((c) => this.restingLegs.get(c.child_id))
      .filter((l): l is RestingLeg => l !== undefined && !l.cancelling);
    if (legs.length === 0) return;
    const lost: RestingLeg[] = [];
    await Promise.all(
      legs.map(async (leg) => {
        leg.cancelling = true;
        try {
          await this.endpoint.ask<CancelResult>(edgeKey(leg.child.edge_id), { t: 'Cancel', child_id: leg.child.child_id } satisfies EdgeMessage, CHILD_TIMEOUT_MS);
        } catch {
          // Lost: the venue may or may not have cancelled it (unless it filled meanwhile).
          if (leg.child.status === 'resting') lost.push(leg);
          else leg.cancelling = false;
          return;
        }
        this.endCancelled(leg, why);
      }),
    );
    if (lost.length > 0) {
      void this.confirmCancels(order, lost, why).catch((err: unknown) => this.log.error({ node_order_id: order.node_order_id, err }, 'cancel confirmation failed'));
    }
    await this.settleCancelled(order, legs[0]!, why);
  }

  /** A leg's cancel answered: what rested no longer does. Fills told before the answer were booked already (same ring, in order). */
  private endCancelled(leg: RestingLeg, why: CancelReason): void {
    const { order, child } = leg;
    leg.cancelling = false;
    if (child.status !== 'resting' || this.restingLegs.get(child.child_id) !== leg) return;
    child.status = child.filled_qty_1e8 > 0 ? 'partial' : 'cancelled';
    child.reason = why;
    if (leg.reservation !== false && leg.reservation !== undefined) this.ledgers.ledger(order.client_id, order.mode).release(leg.reservation);
    this.restingLegs.delete(child.child_id);
  }

  /**
   * After cancels: the order settles once no leg rests; while a cancel is unconfirmed it stays
   * working, `reconciliation_state: reconciling`.
   */
  private async settleCancelled(order: OrderRecord, leg: RestingLeg, why: CancelReason, reconciled = false): Promise<void> {
    // A maker fill that raced the cancel may have completed (and settled) the order already.
    if (isTerminal(order.status)) return;
    if (order.children.some((c) => c.status === 'resting')) {
      order.reconciliation_state = 'reconciling';
      order.updated_unix_ns = nowNs();
      await this.booking.commit(order, []);
      return;
    }
    this.booking.settle(order, leg.views, leg.started, true);
    if (reconciled) order.reconciliation_state = 'reconciled';
    if (why === 'kill_switch' && order.status === 'CANCELLED') order.failure_class = 'kill_switch';
    if (isTerminal(order.status)) this.cancelWanted.delete(order.node_order_id);
    await this.booking.commit(order, []);
  }

  /**
   * Cancels whose answer was lost, asked again with reconciliation's backoff until the venue
   * answers (a cancel of a leg that no longer rests answers `found: false`, so asking again is
   * safe). Gives up after RECONCILE_ATTEMPTS: the legs stay resting, the order working and
   * `reconciling`, and a restart reconciles it.
   */
  private async confirmCancels(order: OrderRecord, legs: RestingLeg[], why: CancelReason): Promise<void> {
    this.reconciles?.opened(order.node_order_id, 'cancel', nowNs());
    try {
      await this.cancelAttempts(order, legs, why);
    } finally {
      this.reconciles?.closed(order.node_order_id);
    }
  }

  private async cancelAttempts(order: OrderRecord, legs: RestingLeg[], why: CancelReason): Promise<void> {
    let pending = legs;
    for (let attempt = 1; attempt <= RECONCILE_ATTEMPTS && pending.length > 0; attempt++) {
      await new Promise<void>((resolve) => this.schedule(RECONCILE_BACKOFF_MS * attempt, resolve));
      if (this.stopped) return;
      this.reconciles?.attempt(order.node_order_id, nowNs());
      const answered = await Promise.all(
        pending.map((leg) =>
          this.endpoint.ask<CancelResult>(edgeKey(leg.child.edge_id), { t: 'Cancel', child_id: leg.child.child_id } satisfies EdgeMessage, CHILD_TIMEOUT_MS).then(
            () => true,
            () => false,
          ),
        ),
      );
      pending.forEach((leg, i) => {
        this.reconciles?.answered(leg.child, order.node_order_id, answered[i] ? 'cancel_confirmed' : 'unanswered', nowNs());
        if (answered[i]) this.endCancelled(leg, why);
      });
      pending = pending.filter((_, i) => !answered[i]);
    }
    if (pending.length > 0) {
      for (const leg of pending) {
        leg.cancelling = false;
        this.reconciles?.answered(leg.child, order.node_order_id, 'gave_up', nowNs());
      }
      this.log.error({ node_order_id: order.node_order_id }, 'cancels still unconfirmed after reconciliation attempts');
      return;
    }
    await this.settleCancelled(order, legs[0]!, why, true);
  }
}
