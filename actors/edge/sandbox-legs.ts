import { Side } from '../../domain/market.ts';
import type { MatchingRules } from '../../domain/venues.ts';
import { DEPTH_LEVELS } from './depth-cache.ts';
import { placementOf, pricedFill } from './reports.ts';
import type { ChildExecution, ChildPlacement, MakerFill, SandboxProfile } from './messages.ts';
import { SandboxVenue, type SandboxBook, type SandboxFill, type SandboxMakerFill } from './sandbox/sandbox-venue.ts';
import type { SimEdgeSpec } from './sim/catalog.ts';

/** The book a host writes a sandbox leg's arrival view into: reused arrays of DEPTH_LEVELS a side. */
export interface MutableSandboxBook {
  bidsPx: Float64Array;
  bidsQty: Float64Array;
  bidCount: number;
  asksPx: Float64Array;
  asksQty: Float64Array;
  askCount: number;
  connected: boolean;
}

/** Sandbox venues one edge keeps at most (one per distinct profile); the oldest idle one goes first. */
const MAX_PROFILES = 64;

interface SandboxChild {
  child_id: string;
  order_id: number;
  owner: string;
  venue: SandboxVenue;
  cum_fee_1e9: number;
}

/** A sandbox leg's answer once it reached the venue; `lost`: the venue did it, the answer never comes back. */
export interface Arrived<R> {
  answer: R;
  lost: boolean;
}

/** What the edge actor lends the sandbox legs: its venue's book, a timer, and the way to tell a router. */
export interface SandboxHost {
  spec: Pick<SimEdgeSpec, 'venue' | 'edge_id' | 'taker_bps' | 'maker_bps'>;
  /** The venue's one-way order latency (ms), as its live legs see it. */
  arrivalMs: number;
  /** Writes the venue's book of `symbol` now (advanced to now first, as a live leg's would be) into `book`. */
  bookInto(symbol: string, book: MutableSandboxBook): void;
  /** The listing's rules; undefined = not listed. */
  rules(symbol: string): MatchingRules | undefined;
  nowNs(): number;
  schedule(ms: number, fn: () => void): void;
  tell(owner: string, fill: MakerFill): void;
}

/**
 * An edge's sandbox legs: a child order with a sandbox profile is executed by a `SandboxVenue`
 * (one per distinct profile, so each client's fault settings and seed hold) against the edge's
 * real book as it is when the order arrives, after the venue's latency and the profile's extra.
 * The book is read, never changed. Resting sandbox orders fill from the venue's trades, told to
 * their router as `MakerFill`, as live maker fills are.
 */
export class SandboxLegs {
  private readonly venues = new Map<string, SandboxVenue>();
  private readonly byOrder = new Map<number, SandboxChild>();
  private readonly byChild = new Map<string, SandboxChild>();
  /** The book at arrival, copied into reused arrays (DEPTH_LEVELS a side). */
  private readonly book: MutableSandboxBook = {
    bidsPx: new Float64Array(DEPTH_LEVELS),
    bidsQty: new Float64Array(DEPTH_LEVELS),
    bidCount: 0,
    asksPx: new Float64Array(DEPTH_LEVELS),
    asksQty: new Float64Array(DEPTH_LEVELS),
    askCount: 0,
    connected: true,
  };

  constructor(private readonly host: SandboxHost) {}

  /** True when `childId` is a sandbox child resting here (its cancel is the sandbox's). */
  isResting(childId: string): boolean {
    return this.byChild.has(childId);
  }

  /** An IOC leg, answered after its arrival latency; `lost` when the profile draws a lost answer. */
  execute(profile: SandboxProfile, child_id: string, symbol: string, side: 'buy' | 'sell', qty_1e8: number, limit: number | null): Promise<Arrived<ChildExecution>> {
    const venue = this.venueFor(profile);
    return this.atArrival(venue, () => {
      const report = venue.executeIoc(this.bookAt(symbol), symbol, sideOf(side), qty_1e8, limit ?? undefined, this.host.nowNs());
      return this.answer(child_id, report.ok, report.reason, report.fills);
    });
  }

  /** A resting leg: its crossing part now (after latency), the rest rests in the sandbox with a queue position. */
  place(profile: SandboxProfile, owner: string, child_id: string, symbol: string, side: 'buy' | 'sell', qty_1e8: number, limit: number): Promise<Arrived<ChildPlacement>> {
    const venue = this.venueFor(profile);
    return this.atArrival(venue, () => {
      const report = venue.placeLimit(this.bookAt(symbol), symbol, sideOf(side), qty_1e8, limit, this.host.nowNs());
      const execution = this.answer(child_id, report.ok, report.reason, report.fills);
      if (report.resting_qty_1e8 > 0) {
        const child: SandboxChild = { child_id, order_id: report.order_id, owner, venue, cum_fee_1e9: execution.fills.at(-1)?.cum_fee_1e9 ?? 0 };
        this.byOrder.set(report.order_id, child);
        this.byChild.set(child_id, child);
      }
      return placementOf(execution, report.resting_qty_1e8);
    });
  }

