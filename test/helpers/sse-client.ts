import assert from 'node:assert/strict';
import { request, type ClientRequest } from 'node:http';
import { waitForWake } from './stream-client.ts';

export interface SseEvent {
  event: string;
  data: unknown;
  /** the `id:` line, on resumable streams */
  id?: string;
}

/** A real HTTP client of a server-sent-event stream: queues events, knows when the server ended it. */
export class SseClient {
  private readonly events: SseEvent[] = [];
  private wake: (() => void) | undefined;
  private buffered = '';
  /** Resolves when the server ends the response (or the connection closes). */
  readonly ended: Promise<void>;
  status = 0;

  private constructor(private readonly req: ClientRequest, opened: (client: SseClient) => void, failed: (err: Error) => void) {
    let end!: () => void;
    this.ended = new Promise((resolve) => (end = resolve));
    req.on('response', (res) => {
      this.status = res.statusCode ?? 0;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => this.onChunk(chunk));
      res.on('end', end);
      res.on('close', end);
      opened(this);
    });
    req.on('error', (err) => {
      end();
      failed(err);
    });
  }

  static open(port: number, path: string, token: string, headers: Record<string, string> = {}): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', ...headers }, timeout: 30_000 });
      new SseClient(req, resolve, reject);
      req.end();
    });
  }

  /** The next event named `event`, skipping others; fails after `timeoutMs`. */
  async next(event: string, timeoutMs = 5_000): Promise<SseEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = this.events.findIndex((e) => e.event === event);
      if (i >= 0) return this.events.splice(i, 1)[0]!;
      const left = deadline - Date.now();
      if (left <= 0) assert.fail(`no ${event} event within ${timeoutMs} ms; queued: ${JSON.stringify(this.events)}`);
      await waitForWake(left, (wake) => (this.wake = wake));
    }
  }

  /** The events queued now, taken off the queue. */
  drain(): SseEvent[] {
    return this.events.splice(0);
  }

  close(): void {
    this.req.destroy();
  }

  private onChunk(chunk: string): void {
    this.buffered += chunk;
    let split: number;
    while ((split = this.buffered.indexOf('\n\n')) >= 0) {
      const block = this.buffered.slice(0, split);
      this.buffered = this.buffered.slice(split + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      const id = /^id: (.*)$/m.exec(block)?.[1];
      if (event !== undefined) this.events.push({ event, data: data === undefined ? undefined : (JSON.parse(data) as unknown), ...(id === undefined ? {} : { id }) });
    }
    this.wake?.();
  }
}
