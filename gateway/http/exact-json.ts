/**
 * JSON numbers at any size, both ways.
 *
 * In: `JSON.parse` turns every number into a double, so `123456789012.12345678` arrives as
 * 123456789012.12346 and a quantity would be rounded without a word. `exactNumbers(text)` gives
 * the body again with every number as its source text (lossless-json), for the fields that
 * convert decimals to `_1e8`/`_1e9` integers; it is undefined when no number literal is long
 * enough to have been rounded (15 significant digits or fewer always survive a double), which is
 * the common case and costs one regex scan.
 *
 * Out: `stringifyExact(value)` is `JSON.stringify` that writes a bigint as an integer literal
 * (Node 20 has no `JSON.rawJSON`). Bodies without bigints take `JSON.stringify` alone: a
 * bigint makes it throw, and only then is the value written again with each bigint replaced
 * by a marker carrying a per-call random nonce, which the digits then replace.
 */
import { randomBytes } from 'node:crypto';
import { parse as losslessParse } from 'lossless-json';

/** A run of 16 or more digits (a dot may sit inside): a number literal a double may not hold exactly (or a long digit string, which is harmless). */
const LONG_NUMBER = /\d{16}|\d[\d.]{16}/;

/** The body with every number as its exact source text; undefined when every number literal is short enough to be exact as parsed. */
export function exactNumbers(text: string): unknown {
  if (!LONG_NUMBER.test(text)) return undefined;
  return losslessParse(text, null, (source: string) => source);
}

/** The number at `path` of an `exactNumbers` result, as its source text; undefined if absent or not a number there. */
export function numberTextAt(exact: unknown, path: readonly (string | number)[]): string | undefined {
  let at: unknown = exact;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string | number, unknown>)[key];
  }
  return typeof at === 'string' ? at : undefined;
}

/** `JSON.stringify`, with bigints written as exact integer literals. */
export function stringifyExact(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (err) {
    if (!(err instanceof TypeError) || !/BigInt/i.test(err.message)) throw err;
  }
  const marker = `\u0000int:${randomBytes(9).toString('base64url')}:`;
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? marker + v.toString() : v));
  // JSON.stringify writes the NUL of the marker as \u0000: a marked string is "\u0000int:<nonce>:<digits>".
  const escaped = JSON.stringify(marker).slice(1, -1);
  return text.replace(new RegExp(`"${escapeRegExp(escaped)}(-?\\d+)"`, 'g'), '$1');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
