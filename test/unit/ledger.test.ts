/**
 * Positions ledger (execution/ledger/ledger.ts): hand-computed cases with the arithmetic in the
 * comments. Properties (conservation, reservations, replay, snapshots) are in
 * ledger-properties.test.ts. Units: qty_1e8, price_1e9, usd_1e9.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  FILL_ID_WINDOW,
  Ledger,
  ceilDiv,
  floorDiv,
  instrumentForAsset,
  instrumentKey,
  isDollarAsset,
  isFiat,
  isStablecoin,
  type ApplyFillResult,
  type LedgerRow,
  type MarkFn,
  type SpotFill,
} from '../../execution/ledger/ledger.ts';

const USD = 1_000_000_000; // $1 in usd_1e9 / price_1e9
const UNIT = 100_000_000; // 1 in qty_1e8

function fill(over: Partial<SpotFill> & Pick<SpotFill, 'fill_id'>): SpotFill {
  return {
    venue: 'binance',
    symbol: 'BTC-USDT',
    side: 'buy',
    qty_1e8: UNIT,
    price_1e9: 60_000 * USD,
    fee_1e9: 0,
    fee_asset: 'USDT',
    fee_qty_1e8: 0,
    quote_usd_1e9: USD,
    ...over,
  };
}

function applied(r: ApplyFillResult): LedgerRow[] {
  assert.equal(r.status, 'applied', JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
  return (r as { rows: LedgerRow[] }).rows;
}

function must<T>(x: T | undefined): T {
  assert.ok(x !== undefined);
  return x;
}

const noMarks: MarkFn = () => undefined;

/** The worked example of docs/positions-and-tca.md: seed, buy with a USDT fee, sell. */
function workedExample(): Ledger {
  const ledger = new Ledger();
  ledger.seed('binance', [
    { asset: 'USDT', qty_1e8: 100_000 * UNIT },
    { asset: 'BTC', qty_1e8: 50_000_000, mark_usd_1e9: 60_000 * USD },
  ]);
  applied(
    ledger.applyFill(
      fill({
        fill_id: 'f1',
        qty_1e8: 12_345_678, // 0.12345678 BTC
        price_1e9: 65_432_100_000_000, // 65,432.10 USDT
        fee_asset: 'USDT',
        fee_qty_1e8: 807_803_637, // 8.07803637 USDT (0.1%, the venue's figure)
        fee_1e9: 8_078_036_370, // $8.07803637
      }),
    ),
  );
  applied(
    ledger.applyFill(
      fill({
        fill_id: 'f2',
        side: 'sell',
        qty_1e8: 30_000_000, // 0.3 BTC
        price_1e9: 66_000 * USD,
        fee_asset: 'USDT',
        fee_qty_1e8: 1_980_000_000, // 19.8 USDT
        fee_1e9: 19_800_000_000,
      }),
    ),
  );
  return ledger;
}

describe('ledger: vocabulary', () => {
  it('classifies fiat, stablecoins and other crypto', () => {
    assert.deepEqual(instrumentForAsset('USD'), { kind: 'fiat', code: 'USD' });
    assert.deepEqual(instrumentForAsset('EUR'), { kind: 'fiat', code: 'EUR' });
    assert.deepEqual(instrumentForAsset('USDT'), { kind: 'crypto', symbol: 'USDT' });
    assert.deepEqual(instrumentForAsset('BTC'), { kind: 'crypto', symbol: 'BTC' });
    for (const s of ['USDT', 'USDC', 'DAI', 'BUSD', 'FDUSD', 'TUSD', 'USDP']) {
      assert.ok(isStablecoin(s) && isDollarAsset(s) && !isFiat(s), s);
    }
    assert.ok(isFiat('USD') && isDollarAsset('USD'));
    assert.ok(isFiat('GBP') && !isDollarAsset('GBP'), 'GBP is fiat but not $1');
    assert.ok(!isDollarAsset('BTC') && !isStablecoin('PYUSD'));
  });

  it('keys instruments so spot assets are bare and other kinds cannot collide with them', () => {
    assert.equal(instrumentKey({ kind: 'crypto', symbol: 'BTC' }), 'BTC');
    assert.equal(instrumentKey({ kind: 'perp', symbol: 'BTC-USD', base: 'BTC' }), 'perp:BTC-USD');
    assert.equal(
      instrumentKey({ kind: 'event_contract', market_slug: 'fed-cut', outcome: 'YES', token_id: null, expiry_ts: null }),
      'event:fed-cut|YES|',
    );
  });

  it('floorDiv and ceilDiv round toward -inf and +inf for both signs', () => {
    assert.equal(floorDiv(7n, 2n), 3n);
    assert.equal(floorDiv(-7n, 2n), -4n);
    assert.equal(floorDiv(-6n, 2n), -3n);
    assert.equal(ceilDiv(7n, 2n), 4n);
    assert.equal(ceilDiv(-7n, 2n), -3n);
    assert.equal(ceilDiv(6n, 2n), 3n);
  });
});

describe('ledger: seed', () => {
  it('sets qty, $1 entry for USD and stablecoins, the given mark otherwise, 0 without one', () => {
    const ledger = new Ledger();
    const { rows, skipped } = ledger.seed('coinbase', [
      { asset: 'USD', qty_1e8: 10_000 * UNIT, mark_usd_1e9: 5 * USD }, // mark ignored for $1 assets
      { asset: 'USDC', qty_1e8: 500 * UNIT },
      { asset: 'ETH', qty_1e8: 2 * UNIT, mark_usd_1e9: 3_000 * USD },
      { asset: 'SOL', qty_1e8: 10 * UNIT }, // no mark: cost basis unknown
      { asset: 'DOGE', qty_1e8: 0 }, // zero and no row: nothing
      { asset: 'XRP', qty_1e8: 1.5 }, // not an integer: skipped
    ]);
    assert.deepEqual(skipped, ['XRP']);
    assert.deepEqual(
      rows.map((r) => [r.id, r.instrument.kind, r.qty_1e8, r.entry_price_usd_1e9, r.lifecycle.state, r.transferable, r.settled]),
      [
        [1, 'fiat', 1_000_000_000_000n, 1_000_000_000n, 'active', true, false],
        [2, 'crypto', 50_000_000_000n, 1_000_000_000n, 'active', true, false],
        [3, 'crypto', 200_000_000n, 3_000_000_000_000n, 'active', true, false],
        [4, 'crypto', 1_000_000_000n, 0n, 'active', true, false],
      ],
    );
    assert.equal(ledger.asset('coinbase', 'DOGE'), undefined);
  });

  it('a re-seed moves qty but keeps the cost basis of a held position; a flat row takes the new mark', () => {
    const ledger = new Ledger();
    ledger.seed('kraken', [{ asset: 'ETH', qty_1e8: 2 * UNIT, mark_usd_1e9: 3_000 * USD }]);
    const again = ledger.seed('kraken', [{ asset: 'ETH', qty_1e8: 3 * UNIT, mark_usd_1e9: 3_500 * USD }]);
    assert.equal(again.rows.length, 1);
    assert.equal(must(ledger.asset('kraken', 'ETH')).qty_1e8, 300_000_000n);
    assert.equal(must(ledger.asset('kraken', 'ETH')).entry_price_usd_1e9, 3_000_000_000_000n);
    assert.equal(ledger.seed('kraken', [{ asset: 'ETH', qty_1e8: 3 * UNIT }]).rows.length, 0, 'unchanged: no row reported');
    ledger.seed('kraken', [{ asset: 'ETH', qty_1e8: 0 }]);
    assert.equal(must(ledger.asset('kraken', 'ETH')).lifecycle.state, 'closed');
    ledger.seed('kraken', [{ asset: 'ETH', qty_1e8: UNIT, mark_usd_1e9: 4_000 * USD }]);
    const eth = must(ledger.asset('kraken', 'ETH'));
    assert.equal(eth.entry_price_usd_1e9, 4_000_000_000_000n);
    assert.equal(eth.lifecycle.state, 'active');
    assert.equal(eth.id, 1, 'the row keeps its id across close and reopen');
  });
});

