/**
 * TCA aggregates (execution/analytics/): a bucket's figures against hand-computed ones, the
 * weighted percentiles within the sketch's 1% against exact weighted ranks, the stored form,
 * and the property the design rests on: buckets folded as orders complete (in any batches, through
 * a real LMDB) answer exactly what a recomputation from all the orders at once answers.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { Packr } from 'msgpackr';
import { HOUR_MS, SKETCH_RELATIVE_ACCURACY, TcaBucket, type TcaSample } from '../../execution/analytics/tca-bucket.ts';
import { execSamples, tcaSamples } from '../../execution/analytics/samples.ts';
import { TcaDelta } from '../../execution/analytics/tca-delta.ts';
import { WireWriter } from '../../engine/wire.ts';
import { hourWindow, TcaAggregates } from '../../execution/analytics/tca-aggregates.ts';
import { Storage } from '../../storage/index.ts';
import { completedOrder } from '../helpers/completed-orders.ts';

const T0 = Date.UTC(2026, 10, 24, 10, 0, 0);

/** A delta's wire form, as a router journals it. */
function wire(d: TcaDelta): Uint8Array {
  const w = new WireWriter();
  d.write(w);
  return w.bytes();
}

function sample(over: Partial<TcaSample>): TcaSample {
  return {
    hour_ms: T0,
    kind: 'price',
    symbol: 'BTC-USDT',
    routing_version: 1,
    venue: '',
    notional_usd_1e9: 1_000e9,
    shortfall_bps: 0,
    spread_bps: 0,
    fee_bps: 0,
    impact_bps: 0,
    savings_bps: null,
    savings_usd_1e9: null,
    fees_usd_1e9: 0,
    provenance: 'direct',
    ...over,
  };
}

/** The lower and upper exact weighted quantiles of (value, weight) pairs. */
function weightedQuantiles(points: [number, number][], q: number): [number, number] {
  const sorted = [...points].sort((a, b) => a[0] - b[0]);
  const total = sorted.reduce((s, p) => s + p[1], 0);
  let cum = 0;
  for (let i = 0; i < sorted.length; i++) {
    cum += sorted[i]![1];
    if (cum >= q * total) return [sorted[Math.max(0, i - 1)]![0], sorted[Math.min(sorted.length - 1, i + 1)]![0]];
  }
  return [sorted.at(-1)![0], sorted.at(-1)![0]];
}

