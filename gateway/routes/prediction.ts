import { Type, type Static } from 'typebox';
import { selectPage } from '../../domain/prediction/listing.ts';
import { classifySymbol } from '../../domain/prediction/symbols.ts';
import type { GatewayContext } from '../context.ts';
import { Errors } from '../errors.ts';
import type { RouteSpec } from '../http/route.ts';
import { marketsPageJson } from '../market/market-rows-json.ts';
import { PredictionQuotes } from '../market/prediction-quotes.ts';
import { settlementOf } from '../market/settlement.ts';
import { MarketsPageSchema, MarketsQuery, SettlementQuery, SettlementSchema } from '../schemas/prediction.ts';

/**
 * The prediction-market endpoints (spec, "Prediction markets endpoints", "Markets listing
 * rules"), over the gateway's copy of both venues' catalogs (`market/prediction-catalog.ts`).
 * The listing itself is pure (`domain/prediction/listing.ts`); docs/prediction-markets.md has
 * the decisions where the spec is silent.
 */
const tags = ['prediction markets'];

export function predictionRoutes(ctx: GatewayContext): RouteSpec[] {
  const catalog = ctx.market.prediction;
  const legs = new PredictionQuotes(catalog, ctx.topology.endpoint);
  return [
    {
      method: 'get',
      path: '/v1/markets',
      operationId: 'listMarkets',
      summary: 'Prediction markets of one venue: filters, order, expand=outcomes, cursor pages',
      description:
        'Status filters: active=true&closed=false trading only; true/true open, closed and settled; false/true resolved only; false/false every status on the ticker-style venue, trading on the token-style one. ' +
        'Walk with `cursor` = `next_cursor` until `has_more` is false; a cursor is only valid with the query that gave it.',
      tags,
      auth: 'bearer',
      query: MarketsQuery,
      responses: {
        200: { description: 'One page of rows', schema: MarketsPageSchema },
        400: { description: 'limit outside 1-500, or a cursor from another query' },
        404: { description: 'unknown slug or ticker' },
      },
      handler: (req) => {
        const q = req.query as Static<typeof MarketsQuery>;
        const now = Date.now();
        const result = selectPage(
          catalog.events(q.venue ?? 'polymarket'),
          {
            venue: q.venue ?? 'polymarket',
            slug: q.slug,
            q: q.q,
            tag: q.tag,
            active: q.active ?? true,
            closed: q.closed ?? false,
            limit: q.limit ?? 20,
            cursor: q.cursor,
            order: q.order,
            expand: q.expand === 'outcomes',
          },
          catalog.statsOf,
          now,
        );
        if (!result.ok) {
          if (result.status === 404) throw Errors.notFound(result.message);
          throw Errors.validation([{ field: result.field, message: result.message }], result.message);
        }
        return { status: 200, body: undefined, json: marketsPageJson(result.refs, catalog.statsOf, now) };
      },
    },
    {
      method: 'get',
      path: '/v1/settlement/{slug}',
      operationId: 'getSettlement',
      summary: 'Settlement state of a prediction market: status, outcome, prices, the up/down underlying',
      tags,
      auth: 'bearer',
      params: Type.Object({ slug: Type.String({ minLength: 1, maxLength: 400, description: 'ticker, slug or event URL (raw token ids are rejected for the token-style venue)' }) }),
      query: SettlementQuery,
      responses: {
        200: { description: 'Settlement', schema: SettlementSchema },
        400: { description: 'a raw token id, a malformed name, or a multi-outcome event (AMBIGUOUS_MULTI_OUTCOME)' },
        404: { description: 'unknown slug or ticker' },
      },
      handler: (req) => {
        const name = req.params['slug']!;
        const q = req.query as Static<typeof SettlementQuery>;
        if (classifySymbol(name).kind === 'token' || name.startsWith('polymarket:')) {
          throw Errors.validation([{ field: 'slug', message: 'raw token ids are rejected for the token-style venue: pass the market slug' }]);
        }
        const leg = legs.resolve(name);
        if (leg === undefined) throw Errors.notFound(`${name} is not a prediction market`);
        const m = leg.market;
        const record = catalog.record(m.venue, m.event_id);
        return { status: 200, body: settlementOf(m, record?.event.neg_risk ?? false, record, catalog.statsOf(m), Date.now(), q.underlying ?? true) };
      },
    },
  ];
}
