import { Type, type TSchema } from 'typebox';
import { FieldErrorSchema } from './common.ts';
import { eventStream, webSocketUpgrade } from './media.ts';
import { FillRecordSchema, OrderUpdateSchema, TcaEventSchema } from './orders.ts';
import { KillSwitchChangeSchema, KillSwitchSchema, RiskReadoutSchema } from './risk.ts';
import { RoutingPlanSchema } from './routing.ts';
import { AlertEventSchema } from './alerts.ts';

/**
 * What the streams carry (spec: "Events"): the server-sent events of `/v1/risk/stream` and
 * `/v1/tca/stream`, and the messages of the unified WebSocket `/v1/stream`.
 */

// --- Server-sent events ---------------------------------------------------------------------

const SSE_NOTE =
  'One server-sent event: its `event:` name and its `data:` line parsed as JSON. The stream opens with the comment ' +
  '`: connected` and sends `: keep-alive` every 15 s; comments carry no event. The server ends a stream with one `end` event ' +
  '`{code, reason}`: code 1001 when it shuts down (reconnect), a 44xx code when the credential was revoked or expired.';

/** The last event of a stream the server ends: its credential was revoked or expired. */
const SseEndSchema = Type.Object(
  {
    event: Type.Literal('end'),
    data: Type.Object({ code: Type.Integer({ description: '4401' }), reason: Type.String({ description: 'e.g. `api key revoked`, `token expired`' }) }, { additionalProperties: false }),
  },
  { $id: 'SseEnd', additionalProperties: false, description: 'The last event when the server ends the stream (credential revoked or expired); the response then ends' },
);

export const RiskStreamEventSchema = eventStream(
  Type.Union(
    [
      Type.Object(
        {
          event: Type.Literal('risk'),
          data: Type.Union([RiskReadoutSchema, KillSwitchChangeSchema], {
            description: 'the full read-out on connect and when an order finishes; only the kill switch (and as_of_ns) when it changes',
          }),
        },
        { $id: 'RiskEvent', additionalProperties: false },
      ),
      SseEndSchema,
    ],
    { description: SSE_NOTE },
  ),
);

export const TcaStreamEventSchema = eventStream(
  Type.Union(
    [Type.Object({ event: Type.Literal('tca_report'), data: TcaEventSchema }, { $id: 'TcaReportEvent', additionalProperties: false }), SseEndSchema],
    { description: SSE_NOTE },
  ),
);

export const AlertStreamEventSchema = eventStream(
  Type.Union([Type.Object({ event: Type.Literal('alert'), data: AlertEventSchema }, { $id: 'AlertStreamEvent', additionalProperties: false }), SseEndSchema], {
    description: `${SSE_NOTE} Each alert event has an \`id:\` line, its event_id: reconnect with \`Last-Event-ID\` to receive the events after it first, then the live ones; without it the stream starts at the next event.`,
  }),
);

// --- The unified WebSocket ------------------------------------------------------------------

const ChannelNames = Type.Array(Type.String({ minLength: 1, maxLength: 256 }));

const WsClientMessageSchema = Type.Object(
  { subscribe: Type.Optional(ChannelNames), unsubscribe: Type.Optional(ChannelNames) },
  {
    $id: 'WsClientMessage',
    description: 'What a client sends: channels to subscribe to and/or unsubscribe from',
    anyOf: [{ required: ['subscribe'] }, { required: ['unsubscribe'] }],
  },
);

const dataFrame = (channel: string, data: TSchema, id: string) =>
  Type.Object(
    { type: Type.Literal('data'), channel: Type.Literal(channel), ts_ns: Type.Integer({ minimum: 0, description: 'when the gateway sent it' }), data },
    { $id: id, additionalProperties: false },
  );

const SystemEventSchema = Type.Union([
  Type.Object({ event: Type.Literal('kill_switch'), ...KillSwitchSchema.properties }, { additionalProperties: false }),
  Type.Object({ event: Type.Literal('readiness'), ready: Type.Boolean() }, { additionalProperties: false }),
]);

const WsServerFrameSchema = Type.Union(
  [
    Type.Object({ type: Type.Literal('subscribed'), channels: Type.Array(Type.String()) }, { $id: 'WsSubscribed', additionalProperties: false }),
    Type.Object({ type: Type.Literal('unsubscribed'), channels: Type.Array(Type.String()) }, { $id: 'WsUnsubscribed', additionalProperties: false }),
    Type.Object(
      {
        type: Type.Literal('error'),
        error: Type.Object(
          {
            code: Type.String({ description: 'VALIDATION_ERROR or UNKNOWN_CHANNEL' }),
            message: Type.String(),
            request_id: Type.String({ description: 'the connection id' }),
            details: Type.Array(FieldErrorSchema),
          },
          { additionalProperties: false },
        ),
      },
      { $id: 'WsError', additionalProperties: false },
    ),
    dataFrame('orders', OrderUpdateSchema, 'WsOrdersFrame'),
    dataFrame('fills', FillRecordSchema, 'WsFillsFrame'),
    dataFrame('tca', TcaEventSchema, 'WsTcaFrame'),
    dataFrame('routing', RoutingPlanSchema, 'WsRoutingFrame'),
    dataFrame('system', SystemEventSchema, 'WsSystemFrame'),
    Type.Object(
      {
        type: Type.Literal('data'),
        channel: Type.String({ pattern: '^(prices|book|fair_price):' }),
        ts_ns: Type.Integer({ minimum: 0 }),
        data: Type.Object({}, { description: 'the market-data payload of the channel (see the operation description)' }),
      },
      { $id: 'WsMarketDataFrame', additionalProperties: false },
    ),
  ],
  { $id: 'WsServerFrame', description: 'What the server sends: an ack per (un)subscribe call, an error frame, or a data frame' },
);

/** The 101 of `GET /v1/stream`. */
export const StreamUpgradeSchema = webSocketUpgrade({
  query: Type.Object({ ticket: Type.Optional(Type.String({ description: 'single-use ticket from GET /v1/ws/ticket; else send Authorization: Bearer' })) }),
  client: WsClientMessageSchema,
  server: WsServerFrameSchema,
});
