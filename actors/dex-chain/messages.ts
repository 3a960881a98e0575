/** Messages of a simulated chain (`dex:<chain>`). */
import type { SwapRequest } from './chain.ts';

export type DexChainMessage =
  /** Every pool's entry now (`PoolEntry[]`): bid and ask of the displayed size, state, gas. */
  | { t: 'Pools' }
  /** A DEX order's swap in the current block (`SwapOutcome`; bigints travel as msgpack bigints). */
  | { t: 'Swap'; request: SwapRequest };
