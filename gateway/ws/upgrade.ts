import type { Logger } from '../../engine/actor.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import type { Principal } from '../auth/principal.ts';
import type { TicketStore } from '../auth/tickets.ts';
import { ApiError, errorBody, Errors } from '../errors.ts';
import { REQUEST_ID_PATTERN } from '../http/pipeline.ts';
import { statusLine } from '../http/status.ts';
import type { RateLimiter } from '../rate-limit/limiter.ts';
import { OPERATOR_CLIENT_ID } from '../rate-limit/tiers.ts';
import type { HttpRequest, HttpResponse } from '../uws.ts';

export interface UpgradeDeps {
  auth: Authenticator;
  tickets: TicketStore;
  limiter: RateLimiter;
  log: Logger;
}

/**
 * A WebSocket upgrade authenticated as `/v1/stream` is: a single-use ticket (`?ticket=` from
 * `GET /v1/ws/ticket`) or a bearer header, rate limited like a request; refused with the
 * spec's error envelope. `userOf` makes the socket's user data once the principal is known.
 */
export function authenticatedUpgrade<U>(deps: UpgradeDeps, res: HttpResponse, req: HttpRequest, context: unknown, fallbackId: () => string, userOf: (principal: Principal) => U): void {
  const secKey = req.getHeader('sec-websocket-key');
  const protocol = req.getHeader('sec-websocket-protocol');
  const extensions = req.getHeader('sec-websocket-extensions');
  const authorization = req.getHeader('authorization');
  const ticket = new URLSearchParams(req.getQuery() ?? '').get('ticket');
  const incomingId = req.getHeader('x-request-id');
  const requestId = REQUEST_ID_PATTERN.test(incomingId) ? incomingId : fallbackId();
  let aborted = false;
  res.onAborted(() => {
    aborted = true;
  });
  const reject = (err: unknown) => {
    if (aborted) return;
    const apiErr = err instanceof ApiError ? err : Errors.internal();
    if (!(err instanceof ApiError)) deps.log.error({ req_id: requestId, err }, 'websocket upgrade failed');
    res.cork(() => {
      res.writeStatus(statusLine(apiErr.status));
      res.writeHeader('content-type', 'application/json');
      res.writeHeader('x-request-id', requestId);
      res.end(errorBody(apiErr, requestId));
    });
  };
  const accept = (principal: Principal) => {
    if (aborted) return;
    if (principal.client_id !== OPERATOR_CLIENT_ID) {
      const waitMs = deps.limiter.check(principal.client_id, principal.profile.rate_limit_qps, Date.now());
      if (waitMs > 0) return reject(Errors.rateLimited(Math.max(1, Math.ceil(waitMs / 1000))));
    }
    const user = userOf(principal);
    res.cork(() => res.upgrade(user, secKey, protocol, extensions, context as never));
  };
  try {
    let principal: Principal | Promise<Principal>;
    if (ticket !== null) {
      const redeemed = deps.tickets.redeem(ticket, Date.now());
      if (redeemed === undefined) throw Errors.unauthenticated('unknown, used or expired ticket');
      principal = redeemed;
    } else {
      principal = deps.auth.authenticate(authorization, Date.now());
    }
    if (principal instanceof Promise) principal.then(accept, reject);
    else accept(principal);
  } catch (err) {
    reject(err);
  }
}
