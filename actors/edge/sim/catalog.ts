/**
 * The simulated market model of the embedded default venues (issue 3, "Simulated venues"),
 * beside the reference data in `domain/venues.ts` (venues, edges, listings, matching rules,
 * fees, funding): how each underlying moves, each stablecoin's basis, each venue's fault rates
 * and each edge's market parameters (latency, spread, depth, flow, liquidity providers).
 * Pure data plus lookups built once at module load; docs/simulation.md has the same tables.
 *
 * The numbers are chosen to look like the books of the real venue without claiming to be them;
 * per-symbol values scale with the listing's liquidity from the reference data.
 */
import type { VenueId } from '../../../domain/market.ts';
import { ASSETS, EDGES, type AssetSpec, type EdgeSpec, type QuoteCurrency } from '../../../domain/venues.ts';

// ---------------------------------------------------------------------------------------------
// Underlyings
// ---------------------------------------------------------------------------------------------

/**
 * An asset of the reference data with its simulated dynamics: `ref_usd` is the level the latent
 * path wanders around, `liquidity` (BTC = 1) scales depth, update and trade rates, widens spreads.
 */
export interface UnderlyingSpec extends AssetSpec {
  /** Annualised volatility of the diffusion (log units). */
  vol_annual: number;
  /** Jump arrivals per hour (compound Poisson) and their size (standard deviation, bps). */
  jump_per_h: number;
  jump_bps: number;
}

type Dynamics = Pick<UnderlyingSpec, 'vol_annual' | 'jump_per_h' | 'jump_bps'>;

const DYNAMICS: Readonly<Record<string, Dynamics>> = {
  BTC: { vol_annual: 0.5, jump_per_h: 2, jump_bps: 15 },
  ETH: { vol_annual: 0.65, jump_per_h: 2, jump_bps: 20 },
  SOL: { vol_annual: 0.85, jump_per_h: 2.5, jump_bps: 30 },
  XRP: { vol_annual: 0.9, jump_per_h: 2.5, jump_bps: 30 },
  DOGE: { vol_annual: 1.0, jump_per_h: 3, jump_bps: 35 },
  BNB: { vol_annual: 0.55, jump_per_h: 2, jump_bps: 20 },
  ADA: { vol_annual: 0.9, jump_per_h: 3, jump_bps: 35 },
  AVAX: { vol_annual: 0.95, jump_per_h: 3, jump_bps: 35 },
  LINK: { vol_annual: 0.9, jump_per_h: 3, jump_bps: 35 },
  SUI: { vol_annual: 1.1, jump_per_h: 3, jump_bps: 40 },
  LTC: { vol_annual: 0.75, jump_per_h: 2.5, jump_bps: 30 },
  DOT: { vol_annual: 0.9, jump_per_h: 3, jump_bps: 35 },
  BCH: { vol_annual: 0.8, jump_per_h: 2.5, jump_bps: 30 },
  ARB: { vol_annual: 1.1, jump_per_h: 3, jump_bps: 40 },
  UNI: { vol_annual: 0.95, jump_per_h: 3, jump_bps: 35 },
  OP: { vol_annual: 1.1, jump_per_h: 3, jump_bps: 40 },
  NEAR: { vol_annual: 1.0, jump_per_h: 3, jump_bps: 40 },
  ATOM: { vol_annual: 0.9, jump_per_h: 3, jump_bps: 35 },
};

/** Every asset of the reference data, in its order, with its dynamics. */
export const UNDERLYINGS: readonly UnderlyingSpec[] = ASSETS.map((a) => {
  const d = DYNAMICS[a.asset];
  if (d === undefined) throw new Error(`no simulated dynamics for ${a.asset}`);
  return { ...a, ...d };
});

const UNDERLYING_BY_ASSET = new Map(UNDERLYINGS.map((u) => [u.asset, u]));

export function underlyingSpec(asset: string): UnderlyingSpec | undefined {
  return UNDERLYING_BY_ASSET.get(asset);
}

/** Stablecoin quote currencies against USD: mean basis and its wander (bps), see latent-price.ts. */
export interface QuoteSpec {
  quote: QuoteCurrency;
  mean_bps: number;
  wander_bps: number;
}
export const QUOTES: readonly QuoteSpec[] = [
  { quote: 'USD', mean_bps: 0, wander_bps: 0 },
  { quote: 'USDT', mean_bps: 1.5, wander_bps: 1.5 },
  { quote: 'USDC', mean_bps: -0.3, wander_bps: 0.5 },
];

// ---------------------------------------------------------------------------------------------
// Venue faults and edge market parameters
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

