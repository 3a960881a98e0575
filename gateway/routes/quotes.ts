import { Type, type Static } from 'typebox';
import type { GatewayContext } from '../context.ts';
import { Errors } from '../errors.ts';
import type { RouteSpec } from '../http/route.ts';
import { MAX_DEPTH } from '../../actors/book/quote-cache.ts';
import type { QuoteResponse } from '../market/quotes.ts';
import { batchFailure, PredictionQuotes, type PredictionQuote } from '../market/prediction-quotes.ts';
import { dexQuote, poolsFor } from '../market/pools.ts';
import { dexPair, isDexSymbol } from '../../domain/chains.ts';

const InstrumentTypeQuery = Type.Union([Type.Literal('spot'), Type.Literal('perp'), Type.Literal('prediction')], {
  description: 'auto-detected when omitted: spot when the symbol trades spot, else perp, else a prediction market leg (ticker, slug, token id or event URL)',
});

const Pair = Type.Array(Type.Number(), { minItems: 2, maxItems: 2, description: '[price, size] (decimals)' });

const QuoteNbboSchema = Type.Object(
  {
    bid: Type.Number(),
    ask: Type.Number(),
    mid: Type.Number({ description: '0 when the consolidated book is crossed' }),
    spread_bps: Type.Number({ description: '0 when the consolidated book is crossed' }),
    bid_size: Type.Number(),
    ask_size: Type.Number(),
    crossed: Type.Boolean(),
  },
  { $id: 'QuoteNbbo' },
);

const QuoteVenueSchema = Type.Object(
  {
    bid: Type.Number(),
    ask: Type.Number(),
    bid_size: Type.Number(),
    ask_size: Type.Number(),
    age_ms: Type.Integer({ minimum: 0, description: "ms since the venue's last tick" }),
  },
  { $id: 'QuoteVenue' },
);

export const QuoteResponseSchema = Type.Object(
  {
    symbol: Type.String(),
    instrument_type: Type.String({ enum: ['spot', 'perp', 'prediction', 'dex'], description: 'dex: a chain-suffixed pair (BASE-QUOTE-CHAIN), quoted from its pools' }),
    nbbo: QuoteNbboSchema,
    venues: Type.Record(Type.String(), QuoteVenueSchema),
    book: Type.Object({ bids: Type.Array(Pair), asks: Type.Array(Pair) }),
    source: Type.String({ enum: ['edge_nbbo', 'edge_rpc_snapshot', 'venue_public_api', 'unavailable'] }),
    updated_ms: Type.Integer({ minimum: 0 }),
    market: Type.Optional(
      Type.Object(
        {
          venue: Type.String(),
          market_id: Type.String(),
          event_id: Type.String(),
          question: Type.String(),
          leg: Type.String({ enum: ['YES', 'NO'] }),
          token_id: Type.String({ description: 'the leg: a 78-digit token id, or `<ticker>:YES|NO`' }),
          status: Type.String(),
        },
        { description: 'prediction legs only: the market and leg the symbol resolved to; prices are probabilities, sizes contracts' },
      ),
    ),
    equivalents: Type.Optional(
      Type.Array(
        Type.Object({
          venue: Type.String(),
          market_id: Type.String(),
          leg: Type.String({ enum: ['YES', 'NO'] }),
          token_id: Type.String(),
          relation: Type.String({ enum: ['same', 'complement'], description: 'complement: the question is asked the other way round there, so the outcome is its other leg' }),
          status: Type.String(),
        }),
        { description: 'cross_venue_equivalents=true only: the same outcome on the other venue, consolidated into nbbo, venues and book' },
      ),
    ),
  },
  { $id: 'QuoteResponse' },
);

const SymbolParam = Type.Object({ symbol: Type.String({ minLength: 1, maxLength: 200 }) });

const SingleQuoteQuery = Type.Object({
  depth: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_DEPTH, default: 10 })),
  nowait: Type.Optional(Type.Boolean({ default: false })),
  instrument_type: Type.Optional(InstrumentTypeQuery),
  cross_venue_equivalents: Type.Optional(
    Type.Boolean({ default: false, description: "prediction legs: the outcome's consolidated quote over both venues (its equivalents' same leg, or other leg where the question is inverted)" }),
  ),
});

