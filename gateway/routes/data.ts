import { Type, type Static } from 'typebox';
import type { EdgeMessage, FundingInfo, FundingPoint } from '../../actors/edge/messages.ts';
import { EDGES, edgesListing } from '../../domain/venues.ts';
import { books, edgeKey } from '../../actors/market/directory.ts';
import { VENUES } from '../../domain/market.ts';
import type { GatewayContext } from '../context.ts';
import { Errors } from '../errors.ts';
import type { RouteSpec } from '../http/route.ts';
import { tapeKey } from '../market/tape-writer.ts';
import { edgeStatuses } from './market.ts';
import { DataHealthSchema, DataStatsSchema, FeedHealthSchema, type DataHealth, type DataStats, type FeedHealth } from '../schemas/data.ts';

const FundingRate = Type.Object({
  venue: Type.String(),
  edge_id: Type.String(),
  symbol: Type.String(),
  rate_bps: Type.Number(),
  rate_1e9: Type.Integer(),
  interval_hours: Type.Number(),
  next_funding_ns: Type.Integer(),
  premium_bps: Type.Number(),
  ts_ns: Type.Integer(),
});

const FundingHistoryQuery = Type.Object({
  venue: Type.Optional(Type.String()),
  range: Type.Optional(Type.String({ enum: ['1d', '1w', '1m'], default: '1w' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 200 })),
});

const RANGE_NS: Record<string, number> = { '1d': 86_400e9, '1w': 7 * 86_400e9, '1m': 30 * 86_400e9 };
const perpEdges = () => EDGES.filter((e) => e.instrument_type === 'perp');

/** `EXPECTED_VENUES` (comma list) names the venues that should be connected; default all ten. */
function expectedVenues(): string[] {
  const raw = process.env['EXPECTED_VENUES'];
  return raw ? raw.split(',').map((v) => v.trim()).filter((v) => v !== '') : [...VENUES];
}

