/**
 * Gateway error handling against the real service: request ids, the error envelope for every
 * failure class (404, 405, 400, 401, 413, 415, 500) and its exact shape.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createLogger, createRequestLogger } from '../../engine/log.ts';
import { Authenticator } from '../../gateway/auth/authenticator.ts';
import { ApiError } from '../../gateway/errors.ts';
import { BODY_LIMIT_BYTES, HttpPipeline } from '../../gateway/http/pipeline.ts';
import type { RouteSpec } from '../../gateway/http/route.ts';
import { Router } from '../../gateway/http/router.ts';
import { RateLimiter } from '../../gateway/rate-limit/limiter.ts';
import { uws, type us_listen_socket } from '../../gateway/uws.ts';
import { Storage } from '../../storage/index.ts';
import {
  call,
  envelope,
  startTestService,
  TEST_OPERATOR_KEY,
  type JsonResponse,
  type TestService,
} from '../helpers/service.ts';

type ErrorEnvelope = ReturnType<typeof envelope>;

const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Asserts status, JSON content type and exactly the spec's envelope
 * `{error: {code, message, request_id, details}}`, with the request id matching the header.
 */
function assertError(res: JsonResponse, status: number, code: string): ErrorEnvelope {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json\b/);
  assert.deepEqual(Object.keys(res.body as object), ['error'], 'the body holds only `error`');
  const err = envelope(res.body);
  assert.deepEqual(Object.keys(err).sort(), ['code', 'details', 'message', 'request_id']);
  assert.equal(err.code, code);
  assert.ok(err.message.length > 0, 'message is non-empty');
  assert.equal(err.request_id, res.headers.get('x-request-id'), 'body request_id equals the header');
  for (const d of err.details) {
    assert.deepEqual(Object.keys(d).sort(), ['field', 'message']);
    assert.equal(typeof d.field, 'string');
    assert.equal(typeof d.message, 'string');
  }
  return err;
}

/** fetch with a raw body and no JSON parse on failure-prone paths. */
async function rawFetch(
  url: string,
  init: RequestInit & { duplex?: 'half' },
): Promise<{ status: number; headers: Headers; body: unknown }> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

/** A request body streamed in chunks (Transfer-Encoding: chunked, no content-length). */
function chunkedBody(totalBytes: number, chunkBytes = 64 * 1024): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(chunkBytes).fill(0x20);
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= totalBytes) {
        controller.close();
        return;
      }
      const n = Math.min(chunkBytes, totalBytes - sent);
      sent += n;
      controller.enqueue(n === chunkBytes ? chunk : chunk.subarray(0, n));
    },
  });
}

