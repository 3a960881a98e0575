import { chainSpec, type ChainId, type ChainSpec } from '../../domain/chains.ts';
import { applySwap, quoteExactInput, swap, type PoolState, type SwapResult } from '../../domain/dex/pool.ts';
import { avgPrice1e9, baseUnitsOf, curveLevels, lot1e8, lpFeeUsd1e9, swapBase, type BaseSwap } from './swaps.ts';
import { quoteIndex, type LatentPriceModel } from '../edge/sim/latent-price.ts';
import { hashUniform } from '../edge/sim/rng.ts';
import { buildPool, orientationOf, poolsOf, priceOf, sqrtPriceOf, type PoolOrientation, type PoolSpec } from './pools.ts';

/** The spec's GasContext. */
export interface GasContext {
  chain: string;
  chain_id: number;
  base_fee_native: number;
  priority_fee_native: number;
  estimated_gas_units: number;
  native_price_1e9: number;
  estimated_cost_usd: number;
  last_update_ns: number;
}

/** The spec's DEX pool entry, plus the pool's chain-suffixed symbol. */
export interface PoolEntry {
  symbol: string;
  pool_address: string;
  pair_index: number;
  protocol: string;
  protocol_id: number;
  chain: string;
  fee_bps: number;
  bid: number;
  ask: number;
  bid_size: number;
  ask_size: number;
  sqrt_price_x96: string;
  tick: number;
  liquidity: string;
  block_number: number;
  gas_context: GasContext;
  updated_ms: number;
}

interface LivePool {
  spec: PoolSpec;
  o: PoolOrientation;
  state: PoolState;
}

/** A swap the chain made (for the trade tape): price quote per base x 1e9, base qty x 1e8, the taker's side of the base. */
export interface PoolSwap {
  symbol: string;
  pool_address: string;
  price_1e9: number;
  qty_1e8: number;
  side: 'buy' | 'sell';
  ts_ms: number;
  block: number;
}

/**
 * A DEX order's leg as the chain is asked to execute it: an exact base quantity through one
 * pool (a buy is an exact-output swap of the base, a sell an exact-input one), refused whole if
 * its average price is worse than `limit_price_1e9` (the order's protection, as a router
 * contract's amountInMaximum / amountOutMinimum reverts). `dry`: a sandbox leg, priced against
 * the live pool and answered, with nothing changed on chain.
 */
export interface SwapRequest {
  /** The pool's chain-suffixed pair (`ETH-USDC-dex-arb`). */
  symbol: string;
  pool_address: string;
  side: 'buy' | 'sell';
  qty_1e8: number;
  limit_price_1e9: number;
  dry: boolean;
}

export type SwapOutcome =
  | {
      ok: true;
      pool_address: string;
      fee_bps: number;
      block: number;
      qty_1e8: number;
      /** Average price, quote per base x 1e9, rounded against the client. */
      price_1e9: number;
      /** The quote paid (buy) or received (sell), _1e8 units. */
      quote_1e8: number;
      /** The LP fee, USD 1e9 (inside the price). */
      lp_fee_1e9: number;
      /** Gas the swap used and its price (wei per unit), and ETH in USD 1e9 at the block. */
      gas_units: number;
      base_fee_wei: number;
      priority_fee_wei: number;
      native_price_1e9: number;
    }
  | { ok: false; reason: 'unknown_pool' | 'limit' | 'no_liquidity'; price_1e9: number | null };

/** One pool's swap curve on a side (swaps.ts `curveLevels`) and its chain's gas now. */
export interface PoolCurve {
  pool_address: string;
  fee_bps: number;
  lot_1e8: number;
  px: number[];
  qty: number[];
  gas: GasContext;
}

/** What a pool quote shows: the price a swap of about this much gets (USD notional). */
export const DISPLAY_NOTIONAL_USD = 10_000;
/** Simulated block numbers count from here (a fixed instant), per chain. */
const GENESIS_MS = Date.UTC(2026, 0, 1);
const GENESIS_BLOCK: Record<ChainId, number> = { 'dex-eth': 21_500_000, 'dex-arb': 290_000_000 };
const HUGE = 1n << 200n;
const MAX_PENDING_SWAPS = 10_000;
const GWEI = 1e9;

