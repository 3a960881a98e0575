/**
 * Maker-rewards programs: which tokens are in one (the simulated world's programs, both tokens
 * of a market, only while it trades and before the program's end), the config as the spec
 * spells it, and the gateway's five-minute cache of the program set.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PredictionWorld } from '../../actors/edge/sim/prediction/world.ts';
import { phaseAt, type PredictionEvent } from '../../domain/prediction/catalog.ts';
import type { MarketStats } from '../../domain/prediction/listing.ts';
import { inProgram, rewardedTokens, rewardsConfigOf } from '../../domain/prediction/rewards.ts';
import { REWARDS_REFRESH_MS, RewardsPrograms } from '../../gateway/market/rewards.ts';

const NOW = Date.UTC(2026, 10, 24, 12);
const world = new PredictionWorld({ seed: 42, events: 400, resolveMeanS: 300 });
const events = world.eventsAt('polymarket', NOW);
const markets = events.flatMap((e) => e.markets);
const EMPTY: MarketStats = { volume_24h: 0, volume_total: 0, best_yes_bid: null, best_yes_ask: null, best_no_bid: null, best_no_ask: null };

describe('rewards programs in the simulated world', () => {
  it('run on some long-dated token-style markets, never on placeholders, up/down markets or the ticker-style venue', () => {
    const withProgram = markets.filter((m) => m.rewards !== null);
    assert.ok(withProgram.length > 50 && withProgram.length < markets.length / 2, `${withProgram.length} of ${markets.length}`);
    for (const m of withProgram) {
      assert.equal(m.is_placeholder, false);
      assert.equal(m.updown, null);
      assert.ok(m.rewards!.end_ms <= m.timeline.close_ms);
    }
    assert.ok(world.eventsAt('kalshi', NOW).every((e) => e.markets.every((m) => m.rewards === null)));
  });

  it('list both tokens of every market trading in a program that has not ended, richest first', () => {
    const tokens = rewardedTokens(markets, NOW);
    const inIt = markets.filter((m) => m.rewards !== null && m.rewards.end_ms > NOW && phaseAt(m.timeline, NOW) === 'open');
    assert.equal(tokens.length, inIt.length * 2);
    assert.deepEqual(new Set(tokens.map((t) => t.token_id)), new Set(inIt.flatMap((m) => [m.yes_token_id, m.no_token_id])));
    for (let i = 1; i < tokens.length; i++) assert.ok(tokens[i - 1]!.market.rewards.rate_per_day_usdc_1e9 >= tokens[i]!.market.rewards.rate_per_day_usdc_1e9);
    // Programs that ended on markets still trading, and programs on markets past their close, exist and are left out.
    const ended = markets.filter((m) => m.rewards !== null && m.rewards.end_ms <= NOW && phaseAt(m.timeline, NOW) === 'open');
    const closed = markets.filter((m) => m.rewards !== null && phaseAt(m.timeline, NOW) !== 'open');
    assert.ok(ended.length > 0 && closed.length > 0, `${ended.length} ended, ${closed.length} closed`);
    for (const m of [...ended, ...closed]) assert.equal(inProgram(m, NOW), false);
  });
});

describe('rewardsConfigOf', () => {
  const market = markets.find((m) => m.rewards !== null)!;
  const rewarded = { token_id: market.no_token_id, market: { ...market, rewards: { min_size: 50, max_spread_1e9: 35_000_000, rate_per_day_usdc_1e9: 2_500_000_000, end_ms: 1_800_000_000_999 }, condition_id: market.condition_id! } };

  it('spells the program in decimals and whole seconds, with the spread the book shows now', () => {
    const stats: MarketStats = { ...EMPTY, best_yes_bid: 0.43, best_yes_ask: 0.47, best_no_bid: 0.53, best_no_ask: 0.57 };
    assert.deepEqual(rewardsConfigOf(rewarded, stats), {
      token_id: market.no_token_id,
      condition_id: market.condition_id,
      rewards_min_size: 50,
      rewards_max_spread: 0.035,
      rate_per_day_usdc: 2.5,
      current_spread: 0.04,
      reward_end_unix_s: 1_800_000_000,
    });
  });

  it('gives a null spread when a side is empty, and an exact one at the edges of the price range', () => {
    assert.equal(rewardsConfigOf(rewarded, { ...EMPTY, best_yes_bid: 0.5 }).current_spread, null);
    assert.equal(rewardsConfigOf(rewarded, { ...EMPTY, best_yes_bid: 0.001, best_yes_ask: 0.999 }).current_spread, 0.998);
    assert.equal(rewardsConfigOf(rewarded, { ...EMPTY, best_yes_bid: 0.1, best_yes_ask: 0.3 }).current_spread, 0.2);
  });
});

describe('RewardsPrograms (the gateway cache)', () => {
  it('keeps the program set five minutes, drops an ended program at once, and never keeps a snapshot of an empty catalog', () => {
    let now = NOW;
    let catalog: readonly PredictionEvent[] = [];
    const cache = new RewardsPrograms({ events: () => catalog, statsOf: () => EMPTY }, () => now);
    assert.equal(cache.list().rewards.length, 0);
    // The catalog is read: the next request reads it, not in five minutes.
    const withPrograms = events.filter((e) => e.markets.some((m) => inProgram(m, NOW)));
    // One program ends a minute from now.
    const [ending, later, ...rest] = withPrograms.map((e) => ({ ...e, markets: e.markets.map((m) => ({ ...m })) }));
    const endingMarket = ending!.markets.find((m) => inProgram(m, NOW))!;
    endingMarket.rewards = { ...endingMarket.rewards!, end_ms: NOW + 60_000 };
    catalog = [ending!, ...rest];
    const first = cache.list();
    assert.equal(first.refreshed_ms, NOW);
    assert.equal(first.rewards.length, rewardedTokens(catalog.flatMap((e) => e.markets), NOW).length);
    assert.equal(cache.get(endingMarket.yes_token_id)?.reward_end_unix_s, (NOW + 60_000) / 1000);
    // Gone at its end, though the set is not read again.
    now = NOW + 60_000;
    assert.equal(cache.get(endingMarket.yes_token_id), undefined);
    assert.equal(cache.list().rewards.length, first.rewards.length - 2);
    // A program the catalog gains appears with the next refresh, not before.
    catalog = [ending!, later!, ...rest];
    const token = later!.markets.find((m) => inProgram(m, NOW))!.yes_token_id;
    now = NOW + REWARDS_REFRESH_MS - 1;
    assert.equal(cache.get(token), undefined);
    now = NOW + REWARDS_REFRESH_MS;
    assert.equal(cache.get(token)?.token_id, token);
    assert.equal(cache.list().refreshed_ms, now);
  });
});
