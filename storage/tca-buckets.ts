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

  /** The client's buckets in this mode whose hour is in [fromHourMs, toHourMs). */
  *range(clientId: string, mode: Mode, fromHourMs: number, toHourMs: number): Generator<StoredBucketRow> {
    for (const { key, value } of this.db.tcaBuckets.getRange({ start: [clientId, mode, fromHourMs], end: [clientId, mode, toHourMs] })) {
      yield { key: key as TcaBucketKey, value: value as Record<string, unknown> };
    }
  }
}
