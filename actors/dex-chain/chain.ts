import { chainSpec, type ChainId, type ChainSpec } from '../../domain/chains.ts';
import { applySwap, quoteExactInput, swap, type PoolState, type SwapResult } from '../../domain/dex/pool.ts';
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

/** A swap a DEX order asks of the chain: exact input of the token it sells, at least `min_out` back. */
export interface SwapRequest {
  /** The chain-suffixed pair (`ETH-USDC-dex-arb`). */
  symbol: string;
  /** buy: the quote goes in, the base comes out; sell: the other way. */
  side: 'buy' | 'sell';
  /** Input amount in the input token's smallest units. */
  amount_in: bigint;
  /** The least output accepted (the order's protection); below it nothing is swapped. */
  min_out: bigint;
  /** One pool by address; default the pool that gives the most out. */
  pool_address?: string;
}

export type SwapOutcome =
  | {
      ok: true;
      pool_address: string;
      fee_bps: number;
      block: number;
      amount_in: bigint;
      amount_out: bigint;
      /** The LP fee, in the input token's smallest units (inside amount_in). */
      lp_fee: bigint;
      /** Gas the swap used and its price, wei per unit. */
      gas_units: number;
      base_fee_wei: number;
      priority_fee_wei: number;
      /** Base per unit x 1e8 and quote per base x 1e9, for the fill. */
      qty_1e8: number;
      price_1e9: number;
    }
  | { ok: false; reason: 'unknown_pair' | 'min_out' | 'no_liquidity'; best_out: bigint };

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
   * Executes a DEX order's swap in the current block: the pool (asked for, or the one giving the
   * most out) takes the exact input through its exact math, unless that gives less than
   * `min_out` (then nothing changes). The swap goes on the tape like the block's others.
   */
  swapExactIn(req: SwapRequest, now_ms: number): SwapOutcome {
    this.advance(now_ms);
    const candidates = this.pools.filter((p) => p.spec.symbol === req.symbol && (req.pool_address === undefined || p.spec.pool_address === req.pool_address));
    if (candidates.length === 0 || req.amount_in <= 0n) return { ok: false, reason: 'unknown_pair', best_out: 0n };
    let best: { p: LivePool; out: bigint } | undefined;
    for (const p of candidates) {
      const zeroForOne = (req.side === 'sell') === p.o.baseIsToken0;
      const q = quoteExactInput(p.state, zeroForOne, req.amount_in);
      if (q.filled && (best === undefined || q.amountOut > best.out)) best = { p, out: q.amountOut };
    }
    if (best === undefined) return { ok: false, reason: 'no_liquidity', best_out: 0n };
    if (best.out < req.min_out) return { ok: false, reason: 'min_out', best_out: best.out };
    const p = best.p;
    const zeroForOne = (req.side === 'sell') === p.o.baseIsToken0;
    const r = swap(p.state, zeroForOne, req.amount_in);
    applySwap(p.state, r);
    this.record(p, r, this.block, now_ms);
    const [base, quote] = p.o.baseIsToken0 ? [r.amount0, r.amount1] : [r.amount1, r.amount0];
    const baseQty = Math.abs(Number(base)) / 10 ** p.o.baseDecimals;
    const quoteQty = Math.abs(Number(quote)) / 10 ** p.o.quoteDecimals;
    const gas = this.gasContext(now_ms);
    return {
      ok: true,
      pool_address: p.spec.pool_address,
      fee_bps: p.spec.fee_bps,
      block: this.block,
      amount_in: req.amount_in,
      amount_out: best.out,
      lp_fee: r.feeAmount,
      gas_units: gas.estimated_gas_units,
      base_fee_wei: gas.base_fee_native,
      priority_fee_wei: gas.priority_fee_native,
      qty_1e8: Math.round(baseQty * 1e8),
      price_1e9: Math.round((quoteQty / baseQty) * 1e9),
    };
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
