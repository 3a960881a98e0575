/**
 * Exact integer arithmetic on doubles for the router's hot loop, without BigInt (a BigInt op
 * allocates; the sweep does one of these per level taken).
 *
 * The products the router needs overflow 2^53: price_1e9 x qty_1e8 is ~1e14 x 1e11 for a large
 * BTC order. Each product is split into limbs small enough that every partial product and sum
 * is an exact double, the same way long multiplication works on paper:
 *
 *     a = a1 * 1e9 + a0,  b = b1 * 1e9 + b0           (a0, b0 < 1e9;  a1, b1 < 2^53 / 1e9)
 *     a * b / 1e9 = a1*b1*1e9 + a1*b0 + a0*b1 + a0*b0 / 1e9
 *     a0 = h * 1e5 + l                                  (h < 1e4, l < 1e5)
 *     a0 * b0 = (h*b0) * 1e5 + l*b0                     (h*b0 < 1e13, l*b0 < 1e14: exact)
 *
 * Inputs are non-negative integers below 2^53; a quotient that would reach 2^53 comes back as
 * Infinity ("more than any balance"), never as a rounded number. test/unit/sor-math.test.ts
 * checks every function against BigInt on random inputs over the whole range.
 */

const E9 = 1_000_000_000;
const E5 = 100_000;
const E4 = 10_000;
const MAX = Number.MAX_SAFE_INTEGER;

/** Remainder of the last `mulDivE9` call: a scratch register, valid until the next call. */
let remE9 = 0;

/** floor(x / d) for integers 0 <= x < 2^53, d > 0 (one correction step covers the rounding of x / d). */
export function floorDiv(x: number, d: number): number {
  let q = Math.floor(x / d);
  const r = x - q * d;
  if (r < 0) q -= 1;
  else if (r >= d) q += 1;
  return q;
}

/** floor(a * b / 1e9), exact; the remainder (0..1e9-1) is left for `lastRemE9()`. */
export function mulDivE9(a: number, b: number): number {
  const a1 = floorDiv(a, E9);
  const a0 = a - a1 * E9;
  const b1 = floorDiv(b, E9);
  const b0 = b - b1 * E9;
  const h = floorDiv(a0, E5);
  const l = a0 - h * E5;
  const u = h * b0;
  const uq = floorDiv(u, E4);
  const w = (u - uq * E4) * E5 + l * b0;
  const wq = floorDiv(w, E9);
  remE9 = w - wq * E9;
  const q = a1 * b1 * E9 + a1 * b0 + a0 * b1 + uq + wq;
  return q > MAX ? Infinity : q;
}

/** The remainder of the last `mulDivE9`. */
export function lastRemE9(): number {
  return remE9;
}

/** ceil(a * b / 1e9), exact: what buying b qty_1e8 at price a costs in quote _1e8 units, rounded against us. */
export function mulDivE9Ceil(a: number, b: number): number {
  const q = mulDivE9(a, b);
  return remE9 > 0 ? q + 1 : q;
}

/** USD 1e9 notional of qty_1e8 at price_1e9: floor(p * q / 1e8), exact (units.ts `notionalUsd1e9` without BigInt). */
export function notionalE9(price1e9: number, qty1e8: number): number {
  const q = mulDivE9(price1e9, qty1e8);
  const n = q * 10 + floorDiv(remE9 * 10, E9);
  return n > MAX ? Infinity : n;
}

/**
 * floor(a * b / d) for integers a in [0, 2^53), b >= 0, d > 0 with b * d <= 2^53 (small
 * multipliers: bps, scales). a = ah * d + al, so a * b / d = ah * b + al * b / d, al * b < d * b.
 */
export function mulDivSmall(a: number, b: number, d: number): number {
  const ah = floorDiv(a, d);
  const x = (a - ah * d) * b;
  const q = ah * b + floorDiv(x, d);
  return q > MAX ? Infinity : q;
}

