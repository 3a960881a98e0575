import type { TSchema } from 'typebox';
import type { RouteSpec } from './http/route.ts';
import { ErrorBodySchema } from './schemas/common.ts';
import { mediaOf } from './schemas/media.ts';

export const API_TITLE = 'Sequence-style Markets API';
export const API_VERSION = '1.0.0';

type Json = Record<string, unknown>;

const STANDARD_ERRORS: Record<string, string> = {
  '400': 'Validation error (one detail per field)',
  '401': 'Missing or invalid credentials',
  '429': 'Rate limit exceeded',
  '500': 'Internal error',
};

/** What a 101 answers a WebSocket upgrade with (RFC 6455, section 4.2.2). */
const WEBSOCKET_UPGRADE_HEADERS: Record<string, Json> = {
  Upgrade: { required: true, schema: { type: 'string', const: 'websocket' } },
  Connection: { required: true, schema: { type: 'string', const: 'Upgrade' } },
  'Sec-WebSocket-Accept': { required: true, description: 'base64 SHA-1 of the Sec-WebSocket-Key sent and the RFC 6455 GUID', schema: { type: 'string' } },
};

/**
 * The OpenAPI 3.1 document, generated from the same route table and schemas the gateway
 * validates with, so the document cannot drift from the behaviour. Schemas carrying an `$id`
 * become `components.schemas` entries referenced by `$ref`.
 */
export function buildOpenApi(routes: readonly RouteSpec[]): Json {
  const components: Record<string, Json> = {};
  const toSchema = (schema: TSchema): Json => hoist(schema as unknown as Json, components);
  const errorRef = toSchema(ErrorBodySchema);
  const paths: Record<string, Record<string, Json>> = {};

  for (const route of routes) {
    const parameters: Json[] = [
      ...objectParameters(route.params, 'path', toSchema),
      ...objectParameters(route.query, 'query', toSchema),
    ];
    const responses: Record<string, Json> = {};
    for (const [status, spec] of Object.entries(route.responses)) {
      if (spec.schema === undefined) {
        // Every error answer is the envelope (errors.ts), whether or not the route names a schema.
        responses[status] = { description: spec.description, ...(Number(status) >= 400 ? { content: { 'application/json': { schema: errorRef } } } : {}) };
        continue;
      }
      const media = mediaOf(spec.schema);
      if (media.kind === 'websocket') {
        // OpenAPI has no WebSocket: the upgrade is the 101 with its headers; the messages after
        // it are in the `x-websocket` extension, and the upgrade's query is documented as parameters.
        responses[status] = {
          description: spec.description,
          headers: WEBSOCKET_UPGRADE_HEADERS,
          'x-websocket': { client: toSchema(media.client), server: toSchema(media.server) },
        };
        parameters.push(...objectParameters(media.query, 'query', toSchema));
      } else {
        const mediaType = media.kind === 'event-stream' ? 'text/event-stream' : 'application/json';
        responses[status] = { description: spec.description, content: { [mediaType]: { schema: toSchema(spec.schema) } } };
      }
    }
    const errors = { ...STANDARD_ERRORS };
    if (route.auth === 'public') {
      delete errors['401'];
      delete errors['429'];
    }
    if (route.auth === 'admin' || route.auth === 'sandbox') errors['403'] = 'Forbidden for this caller';
    for (const [status, description] of Object.entries(errors)) {
      responses[status] ??= { description, content: { 'application/json': { schema: errorRef } } };
    }
    const operation: Json = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: route.tags,
      security: route.auth === 'public' ? [] : [{ bearer: [] }],
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(route.body
        ? {
            requestBody: {
              required: route.bodyRequired ?? true,
              content: { 'application/json': { schema: toSchema(route.body) } },
            },
          }
        : {}),
      responses,
    };
    (paths[route.path] ??= {})[route.method] = operation;
  }

  return {
    openapi: '3.1.0',
    info: {
      title: API_TITLE,
      version: API_VERSION,
      description: 'Cross-venue execution service: market data, smart order routing, positions and streams.',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API key, operator key or JWT' } },
      schemas: components,
    },
  };
}

function objectParameters(schema: TSchema | undefined, location: 'path' | 'query', toSchema: (s: TSchema) => Json): Json[] {
  if (schema === undefined) return [];
  const object = schema as unknown as { properties?: Record<string, TSchema>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, property]) => {
    const json = toSchema(property);
    const description = json['description'];
    return {
      name,
      in: location,
      required: location === 'path' || (object.required ?? []).includes(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: json,
    };
  });
}

/** Deep-copies a schema, replacing every `$id`-named subschema by a `$ref` to components. */
function hoist(schema: Json, components: Record<string, Json>): Json {
  const copy = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(copy);
    if (value === null || typeof value !== 'object') return value;
    const out: Json = {};
    for (const [key, v] of Object.entries(value as Json)) if (key !== '$id') out[key] = copy(v);
    const id = (value as Json)['$id'];
    if (typeof id === 'string') {
      components[id] ??= out;
      return { $ref: `#/components/schemas/${id}` };
    }
    return out;
  };
  return copy(schema) as Json;
}
