import { Type, type Static } from 'typebox';
import { INSTRUMENT_KINDS, type InstrumentKind } from '../../execution/ledger/ledger.ts';
import type { GatewayContext } from '../context.ts';
import { privateInterestIndex, type PrivateChannel } from '../../actors/market/interest.ts';
import { Errors } from '../errors.ts';
import { principalOf, type RouteSpec } from '../http/route.ts';
import { PositionsRespSchema, PositionsSyncRespSchema, type PositionsSyncResp } from '../schemas/positions.ts';
import { RiskReadoutSchema, type RiskReadout } from '../schemas/risk.ts';
import { RiskStreamEventSchema, TcaStreamEventSchema } from '../schemas/streams.ts';

const PositionsQuery = Type.Object({
  venues: Type.Optional(Type.String({ description: 'comma list; default all' })),
  kinds: Type.Optional(Type.String({ description: `comma list of ${INSTRUMENT_KINDS.join(', ')}; default all` })),
  include_closed: Type.Optional(Type.Boolean({ default: false })),
});

const list = (value: string | undefined) => (value === undefined ? undefined : value.split(',').map((v) => v.trim()).filter((v) => v !== ''));

export function positionRoutes(ctx: GatewayContext): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/v1/positions',
      operationId: 'getPositions',
      summary: 'Unified positions (fiat and crypto now) with NBBO marks and totals; a sandbox key sees the sandbox book',
      tags: ['positions'],
      auth: 'bearer',
      query: PositionsQuery,
      responses: { 200: { description: 'Positions with their marks, and totals over the returned rows', schema: PositionsRespSchema } },
      handler: async (req) => {
        const p = principalOf(req);
        const q = req.query as Static<typeof PositionsQuery>;
        const kinds = list(q.kinds);
        const bad = kinds?.filter((k) => !(INSTRUMENT_KINDS as readonly string[]).includes(k)) ?? [];
        if (bad.length > 0) throw Errors.validation(bad.map((k) => ({ field: 'kinds', message: `unknown kind ${k}` })));
        const venues = list(q.venues);
        const view = await ctx.execution.positions(p, {
          ...(venues !== undefined ? { venues } : {}),
          ...(kinds !== undefined ? { kinds: kinds as InstrumentKind[] } : {}),
          include_closed: q.include_closed ?? false,
        });
        return { status: 200, body: { ...view, as_of_ns: Date.now() * 1_000_000 } };
      },
    },
    {
      method: 'post',
      path: '/v1/positions/sync',
      operationId: 'syncPositions',
      summary: 'Refresh cost basis from venue trade history (background)',
      tags: ['positions'],
      auth: 'bearer',
      responses: { 200: { description: 'Whether the cost basis is current', schema: PositionsSyncRespSchema } },
      handler: () => ({
        status: 200,
        body: {
          synced: true,
          message: 'the simulated venues report no trade history beyond the fills this service recorded; cost basis is already current',
        } satisfies PositionsSyncResp,
      }),
    },
    {
      method: 'get',
      path: '/v1/risk/stream',
      operationId: 'streamRisk',
      summary: 'Server-sent events: `risk` with the risk read-out on every change (orders finishing, kill switch)',
      tags: ['risk'],
      auth: 'bearer',
      responses: { 200: { description: 'A stream of `risk` events: the read-out at once, then on every change', schema: RiskStreamEventSchema } },
      handler: (req) => {
        const p = principalOf(req);
        return {
          status: 200,
          body: undefined,
          sse: (sink) => {
            riskReadout(ctx, p.client_id, p.mode).then(
              (readout) => sink.send('risk', readout),
              (err: unknown) => ctx.log.warn({ err }, 'first risk read-out not sent'),
            );
            // Risk read-outs follow finished orders: the router builds order events for this listener.
            return listening(ctx, ['orders', 'margin'], p, ctx.streams.risk.subscribe(`${p.client_id}|${p.mode}`, sink));
          },
        };
      },
    },
    {
      method: 'get',
      path: '/v1/tca/stream',
      operationId: 'streamTca',
      summary: 'Server-sent events: `tca_report` after each order completes; filter with node_order_id',
      tags: ['orders'],
      auth: 'bearer',
      query: Type.Object({ node_order_id: Type.Optional(Type.String({ maxLength: 200 })) }),
      responses: { 200: { description: 'A stream of `tca_report` events, one per completed order', schema: TcaStreamEventSchema } },
      handler: (req) => {
        const p = principalOf(req);
        const only = req.query['node_order_id'] as string | undefined;
        return {
          status: 200,
          body: undefined,
          sse: (sink) => listening(ctx, ['tca'], p, ctx.streams.tca.subscribe(`${p.client_id}|${p.mode}`, sink, (r) => only === undefined || r.node_order_id === only)),
        };
      },
    },
    {
      method: 'get',
      path: '/v1/risk',
      operationId: 'getRisk',
      summary: 'Informational risk read-out: kill switch, limits, reservations, working orders, exposure',
      tags: ['risk'],
      auth: 'bearer',
      responses: { 200: { description: 'Risk state', schema: RiskReadoutSchema } },
      handler: async (req) => {
        const p = principalOf(req);
        return { status: 200, body: await riskReadout(ctx, p.client_id, p.mode) };
      },
    },
  ];
}

/** The risk read-out of a client in a mode: `GET /v1/risk` and the `risk` stream events. */
export async function riskReadout(ctx: GatewayContext, client: string, mode: 'live' | 'sandbox'): Promise<RiskReadout> {
  const ledger = await ctx.execution.risk({ client_id: client, mode });
  return {
    kill_switch: ctx.killSwitch.state,
    limits: { max_order_notional_usd_1e9: ctx.executionConfig.maxOrderNotionalUsd1e9 },
    working_orders: ctx.storage.orders.countOpen(client, mode),
    reserved: ledger.reserved,
    nav_usd_1e9: ledger.nav_usd_1e9,
    cash_usd_1e9: ledger.cash_usd_1e9,
    gross_exposure_usd_1e9: ledger.gross_exposure_usd_1e9,
    as_of_ns: Date.now() * 1_000_000,
  };
}

/** Counts an SSE listener in the shared private interest while it is subscribed (the router reads it). */
function listening(ctx: GatewayContext, channels: readonly PrivateChannel[], p: { client_id: string; mode: 'live' | 'sandbox' }, unsubscribe: () => void): () => void {
  const interest = new Int32Array(ctx.market.memory.interest);
  const indexes = channels.map((channel) => privateInterestIndex(channel, p.client_id, p.mode));
  for (const index of indexes) Atomics.add(interest, index, 1);
  return () => {
    unsubscribe();
    for (const index of indexes) Atomics.sub(interest, index, 1);
  };
}
