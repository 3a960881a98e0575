import { retryAfterMs, type VenueLimits } from './venue-limits.ts';

/** A venue's HTTP answer: status and parsed JSON body (undefined when not JSON). */
export interface RestAnswer {
  status: number;
  body: unknown;
  /** the body as sent, for an answer that is not JSON (Coinbase's bare `Unauthorized`) */
  text: string;
  headers: Headers;
}

/** Why a request never got an answer from the venue. */
export class RestFailure extends Error {
  constructor(
    message: string,
    /** `timeout` (the fate of a write is then unknown), `network`, or `rate_limited` (never sent) */
    readonly kind: 'timeout' | 'network' | 'rate_limited',
    /** for `rate_limited`: ms until the venue may be asked again */
    readonly retryInMs = 0,
  ) {
    super(message);
  }
}

export interface RestRequest {
  method: 'GET' | 'POST' | 'DELETE' | 'PUT';
  /** path and query, e.g. `/api/v3/order?symbol=...` */
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** cost per limit rule (indexed as the venue's `VenueLimits` rules) */
  cost: readonly number[];
  timeoutMs: number;
  /** a resting leg's poll: it may use only part of each limit (`VenueLimits.admit`) */
  background?: boolean;
}

/**
 * One venue's REST endpoint as the edge uses it: Node's fetch (undici, keep-alive pooled) with
 * a hard timeout per request and the venue's limits checked before anything is sent. Rate
 * refusals (429, 418) close the venue for the `Retry-After` the venue names (`pauseMs` when it
 * names none). Never retries on its own: only the caller knows whether a write may be resent.
 */
export class VenueRest {
  constructor(
    readonly baseUrl: string,
    private readonly limits: VenueLimits,
    /** reads the venue's own usage headers after each answer */
    private readonly observe: (headers: Headers, limits: VenueLimits, nowMs: number) => void = () => {},
    /** headers every request carries (a venue's demo-trading flag) */
    private readonly headers: Record<string, string> = {},
    /**
     * how long a rate refusal that names no `Retry-After` closes the venue: a minute by default
     * (Binance's bans escalate); a venue whose buckets refill within a second says less (Kalshi)
     */
    private readonly pauseMs = 60_000,
  ) {}

  async send(req: RestRequest): Promise<RestAnswer> {
    const wait = this.limits.admit(req.cost, Date.now(), req.background === true);
    if (wait > 0) throw new RestFailure(`venue rate limit: next request in ${wait} ms`, 'rate_limited', wait);
    let response: Response;
    let text: string;
    try {
      response = await fetch(this.baseUrl + req.path, {
        method: req.method,
        headers: { ...this.headers, ...req.headers },
        body: req.body,
        signal: AbortSignal.timeout(req.timeoutMs),
      });
      text = await response.text();
    } catch (err) {
      const timeout = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      throw new RestFailure(timeout ? `no answer within ${req.timeoutMs} ms` : `venue unreachable: ${(err as Error).message}`, timeout ? 'timeout' : 'network');
    }
    const now = Date.now();
    this.observe(response.headers, this.limits, now);
    if (response.status === 429 || response.status === 418) {
      // The venue's own pause: `Retry-After`, else what its usage headers told `observe` (KuCoin's
      // `gw-ratelimit-reset`), else `pauseMs`.
      const named = retryAfterMs(response.headers.get('retry-after'), now);
      if (named !== undefined) this.limits.closeFor(named, now);
      else if (this.limits.closedUntil <= now) this.limits.closeFor(this.pauseMs, now);
    }
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: response.status, body, text, headers: response.headers };
  }
}
