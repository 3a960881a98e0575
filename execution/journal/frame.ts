import { ORDER_STATUSES, type Mode, type OrderStatus } from '../../domain/orders.ts';
import { grownBuffer } from '../../engine/wire.ts';

/**
 * The journal frame: the write sets of a worker's routers since its last poll, as the bytes of
 * one binary ring frame (JOURNAL_WRITE). A fixed little-endian header per record, then its
 * strings and its value. Values (orders, fills, ledger checkpoints) are plain msgpack encoded
 * by the router, stored by the journal as they are (`asBinary`): the gateway thread never
 * decodes or re-encodes a record it journals.
 *
 *   frame     0   u32  sequence    the worker's frame number, echoed by the JOURNAL_ACK
 *             4   u32  record count n, then n records, unpadded:
 *   record   +0   u8   kind        1 order | 2 order key | 3 fill | 4 ledger checkpoint (or its last part)
 *                                  | 5 reply (the HTTP answer of the order this frame makes durable)
 *                                  | 6 ledger part (a checkpoint too large for one frame, in order)
 *                                  | 7 completed (an order just ended, beside its record: the TCA
 *                                    aggregates mark it until a delta holding it is merged; no value)
 *                                  | 8 tca delta (what a router's orders that ended since its last
 *                                    delta add to the client's TCA buckets, execution/analytics/tca-delta.ts)
 *            +1   u8   mode        0 live | 1 sandbox
 *            +2   u8   status      order: index in ORDER_STATUSES, else 0 (reply: +2 u16 HTTP status)
 *            +3   u8   previous    order: ORDER_STATUSES index of its index entry, 0xff none
 *            +4   u16  c           client_id length, UTF-8 bytes
 *            +6   u16  k           key length: order, completed -> node_order_id, order key -> the key
 *                                  (a client_order_id or hdr/ + Idempotency-Key), else 0
 *            +8   f64  fill id     fill: its id (an integer below 2^53); reply: its token; ledger and
 *                                  ledger part: the byte offset of this value in the checkpoint; else 0
 *            +16  u32  v           value length: order, fill, ledger, tca delta -> msgpack; order key ->
 *                                  the node_order_id it names, UTF-8; reply -> the JSON body
 *            +20  c + k + v bytes  client_id, key, value
 */
export const RecordKind = { ORDER: 1, ORDER_KEY: 2, FILL: 3, LEDGER: 4, REPLY: 5, LEDGER_PART: 6, COMPLETED: 7, TCA_DELTA: 8 } as const;
const HEADER = 20;
/** Sequence and record count. */
const FRAME_HEADER = 8;
const NO_STATUS = 0xff;
const EMPTY = new Uint8Array(0);

export type JournalRecord =
  | { kind: 'order'; client_id: string; mode: Mode; node_order_id: string; status: OrderStatus; previous_status: OrderStatus | null; value: Uint8Array }
  | { kind: 'order_key'; client_id: string; mode: Mode; key: string; node_order_id: string }
  | { kind: 'fill'; client_id: string; mode: Mode; fill_id: number; value: Uint8Array }
  /** A checkpoint, whole (offset 0) or the last part of one whose `ledger_part`s came first. */
  | { kind: 'ledger'; client_id: string; mode: Mode; offset: number; value: Uint8Array }
  | { kind: 'ledger_part'; client_id: string; mode: Mode; offset: number; value: Uint8Array }
  | { kind: 'reply'; token: number; status: number; json: string }
  /** An order that ended: the TCA aggregates mark it until a delta holding it is merged. */
  | { kind: 'completed'; client_id: string; mode: Mode; node_order_id: string }
  /** A router's TCA delta (execution/analytics/tca-delta.ts). */
  | { kind: 'tca_delta'; client_id: string; mode: Mode; value: Uint8Array };

const statusIndex = new Map<string, number>(ORDER_STATUSES.map((s, i) => [s, i]));

/** Builds one frame in a reusable buffer; `finish` returns a view valid until the next `reset`. */
export class JournalFrameWriter {
  private buf = Buffer.allocUnsafe(64 * 1024);
  private view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
  private pos = FRAME_HEADER;
  private count = 0;

  get records(): number {
    return this.count;
  }

  /** Bytes written so far. */
  get size(): number {
    return this.pos;
  }

  reset(): void {
    this.pos = FRAME_HEADER;
    this.count = 0;
  }

  order(client: string, mode: Mode, nodeOrderId: string, status: OrderStatus, previous: OrderStatus | null, value: Uint8Array): void {
    const at = this.header(RecordKind.ORDER, mode, client, nodeOrderId, value.length);
    this.buf[at + 2] = statusIndex.get(status)!;
    this.buf[at + 3] = previous === null ? NO_STATUS : statusIndex.get(previous)!;
    this.tail(client, nodeOrderId, value);
  }

  completed(client: string, mode: Mode, nodeOrderId: string): void {
    this.header(RecordKind.COMPLETED, mode, client, nodeOrderId, 0);
    this.tail(client, nodeOrderId, EMPTY);
  }

  tcaDelta(client: string, mode: Mode, value: Uint8Array): void {
    this.header(RecordKind.TCA_DELTA, mode, client, '', value.length);
    this.tail(client, '', value);
  }

  orderKey(client: string, mode: Mode, key: string, nodeOrderId: string): void {
    const id = Buffer.from(nodeOrderId, 'utf8');
    this.header(RecordKind.ORDER_KEY, mode, client, key, id.length);
    this.tail(client, key, id);
  }

