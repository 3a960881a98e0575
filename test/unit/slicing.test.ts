import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OrderRecord } from '../../domain/orders.ts';
import type { VenueView } from '../../execution/sor/sor-types.ts';
import { isSliced, roundUpToLots, sliceInterval, sliceQty } from '../../execution/slicing.ts';

const order = (over: Partial<OrderRecord>): OrderRecord => ({ time_in_force: 'ioc', constraints: null, ...over }) as OrderRecord;

describe('time-sliced execution', () => {
  it('slices orders with a positive horizon, except FOK and GTC', () => {
    assert.equal(isSliced(order({ constraints: { horizon_ms: 2_000 } })), true, 'a horizon');
    assert.equal(isSliced(order({ constraints: { horizon_ms: 0 } })), false, 'zero horizon');
    assert.equal(isSliced(order({ constraints: null })), false, 'no constraints');
    assert.equal(isSliced(order({ constraints: { horizon_ms: 2_000 }, time_in_force: 'fok' })), false, 'FOK is all now');
    assert.equal(isSliced(order({ constraints: { horizon_ms: 2_000 }, time_in_force: 'gtc' })), false, 'GTC rests instead');
  });

  it('waits between slices by urgency (medium by default)', () => {
    assert.equal(sliceInterval(order({ constraints: { horizon_ms: 1, urgency: 'low' } })), 2_000, 'low');
    assert.equal(sliceInterval(order({ constraints: { horizon_ms: 1, urgency: 'high' } })), 100, 'high');
    assert.equal(sliceInterval(order({ constraints: { horizon_ms: 1 } })), 500, 'default');
  });

  it('divides what is left over the slices still to come, rounding up; the last takes the rest', () => {
    // 2,000 ms at 500 ms: slices at 0, 500, 1000, 1500, 2000 -> 5 slices
    assert.equal(sliceQty(1_000, 0, 2_000, 500), 200, 'a fifth');
    assert.equal(sliceQty(1_001, 0, 2_000, 500), 201, 'rounded up');
    assert.equal(sliceQty(300, 1_900, 2_000, 500), 300, 'the last slice takes the rest');
    assert.equal(sliceQty(300, 2_500, 2_000, 500), 300, 'past the deadline: everything');
  });

  it('rounds a slice up to whole lots of the coarsest venue, never past what is left', () => {
    const views = [{ rules: { lot_1e8: 1_000 } }, { rules: { lot_1e8: 100 } }] as unknown as VenueView[];
    assert.equal(roundUpToLots(1_234, 10_000, views), 2_000, 'up to the 1,000 lot');
    assert.equal(roundUpToLots(1_234, 1_500, views), 1_500, 'capped by what is left');
    assert.equal(roundUpToLots(1_234, 10_000, []), 1_234, 'no venues: as is');
  });
});
