import { randomBase62 } from '../../storage/random.ts';
import type { Logger } from '../../engine/actor.ts';
import type { RequestLogLine } from '../../engine/log.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import type { Principal } from '../auth/principal.ts';
import type { Sessions } from '../auth/sessions.ts';
import { ApiError, errorBody, Errors, ExecutionRefusal, fromRefusal } from '../errors.ts';
import type { RateLimiter } from '../rate-limit/limiter.ts';
import { OPERATOR_CLIENT_ID } from '../rate-limit/tiers.ts';
import type { HttpRequest, HttpResponse } from '../uws.ts';
import { compileBody, compileText, type Validator } from '../validation.ts';
import type { HttpMethod, Reply, RouteSpec } from './route.ts';
import { stringifyExact } from './exact-json.ts';
import type { Router } from './router.ts';
import { statusLine } from './status.ts';
import { openSse } from './sse.ts';
import { etagMatches, type StaticAsset, type StaticAssets } from './static.ts';

export const BODY_LIMIT_BYTES = 1 << 20;
/** `X-Request-Id` and `Idempotency-Key`: 1-128 of these ASCII characters. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
/** RFC 9110 field-vchar restricted to ASCII: visible characters and interior SP. */
const VISIBLE_ASCII = /^[\x20-\x7e]*$/;
const METHODS_WITH_BODY = new Set(['post', 'put', 'patch', 'delete']);

/**
 * Header values as uWS hands them over. `getHeader` returns one character per byte (bytes
 * >= 0x80 arrive as U+0080..U+00FF, never decoded as UTF-8), but only for bytes inside the
 * value: uWS's parser trims a value's ends of every byte it compares below 33 as a signed
 * `char`, which is SP and the controls but also every byte >= 0x80. So `ünï` arrives as `n`
 * and `ü` alone as the empty string, and no uWS call shows the trimmed bytes. What we can see
 * we refuse: a value with a character outside visible ASCII, or a header that is present but
 * empty (which `getHeader` cannot tell from an absent one; `forEach` can).
 */
/**
 * Two `Content-Length` headers that disagree make the framing ambiguous (the request-smuggling
 * shape): RFC 9112 section 6.3 says answer 400 and close. uWS reads the first and passes the
 * request on, so the gateway refuses it. Only a request that has the header pays for the walk.
 */
function conflictingContentLength(req: HttpRequest): boolean {
  const first = req.getHeader('content-length');
  if (first === '') return false;
  let conflict = false;
  req.forEach((key, value) => {
    if (key === 'content-length' && value !== first) conflict = true;
  });
  return conflict;
}

function headerPresent(req: HttpRequest, name: string): boolean {
  let present = false;
  req.forEach((key) => {
    if (key === name) present = true;
  });
  return present;
}

/**
 * The `Idempotency-Key` of a POST: undefined when absent, else the value as uWS gives it (maybe
 * empty), to be judged by `idempotencyKeyProblem`. Only a POST without a non-empty key pays for
 * the header walk (about a microsecond).
 */
function readIdempotencyKey(req: HttpRequest): string | undefined {
  const value = req.getHeader('idempotency-key');
  if (value !== '') return value;
  return headerPresent(req, 'idempotency-key') ? '' : undefined;
}

/** Why an `Idempotency-Key` is refused, or null when it is usable. */
function idempotencyKeyProblem(value: string): string | null {
  if (value === '') return 'must not be empty (bytes outside visible ASCII at either end of a header value are dropped by the HTTP parser)';
  if (!VISIBLE_ASCII.test(value)) return 'must be visible ASCII: non-ASCII and control bytes are refused';
  if (!REQUEST_ID_PATTERN.test(value)) return 'must be 1-128 of [A-Za-z0-9._:-]';
  return null;
}

/**
 * An incoming `X-Request-Id` is used only when valid (visible ASCII is implied by the pattern);
 * otherwise it is ignored and one is generated: a correlation id is not worth failing a request.
 */
