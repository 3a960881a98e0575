/**
 * The unified WebSocket `/v1/stream` against the real service: tickets (single use), bearer
 * auth at the upgrade, refused upgrades with the error envelope, subscribe/unsubscribe acks and
 * error frames, and the 426 for plain HTTP.
 */
import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { TICKET_TTL_MS, TicketStore } from '../../gateway/auth/tickets.ts';
import type { Principal } from '../../gateway/auth/principal.ts';
import { call, envelope, startTestService, TEST_OPERATOR_KEY, type TestService } from '../helpers/service.ts';
import { StreamClient } from '../helpers/stream-client.ts';


interface Refused {
  status: number;
  headers: IncomingHttpHeaders;
  body: unknown;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));


/** Attempts an upgrade that must be refused; resolves with the HTTP answer. */
function refusedUpgrade(url: string, headers: Record<string, string> = {}): Promise<Refused> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers, handshakeTimeout: 5_000 });
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error('no answer to the upgrade within 5 s'));
    }, 5_000);
    ws.once('open', () => {
      clearTimeout(timer);
      ws.terminate();
      reject(new Error('the upgrade was accepted'));
    });
    ws.once('unexpected-response', (_req, res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        clearTimeout(timer);
        ws.terminate();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text === '' ? undefined : (JSON.parse(text) as unknown) });
      });
    });
    ws.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

