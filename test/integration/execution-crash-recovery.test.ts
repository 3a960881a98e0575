/**
 * Crash recovery of the real service process (`node --import tsx main.ts`): SIGKILL during a
 * burst of market orders, restart on the same DATA_DIR, and find every order acknowledged with
 * 201 and every fill exactly once, no order left working (in-flight ones reconciled), each
 * order's filled quantity equal to its fills, and positions equal to the starting balances plus
 * the fills (ledger rules: docs/positions-and-tca.md). A second SIGKILL right after more fills
 * (before the ledger's periodic checkpoint) checks the replay does not apply a fill twice.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { call, TEST_OPERATOR_KEY } from '../helpers/service.ts';
import { startProcess as startMain } from '../helpers/process.ts';
import {
  allFills as fillsOf,
  allOrders as ordersOf,
  assertLedgerMatchesFills as ledgerMatches,
  assertOrdersMatchFills,
  exitOf,
  positions as positionsOf,
  qtyOf,
  TERMINAL,
  type Fill,
  type Order,
  type Position,
} from '../helpers/recovery.ts';

const op = TEST_OPERATOR_KEY;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const SYMBOL = 'BTC-USDT';
const FUNDED = ['binance', 'okx', 'bybit'];
/** SIM_ACCOUNT_USD of the spawned process. */
const SIM_ACCOUNT_USD = 100_000;
/** What this file's service runs with besides the defaults of startProcess. */
const SIM_ENV = { SIM_SEED: '7', SIM_ACCOUNT_USD: String(SIM_ACCOUNT_USD) };
const CASH_1E8 = BigInt(SIM_ACCOUNT_USD) * 100_000_000n;
const SEED_BTC_1E8 = 100_000_000n;
const BURST = 2_000;
/** Concurrent senders of the burst. */
const SENDERS = 25;

