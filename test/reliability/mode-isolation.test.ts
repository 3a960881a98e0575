/**
 * Isolation of list and read-out endpoints, generated from the OpenAPI document: two clients,
 * each with a live and a sandbox key, leave footprints (a filled order and its fills, a resting
 * order, an API key, a sandbox position, venue credentials); then every authenticated GET
 * without a client-owned path id is called with each key, and no answer may carry another
 * principal's footprint. (Ids in paths are object-authorization.test.ts; streams are
 * sandbox-orders.test.ts.) A new GET endpoint is covered the day it lands; one that needs a
 * query value this file does not know fails the test until it is given one.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, startTradingService, until, venueCredentials, type TradingService } from '../helpers/service.ts';
import { TERMINAL, type ApiFill, type ApiOrder } from '../helpers/orders.ts';
import { fillPath, operationsOf, type Operation } from './lib/operations.ts';

const SYMBOL = 'BTC-USDT';
type Principal = 'alice-live' | 'alice-sandbox' | 'bob-live' | 'bob-sandbox';
const PRINCIPALS: Principal[] = ['alice-live', 'alice-sandbox', 'bob-live', 'bob-sandbox'];
/** Values for path and required query parameters that name public things (market data). */
const PUBLIC_VALUES: Record<string, string> = { symbol: SYMBOL, underlying: 'BTC', ticker: SYMBOL, from: '2026-01-01T00:00:00Z' };
/** Credential venues: each principal stores its own, so a list showing another's venue is a leak. */
const CREDENTIAL_VENUE: Record<Principal, string> = { 'alice-live': 'binance', 'alice-sandbox': 'okx', 'bob-live': 'bybit', 'bob-sandbox': 'kucoin' };

