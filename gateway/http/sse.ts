import type { HttpResponse } from '../uws.ts';
import { stringifyExact } from './exact-json.ts';

/** Writes server-sent events to one open response. */
export interface SseSink {
  /** `id` (a resumable stream's event id) is what the client sends back as `Last-Event-ID`. */
  send(event: string, data: unknown, id?: string): void;
}

/** A stream route's reply: called once the response is open; returns its cleanup. */
export type SseOpen = (sink: SseSink) => () => void;

const HEARTBEAT_MS = 15_000;
const MAX_BUFFERED_CHUNKS = 1_000;

/**
 * Opens a server-sent-event response on a uWS response the pipeline has authenticated and
 * validated. The response stays open until the client goes away; a comment line every 15 s
 * keeps proxies from closing it. Slow readers are cut off rather than buffered without bound.
 */
export function openSse(res: HttpResponse, requestId: string, open: SseOpen, onClose: () => void): (last: { event: string; data: unknown }) => void {
  let closed = false;
  let cleanup: () => void = () => {};
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    cleanup();
    onClose();
  };
  // Chunks uWS had to buffer since the reader last kept up; beyond the cap it is cut off.
  let buffered = 0;
  const write = (chunk: string) => {
    if (closed) return;
    res.cork(() => {
      if (res.write(chunk)) buffered = 0;
      else if (++buffered > MAX_BUFFERED_CHUNKS) res.close();
    });
  };
  res.onAborted(close);
  res.cork(() => {
    res.writeStatus('200 OK');
    res.writeHeader('content-type', 'text/event-stream');
    res.writeHeader('cache-control', 'no-cache');
    res.writeHeader('x-request-id', requestId);
    res.write(': connected\n\n');
  });
  const heartbeat = setInterval(() => write(': keep-alive\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  cleanup = open({ send: (event, data, id) => write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${stringifyExact(data)}\n\n`) });
  // Ends the stream from the server's side with one last event (a revoked or expired credential).
  return (last) => {
    if (closed) return;
    write(`event: ${last.event}\ndata: ${stringifyExact(last.data)}\n\n`);
    close();
    res.cork(() => res.end());
  };
}

/** Subscribers of a named stream, with an optional per-subscriber filter. */
export class SseHub<T> {
  private readonly subscribers = new Map<string, Set<{ sink: SseSink; accept: (item: T) => boolean }>>();

  subscribe(key: string, sink: SseSink, accept: (item: T) => boolean = () => true): () => void {
    let set = this.subscribers.get(key);
    if (set === undefined) {
      set = new Set();
      this.subscribers.set(key, set);
    }
    const entry = { sink, accept };
    set.add(entry);
    return () => {
      set.delete(entry);
      if (set.size === 0) this.subscribers.delete(key);
    };
  }

  /** Whether anyone listens on `key`: publishers skip building an item nobody will read. */
  has(key: string): boolean {
    return this.subscribers.has(key);
  }

  publish(key: string, event: string, item: T): void {
    const set = this.subscribers.get(key);
    if (set === undefined) return;
    for (const { sink, accept } of set) if (accept(item)) sink.send(event, item);
  }

  /** Every subscriber of every key (broadcast events such as the kill switch). */
  publishAll(event: string, item: T): void {
    for (const key of this.subscribers.keys()) this.publish(key, event, item);
  }
}
