/**
 * Health probes and the kill switch against the real service: readiness across a worker crash
 * and restart, admin-only kill switch, the safety probe, the `system` WebSocket channel, and
 * durability of the kill switch across a restart.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_ALGO } from '../../config.ts';
import { SignJWT } from 'jose';
import { CURRENT_SCHEMA_VERSION } from '../../storage/migrations.ts';
import {
  call,
  envelope,
  startTestService,
  TEST_JWT_SECRET,
  TEST_OPERATOR_KEY,
  type JsonResponse,
  type TestService,
} from '../helpers/service.ts';
import { StreamClient, type Frame } from '../helpers/stream-client.ts';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
  .version;

interface KillSwitchState {
  active: boolean;
  reason: string | null;
  updated_at_ms: number | null;
  updated_by: string | null;
}

interface Health {
  status: string;
  version: string;
  uptime_ms: number;
  ready: boolean;
  safe: boolean;
  workers: { thread: number; role: string; state: string; restarts: number; thread_id: number | null }[];
  storage: { open: boolean; schema_version: number; writable: boolean; reason: string | null; write_failures: number; free_bytes: number | null; min_free_bytes: number };
  kill_switch: KillSwitchState;
  ws_connections: number;
}


const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function assertError(res: JsonResponse, status: number, code: string): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(envelope(res.body).code, code);
}

/** Polls until `done` holds for a response, within `timeoutMs`. */
async function pollUntil(
  base: string,
  path: string,
  done: (res: JsonResponse) => boolean,
  timeoutMs: number,
): Promise<JsonResponse> {
  const deadline = Date.now() + timeoutMs;
  let last: JsonResponse | undefined;
  while (Date.now() < deadline) {
    last = await call(base, 'GET', path);
    if (done(last)) return last;
    await sleep(25);
  }
  assert.fail(`${path} did not reach the expected state in ${timeoutMs} ms; last: ${last?.status} ${JSON.stringify(last?.body)}`);
}


const isKillSwitchFrame = (active: boolean) => (f: Frame) =>
  f.type === 'data' && f.channel === 'system' && f.data?.['event'] === 'kill_switch' && f.data['active'] === active;

