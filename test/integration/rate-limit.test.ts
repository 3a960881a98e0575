/**
 * Rate limits against the real service: token bucket per client_id (capacity 2 x qps, refill qps
 * per second), shared by an account's keys, isolated between accounts, operator unlimited.
 *
 * No assertion depends on speed: where refill during a burst could add a token, the bound is
 * computed from the measured elapsed time (at most qps tokens per second can come back).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import {
  call,
  envelope,
  startTestService,
  TEST_JWT_SECRET,
  TEST_OPERATOR_KEY,
  type JsonResponse,
  type TestService,
} from '../helpers/service.ts';

const FREE_QPS = 5;
const FREE_BURST = 10;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Most tokens a free bucket can have handed out over `elapsedMs`, starting full. */
const maxGranted = (elapsedMs: number) => FREE_BURST + Math.floor((elapsedMs * FREE_QPS) / 1000);

function assertRateLimited(res: JsonResponse): void {
  assert.equal(res.status, 429, JSON.stringify(res.body));
  const err = envelope(res.body);
  assert.equal(err.code, 'RATE_LIMITED');
  assert.equal(err.message, 'rate limit exceeded');
  assert.deepEqual(err.details, []);
  assert.equal(err.request_id, res.headers.get('x-request-id'));
  const retryAfter = res.headers.get('retry-after');
  assert.ok(retryAfter !== null, 'Retry-After header present');
  assert.match(retryAfter, /^[1-9]\d*$/, 'Retry-After is a positive integer of seconds');
}

describe('rate limits (real service)', () => {
  let svc: TestService;
  let base: string;

  /** A fresh client at tier free with `keys` live keys, made directly in storage (no request spent). */
  const freeClient = async (clientId: string, keys: number): Promise<string[]> => {
    const storage = svc.service.storage;
    await storage.clients.put({ client_id: clientId, tier: 'free', rate_limit_qps: FREE_QPS, is_admin: false, created_at_ms: Date.now() });
    const out: string[] = [];
    for (let i = 0; i < keys; i++) out.push((await storage.apiKeys.create(clientId, { label: null, sandbox: i % 2 === 1 })).raw_key);
    return out;
  };

  /**
   * Calls sequentially, cycling through the tokens, until the first 429 (or `max` calls).
   * Returns the number of successes before it, the 429, when the burst started, its duration
   * and when the 429's request was sent.
   */
  const burst = async (tokens: string[], max = 40) => {
    const started = performance.now();
    let successes = 0;
    for (let i = 0; i < max; i++) {
      const sentAt = performance.now();
      const res = await call(base, 'GET', '/v1/api_keys', { token: tokens[i % tokens.length]! });
      if (res.status === 200) {
        successes++;
        continue;
      }
      return { successes, limited: res, started, elapsedMs: performance.now() - started, sentAt };
    }
    assert.fail(`no 429 after ${max} calls`);
  };

  before(async () => {
    svc = await startTestService({ workers: 1 });
    base = svc.base;
  });

  after(async () => {
    await svc?.stop();
  });

  it('gives a free client its burst of 10, then 429 RATE_LIMITED with Retry-After', async () => {
    const [key] = await freeClient('rl-free', 1);
    const { successes, limited, elapsedMs } = await burst([key!]);
    assertRateLimited(limited);
    assert.ok(
      successes >= FREE_BURST && successes <= maxGranted(elapsedMs),
      `${successes} successes in ${elapsedMs.toFixed(0)} ms (burst ${FREE_BURST}, refill ${FREE_QPS}/s)`,
    );
    if (elapsedMs < 1000 / FREE_QPS) assert.equal(successes, FREE_BURST, 'exactly the burst when quick');
  });

  it('answers concurrent calls beyond the burst with 429, never more than the bucket holds', async () => {
    const [key] = await freeClient('rl-concurrent', 1);
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: 25 }, () => call(base, 'GET', '/v1/api_keys', { token: key! })),
    );
    const elapsedMs = performance.now() - started;
    const ok = results.filter((r) => r.status === 200).length;
    for (const r of results) if (r.status !== 200) assertRateLimited(r);
    assert.ok(ok >= FREE_BURST && ok <= maxGranted(elapsedMs), `${ok} of 25 succeeded in ${elapsedMs.toFixed(0)} ms`);
  });

  it('shares one bucket between the keys (live and sandbox) and the JWT of one account', async () => {
    const keys = await freeClient('rl-shared', 2);
    const jwt = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('rl-shared')
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode(TEST_JWT_SECRET));
    const { successes, limited, elapsedMs, started } = await burst([keys[0]!, keys[1]!, jwt]);
    assertRateLimited(limited);
    // Separate buckets would allow 10 per credential: 30.
    assert.ok(
      successes >= FREE_BURST && successes <= maxGranted(elapsedMs),
      `${successes} successes across 3 credentials of one account in ${elapsedMs.toFixed(0)} ms`,
    );
    // Every credential of the account is now throttled, not only the last one used.
    const more = await Promise.all([keys[0]!, keys[1]!, jwt].map((token) => call(base, 'GET', '/v1/api_keys', { token })));
    const total = successes + more.filter((r) => r.status === 200).length;
    const totalMs = performance.now() - started;
    assert.ok(total <= maxGranted(totalMs), `${total} successes in ${totalMs.toFixed(0)} ms for one account`);
    for (const r of more) if (r.status !== 200) assertRateLimited(r);
  });

  it('does not let one account throttle another', async () => {
    const [noisy] = await freeClient('rl-noisy', 1);
    const [quiet] = await freeClient('rl-quiet', 1);
    const { limited } = await burst([noisy!]);
    assertRateLimited(limited);
    // The quiet account still has its full burst.
    const results = await Promise.all(
      Array.from({ length: FREE_BURST }, () => call(base, 'GET', '/v1/api_keys', { token: quiet! })),
    );
    assert.deepEqual(
      results.map((r) => r.status),
      Array(FREE_BURST).fill(200),
    );
  });

  it('never throttles the operator', async () => {
    for (let round = 0; round < 4; round++) {
      const results = await Promise.all(
        Array.from({ length: 25 }, () => call(base, 'GET', '/v1/api_keys', { token: TEST_OPERATOR_KEY })),
      );
      assert.deepEqual(
        results.map((r) => r.status),
        Array(25).fill(200),
        `round ${round}`,
      );
    }
  });

  it('does not rate-limit public endpoints (no client to charge)', async () => {
    const results = await Promise.all(Array.from({ length: 30 }, () => call(base, 'GET', '/v1/health/live')));
    assert.ok(results.every((r) => r.status === 200));
  });

  it('refills about qps tokens per second', async () => {
    const [key] = await freeClient('rl-refill', 1);
    const { limited, sentAt } = await burst([key!]);
    assertRateLimited(limited);
    // The bucket held less than one token when the 429 was decided (after `sentAt`). 1.1 s later
    // it holds at least 5 tokens, and at most 1 + 5 per second elapsed since `sentAt`.
    await sleep(1100);
    const results = await Promise.all(Array.from({ length: FREE_BURST }, () => call(base, 'GET', '/v1/api_keys', { token: key! })));
    const elapsedMs = performance.now() - sentAt;
    const ok = results.filter((r) => r.status === 200).length;
    for (const r of results) if (r.status !== 200) assertRateLimited(r);
    const upper = Math.min(FREE_BURST, 1 + Math.floor((elapsedMs * FREE_QPS) / 1000));
    assert.ok(ok >= FREE_QPS && ok <= upper, `${ok} tokens back after ${elapsedMs.toFixed(0)} ms (expected ${FREE_QPS}..${upper})`);
  });
});
