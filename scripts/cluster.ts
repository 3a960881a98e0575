/**
 * npm run cluster: a local three-region cluster on loopback to try regions (docs/regions.md).
 *
 *   three nats-server processes in a JetStream cluster   nats://127.0.0.1:4222, 4223, 4224
 *   na  (coinbase, kalshi)                                http://127.0.0.1:8081
 *   eu  (kraken, bitstamp, polymarket)                    http://127.0.0.1:8082
 *   ap  (binance, okx, bybit, kucoin, hyperliquid)        http://127.0.0.1:8083
 *
 * Each node runs `main.ts` as `npm start` does, with its own DATA_DIR under CLUSTER_DIR (default
 * ./data/cluster), the same CREDENTIALS_KEY and OPERATOR_KEY (made once, kept in CLUSTER_DIR), and
 * its output prefixed with its region. Ctrl-C stops everything. CLUSTER_PORT (8081) and
 * CLUSTER_NATS_PORT (4222) move the ports.
 *
 * Needs nats-server (Debian: apt-get install -y nats-server; or NATS_SERVER=/path/to/nats-server).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNats } from '../test/helpers/nats.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

export const CLUSTER_REGIONS = [
  { region: 'na', venues: ['coinbase', 'kalshi'] },
  { region: 'eu', venues: ['kraken', 'bitstamp', 'polymarket'] },
  { region: 'ap', venues: ['binance', 'okx', 'bybit', 'kucoin', 'hyperliquid'] },
] as const;

/** A secret made once and kept in the cluster directory (mode 0600), so the nodes share it across runs. */
function kept(file: string, make: () => string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const value = make();
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  return value;
}

async function main(): Promise<void> {
  const dir = resolve(process.env['CLUSTER_DIR'] ?? join(ROOT, 'data', 'cluster'));
  mkdirSync(dir, { recursive: true });
  const httpPort = Number(process.env['CLUSTER_PORT'] ?? 8081);
  const natsPort = Number(process.env['CLUSTER_NATS_PORT'] ?? 4222);
  const credentialsKey = kept(join(dir, 'credentials.key'), () => randomBytes(32).toString('hex'));
  const operatorKey = kept(join(dir, 'operator.key'), () => `sqk_op_${randomBytes(24).toString('base64url')}`);

  const nats = await startNats(3, { dir: join(dir, 'nats'), ports: [0, 1, 2].map((i) => ({ client: natsPort + i, route: natsPort + 2000 + i })) });
  process.stdout.write(`nats-server x3 (JetStream cluster): ${nats.urls.join(', ')}\n`);
  const nodes: ChildProcess[] = [];
  const stop = async () => {
    for (const node of nodes) node.kill('SIGTERM');
    await Promise.all(nodes.map((n) => (n.exitCode !== null ? undefined : new Promise((r) => n.once('exit', r)))));
    await nats.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());

  CLUSTER_REGIONS.forEach(({ region, venues }, i) => {
    // The shared key as each node's DATA_DIR/credentials.key: the node and `npm run admin` on
    // that directory both use it without CREDENTIALS_KEY in the environment.
    mkdirSync(join(dir, region), { recursive: true });
    const keyFile = join(dir, region, 'credentials.key');
    if (!existsSync(keyFile)) writeFileSync(keyFile, `${credentialsKey}\n`, { mode: 0o600 });
    const node = spawn(process.execPath, ['--import', 'tsx', 'main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        NATS_URL: nats.urls.join(','),
        REGION: region,
        LOCAL_VENUES: venues.join(','),
        HOST: '127.0.0.1',
        PORT: String(httpPort + i),
        DATA_DIR: join(dir, region),
        OPERATOR_KEY: operatorKey,
        WORKERS: process.env['WORKERS'] ?? '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    nodes.push(node);
    const prefix = (chunk: string) => chunk.split('\n').filter((l) => l !== '').map((l) => `[${region}] ${l}\n`).join('');
    node.stdout!.setEncoding('utf8').on('data', (s: string) => process.stdout.write(prefix(s)));
    node.stderr!.setEncoding('utf8').on('data', (s: string) => process.stderr.write(prefix(s)));
    node.once('exit', (code, signal) => process.stdout.write(`[${region}] exited (${code ?? signal})\n`));
  });
  process.stdout.write(
    [
      '',
      `na http://127.0.0.1:${httpPort}  eu http://127.0.0.1:${httpPort + 1}  ap http://127.0.0.1:${httpPort + 2}`,
      `operator key (every node): ${operatorKey}`,
      `a client (its keys work in every region): NATS_URL=${nats.urls.join(',')} REGION=na DATA_DIR=${join(dir, 'na')} npm run admin -- create-client <id>`,
      'Ctrl-C stops the cluster.',
      '',
    ].join('\n'),
  );
}

void main();
