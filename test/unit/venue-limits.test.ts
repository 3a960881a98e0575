/**
 * A live venue's request limits (actors/edge/live/venue-limits.ts): fixed windows as Binance
 * counts them, the venue's own usage report, and a 429/418's Retry-After.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { retryAfterMs, VenueLimits } from '../../actors/edge/live/venue-limits.ts';

const rules = [
  { name: 'REQUEST_WEIGHT', limit: 100, window_ms: 60_000 },
  { name: 'ORDERS', limit: 3, window_ms: 10_000 },
];

describe('VenueLimits', () => {
  it('counts each rule in its clock-aligned window and answers the wait when one is full', () => {
    const limits = new VenueLimits(rules);
    const t = 1_800_000_000_000; // a minute boundary
    assert.equal(limits.admit([1, 1], t), 0);
    assert.equal(limits.admit([1, 1], t + 1), 0);
    assert.equal(limits.admit([1, 1], t + 2), 0);
    assert.equal(limits.admit([1, 1], t + 3_000), 7_000, 'the fourth order waits for the next 10 s window');
    assert.equal(limits.admit([50, 0], t + 3_000), 0, 'a request that places no order still goes');
    assert.equal(limits.admit([1, 1], t + 10_000), 0, 'a new orders window');
    assert.equal(limits.admit([50, 0], t + 10_001), 49_999, 'weight 104 of 100: wait for the minute');
  });

  it("a decaying counter (Kraken's) allows its burst, then one request per 1/decay seconds, and says how long to wait", () => {
    const limits = new VenueLimits([{ name: 'API_COUNTER', limit: 15, decay_per_s: 0.5 }]);
    const t = 1_800_000_000_000;
    for (let i = 0; i < 15; i++) assert.equal(limits.admit([1], t), 0, `burst request ${i + 1}`);
    assert.equal(limits.admit([1], t), 2_000, 'the 16th waits for one point to decay');
    assert.equal(limits.admit([2], t + 1_000), 3_000, 'a cost of 2 at 14.5 waits for 1.5 points');
    assert.equal(limits.admit([1], t + 2_000), 0, 'one point decayed: one more goes');
    assert.equal(limits.admit([1], t + 2_000), 2_000);
    assert.equal(limits.admit([15], t + 60_000), 0, 'a quiet half minute empties it');
  });

  it('a background request (a resting leg\'s poll) uses at most two thirds of a rule: the rest is kept for orders and cancels', () => {
    const limits = new VenueLimits([{ name: 'API_COUNTER', limit: 15, decay_per_s: 0.5 }]);
    const t = 1_800_000_000_000;
    for (let i = 0; i < 10; i++) assert.equal(limits.admit([1], t, true), 0, `poll ${i + 1}`);
    assert.equal(limits.admit([1], t, true), 2_000, 'the 11th poll waits: 10 of 15 is its share');
    for (let i = 0; i < 5; i++) assert.equal(limits.admit([1], t), 0, `a cancel still goes (${i + 1})`);
    assert.equal(limits.admit([1], t), 2_000);
  });

  it("takes the venue's own count when it reports more (requests from elsewhere on the same IP)", () => {
    const limits = new VenueLimits(rules);
    const t = 1_800_000_000_000;
    limits.observe(0, 99, t);
    assert.equal(limits.admit([2, 0], t + 5), 59_995);
    limits.observe(0, 10, t + 6);
    assert.ok(limits.admit([2, 0], t + 7) > 0, 'a lower report does not undo what was counted');
  });

  it('a 429 closes the venue until its Retry-After, for every request', () => {
    const limits = new VenueLimits(rules);
    const t = 1_800_000_000_000;
    limits.closeFor(2_000, t);
    assert.equal(limits.admit([1, 0], t + 500), 1_500);
    assert.equal(limits.admit([1, 0], t + 2_000), 0);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    assert.equal(retryAfterMs('2', 0), 2_000);
    assert.equal(retryAfterMs('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')), 10_000);
    assert.equal(retryAfterMs(null, 0), undefined);
    assert.equal(retryAfterMs('soon', 0), undefined);
  });
});
