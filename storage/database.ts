import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import { migrate } from './migrations.ts';
import { WriteGuard } from './write-guard.ts';

/**
 * The one LMDB environment under DATA_DIR and its named databases. Every store is a thin class
 * over one or two of these; the keys leave room for mode (`is_sandbox`), venue, instrument kind
 * and region as later stores arrive (orders and fills key by [client, mode, ...]).
 *
 * Writes: lmdb-js batches every put of one event turn into a single transaction; a `put`
 * resolves when that transaction commits (visible), and `root.flushed` when it is on disk.
 * Anything acknowledged to a client awaits `durable()` first.
 */
export interface Databases {
  readonly root: RootDatabase;
  /** Every fire-and-forget write is watched: a failed commit is kept and reported, never an unhandled rejection (write-guard.ts). */
  readonly writes: WriteGuard;
  /** Small singletons: schema version, kill switch, operator key hash. */
  readonly meta: Database<unknown, string>;
  /** client_id -> ClientProfile */
  readonly clients: Database<unknown, string>;
  /** client_id -> the account's keys and their materialised list views */
  readonly apiKeys: Database<unknown, string>;
  /** sha256(raw key) hex -> KeyRef, for active keys only */
  readonly apiKeyHashes: Database<unknown, string>;
  /** [client_id, 'all' | 'sandbox'] -> UTF-8 JSON of the public key list, written with api_keys */
  readonly apiKeyViews: Database<Buffer, [string, string]>;
  /** [symbol, ts_ms, seq] -> TradeRow: the trade tape */
  readonly trades: Database<unknown, [string, number, number]>;
  /** [tape key, minute_ms] -> Bar */
  readonly bars: Database<unknown, [string, number]>;
  /** [client, mode, node_order_id] -> OrderRecord */
  readonly orders: Database<unknown, [string, 'live' | 'sandbox', string]>;
  /** [client, mode, client_order_id] -> node_order_id (idempotency) */
  readonly orderKeys: Database<unknown, [string, 'live' | 'sandbox', string]>;
  /** [client, mode, node_order_id] -> 1 for every working order */
  readonly openOrders: Database<unknown, [string, 'live' | 'sandbox', string]>;
  /** [client, mode, status, node_order_id] -> 1: every order under its status, for the listing's counts */
  readonly orderStatuses: Database<unknown, [string, 'live' | 'sandbox', string, string]>;
  /** [client, mode, fill id] -> FillRecord */
  readonly fills: Database<unknown, [string, 'live' | 'sandbox', number]>;
  /** [client, mode] -> positions ledger snapshot */
  readonly ledgers: Database<unknown, [string, 'live' | 'sandbox']>;
  /** [client, mode, venue] -> sealed venue credentials (credentials.ts) */
  readonly credentials: Database<unknown, [string, 'live' | 'sandbox', string]>;
  /** client_id -> the client's pending and effective sandbox settings (sandbox-settings.ts) */
  readonly sandboxSettings: Database<unknown, string>;
  /** [venue, market_id] -> a prediction market's resolution as the gateway observed it (market-resolutions.ts) */
  readonly marketResolutions: Database<unknown, [string, string]>;
  /** [client_id, mode] -> the managed trading wallet, its key sealed (wallets.ts) */
  readonly wallets: Database<unknown, [string, 'live' | 'sandbox']>;
  /** [client_id, mode, deployment_id] -> DeploymentRecord (deployments.ts) */
  readonly deployments: Database<unknown, [string, 'live' | 'sandbox', string]>;
  /** [client_id, mode, deployment_id] -> the deployment's WebAssembly artifact, memory-capped (binary) */
  readonly deploymentArtifacts: Database<Buffer, [string, 'live' | 'sandbox', string]>;
  /** [client_id, mode, hour_ms, kind, symbol, routing_version, venue] -> StoredTcaBucket (tca-buckets.ts) */
  readonly tcaBuckets: Database<unknown, TcaBucketKey>;
  /** [client_id, mode, node_order_id] -> 1: a completed order folded into the TCA aggregates but not yet into the buckets on disk (tca-buckets.ts) */
  readonly tcaPending: Database<unknown, [string, 'live' | 'sandbox', string]>;
  /** [client_id, mode, alert_id] -> a user-defined alert (alerts.ts) */
  readonly alerts: Database<unknown, [string, 'live' | 'sandbox', string]>;
  /** [client_id, mode, seq] -> one firing of an alert (alerts.ts) */
  readonly alertEvents: Database<unknown, [string, 'live' | 'sandbox', number]>;
}

