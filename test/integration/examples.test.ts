/**
 * The examples (examples/*.ts) run as a user runs them, `node --import tsx examples/<name>.ts`
 * in a child process, against the real service on loopback with a sandbox key in SEQ_API_KEY:
 * each exits 0 and prints what it is about (a fill, a cancelled resting order, PnL, a recorded
 * snapshot per symbol, the scanned pairs, the day's TCA with the order just placed), what it
 * says is checked against the API, and each refuses to start without a key. The key never
 * appears in anything an example prints.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { parseExact } from '../../client/src/json.ts';
import { call, clientWithKeys, startTestService, until, type TestService } from '../helpers/service.ts';
import { assertNbbo } from '../helpers/nbbo.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EXAMPLES = ['typical-flow', 'paper-trading', 'record-market-data', 'prediction-scan', 'tca-report'];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe('examples against the real service', { timeout: 60_000 }, () => {
  let svc: TestService;
  let key: string;
  let dir: string;
  const printed: string[] = [];

  const run = (name: string, args: readonly string[] = [], apiKey: string = key): Promise<Run> =>
    new Promise((resolve, reject) => {
      const env: NodeJS.ProcessEnv = { ...process.env, SEQ_API_KEY: apiKey, SEQ_BASE_URL: svc.base };
      const child = spawn(process.execPath, ['--import', 'tsx', `examples/${name}.ts`, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
      child.once('error', reject);
      child.once('close', (code) => {
        clearTimeout(timer);
        printed.push(stdout, stderr);
        resolve({ code, stdout, stderr });
      });
    });

  const succeeded = (name: string, r: Run) => assert.equal(r.code, 0, `${name} exited ${r.code}\n${r.stdout}\n${r.stderr}`);

  before(async () => {
    svc = await startTestService();
    key = (await clientWithKeys(svc, 'examples-user')).sandbox;
    dir = mkdtempSync(join(tmpdir(), 'seq-examples-'));
    await until('BTC-USDT and ETH-USDT quoted', async () => {
      for (const symbol of ['BTC-USDT', 'ETH-USDT']) if ((await call(svc.base, 'GET', `/v1/quotes/${symbol}`, { token: key })).status !== 200) return undefined;
      return true;
    }, 15_000);
  });
  after(async () => {
    await svc?.stop();
    rmSync(dir, { recursive: true, force: true });
    assert.ok(printed.length > 0 && printed.every((text) => !text.includes(key)), 'the API key is never printed');
  });

  it('each example refuses to start without SEQ_API_KEY, saying so', async () => {
    const runs = await Promise.all(EXAMPLES.map((name) => run(name, [], '')));
    for (const [i, r] of runs.entries()) {
      assert.equal(r.code, 2, `${EXAMPLES[i]}: ${r.stderr}`);
      assert.match(r.stderr, /SEQ_API_KEY is not set/, EXAMPLES[i]);
    }
  });

  it('paper-trading resets, trades market and limit, cancels the resting order, and prints the PnL', async () => {
    const r = await run('paper-trading', ['--qty', '0.02']);
    succeeded('paper-trading', r);
    assert.match(r.stdout, /^reset: \d+ USD of each quote asset on /m);
    assert.match(r.stdout, /\[fills\] +ord_\S+ buy 0\.02 @ [\d.]+ on \w+ \(taker/);
    assert.match(r.stdout, /\[fills\] +ord_\S+ sell [\d.]+ @ /);
    const cancelled = /^cancel (ord_\S+) \(resting on \w+/m.exec(r.stdout)?.[1];
    assert.ok(cancelled !== undefined, r.stdout);
    assert.match(r.stdout, /^BTC positions:\nvenue +qty +entry +mark +unrealized USD +realized USD +fees USD\n\w+ +0\.01 /m);
    assert.match(r.stdout, /^account: unrealized -?[\d.]+ USD, realized -?[\d.]+ USD, fees [\d.]+ USD$/m);

    const order = await call<{ status: string; order_type: string; time_in_force: string }>(svc.base, 'GET', `/v1/orders/${cancelled}`, { token: key });
    assert.deepEqual([order.body.status, order.body.order_type, order.body.time_in_force], ['CANCELLED', 'limit', 'gtc']);
    const list = await call<{ orders: { status: string; filled_qty_1e8: number }[] }>(svc.base, 'GET', '/v1/orders?limit=10', { token: key });
    assert.deepEqual(list.body.orders.map((o) => [o.status, o.filled_qty_1e8]), [['CANCELLED', 0], ['COMPLETED', 1_000_000], ['COMPLETED', 2_000_000]]);
  });

  let typicalOrder: string;
  it('typical-flow walks symbols, edges, quote, order, fills on the stream and positions', async () => {
    const r = await run('typical-flow', ['--symbol', 'BTC-USDT', '--qty', '0.01']);
    succeeded('typical-flow', r);
    assert.match(r.stdout, /^1\. \d+ instruments; BTC-USDT \(spot\) on /m);
    assert.match(r.stdout, /^2\. \d+ of \d+ edges connected/m);
    assert.match(r.stdout, /^3\. BTC-USDT NBBO [\d.]+ \/ [\d.]+ /m);
    typicalOrder = /^4\. submitted buy 0\.01 BTC-USDT: (ord_\S+) /m.exec(r.stdout)?.[1] ?? '';
    assert.notEqual(typicalOrder, '', r.stdout);
    assert.match(r.stdout, /^ {3}fill on \w+: [\d.]+ @ [\d.]+, fee [\d.]+ USD$/m, 'a fill from the stream');
    assert.match(r.stdout, /^5\. COMPLETED: filled 0\.01 of 0\.01 in \d+ fill\(s\)$/m);
    assert.match(r.stdout, /^ {3}TCA: VWAP [\d.]+, shortfall -?[\d.]+ bps/m);
    assert.match(r.stdout, /^6\. BTC positions:$/m);

    const order = await call<{ status: string; filled_qty_1e8: number }>(svc.base, 'GET', `/v1/orders/${typicalOrder}`, { token: key });
    assert.deepEqual([order.body.status, order.body.filled_qty_1e8], ['COMPLETED', 1_000_000]);
  });

  it('record-market-data writes each symbol\'s snapshot first, then its price and book frames', async () => {
    const out = join(dir, 'md.jsonl');
    const r = await run('record-market-data', ['BTC-USDT', 'ETH-USDT', '--seconds', '1', '--out', out]);
    succeeded('record-market-data', r);
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => parseExact(l) as { type: string; channel: string; data: Record<string, unknown> });
    for (const symbol of ['BTC-USDT', 'ETH-USDT']) {
      const own = lines.filter((l) => l.channel.endsWith(`:${symbol}`));
      assert.equal(own[0]?.type, 'snapshot', `${symbol}'s first line is its snapshot`);
      assert.equal(own.filter((l) => l.type === 'snapshot').length, 1);
      const nbbo = own[0]!.data['nbbo'] as { bid: number; ask: number; mid: number };
      assertNbbo(nbbo, symbol);
      assert.ok(own.some((l) => l.channel === `book:${symbol}` && Array.isArray(l.data['bids'])), `${symbol} book frames`);
    }
    const total = /^(\d+) lines written to /m.exec(r.stdout)?.[1];
    assert.equal(Number(total), lines.length, r.stdout);
  });

  it('prediction-scan pairs equivalent markets across the two venues and prints those whose prices differ (all of them with --min-diff 0)', async () => {
    const r = await run('prediction-scan', ['--limit', '100', '--min-diff', '0']);
    succeeded('prediction-scan', r);
    const [, listed, paired] = /^(\d+) markets listed on kalshi and polymarket, (\d+) with an equivalent/m.exec(r.stdout) ?? [];
    assert.ok(Number(listed) > 100 && Number(paired) > 0, r.stdout);
    // With no threshold every quoted pair is printed: one row per pair, both venues' touches.
    const rows = r.stdout.split('\n').filter((l) => / (kalshi|polymarket) +[\d.]+ \/ [\d.]+ +[\d.]+ \/ [\d.]+ +[\d.]+ +(yes|no)$/.test(l));
    assert.ok(rows.length > 0 && rows.length <= Number(paired), r.stdout);
    assert.match(r.stdout, new RegExp(`^${rows.length} pair\\(s\\) differ by 0 or more$`, 'm'));
  });

  it('tca-report for today includes the orders just placed; an empty day says so', async () => {
    // The aggregates are folded every 50 ms after an order completes.
    await until('the completed orders in the TCA aggregates', async () => {
      const res = await call<{ tca: { orders: number } }>(svc.base, 'GET', '/v1/analytics/tca', { token: key });
      return res.body.tca.orders >= 3 ? true : undefined;
    });
    const [r, empty] = await Promise.all([run('tca-report', ['--day', 'today']), run('tca-report', ['--day', '2020-01-01'])]);
    succeeded('tca-report', r);
    assert.match(r.stdout, /^TCA report for \d{4}-\d{2}-\d{2} \(UTC, sandbox orders\)$/m);
    assert.match(r.stdout, /^3 order\(s\), [\d.]+ USD filled: shortfall /m);
    assert.match(r.stdout, /^per venue\nvenue +orders +notional USD/m);
    assert.match(r.stdout, /^per routing version\nversion +orders/m);
    assert.match(r.stdout, /^4 order\(s\) created that day, 3 with TCA; the costliest 3:$/m);
    assert.match(r.stdout, new RegExp(`^${typicalOrder} +BTC-USDT +buy `, 'm'), 'the typical flow\'s order is listed');

    succeeded('tca-report', empty);
    assert.match(empty.stdout, /^TCA report for 2020-01-01 .*\nno completed orders with fills that day$/m);
  });
});
