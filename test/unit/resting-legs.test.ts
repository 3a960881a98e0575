/**
 * A resting (GTC) leg against a misbehaving venue (execution/resting-legs.ts, with the real
 * Booking and ledgers over an in-memory order log): a venue trade reported again (a maker fill
 * twice, or a crossing fill again on the stream) is booked once; an impossible maker fill is
 * refused; a cancel whose answer is lost is asked again until the venue answers, the leg filling
 * meanwhile; a cancel that comes while the placement is in doubt holds once the leg is known to
 * rest.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CancelResult, ChildPlacement, EdgeMessage, MakerFill } from '../../actors/edge/messages.ts';
import type { BookEntry } from '../../actors/market/directory.ts';
import type { ChildOrder, FillRecord, Mode, OrderRecord } from '../../domain/orders.ts';
import type { Logger } from '../../engine/actor.ts';
import { Booking } from '../../execution/booking.ts';
import { Ledgers } from '../../execution/ledgers.ts';
import { legReservation } from '../../execution/legs.ts';
import { newOrder } from '../../execution/order-record.ts';
import { ReconcileLog } from '../../execution/recon.ts';
import { RestingLegs } from '../../execution/resting-legs.ts';
import type { Messenger, OrderLog } from '../../execution/types.ts';

const CLIENT = 'c1';
const MODE: Mode = 'live';
const LIMIT = 100_000_000_000_000; // 100,000 USDT
const QTY = 1_000_000;
const EDGE = 'venue-edge-binance';

/** The durable log, in memory: what Booking and Ledgers write and read back. */
class MemoryLog implements OrderLog {
  readonly orders = new Map<string, OrderRecord>();
  readonly fills: FillRecord[] = [];
  private fillSeq = 0;
  private orderSeq = 0;
  nextOrderId(): string {
    return `ord_${++this.orderSeq}`;
  }
  nextFillId(): number {
    return ++this.fillSeq;
  }
  putOrder(order: OrderRecord): void {
    this.orders.set(order.node_order_id, structuredClone(order));
  }
  putClientOrderId(): void {}
  putFill(_c: string, _m: Mode, fill: FillRecord): void {
    this.fills.push(fill);
  }
  putLedger(): void {}
  putReply(): void {}
  durable(): Promise<void> {
    return Promise.resolve();
  }
  getOrder(_c: string, _m: Mode, id: string): OrderRecord | undefined {
    return this.orders.get(id);
  }
  byClientOrderId(): undefined {
    return undefined;
  }
  byIdempotencyKey(): undefined {
    return undefined;
  }
  getFill(_c: string, _m: Mode, id: number): FillRecord | undefined {
    return this.fills.find((f) => f.id === id);
  }
  getLedger(): undefined {
    return undefined;
  }
  fillsAfter(): FillRecord[] {
    return [];
  }
  listOrders(): { orders: OrderRecord[] } {
    return { orders: [...this.orders.values()] };
  }
  openOrders(): OrderRecord[] {
    return [];
  }
}

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A GTC buy with one leg on binance, its reservation taken, the leg registered and sent. */
function setup(cancelAnswers: ('lost' | 'ok')[] = []) {
  const log = new MemoryLog();
  const ledgers = new Ledgers(log, quiet, { simAccountUsd: 100_000 }, () => undefined);
  const ledger = ledgers.ledger(CLIENT, MODE);
  ledger.seed('binance', [{ asset: 'USDT', qty_1e8: 100_000 * 1e8 }]);
  const booking = new Booking(log, ledgers, { wants: () => false, publish() {} }, { scheduleMarkouts() {} }, quiet);
  const cancels: string[] = [];
  const messenger: Messenger = {
    tell: () => true,
    ask: <R,>(_to: string, message: unknown): Promise<R> => {
      const m = message as EdgeMessage;
      assert.equal(m.t, 'Cancel');
      if (m.t !== 'Cancel') throw new Error('unexpected');
      cancels.push(m.child_id);
      const answer = cancelAnswers.shift() ?? 'ok';
      if (answer === 'lost') return Promise.reject(new Error('edge did not answer within 2000 ms'));
      return Promise.resolve({ child_id: m.child_id, found: true, cancelled_qty_1e8: 1 } satisfies CancelResult as R);
    },
  };
  const reconciles = new ReconcileLog(0);
  const legs = new RestingLegs(
    messenger,
    ledgers,
    booking,
    quiet,
    (_ms, fn) => {
      setImmediate(fn);
      return () => {};
    },
    reconciles,
  );
  const entry = { symbol: 'BTC-USDT', instrument_type: 'spot' } as BookEntry;
  const order = newOrder(log.nextOrderId(), Date.now() * 1e6, { client_id: CLIENT, mode: MODE }, { client_order_id: 'g1', side: 'buy', qty_1e8: QTY, order_type: 'limit', limit_price_1e9: LIMIT }, null, 'h', entry);
  const child: ChildOrder = {
    child_id: `${order.node_order_id}-1`,
    venue: 'binance',
    edge_id: EDGE,
    qty_1e8: QTY,
    limit_price_1e9: LIMIT,
    time_in_force: 'gtc',
    filled_qty_1e8: 0,
    status: 'sent',
    reason: null,
    fee_1e9: 0,
    venue_reported_cum_fee_1e9: 0,
  };
  order.children.push(child);
  order.status = 'RUNNING';
  const reservation = ledger.reserve('binance', 'USDT', legReservation('buy', LIMIT, QTY, 10));
  assert.notEqual(reservation, false);
  legs.register(order, child, reservation, [], Date.now() * 1e6);
  const placement = (crossing: { qty_1e8: number; trade_id: string }[], resting: number): ChildPlacement => ({
    child_id: child.child_id,
    venue: 'binance',
    edge_id: EDGE,
    ok: true,
    reason: null,
    fills: crossing.map((f) => ({ price_1e9: LIMIT - 1_000_000_000, qty_1e8: f.qty_1e8, trade_id: f.trade_id, ts_ns: 1, fee_1e9: 5, cum_fee_1e9: 5 })),
    taker_bps: 10,
    maker_bps: 2,
    ack_ns: 1,
    resting_qty_1e8: resting,
  });
  /** The placement's answer, booked as executeLegs (or reconciliation) books it. */
  const answer = async (p: ChildPlacement, reconciled = false) => {
    const fills: FillRecord[] = [];
    const early: MakerFill[] = [];
    legs.applyLegAnswer(order, child, p, reservation, fills, early);
    await legs.afterLegs(order, [], Date.now() * 1e6, fills, early, reconciled);
  };
  const maker = (trade_id: string, qty: number, left: number, price = LIMIT): MakerFill => ({
    t: 'MakerFill',
    child_id: child.child_id,
    venue: 'binance',
    edge_id: EDGE,
    fill: { price_1e9: price, qty_1e8: qty, trade_id, ts_ns: 2, fee_1e9: 2, cum_fee_1e9: 2 },
    left_qty_1e8: left,
    maker_bps: 2,
  });
  const locked = () => ledger.rows().reduce((sum, r) => sum + r.locked_qty_1e8, 0n);
  return { log, legs, order, child, placement, answer, maker, locked, cancels, reconciles };
}

