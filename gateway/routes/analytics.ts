import type { Static } from 'typebox';
import type { GatewayContext } from '../context.ts';
import { Errors } from '../errors.ts';
import { principalOf, type RouteSpec } from '../http/route.ts';
import { parseInstantMs } from '../http/instants.ts';
import { hourWindow } from '../../execution/analytics/tca-aggregates.ts';
import { SKETCH_RELATIVE_ACCURACY, type TcaBucket } from '../../execution/analytics/tca-bucket.ts';
import { exactInt } from '../../domain/units.ts';
import { TcaAnalyticsQuery, TcaAnalyticsSchema } from '../schemas/analytics.ts';

const DAY_MS = 86_400_000;
/** The default window, and the longest one a query may read (hourly buckets: 24 x 400 per dimension). */
const DEFAULT_WINDOW_MS = 30 * DAY_MS;
const MAX_WINDOW_MS = 400 * DAY_MS;

const tags = ['analytics'];

/** A window of instants from `since`/`until` (ISO 8601), checked: 400 when malformed, reversed or too long. */
export function queryWindow(q: { since?: string | undefined; until?: string | undefined }, nowMs: number): { sinceMs: number; untilMs: number } {
  const untilMs = q.until === undefined ? nowMs : parseInstantMs(q.until, 'until');
  const sinceMs = q.since === undefined ? untilMs - DEFAULT_WINDOW_MS : parseInstantMs(q.since, 'since');
  if (sinceMs >= untilMs) throw Errors.validation([{ field: 'since', message: 'must be before until' }]);
  if (untilMs - sinceMs > MAX_WINDOW_MS) throw Errors.validation([{ field: 'since', message: `the window may span at most ${MAX_WINDOW_MS / DAY_MS} days` }]);
  return { sinceMs, untilMs };
}

function summaryView(b: TcaBucket) {
  const s = b.summary();
  return { ...s, notional_usd_1e9: exactInt(s.notional_usd_1e9), total_savings_usd_1e9: exactInt(s.total_savings_usd_1e9), fees_usd_1e9: exactInt(s.fees_usd_1e9) };
}

export function analyticsRoutes(ctx: GatewayContext): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/v1/analytics/tca',
      operationId: 'getTcaAnalytics',
      summary: 'TCA over your completed orders: notional-weighted averages, weighted percentiles, savings, win rate, provenance',
      description:
        'Read from hourly aggregates kept as orders complete, so the window is whole UTC hours: from the hour holding `since` to the end of the hour holding `until`. Sandbox keys read sandbox orders only. Prediction orders are reported apart, in probability bps.',
      tags,
      auth: 'bearer',
      query: TcaAnalyticsQuery,
      responses: { 200: { description: 'TCA analytics', schema: TcaAnalyticsSchema } },
      handler: (req) => {
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
      },
    },
  ];
}
