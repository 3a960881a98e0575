/**
 * Every error the API returns is built here, so every handler answers in the spec's envelope:
 * `{error: {code, message, request_id, details}}`, with `details` one `{field, message}` per
 * validation problem and empty otherwise. One error adds members: `AMBIGUOUS_MULTI_OUTCOME`
 * (spec, Quote rules 6 and Errors) carries `outcomes` and `outcome_token_ids`, in the envelope
 * and mirrored at the top level (see `errorBody`).
 */
import { ExecutionRefusal, ResultCode } from '../execution/result-codes.ts';

export { ExecutionRefusal };

export interface FieldError {
  field: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: FieldError[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * Spec, Quote rules 6: an event slug or event ticker naming a mutually exclusive event with
 * several candidate markets. `outcomes[i]` is the label of the candidate whose id, to retry the
 * request with, is `outcome_token_ids[i]`. Both are copied and frozen: the body is the
 * candidates at the time of the refusal, whatever the caller does with its arrays afterwards.
 */
export class AmbiguousMultiOutcomeError extends ApiError {
  readonly outcomes: readonly string[];
  readonly outcome_token_ids: readonly string[];

  constructor(message: string, outcomes: readonly string[], outcome_token_ids: readonly string[]) {
    // Parallel arrays of different lengths would point a client at the wrong candidate: a bug
    // of the resolver, refused here (it surfaces as a 500) rather than served.
    if (outcomes.length !== outcome_token_ids.length) {
      throw new RangeError(`outcomes (${outcomes.length}) and outcome_token_ids (${outcome_token_ids.length}) must be parallel`);
    }
    super(400, 'AMBIGUOUS_MULTI_OUTCOME', message);
    this.name = 'AmbiguousMultiOutcomeError';
    this.outcomes = Object.freeze([...outcomes]);
    this.outcome_token_ids = Object.freeze([...outcome_token_ids]);
  }
}

export const Errors = {
  validation: (details: FieldError[], message = 'request validation failed') =>
    new ApiError(400, 'VALIDATION_ERROR', message, details),
  malformedJson: (reason: string) =>
    new ApiError(400, 'VALIDATION_ERROR', 'malformed JSON body', [{ field: 'body', message: reason }]),
  unauthenticated: (message = 'missing or invalid credentials') =>
    new ApiError(401, 'UNAUTHENTICATED', message, [], { 'www-authenticate': 'Bearer' }),
  forbidden: (message: string) => new ApiError(403, 'FORBIDDEN', message),
  /** Spec, Authentication rule 3: a live credential on a sandbox endpoint. */
  sandboxOnly: () => new ApiError(403, 'SANDBOX_ONLY', 'sandbox endpoints require a sandbox key'),
  notFound: (message = 'not found') => new ApiError(404, 'NOT_FOUND', message),
  /** Spec, Quote rules 6: `identifier` names a multi-outcome event; the candidates to retry with. */
  ambiguousMultiOutcome: (identifier: string, outcomes: readonly string[], outcome_token_ids: readonly string[]) =>
    new AmbiguousMultiOutcomeError(
      `${identifier} names a multi-outcome event; retry with one of outcome_token_ids`,
      outcomes,
      outcome_token_ids,
    ),
  methodNotAllowed: (method: string, allowed: string[]) =>
    new ApiError(405, 'METHOD_NOT_ALLOWED', `method ${method} is not allowed here`, [], {
      allow: allowed.join(', '),
    }),
  conflict: (code: string, message: string) => new ApiError(409, code, message),
  /** Spec, Errors: a DEX order (or a wallet operation) with no trading wallet. */
  noTradingWallet: (message = 'no trading wallet: create one with POST /v1/wallets/trading/create-managed') => new ApiError(404, 'NO_TRADING_WALLET', message),
  /** Spec, Errors: the trading wallet is still provisioning. */
  tradingWalletNotReady: (message: string) => new ApiError(409, 'TRADING_WALLET_NOT_READY', message),
  /** A redeem of a prediction market whose outcome is not known yet (docs/prediction-markets.md). */
  marketNotResolved: (message: string) => new ApiError(409, 'MARKET_NOT_RESOLVED', message),
  payloadTooLarge: (limit: number) =>
    new ApiError(413, 'PAYLOAD_TOO_LARGE', `request body exceeds ${limit} bytes`),
  unsupportedMediaType: () =>
    new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'request body must be application/json'),
  rateLimited: (retryAfterS: number) =>
    new ApiError(429, 'RATE_LIMITED', 'rate limit exceeded', [], { 'retry-after': String(retryAfterS) }),
  internal: () => new ApiError(500, 'INTERNAL', 'internal error'),
  unavailable: (code: string, message: string) => new ApiError(503, code, message),
} as const;

/**
 * The envelope of each execution result code (execution/result-codes.ts): the engine answers
 * codes, and this table is the one place they become HTTP statuses and the spec's error codes.
 */
export function fromRefusal(r: ExecutionRefusal): ApiError {
  switch (r.code) {
    case ResultCode.INVALID_FIELD:
      return Errors.validation([{ field: r.field ?? 'body', message: r.message }]);
    case ResultCode.UNKNOWN_SYMBOL:
    case ResultCode.ORDER_NOT_FOUND:
    case ResultCode.GRAPH_NOT_FOUND:
      return Errors.notFound(r.message);
    case ResultCode.IDEMPOTENCY_CONFLICT:
      return Errors.conflict('IDEMPOTENCY_CONFLICT', r.message);
    case ResultCode.GRAPH_NOT_ARMED:
      return Errors.conflict('GRAPH_NOT_ARMED', r.message);
    case ResultCode.DISPATCH_HALTED:
      return Errors.unavailable('DISPATCH_HALTED', r.message);
    case ResultCode.JOURNAL_UNAVAILABLE:
      return Errors.unavailable('STORAGE_UNAVAILABLE', r.message);
    case ResultCode.SANDBOX_ONLY:
      return Errors.sandboxOnly();
    case ResultCode.SANDBOX_POSITIONS_LIMIT:
      return Errors.validation([{ field: r.field ?? 'positions', message: r.message }], r.message);
    case ResultCode.DEPLOYMENT_NOT_FOUND:
      return Errors.notFound(r.message);
    case ResultCode.BUNDLE_NOT_FOUND:
      return new ApiError(404, 'BUNDLE_NOT_FOUND', r.message);
    case ResultCode.DEPLOYMENT_EXISTS:
      return Errors.conflict('DEPLOYMENT_EXISTS', r.message);
    case ResultCode.DEPLOYMENT_RUNNING:
      return Errors.conflict('DEPLOYMENT_RUNNING', r.message);
    case ResultCode.DEPLOYMENT_LIMIT:
      return Errors.conflict('DEPLOYMENT_LIMIT', r.message);
  }
}

/**
 * The response body of an error. `AMBIGUOUS_MULTI_OUTCOME` has two readers the spec cannot
 * reconcile: its Errors table puts `outcomes` and `outcome_token_ids` inside the `error`
 * envelope, and the market-data guide's example has `code`, `message`, `request_id`, `outcomes`
 * and `outcome_token_ids` at the top level with no wrapper. Its body carries both, with the same
 * values (docs/api-decisions.md, "AMBIGUOUS_MULTI_OUTCOME body"). Every other error is the
 * envelope alone, as it always was.
 */
export function errorBody(err: ApiError, requestId: string): string {
  if (err instanceof AmbiguousMultiOutcomeError) {
    const { code, message, details, outcomes, outcome_token_ids } = err;
    return JSON.stringify({
      error: { code, message, request_id: requestId, details, outcomes, outcome_token_ids },
      code,
      message,
      request_id: requestId,
      outcomes,
      outcome_token_ids,
    });
  }
  return JSON.stringify({
    error: { code: err.code, message: err.message, request_id: requestId, details: err.details },
  });
}
