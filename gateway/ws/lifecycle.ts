import type { Principal } from '../auth/principal.ts';
import type { Sessions } from '../auth/sessions.ts';
import { uws, type HttpRequest, type HttpResponse, type TemplatedApp, type WebSocket } from '../uws.ts';
import { ReplayFeed } from './replay-feed.ts';
import { MAX_BACKPRESSURE_BYTES } from './stream.ts';
import { authenticatedUpgrade, type UpgradeDeps } from './upgrade.ts';

export const LIFECYCLE_STREAMS = { new_markets: '/v1/ws/new_markets', market_resolved: '/v1/ws/market_resolved' } as const;
export type LifecycleStream = keyof typeof LIFECYCLE_STREAMS;

interface LifecycleUser {
  principal: Principal;
  forget: () => void;
}

/**
 * The prediction-market lifecycle WebSockets (spec, Events): `/v1/ws/new_markets` and
 * `/v1/ws/market_resolved`, authenticated as `/v1/stream` is. Each sends one JSON frame per
 * event: on connect the last 128 (oldest first), then live, each event once. Replay and the
 * live subscription happen in one turn of the gateway thread, the only publisher, so no event
 * falls between them or comes twice.
 */
export class LifecycleServer {
  readonly feeds: Record<LifecycleStream, ReplayFeed> = { new_markets: new ReplayFeed(), market_resolved: new ReplayFeed() };
  private app: TemplatedApp | undefined;
  private readonly sockets = new Set<WebSocket<LifecycleUser>>();
  private nextId = 0;

  constructor(private readonly deps: UpgradeDeps & { sessions?: Sessions }) {}

  attach(app: TemplatedApp): void {
    this.app = app;
    for (const stream of Object.keys(LIFECYCLE_STREAMS) as LifecycleStream[]) {
      app.ws<LifecycleUser>(LIFECYCLE_STREAMS[stream], {
        compression: uws.DISABLED,
        maxPayloadLength: 4 * 1024,
        maxBackpressure: MAX_BACKPRESSURE_BYTES,
        closeOnBackpressureLimit: 1,
        idleTimeout: 120,
        sendPingsAutomatically: true,
        upgrade: (res: HttpResponse, req: HttpRequest, context) =>
          authenticatedUpgrade(this.deps, res, req, context, () => `ws_lc_${(this.nextId++).toString(36)}`, (principal): LifecycleUser => ({ principal, forget: () => {} })),
        open: (ws) => {
          this.sockets.add(ws);
          const user = ws.getUserData();
          if (this.deps.sessions !== undefined) user.forget = this.deps.sessions.open(user.principal, (why) => ws.end(why.code, why.reason));
          ws.cork(() => {
            for (const frame of this.feeds[stream].replay()) ws.send(frame);
          });
          ws.subscribe(this.topic(stream));
        },
        // Nothing to say to these streams: what a client sends is ignored.
        message: () => {},
        close: (ws) => {
          this.sockets.delete(ws);
          ws.getUserData().forget();
        },
      });
    }
  }

  private observed: ((stream: LifecycleStream, key: string, frame: string) => void) | undefined;

  /**
   * Among regions: told each event this node observed first-hand (not those `fromRegions`), to
   * write it to the regions' lifecycle stream, which stores an event several regions observe once.
   */
  onObserved(listener: (stream: LifecycleStream, key: string, frame: string) => void): void {
    this.observed = listener;
  }

  /**
   * Sends an event to the stream's subscribers unless its key was seen; true when sent (or kept
   * for replay). `fromRegions`: read from the regions' stream (another region observed it, or
   * this node before a restart), so not written there again.
   */
  publish(stream: LifecycleStream, key: string, frame: string, fromRegions = false): boolean {
    if (!this.feeds[stream].offer(key, frame)) return false;
    this.app?.publish(this.topic(stream), frame);
    if (!fromRegions) this.observed?.(stream, key, frame);
    return true;
  }

  closeAll(): void {
    for (const ws of [...this.sockets]) ws.end(1001, 'server shutting down');
  }

  private topic(stream: LifecycleStream): string {
    return `$lifecycle:${stream}`;
  }
}
