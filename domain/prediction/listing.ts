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

/** A row of a page: an event's own row (`m` null: a binary event, or a multi-outcome event unexpanded) or one candidate's expanded row. */
export interface RowRef {
  e: PredictionEvent;
  m: PredictionMarket | null;
}

/** The fields of a row that never change: all but `status`, the figures and `spread_pct`. */
export type StaticRow = Omit<MarketRow, keyof MarketStats | 'spread_pct' | 'status'>;

const staticRows = new WeakMap<PredictionEvent | PredictionMarket, StaticRow>();

function marketFields(e: PredictionEvent, m: PredictionMarket): StaticRow {
  return {
    venue: e.venue, slug: m.market_id, symbol: marketSymbol(m), question: m.question, description: m.description,
    outcomes: ['Yes', 'No'], outcome_token_ids: [m.yes_token_id, m.no_token_id], yes_token_id: m.yes_token_id, no_token_id: m.no_token_id,
    event_id: e.multi ? m.market_id : e.event_id, neg_risk: e.neg_risk,
    end_date: iso(m.timeline.close_ms), start_date: iso(m.timeline.listed_ms), url: e.url, tags: e.tags,
    equivalents: m.equivalents.map((q) => ({ venue: q.venue, symbol: q.symbol, relation: q.relation })),
  };
}

/** A row's unchanging fields, built once per event or market. */
export function staticRowOf(ref: RowRef): StaticRow {
  const { e, m } = ref;
  const cached = staticRows.get(m ?? e);
  if (cached !== undefined) return cached;
  const first = e.markets[0]!;
  let row: StaticRow;
  if (m !== null) {
    row = {
      ...marketFields(e, m),
      parent_event_id: e.event_id, parent_slug: e.slug,
      outcome_name: m.is_placeholder ? null : m.raw_outcome_name, raw_outcome_name: m.raw_outcome_name ?? m.question,
      is_placeholder_outcome: m.is_placeholder, outcome_index: m.outcome_index,
    };
  } else if (!e.multi) {
    row = marketFields(e, first);
  } else {
    row = {
      ...marketFields(e, first),
      slug: e.slug, symbol: e.slug, question: e.title, description: e.description, event_id: e.event_id,
      outcomes: e.markets.map((x) => x.raw_outcome_name ?? x.question), outcome_token_ids: e.markets.map((x) => x.yes_token_id),
      yes_token_id: null, no_token_id: null, equivalents: [],
    };
  }
  staticRows.set(m ?? e, row);
  return row;
}

/** A row's moving fields: its phase, best prices, volumes and spread (an unexpanded multi-outcome row sums volumes, has no prices). */
export function rowFigures(ref: RowRef, statsOf: StatsOf, now_ms: number): MarketStats & { status: MarketPhase; spread_pct: number | null } {
  const { e, m } = ref;
  const market = m ?? e.markets[0]!;
  const status = phaseAt(market.timeline, now_ms);
  if (m !== null || !e.multi) {
    const stats = statsOf(market);
    return { status, ...stats, spread_pct: spreadPct(stats) };
  }
  let volume_24h = 0;
  let volume_total = 0;
  for (const x of e.markets) {
    const st = statsOf(x);
    volume_24h += st.volume_24h;
    volume_total += st.volume_total;
  }
  return { status, volume_24h: round2(volume_24h), volume_total: round2(volume_total), best_yes_bid: null, best_yes_ask: null, best_no_bid: null, best_no_ask: null, spread_pct: null };
}

