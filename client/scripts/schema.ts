import openapiTS, { astToString } from 'openapi-typescript';

/**
 * The client's types from the service's OpenAPI document, by openapi-typescript (kept generator:
 * it writes `paths`/`components` types that openapi-fetch checks every call against, so no type
 * here is written by hand). The document's `_1e8`/`_1e9` integers stay `number` in the types;
 * the client parses them exactly (src/json.ts), so a value past 2^53 arrives as a `bigint`.
 * `defaultNonNullable: false`: a request field with a default (an alert's `once`) stays optional
 * to the caller, as the service treats it, instead of being demanded on every call.
 */
export const SCHEMA_HEADER = `/**
 * Generated from the service's OpenAPI document by openapi-typescript: do not edit.
 * Regenerate with \`npm run client:generate\` (against a running service: \`-- --base-url URL\`);
 * test/integration/client-schema.test.ts fails when this file is out of date with the document.
 */
`;

export async function schemaSource(document: Record<string, unknown>): Promise<string> {
  const ast = await openapiTS(document as unknown as Parameters<typeof openapiTS>[0], { exportType: false, alphabetize: false, defaultNonNullable: false });
  return SCHEMA_HEADER + astToString(ast);
}
