#!/usr/bin/env node
// Runs every test/**/*.test.ts, each file in its own Node process (as `node --test` isolates
// them) through tsx, two at a time (2 cores). Extra arguments narrow the set by substring.
//
// Why not `node --test --test-concurrency=2`: Node 20's runner sorts the files, so the SIGKILL
// suite (~200 s) started last and ran alone while the second lane sat idle (516 s of wall time
// for 704 s of files). Here the longest files start first (longest-processing-time-first) and
// the rest fill the other lane beside them. Each file's report is printed whole when it ends.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';

const LANES = Number(process.env.TEST_CONCURRENCY ?? 2);

// Durations from a full run on this 2-core machine; files not named here are short.
const LONGEST_FIRST = [
  'test/reliability/crash-points.test.ts', // ~208 s
  'test/reliability/fuzz.test.ts', // ~57 s
  'test/integration/shutdown.test.ts', // ~23 s
  'test/integration/prediction-orders.test.ts', // ~20 s
  'test/unit/prediction-listing.test.ts', // ~18 s
  'test/reliability/edge-faults.test.ts', // ~17 s
  'test/integration/auth.test.ts', // ~16 s
];

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return find(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

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

const KEYS = ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo'];
const totals = Object.fromEntries(KEYS.map((k) => [k, 0]));
const failedFiles = [];
const started = performance.now();

/** One file in its own process; resolves when it exits, its report printed whole. */
function runFile(file) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--test-reporter=spec', file], {
      env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks = [];
    child.stdout.on('data', (d) => chunks.push(d));
    child.stderr.on('data', (d) => chunks.push(d));
    child.on('close', (code, signal) => {
      const out = Buffer.concat(chunks).toString('utf8');
      process.stdout.write(`\n# ${file}\n${out}`);
      for (const k of KEYS) {
        const m = new RegExp(`^ℹ ${k} (\\d+)$`, 'm').exec(out);
        if (m) totals[k] += Number(m[1]);
      }
      const counted = /^ℹ tests \d+$/m.test(out);
      if (code !== 0 || !counted) failedFiles.push(`${file} (${signal ?? `exit ${code}`}${counted ? '' : ', no summary'})`);
      resolve();
    });
  });
}

const queue = [...files];
await Promise.all(
  Array.from({ length: Math.min(LANES, queue.length) }, async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) await runFile(file);
  }),
);

process.stdout.write(`\n${KEYS.map((k) => `ℹ ${k} ${totals[k]}`).join('\n')}\nℹ files ${files.length}\nℹ duration_ms ${Math.round(performance.now() - started)}\n`);
if (failedFiles.length > 0) process.stdout.write(`\n✖ failing files:\n${failedFiles.map((f) => `  ${f}`).join('\n')}\n`);
process.exit(failedFiles.length > 0 ? 1 : 0);