function usableRequestId(value: string): boolean {
  return REQUEST_ID_PATTERN.test(value);
}

export interface PipelineDeps {
  router: Router;
  auth: Authenticator;
  limiter: RateLimiter;
  log: Logger;
  requestLog: (line: RequestLogLine) => void;
  /** Long-lived sessions by credential: an SSE stream ends when its key is revoked or its JWT expires. */
  sessions?: Sessions;
  /** Static files (the dashboard), answered before route matching: not API operations. */
  assets?: StaticAssets;
}

const METHOD_NAMES: Record<string, string> = { get: 'GET', post: 'POST', put: 'PUT', delete: 'DELETE', patch: 'PATCH' };

/** Compiled validators of one route, built once at start-up. */
interface CompiledRoute {
  params: Validator | undefined;
  query: Validator | undefined;
  body: Validator | undefined;
}

/** What survives from uWS's request object, which is valid only until the first await. */
interface Exchange {
  readonly res: HttpResponse;
  readonly requestId: string;
  readonly method: string;
  readonly path: string;
  readonly startedAt: number;
  aborted: boolean;
  clientId: string | null;
  /** Who the request authenticated as, once known (an SSE stream registers its session under it). */
  principal: Principal | null;
  /** The connection cannot be trusted past this answer (ambiguous framing): closed after it. */
  closeAfter: boolean;
  /** The `Last-Event-ID` header of a resumable stream's request, when sent. */
  lastEventId?: string;
}

/**
 * The life of an HTTP request, in order: request id -> route match (404/405) -> authentication
 * (401) -> rate limit per client (429) -> permission (403) -> path, query and body validation
 * (400/413/415) -> handler -> one JSON response and one log line. Every failure on the way is an
 * ApiError rendered in the spec's envelope.
 */
