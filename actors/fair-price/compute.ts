/**
 * Fair price per underlying (spec, "Fair price", rules 1-7). Pure: no I/O, no clock; the caller
 * passes `now_ns`. README.md next to this file holds the rules with the choices the spec leaves
 * open (MAD = 0, confidence, weighted-median ties, contributor listing).
 *
 *   contributions (spot, perp)                                      rule
 *     -> weight = recency x liquidity x spread                      1
 *     -> per leg: weighted median -> 3-MAD rejection -> leg median  1, 2 (skipped for n = 1: 5)
 *     -> fair_mid = weighted median of the union of survivors      3
 *     -> basis_bps from the two leg medians                         4
 *     -> confidence                                                 5
 *   symbols -> underlying (USD / USDT / USDC collapse)              6
 *   FairPriceRegistry: at most 256 underlyings                      7
 */
import { underlyingOf } from '../../domain/market.ts';

export type LegType = 'spot' | 'perp';

/** One venue's current view of one symbol of the underlying. */
export interface Contribution {
  venue: string;
  instrument_type: LegType;
  /** Venue mid, (bid + ask) / 2 in _1e9; contributions with a mid <= 0 are ignored. */
  mid_1e9: number;
  /**
   * Top-of-book size in qty_1e8 units (the README suggests min(bid size, ask size)), so one whole
   * unit of base (1e8) gives liquidity log10(1e8 + 1) / 8 ~ 1.0, the cap.
   */
  top_qty_1e8: number;
  /** The venue's own spread in bps; negative (a crossed venue book) counts as 0. */
  spread_bps: number;
  /** ts_ns of the venue's last tick. */
  updated_ns: number;
}

export interface FairPriceContributor {
  venue: string;
  instrument_type: LegType;
  mid_1e9: number;
  weight: number;
  staleness_ms: number;
}

/** The spec's Fair price object. */
export interface FairPrice {
  underlying: string;
  fair_mid_1e9: number;
  spot_mid_1e9: number | null;
  perp_mid_1e9: number | null;
  basis_bps: number | null;
  confidence: number;
  contributors: FairPriceContributor[];
  cc_ts_ns: number;
}

/** Rule 1: recency = exp(-age_ns / RECENCY_TAU_NS). */
export const RECENCY_TAU_NS = 500_000_000;
/** Rule 2: reject beyond this many MADs. */
export const MAD_MULTIPLIER = 3;
/** Rule 2 with MAD = 0: the MAD used is at least this many bps of the side's median. */
export const MAD_FLOOR_BPS = 1;
/** Confidence: contributors needed before the count stops limiting it; 1 contributor -> <= 0.25. */
export const FULL_CONFIDENCE_CONTRIBUTORS = 4;
/** Confidence: weighted mean distance from fair_mid (bps) that halves the agreement factor. */
export const AGREEMENT_HALF_BPS = 10;
/** Rule 7. */
export const MAX_UNDERLYINGS = 256;

/** Rule 6: the underlying of a symbol: the base of a USD, USDT or USDC pair, else undefined. */
export function underlyingKey(symbol: string): string | undefined {
  return underlyingOf(symbol);
}

/** Rule 1. top_size in qty_1e8 units; see `Contribution.top_qty_1e8`. */
export function contributionWeight(c: Contribution, now_ns: number): number {
  const age = Math.max(0, now_ns - c.updated_ns);
  const recency = Math.exp(-age / RECENCY_TAU_NS);
  const liquidity = Math.min(1, Math.max(0.1, Math.log10(Math.max(0, c.top_qty_1e8) + 1) / 8));
  const spread = 1 / (1 + Math.max(0, c.spread_bps) * 0.01);
  return recency * liquidity * spread;
}

interface Weighted {
  c: Contribution;
  weight: number;
}

/**
 * Lower weighted median: with the values sorted ascending, the smallest value whose cumulative
 * weight reaches half the total (2 x cumulative >= total). When the cumulative weight hits
 * exactly half at a value, that (lower) value wins, so the result is always one of the inputs
 * (an integer mid). Equal values are one step whatever their order. If every weight is 0 (all
 * contributions so stale that exp underflowed) the weights count as equal. `values` must be
 * non-empty and sorted ascending, `weights` parallel to it.
 */
