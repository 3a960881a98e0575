import { DeliverPolicy, jetstream, jetstreamManager, type JetStreamManager, type JsMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '../../engine/actor.ts';
import { LIFECYCLE_STREAM, ORDERS_STREAM, type StreamDefinition } from './subjects.ts';

/**
 * How long a consumer's pull request lives (heartbeats every half of it): a consumer whose server
 * died is noticed and remade within seconds, not the client's default half minute.
 */
const CONSUME_EXPIRES_MS = 5_000;

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

/** A consumer that delivered nothing for this long while its stream holds messages past the last read is remade. */
const STALL_MS = 8_000;
const STALL_CHECK_MS = 2_000;

export interface StreamFollower {
  stream: string;
  /** the first sequence to read when the follower starts (later: the one after the last read) */
  startSeq(jsm: JetStreamManager): Promise<number>;
  onMessage(msg: JsMsg): void;
  stopped(): boolean;
  log: Logger;
}

/**
 * Reads a stream for as long as the node runs, through an ordered consumer remade from the next
 * unread sequence whenever it fails, and whenever it stalls: after a cluster fails over, a
 * consumer whose server died can go quiet without an error while the stream grows. A watchdog
 * compares the stream's last sequence with the last one read, every two seconds.
 */
export async function followStream(nc: NatsConnection, f: StreamFollower): Promise<void> {
  const js = jetstream(nc);
  let next = 0;
  while (!f.stopped()) {
    let watchdog: NodeJS.Timeout | undefined;
    try {
      const jsm = await jetstreamManager(nc);
      if (next === 0) next = Math.max(1, await f.startSeq(jsm));
      const consumer = await js.consumers.get(f.stream, { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: next });
      const messages = await consumer.consume({ expires: CONSUME_EXPIRES_MS });
      const consumedAt = Date.now();
      let progressAt = consumedAt;
      watchdog = setInterval(() => {
        jsm.streams.info(f.stream).then(
          (info) => {
            if (info.state.last_seq < next || Date.now() - progressAt < STALL_MS) return;
            f.log.warn({ stream: f.stream, next, last_seq: info.state.last_seq }, 'region link: a stream consumer stalled; remade from the next unread message');
            void messages.close();
          },
          () => undefined,
        );
      }, STALL_CHECK_MS);
      for await (const msg of messages) {
        next = msg.seq + 1;
        progressAt = Date.now();
        f.onMessage(msg);
        if (f.stopped()) break;
      }
      // A consumer that ended at once is remade after a pause, never in a tight loop.
      if (!f.stopped() && Date.now() - consumedAt < 1_000) await new Promise((resolve) => setTimeout(resolve, 1_000));
    } catch (err) {
      if (f.stopped() || nc.isClosed()) return;
      f.log.warn({ stream: f.stream, err: (err as Error).message }, 'region link: a stream is not readable now, trying again');
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    } finally {
      clearInterval(watchdog);
    }
  }
}
