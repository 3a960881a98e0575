import { Type, type Static } from 'typebox';
import { ORDER_STATUSES } from '../../domain/orders.ts';
import { RECONCILE_OUTCOMES } from '../../execution/recon.ts';
import type { TapeStats } from '../../storage/trades.ts';
import { Count, describing, ExactInteger, Nullable, StringEnum } from './common.ts';

/**
 * Market-data health and the trade tape: `/v1/health/feeds`, `/v1/data/health`, `/v1/data/stats`;
 * the data engine's reconciliation state and signals: `/v1/data/recon`, `/v1/data/signals`
 * (docs/data-engine.md).
 */

export const TapeStatsSchema = describing<TapeStats>()(
  Type.Object(
    {
      written: Count('trades written since the start'),
      pruned: Count('trades pruned past the retention since the start'),
      last_write_ms: Count('0 before the first write'),
      oldest_kept_ms: Count('the last prune cutoff; 0 before the first prune'),
    },
    { $id: 'TapeStats', additionalProperties: false, description: 'The trade tape of this process' },
  ),
);

export const FeedHealthSchema = Type.Object(
  {
    symbols: Type.Array(
      Type.Object(
        {
          symbol: Type.String(),
          instrument_type: StringEnum(['spot', 'perp']),
          age_ms: Nullable(Count(), 'since the consolidated book last changed; null before it has one'),
          venues_expected: Count('venues listing the symbol'),
          venues_quoting: Count(),
          crossed: Type.Boolean(),
          gap: Type.Boolean({ description: 'no consolidated book, or one unchanged for over 10 s' }),
        },
        { additionalProperties: false },
      ),
    ),
    rings: Type.Array(
      Type.Object(
        {
          thread: Type.Integer({ minimum: 1 }),
          up: Type.Boolean({ description: 'the worker answered the stats request' }),
          mailbox_pending_bytes: Nullable(Count(), 'null when the worker did not answer'),
          fullest_ring: Nullable(Type.Number({ minimum: 0, maximum: 1, description: "the fullest of the worker's inbound rings, share in use (1: its producer sees backpressure)" })),
          heap_used_bytes: Nullable(Count(), "the worker's V8 heap in use; null when the worker did not answer"),
          actors: Nullable(Count(), 'null when the worker did not answer'),
        },
        { additionalProperties: false },
      ),
      { description: 'one per worker thread' },
    ),
    gateway_thread: Type.Object(
      {
        heap_used_bytes: Count("the gateway thread's V8 heap in use"),
        fullest_ring: Type.Number({ minimum: 0, maximum: 1, description: 'the fullest ring into the gateway thread (replies, publishes, journal frames), share in use' }),
        event_loop_delay: Type.Object(
          {
            window_ms: Count('the window these figures cover (the last complete one); 0 before the first ends'),
            p50_ms: Type.Number({ minimum: 0 }),
            p99_ms: Type.Number({ minimum: 0 }),
            max_ms: Type.Number({ minimum: 0 }),
          },
          { additionalProperties: false, description: "how late the gateway thread's event loop ran a 10 ms timer" },
        ),
      },
      { additionalProperties: false, description: 'thread 0: HTTP, WebSocket, SSE and the journal' },
    ),
    venues: Type.Array(
      Type.Object(
        {
          edge_id: Type.String(),
          connected: Type.Boolean(),
          last_seen_age_ms: Nullable(Count(), 'null before the edge saw anything'),
          symbol_count: Count(),
        },
        { additionalProperties: false },
      ),
    ),
    tape: TapeStatsSchema,
    reconciliation: Type.Object({ state: Type.Literal('not_applicable'), note: Type.String() }, { additionalProperties: false }),
  },
  { $id: 'FeedHealth', additionalProperties: false },
);

export const DataHealthSchema = Type.Object(
  {
    ok: Type.Boolean({ description: 'the tape was written within the last 10 s' }),
    ...TapeStatsSchema.properties,
    last_write_age_ms: Nullable(Count(), 'null before the first write'),
    retention_ms: Count(),
  },
  { $id: 'DataHealth', additionalProperties: false },
);

export const DataStatsSchema = Type.Object(
  {
    window_ms: Type.Literal(3_600_000),
    trades_last_hour: Type.Record(Type.String(), Count(), { description: 'trades on the tape per book (`SYMBOL`, or `SYMBOL:perp`)' }),
    tape: TapeStatsSchema,
  },
  { $id: 'DataStats', additionalProperties: false },
);

