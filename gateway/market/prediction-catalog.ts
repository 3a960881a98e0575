import type { Logger } from '../../engine/actor.ts';
import type { Endpoint } from '../../engine/endpoint.ts';
import { edgeKey } from '../../actors/market/directory.ts';
import { MarketStatsTable } from '../../actors/prediction-edge/market-stats.ts';
import type { CatalogPage, ListedEvent, PredictionEdgeMessage } from '../../actors/prediction-edge/messages.ts';
import { PREDICTION_VENUE_IDS, type PredictionEvent, type PredictionMarket, type PredictionVenue } from '../../domain/prediction/catalog.ts';
import { CatalogIndex, SymbolResolver } from '../../domain/prediction/catalog-index.ts';
import type { MarketStats } from '../../domain/prediction/listing.ts';
import type { MarketMemory } from './memory.ts';

/** How often each prediction edge is asked what changed (its books move once a second). */
export const CATALOG_POLL_MS = 1_000;
const PAGE_MARKETS = 300;
const ASK_TIMEOUT_MS = 5_000;

const EDGE_OF: Readonly<Record<PredictionVenue, string>> = { kalshi: 'venue-edge-kalshi', polymarket: 'venue-edge-polymarket' };

/** What the gateway observed change in a venue's catalog (for the lifecycle streams and positions). */
export type CatalogChange =
  | { kind: 'listed'; event: PredictionEvent }
  | { kind: 'resolved'; event: PredictionEvent; market: PredictionMarket; yes_won: boolean; resolved_ms: number };

interface VenueMirror {
  epoch: number;
  after_seq: number;
  records: Map<string, ListedEvent>;
  /** The events as one array, kept while nothing changes (the listing caches its sorted views per array); null when it must be rebuilt. */
  list: PredictionEvent[] | null;
  /** During a resync after an edge restart: the events seen again. */
  resync: Set<string> | null;
}

/**
 * The gateway's copy of both prediction venues' catalogs: pulled from their edges once a
 * second (`Catalog` asks, a change log by sequence), indexed for symbol resolution, with each
 * market's live figures read from shared memory. Changes (new events, outcomes) go to the
 * listeners in the order the venue made them.
 */
export class PredictionCatalog {
  readonly index = new CatalogIndex();
  readonly resolver: SymbolResolver;
  private readonly stats: MarketStatsTable;
  private readonly slots = new Map<string, number>();
  private readonly mirrors: Record<PredictionVenue, VenueMirror>;
  private readonly listeners: ((change: CatalogChange) => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private polling = false;

  constructor(
    private readonly endpoint: Endpoint,
    memory: MarketMemory,
    private readonly log: Logger,
    now: () => number = Date.now,
  ) {
    this.stats = new MarketStatsTable(memory.predictionStats);
    this.resolver = new SymbolResolver(this.index, now);
    const mirror = (): VenueMirror => ({ epoch: 0, after_seq: 0, records: new Map(), list: [], resync: null });
    this.mirrors = { kalshi: mirror(), polymarket: mirror() };
  }

  onChange(listener: (change: CatalogChange) => void): void {
    this.listeners.push(listener);
  }

  start(): void {
    const loop = () => {
      void this.pollAll().finally(() => {
        if (this.timer !== undefined) this.timer = setTimeout(loop, CATALOG_POLL_MS);
      });
    };
    this.timer = setTimeout(loop, 0);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Reads every venue's changes now (also what the timer does). */
  async pollAll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      await Promise.all(PREDICTION_VENUE_IDS.map((v) => this.poll(v)));
    } finally {
      this.polling = false;
    }
  }

