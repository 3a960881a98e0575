/**
 * Children run for another region's orders (actors/region-link/served-children.ts,
 * child-protocol.ts): a child is run once whatever repeats; a lookup of one never received
 * refuses it, so a late request is refused rather than executed; a resting child's report grows
 * with its maker fills (each once) and ends at its cancel; every fill says where it executed;
 * requests off the wire are checked field by field.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ServedChildren } from '../../actors/region-link/served-children.ts';
import { parseChildRequest } from '../../actors/region-link/child-protocol.ts';
import type { ChildExecution, ChildPlacement } from '../../actors/edge/messages.ts';

const fill = (trade_id: string, qty_1e8: number, extra: Partial<ChildExecution['fills'][number]> = {}): ChildExecution['fills'][number] => ({ price_1e9: 100_000_000_000, qty_1e8, trade_id, ts_ns: 1, fee_1e9: 10, cum_fee_1e9: 10, ...extra });
const execution = (fills: ChildExecution['fills']): ChildExecution => ({ child_id: 'ord_a-1', venue: 'kraken', edge_id: 'venue-edge-kraken', ok: true, reason: null, fills, taker_bps: 26, maker_bps: 16, ack_ns: 1 });

describe('children served for other regions', () => {
  it('runs a child once: a repeat is known, and its report is the first run’s', () => {
    const served = new ServedChildren('eu');
    assert.equal(served.admit('ord_a-1', 'relay:na|router:live|c', false), 'new');
    assert.equal(served.admit('ord_a-1', 'relay:na|router:live|c', false), 'known');
    assert.equal(served.lookup('ord_a-1'), 'pending', 'its edge has not answered yet');
    const report = served.settle('ord_a-1', execution([fill('t1', 5)]));
    assert.deepEqual(report.fills.map((f) => [f.trade_id, f.region, f.is_maker]), [['t1', 'eu', false]], 'stamped with the region it ran in; a crossing fill is taker');
    assert.deepEqual(served.lookup('ord_a-1'), { found: true, report });
  });

  it('refuses a child looked up before it arrived, so a late request never runs', () => {
    const served = new ServedChildren('eu');
    assert.equal(served.lookup('ord_b-1'), 'unknown');
    served.refuse('ord_b-1');
    assert.equal(served.admit('ord_b-1', 'relay:na|router:live|c', false), 'refused');
    assert.equal(served.lookup('ord_b-1'), 'unknown');
  });

  it('grows a resting child’s report with each maker fill once, and ends it at the cancel', () => {
    const served = new ServedChildren('eu');
    served.admit('ord_c-1', 'relay:na|router:live|c', true);
    const placement: ChildPlacement = { ...execution([]), child_id: 'ord_c-1', resting_qty_1e8: 10 };
    served.settle('ord_c-1', placement);
    served.makerFill('ord_c-1', fill('m1', 4), 6);
    served.makerFill('ord_c-1', fill('m1', 4), 6); // told twice (a venue's duplicate)
    served.makerFill('ord_c-1', fill('m2', 1, { commission: { asset: 'BTC', qty_1e8: 1 } }), 5);
    const found = served.lookup('ord_c-1');
    assert.ok(typeof found === 'object');
    assert.deepEqual(found.report.fills.map((f) => [f.trade_id, f.is_maker, f.region]), [['m1', true, 'eu'], ['m2', true, 'eu']]);
    assert.deepEqual(found.report.fills[1]!.commission, { asset: 'BTC', qty_1e8: 1 });
    assert.equal(found.report.resting_qty_1e8, 5);
    served.cancelled('ord_c-1');
    assert.equal(found.report.resting_qty_1e8, 0);
  });

  it('forgets the oldest past its capacity', () => {
    const served = new ServedChildren('eu', 2);
    for (const id of ['ord_d-1', 'ord_d-2', 'ord_d-3']) served.admit(id, 'o', false);
    assert.equal(served.get('ord_d-1'), undefined);
    assert.ok(served.get('ord_d-3'));
  });

  it('checks a request off the wire field by field', () => {
    const submit = { v: 1, op: 'submit', home: 'na', owner: 'router:live|c', child_id: 'ord_x-1', symbol: 'BTC-USD', side: 'buy', qty_1e8: 5, limit_price_1e9: null, tif: 'ioc' };
    assert.deepEqual(parseChildRequest(submit), submit);
    assert.match(String(parseChildRequest({ ...submit, qty_1e8: 0 })), /qty_1e8/);
    assert.match(String(parseChildRequest({ ...submit, qty_1e8: 1.5 })), /qty_1e8/);
    assert.match(String(parseChildRequest({ ...submit, child_id: '../x' })), /child_id/);
    assert.match(String(parseChildRequest({ ...submit, home: 'NA' })), /home/);
    assert.match(String(parseChildRequest({ ...submit, tif: 'gtc' })), /resting child needs a limit/);
    assert.match(String(parseChildRequest({ ...submit, side: 'hold' })), /side/);
    assert.match(String(parseChildRequest({ ...submit, op: 'burn' })), /op/);
    assert.match(String(parseChildRequest({ ...submit, v: 2 })), /version/);
    assert.equal(parseChildRequest(null), 'not an object');
    assert.match(String(parseChildRequest({ v: 1, op: 'lookup', home: 'na', child_id: 'ord_x-1', facts: { client_id: 'c' } })), /facts/);
    const lookup = { v: 1, op: 'lookup', home: 'na', child_id: 'ord_x-1', facts: { client_id: 'c', owner: 'router:live|c', symbol: 'BTC-USD', resting: false, sent_ms: 1, qty_1e8: 5 } };
    assert.deepEqual(parseChildRequest(lookup), lookup);
  });
});
