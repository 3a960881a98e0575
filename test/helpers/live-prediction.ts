/**
 * What the live prediction venues' end-to-end tests share (test/integration/live-kalshi.test.ts,
 * live-polymarket.test.ts): the real service with one prediction venue on its adapter pointed at
 * the venue's fake, its catalog read every second, a client with the venue's credentials stored,
 * and the calls the cases make (a market row, a quote, an order and its settlement, positions).
 */
import assert from 'node:assert/strict';
import type { PredictionVenue } from '../../domain/prediction/catalog.ts';
import { call, clientWithKeys, startTestService, TEST_OPERATOR_KEY, until, type TestService } from './service.ts';
import { TERMINAL, type ApiFill, type ApiOrder } from './orders.ts';

export interface MarketRow {
  venue: string;
  slug: string;
  symbol: string;
  status: string;
  yes_token_id: string | null;
  no_token_id: string | null;
  best_yes_bid: number | null;
  best_yes_ask: number | null;
  volume_24h: number;
}

export interface PredictionQuote {
  symbol: string;
  nbbo: { bid: number; ask: number; bid_size: number; ask_size: number };
  market: { venue: string; market_id: string; leg: string };
}

export type PredictionFill = ApiFill & { trade_id?: string; venue_trade_id?: string; instrument?: { kind: string; market_slug: string; outcome: string; token_id: string | null } };
export type PredictionOrder = ApiOrder & { fills?: PredictionFill[] };

export interface PositionRow {
  venue: string;
  instrument: { kind: string; market_slug?: string; outcome?: string; code?: string; symbol?: string };
  qty_1e8: number;
}

export interface LivePredictionRun {
  readonly svc: TestService;
  token: string;
  /** the market's row in GET /v1/markets once listed (and `also` holds of it) */
  listed(slugOrSymbol: string, also?: (row: MarketRow) => boolean, timeoutMs?: number): Promise<MarketRow>;
  /** GET /v1/quotes/{symbol} once `also` holds of it */
  quoted(symbol: string, also: (q: PredictionQuote) => boolean, what: string, timeoutMs?: number): Promise<PredictionQuote>;
  /** POST /v1/orders; answers the status and body (a refusal is an answer here) */
  place(body: Record<string, unknown>, token?: string): Promise<{ status: number; body: PredictionOrder }>;
  settled(id: string, token?: string, timeoutMs?: number): Promise<PredictionOrder>;
  positions(token?: string): Promise<PositionRow[]>;
  client(name: string): Promise<string>;
  storeCredentials(token: string, credentials: Record<string, unknown>): Promise<void>;
  stop(): Promise<void>;
}

export interface LivePredictionOptions {
  venue: PredictionVenue;
  urls: { rest: string; ws: string };
  credentials: Record<string, unknown>;
  client: string;
}

let orders = 0;

export async function startLivePrediction(o: LivePredictionOptions): Promise<LivePredictionRun> {
  const svc = await startTestService({ liveVenues: [{ venue: o.venue, endpoints: o.urls }], liveCatalogMs: 1_000 });
  await until('service ready', async () => ((await call(svc.base, 'GET', '/v1/health/ready')).status === 200 ? true : undefined), 30_000);
  const client = async (name: string) => (await clientWithKeys(svc, name)).live;
  const storeCredentials = async (t: string, credentials: Record<string, unknown>) => {
    const stored = await call(svc.base, 'POST', `/v1/credentials/${o.venue}`, { token: t, body: credentials });
    assert.equal(stored.status, 200, JSON.stringify(stored.body));
  };
  const token = await client(o.client);
  await storeCredentials(token, o.credentials);
  return {
    svc,
    token,
    client,
    storeCredentials,
    listed(slugOrSymbol, also = () => true, timeoutMs = 15_000) {
      return until(`${slugOrSymbol} listed`, async () => {
        // Trading, closed and settled; then resolved (the listing's status filters).
        const rows: MarketRow[] = [];
        for (const filter of ['active=true&closed=true', 'active=false&closed=true']) {
          const res = await call<{ markets?: MarketRow[] }>(svc.base, 'GET', `/v1/markets?venue=${o.venue}&${filter}&expand=outcomes&limit=500`, { token: TEST_OPERATOR_KEY });
          rows.push(...(res.body.markets ?? []));
        }
        const row = rows.find((m) => (m.slug === slugOrSymbol || m.symbol === slugOrSymbol || m.yes_token_id === slugOrSymbol) && also(m));
        return row;
      }, timeoutMs, 200);
    },
    quoted(symbol, also, what, timeoutMs = 15_000) {
      return until(what, async () => {
        const res = await call<PredictionQuote>(svc.base, 'GET', `/v1/quotes/${encodeURIComponent(symbol)}`, { token: TEST_OPERATOR_KEY });
        return res.status === 200 && also(res.body) ? res.body : undefined;
      }, timeoutMs, 100);
    },
    async place(body, t = token) {
      const res = await call<PredictionOrder>(svc.base, 'POST', '/v1/orders', { token: t, body: { client_order_id: `${o.venue}-${++orders}`, side: 'buy', order_type: 'market', ...body } });
      return { status: res.status, body: res.body };
    },
    settled(id, t = token, timeoutMs = 20_000) {
      return until(`order ${id} settles`, async () => {
        const res = await call<PredictionOrder>(svc.base, 'GET', `/v1/orders/${id}?expand=fills`, { token: t });
        return TERMINAL.has(res.body.status) ? res.body : undefined;
      }, timeoutMs, 100);
    },
    async positions(t = token) {
      return (await call<{ positions?: PositionRow[] }>(svc.base, 'GET', `/v1/positions?venues=${o.venue}`, { token: t })).body.positions ?? [];
    },
    stop: () => svc.stop(),
  };
}
