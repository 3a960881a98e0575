#!/usr/bin/env node
// Runs every test/**/*.test.ts with node:test through tsx, two processes at a time (the machine
// has two cores), the longest first; extra arguments narrow the set by substring.
//
// Node 20's runner neither globs TypeScript files nor keeps the order it is given (it sorts the
// files, so a five-minute suite named crash-points started near the end and ran alone), and it
// gives every file a process of its own, whose imports through tsx's module hooks cost 2-5 s of
// CPU before a test runs (the service's graph, typebox's 700 modules; measured 2026-11-28). So
// this schedules the work itself: the longest files alone, the others in batches of files run
// one after another in one process (scripts/test-batch.mjs), sharing their imports. Each job's
// output is printed whole when it ends, then a summary: counts, the longest jobs, the failures.
// TEST_CONCURRENCY overrides the two; TEST_BATCH=1 gives every file its own process again.
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

// Alone, longest first (seconds at two processes at a time, measured 2026-11-28): the many short
// files fill the other slot around them.
const ALONE = [
  'test/reliability/crash-points.test.ts', // ~400
  'test/reliability/fuzz.test.ts', // ~200
  'test/integration/cli-more.test.ts', // ~70
  'test/integration/region-edges.test.ts', // ~65
  'test/reliability/region-crash.test.ts', // ~55
  'test/integration/shutdown.test.ts', // ~45
  'test/integration/credentials.test.ts', // ~45
  'test/integration/auth.test.ts', // ~40
  'test/integration/live-kraken.test.ts', // ~38
  'test/integration/cli.test.ts', // ~35
];
/** Files per batch: a batch of integration files runs for a minute or two, so the two slots stay balanced. */
const BATCH = { integration: 6, other: 30 };
/** A job stuck past this is killed and counted failed: every run ends. */
const JOB_TIMEOUT_MS = 20 * 60_000;

const filters = process.argv.slice(2);
const files = find('test')
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}

/** The jobs, longest first: the files run alone, then batches of integration files, then the rest. */
function plan(list) {
  if (process.env.TEST_BATCH === '1') return list.map((f) => [f]);
  const alone = ALONE.filter((f) => list.includes(f)).map((f) => [f]);
  const rest = list.filter((f) => !ALONE.includes(f));
  const chunks = (xs, n) => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));
  const integration = rest.filter((f) => f.startsWith('test/integration/') || f.startsWith('test/reliability/'));
  const other = rest.filter((f) => !integration.includes(f));
  return [...alone, ...chunks(integration, BATCH.integration), ...chunks(other, BATCH.other)];
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

/** The jobs' processes now: each leads its own process group (its services too), ended with this one. */
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

/** One job (files run one after another in one process); resolves with its output, exit status and counts. */
function runJob(jobFiles) {
  return new Promise((resolve) => {
    const started = Date.now();
    // A lone file runs directly (node:test runs a file in the process that loads it).
    const args = jobFiles.length === 1 ? jobFiles : ['scripts/test-batch.mjs', ...jobFiles];
    const child = spawn(process.execPath, ['--import', 'tsx', '--test-reporter=spec', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    running.add(child);
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, JOB_TIMEOUT_MS);
    // What the job left running (a browser, a service it spawned) holds its output pipes open
    // and would hold the run: once the job's process ends, its group goes too.
    child.on('exit', () => killGroup(child));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      const output = Buffer.concat(chunks).toString('utf8');
      const count = (name) => Number(new RegExp(`^ℹ ${name} (\\d+)`, 'm').exec(output)?.[1] ?? 0);
      resolve({
        name: jobFiles.length === 1 ? jobFiles[0] : `${jobFiles.length} files: ${jobFiles.map((f) => f.replace(/^test\//, '')).join(' ')}`,
        output: timedOut ? `${output}\n✖ killed after ${JOB_TIMEOUT_MS / 60_000} minutes\n` : output,
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
const queue = plan(files);
const jobs = queue.length;
const results = [];
const started = Date.now();
await Promise.all(
  Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
    for (let job = queue.shift(); job !== undefined; job = queue.shift()) {
      const r = await runJob(job);
      results.push(r);
      process.stdout.write(`\n# ${r.name} (${r.seconds.toFixed(1)} s)\n${r.output}`);
    }
  }),
);
rmSync(bundle, { recursive: true, force: true });

const sum = (k) => results.reduce((s, r) => s + r[k], 0);
const failed = results.filter((r) => !r.ok);
const lines = [
  '',
  `# ${files.length} files in ${jobs} processes, ${((Date.now() - started) / 1000).toFixed(0)} s, ${concurrency} at a time`,
  `ℹ tests ${sum('tests')}`,
  `ℹ pass ${sum('pass')}`,
  `ℹ fail ${sum('fail')}`,
  `ℹ cancelled ${sum('cancelled')}`,
  `ℹ skipped ${sum('skipped')}`,
  `ℹ todo ${sum('todo')}`,
  '# the longest:',
  ...[...results].sort((a, b) => b.seconds - a.seconds).slice(0, 8).map((r) => `#   ${r.seconds.toFixed(1).padStart(6)} s  ${r.name.slice(0, 160)}`),
];
if (failed.length > 0) {
  lines.push('', `✖ failing (${failed.length}):`);
  for (const r of failed) {
    lines.push(`✖ ${r.name} (${r.why})`);
    // The job's own summary of what failed, repeated here so the end of the log says it.
    const at = r.output.indexOf('✖ failing tests:');
    if (at >= 0) lines.push(r.output.slice(at + '✖ failing tests:'.length).trim().split('\n').slice(0, 60).join('\n'));
  }
}
process.stdout.write(`${lines.join('\n')}\n`);
process.exit(failed.length > 0 ? 1 : 0);
