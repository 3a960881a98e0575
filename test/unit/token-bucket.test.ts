/**
 * The token bucket with an injected clock: capacity 2 x qps, refill qps per second, integer
 * micro-token arithmetic, retargeting; and the per-client RateLimiter over it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { RateLimiter } from '../../gateway/rate-limit/limiter.ts';
import { capacityOf, newBucket, retarget, take, type TokenBucket } from '../../gateway/rate-limit/token-bucket.ts';

const MICRO = 1_000_000;
const T0 = 1_700_000_000_000;

/** Takes until refused at one instant; returns how many were allowed. */
function drain(bucket: TokenBucket, nowMs: number, max = 1_000_000): number {
  let n = 0;
  while (n < max && take(bucket, nowMs) === 0) n++;
  return n;
}

describe('token bucket', () => {
  it('starts full at 2 x qps and allows exactly that many at one instant', () => {
    for (const qps of [1, 5, 50, 250, 2000]) {
      const bucket = newBucket(qps, T0);
      assert.equal(bucket.tokens, 2 * qps * MICRO);
      assert.equal(capacityOf(qps), 2 * qps * MICRO);
      assert.equal(drain(bucket, T0), 2 * qps, `qps ${qps}`);
      assert.ok(take(bucket, T0) > 0, 'refused once empty');
    }
  });

  it('tells how long to wait for the next token', () => {
    const bucket = newBucket(5, T0);
    drain(bucket, T0);
    assert.equal(take(bucket, T0), 200, 'one token per 200 ms at 5 qps');
    assert.equal(take(bucket, T0 + 50), 150);
    assert.equal(take(bucket, T0 + 199), 1);
    assert.equal(take(bucket, T0 + 200), 0, 'available exactly at 200 ms');
    assert.equal(take(bucket, T0 + 200), 200);
    // A refused take costs nothing.
    const b2 = newBucket(5, T0);
    drain(b2, T0);
    for (let i = 0; i < 100; i++) take(b2, T0 + 100);
    assert.equal(take(b2, T0 + 200), 0);
  });

  it('refills qps tokens per second, capped at capacity', () => {
    const bucket = newBucket(5, T0);
    drain(bucket, T0);
    assert.equal(drain(bucket, T0 + 1000), 5, '5 tokens after one second');
    assert.equal(drain(bucket, T0 + 1400), 2, '2 more after 400 ms');
    assert.equal(drain(bucket, T0 + 1400 + 3_600_000), 10, 'an hour idle is still only the burst');
  });

  it('keeps integer micro-token arithmetic and never exceeds capacity or goes negative', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }),
        fc.array(fc.integer({ min: 0, max: 700 }), { minLength: 1, maxLength: 300 }),
        (qps, gaps) => {
          const bucket = newBucket(qps, T0);
          let now = T0;
          let allowed = 0;
          for (const gap of gaps) {
            now += gap;
            if (take(bucket, now) === 0) allowed++;
            assert.ok(Number.isSafeInteger(bucket.tokens), `tokens ${bucket.tokens} is an integer`);
            assert.ok(bucket.tokens >= 0 && bucket.tokens <= capacityOf(qps));
          }
          // Never more than the burst plus what the elapsed time refills.
          assert.ok(allowed <= 2 * qps + Math.floor(((now - T0) * qps) / 1000));
        },
      ),
    );
  });

  it('grants exactly burst + floor(elapsed x qps) to a client that asks every millisecond', () => {
    for (const qps of [1, 5, 7, 333]) {
      const bucket = newBucket(qps, T0);
      let allowed = 0;
      const span = 3_000;
      for (let t = 0; t <= span; t++) allowed += drain(bucket, T0 + t);
      assert.equal(allowed, 2 * qps + Math.floor((span * qps) / 1000), `qps ${qps}`);
    }
  });

  it('ignores a clock that goes backwards', () => {
    const bucket = newBucket(5, T0);
    drain(bucket, T0);
    assert.ok(take(bucket, T0 - 10_000) > 0);
    assert.equal(bucket.refilledAtMs, T0);
    assert.equal(drain(bucket, T0 + 200), 1);
  });

  it('retargets: a lower qps caps the tokens, a higher one raises capacity and refill rate', () => {
    const bucket = newBucket(50, T0); // 100 tokens
    retarget(bucket, 5, T0);
    assert.equal(bucket.qps, 5);
    assert.equal(bucket.tokens, capacityOf(5), 'capped at the new capacity');
    assert.equal(drain(bucket, T0), 10);

    retarget(bucket, 100, T0);
    assert.equal(bucket.tokens, 0, 'raising the rate grants no tokens by itself');
    assert.equal(drain(bucket, T0 + 1000), 100, 'refills at the new rate');
    assert.equal(drain(bucket, T0 + 3000), 200, 'up to the new capacity');
  });

  it('refills at the old rate up to the moment of a retarget', () => {
    const bucket = newBucket(5, T0);
    drain(bucket, T0);
    retarget(bucket, 1000, T0 + 1000); // 5 tokens accrued at 5 qps first
    assert.equal(bucket.tokens, 5 * MICRO);
  });
});

describe('RateLimiter (one bucket per client)', () => {
  it('isolates clients and keeps one bucket per client id', () => {
    const limiter = new RateLimiter();
    let aliceOk = 0;
    for (let i = 0; i < 20; i++) if (limiter.check('alice', 5, T0) === 0) aliceOk++;
    assert.equal(aliceOk, 10);
    assert.equal(limiter.check('bob', 5, T0), 0, 'bob has his own bucket');
    assert.ok(limiter.check('alice', 5, T0) > 0);
    assert.equal(limiter.size, 2);
  });

  it('follows a change of the profile qps', () => {
    const limiter = new RateLimiter();
    for (let i = 0; i < 10; i++) assert.equal(limiter.check('carol', 5, T0), 0);
    assert.ok(limiter.check('carol', 5, T0) > 0);
    // Upgraded to 2000 qps: refills at the new rate from now on.
    assert.ok(limiter.check('carol', 2000, T0) > 0);
    let ok = 0;
    for (let i = 0; i < 100; i++) if (limiter.check('carol', 2000, T0 + 10) === 0) ok++;
    assert.equal(ok, 20, '10 ms at 2000 qps');
  });
});
