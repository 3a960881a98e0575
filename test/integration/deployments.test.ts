/**
 * Strategy deployments against the real service (two actor workers, one algo worker): WASM algos
 * from test/fixtures/algos deployed over HTTP, trading in the sandbox through the routers.
 *
 * - a new user's path: deploy the market maker on BTC-USDT with start_immediately, see its
 *   orders and fills carry lineage_deployment_id, its logs over HTTP and on
 *   `deployment_logs:<id>`, stop it, its open orders cancelled and its final figures kept; a
 *   second client sees none of it;
 * - bad input is refused whole (invalid WASM, missing exports, over the cap, unknown symbols and
 *   venues, starting a running deployment, deleting one), nothing half-created;
 * - a trapping, a looping and a memory-hungry algo each end `failed` with their reason while a
 *   healthy market maker beside them keeps trading and the market data keeps flowing;
 * - the kill switch refuses algo orders (code 102 reaches algo_on_reject); an order naming a
 *   deployment that does not run is rejected at the gate;
 * - mesh messages between two deployments of one group;
 * - a restart of the service resumes the running deployment, the stopped one stays stopped.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { placeActor } from '../../engine/placement.ts';
import { routerKey, type RouterAnswer, type SubmitAnswer } from '../../execution/router/messages.ts';
import type { ApiOrder } from '../helpers/orders.ts';
import { call, clientWithKeys, envelope, startTestService, TEST_OPERATOR_KEY, type TestService, until } from '../helpers/service.ts';
import { StreamClient } from '../helpers/stream-client.ts';

/** Small caps, so the memory-hungry algo meets its cap in a few books and the artifact cap in a test; a callback budget a descheduled callback on a loaded machine stays under (the spinning algo meets it all the same). */
const ALGO = { workers: 1, memoryMb: 8, callbackBudgetMs: 500, artifactMaxBytes: 64 * 1024, ordersPerS: 100 };
const fixture = (name: string) => readFileSync(new URL(`../fixtures/algos/${name}.wasm`, import.meta.url)).toString('base64');

interface Deployment {
  deployment_id: string;
  status: string;
  reason: string | null;
  starts: number;
  edges: { edge_id: string; orders_sent: number; fills: number; rejects: number; open_orders: number; books: number; position_1e8: number; connected: boolean }[];
  runtime: { callbacks: number } | null;
}

