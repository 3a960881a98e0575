/**
 * The fault timeline of a simulated edge: episodes at the catalog rates over a long window,
 * durations in range, alternating transitions, deterministic for a seed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SIM_EDGES, simEdge, type FaultRates } from '../../actors/edge/sim/catalog.ts';
import { FaultKind, FaultSchedule } from '../../actors/edge/sim/faults.ts';

const T0 = 1_750_000_000_000_000_000;
const HOUR = 3600e9;

describe('sim faults', () => {
  it('begins episodes at the configured rates over 3,000 simulated hours', () => {
    const hours = 3_000;
    for (const id of ['venue-edge-kucoin', 'venue-edge-binance', 'venue-edge-kalshi']) {
      const rates = simEdge(id)!.faults;
      const f = new FaultSchedule(rates, 99, T0);
      f.advanceTo(T0 + hours * HOUR);
      const expected = [rates.disconnect_per_h, rates.stale_per_h, rates.lag_per_h].map((r) => r * hours);
      for (const k of [FaultKind.DISCONNECT, FaultKind.STALE, FaultKind.LAG]) {
        const got = f.begun[k]!;
        if (expected[k] === 0) assert.equal(got, 0, `${id} kind ${k}`);
        // Poisson sd is sqrt(n): 10% covers > 3 sd for n >= 750; gaps start after each episode,
        // which lowers the rate by rate x mean duration (< 1% here).
        else assert.ok(Math.abs(got - expected[k]!) < expected[k]! * 0.12 + 10, `${id} kind ${k}: ${got} vs ${expected[k]}`);
      }
    }
  });

  it('alternates begin/end with durations in the configured range', () => {
    const rates: FaultRates = {
      disconnect_per_h: 30,
      disconnect_ms: [1_000, 8_000],
      stale_per_h: 20,
      stale_ms: [3_000, 20_000],
      lag_per_h: 25,
      lag_ms: [5_000, 30_000],
      lag_extra_ms: [250, 1_500],
    };
    const f = new FaultSchedule(rates, 5, T0);
    const openedAt = [0, 0, 0];
    const open = [false, false, false];
    let last = T0;
    let transitions = 0;
    while (f.nextChange() < T0 + 50 * HOUR) {
      const t = f.nextChange();
      assert.ok(t >= last && Number.isInteger(t), 'transitions in time order, integer ns');
      last = t;
      const k = f.step();
      transitions++;
      const [lo, hi] = k === 0 ? rates.disconnect_ms : k === 1 ? rates.stale_ms : rates.lag_ms;
      if (open[k]) {
        const ms = (t - openedAt[k]!) / 1e6;
        assert.ok(ms >= lo - 1 && ms <= hi + 1, `kind ${k} lasted ${ms} ms`);
      } else {
        openedAt[k] = t;
      }
      open[k] = !open[k];
      assert.equal(f.connected, !open[0]);
      assert.equal(f.stale, open[1]);
      if (open[2]) assert.ok(f.lag_ns >= 250e6 && f.lag_ns <= 1_500e6);
      else assert.equal(f.lag_ns, 0);
    }
    assert.ok(transitions > 2 * 50 * 60, `${transitions} transitions`);
  });

  it('is deterministic for a seed and differs across seeds', () => {
    const rates = SIM_EDGES[0]!.faults;
    const times = (seed: number) => {
      const f = new FaultSchedule(rates, seed, T0);
      const out: number[] = [];
      for (let i = 0; i < 200; i++) {
        out.push(f.nextChange());
        f.step();
      }
      return out;
    };
    assert.deepEqual(times(1), times(1));
    assert.notDeepEqual(times(1), times(2));
  });
});
