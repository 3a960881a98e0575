/**
 * Prediction price history as the venues serve it (spec, "Price history": prediction symbols
 * proxy the venue; `paginate` walks 7-day windows, capped at 200,000 points). Pure: which
 * windows to ask, and the points they make.
 */
export const PRICE_HISTORY_WINDOW_MS = 7 * 86_400_000;
/** The venues publish history by the minute at the finest. */
export const PRICE_HISTORY_MIN_STEP_MS = 60_000;
export const MAX_PREDICTION_HISTORY_POINTS = 200_000;
const NS_PER_MS = 1_000_000;

/** One window as a venue answers it: `prices_1e9[i]` at `first_ms + i * step_ms`, then the settled point if the outcome was determined in it. */
export interface PriceHistoryWindow {
  first_ms: number;
  step_ms: number;
  prices_1e9: number[];
  settled: { ts_ms: number; price_1e9: number } | null;
}

/** What a venue is asked for a history request: one window of whole minutes, as the venues serve it, never past now. */
export function historyAsked(ask: { from_ms: number; to_ms: number; step_ms: number }, now_ms: number): { to_ms: number; step_ms: number } {
  const step_ms = Math.max(PRICE_HISTORY_MIN_STEP_MS, Math.round(ask.step_ms / PRICE_HISTORY_MIN_STEP_MS) * PRICE_HISTORY_MIN_STEP_MS);
  return { to_ms: Math.min(ask.to_ms, now_ms + 1, ask.from_ms + PRICE_HISTORY_WINDOW_MS), step_ms };
}

export interface HistoryPoint {
  ts_ns: number;
  price_1e9: number;
}

/**
 * The windows of [start_ms, end_ms), newest first, each at most 7 days: all of them with
 * `paginate`, only the newest without (the venue's one call).
 */
export function historyWindows(start_ms: number, end_ms: number, paginate: boolean): { from_ms: number; to_ms: number }[] {
  const out: { from_ms: number; to_ms: number }[] = [];
  for (let to = end_ms; to > start_ms; to -= PRICE_HISTORY_WINDOW_MS) {
    out.push({ from_ms: Math.max(start_ms, to - PRICE_HISTORY_WINDOW_MS), to_ms: to });
    if (!paginate) break;
  }
  return out;
}

/**
 * Ascending points of windows given newest first, the newest `cap` kept: `truncated` when
 * older points were left out.
 */
export function joinWindows(newestFirst: readonly PriceHistoryWindow[], cap = MAX_PREDICTION_HISTORY_POINTS): { points: HistoryPoint[]; truncated: boolean } {
  const chunks: HistoryPoint[][] = [];
  let total = 0;
  let truncated = false;
  for (const w of newestFirst) {
    const pts: HistoryPoint[] = w.prices_1e9.map((price_1e9, i) => ({ ts_ns: (w.first_ms + i * w.step_ms) * NS_PER_MS, price_1e9 }));
    if (w.settled !== null) pts.push({ ts_ns: w.settled.ts_ms * NS_PER_MS, price_1e9: w.settled.price_1e9 });
    if (total + pts.length > cap) {
      chunks.push(pts.slice(pts.length - (cap - total)));
      truncated = true;
      break;
    }
    chunks.push(pts);
    total += pts.length;
  }
  return { points: chunks.reverse().flat(), truncated };
}
