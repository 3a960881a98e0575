import type { QuoteResponse } from './quotes.ts';

/**
 * Market analytics of one consolidated quote (pure): the NBBO, mid and spread, the depth of the
 * first `levels` levels of the merged book on each side, and their imbalance. Decimal figures,
 * like the quote they come from.
 */
export function marketAnalytics(q: QuoteResponse, levels: number) {
  const sum = (side: [number, number][], notional: boolean) => side.slice(0, levels).reduce((s, [px, sz]) => s + (notional ? px * sz : sz), 0);
  const bidDepth = sum(q.book.bids, false);
  const askDepth = sum(q.book.asks, false);
  const total = bidDepth + askDepth;
  const venues = Object.fromEntries(Object.entries(q.venues).map(([v, t]) => [v, { bid: t.bid, ask: t.ask, bid_size: t.bid_size, ask_size: t.ask_size, age_ms: t.age_ms }]));
  return {
    symbol: q.symbol,
    nbbo: { bid: q.nbbo.bid, ask: q.nbbo.ask, bid_size: q.nbbo.bid_size, ask_size: q.nbbo.ask_size },
    mid: q.nbbo.mid,
    crossed: q.nbbo.crossed,
    // Rounded to the 1e-9 of the price units: a float difference of two decimals prints 5.180000000007567.
    spread: q.nbbo.ask > 0 && q.nbbo.bid > 0 ? Math.round((q.nbbo.ask - q.nbbo.bid) * 1e9) / 1e9 : 0,
    spread_bps: q.nbbo.spread_bps,
    depth_levels: levels,
    bid_depth: bidDepth,
    ask_depth: askDepth,
    bid_depth_notional: sum(q.book.bids, true),
    ask_depth_notional: sum(q.book.asks, true),
    imbalance: total > 0 ? (bidDepth - askDepth) / total : 0,
    venues,
    updated_ms: q.updated_ms,
  };
}
