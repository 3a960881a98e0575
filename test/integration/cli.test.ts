/**
 * The CLI (client/src/cli/, `npm run cli -- ...`) run as a child process against the real service
 * on loopback, with a sandbox key in SEQ_API_KEY: a quote as JSON and as a table, an order placed
 * and followed to COMPLETED with its fills (its decimal quantity converted exactly), positions;
 * and the exit codes a shell branches on: 1 for a refusal (the error code on stderr), 2 for a bad
 * flag, 3 for a service that cannot be reached, 4 for an order that ended REJECTED; a live
 * `quote --watch` stopped by Ctrl-C exits 0. The key never appears in anything the CLI prints.
 * Decimal flags convert to `_1e8`/`_1e9` integers by digits (checked directly, without a process).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { UsageError } from '../../client/src/cli/args.ts';
import { fromScaled, toScaled } from '../../client/src/cli/decimal.ts';
import { parseExact } from '../../client/src/json.ts';
import { cliRunner } from '../helpers/cli.ts';
import { call, clientWithKeys, startTestService, until, type TestService } from '../helpers/service.ts';
import { freePort } from '../helpers/ports.ts';
import { assertNbbo } from '../helpers/nbbo.ts';

describe('seq CLI against the real service', { timeout: 60_000 }, () => {
  let svc: TestService;
  let key: string;
  const { run: cli, printed } = cliRunner(() => ({ apiKey: key, baseUrl: svc.base }));

  before(async () => {
    svc = await startTestService();
    key = (await clientWithKeys(svc, 'cli-user')).sandbox;
    const reset = await call(svc.base, 'POST', '/v1/sandbox/reset', { token: key });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    await until('BTC-USDT quoted', async () => ((await call(svc.base, 'GET', '/v1/quotes/BTC-USDT', { token: key })).status === 200 ? true : undefined), 15_000);
  });
  after(async () => {
    await svc?.stop();
    assert.ok(printed.length > 0 && printed.every((text) => !text.includes(key)), 'the API key is never printed');
  });

  it('decimals convert to fixed-point integers and back by digits, never through a double', () => {
    assert.equal(toScaled('qty', '0.1', 8), 10_000_000);
    assert.equal(toScaled('qty', '0.29', 8), 29_000_000, '0.29 * 1e8 is 28999999.999999996 as doubles');
    assert.equal(toScaled('qty', '.5', 8), 50_000_000);
    assert.equal(toScaled('qty', '7.', 8), 700_000_000);
    assert.equal(toScaled('limit-price', '00065000.123456789000', 9), 65_000_123_456_789);
    assert.equal(toScaled('qty', '92233720368.54775807', 8), 9_223_372_036_854_775_807n, 'past 2^53: a bigint, exact');
    for (const bad of ['', '.', '1e5', '-1', '+1', '1.2.3', '0x10', ' 1', '0.000000001']) assert.throws(() => toScaled('qty', bad, 8), UsageError, bad);
    assert.equal(fromScaled(1_500_000_000, 9), '1.5');
    assert.equal(fromScaled(5, 9), '0.000000005');
    assert.equal(fromScaled(-250_000_000, 8), '-2.5');
    assert.equal(fromScaled(9_223_372_036_854_775_807n, 8), '92233720368.54775807');
    assert.equal(fromScaled(null, 9), '-');
  });

  it('quote --json is the API\'s quote, with its NBBO; the table names the symbol and its venues', async () => {
    const [json, human] = await Promise.all([cli(['quote', 'BTC-USDT', '--json']), cli(['quote', 'BTC-USDT'])]);
    assert.equal(json.code, 0, json.stderr);
    const quote = JSON.parse(json.stdout) as { symbol: string; nbbo: { bid: number; ask: number }; venues: Record<string, unknown> };
    assert.equal(quote.symbol, 'BTC-USDT');
    assertNbbo(quote.nbbo);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /^BTC-USDT \(spot\)/);
    assert.match(human.stdout, /^NBBO\s/m);
    // Two processes read the quote apart: a simulated venue's feed may drop out between them
    // (the simulator injects feed drops), so one venue may be missing from the other read.
    const venues = Object.keys(quote.venues);
    const shown = venues.filter((venue) => new RegExp(`^${venue}\\s`, 'm').test(human.stdout));
    assert.ok(venues.length >= 2 && shown.length >= venues.length - 1, `venue rows ${shown.join(',')} of ${venues.join(',')}:\n${human.stdout}`);
  });

  it('order submit --json follows the order to COMPLETED and prints it with its fills; the decimal quantity is exact', async () => {
    const run = await cli(['order', 'submit', '--symbol', 'BTC-USDT', '--side', 'buy', '--qty', '0.01234567', '--client-order-id', 'cli-buy-1', '--expect-fill', '--json']);
    assert.equal(run.code, 0, run.stderr);
    const order = parseExact(run.stdout) as { status: string; qty_1e8: number; filled_qty_1e8: number; fills: { qty_1e8: number }[] | null; tca: unknown };
    assert.equal(order.status, 'COMPLETED', run.stdout);
    assert.equal(order.qty_1e8, 1_234_567, '0.01234567 is 1234567 units of 1e-8, not a double\'s neighbour');
    assert.equal(order.filled_qty_1e8, 1_234_567);
    assert.ok(order.fills !== null && order.fills.length > 0, 'with its fills');
    assert.equal(order.fills.reduce((sum, f) => sum + f.qty_1e8, 0), 1_234_567);
    assert.notEqual(order.tca, null, 'with its TCA');

    const positions = await cli(['positions', '--json']);
    assert.equal(positions.code, 0, positions.stderr);
    const book = parseExact(positions.stdout) as { positions: { instrument: { kind: string; symbol?: string }; qty_1e8: number }[]; totals: { num_positions: number } };
    assert.equal(book.totals.num_positions, book.positions.length);
    const btc = book.positions.filter((p) => p.instrument.kind === 'crypto' && p.instrument.symbol === 'BTC');
    assert.equal(btc.reduce((sum, p) => sum + p.qty_1e8, 0), 1_234_567, 'the bought BTC is in the sandbox book');
  });

  it('a refused order exits 1 with the envelope\'s code on stderr; a REJECTED one exits 4', async () => {
    const [refused, rejected] = await Promise.all([
      // The same client_order_id with another quantity: the service refuses it (409).
      cli(['order', 'submit', '--symbol', 'BTC-USDT', '--side', 'buy', '--qty', '0.02', '--client-order-id', 'cli-buy-1']),
      // Far past the per-order notional cap: accepted as an order, which ends REJECTED.
      cli(['order', 'submit', '--symbol', 'BTC-USDT', '--side', 'sell', '--qty', '100000']),
    ]);
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /IDEMPOTENCY_CONFLICT/);
    assert.equal(refused.stdout, '');
    assert.equal(rejected.code, 4, rejected.stderr);
    assert.match(rejected.stderr, /REJECTED/);
  });

  it('usage errors exit 2; an unreachable service exits 3', async () => {
    const port = await freePort();
    const [badFlag, noKeyFlag, badQty, unreachable] = await Promise.all([
      cli(['quote', 'BTC-USDT', '--bogus']),
      cli(['positions', '--api-key', 'sk_in_history']),
      cli(['order', 'submit', '--symbol', 'BTC-USDT', '--side', 'buy', '--qty', '0.000000001']),
      cli(['quote', 'BTC-USDT'], { baseUrl: `http://127.0.0.1:${port}` }),
    ]);
    assert.equal(badFlag.code, 2, badFlag.stderr);
    assert.match(badFlag.stderr, /--bogus/);
    assert.equal(noKeyFlag.code, 2, noKeyFlag.stderr);
    assert.match(noKeyFlag.stderr, /SEQ_API_KEY/);
    assert.equal(badQty.code, 2, badQty.stderr);
    assert.match(badQty.stderr, /more than 8 decimal places/);
    assert.equal(unreachable.code, 3, unreachable.stderr);
    assert.match(unreachable.stderr, /cannot reach/);
  });

  it('quote --watch --json streams a quote snapshot and prices frames, one per line, until Ctrl-C (exit 0)', async () => {
    const both = (stdout: string) => /"type":"snapshot"[^\n]*\n/.test(stdout) && /"type":"data"[^\n]*\n/.test(stdout);
    const run = await cli(['quote', 'BTC-USDT', '--watch', '--json'], { untilStdout: both });
    assert.equal(run.code, 0, run.stderr);
    const frames = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; channel: string; data: { nbbo?: unknown; bid?: number } });
    // The snapshot is a REST read racing the subscription: a prices frame may come before it.
    assert.ok(frames.find((f) => f.type === 'snapshot')?.data.nbbo !== undefined);
    const data = frames.find((f) => f.type === 'data');
    assert.equal(data?.channel, 'prices:BTC-USDT');
    assert.equal(typeof data?.data.bid, 'number');
  });
});
