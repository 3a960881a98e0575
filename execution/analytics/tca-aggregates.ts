import type { TcaBucketKey } from '../../storage/database.ts';
import type { TcaBucketStore } from '../../storage/tca-buckets.ts';
import type { Mode } from '../../domain/orders.ts';
import { HOUR_MS, TcaBucket, type TcaKind } from './tca-bucket.ts';
import { TcaDelta, type CompletedOrder } from './tca-delta.ts';

export type { CompletedOrder };

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
  /** merges written and not yet committed: the entry stays cached until they are (a read of LMDB would miss them) */
  unwritten: number;
}

/**
 * A query's answer kept for the next ask and folded forward as deltas merge (every row its
 * filter wants goes into its group), so a dashboard polling a month of TCA merges the month's
 * buckets once, not on every poll.
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

/** Orders whose ending is marked and not yet merged, per owner: a query waits for its router's delta first. */
interface Unmerged {
  orders: number;
  /** bumped at each mark: a flush that saw no new mark while it ran leaves nothing behind */
  marks: number;
}

/**
 * The TCA aggregates on the gateway thread, beside the journal. Routers fold their orders into
 * deltas (tca-delta.ts) and journal them every few tens of milliseconds; the journal stage marks
 * each order that ends in the order's own transaction (`marked`) and merges each delta in its
 * frame's (`mergeEncoded`): the changed buckets are written and the delta's orders unmarked in
 * that one transaction, so the buckets on disk plus the marked orders are always every completed
 * order. A start folds the marked orders again (`foldMarked`). A query merges the buckets of its
 * window: cached decoded buckets, the rest read from LMDB once; it first waits for the owner's
 * router to journal what it still holds (`settled`), so an order that ended is in the answer.
 */
export class TcaAggregates {
  /** owner -> key -> entry: every bucket decoded or written since start, up to `capacity` */
  private readonly cache = new Map<string, Map<string, Entry>>();
  private size = 0;
  /** owner -> answer key -> answer */
  private readonly answers = new Map<string, Map<string, Answer>>();
  private readonly unmerged = new Map<string, Unmerged>();

  constructor(
    private readonly store: TcaBucketStore,
    private readonly capacity = 50_000,
    /** A stored order, to fold a marked one again at a start. */
    private readonly readOrder: (clientId: string, mode: Mode, nodeOrderId: string) => CompletedOrder | undefined = () => undefined,
    private readonly log: (err: unknown, what: string) => void = () => {},
    /** Asks the owner's router to journal the delta it holds; resolves once it is merged. */
    private readonly flushRouter: (clientId: string, mode: Mode) => Promise<void> = () => Promise.resolve(),
  ) {}

  /** An order ended (its record is in this transaction): marked until a delta holding it is merged. */
  marked(clientId: string, mode: Mode, nodeOrderId: string): void {
    this.store.putPending(clientId, mode, nodeOrderId);
    const owner = ownerString(clientId, mode);
    let u = this.unmerged.get(owner);
    if (u === undefined) this.unmerged.set(owner, (u = { orders: 0, marks: 0 }));
    u.orders++;
    u.marks++;
  }

  /** A router's delta (TcaDelta.encode), in its journal frame's transaction. */
  mergeEncoded(clientId: string, mode: Mode, value: Uint8Array): void {
    this.merge(clientId, mode, TcaDelta.decode(value));
  }

  /**
   * Merges a delta into the owner's buckets and the kept answers that want its rows, writes the
   * changed buckets and removes the delta's marks, all in the current transaction. A failed
   * commit drops what is cached (the routers journal their deltas again).
   */
  merge(clientId: string, mode: Mode, delta: TcaDelta): void {
    const answers = this.answers.get(ownerString(clientId, mode));
    const touched: Entry[] = [];
    for (const r of delta.rows.values()) {
      const key: TcaBucketKey = [clientId, mode, r.hour_ms, r.kind, r.symbol, r.routing_version, r.venue];
      const entry = this.entry(key);
      entry.bucket.merge(r.bucket);
      entry.unwritten++;
      touched.push(entry);
      this.store.put(key, entry.bucket.encode());
      if (answers !== undefined) {
        for (const a of answers.values()) if (a.kind === r.kind && wants(a.kind, a.filter, key)) groupIn(a.groups, groupOf(a.grouping, key)).merge(r.bucket);
      }
    }
    for (const id of delta.orders) this.store.removePending(clientId, mode, id);
    const u = this.unmerged.get(ownerString(clientId, mode));
    if (u !== undefined) u.orders = Math.max(0, u.orders - delta.orders.length);
    this.store.durable().then(
      () => {
        for (const e of touched) e.unwritten--;
      },
      (err: unknown) => {
        this.log(err, 'TCA buckets not written: cached buckets dropped, read again from disk');
        this.discard();
      },
    );
  }

