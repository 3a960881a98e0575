#!/usr/bin/env node
// Runs every test/**/*.test.ts with node:test through tsx, two files at a time (the machine has
// two cores), the longest first. Node 20's runner neither globs TypeScript files nor keeps the
// order it is given (it sorts the files, so a five-minute suite named crash-points started near
// the end and ran alone), so this schedules the files itself: each run directly in its own
// process (node:test runs a file in the process that loads it), its output printed whole when it
// ends, a summary of every file at the end. Extra arguments narrow the set by substring.
// TEST_CONCURRENCY overrides the two.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return find(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

// The longest files start first, so the many short ones fill the other slot around them
// (measured 2026-11-28, seconds at two files at a time).
const LONGEST_FIRST = [
  'test/reliability/crash-points.test.ts', // ~300
  'test/reliability/fuzz.test.ts', // ~120
  'test/reliability/region-crash.test.ts', // ~60
  'test/integration/cli-more.test.ts', // ~60
  'test/integration/region-edges.test.ts', // ~50
  'test/integration/cli.test.ts', // ~45
  'test/integration/admin.test.ts',
  'test/integration/shutdown.test.ts',
];
/** A file stuck past this is killed and counted failed: every run ends. */
const FILE_TIMEOUT_MS = 20 * 60_000;
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

/** The files' runners now: each leads its own process group (its services too), ended with this one. */
const running = new Set();
const killGroup = (child) => {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
};
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of running) killGroup(child);
    rmSync(bundle, { recursive: true, force: true });
    process.exit(130);
  });
}

/** One file in its own runner process; resolves with its output, exit status and counts. */
function runFile(file) {
  return new Promise((resolve) => {
    const started = Date.now();
    // The file run directly (node:test runs it in this process): no runner process in between.
    const child = spawn(process.execPath, ['--import', 'tsx', '--test-reporter=spec', file], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    running.add(child);
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child); // the file's runner and the services it started
    }, FILE_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      const output = Buffer.concat(chunks).toString('utf8');
      const count = (name) => Number(new RegExp(`^ℹ ${name} (\\d+)`, 'm').exec(output)?.[1] ?? 0);
      resolve({
        file,
        output: timedOut ? `${output}\n✖ ${file}: killed after ${FILE_TIMEOUT_MS / 60_000} minutes\n` : output,
        ok: code === 0 && !timedOut,
        why: timedOut ? 'timed out' : code !== 0 ? `exit ${code ?? signal}` : '',
        seconds: (Date.now() - started) / 1000,
        tests: count('tests'),
        pass: count('pass'),
        fail: count('fail'),
        todo: count('todo'),
        skipped: count('skipped'),
        cancelled: count('cancelled'),
      });
    });
  });
}

const concurrency = Math.max(1, Number(process.env.TEST_CONCURRENCY ?? 2));
const queue = [...files];
const results = [];
const started = Date.now();
await Promise.all(
  Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const r = await runFile(file);
      results.push(r);
      process.stdout.write(`\n# ${r.file} (${r.seconds.toFixed(1)} s)\n${r.output}`);
    }
  }),
);
rmSync(bundle, { recursive: true, force: true });

const sum = (k) => results.reduce((s, r) => s + r[k], 0);
const failed = results.filter((r) => !r.ok);
const lines = [
  '',
  `# ${results.length} files in ${((Date.now() - started) / 1000).toFixed(0)} s, ${concurrency} at a time`,
  `ℹ tests ${sum('tests')}`,
  `ℹ pass ${sum('pass')}`,
  `ℹ fail ${sum('fail')}`,
  `ℹ cancelled ${sum('cancelled')}`,
  `ℹ skipped ${sum('skipped')}`,
  `ℹ todo ${sum('todo')}`,
  '# the longest files:',
  ...[...results].sort((a, b) => b.seconds - a.seconds).slice(0, 8).map((r) => `#   ${r.seconds.toFixed(1).padStart(6)} s  ${r.file}`),
];
if (failed.length > 0) {
  lines.push('', `✖ failing files (${failed.length}):`);
  for (const r of failed) {
    lines.push(`✖ ${r.file} (${r.why})`);
    // The file's own summary of what failed, repeated here so the end of the log says it.
    const at = r.output.indexOf('✖ failing tests:');
    if (at >= 0) lines.push(r.output.slice(at + '✖ failing tests:'.length).trim().split('\n').slice(0, 60).join('\n'));
  }
}
process.stdout.write(`${lines.join('\n')}\n`);
process.exit(failed.length > 0 ? 1 : 0);