/** ceil(a * b / d) under the same conditions as `mulDivSmall`. */
export function mulDivSmallCeil(a: number, b: number, d: number): number {
  const ah = floorDiv(a, d);
  const x = (a - ah * d) * b;
  const xq = floorDiv(x, d);
  const q = ah * b + xq + (x - xq * d > 0 ? 1 : 0);
  return q > MAX ? Infinity : q;
}

/** Largest q in [0, cap] with ceil(price * q / 1e9) <= budget: what a quote budget buys at one price. */
export function maxAffordable(budget: number, price1e9: number, cap: number): number {
  if (mulDivE9Ceil(price1e9, cap) <= budget) return cap;
  // The double estimate is within a few units of the answer (relative error ~2^-52); walk to it.
  let q = Math.min(cap, Math.floor((budget / price1e9) * E9));
  while (q > 0 && mulDivE9Ceil(price1e9, q) > budget) q--;
  while (q < cap && mulDivE9Ceil(price1e9, q + 1) <= budget) q++;
  return q;
}

/** Smallest q with notionalE9(price, q) >= minNotional (0 when there is no minimum; Infinity beyond 2^53). */
export function minQtyForNotional(price1e9: number, minNotional1e9: number): number {
  if (minNotional1e9 <= 0) return 0;
  let q = Math.ceil((minNotional1e9 / price1e9) * 100_000_000);
  if (!(q <= MAX)) return Infinity;
  while (notionalE9(price1e9, q) < minNotional1e9) q++;
  while (q > 0 && notionalE9(price1e9, q - 1) >= minNotional1e9) q--;
  return q;
}

/**
 * Fee in USD 1e9 on a notional at a rate in centi-bps (1/100 bps, so 4.5 bps is exact):
 * ceil(notional x cbps / 1e6). A rebate (negative rate) rounds toward zero, the smaller rebate.
 */
export function feeE9(notional1e9: number, centiBps: number): number {
  if (centiBps >= 0) return mulDivSmallCeil(notional1e9, centiBps, 1_000_000);
  const rebate = mulDivSmall(notional1e9, -centiBps, 1_000_000);
  return rebate === 0 ? 0 : -rebate;
}

/** `feeE9` in BigInt, for notionals beyond 2^53 units: ceil(n x cbps / 1e6), a rebate toward zero. */
export function feeE9Big(notional1e9: bigint, centiBps: bigint): bigint {
  return centiBps >= 0n ? (notional1e9 * centiBps + 999_999n) / 1_000_000n : -((notional1e9 * -centiBps) / 1_000_000n);
}

/** A fee rate in bps as integer centi-bps (rates finer than 0.01 bps round to the nearest). */
export function centiBps(bps: number): number {
  return Math.round(bps * 100);
}

/**
 * floor((a * 1e9 + r) / qty) for the exact sum a * 1e9 + r of price x qty products held as a
 * quotient/remainder pair (r < 1e9): the VWAP of an allocation, without BigInt (Infinity when
 * the quotient reaches 2^53, which no price does).
 */
export function vwapE9(a: number, r: number, qty: number): number {
  if (qty <= 0) return 0;
  let m = Math.floor(((a + r / E9) / qty) * E9);
  if (!(m >= 0)) m = 0;
  if (m >= MAX) return Infinity;
  // m * qty <= a * 1e9 + r  <=>  (floor(m*qty/1e9), rem) <= (a, r) lexicographically.
  while (m > 0 && exceeds(m, qty, a, r)) m--;
  while (m < MAX && !exceeds(m + 1, qty, a, r)) m++;
  return m;
}

function exceeds(m: number, qty: number, a: number, r: number): boolean {
  const q = mulDivE9(m, qty);
  return q > a || (q === a && remE9 > r);
}

