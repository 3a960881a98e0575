/**
 * AES-256-GCM sealing of venue credentials (storage/crypto.ts): round trip, tamper detection
 * on every part of a sealed box and on its context, wrong keys, fresh IVs, key parsing and the
 * generated key file.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  CREDENTIALS_KEY_FILE,
  CredentialCipher,
  CredentialDecryptError,
  credentialsKeyId,
  IV_BYTES,
  loadOrCreateKeyFile,
  parseCredentialsKey,
  resolveCredentialsKey,
  TAG_BYTES,
  type SealedBox,
} from '../../storage/crypto.ts';

const KEY_A = Buffer.alloc(32, 0xa1);
const KEY_B = Buffer.alloc(32, 0xb2);
const AAD = Buffer.from('["sq-credentials/v1","alice","live","binance"]');
const SECRET = Buffer.from('{"api_key":"k","api_secret":"very-secret-value"}');

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'seq-cred-key-'));
  dirs.push(dir);
  return dir;
}

function flipped(bytes: Uint8Array, index = 0): Buffer {
  const copy = Buffer.from(bytes);
  copy[index] = copy[index]! ^ 0x01;
  return copy;
}

describe('credential cipher (AES-256-GCM)', () => {
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('round-trips and records the key id, a 12-byte IV and a 16-byte tag', () => {
    const cipher = new CredentialCipher(KEY_A);
    const box = cipher.seal(SECRET, AAD);
    assert.equal(box.key_id, credentialsKeyId(KEY_A));
    assert.equal(box.iv.length, IV_BYTES);
    assert.equal(box.tag.length, TAG_BYTES);
    assert.equal(box.ciphertext.length, SECRET.length, 'GCM is a stream mode: no padding');
    assert.equal(Buffer.from(box.ciphertext).indexOf(Buffer.from('very-secret-value')), -1);
    assert.deepEqual(cipher.open(box, AAD), SECRET);
  });

  it('uses a fresh IV on every write, so equal plaintexts give different ciphertexts', () => {
    const cipher = new CredentialCipher(KEY_A);
    const ivs = new Set<string>();
    const texts = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const box = cipher.seal(SECRET, AAD);
      ivs.add(Buffer.from(box.iv).toString('hex'));
      texts.add(Buffer.from(box.ciphertext).toString('hex'));
    }
    assert.equal(ivs.size, 1000);
    assert.equal(texts.size, 1000);
  });

  it('detects tampering with the ciphertext, the tag, the IV and a truncated tag', () => {
    const cipher = new CredentialCipher(KEY_A);
    const box = cipher.seal(SECRET, AAD);
    const variants: [string, SealedBox][] = [
      ['ciphertext first byte', { ...box, ciphertext: flipped(box.ciphertext) }],
      ['ciphertext last byte', { ...box, ciphertext: flipped(box.ciphertext, box.ciphertext.length - 1) }],
      ['ciphertext truncated', { ...box, ciphertext: Buffer.from(box.ciphertext).subarray(1) }],
      ['tag', { ...box, tag: flipped(box.tag, 7) }],
      ['tag truncated to 12 bytes', { ...box, tag: Buffer.from(box.tag).subarray(0, 12) }],
      ['iv', { ...box, iv: flipped(box.iv, 3) }],
    ];
    for (const [what, tampered] of variants) {
      assert.throws(() => cipher.open(tampered, AAD), CredentialDecryptError, what);
    }
  });

  it('binds the ciphertext to its context (client, mode, venue): another AAD fails', () => {
    const cipher = new CredentialCipher(KEY_A);
    const box = cipher.seal(SECRET, AAD);
    for (const other of [
      '["sq-credentials/v1","bob","live","binance"]',
      '["sq-credentials/v1","alice","sandbox","binance"]',
      '["sq-credentials/v1","alice","live","kraken"]',
      '',
    ]) {
      assert.throws(() => cipher.open(box, Buffer.from(other)), CredentialDecryptError, other);
    }
  });

  it('fails with a wrong key, including a box relabelled with the right key id', () => {
    const boxA = new CredentialCipher(KEY_A).seal(SECRET, AAD);
    const cipherB = new CredentialCipher(KEY_B);
    assert.throws(() => cipherB.open(boxA, AAD), /unknown credentials key/);
    // Relabelled to B's id: the key id is authenticated and the key differs, so GCM rejects it.
    assert.throws(() => cipherB.open({ ...boxA, key_id: cipherB.keyId }, AAD), /authentication failed/);
  });

  it('keeps reading rows sealed under a previous key after a rotation, and seals with the new one', () => {
    const old = new CredentialCipher(KEY_A).seal(SECRET, AAD);
    const rotated = new CredentialCipher(KEY_B, [KEY_A]);
    assert.deepEqual(rotated.open(old, AAD), SECRET);
    assert.equal(rotated.seal(SECRET, AAD).key_id, credentialsKeyId(KEY_B));
  });

  it('error messages carry no plaintext and no key material', () => {
    const cipher = new CredentialCipher(KEY_A);
    const box = cipher.seal(SECRET, AAD);
    try {
      cipher.open({ ...box, tag: flipped(box.tag) }, AAD);
      assert.fail('expected a failure');
    } catch (err) {
      const text = `${(err as Error).message} ${(err as Error).stack ?? ''}`;
      assert.ok(!text.includes('very-secret-value'));
      assert.ok(!text.includes(KEY_A.toString('hex')));
    }
  });
});

describe('credentials key', () => {
  it('parses 64 hex characters (either case, surrounding whitespace ignored)', () => {
    const hex = 'ab'.repeat(32);
    assert.deepEqual(parseCredentialsKey(hex), Buffer.from(hex, 'hex'));
    assert.deepEqual(parseCredentialsKey(`  ${hex.toUpperCase()}\n`), Buffer.from(hex, 'hex'));
  });

  it('rejects a malformed key without echoing it', () => {
    const bad = ['', 'ab'.repeat(31), 'ab'.repeat(33), `${'ab'.repeat(31)}zz`, `0x${'ab'.repeat(31)}`, '0'.repeat(64)];
    for (const value of bad) {
      assert.throws(
        () => parseCredentialsKey(value),
        (err: Error) => /CREDENTIALS_KEY must/.test(err.message) && (value === '' || !err.message.includes(value)),
        JSON.stringify(value),
      );
    }
  });

  it('key ids are stable per key and differ between keys', () => {
    assert.equal(credentialsKeyId(KEY_A), credentialsKeyId(Buffer.from(KEY_A)));
    assert.notEqual(credentialsKeyId(KEY_A), credentialsKeyId(KEY_B));
    assert.match(credentialsKeyId(KEY_A), /^[0-9a-f]{16}$/);
  });

  it('generates the key file once with mode 0600 and reuses it', () => {
    const dir = tempDir();
    const first = loadOrCreateKeyFile(dir);
    assert.equal(first.created, true);
    assert.equal(first.path, join(dir, CREDENTIALS_KEY_FILE));
    assert.equal(statSync(first.path).mode & 0o777, 0o600);
    assert.match(readFileSync(first.path, 'utf8'), /^[0-9a-f]{64}\n$/);
    const second = loadOrCreateKeyFile(dir);
    assert.equal(second.created, false);
    assert.deepEqual(second.key, first.key);
    assert.deepEqual(resolveCredentialsKey(dir, undefined), first.key);
  });

  it('prefers CREDENTIALS_KEY and then creates no file', () => {
    const dir = tempDir();
    const hex = 'cd'.repeat(32);
    assert.deepEqual(resolveCredentialsKey(dir, hex), Buffer.from(hex, 'hex'));
    assert.throws(() => statSync(join(dir, CREDENTIALS_KEY_FILE)), /ENOENT/);
  });

  it('refuses a key file readable by others, or with malformed content', () => {
    const open = tempDir();
    writeFileSync(join(open, CREDENTIALS_KEY_FILE), `${'ef'.repeat(32)}\n`, { mode: 0o644 });
    chmodSync(join(open, CREDENTIALS_KEY_FILE), 0o644);
    assert.throws(() => loadOrCreateKeyFile(open), /accessible by group or others/);

    const corrupt = tempDir();
    writeFileSync(join(corrupt, CREDENTIALS_KEY_FILE), 'not a key\n', { mode: 0o600 });
    assert.throws(() => loadOrCreateKeyFile(corrupt), /credentials\.key must be 64 hexadecimal/);
  });
});
