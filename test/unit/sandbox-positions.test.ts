/**
 * The sandbox endpoints' pure parts: decimal numbers to exact scaled integers
 * (domain/units.ts `decimalToScaled`), the instrument a sandbox symbol names and the whole-call
 * check of a positions write (execution/sandbox.ts). The endpoints themselves, against the real
 * service: test/integration/sandbox-endpoints.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { decimalToScaled } from '../../domain/units.ts';
import { checkSandboxPositions, sandboxInstrument, SANDBOX_MAX_POSITIONS, statedPosition, type SandboxPositionInput } from '../../execution/sandbox.ts';

describe('decimalToScaled', () => {
  it('is exact where a float multiply drifts', () => {
    assert.equal(0.29 * 1e8, 28_999_999.999999996);
    assert.equal(decimalToScaled(0.29, 8), 29_000_000n);
    assert.equal(decimalToScaled(1_000_000_000, 8), 100_000_000_000_000_000n);
    assert.equal(decimalToScaled(-0.01, 8), -1_000_000n);
    assert.equal(decimalToScaled(1e-7, 8), 10n, 'exponent form: String(1e-7) is "1e-7"');
    assert.equal(decimalToScaled(1.5e-7, 8), 15n);
    assert.equal(decimalToScaled(1e21, 8), 10n ** 29n, 'exponent form: "1e+21"');
    assert.equal(decimalToScaled(0.123456789, 9), 123_456_789n);
    assert.equal(decimalToScaled(-0, 8), 0n);
  });

  it('refuses more decimal places than the unit holds, and what is not finite', () => {
    assert.equal(decimalToScaled(0.123456789, 8), undefined);
    assert.equal(decimalToScaled(0.1 + 0.2, 8), undefined, '0.30000000000000004');
    assert.equal(decimalToScaled(1e-9, 8), undefined);
    assert.equal(decimalToScaled(5e-324, 8), undefined);
    for (const x of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) assert.equal(decimalToScaled(x, 8), undefined);
  });

  it('gives back the integer a decimal text names (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), fc.integer({ min: 0, max: 8 }), (k, d) => {
        // The number a JSON parser makes of the text `k x 10^-d`.
        const x = Number(`${k}e-${d}`);
        assert.equal(decimalToScaled(x, 8), k * 10n ** BigInt(8 - d));
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('sandboxInstrument (rules 4 and 5)', () => {
  const token = '7'.repeat(78);
  it('parses event-contract symbols: ticker:YES, ticker:NO, a token id of 30+ digits, anything else', () => {
    const ev = (market_slug: string, outcome: string, token_id: string | null) => ({ kind: 'event_contract', market_slug, outcome, token_id, expiry_ts: null });
    assert.deepEqual(sandboxInstrument('event_contract', 'FED-25DEC:YES'), ev('FED-25DEC', 'YES', null));
    assert.deepEqual(sandboxInstrument('event_contract', 'FED-25DEC:NO'), ev('FED-25DEC', 'NO', null));
    assert.deepEqual(sandboxInstrument('event_contract', token), ev(token, 'YES', token));
    assert.deepEqual(sandboxInstrument('event_contract', '1'.repeat(30)), ev('1'.repeat(30), 'YES', '1'.repeat(30)));
    assert.deepEqual(sandboxInstrument('event_contract', '1'.repeat(29)), ev('1'.repeat(29), 'YES', null));
    assert.deepEqual(sandboxInstrument('event_contract', 'will-it-rain'), ev('will-it-rain', 'YES', null));
    assert.deepEqual(sandboxInstrument('event_contract', ':YES'), ev(':YES', 'YES', null), 'no ticker: the whole string');
    assert.deepEqual(sandboxInstrument('event_contract', 'a:yes'), ev('a:yes', 'YES', null), 'the suffix is upper case');
    assert.equal(sandboxInstrument('event_contract', ''), undefined);
  });

  it('takes asset codes for fiat and crypto (the asset decides the kind) and full symbols for perps', () => {
    assert.deepEqual(sandboxInstrument('fiat', 'EUR'), { kind: 'fiat', code: 'EUR' });
    assert.deepEqual(sandboxInstrument('crypto', 'USDT'), { kind: 'crypto', symbol: 'USDT' });
    assert.deepEqual(sandboxInstrument('perp', 'BTC-USDT'), { kind: 'perp', symbol: 'BTC-USDT', base: 'BTC' });
    assert.equal(sandboxInstrument('fiat', 'USDT'), undefined);
    assert.equal(sandboxInstrument('crypto', 'USD'), undefined);
    assert.equal(sandboxInstrument('crypto', 'btc'), undefined);
    assert.equal(sandboxInstrument('perp', 'BTC'), undefined);
  });
});

describe('checkSandboxPositions (rules 1 and 2)', () => {
  const p = (over: Partial<SandboxPositionInput>): SandboxPositionInput => ({ venue: 'binance', kind: 'crypto', symbol: 'BTC', qty: 1, ...over });

  it('converts exactly, with the default entry price: $1 for fiat and stablecoins, 0 otherwise; perps may be short', () => {
    const checked = checkSandboxPositions([
      p({ kind: 'fiat', symbol: 'GBP', qty: 10.5 }),
      p({ symbol: 'DAI', qty: 3 }),
      p({ qty: 0.29 }),
      p({ venue: 'hyperliquid', kind: 'perp', symbol: 'ETH-USDC', qty: -2.5, entry_price_usd: 3400.5 }),
      p({ venue: 'kalshi', kind: 'event_contract', symbol: 'X:NO', qty: 0 }),
    ]);
    assert.ok('rows' in checked);
    assert.deepEqual(checked.rows, [
      ['binance', 'fiat', 'GBP', '1050000000', '1000000000'],
      ['binance', 'crypto', 'DAI', '300000000', '1000000000'],
      ['binance', 'crypto', 'BTC', '29000000', '0'],
      ['hyperliquid', 'perp', 'ETH-USDC', '-250000000', '3400500000000'],
      ['kalshi', 'event_contract', 'X:NO', '0', '0'],
    ]);
    for (const row of checked.rows) assert.ok(statedPosition(row) !== undefined);
  });

  it('refuses the whole call for any bad position, naming each problem by path', () => {
    const checked = checkSandboxPositions([p({}), p({ qty: -1 }), p({ kind: 'fiat', qty: -1 }), p({ venue: 'nyse' }), p({ kind: 'bond' }), p({ qty: 1e16 }), p({ qty: 1e-9 }), p({ entry_price_usd: -1 })]);
    assert.ok('errors' in checked);
    assert.deepEqual(
      checked.errors.map((e) => e.field),
      ['positions[1].qty', 'positions[2].symbol', 'positions[2].qty', 'positions[3].venue', 'positions[4].kind', 'positions[5].qty', 'positions[6].qty', 'positions[7].entry_price_usd'],
    );
    const many = checkSandboxPositions(Array.from({ length: SANDBOX_MAX_POSITIONS + 1 }, () => p({})));
    assert.deepEqual(many, { errors: [{ field: 'positions', message: `at most ${SANDBOX_MAX_POSITIONS} positions per call` }] });
    const noisy = checkSandboxPositions(Array.from({ length: 500 }, () => p({ qty: -1 })));
    assert.ok('errors' in noisy && noisy.errors.length === 100, 'at most 100 problems reported');
  });

  it('statedPosition refuses a row the check did not make (another sender)', () => {
    assert.equal(statedPosition(['nyse', 'crypto', 'BTC', '1', '0']), undefined);
    assert.equal(statedPosition(['binance', 'bond' as never, 'BTC', '1', '0']), undefined);
    assert.equal(statedPosition(['binance', 'crypto', 'BTC', '1.5', '0']), undefined);
    assert.equal(statedPosition(['binance', 'crypto', 'BTC', '1', '-1']), undefined);
  });
});
