import type { Databases } from './database.ts';

/**
 * Prediction market resolutions as the service observed them (spec, Events: "each
 * `market_resolved` event is stored"), one record per binary market:
 *
 *   market_resolutions: [venue, market_id] -> MarketResolution
 *                       ['~token', leg id]  -> {venue, market_id}   (each leg's market)
 *
 * The frame the lifecycle stream sent is kept as is, so a restart replays the same frames, and
 * positions written after a resolution (or replayed from fills) still find it.
 */
export interface MarketResolution {
  venue: string;
  market_id: string;
  /** The market's leg ids (`<ticker>:YES|NO` on the ticker-style venue). */
  yes_token_id?: string;
  no_token_id?: string;
  yes_won: boolean;
  resolved_at_ns: number;
  observed_at_ns: number;
  /** The `market_resolved` frame as sent (JSON). */
  frame: string;
}

/** Leg id -> its market, under [TOKEN_KEY, token_id] beside the records (no venue is named `~token`). */
interface TokenPointer {
  venue: string;
  market_id: string;
}

const TOKEN_KEY = '~token';

export class MarketResolutionStore {
  constructor(private readonly db: Databases) {}

  get(venue: string, market_id: string): MarketResolution | undefined {
    const r = this.db.marketResolutions.get([venue, market_id]) as MarketResolution | TokenPointer | undefined;
    return r === undefined || !('frame' in r) ? undefined : r;
  }

  /** The resolution of the market a leg id belongs to (a position may name a leg by its token id alone). */
  byToken(token_id: string): MarketResolution | undefined {
    const pointer = this.db.marketResolutions.get([TOKEN_KEY, token_id]) as TokenPointer | undefined;
    return pointer === undefined ? undefined : this.get(pointer.venue, pointer.market_id);
  }

  /** Records a resolution unless one is recorded for the market; resolves once durable. False when it was known. */
  async record(r: MarketResolution): Promise<boolean> {
    if (this.get(r.venue, r.market_id) !== undefined) return false;
    await this.db.root.transaction(() => {
      this.db.marketResolutions.put([r.venue, r.market_id], r);
      for (const token of [r.yes_token_id, r.no_token_id]) {
        if (token !== undefined) this.db.marketResolutions.put([TOKEN_KEY, token], { venue: r.venue, market_id: r.market_id } satisfies TokenPointer);
      }
    });
    await this.db.root.flushed;
    return true;
  }

  /** The latest `n` resolutions by observation time, oldest first (the stream's replay after a restart). */
  latest(n: number): MarketResolution[] {
    const all: MarketResolution[] = [];
    for (const { value } of this.db.marketResolutions.getRange()) if ('frame' in (value as object)) all.push(value as MarketResolution);
    return all.sort((a, b) => a.observed_at_ns - b.observed_at_ns).slice(-n);
  }
}
