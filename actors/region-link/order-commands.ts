import type { NatsConnection } from '@nats-io/transport-node';
import { pack, unpack } from 'msgpackr';
import type { OrderRecord } from '../../domain/orders.ts';
import type { Logger } from '../../engine/actor.ts';
import { serveRequests } from './connection.ts';
import { orderCommandSubject } from './subjects.ts';

/**
 * A client's command on an order homed in another region (`seq.command.<home>`, request/reply):
 * a cancel, or the activation of an armed order. A client may call any node, and only the
 * order's home node, whose router holds it, can carry the command out: the node the client
 * called asks the home node and answers with what it answered.
 */
export interface OrderCommand {
  v: 1;
  op: 'cancel' | 'activate';
  client_id: string;
  mode: 'live' | 'sandbox';
  node_order_id: string;
}

export type OrderCommandReply =
  /** the order after the command (a terminal order's cancel: the order, unchanged) */
  | { ok: OrderRecord }
  /** the home node's router refused (unknown order there, not armed, ...): its result code and message */
  | { refused: { code: number; message: string } };

/** What a forwarded command came to on the node the client called. */
export type ForwardedCommand = OrderCommandReply | { unreachable: string };

/** How long the calling node waits for the home node: a cancel waits for in-flight IOC legs to end. */
export const FORWARDED_COMMAND_WAIT_MS = 10_000;

const text = (s: unknown, max: number): s is string => typeof s === 'string' && s.length > 0 && s.length <= max;

/** A command off the wire, checked: the command, or why it is refused. */
export function parseOrderCommand(raw: unknown): OrderCommand | string {
  if (typeof raw !== 'object' || raw === null) return 'not an object';
  const r = raw as Record<string, unknown>;
  if (r['v'] !== 1) return `unknown version ${String(r['v'])}`;
  if (r['op'] !== 'cancel' && r['op'] !== 'activate') return `op: unknown ${String(r['op'])}`;
  if (!text(r['client_id'], 200)) return 'client_id: missing';
  if (r['mode'] !== 'live' && r['mode'] !== 'sandbox') return 'mode: live or sandbox';
  if (!text(r['node_order_id'], 200)) return 'node_order_id: missing';
  return raw as OrderCommand;
}

/** What the home node does with a command: its routers' cancel or activation, refusals with their result code. */
export type LocalOrderCommand = (command: OrderCommand) => Promise<OrderRecord>;

/** The home node's side: carries out commands on its orders asked by other nodes. */
export function serveOrderCommands(nc: NatsConnection, region: string, run: LocalOrderCommand, log: Logger): void {
  serveRequests(nc, orderCommandSubject(region), async (raw): Promise<OrderCommandReply> => {
    const command = parseOrderCommand(raw);
    if (typeof command === 'string') {
      log.warn({ reason: command }, 'region link: an order command not understood was refused');
      return { refused: { code: 0, message: `bad order command: ${command}` } };
    }
    try {
      return { ok: await run(command) };
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      return { refused: { code: typeof code === 'number' ? code : 0, message: (e as Error).message } };
    }
  });
}

/** The calling node's side: asks `home` to carry the command out, and says so when it cannot be reached. */
export async function forwardOrderCommand(nc: NatsConnection | undefined, home: string, command: OrderCommand, timeoutMs = FORWARDED_COMMAND_WAIT_MS): Promise<ForwardedCommand> {
  if (nc === undefined || nc.isClosed()) return { unreachable: 'this node has not joined the regions' };
  try {
    const reply = await nc.request(orderCommandSubject(home), pack(command), { timeout: timeoutMs });
    return unpack(reply.data) as OrderCommandReply;
  } catch (err) {
    return { unreachable: (err as Error).message };
  }
}
