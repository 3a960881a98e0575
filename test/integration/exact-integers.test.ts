/**
 * Exact integers past 2^53 on the wire (real service): a reset sandbox account holds
 * 1,000,000,000 USD a quote asset on every venue (1e17 in _1e8), its totals pass the int64
 * range, and a seeded quantity with more digits than a double holds comes back digit for digit.
 * The responses are read as text and parsed with lossless-json, as a careful client would.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isInteger, parse } from 'lossless-json';
import { call, clientWithKeys, startTestService, type TestService, until } from '../helpers/service.ts';

/** Every integer exact: a bigint when a double would round it. */
const parseExact = (text: string): unknown => parse(text, null, (s) => (isInteger(s) && !Number.isSafeInteger(Number(s)) ? BigInt(s) : Number(s)));

type Int = number | bigint;
interface Row {
  venue: string;
  instrument: { kind: string; symbol?: string };
  qty_1e8: Int;
  current_value_usd_1e9: Int;
}
interface Positions {
  positions: Row[];
  totals: { nav_usd_1e9: Int; cash_usd_1e9: Int };
}

describe('exact integers past 2^53 (real service)', () => {
  let svc: TestService;
  let sandbox: string;

  const raw = async (path: string): Promise<string> => {
    const res = await fetch(`${svc.base}${path}`, { headers: { authorization: `Bearer ${sandbox}` } });
    const text = await res.text();
    assert.equal(res.status, 200, text);
    return text;
  };

  before(async () => {
    svc = await startTestService();
    await until('service ready', async () => ((await call(svc.base, 'GET', '/v1/health/ready')).status === 200 ? true : undefined), 30_000);
    ({ sandbox } = await clientWithKeys(svc, 'exact-whale'));
    const reset = await call(svc.base, 'POST', '/v1/sandbox/reset', { token: sandbox });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
  });

  after(async () => {
    await svc?.stop();
  });

  it('a reset account shows 1e17 of each quote asset and totals past int64, each an exact integer literal', async () => {
    const text = await raw('/v1/positions');
    const view = parseExact(text) as Positions;
    const usdt = view.positions.filter((p) => p.instrument.symbol === 'USDT');
    assert.ok(usdt.length >= 5, 'every spot venue got USDT');
    for (const p of usdt) assert.equal(BigInt(p.qty_1e8), 100_000_000_000_000_000n);
    const nav = view.positions.reduce((sum, p) => sum + BigInt(p.current_value_usd_1e9), 0n);
    assert.ok(nav > 2n ** 63n, `the total ${nav} is past int64`);
    assert.equal(BigInt(view.totals.nav_usd_1e9), nav, 'the total is the exact sum of the rows');
    assert.match(text, new RegExp(`"nav_usd_1e9":${nav}[,}]`), 'written as an integer literal, not 2.1e+19');
    assert.doesNotMatch(text, /[:,[]-?\d+(\.\d+)?[eE]/, 'no number in exponent form anywhere');
  });

  it('a quantity with more digits than a double holds is stored and shown digit for digit', async () => {
    const body = '{"positions":[{"venue":"binance","kind":"crypto","symbol":"DOGE","qty":123456789012.12345678}]}';
    const res = await fetch(`${svc.base}/v1/sandbox/positions`, { method: 'POST', headers: { authorization: `Bearer ${sandbox}`, 'content-type': 'application/json' }, body });
    assert.equal(res.status, 200, await res.clone().text());
    const text = await raw('/v1/positions?venues=binance');
    assert.match(text, /"qty_1e8":12345678901212345678[,}]/, 'JSON.parse would have made it 12345678901212346000');
    const doge = (parseExact(text) as Positions).positions.find((p) => p.instrument.symbol === 'DOGE');
    assert.equal(doge?.qty_1e8, 12_345_678_901_212_345_678n);
  });

  it('the risk read-out carries the same exact totals', async () => {
    // NAV moves with the marks between two reads: the two agree exactly on a pair of reads
    // within one quote tick (cash, all $1 assets, on every read).
    let agreed = false;
    for (let i = 0; i < 20 && !agreed; i++) {
      const risk = parseExact(await raw('/v1/risk')) as { nav_usd_1e9: Int; cash_usd_1e9: Int };
      const view = parseExact(await raw('/v1/positions')) as Positions;
      assert.equal(BigInt(risk.cash_usd_1e9), BigInt(view.totals.cash_usd_1e9));
      assert.ok(BigInt(risk.nav_usd_1e9) > 2n ** 53n);
      agreed = BigInt(risk.nav_usd_1e9) === BigInt(view.totals.nav_usd_1e9);
    }
    assert.ok(agreed, 'the risk NAV equals the positions NAV when no mark moved between the reads');
  });

  it('a balance setting a double cannot hold exactly is refused with 400, not rounded', async () => {
    const res = await fetch(`${svc.base}/v1/sandbox/settings`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${sandbox}`, 'content-type': 'application/json' },
      body: '{"initial_balance_usd":1234567890.12345678}',
    });
    const answer = (await res.json()) as { error: { code: string; details: { field: string; message: string }[] } };
    assert.equal(res.status, 400);
    assert.equal(answer.error.code, 'VALIDATION_ERROR');
    assert.equal(answer.error.details[0]?.field, 'initial_balance_usd');
    assert.match(answer.error.details[0]!.message, /1234567890\.12345678/);
    const pending = await call<{ initial_balance_usd: number }>(svc.base, 'GET', '/v1/sandbox/settings', { token: sandbox });
    assert.equal(pending.body.initial_balance_usd, 1_000_000_000, 'nothing written');
  });
});
