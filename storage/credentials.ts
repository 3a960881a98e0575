import { inspect } from 'node:util';
import type { VenueId } from '../domain/market.ts';
import { checkCredentials, CREDENTIAL_KINDS, type CredentialFieldError, type VenueCredentials } from './credential-shapes.ts';
import { CredentialCipher, CredentialDecryptError } from './crypto.ts';
import type { Databases } from './database.ts';

/**
 * Venue credentials, one sealed row per (client_id, mode, venue): sandbox and live never mix.
 *
 *   credentials: [client_id, 'live'|'sandbox', venue] -> SealedRow
 *                { v, key_id, iv, tag, ciphertext, stored_at_ms }
 *
 * The plaintext (the request's api_key, api_secret, passphrase, extra_json as JSON) exists
 * only in memory: sealed with AES-256-GCM (crypto.ts) under associated data naming the row's
 * own key, so a row copied to another client, mode or venue no longer decrypts. Writes resolve
 * once on disk. Reads decrypt on every call; nothing plaintext is cached here.
 */
export type CredentialMode = 'live' | 'sandbox';

export interface CredentialStoredEvent {
  readonly client_id: string;
  readonly mode: CredentialMode;
  readonly venue: VenueId;
  readonly stored_at_ms: number;
}

/**
 * Called after each durable store, in registration order. Carries no secret: a listener that
 * needs the credentials calls `get`. A listener may answer a promise: the store resolves once
 * every such promise has settled, so what a listener makes durable (the router opening the
 * simulated venue account) is there when the caller answers. Slow work (the fee-tier probe)
 * belongs in the background; a listener's exception or rejection is contained, so it can neither
 * fail the store nor starve later listeners, and listeners should handle their own errors.
 */
export type CredentialStoredListener = (event: CredentialStoredEvent) => void | Promise<unknown>;

export type StoreResult = { stored: true; stored_at_ms: number } | { stored: false; errors: CredentialFieldError[] };

export interface SealedRow {
  v: 1;
  key_id: string;
  iv: Uint8Array;
  tag: Uint8Array;
  ciphertext: Uint8Array;
  stored_at_ms: number;
}

type RowKey = [string, CredentialMode, string];

const FORMAT = 'sq-credentials/v1';

/** What binds a row to its place; JSON, so no separator inside a client id can be ambiguous. */
function associatedData(clientId: string, mode: CredentialMode, venue: string): Buffer {
  return Buffer.from(JSON.stringify([FORMAT, clientId, mode, venue]));
}

const REDACTED = '[redacted venue credentials]';

/**
 * The decrypted object handed to the engine. `toJSON` and the inspect hook are
 * non-enumerable, so field access works as usual while `JSON.stringify`, pino and
 * `console.log` print a placeholder instead of the secrets.
 */
function guarded(credentials: VenueCredentials): VenueCredentials {
  Object.defineProperty(credentials, 'toJSON', { value: () => REDACTED, enumerable: false });
  Object.defineProperty(credentials, inspect.custom, { value: () => REDACTED, enumerable: false });
  return credentials;
}

export class CredentialStore {
  private readonly listeners: CredentialStoredListener[] = [];
  private readonly removedListeners: ((event: Omit<CredentialStoredEvent, 'stored_at_ms'>) => void)[] = [];
  /** `client|mode` -> venues with credentials; every order asks, so it is kept, and dropped on each write. */
  private readonly venueSets = new Map<string, ReadonlySet<VenueId>>();

  /** Refuses to start when a stored row was sealed under a key this process does not hold. */
  constructor(
    private readonly db: Databases,
    private readonly cipher: CredentialCipher,
  ) {
    const unknown = new Map<string, number>();
    for (const { value } of this.db.credentials.getRange()) {
      const keyId = (value as SealedRow).key_id;
      if (!cipher.knows(keyId)) unknown.set(keyId, (unknown.get(keyId) ?? 0) + 1);
    }
    if (unknown.size > 0) {
      const list = [...unknown].map(([id, n]) => `${n} under key ${id}`).join(', ');
      throw new Error(
        `stored venue credentials were sealed with another credentials key (${list}; configured key ${cipher.keyId}): ` +
          'set CREDENTIALS_KEY, or restore DATA_DIR/credentials.key, to the key they were written with',
      );
    }
  }

  /** The id of the key new rows are sealed with (a fingerprint, not the key). */
  get keyId(): string {
    return this.cipher.keyId;
  }

  /**
   * Validates against the venue's shape, seals and stores, replacing any row of the same
   * (client, mode, venue); resolves once durable, then tells the listeners. An input that does
   * not fit the venue is a result, not an exception: nothing is written.
   */
  async put(clientId: string, mode: CredentialMode, venue: VenueId, input: VenueCredentials): Promise<StoreResult> {
    const errors = checkCredentials(venue, input);
    if (errors.length > 0) return { stored: false, errors };
    const plain: VenueCredentials = { api_key: input.api_key, api_secret: input.api_secret };
    if (input.passphrase !== undefined && input.passphrase !== '') plain.passphrase = input.passphrase;
    if (input.extra_json !== undefined) plain.extra_json = input.extra_json;
    const box = this.cipher.seal(Buffer.from(JSON.stringify(plain)), associatedData(clientId, mode, venue));
    const storedAtMs = Date.now();
    const row: SealedRow = { v: 1, ...box, stored_at_ms: storedAtMs };
    await this.db.credentials.put(rowKey(clientId, mode, venue), row);
    this.venueSets.delete(`${clientId}|${mode}`);
    await this.db.root.flushed;
    await notify(this.listeners, { client_id: clientId, mode, venue, stored_at_ms: storedAtMs });
    return { stored: true, stored_at_ms: storedAtMs };
  }

