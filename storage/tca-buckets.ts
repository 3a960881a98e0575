import type { Mode } from '../domain/orders.ts';
import type { Databases, TcaBucketKey } from './database.ts';

/**
 * TCA aggregates by UTC hour (execution/analytics/tca-bucket.ts says what a bucket holds):
 *
 *   tca_buckets: [client_id, mode, hour_ms, kind, symbol, routing_version, venue] -> StoredTcaBucket
 *
 * `venue` '' is the order whole; a venue's row is its slice of the order. Written by the journal
 * stage in the transaction of the order that completed (one commit: the order and what it added),
 * so the aggregates hold exactly the completed orders on disk, after a crash too. Money sums are
 * decimal strings here (exact past 2^53; msgpack has no bigint by default).
 */
export interface StoredBucketRow {
  key: TcaBucketKey;
  value: Record<string, unknown>;
}

export class TcaBucketStore {
  constructor(private readonly db: Databases) {}

  get(key: TcaBucketKey): Record<string, unknown> | undefined {
    return this.db.tcaBuckets.get(key) as Record<string, unknown> | undefined;
  }

  put(key: TcaBucketKey, value: Record<string, unknown>): void {
    this.db.writes.watch(this.db.tcaBuckets.put(key, value));
  }

  /**
   * The client's buckets in this mode whose hour is in [fromHourMs, toHourMs) and whose key
   * `wanted` accepts: keys are walked alone, and only the wanted values are read and decoded
   * (a query of orders whole skips the venue rows, most of them).
   */
  *range(clientId: string, mode: Mode, fromHourMs: number, toHourMs: number, wanted: (key: TcaBucketKey) => boolean = () => true): Generator<StoredBucketRow> {
    for (const key of this.db.tcaBuckets.getKeys({ start: [clientId, mode, fromHourMs], end: [clientId, mode, toHourMs] })) {
      const k = key as TcaBucketKey;
      if (!wanted(k)) continue;
      const value = this.db.tcaBuckets.get(k) as Record<string, unknown> | undefined;
      if (value !== undefined) yield { key: k, value };
    }
  }
}