describe('unified WebSocket /v1/stream (real service)', () => {
  let svc: TestService;
  let base: string;
  let wsBase: string;
  const op = TEST_OPERATOR_KEY;
  const open: StreamClient[] = [];

  const ticket = async (token = op): Promise<string> => {
    const res = await call<{ ticket: string }>(base, 'GET', '/v1/ws/ticket', { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.ticket;
  };
  const connect = async (): Promise<StreamClient> => {
    const client = await StreamClient.open(`${wsBase}/v1/stream?ticket=${await ticket()}`);
    open.push(client);
    return client;
  };

  before(async () => {
    svc = await startTestService({ workers: 1 });
    base = svc.base;
    wsBase = `ws://127.0.0.1:${svc.service.port}`;
  });

  after(async () => {
    for (const c of open) c.close();
    await svc?.stop();
  });

  it('issues a short-lived ticket', async () => {
    const before = Date.now();
    const res = await call<{ ticket: string; expires_in_ms: number; expires_at: string }>(base, 'GET', '/v1/ws/ticket', {
      token: op,
    });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['expires_at', 'expires_in_ms', 'ticket']);
    assert.match(res.body.ticket, /^[A-Za-z0-9_]{16,}$/);
    assert.ok(Number.isInteger(res.body.expires_in_ms));
    assert.ok(res.body.expires_in_ms > 0 && res.body.expires_in_ms <= 60_000, `${res.body.expires_in_ms} ms`);
    const expiresAt = Date.parse(res.body.expires_at);
    assert.ok(Number.isFinite(expiresAt) && expiresAt > before, res.body.expires_at);
    assert.notEqual(await ticket(), res.body.ticket, 'tickets are distinct');
    const anonymous = await call(base, 'GET', '/v1/ws/ticket');
    assert.equal(anonymous.status, 401);
    assert.equal(envelope(anonymous.body).code, 'UNAUTHENTICATED');
  });

  it('accepts a ticket once; a reused or unknown ticket is refused with 401 and the envelope', async () => {
    const t = await ticket();
    const client = await StreamClient.open(`${wsBase}/v1/stream?ticket=${t}`);
    open.push(client);
    assert.equal(client.ws.readyState, WebSocket.OPEN);

    const reused = await refusedUpgrade(`${wsBase}/v1/stream?ticket=${t}`);
    assert.equal(reused.status, 401);
    assert.match(String(reused.headers['content-type']), /^application\/json/);
    const err = envelope(reused.body);
    assert.equal(err.code, 'UNAUTHENTICATED');
    assert.equal(err.request_id, reused.headers['x-request-id']);

    const unknown = await refusedUpgrade(`${wsBase}/v1/stream?ticket=wst_${'x'.repeat(32)}`);
    assert.equal(unknown.status, 401);
    assert.equal(envelope(unknown.body).code, 'UNAUTHENTICATED');
    // A ticket does not fall back to the bearer header when it is bad.
    const badTicketGoodBearer = await refusedUpgrade(`${wsBase}/v1/stream?ticket=nope`, { authorization: `Bearer ${op}` });
    assert.equal(badTicketGoodBearer.status, 401);
  });

  it('accepts a bearer header at the upgrade (operator key and API key)', async () => {
    const viaOperator = await StreamClient.open(`${wsBase}/v1/stream`, { authorization: `Bearer ${op}` });
    open.push(viaOperator);
    viaOperator.send({ subscribe: ['system'] });
    assert.deepEqual(await viaOperator.next(), { type: 'subscribed', channels: ['system'] });

    const key = (await call<{ raw_key: string }>(base, 'POST', '/v1/api_keys', { token: op, body: {} })).body.raw_key;
    const viaKey = await StreamClient.open(`${wsBase}/v1/stream`, { authorization: `Bearer ${key}` });
    open.push(viaKey);
    assert.equal(viaKey.ws.readyState, WebSocket.OPEN);
  });

  it('refuses an upgrade without credentials, or with bad ones, with 401', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer sqk_live_00000000000000000000000000000000' },
      { authorization: 'Basic eDp5' },
    ];
    for (const headers of attempts) {
      const res = await refusedUpgrade(`${wsBase}/v1/stream`, headers);
      assert.equal(res.status, 401, JSON.stringify(headers));
      assert.equal(envelope(res.body).code, 'UNAUTHENTICATED');
    }
  });

  it(
    'replaces an invalid X-Request-Id on a refused upgrade, as on HTTP',
    async () => {
      const bad = 'has spaces in it';
      const res = await refusedUpgrade(`${wsBase}/v1/stream`, { 'x-request-id': bad });
      assert.equal(res.status, 401);
      assert.notEqual(res.headers['x-request-id'], bad);
      assert.notEqual(envelope(res.body).request_id, bad);
      assert.match(envelope(res.body).request_id, /^[A-Za-z0-9._:-]{1,128}$/);
    },
  );

  it('acknowledges a subscription to a known channel', async () => {
    const c = await connect();
    c.send({ subscribe: ['system'] });
    assert.deepEqual(await c.next(), { type: 'subscribed', channels: ['system'] });
    // Subscribing again is harmless and acknowledged again.
    c.send({ subscribe: ['system'] });
    assert.deepEqual(await c.next(), { type: 'subscribed', channels: ['system'] });
  });

  it('answers an unknown channel with an UNKNOWN_CHANNEL error frame naming it', async () => {
    const c = await connect();
    c.send({ subscribe: ['nope:XYZ'] });
    const frame = await c.next();
    assert.equal(frame.type, 'error');
    assert.ok(frame.error);
    assert.deepEqual(Object.keys(frame.error).sort(), ['code', 'details', 'message', 'request_id']);
    assert.equal(frame.error.code, 'UNKNOWN_CHANNEL');
    assert.equal(typeof frame.error.message, 'string');
    assert.equal(typeof frame.error.request_id, 'string');
    assert.equal(frame.error.details.length, 1);
    assert.equal(frame.error.details[0]!.field, 'subscribe[0]');
    assert.match(frame.error.details[0]!.message, /nope:XYZ/);
  });

  it('acknowledges the known channels of a mixed list and reports each unknown one', async () => {
    const c = await connect();
    c.send({ subscribe: ['bogus', 'system', 'prices:'] });
    const frames = [await c.next(), await c.next()];
    const ack = frames.find((f) => f.type === 'subscribed');
    const err = frames.find((f) => f.type === 'error');
    assert.deepEqual(ack, { type: 'subscribed', channels: ['system'] });
    assert.equal(err?.error?.code, 'UNKNOWN_CHANNEL');
    assert.deepEqual(
      err?.error?.details.map((d) => d.field),
      ['subscribe[0]', 'subscribe[2]'],
    );
  });

  it('answers malformed messages with VALIDATION_ERROR frames and keeps the connection', async () => {
    const c = await connect();
    for (const bad of ['{not json', '"just a string"', '{}', '{"subscribe": "system"}', '{"subscribe": [1]}', '{"subscribe": [""]}']) {
      c.send(bad);
      const frame = await c.next();
      assert.equal(frame.type, 'error', bad);
      assert.equal(frame.error?.code, 'VALIDATION_ERROR', bad);
      assert.ok((frame.error?.details.length ?? 0) >= 1, bad);
    }
    c.send({ subscribe: ['system'] });
    assert.deepEqual(await c.next(), { type: 'subscribed', channels: ['system'] });
  });

  it('acknowledges an unsubscribe, after which the channel delivers nothing more', async () => {
    const leaving = await connect();
    const staying = await connect();
    for (const c of [leaving, staying]) {
      c.send({ subscribe: ['system'] });
      assert.deepEqual(await c.next(), { type: 'subscribed', channels: ['system'] });
    }
    leaving.send({ unsubscribe: ['system'] });
    assert.deepEqual(await leaving.next(), { type: 'unsubscribed', channels: ['system'] });

    const on = await call(base, 'PUT', '/v1/kill_switch', { token: op, body: { active: true, reason: 'ws test' } });
    assert.equal(on.status, 200);
    const off = await call(base, 'PUT', '/v1/kill_switch', { token: op, body: { active: false } });
    assert.equal(off.status, 200);
    const first = await staying.next();
    assert.equal(first.type, 'data');
    assert.equal(first.channel, 'system');
    assert.equal(first.data?.['event'], 'kill_switch');
    assert.equal(first.data?.['active'], true);
    assert.equal((await staying.next()).data?.['active'], false);

    // Frames on one connection keep their order: had `leaving` still been subscribed, the two
    // kill-switch frames would come before the answer to this later message.
    leaving.send({ subscribe: ['nope'] });
    const next = await leaving.next();
    assert.equal(next.type, 'error', `expected the answer, got ${JSON.stringify(next)}`);
  });

  it('counts open connections in /v1/health', async () => {
    const count = async () => (await call<{ ws_connections: number }>(base, 'GET', '/v1/health')).body.ws_connections;
    const before = await count();
    const c = await connect();
    assert.equal(await count(), before + 1);
    c.close();
    const deadline = Date.now() + 5_000;
    while ((await count()) !== before && Date.now() < deadline) await sleep(20);
    assert.equal(await count(), before);
  });

  it('charges the upgrade to the client rate limit', async () => {
    await svc.service.storage.clients.put({ client_id: 'ws-free', tier: 'free', rate_limit_qps: 5, is_admin: false, created_at_ms: Date.now() });
    const key = (await svc.service.storage.apiKeys.create('ws-free', { label: null, sandbox: false })).raw_key;
    // Spend the burst over HTTP, then upgrade at once. A token may come back if the machine is
    // slow (one per 200 ms); only a quick attempt is conclusive, so retry a few times.
    for (let attempt = 0; attempt < 5; attempt++) {
      let limitedAt = 0;
      for (let i = 0; i < 40 && limitedAt === 0; i++) {
        const sent = performance.now();
        if ((await call(base, 'GET', '/v1/api_keys', { token: key })).status === 429) limitedAt = sent;
      }
      assert.ok(limitedAt > 0, 'the burst ran out');
      try {
        const res = await refusedUpgrade(`${wsBase}/v1/stream`, { authorization: `Bearer ${key}` });
        assert.equal(res.status, 429);
        assert.equal(envelope(res.body).code, 'RATE_LIMITED');
        assert.equal(envelope(res.body).message, 'rate limit exceeded');
        return;
      } catch (err) {
        if (performance.now() - limitedAt < 150) throw err;
        await sleep(2_100); // let the bucket refill fully, then try again
      }
    }
    assert.fail('no conclusive attempt');
  });

  it('answers a plain HTTP GET /v1/stream with 426 and the envelope', async () => {
    const res = await call(base, 'GET', '/v1/stream');
    assert.equal(res.status, 426);
    assert.equal(envelope(res.body).code, 'UPGRADE_REQUIRED');
    assert.equal(res.headers.get('upgrade')?.toLowerCase(), 'websocket');
  });
});

