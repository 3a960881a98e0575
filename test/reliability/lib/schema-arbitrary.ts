import fc from 'fast-check';

/** A JSON Schema node as the OpenAPI document carries it (TypeBox output). */
export type Schema = Record<string, unknown>;

/** Values hostile to almost any field: wrong types, edges of number and string, injection and encoding junk. */
const HOSTILE_SCALARS: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  -0,
  0.5,
  1e308,
  -1e308,
  2 ** 53,
  2 ** 63,
  -(2 ** 63),
  Number.MAX_SAFE_INTEGER,
  '',
  ' ',
  '0',
  '-1',
  'NaN',
  'Infinity',
  'null',
  'true',
  '9'.repeat(30),
  '1e999',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udc00x',
  '\u202e',
  '\r\nX-Injected: 1',
  '🚀'.repeat(50),
  'x'.repeat(5_000),
  '../../../../etc/passwd',
  '%2e%2e%2f',
  "' OR '1'='1",
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '__proto__',
  'constructor',
  [],
  [[[[[[[[[[]]]]]]]]]],
  {},
  { __proto__: { polluted: true } },
  JSON.parse('{"__proto__": {"polluted": true}}') as unknown,
  { $gt: '' },
];

const MAX_STRING = 48;
const MAX_ITEMS = 4;

/**
 * fast-check arbitraries generated from the OpenAPI document's schemas: `valid` yields values
 * the schema accepts (so requests reach the handlers), `hostile` values it should refuse or
 * that probe the edges (so the validation and error paths are exercised), `mixed` both.
 */
export class SchemaArbitraries {
  constructor(
    private readonly components: Readonly<Record<string, Schema>>,
    /** Values that exist, by property name (symbols, venues): a valid object often uses them, so requests reach past the 404s. */
    private readonly hints: ReadonlyMap<string, fc.Arbitrary<unknown>> = new Map(),
  ) {}

  /** Existing values for a field or parameter of this name, if any. */
  hint(name: string): fc.Arbitrary<unknown> | undefined {
    return this.hints.get(name);
  }

  resolve(schema: Schema): Schema {
    const ref = schema['$ref'];
    if (typeof ref !== 'string') return schema;
    const name = ref.replace('#/components/schemas/', '');
    const target = this.components[name];
    if (target === undefined) throw new Error(`unresolved ${ref}`);
    return this.resolve(target);
  }

  /** Mostly valid values with hostile ones mixed in at every depth. */
  mixed(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
    return fc.oneof({ weight: 3, arbitrary: this.valid(schema, depth, true) }, { weight: 1, arbitrary: this.hostile(schema, depth) });
  }

