import { Unpackr } from 'msgpackr';
import type { TcaBucketKey } from '../../storage/database.ts';
import type { TcaBucketStore } from '../../storage/tca-buckets.ts';
import type { Mode, OrderRecord } from '../../domain/orders.ts';
import { execSamples, tcaSamples } from './samples.ts';

/** What the aggregates read of an order that ended. */
export type CompletedOrder = Parameters<typeof tcaSamples>[0] & Parameters<typeof execSamples>[0];
import { HOUR_MS, TcaBucket, type StoredTcaBucket, type TcaKind } from './tca-bucket.ts';

/** The buckets a query reads: the hours [from_hour_ms, to_hour_ms) and the dimensions asked for. */
export interface TcaFilter {
  from_hour_ms: number;
  to_hour_ms: number;
  symbol?: string | undefined;
  /** a venue's slices of the orders; undefined: the orders whole */
  venue?: string | undefined;
  routing_version?: number | undefined;
}

interface Entry {
  key: TcaBucketKey;
  bucket: TcaBucket;
}

const keyString = (k: TcaBucketKey) => k.join('\u0000');
const ownerString = (client: string, mode: Mode) => `${client}\u0000${mode}`;

/**
 * The TCA aggregates on the gateway thread, beside the journal: the journal stage hands it each
 * order that just completed (its encoded record), it folds the order into its hourly buckets,
 * and the buckets touched by a frame are written once, in that frame's transaction. A query
 * merges the buckets of its window: cached decoded buckets, the rest read from LMDB once.
 */
export class TcaAggregates {
  /** owner -> key -> entry: every bucket decoded or written since start, up to `capacity` */
  private readonly cache = new Map<string, Map<string, Entry>>();
  private size = 0;
  private readonly dirty = new Map<string, Entry>();
  private readonly unpackr = new Unpackr({ mapsAsObjects: true, useRecords: false });

  constructor(
    private readonly store: TcaBucketStore,
    private readonly capacity = 50_000,
  ) {}

  /** An order record (plain msgpack, as the router journals it) reached a terminal status. */
  completedEncoded(clientId: string, mode: Mode, value: Uint8Array): void {
    this.completed(clientId, mode, this.unpackr.unpack(value) as OrderRecord);
  }

  completed(clientId: string, mode: Mode, order: CompletedOrder): void {
    for (const s of tcaSamples(order)) this.touch(clientId, mode, s).add(s);
    for (const s of execSamples(order)) {
      const exec = this.touch(clientId, mode, s).exec;
      if (s.order !== undefined) exec.addOrder(s.order);
      if (s.leg !== undefined) exec.addLeg(s.leg);
    }
  }

  /** The bucket of a sample's key, marked to be written. */
  private touch(clientId: string, mode: Mode, s: { hour_ms: number; kind: TcaKind; symbol: string; routing_version: number; venue: string }): TcaBucket {
    const key: TcaBucketKey = [clientId, mode, s.hour_ms, s.kind, s.symbol, s.routing_version, s.venue];
    const entry = this.entry(key, true)!;
    this.dirty.set(keyString(key), entry);
    return entry.bucket;
  }

  /** Writes every bucket changed since the last call (in the current event turn's transaction); returns their keys. */
  writeDirty(): string[] {
    if (this.dirty.size === 0) return [];
    const keys = [...this.dirty.keys()];
    for (const { key, bucket } of this.dirty.values()) this.store.put(key, bucket.toStored() as unknown as Record<string, unknown>);
    this.dirty.clear();
    return keys;
  }

  /** Their transaction failed: what the cache holds for these keys is not on disk; read them again when asked. */
  forget(keys: readonly string[]): void {
    for (const k of keys) {
      const [client, mode] = k.split('\u0000', 2);
      if (this.cache.get(ownerString(client!, mode as Mode))?.delete(k)) this.size--;
    }
  }

  /** The merged bucket of `kind` over the filter's window and dimensions. */
  query(clientId: string, mode: Mode, kind: TcaKind, f: TcaFilter): TcaBucket {
    return this.grouped(clientId, mode, kind, f, () => '').get('') ?? new TcaBucket();
  }

  /**
   * The buckets of the window merged per group: `group` names the group of a bucket key that
   * passes the filter (venue '' rows are the orders whole; `f.venue` undefined with
   * `allVenues` reads every venue's rows instead). Groups with no bucket are absent.
   */
  grouped(clientId: string, mode: Mode, kind: TcaKind, f: TcaFilter & { allVenues?: boolean }, group: (k: TcaBucketKey) => string): Map<string, TcaBucket> {
    const out = new Map<string, TcaBucket>();
    const seen = new Set<string>();
    const wanted = (k: TcaBucketKey) =>
      k[2] >= f.from_hour_ms &&
      k[2] < f.to_hour_ms &&
      k[3] === kind &&
      (f.symbol === undefined || k[4] === f.symbol) &&
      (f.routing_version === undefined || k[5] === f.routing_version) &&
      (f.allVenues === true ? k[6] !== '' : k[6] === (f.venue ?? ''));
    const add = (k: TcaBucketKey, b: TcaBucket) => {
      const g = group(k);
      let total = out.get(g);
      if (total === undefined) out.set(g, (total = new TcaBucket()));
      total.merge(b);
    };
    // Buckets written this turn are not visible to a read until their commit: the cache has them.
    const owned = this.cache.get(ownerString(clientId, mode));
    if (owned !== undefined) {
      for (const [ks, e] of owned) {
        if (!wanted(e.key)) continue;
        seen.add(ks);
        add(e.key, e.bucket);
      }
    }
    for (const row of this.store.range(clientId, mode, f.from_hour_ms, f.to_hour_ms)) {
      if (!wanted(row.key) || seen.has(keyString(row.key))) continue;
      add(row.key, this.remember(row.key, TcaBucket.fromStored(row.value as unknown as StoredTcaBucket)).bucket);
    }
    return out;
  }

  private entry(key: TcaBucketKey, create: boolean): Entry | undefined {
    const owner = ownerString(key[0], key[1]);
    const cached = this.cache.get(owner)?.get(keyString(key));
    if (cached !== undefined) return cached;
    const stored = this.store.get(key);
    if (stored === undefined && !create) return undefined;
    return this.remember(key, stored === undefined ? new TcaBucket() : TcaBucket.fromStored(stored as unknown as StoredTcaBucket));
  }

  private remember(key: TcaBucketKey, bucket: TcaBucket): Entry {
    if (this.size >= this.capacity) this.evict();
    const owner = ownerString(key[0], key[1]);
    let owned = this.cache.get(owner);
    if (owned === undefined) this.cache.set(owner, (owned = new Map()));
    const entry = { key, bucket };
    owned.set(keyString(key), entry);
    this.size++;
    return entry;
  }

  /** Drops the older half of the clean buckets (they are on disk; a later query reads them again). */
  private evict(): void {
    let drop = Math.floor(this.capacity / 2);
    for (const owned of this.cache.values()) {
      for (const [ks] of owned) {
        if (drop === 0) return;
        if (this.dirty.has(ks)) continue;
        owned.delete(ks);
        this.size--;
        drop--;
      }
    }
  }
}

/** The UTC hours a [since, until) window of instants touches. */
export function hourWindow(sinceMs: number, untilMs: number): { from_hour_ms: number; to_hour_ms: number } {
  return { from_hour_ms: Math.floor(sinceMs / HOUR_MS) * HOUR_MS, to_hour_ms: Math.ceil(untilMs / HOUR_MS) * HOUR_MS };
}
