/**
 * An order whose venue answer is lost goes to UNCONFIRMED and is reconciled against the venue,
 * never guessed. The worker hosting the binance edge is held (a probe stalls it) past the leg's
 * 2 s timeout, so the leg's ask fails while the leg waits, unread, in the worker's mailbox:
 *
 *   - the worker then exits with the leg unread: the restarted edge has no record of it, so the
 *     leg ends `cancelled` (and would be refused if it ever arrived), nothing filled, nothing
 *     reserved;
 *   - the worker resumes and executes the leg, answering too late: reconciliation finds what the
 *     venue did and books those fills, exactly once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { placeActor } from '../../engine/placement.ts';
import { call, startTradingService, type TestService, until } from '../helpers/service.ts';

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
    ({ svc, base, token } = await startTradingService({ client: 'recon-client', venues: ['binance'], symbol: SYMBOL }));
  });

  after(async () => {
    await svc?.stop();
  });

  const settle = (id: string) =>
    until(
      `order ${id} settled`,
      async () => {
        const o = (await call<Order>(base, 'GET', `/v1/orders/${id}`, { token })).body;
        return TERMINAL.has(o.status) ? o : undefined;
      },
      30_000,
      100,
    );
  const edgeWorker = () => placeActor('edge:venue-edge-binance', WORKERS);
  const buy = (coid: string) =>
    call<Order>(base, 'POST', '/v1/orders', { token, body: { client_order_id: coid, symbol: SYMBOL, side: 'buy', qty_1e8: 100_000, order_type: 'market', venue: 'binance' } });

  it('a leg the venue answered too late is reconciled from the venue: its fills booked once', async () => {
    // Stalled 3 s, past the leg's 2 s timeout; then the edge executes it.
    const stalled = svc.service.topology.endpoint.ask(probeOn(edgeWorker()), { t: 'Stall', ms: 3_000 }, 20_000);
    const placed = await buy('late-leg-1');
    assert.equal(placed.status, 201, JSON.stringify(placed.body));
    await stalled;
    const settled = await settle(placed.body.node_order_id);
    assert.equal(settled.reconciliation_state, 'reconciled', JSON.stringify(settled));
    assert.equal(settled.children[0]!.status, 'filled', `the venue's fills were found: ${JSON.stringify(settled.children)}`);
    assert.equal(settled.status, 'COMPLETED', 'booked as the venue did it');
    const fills = await call<{ fills: { qty_1e8: number }[]; total: number }>(base, 'GET', `/v1/fills?node_order_id=${settled.node_order_id}`, { token });
    assert.equal(fills.body.fills.reduce((s, f) => s + f.qty_1e8, 0), settled.filled_qty_1e8, 'each fill once');
    assert.deepEqual((await call<{ reserved: unknown[] }>(base, 'GET', '/v1/risk', { token })).body.reserved, [], 'nothing left reserved');
  });

  it('a leg lost with its worker is reconciled as not received: cancelled, nothing filled, nothing reserved', async () => {
    // Held past the timeout, then the worker exits with the leg still unread.
    const exiting = svc.service.topology.endpoint.ask(probeOn(edgeWorker()), { t: 'ExitThread', code: 7, after_ms: 3_000 }, 20_000).catch(() => 'exited');
    const placed = await buy('lost-leg-1');
    assert.equal(placed.status, 201, JSON.stringify(placed.body));
    assert.equal(await exiting, 'exited', 'the worker exited');
    const id = placed.body.node_order_id;
    const settled = await settle(id);
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
    const next = await buy('after-recovery-1');
    assert.equal(next.status, 201, JSON.stringify(next.body));
    const done = await settle(next.body.node_order_id);
    assert.equal(done.reconciliation_state, 'in_sync', `answered directly: ${JSON.stringify(done)}`);
  });
});
