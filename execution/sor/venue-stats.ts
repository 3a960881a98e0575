import type { VenueStats } from './sor-types.ts';

/**
 * Observed venue statistics for routing versions 2 and 3 (spec: "adverse selection, reject
 * penalty and venue impact from observed venue statistics"), as exponentially weighted
 * averages per venue:
 *
 *   reject_rate            share of legs the venue refused or never answered (0..1)
 *   impact_bps_per_unit    how far a leg's fills went past the venue's best price at routing,
 *                          in bps per base unit (1e8 qty_1e8), never negative
 *   adverse_selection_bps  the markout: how far the mid moved against the fill a second later
 *                          (positive = against us), clamped to +-MAX_ADVERSE_BPS
 *
 * A venue has no stats (undefined: the SOR then costs it as version 1 does) until it has been
 * observed MIN_SAMPLES times. Pure: the service feeds it and reads it; nothing is stored, so the
 * statistics start afresh with the process.
 */
export interface StatsOptions {
  /** EWMA weight of each new observation. */
  alpha: number;
  /** Observations of a venue before its stats are used. */
  min_samples: number;
}

const DEFAULTS: StatsOptions = { alpha: 0.1, min_samples: 5 };
const MAX_ADVERSE_BPS = 50;
const BPS = 10_000;
const UNIT = 1e8;

export interface LegOutcome {
  venue: string;
  side: 'buy' | 'sell';
  /** false: the venue refused the leg, or its answer was lost */
  accepted: boolean;
  filled_qty_1e8: number;
  /** volume-weighted fill price; ignored when nothing filled */
  vwap_1e9: number;
  /** the venue's best price on the leg's side when the order was routed (0 = unknown) */
  best_at_routing_1e9: number;
}

interface Tracked {
  legs: number;
  markouts: number;
  reject_rate: number;
  impact_bps_per_unit: number;
  adverse_selection_bps: number;
}

export class VenueStatsTracker {
  private readonly venues = new Map<string, Tracked>();
  private readonly o: StatsOptions;

  constructor(options: Partial<StatsOptions> = {}) {
    this.o = { ...DEFAULTS, ...options };
  }

  onLeg(leg: LegOutcome): void {
    const t = this.tracked(leg.venue);
    t.legs++;
    t.reject_rate = this.ewma(t.reject_rate, leg.accepted ? 0 : 1, t.legs);
    if (leg.filled_qty_1e8 > 0 && leg.best_at_routing_1e9 > 0) {
      const sign = leg.side === 'buy' ? 1 : -1;
      const slippageBps = (sign * (leg.vwap_1e9 - leg.best_at_routing_1e9) * BPS) / leg.best_at_routing_1e9;
      const perUnit = Math.max(0, slippageBps) / (leg.filled_qty_1e8 / UNIT);
      t.impact_bps_per_unit = this.ewma(t.impact_bps_per_unit, perUnit, t.legs);
    }
  }

  /** A fill's markout: the consolidated mid some time after it. */
  onMarkout(venue: string, side: 'buy' | 'sell', fill_price_1e9: number, mid_after_1e9: number): void {
    if (fill_price_1e9 <= 0 || mid_after_1e9 <= 0) return;
    const t = this.tracked(venue);
    t.markouts++;
    // A buy is adversely selected when the mid then falls below what it paid.
    const against = ((side === 'buy' ? fill_price_1e9 - mid_after_1e9 : mid_after_1e9 - fill_price_1e9) * BPS) / fill_price_1e9;
    const clamped = Math.max(-MAX_ADVERSE_BPS, Math.min(MAX_ADVERSE_BPS, against));
    t.adverse_selection_bps = this.ewma(t.adverse_selection_bps, clamped, t.markouts);
  }

  /** The venue's statistics for the SOR, or undefined until it has been observed enough. */
  stats(venue: string): VenueStats | undefined {
    const t = this.venues.get(venue);
    if (t === undefined || t.legs < this.o.min_samples) return undefined;
    return {
      adverse_selection_bps: t.markouts >= this.o.min_samples ? t.adverse_selection_bps : 0,
      reject_rate: t.reject_rate,
      impact_bps_per_unit: t.impact_bps_per_unit,
    };
  }

  private tracked(venue: string): Tracked {
    let t = this.venues.get(venue);
    if (t === undefined) {
      t = { legs: 0, markouts: 0, reject_rate: 0, impact_bps_per_unit: 0, adverse_selection_bps: 0 };
      this.venues.set(venue, t);
    }
    return t;
  }

  /** The first observations average plainly (1/n), later ones weigh alpha: no bias toward the 0 start. */
  private ewma(current: number, x: number, n: number): number {
    const w = Math.max(this.o.alpha, 1 / n);
    return current + w * (x - current);
  }
}