  /**
   * The decrypted credentials, or undefined when none are stored. Throws
   * CredentialDecryptError when the row does not authenticate (tampered, moved or sealed under
   * a key no longer configured): that is corruption, not an absent credential.
   */
  get(clientId: string, mode: CredentialMode, venue: VenueId): VenueCredentials | undefined {
    const row = this.db.credentials.get(rowKey(clientId, mode, venue)) as SealedRow | undefined;
    if (row === undefined) return undefined;
    if (row.v !== 1) throw new CredentialDecryptError(`unsupported sealed row version ${String(row.v)}`);
    const plain = this.cipher.open(row, associatedData(clientId, mode, venue));
    return guarded(JSON.parse(plain.toString('utf8')) as VenueCredentials);
  }

  /** The venues with stored credentials for the client in this mode, sorted. */
  venues(clientId: string, mode: CredentialMode): VenueId[] {
    return storedVenues(this.db, clientId, mode);
  }

  /** `venues` as a set, cached until the client's credentials in that mode change. */
  venueSet(clientId: string, mode: CredentialMode): ReadonlySet<VenueId> {
    const key = `${clientId}|${mode}`;
    let set = this.venueSets.get(key);
    if (set === undefined) {
      set = new Set(this.venues(clientId, mode));
      this.venueSets.set(key, set);
    }
    return set;
  }

  /** Removes the row; resolves true once the removal is durable, false when none was stored. */
  async delete(clientId: string, mode: CredentialMode, venue: VenueId): Promise<boolean> {
    const key = rowKey(clientId, mode, venue);
    const removed = await this.db.root.transaction(() => {
      if (this.db.credentials.get(key) === undefined) return false;
      this.db.credentials.remove(key);
      return true;
    });
    this.venueSets.delete(`${clientId}|${mode}`);
    if (removed) {
      await this.db.root.flushed;
      await notify(this.removedListeners, { client_id: clientId, mode, venue });
    }
    return removed;
  }

  /** The row as stored, still sealed (the regions replicate it as is: the same `CREDENTIALS_KEY` opens it everywhere). */
  sealedRow(clientId: string, mode: CredentialMode, venue: VenueId): SealedRow | undefined {
    return this.db.credentials.get(rowKey(clientId, mode, venue)) as SealedRow | undefined;
  }

  /** Every stored row's place (the regions publish those another node lacks, at start). */
  rows(): { client_id: string; mode: CredentialMode; venue: VenueId }[] {
    return [...this.db.credentials.getKeys()].map((k) => {
      const [client_id, mode, venue] = k as RowKey;
      return { client_id, mode, venue: venue as VenueId };
    });
  }

  /**
   * A row another node stored (or removed: null), applied here still sealed and told to the
   * listeners as a local store is, so this node's router opens the venue account. An older row
   * than the one held, or one sealed under a key this node does not hold, changes nothing.
   */
  async applyReplica(clientId: string, mode: CredentialMode, venue: VenueId, row: SealedRow | null): Promise<'applied' | 'unchanged' | 'unknown_key'> {
    const held = this.sealedRow(clientId, mode, venue);
    if (row === null) return (await this.delete(clientId, mode, venue)) ? 'applied' : 'unchanged';
    if (held !== undefined && held.stored_at_ms >= row.stored_at_ms) return 'unchanged';
    if (!this.cipher.knows(row.key_id)) return 'unknown_key';
    await this.db.credentials.put(rowKey(clientId, mode, venue), row);
    this.venueSets.delete(`${clientId}|${mode}`);
    await this.db.root.flushed;
    await notify(this.listeners, { client_id: clientId, mode, venue, stored_at_ms: row.stored_at_ms });
    return 'applied';
  }

  /** Registers a listener for durable removals. */
  onRemoved(listener: (event: Omit<CredentialStoredEvent, 'stored_at_ms'>) => void | Promise<unknown>): void {
    this.removedListeners.push(listener);
  }

  /** Registers a listener for durable stores; returns its removal. */
  onStored(listener: CredentialStoredListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }
}

/**
 * Calls each listener in order and waits for the promises they answer; one that throws or
 * rejects is contained (see CredentialStoredListener): the row is durable either way.
 */
async function notify<E>(listeners: readonly ((event: E) => void | Promise<unknown>)[], event: E): Promise<void> {
  const pending: Promise<unknown>[] = [];
  for (const listener of listeners) {
    try {
      const answer = listener(event);
      if (answer instanceof Promise) pending.push(answer);
    } catch {
      // contained by contract
    }
  }
  if (pending.length > 0) await Promise.allSettled(pending);
}

function rowKey(clientId: string, mode: CredentialMode, venue: VenueId): RowKey {
  return [clientId, mode, venue];
}

/** The venues with stored credentials for the client in a mode, sorted; reads keys only (no key material). */
/** Every client with a row for this venue in this mode (a full scan: start-up work, not per request). */
export function clientsWithCredentials(db: Pick<Databases, 'credentials'>, venue: VenueId, mode: CredentialMode): string[] {
  const out: string[] = [];
  for (const key of db.credentials.getKeys()) {
    const [client, rowMode, rowVenue] = key as RowKey;
    if (rowMode === mode && rowVenue === venue) out.push(client);
  }
  return out;
}

export function storedVenues(db: Pick<Databases, 'credentials'>, clientId: string, mode: CredentialMode): VenueId[] {
  const out: VenueId[] = [];
  // Keys sort by (client, mode, venue), so this range is exactly this client's mode, in venue order.
  for (const key of db.credentials.getKeys({ start: [clientId, mode, ''], end: [clientId, mode, '\uffff'] })) {
    const venue = key[2];
    if (Object.hasOwn(CREDENTIAL_KINDS, venue)) out.push(venue as VenueId);
  }
  return out;
}
