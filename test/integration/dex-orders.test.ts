/**
 * DEX orders against the real service (live mode, the simulated chains): refused without a
 * wallet (404) and while it provisions (409); a buy of ETH on a chain-suffixed pair swaps
 * through a pool, its fill at the swap's price with the LP fee and the gas apart, booked on the
 * chain's rows (ETH in, USDC out, gas paid in ETH), exact to the unit; bad wallet ids and a
 * resting DEX order refused; no gas, refused before anything is sent; `ETH-USD` routed across
 * the CEX venues and the pools, the plan saying why each pool was kept or dropped; a sandbox
 * swap leaves the live pool unchanged.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, clientWithKeys, envelope, startTestService, until, TEST_OPERATOR_KEY, venueCredentials, type TestService } from '../helpers/service.ts';

interface Fill {
  venue: string;
  symbol: string;
  qty_1e8: number;
  price_1e9: number;
  fee_1e9: number;
  commission_asset: string;
  commission_qty_1e8?: number;
  trade_id: string;
  taker_fee_bps_applied: number | null;
  fee_breakdown: Record<string, number | string>;
}
interface Order {
  node_order_id: string;
  status: string;
  symbol: string;
  instrument_type: string;
  wallet_id?: string;
  filled_qty_1e8: number;
  failure_class: string | null;
  failure_reason: string | null;
  children: { venue: string; edge_id: string; status: string }[];
  fills: Fill[] | null;
}
interface Row {
  venue: string;
  instrument: { kind: string; symbol?: string };
  qty_1e8: number;
}
interface Candidate {
  venue: string;
  edge_id: string;
  kept: boolean;
  reason: string | null;
  allocated_qty_1e8: number;
}

const RECIPIENT = '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23';
let svc: TestService;
let keys: { live: string; sandbox: string };
let n = 0;

const get = <T>(path: string, token = keys.live) => call<T>(svc.base, 'GET', path, { token });
const post = <T>(path: string, body: unknown, token = keys.live) => call<T>(svc.base, 'POST', path, { token, body });
const order = (body: Record<string, unknown>, token = keys.live) => post<Order>('/v1/orders', { client_order_id: `dex-${++n}`, side: 'buy', order_type: 'market', ...body }, token);
const settled = (id: string, token = keys.live) =>
  until('order settled', async () => {
    const r = await get<Order>(`/v1/orders/${id}?expand=fills`, token);
    return ['COMPLETED', 'CANCELLED', 'REJECTED'].includes(r.body.status) ? r.body : undefined;
  });
const balance = async (venue: string, asset: string, token = keys.live) =>
  (await get<{ positions: Row[] }>(`/v1/positions?venues=${venue}`, token)).body.positions.find((r) => r.instrument.symbol === asset)?.qty_1e8 ?? 0;

describe('DEX orders', () => {
  before(async () => {
    // Long enough that an order right after the create still meets the wallet provisioning on a loaded machine.
    svc = await startTestService({ walletProvisionMs: 4_000 });
    keys = await clientWithKeys(svc, 'dex-trader');
  });
  after(async () => svc?.stop());

  it('refused without a trading wallet (404) and while it provisions (409); nothing written', async () => {
    const none = await order({ symbol: 'ETH-USDC-dex-arb', qty_1e8: 10_000_000 });
    assert.equal(none.status, 404, JSON.stringify(none.body));
    assert.equal(envelope(none.body).code, 'NO_TRADING_WALLET');
    assert.equal((await post('/v1/wallets/trading/create-managed', { label: 'dex' })).status, 201);
    const early = await order({ symbol: 'ETH-USDC-dex-arb', qty_1e8: 10_000_000 });
    assert.equal(early.status, 409);
    assert.equal(envelope(early.body).code, 'TRADING_WALLET_NOT_READY');
    assert.equal((await get<{ orders: unknown[] }>('/v1/orders')).body.orders.length, 0);
    await until('wallet ready', async () => ((await get<{ status: string }>('/v1/wallets/trading')).body.status === 'ready' ? true : undefined), 10_000, 100);
  });

  it('buys ETH on a chain-suffixed pair: one swap, LP fee and gas in the fill, ETH in and USDC out of the chain rows exactly', async () => {
    const eth0 = await balance('dex-arb', 'ETH');
    const usdc0 = await balance('dex-arb', 'USDC');
    const placed = await order({ symbol: 'ETH-USDC-dex-arb', qty_1e8: 50_000_000 });
    assert.equal(placed.status, 201, JSON.stringify(placed.body));
    assert.equal(placed.body.symbol, 'ETH-USDC-dex-arb');
    assert.match(placed.body.wallet_id!, /^managed:0x[0-9a-fA-F]{40}$/);
    const done = await settled(placed.body.node_order_id);
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    assert.equal(done.filled_qty_1e8, 50_000_000);
    assert.ok(done.children.every((c) => c.venue === 'dex-arb' && c.edge_id.startsWith('dex-arb:0x')));
    let paid = 0n;
    let gas = 0;
    for (const f of done.fills!) {
      assert.deepEqual([f.venue, f.symbol, f.commission_asset], ['dex-arb', 'ETH-USDC', 'ETH']);
      assert.match(f.trade_id, /^0x[0-9a-f]{64}$/, 'the transaction hash');
      const b = f.fee_breakdown;
      assert.ok((b['lp_fee_1e9'] as number) > 0, 'the LP fee, inside the price');
      assert.ok((b['gas_1e9'] as number) > 0);
      assert.equal(f.fee_1e9, (b['gas_1e9'] as number) + (b['priority_fee_1e9'] as number), 'the fee is the gas');
      assert.equal(b['hop_fees_1e9'], 0);
      assert.ok([5, 30].includes(f.taker_fee_bps_applied!), 'the pool fee tier');
      // The LP fee is the tier's share of what was paid (rounded up per tick step).
      const notional = (f.qty_1e8 * f.price_1e9) / 1e8;
      assert.ok(Math.abs((b['lp_fee_1e9'] as number) - (notional * f.taker_fee_bps_applied!) / 1e4) < notional * 1e-6, `${b['lp_fee_1e9']} of ${notional}`);
      paid += (BigInt(f.qty_1e8) * BigInt(f.price_1e9)) / 1_000_000_000n;
      gas += f.commission_qty_1e8!;
    }
    assert.equal(await balance('dex-arb', 'ETH'), eth0 + 50_000_000 - gas, 'ETH in, less the gas paid in ETH');
    const usdc = await balance('dex-arb', 'USDC');
    assert.ok(BigInt(usdc0 - usdc) - paid >= 0n && BigInt(usdc0 - usdc) - paid <= BigInt(done.fills!.length), `USDC out ${usdc0 - usdc} vs ${paid}`);
  });

  it('refuses bad wallet ids and a resting DEX order, writing nothing; the own wallet on a CEX order changes nothing', async () => {
    const before = (await get<{ orders: unknown[] }>('/v1/orders')).body.orders.length;
    const other = await order({ symbol: 'ETH-USDC-dex-arb', qty_1e8: 1e6, wallet_id: `managed:${RECIPIENT}` });
    assert.equal(other.status, 404);
    assert.equal(envelope(other.body).code, 'NO_TRADING_WALLET');
    const connected = await order({ symbol: 'ETH-USDC-dex-arb', qty_1e8: 1e6, wallet_id: `connected:${RECIPIENT}` });
    assert.equal(connected.status, 400);
    assert.equal(envelope(connected.body).details[0]!.field, 'wallet_id');
    const cex = await order({ symbol: 'BTC-USDT', qty_1e8: 1e6, wallet_id: `managed:${RECIPIENT}` });
    assert.equal(cex.status, 404, 'another wallet is refused on any order');
    const gtc = await order({ symbol: 'ETH-USDC-dex-arb', qty_1e8: 1e6, order_type: 'limit', limit_price_1e9: 1e12, time_in_force: 'gtc' });
    assert.equal(gtc.status, 400);
    assert.equal(envelope(gtc.body).details[0]!.field, 'time_in_force');
    assert.equal((await get<{ orders: unknown[] }>('/v1/orders')).body.orders.length, before);
    // The caller's own wallet on an order that trades no pool: accepted, nothing to sign.
    const own = await order({ symbol: 'BTC-USDT', qty_1e8: 1e6, wallet_id: (await get<{ wallet_id: string }>('/v1/wallets/trading')).body.wallet_id });
    assert.equal(own.status, 201, JSON.stringify(own.body));
    assert.equal(own.body.wallet_id, undefined);
  });

  it('without ETH for gas on the chain, a DEX order is rejected before anything is sent', async () => {
    const eth = await balance('dex-eth', 'ETH');
    const w = await post('/v1/wallets/withdraw', { chain: 'dex-eth', token: 'ETH', amount: (eth / 1e8).toFixed(8), recipient: RECIPIENT });
    assert.equal(w.status, 200, JSON.stringify(w.body));
    const usdc0 = await balance('dex-eth', 'USDC');
    const placed = await order({ symbol: 'ETH-USDC-dex-eth', qty_1e8: 10_000_000 });
    assert.equal(placed.status, 201);
    const done = await settled(placed.body.node_order_id);
    assert.deepEqual([done.status, done.failure_class, done.children.length], ['REJECTED', 'insufficient_gas', 0]);
    assert.match(done.failure_reason!, /gas/);
    assert.equal(await balance('dex-eth', 'USDC'), usdc0);
  });

  it('routes ETH-USD across the CEX venues and the pools, gas weighed and charged, a pool the wallet cannot pay gas on left out', async () => {
    for (const venue of ['kraken', 'bitstamp']) {
      const r = await post(`/v1/credentials/${venue}`, venueCredentials(venue));
      assert.equal(r.status, 200, JSON.stringify(r.body));
      // The router routes on the account once it shows: wait for its balance rather than race it.
      await until(`${venue} account funded`, async () => ((await balance(venue, 'USD')) > 0 || (await balance(venue, 'USDT')) > 0 ? true : undefined), 10_000, 100);
    }
    type Plan = { candidates: Candidate[]; allocations: { edge_id: string; expected_fee_1e9: number }[] };
    const preview = async (qty_1e8: number) => (await post<{ plan: Plan }>('/v1/orders/preview', { side: 'buy', order_type: 'market', symbol: 'ETH-USD', qty_1e8 })).body.plan;
    const small = await preview(1_000_000);
    const pools = small.candidates.filter((c) => c.edge_id.startsWith('dex-'));
    assert.equal(pools.length, 6, "both chains' ETH pools against USDC and USDT");
    assert.ok(small.candidates.some((c) => ['kraken', 'bitstamp'].includes(c.venue) && c.kept), 'the CEX venues beside them');
    // dex-eth's wallet has no ETH left for gas (the test before), the wallet holds no USDT: out, and said why.
    for (const c of pools.filter((c) => c.edge_id.startsWith('dex-eth:'))) assert.deepEqual([c.kept, c.reason], [false, 'insufficient_balance']);
    const gasCharged = small.allocations.filter((a) => a.edge_id.startsWith('dex-'));
    for (const a of gasCharged) assert.ok(a.expected_fee_1e9 > 0, 'a pool child is charged its gas');
    // A large buy takes the pools and the CEX books together (the wallet's USDC on dex-arb cannot carry it alone).
    const placed = await order({ symbol: 'ETH-USD', qty_1e8: 60e8 });
    assert.equal(placed.status, 201, JSON.stringify(placed.body));
    assert.ok(placed.body.wallet_id !== undefined, 'a BASE-USD order from a ready wallet trades from it');
    const done = await settled(placed.body.node_order_id);
    assert.ok(done.filled_qty_1e8 > 0, JSON.stringify(done));
    const venues = new Set(done.fills!.map((f) => f.venue));
    assert.ok(venues.has('dex-arb'), [...venues].join());
    assert.ok(venues.has('kraken') || venues.has('bitstamp'), JSON.stringify({ status: done.status, fills: done.fills!.map((f) => [f.venue, f.qty_1e8]), legs: (done as unknown as { children: unknown[] }).children }));
    for (const f of done.fills!) assert.equal(f.symbol, f.venue === 'dex-arb' ? 'ETH-USDC' : 'ETH-USD');
  });

  it('a sandbox swap is priced on the live pool and leaves it as it was; sandbox and live wallets apart', async () => {
    assert.equal((await post('/v1/sandbox/reset', {}, keys.sandbox)).status, 200);
    const none = await order({ symbol: 'ETH-USDC-dex-arb', qty_1e8: 1e6 }, keys.sandbox);
    assert.equal(none.status, 404, 'the live wallet does not trade in sandbox');
    assert.equal((await post('/v1/wallets/trading/create-managed', { label: 'sbx' }, keys.sandbox)).status, 201);
    await until('sandbox wallet ready', async () => ((await get<{ status: string }>('/v1/wallets/trading', keys.sandbox)).body.status === 'ready' ? true : undefined), 10_000, 100);
    const placed = await order({ symbol: 'ETH-USDC-dex-eth', qty_1e8: 100e8 }, keys.sandbox);
    assert.equal(placed.status, 201, JSON.stringify(placed.body));
    const done = await settled(placed.body.node_order_id, keys.sandbox);
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    assert.ok(done.fills!.every((f) => f.venue === 'dex-eth'));
    // Not on the chain: the tape (every swap a block makes) has no trade of the sandbox's size.
    // One block (4 s) for a swap wrongly sent to the chain to land; a block may carry no swap and
    // blocks come late under load, so then wait for the chain's trades.
    await new Promise((r) => setTimeout(r, 4_500));
    const ticks = await until('the chain trades', async () => {
      const res = await call<{ ticks: { qty_1e8: number }[] }>(svc.base, 'GET', '/v1/data/ticks?symbol=ETH-USDC-dex-eth&limit=200', { token: TEST_OPERATOR_KEY });
      return res.body.ticks.length > 0 ? res.body.ticks : undefined;
    }, 30_000, 250);
    assert.ok(!ticks.some((t) => t.qty_1e8 === 100e8), 'the sandbox swap is not on the chain');
    assert.ok((await balance('dex-eth', 'ETH', keys.sandbox)) > 100e8, 'the sandbox wallet got the ETH');
  });
});
