import { Unpackr } from 'msgpackr';
import type { TcaBucketKey } from '../../storage/database.ts';
import type { TcaBucketStore } from '../../storage/tca-buckets.ts';
import type { Mode } from '../../domain/orders.ts';
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

/** How a query groups the buckets it reads: one total, or per venue, routing version, symbol or UTC-aligned interval. */
export type TcaGrouping = 'none' | 'venue' | 'routing_version' | 'symbol' | { interval_ms: number };

/** The group a bucket key falls in. */
export function groupOf(g: TcaGrouping, k: TcaBucketKey): string {
  if (g === 'none') return '';
  if (g === 'venue') return k[6];
  if (g === 'routing_version') return String(k[5]);
  if (g === 'symbol') return k[4];
  // Epoch-aligned intervals are UTC-aligned: the epoch is a UTC midnight.
  return String(Math.floor(k[2] / g.interval_ms) * g.interval_ms);
}

/** Whether a bucket key is one a query of `kind` over `f` reads. */
function wants(kind: TcaKind, f: TcaFilter & { allVenues?: boolean }, k: TcaBucketKey): boolean {
  return (
    k[2] >= f.from_hour_ms &&
    k[2] < f.to_hour_ms &&
    k[3] === kind &&
    (f.symbol === undefined || k[4] === f.symbol) &&
    (f.routing_version === undefined || k[5] === f.routing_version) &&
    (f.allVenues === true ? k[6] !== '' : k[6] === (f.venue ?? ''))
  );
}

interface Entry {
  key: TcaBucketKey;
  bucket: TcaBucket;
}

/**
 * A query's answer kept for the next ask and folded forward as orders complete (every sample
 * its filter wants goes into its group), so a dashboard polling a month of TCA merges the
 * month's buckets once, not on every poll.
 */
interface Answer {
  kind: TcaKind;
  filter: TcaFilter & { allVenues?: boolean };
  grouping: TcaGrouping;
  groups: Map<string, TcaBucket>;
}

/** Answers kept per (client, mode), and (client, mode)s with answers; the oldest goes first. */
const ANSWERS_PER_OWNER = 32;
const ANSWER_OWNERS = 1_024;

const keyString = (k: TcaBucketKey) => k.join('\u0000');
const ownerString = (client: string, mode: Mode) => `${client}\u0000${mode}`;

/** How long changed buckets wait to be written with other orders' changes (their orders are marked meanwhile). */
const FLUSH_MS = 50;

/**
 * The TCA aggregates on the gateway thread, beside the journal: the journal stage hands it the
 * digest of each order that just completed (journalled by its router), it folds the order into its hourly buckets in
 * memory and marks it pending in the order's own transaction. Every FLUSH_MS the changed buckets
 * are written once, with the removal of their orders' marks, in one transaction: a busy bucket is
 * written once per flush, not once per order, and the buckets on disk plus the marked orders
 * are always every completed order. A query merges the buckets of its window: cached decoded
 * buckets (the changed ones among them), the rest read from LMDB once.
 */
export class TcaAggregates {
  /** owner -> key -> entry: every bucket decoded or written since start, up to `capacity` */
  private readonly cache = new Map<string, Map<string, Entry>>();
  private size = 0;
  private readonly dirty = new Map<string, Entry>();
  /** orders folded since the last flush: their marks go with it */
  private pending: [string, Mode, string][] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  /** owner -> answer key -> answer */
  private readonly answers = new Map<string, Map<string, Answer>>();
  private readonly unpackr = new Unpackr({ mapsAsObjects: true, useRecords: false });

  constructor(
    private readonly store: TcaBucketStore,
    private readonly capacity = 50_000,
    /** A stored order, to fold a marked one again (a start, a failed commit). */
    private readonly readOrder: (clientId: string, mode: Mode, nodeOrderId: string) => CompletedOrder | undefined = () => undefined,
    private readonly log: (err: unknown, what: string) => void = () => {},
    private readonly flushMs = FLUSH_MS,
  ) {}

  private scheduleFlush(): void {
    if (this.flushTimer !== undefined) return;
    this.flushTimer = setTimeout(() => void this.flush(), this.flushMs);
    this.flushTimer.unref();
  }

  /** The digest of an order that ended (plain msgpack, `completedDigest`, journalled by its router): folded, marked, its buckets written soon. */
  completedEncoded(clientId: string, mode: Mode, value: Uint8Array): void {
    const order = this.unpackr.unpack(value) as CompletedOrder;
    this.completed(clientId, mode, order);
    this.store.putPending(clientId, mode, order.node_order_id);
    this.pending.push([clientId, mode, order.node_order_id]);
    this.scheduleFlush();
  }

  /** Folds an order into the buckets in memory (and the kept answers that want it). */
  completed(clientId: string, mode: Mode, order: CompletedOrder): void {
    const answers = this.answers.get(ownerString(clientId, mode));
    // One row per (kind, venue) of the order: its TCA and execution samples share the row's bucket.
    const rows = new Map<string, TcaBucket[]>();
    const row = (s: { hour_ms: number; kind: TcaKind; symbol: string; routing_version: number; venue: string }) => {
      const id = s.kind === 'price' ? s.venue : `p:${s.venue}`;
      let into = rows.get(id);
      if (into === undefined) rows.set(id, (into = this.touch(clientId, mode, s, answers)));
      return into;
    };
    for (const s of tcaSamples(order)) for (const b of row(s)) b.add(s);
    for (const s of execSamples(order)) {
      for (const b of row(s)) {
        if (s.order !== undefined) b.exec.addOrder(s.order);
        if (s.leg !== undefined) b.exec.addLeg(s.leg);
      }
    }
  }

