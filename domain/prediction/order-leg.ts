import type { MatchingRules } from '../venues.ts';
import type { BinaryFeeComponents } from './fees.ts';
import type { PredictionMarket, PredictionVenue } from './catalog.ts';
import type { Leg } from './symbols.ts';

/**
 * A prediction market leg as an order trades it: which venue and market, the canonical symbol
 * the edge knows it by, the venue's cash asset, the market's own fee curve, and the position it
 * builds. The gateway resolves a client's name for a leg (symbols.ts) into one of these; the
 * router routes on it without a catalog of its own, and every fill books onto its instrument.
 *
 * Several legs of one order are alternatives for the same outcome on different venues (the
 * cross-venue equivalence flag): the SOR sweeps their books together, each in its own units.
 */
export interface PredictionLeg {
  venue: PredictionVenue;
  edge_id: string;
  market_id: string;
  leg: Leg;
  /** The leg's canonical symbol: its 78-digit token id, or `<ticker>:YES|NO` on the ticker-style venue. */
  symbol: string;
  /** What the venue settles in: USD on the ticker-style venue, USDC on the token-style one. */
  cash: 'USD' | 'USDC';
  fee: BinaryFeeComponents;
  instrument: EventContract;
}

/** The spec's `event_contract` instrument (the ledger's Instrument variant, spelled out here: domain/ imports no engine). */
export interface EventContract {
  kind: 'event_contract';
  /** The market's ticker (ticker-style) or market slug (token-style). */
  market_slug: string;
  outcome: Leg;
  /** The leg's conditional-token id on the token-style venue; null on the ticker-style one. */
  token_id: string | null;
  /** When trading closes, Unix ns (docs/prediction-markets.md). */
  expiry_ts: number | null;
}

/**
 * Matching rules of a prediction leg: whole contracts (lot and minimum 1), prices on the finest
 * tick either venue quotes (0.001; a coarser book's prices are multiples of it), no notional floor.
 */
export const PREDICTION_RULES: MatchingRules = { tick_1e9: 1_000_000, lot_1e8: 100_000_000, min_qty_1e8: 100_000_000, min_notional_1e9: 0 };

const NS_PER_MS = 1_000_000;

export function cashOf(venue: PredictionVenue): 'USD' | 'USDC' {
  return venue === 'kalshi' ? 'USD' : 'USDC';
}

/** The leg of `market` an order trades, with the market's fee components. */
export function predictionLeg(market: PredictionMarket, leg: Leg, fee: BinaryFeeComponents): PredictionLeg {
  const token = leg === 'YES' ? market.yes_token_id : market.no_token_id;
  const ticker = market.venue === 'kalshi';
  return {
    venue: market.venue,
    edge_id: `venue-edge-${market.venue}`,
    market_id: market.market_id,
    leg,
    symbol: token,
    cash: cashOf(market.venue),
    fee,
    instrument: {
      kind: 'event_contract',
      market_slug: market.market_id,
      outcome: leg,
      token_id: ticker ? null : token,
      expiry_ts: market.timeline.close_ms * NS_PER_MS,
    },
  };
}
