/**
 * Every error the API returns is built here, so every handler answers in the spec's envelope:
 * `{error: {code, message, request_id, details}}`, with `details` one `{field, message}` per
 * validation problem and empty otherwise.
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
  methodNotAllowed: (method: string, allowed: string[]) =>
    new ApiError(405, 'METHOD_NOT_ALLOWED', `method ${method} is not allowed here`, [], {
      allow: allowed.join(', '),
    }),
  conflict: (code: string, message: string) => new ApiError(409, code, message),
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
  }
}

export function errorBody(err: ApiError, requestId: string): string {
  return JSON.stringify({
    error: { code: err.code, message: err.message, request_id: requestId, details: err.details },
  });
}
