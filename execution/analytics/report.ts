import { round4, type TcaBucket, type OrderExtreme, type TcaSummary } from './tca-bucket.ts';

/**
 * The structured TCA report of a period (pure): the headline figures beside the previous
 * period's, the best and worst orders, and the period cut per venue, routing version and symbol.
 * The caller reads the buckets; this only arranges them (docs/analytics.md, "The report").
 */
export interface ReportInput {
  current: TcaBucket;
  previous: TcaBucket;
  /** the current period's buckets per group (kept answers: read only) */
  byVenue: ReadonlyMap<string, TcaBucket>;
  byVersion: ReadonlyMap<string, TcaBucket>;
  bySymbol: ReadonlyMap<string, TcaBucket>;
  prediction: TcaBucket;
}

export interface Headline {
  orders: number;
  ended_orders: number;
  fill_rate: number | null;
  notional_usd_1e9: bigint;
  avg_implementation_shortfall_bps: number | null;
  p95_shortfall_bps: number | null;
  avg_savings_bps: number | null;
  total_savings_usd_1e9: bigint;
  win_rate: number | null;
  fees_usd_1e9: bigint;
  avg_fee_bps: number | null;
}

/** The current period's figure against the previous one's: their difference, and the relative change where it means something. */
export interface Change {
  current: number | null;
  previous: number | null;
  /** current - previous (bps figures: a negative shortfall change is an improvement) */
  change: number | null;
  /** change / |previous|, for counts and money; null when the previous figure is zero or absent */
  change_pct: number | null;
}

export interface TcaReportBody {
  headline: Headline;
  previous_headline: Headline;
  comparison: Record<'orders' | 'notional_usd' | 'avg_implementation_shortfall_bps' | 'p95_shortfall_bps' | 'avg_savings_bps' | 'win_rate' | 'avg_fee_bps' | 'total_savings_usd', Change>;
  best_orders: OrderExtreme[];
  worst_orders: OrderExtreme[];
  venues: ({ venue: string; share_of_notional: number } & TcaSummary)[];
  routing_versions: ({ routing_version: number } & TcaSummary)[];
  symbols: ({ symbol: string } & TcaSummary)[];
  prediction: TcaSummary;
}

export function headline(b: TcaBucket): Headline {
  const s = b.summary();
  const e = b.exec;
  return {
    orders: s.orders,
    ended_orders: e.orders,
    fill_rate: e.orders > 0 ? round4(e.filled / e.orders) : null,
    notional_usd_1e9: s.notional_usd_1e9,
    avg_implementation_shortfall_bps: s.avg_implementation_shortfall_bps,
    p95_shortfall_bps: s.shortfall_percentiles_bps.p95,
    avg_savings_bps: s.avg_savings_bps,
    total_savings_usd_1e9: s.total_savings_usd_1e9,
    win_rate: s.win_rate,
    fees_usd_1e9: s.fees_usd_1e9,
    avg_fee_bps: s.avg_fee_bps,
  };
}

export function change(current: number | null, previous: number | null): Change {
  const diff = current === null || previous === null ? null : round4(current - previous);
  const pct = diff === null || previous === 0 || previous === null ? null : round4(diff / Math.abs(previous));
  return { current, previous, change: diff, change_pct: pct };
}

/** USD 1e9 as a number of USD (for the change of a money figure: a ratio needs no exactness). */
const usd = (x: bigint) => Number(x) / 1e9;

export function tcaReport(input: ReportInput): TcaReportBody {
  const now = headline(input.current);
  const before = headline(input.previous);
  const total = [...input.byVenue.values()].reduce((s, b) => s + b.weight, 0);
  const byNotional = (a: TcaSummary, b: TcaSummary) => (b.notional_usd_1e9 > a.notional_usd_1e9 ? 1 : b.notional_usd_1e9 < a.notional_usd_1e9 ? -1 : 0);
  return {
    headline: now,
    previous_headline: before,
    comparison: {
      orders: change(now.orders, before.orders),
      notional_usd: change(usd(now.notional_usd_1e9), usd(before.notional_usd_1e9)),
      avg_implementation_shortfall_bps: change(now.avg_implementation_shortfall_bps, before.avg_implementation_shortfall_bps),
      p95_shortfall_bps: change(now.p95_shortfall_bps, before.p95_shortfall_bps),
      avg_savings_bps: change(now.avg_savings_bps, before.avg_savings_bps),
      win_rate: change(now.win_rate, before.win_rate),
      avg_fee_bps: change(now.avg_fee_bps, before.avg_fee_bps),
      total_savings_usd: change(usd(now.total_savings_usd_1e9), usd(before.total_savings_usd_1e9)),
    },
    best_orders: [...input.current.best],
    worst_orders: [...input.current.worst],
    venues: [...input.byVenue]
      .map(([venue, b]) => ({ venue, share_of_notional: total > 0 ? round4(b.weight / total) : 0, ...b.summary() }))
      .sort((a, b) => byNotional(a, b) || a.venue.localeCompare(b.venue)),
    routing_versions: [...input.byVersion].map(([v, b]) => ({ routing_version: Number(v), ...b.summary() })).sort((a, b) => a.routing_version - b.routing_version),
    symbols: [...input.bySymbol].map(([symbol, b]) => ({ symbol, ...b.summary() })).sort((a, b) => byNotional(a, b) || a.symbol.localeCompare(b.symbol)),
    prediction: input.prediction.summary(),
  };
}

/**
 * TCA coverage of the orders that ended in a window: how many filled orders have a TCA, and how
 * each was observed. `missing` is the class found beyond the provenance counts: orders that
 * filled but have no TCA (no arrival mid to measure against, or a fill with no notional).
 */
export interface TcaQuality {
  ended_orders: number;
  filled_orders: number;
  with_tca: number;
  missing: number;
  coverage: number | null;
  benchmarked: number;
  benchmark_coverage: number | null;
  provenance: TcaSummary['provenance'];
}

export function tcaQuality(price: TcaBucket, prediction: TcaBucket, exec: TcaBucket): TcaQuality {
  const withTca = price.orders + prediction.orders;
  const filled = exec.exec.filled;
  const benchmarked = price.benchmarked + prediction.benchmarked;
  const provenance = { ...price.provenance };
  for (const [k, v] of Object.entries(prediction.provenance) as [keyof typeof provenance, number][]) provenance[k] += v;
  return {
    ended_orders: exec.exec.orders,
    filled_orders: filled,
    with_tca: withTca,
    missing: Math.max(0, filled - withTca),
    coverage: filled > 0 ? round4(Math.min(1, withTca / filled)) : null,
    benchmarked,
    benchmark_coverage: withTca > 0 ? round4(benchmarked / withTca) : null,
    provenance,
  };
}
