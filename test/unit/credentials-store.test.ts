/**
 * The credential store over a real LMDB environment (storage/credentials.ts): put, get,
 * venues, delete, mode and client isolation, rows that cannot be moved, the stored-listener
 * hook, redaction of the decrypted object, and refusal to start under a different key.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { after, describe, it } from 'node:test';
import { SIGNER_REQUIRED_MESSAGE } from '../../storage/credential-shapes.ts';
import type { CredentialStoredEvent } from '../../storage/credentials.ts';
import { CredentialDecryptError } from '../../storage/crypto.ts';
import { Storage } from '../../storage/index.ts';

const KEY_HEX = '5e'.repeat(32);
const OTHER_KEY_HEX = '6f'.repeat(32);
const RSA_PEM = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
const EVM_KEY = '4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'seq-cred-store-'));
  dirs.push(dir);
  return dir;
}

function lmdbBytes(dir: string): Buffer {
  const path = join(dir, 'lmdb');
  return Buffer.concat(readdirSync(path).map((f) => readFileSync(join(path, f))));
}

describe('credential store', () => {
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('stores, reads back, lists sorted, overwrites and deletes per (client, mode, venue)', async () => {
    const storage = Storage.open(tempDir(), { credentialsKey: KEY_HEX });
    const store = storage.credentials;
    try {
      assert.deepEqual(store.venues('alice', 'live'), []);
      assert.equal(store.get('alice', 'live', 'okx'), undefined);
      for (const [venue, input] of [
        ['okx', { api_key: 'okx-key', api_secret: 'okx-secret', passphrase: 'okx-pass' }],
        ['binance', { api_key: 'bn-key', api_secret: 'bn-secret' }],
        ['kalshi', { api_key: '3f2504e0-4f89-41d3-9a0c-0305e82c3301', api_secret: RSA_PEM }],
      ] as const) {
        const result = await store.put('alice', 'live', venue, input);
        assert.equal(result.stored, true, JSON.stringify(result));
      }
      assert.deepEqual(store.venues('alice', 'live'), ['binance', 'kalshi', 'okx']);
      assert.deepEqual({ ...store.get('alice', 'live', 'okx') }, { api_key: 'okx-key', api_secret: 'okx-secret', passphrase: 'okx-pass' });
      assert.equal(store.get('alice', 'live', 'kalshi')?.api_secret, RSA_PEM);

      await store.put('alice', 'live', 'binance', { api_key: 'bn-key-2', api_secret: 'bn-secret-2' });
      assert.deepEqual({ ...store.get('alice', 'live', 'binance') }, { api_key: 'bn-key-2', api_secret: 'bn-secret-2' });
      assert.deepEqual(store.venues('alice', 'live'), ['binance', 'kalshi', 'okx']);

      // Other modes and clients see nothing of alice's live rows.
      assert.deepEqual(store.venues('alice', 'sandbox'), []);
      assert.deepEqual(store.venues('alic', 'live'), []);
      assert.deepEqual(store.venues('alice2', 'live'), []);
      assert.equal(store.get('alice', 'sandbox', 'okx'), undefined);
      await store.put('alice', 'sandbox', 'kraken', { api_key: 'sb-key', api_secret: 'sb-secret' });
      assert.deepEqual(store.venues('alice', 'sandbox'), ['kraken']);
      assert.deepEqual(store.venues('alice', 'live'), ['binance', 'kalshi', 'okx']);

      assert.equal(await store.delete('alice', 'live', 'okx'), true);
      assert.equal(await store.delete('alice', 'live', 'okx'), false);
      assert.equal(store.get('alice', 'live', 'okx'), undefined);
      assert.deepEqual(store.venues('alice', 'live'), ['binance', 'kalshi']);
    } finally {
      await storage.close();
    }
  });

  it('rejects a shape violation as a result and writes nothing', async () => {
    const storage = Storage.open(tempDir(), { credentialsKey: KEY_HEX });
    try {
      const result = await storage.credentials.put('alice', 'live', 'polymarket', { api_key: 'k', api_secret: 's', passphrase: 'p' });
      assert.equal(result.stored, false);
      assert.ok(!result.stored && result.errors.some((e) => e.message === SIGNER_REQUIRED_MESSAGE));
      assert.deepEqual(storage.credentials.venues('alice', 'live'), []);
    } finally {
      await storage.close();
    }
  });

  it('keeps secrets out of the LMDB files', async () => {
    const dir = tempDir();
    const storage = Storage.open(dir, { credentialsKey: KEY_HEX });
    const secrets = ['bn-api-key-AT-REST', 'bn-api-secret-AT-REST', EVM_KEY, RSA_PEM.split('\n')[1]!];
    try {
      await storage.credentials.put('alice', 'live', 'binance', { api_key: secrets[0]!, api_secret: secrets[1]! });
      await storage.credentials.put('alice', 'live', 'polymarket', { api_key: '', api_secret: '', extra_json: { signer_private_key: EVM_KEY } });
      await storage.credentials.put('alice', 'live', 'kalshi', { api_key: '3f2504e0-4f89-41d3-9a0c-0305e82c3301', api_secret: RSA_PEM });
      const bytes = lmdbBytes(dir);
      for (const secret of secrets) assert.equal(bytes.indexOf(secret), -1, `${secret.slice(0, 12)}... found in LMDB`);
      // Positive control: the row and its key id are there.
      assert.notEqual(bytes.indexOf(storage.credentials.keyId), -1);
    } finally {
      await storage.close();
    }
  });

  it('a row moved to another client, mode or venue does not decrypt', async () => {
    const storage = Storage.open(tempDir(), { credentialsKey: KEY_HEX });
    const db = storage.db.credentials;
    try {
      await storage.credentials.put('alice', 'live', 'binance', { api_key: 'k', api_secret: 's' });
      const row = db.get(['alice', 'live', 'binance']);
      for (const [client, mode, venue] of [
        ['mallory', 'live', 'binance'],
        ['alice', 'sandbox', 'binance'],
        ['alice', 'live', 'kraken'],
      ] as const) {
        await db.put([client, mode, venue], row);
        assert.throws(() => storage.credentials.get(client, mode, venue), CredentialDecryptError, `${client}/${mode}/${venue}`);
      }
      assert.equal(storage.credentials.get('alice', 'live', 'binance')?.api_secret, 's', 'the original still reads');
    } finally {
      await storage.close();
    }
  });

  it('hands out an object that prints redacted in JSON and inspect', async () => {
    const storage = Storage.open(tempDir(), { credentialsKey: KEY_HEX });
    try {
      await storage.credentials.put('alice', 'live', 'okx', { api_key: 'k', api_secret: 'print-me-not', passphrase: 'pp-not' });
      const creds = storage.credentials.get('alice', 'live', 'okx')!;
      assert.equal(creds.api_secret, 'print-me-not');
      for (const text of [JSON.stringify(creds), JSON.stringify({ nested: { creds } }), inspect(creds), inspect({ creds })]) {
        assert.ok(!text.includes('print-me-not') && !text.includes('pp-not'), text);
      }
      assert.deepEqual(Object.keys(creds), ['api_key', 'api_secret', 'passphrase']);
    } finally {
      await storage.close();
    }
  });

  it('tells stored-listeners after each durable store, without secrets; a throwing listener is contained', async () => {
    const storage = Storage.open(tempDir(), { credentialsKey: KEY_HEX });
    const events: CredentialStoredEvent[] = [];
    try {
      storage.credentials.onStored(() => {
        throw new Error('listener failure');
      });
      const off = storage.credentials.onStored((e) => void events.push(e));
      const result = await storage.credentials.put('bob', 'sandbox', 'bybit', { api_key: 'k', api_secret: 'listener-secret' });
      assert.equal(result.stored, true);
      assert.equal(events.length, 1);
      assert.deepEqual({ ...events[0], stored_at_ms: 0 }, { client_id: 'bob', mode: 'sandbox', venue: 'bybit', stored_at_ms: 0 });
      assert.ok(!JSON.stringify(events).includes('listener-secret'));
      await storage.credentials.put('bob', 'sandbox', 'bybit', { api_key: '', api_secret: '' });
      assert.equal(events.length, 1, 'a rejected input tells no one');
      off();
      await storage.credentials.put('bob', 'sandbox', 'bybit', { api_key: 'k', api_secret: 's' });
      assert.equal(events.length, 1, 'removed listeners are not called');
    } finally {
      await storage.close();
    }
  });

  it('answers a store once the promises its listeners answer have settled; a rejection is contained', async () => {
    const storage = Storage.open(tempDir(), { credentialsKey: KEY_HEX });
    try {
      let opened = false;
      storage.credentials.onStored(() => Promise.reject(new Error('listener rejected')));
      storage.credentials.onStored(() => new Promise<void>((resolve) => setTimeout(() => ((opened = true), resolve()), 30)));
      const result = await storage.credentials.put('carol', 'live', 'okx', { api_key: 'k', api_secret: 's', passphrase: 'p' });
      assert.equal(result.stored, true);
      assert.equal(opened, true, 'the store waited for the listener that opens the account');
    } finally {
      await storage.close();
    }
  });

  it('reopens with the same key; refuses to open under a different key while rows exist', async () => {
    const dir = tempDir();
    const first = Storage.open(dir, { credentialsKey: KEY_HEX });
    await first.credentials.put('alice', 'live', 'hyperliquid', { api_key: `0x${'ab'.repeat(20)}`, api_secret: EVM_KEY });
    await first.close();

    assert.throws(() => Storage.open(dir, { credentialsKey: OTHER_KEY_HEX }), /sealed with another credentials key/);
    // Nor with the generated key file, which is a different key too.
    assert.throws(() => Storage.open(dir), /sealed with another credentials key/);

    const again = Storage.open(dir, { credentialsKey: KEY_HEX });
    try {
      assert.equal(again.credentials.get('alice', 'live', 'hyperliquid')?.api_secret, EVM_KEY);
    } finally {
      await again.close();
    }
  });
});
