import fc from 'fast-check';
import type { GeneratedRequest } from './checks.ts';
import { fillPath, type Operation } from './operations.ts';
import type { SchemaArbitraries } from './schema-arbitrary.ts';

/** Bodies no schema generates: broken, empty, huge, nested, not JSON, not UTF-8. */
const RAW_BODIES: readonly string[] = [
  '',
  '{',
  '}',
  'null',
  '[]',
  '"text"',
  '{"a":',
  '{"a":1,"a":2}',
  '\u0000',
  '\ufeff{}',
  '['.repeat(5_000) + ']'.repeat(5_000),
  '{"x":' + '['.repeat(2_000) + ']'.repeat(2_000) + '}',
  `{"pad":"${'x'.repeat(200_000)}"}`,
  Buffer.from([0xff, 0xfe, 0x7b, 0x7d]).toString('latin1'),
  '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"x":1}}}',
];

const RAW_QUERIES: readonly string[] = ['unknown=1', 'limit=1&limit=2', '%zz', 'a[b]=c', '__proto__[x]=1', '=', '&&&', 'limit=%00', 'symbol=' + 'A'.repeat(3_000)];

/** The credentials a generated request may carry, by name, and how often. */
export type Credentials = Record<'live' | 'sandbox' | 'operator', string>;

/** Percent-encodes a path segment from its UTF-8 bytes (a lone surrogate becomes U+FFFD, as a client's encoder would send it). */
function encodeSegment(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  return JSON.stringify(value) ?? '';
}

function authorization(credentials: Credentials, mix: 'any' | 'client'): fc.Arbitrary<string | undefined> {
  const client = [
    { weight: 10, arbitrary: fc.constant(`Bearer ${credentials.live}`) },
    { weight: 3, arbitrary: fc.constant(`Bearer ${credentials.sandbox}`) },
  ];
  if (mix === 'client') return fc.oneof(...client);
  return fc.oneof(
    ...client,
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom('Bearer sqk_live_' + 'A'.repeat(32), 'Bearer ', 'Basic dXNlcjpwYXNz', 'bearer x.y.z', `Bearer ${credentials.live}x`, 'Bearer ' + 'k'.repeat(9_000)) },
    { weight: 1, arbitrary: fc.constant(`Bearer ${credentials.operator}`) },
  );
}

/**
 * A request for `op` built from the document: path parameters (often ids that exist, taken
 * from `ids` by parameter name), query parameters, a body, a credential. `mode` `hostile` keeps
 * bodies and parameters to values meant to be refused.
 */
export function requestArbitrary(
  op: Operation,
  arbs: SchemaArbitraries,
  credentials: Credentials,
  ids: ReadonlyMap<string, readonly string[]>,
  mode: 'mixed' | 'hostile',
): fc.Arbitrary<GeneratedRequest> {
  const value = (schema: Parameters<SchemaArbitraries['mixed']>[0]) => (mode === 'hostile' ? arbs.hostile(schema) : arbs.mixed(schema));
  const pathParams: Record<string, fc.Arbitrary<string>> = {};
  const queryParams: Record<string, fc.Arbitrary<string | undefined>> = {};
  for (const p of op.params) {
    const hint = arbs.hint(p.name);
    const fromSchema = value(p.schema).map(text);
    const generated = hint === undefined ? fromSchema : fc.oneof({ weight: mode === 'hostile' ? 1 : 3, arbitrary: hint.map(text) }, { weight: 2, arbitrary: fromSchema });
    if (p.in === 'path') {
      const known = ids.get(`${op.operationId}:${p.name}`) ?? ids.get(p.name) ?? [];
      const choice = known.length === 0 ? generated : fc.oneof({ weight: 2, arbitrary: generated }, { weight: mode === 'hostile' ? 1 : 3, arbitrary: fc.constantFrom(...known) });
      // Path segments stay under a few KB: the framing limits have their own tests.
      pathParams[p.name] = choice.map((v) => encodeSegment(v.slice(0, 2_000)));
    } else if (p.in === 'query') {
      const clipped = generated.map((v) => v.slice(0, 2_000));
      // A required parameter is left out now and then, an optional one often.
      queryParams[p.name] = fc.option(clipped, { nil: undefined, freq: p.required ? 12 : 2 });
    }
  }
  const body: fc.Arbitrary<string | undefined> =
    op.body !== undefined
      ? fc.oneof({ weight: 6, arbitrary: value(op.body).map((v) => JSON.stringify(v) ?? '') }, { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES) })
      : fc.option(fc.constantFrom('{"a":1}', ''), { nil: undefined, freq: 8 });
  return fc
    .record({
      path: fc.record(pathParams),
      query: fc.record(queryParams),
      rawQuery: fc.option(fc.constantFrom(...RAW_QUERIES), { nil: undefined, freq: 8 }),
      body,
      auth: op.authenticated ? authorization(credentials, mode === 'hostile' ? 'client' : 'any') : fc.constant(undefined),
      contentType: fc.oneof({ weight: 12, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/json; charset=latin1', 'multipart/form-data', '') }),
    })
    .map(({ path, query, rawQuery, body: payload, auth, contentType }) => {
      const search = new URLSearchParams();
      for (const [name, v] of Object.entries(query)) if (v !== undefined) search.append(name, v);
      const qs = [search.toString(), rawQuery ?? ''].filter((s) => s !== '').join('&');
      const headers: Record<string, string> = {};
      if (auth !== undefined) headers['authorization'] = auth;
      if (payload !== undefined && contentType !== '') headers['content-type'] = contentType;
      return {
        op,
        method: op.method,
        url: fillPath(op.path, path) + (qs === '' ? '' : `?${qs}`),
        headers,
        // GET and DELETE carry no body here: fetch refuses one on GET.
        body: op.method === 'GET' || op.method === 'HEAD' ? undefined : payload,
      };
    });
}
