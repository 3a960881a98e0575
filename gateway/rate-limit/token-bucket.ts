/**
 * A token bucket in integer micro-tokens (no float drift): capacity = 2 x qps tokens, refilled
 * at qps tokens per second, one token per request. Pure: the caller passes the clock.
 */
const MICRO = 1_000_000;

export interface TokenBucket {
  /** micro-tokens available */
  tokens: number;
  /** clock of the last refill, ms */
  refilledAtMs: number;
  qps: number;
}

export function newBucket(qps: number, nowMs: number): TokenBucket {
  return { tokens: 2 * qps * MICRO, refilledAtMs: nowMs, qps };
}

export function capacityOf(qps: number): number {
  return 2 * qps * MICRO;
}

function refill(bucket: TokenBucket, nowMs: number): void {
  const elapsed = nowMs - bucket.refilledAtMs;
  if (elapsed <= 0) return;
  // micro-tokens per ms = qps * 1e6 / 1e3
  bucket.tokens = Math.min(capacityOf(bucket.qps), bucket.tokens + elapsed * bucket.qps * 1_000);
  bucket.refilledAtMs = nowMs;
}

/** Takes one token; returns 0 when allowed, else the milliseconds until one is available. */
export function take(bucket: TokenBucket, nowMs: number): number {
  refill(bucket, nowMs);
  if (bucket.tokens >= MICRO) {
    bucket.tokens -= MICRO;
    return 0;
  }
  return Math.ceil((MICRO - bucket.tokens) / (bucket.qps * 1_000));
}

/** Re-targets a bucket after a profile change, keeping the tokens it has (capped). */
export function retarget(bucket: TokenBucket, qps: number, nowMs: number): void {
  refill(bucket, nowMs);
  bucket.qps = qps;
  bucket.tokens = Math.min(bucket.tokens, capacityOf(qps));
}
