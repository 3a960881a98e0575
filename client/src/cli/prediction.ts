import { ApiError, ok } from '../errors.ts';
import type { operations } from '../index.ts';
import { oneOf, positiveInt } from './args.ts';
import { output, type Command, type Context, type Schemas } from './context.ts';
import { table } from './table.ts';

type Market = Schemas['Market'];
type Quote = Schemas['QuoteResponse'];
type MarketsQuery = NonNullable<operations['listMarkets']['parameters']['query']>;

const VENUES = ['polymarket', 'kalshi'] as const satisfies readonly Market['venue'][];
const SORTS = ['volume', 'volume_total', 'end_date', 'start_date', 'created', 'competitive', 'closed_time'] as const satisfies readonly NonNullable<MarketsQuery['order']>[];
/** `--status`: the listing's `active` and `closed` pair as one word (spec, Markets listing rule 2). */
const STATUS = {
  trading: { active: true, closed: false },
  all: { active: true, closed: true },
  resolved: { active: false, closed: true },
} as const;
const STATUS_WORDS = Object.keys(STATUS) as (keyof typeof STATUS)[];

const cut = (text: string, width: number) => (text.length > width ? `${text.slice(0, width - 1)}…` : text);
const pct = (ratio: number | null) => (ratio === null ? '-' : `${(ratio * 100).toFixed(1)}%`);
const when = (iso: string) => iso.slice(0, 16).replace('T', ' ');
const usd = (n: number) => `$${Math.round(n).toString()}`;

function marketsTable(page: Schemas['MarketsPage']): string {
  const more = page.has_more && page.next_cursor !== null ? `; more: --cursor ${page.next_cursor}` : '';
  return (
    table(
      ['slug', 'question', 'yes bid', 'yes ask', 'no bid', 'no ask', 'spread', 'vol 24h', 'ends', 'status'],
      page.markets.map((m) => [m.slug, cut(m.question, 50), m.best_yes_bid, m.best_yes_ask, m.best_no_bid, m.best_no_ask, pct(m.spread_pct), usd(m.volume_24h), when(m.end_date), m.status]),
    ) + `${page.count} ${page.venue} markets${more}\n`
  );
}

const markets: Command = {
  path: ['markets'],
  args: [],
  options: ['venue', 'search', 'tag', 'status', 'sort', 'limit', 'cursor', 'outcomes'],
  synopsis: `[--venue ${VENUES.join('|')}] [--search TEXT] [--tag T] [--status ${STATUS_WORDS.join('|')}] [--sort ${SORTS.join('|')}] [--limit N] [--cursor C] [--outcomes]`,
  summary: 'prediction markets of one venue (default polymarket, trading ones); --outcomes lists each outcome of a multi-outcome event as its own row',
  async run(ctx, _args, flags) {
    const venue = oneOf('venue', flags.venue, VENUES);
    const status = oneOf('status', flags.status, STATUS_WORDS);
    const order = oneOf('sort', flags.sort, SORTS);
    const limit = positiveInt('limit', flags.limit);
    const query: MarketsQuery = {
      ...(venue === undefined ? {} : { venue }),
      ...(flags.search === undefined ? {} : { q: flags.search }),
      ...(flags.tag === undefined ? {} : { tag: flags.tag }),
      ...(status === undefined ? {} : STATUS[status]),
      ...(order === undefined ? {} : { order }),
      ...(limit === undefined ? {} : { limit }),
      ...(flags.cursor === undefined ? {} : { cursor: flags.cursor }),
      ...(flags.outcomes === true ? { expand: 'outcomes' as const } : {}),
    };
    return output(ctx, ok(await ctx.api.GET('/v1/markets', { params: { query } })), marketsTable);
  },
};

/** A market found by name: its rows (one, or each outcome of an event) and, for one binary market, its quote. */
interface MarketView {
  markets: Market[];
  quote: Quote | null;
}

/**
 * The rows a slug or ticker names. Without `--venue` both venues are asked at once (a name
 * belongs to one of them; the listing answers 404 on the other). Every status is included, so a
 * resolved market is still found; outcomes are expanded, and a name that is one outcome of an
 * event keeps that outcome's row alone.
 */
async function findMarket(ctx: Context, name: string, venue: Market['venue'] | undefined): Promise<Market[]> {
  const lookups = (venue === undefined ? VENUES : [venue]).map(async (v) => {
    const query: MarketsQuery = { venue: v, slug: name, ...STATUS.all, expand: 'outcomes', limit: 500 };
    try {
      return ok(await ctx.api.GET('/v1/markets', { params: { query } })).markets;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return err;
      throw err;
    }
  });
  const answers = await Promise.all(lookups);
  const rows = answers.flatMap((a) => (a instanceof ApiError ? [] : a));
  const notFound = answers.find((a): a is ApiError => a instanceof ApiError);
  if (rows.length === 0) throw notFound ?? new ApiError(404, 'NOT_FOUND', `no market or event has slug or ticker ${name}`, undefined, undefined);
  const named = rows.filter((m) => m.slug === name);
  return named.length === 1 ? named : rows;
}

