// An order's books: a leg's fills booked on the positions ledger, the final status and TCA once
// every leg has ended, and the commit that makes them durable before anyone hears of them.
import type { OrderLog } from './types.ts';
import type { ChildExecution } from '../actors/edge/messages.ts';
import type { VenueView } from './sor/sor-types.ts';
import type { ChildOrder, FillRecord, OrderRecord } from '../domain/orders.ts';
import { isTerminal, publicOrder } from '../domain/orders.ts';
import { nowNs } from '../domain/units.ts';
import type { Logger } from '../engine/actor.ts';
import { fillRecord, ledgerFill } from './fills.ts';
import type { Ledgers } from './ledgers.ts';
import { finish } from './order-record.ts';
import { orderTca } from './order-tca.ts';
import type { ExecutionEvents } from './types.ts';
import type { VenueObserver } from './venue-observer.ts';

export class Booking {
  /** Fills booked but not yet committed, for TCA without a read back. */
  private readonly fillsById = new Map<number, FillRecord>();

  constructor(
    private readonly orders: OrderLog,
    private readonly ledgers: Ledgers,
    private readonly events: ExecutionEvents,
    private readonly observer: Pick<VenueObserver, 'scheduleMarkouts'>,
    private readonly log: Logger,
    /** told after each commit, once durable (live venues' balances are pulled again when an order ends) */
    private readonly committed: (order: OrderRecord) => void = () => {},
  ) {}

  /**
   * One leg's answer: its fills as FillRecords, booked in the ledger against its reservation,
   * which ends with the leg (a resting leg keeps it).
   */
  bookChildFills(
    order: OrderRecord,
    child: ChildOrder,
    result: ChildExecution,
    reservation: number | false | undefined,
    out: FillRecord[],
    rests = false,
    isMaker = false,
  ): void {
    const state = this.ledgers.state(order.client_id, order.mode);
    let reported = 0;
    for (const f of result.fills) {
      const fill = fillRecord(this.orders.nextFillId(), nowNs(), order, child, result, f, isMaker);
      const applied = state.ledger.applyFill({
        ...ledgerFill(fill),
        ...(reservation !== false && reservation !== undefined ? { reservation } : {}),
      });
      if (applied.status === 'rejected') this.log.error({ fill: fill.fill_id, reason: applied.reason }, 'ledger refused a fill');
      // The fill is put in this same turn, before any checkpoint can be.
      this.ledgers.filled(state, fill.id);
      out.push(fill);
      this.fillsById.set(fill.id, fill);
      order.fill_ids.push(fill.id);
      order.filled_qty_1e8 += f.qty_1e8;
      child.filled_qty_1e8 += f.qty_1e8;
      child.fee_1e9 += f.fee_1e9;
      child.venue_reported_cum_fee_1e9 = f.cum_fee_1e9;
      reported += f.qty_1e8;
    }
    // An answer (to Execute, Place or Reconcile) is the venue's whole record of the leg so far;
    // a maker fill's cumulative is its leg less what it leaves resting (RestingLegs sets it).
    if (!isMaker) child.venue_reported_cum_qty_1e8 = reported;
    if (rests) return;
    child.status = child.filled_qty_1e8 === child.qty_1e8 ? 'filled' : child.filled_qty_1e8 > 0 ? 'partial' : result.ok ? 'cancelled' : 'rejected';
    child.reason = result.reason ?? (child.filled_qty_1e8 < child.qty_1e8 ? 'ioc_remainder_cancelled' : null);
    if (reservation !== false && reservation !== undefined) state.ledger.release(reservation);
  }

