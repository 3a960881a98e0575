import { Type, type Static } from 'typebox';
import type { EdgeMessage, EdgeStatus } from '../../actors/edge/messages.ts';
import { edgeSpec, edgesListing, EDGES, feeRowOf, marketFeeComponents } from '../../domain/venues.ts';
import { binaryFeeRow } from '../../domain/prediction/fees.ts';
import { PredictionQuotes } from '../market/prediction-quotes.ts';
import type { FairMessage, FairReply } from '../../actors/fair-price/messages.ts';
import { FAIR_ACTOR } from '../../actors/fair-price/messages.ts';
import { books, edgeKey } from '../../actors/market/directory.ts';
import { isVenueId, parseSymbol, VENUES } from '../../domain/market.ts';
import type { GatewayContext } from '../context.ts';
import { Errors } from '../errors.ts';
import type { RouteSpec } from '../http/route.ts';

const EdgeStatusSchema = Type.Object(
  {
    edge_id: Type.String(),
    connected: Type.Boolean(),
    symbol_count: Type.Integer({ minimum: 0 }),
    symbols: Type.Array(Type.Object({ symbol: Type.String(), instrument_type: Type.String({ enum: ['spot', 'perp', 'prediction'] }) })),
    last_seen_ms: Type.Integer({ minimum: 0 }),
    supports_algo_runtime: Type.Boolean(),
    region: Type.Union([Type.String(), Type.Null()]),
    remote: Type.Optional(Type.Union([Type.Boolean(), Type.Null()], { description: 'true when reached through a peer node in another region (NATS, docs/regions.md); omitted for local edges' })),
    age_ms: Type.Optional(Type.Integer({ minimum: 0, description: 'a remote edge: how old its data is here, the transit between regions included' })),
    venue: Type.String(),
    instrument_type: Type.String(),
  },
  { $id: 'EdgeStatusResponse' },
);

const FeeRowSchema = Type.Object(
  {
    venue: Type.String(),
    fee_model: Type.String({ enum: ['linear', 'binary_quadratic'] }),
    components: Type.Record(Type.String(), Type.Union([Type.Number(), Type.String()])),
    formula: Type.Object({ taker_fee_usd: Type.String(), maker_fee_usd: Type.String() }),
    maker_bps: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    taker_bps: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  },
  { $id: 'FeeRow' },
);

const FairPriceSchema = Type.Object(
  {
    underlying: Type.String(),
    fair_mid_1e9: Type.Integer(),
    spot_mid_1e9: Type.Union([Type.Integer(), Type.Null()]),
    perp_mid_1e9: Type.Union([Type.Integer(), Type.Null()]),
    basis_bps: Type.Union([Type.Number(), Type.Null()]),
    confidence: Type.Number({ minimum: 0, maximum: 1 }),
    contributors: Type.Array(
      Type.Object({
        venue: Type.String(),
        instrument_type: Type.String({ enum: ['spot', 'perp'] }),
        mid_1e9: Type.Integer(),
        weight: Type.Number(),
        staleness_ms: Type.Integer(),
      }),
    ),
    cc_ts_ns: Type.Integer(),
  },
  { $id: 'FairPrice' },
);

const FeesQuery = Type.Object({
  ticker: Type.String({ minLength: 1, maxLength: 200, description: 'a CEX symbol, a ticker-style ticker, a 78-digit token id, or a slug' }),
  venues: Type.Optional(Type.String({ description: 'comma list of venue ids; default every venue that plausibly lists the ticker' })),
});

const tags = ['market data'];
const STATUS_TIMEOUT_MS = 1_000;

/**
 * Asks every edge for its status; an edge that does not answer is reported disconnected. Among
 * regions a local edge is in this node's region, and a remote edge says which it is in.
 */
export async function edgeStatuses(ctx: GatewayContext): Promise<Omit<EdgeStatus, 'stats'>[]> {
  const here = ctx.executionConfig.region?.name;
  const statuses = await Promise.all(
    EDGES.map(async (spec) => {
      try {
        const { stats: _stats, ...status } = await ctx.topology.endpoint.ask<EdgeStatus>(
          edgeKey(spec.edge_id),
          { t: 'Status' } satisfies EdgeMessage,
          STATUS_TIMEOUT_MS,
        );
        return status;
      } catch {
        return {
          edge_id: spec.edge_id,
          venue: spec.venue,
          instrument_type: spec.instrument_type,
          connected: false,
          symbol_count: 0,
          symbols: [],
          last_seen_ms: 0,
          region: spec.region,
          supports_algo_runtime: spec.supports_algo_runtime,
        };
      }
    }),
  );
  return here === undefined ? statuses : statuses.map((s) => (s.remote === true ? s : { ...s, region: here }));
}