  /** Cancels a resting sandbox child; a cancel race's fill is told before the answer. */
  cancel(child_id: string): number {
    const child = this.byChild.get(child_id);
    if (child === undefined) return 0;
    const result = child.venue.cancel(child.order_id, this.host.nowNs());
    this.tellFills(result.fills);
    this.forget(child);
    return result.cancelled_qty_1e8;
  }

  /** A venue trade: resting sandbox orders at or through its price fill (after their queue). */
  onTrade(symbol: string, price_1e9: number, qty_1e8: number, taker_side: Side, ts_ns: number): void {
    if (this.byOrder.size === 0) return;
    for (const venue of this.venues.values()) {
      if (venue.restingOrders() > 0) this.tellFills(venue.onTrade(symbol, price_1e9, qty_1e8, taker_side, ts_ns));
    }
  }

  /** A venue level: what is displayed ahead of a resting sandbox order can only shrink its queue. */
  onLevel(symbol: string, side: Side, price_1e9: number, qty_1e8: number): void {
    if (this.byOrder.size === 0) return;
    for (const venue of this.venues.values()) if (venue.restingOrders() > 0) venue.onLevel(symbol, side, price_1e9, qty_1e8);
  }

  private tellFills(fills: readonly SandboxMakerFill[]): void {
    for (const f of fills) {
      const child = this.byOrder.get(f.order_id);
      if (child === undefined) continue;
      child.cum_fee_1e9 += f.fill.fee_1e9;
      const spec = this.host.spec;
      this.host.tell(child.owner, {
        t: 'MakerFill',
        child_id: child.child_id,
        venue: spec.venue,
        edge_id: spec.edge_id,
        fill: pricedFill(f.fill, f.fill.fee_1e9, child.cum_fee_1e9),
        left_qty_1e8: f.left_qty_1e8,
        maker_bps: spec.maker_bps,
      });
      if (f.left_qty_1e8 <= 0) this.forget(child);
    }
  }

  private forget(child: SandboxChild): void {
    this.byOrder.delete(child.order_id);
    this.byChild.delete(child.child_id);
  }

  /** Runs `act` when the order reaches the venue; whether its answer is lost is the profile's draw. */
  private atArrival<R>(venue: SandboxVenue, act: () => R): Promise<Arrived<R>> {
    const now = this.host.nowNs();
    const waitMs = Math.max(0, Math.round((venue.arrivalNs(now) - now) / 1_000_000));
    return new Promise((resolve) =>
      this.host.schedule(waitMs, () => {
        const answer = act();
        resolve({ answer, lost: venue.answerLost() });
      }),
    );
  }

  /** The edge's book now. */
  private bookAt(symbol: string): SandboxBook {
    this.host.bookInto(symbol, this.book);
    return this.book;
  }

  private answer(child_id: string, ok: boolean, reason: string | null, fills: readonly SandboxFill[]): ChildExecution {
    const spec = this.host.spec;
    let cum = 0;
    return {
      child_id,
      venue: spec.venue,
      edge_id: spec.edge_id,
      ok,
      reason,
      fills: fills.map((f) => {
        cum += f.fee_1e9;
        return pricedFill(f, f.fee_1e9, cum);
      }),
      taker_bps: spec.taker_bps,
      maker_bps: spec.maker_bps,
      ack_ns: this.host.nowNs(),
    };
  }

  private venueFor(profile: SandboxProfile): SandboxVenue {
    const key = `${profile.seed}|${profile.latency_ms}|${profile.reject_rate}|${profile.partial_fill_rate}|${profile.disconnect_rate}|${profile.cancel_race ? 1 : 0}`;
    let venue = this.venues.get(key);
    if (venue !== undefined) return venue;
    if (this.venues.size >= MAX_PROFILES) {
      for (const [k, v] of this.venues) {
        if (v.restingOrders() === 0) {
          this.venues.delete(k);
          break;
        }
      }
    }
    const spec = this.host.spec;
    venue = new SandboxVenue(
      {
        edge_id: spec.edge_id,
        taker_bps: spec.taker_bps,
        maker_bps: spec.maker_bps,
        venue_latency_ms: this.host.arrivalMs,
        rules: (symbol) => this.host.rules(symbol),
        trade_id_prefix: `sbx-${Math.floor(this.host.nowNs() / 1_000_000)}-`,
      },
      profile,
    );
    this.venues.set(key, venue);
    return venue;
  }
}

function sideOf(side: 'buy' | 'sell'): Side {
  return side === 'buy' ? Side.BID : Side.ASK;
}