  /** The buckets a sample goes into: its key's bucket (marked to be written) and its group in each kept answer that wants it. */
  private touch(clientId: string, mode: Mode, s: { hour_ms: number; kind: TcaKind; symbol: string; routing_version: number; venue: string }, answers: Map<string, Answer> | undefined): TcaBucket[] {
    const key: TcaBucketKey = [clientId, mode, s.hour_ms, s.kind, s.symbol, s.routing_version, s.venue];
    const entry = this.entry(key, true)!;
    this.dirty.set(keyString(key), entry);
    const into = [entry.bucket];
    if (answers !== undefined) {
      for (const a of answers.values()) if (a.kind === s.kind && wants(a.kind, a.filter, key)) into.push(groupIn(a.groups, groupOf(a.grouping, key)));
    }
    return into;
  }

  /** Writes every bucket changed since the last call (in the current event turn's transaction). */
  writeDirty(): void {
    for (const { key, bucket } of this.dirty.values()) this.store.put(key, bucket.toStored() as unknown as Record<string, unknown>);
    this.dirty.clear();
  }

  /**
   * Writes the changed buckets and removes the marks of the orders they now hold, in one
   * transaction. A failed commit rebuilds from disk (the marks are still there).
   */
  flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.dirty.size === 0 && this.pending.length === 0) return Promise.resolve();
    this.writeDirty();
    for (const [client, mode, id] of this.pending) this.store.removePending(client, mode, id);
    this.pending = [];
    return this.store.durable().catch((err: unknown) => {
      this.log(err, 'TCA buckets not written: rebuilt from disk');
      this.rebuild();
    });
  }

  /**
   * Drops every bucket held in memory and folds the marked orders again: at a start (what a
   * crash left between an order's commit and its buckets'), and after a failed commit (the cache
   * may hold what did not reach the disk). Reads committed marks only.
   */
  rebuild(): number {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.cache.clear();
    this.size = 0;
    this.dirty.clear();
    this.answers.clear();
    this.pending = [];
    let folded = 0;
    for (const [client, mode, id] of this.store.pending()) {
      const order = this.readOrder(client, mode, id);
      if (order === undefined) {
        this.store.removePending(client, mode, id);
        continue;
      }
      this.completed(client, mode, order);
      this.pending.push([client, mode, id]);
      folded++;
    }
    if (this.pending.length > 0) this.scheduleFlush();
    return folded;
  }

  /** The merged bucket of `kind` over the filter's window and dimensions (read-only: it may be a kept answer). */
  query(clientId: string, mode: Mode, kind: TcaKind, f: TcaFilter): TcaBucket {
    return this.grouped(clientId, mode, kind, f, 'none').get('') ?? new TcaBucket();
  }

  /**
   * The buckets of the window merged per group (venue '' rows are the orders whole; `f.venue`
   * undefined with `allVenues` reads every venue's rows instead). Groups with no bucket are
   * absent. The map and its buckets are a kept answer, folded forward as orders complete: read
   * them, never change them.
   */
  grouped(clientId: string, mode: Mode, kind: TcaKind, f: TcaFilter & { allVenues?: boolean }, grouping: TcaGrouping): ReadonlyMap<string, TcaBucket> {
    const owner = ownerString(clientId, mode);
    const id = answerKey(kind, f, grouping);
    let answers = this.answers.get(owner);
    const kept = answers?.get(id);
    if (kept !== undefined) return kept.groups;
    const groups = new Map<string, TcaBucket>();
    const seen = new Set<string>();
    const want = (k: TcaBucketKey) => wants(kind, f, k);
    // Buckets written this turn are not visible to a read until their commit: the cache has them.
    const owned = this.cache.get(owner);
    if (owned !== undefined) {
      for (const [ks, e] of owned) {
        if (!want(e.key)) continue;
        seen.add(ks);
        groupIn(groups, groupOf(grouping, e.key)).merge(e.bucket);
      }
    }
    for (const row of this.store.range(clientId, mode, f.from_hour_ms, f.to_hour_ms, want)) {
      if (seen.has(keyString(row.key))) continue;
      groupIn(groups, groupOf(grouping, row.key)).merge(this.remember(row.key, TcaBucket.fromStored(row.value as unknown as StoredTcaBucket)).bucket);
    }
    if (answers === undefined) {
      if (this.answers.size >= ANSWER_OWNERS) this.answers.delete(this.answers.keys().next().value!);
      this.answers.set(owner, (answers = new Map()));
    }
    if (answers.size >= ANSWERS_PER_OWNER) answers.delete(answers.keys().next().value!);
    answers.set(id, { kind, filter: { ...f }, grouping, groups });
    return groups;
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

function groupIn(groups: Map<string, TcaBucket>, g: string): TcaBucket {
  let b = groups.get(g);
  if (b === undefined) groups.set(g, (b = new TcaBucket()));
  return b;
}

function answerKey(kind: TcaKind, f: TcaFilter & { allVenues?: boolean }, g: TcaGrouping): string {
  const by = typeof g === 'string' ? g : `interval:${g.interval_ms}`;
  return [kind, f.from_hour_ms, f.to_hour_ms, f.symbol ?? '', f.venue ?? '', f.routing_version ?? '', f.allVenues === true ? 'all' : '', by].join('\u0000');
}

/** The UTC hours a [since, until) window of instants touches. */
export function hourWindow(sinceMs: number, untilMs: number): { from_hour_ms: number; to_hour_ms: number } {
  return { from_hour_ms: Math.floor(sinceMs / HOUR_MS) * HOUR_MS, to_hour_ms: Math.ceil(untilMs / HOUR_MS) * HOUR_MS };
}
