import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FieldError } from './errors.ts';

/**
 * Request validation from the same JSON Schemas that feed the OpenAPI document. Query strings
 * and path parameters arrive as text and are coerced to the schema's types; JSON bodies are
 * not coerced, so `"active": "yes"` is a wrong type, not a truthy string.
 */
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const bodyAjv = addFormats(new Ajv({ allErrors: true, strict: false, coerceTypes: false }));
const textAjv = addFormats(new Ajv({ allErrors: true, strict: false, coerceTypes: true, useDefaults: true }));

export type Validator = (value: unknown) => FieldError[] | null;

export function compileBody(schema: object): Validator {
  return wrap(bodyAjv.compile(stripIds(schema)), 'body');
}

/** `root` names the whole input in error details: `query` or `path`. */
export function compileText(schema: object, root: string): Validator {
  return wrap(textAjv.compile(stripIds(schema)), root);
}

function wrap(validate: ValidateFunction, root: string): Validator {
  return (value) => (validate(value) ? null : collapseUnions(validate.errors ?? []).map((e) => toFieldError(e, root)));
}

/**
 * ajv reports a failed `anyOf` (a nullable field, say) as one error per branch plus the anyOf
 * itself; a client wants one line per field: "must be string or null".
 */
function collapseUnions(errors: ErrorObject[]): ErrorObject[] {
  const unions = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  if (unions.length === 0) return errors;
  const branchOf = (e: ErrorObject) =>
    unions.find((u) => u !== e && e.instancePath === u.instancePath && e.schemaPath.startsWith(`${u.schemaPath}/`));
  const out: ErrorObject[] = [];
  for (const e of errors) {
    if (branchOf(e) !== undefined) continue;
    if (e.keyword !== 'anyOf' && e.keyword !== 'oneOf') {
      out.push(e);
      continue;
    }
    const branches = errors.filter((b) => branchOf(b) === e);
    const types = branches.every((b) => b.keyword === 'type') ? branches.map((b) => String(b.params['type'])) : [];
    const message = types.length > 0 ? `must be ${[...new Set(types)].join(' or ')}` : 'must match one of the allowed forms';
    out.push({ ...e, message });
  }
  return out;
}

/** `$id`s name components in the OpenAPI document; ajv would register them globally. */
function stripIds(schema: object): object {
  return JSON.parse(JSON.stringify(schema), (key, value: unknown) => (key === '$id' ? undefined : value)) as object;
}

function toFieldError(e: ErrorObject, root: string): FieldError {
  const path = e.instancePath
    .split('/')
    .slice(1)
    .map((p) => (/^\d+$/.test(p) ? `[${p}]` : p))
    .join('.')
    .replace(/\.\[/g, '[');
  const join = (child: string) => (path === '' ? child : `${path}.${child}`);
  switch (e.keyword) {
    case 'required':
      return { field: join(String(e.params['missingProperty'])), message: 'is required' };
    case 'additionalProperties':
      return { field: join(String(e.params['additionalProperty'])), message: 'is not a known field' };
    default:
      return { field: path === '' ? root : path, message: e.message ?? 'is invalid' };
  }
}
