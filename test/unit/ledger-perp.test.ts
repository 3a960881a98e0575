/**
 * Perpetual positions in the ledger (execution/ledger/ledger.ts, perp.ts), hand-computed: open,
 * add, reduce, flip, close with realized PnL settled into the quote balance; the initial margin
 * locked there and released; unrealized PnL and the margin read-out against a mark; funding
 * exact to the unit over many intervals; spot and perp rows of one venue apart; snapshots.
 * Units: qty_1e8, price_1e9, usd_1e9; the quote balance (USDT) x 1e8.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Ledger, type ApplyFillResult, type LedgerRow, type SpotFill } from '../../execution/ledger/ledger.ts';
import { fundingPayment1e9, initialMargin1e8, liquidationPrice1e9, settleUsd1e8 } from '../../execution/ledger/perp.ts';

const USD = 1_000_000_000;
const UNIT = 100_000_000;
const PERP = { kind: 'perp' as const, symbol: 'BTC-USDT', base: 'BTC' };
/** 100x: 1% initial margin, 0.5% maintenance. */
const IMR = 100;
let n = 0;

function perpFill(side: 'buy' | 'sell', qty: number, price: number, over: Partial<SpotFill> = {}): SpotFill {
  return {
    fill_id: `p${++n}`,
    venue: 'okx',
    symbol: 'BTC-USDT',
    side,
    qty_1e8: Math.round(qty * UNIT),
    price_1e9: price * USD,
    fee_1e9: 0,
    fee_asset: 'USDT',
    fee_qty_1e8: 0,
    quote_usd_1e9: USD,
    perp: { imr_bps: IMR, ts_ns: 1_000 },
    ...over,
  };
}

