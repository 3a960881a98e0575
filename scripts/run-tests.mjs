#!/usr/bin/env node
// Runs every test/**/*.test.ts with node:test through tsx. Node 20's runner does not glob
// TypeScript files itself, so this finds them; extra arguments narrow the set by substring.
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return find(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

// The longest files start first, so that they overlap the many short ones instead of running
// alone at the end (crash-points ~500 s, fuzz ~160 s, the market listing ~80 s of a ~1,600 s
// suite at 2 files at a time, measured 2026-11-27).
const LONGEST_FIRST = ['test/reliability/crash-points.test.ts', 'test/reliability/fuzz.test.ts', 'test/integration/prediction-markets.test.ts', 'test/integration/shutdown.test.ts'];
const rank = (f) => {
  const i = LONGEST_FIRST.indexOf(f);
  return i === -1 ? LONGEST_FIRST.length : i;
};

const filters = process.argv.slice(2);
const files = find('test')
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort()
  .sort((a, b) => rank(a) - rank(b));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// One esbuild bundle of this checkout for the whole run (test/helpers/bundle.ts): every service the
// tests start, in process or as a child, boots its workers from it instead of the sources through tsx.
const bundle = join('.build', `run-${process.pid}`);
const env = { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' };
if (process.env.TEST_SERVICE_FROM !== 'sources') {
  const build = spawnSync(process.execPath, ['scripts/build.mjs', bundle], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) process.exit(build.status ?? 1);
  env.TEST_BUNDLE_DIR = join(process.cwd(), bundle);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files], { stdio: 'inherit', env });
rmSync(bundle, { recursive: true, force: true });
process.exit(result.status ?? 1);