export function dataRoutes(ctx: GatewayContext): RouteSpec[] {
  const endpoint = ctx.topology.endpoint;
  return [
    {
      method: 'get',
      path: '/v1/market/funding-rates',
      operationId: 'getFundingRates',
      summary: 'Current funding rates across perpetual venues',
      tags: ['market data'],
      auth: 'bearer',
      responses: { 200: { description: 'Rates', schema: Type.Object({ rates: Type.Array(FundingRate) }) } },
      handler: async () => {
        const perEdge = await Promise.all(
          perpEdges().map(async (edge) => {
            const infos = await endpoint
              .ask<FundingInfo[]>(edgeKey(edge.edge_id), { t: 'FundingAll' } satisfies EdgeMessage, 2_000)
              .catch(() => [] as FundingInfo[]);
            return infos.map((f) => ({ venue: edge.venue, edge_id: edge.edge_id, ...f }));
          }),
        );
        return { status: 200, body: { rates: perEdge.flat() } };
      },
    },
    {
      method: 'get',
      path: '/v1/funding_history/{symbol}',
      operationId: 'getFundingHistory',
      summary: 'Historical funding rates of a perpetual symbol, per venue',
      tags: ['market data'],
      auth: 'bearer',
      params: Type.Object({ symbol: Type.String({ minLength: 1, maxLength: 200 }) }),
      query: FundingHistoryQuery,
      responses: {
        200: {
          description: 'Funding points, ascending per venue',
          schema: Type.Object({
            symbol: Type.String(),
            history: Type.Array(Type.Object({ venue: Type.String(), ts_ns: Type.Integer(), rate_bps: Type.Number(), rate_1e9: Type.Integer(), mark_1e9: Type.Integer({ description: "the venue's mark at the funding instant: what positions paid funding on" }) })),
          }),
        },
        404: { description: 'No perpetual venue lists the symbol' },
      },
      handler: async (req) => {
        const q = req.query as Static<typeof FundingHistoryQuery>;
        const symbol = req.params['symbol']!.toUpperCase();
        const edges = edgesListing(symbol, 'perp').filter((e) => q.venue === undefined || e.venue === q.venue);
        if (edges.length === 0) throw Errors.notFound(`no perpetual venue lists ${symbol}${q.venue ? ` on ${q.venue}` : ''}`);
        const to = Date.now() * 1_000_000;
        const from = to - RANGE_NS[q.range ?? '1w']!;
        const limit = q.limit ?? 200;
        const perEdge = await Promise.all(
          edges.map(async (edge) => {
            const points = await endpoint
              .ask<FundingPoint[]>(edgeKey(edge.edge_id), { t: 'FundingHistory', symbol, from_ns: from, to_ns: to } satisfies EdgeMessage, 2_000)
              .catch(() => [] as FundingPoint[]);
            return points.slice(-limit).map((p) => ({ venue: edge.venue, ...p }));
          }),
        );
        return { status: 200, body: { symbol, history: perEdge.flat() } };
      },
    },
    {
      method: 'get',
      path: '/v1/health/edges',
      operationId: 'getHealthEdges',
      summary: 'Drift between the expected venue list (EXPECTED_VENUES) and the connected edges',
      tags: ['health'],
      auth: 'public',
      responses: {
        200: {
          description: 'Drift report',
          schema: Type.Object({
            ok: Type.Boolean(),
            expected: Type.Array(Type.String()),
            connected: Type.Array(Type.String()),
            missing: Type.Array(Type.String()),
            unexpected: Type.Array(Type.String()),
            edges: Type.Array(Type.Object({ edge_id: Type.String(), venue: Type.String(), connected: Type.Boolean(), remote: Type.Boolean(), region: Type.String() })),
          }),
        },
      },
      handler: async () => {
        const statuses = await edgeStatuses(ctx);
        const expected = expectedVenues();
        const connected = [...new Set(statuses.filter((s) => s.connected).map((s) => s.venue))];
        const missing = expected.filter((v) => !connected.includes(v));
        const unexpected = connected.filter((v) => !expected.includes(v));
        return {
          status: 200,
          body: {
            ok: missing.length === 0 && unexpected.length === 0,
            expected,
            connected,
            missing,
            unexpected,
            edges: statuses.map((s) => ({ edge_id: s.edge_id, venue: s.venue, connected: s.connected, remote: false, region: s.region })),
          },
        };
      },
    },
    {
      method: 'get',
      path: '/v1/health/feeds',
      operationId: 'getHealthFeeds',
      summary: 'Per-symbol freshness, ring utilisation, venue health, tape',
      tags: ['health'],
      auth: 'bearer',
      responses: { 200: { description: 'Feed health', schema: FeedHealthSchema } },
      handler: async () => {
        const [statuses, workers] = await Promise.all([edgeStatuses(ctx), ctx.topology.stats()]);
        // After the awaits: books and edges read below may have ticked while we waited.
        const now = Date.now();
        const symbols = books().map((b) => {
          const quote = ctx.market.quotes.cached(b, 1);
          return {
            symbol: b.symbol,
            instrument_type: b.instrument_type,
            age_ms: quote === undefined ? null : Math.max(0, now - quote.updated_ms),
            venues_expected: b.venues.length,
            venues_quoting: quote === undefined ? 0 : Object.keys(quote.venues).length,
            crossed: quote?.nbbo.crossed ?? false,
            // A book that stopped changing while its venues are connected: a gap worth a look.
            gap: quote === undefined || now - quote.updated_ms > 10_000,
          };
        });
        return {
          status: 200,
          body: {
            symbols,
            rings: workers.map((w, i) => ({
              thread: i + 1,
              up: w !== null,
              mailbox_pending_bytes: w?.mailbox_pending_bytes ?? null,
              fullest_ring: w?.fullest_ring ?? null,
              heap_used_bytes: w?.heap_used_bytes ?? null,
              actors: w?.actors ?? null,
            })),
            gateway_thread: ctx.topology.gatewayStats(),
            venues: statuses.map((s) => ({ edge_id: s.edge_id, connected: s.connected, last_seen_age_ms: s.last_seen_ms === 0 ? null : Math.max(0, now - s.last_seen_ms), symbol_count: s.symbol_count })),
            tape: ctx.storage.tape.stats(),
            reconciliation: { state: 'not_applicable', note: 'no venue accounts in the market-data service yet' },
          } satisfies FeedHealth,
        };
      },
    },
    {
      method: 'get',
      path: '/v1/data/health',
      operationId: 'getDataHealth',
      summary: 'Data engine health: tape writes, retention, lag',
      tags: ['data'],
      auth: 'bearer',
      responses: { 200: { description: 'Tape health', schema: DataHealthSchema } },
      handler: () => {
        const stats = ctx.storage.tape.stats();
        const now = Date.now();
        return {
          status: 200,
          body: {
            ok: stats.last_write_ms > 0 && now - stats.last_write_ms < 10_000,
            ...stats,
            last_write_age_ms: stats.last_write_ms === 0 ? null : now - stats.last_write_ms,
            retention_ms: ctx.storage.tape.retentionMs,
          } satisfies DataHealth,
        };
      },
    },
    {
      method: 'get',
      path: '/v1/data/stats',
      operationId: 'getDataStats',
      summary: 'Trades per symbol over the last hour and the tape totals',
      tags: ['data'],
      auth: 'bearer',
      responses: { 200: { description: 'Statistics', schema: DataStatsSchema } },
      handler: () => {
        const now = Date.now();
        const keys = books().map((b) => tapeKey(b.symbol, b.instrument_type));
        return { status: 200, body: { window_ms: 3_600_000, trades_last_hour: ctx.storage.tape.counts(keys, now - 3_600_000, now + 1), tape: ctx.storage.tape.stats() } satisfies DataStats };
      },
    },
  ];
}
