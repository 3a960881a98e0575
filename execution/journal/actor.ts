import type { Actor } from '../../engine/actor.ts';
import type { OrderStore } from '../../storage/orders.ts';
import type { JournalMessage } from './messages.ts';

/**
 * The journal stage (exchange-core's journaling, the LMAX input journal): every router's
 * durable writes arrive here over the rings and are applied by this one writer, so the orders
 * of every client share lmdb-js's transaction of the event turn and one `flushed` (group
 * commit). Each write set is answered once it is on disk: the routers' write-ahead rules
 * (durable before the 201, before a fill is published, before a slice's legs go out) hold
 * across threads.
 */
export function journalActor(orders: OrderStore): () => Actor<JournalMessage> {
  return () => ({
    onMessage(m: JournalMessage): Promise<number> {
      for (const { order, previous_status } of m.orders) orders.putOrderFrom(order, previous_status);
      for (const [client, mode, key, id] of m.order_keys) orders.putOrderKey(client, mode, key, id);
      for (const [client, mode, fill] of m.fills) orders.putFill(client, mode, fill);
      for (const [client, mode, checkpoint] of m.ledgers) orders.putLedger(client, mode, checkpoint);
      return orders.durable().then(() => m.orders.length);
    },
  });
}
