/**
 * The OpenAPI document as a contract, against the real service: every operation documents a
 * schema for each of its 2xx responses (a `text/event-stream` for the SSE streams, the 101 and
 * its `x-websocket` messages for the WebSocket), and a real trading session (market orders, a
 * resting GTC limit and its cancel, an armed order and its activation, a rejected order, the
 * listings, fills, positions, risk, preview, health and data endpoints, the SSE streams and the
 * WebSocket channels) answers bodies that validate against those schemas, compiled with ajv
 * from the served document itself (its components resolve the `$ref`s). A body that does not
 * validate fails the test with ajv's errors.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { WebSocket } from 'ws';
import { call, startTradingService, TEST_OPERATOR_KEY, until, type JsonResponse, type TestService } from '../helpers/service.ts';
import { SseClient } from '../helpers/sse-client.ts';
import { StreamClient, type Frame } from '../helpers/stream-client.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

const SYMBOL = 'BTC-USDT';
const FUNDED = ['binance', 'okx', 'bybit'];
const TERMINAL = new Set(['COMPLETED', 'CANCELLED', 'REJECTED', 'UNRESOLVED']);
const DOC = 'urn:contract:openapi.json';
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];

interface MediaType {
  schema?: unknown;
}
interface ResponseObject {
  description: string;
  content?: Record<string, MediaType>;
  headers?: Record<string, { required?: boolean; schema?: { const?: string } }>;
  'x-websocket'?: { client?: unknown; server?: unknown };
}
interface Operation {
  operationId: string;
  parameters?: { name: string; in: string }[];
  responses: Record<string, ResponseObject>;
}
interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}
interface Order {
  node_order_id: string;
  graph_id: string;
  status: string;
  fills: unknown[] | null;
  tca: unknown;
  [k: string]: unknown;
}

/** A JSON pointer token (RFC 6901). */
const token = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

