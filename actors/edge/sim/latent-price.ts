/**
 * The latent ("true") price of every underlying, shared by all simulated venues, and the slow
 * processes around it: the USDT/USDC basis against USD and the perpetual premium.
 *
 * Everything here is a pure function of (seed, time): `priceAt(u, t)` returns the same value
 * whoever asks, whenever, in whatever order, in any thread that built the model with the same
 * seed. That is what lets every edge actor build its own model from `SIM_SEED` and still agree
 * with the others, with no shared origin and no coordination.
 *
 * The log price is  log(ref) + W(t) + J(t):
 *
 *   W  a Brownian path built top-down as a Brownian bridge. Anchors every 2^46 ns (~19.5 h) are
 *      independent normals (variance sigma^2 * T / 2, so consecutive anchors differ like a
 *      random walk over T); inside an anchor interval the midpoint of every dyadic sub-interval
 *      is (left + right) / 2 + sigma * sqrt(len) / 2 * Z(node), down to leaves of 2^26 ns
 *      (~67 ms), linear inside a leaf. Increments over any span below T have exactly the
 *      variance sigma^2 * span of a random walk; over days the path stays near `ref`.
 *   J  compound Poisson jumps: cells of 2^39 ns (~9 min) each hold at most one jump with
 *      probability rate x cell, at a hashed instant, of normal size; each decays with a 4 h
 *      time constant so prices stay plausible over weeks (truncated after 6 time constants).
 *
 * A random node value is hashNormal(seed, tag, coordinates), so the cost of a query is the
 * levels that changed since the previous query of the same underlying (a cached descent path):
 * one or two levels when queries move forward in time, at most 20 anywhere.
 */
import { PRICE_SCALE } from '../../../domain/units.ts';
import { QUOTES, UNDERLYINGS, type UnderlyingSpec } from './catalog.ts';
import { hashNormal, hashUniform, hiWord, loWord } from './rng.ts';

const LEAF_NS = 2 ** 26;
const TOP_NS = 2 ** 46;
const DEPTH = 20; // TOP_NS / LEAF_NS = 2^20 leaves per anchor interval
const JUMP_CELL_NS = 2 ** 39;
const JUMP_TAU_NS = 4 * 3600e9;
const JUMP_WINDOW_CELLS = Math.ceil((6 * JUMP_TAU_NS) / JUMP_CELL_NS);
const NS_PER_YEAR = 365.25 * 86400e9;
const NS_PER_HOUR = 3600e9;

// Hash stream tags: underlying u uses tags u * 16 + k, quotes 4096 + q * 16 + k.
const TAG_ANCHOR = 1;
const TAG_BRIDGE = 2;
const TAG_JUMP_HIT = 3;
const TAG_JUMP_AT = 4;
const TAG_JUMP_SIZE = 5;
const TAG_PREMIUM = 6;
const TAG_QUOTE_BASE = 4096;

/**
 * Value noise: a standard normal at every multiple of 2^shift ns, smoothstep-interpolated in
 * between. Deterministic in (seed, key, t); one octave of the slow processes.
 */
export function smoothNoise(seed: number, key: number, t_ns: number, shift: number): number {
  const period = 2 ** shift;
  const c = Math.floor(t_ns / period);
  const f = (t_ns - c * period) / period;
  const a = hashNormal(seed, key, loWord(c), hiWord(c));
  const b = hashNormal(seed, key, loWord(c + 1), hiWord(c + 1));
  return a + (b - a) * (f * f * (3 - 2 * f));
}

/** Sum of octaves (shift, amplitude): a stationary wander with its energy at those periods. */
function octaves(seed: number, key: number, t_ns: number, shifts: readonly number[], amps: readonly number[]): number {
  let v = 0;
  for (let i = 0; i < shifts.length; i++) v += amps[i]! * smoothNoise(seed, key * 64 + shifts[i]!, t_ns, shifts[i]!);
  return v;
}

const PREMIUM_SHIFTS = [40, 43, 46] as const; // ~18 min, ~2.4 h, ~19.5 h
const PREMIUM_AMPS_BPS = [1.5, 2.5, 2] as const;
const PREMIUM_MEAN_BPS = 2;
const QUOTE_SHIFTS = [40, 44] as const; // ~18 min, ~4.9 h
const QUOTE_AMPS = [0.6, 0.8] as const;

