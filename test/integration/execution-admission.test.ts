/**
 * Order admission against the real service: idempotency on `client_order_id` and on the
 * `Idempotency-Key` header (same request -> 200 with the original order, different -> 409
 * IDEMPOTENCY_CONFLICT, per client), and every malformed request answered with a 4xx error
 * envelope naming the field, with no state change (orders, fills and positions counted before
 * and after). Also the per-order notional cap of pre-trade risk.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { call, envelope, startTestService, type JsonResponse, type TestService, until } from '../helpers/service.ts';

const SYMBOL = 'BTC-USDT';
const FUNDED = ['binance', 'okx', 'bybit'];
const TERMINAL = new Set(['COMPLETED', 'CANCELLED', 'REJECTED', 'UNRESOLVED']);
/** The per-order notional cap this file's service runs with, USD. */
const CAP_USD = 50_000;

interface Order {
  node_order_id: string;
  client_order_id: string;
  status: string;
  qty_1e8: number;
  filled_qty_1e8: number;
  execution_type: string;
  failure_class: string | null;
  [k: string]: unknown;
}

function assertError(res: JsonResponse, status: number, code: string, field?: string): void {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  const err = envelope(res.body);
  assert.equal(err.code, code, JSON.stringify(res.body));
  assert.equal(err.request_id, res.headers.get('x-request-id'), 'request_id echoes the X-Request-Id header');
  if (field !== undefined) {
    assert.ok(err.details.some((d) => d.field === field), `details name ${field}: ${JSON.stringify(err.details)}`);
    for (const d of err.details) assert.equal(typeof d.message, 'string', 'each detail has a message');
  }
}

/** What `getHeader` may hand over as a request id (gateway/http/pipeline.ts). */
const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * One HTTP/1.1 request over a raw socket, so header bytes go out exactly as given: fetch sends
 * header values as latin1 and refuses characters above U+00FF, so it cannot send UTF-8.
 */
