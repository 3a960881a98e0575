/**
 * The OpenAPI 3.1 document served by the real service: public, valid against the standard
 * schema, and complete (every route, with its method and its security).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Validator, type SpecData } from '@seriousme/openapi-schema-validator';
import { call, startTestService, type TestService } from '../helpers/service.ts';

interface Operation {
  operationId: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
}

interface OpenApiDoc {
  openapi: string;
  info: { title: string; version: string };
  security?: Record<string, string[]>[];
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { type: string; scheme?: string }>; schemas?: Record<string, unknown> };
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

describe('OpenAPI document (real service)', () => {
  let svc: TestService;
  let doc: OpenApiDoc;

  before(async () => {
    svc = await startTestService({ workers: 1 });
    const res = await call<OpenApiDoc>(svc.base, 'GET', '/v1/openapi.json');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    doc = res.body;
  });

  after(async () => {
    await svc?.stop();
  });

  it('is served without authentication with the spec title, version and bearer scheme', () => {
    assert.match(doc.openapi, /^3\.1\.\d+$/);
    assert.equal(doc.info.title, 'Sequence-style Markets API');
    assert.equal(doc.info.version, '1.0.0');
    assert.deepEqual(Object.keys(doc.components.securitySchemes), ['bearer']);
    const bearer = doc.components.securitySchemes['bearer']!;
    assert.equal(bearer.type, 'http');
    assert.equal(bearer.scheme, 'bearer');
  });

  it('validates against the OpenAPI 3.1 schema', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as unknown as SpecData);
    assert.equal(validator.version, '3.1');
    assert.ok(result.valid, `invalid OpenAPI document: ${JSON.stringify(result.errors, null, 2)}`);
  });

  it('lists every route with its method, and nothing else', () => {
    const routes = svc.service.gateway.router.routes;
    assert.ok(routes.length >= 11, `${routes.length} routes`);
    const documented = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of Object.keys(item)) if (HTTP_METHODS.includes(method)) documented.add(`${method} ${path}`);
    }
    const served = new Set(routes.map((r) => `${r.method} ${r.path}`));
    assert.deepEqual([...served].filter((r) => !documented.has(r)), [], 'routes missing from the document');
    assert.deepEqual([...documented].filter((r) => !served.has(r)), [], 'documented operations that are not served');
    for (const route of routes) assert.equal(doc.paths[route.path]![route.method]!.operationId, route.operationId);
    const ids = routes.map((r) => r.operationId);
    assert.equal(new Set(ids).size, ids.length, 'operationIds are unique');
  });

  it('marks public routes with security [] and requires bearer everywhere else', () => {
    let publicCount = 0;
    let protectedCount = 0;
    for (const route of svc.service.gateway.router.routes) {
      const op = doc.paths[route.path]![route.method]!;
      if (route.auth === 'public') {
        publicCount++;
        assert.deepEqual(op.security, [], `${route.method} ${route.path} is public`);
        assert.equal(op.responses['401'], undefined, `${route.path}: a public route documents no 401`);
      } else {
        protectedCount++;
        assert.deepEqual(op.security, [{ bearer: [] }], `${route.method} ${route.path} needs bearer`);
        assert.ok(op.responses['401'], `${route.path} documents 401`);
      }
    }
    assert.ok(publicCount >= 6 && protectedCount >= 5, `${publicCount} public, ${protectedCount} protected`);
    // The routes the spec marks public really are public here.
    for (const path of ['/v1/health', '/v1/health/live', '/v1/health/ready', '/v1/health/safety', '/v1/openapi.json']) {
      assert.deepEqual(doc.paths[path]?.['get']?.security, [], path);
    }
    for (const [path, method] of [
      ['/v1/api_keys', 'get'],
      ['/v1/api_keys', 'post'],
      ['/v1/api_keys/{key_id}', 'delete'],
      ['/v1/api_keys/{key_id}/rotate', 'post'],
      ['/v1/kill_switch', 'put'],
      ['/v1/ws/ticket', 'get'],
    ] as const) {
      assert.deepEqual(doc.paths[path]?.[method]?.security, [{ bearer: [] }], `${method} ${path}`);
    }
    assert.ok(doc.paths['/v1/kill_switch']!['put']!.responses['403'], 'the admin route documents 403');
  });

  it('declares every path template parameter as a required path parameter', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      for (const op of Object.values(item)) {
        const declared = (op.parameters ?? []).filter((p) => p.in === 'path');
        assert.deepEqual(declared.map((p) => p.name).sort(), [...names].sort(), `${path} ${op.operationId}`);
        assert.ok(declared.every((p) => p.required === true));
      }
    }
  });

  it('documents request bodies as JSON and error responses with the envelope schema', () => {
    const put = doc.paths['/v1/kill_switch']!['put']!;
    assert.ok(put.requestBody?.content['application/json']);
    const errorRef = put.responses['400']?.content?.['application/json']?.schema as { $ref?: string } | undefined;
    assert.ok(errorRef?.$ref, 'the 400 response references a schema');
    const name = errorRef.$ref.replace('#/components/schemas/', '');
    const schema = doc.components.schemas?.[name] as { properties?: Record<string, { properties?: Record<string, unknown> }> };
    assert.deepEqual(
      Object.keys(schema.properties?.['error']?.properties ?? {}).sort(),
      ['code', 'details', 'message', 'outcome_token_ids', 'outcomes', 'request_id'],
    );
  });
});
