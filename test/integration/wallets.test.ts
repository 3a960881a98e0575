/**
 * Managed trading wallets against the real service: none at first (NO_TRADING_WALLET), created
 * and provisioning (409 on a second create, TRADING_WALLET_NOT_READY on a withdrawal), then
 * ready; its chain balances as positions of the chain venues; a withdrawal debits them; every
 * bad withdrawal is a 4xx that changes nothing; live and sandbox wallets, and clients, apart;
 * token info.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, clientWithKeys, envelope, startTestService, until, type TestService } from '../helpers/service.ts';

interface Wallet {
  wallet_id: string;
  address: string;
  scope: string;
  role: string;
  status: string;
  can_trade_dex: boolean;
  can_trade_api: boolean;
}
interface Row {
  venue: string;
  instrument: { kind: string; symbol?: string };
  qty_1e8: number;
}

const RECIPIENT = '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23';
let svc: TestService;
let keys: { live: string; sandbox: string };

const get = <T>(path: string, token = keys.sandbox) => call<T>(svc.base, 'GET', path, { token });
const post = <T>(path: string, body: unknown, token = keys.sandbox) => call<T>(svc.base, 'POST', path, { token, body });
const chainRows = async (token = keys.sandbox) => (await get<{ positions: Row[] }>('/v1/positions?venues=dex-eth,dex-arb', token)).body.positions;
/** The balances only: marks move between two reads. */
const balances = async () => (await chainRows()).map((r) => [r.venue, r.instrument.symbol, r.qty_1e8]);

