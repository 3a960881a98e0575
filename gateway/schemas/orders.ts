import { Type, type Static } from 'typebox';
import { ORDER_STATUSES, type ChildOrder, type FeeBreakdown, type FillRecord, type OrderConstraints, type OrderRecord } from '../../domain/orders.ts';
import type { BestSingleVenue, TcaReport, TcaVenue } from '../../execution/tca/tca.ts';
import type { VenueOrdersView } from '../../execution/venue-merge.ts';
import { Count, describing, Nullable, StringEnum } from './common.ts';

/**
 * Orders, fills and their TCA as the API returns them (spec: "Order (`OrderRest`)", "Fill
 * (`FillRecord`)", "Orders and fills"). Each schema is tied to the domain type the handlers
 * build the body from (`describing`), so a field cannot change there without changing here.
 * Units: `_1e8` quantities, `_1e9` prices and USD, `_ns` nanoseconds, `_ms` milliseconds, all
 * integers; `_bps` figures and ratios are numbers.
 */

const SIDE = ['buy', 'sell'] as const;

export const OrderConstraintsSchema = describing<OrderConstraints>()(
  Type.Object(
    {
      horizon_ms: Type.Optional(
        Nullable(Type.Integer({ minimum: 0 }), 'Execution horizon: above 0, the order (not FOK or GTC) is routed in slices until filled or the horizon passes'),
      ),
      max_price_1e9: Type.Optional(Nullable(Type.Integer({ minimum: 1 }), "Highest price a market buy's legs may take")),
      participation_limit_bps: Type.Optional(
        Nullable(Type.Integer({ minimum: 0, maximum: 10_000 }), 'Most of each displayed level one sweep may take, in bps (500 = 5 %)'),
      ),
      urgency: Type.Optional(Nullable(StringEnum(['low', 'medium', 'high']), 'Time between slices of a sliced order: 2 s, 500 ms (default), 100 ms')),
    },
    { $id: 'OrderConstraintsRest', additionalProperties: false },
  ),
);

export const FeeBreakdownSchema = describing<FeeBreakdown>()(
  Type.Object(
    {
      commission_1e9: Type.Integer(),
      lp_fee_1e9: Type.Integer(),
      gas_1e9: Type.Integer(),
      priority_fee_1e9: Type.Integer(),
      mev_tip_1e9: Type.Integer(),
      funding_1e9: Type.Integer(),
      rebate_1e9: Type.Integer(),
      hop_fees_1e9: Type.Integer(),
      commission_asset: Type.String(),
    },
    { $id: 'FeeBreakdown', additionalProperties: false, description: 'The fee of one fill by component, USD 1e9' },
  ),
);

export const FillRecordSchema = describing<FillRecord>()(
  Type.Object(
    {
      id: Count('database key; fills list newest first by it'),
      fill_id: Type.String(),
      node_order_id: Type.String(),
      venue: Type.String(),
      symbol: Type.String(),
      side: StringEnum(SIDE),
      instrument_type: StringEnum(['spot', 'perp', 'prediction'], 'taken from the parent order'),
      qty_1e8: Type.Integer({ minimum: 1 }),
      price_1e9: Type.Integer({ minimum: 1 }),
      fee_1e9: Type.Integer({ description: 'USD 1e9; negative for a rebate' }),
      ts_unix_ns: Count('when the service booked the fill'),
      commission_asset: Type.String(),
      exchange_ts_ns: Count("the venue's timestamp of the trade"),
      execution_region: Type.String(),
      fee_breakdown: FeeBreakdownSchema,
      is_maker: Type.Boolean(),
      maker_fee_bps_applied: Nullable(Type.Integer(), 'the maker rate charged; null on a taker fill'),
      taker_fee_bps_applied: Nullable(Type.Integer(), 'the taker rate charged; null on a maker fill'),
      trade_id: Type.String({ description: 'venue trade id' }),
      venue_reported_cum_fee_1e9: Type.Integer({ description: 'cumulative commission the venue reports for the leg at this fill' }),
      lineage_deployment_id: Nullable(Type.String()),
      commission_qty_1e8: Type.Optional(Type.Integer({ minimum: 0, description: 'the fee in commission_asset units x 1e8 when that is not the quote: a DEX swap\'s gas, in ETH' })),
    },
    {
      $id: 'FillRecord',
      additionalProperties: false,
      // Exactly one of the two rates is set, by which side of the trade the fill was.
      if: Type.Object({ is_maker: Type.Literal(true) }),
      then: Type.Object({ maker_fee_bps_applied: Type.Integer(), taker_fee_bps_applied: Type.Null() }),
      else: Type.Object({ maker_fee_bps_applied: Type.Null(), taker_fee_bps_applied: Type.Integer() }),
    },
  ),
);

