import type { Mode } from '../domain/orders.ts';
import type { Databases, TcaBucketKey } from './database.ts';

/** A bucket as stored: its binary form (execution/analytics/tca-bucket.ts), or the object form of buckets written before it. */
export type StoredBucketValue = Uint8Array | Record<string, unknown>;

/**
 * TCA aggregates by UTC hour (execution/analytics/tca-bucket.ts says what a bucket holds):
 *
 *   tca_buckets: [client_id, mode, hour_ms, kind, symbol, routing_version, venue] -> a bucket's binary form
 *
 *   tca_pending: [client_id, mode, node_order_id] -> 1
 *
 * `venue` '' is the order whole; a venue's row is its slice of the order. A completed order's
 * pending mark is written in the order's own transaction (the journal frame's); the buckets it
 * changes are written a little later, with other orders' (its router's TCA delta), in one
 * transaction that also removes those orders' marks. So a bucket on disk plus the marked orders
 * is exactly every completed order, after a crash too: a start folds the marked orders again.
 */
export interface StoredBucketRow {
  key: TcaBucketKey;
  value: StoredBucketValue;
}

export class TcaBucketStore {
  constructor(private readonly db: Databases) {}

  get(key: TcaBucketKey): StoredBucketValue | undefined {
    return this.db.tcaBuckets.get(key) as StoredBucketValue | undefined;
  }

  put(key: TcaBucketKey, value: Uint8Array): void {
    this.db.writes.watch(this.db.tcaBuckets.put(key, value));
  }

  /** Marks a completed order as folded in memory, not yet in the buckets on disk. */
  putPending(clientId: string, mode: Mode, nodeOrderId: string): void {
    this.db.writes.watch(this.db.tcaPending.put([clientId, mode, nodeOrderId], 1));
  }

  removePending(clientId: string, mode: Mode, nodeOrderId: string): void {
    this.db.writes.watch(this.db.tcaPending.remove([clientId, mode, nodeOrderId]));
  }

  /** Every marked order (committed marks only). */
  pending(): [string, Mode, string][] {
    return [...this.db.tcaPending.getKeys()] as [string, Mode, string][];
  }

  /** On disk; rejects when the transaction carrying the writes so far failed. */
  async durable(): Promise<void> {
    await Promise.all([this.db.writes.settled(), this.db.root.flushed]);
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
      const value = this.db.tcaBuckets.get(k) as StoredBucketValue | undefined;
      if (value !== undefined) yield { key: k, value };
    }
  }
}
