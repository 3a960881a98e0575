/**
 * The embedded default universe of the simulated venues (issue 3, "Simulated venues"): ten
 * venues, their edges, what each edge lists, matching rules, fees and market-model parameters.
 * Pure data plus lookups built once at module load; docs/simulation.md has the same tables.
 *
 * Every number is chosen to look like the public schedules and books of the real venue without
 * claiming to be them: fees are base-tier public rates rounded UP to integer bps (the `FeeRow`
 * type has integer `maker_bps`/`taker_bps`; rounding up keeps routing conservative), ticks follow
 * each venue's significant-digit or fixed-decimal habit, lots its size precision.
 */
import type { InstrumentType, VenueId } from '../../../domain/market.ts';
import { PRICE_SCALE, QTY_SCALE } from '../../../domain/units.ts';
import type { MatchingRules } from './matcher.ts';

export type Region = 'na' | 'eu' | 'ap';

// ---------------------------------------------------------------------------------------------
// Underlyings
// ---------------------------------------------------------------------------------------------

export interface UnderlyingSpec {
  asset: string;
  /** Reference USD price: the level the latent path wanders around. */
  ref_usd: number;
  /** Annualised volatility of the diffusion (log units). */
  vol_annual: number;
  /** Relative liquidity, BTC = 1: scales depth, update and trade rates, widens spreads. */
  liquidity: number;
  /** Jump arrivals per hour (compound Poisson) and their size (standard deviation, bps). */
  jump_per_h: number;
  jump_bps: number;
}

export const UNDERLYINGS: readonly UnderlyingSpec[] = [
  { asset: 'BTC', ref_usd: 95_000, vol_annual: 0.5, liquidity: 1, jump_per_h: 2, jump_bps: 15 },
  { asset: 'ETH', ref_usd: 3_400, vol_annual: 0.65, liquidity: 0.7, jump_per_h: 2, jump_bps: 20 },
  { asset: 'SOL', ref_usd: 180, vol_annual: 0.85, liquidity: 0.4, jump_per_h: 2.5, jump_bps: 30 },
  { asset: 'XRP', ref_usd: 2.3, vol_annual: 0.9, liquidity: 0.3, jump_per_h: 2.5, jump_bps: 30 },
  { asset: 'DOGE', ref_usd: 0.32, vol_annual: 1.0, liquidity: 0.25, jump_per_h: 3, jump_bps: 35 },
  { asset: 'BNB', ref_usd: 690, vol_annual: 0.55, liquidity: 0.3, jump_per_h: 2, jump_bps: 20 },
  { asset: 'ADA', ref_usd: 0.95, vol_annual: 0.9, liquidity: 0.15, jump_per_h: 3, jump_bps: 35 },
  { asset: 'AVAX', ref_usd: 38, vol_annual: 0.95, liquidity: 0.12, jump_per_h: 3, jump_bps: 35 },
  { asset: 'LINK', ref_usd: 22, vol_annual: 0.9, liquidity: 0.12, jump_per_h: 3, jump_bps: 35 },
  { asset: 'SUI', ref_usd: 4.2, vol_annual: 1.1, liquidity: 0.12, jump_per_h: 3, jump_bps: 40 },
  { asset: 'LTC', ref_usd: 105, vol_annual: 0.75, liquidity: 0.1, jump_per_h: 2.5, jump_bps: 30 },
  { asset: 'DOT', ref_usd: 7.5, vol_annual: 0.9, liquidity: 0.08, jump_per_h: 3, jump_bps: 35 },
  { asset: 'BCH', ref_usd: 450, vol_annual: 0.8, liquidity: 0.08, jump_per_h: 2.5, jump_bps: 30 },
  { asset: 'ARB', ref_usd: 0.85, vol_annual: 1.1, liquidity: 0.06, jump_per_h: 3, jump_bps: 40 },
  { asset: 'UNI', ref_usd: 13, vol_annual: 0.95, liquidity: 0.06, jump_per_h: 3, jump_bps: 35 },
  { asset: 'OP', ref_usd: 2.1, vol_annual: 1.1, liquidity: 0.05, jump_per_h: 3, jump_bps: 40 },
  { asset: 'NEAR', ref_usd: 5.5, vol_annual: 1.0, liquidity: 0.05, jump_per_h: 3, jump_bps: 40 },
  { asset: 'ATOM', ref_usd: 8, vol_annual: 0.9, liquidity: 0.04, jump_per_h: 3, jump_bps: 35 },
];

