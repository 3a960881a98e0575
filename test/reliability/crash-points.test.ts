/**
 * Crash recovery at random SIGKILL points (issue 10; LMDB's crash safety, exchange-core's
 * journal replay, FIX engines' recovery). One data directory lives through CRASH_ITERATIONS
 * (default 50) lives of the real `main.ts` process; in each, a seeded mixed burst runs from two
 * clients (market buys, marketable IOC limits, GTC limits that rest and cancels of them, sandbox
 * orders) and the process is SIGKILLed at a seeded instant mid-burst. The next life first checks
 * the recovery invariant over everything so far: every acknowledged order present once under its
 * id and client_order_id, every acknowledged cancel kept, every fill once, each order's filled
 * quantity equal to its fills, nothing left working or reserved, positions equal to the seeded
 * balances plus the fills, and idempotent retries answering the original order.
 */
import assert from 'node:assert/strict';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startProcess, REPO_ROOT, type Running } from '../helpers/process.ts';
import { adminArgs } from '../helpers/bundle.ts';
import { allFills, allOrders, assertLedgerMatchesFills, assertOrdersMatchFills, exitOf, positions, type Order } from '../helpers/recovery.ts';
import { call, TEST_OPERATOR_KEY, until, venueCredentials } from '../helpers/service.ts';
import { mulberry32 } from '../../actors/edge/sim/rng.ts';

const ITERATIONS = Number(process.env['CRASH_ITERATIONS'] ?? 50);
const SEED = Number(process.env['CRASH_SEED'] ?? 4_242);
const SYMBOL = 'BTC-USDT';
const FUNDED = ['binance', 'okx', 'bybit'];
const SIM_ACCOUNT_USD = 1_000_000;
// No algo worker: this suite deploys nothing and boots fifty times (the worker costs ~0.5 s a boot).
const ENV = { SIM_SEED: '7', SIM_ACCOUNT_USD: String(SIM_ACCOUNT_USD), MAX_ORDER_NOTIONAL_USD: '1000000', ALGO_WORKERS: '0' };
const SEEDS = { venues: FUNDED, cash_1e8: BigInt(SIM_ACCOUNT_USD) * 100_000_000n, btc_1e8: 100_000_000n };
const SENDERS = 6;

interface Acked {
  token: string;
  body: Record<string, unknown>;
  order: Order;
}