/** The market model's knobs for one edge; per-symbol values scale with the listing's liquidity. */
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
}

/** An edge of the reference data with its simulated market and its venue's fault rates. */
export interface SimEdgeSpec extends EdgeSpec {
  market: MarketParams;
  faults: FaultRates;
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

// A perp edge of an exchange shares the exchange's feed infrastructure but drops on its own.
const VENUE_FAULTS: Readonly<Record<VenueId, FaultRates>> = {
  binance: faults(0.25, 0.5, 1.5),
  coinbase: faults(0.3, 0.6, 1.5),
  kraken: faults(0.6, 1.0, 2.5),
  okx: faults(0.3, 0.6, 2),
  bybit: faults(0.4, 0.8, 2),
  kucoin: faults(1.0, 1.5, 3),
  bitstamp: faults(0.8, 1.5, 3),
  hyperliquid: faults(0.5, 1.0, 2.5),
  kalshi: faults(0.4, 0, 0),
  polymarket: faults(0.6, 0, 0),
};

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
    ...p,
  };
}

/** Each edge's market parameters, by edge id. */
const MARKETS: Readonly<Record<string, MarketParams>> = {
  'venue-edge-binance': market({ latency_ms: 12, spread_bps: 0.6, depth_usd: 3_000_000, update_hz: 60, trade_hz: 12, median_trade_usd: 800, noise_bps: 0.05 }),
  'venue-edge-coinbase': market({ latency_ms: 8, spread_bps: 1.6, depth_usd: 2_000_000, update_hz: 45, trade_hz: 9, median_trade_usd: 500, noise_bps: 0.08 }),
  'venue-edge-kraken': market({ latency_ms: 20, spread_bps: 2.4, depth_usd: 800_000, update_hz: 25, trade_hz: 4, median_trade_usd: 400, noise_bps: 0.12, levels: 6 }),
  'venue-edge-okx': market({ latency_ms: 15, spread_bps: 0.8, depth_usd: 2_000_000, update_hz: 50, trade_hz: 9, median_trade_usd: 600, noise_bps: 0.06 }),
  'venue-edge-bybit': market({ latency_ms: 15, spread_bps: 0.8, depth_usd: 1_500_000, update_hz: 50, trade_hz: 8, median_trade_usd: 500, noise_bps: 0.07 }),
  'venue-edge-kucoin': market({ latency_ms: 35, spread_bps: 3, depth_usd: 500_000, update_hz: 20, trade_hz: 4, median_trade_usd: 300, noise_bps: 0.15, levels: 6 }),
  'venue-edge-bitstamp': market({ latency_ms: 22, spread_bps: 5, depth_usd: 400_000, update_hz: 12, trade_hz: 2, median_trade_usd: 400, noise_bps: 0.2, lp_count: 2, levels: 6 }),
  'venue-edge-hyperliquid': market({ latency_ms: 30, spread_bps: 1.0, depth_usd: 2_000_000, update_hz: 50, trade_hz: 10, median_trade_usd: 1_000, noise_bps: 0.08 }),
  'venue-edge-binance-perp': market({ latency_ms: 12, spread_bps: 0.7, depth_usd: 6_000_000, update_hz: 70, trade_hz: 15, median_trade_usd: 1_500, noise_bps: 0.05 }),
  'venue-edge-bybit-perp': market({ latency_ms: 15, spread_bps: 0.9, depth_usd: 3_000_000, update_hz: 55, trade_hz: 10, median_trade_usd: 1_000, noise_bps: 0.06 }),
  'venue-edge-okx-perp': market({ latency_ms: 15, spread_bps: 0.9, depth_usd: 3_000_000, update_hz: 55, trade_hz: 10, median_trade_usd: 1_000, noise_bps: 0.06 }),
  'venue-edge-kalshi': market({ latency_ms: 25, spread_bps: 100, depth_usd: 50_000 }),
  'venue-edge-polymarket': market({ latency_ms: 40, spread_bps: 100, depth_usd: 50_000 }),
};

/** Every edge of the reference data, in its order, with its market and faults. */
export const SIM_EDGES: readonly SimEdgeSpec[] = EDGES.map((e) => {
  const m = MARKETS[e.edge_id];
  if (m === undefined) throw new Error(`no simulated market for ${e.edge_id}`);
  return { ...e, market: m, faults: VENUE_FAULTS[e.venue] };
});

const SIM_EDGE_BY_ID = new Map(SIM_EDGES.map((e) => [e.edge_id, e]));

export function simEdge(edge_id: string): SimEdgeSpec | undefined {
  return SIM_EDGE_BY_ID.get(edge_id);
}
