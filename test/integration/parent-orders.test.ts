/**
 * The legacy parent-order form (`GET` and `POST /v1/parent_orders`) against the real service:
 * a POST places a market order through the same engine as `POST /v1/orders` (visible in both
 * listings, filled on the simulated venues), idempotent on client_order_id or
 * client_request_id; the listing maps canonical statuses to the five legacy ones, filters by
 * symbol and status, pages with limit/offset and counts `total`; bad input is a 4xx envelope
 * that changes nothing; a `client_id` other than the caller's is 403.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, envelope, startLiveService, TEST_OPERATOR_KEY, type JsonResponse, type TestService, until } from '../helpers/service.ts';

const FUNDED = ['binance', 'okx', 'bybit'];
const TERMINAL = new Set(['COMPLETED', 'CANCELLED', 'REJECTED', 'UNRESOLVED']);
const PARENT_KEYS = [
  'client_id',
  'client_order_id',
  'constraints',
  'created_unix_ns',
  'filled_qty_1e8',
  'parent_id',
  'qty_1e8',
  'side',
  'status',
  'symbol',
  'updated_unix_ns',
];
/** The mapping documented in docs/api-decisions.md. */
const LEGACY_STATUS: Record<string, string> = {
  WAITING: 'ACCEPTED',
  ACCEPTED: 'ACCEPTED',
  RUNNING: 'RUNNING',
  PARTIAL: 'RUNNING',
  ACTIVE: 'RUNNING',
  UNCONFIRMED: 'RUNNING',
  COMPLETED: 'COMPLETED',
  CANCELLED: 'CANCELLED',
  REJECTED: 'FAILED',
  UNRESOLVED: 'FAILED',
};

interface Order {
  node_order_id: string;
  client_order_id: string;
  side: string;
  symbol: string;
  status: string;
  order_type: string;
  qty_1e8: number;
  filled_qty_1e8: number;
  failure_class: string | null;
  constraints: Record<string, unknown> | null;
  [k: string]: unknown;
}
interface ParentOrder {
  parent_id: string;
  client_id: string;
  client_order_id: string;
  side: string;
  symbol: string;
  qty_1e8: number;
  filled_qty_1e8: number;
  status: string;
  constraints: { max_price_1e9: number | null; urgency: string; horizon_ms: number | null; participation_limit_bps: number | null };
  created_unix_ns: number;
  updated_unix_ns: number;
}
interface ParentList {
  orders: ParentOrder[];
  total: number;
  limit: number;
  offset: number;
}

function assertError(res: JsonResponse, status: number, code: string, field?: string): void {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  const err = envelope(res.body);
  assert.equal(err.code, code, `code: ${JSON.stringify(res.body)}`);
  assert.equal(err.request_id, res.headers.get('x-request-id'), 'request_id echoes the X-Request-Id header');
  if (field !== undefined) assert.ok(err.details.some((d) => d.field === field), `details name ${field}: ${JSON.stringify(err.details)}`);
}

