/**
 * The legacy parent-order form (`GET` and `POST /v1/parent_orders`): a thin view over the orders
 * engine. A parent order is an order (`parent_id` = `node_order_id`) shown with upper-case sides,
 * the five legacy statuses and a constraints object that always carries its four keys. `POST`
 * submits a market order through `ExecutionService.submit`, so idempotency, the kill switch,
 * routing, risk and durability are exactly those of `POST /v1/orders`. Decisions:
 * docs/api-decisions.md, "Parent orders (legacy form)".
 */
import { Type, type Static } from 'typebox';
import type { OrderConstraints, OrderRecord, OrderStatus } from '../../domain/orders.ts';
import type { Principal } from '../auth/principal.ts';
import type { GatewayContext } from '../context.ts';
import { Errors } from '../errors.ts';
import type { OrderRequest } from '../../execution/service.ts';
import { principalOf, type RouteSpec } from '../http/route.ts';

export const PARENT_STATUSES = ['ACCEPTED', 'RUNNING', 'COMPLETED', 'CANCELLED', 'FAILED'] as const;
export type ParentStatus = (typeof PARENT_STATUSES)[number];

/**
 * Canonical order status -> legacy parent status. A `Record` over every canonical status, so a
 * status added to domain/orders.ts does not compile until it is mapped here.
 */
export const PARENT_STATUS_OF: Readonly<Record<OrderStatus, ParentStatus>> = {
  WAITING: 'ACCEPTED',
  ACCEPTED: 'ACCEPTED',
  RUNNING: 'RUNNING',
  PARTIAL: 'RUNNING',
  ACTIVE: 'RUNNING',
  UNCONFIRMED: 'RUNNING',
  COMPLETED: 'COMPLETED',
  CANCELLED: 'CANCELLED',
  REJECTED: 'FAILED',
  UNRESOLVED: 'FAILED',
};

/** The urgency of a parent order when none was given. */
const URGENCY_UNSPECIFIED = 'UNSPECIFIED';

/** The same id rule as `client_order_id` of `POST /v1/orders`. */
const id = (description: string) => Type.String({ pattern: '^[A-Za-z0-9._:-]{1,64}$', description });
const URGENCIES = ['low', 'medium', 'high'] as const;
const isUrgency = (value: string): value is (typeof URGENCIES)[number] => (URGENCIES as readonly string[]).includes(value);
const ClientId = Type.String({ minLength: 1, maxLength: 128, description: "if given, must be the caller's client id (403 otherwise)" });

const ParentConstraints = Type.Object(
  {
    max_price_1e9: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 9_007_199_254_740_991 }), Type.Null()])),
    urgency: Type.Optional(Type.Union([Type.String({ enum: [URGENCY_UNSPECIFIED, ...URGENCIES] }), Type.Null()])),
    horizon_ms: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
    participation_limit_bps: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 10_000 }), Type.Null()])),
  },
  { $id: 'ParentOrderConstraints', additionalProperties: false },
);

const ParentOrderRequestSchema = Type.Object(
  {
    client_request_id: Type.Optional(id('the idempotency key when client_order_id is absent')),
    client_order_id: Type.Optional(id('the idempotency key; this or client_request_id is required')),
    side: Type.String({ enum: ['BUY', 'SELL'] }),
    symbol: Type.String({ minLength: 1, maxLength: 200 }),
    qty_1e8: Type.Integer({ minimum: 1, maximum: 9_007_199_254_740_991 }),
    client_id: Type.Optional(ClientId),
    constraints: Type.Optional(Type.Union([ParentConstraints, Type.Null()])),
  },
  { $id: 'ParentOrderRequest', additionalProperties: false },
);
type ParentOrderRequest = Static<typeof ParentOrderRequestSchema>;

const ParentOrder = Type.Object(
  {
    parent_id: Type.String({ description: 'the node_order_id of the order' }),
    client_id: Type.String(),
    client_order_id: Type.String(),
    side: Type.String({ enum: ['BUY', 'SELL'] }),
    symbol: Type.String(),
    qty_1e8: Type.Integer({ minimum: 1 }),
    filled_qty_1e8: Type.Integer({ minimum: 0 }),
    status: Type.String({ enum: [...PARENT_STATUSES] }),
    constraints: Type.Object(
      {
        max_price_1e9: Type.Union([Type.Integer(), Type.Null()]),
        urgency: Type.String({ enum: [URGENCY_UNSPECIFIED, ...URGENCIES] }),
        horizon_ms: Type.Union([Type.Integer(), Type.Null()]),
        participation_limit_bps: Type.Union([Type.Integer(), Type.Null()]),
      },
      { additionalProperties: false },
    ),
    created_unix_ns: Type.Integer({ minimum: 0 }),
    updated_unix_ns: Type.Integer({ minimum: 0 }),
  },
  { $id: 'ParentOrder', additionalProperties: false },
);

const ParentOrderList = Type.Object(
  {
    orders: Type.Array(ParentOrder),
    total: Type.Integer({ minimum: 0 }),
    limit: Type.Integer({ minimum: 0 }),
    offset: Type.Integer({ minimum: 0 }),
  },
  { $id: 'ParentOrderList', additionalProperties: false },
);

const ListQuery = Type.Object({
  client_id: Type.Optional(ClientId),
  symbol: Type.Optional(Type.String({ maxLength: 200 })),
  status: Type.Optional(Type.String({ enum: [...PARENT_STATUSES], description: 'legacy status; see docs/api-decisions.md for the canonical statuses each covers' })),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, default: 100 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 9_007_199_254_740_991, default: 0 })),
});

