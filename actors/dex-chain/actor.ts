import type { Actor, ActorContext } from '../../engine/actor.ts';
import type { ChainId } from '../../domain/chains.ts';
import { LatentPriceModel } from '../edge/sim/latent-price.ts';
import { SimChain, type PoolEntry } from './chain.ts';
import type { DexChainMessage } from './messages.ts';

/**
 * `dex:<chain>`: one simulated EVM chain's pools (chain.ts), advanced block by block on its
 * worker; asked for its pools' entries (`Pools`).
 */
export function dexChainActor(key: string): Actor<DexChainMessage> {
  const chainId = key.slice('dex:'.length) as ChainId;
  let chain: SimChain | undefined;
  let cancel: (() => void) | undefined;
  return {
    onStart(ctx: ActorContext) {
      const seed = Number(ctx.environment.settings['simSeed'] ?? 1);
      chain = new SimChain(chainId, new LatentPriceModel(seed), seed, Date.now());
      const blockMs = chain.spec.block_s * 1000;
      const loop = () => {
        cancel = ctx.schedule(blockMs - (Date.now() % blockMs) + 1, () => {
          chain!.advance(Date.now());
          loop();
        });
      };
      loop();
    },
    onStop() {
      cancel?.();
    },
    onMessage(message): PoolEntry[] | undefined {
      switch (message.t) {
        case 'Pools':
          chain!.advance(Date.now());
          return chain!.entries(Date.now());
      }
    },
  };
}
