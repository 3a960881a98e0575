import type { Logger } from '../../engine/actor.ts';
import { staticRowOf } from '../../domain/prediction/listing.ts';
import type { MarketResolution, MarketResolutionStore } from '../../storage/market-resolutions.ts';
import type { LifecycleServer } from '../ws/lifecycle.ts';
import type { CatalogChange } from './prediction-catalog.ts';

const NS_PER_MS = 1_000_000;

/**
 * Catalog changes to the lifecycle streams (spec, Events):
 *
 * - `new_market`: one frame per binary row (a multi-outcome event's candidates each, as
 *   expanded listing rows), the listing entry's shape with `kind` and `observed_at_ns`, figures
 *   null or 0 as on a fresh row;
 * - `market_resolved`: one frame per binary market, stored durably before it is sent (and
 *   before `onResolved` moves positions), so a restart replays it and never sends it twice.
 */
export class LifecycleEvents {
  private readonly resolvedListeners: ((resolution: MarketResolution) => void)[] = [];

  constructor(
    private readonly server: LifecycleServer,
    private readonly resolutions: MarketResolutionStore,
    private readonly log: Logger,
  ) {
    // After a restart the stream replays what it sent before.
    for (const r of resolutions.latest(server.feeds.market_resolved.capacity)) server.feeds.market_resolved.offer(`${r.venue}:${r.market_id}`, r.frame);
  }

  /** Called once per resolution, after it is durable. */
  onResolved(listener: (resolution: MarketResolution) => void): void {
    this.resolvedListeners.push(listener);
  }

  readonly onCatalogChange = (change: CatalogChange): void => {
    const now = Date.now();
    const observed_at_ns = now * NS_PER_MS;
    const e = change.event;
    if (change.kind === 'listed') {
      for (const m of e.multi ? e.markets : [null]) {
        const market = m ?? e.markets[0]!;
        const row = {
          ...staticRowOf({ e, m }),
          status: market.timeline.open_ms > now ? 'initialized' : 'open',
          volume_24h: 0, volume_total: 0, best_yes_bid: null, best_yes_ask: null, best_no_bid: null, best_no_ask: null, spread_pct: null,
          kind: 'new_market',
          observed_at_ns,
        };
        this.server.publish('new_markets', `${e.venue}:${market.market_id}`, JSON.stringify(row));
      }
      return;
    }
    const m = change.market;
    const won = change.yes_won;
    const resolved_at_ns = change.resolved_ms * NS_PER_MS;
    const frame = JSON.stringify({
      kind: 'market_resolved',
      venue: e.venue,
      event_id: e.multi ? m.market_id : e.event_id,
      ...(e.multi ? { parent_event_id: e.event_id, outcome_name: m.raw_outcome_name } : {}),
      slug: m.market_id,
      question: m.question,
      winning_outcome: won ? 'Yes' : 'No',
      winning_token_id: won ? m.yes_token_id : m.no_token_id,
      losing_token_id: won ? m.no_token_id : m.yes_token_id,
      resolved_at_ns,
      observed_at_ns,
    });
    const resolution: MarketResolution = { venue: e.venue, market_id: m.market_id, yes_token_id: m.yes_token_id, no_token_id: m.no_token_id, yes_won: won, resolved_at_ns, observed_at_ns, frame };
    this.resolutions
      .record(resolution)
      .then((fresh) => {
        if (!fresh) return;
        this.server.publish('market_resolved', `${e.venue}:${m.market_id}`, frame);
        for (const listener of this.resolvedListeners) listener(resolution);
      })
      .catch((err: unknown) => this.log.error({ err, venue: e.venue, market_id: m.market_id }, 'market resolution not stored'));
  };
}
