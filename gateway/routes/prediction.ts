import { Type, type Static } from 'typebox';
import { selectPage } from '../../domain/prediction/listing.ts';
import { classifySymbol } from '../../domain/prediction/symbols.ts';
import type { GatewayContext } from '../context.ts';
import { Errors } from '../errors.ts';
import { principalOf, type RouteSpec } from '../http/route.ts';
import type { PredictionMarket, PredictionVenue } from '../../domain/prediction/catalog.ts';
import type { MarketResolution } from '../../storage/market-resolutions.ts';
import type { ResolutionFacts } from '../../execution/contract-outcomes.ts';
import { marketsPageJson } from '../market/market-rows-json.ts';
import { PredictionQuotes } from '../market/prediction-quotes.ts';
import { settlementOf } from '../market/settlement.ts';
import { RewardsPrograms } from '../market/rewards.ts';
import { MarketsPageSchema, MarketsQuery, RedeemQuery, RedeemSchema, RewardsConfigSchema, RewardsListSchema, RewardsParams, RewardsTokenParams, SettlementQuery, SettlementSchema } from '../schemas/prediction.ts';

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
  const rewards = new RewardsPrograms(catalog);
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
    {
      method: 'post',
      path: '/v1/markets/{slug}/redeem',
      operationId: 'redeemMarket',
      summary: "Redeem the caller's resolved positions of a market (or of every market of an event)",
      description:
        'ticker-style venue: `auto_settled` (the venue settles by itself; the positions are credited now); token-style venue: `relayer_submitted` (the credit lands asynchronously, then the positions are `redeemed`); `noop` when nothing resolved is held. ' +
        'A market not yet resolved is 409 MARKET_NOT_RESOLVED, and nothing changes.',
      tags,
      auth: 'bearer',
      params: Type.Object({ slug: Type.String({ minLength: 1, maxLength: 400, description: 'market slug or ticker, event slug or ticker, event URL, or token id' }) }),
      query: RedeemQuery,
      responses: {
        200: { description: 'What the venue does with the redemption', schema: RedeemSchema },
        400: { description: 'a malformed name, or a venue that does not list it' },
        404: { description: 'unknown slug or ticker' },
        409: { description: 'the market has not resolved (MARKET_NOT_RESOLVED)' },
      },
      handler: async (req) => {
        const name = req.params['slug']!;
        const q = req.query as Static<typeof RedeemQuery>;
        const target = redeemTarget(catalog, name, q.venue);
        const markets = target.markets.map((m) => ctx.storage.marketResolutions.get(m.venue, m.market_id));
        const resolved = markets.filter((r): r is MarketResolution => r !== undefined);
        if (resolved.length === 0) throw Errors.marketNotResolved(`${name} has not resolved yet: nothing can be redeemed before its outcome is known`);
        const answer = await ctx.execution.redeem(principalOf(req), target.venue, resolved.map(factsOf), ctx.executionConfig.redeemCreditDelayMs);
        const body: Static<typeof RedeemSchema> = {
          mode: answer.mode,
          venue: target.venue,
          slug: target.slug,
          condition_id: target.venue === 'polymarket' ? (target.markets[0]?.condition_id ?? null) : null,
          token_ids: target.venue === 'polymarket' ? resolved.flatMap((r) => [r.yes_token_id!, r.no_token_id!]) : null,
          note: noteOf(answer.mode, answer.positions, ctx.executionConfig.redeemCreditDelayMs),
        };
        return { status: 200, body };
      },
    },
    {
      method: 'get',
      path: '/v1/{prediction_venue}/rewards',
      operationId: 'listRewards',
      summary: 'Every token in a maker-rewards program now (the token-style venue)',
      description: 'Programs are read at most every 5 minutes; one that ends drops out at once, and current_spread is the book now.',
      tags,
      auth: 'bearer',
      params: RewardsParams,
      responses: { 200: { description: 'The rewarded tokens, richest programs first', schema: RewardsListSchema } },
      handler: () => {
        const { rewards: rows, refreshed_ms } = rewards.list();
        const body: Static<typeof RewardsListSchema> = { venue: 'polymarket', rewards: rows, count: rows.length, refreshed_at_unix_s: Math.floor(Math.max(0, refreshed_ms) / 1000) };
        return { status: 200, body };
      },
    },
    {
      method: 'get',
      path: '/v1/{prediction_venue}/rewards/{token_id}',
      operationId: 'getRewards',
      summary: "A token's maker-rewards program",
      tags,
      auth: 'bearer',
      params: RewardsTokenParams,
      responses: {
        200: { description: 'The rewards config', schema: RewardsConfigSchema },
        400: { description: 'not a 78-digit token id' },
        404: { description: 'the token is in no program now' },
      },
      handler: (req) => {
        const token = req.params['token_id']!;
        const ref = classifySymbol(token);
        if (ref.kind !== 'token') throw Errors.validation([{ field: 'token_id', message: ref.kind === 'invalid' ? ref.reason : 'not a token id: rewards are per conditional token (78 digits)' }]);
        const config = rewards.get(ref.token_id);
        if (config === undefined) throw Errors.notFound(`token ${ref.token_id} is in no maker-rewards program now`);
        return { status: 200, body: config };
      },
    },
  ];
}

