import { Type, type Static, type TSchema } from 'typebox';
import type { GatewayContext } from '../context.ts';
import { Errors } from '../errors.ts';
import { principalOf, type RouteSpec } from '../http/route.ts';
import { parseInstantMs } from '../http/instants.ts';
import { hourWindow, type TcaGrouping } from '../../execution/analytics/tca-aggregates.ts';
import { SKETCH_RELATIVE_ACCURACY, TcaBucket } from '../../execution/analytics/tca-bucket.ts';
import { SIZE_BUCKETS } from '../../execution/analytics/exec-counts.ts';
import { exactInt, type ExactInt } from '../../domain/units.ts';
import { tcaQuality, tcaReport } from '../../execution/analytics/report.ts';
import {
  ExecutionAnalyticsQuery,
  ExecutionAnalyticsSchema,
  VenueAnalyticsSchema,
  MarketAnalyticsQuery,
  MarketAnalyticsSchema,
  TCA_INTERVALS,
  TcaAnalyticsQuery,
  TcaAnalyticsSchema,
  TcaTimeseriesQuery,
  TcaTimeseriesSchema,
  TcaVersionsSchema,
  TcaVenuesQuery,
  TcaVenuesSchema,
  TCA_PERIODS,
  TcaReportQuery,
  TcaReportSchema,
  TcaQualitySchema,
} from '../schemas/analytics.ts';
import { marketAnalytics } from '../market/market-analytics.ts';

const DAY_MS = 86_400_000;
/** The default window, and the longest one a query may read (hourly buckets: 24 x 400 per dimension). */
const DEFAULT_WINDOW_MS = 30 * DAY_MS;
const MAX_WINDOW_MS = 400 * DAY_MS;

const tags = ['analytics'];
const SymbolParam = Type.Object({ symbol: Type.String({ minLength: 1, maxLength: 200 }) });

/** A window of instants from `since`/`until` (ISO 8601), checked: 400 when malformed, reversed or too long. */
export function queryWindow(q: { since?: string | undefined; until?: string | undefined }, nowMs: number, defaultMs = DEFAULT_WINDOW_MS): { sinceMs: number; untilMs: number } {
  const untilMs = q.until === undefined ? nowMs : parseInstantMs(q.until, 'until');
  const sinceMs = q.since === undefined ? untilMs - defaultMs : parseInstantMs(q.since, 'since');
  if (sinceMs >= untilMs) throw Errors.validation([{ field: 'since', message: 'must be before until' }]);
  if (untilMs - sinceMs > MAX_WINDOW_MS) throw Errors.validation([{ field: 'since', message: `the window may span at most ${MAX_WINDOW_MS / DAY_MS} days` }]);
  return { sinceMs, untilMs };
}

/** Bigints as numbers where a double holds them exactly (the body writer keeps the rest exact). */
type Exact<T> = T extends bigint ? ExactInt : T extends readonly (infer U)[] ? Exact<U>[] : T extends object ? { [K in keyof T]: Exact<T[K]> } : T;
function exact<T>(x: T): Exact<T> {
  if (typeof x === 'bigint') return exactInt(x) as Exact<T>;
  if (Array.isArray(x)) return x.map(exact) as Exact<T>;
  if (x !== null && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, exact(v)])) as Exact<T>;
  return x as Exact<T>;
}

const summaryView = (b: TcaBucket) => exact(b.summary());

const iso = (ms: number) => new Date(ms).toISOString();

/** A venue's composite quality score, 0-100 (docs/analytics.md): fills weigh most, then refusals, then ack speed. */
export function venueQualityScore(fillRate: number, rejectRate: number, avgAckMs: number | null): number {
  const speed = avgAckMs === null ? 0 : 1 / (1 + avgAckMs / 10);
  return Math.round(100 * (0.5 * fillRate + 0.3 * (1 - rejectRate) + 0.2 * speed) * 100) / 100;
}
const Z95 = 1.959964;

