import { createHash } from 'node:crypto';
import type { Databases } from '../../../storage/database.ts';

/** The databases that hold a client's state (the trade tape and bars are the market's, written on their own). */
const CLIENT_DATABASES = ['clients', 'apiKeys', 'apiKeyHashes', 'apiKeyViews', 'orders', 'orderKeys', 'openOrders', 'orderStatuses', 'fills', 'ledgers', 'credentials', 'sandboxSettings'] as const;

const ARRAY_KEYED = new Set<string>(['orders', 'orderKeys', 'openOrders', 'orderStatuses', 'fills', 'ledgers', 'credentials']);

function belongsTo(key: unknown, value: unknown, clientId: string): boolean {
  if (key === clientId) return true;
  if (Array.isArray(key) && key[0] === clientId) return true;
  // api_key_hashes: sha256 -> {client_id, ...}
  return typeof value === 'object' && value !== null && (value as { client_id?: unknown }).client_id === clientId;
}

/** What changes on use and is no state of the request's making: a key's `last_used_at`. */
function withoutUsage(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || !('records' in value)) return value;
  const records = (value as { records: Record<string, unknown>[] }).records;
  return { ...value, records: records.map(({ last_used_at_ms: _, ...rest }) => rest) };
}

/**
 * A digest of everything stored for `clientId` (every row keyed by it, in every client
 * database) plus the service's `meta` singletons (the kill switch): two equal digests mean no
 * request in between changed that client's durable state.
 */
export function clientStateDigest(db: Databases, clientId: string): string {
  const hash = createHash('sha256');
  for (const name of CLIENT_DATABASES) {
    const store = db[name] as { getRange(options?: object): Iterable<{ key: unknown; value: unknown }> };
    // Rows keyed [client, ...] are read as the client's range; the others (keyed by client id or
    // by a key hash) in full, they are small.
    const range = ARRAY_KEYED.has(name) ? { start: [clientId], end: [`${clientId}\u0000`] } : {};
    for (const { key, value } of store.getRange(range)) {
      if (!belongsTo(key, value, clientId)) continue;
      // apiKeyViews holds the materialised key list, last_used_at included: compared as the records are.
      if (name === 'apiKeyViews') continue;
      hash.update(name).update(JSON.stringify(key)).update(JSON.stringify(withoutUsage(value), (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ?? 'undefined');
    }
  }
  for (const { key, value } of db.meta.getRange({})) hash.update(String(key)).update(JSON.stringify(value) ?? '');
  return hash.digest('hex');
}
