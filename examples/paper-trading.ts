/**
 * A paper-trading session on a sandbox key: reset the account, buy at market, sell half back with
 * a limit IOC, rest a limit buy below the market and cancel it, watching orders and fills on the
 * stream, then read the PnL. Sandbox orders fill against the real books without changing them.
 *
 *   SEQ_API_KEY=sqk_test_... npx tsx examples/paper-trading.ts [--symbol BTC-USDT] [--qty 0.02] [--timeout 15]
 *
 * The reset deletes every sandbox position of the account (a live key is refused with 403).
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { ok, ServiceStream, type components } from '@sequence/client';
import { scriptClient } from '@sequence/client/script';
import { fromScaled, toScaled, wire } from '@sequence/client/decimal';
import { table } from '@sequence/client/table';

type Order = components['schemas']['OrderRest'];
type Fill = components['schemas']['FillRecord'];
type OrderRequest = components['schemas']['OrderRequest'];

// The client from SEQ_API_KEY and SEQ_BASE_URL; any failure ends the example with its message.
const { api, baseUrl } = scriptClient({ hint: 'export a sandbox key (sqk_test_...) first (examples/README.md says how to get one)' });

const { values: args } = parseArgs({
  options: {
    symbol: { type: 'string', default: 'BTC-USDT' },
    qty: { type: 'string', default: '0.02' },
    timeout: { type: 'string', default: '15' },
  },
});
const qty = BigInt(toScaled('qty', args.qty, 8));
const timeoutMs = Number(args.timeout) * 1_000;
if (!(timeoutMs > 0)) throw new Error('--timeout must be a positive number of seconds');
const TERMINAL = new Set(['COMPLETED', 'CANCELLED', 'REJECTED', 'UNRESOLVED']);

// 1. Reset: no positions, then the default balance of every quote asset on every venue.
const reset = ok(await api.POST('/v1/sandbox/reset'));
console.log(`reset: ${reset.initial_balance_usd} USD of each quote asset on ${reset.venues_seeded.join(', ')}`);

// 2. The stream: every state of our orders and every fill, printed as they come.
const latest = new Map<string, Order>();
const stream = new ServiceStream({
  client: api,
  baseUrl,
  onFrame(frame) {
    if (frame.channel === 'orders') {
      const order = frame.data as Order;
      latest.set(order.node_order_id, order);
      console.log(`  [orders] ${order.node_order_id} ${order.status}, filled ${fromScaled(order.filled_qty_1e8, 8)}/${fromScaled(order.qty_1e8, 8)}`);
    } else if (frame.channel === 'fills') {
      const fill = frame.data as Fill;
      const role = fill.is_maker ? 'maker' : 'taker';
      console.log(`  [fills]  ${fill.node_order_id} ${fill.side} ${fromScaled(fill.qty_1e8, 8)} @ ${fromScaled(fill.price_1e9, 9)} on ${fill.venue} (${role}, fee ${fromScaled(fill.fee_1e9, 9)} USD)`);
    }
  },
});
stream.subscribe(['orders', 'fills']);
await stream.connect();

/** Submits an order (a fresh client_order_id each) and answers its id. */
async function submit(what: string, request: Omit<OrderRequest, 'client_order_id'>): Promise<string> {
  console.log(`${what}:`);
  return ok(await api.POST('/v1/orders', { body: { client_order_id: `paper-${randomUUID()}`, ...request } })).node_order_id;
}

/** The order once its latest state on the stream passes `done`. */
async function waitFor(id: string, done: (o: Order) => boolean): Promise<Order> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
    const order = latest.get(id);
    if (order !== undefined && done(order)) return order;
  }
  throw new Error(`${id} is still ${latest.get(id)?.status ?? 'unseen'} after ${args.timeout} s`);
}
const terminal = (o: Order) => TERMINAL.has(o.status);

try {
  // Limit prices are whole ticks of the coarsest venue: the ticks are powers of ten, so that is a
  // whole tick on every venue listing the symbol. The quote's prices are decimals (the spec's
  // exception), read once into 1e9 integers.
  const { symbols } = ok(await api.GET('/v1/symbols'));
  const listing = symbols.find((s) => s.symbol === args.symbol);
  if (listing === undefined) throw new Error(`${args.symbol} is not listed`);
  const tick = BigInt(Math.max(...listing.venues.map((v) => v.tick_1e9)));
  const quote = ok(await api.GET('/v1/quotes/{symbol}', { params: { path: { symbol: listing.symbol } } }));
  const bid = BigInt(Math.round(quote.nbbo.bid * 1e9));
  const ticksBelowBid = (bps: bigint) => ((bid * (10_000n - bps)) / 10_000n / tick) * tick;

  // 3. A market buy: taken from the best offers across venues.
  await waitFor(await submit(`market buy ${fromScaled(qty, 8)}`, { symbol: listing.symbol, side: 'buy', order_type: 'market', qty_1e8: wire(qty) }), terminal);

  // 4. A limit sell of half, IOC: takes the bids down to 0.1% under the best one, never rests.
  const sellPrice = ticksBelowBid(10n);
  const sell = await submit(`limit IOC sell ${fromScaled(qty / 2n, 8)} at ${fromScaled(sellPrice, 9)}`, {
    symbol: listing.symbol,
    side: 'sell',
    order_type: 'limit',
    time_in_force: 'ioc',
    qty_1e8: wire(qty / 2n),
    limit_price_1e9: wire(sellPrice),
  });
  await waitFor(sell, terminal);

  // 5. A limit buy 2% under the market (GTC): it rests on a venue's book, then we cancel it.
  const restPrice = ticksBelowBid(200n);
  const buy = await submit(`limit GTC buy ${fromScaled(qty / 2n, 8)} at ${fromScaled(restPrice, 9)}`, {
    symbol: listing.symbol,
    side: 'buy',
    order_type: 'limit',
    time_in_force: 'gtc',
    qty_1e8: wire(qty / 2n),
    limit_price_1e9: wire(restPrice),
  });
  const resting = await waitFor(buy, (o) => o.venue_state === 'open' || terminal(o));
  if (!terminal(resting)) {
    console.log(`cancel ${buy} (resting on ${resting.children.map((c) => c.venue).join(', ')}):`);
    ok(await api.DELETE('/v1/orders/{node_order_id}', { params: { path: { node_order_id: buy } } }));
    await waitFor(buy, terminal);
  }

  // 6. PnL: the asset on each venue it was traded on, and the account's totals.
  const { positions, totals } = ok(await api.GET('/v1/positions'));
  const held = positions.filter((p) => p.instrument.kind === 'crypto' && p.instrument.symbol === listing.base);
  console.log(`\n${listing.base} positions:`);
  const usd = (v: number | undefined) => fromScaled(v, 9);
  process.stdout.write(
    table(
      ['venue', 'qty', 'entry', 'mark', 'unrealized USD', 'realized USD', 'fees USD'],
      held.map((p) => [p.venue, fromScaled(p.qty_1e8, 8), usd(p.entry_price_usd_1e9), usd(p.current_price_usd_1e9), usd(p.unrealized_pnl_usd_1e9), usd(p.realized_pnl_usd_1e9), usd(p.fees_usd_1e9)]),
    ),
  );
  console.log(`account: unrealized ${usd(totals.unrealized_pnl_usd_1e9)} USD, realized ${usd(totals.realized_pnl_usd_1e9)} USD, fees ${usd(totals.fees_usd_1e9)} USD`);
} finally {
  stream.close();
}
