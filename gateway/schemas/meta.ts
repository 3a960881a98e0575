import { Type } from 'typebox';

/**
 * The OpenAPI document itself (`GET /v1/openapi.json`), at the level a client reads it by: the
 * version, info, security and the path and component maps. The full structure is the OpenAPI
 * 3.1 specification's own schema (https://spec.openapis.org/oas/3.1/schema), which the test
 * suite validates the document against.
 */
export const OpenApiDocumentSchema = Type.Object(
  {
    openapi: Type.String({ pattern: '^3\\.1\\.\\d+$' }),
    info: Type.Object({ title: Type.String(), version: Type.String(), description: Type.Optional(Type.String()) }),
    servers: Type.Array(Type.Object({ url: Type.String() })),
    security: Type.Array(Type.Record(Type.String(), Type.Array(Type.String()))),
    paths: Type.Record(Type.String({ pattern: '^/' }), Type.Object({}, { description: 'a Path Item Object' })),
    components: Type.Object({
      securitySchemes: Type.Record(Type.String(), Type.Object({})),
      schemas: Type.Record(Type.String(), Type.Object({}, { description: 'a JSON Schema (2020-12 dialect)' })),
    }),
  },
  { $id: 'OpenApiDocument', description: 'An OpenAPI 3.1 document' },
);
