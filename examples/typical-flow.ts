/**
 * The spec's typical flow, one step after another: discover symbols, check edges, get a quote,
 * submit an order, track its fills on the stream, check positions.
 *
 *   SEQ_API_KEY=sqk_test_... npx tsx examples/typical-flow.ts [--symbol BTC-USDT] [--side buy] [--qty 0.01] [--timeout 15]
 *
 * A sandbox account holds nothing until it is reset (examples/paper-trading.ts resets it, or
 * `npm run cli -- sandbox reset`); a live account trades on the venues it stored credentials for.
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { ok, ServiceStream, type components } from '@sequence/client';
import { scriptClient } from '@sequence/client/script';
import { fromScaled, toScaled, wire } from '@sequence/client/decimal';
import { table } from '@sequence/client/table';

type Order = components['schemas']['OrderRest'];
type Fill = components['schemas']['FillRecord'];

// The client from SEQ_API_KEY and SEQ_BASE_URL; any failure ends the example with its message.
const { api, baseUrl } = scriptClient({ hint: 'export an API key first (examples/README.md says how to get one)' });

const { values: args } = parseArgs({
  options: {
    symbol: { type: 'string', default: 'BTC-USDT' },
    side: { type: 'string', default: 'buy' },
    qty: { type: 'string', default: '0.01' },
    timeout: { type: 'string', default: '15' },
  },
});
if (args.side !== 'buy' && args.side !== 'sell') throw new Error('--side must be buy or sell');
const side = args.side;
const qty = toScaled('qty', args.qty, 8);
const timeoutMs = Number(args.timeout) * 1_000;
if (!(timeoutMs > 0)) throw new Error('--timeout must be a positive number of seconds');
const TERMINAL = new Set(['COMPLETED', 'CANCELLED', 'REJECTED', 'UNRESOLVED']);

// 1. Discover symbols: every instrument and the venues listing it.
const { symbols } = ok(await api.GET('/v1/symbols'));
const listing = symbols.find((s) => s.symbol === args.symbol);
if (listing === undefined) throw new Error(`${args.symbol} is not listed (${symbols.length} instruments are)`);
console.log(`1. ${symbols.length} instruments; ${listing.symbol} (${listing.instrument_type}) on ${listing.venues.map((v) => v.venue).join(', ')}`);

// 2. Check edges: the connectors to the venues, and whether they are up.
const edges = ok(await api.GET('/v1/edges'));
const down = edges.filter((e) => !e.connected).map((e) => e.edge_id);
console.log(`2. ${edges.length - down.length} of ${edges.length} edges connected${down.length > 0 ? ` (down: ${down.join(', ')})` : ''}`);

// 3. Get a quote: the NBBO across venues and each venue's best bid and offer.
const quote = ok(await api.GET('/v1/quotes/{symbol}', { params: { path: { symbol: listing.symbol }, query: { depth: 5 } } }));
console.log(`3. ${quote.symbol} NBBO ${quote.nbbo.bid} / ${quote.nbbo.ask} (spread ${quote.nbbo.spread_bps} bps, source ${quote.source})`);
const venueRows = Object.entries(quote.venues).map(([venue, q]) => [venue, q.bid, q.ask, q.bid_size, q.ask_size, q.age_ms]);
process.stdout.write(table(['venue', 'bid', 'ask', 'bid size', 'ask size', 'age ms'], venueRows));

// Before submitting, subscribe to the account's orders and fills, so no event of the order can
// come before the subscription. Every fill of the account is printed as it comes.
const clientOrderId = `typical-${randomUUID()}`;
let final: Order | undefined;
const fills: Fill[] = [];
const stream = new ServiceStream({
  client: api,
  baseUrl,
  onFrame(frame) {
    if (frame.channel === 'fills') {
      const fill = frame.data as Fill;
      fills.push(fill);
      console.log(`   fill on ${fill.venue}: ${fromScaled(fill.qty_1e8, 8)} @ ${fromScaled(fill.price_1e9, 9)}, fee ${fromScaled(fill.fee_1e9, 9)} USD`);
    } else if (frame.channel === 'orders') {
      const order = frame.data as Order;
      if (order.client_order_id === clientOrderId && TERMINAL.has(order.status)) final = order;
    }
  },
});
stream.subscribe(['orders', 'fills']);
await stream.connect();

try {
  // 4. Submit: the smart order router picks the venues and splits the quantity.
  const placed = ok(
    await api.POST('/v1/orders', {
      body: { client_order_id: clientOrderId, symbol: listing.symbol, side, order_type: 'market', qty_1e8: wire(qty) },
    }),
  );
  console.log(`4. submitted ${side} ${fromScaled(qty, 8)} ${listing.symbol}: ${placed.node_order_id} ${placed.status} (routing version ${placed.routing_version})`);

  // 5. Track fills: wait until the order is terminal and every fill it reports has arrived (a
  //    fill and the order's last state travel as separate frames), then read it with its TCA.
  const deadline = Date.now() + timeoutMs;
  const filledOnStream = () => fills.filter((f) => f.node_order_id === placed.node_order_id).reduce((sum, f) => sum + BigInt(f.qty_1e8), 0n);
  while (!(final !== undefined && filledOnStream() >= BigInt(final.filled_qty_1e8)) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const order = ok(await api.GET('/v1/orders/{node_order_id}', { params: { path: { node_order_id: placed.node_order_id }, query: { expand: 'fills' } } }));
  console.log(`5. ${order.status}: filled ${fromScaled(order.filled_qty_1e8, 8)} of ${fromScaled(order.qty_1e8, 8)} in ${order.fills?.length ?? 0} fill(s)`);
  if (order.status === 'REJECTED' || order.filled_qty_1e8 === 0) {
    console.error(`   nothing filled: ${order.failure_class ?? order.status} ${order.failure_reason ?? ''}`);
    console.error('   (a sandbox account is empty until reset; a live one needs venue credentials)');
    process.exitCode = 1;
  }
  if (order.tca !== null) {
    const t = order.tca;
    const savings = t.savings_vs_best_single_venue_bps === null ? 'no benchmark' : `${t.savings_vs_best_single_venue_bps} bps vs ${t.best_single_venue?.venue}`;
    console.log(`   TCA: VWAP ${fromScaled(t.achieved_vwap_1e9, 9)}, shortfall ${t.implementation_shortfall_bps} bps, fees ${t.fee_bps} bps, savings ${savings}`);
  }

  // 6. Check positions: the traded asset on each venue, and the account's totals.
  const { positions, totals } = ok(await api.GET('/v1/positions', { params: { query: { kinds: 'crypto' } } }));
  const held = positions.filter((p) => p.instrument.kind === 'crypto' && p.instrument.symbol === listing.base);
  const rows = held.map((p) => [p.venue, fromScaled(p.qty_1e8, 8), fromScaled(p.entry_price_usd_1e9, 9), fromScaled(p.unrealized_pnl_usd_1e9, 9)]);
  console.log(`6. ${listing.base} positions:`);
  process.stdout.write(table(['venue', 'qty', 'entry USD', 'unrealized USD'], rows));
  console.log(`   NAV ${fromScaled(totals.nav_usd_1e9, 9)} USD, fees ${fromScaled(totals.fees_usd_1e9, 9)} USD`);
} finally {
  stream.close();
}