describe('TCA bucket', () => {
  it('weights every average by notional, counts wins over benchmarked orders only, sums money exactly', () => {
    const b = new TcaBucket();
    // $1,000 at 10 bps, $3,000 at -2 bps (better than the mid), $6,000 at 5 bps, unbenchmarked.
    b.add(sample({ notional_usd_1e9: 1_000e9, shortfall_bps: 10, spread_bps: 2, fee_bps: 7.5, impact_bps: 8, savings_bps: 3, savings_usd_1e9: 300_000_000, fees_usd_1e9: 750_000_000, order: { node_order_id: 'n1', side: 'buy' } }));
    b.add(sample({ notional_usd_1e9: 3_000e9, shortfall_bps: -2, spread_bps: 1, fee_bps: 7.5, impact_bps: -3, savings_bps: -1, savings_usd_1e9: -300_000_000, fees_usd_1e9: 2_250_000_000, order: { node_order_id: 'n2', side: 'buy' } }));
    b.add(sample({ notional_usd_1e9: 6_000e9, shortfall_bps: 5, spread_bps: 1.5, fee_bps: 2, impact_bps: 3.5, fees_usd_1e9: 1_200_000_000, provenance: 'no_benchmark', order: { node_order_id: 'n3', side: 'sell' } }));
    const s = b.summary();
    // The best and worst orders, ranked by shortfall cost in USD: $6,000 x 5 bps = $3 costs more than $1,000 x 10 bps = $1.
    assert.deepEqual(b.worst.map((e) => [e.node_order_id, e.shortfall_cost_usd_1e9]), [['n3', 3e9], ['n1', 1e9], ['n2', -0.6e9]]);
    assert.deepEqual(b.best.map((e) => e.node_order_id), ['n2', 'n1', 'n3'], '$3,000 at -2 bps saved $0.60');
    assert.equal(s.orders, 3);
    assert.equal(s.notional_usd_1e9, 10_000_000_000_000n);
    assert.equal(s.avg_implementation_shortfall_bps, (1 * 10 + 3 * -2 + 6 * 5) / 10); // 3.4
    assert.equal(s.avg_spread_cost_bps, (1 * 2 + 3 * 1 + 6 * 1.5) / 10); // 1.4
    assert.equal(s.avg_fee_bps, (1 * 7.5 + 3 * 7.5 + 6 * 2) / 10); // 4.2
    assert.equal(s.avg_impact_bps, (1 * 8 + 3 * -3 + 6 * 3.5) / 10); // 2
    assert.equal(s.avg_savings_bps, (1 * 3 + 3 * -1) / 4); // 0: only the benchmarked $4,000
    assert.equal(s.benchmarked_orders, 2);
    assert.equal(s.win_rate, 0.5);
    assert.equal(s.total_savings_usd_1e9, 0n);
    assert.equal(s.fees_usd_1e9, 4_200_000_000n);
    assert.deepEqual(s.provenance, { direct: 2, reconstructed: 0, no_benchmark: 1 });
    // Weighted p50: $6,000 of $10,000 sits at 5 bps and the cumulative weight crosses half there.
    assert.ok(Math.abs(s.shortfall_percentiles_bps.p50! - 5) <= 5 * SKETCH_RELATIVE_ACCURACY, String(s.shortfall_percentiles_bps.p50));
    assert.ok(Math.abs(s.shortfall_percentiles_bps.p99! - 10) <= 10 * SKETCH_RELATIVE_ACCURACY, String(s.shortfall_percentiles_bps.p99));
  });

  it('keeps the five costliest and cheapest whole orders; never a venue slice', () => {
    const b = new TcaBucket();
    for (let i = 0; i < 12; i++) b.add(sample({ shortfall_bps: i - 6, order: { node_order_id: `n${String(i).padStart(2, '0')}`, side: 'buy' } }));
    b.add(sample({ venue: 'okx', shortfall_bps: 90 }));
    assert.deepEqual(b.worst.map((e) => e.shortfall_bps), [5, 4, 3, 2, 1]);
    assert.deepEqual(b.best.map((e) => e.shortfall_bps), [-6, -5, -4, -3, -2]);
    assert.deepEqual(b.worst[0], { node_order_id: 'n11', symbol: 'BTC-USDT', side: 'buy', routing_version: 1, hour_ms: T0, notional_usd_1e9: 1_000e9, shortfall_bps: 5, shortfall_cost_usd_1e9: 0.5e9, savings_bps: null });
  });

  it('an empty bucket answers nulls, not zeros or NaN', () => {
    const s = new TcaBucket().summary();
    assert.equal(s.orders, 0);
    assert.equal(s.avg_implementation_shortfall_bps, null);
    assert.equal(s.win_rate, null);
    assert.deepEqual(s.shortfall_percentiles_bps, { p50: null, p75: null, p95: null, p99: null });
  });

  it('survives its binary form, and the object form of buckets stored before it (exact sums past 2^53, the sketches, the extremes)', () => {
    const b = new TcaBucket();
    for (let i = 0; i < 50; i++) {
      b.add(sample({ notional_usd_1e9: 9_000_000e9 + i, shortfall_bps: i - 20, fees_usd_1e9: 2 ** 52 + i, savings_bps: i % 3 === 0 ? null : i % 3, savings_usd_1e9: 7, order: { node_order_id: `n${i}`, side: i % 2 === 0 ? 'buy' : 'sell' } }));
      b.exec.addOrder({ status: 'COMPLETED', filled: true, fills: 2, volume_usd_1e9: 2 ** 53 + i, ack_ms: i / 7, first_fill_ms: i / 5, completion_ms: i });
      b.exec.addLeg({ acked: true, filled: i % 2 === 0, rejected: i % 5 === 0, ack_ms: i / 3, size: i % 3 === 0 ? 'large' : 'small' });
    }
    const stored = b.encode();
    assert.ok(stored instanceof Uint8Array);
    for (const back of [TcaBucket.fromValue(stored), TcaBucket.fromValue(structuredClone(b.toStored()) as unknown as Record<string, unknown>)]) {
      assert.deepEqual(back.summary(), b.summary());
      assert.deepEqual(back.exec.summary(), b.exec.summary());
      assert.deepEqual([back.best, back.worst], [b.best, b.worst]);
      assert.deepEqual(back.toStored(), b.toStored(), 'every field, every bin');
      assert.equal(back.summary().fees_usd_1e9, 50n * 2n ** 52n + 1225n);
    }
    assert.throws(() => TcaBucket.fromValue(Uint8Array.of(9)), /unknown format 9/);
  });

  it('weighted percentiles are within 1% of an exact weighted rank (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.double({ min: -200, max: 200, noNaN: true }), fc.integer({ min: 1, max: 1_000_000 })), { minLength: 1, maxLength: 200 }), fc.constantFrom(0.5, 0.75, 0.95, 0.99), (points, q) => {
        const b = new TcaBucket();
        for (const [v, usd] of points) b.add(sample({ shortfall_bps: v, notional_usd_1e9: usd * 1e9 }));
        const got = b.sketch.getValueAtQuantile(q);
        const [lo, hi] = weightedQuantiles(points.map(([v, usd]) => [v, usd]), q);
        const slack = (x: number) => Math.abs(x) * SKETCH_RELATIVE_ACCURACY + 1e-9;
        return got >= lo - slack(lo) && got <= hi + slack(hi);
      }),
      { numRuns: 200, seed: 20261125 },
    );
  });

  it('merging buckets equals adding every sample to one (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: -5_000, max: 5_000 }), fc.integer({ min: 1, max: 10_000 }), fc.boolean()), { minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: 5 }), (rows, parts) => {
        const one = new TcaBucket();
        const many = Array.from({ length: parts }, () => new TcaBucket());
        rows.forEach(([bps4, usd, bench], i) => {
          const s = sample({ shortfall_bps: bps4 / 10_000, notional_usd_1e9: usd * 1e9, savings_bps: bench ? bps4 / 20_000 : null, savings_usd_1e9: bench ? usd : null, fees_usd_1e9: usd * 3, order: { node_order_id: `n${i}`, side: 'buy' } });
          one.add(s);
          many[i % parts]!.add(s);
        });
        const merged = new TcaBucket();
        for (const m of many) merged.merge(m);
        const a = one.summary();
        const b = merged.summary();
        // Float sums may differ in the last bits by order of addition; the rounding to 1e-4 hides it.
        assert.deepEqual(b, a);
        assert.deepEqual([merged.best, merged.worst], [one.best, one.worst], 'the extremes of the parts are the extremes of the whole');
      }),
      { numRuns: 150, seed: 7 },
    );
  });
});