describe('managed trading wallets', () => {
  before(async () => {
    // Long enough that a create answered late under a loaded full run still says `provisioning`.
    svc = await startTestService({ walletProvisionMs: 4_000 });
    keys = await clientWithKeys(svc, 'wallet-user');
    await post('/v1/sandbox/reset', {});
  });
  after(async () => svc?.stop());

  it('none at first: an empty list, NO_TRADING_WALLET for the trading wallet and a withdrawal', async () => {
    assert.deepEqual((await get('/v1/wallets')).body, { wallets: [] });
    const trading = await get('/v1/wallets/trading');
    assert.equal(trading.status, 404);
    assert.equal(envelope(trading.body).code, 'NO_TRADING_WALLET');
    const w = await post('/v1/wallets/withdraw', { chain: 'dex-eth', token: 'ETH', amount: '0.1', recipient: RECIPIENT });
    assert.equal(w.status, 404);
    assert.equal(envelope(w.body).code, 'NO_TRADING_WALLET');
  });

  it('created provisioning, 409 on a second create and on a withdrawal while provisioning, ready after; funded on both chains', async () => {
    const created = await post<Wallet>('/v1/wallets/trading/create-managed', { label: 'bot' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const w = created.body;
    assert.deepEqual([w.scope, w.role, w.status, w.can_trade_dex, w.can_trade_api], ['dex', 'trading', 'provisioning', false, false]);
    assert.match(w.address, /^0x[0-9a-fA-F]{40}$/);
    assert.equal(w.wallet_id, `managed:${w.address}`);
    const second = await post('/v1/wallets/trading/create-managed', { label: 'again' });
    assert.equal(second.status, 409);
    assert.equal(envelope(second.body).code, 'WALLET_EXISTS');
    const early = await post('/v1/wallets/withdraw', { chain: 'dex-eth', token: 'ETH', amount: '0.1', recipient: RECIPIENT });
    assert.equal(early.status, 409);
    assert.equal(envelope(early.body).code, 'TRADING_WALLET_NOT_READY');
    const ready = await until('the wallet ready', async () => {
      const now = (await get<Wallet>('/v1/wallets/trading')).body;
      return now.status === 'ready' ? now : undefined;
    }, 10_000, 100);
    assert.deepEqual([ready.wallet_id, ready.status, ready.can_trade_dex], [w.wallet_id, 'ready', true]);
    assert.deepEqual((await get<Wallet>('/v1/wallets/default')).body, ready);
    assert.deepEqual((await get<{ wallets: Wallet[] }>('/v1/wallets')).body.wallets, [ready]);
    // Gas and the sandbox balance of USDC on each chain, as positions of the chain venues.
    const rows = await chainRows();
    for (const chain of ['dex-eth', 'dex-arb']) {
      assert.equal(rows.find((r) => r.venue === chain && r.instrument.symbol === 'ETH')?.qty_1e8, 200_000_000);
      assert.ok((rows.find((r) => r.venue === chain && r.instrument.symbol === 'USDC')?.qty_1e8 ?? 0) > 0);
    }
  });

  it('withdraws: the balance is debited, the transfer signed; every bad request is a 4xx that changes nothing', async () => {
    const before = await balances();
    const bad: [Record<string, unknown>, string][] = [
      [{ chain: 'dex-arb', token: 'ETH', amount: '0.5', recipient: '0x2c7536E3605D9C16a7a3D7b1898e529396a65C23' }, 'recipient'],
      [{ chain: 'dex-arb', token: 'ETH', amount: '0.5', recipient: '0x1234' }, 'recipient'],
      [{ chain: 'dex-arb', token: 'ETH', amount: '-1', recipient: RECIPIENT }, 'amount'],
      [{ chain: 'dex-arb', token: 'ETH', amount: '0', recipient: RECIPIENT }, 'amount'],
      [{ chain: 'dex-arb', token: 'ETH', amount: '1e3', recipient: RECIPIENT }, 'amount'],
      [{ chain: 'dex-arb', token: 'USDC', amount: '0.0000001', recipient: RECIPIENT }, 'amount'],
      [{ chain: 'dex-arb', token: 'ETH', amount: '3', recipient: RECIPIENT }, 'amount'],
      [{ chain: 'dex-sol', token: 'ETH', amount: '0.5', recipient: RECIPIENT }, 'chain'],
      [{ chain: 'dex-eth', token: 'ARB', amount: '0.5', recipient: RECIPIENT }, 'token'],
    ];
    for (const [body, field] of bad) {
      const res = await post('/v1/wallets/withdraw', body);
      assert.equal(res.status, 400, JSON.stringify([body, res.body]));
      assert.ok(envelope(res.body).details.some((d) => d.field.includes(field)), JSON.stringify(res.body));
    }
    assert.deepEqual(await balances(), before, 'nothing written by a refused withdrawal');
    const ok = await post<{ status: string; amount_1e8: number; recipient: string; from: string; tx_hash: string; remaining_1e8: string }>('/v1/wallets/withdraw', { chain: 'dex-arb', token: 'ETH', amount: '0.5', recipient: RECIPIENT.toLowerCase() });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.deepEqual([ok.body.status, ok.body.amount_1e8, ok.body.recipient, ok.body.remaining_1e8], ['submitted', 50_000_000, RECIPIENT, '150000000']);
    assert.match(ok.body.tx_hash, /^0x[0-9a-f]{64}$/);
    const after = await chainRows();
    assert.equal(after.find((r) => r.venue === 'dex-arb' && r.instrument.symbol === 'ETH')!.qty_1e8, 150_000_000);
    assert.equal(after.find((r) => r.venue === 'dex-eth' && r.instrument.symbol === 'ETH')!.qty_1e8, 200_000_000);
  });

  it('live and sandbox wallets are apart, and so are clients', async () => {
    assert.equal((await get('/v1/wallets/trading', keys.live)).status, 404);
    assert.deepEqual(await chainRows(keys.live), []);
    const other = await clientWithKeys(svc, 'wallet-other');
    assert.deepEqual((await get('/v1/wallets', other.sandbox)).body, { wallets: [] });
    assert.equal((await post('/v1/wallets/withdraw', { chain: 'dex-arb', token: 'ETH', amount: '0.1', recipient: RECIPIENT }, other.sandbox)).status, 404);
  });

  it('a sandbox reset funds the wallet\'s chains again', async () => {
    await post('/v1/sandbox/reset', {});
    const rows = await chainRows();
    assert.equal(rows.find((r) => r.venue === 'dex-arb' && r.instrument.symbol === 'ETH')!.qty_1e8, 200_000_000);
  });

  it('token info (public): every asset, with each chain contract', async () => {
    const res = await call<{ tokens: { symbol: string; decimals: number; chains: { chain: string; contract: string | null }[] }[]; count: number }>(svc.base, 'GET', '/v1/token-info');
    assert.equal(res.status, 200);
    const by = new Map(res.body.tokens.map((t) => [t.symbol, t]));
    assert.equal(res.body.count, res.body.tokens.length);
    assert.deepEqual(by.get('ETH')!.chains.map((c) => [c.chain, c.contract]), [['dex-eth', null], ['dex-arb', null]]);
    assert.equal(by.get('USDC')!.decimals, 6);
    assert.equal(by.get('USDC')!.chains.find((c) => c.chain === 'dex-eth')!.contract, '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48');
    assert.deepEqual(by.get('BTC')!.chains, []);
    assert.ok(by.has('SOL') && by.has('WBTC') && by.has('USDT'));
  });
});
