import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TEST_OPERATOR_KEY } from './service.ts';
import { adminArgs, serviceArgs } from './bundle.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Running {
  child: ChildProcess;
  port: number;
  base: string;
  output: () => string;
}

/**
 * Starts the real service (`main.ts`, bundled: bundle.ts) in its own process on an ephemeral loopback port and resolves once
 * it printed `Listening on http://HOST:PORT`. `children` collects it for cleanup; `env` adds or
 * overrides variables.
 */
export function startProcess(dataDir: string, children: ChildProcess[], env: Record<string, string> = {}): Promise<Running> {
  const child = spawn(process.execPath, serviceArgs(), {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      OPERATOR_KEY: TEST_OPERATOR_KEY,
      LOG_LEVEL: 'silent',
      WORKERS: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (out += s));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "Listening on" line within 30 s:\n${out}`)), 30_000);
    const onData = () => {
      const m = /Listening on http:\/\/([\d.]+):(\d+)/.exec(out);
      if (m === null) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      const port = Number(m[2]);
      resolve({ child, port, base: `http://${m[1]}:${port}`, output: () => out });
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`service exited early (${code ?? signal}):\n${out}`));
    });
  });
}

/**
 * A client created in a data directory as a new user would (`npm run admin -- create-client`,
 * before or beside the running service): its live and sandbox keys, read from what it prints.
 */
export function createClientIn(dataDir: string, clientId: string, env: Record<string, string> = {}): { live: string; sandbox: string } {
  const out = execFileSync(process.execPath, [...adminArgs(), 'create-client', clientId, '--tier', 'enterprise'], { cwd: REPO_ROOT, env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env }, encoding: 'utf8' });
  const live = /live key\s+\([^)]*\): (\S+)/.exec(out)?.[1];
  const sandbox = /sandbox key\s+\([^)]*\): (\S+)/.exec(out)?.[1];
  if (live === undefined || sandbox === undefined) throw new Error(`create-client printed no keys:\n${out}`);
  return { live, sandbox };
}

/** A JSON request to a service process under `token`, bounded at 10 s: its status and parsed body. */
export async function sendTo<T>(node: Running, token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${node.base}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }), signal: AbortSignal.timeout(10_000) });
  return { status: res.status, body: (await res.json()) as T };
}