const MultiQuoteQuery = Type.Object({
  symbols: Type.Optional(Type.String({ description: 'comma list', maxLength: 40_000 })),
  symbol: Type.Optional(Type.String({ description: 'alias of symbols', maxLength: 40_000 })),
  max_age_s: Type.Optional(Type.Number({ minimum: 0, default: 300, description: 'NBBO-level age filter; 0 filters everything out' })),
});

const BatchBody = Type.Object(
  {
    symbols: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 2000 }),
    depth: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10, description: `levels above ${MAX_DEPTH} are capped at ${MAX_DEPTH}` })),
    nowait: Type.Optional(Type.Boolean({ default: false })),
    concurrency: Type.Optional(Type.Integer({ minimum: 1, maximum: 256, default: 64 })),
    instrument_type: Type.Optional(Type.Union([InstrumentTypeQuery, Type.Null()])),
  },
  { $id: 'QuotesBatchRequest', additionalProperties: false },
);

const BatchEntry = Type.Union([
  QuoteResponseSchema,
  Type.Object({
    symbol: Type.String(),
    error: Type.String(),
    code: Type.String(),
    outcomes: Type.Optional(Type.Array(Type.String(), { description: 'AMBIGUOUS_MULTI_OUTCOME only: candidate labels' })),
    outcome_token_ids: Type.Optional(Type.Array(Type.String(), { description: 'AMBIGUOUS_MULTI_OUTCOME only: parallel ids to retry with' })),
  }),
]);

const tags = ['market data'];

const noQuote = (symbol: string, type: string | undefined) => Errors.notFound(`no quote data for ${symbol}${type ? ` (${type})` : ''}`);