describe('ledger: applyFill, the worked example', () => {
  it('books a buy: cost rounded up, fee from the fee asset, weighted-average entry rounded up', () => {
    const ledger = new Ledger();
    ledger.seed('binance', [
      { asset: 'USDT', qty_1e8: 100_000 * UNIT },
      { asset: 'BTC', qty_1e8: 50_000_000, mark_usd_1e9: 60_000 * USD },
    ]);
    const rows = applied(
      ledger.applyFill(
        fill({ fill_id: 'f1', qty_1e8: 12_345_678, price_1e9: 65_432_100_000_000, fee_qty_1e8: 807_803_637, fee_1e9: 8_078_036_370 }),
      ),
    );
    assert.deepEqual(rows.map((r) => r.instrument), [{ kind: 'crypto', symbol: 'BTC' }, { kind: 'crypto', symbol: 'USDT' }]);
    const [btc, usdt] = rows as [LedgerRow, LedgerRow];
    // cost = 65,432,100,000,000 x 12,345,678 / 1e9 = 807,803,637,463.8 -> up: 807,803,637,464
    // USDT = 10,000,000,000,000 - 807,803,637,464 - 807,803,637 (fee) = 9,191,388,558,899
    assert.equal(usdt.qty_1e8, 9_191_388_558_899n);
    assert.equal(usdt.entry_price_usd_1e9, 1_000_000_000n);
    assert.equal(usdt.realized_pnl_usd_1e9, 0n);
    assert.equal(usdt.fees_usd_1e9, 0n, 'fees are booked on the base row only');
    // BTC = 50,000,000 + 12,345,678 = 62,345,678
    // entry = (50,000,000 x 60,000e9 + 12,345,678 x 65,432.1e9) / 62,345,678
    //       = 61,075,663,295,598.45... -> up: 61,075,663,295,599
    assert.equal(btc.qty_1e8, 62_345_678n);
    assert.equal(btc.entry_price_usd_1e9, 61_075_663_295_599n);
    assert.equal(btc.fees_usd_1e9, 8_078_036_370n);
    assert.equal(btc.realized_pnl_usd_1e9, 0n);
  });

  it('books a sell: proceeds rounded down, realized PnL rounded down, entry unchanged', () => {
    const ledger = workedExample();
    const btc = must(ledger.asset('binance', 'BTC'));
    const usdt = must(ledger.asset('binance', 'USDT'));
    // proceeds = 66,000e9 x 30,000,000 / 1e9 = 1,980,000,000,000 (exact)
    // USDT = 9,191,388,558,899 + 1,980,000,000,000 - 1,980,000,000 = 11,169,408,558,899
    assert.equal(usdt.qty_1e8, 11_169_408_558_899n);
    // realized = 30,000,000 x (66,000e9 - 61,075,663,295,599) / 1e8
    //          = 0.3 x 4,924,336,704,401 = 1,477,301,011,320.3 -> down: 1,477,301,011,320 ($1,477.30)
    assert.equal(btc.realized_pnl_usd_1e9, 1_477_301_011_320n);
    assert.equal(btc.qty_1e8, 32_345_678n);
    assert.equal(btc.entry_price_usd_1e9, 61_075_663_295_599n);
    // fees = 8,078,036,370 + 19,800,000,000
    assert.equal(btc.fees_usd_1e9, 27_878_036_370n);
  });

  it('views it with marks: value down, entry value up, totals over the rows', () => {
    const ledger = workedExample();
    const marks: MarkFn = (asset) => (asset === 'BTC' ? 67_000 * USD : asset === 'USDT' ? 2 * USD : undefined);
    const { positions, totals } = ledger.view(marks);
    const [usdt, btc] = positions as [(typeof positions)[0], (typeof positions)[0]];
    assert.equal(usdt.instrument.kind, 'crypto');
    assert.equal(usdt.current_price_usd_1e9, USD, 'a stablecoin is $1 whatever the mark says');
    assert.equal(usdt.current_value_usd_1e9, 111_694_085_588_990); // 11,169,408,558,899 x 10
    assert.equal(usdt.unrealized_pnl_usd_1e9, 0);
    // value = 32,345,678 x 67,000e9 / 1e8 = 21,671,604,260,000
    // entry value = 32,345,678 x 61,075,663,295,599 / 1e8 = 19,755,337,385,958.64 -> up: ...959
    // unrealized = 21,671,604,260,000 - 19,755,337,385,959 = 1,916,266,874,041
    assert.equal(btc.current_price_usd_1e9, 67_000 * USD);
    assert.equal(btc.current_value_usd_1e9, 21_671_604_260_000);
    assert.equal(btc.unrealized_pnl_usd_1e9, 1_916_266_874_041);
    assert.equal(btc.available_qty_1e8, 32_345_678);
    assert.equal(btc.is_sandbox, false);
    assert.deepEqual(totals, {
      nav_usd_1e9: 133_365_689_848_990, // 21,671,604,260,000 + 111,694,085,588,990
      cash_usd_1e9: 111_694_085_588_990, // the USDT row at $1
      unrealized_pnl_usd_1e9: 1_916_266_874_041,
      realized_pnl_usd_1e9: 1_477_301_011_320,
      fees_usd_1e9: 27_878_036_370,
      num_positions: 2,
    });
  });

  it('without a mark a row is priced at its entry (unrealized 0)', () => {
    const btc = workedExample().view(noMarks).positions.find((p) => p.instrument.kind === 'crypto' && p.instrument.symbol === 'BTC');
    assert.equal(must(btc).current_price_usd_1e9, 61_075_663_295_599);
    // value = floor(19,755,337,385,958.64) = ...958, entry value = ...959: unrealized -1, the rounding
    assert.equal(must(btc).unrealized_pnl_usd_1e9, -1);
  });
});

