import { INTERNAL_ORDER_FIELDS, isTerminal, type FillRecord, type Mode, type OrderRecord, type OrderStatus } from '../../domain/orders.ts';
import { headerKey, orderKeys, type OrderStore } from '../../storage/orders.ts';
import type { OrderLog } from '../types.ts';
import { Packr } from 'msgpackr';
import { TcaDelta } from '../analytics/tca-delta.ts';
import { WireWriter } from '../../engine/wire.ts';
import { journalInDoubt, type JournalLink } from './link.ts';
import { LEDGER_PART_BYTES } from './messages.ts';
import { JsonWriter } from './json-writer.ts';
import { PlainMsgpackWriter } from './record-writer.ts';

/** What the API's view of an order adds to the record's public fields (orderView without fills). */
const NO_FILLS = { fills: null };

/** What a router collects between two `durable()` calls. */
interface WriteSet {
  orders: { order: OrderRecord; previous_status: OrderStatus | null }[];
  order_keys: [client: string, mode: Mode, key: string, node_order_id: string][];
  fills: [client: string, mode: Mode, fill: FillRecord][];
  ledgers: [client: string, mode: Mode, checkpoint: unknown][];
  replies: [token: number, status: number, order: OrderRecord][];
  /** orders this write set ends: folded into the TCA delta once it is on disk */
  ended: OrderRecord[];
}

/** How often a router journals the TCA delta of its orders that ended (a query waits for it instead: TcaAggregates.settled). */
export const TCA_DELTA_MS = 50;
const TCA_RETRY_MS = 1_000;

/** What a router needs to keep its client's TCA delta: a timer, and where to say a delta was lost. */
export interface TcaDeltaClock {
  schedule(ms: number, fn: () => void): void;
  log(err: unknown): void;
}

/**
 * A router's durable order state: reads from its worker's own LMDB reader, writes collected
 * until `durable()` and then appended to the worker's journal frame as one write set, resolving
 * when the journal has them on disk. What was written and is not yet acknowledged is read from here, so the
 * router reads its own writes at once.
 */
export class JournaledOrders implements OrderLog {
  private write: WriteSet | undefined;
  private readonly pendingOrders = new Map<string, { order: OrderRecord; previous_status: OrderStatus | null }>();
  /**
   * Plain msgpack (no shared structures: the journal stores the bytes as they are): orders and
   * fills by the record writer, ledger checkpoints (bigints, once a second) by msgpackr.
   */
  private readonly records = new PlainMsgpackWriter();
  private readonly packr = new Packr({ useRecords: false, moreTypes: false });
  /** TCA deltas' binary form (TcaDelta.write), copied into the frame. */
  private readonly wire = new WireWriter();
  /** The 201 bodies, JSON written straight into bytes: the same text as JSON.stringify(orderView(order)). */
  private readonly json = new JsonWriter();
  /** Written and not yet acknowledged by the journal: node_order_id -> order. */
  private readonly unsettled = new Map<string, OrderRecord>();
  /** The write set (by number) that last carried each unsettled order. */
  private readonly carriedBy = new Map<string, number>();
  private writes = 0;
  private readonly unsettledKeys = new Map<string, string>();
  private readonly unsettledFills = new Map<number, FillRecord>();
  private last: Promise<void> = Promise.resolve();
  /** The TCA delta of orders that ended since the last one left (execution/analytics/tca-delta.ts). */
  private tca = new TcaDelta();
  private tcaScheduled = false;

  constructor(
    /** The client and mode this router owns. */
    private readonly scope: { clientId: string; mode: Mode },
    private readonly reader: OrderStore,
    /** The worker's link to the journal (shared by its routers). */
    private readonly journal: JournalLink,
    /** Keeps the TCA aggregates' delta; undefined: none (TCA_AGGREGATES=off, to measure what they cost). */
    private readonly tcaClock?: TcaDeltaClock,
  ) {}

  nextOrderId(): string {
    return this.reader.nextOrderId();
  }

  nextFillId(): number {
    return this.reader.nextFillId();
  }

