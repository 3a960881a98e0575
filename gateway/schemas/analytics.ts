import { Type } from 'typebox';

const Bps = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });

/** Notional-weighted TCA over the completed orders of a window (execution/analytics/tca-bucket.ts). */
const TcaSummaryFields = {
    orders: Type.Integer({ minimum: 0, description: 'completed orders with fills (for a venue: those that filled on it)' }),
    notional_usd_1e9: Type.Integer({ minimum: 0, description: 'their filled notional, USD 1e9: the weight of every average' }),
    avg_implementation_shortfall_bps: Bps('notional-weighted; positive = cost against the arrival mid (probability bps for prediction orders)'),
    avg_spread_cost_bps: Bps('notional-weighted half spread at arrival'),
    avg_fee_bps: Bps('notional-weighted fees / notional'),
    avg_impact_bps: Bps('notional-weighted shortfall beyond the half spread'),
    avg_savings_bps: Bps('notional-weighted savings against the best single venue, over benchmarked orders; positive = the split did better'),
    shortfall_percentiles_bps: Type.Object(
      { p50: Bps('weighted'), p75: Bps('weighted'), p95: Bps('weighted'), p99: Bps('weighted') },
      { description: 'notional-weighted percentiles of the shortfall from a DDSketch: within 1% (relative) of a shortfall at that weighted rank' },
    ),
    total_savings_usd_1e9: Type.Integer({ description: 'sum of savings in USD 1e9 over benchmarked orders' }),
    fees_usd_1e9: Type.Integer({ minimum: 0 }),
    benchmarked_orders: Type.Integer({ minimum: 0, description: 'orders with a best-single-venue benchmark' }),
    win_rate: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], { description: 'share of benchmarked orders with positive savings' }),
    provenance: Type.Object(
      {
        direct: Type.Integer({ minimum: 0, description: "the order's fills and arrival mid observed as they came" }),
        reconstructed: Type.Integer({ minimum: 0, description: 'legs reconciled with the venues (an answer lost, a restart)' }),
        no_benchmark: Type.Integer({ minimum: 0, description: 'observed directly, but no single venue could have filled it to compare against' }),
      },
      { description: 'how the TCA of these orders was observed' },
    ),
};

export const TcaSummarySchema = Type.Object(TcaSummaryFields, { $id: 'TcaSummary' });

export const TcaAnalyticsSchema = Type.Object(
  {
    since: Type.String({ description: 'start of the window read, ISO 8601: the UTC hour holding the `since` asked for' }),
    until: Type.String({ description: 'end of the window read (exclusive), ISO 8601: the UTC hour after the one holding `until`' }),
    symbol: Type.Union([Type.String(), Type.Null()]),
    venue: Type.Union([Type.String(), Type.Null()], { description: "set: each order's slice on this venue (its fills there)" }),
    routing_version: Type.Union([Type.Integer({ minimum: 1, maximum: 3 }), Type.Null()]),
    is_sandbox: Type.Boolean(),
    tca: TcaSummarySchema,
    prediction: Type.Object(
      { ...TcaSummaryFields, is_prediction: Type.Literal(true) },
      { description: 'prediction-market orders, in probability bps: kept apart, never averaged with price bps' },
    ),
    sketch_relative_accuracy: Type.Number({ description: 'relative error of the percentiles' }),
  },
  { $id: 'TcaAnalytics' },
);

export const TcaAnalyticsQuery = Type.Object({
  symbol: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  since: Type.Optional(Type.String({ description: 'ISO 8601 (or integer ns); default 30 days before `until`' })),
  until: Type.Optional(Type.String({ description: 'ISO 8601 (or integer ns); default now' })),
  venue: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  routing_version: Type.Optional(Type.Integer({ minimum: 1, maximum: 3 })),
});

const WindowFields = {
  since: Type.String({ description: 'start of the window read, ISO 8601 (a whole UTC hour)' }),
  until: Type.String({ description: 'end of the window read, exclusive, ISO 8601 (a whole UTC hour)' }),
  symbol: Type.Union([Type.String(), Type.Null()]),
  is_sandbox: Type.Boolean(),
};

export const TcaVenuesSchema = Type.Object(
  {
    ...WindowFields,
    venues: Type.Array(Type.Object({ venue: Type.String(), share_of_notional: Type.Number({ minimum: 0, maximum: 1 }), ...TcaSummaryFields }), {
      description: "each venue's slices of the orders (its fills), largest notional first; savings stay with the orders (/v1/analytics/tca)",
    }),
  },
  { $id: 'TcaVenues' },
);

