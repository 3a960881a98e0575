import type { Logger } from '../engine/actor.ts';
import type { CredentialProbes } from '../execution/credential-probes.ts';
import { createRequestLogger } from '../engine/log.ts';
import type { Topology } from '../engine/topology.ts';
import type { Storage } from '../storage/index.ts';
import type { Authenticator } from './auth/authenticator.ts';
import { TicketStore } from './auth/tickets.ts';
import type { GatewayContext, RegionReads } from './context.ts';
import type { RouteSpec } from './http/route.ts';
import { HttpPipeline } from './http/pipeline.ts';
import { Router } from './http/router.ts';
import { buildOpenApi } from './openapi.ts';
import { OpenApiDocumentSchema } from './schemas/meta.ts';
import { RateLimiter } from './rate-limit/limiter.ts';
import { apiKeyRoutes } from './routes/api-keys.ts';
import { credentialRoutes } from './routes/credentials.ts';
import { healthRoutes } from './routes/health.ts';
import { killSwitchRoutes } from './routes/kill-switch.ts';
import { streamRoutes } from './routes/stream.ts';
import { uws, type TemplatedApp, type us_listen_socket } from './uws.ts';
import { dataFrame } from './ws/channels.ts';
import type { ExecutionConfig } from '../execution/types.ts';
import type { KillSwitch } from '../execution/kill-switch.ts';
import type { RouterClient } from '../execution/router/client.ts';
import type { QuoteService } from './market/quotes.ts';
import type { PredictionCatalog } from './market/prediction-catalog.ts';
import { OrderEvents } from './ws/order-events.ts';
import { orderRoutes } from './routes/orders.ts';
import { parentOrderRoutes } from './routes/parent-orders.ts';
import { positionRoutes, riskReadout } from './routes/positions.ts';
import { SseHub } from './http/sse.ts';
import { Sessions } from './auth/sessions.ts';
import type { MarketMemory } from './market/memory.ts';
import { dataRoutes } from './routes/data.ts';
import { historyRoutes } from './routes/history.ts';
import { marketRoutes } from './routes/market.ts';
import { quoteRoutes } from './routes/quotes.ts';
import { sandboxRoutes } from './routes/sandbox.ts';
import { predictionRoutes } from './routes/prediction.ts';
import { StreamServer } from './ws/stream.ts';
import { LifecycleServer } from './ws/lifecycle.ts';
import { LifecycleEvents } from './market/lifecycle-events.ts';
import { FundingFeed } from './market/funding-feed.ts';
import { walletRoutes } from './routes/wallets.ts';
import { dexRoutes } from './routes/dex.ts';
import { deploymentRoutes } from './routes/deployments.ts';
import type { DeploymentManager } from '../execution/deployments/manager.ts';
import type { TcaAggregates } from '../execution/analytics/tca-aggregates.ts';
import type { AlertBook } from '../execution/alerts/alert-book.ts';
import type { AlertEvent } from '../execution/alerts/types.ts';
import { alertRoutes } from './routes/alerts.ts';
import { analyticsRoutes } from './routes/analytics.ts';
import { dashboardAssets } from './dashboard/assets.ts';

export interface GatewayDeps {
  storage: Storage;
  topology: Topology;
  auth: Authenticator;
  log: Logger;
  logLevel: string;
  version: string;
  market: MarketMemory;
  quotes: QuoteService;
  prediction: PredictionCatalog;
  killSwitch: KillSwitch;
  /** The live venues' answers about stored keys (execution/credential-probes.ts). */
  credentialProbes: CredentialProbes;
  /** The routers, one message per call (execution/router/client.ts). */
  execution: RouterClient;
  executionConfig: ExecutionConfig;
  deployments: DeploymentManager;
  tcaAggregates: TcaAggregates;
  alerts: AlertBook;
  /** Among regions: the other regions' orders, for the global reads. */
  regions?: RegionReads | undefined;
}

/**
 * The gateway: HTTP, WebSocket and SSE on one uWS app, nothing else. Route modules are listed
 * once here; the router, the validators and the OpenAPI document are all derived from that
 * list. The service's parts are built and wired in `service.ts` and handed in.
 */
export class Gateway {
  readonly app: TemplatedApp;
  readonly context: GatewayContext;
  readonly router = new Router();
  /** The routers' order events to the private channels and the SSE streams. */
  readonly orderEvents: OrderEvents;
  readonly streams: GatewayContext['streams'];
  private readonly stream: StreamServer;
  /** The lifecycle sockets (new markets, resolutions) and their last-128 replay. */
  readonly lifecycle: LifecycleServer;
  /** Prediction-market lifecycle events to their streams (and, once durable, to positions). */
  readonly lifecycleEvents: LifecycleEvents;
  private readonly sessions: Sessions;
  /** The public half of the `funding` channel: rate changes read from the perp edges. */
  readonly fundingFeed: FundingFeed;
  private listenSocket: us_listen_socket | undefined;
  private readonly pipeline: HttpPipeline;