const LEG_STATUSES = ['sent', 'resting', 'filled', 'partial', 'cancelled', 'rejected', 'unconfirmed'] as const;
const RECONCILIATION_STATES = ['in_sync', 'reconciling', 'reconciled', 'unknown'] as const;

const InDoubtOrderSchema = Type.Object(
  {
    node_order_id: Type.String(),
    client_order_id: Type.String(),
    symbol: Type.String(),
    side: StringEnum(['buy', 'sell']),
    status: StringEnum(ORDER_STATUSES),
    reconciliation_state: StringEnum(RECONCILIATION_STATES),
    kind: StringEnum(['legs', 'cancel'], "`legs`: a leg's answer was lost (status UNCONFIRMED); `cancel`: a resting leg's cancel answer was lost (reconciling)"),
    since_unix_ns: Count('since when it is in doubt: when the router began reconciling it, else (source order_record) when the order was last written'),
    since_source: StringEnum(['router', 'order_record']),
    attempts: Nullable(Count(), "the router's reconcile rounds so far; null when it is not reconciling the order now (it gave up after its attempts: a restart reconciles it)"),
    last_attempt_unix_ns: Nullable(Count()),
    legs: Type.Array(
      Type.Object(
        {
          child_id: Type.String(),
          venue: Type.String(),
          edge_id: Type.String(),
          status: StringEnum(LEG_STATUSES),
          qty_1e8: Count(),
          filled_qty_1e8: Count(),
          sent_unix_ns: Nullable(Count()),
        },
        { additionalProperties: false },
      ),
      { description: 'the venue legs in doubt' },
    ),
  },
  { $id: 'ReconInDoubtOrder', additionalProperties: false },
);

const ReconEdgeSchema = Type.Object(
  {
    venue: Type.String(),
    edge_id: Type.String(),
    last_reconcile_unix_ns: Nullable(Count(), 'null: never reconciled (as far as the router since its start and the recent orders tell)'),
    outcome: Nullable(
      StringEnum(RECONCILE_OUTCOMES),
      'found (the venue answered with its record of the leg), not_received (it never saw it: cancelled), report_refused (its record could not be true: asked again), unanswered (no answer in the leg timeout), cancel_confirmed, gave_up (in doubt after every attempt), closed_after_restart',
    ),
    node_order_id: Nullable(Type.String(), 'the order the last reconcile was about'),
    source: Nullable(StringEnum(['router', 'restart']), "router: the router's log since it started; restart: read from an order a restart closed"),
    asks_since_router_start: Count(),
    unanswered_since_router_start: Count(),
    legs_in_doubt: Count('legs of the orders in doubt waiting on this edge'),
  },
  { $id: 'ReconEdge', additionalProperties: false },
);

const driftFigures = {
  our_fee_1e9: ExactInteger({ description: "the sum of our fills' fee_1e9" }),
  venue_fee_1e9: ExactInteger({ description: "the venue's reported cumulative fee: each leg's last venue_reported_cum_fee_1e9, summed" }),
  our_qty_1e8: ExactInteger({ description: "the sum of our fills' qty_1e8", minimum: 0 }),
  venue_qty_1e8: ExactInteger({ description: "the venue's reported cumulative filled quantity of each leg (venue_reported_cum_qty_1e8), summed", minimum: 0 }),
};

const ReconDriftVenueSchema = Type.Object(
  {
    venue: Type.String(),
    orders: Count(),
    legs: Count(),
    fills: Count(),
    ...driftFigures,
    fee_drift_1e9: ExactInteger({ description: 'venue minus ours' }),
    qty_drift_1e8: ExactInteger({ description: 'venue minus ours' }),
    orders_disagreeing: Count(),
  },
  { $id: 'ReconDriftVenue', additionalProperties: false },
);

