import type { BookChanged } from '../../actors/edge/book-watchers.ts';
import type { Mode } from '../../domain/orders.ts';
import { topic } from '../../engine/topic.ts';
import type { InstanceCheckpoint } from '../../storage/deployments.ts';
import type { AlgoLatency } from './latency.ts';

/**
 * What a deployment's actor (`algo:<mode>|<client>|<deployment_id>`, on an algo worker) is sent.
 *
 *   Start / Stop      from the deployments manager (gateway thread): boot the instances from the
 *                     stored record and artifact / run `algo_on_shutdown`, cancel what is open
 *   BookChanged       from an edge it watches: read that edge's book from the depth cache
 *   OrderUpdate       from its router: an order it caused changed (status, new fills)
 *   Mesh              from a deployment of its mesh group (the mesh extension)
 *   Stats             the live edge data of the record
 */
export type AlgoMessage =
  | { t: 'Start' }
  | { t: 'Stop'; reason: string | null }
  | BookChanged
  | OrderUpdate
  | { t: 'Mesh'; from: string; to: string; data: Uint8Array }
  | { t: 'Stats' };

export interface OrderUpdate {
  t: 'OrderUpdate';
  client_order_id: string;
  node_order_id: string;
  status: string;
  failure_class: string | null;
  failure_reason: string | null;
  /** fills new with this update, each once */
  fills: { qty_1e8: number; price_1e9: number; ts_ns: number }[];
}

/** An instance's live figures (the record's `edges`). */
export interface InstanceStats extends InstanceCheckpoint {
  edge_id: string;
  venue: string;
  symbol: string;
  connected: boolean;
}

export interface AlgoStats {
  running: boolean;
  instances: InstanceStats[];
  memory_bytes: number;
  callbacks: number;
  /** the slowest callback so far, microseconds */
  max_callback_us: number;
  latency: AlgoLatency;
}

export type StartAnswer = { ok: true; instances: number } | { ok: false; reason: string };

/**
 * What algo actors tell the manager (an internal topic to the gateway thread): a log line, a
 * checkpoint of the instances (each fill), a failure (the actor already cancelled its orders).
 */
export type DeploymentEvent =
  | { t: 'log'; key: string; lines: { ts_ms: number; level: number; edge_id: string; text: string }[]; dropped: number }
  | { t: 'checkpoint'; key: string; checkpoints: InstanceCheckpoint[] }
  | { t: 'failed'; key: string; reason: string };

export const DEPLOYMENT_EVENTS_TOPIC = topic<DeploymentEvent>('$deployments');

export function algoKey(mode: Mode, client: string, deploymentId: string): string {
  return `algo:${mode}|${client}|${deploymentId}`;
}

export function algoOwner(key: string): { mode: Mode; client_id: string; deployment_id: string } | undefined {
  // Deployment ids never hold '|' (the API's pattern); a client id might.
  const body = key.startsWith('algo:') ? key.slice(5) : '';
  const first = body.indexOf('|');
  const last = body.lastIndexOf('|');
  const mode = body.slice(0, first);
  if (first < 0 || last <= first + 1 || last === body.length - 1 || (mode !== 'live' && mode !== 'sandbox')) return undefined;
  return { mode, client_id: body.slice(first + 1, last), deployment_id: body.slice(last + 1) };
}