describe(`crash recovery at ${ITERATIONS} random SIGKILL points (seed ${SEED})`, () => {
  let dataDir: string;
  const children: ChildProcess[] = [];
  const tokens = { op: TEST_OPERATOR_KEY, live: '', sandbox: '' };

  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'seq-crash-points-'));
    // A second client, created by the admin CLI on the data directory before the first start.
    const out = execFileSync(process.execPath, [...adminArgs(), 'create-client', 'crash-b', '--tier', 'enterprise', '--qps', '100000'], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATA_DIR: dataDir },
      encoding: 'utf8',
    });
    tokens.live = /live key\s+\([^)]*\):\s+(\S+)/.exec(out)![1]!;
    tokens.sandbox = /sandbox key\s+\([^)]*\):\s+(\S+)/.exec(out)![1]!;
  });

  after(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Where a life's time goes (ms, summed over the lives): printed at the end, to see what a life costs. */
  const spent = { listening: 0, ready: 0, quote: 0, verify: 0, burst: 0, exit: 0 };
  const timed = async <T,>(phase: keyof typeof spent, work: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await work();
    } finally {
      spent[phase] += performance.now() - t0;
    }
  };

  const start = async (): Promise<Running> => {
    const run = await timed('listening', () => startProcess(dataDir, children, ENV));
    await timed('ready', () => until('ready', async () => ((await call(run.base, 'GET', '/v1/health/ready').catch(() => ({ status: 0 }))).status === 200 ? true : undefined), 30_000, 20));
    await timed('quote', () => until('a live quote', async () => {
      const res = await call<{ source: string }>(run.base, 'GET', `/v1/quotes/${SYMBOL}`, { token: tokens.op });
      return res.status === 200 && res.body.source === 'edge_nbbo' ? true : undefined;
    }, 15_000, 20));
    return run;
  };

  /** The recovery invariant, for every client and mode, over everything acknowledged so far. */
  const verify = async (run: Running, acked: Acked[], cancelled: Set<string>, when: string): Promise<void> => {
    for (const token of [tokens.op, tokens.live, tokens.sandbox]) {
      const orders = await allOrders(run.base, token);
      const fills = await allFills(run.base, token);
      assertOrdersMatchFills(orders, fills, `${when} (${token.slice(0, 9)})`);
      const byId = new Map(orders.map((o) => [o.node_order_id, o]));
      for (const a of acked.filter((x) => x.token === token)) {
        const stored = byId.get(a.order.node_order_id);
        assert.ok(stored !== undefined, `${when}: acknowledged ${a.order.node_order_id} (${String(a.body['client_order_id'])}) is stored`);
        assert.equal(stored.client_order_id, a.body['client_order_id']);
        assert.equal(stored.qty_1e8, a.body['qty_1e8']);
        if (cancelled.has(stored.node_order_id)) assert.equal(stored.status, 'CANCELLED', `${when}: an acknowledged cancel holds`);
      }
      assert.equal(new Set(orders.map((o) => o.client_order_id)).size, orders.length, `${when}: no client_order_id twice`);
      if (token !== tokens.sandbox) assertLedgerMatchesFills(await positions(run.base, token), fills, SEEDS, `${when} (${token.slice(0, 9)})`);
    }
    // Retries after the crash answer the original order.
    for (const a of acked.slice(-3)) {
      const retry = await call<Order>(run.base, 'POST', '/v1/orders', { token: a.token, body: a.body });
      assert.equal(retry.status, 200, `${when}: retry of ${String(a.body['client_order_id'])}: ${JSON.stringify(retry.body)}`);
      assert.equal(retry.body.node_order_id, a.order.node_order_id);
    }
  };

  it('every life recovers everything acknowledged before its SIGKILL', async (t) => {
    let run = await start();
    for (const token of [tokens.op, tokens.live]) {
      for (const venue of FUNDED) assert.equal((await call(run.base, 'POST', `/v1/credentials/${venue}`, { token, body: venueCredentials(venue) })).status, 200);
    }
    const acked: Acked[] = [];
    const cancelled = new Set<string>();
    let lost = 0;
    let seq = 0;
    for (let iteration = 0; iteration < ITERATIONS; iteration++) {
      // A seeded generator per life, so its burst and kill instant replay from CRASH_SEED.
      const random = mulberry32(SEED + iteration);
      const resting: { token: string; id: string }[] = [];
      let killed = false;
      const one = async (): Promise<void> => {
        const r = random();
        const token = random() < 0.5 ? tokens.op : tokens.live;
        if (r < 0.1 && resting.length > 0) {
          const target = resting.splice(Math.floor(random() * resting.length), 1)[0]!;
          const res = await call(run.base, 'DELETE', `/v1/orders/${target.id}`, { token: target.token });
          if (res.status === 200) cancelled.add(target.id);
          return;
        }
        const qty = 100_000 + Math.floor(random() * 400_000);
        const id = `it${iteration}-${seq++}`;
        const body: Record<string, unknown> =
          r < 0.55 ? { client_order_id: id, symbol: SYMBOL, side: 'buy', qty_1e8: qty, order_type: 'market' }
          : r < 0.7 ? { client_order_id: id, symbol: SYMBOL, side: 'buy', qty_1e8: qty, order_type: 'limit', time_in_force: 'ioc', limit_price_1e9: 200_000 * 1e9 }
          : r < 0.9 ? { client_order_id: id, symbol: SYMBOL, side: 'buy', qty_1e8: qty, order_type: 'limit', time_in_force: 'gtc', limit_price_1e9: 1_000 * 1e9 }
          : { client_order_id: id, symbol: SYMBOL, side: 'buy', qty_1e8: qty, order_type: 'market' };
        const sender = r >= 0.9 ? tokens.sandbox : token;
        const res = await call<Order>(run.base, 'POST', '/v1/orders', { token: sender, body });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        acked.push({ token: sender, body, order: res.body });
        if (body['time_in_force'] === 'gtc') resting.push({ token: sender, id: res.body.node_order_id });
      };
      const senders = Array.from({ length: SENDERS }, async () => {
        while (!killed) await one().catch((err: unknown) => (killed ? lost++ : Promise.reject(err)));
      });
      // The kill lands at a seeded instant while requests are in flight.
      await timed('burst', () => new Promise((r) => setTimeout(r, 30 + Math.floor(random() * 400))));
      run.child.kill('SIGKILL');
      killed = true;
      await timed('exit', async () => {
        await Promise.all(senders);
        await exitOf(run.child, 10_000);
      });
      run = await start();
      await timed('verify', () => verify(run, acked, cancelled, `life ${iteration + 1}`));
    }
    t.diagnostic(`${ITERATIONS} SIGKILLs: ${acked.length} orders acknowledged, ${cancelled.size} cancels acknowledged, ${lost} requests cut by the kills`);
    t.diagnostic(`time of the lives (s): ${Object.entries(spent).map(([k, v]) => `${k} ${(v / 1_000).toFixed(1)}`).join(', ')}`);
    assert.ok(lost >= ITERATIONS / 2, `the kills cut requests in flight (${lost})`);
    run.child.kill('SIGTERM');
    await exitOf(run.child, 15_000);
  });
});
