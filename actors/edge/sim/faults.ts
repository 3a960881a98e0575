/**
 * The fault timeline of one simulated edge: three independent alternating renewal processes
 * (feed drop, frozen book, latency spike), each from its own seeded stream. The gap before an
 * episode is exponential with the catalog rate, measured from the end of the previous episode;
 * its duration is uniform in the catalog range. The timeline is generated forward only, one
 * transition at a time, so the state at any instant is fixed by (rates, seed, start) alone.
 */
import type { FaultRates } from './catalog.ts';
import { Rng, seedFrom } from './rng.ts';

export const FaultKind = { DISCONNECT: 0, STALE: 1, LAG: 2 } as const;
export type FaultKind = (typeof FaultKind)[keyof typeof FaultKind];

const KINDS = 3;
const NS_PER_MS = 1e6;
const NS_PER_HOUR = 3600e9;

export class FaultSchedule {
  /** Feed up (no DISCONNECT episode under way). */
  connected = true;
  /** Book frozen (a STALE episode under way). */
  stale = false;
  /** Extra quote lag of the LAG episode under way (ns), else 0. */
  lag_ns = 0;
  /** Episodes begun so far per kind. */
  readonly begun = new Float64Array(KINDS);

  private readonly rngs: Rng[];
  private readonly ratePerNs: Float64Array;
  private readonly durMs: (readonly [number, number])[];
  private readonly start = new Float64Array(KINDS);
  private readonly end = new Float64Array(KINDS);
  private readonly active = new Uint8Array(KINDS);
  /** Extra lag of the next (or current) LAG episode, drawn when it is scheduled. */
  private nextLagNs = 0;
  private readonly lagMs: readonly [number, number];

  constructor(rates: FaultRates, seed: number, start_ns: number) {
    this.rngs = [0, 1, 2].map((k) => new Rng(seedFrom(seed, 'faults', k)));
    this.ratePerNs = Float64Array.of(
      rates.disconnect_per_h / NS_PER_HOUR,
      rates.stale_per_h / NS_PER_HOUR,
      rates.lag_per_h / NS_PER_HOUR,
    );
    this.durMs = [rates.disconnect_ms, rates.stale_ms, rates.lag_ms];
    this.lagMs = rates.lag_extra_ms;
    for (let k = 0; k < KINDS; k++) this.schedule(k, start_ns);
  }

  private schedule(k: number, after_ns: number): void {
    const rate = this.ratePerNs[k]!;
    const rng = this.rngs[k]!;
    if (rate <= 0) {
      this.start[k] = Infinity;
      this.end[k] = Infinity;
      return;
    }
    const [lo, hi] = this.durMs[k]!;
    // Integer ns so every transition time is an exact integer.
    this.start[k] = Math.floor(after_ns + rng.exponential(rate)) + 1;
    this.end[k] = this.start[k]! + Math.round(rng.range(lo, hi) * NS_PER_MS);
    if (k === FaultKind.LAG) this.nextLagNs = Math.round(rng.range(this.lagMs[0], this.lagMs[1]) * NS_PER_MS);
  }

  /** Time of the next transition (Infinity when none will come). */
  nextChange(): number {
    let t = Infinity;
    for (let k = 0; k < KINDS; k++) {
      const tk = this.active[k] === 1 ? this.end[k]! : this.start[k]!;
      if (tk < t) t = tk;
    }
    return t;
  }

  /**
   * Applies the earliest pending transition (lowest kind first on a tie) and returns its kind;
   * `connected`, `stale` and `lag_ns` then describe the state from that instant on.
   */
  step(): FaultKind {
    let best = 0;
    let bestT = Infinity;
    for (let k = 0; k < KINDS; k++) {
      const tk = this.active[k] === 1 ? this.end[k]! : this.start[k]!;
      if (tk < bestT) {
        bestT = tk;
        best = k;
      }
    }
    if (this.active[best] === 1) {
      this.active[best] = 0;
      this.schedule(best, this.end[best]!);
      this.set(best, false);
    } else {
      this.active[best] = 1;
      this.begun[best] = this.begun[best]! + 1;
      this.set(best, true);
    }
    return best as FaultKind;
  }

  /**
   * An episode of `kind` from `from_ns` to `to_ns` (integer ns), injected on top of the timeline
   * (a forced feed drop: `SimVenue.dropFeed`). An episode under way is extended to `to_ns`;
   * otherwise the forced one replaces the next scheduled episode of that kind, and the gap to the
   * one after is drawn when it ends, as after any episode.
   */
  force(kind: FaultKind, from_ns: number, to_ns: number): void {
    if (this.active[kind] === 1) {
      this.end[kind] = Math.max(this.end[kind]!, to_ns);
      return;
    }
    this.start[kind] = from_ns;
    this.end[kind] = Math.max(from_ns, to_ns);
  }

  /** Applies every transition up to and including t. */
  advanceTo(t_ns: number): void {
    while (this.nextChange() <= t_ns) this.step();
  }

  private set(k: number, on: boolean): void {
    if (k === FaultKind.DISCONNECT) this.connected = !on;
    else if (k === FaultKind.STALE) this.stale = on;
    else this.lag_ns = on ? this.nextLagNs : 0;
  }
}
