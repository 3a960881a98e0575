import { marketSymbol, type Equivalent, type MarketTimeline, type RewardsProgram, type PredictionEvent, type PredictionMarket, type PredictionVenue } from '../../../../domain/prediction/catalog.ts';
import { hash32, hashUniform } from '../rng.ts';
import { conditionId, slugify, tickerDate, tickerSecond, tokenId } from './names.ts';
import { longEvent, upDownEvent, type WorldEvent } from './themes.ts';

/**
 * The simulated prediction world: two series of events on absolute time, so a restart (or any
 * thread) computes the same catalog for a seed, with the same ids.
 *
 * - **Long-dated events** (`L<i>`): event i closes at `(i + u_i) x G` Unix ms and is listed up to
 *   `LONG_HORIZON_MS` before; G is set so that about `events` of them are listed at any instant.
 *   Resolved ones stay listed for `LONG_HISTORY_MS`.
 * - **Fast up/down markets** (`F<j>`): market j is determined at `(j + u_j) x S`, so resolutions
 *   come on average every `resolveMeanS` seconds on each venue; each trades for
 *   `clamp(4 S, 1 min, 1 h)`. Resolved ones stay listed for 64 S.
 *
 * Each world event is listed on the ticker-style venue, the token-style venue, or both (the
 * cross-venue equivalents); a venue projects it into its own ids and words (`project`).
 */
export interface WorldConfig {
  seed: number;
  /** Long-dated events listed at any instant, both venues together. */
  events: number;
  /** Mean seconds between resolutions on each venue. */
  resolveMeanS: number;
}

const DAY_MS = 86_400_000;
export const LONG_HORIZON_MS = 120 * DAY_MS;
const LONG_HISTORY_MS = 21 * DAY_MS;
const FAST_HISTORY_SLOTS = 64;
/** The shapes of the token-style venue's maker-rewards programs: sizes in contracts, spreads of 1 to 4.5 cents, USDC a day. */
const REWARD_MIN_SIZES = [20, 50, 100, 200] as const;
const REWARD_MAX_SPREADS_1E9 = [10_000_000, 20_000_000, 30_000_000, 35_000_000, 45_000_000] as const;
const REWARD_DAILY_USDC_1E9 = [1e9, 2.5e9, 5e9, 10e9, 25e9, 50e9, 100e9, 250e9] as const;
/** How long a new ticker-style long-dated market stays `initialized` before it opens. */
const LONG_INITIALIZED_MS = 30 * 60_000;

export interface WorldEntry {
  event: WorldEvent;
  /** World index within its series. */
  index: number;
  fast: boolean;
  listedOn: Readonly<Record<PredictionVenue, boolean>>;
  /** The ticker-style venue asks the question the other way round (YES there = NO elsewhere). */
  kalshiComplement: boolean;
  /** Timeline on each venue (they share close and determination; listing and settlement differ). */
  timeline: Readonly<Record<PredictionVenue, MarketTimeline>>;
  /** Letter that tells this event's ticker from an earlier one of its series closing the same day ('' for the first). */
  tickerSuffix: string;
}

export class PredictionWorld {
  readonly seed: number;
  private readonly longGapMs: number;
  private readonly fastSlotMs: number;
  /** Seconds between the close and the outcome being known. */
  readonly windowMs: number;
  private readonly fastTradingMs: number;
  private readonly fastLeadMs: number;
  private readonly entries = new Map<string, WorldEntry>();
  private readonly projected = new Map<string, PredictionEvent>();
  private readonly bases = new Map<number, { close_ms: number; event: WorldEvent }>();

  constructor(readonly config: WorldConfig) {
    this.seed = config.seed >>> 0;
    // Listing lasts between 0.6 and 1.0 of the horizon: 0.8 on average.
    this.longGapMs = (0.8 * LONG_HORIZON_MS) / Math.max(1, config.events);
    this.fastSlotMs = Math.max(100, config.resolveMeanS * 1000);
    this.windowMs = Math.min(120_000, Math.max(1_000, this.fastSlotMs / 4));
    this.fastTradingMs = Math.min(3_600_000, Math.max(60_000, 4 * this.fastSlotMs));
    this.fastLeadMs = Math.min(600_000, Math.max(5_000, this.fastSlotMs));
  }

