/**
 * Sessions end when their credential does (issue 10): deleting or rotating an API key ends the
 * WebSockets and SSE streams it opened and voids its unredeemed tickets at once; a key
 * deactivated behind the gateway's back (another process) within the re-check interval; a JWT
 * session at the token's `exp`. Real service, real WebSocket and HTTP clients.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { WebSocket } from 'ws';
import { call, startTestService, TEST_JWT_SECRET, type TestService } from '../helpers/service.ts';
import { SseClient } from '../helpers/sse-client.ts';
import { StreamClient } from '../helpers/stream-client.ts';

const CLIENT = 'sessions-client';

function jwt(expiresIn: string | number): Promise<string> {
  return new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(CLIENT).setIssuedAt().setExpirationTime(expiresIn).sign(new TextEncoder().encode(TEST_JWT_SECRET));
}

/** Resolves with the close code and reason, or fails after `timeoutMs`. */
function closed(ws: WebSocket, timeoutMs: number): Promise<{ code: number; reason: string; afterMs: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`still open after ${timeoutMs} ms`)), timeoutMs);
    ws.once('close', (code, reason) => {
      clearTimeout(timer);
      resolve({ code, reason: reason.toString(), afterMs: Date.now() - started });
    });
  });
}

async function within<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${timeoutMs} ms`)), timeoutMs)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

describe('sessions end when their credential does (real service)', () => {
  let svc: TestService;
  let base: string;
  let admin: string; // a JWT of the client, to manage its keys

  const newKey = async (): Promise<{ id: string; raw_key: string }> => {
    const res = await call<{ id: string; raw_key: string }>(base, 'POST', '/v1/api_keys', { token: admin, body: {} });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  };
  const ticket = async (token: string): Promise<string> => {
    const res = await call<{ ticket: string }>(base, 'GET', '/v1/ws/ticket', { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.ticket;
  };
  const wsUrl = (t: string) => `ws://127.0.0.1:${svc.service.port}/v1/stream?ticket=${t}`;

  before(async () => {
    svc = await startTestService({ workers: 1 });
    base = svc.base;
    await svc.service.storage.clients.put({ client_id: CLIENT, tier: 'enterprise', rate_limit_qps: 2000, is_admin: false, created_at_ms: Date.now() });
    admin = await jwt('10m');
  });

  after(async () => {
    await svc?.stop();
  });

  it('deleting a key closes its WebSocket (4401), ends its SSE stream with an end event, and voids its unused ticket; another key is untouched', async () => {
    const key = await newKey();
    const other = await newKey();
    const spare = await ticket(key.raw_key);
    const stream = await StreamClient.open(wsUrl(await ticket(key.raw_key)));
    stream.send({ subscribe: ['orders', 'fills'] });
    await stream.next((f) => f.type === 'subscribed');
    const byHeader = await StreamClient.open(`ws://127.0.0.1:${svc.service.port}/v1/stream`, { authorization: `Bearer ${key.raw_key}` });
    const bystander = await StreamClient.open(wsUrl(await ticket(other.raw_key)));
    const risk = await SseClient.open(svc.service.port, '/v1/risk/stream', key.raw_key);
    assert.equal(risk.status, 200);
    const tca = await SseClient.open(svc.service.port, '/v1/tca/stream', key.raw_key);

    const wsClosed = closed(stream.ws, 5_000);
    const headerClosed = closed(byHeader.ws, 5_000);
    const deleted = await call(base, 'DELETE', `/v1/api_keys/${key.id}`, { token: admin });
    assert.equal(deleted.status, 200);
    const ws = await wsClosed;
    assert.equal(ws.code, 4401);
    assert.equal(ws.reason, 'api key revoked');
    // At once, not by the 2 s sweep that catches keys deactivated by another process (the
    // delete's own round trip is in the figure, and a loaded machine stretches it).
    assert.ok(ws.afterMs < 1_900, `closed ${ws.afterMs} ms after the delete`);
    assert.equal((await headerClosed).code, 4401);
    for (const sse of [risk, tca]) {
      const end = await sse.next('end', 5_000);
      assert.deepEqual(end.data, { code: 4401, reason: 'api key revoked' });
      await within(sse.ended, 2_000, 'the SSE response ends');
    }
    // The ticket minted before the delete no longer connects.
    await assert.rejects(StreamClient.open(wsUrl(spare)), /401/);
    // The other key's connection is still open and served.
    assert.equal(bystander.ws.readyState, WebSocket.OPEN);
    bystander.send({ subscribe: ['orders'] });
    await bystander.next((f) => f.type === 'subscribed');
    bystander.close();
  });

  it('rotating a key ends what the old key opened; the replacement opens new sessions', async () => {
    const key = await newKey();
    const stream = await StreamClient.open(wsUrl(await ticket(key.raw_key)));
    const risk = await SseClient.open(svc.service.port, '/v1/risk/stream', key.raw_key);
    const wsClosed = closed(stream.ws, 5_000);
    const rotated = await call<{ raw_key: string }>(base, 'POST', `/v1/api_keys/${key.id}/rotate`, { token: admin });
    assert.equal(rotated.status, 201);
    assert.equal((await wsClosed).code, 4401);
    await risk.next('end', 5_000);
    const fresh = await StreamClient.open(wsUrl(await ticket(rotated.body.raw_key)));
    assert.equal(fresh.ws.readyState, WebSocket.OPEN);
    fresh.close();
  });

  it('a key deactivated behind the gateway (another process writing LMDB) ends its sessions within the 2 s re-check', async () => {
    const key = await newKey();
    const stream = await StreamClient.open(wsUrl(await ticket(key.raw_key)));
    const record = svc.service.storage.apiKeys.get(CLIENT, key.id)!;
    const wsClosed = closed(stream.ws, 10_000);
    await svc.service.storage.apiKeys.deactivate(record); // storage only: no revokeKey from the route
    const ws = await wsClosed;
    assert.equal(ws.code, 4401);
    // By the re-check (every 2 s), not by chance: well under what a session would otherwise live.
    assert.ok(ws.afterMs <= 6_000, `closed after ${ws.afterMs} ms`);
  });

  it("a JWT session ends at the token's exp", async () => {
    // Seconds enough to open both sessions on a loaded machine before it expires.
    const shortLived = await jwt(Math.floor(Date.now() / 1000) + 5);
    const stream = await StreamClient.open(`ws://127.0.0.1:${svc.service.port}/v1/stream`, { authorization: `Bearer ${shortLived}` });
    const risk = await SseClient.open(svc.service.port, '/v1/risk/stream', shortLived);
    const ws = await closed(stream.ws, 10_000);
    assert.equal(ws.code, 4401);
    assert.equal(ws.reason, 'token expired');
    assert.deepEqual((await risk.next('end', 5_000)).data, { code: 4401, reason: 'token expired' });
  });
});
