/**
 * Hyperliquid perpetuals on their live adapter (LIVE_VENUES=hyperliquid) against a local
 * Hyperliquid fake on loopback (test/fakes/hyperliquid-fake.ts), through the real service: the
 * fake's l2Book snapshots in /v1/quotes for the perp symbol, an older push dropped without a
 * resubscription, a dropped stream reconnected; a market order signed by the client's agent
 * (recovered by the fake from its signature), sent under the cloid of our child id with
 * `expiresAfter`, filled with the fake's tids and USDC fees and booked as a perp position; an
 * agent the venue does not know refused with Hyperliquid's own message; a lost answer reconciled
 * by cloid, placed once; a resting leg's maker fill, then the kill switch's cancel and its dead
 * man's switch; the edge's funding answered from the fake's fundingHistory and asset contexts.
 * Keys are generated here with @noble/curves.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { HyperliquidFake, type FakeFunding } from '../fakes/hyperliquid-fake.ts';
import { call, clientWithKeys, startTestService, TEST_OPERATOR_KEY, until, type TestService } from '../helpers/service.ts';
import { TERMINAL, type ApiFill, type ApiOrder } from '../helpers/orders.ts';
import { hyperliquidCloid } from '../../actors/edge/live/hyperliquid/codec.ts';

/**
 * The router opens a live account from the balances of the venue's spot edge only
 * (execution/service.ts `openSimAccount`), and Hyperliquid has none: its margin stays 0 and every
 * order is refused `insufficient_balance` before it reaches the edge. These tests pass once that
 * falls back to the venue's perp edge (`?? edgesOfVenue(venue)[0]`, as credential-probes.ts does).
 */

const SYMBOL = 'BTC-USDC';
const COIN = 'BTC';
const P = 1e9;
const Q = 1e8;

/** A fresh secp256k1 key and its address (keccak-256 of the uncompressed public key, last 20 bytes). */
function wallet(): { key: string; address: string } {
  const secret = secp256k1.utils.randomSecretKey();
  const address = Buffer.from(keccak_256(secp256k1.getPublicKey(secret, false).slice(1)).slice(12)).toString('hex');
  return { key: `0x${Buffer.from(secret).toString('hex')}`, address: `0x${address}` };
}

/** A decimal's text x `scale`, for the fake's figures. */
const scaled = (text: string, scale: number) => {
  const negative = text.startsWith('-');
  const [whole = '0', frac = ''] = text.replace('-', '').split('.');
  const places = String(scale).length - 1;
  const value = Number(whole) * scale + Number(frac.padEnd(places, '0').slice(0, places));
  return negative ? -value : value;
};

