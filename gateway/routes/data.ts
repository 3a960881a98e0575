import { Type, type Static } from 'typebox';
import type { EdgeMessage, FundingInfo, FundingPoint } from '../../actors/edge/messages.ts';
import { QuoteCacheReader, QuoteSnapshot } from '../../actors/book/quote-cache.ts';
import { FAIR_ACTOR, type FairMessage, type FairReply } from '../../actors/fair-price/messages.ts';
import { EDGES, edgesListing } from '../../domain/venues.ts';
import { book, books, edgeKey, type BookEntry, type BookType } from '../../actors/market/directory.ts';
import { underlyingOf, VENUES } from '../../domain/market.ts';
import type { FillRecord, OrderRecord } from '../../domain/orders.ts';
import { nowNs } from '../../domain/units.ts';
import { fillDrift, lastReconcilePerEdge, ordersInDoubt } from '../../execution/recon.ts';
import type { GatewayContext } from '../context.ts';
import { Errors } from '../errors.ts';
import { principalOf, type RouteSpec } from '../http/route.ts';
import { MAX_SIGNAL_HORIZON_S, MID_SAMPLE_MS } from '../market/mid-history.ts';
import { computeSignals, type SignalBook } from '../market/signals.ts';
import { tapeKey } from '../market/tape-writer.ts';
import { edgeStatuses } from './market.ts';
import {
  DataHealthSchema,
  DataReconSchema,
  DataSignalsSchema,
  DataStatsSchema,
  FeedHealthSchema,
  type DataHealth,
  type DataRecon,
  type DataSignals,
  type DataStats,
  type FeedHealth,
} from '../schemas/data.ts';

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

const ReconQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 200, description: 'the most recent orders whose fills are checked against the venue reports' })),
});
/** Orders in doubt listed at most (the count covers them all). */
const MAX_IN_DOUBT_LISTED = 100;

/** Symbols in one signals request at most. */
const MAX_SIGNAL_SYMBOLS = 20;
/** Without `symbol`: these, where a book of the instrument type has data. */
const DEFAULT_SIGNAL_SYMBOLS = ['BTC-USDT', 'ETH-USDT', 'SOL-USDT', 'XRP-USDT', 'BNB-USDT', 'DOGE-USDT'] as const;
/** Trades read from the tape per symbol at most; a busier horizon is read from its end and flagged `truncated`. */
const MAX_SIGNAL_TRADES = 20_000;

const SignalsQuery = Type.Object({
  symbol: Type.Optional(
    Type.String({ minLength: 1, maxLength: 500, description: `a symbol or a comma list of up to ${MAX_SIGNAL_SYMBOLS}; default ${DEFAULT_SIGNAL_SYMBOLS.join(', ')} (those whose book has data)` }),
  ),
  instrument_type: Type.Optional(Type.String({ enum: ['spot', 'perp'], default: 'spot' })),
  horizon_s: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_SIGNAL_HORIZON_S, default: 60, description: 'the return, volatility and trade-flow window, seconds' })),
  levels: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 5, description: 'book levels each side the imbalance sums' })),
});
const perpEdges = () => EDGES.filter((e) => e.instrument_type === 'perp');

/** `EXPECTED_VENUES` (comma list) names the venues that should be connected; default all ten. */
function expectedVenues(): string[] {
  const raw = process.env['EXPECTED_VENUES'];
  return raw ? raw.split(',').map((v) => v.trim()).filter((v) => v !== '') : [...VENUES];
}

