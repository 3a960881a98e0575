/**
 * Perpetuals against the real service (sandbox key; funding every 2 s on every perp venue):
 * a short on hyperliquid and a long on okx book two perp rows with signed quantities, marks,
 * PnL and the initial margin locked on each venue's quote row (never the spot rows); funding
 * accrues on the `funding` channel and in the rows, exactly as the frames say; a position past
 * its liquidation price raises a margin event on /v1/risk/stream; an order whose margin the
 * account cannot post is refused; closing releases the margin.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, clientWithKeys, startTestService, type TestService } from '../helpers/service.ts';
import { SseClient } from '../helpers/sse-client.ts';
import { StreamClient } from '../helpers/stream-client.ts';

interface Row {
  id: number;
  venue: string;
  instrument: { kind: string; symbol?: string; base?: string };
  qty_1e8: number;
  locked_qty_1e8: number;
  entry_price_usd_1e9: number;
  current_price_usd_1e9: number;
  unrealized_pnl_usd_1e9: number;
  realized_pnl_usd_1e9: number;
  initial_margin_usd_1e9: number;
  leverage: number;
  liquidation_price_1e9: number | null;
  margin_state: string;
  funding_usd_1e9: number;
  lifecycle: { state: string };
}

let svc: TestService;
let key: string;
const order = (body: Record<string, unknown>) => call<{ node_order_id: string; status: string; failure_class: string | null; failure_reason: string | null }>(svc.base, 'POST', '/v1/orders', { token: key, body });
const positions = async (query = 'kinds=perp') => (await call<{ positions: Row[] }>(svc.base, 'GET', `/v1/positions?${query}`, { token: key })).body.positions;

async function settled(id: string): Promise<{ status: string; filled_qty_1e8: number }> {
  for (let i = 0; i < 200; i++) {
    const o = await call<{ status: string; filled_qty_1e8: number }>(svc.base, 'GET', `/v1/orders/${id}`, { token: key });
    if (!['WAITING', 'RUNNING', 'PENDING'].includes(o.body.status)) return o.body;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`order ${id} did not settle`);
}

describe('perpetuals', () => {
  before(async () => {
    svc = await startTestService({ simFundingIntervalS: 2 });
    key = (await clientWithKeys(svc, 'perp-trader')).sandbox;
    assert.equal((await call(svc.base, 'POST', '/v1/sandbox/reset', { token: key })).status, 200);
  });
  after(async () => svc?.stop());

  it('a short on hyperliquid and a long on okx: two perp rows, signed, marked, margined on the quote rows; no spot row moves', async () => {
    const short = await order({ client_order_id: 'short-1', instrument: { symbol: 'BTC-USDC', type: 'perp' }, venue: 'hyperliquid', side: 'sell', qty_1e8: 10_000_000, order_type: 'market' });
    const long = await order({ client_order_id: 'long-1', instrument: { symbol: 'BTC-USDT', type: 'perp' }, venue: 'okx', side: 'buy', qty_1e8: 20_000_000, order_type: 'market' });
    assert.equal(short.status, 201, JSON.stringify(short.body));
    assert.equal((await settled(short.body.node_order_id)).filled_qty_1e8, 10_000_000);
    assert.equal((await settled(long.body.node_order_id)).filled_qty_1e8, 20_000_000);
    const rows = await positions();
    const hl = rows.find((r) => r.venue === 'hyperliquid')!;
    const ok = rows.find((r) => r.venue === 'okx')!;
    assert.deepEqual(hl.instrument, { kind: 'perp', symbol: 'BTC-USDC', base: 'BTC' });
    assert.deepEqual([hl.qty_1e8, ok.qty_1e8], [-10_000_000, 20_000_000]);
    assert.deepEqual([hl.leverage, ok.leverage], [40, 100]);
    for (const [r, imr] of [[hl, 250], [ok, 100]] as const) {
      // Initial margin = |qty| x entry x imr, rounded up to the quote's unit (1e-8 USD).
      const product = BigInt(Math.abs(r.qty_1e8)) * BigInt(r.entry_price_usd_1e9) * BigInt(imr);
      const margin = (product + 10n ** 13n - 1n) / 10n ** 13n;
      assert.equal(BigInt(r.initial_margin_usd_1e9), margin * 10n);
      assert.ok(r.current_price_usd_1e9 > 0 && r.margin_state === 'ok' && r.liquidation_price_1e9 !== null);
      assert.ok(r.qty_1e8 > 0 ? r.liquidation_price_1e9! < r.entry_price_usd_1e9 : r.liquidation_price_1e9! > r.entry_price_usd_1e9);
      const floorDiv = (n: bigint, d: bigint) => (n >= 0n ? n / d : -((-n + d - 1n) / d));
      const value = floorDiv(BigInt(r.qty_1e8) * BigInt(r.current_price_usd_1e9), 10n ** 8n);
      const cost = -floorDiv(-BigInt(r.qty_1e8) * BigInt(r.entry_price_usd_1e9), 10n ** 8n);
      assert.equal(BigInt(r.unrealized_pnl_usd_1e9), value - cost);
    }
    // The margin is locked on each venue's quote row; no spot BTC row on either venue.
    const spot = await positions('venues=okx,hyperliquid&kinds=crypto');
    const usdc = spot.find((r) => r.venue === 'hyperliquid' && r.instrument.symbol === 'USDC')!;
    const usdt = spot.find((r) => r.venue === 'okx' && r.instrument.symbol === 'USDT')!;
    assert.equal(usdc.locked_qty_1e8, hl.initial_margin_usd_1e9 / 10);
    assert.equal(usdt.locked_qty_1e8, ok.initial_margin_usd_1e9 / 10);
    assert.equal(spot.filter((r) => r.instrument.symbol === 'BTC').length, 0);
  });

  it('funding accrues at each instant, on the funding channel and in the rows, exactly as the frames say', async () => {
    const stream = await StreamClient.open(`${svc.base.replace('http', 'ws')}/v1/stream`, { authorization: `Bearer ${key}` });
    try {
      stream.send({ subscribe: ['funding'] });
      await stream.next((f) => f.type === 'subscribed');
      const before = await positions();
      const accruals = new Map<number, number>();
      const cumulative = new Map<number, number>();
      const seen = new Set<string>();
      const deadline = Date.now() + 15_000;
      while (seen.size < 2 || accruals.size < 2) {
        const f = await stream.next((x) => x.type === 'data' && x.channel === 'funding', Math.max(1, deadline - Date.now()));
        const d = f.data as { kind: string; venue: string; position_id: number; ts_ns: number; qty_1e8: number; mark_1e9: number; rate_1e9: number; paid_usd_1e9: number; funding_usd_1e9: number };
        if (d.kind !== 'accrual') continue;
        // qty x mark x rate, rounded up (against the holder): a long pays a positive rate, a short receives it.
        const exact = (BigInt(d.qty_1e8) * BigInt(d.mark_1e9) * BigInt(d.rate_1e9)) as bigint;
        const scale = 100_000_000n * 1_000_000_000n;
        const ceil = exact / scale + (exact % scale !== 0n && exact > 0n ? 1n : 0n);
        assert.equal(BigInt(d.paid_usd_1e9), ceil);
        const k = `${d.venue}|${d.ts_ns}`;
        assert.ok(!seen.has(k), 'each instant once');
        seen.add(k);
        // Each frame's running total is the last one's less what this instant paid.
        const last = cumulative.get(d.position_id);
        if (last !== undefined) assert.equal(d.funding_usd_1e9, last - d.paid_usd_1e9);
        cumulative.set(d.position_id, d.funding_usd_1e9);
        accruals.set(d.position_id, (accruals.get(d.position_id) ?? 0) + d.paid_usd_1e9);
      }
      stream.send({ unsubscribe: ['funding'] });
      await new Promise((r) => setTimeout(r, 300));
      const after = await positions();
      for (const id of accruals.keys()) {
        const b = before.find((r) => r.id === id)!;
        const a = after.find((r) => r.id === id)!;
        // The row carries every instant settled (more may have come since the last frame read).
        assert.notEqual(a.funding_usd_1e9, b.funding_usd_1e9);
        assert.equal(a.realized_pnl_usd_1e9 - b.realized_pnl_usd_1e9, a.funding_usd_1e9 - b.funding_usd_1e9, 'funding is realized PnL');
      }
    } finally {
      stream.close();
    }
  });

  it('the funding channel also carries each listing\'s rate', async () => {
    const stream = await StreamClient.open(`${svc.base.replace('http', 'ws')}/v1/stream`, { authorization: `Bearer ${key}` });
    try {
      stream.send({ subscribe: ['funding'] });
      const f = await stream.next((x) => x.type === 'data' && (x.data as { kind?: string }).kind === 'rate', 12_000);
      const d = f.data as { venue: string; symbol: string; rate_1e9: number; next_funding_ns: number; interval_hours: number };
      assert.ok(['hyperliquid', 'binance', 'bybit', 'okx'].includes(d.venue));
      assert.ok(Number.isInteger(d.rate_1e9) && d.next_funding_ns > Date.now() * 1e6 - 5e9);
      assert.ok(Math.abs(d.interval_hours - 2 / 3600) < 1e-12, 'the compressed clock of the test');
    } finally {
      stream.close();
    }
  });

  it('refuses a perp order whose margin the venue account cannot post, and one on a venue without perps', async () => {
    const huge = await order({ client_order_id: 'huge-1', instrument: { symbol: 'BTC-USDT', type: 'perp' }, venue: 'okx', side: 'buy', qty_1e8: 900_000_000_000, order_type: 'market' });
    assert.equal(huge.status, 201);
    // Beyond the per-order notional cap first; a smaller account shows the margin refusal.
    assert.equal(huge.body.status, 'REJECTED');
    const small = (await clientWithKeys(svc, 'perp-small')).sandbox;
    assert.equal((await call(svc.base, 'PUT', '/v1/sandbox/settings', { token: small, body: { initial_balance_usd: 500 } })).status, 200);
    await call(svc.base, 'POST', '/v1/sandbox/reset', { token: small });
    const refused = await call<{ status: string; failure_class: string; failure_reason: string; children: unknown[] }>(svc.base, 'POST', '/v1/orders', {
      token: small,
      body: { client_order_id: 'm-1', instrument: { symbol: 'BTC-USDT', type: 'perp' }, venue: 'okx', side: 'sell', qty_1e8: 100_000_000, order_type: 'market' },
    });
    assert.equal(refused.body.status, 'REJECTED');
    assert.equal(refused.body.failure_class, 'insufficient_margin');
    assert.match(refused.body.failure_reason, /carries at most \d+ of the 100000000/);
    assert.deepEqual(refused.body.children, []);
    const smallRows = (await call<{ positions: Row[] }>(svc.base, 'GET', '/v1/positions?venues=okx', { token: small })).body.positions;
    assert.equal(smallRows.find((r) => r.instrument.symbol === 'USDT')!.locked_qty_1e8, 0, 'nothing reserved');
    assert.equal(smallRows.filter((r) => r.instrument.kind === 'perp').length, 0);
    const noPerps = await order({ client_order_id: 'cb-1', instrument: { symbol: 'BTC-USDT', type: 'perp' }, venue: 'coinbase', side: 'buy', qty_1e8: 1_000_000, order_type: 'market' });
    assert.equal(noPerps.status, 400);
    assert.match(JSON.stringify(noPerps.body), /coinbase has no perpetuals; BTC-USDT perps trade on binance, bybit, okx/);
  });

  it('a position past its liquidation price raises a margin event on /v1/risk/stream (alert only)', async () => {
    const port = Number(new URL(svc.base).port);
    const sse = await SseClient.open(port, '/v1/risk/stream', key);
    try {
      // A stated short far below the market: past its liquidation price at once.
      const stated = await call(svc.base, 'POST', '/v1/sandbox/positions', { token: key, body: { positions: [{ venue: 'bybit', kind: 'perp', symbol: 'ETH-USDT', qty: -1, entry_price_usd: 100 }] } });
      assert.equal(stated.status, 200, JSON.stringify(stated.body));
      const e = await sse.next('margin', 8_000);
      const d = e.data as { kind: string; venue: string; symbol: string; action: string; mark_1e9: number; liquidation_price_1e9: number | null };
      assert.deepEqual([d.kind, d.venue, d.symbol, d.action], ['margin_call', 'bybit', 'ETH-USDT', 'alert_only']);
      assert.ok(d.liquidation_price_1e9 !== null && d.mark_1e9 >= d.liquidation_price_1e9);
      const row = (await positions('venues=bybit&kinds=perp'))[0]!;
      assert.equal(row.margin_state, 'below_maintenance');
      assert.equal(row.qty_1e8, -100_000_000, 'alert only: nothing reduced');
    } finally {
      sse.close();
    }
  });

  it('closing a position releases its margin and books its PnL into the quote balance', async () => {
    const before = (await positions()).find((r) => r.venue === 'okx')!;
    const close = await order({ client_order_id: 'close-1', instrument: { symbol: 'BTC-USDT', type: 'perp' }, venue: 'okx', side: 'sell', qty_1e8: 20_000_000, order_type: 'market' });
    await settled(close.body.node_order_id);
    const row = (await positions('kinds=perp&include_closed=true')).find((r) => r.venue === 'okx')!;
    assert.deepEqual([row.qty_1e8, row.lifecycle.state, row.initial_margin_usd_1e9], [0, 'closed', 0]);
    // Realized moves by each close fill's quantity times its price less the entry (USDT is a
    // dollar: its price is the USD price), rounded toward -inf per fill. It can be 0 when the
    // market came back to the entry, so it is held to the fills, not to "changed".
    const fills = (await call<{ fills: { qty_1e8: number; price_1e9: number }[] }>(svc.base, 'GET', `/v1/orders/${close.body.node_order_id}?expand=fills`, { token: key })).body.fills;
    assert.ok(fills.length > 0);
    const floorDiv = (a: bigint, b: bigint) => (a % b !== 0n && a < 0n ? a / b - 1n : a / b);
    const expected = fills.reduce((sum, f) => sum + floorDiv(BigInt(f.qty_1e8) * (BigInt(f.price_1e9) - BigInt(before.entry_price_usd_1e9)), 100_000_000n), 0n);
    assert.equal(BigInt(row.realized_pnl_usd_1e9) - BigInt(before.realized_pnl_usd_1e9), expected);
    const usdt = (await positions('venues=okx&kinds=crypto')).find((r) => r.instrument.symbol === 'USDT')!;
    assert.equal(usdt.locked_qty_1e8, 0);
  });
});
