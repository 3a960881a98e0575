import { Type, type Static } from 'typebox';
import type { GatewayContext } from '../context.ts';
import { Errors } from '../errors.ts';
import type { RouteSpec } from '../http/route.ts';
import { poolsFor } from '../market/pools.ts';
import { dexPair } from '../../domain/chains.ts';
import { PoolEntrySchema } from '../schemas/dex.ts';

const PoolsQuery = Type.Object({
  symbol: Type.String({ minLength: 3, maxLength: 60, description: 'BASE-QUOTE-CHAIN (one chain, e.g. ETH-USDC-dex-arb), or BASE-USD (every chain, any dollar quote)' }),
});

/** DEX market data (docs/wallets-and-dex.md): the simulated chains' pools. */
export function dexRoutes(ctx: GatewayContext): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/v1/market_data/pools',
      operationId: 'getPools',
      summary: 'DEX pools of a pair: state, the price a swap of the displayed size gets, gas',
      tags: ['market data'],
      auth: 'bearer',
      query: PoolsQuery,
      responses: {
        200: { description: 'Pools', schema: Type.Object({ symbol: Type.String(), pools: Type.Array(PoolEntrySchema) }) },
        400: { description: 'not a pair' },
        404: { description: 'no pool trades the pair' },
      },
      handler: async (req) => {
        const { symbol } = req.query as Static<typeof PoolsQuery>;
        const q = dexPair(symbol);
        if (q === undefined) throw Errors.validation([{ field: 'symbol', message: 'BASE-QUOTE-CHAIN or BASE-USD (e.g. ETH-USDC-dex-arb, ETH-USD)' }]);
        const pools = await poolsFor(ctx.topology.endpoint, q);
        if (pools.length === 0) throw Errors.notFound(`no pool trades ${symbol}`);
        return { status: 200, body: { symbol, pools } };
      },
    },
  ];
}
