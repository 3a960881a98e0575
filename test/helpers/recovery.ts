import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { call } from './service.ts';

/**
 * What crash-recovery tests read back from a restarted service and the invariants they check:
 * every fill once, each order's filled quantity equal to its fills, nothing working, positions
 * equal to the seeded balances plus the fills (buys; ledger rules in docs/positions-and-tca.md).
 */
export const TERMINAL = new Set(['COMPLETED', 'CANCELLED', 'REJECTED', 'UNRESOLVED']);

export interface Fill {
  id: number;
  fill_id: string;
  node_order_id: string;
  venue: string;
  qty_1e8: number;
  price_1e9: number;
  fee_1e9: number;
}

export interface Order {
  node_order_id: string;
  client_order_id: string;
  status: string;
  qty_1e8: number;
  filled_qty_1e8: number;
  reconciliation_state: string;
  execution_type: string;
  graph_id: string;
  failure_class: string | null;
  children: { status: string }[];
}

export interface Position {
  venue: string;
  instrument: { symbol?: string; code?: string };
  qty_1e8: number;
  locked_qty_1e8: number;
}

/** Resolves once the process is gone; bounded. */
export function exitOf(child: ChildProcess, timeoutMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`process did not exit within ${timeoutMs} ms`)), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** What a buy fill takes from the quote balance: notional rounded up, fee (1e9 -> 1e8) rounded up. */
export const buyDebit = (f: Fill): bigint => (BigInt(f.price_1e9) * BigInt(f.qty_1e8) + 999_999_999n) / 1_000_000_000n + (BigInt(f.fee_1e9) + 9n) / 10n;

async function paged<T>(base: string, token: string, path: string, key: 'orders' | 'fills'): Promise<T[]> {
  const out: T[] = [];
  let after: string | null = null;
  do {
    const res: { status: number; body: Record<string, unknown> } = await call(base, 'GET', `${path}?limit=1000${after === null ? '' : `&after=${after}`}`, { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    out.push(...(res.body[key] as T[]));
    after = res.body['next_cursor'] as string | null;
  } while (after !== null);
  return out;
}

export const allOrders = (base: string, token: string): Promise<Order[]> => paged<Order>(base, token, '/v1/orders', 'orders');
export const allFills = (base: string, token: string): Promise<Fill[]> => paged<Fill>(base, token, '/v1/fills', 'fills');

export async function positions(base: string, token: string): Promise<Position[]> {
  const res = await call<{ positions: Position[] }>(base, 'GET', '/v1/positions?include_closed=true', { token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.positions;
}

export function qtyOf(rows: Position[], venue: string, asset: string): bigint | undefined {
  const row = rows.find((p) => p.venue === venue && (p.instrument.symbol ?? p.instrument.code) === asset);
  return row === undefined ? undefined : BigInt(row.qty_1e8);
}

/** Positions are exactly the seeds plus the (buy) fills on each funded venue, with nothing reserved. */
export function assertLedgerMatchesFills(rows: Position[], fills: Fill[], seeds: { venues: readonly string[]; cash_1e8: bigint; btc_1e8: bigint }, when: string): void {
  for (const venue of seeds.venues) {
    const mine = fills.filter((f) => f.venue === venue);
    const bought = mine.reduce((s, f) => s + BigInt(f.qty_1e8), 0n);
    const spent = mine.reduce((s, f) => s + buyDebit(f), 0n);
    assert.equal(qtyOf(rows, venue, 'BTC'), seeds.btc_1e8 + bought, `${when}: ${venue} BTC = seed + ${mine.length} fills`);
    assert.equal(qtyOf(rows, venue, 'USDT'), seeds.cash_1e8 - spent, `${when}: ${venue} USDT = seed - cost - fees of ${mine.length} fills`);
    assert.equal(qtyOf(rows, venue, 'USDC'), seeds.cash_1e8, `${when}: ${venue} USDC untouched`);
  }
  for (const row of rows) assert.equal(row.locked_qty_1e8, 0, `${when}: nothing stays reserved: ${JSON.stringify(row)}`);
}

/** Every fill once, every order terminal (or armed and parked), each order's filled = its fills. */
export function assertOrdersMatchFills(orders: Order[], fills: Fill[], when: string): void {
  assert.equal(new Set(fills.map((f) => f.id)).size, fills.length, `${when}: fill ids unique`);
  assert.equal(new Set(fills.map((f) => f.fill_id)).size, fills.length, `${when}: fill_ids unique`);
  const ids = new Set(orders.map((o) => o.node_order_id));
  for (const f of fills) assert.ok(ids.has(f.node_order_id), `${when}: fill ${f.fill_id} belongs to a stored order`);
  const filled = new Map<string, number>();
  for (const f of fills) filled.set(f.node_order_id, (filled.get(f.node_order_id) ?? 0) + f.qty_1e8);
  for (const o of orders) {
    const parked = o.status === 'WAITING' && o.execution_type === 'armed';
    assert.ok(TERMINAL.has(o.status) || parked, `${when}: ${o.node_order_id} is terminal (or armed), not ${o.status}`);
    assert.equal(filled.get(o.node_order_id) ?? 0, o.filled_qty_1e8, `${when}: ${o.node_order_id} filled = sum of its fills`);
  }
}
