import type { Databases } from './database.ts';
import { randomBase62, sha256Hex } from './random.ts';

/**
 * API keys. The raw key exists only in the creation/rotation response; at rest we keep its
 * SHA-256 (for lookup) and a display prefix. Records key by [client_id, key_id] so an account's
 * keys are one range scan and another account's key id is simply not found.
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

export interface IssuedKey {
  record: ApiKeyRecord;
  raw_key: string;
}

export function keyMode(rawKey: string): 'live' | 'sandbox' | undefined {
  if (rawKey.startsWith(LIVE_KEY_PREFIX)) return 'live';
  if (rawKey.startsWith(SANDBOX_KEY_PREFIX)) return 'sandbox';
  return undefined;
}

/** Minimum interval between `last_used_at` writes per key: one LMDB write per second at most. */
const TOUCH_INTERVAL_MS = 1_000;

export class ApiKeyStore {
  /** In-flight touches, so a burst between a touch and its commit writes once. */
  private readonly touchedAt = new Map<string, number>();

  constructor(private readonly db: Databases) {}

  /** Issues a key; resolves once it is durable, so a returned key always works after a crash. */
  async create(clientId: string, options: { label: string | null; sandbox: boolean }): Promise<IssuedKey> {
    const issued = this.issue(clientId, options.label, options.sandbox);
    await this.db.root.transaction(() => this.write(issued.record));
    await this.db.root.flushed;
    return issued;
  }

  list(clientId: string, options: { sandboxOnly: boolean }): ApiKeyRecord[] {
    const out: ApiKeyRecord[] = [];
    for (const { value } of this.db.apiKeys.getRange({ start: [clientId, ''], end: [clientId, '\uffff'] })) {
      const record = value as ApiKeyRecord;
      if (!options.sandboxOnly || record.is_sandbox) out.push(record);
    }
    return out.sort((a, b) => b.created_at_ms - a.created_at_ms || (a.id < b.id ? -1 : 1));
  }

  get(clientId: string, keyId: string): ApiKeyRecord | undefined {
    return this.db.apiKeys.get([clientId, keyId]) as ApiKeyRecord | undefined;
  }

  /** The active record for a presented raw key, or undefined. Two synchronous LMDB reads. */
  findActive(rawKey: string): ApiKeyRecord | undefined {
    const ref = this.db.apiKeyHashes.get(sha256Hex(rawKey));
    if (ref === undefined) return undefined;
    const record = this.db.apiKeys.get(ref) as ApiKeyRecord | undefined;
    return record?.is_active ? record : undefined;
  }

  async deactivate(record: ApiKeyRecord): Promise<ApiKeyRecord> {
    const updated: ApiKeyRecord = { ...record, is_active: false, deactivated_at_ms: Date.now() };
    await this.db.root.transaction(() => {
      this.db.apiKeys.put([record.client_id, record.id], updated);
      this.db.apiKeyHashes.remove(record.key_hash);
    });
    await this.db.root.flushed;
    return updated;
  }

  /**
   * Rotation in one transaction: the old key stops working at the same commit that makes the
   * new one valid, and the new key keeps the old label and mode.
   */
  async rotate(record: ApiKeyRecord): Promise<IssuedKey> {
    const issued = this.issue(record.client_id, record.label, record.is_sandbox);
    const retired: ApiKeyRecord = {
      ...record,
      is_active: false,
      deactivated_at_ms: Date.now(),
      rotated_to: issued.record.id,
    };
    await this.db.root.transaction(() => {
      this.db.apiKeys.put([record.client_id, record.id], retired);
      this.db.apiKeyHashes.remove(record.key_hash);
      this.write(issued.record);
    });
    await this.db.root.flushed;
    return issued;
  }

  /**
   * Maintains `last_used_at` without a write per request: at most one write per key per
   * TOUCH_INTERVAL_MS, fire-and-forget (a lost touch after a crash is harmless).
   */
  touch(record: ApiKeyRecord, nowMs: number): void {
    const last = Math.max(record.last_used_at_ms ?? 0, this.touchedAt.get(record.id) ?? 0);
    if (nowMs - last < TOUCH_INTERVAL_MS) return;
    this.touchedAt.set(record.id, nowMs);
    const key: [string, string] = [record.client_id, record.id];
    void this.db.root.transaction(() => {
      const current = this.db.apiKeys.get(key) as ApiKeyRecord | undefined;
      if (current?.is_active) this.db.apiKeys.put(key, { ...current, last_used_at_ms: nowMs });
    });
  }

  private issue(clientId: string, label: string | null, sandbox: boolean): IssuedKey {
    const raw = (sandbox ? SANDBOX_KEY_PREFIX : LIVE_KEY_PREFIX) + randomBase62(RANDOM_CHARS);
    const record: ApiKeyRecord = {
      id: `key_${randomBase62(16)}`,
      client_id: clientId,
      key_prefix: raw.slice(0, (sandbox ? SANDBOX_KEY_PREFIX : LIVE_KEY_PREFIX).length + DISPLAY_CHARS),
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

  private write(record: ApiKeyRecord): void {
    this.db.apiKeys.put([record.client_id, record.id], record);
    this.db.apiKeyHashes.put(record.key_hash, [record.client_id, record.id]);
  }
}