export function analyticsRoutes(ctx: GatewayContext): RouteSpec[] {
  /** The principal, the window (whole UTC hours) and the fields every TCA answer starts with. */
  const scope = (req: Parameters<RouteSpec['handler']>[0], q: { since?: string | undefined; until?: string | undefined; symbol?: string | undefined }, defaultMs?: number) => {
    const p = principalOf(req);
    const { sinceMs, untilMs } = queryWindow(q, Date.now(), defaultMs);
    const hours = hourWindow(sinceMs, untilMs);
    return { p, hours, head: { since: iso(hours.from_hour_ms), until: iso(hours.to_hour_ms), symbol: q.symbol ?? null, is_sandbox: p.mode === 'sandbox' } };
  };
  /** Both kinds' buckets merged per group: execution counts cover spot, perp and prediction orders alike. */
  const allKinds = (p: { client_id: string; mode: 'live' | 'sandbox' }, f: Parameters<typeof ctx.tcaAggregates.grouped>[3], grouping: TcaGrouping) => {
    // The grouped maps are kept answers: merge them into fresh buckets, never into each other.
    const out = new Map<string, TcaBucket>();
    for (const kind of ['price', 'prediction'] as const) {
      for (const [g, b] of ctx.tcaAggregates.grouped(p.client_id, p.mode, kind, f, grouping)) {
        let into = out.get(g);
        if (into === undefined) out.set(g, (into = new TcaBucket()));
        into.merge(b);
      }
    }
    return out;
  };
  /**
   * An authenticated GET of this family: its query, its 200 body, its handler. The handler runs
   * once the caller's router has journalled the orders it ended (at once when it holds none):
   * an order that ended is in the answer.
   */
  const get = (path: string, operationId: string, summary: string, query: TSchema, body: { description: string; schema: TSchema }, more: Partial<RouteSpec>, handler: RouteSpec['handler']): RouteSpec => ({
    method: 'get',
    path,
    operationId,
    summary,
    tags,
    auth: 'bearer',
    query,
    responses: { 200: body, ...more.responses },
    handler: (req) => {
      const p = principalOf(req);
      const settled = ctx.tcaAggregates.settled(p.client_id, p.mode);
      return settled === undefined ? handler(req) : settled.then(() => handler(req));
    },
    ...(more.description === undefined ? {} : { description: more.description }),
    ...(more.params === undefined ? {} : { params: more.params }),
  });
  return [
    get('/v1/analytics/execution', 'getExecutionAnalytics', 'Your orders that ended in the window: counts and rates, fills and volume, ack / first-fill / completion latency, execution quality', ExecutionAnalyticsQuery, { description: 'Execution analytics', schema: ExecutionAnalyticsSchema }, {}, (req) => {
      const q = req.query as Static<typeof ExecutionAnalyticsQuery>;
      const { p, hours, head } = scope(req, q);
      const filter = { ...hours, symbol: q.symbol, routing_version: q.routing_version };
      const all = allKinds(p, filter, 'none').get('') ?? new TcaBucket();
      const price = ctx.tcaAggregates.query(p.client_id, p.mode, 'price', filter).summary();
      const prediction = ctx.tcaAggregates.query(p.client_id, p.mode, 'prediction', filter).summary();
      const e = all.exec.summary();
      return {
        status: 200,
        body: {
          ...head,
          routing_version: q.routing_version ?? null,
          orders: e.orders,
          fills: { count: e.fills.count, volume_usd_1e9: exactInt(e.fills.volume_usd_1e9) },
          latency: e.latency_ms,
          execution_quality: {
            avg_slippage_bps: price.avg_implementation_shortfall_bps,
            avg_savings_bps: price.avg_savings_bps,
            total_savings_usd_1e9: exactInt(price.total_savings_usd_1e9),
            avg_execution_time_ms: e.avg_execution_time_ms,
            avg_prediction_slippage_bps: prediction.avg_implementation_shortfall_bps,
          },
        },
      };
    }),
    get('/v1/analytics/venues', 'getVenueAnalytics', 'Per venue: legs sent, acknowledged, filled, rejected, rates, average ack latency, a composite quality score, by size', TcaVenuesQuery, { description: 'Venue analytics', schema: VenueAnalyticsSchema }, {}, (req) => {
      const q = req.query as Static<typeof TcaVenuesQuery>;
      const { p, hours, head } = scope(req, q);
      const byVenue = allKinds(p, { ...hours, symbol: q.symbol, allVenues: true }, 'venue');
      const venues = [...byVenue]
        .map(([venue, b]) => {
          const legs = b.exec.summary().legs;
          const sizes = Object.fromEntries(SIZE_BUCKETS.map((s) => {
            const c = b.exec.sizes[s];
            return [s, { ...c, fill_rate: c.sent > 0 ? Math.round((c.filled / c.sent) * 10_000) / 10_000 : null }];
          }));
          const quality_score = legs.sent > 0 ? venueQualityScore(legs.fill_rate!, legs.reject_rate!, legs.avg_ack_ms) : null;
          return { venue, sent: legs.sent, acked: legs.acked, filled: legs.filled, rejected: legs.rejected, ack_rate: legs.ack_rate, fill_rate: legs.fill_rate, reject_rate: legs.reject_rate, avg_ack_latency_ms: legs.avg_ack_ms, quality_score, sizes };
        })
        .filter((v) => v.sent > 0)
        .sort((a, b) => b.sent - a.sent || a.venue.localeCompare(b.venue));
      return { status: 200, body: { ...head, venues } };
    }),
    get('/v1/analytics/tca', 'getTcaAnalytics', 'TCA over your completed orders: notional-weighted averages, weighted percentiles, savings, win rate, provenance', TcaAnalyticsQuery, { description: 'TCA analytics', schema: TcaAnalyticsSchema }, { description: 'Read from hourly aggregates kept as orders complete, so the window is whole UTC hours: from the hour holding `since` to the end of the hour holding `until`. Sandbox keys read sandbox orders only. Prediction orders are reported apart, in probability bps.' }, (req) => {
      const p = principalOf(req);
      const q = req.query as Static<typeof TcaAnalyticsQuery>;
      const { sinceMs, untilMs } = queryWindow(q, Date.now());
      const hours = hourWindow(sinceMs, untilMs);
      const filter = { ...hours, symbol: q.symbol, venue: q.venue, routing_version: q.routing_version };
      const price = ctx.tcaAggregates.query(p.client_id, p.mode, 'price', filter);
      const prediction = ctx.tcaAggregates.query(p.client_id, p.mode, 'prediction', filter);
      return {
        status: 200,
        body: {
          since: new Date(hours.from_hour_ms).toISOString(),
          until: new Date(hours.to_hour_ms).toISOString(),
          symbol: q.symbol ?? null,
          venue: q.venue ?? null,
          routing_version: q.routing_version ?? null,
          is_sandbox: p.mode === 'sandbox',
          tca: summaryView(price),
          prediction: { ...summaryView(prediction), is_prediction: true },
          sketch_relative_accuracy: SKETCH_RELATIVE_ACCURACY,
        },
      };
    }),
    get('/v1/analytics/tca/venues', 'getTcaVenues', 'Per-venue notional-weighted TCA attribution: each venue’s slices of your orders', TcaVenuesQuery, { description: 'Per-venue attribution', schema: TcaVenuesSchema }, {}, (req) => {
      const q = req.query as Static<typeof TcaVenuesQuery>;
      const { p, hours, head } = scope(req, q);
      const byVenue = ctx.tcaAggregates.grouped(p.client_id, p.mode, 'price', { ...hours, symbol: q.symbol, allVenues: true }, 'venue');
      const total = [...byVenue.values()].reduce((s, b) => s + b.weight, 0);
      const venues = [...byVenue]
        .map(([venue, b]) => ({ venue, share_of_notional: total > 0 ? Math.round((b.weight / total) * 10_000) / 10_000 : 0, ...summaryView(b) }))
        .sort((a, b) => Number(BigInt(b.notional_usd_1e9) - BigInt(a.notional_usd_1e9)) || a.venue.localeCompare(b.venue));
      return { status: 200, body: { ...head, venues } };
    }),
    get('/v1/analytics/tca/timeseries', 'getTcaTimeseries', 'TCA over time: the window in UTC-aligned intervals (1h, 4h, 1d)', TcaTimeseriesQuery, { description: 'Time-bucketed TCA', schema: TcaTimeseriesSchema }, {}, (req) => {
      const q = req.query as Static<typeof TcaTimeseriesQuery>;
      const interval = (q.interval ?? '1h') as keyof typeof TCA_INTERVALS;
      const step = TCA_INTERVALS[interval];
      const { p, hours, head } = scope(req, q, 7 * DAY_MS);
      const byStart = ctx.tcaAggregates.grouped(p.client_id, p.mode, 'price', { ...hours, symbol: q.symbol }, { interval_ms: step });
      const points = [...byStart]
        .map(([start, b]) => ({ start: Number(start), b }))
        .sort((a, b) => a.start - b.start)
        .map(({ start, b }) => ({ start: iso(start), end: iso(start + step), ...summaryView(b) }));
      return { status: 200, body: { ...head, interval, points } };
    }),
    get('/v1/analytics/tca/versions', 'getTcaVersions', 'Routing versions side by side over your own flow, with a confidence interval on each difference', TcaVenuesQuery, { description: 'Routing versions compared', schema: TcaVersionsSchema }, { description: 'An extension of the spec (the A/B view of routing versions 1-3). Compares the notional-weighted mean implementation shortfall of each version against version 1 and version 2.' }, (req) => {
      const q = req.query as Static<typeof TcaVenuesQuery>;
      const { p, hours, head } = scope(req, q);
      const byVersion = ctx.tcaAggregates.grouped(p.client_id, p.mode, 'price', { ...hours, symbol: q.symbol }, 'routing_version');
      const stats = new Map([1, 2, 3].map((v) => [v, byVersion.get(String(v))?.shortfallMean() ?? null]));
      const versions = [1, 2, 3].map((v) => {
        const b = byVersion.get(String(v));
        const m = stats.get(v)!;
        return { routing_version: v, mean_shortfall_bps: m?.mean ?? null, standard_error_bps: m?.standard_error ?? null, ...summaryView(b ?? new TcaBucket()) };
      });
      const comparisons = [[2, 1], [3, 1], [3, 2]].map(([a, base]) => {
        const x = stats.get(a!);
        const y = stats.get(base!);
        if (x == null || y == null) return { routing_version: a!, baseline_version: base!, difference_bps: null, ci95_bps: null, significant: false };
        const diff = x.mean - y.mean;
        const se = Math.sqrt(x.standard_error ** 2 + y.standard_error ** 2);
        const ci = { low: diff - Z95 * se, high: diff + Z95 * se };
        return { routing_version: a!, baseline_version: base!, difference_bps: diff, ci95_bps: ci, significant: ci.low > 0 || ci.high < 0 };
      });
      return { status: 200, body: { ...head, versions, comparisons } };
    }),
    get('/v1/analytics/tca/report', 'getTcaReport', 'A structured TCA report of the last week or month: headline figures against the period before, best and worst orders, per venue, routing version and symbol', TcaReportQuery, { description: 'TCA report', schema: TcaReportSchema }, { description: 'The period is the 7 (week) or 30 (month) days ending at `until` (default now), in whole UTC hours; the previous period is the one of the same length just before it. Best and worst orders are ranked by what their shortfall cost in USD (shortfall x notional).' }, (req) => {
      const q = req.query as Static<typeof TcaReportQuery>;
      const period = (q.period ?? 'week') as keyof typeof TCA_PERIODS;
      const length = TCA_PERIODS[period];
      const { p, hours, head } = scope(req, { until: q.until, symbol: q.symbol, since: undefined }, length);
      const span = hours.to_hour_ms - hours.from_hour_ms;
      const before = { from_hour_ms: hours.from_hour_ms - span, to_hour_ms: hours.from_hour_ms };
      const g = (f: Parameters<typeof ctx.tcaAggregates.grouped>[3], grouping: TcaGrouping, kind: 'price' | 'prediction' = 'price') => ctx.tcaAggregates.grouped(p.client_id, p.mode, kind, f, grouping);
      const one = (m: ReadonlyMap<string, TcaBucket>) => m.get('') ?? new TcaBucket();
      const filter = { ...hours, symbol: q.symbol };
      const report = tcaReport({
        current: one(g(filter, 'none')),
        previous: one(g({ ...before, symbol: q.symbol }, 'none')),
        byVenue: g({ ...filter, allVenues: true }, 'venue'),
        byVersion: g(filter, 'routing_version'),
        bySymbol: g(filter, 'symbol'),
        prediction: one(g(filter, 'none', 'prediction')),
      });
      return {
        status: 200,
        body: { period, ...head, previous: { since: iso(before.from_hour_ms), until: iso(before.to_hour_ms) }, ...exact(report), prediction: { ...exact(report.prediction), is_prediction: true } },
      };
    }),
    get('/v1/analytics/tca/quality', 'getTcaQuality', 'TCA coverage of the orders that ended in the window and how each was observed (direct, reconstructed, no benchmark, missing)', TcaVenuesQuery, { description: 'TCA quality', schema: TcaQualitySchema }, {}, (req) => {
      const q = req.query as Static<typeof TcaVenuesQuery>;
      const { p, hours, head } = scope(req, q);
      const f = { ...hours, symbol: q.symbol };
      const price = ctx.tcaAggregates.query(p.client_id, p.mode, 'price', f);
      const prediction = ctx.tcaAggregates.query(p.client_id, p.mode, 'prediction', f);
      const all = allKinds(p, f, 'none').get('') ?? new TcaBucket();
      return { status: 200, body: { ...head, ...tcaQuality(price, prediction, all) } };
    }),
    get('/v1/analytics/market/{symbol}', 'getMarketAnalytics', 'NBBO, mid, spread, aggregate bid and ask depth, imbalance, per-venue top of book', MarketAnalyticsQuery, { description: 'Market analytics', schema: MarketAnalyticsSchema }, { params: SymbolParam, responses: { 404: { description: 'Unknown symbol' } } }, async (req) => {
      const q = req.query as Static<typeof MarketAnalyticsQuery>;
      const symbol = req.params['symbol']!;
      const entry = ctx.market.quotes.resolve(symbol);
      if (entry === undefined) throw Errors.notFound(`unknown symbol ${symbol}`);
      const depth = q.depth ?? 20;
      return { status: 200, body: marketAnalytics(await ctx.market.quotes.quote(entry, depth, false), depth) };
    }),
  ];
}