export class LatentPriceModel {
  readonly seed: number;
  private readonly specs: readonly UnderlyingSpec[];
  private readonly index = new Map<string, number>();
  private readonly logRef: Float64Array;
  private readonly sigmaNs: Float64Array; // diffusion per sqrt(ns), log units
  private readonly anchorSd: Float64Array;
  private readonly jumpP: Float64Array; // probability of a jump in one cell
  private readonly jumpSd: Float64Array; // log units
  private readonly premiumScale: Float64Array;
  /** Bridge node standard deviations per (underlying, depth): sigma * sqrt(len_k) / 2. */
  private readonly nodeSd: Float64Array;
  // Cached descent path per underlying: left/right values of the interval at every depth.
  private readonly pathL: Float64Array;
  private readonly pathR: Float64Array;
  private readonly pathTop: Float64Array;
  private readonly pathLeaf: Int32Array;
  // Cached jump state per underlying: the cell, the decayed sum of earlier jumps at its start,
  // and the cell's own jump (time, size; size 0 = none).
  private readonly jumpCell: Float64Array;
  private readonly jumpCarry: Float64Array;
  private readonly jumpAt: Float64Array;
  private readonly jumpSize: Float64Array;

  constructor(seed: number, underlyings: readonly UnderlyingSpec[] = UNDERLYINGS) {
    this.seed = seed >>> 0;
    this.specs = underlyings;
    const n = underlyings.length;
    this.logRef = new Float64Array(n);
    this.sigmaNs = new Float64Array(n);
    this.anchorSd = new Float64Array(n);
    this.jumpP = new Float64Array(n);
    this.jumpSd = new Float64Array(n);
    this.premiumScale = new Float64Array(n);
    this.nodeSd = new Float64Array(n * DEPTH);
    this.pathL = new Float64Array(n * (DEPTH + 1));
    this.pathR = new Float64Array(n * (DEPTH + 1));
    this.pathTop = new Float64Array(n).fill(-1);
    this.pathLeaf = new Int32Array(n);
    this.jumpCell = new Float64Array(n).fill(-1);
    this.jumpCarry = new Float64Array(n);
    this.jumpAt = new Float64Array(n);
    this.jumpSize = new Float64Array(n);
    underlyings.forEach((u, i) => {
      this.index.set(u.asset, i);
      this.logRef[i] = Math.log(u.ref_usd);
      const sigma = u.vol_annual / Math.sqrt(NS_PER_YEAR);
      this.sigmaNs[i] = sigma;
      this.anchorSd[i] = sigma * Math.sqrt(TOP_NS / 2);
      for (let k = 0; k < DEPTH; k++) this.nodeSd[i * DEPTH + k] = (sigma * Math.sqrt(TOP_NS / 2 ** k)) / 2;
      this.jumpP[i] = Math.min(1, (u.jump_per_h * JUMP_CELL_NS) / NS_PER_HOUR);
      this.jumpSd[i] = u.jump_bps / 1e4;
      this.premiumScale[i] = u.vol_annual / 0.5;
    });
  }

  /** Assets in index order. */
  underlyings(): readonly string[] {
    return this.specs.map((u) => u.asset);
  }

  /** Index of an asset for the fast per-index methods; -1 when unknown. */
  indexOf(asset: string): number {
    return this.index.get(asset) ?? -1;
  }

  /** Annualised volatility of an asset's diffusion; 0 for an unknown asset. */
  volOf(asset: string): number {
    const u = this.index.get(asset);
    return u === undefined ? 0 : this.specs[u]!.vol_annual;
  }

  /** USD price_1e9 (integer) of an underlying at t; 0 for an unknown underlying. */
  priceAt(underlying: string, t_ns: number): number {
    const u = this.index.get(underlying);
    return u === undefined ? 0 : Math.round(this.usdAt(u, t_ns) * PRICE_SCALE);
  }

  /** Price of `BASE-QUOTE` in quote units, price_1e9 (integer); 0 when unknown. */
  symbolPriceAt(symbol: string, t_ns: number): number {
    const dash = symbol.indexOf('-');
    const u = this.index.get(symbol.slice(0, dash));
    const q = quoteIndex(symbol.slice(dash + 1));
    if (dash < 0 || u === undefined || q < 0) return 0;
    return Math.round((this.usdAt(u, t_ns) / this.quoteUsdAt(q, t_ns)) * PRICE_SCALE);
  }

  /** Latent USD price (float) of underlying index u at t. */
  usdAt(u: number, t_ns: number): number {
    return Math.exp(this.logRef[u]! + this.diffusion(u, t_ns) + this.jumps(u, t_ns));
  }

  /** USD value of one unit of quote currency index q (see `quoteIndex`): USD = 1 exactly. */
  quoteUsdAt(q: number, t_ns: number): number {
    if (q <= 0) return 1;
    const spec = QUOTES[q]!;
    const wander = octaves(this.seed, TAG_QUOTE_BASE + q * 16, t_ns, QUOTE_SHIFTS, QUOTE_AMPS);
    return 1 + (spec.mean_bps + spec.wander_bps * wander) / 1e4;
  }