describe('TCA samples of an order', () => {
  const order = {
    node_order_id: 'ord-1',
    symbol: 'BTC-USDT',
    side: 'buy' as const,
    routing_version: 2 as const,
    reconciliation_state: 'in_sync' as const,
    updated_unix_ns: (T0 + 59 * 60_000 + 59_999) * 1e6,
    tca: {
      filled_qty_1e8: 1e8,
      notional_usd_1e9: 100_000e9,
      arrival_mid_1e9: 100_000e9,
      implementation_shortfall_bps: 2,
      spread_cost_bps: 0.5,
      impact_bps: 1.5,
      fee_bps: 6,
      savings_vs_best_single_venue_bps: 1.25,
      savings_usd_1e9: 12_500_000_000,
      fees_usd_1e9: 60_000_000_000,
      best_single_venue: { venue: 'binance' },
      is_prediction: false,
      probability_slippage_bps: 0,
      venues: [
        { venue: 'okx', qty_1e8: 75_000_000, vwap_1e9: 100_010e9, fee_1e9: 45_000_000_000, share: 0.75 },
        { venue: 'binance', qty_1e8: 25_000_000, vwap_1e9: 100_040e9, fee_1e9: 15_000_000_000, share: 0.25 },
      ],
    },
  };

  it('the order whole and its slice on each venue, in the UTC hour it completed', () => {
    const [whole, okx, binance] = tcaSamples(order);
    assert.equal(whole!.hour_ms, T0, 'completed at 10:59:59.999: the 10:00 bucket');
    assert.deepEqual([whole!.venue, whole!.notional_usd_1e9, whole!.shortfall_bps, whole!.savings_bps, whole!.provenance], ['', 100_000e9, 2, 1.25, 'direct']);
    assert.equal(okx!.venue, 'okx');
    assert.equal(okx!.notional_usd_1e9, 75_000e9);
    assert.ok(Math.abs(okx!.shortfall_bps - 1) < 1e-9, 'bought at 100,010 against a 100,000 mid: 1 bps');
    assert.ok(Math.abs(okx!.fee_bps - 6) < 1e-9, '$45 on $75,000');
    assert.equal(okx!.savings_bps, null, 'savings are the order’s, not a venue’s');
    assert.ok(Math.abs(binance!.shortfall_bps - 4) < 1e-9);
  });

  it('execution counts: the order row (status, fills, first answer, completion) and each leg sent on its venue, by size', () => {
    const created = T0 * 1e6;
    const ended = {
      ...order,
      status: 'CANCELLED' as const,
      instrument_type: 'spot' as const,
      created_unix_ns: created,
      filled_qty_1e8: 75_000_000,
      fill_ids: [1, 2],
      tca: { ...order.tca, time_to_first_fill_ms: 4, execution_time_ms: 9 },
      children: [
        { child_id: 'a', venue: 'okx', edge_id: 'okx', qty_1e8: 75_000_000, limit_price_1e9: 100_010e9, filled_qty_1e8: 75_000_000, status: 'filled' as const, reason: null, fee_1e9: 0, venue_reported_cum_fee_1e9: 0, sent_unix_ns: created + 1e6, answered_unix_ns: created + 3.5e6 },
        { child_id: 'b', venue: 'bybit', edge_id: 'bybit', qty_1e8: 5_000_000, limit_price_1e9: 100_040e9, filled_qty_1e8: 0, status: 'unconfirmed' as const, reason: 'lost', fee_1e9: 0, venue_reported_cum_fee_1e9: 0, sent_unix_ns: created + 1e6 },
        { child_id: 'c', venue: 'kraken', edge_id: 'kraken', qty_1e8: 1e6, limit_price_1e9: 100_000e9, filled_qty_1e8: 0, status: 'rejected' as const, reason: 'insufficient_balance', fee_1e9: 0, venue_reported_cum_fee_1e9: 0 },
      ],
    };
    const [row, okx, bybit, ...rest] = execSamples(ended);
    // Wall-clock ns are past 2^53 (a double's step there is 256 ns): latencies are exact to ~0.001 ms.
    const near = (a: number | null | undefined, b: number) => assert.ok(a != null && Math.abs(a - b) < 1e-3, `${a} vs ${b}`);
    near(row!.order!.ack_ms, 2.5);
    near(okx!.leg!.ack_ms, 2.5);
    assert.deepEqual({ ...row!.order, ack_ms: 0 }, { status: 'CANCELLED', filled: true, fills: 2, volume_usd_1e9: 100_000e9, ack_ms: 0, first_fill_ms: 4, completion_ms: 9 });
    assert.deepEqual([okx!.venue, { ...okx!.leg, ack_ms: 0 }], ['okx', { acked: true, filled: true, rejected: false, ack_ms: 0, size: 'medium' }], '0.75 BTC at 100,010: $75,007.5, medium');
    assert.deepEqual([bybit!.venue, bybit!.leg], ['bybit', { acked: false, filled: false, rejected: false, ack_ms: null, size: 'small' }], 'lost: not acked; $5,002 is small');
    assert.deepEqual(rest, [], 'a leg refused before it left was never sent');
    assert.deepEqual(execSamples({ ...ended, status: 'WORKING' as never }), [], 'a working order counts nothing yet');
  });

  it('a reconciled order is reconstructed; no fill, no sample; a prediction order is apart, in probability bps', () => {
    assert.equal(tcaSamples({ ...order, reconciliation_state: 'reconciled' })[0]!.provenance, 'reconstructed');
    assert.deepEqual(tcaSamples({ ...order, tca: null }), []);
    const p = tcaSamples({ ...order, tca: { ...order.tca, is_prediction: true, probability_slippage_bps: 120, arrival_mid_1e9: 400_000_000, venues: [{ venue: 'kalshi', qty_1e8: 1e8, vwap_1e9: 410_000_000, fee_1e9: 0, share: 1 }] } });
    assert.equal(p[0]!.kind, 'prediction');
    assert.equal(p[0]!.shortfall_bps, 120);
    assert.ok(Math.abs(p[1]!.shortfall_bps - 100) < 1e-9, '0.41 against 0.40: 100 probability bps');
  });
});

