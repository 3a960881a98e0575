import { Type } from 'typebox';

/** Shared schemas; named ones become `components.schemas` entries in the OpenAPI document. */
export const FieldErrorSchema = Type.Object(
  { field: Type.String(), message: Type.String() },
  { $id: 'FieldError', additionalProperties: false },
);

export const ErrorBodySchema = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: 'machine-readable code, e.g. VALIDATION_ERROR, NOT_FOUND' }),
      message: Type.String(),
      request_id: Type.String({ description: 'from X-Request-Id or generated' }),
      details: Type.Array(Type.Object({ field: Type.String(), message: Type.String() })),
    }),
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
