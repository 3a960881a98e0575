/**
 * Authentication against the real service: operator key, HS256 and JWKS (ES256) JWTs with
 * issuer/audience checks, provisioning on first sight, the generated operator key across
 * restarts, and the admin CLI.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { sha256Hex } from '../../storage/random.ts';
import { adminArgs } from '../helpers/bundle.ts';
import {
  call,
  envelope,
  startTestService,
  TEST_JWT_SECRET,
  TEST_OPERATOR_KEY,
  type JsonResponse,
  type TestService,
} from '../helpers/service.ts';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ISSUER = 'https://idp.test.example';
const AUDIENCE = 'sequence-markets-api';

function assertUnauthenticated(res: JsonResponse): void {
  assert.equal(res.status, 401, JSON.stringify(res.body));
  assert.equal(envelope(res.body).code, 'UNAUTHENTICATED');
}

async function hs256(claims: JWTPayload, options: { secret?: string; exp?: number | string } = {}): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(options.exp ?? '10m')
    .sign(new TextEncoder().encode(options.secret ?? TEST_JWT_SECRET));
}

async function es256(claims: JWTPayload, key: CryptoKey, kid: string): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(key);
}

function lmdbBytes(dataDir: string): Buffer {
  const dir = join(dataDir, 'lmdb');
  return Buffer.concat(readdirSync(dir).map((f) => readFileSync(join(dir, f))));
}

describe('authentication (real service with HS256 + JWKS, issuer and audience)', () => {
  let svc: TestService;
  let base: string;
  let jwksDir: string;
  let idpKey: CryptoKey;
  let strangerKey: CryptoKey;
  const good = { iss: ISSUER, aud: AUDIENCE };

  before(async () => {
    jwksDir = mkdtempSync(join(tmpdir(), 'seq-jwks-'));
    const pair = await generateKeyPair('ES256');
    idpKey = pair.privateKey;
    strangerKey = (await generateKeyPair('ES256')).privateKey;
    const jwk = await exportJWK(pair.publicKey);
    const jwksFile = join(jwksDir, 'jwks.json');
    writeFileSync(jwksFile, JSON.stringify({ keys: [{ ...jwk, kid: 'idp-1', alg: 'ES256', use: 'sig' }] }));
    svc = await startTestService({
      workers: 1,
      auth: { jwksFile, jwtIssuer: ISSUER, jwtAudience: AUDIENCE },
    });
    base = svc.base;
  });

  after(async () => {
    await svc?.stop();
    if (jwksDir) rmSync(jwksDir, { recursive: true, force: true });
  });

  it('accepts the operator key on admin routes', async () => {
    const res = await call<{ status: string }>(base, 'PUT', '/v1/kill_switch', {
      token: TEST_OPERATOR_KEY,
      body: { active: false },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.status, 'inactive');
    assert.equal((await call(base, 'GET', '/v1/api_keys', { token: TEST_OPERATOR_KEY })).status, 200);
    // A near miss of the operator key is not the operator.
    assertUnauthenticated(await call(base, 'GET', '/v1/api_keys', { token: `${TEST_OPERATOR_KEY}x` }));
  });

  it('provisions an unknown JWT subject at tier free (5 qps) on first sight', async () => {
    const sub = 'carol@example.com';
    assert.equal(svc.service.storage.clients.get(sub), undefined, 'not provisioned before');
    const token = await hs256({ sub, ...good });
    const res = await call(base, 'GET', '/v1/api_keys', { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, []);
    const profile = svc.service.storage.clients.get(sub);
    assert.ok(profile, 'provisioned');
    assert.equal(profile.tier, 'free');
    assert.equal(profile.rate_limit_qps, 5);
    assert.equal(profile.is_admin, false);
    // A provisioned JWT client is not an admin.
    const ks = await call(base, 'PUT', '/v1/kill_switch', { token, body: { active: true } });
    assert.equal(ks.status, 403);
    assert.equal(envelope(ks.body).code, 'FORBIDDEN');
  });

  it('rejects a wrong signature, an expired token and malformed tokens with 401', async () => {
    const wrongSig = await hs256({ sub: 'mallory', ...good }, { secret: 'another-secret-of-enough-length-0123456789' });
    assertUnauthenticated(await call(base, 'GET', '/v1/api_keys', { token: wrongSig }));
    assert.equal(svc.service.storage.clients.get('mallory'), undefined, 'a rejected token provisions nobody');

    const expired = await hs256({ sub: 'dave', ...good }, { exp: Math.floor(Date.now() / 1000) - 120 });
    assertUnauthenticated(await call(base, 'GET', '/v1/api_keys', { token: expired }));

    // A tampered payload with the original signature.
    const valid = await hs256({ sub: 'erin', ...good });
    const [h, , s] = valid.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ sub: 'operator2', ...good, exp: 9_999_999_999 })).toString('base64url')}.${s}`;
    assertUnauthenticated(await call(base, 'GET', '/v1/api_keys', { token: forged }));

    for (const malformed of ['aaa.bbb.ccc', 'eyJhbGciOiJIUzI1NiJ9.not-json.sig', 'a.b', '..', 'x.y.z.w']) {
      assertUnauthenticated(await call(base, 'GET', '/v1/api_keys', { token: malformed }));
    }
    // alg none is never accepted.
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(
      JSON.stringify({ sub: 'nobody', ...good }),
    ).toString('base64url')}.`;
    assertUnauthenticated(await call(base, 'GET', '/v1/api_keys', { token: none }));
  });

  it('refuses a JWT that never expires or lives longer than the configured maximum (24 h by default)', async () => {
    const sub = 'frank';
    const noExp = await new SignJWT({ sub, ...good }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt().sign(new TextEncoder().encode(TEST_JWT_SECRET));
    const res = await call(base, 'GET', '/v1/api_keys', { token: noExp });
    assertUnauthenticated(res);
    assert.match(envelope(res.body).message, /exp/);
    // exp of 1e12 (the year 33658) and a token issued long ago that is still valid for a day and a half.
    assertUnauthenticated(await call(base, 'GET', '/v1/api_keys', { token: await hs256({ sub, ...good }, { exp: 1e12 }) }));
    const nowS = Math.floor(Date.now() / 1000);
    const longLived = await new SignJWT({ sub, ...good })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(nowS - 10 * 86_400)
      .setExpirationTime(nowS + 3600)
      .sign(new TextEncoder().encode(TEST_JWT_SECRET));
    assertUnauthenticated(await call(base, 'GET', '/v1/api_keys', { token: longLived }));
    assert.equal(svc.service.storage.clients.get(sub), undefined, 'a refused token provisions nobody');
    // Within the bound: accepted.
    assert.equal((await call(base, 'GET', '/v1/api_keys', { token: await hs256({ sub, ...good }, { exp: '23h' }) })).status, 200);
  });

  it('rejects a token without sub, or with an unusable sub', async () => {
    assertUnauthenticated(await call(base, 'GET', '/v1/api_keys', { token: await hs256({ ...good }) }));
    assertUnauthenticated(await call(base, 'GET', '/v1/api_keys', { token: await hs256({ sub: 'has space', ...good }) }));
  });

  it('accepts an ES256 token from the JWKS file and rejects one signed by an unknown key', async () => {
    const token = await es256({ sub: 'jwks-user', ...good }, idpKey, 'idp-1');
    const res = await call(base, 'GET', '/v1/api_keys', { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(svc.service.storage.clients.get('jwks-user')?.tier, 'free');

    const stranger = await es256({ sub: 'jwks-stranger', ...good }, strangerKey, 'idp-1');
    assertUnauthenticated(await call(base, 'GET', '/v1/api_keys', { token: stranger }));
    assert.equal(svc.service.storage.clients.get('jwks-stranger'), undefined);
  });

  it('enforces the configured issuer and audience', async () => {
    const cases: [string, JWTPayload][] = [
      ['wrong iss', { sub: 'iss-aud', iss: 'https://evil.example', aud: AUDIENCE }],
      ['wrong aud', { sub: 'iss-aud', iss: ISSUER, aud: 'another-api' }],
      ['no iss', { sub: 'iss-aud', aud: AUDIENCE }],
      ['no aud', { sub: 'iss-aud', iss: ISSUER }],
    ];
    for (const [name, claims] of cases) {
      const res = await call(base, 'GET', '/v1/api_keys', { token: await hs256(claims) });
      assert.equal(res.status, 401, `${name}: ${JSON.stringify(res.body)}`);
      const jwks = await call(base, 'GET', '/v1/api_keys', { token: await es256(claims, idpKey, 'idp-1') });
      assert.equal(jwks.status, 401, `${name} (ES256): ${JSON.stringify(jwks.body)}`);
    }
    assert.equal(svc.service.storage.clients.get('iss-aud'), undefined);
    const ok = await call(base, 'GET', '/v1/api_keys', { token: await hs256({ sub: 'iss-aud', ...good }) });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const okEs = await call(base, 'GET', '/v1/api_keys', { token: await es256({ sub: 'iss-aud', ...good }, idpKey, 'idp-1') });
    assert.equal(okEs.status, 200);
  });

  it("rejects a token whose sub is 'operator' (reserved)", async () => {
    const token = await hs256({ sub: 'operator', ...good });
    assertUnauthenticated(await call(base, 'GET', '/v1/api_keys', { token }));
    assertUnauthenticated(await call(base, 'PUT', '/v1/kill_switch', { token, body: { active: true } }));
    assert.equal((await call(base, 'GET', '/v1/health/safety')).status, 200, 'the kill switch was not touched');
  });

  it('lets a JWT client create keys that authenticate as the same client', async () => {
    const token = await hs256({ sub: 'frank', ...good });
    const created = await call<{ raw_key: string; id: string }>(base, 'POST', '/v1/api_keys', { token, body: {} });
    assert.equal(created.status, 201);
    const viaKey = await call<{ id: string }[]>(base, 'GET', '/v1/api_keys', { token: created.body.raw_key });
    assert.equal(viaKey.status, 200);
    assert.deepEqual(
      viaKey.body.map((r) => r.id),
      [created.body.id],
    );
  });
});

describe('generated operator key (OPERATOR_KEY unset)', () => {
  let dataDir: string | undefined;
  let svc: TestService | undefined;

  after(async () => {
    await svc?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('generates a key on first start, keeps only its hash, and keeps it across restarts', async () => {
    svc = await startTestService({ workers: 1, auth: { operatorKey: undefined } });
    dataDir = svc.dataDir;
    const generated = svc.service.generatedOperatorKey;
    assert.ok(generated !== undefined, 'a key was generated');
    assert.match(generated, /^sqk_op_[0-9A-Za-z]{40}$/);

    const ok = await call(svc.base, 'PUT', '/v1/kill_switch', { token: generated, body: { active: false } });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assertUnauthenticated(await call(svc.base, 'GET', '/v1/api_keys', { token: TEST_OPERATOR_KEY }));

    const bytes = lmdbBytes(dataDir);
    assert.equal(bytes.indexOf(generated), -1, 'the raw operator key is not in LMDB');
    assert.equal(bytes.indexOf(generated.slice('sqk_op_'.length)), -1);
    assert.notEqual(bytes.indexOf(sha256Hex(generated)), -1, 'its hash is (positive control)');

    await svc.stop(false);
    svc = undefined;
    svc = await startTestService({ workers: 1, dataDir, auth: { operatorKey: undefined } });
    assert.equal(svc.service.generatedOperatorKey, undefined, 'no new key on restart');
    const again = await call(svc.base, 'PUT', '/v1/kill_switch', { token: generated, body: { active: false } });
    assert.equal(again.status, 200, JSON.stringify(again.body));
  });
});

describe('admin CLI', () => {
  let dataDir: string;
  let svc: TestService | undefined;

  const admin = (args: string[]) =>
    spawnSync(process.execPath, [...adminArgs(), ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: 30_000,
    });

  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'seq-admin-'));
  });

  after(async () => {
    await svc?.stop(false);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates a client with live and sandbox keys that select their mode, and lists clients', async () => {
    const out = execFileSync(process.execPath, [...adminArgs(), 'create-client', 'bob', '--tier', 'pro'], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    const live = /live key\s+\((key_[0-9A-Za-z]+)\):\s+(sqk_live_[0-9A-Za-z]{32})\b/.exec(out);
    const sandbox = /sandbox key\s+\((key_[0-9A-Za-z]+)\):\s+(sqk_test_[0-9A-Za-z]{32})\b/.exec(out);
    assert.ok(live && sandbox, `keys in output:\n${out}`);
    const [, liveId, liveKey] = live;
    const [, sandboxId, sandboxKey] = sandbox;

    const listed = admin(['list-clients']);
    assert.equal(listed.status, 0, listed.stderr);
    const bobLine = listed.stdout.split('\n').find((l) => /\bbob\b/.test(l));
    assert.ok(bobLine, `bob listed:\n${listed.stdout}`);
    assert.match(bobLine, /\bpro\b/);

    svc = await startTestService({ workers: 1, dataDir });
    const profile = svc.service.storage.clients.get('bob');
    assert.equal(profile?.tier, 'pro');
    assert.equal(profile?.is_admin, false);

    const viaLive = await call<{ id: string; is_sandbox: boolean }[]>(svc.base, 'GET', '/v1/api_keys', { token: liveKey! });
    assert.equal(viaLive.status, 200, JSON.stringify(viaLive.body));
    assert.deepEqual(viaLive.body.map((r) => r.id).sort(), [liveId, sandboxId].sort(), 'live mode sees both keys');

    const viaSandbox = await call<{ id: string; is_sandbox: boolean }[]>(svc.base, 'GET', '/v1/api_keys', {
      token: sandboxKey!,
    });
    assert.equal(viaSandbox.status, 200);
    assert.deepEqual(
      viaSandbox.body.map((r) => r.id),
      [sandboxId],
      'sandbox mode sees only sandbox keys',
    );
    const created = await call<{ raw_key: string }>(svc.base, 'POST', '/v1/api_keys', {
      token: sandboxKey!,
      body: { sandbox: false },
    });
    assert.match(created.body.raw_key, /^sqk_test_/);
    // bob is not an admin.
    assert.equal((await call(svc.base, 'PUT', '/v1/kill_switch', { token: liveKey!, body: { active: true } })).status, 403);
  });

  it('exits non-zero on bad arguments', () => {
    const cases: string[][] = [
      [],
      ['no-such-command'],
      ['create-client'],
      ['create-client', 'bad id with spaces'],
      ['create-client', 'zed', '--tier', 'gold'],
      ['create-client', 'zed', '--qps', 'fast'],
      ['create-client', 'zed', '--qps', '0'],
      ['create-client', 'operator'],
      ['create-client', 'zed', '--no-such-flag'],
    ];
    for (const args of cases) {
      const r = admin(args);
      assert.notEqual(r.status, 0, `admin ${args.join(' ')} should fail; stdout: ${r.stdout}`);
      assert.equal(r.error, undefined, `admin ${args.join(' ')} ran: ${String(r.error)}`);
      assert.ok(r.stderr.length > 0, `admin ${args.join(' ')} explains itself on stderr`);
      assert.doesNotMatch(r.stdout, /sqk_live_|sqk_test_/, 'no key was printed');
    }
    // None of the failed calls created a client.
    const listed = admin(['list-clients']);
    assert.equal(listed.status, 0);
    assert.doesNotMatch(listed.stdout, /\bzed\b/);
  });
});
