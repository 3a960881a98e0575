/**
 * Prediction price history: the 7-day windows a range is read in, the points they join into
 * (ascending, the newest 200,000 kept), and the simulated venue's history of a leg (the minute
 * grid while trading, NO the complement of YES, the settled price at determination).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PredictionPrices } from '../../actors/edge/sim/prediction/prices.ts';
import { PredictionWorld } from '../../actors/edge/sim/prediction/world.ts';
import { LatentPriceModel } from '../../actors/edge/sim/latent-price.ts';
import { historyWindows, joinWindows, MAX_PREDICTION_HISTORY_POINTS, PRICE_HISTORY_WINDOW_MS, type PriceHistoryWindow } from '../../domain/prediction/history.ts';

const DAY = 86_400_000;
const MIN = 60_000;

describe('historyWindows', () => {
  it('cuts a range into 7-day windows, newest first; only the newest without paginate', () => {
    const start = 1_000 * DAY;
    const end = start + 17 * DAY + 5 * MIN;
    assert.deepEqual(historyWindows(start, end, true), [
      { from_ms: end - PRICE_HISTORY_WINDOW_MS, to_ms: end },
      { from_ms: end - 2 * PRICE_HISTORY_WINDOW_MS, to_ms: end - PRICE_HISTORY_WINDOW_MS },
      { from_ms: start, to_ms: end - 2 * PRICE_HISTORY_WINDOW_MS },
    ]);
    assert.deepEqual(historyWindows(start, end, false), [{ from_ms: end - PRICE_HISTORY_WINDOW_MS, to_ms: end }]);
    assert.deepEqual(historyWindows(start, start + DAY, false), [{ from_ms: start, to_ms: start + DAY }]);
    assert.deepEqual(historyWindows(start, start, true), []);
  });
});

describe('joinWindows', () => {
  const window = (first_ms: number, n: number, settled: PriceHistoryWindow['settled'] = null): PriceHistoryWindow => ({ first_ms, step_ms: MIN, prices_1e9: Array.from({ length: n }, (_, i) => 1_000_000 * ((first_ms / MIN + i) % 1000)), settled });

  it('joins windows given newest first into ascending points, the settled point last', () => {
    const older = window(0, 3);
    const newer = window(3 * MIN, 2, { ts_ms: 5 * MIN + 30_000, price_1e9: 1_000_000_000 });
    const { points, truncated } = joinWindows([newer, older]);
    assert.equal(truncated, false);
    assert.deepEqual(points.map((p) => p.ts_ns / 1e6), [0, MIN, 2 * MIN, 3 * MIN, 4 * MIN, 5 * MIN + 30_000]);
    assert.equal(points.at(-1)!.price_1e9, 1_000_000_000);
  });

  it('keeps the newest points up to the cap and says older ones were left out', () => {
    const { points, truncated } = joinWindows([window(10 * MIN, 4), window(0, 10)], 6);
    assert.equal(truncated, true);
    assert.deepEqual(points.map((p) => p.ts_ns / 1e6 / MIN), [8, 9, 10, 11, 12, 13]);
    // Exactly at the cap: nothing was left out.
    assert.equal(joinWindows([window(10 * MIN, 4), window(0, 2)], 6).truncated, false);
  });

  it('caps a year of minutes at 200,000 points', () => {
    const perWindow = PRICE_HISTORY_WINDOW_MS / MIN;
    const windows = Array.from({ length: 21 }, (_, k) => window((20 - k) * PRICE_HISTORY_WINDOW_MS, perWindow));
    const { points, truncated } = joinWindows(windows);
    assert.equal(points.length, MAX_PREDICTION_HISTORY_POINTS);
    assert.equal(truncated, true);
    assert.equal(points.at(-1)!.ts_ns / 1e6, 21 * PRICE_HISTORY_WINDOW_MS - MIN);
    for (let i = 1; i < points.length; i++) assert.ok(points[i - 1]!.ts_ns < points[i]!.ts_ns);
  });
});

describe('the simulated venue history of a leg', () => {
  const NOW = Date.UTC(2026, 10, 24, 12);
  const world = new PredictionWorld({ seed: 42, events: 400, resolveMeanS: 300 });
  const prices = new PredictionPrices(world, new LatentPriceModel(42));
  const entries = world.entriesAt(NOW).filter((e) => !e.fast && e.listedOn.kalshi && e.listedOn.polymarket);

  it('is the minute grid while trading, to 0.001, with NO the complement of YES', () => {
    const e = entries.find((x) => x.timeline.polymarket.open_ms < NOW - DAY && x.timeline.polymarket.close_ms > NOW)!;
    const from = NOW - 3 * 3_600_000 + 12_345;
    const yes = prices.history(e, 'polymarket', 0, true, from, NOW, MIN, null);
    const no = prices.history(e, 'polymarket', 0, false, from, NOW, MIN, null);
    assert.equal(yes.first_ms % MIN, 0);
    assert.ok(yes.first_ms >= from && yes.first_ms - from < MIN);
    assert.equal(yes.prices_1e9.length, 179, "the whole minutes after from, before now");
    assert.equal(yes.settled, null);
    yes.prices_1e9.forEach((p, i) => {
      assert.equal(p % 1_000_000, 0);
      assert.ok(p > 0 && p < 1_000_000_000);
      assert.equal(no.prices_1e9[i], 1_000_000_000 - p);
      assert.equal(p, Math.round(prices.probability(e, 'polymarket', 0, yes.first_ms + i * MIN) * 1000) * 1_000_000);
    });
  });

  it('stops at the close and adds the settled price at determination', () => {
    const e = world.entriesAt(NOW).find((x) => !x.fast && x.timeline.polymarket.determined_ms < NOW && x.timeline.polymarket.determined_ms > NOW - 5 * DAY)!;
    const t = e.timeline.polymarket;
    const h = prices.history(e, 'polymarket', 0, true, t.close_ms - 10 * MIN, NOW, MIN, true);
    assert.equal(h.prices_1e9.length, 10);
    assert.deepEqual(h.settled, { ts_ms: t.determined_ms, price_1e9: 1_000_000_000 });
    assert.deepEqual(prices.history(e, 'polymarket', 0, false, t.close_ms - 10 * MIN, NOW, MIN, true).settled, { ts_ms: t.determined_ms, price_1e9: 0 });
    // Before the open: nothing.
    assert.equal(prices.history(e, 'polymarket', 0, true, t.open_ms - 60 * MIN, t.open_ms, MIN, null).prices_1e9.length, 0);
  });
});
