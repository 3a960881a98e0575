// What the service asks the SOR for an order: its side, quantity and limits, at the
// consolidated mid when it arrived.
import type { RouteEntry } from './prediction-entry.ts';
import type { RouteRequest, VenueView } from './sor/sor-types.ts';
import { nowNs } from '../domain/units.ts';
import type { MarketView, OrderRequest } from './types.ts';

export function routeRequest(
  id: string,
  request: Pick<OrderRequest, 'side' | 'qty_1e8' | 'order_type' | 'limit_price_1e9' | 'venue'>,
  arrival: number,
  maxPrice?: number | null,
): RouteRequest {
  // A market buy's max_price_1e9 caps the levels it may take; a sell has no maximum to honour.
  const limit = request.order_type === 'limit' ? request.limit_price_1e9 : request.side === 'buy' ? (maxPrice ?? undefined) : undefined;
  return {
    node_order_id: id,
    side: request.side,
    qty_1e8: request.qty_1e8,
    order_type: request.order_type,
    ...(limit !== undefined ? { limit_price_1e9: limit } : {}),
    ...(request.venue !== undefined ? { venue: request.venue } : {}),
    arrival_mid_1e9: arrival,
    now_ns: nowNs(),
  };
}

/**
 * The mid at arrival: the consolidated NBBO from the quote cache; for a symbol not streamed yet
 * (no consolidated book), the mid of the best bid and ask across the venue books the router
 * just read; 1 when there is neither (the SOR then finds nothing).
 */
export function arrivalMid(quotes: MarketView, entry: RouteEntry, views: readonly VenueView[] = []): number {
  // A DEX order arrives at its pair's CEX market (the pools are priced against it).
  const book = entry.instrument_type === 'prediction' ? undefined : entry.instrument_type === 'dex' ? (entry.reference ?? undefined) : entry;
  const nbbo = book === undefined ? undefined : quotes.nbbo1e9(book);
  if (nbbo !== undefined && nbbo.bid_1e9 > 0 && nbbo.ask_1e9 > 0) return Math.round((nbbo.bid_1e9 + nbbo.ask_1e9) / 2);
  let bid = 0;
  let ask = Infinity;
  for (const v of views) {
    if (!v.online) continue;
    if (v.bid_count > 0 && v.bids_px[0]! > bid) bid = v.bids_px[0]!;
    if (v.ask_count > 0 && v.asks_px[0]! < ask) ask = v.asks_px[0]!;
  }
  return bid > 0 && Number.isFinite(ask) && ask > bid ? Math.round((bid + ask) / 2) : 1;
}
