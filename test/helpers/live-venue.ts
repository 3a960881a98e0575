/**
 * What every live-adapter integration test does around its venue's fake (test/fakes/*-fake.ts):
 * the real service started with that venue on its adapter pointed at the fake, a client with
 * the venue's credentials stored, the fake's book seeded around the simulated venues' mid, and
 * the calls the cases share (an order on the venue, waiting for it to settle, the venue's quote,
 * the balances pulled, a level moved and resynced, a restart on the same data). `withLiveVenue`
 * also registers the suite's hooks and adds the steps the venues' cases share on the fake's
 * orders: a market buy, a lost answer, a rotated secret, a resting leg's maker fill, the kill
 * switch. The venue's own cases, and what it checks on its fake, stay in its test file.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { VenueId } from '../../domain/market.ts';
import type { FakeAccount, FakeOrder, FakeSymbol, FakeTrade } from '../fakes/exchange-core.ts';
import { call, clientWithKeys, startTestService, TEST_OPERATOR_KEY, until, type TestService } from './service.ts';
import { TERMINAL, type ApiFill, type ApiOrder } from './orders.ts';

export const P = 1e9;
export const Q = 1e8;

/** A fake with the shared exchange core's book setter (every venue fake has one). */
export interface SeedableFake {
  setLevel(symbol: string, side: 'bid' | 'ask', price: number, qty: number): void;
}

/** A venue fake as every one is built (FakeVenueServer on the shared exchange core): its server, its knobs and counters for orders, the orders of an API key. */
export interface TradingFake extends SeedableFake {
  listen(): Promise<{ rest: string; ws: string }>;
  close(): Promise<void>;
  /** the next placements the venue takes but whose answers it drops */
  swallowOrderAnswers: number;
  readonly seen: { readonly orders: number };
  readonly exchange: { tradesOf(orderId: number): FakeTrade[] };
  order(apiKey: string, clientOrderId: string): FakeOrder | undefined;
  openOrders(apiKey: string): FakeOrder[];
  fillResting(apiKey: string, clientOrderId: string, qty: number): void;
}

export type SettledFill = ApiFill & { commission_asset: string; commission_qty_1e8?: number };
export type SettledOrder = ApiOrder & { fills?: SettledFill[] };
export interface VenueQuote {
  bid: number;
  ask: number;
  bid_size: number;
  ask_size: number;
}
export interface PositionRow {
  venue: string;
  instrument: { symbol?: string; code?: string };
  qty_1e8: number;
}

