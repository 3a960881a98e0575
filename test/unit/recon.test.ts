/**
 * The reconciliation state of `GET /v1/data/recon` (execution/recon.ts), pure, against orders
 * and fills built by hand: the router's reconcile log, the orders in doubt (and what is not in
 * doubt), the last reconcile per edge (the router's, a restart's), and drift between our fills
 * and the venues' reported cumulative fees and quantities (exact past 2^53).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChildOrder, FillRecord, OrderRecord } from '../../domain/orders.ts';
import { fillDrift, isInDoubt, lastReconcilePerEdge, NO_RECORD_AFTER_RESTART, ordersInDoubt, RECONCILED_AFTER_RESTART, ReconcileLog } from '../../execution/recon.ts';

function leg(venue: string, over: Partial<ChildOrder> = {}): ChildOrder {
  return {
    child_id: `${venue}-leg`,
    venue,
    edge_id: `venue-edge-${venue}`,
    qty_1e8: 100,
    limit_price_1e9: null,
    filled_qty_1e8: 100,
    status: 'filled',
    reason: null,
    fee_1e9: 10,
    venue_reported_cum_fee_1e9: 10,
    venue_reported_cum_qty_1e8: 100,
    ...over,
  };
}

function order(id: string, over: Partial<OrderRecord> = {}): OrderRecord {
  return {
    node_order_id: id,
    client_id: 'c',
    client_order_id: `coid-${id}`,
    mode: 'live',
    is_sandbox: false,
    side: 'buy',
    symbol: 'BTC-USDT',
    instrument_type: 'spot',
    qty_1e8: 100,
    filled_qty_1e8: 100,
    order_type: 'market',
    time_in_force: 'ioc',
    limit_price_1e9: null,
    status: 'COMPLETED',
    execution_type: 'graph',
    venue_state: 'filled',
    reconciliation_state: 'in_sync',
    engine_phase: 'done',
    created_unix_ns: 1_000,
    updated_unix_ns: 2_000,
    constraints: null,
    expected_fee_1e9: null,
    expected_fee_bps: null,
    failure_class: null,
    failure_reason: null,
    first_fill_ts_ns: null,
    graph_id: null,
    graph_name: null,
    home_region: null,
    node_id: null,
    placed_price_1e9: null,
    pool_id: null,
    tca: null,
    time_to_first_fill_ms: null,
    lineage_deployment_id: null,
    routing_version: 1,
    forced_venue: null,
    arrival_mid_1e9: null,
    children: [leg('binance')],
    fill_ids: [],
    request_hash: '',
    ...over,
  };
}

let nextFill = 1;
function fill(o: Pick<OrderRecord, 'node_order_id'>, venue: string, qty_1e8: number, fee_1e9: number): FillRecord {
  const id = nextFill++;
  return {
    id,
    fill_id: `fil_${id}`,
    node_order_id: o.node_order_id,
    venue,
    symbol: 'BTC-USDT',
    side: 'buy',
    instrument_type: 'spot',
    qty_1e8,
    price_1e9: 1,
    fee_1e9,
    ts_unix_ns: 0,
    commission_asset: 'USDT',
    exchange_ts_ns: 0,
    execution_region: 'x',
    fee_breakdown: { commission_1e9: fee_1e9, lp_fee_1e9: 0, gas_1e9: 0, priority_fee_1e9: 0, mev_tip_1e9: 0, funding_1e9: 0, rebate_1e9: 0, hop_fees_1e9: 0, commission_asset: 'USDT' },
    is_maker: false,
    maker_fee_bps_applied: null,
    taker_fee_bps_applied: 10,
    trade_id: `t${id}`,
    venue_reported_cum_fee_1e9: fee_1e9,
    lineage_deployment_id: null,
  };
}

describe('recon: the router reconcile log', () => {
  it('keeps the last answer per edge with its counts, and the orders under reconciliation', () => {
    const log = new ReconcileLog(5);
    const a = leg('binance', { child_id: 'a1' });
    log.opened('o1', 'legs', 100);
    log.opened('o1', 'legs', 999); // already open: the start stays
    log.attempt('o1', 150);
    log.answered(a, 'o1', 'unanswered', 160);
    log.attempt('o1', 400);
    log.answered(a, 'o1', 'found', 410);
    log.opened('o2', 'cancel', 420);
    log.answered(leg('okx'), 'o2', 'gave_up', 430);
    assert.deepEqual(log.snapshot(), {
      started_unix_ns: 5,
      edges: [
        { edge_id: 'venue-edge-binance', venue: 'binance', at_unix_ns: 410, outcome: 'found', node_order_id: 'o1', child_id: 'a1', asks: 2, unanswered: 1 },
        // giving up asks nothing more
        { edge_id: 'venue-edge-okx', venue: 'okx', at_unix_ns: 430, outcome: 'gave_up', node_order_id: 'o2', child_id: 'okx-leg', asks: 0, unanswered: 0 },
      ],
      in_doubt: [
        { node_order_id: 'o1', kind: 'legs', since_unix_ns: 100, attempts: 2, last_attempt_unix_ns: 400 },
        { node_order_id: 'o2', kind: 'cancel', since_unix_ns: 420, attempts: 0, last_attempt_unix_ns: null },
      ],
    });
    log.closed('o1');
    log.attempt('o1', 500); // closed: nothing to count
    assert.deepEqual(log.snapshot().in_doubt.map((e) => e.node_order_id), ['o2']);
  });
});

describe('recon: orders in doubt', () => {
  const unconfirmed = order('o-unconfirmed', {
    status: 'UNCONFIRMED',
    reconciliation_state: 'reconciling',
    updated_unix_ns: 5_000,
    children: [leg('binance', { status: 'unconfirmed', filled_qty_1e8: 0, sent_unix_ns: 4_000 }), leg('okx')],
  });
  const cancelInDoubt = order('o-cancel', {
    status: 'ACTIVE',
    reconciliation_state: 'reconciling',
    updated_unix_ns: 3_000,
    children: [leg('bybit', { status: 'resting', filled_qty_1e8: 0, time_in_force: 'gtc' })],
  });
  const closedByRestart = order('o-restart', { status: 'CANCELLED', reconciliation_state: 'reconciled', children: [leg('binance', { status: 'unconfirmed' })] });
  const resting = order('o-resting', { status: 'ACTIVE', children: [leg('bybit', { status: 'resting' })] });

  it('are working orders with a lost leg or cancel answer; terminal and healthy working orders are not', () => {
    assert.equal(isInDoubt(unconfirmed), true);
    assert.equal(isInDoubt(cancelInDoubt), true);
    assert.equal(isInDoubt(closedByRestart), false);
    assert.equal(isInDoubt(resting), false);
  });

  it("oldest first, with the router's since and attempts where it has them, else the order's last write", () => {
    const got = ordersInDoubt([unconfirmed, cancelInDoubt, closedByRestart, resting], [{ node_order_id: 'o-unconfirmed', kind: 'legs', since_unix_ns: 4_100, attempts: 3, last_attempt_unix_ns: 4_900 }]);
    assert.deepEqual(got, [
      {
        node_order_id: 'o-cancel',
        client_order_id: 'coid-o-cancel',
        symbol: 'BTC-USDT',
        side: 'buy',
        status: 'ACTIVE',
        reconciliation_state: 'reconciling',
        kind: 'cancel',
        since_unix_ns: 3_000,
        since_source: 'order_record',
        attempts: null,
        last_attempt_unix_ns: null,
        legs: [{ child_id: 'bybit-leg', venue: 'bybit', edge_id: 'venue-edge-bybit', status: 'resting', qty_1e8: 100, filled_qty_1e8: 0, sent_unix_ns: null }],
      },
      {
        node_order_id: 'o-unconfirmed',
        client_order_id: 'coid-o-unconfirmed',
        symbol: 'BTC-USDT',
        side: 'buy',
        status: 'UNCONFIRMED',
        reconciliation_state: 'reconciling',
        kind: 'legs',
        since_unix_ns: 4_100,
        since_source: 'router',
        attempts: 3,
        last_attempt_unix_ns: 4_900,
        // the okx leg filled: only the binance leg is in doubt
        legs: [{ child_id: 'binance-leg', venue: 'binance', edge_id: 'venue-edge-binance', status: 'unconfirmed', qty_1e8: 100, filled_qty_1e8: 0, sent_unix_ns: 4_000 }],
      },
    ]);
  });
});

describe('recon: last reconcile per edge', () => {
  it("the later of the router's last answer and a restart's closing; every edge traded on has a row", () => {
    const restart = order('o-restart', {
      status: 'CANCELLED',
      failure_class: RECONCILED_AFTER_RESTART,
      reconciliation_state: 'reconciled',
      updated_unix_ns: 7_000,
      children: [leg('binance', { status: 'unconfirmed' }), leg('bybit', { status: 'cancelled', reason: NO_RECORD_AFTER_RESTART }), leg('okx')],
    });
    const plain = order('o-plain', { children: [leg('kraken')] });
    const inDoubt = ordersInDoubt([order('o-doubt', { status: 'UNCONFIRMED', children: [leg('okx', { status: 'unconfirmed' })] })], []);
    const rows = lastReconcilePerEdge(
      [
        { edge_id: 'venue-edge-binance', venue: 'binance', at_unix_ns: 9_000, outcome: 'found', node_order_id: 'o-x', child_id: 'x', asks: 4, unanswered: 1 },
        { edge_id: 'venue-edge-bybit', venue: 'bybit', at_unix_ns: 6_000, outcome: 'not_received', node_order_id: 'o-y', child_id: 'y', asks: 1, unanswered: 0 },
      ],
      [restart, plain],
      inDoubt,
    );
    assert.deepEqual(rows, [
      // the router's answer (9,000) is later than the restart (7,000)
      { venue: 'binance', edge_id: 'venue-edge-binance', last_reconcile_unix_ns: 9_000, outcome: 'found', node_order_id: 'o-x', source: 'router', asks_since_router_start: 4, unanswered_since_router_start: 1, legs_in_doubt: 0 },
      // the restart (7,000) is later than the router's answer (6,000)
      { venue: 'bybit', edge_id: 'venue-edge-bybit', last_reconcile_unix_ns: 7_000, outcome: 'closed_after_restart', node_order_id: 'o-restart', source: 'restart', asks_since_router_start: 1, unanswered_since_router_start: 0, legs_in_doubt: 0 },
      // traded, never reconciled
      { venue: 'kraken', edge_id: 'venue-edge-kraken', last_reconcile_unix_ns: null, outcome: null, node_order_id: null, source: null, asks_since_router_start: 0, unanswered_since_router_start: 0, legs_in_doubt: 0 },
      // its leg of the restarted order had filled (not reconciled); a leg waits on it now
      { venue: 'okx', edge_id: 'venue-edge-okx', last_reconcile_unix_ns: null, outcome: null, node_order_id: null, source: null, asks_since_router_start: 0, unanswered_since_router_start: 0, legs_in_doubt: 1 },
    ]);
  });
});

describe('recon: drift between our fills and the venue reports', () => {
  it('agrees when every fill is booked as the venue reported it', () => {
    const o = order('o1', { children: [leg('binance', { filled_qty_1e8: 60, venue_reported_cum_qty_1e8: 60, fee_1e9: 7, venue_reported_cum_fee_1e9: 7 }), leg('okx', { filled_qty_1e8: 40, venue_reported_cum_qty_1e8: 40, fee_1e9: 3, venue_reported_cum_fee_1e9: 3 })] });
    const fills = [fill(o, 'binance', 25, 3), fill(o, 'binance', 35, 4), fill(o, 'okx', 40, 3)];
    o.fill_ids = fills.map((f) => f.id);
    const drift = fillDrift([o], () => fills);
    assert.equal(drift.orders_checked, 1);
    assert.equal(drift.orders_disagreeing, 0);
    assert.deepEqual(drift.disagreeing, []);
    assert.deepEqual(drift.by_venue, [
      { venue: 'binance', orders: 1, legs: 1, fills: 2, our_fee_1e9: 7n, venue_fee_1e9: 7n, our_qty_1e8: 60n, venue_qty_1e8: 60n, fee_drift_1e9: 0n, qty_drift_1e8: 0n, orders_disagreeing: 0 },
      { venue: 'okx', orders: 1, legs: 1, fills: 1, our_fee_1e9: 3n, venue_fee_1e9: 3n, our_qty_1e8: 40n, venue_qty_1e8: 40n, fee_drift_1e9: 0n, qty_drift_1e8: 0n, orders_disagreeing: 0 },
    ]);
  });

  it('counts an order whose fee, quantity or fills disagree, per venue and once overall', () => {
    // The venue's cumulative fee is 12 where our fills sum 10 (a fee we did not book).
    const feeOff = order('o-fee', { children: [leg('binance', { fee_1e9: 10, venue_reported_cum_fee_1e9: 12 })] });
    const feeFills = [fill(feeOff, 'binance', 100, 10)];
    // The venue says 100 filled (a maker fill's leaves), our fills 70 (a fill never told).
    const qtyOff = order('o-qty', { children: [leg('bybit', { filled_qty_1e8: 70, venue_reported_cum_qty_1e8: 100, fee_1e9: 5, venue_reported_cum_fee_1e9: 5 })] });
    const qtyFills = [fill(qtyOff, 'bybit', 70, 5)];
    // A fill the order lists is not stored.
    const missing = order('o-missing', { children: [leg('binance', { fee_1e9: 4, venue_reported_cum_fee_1e9: 4 })] });
    const missingFills = [fill(missing, 'binance', 100, 4)];
    // A leg recorded before the venue's quantity was kept: its filled quantity stands in.
    const legacy = order('o-legacy', { children: [leg('binance', { venue_reported_cum_qty_1e8: undefined, fee_1e9: 1, venue_reported_cum_fee_1e9: 1 })] });
    const legacyFills = [fill(legacy, 'binance', 100, 1)];
    feeOff.fill_ids = feeFills.map((f) => f.id);
    qtyOff.fill_ids = qtyFills.map((f) => f.id);
    missing.fill_ids = [...missingFills.map((f) => f.id), 999_999];
    legacy.fill_ids = legacyFills.map((f) => f.id);
    const byOrder = new Map([
      [feeOff, feeFills],
      [qtyOff, qtyFills],
      [missing, missingFills],
      [legacy, legacyFills],
    ]);
    const drift = fillDrift([feeOff, qtyOff, missing, legacy], (o) => byOrder.get(o)!, 2);
    assert.equal(drift.orders_checked, 4);
    assert.equal(drift.orders_disagreeing, 3);
    assert.deepEqual(
      drift.disagreeing.map((d) => d.node_order_id),
      ['o-fee', 'o-qty'],
      'listed up to the cap, in the order given',
    );
    assert.deepEqual(drift.disagreeing[1], { node_order_id: 'o-qty', symbol: 'BTC-USDT', status: 'COMPLETED', missing_fills: 0, venues: [{ venue: 'bybit', our_fee_1e9: 5n, venue_fee_1e9: 5n, our_qty_1e8: 70n, venue_qty_1e8: 100n }] });
    const binance = drift.by_venue.find((v) => v.venue === 'binance')!;
    // fees: ours 10 + 4 + 1 = 15, the venue's 12 + 4 + 1 = 17
    assert.deepEqual(
      { orders: binance.orders, our: binance.our_fee_1e9, venue: binance.venue_fee_1e9, drift: binance.fee_drift_1e9, qty: binance.qty_drift_1e8, disagreeing: binance.orders_disagreeing },
      { orders: 3, our: 15n, venue: 17n, drift: 2n, qty: 0n, disagreeing: 1 },
      'the missing fill is counted on the order, not on a venue whose figures agree',
    );
    const bybit = drift.by_venue.find((v) => v.venue === 'bybit')!;
    assert.equal(bybit.qty_drift_1e8, 30n);
    assert.equal(bybit.orders_disagreeing, 1);
  });

  it('sums exactly past 2^53', () => {
    const big = 2 ** 52;
    const orders = [order('a', { children: [leg('binance', { fee_1e9: big, venue_reported_cum_fee_1e9: big })] }), order('b', { children: [leg('binance', { fee_1e9: big + 1, venue_reported_cum_fee_1e9: big + 1 })] })];
    const fills = new Map(orders.map((o) => [o, [fill(o, 'binance', 100, o.children[0]!.fee_1e9)]]));
    for (const o of orders) o.fill_ids = fills.get(o)!.map((f) => f.id);
    const drift = fillDrift(orders, (o) => fills.get(o)!);
    assert.equal(drift.by_venue[0]!.our_fee_1e9, 2n ** 53n + 1n);
    assert.equal(drift.by_venue[0]!.venue_fee_1e9, 2n ** 53n + 1n);
    assert.equal(drift.orders_disagreeing, 0);
  });
});
