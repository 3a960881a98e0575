/**
 * The order flow a benchmark run replays: what is sent, when, and how large, all drawn from one
 * seeded generator, so two runs of the same scenario against two services send the same orders
 * at the same offsets and their reports compare like for like. Pure: no I/O, no clock.
 */

export type IntentKind = 'market' | 'limit' | 'cancel';

export interface Scenario {
  seed: number;
  /** mean orders per second (arrivals are Poisson: real flow is bursty, a metronome hides queueing) */
  rate: number;
  duration_s: number;
  symbols: readonly string[];
  /** relative weights of the three kinds; `{ market: 6, limit: 3, cancel: 1 }` */
  mix: Readonly<Record<IntentKind, number>>;
  /** each order's notional, drawn uniformly in [min, max] USD */
  notional_usd: readonly [number, number];
  /** a `limit` is an IOC this far through the touch (it takes what is there up to that price) */
  limit_cross_bps: number;
  /** a `cancel` rests as a GTC this far behind the touch, then is cancelled */
  passive_bps: number;
  /** how long a `cancel` order rests before its cancel is sent, drawn uniformly */
  cancel_after_ms: readonly [number, number];
}

export const DEFAULT_SCENARIO: Scenario = {
  seed: 42,
  rate: 20,
  duration_s: 60,
  symbols: ['BTC-USDT', 'ETH-USDT'],
  mix: { market: 6, limit: 3, cancel: 1 },
  notional_usd: [20, 200],
  limit_cross_bps: 5,
  passive_bps: 100,
  cancel_after_ms: [50, 500],
};

/** One order the run will send. */
export interface Intent {
  seq: number;
  /** offset from the run's start at which it is due */
  at_ms: number;
  kind: IntentKind;
  symbol: string;
  side: 'buy' | 'sell';
  /** whole dollars times 1e9: the notional in the spec's usd_1e9 unit */
  notional_usd_1e9: number;
  /** `cancel` only: how long it rests before the cancel */
  cancel_after_ms: number;
}

/** mulberry32: small, fast and fully determined by its 32-bit seed (the distribution, not secrecy, matters here). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Every order of the scenario in the order it is due; the last is due before `duration_s`. */
export function* orderFlow(s: Scenario): Generator<Intent> {
  const random = seededRandom(s.seed);
  const kinds = (Object.keys(s.mix) as IntentKind[]).filter((k) => s.mix[k] > 0);
  const total = kinds.reduce((sum, k) => sum + s.mix[k], 0);
  const between = (lo: number, hi: number) => lo + random() * (hi - lo);
  let at = 0;
  for (let seq = 0; ; seq++) {
    // Exponential gaps: -ln(1 - u) / rate, u in [0, 1).
    at += (-Math.log(1 - random()) / s.rate) * 1_000;
    if (at >= s.duration_s * 1_000) return;
    let pick = random() * total;
    const kind = kinds.find((k) => (pick -= s.mix[k]) < 0) ?? kinds[kinds.length - 1]!;
    yield {
      seq,
      at_ms: at,
      kind,
      symbol: s.symbols[Math.floor(random() * s.symbols.length)]!,
      side: random() < 0.5 ? 'buy' : 'sell',
      notional_usd_1e9: Math.round(between(s.notional_usd[0], s.notional_usd[1]) * 100) * 10_000_000,
      cancel_after_ms: Math.round(between(s.cancel_after_ms[0], s.cancel_after_ms[1])),
    };
  }
}

/**
 * `market=6,limit=3,cancel=1` as weights; a kind left out weighs 0. Throws a plain Error naming
 * what is wrong (the CLI turns it into a usage error).
 */
export function parseMix(text: string): Record<IntentKind, number> {
  const mix: Record<IntentKind, number> = { market: 0, limit: 0, cancel: 0 };
  for (const part of text.split(',')) {
    const [name, weight] = part.split('=');
    if (name === undefined || !(name in mix) || weight === undefined || !/^\d+(\.\d+)?$/.test(weight)) {
      throw new Error(`mix ${JSON.stringify(text)}: expected kind=weight pairs of market, limit, cancel (e.g. market=6,limit=3,cancel=1)`);
    }
    mix[name as IntentKind] = Number(weight);
  }
  if (mix.market + mix.limit + mix.cancel <= 0) throw new Error(`mix ${JSON.stringify(text)}: every weight is 0`);
  return mix;
}
