import type { ExactInt } from '../../domain/units.ts';
import { Type, type Static, type TSchema } from 'typebox';

/** Shared schemas; named ones become `components.schemas` entries in the OpenAPI document. */
export const FieldErrorSchema = Type.Object(
  { field: Type.String(), message: Type.String() },
  { $id: 'FieldError', additionalProperties: false },
);

const OnlyAmbiguous = 'only for AMBIGUOUS_MULTI_OUTCOME';

/**
 * The envelope (gateway/errors.ts). `AMBIGUOUS_MULTI_OUTCOME` also carries `outcomes` and
 * `outcome_token_ids` inside `error` (the spec's Errors table) and repeats `code`, `message`,
 * `request_id`, `outcomes` and `outcome_token_ids` at the top level (the market-data guide's
 * example): optional members here, absent from every other error.
 */
export const ErrorBodySchema = Type.Object(
  {
    error: Type.Object(
      {
        code: Type.String({ description: 'machine-readable code, e.g. VALIDATION_ERROR, NOT_FOUND' }),
        message: Type.String(),
        request_id: Type.String({ description: 'from X-Request-Id or generated' }),
        details: Type.Array(Type.Object({ field: Type.String(), message: Type.String() })),
        outcomes: Type.Optional(Type.Array(Type.String(), { description: `${OnlyAmbiguous}: candidate labels` })),
        outcome_token_ids: Type.Optional(
          Type.Array(Type.String(), { description: `${OnlyAmbiguous}: candidate ids parallel to outcomes, to retry with` }),
        ),
      },
    ),
    code: Type.Optional(Type.String({ description: `${OnlyAmbiguous}: error.code again` })),
    message: Type.Optional(Type.String({ description: `${OnlyAmbiguous}: error.message again` })),
    request_id: Type.Optional(Type.String({ description: `${OnlyAmbiguous}: error.request_id again` })),
    outcomes: Type.Optional(Type.Array(Type.String(), { description: `${OnlyAmbiguous}: candidate labels` })),
    outcome_token_ids: Type.Optional(
      Type.Array(Type.String(), { description: `${OnlyAmbiguous}: candidate ids parallel to outcomes, to retry with` }),
    ),
  },
  { $id: 'ErrorBody', description: 'The error envelope of every non-2xx response' },
);

export const IsoTimestamp = Type.String({ format: 'date-time' });

/**
 * Free text a client stores and others read back (labels, reasons): any Unicode text but
 * control characters (C0, DEL, C1) and lone surrogates, which break terminals, logs and strict
 * JSON or UTF-8 readers downstream. ajv compiles patterns with the `u` flag, so `\p{Cs}` is a
 * surrogate that is not half of a pair.
 */
export function FreeText(maxLength: number, description?: string) {
  return Type.String({ maxLength, pattern: '^[^\\p{Cc}\\p{Cs}]*$', ...(description === undefined ? {} : { description }) });
}

/** `schema` or null: a field the handler always sends, null when it has no value. */
export function Nullable<T extends TSchema>(schema: T, description?: string) {
  return Type.Union([schema, Type.Null()], description === undefined ? {} : { description });
}

/** A closed set of strings; its static type is the union of the values. */
export function StringEnum<const V extends readonly [string, ...string[]]>(values: V, description?: string) {
  return Type.Enum<[...V]>(values, { type: 'string', ...(description === undefined ? {} : { description }) });
}

/** An integer that is a count, a size or an id: never negative. */
export function Count(description?: string) {
  return Type.Integer({ minimum: 0, ...(description === undefined ? {} : { description }) });
}

/**
 * An amount or quantity that is exact at any size: a JSON integer literal, past 2^53 too (the
 * service writes bigints as literals, `gateway/http/exact-json.ts`). A client parsing with plain
 * `JSON.parse` rounds such values; use a parser that keeps big integers (e.g. lossless-json).
 */
export function ExactInteger(options: { description?: string; minimum?: number } = {}) {
  const note = 'exact at any size: may exceed 2^53';
  const description = options.description === undefined ? note : `${options.description}; ${note}`;
  return Type.Unsafe<ExactInt>(Type.Integer({ ...(options.minimum === undefined ? {} : { minimum: options.minimum }), description }));
}

/** Whether A and B admit exactly the same values. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * Ties a response schema to the type its handler builds the body from: `describing<T>()(schema)`
 * type-checks only when the schema's static type and `T` are mutually assignable, so the
 * document cannot drift from the code (a field added, renamed or made nullable in the domain
 * type fails the build here). Returns the schema unchanged.
 */
export function describing<T>() {
  return <S extends TSchema>(schema: S & (Same<Static<S>, T> extends true ? unknown : { '~schema does not describe': T; '~schema allows': Static<S> })): S => schema;
}