export type TcaBucketKey = [string, 'live' | 'sandbox', number, string, string, number, string];

export const DATABASE_NAMES = ['meta', 'clients', 'api_keys', 'api_key_hashes', 'api_key_views', 'trades', 'bars_1m', 'orders', 'order_keys', 'open_orders', 'order_statuses', 'fills', 'ledgers', 'credentials', 'sandbox_settings', 'market_resolutions', 'wallets', 'deployments', 'deployment_artifacts', 'tca_buckets', 'tca_pending', 'alerts', 'alert_events'] as const;

/**
 * `readerOnly`: a worker thread's handle on the environment the gateway thread opened and
 * migrated. It never writes (writes go through the journal), and resets its read transaction
 * to see other threads' commits (OrderStore.refresh).
 */
export function openDatabases(dataDir: string, options: { readerOnly?: boolean; onWriteFailure?: (err: Error) => void } = {}): Databases {
  const path = join(dataDir, 'lmdb');
  if (!options.readerOnly) mkdirSync(path, { recursive: true });
  // noMemInit stays off: with it, LMDB writes the unused tail of a malloc'd page as it found it,
  // and heap residue (a request body holding a venue secret) reached the file; the
  // credentials suite caught a PEM line on disk once.
  const root = open({ path, maxDbs: 64, compression: false, noMemInit: false });
  // Shared structures make msgpack records about 2.5x faster to decode (MEASURED.md).
  const structures = { sharedStructuresKey: Symbol.for('structures') };
  // msgpackr's option, passed through by lmdb-js (not in its typings): plain msgpack maps decode
  // as objects. The journal stores router-encoded records (plain maps) in these databases.
  const plainMaps = { mapsAsObjects: true };
  const databases: Databases = {
    root,
    writes: new WriteGuard(options.onWriteFailure),
    meta: root.openDB({ name: 'meta' }),
    clients: root.openDB({ name: 'clients', ...structures }),
    apiKeys: root.openDB({ name: 'api_keys', ...structures }),
    apiKeyHashes: root.openDB({ name: 'api_key_hashes', ...structures }),
    apiKeyViews: root.openDB({ name: 'api_key_views', encoding: 'binary' }),
    trades: root.openDB({ name: 'trades', ...structures }),
    bars: root.openDB({ name: 'bars_1m', ...structures }),
    // Records the journal stores arrive encoded by the routers as plain msgpack maps: read them as objects.
    orders: root.openDB({ name: 'orders', ...structures, ...plainMaps }),
    orderKeys: root.openDB({ name: 'order_keys' }),
    openOrders: root.openDB({ name: 'open_orders' }),
    orderStatuses: root.openDB({ name: 'order_statuses' }),
    fills: root.openDB({ name: 'fills', ...structures, ...plainMaps }),
    ledgers: root.openDB({ name: 'ledgers', ...plainMaps }),
    credentials: root.openDB({ name: 'credentials' }),
    sandboxSettings: root.openDB({ name: 'sandbox_settings' }),
    marketResolutions: root.openDB({ name: 'market_resolutions' }),
    wallets: root.openDB({ name: 'wallets' }),
    deployments: root.openDB({ name: 'deployments' }),
    deploymentArtifacts: root.openDB({ name: 'deployment_artifacts', encoding: 'binary' }),
    tcaBuckets: root.openDB({ name: 'tca_buckets' }),
    tcaPending: root.openDB({ name: 'tca_pending' }),
    alerts: root.openDB({ name: 'alerts' }),
    alertEvents: root.openDB({ name: 'alert_events' }),
  };
  if (options.readerOnly) return databases;
  try {
    migrate(databases);
  } catch (err) {
    void root.close();
    throw err;
  }
  return databases;
}

/** Resolves when every write issued so far is on disk. */
export async function durable(db: Databases): Promise<void> {
  await db.root.flushed;
}

export async function closeDatabases(db: Databases): Promise<void> {
  await db.root.flushed;
  await db.root.close();
}
