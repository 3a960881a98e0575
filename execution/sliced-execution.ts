import type { HaltFlag, Schedule } from './types.ts';
// Time-sliced execution of an order with a horizon (the schedule is slicing.ts): the loop that
// runs one slice after another, and the registry of sliced orders working now with how to stop
// them between slices (DELETE, the kill switch). Sending legs, reconciling them, the books and
// the SOR plan are the service's, passed in as `SliceSteps`.
import type { MakerFill } from '../actors/edge/messages.ts';
import type { RouteEntry } from './prediction-entry.ts';
import type { RoutingPlan, VenueView } from './sor/sor-types.ts';
import type { FillRecord, OrderRecord } from '../domain/orders.ts';
import { nowNs } from '../domain/units.ts';
import type { Booking } from './booking.ts';
import type { Ledgers } from './ledgers.ts';
import { stampFirstFill } from './order-record.ts';
import { reserveLegs } from './risk.ts';
import { roundUpToLots, sliceInterval, sliceQty } from './slicing.ts';

/** How a sliced order is stopped between slices. */
interface SliceControl {
  stop: 'cancelled' | 'kill_switch' | 'shutdown' | null;
  wake: (() => void) | null;
}

/** What a slice needs of the service: its legs sent and booked, legs in doubt reconciled, the books and the SOR plan. */
export interface SliceSteps {
  executeLegs(order: OrderRecord, views: readonly VenueView[], reservations: readonly (number | false | undefined)[], started: number): Promise<{ fills: FillRecord[]; early: MakerFill[] }>;
  reconcileIfInDoubt(order: OrderRecord, views: readonly VenueView[], started: number, reservations: readonly (number | false | undefined)[]): void;
  viewsOf(order: OrderRecord, entry: RouteEntry): Promise<VenueView[]>;
  plan(order: OrderRecord, entry: RouteEntry, views: readonly VenueView[], qty: number): { plan: RoutingPlan; arrival: number };
}

export class SlicedExecution {
  /** Sliced orders working now, with how to stop them between slices. */
  private readonly slicing = new Map<string, SliceControl>();

  constructor(
    private readonly steps: SliceSteps,
    private readonly booking: Pick<Booking, 'settle' | 'commit' | 'persist'>,
    private readonly ledgers: Pick<Ledgers, 'ledger'>,
    private readonly killSwitch: HaltFlag,
    /** The thread's timers (a worker's runtime timers wake its parked loop; Node's would not). */
    private readonly schedule: Schedule,
  ) {}

  /**
   * A sliced order (slicing.ts): each slice's legs run and are committed; between slices the
   * order is RUNNING or PARTIAL with `engine_phase: working`; the next slice routes what is
   * left over the slices still to come. It ends when filled, at the horizon, on DELETE or the
   * kill switch, or when a leg's answer is lost (then reconciled as any order).
   */
  async run(
    order: OrderRecord,
    entry: RouteEntry,
    firstViews: readonly VenueView[],
    firstReservations: readonly (number | false)[],
    deadline: number,
  ): Promise<void> {
    const started = nowNs();
    const interval = sliceInterval(order);
    const control: SliceControl = { stop: null, wake: null };
    this.slicing.set(order.node_order_id, control);
    let views = firstViews;
    let reservations: readonly (number | false | undefined)[] = firstReservations;
    // The slice sized at (or after) the deadline takes the rest and is the last one. A slice
    // sized earlier is not, even if executing it ran past the deadline: one more follows.
    let lastSlice = deadline - Date.now() < interval;
    try {
      for (;;) {
        const { fills } = await this.steps.executeLegs(order, views, reservations, started);
        if (fills.length > 0) stampFirstFill(order, fills[0]!);
        if (this.killSwitch.active) control.stop ??= 'kill_switch';
        const left = order.qty_1e8 - order.filled_qty_1e8;
        const doubtful = order.children.some((c) => c.status === 'unconfirmed');
        if (doubtful || left <= 0 || control.stop !== null || lastSlice) {
          this.booking.settle(order, views, started, control.stop !== null);
          if (control.stop !== null && control.stop !== 'cancelled' && order.status === 'CANCELLED') {
            order.failure_class = control.stop;
            if (control.stop === 'shutdown') order.failure_reason = `the service shut down with ${order.filled_qty_1e8} of ${order.qty_1e8} filled`;
          }
          if (control.stop === null && order.failure_class === 'ioc_remainder') {
            order.failure_class = 'horizon_elapsed';
            order.failure_reason = `filled ${order.filled_qty_1e8} of ${order.qty_1e8} within the ${order.constraints!.horizon_ms} ms horizon`;
          }
          await this.booking.commit(order, fills);
          this.steps.reconcileIfInDoubt(order, views, started, reservations);
          return;
        }
        order.status = order.filled_qty_1e8 > 0 ? 'PARTIAL' : 'RUNNING';
        order.engine_phase = 'working';
        order.updated_unix_ns = nowNs();
        await this.booking.commit(order, fills);
        await new Promise<void>((resolve) => {
          const cancel = this.schedule(Math.max(0, Math.min(interval, deadline - Date.now())), resolve);
          control.wake = () => {
            cancel();
            resolve();
          };
        });
        control.wake = null;
        if (control.stop !== null || this.killSwitch.active) {
          reservations = [];
          continue; // nothing more is sent: the loop settles
        }
        // The next slice: written ahead (durable) before its legs go out.
        views = await this.steps.viewsOf(order, entry);
        const now = Date.now();
        lastSlice = deadline - now < interval;
        const { plan } = this.steps.plan(order, entry, views, roundUpToLots(sliceQty(left, now, deadline, interval), left, views));
        const before = order.children.length;
        const fresh = reserveLegs(order, plan, [], this.ledgers.ledger(order.client_id, order.mode));
        reservations = [...new Array<undefined>(before).fill(undefined), ...fresh];
        if (order.children.length > before) await this.booking.persist(order);
      }
    } finally {
      this.slicing.delete(order.node_order_id);
    }
  }

  /** Stops a sliced order before its next slice (a no-op for an order not sliced or already done). */
  stop(nodeOrderId: string, why: 'cancelled' | 'kill_switch' | 'shutdown'): void {
    const control = this.slicing.get(nodeOrderId);
    if (control === undefined) return;
    control.stop ??= why;
    control.wake?.();
  }

  /** Stops every sliced order working now before its next slice. */
  stopAll(why: 'cancelled' | 'kill_switch' | 'shutdown'): void {
    for (const id of this.slicing.keys()) this.stop(id, why);
  }
}
