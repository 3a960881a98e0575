/**
 * Object-level authorization generated from the OpenAPI document (OWASP API1, issue 10): for
 * every operation that takes a client-owned id in its path, another client's id and the other
 * mode's id are 404 in the envelope (never 403, so existence does not leak, and never data),
 * and the owner's object is unchanged afterwards. An operation whose path takes an id this file
 * has no owner factory for fails the test, so a new endpoint is covered the day it lands.
 */
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, envelope, startTradingService, until, type JsonResponse, type TradingService } from '../helpers/service.ts';
import { fillPath, operationsOf, type Operation } from './lib/operations.ts';

const VENUES = ['binance', 'okx', 'bybit'];
/** Path parameters that name market data, the same for everyone (pairs, underlyings, venues, prediction market slugs, tickers and token ids): not client-owned. */
const PUBLIC_PARAMS = new Set(['symbol', 'underlying', 'venue', 'slug', 'prediction_venue', 'token_id']);

type Principal = 'alice-live' | 'alice-sandbox' | 'bob-live';

interface Owned {
  /** Creates an object of this kind for `owner`; returns its id. */
  create(owner: Principal): Promise<string>;
  /** What the owner reads of it, to compare before and after the intruder's attempt. */
  read(owner: Principal, id: string): Promise<unknown>;
  /** (owner, intruder) pairs that must not reach each other's objects of this kind. */
  pairs: [Principal, Principal][];
}

