/**
 * The live venue's pre-flight checks, restated for the sandbox: the same rules in the same order
 * with the same reason strings as `actors/edge/sim/order-book.ts` (`limit`: tick, lot, min_qty,
 * min_notional; `market`: lot, min_qty, no min_notional because a market order has no price
 * before it trades) and `sim-venue.ts` (`not_listed`, `venue_disconnected`). Restated rather
 * than imported because the sandbox may not import the matching engine; the differential test
 * in `test/unit/sandbox-venue.test.ts` holds the two to the same answers.
 */
import type { MatchingRules } from '../../../domain/venues.ts';
import { QTY_SCALE } from '../../../domain/units.ts';

/**
 * Why the sandbox refused an order (ok: false), or `no_liquidity` (ok: true, no fills: a market
 * order met an empty opposite side, which the live venue answers the same way).
 */
export type SandboxReason =
  | 'not_listed'
  | 'venue_disconnected'
  | 'tick'
  | 'lot'
  | 'min_qty'
  | 'min_notional'
  /** `reject_rate` fault: the venue refused an order the rules accept. */
  | 'venue_rejected'
  | 'no_liquidity';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const QTY_SCALE_BIG = BigInt(QTY_SCALE);

/** Rules check of a limit order (IOC or resting), in the live engine's order; null when accepted. */
export function limitReject(rules: MatchingRules, price_1e9: number, qty_1e8: number): SandboxReason | null {
  // Written as the engine writes them: NaN and fractions fall into the first failing check.
  if (!(price_1e9 > 0 && price_1e9 <= MAX_SAFE) || price_1e9 % rules.tick_1e9 !== 0) return 'tick';
  const q = marketReject(rules, qty_1e8);
  if (q !== null) return q;
  if (rules.min_notional_1e9 > 0 && !notionalAtLeast(price_1e9, qty_1e8, rules.min_notional_1e9)) return 'min_notional';
  return null;
}

/** Rules check of a market order: lot, then min_qty; null when accepted. */
export function marketReject(rules: MatchingRules, qty_1e8: number): SandboxReason | null {
  if (!(qty_1e8 <= MAX_SAFE) || qty_1e8 % rules.lot_1e8 !== 0) return 'lot';
  if (!(qty_1e8 > 0) || qty_1e8 < rules.min_qty_1e8) return 'min_qty';
  return null;
}

/** floor(price x qty / QTY_SCALE) >= min, exactly: the product passes 2^53 for real prices. */
function notionalAtLeast(price_1e9: number, qty_1e8: number, min_1e9: number): boolean {
  return BigInt(price_1e9) * BigInt(qty_1e8) >= BigInt(min_1e9) * QTY_SCALE_BIG;
}
