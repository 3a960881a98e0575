/**
 * The venue and instrument reference data every layer reads: the ten venues (issue 3, "Simulated
 * venues") and their regions, their edges, what each edge lists, the listings' matching rules
 * (ticks, lots, minimums), fees and funding schedules. Pure data plus lookups built once at
 * module load; docs/simulation.md has the same tables. The simulator's market model (volatility,
 * spreads, depth, latency, faults) sits beside it, in the simulator's `catalog.ts` (actors/edge/sim/).
 *
 * Every number is chosen to look like the public schedules and books of the real venue without
 * claiming to be them: fees are base-tier public rates rounded UP to integer bps (the `FeeRow`
 * type has integer `maker_bps`/`taker_bps`; rounding up keeps routing conservative), ticks follow
 * each venue's significant-digit or fixed-decimal habit, lots its size precision. A listing's
 * rules are derived from its edge's habits (`ListingHabits`) and the asset's reference price.
 */
import type { InstrumentType, VenueId } from './market.ts';
import { binaryAtMidBps, binaryFeeRow, type BinaryFeeComponents, type TickerFeeComponents, type TokenFeeComponents } from './prediction/fees.ts';
import type { PredictionMarket } from './prediction/catalog.ts';
import { PRICE_SCALE, QTY_SCALE } from './units.ts';

export type Region = 'na' | 'eu' | 'ap';

export type QuoteCurrency = 'USD' | 'USDT' | 'USDC';

/** A listing's matching rules: what a venue accepts as a price and a quantity. */
export interface MatchingRules {
  /** Prices must be multiples of this (price_1e9 units). */
  tick_1e9: number;
  /** Quantities must be multiples of this (qty_1e8 units). */
  lot_1e8: number;
  min_qty_1e8: number;
  /** Minimum price x qty in _usd_1e9 (quote currency as USD); 0 = none. */
  min_notional_1e9: number;
}

// ---------------------------------------------------------------------------------------------
// Assets
// ---------------------------------------------------------------------------------------------

export interface AssetSpec {
  asset: string;
  /** Reference USD price: decides ticks and lots (and where the simulated price wanders). */
  ref_usd: number;
  /** Relative liquidity, BTC = 1: decides the subscription set (and the simulated depth). */
  liquidity: number;
}

export const ASSETS: readonly AssetSpec[] = [
  { asset: 'BTC', ref_usd: 95_000, liquidity: 1 },
  { asset: 'ETH', ref_usd: 3_400, liquidity: 0.7 },
  { asset: 'SOL', ref_usd: 180, liquidity: 0.4 },
  { asset: 'XRP', ref_usd: 2.3, liquidity: 0.3 },
  { asset: 'DOGE', ref_usd: 0.32, liquidity: 0.25 },
  { asset: 'BNB', ref_usd: 690, liquidity: 0.3 },
  { asset: 'ADA', ref_usd: 0.95, liquidity: 0.15 },
  { asset: 'AVAX', ref_usd: 38, liquidity: 0.12 },
  { asset: 'LINK', ref_usd: 22, liquidity: 0.12 },
  { asset: 'SUI', ref_usd: 4.2, liquidity: 0.12 },
  { asset: 'LTC', ref_usd: 105, liquidity: 0.1 },
  { asset: 'DOT', ref_usd: 7.5, liquidity: 0.08 },
  { asset: 'BCH', ref_usd: 450, liquidity: 0.08 },
  { asset: 'ARB', ref_usd: 0.85, liquidity: 0.06 },
  { asset: 'UNI', ref_usd: 13, liquidity: 0.06 },
  { asset: 'OP', ref_usd: 2.1, liquidity: 0.05 },
  { asset: 'NEAR', ref_usd: 5.5, liquidity: 0.05 },
  { asset: 'ATOM', ref_usd: 8, liquidity: 0.04 },
];

const ASSET_BY_NAME = new Map(ASSETS.map((a) => [a.asset, a]));

export function assetSpec(asset: string): AssetSpec | undefined {
  return ASSET_BY_NAME.get(asset);
}

// ---------------------------------------------------------------------------------------------
// Venues and edges
// ---------------------------------------------------------------------------------------------

export interface VenueSpec {
  venue: VenueId;
  region: Region;
  instrument_types: readonly InstrumentType[];
}

