import WebSocket from 'ws';
import type { FrameOf, TypedChannel } from './channels.ts';
import { ok } from './errors.ts';
import type { ServiceClient } from './index.ts';
import { parseExact } from './json.ts';
import type { paths } from './schema.ts';

/**
 * The channels of `/v1/stream` (spec, Streams): market channels by symbol or underlying, the
 * client's own `orders`, `fills`, `routing`, `tca`, `funding` (channels.ts types each one's
 * frames); any other name is accepted as a string.
 */
export type Channel = TypedChannel | (string & {});

/**
 * What a stream delivers: the service's data frames, a quote snapshot sent by the client when a
 * `prices:` channel is subscribed (a quiet market stays silent until it moves), and, after a
 * reconnect, the `orders`/`fills` events missed while away, read back over REST (`resumed: true`).
 */
export interface StreamFrame {
  type: 'data' | 'snapshot';
  channel: string;
  ts_ns: number;
  data: unknown;
  resumed?: boolean;
}

export interface StreamOptions {
  /** the typed client (its key authenticates the ticket request) */
  client: ServiceClient;
  /** the service, as given to the client (`http://...`; the stream is `ws://.../v1/stream`) */
  baseUrl: string;
  /** every frame of every channel; `on(channel, ...)` gives one channel's frames typed */
  onFrame?(frame: StreamFrame): void;
  /** the connection opened (again) or closed; `retryInMs` when a reconnect follows */
  onState?(state: 'open' | 'closed', detail: { reason: string; retryInMs?: number }): void;
}

/** Reconnect backoff: 250 ms doubling to 10 s, full jitter, reset by a connection that opened. */
const BACKOFF_MIN_MS = 250;
const BACKOFF_MAX_MS = 10_000;

/** How long to wait before reconnect attempt `attempts` (0 first): the backoff above. */
export function reconnectDelayMs(attempts: number): number {
  return Math.round(Math.random() * Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** attempts));
}

/**
 * The `ws://` URL of one of the service's WebSockets with a fresh single-use ticket
 * (`GET /v1/ws/ticket`, spec Authentication 6): the key never travels in a URL.
 */
export async function ticketUrl(client: ServiceClient, baseUrl: string, path: keyof paths): Promise<string> {
  const { ticket } = ok(await client.GET('/v1/ws/ticket'));
  return `${baseUrl.replace(/^http/, 'ws').replace(/\/+$/, '')}${path}?ticket=${encodeURIComponent(ticket)}`;
}

/** How many order and fill ids a stream remembers to tell a resumed event from one already delivered. */
const REMEMBERED = 10_000;
/** The most recent orders and fills read back after a reconnect. */
const RESUME_PAGE = 200;

/**
 * The unified WebSocket, kept open: a single-use ticket per connection (`GET /v1/ws/ticket`, then
 * `?ticket=`: the key never travels in a URL), every channel subscribed again after a
 * reconnect, and no order or fill event lost or delivered twice across one. The service does
 * not replay private channels, so after a reconnect the client reads the most recent orders and
 * fills over REST and delivers those it has not delivered (an order by its `updated_unix_ns`, a
 * fill by its id); live frames pass the same check, so one that arrives both ways is delivered once.
 */
export class ServiceStream {
  private readonly channels = new Set<string>();
  /** channel -> its typed listeners (`on`) */
  private readonly listeners = new Map<string, Set<(frame: StreamFrame) => void>>();
  private socket: WebSocket | undefined;
  private attempts = 0;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  /** node_order_id -> the `updated_unix_ns` of the last state delivered */
  private readonly orders = new Map<string, number>();
  private readonly fills = new Set<string>();
  /** Connected before: the next open is a reconnect, which resumes. */
  private openedOnce = false;
  /** When the stream first opened (ns): what changed before is history, not a missed event. */
  private sinceNs = 0;

  constructor(private readonly options: StreamOptions) {}

  /** Opens the stream; resolves once the first connection is open. */
  connect(): Promise<void> {
    this.closed = false;
    return this.open();
  }

  /** Subscribes channels now (when open) and after every reconnect. */
  subscribe(channels: readonly Channel[]): void {
    const fresh = channels.filter((c) => !this.channels.has(c));
    for (const c of fresh) this.channels.add(c);
    if (fresh.length > 0 && this.socket?.readyState === WebSocket.OPEN) void this.join(this.socket, fresh);
  }

  /**
   * Subscribes `channel` and calls `listener` with each of its frames, typed by the channel
   * (channels.ts): `stream.on('book:BTC-USDT', (f) => f.data.bids[0])`. A `prices:` listener
   * gets the quote snapshot first. Returns what removes the listener; the channel stays
   * subscribed until `unsubscribe`.
   */
  on<C extends TypedChannel>(channel: C, listener: (frame: FrameOf<C>) => void): () => void {
    // The service sends a channel only frames of its documented shape: FrameOf<C>.
    const untyped = listener as (frame: StreamFrame) => void;
    let set = this.listeners.get(channel);
    if (set === undefined) this.listeners.set(channel, (set = new Set()));
    set.add(untyped);
    this.subscribe([channel]);
    return () => {
      set.delete(untyped);
      if (set.size === 0 && this.listeners.get(channel) === set) this.listeners.delete(channel);
    };
  }

