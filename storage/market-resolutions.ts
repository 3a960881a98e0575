import type { Databases } from './database.ts';

/**
 * Prediction market resolutions as the service observed them (spec, Events: "each
 * `market_resolved` event is stored"), one record per binary market:
 *
 *   market_resolutions: [venue, market_id] -> MarketResolution
 *
 * The frame the lifecycle stream sent is kept as is, so a restart replays the same frames, and
 * positions written after a resolution (or replayed from fills) still find it.
 */
export interface MarketResolution {
  venue: string;
  market_id: string;
  yes_won: boolean;
  resolved_at_ns: number;
  observed_at_ns: number;
  /** The `market_resolved` frame as sent (JSON). */
  frame: string;
}

export class MarketResolutionStore {
  constructor(private readonly db: Databases) {}

  get(venue: string, market_id: string): MarketResolution | undefined {
    return this.db.marketResolutions.get([venue, market_id]) as MarketResolution | undefined;
  }

  /** Records a resolution unless one is recorded for the market; resolves once durable. False when it was known. */
  async record(r: MarketResolution): Promise<boolean> {
    if (this.get(r.venue, r.market_id) !== undefined) return false;
    await this.db.marketResolutions.put([r.venue, r.market_id], r);
    await this.db.root.flushed;
    return true;
  }

  /** The latest `n` resolutions by observation time, oldest first (the stream's replay after a restart). */
  latest(n: number): MarketResolution[] {
    const all: MarketResolution[] = [];
    for (const { value } of this.db.marketResolutions.getRange()) all.push(value as MarketResolution);
    return all.sort((a, b) => a.observed_at_ns - b.observed_at_ns).slice(-n);
  }
}
