import type { PredictionEvent, PredictionMarket, PredictionVenue } from './catalog.ts';
import { classifySymbol, resolvePrediction, type PredictionIndex, type Resolution } from './symbols.ts';

/** Lookups over a set of events by every id a client may name a market by. */
export class CatalogIndex implements PredictionIndex {
  private readonly markets = new Map<string, PredictionMarket>();
  private readonly events = new Map<string, PredictionEvent>();
  private readonly tokens = new Map<string, PredictionMarket>();

  constructor(events: Iterable<PredictionEvent> = []) {
    for (const e of events) this.add(e);
  }

  /** Adds (or replaces) an event and its markets. The first event listed under an id keeps it. */
  add(e: PredictionEvent): void {
    if (!this.events.has(`${e.venue}:${e.slug}`)) this.events.set(`${e.venue}:${e.slug}`, e);
    for (const m of e.markets) {
      if (!this.markets.has(`${m.venue}:${m.market_id}`)) this.markets.set(`${m.venue}:${m.market_id}`, m);
      if (m.venue === 'polymarket') {
        this.tokens.set(m.yes_token_id, m);
        this.tokens.set(m.no_token_id, m);
      }
    }
  }

  /** Forgets an event (delisted past its history window) and the ids it holds. */
  remove(e: PredictionEvent): void {
    if (this.events.get(`${e.venue}:${e.slug}`) === e) this.events.delete(`${e.venue}:${e.slug}`);
    for (const m of e.markets) {
      if (this.markets.get(`${m.venue}:${m.market_id}`) === m) this.markets.delete(`${m.venue}:${m.market_id}`);
      if (this.tokens.get(m.yes_token_id) === m) this.tokens.delete(m.yes_token_id);
      if (this.tokens.get(m.no_token_id) === m) this.tokens.delete(m.no_token_id);
    }
  }

  market(venue: PredictionVenue, market_id: string): PredictionMarket | undefined {
    return this.markets.get(`${venue}:${market_id}`);
  }

  event(venue: PredictionVenue, slug: string): PredictionEvent | undefined {
    return this.events.get(`${venue}:${slug}`);
  }

  token(token_id: string): PredictionMarket | undefined {
    return this.tokens.get(token_id);
  }
}

/**
 * Resolution with the server-side cache the spec gives slugs (Quote rules 5, Limits: 10
 * minutes): a slug once resolved keeps resolving to the same leg for the cache's lifetime, as a
 * venue's slug lookup (an API call upstream) is made once. Failures are not cached, so a market
 * listed a moment later resolves at once. The clock is injected for tests.
 */
export const SLUG_CACHE_MS = 10 * 60_000;

export class SymbolResolver {
  private readonly slugs = new Map<string, { at: number; resolution: Resolution }>();

  constructor(
    private readonly index: PredictionIndex,
    private readonly now: () => number = Date.now,
    private readonly ttlMs = SLUG_CACHE_MS,
    private readonly maxEntries = 100_000,
  ) {}

  /** Resolves a prediction symbol; `undefined` for a CEX pair (not a prediction symbol). */
  resolve(symbol: string): Resolution | undefined {
    const ref = classifySymbol(symbol);
    if (ref.kind === 'cex') return undefined;
    if (ref.kind !== 'slug') return resolvePrediction(ref, this.index);
    const key = `${ref.slug}:${ref.leg ?? ''}`;
    const hit = this.slugs.get(key);
    const t = this.now();
    if (hit !== undefined && t - hit.at < this.ttlMs) return hit.resolution;
    const resolution = resolvePrediction(ref, this.index);
    if (resolution.ok || resolution.code === 'AMBIGUOUS_MULTI_OUTCOME') {
      if (this.slugs.size >= this.maxEntries) this.slugs.delete(this.slugs.keys().next().value!);
      this.slugs.delete(key);
      this.slugs.set(key, { at: t, resolution });
    } else {
      this.slugs.delete(key);
    }
    return resolution;
  }
}