export const DataReconSchema = Type.Object(
  {
    is_sandbox: Type.Boolean(),
    as_of_unix_ns: Count(),
    router: Type.Object(
      {
        answered: Type.Boolean({ description: "false: the client's router did not answer; the figures are LMDB's alone" }),
        started_unix_ns: Nullable(Count(), "when the router's reconcile log began (its start)"),
      },
      { additionalProperties: false },
    ),
    in_doubt: Type.Object(
      {
        count: Count('working orders in doubt'),
        orders: Type.Array(InDoubtOrderSchema, { description: 'oldest first, at most 100' }),
      },
      { additionalProperties: false },
    ),
    last_reconcile: Type.Array(ReconEdgeSchema, { description: 'per edge, by venue' }),
    drift: Type.Object(
      {
        window_orders: Count('the most recent orders checked at most (the limit)'),
        orders_checked: Count(),
        orders_disagreeing: Count('orders whose fees or quantities differ from the venue reports on any venue, or with a listed fill missing'),
        by_venue: Type.Array(ReconDriftVenueSchema),
        disagreeing: Type.Array(
          Type.Object(
            {
              node_order_id: Type.String(),
              symbol: Type.String(),
              status: StringEnum(ORDER_STATUSES),
              missing_fills: Count(),
              venues: Type.Array(Type.Object({ venue: Type.String(), ...driftFigures }, { additionalProperties: false })),
            },
            { additionalProperties: false },
          ),
          { description: 'newest first, at most 50' },
        ),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'DataRecon', additionalProperties: false },
);

const SignalSchema = Type.Object(
  {
    symbol: Type.String(),
    instrument_type: StringEnum(['spot', 'perp']),
    bid_1e9: Nullable(Count()),
    ask_1e9: Nullable(Count()),
    mid: Nullable(Type.Number(), '(bid + ask) / 2, a decimal as the quote\'s nbbo.mid; null without both sides'),
    crossed: Type.Boolean(),
    quote_age_ms: Nullable(Count(), 'since the NBBO last changed'),
    spread_bps: Nullable(Type.Number(), '(ask - bid) / mid x 10,000; negative when crossed'),
    mid_return_bps: Nullable(Type.Number(), '(mid now / reference mid - 1) x 10,000; null while the mid history is shorter than the horizon'),
    return_reference_ms: Nullable(Count(), 'when the reference mid was sampled: the last sample at or before now - horizon'),
    return_reference_mid: Nullable(Type.Number(), 'the reference mid, a decimal'),
    realized_vol: Type.Object(
      {
        bps_per_sqrt_s: Nullable(Type.Number({ minimum: 0 }), 'sqrt(sum of squared log returns between mid samples / seconds) x 10,000'),
        annualized: Nullable(Type.Number({ minimum: 0 }), 'the same per second variance over a 365-day year, as a fraction (0.6 = 60%)'),
        samples: Count(),
        window_s: Type.Number({ minimum: 0 }),
      },
      { additionalProperties: false },
    ),
    book_imbalance: Type.Object(
      {
        levels: Count(),
        bid_depth_1e8: ExactInteger({ minimum: 0, description: 'the first `levels` levels of the consolidated bids' }),
        ask_depth_1e8: ExactInteger({ minimum: 0 }),
        imbalance: Nullable(Type.Number({ minimum: -1, maximum: 1 }), '(bid - ask) / (bid + ask) depth'),
      },
      { additionalProperties: false },
    ),
    trade_flow: Type.Object(
      {
        trades: Count('trades on the tape over the horizon'),
        buy_qty_1e8: ExactInteger({ minimum: 0, description: 'taker buy quantity' }),
        sell_qty_1e8: ExactInteger({ minimum: 0, description: 'taker sell quantity' }),
        imbalance: Nullable(Type.Number({ minimum: -1, maximum: 1 }), '(buy - sell) / (buy + sell); null without trades'),
        truncated: Type.Boolean({ description: 'the horizon held more than 20,000 trades: the flow is of its newest 20,000' }),
      },
      { additionalProperties: false },
    ),
    fair_price: Nullable(
      Type.Object(
        {
          underlying: Type.String(),
          fair_mid_1e9: Count(),
          confidence: Type.Number({ minimum: 0, maximum: 1 }),
          basis_bps: Nullable(Type.Number(), '(NBBO mid - fair mid) / fair mid x 10,000'),
        },
        { additionalProperties: false },
      ),
      'null when the symbol is not USD-settled or its underlying has no fair price',
    ),
    history_s: Type.Number({ minimum: 0, description: 'how far back the mid history reaches' }),
  },
  { $id: 'Signal', additionalProperties: false },
);

export const DataSignalsSchema = Type.Object(
  {
    as_of_ms: Count(),
    horizon_s: Count(),
    levels: Count(),
    sample_ms: Count('the mid history is sampled at this interval'),
    signals: Type.Array(SignalSchema),
  },
  { $id: 'DataSignals', additionalProperties: false },
);

export type FeedHealth = Static<typeof FeedHealthSchema>;
export type DataHealth = Static<typeof DataHealthSchema>;
export type DataStats = Static<typeof DataStatsSchema>;
export type DataRecon = Static<typeof DataReconSchema>;
export type DataSignals = Static<typeof DataSignalsSchema>;