describe('ledger: applyFill, fee assets and pairs', () => {
  it('a fee charged in the base asset reduces the base qty without touching the entry', () => {
    const ledger = new Ledger();
    ledger.seed('binance', [{ asset: 'USDT', qty_1e8: 10_000 * UNIT }]);
    // buy 0.1 BTC at 50,000; fee 0.0001 BTC ($5)
    const [btc, usdt] = applied(
      ledger.applyFill(
        fill({ fill_id: 'b1', qty_1e8: 10_000_000, price_1e9: 50_000 * USD, fee_asset: 'BTC', fee_qty_1e8: 10_000, fee_1e9: 5 * USD }),
      ),
    ) as [LedgerRow, LedgerRow];
    assert.equal(btc.qty_1e8, 9_990_000n); // 10,000,000 - 10,000
    assert.equal(btc.entry_price_usd_1e9, 50_000_000_000_000n, 'the fee is not capitalised into the entry');
    assert.equal(btc.fees_usd_1e9, 5_000_000_000n);
    assert.equal(usdt.qty_1e8, 500_000_000_000n); // 10,000 - 0.1 x 50,000 USDT
  });

  it('a fee in a third asset (BNB) debits that row and is reported as a third changed row', () => {
    const ledger = new Ledger();
    ledger.seed('binance', [
      { asset: 'USDT', qty_1e8: 10_000 * UNIT },
      { asset: 'BNB', qty_1e8: UNIT, mark_usd_1e9: 600 * USD },
    ]);
    const rows = applied(
      ledger.applyFill(fill({ fill_id: 'n1', qty_1e8: 10_000_000, price_1e9: 50_000 * USD, fee_asset: 'BNB', fee_qty_1e8: 625_000, fee_1e9: 3_750_000_000 })),
    );
    assert.deepEqual(rows.map((r) => (r.instrument.kind === 'crypto' ? r.instrument.symbol : '')), ['BTC', 'USDT', 'BNB']);
    const bnb = rows[2] as LedgerRow;
    assert.equal(bnb.qty_1e8, 99_375_000n); // 1 - 0.00625 BNB
    assert.equal(bnb.entry_price_usd_1e9, 600_000_000_000n);
    assert.equal(bnb.realized_pnl_usd_1e9, 0n);
    assert.equal((rows[0] as LedgerRow).fees_usd_1e9, 3_750_000_000n); // $3.75 on BTC
  });

  it('a fee asset with no row opens one at the fee price, negative (the venue knows something we do not)', () => {
    const ledger = new Ledger();
    ledger.seed('binance', [{ asset: 'USDT', qty_1e8: 10_000 * UNIT }]);
    const rows = applied(
      ledger.applyFill(fill({ fill_id: 'n2', qty_1e8: 10_000_000, price_1e9: 50_000 * USD, fee_asset: 'BNB', fee_qty_1e8: 625_000, fee_1e9: 3_750_000_000 })),
    );
    const bnb = rows[2] as LedgerRow;
    assert.equal(bnb.qty_1e8, -625_000n);
    assert.equal(bnb.entry_price_usd_1e9, 600_000_000_000n); // 3,750,000,000 x 1e8 / 625,000
  });

  it('a cross pair (ETH-BTC) realizes PnL on the quote asset it disposes of', () => {
    const ledger = new Ledger();
    ledger.seed('kraken', [{ asset: 'BTC', qty_1e8: UNIT, mark_usd_1e9: 40_000 * USD }]);
    // buy 2 ETH at 0.05 BTC with BTC at $60,000: cost 0.1 BTC, ETH entry 0.05 x 60,000 = $3,000
    const [eth, btc] = applied(
      ledger.applyFill(
        fill({ fill_id: 'x1', venue: 'kraken', symbol: 'ETH-BTC', qty_1e8: 2 * UNIT, price_1e9: 50_000_000, fee_qty_1e8: 0, quote_usd_1e9: 60_000 * USD }),
      ),
    ) as [LedgerRow, LedgerRow];
    assert.equal(eth.qty_1e8, 200_000_000n);
    assert.equal(eth.entry_price_usd_1e9, 3_000_000_000_000n);
    assert.equal(btc.qty_1e8, 90_000_000n); // 1 - 0.05 x 2
    // BTC disposed: 0.1 x (60,000 - 40,000) = $2,000
    assert.equal(btc.realized_pnl_usd_1e9, 2_000_000_000_000n);
    assert.equal(btc.entry_price_usd_1e9, 40_000_000_000_000n);
  });

  it('ignores quote_usd for a $1 quote and books USD as fiat', () => {
    const ledger = new Ledger();
    ledger.seed('coinbase', [{ asset: 'USD', qty_1e8: 1_000 * UNIT }]);
    const [sol, usd] = applied(
      ledger.applyFill(fill({ fill_id: 'u1', venue: 'coinbase', symbol: 'SOL-USD', qty_1e8: UNIT, price_1e9: 150 * USD, fee_asset: 'USD', fee_qty_1e8: 15_000_000, fee_1e9: 150_000_000, quote_usd_1e9: 2 * USD })),
    ) as [LedgerRow, LedgerRow];
    assert.equal(sol.entry_price_usd_1e9, 150_000_000_000n, 'USD quote taken as $1, not the 2e9 passed');
    assert.deepEqual(usd.instrument, { kind: 'fiat', code: 'USD' });
    assert.equal(usd.qty_1e8, 84_985_000_000n); // 1,000 - 150 - 0.15 = 849.85
  });

  it('rounds the quote leg against the client on both sides', () => {
    const ledger = new Ledger();
    ledger.seed('okx', [{ asset: 'USDT', qty_1e8: 100 * UNIT }]);
    // quote in qty_1e8 = price_1e9 x qty_1e8 / 1e9 = 1,000,000,001 x 1 / 1e9 = 1.000000001:
    // the buy pays 2 (up), the sell receives 1 (down)
    applied(ledger.applyFill(fill({ fill_id: 'r1', venue: 'okx', symbol: 'XYZ-USDT', qty_1e8: 1, price_1e9: 1_000_000_001 })));
    assert.equal(must(ledger.asset('okx', 'USDT')).qty_1e8, 10_000_000_000n - 2n);
    applied(ledger.applyFill(fill({ fill_id: 'r2', venue: 'okx', symbol: 'XYZ-USDT', side: 'sell', qty_1e8: 1, price_1e9: 1_000_000_001 })));
    assert.equal(must(ledger.asset('okx', 'USDT')).qty_1e8, 10_000_000_000n - 1n);
    const xyz = must(ledger.asset('okx', 'XYZ'));
    assert.equal(xyz.qty_1e8, 0n);
    assert.equal(xyz.lifecycle.state, 'closed');
    // realized: 1 x (1,000,000,001 - 1,000,000,001) / 1e8 = 0
    assert.equal(xyz.realized_pnl_usd_1e9, 0n);
  });

  it('a realized loss rounds toward -inf', () => {
    const ledger = new Ledger();
    ledger.seed('okx', [{ asset: 'USDT', qty_1e8: 100 * UNIT }, { asset: 'ABC', qty_1e8: 3, mark_usd_1e9: 10 * USD }]);
    // sell 3e-8 ABC at $9.999999999: 3 x (9,999,999,999 - 10,000,000,000) / 1e8 = -3e-8 -> -1
    applied(ledger.applyFill(fill({ fill_id: 'l1', venue: 'okx', symbol: 'ABC-USDT', side: 'sell', qty_1e8: 3, price_1e9: 9_999_999_999 })));
    assert.equal(must(ledger.asset('okx', 'ABC')).realized_pnl_usd_1e9, -1n);
  });

  it('a sell beyond the holding goes short at the fill price (a venue fact, kept visible)', () => {
    const ledger = new Ledger();
    ledger.seed('bybit', [{ asset: 'ETH', qty_1e8: UNIT, mark_usd_1e9: 2_000 * USD }, { asset: 'USDT', qty_1e8: 0 }]);
    const [eth] = applied(ledger.applyFill(fill({ fill_id: 's1', venue: 'bybit', symbol: 'ETH-USDT', side: 'sell', qty_1e8: 3 * UNIT, price_1e9: 2_500 * USD }))) as [LedgerRow];
    assert.equal(eth.qty_1e8, -200_000_000n);
    assert.equal(eth.realized_pnl_usd_1e9, 500_000_000_000n, '1 ETH closed at +$500');
    assert.equal(eth.entry_price_usd_1e9, 2_500_000_000_000n, 'the short opens at the fill price');
    // buy back 2 ETH at 2,400: a short closed at +$100 each
    const [eth2] = applied(ledger.applyFill(fill({ fill_id: 's2', venue: 'bybit', symbol: 'ETH-USDT', qty_1e8: 2 * UNIT, price_1e9: 2_400 * USD }))) as [LedgerRow];
    assert.equal(eth2.qty_1e8, 0n);
    assert.equal(eth2.realized_pnl_usd_1e9, 700_000_000_000n);
    assert.equal(eth2.lifecycle.state, 'closed');
  });
});

