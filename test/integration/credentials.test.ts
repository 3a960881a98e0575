/**
 * Venue credentials against the real service: store, list, overwrite, delete; per-venue shape
 * errors as 400 envelopes that change nothing; sandbox/live and account isolation; secrets
 * never in a response body nor in the LMDB files; the generated key file and CREDENTIALS_KEY
 * handling at start-up.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { configFromEnv } from '../../config.ts';
import { VENUES } from '../../domain/market.ts';
import { CREDENTIALS_KEY_FILE } from '../../storage/crypto.ts';
import { OPERATOR_CLIENT_ID } from '../../gateway/rate-limit/tiers.ts';
import { Storage } from '../../storage/index.ts';
import { positions, qtyOf } from '../helpers/recovery.ts';
import {
  call,
  envelope,
  startTestService,
  TEST_JWT_SECRET,
  TEST_OPERATOR_KEY,
  venueCredentials,
  type JsonResponse,
  type TestService,
} from '../helpers/service.ts';

const SIGNER_MESSAGE = 'signer material is required in credentials.extra_json.signer_private_key';

const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const EC_PEM = ec.privateKey.export({ format: 'pem', type: 'sec1' }) as string;
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const RSA_PKCS1 = rsa.privateKey.export({ format: 'pem', type: 'pkcs1' }) as string;
const RSA_PKCS8 = rsa.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
const KALSHI_KEY_ID = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const EVM_SIGNER = '4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const HL_AGENT_KEY = '0x8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63';
const ADDRESS = `0x${'cd34'.repeat(10)}`;

/** Every secret this file submits, to look for in responses and on disk. */
const SECRETS = {
  binanceKey: 'bnKEY0live0aaaaaaaaaaaaaaaaaaaa',
  binanceSecret: 'bnSECRET0live0bbbbbbbbbbbbbbbbb',
  binanceSecret2: 'bnSECRET0rotated0cccccccccccccc',
  okxSecret: 'okxSECRET0dddddddddddddddddddddd',
  okxPassphrase: 'okx-passphrase-eeeeeeeeeeee',
  krakenSandboxSecret: 'krSECRET0sandbox0ffffffffffffff',
  polyL2Secret: 'polyL2SECRET0gggggggggggggggggg',
  polyL2Passphrase: 'polyL2-pass-hhhhhhhhhhhh',
};
/** Lines of the PEM bodies and the hex keys: any of them on disk or in a response is a leak. */
const SECRET_FRAGMENTS = [
  ...Object.values(SECRETS),
  EC_PEM.split('\n')[2]!,
  RSA_PKCS1.split('\n')[3]!,
  RSA_PKCS8.split('\n')[3]!,
  EVM_SIGNER,
  HL_AGENT_KEY.slice(2),
];

async function jwtFor(sub: string): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode(TEST_JWT_SECRET));
}

function lmdbBytes(dataDir: string): Buffer {
  const dir = join(dataDir, 'lmdb');
  return Buffer.concat(readdirSync(dir).map((f) => readFileSync(join(dir, f))));
}

function assertError(res: JsonResponse, status: number, code: string): ReturnType<typeof envelope> {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  const err = envelope(res.body);
  assert.equal(err.code, code);
  return err;
}