  unsubscribe(channels: readonly Channel[]): void {
    for (const c of channels) this.channels.delete(c);
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ unsubscribe: channels }));
  }

  close(): void {
    this.closed = true;
    if (this.retry !== undefined) clearTimeout(this.retry);
    this.socket?.close(1000, 'client closed');
    this.socket = undefined;
  }

  private async open(): Promise<void> {
    return this.dial(await ticketUrl(this.options.client, this.options.baseUrl, '/v1/stream'));
  }

  /** Opens the socket; once created, its close (a failed open too) schedules the next attempt. */
  private dial(url: string): Promise<void> {
    // Closed while the ticket was being fetched: no socket to open.
    if (this.closed) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const socket = new WebSocket(url, { handshakeTimeout: 10_000 });
      this.socket = socket;
      socket.once('open', () => {
        this.attempts = 0;
        const resumed = this.openedOnce;
        this.openedOnce = true;
        if (!resumed) this.sinceNs = Date.now() * 1_000_000;
        const channels = [...this.channels];
        this.options.onState?.('open', { reason: resumed ? 'reconnected' : 'connected' });
        void this.join(socket, channels);
        if (resumed) void this.resume().catch(() => undefined);
        resolve();
      });
      socket.on('message', (data: WebSocket.RawData) => this.onMessage(data.toString()));
      socket.once('error', (err) => {
        if (socket.readyState !== WebSocket.OPEN) reject(err);
      });
      socket.once('close', (code, reason) => {
        if (this.socket === socket) this.socket = undefined;
        this.reconnect(`closed (${code}${reason.length > 0 ? ` ${reason.toString()}` : ''})`);
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
      // A socket that fails to open closes and schedules the next attempt itself; a ticket that
      // could not be had (the service still down past the client's retries) has no socket to.
      ticketUrl(this.options.client, this.options.baseUrl, '/v1/stream').then(
        (url) => this.dial(url).catch(() => undefined),
        (err: unknown) => this.reconnect(`no ticket: ${(err as Error).message}`),
      );
    }, retryInMs);
  }

  private onMessage(text: string): void {
    // A closed stream delivers nothing more, even what was in flight on the closing socket: a
    // later `connect()` reads it back.
    if (this.closed) return;
    let frame: StreamFrame;
    try {
      frame = parseExact(text) as StreamFrame;
    } catch {
      return;
    }
    if (frame.type !== 'data') return;
    this.deliver(frame);
  }

  /** Delivers a frame unless it is an order state or a fill already delivered. */
  private deliver(frame: StreamFrame): void {
    if (frame.channel === 'orders') {
      const o = frame.data as { node_order_id?: string; updated_unix_ns?: number };
      if (o.node_order_id !== undefined && o.updated_unix_ns !== undefined) {
        const seen = this.orders.get(o.node_order_id);
        if (seen !== undefined && seen >= o.updated_unix_ns) return;
        remember(this.orders, o.node_order_id, o.updated_unix_ns);
      }
    } else if (frame.channel === 'fills') {
      const id = (frame.data as { fill_id?: string }).fill_id;
      if (id !== undefined) {
        if (this.fills.has(id)) return;
        this.fills.add(id);
        if (this.fills.size > REMEMBERED) this.fills.delete(this.fills.values().next().value!);
      }
    }
    this.emit(frame);
  }

  private emit(frame: StreamFrame): void {
    this.options.onFrame?.(frame);
    const listeners = this.listeners.get(frame.channel);
    if (listeners !== undefined) for (const listener of listeners) listener(frame);
  }

  /**
   * Subscribes channels on a socket. A `prices:` channel is joined after its quote was read and
   * delivered as a snapshot, so the snapshot is its first frame: the channel carries the whole
   * NBBO each time it moves, so a move between the read and the join is told by the next one.
   */
  private async join(socket: WebSocket, channels: readonly string[]): Promise<void> {
    const prices = channels.filter((c) => c.startsWith('prices:'));
    const others = channels.filter((c) => !c.startsWith('prices:'));
    if (others.length > 0) socket.send(JSON.stringify({ subscribe: others }));
    for (const channel of prices) {
      const answer = await this.options.client.GET('/v1/quotes/{symbol}', { params: { path: { symbol: channel.slice('prices:'.length) } } }).catch(() => undefined);
      if (answer?.data !== undefined && !this.closed) this.emit({ type: 'snapshot', channel, ts_ns: Date.now() * 1_000_000, data: answer.data });
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ subscribe: [channel] }));
    }
  }

  /** After a reconnect: the orders and fills that changed while away, read back and delivered once. */
  private async resume(): Promise<void> {
    const now = Date.now() * 1_000_000;
    if (this.channels.has('orders')) {
      const page = ok(await this.options.client.GET('/v1/orders', { params: { query: { limit: RESUME_PAGE } } }));
      for (const order of [...page.orders].reverse()) {
        if (order.updated_unix_ns >= this.sinceNs) this.deliver({ type: 'data', channel: 'orders', ts_ns: now, data: order, resumed: true });
      }
    }
    if (this.channels.has('fills')) {
      const page = ok(await this.options.client.GET('/v1/fills', { params: { query: { limit: RESUME_PAGE } } }));
      for (const fill of [...page.fills].reverse()) {
        if (fill.ts_unix_ns >= this.sinceNs) this.deliver({ type: 'data', channel: 'fills', ts_ns: now, data: fill, resumed: true });
      }
    }
  }
}

function remember(map: Map<string, number>, key: string, value: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > REMEMBERED) map.delete(map.keys().next().value!);
}
