/**
 * The live codecs' shared readers: venue decimals past our scale rounded as the caller says
 * (`decimal.ts`), the JSON field readers each venue's integer and id rules pick from (`json.ts`),
 * and a fee written in the quote, the base or a third asset as the engine books it (`fees.ts`).
 * Rounding is checked against hand-computed values and, as a property, against the definition.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { decimalOf, divRounded, exactScaled, looseDecimalOf, safeNumber, scaledRounded, timesRounded, type Rounding } from '../../actors/edge/live/decimal.ts';
import { feeContextOf, pricedFeeOf } from '../../actors/edge/live/fees.ts';
import { idText, instantMs, integerOf, isRecord, lossyIntegerOf, nonNegativeInteger, record, safeInteger, signedIntegerOf, str, u64Text } from '../../actors/edge/live/json.ts';
import { feeContextOf as feeContextOfBinance } from '../../actors/edge/live/binance/codec.ts';

const MODES: Rounding[] = ['floor', 'ceil', 'nearest'];

/** A decimal's text from its mantissa and places, as a venue writes it ("-0.0150"). */
function textOf(mantissa: bigint, places: number): string {
  const digits = (mantissa < 0n ? -mantissa : mantissa).toString().padStart(places + 1, '0');
  const body = places === 0 ? digits : `${digits.slice(0, digits.length - places)}.${digits.slice(digits.length - places)}`;
  return (mantissa < 0n ? '-' : '') + body;
}

describe('decimal text as mantissa and places', () => {
  it('reads plain decimals, signed, and nothing else', () => {
    assert.deepEqual(decimalOf('12.50'), { mantissa: 1250n, places: 2 });
    assert.deepEqual(decimalOf('-0.5'), { mantissa: -5n, places: 1 });
    assert.deepEqual(decimalOf('7'), { mantissa: 7n, places: 0 });
    assert.deepEqual(decimalOf('-0'), { mantissa: 0n, places: 0 });
    for (const bad of ['', '.5', '5.', '.', '-', '1e5', '1E-9', '+1', ' 1', '1 ', '1,5', '--1', '1.2.3', '0x10']) assert.equal(decimalOf(bad), undefined, bad);
  });

  it('reads Polymarket\'s ".48" and "5." only when asked to', () => {
    assert.deepEqual(looseDecimalOf('.48'), { mantissa: 48n, places: 2 });
    assert.deepEqual(looseDecimalOf('5.'), { mantissa: 5n, places: 0 });
    assert.deepEqual(looseDecimalOf('-.5'), { mantissa: -5n, places: 1 });
    assert.deepEqual(looseDecimalOf('0.072'), { mantissa: 72n, places: 3 });
    for (const bad of ['', '.', '-', '-.', '1e5', ' 1', '1.2.3']) assert.equal(looseDecimalOf(bad), undefined, bad);
  });
});

describe('rounded division', () => {
  it('rounds each way, a half away from zero', () => {
    const cases: [bigint, bigint, bigint, bigint, bigint][] = [
      // n, d, floor, ceil, nearest
      [7n, 2n, 3n, 4n, 4n],
      [-7n, 2n, -4n, -3n, -4n],
      [5n, 3n, 1n, 2n, 2n],
      [-5n, 3n, -2n, -1n, -2n],
      [4n, 3n, 1n, 2n, 1n],
      [-4n, 3n, -2n, -1n, -1n],
      [6n, 3n, 2n, 2n, 2n],
      [-6n, 3n, -2n, -2n, -2n],
      [0n, 7n, 0n, 0n, 0n],
    ];
    for (const [n, d, floor, ceil, nearest] of cases) {
      assert.equal(divRounded(n, d, 'floor'), floor, `floor ${n}/${d}`);
      assert.equal(divRounded(n, d, 'ceil'), ceil, `ceil ${n}/${d}`);
      assert.equal(divRounded(n, d, 'nearest'), nearest, `nearest ${n}/${d}`);
    }
  });
});

