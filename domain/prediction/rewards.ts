import { phaseAt, type PredictionMarket, type RewardsProgram } from './catalog.ts';
import type { MarketStats } from './listing.ts';

/** The spec's Rewards config: decimals in price units and USDC, the end in whole seconds. */
export interface RewardsConfig {
  token_id: string;
  condition_id: string;
  /** Contracts a resting order must show to earn. */
  rewards_min_size: number;
  /** Furthest from the midpoint an order earns, in price units (0.035 = 3.5 cents). */
  rewards_max_spread: number;
  rate_per_day_usdc: number;
  /** The market's best ask minus best bid now, in price units; null when a side is empty. */
  current_spread: number | null;
  reward_end_unix_s: number;
}

/** A token and the market whose program it is in. */
export interface RewardedToken {
  token_id: string;
  market: PredictionMarket & { rewards: RewardsProgram; condition_id: string };
}

/**
 * A market is in its program while it trades and the program has not ended: a program on a
 * market past its close, or past its end date, pays nothing and is not listed.
 */
export function inProgram(m: PredictionMarket, now_ms: number): m is RewardedToken['market'] {
  return m.rewards !== null && m.condition_id !== null && now_ms < m.rewards.end_ms && phaseAt(m.timeline, now_ms) === 'open';
}

/** Both tokens of every market in a program at `now_ms`, the richest programs first, then by token id. */
export function rewardedTokens(markets: Iterable<PredictionMarket>, now_ms: number): RewardedToken[] {
  const out: RewardedToken[] = [];
  for (const m of markets) {
    if (!inProgram(m, now_ms)) continue;
    out.push({ token_id: m.yes_token_id, market: m }, { token_id: m.no_token_id, market: m });
  }
  return out.sort((a, b) => b.market.rewards.rate_per_day_usdc_1e9 - a.market.rewards.rate_per_day_usdc_1e9 || (a.token_id < b.token_id ? -1 : a.token_id > b.token_id ? 1 : 0));
}

/** A token's config with the market's spread as its book shows it now (the same for YES and NO: the NO book mirrors YES). */
export function rewardsConfigOf(t: RewardedToken, stats: MarketStats): RewardsConfig {
  const p = t.market.rewards;
  const bid = stats.best_yes_bid;
  const ask = stats.best_yes_ask;
  return {
    token_id: t.token_id,
    condition_id: t.market.condition_id,
    rewards_min_size: p.min_size,
    rewards_max_spread: p.max_spread_1e9 / 1e9,
    rate_per_day_usdc: p.rate_per_day_usdc_1e9 / 1e9,
    current_spread: bid === null || ask === null ? null : (Math.round(ask * 1e9) - Math.round(bid * 1e9)) / 1e9,
    reward_end_unix_s: Math.floor(p.end_ms / 1000),
  };
}