const BestSingleVenueSchema = describing<BestSingleVenue>()(
  Type.Object(
    {
      venue: Type.String(),
      avg_price_1e9: Type.Integer({ minimum: 1, description: 'its average price for the whole requested qty, walking its book at arrival' }),
      fee_bps: Type.Number({ description: 'its taker fee for this order' }),
    },
    { additionalProperties: false, description: 'the cheapest single venue that could have filled the whole order at arrival' },
  ),
);

const TcaVenueSchema = describing<TcaVenue>()(
  Type.Object(
    {
      venue: Type.String(),
      qty_1e8: Type.Integer({ minimum: 1 }),
      vwap_1e9: Type.Integer({ minimum: 1 }),
      fee_1e9: Type.Integer(),
      share: Type.Number({ minimum: 0, maximum: 1, description: 'qty / filled qty' }),
    },
    { additionalProperties: false },
  ),
);

export const TcaReportSchema = describing<TcaReport>()(
  Type.Object(
    {
      achieved_vwap_1e9: Nullable(Type.Integer({ minimum: 1 }), 'null when nothing filled'),
      arrival_mid_1e9: Type.Integer({ minimum: 0 }),
      filled_qty_1e8: Count(),
      fill_ratio: Type.Number({ minimum: 0, description: 'filled / requested' }),
      implementation_shortfall_bps: Type.Number({ description: 'side-adjusted (positive = cost), price only, vs the arrival mid' }),
      spread_cost_bps: Type.Number({ description: 'half the arrival spread' }),
      impact_bps: Type.Number({ description: 'shortfall beyond the half spread' }),
      fee_bps: Type.Number(),
      total_cost_bps: Type.Number({ description: 'shortfall + fee' }),
      fees_usd_1e9: Type.Integer(),
      notional_usd_1e9: Count(),
      best_single_venue: Nullable(BestSingleVenueSchema),
      savings_vs_best_single_venue_bps: Nullable(Type.Number(), 'benchmark all-in cost minus ours (positive = the split did better); null without a benchmark or fills'),
      savings_usd_1e9: Nullable(Type.Integer(), 'the same in USD over the filled qty; null when the bps figure is'),
      execution_time_ms: Count(),
      time_to_first_fill_ms: Nullable(Count(), 'null when nothing filled'),
      venues: Type.Array(TcaVenueSchema, { description: 'per venue, largest qty first' }),
      is_prediction: Type.Boolean(),
      arrival_implied_prob_bps: Type.Number({ description: '0 for spot and perp' }),
      achieved_implied_prob_bps: Nullable(Type.Number(), '0 for spot and perp; null for a prediction order with no fill'),
      probability_slippage_bps: Type.Number({ description: '0 for spot and perp' }),
    },
    { $id: 'TcaReport', additionalProperties: false, description: 'Transaction cost analysis of a completed order (docs/positions-and-tca.md)' },
  ),
);

export const ChildOrderSchema = describing<ChildOrder>()(
  Type.Object(
    {
      child_id: Type.String(),
      venue: Type.String(),
      edge_id: Type.String(),
      qty_1e8: Type.Integer({ minimum: 1 }),
      limit_price_1e9: Nullable(Type.Integer({ minimum: 1 }), "the leg's worst acceptable price"),
      filled_qty_1e8: Count(),
      time_in_force: Type.Optional(StringEnum(['ioc', 'gtc'], '`gtc` on a leg resting a limit order\'s remainder; absent on legs that take displayed liquidity (IOC)')),
      status: StringEnum(['sent', 'resting', 'filled', 'partial', 'cancelled', 'rejected', 'unconfirmed'], '`resting`: on the venue\'s book, filling as maker'),
      reason: Nullable(Type.String(), 'why the leg ended short of filled'),
      fee_1e9: Type.Integer(),
      venue_reported_cum_fee_1e9: Type.Integer({ description: "the cumulative fee the venue reports for the leg (its last fill's)" }),
      venue_reported_cum_qty_1e8: Type.Optional(Count("the leg's cumulative filled quantity as the venue last reported it; absent until it reports")),
      sent_unix_ns: Type.Optional(Type.Integer({ description: 'when the leg was sent to its venue' })),
      answered_unix_ns: Type.Optional(Type.Integer({ description: "when the venue's answer to it came: minus sent_unix_ns, its ack latency" })),
    },
    { $id: 'ChildOrder', additionalProperties: false, description: 'One venue leg of the order, with its own status and fills' },
  ),
);

