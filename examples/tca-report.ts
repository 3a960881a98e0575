/**
 * A TCA report of one UTC day, yesterday by default: the day's completed orders as a whole, per
 * venue and per routing version (the `/v1/analytics/tca*` aggregates), then its costliest orders
 * with their own TCA (the order listing).
 *
 *   SEQ_API_KEY=... npx tsx examples/tca-report.ts [--day yesterday|today|YYYY-MM-DD] [--top 5]
 *
 * Costs are in bps, positive = paid: implementation shortfall against the arrival mid, half the
 * arrival spread, fees, impact (the shortfall beyond the half spread); savings are against the
 * best single venue, positive = the split did better. A sandbox key reports sandbox orders.
 */
import { parseArgs } from 'node:util';
import { ok, type components } from '@sequence/client';
import { scriptClient } from '@sequence/client/script';
import { fromScaled } from '@sequence/client/decimal';
import { table } from '@sequence/client/table';

type Order = components['schemas']['OrderRest'];
type Tca = components['schemas']['TcaReport'];

// The client from SEQ_API_KEY and SEQ_BASE_URL; any failure ends the example with its message.
const { api } = scriptClient({ hint: 'export an API key first (examples/README.md says how to get one)' });

const { values: args } = parseArgs({
  options: {
    day: { type: 'string', default: 'yesterday' },
    top: { type: 'string', default: '5' },
  },
});
const DAY_MS = 86_400_000;

/** The start of the UTC day named on the command line, in ms. */
function dayStartMs(text: string): number {
  const todayMs = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  if (text === 'today') return todayMs;
  if (text === 'yesterday') return todayMs - DAY_MS;
  const ms = Date.parse(`${text}T00:00:00Z`);
  // Date.parse rolls some impossible dates over (2026-02-30 is March 2): a real date reads back as typed.
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== text) throw new Error('--day must be yesterday, today or a date (YYYY-MM-DD)');
  return ms;
}

const dayMs = dayStartMs(args.day);
const top = Number(args.top);
if (!(Number.isInteger(top) && top >= 0)) throw new Error('--top must be a whole number');
const day = new Date(dayMs).toISOString().slice(0, 10);
// The aggregates are hourly: a window runs through the end of the hour holding `until`, so the
// day's last millisecond ends it at midnight.
const range = { since: new Date(dayMs).toISOString(), until: new Date(dayMs + DAY_MS - 1).toISOString() };
const usd = (v: number) => fromScaled(v, 9);

// 1. The day as a whole.
const { tca, prediction, is_sandbox } = ok(await api.GET('/v1/analytics/tca', { params: { query: range } }));
console.log(`TCA report for ${day} (UTC, ${is_sandbox ? 'sandbox' : 'live'} orders)`);
if (tca.orders === 0 && prediction.orders === 0) {
  console.log('no completed orders with fills that day');
  process.exit(0);
}
if (tca.orders > 0) {
  const p = tca.shortfall_percentiles_bps;
  console.log(
    `${tca.orders} order(s), ${usd(tca.notional_usd_1e9)} USD filled: shortfall ${tca.avg_implementation_shortfall_bps} bps ` +
      `(spread ${tca.avg_spread_cost_bps}, impact ${tca.avg_impact_bps}), fees ${tca.avg_fee_bps} bps; p50 ${p.p50}, p95 ${p.p95} bps`,
  );
  const won = tca.win_rate === null ? '-' : `${Math.round(tca.win_rate * 100)}%`;
  console.log(`savings vs the best single venue: ${tca.avg_savings_bps} bps, ${usd(tca.total_savings_usd_1e9)} USD, won ${won} of ${tca.benchmarked_orders}`);
}
if (prediction.orders > 0) {
  console.log(`prediction markets: ${prediction.orders} order(s), ${usd(prediction.notional_usd_1e9)} USD, slippage ${prediction.avg_implementation_shortfall_bps} probability bps`);
}

// 2. Per venue: each venue's slices of the orders (its fills).
const { venues } = ok(await api.GET('/v1/analytics/tca/venues', { params: { query: range } }));
console.log('\nper venue');
process.stdout.write(
  table(
    ['venue', 'orders', 'notional USD', 'share', 'shortfall bps', 'impact bps', 'fee bps'],
    venues.map((v) => [v.venue, v.orders, usd(v.notional_usd_1e9), `${Math.round(v.share_of_notional * 100)}%`, v.avg_implementation_shortfall_bps, v.avg_impact_bps, v.avg_fee_bps]),
  ),
);

// 3. Per routing version (each order's is fixed by its id), with the differences between them.
const { versions, comparisons } = ok(await api.GET('/v1/analytics/tca/versions', { params: { query: range } }));
console.log('\nper routing version');
process.stdout.write(
  table(
    ['version', 'orders', 'notional USD', 'shortfall bps', 'fee bps', 'savings bps', 'win rate'],
    versions.map((v) => [v.routing_version, v.orders, usd(v.notional_usd_1e9), v.avg_implementation_shortfall_bps, v.avg_fee_bps, v.avg_savings_bps, v.win_rate]),
  ),
);
for (const c of comparisons) {
  if (c.difference_bps === null || c.ci95_bps === null) continue;
  console.log(`v${c.routing_version} - v${c.baseline_version}: ${c.difference_bps} bps (95% CI ${c.ci95_bps.low} to ${c.ci95_bps.high}${c.significant ? ', significant' : ''})`);
}

// 4. The day's costliest orders. The listing is newest first: walk back page by page to the day's
//    start, at most 20 pages of 1,000.
const orders: Order[] = [];
// Nanosecond timestamps are doubles (past 2^53, as the service writes them): exact to well under a ms.
const sinceNs = dayMs * 1e6;
const untilNs = (dayMs + DAY_MS) * 1e6;
let after: string | undefined;
for (let pages = 0; pages < 20; pages++) {
  const page = ok(await api.GET('/v1/orders', { params: { query: { limit: 1_000, ...(after === undefined ? {} : { after }) } } }));
  orders.push(...page.orders.filter((o) => o.created_unix_ns >= sinceNs && o.created_unix_ns < untilNs));
  const oldest = page.orders.at(-1);
  if (page.next_cursor === null || oldest === undefined || oldest.created_unix_ns < sinceNs) break;
  after = page.next_cursor;
}
const costed = orders.flatMap((order) => (order.tca !== null && order.tca.filled_qty_1e8 > 0 ? [{ order, tca: order.tca }] : []));
const costUsd = (t: Tca) => t.total_cost_bps * Number(t.notional_usd_1e9);
costed.sort((a, b) => costUsd(b.tca) - costUsd(a.tca));
console.log(`\n${orders.length} order(s) created that day, ${costed.length} with TCA; the costliest ${Math.min(top, costed.length)}:`);
process.stdout.write(
  table(
    ['order', 'symbol', 'side', 'v', 'notional USD', 'total cost bps', 'shortfall bps', 'fee bps', 'savings bps', 'venues'],
    costed
      .slice(0, top)
      .map(({ order: o, tca: t }) => [o.node_order_id, o.symbol, o.side, o.routing_version, usd(t.notional_usd_1e9), t.total_cost_bps, t.implementation_shortfall_bps, t.fee_bps, t.savings_vs_best_single_venue_bps, t.venues.map((v) => v.venue).join(',')]),
  ),
);