export const TcaVenuesQuery = Type.Object({
  symbol: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  since: Type.Optional(Type.String({ description: 'ISO 8601 (or integer ns); default 30 days before `until`' })),
  until: Type.Optional(Type.String({ description: 'ISO 8601 (or integer ns); default now' })),
});

export const TCA_INTERVALS = { '1h': 3_600_000, '4h': 4 * 3_600_000, '1d': 86_400_000 } as const;

export const TcaTimeseriesQuery = Type.Object({
  interval: Type.Optional(Type.String({ enum: Object.keys(TCA_INTERVALS), default: '1h', description: 'buckets aligned to UTC (4h: 00:00, 04:00, ...; 1d: midnight)' })),
  symbol: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  since: Type.Optional(Type.String({ description: 'ISO 8601 (or integer ns); default 7 days before `until`' })),
  until: Type.Optional(Type.String({ description: 'ISO 8601 (or integer ns); default now' })),
});

export const TcaTimeseriesSchema = Type.Object(
  {
    ...WindowFields,
    interval: Type.String({ enum: Object.keys(TCA_INTERVALS) }),
    points: Type.Array(Type.Object({ start: Type.String(), end: Type.String(), ...TcaSummaryFields }), { description: 'intervals with completed orders, oldest first' }),
  },
  { $id: 'TcaTimeseries' },
);

const VersionFigures = Type.Object({
  routing_version: Type.Integer({ minimum: 1, maximum: 3 }),
  mean_shortfall_bps: Type.Union([Type.Number(), Type.Null()], { description: 'notional-weighted mean (unrounded avg_implementation_shortfall_bps)' }),
  standard_error_bps: Type.Union([Type.Number(), Type.Null()], { description: 'weighted standard error of that mean (Kish effective sample size); null below two orders' }),
  ...TcaSummaryFields,
});

export const TcaVersionsSchema = Type.Object(
  {
    ...WindowFields,
    versions: Type.Array(VersionFigures, { description: 'routing versions 1-3 side by side, over your own flow' }),
    comparisons: Type.Array(
      Type.Object({
        routing_version: Type.Integer({ minimum: 1, maximum: 3 }),
        baseline_version: Type.Integer({ minimum: 1, maximum: 3 }),
        difference_bps: Type.Union([Type.Number(), Type.Null()], { description: 'mean shortfall of routing_version minus the baseline: negative = routing_version cost less' }),
        ci95_bps: Type.Union([Type.Object({ low: Type.Number(), high: Type.Number() }), Type.Null()], { description: '95% confidence interval of the difference (normal approximation, Welch standard error)' }),
        significant: Type.Boolean({ description: 'the interval excludes zero' }),
      }),
    ),
  },
  { $id: 'TcaVersions' },
);

export const MarketAnalyticsQuery = Type.Object({
  depth: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'levels of the merged book summed into the depth figures' })),
});

const Level = Type.Object({ bid: Type.Number(), ask: Type.Number(), bid_size: Type.Number(), ask_size: Type.Number(), age_ms: Type.Number() });

export const MarketAnalyticsSchema = Type.Object(
  {
    symbol: Type.String(),
    nbbo: Type.Object({ bid: Type.Number(), ask: Type.Number(), bid_size: Type.Number(), ask_size: Type.Number() }),
    mid: Type.Number({ description: '0 when the consolidated book is crossed' }),
    crossed: Type.Boolean({ description: 'the best bid above the best ask across venues (each venue moves on its own); mid and spread_bps are then 0 and spread negative' }),
    spread: Type.Number({ description: 'ask - bid, in the quote currency; negative when crossed' }),
    spread_bps: Type.Number(),
    depth_levels: Type.Integer({ minimum: 1 }),
    bid_depth: Type.Number({ description: 'base quantity on the first `depth_levels` bid levels of the merged book' }),
    ask_depth: Type.Number(),
    bid_depth_notional: Type.Number({ description: 'the same in the quote currency' }),
    ask_depth_notional: Type.Number(),
    imbalance: Type.Number({ minimum: -1, maximum: 1, description: '(bid_depth - ask_depth) / (bid_depth + ask_depth): positive = more bids' }),
    venues: Type.Record(Type.String(), Level, { description: 'top of book per venue' }),
    updated_ms: Type.Integer(),
  },
  { $id: 'MarketAnalytics' },
);

const Rate = (description: string) => Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], { description });
const Ms = Type.Union([Type.Number({ minimum: 0 }), Type.Null()]);
const LatencyMs = Type.Object({ p50: Ms, p95: Ms, p99: Ms }, { description: 'ms; DDSketch, 1% relative error' });

