import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { LIFECYCLE_STREAM, ORDERS_STREAM, type StreamDefinition } from './subjects.ts';

/**
 * How long a consumer's pull request lives (heartbeats every half of it): a consumer whose server
 * died is noticed and remade within seconds, not the client's default half minute.
 */
export const CONSUME_EXPIRES_MS = 5_000;

/**
 * Creates the regions' streams, or brings an existing one to its definition (a node that starts
 * first creates them; the others find them). `replicas` is how many servers hold each: 3 in a
 * three-server cluster, so one server lost loses nothing.
 */
export async function ensureStreams(nc: NatsConnection, replicas: number, streams: readonly StreamDefinition[] = [LIFECYCLE_STREAM, ORDERS_STREAM]): Promise<JetStreamManager> {
  const jsm = await jetstreamManager(nc);
  for (const s of streams) {
    const config = { name: s.name, subjects: s.subjects, duplicate_window: s.duplicate_window_ns, max_msgs: s.max_msgs, num_replicas: replicas };
    try {
      const held = (await jsm.streams.info(s.name)).config;
      // Left alone when it is as defined: an update needs every replica, and a node must start
      // while one of three servers is down.
      const same = held.duplicate_window === config.duplicate_window && held.max_msgs === config.max_msgs && held.num_replicas === config.num_replicas && JSON.stringify(held.subjects) === JSON.stringify(config.subjects);
      if (!same) await jsm.streams.update(s.name, config);
    } catch (err) {
      if (!/stream not found/i.test((err as Error).message)) throw err;
      await jsm.streams.add(config);
    }
  }
  return jsm;
}
