/**
 * Transaction cost analysis of one completed order (spec, "Smart order routing rules" item 9;
 * "Analytics": prediction TCA fields). Pure: no I/O, no clock; every timestamp comes in.
 * docs/positions-and-tca.md defines each formula with a worked example.
 *
 *   fills --> filled qty, sum(price x qty) ........ achieved VWAP, notional
 *         --> implementation shortfall  = side x (VWAP - arrival mid) / mid       (price only)
 *               = spread cost (half the arrival spread) + impact (the rest)
 *         --> fee bps = fees / notional
 *         --> total cost = shortfall + fee bps
 *         --> savings = best single venue's all-in cost - total cost
 *
 * Every bps figure is computed once as an integer number of 1e-4 bps ("units": 1e-8 of the
 * price) with one rounding (half away from zero), and the composite ones are sums and
 * differences of those integers, so the decomposition holds exactly on units:
 *   units(shortfall) = units(spread) + units(impact)
 *   units(total)     = units(shortfall) + units(fee)
 * `bpsToUnits` recovers the integer from a reported number (x / 1e4 is not exact in binary, so
 * compare units, not the floats).
 */

/** One fill of the order. `fee_1e9` is its fee in USD x 1e9 (negative for a rebate). */
export interface TcaFill {
  venue: string;
  qty_1e8: number;
  price_1e9: number;
  fee_1e9: number;
  ts_ns: number;
  is_maker: boolean;
}

/** The router's benchmark: the cheapest single venue that could fill the whole order at arrival. */
export interface BestSingleVenue {
  venue: string;
  /** its average price for the whole requested qty, walking its book at arrival */
  avg_price_1e9: number;
  /** its fee for this order, bps of notional */
  fee_bps: number;
}

/**
 * The benchmark venue's exact book walk for `qty_1e8` (the requested qty): the sum of price x qty
 * and the fees it would have charged, each fill rounded as the venue rounds. When given, savings
 * are computed from it without the rounding of `avg_price_1e9` and `fee_bps`, so an order whose
 * fills are exactly that walk saves exactly 0.
 */
export interface BenchmarkWalk {
  pq: bigint;
  qty_1e8: number;
  fee_1e9: number;
}

export interface TcaInput {
  side: 'buy' | 'sell';
  /** requested qty */
  qty_1e8: number;
  fills: readonly TcaFill[];
  /** consolidated mid at arrival; must be > 0 when there are fills */
  arrival_mid_1e9: number;
  arrival_ts_ns: number;
  completed_ts_ns: number;
  best_single_venue: BestSingleVenue | null;
  /** the benchmark's exact walk (see `BenchmarkWalk`); savings use it when present */
  best_single_venue_walk?: BenchmarkWalk;
  /** consolidated spread at arrival in bps of the mid; negative (crossed) counts as 0 */
  arrival_spread_bps: number;
  /** prices are probabilities (1e9 = 100%) */
  is_prediction?: boolean;
  /** USD value of one quote unit x 1e9; default 1e9 (USD-settled pairs) */
  quote_usd_1e9?: number;
}

export interface TcaVenue {
  venue: string;
  qty_1e8: number;
  vwap_1e9: number;
  fee_1e9: number;
  /** qty / filled qty, a fraction in [0, 1] */
  share: number;
}