describe('ledger: applyFill, idempotency and bad input', () => {
  it('remembers a bounded window of fill ids: memory stays flat over any number of fills, a recent repeat is still refused', () => {
    const ledger = new Ledger();
    ledger.seed('binance', [{ asset: 'USDT', qty_1e8: 1_000_000_000 * UNIT }, { asset: 'BTC', qty_1e8: 0, mark_usd_1e9: 60_000 * USD }]);
    const total = FILL_ID_WINDOW + 1_000;
    for (let i = 0; i < total; i++) assert.equal(ledger.applyFill(fill({ fill_id: `w${i}`, qty_1e8: 1, price_1e9: USD })).status, 'applied');
    assert.equal(ledger.fillCount, FILL_ID_WINDOW, 'bounded');
    assert.deepEqual(ledger.applyFill(fill({ fill_id: `w${total - 1}`, qty_1e8: 1, price_1e9: USD })), { status: 'duplicate' });
    assert.ok(!ledger.hasFill('w0'), 'the oldest left the window');
    assert.equal(ledger.available('binance', 'BTC'), BigInt(total), 'each fill applied once');
    // A checkpoint leaves the window out: its watermark stands for it (ledgers.ts).
    assert.deepEqual(ledger.snapshot({ withFillIds: false }).fill_ids, []);
  });


  it('ignores a fill id seen before, with no state change', () => {
    const ledger = workedExample();
    const before = JSON.stringify(ledger.snapshot());
    assert.deepEqual(ledger.applyFill(fill({ fill_id: 'f1', qty_1e8: 5 })), { status: 'duplicate' });
    assert.equal(JSON.stringify(ledger.snapshot()), before);
    assert.ok(ledger.hasFill('f1') && ledger.hasFill('f2') && !ledger.hasFill('f3'));
    assert.equal(ledger.fillCount, 2);
  });

  it('rejects malformed fills without recording their ids', () => {
    const ledger = new Ledger();
    const cases: [Partial<SpotFill>, string][] = [
      [{ fill_id: '' }, 'invalid_fill_id'],
      [{ side: 'BUY' as 'buy' }, 'invalid_side'],
      [{ symbol: 'BTCUSDT' }, 'invalid_symbol'],
      [{ symbol: 'USDT-USDT' }, 'invalid_symbol'],
      [{ qty_1e8: 0 }, 'invalid_amount'],
      [{ qty_1e8: -5 }, 'invalid_amount'],
      [{ price_1e9: 1.5 }, 'invalid_amount'],
      [{ fee_1e9: Number.MAX_SAFE_INTEGER + 2 }, 'invalid_amount'],
      [{ quote_usd_1e9: 0 }, 'invalid_amount'],
      [{ fee_qty_1e8: 10, fee_asset: '' }, 'invalid_fee_asset'],
    ];
    for (const [over, reason] of cases) {
      assert.deepEqual(ledger.applyFill(fill({ fill_id: 'bad', ...over })), { status: 'rejected', reason }, JSON.stringify(over));
    }
    assert.equal(ledger.fillCount, 0);
    assert.equal(ledger.rows().length, 0);
  });

  it('takes bigint amounts beyond 2^53 exactly (a $20M cash row)', () => {
    const ledger = new Ledger();
    ledger.seed('coinbase', [{ asset: 'USD', qty_1e8: 20_000_000n * 100_000_000n }]);
    applied(ledger.applyFill(fill({ fill_id: 'big', venue: 'coinbase', symbol: 'BTC-USD', qty_1e8: 10_000_000_000n, price_1e9: 100_000_000_000_000n, fee_asset: 'USD' })));
    // 100 BTC at $100,000 = $10M: USD 20M -> 10M
    assert.equal(must(ledger.asset('coinbase', 'USD')).qty_1e8, 1_000_000_000_000_000n);
    const { totals } = ledger.view(() => 100_000 * USD);
    assert.equal(totals.nav_usd_1e9, 20_000_000_000_000_000n, '$20M = 2e16 usd_1e9, past 2^53: the exact bigint');
    assert.equal(totals.cash_usd_1e9, 10_000_000_000_000_000n);
  });
});

