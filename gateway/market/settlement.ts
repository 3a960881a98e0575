import type { ListedEvent } from '../../actors/prediction-edge/messages.ts';
import { phaseAt, type PredictionMarket } from '../../domain/prediction/catalog.ts';
import type { MarketStats } from '../../domain/prediction/listing.ts';

/** The spec's Settlement response (`GET /v1/settlement/{slug}`). */
export interface Settlement {
  slug: string;
  question: string;
  yes_token_id: string;
  no_token_id: string;
  condition_id: string | null;
  neg_risk: boolean;
  status: 'open' | 'resolving' | 'resolved' | 'settled';
  resolved_outcome: 'Yes' | 'No' | null;
  outcome_source: string;
  yes_price: number | null;
  no_price: number | null;
  event_start_s: number;
  event_end_s: number;
  resolution_source: string;
  underlying?: {
    symbol: string;
    source: string;
    anchor_price_usd: number | null;
    final_price_usd: number | null;
    agrees_with_settlement: boolean | null;
    points: { ts_s: number; price_usd: number }[];
  };
}

/**
 * A market's settlement state from what its venue told (the catalog record) at `now_ms`:
 * `open` while trading (or listed, not yet trading), `resolving` from the close until the outcome
 * is known, `resolved` once it is (payout final), and on the ticker-style venue `settled` once
 * determination and settlement are both complete. Prices are the mid before resolution, 1 and 0
 * after. Up/down markets of the token-style venue add the underlying's anchor and final price
 * unless `withUnderlying` is false (the spec's "skips on-chain calls").
 */
export function settlementOf(m: PredictionMarket, neg_risk: boolean, record: ListedEvent | undefined, stats: MarketStats, now_ms: number, withUnderlying: boolean): Settlement {
  const c = record?.event.markets.findIndex((x) => x.market_id === m.market_id) ?? -1;
  const won = c >= 0 ? (record!.yes_won[c] ?? null) : null;
  const phase = phaseAt(m.timeline, now_ms);
  const status = won === null ? (phase === 'open' || phase === 'initialized' ? 'open' : 'resolving') : phase === 'settled' ? 'settled' : 'resolved';
  const mid = stats.best_yes_bid !== null && stats.best_yes_ask !== null ? Math.round(((stats.best_yes_bid + stats.best_yes_ask) / 2) * 1e9) / 1e9 : null;
  const yes_price = won === null ? mid : won ? 1 : 0;
  const out: Settlement = {
    slug: m.market_id,
    question: m.question,
    yes_token_id: m.yes_token_id,
    no_token_id: m.no_token_id,
    condition_id: m.condition_id,
    neg_risk,
    status,
    resolved_outcome: won === null ? null : won ? 'Yes' : 'No',
    outcome_source: m.venue === 'kalshi' ? 'determined_event' : m.updown !== null ? 'price_feed' : 'oracle',
    yes_price,
    no_price: yes_price === null ? null : Math.round((1 - yes_price) * 1e9) / 1e9,
    event_start_s: Math.floor(m.timeline.open_ms / 1000),
    event_end_s: Math.floor(m.timeline.close_ms / 1000),
    resolution_source: m.description,
  };
  if (m.venue === 'polymarket' && m.updown !== null && withUnderlying) {
    const anchor = record?.anchor_usd ?? null;
    const final = record?.final_usd ?? null;
    out.underlying = {
      symbol: `${m.updown.underlying}-USD`,
      source: 'reference_price',
      anchor_price_usd: anchor,
      final_price_usd: final,
      // Up wins when the final price is at or above the anchor.
      agrees_with_settlement: anchor === null || final === null || won === null ? null : final >= anchor === won,
      points: [
        ...(anchor === null ? [] : [{ ts_s: Math.floor(m.timeline.open_ms / 1000), price_usd: anchor }]),
        ...(final === null ? [] : [{ ts_s: Math.floor(m.timeline.close_ms / 1000), price_usd: final }]),
      ],
    };
  }
  return out;
}
