/**
 * API keys against the real service: creation, listing, deletion, rotation, sandbox isolation,
 * account isolation, `last_used_at`, and that raw keys never reach the LMDB files.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { sha256Hex } from '../../storage/random.ts';
import {
  call,
  envelope,
  startTestService,
  TEST_JWT_SECRET,
  type JsonResponse,
  type TestService,
} from '../helpers/service.ts';

interface KeyRecord {
  id: string;
  key_prefix: string;
  label: string | null;
  is_active: boolean;
  is_sandbox: boolean;
  last_used_at: string | null;
  created_at: string;
}

interface IssuedKey {
  id: string;
  key_prefix: string;
  raw_key: string;
  label: string | null;
  is_sandbox: boolean;
  created_at: string;
}

const LIVE_KEY = /^sqk_live_[0-9A-Za-z]{32}$/;
const SANDBOX_KEY = /^sqk_test_[0-9A-Za-z]{32}$/;
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

async function jwtFor(sub: string): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode(TEST_JWT_SECRET));
}

function assertError(res: JsonResponse, status: number, code: string): ReturnType<typeof envelope> {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  const err = envelope(res.body);
  assert.equal(err.code, code);
  return err;
}

function assertIsoTimestamp(value: unknown, name: string): void {
  assert.equal(typeof value, 'string', `${name} is a string`);
  assert.match(value as string, ISO_8601, `${name} is ISO 8601`);
  assert.ok(Number.isFinite(Date.parse(value as string)), `${name} parses`);
}

/** Every file of the LMDB environment, as bytes. */
function lmdbBytes(dataDir: string): Buffer {
  const dir = join(dataDir, 'lmdb');
  const files = readdirSync(dir);
  assert.ok(files.length > 0, 'the LMDB directory has files');
  return Buffer.concat(files.map((f) => readFileSync(join(dir, f))));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends requests at the same instant: one pre-opened connection each, all written in one
 * synchronous loop, so the in-process gateway reads them in one pass of its event loop. (fetch
 * opens connections lazily, which would leave the overlap to chance.) Bounded wait.
 */
async function simultaneous(
  port: number,
  requests: { method: string; path: string; token: string }[],
  timeoutMs = 10_000,
): Promise<{ status: number; body: unknown }[]> {
  const sockets = await Promise.all(
    requests.map(
      () =>
        new Promise<Socket>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1', () => resolve(socket));
          socket.once('error', reject);
        }),
    ),
  );
  const answers = sockets.map(
    (socket) =>
      new Promise<{ status: number; body: unknown }>((resolve, reject) => {
        let text = '';
        const timer = setTimeout(() => {
          socket.destroy();
          reject(new Error(`no response within ${timeoutMs} ms`));
        }, timeoutMs);
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => {
          text += chunk;
          const end = text.indexOf('\r\n\r\n');
          if (end < 0) return;
          const head = text.slice(0, end);
          const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
          if (text.length < end + 4 + length) return;
          clearTimeout(timer);
          socket.destroy();
          const body = text.slice(end + 4, end + 4 + length);
          resolve({ status: Number(head.split(' ')[1]), body: body === '' ? undefined : (JSON.parse(body) as unknown) });
        });
        socket.on('error', (err) => {
          clearTimeout(timer);
          reject(err);
        });
      }),
  );
  requests.forEach((r, i) =>
    sockets[i]!.write(
      `${r.method} ${r.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${r.token}\r\nContent-Length: 0\r\n\r\n`,
    ),
  );
  return Promise.all(answers);
}

