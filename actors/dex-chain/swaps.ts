/**
 * What a DEX order asks of one pool, in the engine's integer units (pure, exact, no float on
 * amounts): the swap of an exact base quantity (a buy is an exact-output swap of the base, a
 * sell an exact-input one, so a fill is exactly the quantity the router planned), and the
 * pool's swap curve cut in slices, the levels the SOR sweeps.
 */
import { swap, type PoolState, type SwapResult } from '../../domain/dex/pool.ts';
import type { PoolOrientation } from './pools.ts';

const E8 = 100_000_000n;
const E9 = 1_000_000_000n;

/** Base units per qty_1e8 step: 1 for tokens of 8 or more decimals, else the lot that keeps amounts whole. */
export function lot1e8(o: PoolOrientation): number {
  return o.baseDecimals >= 8 ? 1 : 10 ** (8 - o.baseDecimals);
}

function pow10(decimals: number): bigint {
  return 10n ** BigInt(decimals);
}

/** A base quantity (qty_1e8) in the base token's smallest units (floor below 8 decimals). */
export function baseUnitsOf(qty_1e8: number, o: PoolOrientation): bigint {
  return (BigInt(qty_1e8) * pow10(o.baseDecimals)) / E8;
}

export interface BaseSwap {
  result: SwapResult;
  /** The base that moved, qty_1e8 (exact for 8+ decimals). */
  qty_1e8: bigint;
  /** The quote that moved, in the quote's _1e8 units: rounded up on a buy (paid), down on a sell (received). */
  quote_1e8: bigint;
  /** The whole base quantity moved (the pool had the liquidity). */
  complete: boolean;
}

/** buy: exact output of `baseUnits` of the base; sell: exact input. Pure: the pool is unchanged. */
export function swapBase(state: PoolState, o: PoolOrientation, side: 'buy' | 'sell', baseUnits: bigint): BaseSwap {
  const zeroForOne = (side === 'sell') === o.baseIsToken0;
  const result = swap(state, zeroForOne, side === 'sell' ? baseUnits : -baseUnits);
  const [b, q] = o.baseIsToken0 ? [result.amount0, result.amount1] : [result.amount1, result.amount0];
  const base = b < 0n ? -b : b;
  const quote = q < 0n ? -q : q;
  const scale = pow10(o.quoteDecimals);
  const quote_1e8 = side === 'buy' ? (quote * E8 + scale - 1n) / scale : (quote * E8) / scale;
  return { result, qty_1e8: (base * E8) / pow10(o.baseDecimals), quote_1e8, complete: base === baseUnits };
}

/** Average price of a swap, quote per base x 1e9: rounded up on a buy, down on a sell (against the client). */
export function avgPrice1e9(side: 'buy' | 'sell', quote_1e8: bigint, qty_1e8: bigint): bigint {
  return side === 'buy' ? (quote_1e8 * E9 + qty_1e8 - 1n) / qty_1e8 : (quote_1e8 * E9) / qty_1e8;
}

/** The LP fee of a swap in USD 1e9: taken from the input (the quote on a buy, the base on a sell at the swap's price). Quotes are dollar tokens. */
export function lpFeeUsd1e9(side: 'buy' | 'sell', feeUnits: bigint, o: PoolOrientation, price_1e9: bigint): bigint {
  return side === 'buy' ? (feeUnits * E9) / pow10(o.quoteDecimals) : (feeUnits * price_1e9) / pow10(o.baseDecimals);
}

/** Slices of the swap curve: the first about $250 of the base, each next one 45% larger in total. */
const CURVE_SLICES = 32;
const FIRST_SLICE_USD = 250;
const SLICE_GROWTH = 1.45;

/**
 * The pool's curve on one side as book levels, best first: slice k is the base between two
 * cumulative swap sizes and its price the exact marginal cost of that slice (the cumulative
 * quote's difference over the base's), so taking levels 0..k costs what one swap of their
 * total does. Sizes are a geometric grid in dollars of the base (`baseUsd`: a float, it only
 * places the cuts); prices never improve along the side (a rounding step is clamped). Stops
 * where the pool runs out of liquidity.
 */
export function curveLevels(state: PoolState, o: PoolOrientation, side: 'buy' | 'sell', baseUsd: number): { px: number[]; qty: number[] } {
  const px: number[] = [];
  const qty: number[] = [];
  const lot = lot1e8(o);
  let prevQty = 0n;
  let prevQuote = 0n;
  let usd = FIRST_SLICE_USD;
  for (let k = 0; k < CURVE_SLICES; k++, usd *= SLICE_GROWTH) {
    const q1e8 = Math.floor((usd / baseUsd) * 1e8 / lot) * lot;
    const units = baseUnitsOf(q1e8, o);
    if (units <= 0n) continue;
    let s: BaseSwap;
    try {
      s = swapBase(state, o, side, units);
    } catch {
      break;
    }
    if (!s.complete || s.qty_1e8 <= prevQty) break;
    const dq = s.qty_1e8 - prevQty;
    const dQuote = s.quote_1e8 - prevQuote;
    let price = Number(avgPrice1e9(side, dQuote, dq));
    const last = px[px.length - 1];
    if (last !== undefined && (side === 'buy' ? price < last : price > last)) price = last;
    if (price <= 0) break;
    px.push(price);
    qty.push(Number(dq));
    prevQty = s.qty_1e8;
    prevQuote = s.quote_1e8;
  }
  return { px, qty };
}
