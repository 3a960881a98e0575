import type { Actor } from '../../engine/actor.ts';
import type { OrderStore } from '../../storage/orders.ts';
import { readJournalFrame } from './frame.ts';

/**
 * The journal stage (exchange-core's journaling, the LMAX input journal): every router's
 * durable writes arrive here over the rings and are applied by this one writer, so the orders
 * of every client share lmdb-js's transaction of the event turn and one `flushed` (group
 * commit). Each write set is answered once it is on disk: the routers' write-ahead rules
 * (durable before the 201, before a fill is published, before a slice's legs go out) hold
 * across threads.
 */
export function journalActor(orders: OrderStore): () => Actor<Uint8Array> {
  return () => ({
    onMessage(frame: Uint8Array): Promise<number> {
      // Records arrive encoded (frame.ts): stored as they are, never decoded on this thread.
      const n = readJournalFrame(frame, (r) => {
        if (r.kind === 'order') orders.putOrderEncoded(r.client_id, r.mode, r.node_order_id, r.status, r.previous_status, r.value);
        else if (r.kind === 'order_key') orders.putOrderKey(r.client_id, r.mode, r.key, r.node_order_id);
        else if (r.kind === 'fill') orders.putFillEncoded(r.client_id, r.mode, r.fill_id, r.value);
        else orders.putLedgerEncoded(r.client_id, r.mode, r.value);
      });
      return orders.durable().then(() => n);
    },
  });
}