export class HttpPipeline {
  private readonly compiled = new Map<RouteSpec, CompiledRoute>();
  private readonly requestIdPrefix = randomBase62(8);
  private requestCounter = 0;
  private draining = false;
  /** Open event streams' enders (sse.ts `openSse`), so a drain can end them. */
  private readonly streams = new Set<(last: { event: string; data: unknown }) => void>();
  private inFlight = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly deps: PipelineDeps) {
    for (const route of deps.router.routes) {
      this.compiled.set(route, {
        params: route.params ? compileText(route.params, 'path') : undefined,
        query: route.query ? compileText(route.query, 'query') : undefined,
        body: route.body ? compileBody(route.body) : undefined,
      });
    }
  }

  handle = (res: HttpResponse, req: HttpRequest): void => {
    const incomingId = req.getHeader('x-request-id');
    const exchange: Exchange = {
      res,
      requestId: usableRequestId(incomingId) ? incomingId : this.nextRequestId(),
      method: req.getMethod(),
      path: req.getUrl(),
      startedAt: performance.now(),
      aborted: false,
      clientId: null,
      principal: null,
      closeAfter: false,
    };
    res.onAborted(() => {
      exchange.aborted = true;
    });
    this.inFlight++;
    if (conflictingContentLength(req)) {
      exchange.closeAfter = true;
      this.fail(exchange, Errors.validation([{ field: 'Content-Length', message: 'conflicting Content-Length headers: the request framing is ambiguous' }]));
      return;
    }
    if (this.draining) {
      this.fail(exchange, Errors.unavailable('SHUTTING_DOWN', 'the service is shutting down'));
      return;
    }
    const asset = this.deps.assets?.get(exchange.path);
    if (asset !== undefined) {
      this.serveAsset(exchange, asset, req.getHeader('if-none-match'));
      return;
    }
    const match = this.deps.router.match(exchange.method, exchange.path);
    if (match.kind !== 'found') {
      const err =
        match.kind === 'not_found'
          ? Errors.notFound(`no route for ${exchange.method.toUpperCase()} ${exchange.path}`)
          : Errors.methodNotAllowed(exchange.method.toUpperCase(), match.allowed);
      this.fail(exchange, err);
      return;
    }
    const route = match.route;
    const needsBody = route.body !== undefined && METHODS_WITH_BODY.has(exchange.method);
    const rawQuery = req.getQuery() ?? '';
    const idempotencyKey = exchange.method === 'post' ? readIdempotencyKey(req) : undefined;
    if (route.resumable === true) {
      const lastEventId = req.getHeader('last-event-id');
      if (lastEventId !== '') exchange.lastEventId = lastEventId;
    }
    let principal: Principal | Promise<Principal> | undefined;
    try {
      if (route.auth !== 'public') principal = this.deps.auth.authenticate(req.getHeader('authorization'), Date.now());
    } catch (err) {
      this.fail(exchange, err);
      return;
    }
    // A token being verified may be refused before the body has arrived, and its handlers are
    // attached only then: marked handled now, or Node treats the refusal as an unhandled
    // rejection and stops the process (one request with `Bearer a.b.c` and a body did).
    if (principal instanceof Promise) principal.catch(() => undefined);
    if (!needsBody) {
      this.proceed(exchange, route, match.params, rawQuery, principal, undefined, idempotencyKey);
      return;
    }
    // The body must be subscribed to before returning to uWS, or its chunks are lost.
    readBody(res, req.getHeader('content-type'), req.getHeader('content-length'), route.maxBodyBytes ?? BODY_LIMIT_BYTES).then(
      (text) => this.proceed(exchange, route, match.params, rawQuery, principal, text, idempotencyKey),
      (err: unknown) => {
        // Credentials are judged before the body: a 401 wins over a 413.
        if (principal instanceof Promise) principal.then(() => this.fail(exchange, err), (authErr: unknown) => this.fail(exchange, authErr));
        else this.fail(exchange, err);
      },
    );
  };

  /**
   * Runs the rest of the pipeline synchronously when it can (cached credentials, synchronous
   * handler): no promise is created on the common read path.
   */
  private proceed(
    exchange: Exchange,
    route: RouteSpec,
    params: Record<string, string>,
    rawQuery: string,
    principal: Principal | Promise<Principal> | undefined,
    bodyText: string | undefined,
    idempotencyKey: string | undefined,
  ): void {
    if (principal instanceof Promise) {
      principal.then(
        (resolved) => this.proceed(exchange, route, params, rawQuery, resolved, bodyText, idempotencyKey),
        (err: unknown) => this.fail(exchange, err),
      );
      return;
    }
    try {
      if (principal !== undefined) {
        exchange.clientId = principal.client_id;
        exchange.principal = principal;
        this.admit(principal, route);
      }
      const compiled = this.compiled.get(route)!;
      // Validators may fill in defaults, so they get a fresh object.
      const query = rawQuery === '' && compiled.query === undefined ? NO_QUERY : parseQuery(rawQuery);
      let details = compiled.params?.(params) ?? null;
      const queryDetails = compiled.query?.(query) ?? null;
      if (queryDetails !== null) details = details === null ? queryDetails : [...details, ...queryDetails];
      let body: unknown = undefined;
      if (bodyText !== undefined) {
        body = parseJson(bodyText, route.bodyRequired ?? true);
        const bodyDetails = compiled.body?.(body) ?? null;
        if (bodyDetails !== null) details = details === null ? bodyDetails : [...details, ...bodyDetails];
      }
      const keyProblem = idempotencyKey === undefined ? null : idempotencyKeyProblem(idempotencyKey);
      if (keyProblem !== null) details = [...(details ?? []), { field: 'Idempotency-Key', message: keyProblem }];
      if (details !== null) throw Errors.validation(details);
      const result = route.handler({
        requestId: exchange.requestId,
        method: exchange.method as HttpMethod,
        path: exchange.path,
        params,
        query,
        body,
        bodyText,
        principal,
        idempotencyKey,
        lastEventId: exchange.lastEventId,
      });
      if (result instanceof Promise) {
        result.then(
          (reply) => this.reply(exchange, reply),
          (err: unknown) => this.fail(exchange, err),
        );
      } else {
        this.reply(exchange, result);
      }
    } catch (err) {
      this.fail(exchange, err);
    }
  }

  /**
   * A static file: public and holding no data, so neither authenticated nor rate limited; GET
   * only. A 304 when `If-None-Match` names the current ETag (the browser's copy is current).
   */
  private serveAsset(exchange: Exchange, asset: StaticAsset, ifNoneMatch: string): void {
    if (exchange.method !== 'get') {
      this.fail(exchange, Errors.methodNotAllowed(exchange.method.toUpperCase(), ['GET']));
      return;
    }
    this.respond(exchange, etagMatches(ifNoneMatch, asset.etag) ? 304 : 200, asset.body, asset.headers, asset.contentType);
  }

  /** Rate limit, then permission: a throttled caller learns nothing about what it may do. */
  private admit(principal: Principal, route: RouteSpec): void {
    if (principal.client_id !== OPERATOR_CLIENT_ID) {
      const waitMs = this.deps.limiter.check(principal.client_id, principal.profile.rate_limit_qps, Date.now());
      if (waitMs > 0) throw Errors.rateLimited(Math.max(1, Math.ceil(waitMs / 1000)));
    }
    if (route.auth === 'admin' && !principal.is_admin) throw Errors.forbidden('admin only');
    if (route.auth === 'sandbox' && principal.mode !== 'sandbox') throw Errors.sandboxOnly();
  }

  private reply(exchange: Exchange, reply: Reply): void {
    if (reply.sse !== undefined) {
      if (exchange.aborted) return this.respond(exchange, 200, undefined);
      // Counts as answered for draining and logging; the stream itself lives on.
      this.deps.requestLog({
        requestId: exchange.requestId,
        method: 'GET',
        path: exchange.path,
        status: 200,
        latencyUs: Math.round((performance.now() - exchange.startedAt) * 1000),
        clientId: exchange.clientId,
        aborted: false,
      });
      this.inFlight--;
      // A stream lives on past this request: it ends when its credential does (auth/sessions.ts),
      // or when the server drains.
      let forget = () => {};
      const end = openSse(exchange.res, exchange.requestId, reply.sse, () => {
        forget();
        this.streams.delete(end);
      });
      this.streams.add(end);
      if (exchange.principal !== null && this.deps.sessions !== undefined) {
        forget = this.deps.sessions.open(exchange.principal, (why) => end({ event: 'end', data: { code: why.code, reason: why.reason } }));
      }
      return;
    }
    let body: string | Uint8Array | undefined;
    try {
      body = reply.status === 204 ? undefined : (reply.json ?? stringifyExact(reply.body));
    } catch (err) {
      this.fail(exchange, err); // e.g. a BigInt that escaped conversion
      return;
    }
    this.respond(exchange, reply.status, body, reply.headers);
  }

  private fail(exchange: Exchange, failure: unknown): void {
    const err = failure instanceof ExecutionRefusal ? fromRefusal(failure) : failure;
    if (err instanceof ApiError) {
      this.respond(exchange, err.status, errorBody(err, exchange.requestId), err.headers);
      return;
    }
    this.deps.log.error(
      { req_id: exchange.requestId, method: exchange.method, path: exchange.path, err },
      'unhandled error in request',
    );
    this.respond(exchange, 500, errorBody(Errors.internal(), exchange.requestId));
  }

  /**
   * Answers every later request with 503, ends every open event stream (one last `end` event,
   * code 1001 as a WebSocket's going-away, so a client reconnects, to this process's successor,
   * rather than wait on a socket nobody writes to) and resolves once the requests under way are done.
   */
  drain(timeoutMs: number): Promise<void> {
    this.draining = true;
    for (const end of [...this.streams]) end({ event: 'end', data: { code: 1001, reason: 'server shutting down' } });
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.idleWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private respond(exchange: Exchange, status: number, body: string | Uint8Array | undefined, headers?: Readonly<Record<string, string>>, contentType = 'application/json'): void {
    if (--this.inFlight === 0 && this.idleWaiters.length > 0) {
      for (const wake of this.idleWaiters.splice(0)) wake();
    }
    if (status === 413 && !exchange.aborted) {
      // Answering inside uWS's data callback and closing there loses the response: answer on
      // the next turn, then close (the rest of an oversize body is not read).
      setImmediate(() => this.write(exchange, status, body, headers));
    } else {
      this.write(exchange, status, body, headers, contentType);
    }
    this.deps.requestLog({
      requestId: exchange.requestId,
      method: METHOD_NAMES[exchange.method] ?? exchange.method.toUpperCase(),
      path: exchange.path,
      status,
      latencyUs: Math.round((performance.now() - exchange.startedAt) * 1000),
      clientId: exchange.clientId,
      aborted: exchange.aborted,
    });
  }

  private write(exchange: Exchange, status: number, body: string | Uint8Array | undefined, headers?: Readonly<Record<string, string>>, contentType = 'application/json'): void {
    if (exchange.aborted) return;
    const res = exchange.res;
    res.cork(() => {
      res.writeStatus(statusLine(status));
      res.writeHeader('content-type', contentType);
      res.writeHeader('x-request-id', exchange.requestId);
      if (headers !== undefined) for (const name in headers) res.writeHeader(name, headers[name]!);
      // An oversize body is not drained, and a draining server lets connections go. A 304 sends
      // no body; its Content-Length is the one the 200 would have had (RFC 9110, section 8.6).
      if (status === 304) res.endWithoutBody(typeof body === 'string' ? Buffer.byteLength(body) : (body?.byteLength ?? 0), this.draining || exchange.closeAfter);
      else res.end(body, status === 413 || this.draining || exchange.closeAfter);
    });
  }

  private nextRequestId(): string {
    return `req_${this.requestIdPrefix}${(this.requestCounter++).toString(36)}`;
  }
}

