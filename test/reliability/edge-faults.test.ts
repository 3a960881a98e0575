/**
 * Fault injection at the edges: the simulated binance venue misbehaves on every child order it
 * is sent (`LegFaults`, actors/edge/sim/venue-faults.ts), one fault kind at a time, while market
 * orders (forced to binance, and routed freely over binance and bybit), a GTC limit that rests
 * and their cancels go through the real service:
 *
 *   stall       the leg is swallowed: the router's 2 s leg timeout fires, reconciliation asks
 *               the venue, which never saw it: `cancelled`, refused from then on
 *   late        the leg executes, its answer comes after the timeout: reconciliation books what
 *               the venue did, the late answer is dropped
 *   duplicate   every answer is delivered twice, and a resting leg's fills twice on the stream
 *   disconnect  the session and feed drop for 3 s while the leg is out; cancels and reconcile
 *               requests meanwhile go unanswered
 *   garbage     answers are impossible (overfill, negative quantity, another child's id, a price
 *               that is not a number): refused, the leg reconciled from the venue's record
 *
 * After each kind: every order is terminal within a bound, reconciled where the fault hid the
 * answer, its filled quantity equals its fills, no fill is booked twice (fill ids and each
 * order's venue trade ids unique), and the positions ledger equals the seeded balances plus the
 * fills with nothing reserved.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LegFaultKind, LegFaultPolicy } from '../../actors/edge/sim/venue-faults.ts';
import { allFills, allOrders, assertLedgerMatchesFills, assertOrdersMatchFills, positions, TERMINAL, type Fill, type Order } from '../helpers/recovery.ts';
import { call, startTradingService, type TestService, until } from '../helpers/service.ts';

const SYMBOL = 'BTC-USDT';
const FAULTED = 'binance';
const HEALTHY = 'bybit';
const EDGE = `edge:venue-edge-${FAULTED}`;
/** startTradingService's accounts: SIM_ACCOUNT_USD (100,000) of each quote currency and 1 BTC per venue. */
const SEEDS = { venues: [FAULTED, HEALTHY], cash_1e8: 100_000n * 100_000_000n, btc_1e8: 100_000_000n };
/** How long every order of a phase has to reach a terminal status (reconciliation: 8 attempts over ~9 s at most). */
const SETTLE_MS = 25_000;
/** How long the maker GTC of a phase works before it is cancelled. */
const MAKER_MS = 4_000;

interface LegView {
  child_id: string;
  venue: string;
  status: string;
  reason: string | null;
  time_in_force: string;
  filled_qty_1e8: number;
}
type OrderView = Omit<Order, 'children'> & { children: LegView[]; failure_class: string | null };
type FillView = Fill & { trade_id: string };