/** Stablecoin quote currencies against USD: mean basis and its wander (bps), see latent-price.ts. */
export interface QuoteSpec {
  quote: 'USD' | 'USDT' | 'USDC';
  mean_bps: number;
  wander_bps: number;
}
export const QUOTES: readonly QuoteSpec[] = [
  { quote: 'USD', mean_bps: 0, wander_bps: 0 },
  { quote: 'USDT', mean_bps: 1.5, wander_bps: 1.5 },
  { quote: 'USDC', mean_bps: -0.3, wander_bps: 0.5 },
];

// ---------------------------------------------------------------------------------------------
// Venues and edges
// ---------------------------------------------------------------------------------------------

/** Fault episodes per hour and their durations (uniform in [min, max] ms). */
export interface FaultRates {
  /** Feed drops: onStatus(false) ... onStatus(true); no events in between. */
  disconnect_per_h: number;
  disconnect_ms: readonly [number, number];
  /** Frozen book: no quote updates and no trades while the latent price moves on. */
  stale_per_h: number;
  stale_ms: readonly [number, number];
  /** Latency spikes: the venue's liquidity providers quote a price this much older. */
  lag_per_h: number;
  lag_ms: readonly [number, number];
  lag_extra_ms: readonly [number, number];
}

/** The market model's knobs for one edge; per-symbol values scale with the underlying's liquidity. */
export interface MarketParams {
  /** One-way latency to the venue (ms); LPs quote the latent price this much in the past. */
  latency_ms: number;
  /**
   * Typical inside spread on BTC (full spread, bps); other symbols widen by 1/sqrt(liquidity).
   * Wider than the real one-tick BTC books on purpose: every venue quotes one shared latent
   * price with its own lag, and with one-tick spreads the consolidated book would be crossed
   * a large share of the time instead of occasionally (docs/simulation.md, "Calibration").
   */
  spread_bps: number;
  /** Visible depth per side on BTC (USD, all LPs and levels). */
  depth_usd: number;
  /** LP quote updates per second on BTC (all LPs of the symbol together). */
  update_hz: number;
  /** Taker arrivals per second on BTC. */
  trade_hz: number;
  /** Median taker order on BTC (USD). */
  median_trade_usd: number;
  /** Probability that a taker order is a sweep through several levels. */
  sweep_prob: number;
  /** Venue-specific quote offset from the latent price (standard deviation, bps, BTC). */
  noise_bps: number;
  /** Liquidity providers per symbol and price levels each quotes per side. */
  lp_count: number;
  levels: number;
  /** Size of level k relative to the top: 1 + level_growth * k. */
  level_growth: number;
  /** Probability that an LP update turns into a stale spell, and the spell's mean length (ms). */
  lp_stale_prob: number;
  lp_stale_ms: number;
  /** Matching rules: significant digits of the price, lot in USD, minimum notional / quantity. */
  price_sig_digits: number;
  lot_usd: number;
  min_notional_usd: number;
  min_qty_usd: number;
}

/** Funding of a perpetual edge (Binance-style: premium + clamp(interest - premium)). */
export interface FundingSpec {
  interval_h: number;
  /** Interest component per interval (bps). */
  interest_bps: number;
  /** Clamp of (interest - premium) per interval (bps). */
  clamp_bps: number;
  /** Cap of the rate per interval (bps). */
  cap_bps: number;
}

export interface VenueSpec {
  venue: VenueId;
  region: Region;
  instrument_types: readonly InstrumentType[];
  faults: FaultRates;
}

