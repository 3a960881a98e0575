import type { Databases } from './database.ts';
import { randomBase62, sha256Hex } from './random.ts';

/**
 * API keys. The raw key exists only in the creation/rotation response; at rest we keep its
 * SHA-256 (for lookup) and a display prefix.
 *
 * Layout, chosen for the two hot reads (authenticate, list):
 *   api_key_hashes: sha256(raw) -> KeyRef          one get authenticates; only active keys
 *                                                   have an entry, so revocation is a delete
 *   api_keys:       client_id  -> ClientKeys        an account's keys in one value
 *   api_key_views:  [client_id, 'all'|'sandbox']    the public list as UTF-8 JSON bytes,
 *                   -> bytes                        materialised at write time, so listing is
 *                                                   one get whose bytes go to the socket as is
 * Writes are read-modify-write inside one LMDB transaction each.
 *
 * Key format: `sqk_live_<32 base62>` (live) or `sqk_test_<32 base62>` (sandbox); the mode
 * follows the prefix on every endpoint.
 */
export const KEY_PREFIX = 'sqk';
export const LIVE_KEY_PREFIX = `${KEY_PREFIX}_live_`;
export const SANDBOX_KEY_PREFIX = `${KEY_PREFIX}_test_`;
const RANDOM_CHARS = 32;
/** Characters of the random part shown in `key_prefix`, enough to tell keys apart. */
const DISPLAY_CHARS = 6;
/** Minimum interval between `last_used_at` writes per key: one LMDB write per second at most. */
const TOUCH_INTERVAL_MS = 1_000;

export interface ApiKeyRecord {
  id: string;
  client_id: string;
  key_prefix: string;
  key_hash: string;
  label: string | null;
  is_active: boolean;
  is_sandbox: boolean;
  created_at_ms: number;
  last_used_at_ms: number | null;
  deactivated_at_ms: number | null;
  /** Set on a key retired by rotation: the id of its replacement. */
  rotated_to: string | null;
}

/** What authentication needs, stored under the key's hash. */
export interface KeyRef {
  client_id: string;
  key_id: string;
  is_sandbox: boolean;
}

interface ClientKeys {
  /** newest first */
  records: ApiKeyRecord[];
}

const EMPTY_LIST = Buffer.from('[]');

/** Writes both public list views of an account; call inside the transaction that changes it. */
export function writeKeyViews(db: Databases, clientId: string, records: ApiKeyRecord[]): void {
  db.apiKeyViews.put([clientId, 'all'], Buffer.from(JSON.stringify(records.map(apiKeyView))));
  db.apiKeyViews.put([clientId, 'sandbox'], Buffer.from(JSON.stringify(records.filter((r) => r.is_sandbox).map(apiKeyView))));
}

export interface IssuedKey {
  record: ApiKeyRecord;
  raw_key: string;
}

/** The spec's API key record, as every listing shows it. */
export interface ApiKeyView {
  id: string;
  key_prefix: string;
  label: string | null;
  is_active: boolean;
  is_sandbox: boolean;
  last_used_at: string | null;
  created_at: string;
}

export function apiKeyView(record: ApiKeyRecord): ApiKeyView {
  return {
    id: record.id,
    key_prefix: record.key_prefix,
    label: record.label,
    is_active: record.is_active,
    is_sandbox: record.is_sandbox,
    last_used_at: record.last_used_at_ms === null ? null : new Date(record.last_used_at_ms).toISOString(),
    created_at: new Date(record.created_at_ms).toISOString(),
  };
}

export function keyMode(rawKey: string): 'live' | 'sandbox' | undefined {
  if (rawKey.startsWith(LIVE_KEY_PREFIX)) return 'live';
  if (rawKey.startsWith(SANDBOX_KEY_PREFIX)) return 'sandbox';
  return undefined;
}

/** Active keys an account may hold at once (both modes): a leaked-credential blast radius, and a bounded list. */
export const MAX_ACTIVE_KEYS = 25;
/** Deactivated keys kept listed (newest first); older ones are dropped from the account's list. */
export const MAX_INACTIVE_KEYS = 100;

/** Every active key, and the newest MAX_INACTIVE_KEYS inactive ones (records are newest first). */
function retained(records: ApiKeyRecord[]): ApiKeyRecord[] {
  let inactive = 0;
  return records.filter((r) => r.is_active || ++inactive <= MAX_INACTIVE_KEYS);
}

export class KeyLimitReached extends Error {
  constructor(readonly limit: number) {
    super(`the account already holds ${limit} active API keys: delete one first`);
  }
}

