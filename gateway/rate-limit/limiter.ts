import { newBucket, retarget, take, type TokenBucket } from './token-bucket.ts';

/**
 * One bucket per client_id: every key of an account shares it and accounts are isolated (spec,
 * Limits). Buckets live in memory on the gateway thread; a restart grants a fresh burst.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, TokenBucket>();

  /** Returns 0 when the request may proceed, else the milliseconds to wait. */
  check(clientId: string, qps: number, nowMs: number): number {
    let bucket = this.buckets.get(clientId);
    if (bucket === undefined) {
      bucket = newBucket(qps, nowMs);
      this.buckets.set(clientId, bucket);
    } else if (bucket.qps !== qps) {
      retarget(bucket, qps, nowMs);
    }
    return take(bucket, nowMs);
  }

  get size(): number {
    return this.buckets.size;
  }
}