  /**
   * Every leg has ended (or is in doubt): the final status and, when something filled, TCA.
   * The caller commits.
   */
  settle(order: OrderRecord, views: readonly VenueView[], started: number, cancelled = false): void {
    const doubtful = order.children.some((c) => c.status === 'unconfirmed');
    const feeMismatch = order.children.some((c) => c.fee_1e9 !== c.venue_reported_cum_fee_1e9);
    // An order reconciled with its venues stays so when it settles later (a resting leg's last fill).
    order.reconciliation_state = doubtful ? 'reconciling' : order.reconciliation_state === 'reconciled' ? 'reconciled' : feeMismatch ? 'unknown' : 'in_sync';
    if (doubtful) {
      order.status = 'UNCONFIRMED';
      order.venue_state = 'unknown';
      order.updated_unix_ns = nowNs();
    } else if (order.filled_qty_1e8 === order.qty_1e8) {
      finish(order, 'COMPLETED', null, null);
    } else if (!cancelled && (order.lot_remainder_1e8 ?? 0) > 0 && order.filled_qty_1e8 === order.qty_1e8 - order.lot_remainder_1e8!) {
      // Everything a venue could be asked for filled: the order is complete, and says what its
      // lots could not represent.
      finish(order, 'COMPLETED', 'lot_rounding', `filled ${order.filled_qty_1e8} of ${order.qty_1e8}; the remaining ${order.lot_remainder_1e8} is smaller than the lot of every venue that trades ${order.symbol} and was not sent`);
    } else if (cancelled) {
      finish(order, 'CANCELLED', 'cancelled', `cancelled by client with ${order.filled_qty_1e8} of ${order.qty_1e8} filled`);
    } else if (order.filled_qty_1e8 > 0) {
      finish(order, 'CANCELLED', 'ioc_remainder', `filled ${order.filled_qty_1e8} of ${order.qty_1e8}; the rest found no liquidity within the limits and was cancelled`);
    } else {
      finish(order, 'REJECTED', 'no_fill', order.children.map((c) => `${c.venue}: ${c.reason ?? c.status}`).join('; '));
    }
    if (order.filled_qty_1e8 > 0) {
      const fills = order.fill_ids.map((id) => this.fillsById.get(id) ?? this.orders.getFill(order.client_id, order.mode, id)).filter((f): f is FillRecord => f !== undefined);
      order.tca = orderTca(order, fills, views, started) as Record<string, unknown> | null;
    }
  }

  /** Fills, the order and (through the watermark) the ledger in one commit, on disk before anyone hears of them. */
  async commit(order: OrderRecord, fills: readonly FillRecord[]): Promise<void> {
    for (const fill of fills) this.orders.putFill(order.client_id, order.mode, fill);
    this.orders.putOrder(order);
    await this.orders.durable();
    for (const fill of fills) this.fillsById.delete(fill.id);
    this.observer.scheduleMarkouts(order, fills);
    if (this.events.wants('fills', order.client_id, order.mode)) for (const fill of fills) this.events.publish('fills', order.client_id, order.mode, fill);
    this.emitOrder(order, fills);
    this.committed(order);
    if (isTerminal(order.status) && order.tca !== null && this.events.wants('tca', order.client_id, order.mode)) {
      this.events.publish('tca', order.client_id, order.mode, { node_order_id: order.node_order_id, tca: order.tca });
    }
  }

  /**
   * The order alone, durable: no fills with it. With `reply` (a token the journal's thread
   * awaits), the order's public JSON as it is now rides in the same write set and the journal
   * gives it as the HTTP answer once durable: no message back through this router.
   */
  async persist(order: OrderRecord, reply?: number): Promise<void> {
    order.updated_unix_ns = nowNs();
    this.orders.putOrder(order);
    if (reply !== undefined) this.orders.putReply(reply, 201, order);
    await this.orders.durable();
  }

  /** The order's change to its listeners, and to the deployment that entered it (with the fills new to it). */
  emitOrder(order: OrderRecord, fills: readonly FillRecord[] = []): void {
    if (order.lineage_deployment_id !== null) this.events.lineage?.(order, fills);
    if (!this.events.wants('orders', order.client_id, order.mode)) return;
    this.events.publish('orders', order.client_id, order.mode, publicOrder(order));
  }
}
