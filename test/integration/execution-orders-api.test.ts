/**
 * The orders, fills, positions and risk endpoints against the real service: the order listing
 * (newest first, `status=open`, exact statuses, `history`, `symbol`, `limit` bounds, the `after`
 * cursor walking every order exactly once while new ones arrive, legacy `offset`, `counts`),
 * single orders and cancellation, preview, the armed flow and its activation, the risk
 * read-out, positions filters, the removed endpoints, and sandbox isolation.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, envelope, startLiveService, type JsonResponse, type TestService, until } from '../helpers/service.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const FUNDED = ['binance', 'okx', 'bybit'];
const TERMINAL = new Set(['COMPLETED', 'CANCELLED', 'REJECTED', 'UNRESOLVED']);
const STATUSES = ['ACCEPTED', 'RUNNING', 'PARTIAL', 'ACTIVE', 'COMPLETED', 'CANCELLED', 'REJECTED', 'UNCONFIRMED', 'UNRESOLVED', 'WAITING'];

interface Order {
  node_order_id: string;
  client_order_id: string;
  graph_id: string;
  symbol: string;
  status: string;
  execution_type: string;
  venue_state: string;
  qty_1e8: number;
  filled_qty_1e8: number;
  created_unix_ns: number;
  failure_class: string | null;
  is_sandbox: boolean;
  children: { venue: string }[];
  fills: unknown[] | null;
  [k: string]: unknown;
}
interface OrderList {
  scope: string;
  region: string;
  orders: Order[];
  total: number;
  limit: number;
  has_more: boolean;
  next_cursor: string | null;
  offset: number | null;
  sources: { source: string; complete: boolean }[];
  counts: Record<string, number>;
  venue_view: unknown;
}
interface Position {
  venue: string;
  instrument: { kind: string; symbol?: string; code?: string };
  qty_1e8: number;
  locked_qty_1e8: number;
  current_value_usd_1e9: number;
  lifecycle: { state: string };
  is_sandbox: boolean;
}

function assertError(res: JsonResponse, status: number, code: string, field?: string): void {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  const err = envelope(res.body);
  assert.equal(err.code, code, JSON.stringify(res.body));
  if (field !== undefined) assert.ok(err.details.some((d) => d.field === field), `details name ${field}: ${JSON.stringify(err.details)}`);
}

describe('execution: orders, fills, positions and risk endpoints (real service)', () => {
  let svc: TestService;
  let base: string;
  let clientSeq = 0;

  const newClient = async (opts: { sandbox?: boolean } = {}): Promise<{ live: string; sandbox: string; id: string }> => {
    const storage = svc.service.storage;
    const id = `orders-api-${++clientSeq}`;
    await storage.clients.put({ client_id: id, tier: 'enterprise', rate_limit_qps: 2_000, is_admin: false, created_at_ms: Date.now() });
    const live = (await storage.apiKeys.create(id, { label: 'live', sandbox: false })).raw_key;
    const sandbox = opts.sandbox === true ? (await storage.apiKeys.create(id, { label: 'sandbox', sandbox: true })).raw_key : '';
    return { live, sandbox, id };
  };

  const fund = async (token: string, venues = FUNDED) => {
    for (const venue of venues) {
      const body = { api_key: `key-${venue}-0123456789`, api_secret: `secret-${venue}-0123456789abcdef`, ...(venue === 'okx' ? { passphrase: 'pass' } : {}) };
      const res = await call(base, 'POST', `/v1/credentials/${venue}`, { token, body });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    await until('accounts opened', async () => {
      const p = await call<{ positions: Position[] }>(base, 'GET', '/v1/positions', { token });
      return venues.every((v) => p.body.positions.some((r) => r.venue === v)) ? true : undefined;
    });
  };

  const submit = (token: string, body: Record<string, unknown>) => call<Order>(base, 'POST', '/v1/orders', { token, body });
  const market = (coid: string, extra: Record<string, unknown> = {}) => ({
    client_order_id: coid,
    symbol: 'BTC-USDT',
    side: 'buy',
    qty_1e8: 1_000_000,
    order_type: 'market',
    ...extra,
  });
  const getOrder = async (token: string, id: string, query = ''): Promise<Order> => {
    const res = await call<Order>(base, 'GET', `/v1/orders/${id}${query}`, { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  const waitTerminal = (token: string, id: string): Promise<Order> =>
    until(`order ${id} terminal`, async () => {
      const o = await getOrder(token, id);
      return TERMINAL.has(o.status) ? o : undefined;
    });
  const list = async (token: string, query = ''): Promise<OrderList> => {
    const res = await call<OrderList>(base, 'GET', `/v1/orders${query}`, { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  const positions = async (token: string, query = ''): Promise<{ positions: Position[]; totals: Record<string, number> }> => {
    const res = await call<{ positions: Position[]; totals: Record<string, number> }>(base, 'GET', `/v1/positions${query}`, { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };

  before(async () => {
    svc = await startLiveService(['BTC-USDT', 'ETH-USDT']);
    base = svc.base;
  });

  after(async () => {
    await svc?.stop();
  });

  it('lists the client\'s orders newest first, with status, history, symbol, limit, cursor, offset and counts', async () => {
    const { live: token } = await newClient();
    await fund(token);
    const empty = await list(token);
    assert.deepEqual(
      { ...empty, sources: undefined, venue_view: undefined },
      { scope: 'client', region: 'global', orders: [], total: 0, limit: 100, has_more: false, next_cursor: null, offset: null, sources: undefined, counts: {}, venue_view: undefined },
    );
    // A live account's first page without a symbol filter carries the venue merge (spec).
    const view = empty.venue_view as { all_succeeded: boolean; venues: { venue: string; ok: boolean; resting_child_ids: string[] }[] };
    assert.equal(view.all_succeeded, true, JSON.stringify(view));
    assert.ok(view.venues.length >= 1 && view.venues.every((v) => v.ok && v.resting_child_ids.length === 0), JSON.stringify(view));

    // A mix: market orders on two symbols, armed ones, rejected ones.
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await submit(token, market(`list-btc-${i}`))).body.node_order_id);
    for (let i = 0; i < 3; i++) ids.push((await submit(token, market(`list-eth-${i}`, { symbol: 'ETH-USDT', qty_1e8: 10_000_000 }))).body.node_order_id);
    const armed = [];
    for (let i = 0; i < 2; i++) {
      const res = await submit(token, market(`list-armed-${i}`, { start_armed: true }));
      assert.equal(res.status, 201);
      armed.push(res.body.node_order_id);
      ids.push(res.body.node_order_id);
    }
    // A GTC bid far below the market rests: working until cancelled.
    const gtc = await submit(token, market('list-gtc', { order_type: 'limit', limit_price_1e9: 1_000 * 1e9 }));
    assert.equal(gtc.status, 201, JSON.stringify(gtc.body));
    ids.push(gtc.body.node_order_id);
    const farLimit = await submit(token, market('list-far', { order_type: 'limit', limit_price_1e9: 1_000 * 1e9, time_in_force: 'ioc' }));
    assert.equal(farLimit.status, 201, JSON.stringify(farLimit.body));
    ids.push(farLimit.body.node_order_id);
    const working = [...armed, gtc.body.node_order_id];
    for (const id of ids) if (!working.includes(id)) await waitTerminal(token, id);
    // RUNNING while its leg travels to the venue (the venue's latency), then ACTIVE as it rests.
    await until('the gtc limit rests', async () => ((await getOrder(token, gtc.body.node_order_id)).status === 'ACTIVE' ? true : undefined));
    assert.equal((await getOrder(token, farLimit.body.node_order_id)).status, 'REJECTED');
    assert.equal((await getOrder(token, farLimit.body.node_order_id)).failure_class, 'no_route', 'no liquidity within the limit');

    const all = await list(token, '?limit=1000');
    assert.equal(all.total, ids.length);
    assert.deepEqual(all.orders.map((o) => o.node_order_id), [...ids].reverse(), 'newest first');
    for (let i = 1; i < all.orders.length; i++) assert.ok(all.orders[i - 1]!.created_unix_ns >= all.orders[i]!.created_unix_ns, 'created descending');
    assert.equal(all.has_more, false);
    assert.equal(all.next_cursor, null);
    assert.equal(all.limit, 1000);
    const expectedCounts: Record<string, number> = {};
    for (const o of all.orders) expectedCounts[o.status] = (expectedCounts[o.status] ?? 0) + 1;
    assert.deepEqual(all.counts, expectedCounts, 'counts by status');
    // Counts cover the whole listing, not the page: limit=0 reads just them.
    const countsOnly = await list(token, '?limit=0');
    assert.deepEqual(countsOnly.orders, []);
    assert.deepEqual(countsOnly.counts, expectedCounts, 'counts with limit=0');
    assert.deepEqual((await list(token, '?limit=1&status=REJECTED')).counts, expectedCounts, 'counts ignore the status filter and the page');
    // The venue view shows the resting legs the venues hold; never on later pages or with a symbol filter.
    const merged = all.venue_view as { all_succeeded: boolean; venues: { resting_child_ids: string[]; missing_on_venue: string[] }[] };
    assert.equal(merged.all_succeeded, true);
    const restingLegs = all.orders.filter((o) => o.status === 'ACTIVE').flatMap((o) => (o.children as unknown as { child_id: string; status: string }[]).filter((c) => c.status === 'resting').map((c) => c.child_id));
    assert.deepEqual(merged.venues.flatMap((v) => v.resting_child_ids).sort(), restingLegs.sort(), 'the venues show the resting legs');
    assert.deepEqual(merged.venues.flatMap((v) => v.missing_on_venue), []);
    assert.equal((await list(token, '?symbol=BTC-USDT')).venue_view, null);
    assert.equal((await list(token, `?limit=1&after=${encodeURIComponent(String((await list(token, '?limit=1')).next_cursor))}`)).venue_view, null);
    assert.ok(Array.isArray(all.sources) && all.sources.length > 0, 'sources present');
    for (const o of all.orders) {
      assert.ok(STATUSES.includes(o.status), o.status);
      assert.equal(o.fills, null, 'no fills in listings');
      assert.equal(o.is_sandbox, false);
    }

    // status=open: the working set only.
    const open = await list(token, '?status=open');
    assert.deepEqual(open.orders.map((o) => o.node_order_id).sort(), [...working].sort());
    assert.equal(open.total, working.length);
    for (const o of open.orders) assert.ok(o.status === 'WAITING' || o.status === 'ACTIVE', `working status ${o.status}`);
    // An exact status and history=true read the history view.
    const rejected = await list(token, '?status=REJECTED');
    assert.ok(rejected.orders.length >= 1, 'the refused limit at least');
    for (const o of rejected.orders) assert.equal(o.status, 'REJECTED');
    assert.equal(rejected.total, all.orders.filter((o) => o.status === 'REJECTED').length);
    assert.ok(rejected.sources.some((s) => s.source === 'history_db'), JSON.stringify(rejected.sources));
    const waiting = await list(token, '?status=WAITING');
    assert.deepEqual(waiting.orders.map((o) => o.node_order_id).sort(), [...armed].sort());
    const history = await list(token, '?history=true&limit=1000');
    assert.deepEqual(history.orders.map((o) => o.node_order_id), all.orders.filter((o) => TERMINAL.has(o.status)).map((o) => o.node_order_id));
    assert.equal(history.total, ids.length - working.length);
    for (const o of history.orders) assert.ok(TERMINAL.has(o.status), o.status);
    // symbol filter, case-insensitive.
    const eth = await list(token, '?symbol=eth-usdt');
    assert.equal(eth.total, 3);
    for (const o of eth.orders) assert.equal(o.symbol, 'ETH-USDT');
    assert.equal((await list(token, '?symbol=SOL-USDT')).total, 0);
    const ethOpen = await list(token, '?symbol=ETH-USDT&status=open');
    assert.equal(ethOpen.total, 0);

    // limit bounds.
    assertError(await call(base, 'GET', '/v1/orders?limit=1001', { token }), 400, 'VALIDATION_ERROR', 'limit');
    assertError(await call(base, 'GET', '/v1/orders?limit=-1', { token }), 400, 'VALIDATION_ERROR', 'limit');
    assertError(await call(base, 'GET', '/v1/orders?limit=ten', { token }), 400, 'VALIDATION_ERROR', 'limit');
    assert.equal((await list(token, '?limit=1000')).orders.length, ids.length);
    assertError(await call(base, 'GET', '/v1/orders?status=DONE', { token }), 400, 'VALIDATION_ERROR', 'status');
    // Bad cursors.
    for (const bad of ['not-a-cursor', Buffer.from('42').toString('base64url'), '%%%']) {
      assertError(await call(base, 'GET', `/v1/orders?after=${bad}`, { token }), 400, 'VALIDATION_ERROR', 'after');
    }

    // Legacy offset: skips that many from the newest.
    const offset = await list(token, '?offset=2&limit=3');
    assert.deepEqual(offset.orders.map((o) => o.node_order_id), all.orders.slice(2, 5).map((o) => o.node_order_id));
    assert.equal(offset.offset, 2);
    assert.equal(offset.total, ids.length);

    // The cursor walks every order exactly once while new ones arrive between pages.
    const seen: string[] = [];
    const added: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: OrderList = await list(token, `?limit=3${cursor === null ? '' : `&after=${cursor}`}`);
      seen.push(...page.orders.map((o) => o.node_order_id));
      assert.equal(page.has_more, page.next_cursor !== null);
      cursor = page.next_cursor;
      const res = await submit(token, market(`list-during-walk-${pages++}`, { start_armed: true }));
      assert.equal(res.status, 201);
      added.push(res.body.node_order_id);
    } while (cursor !== null && pages < 50);
    assert.equal(cursor, null, 'the walk ends');
    assert.equal(new Set(seen).size, seen.length, 'no order twice');
    assert.deepEqual(seen, all.orders.map((o) => o.node_order_id), 'every order that existed, in order; none added during the walk');
    const after = await list(token, '?limit=1000');
    assert.deepEqual(after.orders.slice(0, added.length).map((o) => o.node_order_id), [...added].reverse(), 'the new ones are on top of a fresh walk');
    // A cursor of the status=open view walks the open set the same way.
    const openPage = await list(token, '?status=open&limit=1');
    assert.ok(openPage.next_cursor !== null, 'more open orders follow');
    const openNext = await list(token, `?status=open&limit=1000&after=${openPage.next_cursor}`);
    assert.equal(openNext.orders.length + 1, openPage.total);
    assert.ok(!openNext.orders.some((o) => o.node_order_id === openPage.orders[0]!.node_order_id), 'the cursor excludes the page before');
  });

  it('reads one order (expand=fills), answers 404 for an unknown one, and cancels: terminal as is, armed to CANCELLED', async () => {
    const { live: token } = await newClient();
    await fund(token);
    assertError(await call(base, 'GET', '/v1/orders/ord_doesnotexist', { token }), 404, 'NOT_FOUND');
    assertError(await call(base, 'DELETE', '/v1/orders/ord_doesnotexist', { token }), 404, 'NOT_FOUND');

    const placed = await submit(token, market('single-1', { qty_1e8: 5_000_000 }));
    assert.equal(placed.status, 201);
    const done = await waitTerminal(token, placed.body.node_order_id);
    const plain = await getOrder(token, done.node_order_id);
    assert.equal(plain.fills, null);
    const expanded = await getOrder(token, done.node_order_id, '?expand=fills');
    assert.ok(Array.isArray(expanded.fills), 'expand=fills adds them');
    assert.equal((expanded.fills as { qty_1e8: number }[]).reduce((s, f) => s + f.qty_1e8, 0), expanded.filled_qty_1e8);
    for (const hidden of ['request_hash', 'fill_ids', 'mode']) assert.ok(!(hidden in expanded), `${hidden} is internal`);

    const del = await call<{ node_order_id: string; status: string }>(base, 'DELETE', `/v1/orders/${done.node_order_id}`, { token });
    assert.equal(del.status, 200, JSON.stringify(del.body));
    assert.deepEqual(del.body, { node_order_id: done.node_order_id, status: done.status });
    assert.equal((await getOrder(token, done.node_order_id)).status, done.status, 'a terminal order is left as it was');

    const armed = await submit(token, market('single-armed', { start_armed: true }));
    assert.equal(armed.status, 201);
    const cancel = await call<{ node_order_id: string; status: string }>(base, 'DELETE', `/v1/orders/${armed.body.node_order_id}`, { token });
    assert.equal(cancel.status, 200, JSON.stringify(cancel.body));
    assert.deepEqual(cancel.body, { node_order_id: armed.body.node_order_id, status: 'CANCELLED' });
    const cancelled = await getOrder(token, armed.body.node_order_id);
    assert.equal(cancelled.status, 'CANCELLED');
    assert.equal(cancelled.failure_class, 'cancelled');
    assert.equal(cancelled.filled_qty_1e8, 0);
    assertError(await call(base, 'POST', `/v1/execution_graphs/${armed.body.graph_id}/activate`, { token }), 409, 'GRAPH_NOT_ARMED');
    // Cancelling again answers the same.
    const again = await call<{ status: string }>(base, 'DELETE', `/v1/orders/${armed.body.node_order_id}`, { token });
    assert.equal(again.body.status, 'CANCELLED');

    // A working order: DELETE returns once every leg has ended.
    const working = await submit(token, market('single-working', { qty_1e8: 20_000_000 }));
    const stopped = await call<{ status: string }>(base, 'DELETE', `/v1/orders/${working.body.node_order_id}`, { token });
    assert.equal(stopped.status, 200);
    assert.ok(TERMINAL.has(stopped.body.status), `legs ended: ${stopped.body.status}`);
  });

  it('previews an order from the same router without creating, reserving or consuming anything', async () => {
    const { live: token } = await newClient();
    await fund(token);
    const book = async () => (await positions(token)).positions.map((p) => [p.venue, JSON.stringify(p.instrument), p.qty_1e8, p.locked_qty_1e8]);
    const before = { orders: (await list(token)).total, positions: await book() };
    const res = await call<{ plan: any; landed_cost_1e9: number | null }>(base, 'POST', '/v1/orders/preview', {
      token,
      body: market('preview-1', { qty_1e8: 50_000_000 }),
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const plan = res.body.plan;
    assert.equal(plan.requested_qty_1e8, 50_000_000);
    assert.ok(plan.planned_qty_1e8 > 0, 'liquidity found');
    assert.ok(plan.allocations.length >= 1, 'children planned');
    for (const a of plan.allocations) assert.ok(FUNDED.includes(a.venue), `${a.venue} has credentials`);
    assert.equal(plan.allocations.reduce((s: number, a: any) => s + a.qty_1e8, 0), plan.planned_qty_1e8);
    assert.equal(res.body.landed_cost_1e9, plan.expected_notional_1e9 + plan.expected_fee_1e9, 'buy: notional + fees');
    assert.ok(plan.expected_fee_1e9 > 0 && typeof plan.expected_slippage_bps === 'number', 'fee and slippage estimated');
    for (const c of plan.candidates) if (!FUNDED.includes(c.venue)) assert.equal(c.reason, 'no_credentials');
    // A forced venue routes there only.
    const forced = await call<{ plan: any }>(base, 'POST', '/v1/orders/preview', { token, body: market('preview-2', { venue: 'okx' }) });
    assert.equal(forced.status, 200);
    assert.deepEqual([...new Set(forced.body.plan.allocations.map((a: any) => a.venue))], ['okx']);
    for (const c of forced.body.plan.candidates) if (c.venue !== 'okx') assert.equal(c.reason, 'forced_venue_mismatch');
    // A participation limit: the plan takes at most that share of the displayed levels, so a
    // 1 bps cap plans far less than the uncapped 0.5 BTC (and the same limits apply when placed).
    const capped = await call<{ plan: any }>(base, 'POST', '/v1/orders/preview', {
      token,
      body: market('preview-4', { qty_1e8: 50_000_000, constraints: { participation_limit_bps: 1 } }),
    });
    assert.equal(capped.status, 200, JSON.stringify(capped.body));
    assert.ok(capped.body.plan.planned_qty_1e8 < plan.planned_qty_1e8, `capped ${capped.body.plan.planned_qty_1e8} < ${plan.planned_qty_1e8}`);
    assert.equal(capped.body.plan.unfilled_qty_1e8, 50_000_000 - capped.body.plan.planned_qty_1e8, 'the rest is unfilled');
    // A sell previews proceeds minus fees.
    const sell = await call<{ plan: any; landed_cost_1e9: number }>(base, 'POST', '/v1/orders/preview', { token, body: market('preview-3', { side: 'sell' }) });
    assert.equal(sell.body.landed_cost_1e9, sell.body.plan.expected_notional_1e9 - sell.body.plan.expected_fee_1e9);
    // A preview places nothing, so it needs no client_order_id.
    const { client_order_id: _unused, ...anonymous } = market('preview-5', { qty_1e8: 50_000_000 });
    const bare = await call<{ plan: any }>(base, 'POST', '/v1/orders/preview', { token, body: anonymous });
    assert.equal(bare.status, 200, JSON.stringify(bare.body));
    assert.ok(bare.body.plan.planned_qty_1e8 > 0);
    // Nothing was created or reserved; the client_order_id is still free.
    assert.equal((await list(token)).total, before.orders);
    assert.deepEqual(await book(), before.positions);
    const real = await submit(token, market('preview-1', { qty_1e8: 50_000_000 }));
    assert.equal(real.status, 201, JSON.stringify(real.body));
    await waitTerminal(token, real.body.node_order_id);
  });

  it('parks an armed order with zero footprint until activated, then routes and completes it; activation is once', async () => {
    const { live: token } = await newClient();
    await fund(token);
    const book = async () => (await positions(token)).positions.map((p) => [p.venue, JSON.stringify(p.instrument), p.qty_1e8, p.locked_qty_1e8]);
    const start = await book();
    // A plain market order first: it moves the positions; the armed one below does not.
    const plain = await submit(token, market('armed-flow-1', { qty_1e8: 2_000_000 }));
    await waitTerminal(token, plain.body.node_order_id);
    const afterPlain = await book();
    assert.notDeepEqual(afterPlain, start);

    const parked = await submit(token, market('armed-flow-2', { qty_1e8: 2_000_000, start_armed: true }));
    assert.equal(parked.status, 201, JSON.stringify(parked.body));
    assert.equal(parked.body.status, 'WAITING');
    assert.equal(parked.body.execution_type, 'armed');
    assert.equal(parked.body.venue_state, 'not_sent');
    assert.deepEqual(parked.body.children, []);
    assert.equal(parked.body.filled_qty_1e8, 0);
    assert.match(parked.body.graph_id, /^grf_/);
    await sleep(300);
    const still = await getOrder(token, parked.body.node_order_id, '?expand=fills');
    assert.equal(still.status, 'WAITING');
    assert.deepEqual(still.fills, [], 'zero fills while armed');
    assert.equal((await call<{ total: number }>(base, 'GET', `/v1/fills?node_order_id=${parked.body.node_order_id}`, { token })).body.total, 0);
    assert.deepEqual(await book(), afterPlain, 'zero venue footprint: nothing reserved or spent');

    assertError(await call(base, 'POST', '/v1/execution_graphs/grf_unknown/activate', { token }), 404, 'NOT_FOUND');
    const act = await call<Order>(base, 'POST', `/v1/execution_graphs/${parked.body.graph_id}/activate`, { token });
    assert.equal(act.status, 200, JSON.stringify(act.body));
    assert.equal(act.body.node_order_id, parked.body.node_order_id);
    assert.equal(act.body.execution_type, 'graph');
    assert.ok(act.body.children.length >= 1, 'routed to venues');
    const done = await waitTerminal(token, parked.body.node_order_id);
    assert.ok(done.filled_qty_1e8 > 0 || done.status === 'REJECTED', `${done.status} ${done.failure_class}`);
    const second = await call(base, 'POST', `/v1/execution_graphs/${parked.body.graph_id}/activate`, { token });
    assertError(second, 409, 'GRAPH_NOT_ARMED');
    // Another client cannot see or activate it.
    const { live: stranger } = await newClient();
    assertError(await call(base, 'POST', `/v1/execution_graphs/${parked.body.graph_id}/activate`, { token: stranger }), 404, 'NOT_FOUND');
  });

  it(
    'two simultaneous activations of one armed graph execute it once',
    async () => {
      const { live: token } = await newClient();
      await fund(token, ['binance']);
      const parked = await submit(token, market('double-activate-1', { qty_1e8: 1_000_000, start_armed: true }));
      assert.equal(parked.status, 201);
      const acts = await Promise.all([0, 1].map(() => call(base, 'POST', `/v1/execution_graphs/${parked.body.graph_id}/activate`, { token })));
      await waitTerminal(token, parked.body.node_order_id);
      await sleep(300);
      const fills = await call<{ fills: { qty_1e8: number }[] }>(base, 'GET', `/v1/fills?node_order_id=${parked.body.node_order_id}`, { token });
      const filled = fills.body.fills.reduce((s, f) => s + f.qty_1e8, 0);
      const btc = (await positions(token, '?venues=binance')).positions.find((p) => p.instrument.symbol === 'BTC')!;
      assert.ok(filled <= 1_000_000, `the fills of one order never exceed its qty: ${filled}`);
      assert.ok(btc.qty_1e8 <= 100_000_000 + 1_000_000, `bought at most the order's qty: BTC ${btc.qty_1e8}`);
      assert.deepEqual(acts.map((a) => a.status).sort(), [200, 409], 'one activation wins, the other is told it is not armed');
    },
  );

  it('answers the risk read-out, position filters, position sync, and 404 for the removed endpoints', async () => {
    const { live: token } = await newClient();
    await fund(token);
    const risk = await call<any>(base, 'GET', '/v1/risk', { token });
    assert.equal(risk.status, 200);
    for (const k of ['cash_usd_1e9', 'gross_exposure_usd_1e9', 'kill_switch', 'limits', 'nav_usd_1e9', 'reserved', 'working_orders']) {
      assert.ok(k in risk.body, `risk has ${k}: ${JSON.stringify(risk.body)}`);
    }
    assert.equal(risk.body.kill_switch.active, false);
    assert.equal(typeof risk.body.limits.max_order_notional_usd_1e9, 'number');
    assert.equal(risk.body.working_orders, 0);
    assert.deepEqual(risk.body.reserved, []);
    const all = await positions(token);
    // NAV moves with the marks; cash is $1 stablecoins and does not.
    assert.equal(typeof risk.body.nav_usd_1e9, 'number');
    assert.equal(risk.body.cash_usd_1e9, all.totals['cash_usd_1e9']);
    assert.ok(risk.body.gross_exposure_usd_1e9 > 0, 'crypto exposure counted');
    const armed = await submit(token, market('risk-armed', { start_armed: true }));
    assert.equal((await call<any>(base, 'GET', '/v1/risk', { token })).body.working_orders, 1);
    await call(base, 'DELETE', `/v1/orders/${armed.body.node_order_id}`, { token });

    // Filters: venues, kinds; totals follow the filter.
    const okx = await positions(token, '?venues=okx');
    assert.ok(okx.positions.length > 0, 'okx rows');
    for (const p of okx.positions) assert.equal(p.venue, 'okx');
    assert.equal(okx.totals['num_positions'], okx.positions.length);
    assert.equal(okx.totals['nav_usd_1e9'], okx.positions.reduce((s, p) => s + p.current_value_usd_1e9, 0));
    const two = await positions(token, '?venues=okx,bybit');
    assert.deepEqual([...new Set(two.positions.map((p) => p.venue))].sort(), ['bybit', 'okx']);
    assert.equal(two.totals['num_positions'], okx.positions.length + (await positions(token, '?venues=bybit')).positions.length);
    assert.deepEqual((await positions(token, '?venues=kraken')).positions, []);
    const crypto = await positions(token, '?kinds=crypto');
    assert.equal(crypto.positions.length, all.positions.length, 'the seeded assets are all crypto (stablecoins too)');
    assert.deepEqual((await positions(token, '?kinds=fiat')).positions, []);
    assert.deepEqual((await positions(token, '?kinds=perp,event_contract')).positions, []);
    assertError(await call(base, 'GET', '/v1/positions?kinds=stocks', { token }), 400, 'VALIDATION_ERROR', 'kinds');
    assertError(await call(base, 'GET', '/v1/positions?include_closed=maybe', { token }), 400, 'VALIDATION_ERROR', 'include_closed');

    // include_closed: sell a venue's whole BTC; its row closes and is hidden by default.
    let left = 100_000_000;
    for (let i = 0; i < 6 && left > 0; i++) {
      const sold = await submit(token, market(`close-btc-${i}`, { side: 'sell', qty_1e8: left, venue: 'binance' }));
      assert.equal(sold.status, 201, JSON.stringify(sold.body));
      await waitTerminal(token, sold.body.node_order_id);
      const row = (await positions(token, '?venues=binance&include_closed=true')).positions.find((p) => p.instrument.symbol === 'BTC')!;
      left = row.qty_1e8;
    }
    assert.equal(left, 0, 'the binance BTC was sold');
    const hidden = await positions(token, '?venues=binance');
    assert.ok(!hidden.positions.some((p) => p.instrument.symbol === 'BTC'), 'a closed row is hidden by default');
    const shown = await positions(token, '?venues=binance&include_closed=true');
    const closed = shown.positions.find((p) => p.instrument.symbol === 'BTC');
    assert.ok(closed !== undefined, 'include_closed=true shows it');
    assert.equal(closed.lifecycle.state, 'closed');
    assert.equal(closed.qty_1e8, 0);

    const sync = await call<{ synced: boolean; message: string }>(base, 'POST', '/v1/positions/sync', { token });
    assert.equal(sync.status, 200);
    assert.equal(typeof sync.body.synced, 'boolean');
    assert.equal(typeof sync.body.message, 'string');

    for (const path of ['/v1/balances', '/v1/positions/perp', '/v1/portfolio/summary', '/v1/portfolio/snapshots', '/v1/portfolio/unified', '/v1/analytics/portfolio', '/v1/positions/perp/funding']) {
      assertError(await call(base, 'GET', path, { token }), 404, 'NOT_FOUND');
    }
  });

  it('keeps sandbox and live apart: a sandbox key sees only sandbox orders, fills and positions', async () => {
    const { live, sandbox } = await newClient({ sandbox: true });
    await fund(live, ['binance']);
    const liveOrder = await submit(live, market('mode-1'));
    assert.equal(liveOrder.status, 201);
    await waitTerminal(live, liveOrder.body.node_order_id);

    // Nothing in sandbox yet: no credentials, no book, no orders.
    assert.deepEqual((await call(base, 'GET', '/v1/credentials', { token: sandbox })).body, { venues: [], unsafe: [] });
    assert.deepEqual((await positions(sandbox)).positions, []);
    assert.equal((await list(sandbox)).total, 0);
    assertError(await call(base, 'GET', `/v1/orders/${liveOrder.body.node_order_id}`, { token: sandbox }), 404, 'NOT_FOUND');
    // Without sandbox credentials the router finds no venue.
    const unfunded = await submit(sandbox, market('mode-0'));
    assert.equal(unfunded.status, 201);
    assert.equal(unfunded.body.status, 'REJECTED');
    assert.equal(unfunded.body.failure_class, 'no_route');

    // Credentials stored with the sandbox key fund the sandbox book only.
    await fund(sandbox, ['okx']);
    const sbPositions = await positions(sandbox);
    assert.deepEqual([...new Set(sbPositions.positions.map((p) => p.venue))], ['okx']);
    for (const p of sbPositions.positions) assert.equal(p.is_sandbox, true);
    const livePositions = await positions(live);
    assert.deepEqual([...new Set(livePositions.positions.map((p) => p.venue))], ['binance'], 'the live book is untouched');
    for (const p of livePositions.positions) assert.equal(p.is_sandbox, false);

    // The same client_order_id is free in the other mode.
    const sbOrder = await submit(sandbox, market('mode-1'));
    assert.equal(sbOrder.status, 201, JSON.stringify(sbOrder.body));
    assert.notEqual(sbOrder.body.node_order_id, liveOrder.body.node_order_id);
    assert.equal(sbOrder.body.is_sandbox, true);
    const sbDone = await waitTerminal(sandbox, sbOrder.body.node_order_id);
    for (const c of sbDone.children) assert.equal(c.venue, 'okx', 'routed over the sandbox credentials only');

    const sbList = await list(sandbox);
    assert.deepEqual(sbList.orders.map((o) => o.node_order_id).sort(), [sbOrder.body.node_order_id, unfunded.body.node_order_id].sort());
    for (const o of sbList.orders) assert.equal(o.is_sandbox, true);
    const liveList = await list(live);
    assert.deepEqual(liveList.orders.map((o) => o.node_order_id), [liveOrder.body.node_order_id]);
    assertError(await call(base, 'GET', `/v1/orders/${sbOrder.body.node_order_id}`, { token: live }), 404, 'NOT_FOUND');
    assertError(await call(base, 'DELETE', `/v1/orders/${sbOrder.body.node_order_id}`, { token: live }), 404, 'NOT_FOUND');

    const sbFills = await call<{ fills: { node_order_id: string; venue: string }[]; total: number }>(base, 'GET', '/v1/fills?limit=1000', { token: sandbox });
    for (const f of sbFills.body.fills) {
      assert.equal(f.node_order_id, sbOrder.body.node_order_id);
      assert.equal(f.venue, 'okx');
    }
    const liveFills = await call<{ fills: { node_order_id: string }[] }>(base, 'GET', '/v1/fills?limit=1000', { token: live });
    for (const f of liveFills.body.fills) assert.equal(f.node_order_id, liveOrder.body.node_order_id);
    if (sbDone.filled_qty_1e8 > 0) {
      const okxBtc = (await positions(sandbox)).positions.find((p) => p.instrument.symbol === 'BTC')!;
      assert.equal(okxBtc.qty_1e8, 100_000_000 + sbDone.filled_qty_1e8, 'the sandbox book moved by the sandbox fills');
    }
    assert.deepEqual((await positions(live)).positions.map((p) => [p.venue, p.instrument, p.qty_1e8]), livePositions.positions.map((p) => [p.venue, p.instrument, p.qty_1e8]));
  });
});