  valid(input: Schema, depth = 0, mixChildren = false): fc.Arbitrary<unknown> {
    const schema = this.resolve(input);
    const child = (s: Schema) => (mixChildren && depth < 3 ? this.mixed(s, depth + 1) : this.valid(s, depth + 1));
    const variants = (schema['anyOf'] ?? schema['oneOf']) as Schema[] | undefined;
    if (variants !== undefined) return fc.oneof(...variants.map((v) => this.valid(v, depth, mixChildren)));
    if ('const' in schema) return fc.constant(schema['const']);
    if (Array.isArray(schema['enum'])) return fc.constantFrom(...(schema['enum'] as unknown[]));
    const type = schema['type'];
    if (Array.isArray(type)) return fc.oneof(...type.map((t) => this.valid({ ...schema, type: t as string }, depth, mixChildren)));
    switch (type) {
      case 'string':
        return this.string(schema);
      case 'integer':
        return fc.integer({ min: bound(schema['minimum'], -(2 ** 31)), max: bound(schema['maximum'], 2 ** 31) });
      case 'number':
        return fc.double({ noNaN: true, noDefaultInfinity: true, min: bound(schema['minimum'], -1e12), max: bound(schema['maximum'], 1e12) });
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array': {
        const items = (schema['items'] as Schema | undefined) ?? {};
        const minLength = bound(schema['minItems'], 0);
        return fc.array(child(items), { minLength, maxLength: Math.max(minLength, Math.min(bound(schema['maxItems'], MAX_ITEMS), MAX_ITEMS)) });
      }
      case 'object': {
        const properties = (schema['properties'] as Record<string, Schema> | undefined) ?? {};
        const required = (schema['required'] as string[] | undefined) ?? [];
        const record: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [key, property] of Object.entries(properties)) {
          const hint = this.hints.get(key);
          record[key] = hint === undefined ? child(property) : fc.oneof({ weight: 3, arbitrary: hint }, { weight: 1, arbitrary: child(property) });
        }
        return fc.record(record, { requiredKeys: required.filter((k) => k in record) });
      }
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  }

  hostile(input: Schema, depth = 0): fc.Arbitrary<unknown> {
    const schema = this.resolve(input);
    const generic = fc.constantFrom(...HOSTILE_SCALARS);
    const specific: fc.Arbitrary<unknown>[] = [];
    const type = schema['type'];
    if (type === 'integer' || type === 'number') {
      const min = schema['minimum'];
      const max = schema['maximum'];
      if (typeof min === 'number') specific.push(fc.constantFrom(min - 1, min - 0.5));
      if (typeof max === 'number') specific.push(fc.constantFrom(max + 1, max + 0.5));
      specific.push(fc.double(), fc.integer().map(String));
    }
    if (type === 'string') {
      const max = schema['maxLength'];
      if (typeof max === 'number') specific.push(fc.constant('a'.repeat(max + 1)));
      if (typeof schema['minLength'] === 'number' && schema['minLength'] > 0) specific.push(fc.constant(''));
      specific.push(fc.string({ unit: 'binary', maxLength: MAX_STRING }));
    }
    if (Array.isArray(schema['enum'])) specific.push(fc.constantFrom('not-in-enum', String(schema['enum'][0]).toUpperCase(), `${String(schema['enum'][0])} `));
    if (type === 'object' && depth < 3) {
      const properties = Object.keys((schema['properties'] as Record<string, Schema> | undefined) ?? {});
      const valid = this.valid(schema, depth) as fc.Arbitrary<Record<string, unknown>>;
      // A required field missing, an unknown field added, one field made hostile.
      if (properties.length > 0) {
        specific.push(
          fc.tuple(valid, fc.constantFrom(...properties)).map(([o, k]) => {
            const copy = { ...o };
            delete copy[k];
            return copy;
          }),
          fc.tuple(valid, fc.constantFrom(...properties), fc.constantFrom(...HOSTILE_SCALARS)).map(([o, k, v]) => ({ ...o, [k]: v })),
        );
      }
      specific.push(valid.map((o) => ({ ...o, unexpected_field: 1 })));
    }
    if (type === 'array') specific.push(fc.array(generic, { maxLength: 3 }), fc.constant(Array.from({ length: 3_000 }, () => 'x')));
    return specific.length === 0 ? generic : fc.oneof(generic, ...specific);
  }

  private string(schema: Schema): fc.Arbitrary<unknown> {
    if (schema['format'] === 'date-time') return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
    const minLength = bound(schema['minLength'], 0);
    const maxLength = Math.max(minLength, Math.min(bound(schema['maxLength'], MAX_STRING), MAX_STRING));
    const pattern = schema['pattern'];
    if (typeof pattern === 'string') {
      const re = new RegExp(pattern, 'u');
      try {
        return fc.stringMatching(re).filter((s) => s.length >= minLength && s.length <= bound(schema['maxLength'], Infinity));
      } catch {
        return fc.string({ minLength, maxLength, unit: 'grapheme' }).filter((s) => re.test(s));
      }
    }
    return fc.oneof(fc.string({ minLength, maxLength }), fc.string({ minLength, maxLength, unit: 'grapheme' }));
  }
}

function bound(value: unknown, fallback: number): number {
  return typeof value === 'number' ? value : fallback;
}
