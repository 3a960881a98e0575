import WebSocket from 'ws';

export interface StreamHandlers {
  /** the socket is open (again): subscribe */
  onOpen(send: (text: string) => void): void;
  onMessage(text: string): void;
  /** the socket closed or went silent; a reconnect follows after `retryInMs` */
  onDown(reason: string, retryInMs: number): void;
}

/** A connection's URL and the headers its handshake carries (a signature made for it). */
export interface StreamConnection {
  url: string;
  headers: Record<string, string>;
}

/** Reconnect backoff: 250 ms doubling to 30 s, with jitter, reset once a connection lived a minute. */
const BACKOFF_MIN_MS = 250;
const BACKOFF_MAX_MS = 30_000;
const HEALTHY_AFTER_MS = 60_000;

/**
 * A venue's public or private WebSocket, kept open: reconnects with backoff after a close, an
 * error or `staleMs` without a frame (a silent socket is a dead one to a book), and answers the
 * venue's pings (the `ws` library pongs on its own). Everything it hears goes to `handlers`; it
 * keeps no venue state, so a reconnect means the handlers resubscribe and resync.
 */
export class VenueStream {
  private socket: WebSocket | undefined;
  private attempts = 0;
  private openedAt = 0;
  private lastFrameAt = 0;
  private stopped = false;
  private watchdog: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;

  private keepalive: NodeJS.Timeout | undefined;

  constructor(
    /**
     * the stream's URL, or how to get one per connection: KuCoin's carries a token from a REST
     * call; Kalshi signs each handshake, so its connection comes with headers
     */
    private readonly url: string | (() => Promise<string | StreamConnection>),
    private readonly handlers: StreamHandlers,
    private readonly staleMs = 30_000,
    /** a text ping the venue wants when the socket is quiet (OKX: `ping` within 30 s; a function for a ping that carries an id) */
    private readonly ping?: { text: string | (() => string); everyMs: number },
  ) {}

  start(): void {
    this.stopped = false;
    this.connect();
    this.watchdog = setInterval(() => {
      if (this.socket?.readyState === WebSocket.OPEN && Date.now() - this.lastFrameAt > this.staleMs) this.drop('stale: no frame');
    }, Math.min(1_000, this.staleMs));
    this.watchdog.unref();
    if (this.ping !== undefined) {
      const ping = this.ping;
      this.keepalive = setInterval(() => {
        if (Date.now() - this.lastFrameAt >= ping.everyMs) this.send(typeof ping.text === 'string' ? ping.text : ping.text());
      }, Math.max(1_000, ping.everyMs / 4));
      this.keepalive.unref();
    }
  }

  stop(): void {
    this.stopped = true;
    if (this.watchdog !== undefined) clearInterval(this.watchdog);
    if (this.keepalive !== undefined) clearInterval(this.keepalive);
    if (this.retry !== undefined) clearTimeout(this.retry);
    this.socket?.terminate();
    this.socket = undefined;
  }

  send(text: string): boolean {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(text);
    return true;
  }

  /** Closes the socket and reconnects after the backoff (a gap the venue cannot heal in-stream). */
  drop(reason: string): void {
    const socket = this.socket;
    if (socket === undefined) return;
    this.socket = undefined;
    socket.removeAllListeners();
    socket.on('error', () => {});
    socket.terminate();
    this.down(reason);
  }

  private connect(): void {
    if (this.stopped) return;
    if (typeof this.url === 'string') {
      this.open(this.url);
      return;
    }
    // A URL that could not be had (the venue's token endpoint down) is a failed connect: backoff.
    this.url().then(
      (to) => {
        if (this.stopped) return;
        if (typeof to === 'string') this.open(to);
        else this.open(to.url, to.headers);
      },
      (err: unknown) => this.down(`no stream URL: ${(err as Error).message}`),
    );
  }

  private open(url: string, headers?: Record<string, string>): void {
    const socket = new WebSocket(url, { handshakeTimeout: 10_000, ...(headers === undefined ? {} : { headers }) });
    this.socket = socket;
    socket.on('open', () => {
      this.openedAt = Date.now();
      this.lastFrameAt = this.openedAt;
      this.handlers.onOpen((text) => void this.send(text));
    });
    socket.on('message', (data: WebSocket.RawData) => {
      this.lastFrameAt = Date.now();
      try {
        this.handlers.onMessage(data.toString());
      } catch (err) {
        // A frame the handlers choke on must not take the process down: drop the connection,
        // which resyncs every book.
        this.drop(`frame not handled: ${(err as Error).message}`);
      }
    });
    socket.on('ping', () => {
      this.lastFrameAt = Date.now();
    });
    socket.on('error', () => {});
    socket.on('close', (code: number) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.down(`closed (${code})`);
    });
  }

  private down(reason: string): void {
    if (this.stopped) return;
    // Only a connection that lived a while resets the backoff; a failed connect must not.
    if (this.openedAt > 0 && Date.now() - this.openedAt > HEALTHY_AFTER_MS) this.attempts = 0;
    this.openedAt = 0;
    const base = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** this.attempts);
    const retryInMs = Math.round(base / 2 + Math.random() * (base / 2));
    this.attempts++;
    this.handlers.onDown(reason, retryInMs);
    this.retry = setTimeout(() => this.connect(), retryInMs);
    this.retry.unref();
  }
}
