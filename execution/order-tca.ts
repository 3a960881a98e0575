import { computeTca, type TcaReport } from './tca/tca.ts';
import type { VenueView } from './sor/sor-types.ts';
import type { FillRecord, OrderRecord } from '../domain/orders.ts';
import { BPS } from '../domain/units.ts';
import { bestSingleVenue } from './views.ts';

/**
 * An order's TCA from its fills and the books at routing: the NBBO spread at arrival across the
 * views, and the best single venue as the benchmark. `started` is when its legs were sent.
 */
export function orderTca(order: OrderRecord, fills: readonly FillRecord[], views: readonly VenueView[], started: number): TcaReport | null {
  const nbboBid = Math.max(0, ...views.map((v) => (v.bid_count > 0 ? v.bids_px[0]! : 0)));
  const nbboAsk = Math.min(Infinity, ...views.map((v) => (v.ask_count > 0 ? v.asks_px[0]! : Infinity)));
  const mid = order.arrival_mid_1e9 ?? 0;
  const spreadBps = nbboBid > 0 && Number.isFinite(nbboAsk) && mid > 0 ? ((nbboAsk - nbboBid) * BPS) / mid : 0;
  const best = bestSingleVenue(views, order.side, order.qty_1e8, order.forced_venue);
  return (
    computeTca({
      side: order.side,
      qty_1e8: order.qty_1e8,
      fills: fills.map((f) => ({ venue: f.venue, qty_1e8: f.qty_1e8, price_1e9: f.price_1e9, fee_1e9: f.fee_1e9, ts_ns: f.ts_unix_ns, is_maker: f.is_maker })),
      arrival_mid_1e9: mid,
      arrival_ts_ns: order.created_unix_ns,
      completed_ts_ns: Math.max(order.updated_unix_ns, started),
      best_single_venue: best?.benchmark ?? null,
      ...(best === null ? {} : { best_single_venue_walk: best.walk }),
      arrival_spread_bps: spreadBps,
      is_prediction: order.instrument_type === 'prediction',
    }) ?? null
  );
}
