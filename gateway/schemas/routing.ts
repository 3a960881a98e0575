import { Type } from 'typebox';
import { CANDIDATE_REASONS, type PlanAllocation, type PlanCandidate, type PlanLevel, type RoutingPlan, type VenueCostTerms } from '../../execution/sor/sor-types.ts';
import type { PreviewAnswer } from '../../execution/router/messages.ts';
import { Count, describing, Nullable, StringEnum } from './common.ts';

/**
 * The smart order router's plan (execution/sor/sor-types.ts): the body of POST
 * /v1/orders/preview and the data of the `routing` WebSocket channel. Amounts are integers in
 * the spec's units; every `_bps` figure is a score, a number rounded for display.
 */

const PlanLevelSchema = describing<PlanLevel>()(
  Type.Object(
    {
      price_1e9: Type.Integer({ minimum: 1 }),
      qty_1e8: Type.Integer({ minimum: 1 }),
      cost_bps: Type.Number({ description: 'expected all-in cost of the level when taken, vs the arrival mid (positive = worse)' }),
    },
    { additionalProperties: false },
  ),
);

const PlanAllocationSchema = describing<PlanAllocation>()(
  Type.Object(
    {
      venue: Type.String(),
      edge_id: Type.String(),
      qty_1e8: Type.Integer({ minimum: 1 }),
      limit_price_1e9: Type.Integer({ minimum: 1, description: 'worst price to accept: the last level taken' }),
      avg_price_1e9: Type.Integer({ minimum: 1, description: 'expected VWAP of the child (floor)' }),
      notional_1e9: Count('expected notional, USD 1e9 (floor)'),
      fee_bps: Type.Number(),
      expected_fee_1e9: Type.Integer({ description: 'USD 1e9; negative for a rebate' }),
      avg_cost_bps: Type.Number({ description: 'quantity-weighted cost of its levels' }),
      levels: Type.Array(PlanLevelSchema),
    },
    { additionalProperties: false, description: 'One child order of the plan: one venue, a quantity and the worst price to accept' },
  ),
);

const VenueCostTermsSchema = describing<VenueCostTerms>()(
  Type.Object(
    {
      fee_bps: Type.Number({ description: 'taker for market orders, maker for limit orders' }),
      latency_bps: Type.Number(),
      freshness_bps: Type.Number(),
      adverse_selection_bps: Type.Number({ description: 'routing versions 2 and 3, else 0' }),
      reject_bps: Type.Number({ description: 'routing versions 2 and 3, else 0' }),
      impact_bps_per_unit: Type.Number({ description: 'routing versions 2 and 3, else 0' }),
    },
    { additionalProperties: false, description: "the constant part of every level's cost on this venue" },
  ),
);

const PlanCandidateSchema = describing<PlanCandidate>()(
  Type.Object(
    {
      venue: Type.String(),
      edge_id: Type.String(),
      kept: Type.Boolean({ description: 'passed candidate selection' }),
      reason: Nullable(StringEnum(CANDIDATE_REASONS), 'why it is not used; null when used or simply not needed'),
      best_cost_bps: Nullable(Type.Number(), 'cost of its top level before any allocation; null when not kept'),
      cost: Nullable(VenueCostTermsSchema, 'null when not kept'),
      allocated_qty_1e8: Count(),
      dropped_qty_1e8: Count('what the sweep gave it before a minimum-size drop'),
    },
    { additionalProperties: false },
  ),
);

export const RoutingPlanSchema = describing<RoutingPlan>()(
  Type.Object(
    {
      node_order_id: Type.String({ description: 'the order routed; `preview` for a preview' }),
      routing_version: Type.Enum([1, 2, 3], { type: 'integer' }),
      side: StringEnum(['buy', 'sell']),
      order_type: StringEnum(['market', 'limit']),
      requested_qty_1e8: Type.Integer({ minimum: 1 }),
      limit_price_1e9: Nullable(Type.Integer({ minimum: 1 }), 'null for market orders'),
      forced_venue: Nullable(Type.String()),
      arrival_mid_1e9: Type.Integer({ minimum: 1, description: 'the reference of every cost in bps; 1 when there was no mid' }),
      decided_ns: Count(),
      allocations: Type.Array(PlanAllocationSchema, { description: 'cheapest first' }),
      candidates: Type.Array(PlanCandidateSchema, { description: 'one per venue listing the symbol' }),
      planned_qty_1e8: Count(),
      unfilled_qty_1e8: Count('requested - planned'),
      expected_notional_1e9: Count(),
      expected_fee_1e9: Type.Integer(),
      expected_fee_bps: Nullable(Type.Number(), 'null when nothing is planned'),
      expected_avg_price_1e9: Nullable(Type.Integer({ minimum: 1 }), 'null when nothing is planned'),
      expected_slippage_bps: Nullable(Type.Number(), 'VWAP vs arrival mid, side-adjusted (positive = worse); null when nothing is planned'),
      expected_cost_bps: Nullable(Type.Number(), 'null when nothing is planned'),
    },
    { $id: 'RoutingPlan', additionalProperties: false, description: 'The smart order router\'s decision for one order (docs/sor.md)' },
  ),
);

export const OrderPreviewSchema = describing<PreviewAnswer>()(
  Type.Object(
    {
      plan: RoutingPlanSchema,
      landed_cost_1e9: Nullable(Type.Integer(), 'expected notional plus fees for a buy, minus fees for a sell, USD 1e9; null when nothing is planned'),
    },
    { $id: 'OrderPreview', additionalProperties: false },
  ),
);
