import { randomUUID } from 'node:crypto';
import { ok } from '../errors.ts';
import { oneOf, positiveInt, required, UsageError, type Flags } from './args.ts';
import { EXIT, isoNs, output, printJson, type Command, type Context, type Schemas } from './context.ts';
import { fromScaled, toScaled, wire } from './decimal.ts';
import { table } from './table.ts';

type Order = Schemas['OrderRest'];
type OrderRequest = Schemas['OrderRequest'];

/** docs/order-states.md: the statuses an order never leaves. */
const TERMINAL: ReadonlySet<Order['status']> = new Set(['COMPLETED', 'CANCELLED', 'REJECTED', 'UNRESOLVED']);
/** A sandbox market order settles in well under a second; a quarter second keeps the line live without loading the service. */
const POLL_MS = 250;

const qty = (v: number | bigint | null | undefined) => fromScaled(v, 8);
const price = (v: number | bigint | null | undefined) => fromScaled(v, 9);

/** A GTC limit order whose remainder rests on a venue's book: waiting for it could take days. */
function resting(o: Order): boolean {
  return !TERMINAL.has(o.status) && o.time_in_force === 'gtc' && o.children.some((c) => c.status === 'resting');
}

function progressLine(o: Order, startedMs: number): string {
  const legs = o.children.length;
  return `${o.node_order_id} ${o.status} ${o.side} ${qty(o.qty_1e8)} ${o.symbol}: filled ${qty(o.filled_qty_1e8)}, ${legs} leg${legs === 1 ? '' : 's'}, ${o.engine_phase}, ${((Date.now() - startedMs) / 1000).toFixed(1)} s`;
}

function orderSummary(o: Order): string {
  const lines = [
    `order ${o.node_order_id} (${o.client_order_id})  ${o.status}${o.is_sandbox ? '  sandbox' : ''}`,
    `  ${o.side} ${qty(o.qty_1e8)} ${o.symbol} ${o.order_type}${o.limit_price_1e9 === null ? '' : ` @ ${price(o.limit_price_1e9)}`} ${o.time_in_force}: filled ${qty(o.filled_qty_1e8)}`,
  ];
  if (o.failure_class !== null) lines.push(`  ${o.failure_class}${o.failure_reason === null ? '' : `: ${o.failure_reason}`}`);
  let out = `${lines.join('\n')}\n`;
  if (o.children.length > 0) {
    out += `\nlegs\n${table(
      ['venue', 'qty', 'limit', 'filled', 'status', 'fee USD', 'reason'],
      o.children.map((c) => [c.venue, qty(c.qty_1e8), price(c.limit_price_1e9), qty(c.filled_qty_1e8), c.status, price(c.fee_1e9), c.reason]),
    )}`;
  }
  if (o.fills !== null && o.fills.length > 0) {
    out += `\nfills\n${table(
      ['venue', 'qty', 'price', 'fee USD', 'maker', 'trade id', 'time'],
      o.fills.map((f) => [f.venue, qty(f.qty_1e8), price(f.price_1e9), price(f.fee_1e9), f.is_maker, f.trade_id, isoNs(f.ts_unix_ns)]),
    )}`;
  }
  const t = o.tca;
  if (t !== null) {
    const best = t.best_single_venue;
    out +=
      `\nTCA  vwap ${price(t.achieved_vwap_1e9)}  arrival mid ${price(t.arrival_mid_1e9)}  fill ratio ${t.fill_ratio}\n` +
      `  shortfall ${t.implementation_shortfall_bps.toFixed(2)} bps (spread ${t.spread_cost_bps.toFixed(2)}, impact ${t.impact_bps.toFixed(2)}) + fees ${t.fee_bps.toFixed(2)} bps = ${t.total_cost_bps.toFixed(2)} bps; fees $${price(t.fees_usd_1e9)} on $${price(t.notional_usd_1e9)}\n` +
      `  vs best single venue${best === null ? ': none' : ` (${best.venue} @ ${price(best.avg_price_1e9)})`}: ` +
      `${t.savings_vs_best_single_venue_bps === null ? '-' : `${t.savings_vs_best_single_venue_bps.toFixed(2)} bps`}, $${price(t.savings_usd_1e9)}` +
      `; ${t.execution_time_ms} ms, first fill ${t.time_to_first_fill_ms ?? '-'} ms\n`;
  }
  return out;
}

async function getOrder(ctx: Context, id: string, fills: boolean): Promise<Order> {
  return ok(await ctx.api.GET('/v1/orders/{node_order_id}', { params: { path: { node_order_id: id }, query: fills ? { expand: 'fills' } : {} } }));
}

function request(flags: Flags): OrderRequest {
  const side = oneOf('side', required('side', flags.side), ['buy', 'sell'] as const)!;
  const type = oneOf('type', flags.type, ['market', 'limit'] as const) ?? (flags['limit-price'] === undefined ? 'market' : 'limit');
  if (type === 'limit' && flags['limit-price'] === undefined) throw new UsageError('--type limit needs --limit-price');
  const tif = oneOf('tif', flags.tif, ['ioc', 'gtc', 'fok'] as const);
  const body: OrderRequest = {
    client_order_id: flags['client-order-id'] ?? `cli-${randomUUID()}`,
    symbol: required('symbol', flags.symbol),
    side,
    order_type: type,
    qty_1e8: wire(toScaled('qty', required('qty', flags.qty), 8)),
  };
  if (flags['limit-price'] !== undefined) body.limit_price_1e9 = wire(toScaled('limit-price', flags['limit-price'], 9));
  if (tif !== undefined) body.time_in_force = tif;
  return body;
}

