import { parseExact } from './json.ts';

/** One server-sent event: its name, its data parsed (exact integers, json.ts) and its id when the stream gives one. */
export interface ServerEvent {
  event: string;
  id: string | undefined;
  data: unknown;
}

/** The service's SSE streams (spec, Streams). */
export type EventStreamPath = '/v1/tca/stream' | '/v1/risk/stream' | '/v1/alerts/stream' | (string & {});

export interface EventsOptions {
  baseUrl: string;
  apiKey: string;
  path: EventStreamPath;
  onEvent(event: ServerEvent): void;
  /** the stream opened (again) or ended; `retryInMs` when a reconnect follows */
  onState?(state: 'open' | 'closed', detail: { reason: string; retryInMs?: number }): void;
  /** resume after this event id (a stored `Last-Event-ID`) */
  lastEventId?: string;
  /** the transport (tests, proxies) */
  fetch?: typeof fetch;
}

/** The `end` event's code when the service shuts down (a WebSocket's going-away). */
const SHUTTING_DOWN = 1001;
const BACKOFF_MIN_MS = 250;
const BACKOFF_MAX_MS = 10_000;

/**
 * A server-sent-event stream kept open: reconnects with backoff (or the `retry:` the stream
 * names) and, on a resumable stream (`/v1/alerts/stream`), sends the id of the last event it
 * delivered as `Last-Event-ID`, so the service sends what came after it first, each once, then
 * the live ones. The key goes in the Authorization header, never in the URL.
 */
export class ServiceEvents {
  private abort: AbortController | undefined;
  private closed = false;
  private attempts = 0;
  private retryMs: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastId: string | undefined;

  constructor(private readonly options: EventsOptions) {
    this.lastId = options.lastEventId;
  }

  /** The id of the last event delivered: store it to resume a later stream from there. */
  get lastEventId(): string | undefined {
    return this.lastId;
  }

  /** Opens the stream; resolves once the first connection answered 200. */
  async connect(): Promise<void> {
    this.closed = false;
    const body = await this.open();
    void this.read(body);
  }

  close(): void {
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.abort?.abort();
    this.abort = undefined;
  }

  private async open(): Promise<ReadableStream<Uint8Array>> {
    this.abort = new AbortController();
    const headers: Record<string, string> = { authorization: `Bearer ${this.options.apiKey}`, accept: 'text/event-stream' };
    if (this.lastId !== undefined) headers['last-event-id'] = this.lastId;
    const res = await (this.options.fetch ?? fetch)(`${this.options.baseUrl.replace(/\/+$/, '')}${this.options.path}`, { headers, signal: this.abort.signal });
    if (res.status !== 200 || res.body === null) {
      await res.body?.cancel();
      throw new Error(`${this.options.path} answered ${res.status}`);
    }
    this.attempts = 0;
    this.options.onState?.('open', { reason: this.lastId === undefined ? 'connected' : `resumed after ${this.lastId}` });
    return res.body;
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    let reason = 'ended';
    try {
      for await (const chunk of body) {
        if (this.closed) return;
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          this.dispatch(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      }
    } catch (err) {
      reason = (err as Error).message;
    }
    this.reconnect(reason);
  }

  /** One event block: `id:`, `event:`, `data:` (lines joined), `retry:`; comments ignored. */
  private dispatch(block: string): void {
    let event = 'message';
    let id: string | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'id') id = value;
      else if (field === 'data') data.push(value);
      else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
    }
    if (data.length === 0) return;
    if (id !== undefined) this.lastId = id;
    let parsed: unknown;
    try {
      parsed = parseExact(data.join('\n'));
    } catch {
      parsed = data.join('\n');
    }
    // The service ends a stream with an `end` event: 1001 when it shuts down (reconnect to its
    // successor); otherwise the credential was revoked or expired, and reconnecting cannot help.
    if (event === 'end' && (parsed as { code?: unknown } | null)?.code !== SHUTTING_DOWN) this.closed = true;
    this.options.onEvent({ event, id, data: parsed });
  }

  private reconnect(reason: string): void {
    if (this.closed) {
      this.options.onState?.('closed', { reason });
      return;
    }
    const retryInMs = this.retryMs ?? Math.round(Math.random() * Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** this.attempts++));
    this.options.onState?.('closed', { reason, retryInMs });
    this.timer = setTimeout(() => {
      this.open().then(
        (body) => void this.read(body),
        (err: unknown) => this.reconnect((err as Error).message),
      );
    }, retryInMs);
  }
}
