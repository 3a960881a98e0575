import type { TSchema } from 'typebox';
import type { Principal } from '../auth/principal.ts';
import type { SseOpen } from './sse.ts';

export type HttpMethod = 'get' | 'post' | 'put' | 'delete' | 'patch';

/**
 * Who may call a route: `public` needs no credentials; `bearer` any valid credential; `admin`
 * an admin client (the operator key or a profile with is_admin); `sandbox` a sandbox key.
 */
export type AuthLevel = 'public' | 'bearer' | 'admin' | 'sandbox';

export interface RequestContext {
  readonly requestId: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly params: Record<string, string>;
  readonly query: Record<string, unknown>;
  readonly body: unknown;
  /** The body as received (for `exactNumbers`: the source text of numbers a double rounds). */
  readonly bodyText: string | undefined;
  /** Set on every route whose auth level is not `public`. */
  readonly principal: Principal | undefined;
  /** The `Idempotency-Key` header of a POST, when sent. */
  readonly idempotencyKey: string | undefined;
  /** The `Last-Event-ID` header, read on `resumable` routes only. */
  readonly lastEventId?: string | undefined;
}

export interface Reply {
  status: number;
  body: unknown;
  /** Already-serialised JSON, sent as is instead of `body` (materialised views). */
  json?: string | Uint8Array;
  /** A server-sent-event stream instead of a body (status must be 200). */
  sse?: SseOpen;
  headers?: Record<string, string>;
}

export interface ResponseSpec {
  description: string;
  schema?: TSchema;
}

export interface RouteSpec {
  method: HttpMethod;
  /** OpenAPI-style template, e.g. `/v1/api_keys/{key_id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  auth: AuthLevel;
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  /** When false an empty body validates as `{}`. */
  bodyRequired?: boolean;
  /** A server-sent-event stream that resumes after the `Last-Event-ID` its client sends. */
  resumable?: boolean;
  /** The body cap of this route, when it is not the pipeline's BODY_LIMIT_BYTES (a bulk write). */
  maxBodyBytes?: number;
  responses: Record<number, ResponseSpec>;
  handler(ctx: RequestContext): Reply | Promise<Reply>;
}

/** Where the principal is needed, route handlers call this rather than asserting. */
export function principalOf(ctx: RequestContext): Principal {
  if (ctx.principal === undefined) throw new Error(`route ${ctx.path} reached without a principal`);
  return ctx.principal;
}
