import type { Endpoint } from '../../engine/endpoint.ts';
import { edgeKey } from '../../actors/market/directory.ts';
import type { PredictionEdgeMessage } from '../../actors/prediction-edge/messages.ts';
import { historyWindows, joinWindows, MAX_PREDICTION_HISTORY_POINTS, type HistoryPoint, type PriceHistoryWindow } from '../../domain/prediction/history.ts';
import type { ResolvedLeg } from '../../domain/prediction/symbols.ts';
import { Errors } from '../errors.ts';

const WINDOW_TIMEOUT_MS = 5_000;

export interface PredictionHistoryPage {
  points: HistoryPoint[];
  /** Points of the range left out: older than one window without `paginate`, or past the cap. */
  truncated: boolean;
  /** Windows asked of the venue. */
  windows: number;
}

/**
 * A prediction leg's price history, proxied from its venue's edge one 7-day window at a time,
 * newest first, until the range (from its start, or the market's open) is covered or the
 * 200,000-point cap is reached.
 */
export class PredictionHistory {
  constructor(private readonly endpoint: Endpoint) {}

  async history(leg: ResolvedLeg, range_ms: number, step_ms: number, paginate: boolean, now_ms = Date.now()): Promise<PredictionHistoryPage> {
    const t = leg.market.timeline;
    // Nothing trades after the close; the settled point comes at determination.
    const end = Math.min(now_ms + 1, t.determined_ms + 1);
    const start = Math.max(now_ms - range_ms, t.open_ms);
    const windows = historyWindows(start, end, paginate);
    const got: PriceHistoryWindow[] = [];
    let points = 0;
    for (const w of windows) {
      const answer = await this.endpoint.ask<PriceHistoryWindow | null>(
        edgeKey(`venue-edge-${leg.venue}`),
        { t: 'PriceHistory', market_id: leg.market.market_id, leg: leg.leg, from_ms: w.from_ms, to_ms: w.to_ms, step_ms } satisfies PredictionEdgeMessage,
        WINDOW_TIMEOUT_MS,
      );
      if (answer === null) throw Errors.notFound(`${leg.venue} no longer lists ${leg.market.market_id}: no price history`);
      got.push(answer);
      points += answer.prices_1e9.length + (answer.settled === null ? 0 : 1);
      if (points >= MAX_PREDICTION_HISTORY_POINTS) break;
    }
    const { points: joined, truncated } = joinWindows(got);
    // The oldest window asked stops short of the range's start: one window only, or the cap.
    const oldest = windows[got.length - 1];
    return { points: joined, truncated: truncated || (oldest !== undefined && oldest.from_ms > start), windows: got.length };
  }
}