/** An edge's matching-rule habits: significant digits of the price, lot in USD, minimum notional / quantity. */
export interface ListingHabits {
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

export interface ListingSpec {
  symbol: string;
  base: string;
  quote: QuoteCurrency;
  rules: MatchingRules;
  /** In the edge's subscription set at start; the others are served on the cold path. */
  subscribed: boolean;
  /** Relative liquidity of this listing (asset liquidity x quote factor), BTC primary = 1. */
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

const VENUE_SPECS: readonly VenueSpec[] = [
  { venue: 'binance', region: 'ap', instrument_types: ['spot', 'perp'] },
  { venue: 'coinbase', region: 'na', instrument_types: ['spot'] },
  { venue: 'kraken', region: 'eu', instrument_types: ['spot'] },
  { venue: 'okx', region: 'ap', instrument_types: ['spot', 'perp'] },
  { venue: 'bybit', region: 'ap', instrument_types: ['spot', 'perp'] },
  { venue: 'kucoin', region: 'ap', instrument_types: ['spot'] },
  { venue: 'bitstamp', region: 'eu', instrument_types: ['spot'] },
  { venue: 'hyperliquid', region: 'ap', instrument_types: ['perp'] },
  { venue: 'kalshi', region: 'na', instrument_types: ['prediction'] },
  { venue: 'polymarket', region: 'eu', instrument_types: ['prediction'] },
];

interface EdgeDraft {
  venue: VenueId;
  instrument_type: InstrumentType;
  supports_algo_runtime: boolean;
  maker_bps: number;
  taker_bps: number;
  funding: FundingSpec | null;
  habits: ListingHabits;
  /** quote -> bases listed in it; the first quote is the edge's primary one. */
  lists: Partial<Record<QuoteCurrency, readonly string[]>>;
  /** Listings outside the subscription set at start, beyond the liquidity rule. */
  cold?: readonly string[];
}

/**
 * Venue-level `binary_quadratic` components of the prediction venues (spec, Fee row): the
 * ticker-style venue charges 0.07 x C x P x (1 - P) rounded up to the cent (rate_bps 700, at-mid
 * 350 bps); the token-style venue charges no fee on the default markets (rate_bps 0). Frozen:
 * every row and edge reads these same objects.
 */
export const KALSHI_FEE_COMPONENTS: Readonly<TickerFeeComponents> = Object.freeze({ rate_bps: 700, multiplier: 1, rounding: 'ceil_to_cent' });
export const POLYMARKET_FEE_COMPONENTS: Readonly<TokenFeeComponents> = Object.freeze({ rate_bps: 0, exponent: 1 });

const FUNDING_8H: FundingSpec = { interval_h: 8, interest_bps: 1, clamp_bps: 5, cap_bps: 75 };
// Hyperliquid: hourly payments of one eighth of the 8-hour rate; interest 0.01% / 8 h.
const FUNDING_1H: FundingSpec = { interval_h: 1, interest_bps: 0.125, clamp_bps: 0.625, cap_bps: 400 };

const ALL_USDT = ['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'BNB', 'ADA', 'AVAX', 'LINK', 'SUI', 'LTC', 'DOT', 'BCH', 'ARB', 'UNI', 'OP', 'NEAR', 'ATOM'];
const ALL_USD = ['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'ADA', 'AVAX', 'LINK', 'SUI', 'LTC', 'DOT', 'BCH', 'ARB', 'UNI', 'OP', 'NEAR', 'ATOM'];

const DRAFTS: readonly EdgeDraft[] = [
  {
    venue: 'binance', instrument_type: 'spot', supports_algo_runtime: true, maker_bps: 10, taker_bps: 10, funding: null,
    habits: { price_sig_digits: 7, lot_usd: 1, min_notional_usd: 5, min_qty_usd: 0 },
    lists: { USDT: ALL_USDT, USDC: ['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'BNB', 'LINK'] },
  },
  {
    venue: 'coinbase', instrument_type: 'spot', supports_algo_runtime: true, maker_bps: 40, taker_bps: 60, funding: null,
    habits: { price_sig_digits: 7, lot_usd: 0.001, min_notional_usd: 1, min_qty_usd: 0 },
    lists: { USD: ALL_USD, USDC: ['BTC', 'ETH', 'SOL'], USDT: ['BTC', 'ETH'] },
  },
  {
    venue: 'kraken', instrument_type: 'spot', supports_algo_runtime: false, maker_bps: 25, taker_bps: 40, funding: null,
    habits: { price_sig_digits: 6, lot_usd: 0.001, min_notional_usd: 0, min_qty_usd: 5 },
    lists: { USD: ['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'ADA', 'AVAX', 'LINK', 'DOT', 'LTC', 'BCH', 'UNI', 'ATOM'], USDC: ['BTC', 'ETH'], USDT: ['BTC', 'ETH', 'SOL'] },
  },
  {
    venue: 'okx', instrument_type: 'spot', supports_algo_runtime: true, maker_bps: 8, taker_bps: 10, funding: null,
    habits: { price_sig_digits: 6, lot_usd: 0.001, min_notional_usd: 0, min_qty_usd: 1 },
    lists: { USDT: ['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'ADA', 'AVAX', 'LINK', 'DOT', 'LTC', 'BCH', 'UNI', 'ATOM', 'NEAR', 'SUI', 'ARB', 'OP'], USDC: ['BTC', 'ETH', 'SOL'] },
  },
  {
    venue: 'bybit', instrument_type: 'spot', supports_algo_runtime: true, maker_bps: 10, taker_bps: 10, funding: null,
    habits: { price_sig_digits: 7, lot_usd: 0.1, min_notional_usd: 1, min_qty_usd: 0 },
    lists: { USDT: ['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'ADA', 'AVAX', 'LINK', 'DOT', 'LTC', 'SUI', 'ARB', 'OP'], USDC: ['BTC', 'ETH', 'SOL', 'XRP'] },
    cold: ['OP'],
  },
  {
    venue: 'kucoin', instrument_type: 'spot', supports_algo_runtime: false, maker_bps: 10, taker_bps: 10, funding: null,
    habits: { price_sig_digits: 6, lot_usd: 0.001, min_notional_usd: 0.1, min_qty_usd: 0.1 },
    lists: { USDT: ['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'ADA', 'AVAX', 'LINK', 'DOT', 'LTC', 'BCH', 'ATOM', 'NEAR', 'SUI'], USDC: ['BTC', 'ETH'] },
  },
  {
    venue: 'bitstamp', instrument_type: 'spot', supports_algo_runtime: false, maker_bps: 30, taker_bps: 40, funding: null,
    habits: { price_sig_digits: 5, lot_usd: 0.001, min_notional_usd: 10, min_qty_usd: 0 },
    lists: { USD: ['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'ADA', 'AVAX', 'LINK', 'LTC', 'BCH', 'UNI'], USDC: ['BTC', 'ETH'], USDT: ['BTC', 'ETH'] },
    cold: ['UNI'],
  },
  {
    venue: 'hyperliquid', instrument_type: 'perp', supports_algo_runtime: true, maker_bps: 2, taker_bps: 5, funding: FUNDING_1H,
    habits: { price_sig_digits: 5, lot_usd: 1, min_notional_usd: 10, min_qty_usd: 0 },
    lists: { USDC: ['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'BNB', 'AVAX', 'LINK', 'SUI', 'LTC', 'ARB', 'OP'] },
    cold: ['OP'],
  },
  {
    venue: 'binance', instrument_type: 'perp', supports_algo_runtime: true, maker_bps: 2, taker_bps: 5, funding: FUNDING_8H,
    habits: { price_sig_digits: 6, lot_usd: 100, min_notional_usd: 20, min_qty_usd: 0 },
    lists: { USDT: ['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'BNB', 'ADA', 'AVAX', 'LINK', 'SUI'] },
    cold: ['SUI'],
  },
  {
    venue: 'bybit', instrument_type: 'perp', supports_algo_runtime: true, maker_bps: 2, taker_bps: 6, funding: FUNDING_8H,
    habits: { price_sig_digits: 6, lot_usd: 100, min_notional_usd: 5, min_qty_usd: 0 },
    lists: { USDT: ['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'AVAX', 'LINK', 'SUI'] },
  },
  {
    venue: 'okx', instrument_type: 'perp', supports_algo_runtime: true, maker_bps: 2, taker_bps: 5, funding: FUNDING_8H,
    habits: { price_sig_digits: 6, lot_usd: 10, min_notional_usd: 0, min_qty_usd: 0 },
    lists: { USDT: ['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'LTC'] },
    cold: ['LTC'],
  },
  {
    venue: 'kalshi', instrument_type: 'prediction', supports_algo_runtime: false, maker_bps: 0, taker_bps: binaryAtMidBps(KALSHI_FEE_COMPONENTS), funding: null,
    habits: { price_sig_digits: 7, lot_usd: 1, min_notional_usd: 0, min_qty_usd: 0 },
    lists: {},
  },
  {
    venue: 'polymarket', instrument_type: 'prediction', supports_algo_runtime: false, maker_bps: 0, taker_bps: binaryAtMidBps(POLYMARKET_FEE_COMPONENTS), funding: null,
    habits: { price_sig_digits: 7, lot_usd: 1, min_notional_usd: 0, min_qty_usd: 0 },
    lists: {},
  },
];

/** A listing's liquidity below this starts outside the subscription set (the cold path). */
export const SUBSCRIBE_MIN_LIQUIDITY = 0.05;
/** A secondary quote currency of an edge carries this share of the primary's liquidity. */
const SECONDARY_QUOTE_SHARE = 0.3;

function pow10(e: number): number {
  // 10 ** e is exact for the small integer exponents used here; negative ones go through division.
  return e >= 0 ? 10 ** e : 1 / 10 ** -e;
}

/** Matching rules of a listing from the edge's habits and the reference price. */
export function deriveRules(habits: ListingHabits, ref_usd: number): MatchingRules {
  const priceExp = Math.floor(Math.log10(ref_usd)) - habits.price_sig_digits + 1;
  const tick_1e9 = Math.max(1, Math.round(pow10(priceExp) * PRICE_SCALE));
  const lotExp = Math.floor(Math.log10(habits.lot_usd / ref_usd));
  const lot_1e8 = Math.max(1, Math.round(pow10(lotExp) * QTY_SCALE));
  const minQtyRaw = Math.ceil(((habits.min_qty_usd / ref_usd) * QTY_SCALE) / lot_1e8) * lot_1e8;
  return {
    tick_1e9,
    lot_1e8,
    min_qty_1e8: Math.max(lot_1e8, minQtyRaw),
    min_notional_1e9: Math.round(habits.min_notional_usd * PRICE_SCALE),
  };
}

/**
 * Maximum leverage of each perpetual venue by base (the others: `*`), as the venues publish
 * their first tier (docs/positions-and-tca.md, "Perpetuals"). Initial margin is 1 / leverage
 * of notional; maintenance half of it. Every figure divides 10,000 bps exactly.
 */
const MAX_LEVERAGE: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  binance: { BTC: 125, ETH: 100, '*': 50 },
  bybit: { BTC: 100, ETH: 100, '*': 50 },
  okx: { BTC: 100, ETH: 100, '*': 50 },
  hyperliquid: { BTC: 40, ETH: 25, SOL: 20, '*': 10 },
};

/** Maximum leverage of a perp on a venue; undefined for a venue without perpetuals. */
export function maxLeverage(venue: string, base: string): number | undefined {
  const table = MAX_LEVERAGE[venue];
  return table === undefined ? undefined : (table[base] ?? table['*']);
}

/** Initial margin rate of a perp on a venue, bps of notional (10,000 / max leverage). */
export function perpImrBps(venue: string, base: string): number | undefined {
  const leverage = maxLeverage(venue, base);
  return leverage === undefined ? undefined : 10_000 / leverage;
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
    for (const quote of Object.keys(d.lists) as QuoteCurrency[]) {
      const bases = d.lists[quote]!;
      const share = primary ? 1 : SECONDARY_QUOTE_SHARE;
      primary = false;
      for (const base of bases) {
        const a = ASSET_BY_NAME.get(base)!;
        const liquidity = a.liquidity * share;
        listings.push({
          symbol: `${base}-${quote}`,
          base,
          quote,
          rules: deriveRules(d.habits, a.ref_usd),
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
 * schedule; pass `perp` for the perpetual one. Prediction venues answer their venue-level
 * `binary_quadratic` row, built by `prediction/fees.ts` from the components above.
 */
/** A prediction market's own `binary_quadratic` components: its venue's style at the market's rate (`fee_rate_bps`). */
export function marketFeeComponents(m: PredictionMarket): BinaryFeeComponents {
  return m.venue === 'kalshi' ? { ...KALSHI_FEE_COMPONENTS, rate_bps: m.fee_rate_bps } : { ...POLYMARKET_FEE_COMPONENTS, rate_bps: m.fee_rate_bps };
}

export function feeRowOf(venue: string, instrument_type: InstrumentType = 'spot'): FeeRow | undefined {
  if (venue === 'kalshi') return binaryFeeRow('kalshi', KALSHI_FEE_COMPONENTS);
  if (venue === 'polymarket') return binaryFeeRow('polymarket', POLYMARKET_FEE_COMPONENTS);
  const candidates = EDGES.filter((e) => e.venue === venue);
  const edge = candidates.find((e) => e.instrument_type === instrument_type) ?? candidates[0];
  return edge === undefined ? undefined : linearRow(edge.venue, edge.maker_bps, edge.taker_bps);
}