export interface LiveVenueRun {
  /** the running service (a new one after `restart`) */
  svc: TestService;
  /** the client's live key, its credentials stored on the venue */
  token: string;
  /** the simulated venues' mid the fake's book was seeded around, price x 1e9 */
  mid: number;
  /** POST /v1/orders on this venue and symbol */
  order(body: Record<string, unknown>, token?: string): Promise<ApiOrder>;
  /** the order once terminal, with its fills */
  settled(id: string, token?: string, timeoutMs?: number): Promise<SettledOrder>;
  /** the order as it is now, with its fills */
  current(id: string, token?: string): Promise<SettledOrder>;
  /** the venue's row of GET /v1/quotes/{symbol} */
  venueQuote(): Promise<VenueQuote | undefined>;
  /** waits until the venue's quote is the seeded book's best levels, 1 either side of the mid */
  seededQuote(): Promise<VenueQuote>;
  /**
   * Sets the fake's level half a unit inside the seeded best `side` (qty 0 takes it away again)
   * and waits until the venue's quote shows it and `also()` holds.
   */
  quoted(side: 'bid' | 'ask', qty: number, what: string, also?: () => boolean, timeoutMs?: number): Promise<void>;
  /**
   * `disturb` (a gap, a bad checksum, a dropped stream), then `quoted(side, qty)` once `count()` (the
   * fake's count of what the resync must take: subscriptions, snapshots, connections) has gone past
   * its value before the disturbance: the book was rebuilt, not patched.
   */
  resyncs(what: string, count: () => number, disturb: () => void, side: 'bid' | 'ask', qty: number, timeoutMs?: number): Promise<void>;
  /** GET /v1/positions of the venue */
  positions(token?: string): Promise<PositionRow[]>;
  /** waits until the client's balance of `asset` on the venue was pulled (and is `qty_1e8`, when given) */
  balancePulled(token: string, asset: string, qty_1e8?: number): Promise<true>;
  /** a second client with its own live key */
  client(name: string): Promise<string>;
  /** stores (or replaces) a client's credentials on the venue */
  storeCredentials(token: string, credentials: Record<string, string>): Promise<void>;
  /** stops the service keeping its data, runs `whileDown`, then starts it again on the same data dir and venue, ready */
  restart(whileDown?: () => void | Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

export interface LiveVenueOptions {
  venue: VenueId;
  /** our symbol (`BTC-USD`) */
  symbol: string;
  /** the fake's spelling of it, for `setLevel` */
  fakeSymbol: string;
  fake: SeedableFake;
  urls: { rest: string; ws: string };
  credentials: Record<string, string>;
  /** the first client's id */
  client: string;
  /** levels a side seeded around the mid, 1 (whole units of price) apart, (i + 1) x 0.1 each */
  levels?: number;
}

const ready = (svc: TestService) => until('service ready', async () => ((await call(svc.base, 'GET', '/v1/health/ready')).status === 200 ? true : undefined), 30_000);

/** Starts the service on the fake, seeds the fake's book around the simulated mid and stores the client's credentials. */
export async function startLiveVenue(o: LiveVenueOptions): Promise<LiveVenueRun> {
  // `let`: a restart replaces it, and every call below reads the one running.
  let svc = await startTestService({ liveVenues: [{ venue: o.venue, endpoints: o.urls }] });
  await ready(svc);
  const simulatedMid = await until('a simulated NBBO', async () => {
    const q = await call<{ nbbo: { mid: number } }>(svc.base, 'GET', `/v1/quotes/${o.symbol}`, { token: TEST_OPERATOR_KEY });
    return q.status === 200 && q.body.nbbo.mid > 0 ? q.body.nbbo.mid : undefined;
  }, 15_000);
  const mid = Math.round(simulatedMid) * P;
  for (let i = 0; i < (o.levels ?? 5); i++) {
    o.fake.setLevel(o.fakeSymbol, 'bid', mid - (i + 1) * P, (i + 1) * 10_000_000);
    o.fake.setLevel(o.fakeSymbol, 'ask', mid + (i + 1) * P, (i + 1) * 10_000_000);
  }
  const client = async (name: string) => (await clientWithKeys(svc, name)).live;
  const storeCredentials = async (t: string, credentials: Record<string, string>) => {
    const stored = await call(svc.base, 'POST', `/v1/credentials/${o.venue}`, { token: t, body: credentials });
    assert.equal(stored.status, 200, JSON.stringify(stored.body));
  };
  const venueQuote = async () => {
    const res = await call<{ venues: Record<string, VenueQuote> }>(svc.base, 'GET', `/v1/quotes/${o.symbol}`, { token: TEST_OPERATOR_KEY });
    return res.body.venues?.[o.venue];
  };
  const quoted = async (side: 'bid' | 'ask', qty: number, what: string, also = () => true, timeoutMs = 10_000) => {
    const inside = side === 'ask' ? mid + P / 2 : mid - P / 2;
    const best = qty > 0 ? inside : side === 'ask' ? mid + P : mid - P;
    o.fake.setLevel(o.fakeSymbol, side, inside, qty);
    await until(what, async () => (also() && (await venueQuote())?.[side] === best / P ? true : undefined), timeoutMs);
  };
  const positions = async (t = token) => (await call<{ positions?: PositionRow[] }>(svc.base, 'GET', `/v1/positions?venues=${o.venue}`, { token: t })).body.positions ?? [];
  const token = await client(o.client);
  await storeCredentials(token, o.credentials);
  return {
    get svc() {
      return svc;
    },
    token,
    mid,
    client,
    storeCredentials,
    venueQuote,
    quoted,
    positions,
    async order(body, t = token) {
      const res = await call<ApiOrder>(svc.base, 'POST', '/v1/orders', { token: t, body: { symbol: o.symbol, venue: o.venue, ...body } });
      assert.ok(res.status === 201 || res.status === 200, JSON.stringify(res.body));
      return res.body;
    },
    settled(id, t = token, timeoutMs = 20_000) {
      return until(`order ${id} settles`, async () => {
        const res = await call<SettledOrder>(svc.base, 'GET', `/v1/orders/${id}?expand=fills`, { token: t });
        return TERMINAL.has(res.body.status) ? res.body : undefined;
      }, timeoutMs, 100);
    },
    async current(id, t = token) {
      return (await call<SettledOrder>(svc.base, 'GET', `/v1/orders/${id}?expand=fills`, { token: t })).body;
    },
    seededQuote() {
      return until(`${o.venue} in the quote`, async () => {
        const q = await venueQuote();
        return q !== undefined && q.ask === mid / P + 1 && q.bid === mid / P - 1 ? q : undefined;
      });
    },
    async resyncs(what, count, disturb, side, qty, timeoutMs) {
      const before = count();
      disturb();
      await quoted(side, qty, what, () => count() > before, timeoutMs);
    },
    balancePulled(t, asset, qty_1e8) {
      return until(`${asset} balance pulled from ${o.venue}`, async () => {
        const row = (await positions(t)).find((p) => p.instrument.code === asset || p.instrument.symbol === asset);
        return row !== undefined && (qty_1e8 === undefined || row.qty_1e8 === qty_1e8) ? (true as const) : undefined;
      }, 30_000);
    },
    async restart(whileDown) {
      await svc.stop(false);
      await whileDown?.();
      svc = await startTestService({ dataDir: svc.dataDir, liveVenues: svc.config.liveVenues });
      await ready(svc);
    },
    stop: () => svc.stop(),
  };
}

/** A leg left resting on the venue: our order, and the venue's order of its child. */
export interface RestingLeg {
  order: ApiOrder;
  onVenue: FakeOrder;
}

export interface LiveVenueSuite<F extends TradingFake> extends LiveVenueRun {
  /** the venue's fake (there from the start: a knob may be set before it listens) */
  fake: F;
  /** a market buy of `qty_1e8`, settled in `status` (COMPLETED unless told) */
  marketBuy(clientOrderId: string, qty_1e8: number, o?: { token?: string; timeoutMs?: number; status?: string }): Promise<SettledOrder>;
  /** the venue's order of the settled order's child, by the client order id the venue knows it by (`venueId` of our child id; the child id itself unless told) */
  venueOrder(done: ApiOrder, venueId?: (childId: string) => string | undefined): FakeOrder;
  /**
   * A 0.01 market buy whose answer the fake drops: COMPLETED all the same (within 40 s, as the
   * reconciliation by client order id takes) and placed on the venue once, never doubled.
   */
  lostAnswer(clientOrderId: string): Promise<SettledOrder>;
  /**
   * A second client whose credentials were good when its balances of `asset` were pulled (so its
   * order passes risk), then replaced by `replaced` over them (a key rotated at the venue): its
   * 0.01 market buy is REJECTED and `refusals()`, the fake's count of what it refused, counted it.
   */
  refusedBuy(client: string, asset: string, replaced: Record<string, string>, clientOrderId: string, refusals: () => number): Promise<SettledOrder>;
  /** a 0.02 GTC buy 20 below the mid, once it rests on the venue */
  restingLeg(clientOrderId: string): Promise<RestingLeg>;
  /** the venue fills 0.005 of the leg as maker; the order once that fill is booked */
  makerFill(leg: RestingLeg, timeoutMs?: number): Promise<SettledOrder>;
  /** the kill switch on (200), then nothing rests on the venue */
  halt(): Promise<void>;
  /** `halt`, then the leg's order settles CANCELLED (returned) */
  killSwitchCancels(leg: RestingLeg, timeoutMs?: number): Promise<SettledOrder>;
  /** the kill switch off */
  release(): Promise<void>;
}

export interface LiveVenueSuiteOptions<F extends TradingFake> extends Omit<LiveVenueOptions, 'fake' | 'urls'> {
  /** the quote of the fake's one market, BTC against it */
  quote: string;
  /** the fake, from its market (its book empty until seeded) and the account of `credentials` (100,000 of the quote, 1 BTC) */
  fake: (markets: FakeSymbol[], accounts: FakeAccount[]) => F;
  /** what the service is pointed at, of where the fake listens (both, unless told) */
  endpoints?: (listening: { rest: string; ws: string }) => { rest: string; ws: string };
}

/**
 * Builds the venue's fake, whose one account is the one the credentials name (`api_key`,
 * `api_secret`, `passphrase`: the fakes check them as the venue would), registers the suite's
 * hooks (before: the fake listening and `startLiveVenue` on it; after: both stopped) and returns
 * the run, whose `fake` is there at once and the rest from `before` on.
 */
export function withLiveVenue<F extends TradingFake>(o: LiveVenueSuiteOptions<F>): LiveVenueSuite<F> {
  const { api_key: apiKey, api_secret: secret, passphrase } = o.credentials as { api_key: string; api_secret: string; passphrase?: string };
  const balances = { [o.quote]: { free: 100_000 * Q, locked: 0 }, BTC: { free: 1 * Q, locked: 0 } };
  const fake = o.fake([{ symbol: o.fakeSymbol, base: 'BTC', quote: o.quote, bids: [], asks: [] }], [{ apiKey, secret, passphrase, balances }]);
  const suite = { fake } as LiveVenueSuite<F>;
  before(async () => {
    const urls = await fake.listen();
    const run = await startLiveVenue({ ...o, fake, urls: o.endpoints?.(urls) ?? urls });
    const marketBuy: LiveVenueSuite<F>['marketBuy'] = async (clientOrderId, qty_1e8, { token, timeoutMs, status = 'COMPLETED' } = {}) => {
      const placed = await run.order({ client_order_id: clientOrderId, side: 'buy', qty_1e8, order_type: 'market' }, token);
      const done = await run.settled(placed.node_order_id, token, timeoutMs);
      assert.equal(done.status, status, JSON.stringify(done));
      return done;
    };
    const halt = async () => {
      const halted = await call(run.svc.base, 'PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: true, reason: 'test' } });
      assert.equal(halted.status, 200, JSON.stringify(halted.body));
      await until('nothing rests on the venue', async () => (fake.openOrders(apiKey).length === 0 ? true : undefined));
    };
    const cases: Omit<LiveVenueSuite<F>, keyof LiveVenueRun | 'fake'> = {
      marketBuy,
      venueOrder(done, venueId = (id) => id) {
        const onVenue = fake.order(apiKey, venueId(done.children[0]!.child_id) ?? '');
        assert.ok(onVenue !== undefined, `${o.venue} knows the order by the client order id made of our child id`);
        return onVenue;
      },
      async lostAnswer(clientOrderId) {
        fake.swallowOrderAnswers = 1;
        const orders = fake.seen.orders;
        const done = await marketBuy(clientOrderId, 1_000_000, { timeoutMs: 40_000 });
        assert.equal(fake.seen.orders - orders, 1, 'placed once');
        return done;
      },
      async refusedBuy(client, asset, replaced, clientOrderId, refusals) {
        const other = await run.client(client);
        await run.storeCredentials(other, o.credentials);
        await run.balancePulled(other, asset);
        await run.storeCredentials(other, { ...o.credentials, ...replaced });
        // Counted from here: the balance pull above, with the good key, is not what the venue refused.
        const refused = refusals();
        const done = await marketBuy(clientOrderId, 1_000_000, { token: other, status: 'REJECTED' });
        assert.ok(refusals() > refused, `${o.venue} saw and refused it`);
        return done;
      },
      async restingLeg(clientOrderId) {
        const order = await run.order({ client_order_id: clientOrderId, side: 'buy', qty_1e8: 2_000_000, order_type: 'limit', limit_price_1e9: run.mid - 20 * P, time_in_force: 'gtc' });
        const onVenue = await until('the leg rests on the venue', async () => fake.openOrders(apiKey)[0]);
        return { order, onVenue };
      },
      async makerFill(leg, timeoutMs) {
        fake.fillResting(apiKey, leg.onVenue.clientOrderId, 500_000);
        return until('the maker fill is booked', async () => {
          const now = await run.current(leg.order.node_order_id);
          return (now.fills ?? []).length === 1 && now.filled_qty_1e8 === 500_000 ? now : undefined;
        }, timeoutMs);
      },
      halt,
      async killSwitchCancels(leg, timeoutMs) {
        await halt();
        const done = await run.settled(leg.order.node_order_id, run.token, timeoutMs);
        assert.equal(done.status, 'CANCELLED');
        return done;
      },
      async release() {
        assert.equal((await call(run.svc.base, 'PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: false } })).status, 200);
      },
    };
    // Descriptors, not a spread: `svc` stays a getter, the service running after a restart.
    Object.defineProperties(suite, { ...Object.getOwnPropertyDescriptors(run), ...Object.getOwnPropertyDescriptors(cases) });
  });
  after(async () => {
    if ('svc' in suite) await suite.stop();
    await fake.close();
  });
  return suite;
}

/**
 * The order's fills are the venue's trades one for one, by the trade id the venue gives each
 * (`idOf`); `each` checks a fill against its trade by the venue's rules (fees, prices).
 */
export function assertFillsAre<T>(done: SettledOrder, trades: readonly T[], idOf: (t: T) => string, each: (f: SettledFill, t: T) => void): void {
  const fills = done.fills ?? [];
  assert.deepEqual(fills.map((f) => f.trade_id).sort(), trades.map(idOf).sort());
  for (const f of fills) each(f, trades.find((t) => idOf(t) === f.trade_id)!);
}