/**
 * One simulated EVM chain's DEX pools (docs/wallets-and-dex.md): a block every `block_s`; in
 * each, some retail flow swaps each pool a little, then an arbitrageur swaps every pool whose
 * price left its fee band around the reference market (the latent price the CEX venues quote
 * around) back to the band's edge; the base fee moves like EIP-1559's. Every swap runs the
 * exact pool math (domain/dex). Deterministic for the seed and the blocks advanced.
 */
export class SimChain {
  readonly spec: ChainSpec;
  private readonly pools: LivePool[];
  private block: number;
  private blockMs: number;
  /** log of base fee over its typical level: mean-reverting, a step of up to 12.5% a block. */
  private feeLog = 0;
  /** Swaps since the last `drainSwaps`, at most MAX_PENDING_SWAPS (the oldest dropped). */
  private swaps: PoolSwap[] = [];

  constructor(
    chain: ChainId,
    private readonly model: LatentPriceModel,
    private readonly seed: number,
    now_ms: number,
  ) {
    this.spec = chainSpec(chain)!;
    this.block = this.blockAt(now_ms);
    this.blockMs = now_ms;
    this.pools = poolsOf(chain).map((spec) => {
      const o = orientationOf(spec);
      return { spec, o, state: buildPool(spec, this.reference(spec, now_ms), this.usd(spec.base, now_ms)) };
    });
  }

  blockAt(t_ms: number): number {
    return GENESIS_BLOCK[this.spec.chain] + Math.floor((t_ms - GENESIS_MS) / (this.spec.block_s * 1000));
  }

  get blockNumber(): number {
    return this.block;
  }

  /** Produces the blocks due by `now_ms` (at most `maxBlocks`, the newest). Returns how many. */
  advance(now_ms: number, maxBlocks = 16): number {
    const target = this.blockAt(now_ms);
    if (target <= this.block) return 0;
    const from = Math.max(this.block + 1, target - maxBlocks + 1);
    for (let b = from; b <= target; b++) this.produce(b, now_ms - (target - b) * this.spec.block_s * 1000);
    this.block = target;
    this.blockMs = now_ms;
    return target - from + 1;
  }

  private produce(block: number, t_ms: number): void {
    const chainTag = this.spec.chain_id % 65_536;
    this.feeLog = 0.97 * this.feeLog + 0.125 * (2 * hashUniform(this.seed, chainTag, block, 0xfee) - 1);
    this.pools.forEach((p, i) => {
      // Retail flow: half the blocks, a swap of 0.001%-0.02% of the pool's value, either way.
      const u = hashUniform(this.seed, chainTag, block, i);
      if (u < 0.5) {
        const usd = p.spec.tvl_usd * (0.00001 + 0.0002 * hashUniform(this.seed, chainTag, block, i + 1_000));
        const sellBase = hashUniform(this.seed, chainTag, block, i + 2_000) < 0.5;
        const amount = sellBase ? this.baseUnits(p, usd / this.usd(p.spec.base, t_ms)) : this.quoteUnits(p, usd / this.usd(p.spec.quote, t_ms));
        if (amount > 0n) this.swapIn(p, sellBase, amount, block, t_ms);
      }
      this.arbitrage(p, block, t_ms);
    });
  }

  /** The swaps made since the last call, oldest first. */
  drainSwaps(): PoolSwap[] {
    const out = this.swaps;
    this.swaps = [];
    return out;
  }

  private record(p: LivePool, r: SwapResult, block: number, t_ms: number): void {
    const [base, quote] = p.o.baseIsToken0 ? [r.amount0, r.amount1] : [r.amount1, r.amount0];
    if (base === 0n || quote === 0n) return;
    const baseQty = Math.abs(Number(base)) / 10 ** p.o.baseDecimals;
    const quoteQty = Math.abs(Number(quote)) / 10 ** p.o.quoteDecimals;
    // The pool paid base out: the taker bought it.
    this.swaps.push({ symbol: p.spec.symbol, pool_address: p.spec.pool_address, price_1e9: Math.round((quoteQty / baseQty) * 1e9), qty_1e8: Math.round(baseQty * 1e8), side: base < 0n ? 'buy' : 'sell', ts_ms: t_ms, block });
    if (this.swaps.length > MAX_PENDING_SWAPS) this.swaps.shift();
  }

