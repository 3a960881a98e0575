/** Messages of a simulated chain (`dex:<chain>`). */
import type { SwapRequest } from './chain.ts';

export type DexChainMessage =
  /** Every pool's entry now (`PoolEntry[]`): bid and ask of the displayed size, state, gas. */
  | { t: 'Pools' }
  /** A DEX order's leg in the current block (`SwapOutcome`). */
  | { t: 'Swap'; request: SwapRequest }
  /** The swap curves of a pair's pools on one side (`PoolCurve[]`), for routing. */
  | { t: 'Curves'; symbol: string; side: 'buy' | 'sell'; pools?: string[] };
