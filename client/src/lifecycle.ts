import WebSocket from 'ws';
import { ApiError } from './errors.ts';
import type { ServiceClient } from './index.ts';
import { parseExact } from './json.ts';
import type { components, paths } from './schema.ts';
import { reconnectDelayMs, ticketUrl } from './stream.ts';

/** The prediction-market lifecycle WebSockets (spec, Events) and what each sends, from the service's document. */
export interface LifecycleEvents {
  new_markets: components['schemas']['NewMarketEvent'];
  market_resolved: components['schemas']['MarketResolvedEvent'];
}
export type LifecycleStream = keyof LifecycleEvents;

const PATHS = { new_markets: '/v1/ws/new_markets', market_resolved: '/v1/ws/market_resolved' } as const satisfies Record<LifecycleStream, keyof paths>;

/** How many event keys are remembered: far more than the 128 a reconnect replays, so a replayed event is always told. */
const REMEMBERED = 4_096;
/** The close code of a revoked key or an expired token (spec, Authentication): connecting again cannot help. */
const CREDENTIAL_ENDED = 4401;

export interface LifecycleOptions<S extends LifecycleStream> {
  /** the typed client (its key authenticates the ticket request) */
  client: ServiceClient;
  /** the service, as given to the client (`http://...`) */
  baseUrl: string;
  stream: S;
  onEvent(event: LifecycleEvents[S]): void;
  /** the connection opened (again) or closed; `retryInMs` when a reconnect follows */
  onState?(state: 'open' | 'closed', detail: { reason: string; retryInMs?: number }): void;
  /**
   * After a reconnect, the first event is not one already delivered: the replay does not reach
   * back to what this client saw (more than 128 events came while it was away, or the service
   * restarted without them), so events may be missing. Read the markets over REST
   * (`GET /v1/markets`, `GET /v1/settlement/{slug}`) to catch up.
   */
  onGap?(detail: { first: LifecycleEvents[S] }): void;
}

/**
 * A prediction lifecycle socket (`/v1/ws/new_markets` or `/v1/ws/market_resolved`) kept open.
 * Authenticated as `/v1/stream` is, with a single-use ticket per connection; reconnects with
 * backoff (250 ms doubling to 10 s, full jitter) when the connection drops or the service
 * restarts, and stops when the service ends it for a revoked or expired credential (4401) or
 * refuses the ticket (401). The service replays its last 128 events on every connect, so a
 * reconnect resumes from that replay: each event is delivered once, told by the key the service
 * itself dedupes by (venue and slug, the market id).
 */
export class PredictionLifecycle<S extends LifecycleStream> {
  private socket: WebSocket | undefined;
  private closed = true;
  private attempts = 0;
  private retry: NodeJS.Timeout | undefined;
  private openedOnce = false;
  /** Keys of the events delivered, oldest first (a Set keeps insertion order). */
  private readonly delivered = new Set<string>();
  /** A reconnect's first event is still to come: it tells whether the replay overlapped. */
  private checkGap = false;

  constructor(private readonly options: LifecycleOptions<S>) {}

  /** Opens the socket; resolves once it is open, rejects (and stays closed) when the first attempt fails. */
  async connect(): Promise<void> {
    this.closed = false;
    try {
      await this.dial(await this.url());
    } catch (err) {
      this.close();
      throw err;
    }
  }

  close(): void {
    this.closed = true;
    if (this.retry !== undefined) clearTimeout(this.retry);
    this.socket?.close(1000, 'client closed');
    this.socket = undefined;
  }

  private url(): Promise<string> {
    return ticketUrl(this.options.client, this.options.baseUrl, PATHS[this.options.stream]);
  }

  private dial(url: string): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const socket = new WebSocket(url, { handshakeTimeout: 10_000 });
      this.socket = socket;
      let opened = false;
      socket.once('open', () => {
        opened = true;
        this.attempts = 0;
        this.checkGap = this.openedOnce && this.delivered.size > 0;
        this.options.onState?.('open', { reason: this.openedOnce ? 'reconnected' : 'connected' });
        this.openedOnce = true;
        resolve();
      });
      socket.on('message', (data: WebSocket.RawData) => {
        if (this.socket === socket) this.onMessage(data.toString());
      });
      // An error before the open fails it; one after is followed by the close, which reconnects.
      socket.on('error', (err) => {
        if (!opened) reject(err);
      });
      socket.once('close', (code, reason) => {
        if (this.socket === socket) this.socket = undefined;
        const why = `closed (${code}${reason.length > 0 ? ` ${reason.toString()}` : ''})`;
        if (code === CREDENTIAL_ENDED) this.closed = true;
        // A first connect that failed is the caller's to retry (connect rejected); later ones are ours.
        if (this.openedOnce) this.reconnect(why);
      });
    });
  }

  private reconnect(reason: string): void {
    if (this.closed) {
      this.options.onState?.('closed', { reason });
      return;
    }
    const retryInMs = reconnectDelayMs(this.attempts++);
    this.options.onState?.('closed', { reason, retryInMs });
    this.retry = setTimeout(() => {
      this.url().then(
        (url) => this.dial(url).catch(() => undefined),
        (err: unknown) => {
          if (err instanceof ApiError && err.status === 401) this.closed = true;
          this.reconnect(`no ticket: ${(err as Error).message}`);
        },
      );
    }, retryInMs);
  }

  private onMessage(text: string): void {
    if (this.closed) return;
    let event: LifecycleEvents[S];
    try {
      event = parseExact(text) as LifecycleEvents[S];
    } catch {
      return;
    }
    const key = `${event.venue}:${event.slug}`;
    const seen = this.delivered.has(key);
    if (this.checkGap) {
      this.checkGap = false;
      if (!seen) this.options.onGap?.({ first: event });
    }
    if (seen) return;
    this.delivered.add(key);
    if (this.delivered.size > REMEMBERED) this.delivered.delete(this.delivered.values().next().value!);
    this.options.onEvent(event);
  }
}