  /**
   * The perpetual premium over spot shared by every perp venue of underlying u (a fraction):
   * a mean contango plus a wander over minutes to a day, larger for more volatile assets.
   * Venues add their own small offset on top (sim-venue.ts).
   */
  perpPremiumAt(u: number, t_ns: number): number {
    const wander = octaves(this.seed, u * 16 + TAG_PREMIUM, t_ns, PREMIUM_SHIFTS, PREMIUM_AMPS_BPS);
    return ((PREMIUM_MEAN_BPS + wander) * this.premiumScale[u]!) / 1e4;
  }

  private anchor(u: number, n: number): number {
    return this.anchorSd[u]! * hashNormal(this.seed, u * 16 + TAG_ANCHOR, loWord(n), hiWord(n));
  }

  /** W(t): the bridge descent, reusing the cached path down to the first depth that differs. */
  private diffusion(u: number, t_ns: number): number {
    const n = Math.floor(t_ns / TOP_NS);
    const rel = t_ns - n * TOP_NS;
    const leaf = Math.floor(rel / LEAF_NS);
    const frac = (rel - leaf * LEAF_NS) / LEAF_NS;
    const base = u * (DEPTH + 1);
    const L = this.pathL;
    const R = this.pathR;
    let from: number;
    if (this.pathTop[u] !== n) {
      L[base] = this.anchor(u, n);
      R[base] = this.anchor(u, n + 1);
      this.pathTop[u] = n;
      from = 0;
    } else {
      const x = leaf ^ this.pathLeaf[u]!;
      // Depth d is fixed by leaf bits 19..20-d: depths up to 19 - h are shared (h = top diff bit).
      from = x === 0 ? DEPTH : 19 - (31 - Math.clz32(x));
    }
    if (from < DEPTH) {
      const sdBase = u * DEPTH;
      const tag = u * 16 + TAG_BRIDGE;
      const seed = this.seed;
      const nLo = loWord(n);
      for (let k = from; k < DEPTH; k++) {
        const j = leaf >>> (DEPTH - k); // interval index at depth k
        const l = L[base + k]!;
        const r = R[base + k]!;
        const mid = (l + r) / 2 + this.nodeSd[sdBase + k]! * hashNormal(seed, tag, nLo, (k << 20) | j);
        if (((leaf >>> (DEPTH - 1 - k)) & 1) === 0) {
          L[base + k + 1] = l;
          R[base + k + 1] = mid;
        } else {
          L[base + k + 1] = mid;
          R[base + k + 1] = r;
        }
      }
      this.pathLeaf[u] = leaf;
    }
    const l = L[base + DEPTH]!;
    return l + (R[base + DEPTH]! - l) * frac;
  }

  /** Jump of cell c of underlying u: fills `jumpAtOut`/returns size (0 = no jump). */
  private cellJump(u: number, c: number): number {
    const lo = loWord(c);
    const hi = hiWord(c);
    if (hashUniform(this.seed, u * 16 + TAG_JUMP_HIT, lo, hi) >= this.jumpP[u]!) return 0;
    this.scratchAt = c * JUMP_CELL_NS + hashUniform(this.seed, u * 16 + TAG_JUMP_AT, lo, hi) * JUMP_CELL_NS;
    return this.jumpSd[u]! * hashNormal(this.seed, u * 16 + TAG_JUMP_SIZE, lo, hi);
  }
  private scratchAt = 0;

  /** J(t): decayed sum of the jumps of the last JUMP_WINDOW_CELLS cells, carry cached per cell. */
  private jumps(u: number, t_ns: number): number {
    const c = Math.floor(t_ns / JUMP_CELL_NS);
    const start = c * JUMP_CELL_NS;
    if (this.jumpCell[u] !== c) {
      let carry = 0;
      for (let i = c - JUMP_WINDOW_CELLS; i < c; i++) {
        const size = this.cellJump(u, i);
        if (size !== 0) carry += size * Math.exp(-(start - this.scratchAt) / JUMP_TAU_NS);
      }
      this.jumpCell[u] = c;
      this.jumpCarry[u] = carry;
      this.jumpSize[u] = this.cellJump(u, c);
      this.jumpAt[u] = this.scratchAt;
    }
    let j = this.jumpCarry[u]! * Math.exp(-(t_ns - start) / JUMP_TAU_NS);
    const size = this.jumpSize[u]!;
    if (size !== 0 && t_ns >= this.jumpAt[u]!) j += size * Math.exp(-(t_ns - this.jumpAt[u]!) / JUMP_TAU_NS);
    return j;
  }
}

/** Index of a quote currency in `QUOTES` (USD 0, USDT 1, USDC 2); -1 when not USD-like. */
export function quoteIndex(quote: string): number {
  for (let i = 0; i < QUOTES.length; i++) if (QUOTES[i]!.quote === quote) return i;
  return -1;
}
