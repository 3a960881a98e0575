/**
 * The rest of the CLI (issue 17) as a child process against the real service on loopback, with a
 * sandbox key: venue credentials (secrets from the environment and stdin only, never printed back,
 * even when the service refuses one), API keys (a created key printed once, on stdout alone),
 * sandbox seeding (a decimal quantity past 2^53 units written exactly, from flags and from a file)
 * and settings, prediction markets (a page, one market with its quote, a redeem refused), a WASM
 * deployment's life (created and started from a .wasm file, its logs followed until Ctrl-C, listed,
 * stopped), and the analytics summaries after an order. Each family: a `--json` shape, a table,
 * an exit code a script branches on. The follow's de-duplication (`LogTail`) is checked directly.
 * CLI runs go in parallel where they are independent: each is a Node process (about 1 s of CPU).
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { LogTail } from '../../client/src/cli/deployments.ts';
import { parseExact } from '../../client/src/json.ts';
import { cliRunner } from '../helpers/cli.ts';
import { call, clientWithKeys, startTestService, until, type TestService } from '../helpers/service.ts';

const PEM = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const SECRETS = {
  apiSecret: `cli-more-secret-${randomBytes(12).toString('hex')}`,
  keyId: `cli-more-key-${randomBytes(8).toString('hex')}`,
  refused: `refused secret ${randomBytes(8).toString('hex')}`,
  // a line from the middle of the PEM's base64 body
  pemLine: PEM.split('\n')[5]!,
};

const logLine = (ts_ms: number, text: string) => ({ deployment_id: 'd', ts_ms, level: 'info' as const, edge_id: 'e', text });

// About 50 s on a loaded 2-core machine, most of it Node starting a CLI process (~1 s of CPU each).
describe('seq CLI: credentials, keys, sandbox, markets, deployments, analytics', { timeout: 90_000 }, () => {
  let svc: TestService;
  let key: string;
  const { run: cli, printed } = cliRunner(() => ({ apiKey: key, baseUrl: svc.base }));

  before(async () => {
    svc = await startTestService();
    key = (await clientWithKeys(svc, 'cli-more-user')).sandbox;
    assert.equal((await call(svc.base, 'POST', '/v1/sandbox/reset', { token: key })).status, 200);
    await until('BTC-USDT quoted and markets listed', async () => {
      const [quote, markets] = await Promise.all([call(svc.base, 'GET', '/v1/quotes/BTC-USDT', { token: key }), call<{ count: number }>(svc.base, 'GET', '/v1/markets?limit=1', { token: key })]);
      return quote.status === 200 && markets.status === 200 && markets.body.count > 0 ? true : undefined;
    }, 20_000);
  });
  after(async () => {
    await svc?.stop();
    const text = printed.join('\n');
    assert.ok(printed.length > 0 && !text.includes(key), 'the API key is never printed');
    for (const [name, secret] of Object.entries(SECRETS)) assert.ok(!text.includes(secret), `the ${name} given to credentials set is never printed`);
  });

  it('deploy logs --follow prints each line once: a poll continues after the last lines printed, even at one millisecond', () => {
    const tail = new LogTail();
    const a = logLine(1, 'a');
    const b = logLine(2, 'b');
    const b2 = logLine(2, 'b');
    const c = logLine(1, 'late, with an older time');
    assert.deepEqual(tail.next([a, b]), { lines: [a, b], gap: false });
    assert.deepEqual(tail.next([a, b]), { lines: [], gap: false }, 'nothing new');
    assert.deepEqual(tail.next([b, b2, c]).lines, [b2, c], 'an equal line in the same ms is a new line; so is one written late');
    assert.equal(tail.newestMs, 2);
    assert.deepEqual(tail.next([logLine(9, 'x')]), { lines: [logLine(9, 'x')], gap: true }, 'the printed tail is gone: lines were lost between polls');
  });

  it('credentials: secrets from the environment or stdin, never printed; list and delete; a refused secret exits 1 without being echoed', async () => {
    const [plain, pem, refused] = await Promise.all([
      cli(['credentials', 'set', 'binance', '--json'], { env: { SEQ_VENUE_API_KEY: SECRETS.keyId, SEQ_VENUE_API_SECRET: SECRETS.apiSecret } }),
      cli(['credentials', 'set', 'kalshi', '--key-id', '123e4567-e89b-42d3-a456-426614174000', '--secret-stdin'], { stdin: `${PEM}\n` }),
      cli(['credentials', 'set', 'bybit', '--key-id', SECRETS.keyId], { env: { SEQ_VENUE_API_SECRET: SECRETS.refused } }),
    ]);
    assert.equal(plain.code, 0, plain.stderr);
    assert.deepEqual(JSON.parse(plain.stdout), { venue: 'binance', status: 'stored' });
    assert.equal(pem.code, 0, pem.stderr);
    assert.equal(pem.stdout, 'kalshi: credentials stored\n');
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /VALIDATION_ERROR[\s\S]*api_secret:/);

    const [listed, deleted] = await Promise.all([cli(['credentials', 'list']), cli(['credentials', 'delete', 'kalshi'])]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^venue\s+withdrawal\nbinance\s+no\n/);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.equal(deleted.stdout, 'kalshi: credentials deleted\n');
    assert.deepEqual((await call(svc.base, 'GET', '/v1/credentials', { token: key })).body, { venues: ['binance'], unsafe: [] });
  });

  it('keys: create prints the raw key once on stdout alone (a note on stderr), rotate replaces it, revoke ends it', async () => {
    const created = await cli(['keys', 'create', '--label', 'cli-more']);
    assert.equal(created.code, 0, created.stderr);
    const raw = created.stdout.trim();
    assert.match(created.stdout, /^sqk_test_\w+\n$/, 'the key and nothing else, for KEY=$(seq keys create)');
    assert.match(created.stderr, /^created key (key_\w+) .*store it now, it is not shown again\n$/);
    const id = /^created key (key_\w+)/.exec(created.stderr)![1]!;
    assert.equal((await call(svc.base, 'GET', '/v1/api_keys', { token: raw })).status, 200, 'the printed key is a working key');

    const rotated = await cli(['keys', 'rotate', id, '--json']);
    assert.equal(rotated.code, 0, rotated.stderr);
    const next = JSON.parse(rotated.stdout) as { id: string; raw_key: string; label: string };
    assert.equal(next.label, 'cli-more');
    assert.equal((await call(svc.base, 'GET', '/v1/api_keys', { token: raw })).status, 401, 'the rotated key stops working at once');

    const revoked = await cli(['keys', 'revoke', next.id]);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.match(revoked.stdout, new RegExp(`^revoked ${next.id} `));
    assert.equal((await call(svc.base, 'GET', '/v1/api_keys', { token: next.raw_key })).status, 401);
  });

  it('sandbox: seed writes the typed decimal exactly (past 2^53 units), from flags or a file; settings change and show', async () => {
    const [seeded, fromFile, settings] = await Promise.all([
      cli(['sandbox', 'seed', '--venue', 'kraken', '--kind', 'crypto', '--symbol', 'ETH', '--qty', '92233720368.54775807', '--entry-price', '3000.5', '--json']),
      cli(['sandbox', 'seed', '--file', '-'], { stdin: JSON.stringify([{ venue: 'kraken', kind: 'fiat', symbol: 'EUR', qty: 1250.12345678 }]) }),
      cli(['sandbox', 'settings', '--initial-balance', '2500000.25']),
    ]);
    assert.equal(seeded.code, 0, seeded.stderr);
    assert.deepEqual(JSON.parse(seeded.stdout), { written: 1, deleted: 0 });
    assert.equal(fromFile.code, 0, fromFile.stderr);
    assert.match(fromFile.stdout, /^wrote 1;/);
    assert.equal(settings.code, 0, settings.stderr);
    assert.match(settings.stdout, /^setting\s+value\ninitial balance \(USD per quote asset per venue\)\s+2500000\.25\n/);
    assert.match(settings.stderr, /next reset/);

    const answer = await fetch(`${svc.base}/v1/positions`, { headers: { authorization: `Bearer ${key}` } });
    const { positions } = parseExact(await answer.text()) as { positions: { venue: string; instrument: { symbol?: string; code?: string }; qty_1e8: number | bigint }[] };
    assert.equal(positions.find((p) => p.venue === 'kraken' && p.instrument.symbol === 'ETH')?.qty_1e8, 9_223_372_036_854_775_807n, 'every digit of the typed quantity');
    assert.equal(positions.find((p) => p.venue === 'kraken' && p.instrument.code === 'EUR')?.qty_1e8, 125_012_345_678);
  });

  it('markets: a page as JSON and as a table; one market with its quote; redeeming an open market exits 1', async () => {
    const [page, table] = await Promise.all([cli(['markets', '--limit', '20', '--json']), cli(['markets', '--limit', '3'])]);
    assert.equal(page.code, 0, page.stderr);
    const body = JSON.parse(page.stdout) as { markets: { slug: string; symbol: string; yes_token_id: string | null; best_yes_ask: number | null }[]; count: number; venue: string };
    assert.equal(body.venue, 'polymarket');
    assert.equal(body.count, body.markets.length);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /^slug\s+question\s+yes bid\s+yes ask/);
    assert.match(table.stdout, /\n3 polymarket markets; more: --cursor \S+\n$/);

    const binary = body.markets.find((m) => m.yes_token_id !== null && m.best_yes_ask !== null);
    assert.ok(binary !== undefined, 'a binary market with a YES ask is listed');
    const [one, redeem] = await Promise.all([cli(['market', binary.slug, '--json']), cli(['market', 'redeem', binary.slug])]);
    assert.equal(one.code, 0, one.stderr);
    const view = JSON.parse(one.stdout) as { markets: { slug: string }[]; quote: { instrument_type: string; market?: { venue: string } } | null };
    assert.deepEqual(view.markets.map((m) => m.slug), [binary.slug]);
    assert.equal(view.quote?.instrument_type, 'prediction');
    assert.equal(view.quote?.market?.venue, 'polymarket');
    assert.equal(redeem.code, 1, redeem.stderr);
    assert.match(redeem.stderr, /409 MARKET_NOT_RESOLVED/);
  });

  it('deploy: create and start from a .wasm file, follow its logs until Ctrl-C (exit 0), list, stop; an unknown one exits 1', async () => {
    const created = await cli(['deploy', 'create', '--wasm', 'test/fixtures/algos/healthy.wasm', '--symbols', 'BTC-USDT', '--venue', 'binance', '--name', 'cli-healthy', '--start', '--json']);
    assert.equal(created.code, 0, created.stderr);
    const d = JSON.parse(created.stdout) as { deployment_id: string; status: string; name: string };
    assert.equal(d.status, 'running');
    assert.equal(d.name, 'cli-healthy');
    const id = d.deployment_id;

    const alive = (stdout: string) => /"text":"alive \d+"[^\n]*\n/.test(stdout);
    const [followed, listed, unknown] = await Promise.all([
      cli(['deploy', 'logs', id, '--follow', '--json'], { untilStdout: alive }),
      cli(['deploy', 'list']),
      cli(['deploy', 'start', 'dep_doesnotexist']),
    ]);
    assert.equal(followed.code, 0, `Ctrl-C ends a follow with 0: ${followed.stderr}`);
    const lines = followed.stdout.trim().split('\n').map((l) => JSON.parse(l) as { deployment_id: string; edge_id: string; text: string });
    assert.ok(lines.every((l) => l.deployment_id === id));
    assert.ok(lines.some((l) => l.edge_id === '' && /^started: 1 instance/.test(l.text)), "the host's own line");
    assert.equal(new Set(lines.map((l) => JSON.stringify(l))).size, lines.length, 'each line once');
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, new RegExp(`^${id}\\s+cli-healthy\\s+running\\s+spot\\s+BTC-USDT\\s+binance\\s+1\\s`, 'm'));
    assert.equal(unknown.code, 1, unknown.stderr);
    assert.match(unknown.stderr, /404 NOT_FOUND/);

    const stopped = await cli(['deploy', 'stop', id]);
    assert.equal(stopped.code, 0, stopped.stderr);
    assert.match(stopped.stdout, new RegExp(`^deployment ${id} \\(cli-healthy\\) {2}stopped {2}sandbox\\n`));
    const logs = await call<{ lines: { text: string }[] }>(svc.base, 'GET', `/v1/deployments/${id}/logs`, { token: key });
    assert.equal(logs.body.lines.at(-1)?.text, 'stopped');
  });

  it('analytics: execution as JSON, TCA and a market as tables, the weekly report, after an order completes', async () => {
    const placed = await call(svc.base, 'POST', '/v1/orders', { token: key, body: { client_order_id: 'cli-more-1', symbol: 'BTC-USDT', side: 'buy', order_type: 'market', qty_1e8: 1_000_000 } });
    assert.ok(placed.status === 200 || placed.status === 201, JSON.stringify(placed.body));
    await until('the order in the analytics', async () => {
      const res = await call<{ orders: { completed: number } }>(svc.base, 'GET', '/v1/analytics/execution', { token: key });
      return res.body.orders.completed >= 1 ? true : undefined;
    }, 15_000, 100);

    const [execution, tca, report, market] = await Promise.all([
      cli(['analytics', 'execution', '--json']),
      cli(['analytics', 'tca', '--since', '2h']),
      cli(['analytics', 'report', '--json']),
      cli(['analytics', 'market', 'BTC-USDT', '--depth', '5']),
    ]);
    assert.equal(execution.code, 0, execution.stderr);
    const e = JSON.parse(execution.stdout) as { is_sandbox: boolean; orders: { completed: number }; fills: { count: number } };
    assert.equal(e.is_sandbox, true);
    assert.ok(e.orders.completed >= 1 && e.fills.count >= 1, execution.stdout);
    assert.equal(tca.code, 0, tca.stderr);
    assert.match(tca.stdout, /^sandbox orders, \S+ to \S+\nprice orders\n {2}1 orders, notional \$\d+\.\d\d/);
    assert.equal(report.code, 0, report.stderr);
    assert.equal((JSON.parse(report.stdout) as { headline: { orders: number } }).headline.orders, 1);
    assert.equal(market.code, 0, market.stderr);
    assert.match(market.stdout, /^BTC-USDT {2}mid \d[\s\S]*\ndepth over 5 levels/);
  });
});
