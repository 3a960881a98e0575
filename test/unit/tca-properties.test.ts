/**
 * TCA properties (fast-check): the decomposition identities hold exactly on units (1e-4 bps),
 * each rounded figure is within half a unit of the exact rational, a sell is the mirror of a
 * buy, scaling every quantity changes no bps figure, and the venue breakdown adds up.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { bpsToUnits, computeTca, type TcaFill, type TcaInput, type TcaReport } from '../../execution/tca/tca.ts';

const T0 = 1_700_000_000_000_000_000;
const MID = 100_000_000_000_000; // 100,000 in price_1e9

const fillArb: fc.Arbitrary<TcaFill> = fc.record({
  venue: fc.constantFrom('binance', 'coinbase', 'kraken', 'okx'),
  qty_1e8: fc.integer({ min: 1, max: 1_000_000_000 }),
  // within +-5% of the mid, so the mirror price 2 x MID - p stays positive
  price_1e9: fc.integer({ min: MID - 5_000_000_000_000, max: MID + 5_000_000_000_000 }),
  fee_1e9: fc.constant(0), // set from a rate below
  ts_ns: fc.integer({ min: 0, max: 60_000 }).map((ms) => T0 + ms * 1_048_576),
  is_maker: fc.boolean(),
});

const rawInputArb: fc.Arbitrary<TcaInput> = fc.record({
  side: fc.constantFrom('buy' as const, 'sell' as const),
  qty_1e8: fc.integer({ min: 1, max: 100_000_000_000 }),
  fills: fc.array(fillArb, { minLength: 1, maxLength: 12 }),
  arrival_mid_1e9: fc.constant(MID),
  arrival_ts_ns: fc.constant(T0),
  completed_ts_ns: fc.integer({ min: 0, max: 120_000 }).map((ms) => T0 + ms * 1_048_576),
  best_single_venue: fc.option(
    fc.record({
      venue: fc.constantFrom('binance', 'coinbase'),
      avg_price_1e9: fc.integer({ min: MID - 5_000_000_000_000, max: MID + 5_000_000_000_000 }),
      fee_bps: fc.double({ min: 0, max: 30, noNaN: true }),
    }),
  ),
  arrival_spread_bps: fc.double({ min: -5, max: 50, noNaN: true }),
  is_prediction: fc.boolean(),
  // with prices near 100,000 and up to 100 units filled, notional stays below 2^53 usd_1e9
  quote_usd_1e9: fc.integer({ min: 1_000_000, max: 5_000_000_000 }),
});

/**
 * Fees as a realistic rate of each fill's own notional (-5 to 100 bps): a $100 fee on a
 * 1e-8 BTC fill would be ~1e9 bps, past what a double carries as an exact number of 1e-4 bps.
 */
const inputArb: fc.Arbitrary<TcaInput> = fc
  .tuple(rawInputArb, fc.array(fc.integer({ min: -5, max: 100 }), { minLength: 12, maxLength: 12 }))
  .map(([input, rates]) => ({
    ...input,
    fills: input.fills.map((f, i) => {
      const notionalUsd1e9 = (BigInt(f.price_1e9) * BigInt(f.qty_1e8) * BigInt(input.quote_usd_1e9 ?? 1e9)) / 10n ** 17n;
      return { ...f, fee_1e9: Number((notionalUsd1e9 * BigInt(rates[i] ?? 0)) / 10_000n) };
    }),
  }));

function run(input: TcaInput): TcaReport {
  const r = computeTca(input);
  assert.ok(r !== undefined);
  return r;
}

