import { marketSymbol, phaseAt, type MarketPhase, type PredictionEvent, type PredictionMarket, type PredictionVenue } from './catalog.ts';

/**
 * `GET /v1/markets` as a pure function of the catalog (spec, Markets listing rules): status
 * filters, text and tag filters, order, `expand=outcomes`, and an opaque keyset cursor.
 *
 * Rows are totally ordered by (sort value, event listing key, position within the event), and a
 * cursor holds the last row's key: the next page is every row after it. For the default order
 * and the date orders the key never changes, so a walk visits each row exactly once even while
 * prices move and markets are listed (new ones sort after every earlier listing). `volume`,
 * `volume_total` and `competitive` move; a walk under them may miss or repeat a row, as the
 * spec warns for `order=volume`.
 */
export const LISTING_ORDERS = ['volume', 'volume_total', 'end_date', 'start_date', 'created', 'competitive', 'closed_time'] as const;
export type ListingOrder = (typeof LISTING_ORDERS)[number];

export interface ListingQuery {
  venue: PredictionVenue;
  slug?: string | undefined;
  q?: string | undefined;
  tag?: string | undefined;
  active: boolean;
  closed: boolean;
  limit: number;
  cursor?: string | undefined;
  order?: ListingOrder | undefined;
  expand: boolean;
}

/** A market's live figures, from its venue's book and tape; null best prices when a side is empty. */
export interface MarketStats {
  volume_24h: number;
  volume_total: number;
  best_yes_bid: number | null;
  best_yes_ask: number | null;
  best_no_bid: number | null;
  best_no_ask: number | null;
}

export type StatsOf = (market: PredictionMarket) => MarketStats;

export interface MarketRow extends MarketStats {
  venue: PredictionVenue;
  slug: string;
  symbol: string;
  question: string;
  description: string;
  outcomes: string[];
  outcome_token_ids: string[];
  yes_token_id: string | null;
  no_token_id: string | null;
  event_id: string;
  neg_risk: boolean;
  spread_pct: number | null;
  end_date: string;
  start_date: string;
  url: string;
  tags: string[];
  status: MarketPhase;
  equivalents: { venue: PredictionVenue; symbol: string; relation: string }[];
  parent_event_id?: string;
  parent_slug?: string;
  outcome_name?: string | null;
  raw_outcome_name?: string;
  is_placeholder_outcome?: boolean;
  outcome_index?: number;
}

export interface ListingPage {
  markets: MarketRow[];
  count: number;
  venue: PredictionVenue;
  has_more: boolean;
  next_cursor: string | null;
}

export type ListingResult = { ok: true; page: ListingPage } | { ok: false; status: 400 | 404; field: string; message: string };

/**
 * Which raw phases each (active, closed) pair lists (spec, listing rule 2): trading only; open,
 * closed and settled (everything past `initialized`); resolved only; and with both false every
 * status on the ticker-style venue, the token-style venue's default (trading) on the other.
 */
export function phasesFor(venue: PredictionVenue, active: boolean, closed: boolean): ReadonlySet<MarketPhase> {
  if (active && !closed) return new Set(['open']);
  if (active && closed) return new Set(['open', 'closed', 'determined', 'settled']);
  if (!active && closed) return new Set(['determined', 'settled']);
  return venue === 'kalshi' ? new Set(['initialized', 'open', 'closed', 'determined', 'settled']) : new Set(['open']);
}

function spreadPct(s: MarketStats): number | null {
  if (s.best_yes_bid === null || s.best_yes_ask === null) return null;
  const mid = (s.best_yes_bid + s.best_yes_ask) / 2;
  return mid > 0 ? Number(((s.best_yes_ask - s.best_yes_bid) / mid).toFixed(6)) : null;
}

const iso = (ms: number) => new Date(ms).toISOString();

