/** When a request is tried again: the spec's advice for 429, 503 and dropped connections. */
export interface RetryPolicy {
  /** tries after the first (default 4) */
  retries: number;
  /** the first backoff, doubled each time, with full jitter (default 200 ms) */
  baseMs: number;
  /** the longest wait, `Retry-After` included (default 10 s) */
  maxMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 4, baseMs: 200, maxMs: 10_000 };

const RETRIED = new Set([429, 503]);

/** `Retry-After` in ms: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, nowMs: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1_000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/**
 * A `fetch` that tries a request again on 429, 503 or a connection that failed, waiting the
 * answer's `Retry-After` when it names one, else an exponential backoff with full jitter. The
 * request is sent again as it was, headers included: an order's `Idempotency-Key` (set before
 * this runs) makes a retry of a submission that did reach the service answer the first order,
 * never a second one.
 */
export function retryingFetch(policy: RetryPolicy, inner: typeof fetch = fetch, sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))): typeof fetch {
  return async (input, init) => {
    const [url, attemptInit] = await replayable(input, init);
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= policy.retries;
      let response: Response;
      try {
        response = await inner(url, attemptInit);
      } catch (err) {
        if (last || (err as Error).name === 'AbortError') throw err;
        await sleep(backoff(policy, attempt));
        continue;
      }
      if (last || !RETRIED.has(response.status)) return response;
      const named = retryAfterMs(response.headers.get('retry-after'), Date.now());
      await response.body?.cancel();
      await sleep(Math.min(policy.maxMs, named ?? backoff(policy, attempt)));
    }
  };
}

/**
 * The request in a form that can be sent again: a body that is a stream (or a `Request`'s) read
 * once into memory; strings and bytes, what the client sends, pass as they are. Cloning a
 * `Request` instead tees its body stream, which cost more than the rest of the client together.
 */
async function replayable(input: Parameters<typeof fetch>[0], init: RequestInit | undefined): Promise<[Parameters<typeof fetch>[0], RequestInit | undefined]> {
  if (input instanceof Request) {
    const body = input.body === null ? undefined : await input.arrayBuffer();
    return [input.url, { method: input.method, headers: input.headers, signal: input.signal, redirect: input.redirect, ...(body === undefined ? {} : { body }), ...init }];
  }
  const body = init?.body;
  if (body === undefined || body === null || typeof body === 'string' || body instanceof ArrayBuffer || ArrayBuffer.isView(body) || body instanceof URLSearchParams || body instanceof Blob) return [input, init];
  return [input, { ...init, body: await new Response(body).arrayBuffer() }];
}

function backoff(policy: RetryPolicy, attempt: number): number {
  return Math.round(Math.random() * Math.min(policy.maxMs, policy.baseMs * 2 ** attempt));
}
