/**
 * Live venues' balances pulled again after an order ends (execution/live-balances.ts): only for
 * live venues the order filled on, only once no leg of the client works there, coalesced.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LiveBalanceRefresh } from '../../execution/live-balances.ts';
import type { OrderRecord } from '../../domain/orders.ts';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

function harness(busyFor: number) {
  const timers: (() => void)[] = [];
  const pulls: string[] = [];
  let busyChecks = 0;
  const refresh = new LiveBalanceRefresh(
    ['binance'],
    (_ms, fn) => {
      timers.push(fn);
      return () => {};
    },
    () => busyChecks++ < busyFor,
    async (client, mode, venue, quiet) => void pulls.push(`${client}|${mode}|${venue}${quiet() ? '' : ' (not applied)'}`),
    quiet,
  );
  const run = () => {
    while (timers.length > 0) timers.shift()!();
  };
  return { refresh, pulls, run };
}

const order = (over: Partial<OrderRecord>): OrderRecord =>
  ({
    client_id: 'c1',
    mode: 'live',
    status: 'COMPLETED',
    children: [
      { venue: 'binance', filled_qty_1e8: 5 },
      { venue: 'okx', filled_qty_1e8: 5 },
      { venue: 'binance', filled_qty_1e8: 1 },
    ],
    ...over,
  }) as unknown as OrderRecord;

describe('LiveBalanceRefresh', () => {
  it('pulls once per live venue the ended order filled on', async () => {
    const h = harness(0);
    h.refresh.afterCommit(order({}));
    h.refresh.afterCommit(order({})); // coalesced with the first
    h.run();
    await Promise.resolve();
    assert.deepEqual(h.pulls, ['c1|live|binance']);
  });

  it('waits while a leg of the client works on the venue, then pulls', async () => {
    const h = harness(3);
    h.refresh.afterCommit(order({}));
    h.run();
    await Promise.resolve();
    assert.deepEqual(h.pulls, ['c1|live|binance']);
  });

  it('nothing for a working order, a sandbox order, or a venue with no fill', async () => {
    const h = harness(0);
    h.refresh.afterCommit(order({ status: 'RUNNING' }));
    h.refresh.afterCommit(order({ mode: 'sandbox' }));
    h.refresh.afterCommit(order({ children: [{ venue: 'binance', filled_qty_1e8: 0 }] as OrderRecord['children'] }));
    h.run();
    await Promise.resolve();
    assert.deepEqual(h.pulls, []);
  });
});
