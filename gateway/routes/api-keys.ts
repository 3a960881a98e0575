import { Type, type Static } from 'typebox';
import { apiKeyView, KeyLimitReached, type ApiKeyRecord, type IssuedKey } from '../../storage/api-keys.ts';
import type { Principal } from '../auth/principal.ts';
import type { GatewayContext } from '../context.ts';
import { Errors } from '../errors.ts';
import { principalOf, type RouteSpec } from '../http/route.ts';
import { FreeText, IsoTimestamp } from '../schemas/common.ts';

const ApiKeyRecordSchema = Type.Object(
  {
    id: Type.String(),
    key_prefix: Type.String({ description: 'display prefix; the raw key is never stored' }),
    label: Type.Union([Type.String(), Type.Null()]),
    is_active: Type.Boolean(),
    is_sandbox: Type.Boolean(),
    last_used_at: Type.Union([IsoTimestamp, Type.Null()]),
    created_at: IsoTimestamp,
  },
  { $id: 'ApiKeyRecord' },
);

const IssuedKeySchema = Type.Object(
  {
    id: Type.String(),
    key_prefix: Type.String(),
    raw_key: Type.String({ description: 'shown once, at creation or rotation' }),
    label: Type.Union([Type.String(), Type.Null()]),
    is_sandbox: Type.Boolean(),
    created_at: IsoTimestamp,
  },
  { $id: 'IssuedApiKey' },
);

const CreateApiKeyReq = Type.Object(
  {
    label: Type.Optional(Type.Union([FreeText(100, 'no control characters or lone surrogates'), Type.Null()])),
    sandbox: Type.Optional(Type.Boolean({ description: 'ignored (forced true) when called with a sandbox key' })),
  },
  { $id: 'CreateApiKeyReq', additionalProperties: false },
);

const KeyIdParams = Type.Object({ key_id: Type.String({ pattern: '^key_[0-9A-Za-z]{1,64}$' }) });

function issuedView(issued: IssuedKey): Static<typeof IssuedKeySchema> {
  return {
    id: issued.record.id,
    key_prefix: issued.record.key_prefix,
    raw_key: issued.raw_key,
    label: issued.record.label,
    is_sandbox: issued.record.is_sandbox,
    created_at: new Date(issued.record.created_at_ms).toISOString(),
  };
}

/**
 * A sandbox key sees and manages only the account's sandbox keys (the two modes are isolated);
 * a live key, the operator or a JWT manages all of the account's keys.
 */
function visibleKey(ctx: GatewayContext, principal: Principal, keyId: string): ApiKeyRecord {
  const record = ctx.storage.apiKeys.get(principal.client_id, keyId);
  if (record === undefined || (principal.mode === 'sandbox' && !record.is_sandbox)) {
    throw Errors.notFound(`API key ${keyId} not found`);
  }
  return record;
}

const tags = ['api_keys'];

export function apiKeyRoutes(ctx: GatewayContext): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/v1/api_keys',
      operationId: 'listApiKeys',
      summary: "List the account's API keys (newest first)",
      tags,
      auth: 'bearer',
      responses: { 200: { description: 'Bare array of API key records', schema: Type.Array(ApiKeyRecordSchema) } },
      handler: (req) => {
        const principal = principalOf(req);
        const json = ctx.storage.apiKeys.listJson(principal.client_id, { sandboxOnly: principal.mode === 'sandbox' });
        return { status: 200, body: undefined, json };
      },
    },
    {
      method: 'post',
      path: '/v1/api_keys',
      operationId: 'createApiKey',
      summary: 'Create an API key; the raw key is returned only here',
      tags,
      auth: 'bearer',
      body: CreateApiKeyReq,
      bodyRequired: false,
      responses: { 201: { description: 'The new key, with its raw value', schema: IssuedKeySchema } },
      handler: async (req) => {
        const principal = principalOf(req);
        const body = req.body as Static<typeof CreateApiKeyReq>;
        const sandbox = principal.mode === 'sandbox' ? true : (body.sandbox ?? false);
        const issued = await ctx.storage.apiKeys.create(principal.client_id, { label: body.label ?? null, sandbox }).catch((err: unknown) => {
          throw err instanceof KeyLimitReached ? Errors.conflict('KEY_LIMIT_REACHED', err.message) : err;
        });
        ctx.log.info({ client_id: principal.client_id, key_id: issued.record.id, is_sandbox: sandbox }, 'api key created');
        return { status: 201, body: issuedView(issued) };
      },
    },
    {
      method: 'delete',
      path: '/v1/api_keys/{key_id}',
      operationId: 'deleteApiKey',
      summary: 'Deactivate an API key (not the one authenticating this call)',
      tags,
      auth: 'bearer',
      params: KeyIdParams,
      responses: {
        200: { description: 'The deactivated key', schema: ApiKeyRecordSchema },
        404: { description: 'Unknown key' },
        409: { description: 'The key is the one in use (code KEY_IN_USE)' },
      },
      handler: async (req) => {
        const principal = principalOf(req);
        const record = visibleKey(ctx, principal, req.params['key_id']!);
        if (record.id === principal.key_id) {
          throw Errors.conflict('KEY_IN_USE', 'the key used to authenticate this call cannot be deleted');
        }
        const updated = record.is_active ? await ctx.storage.apiKeys.deactivate(record) : record;
        // Durable first, then what the key had opened ends: its tickets, WebSockets and SSE streams.
        const ended = ctx.sessions.revokeKey(record.id);
        ctx.log.info({ client_id: principal.client_id, key_id: record.id, sessions_ended: ended }, 'api key deactivated');
        return { status: 200, body: apiKeyView(updated) };
      },
    },
    {
      method: 'post',
      path: '/v1/api_keys/{key_id}/rotate',
      operationId: 'rotateApiKey',
      summary: 'Replace a key: same label and mode, the old key is invalid at once',
      tags,
      auth: 'bearer',
      params: KeyIdParams,
      responses: {
        201: { description: 'The replacement key, with its raw value', schema: IssuedKeySchema },
        404: { description: 'Unknown key' },
        409: { description: 'The key is already inactive (code KEY_INACTIVE)' },
      },
      handler: async (req) => {
        const principal = principalOf(req);
        const record = visibleKey(ctx, principal, req.params['key_id']!);
        if (!record.is_active) throw Errors.conflict('KEY_INACTIVE', `API key ${record.id} is not active`);
        const issued = await ctx.storage.apiKeys.rotate(record);
        if (issued === undefined) throw Errors.conflict('KEY_INACTIVE', `API key ${record.id} is not active`);
        const ended = ctx.sessions.revokeKey(record.id);
        ctx.log.info({ client_id: principal.client_id, key_id: record.id, new_key_id: issued.record.id, sessions_ended: ended }, 'api key rotated');
        return { status: 201, body: issuedView(issued) };
      },
    },
  ];
}
