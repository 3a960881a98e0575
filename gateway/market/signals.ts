/**
 * Short-horizon signals of one book (`GET /v1/data/signals`), pure: no I/O, no clock; the route
 * gathers the inputs and passes `now_ms`. The maths, with worked figures, is docs/data-engine.md.
 *
 *   consolidated book (quote cache)  -> mid, spread_bps, top-N book imbalance
 *   mid samples (mid-history.ts)     -> mid return over the horizon, realised volatility
 *   trade tape over the horizon      -> trade-flow imbalance (taker buy vs sell quantity)
 *   fair price of the underlying     -> basis of the NBBO mid against it
 *
 * Prices and quantities come in as the integers the service keeps (_1e9, _1e8); the signals are
 * statistics (bps, ratios) in doubles, rounded so a figure prints as it was computed. Depth and
 * volume sums are exact integers (bigint, written as JSON integer literals past 2^53).
 */

/** One sample of a book's NBBO mid (_1e9; a half when bid + ask is odd). */
export interface MidSample {
  ts_ms: number;
  mid_1e9: number;
}

/** The consolidated book as the quote cache holds it, best levels first. */
export interface SignalBook {
  bid_1e9: number;
  ask_1e9: number;
  crossed: boolean;
  /** last change of the NBBO */
  updated_ms: number;
  bid_qtys_1e8: readonly number[];
  ask_qtys_1e8: readonly number[];
}

export interface SignalTrade {
  /** the taker's side */
  side: 'buy' | 'sell';
  qty_1e8: number;
}

export interface SignalInputs {
  now_ms: number;
  horizon_s: number;
  /** levels of each side the book imbalance sums */
  levels: number;
  /** undefined when the book has no data yet */
  book: SignalBook | undefined;
  /** ascending; the first may be the reference before the horizon (MidRing.since) */
  mids: readonly MidSample[];
  /** the oldest mid sample kept of the book, however old; null when none */
  history_from_ms: number | null;
  /** the tape's trades of the horizon */
  trades: readonly SignalTrade[];
  /** the horizon held more trades than the route reads: `trades` are its newest */
  trades_truncated: boolean;
  /** the cross-venue fair price of the symbol's underlying; null when there is none */
  fair: { underlying: string; fair_mid_1e9: number; confidence: number } | null;
}

export interface RealizedVol {
  /** sqrt(sum of squared log returns / seconds), in bps: the standard deviation of the mid's log return over one second */
  bps_per_sqrt_s: number | null;
  /** the same scaled to a 365-day year of seconds (crypto trades around the clock), as a fraction: 0.6 = 60% */
  annualized: number | null;
  /** mid samples the returns were taken between */
  samples: number;
  /** seconds from the first of them to the last */
  window_s: number;
}

export interface BookImbalance {
  levels: number;
  bid_depth_1e8: bigint;
  ask_depth_1e8: bigint;
  /** (bid depth - ask depth) / (bid depth + ask depth), in [-1, 1]; null when both are 0 */
  imbalance: number | null;
}

export interface TradeFlow {
  trades: number;
  buy_qty_1e8: bigint;
  sell_qty_1e8: bigint;
  /** (buy - sell) / (buy + sell) of the takers' quantity, in [-1, 1]; null without trades */
  imbalance: number | null;
  truncated: boolean;
}

export interface FairBasis {
  underlying: string;
  fair_mid_1e9: number;
  confidence: number;
  /** (NBBO mid - fair mid) / fair mid, in bps; null without a mid */
  basis_bps: number | null;
}

export interface Signals {
  bid_1e9: number | null;
  ask_1e9: number | null;
  /** (bid + ask) / 2 in price units (a decimal, as the quote's nbbo.mid); null without both sides */
  mid: number | null;
  crossed: boolean;
  /** since the NBBO last changed; null without a book */
  quote_age_ms: number | null;
  /** (ask - bid) / mid, in bps; negative when the consolidated book is crossed */
  spread_bps: number | null;
  /** (mid now / mid at the reference - 1), in bps; null while the history is shorter than the horizon */
  mid_return_bps: number | null;
  /** when the reference mid was sampled: the last sample at or before now - horizon */
  return_reference_ms: number | null;
  /** the reference mid, a decimal */
  return_reference_mid: number | null;
  realized_vol: RealizedVol;
  book_imbalance: BookImbalance;
  trade_flow: TradeFlow;
  fair_price: FairBasis | null;
  /** how far back the mid history reaches, in seconds */
  history_s: number;
}

export const BPS = 10_000;
/** A 365-day year in seconds: the annualising factor of a per-second variance. */
export const SECONDS_PER_YEAR = 365 * 86_400;

/** Rounded to 1e-4 (bps) or 1e-6 (ratios): the figures print as computed, without float tails. */
export const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
export const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** The mid of a two-sided book in _1e9 (a half when bid + ask is odd), or null. */
export function mid1e9(bid_1e9: number, ask_1e9: number): number | null {
  return bid_1e9 > 0 && ask_1e9 > 0 ? (bid_1e9 + ask_1e9) / 2 : null;
}

/** (ask - bid) / mid in bps, negative when crossed; null without both sides. */
export function spreadBps(bid_1e9: number, ask_1e9: number): number | null {
  const mid = mid1e9(bid_1e9, ask_1e9);
  return mid === null ? null : round4(((ask_1e9 - bid_1e9) * BPS) / mid);
}

