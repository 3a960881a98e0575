/**
 * OKX on its live adapter (LIVE_VENUES=okx) against a local OKX v5 fake on loopback
 * (test/fakes/okx-fake.ts), through the real service: the fake's book in /v1/quotes, kept whole
 * through a sequence gap and a checksum mismatch (resubscribed, a fresh snapshot), a market
 * order signed with the passphrase, placed under an OKX clOrdId made from our child id, its
 * fills read back with OKX's trade ids and fees, a wrong secret refused with OKX's message, a
 * lost answer reconciled without a duplicate, and the kill switch's cancel-all.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OkxFake } from '../fakes/okx-fake.ts';
import { call, clientWithKeys, startTestService, TEST_OPERATOR_KEY, until, type TestService } from '../helpers/service.ts';
import { TERMINAL, type ApiFill, type ApiOrder } from '../helpers/orders.ts';
import { okxClientOrderId } from '../../actors/edge/live/okx/codec.ts';

const SYMBOL = 'BTC-USDT';
const KEY = 'fake-okx-key-0123456789';
const SECRET = 'fake-okx-secret-0123456789abcdef';
const PASSPHRASE = 'fake-passphrase';
const P = 1e9;
const Q = 1e8;

describe('live OKX adapter against a local fake', { timeout: 120_000 }, () => {
  let fake: OkxFake;
  let svc: TestService;
  let token: string;
  let mid = 0;

  const order = async (body: Record<string, unknown>, t = token) => {
    const res = await call<ApiOrder>(svc.base, 'POST', '/v1/orders', { token: t, body: { symbol: SYMBOL, venue: 'okx', ...body } });
    assert.ok(res.status === 201 || res.status === 200, JSON.stringify(res.body));
    return res.body;
  };
  const settled = (id: string, t = token, timeoutMs = 20_000) =>
    until(`order ${id} settles`, async () => {
      const res = await call<ApiOrder & { fills?: (ApiFill & { commission_asset: string })[] }>(svc.base, 'GET', `/v1/orders/${id}?expand=fills`, { token: t });
      return TERMINAL.has(res.body.status) ? res.body : undefined;
    }, timeoutMs, 100);
  const okxQuote = () => call<{ venues: Record<string, { bid: number; ask: number }> }>(svc.base, 'GET', `/v1/quotes/${SYMBOL}`, { token: TEST_OPERATOR_KEY }).then((r) => r.body.venues['okx']);

  before(async () => {
    fake = new OkxFake(
      [{ symbol: 'BTC-USDT', base: 'BTC', quote: 'USDT', bids: [], asks: [] }],
      [{ apiKey: KEY, secret: SECRET, passphrase: PASSPHRASE, balances: { USDT: { free: 100_000 * Q, locked: 0 }, BTC: { free: 1 * Q, locked: 0 } } }],
    );
    const urls = await fake.listen();
    svc = await startTestService({ liveVenues: [{ venue: 'okx', endpoints: urls }] });
    await until('service ready', async () => ((await call(svc.base, 'GET', '/v1/health/ready')).status === 200 ? true : undefined), 30_000);
    const others = await until('a simulated NBBO', async () => {
      const q = await call<{ nbbo: { mid: number } }>(svc.base, 'GET', `/v1/quotes/${SYMBOL}`, { token: TEST_OPERATOR_KEY });
      return q.status === 200 && q.body.nbbo.mid > 0 ? q.body.nbbo.mid : undefined;
    }, 15_000);
    mid = Math.round(others) * P;
    for (let i = 0; i < 5; i++) {
      fake.setLevel('BTC-USDT', 'bid', mid - (i + 1) * P, (i + 1) * 10_000_000);
      fake.setLevel('BTC-USDT', 'ask', mid + (i + 1) * P, (i + 1) * 10_000_000);
    }
    ({ live: token } = await clientWithKeys(svc, 'okx-live'));
    const stored = await call(svc.base, 'POST', '/v1/credentials/okx', { token, body: { api_key: KEY, api_secret: SECRET, passphrase: PASSPHRASE } });
    assert.equal(stored.status, 200, JSON.stringify(stored.body));
  });

  after(async () => {
    await svc?.stop();
    await fake?.close();
  });

  it("streams the fake's book into /v1/quotes, checked by sequence and checksum", async () => {
    const quote = await until('okx in the quote', async () => {
      const q = await okxQuote();
      return q !== undefined && q.ask === mid / P + 1 && q.bid === mid / P - 1 ? q : undefined;
    });
    assert.ok(quote !== undefined && fake.seen.subscribes >= 1);
  });

  it('a sequence gap and a checksum mismatch each resubscribe for a fresh snapshot', async () => {
    const subscribes = fake.seen.subscribes;
    fake.gap('BTC-USDT');
    fake.setLevel('BTC-USDT', 'ask', mid + P / 2, 20_000_000);
    await until('resynced after the gap', async () => (fake.seen.subscribes > subscribes && (await okxQuote())?.ask === mid / P + 0.5 ? true : undefined));
    const again = fake.seen.subscribes;
    fake.corruptNextChecksum = true;
    fake.setLevel('BTC-USDT', 'ask', mid + P / 2, 0);
    await until('resynced after the checksum mismatch', async () => (fake.seen.subscribes > again && (await okxQuote())?.ask === mid / P + 1 ? true : undefined));
  });

  it('routes a market order: placed under the clOrdId of our child id, its fills read back with trade ids and fees', async () => {
    await until('balances pulled', async () => {
      const res = await call<{ positions: { instrument: { symbol: string }; qty_1e8: number }[] }>(svc.base, 'GET', '/v1/positions?venues=okx', { token });
      return res.body.positions?.find((p) => p.instrument.symbol === 'USDT')?.qty_1e8 === 100_000 * Q ? true : undefined;
    });
    const placed = await order({ client_order_id: 'okx-1', side: 'buy', qty_1e8: 15_000_000, order_type: 'market' });
    const done = await settled(placed.node_order_id);
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    const child = done.children[0]!;
    const venueOrder = fake.order(KEY, okxClientOrderId(child.child_id)!);
    assert.ok(venueOrder !== undefined, 'the venue knows the order by the clOrdId of our child id');
    const trades = fake.tradesOf(venueOrder.orderId);
    assert.equal(trades.length, 2);
    const fills = done.fills ?? [];
    assert.deepEqual(fills.map((f) => f.trade_id).sort(), trades.map((t) => String(t.id)).sort());
    for (const f of fills) {
      const t = trades.find((x) => String(x.id) === f.trade_id)!;
      assert.equal(f.commission_asset, 'BTC');
      assert.equal(f.fee_1e9, Math.ceil((t.commission * t.price) / Q));
    }
  });

  it("a wrong secret is refused by the venue: the child is rejected with OKX's message", async () => {
    const { live: other } = await clientWithKeys(svc, 'okx-rotated');
    assert.equal((await call(svc.base, 'POST', '/v1/credentials/okx', { token: other, body: { api_key: KEY, api_secret: SECRET, passphrase: PASSPHRASE } })).status, 200);
    await until('balances pulled', async () => {
      const res = await call<{ positions: { instrument: { symbol: string } }[] }>(svc.base, 'GET', '/v1/positions?venues=okx', { token: other });
      return res.body.positions?.some((p) => p.instrument.symbol === 'USDT') === true ? true : undefined;
    });
    assert.equal((await call(svc.base, 'POST', '/v1/credentials/okx', { token: other, body: { api_key: KEY, api_secret: 'wrong-secret-0123456789', passphrase: PASSPHRASE } })).status, 200);
    const before = fake.seen.badSignatures;
    const placed = await order({ client_order_id: 'okx-bad', side: 'buy', qty_1e8: 1_000_000, order_type: 'market' }, other);
    const done = await settled(placed.node_order_id, other);
    assert.equal(done.status, 'REJECTED');
    assert.match(done.children[0]!.reason ?? '', /okx 50113: Invalid Sign/);
    assert.ok(fake.seen.badSignatures > before);
  });

  it('a lost answer is reconciled from the venue by clOrdId, never doubled', async () => {
    fake.swallowOrderAnswers = 1;
    const orders = fake.seen.orders;
    const placed = await order({ client_order_id: 'okx-lost', side: 'buy', qty_1e8: 1_000_000, order_type: 'market' });
    const done = await settled(placed.node_order_id, token, 40_000);
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    assert.equal(fake.seen.orders - orders, 1, 'placed once');
    const venueOrder = fake.order(KEY, okxClientOrderId(done.children[0]!.child_id)!)!;
    assert.deepEqual((done.fills ?? []).map((f) => f.trade_id), fake.tradesOf(venueOrder.orderId).map((t) => String(t.id)));
  });

  it('the kill switch cancels what rests on the venue', async () => {
    const resting = await order({ client_order_id: 'okx-gtc', side: 'buy', qty_1e8: 2_000_000, order_type: 'limit', limit_price_1e9: mid - 20 * P, time_in_force: 'gtc' });
    await until('the leg rests on the venue', async () => fake.openOrders(KEY)[0]);
    assert.equal((await call(svc.base, 'PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: true, reason: 'test' } })).status, 200);
    await until('nothing rests on the venue', async () => (fake.openOrders(KEY).length === 0 ? true : undefined));
    const done = await settled(resting.node_order_id);
    assert.equal(done.status, 'CANCELLED');
    await call(svc.base, 'PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: false } });
  });
});