describe('API keys (real service)', () => {
  let svc: TestService;
  let base: string;
  let alice: string; // JWT of client alice
  let bob: string; // JWT of client bob
  let aliceKey: IssuedKey; // a live key of alice

  const create = async (token: string, body: unknown = {}): Promise<IssuedKey> => {
    const res = await call<IssuedKey>(base, 'POST', '/v1/api_keys', { token, body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  };
  const list = async (token: string): Promise<KeyRecord[]> => {
    const res = await call<KeyRecord[]>(base, 'GET', '/v1/api_keys', { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };

  before(async () => {
    svc = await startTestService({ workers: 1 });
    base = svc.base;
    // Many calls per client here: a tier above free keeps the rate limit out of the way.
    for (const client_id of ['alice', 'bob']) {
      await svc.service.storage.clients.put({
        client_id,
        tier: 'enterprise',
        rate_limit_qps: 2000,
        is_admin: false,
        created_at_ms: Date.now(),
      });
    }
    alice = await jwtFor('alice');
    bob = await jwtFor('bob');
    aliceKey = await create(alice, { label: 'primary' });
  });

  after(async () => {
    await svc?.stop();
  });

  it('creates a key: 201 with id, key_prefix and the raw key', async () => {
    const res = await call<IssuedKey>(base, 'POST', '/v1/api_keys', { token: alice, body: { label: 'ci' } });
    assert.equal(res.status, 201);
    const k = res.body;
    assert.match(k.id, /^key_[0-9A-Za-z]+$/);
    assert.match(k.raw_key, LIVE_KEY);
    assert.ok(k.raw_key.startsWith(k.key_prefix), 'key_prefix is a prefix of the raw key');
    assert.ok(k.key_prefix.length > 'sqk_live_'.length && k.key_prefix.length < k.raw_key.length);
    assert.equal(k.label, 'ci');
    assert.equal(k.is_sandbox, false);
    assertIsoTimestamp(k.created_at, 'created_at');
    assert.notEqual(k.raw_key, aliceKey.raw_key);
    assert.notEqual(k.id, aliceKey.id);
  });

  it('accepts an empty body and defaults label to null', async () => {
    const res = await call<IssuedKey>(base, 'POST', '/v1/api_keys', { token: alice });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.label, null);
    assert.equal(res.body.is_sandbox, false);
    const listed = (await list(alice)).find((r) => r.id === res.body.id);
    assert.equal(listed?.label, null);
  });

  it('refuses a label with a control character or a lone surrogate, and keeps other Unicode', async () => {
    const dora = await jwtFor('dora');
    for (const label of ['\u0000\ud800', 'tab\there', 'bell\u0007', 'del\u007f', 'c1\u0085', 'lone\udc00', 'high\ud83d']) {
      const res = await call(base, 'POST', '/v1/api_keys', { token: dora, body: { label } });
      const err = assertError(res, 400, 'VALIDATION_ERROR');
      assert.equal(err.details[0]?.field, 'label', JSON.stringify(err));
    }
    const fine = await create(dora, { label: 'trading bot 🚀 · données' });
    assert.equal(fine.label, 'trading bot 🚀 · données');
    assert.ok(!(await list(dora)).some((r) => /[\u0000-\u001f]/.test(r.label ?? '')), 'nothing refused was stored');
  });

  it('caps an account at 25 active keys (409 KEY_LIMIT_REACHED), concurrent creations included; a deleted key frees a place', async () => {
    const carol = await jwtFor('carol');
    await svc.service.storage.clients.put({ client_id: 'carol', tier: 'enterprise', rate_limit_qps: 2000, is_admin: false, created_at_ms: Date.now() });
    const answers = await Promise.all(Array.from({ length: 40 }, () => call<IssuedKey>(base, 'POST', '/v1/api_keys', { token: carol, body: {} })));
    assert.equal(answers.filter((a) => a.status === 201).length, 25);
    for (const refused of answers.filter((a) => a.status !== 201)) assertError(refused, 409, 'KEY_LIMIT_REACHED');
    const keys = await list(carol);
    assert.equal(keys.filter((k) => k.is_active).length, 25);
    assert.equal((await call(base, 'DELETE', `/v1/api_keys/${keys[0]!.id}`, { token: carol })).status, 200);
    await create(carol);
    assertError(await call(base, 'POST', '/v1/api_keys', { token: carol, body: {} }), 409, 'KEY_LIMIT_REACHED');
  });

  it('lists a bare array of records without raw keys or hashes', async () => {
    const res = await call<KeyRecord[]>(base, 'GET', '/v1/api_keys', { token: alice });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.ok(Array.isArray(res.body), 'a bare array');
    const text = JSON.stringify(res.body);
    assert.ok(!text.includes(aliceKey.raw_key), 'the raw key is never listed');
    assert.ok(!text.includes(sha256Hex(aliceKey.raw_key)), 'nor its hash');
    const mine = res.body.find((r) => r.id === aliceKey.id);
    assert.ok(mine, 'the created key is listed');
    assert.equal(mine.key_prefix, aliceKey.key_prefix);
    assert.equal(mine.label, 'primary');
    assert.equal(mine.is_active, true);
    for (const record of res.body) {
      for (const field of ['id', 'key_prefix', 'label', 'is_active', 'last_used_at', 'created_at']) {
        assert.ok(field in record, `record has ${field}`);
      }
      for (const field of Object.keys(record)) {
        assert.ok(!/raw|hash|secret/i.test(field), `record exposes ${field}`);
      }
      assertIsoTimestamp(record.created_at, 'created_at');
      if (record.last_used_at !== null) assertIsoTimestamp(record.last_used_at, 'last_used_at');
      assert.equal(typeof record.is_active, 'boolean');
    }
  });

  it('authenticates with the new key', async () => {
    const records = await list(aliceKey.raw_key);
    assert.ok(records.some((r) => r.id === aliceKey.id));
  });

  it('refuses to delete the key used for the call (409 KEY_IN_USE) but deletes another (then 401)', async () => {
    const other = await create(alice, { label: 'to-delete' });
    const self = await call(base, 'DELETE', `/v1/api_keys/${aliceKey.id}`, { token: aliceKey.raw_key });
    assertError(self, 409, 'KEY_IN_USE');
    assert.equal((await call(base, 'GET', '/v1/api_keys', { token: aliceKey.raw_key })).status, 200, 'still works');

    const del = await call<KeyRecord>(base, 'DELETE', `/v1/api_keys/${other.id}`, { token: aliceKey.raw_key });
    assert.equal(del.status, 200, JSON.stringify(del.body));
    assert.equal(del.body.id, other.id);
    assert.equal(del.body.is_active, false);
    assertError(await call(base, 'GET', '/v1/api_keys', { token: other.raw_key }), 401, 'UNAUTHENTICATED');
    assert.equal((await list(alice)).find((r) => r.id === other.id)?.is_active, false);

    // Deleting an already inactive key is idempotent.
    const again = await call<KeyRecord>(base, 'DELETE', `/v1/api_keys/${other.id}`, { token: alice });
    assert.equal(again.status, 200);
    assert.equal(again.body.is_active, false);
  });

  it('answers an unknown key id with 404 and a malformed one with 400', async () => {
    assertError(await call(base, 'DELETE', '/v1/api_keys/key_doesNotExist0123', { token: alice }), 404, 'NOT_FOUND');
    assertError(await call(base, 'POST', '/v1/api_keys/key_doesNotExist0123/rotate', { token: alice }), 404, 'NOT_FOUND');
    const bad = assertError(await call(base, 'DELETE', '/v1/api_keys/not-a-key', { token: alice }), 400, 'VALIDATION_ERROR');
    assert.deepEqual(bad.details.map((d) => d.field), ['key_id']);
    assertError(await call(base, 'POST', '/v1/api_keys/key_bad!id/rotate', { token: alice }), 400, 'VALIDATION_ERROR');
  });

  it("isolates accounts: another client's key id is 404 and its key keeps working", async () => {
    const bobKey = await create(bob, { label: 'bob' });
    assertError(await call(base, 'DELETE', `/v1/api_keys/${bobKey.id}`, { token: alice }), 404, 'NOT_FOUND');
    assertError(await call(base, 'POST', `/v1/api_keys/${bobKey.id}/rotate`, { token: aliceKey.raw_key }), 404, 'NOT_FOUND');
    assert.equal((await call(base, 'GET', '/v1/api_keys', { token: bobKey.raw_key })).status, 200);
    const aliceIds = (await list(alice)).map((r) => r.id);
    assert.ok(!aliceIds.includes(bobKey.id), "alice does not list bob's key");
    const bobIds = (await list(bob)).map((r) => r.id);
    assert.deepEqual(bobIds, [bobKey.id]);
  });

  it('lets a sandbox key create only sandbox keys and list only sandbox keys', async () => {
    const sandbox = await create(alice, { sandbox: true, label: 'sb' });
    assert.match(sandbox.raw_key, SANDBOX_KEY);
    assert.equal(sandbox.is_sandbox, true);

    const forced = await create(sandbox.raw_key, { sandbox: false, label: 'forced' });
    assert.match(forced.raw_key, SANDBOX_KEY, 'sandbox:false is ignored with a sandbox key');
    assert.equal(forced.is_sandbox, true);
    const defaulted = await create(sandbox.raw_key);
    assert.match(defaulted.raw_key, SANDBOX_KEY);

    const seen = await list(sandbox.raw_key);
    assert.ok(seen.length >= 3);
    assert.ok(seen.every((r) => r.is_sandbox), JSON.stringify(seen));
    assert.ok(!seen.some((r) => r.id === aliceKey.id), 'the live key is not listed');
    for (const id of [sandbox.id, forced.id, defaulted.id]) assert.ok(seen.some((r) => r.id === id));

    // The live side sees both modes; the sandbox side cannot touch live keys.
    const all = await list(aliceKey.raw_key);
    assert.ok(all.some((r) => r.id === forced.id) && all.some((r) => r.id === aliceKey.id));
    assertError(await call(base, 'DELETE', `/v1/api_keys/${aliceKey.id}`, { token: sandbox.raw_key }), 404, 'NOT_FOUND');
    assertError(await call(base, 'POST', `/v1/api_keys/${aliceKey.id}/rotate`, { token: sandbox.raw_key }), 404, 'NOT_FOUND');
    assert.equal((await call(base, 'GET', '/v1/api_keys', { token: aliceKey.raw_key })).status, 200);

    // A live key (or JWT) may still create sandbox keys explicitly.
    const fromLive = await create(aliceKey.raw_key, { sandbox: true });
    assert.match(fromLive.raw_key, SANDBOX_KEY);
  });

  it('rotates: a new raw key with the same label and mode; the old key is 401 at once', async () => {
    for (const sandbox of [false, true]) {
      const old = await create(alice, { label: `rot-${sandbox}`, sandbox });
      assert.equal((await call(base, 'GET', '/v1/api_keys', { token: old.raw_key })).status, 200);
      const res = await call<IssuedKey>(base, 'POST', `/v1/api_keys/${old.id}/rotate`, { token: alice });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const fresh = res.body;
      assert.notEqual(fresh.id, old.id);
      assert.notEqual(fresh.raw_key, old.raw_key);
      assert.match(fresh.raw_key, sandbox ? SANDBOX_KEY : LIVE_KEY);
      assert.equal(fresh.label, `rot-${sandbox}`);
      assert.equal(fresh.is_sandbox, sandbox);
      assertError(await call(base, 'GET', '/v1/api_keys', { token: old.raw_key }), 401, 'UNAUTHENTICATED');
      assert.equal((await call(base, 'GET', '/v1/api_keys', { token: fresh.raw_key })).status, 200);
      const records = await list(alice);
      assert.equal(records.find((r) => r.id === old.id)?.is_active, false);
      assert.equal(records.find((r) => r.id === fresh.id)?.is_active, true);
      assert.equal(records.find((r) => r.id === fresh.id)?.label, `rot-${sandbox}`);
      assertError(await call(base, 'POST', `/v1/api_keys/${old.id}/rotate`, { token: alice }), 409, 'KEY_INACTIVE');
    }
  });

  it('lets the key in use rotate itself; the replacement takes over', async () => {
    const k = await create(alice, { label: 'self-rotate' });
    const res = await call<IssuedKey>(base, 'POST', `/v1/api_keys/${k.id}/rotate`, { token: k.raw_key });
    assert.equal(res.status, 201);
    assertError(await call(base, 'GET', '/v1/api_keys', { token: k.raw_key }), 401, 'UNAUTHENTICATED');
    assert.equal((await call(base, 'GET', '/v1/api_keys', { token: res.body.raw_key })).status, 200);
  });

  it(
    'rotates a key once even when rotations race: exactly one replacement works',
    async () => {
      const k = await create(alice, { label: 'race' });
      // Sent at one instant, so no luck of connection timing decides whether they overlap.
      const results = await simultaneous(
        svc.service.port,
        Array.from({ length: 8 }, () => ({ method: 'POST', path: `/v1/api_keys/${k.id}/rotate`, token: alice })),
      );
      const issued = results.filter((r) => r.status === 201).map((r) => r.body as IssuedKey);
      const working: string[] = [];
      for (const r of issued) {
        if ((await call(base, 'GET', '/v1/api_keys', { token: r.raw_key })).status === 200) working.push(r.id);
      }
      assert.deepEqual(
        results.map((r) => r.status).sort(),
        [201, ...Array<number>(7).fill(409)],
        'one rotation wins, the others see an inactive key',
      );
      assert.equal(working.length, 1, `replacements that authenticate: ${working.join(', ')}`);
    },
  );

  it('keeps last_used_at null until first use, then sets an ISO timestamp (asynchronously)', async () => {
    const before = Date.now();
    const k = await create(alice, { label: 'usage' });
    const fresh = (await list(alice)).find((r) => r.id === k.id);
    assert.ok(fresh);
    assert.equal(fresh.last_used_at, null);

    assert.equal((await call(base, 'GET', '/v1/api_keys', { token: k.raw_key })).status, 200);
    let seen: string | null = null;
    for (let i = 0; i < 50 && seen === null; i++) {
      seen = (await list(alice)).find((r) => r.id === k.id)?.last_used_at ?? null;
      if (seen === null) await sleep(100);
    }
    assert.notEqual(seen, null, 'last_used_at set within 5 s of a use');
    assertIsoTimestamp(seen, 'last_used_at');
    const usedAt = Date.parse(seen!);
    assert.ok(usedAt >= before - 1 && usedAt <= Date.now(), `last_used_at ${seen} lies between creation and now`);
    // A key that has never been used stays null.
    const unused = await create(alice, { label: 'unused' });
    await sleep(50);
    assert.equal((await list(alice)).find((r) => r.id === unused.id)?.last_used_at, null);
  });

  it('stores only a hash: no raw key appears in the LMDB files', async () => {
    const k = await create(alice, { label: 'at-rest' });
    const rotated = (await call<IssuedKey>(base, 'POST', `/v1/api_keys/${k.id}/rotate`, { token: alice })).body;
    const sandbox = await create(alice, { sandbox: true });
    // create/rotate resolve once durable, so the files hold them now.
    const bytes = lmdbBytes(svc.dataDir);
    for (const raw of [k.raw_key, rotated.raw_key, sandbox.raw_key, aliceKey.raw_key]) {
      assert.equal(bytes.indexOf(raw), -1, `raw key ${raw.slice(0, 15)}... found in LMDB`);
      // and not its random part alone either
      assert.equal(bytes.indexOf(raw.slice(9)), -1, 'the random part of a raw key found in LMDB');
    }
    // Positive control: the search does find what is stored (the hash and the display prefix).
    assert.notEqual(bytes.indexOf(sha256Hex(rotated.raw_key)), -1, 'the hash of the key is stored');
    assert.notEqual(bytes.indexOf(rotated.key_prefix), -1, 'the display prefix is stored');
  });
});
