import type { NatsConnection } from '@nats-io/transport-node';
import { pack, unpack } from 'msgpackr';
import type { Logger } from '../../engine/actor.ts';
import type { OrderStatus } from '../../domain/orders.ts';
import { orderCancelSubject } from './subjects.ts';

/**
 * A cancel across regions (`seq.cancel.<home>`, request/reply): a client may cancel from any
 * node, and only the order's home node, whose router holds it, can cancel it. The node the
 * client called asks the home node and answers with what it answered.
 */
export interface CancelRequest {
  v: 1;
  client_id: string;
  mode: 'live' | 'sandbox';
  node_order_id: string;
}

export type CancelReply =
  /** the order's status after the cancel (a terminal order: its status, unchanged) */
  | { ok: { node_order_id: string; status: OrderStatus } }
  /** the home node's router refused (unknown order there, ...): its result code and message */
  | { refused: { code: number; message: string } };

/** What a forwarded cancel came to on the node the client called. */
export type ForwardedCancel = CancelReply | { unreachable: string };

/** How long the calling node waits for the home node: a cancel waits for in-flight IOC legs to end. */
export const FORWARDED_CANCEL_WAIT_MS = 10_000;

const text = (s: unknown, max: number): s is string => typeof s === 'string' && s.length > 0 && s.length <= max;

/** A request off the wire, checked: the request, or why it is refused. */
export function parseCancelRequest(raw: unknown): CancelRequest | string {
  if (typeof raw !== 'object' || raw === null) return 'not an object';
  const r = raw as Record<string, unknown>;
  if (r['v'] !== 1) return `unknown version ${String(r['v'])}`;
  if (!text(r['client_id'], 200)) return 'client_id: missing';
  if (r['mode'] !== 'live' && r['mode'] !== 'sandbox') return 'mode: live or sandbox';
  if (!text(r['node_order_id'], 200)) return 'node_order_id: missing';
  return raw as CancelRequest;
}

/** What the home node does with a cancel: its routers' cancel, refusals with their result code. */
export type LocalCancel = (owner: { client_id: string; mode: 'live' | 'sandbox' }, nodeOrderId: string) => Promise<{ node_order_id: string; status: OrderStatus }>;

/** The home node's side: answers cancels of its orders asked by other nodes. */
export function serveCancels(nc: NatsConnection, region: string, cancel: LocalCancel, log: Logger): void {
  nc.subscribe(orderCancelSubject(region), {
    callback: (err, msg) => {
      if (err !== null) return;
      let raw: unknown;
      try {
        raw = unpack(msg.data);
      } catch {
        raw = undefined;
      }
      const request = parseCancelRequest(raw);
      if (typeof request === 'string') {
        log.warn({ reason: request }, 'region link: a cancel request not understood was refused');
        return void msg.respond(pack({ refused: { code: 0, message: `bad cancel request: ${request}` } } satisfies CancelReply));
      }
      cancel({ client_id: request.client_id, mode: request.mode }, request.node_order_id).then(
        (ok) => msg.respond(pack({ ok } satisfies CancelReply)),
        (e: unknown) => {
          const code = (e as { code?: unknown }).code;
          msg.respond(pack({ refused: { code: typeof code === 'number' ? code : 0, message: (e as Error).message } } satisfies CancelReply));
        },
      );
    },
  });
}

/** The calling node's side: asks `home` to cancel, and says so when it cannot be reached. */
export async function forwardCancel(nc: NatsConnection | undefined, home: string, request: CancelRequest, timeoutMs = FORWARDED_CANCEL_WAIT_MS): Promise<ForwardedCancel> {
  if (nc === undefined || nc.isClosed()) return { unreachable: 'this node has not joined the regions' };
  try {
    const reply = await nc.request(orderCancelSubject(home), pack(request), { timeout: timeoutMs });
    return unpack(reply.data) as CancelReply;
  } catch (err) {
    return { unreachable: (err as Error).message };
  }
}
