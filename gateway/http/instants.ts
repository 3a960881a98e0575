import { Errors } from '../errors.ts';

const NS_PER_MS = 1_000_000;

/** A query's instant: ISO 8601 or integer nanoseconds, to ms; a 400 naming `field` otherwise. */
export function parseInstantMs(value: string, field: string): number {
  if (/^\d{1,20}$/.test(value)) return Math.floor(Number(value) / NS_PER_MS);
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw Errors.validation([{ field, message: 'must be ISO 8601 or integer nanoseconds' }]);
  return ms;
}
