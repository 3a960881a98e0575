/**
 * What every live-adapter integration test does around its venue's fake (test/fakes/*-fake.ts):
 * the real service started with that venue on its adapter pointed at the fake, a client with
 * the venue's credentials stored, the fake's book seeded around the simulated venues' mid, and
 * the calls the cases share (an order on the venue, waiting for it to settle, the venue's quote,
 * the balances pulled). The venue's own cases stay in its test file.
 */
import assert from 'node:assert/strict';
import type { VenueId } from '../../domain/market.ts';
import { call, clientWithKeys, startTestService, TEST_OPERATOR_KEY, until, type TestService } from './service.ts';
import { TERMINAL, type ApiFill, type ApiOrder } from './orders.ts';

export const P = 1e9;
export const Q = 1e8;

/** A fake with the shared exchange core's book setter (every venue fake has one). */
export interface SeedableFake {
  setLevel(symbol: string, side: 'bid' | 'ask', price: number, qty: number): void;
}

export type SettledOrder = ApiOrder & { fills?: (ApiFill & { commission_asset: string })[] };

export interface LiveVenueRun {
  svc: TestService;
  /** the client's live key, its credentials stored on the venue */
  token: string;
  /** the simulated venues' mid the fake's book was seeded around, price x 1e9 */
  mid: number;
  /** POST /v1/orders on this venue and symbol */
  order(body: Record<string, unknown>, token?: string): Promise<ApiOrder>;
  /** the order once terminal, with its fills */
  settled(id: string, token?: string, timeoutMs?: number): Promise<SettledOrder>;
  /** the venue's row of GET /v1/quotes/{symbol} */
  venueQuote(): Promise<{ bid: number; ask: number } | undefined>;
  /** waits until the client's balance of `asset` on the venue was pulled (and is `qty_1e8`, when given) */
  balancePulled(token: string, asset: string, qty_1e8?: number): Promise<true>;
  /** a second client with its own live key */
  client(name: string): Promise<string>;
  /** stores (or replaces) a client's credentials on the venue */
  storeCredentials(token: string, credentials: Record<string, string>): Promise<void>;
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

/** Starts the service on the fake, seeds the fake's book around the simulated mid and stores the client's credentials. */
export async function startLiveVenue(o: LiveVenueOptions): Promise<LiveVenueRun> {
  const svc = await startTestService({ liveVenues: [{ venue: o.venue, endpoints: o.urls }] });
  await until('service ready', async () => ((await call(svc.base, 'GET', '/v1/health/ready')).status === 200 ? true : undefined), 30_000);
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
  const token = await client(o.client);
  await storeCredentials(token, o.credentials);
  return {
    svc,
    token,
    mid,
    client,
    storeCredentials,
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
    async venueQuote() {
      const res = await call<{ venues: Record<string, { bid: number; ask: number }> }>(svc.base, 'GET', `/v1/quotes/${o.symbol}`, { token: TEST_OPERATOR_KEY });
      return res.body.venues?.[o.venue];
    },
    balancePulled(t, asset, qty_1e8) {
      return until(`${asset} balance pulled from ${o.venue}`, async () => {
        const res = await call<{ positions: { instrument: { symbol?: string; code?: string }; qty_1e8: number }[] }>(svc.base, 'GET', `/v1/positions?venues=${o.venue}`, { token: t });
        const row = res.body.positions?.find((p) => p.instrument.code === asset || p.instrument.symbol === asset);
        return row !== undefined && (qty_1e8 === undefined || row.qty_1e8 === qty_1e8) ? (true as const) : undefined;
      }, 30_000);
    },
    stop: () => svc.stop(),
  };
}
