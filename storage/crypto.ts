import { createCipheriv, createDecipheriv, hash, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Encryption at rest of venue credentials: AES-256-GCM (spec, Credentials: "encrypted at rest
 * (AES-256-GCM)").
 *
 *   sealed row = { key_id, iv (12 bytes, fresh per write), tag (16 bytes), ciphertext }
 *   AAD        = caller-supplied context (the store binds client, mode, venue) + key_id
 *
 * A fresh random 96-bit IV per write: GCM's security collapses if an IV repeats under one key,
 * and with random IVs the bound is about 2^32 writes per key, far beyond credential writes.
 * The 16-byte tag is demanded on decrypt (`authTagLength`): Node otherwise accepts a truncated
 * tag, which would make forgery cheaper.
 *
 * Key: 32 bytes from `CREDENTIALS_KEY` (64 hex characters), or generated on first start into
 * `DATA_DIR/credentials.key` (mode 0600) and reused afterwards. Each row records the id of the
 * key that sealed it, so a later rotation can keep older keys for reading (`previous`).
 */
export const CREDENTIALS_KEY_FILE = 'credentials.key';
export const KEY_BYTES = 32;
export const IV_BYTES = 12;
export const TAG_BYTES = 16;
const ALGORITHM = 'aes-256-gcm';
const KEY_HEX = /^[0-9a-fA-F]{64}$/;

export interface SealedBox {
  key_id: string;
  iv: Uint8Array;
  tag: Uint8Array;
  ciphertext: Uint8Array;
}

/** Neither the key nor any plaintext ever appears in this error's message. */
export class CredentialDecryptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CredentialDecryptError';
  }
}

/**
 * Parses a 64-hex-character key. `source` names where it came from in the error; the value
 * itself is never echoed.
 */
export function parseCredentialsKey(hex: string, source = 'CREDENTIALS_KEY'): Buffer {
  const text = hex.trim();
  if (!KEY_HEX.test(text)) {
    throw new Error(`${source} must be ${KEY_BYTES * 2} hexadecimal characters (${KEY_BYTES} bytes)`);
  }
  const key = Buffer.from(text, 'hex');
  if (key.every((b) => b === 0)) throw new Error(`${source} must not be all zeros`);
  return key;
}

/** A short public fingerprint of a key (not reversible), stored with each row it seals. */
export function credentialsKeyId(key: Uint8Array): string {
  return hash('sha256', Buffer.concat([Buffer.from('sq-credentials-key-id\0'), key]), 'hex').slice(0, 16);
}

export class CredentialCipher {
  readonly keyId: string;
  private readonly keys = new Map<string, Buffer>();

  /** `previous` keys only decrypt (rows sealed before a rotation); `primary` seals. */
  constructor(primary: Uint8Array, previous: readonly Uint8Array[] = []) {
    for (const key of [primary, ...previous]) {
      if (key.length !== KEY_BYTES) throw new Error(`a credentials key is ${KEY_BYTES} bytes, got ${key.length}`);
      this.keys.set(credentialsKeyId(key), Buffer.from(key));
    }
    this.keyId = credentialsKeyId(primary);
  }

  knows(keyId: string): boolean {
    return this.keys.has(keyId);
  }

  seal(plaintext: Uint8Array, aad: Uint8Array): SealedBox {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.keys.get(this.keyId)!, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(boundAad(aad, this.keyId));
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return { key_id: this.keyId, iv, tag: cipher.getAuthTag(), ciphertext };
  }

  /** Throws CredentialDecryptError on an unknown key, a wrong context or any tampering. */
  open(box: SealedBox, aad: Uint8Array): Buffer {
    const key = this.keys.get(box.key_id);
    if (key === undefined) throw new CredentialDecryptError(`sealed under unknown credentials key ${box.key_id}`);
    if (box.iv.length !== IV_BYTES || box.tag.length !== TAG_BYTES) {
      throw new CredentialDecryptError('sealed row has a malformed IV or tag');
    }
    try {
      const decipher = createDecipheriv(ALGORITHM, key, box.iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(boundAad(aad, box.key_id));
      decipher.setAuthTag(box.tag);
      return Buffer.concat([decipher.update(box.ciphertext), decipher.final()]);
    } catch {
      throw new CredentialDecryptError('authentication failed: wrong key, wrong context or tampered row');
    }
  }
}

/** The key id is authenticated too, so a row cannot be relabelled to another key. */
function boundAad(aad: Uint8Array, keyId: string): Buffer {
  return Buffer.concat([aad, Buffer.from(`\0${keyId}`)]);
}

/**
 * The key in force: `configured` (CREDENTIALS_KEY) when set, else the key file under
 * `dataDir`, created on first start. Throws, without echoing any key material, when either is
 * malformed or the file is readable by group or others.
 */
export function resolveCredentialsKey(dataDir: string, configured: string | undefined): Buffer {
  if (configured !== undefined && configured !== '') return parseCredentialsKey(configured);
  return loadOrCreateKeyFile(dataDir).key;
}

export function loadOrCreateKeyFile(dataDir: string): { key: Buffer; created: boolean; path: string } {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, CREDENTIALS_KEY_FILE);
  let created = false;
  try {
    statSync(path);
  } catch {
    created = createKeyFile(path);
  }
  const mode = statSync(path).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new Error(`${path} is accessible by group or others (mode ${mode.toString(8)}); chmod 600 it`);
  }
  return { key: parseCredentialsKey(readFileSync(path, 'utf8'), path), created, path };
}

/**
 * Writes a fresh key to a temporary file (0600, fsynced) and links it into place: `link`
 * fails if the name exists, so two processes starting at once agree on one complete key and
 * no reader ever sees a half-written file. Returns false when another process won the race.
 */
function createKeyFile(path: string): boolean {
  const tmp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeSync(fd, `${randomBytes(KEY_BYTES).toString('hex')}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, path);
    // The link must reach the disk before any row sealed under this key does.
    const dir = openSync(dirname(path), 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    unlinkSync(tmp);
  }
}