describe('object-level authorization on every operation with a client-owned id (generated from the OpenAPI document)', () => {
  let trading: TradingService;
  let operations: Operation[];
  const tokens = {} as Record<Principal, string>;
  let seq = 0;

  before(async () => {
    trading = await startTradingService({ client: 'alice', venues: VENUES, symbol: 'BTC-USDT', service: { workers: 1 } });
    const storage = trading.svc.service.storage;
    await storage.clients.put({ client_id: 'bob', tier: 'enterprise', rate_limit_qps: 2_000, is_admin: false, created_at_ms: Date.now() });
    tokens['alice-live'] = trading.token;
    tokens['alice-sandbox'] = (await storage.apiKeys.create('alice', { label: 'sandbox', sandbox: true })).raw_key;
    tokens['bob-live'] = (await storage.apiKeys.create('bob', { label: 'live', sandbox: false })).raw_key;
    operations = operationsOf((await call<Parameters<typeof operationsOf>[0]>(trading.base, 'GET', '/v1/openapi.json')).body);
  });

  after(async () => {
    await trading?.svc.stop();
  });

  const order = async (owner: Principal, extra: Record<string, unknown>): Promise<string> => {
    const body = { client_order_id: `bola-${seq++}`, symbol: 'BTC-USDT', side: 'buy', qty_1e8: 100_000, order_type: 'limit', limit_price_1e9: 1_000_000_000_000, time_in_force: 'gtc', ...extra };
    const res = await call<{ node_order_id: string }>(trading.base, 'POST', '/v1/orders', { token: tokens[owner], body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.node_order_id;
  };
  /** What must not move: who owns it, what it is, its state (timestamps of a working order's venue checks may). */
  const readOrder = async (owner: Principal, id: string): Promise<unknown> => {
    const res = await call<Record<string, unknown>>(trading.base, 'GET', `/v1/orders/${id}`, { token: tokens[owner] });
    if (res.status !== 200) return undefined;
    const { client_id, client_order_id, is_sandbox, status, qty_1e8, filled_qty_1e8, execution_type } = res.body;
    return { client_id, client_order_id, is_sandbox, status, qty_1e8, filled_qty_1e8, execution_type };
  };
  /** Waits until a new order has left its transient states (its legs are out and answered). */
  const settled = async (owner: Principal, id: string): Promise<string> => {
    await until(`order ${id} settled`, async () => {
      const o = (await readOrder(owner, id)) as { status?: string } | undefined;
      return o !== undefined && !['ACCEPTED', 'RUNNING', 'PENDING'].includes(o.status ?? '') ? true : undefined;
    }, 10_000, 50);
    return id;
  };
  const everyPair: [Principal, Principal][] = [
    ['alice-live', 'bob-live'],
    ['bob-live', 'alice-live'],
    ['alice-live', 'alice-sandbox'],
    ['alice-sandbox', 'alice-live'],
  ];

  const owned: Record<string, Owned> = {
    node_order_id: { create: async (owner) => settled(owner, await order(owner, {})), read: readOrder, pairs: everyPair },
    graph_id: {
      create: async (owner) => (await order(owner, { order_type: 'market', limit_price_1e9: undefined, time_in_force: undefined, start_armed: true })).replace(/^ord_/, 'grf_'),
      read: (owner, id) => readOrder(owner, id.replace(/^grf_/, 'ord_')),
      pairs: everyPair,
    },
    key_id: {
      create: async (owner) => {
        const res = await call<{ id: string }>(trading.base, 'POST', '/v1/api_keys', { token: tokens[owner], body: { label: `bola-${seq++}` } });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        return res.body.id;
      },
      read: async (owner, id) => ((await call<{ id: string }[]>(trading.base, 'GET', '/v1/api_keys', { token: tokens[owner] })).body as { id: string }[]).find((k) => k.id === id),
      // An account's live key manages its sandbox keys by design (docs/api-decisions.md); the
      // other way round, and across accounts, is closed.
      pairs: [
        ['alice-live', 'bob-live'],
        ['bob-live', 'alice-live'],
        ['alice-live', 'alice-sandbox'],
      ],
    },
  };

  owned['deployment_id'] = {
    create: async (owner) => {
      const body = { name: `bola-${seq++}`, symbols: ['BTC-USDT'], venue: 'binance', artifact_base64: readFileSync(new URL('../fixtures/algos/healthy.wasm', import.meta.url)).toString('base64') };
      const res = await call<{ deployment_id: string }>(trading.base, 'POST', '/v1/deployments', { token: tokens[owner], body });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.deployment_id;
    },
    read: async (owner, id) => (await call(trading.base, 'GET', `/v1/deployments/${id}`, { token: tokens[owner] })).body,
    pairs: everyPair,
  };

  owned['alert_id'] = {
    create: async (owner) => {
      // A level far from any market: it stays active, so a read after an intrusion is unchanged.
      const res = await call<{ alert_id: string }>(trading.base, 'POST', '/v1/alerts', { token: tokens[owner], body: { kind: 'price', symbol: 'BTC-USDT', direction: 'above', threshold: 1e12, label: `bola-${seq++}` } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.alert_id;
    },
    read: async (owner, id) => (await call(trading.base, 'GET', `/v1/alerts/${id}`, { token: tokens[owner] })).body,
    pairs: everyPair,
  };

  it('covers every path id of the document: each is public market data or has an owner factory here', () => {
    const uncovered = operations.flatMap((op) => op.params.filter((p) => p.in === 'path' && !PUBLIC_PARAMS.has(p.name) && owned[p.name] === undefined).map((p) => `${op.method} ${op.path} {${p.name}}`));
    assert.deepEqual(uncovered, [], 'add an owner factory (or mark the parameter public) for these');
  });

  it("another client's ids and the other mode's ids are 404 on every such operation, and the owner's object is unchanged", async (t) => {
    let checked = 0;
    for (const op of operations) {
      const idParam = op.params.find((p) => p.in === 'path' && owned[p.name] !== undefined);
      if (idParam === undefined) continue;
      const kind = owned[idParam.name]!;
      for (const [owner, intruder] of kind.pairs) {
        const id = await kind.create(owner);
        const original: unknown = await kind.read(owner, id);
        assert.notEqual(original, undefined, `${owner} reads its own ${idParam.name}`);
        const path = fillPath(op.path, { [idParam.name]: id });
        const res: JsonResponse<unknown> = await call<unknown>(trading.base, op.method, path, { token: tokens[intruder], ...(op.body === undefined ? {} : { body: {} }) });
        assert.equal(res.status, 404, `${op.method} ${op.path}: ${intruder} on ${owner}'s ${id}: ${res.status} ${JSON.stringify(res.body)}`);
        assert.equal(envelope(res.body).code, 'NOT_FOUND');
        assert.ok(!JSON.stringify(res.body).includes('"client_id"'), 'no object data in the answer');
        assert.deepEqual(await kind.read(owner, id), original, `${op.method} ${op.path} by ${intruder} changed ${owner}'s object`);
        checked++;
      }
    }
    t.diagnostic(`${checked} (operation, owner, intruder) cases`);
    assert.ok(checked >= 15, `only ${checked} cases: the document lost its id operations?`);
  });

  it("a query filter naming another client's order returns none of its data", async () => {
    const id = await order('alice-live', { order_type: 'market', limit_price_1e9: undefined, time_in_force: undefined });
    for (const intruder of ['bob-live', 'alice-sandbox'] as const) {
      const fills = await call<{ fills: unknown[] }>(trading.base, 'GET', `/v1/fills?node_order_id=${id}`, { token: tokens[intruder] });
      assert.equal(fills.status, 200, JSON.stringify(fills.body));
      assert.deepEqual(fills.body.fills, []);
      const orders = await call<{ orders: { node_order_id: string }[] }>(trading.base, 'GET', '/v1/orders?limit=1000', { token: tokens[intruder] });
      assert.ok(!orders.body.orders.some((o) => o.node_order_id === id), `${intruder} lists alice's live order`);
    }
  });
});
