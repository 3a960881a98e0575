import { ok } from '../errors.ts';
import { oneOf, positiveInt, type Flags } from './args.ts';
import { output, type Command, type Schemas } from './context.ts';
import { table, type Cell } from './table.ts';
import { timeQuery } from './time.ts';

type Tca = Schemas['TcaSummary'];
type Headline = Schemas['TcaPeriodReport']['headline'];
type ReportOrder = Schemas['TcaPeriodReport']['best_orders'][number];

const bps = (v: number | null) => (v === null ? '-' : v.toFixed(2));
const rate = (v: number | null) => (v === null ? '-' : `${(v * 100).toFixed(1)}%`);
const ms = (v: number | null) => (v === null ? '-' : String(Math.round(v)));
/** A summed size as the service sends it is a double sum (2.2075617800000003): shown to the 1e-8 the venues quote in. */
const size = (v: number) => String(Number(v.toFixed(8)));

/** USD 1e9 to the cent, rounded half away from zero by integer arithmetic (a summary, not a ledger). */
function usd(v: number | bigint): string {
  const big = BigInt(v);
  const cents = ((big < 0n ? -big : big) + 5_000_000n) / 10_000_000n;
  return `${big < 0n ? '-' : ''}$${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;
}

/** The window every analytics answer reports back (whole UTC hours). */
function windowLine(d: { since: string; until: string; symbol: string | null; is_sandbox: boolean }): string {
  return `${d.is_sandbox ? 'sandbox' : 'live'} orders, ${d.since} to ${d.until}${d.symbol === null ? '' : `, ${d.symbol}`}\n`;
}

/** `--symbol`, `--since`, `--until` (`24h` = 24 hours ago): the window filters the analytics endpoints share. */
function windowQuery(flags: Flags): { symbol?: string; since?: string; until?: string } {
  const since = timeQuery(flags.since);
  const until = timeQuery(flags.until);
  return { ...(flags.symbol === undefined ? {} : { symbol: flags.symbol }), ...(since === undefined ? {} : { since }), ...(until === undefined ? {} : { until }) };
}

function routingVersion(flags: Flags): { routing_version?: number } {
  const v = oneOf('routing-version', flags['routing-version'], ['1', '2', '3'] as const);
  return v === undefined ? {} : { routing_version: Number(v) };
}

const WINDOW = ['symbol', 'since', 'until'] as const;
const WINDOW_SYNOPSIS = '[--symbol S] [--since 24h|ISO] [--until ISO]';

const execution: Command = {
  path: ['analytics', 'execution'],
  args: [],
  options: [...WINDOW, 'routing-version'],
  synopsis: `${WINDOW_SYNOPSIS} [--routing-version 1|2|3]`,
  summary: 'your orders that ended in the window (default 30 days): fill and reject rates, volume, latency percentiles, slippage and savings',
  async run(ctx, _args, flags) {
    const query = { ...windowQuery(flags), ...routingVersion(flags) };
    return output(ctx, ok(await ctx.api.GET('/v1/analytics/execution', { params: { query } })), (d) => {
      const o = d.orders;
      const q = d.execution_quality;
      const l = d.latency;
      return (
        windowLine(d) +
        `orders: ${o.submitted} ended, ${o.filled} filled (${rate(o.fill_rate)}), ${o.completed} completed, ${o.cancelled} cancelled, ${o.rejected} rejected (${rate(o.reject_rate)}), ${o.unresolved} unresolved\n` +
        `fills: ${d.fills.count}, volume ${usd(d.fills.volume_usd_1e9)}\n` +
        table(
          ['latency ms', 'p50', 'p95', 'p99'],
          [
            ['ack', ms(l.ack.p50), ms(l.ack.p95), ms(l.ack.p99)],
            ['first fill', ms(l.first_fill.p50), ms(l.first_fill.p95), ms(l.first_fill.p99)],
            ['completion', ms(l.completion.p50), ms(l.completion.p95), ms(l.completion.p99)],
          ],
        ) +
        `quality: slippage ${bps(q.avg_slippage_bps)} bps, savings vs best single venue ${bps(q.avg_savings_bps)} bps (${usd(q.total_savings_usd_1e9)} in all), ` +
        `average execution ${ms(q.avg_execution_time_ms)} ms${q.avg_prediction_slippage_bps === null ? '' : `; prediction slippage ${bps(q.avg_prediction_slippage_bps)} probability bps`}\n`
      );
    });
  },
};

const venues: Command = {
  path: ['analytics', 'venues'],
  args: [],
  options: [...WINDOW],
  synopsis: WINDOW_SYNOPSIS,
  summary: 'per venue: legs sent, acknowledged, filled, rejected, ack latency and a quality score',
  async run(ctx, _args, flags) {
    return output(ctx, ok(await ctx.api.GET('/v1/analytics/venues', { params: { query: windowQuery(flags) } })), (d) =>
      windowLine(d) +
      table(
        ['venue', 'sent', 'acked', 'filled', 'rejected', 'fill rate', 'reject rate', 'ack ms', 'score'],
        d.venues.map((v) => [v.venue, v.sent, v.acked, v.filled, v.rejected, rate(v.fill_rate), rate(v.reject_rate), ms(v.avg_ack_latency_ms), v.quality_score === null ? '-' : v.quality_score.toFixed(1)]),
      ),
    );
  },
};

function tcaBlock(t: Tca, unit: string): string {
  const p = t.shortfall_percentiles_bps;
  const fees = t.avg_fee_bps === null ? '' : ` (${bps(t.avg_fee_bps)} ${unit})`;
  return (
    `  ${t.orders} orders, notional ${usd(t.notional_usd_1e9)}, fees ${usd(t.fees_usd_1e9)}${fees}\n` +
    `  shortfall ${bps(t.avg_implementation_shortfall_bps)} ${unit} (spread ${bps(t.avg_spread_cost_bps)}, impact ${bps(t.avg_impact_bps)}); p50 ${bps(p.p50)}, p75 ${bps(p.p75)}, p95 ${bps(p.p95)}, p99 ${bps(p.p99)}\n` +
    `  vs best single venue: ${bps(t.avg_savings_bps)} ${unit}, ${usd(t.total_savings_usd_1e9)} saved, win rate ${rate(t.win_rate)} of ${t.benchmarked_orders} benchmarked\n` +
    `  observed: ${t.provenance.direct} direct, ${t.provenance.reconstructed} reconstructed, ${t.provenance.no_benchmark} without a benchmark\n`
  );
}

const tca: Command = {
  path: ['analytics', 'tca'],
  args: [],
  options: [...WINDOW, 'venue', 'routing-version'],
  synopsis: `${WINDOW_SYNOPSIS} [--venue V] [--routing-version 1|2|3]`,
  summary: 'TCA of your completed orders: notional-weighted shortfall, percentiles, fees, savings vs the best single venue, win rate',
  async run(ctx, _args, flags) {
    const query = { ...windowQuery(flags), ...routingVersion(flags), ...(flags.venue === undefined ? {} : { venue: flags.venue }) };
    return output(ctx, ok(await ctx.api.GET('/v1/analytics/tca', { params: { query } })), (d) => {
      const scope = [d.venue === null ? '' : `on ${d.venue}`, d.routing_version === null ? '' : `routing v${d.routing_version}`].filter((s) => s !== '').join(', ');
      return (
        windowLine(d) +
        `price orders${scope === '' ? '' : ` (${scope})`}\n${tcaBlock(d.tca, 'bps')}` +
        (d.prediction.orders === 0 ? '' : `prediction orders\n${tcaBlock(d.prediction, 'probability bps')}`)
      );
    });
  },
};

/** The columns of a per-venue, per-version or per-symbol TCA row. */
const TCA_COLUMNS = ['orders', 'notional', 'shortfall bps', 'spread', 'impact', 'fee bps', 'savings bps', 'win rate'] as const;
const tcaCells = (t: Tca): Cell[] => [t.orders, usd(t.notional_usd_1e9), bps(t.avg_implementation_shortfall_bps), bps(t.avg_spread_cost_bps), bps(t.avg_impact_bps), bps(t.avg_fee_bps), bps(t.avg_savings_bps), rate(t.win_rate)];

const tcaVenues: Command = {
  path: ['analytics', 'tca', 'venues'],
  args: [],
  options: [...WINDOW],
  synopsis: WINDOW_SYNOPSIS,
  summary: "TCA attributed per venue: each venue's slices of your orders, largest notional first",
  async run(ctx, _args, flags) {
    return output(ctx, ok(await ctx.api.GET('/v1/analytics/tca/venues', { params: { query: windowQuery(flags) } })), (d) =>
      windowLine(d) + table(['venue', 'share', ...TCA_COLUMNS], d.venues.map((v) => [v.venue, rate(v.share_of_notional), ...tcaCells(v)])),
    );
  },
};

const HEADLINE: readonly [string, (h: Headline) => Cell, string | undefined][] = [
  ['orders', (h) => h.orders, 'orders'],
  ['fill rate', (h) => rate(h.fill_rate), undefined],
  ['notional', (h) => usd(h.notional_usd_1e9), 'notional_usd'],
  ['shortfall bps', (h) => bps(h.avg_implementation_shortfall_bps), 'avg_implementation_shortfall_bps'],
  ['p95 shortfall bps', (h) => bps(h.p95_shortfall_bps), 'p95_shortfall_bps'],
  ['savings bps', (h) => bps(h.avg_savings_bps), 'avg_savings_bps'],
  ['total savings', (h) => usd(h.total_savings_usd_1e9), 'total_savings_usd'],
  ['win rate', (h) => rate(h.win_rate), 'win_rate'],
  ['fees', (h) => usd(h.fees_usd_1e9), undefined],
  ['fee bps', (h) => bps(h.avg_fee_bps), 'avg_fee_bps'],
];

function ordersTable(title: string, orders: readonly ReportOrder[]): string {
  if (orders.length === 0) return '';
  return `\n${title}\n${table(
    ['order', 'symbol', 'side', 'routing', 'notional', 'shortfall bps', 'cost', 'savings bps'],
    orders.map((o) => [o.node_order_id, o.symbol, o.side, `v${o.routing_version}`, usd(o.notional_usd_1e9), bps(o.shortfall_bps), usd(o.shortfall_cost_usd_1e9), bps(o.savings_bps)]),
  )}`;
}

const report: Command = {
  path: ['analytics', 'report'],
  args: [],
  options: ['period', 'symbol', 'until'],
  synopsis: '[--period week|month] [--symbol S] [--until ISO]',
  summary: 'TCA report of the last week (or month) against the one before: headline figures, worst and best orders, by venue',
  async run(ctx, _args, flags) {
    const period = oneOf('period', flags.period, ['week', 'month'] as const);
    const until = timeQuery(flags.until);
    const query = { ...(period === undefined ? {} : { period }), ...(until === undefined ? {} : { until }), ...(flags.symbol === undefined ? {} : { symbol: flags.symbol }) };
    return output(ctx, ok(await ctx.api.GET('/v1/analytics/tca/report', { params: { query } })), (d) => {
      const change = (key: string | undefined) => {
        const c = key === undefined ? undefined : d.comparison[key];
        return c === undefined || c.change_pct === null ? '-' : `${c.change_pct >= 0 ? '+' : ''}${c.change_pct.toFixed(1)}%`;
      };
      return (
        `${d.period} ${d.since} to ${d.until}${d.symbol === null ? '' : `, ${d.symbol}`} (${d.is_sandbox ? 'sandbox' : 'live'}), against ${d.previous.since} to ${d.previous.until}\n` +
        table(['', 'this period', 'previous', 'change'], HEADLINE.map(([label, f, key]) => [label, f(d.headline), f(d.previous_headline), change(key)])) +
        ordersTable('worst orders (shortfall cost)', d.worst_orders) +
        ordersTable('best orders', d.best_orders) +
        (d.venues.length === 0 ? '' : `\nby venue\n${table(['venue', 'share', ...TCA_COLUMNS], d.venues.map((v) => [v.venue, rate(v.share_of_notional), ...tcaCells(v)]))}`)
      );
    });
  },
};

const market: Command = {
  path: ['analytics', 'market'],
  args: ['<symbol>'],
  options: ['depth'],
  synopsis: '[--depth N]',
  summary: 'a book at a glance: mid, spread, depth on each side over N levels, imbalance, top of book per venue',
  async run(ctx, [symbol], flags) {
    const depth = positiveInt('depth', flags.depth);
    const query = depth === undefined ? {} : { depth };
    return output(ctx, ok(await ctx.api.GET('/v1/analytics/market/{symbol}', { params: { path: { symbol: symbol! }, query } })), (d) => {
      const venueRows = Object.entries(d.venues).sort(([a], [b]) => a.localeCompare(b));
      return (
        `${d.symbol}  mid ${d.mid}  spread ${d.spread} (${bps(d.spread_bps)} bps)  imbalance ${d.imbalance >= 0 ? '+' : ''}${d.imbalance.toFixed(3)}\n` +
        `depth over ${d.depth_levels} levels: bids ${size(d.bid_depth)} (${d.bid_depth_notional.toFixed(2)} quote), asks ${size(d.ask_depth)} (${d.ask_depth_notional.toFixed(2)} quote)\n` +
        table(['venue', 'bid size', 'bid', 'ask', 'ask size', 'age ms'], [['NBBO', d.nbbo.bid_size, d.nbbo.bid, d.nbbo.ask, d.nbbo.ask_size, undefined], ...venueRows.map(([venue, v]) => [venue, v.bid_size, v.bid, v.ask, v.ask_size, v.age_ms])])
      );
    });
  },
};

export const analyticsCommands: readonly Command[] = [execution, venues, tca, tcaVenues, report, market];