describe('ledger: reservations', () => {
  it('two orders cannot spend the same cash', () => {
    const ledger = new Ledger();
    ledger.seed('binance', [{ asset: 'USDT', qty_1e8: 1_000 * UNIT }]);
    const a = ledger.reserve('binance', 'USDT', 600 * UNIT);
    assert.equal(a, 1);
    assert.equal(ledger.reserve('binance', 'USDT', 600 * UNIT), false, '400 left');
    assert.equal(ledger.available('binance', 'USDT'), 40_000_000_000n);
    const b = ledger.reserve('binance', 'USDT', 400 * UNIT);
    assert.equal(b, 2);
    assert.equal(ledger.reserve('binance', 'USDT', 1), false, 'nothing left');
    assert.equal(ledger.release(a as number), 60_000_000_000n);
    assert.equal(ledger.available('binance', 'USDT'), 60_000_000_000n);
    assert.equal(ledger.release(a as number), false, 'released once');
  });

  it('refuses non-positive, fractional and unknown-asset reservations', () => {
    const ledger = new Ledger();
    ledger.seed('binance', [{ asset: 'USDT', qty_1e8: 1_000 * UNIT }]);
    assert.equal(ledger.reserve('binance', 'USDT', 0), false);
    assert.equal(ledger.reserve('binance', 'USDT', -1), false);
    assert.equal(ledger.reserve('binance', 'USDT', 0.5), false);
    assert.equal(ledger.reserve('binance', 'BTC', 1), false);
    assert.equal(ledger.reserve('kraken', 'USDT', 1), false);
  });

  it('consume spends part of a reservation and never goes below zero', () => {
    const ledger = new Ledger();
    ledger.seed('binance', [{ asset: 'USDT', qty_1e8: 1_000 * UNIT }]);
    const id = ledger.reserve('binance', 'USDT', 100) as number;
    assert.equal(ledger.consume(id, 30), 70n);
    assert.equal(must(ledger.asset('binance', 'USDT')).locked_qty_1e8, 70n);
    assert.equal(ledger.consume(id, 500), 0n);
    assert.equal(must(ledger.asset('binance', 'USDT')).locked_qty_1e8, 0n);
    assert.equal(ledger.consume(id, -1), false);
    assert.equal(ledger.consume(999, 1), false);
    assert.equal(ledger.release(id), 0n, 'a spent reservation still needs its release');
  });

  it('a fill consumes what it debits from the reserved row: cost plus a fee in that asset', () => {
    const ledger = new Ledger();
    ledger.seed('binance', [{ asset: 'USDT', qty_1e8: 10_000 * UNIT }]);
    // reserve 5,010 USDT for a 0.1 BTC buy at up to 50,000 plus 0.2% fee
    const id = ledger.reserve('binance', 'USDT', 5_010 * UNIT) as number;
    const r = ledger.applyFill(fill({ fill_id: 'c1', qty_1e8: 5_000_000, price_1e9: 50_000 * USD, fee_qty_1e8: 250_000_000, fee_1e9: 2_500_000_000, reservation: id }));
    // debit = 2,500 USDT cost + 2.5 USDT fee = 250,250,000,000
    assert.equal(r.status === 'applied' && r.consumed_qty_1e8, 250_250_000_000n);
    assert.equal(ledger.reservation(id), 250_750_000_000n); // 501,000,000,000 - 250,250,000,000
    const usdt = must(ledger.asset('binance', 'USDT'));
    assert.equal(usdt.qty_1e8, 749_750_000_000n);
    assert.equal(usdt.locked_qty_1e8, 250_750_000_000n);
    assert.equal(usdt.available_qty_1e8, 499_000_000_000n, 'available unchanged by a fill inside its reservation');
    assert.equal(ledger.release(id), 250_750_000_000n);
    assert.equal(ledger.available('binance', 'USDT'), 749_750_000_000n);
  });

  it('a sell reservation on the base is consumed by the base qty sold', () => {
    const ledger = new Ledger();
    ledger.seed('binance', [{ asset: 'BTC', qty_1e8: UNIT, mark_usd_1e9: 50_000 * USD }]);
    const id = ledger.reserve('binance', 'BTC', 40_000_000) as number;
    const r = ledger.applyFill(fill({ fill_id: 'c2', side: 'sell', qty_1e8: 10_000_000, price_1e9: 50_000 * USD, reservation: id }));
    assert.equal(r.status === 'applied' && r.consumed_qty_1e8, 10_000_000n);
    assert.equal(ledger.reservation(id), 30_000_000n);
  });

  it('a fill against an unknown or released reservation still applies and consumes nothing', () => {
    const ledger = new Ledger();
    ledger.seed('binance', [{ asset: 'USDT', qty_1e8: 10_000 * UNIT }]);
    const r = ledger.applyFill(fill({ fill_id: 'c3', qty_1e8: 1_000, reservation: 42 }));
    assert.equal(r.status === 'applied' && r.consumed_qty_1e8, 0n);
  });
});