describe('OpenAPI response contract (real trading session)', () => {
  let svc: TestService;
  let base: string;
  let key: string;
  let doc: OpenApiDoc;
  let docResponse: JsonResponse;
  let ajv: Ajv2020;
  const validators = new Map<string, ValidateFunction>();
  /** `method template` of every operation whose answer was validated, with the statuses seen. */
  const covered = new Map<string, Set<number>>();
  let risk: SseClient;
  let tca: SseClient;
  let stream: StreamClient;
  /** Every WebSocket frame received, in order. */
  const frames: Frame[] = [];
  const placed: Order[] = [];

  /** A compiled validator for the schema at `pointer` in the served document. */
  const validatorAt = (pointer: string): ValidateFunction => {
    let v = validators.get(pointer);
    if (v === undefined) {
      v = ajv.compile({ $ref: `${DOC}#${pointer}` });
      validators.set(pointer, v);
    }
    return v;
  };

  const explain = (errors: ErrorObject[] | null | undefined, value: unknown) =>
    `${JSON.stringify(errors?.slice(0, 8), null, 1)}\nvalue: ${JSON.stringify(value).slice(0, 3000)}`;

  /** The documented operation a concrete path answers to: the template with the most literal segments. */
  const operationOf = (method: string, path: string): { template: string; op: Operation } => {
    const bare = path.split('?')[0]!;
    let best: { template: string; op: Operation; literals: number } | undefined;
    for (const [template, item] of Object.entries(doc.paths)) {
      const op = item[method.toLowerCase()];
      if (op === undefined) continue;
      const re = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      if (!re.test(bare)) continue;
      const literals = template.split('/').filter((s) => !s.startsWith('{')).length;
      if (best === undefined || literals > best.literals) best = { template, op, literals };
    }
    assert.ok(best, `no documented operation for ${method} ${bare}`);
    return best;
  };

  /** Validates a response body against its operation's documented schema for that status. */
  const check = <T>(method: string, path: string, res: JsonResponse<T>): JsonResponse<T> => {
    const { template, op } = operationOf(method, path);
    const response = op.responses[String(res.status)];
    assert.ok(response, `${method} ${template} answered ${res.status}, which it does not document: ${JSON.stringify(res.body).slice(0, 500)}`);
    assert.ok(response.content?.['application/json']?.schema, `${method} ${template} ${res.status} has no application/json schema`);
    const v = validatorAt(`/paths/${token(template)}/${method.toLowerCase()}/responses/${res.status}/content/application~1json/schema`);
    assert.ok(v(res.body), `${method} ${path} ${res.status} does not match its schema: ${explain(v.errors, res.body)}`);
    const key = `${method.toUpperCase()} ${template}`;
    (covered.get(key) ?? covered.set(key, new Set()).get(key)!).add(res.status);
    return res;
  };

  /** A real call whose answer must be 2xx and match its schema. */
  const api = async <T = Record<string, unknown>>(method: string, path: string, options: { body?: unknown; token?: string } = {}): Promise<T> => {
    const res = await call<T>(base, method, path, { token: options.token ?? key, ...(options.body !== undefined ? { body: options.body } : {}) });
    assert.ok(res.status >= 200 && res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return check(method, path, res).body;
  };

  const settled = (id: string) =>
    until(`order ${id} terminal`, async () => {
      const order = await api<Order>('GET', `/v1/orders/${id}`);
      return TERMINAL.has(order.status) ? order : undefined;
    });

  const sseSchema = (template: string) => validatorAt(`/paths/${token(template)}/get/responses/200/content/text~1event-stream/schema`);
  const wsSchema = (side: 'client' | 'server') => validatorAt(`/paths/${token('/v1/stream')}/get/responses/101/x-websocket/${side}`);

  before(async () => {
    ({ svc, base, token: key } = await startTradingService({ client: 'contract-client', venues: FUNDED, symbol: SYMBOL }));
    docResponse = await call<OpenApiDoc>(base, 'GET', '/v1/openapi.json');
    assert.equal(docResponse.status, 200);
    doc = docResponse.body as OpenApiDoc;
    // The document is the root of every schema compiled here: its `#/components/...` refs resolve in it.
    // Strict: an unknown keyword in any schema fails to compile. The document's own top-level
    // fields are declared as annotations, so the document can be the root without being a schema.
    ajv = addFormats(new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictRequired: false }));
    ajv.addVocabulary(Object.keys(doc));
    ajv.addSchema(structuredClone(doc) as object, DOC);

    const port = svc.service.port;
    risk = await SseClient.open(port, '/v1/risk/stream', key);
    tca = await SseClient.open(port, '/v1/tca/stream', key);
    const ticket = await api<{ ticket: string }>('GET', '/v1/ws/ticket');
    stream = await StreamClient.open(`ws://127.0.0.1:${port}/v1/stream?ticket=${ticket.ticket}`);
    stream.ws.on('message', (data) => frames.push(JSON.parse(String(data)) as Frame));
  });

  after(async () => {
    stream?.close();
    risk?.close();
    tca?.close();
    await svc?.stop();
  });

  it('documents a schema for every 2xx response of every operation, and every $ref resolves', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => HTTP_METHODS.includes(method))
        .map(([method, op]) => ({ path, method, op })),
    );
    assert.ok(operations.length >= 40, `${operations.length} operations`);
    const missing: string[] = [];
    for (const { path, method, op } of operations) {
      const success = Object.keys(op.responses).filter((s) => /^2\d\d$/.test(s));
      if (path === '/v1/stream' || path === '/v1/ws/new_markets' || path === '/v1/ws/market_resolved') {
        // The WebSockets: no 2xx; the upgrade is the 101, its messages in x-websocket.
        assert.deepEqual(success, [], 'the WebSocket upgrade answers 101, not 2xx');
        continue;
      }
      assert.ok(success.length > 0, `${method} ${path} documents no 2xx response`);
      for (const status of success) {
        const content = op.responses[status]!.content ?? {};
        const types = Object.keys(content);
        const sse = path === '/v1/risk/stream' || path === '/v1/tca/stream' || path === '/v1/alerts/stream';
        assert.deepEqual(types, [sse ? 'text/event-stream' : 'application/json'], `${method} ${path} ${status} media types`);
        if (content[types[0]!]?.schema === undefined) missing.push(`${method} ${path} ${status}`);
      }
    }
    assert.deepEqual(missing, [], '2xx responses without a schema');

    const upgrade = doc.paths['/v1/stream']!['get']!;
    const switching = upgrade.responses['101'];
    assert.ok(switching, 'GET /v1/stream documents the 101 upgrade');
    assert.equal(switching.content, undefined, 'a 101 has no body');
    assert.equal(switching.headers?.['Upgrade']?.schema?.const, 'websocket');
    assert.equal(switching.headers?.['Connection']?.schema?.const, 'Upgrade');
    assert.ok(switching.headers?.['Sec-WebSocket-Accept']?.required);
    assert.ok(switching['x-websocket']?.client && switching['x-websocket']?.server, 'the messages after the upgrade');
    assert.ok(upgrade.parameters?.some((p) => p.name === 'ticket' && p.in === 'query'), 'the ticket parameter');
    assert.ok(upgrade.responses['426']?.content?.['application/json']?.schema, 'a plain GET is the 426 envelope');

    // Every reference names a component, and every schema compiles (strict: unknown keywords fail).
    const refs = new Set<string>();
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(walk);
      if (value === null || typeof value !== 'object') return;
      for (const [k, v] of Object.entries(value)) {
        if (k === '$ref' && typeof v === 'string') refs.add(v);
        else walk(v);
      }
    };
    walk(doc);
    for (const ref of refs) {
      assert.match(ref, /^#\/components\/schemas\//, ref);
      assert.ok(doc.components.schemas[ref.slice('#/components/schemas/'.length)], `${ref} resolves`);
    }
    for (const name of Object.keys(doc.components.schemas)) validatorAt(`/components/schemas/${token(name)}`);
  });

  it('the schemas are not vacuous: a wrong type, a missing field, an extra field or a wrong null fail', async () => {
    const order = check('POST', '/v1/orders', await call<Order>(base, 'POST', '/v1/orders', {
      token: key,
      body: { client_order_id: 'contract-probe', symbol: SYMBOL, side: 'buy', qty_1e8: 100_000, order_type: 'market' },
    })).body;
    placed.push(order);
    const v = validatorAt('/components/schemas/OrderRest');
    assert.ok(v(order), explain(v.errors, order));
    const { client_id: _dropped, ...missing } = order;
    for (const bad of [{ ...order, qty_1e8: String(order['qty_1e8']) }, { ...order, extra: 1 }, missing, { ...order, children: null }, { ...order, status: 'DONE' }, { ...order, filled_qty_1e8: 0.5 }]) {
      assert.equal(v(bad), false, `accepted ${JSON.stringify(bad).slice(0, 200)}`);
    }
    const fill = validatorAt('/components/schemas/FillRecord');
    const aFill = { id: 1, fill_id: 'fil_1', node_order_id: 'ord_1', venue: 'binance', symbol: SYMBOL, side: 'buy', instrument_type: 'spot', qty_1e8: 1, price_1e9: 1, fee_1e9: 0, ts_unix_ns: 1, commission_asset: 'USDT', exchange_ts_ns: 1, execution_region: 'ap', fee_breakdown: { commission_1e9: 0, lp_fee_1e9: 0, gas_1e9: 0, priority_fee_1e9: 0, mev_tip_1e9: 0, funding_1e9: 0, rebate_1e9: 0, hop_fees_1e9: 0, commission_asset: 'USDT' }, is_maker: false, maker_fee_bps_applied: null, taker_fee_bps_applied: 10, trade_id: 't', venue_reported_cum_fee_1e9: 0, lineage_deployment_id: null };
    assert.ok(fill(aFill), explain(fill.errors, aFill));
    assert.equal(fill({ ...aFill, taker_fee_bps_applied: null }), false, 'a taker fill carries its taker rate');
    assert.equal(fill({ ...aFill, is_maker: true }), false, 'a maker fill carries its maker rate, not the taker one');
  });

  it('a trading session: every 2xx body matches its operation schema', async () => {
    // The document validates against its own response schema.
    check('GET', '/v1/openapi.json', docResponse);
    await api('GET', '/v1/health');
    const quote = await api<{ nbbo: { bid: number } }>('GET', `/v1/quotes/${SYMBOL}`);
    const bid1e9 = Math.round(quote.nbbo.bid * 100) * 10_000_000;

    // Preview: a plan that routes, and one that plans nothing (a limit far below the market: nulls).
    const preview = await api<{ plan: { planned_qty_1e8: number }; landed_cost_1e9: number | null }>('POST', '/v1/orders/preview', {
      body: { symbol: SYMBOL, side: 'buy', qty_1e8: 1_000_000, order_type: 'market' },
    });
    assert.ok(preview.plan.planned_qty_1e8 > 0 && preview.landed_cost_1e9 !== null, JSON.stringify(preview).slice(0, 300));
    const empty = await api<{ plan: { planned_qty_1e8: number }; landed_cost_1e9: number | null }>('POST', '/v1/orders/preview', {
      body: { symbol: SYMBOL, side: 'buy', qty_1e8: 1_000_000, order_type: 'limit', limit_price_1e9: 1_000_000_000 },
    });
    assert.equal(empty.plan.planned_qty_1e8, 0);
    assert.equal(empty.landed_cost_1e9, null);

    // Market orders: a buy, the same request again (200, the original), then a sell.
    const buyBody = { client_order_id: 'contract-buy-1', symbol: SYMBOL, side: 'buy', qty_1e8: 2_000_000, order_type: 'market' };
    const buy = check('POST', '/v1/orders', await call<Order>(base, 'POST', '/v1/orders', { token: key, body: buyBody }));
    assert.equal(buy.status, 201, JSON.stringify(buy.body));
    placed.push(buy.body);
    const again = check('POST', '/v1/orders', await call<Order>(base, 'POST', '/v1/orders', { token: key, body: buyBody }));
    assert.equal(again.status, 200);
    const bought = await settled(buy.body.node_order_id);
    assert.equal(bought.status, 'COMPLETED', JSON.stringify(bought).slice(0, 500));
    assert.ok(bought.tca !== null, 'a completed order carries its TCA');
    const expanded = await api<Order>('GET', `/v1/orders/${buy.body.node_order_id}?expand=fills`);
    assert.ok(Array.isArray(expanded.fills) && expanded.fills.length > 0, 'expand=fills lists the fills');

    const sell = check('POST', '/v1/orders', await call<Order>(base, 'POST', '/v1/orders', {
      token: key,
      body: { client_order_id: 'contract-sell-1', symbol: SYMBOL, side: 'sell', qty_1e8: 1_000_000, order_type: 'market' },
    }));
    assert.equal(sell.status, 201, JSON.stringify(sell.body));
    placed.push(sell.body);
    await settled(sell.body.node_order_id);

    // A GTC limit far below the market rests (ACTIVE), shows in the working set, and is cancelled.
    const far = Math.floor(bid1e9 / 2 / 1e9) * 1e9;
    const gtc = check('POST', '/v1/orders', await call<Order>(base, 'POST', '/v1/orders', {
      token: key,
      body: { client_order_id: 'contract-gtc-1', symbol: SYMBOL, side: 'buy', qty_1e8: 100_000, order_type: 'limit', limit_price_1e9: far, time_in_force: 'gtc' },
    }));
    assert.equal(gtc.status, 201, JSON.stringify(gtc.body));
    placed.push(gtc.body);
    await until('the GTC order resting', async () => ((await api<Order>('GET', `/v1/orders/${gtc.body.node_order_id}`)).status === 'ACTIVE' ? true : undefined));
    const open = await api<{ orders: Order[] }>('GET', '/v1/orders?status=open');
    assert.ok(open.orders.some((o) => o.node_order_id === gtc.body.node_order_id), 'the resting order is in the working set');
    const working = await api<{ working_orders: number }>('GET', '/v1/risk');
    assert.equal(working.working_orders, 1);
    const cancelled = await api<{ status: string }>('DELETE', `/v1/orders/${gtc.body.node_order_id}`);
    assert.equal(cancelled.status, 'CANCELLED');
    assert.equal((await api<{ status: string }>('DELETE', `/v1/orders/${gtc.body.node_order_id}`)).status, 'CANCELLED', 'a terminal order answers with its status');

    // An armed order (WAITING) and its activation; an order over the notional cap (REJECTED).
    const armed = check('POST', '/v1/orders', await call<Order>(base, 'POST', '/v1/orders', {
      token: key,
      body: { client_order_id: 'contract-armed-1', symbol: SYMBOL, side: 'buy', qty_1e8: 100_000, order_type: 'market', start_armed: true },
    }));
    assert.equal(armed.body.status, 'WAITING', JSON.stringify(armed.body));
    placed.push(armed.body);
    await api<Order>('POST', `/v1/execution_graphs/${armed.body.graph_id}/activate`);
    await settled(armed.body.node_order_id);
    const rejected = check('POST', '/v1/orders', await call<Order>(base, 'POST', '/v1/orders', {
      token: key,
      body: { client_order_id: 'contract-cap-1', symbol: SYMBOL, side: 'buy', qty_1e8: 9_000_000_000_000_000, order_type: 'market' },
    }));
    assert.equal(rejected.body.status, 'REJECTED', JSON.stringify(rejected.body));
    placed.push(rejected.body);
    for (const order of placed) await settled(order.node_order_id);

    // The listings, in every shape they come in.
    const list = await api<{ orders: Order[]; next_cursor: string | null; venue_view: unknown }>('GET', '/v1/orders');
    assert.equal(list.orders.length, placed.length);
    assert.notEqual(list.venue_view, null, "a live account's first page carries the venue view");
    const listExpanded = await api<{ orders: Order[] }>('GET', '/v1/orders?expand=fills');
    assert.ok(listExpanded.orders.every((o) => o.fills === null), 'the listing does not expand fills');
    const page = await api<{ orders: Order[]; next_cursor: string | null }>('GET', '/v1/orders?limit=1');
    assert.ok(page.next_cursor !== null);
    await api('GET', `/v1/orders?limit=2&after=${page.next_cursor}`);
    await api('GET', `/v1/orders?symbol=${SYMBOL}&history=true`);
    await api('GET', '/v1/orders?status=COMPLETED&offset=1');
    await api('GET', '/v1/orders?limit=0');
    await api('GET', `/v1/orders/${rejected.body.node_order_id}?expand=fills`);

    const fills = await api<{ fills: { id: number }[]; next_cursor: string | null }>('GET', '/v1/fills');
    assert.ok(fills.fills.length > 0);
    const fillPage = await api<{ next_cursor: string | null }>('GET', '/v1/fills?limit=1');
    assert.ok(fillPage.next_cursor !== null);
    await api('GET', `/v1/fills?limit=1&after=${fillPage.next_cursor}`);
    await api('GET', `/v1/fills?node_order_id=${buy.body.node_order_id}&limit=1`);
    await api('GET', `/v1/fills?symbol=${SYMBOL}`);

    const positions = await api<{ positions: { instrument: { kind: string } }[] }>('GET', '/v1/positions');
    assert.ok(positions.positions.some((p) => p.instrument.kind === 'crypto'), 'crypto rows');
    await api('GET', '/v1/positions?kinds=crypto&include_closed=true');
    await api('GET', `/v1/positions?venues=${FUNDED[0]}&kinds=fiat`);
    await api('POST', '/v1/positions/sync');
    await api('GET', '/v1/risk');

    await api('GET', '/v1/health/feeds');
    await api('GET', '/v1/data/health');
    await api('GET', '/v1/data/stats');
    await api('GET', '/v1/openapi.json');

    // A plain HTTP GET of the WebSocket endpoint: the documented 426 envelope.
    const plain = check('GET', '/v1/stream', await call(base, 'GET', '/v1/stream'));
    assert.equal(plain.status, 426);

    for (const op of [
      'GET /v1/orders', 'POST /v1/orders', 'POST /v1/orders/preview', 'GET /v1/orders/{node_order_id}', 'DELETE /v1/orders/{node_order_id}',
      'POST /v1/execution_graphs/{graph_id}/activate', 'GET /v1/fills', 'GET /v1/positions', 'POST /v1/positions/sync', 'GET /v1/risk',
      'GET /v1/health/feeds', 'GET /v1/data/health', 'GET /v1/data/stats', 'GET /v1/openapi.json',
    ]) {
      assert.ok(covered.has(op), `${op} was not exercised`);
    }
    assert.deepEqual([...covered.get('POST /v1/orders')!].sort(), [200, 201]);
  });

  it('the sandbox endpoints: every 2xx body matches, and positions of all four kinds match the Position schema', async () => {
    const sandbox = (await svc.service.storage.apiKeys.create('contract-client', { label: 'sandbox', sandbox: true })).raw_key;
    const put = { initial_balance_usd: 1_000_000_000, seed: 7, latency_ms: 5, reject_rate: 0, partial_fill_rate: 0, disconnect_rate: 0, cancel_race: false };
    await api('PUT', '/v1/sandbox/settings', { token: sandbox, body: put });
    await api('GET', '/v1/sandbox/settings', { token: sandbox });
    await api('POST', '/v1/sandbox/reset', { token: sandbox });
    await api('POST', '/v1/sandbox/positions', {
      token: sandbox,
      body: {
        positions: [
          { venue: 'hyperliquid', kind: 'perp', symbol: 'BTC-USDC', qty: -0.5, entry_price_usd: 60_000 },
          { venue: 'kalshi', kind: 'event_contract', symbol: 'FEDCUT-25DEC:NO', qty: 10, entry_price_usd: 0.4 },
          { venue: 'polymarket', kind: 'event_contract', symbol: '7'.repeat(78), qty: 3 },
          { venue: 'kraken', kind: 'fiat', symbol: 'EUR', qty: 100 },
          { venue: 'binance', kind: 'crypto', symbol: 'ETH', qty: 1.25 },
        ],
      },
    });
    const positions = await api<{ positions: { instrument: { kind: string }; is_sandbox: boolean }[] }>('GET', '/v1/positions', { token: sandbox });
    assert.deepEqual([...new Set(positions.positions.map((p) => p.instrument.kind))].sort(), ['crypto', 'event_contract', 'fiat', 'perp']);
    assert.ok(positions.positions.every((p) => p.is_sandbox));
    for (const op of ['PUT /v1/sandbox/settings', 'GET /v1/sandbox/settings', 'POST /v1/sandbox/reset', 'POST /v1/sandbox/positions']) {
      assert.ok(covered.has(op), `${op} was not exercised`);
    }
  });

  it('server-sent events match their stream schema, the kill switch update and the last `end` event included', async () => {
    const riskEvent = sseSchema('/v1/risk/stream');
    const tcaEvent = sseSchema('/v1/tca/stream');
    // The read-out on connect, then one per finished order.
    for (let i = 0; i < 3; i++) {
      const e = await risk.next('risk');
      assert.ok(riskEvent(e), explain(riskEvent.errors, e));
    }
    // One TCA report per order that filled (each carries its TCA).
    const withTca = (await api<{ orders: Order[] }>('GET', '/v1/orders')).orders.filter((o) => o.tca !== null).map((o) => o.node_order_id);
    assert.ok(withTca.length >= 3, `${withTca.length} orders with TCA`);
    const reports = new Set<string>();
    for (let i = 0; i < withTca.length; i++) {
      const e = await tca.next('tca_report');
      assert.ok(tcaEvent(e), explain(tcaEvent.errors, e));
      reports.add((e.data as { node_order_id: string }).node_order_id);
    }
    assert.deepEqual([...reports].sort(), withTca.sort());

    // The kill switch: the risk stream gets the switch alone (not a full read-out).
    await api('PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: true, reason: 'contract test' } });
    const halted = await until('the kill switch event', async () => {
      const e = await risk.next('risk');
      return (e.data as { kill_switch?: { active: boolean }; limits?: unknown }).kill_switch?.active === true ? e : undefined;
    });
    assert.ok(riskEvent(halted), explain(riskEvent.errors, halted));
    await api('GET', '/v1/risk');
    await api('PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: false } });

    // A stream whose key is deleted ends with `end`.
    const issued = await api<{ id: string; raw_key: string }>('POST', '/v1/api_keys', { body: { label: 'short-lived' } });
    const doomed = await SseClient.open(svc.service.port, '/v1/risk/stream', issued.raw_key);
    try {
      const first = await doomed.next('risk');
      assert.ok(riskEvent(first), explain(riskEvent.errors, first));
      await api('DELETE', `/v1/api_keys/${issued.id}`);
      const end = await doomed.next('end');
      assert.ok(riskEvent(end), explain(riskEvent.errors, end));
      await doomed.ended;
    } finally {
      doomed.close();
    }
  });

  it('WebSocket frames and messages match the x-websocket schemas of the 101', async () => {
    const server = wsSchema('server');
    const client = wsSchema('client');
    // The upgrade answers what the 101 documents.
    const headers = await new Promise<Record<string, string | string[] | undefined>>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${svc.service.port}/v1/stream`, { headers: { authorization: `Bearer ${key}` } });
      ws.once('upgrade', (res) => {
        resolve(res.headers);
        ws.terminate();
      });
      ws.once('error', reject);
    });
    assert.equal(String(headers['upgrade']).toLowerCase(), 'websocket');
    assert.equal(String(headers['connection']).toLowerCase(), 'upgrade');
    assert.ok(headers['sec-websocket-accept']);

    // Subscribe (one unknown channel: an error frame), then trade and toggle the kill switch for data frames.
    const messages: unknown[] = [
      { subscribe: ['orders', 'fills', 'routing', 'tca', 'system', `prices:${SYMBOL}`, 'no-such-channel'] },
      { unsubscribe: ['no-such-channel'] },
    ];
    for (const m of messages) {
      assert.ok(client(m), explain(client.errors, m));
      stream.send(m);
    }
    assert.equal(client({}), false, 'a message names subscribe or unsubscribe');
    await stream.next((f) => f.type === 'subscribed');
    await stream.next((f) => f.type === 'error');
    await stream.next((f) => f.type === 'unsubscribed');

    const order = check('POST', '/v1/orders', await call<Order>(base, 'POST', '/v1/orders', {
      token: key,
      body: { client_order_id: 'contract-ws-1', symbol: SYMBOL, side: 'buy', qty_1e8: 1_000_000, order_type: 'market' },
    })).body;
    await settled(order.node_order_id);
    await api('PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: true, reason: 'contract test (ws)' } });
    await api('PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: false } });
    for (const channel of ['orders', 'fills', 'routing', 'tca', 'system', `prices:${SYMBOL}`]) {
      await stream.next((f) => f.type === 'data' && f.channel === channel, 10_000);
    }
    assert.ok(frames.length >= 8, `${frames.length} frames`);
    for (const frame of frames) assert.ok(server(frame), `frame ${frame.type} ${frame.channel ?? ''}: ${explain(server.errors, frame)}`);
  });
});
