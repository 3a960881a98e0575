import { randomUUID } from 'node:crypto';
import createFetchClient, { type Client } from 'openapi-fetch';
import { parseExact, stringifyExact } from './json.ts';
import { DEFAULT_RETRY, retryingFetch, type RetryPolicy } from './retry.ts';
import { asFetchArgs, PlainRequest, undiciFetch } from './transport.ts';
import type { paths } from './schema.ts';

export type { components, operations, paths } from './schema.ts';
export { ApiError, ok, type ErrorEnvelope } from './errors.ts';
export { parseExact, stringifyExact } from './json.ts';
export { DEFAULT_RETRY, retryAfterMs, retryingFetch, type RetryPolicy } from './retry.ts';
export { ServiceStream, type Channel, type StreamFrame, type StreamOptions } from './stream.ts';
export { isFrameOf, kindOf, type ChannelData, type ChannelKind, type DataFrameOf, type FrameOf, type FrameOfKind, type KindOf, type QuoteSnapshotFrame, type TypedChannel, type TypedFrame } from './channels.ts';
export { PredictionLifecycle, type LifecycleEvents, type LifecycleOptions, type LifecycleStream } from './lifecycle.ts';
export { ServiceEvents, type EventStreamPath, type EventsOptions, type ServerEvent } from './events.ts';

export interface ClientOptions {
  /** the service, e.g. `http://127.0.0.1:8080` */
  baseUrl: string;
  /** an API key (`sk_live_...`, `sk_sandbox_...`) or a JWT, sent as `Authorization: Bearer` */
  apiKey?: string;
  /** when 429, 503 and dropped connections are tried again (`DEFAULT_RETRY`); `false`: never */
  retry?: Partial<RetryPolicy> | false;
  /**
   * the transport under the retries (tests, proxies); default: undici's `request` (transport.ts),
   * a tenth of the CPU of the global `fetch` per request
   */
  fetch?: typeof fetch;
  /** the default transport's time limit for an answer, per attempt (default 30 s) */
  timeoutMs?: number;
}

export type ServiceClient = Client<paths>;

/** A response whose `json()` (what openapi-fetch reads a body with) keeps integers exact (json.ts). */
function exactResponse(response: Response): Response {
  Object.defineProperty(response, 'json', { value: async () => parseExact(await response.text()) });
  return response;
}

/**
 * The typed client: every operation of the service's OpenAPI document, its path, query and body
 * checked by `tsc` against the generated `paths` (openapi-fetch), answered as `{ data }` or
 * `{ error }`; `ok(...)` turns the latter into a thrown `ApiError`. On top of openapi-fetch:
 *
 * - `Authorization: Bearer <apiKey>` on every request;
 * - an `Idempotency-Key` on every order submission that has none, made once per call, so the
 *   retries below can never place an order twice;
 * - retries on 429, 503 and dropped connections (`retryingFetch`), honouring `Retry-After`;
 * - integers past 2^53 kept exact: answers parse them as `bigint` and bodies may carry `bigint`s.
 */
export function createClient(options: ClientOptions): ServiceClient {
  const transport = options.fetch ?? undiciFetch(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs });
  const policy = options.retry === false ? { ...DEFAULT_RETRY, retries: 0 } : { ...DEFAULT_RETRY, ...options.retry };
  const retrying = retryingFetch(policy, transport);
  const exactFetch = async (input: PlainRequest): Promise<Response> => {
    if (input.method === 'POST' && !input.headers.has('idempotency-key') && new URL(input.url).pathname === '/v1/orders') {
      input.headers.set('idempotency-key', randomUUID());
    }
    return exactResponse(await retrying(...asFetchArgs(input)));
  };
  return createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: exactFetch as unknown as typeof fetch,
    // openapi-fetch builds each request with this class and hands it to `exactFetch` above; a
    // WHATWG Request would cost more than the rest of the call (transport.ts). A middleware's
    // onRequest may change it in place (headers) but must return nothing.
    Request: PlainRequest as unknown as typeof Request,
    bodySerializer: (body: unknown) => stringifyExact(body),
    ...(options.apiKey === undefined ? {} : { headers: { authorization: `Bearer ${options.apiKey}` } }),
  });
}
