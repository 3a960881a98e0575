/**
 * Execution, the newcomer's flow end to end against the real service (gateway, two workers,
 * the simulated venues, LMDB): store credentials for three venues listing BTC-USDT, get a
 * quote, subscribe to the private channels `orders`, `fills`, `routing` and `tca`, submit a
 * market buy sized to split across venues (the router's choice: checked either way), watch it on the WebSocket to its final status, read
 * the completed order with its fills and TCA, and see the positions move by exactly the fills
 * (ledger rules: docs/positions-and-tca.md). A second test checks that a buy larger than every
 * account's cash is spread over every funded venue without the router's own legs failing their
 * balance reservation.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, envelope, startTestService, type TestService, until } from '../helpers/service.ts';
import { StreamClient, type Frame } from '../helpers/stream-client.ts';

const SYMBOL = 'BTC-USDT';
/** The venues listing BTC-USDT spot in the simulated catalog (docs/simulation.md). */
const LISTING_VENUES = ['binance', 'coinbase', 'kraken', 'okx', 'bybit', 'kucoin', 'bitstamp'];
const FUNDED = ['binance', 'okx', 'bybit'];
/** Taker fee of each funded venue, bps (catalog). */
const TAKER_BPS: Record<string, number> = { binance: 10, okx: 10, bybit: 10 };
/** Cash per quote currency of a simulated account (SIM_ACCOUNT_USD), raised so a multi-BTC buy fits one account. */
const SIM_ACCOUNT_USD = 2_000_000;
const SEED_BTC_1E8 = 100_000_000;
const TERMINAL = new Set(['COMPLETED', 'CANCELLED', 'REJECTED', 'UNRESOLVED']);

const FILL_FIELDS = [
  'id', 'fill_id', 'node_order_id', 'venue', 'symbol', 'side', 'instrument_type', 'qty_1e8', 'price_1e9', 'fee_1e9', 'ts_unix_ns',
  'commission_asset', 'exchange_ts_ns', 'execution_region', 'fee_breakdown', 'is_maker', 'maker_fee_bps_applied',
  'taker_fee_bps_applied', 'trade_id', 'venue_reported_cum_fee_1e9', 'lineage_deployment_id',
];
const FEE_BREAKDOWN_KEYS = ['commission_1e9', 'lp_fee_1e9', 'gas_1e9', 'priority_fee_1e9', 'mev_tip_1e9', 'funding_1e9', 'rebate_1e9', 'hop_fees_1e9', 'commission_asset'];
const TOTALS_KEYS = ['nav_usd_1e9', 'cash_usd_1e9', 'unrealized_pnl_usd_1e9', 'realized_pnl_usd_1e9', 'fees_usd_1e9', 'num_positions'];

interface Fill {
  id: number;
  fill_id: string;
  node_order_id: string;
  venue: string;
  qty_1e8: number;
  price_1e9: number;
  fee_1e9: number;
  venue_reported_cum_fee_1e9: number;
  [k: string]: unknown;
}
interface Child {
  venue: string;
  qty_1e8: number;
  filled_qty_1e8: number;
  status: string;
  reason: string | null;
  fee_1e9: number;
  venue_reported_cum_fee_1e9: number;
}
interface Order {
  node_order_id: string;
  status: string;
  qty_1e8: number;
  filled_qty_1e8: number;
  failure_class: string | null;
  arrival_mid_1e9: number | null;
  children: Child[];
  fills: Fill[] | null;
  tca: Record<string, any> | null;
  [k: string]: unknown;
}
interface Position {
  venue: string;
  instrument: { kind: string; symbol?: string; code?: string };
  qty_1e8: number;
  locked_qty_1e8: number;
  current_value_usd_1e9: number;
  fees_usd_1e9: number;
  is_sandbox: boolean;
}

/** Quote units a buy fill takes from the quote row: ceil(price x qty / 1e9) + the fee, USD 1e9 -> quote 1e8 rounded up. */
function buyDebit1e8(f: Pick<Fill, 'price_1e9' | 'qty_1e8' | 'fee_1e9'>): bigint {
  const cost = (BigInt(f.price_1e9) * BigInt(f.qty_1e8) + 999_999_999n) / 1_000_000_000n;
  const fee = (BigInt(f.fee_1e9) + 9n) / 10n;
  return cost + fee;
}

