/** The typed client's exact JSON (client/src/json.ts): integers past 2^53 round-trip as bigint, everything else as JSON.parse gives it. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseExact, stringifyExact } from '../../client/src/json.ts';
import { retryAfterMs } from '../../client/src/retry.ts';

describe('client exact JSON', () => {
  it('a _1e8/_1e9 integer past 2^53 parses as a bigint; a safe one, a decimal and a timestamp as numbers', () => {
    const body = parseExact('{"qty_1e8": 9007199254740993, "price_1e9": 95000000000000, "ratio": 0.12345678901234567, "ids": ["12345678901234567890"], "ts_unix_ns": 1795816192948000123}') as Record<string, unknown>;
    assert.equal(body['qty_1e8'], 9007199254740993n);
    assert.equal(body['ts_unix_ns'], 1795816192948000123, 'a timestamp stays a number: only _1e8/_1e9 fields are kept exact');
    assert.equal(body['price_1e9'], 95_000_000_000_000);
    assert.equal(typeof body['ratio'], 'number');
    assert.deepEqual(body['ids'], ['12345678901234567890'], 'a digit string stays a string');
  });

  it('any _1e8 integer round-trips exactly through stringifyExact and parseExact', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }), fc.string(), (n, s) => {
        const back = parseExact(stringifyExact({ qty_1e8: n, s })) as { qty_1e8: bigint | number; s: string };
        assert.equal(BigInt(back.qty_1e8), n);
        assert.equal(back.s, s);
        if (Number.isSafeInteger(Number(n))) assert.equal(typeof back.qty_1e8, 'number');
      }),
    );
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    assert.equal(retryAfterMs('2', 0), 2_000);
    assert.equal(retryAfterMs(new Date(10_000).toUTCString(), 4_000), 6_000);
    assert.equal(retryAfterMs(null, 0), undefined);
    assert.equal(retryAfterMs('soon', 0), undefined);
  });
});
