/** The service's error envelope (`{error: {code, message, request_id, details}}`). */
export interface ErrorEnvelope {
  error: { code: string; message: string; request_id: string; details?: unknown };
}

/** A request the service answered with an error: its status and the envelope's fields. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | undefined,
    readonly details: unknown,
  ) {
    super(`${status} ${code}: ${message}`);
    this.name = 'ApiError';
  }

  /** The error of an answer: the envelope's fields, or the status alone when the body is not one. */
  static of(status: number, body: unknown): ApiError {
    const e = (body as Partial<ErrorEnvelope> | undefined)?.error;
    if (e !== undefined && typeof e.code === 'string') return new ApiError(status, e.code, e.message ?? '', e.request_id, e.details);
    return new ApiError(status, `HTTP_${status}`, typeof body === 'string' ? body.slice(0, 200) : 'no error envelope', undefined, undefined);
  }
}

/** The data of an answer, or its error thrown as an `ApiError` (status, code, request_id, details). */
export function ok<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || !result.response.ok) throw ApiError.of(result.response.status, result.error);
  return result.data as T;
}