describe('reliability: injected venue faults on child orders (real service)', () => {
  let svc: TestService;
  let base: string;
  let token: string;
  const started = Date.now();

  before(async () => {
    ({ svc, base, token } = await startTradingService({ client: 'edge-faults', venues: [FAULTED, HEALTHY], symbol: SYMBOL }));
  });

  after(async () => {
    await svc?.stop();
  });

  const legFaults = (policy: LegFaultPolicy | null) => svc.service.topology.endpoint.ask<boolean>(EDGE, { t: 'LegFaults', policy }, 5_000);
  const getOrder = async (id: string) => (await call<OrderView>(base, 'GET', `/v1/orders/${id}`, { token })).body;
  const place = async (body: Record<string, unknown>): Promise<OrderView> => {
    const res = await call<OrderView>(base, 'POST', '/v1/orders', { token, body: { symbol: SYMBOL, side: 'buy', ...body } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  };
  const market = (coid: string, venue: string | null) => place({ client_order_id: coid, qty_1e8: 100_000, order_type: 'market', ...(venue === null ? {} : { venue }) });
  /** A buy price on binance's tick (0.01 USDT) `share` of the way from its bid to its ask: inside the spread, the first a seller meets. */
  const insideBid1e9 = async (share: number): Promise<number> => {
    const q = await call<{ venues: Record<string, { bid: number; ask: number }> }>(base, 'GET', `/v1/quotes/${SYMBOL}`, { token });
    const v = q.body.venues[FAULTED];
    assert.ok(v !== undefined, `a ${FAULTED} quote: ${JSON.stringify(q.body)}`);
    return Math.floor((v.bid + (v.ask - v.bid) * share) * 100) * 10_000_000;
  };
  const gtc = async (coid: string, limit_price_1e9: number) =>
    place({ client_order_id: coid, qty_1e8: 5_000_000, order_type: 'limit', time_in_force: 'gtc', limit_price_1e9, venue: FAULTED });
  const cancel = async (id: string) => {
    const res = await call<OrderView>(base, 'DELETE', `/v1/orders/${id}`, { token });
    assert.equal(res.status, 200, `cancel ${id}: ${res.status} ${JSON.stringify(res.body)}`);
  };
  const settled = (id: string) => until(`order ${id} terminal`, async () => {
    const o = await getOrder(id);
    return TERMINAL.has(o.status) ? o : undefined;
  }, SETTLE_MS, 100);
  const binanceLeg = (o: OrderView) => o.children.find((c) => c.venue === FAULTED);

  /** The invariants over everything the client has done so far. */
  async function assertBooksHold(when: string): Promise<void> {
    const orders = (await allOrders(base, token)) as OrderView[];
    const fills = (await allFills(base, token)) as FillView[];
    assertOrdersMatchFills(orders, fills, when);
    for (const o of orders) {
      assert.ok(o.filled_qty_1e8 <= o.qty_1e8, `${when}: ${o.node_order_id} filled ${o.filled_qty_1e8} of ${o.qty_1e8}`);
      assert.notEqual(o.reconciliation_state, 'reconciling', `${when}: ${o.node_order_id} still reconciling`);
    }
    const trades = new Set<string>();
    for (const f of fills) {
      assert.ok(Number.isSafeInteger(f.qty_1e8) && f.qty_1e8 > 0 && Number.isSafeInteger(f.price_1e9) && f.price_1e9 > 0, `${when}: fill ${JSON.stringify(f)} is possible`);
      const key = `${f.node_order_id}|${f.venue}|${f.trade_id}`;
      assert.ok(!trades.has(key), `${when}: venue trade ${f.trade_id} of ${f.node_order_id} booked twice`);
      trades.add(key);
    }
    assertLedgerMatchesFills(await positions(base, token), fills, SEEDS, when);
  }

  /**
   * One fault kind on every binance leg: a GTC resting from before the fault and cancelled under
   * it; under it, four market orders (two forced to binance, two routed) and two GTCs: one 1%
   * under the spread, cancelled at once (while its leg is out or in doubt), one inside it, cancelled
   * after MAKER_MS. Answers every order as settled.
   *
   * The GTC cancelled at once is priced where the book cannot reach it in a phase: one priced
   * inside the spread crossed now and then (the market orders move the touch), was planned as an
   * IOC sweep with nothing to rest, missed at arrival and ended REJECTED, which is what the
   * engine does with a GTC whose crossing legs miss (docs/execution.md, "Known gap"), not what this test is about.
   */
  async function phase(kind: LegFaultKind, extra: Omit<LegFaultPolicy, 'seed' | 'rates'> = {}) {
    const inside = await insideBid1e9(0.75);
    const under = Math.floor((inside * 0.99) / 10_000_000) * 10_000_000;
    const resting = await gtc(`${kind}-rest`, under);
    const rests = await until(`${kind}-rest resting`, async () => {
      const o = await getOrder(resting.node_order_id);
      return o.status === 'ACTIVE' || o.status === 'PARTIAL' || TERMINAL.has(o.status) ? o : undefined;
    }, 10_000, 50);
    assert.equal(rests.status, 'ACTIVE', `the resting GTC rests: ${JSON.stringify(rests)}`);

    assert.equal(await legFaults({ seed: 11, rates: { [kind]: 1 }, ...extra }), true);
    try {
      const placed = await Promise.all([
        market(`${kind}-m1`, FAULTED),
        market(`${kind}-m2`, FAULTED),
        market(`${kind}-m3`, null),
        market(`${kind}-m4`, null),
        gtc(`${kind}-gtc`, under),
        gtc(`${kind}-maker`, inside),
      ]);
      const [gtcNow, maker] = [placed[4]!, placed[5]!];
      // The market trades into the maker GTC for a while (its fills, early ones waiting for a
      // placement in doubt, each reported twice under `duplicate`), then it is cancelled.
      const makerWorked = until(`${kind}-maker settled`, async () => (TERMINAL.has((await getOrder(maker.node_order_id)).status) ? true : undefined), MAKER_MS, 100).catch(() => false);
      await Promise.all([cancel(gtcNow.node_order_id), cancel(resting.node_order_id), makerWorked.then(() => cancel(maker.node_order_id))]);
      const done = await Promise.all([...placed, resting].map((o) => settled(o.node_order_id)));
      return { forced: done.slice(0, 2), routed: done.slice(2, 4), gtc: done[4]!, maker: done[5]!, resting: done[6]! };
    } finally {
      await legFaults(null);
    }
  }

  it('stall: the leg times out, reconciliation finds the venue never saw it; refused, nothing booked', async () => {
    const t0 = Date.now();
    const { forced, gtc, maker, resting } = await phase('stall');
    for (const o of [...forced, gtc, maker]) {
      assert.equal(o.reconciliation_state, 'reconciled', JSON.stringify(o));
      const leg = binanceLeg(o)!;
      assert.equal(leg.status, 'cancelled', JSON.stringify(o));
      assert.match(leg.reason ?? '', /not received/);
      assert.equal(o.filled_qty_1e8, 0);
    }
    assert.equal(resting.status, 'CANCELLED', 'a cancel is not a leg: answered');
    await assertBooksHold('stall');
    console.log(`# stall phase ${Date.now() - t0} ms`);
  });

  it('late: the answer comes after the timeout; reconciliation books what the venue did, once', async () => {
    const t0 = Date.now();
    const { forced, gtc, resting } = await phase('late');
    for (const o of forced) {
      assert.equal(o.reconciliation_state, 'reconciled', JSON.stringify(o));
      assert.ok(['filled', 'partial', 'cancelled'].includes(binanceLeg(o)!.status), JSON.stringify(o));
    }
    // The GTC was cancelled while its placement was in doubt: the cancel holds once the venue's answer is known.
    assert.equal(gtc.reconciliation_state, 'reconciled', JSON.stringify(gtc));
    assert.ok(['CANCELLED', 'COMPLETED'].includes(gtc.status), JSON.stringify(gtc));
    assert.ok(!gtc.children.some((c) => c.status === 'resting'), `nothing left resting: ${JSON.stringify(gtc.children)}`);
    assert.equal(resting.status, 'CANCELLED');
    await assertBooksHold('late');
    console.log(`# late phase ${Date.now() - t0} ms`);
  });

  it('duplicate: every answer and stream fill delivered twice is booked once', async () => {
    const t0 = Date.now();
    const { forced, gtc, maker } = await phase('duplicate');
    for (const o of forced) assert.equal(o.reconciliation_state, 'in_sync', `answered directly; the copy is dropped: ${JSON.stringify(o)}`);
    assert.ok(['CANCELLED', 'COMPLETED'].includes(gtc.status), JSON.stringify(gtc));
    const makerFills = (await allFills(base, token)).filter((f) => f.node_order_id === maker.node_order_id && (f as FillView & { is_maker: boolean }).is_maker);
    console.log(`# duplicate: the maker GTC filled ${maker.filled_qty_1e8} of ${maker.qty_1e8} in ${makerFills.length} maker fills, each reported twice (${maker.status})`);
    await assertBooksHold('duplicate');
    console.log(`# duplicate phase ${Date.now() - t0} ms`);
  });

  it('disconnect: the session drops with the leg out; cancels and reconciliation wait for it to come back', async () => {
    const t0 = Date.now();
    const { forced, resting } = await phase('disconnect');
    assert.ok(forced.some((o) => o.reconciliation_state === 'reconciled'), `the leg out when the session dropped is reconciled: ${JSON.stringify(forced)}`);
    assert.equal(resting.status, 'CANCELLED', `the cancel sent while the session was down holds: ${JSON.stringify(resting)}`);
    assert.ok(!resting.children.some((c) => c.status === 'resting' || c.status === 'unconfirmed'), JSON.stringify(resting.children));
    await assertBooksHold('disconnect');
    // The venue trades again.
    const after = await settled((await market('disconnect-after', FAULTED)).node_order_id);
    assert.equal(after.reconciliation_state, 'in_sync', JSON.stringify(after));
    console.log(`# disconnect phase ${Date.now() - t0} ms`);
  });

  it('garbage: impossible reports are refused and the legs reconciled from the venue record', async () => {
    const t0 = Date.now();
    const { forced, gtc, maker } = await phase('garbage');
    for (const o of [...forced, gtc, maker]) {
      assert.equal(o.reconciliation_state, 'reconciled', JSON.stringify(o));
      assert.doesNotMatch(binanceLeg(o)!.status, /unconfirmed|resting/);
    }
    await assertBooksHold('garbage');
    console.log(`# garbage phase ${Date.now() - t0} ms; file ${Date.now() - started} ms`);
  });
});
