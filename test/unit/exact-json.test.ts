/**
 * Exact JSON numbers both ways (gateway/http/exact-json.ts, domain/units.ts decimalToScaled):
 * bigints written as integer literals, source texts of long number literals, and decimals
 * scaled to integers from those texts without rounding.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { isInteger, parse } from 'lossless-json';
import { decimalToScaled, exactInt } from '../../domain/units.ts';
import { exactNumbers, numberTextAt, stringifyExact } from '../../gateway/http/exact-json.ts';

/** A parse that keeps every integer exact (a bigint when a double would round it), as a careful client would. */
const parseExact = (text: string): unknown => parse(text, null, (s) => (isInteger(s) && !Number.isSafeInteger(Number(s)) ? BigInt(s) : Number(s)));

describe('stringifyExact', () => {
  it('is JSON.stringify for data without bigints', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        assert.equal(stringifyExact(v), JSON.stringify(v));
      }),
    );
  });

  it('writes bigints of any size as exact integer literals, the rest as JSON.stringify does', () => {
    const big = fc.bigInt({ min: -(2n ** 128n), max: 2n ** 128n });
    fc.assert(
      fc.property(fc.array(fc.record({ qty_1e8: big, label: fc.string(), n: fc.integer() }), { maxLength: 8 }), (rows) => {
        const text = stringifyExact({ rows });
        assert.deepEqual(parseExact(text), { rows: rows.map((r) => ({ ...r, qty_1e8: exactInt(r.qty_1e8) })) });
      }),
    );
    assert.equal(stringifyExact({ nav_usd_1e9: 30_000_000_000_000_000_000n, n: 1 }), '{"nav_usd_1e9":30000000000000000000,"n":1}');
  });

  it('a string that imitates the bigint marker stays a string', () => {
    const forged = '\u0000int:AAAAAAAAAAAA:123';
    const text = stringifyExact({ a: 1n, s: forged });
    assert.deepEqual(JSON.parse(text), { a: 1, s: forged });
  });
});

describe('exactNumbers', () => {
  it('is undefined when every number literal is short enough to be exact as a double', () => {
    assert.equal(exactNumbers('{"qty":1.5,"positions":[{"qty":123456789.12345}]}'), undefined);
  });

  it('gives each long number literal its source text, where JSON.parse rounds it', () => {
    const text = '{"positions":[{"qty":123456789012.12345678,"symbol":"X"},{"qty":1E5}],"n":-9007199254740993}';
    const exact = exactNumbers(text);
    assert.equal(numberTextAt(exact, ['positions', 0, 'qty']), '123456789012.12345678');
    assert.equal(numberTextAt(exact, ['positions', 1, 'qty']), '1E5');
    assert.equal(numberTextAt(exact, ['n']), '-9007199254740993');
    assert.equal(numberTextAt(exact, ['positions', 2, 'qty']), undefined);
    assert.notEqual(String((JSON.parse(text) as { positions: { qty: number }[] }).positions[0]!.qty), '123456789012.12345678', 'a double rounds it');
  });
});

describe('decimalToScaled from source text', () => {
  it('scales long decimals exactly, at any exponent form', () => {
    assert.equal(decimalToScaled('123456789012.12345678', 8), 12_345_678_901_212_345_678n);
    assert.equal(decimalToScaled('1000000000000000', 8), 100_000_000_000_000_000_000_000n);
    assert.equal(decimalToScaled('1E5', 8), 10_000_000_000_000n);
    assert.equal(decimalToScaled('1.5e-8', 8), undefined, 'a ninth decimal place is refused');
    assert.equal(decimalToScaled('-0.00000001', 8), -1n);
  });

  it('neither builds huge powers nor hangs on huge exponents', () => {
    assert.equal(decimalToScaled('0e999999999', 8), 0n);
    assert.equal(decimalToScaled('1e999999999', 8), undefined);
    assert.equal(decimalToScaled('1e-999999999', 8), undefined);
  });

  it('agrees with the shortest text of a double for every decimal a double holds', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), fc.integer({ min: 0, max: 8 }), (units, places) => {
        const text = places === 0 ? units.toString() : (Number(units) / 10 ** places).toString();
        if (decimalToScaled(Number(text), 8) === undefined) return;
        assert.equal(decimalToScaled(text, 8), decimalToScaled(Number(text), 8));
      }),
    );
  });
});