export interface TcaReport {
  /** null when nothing filled */
  achieved_vwap_1e9: number | null;
  arrival_mid_1e9: number;
  filled_qty_1e8: number;
  /** filled / requested */
  fill_ratio: number;
  /** side-adjusted (positive = cost), price only, vs the arrival mid */
  implementation_shortfall_bps: number;
  /** half the arrival spread: what crossing it costs */
  spread_cost_bps: number;
  /** shortfall beyond the half spread (negative = better than the touch) */
  impact_bps: number;
  /** fees / notional */
  fee_bps: number;
  /** shortfall + fee */
  total_cost_bps: number;
  fees_usd_1e9: number;
  notional_usd_1e9: number;
  best_single_venue: BestSingleVenue | null;
  /** benchmark all-in cost - ours; positive = the split did better; null without a benchmark or fills */
  savings_vs_best_single_venue_bps: number | null;
  /** the same in USD over the filled qty; null when the bps figure is */
  savings_usd_1e9: number | null;
  execution_time_ms: number;
  /** null when nothing filled */
  time_to_first_fill_ms: number | null;
  /** per venue, largest qty first (ties by venue name) */
  venues: TcaVenue[];
  is_prediction: boolean;
  /** arrival mid as probability bps (0 for spot and perp) */
  arrival_implied_prob_bps: number;
  /** VWAP as probability bps (0 for spot and perp; null for a prediction order with no fill) */
  achieved_implied_prob_bps: number | null;
  /** side x (achieved - arrival), probability bps, positive = against the client (0 for spot) */
  probability_slippage_bps: number;
}

/** 1e-4 bps per unit: bps figures are reported with four decimals. */
export const BPS_UNITS = 10_000;

/** The integer number of 1e-4 bps a reported bps figure stands for. */
export function bpsToUnits(bps: number): number {
  return Math.round(bps * BPS_UNITS);
}

const ZERO = 0n;
const UNITS_PER_RATIO = 100_000_000n; // 1e4 bps x 1e4 units
const QTY_X_PRICE = 100_000_000_000_000_000n; // 1e8 x 1e9: price_1e9 x qty_1e8 -> quote x 1e17

/** n / d rounded to nearest, halves away from zero (d > 0). */
export function divRound(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n % d;
  const twice = r < ZERO ? -2n * r : 2n * r;
  if (twice >= d) return n < ZERO ? q - 1n : q + 1n;
  return q;
}

function units(u: bigint): number {
  return Number(u) / BPS_UNITS;
}

function isPosInt(x: unknown): x is number {
  return typeof x === 'number' && Number.isSafeInteger(x) && x > 0;
}

function isFin(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x);
}

export type TcaInputError =
  | 'invalid_side'
  | 'invalid_qty'
  | 'invalid_fill'
  | 'invalid_arrival_mid'
  | 'invalid_timestamps'
  | 'invalid_spread'
  | 'invalid_quote_usd'
  | 'invalid_benchmark';

/** Why `computeTca` would return undefined, or undefined when the input is usable. */
export function tcaInputError(input: TcaInput): TcaInputError | undefined {
  if (input.side !== 'buy' && input.side !== 'sell') return 'invalid_side';
  if (!isPosInt(input.qty_1e8)) return 'invalid_qty';
  for (const f of input.fills) {
    if (!isPosInt(f.qty_1e8) || !isPosInt(f.price_1e9) || !Number.isSafeInteger(f.fee_1e9) || !isFin(f.ts_ns)) {
      return 'invalid_fill';
    }
  }
  const mid = input.arrival_mid_1e9;
  if (!Number.isSafeInteger(mid) || mid < 0 || (mid === 0 && input.fills.length > 0)) return 'invalid_arrival_mid';
  if (!isFin(input.arrival_ts_ns) || !isFin(input.completed_ts_ns)) return 'invalid_timestamps';
  if (!isFin(input.arrival_spread_bps)) return 'invalid_spread';
  if (input.quote_usd_1e9 !== undefined && !isPosInt(input.quote_usd_1e9)) return 'invalid_quote_usd';
  const b = input.best_single_venue;
  if (b !== null && (!isPosInt(b.avg_price_1e9) || !isFin(b.fee_bps))) return 'invalid_benchmark';
  return undefined;
}

/** ns -> whole ms, floored, never negative (a venue clock a little behind ours reads as 0). */
function elapsedMs(fromNs: number, toNs: number): number {
  return toNs > fromNs ? Math.floor((toNs - fromNs) / 1_000_000) : 0;
}