export function buildRow(ref: RowRef, statsOf: StatsOf, now_ms: number): MarketRow {
  return { ...staticRowOf(ref), ...rowFigures(ref, statsOf, now_ms) };
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

const expandedOrder = new WeakMap<PredictionEvent, readonly PredictionMarket[]>();

/** An event's candidates in expanded order: real names first, then placeholders, each by upstream position. */
function expandedMarkets(e: PredictionEvent): readonly PredictionMarket[] {
  let ordered = expandedOrder.get(e);
  if (ordered === undefined) {
    ordered = [...e.markets].sort((a, b) => Number(a.is_placeholder) - Number(b.is_placeholder) || a.outcome_index - b.outcome_index);
    expandedOrder.set(e, ordered);
  }
  return ordered;
}

/** The rows an event gives: its own row, or under expand one per candidate of a multi-outcome event. */
function rowsOf(e: PredictionEvent, expand: boolean): readonly (PredictionMarket | null)[] {
  return expand && e.multi ? expandedMarkets(e) : NULL_ROW;
}
const NULL_ROW: readonly null[] = [null];

type RowKey = [number | string, string, number];

/** Orders whose sort value never changes: a keyset walk under them is exhaustive. */
const STATIC_ORDERS = new Set<ListingOrder | undefined>([undefined, 'start_date', 'created', 'end_date', 'closed_time']);

/** The value an event sorts by under a static order. */
function staticValue(order: ListingOrder | undefined, e: PredictionEvent): number {
  const t = e.markets[0]!.timeline;
  switch (order) {
    case 'created':
      return -t.listed_ms;
    case 'end_date':
      return t.close_ms;
    case 'closed_time':
      return -t.close_ms;
    default:
      return t.listed_ms;
  }
}

/** The value a row sorts by under an order on moving figures. */
function movingValue(order: ListingOrder, ref: RowRef, statsOf: StatsOf, now_ms: number): number {
  const f = rowFigures(ref, statsOf, now_ms);
  if (order === 'volume') return -f.volume_24h;
  if (order === 'volume_total') return -f.volume_total;
  return f.spread_pct ?? Number.MAX_VALUE;
}

const eventKeys = new WeakMap<PredictionEvent, string>();

/** The tie-break of events with one sort value: listing instant, then id (immutable). */
function eventKeyOf(e: PredictionEvent): string {
  let key = eventKeys.get(e);
  if (key === undefined) {
    key = `${String(e.markets[0]!.timeline.listed_ms).padStart(15, '0')}:${e.event_id}`;
    eventKeys.set(e, key);
  }
  return key;
}

const sortedByOrder = new WeakMap<readonly PredictionEvent[], Map<string, readonly PredictionEvent[]>>();

/** `events` sorted by (static value, event key), kept while the array is (the catalog makes a new one on change). */
function sortedEvents(events: readonly PredictionEvent[], order: ListingOrder | undefined): readonly PredictionEvent[] {
  let byOrder = sortedByOrder.get(events);
  if (byOrder === undefined) {
    byOrder = new Map();
    sortedByOrder.set(events, byOrder);
  }
  const name = order ?? '';
  let sorted = byOrder.get(name);
  if (sorted === undefined) {
    sorted = events
      .map((e) => ({ e, v: staticValue(order, e), k: eventKeyOf(e) }))
      .sort((a, b) => a.v - b.v || (a.k < b.k ? -1 : a.k > b.k ? 1 : 0))
      .map((x) => x.e);
    byOrder.set(name, sorted);
  }
  return sorted;
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

/** A page's rows by reference (built by the caller: `buildRow`, or straight to JSON). */
export interface PageRefs {
  rows: RowRef[];
  venue: PredictionVenue;
  has_more: boolean;
  next_cursor: string | null;
}

export type SelectResult = { ok: true; refs: PageRefs } | { ok: false; status: 400 | 404; field: string; message: string };

/**
 * The rows of the page a query asks for, over the venue's `events` at `now_ms`. Under a static
 * order the events are kept sorted and the page starts at the cursor (binary search), so a page
 * costs its own rows plus the rows filtered out on the way; under a moving order every matching
 * row is keyed and sorted.
 */
export function selectPage(events: readonly PredictionEvent[], q: ListingQuery, statsOf: StatsOf, now_ms: number): SelectResult {
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
  const rowOk = (m: PredictionMarket | null) => m === null || phases.has(phaseAt(m.timeline, now_ms));
  const page: { ref: RowRef; key: RowKey }[] = [];
  let has_more = false;
  if (STATIC_ORDERS.has(q.order)) {
    const sorted = sortedEvents(pool, q.order);
    let i = 0;
    if (after !== undefined) {
      const [v, k] = after;
      let hi = sorted.length;
      while (i < hi) {
        const mid = (i + hi) >>> 1;
        const e = sorted[mid]!;
        const ev = staticValue(q.order, e);
        const ek = eventKeyOf(e);
        if (ev < (v as number) || (ev === v && ek < k)) i = mid + 1;
        else hi = mid;
      }
    }
    scan: for (; i < sorted.length; i++) {
      const e = sorted[i]!;
      if (!matches(e, q, phases, now_ms)) continue;
      const v = staticValue(q.order, e);
      const k = eventKeyOf(e);
      const rows = rowsOf(e, q.expand);
      for (let pos = 0; pos < rows.length; pos++) {
        const key: RowKey = [v, k, pos];
        if (after !== undefined && compareKeys(key, after) <= 0) continue;
        const m = rows[pos]!;
        if (!rowOk(m)) continue;
        if (page.length === q.limit) {
          has_more = true;
          break scan;
        }
        page.push({ ref: { e, m }, key });
      }
    }
  } else {
    const order = q.order!;
    const keyed: { ref: RowRef; key: RowKey }[] = [];
    for (const e of pool) {
      if (!matches(e, q, phases, now_ms)) continue;
      const k = eventKeyOf(e);
      rowsOf(e, q.expand).forEach((m, pos) => {
        if (!rowOk(m)) return;
        const ref = { e, m };
        keyed.push({ ref, key: [movingValue(order, ref, statsOf, now_ms), k, pos] });
      });
    }
    keyed.sort((a, b) => compareKeys(a.key, b.key));
    let start = 0;
    if (after !== undefined) {
      let hi = keyed.length;
      while (start < hi) {
        const mid = (start + hi) >>> 1;
        if (compareKeys(keyed[mid]!.key, after) > 0) hi = mid;
        else start = mid + 1;
      }
    }
    page.push(...keyed.slice(start, start + q.limit));
    has_more = start + page.length < keyed.length;
  }
  const last = page[page.length - 1];
  return {
    ok: true,
    refs: {
      rows: page.map((x) => x.ref),
      venue: q.venue,
      has_more,
      next_cursor: has_more && last !== undefined ? encodeCursor(hash, last.key) : null,
    },
  };
}

/** The page a query asks for, with its rows built (`selectPage`). */
export function listMarkets(events: readonly PredictionEvent[], q: ListingQuery, statsOf: StatsOf, now_ms: number): ListingResult {
  const selected = selectPage(events, q, statsOf, now_ms);
  if (!selected.ok) return selected;
  const { rows, venue, has_more, next_cursor } = selected.refs;
  const markets = rows.map((ref) => buildRow(ref, statsOf, now_ms));
  return { ok: true, page: { markets, count: markets.length, venue, has_more, next_cursor } };
}
