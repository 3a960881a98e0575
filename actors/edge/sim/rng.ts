/**
 * Randomness for the market model, in two forms:
 *
 * - `Rng`: a sequential stream (sfc32: 128-bit state, 32-bit integer ops only, passes PractRand
 *   to terabytes). One stream per (edge, symbol) and per (edge, fault kind), derived with
 *   `seedFrom`, so streams never share draws and adding a symbol does not shift another's.
 * - `hash32` / `hashUniform` / `hashNormal`: counter-based randomness for values that must be
 *   readable at any time in any order (the latent price path, the smooth noise of basis and
 *   venue offsets): the value of a grid node is a pure function of its coordinates.
 *
 * Everything is deterministic across runs of the same Node binary: only integer ops plus
 * `Math.log`/`Math.sqrt`/`Math.cos`, which V8 computes with its own fdlibm port.
 */

const TWO_POW_32 = 4294967296;
const TWO_PI = 2 * Math.PI;

/** lowbias32 (Wellons): a 32-bit finaliser with near-ideal avalanche. */
function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/** Hash of up to four 32-bit words (missing words are 0); each word goes through the mixer. */
export function hash32(a: number, b = 0, c = 0, d = 0): number {
  let h = mix32((a ^ 0x9e3779b9) >>> 0);
  h = mix32((h ^ b) + 0x85ebca6b);
  h = mix32((h ^ c) + 0xc2b2ae35);
  h = mix32((h ^ d) + 0x27d4eb2f);
  return h;
}

/** Uniform in the open interval (0, 1) from a node's coordinates. */
export function hashUniform(a: number, b = 0, c = 0, d = 0): number {
  return (hash32(a, b, c, d) + 0.5) / TWO_POW_32;
}

/** Standard normal from a node's coordinates (Box-Muller over two derived words). */
export function hashNormal(a: number, b = 0, c = 0, d = 0): number {
  const h1 = hash32(a, b, c, d);
  const h2 = mix32((h1 ^ 0x6a09e667) >>> 0);
  const u1 = (h1 + 0.5) / TWO_POW_32;
  const u2 = (h2 + 0.5) / TWO_POW_32;
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(TWO_PI * u2);
}

/** Splits a non-negative integer (< 2^53) into two 32-bit words for hashing. */
export function hiWord(n: number): number {
  return Math.floor(n / TWO_POW_32) >>> 0;
}
export function loWord(n: number): number {
  return (n % TWO_POW_32) >>> 0;
}

function hashString(h: number, s: string): number {
  // FNV-1a over UTF-16 code units, then one mix so short strings spread over all 32 bits.
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h >>> 0);
}

/**
 * A 32-bit seed for an independent stream: `seedFrom(SIM_SEED, 'venue-edge-binance', 'BTC-USDT')`.
 * Order of the salts matters; numbers are taken as integers (up to 2^53).
 */
export function seedFrom(base: string | number, ...salt: (string | number)[]): number {
  let h = 0x811c9dc5;
  const parts = [base, ...salt];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (typeof p === 'string') h = hashString(h ^ 0x5bd1e995, p);
    else h = hash32(h, loWord(Math.abs(Math.trunc(p))), hiWord(Math.abs(Math.trunc(p))), p < 0 ? 1 : 0);
  }
  return h >>> 0;
}

/** sfc32 stream with the distributions the model draws from. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    // splitmix-style expansion of one 32-bit seed into the four state words.
    this.a = hash32(seed, 1);
    this.b = hash32(seed, 2);
    this.c = hash32(seed, 3);
    this.d = 1;
    for (let i = 0; i < 12; i++) this.nextU32();
  }

  nextU32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  uniform(): number {
    return this.nextU32() / TWO_POW_32;
  }

  /** Uniform in [lo, hi). */
  range(lo: number, hi: number): number {
    return lo + (hi - lo) * this.uniform();
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.uniform() * n);
  }

  /** Standard normal (Box-Muller; no cached spare, so every call costs the same two draws). */
  normal(): number {
    const u1 = (this.nextU32() + 0.5) / TWO_POW_32;
    const u2 = this.nextU32() / TWO_POW_32;
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(TWO_PI * u2);
  }

  /** Exponential with the given rate (mean 1/rate). */
  exponential(rate: number): number {
    return -Math.log((this.nextU32() + 0.5) / TWO_POW_32) / rate;
  }

  /** Poisson count with the given mean: Knuth's product below 30, a rounded normal above. */
  poisson(mean: number): number {
    if (mean <= 0) return 0;
    if (mean < 30) {
      const limit = Math.exp(-mean);
      let k = 0;
      let p = this.uniform();
      while (p > limit) {
        k++;
        p *= this.uniform();
      }
      return k;
    }
    return Math.max(0, Math.round(mean + Math.sqrt(mean) * this.normal()));
  }

  /** exp(mu + sigma * N(0,1)): median e^mu. */
  logNormal(mu: number, sigma: number): number {
    return Math.exp(mu + sigma * this.normal());
  }
}

/** mulberry32: tiny, fast, good enough for workloads and test streams; deterministic for a seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
