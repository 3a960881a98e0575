/** Messages of a simulated chain (`dex:<chain>`). */
export type DexChainMessage =
  /** Every pool's entry now (`PoolEntry[]`): bid and ask of the displayed size, state, gas. */
  { t: 'Pools' };
