import { Type, type Static } from 'typebox';
import { orderIdOfGraph } from '../../execution/order-record.ts';
import { addCounts, mergeNewestFirst, regionScope, regionSources, homeElsewhere, remoteCommanded, remoteFills, remoteOrders } from './global-reads.ts';
import { orderView, ORDER_STATUSES, type FillRecord, type OrderRecord, type OrderStatus } from '../../domain/orders.ts';
import { isTerminal } from '../../domain/orders.ts';
import { VENUES } from '../../domain/market.ts';
import type { GatewayContext } from '../context.ts';
import { Errors } from '../errors.ts';
import { principalOf, type RouteSpec } from '../http/route.ts';
import type { OrderRequest } from '../../execution/service.ts';
import { CancelOrderRespSchema, FillsPageSchema, ListOrdersRespSchema, OrderConstraintsSchema, OrderRestSchema, type CancelOrderResp, type FillsPage } from '../schemas/orders.ts';
import { OrderPreviewSchema } from '../schemas/routing.ts';
import { predictionLegsOf } from '../market/prediction-orders.ts';
import { PredictionQuotes } from '../market/prediction-quotes.ts';
import { orderWallet } from '../market/dex-orders.ts';
import { CHAIN_IDS } from '../../actors/dex-chain/pools.ts';
import type { Principal } from '../auth/principal.ts';

const Id = Type.String({ pattern: '^[A-Za-z0-9._:-]{1,64}$' });

const orderRequestFields = {
    symbol: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    instrument: Type.Optional(
      Type.Object(
        {
          symbol: Type.String({ minLength: 1, maxLength: 200 }),
          type: Type.Optional(Type.String({ enum: ['spot', 'perp', 'prediction'], description: 'auto-classified from the symbol when absent (a prediction leg by ticker, slug, token id or event URL)' })),
        },
        { additionalProperties: false },
      ),
    ),
    side: Type.String({ enum: ['buy', 'sell'] }),
    qty_1e8: Type.Integer({ minimum: 1, maximum: 9_007_199_254_740_991 }),
    order_type: Type.String({ enum: ['market', 'limit'] }),
    limit_price_1e9: Type.Optional(Type.Integer({ minimum: 1, maximum: 9_007_199_254_740_991 })),
    time_in_force: Type.Optional(Type.String({ enum: ['ioc', 'gtc', 'fok'], description: 'market defaults to ioc, limit to gtc (what does not cross rests on the venues)' })),
    venue: Type.Optional(Type.String({ enum: [...VENUES, ...CHAIN_IDS], description: 'forces single-venue execution (a chain id: that chain\'s pools)' })),
    wallet_id: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z_]+:0x[0-9a-fA-F]{40}$',
        description: 'DEX orders: `<signer_backend>:<address>` of the managed trading wallet (the default when omitted); `connected:<address>` (a browser wallet) is refused on an API session',
      }),
    ),
    constraints: Type.Optional(Type.Union([OrderConstraintsSchema, Type.Null()])),
    start_armed: Type.Optional(Type.Boolean({ description: 'park as an armed graph until POST /v1/execution_graphs/{graph_id}/activate' })),
    cross_venue_equivalents: Type.Optional(
      Type.Boolean({
        description:
          'prediction markets: route the outcome across both venues, on the named market and its equivalents (the same leg, or the other leg where the question is inverted), wherever it is cheaper after fees',
      }),
    ),
};

export const OrderRequestSchema = Type.Object({ client_order_id: Id, ...orderRequestFields }, { $id: 'OrderRequest', additionalProperties: false });

/** A preview places nothing, so it needs no idempotency key: `client_order_id` is accepted and ignored. */
const OrderPreviewRequestSchema = Type.Object({ client_order_id: Type.Optional(Id), ...orderRequestFields }, { $id: 'OrderPreviewRequest', additionalProperties: false });

const ListQuery = Type.Object({
  symbol: Type.Optional(Type.String({ maxLength: 200 })),
  status: Type.Optional(Type.String({ description: '`open` for the working set, or a canonical status' })),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, default: 100 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, description: 'legacy; use after' })),
  after: Type.Optional(Type.String({ maxLength: 200 })),
  region: Type.Optional(Type.String({ maxLength: 64 })),
  history: Type.Optional(Type.Boolean()),
});

const FillsQuery = Type.Object({
  node_order_id: Type.Optional(Type.String({ maxLength: 200 })),
  symbol: Type.Optional(Type.String({ maxLength: 200 })),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, default: 100 })),
  after: Type.Optional(Type.String({ maxLength: 200 })),
  region: Type.Optional(Type.String({ maxLength: 64, description: 'diagnostic home-region filter, as on GET /v1/orders; reads are global when omitted' })),
});

const tags = ['orders'];