export const ExecutionAnalyticsQuery = Type.Object({
  symbol: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  routing_version: Type.Optional(Type.Integer({ minimum: 1, maximum: 3 })),
  since: Type.Optional(Type.String({ description: 'ISO 8601 (or integer ns); default 30 days before `until`' })),
  until: Type.Optional(Type.String({ description: 'ISO 8601 (or integer ns); default now' })),
});

export const ExecutionAnalyticsSchema = Type.Object(
  {
    ...WindowFields,
    routing_version: Type.Union([Type.Integer({ minimum: 1, maximum: 3 }), Type.Null()]),
    orders: Type.Object(
      {
        submitted: Type.Integer({ minimum: 0, description: 'orders that ended in the window (working orders count once they end)' }),
        filled: Type.Integer({ minimum: 0, description: 'of those, orders with at least one fill' }),
        completed: Type.Integer({ minimum: 0 }),
        cancelled: Type.Integer({ minimum: 0 }),
        rejected: Type.Integer({ minimum: 0 }),
        unresolved: Type.Integer({ minimum: 0 }),
        fill_rate: Rate('filled / submitted'),
        reject_rate: Rate('rejected / submitted'),
      },
    ),
    fills: Type.Object({ count: Type.Integer({ minimum: 0 }), volume_usd_1e9: Type.Integer({ minimum: 0 }) }),
    latency: Type.Object(
      {
        ack: LatencyMs,
        first_fill: LatencyMs,
        completion: LatencyMs,
      },
      { description: "ack: the order's legs left -> the first venue's answer; first_fill: order created -> its first fill; completion: order created -> it ended (ms resolution)" },
    ),
    execution_quality: Type.Object({
      avg_slippage_bps: Type.Union([Type.Number(), Type.Null()], { description: 'notional-weighted implementation shortfall (price orders)' }),
      avg_savings_bps: Type.Union([Type.Number(), Type.Null()], { description: 'notional-weighted savings against the best single venue' }),
      total_savings_usd_1e9: Type.Integer(),
      avg_execution_time_ms: Ms,
      avg_prediction_slippage_bps: Type.Union([Type.Number(), Type.Null()], { description: 'prediction orders, probability bps, apart' }),
    }),
  },
  { $id: 'ExecutionAnalytics' },
);

const SizeRow = Type.Object({ sent: Type.Integer({ minimum: 0 }), filled: Type.Integer({ minimum: 0 }), rejected: Type.Integer({ minimum: 0 }), fill_rate: Rate('filled / sent') });

export const VenueAnalyticsSchema = Type.Object(
  {
    ...WindowFields,
    venues: Type.Array(
      Type.Object({
        venue: Type.String(),
        sent: Type.Integer({ minimum: 0, description: 'legs sent to the venue' }),
        acked: Type.Integer({ minimum: 0, description: 'legs the venue answered (not lost)' }),
        filled: Type.Integer({ minimum: 0 }),
        rejected: Type.Integer({ minimum: 0 }),
        ack_rate: Rate('acked / sent'),
        fill_rate: Rate('filled / sent'),
        reject_rate: Rate('rejected / sent'),
        avg_ack_latency_ms: Ms,
        quality_score: Type.Union([Type.Number({ minimum: 0, maximum: 100 }), Type.Null()], {
          description: '100 x (0.5 fill_rate + 0.3 (1 - reject_rate) + 0.2 / (1 + avg_ack_latency_ms / 10)); docs/analytics.md',
        }),
        sizes: Type.Object({ small: SizeRow, medium: SizeRow, large: SizeRow }, { description: "by the leg's notional: small < $10,000 <= medium < $100,000 <= large" }),
      }),
      { description: 'most legs first' },
    ),
  },
  { $id: 'VenueAnalytics' },
);

export const TCA_PERIODS = { week: 7 * 86_400_000, month: 30 * 86_400_000 } as const;

export const TcaReportQuery = Type.Object({
  period: Type.Optional(Type.String({ enum: Object.keys(TCA_PERIODS), default: 'week', description: 'week: the 7 days, month: the 30 days ending at `until`, in whole UTC hours; compared with the period before' })),
  until: Type.Optional(Type.String({ description: 'ISO 8601 (or integer ns); end of the period, default now' })),
  symbol: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});