describe('list and read-out isolation on every authenticated GET (generated from the OpenAPI document)', () => {
  let trading: TradingService;
  let operations: Operation[];
  const tokens = {} as Record<Principal, string>;
  /** Strings only this principal's answers may carry. */
  const footprints = {} as Record<Principal, string[]>;

  const submit = async (p: Principal, body: Record<string, unknown>): Promise<string> => {
    const res = await call<{ node_order_id: string }>(trading.base, 'POST', '/v1/orders', { token: tokens[p], body });
    assert.equal(res.status, 201, `${p}: ${JSON.stringify(res.body)}`);
    return res.body.node_order_id;
  };
  const terminal = (p: Principal, id: string) =>
    until(`${p} order ${id} terminal`, async () => {
      const res = await call<ApiOrder & { fills: ApiFill[] | null }>(trading.base, 'GET', `/v1/orders/${id}?expand=fills`, { token: tokens[p] });
      return TERMINAL.has(res.body.status) ? res.body : undefined;
    });

  before(async () => {
    trading = await startTradingService({ client: 'alice', venues: [], symbol: SYMBOL, service: { workers: 1 } });
    const storage = trading.svc.service.storage;
    await storage.clients.put({ client_id: 'bob', tier: 'enterprise', rate_limit_qps: 2_000, is_admin: false, created_at_ms: Date.now() });
    tokens['alice-live'] = trading.token;
    tokens['alice-sandbox'] = (await storage.apiKeys.create('alice', { label: 'sandbox', sandbox: true })).raw_key;
    tokens['bob-live'] = (await storage.apiKeys.create('bob', { label: 'live', sandbox: false })).raw_key;
    tokens['bob-sandbox'] = (await storage.apiKeys.create('bob', { label: 'sandbox', sandbox: true })).raw_key;
    operations = operationsOf((await call<Parameters<typeof operationsOf>[0]>(trading.base, 'GET', '/v1/openapi.json')).body);

    for (const p of PRINCIPALS) {
      const token = tokens[p];
      const marks: string[] = [];
      const venue = CREDENTIAL_VENUE[p];
      const stored = await call(trading.base, 'POST', `/v1/credentials/${venue}`, { token, body: venueCredentials(venue) });
      assert.equal(stored.status, 200, `${p}: ${JSON.stringify(stored.body)}`);
      if (p.endsWith('sandbox')) {
        assert.equal((await call(trading.base, 'POST', '/v1/sandbox/reset', { token })).status, 200);
        // An asset only this account holds.
        const asset = `ISO${p.startsWith('alice') ? 'ALICE' : 'BOB'}`;
        const written = await call(trading.base, 'POST', '/v1/sandbox/positions', { token, body: { positions: [{ venue: 'binance', kind: 'crypto', symbol: asset, qty: 1 }] } });
        assert.equal(written.status, 200, JSON.stringify(written.body));
        marks.push(asset);
      }
      const tag = `iso-${p}`;
      const filled = await terminal(p, await submit(p, { client_order_id: `${tag}-mkt`, symbol: SYMBOL, side: 'buy', qty_1e8: 100_000, order_type: 'market' }));
      assert.equal(filled.status, 'COMPLETED', `${p}: ${JSON.stringify(filled)}`);
      // A live fill's trade id is the venue's public trade (on the tape for everyone); a sandbox one is private.
      marks.push(filled.node_order_id, `${tag}-mkt`, ...(filled.fills ?? []).flatMap((f) => (p.endsWith('sandbox') ? [f.fill_id, f.trade_id] : [f.fill_id])));
      marks.push(await submit(p, { client_order_id: `${tag}-gtc`, symbol: SYMBOL, side: 'buy', qty_1e8: 100_000, order_type: 'limit', limit_price_1e9: 1_000 * 1e9, time_in_force: 'gtc' }), `${tag}-gtc`);
      if (p.endsWith('live')) {
        const key = await call<{ id: string; key_prefix: string }>(trading.base, 'POST', '/v1/api_keys', { token, body: { label: `${tag}-key` } });
        assert.equal(key.status, 201, JSON.stringify(key.body));
        marks.push(key.body.id, key.body.key_prefix, `${tag}-key`);
      }
      footprints[p] = marks;
    }
  });

  after(async () => {
    await trading?.svc.stop();
  });

  /** The GETs to call: authenticated, not a stream, no client-owned id in the path. */
  const listOperations = () =>
    operations.filter((op) => op.method === 'GET' && op.authenticated && !op.sse && op.params.every((p) => p.in !== 'path' || PUBLIC_VALUES[p.name] !== undefined));

  it('knows a value for every required parameter of those operations', () => {
    const unknown = listOperations().flatMap((op) => op.params.filter((p) => p.required && PUBLIC_VALUES[p.name] === undefined).map((p) => `${op.operationId}: ${p.in} ${p.name}`));
    assert.deepEqual(unknown, [], 'give these a public value in PUBLIC_VALUES');
  });

  it("no answer to one key carries another client's or the other mode's orders, fills, keys, positions or credentials", async () => {
    const checked: string[] = [];
    const own = Object.fromEntries(PRINCIPALS.map((p) => [p, ''])) as Record<Principal, string>;
    for (const op of listOperations()) {
      const query = op.params.filter((p) => p.in === 'query' && p.required).map((p) => `${p.name}=${encodeURIComponent(PUBLIC_VALUES[p.name]!)}`);
      const path = fillPath(op.path, PUBLIC_VALUES) + (query.length > 0 ? `?${query.join('&')}` : '');
      for (const p of PRINCIPALS) {
        const res = await fetch(`${trading.base}${path}`, { headers: { authorization: `Bearer ${tokens[p]}` } });
        const text = await res.text();
        assert.ok(res.status < 500, `${op.operationId} as ${p}: ${res.status} ${text.slice(0, 300)}`);
        own[p] += text;
        for (const other of PRINCIPALS) {
          if (other === p) continue;
          // An account's live key manages its own sandbox keys (docs/api-decisions.md); sandbox keys hold no API keys here.
          for (const mark of footprints[other]) assert.ok(!text.includes(mark), `${op.operationId} as ${p} carries ${other}'s ${mark}`);
        }
        if (op.path === '/v1/credentials') {
          const others = PRINCIPALS.filter((o) => o !== p).map((o) => CREDENTIAL_VENUE[o]);
          const venues = (JSON.parse(text) as { venues: string[] }).venues;
          assert.deepEqual(venues.filter((v) => others.includes(v)), [], `${p} sees another principal's credentials: ${venues.join(',')}`);
          assert.ok(venues.includes(CREDENTIAL_VENUE[p]), `${p} sees its own credentials`);
        }
      }
      checked.push(op.operationId);
    }
    // Not vacuous: each principal's own answers carry every footprint it left.
    for (const p of PRINCIPALS) for (const mark of footprints[p]) assert.ok(own[p].includes(mark), `${p} does not see its own ${mark}`);
    // Every private list endpoint was among them.
    for (const path of ['/v1/orders', '/v1/fills', '/v1/positions', '/v1/risk', '/v1/api_keys', '/v1/credentials', '/v1/parent_orders']) {
      assert.ok(listOperations().some((op) => op.path === path), `${path} checked (${checked.join(', ')})`);
    }
  });
});
