import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServiceProcess {
  child: ChildProcess;
  port: number;
  /** A live API key of a client at a rate limit the benchmark never reaches. */
  apiKey: string;
  /** The same client's sandbox key. */
  sandboxKey: string;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * The real service in its own process (`node --import tsx main.ts`) on an ephemeral loopback
 * port, with a fresh data directory and one benchmark client created by the admin CLI. Its log
 * goes to a file, as in production, not to a pipe this process would have to drain.
 */
export async function startServiceProcess(env: Record<string, string> = {}, root: string = ROOT): Promise<ServiceProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'seq-bench-'));
  const fullEnv = { ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', WORKERS: '1', ...env };
  const created = execFileSync(
    process.execPath,
    ['--import', 'tsx', 'scripts/admin.ts', 'create-client', 'bench', '--tier', 'enterprise', '--qps', '1000000'],
    { cwd: root, env: fullEnv, encoding: 'utf8' },
  );
  const apiKey = /live key\s+\([^)]*\):\s+(\S+)/.exec(created)?.[1];
  const sandboxKey = /sandbox key\s+\([^)]*\):\s+(\S+)/.exec(created)?.[1];
  if (apiKey === undefined || sandboxKey === undefined) throw new Error(`admin CLI printed no keys:\n${created}`);
  const logPath = join(dataDir, 'service.log');
  const logFd = openSync(logPath, 'w');
  // BENCH_SERVICE_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) profiles the service under load.
  const nodeArgs = (process.env['BENCH_SERVICE_NODE_ARGS'] ?? '').split(' ').filter((a) => a !== '');
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'main.ts'], { cwd: root, env: fullEnv, stdio: ['ignore', logFd, 'inherit'] });
  closeSync(logFd);
  const port = Number((await waitForFileLine(logPath, /Listening on http:\/\/[^:]+:(\d+)/, 30_000))[1]);
  return {
    child,
    port,
    apiKey,
    sandboxKey,
    dataDir,
    stop: async () => {
      const exitedBefore = child.exitCode !== null || child.signalCode !== null;
      await stopChild(child);
      // A service that died on its own, or did not stop cleanly, is a finding: its log is kept and named.
      if (exitedBefore || child.exitCode !== 0) {
        const tail = readFileSync(logPath, 'utf8').split('\n').slice(-20).join('\n');
        process.stderr.write(`service ${root} ${exitedBefore ? 'had exited by itself' : 'did not stop cleanly'} (exit ${child.exitCode}, signal ${child.signalCode}); log kept at ${logPath}:\n${tail}\n`);
        return;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A small server script in its own process; resolves with the port it prints as PORT=<n>. */
export async function startScript(source: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['-e', source], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = Number((await waitForLine(child, /PORT=(\d+)/, 10_000))[1]);
  return { child, port };
}

export function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}: ${seen}`)), timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = pattern.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    });
  });
}

export async function waitForFileLine(path: string, pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const match = pattern.exec(readFileSync(path, 'utf8'));
    if (match) return match;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${pattern} in ${path}`);
}

/**
 * Of several service processes, lets only `measured` run: the others are stopped (SIGSTOP) so an
 * idle build beside the measured one takes none of the two cores. Its idle load is not the
 * same across builds (the pre-issue-9 build idles at about 0.27 of a core, the current at
 * 0.19), so leaving it running biased a same-run ratio by several percent. The one measured
 * next gets a second to catch up with its overdue timers first. `undefined`: none runs (the echo).
 */
export async function runOnly(measured: ServiceProcess | undefined, all: readonly (ServiceProcess | undefined)[]): Promise<void> {
  for (const svc of all) if (svc !== undefined && svc !== measured) svc.child.kill('SIGSTOP');
  if (measured === undefined) return;
  measured.child.kill('SIGCONT');
  await new Promise((r) => setTimeout(r, 1_000));
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // A stopped process (runOnly) would hold SIGTERM until continued.
  child.kill('SIGCONT');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  // An even count: the mean of the two middle values, not the upper one.
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * A checkout of another commit of this repository (`git worktree`), sharing this checkout's
 * node_modules, for same-run comparisons against an earlier build. Removed by `remove()`.
 */
export function baselineWorktree(ref: string): { root: string; remove(): void } {
  const root = mkdtempSync(join(tmpdir(), 'seq-baseline-'));
  execFileSync('git', ['worktree', 'add', '--detach', root, ref], { cwd: ROOT, stdio: 'ignore' });
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
  return {
    root,
    remove: () => {
      execFileSync('git', ['worktree', 'remove', '--force', root], { cwd: ROOT, stdio: 'ignore' });
      rmSync(root, { recursive: true, force: true });
    },
  };
}
