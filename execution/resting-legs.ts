// The legs' answers and the resting (GTC) legs: whether a leg rests on its venue's book or its
// order settles once every leg has answered; a resting leg's maker fills and its cancel on the
// venue. Booking, settling and committing are `Booking`'s.
import type { CancelResult, ChildExecution, ChildPlacement, EdgeMessage, MakerFill } from '../actors/edge/messages.ts';
import { edgeKey } from '../actors/market/directory.ts';
import type { VenueView } from './sor/sor-types.ts';
import type { ChildOrder, FillRecord, OrderRecord } from '../domain/orders.ts';
import { isTerminal } from '../domain/orders.ts';
import { nowNs } from '../domain/units.ts';
import type { Logger } from '../engine/actor.ts';
import type { Messenger } from './types.ts';
import type { Booking } from './booking.ts';
import type { Ledgers } from './ledgers.ts';
import { CHILD_TIMEOUT_MS } from './legs.ts';
import { stampFirstFill } from './order-record.ts';

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
}

export class RestingLegs {
  /** Resting (GTC) legs by child id: what their maker fills are booked against. */
  private readonly restingLegs = new Map<string, RestingLeg>();

  constructor(
    private readonly endpoint: Messenger,
    private readonly ledgers: Ledgers,
    private readonly booking: Pick<Booking, 'bookChildFills' | 'settle' | 'commit'>,
    private readonly log: Logger,
  ) {}

  /** A GTC leg about to be sent: registered first, so maker fills find it whatever order they arrive in. */
  register(order: OrderRecord, child: ChildOrder, reservation: number | false | undefined, views: readonly VenueView[], started: number): void {
    this.restingLegs.set(child.child_id, { order, child, reservation, views, started, early: [] });
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
      return;
    }
    this.booking.settle(order, views, started);
    if (reconciled) order.reconciliation_state = 'reconciled';
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
    const execution: ChildExecution = { child_id: m.child_id, venue: m.venue, edge_id: m.edge_id, ok: true, reason: null, fills: [m.fill], taker_bps: 0, maker_bps: m.maker_bps, ack_ns: 0 };
    this.booking.bookChildFills(order, child, execution, leg.reservation, fills, m.left_qty_1e8 > 0, true);
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

  /** Cancels an order's resting legs on their venues; the order then settles as CANCELLED (or COMPLETED if they filled meanwhile). */
  async cancelResting(order: OrderRecord, why: 'cancelled' | 'kill_switch'): Promise<void> {
    const legs = order.children.filter((c) => c.status === 'resting').map((c) => this.restingLegs.get(c.child_id)).filter((l) => l !== undefined);
    if (legs.length === 0) return;
    await Promise.all(
      legs.map(async (leg) => {
        try {
          await this.endpoint.ask<CancelResult>(edgeKey(leg.child.edge_id), { t: 'Cancel', child_id: leg.child.child_id } satisfies EdgeMessage, CHILD_TIMEOUT_MS);
        } catch (err) {
          leg.child.status = 'unconfirmed';
          leg.child.reason = `cancel not confirmed: ${(err as Error).message}`;
          return;
        }
        // Fills published before the cancel's answer were booked already (same ring, in order).
        if (leg.child.status !== 'resting') return;
        leg.child.status = leg.child.filled_qty_1e8 > 0 ? 'partial' : 'cancelled';
        leg.child.reason = why;
        if (leg.reservation !== false && leg.reservation !== undefined) this.ledgers.ledger(order.client_id, order.mode).release(leg.reservation);
        this.restingLegs.delete(leg.child.child_id);
      }),
    );
    // A maker fill that raced the cancel may have completed (and settled) the order already.
    if (isTerminal(order.status)) return;
    const first = legs[0]!;
    this.booking.settle(order, first.views, first.started, true);
    if (why === 'kill_switch' && order.status === 'CANCELLED') order.failure_class = 'kill_switch';
    await this.booking.commit(order, []);
  }
}