  fill(client: string, mode: Mode, fillId: number, value: Uint8Array): void {
    const at = this.header(RecordKind.FILL, mode, client, '', value.length);
    this.view.setFloat64(at + 8, fillId, true);
    this.tail(client, '', value);
  }

  /** A ledger checkpoint, or (offset > 0) its last part, after `ledgerPart`s up to that offset. */
  ledger(client: string, mode: Mode, value: Uint8Array, offset = 0): void {
    const at = this.header(RecordKind.LEDGER, mode, client, '', value.length);
    this.view.setFloat64(at + 8, offset, true);
    this.tail(client, '', value);
  }

  /** A part of a ledger checkpoint larger than a ring frame holds; the journal keeps it until the last part (`ledger`). */
  ledgerPart(client: string, mode: Mode, offset: number, value: Uint8Array): void {
    const at = this.header(RecordKind.LEDGER_PART, mode, client, '', value.length);
    this.view.setFloat64(at + 8, offset, true);
    this.tail(client, '', value);
  }

  /** The answer awaited under `token` on the journal's thread, given once this frame is durable: its JSON body as UTF-8. */
  reply(token: number, status: number, json: Uint8Array): void {
    const at = this.header(RecordKind.REPLY, 'live', '', '', json.length);
    this.view.setUint16(at + 2, status, true);
    this.view.setFloat64(at + 8, token, true);
    this.buf.set(json, at + HEADER);
    this.pos = at + HEADER + json.length;
  }

  finish(sequence = 0): Uint8Array {
    this.view.setUint32(0, sequence, true);
    this.view.setUint32(4, this.count, true);
    return this.buf.subarray(0, this.pos);
  }

  private header(kind: number, mode: Mode, client: string, key: string, valueLength: number): number {
    const c = Buffer.byteLength(client, 'utf8');
    const k = Buffer.byteLength(key, 'utf8');
    this.ensure(HEADER + c + k + valueLength);
    const at = this.pos;
    this.buf.fill(0, at, at + HEADER);
    this.buf[at] = kind;
    this.buf[at + 1] = mode === 'live' ? 0 : 1;
    this.view.setUint16(at + 4, c, true);
    this.view.setUint16(at + 6, k, true);
    this.view.setUint32(at + 16, valueLength, true);
    this.count++;
    return at;
  }

  private tail(client: string, key: string, value: Uint8Array): void {
    let at = this.pos + HEADER;
    at += this.buf.write(client, at, 'utf8');
    at += this.buf.write(key, at, 'utf8');
    this.buf.set(value, at);
    this.pos = at + value.length;
  }

  private ensure(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    const next = (this.buf = grownBuffer(this.buf, this.pos, this.pos + bytes));
    this.view = new DataView(next.buffer, next.byteOffset, next.byteLength);
  }
}

/** The frame's sequence number. */
export function journalFrameSequence(frame: Uint8Array): number {
  return new DataView(frame.buffer, frame.byteOffset, frame.byteLength).getUint32(0, true);
}

/** Visits each record of a frame in order; returns the record count. Values are views into `frame`. */
export function readJournalFrame(frame: Uint8Array, visit: (record: JournalRecord) => void): number {
  const buf = Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength);
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const n = view.getUint32(4, true);
  let at = FRAME_HEADER;
  for (let i = 0; i < n; i++) {
    const kind = buf[at]!;
    const mode: Mode = buf[at + 1] === 0 ? 'live' : 'sandbox';
    const c = view.getUint16(at + 4, true);
    const k = view.getUint16(at + 6, true);
    const v = view.getUint32(at + 16, true);
    let p = at + HEADER;
    const client_id = buf.toString('utf8', p, (p += c));
    const key = buf.toString('utf8', p, (p += k));
    const value = frame.subarray(p, p + v);
    switch (kind) {
      case RecordKind.ORDER: {
        const previous = buf[at + 3]!;
        visit({ kind: 'order', client_id, mode, node_order_id: key, status: ORDER_STATUSES[buf[at + 2]!]!, previous_status: previous === NO_STATUS ? null : ORDER_STATUSES[previous]!, value });
        break;
      }
      case RecordKind.ORDER_KEY:
        visit({ kind: 'order_key', client_id, mode, key, node_order_id: buf.toString('utf8', p, p + v) });
        break;
      case RecordKind.FILL:
        visit({ kind: 'fill', client_id, mode, fill_id: view.getFloat64(at + 8, true), value });
        break;
      case RecordKind.LEDGER:
        visit({ kind: 'ledger', client_id, mode, offset: view.getFloat64(at + 8, true), value });
        break;
      case RecordKind.LEDGER_PART:
        visit({ kind: 'ledger_part', client_id, mode, offset: view.getFloat64(at + 8, true), value });
        break;
      case RecordKind.COMPLETED:
        visit({ kind: 'completed', client_id, mode, node_order_id: key });
        break;
      case RecordKind.TCA_DELTA:
        visit({ kind: 'tca_delta', client_id, mode, value });
        break;
      case RecordKind.REPLY:
        visit({ kind: 'reply', token: view.getFloat64(at + 8, true), status: view.getUint16(at + 2, true), json: buf.toString('utf8', p, p + v) });
        break;
      default:
        throw new RangeError(`journal frame: unknown record kind ${kind}`);
    }
    at = p + v;
  }
  return n;
}