/*
 * Exact running sums of price x qty without a division per term. A term p * q (< 2^106) is
 * split into base-2^18 digits, p = p2 * 2^36 + p1 * 2^18 + p0 (the same for q), and the nine
 * digit products (each < 2^36) are added into five limb columns:
 *
 *     column   4        3              2                     1              0
 *     adds   p2*q2   p2*q1+p1*q2   p2*q0+p1*q1+p0*q2     p1*q0+p0*q1     p0*q0
 *
 * Splitting by a power of two is exact and costs a multiply and a floor. A column stays exact
 * while it is below 2^53; column 2 grows fastest (up to 3 x 2^36 per term), so carries are
 * pushed up once it passes 2^50 (only sums whose quotient is beyond 2^53 anyway get there, but
 * the limbs stay exact regardless). `pqDivE9` turns the limbs into floor(sum / 1e9) and its
 * remainder by long division, once per venue instead of a division per term.
 */
export const PQ_LIMBS = 5;
const B18 = 262_144;
const INV18 = 1 / B18;
const INV36 = INV18 * INV18;
const B36 = B18 * B18;
const CARRY_AT = 2 ** 50;

/** acc[o..o+4] += p * q, exactly (p, q integers below 2^53). */
export function pqAdd(acc: Float64Array, o: number, p: number, q: number): void {
  const p2 = Math.floor(p * INV36);
  const pr = p - p2 * B18 * B18;
  const p1 = Math.floor(pr * INV18);
  const p0 = pr - p1 * B18;
  if (q < B36) {
    // One level's quantity is nearly always below 2^36 (687 BTC): two digits, six products.
    const q1 = Math.floor(q * INV18);
    const q0 = q - q1 * B18;
    acc[o] = acc[o]! + p0 * q0;
    acc[o + 1] = acc[o + 1]! + (p1 * q0 + p0 * q1);
    const c2 = acc[o + 2]! + (p2 * q0 + p1 * q1);
    acc[o + 2] = c2;
    acc[o + 3] = acc[o + 3]! + p2 * q1;
    if (c2 > CARRY_AT) pqCarry(acc, o);
    return;
  }
  const q2 = Math.floor(q * INV36);
  const qr = q - q2 * B18 * B18;
  const q1 = Math.floor(qr * INV18);
  const q0 = qr - q1 * B18;
  acc[o] = acc[o]! + p0 * q0;
  acc[o + 1] = acc[o + 1]! + (p1 * q0 + p0 * q1);
  const c2 = acc[o + 2]! + (p2 * q0 + p1 * q1 + p0 * q2);
  acc[o + 2] = c2;
  acc[o + 3] = acc[o + 3]! + (p2 * q1 + p1 * q2);
  acc[o + 4] = acc[o + 4]! + p2 * q2;
  if (c2 > CARRY_AT) pqCarry(acc, o);
}

/** Pushes carries up so columns 0..3 are below 2^18 (the value is unchanged). */
function pqCarry(acc: Float64Array, o: number): void {
  for (let k = 0; k < 4; k++) {
    const c = Math.floor(acc[o + k]! * INV18);
    acc[o + k] = acc[o + k]! - c * B18;
    acc[o + k + 1] = acc[o + k + 1]! + c;
  }
}

/** floor(sum / 1e9) of the limbs at acc[o..o+4] (Infinity from 2^53), remainder to `lastRemE9()`. */
export function pqDivE9(acc: Float64Array, o: number): number {
  pqCarry(acc, o);
  let rem = 0;
  let q = 0;
  for (let k = 4; k >= 0; k--) {
    const cur = rem * B18 + acc[o + k]!;
    if (cur > MAX) {
      remE9 = 0;
      return Infinity;
    }
    const d = floorDiv(cur, E9);
    rem = cur - d * E9;
    q = q * B18 + d;
  }
  remE9 = rem;
  return q > MAX ? Infinity : q;
}

/** Clears the limbs at acc[o..o+4]. */
export function pqClear(acc: Float64Array, o: number): void {
  acc.fill(0, o, o + PQ_LIMBS);
}
