import { Type } from 'typebox';
import { ALERT_KINDS } from '../../execution/alerts/types.ts';

/**
 * User-defined alerts (docs/alerts.md). The spec streams them on `/v1/alerts/stream` and does
 * not show how they are made; these operations are this service's, published here.
 */

const KIND_NOTE = 'price: NBBO mid beyond `threshold` in `direction`; spread_bps: NBBO spread in bps; basis_bps: fair-price basis of `underlying`; fill: a fill of `node_order_id` or `symbol` (any of yours when neither); order_rejected: an order rejected; pnl_below: total PnL (realised + unrealised, USD) below `threshold`; edge_stale: `edge_id` disconnected or silent for more than `threshold` seconds (default 5)';
const Kind = Type.String({ enum: [...ALERT_KINDS], description: KIND_NOTE });
const Direction = Type.String({ enum: ['above', 'below'] });

export const CreateAlertReqSchema = Type.Object(
  {
    kind: Type.String({ minLength: 1, maxLength: 32, description: KIND_NOTE }),
    symbol: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    underlying: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9]{1,15}$' })),
    node_order_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    edge_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    direction: Type.Optional(Type.String({ minLength: 1, maxLength: 16, description: "'above' or 'below' (spread_bps default above)" })),
    threshold: Type.Optional(Type.Number({ description: 'a decimal like the quote fields: a price in quote units (price), bps (spread_bps, basis_bps), USD (pnl_below), seconds (edge_stale)' })),
    once: Type.Optional(Type.Boolean({ default: true, description: 'true: fires once, then stays `fired`; false: fires again each time its condition turns true after being seen false' })),
    label: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { $id: 'CreateAlertRequest', additionalProperties: false },
);

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const Str = Type.String();

/** The fields an alert and each of its events share: its identity and condition. */
const AlertIdentityFields = {
  alert_id: Type.String(),
  kind: Kind,
  symbol: Nullable(Str),
  underlying: Nullable(Str),
  node_order_id: Nullable(Str),
  edge_id: Nullable(Str),
  direction: Type.Union([Direction, Type.Null()]),
  threshold: Type.Union([Type.Number(), Type.Null()]),
  label: Nullable(Str),
};

export const AlertSchema = Type.Object(
  {
    ...AlertIdentityFields,
    once: Type.Boolean(),
    status: Type.String({ enum: ['active', 'fired'], description: 'fired: a one-shot alert that has fired (it stays listed until deleted)' }),
    armed: Type.Boolean({ description: 'false while a repeating alert waits for its condition to turn false before it can fire again' }),
    fired_count: Type.Integer({ minimum: 0 }),
    created_at: Type.String({ description: 'ISO 8601' }),
    last_fired_at: Nullable(Type.String({ description: 'ISO 8601' })),
    is_sandbox: Type.Boolean(),
  },
  { $id: 'Alert', additionalProperties: false },
);

export const AlertEventSchema = Type.Object(
  {
    event_id: Type.String({ description: 'increasing per client and mode: the SSE `id:`, sent back as `Last-Event-ID` to resume' }),
    ...AlertIdentityFields,
    value: Type.Union([Type.Number(), Type.Null()], { description: 'what was observed: the mid, spread or basis (bps), PnL (USD), seconds since the edge published; null for order kinds and a disconnected edge' }),
    message: Type.String(),
    fired_at: Type.String({ description: 'ISO 8601' }),
    fill_id: Type.Optional(Type.String()),
    venue: Type.Optional(Type.String()),
    reason: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    is_sandbox: Type.Boolean(),
  },
  { $id: 'AlertEvent', additionalProperties: false },
);

export const AlertListSchema = Type.Object({ alerts: Type.Array(AlertSchema) }, { $id: 'AlertList' });

export const AlertEventsQuery = Type.Object({
  after: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: 'an event_id: only later events' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  alert_id: Type.Optional(Type.String({ maxLength: 64 })),
});

export const AlertEventListSchema = Type.Object(
  {
    events: Type.Array(AlertEventSchema, { description: 'oldest first; the last 10,000 per client and mode are kept' }),
    next_after: Nullable(Type.String({ description: 'pass as `after` for the next page; null when this page is the last' })),
  },
  { $id: 'AlertEventList' },
);

export const AlertStreamQuery = Type.Object({
  edge_id: Type.Optional(Type.String({ maxLength: 64 })),
  node_order_id: Type.Optional(Type.String({ maxLength: 200 })),
  alert_id: Type.Optional(Type.String({ maxLength: 64 })),
  last_event_id: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: 'as the `Last-Event-ID` header (for clients that cannot set it); the header wins' })),
});
