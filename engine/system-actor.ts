import type { Actor } from './actor.ts';
import type { Endpoint } from './endpoint.ts';

/** Messages of the per-worker system actor `sys:<thread>`. */
export type SystemMessage = { t: 'Ping' } | { t: 'Stats' };

export interface WorkerStats {
  t: 'Pong';
  thread: number;
  actors: number;
  actor_restarts: number;
  mailbox_pending_bytes: number;
  /** The fullest inbound ring's share in use, 0..1. */
  fullest_ring: number;
  heap_used_bytes: number;
}

/**
 * The system actor answers liveness pings through the same rings as every other message, so a
 * passing readiness probe proves the whole path (gateway -> ring -> worker loop -> ring back).
 */
export function systemActor(endpoint: Endpoint): Actor<SystemMessage> {
  return {
    onMessage(): WorkerStats {
      return {
        t: 'Pong',
        thread: endpoint.thread,
        actors: endpoint.actorCount,
        actor_restarts: endpoint.actorRestarts(),
        mailbox_pending_bytes: endpoint.mailbox.pendingBytes(),
        fullest_ring: endpoint.mailbox.fullestRing(),
        heap_used_bytes: process.memoryUsage().heapUsed,
      };
    },
  };
}