describe('ledger: lifecycle and view filters', () => {
  function twoVenues(mode: 'live' | 'sandbox' = 'live'): Ledger {
    const ledger = new Ledger(mode);
    ledger.seed('coinbase', [
      { asset: 'USD', qty_1e8: 1_000 * UNIT },
      { asset: 'EUR', qty_1e8: 100 * UNIT, mark_usd_1e9: 1_080_000_000 },
      { asset: 'ETH', qty_1e8: UNIT, mark_usd_1e9: 3_000 * USD },
    ]);
    ledger.seed('kraken', [{ asset: 'USDC', qty_1e8: 500 * UNIT }, { asset: 'SOL', qty_1e8: 2 * UNIT, mark_usd_1e9: 100 * USD }]);
    // sell all SOL on kraken at 110: closes the row with +$20 realized
    applied(ledger.applyFill(fill({ fill_id: 'k1', venue: 'kraken', symbol: 'SOL-USDC', side: 'sell', qty_1e8: 2 * UNIT, price_1e9: 110 * USD, fee_asset: 'USDC', fee_qty_1e8: 22_000_000, fee_1e9: 220_000_000 })));
    return ledger;
  }
  const marks: MarkFn = (asset) => ({ ETH: 3_100 * USD, EUR: 1_100_000_000, SOL: 120 * USD })[asset];

  it('hides closed rows by default and shows them with include_closed', () => {
    const ledger = twoVenues();
    assert.equal(must(ledger.asset('kraken', 'SOL')).lifecycle.state, 'closed');
    const open = ledger.view(marks);
    assert.deepEqual(open.positions.map((p) => p.id), [1, 2, 3, 4]);
    const all = ledger.view(marks, { include_closed: true });
    assert.deepEqual(all.positions.map((p) => p.id), [1, 2, 3, 4, 5]);
    const sol = all.positions[4];
    assert.equal(sol?.realized_pnl_usd_1e9, 20_000_000_000);
    assert.equal(sol?.fees_usd_1e9, 220_000_000);
    assert.equal(sol?.current_value_usd_1e9, 0);
    assert.equal(all.totals.realized_pnl_usd_1e9, 20_000_000_000, 'a closed row counts in totals only when returned');
    assert.equal(open.totals.realized_pnl_usd_1e9, 0);
  });

  it('fiat rows omit the price mark; EUR is valued by its mark and counted as cash', () => {
    const { positions, totals } = twoVenues().view(marks);
    const [usd, eur, eth, usdc] = positions;
    assert.ok(usd !== undefined && eur !== undefined && eth !== undefined && usdc !== undefined);
    assert.equal('current_price_usd_1e9' in usd, false);
    assert.equal('current_price_usd_1e9' in eur, false);
    assert.equal('settled_mark_usd_1e9' in eth, false, 'only event contracts carry a settled mark');
    assert.equal(usd.current_value_usd_1e9, 1_000 * USD);
    assert.equal(eur.current_value_usd_1e9, 110 * USD); // 100 EUR x 1.10
    assert.equal(eur.unrealized_pnl_usd_1e9, 2 * USD); // 100 x (1.10 - 1.08)
    assert.equal(eth.unrealized_pnl_usd_1e9, 100 * USD);
    // USDC: 500 + 220 proceeds - 0.22 fee = 719.78
    assert.equal(usdc.current_value_usd_1e9, 719_780_000_000);
    assert.deepEqual(totals, {
      nav_usd_1e9: 1_000 * USD + 110 * USD + 3_100 * USD + 719_780_000_000,
      cash_usd_1e9: 1_000 * USD + 110 * USD + 719_780_000_000,
      unrealized_pnl_usd_1e9: 102 * USD,
      realized_pnl_usd_1e9: 0,
      fees_usd_1e9: 0,
      num_positions: 4,
    });
  });

  it('filters by venue and kind, and totals respect the filters', () => {
    const ledger = twoVenues();
    const cb = ledger.view(marks, { venues: ['coinbase'] });
    assert.deepEqual(cb.positions.map((p) => p.venue), ['coinbase', 'coinbase', 'coinbase']);
    const fiat = ledger.view(marks, { kinds: ['fiat'] });
    assert.deepEqual(fiat.positions.map((p) => p.id), [1, 2]);
    assert.equal(fiat.totals.nav_usd_1e9, 1_110 * USD);
    const krakenCrypto = ledger.view(marks, { venues: ['kraken'], kinds: ['crypto'], include_closed: true });
    assert.deepEqual(krakenCrypto.positions.map((p) => p.id), [4, 5]);
    assert.equal(ledger.view(marks, { kinds: ['perp', 'event_contract'] }).totals.num_positions, 0);
    assert.equal(ledger.view(marks, { venues: [] }).positions.length, 0);
  });

  it('ignores marks that are not positive safe integers', () => {
    const ledger = twoVenues();
    for (const bad of [0, -5, 1.5, Number.NaN]) {
      const eth = ledger.view(() => bad, { kinds: ['crypto'] }).positions.find((p) => p.id === 3);
      assert.equal(eth?.current_price_usd_1e9, 3_000 * USD, String(bad));
    }
  });

  it('marks sandbox rows', () => {
    assert.ok(twoVenues('sandbox').view(marks).positions.every((p) => p.is_sandbox));
  });

  it('a view is a copy: mutating it does not touch the ledger', () => {
    const ledger = twoVenues();
    const v = ledger.view(marks);
    (v.positions[0] as { lifecycle: { state: string } }).lifecycle.state = 'closed';
    assert.equal(ledger.view(marks).positions[0]?.lifecycle.state, 'active');
  });
});

