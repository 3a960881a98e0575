import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VenueStatsTracker } from '../../execution/sor/venue-stats.ts';

const PX = 100_000_000_000_000; // 100,000.00
const leg = (over: Partial<Parameters<VenueStatsTracker['onLeg']>[0]> = {}) => ({
  venue: 'binance',
  side: 'buy' as const,
  accepted: true,
  filled_qty_1e8: 100_000_000,
  vwap_1e9: PX,
  best_at_routing_1e9: PX,
  ...over,
});

describe('venue statistics (routing versions 2 and 3)', () => {
  it('gives no stats until a venue has been observed min_samples times', () => {
    const t = new VenueStatsTracker({ min_samples: 3 });
    t.onLeg(leg());
    t.onLeg(leg());
    assert.equal(t.stats('binance'), undefined, 'two legs are not enough');
    t.onLeg(leg());
    assert.deepEqual(t.stats('binance'), { adverse_selection_bps: 0, reject_rate: 0, impact_bps_per_unit: 0 }, 'three clean legs');
    assert.equal(t.stats('okx'), undefined, 'a venue never seen');
  });

  it('reject rate: the plain average while few, then weighted by alpha', () => {
    const t = new VenueStatsTracker({ min_samples: 1, alpha: 0.1 });
    t.onLeg(leg({ accepted: false }));
    t.onLeg(leg());
    t.onLeg(leg());
    t.onLeg(leg({ accepted: false }));
    assert.equal(t.stats('binance')!.reject_rate, 0.5, '2 of 4, averaged plainly');
    for (let i = 0; i < 6; i++) t.onLeg(leg());
    // n = 5..10 use 1/n (>= alpha): the plain average of 2 rejects in 10
    assert.ok(Math.abs(t.stats('binance')!.reject_rate - 0.2) < 1e-12, `2 of 10: ${t.stats('binance')!.reject_rate}`);
    t.onLeg(leg({ accepted: false }));
    assert.ok(Math.abs(t.stats('binance')!.reject_rate - (0.2 + 0.1 * 0.8)) < 1e-12, 'the 11th weighs alpha');
  });

  it('impact: slippage past the best price per base unit, never negative, by side', () => {
    const t = new VenueStatsTracker({ min_samples: 1 });
    // bought 2 BTC at 10 bps over the best: 5 bps per BTC
    t.onLeg(leg({ filled_qty_1e8: 200_000_000, vwap_1e9: PX + PX / 1000 }));
    assert.ok(Math.abs(t.stats('binance')!.impact_bps_per_unit - 5) < 1e-9, `${t.stats('binance')!.impact_bps_per_unit}`);
    const s = new VenueStatsTracker({ min_samples: 1 });
    // sold 1 BTC 4 bps under the best bid: 4 bps per BTC; a fill better than best counts 0
    s.onLeg(leg({ venue: 'okx', side: 'sell', vwap_1e9: PX - (PX * 4) / 10_000 }));
    s.onLeg(leg({ venue: 'okx', side: 'sell', vwap_1e9: PX + PX / 1000 }));
    assert.ok(Math.abs(s.stats('okx')!.impact_bps_per_unit - 2) < 1e-9, 'average of 4 and 0');
    s.onLeg(leg({ venue: 'okx', filled_qty_1e8: 0, vwap_1e9: 0 }));
    assert.ok(Math.abs(s.stats('okx')!.impact_bps_per_unit - 2) < 1e-9, 'a leg without fills leaves impact alone');
  });

  it('adverse selection: the markout against the fill, clamped, used once there are enough markouts', () => {
    const t = new VenueStatsTracker({ min_samples: 2 });
    t.onLeg(leg());
    t.onLeg(leg());
    t.onMarkout('binance', 'buy', PX, PX - PX / 1000); // mid fell 10 bps after a buy: 10 against
    assert.equal(t.stats('binance')!.adverse_selection_bps, 0, 'one markout is not enough');
    t.onMarkout('binance', 'sell', PX, PX - PX / 500); // mid fell 20 bps after a sell: -20 (in our favour)
    assert.ok(Math.abs(t.stats('binance')!.adverse_selection_bps - -5) < 1e-9, `average of 10 and -20: ${t.stats('binance')!.adverse_selection_bps}`);
    const c = new VenueStatsTracker({ min_samples: 1 });
    c.onLeg(leg());
    c.onMarkout('binance', 'buy', PX, PX / 2);
    assert.equal(c.stats('binance')!.adverse_selection_bps, 50, 'clamped');
    c.onMarkout('binance', 'buy', 0, PX);
    assert.equal(c.stats('binance')!.adverse_selection_bps, 50, 'a markout without prices is ignored');
  });
});