export function weightedMedian(values: readonly number[], weights: readonly number[]): number {
  let total = 0;
  for (const w of weights) total += w;
  const equal = !(total > 0);
  if (equal) total = values.length;
  let cumulative = 0;
  for (let i = 0; i < values.length; i++) {
    cumulative += equal ? 1 : weights[i]!;
    if (2 * cumulative >= total) return values[i]!;
  }
  return values[values.length - 1]!;
}

/** Contributors list spot before perp. */
const legOrder = (leg: LegType) => (leg === 'spot' ? 0 : 1);

function medianOf(items: readonly Weighted[]): number {
  return weightedMedian(
    items.map((x) => x.c.mid_1e9),
    items.map((x) => x.weight),
  );
}

/** Plain median (mean of the two middle values for an even count) of non-negative numbers. */
function plainMedian(values: number[]): number {
  values.sort((a, b) => a - b);
  const n = values.length;
  return n % 2 === 1 ? values[(n - 1) / 2]! : (values[n / 2 - 1]! + values[n / 2]!) / 2;
}

/**
 * Rule 2 for one side (sorted by mid): keeps contributors within MAD_MULTIPLIER x MAD of the
 * side's weighted median, where MAD is the plain median of the absolute deviations from it, floored
 * at MAD_FLOOR_BPS of the median (so MAD = 0 does not make a one-tick difference an outlier).
 * Exactly 3 MAD away is kept ("farther than" rejects).
 */
function rejectOutliers(side: Weighted[]): Weighted[] {
  if (side.length < 3) return side; // with 1 or 2 there is no majority to call the other an outlier
  const center = medianOf(side);
  const mad = plainMedian(side.map((x) => Math.abs(x.c.mid_1e9 - center)));
  const limit = MAD_MULTIPLIER * Math.max(mad, (center * MAD_FLOOR_BPS) / 10_000);
  return side.filter((x) => Math.abs(x.c.mid_1e9 - center) <= limit);
}

/**
 * The fair price of `underlying` from its contributions (every USD-settled symbol of it, spot and
 * perp, every venue), or undefined when no contribution has a positive mid.
 */
export function computeFairPrice(underlying: string, contributions: readonly Contribution[], now_ns: number): FairPrice | undefined {
  const all: Weighted[] = [];
  for (const c of contributions) {
    if (!(c.mid_1e9 > 0) || (c.instrument_type !== 'spot' && c.instrument_type !== 'perp')) continue;
    all.push({ c, weight: contributionWeight(c, now_ns) });
  }
  if (all.length === 0) return undefined;
  // Sort once by mid (then leg, venue for a stable order): every median below walks sorted input.
  all.sort((a, b) => a.c.mid_1e9 - b.c.mid_1e9 || legOrder(a.c.instrument_type) - legOrder(b.c.instrument_type) || a.c.venue.localeCompare(b.c.venue));

  let spot = all.filter((x) => x.c.instrument_type === 'spot');
  let perp = all.filter((x) => x.c.instrument_type === 'perp');
  // Rule 5: a single-contributor underlying skips rejection (rejectOutliers also keeps n < 3).
  if (all.length > 1) {
    spot = rejectOutliers(spot);
    perp = rejectOutliers(perp);
  }
  const survivors = all.filter((x) => spot.includes(x) || perp.includes(x));

  const spotMid = spot.length > 0 ? medianOf(spot) : null;
  const perpMid = perp.length > 0 ? medianOf(perp) : null;
  const fairMid = medianOf(survivors);
  const basis = spotMid !== null && perpMid !== null ? ((perpMid - spotMid) / spotMid) * 10_000 : null;

  return {
    underlying,
    fair_mid_1e9: fairMid,
    spot_mid_1e9: spotMid,
    perp_mid_1e9: perpMid,
    basis_bps: basis,
    confidence: confidenceOf(survivors, all.length, spotMid, perpMid),
    contributors: survivors
      .slice()
      .sort((a, b) => legOrder(a.c.instrument_type) - legOrder(b.c.instrument_type) || a.c.venue.localeCompare(b.c.venue) || a.c.mid_1e9 - b.c.mid_1e9)
      .map((x) => ({
        venue: x.c.venue,
        instrument_type: x.c.instrument_type,
        mid_1e9: x.c.mid_1e9,
        weight: x.weight,
        staleness_ms: Math.floor(Math.max(0, now_ns - x.c.updated_ns) / 1_000_000),
      })),
    cc_ts_ns: now_ns,
  };
}

