import { Type, type Static } from 'typebox';
import type { Instrument, Lifecycle, PositionsView, PositionTotals, PositionView } from '../../execution/ledger/ledger.ts';
import { Count, describing, ExactInteger, Nullable, StringEnum } from './common.ts';

/**
 * The unified position model (spec: "Position", "Positions"; execution/ledger/ledger.ts
 * `view()`): rows with a tagged instrument and lifecycle, and the totals over the returned rows.
 * USD amounts are integers, USD x 1e9; quantities integers, native units x 1e8.
 */

export const InstrumentSchema = describing<Instrument>()(
  Type.Union(
    [
      Type.Object({ kind: Type.Literal('fiat'), code: Type.String() }, { additionalProperties: false }),
      Type.Object({ kind: Type.Literal('crypto'), symbol: Type.String() }, { additionalProperties: false }),
      Type.Object({ kind: Type.Literal('perp'), symbol: Type.String(), base: Type.String() }, { additionalProperties: false }),
      Type.Object(
        {
          kind: Type.Literal('event_contract'),
          market_slug: Type.String(),
          outcome: Type.String(),
          token_id: Nullable(Type.String()),
          expiry_ts: Nullable(Type.Number()),
        },
        { additionalProperties: false },
      ),
    ],
    { $id: 'Instrument', description: 'Tagged by `kind`: fiat cash by code, spot crypto by symbol (stablecoins too), perpetuals, event contracts' },
  ),
);

const LifecycleSchema = describing<Lifecycle>()(
  Type.Union(
    [
      Type.Object({ state: Type.Literal('active') }, { additionalProperties: false }),
      Type.Object({ state: Type.Literal('closed') }, { additionalProperties: false }),
      Type.Object(
        { state: Type.Literal('resolved'), resolved_at: Type.Number({ description: 'ns' }), economic_value_usd_1e9: Type.Number() },
        { additionalProperties: false },
      ),
      Type.Object(
        {
          state: Type.Literal('redeemed'),
          resolved_at: Type.Number({ description: 'ns' }),
          economic_value_usd_1e9: Type.Number(),
          redeemed_at: Type.Number({ description: 'ns' }),
          cash_received_usd_1e9: Type.Number(),
        },
        { additionalProperties: false },
      ),
    ],
    { $id: 'PositionLifecycle', description: 'Tagged by `state`; spot rows are only `active` or `closed`' },
  ),
);

/** A fiat row (`instrument.kind` fiat), as the conditions below test it. */
const FIAT_ROW = Type.Object({ instrument: Type.Object({ kind: Type.Literal('fiat') }) });

export const PositionSchema = describing<PositionView>()(
  Type.Object(
    {
      id: Count('database key'),
      venue: Type.String(),
      instrument: InstrumentSchema,
      qty_1e8: ExactInteger({ description: 'signed; negative for short perps and event contracts' }),
      locked_qty_1e8: ExactInteger({ minimum: 0, description: 'reserved for working orders' }),
      available_qty_1e8: ExactInteger({ description: 'qty minus locked' }),
      entry_price_usd_1e9: ExactInteger({ minimum: 0, description: 'weighted-average entry price' }),
      current_price_usd_1e9: Type.Optional(ExactInteger({ minimum: 0, description: 'the mark: $1 for USD and stablecoins, the consolidated mid, else the entry price; absent on fiat rows' })),
      current_value_usd_1e9: ExactInteger({ description: 'qty x current price / 1e8' }),
      unrealized_pnl_usd_1e9: ExactInteger(),
      realized_pnl_usd_1e9: ExactInteger(),
      fees_usd_1e9: ExactInteger(),
      lifecycle: LifecycleSchema,
      transferable: Type.Boolean({ description: 'true for fiat and spot crypto' }),
      settled: Type.Boolean(),
      settled_mark_usd_1e9: Type.Optional(Nullable(ExactInteger({ minimum: 0 }), 'only on event-contract rows: null before settlement')),
      initial_margin_usd_1e9: Type.Optional(ExactInteger({ minimum: 0, description: 'perp rows: initial margin locked on the venue\'s quote row, at the maximum leverage' })),
      maintenance_margin_usd_1e9: Type.Optional(ExactInteger({ minimum: 0, description: 'perp rows: |qty| x mark x maintenance rate (half the initial rate)' })),
      leverage: Type.Optional(Type.Number({ minimum: 0, description: 'perp rows: the leverage the margin is locked at (0 for a stated position)' })),
      liquidation_price_1e9: Type.Optional(Nullable(ExactInteger({ minimum: 0 }), 'perp rows: the mark at which the position\'s isolated equity meets maintenance; null when none reaches it')),
      margin_state: Type.Optional(StringEnum(['ok', 'below_maintenance'] as const, 'perp rows')),
      funding_usd_1e9: Type.Optional(ExactInteger({ description: 'perp rows: funding received (+) or paid (-) so far; included in realized PnL' })),
      is_sandbox: Type.Boolean(),
    },
    {
      $id: 'Position',
      additionalProperties: false,
      // Fiat rows omit the price mark; every other row carries it.
      if: FIAT_ROW,
      then: { not: { required: ['current_price_usd_1e9'] } },
      else: { required: ['current_price_usd_1e9'] },
    },
  ),
);

export const PositionTotalsSchema = describing<PositionTotals>()(
  Type.Object(
    {
      nav_usd_1e9: ExactInteger({ description: 'sum of current values' }),
      cash_usd_1e9: ExactInteger({ description: 'fiat rows and stablecoin rows at $1' }),
      unrealized_pnl_usd_1e9: ExactInteger(),
      realized_pnl_usd_1e9: ExactInteger(),
      fees_usd_1e9: ExactInteger(),
      num_positions: Count(),
    },
    { $id: 'PositionTotals', additionalProperties: false, description: 'Aggregates over the returned, filtered rows' },
  ),
);

export const PositionsRespSchema = describing<PositionsView & { as_of_ns: number }>()(
  Type.Object(
    {
      positions: Type.Array(PositionSchema, { description: 'in row id order' }),
      totals: PositionTotalsSchema,
      as_of_ns: Count(),
    },
    { $id: 'PositionsResp', additionalProperties: false },
  ),
);

export const PositionsSyncRespSchema = Type.Object(
  { synced: Type.Boolean(), message: Type.String() },
  { $id: 'PositionsSyncResp', additionalProperties: false },
);

export type PositionsSyncResp = Static<typeof PositionsSyncRespSchema>;