  /**
   * Undefined when every order of the owner that ended is merged; else resolves once its router
   * has journalled what it holds (a query reads its own orders).
   */
  settled(clientId: string, mode: Mode): Promise<void> | undefined {
    const u = this.unmerged.get(ownerString(clientId, mode));
    if (u === undefined || u.orders === 0) return undefined;
    const marks = u.marks;
    return this.flushRouter(clientId, mode).then(
      () => {
        // The router journalled every order it had ended before the ask: what is still counted
        // was never folded (its write failed), unless a new order ended meanwhile.
        if (u.marks === marks) u.orders = 0;
      },
      (err: unknown) => this.log(err, 'router did not journal its TCA delta: the answer may miss its latest orders'),
    );
  }

  /** Drops every bucket and answer held in memory: they are read again from disk. */
  discard(): void {
    this.cache.clear();
    this.size = 0;
    this.answers.clear();
  }

  /**
   * Folds the marked orders again and merges them: at a start, before any router runs, for what a
   * crash left between an order's commit and its delta's (or a router that stopped holding one).
   * Reads committed marks only.
   */
  foldMarked(): number {
    const deltas = new Map<string, { client: string; mode: Mode; delta: TcaDelta }>();
    let folded = 0;
    for (const [client, mode, id] of this.store.pending()) {
      const order = this.readOrder(client, mode, id);
      if (order === undefined) {
        this.store.removePending(client, mode, id);
        continue;
      }
      const owner = ownerString(client, mode);
      let d = deltas.get(owner);
      if (d === undefined) deltas.set(owner, (d = { client, mode, delta: new TcaDelta() }));
      d.delta.fold(order);
      folded++;
    }
    for (const { client, mode, delta } of deltas.values()) this.merge(client, mode, delta);
    return folded;
  }

  /** On disk: everything merged so far. */
  durable(): Promise<void> {
    return this.store.durable();
  }

  /** The merged bucket of `kind` over the filter's window and dimensions (read-only: it may be a kept answer). */
  query(clientId: string, mode: Mode, kind: TcaKind, f: TcaFilter): TcaBucket {
    return this.grouped(clientId, mode, kind, f, 'none').get('') ?? new TcaBucket();
  }

  /**
   * The buckets of the window merged per group (venue '' rows are the orders whole; `f.venue`
   * undefined with `allVenues` reads every venue's rows instead). Groups with no bucket are
   * absent. The map and its buckets are a kept answer, folded forward as deltas merge: read
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
    // Buckets written and not yet committed are not visible to a read: the cache has them.
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
      groupIn(groups, groupOf(grouping, row.key)).merge(this.remember(row.key, TcaBucket.fromValue(row.value)).bucket);
    }
    if (answers === undefined) {
      if (this.answers.size >= ANSWER_OWNERS) this.answers.delete(this.answers.keys().next().value!);
      this.answers.set(owner, (answers = new Map()));
    }
    if (answers.size >= ANSWERS_PER_OWNER) answers.delete(answers.keys().next().value!);
    answers.set(id, { kind, filter: { ...f }, grouping, groups });
    return groups;
  }

  private entry(key: TcaBucketKey): Entry {
    const owner = ownerString(key[0], key[1]);
    const cached = this.cache.get(owner)?.get(keyString(key));
    if (cached !== undefined) return cached;
    const stored = this.store.get(key);
    return this.remember(key, stored === undefined ? new TcaBucket() : TcaBucket.fromValue(stored));
  }

  private remember(key: TcaBucketKey, bucket: TcaBucket): Entry {
    if (this.size >= this.capacity) this.evict();
    const owner = ownerString(key[0], key[1]);
    let owned = this.cache.get(owner);
    if (owned === undefined) this.cache.set(owner, (owned = new Map()));
    const entry = { key, bucket, unwritten: 0 };
    owned.set(keyString(key), entry);
    this.size++;
    return entry;
  }

  /** Drops the older half of the buckets that are on disk as cached (a later query reads them again). */
  private evict(): void {
    let drop = Math.floor(this.capacity / 2);
    for (const owned of this.cache.values()) {
      for (const [ks, e] of owned) {
        if (drop === 0) return;
        if (e.unwritten > 0) continue;
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
