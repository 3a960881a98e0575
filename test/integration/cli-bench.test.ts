/**
 * `seq bench` as a user runs it: against the real service on loopback with a sandbox key,
 * `--sandbox-setup` first (reset, base assets seeded so sells fill), a short seeded run saved
 * with `--out` and printed as JSON; the report holds every order it sent acknowledged and ended,
 * fills, round trips in order (ack before first fill before the end), TCA per routing version
 * that the service's own orders confirm; the table prints; two saved runs compare side by side;
 * a bad flag is a usage error (2) and a service that cannot be reached refuses the run (3).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { BenchReport } from '../../client/src/bench/runner.ts';
import { cliRunner } from '../helpers/cli.ts';
import { call, clientWithKeys, startTestService, type TestService } from '../helpers/service.ts';
import { freePort } from '../helpers/ports.ts';

describe('seq bench against the real service', { timeout: 90_000 }, () => {
  let svc: TestService;
  let key: string;
  const dir = mkdtempSync(join(tmpdir(), 'seq-bench-test-'));
  const { run: cli, printed } = cliRunner(() => ({ apiKey: key, baseUrl: svc.base }));

  before(async () => {
    svc = await startTestService();
    key = (await clientWithKeys(svc, 'bench-user')).sandbox;
  });
  after(async () => {
    await svc?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs a seeded flow, reports it, and two runs compare', async () => {
    const a = join(dir, 'a.json');
    // The drain ends as soon as every order has: 20 s only bounds a loaded machine's slowest order
    // (a sandbox leg whose answer the simulator lost is reconciled for seconds).
    const first = await cli(['bench', '--sandbox-setup', '--duration', '3s', '--rate', '15', '--seed', '7', '--drain', '20', '--out', a, '--json']);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /sandbox reset: \d+ venues funded, [1-9]\d* base-asset positions seeded/);
    const report = JSON.parse(first.stdout) as BenchReport;
    assert.deepEqual(JSON.parse(readFileSync(a, 'utf8')), report, '--out saves what --json prints');
    const c = report.counts;
    assert.ok(c.scheduled >= 20 && c.sent === c.scheduled, `every order of the flow sent: ${JSON.stringify(c)}`);
    assert.equal(c.acknowledged, c.sent);
    assert.equal(c.refused, 0, JSON.stringify(report.rejects));
    assert.equal(c.unfinished, 0, `every order ended within the drain: ${JSON.stringify({ c, rejects: report.rejects })}`);
    assert.equal(c.completed + c.cancelled + c.rejected + c.unresolved, c.acknowledged);
    assert.ok(c.completed > 0 && c.fills > 0, JSON.stringify({ c, rejects: report.rejects }));
    const l = report.latency_ms;
    assert.equal(l.acknowledged.count, c.acknowledged);
    assert.equal(l.ended.count + l.cancel_answered.count, c.acknowledged, 'market and limit orders end as round trips, cancel orders by their cancel');
    assert.ok(l.acknowledged.p50! > 0 && l.acknowledged.p50! <= l.acknowledged.p99! && l.acknowledged.p99! <= l.acknowledged.max!);
    // The stream's frame and the HTTP answer race (either may come first), so only counts and order within each row.
    assert.ok(l.first_fill.count > 0 && l.first_fill.p50! > 0 && l.first_fill.p50! <= l.first_fill.p99!);
    assert.ok(l.ended.p50! > 0 && l.ended.p50! <= l.ended.p99!);
    // TCA: the groups add up, and the service's own orders say the same count per routing version.
    const [all, ...versions] = report.tca;
    assert.equal(all!.group, 'all');
    assert.ok(all!.orders > 0 && all!.shortfall_bps !== null);
    assert.equal(versions.reduce((n, v) => n + v.orders, 0), all!.orders);
    const listed = await call<{ orders: { client_order_id: string; routing_version: number; tca: unknown }[] }>(svc.base, 'GET', '/v1/orders?limit=500', { token: key });
    const mine = listed.body.orders.filter((o) => o.client_order_id.startsWith(`${report.run_id}-`));
    assert.equal(mine.length, c.acknowledged);
    for (const v of versions) assert.equal(mine.filter((o) => o.tca !== null && `v${o.routing_version}` === v.group).length, v.orders, v.group);

    const b = join(dir, 'b.json');
    const second = await cli(['bench', '--duration', '2s', '--rate', '15', '--seed', '7', '--drain', '20', '--out', b]);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /round trip, ms from the scheduled send/);
    assert.match(second.stdout, /submit -> ack\s+\d+/);
    assert.match(second.stdout, /TCA of the completed orders/);
    const compared = await cli(['bench', 'compare', a, b]);
    assert.equal(compared.code, 0, compared.stderr);
    assert.match(compared.stdout, /scenarios differ/, 'a 3 s and a 2 s run are not the same flow');
    assert.match(compared.stdout, /submit -> ack p50\s+[\d.]+\s+[\d.]+\s+[\d.]+x/);
    assert.ok(!printed.some((text) => text.includes(key)), 'the key is never printed');
  });

  it('exits 2 on a bad flag and 3 when the service cannot be reached', async () => {
    const bad = await cli(['bench', '--mix', 'market=1,stop=2']);
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /--mix .*kind=weight/);
    assert.equal((await cli(['bench', '--rate', 'fast'])).code, 2);
    const down = await cli(['bench', '--duration', '1'], { baseUrl: `http://127.0.0.1:${await freePort()}` });
    assert.equal(down.code, 3, down.stderr);
    const notReport = await cli(['bench', 'compare', join(dir, 'missing.json'), join(dir, 'missing.json')]);
    assert.equal(notReport.code, 2);
  });
});