describe('TCA aggregates over LMDB', () => {
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const orderAt = (i: number, hour: number, rv: 1 | 2 | 3, symbol: string, venues: string[]) => completedOrder(i, T0 + hour * HOUR_MS + (i % 3_600) * 1_000, rv, symbol, venues);

  it('folded as orders complete, in batches, the aggregates answer what a recomputation from every order answers (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ hour: fc.integer({ min: 0, max: 30 }), rv: fc.constantFrom(1, 2, 3) as fc.Arbitrary<1 | 2 | 3>, sym: fc.constantFrom('BTC-USDT', 'ETH-USDT'), venues: fc.subarray(['binance', 'okx', 'bybit'], { minLength: 1 }), batch: fc.integer({ min: 1, max: 8 }) }), { minLength: 1, maxLength: 80 }),
        async (specs) => {
          const dir = mkdtempSync(join(tmpdir(), 'seq-tca-agg-'));
          dirs.push(dir);
          const storage = Storage.open(dir, { credentialsKey: 'ab'.repeat(32), minFreeBytes: 0 });
          try {
            const incremental = new TcaAggregates(storage.tcaBuckets, 16); // a small cache: evictions and re-reads are exercised too
            const orders = specs.map((s, i) => orderAt(i, s.hour, s.rv, s.sym, s.venues));
            const windows = [hourWindow(T0, T0 + 31 * HOUR_MS), hourWindow(T0 + 5 * HOUR_MS, T0 + 17 * HOUR_MS + 1)];
            const filters = windows.flatMap((w) => [undefined, 'BTC-USDT'].flatMap((symbol) => [undefined, 2].flatMap((routing_version) => [undefined, 'okx'].map((venue) => ({ ...w, symbol, routing_version, venue })))));
            // Each batch is one router delta, through its wire form as the journal receives it.
            let i = 0;
            for (const s of specs) {
              const delta = new TcaDelta();
              for (let k = 0; k < s.batch && i < orders.length; k++) delta.fold(orders[i++]!);
              incremental.mergeEncoded('c1', 'live', wire(delta));
              // Queries between batches keep answers that later deltas must fold forward.
              if (i % 3 === 0) for (const f of filters) incremental.query('c1', 'live', 'price', f);
              await storage.orders.durable();
            }
            const rest = new TcaDelta();
            while (i < orders.length) rest.fold(orders[i++]!);
            incremental.merge('c1', 'live', TcaDelta.decode(wire(rest)));
            await storage.orders.durable();
            // From scratch: every order into one bucket per query, no storage.
            for (const w of windows) {
              for (const symbol of [undefined, 'BTC-USDT']) {
                for (const routing_version of [undefined, 2]) {
                  for (const venue of [undefined, 'okx']) {
                    const expected = new TcaBucket();
                    const keep = (s: { hour_ms: number; symbol: string; routing_version: number; venue: string }) =>
                      s.hour_ms >= w.from_hour_ms && s.hour_ms < w.to_hour_ms && (symbol === undefined || s.symbol === symbol) && (routing_version === undefined || s.routing_version === routing_version) && s.venue === (venue ?? '');
                    for (const o of orders) {
                      for (const s of tcaSamples(o)) if (keep(s)) expected.add(s);
                      for (const s of execSamples(o)) {
                        if (!keep(s)) continue;
                        if (s.order !== undefined) expected.exec.addOrder(s.order);
                        if (s.leg !== undefined) expected.exec.addLeg(s.leg);
                      }
                    }
                    const fresh = new TcaAggregates(storage.tcaBuckets).query('c1', 'live', 'price', { ...w, symbol, routing_version, venue });
                    const warm = incremental.query('c1', 'live', 'price', { ...w, symbol, routing_version, venue });
                    const what = JSON.stringify({ w, symbol, routing_version, venue });
                    assert.deepEqual(warm.summary(), expected.summary(), what);
                    assert.deepEqual(fresh.summary(), expected.summary(), 'read back from LMDB alone');
                    assert.deepEqual(warm.exec.summary(), expected.exec.summary(), `execution counts ${what}`);
                    assert.deepEqual([warm.best, warm.worst], [expected.best, expected.worst], `best and worst orders ${what}`);
                    assert.deepEqual([fresh.best, fresh.worst], [expected.best, expected.worst], 'best and worst orders read back from LMDB alone');
                    assert.deepEqual(fresh.exec.summary(), expected.exec.summary(), 'execution counts read back from LMDB alone');
                  }
                }
              }
            }
            assert.equal(new TcaAggregates(storage.tcaBuckets).query('c1', 'sandbox', 'price', windows[0]!).orders, 0, 'live orders are not sandbox figures');
            assert.equal(new TcaAggregates(storage.tcaBuckets).query('c2', 'live', 'price', windows[0]!).orders, 0, 'another client sees none');
          } finally {
            await storage.close();
          }
        },
      ),
      { numRuns: 12, seed: 42 },
    );
  });
  it('a delta through its wire form is the delta: every row, its bucket and its orders', () => {
    const delta = new TcaDelta();
    for (let i = 0; i < 60; i++) delta.fold(orderAt(i, i % 4, ((i % 3) + 1) as 1 | 2 | 3, 'BTC-USDT', ['binance', 'okx', 'bybit'].slice(0, 1 + (i % 3))));
    const back = TcaDelta.decode(wire(delta));
    assert.deepEqual(back.orders, delta.orders);
    assert.deepEqual([...back.rows.keys()], [...delta.rows.keys()]);
    assert.equal(delta.rows.size, 4 * (2 + 3 + 4), 'four hours; per hour, versions 1, 2 and 3 with the order row and their 1, 2 and 3 venues');
    for (const [id, r] of delta.rows) {
      const b = back.rows.get(id)!;
      assert.deepEqual([b.hour_ms, b.kind, b.symbol, b.routing_version, b.venue], [r.hour_ms, r.kind, r.symbol, r.routing_version, r.venue]);
      assert.deepEqual(b.bucket.toStored(), r.bucket.toStored(), id);
    }
  });

  it('a query waits for the router only while an order that ended is not merged, and stops waiting once the router had nothing left', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'seq-tca-settle-'));
    dirs.push(dir);
    const storage = Storage.open(dir, { credentialsKey: 'ab'.repeat(32), minFreeBytes: 0 });
    try {
      const asked: string[] = [];
      let answer: () => void = () => {};
      const aggregates = new TcaAggregates(storage.tcaBuckets, 16, undefined, undefined, (client, mode) => {
        asked.push(`${client}|${mode}`);
        return new Promise<void>((resolve) => (answer = resolve));
      });
      assert.equal(aggregates.settled('c1', 'live'), undefined, 'nothing ended: no wait');
      const o = orderAt(1, 0, 1, 'BTC-USDT', ['okx']);
      aggregates.marked('c1', 'live', o.node_order_id);
      assert.equal(aggregates.settled('c1', 'sandbox'), undefined, 'another mode has nothing to wait for');
      const delta = new TcaDelta();
      delta.fold(o);
      aggregates.mergeEncoded('c1', 'live', wire(delta));
      assert.equal(aggregates.settled('c1', 'live'), undefined, 'its delta merged: no wait');
      // An order whose ending failed to commit is marked here but never folded by its router.
      aggregates.marked('c1', 'live', 'lost');
      const first = aggregates.settled('c1', 'live');
      assert.ok(first !== undefined);
      // Another order ends while the router is asked: the next query asks again.
      aggregates.marked('c1', 'live', 'later');
      answer();
      await first;
      const second = aggregates.settled('c1', 'live');
      assert.ok(second !== undefined, 'an order ended during the ask');
      answer();
      await second;
      assert.equal(aggregates.settled('c1', 'live'), undefined, 'the router had nothing left: no wait from now on');
      assert.deepEqual(asked, ['c1|live', 'c1|live']);
    } finally {
      await storage.close();
    }
  });

  it('an order committed with its mark but not yet in a merged delta (a crash between) is folded again at a start, exactly once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'seq-tca-marks-'));
    dirs.push(dir);
    const storage = Storage.open(dir, { credentialsKey: 'ab'.repeat(32), minFreeBytes: 0 });
    try {
      const packr = new Packr({ useRecords: false });
      const readOrder = (c: string, m: 'live' | 'sandbox', id: string) => storage.orders.getOrder(c, m, id);
      const live = new TcaAggregates(storage.tcaBuckets, 16, readOrder);
      const orders = Array.from({ length: 30 }, (_, i) => orderAt(i, i % 5, ((i % 3) + 1) as 1 | 2 | 3, i % 2 === 0 ? 'BTC-USDT' : 'ETH-USDT', ['binance', 'okx']));
      // The journal stage: each order's ending with its mark, in one transaction; the router folds it once that is on disk.
      const delta = new TcaDelta();
      const journal = async (o: (typeof orders)[number]) => {
        storage.orders.putOrderEncoded('c1', 'live', o.node_order_id, o.status, 'ACTIVE', packr.pack(o));
        live.marked('c1', 'live', o.node_order_id);
        await storage.orders.durable();
        delta.fold(o);
      };
      for (const o of orders.slice(0, 20)) await journal(o);
      assert.equal(storage.tcaBuckets.pending().length, 20, 'marked with their orders');
      live.merge('c1', 'live', delta);
      await live.durable();
      assert.deepEqual(storage.tcaBuckets.pending(), [], 'a merged delta writes its buckets and removes its marks in one commit');
      const held = new TcaDelta();
      for (const o of orders.slice(20)) {
        storage.orders.putOrderEncoded('c1', 'live', o.node_order_id, o.status, 'ACTIVE', packr.pack(o));
        live.marked('c1', 'live', o.node_order_id);
        held.fold(o);
      }
      await storage.orders.durable();
      assert.equal(storage.tcaBuckets.pending().length, 10, "committed with their orders, still in the router's delta");
      // The process dies here: the router's delta is lost. A start folds the ten marked orders onto the buckets on disk.
      const window = hourWindow(T0, T0 + 6 * HOUR_MS);
      const expected = new TcaBucket();
      for (const o of orders) for (const x of tcaSamples(o)) if (x.venue === '') expected.add(x);
      const restarted = new TcaAggregates(storage.tcaBuckets, 16, readOrder);
      assert.equal(restarted.foldMarked(), 10);
      assert.deepEqual(restarted.query('c1', 'live', 'price', window).summary(), expected.summary());
      await restarted.durable();
      assert.deepEqual(storage.tcaBuckets.pending(), []);
      const cold = new TcaAggregates(storage.tcaBuckets, 16, readOrder);
      assert.equal(cold.foldMarked(), 0, 'nothing is folded twice');
      assert.deepEqual(cold.query('c1', 'live', 'price', window).summary(), expected.summary(), 'the buckets on disk alone');
    } finally {
      await storage.close();
    }
  });

});