describe('legacy parent orders: GET and POST /v1/parent_orders (real service)', () => {
  let svc: TestService;
  let base: string;
  let clientSeq = 0;

  const newClient = async (): Promise<{ token: string; id: string }> => {
    const storage = svc.service.storage;
    const id = `parent-orders-${++clientSeq}`;
    await storage.clients.put({ client_id: id, tier: 'enterprise', rate_limit_qps: 2_000, is_admin: false, created_at_ms: Date.now() });
    return { token: (await storage.apiKeys.create(id, { label: 'live', sandbox: false })).raw_key, id };
  };

  const fund = async (token: string) => {
    for (const venue of FUNDED) {
      const body = { api_key: `key-${venue}-0123456789`, api_secret: `secret-${venue}-0123456789abcdef`, ...(venue === 'okx' ? { passphrase: 'pass' } : {}) };
      const res = await call(base, 'POST', `/v1/credentials/${venue}`, { token, body });
      assert.equal(res.status, 200, `credentials for ${venue}: ${JSON.stringify(res.body)}`);
    }
    await until('accounts opened', async () => {
      const p = await call<{ positions: { venue: string }[] }>(base, 'GET', '/v1/positions', { token });
      return FUNDED.every((v) => p.body.positions.some((r) => r.venue === v)) ? true : undefined;
    });
  };

  const parent = (coid: string, extra: Record<string, unknown> = {}) => ({
    client_order_id: coid,
    side: 'BUY',
    symbol: 'BTC-USDT',
    qty_1e8: 1_000_000,
    ...extra,
  });
  const post = (token: string, body: unknown) => call<ParentOrder>(base, 'POST', '/v1/parent_orders', { token, body });
  const list = async (token: string, query = ''): Promise<ParentList> => {
    const res = await call<ParentList>(base, 'GET', `/v1/parent_orders${query}`, { token });
    assert.equal(res.status, 200, `GET /v1/parent_orders${query}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const getOrder = async (token: string, id: string): Promise<Order> => {
    const res = await call<Order>(base, 'GET', `/v1/orders/${id}`, { token });
    assert.equal(res.status, 200, `GET /v1/orders/${id}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const waitTerminal = (token: string, id: string): Promise<Order> =>
    until(`order ${id} terminal`, async () => {
      const o = await getOrder(token, id);
      return TERMINAL.has(o.status) ? o : undefined;
    });
  const orderCount = async (token: string): Promise<number> => {
    const res = await call<{ total: number }>(base, 'GET', '/v1/orders?limit=0', { token });
    assert.equal(res.status, 200, `order count: ${JSON.stringify(res.body)}`);
    return res.body.total;
  };

  before(async () => {
    svc = await startLiveService(['BTC-USDT', 'ETH-USDT']);
    base = svc.base;
  });

  after(async () => {
    await svc?.stop();
  });

  it('POST places a market order that fills, visible in both /v1/orders and /v1/parent_orders', async () => {
    const { token, id } = await newClient();
    await fund(token);
    assert.deepEqual(await list(token), { orders: [], total: 0, limit: 100, offset: 0 }, 'empty listing with the defaults');

    // The legs are IOC at the plan's prices: a book that moves between plan and execution can
    // leave one without a fill (docs/execution.md). Such an order is a legacy FAILED; a few
    // attempts, each its own order, make sure one fills.
    const placed: { parent: ParentOrder; done: Order }[] = [];
    for (let attempt = 0; attempt < 5 && !placed.some((p) => p.done.filled_qty_1e8 > 0); attempt++) {
      const coid = `legacy-${attempt}`;
      const res = await post(token, parent(coid, { client_request_id: `req-${coid}`, client_id: id, constraints: { urgency: 'high', max_price_1e9: null } }));
      assert.equal(res.status, 201, `created: ${JSON.stringify(res.body)}`);
      assert.deepEqual(Object.keys(res.body).sort(), PARENT_KEYS, 'exactly the legacy fields');
      assert.match(res.body.parent_id, /^ord_/, 'parent_id is the node_order_id');
      assert.equal(res.body.client_id, id, 'the caller');
      assert.equal(res.body.client_order_id, coid, 'client_order_id wins over client_request_id');
      assert.equal(res.body.side, 'BUY', 'upper-case side');
      assert.equal(res.body.symbol, 'BTC-USDT', 'symbol');
      assert.equal(res.body.qty_1e8, 1_000_000, 'qty');
      assert.ok(['RUNNING', 'COMPLETED', 'CANCELLED', 'FAILED'].includes(res.body.status), `status as acknowledged: ${res.body.status}`);
      assert.deepEqual(
        res.body.constraints,
        { max_price_1e9: null, urgency: 'high', horizon_ms: null, participation_limit_bps: null },
        'constraints with all four keys',
      );
      assert.ok(res.body.created_unix_ns > 0 && res.body.updated_unix_ns >= res.body.created_unix_ns, 'timestamps in ns');

      const done = await waitTerminal(token, res.body.parent_id);
      assert.equal(done.order_type, 'market', 'a market order');
      assert.equal(done.side, 'buy', 'side lowercased for the engine');
      assert.equal(done.client_order_id, coid, 'same client_order_id in the canonical view');
      assert.deepEqual(done.constraints, { urgency: 'high' }, 'null constraint fields are not stored');
      placed.push({ parent: res.body, done });
    }
    const filled = placed.find((p) => p.done.filled_qty_1e8 > 0);
    assert.ok(filled !== undefined, `a small market buy fills: ${JSON.stringify(placed.map((p) => [p.done.status, p.done.failure_class, p.done['children']]))}`);
    const fills = await call<{ total: number; fills: { qty_1e8: number }[] }>(base, 'GET', `/v1/fills?node_order_id=${filled.parent.parent_id}`, { token });
    assert.ok(fills.body.total > 0, `fills recorded: ${JSON.stringify(fills.body)}`);
    assert.equal(fills.body.fills.reduce((sum, f) => sum + f.qty_1e8, 0), filled.done.filled_qty_1e8, 'the fills make up the filled quantity');

    const ids = placed.map((p) => p.parent.parent_id).reverse();
    const canonical = await call<{ orders: Order[]; total: number }>(base, 'GET', '/v1/orders', { token });
    assert.deepEqual(canonical.body.orders.map((o) => o.node_order_id), ids, 'the orders in /v1/orders');
    const legacy = await list(token);
    assert.deepEqual(legacy.orders.map((o) => o.parent_id), ids, 'the same orders in /v1/parent_orders, newest first');
    assert.equal(legacy.total, ids.length, 'total');
    const row = legacy.orders.find((o) => o.parent_id === filled.parent.parent_id);
    assert.ok(row !== undefined, 'the filled order is listed');
    assert.equal(row.status, LEGACY_STATUS[filled.done.status], `legacy status of ${filled.done.status}`);
    assert.ok(row.status === 'COMPLETED' || row.status === 'CANCELLED', `a filled IOC order ends COMPLETED, or CANCELLED with a remainder: ${row.status}`);
    assert.equal(row.filled_qty_1e8, filled.done.filled_qty_1e8, 'filled quantity as the engine has it');
    assert.equal(row.updated_unix_ns, filled.done['updated_unix_ns'], 'updated_unix_ns as the engine has it');
    assert.equal(row.created_unix_ns, filled.done['created_unix_ns'], 'created_unix_ns as the engine has it');
    assert.equal((await list(token, `?client_id=${id}`)).total, ids.length, 'client_id naming the caller is accepted');
  });

  it('is idempotent: the same request 200 with the same parent, another 409; client_request_id is the fallback key', async () => {
    const { token } = await newClient();
    await fund(token);
    const first = await post(token, parent('idem-1'));
    assert.equal(first.status, 201, `created: ${JSON.stringify(first.body)}`);
    const firstDone = await waitTerminal(token, first.body.parent_id);
    const again = await post(token, parent('idem-1'));
    assert.equal(again.status, 200, `replay: ${JSON.stringify(again.body)}`);
    assert.equal(again.body.parent_id, first.body.parent_id, 'the original parent');
    assert.equal(again.body.status, LEGACY_STATUS[firstDone.status], `as it is now (${firstDone.status})`);
    assert.equal(again.body.filled_qty_1e8, firstDone.filled_qty_1e8, 'with its fills');
    // Equivalent spellings of "no constraints" are the same request.
    for (const constraints of [null, {}, { urgency: 'UNSPECIFIED' }, { urgency: null, horizon_ms: null }]) {
      const same = await post(token, parent('idem-1', { constraints }));
      assert.equal(same.status, 200, `constraints ${JSON.stringify(constraints)}: ${JSON.stringify(same.body)}`);
      assert.equal(same.body.parent_id, first.body.parent_id, 'the original parent');
    }
    // One id space with POST /v1/orders.
    const canonical = await call<Order>(base, 'POST', '/v1/orders', {
      token,
      body: { client_order_id: 'idem-1', symbol: 'BTC-USDT', side: 'buy', qty_1e8: 1_000_000, order_type: 'market' },
    });
    assert.equal(canonical.status, 200, `the same order through /v1/orders: ${JSON.stringify(canonical.body)}`);
    assert.equal(canonical.body.node_order_id, first.body.parent_id, 'same order');

    for (const changed of [parent('idem-1', { qty_1e8: 2_000_000 }), parent('idem-1', { side: 'SELL' }), parent('idem-1', { constraints: { urgency: 'low' } })]) {
      assertError(await post(token, changed), 409, 'IDEMPOTENCY_CONFLICT');
    }

    const byRequestId = await post(token, { client_request_id: 'crid-1', side: 'BUY', symbol: 'BTC-USDT', qty_1e8: 1_000_000 });
    assert.equal(byRequestId.status, 201, `created by client_request_id: ${JSON.stringify(byRequestId.body)}`);
    assert.equal(byRequestId.body.client_order_id, 'crid-1', 'client_request_id became the client_order_id');
    const replay = await post(token, { client_request_id: 'crid-1', side: 'BUY', symbol: 'BTC-USDT', qty_1e8: 1_000_000 });
    assert.equal(replay.status, 200, `replay by client_request_id: ${JSON.stringify(replay.body)}`);
    assert.equal(replay.body.parent_id, byRequestId.body.parent_id, 'the original parent');
    await waitTerminal(token, byRequestId.body.parent_id);
    assert.equal(await orderCount(token), 2, 'two orders in all');
  });

  it('filters by symbol and legacy status, pages with limit and offset, and counts total', async () => {
    const { token } = await newClient();
    await fund(token);
    const submit = async (body: Record<string, unknown>) => {
      const res = await call<Order>(base, 'POST', '/v1/orders', { token, body: { side: 'buy', qty_1e8: 1_000_000, order_type: 'market', symbol: 'BTC-USDT', ...body } });
      assert.equal(res.status, 201, `created: ${JSON.stringify(res.body)}`);
      return res.body.node_order_id;
    };
    // Oldest first: armed (WAITING -> ACCEPTED), a cancelled armed one, ETH armed, a market
    // parent (COMPLETED when it fills, see the first test), a refused limit (REJECTED -> FAILED).
    const ids: string[] = [];
    ids.push(await submit({ client_order_id: 'pg-armed-0', start_armed: true }));
    ids.push(await submit({ client_order_id: 'pg-armed-1', start_armed: true }));
    const cancelled = await submit({ client_order_id: 'pg-cancel', start_armed: true });
    ids.push(cancelled);
    const del = await call(base, 'DELETE', `/v1/orders/${cancelled}`, { token });
    assert.equal(del.status, 200, `cancelled: ${JSON.stringify(del.body)}`);
    ids.push(await submit({ client_order_id: 'pg-eth', symbol: 'ETH-USDT', start_armed: true }));
    const market = await post(token, parent('pg-market'));
    assert.equal(market.status, 201, `market parent: ${JSON.stringify(market.body)}`);
    ids.push(market.body.parent_id);
    // A limit far under the market finds no liquidity within it (the legacy form only places
    // market orders, so this one comes through /v1/orders).
    const refused = await submit({ client_order_id: 'pg-refused', order_type: 'limit', limit_price_1e9: 1_000 * 1e9, time_in_force: 'ioc' });
    ids.push(refused);
    const marketStatus = LEGACY_STATUS[(await waitTerminal(token, market.body.parent_id)).status]!;
    const refusedDone = await waitTerminal(token, refused);
    assert.equal(refusedDone.status, 'REJECTED', `nothing under $1,000: ${refusedDone.status} ${refusedDone.failure_class}`);

    const all = await list(token, '?limit=1000');
    assert.equal(all.total, ids.length, 'total counts every order');
    assert.equal(all.limit, 1000, 'limit echoed');
    assert.equal(all.offset, 0, 'offset defaults to 0');
    assert.deepEqual(all.orders.map((o) => o.parent_id), [...ids].reverse(), 'newest first');
    const canonical = await call<{ orders: Order[] }>(base, 'GET', '/v1/orders?limit=1000', { token });
    for (const o of canonical.body.orders) {
      const row = all.orders.find((p) => p.parent_id === o.node_order_id);
      assert.ok(row !== undefined, `${o.node_order_id} listed as a parent`);
      assert.equal(row.status, LEGACY_STATUS[o.status], `${o.status} maps to ${LEGACY_STATUS[o.status]}`);
      assert.equal(row.side, o.side.toUpperCase(), 'side upper-cased');
    }

    const expected: Record<string, string[]> = {
      ACCEPTED: [ids[0]!, ids[1]!, ids[3]!],
      RUNNING: [],
      COMPLETED: [],
      CANCELLED: [cancelled],
      FAILED: [refused],
    };
    expected[marketStatus]!.push(market.body.parent_id);
    for (const [status, want] of Object.entries(expected)) {
      const page = await list(token, `?status=${status}`);
      assert.deepEqual(page.orders.map((o) => o.parent_id).sort(), [...want].sort(), `status=${status}`);
      assert.equal(page.total, want.length, `total of status=${status}`);
      for (const o of page.orders) assert.equal(o.status, status, `rows of status=${status}`);
    }

    const eth = await list(token, '?symbol=eth-usdt');
    assert.deepEqual(eth.orders.map((o) => o.parent_id), [ids[3]], 'symbol filter, case-insensitive');
    assert.equal(eth.total, 1, 'total of the symbol filter');
    assert.equal((await list(token, '?symbol=ETH-USDT&status=CANCELLED')).total, 0, 'filters combine');
    assert.equal((await list(token, '?symbol=BTC-USDT&status=ACCEPTED')).total, 2, 'filters combine');

    // Pages: limit and offset over the newest-first order; total is the whole filtered count.
    const walked: string[] = [];
    for (let offset = 0; offset < ids.length; offset += 2) {
      const page = await list(token, `?limit=2&offset=${offset}`);
      assert.equal(page.limit, 2, 'limit echoed');
      assert.equal(page.offset, offset, 'offset echoed');
      assert.equal(page.total, ids.length, 'total on every page');
      assert.ok(page.orders.length <= 2, 'at most limit rows');
      walked.push(...page.orders.map((o) => o.parent_id));
    }
    assert.deepEqual(walked, all.orders.map((o) => o.parent_id), 'the pages walk every order once, in order');
    const past = await list(token, `?offset=${ids.length}`);
    assert.deepEqual({ orders: past.orders, total: past.total }, { orders: [], total: ids.length }, 'an offset past the end is an empty page');
    const none = await list(token, '?limit=0');
    assert.deepEqual({ orders: none.orders, total: none.total }, { orders: [], total: ids.length }, 'limit=0 counts only');
    const filteredPage = await list(token, '?status=ACCEPTED&limit=1&offset=1');
    assert.deepEqual(filteredPage.orders.map((o) => o.parent_id), [ids[1]], 'offset applies after the filter');
    assert.equal(filteredPage.total, 3, 'filtered total');
  });

  it('answers every bad request with a 4xx envelope and changes nothing', async () => {
    const { token } = await newClient();
    await fund(token);
    const ok = parent('bad-shape');
    const cases: { name: string; body?: unknown; raw?: string; status: number; code: string; field?: string }[] = [
      { name: 'neither client_order_id nor client_request_id', body: { ...ok, client_order_id: undefined }, status: 400, code: 'VALIDATION_ERROR', field: 'client_order_id' },
      { name: 'client_order_id with spaces', body: { ...ok, client_order_id: 'has space' }, status: 400, code: 'VALIDATION_ERROR', field: 'client_order_id' },
      { name: 'client_request_id too long', body: { ...ok, client_order_id: undefined, client_request_id: 'r'.repeat(65) }, status: 400, code: 'VALIDATION_ERROR', field: 'client_request_id' },
      { name: 'lower-case side', body: { ...ok, side: 'buy' }, status: 400, code: 'VALIDATION_ERROR', field: 'side' },
      { name: 'unknown side', body: { ...ok, side: 'HOLD' }, status: 400, code: 'VALIDATION_ERROR', field: 'side' },
      { name: 'missing side', body: { ...ok, side: undefined }, status: 400, code: 'VALIDATION_ERROR', field: 'side' },
      { name: 'missing symbol', body: { ...ok, symbol: undefined }, status: 400, code: 'VALIDATION_ERROR', field: 'symbol' },
      { name: 'empty symbol', body: { ...ok, symbol: '' }, status: 400, code: 'VALIDATION_ERROR', field: 'symbol' },
      { name: 'unknown symbol', body: { ...ok, symbol: 'NOPE-USDT' }, status: 404, code: 'NOT_FOUND' },
      { name: 'qty 0', body: { ...ok, qty_1e8: 0 }, status: 400, code: 'VALIDATION_ERROR', field: 'qty_1e8' },
      { name: 'qty as a string', body: { ...ok, qty_1e8: '100' }, status: 400, code: 'VALIDATION_ERROR', field: 'qty_1e8' },
      { name: 'fractional qty', body: { ...ok, qty_1e8: 1.5 }, status: 400, code: 'VALIDATION_ERROR', field: 'qty_1e8' },
      { name: 'missing qty', body: { ...ok, qty_1e8: undefined }, status: 400, code: 'VALIDATION_ERROR', field: 'qty_1e8' },
      { name: 'bad urgency', body: { ...ok, constraints: { urgency: 'asap' } }, status: 400, code: 'VALIDATION_ERROR', field: 'constraints.urgency' },
      { name: 'upper-case urgency', body: { ...ok, constraints: { urgency: 'HIGH' } }, status: 400, code: 'VALIDATION_ERROR', field: 'constraints.urgency' },
      { name: 'negative horizon', body: { ...ok, constraints: { horizon_ms: -1 } }, status: 400, code: 'VALIDATION_ERROR', field: 'constraints.horizon_ms' },
      { name: 'participation over 100%', body: { ...ok, constraints: { participation_limit_bps: 10_001 } }, status: 400, code: 'VALIDATION_ERROR', field: 'constraints.participation_limit_bps' },
      { name: 'unknown constraints field', body: { ...ok, constraints: { iceberg: true } }, status: 400, code: 'VALIDATION_ERROR', field: 'constraints' },
      { name: 'constraints not an object', body: { ...ok, constraints: 'fast' }, status: 400, code: 'VALIDATION_ERROR', field: 'constraints' },
      { name: 'unknown field', body: { ...ok, order_type: 'limit' }, status: 400, code: 'VALIDATION_ERROR', field: 'order_type' },
      { name: 'client_id not a string', body: { ...ok, client_id: 7 }, status: 400, code: 'VALIDATION_ERROR', field: 'client_id' },
      { name: 'a JSON array', body: [ok], status: 400, code: 'VALIDATION_ERROR' },
      { name: 'empty body', raw: '', status: 400, code: 'VALIDATION_ERROR', field: 'body' },
      { name: 'malformed JSON', raw: '{"side": ', status: 400, code: 'VALIDATION_ERROR', field: 'body' },
    ];
    for (const c of cases) {
      const res = await call(base, 'POST', '/v1/parent_orders', {
        token,
        ...(c.raw !== undefined ? { rawBody: c.raw, headers: { 'content-type': 'application/json' } } : { body: c.body }),
      });
      assert.equal(res.status, c.status, `${c.name}: expected ${c.status}, got ${res.status} ${JSON.stringify(res.body)}`);
      assertError(res, c.status, c.code, c.field);
    }
    for (const [query, field] of [
      ['?status=PARTIAL', 'status'],
      ['?status=completed', 'status'],
      ['?status=open', 'status'],
      ['?limit=1001', 'limit'],
      ['?limit=-1', 'limit'],
      ['?limit=ten', 'limit'],
      ['?offset=-1', 'offset'],
      ['?offset=1.5', 'offset'],
    ] as const) {
      assertError(await call(base, 'GET', `/v1/parent_orders${query}`, { token }), 400, 'VALIDATION_ERROR', field);
    }
    assertError(await call(base, 'GET', '/v1/parent_orders'), 401, 'UNAUTHENTICATED');
    assertError(await call(base, 'POST', '/v1/parent_orders', { body: ok }), 401, 'UNAUTHENTICATED');
    assertError(await call(base, 'PUT', '/v1/parent_orders', { token, body: ok }), 405, 'METHOD_NOT_ALLOWED');
    assert.equal(await orderCount(token), 0, 'no bad request placed an order');
    // None of them consumed the client_order_id.
    const later = await post(token, ok);
    assert.equal(later.status, 201, `the id is still free: ${JSON.stringify(later.body)}`);
    await waitTerminal(token, later.body.parent_id);
  });

  it("refuses a client_id other than the caller's with 403 FORBIDDEN, in the body and in the query", async () => {
    const { token, id } = await newClient();
    const other = await newClient();
    const armedParent = await call<Order>(base, 'POST', '/v1/orders', {
      token: other.token,
      body: { client_order_id: 'theirs', symbol: 'BTC-USDT', side: 'buy', qty_1e8: 1_000_000, order_type: 'market', start_armed: true },
    });
    assert.equal(armedParent.status, 201, `the other client's order: ${JSON.stringify(armedParent.body)}`);

    assertError(await post(token, parent('not-mine', { client_id: other.id })), 403, 'FORBIDDEN');
    assertError(await post(token, parent('not-mine', { client_id: `${id}x` })), 403, 'FORBIDDEN');
    assertError(await call(base, 'GET', `/v1/parent_orders?client_id=${other.id}`, { token }), 403, 'FORBIDDEN');
    assertError(await call(base, 'GET', `/v1/parent_orders?client_id=${other.id}`, { token: TEST_OPERATOR_KEY }), 403, 'FORBIDDEN');
    assert.equal(await orderCount(token), 0, 'nothing placed for the caller');
    assert.equal(await orderCount(other.token), 1, "nothing placed for the other client");
    // Without client_id a caller sees only its own orders.
    assert.deepEqual(await list(token), { orders: [], total: 0, limit: 100, offset: 0 }, "another client's orders are not listed");
    const theirs = await list(other.token, `?client_id=${other.id}`);
    assert.deepEqual(theirs.orders.map((o) => [o.parent_id, o.status]), [[armedParent.body.node_order_id, 'ACCEPTED']], 'their own, as ACCEPTED');
  });
});