describe('gateway errors (real service)', () => {
  let svc: TestService;
  let base: string;
  const op = TEST_OPERATOR_KEY;

  before(async () => {
    svc = await startTestService({ workers: 1 });
    base = svc.base;
  });

  after(async () => {
    await svc?.stop();
  });

  describe('request ids', () => {
    it('echoes a valid X-Request-Id in the header of a success and in header and body of an error', async () => {
      const id = 'trace-abc.123:XYZ_9';
      const ok = await call(base, 'GET', '/v1/health', { headers: { 'x-request-id': id } });
      assert.equal(ok.status, 200);
      assert.equal(ok.headers.get('x-request-id'), id);

      const notFound = await call(base, 'GET', '/v1/does-not-exist', { headers: { 'x-request-id': id } });
      const err = assertError(notFound, 404, 'NOT_FOUND');
      assert.equal(err.request_id, id);
      assert.equal(notFound.headers.get('x-request-id'), id);
    });

    it('keeps a valid id of exactly 128 characters', async () => {
      const id = 'a'.repeat(128);
      const res = await call(base, 'GET', '/v1/nope', { headers: { 'x-request-id': id } });
      assert.equal(assertError(res, 404, 'NOT_FOUND').request_id, id);
    });

    it('generates a non-empty id, distinct per request, when none is given', async () => {
      const a = await call(base, 'GET', '/v1/nope');
      const b = await call(base, 'GET', '/v1/nope');
      const ok = await call(base, 'GET', '/v1/health/live');
      const ids = [assertError(a, 404, 'NOT_FOUND').request_id, assertError(b, 404, 'NOT_FOUND').request_id];
      ids.push(ok.headers.get('x-request-id') ?? '');
      for (const id of ids) assert.match(id, VALID_REQUEST_ID);
      assert.equal(new Set(ids).size, 3, `ids must be distinct: ${ids.join(', ')}`);
    });

    it('replaces an invalid incoming id (spaces, more than 128 characters, bad characters)', async () => {
      for (const bad of ['has spaces in it', 'b'.repeat(129), 'semi;colon', 'quote"d']) {
        const res = await call(base, 'GET', '/v1/nope', { headers: { 'x-request-id': bad } });
        const err = assertError(res, 404, 'NOT_FOUND');
        assert.notEqual(err.request_id, bad);
        assert.match(err.request_id, VALID_REQUEST_ID);
      }
    });
  });

  describe('routing errors', () => {
    it('answers an unknown route with 404 NOT_FOUND', async () => {
      assertError(await call(base, 'GET', '/v1/unknown'), 404, 'NOT_FOUND');
      assertError(await call(base, 'POST', '/nope', { token: op, body: {} }), 404, 'NOT_FOUND');
      assertError(await call(base, 'GET', '/v1/health/'), 404, 'NOT_FOUND');
      assertError(await call(base, 'POST', '/v1/api_keys/key_abc/unknown', { token: op }), 404, 'NOT_FOUND');
      // Unknown routes are answered before authentication: no credentials needed to get a 404.
      assertError(await call(base, 'GET', '/v1/no_such_resource'), 404, 'NOT_FOUND');
    });

    it('answers a known path with an unknown method with 405 METHOD_NOT_ALLOWED and an Allow header', async () => {
      const patch = await call(base, 'PATCH', '/v1/api_keys', { token: op });
      assertError(patch, 405, 'METHOD_NOT_ALLOWED');
      assert.deepEqual(
        (patch.headers.get('allow') ?? '').split(',').map((m) => m.trim()).sort(),
        ['GET', 'POST'],
      );

      const del = await call(base, 'DELETE', '/v1/health');
      assertError(del, 405, 'METHOD_NOT_ALLOWED');
      assert.equal(del.headers.get('allow'), 'GET');

      const templated = await call(base, 'GET', '/v1/api_keys/key_abc', { token: op });
      assertError(templated, 405, 'METHOD_NOT_ALLOWED');
      assert.equal(templated.headers.get('allow'), 'DELETE');

      const rotate = await call(base, 'GET', '/v1/api_keys/key_abc/rotate', { token: op });
      assertError(rotate, 405, 'METHOD_NOT_ALLOWED');
      assert.equal(rotate.headers.get('allow'), 'POST');

      const put = await call(base, 'POST', '/v1/kill_switch', { token: op, body: { active: false } });
      assertError(put, 405, 'METHOD_NOT_ALLOWED');
      assert.equal(put.headers.get('allow'), 'PUT');
    });
  });

  describe('validation errors', () => {
    it('rejects a malformed JSON body with 400 VALIDATION_ERROR and a detail for `body`', async () => {
      const res = await call(base, 'POST', '/v1/api_keys', {
        token: op,
        rawBody: '{"label": "x",',
        headers: { 'content-type': 'application/json' },
      });
      const err = assertError(res, 400, 'VALIDATION_ERROR');
      assert.equal(err.details.length, 1);
      assert.equal(err.details[0]!.field, 'body');
    });

    it('reports wrong types with one detail per problem', async () => {
      const res = await call(base, 'PUT', '/v1/kill_switch', { token: op, body: { active: 'yes', reason: 5 } });
      const err = assertError(res, 400, 'VALIDATION_ERROR');
      assert.deepEqual(err.details.map((d) => d.field).sort(), ['active', 'reason'], JSON.stringify(err.details));
      // Nothing was switched on by the rejected request.
      assert.equal((await call(base, 'GET', '/v1/health/safety')).status, 200);
    });

    it('reports a wrong type on a nullable field (label: string | null) as one detail', async () => {
      const res = await call(base, 'POST', '/v1/api_keys', { token: op, body: { label: 5, sandbox: 'no' } });
      const err = assertError(res, 400, 'VALIDATION_ERROR');
      assert.deepEqual(err.details.map((d) => d.field).sort(), ['label', 'sandbox'], JSON.stringify(err.details));
      assert.match(err.details.find((d) => d.field === 'label')!.message, /string or null/);
    });

    it('says a missing required field is required', async () => {
      const res = await call(base, 'PUT', '/v1/kill_switch', { token: op, body: { reason: 'x' } });
      const err = assertError(res, 400, 'VALIDATION_ERROR');
      assert.equal(err.details.length, 1);
      assert.equal(err.details[0]!.field, 'active');
      assert.match(err.details[0]!.message, /required/);
    });

    it('requires a body where the route needs one', async () => {
      const res = await call(base, 'PUT', '/v1/kill_switch', { token: op });
      const err = assertError(res, 400, 'VALIDATION_ERROR');
      assert.deepEqual(err.details.map((d) => d.field), ['body']);
    });

    it('reports an unknown extra field', async () => {
      const res = await call(base, 'PUT', '/v1/kill_switch', { token: op, body: { active: false, extra: 1 } });
      const err = assertError(res, 400, 'VALIDATION_ERROR');
      assert.equal(err.details.length, 1);
      assert.equal(err.details[0]!.field, 'extra');
      assert.match(err.details[0]!.message, /not a known field/);
    });

    it('reports a body that is JSON but not an object', async () => {
      const res = await call(base, 'POST', '/v1/api_keys', {
        token: op,
        rawBody: '[1,2]',
        headers: { 'content-type': 'application/json' },
      });
      const err = assertError(res, 400, 'VALIDATION_ERROR');
      assert.deepEqual(err.details.map((d) => d.field), ['body']);
    });

    it('rejects a malformed path parameter with a detail naming it', async () => {
      const res = await call(base, 'DELETE', '/v1/api_keys/not-a-key-id', { token: op });
      const err = assertError(res, 400, 'VALIDATION_ERROR');
      assert.deepEqual(err.details.map((d) => d.field), ['key_id']);
    });
  });

  describe('authentication errors', () => {
    let revokedKey: string;

    before(async () => {
      const created = await call<{ id: string; raw_key: string }>(base, 'POST', '/v1/api_keys', { token: op, body: {} });
      assert.equal(created.status, 201);
      revokedKey = created.body.raw_key;
      assert.equal((await call(base, 'GET', '/v1/api_keys', { token: revokedKey })).status, 200);
      const del = await call(base, 'DELETE', `/v1/api_keys/${created.body.id}`, { token: op });
      assert.equal(del.status, 200);
    });

    const cases: [string, Record<string, string>][] = [
      ['a missing Authorization header', {}],
      ['a non-Bearer scheme', { authorization: `Basic ${Buffer.from('user:pass').toString('base64')}` }],
      ['a bare token without scheme', { authorization: TEST_OPERATOR_KEY }],
      ['an empty bearer', { authorization: 'Bearer ' }],
      ['an unknown live key', { authorization: 'Bearer sqk_live_00000000000000000000000000000000' }],
      ['an unknown sandbox key', { authorization: 'Bearer sqk_test_00000000000000000000000000000000' }],
      ['an unknown opaque credential', { authorization: 'Bearer not-a-known-credential' }],
    ];
    for (const [name, headers] of cases) {
      it(`answers ${name} with 401 UNAUTHENTICATED`, async () => {
        const res = await call(base, 'GET', '/v1/api_keys', { headers });
        assertError(res, 401, 'UNAUTHENTICATED');
        assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer/);
      });
    }

    it('answers a revoked key with 401', async () => {
      assertError(await call(base, 'GET', '/v1/api_keys', { token: revokedKey }), 401, 'UNAUTHENTICATED');
    });

    it('authenticates before looking at the body (401 beats 400)', async () => {
      const res = await call(base, 'PUT', '/v1/kill_switch', { rawBody: '{bad', headers: { 'content-type': 'application/json' } });
      assertError(res, 401, 'UNAUTHENTICATED');
    });
  });

  describe('body limits and media types', () => {
    const url = () => `${base}/v1/api_keys`;
    const headers = { authorization: `Bearer ${TEST_OPERATOR_KEY}`, 'content-type': 'application/json' };

    it('answers a body over 1 MiB with an honest content-length with 413 PAYLOAD_TOO_LARGE', async () => {
      for (const size of [BODY_LIMIT_BYTES + 1, 4 * BODY_LIMIT_BYTES]) {
        const body = JSON.stringify({ label: 'x'.repeat(size) });
        assert.ok(Buffer.byteLength(body) > BODY_LIMIT_BYTES);
        const res = await rawFetch(url(), { method: 'POST', headers, body });
        assertError(res, 413, 'PAYLOAD_TOO_LARGE');
      }
    });

    it('answers a chunked body (no content-length) that grows past 1 MiB with 413', async () => {
      const res = await rawFetch(url(), {
        method: 'POST',
        headers,
        body: chunkedBody(BODY_LIMIT_BYTES + 64 * 1024),
        duplex: 'half',
      });
      assertError(res, 413, 'PAYLOAD_TOO_LARGE');
    });

    it(
      'answers a long chunked upload (8 MiB) with 413 rather than a connection reset',
      async () => {
        const res = await rawFetch(url(), { method: 'POST', headers, body: chunkedBody(8 * BODY_LIMIT_BYTES), duplex: 'half' });
        assertError(res, 413, 'PAYLOAD_TOO_LARGE');
      },
    );

    it('accepts a body of exactly 1 MiB (the cap is inclusive): validation, not 413, answers it', async () => {
      const prefix = '{"label":"';
      const suffix = '"}';
      const body = prefix + 'x'.repeat(BODY_LIMIT_BYTES - prefix.length - suffix.length) + suffix;
      assert.equal(Buffer.byteLength(body), BODY_LIMIT_BYTES);
      const res = await rawFetch(url(), { method: 'POST', headers, body });
      // The label is far over its 100-character limit: a 400 proves the body was read and parsed.
      assertError(res, 400, 'VALIDATION_ERROR');
    });

    // docs/api-decisions.md: only multipart bodies are 415; every other body is parsed as JSON
    // whatever its declared type (curl -d and fetch with a string declare form or text types).
    it('answers a multipart body with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
      for (const type of ['multipart/form-data; boundary=x', 'Multipart/mixed; boundary=y']) {
        const res = await rawFetch(url(), {
          method: 'POST',
          headers: { authorization: `Bearer ${TEST_OPERATOR_KEY}`, 'content-type': type },
          body: '--x\r\n\r\n{}\r\n--x--',
        });
        assertError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
      }
    });

    it('parses other declared types as JSON (and still rejects what is not JSON)', async () => {
      const bad = await rawFetch(url(), {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_OPERATOR_KEY}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'label=abc&sandbox=true',
      });
      assert.deepEqual(assertError(bad, 400, 'VALIDATION_ERROR').details.map((d) => d.field), ['body']);
      for (const type of [
        'application/json; charset=utf-8',
        'application/merge-patch+json',
        'text/plain;charset=UTF-8',
        'application/x-www-form-urlencoded',
      ]) {
        const res = await rawFetch(url(), {
          method: 'POST',
          headers: { authorization: `Bearer ${TEST_OPERATOR_KEY}`, 'content-type': type },
          body: '{"label":"ct"}',
        });
        assert.equal(res.status, 201, JSON.stringify(res.body));
      }
    });
  });
});

