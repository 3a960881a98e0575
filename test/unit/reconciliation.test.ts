/**
 * Reconciliation's schedule (execution/reconciliation.ts): the quick attempts, then the slow
 * tail that keeps asking a venue unreachable for minutes (or one whose accept window is long),
 * so a leg in doubt is settled while the process runs. The edge is a stand-in that does not
 * answer for a while, then says what the venue did; the clock is the schedule's delays.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Reconciliation } from '../../execution/reconciliation.ts';
import { RECONCILE_ATTEMPTS, RECONCILE_BACKOFF_MS, RECONCILE_SLOW_MS } from '../../execution/legs.ts';
import type { OrderRecord } from '../../domain/orders.ts';
import type { Messenger, Schedule } from '../../execution/types.ts';
import type { Ledgers } from '../../execution/ledgers.ts';
import type { Logger } from '../../engine/actor.ts';

const silent = { info() {}, warn() {}, error() {}, debug() {} } as unknown as Logger;

function orderInDoubt(): OrderRecord {
  return {
    node_order_id: 'ord_1',
    client_id: 'c',
    mode: 'live',
    side: 'buy',
    status: 'UNCONFIRMED',
    children: [{ child_id: 'ord_1-1', venue: 'bitstamp', edge_id: 'venue-edge-bitstamp', qty_1e8: 100, filled_qty_1e8: 0, status: 'unconfirmed', reason: null }],
  } as unknown as OrderRecord;
}

describe('Reconciliation schedule', () => {
  it('asks RECONCILE_ATTEMPTS times quickly, then every RECONCILE_SLOW_MS until the venue answers; the leg then settles', async () => {
    const delays: number[] = [];
    const schedule: Schedule = (ms, fn) => {
      delays.push(ms);
      queueMicrotask(fn);
      return () => {};
    };
    const unanswered = RECONCILE_ATTEMPTS + 3;
    let asks = 0;
    const endpoint = {
      ask: async () => {
        asks++;
        if (asks <= unanswered) throw new Error('no answer within 2000 ms');
        return { known: false };
      },
      tell: () => true,
    } as unknown as Messenger;
    let settled: OrderRecord | undefined;
    const legs = { applyLegAnswer() {}, forget() {}, afterLegs: async (order: OrderRecord) => void (settled = order) };
    const ledgers = { ledger: () => ({ release() {} }) } as unknown as Ledgers;
    const booking = { commit: async () => {} };
    const order = orderInDoubt();
    await new Reconciliation(endpoint, ledgers, legs, booking, silent, schedule).reconcileLegs(order, [], 0, [false]);
    const quick = Array.from({ length: RECONCILE_ATTEMPTS }, (_, i) => RECONCILE_BACKOFF_MS * (i + 1));
    assert.deepEqual(delays, [...quick, ...Array<number>(unanswered + 1 - RECONCILE_ATTEMPTS).fill(RECONCILE_SLOW_MS)]);
    assert.equal(asks, unanswered + 1);
    assert.equal(settled, order, 'settled once the venue answered');
    assert.equal(order.children[0]!.status, 'cancelled', 'a child the venue never received ends cancelled, never guessed');
  });
});