/** The quote of a binary market's YES leg, or null when the service has no book data for it (404). */
async function quoteOf(ctx: Context, m: Market): Promise<Quote | null> {
  const answer = await ctx.api.GET('/v1/quotes/{symbol}', { params: { path: { symbol: m.symbol }, query: { instrument_type: 'prediction' } } });
  return answer.response.status === 404 ? null : ok(answer);
}

function marketDetail(m: Market, q: Quote | null): string {
  const lines = [
    m.question,
    `  ${m.venue} ${m.slug}  ${m.status}  ${when(m.start_date)} -> ${when(m.end_date)}  volume 24h ${usd(m.volume_24h)}, total ${usd(m.volume_total)}`,
    `  symbol ${m.symbol}${m.no_token_id === null ? '' : `  (NO token ${m.no_token_id})`}`,
    `  YES ${m.best_yes_bid ?? '-'} / ${m.best_yes_ask ?? '-'}  NO ${m.best_no_bid ?? '-'} / ${m.best_no_ask ?? '-'}  spread ${pct(m.spread_pct)}`,
    ...m.equivalents.map((e) => `  on ${e.venue}: ${e.symbol} (${e.relation})`),
  ];
  if (q === null) lines.push('  quote: no book data');
  else {
    const n = q.nbbo;
    lines.push(`  quote (${q.source}): bid ${n.bid} x ${n.bid_size}  ask ${n.ask} x ${n.ask_size}  mid ${n.mid}  spread ${n.spread_bps} bps`);
  }
  return `${lines.join('\n')}\n${m.url === '' ? '' : `  ${m.url}\n`}`;
}

function outcomesTable(rows: readonly Market[]): string {
  return (
    table(
      ['outcome', 'slug', 'yes bid', 'yes ask', 'vol 24h', 'status'],
      rows.map((m) => [cut(m.outcome_name ?? m.raw_outcome_name ?? m.question, 50), m.slug, m.best_yes_bid, m.best_yes_ask, usd(m.volume_24h), m.status]),
    ) + `${rows.length} outcomes; seq market <slug> for one with its quote\n`
  );
}

const market: Command = {
  path: ['market'],
  args: ['<slug-or-ticker>'],
  options: ['venue'],
  synopsis: `[--venue ${VENUES.join('|')}]`,
  summary: "a prediction market and its YES leg's quote; an event's name lists its outcomes",
  async run(ctx, [name], flags) {
    const rows = await findMarket(ctx, name!, oneOf('venue', flags.venue, VENUES));
    const only = rows.length === 1 && rows[0]!.yes_token_id !== null ? rows[0]! : undefined;
    const view: MarketView = { markets: rows, quote: only === undefined ? null : await quoteOf(ctx, only) };
    return output(ctx, view, (v) => (only === undefined ? outcomesTable(v.markets) : marketDetail(only, v.quote)));
  },
};

const settlement: Command = {
  path: ['market', 'settlement'],
  args: ['<slug-or-ticker>'],
  options: [],
  summary: 'settlement state of a prediction market: status, outcome, final prices',
  async run(ctx, [name]) {
    return output(ctx, ok(await ctx.api.GET('/v1/settlement/{slug}', { params: { path: { slug: name! } } })), (s) => {
      const u = s.underlying;
      return (
        `${s.question}\n  ${s.slug}  ${s.status}${s.resolved_outcome === null ? '' : `: ${s.resolved_outcome}`} (source ${s.outcome_source})  YES ${s.yes_price ?? '-'}  NO ${s.no_price ?? '-'}\n` +
        `  window ${new Date(s.event_start_s * 1000).toISOString()} -> ${new Date(s.event_end_s * 1000).toISOString()}\n` +
        (u === undefined ? '' : `  underlying ${u.symbol} (${u.source}): anchor ${u.anchor_price_usd ?? '-'}, final ${u.final_price_usd ?? '-'}, agrees ${u.agrees_with_settlement ?? '-'}\n`)
      );
    });
  },
};

const redeem: Command = {
  path: ['market', 'redeem'],
  args: ['<slug-or-ticker>'],
  options: ['venue'],
  synopsis: `[--venue ${VENUES.join('|')}]`,
  summary: 'redeem your resolved positions of a market (or of every market of an event)',
  async run(ctx, [name], flags) {
    const venue = oneOf('venue', flags.venue, VENUES);
    const answer = ok(await ctx.api.POST('/v1/markets/{slug}/redeem', { params: { path: { slug: name! }, query: venue === undefined ? {} : { venue } } }));
    return output(ctx, answer, (r) => `${r.venue} ${r.slug}: ${r.mode}${r.note === '' ? '' : ` (${r.note})`}\n`);
  },
};

export const predictionCommands: readonly Command[] = [markets, market, settlement, redeem];
