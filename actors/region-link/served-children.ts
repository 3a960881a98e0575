import type { ChildExecution, ChildPlacement } from '../edge/messages.ts';
import type { LegReport, OrderLookup, VenueFill } from '../edge/live/venue.ts';

/**
 * The children this node ran on its edges for orders homed in another region (pure: the child
 * server does the I/O). The home node treats this node as a venue (`region-venue.ts`): it sends
 * each child once under its child id, looks it up when an answer was lost, and polls a resting
 * one for its maker fills. So this record answers, for every child id:
 *
 * - a second request for a child already received is never run again: the first one's report;
 * - a lookup of a child never received refuses it from then on, so a request that arrives late
 *   (after the home node took it as lost) is refused rather than executed;
 * - a resting child's report grows with its maker fills and ends when it is cancelled or filled.
 *
 * Kept for the last `capacity` children (the home node reconciles within seconds).
 */
export interface ServedChild {
  child_id: string;
  /** the relay that the edge tells maker fills to */
  owner: string;
  gtc: boolean;
  /** undefined while the edge has not answered */
  report: LegReport | undefined;
}

export type Admission = 'new' | 'known' | 'refused';

export class ServedChildren {
  private readonly children = new Map<string, ServedChild>();
  private readonly refusedIds = new Set<string>();

  constructor(
    /** this node's region: every fill reported from here is stamped with it */
    private readonly region: string,
    private readonly capacity = 50_000,
  ) {}

  /** A child request: run it (`new`), answer the first run's report (`known`), or refuse it. */
  admit(child_id: string, owner: string, gtc: boolean): Admission {
    if (this.refusedIds.has(child_id)) return 'refused';
    if (this.children.has(child_id)) return 'known';
    this.children.set(child_id, { child_id, owner, gtc, report: undefined });
    this.trim(this.children);
    return 'new';
  }

  get(child_id: string): ServedChild | undefined {
    return this.children.get(child_id);
  }

  /** The edge's answer to the child: its report, fills stamped with this region. */
  settle(child_id: string, answer: ChildExecution | ChildPlacement): LegReport {
    const report: LegReport = {
      ok: answer.ok,
      reason: answer.reason,
      // A crossing fill's side is the edge's word, else taker: it took liquidity on arrival.
      fills: answer.fills.map((f) => this.venueFill(f, f.is_maker ?? false)),
      resting_qty_1e8: 'resting_qty_1e8' in answer ? answer.resting_qty_1e8 : 0,
    };
    const child = this.children.get(child_id);
    if (child !== undefined) child.report = report;
    return report;
  }

  /** A resting child filled as maker: its report gains the fill, and rests what the edge says is left. */
  makerFill(child_id: string, fill: ChildExecution['fills'][number], left_qty_1e8: number): void {
    const report = this.children.get(child_id)?.report;
    if (report === undefined || report.fills.some((f) => f.trade_id === fill.trade_id)) return;
    report.fills.push(this.venueFill(fill, fill.is_maker ?? true));
    report.resting_qty_1e8 = left_qty_1e8;
  }

  /** A resting child's cancel: nothing rests from now on. */
  cancelled(child_id: string): void {
    const report = this.children.get(child_id)?.report;
    if (report !== undefined) report.resting_qty_1e8 = 0;
  }

  /**
   * A lookup: the report when the child ran here, `pending` while its edge has not answered,
   * `unknown` when this record never saw it (the server then asks the edge, which may know it
   * from before a restart of this node, and `refuse`s it when the edge does not either).
   */
  lookup(child_id: string): Extract<OrderLookup, { found: true }> | 'pending' | 'unknown' {
    if (this.refusedIds.has(child_id)) return 'unknown';
    const child = this.children.get(child_id);
    if (child === undefined) return 'unknown';
    return child.report === undefined ? 'pending' : { found: true, report: child.report };
  }

  refuse(child_id: string): void {
    this.refusedIds.add(child_id);
    this.trim(this.refusedIds);
  }

  private venueFill(f: ChildExecution['fills'][number], isMaker: boolean): VenueFill {
    const fill: VenueFill = { price_1e9: f.price_1e9, qty_1e8: f.qty_1e8, trade_id: f.trade_id, ts_ns: f.ts_ns, fee_1e9: f.fee_1e9, is_maker: isMaker, region: this.region };
    if (f.commission !== undefined) fill.commission = f.commission;
    return fill;
  }

  /** The oldest go first past the capacity (a Map and a Set iterate in insertion order). */
  private trim(kept: Map<string, unknown> | Set<string>): void {
    if (kept.size <= this.capacity) return;
    const oldest = kept.keys().next().value;
    if (oldest !== undefined) kept.delete(oldest);
  }
}
