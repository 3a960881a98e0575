import { isVenueId, type VenueId } from '../domain/market.ts';
import type { ApiKeyRecord } from './api-keys.ts';
import type { ClientProfile } from './clients.ts';
import type { CredentialMode, SealedRow } from './credentials.ts';
import type { Storage } from './index.ts';

/**
 * The records every region needs, as tables the region link keeps in step with JetStream
 * key-value buckets (actors/region-link/records.ts, docs/regions.md): client profiles, each
 * account's API key records (hashes and prefixes: a raw key is never stored, here or there) and
 * venue credentials still sealed. Keys are bucket-safe: ids in base64url.
 */
interface Table<V> {
  local(): Iterable<[string, V]>;
  apply(key: string, value: V | null): Promise<void>;
  onWritten(listener: (key: string, value: V | null) => void): void;
}

const id = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');
const unid = (text: string): string => Buffer.from(text, 'base64url').toString('utf8');

export function replicatedTables(storage: Storage): { clients: Table<ClientProfile>; apiKeys: Table<ApiKeyRecord[]>; credentials: Table<SealedRow> } {
  return { clients: clientsTable(storage), apiKeys: apiKeysTable(storage), credentials: credentialsTable(storage) };
}

function clientsTable(storage: Storage): Table<ClientProfile> {
  return {
    *local() {
      for (const profile of storage.clients.list()) yield [`c.${id(profile.client_id)}`, profile];
    },
    async apply(key, value) {
      // A client is never removed (its orders stay theirs); a profile is replaced whole.
      if (value === null || typeof value !== 'object' || value.client_id !== unid(key.slice(2))) return;
      await storage.clients.applyReplica(value);
    },
    onWritten(listener) {
      storage.clients.onWritten((profile) => listener(`c.${id(profile.client_id)}`, profile));
    },
  };
}

function apiKeysTable(storage: Storage): Table<ApiKeyRecord[]> {
  let publish: ((key: string, value: ApiKeyRecord[]) => void) | undefined;
  return {
    *local() {
      for (const client of storage.apiKeys.accounts()) yield [`k.${id(client)}`, storage.apiKeys.list(client, { sandboxOnly: false })];
    },
    async apply(key, value) {
      const client = unid(key.slice(2));
      if (!Array.isArray(value) || value.some((r) => typeof r !== 'object' || r === null || r.client_id !== client || typeof r.key_hash !== 'string')) return;
      const merged = await storage.apiKeys.applyReplica(client, value);
      // Keys this node issued that the other's list lacked (both issued at once): the union goes back.
      const theirs = new Set(value.map((r) => `${r.id}|${r.is_active}`));
      if (merged.some((r) => !theirs.has(`${r.id}|${r.is_active}`))) publish?.(key, merged);
    },
    onWritten(listener) {
      publish = listener;
      storage.apiKeys.onWritten((client, records) => listener(`k.${id(client)}`, records));
    },
  };
}

function credentialsTable(storage: Storage): Table<SealedRow> {
  const credentials = storage.credentials;
  const keyOf = (client: string, mode: CredentialMode, venue: VenueId) => `r.${id(client)}.${mode}.${venue}`;
  // Rows being applied from the bucket: their store notifications are not published back.
  const applying = new Set<string>();
  return {
    *local() {
      for (const { client_id, mode, venue } of credentials.rows()) {
        const row = credentials.sealedRow(client_id, mode, venue);
        if (row !== undefined) yield [keyOf(client_id, mode, venue), row];
      }
    },
    async apply(key, value) {
      const [, client, mode, venue] = key.split('.');
      if (client === undefined || (mode !== 'live' && mode !== 'sandbox') || venue === undefined || !isVenueId(venue)) return;
      if (value !== null && (typeof value !== 'object' || typeof value.key_id !== 'string' || typeof value.stored_at_ms !== 'number')) return;
      applying.add(key);
      try {
        const applied = await credentials.applyReplica(unid(client), mode, venue, value);
        if (applied === 'unknown_key') throw new Error(`credentials of ${venue} sealed under key ${value!.key_id}, which this node does not hold: every node needs the same CREDENTIALS_KEY`);
      } finally {
        applying.delete(key);
      }
    },
    onWritten(listener) {
      credentials.onStored((e) => {
        const key = keyOf(e.client_id, e.mode, e.venue);
        const row = credentials.sealedRow(e.client_id, e.mode, e.venue);
        if (!applying.has(key) && row !== undefined) listener(key, row);
      });
      credentials.onRemoved((e) => {
        const key = keyOf(e.client_id, e.mode, e.venue);
        if (!applying.has(key)) listener(key, null);
      });
    },
  };
}
