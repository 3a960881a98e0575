import { keccak_256 } from '@noble/hashes/sha3.js';
import * as Address from 'ox/Address';
import { CHAINS, tokenSpec, type ChainId } from '../../domain/chains.ts';
import { Q96 } from '../../domain/dex/full-math.ts';
import { poolFromPositions, type PoolState, type Position } from '../../domain/dex/pool.ts';
import { getTickAtSqrtRatio, MAX_TICK, MIN_TICK } from '../../domain/dex/tick-math.ts';

/**
 * The simulated chains' pools (docs/wallets-and-dex.md): concentrated-liquidity pools for the
 * main pairs, at the fee tiers such pools use, with a liquidity profile built from positions
 * around the market price at start (a wide range and two concentrated ones), sized to a TVL.
 */
export interface PoolSpec {
  chain: ChainId;
  /** `BASE-QUOTE-CHAIN`, the chain-suffixed symbol; `base`/`quote` as the CEX venues name them (ETH, BTC). */
  symbol: string;
  base: string;
  quote: string;
  /** The tokens in the pool (WETH for ETH, WBTC for BTC). */
  base_token: string;
  quote_token: string;
  fee_bps: number;
  protocol: string;
  protocol_id: number;
  pair_index: number;
  /** Deterministic per (chain, pair, fee): an address of the simulated deployment. */
  pool_address: string;
  tvl_usd: number;
}

interface Draft {
  chain: ChainId;
  base: string;
  quote: string;
  fee_bps: number;
  tvl_usd: number;
  protocol?: [string, number];
}

const UNISWAP: [string, number] = ['uniswap_v3', 1];
const PANCAKE: [string, number] = ['pancakeswap_v3', 2];

const DRAFTS: readonly Draft[] = [
  { chain: 'dex-eth', base: 'ETH', quote: 'USDC', fee_bps: 5, tvl_usd: 150e6 },
  { chain: 'dex-eth', base: 'ETH', quote: 'USDC', fee_bps: 30, tvl_usd: 60e6 },
  { chain: 'dex-eth', base: 'ETH', quote: 'USDT', fee_bps: 5, tvl_usd: 40e6 },
  { chain: 'dex-eth', base: 'BTC', quote: 'USDC', fee_bps: 30, tvl_usd: 30e6 },
  { chain: 'dex-eth', base: 'LINK', quote: 'USDC', fee_bps: 30, tvl_usd: 5e6 },
  { chain: 'dex-eth', base: 'UNI', quote: 'USDC', fee_bps: 100, tvl_usd: 3e6 },
  { chain: 'dex-eth', base: 'USDC', quote: 'USDT', fee_bps: 1, tvl_usd: 50e6 },
  { chain: 'dex-arb', base: 'ETH', quote: 'USDC', fee_bps: 5, tvl_usd: 40e6 },
  { chain: 'dex-arb', base: 'ETH', quote: 'USDC', fee_bps: 30, tvl_usd: 8e6, protocol: PANCAKE },
  { chain: 'dex-arb', base: 'ETH', quote: 'USDT', fee_bps: 5, tvl_usd: 10e6 },
  { chain: 'dex-arb', base: 'BTC', quote: 'USDC', fee_bps: 5, tvl_usd: 15e6 },
  { chain: 'dex-arb', base: 'ARB', quote: 'USDC', fee_bps: 30, tvl_usd: 6e6 },
  { chain: 'dex-arb', base: 'LINK', quote: 'USDC', fee_bps: 100, tvl_usd: 1e6 },
];

/** The pool token of an asset: the wrapped form of a native or foreign one. */
function tokenOf(asset: string): string {
  return asset === 'ETH' ? 'WETH' : asset === 'BTC' ? 'WBTC' : asset;
}

export const POOLS: readonly PoolSpec[] = DRAFTS.map((d) => {
  const [protocol, protocol_id] = d.protocol ?? UNISWAP;
  const hash = keccak_256(new TextEncoder().encode(`sim-pool|${d.chain}|${d.base}-${d.quote}|${d.fee_bps}|${protocol}`));
  return {
    chain: d.chain,
    symbol: `${d.base}-${d.quote}-${d.chain}`,
    base: d.base,
    quote: d.quote,
    base_token: tokenOf(d.base),
    quote_token: tokenOf(d.quote),
    fee_bps: d.fee_bps,
    protocol,
    protocol_id,
    pair_index: 0,
    pool_address: Address.checksum(`0x${Buffer.from(hash.subarray(12)).toString('hex')}`),
    tvl_usd: d.tvl_usd,
  };
});