/**
 * The reference of a return over `horizon_ms` ending at `now_ms`: the last sample at or before
 * now - horizon (so the return spans at least the horizon), or undefined when the history does
 * not reach back that far.
 */
export function referenceSample(mids: readonly MidSample[], now_ms: number, horizon_ms: number): MidSample | undefined {
  const cutoff = now_ms - horizon_ms;
  let ref: MidSample | undefined;
  for (const s of mids) {
    if (s.ts_ms > cutoff) break;
    ref = s;
  }
  return ref;
}

/** (mid_now / reference - 1) in bps. */
export function returnBps(midNow_1e9: number, reference_1e9: number): number {
  return round4((midNow_1e9 / reference_1e9 - 1) * BPS);
}

/**
 * Realised volatility of the samples from the reference on (or all of them when there is no
 * reference): log returns between consecutive samples, r_i = ln(m_i / m_(i-1)); over T seconds
 * from the first sample to the last, variance per second = sum(r_i^2) / T. Returned as its
 * square root in bps (per sqrt-second) and annualised (x sqrt(SECONDS_PER_YEAR), a fraction).
 */
export function realizedVol(samples: readonly MidSample[]): RealizedVol {
  const n = samples.length;
  const window_s = n < 2 ? 0 : (samples[n - 1]!.ts_ms - samples[0]!.ts_ms) / 1000;
  if (n < 2 || !(window_s > 0)) return { bps_per_sqrt_s: null, annualized: null, samples: n, window_s };
  let sumSq = 0;
  for (let i = 1; i < n; i++) {
    const r = Math.log(samples[i]!.mid_1e9 / samples[i - 1]!.mid_1e9);
    sumSq += r * r;
  }
  const perSecond = sumSq / window_s;
  return { bps_per_sqrt_s: round4(Math.sqrt(perSecond) * BPS), annualized: round6(Math.sqrt(perSecond * SECONDS_PER_YEAR)), samples: n, window_s };
}

/** Depth of the first `levels` levels each side (qty_1e8) and their imbalance. */
export function bookImbalance(bidQtys: readonly number[], askQtys: readonly number[], levels: number): BookImbalance {
  let bid = 0n;
  let ask = 0n;
  for (let i = 0; i < Math.min(levels, bidQtys.length); i++) bid += BigInt(bidQtys[i]!);
  for (let i = 0; i < Math.min(levels, askQtys.length); i++) ask += BigInt(askQtys[i]!);
  return { levels, bid_depth_1e8: bid, ask_depth_1e8: ask, imbalance: ratioOf(bid - ask, bid + ask) };
}

/** The takers' buy and sell quantity over the trades, and their imbalance. */
export function tradeFlow(trades: readonly SignalTrade[], truncated: boolean): TradeFlow {
  let buy = 0n;
  let sell = 0n;
  for (const t of trades) {
    if (t.side === 'buy') buy += BigInt(t.qty_1e8);
    else sell += BigInt(t.qty_1e8);
  }
  return { trades: trades.length, buy_qty_1e8: buy, sell_qty_1e8: sell, imbalance: ratioOf(buy - sell, buy + sell), truncated };
}

/** (mid - fair) / fair in bps. */
export function basisBps(mid_1e9: number, fair_1e9: number): number {
  return round4(((mid_1e9 - fair_1e9) * BPS) / fair_1e9);
}

/** num / den rounded to 1e-6, null when den is 0 (exact integers divided once, as doubles). */
function ratioOf(num: bigint, den: bigint): number | null {
  return den === 0n ? null : round6(Number(num) / Number(den));
}

/** Every signal of one book. */
export function computeSignals(input: SignalInputs): Signals {
  const { book, mids, now_ms } = input;
  const horizon_ms = input.horizon_s * 1000;
  const mid = book === undefined ? null : mid1e9(book.bid_1e9, book.ask_1e9);
  const ref = referenceSample(mids, now_ms, horizon_ms);
  const volSamples = ref === undefined ? mids : mids.slice(mids.indexOf(ref));
  return {
    bid_1e9: book === undefined || book.bid_1e9 <= 0 ? null : book.bid_1e9,
    ask_1e9: book === undefined || book.ask_1e9 <= 0 ? null : book.ask_1e9,
    mid: mid === null ? null : mid / 1e9,
    crossed: book?.crossed ?? false,
    quote_age_ms: book === undefined ? null : Math.max(0, now_ms - book.updated_ms),
    spread_bps: book === undefined ? null : spreadBps(book.bid_1e9, book.ask_1e9),
    mid_return_bps: mid === null || ref === undefined ? null : returnBps(mid, ref.mid_1e9),
    return_reference_ms: ref?.ts_ms ?? null,
    return_reference_mid: ref === undefined ? null : ref.mid_1e9 / 1e9,
    realized_vol: realizedVol(volSamples),
    book_imbalance: bookImbalance(book?.bid_qtys_1e8 ?? [], book?.ask_qtys_1e8 ?? [], input.levels),
    trade_flow: tradeFlow(input.trades, input.trades_truncated),
    fair_price:
      input.fair === null
        ? null
        : { underlying: input.fair.underlying, fair_mid_1e9: input.fair.fair_mid_1e9, confidence: input.fair.confidence, basis_bps: mid === null ? null : basisBps(mid, input.fair.fair_mid_1e9) },
    history_s: input.history_from_ms === null ? 0 : Math.max(0, (now_ms - input.history_from_ms) / 1000),
  };
}
