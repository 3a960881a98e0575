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