describe('venue credentials (real service)', () => {
  let svc: TestService;
  let base: string;
  let alice: string; // JWT, live mode
  let bob: string;
  let aliceSandbox: string; // a sandbox API key of alice
  let aliceLive: string; // a live API key of alice
  /** The text of every response this suite received, to scan for secrets at the end. */
  const seen: string[] = [];

  const api = async <T = any>(method: string, path: string, token: string, body?: unknown): Promise<JsonResponse<T>> => {
    const res = await call<T>(base, method, path, { token, ...(body !== undefined ? { body } : {}) });
    seen.push(JSON.stringify(res.body ?? null));
    return res;
  };
  const store = async (token: string, venue: string, body: unknown): Promise<void> => {
    const res = await api('POST', `/v1/credentials/${venue}`, token, body);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, { venue, status: 'stored' });
  };
  const venues = async (token: string): Promise<string[]> => {
    const res = await api<{ venues: string[]; unsafe: string[] }>('GET', '/v1/credentials', token);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body), ['venues', 'unsafe']);
    // Simulated venues report no permissions: nothing is flagged (test/integration/live-binance.test.ts flags a live key).
    assert.deepEqual(res.body.unsafe, []);
    return res.body.venues;
  };
  const creds = () => svc.service.storage.credentials;

  before(async () => {
    svc = await startTestService({ workers: 1 });
    base = svc.base;
    for (const client_id of ['alice', 'bob']) {
      await svc.service.storage.clients.put({
        client_id,
        tier: 'enterprise',
        rate_limit_qps: 2000,
        is_admin: false,
        created_at_ms: Date.now(),
      });
    }
    alice = await jwtFor('alice');
    bob = await jwtFor('bob');
    const sandboxKey = await call<{ raw_key: string }>(base, 'POST', '/v1/api_keys', { token: alice, body: { sandbox: true } });
    assert.equal(sandboxKey.status, 201);
    aliceSandbox = sandboxKey.body.raw_key;
    const liveKey = await call<{ raw_key: string }>(base, 'POST', '/v1/api_keys', { token: alice, body: {} });
    assert.equal(liveKey.status, 201);
    aliceLive = liveKey.body.raw_key;
  });

  after(async () => {
    await svc?.stop();
  });

  it('starts empty', async () => {
    assert.deepEqual(await venues(alice), []);
  });

  it('stores credentials for several venues and lists them sorted', async () => {
    await store(alice, 'okx', { api_key: 'okx-key', api_secret: SECRETS.okxSecret, passphrase: SECRETS.okxPassphrase });
    await store(alice, 'binance', { api_key: SECRETS.binanceKey, api_secret: SECRETS.binanceSecret });
    await store(alice, 'kalshi', { api_key: KALSHI_KEY_ID, api_secret: RSA_PKCS1 });
    assert.deepEqual(await venues(alice), ['binance', 'kalshi', 'okx']);
    // A live API key of the same account sees the same live rows as its JWT.
    assert.deepEqual(await venues(aliceLive), ['binance', 'kalshi', 'okx']);
    assert.equal(creds().get('alice', 'live', 'kalshi')?.api_secret, RSA_PKCS1);
    assert.equal(creds().get('alice', 'live', 'okx')?.passphrase, SECRETS.okxPassphrase);
  });

  it('accepts every venue kind with well-formed credentials', async () => {
    await store(aliceLive, 'coinbase', { api_key: 'organizations/o1/apiKeys/k1', api_secret: EC_PEM });
    await store(aliceLive, 'kalshi', { api_key: KALSHI_KEY_ID, api_secret: RSA_PKCS8 });
    await store(aliceLive, 'polymarket', { api_key: '', api_secret: '', extra_json: { signer_private_key: EVM_SIGNER, proxy_address: ADDRESS } });
    await store(aliceLive, 'hyperliquid', { api_key: ADDRESS, api_secret: HL_AGENT_KEY, passphrase: ADDRESS });
    await store(aliceLive, 'kucoin', { api_key: 'kc', api_secret: 'kc-secret', passphrase: 'kc-pass', extra_json: null });
    await store(aliceLive, 'bitstamp', { api_key: 'bs', api_secret: 'bs-secret', passphrase: null });
    assert.deepEqual(await venues(alice), ['binance', 'bitstamp', 'coinbase', 'hyperliquid', 'kalshi', 'kucoin', 'okx', 'polymarket']);
    assert.equal(creds().get('alice', 'live', 'kalshi')?.api_secret, RSA_PKCS8, 'the second POST replaced the PKCS#1 row');
    assert.equal(creds().get('alice', 'live', 'polymarket')?.extra_json?.['signer_private_key'], EVM_SIGNER);
    assert.equal(creds().get('alice', 'live', 'bitstamp')?.passphrase, undefined, 'a null passphrase is stored as absent');
  });

  it('overwrites an existing row (200 again, same listing, new secret)', async () => {
    const before = await venues(alice);
    await store(alice, 'binance', { api_key: SECRETS.binanceKey, api_secret: SECRETS.binanceSecret2 });
    assert.deepEqual(await venues(alice), before);
    assert.equal(creds().get('alice', 'live', 'binance')?.api_secret, SECRETS.binanceSecret2);
  });

  it('polymarket: api_key without signer material answers 400 with the spec message', async () => {
    const res = await api('POST', '/v1/credentials/polymarket', bob, {
      api_key: KALSHI_KEY_ID,
      api_secret: SECRETS.polyL2Secret,
      passphrase: SECRETS.polyL2Passphrase,
    });
    const err = assertError(res, 400, 'VALIDATION_ERROR');
    assert.equal(err.message, SIGNER_MESSAGE);
    assert.deepEqual(err.details, [{ field: 'extra_json.signer_private_key', message: SIGNER_MESSAGE }]);
    assert.deepEqual(await venues(bob), []);
    // With the signer key the same L2 credentials are stored.
    await store(bob, 'polymarket', {
      api_key: KALSHI_KEY_ID,
      api_secret: SECRETS.polyL2Secret,
      passphrase: SECRETS.polyL2Passphrase,
      extra_json: { signer_private_key: `0x${EVM_SIGNER}` },
    });
    assert.deepEqual(await venues(bob), ['polymarket']);
  });

  it('answers every bad input with a 4xx envelope naming the field, and changes nothing', async () => {
    const cases: [string, unknown, string][] = [
      ['binance', { api_key: '', api_secret: 'x' }, 'api_key'],
      ['binance', { api_key: 'k', api_secret: 'has space' }, 'api_secret'],
      ['binance', { api_key: 'k' }, 'api_secret'],
      ['binance', { api_key: 'k', api_secret: 's', unknown: 1 }, 'unknown'],
      ['binance', { api_key: 7, api_secret: 's' }, 'api_key'],
      ['binance', { api_key: 'k', api_secret: 's', extra_json: [1] }, 'extra_json'],
      ['binance', { api_key: 'k', api_secret: 's', extra_json: { blob: 'x'.repeat(17_000) } }, 'extra_json'],
      ['binance', { api_key: 'k'.repeat(600), api_secret: 's' }, 'api_key'],
      ['okx', { api_key: 'k', api_secret: SECRETS.okxSecret }, 'passphrase'],
      ['kucoin', { api_key: 'k', api_secret: 's', passphrase: '' }, 'passphrase'],
      ['coinbase', { api_key: 'k', api_secret: RSA_PKCS8 }, 'api_secret'],
      ['coinbase', { api_key: 'k', api_secret: 'not a pem' }, 'api_secret'],
      ['coinbase', { api_key: 'k', api_secret: 'A'.repeat(9000) }, 'api_secret'],
      ['kalshi', { api_key: 'not-a-uuid', api_secret: RSA_PKCS1 }, 'api_key'],
      ['kalshi', { api_key: KALSHI_KEY_ID, api_secret: EC_PEM }, 'api_secret'],
      ['kalshi', { api_key: KALSHI_KEY_ID, api_secret: SECRETS.binanceSecret }, 'api_secret'],
      ['polymarket', { api_key: '', api_secret: '', extra_json: { signer_private_key: '0x1234' } }, 'extra_json.signer_private_key'],
      ['polymarket', { api_key: '', api_secret: '', extra_json: { signer_private_key: EVM_SIGNER, builder: 'nope' } }, 'extra_json.builder'],
      ['polymarket', { api_key: '', api_secret: '' }, 'extra_json.signer_private_key'],
      ['hyperliquid', { api_key: 'abc', api_secret: HL_AGENT_KEY }, 'api_key'],
      ['hyperliquid', { api_key: ADDRESS, api_secret: '0'.repeat(64) }, 'api_secret'],
      ['hyperliquid', { api_key: ADDRESS, api_secret: HL_AGENT_KEY, passphrase: 'vault' }, 'passphrase'],
      ['ftx', { api_key: 'k', api_secret: 's' }, 'venue'],
      ['BINANCE', { api_key: 'k', api_secret: 's' }, 'venue'],
    ];
    const venuesBefore = await venues(alice);
    const binanceBefore = { ...creds().get('alice', 'live', 'binance') };
    for (const [venue, body, field] of cases) {
      const res = await api('POST', `/v1/credentials/${venue}`, alice, body);
      const err = assertError(res, 400, 'VALIDATION_ERROR');
      assert.ok(
        err.details.some((d) => d.field === field),
        `${venue} ${JSON.stringify(body).slice(0, 60)}: expected ${field} in ${JSON.stringify(err.details)}`,
      );
    }
    // Not JSON, and no body at all.
    const malformed = await call(base, 'POST', '/v1/credentials/binance', {
      token: alice,
      rawBody: '{"api_key": "k", "api_secret": ',
      headers: { 'content-type': 'application/json' },
    });
    assertError(malformed, 400, 'VALIDATION_ERROR');
    assertError(await api('POST', '/v1/credentials/binance', alice), 400, 'VALIDATION_ERROR');
    // Unauthenticated callers are refused before anything else.
    assertError(await call(base, 'POST', '/v1/credentials/binance', { body: { api_key: 'k', api_secret: 's' } }), 401, 'UNAUTHENTICATED');
    assertError(await call(base, 'GET', '/v1/credentials'), 401, 'UNAUTHENTICATED');

    assert.deepEqual(await venues(alice), venuesBefore, 'no venue appeared or vanished');
    assert.deepEqual({ ...creds().get('alice', 'live', 'binance') }, binanceBefore, 'the stored row is untouched');
  });

  it('DELETE removes a row; a second DELETE is 404; a bad venue is 400', async () => {
    const res = await api('DELETE', '/v1/credentials/okx', alice);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, { venue: 'okx', deleted: true });
    assert.ok(!(await venues(alice)).includes('okx'));
    assert.equal(creds().get('alice', 'live', 'okx'), undefined);
    const again = assertError(await api('DELETE', '/v1/credentials/okx', alice), 404, 'NOT_FOUND');
    assert.match(again.message, /okx/);
    assertError(await api('DELETE', '/v1/credentials/kraken', bob), 404, 'NOT_FOUND');
    const bad = assertError(await api('DELETE', '/v1/credentials/mtgox', alice), 400, 'VALIDATION_ERROR');
    assert.deepEqual(bad.details.map((d) => d.field), ['venue']);
    assertError(await api('GET', '/v1/credentials/binance', alice), 405, 'METHOD_NOT_ALLOWED');
  });

  it('keeps sandbox and live apart: a sandbox key sees and changes only sandbox credentials', async () => {
    const liveBefore = await venues(alice);
    assert.ok(liveBefore.includes('binance'));
    assert.deepEqual(await venues(aliceSandbox), [], 'no live row leaks into sandbox');

    await store(aliceSandbox, 'kraken', { api_key: 'kr', api_secret: SECRETS.krakenSandboxSecret });
    await store(aliceSandbox, 'binance', { api_key: 'bn-sb', api_secret: 'bn-sandbox-secret' });
    assert.deepEqual(await venues(aliceSandbox), ['binance', 'kraken']);
    assert.deepEqual(await venues(alice), liveBefore, 'the live side is unchanged');
    assert.equal(creds().get('alice', 'sandbox', 'binance')?.api_secret, 'bn-sandbox-secret');
    assert.equal(creds().get('alice', 'live', 'binance')?.api_secret, SECRETS.binanceSecret2, 'same venue, other mode: untouched');
    assert.equal(creds().get('alice', 'live', 'kraken'), undefined);

    // A sandbox key cannot delete a live-only row, and deleting its own leaves live alone.
    assertError(await api('DELETE', '/v1/credentials/kalshi', aliceSandbox), 404, 'NOT_FOUND');
    assert.equal((await api('DELETE', '/v1/credentials/binance', aliceSandbox)).status, 200);
    assert.deepEqual(await venues(aliceSandbox), ['kraken']);
    assert.deepEqual(await venues(alice), liveBefore);
  });

  it('isolates accounts', async () => {
    assert.deepEqual(await venues(bob), ['polymarket']);
    assert.equal(creds().get('bob', 'live', 'binance'), undefined);
    // Both hold polymarket rows; each reads its own.
    assert.equal(creds().get('alice', 'live', 'polymarket')?.api_key, '');
    assert.equal(creds().get('bob', 'live', 'polymarket')?.api_key, KALSHI_KEY_ID);
    assertError(await api('DELETE', '/v1/credentials/coinbase', bob), 404, 'NOT_FOUND');
    assert.ok((await venues(alice)).includes('coinbase'), "bob's attempt left alice's row alone");
  });

  it('tells stored-listeners after a POST, with no secret in the event', async () => {
    const events: unknown[] = [];
    const off = creds().onStored((e) => void events.push(e));
    try {
      await store(alice, 'bybit', { api_key: 'by', api_secret: 'bybit-listener-secret' });
      assert.equal(events.length, 1);
      assert.deepEqual(Object.keys(events[0] as object).sort(), ['client_id', 'mode', 'stored_at_ms', 'venue']);
      assert.ok(!JSON.stringify(events).includes('bybit-listener-secret'));
    } finally {
      off();
    }
  });

  it('never returns a secret in any response body', () => {
    const all = seen.join('\n');
    assert.ok(seen.length > 40, `${seen.length} responses seen`);
    for (const secret of SECRET_FRAGMENTS) assert.equal(all.indexOf(secret), -1, `${secret.slice(0, 12)}... in a response`);
  });

  it('keeps every secret out of the LMDB files', () => {
    const bytes = lmdbBytes(svc.dataDir);
    for (const secret of SECRET_FRAGMENTS) assert.equal(bytes.indexOf(secret), -1, `${secret.slice(0, 12)}... found in LMDB`);
    // Positive control: the sealed rows name their key.
    assert.notEqual(bytes.indexOf(creds().keyId), -1);
  });

  it('lists the routes in the OpenAPI document with the venue enum', async () => {
    const doc = (await call<{ paths: Record<string, Record<string, { parameters?: { name: string; schema: { enum?: string[] } }[] }>> }>(
      base,
      'GET',
      '/v1/openapi.json',
    )).body;
    assert.ok(doc.paths['/v1/credentials']?.['get']);
    const post = doc.paths['/v1/credentials/{venue}']?.['post'];
    assert.deepEqual(post?.parameters?.find((p) => p.name === 'venue')?.schema.enum, [...VENUES]);
    assert.ok(doc.paths['/v1/credentials/{venue}']?.['delete']);
  });
});

