import type { PredictionEvent } from '../../domain/prediction/catalog.ts';
import type { StatsOf } from '../../domain/prediction/listing.ts';
import { inProgram, rewardedTokens, rewardsConfigOf, type RewardedToken, type RewardsConfig } from '../../domain/prediction/rewards.ts';

/** Spec, Limits: "Rewards cache refresh: 5 minutes". */
export const REWARDS_REFRESH_MS = 5 * 60_000;

/** What the cache reads: the gateway's catalog copy (`PredictionCatalog`). */
export interface RewardsSource {
  events(venue: 'polymarket'): readonly PredictionEvent[];
  readonly statsOf: StatsOf;
}

/**
 * The token-style venue's maker-rewards programs as the gateway serves them. The set of
 * rewarded tokens and their terms is read from the catalog at most every five minutes, as a
 * proxy of the venue's rewards API would; a snapshot taken before the catalog was read is not
 * kept. Between refreshes a program that ends drops out at once, and `current_spread` is the
 * book's now, so only a program started since the last refresh can be missing.
 */
export class RewardsPrograms {
  private tokens: RewardedToken[] = [];
  private byToken = new Map<string, RewardedToken>();
  private refreshedMs = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly source: RewardsSource,
    private readonly now: () => number = Date.now,
    private readonly refreshMs = REWARDS_REFRESH_MS,
  ) {}

  /** Every token in a program now, the richest programs first; and when the set was read. */
  list(): { rewards: RewardsConfig[]; refreshed_ms: number } {
    const now = this.refresh();
    const rewards: RewardsConfig[] = [];
    for (const t of this.tokens) if (inProgram(t.market, now)) rewards.push(rewardsConfigOf(t, this.source.statsOf(t.market)));
    return { rewards, refreshed_ms: this.refreshedMs };
  }

  /** A token's config; undefined when it is in no program now. */
  get(token_id: string): RewardsConfig | undefined {
    const now = this.refresh();
    const t = this.byToken.get(token_id);
    return t !== undefined && inProgram(t.market, now) ? rewardsConfigOf(t, this.source.statsOf(t.market)) : undefined;
  }

  private refresh(): number {
    const now = this.now();
    if (now - this.refreshedMs < this.refreshMs) return now;
    const events = this.source.events('polymarket');
    this.tokens = rewardedTokens(
      events.flatMap((e) => e.markets),
      now,
    );
    this.byToken = new Map(this.tokens.map((t) => [t.token_id, t]));
    if (events.length > 0) this.refreshedMs = now;
    return now;
  }
}