describe('ledger: snapshot and restore', () => {
  it('round-trips through JSON and keeps counting ids where it left off', () => {
    const ledger = workedExample();
    const res = ledger.reserve('binance', 'USDT', 1_000) as number;
    const json = JSON.stringify(ledger.snapshot());
    const copy = must(Ledger.fromSnapshot(JSON.parse(json)));
    assert.equal(JSON.stringify(copy.snapshot()), json);
    assert.equal(copy.reservation(res), 1_000n);
    assert.equal(copy.reserve('binance', 'USDT', 1), res + 1);
    applied(copy.applyFill(fill({ fill_id: 'f3', symbol: 'ETH-USDT', qty_1e8: 1_000 })));
    assert.equal(must(copy.asset('binance', 'ETH')).id, 3);
    assert.deepEqual(copy.applyFill(fill({ fill_id: 'f2' })), { status: 'duplicate' }, 'fill ids survive the restore');
  });

  it('refuses a bad snapshot or another mode, leaving the ledger unchanged', () => {
    const ledger = workedExample();
    const before = JSON.stringify(ledger.snapshot());
    const good = JSON.parse(before) as Record<string, unknown>;
    const bad: unknown[] = [
      null,
      { ...good, version: 2 },
      { ...good, mode: 'sandbox' },
      { ...good, rows: [{ ...(good.rows as object[])[0], qty_1e8: '1.5' }] },
      { ...good, rows: [(good.rows as object[])[0], (good.rows as object[])[0]] },
      { ...good, reservations: [{ id: 1, row_id: 99, remaining_qty_1e8: '1' }], next_reservation_id: 2 },
      { ...good, reservations: [{ id: 1, row_id: 1, remaining_qty_1e8: '1' }], next_reservation_id: 2 }, // row 1 locks 0
      { ...good, fill_ids: [1] },
    ];
    for (const s of bad) {
      const r = ledger.restore(s);
      assert.equal(r.ok, false, JSON.stringify(s)?.slice(0, 80));
    }
    assert.equal(JSON.stringify(ledger.snapshot()), before);
    assert.equal(Ledger.fromSnapshot({ ...good, version: 0 }), undefined);
    const sandbox = must(Ledger.fromSnapshot({ ...good, mode: 'sandbox' }));
    assert.equal(sandbox.mode, 'sandbox');
    assert.deepEqual(new Ledger('live').restore(good), { ok: true });
  });

  it('restores event-contract and perp rows with their lifecycle (types ready for later issues)', () => {
    const snap = {
      version: 1,
      mode: 'live',
      next_row_id: 3,
      next_reservation_id: 1,
      rows: [
        {
          id: 1,
          venue: 'polymarket',
          instrument: { kind: 'event_contract', market_slug: 'fed-cut', outcome: 'YES', token_id: '123', expiry_ts: 1_800_000_000 },
          qty_1e8: '10000000000',
          locked_qty_1e8: '0',
          entry_price_usd_1e9: '400000000',
          realized_pnl_usd_1e9: '0',
          fees_usd_1e9: '0',
          lifecycle: { state: 'resolved', resolved_at: 1, economic_value_usd_1e9: 100_000_000_000 },
          settled: true,
          settled_mark_usd_1e9: '1000000000',
        },
        {
          id: 2,
          venue: 'hyperliquid',
          instrument: { kind: 'perp', symbol: 'BTC-USD', base: 'BTC' },
          qty_1e8: '-50000000',
          locked_qty_1e8: '0',
          entry_price_usd_1e9: '60000000000000',
          realized_pnl_usd_1e9: '0',
          fees_usd_1e9: '0',
          lifecycle: { state: 'active' },
          settled: false,
          settled_mark_usd_1e9: null,
        },
      ],
      reservations: [],
      fill_ids: [],
    };
    const ledger = must(Ledger.fromSnapshot(snap));
    const { positions, totals } = ledger.view((asset) => (asset === 'BTC-USD' ? 62_000 * USD : asset === 'fed-cut:YES' ? 1 : undefined));
    const [ev, perp] = positions;
    assert.ok(ev !== undefined && perp !== undefined);
    // resolved YES: priced at the settled mark $1, whatever the live mark says; 100 x (1 - 0.4) = $60
    assert.equal(ev.current_price_usd_1e9, USD);
    assert.equal(ev.unrealized_pnl_usd_1e9, 60 * USD);
    assert.equal(ev.settled_mark_usd_1e9, USD);
    assert.equal(ev.transferable, false);
    // short 0.5 BTC from 60,000 at 62,000: value -31,000, unrealized -1,000
    assert.equal(perp.current_value_usd_1e9, -31_000 * USD);
    assert.equal(perp.unrealized_pnl_usd_1e9, -1_000 * USD);
    assert.equal(totals.cash_usd_1e9, 0);
    assert.equal(totals.num_positions, 2, 'resolved rows show by default');
  });
});

