import type { Databases } from './database.ts';
import type { FillRecord, Mode, OrderRecord } from '../domain/orders.ts';
import { isTerminal, ORDER_STATUSES, type OrderStatus } from '../domain/orders.ts';
import { asBinary } from 'lmdb';
import { randomBase62 } from './random.ts';

/**
 * Orders, fills and the positions ledger of every (client, mode), in LMDB.
 *
 *   orders:       [client, mode, node_order_id] -> OrderRecord   ids sort by creation, so the
 *                                                                 newest-first listing is one
 *                                                                 reverse range scan
 *   order_keys:   [client, mode, client_order_id] -> node_order_id   idempotency
 *   open_orders:  [client, mode, node_order_id] -> 1               the working set, for recovery
 *   order_statuses: [client, mode, status, node_order_id] -> 1      counts by status (key counts)
 *   fills:        [client, mode, id] -> FillRecord
 *   ledgers:      [client, mode] -> ledger snapshot
 *
 * Durability: writers batch into lmdb-js's transaction of the event turn and then await
 * `durable()` (the environment's `flushed`) before acknowledging: many orders share one
 * commit and one fsync (group commit), and none is acknowledged before it is on disk.
 */
export interface OrderPage {
  orders: OrderRecord[];
  /** id of the last order returned, when more may follow */
  last: string | null;
}

/**
 * Header keys share order_keys with client_order_ids under a prefix no client_order_id can
 * have (`/` is outside their alphabet).
 */
export function headerKey(key: string): string {
  return `hdr/${key}`;
}

/** The keys an order answers to for idempotency: its client_order_id, and `hdr/` + its Idempotency-Key. */
export function orderKeys(order: Pick<OrderRecord, 'client_order_id' | 'idempotency_key'>): string[] {
  return order.idempotency_key == null ? [order.client_order_id] : [order.client_order_id, headerKey(order.idempotency_key)];
}

export class OrderStore {
  private lastMs = 0;
  private seq = 0;
  private lastFillMs = 0;
  private fillSeq = 0;
  private readonly idSuffix = randomBase62(3);

  constructor(private readonly db: Databases) {}

  /** A node_order_id: `ord_` + 9 base36 chars of ms + 4 of sequence + a process suffix; sorts by time. */
  nextOrderId(): string {
    const now = Date.now();
    if (now > this.lastMs) {
      this.lastMs = now;
      this.seq = 0;
    } else if (++this.seq >= 36 ** 4) {
      this.lastMs++;
      this.seq = 0;
    }
    return `ord_${this.lastMs.toString(36).padStart(9, '0')}${this.seq.toString(36).padStart(4, '0')}${this.idSuffix}`;
  }

  /** Fill ids: ms x 4096 + sequence, increasing within a process and below 2^53 until 2200. */
  nextFillId(): number {
    const now = Date.now();
    if (now > this.lastFillMs) {
      this.lastFillMs = now;
      this.fillSeq = 0;
    } else if (++this.fillSeq >= 4096) {
      this.lastFillMs++;
      this.fillSeq = 0;
    }
    return this.lastFillMs * 4096 + this.fillSeq;
  }

  /** Writes (in the event turn's transaction); pair with `durable()` before acknowledging. */
  putOrder(order: OrderRecord): void {
    // The record carries the status it is indexed under, so a transition moves its index entry
    // without reading the stored record back.
    const previous = order.stored_status ?? null;
    order.stored_status = order.status;
    this.writeOrder(order.client_id, order.mode, order.node_order_id, order.status, previous, order);
  }

  /**
   * The journal's writes: values already msgpack-encoded by the router that owns them (plain
   * msgpack, read back as objects: the databases open with `mapsAsObjects`), stored as they are.
   * `previous` is the status the order's index entry is under (null: none yet).
   */
  putOrderEncoded(clientId: string, mode: Mode, id: string, status: OrderStatus, previous: OrderStatus | null, value: Uint8Array): void {
    this.writeOrder(clientId, mode, id, status, previous, asBinary(value));
  }

