/**
 * Pre-trade risk under concurrency against the real service: 200 simultaneous market orders
 * from one client against a small balance never overspend it. Every order ends terminal, the
 * positions equal the starting balances plus the fills exactly (ledger rules:
 * docs/positions-and-tca.md), no balance goes negative, the fills cost at most the starting
 * cash, and no reservation stays locked.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, startTestService, type TestService, until } from '../helpers/service.ts';

const SYMBOL = 'BTC-USDT';
const FUNDED = ['binance', 'okx', 'bybit'];
const TERMINAL = new Set(['COMPLETED', 'CANCELLED', 'REJECTED', 'UNRESOLVED']);
/** Cash of each simulated venue account: $200,000 per quote currency (SIM_ACCOUNT_USD), about two 1 BTC buys. */
const SIM_ACCOUNT_USD = 200_000;
const SEED_BTC_1E8 = 100_000_000n;
const N = 200;

interface Fill {
  id: number;
  fill_id: string;
  node_order_id: string;
  venue: string;
  side: string;
  qty_1e8: number;
  price_1e9: number;
  fee_1e9: number;
}
interface Order {
  node_order_id: string;
  status: string;
  qty_1e8: number;
  filled_qty_1e8: number;
  failure_class: string | null;
  children: { venue: string; status: string; qty_1e8: number; limit_price_1e9: number; filled_qty_1e8: number }[];
}
interface Position {
  venue: string;
  instrument: { symbol?: string; code?: string };
  qty_1e8: number;
  locked_qty_1e8: number;
  available_qty_1e8: number;
}

/** Quote a buy fill takes: ceil(price x qty / 1e9) plus its fee (USD 1e9 -> quote 1e8, up). */
const buyDebit = (f: Fill) => (BigInt(f.price_1e9) * BigInt(f.qty_1e8) + 999_999_999n) / 1_000_000_000n + (BigInt(f.fee_1e9) + 9n) / 10n;
/** Quote a sell fill brings: floor(price x qty / 1e9) minus its fee. */
const sellCredit = (f: Fill) => (BigInt(f.price_1e9) * BigInt(f.qty_1e8)) / 1_000_000_000n - (BigInt(f.fee_1e9) + 9n) / 10n;