/** The record's keys the API never shows (domain/orders.ts INTERNAL_ORDER_FIELDS). */
type InternalOrderKey = 'request_hash' | 'fill_ids' | 'mode' | 'idempotency_key' | 'lot_remainder_1e8' | 'stored_status';
/** An order as `publicOrder` shows it, with the TCA the engine stores in `tca`. */
type PublicOrder = Omit<OrderRecord, InternalOrderKey | 'tca'> & { tca: TcaReport | null };

const orderFields = {
  node_order_id: Type.String(),
  client_id: Type.String(),
  client_order_id: Type.String(),
  is_sandbox: Type.Boolean(),
  side: StringEnum(SIDE),
  symbol: Type.String({ description: 'trading pair, canonical form' }),
  instrument_type: StringEnum(['spot', 'perp', 'prediction']),
  qty_1e8: Type.Integer({ minimum: 1, description: 'requested quantity' }),
  filled_qty_1e8: Count('filled so far'),
  order_type: StringEnum(['market', 'limit']),
  time_in_force: StringEnum(['ioc', 'gtc', 'fok']),
  limit_price_1e9: Nullable(Type.Integer({ minimum: 1 }), "the request's limit price; null when it gave none"),
  status: StringEnum(ORDER_STATUSES, 'canonical status (docs/order-states.md)'),
  execution_type: StringEnum(['graph', 'armed', 'adopted']),
  venue_state: Type.String({ description: 'venue-side state: not_sent, sent, open (resting), filled, closed, unknown (a leg in doubt)' }),
  reconciliation_state: StringEnum(['in_sync', 'reconciling', 'reconciled', 'unknown'], 'separate from the status'),
  engine_phase: StringEnum(['admitted', 'routed', 'dispatching', 'working', 'settling', 'done'], 'engine lifecycle, separate from the status'),
  created_unix_ns: Count(),
  updated_unix_ns: Count(),
  constraints: Nullable(OrderConstraintsSchema),
  expected_fee_1e9: Nullable(Type.Integer(), 'pre-trade fee estimate, USD 1e9; null until routed'),
  expected_fee_bps: Nullable(Type.Integer(), 'pre-trade fee estimate; null until routed or when nothing was planned'),
  failure_class: Nullable(Type.String(), 'why the order ended short of COMPLETED, e.g. no_route, insufficient_balance, risk_notional_cap, cancelled, kill_switch'),
  failure_reason: Nullable(Type.String()),
  first_fill_ts_ns: Nullable(Count(), 'exchange timestamp of the first fill'),
  graph_id: Nullable(Type.String(), 'owning execution graph (activate an armed order with it)'),
  graph_name: Nullable(Type.String()),
  home_region: Nullable(Type.String()),
  node_id: Nullable(Type.String()),
  placed_price_1e9: Nullable(Type.Integer({ minimum: 1 }), 'limit or max price sent to the venues; null for a market order with no cap'),
  pool_id: Nullable(Type.String()),
  wallet_id: Type.Optional(Type.String({ description: 'a DEX order: the trading wallet it swaps from' })),
  tca: Nullable(TcaReportSchema, 'set when the order completes'),
  time_to_first_fill_ms: Nullable(Count(), 'parent arrival to first fill'),
  lineage_deployment_id: Nullable(Type.String()),
  routing_version: Type.Enum([1, 2, 3], { type: 'integer', description: 'assigned from node_order_id' }),
  forced_venue: Nullable(Type.String(), 'the request\'s `venue`'),
  arrival_mid_1e9: Nullable(Type.Integer({ minimum: 1 }), 'consolidated mid when routed; null before, or when there was none'),
  children: Type.Array(ChildOrderSchema),
};

