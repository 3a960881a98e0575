import { MarketResolvedUpgradeSchema, NewMarketsUpgradeSchema } from '../schemas/prediction.ts';
import { Type } from 'typebox';
import type { GatewayContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { principalOf, type RouteSpec } from '../http/route.ts';
import { CHANNELS } from '../ws/channels.ts';
import { ErrorBodySchema, IsoTimestamp } from '../schemas/common.ts';
import { StreamUpgradeSchema } from '../schemas/streams.ts';

export function streamRoutes(ctx: GatewayContext): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/v1/ws/ticket',
      operationId: 'getWsTicket',
      summary: 'A short-lived, single-use ticket for /v1/stream?ticket=...',
      tags: ['streams'],
      auth: 'bearer',
      responses: {
        200: {
          description: 'The ticket',
          schema: Type.Object({ ticket: Type.String(), expires_in_ms: Type.Integer(), expires_at: IsoTimestamp }),
        },
      },
      handler: (req) => {
        const now = Date.now();
        const { ticket, expiresAtMs } = ctx.tickets.issue(principalOf(req), now);
        return {
          status: 200,
          body: { ticket, expires_in_ms: expiresAtMs - now, expires_at: new Date(expiresAtMs).toISOString() },
        };
      },
    },
    {
      method: 'get',
      path: '/v1/stream',
      operationId: 'openStream',
      summary: 'Unified WebSocket (upgrade with ?ticket= or a bearer header)',
      description:
        'Send {"subscribe": [channel, ...]} to subscribe; each call is answered by {"type":"subscribed"} and ' +
        'an {"type":"error"} frame for unknown channels. Data frames are {"type":"data","channel","ts_ns","data"}. ' +
        `Channels: ${CHANNELS.map((c) => `${c.name} (${c.description})`).join('; ')}.`,
      tags: ['streams'],
      auth: 'public',
      responses: {
        101: {
          description:
            'Switching protocols to WebSocket; the messages each side sends after it are in x-websocket. The upgrade needs a ticket ' +
            '(?ticket=) or an Authorization: Bearer credential: without a valid one it is refused with 401, over the rate limit with 429 (error envelope)',
          schema: StreamUpgradeSchema,
        },
        426: { description: 'A plain HTTP request: this endpoint needs a WebSocket upgrade (UPGRADE_REQUIRED)', schema: ErrorBodySchema },
      },
      handler: () => {
        throw new ApiError(426, 'UPGRADE_REQUIRED', 'GET /v1/stream needs a WebSocket upgrade', [], { upgrade: 'websocket' });
      },
    },
      ...(['new_markets', 'market_resolved'] as const).map(
      (stream): RouteSpec => ({
        method: 'get',
        path: `/v1/ws/${stream}`,
        operationId: stream === 'new_markets' ? 'openNewMarketsStream' : 'openMarketResolvedStream',
        summary:
          stream === 'new_markets'
            ? 'Prediction markets as they are listed (WebSocket; upgrade with ?ticket= or a bearer header)'
            : 'Prediction market resolutions (WebSocket; upgrade with ?ticket= or a bearer header)',
        description:
          'One JSON text frame per event. On connect the last 128 events are replayed, oldest first, then events stream live, each once. ' +
          (stream === 'new_markets'
            ? 'A frame is a listing row (expanded: one per binary market) with kind "new_market" and observed_at_ns; its figures are null or 0.'
            : 'A frame: kind "market_resolved", venue, event_id (parent_event_id and outcome_name for a candidate of a multi-outcome event), slug, question, ' +
              'winning_outcome (Yes/No), winning_token_id, losing_token_id, resolved_at_ns, observed_at_ns. Every resolution is stored before it is sent.'),
        tags: ['streams', 'prediction markets'],
        auth: 'public',
        responses: {
          101: {
            description: 'Switching protocols to WebSocket; the frames in x-websocket. Without a valid ticket or bearer credential the upgrade is refused with 401, over the rate limit with 429',
            schema: stream === 'new_markets' ? NewMarketsUpgradeSchema : MarketResolvedUpgradeSchema,
          },
          426: { description: 'A plain HTTP request: this endpoint needs a WebSocket upgrade (UPGRADE_REQUIRED)', schema: ErrorBodySchema },
        },
        handler: () => {
          throw new ApiError(426, 'UPGRADE_REQUIRED', `GET /v1/ws/${stream} needs a WebSocket upgrade`, [], { upgrade: 'websocket' });
        },
      }),
    ),
  ];
}
