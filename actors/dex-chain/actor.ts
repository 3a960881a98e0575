import type { Actor, ActorContext } from '../../engine/actor.ts';
import type { ChainId } from '../../domain/chains.ts';
import { LatentPriceModel } from '../edge/sim/latent-price.ts';
import { SimChain, type PoolCurve, type PoolEntry, type SwapOutcome } from './chain.ts';
import type { DexChainMessage } from './messages.ts';
import { TAPE_TOPIC, type TapeBatch } from '../edge/messages.ts';

/**
 * `dex:<chain>`: one simulated EVM chain's pools (chain.ts), advanced block by block on its
 * worker; asked for its pools' entries (`Pools`).
 */
export function dexChainActor(key: string): Actor<DexChainMessage> {
  const chainId = key.slice('dex:'.length) as ChainId;
  let chain: SimChain | undefined;
  let cancel: (() => void) | undefined;
  /** The block's swaps to the trade tape, as an edge's trades go (price history of chain-suffixed pairs). */
  const publishSwaps = (ctx: ActorContext) => {
    const swaps = chain!.drainSwaps();
    if (swaps.length === 0) return;
    const batch: TapeBatch = { venue: chainId, instrument_type: 'spot', symbols: [], numbers: [], trade_ids: [] };
    for (const s of swaps) {
      batch.symbols.push(s.symbol);
      batch.numbers.push(s.price_1e9, s.qty_1e8, s.side === 'buy' ? 0 : 1, s.ts_ms);
      batch.trade_ids.push(`${s.block}:${s.pool_address.slice(0, 10)}:${batch.trade_ids.length}`);
    }
    ctx.publish(TAPE_TOPIC.name, batch);
  };
  return {
    onStart(ctx: ActorContext) {
      const seed = Number(ctx.environment.settings['simSeed'] ?? 1);
      chain = new SimChain(chainId, new LatentPriceModel(seed), seed, Date.now());
      const blockMs = chain.spec.block_s * 1000;
      const loop = () => {
        cancel = ctx.schedule(blockMs - (Date.now() % blockMs) + 1, () => {
          chain!.advance(Date.now());
          publishSwaps(ctx);
          loop();
        });
      };
      loop();
    },
    onStop() {
      cancel?.();
    },
    onMessage(message): PoolEntry[] | PoolCurve[] | SwapOutcome | undefined {
      switch (message.t) {
        case 'Pools':
          chain!.advance(Date.now());
          return chain!.entries(Date.now());
        case 'Swap':
          return chain!.swapOrder(message.request, Date.now());
        case 'Curves':
          return chain!.curves(message.symbol, message.side, Date.now(), message.pools);
      }
    },
  };
}