describe('live Hyperliquid adapter against a local fake', { timeout: 180_000 }, () => {
  const master = wallet();
  const agent = wallet();
  let fake: HyperliquidFake;
  let svc: TestService;
  let token: string;
  let mid = 0;
  let fundings: FakeFunding[] = [];

  const order = async (body: Record<string, unknown>, t = token) => {
    const res = await call<ApiOrder>(svc.base, 'POST', '/v1/orders', { token: t, body: { instrument: { symbol: SYMBOL, type: 'perp' }, venue: 'hyperliquid', ...body } });
    assert.ok(res.status === 201 || res.status === 200, JSON.stringify(res.body));
    return res.body;
  };
  const settled = (id: string, t = token, timeoutMs = 20_000) =>
    until(`order ${id} settles`, async () => {
      const res = await call<ApiOrder & { fills?: (ApiFill & { commission_asset: string })[] }>(svc.base, 'GET', `/v1/orders/${id}?expand=fills`, { token: t });
      return TERMINAL.has(res.body.status) ? res.body : undefined;
    }, timeoutMs, 100);
  const hlQuote = () =>
    call<{ venues: Record<string, { bid: number; ask: number }> }>(svc.base, 'GET', `/v1/quotes/${SYMBOL}?instrument_type=perp`, { token: TEST_OPERATOR_KEY }).then((r) => r.body.venues?.['hyperliquid']);
  const usdcPulled = (t: string, qty?: number) =>
    until('USDC balance pulled from the perp account', async () => {
      const res = await call<{ positions: { instrument: { code?: string; symbol?: string }; qty_1e8: number }[] }>(svc.base, 'GET', '/v1/positions?venues=hyperliquid', { token: t });
      const row = res.body.positions?.find((p) => p.instrument.code === 'USDC' || p.instrument.symbol === 'USDC');
      return row !== undefined && (qty === undefined || row.qty_1e8 === qty) ? true : undefined;
    }, 30_000, 200);

  before(async () => {
    fake = new HyperliquidFake(
      [{ symbol: COIN, base: COIN, quote: 'USDC', bids: [], asks: [], szDecimals: 5, maxLeverage: 40 }],
      [{ apiKey: master.address, secret: '', balances: { USDC: { free: 100_000 * Q, locked: 0 } } }],
    );
    fake.approveAgent(agent.address, master.address);
    const urls = await fake.listen();
    svc = await startTestService({ liveVenues: [{ venue: 'hyperliquid', endpoints: urls }] });
    await until('service ready', async () => ((await call(svc.base, 'GET', '/v1/health/ready')).status === 200 ? true : undefined), 30_000);
    // The perp book has no other venue: the spot NBBO places the fake's book where fair price expects it.
    const spot = await until('a simulated spot NBBO', async () => {
      const q = await call<{ nbbo: { mid: number } }>(svc.base, 'GET', `/v1/quotes/${SYMBOL}?instrument_type=spot`, { token: TEST_OPERATOR_KEY });
      return q.status === 200 && q.body.nbbo.mid > 0 ? q.body.nbbo.mid : undefined;
    }, 15_000);
    mid = Math.round(spot) * P;
    for (let i = 0; i < 5; i++) {
      fake.setLevel(COIN, 'bid', mid - (i + 1) * P, (i + 1) * 10_000_000);
      fake.setLevel(COIN, 'ask', mid + (i + 1) * P, (i + 1) * 10_000_000);
    }
    fundings = fake.seedFundings(COIN, 6, mid);
    ({ live: token } = await clientWithKeys(svc, 'hyperliquid-live'));
    const stored = await call(svc.base, 'POST', '/v1/credentials/hyperliquid', { token, body: { api_key: agent.address, api_secret: agent.key } });
    assert.equal(stored.status, 200, JSON.stringify(stored.body));
  });

  after(async () => {
    await svc?.stop();
    await fake?.close();
  });

  it("streams the fake's l2Book snapshots into /v1/quotes for the perp symbol", async () => {
    const quote = await until('hyperliquid in the perp quote', async () => {
      const q = await hlQuote();
      return q !== undefined && q.ask === mid / P + 1 && q.bid === mid / P - 1 ? q : undefined;
    });
    assert.ok(quote !== undefined && fake.seen.subscribes >= 1);
  });

  it('drops a push older than the book without resubscribing; a dropped stream reconnects and resyncs', async () => {
    const subscribes = fake.seen.subscribes;
    fake.pushStale(COIN);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const still = await hlQuote();
    assert.equal(still?.bid, mid / P - 1, 'the older push changed nothing');
    assert.equal(fake.seen.subscribes, subscribes, 'no resubscription for a stale push');
    fake.dropStreams();
    fake.setLevel(COIN, 'ask', mid + P, 0);
    await until('resynced after the reconnect', async () => (fake.seen.subscribes > subscribes && (await hlQuote())?.ask === mid / P + 2 ? true : undefined), 15_000);
    fake.setLevel(COIN, 'ask', mid + P, 10_000_000);
    await until('the level back', async () => ((await hlQuote())?.ask === mid / P + 1 ? true : undefined));
  });

  it('routes a market order: signed by the agent under the cloid of our child id, filled with the fake tids and USDC fees, booked as a perp position', async () => {
    await usdcPulled(token, 100_000 * Q);
    const placed = await order({ client_order_id: 'hl-1', side: 'buy', qty_1e8: 15_000_000, order_type: 'market' });
    const done = await settled(placed.node_order_id);
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    const child = done.children[0]!;
    const cloid = hyperliquidCloid(child.child_id)!;
    const venueOrder = fake.order(master.address, cloid);
    assert.ok(venueOrder !== undefined, 'the venue knows the order by the cloid of our child id');
    const sent = fake.lastOrder!;
    assert.equal(sent.expiresAfter, sent.nonce + 5_000, 'expiresAfter = nonce + the accept window');
    assert.equal(sent.action.orders[0]!['c'], cloid);
    const trades = fake.exchange.tradesOf(venueOrder.orderId);
    assert.equal(trades.length, 2);
    const fills = done.fills ?? [];
    assert.deepEqual(fills.map((f) => f.trade_id).sort(), trades.map((t) => String(fake.tidOf(t))).sort());
    for (const f of fills) {
      const t = trades.find((x) => String(fake.tidOf(x)) === f.trade_id)!;
      assert.equal(f.fee_1e9, t.commission * 10, 'the USDC fee, exact');
      assert.equal(f.price_1e9, t.price);
      assert.equal(f.is_maker, false);
    }
    const rows = await until('the perp row', async () => {
      const res = await call<{ positions: { instrument: { kind: string; symbol?: string; base?: string }; qty_1e8: number }[] }>(svc.base, 'GET', '/v1/positions?venues=hyperliquid&kinds=perp', { token });
      return res.body.positions?.length > 0 ? res.body.positions : undefined;
    });
    assert.deepEqual(rows[0]!.instrument, { kind: 'perp', symbol: SYMBOL, base: COIN });
    assert.equal(rows[0]!.qty_1e8, 15_000_000);
  });

  it("an agent the venue does not know is refused with Hyperliquid's message as the child's reason", async () => {
    const { live: other } = await clientWithKeys(svc, 'hyperliquid-rotated');
    // First the approved agent (its account's margin makes the order affordable), then one never approved.
    assert.equal((await call(svc.base, 'POST', '/v1/credentials/hyperliquid', { token: other, body: { api_key: agent.address, api_secret: agent.key } })).status, 200);
    await usdcPulled(other);
    const stranger = wallet();
    assert.equal((await call(svc.base, 'POST', '/v1/credentials/hyperliquid', { token: other, body: { api_key: stranger.address, api_secret: stranger.key } })).status, 200);
    const before = fake.seen.unknownSigners;
    const placed = await order({ client_order_id: 'hl-stranger', side: 'buy', qty_1e8: 1_000_000, order_type: 'market' }, other);
    const done = await settled(placed.node_order_id, other);
    assert.equal(done.status, 'REJECTED', JSON.stringify(done));
    assert.equal(done.children[0]!.reason, `hyperliquid: User or API Wallet ${stranger.address} does not exist.`);
    assert.ok(fake.seen.unknownSigners > before);
  });

  it('a lost answer is reconciled from the venue by cloid, placed once', async () => {
    fake.swallowOrderAnswers = 1;
    const orders = fake.seen.orders;
    const lookups = fake.seen.lookupsByCloid;
    const placed = await order({ client_order_id: 'hl-lost', side: 'buy', qty_1e8: 1_000_000, order_type: 'market' });
    const done = await settled(placed.node_order_id, token, 40_000);
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    assert.equal(fake.seen.orders - orders, 1, 'placed once');
    assert.ok(fake.seen.lookupsByCloid > lookups, 'looked up by cloid');
    const venueOrder = fake.order(master.address, hyperliquidCloid(done.children[0]!.child_id)!)!;
    assert.deepEqual((done.fills ?? []).map((f) => f.trade_id), fake.exchange.tradesOf(venueOrder.orderId).map((t) => String(fake.tidOf(t))));
  });

  it("answers funding from the venue: rates from its asset contexts, history from its fundingHistory at the hourly closes", async () => {
    const history = await call<{ history: { venue: string; ts_ns: number; rate_1e9: number; rate_bps: number; mark_1e9: number }[] }>(svc.base, 'GET', `/v1/funding_history/${SYMBOL}?venue=hyperliquid&range=1d`, { token: TEST_OPERATOR_KEY });
    assert.equal(history.status, 200, JSON.stringify(history.body));
    assert.deepEqual(
      history.body.history.map((h) => [h.venue, h.ts_ns, h.rate_1e9, h.mark_1e9]),
      fundings.map((f) => ['hyperliquid', f.instant_ms * 1_000_000, scaled(f.fundingRate, P), scaled(f.close, P)]),
    );
    assert.ok(fake.seen.fundingReads > 0);
    const rates = await call<{ rates: { venue: string; symbol: string; rate_1e9: number; interval_hours: number; next_funding_ns: number }[] }>(svc.base, 'GET', '/v1/market/funding-rates', { token: TEST_OPERATOR_KEY });
    const rate = rates.body.rates.find((r) => r.venue === 'hyperliquid' && r.symbol === SYMBOL);
    assert.ok(rate !== undefined, JSON.stringify(rates.body));
    assert.equal(rate.rate_1e9, 12_500, "the asset context's funding 0.0000125");
    assert.equal(rate.interval_hours, 1);
    assert.equal(rate.next_funding_ns, (Math.floor(Date.now() / 3_600_000) + 1) * 3_600_000 * 1_000_000);
  });

  it("a resting leg fills as maker on the venue, then the kill switch cancels what rests and arms the dead man's switch", async () => {
    const resting = await order({ client_order_id: 'hl-gtc', side: 'buy', qty_1e8: 2_000_000, order_type: 'limit', limit_price_1e9: mid - 20 * P, time_in_force: 'gtc' });
    const venueOrder = await until('the leg rests on the venue', async () => fake.openOrders(master.address)[0]);
    fake.fillResting(master.address, venueOrder.clientOrderId, 500_000);
    await until('the maker fill is booked', async () => {
      const res = await call<ApiOrder & { fills?: ApiFill[] }>(svc.base, 'GET', `/v1/orders/${resting.node_order_id}?expand=fills`, { token });
      return (res.body.fills ?? []).length === 1 ? true : undefined;
    }, 15_000);
    const armedFrom = Date.now();
    assert.equal((await call(svc.base, 'PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: true, reason: 'test' } })).status, 200);
    await until('nothing rests on the venue', async () => (fake.openOrders(master.address).length === 0 ? true : undefined));
    const armedAt = await until("the dead man's switch armed", async () => fake.scheduled.get(master.address));
    assert.ok(armedAt >= armedFrom + 5_000 && armedAt <= Date.now() + 10_000, `scheduled ${armedAt - armedFrom} ms after the halt`);
    const done = await settled(resting.node_order_id);
    assert.equal(done.status, 'CANCELLED');
    assert.equal(done.filled_qty_1e8, 500_000);
    await call(svc.base, 'PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: false } });
  });
});