/**
 * A total the service summed exactly (BigInt) against the sum of the rows it printed. Past 2^53 (a few
 * funded venues reach 1.2e16 in _1e9 units) each JSON number is the nearest double, so the printed rows
 * need not add up to the printed total to the unit: allow one ulp of the total per term, nothing more.
 */
function assertSumOf(total: number, terms: number[], what: string): void {
  const sum = terms.reduce((s, t) => s + BigInt(t), 0n);
  const ulp = Math.max(1, 2 ** (Math.floor(Math.log2(Math.max(1, Math.abs(total)))) - 52));
  const slack = BigInt(ulp * (terms.length + 1));
  const diff = BigInt(total) - sum;
  assert.ok(diff <= slack && -diff <= slack, `${what}: total ${total} vs rows ${sum} (slack ${slack})`);
}

describe('execution: the newcomer flow (real service)', () => {
  let svc: TestService;
  let base: string;
  let port: number;
  const streams: StreamClient[] = [];

  /** A fresh enterprise client (its own ledger and orders) and its live key. */
  const newClient = async (clientId: string): Promise<string> => {
    const storage = svc.service.storage;
    await storage.clients.put({ client_id: clientId, tier: 'enterprise', rate_limit_qps: 2_000, is_admin: false, created_at_ms: Date.now() });
    return (await storage.apiKeys.create(clientId, { label: 'execution-test', sandbox: false })).raw_key;
  };

  const storeCredentials = async (token: string, venues: string[]) => {
    for (const venue of venues) {
      const body = { api_key: `key-${venue}-0123456789`, api_secret: `secret-${venue}-0123456789abcdef`, ...(venue === 'okx' ? { passphrase: 'pass-phrase' } : {}) };
      const res = await call(base, 'POST', `/v1/credentials/${venue}`, { token, body });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, { venue, status: 'stored' });
    }
  };

  const positions = async (token: string, query = ''): Promise<{ positions: Position[]; totals: Record<string, number>; as_of_ns: number }> => {
    const res = await call(base, 'GET', `/v1/positions${query}`, { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  const qtyOf = (rows: Position[], venue: string, asset: string): number | undefined =>
    rows.find((p) => p.venue === venue && (p.instrument.symbol ?? p.instrument.code) === asset)?.qty_1e8;

  const waitTerminal = (token: string, id: string): Promise<Order> =>
    until(`order ${id} terminal`, async () => {
      const res = await call<Order>(base, 'GET', `/v1/orders/${id}?expand=fills`, { token });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return TERMINAL.has(res.body.status) ? res.body : undefined;
    });

  before(async () => {
    svc = await startTestService({ simAccountUsd: SIM_ACCOUNT_USD, maxOrderNotionalUsd: 10_000_000 });
    base = svc.base;
    port = svc.service.port;
    await until('service ready', async () => ((await call(base, 'GET', '/v1/health/ready')).status === 200 ? true : undefined), 30_000);
  });

  after(async () => {
    for (const s of streams) s.close();
    await svc?.stop();
  });

  it('credentials for three venues, a quote, a split market buy watched on the WebSocket, TCA and positions', async () => {
    const token = await newClient('newcomer-1');

    // 1. Credentials for three venues listing BTC-USDT; each opens a funded simulated account.
    const none = await call(base, 'GET', '/v1/credentials', { token });
    assert.deepEqual(none.body, { venues: [], unsafe: [] });
    await storeCredentials(token, FUNDED);
    assert.deepEqual((await call(base, 'GET', '/v1/credentials', { token })).body, { venues: [...FUNDED].sort(), unsafe: [] });
    const seeded = await until('sim accounts opened', async () => {
      const p = await positions(token);
      return FUNDED.every((v) => qtyOf(p.positions, v, 'USDT') !== undefined && qtyOf(p.positions, v, 'BTC') !== undefined) ? p : undefined;
    });
    for (const venue of FUNDED) {
      assert.equal(qtyOf(seeded.positions, venue, 'USDT'), SIM_ACCOUNT_USD * 1e8, `${venue} USDT seed`);
      assert.equal(qtyOf(seeded.positions, venue, 'BTC'), SEED_BTC_1E8, `${venue} BTC seed`);
    }

    // 2. A quote with a live book on all three venues.
    const quote = await until('a live BTC-USDT quote from the three venues', async () => {
      const res = await call<{ source: string; nbbo: { bid: number; ask: number; crossed: boolean }; venues: Record<string, { ask: number; ask_size: number }> }>(
        base, 'GET', `/v1/quotes/${SYMBOL}?depth=50`, { token },
      );
      if (res.status !== 200 || res.body.source !== 'edge_nbbo' || res.body.nbbo.crossed) return undefined;
      return FUNDED.every((v) => res.body.venues[v] !== undefined && res.body.venues[v]!.ask > 0) ? res.body : undefined;
    }, 15_000, 100);
    assert.ok(quote.nbbo.ask > quote.nbbo.bid && quote.nbbo.bid > 0, JSON.stringify(quote.nbbo));
    // Several times any one venue's top of book, so the sweep walks into the deeper (costlier)
    // levels and the other venues' better ones; within what each single account could pay for,
    // so the split is the router's choice of cost, not of balance. (The simulated books hold
    // about 1-2 BTC a level on binance and less on okx and bybit.)
    // 5 BTC (about $480k), or half as much again as the largest top of book when a venue's top
    // happens to hold more (the simulated books move with the clock).
    const largestTop = Math.max(...FUNDED.map((v) => quote.venues[v]!.ask_size));
    const qty = Math.max(500_000_000, Math.ceil(largestTop * 1.5 * 100) * 1_000_000);
    for (const v of FUNDED) assert.ok(quote.venues[v]!.ask_size * 1e8 < qty, `${v} top of book ${quote.venues[v]!.ask_size} BTC is not below the order`);
    assert.ok((qty / 1e8) * quote.nbbo.ask * 1.002 < SIM_ACCOUNT_USD, 'each venue alone could pay for it');

    // 3. The private channels.
    const ticket = await call<{ ticket: string }>(base, 'GET', '/v1/ws/ticket', { token });
    assert.equal(ticket.status, 200, JSON.stringify(ticket.body));
    const stream = await StreamClient.open(`ws://127.0.0.1:${port}/v1/stream?ticket=${ticket.body.ticket}`);
    streams.push(stream);
    const channels = ['orders', 'fills', 'routing', 'tca'];
    stream.send({ subscribe: channels });
    assert.deepEqual(await stream.next((f) => f.type === 'subscribed'), { type: 'subscribed', channels });

    // Another client listening on the same private channels, to see nothing of this order.
    const strangerToken = await newClient('newcomer-eavesdropper');
    const strangerTicket = await call<{ ticket: string }>(base, 'GET', '/v1/ws/ticket', { token: strangerToken });
    const stranger = await StreamClient.open(`ws://127.0.0.1:${port}/v1/stream?ticket=${strangerTicket.body.ticket}`);
    streams.push(stranger);
    stranger.send({ subscribe: channels });
    assert.deepEqual(await stranger.next((f) => f.type === 'subscribed'), { type: 'subscribed', channels });

    // 4. The market buy.
    const submitted = await call<Order>(base, 'POST', '/v1/orders', {
      token,
      body: { client_order_id: 'newcomer-buy-1', symbol: SYMBOL, side: 'buy', qty_1e8: qty, order_type: 'market' },
    });
    assert.equal(submitted.status, 201, JSON.stringify(submitted.body));
    const id = submitted.body.node_order_id;
    assert.match(id, /^ord_/);
    assert.ok(['RUNNING', 'PARTIAL', 'COMPLETED', 'CANCELLED'].includes(submitted.body.status), submitted.body.status);
    assert.equal(submitted.body.execution_type, 'graph');
    assert.equal(submitted.body.fills, null, 'fills only with expand=fills');
    assert.ok([1, 2, 3].includes(submitted.body['routing_version'] as number), `routing_version ${submitted.body['routing_version']}`);

    // The routing plan: every listing venue is a candidate; the three without credentials say so.
    const routing = await stream.next((f) => f.channel === 'routing' && f.data?.['node_order_id'] === id);
    const plan = routing.data as any;
    assert.equal(plan.requested_qty_1e8, qty);
    assert.equal(plan.side, 'buy');
    assert.equal(plan.order_type, 'market');
    assert.deepEqual(plan.candidates.map((c: any) => c.venue).sort(), [...LISTING_VENUES].sort());
    for (const c of plan.candidates) {
      if (FUNDED.includes(c.venue)) {
        assert.equal(c.kept, true, `${c.venue} kept: ${JSON.stringify(c)}`);
        assert.ok(c.reason === null || c.reason === 'below_min_qty' || c.reason === 'below_min_notional', JSON.stringify(c));
        assert.equal(typeof c.best_cost_bps, 'number');
        assert.equal(c.cost.fee_bps, TAKER_BPS[c.venue], 'market orders are costed with taker fees');
      } else {
        assert.equal(c.kept, false, JSON.stringify(c));
        assert.equal(c.reason, 'no_credentials', JSON.stringify(c));
        assert.equal(c.allocated_qty_1e8, 0);
      }
    }
    const planVenues = new Set<string>(plan.allocations.map((a: any) => a.venue));
    // The sweep takes levels cheapest first, so it splits whenever another venue's top is cheaper
    // than the dearest level it took; it nearly always does at this size, but the simulated books
    // move with the clock and a deep, cheap binance book once covered all 5 BTC (CI). Whether or
    // not it split, no venue it left out had a top cheaper than what it took.
    const dearestTaken = Math.max(...plan.allocations.flatMap((a: any) => a.levels.map((l: any) => l.cost_bps as number)));
    for (const c of plan.candidates) {
      if (c.kept && c.allocated_qty_1e8 === 0 && c.reason === null) {
        assert.ok(c.best_cost_bps >= dearestTaken - 1e-9, `${c.venue}'s top (${c.best_cost_bps} bps) is no cheaper than the dearest level taken (${dearestTaken} bps): ${JSON.stringify(plan.allocations.map((a: any) => [a.venue, a.qty_1e8]))}`);
      }
    }
    for (const v of planVenues) assert.ok(FUNDED.includes(v), `${v} is a funded venue`);
    const planned = plan.allocations.reduce((s: number, a: any) => s + a.qty_1e8, 0);
    assert.equal(planned, plan.planned_qty_1e8);
    assert.equal(plan.planned_qty_1e8 + plan.unfilled_qty_1e8, qty);
    for (const a of plan.allocations) {
      assert.ok(a.levels.length >= 1, `levels of ${a.venue}`);
      assert.equal(a.levels.reduce((s: number, l: any) => s + l.qty_1e8, 0), a.qty_1e8, 'levels add up to the child');
      assert.equal(a.limit_price_1e9, Math.max(...a.levels.map((l: any) => l.price_1e9)), 'a buy child is capped at its worst level');
    }
    // Children: one per allocation, same venues and quantities.
    assert.deepEqual(
      submitted.body.children.map((c) => [c.venue, c.qty_1e8]).sort(),
      plan.allocations.map((a: any) => [a.venue, a.qty_1e8]).sort(),
    );

    // orders frames: RUNNING first, the filled quantity never goes back, a terminal status last.
    const orderFrames: Frame[] = [];
    for (;;) {
      const f = await stream.next((x) => x.channel === 'orders' && x.data?.['node_order_id'] === id, 10_000);
      orderFrames.push(f);
      if (TERMINAL.has(f.data!['status'] as string)) break;
    }
    assert.equal(orderFrames[0]!.data!['status'], 'RUNNING');
    const filledSeq = orderFrames.map((f) => f.data!['filled_qty_1e8'] as number);
    for (let i = 1; i < filledSeq.length; i++) assert.ok(filledSeq[i]! >= filledSeq[i - 1]!, `filled_qty never decreases: ${filledSeq}`);
    for (const f of orderFrames) {
      assert.equal(typeof f.ts_ns, 'number');
      for (const hidden of ['request_hash', 'fill_ids', 'mode']) assert.ok(!(hidden in f.data!), `${hidden} is internal`);
    }
    const finalFrame = orderFrames[orderFrames.length - 1]!.data as unknown as Order;

    // The order as the API reads it, with its fills.
    const order = await waitTerminal(token, id);
    assert.equal(order.status, finalFrame.status);
    assert.equal(order.filled_qty_1e8, finalFrame.filled_qty_1e8);
    assert.ok(order.filled_qty_1e8 > 0, `something filled: ${JSON.stringify(order.children)}`);
    if (order.status === 'COMPLETED') {
      assert.equal(order.filled_qty_1e8, qty);
      assert.equal(order.failure_class, null);
    } else {
      assert.equal(order.status, 'CANCELLED', `${order.status}: ${order.failure_class} ${order['failure_reason']}`);
      assert.equal(order.failure_class, 'ioc_remainder');
      assert.ok(order.filled_qty_1e8 < qty, 'a cancelled remainder');
    }
    assert.equal(order.engine_phase, 'done');
    assert.equal(order.reconciliation_state, 'in_sync');
    assert.ok((order.updated_unix_ns as number) >= (order.created_unix_ns as number), 'updated after created');
    assert.ok(typeof order.first_fill_ts_ns === 'number' && typeof order.time_to_first_fill_ms === 'number', 'first fill timestamps');

    // fills frames: every fill once, each with the whole FillRecord.
    const fills = order.fills!;
    assert.ok(fills.length >= 2, 'fills from more than one venue level');
    const fillFrames: Fill[] = [];
    while (fillFrames.length < fills.length) {
      fillFrames.push((await stream.next((x) => x.channel === 'fills' && x.data?.['node_order_id'] === id, 5_000)).data as unknown as Fill);
    }
    assert.deepEqual(fillFrames.map((f) => f.id).sort(), fills.map((f) => f.id).sort(), 'the stream carried exactly the stored fills');
    assert.equal(new Set(fills.map((f) => f.id)).size, fills.length);
    assert.equal(new Set(fills.map((f) => f.fill_id)).size, fills.length);
    for (const f of fills) {
      for (const k of FILL_FIELDS) assert.ok(k in f, `fill has ${k}: ${JSON.stringify(f)}`);
      assert.equal(f.node_order_id, id);
      assert.equal(f['symbol'], SYMBOL);
      assert.equal(f['side'], 'buy');
      assert.equal(f['instrument_type'], 'spot');
      assert.ok(Number.isSafeInteger(f.id) && f.id > 0, `id ${f.id}`);
      assert.ok(Number.isSafeInteger(f.qty_1e8) && f.qty_1e8 > 0, `qty ${f.qty_1e8}`);
      assert.ok(Number.isSafeInteger(f.price_1e9) && f.price_1e9 > 0, `price ${f.price_1e9}`);
      assert.ok(Number.isSafeInteger(f.fee_1e9) && f.fee_1e9 > 0, `fee ${f.fee_1e9}`);
      assert.ok(Number.isInteger(f['ts_unix_ns']) && (f['ts_unix_ns'] as number) > 0, `ts ${f['ts_unix_ns']}`);
      assert.equal(f['is_maker'], false, 'market order fills are taker fills');
      assert.equal(f['taker_fee_bps_applied'], TAKER_BPS[f.venue]);
      assert.equal(f['maker_fee_bps_applied'], null);
      assert.equal(f['commission_asset'], 'USDT');
      assert.deepEqual(Object.keys(f['fee_breakdown'] as object).sort(), [...FEE_BREAKDOWN_KEYS].sort());
      assert.equal((f['fee_breakdown'] as any).commission_1e9, f.fee_1e9);
      // The venue's fee: taker bps of the USD notional, rounded up.
      const notional = (BigInt(f.price_1e9) * BigInt(f.qty_1e8)) / 100_000_000n;
      assert.equal(BigInt(f.fee_1e9), (notional * BigInt(TAKER_BPS[f.venue]!) + 9_999n) / 10_000n, `fee of ${f.fill_id}`);
      const child = order.children.find((c) => c.venue === f.venue);
      assert.ok(child !== undefined, `fill ${f.fill_id} belongs to a child on ${f.venue}`);
      assert.ok(f.price_1e9 <= (child as any).limit_price_1e9, 'no fill above the child cap');
    }
    assert.equal(fills.reduce((s, f) => s + f.qty_1e8, 0), order.filled_qty_1e8, 'sum of fills = filled_qty');

    // Children: several venues filled; each child's fees add up to the venue's cumulative fee.
    const filledVenues = order.children.filter((c) => c.filled_qty_1e8 > 0).map((c) => c.venue);
    assert.ok(new Set(filledVenues).size >= Math.min(2, planVenues.size), `filled on every venue the plan split over, two at least: ${JSON.stringify(order.children)}`);
    for (const c of order.children) {
      const mine = fills.filter((f) => f.venue === c.venue).sort((a, b) => a.id - b.id);
      assert.equal(mine.reduce((s, f) => s + f.qty_1e8, 0), c.filled_qty_1e8, `${c.venue} child filled`);
      assert.ok(c.filled_qty_1e8 <= c.qty_1e8, `${c.venue} not overfilled`);
      assert.equal(c.fee_1e9, mine.reduce((s, f) => s + f.fee_1e9, 0), `${c.venue} child fee = sum of its fills`);
      if (mine.length > 0) {
        assert.equal(c.fee_1e9, mine[mine.length - 1]!.venue_reported_cum_fee_1e9, `${c.venue}: fee = last venue_reported_cum_fee`);
        assert.equal(c.venue_reported_cum_fee_1e9, c.fee_1e9);
        let cum = 0;
        for (const f of mine) {
          cum += f.fee_1e9;
          assert.equal(f.venue_reported_cum_fee_1e9, cum, 'cumulative fee grows by each fill');
        }
      }
      assert.ok(['filled', 'partial', 'cancelled'].includes(c.status), `${c.venue} leg ${c.status} (${c.reason})`);
      if (c.status === 'filled') assert.equal(c.filled_qty_1e8, c.qty_1e8);
    }

    // TCA on the order and on the tca channel.
    const tcaFrame = await stream.next((x) => x.channel === 'tca' && x.data?.['node_order_id'] === id, 5_000);
    const tca = order.tca!;
    assert.ok(tca !== null, 'a completed order carries TCA');
    assert.deepEqual((tcaFrame.data as any).tca, tca);
    const F = BigInt(order.filled_qty_1e8);
    const PQ = fills.reduce((s, f) => s + BigInt(f.price_1e9) * BigInt(f.qty_1e8), 0n);
    const fees = fills.reduce((s, f) => s + f.fee_1e9, 0);
    const vwap = Number(PQ / F);
    assert.ok(Math.abs(tca['achieved_vwap_1e9'] - vwap) <= 1, `achieved VWAP ${tca['achieved_vwap_1e9']} vs ${vwap}`);
    assert.equal(tca['arrival_mid_1e9'], order.arrival_mid_1e9);
    assert.ok(order.arrival_mid_1e9! > quote.nbbo.bid * 1e9 * 0.99 && order.arrival_mid_1e9! < quote.nbbo.ask * 1e9 * 1.01, `arrival mid ${order.arrival_mid_1e9} near the quote`);
    assert.equal(tca['filled_qty_1e8'], order.filled_qty_1e8);
    const mid = order.arrival_mid_1e9!;
    const shortfall = ((vwap - mid) / mid) * 10_000;
    assert.ok(Math.abs(tca['implementation_shortfall_bps'] - shortfall) < 0.001, `shortfall ${tca['implementation_shortfall_bps']} vs ${shortfall}`);
    assert.equal(tca['fees_usd_1e9'], fees);
    assert.ok(Math.abs(tca['fee_bps'] - (fees / (Number(PQ) / 1e8)) * 10_000) < 0.001, 'fee bps of the notional');
    assert.ok(Math.abs(tca['total_cost_bps'] - (tca['implementation_shortfall_bps'] + tca['fee_bps'])) < 0.0002, 'total = shortfall + fee');
    for (const k of ['spread_cost_bps', 'impact_bps', 'execution_time_ms', 'notional_usd_1e9', 'fill_ratio']) assert.equal(typeof tca[k], 'number', k);
    assert.ok(Math.abs(tca['spread_cost_bps'] + tca['impact_bps'] - tca['implementation_shortfall_bps']) < 0.0002, 'shortfall = spread + impact');
    assert.ok(Number.isInteger(tca['execution_time_ms']) && tca['execution_time_ms'] >= 0, `execution_time_ms ${tca['execution_time_ms']}`);
    assert.ok(tca['savings_vs_best_single_venue_bps'] === null || typeof tca['savings_vs_best_single_venue_bps'] === 'number', 'savings');
    assert.ok(tca['best_single_venue'] === null || LISTING_VENUES.includes(tca['best_single_venue'].venue), JSON.stringify(tca['best_single_venue']));
    assert.deepEqual(
      (tca['venues'] as { venue: string; qty_1e8: number }[]).map((v) => v.venue).sort(),
      [...new Set(filledVenues)].sort(),
    );

    // The other client's connection got none of it: a later acknowledgement on that socket comes
    // after anything published to it before.
    stranger.send({ subscribe: ['system'] });
    await stranger.next((f) => f.type === 'subscribed');
    await assert.rejects(stranger.next((f) => f.type === 'data' && channels.includes(f.channel ?? ''), 1), 'no private frame leaked to another client');

    // Positions moved by exactly the fills: BTC up by the filled qty, USDT down by cost + fee.
    const after = await positions(token);
    let feesTotal = 0;
    for (const venue of FUNDED) {
      const mine = fills.filter((f) => f.venue === venue);
      const bought = mine.reduce((s, f) => s + f.qty_1e8, 0);
      const debit = mine.reduce((s, f) => s + buyDebit1e8(f), 0n);
      const gross = mine.reduce((s, f) => s + (BigInt(f.price_1e9) * BigInt(f.qty_1e8)) / 1_000_000_000n, 0n);
      assert.equal(qtyOf(after.positions, venue, 'BTC'), SEED_BTC_1E8 + bought, `${venue} BTC`);
      const usdt = BigInt(qtyOf(after.positions, venue, 'USDT')!);
      assert.equal(usdt, BigInt(SIM_ACCOUNT_USD * 1e8) - debit, `${venue} USDT = seed - cost - fee`);
      assert.ok(BigInt(SIM_ACCOUNT_USD * 1e8) - usdt >= gross, `${venue} USDT down by at least the fills' cost`);
      feesTotal += mine.reduce((s, f) => s + f.fee_1e9, 0);
      const btcRow = after.positions.find((p) => p.venue === venue && p.instrument.symbol === 'BTC')!;
      assert.equal(btcRow.fees_usd_1e9, mine.reduce((s, f) => s + f.fee_1e9, 0), 'the USD fee sits on the base row');
    }
    for (const row of after.positions) {
      assert.equal(row.locked_qty_1e8, 0, `nothing stays reserved: ${JSON.stringify(row)}`);
      assert.equal(row.is_sandbox, false);
    }
    for (const k of TOTALS_KEYS) assert.equal(typeof after.totals[k], 'number', `totals.${k}`);
    assert.equal(after.totals['num_positions'], after.positions.length);
    assert.equal(after.totals['fees_usd_1e9'], feesTotal);
    assertSumOf(after.totals['nav_usd_1e9']!, after.positions.map((p) => p.current_value_usd_1e9), 'nav is the sum of the rows');
    const cash = after.positions.filter((p) => ['USDT', 'USDC', 'USD'].includes((p.instrument.symbol ?? p.instrument.code)!));
    assertSumOf(after.totals['cash_usd_1e9']!, cash.map((p) => p.qty_1e8 * 10), 'stablecoins count as $1 cash');
    assert.equal(typeof after.as_of_ns, 'number');

    // The fills listing has them, newest first, and filters by order.
    const listed = await call<{ fills: Fill[]; total: number; has_more: boolean; next_cursor: string | null; limit: number }>(
      base, 'GET', `/v1/fills?node_order_id=${id}&limit=1000`, { token },
    );
    assert.equal(listed.status, 200);
    assert.equal(listed.body.total, fills.length);
    assert.deepEqual(listed.body.fills.map((f) => f.id), fills.map((f) => f.id).sort((a, b) => b - a), 'newest first');
    assert.equal(listed.body.has_more, false);
    assert.equal(listed.body.next_cursor, null);
    // The order's fills page with the cursor too, each once.
    const byOrder: number[] = [];
    for (let cursor: string | null = null, pages = 0; pages === 0 || cursor !== null; pages++) {
      const page: { status: number; body: { fills: Fill[]; next_cursor: string | null; total: number } } = await call(
        base, 'GET', `/v1/fills?node_order_id=${id}&limit=1${cursor === null ? '' : `&after=${cursor}`}`, { token },
      );
      assert.equal(page.status, 200, JSON.stringify(page.body));
      assert.equal(page.body.total, fills.length, 'the total is the order\'s, on every page');
      byOrder.push(...page.body.fills.map((f) => f.id));
      cursor = page.body.next_cursor;
      assert.ok(pages <= fills.length, 'the walk ends');
    }
    assert.deepEqual(byOrder, fills.map((f) => f.id).sort((a, b) => b - a), 'each of the order\'s fills once, newest first');
    const all = await call<{ fills: Fill[]; total: number }>(base, 'GET', '/v1/fills', { token });
    assert.equal(all.body.total, fills.length, 'the client has no other fills');
    const bySymbol = await call<{ total: number }>(base, 'GET', '/v1/fills?symbol=btc-usdt', { token });
    assert.equal(bySymbol.body.total, fills.length);
    assert.equal((await call<{ total: number }>(base, 'GET', '/v1/fills?symbol=ETH-USDT', { token })).body.total, 0);
    // A page of one walks the same fills with the cursor.
    const walked: number[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: { fills: Fill[]; next_cursor: string | null } } = await call(
        base, 'GET', `/v1/fills?limit=1${cursor === null ? '' : `&after=${cursor}`}`, { token },
      );
      assert.equal(page.status, 200);
      walked.push(...page.body.fills.map((f) => f.id));
      cursor = page.body.next_cursor;
    } while (cursor !== null);
    assert.deepEqual(walked, fills.map((f) => f.id).sort((a, b) => b - a));

    // The order appears in the listing, and another client sees none of it.
    const mine = await call<{ orders: Order[] }>(base, 'GET', '/v1/orders', { token });
    assert.deepEqual(mine.body.orders.map((o) => o.node_order_id), [id]);
    const err = await call(base, 'GET', `/v1/orders/${id}`, { token: strangerToken });
    assert.equal(err.status, 404);
    assert.equal(envelope(err.body).code, 'NOT_FOUND');
    assert.equal((await call<{ total: number }>(base, 'GET', '/v1/fills', { token: strangerToken })).body.total, 0);
    assert.equal((await call<{ total: number }>(base, 'GET', '/v1/orders', { token: strangerToken })).body.total, 0);
    assert.deepEqual((await positions(strangerToken)).positions, []);
  });

  it(
    'a buy larger than any one account spreads over every funded venue, none of its legs refused for balance',
    async () => {
      const token = await newClient('newcomer-2');
      await storeCredentials(token, FUNDED);
      await until('sim accounts opened', async () => {
        const p = await positions(token);
        return FUNDED.every((v) => qtyOf(p.positions, v, 'USDT') !== undefined) ? true : undefined;
      });
      // About $3.9M: more than the three $1M accounts together, so every funded venue's leg is
      // sized by its balance (the router budgets cash / (1 + taker fee)).
      const res = await call<Order>(base, 'POST', '/v1/orders', {
        token,
        body: { client_order_id: 'newcomer-big-1', symbol: SYMBOL, side: 'buy', qty_1e8: 4_000_000_000, order_type: 'market' },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const order = await waitTerminal(token, res.body.node_order_id);
      assert.deepEqual([...new Set(order.children.map((c) => c.venue))].sort(), [...FUNDED].sort(), 'the plan uses every funded venue');
      for (const c of order.children) {
        // What dispatch reserves for the leg: its worst price for the whole qty, plus the fee.
        const cost = Math.ceil(((c as any).limit_price_1e9 * c.qty_1e8) / 1e9);
        const reserve = cost + Math.ceil((cost * TAKER_BPS[c.venue]!) / 10_000);
        assert.notEqual(
          c.reason,
          'insufficient_balance',
          `the router sized the ${c.venue} leg to its balance, yet it was refused (reservation ${reserve} > cash ${SIM_ACCOUNT_USD * 1e8}): ${JSON.stringify(c)}`,
        );
      }
      const after = await positions(token);
      for (const row of after.positions) assert.ok(row.qty_1e8 >= 0 && row.locked_qty_1e8 === 0, JSON.stringify(row));
    },
  );
});
