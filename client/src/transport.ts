import { Agent, request } from 'undici';

/**
 * The client's default transport: undici's `request` under a `fetch`-shaped function. Node 20's
 * global `fetch` is undici too, but its WHATWG layer (Request and Response objects, body
 * streams, an AbortSignal per request) costs about 600 µs of CPU per JSON POST on this machine,
 * against about 70 µs for `request` on the same connection pool (bench/harness.bench.ts): the
 * difference between a client that can drive 1,500 orders/s and one that can drive 15,000.
 */
export interface TransportOptions {
  /** no answer headers (or body progress) for this long fails the attempt (default 30 s) */
  timeoutMs?: number;
  /** connections per origin (default: as many as requests in flight) */
  connections?: number;
}

/** A request as undici's `request` takes it. */
interface RequestParts {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  signal: AbortSignal | undefined;
}

type HeadersInput = ConstructorParameters<typeof Headers>[0];
type FetchInput = Parameters<typeof fetch>[0];

/** Status codes whose answers have no body (the Response constructor refuses one). */
const NULL_BODY = new Set([101, 204, 205, 304]);

function headerRecord(headers: HeadersInput | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers === undefined) return out;
  if (headers instanceof Headers) headers.forEach((value, name) => (out[name] = value));
  else if (Array.isArray(headers)) for (const [name, value] of headers) out[name!.toLowerCase()] = value!;
  else for (const [name, value] of Object.entries(headers as Record<string, string>)) out[name.toLowerCase()] = value;
  return out;
}

/** A body as bytes or text: strings and bytes as they are, anything else (a stream, a Blob) read once. */
async function bodyOf(raw: unknown): Promise<string | Uint8Array | undefined> {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'string' || raw instanceof Uint8Array) return raw;
  return new Uint8Array(await new Response(raw as ConstructorParameters<typeof Response>[0]).arrayBuffer());
}

/**
 * The client's retrying layer always calls with a URL and an init (a `Request` is taken apart
 * there, retry.ts `replayable`); a `Request` here would be a caller's mistake, said at once.
 */
async function parts(input: FetchInput, init: RequestInit | undefined): Promise<RequestParts> {
  if (input instanceof Request) throw new TypeError('undiciFetch takes a URL and an init, not a Request');
  return { url: String(input), method: init?.method ?? 'GET', headers: headerRecord(init?.headers), body: await bodyOf(init?.body), signal: init?.signal ?? undefined };
}

/** A `fetch` on undici's `request`, answering real `Response`s (users read `response.headers`). */
export function undiciFetch(options: TransportOptions = {}): typeof fetch {
  const timeout = options.timeoutMs ?? 30_000;
  const dispatcher = new Agent({ headersTimeout: timeout, bodyTimeout: timeout, ...(options.connections === undefined ? {} : { connections: options.connections }) });
  return (async (input: FetchInput, init?: RequestInit) => {
    const p = await parts(input, init);
    const answer = await request(p.url, { method: p.method as 'GET', headers: p.headers, body: p.body, dispatcher, ...(p.signal === undefined || p.signal === null ? {} : { signal: p.signal }) });
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (Array.isArray(value)) for (const v of value) headers.append(name, v);
      else if (value !== undefined) headers.set(name, value);
    }
    const text = await answer.body.text();
    // openapi-fetch parses a body without a length with JSON.parse, past the client's exact json():
    // a chunked answer gets the length it had.
    if (!headers.has('content-length') && !NULL_BODY.has(answer.statusCode)) {
      headers.delete('transfer-encoding');
      headers.set('content-length', String(Buffer.byteLength(text)));
    }
    return new Response(NULL_BODY.has(answer.statusCode) ? null : text, { status: answer.statusCode, headers });
  }) as typeof fetch;
}

/**
 * The request object openapi-fetch builds (its `Request` option): plain fields, no WHATWG
 * `Request`, whose construction (an AbortSignal included) cost more than the rest of a call.
 * `createClient` sends it on as `(url, init)`, so any `fetch` can carry it.
 */
export class PlainRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: unknown;
  readonly signal: AbortSignal | undefined;

  constructor(url: string, init: { method?: string; headers?: HeadersInput; body?: unknown; signal?: AbortSignal | null } = {}) {
    this.url = url;
    this.method = (init.method ?? 'GET').toUpperCase();
    this.headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
    this.body = init.body;
    this.signal = init.signal ?? undefined;
  }
}

/** `(url, init)` for a transport: the body as built (a string from the client's serializer). */
export function asFetchArgs(r: PlainRequest): [string, RequestInit] {
  return [r.url, { method: r.method, headers: r.headers, ...(r.body === undefined || r.body === null ? {} : { body: r.body as string }), ...(r.signal === undefined ? {} : { signal: r.signal }) }];
}
