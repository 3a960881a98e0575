import { connect, type NatsConnection } from '@nats-io/transport-node';
import { pack, unpack } from 'msgpackr';

/**
 * One NATS connection per thread and server list, shared by everything on the thread that talks
 * to the other regions (each remote edge on a worker; the link on the gateway thread): the
 * server sees a node's threads, not each of its edges. Closed when its last user leaves.
 */
interface Shared {
  connection: Promise<NatsConnection>;
  users: number;
}

const OPEN = new Map<string, Shared>();

export function joinNats(urls: readonly string[], name: string): Promise<NatsConnection> {
  const key = urls.join(',');
  let shared = OPEN.get(key);
  if (shared === undefined) {
    shared = {
      users: 0,
      // A node may start before its servers: it keeps trying, and after a lost connection it
      // reconnects for as long as it runs (the regions' subjects resync on their own).
      connection: connect({ servers: [...urls], name, waitOnFirstConnect: true, maxReconnectAttempts: -1, reconnectTimeWait: 250, pingInterval: 2_000, maxPingOut: 2 }),
    };
    OPEN.set(key, shared);
  }
  shared.users++;
  return shared.connection;
}

export function leaveNats(urls: readonly string[]): void {
  const key = urls.join(',');
  const shared = OPEN.get(key);
  if (shared === undefined || --shared.users > 0) return;
  OPEN.delete(key);
  shared.connection.then((nc) => nc.drain()).catch(() => undefined);
}

/**
 * Answers the requests on `subject` (request/reply between nodes): each payload decoded from
 * msgpack (undefined when it is not: the handler refuses it as it refuses a bad field), its
 * answer packed back.
 */
export function serveRequests(nc: NatsConnection, subject: string, answer: (request: unknown) => unknown): void {
  nc.subscribe(subject, {
    callback: (err, msg) => {
      if (err !== null) return;
      let request: unknown;
      try {
        request = unpack(msg.data);
      } catch {
        request = undefined;
      }
      // An answer that cannot be given (the connection closing) is dropped: the asker times out and asks again.
      Promise.resolve(answer(request))
        .then((reply) => msg.respond(pack(reply)))
        .catch(() => undefined);
    },
  });
}
