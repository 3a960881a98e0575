/**
 * The typed client (client/, `@sequence/client`) against the real service on loopback: the
 * committed schema is the one the service's OpenAPI document generates today; typed calls of
 * the main families (health, quotes, orders, positions, keys) answer their data; an error is an
 * `ApiError` with the envelope's code and request id; an order submission carries an
 * Idempotency-Key made once per call, so a retry after a connection dropped on the answer gets
 * the first order back (200), never a second one; 429 and 503 are tried again after
 * `Retry-After`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { ApiError, createClient, ok, type ServiceClient } from '../../client/src/index.ts';
import { schemaSource } from '../../client/scripts/schema.ts';
import { call, clientWithKeys, startTestService, TEST_OPERATOR_KEY, until, type TestService } from '../helpers/service.ts';
import { assertNbbo } from '../helpers/nbbo.ts';

describe('typed client against the real service', { timeout: 90_000 }, () => {
  let svc: TestService;
  let sandbox: ServiceClient;
  let sandboxKey: string;

  before(async () => {
    svc = await startTestService();
    sandboxKey = (await clientWithKeys(svc, 'client-sdk')).sandbox;
    sandbox = createClient({ baseUrl: svc.base, apiKey: sandboxKey });
    await until('a quote', async () => ((await call(svc.base, 'GET', '/v1/quotes/BTC-USDT', { token: TEST_OPERATOR_KEY })).status === 200 ? true : undefined), 15_000);
  });
  after(async () => svc?.stop());

  it('the committed schema is what the service\'s OpenAPI document generates (npm run client:generate)', async () => {
    const document = (await call<Record<string, unknown>>(svc.base, 'GET', '/v1/openapi.json')).body;
    const committed = readFileSync(new URL('../../client/src/schema.ts', import.meta.url), 'utf8');
    assert.ok((await schemaSource(document)) === committed, 'client/src/schema.ts is out of date: run `npm run client:generate`');
  });

  it('typed calls answer their data: health, a quote, positions, keys', async () => {
    const health = ok(await sandbox.GET('/v1/health/live'));
    assert.ok(health !== undefined);
    const quote = ok(await sandbox.GET('/v1/quotes/{symbol}', { params: { path: { symbol: 'BTC-USDT' } } }));
    assert.equal(quote.symbol, 'BTC-USDT');
    assertNbbo(quote.nbbo);
    const positions = ok(await sandbox.GET('/v1/positions'));
    assert.ok(Array.isArray(positions.positions));
    const keys = ok(await sandbox.GET('/v1/api_keys'));
    assert.ok(keys.length >= 1 && keys.every((k) => !('raw_key' in k)), 'key records, never a raw key');
  });

  it('an error is an ApiError with the envelope\'s code and request id', async () => {
    const answer = await sandbox.POST('/v1/orders', { body: { client_order_id: 'sdk-bad', symbol: 'BTC-USDT', side: 'buy', order_type: 'market', qty_1e8: -5 } });
    assert.throws(() => ok(answer), (err: unknown) => err instanceof ApiError && err.status === 400 && err.code === 'VALIDATION_ERROR' && typeof err.requestId === 'string' && err.requestId.length > 0);
    const anonymous = createClient({ baseUrl: svc.base, retry: false });
    const unauthorized = await anonymous.GET('/v1/positions');
    assert.equal(unauthorized.response.status, 401);
    assert.throws(() => ok(unauthorized), (err: unknown) => err instanceof ApiError && err.code === 'UNAUTHENTICATED');
  });

  it('an order submission carries one Idempotency-Key per call: a retry after a dropped answer returns the first order, placed once', async () => {
    const seen: string[] = [];
    let dropped = 0;
    // The first attempt reaches the service, then its answer is lost, as when a connection drops.
    const flaky: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      seen.push(request.headers.get('idempotency-key') ?? '');
      const response = await fetch(request);
      if (new URL(request.url).pathname === '/v1/orders' && dropped++ === 0) throw new TypeError('fetch failed: socket hang up');
      return response;
    };
    const client = createClient({ baseUrl: svc.base, apiKey: sandboxKey, fetch: flaky, retry: { baseMs: 10 } });
    const answer = await client.POST('/v1/orders', { body: { client_order_id: 'sdk-retried', symbol: 'BTC-USDT', side: 'buy', order_type: 'market', qty_1e8: 1_000_000 } });
    const order = ok(answer);
    assert.equal(answer.response.status, 200, 'the retry answered the order the first attempt placed');
    assert.equal(seen.length, 2);
    assert.ok(seen[0]!.length > 0 && seen[0] === seen[1], 'the same key on both attempts');
    const listed = ok(await sandbox.GET('/v1/orders', { params: { query: { limit: 100 } } }));
    assert.equal(listed.orders.filter((o) => o.client_order_id === 'sdk-retried').length, 1, 'placed once');
    assert.equal(listed.orders.find((o) => o.client_order_id === 'sdk-retried')!.node_order_id, order.node_order_id);
    // A second call is another order: its own key.
    const other = ok(await sandbox.POST('/v1/orders', { body: { client_order_id: 'sdk-second', symbol: 'BTC-USDT', side: 'buy', order_type: 'market', qty_1e8: 1_000_000 } }));
    assert.notEqual(other.node_order_id, order.node_order_id);
  });

  it('429 and 503 are tried again after Retry-After; the answer after them is the data', async () => {
    let calls = 0;
    const busy: typeof fetch = async (input, init) => {
      calls++;
      if (calls === 1) return new Response(JSON.stringify({ error: { code: 'RATE_LIMITED', message: 'slow down', request_id: 'r1' } }), { status: 429, headers: { 'retry-after': '0' } });
      if (calls === 2) return new Response('unavailable', { status: 503 });
      return fetch(new Request(input, init));
    };
    const client = createClient({ baseUrl: svc.base, apiKey: sandboxKey, fetch: busy, retry: { baseMs: 5 } });
    const quote = ok(await client.GET('/v1/quotes/{symbol}', { params: { path: { symbol: 'BTC-USDT' } } }));
    assert.equal(quote.symbol, 'BTC-USDT');
    assert.equal(calls, 3);
    const never = createClient({ baseUrl: svc.base, apiKey: sandboxKey, fetch: busy, retry: false });
    calls = 0;
    const refused = await never.GET('/v1/quotes/{symbol}', { params: { path: { symbol: 'BTC-USDT' } } });
    assert.equal(refused.response.status, 429);
    assert.throws(() => ok(refused), (err: unknown) => err instanceof ApiError && err.code === 'RATE_LIMITED' && err.requestId === 'r1');
  });
});