export class ApiKeyStore {
  /** Last touch per key id, so a burst between a touch and its commit writes once. */
  private readonly touchedAt = new Map<string, number>();
  private readonly written: ((clientId: string, records: ApiKeyRecord[]) => void)[] = [];

  /**
   * Told of an account's keys each time this node issues, rotates or revokes one, once durable
   * (the regions replicate them: only hashes and prefixes, never a raw key). A touch is not told.
   */
  onWritten(listener: (clientId: string, records: ApiKeyRecord[]) => void): void {
    this.written.push(listener);
  }

  private tell(clientId: string): void {
    if (this.written.length === 0) return;
    const records = this.list(clientId, { sandboxOnly: false });
    for (const listener of this.written) listener(clientId, records);
  }

  /**
   * An account's keys as another node wrote them, merged with this node's: the union by key id
   * (two nodes may issue keys at once, and neither list may drop the other's), a key revoked on
   * either side revoked (revocation only ever goes one way), this node's later `last_used_at`
   * kept. Stored with the hash index to match: a key revoked there stops working here. Not told
   * to `onWritten`; answers the merged list, which the caller publishes back when it holds keys
   * the other node's list lacked, so every node converges on the union.
   */
  async applyReplica(clientId: string, records: ApiKeyRecord[]): Promise<ApiKeyRecord[]> {
    const merged = await this.db.root.transaction(() => {
      const before = this.doc(clientId)?.records ?? [];
      const mine = new Map(before.map((r) => [r.id, r]));
      const union = records.map((r) => {
        const here = mine.get(r.id);
        mine.delete(r.id);
        if (here === undefined) return r;
        return {
          ...r,
          is_active: r.is_active && here.is_active,
          deactivated_at_ms: r.deactivated_at_ms ?? here.deactivated_at_ms,
          rotated_to: r.rotated_to ?? here.rotated_to,
          last_used_at_ms: Math.max(r.last_used_at_ms ?? 0, here.last_used_at_ms ?? 0) || null,
        };
      });
      const all = retained([...union, ...mine.values()].sort((a, b) => b.created_at_ms - a.created_at_ms || (a.id < b.id ? -1 : 1)));
      this.db.apiKeys.put(clientId, { records: all } satisfies ClientKeys);
      writeKeyViews(this.db, clientId, all);
      const active = new Set(all.filter((r) => r.is_active).map((r) => r.key_hash));
      for (const r of before) if (!active.has(r.key_hash)) this.db.apiKeyHashes.remove(r.key_hash);
      for (const r of all) if (r.is_active) this.indexActive(r);
      return all;
    });
    await this.db.root.flushed;
    return merged;
  }

  /** Every account with keys (the regions publish those another node lacks, at start). */
  accounts(): string[] {
    return [...this.db.apiKeys.getKeys()].map(String);
  }

  constructor(private readonly db: Databases) {}

  /**
   * Issues a key; resolves once it is durable, so a returned key always works after a crash.
   * Throws KeyLimitReached when the account already holds MAX_ACTIVE_KEYS active keys (counted
   * inside the transaction, so concurrent creations cannot pass the cap together).
   */
  async create(clientId: string, options: { label: string | null; sandbox: boolean }): Promise<IssuedKey> {
    const issued = this.issue(clientId, options.label, options.sandbox);
    const created = await this.db.root.transaction(() => {
      const active = (this.doc(clientId)?.records ?? []).filter((r) => r.is_active).length;
      if (active >= MAX_ACTIVE_KEYS) return false;
      this.update(clientId, (records) => [issued.record, ...records]);
      this.indexActive(issued.record);
      return true;
    });
    if (!created) throw new KeyLimitReached(MAX_ACTIVE_KEYS);
    await this.db.root.flushed;
    this.tell(clientId);
    return issued;
  }

  /** The account's keys, newest first. */
  list(clientId: string, options: { sandboxOnly: boolean }): ApiKeyRecord[] {
    const records = this.doc(clientId)?.records ?? [];
    return options.sandboxOnly ? records.filter((r) => r.is_sandbox) : records;
  }

  /**
   * `list` as the JSON bytes of the public views, materialised at write time: one read, no
   * decoding. The buffer is lmdb's reusable read buffer: valid until the next read, so send it
   * before doing anything else.
   */
  listJson(clientId: string, options: { sandboxOnly: boolean }): Buffer {
    const bytes = this.db.apiKeyViews.getBinaryFast([clientId, options.sandboxOnly ? 'sandbox' : 'all']);
    // lmdb's fast buffer reports the shared read buffer's byteLength; a subarray is an honest view.
    return bytes === undefined ? EMPTY_LIST : bytes.subarray(0, bytes.length);
  }

