/**
 * Admin CLI over the service's LMDB (safe while the service runs: LMDB is multi-process).
 *
 *   npm run admin -- create-client <client_id> [--tier free|paid|pro|enterprise] [--qps N] [--admin]
 *       creates (or re-tiers) a client and prints one live and one sandbox API key, once
 *   npm run admin -- list-clients
 *
 * DATA_DIR selects the database, as for the service. With NATS_URL and REGION (a node of a
 * cluster, docs/regions.md) what it writes also reaches every region.
 */
import { parseArgs } from 'node:util';
import { configFromEnv } from '../config.ts';
import { isTier, TIER_QPS, TIERS, OPERATOR_CLIENT_ID } from '../gateway/rate-limit/tiers.ts';
import { CLIENT_ID_PATTERN } from '../storage/clients.ts';
import { Storage } from '../storage/index.ts';
import { connect } from '@nats-io/transport-node';
import type { RegionConfig } from '../actors/region-link/config.ts';
import { RecordsReplica } from '../actors/region-link/records.ts';
import { replicatedTables } from '../storage/replicated-tables.ts';

function fail(message: string): never {
  process.stderr.write(`error: ${message}\n`);
  process.exit(2);
}

async function createClient(storage: Storage, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { tier: { type: 'string', default: 'free' }, qps: { type: 'string' }, admin: { type: 'boolean', default: false } },
  });
  const clientId = positionals[0];
  if (clientId === undefined || !CLIENT_ID_PATTERN.test(clientId)) fail('create-client needs a client id ([A-Za-z0-9._:@|+-], 1-128)');
  if (clientId === OPERATOR_CLIENT_ID) fail(`"${OPERATOR_CLIENT_ID}" is reserved for the operator key`);
  if (!isTier(values.tier)) fail(`--tier must be one of ${TIERS.join(', ')}`);
  const qps = values.qps === undefined ? TIER_QPS[values.tier] : Number(values.qps);
  if (!Number.isInteger(qps) || qps < 1 || qps > 1_000_000) fail('--qps must be an integer in [1, 1000000]');
  const existing = storage.clients.get(clientId);
  await storage.clients.put({
    client_id: clientId,
    tier: values.tier,
    rate_limit_qps: qps,
    is_admin: values.admin ?? false,
    created_at_ms: existing?.created_at_ms ?? Date.now(),
  });
  const live = await storage.apiKeys.create(clientId, { label: 'cli', sandbox: false });
  const sandbox = await storage.apiKeys.create(clientId, { label: 'cli', sandbox: true });
  process.stdout.write(
    `${existing ? 'updated' : 'created'} client ${clientId} (tier ${values.tier}, ${qps} qps, burst ${2 * qps}` +
      `${values.admin ? ', admin' : ''})\n` +
      `live key    (${live.record.id}): ${live.raw_key}\n` +
      `sandbox key (${sandbox.record.id}): ${sandbox.raw_key}\n` +
      'These keys are shown once; only their hashes are stored.\n',
  );
}

function listClients(storage: Storage): void {
  const rows = storage.clients.list().map((c) => {
    const keys = storage.apiKeys.list(c.client_id, { sandboxOnly: false });
    return {
      client_id: c.client_id,
      tier: c.tier,
      rate_limit_qps: c.rate_limit_qps,
      is_admin: c.is_admin,
      active_keys: keys.filter((k) => k.is_active).length,
      created_at: new Date(c.created_at_ms).toISOString(),
    };
  });
  if (rows.length === 0) process.stdout.write('no clients\n');
  else console.table(rows);
}

/**
 * Among regions (NATS_URL and REGION set, as for the node on this DATA_DIR): what this command
 * writes also goes to the regions' buckets, so a client created beside a running cluster works
 * in every region at once (docs/regions.md).
 */
async function forwardToRegions(storage: Storage, region: RegionConfig): Promise<() => Promise<void>> {
  const nc = await connect({ servers: region.natsUrls, timeout: 5_000 });
  const replica = new RecordsReplica(replicatedTables(storage), { debug: () => {}, info: () => {}, warn: () => {}, error: (o, m) => process.stderr.write(`error: ${m ?? ''} ${JSON.stringify(o)}\n`) });
  await replica.forward(nc, Math.min(3, region.natsUrls.length));
  return async () => {
    await replica.settled();
    await nc.close();
  };
}

const [command, ...rest] = process.argv.slice(2);
const config = configFromEnv();
const storage = Storage.open(config.dataDir, { credentialsKey: config.credentialsKey });
const forwarded = config.region === undefined ? undefined : await forwardToRegions(storage, config.region);
try {
  if (command === 'create-client') await createClient(storage, rest);
  else if (command === 'list-clients') listClients(storage);
  else fail('usage: admin create-client <client_id> [--tier T] [--qps N] [--admin] | admin list-clients');
} finally {
  await forwarded?.();
  await storage.close();
}