  /** Every world entry listed at `now_ms` or resolved within its history window, oldest listing first. */
  entriesAt(now_ms: number): WorldEntry[] {
    const out: WorldEntry[] = [];
    const g = this.longGapMs;
    for (let i = Math.floor((now_ms - LONG_HISTORY_MS - this.windowMs * 2) / g) - 1; i <= Math.ceil((now_ms + LONG_HORIZON_MS) / g); i++) {
      const e = this.long(i);
      const t = e.timeline.polymarket;
      if (t.listed_ms <= now_ms && now_ms < t.determined_ms + LONG_HISTORY_MS) out.push(e);
    }
    const s = this.fastSlotMs;
    const from = Math.floor((now_ms - FAST_HISTORY_SLOTS * s) / s) - 1;
    for (let j = from; j <= Math.ceil((now_ms + this.fastTradingMs + this.fastLeadMs + this.windowMs) / s) + 1; j++) {
      const e = this.fastEntry(j);
      const t = e.timeline.kalshi;
      if (t.listed_ms <= now_ms && now_ms < t.determined_ms + FAST_HISTORY_SLOTS * s) out.push(e);
    }
    out.sort((a, b) => a.timeline.kalshi.listed_ms - b.timeline.kalshi.listed_ms || (a.event.key < b.event.key ? -1 : 1));
    return out;
  }

  /** Events of one venue at `now_ms` (see `entriesAt`), projected into the venue's ids. */
  eventsAt(venue: PredictionVenue, now_ms: number): PredictionEvent[] {
    return this.entriesAt(now_ms).filter((e) => e.listedOn[venue]).map((e) => this.project(e, venue));
  }

  /** Forgets cached entries that can no longer be listed (their history window is over). */
  prune(now_ms: number): void {
    for (const [key, e] of this.entries) {
      const horizon = e.fast ? FAST_HISTORY_SLOTS * this.fastSlotMs : LONG_HISTORY_MS;
      if (e.timeline.kalshi.determined_ms + horizon + this.windowMs * 2 < now_ms) {
        this.entries.delete(key);
        if (!e.fast) this.bases.delete(e.index);
        this.projected.delete(`kalshi:${key}`);
        this.projected.delete(`polymarket:${key}`);
      }
    }
  }

  long(i: number): WorldEntry {
    const key = `L${i}`;
    const cached = this.entries.get(key);
    if (cached !== undefined) return cached;
    const { close_ms, event } = this.longBase(i);
    const listed_ms = close_ms - LONG_HORIZON_MS * (0.6 + 0.4 * hashUniform(this.seed, i >>> 0, Math.floor(i / 2 ** 32), 0x52));
    const determined_ms = close_ms + this.windowMs;
    const entry = this.entry(event, i, false, {
      kalshi: { listed_ms, open_ms: listed_ms + LONG_INITIALIZED_MS, close_ms, determined_ms, settled_ms: determined_ms + this.windowMs },
      polymarket: { listed_ms, open_ms: listed_ms, close_ms, determined_ms, settled_ms: null },
    });
    // Event tickers are a series and a close date: the earlier events of the same series that
    // close the same UTC day take the first letters. Closes grow with i, so those are the
    // nearest earlier indices.
    const day = tickerDate(close_ms);
    let same = 0;
    for (let j = i - 1; ; j--) {
      const earlier = this.longBase(j);
      if (tickerDate(earlier.close_ms) !== day) break;
      if (earlier.event.series === event.series) same++;
    }
    entry.tickerSuffix = same === 0 ? '' : String.fromCharCode(65 + (same % 26)) + (same >= 26 ? String(Math.floor(same / 26)) : '');
    this.entries.set(key, entry);
    return entry;
  }

  /** Close instant and content of long event i (memoised: the ticker suffix reads its neighbours). */
  private longBase(i: number): { close_ms: number; event: WorldEvent } {
    const cached = this.bases.get(i);
    if (cached !== undefined) return cached;
    const u = hashUniform(this.seed, i >>> 0, Math.floor(i / 2 ** 32), 0x51);
    // Close on a whole minute, as venues schedule them.
    const close_ms = Math.round(((i + u) * this.longGapMs) / 60_000) * 60_000;
    const base = { close_ms, event: longEvent(this.seed, i, close_ms) };
    this.bases.set(i, base);
    return base;
  }

