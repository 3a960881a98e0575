import type { Schema } from './schema-arbitrary.ts';

/** One operation of the served OpenAPI document, as the reliability suite drives it. */
export interface Operation {
  method: string;
  /** The templated path, e.g. `/v1/orders/{node_order_id}`. */
  path: string;
  operationId: string;
  params: { name: string; in: 'path' | 'query' | 'header'; required: boolean; schema: Schema }[];
  body: Schema | undefined;
  bodyRequired: boolean;
  /** Whether it takes a bearer credential (not a public or WebSocket-upgrade route). */
  authenticated: boolean;
  /** status -> the JSON schema of that response, when the document gives one. */
  responses: Map<number, Schema | undefined>;
  /** A server-sent-event stream: answered with headers, then held open. */
  sse: boolean;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, Schema> };
}

/** Every operation of the document, in its order. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const responses = new Map<number, Schema | undefined>();
      let sse = false;
      for (const [status, response] of Object.entries((op['responses'] ?? {}) as Record<string, { content?: Record<string, { schema?: Schema }> }>)) {
        const content = response.content ?? {};
        if (content['text/event-stream'] !== undefined) sse = true;
        responses.set(Number(status), content['application/json']?.schema);
      }
      const requestBody = op['requestBody'] as { required?: boolean; content?: Record<string, { schema?: Schema }> } | undefined;
      const security = op['security'] as unknown[] | undefined;
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: String(op['operationId']),
        params: ((op['parameters'] ?? []) as Operation['params']).map((p) => ({ ...p, required: p.required === true })),
        body: requestBody?.content?.['application/json']?.schema,
        bodyRequired: requestBody?.required === true,
        authenticated: security !== undefined && security.length > 0,
        responses,
        sse,
      });
    }
  }
  return operations;
}

/** Fills a templated path with already URL-encoded values. */
export function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => values[name] ?? '');
}
