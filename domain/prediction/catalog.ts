/**
 * Prediction-market reference data as the two prediction venues publish it: events, their binary
 * markets (a YES/NO pair each), and each market's lifecycle. Shared by the simulated venues that
 * produce it, the edges that publish it and the gateway that lists it.
 */
export const PREDICTION_VENUE_IDS = ['kalshi', 'polymarket'] as const;
export type PredictionVenue = (typeof PREDICTION_VENUE_IDS)[number];

export function isPredictionVenue(value: string): value is PredictionVenue {
  return value === 'kalshi' || value === 'polymarket';
}

/**
 * A market's raw lifecycle, in the ticker-style venue's words: listed but not yet trading,
 * trading, past its close awaiting the outcome, outcome determined, and (ticker-style venue
 * only) determined and paid out. The token-style venue skips `initialized` and `settled`.
 */
export const MARKET_PHASES = ['initialized', 'open', 'closed', 'determined', 'settled'] as const;
export type MarketPhase = (typeof MARKET_PHASES)[number];

/** Instants (Unix ms) at which a market enters each phase; null for a phase it never has. */
export interface MarketTimeline {
  listed_ms: number;
  open_ms: number;
  close_ms: number;
  determined_ms: number;
  settled_ms: number | null;
}

export function phaseAt(t: MarketTimeline, now_ms: number): MarketPhase {
  if (t.settled_ms !== null && now_ms >= t.settled_ms) return 'settled';
  if (now_ms >= t.determined_ms) return 'determined';
  if (now_ms >= t.close_ms) return 'closed';
  if (now_ms >= t.open_ms) return 'open';
  return 'initialized';
}

/** How an outcome on one venue maps onto an outcome on the other. */
export type EquivalenceRelation = 'same' | 'complement';

export interface Equivalent {
  venue: PredictionVenue;
  /** The other venue's market id (its `market_id`). */
  market_id: string;
  /** Its YES leg's symbol (`marketSymbol`). */
  symbol: string;
  relation: EquivalenceRelation;
}

/** An up/down market's underlying: it resolves YES (up) when the final price is >= the anchor. */
export interface UpDownSpec {
  underlying: string;
}

/**
 * A maker-rewards program on a token-style market: resting orders of at least `min_size`
 * contracts within `max_spread_1e9` of the midpoint share `rate_per_day_usdc_1e9` a day until
 * `end_ms`. Both of the market's tokens are in it.
 */
export interface RewardsProgram {
  min_size: number;
  /** Price units (1e9 = a whole dollar, a probability of 1). */
  max_spread_1e9: number;
  rate_per_day_usdc_1e9: number;
  end_ms: number;
}

/** One binary market on one venue: the unit of listing rows, quotes, orders and positions. */
export interface PredictionMarket {
  venue: PredictionVenue;
  /** The venue's id of the binary market: the market ticker (ticker-style) or the market slug. */
  market_id: string;
  /** The event it belongs to, by the venue's event id and its slug or event ticker. */
  event_id: string;
  event_slug: string;
  question: string;
  /** The rules text. */
  description: string;
  /** 78-digit conditional-token ids on the token-style venue; `<ticker>:YES|NO` on the ticker-style one. */
  yes_token_id: string;
  no_token_id: string;
  /** 0x + 64 hex on the token-style venue; null on the ticker-style one. */
  condition_id: string | null;
  /** Position of the candidate in its event (0 for a binary event). */
  outcome_index: number;
  /** The candidate's name upstream; null for a binary event. */
  raw_outcome_name: string | null;
  /** A pre-allocated slot with a generic name (`Person A`), not a real candidate. */
  is_placeholder: boolean;
  timeline: MarketTimeline;
  /** Taker fee rate of this market (binary_quadratic `rate_bps`). */
  fee_rate_bps: number;
  updown: UpDownSpec | null;
  equivalents: Equivalent[];
  /** The token-style venue's maker-rewards program on this market; null elsewhere. */
  rewards: RewardsProgram | null;
}

/** The symbol a market's YES leg is listed by: `polymarket:<yes token>` or `<ticker>:YES`. */
export function marketSymbol(m: PredictionMarket): string {
  return m.venue === 'polymarket' ? `polymarket:${m.yes_token_id}` : m.yes_token_id;
}

/** One event on one venue: a binary question (one market) or mutually exclusive candidates. */
export interface PredictionEvent {
  venue: PredictionVenue;
  event_id: string;
  /** The token-style venue's event slug; the ticker-style venue's event ticker. */
  slug: string;
  title: string;
  description: string;
  tags: string[];
  multi: boolean;
  /** Negative-risk event (mutually exclusive candidates) on the token-style venue. */
  neg_risk: boolean;
  url: string;
  markets: PredictionMarket[];
}