export function poolsOf(chain: ChainId): PoolSpec[] {
  return POOLS.filter((p) => p.chain === chain);
}

export const CHAIN_IDS: readonly ChainId[] = CHAINS.map((c) => c.chain);

/** Tick spacing of a fee tier, as the factory enables them. */
export function tickSpacingOf(fee_bps: number): number {
  return fee_bps <= 1 ? 1 : fee_bps <= 5 ? 10 : fee_bps <= 30 ? 60 : 200;
}

/** How a pool's raw price (token1 per token0, smallest units) relates to the human one (quote per base). */
export interface PoolOrientation {
  baseIsToken0: boolean;
  baseDecimals: number;
  quoteDecimals: number;
}

export function orientationOf(spec: PoolSpec): PoolOrientation {
  const base = tokenSpec(spec.base_token)!;
  const quote = tokenSpec(spec.quote_token)!;
  const baseAddr = base.contracts[spec.chain]!.toLowerCase();
  const quoteAddr = quote.contracts[spec.chain]!.toLowerCase();
  // token0 is the lower address (the factory sorts them).
  return { baseIsToken0: baseAddr < quoteAddr, baseDecimals: base.decimals!, quoteDecimals: quote.decimals! };
}

/** The Q64.96 sqrt price of a human price (quote per base). A float start: pool math is exact from there. */
export function sqrtPriceOf(price: number, o: PoolOrientation): bigint {
  const raw = o.baseIsToken0 ? price * 10 ** (o.quoteDecimals - o.baseDecimals) : (1 / price) * 10 ** (o.baseDecimals - o.quoteDecimals);
  return BigInt(Math.round(Math.sqrt(raw) * 2 ** 48)) * (1n << 48n);
}

/** The human price (quote per base) of a Q64.96 sqrt price. */
export function priceOf(sqrtPriceX96: bigint, o: PoolOrientation): number {
  const s = Number(sqrtPriceX96) / Number(Q96);
  const raw = s * s;
  return o.baseIsToken0 ? raw / 10 ** (o.quoteDecimals - o.baseDecimals) : 1 / (raw / 10 ** (o.baseDecimals - o.quoteDecimals));
}

/**
 * A pool at `price` (quote per base) holding `tvl_usd`: half of it in a wide range (about
 * x0.5 to x2), a third within 2% and the rest within 0.5% of the price, each position's
 * liquidity sized to its share of the value.
 */
export function buildPool(spec: PoolSpec, price: number, baseUsd: number): PoolState {
  const o = orientationOf(spec);
  const sqrtPriceX96 = sqrtPriceOf(price, o);
  const tick = getTickAtSqrtRatio(sqrtPriceX96);
  const spacing = tickSpacingOf(spec.fee_bps);
  // Value of one unit of token1 in USD (raw units): the quote when the base is token0, else the base.
  const token1Usd = o.baseIsToken0 ? baseUsd / price / 10 ** o.quoteDecimals : baseUsd / 10 ** o.baseDecimals;
  const sqrtP = Number(sqrtPriceX96) / Number(Q96);
  const positions: Position[] = [];
  for (const [share, halfWidthTicks] of [[0.5, 6_932], [0.33, 198], [0.17, 50]] as const) {
    const lower = Math.max(MIN_TICK, Math.floor((tick - halfWidthTicks) / spacing) * spacing);
    const upper = Math.min(MAX_TICK, Math.ceil((tick + halfWidthTicks + 1) / spacing) * spacing);
    const sa = Math.sqrt(1.0001 ** lower);
    const sb = Math.sqrt(1.0001 ** upper);
    // Value in token1 of liquidity 1 at price p within [pa, pb]: (sqrt p - sqrt pa) + p (1/sqrt p - 1/sqrt pb).
    const perL = sqrtP - sa + sqrtP * sqrtP * (1 / sqrtP - 1 / sb);
    const liquidity = BigInt(Math.floor((spec.tvl_usd * share) / token1Usd / perL));
    if (liquidity > 0n) positions.push({ tickLower: lower, tickUpper: upper, liquidity });
  }
  return poolFromPositions(sqrtPriceX96, spec.fee_bps * 100, spacing, positions);
}