  constructor(deps: GatewayDeps) {
    this.app = uws.App();
    const limiter = new RateLimiter();
    const tickets = new TicketStore();
    const sessions = (this.sessions = new Sessions(tickets, (client, keyId) => deps.storage.apiKeys.get(client, keyId)?.is_active === true));
    this.stream = new StreamServer({ auth: deps.auth, tickets, limiter, log: deps.log, interest: new Int32Array(deps.market.interest), sessions });
    this.lifecycle = new LifecycleServer({ auth: deps.auth, tickets, limiter, log: deps.log, sessions });
    this.lifecycleEvents = new LifecycleEvents(this.lifecycle, deps.storage.marketResolutions, deps.log);
    deps.prediction.onChange(this.lifecycleEvents.onCatalogChange);
    const streams = (this.streams = { tca: new SseHub<{ node_order_id: string }>(), risk: new SseHub<Record<string, unknown>>(), alerts: new SseHub<AlertEvent>() });
    this.orderEvents = new OrderEvents(this.app, streams, (client, mode) => riskReadout(this.context, client, mode), deps.log);
    this.fundingFeed = new FundingFeed(this.app, deps.topology.endpoint, deps.log);
    this.context = {
      storage: deps.storage,
      topology: deps.topology,
      tickets,
      sessions,
      killSwitch: deps.killSwitch,
      credentialProbes: deps.credentialProbes,
      log: deps.log,
      version: deps.version,
      startedAtMs: Date.now(),
      broadcast: (channel, data) => this.broadcast(channel, data),
      wsConnections: () => this.stream.connectionCount,
      market: { memory: deps.market, quotes: deps.quotes, prediction: deps.prediction },
      execution: deps.execution,
      executionConfig: deps.executionConfig,
      deployments: deps.deployments,
      tcaAggregates: deps.tcaAggregates,
      alerts: deps.alerts,
      regions: deps.regions,
      streams,
    };

    const routes: RouteSpec[] = [
      ...healthRoutes(this.context),
      ...apiKeyRoutes(this.context),
      ...credentialRoutes(this.context),
      ...orderRoutes(this.context),
      ...parentOrderRoutes(this.context),
      ...positionRoutes(this.context),
      ...sandboxRoutes(this.context),
      ...predictionRoutes(this.context),
      ...walletRoutes(this.context),
      ...dexRoutes(this.context),
      ...deploymentRoutes(this.context),
      ...analyticsRoutes(this.context),
      ...alertRoutes(this.context),
      ...killSwitchRoutes(this.context),
      ...streamRoutes(this.context),
      ...marketRoutes(this.context),
      ...quoteRoutes(this.context),
      ...historyRoutes(this.context),
      ...dataRoutes(this.context),
    ];
    const openApiRoute: RouteSpec = {
      method: 'get',
      path: '/v1/openapi.json',
      operationId: 'getOpenApi',
      summary: 'This OpenAPI 3.1 document',
      tags: ['meta'],
      auth: 'public',
      responses: { 200: { description: 'OpenAPI 3.1 document', schema: OpenApiDocumentSchema } },
      handler: () => ({ status: 200, body: openApi }),
    };
    routes.push(openApiRoute);
    for (const route of routes) this.router.add(route);
    const openApi = buildOpenApi(this.router.routes);

    const pipeline = (this.pipeline = new HttpPipeline({
      router: this.router,
      auth: deps.auth,
      limiter,
      log: deps.log,
      requestLog: createRequestLogger(deps.logLevel),
      sessions,
      assets: dashboardAssets(),
    }));
    this.stream.attach(this.app);
    this.lifecycle.attach(this.app);
    this.app.any('/*', pipeline.handle);
  }

  /** Publishes a frame to every WebSocket subscribed to a channel (see ws/channels.ts). */
  /** A frame of `channel` to a private topic (privateTopic), when anyone subscribes to it. */
  publishTo(topic: string, channel: string, data: unknown): void {
    if (this.app.numSubscribers(topic) > 0) this.app.publish(topic, dataFrame(channel, data));
  }

  broadcast(channel: string, data: unknown): void {
    this.app.publish(channel, dataFrame(channel, data));
  }

  /** Listens on host:port (0 = ephemeral) and resolves with the bound port. */
  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.app.listen(host, port, (socket) => {
        if (!socket) {
          reject(new Error(`could not listen on ${host}:${port}`));
          return;
        }
        this.listenSocket = socket;
        resolve(uws.us_socket_local_port(socket));
      });
    });
  }

  /** Stops accepting connections; open ones are closed by `close()`. */
  stopListening(): void {
    if (this.listenSocket !== undefined) {
      uws.us_listen_socket_close(this.listenSocket);
      this.listenSocket = undefined;
    }
  }

  /**
   * Graceful close: stop listening, close every WebSocket with 1001 (going away), answer any
   * further request on open connections with 503, and wait (bounded) for requests under way,
   * so none of them meets a closed database.
   */
  async close(timeoutMs = 5_000): Promise<void> {
    this.fundingFeed.stop();
    this.stopListening();
    this.stream.closeAll();
    this.lifecycle.closeAll();
    this.sessions.close();
    await this.pipeline.drain(timeoutMs);
  }
}
