import { UsageError } from './args.ts';

const DECIMAL = /^(\d*)(?:\.(\d*))?$/;

/**
 * A decimal from the command line as the service's fixed-point integer (`scale` 8 for `_1e8`
 * quantities, 9 for `_1e9` prices), by digit-string arithmetic: `0.1` is exactly 10000000, never
 * the double nearest 0.1 times 1e8. Digits past the scale are refused unless they are zeros
 * (rounding an order's size or price silently would trade something else than was typed). A
 * value past 2^53 is a `bigint`, which the client serializes exactly.
 */
export function toScaled(flag: string, text: string, scale: number): number | bigint {
  const m = DECIMAL.exec(text);
  const int = m?.[1] ?? '';
  const frac = m?.[2] ?? '';
  if (m === null || (int === '' && frac === '')) throw new UsageError(`--${flag} must be a plain decimal such as 0.01 or 65000.5 (got ${JSON.stringify(text)})`);
  if (frac.length > scale && /[^0]/.test(frac.slice(scale))) {
    throw new UsageError(`--${flag} ${text} has more than ${scale} decimal places (the service counts in units of 1e-${scale})`);
  }
  const scaled = BigInt(`${int}${frac.slice(0, scale).padEnd(scale, '0')}`);
  return scaled <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(scaled) : scaled;
}

/**
 * A fixed-point integer as an exact decimal string, trailing zeros dropped (`1500000000`, 9 ->
 * `1.5`). A `bigint` (a value past 2^53, parsed exactly by the client) prints every digit.
 */
export function fromScaled(value: number | bigint | null | undefined, scale: number): string {
  if (value === null || value === undefined) return '-';
  if (typeof value === 'number' && !Number.isInteger(value)) return String(value);
  const big = BigInt(value);
  const negative = big < 0n;
  const digits = (negative ? -big : big).toString().padStart(scale + 1, '0');
  const frac = digits.slice(-scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${digits.slice(0, -scale)}${frac === '' ? '' : `.${frac}`}`;
}

/**
 * The generated request types say `number` for `_1e8`/`_1e9` fields because JSON Schema has no
 * bigint; the client's body serializer writes a `bigint` as an exact integer literal, so one past
 * 2^53 travels intact and the service, not a double, decides whether it is acceptable.
 */
export function wire(value: number | bigint): number {
  return value as unknown as number;
}