/**
 * TCA of a completed order, or undefined when the input is unusable (see `tcaInputError`). An
 * order with no fill still gets a report: cost figures 0 (nothing was executed, so nothing cost
 * anything, and its notional weight in aggregates is 0), VWAP, first-fill time and savings null.
 */
export function computeTca(input: TcaInput): TcaReport | undefined {
  if (tcaInputError(input) !== undefined) return undefined;
  const s = input.side === 'buy' ? 1n : -1n;
  const isPrediction = input.is_prediction === true;
  const M = BigInt(input.arrival_mid_1e9);
  const Q = BigInt(input.quote_usd_1e9 ?? 1_000_000_000);
  const executionMs = elapsedMs(input.arrival_ts_ns, input.completed_ts_ns);
  const arrivalProbUnits = isPrediction ? divRound(M, 10n) : ZERO; // M x 1e4 bps x 1e4 / 1e9

  // Per venue and overall: filled qty F, sum of price x qty PQ, fees; first fill time.
  const byVenue = new Map<string, { qty: bigint; pq: bigint; fee: bigint }>();
  let F = ZERO;
  let PQ = ZERO;
  let fees = ZERO;
  let firstTs = Infinity;
  for (const f of input.fills) {
    const q = BigInt(f.qty_1e8);
    const pq = BigInt(f.price_1e9) * q;
    const fee = BigInt(f.fee_1e9);
    F += q;
    PQ += pq;
    fees += fee;
    if (f.ts_ns < firstTs) firstTs = f.ts_ns;
    const v = byVenue.get(f.venue);
    if (v === undefined) byVenue.set(f.venue, { qty: q, pq, fee });
    else {
      v.qty += q;
      v.pq += pq;
      v.fee += fee;
    }
  }

  const requested = input.qty_1e8;
  if (F === ZERO) {
    return {
      achieved_vwap_1e9: null,
      arrival_mid_1e9: input.arrival_mid_1e9,
      filled_qty_1e8: 0,
      fill_ratio: 0,
      implementation_shortfall_bps: 0,
      spread_cost_bps: 0,
      impact_bps: 0,
      fee_bps: 0,
      total_cost_bps: 0,
      fees_usd_1e9: 0,
      notional_usd_1e9: 0,
      best_single_venue: input.best_single_venue === null ? null : { ...input.best_single_venue },
      savings_vs_best_single_venue_bps: null,
      savings_usd_1e9: null,
      execution_time_ms: executionMs,
      time_to_first_fill_ms: null,
      venues: [],
      is_prediction: isPrediction,
      arrival_implied_prob_bps: units(arrivalProbUnits),
      achieved_implied_prob_bps: isPrediction ? null : 0,
      probability_slippage_bps: 0,
    };
  }

  // Shortfall: side x (PQ/F - M) / M = side x (PQ - M F) / (M F); x 1e8 for units.
  const MF = M * F;
  const isUnits = divRound(s * (PQ - MF) * UNITS_PER_RATIO, MF);
  const spreadUnits = BigInt(Math.round(Math.max(0, input.arrival_spread_bps) * (BPS_UNITS / 2)));
  const impactUnits = isUnits - spreadUnits;
  // Notional in USD x 1e9 = PQ x Q / 1e17 (exact fraction PQ x Q / 1e17).
  const PQQ = PQ * Q;
  const feeUnits = divRound(fees * QTY_X_PRICE * UNITS_PER_RATIO, PQQ);
  const totalUnits = isUnits + feeUnits;

  let savingsUnits: bigint | null = null;
  let savingsUsd: bigint | null = null;
  const b = input.best_single_venue;
  const walk = input.best_single_venue_walk;
  if (b !== null && walk !== undefined && walk.qty_1e8 > 0 && walk.pq > ZERO) {
    // The benchmark scaled to the filled qty F: price pq_b x F / Qb, fee fee_b x F / Qb.
    const Qb = BigInt(walk.qty_1e8);
    const feeB = BigInt(walk.fee_1e9);
    // bps: side x (pq_b F / Qb - M F) / (M F) = side x (pq_b - M Qb) / (M Qb); fee over its own notional.
    const benchPrice = divRound(s * (walk.pq - M * Qb) * UNITS_PER_RATIO, M * Qb);
    const benchFee = divRound(feeB * QTY_X_PRICE * UNITS_PER_RATIO, walk.pq * Q);
    savingsUnits = benchPrice + benchFee - totalUnits;
    // USD 1e9: [side x (pq_b F - PQ Qb) x Q / 1e17 + fee_b F - fees Qb] / Qb, one rounding.
    savingsUsd = divRound(s * (walk.pq * F - PQ * Qb) * Q + (feeB * F - fees * Qb) * QTY_X_PRICE, Qb * QTY_X_PRICE);
  } else if (b !== null) {
    const B = BigInt(b.avg_price_1e9);
    const benchFeeUnits = BigInt(Math.round(b.fee_bps * BPS_UNITS));
    const benchUnits = divRound(s * (B - M) * UNITS_PER_RATIO, M) + benchFeeUnits;
    savingsUnits = benchUnits - totalUnits;
    // USD: the benchmark's price cost minus ours over the same filled qty (M cancels), plus
    // the benchmark's fee minus ours. (B F - PQ) x Q / 1e17, fee: units/1e8 x B F Q / 1e17.
    const priceAndBenchFee = s * (B * F - PQ) * Q * UNITS_PER_RATIO + benchFeeUnits * B * F * Q;
    savingsUsd = divRound(priceAndBenchFee, QTY_X_PRICE * UNITS_PER_RATIO) - fees;
  }

  const venues: TcaVenue[] = [];
  for (const [venue, v] of byVenue) {
    venues.push({
      venue,
      qty_1e8: Number(v.qty),
      vwap_1e9: Number(divRound(v.pq, v.qty)),
      fee_1e9: Number(v.fee),
      share: Number(v.qty) / Number(F),
    });
  }
  venues.sort((a, b2) => b2.qty_1e8 - a.qty_1e8 || (a.venue < b2.venue ? -1 : a.venue > b2.venue ? 1 : 0));

  let achievedProb: number | null = 0;
  let probSlippage = 0;
  if (isPrediction) {
    // Slippage is rounded once from the exact side x (VWAP - mid) in probability units
    // (x 1e4 bps x 1e4 / 1e9 = / 10), so a mirrored sell rounds exactly like the buy; the
    // achieved probability is then arrival + side x slippage, which keeps that identity exact.
    const slipUnits = divRound(s * (PQ - MF), 10n * F);
    achievedProb = units(arrivalProbUnits + s * slipUnits);
    probSlippage = units(slipUnits);
  }

  return {
    achieved_vwap_1e9: Number(divRound(PQ, F)),
    arrival_mid_1e9: input.arrival_mid_1e9,
    filled_qty_1e8: Number(F),
    fill_ratio: Number(F) / requested,
    implementation_shortfall_bps: units(isUnits),
    spread_cost_bps: units(spreadUnits),
    impact_bps: units(impactUnits),
    fee_bps: units(feeUnits),
    total_cost_bps: units(totalUnits),
    fees_usd_1e9: Number(fees),
    notional_usd_1e9: Number(divRound(PQQ, QTY_X_PRICE)),
    best_single_venue: b === null ? null : { ...b },
    savings_vs_best_single_venue_bps: savingsUnits === null ? null : units(savingsUnits),
    savings_usd_1e9: savingsUsd === null ? null : Number(savingsUsd),
    execution_time_ms: executionMs,
    time_to_first_fill_ms: elapsedMs(input.arrival_ts_ns, firstTs),
    venues,
    is_prediction: isPrediction,
    arrival_implied_prob_bps: units(arrivalProbUnits),
    achieved_implied_prob_bps: achievedProb,
    probability_slippage_bps: probSlippage,
  };
}