function encodeCursor(value: string | number): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function decodeCursor<T extends string | number>(cursor: string, kind: 'string' | 'number'): T {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (typeof value === kind) return value as T;
  } catch {
    // fall through
  }
  throw Errors.validation([{ field: 'after', message: 'not a cursor returned by this endpoint' }]);
}

export function orderRoutes(ctx: GatewayContext): RouteSpec[] {
  const execution = () => ctx.execution;
  const store = () => ctx.storage.orders;
  const predictionQuotes = new PredictionQuotes(ctx.market.prediction, ctx.topology.endpoint);
  /** A prediction order carries its resolved legs to the router (which holds no catalog). */
  const withLegs = (body: OrderRequest, p: Principal): OrderRequest => {
    const legs = predictionLegsOf(ctx.market.prediction, predictionQuotes, body);
    if (legs !== undefined) {
      return { ...body, prediction_legs: legs };
    }
    // A DEX order carries its wallet, resolved and its signature made here (the router holds no keys).
    const wallet = orderWallet(ctx.storage.wallets, p, body);
    return wallet === undefined ? body : { ...body, wallet };
  };
  const withFills = (order: OrderRecord): FillRecord[] =>
    order.fill_ids.map((id) => store().getFill(order.client_id, order.mode, id)).filter((f): f is FillRecord => f !== undefined);
  return [
    {
      method: 'post',
      path: '/v1/orders',
      operationId: 'submitOrder',
      summary: 'Submit an order; the smart order router splits it across venues',
      description:
        'Idempotent per client on client_order_id (or the Idempotency-Key header): the same request returns the original order with 200, a different one 409. ' +
        'The order is durable before the answer; fills follow on the orders and fills WebSocket channels. ' +
        'Market orders default to ioc, limit orders to gtc (the remainder rests on one venue and fills as maker until filled or cancelled).',
      tags,
      auth: 'bearer',
      body: OrderRequestSchema,
      responses: {
        201: { description: 'The accepted (or rejected) order', schema: OrderRestSchema },
        200: { description: 'The original order of a repeated request', schema: OrderRestSchema },
        404: { description: 'a DEX order without a trading wallet, or naming a wallet_id that is not the caller\'s (NO_TRADING_WALLET)' },
        409: { description: 'client_order_id reused with a different request (IDEMPOTENCY_CONFLICT); a DEX order while the wallet provisions (TRADING_WALLET_NOT_READY)' },
        503: { description: 'Kill switch active (DISPATCH_HALTED)' },
      },
      handler: async (req) => {
        const body = req.body as OrderRequest;
        if (body.order_type === 'limit' && body.limit_price_1e9 === undefined) {
          throw Errors.validation([{ field: 'limit_price_1e9', message: 'is required for limit orders' }]);
        }
        if (body.symbol === undefined && body.instrument === undefined) {
          throw Errors.validation([{ field: 'symbol', message: 'symbol or instrument is required' }]);
        }
        const p = principalOf(req);
        const { status, json } = await execution().submitJson(p, withLegs(body, p), req.idempotencyKey);
        return { status, body: undefined, json };
      },
    },
    {
      method: 'post',
      path: '/v1/orders/preview',
      operationId: 'previewOrder',
      summary: 'Size-aware fee, slippage and landed cost from the same router, without placing',
      tags,
      auth: 'bearer',
      body: OrderPreviewRequestSchema,
      responses: { 200: { description: 'The routing plan and landed cost', schema: OrderPreviewSchema } },
      handler: async (req) => ({ status: 200, body: await execution().preview(principalOf(req), withLegs(req.body as OrderRequest, principalOf(req))) }),
    },
    {
      method: 'get',
      path: '/v1/orders',
      operationId: 'listOrders',
      summary: "The caller's orders in the key's mode, newest first",
      tags,
      auth: 'bearer',
      query: ListQuery,
      responses: { 200: { description: 'A page of orders, newest first, with counts by status', schema: ListOrdersRespSchema } },
      handler: async (req) => {
        const p = principalOf(req);
        const q = req.query as Static<typeof ListQuery>;
        const limit = q.limit ?? 100;
        const status = q.status;
        if (status !== undefined && status !== 'open' && !(ORDER_STATUSES as readonly string[]).includes(status)) {
          throw Errors.validation([{ field: 'status', message: `must be open or one of ${ORDER_STATUSES.join(', ')}` }]);
        }
        const openOnly = status === 'open';
        const filter = (o: OrderRecord) =>
          (q.symbol === undefined || o.symbol === q.symbol.toUpperCase()) &&
          (status === undefined || openOnly || o.status === status) &&
          (q.history !== true || isTerminal(o.status));
        let after = q.after === undefined ? undefined : decodeCursor<string>(q.after, 'string');
        if (q.offset !== undefined && q.offset > 0 && after === undefined) {
          // Legacy offset: skip that many from the newest.
          const skipped = store().listOrders(p.client_id, p.mode, { limit: q.offset, filter, openOnly });
          after = skipped.orders[skipped.orders.length - 1]?.node_order_id ?? '\u0000';
        }
        // Among regions the listing is global: this node's orders and the other regions' (global-reads.ts).
        const scope = regionScope(ctx.regions, q.region);
        const local = scope.local ? store().listOrders(p.client_id, p.mode, { ...(after !== undefined ? { after } : {}), limit, filter, openOnly }) : { orders: [], last: null };
        const inScope = (o: OrderRecord) => (q.symbol === undefined || o.symbol === q.symbol.toUpperCase()) && (q.history !== true || isTerminal(o.status));
        const remote = remoteOrders(ctx.regions, scope, p.client_id, p.mode, inScope);
        const remotePage = remote.filter((o) => filter(o) && (!openOnly || !isTerminal(o.status)) && (after === undefined || o.node_order_id < after));
        const merged = mergeNewestFirst(local.orders, local.last !== null, remotePage, limit, (o) => o.node_order_id);
        const page = { orders: merged.items, last: merged.more && merged.items.length > 0 ? merged.items[merged.items.length - 1]!.node_order_id : null };
        // Counts by status over the whole listing scope (symbol and history filters apply; the
        // status filter, the page and the limit do not), so limit=0 reads just the counts.
        // Unfiltered they are key counts of the status index; a filtered count reads the orders.
        const localCounts = !scope.local
          ? {}
          : q.symbol === undefined && q.history !== true
            ? store().countByStatus(p.client_id, p.mode)
            : store().countByStatusWhere(p.client_id, p.mode, inScope);
        const counts = addCounts(localCounts, remote);
        // The total is the counts under the status filter.
        let total = 0;
        for (const [s, n] of Object.entries(counts)) {
          if (status === undefined || (openOnly ? !isTerminal(s as OrderStatus) : s === status)) total += n;
        }
        return {
          status: 200,
          body: {
            scope: 'client',
            region: q.region ?? 'global',
            orders: page.orders.map((o) => orderView(o)),
            total,
            limit,
            has_more: page.last !== null,
            next_cursor: page.last === null ? null : encodeCursor(page.last),
            offset: q.offset ?? null,
            sources: [
              ...(scope.local ? [{ source: q.history === true || (status !== undefined && status !== 'open') ? ('history_db' as const) : ('engine' as const), complete: true }] : []),
              ...regionSources(ctx.regions, scope, Date.now()),
            ],
            counts,
            // The live venue merge is in scope on a live account's first page without a symbol filter.
            venue_view: p.mode === 'live' && q.symbol === undefined && q.after === undefined && (q.offset ?? 0) === 0 ? await execution().venueView(p) : null,
          },
        };
      },
    },
    {
      method: 'get',
      path: '/v1/orders/{node_order_id}',
      operationId: 'getOrder',
      summary: 'One order; expand=fills adds its fills',
      tags,
      auth: 'bearer',
      params: Type.Object({ node_order_id: Type.String({ minLength: 1, maxLength: 200 }) }),
      query: Type.Object({ expand: Type.Optional(Type.String({ maxLength: 100 })) }),
      responses: { 200: { description: 'Order', schema: OrderRestSchema }, 404: { description: 'Unknown order' } },
      handler: (req) => {
        const p = principalOf(req);
        const id = req.params['node_order_id']!;
        const expand = String(req.query['expand'] ?? '').split(',');
        const order = store().getOrder(p.client_id, p.mode, id);
        if (order !== undefined) return { status: 200, body: orderView(order, expand.includes('fills') ? withFills(order) : undefined) };
        // Homed in another region: as this node last read it from the regions' stream.
        const remote = ctx.regions?.order(p.client_id, p.mode, id);
        if (remote === undefined) throw Errors.notFound(`order ${id} not found`);
        const fills = expand.includes('fills') ? ctx.regions!.fills(p.client_id, p.mode, remote.home_region ?? undefined).filter((f) => f.node_order_id === id) : undefined;
        return { status: 200, body: orderView(remote, fills) };
      },
    },
    {
      method: 'delete',
      path: '/v1/orders/{node_order_id}',
      operationId: 'cancelOrder',
      summary: 'Cancel an order: every venue leg',
      description: 'Among regions an order homed on another node is cancelled there: this node asks its home node and answers with what it answered.',
      tags,
      auth: 'bearer',
      params: Type.Object({ node_order_id: Type.String({ minLength: 1, maxLength: 200 }) }),
      responses: {
        200: { description: 'The order id and its status after the cancel', schema: CancelOrderRespSchema },
        404: { description: 'Unknown order' },
        503: { description: 'REGION_UNREACHABLE: the order is homed in another region whose node did not answer the cancel' },
      },
      handler: async (req) => {
        const p = principalOf(req);
        const id = req.params['node_order_id']!;
        // An order homed in another region is cancelled by its home node, asked over the link.
        const home = homeElsewhere(ctx.regions, store().getOrder(p.client_id, p.mode, id), p.client_id, p.mode, id);
        const order = home === undefined ? await execution().cancel(p, id) : remoteCommanded(await ctx.regions!.command('cancel', { client_id: p.client_id, mode: p.mode }, id, home), home, 'cancel');
        return { status: 200, body: { node_order_id: order.node_order_id, status: order.status } satisfies CancelOrderResp };
      },
    },
    {
      method: 'get',
      path: '/v1/fills',
      operationId: 'listFills',
      summary: "The caller's fills, newest first",
      tags,
      auth: 'bearer',
      query: FillsQuery,
      responses: { 200: { description: 'A page of fills, newest first', schema: FillsPageSchema } },
      handler: (req) => {
        const p = principalOf(req);
        const q = req.query as Static<typeof FillsQuery>;
        const limit = q.limit ?? 100;
        const filter = (f: FillRecord) =>
          (q.node_order_id === undefined || f.node_order_id === q.node_order_id) && (q.symbol === undefined || f.symbol === q.symbol.toUpperCase());
        const after = q.after === undefined ? undefined : decodeCursor<number>(q.after, 'number');
        const scope = regionScope(ctx.regions, q.region);
        if (q.node_order_id !== undefined) {
          // One order's fills: its own list of ids, not a scan of every fill; an order homed in
          // another region, its fills as read from the regions' stream.
          const order = store().getOrder(p.client_id, p.mode, q.node_order_id);
          const all = (
            order !== undefined
              ? order.fill_ids.map((id) => store().getFill(p.client_id, p.mode, id)).filter((f): f is FillRecord => f !== undefined && filter(f))
              : remoteFills(ctx.regions, scope, p.client_id, p.mode, filter)
          ).sort((a, b) => b.id - a.id);
          const rest = after === undefined ? all : all.filter((f) => f.id < after);
          const fills = rest.slice(0, limit);
          const more = limit > 0 && rest.length > limit;
          return {
            status: 200,
            body: { fills, total: all.length, limit, has_more: more, next_cursor: more ? encodeCursor(fills[fills.length - 1]!.id) : null } satisfies FillsPage,
          };
        }
        const local = scope.local ? store().listFills(p.client_id, p.mode, { ...(after !== undefined ? { after } : {}), limit, filter }) : { fills: [], last: null };
        const remote = remoteFills(ctx.regions, scope, p.client_id, p.mode, filter);
        const page = mergeNewestFirst(local.fills, local.last !== null, after === undefined ? remote : remote.filter((f) => f.id < after), limit, (f) => f.id);
        const localTotal = !scope.local ? 0 : q.symbol === undefined ? store().countFills(p.client_id, p.mode) : store().listFills(p.client_id, p.mode, { limit: Number.MAX_SAFE_INTEGER, filter }).fills.length;
        const total = localTotal + remote.length;
        const last = page.more && page.items.length > 0 ? page.items[page.items.length - 1]!.id : null;
        return {
          status: 200,
          body: { fills: page.items, total, limit, has_more: last !== null, next_cursor: last === null ? null : encodeCursor(last) } satisfies FillsPage,
        };
      },
    },
    {
      method: 'post',
      path: '/v1/execution_graphs/{graph_id}/activate',
      operationId: 'activateGraph',
      summary: 'Activate an armed graph (an order submitted with start_armed)',
      tags,
      auth: 'bearer',
      params: Type.Object({ graph_id: Type.String({ minLength: 1, maxLength: 200 }) }),
      description: 'Among regions a graph homed on another node is activated there: this node asks its home node and answers with what it answered.',
      responses: {
        200: { description: 'The activated order', schema: OrderRestSchema },
        404: { description: 'Unknown graph' },
        409: { description: 'Not armed' },
        503: { description: 'REGION_UNREACHABLE: the graph is homed in another region whose node did not answer' },
      },
      handler: async (req) => {
        const p = principalOf(req);
        const graphId = req.params['graph_id']!;
        // An armed order homed in another region is activated by its home node (a graph is its order's id).
        const id = orderIdOfGraph(graphId);
        const home = id === '' ? undefined : homeElsewhere(ctx.regions, store().getOrder(p.client_id, p.mode, id), p.client_id, p.mode, id);
        const order = home === undefined ? await execution().activate(p, graphId) : remoteCommanded(await ctx.regions!.command('activate', { client_id: p.client_id, mode: p.mode }, id, home), home, 'activate');
        return { status: 200, body: orderView(order) };
      },
    },
  ];
}