  private writeOrder(clientId: string, mode: Mode, id: string, status: OrderStatus, previous: OrderStatus | null, value: unknown): void {
    const key: [string, Mode, string] = [clientId, mode, id];
    if (previous !== status) {
      if (previous !== null) this.db.writes.watch(this.db.orderStatuses.remove([clientId, mode, previous, id]));
      this.db.writes.watch(this.db.orderStatuses.put([clientId, mode, status, id], 1));
    }
    this.db.writes.watch(this.db.orders.put(key, value));
    if (isTerminal(status)) this.db.writes.watch(this.db.openOrders.remove(key));
    else this.db.writes.watch(this.db.openOrders.put(key, 1));
  }

  putFillEncoded(clientId: string, mode: Mode, id: number, value: Uint8Array): void {
    this.db.writes.watch(this.db.fills.put([clientId, mode, id], asBinary(value)));
  }

  putLedgerEncoded(clientId: string, mode: Mode, value: Uint8Array): void {
    this.db.writes.watch(this.db.ledgers.put([clientId, mode], asBinary(value)));
  }

  /** Registers one idempotency key (a client_order_id, or `hdr/` + an Idempotency-Key). */
  putOrderKey(clientId: string, mode: Mode, key: string, nodeOrderId: string): void {
    this.db.writes.watch(this.db.orderKeys.put([clientId, mode, key], nodeOrderId));
  }

  /**
   * Every order updated at or after `sinceNs`, with its fills: what a node among regions writes
   * to the regions' stream again when it starts, to catch up what it wrote while it could not.
   */
  *changedSince(sinceNs: number): Generator<{ order: OrderRecord; fills: FillRecord[] }> {
    for (const { value } of this.db.orders.getRange({})) {
      const order = value as OrderRecord;
      if (order.updated_unix_ns < sinceNs) continue;
      const fills = order.fill_ids.map((id) => this.getFill(order.client_id, order.mode, id)).filter((f): f is FillRecord => f !== undefined);
      yield { order, fills };
    }
  }

  /** Reads from now on see every commit so far, including other threads' (a worker's reader). */
  refresh(): void {
    this.db.root.resetReadTxn();
  }

  /** Registers the order's idempotency keys: its client_order_id, and its Idempotency-Key if any. */
  putClientOrderId(order: OrderRecord): void {
    for (const key of orderKeys(order)) this.putOrderKey(order.client_id, order.mode, key, order.node_order_id);
  }

  /** The order placed with this `Idempotency-Key` header. */
  byIdempotencyKey(clientId: string, mode: Mode, key: string): OrderRecord | undefined {
    return this.byClientOrderId(clientId, mode, headerKey(key));
  }

  putFill(clientId: string, mode: Mode, fill: FillRecord): void {
    this.db.writes.watch(this.db.fills.put([clientId, mode, fill.id], fill));
  }

  putLedger(clientId: string, mode: Mode, snapshot: unknown): void {
    this.db.writes.watch(this.db.ledgers.put([clientId, mode], snapshot));
  }

  /** On disk; rejects when the transaction carrying the writes so far failed (then `flushed` never settles). */
  async durable(): Promise<void> {
    await Promise.all([this.db.writes.settled(), this.db.root.flushed]);
  }

  getOrder(clientId: string, mode: Mode, id: string): OrderRecord | undefined {
    return this.db.orders.get([clientId, mode, id]) as OrderRecord | undefined;
  }

  byClientOrderId(clientId: string, mode: Mode, clientOrderId: string): OrderRecord | undefined {
    const id = this.db.orderKeys.get([clientId, mode, clientOrderId]) as string | undefined;
    return id === undefined ? undefined : this.getOrder(clientId, mode, id);
  }

  getFill(clientId: string, mode: Mode, id: number): FillRecord | undefined {
    return this.db.fills.get([clientId, mode, id]) as FillRecord | undefined;
  }

  getLedger(clientId: string, mode: Mode): unknown {
    return this.db.ledgers.get([clientId, mode]);
  }

  /**
   * Orders newest first, strictly older than `after` (an id), filtered; walks every order
   * exactly once even while new ones arrive, because new ids sort above every cursor.
   */
  listOrders(
    clientId: string,
    mode: Mode,
    options: { after?: string; limit: number; filter?: (o: OrderRecord) => boolean; openOnly?: boolean },
  ): OrderPage {
    const out: OrderRecord[] = [];
    const source = options.openOnly ? this.db.openOrders : this.db.orders;
    const start: [string, Mode, string] = [clientId, mode, options.after ?? '\uffff'];
    const end: [string, Mode, string] = [clientId, mode, ''];
    let last: string | null = null;
    for (const { key, value } of source.getRange({ start, end, reverse: true })) {
      if (options.after !== undefined && key[2] === options.after) continue;
      const order = options.openOnly ? this.getOrder(clientId, mode, key[2]) : (value as OrderRecord);
      if (order === undefined || (options.filter !== undefined && !options.filter(order))) continue;
      if (out.length === options.limit) return { orders: out, last };
      out.push(order);
      last = order.node_order_id;
    }
    return { orders: out, last: null };
  }