const waitReady = (base: string) =>
  until('ready', async () => ((await call(base, 'GET', '/v1/health/ready')).status === 200 ? true : undefined), 30_000, 50);

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() >= deadline) assert.fail(`${what}: not within ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}

const SEEDS = { venues: FUNDED, cash_1e8: CASH_1E8, btc_1e8: SEED_BTC_1E8 };
const allOrders = (base: string) => ordersOf(base, op);
const allFills = (base: string) => fillsOf(base, op);
const positions = (base: string) => positionsOf(base, op);
const assertLedgerMatchesFills = (rows: Position[], fills: Fill[], when: string) => ledgerMatches(rows, fills, SEEDS, when);

/** `GET /v1/analytics/execution` counts each ended order once, by status, with its fills. */
async function assertAnalyticsCountEveryEndedOrder(base: string, orders: Order[], fills: Fill[]): Promise<void> {
  const ended = orders.filter((o) => TERMINAL.has(o.status));
  const res = await call<{ orders: Record<string, number>; fills: { count: number } }>(base, 'GET', '/v1/analytics/execution', { token: op });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const by = (status: string) => ended.filter((o) => o.status === status).length;
  assert.deepEqual(
    [res.body.orders['submitted'], res.body.orders['completed'], res.body.orders['cancelled'], res.body.orders['rejected'], res.body.orders['unresolved']],
    [ended.length, by('COMPLETED'), by('CANCELLED'), by('REJECTED'), by('UNRESOLVED')],
    'every ended order counted once, by status',
  );
  const endedIds = new Set(ended.map((o) => o.node_order_id));
  assert.equal(res.body.fills.count, fills.filter((f) => endedIds.has(f.node_order_id)).length, 'and their fills');
}

describe('execution: crash recovery of main.ts (SIGKILL during a burst)', () => {
  let dataDir: string;
  const children: ChildProcess[] = [];

  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'seq-exec-crash-'));
  });

  after(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finds every acknowledged order and every fill once, reconciles in-flight orders, and positions = seeds + fills', async (t) => {
    // --- first life: accounts, a few orders done, then a burst cut short by SIGKILL ---
    const first = await startMain(dataDir, children, SIM_ENV);
    await waitReady(first.base);
    for (const venue of FUNDED) {
      const body = { api_key: `key-${venue}-0123456789`, api_secret: `secret-${venue}-0123456789abcdef`, ...(venue === 'okx' ? { passphrase: 'pass' } : {}) };
      const res = await call(first.base, 'POST', `/v1/credentials/${venue}`, { token: op, body });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    await until('a live BTC-USDT quote', async () => {
      const res = await call<{ source: string }>(first.base, 'GET', `/v1/quotes/${SYMBOL}`, { token: op });
      return res.status === 200 && res.body.source === 'edge_nbbo' ? true : undefined;
    }, 15_000, 100);
    const seeded = await positions(first.base);
    for (const v of FUNDED) {
      assert.equal(qtyOf(seeded, v, 'USDT'), CASH_1E8);
      assert.equal(qtyOf(seeded, v, 'BTC'), SEED_BTC_1E8);
    }
    // Fills that are settled before the crash.
    const settled: Order[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await call<Order>(first.base, 'POST', '/v1/orders', {
        token: op,
        body: { client_order_id: `pre-${i}`, symbol: SYMBOL, side: 'buy', qty_1e8: 20_000_000, order_type: 'market' },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      settled.push(
        await until(`pre-${i} terminal`, async () => {
          const o = await call<Order>(first.base, 'GET', `/v1/orders/${res.body.node_order_id}`, { token: op });
          return TERMINAL.has(o.body.status) ? o.body : undefined;
        }),
      );
    }
    // An armed order parked before the crash: no venue footprint, so nothing to reconcile.
    const parked = await call<Order>(first.base, 'POST', '/v1/orders', {
      token: op,
      body: { client_order_id: 'parked-1', symbol: SYMBOL, side: 'buy', qty_1e8: 3_000_000, order_type: 'market', start_armed: true },
    });
    assert.equal(parked.status, 201, JSON.stringify(parked.body));
    assert.equal(parked.body.status, 'WAITING');
    // A GTC bid far below the market, resting on a venue's book when the process dies.
    const resting = await call<Order>(first.base, 'POST', '/v1/orders', {
      token: op,
      body: { client_order_id: 'resting-1', symbol: SYMBOL, side: 'buy', qty_1e8: 100_000, order_type: 'limit', limit_price_1e9: 1_000 * 1e9 },
    });
    assert.equal(resting.status, 201, JSON.stringify(resting.body));
    await until('the GTC order resting', async () => {
      const o = await call<Order>(first.base, 'GET', `/v1/orders/${resting.body.node_order_id}`, { token: op });
      return o.body.status === 'ACTIVE' ? true : undefined;
    });
    const fillsBefore = await allFills(first.base);
    assert.ok(fillsBefore.length > 0, 'the warm-up orders filled');

    const acked: Order[] = [];
    let answered = 0;
    const bodies = Array.from({ length: BURST }, (_, i) => ({
      client_order_id: `burst-${i}`,
      symbol: SYMBOL,
      side: 'buy',
      qty_1e8: 1_000_000 + i, // distinct sizes, about $1,000 each
      order_type: 'market',
    }));
    // A steady stream, not one volley: group commit acknowledges a whole volley at once, so the
    // kill must land while requests are always in flight.
    const outcomes: (number | 'lost')[] = [];
    let next = 0;
    let killed = false;
    const sender = async (): Promise<void> => {
      while (!killed && next < bodies.length) {
        const body = bodies[next++]!;
        outcomes.push(
          await call<Order>(first.base, 'POST', '/v1/orders', { token: op, body }).then(
            (res) => {
              answered++;
              if (res.status === 201) acked.push(res.body);
              return res.status;
            },
            () => 'lost' as const,
          ),
        );
      }
    };
    const senders = Array.from({ length: SENDERS }, sender);
    await until('the first acknowledgements', async () => (acked.length >= 10 ? true : undefined), 20_000, 1);
    first.child.kill('SIGKILL');
    killed = true;
    await Promise.all(senders);
    await exitOf(first.child, 10_000);
    assert.equal(first.child.signalCode, 'SIGKILL');
    const lost = outcomes.filter((o) => o === 'lost').length;
    assert.ok(acked.length >= 10, `${acked.length} orders acknowledged before the kill`);
    assert.ok(lost > 0, `the kill cut the burst short (${answered} answered, ${lost} lost)`);
    for (const o of outcomes) assert.ok(o === 201 || o === 'lost', `burst answer ${o}`);

    // --- second life: recovery ---
    const second = await startMain(dataDir, children, SIM_ENV);
    await waitReady(second.base);
    const orders = await allOrders(second.base);
    const fills = await allFills(second.base);
    const byId = new Map(orders.map((o) => [o.node_order_id, o]));

    // Every acknowledged order survived, under its id and client_order_id.
    for (const a of acked) {
      const res = await call<Order>(second.base, 'GET', `/v1/orders/${a.node_order_id}`, { token: op });
      assert.equal(res.status, 200, `acknowledged ${a.node_order_id} found after the restart`);
      assert.equal(res.body.client_order_id, a.client_order_id);
      assert.equal(res.body.qty_1e8, a.qty_1e8);
      assert.ok(byId.has(a.node_order_id), 'and listed');
    }
    for (const o of settled) assert.deepEqual(byId.get(o.node_order_id)?.status, o.status, 'settled orders unchanged');
    // Every fill of before the burst is still there, each once.
    const fillIds = new Set(fills.map((f) => f.fill_id));
    for (const f of fillsBefore) assert.ok(fillIds.has(f.fill_id), `fill ${f.fill_id} survived`);
    assertOrdersMatchFills(orders, fills, 'after the crash');
    const open = await call<{ orders: Order[] }>(second.base, 'GET', '/v1/orders?status=open', { token: op });
    assert.deepEqual(open.body.orders.map((o) => o.node_order_id), [parked.body.node_order_id], 'nothing working but the armed order');
    assert.equal(byId.get(parked.body.node_order_id)?.status, 'WAITING', 'the armed order is still parked');
    // The resting order: the venue restarted with the process, so its leg is gone, not resting.
    const rested = byId.get(resting.body.node_order_id);
    assert.equal(rested?.status, 'CANCELLED', `the resting order after the restart: ${JSON.stringify(rested)}`);
    assert.equal(rested?.failure_class, 'reconciled_after_restart', 'reconciled, not guessed');
    assert.deepEqual(rested?.children.map((c) => c.status), ['cancelled'], 'its leg is no longer resting');
    // In-flight orders were reconciled, never guessed.
    const reconciled = orders.filter((o) => o.failure_class === 'reconciled_after_restart');
    for (const o of reconciled) {
      assert.equal(o.status, 'CANCELLED');
      assert.equal(o.reconciliation_state, 'reconciled');
      for (const c of o.children) assert.ok(c.status !== 'sent', `no leg left 'sent': ${JSON.stringify(o.children)}`);
    }
    t.diagnostic(`burst: ${acked.length} acknowledged, ${lost} lost to the kill; after restart ${orders.length} orders, ${reconciled.length} reconciled, ${fills.length} fills`);
    // Only burst orders may be new; at most one per request sent.
    const burstOrders = orders.filter((o) => o.client_order_id.startsWith('burst-'));
    assert.ok(burstOrders.length >= acked.length && burstOrders.length <= BURST, `${burstOrders.length} burst orders stored`);
    assert.equal(new Set(burstOrders.map((o) => o.client_order_id)).size, burstOrders.length, 'no client_order_id twice');
    // Positions: the starting balances plus exactly the fills.
    assertLedgerMatchesFills(await positions(second.base), fills, 'after the crash');
    const risk = await call<{ reserved: unknown[]; working_orders: number }>(second.base, 'GET', '/v1/risk', { token: op });
    assert.deepEqual(risk.body.reserved, []);
    assert.equal(risk.body.working_orders, 1, 'the armed order');
    // It can still be activated after the restart, and trades.
    const act = await call<Order>(second.base, 'POST', `/v1/execution_graphs/${parked.body.graph_id}/activate`, { token: op });
    assert.equal(act.status, 200, JSON.stringify(act.body));
    await until('the activated order terminal', async () => {
      const o = await call<Order>(second.base, 'GET', `/v1/orders/${parked.body.node_order_id}`, { token: op });
      return TERMINAL.has(o.body.status) ? true : undefined;
    });

    // Idempotency survives the restart: a client retrying after the crash gets the original
    // order when it exists, a new one when its request never landed.
    for (const a of acked.slice(0, 5)) {
      const body = bodies.find((b) => b.client_order_id === a.client_order_id)!;
      const retry = await call<Order>(second.base, 'POST', '/v1/orders', { token: op, body });
      assert.equal(retry.status, 200, JSON.stringify(retry.body));
      assert.equal(retry.body.node_order_id, a.node_order_id);
    }
    const neverStored = bodies.filter((b) => !burstOrders.some((o) => o.client_order_id === b.client_order_id)).slice(0, 5);
    const retried: string[] = [];
    for (const body of neverStored) {
      const retry = await call<Order>(second.base, 'POST', '/v1/orders', { token: op, body });
      assert.equal(retry.status, 201, `an order that never landed is placed on retry: ${JSON.stringify(retry.body)}`);
      retried.push(retry.body.node_order_id);
    }
    for (const id of retried) {
      await until(`retried ${id} terminal`, async () => {
        const o = await call<Order>(second.base, 'GET', `/v1/orders/${id}`, { token: op });
        return TERMINAL.has(o.body.status) ? true : undefined;
      });
    }
    const fillsAfterRetry = await allFills(second.base);
    await assertAnalyticsCountEveryEndedOrder(second.base, await allOrders(second.base), fillsAfterRetry);
    assertOrdersMatchFills(await allOrders(second.base), fillsAfterRetry, 'after the retries');
    assertLedgerMatchesFills(await positions(second.base), fillsAfterRetry, 'after the retries');

    // --- third life: SIGKILL again right after new fills, before any periodic checkpoint ---
    const more = await call<Order>(second.base, 'POST', '/v1/orders', {
      token: op,
      body: { client_order_id: 'post-crash-1', symbol: SYMBOL, side: 'buy', qty_1e8: 10_000_000, order_type: 'market' },
    });
    assert.equal(more.status, 201, JSON.stringify(more.body));
    const moreDone = await until('post-crash-1 terminal', async () => {
      const o = await call<Order>(second.base, 'GET', `/v1/orders/${more.body.node_order_id}`, { token: op });
      return TERMINAL.has(o.body.status) ? o.body : undefined;
    });
    second.child.kill('SIGKILL');
    await exitOf(second.child, 10_000);
    const third = await startMain(dataDir, children, SIM_ENV);
    await waitReady(third.base);
    const finalOrders = await allOrders(third.base);
    const finalFills = await allFills(third.base);
    assert.equal(finalOrders.find((o) => o.node_order_id === more.body.node_order_id)?.filled_qty_1e8, moreDone.filled_qty_1e8);
    assert.deepEqual(finalFills.map((f) => f.fill_id).sort(), fillsAfterRetry.concat(
      finalFills.filter((f) => f.node_order_id === more.body.node_order_id),
    ).map((f) => f.fill_id).sort(), 'the fills are the ones before plus the new order\'s, each once');
    assertOrdersMatchFills(finalOrders, finalFills, 'after the second crash');
    assertLedgerMatchesFills(await positions(third.base), finalFills, 'after the second crash');
    // The execution analytics count every order that ended exactly once, across both kills: those
    // whose router's TCA delta died with the process are folded again from their marks at start.
    await assertAnalyticsCountEveryEndedOrder(third.base, finalOrders, finalFills);

    third.child.kill('SIGTERM');
    await exitOf(third.child, 15_000);
  });
});
