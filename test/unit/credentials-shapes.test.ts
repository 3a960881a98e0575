/**
 * The per-venue credential shape rules (storage/credential-shapes.ts): for each venue kind the
 * inputs that pass and, for each rule, an input that fails on exactly the named field.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { VENUES, type VenueId } from '../../domain/market.ts';
import {
  checkCredentials,
  CREDENTIAL_KINDS,
  isEvmPrivateKey,
  MAX_EXTRA_JSON_BYTES,
  SIGNER_REQUIRED_MESSAGE,
  type VenueCredentials,
} from '../../storage/credential-shapes.ts';

const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const EC_SEC1 = ec.privateKey.export({ format: 'pem', type: 'sec1' }) as string;
const EC_PKCS8 = ec.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
const EC_ENCRYPTED = ec.privateKey.export({ format: 'pem', type: 'pkcs8', cipher: 'aes-256-cbc', passphrase: 'pem-pass' }) as string;
const EC_K1 = generateKeyPairSync('ec', { namedCurve: 'secp256k1' }).privateKey.export({ format: 'pem', type: 'sec1' }) as string;
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const RSA_PKCS1 = rsa.privateKey.export({ format: 'pem', type: 'pkcs1' }) as string;
const RSA_PKCS8 = rsa.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
const RSA_PUBLIC = rsa.publicKey.export({ format: 'pem', type: 'spki' }) as string;
const RSA_1024 = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
const ED25519 = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;

const UUID = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const ADDRESS = `0x${'ab12'.repeat(10)}`;
const EVM_KEY = '4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const SECP256K1_N = 'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141';

/** Fields with problems, in order. */
function fields(venue: VenueId, input: VenueCredentials): string[] {
  return checkCredentials(venue, input).map((e) => e.field);
}

function assertValid(venue: VenueId, input: VenueCredentials): void {
  assert.deepEqual(checkCredentials(venue, input), [], `${venue}: ${JSON.stringify(input).slice(0, 80)}`);
}

function assertInvalid(venue: VenueId, input: VenueCredentials, field: string, message?: RegExp): void {
  const errors = checkCredentials(venue, input);
  const hit = errors.find((e) => e.field === field);
  assert.ok(hit, `${venue}: expected a problem with ${field}, got ${JSON.stringify(errors)}`);
  if (message) assert.match(hit.message, message);
}

