import { writeKeyViews, type ApiKeyRecord } from './api-keys.ts';
import type { Databases } from './database.ts';
import type { OrderRecord } from '../domain/orders.ts';

/**
 * Schema migrations. The stored `schema_version` says which have run; `migrate` applies the
 * rest in order, each inside one write transaction with the version bump, so a crash leaves
 * either the old or the new schema. Add a migration by appending to the list; never edit one
 * that has shipped.
 */
export interface Migration {
  version: number;
  description: string;
  up(db: Databases): void;
}

export const SCHEMA_VERSION_KEY = 'schema_version';

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'clients, api_keys (per-client documents) and api_key_hashes databases; meta singletons',
    up: () => {
      // The named databases are created by openDB; nothing to backfill.
    },
  },
  {
    version: 2,
    description: 'api_key_views: the public key lists as ready-to-send JSON bytes',
    up: (db) => {
      for (const { key, value } of db.apiKeys.getRange()) {
        const records = (value as { records: ApiKeyRecord[] }).records;
        writeKeyViews(db, key, records);
      }
    },
  },
  {
    version: 3,
    description: 'trades and bars_1m: the trade tape and its one-minute bars for price history',
    up: () => {
      // A new named database; nothing to backfill.
    },
  },
  {
    version: 4,
    description: 'orders, order_keys, open_orders, fills and ledgers: execution state',
    up: () => {
      // New named databases; nothing to backfill.
    },
  },
  {
    version: 5,
    description: 'credentials: venue credentials sealed with AES-256-GCM per (client, mode, venue)',
    up: () => {
      // A new named database; nothing to backfill.
    },
  },
  {
    version: 6,
    description: 'order_statuses: every order under its status, so the listing counts by status without reading orders',
    up: (db) => {
      for (const { key, value } of db.orders.getRange()) {
        const order = value as OrderRecord;
        void db.orderStatuses.put([key[0], key[1], order.status, key[2]], 1);
        order.stored_status = order.status;
        void db.orders.put(key, order);
      }
    },
  },
  {
    version: 7,
    description: 'sandbox_settings: each client\'s pending and effective sandbox settings',
    up: () => {
      // A new named database; a client without a record has the defaults.
    },
  },
  {
    version: 8,
    description: 'market_resolutions: every prediction market resolution observed, for positions and the lifecycle stream',
    up: () => {
      // A new named database; resolutions are recorded as they are observed.
    },
  },
];

export const CURRENT_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

export function schemaVersion(db: Databases): number {
  const value = db.meta.get(SCHEMA_VERSION_KEY);
  return typeof value === 'number' ? value : 0;
}

export function migrate(db: Databases, migrations: readonly Migration[] = MIGRATIONS): number {
  const from = schemaVersion(db);
  const latest = migrations[migrations.length - 1]?.version ?? 0;
  if (from > latest) {
    throw new Error(`database schema ${from} is newer than this build's ${latest}; refusing to start`);
  }
  for (const migration of migrations) {
    if (migration.version <= from) continue;
    db.root.transactionSync(() => {
      migration.up(db);
      db.meta.putSync(SCHEMA_VERSION_KEY, migration.version);
    });
  }
  return schemaVersion(db);
}