describe('tca properties', () => {
  it('shortfall = spread + impact and total = shortfall + fee, exactly on units', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const r = run(input);
        const is = bpsToUnits(r.implementation_shortfall_bps);
        assert.equal(is, bpsToUnits(r.spread_cost_bps) + bpsToUnits(r.impact_bps));
        assert.equal(bpsToUnits(r.total_cost_bps), is + bpsToUnits(r.fee_bps));
        // Every reported bps figure is a whole number of units.
        for (const x of [r.implementation_shortfall_bps, r.spread_cost_bps, r.impact_bps, r.fee_bps, r.total_cost_bps]) {
          assert.ok(Math.abs(x * 1e4 - bpsToUnits(x)) < 1e-6, String(x));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('the shortfall is the exact rational side x (VWAP - mid) / mid, within half a unit', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const r = run(input);
        const s = input.side === 'buy' ? 1n : -1n;
        let F = 0n;
        let PQ = 0n;
        for (const f of input.fills) {
          F += BigInt(f.qty_1e8);
          PQ += BigInt(f.price_1e9) * BigInt(f.qty_1e8);
        }
        const MF = BigInt(input.arrival_mid_1e9) * F;
        const exactTimesMF = s * (PQ - MF) * 100_000_000n; // units x MF
        const err = BigInt(bpsToUnits(r.implementation_shortfall_bps)) * MF - exactTimesMF;
        assert.ok(2n * (err < 0n ? -err : err) <= MF, 'within half a unit');
        // VWAP lies between the extreme fill prices.
        const prices = input.fills.map((f) => f.price_1e9);
        assert.ok(r.achieved_vwap_1e9 !== null && r.achieved_vwap_1e9 >= Math.min(...prices) && r.achieved_vwap_1e9 <= Math.max(...prices));
      }),
      { numRuns: 300 },
    );
  });

  it('a sell at mirrored prices (2 x mid - p) has the same price costs and savings as the buy', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        // Fees 0 so fee bps (relative to each side's own notional) do not differ.
        const buy: TcaInput = { ...input, side: 'buy', fills: input.fills.map((f) => ({ ...f, fee_1e9: 0 })) };
        if (buy.best_single_venue !== null) buy.best_single_venue = { ...buy.best_single_venue, fee_bps: 0 };
        const mirror = (p: number): number => 2 * MID - p;
        const sell: TcaInput = {
          ...buy,
          side: 'sell',
          fills: buy.fills.map((f) => ({ ...f, price_1e9: mirror(f.price_1e9) })),
          best_single_venue: buy.best_single_venue === null ? null : { ...buy.best_single_venue, avg_price_1e9: mirror(buy.best_single_venue.avg_price_1e9) },
        };
        const a = run(buy);
        const b = run(sell);
        assert.equal(b.implementation_shortfall_bps, a.implementation_shortfall_bps);
        assert.equal(b.spread_cost_bps, a.spread_cost_bps);
        assert.equal(b.impact_bps, a.impact_bps);
        assert.equal(b.total_cost_bps, a.total_cost_bps);
        assert.equal(b.savings_vs_best_single_venue_bps, a.savings_vs_best_single_venue_bps);
        assert.equal(b.savings_usd_1e9, a.savings_usd_1e9);
        assert.equal(b.probability_slippage_bps, a.probability_slippage_bps);
        // VWAP is rounded to the nearest 1e-9 with halves away from zero, so a half may go
        // either way once mirrored.
        assert.ok(a.achieved_vwap_1e9 !== null && b.achieved_vwap_1e9 !== null);
        assert.ok(Math.abs(b.achieved_vwap_1e9 - mirror(a.achieved_vwap_1e9)) <= 1);
      }),
      { numRuns: 300 },
    );
  });

  it('scaling every fill (qty and fee) by k changes no bps figure', () => {
    fc.assert(
      fc.property(inputArb, fc.integer({ min: 2, max: 50 }), (input, k) => {
        const scaled: TcaInput = {
          ...input,
          qty_1e8: input.qty_1e8 * k,
          fills: input.fills.map((f) => ({ ...f, qty_1e8: f.qty_1e8 * k, fee_1e9: f.fee_1e9 * k })),
        };
        const a = run(input);
        const b = run(scaled);
        for (const field of ['implementation_shortfall_bps', 'spread_cost_bps', 'impact_bps', 'fee_bps', 'total_cost_bps', 'savings_vs_best_single_venue_bps', 'fill_ratio', 'achieved_implied_prob_bps', 'probability_slippage_bps'] as const) {
          assert.equal(b[field], a[field], field);
        }
        assert.equal(b.achieved_vwap_1e9, a.achieved_vwap_1e9);
      }),
      { numRuns: 200 },
    );
  });

  it('prediction: slippage = side x (achieved - arrival) exactly on units; achieved within a unit of VWAP / 1e5', () => {
    fc.assert(
      fc.property(inputArb, (raw) => {
        // Probabilities: prices and mid in (0, 1e9).
        const fills = raw.fills.map((f) => ({ ...f, price_1e9: 1 + (f.price_1e9 % 999_999_999) }));
        const input: TcaInput = { ...raw, fills, is_prediction: true, arrival_mid_1e9: 1 + (raw.qty_1e8 % 999_999_999) };
        const r = run(input);
        const s = input.side === 'buy' ? 1 : -1;
        const achieved = bpsToUnits(r.achieved_implied_prob_bps ?? Number.NaN);
        const arrival = bpsToUnits(r.arrival_implied_prob_bps);
        assert.equal(bpsToUnits(r.probability_slippage_bps), s * (achieved - arrival));
        assert.ok(Math.abs(arrival * 10 - input.arrival_mid_1e9) <= 5, 'arrival = mid / 1e5 bps, to the nearest unit');
        // exact achieved units = VWAP / 10 = PQ / (10 F)
        let F = 0n;
        let PQ = 0n;
        for (const f of fills) {
          F += BigInt(f.qty_1e8);
          PQ += BigInt(f.price_1e9) * BigInt(f.qty_1e8);
        }
        const err = BigInt(achieved) * 10n * F - PQ;
        assert.ok((err < 0n ? -err : err) <= 10n * F, 'within one unit');
      }),
      { numRuns: 300 },
    );
  });

  it('the venue breakdown adds up to the order', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const r = run(input);
        assert.equal(r.venues.reduce((s, v) => s + v.qty_1e8, 0), r.filled_qty_1e8);
        assert.equal(r.venues.reduce((s, v) => s + v.fee_1e9, 0), r.fees_usd_1e9);
        assert.ok(Math.abs(r.venues.reduce((s, v) => s + v.share, 0) - 1) < 1e-9);
        assert.equal(new Set(r.venues.map((v) => v.venue)).size, r.venues.length);
        for (let i = 1; i < r.venues.length; i++) assert.ok((r.venues[i - 1]?.qty_1e8 ?? 0) >= (r.venues[i]?.qty_1e8 ?? 0));
        assert.ok(r.time_to_first_fill_ms !== null && r.time_to_first_fill_ms >= 0 && r.execution_time_ms >= 0);
        if (!r.is_prediction) assert.equal(r.probability_slippage_bps, 0);
      }),
      { numRuns: 300 },
    );
  });

  it('a worse fill never improves the shortfall or the savings', () => {
    fc.assert(
      fc.property(inputArb, fc.nat(), fc.integer({ min: 1, max: 1_000_000_000_000 }), (input, pick, worsen) => {
        const i = pick % input.fills.length;
        const s = input.side === 'buy' ? 1 : -1;
        const fills = input.fills.map((f, j) => (j === i ? { ...f, price_1e9: f.price_1e9 + s * worsen } : f));
        const a = run(input);
        const b = run({ ...input, fills });
        assert.ok(b.implementation_shortfall_bps >= a.implementation_shortfall_bps);
        if (a.savings_vs_best_single_venue_bps !== null && b.savings_vs_best_single_venue_bps !== null) {
          assert.ok((b.savings_usd_1e9 ?? 0) <= (a.savings_usd_1e9 ?? 0));
        }
      }),
      { numRuns: 200 },
    );
  });
});
