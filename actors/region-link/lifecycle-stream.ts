import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '../../engine/actor.ts';
import { LIFECYCLE_STREAM, lifecycleSubject } from './subjects.ts';
import { followStream } from './jetstream.ts';

export type LifecycleKind = 'new_markets' | 'market_resolved';

/** Events replayed into a node's feeds when it joins: the replay keeps the last 128 of each kind, so this covers both. */
const REPLAY_MESSAGES = 512;

/**
 * Prediction lifecycle events (`new_markets`, `market_resolved`) among regions (docs/regions.md):
 * an event a node observes is written to `SEQ_LIFECYCLE` with the venue's event id (`venue:market`)
 * as its message id, so one that several regions observe is stored once; every node reads the
 * stream into its own feeds (which drop a key they have seen), from the last few hundred events
 * when it joins, so the last-128 replay covers every region's.
 */
export class LifecycleStream {
  private js: JetStreamClient | undefined;
  private stopped = false;
  private failures = 0;

  constructor(private readonly log: Logger) {}

  start(nc: NatsConnection, deliver: (kind: LifecycleKind, key: string, frame: string) => void): void {
    this.js = jetstream(nc);
    void this.follow(nc, deliver);
  }

  stop(): void {
    this.stopped = true;
  }

  /** An event this node observed: stored once however many regions write it. */
  observed(kind: LifecycleKind, key: string, frame: string): void {
    this.js?.publish(lifecycleSubject(kind), frame, { msgID: key }).catch((err: unknown) => {
      if (this.failures++ % 100 === 0) this.log.error({ err: (err as Error).message, failures: this.failures }, 'region link: a lifecycle event not written to the regions’ stream');
    });
  }

  private follow(nc: NatsConnection, deliver: (kind: LifecycleKind, key: string, frame: string) => void): Promise<void> {
    return followStream(nc, {
      stream: LIFECYCLE_STREAM.name,
      startSeq: async (jsm) => {
        const { first_seq, last_seq } = (await jsm.streams.info(LIFECYCLE_STREAM.name)).state;
        return Math.max(first_seq, last_seq - REPLAY_MESSAGES + 1, 1);
      },
      onMessage: (msg) => {
        const kind = msg.subject.slice(msg.subject.lastIndexOf('.') + 1);
        const key = msg.headers?.get('Nats-Msg-Id') ?? '';
        if ((kind === 'new_markets' || kind === 'market_resolved') && key !== '') deliver(kind, key, msg.string());
      },
      stopped: () => this.stopped,
      log: this.log,
    });
  }
}
