#!/usr/bin/env node
// Runs every test/**/*.test.ts with node:test through tsx. Node 20's runner does not glob
// TypeScript files itself, so this finds them; extra arguments narrow the set by substring.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return find(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

// The longest files start first (longest-processing-time-first): two lanes run files side by
// side, and the SIGKILL suite alone takes ~200 s. Started last, alphabetically, it ran by itself
// while the other lane sat idle (516 s for 704 s of files); started first, the rest fills the
// other lane beside it. Durations from a full run on this 2-core machine.
const LONGEST_FIRST = [
  'test/reliability/crash-points.test.ts', // ~208 s
  'test/reliability/fuzz.test.ts', // ~57 s
  'test/integration/shutdown.test.ts', // ~23 s
  'test/integration/prediction-orders.test.ts', // ~20 s
  'test/unit/prediction-listing.test.ts', // ~18 s
  'test/reliability/edge-faults.test.ts', // ~17 s
  'test/integration/auth.test.ts', // ~16 s
];
const rank = (f) => {
  const i = LONGEST_FIRST.indexOf(f.split(sep).join('/'));
  return i < 0 ? LONGEST_FIRST.length : i;
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
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files],
  { stdio: 'inherit', env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' } },
);
process.exit(result.status ?? 1);