  get(clientId: string, keyId: string): ApiKeyRecord | undefined {
    return this.doc(clientId)?.records.find((r) => r.id === keyId);
  }

  /** The reference of an active key, or undefined. One hash and one synchronous LMDB read. */
  findActive(rawKey: string): KeyRef | undefined {
    return this.db.apiKeyHashes.get(sha256Hex(rawKey)) as KeyRef | undefined;
  }

  /** Deactivates a key; idempotent. Resolves with the stored record once durable. */
  async deactivate(record: ApiKeyRecord): Promise<ApiKeyRecord> {
    const now = Date.now();
    await this.db.root.transaction(() => {
      this.update(record.client_id, (records) =>
        records.map((r) => (r.id === record.id && r.is_active ? { ...r, is_active: false, deactivated_at_ms: now } : r)),
      );
      this.db.apiKeyHashes.remove(record.key_hash);
    });
    await this.db.root.flushed;
    this.tell(record.client_id);
    return this.get(record.client_id, record.id)!;
  }

  /**
   * Rotation in one transaction: the old key stops working at the same commit that makes the
   * new one valid, and the new key keeps the old label and mode.
   */
  async rotate(record: ApiKeyRecord): Promise<IssuedKey | undefined> {
    const issued = this.issue(record.client_id, record.label, record.is_sandbox);
    const now = Date.now();
    // The check is inside the transaction: of two concurrent rotations of one key, the second
    // sees it inactive and issues nothing.
    const rotated = await this.db.root.transaction(() => {
      if (this.get(record.client_id, record.id)?.is_active !== true) return false;
      this.update(record.client_id, (records) => [
        issued.record,
        ...records.map((r) =>
          r.id === record.id ? { ...r, is_active: false, deactivated_at_ms: now, rotated_to: issued.record.id } : r,
        ),
      ]);
      this.db.apiKeyHashes.remove(record.key_hash);
      this.indexActive(issued.record);
      return true;
    });
    if (!rotated) return undefined;
    await this.db.root.flushed;
    this.tell(record.client_id);
    return issued;
  }

  /**
   * Maintains `last_used_at` without a write per request: at most one write per key per
   * TOUCH_INTERVAL_MS, fire-and-forget (a lost touch after a crash is harmless).
   */
  touch(ref: KeyRef, nowMs: number): void {
    const last = this.touchedAt.get(ref.key_id);
    if (last !== undefined && nowMs - last < TOUCH_INTERVAL_MS) return;
    // Keys come and go (rotation): entries older than the interval mean nothing, so the map is
    // cleared now and then rather than kept for every key ever used.
    if (this.touchedAt.size >= 10_000) this.touchedAt.clear();
    this.touchedAt.set(ref.key_id, nowMs);
    this.db.writes.watch(
      this.db.root.transaction(() => {
        this.update(ref.client_id, (records) =>
          records.map((r) => (r.id === ref.key_id && r.is_active ? { ...r, last_used_at_ms: nowMs } : r)),
        );
      }),
    );
  }

  private doc(clientId: string): ClientKeys | undefined {
    return this.db.apiKeys.get(clientId) as ClientKeys | undefined;
  }

  /** Read-modify-write of an account's keys; call inside a transaction. */
  private update(clientId: string, change: (records: ApiKeyRecord[]) => ApiKeyRecord[]): void {
    const records = retained(change(this.doc(clientId)?.records ?? []));
    this.db.apiKeys.put(clientId, { records } satisfies ClientKeys);
    writeKeyViews(this.db, clientId, records);
  }

  private indexActive(record: ApiKeyRecord): void {
    const ref: KeyRef = { client_id: record.client_id, key_id: record.id, is_sandbox: record.is_sandbox };
    this.db.apiKeyHashes.put(record.key_hash, ref);
  }

  private issue(clientId: string, label: string | null, sandbox: boolean): IssuedKey {
    const prefix = sandbox ? SANDBOX_KEY_PREFIX : LIVE_KEY_PREFIX;
    const raw = prefix + randomBase62(RANDOM_CHARS);
    const record: ApiKeyRecord = {
      id: `key_${randomBase62(16)}`,
      client_id: clientId,
      key_prefix: raw.slice(0, prefix.length + DISPLAY_CHARS),
      key_hash: sha256Hex(raw),
      label,
      is_active: true,
      is_sandbox: sandbox,
      created_at_ms: Date.now(),
      last_used_at_ms: null,
      deactivated_at_ms: null,
      rotated_to: null,
    };
    return { record, raw_key: raw };
  }
}