describe('ledger: stated positions (setPosition, clear)', () => {
  const perp = { kind: 'perp', symbol: 'BTC-USDT', base: 'BTC' } as const;
  const yes = { kind: 'event_contract', market_slug: 'FED-CUT', outcome: 'YES', token_id: null, expiry_ts: null } as const;

  it('creates a row of every kind at the stated qty and entry; perps may be short', () => {
    const ledger = new Ledger('sandbox');
    must(ledger.setPosition('coinbase', { kind: 'fiat', code: 'USD' }, 1_000 * UNIT, USD));
    must(ledger.setPosition('binance', { kind: 'crypto', symbol: 'BTC' }, UNIT / 2, 60_000 * USD));
    must(ledger.setPosition('hyperliquid', perp, -2 * UNIT, 61_000 * USD));
    must(ledger.setPosition('kalshi', yes, 10 * UNIT, 400_000_000));
    const { positions, totals } = ledger.view(noMarks);
    assert.deepEqual(positions.map((p) => [p.venue, p.instrument.kind, p.qty_1e8, p.entry_price_usd_1e9, p.lifecycle.state]), [
      ['coinbase', 'fiat', 1_000 * UNIT, USD, 'active'],
      ['binance', 'crypto', UNIT / 2, 60_000 * USD, 'active'],
      ['hyperliquid', 'perp', -2 * UNIT, 61_000 * USD, 'active'],
      ['kalshi', 'event_contract', 10 * UNIT, 400_000_000, 'active'],
    ]);
    assert.deepEqual(positions[3]!.instrument, yes);
    assert.equal(positions[3]!.settled_mark_usd_1e9, null);
    // Without marks each row is worth its entry: 1,000 + 30,000 + 4, and the perp adds its
    // equity (0 unrealized at its entry), not its -122,000 of notional.
    assert.equal(totals.nav_usd_1e9, 31_004 * USD);
    assert.equal(totals.cash_usd_1e9, 1_000 * USD);
    assert.ok(positions.every((p) => p.is_sandbox));
  });

  it('marks each kind against hand-computed values: value rounded down, entry value up, a short perp gains as its mark falls', () => {
    const ledger = new Ledger('sandbox');
    must(ledger.setPosition('coinbase', { kind: 'fiat', code: 'USD' }, 1_000 * UNIT, USD));
    must(ledger.setPosition('binance', { kind: 'crypto', symbol: 'BTC' }, 33_333_333, 60_000 * USD));
    must(ledger.setPosition('hyperliquid', perp, -2 * UNIT, 61_000 * USD));
    must(ledger.setPosition('kalshi', yes, 10 * UNIT, 400_000_000));
    // The consolidated marks the service gives (execution/service.ts markOf): BTC spot, and the
    // perp's own mid (here the same); none for the event contract, so its entry.
    const marks: MarkFn = (asset, instrument) => (asset === 'BTC' || instrument.kind === 'perp' ? 60_000_123_456_789 : undefined);
    const { positions, totals } = ledger.view(marks);
    assert.deepEqual(
      positions.map((p) => [p.instrument.kind, p.current_price_usd_1e9 ?? null, p.current_value_usd_1e9, p.unrealized_pnl_usd_1e9]),
      [
        ['fiat', null, 1_000 * USD, 0],
        // 0.33333333 BTC x $60,000.123456789 = $20,000.040952262(4), down; entry 0.33333333 x $60,000 = $19,999.9998 exactly.
        ['crypto', 60_000_123_456_789, 20_000_040_952_262, 41_152_262],
        // -2 BTC x $60,000.123456789 = -$120,000.246913578; entry -2 x $61,000 = -$122,000: the short is up $1,999.753086422.
        ['perp', 60_000_123_456_789, -120_000_246_913_578, 1_999_753_086_422],
        // 10 YES at the $0.40 entry (no mark for event contracts yet): $4, nothing unrealized.
        ['event_contract', 400_000_000, 4 * USD, 0],
      ],
    );
    // NAV counts the perp's equity (its unrealized PnL), not its notional.
    assert.equal(totals.nav_usd_1e9, 1_000 * USD + 20_000_040_952_262 + 1_999_753_086_422 + 4 * USD);
    assert.equal(totals.unrealized_pnl_usd_1e9, 41_152_262 + 1_999_753_086_422);
    assert.equal(totals.cash_usd_1e9, 1_000 * USD);
  });

  it('a stated perp owes no funding instant before it was stated, and pays the next one (no quote row appears before)', () => {
    const ledger = new Ledger('sandbox');
    must(ledger.setPosition('hyperliquid', perp, -2 * UNIT, 61_000 * USD, 5_000));
    assert.deepEqual(ledger.openPerps(), [{ venue: 'hyperliquid', symbol: 'BTC-USDT', funding_through_ns: 5_000 }]);
    assert.equal(ledger.accrueFunding({ venue: 'hyperliquid', symbol: 'BTC-USDT', ts_ns: 4_000, rate_1e9: 100_000, mark_1e9: 60_000 * USD }), undefined);
    assert.equal(ledger.rowCount, 1, 'no USDT row for an instant the position was not held through');
    // -2 BTC x $60,000 x 0.0001: a short receives $12 at a positive rate.
    assert.equal(ledger.accrueFunding({ venue: 'hyperliquid', symbol: 'BTC-USDT', ts_ns: 6_000, rate_1e9: 100_000, mark_1e9: 60_000 * USD })!.paid_usd_1e9, -12n * 10n ** 9n);
    // Stating it again later moves its clock forward, never back.
    must(ledger.setPosition('hyperliquid', perp, -1 * UNIT, 61_000 * USD, 1_000));
    assert.equal(ledger.openPerps()[0]!.funding_through_ns, 6_000);
  });

  it('upserts by (venue, instrument): qty and entry are replaced, id, realized PnL, fees and locks stay', () => {
    const ledger = workedExample();
    const btc = must(ledger.asset('binance', 'BTC'));
    const res = ledger.reserve('binance', 'BTC', 1_000) as number;
    const row = must(ledger.setPosition('binance', { kind: 'crypto', symbol: 'BTC' }, 3 * UNIT, 50_000 * USD));
    assert.equal(row.id, btc.id);
    assert.equal(row.qty_1e8, BigInt(3 * UNIT));
    assert.equal(row.entry_price_usd_1e9, BigInt(50_000 * USD));
    assert.equal(row.realized_pnl_usd_1e9, btc.realized_pnl_usd_1e9);
    assert.equal(row.fees_usd_1e9, btc.fees_usd_1e9);
    assert.equal(row.locked_qty_1e8, 1_000n);
    assert.equal(ledger.reservation(res), 1_000n);
    assert.equal(ledger.rowCount, 2);
  });

  it('qty 0 closes a row and a later qty opens it again; a closed row is still counted', () => {
    const ledger = new Ledger('sandbox');
    must(ledger.setPosition('kalshi', yes, 0, 0));
    assert.equal(ledger.view(noMarks).positions.length, 0);
    assert.equal(ledger.view(noMarks, { include_closed: true }).positions[0]?.lifecycle.state, 'closed');
    must(ledger.setPosition('kalshi', yes, UNIT, 0));
    assert.equal(ledger.view(noMarks).positions[0]?.lifecycle.state, 'active');
    assert.equal(ledger.rowCount, 1);
  });

  it('keeps exact amounts past 2^53: 1e17 (a billion dollars in _1e8) views as exactly 100000000000000000', () => {
    const ledger = new Ledger('sandbox');
    must(ledger.setPosition('binance', { kind: 'crypto', symbol: 'USDT' }, 100_000_000_000_000_000n, 1_000_000_000n));
    const p = ledger.view(noMarks).positions[0]!;
    assert.equal(p.qty_1e8, 100_000_000_000_000_000n);
    assert.equal(p.current_value_usd_1e9, 1_000_000_000_000_000_000n);
  });

  it('refuses, changing nothing: fractional or unsafe amounts, a negative entry, an empty venue, a spot row of the wrong kind', () => {
    const ledger = workedExample();
    const before = JSON.stringify(ledger.snapshot());
    const crypto = { kind: 'crypto', symbol: 'ETH' } as const;
    assert.equal(ledger.setPosition('binance', crypto, 1.5, USD), undefined);
    assert.equal(ledger.setPosition('binance', crypto, 2 ** 53, USD), undefined);
    assert.equal(ledger.setPosition('binance', crypto, UNIT, -1), undefined);
    assert.equal(ledger.setPosition('', crypto, UNIT, USD), undefined);
    assert.equal(ledger.setPosition('binance', { kind: 'crypto', symbol: 'USD' }, UNIT, USD), undefined, 'USD is fiat');
    assert.equal(ledger.setPosition('binance', { kind: 'fiat', code: 'BTC' }, UNIT, USD), undefined, 'BTC is crypto');
    assert.equal(ledger.setPosition('binance', { kind: 'crypto', symbol: '' }, UNIT, USD), undefined);
    assert.equal(ledger.setPosition('binance', { kind: 'perp', symbol: 'BTC-USDT' } as never, UNIT, USD), undefined, 'a perp names its base');
    assert.equal(JSON.stringify(ledger.snapshot()), before);
  });

  it('clear deletes every row and reservation; ids go on counting and fill ids are kept', () => {
    const ledger = workedExample();
    const res = ledger.reserve('binance', 'USDT', 1_000) as number;
    const next = ledger.rowCount + 1;
    assert.equal(ledger.clear(), 2);
    assert.equal(ledger.rowCount, 0);
    assert.deepEqual(ledger.view(noMarks, { include_closed: true }).positions, []);
    assert.equal(ledger.reservation(res), undefined);
    assert.equal(ledger.release(res), false);
    assert.deepEqual(ledger.venueSet(), new Set());
    assert.deepEqual(ledger.applyFill(fill({ fill_id: 'f2' })), { status: 'duplicate' }, 'a fill booked before the clear is still booked once');
    assert.equal(must(ledger.setPosition('binance', { kind: 'crypto', symbol: 'BTC' }, UNIT, 0)).id, next);
    // The cleared state round-trips: no dangling reservation refuses the restore.
    assert.ok(Ledger.fromSnapshot(JSON.parse(JSON.stringify(ledger.snapshot()))) !== undefined);
  });
});
