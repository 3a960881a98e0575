// What a venue reports about a leg is checked before anything is booked: a report that cannot be
// true of the leg (another child's id, a fill for more than was asked, a quantity or price that is
// not a positive integer, a price through the leg's limit, one trade twice) is refused, and the
// leg is treated as in doubt: reconciled with the venue, never booked as it came.
import type { ChildExecution, ChildPlacement, MakerFill } from '../actors/edge/messages.ts';
import type { ChildOrder } from '../domain/orders.ts';

type Fill = ChildExecution['fills'][number];

/** Why one fill of a leg cannot be true, or null. `side` is the order's. */
function fillProblem(f: Fill, side: 'buy' | 'sell', limit_1e9: number | null): string | null {
  if (!Number.isSafeInteger(f.qty_1e8) || f.qty_1e8 <= 0) return `fill ${f.trade_id}: quantity ${f.qty_1e8} is not a positive integer`;
  if (!Number.isSafeInteger(f.price_1e9) || f.price_1e9 <= 0) return `fill ${f.trade_id}: price ${f.price_1e9} is not a positive integer`;
  if (!Number.isSafeInteger(f.fee_1e9) || !Number.isSafeInteger(f.cum_fee_1e9)) return `fill ${f.trade_id}: fee ${f.fee_1e9} / ${f.cum_fee_1e9} is not an integer`;
  if (limit_1e9 !== null && (side === 'buy' ? f.price_1e9 > limit_1e9 : f.price_1e9 < limit_1e9)) {
    return `fill ${f.trade_id}: price ${f.price_1e9} is through the leg's limit ${limit_1e9}`;
  }
  return null;
}

/**
 * Why a leg's answer (to `Execute` or `Place`, directly or through `Reconcile`) cannot be true of
 * `child`, or null when it can be booked.
 */
export function legReportProblem(child: ChildOrder, side: 'buy' | 'sell', report: ChildExecution | ChildPlacement): string | null {
  if (report.child_id !== child.child_id) return `report for child ${report.child_id}, not ${child.child_id}`;
  if (report.edge_id !== child.edge_id || report.venue !== child.venue) return `report from ${report.venue}/${report.edge_id}, not ${child.venue}/${child.edge_id}`;
  let qty = 0;
  const trades = new Set<string>();
  for (const f of report.fills) {
    const problem = fillProblem(f, side, child.limit_price_1e9);
    if (problem !== null) return problem;
    if (trades.has(f.trade_id)) return `trade ${f.trade_id} reported twice`;
    trades.add(f.trade_id);
    qty += f.qty_1e8;
  }
  const resting = 'resting_qty_1e8' in report ? report.resting_qty_1e8 : 0;
  if (!Number.isSafeInteger(resting) || resting < 0) return `resting quantity ${resting} is not a non-negative integer`;
  const open = child.qty_1e8 - child.filled_qty_1e8;
  if (qty + resting > open) return `filled ${qty} and resting ${resting} of a leg with ${open} open`;
  return null;
}

/** Why a resting leg's maker fill cannot be true of `child`, or null. */
export function makerFillProblem(child: ChildOrder, side: 'buy' | 'sell', m: MakerFill): string | null {
  if (m.edge_id !== child.edge_id || m.venue !== child.venue) return `maker fill from ${m.venue}/${m.edge_id}, not ${child.venue}/${child.edge_id}`;
  const problem = fillProblem(m.fill, side, child.limit_price_1e9);
  if (problem !== null) return problem;
  const open = child.qty_1e8 - child.filled_qty_1e8;
  if (m.fill.qty_1e8 > open) return `maker fill of ${m.fill.qty_1e8} on a leg with ${open} open`;
  if (!Number.isSafeInteger(m.left_qty_1e8) || m.left_qty_1e8 < 0 || m.left_qty_1e8 > open - m.fill.qty_1e8) {
    return `maker fill leaves ${m.left_qty_1e8} of a leg with ${open - m.fill.qty_1e8} open after it`;
  }
  return null;
}
