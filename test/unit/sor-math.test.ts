/**
 * The router's exact integer helpers (execution/sor/sor-math.ts) against BigInt, on random
 * inputs over the whole safe-integer range and on the edges (0, 2^53 - 1, exact multiples).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  feeE9,
  floorDiv,
  lastRemE9,
  maxAffordable,
  minQtyForNotional,
  mulDivE9,
  mulDivE9Ceil,
  mulDivSmall,
  mulDivSmallCeil,
  notionalE9,
  pqAdd,
  pqClear,
  pqDivE9,
  PQ_LIMBS,
  vwapE9,
} from '../../execution/sor/sor-math.ts';

const MAX = Number.MAX_SAFE_INTEGER;
const E9 = 1_000_000_000n;
const big = (n: number) => BigInt(n);
const safe = (b: bigint) => (b > BigInt(MAX) ? Infinity : Number(b));
/** Whole range, with extra weight on realistic prices (1e6..1e15) and quantities (1..1e12). */
const anyInt = fc.oneof(fc.maxSafeNat(), fc.integer({ min: 0, max: 1_000_000_000_000_000 }), fc.integer({ min: 0, max: 2_000_000_000 }));
const runs = { numRuns: 3000 };

describe('sor-math: exact integer helpers vs BigInt', () => {
  it('floorDiv', () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), fc.integer({ min: 1, max: 2 ** 40 }), (x, d) => floorDiv(x, d) === Number(big(x) / big(d))),
      runs,
    );
    assert.equal(floorDiv(MAX, 1_000_000_000), 9_007_199);
    assert.equal(floorDiv(2_999_999_999, 1_000_000_000), 2);
  });

  it('mulDivE9 and its remainder, mulDivE9Ceil', () => {
    fc.assert(
      fc.property(anyInt, anyInt, (a, b) => {
        const p = big(a) * big(b);
        const q = mulDivE9(a, b);
        const want = safe(p / E9);
        if (want === Infinity) return q === Infinity;
        return q === want && lastRemE9() === Number(p % E9) && mulDivE9Ceil(a, b) === Number((p + E9 - 1n) / E9);
      }),
      runs,
    );
    // Edges: the largest exact quotient, and one past it.
    assert.equal(mulDivE9(MAX, 1_000_000_000), MAX);
    assert.equal(mulDivE9(MAX, 1_000_000_001), Infinity);
    assert.equal(mulDivE9(95_000_000_000_000, 10_000_000_000), 950_000_000_000_000); // 100 BTC at 95,000 = 9.5M quote
    assert.equal(mulDivE9(95_000_000_000_000, 100_000_000_000), Infinity); // 1,000 BTC: 9.5e15 > 2^53 quote_1e8
    assert.equal(mulDivE9Ceil(3, 1), 1);
    assert.equal(mulDivE9Ceil(0, 5), 0);
  });

  it('notionalE9 equals units.ts notionalUsd1e9 (floor(p*q/1e8))', () => {
    fc.assert(
      fc.property(anyInt, anyInt, (p, q) => notionalE9(p, q) === safe((big(p) * big(q)) / 100_000_000n)),
      runs,
    );
  });

  it('mulDivSmall / mulDivSmallCeil for small multipliers', () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), fc.integer({ min: 0, max: 2_000_000 }), fc.integer({ min: 1, max: 2_000_000 }), (a, b, d) => {
        const p = big(a) * big(b);
        return mulDivSmall(a, b, d) === safe(p / big(d)) && mulDivSmallCeil(a, b, d) === safe((p + big(d) - 1n) / big(d));
      }),
      runs,
    );
  });

  it('maxAffordable: the largest q <= cap whose ceil(p*q/1e9) fits the budget', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 52 }),
        fc.integer({ min: 1, max: 10 ** 15 }),
        fc.integer({ min: 0, max: 10 ** 13 }),
        (budget, price, cap) => {
          const q = maxAffordable(budget, price, cap);
          const cost = (x: number) => (big(price) * big(x) + E9 - 1n) / E9;
          const want = BigInt(Math.min(cap, Number((big(budget) * E9) / big(price))));
          return big(q) === want && cost(q) <= big(budget);
        },
      ),
      runs,
    );
  });

  it('minQtyForNotional: the smallest q with floor(p*q/1e8) >= min', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 ** 15 }), fc.integer({ min: 0, max: 10 ** 12 }), (price, min) => {
        const q = minQtyForNotional(price, min);
        const want = min <= 0 ? 0n : (big(min) * 100_000_000n + big(price) - 1n) / big(price);
        return q === safe(want);
      }),
      runs,
    );
  });

  it('feeE9: ceil for fees, toward zero for rebates, centi-bps exact', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 50 }), fc.integer({ min: -5_000, max: 100_000 }), (notional, cb) => {
        const p = big(notional) * big(Math.abs(cb));
        const want = cb >= 0 ? (p + 999_999n) / 1_000_000n : -(p / 1_000_000n);
        return feeE9(notional, cb) === Number(want);
      }),
      runs,
    );
    assert.equal(feeE9(200_070_000_000, 1_000), 200_070_000); // $200.07 at 10 bps = $0.20007
    assert.equal(feeE9(1, 1), 1); // any positive fraction rounds up
    assert.equal(feeE9(1, -1), 0); // a rebate fraction rounds toward zero
  });

  it('vwapE9: floor of (a*1e9 + r) / qty', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 50 }),
        fc.integer({ min: 0, max: 999_999_999 }),
        fc.integer({ min: 1, max: 2 ** 50 }),
        (a, r, qty) => {
          const want = (big(a) * E9 + big(r)) / big(qty);
          if (want > BigInt(MAX)) return true;
          return vwapE9(a, r, qty) === Number(want);
        },
      ),
      runs,
    );
  });

  it('pqAdd / pqDivE9: exact running sum of price x qty, quotient and remainder by 1e9', () => {
    const acc = new Float64Array(PQ_LIMBS * 2);
    fc.assert(
      fc.property(fc.array(fc.tuple(anyInt, anyInt), { maxLength: 40 }), fc.boolean(), (terms, second) => {
        const o = second ? PQ_LIMBS : 0; // a venue's limbs live at an offset
        pqClear(acc, o);
        let sum = 0n;
        for (const [p, q] of terms) {
          pqAdd(acc, o, p, q);
          sum += big(p) * big(q);
        }
        const q = pqDivE9(acc, o);
        const want = safe(sum / E9);
        if (want === Infinity) return q === Infinity;
        if (q !== want || lastRemE9() !== Number(sum % E9)) return false;
        // Dividing does not disturb the sum: more terms keep adding to it.
        pqAdd(acc, o, 95_000_000_000_000, 12_345);
        sum += 95_000_000_000_000n * 12_345n;
        return pqDivE9(acc, o) === safe(sum / E9) && lastRemE9() === Number(sum % E9);
      }),
      runs,
    );
  });

  it('pqAdd over many terms: 20,000 BTC-sized takes stay exact; a sum past 2^53 x 1e9 reads Infinity', () => {
    const acc = new Float64Array(PQ_LIMBS);
    let sum = 0n;
    let x = 12345;
    for (let i = 0; i < 20_000; i++) {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      const p = 95_000_000_000_000 + (x % 1_000_000) * 10_000_000; // 95,000.00 .. 105,000.00
      const q = 1 + (x % 5_000_000); // up to 0.05 BTC per take
      pqAdd(acc, 0, p, q);
      sum += big(p) * big(q);
    }
    assert.equal(pqDivE9(acc, 0), Number(sum / E9));
    assert.equal(lastRemE9(), Number(sum % E9));
    // Past the representable quotient (column 2 beyond 2^50 only happens out here: the carry path).
    for (let i = 0; i < 20_000; i++) pqAdd(acc, 0, MAX, 2 ** 36 - 1);
    assert.equal(pqDivE9(acc, 0), Infinity);
  });
});