export function quoteRoutes(ctx: GatewayContext): RouteSpec[] {
  const quotes = ctx.market.quotes;
  const predictions = new PredictionQuotes(ctx.market.prediction, ctx.topology.endpoint);
  /** A prediction leg's quote when the symbol names one (the errors of resolution thrown), else undefined. */
  const predictionQuote = (symbol: string, depth: number, type: string | undefined, crossVenue = false): Promise<PredictionQuote> | undefined => {
    if (type !== undefined && type !== 'prediction') return undefined;
    const quote = predictions.quoteSymbol(symbol, depth, crossVenue);
    return quote.then((q) => {
      if (q === undefined) throw noQuote(symbol, type);
      return q;
    });
  };
  return [
    {
      method: 'get',
      path: '/v1/quotes/{symbol}',
      operationId: 'getQuote',
      summary: 'Single-symbol quote: NBBO, per-venue quotes, merged book',
      tags,
      auth: 'bearer',
      params: SymbolParam,
      query: SingleQuoteQuery,
      responses: { 200: { description: 'Quote', schema: QuoteResponseSchema }, 404: { description: 'Unknown symbol' } },
      handler: (req) => {
        const q = req.query as Static<typeof SingleQuoteQuery>;
        const symbol = req.params['symbol']!;
        const depth = q.depth ?? 10;
        // A chain-suffixed pair is quoted from its pools (gateway/market/pools.ts).
        if (isDexSymbol(symbol)) {
          return poolsFor(ctx.topology.endpoint, dexPair(symbol)!).then((found) => {
            if (found.length === 0) throw noQuote(symbol, 'dex');
            return { status: 200, body: dexQuote(symbol, found) };
          });
        }
        // CEX pairs first (the hot path); a name that is no pair is a prediction leg or unknown.
        const entry = q.instrument_type === 'prediction' ? undefined : quotes.resolve(symbol, q.instrument_type);
        if (entry === undefined) {
          const prediction = predictionQuote(symbol, depth, q.instrument_type, q.cross_venue_equivalents);
          if (prediction !== undefined) return prediction.then((body) => ({ status: 200, body }));
          throw noQuote(symbol, q.instrument_type);
        }
        if (q.cross_venue_equivalents === true) throw Errors.validation([{ field: 'cross_venue_equivalents', message: 'applies to prediction markets only' }]);
        // The hot path answers synchronously from shared memory; only a cold symbol awaits.
        const json = quotes.hotJson(entry, depth);
        if (json !== undefined) return { status: 200, body: undefined, json };
        return quotes.quote(entry, depth, q.nowait ?? false).then((body) => ({ status: 200, body }));
      },
    },
    {
      method: 'get',
      path: '/v1/quotes',
      operationId: 'listQuotes',
      summary: 'NBBO and per-venue quotes for several symbols, filtered by NBBO age',
      tags,
      auth: 'bearer',
      query: MultiQuoteQuery,
      responses: {
        200: {
          description: 'Quotes younger than max_age_s',
          schema: Type.Object({
            quotes: Type.Array(Type.Object({ symbol: Type.String(), nbbo: QuoteNbboSchema, venues: Type.Record(Type.String(), QuoteVenueSchema) })),
          }),
        },
      },
      handler: async (req) => {
        const q = req.query as Static<typeof MultiQuoteQuery>;
        const list = (q.symbols ?? q.symbol ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
        if (list.length === 0) throw Errors.validation([{ field: 'symbols', message: 'at least one symbol is required' }]);
        if (list.length > 2000) throw Errors.validation([{ field: 'symbols', message: 'at most 2000 symbols' }]);
        const maxAgeMs = (q.max_age_s ?? 300) * 1000;
        const now = Date.now();
        const found = list.map(async (symbol): Promise<Pick<QuoteResponse, 'symbol' | 'nbbo' | 'venues'> | undefined> => {
          const entry = quotes.resolve(symbol);
          // A symbol that is no pair may be a prediction leg; one that fails to resolve is left out, as an unknown pair is.
          const quote = entry !== undefined ? quotes.cached(entry, 1) : await predictionQuote(symbol, 1, undefined)?.catch(() => undefined);
          if (quote === undefined || !(now - quote.updated_ms < maxAgeMs)) return undefined;
          return { symbol: quote.symbol, nbbo: quote.nbbo, venues: quote.venues };
        });
        const out = (await Promise.all(found)).filter((q) => q !== undefined);
        return { status: 200, body: { quotes: out } };
      },
    },
    {
      method: 'post',
      path: '/v1/quotes_batch',
      operationId: 'quotesBatch',
      summary: 'Quotes for up to 2000 symbols; per-symbol failures are entries, not errors',
      tags,
      auth: 'bearer',
      body: BatchBody,
      responses: {
        200: {
          description: 'One entry per requested symbol, in order',
          schema: Type.Object({ quotes: Type.Array(BatchEntry), count: Type.Integer(), elapsed_ms: Type.Integer() }),
        },
      },
      handler: async (req) => {
        const started = performance.now();
        const body = req.body as Static<typeof BatchBody>;
        const depth = Math.min(body.depth ?? 10, MAX_DEPTH);
        const nowait = body.nowait ?? false;
        const type = body.instrument_type ?? undefined;
        const results: unknown[] = new Array(body.symbols.length);
        let next = 0;
        const worker = async () => {
          while (next < body.symbols.length) {
            const i = next++;
            const symbol = body.symbols[i]!;
            const entry = type === 'prediction' ? undefined : quotes.resolve(symbol, type);
            try {
              if (entry !== undefined) {
                results[i] = await quotes.quote(entry, depth, nowait);
                continue;
              }
              const prediction = predictionQuote(symbol, depth, type);
              results[i] = prediction !== undefined ? await prediction : { symbol, error: `no quote data for ${symbol}`, code: 'NOT_FOUND' };
            } catch (err) {
              results[i] = batchFailure(symbol, err);
            }
          }
        };
        await Promise.all(Array.from({ length: Math.min(body.concurrency ?? 64, body.symbols.length) }, worker));
        return {
          status: 200,
          body: { quotes: results, count: results.length, elapsed_ms: Math.round(performance.now() - started) },
        };
      },
    },
  ];
}