describe('health and kill switch (real service)', () => {
  let svc: TestService;
  let base: string;
  let liveKey: string; // a non-admin client's live key
  let sandboxKey: string;
  let clientJwt: string;
  const op = TEST_OPERATOR_KEY;

  /** `token` null sends no credentials. */
  const setKillSwitch = (active: boolean, token: string | null = op, reason?: string) =>
    call<{ status: string; kill_switch: KillSwitchState }>(base, 'PUT', '/v1/kill_switch', {
      ...(token !== null ? { token } : {}),
      body: reason === undefined ? { active } : { active, reason },
    });

  before(async () => {
    svc = await startTestService({ workers: 1, algo: DEFAULT_ALGO });
    base = svc.base;
    clientJwt = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('ks-user')
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode(TEST_JWT_SECRET));
    liveKey = (await call<{ raw_key: string }>(base, 'POST', '/v1/api_keys', { token: clientJwt, body: {} })).body.raw_key;
    sandboxKey = (await call<{ raw_key: string }>(base, 'POST', '/v1/api_keys', { token: clientJwt, body: { sandbox: true } }))
      .body.raw_key;
    assert.match(liveKey, /^sqk_live_/);
    assert.match(sandboxKey, /^sqk_test_/);
  });

  after(async () => {
    await svc?.stop();
  });

  it('serves detailed health publicly', async () => {
    const res = await call<Health>(base, 'GET', '/v1/health');
    assert.equal(res.status, 200);
    const h = res.body;
    assert.equal(h.status, 'ok');
    assert.equal(h.version, VERSION);
    assert.ok(Number.isInteger(h.uptime_ms) && h.uptime_ms >= 0);
    assert.equal(h.ready, true);
    assert.equal(h.safe, true);
    // One actor worker and the algo worker after it.
    assert.equal(h.workers.length, 2);
    assert.deepEqual(
      h.workers.map((w) => [w.thread, w.role, w.state, w.restarts]),
      [
        [1, 'actor', 'up', 0],
        [2, 'algo', 'up', 0],
      ],
    );
    assert.equal(typeof h.workers[0]!.thread_id, 'number');
    const { free_bytes, ...storage } = h.storage;
    assert.deepEqual(storage, { open: true, schema_version: CURRENT_SCHEMA_VERSION, writable: true, reason: null, write_failures: 0, min_free_bytes: 64 * 1024 * 1024 });
    assert.ok(free_bytes !== null && free_bytes >= storage.min_free_bytes, `free space is read from the data directory: ${free_bytes}`);
    assert.deepEqual(h.kill_switch, { active: false, reason: null, updated_at_ms: null, updated_by: null });
    assert.ok(Number.isInteger(h.ws_connections) && h.ws_connections >= 0);
  });

  it('answers live and ready with 200 while up', async () => {
    const live = await call<{ status: string; uptime_ms: number }>(base, 'GET', '/v1/health/live');
    assert.equal(live.status, 200);
    assert.equal(live.body.status, 'alive');
    const ready = await call<{ ready: boolean; workers: number }>(base, 'GET', '/v1/health/ready');
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.body, { ready: true, workers: 1 });
    const safety = await call(base, 'GET', '/v1/health/safety');
    assert.equal(safety.status, 200);
    assert.deepEqual(safety.body, { safe: true, kill_switch_active: false });
  });

  it('reports not ready (503) after a worker dies, and ready again once it is restarted', async () => {
    await svc.service.topology.killWorker(1);
    const down = await pollUntil(base, '/v1/health/ready', (r) => r.status === 503, 3_000);
    assertError(down, 503, 'NOT_READY');
    // Liveness does not depend on the workers.
    assert.equal((await call(base, 'GET', '/v1/health/live')).status, 200);

    const up = await pollUntil(base, '/v1/health/ready', (r) => r.status === 200, 30_000);
    assert.deepEqual(up.body, { ready: true, workers: 1 });
    const health = (await call<Health>(base, 'GET', '/v1/health')).body;
    assert.equal(health.ready, true);
    assert.equal(health.status, 'ok');
    assert.equal(health.workers[0]!.state, 'up');
    assert.equal(health.workers[0]!.restarts, 1);
  });

  it('refuses the kill switch to non-admins (403) and to anonymous callers (401), changing nothing', async () => {
    for (const token of [liveKey, sandboxKey, clientJwt]) {
      const res = await setKillSwitch(true, token, 'not allowed');
      assertError(res, 403, 'FORBIDDEN');
      assert.equal(envelope(res.body).request_id, res.headers.get('x-request-id'));
    }
    assertError(await setKillSwitch(true, null), 401, 'UNAUTHENTICATED');
    assert.equal((await call(base, 'GET', '/v1/health/safety')).status, 200);
    assert.equal((await call<Health>(base, 'GET', '/v1/health')).body.kill_switch.active, false);
  });

  it('lets the operator halt and release dispatch; safety and the system channel follow', async () => {
    const ticket = (await call<{ ticket: string }>(base, 'GET', '/v1/ws/ticket', { token: op })).body.ticket;
    const stream = await StreamClient.open(`ws://127.0.0.1:${svc.service.port}/v1/stream?ticket=${ticket}`);
    try {
      stream.send({ subscribe: ['system'] });
      assert.deepEqual(await stream.next((f) => f.type === 'subscribed'), { type: 'subscribed', channels: ['system'] });

      const before = Date.now();
      const on = await setKillSwitch(true, op, 'incident 42');
      assert.equal(on.status, 200, JSON.stringify(on.body));
      assert.equal(on.body.status, 'active');
      assert.equal(on.body.kill_switch.active, true);
      assert.equal(on.body.kill_switch.reason, 'incident 42');
      assert.equal(on.body.kill_switch.updated_by, 'operator');
      assert.ok((on.body.kill_switch.updated_at_ms ?? 0) >= before);

      const halted = await call(base, 'GET', '/v1/health/safety');
      assertError(halted, 503, 'DISPATCH_HALTED');
      assert.match(envelope(halted.body).message, /incident 42/);
      const health = (await call<Health>(base, 'GET', '/v1/health')).body;
      assert.equal(health.safe, false);
      assert.equal(health.status, 'halted');
      assert.equal(health.kill_switch.active, true);

      const frameOn = await stream.next(isKillSwitchFrame(true));
      assert.equal(frameOn.data?.['reason'], 'incident 42');
      assert.equal(typeof frameOn.ts_ns, 'number');

      const off = await setKillSwitch(false);
      assert.equal(off.status, 200);
      assert.equal(off.body.status, 'inactive');
      assert.equal(off.body.kill_switch.reason, null);
      const safe = await call(base, 'GET', '/v1/health/safety');
      assert.equal(safe.status, 200);
      assert.deepEqual(safe.body, { safe: true, kill_switch_active: false });
      await stream.next(isKillSwitchFrame(false));
      assert.equal((await call<Health>(base, 'GET', '/v1/health')).body.status, 'ok');
    } finally {
      stream.close();
    }
  });

  it('keeps the kill switch across a restart', async () => {
    const on = await setKillSwitch(true, op, 'survive restart');
    assert.equal(on.status, 200);
    const dataDir = svc.dataDir;
    await svc.stop(false);
    svc = await startTestService({ workers: 1, dataDir });
    base = svc.base;

    const halted = await call(base, 'GET', '/v1/health/safety');
    assertError(halted, 503, 'DISPATCH_HALTED');
    const health = (await call<Health>(base, 'GET', '/v1/health')).body;
    assert.equal(health.kill_switch.active, true);
    assert.equal(health.kill_switch.reason, 'survive restart');
    assert.equal(health.kill_switch.updated_by, 'operator');

    // Released, and that survives a restart too.
    assert.equal((await setKillSwitch(false)).status, 200);
    await svc.stop(false);
    svc = await startTestService({ workers: 1, dataDir });
    base = svc.base;
    assert.equal((await call(base, 'GET', '/v1/health/safety')).status, 200);
  });
});
