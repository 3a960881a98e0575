/**
 * Fitting a remainder into venues' lots (pure, no I/O): the step that makes quantities exact
 * when greedy allocation, each venue rounding down to its own lot, leaves a remainder smaller
 * than the lot of every venue with room (lot dust).
 *
 *   for each venue c with room, finest lot first:
 *     add t on c: the remainder rounded up to c's lot (at least c's minimum when c holds
 *     nothing yet), or a lot more, up to one coarsest lot of tries
 *     give back t - remainder from the other venues, coarsest lot first, each giving back all
 *     it holds or down to its minimum; it must come out exact
 *   the first (c, t) that works is the fix
 *
 * With nested lots (each lot divides the larger ones, as the venues' powers of ten do) giving
 * back coarsest first finds a way whenever one exists for that (c, t) (coin change with
 * divisible denominations). Used by the SOR (sor-lots.ts) and by the split of a resting
 * remainder over venues (the execution's legs).
 */
export interface LotHolder {
  lot: number;
  /** what it holds now, whole lots */
  alloc: number;
  /** the least it may keep while it holds anything, whole lots */
  keep: number;
  /** the least it takes when it holds nothing yet, whole lots */
  least: number;
}

export interface LotFix<S> {
  on: S;
  add: number;
  giveBack: Map<S, number>;
}

/**
 * How to place `rest` exactly by adding to one holder and giving back from others, or undefined.
 * `holders` is ordered finest lot first (ties in a fixed order, so the fix is deterministic);
 * `room(s, t)` says whether s can take t more (depth, balance, minimum notional: the caller's).
 */
export function fitRemainder<S extends LotHolder>(holders: readonly S[], rest: number, room: (s: S, t: number) => boolean): LotFix<S> | undefined {
  if (rest <= 0 || holders.length === 0) return undefined;
  const coarsest = holders[holders.length - 1]!.lot;
  for (const c of holders) {
    const first = Math.max(Math.ceil(rest / c.lot) * c.lot, c.alloc === 0 ? c.least : 0);
    for (let t = first; t <= first + coarsest; t += c.lot) {
      // Room only shrinks as t grows: the first t that does not fit ends the tries on c.
      if (!room(c, t)) break;
      const giveBack = giveBackPlan(holders, c, t - rest);
      if (giveBack !== undefined) return { on: c, add: t, giveBack };
    }
  }
  return undefined;
}

/** Exactly `d` given back by the holders other than c, coarsest lot first; undefined when it cannot be. */
function giveBackPlan<S extends LotHolder>(holders: readonly S[], c: S, d: number): Map<S, number> | undefined {
  const out = new Map<S, number>();
  for (let i = holders.length - 1; i >= 0 && d > 0; i--) {
    const f = holders[i]!;
    if (f === c || f.alloc === 0 || f.lot > d) continue;
    // All of it (it leaves) or down to what it must keep.
    const want = Math.floor(d / f.lot) * f.lot;
    const x = want >= f.alloc ? f.alloc : Math.min(want, Math.floor((f.alloc - f.keep) / f.lot) * f.lot);
    if (x <= 0) continue;
    out.set(f, x);
    d -= x;
  }
  return d === 0 ? out : undefined;
}
