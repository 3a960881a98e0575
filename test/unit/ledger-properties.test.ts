/**
 * Positions ledger properties (fast-check): conservation of every asset across fills and fees,
 * quote spent never below (and proceeds never above) the exact fill value, round trips never
 * make money, reservations never let available go negative, replayed fills change nothing,
 * snapshot/restore round trips (and a crash at any point recovers to the same state).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { ExactInt } from '../../domain/units.ts';
import { Ledger, type LedgerRow, type MarkFn, type SpotFill } from '../../execution/ledger/ledger.ts';

const VENUES = ['binance', 'kraken'] as const;
const SYMBOLS = ['BTC-USDT', 'ETH-USDT', 'ETH-BTC', 'BTC-USD', 'SOL-EUR'] as const;
const ASSETS = ['BTC', 'ETH', 'SOL', 'USDT', 'USD', 'EUR', 'BNB'] as const;
const E9 = 1_000_000_000n;

type FillSpec = Omit<SpotFill, 'fill_id'>;

const fillArb: fc.Arbitrary<FillSpec> = fc
  .record({
    venue: fc.constantFrom(...VENUES),
    symbol: fc.constantFrom(...SYMBOLS),
    side: fc.constantFrom('buy' as const, 'sell' as const),
    qty_1e8: fc.bigInt({ min: 1n, max: 10n ** 12n }),
    price_1e9: fc.bigInt({ min: 1n, max: 10n ** 15n }),
    feeWhere: fc.constantFrom('base', 'quote', 'BNB', 'none'),
    fee_qty_1e8: fc.bigInt({ min: -(10n ** 4n), max: 10n ** 9n }),
    fee_1e9: fc.bigInt({ min: -(10n ** 6n), max: 10n ** 11n }),
    quote_usd_1e9: fc.bigInt({ min: 1n, max: 10n ** 14n }),
  })
  .map(({ feeWhere, ...f }) => {
    const [base, quote] = f.symbol.split('-') as [string, string];
    const fee_asset = feeWhere === 'base' ? base : feeWhere === 'quote' ? quote : feeWhere === 'BNB' ? 'BNB' : '';
    return { ...f, fee_asset, fee_qty_1e8: feeWhere === 'none' ? 0n : f.fee_qty_1e8 };
  });

const seedArb = fc.array(
  fc.record({
    venue: fc.constantFrom(...VENUES),
    asset: fc.constantFrom(...ASSETS),
    qty_1e8: fc.bigInt({ min: 0n, max: 10n ** 16n }),
    mark_usd_1e9: fc.bigInt({ min: 1n, max: 10n ** 14n }),
  }),
  { maxLength: 10 },
);

function seeded(seeds: { venue: string; asset: string; qty_1e8: bigint; mark_usd_1e9: bigint }[], mode: 'live' | 'sandbox' = 'live'): Ledger {
  const ledger = new Ledger(mode);
  for (const s of seeds) ledger.seed(s.venue, [s]);
  return ledger;
}

function qtyOf(ledger: Ledger, venue: string, asset: string): bigint {
  return ledger.asset(venue, asset)?.qty_1e8 ?? 0n;
}

function totalFees(ledger: Ledger): bigint {
  return ledger.rows().reduce((sum, r) => sum + r.fees_usd_1e9, 0n);
}

const marks: MarkFn = (asset) => ({ BTC: 60_000_000_000_000, ETH: 3_000_000_000_000, EUR: 1_080_000_000 })[asset];

function key(r: LedgerRow): string {
  return `${r.venue}|${r.instrument.kind === 'fiat' ? r.instrument.code : r.instrument.kind === 'crypto' ? r.instrument.symbol : ''}`;
}

describe('ledger properties', () => {
  it('conserves every asset: each leg moves exactly the fill and the fee, nothing else moves', () => {
    fc.assert(
      fc.property(seedArb, fc.array(fillArb, { minLength: 1, maxLength: 30 }), (seeds, fills) => {
        const ledger = seeded(seeds);
        fills.forEach((spec, i) => {
          const [base, quote] = spec.symbol.split('-') as [string, string];
          const before = new Map(ledger.rows().map((r) => [key(r), r.qty_1e8]));
          const feesBefore = totalFees(ledger);
          const r = ledger.applyFill({ ...spec, fill_id: `f${i}` });
          assert.equal(r.status, 'applied');
          const q = BigInt(spec.qty_1e8);
          const pq = BigInt(spec.price_1e9) * q;
          const feeQty = BigInt(spec.fee_qty_1e8);
          const expected = new Map<string, bigint>();
          const add = (asset: string, d: bigint): void => {
            const k = `${spec.venue}|${asset}`;
            expected.set(k, (expected.get(k) ?? 0n) + d);
          };
          const quoteLeg = spec.side === 'buy' ? -((pq + E9 - 1n) / E9) : pq / E9;
          add(base, spec.side === 'buy' ? q : -q);
          add(quote, quoteLeg);
          if (feeQty !== 0n) add(spec.fee_asset, -feeQty);
          // Quote spent never below the exact fill value, and within one unit of it; proceeds
          // never above it.
          if (spec.side === 'buy') {
            assert.ok(-quoteLeg * E9 >= pq && -quoteLeg * E9 < pq + E9);
          } else {
            assert.ok(quoteLeg * E9 <= pq && quoteLeg * E9 > pq - E9);
          }
          for (const row of ledger.rows()) {
            const k = key(row);
            assert.equal(row.qty_1e8 - (before.get(k) ?? 0n), expected.get(k) ?? 0n, `${k} after fill ${i}`);
          }
          assert.equal(totalFees(ledger) - feesBefore, BigInt(spec.fee_1e9), 'fees booked once, in USD');
        });
      }),
      { numRuns: 200 },
    );
  });

  it('adds up over a whole sequence: final qty = seed + sum of legs, for every asset', () => {
    fc.assert(
      fc.property(seedArb, fc.array(fillArb, { maxLength: 40 }), (seeds, fills) => {
        const ledger = seeded(seeds);
        const expected = new Map<string, bigint>();
        for (const s of seeds) expected.set(`${s.venue}|${s.asset}`, s.qty_1e8); // last seed wins
        const add = (venue: string, asset: string, d: bigint): void => {
          expected.set(`${venue}|${asset}`, (expected.get(`${venue}|${asset}`) ?? 0n) + d);
        };
        fills.forEach((spec, i) => {
          ledger.applyFill({ ...spec, fill_id: `f${i}` });
          const [base, quote] = spec.symbol.split('-') as [string, string];
          const q = BigInt(spec.qty_1e8);
          const pq = BigInt(spec.price_1e9) * q;
          add(spec.venue, base, spec.side === 'buy' ? q : -q);
          add(spec.venue, quote, spec.side === 'buy' ? -((pq + E9 - 1n) / E9) : pq / E9);
          add(spec.venue, spec.fee_asset, -BigInt(spec.fee_qty_1e8));
        });
        for (const [k, qty] of expected) {
          const [venue, asset] = k.split('|') as [string, string];
          assert.equal(qtyOf(ledger, venue, asset), qty, k);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('never makes money on a round trip: buy then sell the same qty at the same price', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.bigInt({ min: 1n, max: 10n ** 15n }),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        (qty, price, held) => {
          const ledger = new Ledger();
          ledger.seed('binance', [{ asset: 'USDT', qty_1e8: 10n ** 20n }, { asset: 'BTC', qty_1e8: held, mark_usd_1e9: price + 7n }]);
          const base = { venue: 'binance', symbol: 'BTC-USDT', qty_1e8: qty, price_1e9: price, fee_1e9: 0, fee_asset: '', fee_qty_1e8: 0, quote_usd_1e9: E9 };
          ledger.applyFill({ ...base, fill_id: 'b', side: 'buy' });
          ledger.applyFill({ ...base, fill_id: 's', side: 'sell' });
          assert.ok(qtyOf(ledger, 'binance', 'USDT') <= 10n ** 20n, 'quote never grows');
          const btc = ledger.asset('binance', 'BTC');
          assert.ok(btc !== undefined && btc.qty_1e8 === held);
          assert.ok(btc.realized_pnl_usd_1e9 <= 0n, `realized ${btc.realized_pnl_usd_1e9} is never a gain`);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reservations never let available go negative, and locked = what the reservations hold', () => {
    type Op =
      | { op: 'reserve'; asset: 'USDT' | 'BTC'; qty: bigint }
      | { op: 'consume'; pick: number; qty: bigint }
      | { op: 'release'; pick: number }
      | { op: 'fill'; pick: number; fraction: number; price: bigint }
      | { op: 'credit'; qty: bigint };
    const opArb: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ op: fc.constant('reserve' as const), asset: fc.constantFrom('USDT' as const, 'BTC' as const), qty: fc.bigInt({ min: -5n, max: 10n ** 12n }) }),
      fc.record({ op: fc.constant('consume' as const), pick: fc.nat(), qty: fc.bigInt({ min: 0n, max: 10n ** 12n }) }),
      fc.record({ op: fc.constant('release' as const), pick: fc.nat() }),
      fc.record({ op: fc.constant('fill' as const), pick: fc.nat(), fraction: fc.double({ min: 0, max: 1, noNaN: true }), price: fc.bigInt({ min: 1n, max: 10n ** 14n }) }),
      fc.record({ op: fc.constant('credit' as const), qty: fc.bigInt({ min: 1n, max: 10n ** 10n }) }),
    );
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 13n }), fc.bigInt({ min: 0n, max: 10n ** 10n }), fc.array(opArb, { maxLength: 60 }), (usdt, btc, ops) => {
        const ledger = new Ledger();
        ledger.seed('binance', [{ asset: 'USDT', qty_1e8: usdt }, { asset: 'BTC', qty_1e8: btc, mark_usd_1e9: 50_000n * E9 }]);
        const live: { id: number; asset: 'USDT' | 'BTC' }[] = [];
        let n = 0;
        for (const o of ops) {
          if (o.op === 'reserve') {
            const avail = ledger.available('binance', o.asset);
            const id = ledger.reserve('binance', o.asset, o.qty);
            assert.equal(id !== false, o.qty > 0n && o.qty <= avail, 'granted iff positive and available');
            if (id !== false) live.push({ id, asset: o.asset });
          } else if (o.op === 'consume' && live.length > 0) {
            ledger.consume((live[o.pick % live.length] as { id: number }).id, o.qty);
          } else if (o.op === 'release' && live.length > 0) {
            const [r] = live.splice(o.pick % live.length, 1);
            assert.notEqual(ledger.release((r as { id: number }).id), false);
          } else if (o.op === 'fill' && live.length > 0) {
            // A fill that stays inside its reservation (the router sized it so).
            const r = live[o.pick % live.length] as { id: number; asset: 'USDT' | 'BTC' };
            const remaining = ledger.reservation(r.id) ?? 0n;
            const cap = r.asset === 'USDT' ? (remaining * E9) / o.price : remaining;
            const qty = (cap * BigInt(Math.floor(o.fraction * 1_000_000))) / 1_000_000n;
            if (qty > 0n) {
              const res = ledger.applyFill({ fill_id: `f${n++}`, venue: 'binance', symbol: 'BTC-USDT', side: r.asset === 'USDT' ? 'buy' : 'sell', qty_1e8: qty, price_1e9: o.price, fee_1e9: 0, fee_asset: '', fee_qty_1e8: 0, quote_usd_1e9: E9, reservation: r.id });
              assert.equal(res.status, 'applied');
            }
          } else if (o.op === 'credit') {
            // An unreserved fill that only adds cash (a sell of an untracked asset).
            ledger.applyFill({ fill_id: `f${n++}`, venue: 'binance', symbol: 'XRP-USDT', side: 'sell', qty_1e8: o.qty, price_1e9: E9, fee_1e9: 0, fee_asset: '', fee_qty_1e8: 0, quote_usd_1e9: E9 });
          }
          for (const asset of ['USDT', 'BTC'] as const) {
            const row = ledger.asset('binance', asset);
            if (row === undefined) continue;
            assert.ok(row.available_qty_1e8 >= 0n, `${asset} available ${row.available_qty_1e8}`);
            const held = live.filter((r) => r.asset === asset).reduce((s, r) => s + (ledger.reservation(r.id) ?? 0n), 0n);
            assert.equal(row.locked_qty_1e8, held, `${asset} locked = sum of its reservations`);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('replaying fills (in any order, any number of times) changes nothing', () => {
    fc.assert(
      fc.property(seedArb, fc.array(fillArb, { minLength: 1, maxLength: 25 }), fc.array(fc.nat(), { maxLength: 60 }), (seeds, fills, replay) => {
        const ledger = seeded(seeds);
        fills.forEach((spec, i) => ledger.applyFill({ ...spec, fill_id: `f${i}` }));
        const once = JSON.stringify(ledger.snapshot());
        for (const pick of replay) {
          const i = pick % fills.length;
          assert.deepEqual(ledger.applyFill({ ...(fills[i] as FillSpec), fill_id: `f${i}` }), { status: 'duplicate' });
        }
        assert.equal(JSON.stringify(ledger.snapshot()), once);
      }),
      { numRuns: 200 },
    );
  });

  it('a crash at any point recovers: last snapshot + replay of the whole fill log = the uninterrupted state', () => {
    fc.assert(
      fc.property(seedArb, fc.array(fillArb, { minLength: 1, maxLength: 25 }), fc.nat(), (seeds, fills, cutAt) => {
        const log = fills.map((spec, i) => ({ ...spec, fill_id: `f${i}` }));
        const straight = seeded(seeds);
        for (const f of log) straight.applyFill(f);

        const before = seeded(seeds);
        const cut = cutAt % (log.length + 1);
        for (const f of log.slice(0, cut)) before.applyFill(f);
        const persisted = JSON.stringify(before.snapshot());
        const recovered = Ledger.fromSnapshot(JSON.parse(persisted));
        assert.ok(recovered !== undefined);
        for (const f of log) recovered.applyFill(f); // the storage replays everything it has
        assert.equal(JSON.stringify(recovered.snapshot()), JSON.stringify(straight.snapshot()));
        assert.deepEqual(recovered.view(marks, { include_closed: true }), straight.view(marks, { include_closed: true }));
      }),
      { numRuns: 200 },
    );
  });

  it('snapshot -> JSON -> restore -> snapshot is the identity, with reservations, in both modes', () => {
    fc.assert(
      fc.property(
        seedArb,
        fc.array(fillArb, { maxLength: 20 }),
        fc.array(fc.record({ asset: fc.constantFrom(...ASSETS), qty: fc.bigInt({ min: 1n, max: 10n ** 12n }) }), { maxLength: 6 }),
        fc.constantFrom('live' as const, 'sandbox' as const),
        (seeds, fills, reserves, mode) => {
          const ledger = seeded(seeds, mode);
          fills.forEach((spec, i) => ledger.applyFill({ ...spec, fill_id: `f${i}` }));
          for (const r of reserves) ledger.reserve('binance', r.asset, r.qty);
          const snap = ledger.snapshot();
          const json = JSON.stringify(snap);
          const into = new Ledger(mode);
          assert.deepEqual(into.restore(JSON.parse(json)), { ok: true });
          assert.equal(JSON.stringify(into.snapshot()), json);
          assert.deepEqual(into.view(marks, { include_closed: true }), ledger.view(marks, { include_closed: true }));
          assert.deepEqual(into.rows(), ledger.rows());
        },
      ),
      { numRuns: 200 },
    );
  });

  it('view totals are the sums of the returned rows', () => {
    fc.assert(
      fc.property(seedArb, fc.array(fillArb, { maxLength: 20 }), fc.boolean(), (seeds, fills, includeClosed) => {
        const ledger = seeded(seeds);
        fills.forEach((spec, i) => ledger.applyFill({ ...spec, fill_id: `f${i}` }));
        // Figures past 2^53 come as bigints (exact), so the totals are the exact sums at any size.
        const { positions, totals } = ledger.view(marks, { include_closed: includeClosed });
        const rows = ledger.rows().filter((r) => includeClosed || r.lifecycle.state !== 'closed');
        assert.equal(totals.num_positions, rows.length);
        const big = (f: (p: (typeof positions)[number]) => ExactInt): bigint => positions.reduce((s, p) => s + BigInt(f(p)), 0n);
        assert.equal(BigInt(totals.nav_usd_1e9), big((p) => p.current_value_usd_1e9));
        assert.equal(BigInt(totals.unrealized_pnl_usd_1e9), big((p) => p.unrealized_pnl_usd_1e9));
        for (const p of positions) {
          const row = rows.find((r) => r.id === p.id);
          assert.ok(row !== undefined);
          assert.equal(BigInt(p.available_qty_1e8), row.qty_1e8 - row.locked_qty_1e8);
        }
      }),
      { numRuns: 100 },
    );
  });
});
