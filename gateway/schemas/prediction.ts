import { Type } from 'typebox';
import { LISTING_ORDERS, type ListingPage, type MarketRow } from '../../domain/prediction/listing.ts';
import { MARKET_PHASES, PREDICTION_VENUE_IDS } from '../../domain/prediction/catalog.ts';
import { Count, describing, Nullable, StringEnum } from './common.ts';
import { webSocketUpgrade } from './media.ts';
import type { Settlement } from '../market/settlement.ts';
import type { RewardsConfig } from '../../domain/prediction/rewards.ts';

/**
 * Prediction markets (spec: "Prediction market (`Market`)", "Markets listing rules"). Prices are
 * probabilities in 0..1 and volumes USD, as decimals, as the venues publish them; money that
 * the service books (orders, fills, positions) stays in integer units.
 */

const Probability = (description: string) => Nullable(Type.Number({ minimum: 0, maximum: 1 }), description);

export const MarketSchema = describing<MarketRow>()(
  Type.Object(
    {
      venue: StringEnum(PREDICTION_VENUE_IDS),
      slug: Type.String({ description: 'the market slug (token-style) or market ticker (ticker-style); the event slug or event ticker on an unexpanded multi-outcome row' }),
      symbol: Type.String({ description: 'what quotes, orders and channels take: `polymarket:<yes token id>` or `<ticker>:YES`; the event identifier on an unexpanded multi-outcome row' }),
      question: Type.String(),
      description: Type.String({ description: 'the rules text' }),
      outcomes: Type.Array(Type.String(), { description: '`Yes`, `No` on a binary row; candidate labels on an unexpanded multi-outcome row' }),
      outcome_token_ids: Type.Array(Type.String(), { description: 'parallel to outcomes: the YES and NO token ids, or each candidate YES token id' }),
      yes_token_id: Nullable(Type.String()),
      no_token_id: Nullable(Type.String()),
      event_id: Type.String({ description: 'opaque per venue; do not compare across venues' }),
      neg_risk: Type.Boolean(),
      volume_24h: Type.Number({ minimum: 0, description: 'USD' }),
      volume_total: Type.Number({ minimum: 0, description: 'USD' }),
      best_yes_bid: Probability('null on an unexpanded multi-outcome row or an empty side'),
      best_yes_ask: Probability('null on an unexpanded multi-outcome row or an empty side'),
      best_no_bid: Probability('token-style: 1 - best_yes_ask'),
      best_no_ask: Probability('token-style: 1 - best_yes_bid'),
      spread_pct: Nullable(Type.Number(), '(yes_ask - yes_bid) / yes_mid, a ratio'),
      end_date: Type.String({ format: 'date-time' }),
      start_date: Type.String({ format: 'date-time' }),
      url: Type.String(),
      tags: Type.Array(Type.String()),
      status: StringEnum(MARKET_PHASES, 'the venue lifecycle phase (ticker-style words; the token-style venue has no initialized or settled)'),
      equivalents: Type.Array(
        Type.Object({ venue: StringEnum(PREDICTION_VENUE_IDS), symbol: Type.String(), relation: Type.String({ description: '`same`: YES there is YES here; `complement`: YES there is NO here' }) }),
        { description: 'the same outcome on the other prediction venue; never on placeholder rows' },
      ),
      parent_event_id: Type.Optional(Type.String()),
      parent_slug: Type.Optional(Type.String()),
      outcome_name: Type.Optional(Nullable(Type.String(), 'null iff placeholder')),
      raw_outcome_name: Type.Optional(Type.String()),
      is_placeholder_outcome: Type.Optional(Type.Boolean()),
      outcome_index: Type.Optional(Count('0-based upstream position')),
    },
    { $id: 'Market', description: 'One listing row; expanded rows (`expand=outcomes`) add the parent and outcome fields, which binary events leave out' },
  ),
);

export const MarketsPageSchema = describing<ListingPage>()(
  Type.Object(
    {
      markets: Type.Array(MarketSchema),
      count: Count('rows on this page (binary rows under expand=outcomes, not events)'),
      venue: StringEnum(PREDICTION_VENUE_IDS),
      has_more: Type.Boolean(),
      next_cursor: Nullable(Type.String(), 'pass back as `cursor`; null on the last page'),
    },
    { $id: 'MarketsPage' },
  ),
);

export const MarketsQuery = Type.Object({
  venue: Type.Optional(StringEnum(PREDICTION_VENUE_IDS, 'default the token-style venue (polymarket)')),
  slug: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'direct lookup by slug or ticker (event or market)' })),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'free text over ticker, question and rules (case-insensitive substring)' })),
  tag: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  active: Type.Optional(Type.Boolean({ default: true })),
  closed: Type.Optional(Type.Boolean({ default: false })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 20, description: 'rows per page' })),
  cursor: Type.Optional(Type.String({ maxLength: 1024, description: 'opaque; only with the query that gave it' })),
  order: Type.Optional(StringEnum(LISTING_ORDERS, 'default none: listing order (the venue chooses)')),
  expand: Type.Optional(StringEnum(['outcomes'] as const)),
});

const TicketQuery = Type.Object({ ticket: Type.Optional(Type.String({ description: 'single-use ticket from GET /v1/ws/ticket; else send Authorization: Bearer' })) });
const NothingToSend = Type.Unknown({ description: 'nothing: what a client sends is ignored' });