  /** Swaps the pool back to the edge of its fee band around the reference, if it left it. */
  private arbitrage(p: LivePool, block: number, t_ms: number): void {
    const ref = this.reference(p.spec, t_ms);
    const price = priceOf(p.state.sqrtPriceX96, p.o);
    const band = p.spec.fee_bps / 1e4;
    const target = price < ref * (1 - band) ? ref * (1 - band) : price > ref * (1 + band) ? ref * (1 + band) : undefined;
    if (target === undefined) return;
    const limit = sqrtPriceOf(target, p.o);
    // Human price up = raw price up when the base is token0: token1 (the quote) goes in.
    const zeroForOne = (target > price) !== p.o.baseIsToken0;
    if (zeroForOne ? limit >= p.state.sqrtPriceX96 : limit <= p.state.sqrtPriceX96) return;
    const r = swap(p.state, zeroForOne, HUGE, limit);
    applySwap(p.state, r);
    this.record(p, r, block, t_ms);
  }

  private swapIn(p: LivePool, sellBase: boolean, amount: bigint, block: number, t_ms: number): void {
    const zeroForOne = sellBase === p.o.baseIsToken0;
    try {
      const r = swap(p.state, zeroForOne, amount);
      applySwap(p.state, r);
      this.record(p, r, block, t_ms);
    } catch {
      // A swap the pool cannot take (its price at a bound) is simply not made.
    }
  }

  private usd(asset: string, t_ms: number): number {
    const t_ns = t_ms * 1_000_000;
    const u = this.model.indexOf(asset);
    if (u >= 0) return this.model.usdAt(u, t_ns);
    const q = quoteIndex(asset);
    return q >= 0 ? this.model.quoteUsdAt(q, t_ns) : 1;
  }

  /** The reference price of a pool's pair, quote per base. */
  private reference(spec: PoolSpec, t_ms: number): number {
    return this.usd(spec.base, t_ms) / this.usd(spec.quote, t_ms);
  }

  private baseUnits(p: LivePool, qty: number): bigint {
    return BigInt(Math.floor(qty * 10 ** p.o.baseDecimals));
  }

  private quoteUnits(p: LivePool, qty: number): bigint {
    return BigInt(Math.floor(qty * 10 ** p.o.quoteDecimals));
  }

  /**
   * Executes a DEX order's leg in the current block (see SwapRequest): the exact pool math,
   * the swap on the tape like the block's others; refused whole (nothing changes) past its
   * limit or the pool's liquidity.
   */
  swapOrder(req: SwapRequest, now_ms: number): SwapOutcome {
    this.advance(now_ms);
    const p = this.pools.find((x) => x.spec.symbol === req.symbol && x.spec.pool_address === req.pool_address);
    if (p === undefined || !(req.qty_1e8 > 0)) return { ok: false, reason: 'unknown_pool', price_1e9: null };
    const units = baseUnitsOf(req.qty_1e8, p.o);
    let s: BaseSwap | undefined;
    try {
      if (units > 0n) s = swapBase(p.state, p.o, req.side, units);
    } catch {
      // A swap the pool reverts (its price at a bound): no liquidity for it.
    }
    if (s === undefined || !s.complete) return { ok: false, reason: 'no_liquidity', price_1e9: null };
    const price = avgPrice1e9(req.side, s.quote_1e8, s.qty_1e8);
    if (req.side === 'buy' ? price > BigInt(req.limit_price_1e9) : price < BigInt(req.limit_price_1e9)) return { ok: false, reason: 'limit', price_1e9: Number(price) };
    if (!req.dry) {
      applySwap(p.state, s.result);
      this.record(p, s.result, this.block, now_ms);
    }
    const gas = this.gasContext(now_ms);
    return {
      ok: true,
      pool_address: p.spec.pool_address,
      fee_bps: p.spec.fee_bps,
      block: this.block,
      qty_1e8: Number(s.qty_1e8),
      price_1e9: Number(price),
      quote_1e8: Number(s.quote_1e8),
      lp_fee_1e9: Number(lpFeeUsd1e9(req.side, s.result.feeAmount, p.o, price)),
      gas_units: gas.estimated_gas_units,
      base_fee_wei: gas.base_fee_native,
      priority_fee_wei: gas.priority_fee_native,
      native_price_1e9: gas.native_price_1e9,
    };
  }

