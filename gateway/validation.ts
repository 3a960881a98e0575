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

/**
 * Compiled on first use, not when the gateway is built: compiling every route's schemas took
 * ~180 ms of each start (68 ajv compiles), most of them for routes a process may never serve.
 * `warmValidators` (called by service.ts once the threads are up) compiles what is left in the
 * background, so the first order does not pay for its schema. One compile per distinct schema
 * per process (by its text): a gateway built again in the same process (tests, a restart)
 * reuses them.
 */
const compiledByText = new Map<string, ValidateFunction>();
const pending = new Set<() => ValidateFunction>();

export function compileBody(schema: object): Validator {
  return lazy(bodyAjv, schema, 'body');
}

/** `root` names the whole input in error details: `query` or `path`. */
export function compileText(schema: object, root: string): Validator {
  return lazy(textAjv, schema, root);
}

/** Compiles the validators not yet used, one per turn of the event loop; resolves when none is left. */
export async function warmValidators(): Promise<void> {
  for (const compile of pending) {
    compile();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function lazy(ajv: Ajv, schema: object, root: string): Validator {
  let validate: ValidateFunction | undefined;
  const compile = (): ValidateFunction => {
    pending.delete(compile);
    return (validate ??= compiled(ajv, schema));
  };
  pending.add(compile);
  return (value) => {
    const v = validate ?? compile();
    return v(value) ? null : collapseUnions(v.errors ?? []).map((e) => toFieldError(e, root));
  };
}

/** The schema's validator in this process, compiled once per text and ajv. */
function compiled(ajv: Ajv, schema: object): ValidateFunction {
  // `$id`s name components in the OpenAPI document; ajv would register them globally.
  const text = JSON.stringify(schema, (key, value: unknown) => (key === '$id' ? undefined : value));
  const key = `${ajv === bodyAjv ? 'body' : 'text'}\n${text}`;
  let validate = compiledByText.get(key);
  if (validate === undefined) {
    validate = ajv.compile(JSON.parse(text) as object);
    compiledByText.set(key, validate);
  }
  return validate;
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