/**
 * Places the order, then follows it by polling until it is terminal (or, unless `--expect-fill`,
 * rests on a book), and prints it with its fills and TCA. Polling rather than the `orders`
 * stream: one GET per quarter second is cheap, needs no socket, and the final read with
 * `expand=fills` is needed anyway.
 */
const submit: Command = {
  path: ['order', 'submit'],
  args: [],
  options: ['symbol', 'side', 'qty', 'type', 'limit-price', 'tif', 'client-order-id', 'expect-fill', 'no-wait'],
  synopsis: '--symbol S --side buy|sell --qty Q [--type market|limit] [--limit-price P] [--tif ioc|gtc|fok] [--client-order-id ID] [--expect-fill] [--no-wait]',
  summary: 'place an order and follow it to its end; prints its fills and TCA',
  async run(ctx, _args, flags) {
    const body = request(flags);
    if (flags['expect-fill'] === true && flags['no-wait'] === true) throw new UsageError('--expect-fill waits for the order: it cannot go with --no-wait');
    const answer = await ctx.api.POST('/v1/orders', { body });
    let order = ok(answer);
    // Progress is for a person watching; `--json` callers get stdout alone, and stderr only for what went wrong.
    const say = (line: string) => {
      if (!ctx.json) ctx.io.stderr(line);
    };
    const note = (line: string) => ctx.io.stderr(`${ctx.io.stderrTty && shown !== '' && !ctx.json ? '\n' : ''}${line}\n`);
    let shown = '';
    if (answer.response.status === 200) say(`client_order_id ${order.client_order_id} was placed before: following that order\n`);
    const started = Date.now();
    const follow = flags['no-wait'] !== true;
    const onSignal = () => {
      note(`stopped following: ${order.node_order_id} is ${order.status} and keeps working (seq order cancel ${order.node_order_id})`);
      process.exit(130);
    };
    process.once('SIGINT', onSignal);
    try {
      while (follow && !TERMINAL.has(order.status) && (flags['expect-fill'] === true || !resting(order))) {
        const line = progressLine(order, started);
        if (ctx.io.stderrTty) say(`\r\x1b[K${line}`);
        else if (line.replace(/, [\d.]+ s$/, '') !== shown) say(`${line}\n`);
        shown = line.replace(/, [\d.]+ s$/, '');
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        order = await getOrder(ctx, order.node_order_id, false);
      }
      if (ctx.io.stderrTty && shown !== '') say('\r\x1b[K');
      if (follow || TERMINAL.has(order.status)) order = await getOrder(ctx, order.node_order_id, true);
    } catch (err) {
      note(`${order.node_order_id} was placed; its outcome is unknown here (seq order get ${order.node_order_id})`);
      throw err;
    } finally {
      process.off('SIGINT', onSignal);
    }
    if (ctx.json) printJson(ctx, order);
    else {
      ctx.io.stdout(orderSummary(order));
      if (!TERMINAL.has(order.status)) ctx.io.stdout(`\n${resting(order) ? 'resting' : 'working'}: seq order get ${order.node_order_id} to follow it, seq order cancel ${order.node_order_id} to cancel\n`);
    }
    if (order.status === 'REJECTED') {
      ctx.io.stderr(`order ${order.node_order_id} REJECTED: ${order.failure_class ?? ''}${order.failure_reason === null ? '' : ` (${order.failure_reason})`}\n`);
      return EXIT.ORDER_FAILED;
    }
    if (flags['expect-fill'] === true && order.status !== 'COMPLETED') {
      ctx.io.stderr(`order ${order.node_order_id} ended ${order.status}, not COMPLETED: ${order.failure_class ?? ''}\n`);
      return EXIT.ORDER_FAILED;
    }
    return EXIT.OK;
  },
};

const cancel: Command = {
  path: ['order', 'cancel'],
  args: ['<node_order_id>'],
  options: [],
  summary: 'cancel an order (every venue leg)',
  async run(ctx, [id]) {
    return output(ctx, ok(await ctx.api.DELETE('/v1/orders/{node_order_id}', { params: { path: { node_order_id: id! } } })), (d) => `${d.node_order_id} ${d.status}\n`);
  },
};

const get: Command = {
  path: ['order', 'get'],
  args: ['<node_order_id>'],
  options: [],
  summary: 'one order with its legs, fills and TCA',
  async run(ctx, [id]) {
    return output(ctx, await getOrder(ctx, id!, true), orderSummary);
  },
};

const list: Command = {
  path: ['order', 'list'],
  args: [],
  options: ['open', 'symbol', 'limit'],
  synopsis: '[--open] [--symbol S] [--limit N]',
  summary: 'your orders, newest first (--open: the working set)',
  async run(ctx, _args, flags) {
    const limit = positiveInt('limit', flags.limit);
    const query = {
      ...(flags.open === true ? { status: 'open' } : {}),
      ...(flags.symbol === undefined ? {} : { symbol: flags.symbol }),
      ...(limit === undefined ? {} : { limit }),
    };
    return output(ctx, ok(await ctx.api.GET('/v1/orders', { params: { query } })), (d) => {
      const counts = Object.entries(d.counts)
        .map(([status, n]) => `${status} ${n}`)
        .join(', ');
      return (
        table(
          ['id', 'client order id', 'symbol', 'side', 'type', 'qty', 'filled', 'limit', 'status', 'created'],
          d.orders.map((o) => [o.node_order_id, o.client_order_id, o.symbol, o.side, o.order_type, qty(o.qty_1e8), qty(o.filled_qty_1e8), price(o.limit_price_1e9), o.status, isoNs(o.created_unix_ns)]),
        ) + `${d.orders.length} of ${d.total}${d.has_more ? ' (more: --limit)' : ''}${counts === '' ? '' : `; ${counts}`}\n`
      );
    });
  },
};

export const orderCommands: readonly Command[] = [submit, cancel, get, list];