  fastEntry(j: number): WorldEntry {
    const key = `F${j}`;
    const cached = this.entries.get(key);
    if (cached !== undefined) return cached;
    const u = hashUniform(this.seed, j >>> 0, Math.floor(j / 2 ** 32), 0x61);
    const determined_ms = Math.round((j + u) * this.fastSlotMs);
    const close_ms = determined_ms - this.windowMs;
    const open_ms = close_ms - this.fastTradingMs;
    const event = upDownEvent(this.seed, j, open_ms, close_ms);
    const entry = this.entry(event, j, true, {
      kalshi: { listed_ms: open_ms - this.fastLeadMs, open_ms, close_ms, determined_ms, settled_ms: determined_ms + this.windowMs },
      polymarket: { listed_ms: open_ms, open_ms, close_ms, determined_ms, settled_ms: null },
    });
    this.entries.set(key, entry);
    return entry;
  }

  private entry(event: WorldEvent, index: number, fast: boolean, timeline: Record<PredictionVenue, MarketTimeline>): WorldEntry {
    const h = hash32(this.seed, index >>> 0, Math.floor(index / 2 ** 32), fast ? 0x62 : 0x53);
    // Up/down markets trade on both venues; long-dated events on one or both (1 in 5).
    const where = fast ? 2 : h % 5 < 2 ? 0 : h % 5 < 4 ? 1 : 2;
    const listedOn = { kalshi: where !== 1, polymarket: where !== 0 };
    const kalshiComplement = where === 2 && event.inverted_title !== null && (h >>> 8) % 2 === 0;
    return { event, index, fast, listedOn, kalshiComplement, timeline, tickerSuffix: '' };
  }

  /** The world entry of a venue's event, by the world key the projection carries. */
  entryOf(key: string): WorldEntry | undefined {
    const n = Number(key.slice(1));
    if (!Number.isSafeInteger(n)) return undefined;
    if (key.startsWith('L')) return this.long(n);
    if (key.startsWith('F')) return this.fastEntry(n);
    return undefined;
  }

  project(entry: WorldEntry, venue: PredictionVenue): PredictionEvent {
    const cacheKey = `${venue}:${entry.event.key}`;
    const cached = this.projected.get(cacheKey);
    if (cached !== undefined) return cached;
    const e = venue === 'kalshi' ? this.kalshiEvent(entry) : this.polymarketEvent(entry);
    if (entry.listedOn.kalshi && entry.listedOn.polymarket) {
      const other = venue === 'kalshi' ? this.polymarketEvent(entry) : this.kalshiEvent(entry);
      const relation = entry.kalshiComplement ? 'complement' : 'same';
      e.markets.forEach((m, c) => {
        const o = other.markets[c]!;
        if (!m.is_placeholder) m.equivalents.push({ venue: o.venue, market_id: o.market_id, symbol: marketSymbol(o), relation } satisfies Equivalent);
      });
    }
    this.projected.set(cacheKey, e);
    return e;
  }

  /** Does YES win on this venue's market (by candidate index)? Known to the world from the start. */
  yesWins(entry: WorldEntry, venue: PredictionVenue, candidate: number, upWins: boolean): boolean {
    const won = entry.event.underlying !== null ? upWins : entry.event.multi ? candidate === entry.event.winner : entry.event.winner === 0;
    return venue === 'kalshi' && entry.kalshiComplement ? !won : won;
  }

  private wordsOf(entry: WorldEntry): { hi: number; lo: number; tag: number } {
    return { lo: entry.index >>> 0, hi: Math.floor(entry.index / 2 ** 32), tag: entry.fast ? 2 : 1 };
  }