/** An order as the `orders` WebSocket channel sends it on every change: OrderRest without `fills`. */
export const OrderUpdateSchema = describing<PublicOrder>()(
  Type.Object(orderFields, { $id: 'OrderUpdate', additionalProperties: false, description: 'An order on the `orders` WebSocket channel: OrderRest without `fills`' }),
);

export const OrderRestSchema = describing<PublicOrder & { fills: FillRecord[] | null }>()(
  Type.Object(
    { ...orderFields, fills: Nullable(Type.Array(FillRecordSchema), 'the fills with ?expand=fills on GET /v1/orders/{node_order_id}; null otherwise') },
    { $id: 'OrderRest', additionalProperties: false },
  ),
);

const VenueOrdersViewSchema = describing<VenueOrdersView>()(
  Type.Object(
    {
      all_succeeded: Type.Boolean({ description: 'false when a venue did not answer: an empty list then does not mean nothing rests' }),
      as_of_unix_ns: Count(),
      venues: Type.Array(
        Type.Object(
          {
            venue: Type.String(),
            edge_id: Type.String(),
            ok: Type.Boolean(),
            error: Nullable(Type.String()),
            resting_child_ids: Type.Array(Type.String(), { description: "the account's legs resting on the venue's book now" }),
            missing_on_venue: Type.Array(Type.String(), { description: 'legs the engine has resting there that the venue does not show' }),
          },
          { additionalProperties: false },
        ),
      ),
    },
    { $id: 'VenueView', additionalProperties: false, description: "What the venues show of a live account's working orders" },
  ),
);

const StatusCounts = Type.Object(
  Object.fromEntries(ORDER_STATUSES.map((s) => [s, Type.Optional(Type.Integer({ minimum: 1 }))])),
  { additionalProperties: false, description: 'orders by status over the listing scope (symbol and history filters apply; status, page and limit do not); statuses with none are left out' },
);

export const ListOrdersRespSchema = Type.Object(
  {
    scope: Type.Literal('client'),
    region: Type.String({ description: 'the `region` query parameter, else global' }),
    orders: Type.Array(OrderRestSchema, { description: 'newest first; `fills` is always null here' }),
    total: Count('orders under the status filter'),
    limit: Count(),
    has_more: Type.Boolean(),
    next_cursor: Nullable(Type.String(), 'pass as `after` for the next page'),
    offset: Nullable(Count(), 'the legacy `offset` query parameter, echoed'),
    sources: Type.Array(
      Type.Object(
        {
          source: StringEnum(['engine', 'history_db', 'region']),
          region: Type.Optional(Type.String({ description: 'source `region`: another region whose orders this listing read from the regions’ stream (docs/regions.md)' })),
          complete: Type.Boolean({ description: 'false: that region could not be reached (or not yet read to its end): its orders here may be behind' }),
        },
        { additionalProperties: false },
      ),
    ),
    counts: StatusCounts,
    venue_view: Nullable(VenueOrdersViewSchema, 'only on a live account\'s first page without a symbol filter'),
  },
  { $id: 'ListOrdersResp', additionalProperties: false },
);

export const CancelOrderRespSchema = Type.Object(
  { node_order_id: Type.String(), status: StringEnum(ORDER_STATUSES, 'the status after the cancel; a terminal order answers with its own') },
  { $id: 'CancelOrderResp', additionalProperties: false },
);

export const FillsPageSchema = Type.Object(
  {
    fills: Type.Array(FillRecordSchema, { description: 'newest first' }),
    total: Count(),
    limit: Count(),
    has_more: Type.Boolean(),
    next_cursor: Nullable(Type.String(), 'pass as `after` for the next page'),
  },
  { $id: 'FillsPage', additionalProperties: false },
);

/** The `tca` channel's data and the `/v1/tca/stream` event `tca_report`. */
export const TcaEventSchema = Type.Object(
  { node_order_id: Type.String(), tca: TcaReportSchema },
  { $id: 'TcaEvent', additionalProperties: false },
);

export type CancelOrderResp = Static<typeof CancelOrderRespSchema>;
export type FillsPage = Static<typeof FillsPageSchema>;