/**
 * Collects the body, capped at `limit` (BODY_LIMIT_BYTES unless the route says otherwise). uWS
 * hands out chunks that are valid only during the callback, so each is copied.
 */
function readBody(res: HttpResponse, contentType: string, contentLength: string, limit: number): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const declared = contentLength === '' ? 0 : Number(contentLength);
    if (declared > limit) {
      reject(Errors.payloadTooLarge(limit));
      res.onData(() => {});
      return;
    }
    // Bodies are JSON whatever the declared type (curl -d says form-urlencoded, fetch with a
    // string says text/plain); only a multipart upload is certainly not JSON.
    if (/^multipart\//i.test(contentType)) {
      reject(Errors.unsupportedMediaType());
      res.onData(() => {});
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    res.onData((chunk, isLast) => {
      if (done) return;
      size += chunk.byteLength;
      if (size > limit) {
        done = true;
        reject(Errors.payloadTooLarge(limit));
        return;
      }
      chunks.push(Buffer.from(new Uint8Array(chunk).slice()));
      if (isLast) {
        done = true;
        resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
      }
    });
  });
}

function parseJson(text: string, required: boolean): unknown {
  if (text.trim() === '') {
    if (required) throw Errors.validation([{ field: 'body', message: 'a JSON body is required' }]);
    return {};
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    // V8's message quotes a slice of the body, which may hold a secret: report the position only.
    const position = /position (\d+)/.exec((err as Error).message)?.[1];
    throw Errors.malformedJson(position === undefined ? 'not valid JSON' : `not valid JSON at position ${position}`);
  }
}

const NO_QUERY: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

function parseQuery(raw: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) out[key] = value;
  return out;
}