  private polymarketEvent(entry: WorldEntry): PredictionEvent {
    const ev = entry.event;
    const { lo, hi, tag } = this.wordsOf(entry);
    const tokenSeed = hash32(this.seed, hi, tag, 0x70);
    const slug = `${slugify(ev.title)}-${entry.index.toString(36)}${entry.fast ? 'f' : ''}`;
    const event_id = String(entry.index * 2 + (entry.fast ? 1 : 0));
    const url = `https://polymarket.com/event/${slug}`;
    const markets = ev.candidates.map((c, i): PredictionMarket => ({
      venue: 'polymarket',
      market_id: ev.multi ? `${slug}-${slugify(c.name)}` : slug,
      event_id,
      event_slug: slug,
      question: ev.multi ? `${ev.title} - ${c.name}` : ev.title,
      description: ev.rules,
      yes_token_id: tokenId(tokenSeed, lo, i * 2),
      no_token_id: tokenId(tokenSeed, lo, i * 2 + 1),
      condition_id: conditionId(tokenSeed, lo * 4096 + i),
      outcome_index: i,
      raw_outcome_name: ev.multi ? c.name : null,
      is_placeholder: c.placeholder,
      timeline: entry.timeline.polymarket,
      // Fees on the short crypto markets only, as the token-style venue does.
      fee_rate_bps: ev.underlying !== null ? 200 : 0,
      updown: ev.underlying !== null ? { underlying: ev.underlying } : null,
      equivalents: [],
      rewards: c.placeholder || entry.fast ? null : this.rewardsOf(entry, i),
    }));
    return { venue: 'polymarket', event_id, slug, title: ev.title, description: ev.rules, tags: ev.tags, multi: ev.multi, neg_risk: ev.multi, url, markets };
  }

  /**
   * About one long-dated token-style market in three runs a maker-rewards program, funded in
   * whole weeks from the day it was listed and ending at the close at the latest: at any
   * instant some programs are running and some have ended on markets still trading.
   */
  private rewardsOf(entry: WorldEntry, candidate: number): RewardsProgram | null {
    const h = hash32(this.seed, entry.index >>> 0, Math.floor(entry.index / 2 ** 32), 0x80 + candidate);
    if (h % 3 !== 0) return null;
    const t = entry.timeline.polymarket;
    const weeks = 2 + ((h >>> 4) % 10);
    return {
      min_size: REWARD_MIN_SIZES[(h >>> 8) % REWARD_MIN_SIZES.length]!,
      max_spread_1e9: REWARD_MAX_SPREADS_1E9[(h >>> 11) % REWARD_MAX_SPREADS_1E9.length]!,
      rate_per_day_usdc_1e9: REWARD_DAILY_USDC_1E9[(h >>> 14) % REWARD_DAILY_USDC_1E9.length]!,
      end_ms: Math.min(t.close_ms, Math.floor(t.listed_ms / DAY_MS) * DAY_MS + weeks * 7 * DAY_MS),
    };
  }

  private kalshiEvent(entry: WorldEntry): PredictionEvent {
    const ev = entry.event;
    const t = entry.timeline.kalshi;
    const ticker = `${ev.series}-${entry.fast ? tickerSecond(t.close_ms) : tickerDate(t.close_ms)}${entry.tickerSuffix}`;
    const title = entry.kalshiComplement && ev.inverted_title !== null ? ev.inverted_title : ev.title;
    const url = `https://kalshi.com/markets/${ev.series.toLowerCase()}/${ticker.toLowerCase()}`;
    const markets = ev.candidates.map((c, i): PredictionMarket => {
      const market_id = `${ticker}-${entry.kalshiComplement ? c.code.replace(/^T/, 'B') : c.code}`;
      return {
        venue: 'kalshi',
        market_id,
        event_id: ticker,
        event_slug: ticker,
        question: ev.multi ? `${title} - ${c.name}` : title,
        description: ev.rules,
        yes_token_id: `${market_id}:YES`,
        no_token_id: `${market_id}:NO`,
        condition_id: null,
        outcome_index: i,
        raw_outcome_name: ev.multi ? c.name : null,
        is_placeholder: c.placeholder,
        timeline: t,
        fee_rate_bps: 700,
        updown: ev.underlying !== null ? { underlying: ev.underlying } : null,
        equivalents: [],
        rewards: null,
      };
    });
    return { venue: 'kalshi', event_id: ticker, slug: ticker, title, description: ev.rules, tags: ev.tags, multi: ev.multi, neg_risk: false, url, markets };
  }
}
