/**
 * Venue wire decimals <-> the engine's scaled integers, exactly and without allocating on the
 * parse side: a depth update carries dozens of "96000.01000000" strings, and `Number(s) * 1e9`
 * would both allocate nothing and drift (0.29 * 1e8 is 28999999.999999996). Venues send at most
 * 8 decimals of quantity and 8-10 of price, inside the scales used here (qty 1e8, price 1e9).
 */

const ZERO = 48;
const DOT = 46;
const MINUS = 45;

/** Powers of ten up to the largest scale used here. */
const POW10 = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000];

/**
 * `text` (a plain decimal, optionally negative) as an integer x 10^`decimals`; NaN when it is not
 * a plain decimal, carries non-zero digits past `decimals` places, or is past 2^53 scaled.
 */
export function parseScaled(text: string, decimals: number): number {
  let i = 0;
  const n = text.length;
  let negative = false;
  if (n > 0 && text.charCodeAt(0) === MINUS) {
    negative = true;
    i = 1;
  }
  let whole = 0;
  let digits = 0;
  for (; i < n; i++) {
    const c = text.charCodeAt(i) - ZERO;
    if (c === DOT - ZERO) break;
    if (c < 0 || c > 9) return NaN;
    whole = whole * 10 + c;
    digits++;
  }
  let frac = 0;
  let places = 0;
  if (i < n) {
    for (i++; i < n; i++) {
      const c = text.charCodeAt(i) - ZERO;
      if (c < 0 || c > 9) return NaN;
      if (places < decimals) {
        frac = frac * 10 + c;
        places++;
      } else if (c !== 0) return NaN;
      digits++;
    }
  }
  if (digits === 0) return NaN;
  const scaled = whole * POW10[decimals]! + frac * POW10[decimals - places]!;
  if (!Number.isSafeInteger(scaled)) return NaN;
  return negative ? -scaled : scaled;
}

/** An integer x 10^`decimals` as the plain decimal a venue accepts: no exponent, no trailing zeros. */
export function formatScaled(scaled: number, decimals: number): string {
  const negative = scaled < 0;
  const digits = String(Math.abs(scaled)).padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const frac = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return (negative ? '-' : '') + (frac === '' ? whole : `${whole}.${frac}`);
}
