import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { pack, unpack } from 'msgpackr';
import type { Logger } from '../../engine/actor.ts';
import { KV_BUCKETS } from './subjects.ts';

/**
 * A table of records every region needs (clients, API key hashes, sealed venue credentials), as
 * the link sees it: storage implements it (`storage/replicated-tables.ts`), the link keeps it in
 * step with a JetStream key-value bucket. Keys are bucket-safe (`[-_=.a-zA-Z0-9/]`).
 */
export interface ReplicatedTable<V> {
  /** every local row: those the bucket lacks are published when the node joins */
  local(): Iterable<[key: string, value: V]>;
  /** a row from the bucket (another node's write, or this node's echoed): stored here, not told back */
  apply(key: string, value: V | null): Promise<void>;
  /** this node's writes, to publish (null: removed) */
  onWritten(listener: (key: string, value: V | null) => void): void;
}

export interface ReplicatedTables {
  clients: ReplicatedTable<unknown>;
  apiKeys: ReplicatedTable<unknown>;
  credentials: ReplicatedTable<unknown>;
}

/**
 * Keeps each table and its bucket in step: a local write is put in the bucket; every entry of
 * the bucket (from the start, then as they come) is applied to the table, in the bucket's order,
 * so every node converges on the last write whichever node made it. A key works in every region
 * a moment after it is issued in one; a credential stays sealed all the way.
 */
export class RecordsReplica {
  private readonly stops: (() => void)[] = [];

  constructor(
    private readonly tables: ReplicatedTables,
    private readonly log: Logger,
  ) {}

  private readonly pending = new Set<Promise<unknown>>();

  async start(nc: NatsConnection, replicas: number): Promise<void> {
    for (const [name, kv] of await this.buckets(nc, replicas)) await this.follow(name, this.tables[name], kv);
  }

  /**
   * Only this process's writes to the buckets, not the other way (the admin CLI beside a running
   * cluster: a client it creates works in every region); `settled` waits for them.
   */
  async forward(nc: NatsConnection, replicas: number): Promise<void> {
    for (const [name, kv] of await this.buckets(nc, replicas)) this.publishWrites(name, this.tables[name], kv);
  }

  async settled(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  private async buckets(nc: NatsConnection, replicas: number): Promise<[keyof ReplicatedTables, KV][]> {
    const kvm = new Kvm(nc);
    const out: [keyof ReplicatedTables, KV][] = [];
    for (const [name, bucket] of Object.entries(KV_BUCKETS) as [keyof ReplicatedTables, string][]) out.push([name, await kvm.create(bucket, { replicas, history: 1 })]);
    return out;
  }

  private publishWrites(name: string, table: ReplicatedTable<unknown>, kv: KV): void {
    table.onWritten((key, value) => {
      const put = (value === null ? kv.delete(key) : kv.put(key, pack(value))).catch((err: unknown) => this.log.error({ table: name, err: (err as Error).message }, 'region link: a record not replicated'));
      this.pending.add(put);
      void put.finally(() => this.pending.delete(put));
    });
  }

  stop(): void {
    for (const stop of this.stops) stop();
  }

  private async follow(name: string, table: ReplicatedTable<unknown>, kv: KV): Promise<void> {
    // Rows written before this node joined (the admin CLI, a node that ran alone) that the bucket
    // lacks. First, so a start tried again (JetStream not ready) registers its listener once.
    for (const [key, value] of table.local()) {
      if ((await kv.get(key)) === null) await kv.put(key, pack(value));
    }
    this.publishWrites(name, table, kv);
    const watch = await kv.watch();
    this.stops.push(() => watch.stop());
    void (async () => {
      for await (const entry of watch) {
        const value = entry.operation === 'PUT' ? (unpack(entry.value) as unknown) : null;
        await table.apply(entry.key, value).catch((err: unknown) => this.log.error({ table: name, err: (err as Error).message }, 'region link: a replicated record not applied'));
      }
    })();
  }
}