  countOrders(clientId: string, mode: Mode, filter?: (o: OrderRecord) => boolean): number {
    let n = 0;
    for (const { value } of this.db.orders.getRange({ start: [clientId, mode, ''], end: [clientId, mode, '\uffff'] })) {
      if (filter === undefined || filter(value as OrderRecord)) n++;
    }
    return n;
  }

  /** The client's orders in this mode by status (statuses with none left out): key counts, nothing decoded. */
  countByStatus(clientId: string, mode: Mode): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const status of ORDER_STATUSES) {
      const n = this.db.orderStatuses.getKeysCount({ start: [clientId, mode, status, ''], end: [clientId, mode, status, '\uffff'] });
      if (n > 0) counts[status] = n;
    }
    return counts;
  }

  /** The orders that pass `filter`, by status: a scan that decodes each of the client's orders. */
  countByStatusWhere(clientId: string, mode: Mode, filter: (o: OrderRecord) => boolean): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const { value } of this.db.orders.getRange({ start: [clientId, mode, ''], end: [clientId, mode, '\uffff'] })) {
      const o = value as OrderRecord;
      if (filter(o)) counts[o.status] = (counts[o.status] ?? 0) + 1;
    }
    return counts;
  }

  /** How many fills the client has in this mode: a key count, nothing decoded. */
  countFills(clientId: string, mode: Mode): number {
    return this.db.fills.getKeysCount({ start: [clientId, mode, 0], end: [clientId, mode, Number.MAX_SAFE_INTEGER] });
  }

  /** How many of the client's orders are working: a key count of the open-orders index. */
  countOpen(clientId: string, mode: Mode): number {
    return this.db.openOrders.getKeysCount({ start: [clientId, mode, ''], end: [clientId, mode, '\uffff'] });
  }

  listFills(
    clientId: string,
    mode: Mode,
    options: { after?: number; limit: number; filter?: (f: FillRecord) => boolean },
  ): { fills: FillRecord[]; last: number | null } {
    const out: FillRecord[] = [];
    const start: [string, Mode, number] = [clientId, mode, options.after ?? Number.MAX_SAFE_INTEGER];
    let last: number | null = null;
    for (const { key, value } of this.db.fills.getRange({ start, end: [clientId, mode, 0], reverse: true })) {
      if (options.after !== undefined && key[2] === options.after) continue;
      const fill = value as FillRecord;
      if (options.filter !== undefined && !options.filter(fill)) continue;
      if (out.length === options.limit) return { fills: out, last };
      out.push(fill);
      last = fill.id;
    }
    return { fills: out, last: null };
  }

  /** The client's fills with id > `after`, ascending (ledger replay). */
  fillsAfter(clientId: string, mode: Mode, after: number): FillRecord[] {
    const out: FillRecord[] = [];
    for (const { value } of this.db.fills.getRange({ start: [clientId, mode, after + 1], end: [clientId, mode, Number.MAX_SAFE_INTEGER] })) {
      out.push(value as FillRecord);
    }
    return out;
  }

  /** Every working order of every client (what a restart must reconcile), or of one client in a mode. */
  openOrders(scope?: { clientId: string; mode: Mode }): OrderRecord[] {
    const out: OrderRecord[] = [];
    const range = scope === undefined ? {} : { start: [scope.clientId, scope.mode, ''] as [string, Mode, string], end: [scope.clientId, scope.mode, '\uffff'] as [string, Mode, string] };
    for (const { key } of this.db.openOrders.getRange(range)) {
      const order = this.getOrder(key[0], key[1], key[2]);
      if (order !== undefined) out.push(order);
    }
    return out;
  }

  /** Every stored ledger: (client, mode, snapshot). */
  ledgers(): { clientId: string; mode: Mode; snapshot: unknown }[] {
    return [...this.db.ledgers.getRange({})].map(({ key, value }) => ({ clientId: key[0], mode: key[1], snapshot: value }));
  }
}
