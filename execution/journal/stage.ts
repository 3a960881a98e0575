import type { BinaryFrameHandler } from '../../engine/actor.ts';
import type { OrderStore } from '../../storage/orders.ts';
import { journalFrameSequence, readJournalFrame } from './frame.ts';
import { encodeJournalAck, JournalFrame } from './messages.ts';
import type { TcaAggregates } from '../analytics/tca-aggregates.ts';
import type { AlertBook } from '../alerts/alert-book.ts';

/**
 * The journal stage (exchange-core's journaling, the LMAX input journal), on the gateway
 * thread beside LMDB's writer: every worker's journal frames (JOURNAL_WRITE) are applied here
 * by this one writer, so the orders of every client share lmdb-js's transaction of the event
 * turn and one `flushed` (group commit). Each frame is acknowledged (JOURNAL_ACK) once it is on
 * disk: the routers' write-ahead rules (durable before the 201, before a fill is published,
 * before a slice's legs go out) hold across threads.
 */
export function journalStage(
  orders: OrderStore,
  /** Why storage refuses writes now (a disk below its reserve, a commit that just failed), or undefined. */
  refusal: (fresh: boolean) => string | undefined,
  ack: (thread: number, bytes: Uint8Array) => void,
  /** Answers the gateway's pending ask `correlation` (Endpoint.answerAsk): a new order's 201. */
  answer: (correlation: number, value: { ok: { status: number; json: string } }) => void,
  /** The TCA aggregates: each order that ends is marked in its own transaction, each router's delta merged in its frame's (tca-aggregates.ts). */
  analytics?: Pick<TcaAggregates, 'marked' | 'mergeEncoded'>,
  /** User alerts on orders and fills: told of the writes of a client that has some (nothing is decoded for the rest). */
  alerts?: Pick<AlertBook, 'watchesOrders' | 'orderWritten' | 'fillWritten'>,
  /**
   * Among regions: every order and fill record of a frame, as stored, once the frame is on disk
   * (the link writes them to the regions' order stream, docs/regions.md). Absent on one node.
   */
  replica?: { written(kind: 'order' | 'fill', client_id: string, mode: string, value: Uint8Array): void },
): { type: number; handler: BinaryFrameHandler } {
  // A ledger checkpoint larger than a ring frame holds arrives in parts, in order on its worker's
  // ring (frame.ts): kept here by (worker, mode, client) until its last part, then written whole.
  const parts = new Map<string, { chunks: Uint8Array[]; length: number }>();
  const keepPart = (source: number, r: { client_id: string; mode: string; offset: number; value: Uint8Array }) => {
    const key = `${source}|${r.mode}|${r.client_id}`;
    // A first part starts afresh: what a worker that died mid-checkpoint left is dropped.
    const kept = r.offset === 0 ? { chunks: [], length: 0 } : parts.get(key);
    if (kept === undefined || kept.length !== r.offset) {
      parts.delete(key);
      throw new RangeError(`journal frame: ledger part of ${r.client_id} at ${r.offset} out of order`);
    }
    kept.chunks.push(r.value);
    kept.length += r.value.length;
    parts.set(key, kept);
  };
  const wholeLedger = (source: number, r: { client_id: string; mode: string; offset: number; value: Uint8Array }): Uint8Array => {
    const key = `${source}|${r.mode}|${r.client_id}`;
    const kept = parts.get(key);
    parts.delete(key);
    if (r.offset === 0) return r.value;
    if (kept === undefined || kept.length !== r.offset) throw new RangeError(`journal frame: ledger of ${r.client_id} misses parts before ${r.offset}`);
    kept.chunks.push(r.value);
    return Buffer.concat(kept.chunks);
  };
  const handler: BinaryFrameHandler = (source, bytes, offset, length) => {
    // The ring slot is reused once this returns, and LMDB may keep a value's bytes until its
    // write runs: the frame gets its own copy. Records are stored as they arrive, never decoded.
    const frame = Buffer.allocUnsafe(length);
    frame.set(bytes.subarray(offset, offset + length));
    const sequence = journalFrameSequence(frame);
    // Refused before LMDB sees it: a commit that fails for space is where lmdb-js has aborted the
    // process (storage/disk-space.ts). Nothing of the frame is written; the routers answer 503.
    const refused = refusal(true);
    if (refused !== undefined) {
      failed(source, sequence, new Error(`storage is not writable: ${refused}`));
      return;
    }
    // The HTTP answers of orders this frame makes durable: given once it is on disk.
    const answers: { token: number; status: number; json: string }[] = [];
    const replicated: { kind: 'order' | 'fill'; client_id: string; mode: string; value: Uint8Array }[] | undefined = replica === undefined ? undefined : [];
    try {
      readJournalFrame(frame, (r) => {
        if (r.kind === 'reply') answers.push(r);
        else if (r.kind === 'order') {
          orders.putOrderEncoded(r.client_id, r.mode, r.node_order_id, r.status, r.previous_status, r.value);
          replicated?.push({ kind: 'order', client_id: r.client_id, mode: r.mode, value: r.value });
          if (alerts?.watchesOrders(r.client_id, r.mode)) alerts.orderWritten(r.client_id, r.mode, r.status, r.previous_status, r.value);
        }
        // Once per order, beside the write that ends it: marked until its router's delta is merged.
        else if (r.kind === 'completed') analytics?.marked(r.client_id, r.mode, r.node_order_id);
        else if (r.kind === 'tca_delta') analytics?.mergeEncoded(r.client_id, r.mode, r.value);
        else if (r.kind === 'order_key') orders.putOrderKey(r.client_id, r.mode, r.key, r.node_order_id);
        else if (r.kind === 'fill') {
          orders.putFillEncoded(r.client_id, r.mode, r.fill_id, r.value);
          replicated?.push({ kind: 'fill', client_id: r.client_id, mode: r.mode, value: r.value });
          if (alerts?.watchesOrders(r.client_id, r.mode)) alerts.fillWritten(r.client_id, r.mode, r.value);
        }
        else if (r.kind === 'ledger_part') keepPart(source, r);
        else orders.putLedgerEncoded(r.client_id, r.mode, wholeLedger(source, r));
      });
    } catch (err) {
      // The records before the bad one are in this turn's transaction, and so are their marks.
      failed(source, sequence, err);
      return;
    }
    orders.durable().then(
      () => {
        ack(source, encodeJournalAck(sequence, null));
        for (const a of answers) answer(a.token, { ok: { status: a.status, json: a.json } });
        if (replicated !== undefined) for (const r of replicated) replica!.written(r.kind, r.client_id, r.mode, r.value);
      },
      // What the aggregates merged from this frame did not reach the disk: they drop their cache
      // on the same failure, and the routers journal their deltas again.
      (err: unknown) => failed(source, sequence, err),
    );
  };
  // A failed frame's answers are the routers' to give: their commits fail with the ack.
  const failed = (source: number, sequence: number, err: unknown) => ack(source, encodeJournalAck(sequence, err instanceof Error ? err.message : String(err)));
  return { type: JournalFrame.WRITE, handler };
}