export function dataRoutes(ctx: GatewayContext): RouteSpec[] {
  const endpoint = ctx.topology.endpoint;
  const quoteCache = new QuoteCacheReader(ctx.market.memory.quotes);
  const snapshot = new QuoteSnapshot();
  /** The consolidated book's integer top `levels` from the quote cache, or undefined before its first write. */
  const bookOf = (entry: BookEntry, levels: number): SignalBook | undefined => {
    if (!quoteCache.read(entry.slot, levels, snapshot)) return undefined;
    return {
      bid_1e9: snapshot.bid_1e9,
      ask_1e9: snapshot.ask_1e9,
      crossed: snapshot.crossed,
      updated_ms: snapshot.updated_ms,
      bid_qtys_1e8: Array.from(snapshot.bidQtys.subarray(0, snapshot.bidCount)),
      ask_qtys_1e8: Array.from(snapshot.askQtys.subarray(0, snapshot.askCount)),
    };
  };
  const fairOf = (underlying: string) =>
    endpoint
      .ask<FairReply>(FAIR_ACTOR, { t: 'Get', underlying } satisfies FairMessage, 2_000)
      .then((fair) => (fair === null ? null : { underlying, fair_mid_1e9: fair.fair_mid_1e9, confidence: fair.confidence }))
      .catch(() => null);
  /** The books a signals request names (404 for an unknown symbol), or the default set's live ones. */
  const signalBooks = (symbols: string | undefined, type: BookType): BookEntry[] => {
    if (symbols === undefined) {
      return DEFAULT_SIGNAL_SYMBOLS.map((s) => book(s, type)).filter((e): e is BookEntry => e !== undefined && quoteCache.version(e.slot) >= 0);
    }
    const names = [...new Set(symbols.split(',').map((s) => s.trim().toUpperCase()).filter((s) => s !== ''))];
    if (names.length === 0) throw Errors.validation([{ field: 'symbol', message: 'names no symbol' }]);
    if (names.length > MAX_SIGNAL_SYMBOLS) throw Errors.validation([{ field: 'symbol', message: `at most ${MAX_SIGNAL_SYMBOLS} symbols` }]);
    return names.map((name) => {
      const entry = book(name, type);
      if (entry === undefined) throw Errors.notFound(`no ${type} book for ${name}`);
      return entry;
    });
  };
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
            edges: statuses.map((s) => ({ edge_id: s.edge_id, venue: s.venue, connected: s.connected, remote: s.remote === true, region: s.region })),
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
            // Reconciliation is of a client's orders, not of the feeds: per client and mode at /v1/data/recon.
            reconciliation: { state: 'not_applicable', note: 'reconciliation is per client and mode: GET /v1/data/recon' },
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
      path: '/v1/data/recon',
      operationId: 'getDataRecon',
      summary: "Reconciliation state of the caller's orders: orders in doubt, the last reconcile per venue edge, drift between our fills and the venues' reports",
      description:
        'Per client and mode (a sandbox key sees its sandbox orders only). Orders in doubt are the working orders whose leg or cancel answer was lost (UNCONFIRMED, or reconciling); ' +
        "the last reconcile per edge is the client's router's since it started, or a restart's closing of a working order; drift compares, per venue, the sum of our fills' fee_1e9 and qty_1e8 " +
        "with the venue's reported cumulative fee and quantity of the legs, over the most recent `limit` orders (docs/data-engine.md).",
      tags: ['data'],
      auth: 'bearer',
      query: ReconQuery,
      responses: { 200: { description: 'Reconciliation state', schema: DataReconSchema } },
      handler: async (req) => {
        const p = principalOf(req);
        const limit = (req.query as Static<typeof ReconQuery>).limit ?? 200;
        // The router's log first, LMDB after it: the orders in doubt are as fresh as the log or fresher.
        const router = await ctx.execution.recon(p).catch((err: unknown) => {
          ctx.log.warn({ err, client_id: p.client_id, mode: p.mode }, 'router did not answer the recon read');
          return undefined;
        });
        const store = ctx.storage.orders;
        const inDoubt = ordersInDoubt(store.openOrders({ clientId: p.client_id, mode: p.mode }), router?.in_doubt ?? []);
        const recent = store.listOrders(p.client_id, p.mode, { limit }).orders;
        const fillsOf = (o: OrderRecord) => o.fill_ids.map((id) => store.getFill(o.client_id, o.mode, id)).filter((f): f is FillRecord => f !== undefined);
        const drift = fillDrift(recent, fillsOf);
        const body = {
          is_sandbox: p.mode === 'sandbox',
          as_of_unix_ns: nowNs(),
          router: { answered: router !== undefined, started_unix_ns: router?.started_unix_ns ?? null },
          in_doubt: { count: inDoubt.length, orders: inDoubt.slice(0, MAX_IN_DOUBT_LISTED) },
          last_reconcile: lastReconcilePerEdge(router?.edges ?? [], recent, inDoubt),
          drift: { window_orders: limit, ...drift },
        } satisfies DataRecon;
        return { status: 200, body };
      },
    },
    {
      method: 'get',
      path: '/v1/data/signals',
      operationId: 'getDataSignals',
      summary: 'Short-horizon signals per symbol: mid return, realised volatility, book imbalance, spread, trade-flow imbalance, fair-price basis',
      description:
        'Computed from what the service holds: the consolidated book (quote cache), its NBBO mid sampled every 500 ms for up to 1,024 s, the trade tape over the horizon and the ' +
        'fair price of the underlying. Volatility is per sqrt-second in bps and annualised over a 365-day year (docs/data-engine.md).',
      tags: ['data'],
      auth: 'bearer',
      query: SignalsQuery,
      responses: {
        200: { description: 'Signals, one per symbol', schema: DataSignalsSchema },
        404: { description: 'No book of the instrument type for a symbol' },
      },
      handler: async (req) => {
        const q = req.query as Static<typeof SignalsQuery>;
        const type: BookType = q.instrument_type === 'perp' ? 'perp' : 'spot';
        const horizon_s = q.horizon_s ?? 60;
        const levels = q.levels ?? 5;
        const entries = signalBooks(q.symbol, type);
        const underlyings = [...new Set(entries.map((e) => underlyingOf(e.symbol)).filter((u): u is string => u !== undefined))];
        const fairs = new Map(await Promise.all(underlyings.map(async (u) => [u, await fairOf(u)] as const)));
        // After the fair prices' round trip: the book, mids and tape are read at one instant.
        const now = Date.now();
        const from = now - horizon_s * 1000;
        const signals = entries.map((entry) => {
          const key = tapeKey(entry.symbol, type);
          // Read forward from the horizon's start; a busier horizon is read again from its end,
          // so the flow is of its newest MAX_SIGNAL_TRADES trades.
          let trades = ctx.storage.tape.range(key, from, now + 1, MAX_SIGNAL_TRADES + 1);
          const truncated = trades.length > MAX_SIGNAL_TRADES;
          if (truncated) trades = ctx.storage.tape.latest(key, MAX_SIGNAL_TRADES).filter((tr) => tr.ts_ms >= from && tr.ts_ms <= now);
          const underlying = underlyingOf(entry.symbol);
          return {
            symbol: entry.symbol,
            instrument_type: type,
            ...computeSignals({
              now_ms: now,
              horizon_s,
              levels,
              book: bookOf(entry, levels),
              mids: ctx.market.quotes.mids.since(entry, from),
              history_from_ms: ctx.market.quotes.mids.oldestMs(entry),
              trades,
              trades_truncated: truncated,
              fair: underlying === undefined ? null : (fairs.get(underlying) ?? null),
            }),
          };
        });
        return { status: 200, body: { as_of_ms: now, horizon_s, levels, sample_ms: MID_SAMPLE_MS, signals } satisfies DataSignals };
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
