/**
 * The client as published (client/scripts/pack.ts, `npm run client:pack`): packed by `npm pack`
 * from a build, it holds JavaScript and declarations only, every export and the `seq` bin point
 * at files it holds, and both run on plain Node (no tsx) against the real service: the CLI lists
 * symbols, the library reads a quote.
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { packClient } from '../../client/scripts/pack.ts';
import { clientWithKeys, startTestService, type TestService } from '../helpers/service.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function files(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`]));
}

describe('the published client package', { timeout: 90_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'seq-client-package-'));
  const pkg = join(dir, 'package');
  let svc: TestService;
  let key: string;

  before(async () => {
    const tarball = packClient(dir);
    execFileSync('tar', ['xzf', tarball, '-C', dir]);
    // The package's dependencies, as an install would provide them.
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    svc = await startTestService();
    key = (await clientWithKeys(svc, 'package-user')).sandbox;
  });
  after(async () => {
    await svc?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds JavaScript and declarations only, and every entry point it names', () => {
    const held = files(pkg);
    assert.ok(held.includes('dist/index.js') && held.includes('dist/index.d.ts') && held.includes('README.md'));
    assert.deepEqual(held.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')), [], 'no TypeScript source');
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { exports: Record<string, { types: string; default: string }>; bin: Record<string, string> };
    for (const [path, target] of Object.entries(manifest.exports)) {
      assert.ok(existsSync(join(pkg, target.default)) && existsSync(join(pkg, target.types)), `${path} -> ${JSON.stringify(target)}`);
    }
    assert.ok(readFileSync(join(pkg, manifest.bin['seq']!), 'utf8').startsWith('#!/usr/bin/env node\n'), 'the bin runs on plain node');
    for (const f of held.filter((x) => x.endsWith('.js'))) assert.doesNotMatch(readFileSync(join(pkg, f), 'utf8'), /from ['"][^'"]+\.ts['"]/, `${f} imports no .ts file`);
  });

  /** A child run without blocking this process, which serves the service it calls. */
  const run = (args: string[], env: NodeJS.ProcessEnv) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, args, { env, encoding: 'utf8', timeout: 20_000 }, (err, stdout, stderr) => resolve({ status: err === null ? 0 : typeof err.code === 'number' ? err.code : null, stdout, stderr }));
    });

  it('runs on plain Node: the CLI lists symbols, the library reads a quote', async () => {
    const env = { ...process.env, SEQ_API_KEY: key, SEQ_BASE_URL: svc.base, NODE_OPTIONS: '' };
    const cli = await run([join(pkg, 'dist/cli/main.js'), 'symbols', '--json'], env);
    assert.equal(cli.status, 0, cli.stderr);
    assert.ok((JSON.parse(cli.stdout) as { symbols: { symbol: string }[] }).symbols.some((s) => s.symbol === 'BTC-USDT'));
    const script = `import { createClient, ok } from ${JSON.stringify(join(pkg, 'dist/index.js'))};
const api = createClient({ baseUrl: process.env.SEQ_BASE_URL, apiKey: process.env.SEQ_API_KEY });
const q = ok(await api.GET('/v1/quotes/{symbol}', { params: { path: { symbol: 'BTC-USDT' } } }));
console.log(JSON.stringify({ symbol: q.symbol, bid: q.nbbo.bid }));`;
    const lib = await run(['--input-type=module', '-e', script], env);
    assert.equal(lib.status, 0, lib.stderr);
    const out = JSON.parse(lib.stdout) as { symbol: string; bid: number };
    assert.equal(out.symbol, 'BTC-USDT');
    assert.ok(out.bid > 0);
  });
});
