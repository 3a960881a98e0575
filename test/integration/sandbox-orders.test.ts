/**
 * Sandbox orders against the real service (gateway, two workers, simulated venues, LMDB): a
 * sandbox key resets its account, then trades BTC-USDT through the same admission, SOR, legs and
 * edges as live; the edges fill its legs in their sandbox venues (against the real book at
 * arrival, never changing it: docs/sandbox-simulator.md). The same account's live key sees none
 * of it, and a sandbox account that was never reset has nothing to trade with.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, startTestService, type TestService, until, clientWithKeys } from '../helpers/service.ts';
import { TERMINAL, type ApiFill as Fill, type ApiOrder } from '../helpers/orders.ts';
import { SseClient } from '../helpers/sse-client.ts';
import { StreamClient } from '../helpers/stream-client.ts';

const SYMBOL = 'BTC-USDT';

describe('sandbox orders (real service)', () => {
  let svc: TestService;
  let base: string;
  let live: string;
  let sandbox: string;

  const keysOf = (clientId: string) => clientWithKeys(svc, clientId);
  const submit = (token: string, body: Record<string, unknown>) => call<ApiOrder>(base, 'POST', '/v1/orders', { token, body });
  const getOrder = async (token: string, id: string): Promise<ApiOrder & { fills: Fill[] | null }> => {
    const res = await call<ApiOrder & { fills: Fill[] | null }>(base, 'GET', `/v1/orders/${id}?expand=fills`, { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  const terminal = (token: string, id: string) =>
    until(`order ${id} terminal`, async () => {
      const o = await getOrder(token, id);
      return TERMINAL.has(o.status) ? o : undefined;
    });
  const btc = async (token: string): Promise<Map<string, number>> => {
    const res = await call<{ positions: { venue: string; instrument: { symbol?: string }; qty_1e8: number; is_sandbox: boolean }[] }>(base, 'GET', '/v1/positions', { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const out = new Map<string, number>();
    for (const p of res.body.positions) if (p.instrument.symbol === 'BTC') out.set(p.venue, p.qty_1e8);
    return out;
  };

  before(async () => {
    svc = await startTestService({ maxOrderNotionalUsd: 10_000_000 });
    base = svc.base;
    await until('service ready', async () => ((await call(base, 'GET', '/v1/health/ready')).status === 200 ? true : undefined), 30_000);
    ({ live, sandbox } = await keysOf('paper-trader'));
    const reset = await call(base, 'POST', '/v1/sandbox/reset', { token: sandbox });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    // The edges stream BTC-USDT once something asks for it: a quote subscribes every venue.
    await until('BTC-USDT quoted', async () => ((await call(base, 'GET', `/v1/quotes/${SYMBOL}`, { token: sandbox })).status === 200 ? true : undefined), 15_000);
  });

  after(async () => {
    await svc?.stop();
  });

  it('a sandbox market buy routes, fills in the sandbox venues and moves only sandbox positions', async () => {
    const before = await btc(sandbox);
    const placed = await submit(sandbox, { client_order_id: 'sbx-buy-1', symbol: SYMBOL, side: 'buy', qty_1e8: 1_000_000, order_type: 'market' });
    assert.equal(placed.status, 201, JSON.stringify(placed.body));
    assert.equal(placed.body.is_sandbox, true);
    const order = await terminal(sandbox, placed.body.node_order_id);
    assert.equal(order.status, 'COMPLETED', JSON.stringify(order));
    assert.equal(order.filled_qty_1e8, 1_000_000);
    const fills = order.fills ?? [];
    assert.ok(fills.length > 0);
    for (const f of fills) assert.match(f.trade_id, /^sbx-/, 'a sandbox venue trade id, never the venue tape');
    assert.equal(fills.reduce((s, f) => s + f.qty_1e8, 0), 1_000_000);
    const after = await btc(sandbox);
    for (const [venue, qty] of after) {
      const bought = fills.filter((f) => f.venue === venue).reduce((s, f) => s + f.qty_1e8, 0);
      assert.equal(qty - (before.get(venue) ?? 0), bought, `${venue}: the position moved by exactly its fills`);
    }
  });

  it('the live key of the same account sees no sandbox order, fill or position, and the sandbox key no live one', async () => {
    const liveOrders = await call<{ orders: { node_order_id: string }[] }>(base, 'GET', '/v1/orders', { token: live });
    assert.equal(liveOrders.status, 200, JSON.stringify(liveOrders.body));
    assert.deepEqual(liveOrders.body.orders, []);
    const liveFills = await call<{ fills: unknown[] }>(base, 'GET', '/v1/fills', { token: live });
    assert.equal(liveFills.status, 200, JSON.stringify(liveFills.body));
    assert.deepEqual(liveFills.body.fills, []);
    assert.equal((await btc(live)).size, 0, 'no live positions');
    const sandboxOrders = await call<{ orders: { node_order_id: string; is_sandbox: boolean }[] }>(base, 'GET', '/v1/orders', { token: sandbox });
    assert.ok(sandboxOrders.body.orders.length > 0);
    for (const o of sandboxOrders.body.orders) assert.equal(o.is_sandbox, true);
    const one = sandboxOrders.body.orders[0]!.node_order_id;
    assert.equal((await call(base, 'GET', `/v1/orders/${one}`, { token: live })).status, 404, 'a sandbox id is not found with the live key');
  });

  it('a sandbox sell returns what was bought; a GTC bid far below the market rests, then cancels', async () => {
    const sold = await submit(sandbox, { client_order_id: 'sbx-sell-1', symbol: SYMBOL, side: 'sell', qty_1e8: 1_000_000, order_type: 'market' });
    assert.equal(sold.status, 201, JSON.stringify(sold.body));
    assert.equal((await terminal(sandbox, sold.body.node_order_id)).status, 'COMPLETED');

    const q = await call<{ nbbo: { bid: number } }>(base, 'GET', `/v1/quotes/${SYMBOL}`, { token: sandbox });
    const far = Math.floor(q.body.nbbo.bid / 2) * 1e9;
    const placed = await submit(sandbox, { client_order_id: 'sbx-gtc-1', symbol: SYMBOL, side: 'buy', qty_1e8: 100_000, order_type: 'limit', limit_price_1e9: far, time_in_force: 'gtc' });
    assert.equal(placed.status, 201, JSON.stringify(placed.body));
    await until('resting', async () => ((await getOrder(sandbox, placed.body.node_order_id)).status === 'ACTIVE' ? true : undefined));
    const cancelled = await call<{ status: string }>(base, 'DELETE', `/v1/orders/${placed.body.node_order_id}`, { token: sandbox });
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.equal(cancelled.body.status, 'CANCELLED');
  });

  it('a sandbox bid at the best bid fills as maker once the market trades at or through it (queue position), with sandbox positions moving', async () => {
    let filled: (ApiOrder & { fills: Fill[] | null }) | undefined;
    for (let attempt = 0; attempt < 4 && filled === undefined; attempt++) {
      const q = await call<{ nbbo: { bid: number } }>(base, 'GET', `/v1/quotes/${SYMBOL}`, { token: sandbox });
      const bid_1e9 = Math.round(q.body.nbbo.bid * 100) * 10_000_000;
      const placed = await submit(sandbox, { client_order_id: `sbx-join-${attempt}`, symbol: SYMBOL, side: 'buy', qty_1e8: 100_000, order_type: 'limit', limit_price_1e9: bid_1e9, time_in_force: 'gtc' });
      assert.equal(placed.status, 201, JSON.stringify(placed.body));
      const id = placed.body.node_order_id;
      filled = await until(
        'a maker fill',
        async () => {
          const o = await getOrder(sandbox, id);
          return o.filled_qty_1e8 > 0 ? o : undefined;
        },
        8_000,
        100,
      ).catch(() => undefined);
      // The market can move down between the quote read and the bid's arrival: then the bid
      // crosses and fills as taker, which is right but not what this test is about; try again.
      if (filled !== undefined && !(filled.fills ?? []).every((f) => f.is_maker)) filled = undefined;
      if (filled === undefined) await call(base, 'DELETE', `/v1/orders/${id}`, { token: sandbox });
    }
    assert.ok(filled !== undefined, 'a bid at the best bid fills within a few tries');
    const fills = filled.fills ?? [];
    assert.ok(fills.length > 0 && fills.every((f) => f.is_maker && /^sbx-/.test(f.trade_id)), JSON.stringify(fills));
    for (const f of fills) assert.ok(f.price_1e9 <= (filled.limit_price_1e9 as number), 'never above its limit');
  });

  it('streams: the sandbox key hears its order on orders, fills, routing and tca; the same account live and another sandbox client hear nothing', async () => {
    const port = svc.service.port;
    const channels = ['orders', 'fills', 'routing', 'tca'];
    const open = async (token: string): Promise<StreamClient> => {
      const ticket = await call<{ ticket: string }>(base, 'GET', '/v1/ws/ticket', { token });
      assert.equal(ticket.status, 200, JSON.stringify(ticket.body));
      const stream = await StreamClient.open(`ws://127.0.0.1:${port}/v1/stream?ticket=${ticket.body.ticket}`);
      stream.send({ subscribe: channels });
      assert.deepEqual(await stream.next((f) => f.type === 'subscribed'), { type: 'subscribed', channels });
      return stream;
    };
    const stranger = await keysOf('stream-stranger');
    const [mine, liveSide, other] = await Promise.all([open(sandbox), open(live), open(stranger.sandbox)]);
    // The SSE streams too: the sandbox key's tca report, none on the live key's.
    const [mineTca, liveTca, liveRisk] = await Promise.all([
      SseClient.open(port, '/v1/tca/stream', sandbox),
      SseClient.open(port, '/v1/tca/stream', live),
      SseClient.open(port, '/v1/risk/stream', live),
    ]);
    await liveRisk.next('risk', 5_000); // the read-out it opens with
    try {
      const placed = await submit(sandbox, { client_order_id: 'sbx-stream-1', symbol: SYMBOL, side: 'buy', qty_1e8: 100_000, order_type: 'market' });
      assert.equal(placed.status, 201, JSON.stringify(placed.body));
      const id = placed.body.node_order_id;
      const ofOrder = (channel: string) => (f: { channel?: string; data?: Record<string, unknown> }) => f.channel === channel && f.data?.['node_order_id'] === id;
      for (const channel of channels) await mine.next(ofOrder(channel), 5_000);
      // Everything of that order has been published by now: nothing of it reached the others.
      const leaked = (f: { type?: string; channel?: string }) => f.type === 'data' && channels.includes(f.channel ?? '');
      await assert.rejects(liveSide.next(leaked, 300), 'the live key of the same account heard nothing');
      await assert.rejects(other.next(leaked, 1), "another client's sandbox key heard nothing");
      const report = await mineTca.next('tca_report', 5_000);
      assert.equal((report.data as { node_order_id?: string }).node_order_id, id);
      await assert.rejects(liveTca.next('tca_report', 300), "no tca report on the live key's stream");
      await assert.rejects(liveRisk.next('risk', 1), "the live key's risk stream did not move for a sandbox order");
    } finally {
      for (const s of [mine, liveSide, other, mineTca, liveTca, liveRisk]) s.close();
    }
  });

  it("the client's fault settings reach the edges after a reset: reject_rate 1 refuses every leg", async () => {
    const other = await keysOf('always-refused');
    const put = await call(base, 'PUT', '/v1/sandbox/settings', { token: other.sandbox, body: { initial_balance_usd: 1_000_000, reject_rate: 1 } });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.equal((await call(base, 'POST', '/v1/sandbox/reset', { token: other.sandbox })).status, 200);
    const placed = await submit(other.sandbox, { client_order_id: 'sbx-refused-1', symbol: SYMBOL, side: 'buy', qty_1e8: 100_000, order_type: 'market' });
    assert.equal(placed.status, 201, JSON.stringify(placed.body));
    const order = await terminal(other.sandbox, placed.body.node_order_id);
    assert.equal(order.filled_qty_1e8, 0, JSON.stringify(order));
    assert.ok(order.children.length > 0 && order.children.every((c) => c.status === 'rejected' && c.reason === 'venue_rejected'), JSON.stringify(order.children));
  });

  it('disconnect_rate 1: every answer is lost; reconciliation finds what the sandbox venue did and books it once, never guessed', async () => {
    const other = await keysOf('always-lost');
    assert.equal((await call(base, 'PUT', '/v1/sandbox/settings', { token: other.sandbox, body: { initial_balance_usd: 1_000_000, disconnect_rate: 1 } })).status, 200);
    assert.equal((await call(base, 'POST', '/v1/sandbox/reset', { token: other.sandbox })).status, 200);
    const placed = await submit(other.sandbox, { client_order_id: 'sbx-lost-1', symbol: SYMBOL, side: 'buy', qty_1e8: 100_000, order_type: 'market' });
    assert.equal(placed.status, 201, JSON.stringify(placed.body));
    // The leg times out (2 s), then the router asks the edge what happened (backoffs of 250 ms).
    const order = await until(
      'reconciled to a final state',
      async () => {
        const o = await getOrder(other.sandbox, placed.body.node_order_id);
        return TERMINAL.has(o.status) ? o : undefined;
      },
      20_000,
      200,
    );
    assert.equal(order.reconciliation_state, 'reconciled', JSON.stringify(order));
    assert.equal(order.status, 'COMPLETED', 'the venue had filled it: the reconciled answer says so');
    const fills = order.fills ?? [];
    assert.equal(fills.reduce((sum, f) => sum + f.qty_1e8, 0), order.filled_qty_1e8);
    assert.equal(new Set(fills.map((f) => f.trade_id)).size, fills.length, 'each venue trade booked once');
    assert.equal(order.filled_qty_1e8, 100_000);
  });

  it('partial_fill_rate 1: every leg fills strictly fewer lots than the book allowed; the order ends short, booked exactly, nothing left reserved', async () => {
    const other = await keysOf('always-partial');
    assert.equal((await call(base, 'PUT', '/v1/sandbox/settings', { token: other.sandbox, body: { initial_balance_usd: 1_000_000, partial_fill_rate: 1 } })).status, 200);
    assert.equal((await call(base, 'POST', '/v1/sandbox/reset', { token: other.sandbox })).status, 200);
    const qty = 2_000_000;
    const placed = await submit(other.sandbox, { client_order_id: 'sbx-partial-1', symbol: SYMBOL, side: 'buy', qty_1e8: qty, order_type: 'market' });
    assert.equal(placed.status, 201, JSON.stringify(placed.body));
    const order = await terminal(other.sandbox, placed.body.node_order_id);
    assert.ok(order.filled_qty_1e8 < qty, `cut short: ${order.filled_qty_1e8} of ${qty}`);
    assert.equal(order.status, order.filled_qty_1e8 > 0 ? 'CANCELLED' : 'REJECTED', JSON.stringify(order));
    assert.equal(order.failure_class, order.filled_qty_1e8 > 0 ? 'ioc_remainder' : 'no_fill');
    for (const c of order.children) assert.ok(c.filled_qty_1e8 < c.qty_1e8, `leg ${c.child_id} cut: ${c.filled_qty_1e8} of ${c.qty_1e8}`);
    const fills = order.fills ?? [];
    assert.equal(fills.reduce((sum, f) => sum + f.qty_1e8, 0), order.filled_qty_1e8);
    const held = await btc(other.sandbox);
    assert.equal([...held.values()].reduce((a, b) => a + b, 0), order.filled_qty_1e8, 'the BTC positions hold exactly what filled');
    const risk = await call<{ reserved: unknown[]; working_orders: number }>(base, 'GET', '/v1/risk', { token: other.sandbox });
    assert.deepEqual([risk.body.reserved, risk.body.working_orders], [[], 0], 'the unfilled part released its reservation');
  });

  it('cancel_race: a cancel arrives after a fill; the fill is booked (maker, at the limit), then the rest is cancelled', async () => {
    const other = await keysOf('cancel-racer');
    assert.equal((await call(base, 'PUT', '/v1/sandbox/settings', { token: other.sandbox, body: { initial_balance_usd: 1_000_000, cancel_race: true } })).status, 200);
    assert.equal((await call(base, 'POST', '/v1/sandbox/reset', { token: other.sandbox })).status, 200);
    const q = await call<{ nbbo: { bid: number } }>(base, 'GET', `/v1/quotes/${SYMBOL}`, { token: other.sandbox });
    const far = Math.floor(q.body.nbbo.bid / 2) * 1e9;
    const qty = 1_000_000;
    const placed = await submit(other.sandbox, { client_order_id: 'sbx-race-1', symbol: SYMBOL, side: 'buy', qty_1e8: qty, order_type: 'limit', limit_price_1e9: far, time_in_force: 'gtc' });
    assert.equal(placed.status, 201, JSON.stringify(placed.body));
    await until('resting', async () => ((await getOrder(other.sandbox, placed.body.node_order_id)).status === 'ACTIVE' ? true : undefined));
    const cancelled = await call<{ status: string }>(base, 'DELETE', `/v1/orders/${placed.body.node_order_id}`, { token: other.sandbox });
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    const order = await terminal(other.sandbox, placed.body.node_order_id);
    assert.ok(order.filled_qty_1e8 > 0, 'the racing fill was booked, not lost behind the cancel');
    assert.equal(order.status, order.filled_qty_1e8 === qty ? 'COMPLETED' : 'CANCELLED', JSON.stringify(order));
    const fills = order.fills ?? [];
    assert.equal(fills.reduce((sum, f) => sum + f.qty_1e8, 0), order.filled_qty_1e8);
    for (const f of fills) {
      assert.equal(f.is_maker, true);
      assert.equal(f.price_1e9, far, 'at the resting price, never better');
    }
    const held = await btc(other.sandbox);
    assert.equal([...held.values()].reduce((a, b) => a + b, 0), order.filled_qty_1e8);
    const risk = await call<{ reserved: unknown[]; working_orders: number }>(base, 'GET', '/v1/risk', { token: other.sandbox });
    assert.deepEqual([risk.body.reserved, risk.body.working_orders], [[], 0]);
  });

  it('a sandbox account that was never reset has no balances to trade with', async () => {
    const other = await keysOf('never-reset');
    const placed = await submit(other.sandbox, { client_order_id: 'sbx-none-1', symbol: SYMBOL, side: 'buy', qty_1e8: 100_000, order_type: 'market' });
    assert.equal(placed.status, 201, JSON.stringify(placed.body));
    const order = await terminal(other.sandbox, placed.body.node_order_id);
    assert.equal(order.status, 'REJECTED', JSON.stringify(order));
    assert.equal(order.filled_qty_1e8, 0);
  });
});
