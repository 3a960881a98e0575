/** Latency and cost summaries of a benchmark run. Pure. */

export interface LatencySummary {
  count: number;
  p50: number | null;
  p90: number | null;
  p99: number | null;
  p999: number | null;
  max: number | null;
  mean: number | null;
}

/**
 * Nearest-rank percentile of sorted samples: always a value that was measured, never an
 * interpolation. In per mille, integers: 99.9 / 100 * 1000 is 999.0000000000001 in doubles.
 */
function rank(sorted: Float64Array, perMille: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((perMille * sorted.length) / 1_000) - 1))]!;
}

const round3 = (x: number) => Math.round(x * 1_000) / 1_000;

/** p50/p90/p99/p99.9 of millisecond samples, rounded to the microsecond. */
export function summarize(samples: readonly number[]): LatencySummary {
  if (samples.length === 0) return { count: 0, p50: null, p90: null, p99: null, p999: null, max: null, mean: null };
  const sorted = Float64Array.from(samples).sort();
  let sum = 0;
  for (const s of sorted) sum += s;
  return {
    count: sorted.length,
    p50: round3(rank(sorted, 500)),
    p90: round3(rank(sorted, 900)),
    p99: round3(rank(sorted, 990)),
    p999: round3(rank(sorted, 999)),
    max: round3(sorted[sorted.length - 1]!),
    mean: round3(sum / sorted.length),
  };
}

/** One completed order's TCA, as the service reported it. */
export interface TcaSample {
  routing_version: number;
  notional_usd_1e9: number;
  implementation_shortfall_bps: number;
  total_cost_bps: number;
  savings_vs_best_single_venue_bps: number | null;
  savings_usd_1e9: number;
}

export interface TcaSummary {
  /** `all`, or the routing version */
  group: string;
  orders: number;
  notional_usd: number;
  /** notional-weighted, as the service's own `/v1/analytics/tca` weighs them */
  shortfall_bps: number | null;
  total_cost_bps: number | null;
  savings_vs_best_single_venue_bps: number | null;
  savings_usd: number;
}

function weighted(samples: readonly TcaSample[], value: (s: TcaSample) => number | null): number | null {
  let num = 0;
  let den = 0;
  for (const s of samples) {
    const v = value(s);
    if (v === null || !Number.isFinite(v)) continue;
    num += v * s.notional_usd_1e9;
    den += s.notional_usd_1e9;
  }
  return den === 0 ? null : Math.round((num / den) * 100) / 100;
}

/** Integer usd_1e9 sums stay exact; only the final figure becomes dollars, for reading. */
function dollars(usd_1e9: number): number {
  return Math.round(usd_1e9 / 1e7) / 100;
}

function group(name: string, samples: readonly TcaSample[]): TcaSummary {
  return {
    group: name,
    orders: samples.length,
    notional_usd: dollars(samples.reduce((a, s) => a + s.notional_usd_1e9, 0)),
    shortfall_bps: weighted(samples, (s) => s.implementation_shortfall_bps),
    total_cost_bps: weighted(samples, (s) => s.total_cost_bps),
    savings_vs_best_single_venue_bps: weighted(samples, (s) => s.savings_vs_best_single_venue_bps),
    savings_usd: dollars(samples.reduce((a, s) => a + s.savings_usd_1e9, 0)),
  };
}

/** The run's TCA over every completed order, then per routing version (1-3, those present). */
export function tcaByRoutingVersion(samples: readonly TcaSample[]): TcaSummary[] {
  const versions = [...new Set(samples.map((s) => s.routing_version))].sort((a, b) => a - b);
  return [group('all', samples), ...versions.map((v) => group(`v${v}`, samples.filter((s) => s.routing_version === v)))];
}