function baseRow(e: PredictionEvent, m: PredictionMarket, now_ms: number): Omit<MarketRow, keyof MarketStats | 'spread_pct'> {
  return {
    venue: e.venue, slug: m.market_id, symbol: marketSymbol(m), question: m.question, description: m.description,
    outcomes: ['Yes', 'No'], outcome_token_ids: [m.yes_token_id, m.no_token_id], yes_token_id: m.yes_token_id, no_token_id: m.no_token_id,
    event_id: e.multi ? m.market_id : e.event_id, neg_risk: e.neg_risk,
    end_date: iso(m.timeline.close_ms), start_date: iso(m.timeline.listed_ms), url: e.url, tags: e.tags,
    status: phaseAt(m.timeline, now_ms),
    equivalents: m.equivalents.map((q) => ({ venue: q.venue, symbol: q.symbol, relation: q.relation })),
  };
}

function binaryRow(e: PredictionEvent, m: PredictionMarket, stats: MarketStats, now_ms: number): MarketRow {
  return { ...baseRow(e, m, now_ms), ...stats, spread_pct: spreadPct(stats) };
}

/** One row per event: a multi-outcome event lists its candidates with null best prices. */
function eventRow(e: PredictionEvent, statsOf: StatsOf, now_ms: number): MarketRow {
  const first = e.markets[0]!;
  if (!e.multi) return binaryRow(e, first, statsOf(first), now_ms);
  let volume_24h = 0;
  let volume_total = 0;
  for (const m of e.markets) {
    const s = statsOf(m);
    volume_24h += s.volume_24h;
    volume_total += s.volume_total;
  }
  return {
    ...baseRow(e, first, now_ms),
    slug: e.slug, symbol: e.slug, question: e.title, description: e.description, event_id: e.event_id,
    outcomes: e.markets.map((m) => m.raw_outcome_name ?? m.question), outcome_token_ids: e.markets.map((m) => m.yes_token_id),
    yes_token_id: null, no_token_id: null, equivalents: [],
    volume_24h: round2(volume_24h), volume_total: round2(volume_total),
    best_yes_bid: null, best_yes_ask: null, best_no_bid: null, best_no_ask: null, spread_pct: null,
  };
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

/** An event's binary markets in expanded order: real names first, then placeholders, each by upstream position. */
function expandedMarkets(e: PredictionEvent): readonly PredictionMarket[] {
  if (!e.multi) return e.markets;
  return [...e.markets].sort((a, b) => Number(a.is_placeholder) - Number(b.is_placeholder) || a.outcome_index - b.outcome_index);
}

/** The expanded row of one market of an event (a binary event's only market gives its plain row). */
function expandedRow(e: PredictionEvent, m: PredictionMarket, statsOf: StatsOf, now_ms: number): MarketRow {
  if (!e.multi) return eventRow(e, statsOf, now_ms);
  return {
    ...binaryRow(e, m, statsOf(m), now_ms),
    question: m.question,
    parent_event_id: e.event_id, parent_slug: e.slug,
    outcome_name: m.is_placeholder ? null : m.raw_outcome_name, raw_outcome_name: m.raw_outcome_name ?? m.question,
    is_placeholder_outcome: m.is_placeholder, outcome_index: m.outcome_index,
  };
}

type RowKey = [number | string, string, number];

/** The value a row sorts by; `row` (built only for the orders on moving figures) gives them. */
function sortValue(order: ListingOrder | undefined, e: PredictionEvent, row: () => MarketRow): number {
  const t = e.markets[0]!.timeline;
  switch (order) {
    case undefined:
    case 'start_date':
      return t.listed_ms;
    case 'created':
      return -t.listed_ms;
    case 'end_date':
      return t.close_ms;
    case 'closed_time':
      return -t.close_ms;
    case 'volume':
      return -row().volume_24h;
    case 'volume_total':
      return -row().volume_total;
    case 'competitive':
      return row().spread_pct ?? Number.MAX_VALUE;
  }
}

function compareKeys(a: RowKey, b: RowKey): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  if (a[1] !== b[1]) return a[1] < b[1] ? -1 : 1;
  return a[2] - b[2];
}