describe('resting legs: a misbehaving venue', () => {
  it('a venue trade reported again is booked once; an impossible maker fill is refused', async () => {
    const { log, legs, order, child, placement, answer, maker, locked } = setup();
    await answer(placement([{ qty_1e8: 200_000, trade_id: 'x1' }], 800_000));
    assert.equal(order.status, 'PARTIAL');
    assert.equal(child.venue_reported_cum_qty_1e8, 200_000, "the placement's answer: its crossing fills");
    legs.onMakerFill(maker('x1', 200_000, 800_000)); // the crossing fill, again on the stream
    legs.onMakerFill(maker('m2', 300_000, 500_000));
    assert.equal(child.venue_reported_cum_qty_1e8, 500_000, 'a maker fill: the leg less what it leaves resting');
    legs.onMakerFill(maker('m2', 300_000, 500_000)); // the same maker fill twice
    legs.onMakerFill(maker('m3', 600_000, 0)); // more than is open
    legs.onMakerFill(maker('m4', 100_000, 400_000, LIMIT + 1)); // through the limit
    legs.onMakerFill(maker('m5', 500_000, 0));
    legs.onMakerFill(maker('m5', 500_000, 0)); // after the leg ended
    await tick();
    assert.deepEqual(log.fills.map((f) => f.trade_id), ['x1', 'm2', 'm5'], 'each trade once');
    assert.equal(child.venue_reported_cum_qty_1e8, QTY, 'refused and repeated reports leave it as the venue last stated it');
    assert.equal(order.filled_qty_1e8, QTY);
    assert.equal(child.filled_qty_1e8, QTY);
    assert.equal(order.status, 'COMPLETED');
    assert.equal(locked(), 0n, 'the reservation ended with the leg');
  });

  it('duplicates that arrive before the placement is booked are booked once', async () => {
    const { log, legs, order, placement, answer, maker } = setup();
    legs.onMakerFill(maker('x1', 200_000, 800_000)); // the placement's own crossing fill, ahead of its answer
    legs.onMakerFill(maker('m2', 100_000, 700_000));
    legs.onMakerFill(maker('m2', 100_000, 700_000));
    await answer(placement([{ qty_1e8: 200_000, trade_id: 'x1' }], 800_000));
    await tick();
    assert.deepEqual(log.fills.map((f) => f.trade_id), ['x1', 'm2']);
    assert.equal(order.filled_qty_1e8, 300_000);
    assert.equal(order.status, 'PARTIAL');
  });

  it('a cancel whose answer is lost is asked again; the leg fills meanwhile; then CANCELLED, reconciled, nothing reserved', async () => {
    const { log, legs, order, child, placement, answer, maker, locked, cancels, reconciles } = setup(['lost', 'lost', 'ok']);
    await answer(placement([], QTY));
    assert.equal(order.status, 'ACTIVE');
    await legs.cancelResting(order, 'cancelled');
    assert.equal(order.status, 'ACTIVE', 'still working: the venue has not said');
    assert.equal(order.reconciliation_state, 'reconciling');
    assert.equal(child.status, 'resting');
    legs.onMakerFill(maker('m1', 300_000, 700_000)); // the venue had not cancelled it yet
    await legs.cancelResting(order, 'cancelled'); // asked again by the client: nothing new is sent
    const status = (): string => order.status;
    for (let i = 0; i < 20 && status() !== 'CANCELLED'; i++) await tick();
    assert.equal(cancels.length, 3, 'one cancel, then asked again until answered');
    // The cancel asked again is a reconcile: one unanswered, then confirmed; the order no longer in doubt.
    const { edges, in_doubt } = reconciles.snapshot();
    assert.deepEqual(
      edges.map((e) => [e.edge_id, e.outcome, e.node_order_id, e.asks, e.unanswered]),
      [[EDGE, 'cancel_confirmed', order.node_order_id, 2, 1]],
    );
    assert.deepEqual(in_doubt, []);
    assert.equal(order.status, 'CANCELLED');
    assert.equal(order.reconciliation_state, 'reconciled');
    assert.equal(child.status, 'partial');
    assert.equal(order.filled_qty_1e8, 300_000);
    assert.deepEqual(log.fills.map((f) => f.trade_id), ['m1']);
    assert.equal(log.orders.get(order.node_order_id)?.status, 'CANCELLED', 'committed');
    assert.equal(locked(), 0n);
  });

  it('a cancel that comes while the placement is in doubt holds once the leg is known to rest', async () => {
    const { legs, order, child, placement, answer, locked, cancels } = setup();
    child.status = 'unconfirmed'; // the placement's answer was lost
    order.status = 'UNCONFIRMED';
    await legs.cancelResting(order, 'cancelled');
    assert.equal(cancels.length, 0, 'nothing rests yet');
    await answer(placement([{ qty_1e8: 100_000, trade_id: 'x1' }], 900_000), true); // reconciliation: it rests
    assert.deepEqual(cancels, [child.child_id], 'cancelled at once');
    assert.equal(order.status, 'CANCELLED');
    assert.equal(order.reconciliation_state, 'reconciled');
    assert.equal(child.status, 'partial');
    assert.equal(locked(), 0n);
  });
});