const Headline = Type.Object({
  orders: Type.Integer({ minimum: 0, description: 'orders with TCA (filled price orders)' }),
  ended_orders: Type.Integer({ minimum: 0, description: 'price orders that ended, filled or not' }),
  fill_rate: Rate('orders with a fill / ended orders'),
  notional_usd_1e9: Type.Integer({ minimum: 0 }),
  avg_implementation_shortfall_bps: Type.Union([Type.Number(), Type.Null()]),
  p95_shortfall_bps: Type.Union([Type.Number(), Type.Null()], { description: 'notional-weighted, DDSketch 1% relative error' }),
  avg_savings_bps: Type.Union([Type.Number(), Type.Null()]),
  total_savings_usd_1e9: Type.Integer(),
  win_rate: Rate('benchmarked orders with positive savings'),
  fees_usd_1e9: Type.Integer({ minimum: 0 }),
  avg_fee_bps: Type.Union([Type.Number(), Type.Null()]),
});

const Change = Type.Object({
  current: Type.Union([Type.Number(), Type.Null()]),
  previous: Type.Union([Type.Number(), Type.Null()]),
  change: Type.Union([Type.Number(), Type.Null()], { description: 'current - previous' }),
  change_pct: Type.Union([Type.Number(), Type.Null()], { description: 'change / |previous|; null when the previous figure is zero or absent' }),
});

const OrderExtreme = Type.Object({
  node_order_id: Type.String(),
  symbol: Type.String(),
  side: Type.String({ enum: ['buy', 'sell'] }),
  routing_version: Type.Integer({ minimum: 1, maximum: 3 }),
  hour_ms: Type.Integer({ description: 'the UTC hour it completed in, ms' }),
  notional_usd_1e9: Type.Number({ minimum: 0 }),
  shortfall_bps: Type.Number(),
  shortfall_cost_usd_1e9: Type.Number({ description: 'shortfall x notional: what the shortfall cost in USD 1e9 (negative: better than the arrival mid)' }),
  savings_bps: Type.Union([Type.Number(), Type.Null()]),
});

export const TcaReportSchema = Type.Object(
  {
    period: Type.String({ enum: Object.keys(TCA_PERIODS) }),
    since: Type.String({ description: 'start of the period, ISO 8601 (a whole UTC hour)' }),
    until: Type.String({ description: 'end of the period, exclusive' }),
    previous: Type.Object({ since: Type.String(), until: Type.String() }, { description: 'the period before, of the same length' }),
    symbol: Type.Union([Type.String(), Type.Null()]),
    is_sandbox: Type.Boolean(),
    headline: Headline,
    previous_headline: Headline,
    comparison: Type.Record(Type.String(), Change, { description: 'each headline figure against the previous period: orders, notional_usd, avg_implementation_shortfall_bps, p95_shortfall_bps, avg_savings_bps, win_rate, avg_fee_bps, total_savings_usd' }),
    best_orders: Type.Array(OrderExtreme, { description: 'the five orders whose shortfall cost least in USD (most negative first)' }),
    worst_orders: Type.Array(OrderExtreme, { description: 'the five orders whose shortfall cost most in USD' }),
    venues: Type.Array(Type.Object({ venue: Type.String(), share_of_notional: Type.Number({ minimum: 0, maximum: 1 }), ...TcaSummaryFields }), { description: 'per venue (its slices of the orders), largest notional first' }),
    routing_versions: Type.Array(Type.Object({ routing_version: Type.Integer({ minimum: 1, maximum: 3 }), ...TcaSummaryFields })),
    symbols: Type.Array(Type.Object({ symbol: Type.String(), ...TcaSummaryFields }), { description: 'largest notional first' }),
    prediction: Type.Object({ ...TcaSummaryFields, is_prediction: Type.Literal(true) }, { description: 'prediction orders in probability bps, apart' }),
  },
  { $id: 'TcaPeriodReport' },
);

export const TcaQualitySchema = Type.Object(
  {
    ...WindowFields,
    ended_orders: Type.Integer({ minimum: 0, description: 'orders that ended in the window, every kind' }),
    filled_orders: Type.Integer({ minimum: 0, description: 'of those, orders with at least one fill' }),
    with_tca: Type.Integer({ minimum: 0, description: 'filled orders with a TCA report (price and prediction)' }),
    missing: Type.Integer({ minimum: 0, description: 'filled orders with no TCA (no arrival mid to measure against)' }),
    coverage: Rate('with_tca / filled_orders'),
    benchmarked: Type.Integer({ minimum: 0, description: 'orders with TCA and a best-single-venue benchmark' }),
    benchmark_coverage: Rate('benchmarked / with_tca'),
    provenance: Type.Object(
      {
        direct: Type.Integer({ minimum: 0, description: 'fills and arrival mid observed as they came, benchmarked' }),
        reconstructed: Type.Integer({ minimum: 0, description: 'legs reconciled with the venues after a lost answer or a restart' }),
        no_benchmark: Type.Integer({ minimum: 0, description: 'observed directly, no single venue to compare against' }),
      },
    ),
  },
  { $id: 'TcaQuality' },
);