/** A short hash of everything that selects and orders rows (not `limit` or `cursor`). */
function queryHash(q: ListingQuery): string {
  const text = JSON.stringify([q.venue, q.slug ?? null, q.q ?? null, q.tag ?? null, q.active, q.closed, q.order ?? null, q.expand]);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

function encodeCursor(hash: string, key: RowKey): string {
  return Buffer.from(JSON.stringify({ v: 1, q: hash, k: key })).toString('base64url');
}

function decodeCursor(cursor: string, hash: string): RowKey | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return 'cursor is not one this endpoint gave';
  }
  const c = parsed as { v?: unknown; q?: unknown; k?: unknown };
  const k = c.k as unknown[];
  if (c.v !== 1 || !Array.isArray(k) || k.length !== 3 || (typeof k[0] !== 'number' && typeof k[0] !== 'string') || typeof k[1] !== 'string' || typeof k[2] !== 'number') {
    return 'cursor is not one this endpoint gave';
  }
  if (c.q !== hash) return 'cursor belongs to another query: pass the same filters, order and expand as the page that gave it';
  return k as RowKey;
}

function matches(e: PredictionEvent, q: ListingQuery, phases: ReadonlySet<MarketPhase>, now_ms: number): boolean {
  if (!e.markets.some((m) => phases.has(phaseAt(m.timeline, now_ms)))) return false;
  if (q.tag !== undefined && !e.tags.includes(q.tag.toLowerCase())) return false;
  if (q.q !== undefined) {
    const needle = q.q.toLowerCase();
    const hay = [e.slug, e.title, e.description, ...e.markets.map((m) => `${m.market_id} ${m.question}`)].join('\n').toLowerCase();
    if (!hay.includes(needle)) return false;
  }
  return true;
}

/** The page a query asks for, over the venue's `events` (listing order) at `now_ms`. */
export function listMarkets(events: readonly PredictionEvent[], q: ListingQuery, statsOf: StatsOf, now_ms: number): ListingResult {
  const hash = queryHash(q);
  let after: RowKey | undefined;
  if (q.cursor !== undefined) {
    const decoded = decodeCursor(q.cursor, hash);
    if (typeof decoded === 'string') return { ok: false, status: 400, field: 'cursor', message: decoded };
    after = decoded;
  }
  let pool: readonly PredictionEvent[] = events;
  if (q.slug !== undefined) {
    const wanted = q.slug;
    pool = events.filter((e) => e.slug === wanted || e.event_id === wanted || e.markets.some((m) => m.market_id === wanted));
    if (pool.length === 0) return { ok: false, status: 404, field: 'slug', message: `no market or event has slug or ticker ${wanted}` };
  }
  const phases = phasesFor(q.venue, q.active, q.closed);
  // Rows are keyed first and built only for the page: a page of 20 out of thousands builds 20.
  const keyed: { key: RowKey; e: PredictionEvent; m: PredictionMarket | null }[] = [];
  for (const e of pool) {
    if (!matches(e, q, phases, now_ms)) continue;
    const eventKey = `${String(e.markets[0]!.timeline.listed_ms).padStart(15, '0')}:${e.event_id}`;
    if (!q.expand) {
      keyed.push({ key: [sortValue(q.order, e, () => eventRow(e, statsOf, now_ms)), eventKey, 0], e, m: null });
      continue;
    }
    expandedMarkets(e).forEach((m, pos) => {
      if (!phases.has(phaseAt(m.timeline, now_ms))) return;
      keyed.push({ key: [sortValue(q.order, e, () => expandedRow(e, m, statsOf, now_ms)), eventKey, pos], e, m });
    });
  }
  keyed.sort((a, b) => compareKeys(a.key, b.key));
  let start = 0;
  if (after !== undefined) {
    // The first row after the cursor's (binary search: keys are sorted).
    let hi = keyed.length;
    while (start < hi) {
      const mid = (start + hi) >>> 1;
      if (compareKeys(keyed[mid]!.key, after) > 0) hi = mid;
      else start = mid + 1;
    }
  }
  const page = keyed.slice(start, start + q.limit);
  const has_more = start + page.length < keyed.length;
  const last = page[page.length - 1];
  return {
    ok: true,
    page: {
      markets: page.map((x) => (x.m === null ? eventRow(x.e, statsOf, now_ms) : expandedRow(x.e, x.m, statsOf, now_ms))),
      count: page.length,
      venue: q.venue,
      has_more,
      next_cursor: has_more && last !== undefined ? encodeCursor(hash, last.key) : null,
    },
  };
}
