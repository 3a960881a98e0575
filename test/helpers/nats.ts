import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { freePort } from './ports.ts';

/**
 * Debian's `nats-server` (apt install nats-server; .ci/run installs it) on loopback ports, with
 * JetStream in a temporary directory: one server, or a three-server JetStream cluster as the
 * regions run on (docs/regions.md). Every process is killed and every directory removed by stop().
 */
export interface NatsServer {
  name: string;
  url: string;
  child: ChildProcess;
  /** SIGKILL, as a crashed server */
  kill(): Promise<void>;
}

export interface NatsCluster {
  servers: NatsServer[];
  /** every server's client URL, as a node's NATS_URL lists them */
  urls: string[];
  stop(): Promise<void>;
}

const READY_MS = 15_000;

/**
 * The server binary: `NATS_SERVER`, else Debian's (in /usr/sbin, which a user's PATH may lack),
 * else the first on PATH.
 */
export const NATS_SERVER =
  process.env['NATS_SERVER'] ??
  ['/usr/sbin/nats-server', '/usr/bin/nats-server', ...(process.env['PATH'] ?? '').split(':').map((d) => join(d, 'nats-server'))].find((p) => existsSync(p));

const IN_CI = process.env['CI'] !== undefined && process.env['CI'] !== '' && process.env['CI'] !== 'false';

/**
 * A suite's `skip` without nats-server: skipped on a machine without it (saying how to get it),
 * never in CI, where the suite then fails (.ci/run installs it).
 */
export const skipWithoutNats: string | false = NATS_SERVER === undefined && !IN_CI ? 'no nats-server (apt-get install -y nats-server, or set NATS_SERVER)' : false;

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', () => r()));
}

async function waitForClients(url: string): Promise<void> {
  const deadline = Date.now() + READY_MS;
  for (;;) {
    try {
      const nc = await connect({ servers: url, reconnect: false, timeout: 1_000 });
      await nc.close();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`nats-server at ${url} did not accept clients: ${(err as Error).message}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/**
 * `size` servers (1, or 3 for a JetStream cluster), ready for clients. By default on free ports
 * in a temporary directory removed by stop(); `npm run cluster` (scripts/cluster.ts) passes its
 * own directory (kept) and ports.
 */
export async function startNats(size: 1 | 3 = 1, options: { dir?: string; ports?: { client: number; route: number }[] } = {}): Promise<NatsCluster> {
  if (NATS_SERVER === undefined) throw new Error('no nats-server: .ci/run installs it (apt-get install -y nats-server), or set NATS_SERVER');
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'seq-nats-'));
  if (options.dir !== undefined) mkdirSync(dir, { recursive: true });
  const ports = options.ports ?? (await Promise.all(Array.from({ length: size }, async () => ({ client: await freePort(), route: await freePort() }))));
  const servers = ports.map((p, i): NatsServer => {
    const name = `n${i + 1}`;
    const routes = ports.filter((_, j) => j !== i).map((q) => `nats-route://127.0.0.1:${q.route}`);
    const conf = [
      `server_name: ${name}`,
      `listen: 127.0.0.1:${p.client}`,
      `jetstream { store_dir: "${join(dir, name)}" }`,
      ...(size > 1 ? [`cluster { name: seq, listen: 127.0.0.1:${p.route}, routes: [${routes.join(', ')}] }`] : []),
    ].join('\n');
    const file = join(dir, `${name}.conf`);
    writeFileSync(file, conf);
    const child = spawn(NATS_SERVER, ['-c', file, '-l', join(dir, `${name}.log`)], { stdio: 'ignore' });
    return {
      name,
      url: `nats://127.0.0.1:${p.client}`,
      child,
      kill: async () => {
        child.kill('SIGKILL');
        await exited(child);
      },
    };
  });
  try {
    await Promise.all(servers.map((s) => waitForClients(s.url)));
  } catch (err) {
    for (const s of servers) s.child.kill('SIGKILL');
    throw err;
  }
  return {
    servers,
    urls: servers.map((s) => s.url),
    stop: async () => {
      await Promise.all(servers.map((s) => s.kill()));
      if (options.dir === undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}