export interface ListingSpec {
  symbol: string;
  base: string;
  quote: 'USD' | 'USDT' | 'USDC';
  rules: MatchingRules;
  /** In the edge's subscription set at start; the others are served on the cold path. */
  subscribed: boolean;
  /** Relative liquidity of this listing (underlying liquidity x quote factor), BTC primary = 1. */
  liquidity: number;
}

export interface EdgeSpec {
  edge_id: string;
  venue: VenueId;
  instrument_type: InstrumentType;
  region: Region;
  supports_algo_runtime: boolean;
  maker_bps: number;
  taker_bps: number;
  market: MarketParams;
  faults: FaultRates;
  funding: FundingSpec | null;
  listings: readonly ListingSpec[];
}

/** `/v1/edges` row material (spec, Edge status). */
export interface EdgeInfo {
  edge_id: string;
  venue: VenueId;
  instrument_type: InstrumentType;
  region: Region;
  supports_algo_runtime: boolean;
}

/** The spec's `FeeRow`. */
export interface FeeRow {
  venue: VenueId;
  fee_model: 'linear' | 'binary_quadratic';
  components: Record<string, number | string>;
  formula: { taker_fee_usd: string; maker_fee_usd: string };
  maker_bps: number | null;
  taker_bps: number | null;
}

function faults(
  disconnect_per_h: number,
  stale_per_h: number,
  lag_per_h: number,
): FaultRates {
  return {
    disconnect_per_h,
    disconnect_ms: [1_000, 8_000],
    stale_per_h,
    stale_ms: [3_000, 20_000],
    lag_per_h,
    lag_ms: [5_000, 30_000],
    lag_extra_ms: [250, 1_500],
  };
}

const VENUE_SPECS: readonly VenueSpec[] = [
  { venue: 'binance', region: 'ap', instrument_types: ['spot', 'perp'], faults: faults(0.25, 0.5, 1.5) },
  { venue: 'coinbase', region: 'na', instrument_types: ['spot'], faults: faults(0.3, 0.6, 1.5) },
  { venue: 'kraken', region: 'eu', instrument_types: ['spot'], faults: faults(0.6, 1.0, 2.5) },
  { venue: 'okx', region: 'ap', instrument_types: ['spot', 'perp'], faults: faults(0.3, 0.6, 2) },
  { venue: 'bybit', region: 'ap', instrument_types: ['spot', 'perp'], faults: faults(0.4, 0.8, 2) },
  { venue: 'kucoin', region: 'ap', instrument_types: ['spot'], faults: faults(1.0, 1.5, 3) },
  { venue: 'bitstamp', region: 'eu', instrument_types: ['spot'], faults: faults(0.8, 1.5, 3) },
  { venue: 'hyperliquid', region: 'ap', instrument_types: ['perp'], faults: faults(0.5, 1.0, 2.5) },
  { venue: 'kalshi', region: 'na', instrument_types: ['prediction'], faults: faults(0.4, 0, 0) },
  { venue: 'polymarket', region: 'eu', instrument_types: ['prediction'], faults: faults(0.6, 0, 0) },
];

interface EdgeDraft {
  venue: VenueId;
  instrument_type: InstrumentType;
  supports_algo_runtime: boolean;
  maker_bps: number;
  taker_bps: number;
  market: MarketParams;
  funding: FundingSpec | null;
  /** quote -> bases listed in it; the first quote is the edge's primary one. */
  lists: Partial<Record<'USD' | 'USDT' | 'USDC', readonly string[]>>;
  /** Listings outside the subscription set at start, beyond the liquidity rule. */
  cold?: readonly string[];
}

function market(p: Partial<MarketParams> & Pick<MarketParams, 'latency_ms' | 'spread_bps' | 'depth_usd'>): MarketParams {
  return {
    update_hz: 40,
    trade_hz: 8,
    median_trade_usd: 600,
    sweep_prob: 0.01,
    noise_bps: 0.1,
    lp_count: 3,
    levels: 8,
    level_growth: 0.35,
    lp_stale_prob: 0.00003,
    lp_stale_ms: 4_000,
    price_sig_digits: 7,
    lot_usd: 1,
    min_notional_usd: 0,
    min_qty_usd: 0,
    ...p,
  };
}