describe('credential shapes', () => {
  it('cover every venue id', () => {
    assert.deepEqual(Object.keys(CREDENTIAL_KINDS).sort(), [...VENUES].sort());
  });

  describe('plain spot exchanges (binance, kraken, bybit, bitstamp)', () => {
    for (const venue of ['binance', 'kraken', 'bybit', 'bitstamp'] as const) {
      it(`${venue}: api_key and api_secret required, passphrase optional`, () => {
        assertValid(venue, { api_key: 'AbC123', api_secret: 'zzTopSecret+/=' });
        assertValid(venue, { api_key: 'k', api_secret: 's', passphrase: 'optional pass', extra_json: { subaccount: 'x' } });
        assert.deepEqual(fields(venue, { api_key: '', api_secret: '' }), ['api_key', 'api_secret']);
        assertInvalid(venue, { api_key: 'k', api_secret: 'has space' }, 'api_secret', /without spaces/);
        assertInvalid(venue, { api_key: 'k\n', api_secret: 's' }, 'api_key', /line breaks/);
        assertInvalid(venue, { api_key: 'k'.repeat(513), api_secret: 's' }, 'api_key', /at most 512/);
        assertInvalid(venue, { api_key: 'k', api_secret: 's'.repeat(513) }, 'api_secret', /at most 512/);
        assertInvalid(venue, { api_key: 'k', api_secret: 's', passphrase: 'a\u0000b' }, 'passphrase', /control/);
      });
    }
  });

  describe('passphrase exchanges (okx, kucoin)', () => {
    for (const venue of ['okx', 'kucoin'] as const) {
      it(`${venue}: passphrase required`, () => {
        assertValid(venue, { api_key: 'k', api_secret: 's', passphrase: 'P@ss phrase' });
        assertInvalid(venue, { api_key: 'k', api_secret: 's' }, 'passphrase', new RegExp(`required for ${venue}`));
        assertInvalid(venue, { api_key: 'k', api_secret: 's', passphrase: '' }, 'passphrase', /required/);
        assertInvalid(venue, { api_key: 'k', api_secret: 's', passphrase: 'p'.repeat(513) }, 'passphrase', /at most 512/);
        assertInvalid(venue, { api_key: '', api_secret: 's', passphrase: 'p' }, 'api_key', /required/);
      });
    }
  });

  describe('coinbase (EC key)', () => {
    it('accepts a P-256 private key as SEC1 or PKCS#8 PEM, passphrase optional', () => {
      assertValid('coinbase', { api_key: 'organizations/o/apiKeys/k', api_secret: EC_SEC1 });
      assertValid('coinbase', { api_key: 'key-id', api_secret: EC_PKCS8, passphrase: 'legacy' });
      assertValid('coinbase', { api_key: 'key-id', api_secret: `\n${EC_SEC1}\n` });
    });

    it('accepts an encrypted PKCS#8 PEM with its passphrase, not without', () => {
      assertValid('coinbase', { api_key: 'key-id', api_secret: EC_ENCRYPTED, passphrase: 'pem-pass' });
      assertInvalid('coinbase', { api_key: 'key-id', api_secret: EC_ENCRYPTED }, 'api_secret', /cannot be decrypted/);
      assertInvalid('coinbase', { api_key: 'key-id', api_secret: EC_ENCRYPTED, passphrase: 'wrong' }, 'api_secret', /cannot be decrypted/);
    });

    it('rejects non-EC keys, other curves, public keys, junk and broken PEMs', () => {
      assertInvalid('coinbase', { api_key: 'key-id', api_secret: RSA_PKCS8 }, 'api_secret', /must be an EC private key, not rsa/);
      assertInvalid('coinbase', { api_key: 'key-id', api_secret: RSA_PKCS1 }, 'api_secret', /of type/);
      assertInvalid('coinbase', { api_key: 'key-id', api_secret: EC_K1 }, 'api_secret', /P-256/);
      assertInvalid('coinbase', { api_key: 'key-id', api_secret: RSA_PUBLIC }, 'api_secret', /not PUBLIC KEY/);
      assertInvalid('coinbase', { api_key: 'key-id', api_secret: 'not a pem' }, 'api_secret', /one complete PEM block/);
      assertInvalid('coinbase', { api_key: 'key-id', api_secret: `junk\n${EC_SEC1}` }, 'api_secret', /one complete PEM block/);
      assertInvalid('coinbase', { api_key: 'key-id', api_secret: EC_SEC1.replace(/\n/g, '\\n') }, 'api_secret', /literal \\n/);
      const corrupted = EC_SEC1.replace(/\n[A-Za-z0-9+/]{10}/, '\nAAAAAAAAAA');
      assertInvalid('coinbase', { api_key: 'key-id', api_secret: corrupted }, 'api_secret', /does not parse/);
      assertInvalid('coinbase', { api_key: 'key-id', api_secret: '' }, 'api_secret', /required/);
      assertInvalid('coinbase', { api_key: '', api_secret: EC_SEC1 }, 'api_key', /required/);
      const huge = `-----BEGIN EC PRIVATE KEY-----\n${'A'.repeat(9000)}\n-----END EC PRIVATE KEY-----`;
      assertInvalid('coinbase', { api_key: 'key-id', api_secret: huge }, 'api_secret', /at most 8192 bytes/);
    });
  });

  describe('kalshi (ticker-style)', () => {
    it('accepts a UUID key id and an RSA PEM in PKCS#1 or PKCS#8', () => {
      assertValid('kalshi', { api_key: UUID, api_secret: RSA_PKCS1 });
      assertValid('kalshi', { api_key: UUID.toUpperCase(), api_secret: RSA_PKCS8 });
    });

    it('rejects a non-UUID key id, non-RSA or short keys, public keys and passphrases', () => {
      assertInvalid('kalshi', { api_key: 'not-a-uuid', api_secret: RSA_PKCS1 }, 'api_key', /UUID/);
      assertInvalid('kalshi', { api_key: `${UUID}0`, api_secret: RSA_PKCS1 }, 'api_key', /UUID/);
      assertInvalid('kalshi', { api_key: UUID, api_secret: EC_PKCS8 }, 'api_secret', /must be an RSA private key, not ec/);
      assertInvalid('kalshi', { api_key: UUID, api_secret: ED25519 }, 'api_secret', /not ed25519/);
      assertInvalid('kalshi', { api_key: UUID, api_secret: EC_SEC1 }, 'api_secret', /of type RSA PRIVATE KEY or PRIVATE KEY/);
      assertInvalid('kalshi', { api_key: UUID, api_secret: RSA_1024 }, 'api_secret', /at least 2048 bits/);
      assertInvalid('kalshi', { api_key: UUID, api_secret: RSA_PUBLIC }, 'api_secret', /not PUBLIC KEY/);
      assertInvalid('kalshi', { api_key: UUID, api_secret: 'secret' }, 'api_secret', /PEM/);
      assertInvalid('kalshi', { api_key: UUID, api_secret: RSA_PKCS8, passphrase: 'x' }, 'passphrase', /not used by kalshi/);
    });
  });

  describe('polymarket (token-style)', () => {
    it('accepts a signer key alone, with proxy and builder, or with complete L2 credentials', () => {
      assertValid('polymarket', { api_key: '', api_secret: '', extra_json: { signer_private_key: EVM_KEY } });
      assertValid('polymarket', {
        api_key: '',
        api_secret: '',
        extra_json: { signer_private_key: `0x${EVM_KEY.toUpperCase()}`, proxy_address: ADDRESS, builder: ADDRESS },
      });
      assertValid('polymarket', {
        api_key: UUID,
        api_secret: 'base64url-secret_AAA=',
        passphrase: 'l2-passphrase',
        extra_json: { signer_private_key: EVM_KEY },
      });
    });

    it('non-empty api_key or api_secret without a signer fails with the spec message', () => {
      for (const input of [
        { api_key: UUID, api_secret: '' },
        { api_key: '', api_secret: 'secret' },
        { api_key: UUID, api_secret: 'secret', passphrase: 'p' },
        { api_key: UUID, api_secret: 'secret', passphrase: 'p', extra_json: { proxy_address: ADDRESS } },
      ]) {
        const errors = checkCredentials('polymarket', input);
        const signer = errors.find((e) => e.field === 'extra_json.signer_private_key');
        assert.equal(signer?.message, SIGNER_REQUIRED_MESSAGE, JSON.stringify(errors));
      }
      assert.equal(SIGNER_REQUIRED_MESSAGE, 'signer material is required in credentials.extra_json.signer_private_key');
    });

    it('a missing signer fails the same way with empty api_key and api_secret', () => {
      for (const extra of [undefined, {}, { signer_private_key: '' }, { signer_private_key: null }]) {
        const errors = checkCredentials('polymarket', { api_key: '', api_secret: '', ...(extra ? { extra_json: extra } : {}) });
        assert.deepEqual(errors, [{ field: 'extra_json.signer_private_key', message: SIGNER_REQUIRED_MESSAGE }]);
      }
    });

    it('rejects malformed signer keys, addresses, unknown extra fields and incomplete L2 credentials', () => {
      const signer = (value: unknown) => ({ api_key: '', api_secret: '', extra_json: { signer_private_key: value } });
      for (const bad of ['0x1234', 'zz'.repeat(32), '0'.repeat(64), SECP256K1_N, 'f'.repeat(64), 42, `0x0x${EVM_KEY.slice(2)}`]) {
        assertInvalid('polymarket', signer(bad), 'extra_json.signer_private_key', /hex EVM private key/);
      }
      const extra = (more: Record<string, unknown>) => ({ api_key: '', api_secret: '', extra_json: { signer_private_key: EVM_KEY, ...more } });
      assertInvalid('polymarket', extra({ proxy_address: '0x1234' }), 'extra_json.proxy_address', /0x and 40 hex/);
      assertInvalid('polymarket', extra({ builder: ADDRESS.slice(2) }), 'extra_json.builder', /0x and 40 hex/);
      assertInvalid('polymarket', extra({ funder: ADDRESS }), 'extra_json.funder', /not a known field/);
      assertInvalid('polymarket', { ...extra({}), api_key: UUID, api_secret: '' }, 'api_secret', /together with api_key/);
      assertInvalid('polymarket', { ...extra({}), api_key: UUID, api_secret: 's' }, 'passphrase', /required with L2/);
      assertInvalid('polymarket', { ...extra({}), passphrase: 'p' }, 'passphrase', /only with L2/);
    });
  });

  describe('hyperliquid (perpetuals)', () => {
    it('accepts an agent address and key, optionally a vault address', () => {
      assertValid('hyperliquid', { api_key: ADDRESS, api_secret: EVM_KEY });
      assertValid('hyperliquid', { api_key: ADDRESS.toUpperCase().replace('0X', '0x'), api_secret: `0x${EVM_KEY}`, passphrase: ADDRESS });
    });

    it('rejects malformed addresses and keys', () => {
      assertInvalid('hyperliquid', { api_key: 'abc', api_secret: EVM_KEY }, 'api_key', /agent wallet address/);
      assertInvalid('hyperliquid', { api_key: ADDRESS.slice(2), api_secret: EVM_KEY }, 'api_key', /agent wallet address/);
      assertInvalid('hyperliquid', { api_key: ADDRESS, api_secret: EVM_KEY.slice(1) }, 'api_secret', /private key/);
      assertInvalid('hyperliquid', { api_key: ADDRESS, api_secret: '0'.repeat(64) }, 'api_secret', /valid secp256k1/);
      assertInvalid('hyperliquid', { api_key: ADDRESS, api_secret: SECP256K1_N }, 'api_secret', /valid secp256k1/);
      assertInvalid('hyperliquid', { api_key: ADDRESS, api_secret: EVM_KEY, passphrase: 'vault' }, 'passphrase', /vault address/);
    });
  });

  it('bounds extra_json to 16 KiB of JSON on every venue', () => {
    const big = { blob: 'x'.repeat(MAX_EXTRA_JSON_BYTES) };
    for (const venue of VENUES) {
      assertInvalid(venue, { api_key: '', api_secret: '', extra_json: big }, 'extra_json', /at most 16384 bytes/);
    }
  });

  it('secp256k1 scalar range: 1 and n - 1 pass, 0 and n fail', () => {
    assert.equal(isEvmPrivateKey(`${'0'.repeat(63)}1`), true);
    assert.equal(isEvmPrivateKey('fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140'), true);
    assert.equal(isEvmPrivateKey('0'.repeat(64)), false);
    assert.equal(isEvmPrivateKey(SECP256K1_N), false);
  });

  it('messages never echo the submitted values', () => {
    const secret = 'S3cr3tValueThatMustNotLeak';
    const inputs: [VenueId, VenueCredentials][] = [
      ['binance', { api_key: `${secret} x`, api_secret: `${secret} y` }],
      ['coinbase', { api_key: secret, api_secret: `-----BEGIN EC PRIVATE KEY-----\n${secret}\n-----END EC PRIVATE KEY-----` }],
      ['kalshi', { api_key: secret, api_secret: secret }],
      ['polymarket', { api_key: secret, api_secret: secret, extra_json: { signer_private_key: secret, builder: secret } }],
      ['hyperliquid', { api_key: secret, api_secret: secret, passphrase: secret }],
    ];
    for (const [venue, input] of inputs) {
      const errors = checkCredentials(venue, input);
      assert.ok(errors.length > 0);
      assert.ok(!JSON.stringify(errors).includes(secret), `${venue}: ${JSON.stringify(errors)}`);
    }
  });
});
