import { Type, type TSchema } from 'typebox';
import type { FairPrice } from '../../actors/fair-price/compute.ts';
import type { FundingAccrual } from '../../execution/funding-clock.ts';
import type { FundingRateFrame } from '../market/funding-feed.ts';
import { Count, describing, FieldErrorSchema } from './common.ts';
import { DeploymentLogLine } from './deployments.ts';
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

/** A frame of a channel named `<prefix><key>` (a symbol, an underlying, a deployment id). */
const prefixedFrame = (prefix: string, data: TSchema, id: string) =>
  Type.Object(
    {
      type: Type.Literal('data'),
      channel: Type.String({ pattern: `^${prefix}`, description: `${prefix}<...>, as subscribed` }),
      ts_ns: Type.Integer({ minimum: 0, description: 'when the gateway sent it' }),
      data,
    },
    { $id: id, additionalProperties: false },
  );

const EdgeTsNs = Count('when the venue edge handed off the batch behind this frame (ns); 0 before any');
const Decimal = (description: string) => Type.Number({ minimum: 0, description });
/** A `[price, size]` pair: a tuple (`prefixItems`), so the client's type is `[number, number]`. */
const Level = Type.Unsafe<[number, number]>({
  type: 'array',
  prefixItems: [{ type: 'number', minimum: 0 }, { type: 'number', minimum: 0 }],
  items: false,
  minItems: 2,
  maxItems: 2,
  description: '[price, size] (decimals)',
});

/** `prices:<symbol>` (actors/book/actor.ts `pricesFrame`): the spec's NBBO, decimals as in the quote objects. */
const NbboUpdateSchema = Type.Object(
  {
    bid: Decimal('best bid across venues; 0 when no venue bids'),
    ask: Decimal('best ask across venues; 0 when no venue asks'),
    mid: Decimal('0 when a side is empty or the consolidated book is crossed'),
    bid_sz: Decimal('the size the venue with the best bid shows there'),
    ask_sz: Decimal('the size the venue with the best ask shows there'),
    spread_bps: Type.Number({ description: '0 when a side is empty or the consolidated book is crossed' }),
    ts_ns: Count('when the consolidated NBBO last changed'),
    edge_ts_ns: EdgeTsNs,
  },
  { $id: 'NbboUpdate', additionalProperties: false, description: 'The NBBO of a `prices:` channel, sent when it changes' },
);

/** `book:<symbol>` (actors/book/actor.ts `publishBook`): the merged book's top 20 levels a side. */
const BookUpdateSchema = Type.Object(
  {
    bids: Type.Array(Level, { maxItems: 20, description: 'best first; empty when no venue bids' }),
    asks: Type.Array(Level, { maxItems: 20, description: 'best first; empty when no venue asks' }),
    ts_ns: Count('when the consolidated book last changed'),
    edge_ts_ns: EdgeTsNs,
  },
  { $id: 'BookUpdate', additionalProperties: false, description: 'The merged book of a `book:` channel (20 levels a side), sent when a visible level changes' },
);

/**
 * The `fair_price:` data is the object `GET /v1/fair_price/{underlying}` answers (the same
 * computation), documented once, by its route, as the `FairPrice` component.
 */
const FairPriceRef = Type.Unsafe<FairPrice>({ $ref: '#/components/schemas/FairPrice' });

const FundingRateUpdateSchema = describing<FundingRateFrame>()(
  Type.Object(
    {
      kind: Type.Literal('rate'),
      venue: Type.String(),
      edge_id: Type.String(),
      symbol: Type.String(),
      rate_bps: Type.Number({ description: 'predicted rate of the interval under way, bps' }),
      rate_1e9: Type.Integer({ description: 'the same rate as a fraction x 1e9 (1 bps = 100,000)' }),
      interval_hours: Type.Number(),
      next_funding_ns: Count(),
      premium_bps: Type.Number({ description: 'perp premium over the spot index, bps' }),
      ts_ns: Count(),
    },
    { $id: 'FundingRateUpdate', additionalProperties: false, description: "A perp listing's funding rate, sent when its rate or next instant changes (every listing on the first read)" },
  ),
);

const FundingAccrualSchema = describing<FundingAccrual>()(
  Type.Object(
    {
      kind: Type.Literal('accrual'),
      venue: Type.String(),
      symbol: Type.String(),
      position_id: Count(),
      ts_ns: Count('the funding instant'),
      rate_1e9: Type.Integer(),
      mark_1e9: Count('the mark the position paid funding on'),
      qty_1e8: Type.Integer({ description: 'the position: negative when short' }),
      paid_usd_1e9: Type.Integer({ description: 'positive when the position paid, negative when it received' }),
      funding_usd_1e9: Type.Integer({ description: "the position's funding so far (received +, paid -)" }),
    },
    { $id: 'FundingAccrual', additionalProperties: false, description: "A funding payment on one of the caller's perp positions" },
  ),
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
    dataFrame('funding', Type.Union([FundingRateUpdateSchema, FundingAccrualSchema]), 'WsFundingFrame'),
    Type.Union(
      [
        prefixedFrame('prices:', NbboUpdateSchema, 'WsPricesFrame'),
        prefixedFrame('book:', BookUpdateSchema, 'WsBookFrame'),
        prefixedFrame('fair_price:', FairPriceRef, 'WsFairPriceFrame'),
      ],
      { $id: 'WsMarketDataFrame', description: 'The public market-data channels' },
    ),
    prefixedFrame('deployment_logs:', DeploymentLogLine, 'WsDeploymentLogsFrame'),
  ],
  { $id: 'WsServerFrame', description: 'What the server sends: an ack per (un)subscribe call, an error frame, or a data frame' },
);

/** The 101 of `GET /v1/stream`. */
export const StreamUpgradeSchema = webSocketUpgrade({
  query: Type.Object({ ticket: Type.Optional(Type.String({ description: 'single-use ticket from GET /v1/ws/ticket; else send Authorization: Bearer' })) }),
  client: WsClientMessageSchema,
  server: WsServerFrameSchema,
});