describe('credentials key at start-up (real service)', () => {
  const dirs: string[] = [];
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'seq-cred-start-'));
    dirs.push(dir);
    return dir;
  };

  it('generates DATA_DIR/credentials.key (mode 0600) when CREDENTIALS_KEY is unset, and reuses it after a restart', async () => {
    const dataDir = tempDir();
    let svc = await startTestService({ workers: 1, dataDir });
    const path = join(dataDir, CREDENTIALS_KEY_FILE);
    let keyText: string;
    try {
      assert.equal(statSync(path).mode & 0o777, 0o600);
      keyText = readFileSync(path, 'utf8');
      assert.match(keyText, /^[0-9a-f]{64}\n$/);
      const jwt = await jwtFor('carol');
      const res = await call(svc.base, 'POST', '/v1/credentials/bybit', { token: jwt, body: { api_key: 'k', api_secret: 'restart-secret' } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    } finally {
      await svc.stop(false);
    }
    svc = await startTestService({ workers: 1, dataDir });
    try {
      assert.equal(readFileSync(path, 'utf8'), keyText, 'the key file is reused, not replaced');
      assert.equal(svc.service.storage.credentials.get('carol', 'live', 'bybit')?.api_secret, 'restart-secret');
      const listed = await call<{ venues: string[] }>(svc.base, 'GET', '/v1/credentials', { token: await jwtFor('carol') });
      assert.deepEqual(listed.body.venues, ['bybit']);
    } finally {
      await svc.stop(false);
    }
  });

  it('uses CREDENTIALS_KEY without writing a key file, and refuses to start under another key', async () => {
    const dataDir = tempDir();
    const key = '7a'.repeat(32);
    const svc = await startTestService({ workers: 1, dataDir, credentialsKey: key });
    try {
      assert.throws(() => statSync(join(dataDir, CREDENTIALS_KEY_FILE)), /ENOENT/);
      await svc.service.storage.credentials.put('dave', 'live', 'kraken', { api_key: 'k', api_secret: 's' });
    } finally {
      await svc.stop(false);
    }
    await assert.rejects(startTestService({ workers: 1, dataDir, credentialsKey: '8b'.repeat(32) }), /sealed with another credentials key/);
  });

  it("answers the POST once the simulated account is open; an account a crash cut off opens at the router's next start", async () => {
    const dataDir = tempDir();
    const key = '5c'.repeat(32);
    const op = { token: TEST_OPERATOR_KEY };
    let svc = await startTestService({ workers: 1, dataDir, credentialsKey: key });
    try {
      assert.equal((await call(svc.base, 'POST', '/v1/credentials/okx', { ...op, body: venueCredentials('okx') })).status, 200);
      // No wait: the 200 means the account is there.
      assert.equal(qtyOf(await positions(svc.base, TEST_OPERATOR_KEY), 'okx', 'BTC'), 100_000_000n);
    } finally {
      await svc.stop(false);
    }
    // A row stored with no router told of it: what a SIGKILL between the two durable writes leaves.
    const storage = Storage.open(dataDir, { credentialsKey: key });
    await storage.credentials.put(OPERATOR_CLIENT_ID, 'live', 'kraken', { api_key: 'k', api_secret: 'kraken-secret' });
    await storage.close();
    svc = await startTestService({ workers: 1, dataDir, credentialsKey: key });
    try {
      const rows = await positions(svc.base, TEST_OPERATOR_KEY);
      assert.equal(qtyOf(rows, 'okx', 'BTC'), 100_000_000n, 'an opened account is left alone');
      assert.equal(qtyOf(rows, 'kraken', 'BTC'), 100_000_000n, 'the cut-off account opened at start');
    } finally {
      await svc.stop(false);
    }
  });

  it('refuses to start with an invalid CREDENTIALS_KEY, without echoing it', async () => {
    for (const bad of ['not-hex', 'ab'.repeat(16), 'zz'.repeat(32)]) {
      await assert.rejects(
        startTestService({ workers: 1, dataDir: tempDir(), credentialsKey: bad }),
        (err: Error) => /CREDENTIALS_KEY must be 64 hexadecimal characters/.test(err.message) && !err.message.includes(bad),
      );
      assert.throws(() => configFromEnv({ CREDENTIALS_KEY: bad }), /CREDENTIALS_KEY must be 64 hexadecimal characters/);
    }
    assert.equal(configFromEnv({ CREDENTIALS_KEY: 'ab'.repeat(32) }).credentialsKey, 'ab'.repeat(32));
    assert.equal(configFromEnv({}).credentialsKey, undefined);
  });
});