describe('500 INTERNAL from a real HttpPipeline on a real uWS app', () => {
  let dir: string;
  let storage: Storage;
  let listenSocket: us_listen_socket | undefined;
  let base: string;

  const boomRoutes: RouteSpec[] = [
    {
      method: 'get',
      path: '/boom',
      operationId: 'boom',
      summary: 'throws',
      tags: [],
      auth: 'public',
      responses: {},
      handler: () => {
        throw new Error('secret-internal-detail at /srv/app/boom.ts:42');
      },
    },
    {
      method: 'post',
      path: '/boom/{id}',
      operationId: 'boomAsync',
      summary: 'rejects after validation and auth',
      tags: [],
      auth: 'bearer',
      responses: {},
      handler: async () => {
        await Promise.resolve();
        throw new TypeError('secret-internal-detail: cannot read properties of undefined');
      },
    },
    {
      method: 'get',
      path: '/teapot',
      operationId: 'teapot',
      summary: 'a known ApiError passes through as is',
      tags: [],
      auth: 'public',
      responses: {},
      handler: () => {
        throw new ApiError(409, 'SOME_CONFLICT', 'a conflict');
      },
    },
  ];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'seq-pipeline-'));
    storage = Storage.open(dir);
    const auth = new Authenticator(storage, { operatorKey: TEST_OPERATOR_KEY });
    await auth.init();
    const router = new Router();
    for (const route of boomRoutes) router.add(route);
    const pipeline = new HttpPipeline({
      router,
      auth,
      limiter: new RateLimiter(),
      log: createLogger('silent'),
      requestLog: createRequestLogger('silent'),
    });
    const app = uws.App();
    app.any('/*', pipeline.handle);
    const port = await new Promise<number>((resolve, reject) => {
      app.listen('127.0.0.1', 0, (socket) => {
        if (!socket) {
          reject(new Error('listen failed'));
          return;
        }
        listenSocket = socket;
        resolve(uws.us_socket_local_port(socket));
      });
    });
    base = `http://127.0.0.1:${port}`;
  });

  after(async () => {
    if (listenSocket !== undefined) uws.us_listen_socket_close(listenSocket);
    await storage?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('answers a handler that throws a plain Error with 500 INTERNAL and no stack or error text', async () => {
    const res = await call(base, 'GET', '/boom', { headers: { 'x-request-id': 'boom-1' } });
    const err = assertError(res, 500, 'INTERNAL');
    assert.equal(err.request_id, 'boom-1');
    assert.deepEqual(err.details, []);
    const text = JSON.stringify(res.body);
    assert.doesNotMatch(text, /secret-internal-detail|boom\.ts|\bat \/|Error:|stack/i);
  });

  it('does the same for an async handler behind authentication', async () => {
    const res = await call(base, 'POST', '/boom/1', { token: TEST_OPERATOR_KEY, body: {} });
    assertError(res, 500, 'INTERNAL');
    assert.doesNotMatch(JSON.stringify(res.body), /secret-internal-detail|TypeError|undefined/);
    // The same route without credentials is a 401, not a 500: authentication runs first.
    assertError(await call(base, 'POST', '/boom/1'), 401, 'UNAUTHENTICATED');
  });

  it('passes a deliberate ApiError through with its own status and code', async () => {
    const err = assertError(await call(base, 'GET', '/teapot'), 409, 'SOME_CONFLICT');
    assert.equal(err.message, 'a conflict');
  });

  it('keeps serving after a 500', async () => {
    assertError(await call(base, 'GET', '/boom'), 500, 'INTERNAL');
    assertError(await call(base, 'GET', '/nope'), 404, 'NOT_FOUND');
  });
});
