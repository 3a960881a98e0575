/**
 * A venue's published request limits, counted as the venue counts them: fixed windows aligned
 * to the clock (Binance's REQUEST_WEIGHT per minute, ORDERS per 10 s) or a counter that decays
 * at a steady rate (Kraken's: a burst of `limit`, then `decay_per_s`), shared by every request
 * this edge sends, whichever client's order it carries. A 429 or 418 answer (or any
 * `Retry-After`) closes the venue to new requests until the time it names. Pure: the caller
 * passes the clock.
 */
/** The part of each limit background requests may use. */
const BACKGROUND_SHARE = 2 / 3;

export type LimitRule = { name: string; limit: number; window_ms: number } | { name: string; limit: number; decay_per_s: number };

export class VenueLimits {
  private readonly used: number[];
  private readonly windowStart: number[];
  private closedUntilMs = 0;

  constructor(private readonly rules: readonly LimitRule[]) {
    this.used = rules.map(() => 0);
    this.windowStart = rules.map(() => 0);
  }

  /**
   * Counts a request of `cost[i]` against rule i and answers 0, or the ms until it could go
   * (nothing counted). `cost` is indexed as the rules were given; missing entries count 0. A
   * `background` request (a resting leg's poll) may use only BACKGROUND_SHARE of each rule, so
   * polls never spend what an order, a cancel or a kill switch needs next.
   */
  admit(cost: readonly number[], nowMs: number, background = false): number {
    if (nowMs < this.closedUntilMs) return this.closedUntilMs - nowMs;
    let wait = 0;
    for (let i = 0; i < this.rules.length; i++) {
      const rule = this.rules[i]!;
      this.roll(i, nowMs);
      const limit = background ? rule.limit * BACKGROUND_SHARE : rule.limit;
      const over = this.used[i]! + (cost[i] ?? 0) - limit;
      if (over <= 0) continue;
      wait = Math.max(wait, 'window_ms' in rule ? this.windowStart[i]! + rule.window_ms - nowMs : Math.ceil((over * 1_000) / rule.decay_per_s));
    }
    if (wait > 0) return wait;
    for (let i = 0; i < this.rules.length; i++) this.used[i]! += cost[i] ?? 0;
    return 0;
  }

  /** The venue's own count (e.g. `X-MBX-USED-WEIGHT-1M`) when it reports one: it knows requests this edge did not send. */
  observe(ruleIndex: number, used: number, nowMs: number): void {
    if (!Number.isFinite(used) || ruleIndex >= this.rules.length) return;
    this.roll(ruleIndex, nowMs);
    this.used[ruleIndex] = Math.max(this.used[ruleIndex]!, used);
  }

  /** The venue refused for rate (429, 418 ban) or asked to come back later. */
  closeFor(ms: number, nowMs: number): void {
    this.closedUntilMs = Math.max(this.closedUntilMs, nowMs + Math.max(0, ms));
  }

  get closedUntil(): number {
    return this.closedUntilMs;
  }

  /** Brings rule i to `nowMs`: a window that ended starts empty; a counter decays for the time since it was last brought up. */
  private roll(i: number, nowMs: number): void {
    const rule = this.rules[i]!;
    if (!('window_ms' in rule)) {
      const elapsed = Math.max(0, nowMs - this.windowStart[i]!);
      this.used[i] = Math.max(0, this.used[i]! - (elapsed * rule.decay_per_s) / 1_000);
      this.windowStart[i] = nowMs;
      return;
    }
    const start = nowMs - (nowMs % rule.window_ms);
    if (start !== this.windowStart[i]) {
      this.windowStart[i] = start;
      this.used[i] = 0;
    }
  }
}

/** `Retry-After` in ms: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, nowMs: number): number | undefined {
  if (value === null || value === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - nowMs) : undefined;
}
