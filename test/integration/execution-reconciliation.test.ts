/**
 * An order whose venue answer is lost goes to UNCONFIRMED and is reconciled against the venue,
 * never guessed: the worker hosting the binance edge exits just before the order's leg reaches
 * it; the leg's ask fails, the order is UNCONFIRMED (`reconciling`); once the edge is back, the
 * service asks it what became of the leg, the edge has no record (and from then on refuses that
 * leg), and the order ends with the leg `cancelled`, `reconciliation_state: reconciled`, no
 * fill and nothing left reserved. The venue then trades again.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { placeActor } from '../../engine/placement.ts';
import { call, startTestService, type TestService, until } from '../helpers/service.ts';

const WORKERS = 2;
const SYMBOL = 'BTC-USDT';
const TERMINAL = new Set(['COMPLETED', 'CANCELLED', 'REJECTED', 'UNRESOLVED']);

interface Order {
  node_order_id: string;
  status: string;
  reconciliation_state: string;
  failure_class: string | null;
  filled_qty_1e8: number;
  children: { venue: string; status: string; reason: string | null }[];
}

/** A probe actor key placed on `worker`. */
function probeOn(worker: number): string {
  for (let i = 0; ; i++) if (placeActor(`probe:reconcile-${i}`, WORKERS) === worker) return `probe:reconcile-${i}`;
}

describe('execution: reconciliation of a lost venue answer (real service)', () => {
  let svc: TestService;
  let base: string;
  let token: string;

  before(async () => {
    svc = await startTestService({ workers: WORKERS });
    base = svc.base;
    await until('service ready', async () => ((await call(base, 'GET', '/v1/health/ready')).status === 200 ? true : undefined), 30_000);
    const storage = svc.service.storage;
    await storage.clients.put({ client_id: 'recon-client', tier: 'enterprise', rate_limit_qps: 2_000, is_admin: false, created_at_ms: Date.now() });
    token = (await storage.apiKeys.create('recon-client', { label: 'live', sandbox: false })).raw_key;
    const body = { api_key: 'key-binance-0123456789', api_secret: 'secret-binance-0123456789abcdef' };
    assert.equal((await call(base, 'POST', '/v1/credentials/binance', { token, body })).status, 200, 'credentials stored');
    await until('a live BTC-USDT quote', async () => {
      const res = await call<{ source: string }>(base, 'GET', `/v1/quotes/${SYMBOL}`, { token });
      return res.status === 200 && res.body.source === 'edge_nbbo' ? true : undefined;
    }, 15_000, 100);
  });

  after(async () => {
    await svc?.stop();
  });

  it('a leg lost with its worker is reconciled as not received: cancelled, nothing filled, nothing reserved', async () => {
    const edgeWorker = placeActor('edge:venue-edge-binance', WORKERS);
    // The exit goes first through the same ring as the leg: the worker is gone before the leg
    // is read.
    const exiting = svc.service.topology.endpoint.ask(probeOn(edgeWorker), { t: 'ExitThread', code: 7 }, 20_000).catch(() => 'exited');
    const placed = await call<Order>(base, 'POST', '/v1/orders', {
      token,
      body: { client_order_id: 'lost-leg-1', symbol: SYMBOL, side: 'buy', qty_1e8: 100_000, order_type: 'market', venue: 'binance' },
    });
    assert.equal(placed.status, 201, JSON.stringify(placed.body));
    assert.equal(await exiting, 'exited', 'the worker exited');
    const id = placed.body.node_order_id;

    const settled = await until(
      'the order reconciled',
      async () => {
        const o = (await call<Order>(base, 'GET', `/v1/orders/${id}`, { token })).body;
        return TERMINAL.has(o.status) ? o : undefined;
      },
      30_000,
      100,
    );
    assert.equal(settled.reconciliation_state, 'reconciled', JSON.stringify(settled));
    assert.equal(settled.filled_qty_1e8, 0, 'nothing filled');
    assert.equal(settled.status, 'REJECTED', 'no leg filled');
    assert.equal(settled.children.length, 1, 'one leg');
    assert.equal(settled.children[0]!.status, 'cancelled', 'the venue never saw the leg');
    assert.match(settled.children[0]!.reason ?? '', /not received/, 'and says so');
    const fills = await call<{ total: number }>(base, 'GET', `/v1/fills?node_order_id=${id}`, { token });
    assert.equal(fills.body.total, 0, 'no fill recorded');
    const risk = await call<{ reserved: unknown[] }>(base, 'GET', '/v1/risk', { token });
    assert.deepEqual(risk.body.reserved, [], 'the leg released its reservation');

    // The venue trades again: a new order's leg gets a real answer.
    await until('binance quoting again', async () => {
      const q = await call<{ venues: Record<string, unknown> }>(base, 'GET', `/v1/quotes/${SYMBOL}`, { token });
      return q.status === 200 && q.body.venues['binance'] !== undefined ? true : undefined;
    }, 20_000, 100);
    const next = await call<Order>(base, 'POST', '/v1/orders', {
      token,
      body: { client_order_id: 'after-recovery-1', symbol: SYMBOL, side: 'buy', qty_1e8: 100_000, order_type: 'market', venue: 'binance' },
    });
    assert.equal(next.status, 201, JSON.stringify(next.body));
    const done = await until('the next order terminal', async () => {
      const o = (await call<Order>(base, 'GET', `/v1/orders/${next.body.node_order_id}`, { token })).body;
      return TERMINAL.has(o.status) ? o : undefined;
    });
    assert.equal(done.reconciliation_state, 'in_sync', `answered directly: ${JSON.stringify(done)}`);
  });
});