describe('execution: 200 simultaneous orders from one client (real service)', () => {
  let svc: TestService;
  let base: string;

  const newFundedClient = async (clientId: string): Promise<string> => {
    const storage = svc.service.storage;
    await storage.clients.put({ client_id: clientId, tier: 'enterprise', rate_limit_qps: 2_000, is_admin: false, created_at_ms: Date.now() });
    const token = (await storage.apiKeys.create(clientId, { label: 'execution-test', sandbox: false })).raw_key;
    for (const venue of FUNDED) {
      const body = { api_key: `key-${venue}-0123456789`, api_secret: `secret-${venue}-0123456789abcdef`, ...(venue === 'okx' ? { passphrase: 'pass' } : {}) };
      assert.equal((await call(base, 'POST', `/v1/credentials/${venue}`, { token, body })).status, 200);
    }
    const start = await until('accounts opened', async () => {
      const p = await positions(token);
      return FUNDED.every((v) => qty(p, v, 'USDT') !== undefined && qty(p, v, 'BTC') !== undefined) ? p : undefined;
    });
    for (const v of FUNDED) {
      assert.equal(qty(start, v, 'USDT'), BigInt(SIM_ACCOUNT_USD) * 100_000_000n);
      assert.equal(qty(start, v, 'BTC'), SEED_BTC_1E8);
    }
    return token;
  };

  const positions = async (token: string): Promise<Position[]> => {
    const res = await call<{ positions: Position[] }>(base, 'GET', '/v1/positions?include_closed=true', { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.positions;
  };
  const qty = (rows: Position[], venue: string, asset: string): bigint | undefined => {
    const row = rows.find((p) => p.venue === venue && (p.instrument.symbol ?? p.instrument.code) === asset);
    return row === undefined ? undefined : BigInt(row.qty_1e8);
  };

  /** Every order of the client, walking the cursor. */
  const allOrders = async (token: string): Promise<Order[]> => {
    const out: Order[] = [];
    let after: string | null = null;
    do {
      const res: { status: number; body: { orders: Order[]; next_cursor: string | null } } = await call(
        base, 'GET', `/v1/orders?limit=1000${after === null ? '' : `&after=${after}`}`, { token },
      );
      assert.equal(res.status, 200);
      out.push(...res.body.orders);
      after = res.body.next_cursor;
    } while (after !== null);
    return out;
  };
  const allFills = async (token: string): Promise<Fill[]> => {
    const out: Fill[] = [];
    let after: string | null = null;
    do {
      const res: { status: number; body: { fills: Fill[]; next_cursor: string | null } } = await call(
        base, 'GET', `/v1/fills?limit=1000${after === null ? '' : `&after=${after}`}`, { token },
      );
      assert.equal(res.status, 200);
      out.push(...res.body.fills);
      after = res.body.next_cursor;
    } while (after !== null);
    return out;
  };

  /** Fires N orders at once and waits until none is working. */
  const burst = async (token: string, side: 'buy' | 'sell', qty_1e8: number): Promise<{ orders: Order[]; fills: Fill[] }> => {
    const responses = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        call<Order>(base, 'POST', '/v1/orders', {
          token,
          body: { client_order_id: `${side}-burst-${i}`, symbol: SYMBOL, side, qty_1e8, order_type: 'market' },
        }),
      ),
    );
    for (const r of responses) assert.equal(r.status, 201, `every order is admitted (possibly to be rejected): ${r.status} ${JSON.stringify(r.body)}`);
    assert.equal(new Set(responses.map((r) => r.body.node_order_id)).size, N, 'N distinct orders');
    await until('no order working', async () => {
      const open = await call<{ total: number }>(base, 'GET', '/v1/orders?status=open', { token });
      return open.body.total === 0 ? true : undefined;
    }, 20_000, 100);
    const orders = await allOrders(token);
    const fills = await allFills(token);
    return { orders, fills };
  };

  /** What every burst must leave behind, whatever the market did. */
  const checkInvariants = (orders: Order[], fills: Fill[]) => {
    assert.equal(orders.length, N);
    for (const o of orders) assert.ok(TERMINAL.has(o.status), `every order terminal: ${o.node_order_id} ${o.status}`);
    assert.equal(new Set(fills.map((f) => f.id)).size, fills.length, 'fill ids unique');
    assert.equal(new Set(fills.map((f) => f.fill_id)).size, fills.length, 'fill_ids unique');
    const byOrder = new Map<string, number>();
    for (const f of fills) byOrder.set(f.node_order_id, (byOrder.get(f.node_order_id) ?? 0) + f.qty_1e8);
    for (const o of orders) {
      assert.equal(byOrder.get(o.node_order_id) ?? 0, o.filled_qty_1e8, `${o.node_order_id}: filled = sum of its fills`);
      assert.ok(o.filled_qty_1e8 <= o.qty_1e8, `${o.node_order_id} not overfilled`);
    }
  };

  before(async () => {
    svc = await startTestService({ simAccountUsd: SIM_ACCOUNT_USD });
    base = svc.base;
    await until('service ready', async () => ((await call(base, 'GET', '/v1/health/ready')).status === 200 ? true : undefined), 30_000);
  });

  after(async () => {
    await svc?.stop();
  });

  /** 200 market buys of 1 BTC against $200,000 on each funded venue: the fills never cost more than the cash. */
  const buysNeverOverspend = async (t: { diagnostic(message: string): void }, token: string): Promise<void> => {
    await until('a live BTC-USDT quote', async () => {
      const res = await call<{ source: string }>(base, 'GET', `/v1/quotes/${SYMBOL}`, { token });
      return res.status === 200 && res.body.source === 'edge_nbbo' ? true : undefined;
    }, 15_000, 100);
    // 1 BTC each, about $96,000 (several book levels, so a leg still fills when the book moves a
    // tick between routing and execution): 200 of them want about $19M against $600,000.
    const { orders, fills } = await burst(token, 'buy', 100_000_000);
    checkInvariants(orders, fills);
    t.diagnostic(`buys: ${orders.filter((o) => o.children.some((c) => c.status !== 'rejected')).length} sent to venues, ${orders.filter((o) => o.filled_qty_1e8 > 0).length} filled, ${fills.length} fills`);
    assert.ok(orders.some((o) => o.status === 'REJECTED' || o.filled_qty_1e8 < o.qty_1e8), 'the balance ran out for some orders');
    // Legs that fill only partly release the rest of their reservation, which later orders may
    // then reserve: the sum of legs ever sent can exceed the cash. What must hold is below: the
    // fills never cost more than the cash, the balance never goes negative, nothing stays locked.
    const cash = BigInt(SIM_ACCOUNT_USD) * 100_000_000n;
    const rows = await positions(token);
    for (const venue of FUNDED) {
      const mine = fills.filter((f) => f.venue === venue);
      const spent = mine.reduce((s, f) => s + buyDebit(f), 0n);
      const bought = mine.reduce((s, f) => s + BigInt(f.qty_1e8), 0n);
      assert.ok(spent <= cash, `${venue}: fills cost ${spent} (with fees) <= the ${cash} it had`);
      const usdt = qty(rows, venue, 'USDT')!;
      assert.ok(usdt >= 0n, `${venue} USDT never negative: ${usdt}`);
      assert.equal(usdt, cash - spent, `${venue} USDT = cash - fills`);
      assert.equal(qty(rows, venue, 'BTC'), SEED_BTC_1E8 + bought, `${venue} BTC = seed + fills`);
    }
    for (const row of rows) {
      assert.equal(row.locked_qty_1e8, 0, `no reservation left: ${JSON.stringify(row)}`);
      assert.equal(row.available_qty_1e8, row.qty_1e8);
    }
    const risk = await call<{ working_orders: number; reserved: unknown[] }>(base, 'GET', '/v1/risk', { token });
    assert.equal(risk.body.working_orders, 0);
    assert.deepEqual(risk.body.reserved, []);
  };

  it('200 market buys against $200,000 a venue never spend more than the cash', async (t) => {
    await buysNeverOverspend(t, await newFundedClient('burst-buyer'));
  });

  it('sandbox: 200 market buys against $200,000 of sandbox cash a venue never spend more, as live', async (t) => {
    const storage = svc.service.storage;
    await storage.clients.put({ client_id: 'burst-paper', tier: 'enterprise', rate_limit_qps: 2_000, is_admin: false, created_at_ms: Date.now() });
    const token = (await storage.apiKeys.create('burst-paper', { label: 'sandbox', sandbox: true })).raw_key;
    assert.equal((await call(base, 'POST', '/v1/sandbox/reset', { token })).status, 200);
    // The same accounts as the live client's: USDT and 1 BTC on the three venues, nothing elsewhere.
    const positions = FUNDED.flatMap((venue) => [
      { venue, kind: 'crypto', symbol: 'USDT', qty: SIM_ACCOUNT_USD },
      { venue, kind: 'crypto', symbol: 'BTC', qty: Number(SEED_BTC_1E8) / 1e8 },
    ]);
    const written = await call(base, 'POST', '/v1/sandbox/positions', { token, body: { replace: true, positions } });
    assert.equal(written.status, 200, JSON.stringify(written.body));
    await buysNeverOverspend(t, token);
  });

  it('200 market sells against 1 BTC a venue never sell more than is held', async (t) => {
    const token = await newFundedClient('burst-seller');
    // 0.25 BTC each: 200 of them offer 50 BTC against 3 BTC held.
    const { orders, fills } = await burst(token, 'sell', 25_000_000);
    checkInvariants(orders, fills);
    t.diagnostic(`sells: ${orders.filter((o) => o.children.some((c) => c.status !== 'rejected')).length} sent to venues, ${orders.filter((o) => o.filled_qty_1e8 > 0).length} filled, ${fills.length} fills`);
    for (const venue of FUNDED) {
      const sent = orders.flatMap((o) => o.children.filter((c) => c.venue === venue && c.status !== 'rejected'));
      const offered = sent.reduce((s, c) => s + BigInt(c.qty_1e8), 0n);
      assert.ok(offered <= SEED_BTC_1E8, `${venue}: legs sent offer ${offered} of the ${SEED_BTC_1E8} held`);
    }
    const rows = await positions(token);
    const cash = BigInt(SIM_ACCOUNT_USD) * 100_000_000n;
    for (const venue of FUNDED) {
      const mine = fills.filter((f) => f.venue === venue);
      for (const f of mine) assert.equal(f.side, 'sell');
      const sold = mine.reduce((s, f) => s + BigInt(f.qty_1e8), 0n);
      assert.ok(sold <= SEED_BTC_1E8, `${venue}: sold ${sold} <= the ${SEED_BTC_1E8} held`);
      assert.equal(qty(rows, venue, 'BTC'), SEED_BTC_1E8 - sold, `${venue} BTC = seed - sold`);
      assert.equal(qty(rows, venue, 'USDT'), cash + mine.reduce((s, f) => s + sellCredit(f), 0n), `${venue} USDT = cash + proceeds - fees`);
    }
    for (const row of rows) {
      assert.ok(row.qty_1e8 >= 0, `no negative balance: ${JSON.stringify(row)}`);
      assert.equal(row.locked_qty_1e8, 0, `no reservation left: ${JSON.stringify(row)}`);
    }
  });
});
