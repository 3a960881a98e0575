/**
 * An outcome's book across venues: levels at one price summed, best first, cut to depth, a
 * crossed merge left crossed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { consolidateOutcome, type OutcomeSide } from '../../domain/prediction/consolidated.ts';

const L = (price_1e9: number, qty_1e8: number) => ({ price_1e9, qty_1e8 });

describe('consolidateOutcome', () => {
  it('sums a price quoted on both venues and orders each side best first', () => {
    const kalshi: OutcomeSide = { venue: 'kalshi', bids: [L(420_000_000, 10e8), L(410_000_000, 5e8)], asks: [L(440_000_000, 7e8)] };
    const poly: OutcomeSide = { venue: 'polymarket', bids: [L(421_000_000, 3e8), L(420_000_000, 2e8)], asks: [L(439_000_000, 1e8), L(440_000_000, 4e8)] };
    assert.deepEqual(consolidateOutcome([kalshi, poly], 10), {
      bids: [L(421_000_000, 3e8), L(420_000_000, 12e8), L(410_000_000, 5e8)],
      asks: [L(439_000_000, 1e8), L(440_000_000, 11e8)],
    });
    assert.deepEqual(consolidateOutcome([kalshi, poly], 1), { bids: [L(421_000_000, 3e8)], asks: [L(439_000_000, 1e8)] });
  });

  it('leaves a cross-venue cross as it is: a bid on one venue above an ask on the other', () => {
    const a: OutcomeSide = { venue: 'kalshi', bids: [L(500_000_000, 1e8)], asks: [L(520_000_000, 1e8)] };
    const b: OutcomeSide = { venue: 'polymarket', bids: [L(470_000_000, 1e8)], asks: [L(480_000_000, 2e8)] };
    const book = consolidateOutcome([a, b], 5);
    assert.ok(book.bids[0]!.price_1e9 > book.asks[0]!.price_1e9);
  });

  it('keeps every contract within depth: the merged size at a price is the venues\' sum (property)', () => {
    const level = fc.record({ price_1e9: fc.integer({ min: 1, max: 999 }).map((c) => c * 1_000_000), qty_1e8: fc.integer({ min: 1, max: 1_000 }).map((q) => q * 1e8) });
    const side = fc.record({ venue: fc.constant('v'), bids: fc.array(level, { maxLength: 8 }), asks: fc.array(level, { maxLength: 8 }) });
    fc.assert(
      fc.property(fc.array(side, { minLength: 1, maxLength: 3 }), (sides) => {
        const book = consolidateOutcome(sides, 1_000);
        for (const which of ['bids', 'asks'] as const) {
          const total = (levels: readonly { qty_1e8: number }[]) => levels.reduce((n, l) => n + l.qty_1e8, 0);
          assert.equal(total(book[which]), sides.reduce((n, s) => n + total(s[which]), 0));
          assert.equal(new Set(book[which].map((l) => l.price_1e9)).size, book[which].length);
          for (let i = 1; i < book[which].length; i++) assert.ok(which === 'bids' ? book[which][i - 1]!.price_1e9 > book[which][i]!.price_1e9 : book[which][i - 1]!.price_1e9 < book[which][i]!.price_1e9);
        }
      }),
      { numRuns: 300 },
    );
  });
});
