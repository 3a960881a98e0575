import type { Level } from '../market.ts';

/** One venue's book of a leg that is the same outcome as the others (an equivalent's same or complement leg). */
export interface OutcomeSide {
  venue: string;
  bids: readonly Level[];
  asks: readonly Level[];
}

/** An outcome's book across venues: levels at one price summed, best first, to `depth` each side. */
export interface ConsolidatedOutcome {
  bids: Level[];
  asks: Level[];
}

/**
 * Merges the books of one outcome on several venues. Prices are probabilities of the same
 * event, so a level at 0.42 on one venue and 0.42 on the other is one level of their summed
 * size; the merged book can be crossed (a bid on one venue at or above an ask on the other),
 * which is a cross-venue opportunity before fees, and is left as it is.
 */
export function consolidateOutcome(sides: readonly OutcomeSide[], depth: number): ConsolidatedOutcome {
  return { bids: merge(sides, 'bids', depth), asks: merge(sides, 'asks', depth) };
}

function merge(sides: readonly OutcomeSide[], which: 'bids' | 'asks', depth: number): Level[] {
  const byPrice = new Map<number, number>();
  for (const side of sides) for (const l of side[which]) byPrice.set(l.price_1e9, (byPrice.get(l.price_1e9) ?? 0) + l.qty_1e8);
  const levels = [...byPrice].map(([price_1e9, qty_1e8]) => ({ price_1e9, qty_1e8 }));
  levels.sort(which === 'bids' ? (a, b) => b.price_1e9 - a.price_1e9 : (a, b) => a.price_1e9 - b.price_1e9);
  return levels.slice(0, depth);
}