describe('decimals past our scale', () => {
  it('scales and rounds as the caller says', () => {
    assert.equal(scaledRounded('0.123456789', 8, 'floor'), 12_345_678n);
    assert.equal(scaledRounded('0.123456789', 8, 'ceil'), 12_345_679n);
    assert.equal(scaledRounded('0.123456789', 8, 'nearest'), 12_345_679n);
    assert.equal(scaledRounded('-0.123456789', 8, 'floor'), -12_345_679n, 'a balance down is away from zero below it');
    assert.equal(scaledRounded('-0.123456789', 8, 'ceil'), -12_345_678n, 'a rebate up is toward zero');
    assert.equal(scaledRounded('0.000000005', 8, 'nearest'), 1n);
    assert.equal(scaledRounded('-0.000000005', 8, 'nearest'), -1n);
    assert.equal(scaledRounded('0.000000004', 8, 'nearest'), 0n);
    assert.equal(scaledRounded('3.2223768244', 8, 'floor'), 322_237_682n, "Kraken's balance example");
    assert.equal(scaledRounded('1.5', 8, 'ceil'), 150_000_000n, 'inside the scale: exact whatever the mode');
    assert.equal(scaledRounded('12', 0, 'floor'), 12n);
  });

  it('refuses what is not a decimal string', () => {
    for (const bad of [undefined, null, 1.5, '', '1e-9', '.5', ' 1']) assert.equal(scaledRounded(bad, 8, 'ceil'), undefined, String(bad));
    assert.equal(scaledRounded('.48', 2, 'floor', looseDecimalOf), 48n, 'with the loose reader');
    assert.equal(scaledRounded('5.', 9, 'floor', looseDecimalOf), 5_000_000_000n);
  });

  it('multiplies by any factor, a negative one flipping the sign before rounding', () => {
    assert.equal(timesRounded('-0.01', -1_000_000_000n, 'ceil'), 10_000_000n, "OKX's charge of 0.01 as the engine's");
    assert.equal(timesRounded('0.0000000015', -1_000_000_000n, 'ceil'), -1n, 'a rebate rounds toward zero');
    assert.equal(timesRounded('0.0001', 96_000_000_000_000n, 'ceil'), 9_600_000_000n, '0.0001 BTC at 96000 is 9.6 USD');
    assert.equal(timesRounded('0.000000015', 60_000_000_000_000n, 'ceil'), 900_000n);
    assert.equal(timesRounded('1e-5', 10n, 'ceil'), undefined);
  });

  it('is a number only while exact', () => {
    assert.equal(safeNumber(2n ** 53n - 1n), Number.MAX_SAFE_INTEGER);
    assert.equal(safeNumber(-(2n ** 53n - 1n)), -Number.MAX_SAFE_INTEGER);
    assert.equal(safeNumber(0n), 0);
    assert.ok(Number.isNaN(safeNumber(2n ** 53n)));
    assert.ok(Number.isNaN(safeNumber(undefined)));
  });

  it('reads exact fields from strings only', () => {
    assert.equal(exactScaled('0.29', 8), 29_000_000);
    assert.equal(exactScaled('-1.5', 9), -1_500_000_000);
    for (const bad of [0.29, undefined, null, '0.000000001', '1e5']) assert.ok(Number.isNaN(exactScaled(bad, 8)), String(bad));
  });

  it('floor <= exact <= ceil, one unit apart at most, nearest within half a unit (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: 0, max: 18 }), fc.integer({ min: 0, max: 12 }), (mantissa, places, decimals) => {
        const text = textOf(mantissa, places);
        assert.deepEqual(decimalOf(text), { mantissa, places });
        const floor = scaledRounded(text, decimals, 'floor')!;
        const ceil = scaledRounded(text, decimals, 'ceil')!;
        const nearest = scaledRounded(text, decimals, 'nearest')!;
        // The exact value x 10^places against each result x 10^places.
        const exact = mantissa * 10n ** BigInt(decimals);
        const unit = 10n ** BigInt(places);
        assert.ok(floor * unit <= exact && exact <= ceil * unit);
        assert.ok(ceil - floor === (exact % unit === 0n ? 0n : 1n));
        assert.ok(nearest === floor || nearest === ceil);
        const off = exact - nearest * unit;
        assert.ok(2n * (off < 0n ? -off : off) <= unit);
      }),
      { numRuns: 2_000 },
    );
  });

  it('rounds as rounding the magnitude and restoring the sign (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 24n), max: 10n ** 24n }), fc.integer({ min: 0, max: 15 }), fc.integer({ min: 0, max: 10 }), fc.constantFrom(...MODES), (mantissa, places, decimals, mode) => {
        const negative = mantissa < 0n;
        const digits = negative ? -mantissa : mantissa;
        const shift = decimals - places;
        let magnitude: bigint;
        if (shift >= 0) magnitude = digits * 10n ** BigInt(shift);
        else {
          const unit = 10n ** BigInt(-shift);
          const rest = digits % unit;
          const up = rest !== 0n && (mode === 'nearest' ? 2n * rest >= unit : (mode === 'ceil') !== negative);
          magnitude = digits / unit + (up ? 1n : 0n);
        }
        assert.equal(scaledRounded(textOf(mantissa, places), decimals, mode), negative ? -magnitude : magnitude);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('JSON readers', () => {
  it('strings and objects', () => {
    assert.equal(str('a'), 'a');
    assert.equal(str(1), undefined);
    assert.deepEqual(record({ a: 1 }), { a: 1 });
    for (const bad of [null, [], 'x', 1, undefined]) {
      assert.equal(record(bad), undefined);
      assert.equal(isRecord(bad), false);
    }
    assert.equal(isRecord({}), true);
  });

  it('JSON-number integers', () => {
    assert.equal(safeInteger(-3), -3);
    assert.equal(safeInteger(2 ** 53 - 1), 2 ** 53 - 1);
    for (const bad of [1.5, '1', 2 ** 53, NaN, null]) assert.equal(safeInteger(bad), undefined, String(bad));
    assert.equal(nonNegativeInteger(0), 0);
    assert.equal(nonNegativeInteger(1_700_000_000_000), 1_700_000_000_000);
    for (const bad of [-1, 1.5, '5', 2 ** 53]) assert.equal(nonNegativeInteger(bad), undefined, String(bad));
  });

  it('integers as numbers or quoted digits, each venue its rule', () => {
    assert.equal(integerOf(42), 42);
    assert.equal(integerOf('42'), 42);
    assert.equal(integerOf('9007199254740991'), 2 ** 53 - 1);
    for (const bad of ['-42', '9007199254740993', '1.5', ' 1', '', '+1', 1.5, 2 ** 53]) assert.equal(integerOf(bad), undefined, String(bad));
    assert.equal(integerOf('00000000000000001'), 1, 'leading zeros, any length');
    assert.equal(integerOf('00000000000000001', 16), undefined, 'past 16 digits refused before it is read');
    assert.equal(integerOf('0000000000000001', 16), 1);
    assert.equal(signedIntegerOf('-42'), -42);
    assert.equal(signedIntegerOf('42'), 42);
    for (const bad of ['+1', '-', '--1', '-9007199254740993', 1.5]) assert.equal(signedIntegerOf(bad), undefined, String(bad));
  });

  it("OKX's sequences: past 2^53 the nearest double, not refused", () => {
    assert.equal(lossyIntegerOf('-7'), -7);
    assert.equal(lossyIntegerOf(2 ** 60), 2 ** 60);
    assert.equal(lossyIntegerOf('123456789012345678901'), 1.2345678901234568e20);
    for (const bad of [1.5, '1.5', '', '+1', null]) assert.equal(lossyIntegerOf(bad), undefined, String(bad));
  });

  it('ids as text, exact or refused', () => {
    assert.equal(idText('00012'), '00012');
    assert.equal(idText('12345678901234567890'), '12345678901234567890');
    assert.equal(idText(12), '12');
    for (const bad of ['123456789012345678901', '', '-1', -1, 2 ** 53, 1.5]) assert.equal(idText(bad), undefined, String(bad));
    assert.equal(u64Text('18446744073709551615'), '18446744073709551615');
    assert.equal(u64Text('0'), '0');
    assert.equal(u64Text(7), '7');
    for (const bad of ['18446744073709551616', '012', '', '-1', -1, 2 ** 53]) assert.equal(u64Text(bad), undefined, String(bad));
  });

  it('instants', () => {
    assert.equal(instantMs('2026-03-19T23:20:15Z'), Date.UTC(2026, 2, 19, 23, 20, 15));
    assert.equal(instantMs('2026-03-19 23:20:15+00'), Date.UTC(2026, 2, 19, 23, 20, 15), "Gamma's form");
    for (const bad of ['', 'soon', 5, null, undefined]) assert.equal(instantMs(bad), null, String(bad));
  });
});

describe('fees in the quote, the base or a third asset', () => {
  const pair = { base: 'BTC', quote: 'USDT' };
  const price_1e9 = 60_000_000_000_000;

  it('a quote fee is USD, rounded up', () => {
    assert.deepEqual(pricedFeeOf('USDT', '0.0000000015', pair, price_1e9, 7, 1n), { fee_1e9: 2 });
    assert.deepEqual(pricedFeeOf('USDT', '-0.0000000015', pair, price_1e9, 7, 1n), { fee_1e9: -1 }, 'a rebate toward zero');
    assert.deepEqual(pricedFeeOf('USDT', '-0.01', pair, price_1e9, 7, -1n), { fee_1e9: 10_000_000 }, 'a venue writing charges negative');
  });

  it('a base fee is a commission worth its exact amount at the price', () => {
    // 0.000000015 BTC at 60000 is 0.0009 USD; from the rounded 2e-8 BTC it would be 0.0012.
    assert.deepEqual(pricedFeeOf('BTC', '0.000000015', pair, price_1e9, 7, 1n), { fee_1e9: 900_000, commission: { asset: 'BTC', qty_1e8: 2 } });
    assert.deepEqual(pricedFeeOf('BTC', '0.000000015', pair, price_1e9, 7, -1n), { fee_1e9: -900_000, commission: { asset: 'BTC', qty_1e8: -1 } });
  });

  it('a third asset is a commission priced by the fallback', () => {
    assert.deepEqual(pricedFeeOf('KCS', '0.5', pair, price_1e9, 7, 1n), { fee_1e9: 7, commission: { asset: 'KCS', qty_1e8: 50_000_000 } });
  });

  it('refuses an unreadable amount or one past 2^53 scaled', () => {
    for (const bad of ['', '1e-5', 'abc']) {
      assert.equal(pricedFeeOf('USDT', bad, pair, price_1e9, 7, 1n), undefined, bad);
      assert.equal(pricedFeeOf('KCS', bad, pair, price_1e9, 7, 1n), undefined, bad);
    }
    assert.equal(pricedFeeOf('USDT', '10000000', pair, price_1e9, 7, 1n), undefined, '1e16 in 1e9 units');
    assert.equal(pricedFeeOf('BTC', '1000', pair, price_1e9, 7, 1n), undefined, '1000 BTC at 60000 in 1e9 units');
  });

  it("a listing's fallback is the edge's rate on the fill, also where Binance's codec exports it", () => {
    const fees = feeContextOf(pair, { maker_bps: 2, taker_bps: 5 });
    assert.equal(fees.base, 'BTC');
    assert.equal(fees.fallbackFee(100_000_000_000, 100_000_000, true), 20_000_000);
    assert.equal(fees.fallbackFee(100_000_000_000, 100_000_000, false), 50_000_000);
    assert.deepEqual([feeContextOf(undefined, { maker_bps: 0, taker_bps: 0 }).base, feeContextOf(undefined, { maker_bps: 0, taker_bps: 0 }).quote], ['', '']);
    assert.equal(feeContextOfBinance, feeContextOf);
  });
});