describe('WebSocket tickets (TicketStore, injected clock)', () => {
  const principal = { client_id: 'c1', mode: 'live' } as unknown as Principal;

  it('redeems a ticket once, before it expires', () => {
    const store = new TicketStore();
    const { ticket, expiresAtMs } = store.issue(principal, 1_000);
    assert.equal(expiresAtMs, 1_000 + TICKET_TTL_MS);
    assert.equal(store.redeem(ticket, 1_000 + TICKET_TTL_MS - 1), principal);
    assert.equal(store.redeem(ticket, 1_001), undefined, 'single use');
  });

  it('refuses an expired ticket and forgets it', () => {
    const store = new TicketStore();
    const { ticket } = store.issue(principal, 1_000);
    assert.equal(store.redeem(ticket, 1_000 + TICKET_TTL_MS), undefined);
    assert.equal(store.size, 0);
    assert.equal(store.redeem('wst_unknown', 1_000), undefined);
  });

  it('sweeps expired tickets', () => {
    const store = new TicketStore();
    store.issue(principal, 0);
    const live = store.issue(principal, 20_000).ticket;
    store.sweep(TICKET_TTL_MS + 1);
    assert.equal(store.size, 1);
    assert.equal(store.redeem(live, TICKET_TTL_MS + 1), principal);
  });
});