  putOrder(order: OrderRecord): void {
    const write = this.collecting();
    if (!this.pendingOrders.has(order.node_order_id)) {
      const entry = { order, previous_status: order.stored_status ?? null };
      this.pendingOrders.set(order.node_order_id, entry);
      write.orders.push(entry);
    }
    order.stored_status = order.status;
    this.unsettled.set(order.node_order_id, order);
    this.carriedBy.set(order.node_order_id, this.writes);
  }

  putClientOrderId(order: OrderRecord): void {
    const write = this.collecting();
    for (const key of orderKeys(order)) {
      write.order_keys.push([order.client_id, order.mode, key, order.node_order_id]);
      this.unsettledKeys.set(`${order.client_id}|${order.mode}|${key}`, order.node_order_id);
    }
  }

  putFill(clientId: string, mode: Mode, fill: FillRecord): void {
    this.collecting().fills.push([clientId, mode, fill]);
    this.unsettledFills.set(fill.id, fill);
  }

  putLedger(clientId: string, mode: Mode, snapshot: unknown): void {
    this.collecting().ledgers.push([clientId, mode, snapshot]);
  }

  putReply(token: number, status: number, order: OrderRecord): void {
    this.collecting().replies.push([token, status, order]);
  }

  /** Sends what was written since the last call; resolves when it (and everything before it) is on disk. */
  durable(): Promise<void> {
    const write = this.write;
    if (write === undefined) return this.last;
    this.write = undefined;
    this.pendingOrders.clear();
    const number = this.writes++;
    this.encode(write);
    // Settled or failed, the write set leaves the overlay: on disk it is read from LMDB; failed,
    // it is nowhere (LMDB commits whole transactions), so a retry must not find it here either.
    const forget = () => {
      for (const { order } of write.orders) {
        // Only when no later write set carries the order again.
        if (this.carriedBy.get(order.node_order_id) !== number) continue;
        this.carriedBy.delete(order.node_order_id);
        this.unsettled.delete(order.node_order_id);
      }
      for (const [client, mode, key] of write.order_keys) this.unsettledKeys.delete(`${client}|${mode}|${key}`);
      for (const [, , fill] of write.fills) this.unsettledFills.delete(fill.id);
    };
    const sent = this.journal.commit().then(
      () => {
        // Commits by the journal's thread become visible to this thread's reader on a fresh read transaction.
        this.reader.refresh();
        forget();
        // Folded once their ending is on disk, and marked there: a delta never holds an order a crash could lose.
        if (write.ended.length > 0) this.foldEnded(write.ended);
      },
      (err: unknown) => {
        forget();
        throw err;
      },
    );
    // A failed write fails its own callers; later ones wait only for it to settle.
    this.last = sent.catch(() => undefined);
    return sent;
  }

  /**
   * Journals the TCA delta held now; resolves once it is merged on disk (at once when there is
   * none). A delta whose frame failed is folded back to go again; one whose fate is unknown (no
   * acknowledgement in time) is not: if it was lost, its orders are still marked and a start folds them.
   */
  flushTca(): Promise<void> {
    const delta = this.tca;
    if (delta.empty) return Promise.resolve();
    this.tca = new TcaDelta();
    delta.write(this.wire.reset());
    this.journal.frame.tcaDelta(this.scope.clientId, this.scope.mode, this.wire.bytes());
    return this.journal.commit().catch((err: unknown) => {
      if (journalInDoubt(err)) throw err;
      this.tca.merge(delta);
      // Again in a second: a journal refusing writes (a disk below its reserve) refuses for a while.
      this.scheduleTca(TCA_RETRY_MS);
      throw err;
    });
  }

  /** Every write set sent so far is settled (its orders' endings folded), then the delta is journalled. */
  async settleTca(): Promise<void> {
    await this.last;
    await this.flushTca();
  }

  private foldEnded(ended: OrderRecord[]): void {
    for (const order of ended) this.tca.fold(order);
    this.scheduleTca();
  }

  private scheduleTca(ms = TCA_DELTA_MS): void {
    const clock = this.tcaClock;
    if (clock === undefined || this.tcaScheduled) return;
    this.tcaScheduled = true;
    clock.schedule(ms, () => {
      this.tcaScheduled = false;
      this.flushTca().catch((err: unknown) => clock.log(err));
    });
  }

