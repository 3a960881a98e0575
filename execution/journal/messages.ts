import type { FillRecord, Mode, OrderRecord } from '../../domain/orders.ts';

/**
 * The journal stage's one message: a router's write set since its last `durable()`, applied
 * by the single LMDB writer on the gateway thread and answered after `flushed`.
 */
export interface JournalWrite {
  t: 'Write';
  /** Each order with the status its index entry is under (null: not yet indexed). */
  orders: { order: OrderRecord; previous_status: string | null }[];
  /** Idempotency keys: [client_order_id or `hdr/` + Idempotency-Key, node_order_id]. */
  order_keys: [client: string, mode: Mode, key: string, node_order_id: string][];
  fills: [client: string, mode: Mode, fill: FillRecord][];
  ledgers: [client: string, mode: Mode, checkpoint: unknown][];
}

export type JournalMessage = JournalWrite;

/** The journal's key: one instance, hosted on the gateway thread beside the LMDB writer. */
export const JOURNAL_ACTOR = 'journal:0';

/** How long a router waits for a commit before the write counts as failed. */
export const JOURNAL_TIMEOUT_MS = 30_000;
