/**
 * One hostile request never stops the service process (issue 10). Found by the fuzzer: with JWT
 * authentication configured, `Authorization: Bearer a.b.c` on a request with a body was refused
 * after the body had been read, and the token's rejection, handled only then, reached Node as an
 * unhandled rejection, which stops the process. Real `main.ts` in its own process.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { call, envelope } from '../helpers/service.ts';
import { startProcess } from '../helpers/process.ts';

describe('one hostile request never stops the process', () => {
  const children: ChildProcess[] = [];
  const dirs: string[] = [];

  after(() => {
    for (const child of children) child.kill('SIGKILL');
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('a JWT-shaped bearer that fails verification, on requests with and without a body, is a 401 and the service lives on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'seq-survive-'));
    dirs.push(dir);
    const run = await startProcess(dir, children, { AUTH_JWT_SECRET: 'a-test-secret-of-enough-length-0123456789' });
    const body = { client_order_id: 'x', symbol: 'BTC-USDT', side: 'buy', qty_1e8: 1, order_type: 'market' };
    for (const token of ['a.b.c', 'eyJhbGciOiJIUzI1NiJ9.e30.x', 'x.y.z']) {
      for (const [method, path] of [['POST', '/v1/orders'], ['POST', '/v1/api_keys'], ['GET', '/v1/orders'], ['PUT', '/v1/kill_switch']] as const) {
        const res = await call(run.base, method, path, { token, ...(method === 'GET' ? {} : { body }) });
        assert.equal(res.status, 401, `${method} ${path} with ${token}: ${JSON.stringify(res.body)}`);
        assert.equal(envelope(res.body).code, 'UNAUTHENTICATED');
      }
    }
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(run.child.exitCode, null, `the service exited:\n${run.output()}`);
    assert.equal((await call(run.base, 'GET', '/v1/health/live')).status, 200);
  });
});