function applied(r: ApplyFillResult): LedgerRow[] {
  assert.equal(r.status, 'applied', JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
  return (r as { rows: LedgerRow[] }).rows;
}

function funded(): Ledger {
  const ledger = new Ledger();
  ledger.seed('okx', [{ asset: 'USDT', qty_1e8: 10_000 * UNIT }, { asset: 'BTC', qty_1e8: 2 * UNIT, mark_usd_1e9: 60_000 * USD }]);
  return ledger;
}

describe('perp positions: open, add, reduce, flip, close', () => {
  it('books each step by hand', () => {
    const ledger = funded();
    // 1. Long 0.1 @ 60,000 with a 3 USDT fee: margin 0.1 x 60,000 x 1% = 60 USDT locked.
    applied(ledger.applyFill(perpFill('buy', 0.1, 60_000, { fee_1e9: 3 * USD, fee_qty_1e8: 3 * UNIT })));
    let perp = ledger.row('okx', PERP)!;
    let usdt = ledger.asset('okx', 'USDT')!;
    assert.deepEqual([perp.qty_1e8, perp.entry_price_usd_1e9, perp.fees_usd_1e9, perp.margin_qty_1e8], [10_000_000n, 60_000n * 10n ** 9n, 3n * 10n ** 9n, 60n * 10n ** 8n]);
    assert.deepEqual([usdt.qty_1e8, usdt.locked_qty_1e8, usdt.available_qty_1e8], [9_997n * 10n ** 8n, 60n * 10n ** 8n, 9_937n * 10n ** 8n]);
    // The spot BTC row is untouched: spot and perp never mix.
    assert.equal(ledger.asset('okx', 'BTC')!.qty_1e8, 200_000_000n);
    // 2. Add 0.1 @ 62,000: entry 61,000, margin 0.2 x 61,000 x 1% = 122.
    applied(ledger.applyFill(perpFill('buy', 0.1, 62_000)));
    perp = ledger.row('okx', PERP)!;
    assert.deepEqual([perp.qty_1e8, perp.entry_price_usd_1e9, perp.margin_qty_1e8], [20_000_000n, 61_000n * 10n ** 9n, 122n * 10n ** 8n]);
    assert.equal(ledger.asset('okx', 'USDT')!.locked_qty_1e8, 122n * 10n ** 8n);
    // 3. Sell 0.05 @ 63,000: realized 0.05 x 2,000 = 100 into USDT; margin 0.15 x 61,000 x 1% = 91.5.
    applied(ledger.applyFill(perpFill('sell', 0.05, 63_000)));
    perp = ledger.row('okx', PERP)!;
    usdt = ledger.asset('okx', 'USDT')!;
    assert.deepEqual([perp.qty_1e8, perp.realized_pnl_usd_1e9, perp.margin_qty_1e8], [15_000_000n, 100n * 10n ** 9n, 9_150_000_000n]);
    assert.deepEqual([usdt.qty_1e8, usdt.locked_qty_1e8], [10_097n * 10n ** 8n, 9_150_000_000n]);
    // 4. Sell 0.25 @ 59,000: closes 0.15 at -2,000 each (-300), opens a 0.1 short at 59,000; margin 59.
    applied(ledger.applyFill(perpFill('sell', 0.25, 59_000)));
    perp = ledger.row('okx', PERP)!;
    usdt = ledger.asset('okx', 'USDT')!;
    assert.deepEqual([perp.qty_1e8, perp.entry_price_usd_1e9, perp.realized_pnl_usd_1e9, perp.margin_qty_1e8], [-10_000_000n, 59_000n * 10n ** 9n, -200n * 10n ** 9n, 59n * 10n ** 8n]);
    assert.deepEqual([usdt.qty_1e8, usdt.locked_qty_1e8], [9_797n * 10n ** 8n, 59n * 10n ** 8n]);
    // 5. Buy 0.1 @ 58,000: the short closes 1,000 better per BTC (+100); flat, nothing locked.
    applied(ledger.applyFill(perpFill('buy', 0.1, 58_000)));
    perp = ledger.row('okx', PERP)!;
    usdt = ledger.asset('okx', 'USDT')!;
    assert.deepEqual([perp.qty_1e8, perp.realized_pnl_usd_1e9, perp.margin_qty_1e8, perp.lifecycle.state], [0n, -100n * 10n ** 9n, 0n, 'closed']);
    assert.deepEqual([usdt.qty_1e8, usdt.locked_qty_1e8], [9_897n * 10n ** 8n, 0n]);
  });

  it('a sell from flat opens a short; the view marks it, counts its equity (not its notional) in NAV and reads out its margin', () => {
    const ledger = funded();
    applied(ledger.applyFill(perpFill('sell', 1, 60_000)));
    const marks = (asset: string) => (asset === 'BTC-USDT' ? 59_000 * USD : asset === 'BTC' ? 59_000 * USD : undefined);
    const view = ledger.view(marks);
    const row = view.positions.find((p) => p.instrument.kind === 'perp')!;
    assert.equal(row.qty_1e8, -100_000_000);
    assert.equal(row.current_price_usd_1e9, 59_000 * USD);
    assert.equal(row.current_value_usd_1e9, -59_000 * USD, 'qty x mark (spec)');
    assert.equal(row.unrealized_pnl_usd_1e9, 1_000 * USD);
    assert.equal(row.initial_margin_usd_1e9, 600 * USD);
    assert.equal(row.maintenance_margin_usd_1e9, 295 * USD, '1 x 59,000 x 0.5%');
    assert.equal(row.leverage, 100);
    assert.equal(row.liquidation_price_1e9, 60_298_507_462_686, '(60,000 + 600) / 1.005, rounded toward the entry');
    assert.equal(row.margin_state, 'ok');
    // NAV: 10,000 USDT + 2 BTC x 59,000 + the short's 1,000 of equity.
    assert.equal(view.totals.nav_usd_1e9, (10_000 + 118_000 + 1_000) * USD);
    const usdt = view.positions.find((p) => p.instrument.kind === 'crypto' && p.instrument.symbol === 'USDT')!;
    assert.deepEqual([usdt.locked_qty_1e8, usdt.available_qty_1e8], [600 * UNIT, 9_400 * UNIT]);
    // Past the liquidation price: below maintenance.
    const crash = ledger.view((a) => (a === 'BTC-USDT' ? 60_300 * USD : undefined)).positions.find((p) => p.instrument.kind === 'perp')!;
    assert.equal(crash.margin_state, 'below_maintenance');
  });

  it('liquidation prices: long (60,000 - 600) / 0.995 rounded up, short rounded down; none when flat', () => {
    assert.equal(liquidationPrice1e9(100_000_000n, 60_000n * 10n ** 9n, 600n * 10n ** 9n, 50), 59_698_492_462_312n);
    assert.equal(liquidationPrice1e9(-100_000_000n, 60_000n * 10n ** 9n, 600n * 10n ** 9n, 50), 60_298_507_462_686n);
    assert.equal(liquidationPrice1e9(0n, 60_000n * 10n ** 9n, 0n, 50), null);
    // A long whose margin exceeds its notional can never be liquidated.
    assert.equal(liquidationPrice1e9(100_000_000n, 100n * 10n ** 9n, 200n * 10n ** 9n, 50), null);
    assert.equal(initialMargin1e8(-15_000_000n, 61_000n * 10n ** 9n, 100), 9_150_000_000n);
    assert.equal(initialMargin1e8(1n, 1n, 80), 1n, 'rounded up');
  });

  it('a reservation on the quote row is spent by the margin, a loss and the fee the fill took', () => {
    const ledger = funded();
    const id = ledger.reserve('okx', 'USDT', 100 * UNIT) as number;
    applied(ledger.applyFill(perpFill('buy', 0.1, 60_000, { fee_1e9: 3 * USD, fee_qty_1e8: 3 * UNIT, reservation: id })));
    // 60 of margin + 3 of fee spent; 37 still reserved; locked = 37 + 60.
    assert.equal(ledger.reservation(id), 37n * 10n ** 8n);
    assert.equal(ledger.asset('okx', 'USDT')!.locked_qty_1e8, 97n * 10n ** 8n);
    ledger.release(id);
    assert.equal(ledger.asset('okx', 'USDT')!.locked_qty_1e8, 60n * 10n ** 8n);
  });

  it('refuses a perp fill on a pair not quoted in a $1 asset, or with an impossible margin rate', () => {
    const ledger = funded();
    assert.deepEqual(ledger.applyFill(perpFill('buy', 0.1, 60_000, { symbol: 'BTC-EUR' })), { status: 'rejected', reason: 'invalid_symbol' });
    assert.deepEqual(ledger.applyFill(perpFill('buy', 0.1, 60_000, { perp: { imr_bps: 0, ts_ns: 0 } })), { status: 'rejected', reason: 'invalid_amount' });
    assert.equal(ledger.row('okx', PERP), undefined);
  });
});

describe('perp funding', () => {
  it('is exact to the unit over a thousand intervals, each instant once, none before the position opened', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ rate: fc.integer({ min: -3_000_000, max: 3_000_000 }), mark: fc.integer({ min: 20_000, max: 120_000 }).map((m) => m * USD + 123_456) }), { minLength: 1, maxLength: 1_000 }),
        fc.boolean(),
        (steps, long) => {
          const ledger = funded();
          applied(ledger.applyFill(perpFill(long ? 'buy' : 'sell', 0.15, 60_000, { perp: { imr_bps: IMR, ts_ns: 5_000 } })));
          const before = ledger.row('okx', PERP)!;
          const usdtBefore = ledger.asset('okx', 'USDT')!.qty_1e8;
          // An instant before the position opened is not owed.
          assert.equal(ledger.accrueFunding({ venue: 'okx', symbol: 'BTC-USDT', ts_ns: 4_000, rate_1e9: 1_000_000, mark_1e9: 60_000 * USD }), undefined);
          let paid = 0n;
          let cash = 0n;
          steps.forEach((s, i) => {
            const settlement = { venue: 'okx', symbol: 'BTC-USDT', ts_ns: 10_000 + i, rate_1e9: s.rate, mark_1e9: s.mark };
            const r = ledger.accrueFunding(settlement)!;
            const expected = fundingPayment1e9(before.qty_1e8, BigInt(s.mark), BigInt(s.rate));
            assert.equal(r.paid_usd_1e9, expected);
            // qty x mark x rate, rounded up: the holder never gains from rounding.
            const exact = Number(before.qty_1e8) * (s.mark / 1e9) * (s.rate / 1e9) * 10; // USD x 1e9, float cross-check
            assert.ok(Math.abs(Number(expected) - exact) <= 1 + Math.abs(exact) * 1e-12);
            assert.equal(ledger.accrueFunding(settlement), undefined, 'an instant is settled once');
            paid += expected;
            cash += settleUsd1e8(-expected);
          });
          const after = ledger.row('okx', PERP)!;
          assert.equal(after.funding_usd_1e9, -paid);
          assert.equal(after.realized_pnl_usd_1e9, before.realized_pnl_usd_1e9 - paid);
          assert.equal(ledger.asset('okx', 'USDT')!.qty_1e8, usdtBefore + cash);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('a long pays a positive rate and a short receives it; a flat row owes nothing', () => {
    const ledger = funded();
    applied(ledger.applyFill(perpFill('buy', 1, 60_000)));
    // 1 BTC x 60,000 x 0.01% = 6 USD paid.
    assert.equal(ledger.accrueFunding({ venue: 'okx', symbol: 'BTC-USDT', ts_ns: 2_000, rate_1e9: 100_000, mark_1e9: 60_000 * USD })!.paid_usd_1e9, 6n * 10n ** 9n);
    assert.equal(ledger.asset('okx', 'USDT')!.qty_1e8, 9_994n * 10n ** 8n);
    applied(ledger.applyFill(perpFill('sell', 2, 60_000)));
    assert.equal(ledger.accrueFunding({ venue: 'okx', symbol: 'BTC-USDT', ts_ns: 3_000, rate_1e9: 100_000, mark_1e9: 60_000 * USD })!.paid_usd_1e9, -6n * 10n ** 9n);
    applied(ledger.applyFill(perpFill('buy', 1, 60_000)));
    assert.equal(ledger.accrueFunding({ venue: 'okx', symbol: 'BTC-USDT', ts_ns: 4_000, rate_1e9: 100_000, mark_1e9: 60_000 * USD }), undefined);
    assert.deepEqual(ledger.openPerps(), []);
  });
});

describe('perp rows in snapshots', () => {
  it('round-trip margin, funding and the funding clock; a snapshot whose quote row locks less than the margin is refused', () => {
    const ledger = funded();
    applied(ledger.applyFill(perpFill('sell', 0.5, 60_000)));
    ledger.accrueFunding({ venue: 'okx', symbol: 'BTC-USDT', ts_ns: 9_000, rate_1e9: 250_000, mark_1e9: 61_000 * USD });
    const snap = JSON.parse(JSON.stringify(ledger.snapshot()));
    const back = Ledger.fromSnapshot(snap)!;
    assert.deepEqual(back.rows(), ledger.rows());
    assert.deepEqual(back.openPerps(), [{ venue: 'okx', symbol: 'BTC-USDT', funding_through_ns: 9_000 }]);
    const usdt = snap.rows.find((r: { instrument: { symbol?: string } }) => r.instrument.symbol === 'USDT');
    usdt.locked_qty_1e8 = '0';
    assert.equal(Ledger.fromSnapshot(snap), undefined);
  });
});
