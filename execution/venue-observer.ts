// What each venue does with our legs, observed for the SOR: every leg's answer (accepted or
// refused, how far it filled past the best price) and each fill's markout a second later.
import type { MarketView } from './types.ts';
import type { ChildExecution } from '../actors/edge/messages.ts';
import type { BookEntry } from '../actors/market/directory.ts';
import type { VenueStats, VenueView } from './sor/sor-types.ts';
import { VenueStatsTracker } from './sor/venue-stats.ts';
import type { ChildOrder, FillRecord, OrderRecord } from '../domain/orders.ts';

/** How long after a fill its markout (the adverse-selection statistic) is read. */
const MARKOUT_MS = 1_000;

interface PendingMarkout {
  due: number;
  entry: BookEntry;
  venue: string;
  side: 'buy' | 'sell';
  price_1e9: number;
}

export class VenueObserver {
  /** What each venue has done with our legs: versions 2 and 3 of the SOR cost with it. */
  private readonly venueStats = new VenueStatsTracker();
  /** Fills waiting for their markout, oldest first (every fill waits the same MARKOUT_MS). */
  private readonly pending: PendingMarkout[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly quotes: MarketView) {}

  /** The venue's statistics for the SOR, or undefined until it has been observed enough. */
  stats(venue: string): VenueStats | undefined {
    return this.venueStats.stats(venue);
  }

  /** A leg's answer as a venue statistic: accepted or refused, and how far it filled past the best price. */
  observeLeg(order: OrderRecord, child: ChildOrder, result: ChildExecution, views: readonly VenueView[]): void {
    let qty = 0;
    let notional = 0; // a statistic in doubles (bps), not money
    for (const f of result.fills) {
      qty += f.qty_1e8;
      notional += f.price_1e9 * f.qty_1e8;
    }
    const view = views.find((v) => v.venue === child.venue);
    const best = view === undefined ? 0 : order.side === 'buy' ? (view.ask_count > 0 ? view.asks_px[0]! : 0) : view.bid_count > 0 ? view.bids_px[0]! : 0;
    this.venueStats.onLeg({ venue: child.venue, side: order.side, accepted: result.ok, filled_qty_1e8: qty, vwap_1e9: qty > 0 ? notional / qty : 0, best_at_routing_1e9: best });
  }

  /** A leg whose answer was lost counts as refused. */
  observeLostLeg(order: OrderRecord, child: ChildOrder): void {
    this.venueStats.onLeg({ venue: child.venue, side: order.side, accepted: false, filled_qty_1e8: 0, vwap_1e9: 0, best_at_routing_1e9: 0 });
  }

  /**
   * Markouts: the consolidated mid MARKOUT_MS after each fill, against the fill's price. Fills
   * wait in one queue, due in the order they came, drained by a single timer: no timer per order.
   */
  scheduleMarkouts(order: OrderRecord, fills: readonly FillRecord[]): void {
    if (fills.length === 0) return;
    const entry = this.quotes.resolve(order.symbol, order.instrument_type);
    if (entry === undefined) return;
    const due = Date.now() + MARKOUT_MS;
    for (const f of fills) this.pending.push({ due, entry, venue: f.venue, side: order.side, price_1e9: f.price_1e9 });
    this.timer ??= setTimeout(this.drainMarkouts, MARKOUT_MS).unref();
  }

  private readonly drainMarkouts = (): void => {
    this.timer = undefined;
    const now = Date.now();
    let i = 0;
    for (; i < this.pending.length && this.pending[i]!.due <= now; i++) {
      const m = this.pending[i]!;
      const nbbo = this.quotes.nbbo1e9(m.entry);
      if (nbbo === undefined || nbbo.bid_1e9 <= 0 || nbbo.ask_1e9 <= 0 || nbbo.crossed) continue;
      this.venueStats.onMarkout(m.venue, m.side, m.price_1e9, (nbbo.bid_1e9 + nbbo.ask_1e9) / 2);
    }
    this.pending.splice(0, i);
    if (this.pending.length > 0) this.timer = setTimeout(this.drainMarkouts, Math.max(1, this.pending[0]!.due - now)).unref();
  };
}
