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
import { dataFrame } from './ws/channels.ts';
import type { ExecutionConfig } from '../execution/types.ts';
import { RouterClient } from '../execution/router/client.ts';
import { ORDER_EVENTS_TOPIC, ROUTER_UP_TOPIC, type OrderEvent } from '../execution/router/messages.ts';
import { OrderEvents } from './ws/order-events.ts';
import { orderRoutes } from './routes/orders.ts';
import { parentOrderRoutes } from './routes/parent-orders.ts';
import { positionRoutes, riskReadout } from './routes/positions.ts';
import { SseHub } from './http/sse.ts';
import { TAPE_TOPIC, type TapeBatch } from '../actors/edge/messages.ts';
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
  /** The kill switch's shared word, read by every router (the topology shares it as `halt`). */
  haltFlag: SharedArrayBuffer;
  execution: ExecutionConfig;
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
  readonly execution: RouterClient;

  constructor(deps: GatewayDeps) {
    this.app = uws.App();
    const limiter = new RateLimiter();
    const tickets = new TicketStore();
    this.stream = new StreamServer({ auth: deps.auth, tickets, limiter, log: deps.log, interest: new Int32Array(deps.market.interest) });
    this.tape = new TapeWriter(deps.storage, deps.log);
    const killSwitch = new KillSwitch(deps.storage.meta, deps.haltFlag);
    const quotes = new QuoteService(deps.market, deps.topology.endpoint);
    const executionConfig = deps.execution;
    const streams = { tca: new SseHub<{ node_order_id: string }>(), risk: new SseHub<Record<string, unknown>>() };
    const execution = (this.execution = new RouterClient(deps.topology.endpoint, deps.log));
    const events = new OrderEvents(this.app, streams, (client, mode) => riskReadout(this.context, client, mode), deps.log);
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
    // A router learns of its client's credentials from here (the row is durable first), and
    // opens the simulated venue account and probes the fee tier itself.
    deps.storage.credentials.onStored((event) => {
      execution.credentialsChanged(event, event.venue, true).catch((err: unknown) => deps.log.error({ err }, 'sim account not opened'));
    });
    deps.storage.credentials.onRemoved((event) => {
      execution.credentialsChanged(event, event.venue, false).catch((err: unknown) => deps.log.error({ err }, 'router not told of removed credentials'));
    });
    killSwitch.onChange((state) => {
      streams.risk.publishAll('risk', { kill_switch: state, as_of_ns: Date.now() * 1_000_000 });
      if (state.active) execution.haltAll().catch((err: unknown) => deps.log.error({ err }, 'halt failed'));
    });
    killSwitch.onChange((state) => this.context.broadcast('system', { event: 'kill_switch', ...state }));
    deps.topology.onReadyChange((ready) => this.context.broadcast('system', { event: 'readiness', ready }));
    deps.topology.endpoint.onPublish((topic, payload) => {
      if (topic === TAPE_TOPIC) this.tape.onBatch(payload as TapeBatch);
      else if (topic === ORDER_EVENTS_TOPIC) events.publish(payload as OrderEvent);
      else if (topic === ROUTER_UP_TOPIC) execution.noteRouter(payload as string);
      else this.context.broadcast(topic, payload);
    });
    this.tape.start();

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