function factsOf(r: MarketResolution): ResolutionFacts {
  return { venue: r.venue, market_id: r.market_id, yes_token_id: r.yes_token_id, no_token_id: r.no_token_id, yes_won: r.yes_won, resolved_at_ns: r.resolved_at_ns } as ResolutionFacts;
}

function noteOf(mode: 'auto_settled' | 'relayer_submitted' | 'noop', positions: number, delayMs: number): string {
  if (mode === 'noop') return 'nothing to redeem: no resolved position of this market is held (already redeemed, or never held)';
  if (mode === 'auto_settled') return `the venue settles resolved markets by itself; ${positions} position(s) credited`;
  return `redemption submitted through the relayer for ${positions} position(s); the credit lands in about ${Math.round(delayMs / 1000)} s, then the positions are redeemed`;
}

/**
 * The markets a redeem names: a market (its ticker, slug, token id) or every market of an event
 * (its slug or ticker: a multi-outcome event is redeemed whole). 404 for an unknown name; 400
 * when `venue` does not list it.
 */
function redeemTarget(catalog: GatewayContext['market']['prediction'], name: string, venue: string | undefined): { venue: PredictionVenue; slug: string; markets: PredictionMarket[] } {
  const ref = classifySymbol(name);
  if (ref.kind === 'invalid') throw Errors.validation([{ field: 'slug', message: ref.reason }]);
  if (ref.kind === 'cex') throw Errors.notFound(`${name} is not a prediction market`);
  const byName = catalog.resolver.resolve(name);
  let found: { venue: PredictionVenue; slug: string; markets: PredictionMarket[] } | undefined;
  if (byName?.ok === true) found = { venue: byName.resolved.venue, slug: byName.resolved.market.market_id, markets: [byName.resolved.market] };
  else {
    const slug = ref.kind === 'slug' ? ref.slug : ref.kind === 'ticker' ? ref.ticker : undefined;
    const v: PredictionVenue | undefined = ref.kind === 'ticker' ? 'kalshi' : ref.kind === 'slug' ? 'polymarket' : undefined;
    const event = slug === undefined || v === undefined ? undefined : catalog.index.event(v, slug);
    if (event !== undefined) found = { venue: event.venue, slug: event.slug, markets: event.markets };
  }
  if (found === undefined) throw Errors.notFound(`no prediction market or event is named ${name}`);
  if (venue !== undefined && venue !== found.venue) throw Errors.validation([{ field: 'venue', message: `${venue} does not list ${name} (it is on ${found.venue})` }]);
  return found;
}
