import type { Logger } from '../engine/actor.ts';
import { createRequestLogger } from '../engine/log.ts';
import type { Topology } from '../engine/topology.ts';
import type { Storage } from '../storage/index.ts';
import type { Authenticator } from './auth/authenticator.ts';
import { TicketStore } from './auth/tickets.ts';
import type { GatewayContext } from './context.ts';
import type { RouteSpec } from './http/route.ts';
import { HttpPipeline } from './http/pipeline.ts';
import { Router } from './http/router.ts';
import { KillSwitch } from '../execution/kill-switch.ts';
import { buildOpenApi } from './openapi.ts';
import { RateLimiter } from './rate-limit/limiter.ts';
import { apiKeyRoutes } from './routes/api-keys.ts';
import { credentialRoutes } from './routes/credentials.ts';
import { healthRoutes } from './routes/health.ts';
import { killSwitchRoutes } from './routes/kill-switch.ts';
import { streamRoutes } from './routes/stream.ts';
import { uws, type TemplatedApp, type us_listen_socket } from './uws.ts';
import { dataFrame, privateTopic } from './ws/channels.ts';
import { ExecutionService, type ExecutionConfig } from '../execution/service.ts';
import { orderRoutes } from './routes/orders.ts';
import { parentOrderRoutes } from './routes/parent-orders.ts';
import { positionRoutes, riskReadout } from './routes/positions.ts';
import { VenueBooks } from '../execution/views.ts';
import { FeeTiers } from '../execution/fee-tiers.ts';
import { DepthCacheReader } from '../actors/edge/depth-cache.ts';
import { SseHub } from './http/sse.ts';
import { EXEC_TOPIC, TAPE_TOPIC, type MakerFill, type TapeBatch } from '../actors/edge/messages.ts';
import type { MarketMemory } from './market/memory.ts';
import { QuoteService } from './market/quotes.ts';
import { TapeWriter } from './market/tape-writer.ts';
import { dataRoutes } from './routes/data.ts';
import { historyRoutes } from './routes/history.ts';
import { marketRoutes } from './routes/market.ts';
import { quoteRoutes } from './routes/quotes.ts';
import { StreamServer } from './ws/stream.ts';

export interface GatewayDeps {
  storage: Storage;
  topology: Topology;
  auth: Authenticator;
  log: Logger;
  logLevel: string;
  version: string;
  market: MarketMemory;
  execution?: Partial<ExecutionConfig>;
}

/**
 * The gateway: one uWS app serving the REST routes through the HTTP pipeline and the unified
 * WebSocket. Route modules are listed once here; the router, the validators and the OpenAPI
 * document are all derived from that list.
 */
export class Gateway {
  readonly app: TemplatedApp;
  readonly context: GatewayContext;
  readonly router = new Router();
  private readonly stream: StreamServer;
  private listenSocket: us_listen_socket | undefined;
  private readonly pipeline: HttpPipeline;
  private readonly tape: TapeWriter;
  readonly execution: ExecutionService;

  constructor(deps: GatewayDeps) {
    this.app = uws.App();
    const limiter = new RateLimiter();
    const tickets = new TicketStore();
    this.stream = new StreamServer({ auth: deps.auth, tickets, limiter, log: deps.log, interest: new Int32Array(deps.market.interest) });
    this.tape = new TapeWriter(deps.storage, deps.log);
    const killSwitch = new KillSwitch(deps.storage.meta);
    const quotes = new QuoteService(deps.market, deps.topology.endpoint);
    const executionConfig: ExecutionConfig = {
      maxOrderNotionalUsd1e9: 1_000_000 * 1e9,
      simAccountUsd: 100_000,
      ...deps.execution,
    };
    const streams = { tca: new SseHub<{ node_order_id: string }>(), risk: new SseHub<Record<string, unknown>>() };
    const feeTiers = new FeeTiers(deps.topology.endpoint, deps.log);
    const execution = (this.execution = new ExecutionService(
      deps.storage,
      deps.topology.endpoint,
      new VenueBooks(deps.topology.endpoint, new DepthCacheReader(deps.market.depth)),
      feeTiers,
      quotes,
      killSwitch,
      (client, mode) => deps.storage.credentials.venueSet(client, mode),
      {
        wants: (channel, client, mode) => {
          const key = `${client}|${mode}`;
          if (channel === 'tca' && streams.tca.has(key)) return true;
          if (channel === 'orders' && streams.risk.has(key)) return true;
          return this.app.numSubscribers(privateTopic(channel, { client_id: client, mode })) > 0;
        },
        publish: (channel, client, mode, data) => {
          const key = `${client}|${mode}`;
          if (channel === 'tca') streams.tca.publish(key, 'tca_report', data as { node_order_id: string });
          if (channel === 'orders' && streams.risk.has(key) && (data as { engine_phase?: string }).engine_phase === 'done') {
            streams.risk.publish(key, 'risk', riskReadout(this.context, client, mode));
          }
          const topic = privateTopic(channel, { client_id: client, mode });
          if (this.app.numSubscribers(topic) > 0) this.app.publish(topic, dataFrame(channel, data));
        },
      },
      executionConfig,
      deps.log,
    ));
    this.context = {
      storage: deps.storage,
      topology: deps.topology,
      tickets,
      killSwitch,
      log: deps.log,
      version: deps.version,
      startedAtMs: Date.now(),
      broadcast: (channel, data) => {
        this.app.publish(channel, dataFrame(channel, data));
      },
      wsConnections: () => this.stream.connectionCount,
      market: { memory: deps.market, quotes },
      execution,
      executionConfig,
      streams,
    };
    deps.storage.credentials.onStored((event) => {
      // The ledger is seeded synchronously; only its persistence is awaited in the background.
      execution.openSimAccount(event.client_id, event.mode, event.venue).catch((err: unknown) => deps.log.error({ err }, 'sim account not opened'));
      // The fee tier is probed in the background; until it answers, the default schedule routes.
      void feeTiers.probe(event.client_id, event.mode, event.venue);
    });
    killSwitch.onChange((state) => {
      streams.risk.publishAll('risk', { kill_switch: state, as_of_ns: Date.now() * 1_000_000 });
      if (state.active) execution.haltAll().catch((err: unknown) => deps.log.error({ err }, 'halt failed'));
    });
    killSwitch.onChange((state) => this.context.broadcast('system', { event: 'kill_switch', ...state }));
    deps.topology.onReadyChange((ready) => this.context.broadcast('system', { event: 'readiness', ready }));
    deps.topology.endpoint.onPublish((topic, payload) => {
      if (topic === TAPE_TOPIC) this.tape.onBatch(payload as TapeBatch);
      else if (topic === EXEC_TOPIC) execution.onMakerFill(payload as MakerFill);
      else this.context.broadcast(topic, payload);
    });
    this.tape.start();
    execution.start();

    const routes: RouteSpec[] = [
      ...healthRoutes(this.context),
      ...apiKeyRoutes(this.context),
      ...credentialRoutes(this.context),
      ...orderRoutes(this.context),
      ...parentOrderRoutes(this.context),
      ...positionRoutes(this.context),
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
      responses: { 200: { description: 'OpenAPI 3.1 document' } },
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
    }));
    this.stream.attach(this.app);
    this.app.any('/*', pipeline.handle);
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
    this.stopListening();
    this.stream.closeAll();
    this.tape.stop();
    await this.pipeline.drain(timeoutMs);
    await this.execution.drain();
  }
}
