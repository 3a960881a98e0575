/**
 * Injected child-order faults of a simulated venue (actors/edge/sim/venue-faults.ts): the draws
 * follow the policy's rates and are deterministic for its seed and edge; `corrupt` answers
 * reports the router's checks (execution/leg-reports.ts) refuse, without touching the true one;
 * a forced feed drop (`SimVenue.dropFeed`) takes the feed down at once, refuses child orders
 * meanwhile and comes back on time.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChildExecution, ChildPlacement } from '../../actors/edge/messages.ts';
import { simEdge } from '../../actors/edge/sim/catalog.ts';
import { FaultKind, FaultSchedule } from '../../actors/edge/sim/faults.ts';
import { LatentPriceModel } from '../../actors/edge/sim/latent-price.ts';
import { SimVenue, type VenueSink } from '../../actors/edge/sim/sim-venue.ts';
import { corrupt, GARBAGE_KINDS, LEG_FAULT_KINDS, VenueFaults, type LegFault } from '../../actors/edge/sim/venue-faults.ts';
import { Side } from '../../domain/market.ts';
import type { ChildOrder } from '../../domain/orders.ts';
import { legReportProblem } from '../../execution/leg-reports.ts';

const T0 = 1_750_000_000_000_000_000;
const MS = 1e6;
const EDGE = 'venue-edge-binance';

const draws = (faults: VenueFaults, n: number): LegFault[] => Array.from({ length: n }, () => faults.draw());

const leg: ChildOrder = {
  child_id: 'ord_1-1',
  venue: 'binance',
  edge_id: EDGE,
  qty_1e8: 1_000_000,
  limit_price_1e9: 100_000_000_000_000,
  time_in_force: 'ioc',
  filled_qty_1e8: 0,
  status: 'sent',
  reason: null,
  fee_1e9: 0,
  venue_reported_cum_fee_1e9: 0,
} as ChildOrder;

const report = (fills: { price_1e9: number; qty_1e8: number }[]): ChildExecution => ({
  child_id: leg.child_id,
  venue: leg.venue,
  edge_id: leg.edge_id,
  ok: true,
  reason: null,
  fills: fills.map((f, i) => ({ ...f, trade_id: `t-${i}`, ts_ns: T0, fee_1e9: 10, cum_fee_1e9: 10 * (i + 1) })),
  taker_bps: 10,
  maker_bps: 2,
  ack_ns: T0,
});

describe('sim venue faults: injected child-order faults', () => {
  it('off kinds never fire; each kind at its rate; deterministic for (seed, edge)', () => {
    assert.ok(draws(new VenueFaults({ seed: 1, rates: {} }, EDGE), 1_000).every((f) => f.kind === 'none'));
    const rates = { stall: 0.1, late: 0.2, duplicate: 0.05, disconnect: 0.15, garbage: 0.1 };
    const n = 20_000;
    const seen = draws(new VenueFaults({ seed: 3, rates }, EDGE), n);
    for (const kind of LEG_FAULT_KINDS) {
      const share = seen.filter((f) => f.kind === kind).length / n;
      assert.ok(Math.abs(share - rates[kind]) < 0.015, `${kind}: ${share} vs ${rates[kind]}`);
    }
    const garbage = seen.filter((f): f is Extract<LegFault, { kind: 'garbage' }> => f.kind === 'garbage');
    for (const g of GARBAGE_KINDS) assert.ok(garbage.some((f) => f.garbage === g), `garbage ${g} drawn`);
    const disconnects = seen.filter((f): f is Extract<LegFault, { kind: 'disconnect' }> => f.kind === 'disconnect');
    assert.ok(disconnects.some((f) => f.reached) && disconnects.some((f) => !f.reached), 'a dropped leg may or may not have reached the venue');
    assert.deepEqual(draws(new VenueFaults({ seed: 3, rates }, EDGE), 500), seen.slice(0, 500), 'same seed and edge, same faults');
    assert.notDeepEqual(draws(new VenueFaults({ seed: 4, rates }, EDGE), 500), seen.slice(0, 500), 'another seed, other faults');
    assert.notDeepEqual(draws(new VenueFaults({ seed: 3, rates }, 'venue-edge-okx'), 500), seen.slice(0, 500), 'another edge, other faults');
  });

  it('refuses rates out of range or adding up past 1', () => {
    assert.throws(() => new VenueFaults({ seed: 1, rates: { stall: 1.5 } }, EDGE), RangeError);
    assert.throws(() => new VenueFaults({ seed: 1, rates: { stall: -0.1 } }, EDGE), RangeError);
    assert.throws(() => new VenueFaults({ seed: 1, rates: { stall: 0.6, late: 0.6 } }, EDGE), RangeError);
  });

  it('a dropped session is down until its end, extended by a later drop, never shortened', () => {
    const faults = new VenueFaults({ seed: 1, rates: { disconnect: 1 } }, EDGE);
    assert.equal(faults.sessionDown(1_000), false);
    faults.dropSession(1_000, 3_000);
    assert.equal(faults.sessionDown(3_999), true);
    faults.dropSession(1_500, 1_000);
    assert.equal(faults.sessionDown(3_999), true, 'not shortened');
    assert.equal(faults.sessionDown(4_000), false);
    faults.dropSession(4_000, 500);
    assert.equal(faults.sessionDown(4_499), true);
  });

  it('garbage: every variant is refused by the router, the true report is untouched and passes', () => {
    for (const truth of [report([{ price_1e9: 99_000_000_000_000, qty_1e8: 400_000 }]), report([])]) {
      const before = JSON.stringify(truth);
      assert.equal(legReportProblem(leg, 'buy', truth), null, 'the truth is bookable');
      for (const g of GARBAGE_KINDS) {
        const bad = corrupt(truth, g, leg.qty_1e8, leg.limit_price_1e9!);
        const problem = legReportProblem(leg, 'buy', bad);
        assert.ok(problem !== null, `${g} of ${before} is refused`);
      }
      assert.equal(JSON.stringify(truth), before, 'corrupt copies');
    }
    const placement: ChildPlacement = { ...report([{ price_1e9: 99_000_000_000_000, qty_1e8: 400_000 }]), resting_qty_1e8: 600_000 };
    assert.equal(legReportProblem(leg, 'buy', placement), null);
    assert.match(legReportProblem(leg, 'buy', { ...placement, resting_qty_1e8: 600_001 }) ?? '', /resting/);
    assert.match(legReportProblem(leg, 'buy', report([{ price_1e9: 100_000_000_000_001, qty_1e8: 1 }])) ?? '', /limit/);
    assert.match(legReportProblem(leg, 'sell', report([{ price_1e9: 99_999_999_999_999, qty_1e8: 1 }])) ?? '', /limit/);
    const twice = report([{ price_1e9: 99_000_000_000_000, qty_1e8: 1 }, { price_1e9: 99_000_000_000_000, qty_1e8: 1 }]);
    twice.fills[1]!.trade_id = twice.fills[0]!.trade_id;
    assert.match(legReportProblem(leg, 'buy', twice) ?? '', /twice/);
    assert.match(legReportProblem(leg, 'buy', { ...report([]), edge_id: 'venue-edge-okx' }) ?? '', /venue-edge-okx/);
  });

  it('a forced feed drop: down at once, child orders refused meanwhile, back at its end; an episode under way is extended', () => {
    const statuses: { connected: boolean; ts: number }[] = [];
    const sink: VenueSink = { onLevel() {}, onTrade() {}, onStatus: (connected, ts) => void statuses.push({ connected, ts }) };
    const spec = simEdge(EDGE)!;
    const edge = { ...spec, listings: spec.listings.filter((l) => l.symbol === 'BTC-USDT'), faults: { ...spec.faults, disconnect_per_h: 0 } };
    const sim = new SimVenue(edge, new LatentPriceModel(5), 5, sink, { start_ns: T0 });
    sim.subscribe('BTC-USDT');
    sim.advance(T0 + 1_000 * MS);
    statuses.length = 0;
    sim.dropFeed(T0 + 1_000 * MS, T0 + 4_000 * MS);
    assert.deepEqual(statuses.map((s) => s.connected), [false], 'down at once');
    assert.equal(sim.isConnected(), false);
    assert.equal(sim.executeIoc('BTC-USDT', Side.BID, 100_000, undefined, T0 + 2_000 * MS).reason, 'venue_disconnected');
    sim.advance(T0 + 3_999 * MS);
    assert.equal(sim.isConnected(), false);
    sim.advance(T0 + 4_000 * MS);
    assert.deepEqual(statuses.map((s) => s.connected), [false, true], 'back at its end');
    assert.equal(statuses[1]!.ts, T0 + 4_000 * MS, "at its end");
    assert.equal(sim.executeIoc('BTC-USDT', Side.BID, 100_000, undefined, T0 + 4_001 * MS).ok, true);

    const t = 1_000 * MS;
    const schedule = new FaultSchedule(edge.faults, 1, t);
    schedule.force(FaultKind.DISCONNECT, t + 10 * MS, t + 100 * MS);
    schedule.advanceTo(t + 50 * MS);
    assert.equal(schedule.connected, false);
    schedule.force(FaultKind.DISCONNECT, t + 60 * MS, t + 200 * MS);
    schedule.advanceTo(t + 150 * MS);
    assert.equal(schedule.connected, false, 'extended');
    schedule.advanceTo(t + 200 * MS);
    assert.equal(schedule.connected, true);
    assert.equal(schedule.begun[FaultKind.DISCONNECT], 1, 'one episode');
  });
});