describe('strategy deployments (real service, WASM algos)', () => {
  let svc: TestService;
  let base: string;
  let token: string;
  let other: string;

  const deploy = async (body: Record<string, unknown>, as = token) => call<Deployment>(base, 'POST', '/v1/deployments', { token: as, body });
  const get = async (id: string, as = token) => (await call<Deployment>(base, 'GET', `/v1/deployments/${id}`, { token: as })).body;
  const logs = async (id: string) => (await call<{ lines: { text: string; level: string; edge_id: string }[] }>(base, 'GET', `/v1/deployments/${id}/logs?limit=1000`, { token })).body.lines;
  const ordersOf = async (id: string) => {
    const res = await call<{ orders: ApiOrder[] }>(base, 'GET', '/v1/orders?limit=500', { token });
    return res.body.orders.filter((o) => (o as unknown as { lineage_deployment_id: string | null }).lineage_deployment_id === id);
  };

  before(async () => {
    svc = await startTestService({ algo: ALGO });
    base = svc.base;
    token = (await clientWithKeys(svc, 'algo-a')).sandbox;
    other = (await clientWithKeys(svc, 'algo-b')).sandbox;
    assert.equal((await call(base, 'POST', '/v1/sandbox/reset', { token })).status, 200);
  });
  after(async () => {
    await svc?.stop();
  });

  it('a new user deploys the market maker in the sandbox, watches its orders, fills and logs, and stops it', async () => {
    const ticket = await call<{ ticket: string }>(base, 'GET', '/v1/ws/ticket', { token });
    const stream = await StreamClient.open(`ws://127.0.0.1:${svc.service.port}/v1/stream?ticket=${ticket.body.ticket}`);
    try {
      const created = await deploy({ name: 'mm', symbols: ['BTC-USDT'], venue: 'binance', start_immediately: true, artifact_base64: fixture('market-maker') });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const id = created.body.deployment_id;
      assert.equal(created.body.status, 'running');
      assert.deepEqual(created.body.edges.map((e) => e.edge_id), ['venue-edge-binance']);
      stream.send({ subscribe: [`deployment_logs:${id}`, 'fills'] });
      await stream.next((f) => f.type === 'subscribed');

      // Its quotes reach the venue as GTC limit orders at the touch, with the lineage.
      let seen: ApiOrder[] = [];
      const quoted = await until('lineage orders', async () => {
        seen = await ordersOf(id);
        return seen.some((o) => o.status === 'RUNNING' || o.status === 'COMPLETED' || o.status === 'CANCELLED') ? seen : undefined;
      }, 30_000, 200).catch(async (err: Error) => {
        // Say what there was instead (seen once in a full run, never alone): the orders' states and the algo's last words.
        const state = { orders: seen.map((o) => [o.status, o['reject_reason'] ?? null]), deployment: await get(id), logs: (await logs(id)).slice(-10) };
        throw new Error(`${err.message}: ${JSON.stringify(state)}`);
      });
      assert.ok(quoted.every((o) => o['symbol'] === 'BTC-USDT' && String(o['client_order_id']).startsWith(`${id}.0.`)), JSON.stringify(quoted.map((o) => [o['symbol'], o['client_order_id']])));
      const line = await stream.next((f) => f.channel === `deployment_logs:${id}`, 10_000);
      assert.equal((line.data as { deployment_id: string }).deployment_id, id);

      // A fill of one of its orders, with the lineage, on the fills channel and in the algo's state.
      const fill = await stream.next((f) => f.channel === 'fills' && (f.data as { lineage_deployment_id?: string }).lineage_deployment_id === id, 40_000);
      const fillOrder = (fill.data as { node_order_id: string }).node_order_id;
      assert.ok((await ordersOf(id)).some((o) => o.node_order_id === fillOrder), 'the filled order is one of its own');
      const live = await until('the fill in the algo state', async () => {
        const d = await get(id);
        return d.edges[0]!.fills > 0 ? d : undefined;
      });
      assert.ok(live.edges[0]!.position_1e8 !== 0 || live.edges[0]!.fills >= 2, 'the fill moved the position');
      assert.ok((await logs(id)).some((l) => l.text.startsWith('fill id=')), 'algo_on_fill logged it');

      // Stop: its open orders end cancelled, the record keeps its figures.
      const stopped = await call<Deployment>(base, 'POST', `/v1/deployments/${id}/stop`, { token });
      assert.equal(stopped.status, 200);
      assert.equal(stopped.body.status, 'stopped');
      const after = await until('no open lineage orders', async () => {
        const orders = await ordersOf(id);
        return orders.every((o) => ['COMPLETED', 'CANCELLED', 'REJECTED'].includes(o.status)) ? orders : undefined;
      });
      assert.ok(after.some((o) => o.status === 'CANCELLED'), `a resting quote was cancelled: ${JSON.stringify(after.map((o) => [o.status, o.failure_class]))}`);
      assert.ok(stopped.body.edges[0]!.orders_sent > 0 && stopped.body.edges[0]!.open_orders === 0, JSON.stringify(stopped.body.edges));
      assert.ok((await logs(id)).some((l) => l.text.startsWith('shutdown pos=')), 'algo_on_shutdown ran');
      const sent = stopped.body.edges[0]!.orders_sent;
      await new Promise((r) => setTimeout(r, 300));
      assert.equal((await get(id)).edges[0]!.orders_sent, sent, 'nothing more after the stop');

      // Another client sees none of it.
      assert.deepEqual((await call<{ deployments: unknown[] }>(base, 'GET', '/v1/deployments', { token: other })).body.deployments, []);
      for (const [method, path] of [['GET', ''], ['GET', '/logs'], ['POST', '/start'], ['POST', '/stop'], ['DELETE', '']] as const) {
        assert.equal((await call(base, method, `/v1/deployments/${id}${path}`, { token: other })).status, 404, `${method} ${path}`);
      }
      assert.equal((await call<{ orders: ApiOrder[] }>(base, 'GET', '/v1/orders?limit=500', { token: other })).body.orders.length, 0);
      // Deleting the stopped deployment; its orders keep their lineage.
      assert.equal((await call(base, 'DELETE', `/v1/deployments/${id}`, { token })).status, 200);
      assert.equal((await call(base, 'GET', `/v1/deployments/${id}`, { token })).status, 404);
      assert.ok((await ordersOf(id)).length > 0, 'orders keep their lineage');
    } finally {
      stream.close();
    }
  });

  it('refuses bad input with clear envelopes and creates nothing', async () => {
    const count = async () => (await call<{ deployments: unknown[] }>(base, 'GET', '/v1/deployments', { token })).body.deployments.length;
    const before = await count();
    const refused = async (body: Record<string, unknown>, status: number, code: string, field?: string) => {
      const res = await deploy(body);
      assert.equal(res.status, status, JSON.stringify(res.body));
      const e = envelope(res.body);
      assert.equal(e.code, code);
      if (field !== undefined) assert.ok(e.details.some((d) => d.field.includes(field)), JSON.stringify(e));
      return e;
    };
    const mm = fixture('market-maker');
    assert.match((await refused({ symbols: ['BTC-USDT'], artifact_base64: Buffer.from('not wasm').toString('base64') }, 400, 'VALIDATION_ERROR', 'artifact_base64')).details[0]!.message, /not a valid WebAssembly/);
    // A valid module without the ABI's callbacks: the smallest module there is, memory only.
    const bare = Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 5, 3, 1, 0, 1, 7, 10, 1, 6, 0x6d, 0x65, 0x6d, 0x6f, 0x72, 0x79, 2, 0]).toString('base64');
    assert.match((await refused({ symbols: ['BTC-USDT'], artifact_base64: bare }, 400, 'VALIDATION_ERROR')).details[0]!.message, /does not export algo_alloc, algo_on_book/);
    const big = Buffer.alloc(70 * 1024, 1).toString('base64');
    assert.match((await refused({ symbols: ['BTC-USDT'], artifact_base64: big }, 400, 'VALIDATION_ERROR')).details[0]!.message, /cap is 65536/);
    await refused({ symbols: ['NOPE-USDT'], artifact_base64: mm }, 400, 'VALIDATION_ERROR', 'symbols[0]');
    await refused({ symbols: ['BTC-USDT'], venue: 'nowhere', artifact_base64: mm }, 400, 'VALIDATION_ERROR', 'venues[0]');
    await refused({ symbols: ['BTC-USDT'], venues: ['kraken'], artifact_base64: mm }, 400, 'VALIDATION_ERROR', 'venues[0]');
    await refused({ symbols: ['BTC-USDT'] }, 400, 'VALIDATION_ERROR', 'artifact_base64');
    await refused({ symbols: ['BTC-USDT'], bundle_id: 'js-momentum' }, 404, 'BUNDLE_NOT_FOUND');
    await refused({ symbols: [], artifact_base64: mm }, 400, 'VALIDATION_ERROR');
    assert.equal(await count(), before, 'nothing was created');

    // Starting a running deployment, deleting one: 409; an id override that is taken: 409.
    const created = await deploy({ deployment_id: 'fund-42', symbols: ['ETH-USDT'], venue: 'okx', artifact_base64: fixture('healthy'), start_immediately: true });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.deployment_id, 'fund-42');
    assert.equal(envelope((await call(base, 'POST', '/v1/deployments/fund-42/start', { token })).body).code, 'DEPLOYMENT_RUNNING');
    assert.equal(envelope((await call(base, 'DELETE', '/v1/deployments/fund-42', { token })).body).code, 'DEPLOYMENT_RUNNING');
    await refused({ deployment_id: 'fund-42', symbols: ['BTC-USDT'], artifact_base64: mm }, 409, 'DEPLOYMENT_EXISTS');
    assert.equal((await call<Deployment>(base, 'POST', '/v1/deployments/fund-42/stop', { token })).body.status, 'stopped');
    assert.equal((await call<Deployment>(base, 'POST', '/v1/deployments/fund-42/stop', { token })).status, 200, 'stop is idempotent');
    assert.equal((await call(base, 'DELETE', '/v1/deployments/fund-42', { token })).status, 200);
  });

  it('a trapping, a looping and a memory-hungry algo fail alone; a healthy one keeps trading and the market keeps flowing', async () => {
    const healthy = await deploy({ name: 'healthy', symbols: ['BTC-USDT'], venue: 'okx', start_immediately: true, artifact_base64: fixture('market-maker') });
    assert.equal(healthy.body.status, 'running');
    const bad = await Promise.all(
      ['trap', 'spin', 'hog'].map((name) => deploy({ name, symbols: ['BTC-USDT'], venue: 'binance', start_immediately: true, artifact_base64: fixture(name) })),
    );
    for (const res of bad) assert.equal(res.status, 201, JSON.stringify(res.body));
    const failed = await Promise.all(
      bad.map((res) =>
        until(`${res.body.deployment_id} failed`, async () => {
          const d = await get(res.body.deployment_id);
          return d.status === 'failed' ? d : undefined;
        }, 20_000, 100),
      ),
    );
    const [trap, spin, hog] = failed;
    assert.match(trap!.reason!, /algo_on_book trapped/);
    assert.match(spin!.reason!, /algo_on_book ran past its budget of 500 ms/);
    assert.match(hog!.reason!, /trapped/);
    assert.ok((await logs(hog!.deployment_id)).some((l) => l.text.startsWith('grow failed')), 'the hog met its memory cap');

    // The healthy one trades on (resumed with its worker if it shared it), and the books move.
    const before = (await until('healthy running', async () => {
      const d = await get(healthy.body.deployment_id);
      return d.status === 'running' && d.runtime !== null ? d : undefined;
    }, 10_000)).edges[0]!;
    const quote0 = (await call<{ updated_ms: number }>(base, 'GET', '/v1/quotes/BTC-USDT', { token })).body.updated_ms;
    // Trading on: fed book after book, with quotes working on the venue (a quiet market leaves
    // them resting, so new orders are not required) or new orders sent.
    await until('healthy keeps trading', async () => {
      const d = await get(healthy.body.deployment_id);
      const e = d.edges[0]!;
      return d.status === 'running' && e.books > before.books + 20 && (e.open_orders > 0 || e.orders_sent > before.orders_sent) ? d : undefined;
    }, 20_000, 200);
    const orders = await ordersOf(healthy.body.deployment_id);
    assert.ok(orders.some((o) => o.status === 'ACTIVE' || o.status === 'COMPLETED'), 'its quotes reached the venue');
    const quote1 = (await call<{ updated_ms: number }>(base, 'GET', '/v1/quotes/BTC-USDT', { token })).body.updated_ms;
    assert.ok(quote1 > quote0, 'market data kept flowing');
    assert.equal((await call(base, 'GET', '/v1/health/ready')).status, 200);
    await call(base, 'POST', `/v1/deployments/${healthy.body.deployment_id}/stop`, { token });
  });

  it('the kill switch refuses algo orders (code 102 reaches algo_on_reject); an unknown lineage fails closed', async () => {
    const created = await deploy({ symbols: ['ETH-USDT'], venue: 'bybit', start_immediately: true, artifact_base64: fixture('rejects') });
    const id = created.body.deployment_id;
    await until('an order placed', async () => ((await ordersOf(id)).length > 0 ? true : undefined), 10_000, 100);
    assert.equal((await call(base, 'PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: true, reason: 'algo test' } })).status, 200);
    try {
      await until('code 102', async () => ((await logs(id)).some((l) => /^reject id=\d+ code=102$/.test(l.text)) ? true : undefined), 15_000, 100);
    } finally {
      await call(base, 'PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: false } });
    }
    await call(base, 'POST', `/v1/deployments/${id}/stop`, { token });

    // An actor entering an order under a deployment this client does not run: REJECTED at the gate.
    const router = routerKey('sandbox', 'algo-a');
    const probe = [...Array(100).keys()].map((i) => `probe:lineage-${i}`).find((k) => placeActor(k, 2) !== placeActor(router, 2))!;
    const answer = await svc.service.topology.endpoint.ask<RouterAnswer<SubmitAnswer>>(
      probe,
      { t: 'AskPeer', peer: router, message: { t: 'Submit', request: { client_order_id: 'forged-1', symbol: 'BTC-USDT', side: 'buy', qty_1e8: 100_000, order_type: 'market', lineage_deployment_id: 'dep_nope' }, idempotency_key: null }, timeout_ms: 10_000 },
      15_000,
    );
    assert.ok('ok' in answer, JSON.stringify(answer));
    assert.equal(answer.ok.order.status, 'REJECTED');
    assert.equal(answer.ok.order.failure_class, 'risk_lineage');
    assert.equal(answer.ok.order.lineage_deployment_id, 'dep_nope');
  });

  it('deployments of one mesh group message each other by label', async () => {
    const pong = await deploy({ symbols: ['SOL-USDT'], venue: 'okx', mesh_group: 'desk', mesh_label: 'pong', start_immediately: true, artifact_base64: fixture('mesh-pong') });
    const ping = await deploy({ symbols: ['SOL-USDT'], venue: 'bybit', mesh_group: 'desk', mesh_label: 'ping', start_immediately: true, artifact_base64: fixture('mesh-ping') });
    assert.equal(pong.body.status, 'running');
    assert.equal(ping.body.status, 'running');
    await until('pong answered', async () => ((await logs(ping.body.deployment_id)).some((l) => /^got pong ping \d+ from pong$/.test(l.text)) ? true : undefined), 15_000, 100);
    assert.ok((await logs(pong.body.deployment_id)).some((l) => /^got ping \d+ from ping$/.test(l.text)));
    // Outside the group nothing arrives: a deployment without a group is not reachable.
    await call(base, 'POST', `/v1/deployments/${ping.body.deployment_id}/stop`, { token });
    await call(base, 'POST', `/v1/deployments/${pong.body.deployment_id}/stop`, { token });
  });

  it('a restart resumes running deployments and leaves stopped ones stopped', async () => {
    const running = await deploy({ name: 'survivor', symbols: ['BTC-USDT'], venue: 'coinbase', start_immediately: true, artifact_base64: fixture('healthy') });
    const idle = await deploy({ name: 'idle', symbols: ['BTC-USDT'], venue: 'coinbase', artifact_base64: fixture('healthy') });
    await until('books seen', async () => ((await get(running.body.deployment_id)).edges[0]!.books > 0 ? true : undefined), 10_000, 100);
    const dataDir = svc.dataDir;
    await svc.stop(false);
    svc = await startTestService({ dataDir, algo: ALGO });
    base = svc.base;
    const resumed = await until('resumed', async () => {
      const d = await get(running.body.deployment_id);
      return d.status === 'running' && d.runtime !== null && d.runtime.callbacks > 0 ? d : undefined;
    }, 15_000, 100);
    assert.equal(resumed.edges[0]!.edge_id, 'venue-edge-coinbase');
    assert.equal((await get(idle.body.deployment_id)).status, 'created');
  });
});
