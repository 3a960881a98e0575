/**
 * The data engine's `GET /v1/data/recon` and `GET /v1/data/signals` against the real service:
 *
 *   - signals read at the same NBBO as `GET /v1/quotes/{symbol}` (mid, bid, ask, spread), a mid
 *     return over a horizon the history covers, trade flow equal to the tape's ticks of the same
 *     window, a basis against `GET /v1/fair_price/{underlying}`; bad input in the envelope;
 *   - recon: market orders across three venues agree with the venues' reports (fees and
 *     quantities per venue, summed by hand from `GET /v1/fills`); a leg whose venue drops its
 *     session (`LegFaults` disconnect) is listed in doubt while reconciliation goes unanswered,
 *     then reconciled when the session is back; another client, and the same client's sandbox
 *     key, see none of it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LegFaultPolicy } from '../../actors/edge/sim/venue-faults.ts';
import { call, clientWithKeys, envelope, startTradingService, until, type JsonResponse, type TradingService } from '../helpers/service.ts';
import { TERMINAL } from '../helpers/orders.ts';

const SYMBOL = 'BTC-USDT';
const VENUES = ['binance', 'okx', 'bybit'];
const FAULTED_EDGE = 'edge:venue-edge-binance';

interface Signal {
  symbol: string;
  instrument_type: string;
  bid_1e9: number | null;
  ask_1e9: number | null;
  mid: number | null;
  crossed: boolean;
  quote_age_ms: number | null;
  spread_bps: number | null;
  mid_return_bps: number | null;
  return_reference_ms: number | null;
  return_reference_mid: number | null;
  realized_vol: { bps_per_sqrt_s: number | null; annualized: number | null; samples: number; window_s: number };
  book_imbalance: { levels: number; bid_depth_1e8: number; ask_depth_1e8: number; imbalance: number | null };
  trade_flow: { trades: number; buy_qty_1e8: number; sell_qty_1e8: number; imbalance: number | null; truncated: boolean };
  fair_price: { underlying: string; fair_mid_1e9: number; confidence: number; basis_bps: number | null } | null;
  history_s: number;
}
interface Signals {
  as_of_ms: number;
  horizon_s: number;
  levels: number;
  sample_ms: number;
  signals: Signal[];
}
interface Quote {
  nbbo: { bid: number; ask: number; mid: number; spread_bps: number; crossed: boolean };
  book: { bids: [number, number][]; asks: [number, number][] };
  updated_ms: number;
}
interface Tick {
  ts_ns: number;
  qty_1e8: number;
  side: 'buy' | 'sell';
}
interface Leg {
  venue: string;
  edge_id: string;
  status: string;
  filled_qty_1e8: number;
  fee_1e9: number;
  venue_reported_cum_fee_1e9: number;
  venue_reported_cum_qty_1e8?: number;
}
interface Order {
  node_order_id: string;
  status: string;
  reconciliation_state: string;
  filled_qty_1e8: number;
  children: Leg[];
}
interface Fill {
  node_order_id: string;
  venue: string;
  qty_1e8: number;
  fee_1e9: number;
}
interface DriftFigures {
  our_fee_1e9: number;
  venue_fee_1e9: number;
  our_qty_1e8: number;
  venue_qty_1e8: number;
}
interface Recon {
  is_sandbox: boolean;
  as_of_unix_ns: number;
  router: { answered: boolean; started_unix_ns: number | null };
  in_doubt: {
    count: number;
    orders: {
      node_order_id: string;
      status: string;
      kind: string;
      since_unix_ns: number;
      since_source: string;
      attempts: number | null;
      legs: { venue: string; edge_id: string; status: string }[];
    }[];
  };
  last_reconcile: {
    venue: string;
    edge_id: string;
    last_reconcile_unix_ns: number | null;
    outcome: string | null;
    node_order_id: string | null;
    source: string | null;
    asks_since_router_start: number;
    unanswered_since_router_start: number;
    legs_in_doubt: number;
  }[];
  drift: {
    window_orders: number;
    orders_checked: number;
    orders_disagreeing: number;
    by_venue: (DriftFigures & { venue: string; orders: number; legs: number; fills: number; fee_drift_1e9: number; qty_drift_1e8: number; orders_disagreeing: number })[];
    disagreeing: unknown[];
  };
}

function assertError(res: JsonResponse, status: number, code: string, field?: string): void {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  const err = envelope(res.body);
  assert.equal(err.code, code);
  if (field !== undefined) assert.ok(err.details.some((d) => d.field === field), `details name ${field}: ${JSON.stringify(err.details)}`);
}

describe('data engine: /v1/data/signals and /v1/data/recon (real service)', () => {
  let t: TradingService;
  let sandboxKey: string;
  let other: { live: string; sandbox: string };
  const liveOrders: Order[] = [];
  let sandboxOrder: Order;

  const get = <T>(path: string, token = t.token) => call<T>(t.base, 'GET', path, { token });
  const settle = (id: string, token: string, timeoutMs = 15_000) =>
    until(
      `order ${id} settles`,
      async () => {
        const o = await get<Order>(`/v1/orders/${id}`, token);
        return TERMINAL.has(o.body.status) ? o.body : undefined;
      },
      timeoutMs,
      100,
    );
  const place = async (token: string, coid: string, extra: Record<string, unknown> = {}): Promise<string> => {
    const res = await call<Order>(t.base, 'POST', '/v1/orders', { token, body: { client_order_id: coid, symbol: SYMBOL, side: 'buy', qty_1e8: 2_000_000, order_type: 'market', ...extra } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.node_order_id;
  };
  const legFaults = (policy: LegFaultPolicy | null) => t.svc.service.topology.endpoint.ask<boolean>(FAULTED_EDGE, { t: 'LegFaults', policy }, 5_000);

  before(async () => {
    t = await startTradingService({ client: 'data-engine', venues: VENUES, symbol: SYMBOL });
    sandboxKey = (await t.svc.service.storage.apiKeys.create('data-engine', { label: 'sandbox', sandbox: true })).raw_key;
    other = await clientWithKeys(t.svc, 'data-engine-other');
    // One order forced to each venue (so every venue has fills), then three the SOR splits as it likes.
    for (let i = 0; i < 6; i++) {
      const extra = { side: i % 2 === 0 ? 'buy' : 'sell', ...(i < VENUES.length ? { venue: VENUES[i] } : {}) };
      liveOrders.push(await settle(await place(t.token, `de-${i}`, extra), t.token));
    }
    assert.equal((await call(t.base, 'POST', '/v1/sandbox/reset', { token: sandboxKey })).status, 200);
    sandboxOrder = await settle(await place(sandboxKey, 'de-sandbox-0'), sandboxKey);
  });

  after(async () => {
    await legFaults(null).catch(() => undefined);
    await t?.svc.stop();
  });

  describe('signals', () => {
    it('reads the same NBBO as GET /v1/quotes: mid, bid, ask, spread and top-N depth', async () => {
      // Quote, signals, quote: when both quotes carry the NBBO the signals were computed from
      // (same update instant, same book), the figures must match exactly.
      let matched = 0;
      for (let attempt = 0; attempt < 200 && matched < 3; attempt++) {
        const q1 = (await get<Quote>(`/v1/quotes/${SYMBOL}?depth=5`)).body;
        const res = await get<Signals>(`/v1/data/signals?symbol=${SYMBOL}&levels=5&horizon_s=5`);
        const q2 = (await get<Quote>(`/v1/quotes/${SYMBOL}?depth=5`)).body;
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const s = res.body.signals[0]!;
        assert.equal(s.symbol, SYMBOL);
        const signalUpdated = res.body.as_of_ms - s.quote_age_ms!;
        if (q1.updated_ms !== q2.updated_ms || q1.updated_ms !== signalUpdated || JSON.stringify(q1.book) !== JSON.stringify(q2.book)) continue;
        matched++;
        assert.equal(s.bid_1e9! / 1e9, q1.nbbo.bid);
        assert.equal(s.ask_1e9! / 1e9, q1.nbbo.ask);
        assert.equal(s.crossed, q1.nbbo.crossed);
        if (!q1.nbbo.crossed) {
          assert.equal(s.mid, q1.nbbo.mid);
          // The quote rounds its spread to 0.01 bps; the signals to 0.0001.
          assert.ok(Math.abs(s.spread_bps! - q1.nbbo.spread_bps) <= 0.005 + 1e-9, `spread ${s.spread_bps} vs ${q1.nbbo.spread_bps}`);
        }
        const depth = (side: [number, number][]) => side.slice(0, 5).reduce((sum, [, size]) => sum + Math.round(size * 1e8), 0);
        assert.equal(s.book_imbalance.bid_depth_1e8, depth(q1.book.bids));
        assert.equal(s.book_imbalance.ask_depth_1e8, depth(q1.book.asks));
        const b = s.book_imbalance.bid_depth_1e8;
        const a = s.book_imbalance.ask_depth_1e8;
        assert.ok(Math.abs(s.book_imbalance.imbalance! - (b - a) / (b + a)) <= 1e-6);
      }
      assert.ok(matched >= 1, 'a quote and the signals at the same NBBO at least once in 200 tries');
    });

    it('a mid return over a horizon the history covers, and realised volatility over it', async () => {
      const s = await until(
        'five seconds of mid history',
        async () => {
          const res = await get<Signals>(`/v1/data/signals?symbol=${SYMBOL}&horizon_s=5`);
          const sig = res.body.signals[0]!;
          return sig.mid_return_bps !== null ? { res: res.body, sig } : undefined;
        },
        20_000,
        250,
      );
      const { res, sig } = s;
      assert.equal(res.horizon_s, 5);
      assert.equal(res.sample_ms, 500);
      assert.ok(sig.history_s >= 5, `history ${sig.history_s} s`);
      // The reference is the last sample at or before now - 5 s: within one sample period of it (and timer lag).
      const age = res.as_of_ms - sig.return_reference_ms!;
      assert.ok(age >= 5_000 && age < 5_000 + 5_000, `reference ${age} ms old`);
      assert.ok(Math.abs(sig.mid_return_bps! - (sig.mid! / sig.return_reference_mid! - 1) * 1e4) <= 1e-3, 'the return is of the reference mid it names');
      // From the reference on: about 5 s / 500 ms samples (fewer when timers run late), spanning about the horizon.
      assert.ok(sig.realized_vol.samples >= 3 && sig.realized_vol.samples <= 14, `${sig.realized_vol.samples} samples`);
      assert.ok(sig.realized_vol.window_s >= 3 && sig.realized_vol.window_s < 10, `window ${sig.realized_vol.window_s}`);
      assert.ok(sig.realized_vol.bps_per_sqrt_s! >= 0);
      // The annualised figure is the per-second one scaled by sqrt(365 days of seconds).
      assert.ok(Math.abs(sig.realized_vol.annualized! - (sig.realized_vol.bps_per_sqrt_s! / 1e4) * Math.sqrt(365 * 86_400)) <= 1e-3 * Math.max(1, sig.realized_vol.annualized!));
      // A horizon longer than the history: no return yet.
      const long = (await get<Signals>(`/v1/data/signals?symbol=${SYMBOL}&horizon_s=900`)).body.signals[0]!;
      assert.equal(long.mid_return_bps, null);
      assert.equal(long.return_reference_ms, null);
    });

    it("trade flow is the tape's ticks of the same window", async () => {
      let equal = false;
      for (let attempt = 0; attempt < 30 && !equal; attempt++) {
        const res = (await get<Signals>(`/v1/data/signals?symbol=${SYMBOL}&horizon_s=10`)).body;
        const flow = res.signals[0]!.trade_flow;
        // The same window [as_of - 10 s, as_of], read again once the tape's pending writes (100 ms) are in.
        await new Promise((r) => setTimeout(r, 250));
        const from = res.as_of_ms - 10_000;
        const ticks = (await get<{ ticks: Tick[] }>(`/v1/data/ticks/range?symbol=${SYMBOL}&from=${from * 1_000_000}&to=${(res.as_of_ms + 1) * 1_000_000}&limit=10000`)).body.ticks;
        assert.ok(ticks.length >= flow.trades, 'the tape holds at least what the signals read');
        if (ticks.length !== flow.trades) continue; // a trade of the window was written after the signals read it
        equal = true;
        const sum = (side: string) => ticks.filter((x) => x.side === side).reduce((s, x) => s + x.qty_1e8, 0);
        assert.equal(flow.buy_qty_1e8, sum('buy'));
        assert.equal(flow.sell_qty_1e8, sum('sell'));
        assert.equal(flow.truncated, false);
        if (flow.trades > 0) assert.ok(Math.abs(flow.imbalance! - (flow.buy_qty_1e8 - flow.sell_qty_1e8) / (flow.buy_qty_1e8 + flow.sell_qty_1e8)) <= 1e-6);
        else assert.equal(flow.imbalance, null);
      }
      assert.ok(equal, 'the signals and the tape agreed on a window');
    });

    it("the basis is against the underlying's fair price", async () => {
      const res = (await get<Signals>(`/v1/data/signals?symbol=${SYMBOL}`)).body;
      const fair = (await get<{ fair_mid_1e9: number }>('/v1/fair_price/BTC')).body;
      const s = res.signals[0]!;
      assert.equal(s.fair_price!.underlying, 'BTC');
      // Read a moment apart: the fair price moves by a few bps at most.
      assert.ok(Math.abs(s.fair_price!.fair_mid_1e9 / fair.fair_mid_1e9 - 1) < 20e-4, `fair ${s.fair_price!.fair_mid_1e9} vs ${fair.fair_mid_1e9}`);
      assert.ok(Math.abs(s.fair_price!.basis_bps! - ((s.mid! * 1e9) / s.fair_price!.fair_mid_1e9 - 1) * 1e4) <= 1e-3);
      assert.ok(Math.abs(s.fair_price!.basis_bps!) < 50, `basis ${s.fair_price!.basis_bps} bps`);
    });

    it('several symbols, a perp book, the default set', async () => {
      const two = await get<Signals>(`/v1/data/signals?symbol=${SYMBOL},eth-usdt,${SYMBOL}`);
      assert.equal(two.status, 200, JSON.stringify(two.body));
      assert.deepEqual(two.body.signals.map((s) => s.symbol), [SYMBOL, 'ETH-USDT'], 'upper-cased, duplicates once');
      const perp = await get<Signals>(`/v1/data/signals?symbol=${SYMBOL}&instrument_type=perp`);
      assert.equal(perp.status, 200, JSON.stringify(perp.body));
      assert.equal(perp.body.signals[0]!.instrument_type, 'perp');
      const defaults = await get<Signals>('/v1/data/signals');
      assert.equal(defaults.status, 200);
      assert.ok(defaults.body.signals.some((s) => s.symbol === SYMBOL) && defaults.body.signals.length <= 20);
      assert.equal(defaults.body.horizon_s, 60);
      assert.equal(defaults.body.levels, 5);
    });

    it('bad input answers in the envelope', async () => {
      assertError(await get('/v1/data/signals?symbol=NOPE-USD'), 404, 'NOT_FOUND');
      assertError(await get(`/v1/data/signals?symbol=${SYMBOL},NOPE-USD`), 404, 'NOT_FOUND');
      assertError(await get('/v1/data/signals?symbol=,,'), 400, 'VALIDATION_ERROR', 'symbol');
      const many = Array.from({ length: 21 }, (_, i) => `S${i}-USDT`).join(',');
      assertError(await get(`/v1/data/signals?symbol=${many}`), 400, 'VALIDATION_ERROR', 'symbol');
      for (const h of ['0', '901', '-5', '1.5', 'abc']) assertError(await get(`/v1/data/signals?horizon_s=${h}`), 400, 'VALIDATION_ERROR', 'horizon_s');
      assertError(await get('/v1/data/signals?levels=0'), 400, 'VALIDATION_ERROR', 'levels');
      assertError(await get('/v1/data/signals?instrument_type=prediction'), 400, 'VALIDATION_ERROR', 'instrument_type');
      assert.equal((await call(t.base, 'GET', '/v1/data/signals')).status, 401);
      assertError(await get('/v1/data/recon?limit=0'), 400, 'VALIDATION_ERROR', 'limit');
      assertError(await get('/v1/data/recon?limit=1001'), 400, 'VALIDATION_ERROR', 'limit');
      assert.equal((await call(t.base, 'GET', '/v1/data/recon')).status, 401);
    });
  });

  describe('recon', () => {
    it("drift: our fills agree with the venues' reported fees and quantities, per venue as summed by hand", async () => {
      const res = await get<Recon>('/v1/data/recon');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const r = res.body;
      assert.equal(r.is_sandbox, false);
      assert.equal(r.router.answered, true);
      assert.equal(r.in_doubt.count, 0);
      assert.equal(r.drift.window_orders, 200);
      assert.equal(r.drift.orders_checked, liveOrders.length);
      assert.equal(r.drift.orders_disagreeing, 0);
      assert.deepEqual(r.drift.disagreeing, []);
      // By hand: every fill of the client, grouped by venue.
      const fills = (await get<{ fills: Fill[] }>('/v1/fills?limit=500')).body.fills;
      const venues = [...new Set(fills.map((f) => f.venue))].sort();
      assert.deepEqual(venues, [...VENUES].sort(), 'the orders traded on every venue');
      assert.deepEqual(r.drift.by_venue.filter((v) => v.fills > 0).map((v) => v.venue), venues);
      for (const venue of venues) {
        const mine = fills.filter((f) => f.venue === venue);
        const row = r.drift.by_venue.find((v) => v.venue === venue)!;
        const fee = mine.reduce((s, f) => s + f.fee_1e9, 0);
        const qty = mine.reduce((s, f) => s + f.qty_1e8, 0);
        assert.deepEqual(
          { our_fee_1e9: row.our_fee_1e9, venue_fee_1e9: row.venue_fee_1e9, our_qty_1e8: row.our_qty_1e8, venue_qty_1e8: row.venue_qty_1e8, fee_drift_1e9: row.fee_drift_1e9, qty_drift_1e8: row.qty_drift_1e8, fills: row.fills },
          { our_fee_1e9: fee, venue_fee_1e9: fee, our_qty_1e8: qty, venue_qty_1e8: qty, fee_drift_1e9: 0, qty_drift_1e8: 0, fills: mine.length },
          venue,
        );
        assert.equal(row.orders, new Set(liveOrders.filter((o) => o.children.some((c) => c.venue === venue)).map((o) => o.node_order_id)).size, `${venue}: orders with a leg there`);
      }
      // Each leg records the venue's own cumulative figures, equal to what it booked.
      for (const o of liveOrders) {
        for (const c of o.children) {
          assert.equal(c.venue_reported_cum_fee_1e9, c.fee_1e9, `${o.node_order_id} ${c.venue}`);
          assert.equal(c.venue_reported_cum_qty_1e8, c.filled_qty_1e8, `${o.node_order_id} ${c.venue}`);
        }
      }
      // Nothing in doubt: the edges traded on are listed, never reconciled (unless a leg's answer
      // was slow enough, on a loaded machine, to be reconciled: then its order says so).
      for (const row of r.last_reconcile) {
        const reconciled = liveOrders.some((o) => o.reconciliation_state === 'reconciled' && o.children.some((c) => c.edge_id === row.edge_id));
        if (!reconciled) assert.equal(row.last_reconcile_unix_ns, null, JSON.stringify(row));
        assert.equal(row.legs_in_doubt, 0);
      }
      assert.deepEqual([...new Set(r.last_reconcile.map((x) => x.venue))].sort(), [...new Set(liveOrders.flatMap((o) => o.children.map((c) => c.venue)))].sort());
      // The window: the most recent `limit` orders.
      const two = (await get<Recon>('/v1/data/recon?limit=2')).body;
      assert.equal(two.drift.window_orders, 2);
      assert.equal(two.drift.orders_checked, 2);
    });

    it('a leg whose venue session drops is in doubt while reconciliation goes unanswered, then reconciled', async () => {
      // Every binance leg meets a dropped session for 60 s: the leg's answer is lost and so is each Reconcile.
      assert.equal(await legFaults({ seed: 3, rates: { disconnect: 1 }, disconnect_ms: 60_000 }), true);
      const id = await place(t.token, 'de-doubt', { venue: 'binance', qty_1e8: 1_000_000 });
      const unconfirmed = await until(
        'the order is in doubt',
        async () => {
          const o = (await get<Order>(`/v1/orders/${id}`)).body;
          return o.status === 'UNCONFIRMED' ? o : undefined;
        },
        10_000,
        100,
      );
      assert.equal(unconfirmed.reconciliation_state, 'reconciling');
      // The first Reconcile times out 2 s after it is sent: then the edge's row says so.
      const during = await until(
        'an unanswered reconcile',
        async () => {
          const r = (await get<Recon>('/v1/data/recon')).body;
          const row = r.last_reconcile.find((x) => x.edge_id === 'venue-edge-binance');
          return row?.outcome === 'unanswered' ? r : undefined;
        },
        15_000,
        200,
      );
      assert.equal(during.in_doubt.count, 1);
      const doubt = during.in_doubt.orders[0]!;
      assert.equal(doubt.node_order_id, id);
      assert.equal(doubt.status, 'UNCONFIRMED');
      assert.equal(doubt.kind, 'legs');
      assert.equal(doubt.since_source, 'router');
      assert.ok(doubt.attempts! >= 1);
      assert.ok(doubt.since_unix_ns > 0 && doubt.since_unix_ns <= during.as_of_unix_ns);
      assert.deepEqual(doubt.legs.map((l) => [l.venue, l.edge_id, l.status]), [['binance', 'venue-edge-binance', 'unconfirmed']]);
      const binance = during.last_reconcile.find((x) => x.edge_id === 'venue-edge-binance')!;
      assert.equal(binance.node_order_id, id);
      assert.equal(binance.source, 'router');
      assert.ok(binance.asks_since_router_start >= 1 && binance.unanswered_since_router_start >= 1);
      assert.equal(binance.legs_in_doubt, 1);
      assert.ok(binance.last_reconcile_unix_ns! >= doubt.since_unix_ns);
      // Another client and the same client's sandbox key see none of it.
      for (const token of [other.live, other.sandbox, sandboxKey]) {
        const text = JSON.stringify((await get<Recon>('/v1/data/recon', token)).body);
        assert.ok(!text.includes(id), `the order in doubt leaks: ${text.slice(0, 300)}`);
      }

      // The session comes back: the next Reconcile is answered with what the venue did.
      assert.equal(await legFaults(null), true);
      const settled = await settle(id, t.token, 30_000);
      assert.equal(settled.reconciliation_state, 'reconciled');
      const r = (await get<Recon>('/v1/data/recon')).body;
      assert.equal(r.in_doubt.count, 0);
      const row = r.last_reconcile.find((x) => x.edge_id === 'venue-edge-binance')!;
      // The venue executed the leg before its session dropped, or never received it (one seeded draw).
      assert.equal(row.outcome, settled.filled_qty_1e8 > 0 ? 'found' : 'not_received', JSON.stringify({ row, settled }));
      assert.equal(row.node_order_id, id);
      assert.equal(row.legs_in_doubt, 0);
      assert.ok(row.asks_since_router_start > binance.asks_since_router_start);
      // What reconciliation booked agrees with the venue's reports too.
      assert.equal(r.drift.orders_checked, liveOrders.length + 1);
      assert.equal(r.drift.orders_disagreeing, 0);
      const leg = settled.children[0]!;
      assert.equal(leg.venue_reported_cum_qty_1e8, leg.filled_qty_1e8);
    });

    it('per client and mode: the sandbox key sees its sandbox orders, another client nothing', async () => {
      const sbx = (await get<Recon>('/v1/data/recon', sandboxKey)).body;
      assert.equal(sbx.is_sandbox, true);
      assert.equal(sbx.drift.orders_checked, 1);
      assert.equal(sbx.drift.orders_disagreeing, 0);
      const text = JSON.stringify(sbx);
      for (const o of liveOrders) assert.ok(!text.includes(o.node_order_id), 'no live order in the sandbox view');
      const sandboxFills = (await get<{ fills: Fill[] }>('/v1/fills?limit=100', sandboxKey)).body.fills;
      assert.equal(sbx.drift.by_venue.reduce((s, v) => s + v.our_qty_1e8, 0), sandboxFills.reduce((s, f) => s + f.qty_1e8, 0));
      assert.equal(sbx.drift.by_venue.reduce((s, v) => s + v.our_qty_1e8, 0), sandboxOrder.filled_qty_1e8);

      const live = JSON.stringify((await get<Recon>('/v1/data/recon')).body);
      assert.ok(!live.includes(sandboxOrder.node_order_id), 'no sandbox order in the live view');

      for (const token of [other.live, other.sandbox]) {
        const r = (await get<Recon>('/v1/data/recon', token)).body;
        assert.equal(r.drift.orders_checked, 0);
        assert.deepEqual(r.drift.by_venue, []);
        assert.equal(r.in_doubt.count, 0);
        assert.deepEqual(r.last_reconcile, [], 'another client has reconciled nothing');
      }
    });
  });
});
