import { Type } from 'typebox';
import type { GasContext, PoolEntry } from '../../actors/dex-chain/chain.ts';
import { describing } from './common.ts';

/** The spec's GasContext. */
export const GasContextSchema = describing<GasContext>()(
  Type.Object(
    {
      chain: Type.String(),
      chain_id: Type.Integer({ minimum: 0 }),
      base_fee_native: Type.Integer({ minimum: 0, description: 'wei per gas unit' }),
      priority_fee_native: Type.Integer({ minimum: 0, description: 'wei per gas unit' }),
      estimated_gas_units: Type.Integer({ minimum: 0, description: 'of one pool swap' }),
      native_price_1e9: Type.Integer({ minimum: 0, description: 'USD price of the gas currency x 1e9' }),
      estimated_cost_usd: Type.Number({ minimum: 0, description: 'of one swap at these fees' }),
      last_update_ns: Type.Integer({ minimum: 0 }),
    },
    { $id: 'GasContext', additionalProperties: false },
  ),
);

/** The spec's DEX pool entry. */
export const PoolEntrySchema = describing<PoolEntry>()(
  Type.Object(
    {
      symbol: Type.String({ description: 'the pool pair, chain-suffixed: BASE-QUOTE-CHAIN' }),
      pool_address: Type.String(),
      pair_index: Type.Integer({ minimum: 0 }),
      protocol: Type.String(),
      protocol_id: Type.Integer({ minimum: 1, maximum: 9 }),
      chain: Type.String(),
      fee_bps: Type.Integer({ minimum: 0 }),
      bid: Type.Number({ description: 'average price (quote per base) a swap selling bid_size gets now' }),
      ask: Type.Number({ description: 'average price a swap buying ask_size pays now' }),
      bid_size: Type.Number({ description: 'base units, about $10,000' }),
      ask_size: Type.Number(),
      sqrt_price_x96: Type.String({ description: 'Q64.96, exact integer' }),
      tick: Type.Integer(),
      liquidity: Type.String({ description: 'active liquidity, exact integer' }),
      block_number: Type.Integer({ minimum: 0 }),
      gas_context: GasContextSchema,
      updated_ms: Type.Integer({ minimum: 0 }),
    },
    { $id: 'DexPool', additionalProperties: false },
  ),
);