/**
 * confidence = mass x agreement x survival, each in [0, 1]:
 *   mass      = sum(weights of survivors) / max(survivors, FULL_CONFIDENCE_CONTRIBUTORS)
 *               (the mean weight, but a set smaller than 4 counts as if padded with weight-0
 *               members: one perfect contributor gives at most 0.25, rule 5's low floor)
 *   agreement = 1 / (1 + d / AGREEMENT_HALF_BPS), d = weight-averaged distance in bps of each
 *               survivor from its OWN leg's median (the basis between legs is not disagreement)
 *   survival  = survivors / contributions (outliers found lower it)
 */
function confidenceOf(survivors: readonly Weighted[], considered: number, spotMid: number | null, perpMid: number | null): number {
  let mass = 0;
  let spread = 0;
  for (const x of survivors) {
    const legMid = (x.c.instrument_type === 'spot' ? spotMid : perpMid)!;
    mass += x.weight;
    spread += (x.weight * Math.abs(x.c.mid_1e9 - legMid) * 10_000) / legMid;
  }
  const dispersionBps = mass > 0 ? spread / mass : 0;
  const agreement = 1 / (1 + dispersionBps / AGREEMENT_HALF_BPS);
  const survival = survivors.length / considered;
  const confidence = (mass / Math.max(survivors.length, FULL_CONFIDENCE_CONTRIBUTORS)) * agreement * survival;
  return Math.min(1, Math.max(0, confidence));
}

/** What `FairPriceRegistry.update` did. */
export type UpdateResult = 'updated' | 'added' | 'not_usd' | 'full';

/**
 * The contributions of up to MAX_UNDERLYINGS underlyings (rule 7), keyed by venue, instrument
 * type and symbol, so BTC-USDT and BTC-USDC on one venue are two contributions of 'BTC' (rule 6).
 * An underlying is added by its first contribution and keeps its slot afterwards, even when its
 * contributions are removed (a feed that reconnects finds it again).
 */
export class FairPriceRegistry {
  readonly maxUnderlyings: number;
  private readonly books = new Map<string, { contributions: Map<string, Contribution>; version: number }>();

  constructor(maxUnderlyings = MAX_UNDERLYINGS) {
    this.maxUnderlyings = maxUnderlyings;
  }

  /**
   * Records the latest contribution of `symbol` from a venue. Returns false, recording nothing,
   * when the symbol is not USD-settled or it would be a new underlying beyond the cap.
   */
  update(symbol: string, contribution: Contribution): boolean {
    const result = this.updateDetailed(symbol, contribution);
    return result === 'updated' || result === 'added';
  }

  updateDetailed(symbol: string, contribution: Contribution): UpdateResult {
    const underlying = underlyingKey(symbol);
    if (underlying === undefined) return 'not_usd';
    let book = this.books.get(underlying);
    let added = false;
    if (book === undefined) {
      if (this.books.size >= this.maxUnderlyings) return 'full';
      book = { contributions: new Map(), version: 0 };
      this.books.set(underlying, book);
      added = true;
    }
    book.contributions.set(contributionKey(contribution.venue, contribution.instrument_type, symbol), contribution);
    book.version++;
    return added ? 'added' : 'updated';
  }

  /** Drops one contribution (its feed dropped); true if there was one. */
  remove(symbol: string, venue: string, instrument_type: LegType): boolean {
    const underlying = underlyingKey(symbol);
    const book = underlying === undefined ? undefined : this.books.get(underlying);
    if (book === undefined || !book.contributions.delete(contributionKey(venue, instrument_type, symbol))) return false;
    book.version++;
    return true;
  }

  has(underlying: string): boolean {
    return this.books.has(underlying);
  }

  get size(): number {
    return this.books.size;
  }

  underlyings(): string[] {
    return [...this.books.keys()];
  }

  /** Increments on every update or removal of the underlying; -1 when untracked. */
  version(underlying: string): number {
    return this.books.get(underlying)?.version ?? -1;
  }

  contributions(underlying: string): Contribution[] {
    return [...(this.books.get(underlying)?.contributions.values() ?? [])];
  }

  compute(underlying: string, now_ns: number): FairPrice | undefined {
    const book = this.books.get(underlying);
    return book === undefined ? undefined : computeFairPrice(underlying, [...book.contributions.values()], now_ns);
  }
}

function contributionKey(venue: string, instrument_type: LegType, symbol: string): string {
  return `${venue}|${instrument_type}|${symbol}`;
}