export function marketRoutes(ctx: GatewayContext): RouteSpec[] {
  const ask = ctx.topology.endpoint;
  const predictions = new PredictionQuotes(ctx.market.prediction, ask);
  return [
    {
      method: 'get',
      path: '/v1/symbols',
      operationId: 'listSymbols',
      summary: 'Tradeable instruments with instrument type and per-venue availability',
      tags,
      auth: 'bearer',
      responses: {
        200: {
          description: 'Instruments',
          schema: Type.Object({
            symbols: Type.Array(
              Type.Object({
                symbol: Type.String(),
                instrument_type: Type.String(),
                base: Type.String(),
                quote: Type.String(),
                venues: Type.Array(Type.Object({ venue: Type.String(), edge_id: Type.String(), min_qty_1e8: Type.Integer(), tick_1e9: Type.Integer(), lot_1e8: Type.Integer(), min_notional_1e9: Type.Integer() })),
              }),
            ),
            count: Type.Integer(),
          }),
        },
      },
      handler: () => {
        const symbols = books().map((b) => {
          const parts = parseSymbol(b.symbol)!;
          return {
            symbol: b.symbol,
            instrument_type: b.instrument_type,
            base: parts.base,
            quote: parts.quote,
            venues: b.edges.map((edge, i) => {
              const rules = edgeSpec(edge)!.listings.find((l) => l.symbol === b.symbol)!.rules;
              return { venue: b.venues[i]!, edge_id: edge, ...rules };
            }),
          };
        });
        return { status: 200, body: { symbols, count: symbols.length } };
      },
    },
    {
      method: 'get',
      path: '/v1/edges',
      operationId: 'listEdges',
      summary: 'Venue edges: connected, the symbols each streams, last seen',
      tags,
      auth: 'bearer',
      responses: { 200: { description: 'Bare array of edge status', schema: Type.Array(EdgeStatusSchema) } },
      handler: async () => ({ status: 200, body: await edgeStatuses(ctx) }),
    },
    {
      method: 'get',
      path: '/v1/fair_price',
      operationId: 'listFairPrice',
      summary: 'Underlyings with a fair price (at most 256)',
      tags,
      auth: 'bearer',
      responses: { 200: { description: 'Tracked underlyings', schema: Type.Object({ underlyings: Type.Array(Type.String()) }) } },
      handler: async () => ({
        status: 200,
        body: { underlyings: await ask.ask<string[]>(FAIR_ACTOR, { t: 'List' } satisfies FairMessage, 2_000) },
      }),
    },
    {
      method: 'get',
      path: '/v1/fair_price/{underlying}',
      operationId: 'getFairPrice',
      summary: 'Cross-venue fair price of an underlying (USD, USDT and USDC pairs collapse)',
      tags,
      auth: 'bearer',
      params: Type.Object({ underlying: Type.String({ pattern: '^[A-Za-z0-9]{1,15}$' }) }),
      responses: { 200: { description: 'Fair price', schema: FairPriceSchema }, 404: { description: 'Untracked underlying' } },
      handler: async (req) => {
        const underlying = req.params['underlying']!.toUpperCase();
        const fair = await ask.ask<FairReply>(FAIR_ACTOR, { t: 'Get', underlying } satisfies FairMessage, 2_000);
        if (fair === null) throw Errors.notFound(`no fair price for ${underlying}`);
        return { status: 200, body: fair };
      },
    },
    {
      method: 'get',
      path: '/v1/fees',
      operationId: 'getFees',
      summary: 'Fee schedules (linear for exchanges) with their formulas',
      tags,
      auth: 'bearer',
      query: FeesQuery,
      responses: {
        200: { description: 'Fee rows', schema: Type.Object({ ticker: Type.String(), fees: Type.Array(FeeRowSchema) }) },
      },
      handler: (req) => {
        const q = req.query as Static<typeof FeesQuery>;
        const ticker = q.ticker.trim();
        let wanted: string[] | undefined;
        if (q.venues !== undefined) {
          wanted = q.venues.split(',').map((v) => v.trim().toLowerCase()).filter((v) => v !== '');
          const unknown = wanted.filter((v) => !isVenueId(v));
          if (unknown.length > 0) {
            throw Errors.validation(unknown.map((v) => ({ field: 'venues', message: `unknown venue ${v}; known: ${VENUES.join(', ')}` })));
          }
        }
        // A prediction market's own curve (its rate): a ticker, slug, token id or URL naming one leg.
        // A Kalshi ticker with one dash (KXPRESHYR-26NOV28) also reads as a pair: one that no venue
        // lists is asked of the prediction catalog too (unknown there, it is an unlisted pair).
        const pair = parseSymbol(ticker.toUpperCase()) !== undefined;
        const leg = !pair ? predictions.resolve(ticker) : listingVenues(ticker).length === 0 ? predictions.resolveKnown(ticker) : undefined;
        if (leg !== undefined) {
          const fees = wanted === undefined || wanted.includes(leg.venue) ? [binaryFeeRow(leg.venue, marketFeeComponents(leg.market))] : [];
          return { status: 200, body: { ticker, fees } };
        }
        const venues = wanted ?? listingVenues(ticker);
        const fees = venues.map((v) => feeRowOf(v, scheduleFor(ticker, v))).filter((r) => r !== undefined);
        return { status: 200, body: { ticker, fees } };
      },
    },
  ];
}

/** The schedule a venue applies to a CEX pair: spot where it lists the pair spot, perp where only perp. */
function scheduleFor(ticker: string, venue: string): 'spot' | 'perp' {
  const symbol = ticker.toUpperCase();
  const spot = edgesListing(symbol, 'spot').some((e) => e.venue === venue);
  const perp = edgesListing(symbol, 'perp').some((e) => e.venue === venue);
  return !spot && perp ? 'perp' : 'spot';
}

/** The venues listing a CEX pair (prediction names are resolved to their market before this). */
function listingVenues(ticker: string): string[] {
  return [...new Set(edgesListing(ticker.toUpperCase()).map((e) => e.venue))];
}
