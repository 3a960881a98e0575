import { randomBytes } from 'node:crypto';
import { isLosslessNumber, parse as losslessParse } from 'lossless-json';

/**
 * A `_1e8`/`_1e9` field whose literal has 16 or more digits: one a double may not hold exactly.
 * Nanosecond timestamps are that long too, in nearly every answer; only these fields need the
 * slow exact parse.
 */
const LONG_EXACT_FIELD = /_1e[89]"\s*:\s*-?\d{16}/;
const INTEGER = /^-?\d+$/;

/** The fields kept exact: the spec's fixed-point quantities and amounts. */
const EXACT_FIELD = /_1e[89]$/;

/**
 * A response body parsed with its quantities and amounts exact: a `_1e8`/`_1e9` field whose
 * integer is past 2^53 becomes a `bigint`; every other number is a `number`, as `JSON.parse`
 * gives it (nanosecond timestamps, which are past 2^53 too, stay numbers: they were doubles in
 * the service already). A body with no long `_1e8`/`_1e9` literal takes `JSON.parse` alone (the
 * common case, one regex scan).
 */
export function parseExact(text: string): unknown {
  if (!LONG_EXACT_FIELD.test(text)) return JSON.parse(text);
  return losslessParse(text, (key: string, value: unknown) => {
    if (!isLosslessNumber(value)) return value;
    const source = value.toString();
    const n = Number(source);
    return EXACT_FIELD.test(key) && INTEGER.test(source) && !Number.isSafeInteger(n) ? BigInt(source) : n;
  });
}

/**
 * `JSON.stringify` that writes a `bigint` as an integer literal (Node 20 has no `JSON.rawJSON`):
 * each bigint is first written as a string marker carrying a random nonce (no string a caller
 * sends can forge it), which its digits then replace.
 */
export function stringifyExact(value: unknown): string {
  const digits: string[] = [];
  const nonce = randomBytes(8).toString('hex');
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'bigint') return v;
    digits.push(v.toString());
    return `bigint:${nonce}:${digits.length - 1}`;
  });
  return digits.length === 0 ? text : text.replace(new RegExp(`"bigint:${nonce}:(\\d+)"`, 'g'), (_m, i: string) => digits[Number(i)]!);
}