const tags = ['orders'];

/** The legacy view of an order. */
export function parentOrderView(order: OrderRecord): Static<typeof ParentOrder> {
  const c = order.constraints;
  return {
    parent_id: order.node_order_id,
    client_id: order.client_id,
    client_order_id: order.client_order_id,
    side: order.side === 'buy' ? 'BUY' : 'SELL',
    symbol: order.symbol,
    qty_1e8: order.qty_1e8,
    filled_qty_1e8: order.filled_qty_1e8,
    status: PARENT_STATUS_OF[order.status],
    constraints: {
      max_price_1e9: c?.max_price_1e9 ?? null,
      urgency: c?.urgency ?? URGENCY_UNSPECIFIED,
      horizon_ms: c?.horizon_ms ?? null,
      participation_limit_bps: c?.participation_limit_bps ?? null,
    },
    created_unix_ns: order.created_unix_ns,
    updated_unix_ns: order.updated_unix_ns,
  };
}

/**
 * The legacy constraints as the engine's: null fields and `UNSPECIFIED` dropped, and no object
 * at all when nothing is left, so equivalent spellings make the same request (and the same
 * idempotency fingerprint).
 */
function engineConstraints(legacy: ParentOrderRequest['constraints']): OrderConstraints | undefined {
  if (legacy === undefined || legacy === null) return undefined;
  const out: OrderConstraints = {};
  if (legacy.max_price_1e9 !== undefined && legacy.max_price_1e9 !== null) out.max_price_1e9 = legacy.max_price_1e9;
  if (legacy.urgency !== undefined && legacy.urgency !== null && isUrgency(legacy.urgency)) out.urgency = legacy.urgency;
  if (legacy.horizon_ms !== undefined && legacy.horizon_ms !== null) out.horizon_ms = legacy.horizon_ms;
  if (legacy.participation_limit_bps !== undefined && legacy.participation_limit_bps !== null) {
    out.participation_limit_bps = legacy.participation_limit_bps;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

/** A `client_id` in the request names the caller or nobody: no acting for another client. */
function checkClientId(principal: Principal, clientId: string | undefined): void {
  if (clientId !== undefined && clientId !== principal.client_id) {
    throw Errors.forbidden("client_id does not match the caller's client");
  }
}

export function parentOrderRoutes(ctx: GatewayContext): RouteSpec[] {
  const store = () => ctx.storage.orders;
  return [
    {
      method: 'post',
      path: '/v1/parent_orders',
      operationId: 'submitParentOrder',
      summary: 'Legacy: submit a parent order (a market order through the smart order router)',
      description:
        'A thin legacy form of POST /v1/orders with order_type market: side BUY/SELL is lowercased, client_order_id ' +
        '(or client_request_id when absent, or the Idempotency-Key header) is the idempotency key, shared with /v1/orders. ' +
        'The same request returns the original parent order with 200, a different one 409. parent_id is the node_order_id.',
      tags,
      auth: 'bearer',
      body: ParentOrderRequestSchema,
      responses: {
        201: { description: 'The accepted (or failed) parent order', schema: ParentOrder },
        200: { description: 'The original parent order of a repeated request', schema: ParentOrder },
        403: { description: "client_id is not the caller's (FORBIDDEN)" },
        404: { description: 'Unknown symbol' },
        409: { description: 'client_order_id reused with a different request (IDEMPOTENCY_CONFLICT)' },
        503: { description: 'Kill switch active (DISPATCH_HALTED)' },
      },
      handler: async (req) => {
        const principal = principalOf(req);
        const body = req.body as ParentOrderRequest;
        checkClientId(principal, body.client_id);
        const clientOrderId = body.client_order_id ?? body.client_request_id;
        if (clientOrderId === undefined) {
          throw Errors.validation([{ field: 'client_order_id', message: 'client_order_id or client_request_id is required' }]);
        }
        const constraints = engineConstraints(body.constraints);
        const request: OrderRequest = {
          client_order_id: clientOrderId,
          symbol: body.symbol,
          side: body.side === 'BUY' ? 'buy' : 'sell',
          qty_1e8: body.qty_1e8,
          order_type: 'market',
          ...(constraints !== undefined ? { constraints } : {}),
        };
        const { status, order } = await ctx.execution.submit(principal, request, req.idempotencyKey);
        return { status, body: parentOrderView(order) };
      },
    },
    {
      method: 'get',
      path: '/v1/parent_orders',
      operationId: 'listParentOrders',
      summary: "Legacy: the caller's orders as parent orders in the key's mode, newest first",
      tags,
      auth: 'bearer',
      query: ListQuery,
      responses: {
        200: { description: '{orders, total, limit, offset}', schema: ParentOrderList },
        403: { description: "client_id is not the caller's (FORBIDDEN)" },
      },
      handler: (req) => {
        const p = principalOf(req);
        const q = req.query as Static<typeof ListQuery>;
        checkClientId(p, q.client_id);
        const limit = q.limit ?? 100;
        const offset = q.offset ?? 0;
        const symbol = q.symbol?.toUpperCase();
        const status = q.status as ParentStatus | undefined;
        const filter = (o: OrderRecord) => (symbol === undefined || o.symbol === symbol) && (status === undefined || PARENT_STATUS_OF[o.status] === status);
        const page = store().listOrders(p.client_id, p.mode, { limit: offset + limit, filter });
        return {
          status: 200,
          body: {
            orders: page.orders.slice(offset).map(parentOrderView),
            total: store().countOrders(p.client_id, p.mode, filter),
            limit,
            offset,
          },
        };
      },
    },
  ];
}