  getOrder(clientId: string, mode: Mode, id: string): OrderRecord | undefined {
    return this.unsettled.get(id) ?? this.reader.getOrder(clientId, mode, id);
  }

  byClientOrderId(clientId: string, mode: Mode, clientOrderId: string): OrderRecord | undefined {
    const id = this.unsettledKeys.get(`${clientId}|${mode}|${clientOrderId}`);
    return id === undefined ? this.reader.byClientOrderId(clientId, mode, clientOrderId) : this.getOrder(clientId, mode, id);
  }

  byIdempotencyKey(clientId: string, mode: Mode, key: string): OrderRecord | undefined {
    return this.byClientOrderId(clientId, mode, headerKey(key));
  }

  getFill(clientId: string, mode: Mode, id: number): FillRecord | undefined {
    return this.unsettledFills.get(id) ?? this.reader.getFill(clientId, mode, id);
  }

  getLedger(clientId: string, mode: Mode): unknown {
    return this.reader.getLedger(clientId, mode);
  }

  fillsAfter(clientId: string, mode: Mode, after: number): FillRecord[] {
    return this.reader.fillsAfter(clientId, mode, after);
  }

  listOrders(clientId: string, mode: Mode, options: { limit: number; openOnly?: boolean }): { orders: OrderRecord[] } {
    return this.reader.listOrders(clientId, mode, options);
  }

  /** The router's working orders: what LMDB holds, overlaid with what is still on its way there. */
  openOrders(): OrderRecord[] {
    const byId = new Map<string, OrderRecord>();
    for (const order of this.reader.openOrders(this.scope)) byId.set(order.node_order_id, order);
    for (const order of this.unsettled.values()) byId.set(order.node_order_id, order);
    return [...byId.values()].filter((o) => !isTerminal(o.status));
  }

  private collecting(): WriteSet {
    return (this.write ??= { orders: [], order_keys: [], fills: [], ledgers: [], replies: [], ended: [] });
  }

  /** The write set appended to the worker's journal frame (frame.ts), encoded now: the latest state of each order. */
  private encode(write: WriteSet): void {
    const f = this.journal.frame;
    // Checkpoints first: one too large for a frame leaves in parts, a frame each, so every other
    // record of this write set shares the last frame, the one `durable()` awaits.
    const lasts: [client: string, mode: Mode, offset: number, value: Uint8Array][] = [];
    for (const [client, mode, checkpoint] of write.ledgers) {
      // Copied (a Buffer's slice() would be a view): msgpackr reuses the buffer it packs into.
      // The typed-array constructor copies in one block; Uint8Array.from walked it byte by byte.
      const bytes = new Uint8Array(this.packr.pack(checkpoint));
      if (bytes.length <= LEDGER_PART_BYTES) {
        lasts.push([client, mode, 0, bytes]);
        continue;
      }
      let offset = 0;
      for (; bytes.length - offset > LEDGER_PART_BYTES; offset += LEDGER_PART_BYTES) {
        f.ledgerPart(client, mode, offset, bytes.subarray(offset, offset + LEDGER_PART_BYTES));
        this.journal.flush();
      }
      lasts.push([client, mode, offset, bytes.subarray(offset)]);
    }
    for (const [client, mode, offset, value] of lasts) f.ledger(client, mode, value, offset);
    for (const { order, previous_status } of write.orders) {
      f.order(order.client_id, order.mode, order.node_order_id, order.status, previous_status, this.records.encode(order));
      // Once per order, the write that ends it: marked for the TCA aggregates in the same
      // transaction, folded into this router's delta once on disk.
      if (this.tcaClock !== undefined && isTerminal(order.status) && (previous_status === null || !isTerminal(previous_status))) {
        f.completed(order.client_id, order.mode, order.node_order_id);
        write.ended.push(order);
      }
    }
    for (const [client, mode, key, id] of write.order_keys) f.orderKey(client, mode, key, id);
    for (const [client, mode, fill] of write.fills) f.fill(client, mode, fill.id, this.records.encode(fill));
    for (const [token, status, order] of write.replies) f.reply(token, status, this.json.encode(order, INTERNAL_ORDER_FIELDS, NO_FILLS));
  }
}