function rawRequest(base: string, method: string, path: string, headers: [string, string | Buffer][], body?: string): Promise<JsonResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error(`raw ${method} ${path}: no answer within 10 s`)));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks);
      const split = raw.indexOf('\r\n\r\n');
      if (split < 0) {
        reject(new Error(`raw ${method} ${path}: not an HTTP response: ${JSON.stringify(raw.toString('latin1'))}`));
        return;
      }
      const [statusLine, ...lines] = raw.subarray(0, split).toString('latin1').split('\r\n');
      const responseHeaders = new Headers();
      for (const line of lines) {
        const colon = line.indexOf(':');
        responseHeaders.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      }
      const text = raw.subarray(split + 4).toString('utf8');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine ?? '')?.[1]), headers: responseHeaders, body: text === '' ? undefined : JSON.parse(text) });
    });
    const head = [`${method} ${path} HTTP/1.1`, `Host: ${url.host}`, 'Connection: close'];
    if (body !== undefined) head.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`);
    const parts: Buffer[] = [Buffer.from(`${head.join('\r\n')}\r\n`, 'latin1')];
    for (const [name, value] of headers) parts.push(Buffer.from(`${name}: `, 'latin1'), typeof value === 'string' ? Buffer.from(value, 'latin1') : value, Buffer.from('\r\n', 'latin1'));
    parts.push(Buffer.from('\r\n', 'latin1'));
    if (body !== undefined) parts.push(Buffer.from(body, 'utf8'));
    socket.write(Buffer.concat(parts));
  });
}

/** Starts `n` requests in one synchronous loop; fetch opens a connection for each concurrent one. */
function together<T>(n: number, f: (i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => f(i)));
}

describe('execution: idempotency and validation (real service)', () => {
  let svc: TestService;
  let base: string;
  let token: string;
  let clientSeq = 0;

  const newClient = async (): Promise<string> => {
    const storage = svc.service.storage;
    const clientId = `admission-${++clientSeq}`;
    await storage.clients.put({ client_id: clientId, tier: 'enterprise', rate_limit_qps: 2_000, is_admin: false, created_at_ms: Date.now() });
    return (await storage.apiKeys.create(clientId, { label: 'execution-test', sandbox: false })).raw_key;
  };

  const fund = async (key: string) => {
    for (const venue of FUNDED) {
      const body = { api_key: `key-${venue}-0123456789`, api_secret: `secret-${venue}-0123456789abcdef`, ...(venue === 'okx' ? { passphrase: 'pass' } : {}) };
      const res = await call(base, 'POST', `/v1/credentials/${venue}`, { token: key, body });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    await until('accounts opened', async () => {
      const p = await call<{ positions: { venue: string }[] }>(base, 'GET', '/v1/positions', { token: key });
      return FUNDED.every((v) => p.body.positions.some((r) => r.venue === v)) ? true : undefined;
    });
  };

  const submit = (key: string, body: unknown, headers: Record<string, string> = {}) => call<Order>(base, 'POST', '/v1/orders', { token: key, body, headers });

  const waitTerminal = (key: string, id: string): Promise<Order> =>
    until(`order ${id} terminal`, async () => {
      const res = await call<Order>(base, 'GET', `/v1/orders/${id}`, { token: key });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return TERMINAL.has(res.body.status) ? res.body : undefined;
    });

  /** Everything a request could change for the client: its orders, its fills and its positions. */
  const state = async (key: string) => {
    const orders = await call<{ orders: Order[]; total: number }>(base, 'GET', '/v1/orders?limit=1000', { token: key });
    const fills = await call<{ total: number }>(base, 'GET', '/v1/fills?limit=1000', { token: key });
    const positions = await call<{ positions: { venue: string; instrument: unknown; qty_1e8: number; locked_qty_1e8: number }[] }>(
      base, 'GET', '/v1/positions?include_closed=true', { token: key },
    );
    return {
      orders: orders.body.orders.map((o) => [o.node_order_id, o.status, o.filled_qty_1e8]),
      orderTotal: orders.body.total,
      fills: fills.body.total,
      positions: positions.body.positions.map((p) => [p.venue, JSON.stringify(p.instrument), p.qty_1e8, p.locked_qty_1e8]),
    };
  };

  const market = (coid: string, qty = 1_000_000, extra: Record<string, unknown> = {}) => ({
    client_order_id: coid,
    symbol: SYMBOL,
    side: 'buy',
    qty_1e8: qty,
    order_type: 'market',
    ...extra,
  });

  before(async () => {
    svc = await startTestService({ maxOrderNotionalUsd: CAP_USD });
    base = svc.base;
    await until('service ready', async () => ((await call(base, 'GET', '/v1/health/ready')).status === 200 ? true : undefined), 30_000);
    token = await newClient();
    await fund(token);
    await until('a live BTC-USDT quote', async () => {
      const res = await call<{ source: string }>(base, 'GET', `/v1/quotes/${SYMBOL}`, { token });
      return res.status === 200 && res.body.source === 'edge_nbbo' ? true : undefined;
    }, 15_000, 100);
  });

  after(async () => {
    await svc?.stop();
  });

  it('the same client_order_id with the same body returns the original order with 200; nothing is placed twice', async () => {
    const first = await submit(token, market('idem-same-1'));
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const done = await waitTerminal(token, first.body.node_order_id);
    const before = await state(token);

    for (let i = 0; i < 3; i++) {
      const again = await submit(token, market('idem-same-1'));
      assert.equal(again.status, 200, JSON.stringify(again.body));
      assert.equal(again.body.node_order_id, first.body.node_order_id);
      assert.equal(again.body.client_order_id, 'idem-same-1');
      assert.equal(again.body.status, done.status, 'the original order as it is now');
      assert.equal(again.body.filled_qty_1e8, done.filled_qty_1e8);
    }
    // Key order in the body does not matter: the fingerprint is over the canonical request.
    const reordered = await submit(token, { order_type: 'market', qty_1e8: 1_000_000, side: 'buy', symbol: SYMBOL, client_order_id: 'idem-same-1' });
    assert.equal(reordered.status, 200, JSON.stringify(reordered.body));
    assert.equal(reordered.body.node_order_id, first.body.node_order_id);
    assert.deepEqual(await state(token), before, 'no second order, fill or position change');
  });

  it('the same client_order_id with a different body is 409 IDEMPOTENCY_CONFLICT and changes nothing', async () => {
    const first = await submit(token, market('idem-diff-1'));
    assert.equal(first.status, 201, JSON.stringify(first.body));
    await waitTerminal(token, first.body.node_order_id);
    const before = await state(token);
    const variants = [
      market('idem-diff-1', 2_000_000),
      { ...market('idem-diff-1'), side: 'sell' },
      { ...market('idem-diff-1'), symbol: 'ETH-USDT' },
      { ...market('idem-diff-1'), venue: 'binance' },
      { ...market('idem-diff-1'), start_armed: true },
      { ...market('idem-diff-1'), order_type: 'limit', limit_price_1e9: 1_000_000_000, time_in_force: 'ioc' },
    ];
    for (const body of variants) {
      const res = await submit(token, body);
      assertError(res, 409, 'IDEMPOTENCY_CONFLICT');
      assert.match(envelope(res.body).message, /idem-diff-1/);
    }
    // The original is still answered.
    assert.equal((await submit(token, market('idem-diff-1'))).status, 200);
    assert.deepEqual(await state(token), before);
  });

  it('a rejected order is idempotent too: the retry gets the same rejection, not a second try', async () => {
    // Above the per-order notional cap: routed, then rejected by pre-trade risk.
    const body = market('idem-rejected-1', 100_000_000); // 1 BTC, about $95k > $50k cap
    const first = await submit(token, body);
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.equal(first.body.status, 'REJECTED');
    assert.equal(first.body.failure_class, 'risk_notional_cap');
    assert.equal(first.body.filled_qty_1e8, 0);
    assert.deepEqual(first.body['children'], [], 'nothing was sent to a venue');
    const before = await state(token);
    const again = await submit(token, body);
    assert.equal(again.status, 200);
    assert.equal(again.body.node_order_id, first.body.node_order_id);
    assert.equal(again.body.status, 'REJECTED');
    assert.deepEqual(await state(token), before);
  });

  it('the Idempotency-Key header has the same semantics; a malformed key is 400', async () => {
    const headers = { 'idempotency-key': 'idem-header-1' };
    const first = await submit(token, market('hdr-body-a'), headers);
    assert.equal(first.status, 201, JSON.stringify(first.body));
    await waitTerminal(token, first.body.node_order_id);
    const before = await state(token);

    const again = await submit(token, market('hdr-body-a'), headers);
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.body.node_order_id, first.body.node_order_id);
    // The order keeps the body's client_order_id, and answers to it as well as to the header.
    assert.equal(first.body.client_order_id, 'hdr-body-a', 'the body id is the order id');
    const byBody = await submit(token, market('hdr-body-a'));
    assert.equal(byBody.status, 200, `the body id alone finds the order: ${JSON.stringify(byBody.body)}`);
    assert.equal(byBody.body.node_order_id, first.body.node_order_id, 'the same order by its client_order_id');
    assert.equal('idempotency_key' in first.body, false, 'the header key is not echoed');

    assertError(await submit(token, market('hdr-body-a', 3_000_000), headers), 409, 'IDEMPOTENCY_CONFLICT');
    assertError(await submit(token, market('hdr-body-b'), headers), 409, 'IDEMPOTENCY_CONFLICT');
    assert.deepEqual(await state(token), before);

    for (const bad of ['has space', 'x'.repeat(129), 'semi;colon', 'a/b', 'quote"d']) {
      const res = await call(base, 'POST', '/v1/orders', { token, body: market('hdr-bad-key'), headers: { 'idempotency-key': bad } });
      assertError(res, 400, 'VALIDATION_ERROR', 'Idempotency-Key');
    }
    assert.deepEqual(await state(token), before, 'a malformed key places nothing');
    // The body's client_order_id of the refused requests was not consumed either.
    const later = await submit(token, market('hdr-bad-key'));
    assert.equal(later.status, 201, JSON.stringify(later.body));
    await waitTerminal(token, later.body.node_order_id);
  });

  it('an Idempotency-Key with a non-ASCII or control byte the gateway can see, or an empty one, is 400 and places nothing', async () => {
    const key = await newClient();
    const body = market('non-ascii-1', 1_000_000, { start_armed: true });
    const keyDetail = (res: JsonResponse): string => envelope(res.body).details.find((d) => d.field === 'Idempotency-Key')?.message ?? '';
    // What uWS hands over keeps the bytes inside a value, one character per byte.
    const inside: [string, string | Buffer][] = [
      ['latin1 é inside (as fetch sends it)', 'k\u00e9y-1'],
      ['UTF-8 é inside', Buffer.from('kéy-1', 'utf8')],
      ['UTF-8 emoji inside', Buffer.from('a😀b', 'utf8')],
      ['invalid UTF-8 inside', Buffer.from([0x6b, 0xc3, 0x79])],
      ['DEL inside', Buffer.from([0x6b, 0x7f, 0x79])],
      ['HTAB inside', 'k\ty'],
    ];
    for (const [name, value] of inside) {
      const res = typeof value === 'string' && name.includes('fetch')
        ? await submit(key, body, { 'idempotency-key': value })
        : await rawRequest(base, 'POST', '/v1/orders', [['Authorization', `Bearer ${key}`], ['Idempotency-Key', value]], JSON.stringify(body));
      assertError(res, 400, 'VALIDATION_ERROR', 'Idempotency-Key');
      assert.match(keyDetail(res), /visible ASCII/, `${name}: the detail says why`);
    }
    // A value made only of such bytes arrives empty: present, so refused, not taken as absent.
    const empty: [string, string | Buffer][] = [
      ['empty', ''],
      ['UTF-8 ü only', Buffer.from('ü', 'utf8')],
      ['latin1 ü only', Buffer.from([0xfc])],
      ['spaces only', '   '],
    ];
    for (const [name, value] of empty) {
      const res = await rawRequest(base, 'POST', '/v1/orders', [['Authorization', `Bearer ${key}`], ['Idempotency-Key', value]], JSON.stringify(body));
      assertError(res, 400, 'VALIDATION_ERROR', 'Idempotency-Key');
      assert.match(keyDetail(res), /empty/, `${name}: the detail says why`);
    }
    const listed = await call<{ total: number }>(base, 'GET', '/v1/orders', { token: key });
    assert.equal(listed.body.total, 0, 'no refused request placed an order');
    // The raw path itself works: a plain ASCII key over the same socket code is accepted.
    const ok = await rawRequest(base, 'POST', '/v1/orders', [['Authorization', `Bearer ${key}`], ['Idempotency-Key', 'ascii-key-1']], JSON.stringify(body));
    assert.equal(ok.status, 201, `an ASCII key: ${JSON.stringify(ok.body)}`);
    const again = await rawRequest(base, 'POST', '/v1/orders', [['Authorization', `Bearer ${key}`], ['Idempotency-Key', 'ascii-key-1']], JSON.stringify(body));
    assert.equal(again.status, 200, `the key as sent finds the order: ${JSON.stringify(again.body)}`);
    assert.equal((again.body as Order).node_order_id, (ok.body as Order).node_order_id, 'stored under the key as sent');
  });

  it('an X-Request-Id with a non-ASCII or control byte is ignored and one is generated', async () => {
    const bad: [string, string | Buffer][] = [
      ['latin1 é inside (as fetch sends it)', 'r\u00e9q-1'],
      ['UTF-8 é inside', Buffer.from('réq-1', 'utf8')],
      ['DEL inside', Buffer.from([0x72, 0x7f, 0x71])],
      ['HTAB inside', 'r\tq'],
      ['UTF-8 ü only', Buffer.from('ü', 'utf8')],
    ];
    for (const [name, value] of bad) {
      const res = typeof value === 'string' && name.includes('fetch')
        ? await call(base, 'GET', '/v1/no-such-route', { headers: { 'x-request-id': value } })
        : await rawRequest(base, 'GET', '/v1/no-such-route', [['X-Request-Id', value]]);
      assertError(res, 404, 'NOT_FOUND');
      const id = envelope(res.body).request_id;
      assert.match(id, VALID_REQUEST_ID, `${name}: a generated id`);
      assert.notEqual(id, typeof value === 'string' ? value : value.toString('latin1'), `${name}: not the one sent`);
    }
    // A valid id over the raw socket is echoed; with a refused Idempotency-Key the 400 carries it.
    const echoed = await rawRequest(base, 'GET', '/v1/no-such-route', [['X-Request-Id', 'trace-raw-1']]);
    assert.equal(envelope(echoed.body).request_id, 'trace-raw-1', 'a valid id is kept');
    const both = await rawRequest(
      base,
      'POST',
      '/v1/orders',
      [['Authorization', `Bearer ${token}`], ['X-Request-Id', Buffer.from('réq-2', 'utf8')], ['Idempotency-Key', Buffer.from('kéy-2', 'utf8')]],
      JSON.stringify(market('non-ascii-both')),
    );
    assertError(both, 400, 'VALIDATION_ERROR', 'Idempotency-Key');
    assert.match(envelope(both.body).request_id, VALID_REQUEST_ID, 'the 400 carries a generated id');
  });

  it(
    'a non-ASCII byte at either end of the Idempotency-Key is refused too, not trimmed into another key',
    {
      todo:
        'uWS limitation, not fixable in the gateway: uWS\'s HTTP parser trims header values with a signed-char `< 33` test, so every ' +
        'byte >= 0x80 at either end of a value is dropped before getHeader or forEach sees it ("ünï" arrives as "n", "üx" as "x"). ' +
        'The gateway refuses the non-ASCII bytes it can see (inside a value, or a value left empty); this needs a uWS build that ' +
        'trims only SP and HTAB (the fix oven-sh/bun#27269 made in its uWS copy)',
    },
    async () => {
      const key = await newClient();
      const body = market('non-ascii-edge-1', 1_000_000, { start_armed: true });
      const res = await submit(key, body, { 'idempotency-key': 'ünï' });
      assertError(res, 400, 'VALIDATION_ERROR', 'Idempotency-Key');
      const listed = await call<{ total: number }>(base, 'GET', '/v1/orders', { token: key });
      assert.equal(listed.body.total, 0, 'nothing placed');
    },
  );

  it('idempotency is per client: another client may reuse the same client_order_id', async () => {
    const other = await newClient();
    await fund(other);
    const mine = await submit(token, market('shared-coid-1'));
    const theirs = await submit(other, market('shared-coid-1'));
    assert.equal(mine.status, 201, JSON.stringify(mine.body));
    assert.equal(theirs.status, 201, JSON.stringify(theirs.body));
    assert.notEqual(mine.body.node_order_id, theirs.body.node_order_id);
    await waitTerminal(token, mine.body.node_order_id);
    await waitTerminal(other, theirs.body.node_order_id);
    assert.equal((await call(base, 'GET', `/v1/orders/${theirs.body.node_order_id}`, { token })).status, 404);
  });

  it(
    'concurrent identical submissions create one order: one 201, the rest 200 with the same node_order_id',
    async () => {
      const key = await newClient();
      await fund(key);
      const results = await together(8, () => submit(key, market('concurrent-dup-1')));
      const ids = new Set(results.map((r) => r.body.node_order_id));
      assert.deepEqual(results.map((r) => r.status).sort(), [200, 200, 200, 200, 200, 200, 200, 201], `statuses ${results.map((r) => r.status)}`);
      assert.equal(ids.size, 1, `one order, got ${[...ids].join(', ')}`);
      const listed = await call<{ total: number }>(base, 'GET', '/v1/orders', { token: key });
      assert.equal(listed.body.total, 1);
    },
  );

  it(
    'an armed order (start_armed) is idempotent on its client_order_id',
    async () => {
      const key = await newClient();
      const body = market('armed-dup-1', 1_000_000, { start_armed: true });
      const first = await submit(key, body);
      assert.equal(first.status, 201, JSON.stringify(first.body));
      assert.equal(first.body.status, 'WAITING');
      const again = await submit(key, body);
      assert.equal(again.status, 200, `a retry returns the original: ${again.status} ${again.body.node_order_id} vs ${first.body.node_order_id}`);
      assert.equal(again.body.node_order_id, first.body.node_order_id);
      assertError(await submit(key, { ...body, qty_1e8: 2_000_000 }), 409, 'IDEMPOTENCY_CONFLICT');
      assert.equal((await call<{ total: number }>(base, 'GET', '/v1/orders', { token: key })).body.total, 1);
    },
  );

  it('every malformed order request is a 4xx envelope naming the field, with no state change', async () => {
    const before = await state(token);
    const ok = market('valid-shape');
    const cases: { name: string; body?: unknown; raw?: string; status: number; code: string; field?: string }[] = [
      { name: 'missing client_order_id', body: { ...ok, client_order_id: undefined }, status: 400, code: 'VALIDATION_ERROR', field: 'client_order_id' },
      { name: 'empty client_order_id', body: { ...ok, client_order_id: '' }, status: 400, code: 'VALIDATION_ERROR', field: 'client_order_id' },
      { name: 'client_order_id with spaces', body: { ...ok, client_order_id: 'has space' }, status: 400, code: 'VALIDATION_ERROR', field: 'client_order_id' },
      { name: 'client_order_id too long', body: { ...ok, client_order_id: 'c'.repeat(65) }, status: 400, code: 'VALIDATION_ERROR', field: 'client_order_id' },
      { name: 'client_order_id not a string', body: { ...ok, client_order_id: 42 }, status: 400, code: 'VALIDATION_ERROR', field: 'client_order_id' },
      { name: 'qty 0', body: { ...ok, client_order_id: 'v-q0', qty_1e8: 0 }, status: 400, code: 'VALIDATION_ERROR', field: 'qty_1e8' },
      { name: 'negative qty', body: { ...ok, client_order_id: 'v-qneg', qty_1e8: -100 }, status: 400, code: 'VALIDATION_ERROR', field: 'qty_1e8' },
      { name: 'non-integer qty', body: { ...ok, client_order_id: 'v-qfrac', qty_1e8: 1.5 }, status: 400, code: 'VALIDATION_ERROR', field: 'qty_1e8' },
      { name: 'qty as a string', body: { ...ok, client_order_id: 'v-qstr', qty_1e8: '100' }, status: 400, code: 'VALIDATION_ERROR', field: 'qty_1e8' },
      { name: 'qty beyond 2^53', body: { ...ok, client_order_id: 'v-qbig', qty_1e8: 2 ** 60 }, status: 400, code: 'VALIDATION_ERROR', field: 'qty_1e8' },
      { name: 'missing qty', body: { ...ok, client_order_id: 'v-qmiss', qty_1e8: undefined }, status: 400, code: 'VALIDATION_ERROR', field: 'qty_1e8' },
      { name: 'unknown side', body: { ...ok, client_order_id: 'v-side', side: 'hold' }, status: 400, code: 'VALIDATION_ERROR', field: 'side' },
      { name: 'upper-case side', body: { ...ok, client_order_id: 'v-side2', side: 'BUY' }, status: 400, code: 'VALIDATION_ERROR', field: 'side' },
      { name: 'unknown order_type', body: { ...ok, client_order_id: 'v-type', order_type: 'stop' }, status: 400, code: 'VALIDATION_ERROR', field: 'order_type' },
      { name: 'limit without price', body: { ...ok, client_order_id: 'v-limit', order_type: 'limit', time_in_force: 'ioc' }, status: 400, code: 'VALIDATION_ERROR', field: 'limit_price_1e9' },
      { name: 'limit price 0', body: { ...ok, client_order_id: 'v-limit0', order_type: 'limit', limit_price_1e9: 0, time_in_force: 'ioc' }, status: 400, code: 'VALIDATION_ERROR', field: 'limit_price_1e9' },
      { name: 'unknown time_in_force', body: { ...ok, client_order_id: 'v-tif', time_in_force: 'day' }, status: 400, code: 'VALIDATION_ERROR', field: 'time_in_force' },
      { name: 'no symbol nor instrument', body: { ...ok, client_order_id: 'v-nosym', symbol: undefined }, status: 400, code: 'VALIDATION_ERROR', field: 'symbol' },
      { name: 'unknown symbol', body: { ...ok, client_order_id: 'v-sym', symbol: 'NOPE-USDT' }, status: 404, code: 'NOT_FOUND' },
      { name: 'unknown instrument symbol', body: { ...ok, client_order_id: 'v-inst', symbol: undefined, instrument: { symbol: 'NOPE-USDT', type: 'spot' } }, status: 404, code: 'NOT_FOUND' },
      { name: 'unknown instrument type', body: { ...ok, client_order_id: 'v-inst2', symbol: undefined, instrument: { symbol: SYMBOL, type: 'option' } }, status: 400, code: 'VALIDATION_ERROR', field: 'instrument.type' },
      { name: 'unknown venue', body: { ...ok, client_order_id: 'v-venue', venue: 'nyse' }, status: 400, code: 'VALIDATION_ERROR', field: 'venue' },
      { name: 'venue not listing the symbol', body: { ...ok, client_order_id: 'v-venue2', venue: 'hyperliquid' }, status: 400, code: 'VALIDATION_ERROR', field: 'venue' },
      { name: 'prediction venue for a spot pair', body: { ...ok, client_order_id: 'v-venue3', venue: 'kalshi' }, status: 400, code: 'VALIDATION_ERROR', field: 'venue' },
      { name: 'extra unknown field', body: { ...ok, client_order_id: 'v-extra', leverage: 10 }, status: 400, code: 'VALIDATION_ERROR', field: 'leverage' },
      { name: 'unknown constraints field', body: { ...ok, client_order_id: 'v-cons', constraints: { urgency: 'high', iceberg: true } }, status: 400, code: 'VALIDATION_ERROR' },
      { name: 'bad urgency', body: { ...ok, client_order_id: 'v-urg', constraints: { urgency: 'asap' } }, status: 400, code: 'VALIDATION_ERROR' },
      { name: 'negative horizon', body: { ...ok, client_order_id: 'v-hor', constraints: { horizon_ms: -1 } }, status: 400, code: 'VALIDATION_ERROR' },
      { name: 'start_armed not a boolean', body: { ...ok, client_order_id: 'v-armed', start_armed: 'yes' }, status: 400, code: 'VALIDATION_ERROR', field: 'start_armed' },
      { name: 'a JSON array', body: [ok], status: 400, code: 'VALIDATION_ERROR' },
      { name: 'a JSON string', body: 'order', status: 400, code: 'VALIDATION_ERROR' },
      { name: 'null', raw: 'null', status: 400, code: 'VALIDATION_ERROR' },
      { name: 'empty body', raw: '', status: 400, code: 'VALIDATION_ERROR', field: 'body' },
      { name: 'malformed JSON', raw: '{"client_order_id": "v-json", "qty_1e8": ', status: 400, code: 'VALIDATION_ERROR', field: 'body' },
      { name: 'trailing garbage', raw: `${JSON.stringify({ ...ok, client_order_id: 'v-trail' })} x`, status: 400, code: 'VALIDATION_ERROR', field: 'body' },
      { name: 'oversize body', raw: JSON.stringify({ ...ok, client_order_id: 'v-big', pad: 'x'.repeat((1 << 20) + 10) }), status: 413, code: 'PAYLOAD_TOO_LARGE' },
    ];
    for (const c of cases) {
      const res = await call(base, 'POST', '/v1/orders', {
        token,
        ...(c.raw !== undefined ? { rawBody: c.raw, headers: { 'content-type': 'application/json' } } : { body: c.body }),
      });
      assert.equal(res.status, c.status, `${c.name}: expected ${c.status}, got ${res.status} ${JSON.stringify(res.body)}`);
      assertError(res, c.status, c.code, c.field);
      // The secret-free rule of the gateway: an error never quotes the body back.
      if (c.raw !== undefined && c.raw.length > 0) assert.ok(!JSON.stringify(res.body).includes('v-json'), `${c.name}: body not echoed`);
    }
    // Without credentials: 401, nothing stored.
    const anonymous = await call(base, 'POST', '/v1/orders', { body: market('v-anon') });
    assertError(anonymous, 401, 'UNAUTHENTICATED');

    // Preview validates the same way and never creates anything.
    assertError(await call(base, 'POST', '/v1/orders/preview', { token, body: { ...ok, qty_1e8: 0 } }), 400, 'VALIDATION_ERROR', 'qty_1e8');
    assertError(await call(base, 'POST', '/v1/orders/preview', { token, body: { ...ok, symbol: 'NOPE-USDT' } }), 404, 'NOT_FOUND');

    assert.deepEqual(await state(token), before, 'no bad request changed orders, fills or positions');
    // None of the refused requests consumed its client_order_id.
    const used = await submit(token, market('v-q0'));
    assert.equal(used.status, 201, JSON.stringify(used.body));
    await waitTerminal(token, used.body.node_order_id);
  });

  it('a request for an order above the per-order notional cap is routed and rejected by pre-trade risk, nothing reserved', async () => {
    const key = await newClient();
    await fund(key);
    const before = await state(key);
    const res = await submit(key, market('cap-1', 100_000_000)); // 1 BTC, about $95k
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.status, 'REJECTED');
    assert.equal(res.body.failure_class, 'risk_notional_cap');
    assert.match(String(res.body['failure_reason']), /cap/);
    assert.deepEqual(res.body['children'], []);
    const after = await state(key);
    assert.deepEqual(after.positions, before.positions, 'positions untouched');
    assert.equal(after.fills, 0);
    const risk = await call<{ limits: { max_order_notional_usd_1e9: number }; reserved: unknown[]; working_orders: number }>(base, 'GET', '/v1/risk', { token: key });
    assert.equal(risk.body.limits.max_order_notional_usd_1e9, CAP_USD * 1e9);
    assert.deepEqual(risk.body.reserved, []);
    assert.equal(risk.body.working_orders, 0);
    // Under the cap the same client trades.
    const small = await submit(key, market('cap-2', 1_000_000));
    assert.equal(small.status, 201);
    const done = await waitTerminal(key, small.body.node_order_id);
    assert.notEqual(done.failure_class, 'risk_notional_cap');
  });

  it('caps the request, not the plan: 2^53-1 units of BTC on a small balance is rejected whole, nothing filled or reserved', async () => {
    const key = await newClient();
    await fund(key);
    const before = await state(key);
    // Balances (and books) would cut the plan below the cap; the request is about $8.4T.
    for (const [id, body] of [
      ['huge-market', market('huge-market', Number.MAX_SAFE_INTEGER)],
      ['huge-sell', { ...market('huge-sell', Number.MAX_SAFE_INTEGER), side: 'sell' }],
      ['huge-ioc', { ...market('huge-ioc', Number.MAX_SAFE_INTEGER), order_type: 'limit', time_in_force: 'ioc', limit_price_1e9: 1_000_000_000 }],
    ] as const) {
      const res = await submit(key, body);
      assert.equal(res.status, 201, `${id}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.status, 'REJECTED', id);
      assert.equal(res.body.failure_class, 'risk_notional_cap', id);
      assert.match(String(res.body['failure_reason']), /requested notional/, id);
      assert.deepEqual(res.body['children'], [], id);
    }
    const after = await state(key);
    assert.deepEqual(after.positions, before.positions, 'positions untouched');
    assert.equal(after.fills, 0);
  });
});
