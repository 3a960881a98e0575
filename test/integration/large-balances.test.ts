/**
 * Balances past 2^53 in `_1e8` units: SIM_ACCOUNT_USD of 100,000,000 opens each simulated
 * account with 1e16 of each quote currency, exactly. As a float product it passed 2^53 and the
 * ledger dropped it, opening the account with no cash at all.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, startTestService, type TestService, until, venueCredentials } from '../helpers/service.ts';

describe('balances past 2^53 (real service)', () => {
  let svc: TestService;

  before(async () => {
    svc = await startTestService({ simAccountUsd: 100_000_000 });
    await until('service ready', async () => ((await call(svc.base, 'GET', '/v1/health/ready')).status === 200 ? true : undefined), 30_000);
  });

  after(async () => {
    await svc?.stop();
  });

  it('SIM_ACCOUNT_USD=100000000 opens the account with exactly 1e16 USDT (in _1e8 units)', async () => {
    const storage = svc.service.storage;
    await storage.clients.put({ client_id: 'whale', tier: 'enterprise', rate_limit_qps: 100, is_admin: false, created_at_ms: Date.now() });
    const token = (await storage.apiKeys.create('whale', { label: null, sandbox: false })).raw_key;
    const stored = await call(svc.base, 'POST', '/v1/credentials/binance', { token, body: venueCredentials('binance') });
    assert.equal(stored.status, 200, JSON.stringify(stored.body));
    const usdt = await until('the account opened', async () => {
      const res = await call<{ positions: { venue: string; instrument: { symbol?: string }; qty_1e8: number }[] }>(svc.base, 'GET', '/v1/positions', { token });
      return res.body.positions.find((p) => p.venue === 'binance' && p.instrument.symbol === 'USDT');
    });
    assert.equal(usdt.qty_1e8, 1e16);
    assert.ok(usdt.qty_1e8 > Number.MAX_SAFE_INTEGER, 'past 2^53, and still exact');
  });
});