const FUNDING_8H: FundingSpec = { interval_h: 8, interest_bps: 1, clamp_bps: 5, cap_bps: 75 };
// Hyperliquid: hourly payments of one eighth of the 8-hour rate; interest 0.01% / 8 h.
const FUNDING_1H: FundingSpec = { interval_h: 1, interest_bps: 0.125, clamp_bps: 0.625, cap_bps: 400 };

const ALL_USDT = ['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'BNB', 'ADA', 'AVAX', 'LINK', 'SUI', 'LTC', 'DOT', 'BCH', 'ARB', 'UNI', 'OP', 'NEAR', 'ATOM'];
const ALL_USD = ['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'ADA', 'AVAX', 'LINK', 'SUI', 'LTC', 'DOT', 'BCH', 'ARB', 'UNI', 'OP', 'NEAR', 'ATOM'];

const DRAFTS: readonly EdgeDraft[] = [
  {
    venue: 'binance', instrument_type: 'spot', supports_algo_runtime: true, maker_bps: 10, taker_bps: 10, funding: null,
    market: market({ latency_ms: 12, spread_bps: 0.6, depth_usd: 3_000_000, update_hz: 60, trade_hz: 12, median_trade_usd: 800, noise_bps: 0.05, price_sig_digits: 7, lot_usd: 1, min_notional_usd: 5 }),
    lists: { USDT: ALL_USDT, USDC: ['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'BNB', 'LINK'] },
  },
  {
    venue: 'coinbase', instrument_type: 'spot', supports_algo_runtime: true, maker_bps: 40, taker_bps: 60, funding: null,
    market: market({ latency_ms: 8, spread_bps: 1.6, depth_usd: 2_000_000, update_hz: 45, trade_hz: 9, median_trade_usd: 500, noise_bps: 0.08, price_sig_digits: 7, lot_usd: 0.001, min_notional_usd: 1 }),
    lists: { USD: ALL_USD, USDC: ['BTC', 'ETH', 'SOL'], USDT: ['BTC', 'ETH'] },
  },
  {
    venue: 'kraken', instrument_type: 'spot', supports_algo_runtime: false, maker_bps: 25, taker_bps: 40, funding: null,
    market: market({ latency_ms: 20, spread_bps: 2.4, depth_usd: 800_000, update_hz: 25, trade_hz: 4, median_trade_usd: 400, noise_bps: 0.12, levels: 6, price_sig_digits: 6, lot_usd: 0.001, min_qty_usd: 5 }),
    lists: { USD: ['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'ADA', 'AVAX', 'LINK', 'DOT', 'LTC', 'BCH', 'UNI', 'ATOM'], USDC: ['BTC', 'ETH'], USDT: ['BTC', 'ETH', 'SOL'] },
  },
  {
    venue: 'okx', instrument_type: 'spot', supports_algo_runtime: true, maker_bps: 8, taker_bps: 10, funding: null,
    market: market({ latency_ms: 15, spread_bps: 0.8, depth_usd: 2_000_000, update_hz: 50, trade_hz: 9, median_trade_usd: 600, noise_bps: 0.06, price_sig_digits: 6, lot_usd: 0.001, min_qty_usd: 1 }),
    lists: { USDT: ['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'ADA', 'AVAX', 'LINK', 'DOT', 'LTC', 'BCH', 'UNI', 'ATOM', 'NEAR', 'SUI', 'ARB', 'OP'], USDC: ['BTC', 'ETH', 'SOL'] },
  },
  {
    venue: 'bybit', instrument_type: 'spot', supports_algo_runtime: true, maker_bps: 10, taker_bps: 10, funding: null,
    market: market({ latency_ms: 15, spread_bps: 0.8, depth_usd: 1_500_000, update_hz: 50, trade_hz: 8, median_trade_usd: 500, noise_bps: 0.07, price_sig_digits: 7, lot_usd: 0.1, min_notional_usd: 1 }),
    lists: { USDT: ['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'ADA', 'AVAX', 'LINK', 'DOT', 'LTC', 'SUI', 'ARB', 'OP'], USDC: ['BTC', 'ETH', 'SOL', 'XRP'] },
    cold: ['OP'],
  },
  {
    venue: 'kucoin', instrument_type: 'spot', supports_algo_runtime: false, maker_bps: 10, taker_bps: 10, funding: null,
    market: market({ latency_ms: 35, spread_bps: 3, depth_usd: 500_000, update_hz: 20, trade_hz: 4, median_trade_usd: 300, noise_bps: 0.15, levels: 6, price_sig_digits: 6, lot_usd: 0.001, min_notional_usd: 0.1, min_qty_usd: 0.1 }),
    lists: { USDT: ['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'ADA', 'AVAX', 'LINK', 'DOT', 'LTC', 'BCH', 'ATOM', 'NEAR', 'SUI'], USDC: ['BTC', 'ETH'] },
  },
  {
    venue: 'bitstamp', instrument_type: 'spot', supports_algo_runtime: false, maker_bps: 30, taker_bps: 40, funding: null,
    market: market({ latency_ms: 22, spread_bps: 5, depth_usd: 400_000, update_hz: 12, trade_hz: 2, median_trade_usd: 400, noise_bps: 0.2, lp_count: 2, levels: 6, price_sig_digits: 5, lot_usd: 0.001, min_notional_usd: 10 }),
    lists: { USD: ['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'ADA', 'AVAX', 'LINK', 'LTC', 'BCH', 'UNI'], USDC: ['BTC', 'ETH'], USDT: ['BTC', 'ETH'] },
    cold: ['UNI'],
  },
  {
    venue: 'hyperliquid', instrument_type: 'perp', supports_algo_runtime: true, maker_bps: 2, taker_bps: 5, funding: FUNDING_1H,
    market: market({ latency_ms: 30, spread_bps: 1.0, depth_usd: 2_000_000, update_hz: 50, trade_hz: 10, median_trade_usd: 1_000, noise_bps: 0.08, price_sig_digits: 5, lot_usd: 1, min_notional_usd: 10 }),
    lists: { USDC: ['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'BNB', 'AVAX', 'LINK', 'SUI', 'LTC', 'ARB', 'OP'] },
    cold: ['OP'],
  },
  {
    venue: 'binance', instrument_type: 'perp', supports_algo_runtime: true, maker_bps: 2, taker_bps: 5, funding: FUNDING_8H,
    market: market({ latency_ms: 12, spread_bps: 0.7, depth_usd: 6_000_000, update_hz: 70, trade_hz: 15, median_trade_usd: 1_500, noise_bps: 0.05, price_sig_digits: 6, lot_usd: 100, min_notional_usd: 20 }),
    lists: { USDT: ['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'BNB', 'ADA', 'AVAX', 'LINK', 'SUI'] },
    cold: ['SUI'],
  },
  {
    venue: 'bybit', instrument_type: 'perp', supports_algo_runtime: true, maker_bps: 2, taker_bps: 6, funding: FUNDING_8H,
    market: market({ latency_ms: 15, spread_bps: 0.9, depth_usd: 3_000_000, update_hz: 55, trade_hz: 10, median_trade_usd: 1_000, noise_bps: 0.06, price_sig_digits: 6, lot_usd: 100, min_notional_usd: 5 }),
    lists: { USDT: ['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'AVAX', 'LINK', 'SUI'] },
  },
  {
    venue: 'okx', instrument_type: 'perp', supports_algo_runtime: true, maker_bps: 2, taker_bps: 5, funding: FUNDING_8H,
    market: market({ latency_ms: 15, spread_bps: 0.9, depth_usd: 3_000_000, update_hz: 55, trade_hz: 10, median_trade_usd: 1_000, noise_bps: 0.06, price_sig_digits: 6, lot_usd: 10, min_notional_usd: 0 }),
    lists: { USDT: ['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'LTC'] },
    cold: ['LTC'],
  },
  {
    venue: 'kalshi', instrument_type: 'prediction', supports_algo_runtime: false, maker_bps: 0, taker_bps: 350, funding: null,
    market: market({ latency_ms: 25, spread_bps: 100, depth_usd: 50_000 }),
    lists: {},
  },
  {
    venue: 'polymarket', instrument_type: 'prediction', supports_algo_runtime: false, maker_bps: 0, taker_bps: 0, funding: null,
    market: market({ latency_ms: 40, spread_bps: 100, depth_usd: 50_000 }),
    lists: {},
  },
];

/** A listing's liquidity below this starts outside the subscription set (the cold path). */
export const SUBSCRIBE_MIN_LIQUIDITY = 0.05;
/** A secondary quote currency of an edge carries this share of the primary's liquidity. */
const SECONDARY_QUOTE_SHARE = 0.3;

const UNDERLYING_BY_ASSET = new Map(UNDERLYINGS.map((u) => [u.asset, u]));

export function underlyingSpec(asset: string): UnderlyingSpec | undefined {
  return UNDERLYING_BY_ASSET.get(asset);
}

function pow10(e: number): number {
  // 10 ** e is exact for the small integer exponents used here; negative ones go through division.
  return e >= 0 ? 10 ** e : 1 / 10 ** -e;
}

/** Matching rules of a listing from the edge's habits and the reference price. */
export function deriveRules(m: MarketParams, ref_usd: number): MatchingRules {
  const priceExp = Math.floor(Math.log10(ref_usd)) - m.price_sig_digits + 1;
  const tick_1e9 = Math.max(1, Math.round(pow10(priceExp) * PRICE_SCALE));
  const lotExp = Math.floor(Math.log10(m.lot_usd / ref_usd));
  const lot_1e8 = Math.max(1, Math.round(pow10(lotExp) * QTY_SCALE));
  const minQtyRaw = Math.ceil(((m.min_qty_usd / ref_usd) * QTY_SCALE) / lot_1e8) * lot_1e8;
  return {
    tick_1e9,
    lot_1e8,
    min_qty_1e8: Math.max(lot_1e8, minQtyRaw),
    min_notional_1e9: Math.round(m.min_notional_usd * PRICE_SCALE),
  };
}

function edgeIdOf(venue: VenueId, instrument_type: InstrumentType, hasSpot: boolean): string {
  return instrument_type === 'perp' && hasSpot ? `venue-edge-${venue}-perp` : `venue-edge-${venue}`;
}

function buildEdges(): EdgeSpec[] {
  const venueSpec = new Map(VENUE_SPECS.map((v) => [v.venue, v]));
  return DRAFTS.map((d) => {
    const v = venueSpec.get(d.venue)!;
    const listings: ListingSpec[] = [];
    let primary = true;
    // The draft's key order is the edge's quote order; the first key is its primary quote.
    for (const quote of Object.keys(d.lists) as ('USD' | 'USDT' | 'USDC')[]) {
      const bases = d.lists[quote]!;
      const share = primary ? 1 : SECONDARY_QUOTE_SHARE;
      primary = false;
      for (const base of bases) {
        const u = UNDERLYING_BY_ASSET.get(base)!;
        const liquidity = u.liquidity * share;
        listings.push({
          symbol: `${base}-${quote}`,
          base,
          quote,
          rules: deriveRules(d.market, u.ref_usd),
          subscribed: liquidity >= SUBSCRIBE_MIN_LIQUIDITY && !(d.cold ?? []).includes(base),
          liquidity,
        });
      }
    }
    return {
      edge_id: edgeIdOf(d.venue, d.instrument_type, v.instrument_types.includes('spot')),
      venue: d.venue,
      instrument_type: d.instrument_type,
      region: v.region,
      supports_algo_runtime: d.supports_algo_runtime,
      maker_bps: d.maker_bps,
      taker_bps: d.taker_bps,
      market: d.market,
      // A perp edge of an exchange shares the exchange's feed infrastructure but drops on its own.
      faults: v.faults,
      funding: d.funding,
      listings,
    };
  });
}

export const EDGES: readonly EdgeSpec[] = buildEdges();

const EDGE_BY_ID = new Map(EDGES.map((e) => [e.edge_id, e]));
const LISTING_BY_EDGE = new Map(EDGES.map((e) => [e.edge_id, new Map(e.listings.map((l) => [l.symbol, l]))]));

export function venues(): readonly VenueSpec[] {
  return VENUE_SPECS;
}

export function venueSpec(venue: string): VenueSpec | undefined {
  return VENUE_SPECS.find((v) => v.venue === venue);
}

export function edges(): readonly EdgeInfo[] {
  return EDGES.map(({ edge_id, venue, instrument_type, region, supports_algo_runtime }) => ({
    edge_id, venue, instrument_type, region, supports_algo_runtime,
  }));
}

export function edgeSpec(edge_id: string): EdgeSpec | undefined {
  return EDGE_BY_ID.get(edge_id);
}

export function edgesOfVenue(venue: string): readonly EdgeSpec[] {
  return EDGES.filter((e) => e.venue === venue);
}

export function listingsOf(edge_id: string): readonly ListingSpec[] {
  return EDGE_BY_ID.get(edge_id)?.listings ?? [];
}

export function listingOf(edge_id: string, symbol: string): ListingSpec | undefined {
  return LISTING_BY_EDGE.get(edge_id)?.get(symbol);
}

export function rulesOf(edge_id: string, symbol: string): MatchingRules | undefined {
  return listingOf(edge_id, symbol)?.rules;
}

/** Every distinct symbol listed by some edge of the given instrument type, sorted. */
export function symbolsOf(instrument_type: InstrumentType): string[] {
  const out = new Set<string>();
  for (const e of EDGES) if (e.instrument_type === instrument_type) for (const l of e.listings) out.add(l.symbol);
  return [...out].sort();
}

/** Edges listing a symbol (any instrument type unless given). */
export function edgesListing(symbol: string, instrument_type?: InstrumentType): readonly EdgeSpec[] {
  return EDGES.filter(
    (e) => (instrument_type === undefined || e.instrument_type === instrument_type) && LISTING_BY_EDGE.get(e.edge_id)!.has(symbol),
  );
}

function linearRow(venue: VenueId, maker_bps: number, taker_bps: number): FeeRow {
  return {
    venue,
    fee_model: 'linear',
    components: {},
    formula: {
      taker_fee_usd: `qty * price * ${taker_bps} / 10000`,
      maker_fee_usd: `qty * price * ${maker_bps} / 10000`,
    },
    maker_bps,
    taker_bps,
  };
}

/**
 * The fee row of a venue (spec, Fee row). Exchanges with both edges default to the spot
 * schedule; pass `perp` for the perpetual one. Prediction venues use `binary_quadratic`:
 * the ticker-style venue 0.07 x C x P x (1 - P) rounded up to the cent (rate_bps 700, at-mid
 * 350 bps); the token-style venue charges no fee on the default markets (rate_bps 0).
 */
export function feeRowOf(venue: string, instrument_type: InstrumentType = 'spot'): FeeRow | undefined {
  if (venue === 'kalshi') {
    return {
      venue: 'kalshi',
      fee_model: 'binary_quadratic',
      components: { rate_bps: 700, multiplier: 1, rounding: 'ceil_to_cent' },
      formula: {
        taker_fee_usd: 'ceil(qty * price * (1 - price) * rate_bps * multiplier / 10000 * 100) / 100',
        maker_fee_usd: '0',
      },
      maker_bps: 0,
      taker_bps: 350,
    };
  }
  if (venue === 'polymarket') {
    return {
      venue: 'polymarket',
      fee_model: 'binary_quadratic',
      components: { rate_bps: 0, exponent: 1 },
      formula: { taker_fee_usd: 'qty * price * (1 - price) ^ exponent * rate_bps / 10000', maker_fee_usd: '0' },
      maker_bps: 0,
      taker_bps: 0,
    };
  }
  const candidates = EDGES.filter((e) => e.venue === venue);
  const edge = candidates.find((e) => e.instrument_type === instrument_type) ?? candidates[0];
  return edge === undefined ? undefined : linearRow(edge.venue, edge.maker_bps, edge.taker_bps);
}