export const NewMarketsUpgradeSchema = webSocketUpgrade({
  query: TicketQuery,
  client: NothingToSend,
  server: Type.Intersect([MarketSchema, Type.Object({ kind: Type.Literal('new_market'), observed_at_ns: Type.Integer() })], {
    $id: 'NewMarketEvent',
    description: 'a listing row (expanded: one per binary market), figures null or 0',
  }),
});

export const MarketResolvedUpgradeSchema = webSocketUpgrade({
  query: TicketQuery,
  client: NothingToSend,
  server: Type.Object({
    kind: Type.Literal('market_resolved'),
    venue: StringEnum(PREDICTION_VENUE_IDS),
    event_id: Type.String({ description: 'the binary market\'s event id (a multi-outcome candidate: its market id)' }),
    parent_event_id: Type.Optional(Type.String()),
    outcome_name: Type.Optional(Nullable(Type.String())),
    slug: Type.String({ description: 'the market slug or ticker' }),
    question: Type.String(),
    winning_outcome: StringEnum(['Yes', 'No'] as const),
    winning_token_id: Type.String(),
    losing_token_id: Type.String(),
    resolved_at_ns: Type.Integer(),
    observed_at_ns: Type.Integer(),
  }, { $id: 'MarketResolvedEvent', description: 'a binary market resolved: sent once per market (keyed by venue and slug, the market id), across regions and restarts' }),
});

export const SettlementQuery = Type.Object({
  underlying: Type.Optional(Type.Boolean({ default: true, description: 'false skips the underlying block (no on-chain calls)' })),
});

export const SettlementSchema = describing<Settlement>()(
  Type.Object(
    {
      slug: Type.String(),
      question: Type.String(),
      yes_token_id: Type.String(),
      no_token_id: Type.String(),
      condition_id: Nullable(Type.String(), 'null on the ticker-style venue'),
      neg_risk: Type.Boolean(),
      status: StringEnum(['open', 'resolving', 'resolved', 'settled'] as const, 'open: trading; resolving: window ended, settlement in flight; resolved: outcome set, payout final; settled: ticker-style only, determination and settlement complete'),
      resolved_outcome: Nullable(StringEnum(['Yes', 'No'] as const)),
      outcome_source: Type.String({ description: 'determined_event (ticker-style), price_feed (up/down), oracle' }),
      yes_price: Nullable(Type.Number({ minimum: 0, maximum: 1 }), 'the mid before resolution; 1 or 0 after'),
      no_price: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
      event_start_s: Type.Integer(),
      event_end_s: Type.Integer(),
      resolution_source: Type.String({ description: 'the rules the outcome is read by' }),
      underlying: Type.Optional(
        Type.Object({
          symbol: Type.String(),
          source: Type.String(),
          anchor_price_usd: Nullable(Type.Number()),
          final_price_usd: Nullable(Type.Number()),
          agrees_with_settlement: Nullable(Type.Boolean()),
          points: Type.Array(Type.Object({ ts_s: Type.Integer(), price_usd: Type.Number() })),
        }, { description: 'token-style up/down markets only, unless underlying=false' }),
      ),
    },
    { $id: 'Settlement' },
  ),
);

export const RedeemQuery = Type.Object({
  venue: Type.Optional(Type.String({ enum: ['kalshi', 'polymarket'], description: 'the venue of the market; default: the one the name resolves to' })),
});

export const RedeemSchema = Type.Object(
  {
    mode: Type.String({ enum: ['auto_settled', 'relayer_submitted', 'noop'] }),
    venue: Type.String(),
    slug: Type.String(),
    condition_id: Type.Union([Type.String(), Type.Null()]),
    token_ids: Type.Union([Type.Array(Type.String()), Type.Null()]),
    note: Type.String(),
  },
  { $id: 'RedeemResponse', additionalProperties: false },
);

export const RewardsParams = Type.Object({
  prediction_venue: StringEnum(['polymarket'] as const, 'the token-style venue: maker-rewards programs are its own'),
});

export const RewardsTokenParams = Type.Object({
  prediction_venue: RewardsParams.properties.prediction_venue,
  token_id: Type.String({ minLength: 1, maxLength: 100, description: 'a 78-digit conditional-token id (YES or NO: both tokens of a rewarded market are in its program)' }),
});

export const RewardsConfigSchema = describing<RewardsConfig>()(
  Type.Object(
    {
      token_id: Type.String(),
      condition_id: Type.String(),
      rewards_min_size: Type.Number({ minimum: 0, description: 'contracts a resting order must show to earn' }),
      rewards_max_spread: Type.Number({ minimum: 0, description: 'furthest from the midpoint an order earns, in price units (0.035 = 3.5 cents)' }),
      rate_per_day_usdc: Type.Number({ minimum: 0, description: "the market's daily pool, shared by its makers" }),
      current_spread: Nullable(Type.Number({ minimum: 0 }), 'best ask minus best bid now, in price units; null when a side is empty'),
      reward_end_unix_s: Type.Integer(),
    },
    { $id: 'RewardsConfig' },
  ),
);

export const RewardsListSchema = Type.Object(
  {
    venue: Type.Literal('polymarket'),
    rewards: Type.Array(RewardsConfigSchema, { description: 'every token in a program now, the richest programs first' }),
    count: Count(),
    refreshed_at_unix_s: Type.Integer({ description: 'when the set of programs was last read (at most every 5 minutes)' }),
  },
  { $id: 'RewardsList' },
);