  private async poll(venue: PredictionVenue): Promise<void> {
    const mirror = this.mirrors[venue];
    try {
      for (let more = true; more; ) {
        const page = await this.endpoint.ask<CatalogPage>(
          edgeKey(EDGE_OF[venue]),
          { t: 'Catalog', after_seq: mirror.after_seq, max_markets: PAGE_MARKETS } satisfies PredictionEdgeMessage,
          ASK_TIMEOUT_MS,
        );
        if (page.epoch !== mirror.epoch) {
          const restarted = mirror.epoch !== 0;
          mirror.epoch = page.epoch;
          if (restarted) {
            // A restarted edge: this page answered an old sequence. Read it again from the
            // start, then forget what it no longer lists.
            mirror.after_seq = 0;
            mirror.resync = new Set();
            continue;
          }
        }
        this.apply(mirror, page);
        mirror.after_seq = page.next_seq;
        more = page.more;
      }
      if (mirror.resync !== null) {
        for (const [id, rec] of mirror.records) if (!mirror.resync.has(id)) this.forget(mirror, id, rec);
        mirror.resync = null;
      }
    } catch (err) {
      this.log.warn({ venue, err: (err as Error).message }, 'prediction catalog not read');
    }
  }

  private apply(mirror: VenueMirror, page: CatalogPage): void {
    const changes: CatalogChange[] = [];
    for (const rec of page.events) {
      const id = rec.event.event_id;
      mirror.resync?.add(id);
      const before = mirror.records.get(id);
      if (rec.delisted) {
        if (before !== undefined) this.forget(mirror, id, before);
        continue;
      }
      // Keep the objects the index and listeners already hold when the event is unchanged. A
      // live venue changes an event's reference data too (a timeline once the outcome is
      // known, a market added): the new one replaces it in the index.
      const same = before !== undefined && (before.event === rec.event || JSON.stringify(before.event) === JSON.stringify(rec.event));
      const event = same ? before.event : rec.event;
      const kept: ListedEvent = { ...rec, event };
      if (!same) {
        if (before !== undefined) this.forget(mirror, id, before);
        this.index.add(event);
        event.markets.forEach((m, c) => this.slots.set(`${m.venue}:${m.market_id}`, rec.slots[c]!));
        mirror.list = null;
        if (before === undefined) changes.push({ kind: 'listed', event });
      }
      mirror.records.set(id, kept);
      event.markets.forEach((market, c) => {
        const won = rec.yes_won[c];
        if (won === null || won === undefined || before?.yes_won[c] != null) return;
        changes.push({ kind: 'resolved', event, market, yes_won: won, resolved_ms: rec.resolved_ms[c] ?? Date.now() });
      });
    }
    // In the venue's time order: a first read (or a page) holds many.
    const instant = (c: CatalogChange) => (c.kind === 'listed' ? c.event.markets[0]!.timeline.listed_ms : c.resolved_ms);
    changes.sort((a, b) => instant(a) - instant(b));
    for (const change of changes) for (const listener of this.listeners) listener(change);
  }

  private forget(mirror: VenueMirror, id: string, rec: ListedEvent): void {
    mirror.records.delete(id);
    this.index.remove(rec.event);
    for (const m of rec.event.markets) this.slots.delete(`${m.venue}:${m.market_id}`);
    mirror.list = null;
  }

  /** A venue's events, in no particular order: the listing orders them. */
  events(venue: PredictionVenue): readonly PredictionEvent[] {
    const mirror = this.mirrors[venue];
    if (mirror.list === null) {
      mirror.list = [...mirror.records.values()].map((r) => r.event);
    }
    return mirror.list;
  }

  /** What the venue told of an event (outcomes, up/down prices). */
  record(venue: PredictionVenue, event_id: string): ListedEvent | undefined {
    return this.mirrors[venue].records.get(event_id);
  }

  /** A market's live figures: best prices as probabilities (null for an empty side) and volumes in USD. */
  readonly statsOf = (m: PredictionMarket): MarketStats => {
    const slot = this.slots.get(`${m.venue}:${m.market_id}`);
    const f = slot === undefined ? undefined : this.stats.read(m.venue, slot);
    if (f === undefined) return { volume_24h: 0, volume_total: 0, best_yes_bid: null, best_yes_ask: null, best_no_bid: null, best_no_ask: null };
    return {
      volume_24h: f.volume_24h_cents / 100,
      volume_total: f.volume_total_cents / 100,
      best_yes_bid: probability(f.yes_bid_1e9),
      best_yes_ask: probability(f.yes_ask_1e9),
      best_no_bid: probability(f.no_bid_1e9),
      best_no_ask: probability(f.no_ask_1e9),
    };
  };
}

function probability(price_1e9: number): number | null {
  return price_1e9 < 0 ? null : price_1e9 / 1e9;
}
