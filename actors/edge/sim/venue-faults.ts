/**
 * Faults a simulated venue injects into the client's child orders (legs), for reliability tests:
 * the order path's answer side misbehaving as real venues do, so reconciliation is exercised
 * end to end. Off unless an edge is given a policy (`LegFaults` message, test-only); pure and
 * deterministic for the policy's seed: the n-th leg an edge receives draws the n-th number of
 * one seeded stream per edge, so the same flow meets the same faults.
 *
 *   leg (Execute / Place) ─▶ draw(): none ─────────▶ executed, answered at once
 *                                    stall ────────▶ swallowed: never executed, never answered
 *                                    late ─────────▶ executed now, answered after `late_ms`
 *                                    duplicate ────▶ answered twice (the same frame again), and a
 *                                                    resting leg's fills reported twice on the stream
 *                                    disconnect ───▶ the session drops for `disconnect_ms` while the
 *                                                    leg is out: executed or lost (one draw), never
 *                                                    answered; the feed goes down with it
 *                                    garbage ──────▶ executed, answered with an impossible report
 *                                                    (`corrupt`); the venue's own record stays true
 *
 * What the venue did is always in the edge's child journal, so `Reconcile` answers the truth.
 */
import { Rng, seedFrom } from './rng.ts';

export const LEG_FAULT_KINDS = ['stall', 'late', 'duplicate', 'disconnect', 'garbage'] as const;
export type LegFaultKind = (typeof LEG_FAULT_KINDS)[number];

/** The impossible reports `garbage` answers with, one drawn per leg. */
export const GARBAGE_KINDS = ['overfill', 'negative_qty', 'unknown_child', 'bad_price'] as const;
export type GarbageKind = (typeof GARBAGE_KINDS)[number];

/** A fault policy for one edge. */
export interface LegFaultPolicy {
  seed: number;
  /** Probability per leg of each fault; they add up to at most 1, the rest of the legs are served normally. */
  rates: Partial<Record<LegFaultKind, number>>;
  /** `late`: how long the answer is held (default 2,500 ms, past the router's 2 s leg timeout). */
  late_ms?: number;
  /** `duplicate`: how long after the answer its copy is sent (default 20 ms). */
  duplicate_ms?: number;
  /** `disconnect`: how long the session and feed stay down (default 3,000 ms). */
  disconnect_ms?: number;
}

/** One leg's fault: what the edge does with it. */
export type LegFault =
  | { kind: 'none' }
  | { kind: 'stall' }
  | { kind: 'late'; delay_ms: number }
  | { kind: 'duplicate'; delay_ms: number }
  /** `reached`: the leg reached the venue (and executed) before the session dropped. */
  | { kind: 'disconnect'; reached: boolean; down_ms: number }
  | { kind: 'garbage'; garbage: GarbageKind };

const NONE: LegFault = { kind: 'none' };

/** The part of an execution report `corrupt` touches (an edge's ChildExecution or ChildPlacement). */
export interface ReportShape {
  child_id: string;
  fills: { price_1e9: number; qty_1e8: number; trade_id: string; ts_ns: number; fee_1e9: number; cum_fee_1e9: number }[];
}

export class VenueFaults {
  private readonly rng: Rng;
  /** Cumulative thresholds of the kinds, in LEG_FAULT_KINDS order. */
  private readonly thresholds: number[];
  /** Wall-clock ms until which the session to the venue is down (0: up). */
  private downUntilMs = 0;

  constructor(
    readonly policy: LegFaultPolicy,
    edgeId: string,
  ) {
    this.rng = new Rng(seedFrom(policy.seed, 'leg-faults', edgeId));
    let sum = 0;
    this.thresholds = LEG_FAULT_KINDS.map((kind) => {
      const rate = policy.rates[kind] ?? 0;
      if (!(rate >= 0 && rate <= 1)) throw new RangeError(`leg fault rate ${kind}=${rate} is not in [0, 1]`);
      sum += rate;
      return sum;
    });
    if (sum > 1 + 1e-9) throw new RangeError(`leg fault rates add up to ${sum} > 1`);
  }

  /** The next leg's fault. Draws the same numbers whatever it returns, so one leg's fault never shifts another's. */
  draw(): LegFault {
    const u = this.rng.uniform();
    const detail = this.rng.uniform();
    const i = this.thresholds.findIndex((t) => u < t);
    if (i < 0) return NONE;
    const kind = LEG_FAULT_KINDS[i]!;
    switch (kind) {
      case 'stall':
        return { kind };
      case 'late':
        return { kind, delay_ms: this.policy.late_ms ?? 2_500 };
      case 'duplicate':
        return { kind, delay_ms: this.policy.duplicate_ms ?? 20 };
      case 'disconnect':
        return { kind, reached: detail < 0.5, down_ms: this.policy.disconnect_ms ?? 3_000 };
      case 'garbage':
        return { kind, garbage: GARBAGE_KINDS[Math.floor(detail * GARBAGE_KINDS.length)]! };
    }
  }

  /** The session drops until `now_ms + down_ms` (an outage under way is extended, never shortened). */
  dropSession(now_ms: number, down_ms: number): void {
    this.downUntilMs = Math.max(this.downUntilMs, now_ms + down_ms);
  }

  /** True while the session is down: requests to the venue (cancel, reconcile, open orders) go unanswered. */
  sessionDown(now_ms: number): boolean {
    return now_ms < this.downUntilMs;
  }
}

/**
 * An impossible report in place of the true one `report` (which is not modified): a fill for
 * more than the leg's quantity, a negative quantity, another child's id, or a price that is not
 * a number. Fills are invented at `price_1e9` when the true report has none.
 */
export function corrupt<R extends ReportShape>(report: R, garbage: GarbageKind, leg_qty_1e8: number, price_1e9: number): R {
  const fills = report.fills.map((f) => ({ ...f }));
  const first = fills[0] ?? { price_1e9, qty_1e8: leg_qty_1e8, trade_id: `garbage-${report.child_id}`, ts_ns: 0, fee_1e9: 0, cum_fee_1e9: 0 };
  if (fills.length === 0) fills.push(first);
  switch (garbage) {
    case 'overfill':
      first.qty_1e8 += leg_qty_1e8;
      break;
    case 'negative_qty':
      first.qty_1e8 = -Math.abs(first.qty_1e8);
      break;
    case 'unknown_child':
      return { ...report, child_id: `${report.child_id}-unknown`, fills };
    case 'bad_price':
      first.price_1e9 = Number.NaN;
      break;
  }
  return { ...report, fills };
}