  /** The swap curves of a chain-suffixed pair's pools on one side (every pool, or those named). */
  curves(symbol: string, side: 'buy' | 'sell', now_ms: number, pools?: readonly string[]): PoolCurve[] {
    this.advance(now_ms);
    const gas = this.gasContext(now_ms);
    return this.pools
      .filter((p) => p.spec.symbol === symbol && (pools === undefined || pools.includes(p.spec.pool_address)))
      .map((p) => ({ pool_address: p.spec.pool_address, fee_bps: p.spec.fee_bps, lot_1e8: lot1e8(p.o), ...curveLevels(p.state, p.o, side, this.usd(p.spec.base, now_ms)), gas }));
  }

  gasContext(now_ms: number): GasContext {
    const base = this.spec.base_fee_gwei * Math.exp(this.feeLog);
    const eth = this.usd('ETH', now_ms);
    return {
      chain: this.spec.chain,
      chain_id: this.spec.chain_id,
      base_fee_native: Math.round(base * GWEI),
      priority_fee_native: Math.round(this.spec.priority_fee_gwei * GWEI),
      estimated_gas_units: this.spec.swap_gas_units,
      native_price_1e9: Math.round(eth * 1e9),
      estimated_cost_usd: Math.round((base + this.spec.priority_fee_gwei) * this.spec.swap_gas_units * 1e-9 * eth * 1e6) / 1e6,
      last_update_ns: this.blockMs * 1_000_000,
    };
  }

  /** Every pool as the spec's entry: bid and ask are what a swap of the displayed size gets. */
  entries(now_ms: number): PoolEntry[] {
    const gas = this.gasContext(now_ms);
    return this.pools.map((p) => {
      const mid = priceOf(p.state.sqrtPriceX96, p.o);
      const size = DISPLAY_NOTIONAL_USD / this.usd(p.spec.base, now_ms);
      const baseIn = this.baseUnits(p, size);
      const sell = quoteExactInput(p.state, p.o.baseIsToken0, baseIn);
      const quoteIn = this.quoteUnits(p, size * mid);
      const buy = quoteExactInput(p.state, !p.o.baseIsToken0, quoteIn);
      const baseOf = (x: bigint) => Number(x) / 10 ** p.o.baseDecimals;
      const quoteOf = (x: bigint) => Number(x) / 10 ** p.o.quoteDecimals;
      const bidSize = baseOf(sell.amountIn);
      const askSize = baseOf(buy.amountOut);
      return {
        symbol: p.spec.symbol,
        pool_address: p.spec.pool_address,
        pair_index: p.spec.pair_index,
        protocol: p.spec.protocol,
        protocol_id: p.spec.protocol_id,
        chain: p.spec.chain,
        fee_bps: p.spec.fee_bps,
        bid: bidSize > 0 ? round(quoteOf(sell.amountOut) / bidSize) : 0,
        ask: askSize > 0 ? round(quoteOf(buy.amountIn) / askSize) : 0,
        bid_size: round(bidSize),
        ask_size: round(askSize),
        sqrt_price_x96: p.state.sqrtPriceX96.toString(),
        tick: p.state.tick,
        liquidity: p.state.liquidity.toString(),
        block_number: this.block,
        gas_context: gas,
        updated_ms: this.blockMs,
      };
    });
  }
}

function round(x: number): number {
  return Number(x.toPrecision(10));
}
