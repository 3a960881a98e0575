import { Type, type Static } from 'typebox';
import type { KillSwitchState } from '../../storage/meta.ts';
import { Count, describing, ExactInteger, Nullable } from './common.ts';
import { InstrumentSchema } from './positions.ts';

/** The kill switch and the risk read-out (spec: "Health, risk, streams, misc"). */

export const KillSwitchSchema = describing<KillSwitchState>()(
  Type.Object(
    {
      active: Type.Boolean(),
      reason: Nullable(Type.String()),
      updated_at_ms: Nullable(Type.Integer(), 'null while it was never set'),
      updated_by: Nullable(Type.String(), 'client id of the admin who set it'),
    },
    { $id: 'KillSwitchState', additionalProperties: false },
  ),
);

export const RiskReadoutSchema = Type.Object(
  {
    kill_switch: KillSwitchSchema,
    limits: Type.Object({ max_order_notional_usd_1e9: Count('per-order notional cap (pre-trade risk)') }, { additionalProperties: false }),
    working_orders: Count('orders not yet terminal'),
    reserved: Type.Array(
      Type.Object({ venue: Type.String(), instrument: InstrumentSchema, locked_qty_1e8: ExactInteger({ minimum: 1 }) }, { additionalProperties: false }),
      { description: 'ledger rows holding reservations for working orders' },
    ),
    nav_usd_1e9: ExactInteger(),
    cash_usd_1e9: ExactInteger(),
    gross_exposure_usd_1e9: ExactInteger({ minimum: 0, description: 'sum of the absolute values of the crypto rows' }),
    as_of_ns: Count(),
  },
  { $id: 'RiskReadout', additionalProperties: false, description: "Informational risk read-out of the caller's account in the key's mode" },
);

/** What the risk stream sends to every listener when the kill switch changes: not a full read-out. */
export const KillSwitchChangeSchema = Type.Object(
  { kill_switch: KillSwitchSchema, as_of_ns: Count() },
  { $id: 'KillSwitchChange', additionalProperties: false },
);

export type RiskReadout = Static<typeof RiskReadoutSchema>;
