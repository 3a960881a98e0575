import type { Logger } from '../engine/actor.ts';
import type { Topology } from '../engine/topology.ts';
import type { Storage } from '../storage/index.ts';
import type { TicketStore } from './auth/tickets.ts';
import type { Sessions } from './auth/sessions.ts';
import type { KillSwitch } from '../execution/kill-switch.ts';
import type { MarketMemory } from './market/memory.ts';
import type { QuoteService } from './market/quotes.ts';
import type { PredictionCatalog } from './market/prediction-catalog.ts';
import type { SseHub } from './http/sse.ts';
import type { ExecutionConfig } from '../execution/types.ts';
import type { RouterClient } from '../execution/router/client.ts';
import type { DeploymentManager } from '../execution/deployments/manager.ts';
import type { TcaAggregates } from '../execution/analytics/tca-aggregates.ts';
import type { AlertBook } from '../execution/alerts/alert-book.ts';
import type { CredentialProbes } from '../execution/credential-probes.ts';
import type { AlertEvent } from '../execution/alerts/types.ts';
import type { FillRecord, OrderRecord } from '../domain/orders.ts';

/**
 * The other regions' orders and fills as this node reads them (actors/region-link/, docs/regions.md):
 * records served whole, newest first. Absent on a single node.
 */
export interface RegionReads {
  /** this node's region: its own orders are in LMDB */
  readonly region: string;
  orders(client: string, mode: string, region?: string): OrderRecord[];
  order(client: string, mode: string, node_order_id: string): OrderRecord | undefined;
  fills(client: string, mode: string, region?: string): FillRecord[];
  /** the other regions, and whether this node reaches each now */
  sources(nowMs: number): { region: string; reachable: boolean; caught_up: boolean }[];
  /** asks an order's home node to cancel or activate it: what the home answered, or that it could not be reached */
  command(op: 'cancel' | 'activate', owner: { client_id: string; mode: 'live' | 'sandbox' }, node_order_id: string, home: string): Promise<RemoteCommand>;
}

/** A command asked of an order's home node (actors/region-link/order-commands.ts): the order after it, or why not. */
export type RemoteCommand = { ok: OrderRecord } | { refused: { code: number; message: string } } | { unreachable: string };

/** What route handlers may use: the service's parts, handed in rather than imported. */
export interface GatewayContext {
  readonly storage: Storage;
  readonly topology: Topology;
  readonly tickets: TicketStore;
  /** Open WebSocket and SSE sessions by credential: revoking a key ends them. */
  readonly sessions: Sessions;
  readonly killSwitch: KillSwitch;
  /** What the live venues report about stored keys: the unsafe ones (able to withdraw). */
  readonly credentialProbes: CredentialProbes;
  readonly log: Logger;
  readonly version: string;
  readonly startedAtMs: number;
  readonly market: { readonly memory: MarketMemory; readonly quotes: QuoteService; readonly prediction: PredictionCatalog };
  /** The routers (`router:<mode>|<client>` on the workers), one message per call. */
  readonly execution: RouterClient;
  /** Server-sent-event subscribers, keyed `client|mode`. */
  readonly streams: { readonly tca: SseHub<{ node_order_id: string }>; readonly risk: SseHub<Record<string, unknown>>; readonly alerts: SseHub<AlertEvent> };
  readonly executionConfig: ExecutionConfig;
  /** Strategy deployments (execution/deployments/). */
  readonly deployments: DeploymentManager;
  /** TCA aggregates by hour, kept by the journal as orders complete (execution/analytics/). */
  readonly tcaAggregates: TcaAggregates;
  /** User-defined alerts (execution/alerts/). */
  readonly alerts: AlertBook;
  /** Among regions: the others' orders (global reads); undefined on a single node. */
  readonly regions: RegionReads | undefined;
  /** Publishes a frame to every WebSocket subscribed to a channel (see ws/channels.ts). */
  broadcast(channel: string, data: unknown): void;
  /** Open WebSocket connections. */
  wsConnections(): number;
}
