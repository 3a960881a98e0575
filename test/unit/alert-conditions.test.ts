/**
 * Alerts' pure core (execution/alerts/conditions.ts): requests checked per kind, levels compared
 * strictly in integer units, and the arming rule (fires when made if already true; a repeating
 * alert fires again only after its condition was seen false).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { checkAlertRequest, levelHolds, orderMatches, step, type AlertCatalog } from '../../execution/alerts/conditions.ts';
import type { AlertSpec } from '../../execution/alerts/types.ts';

const catalog: AlertCatalog = { isSymbol: (s) => s === 'BTC-USDT', isUnderlying: (u) => u === 'BTC', isEdge: (e) => e === 'binance' };
const spec = (r: Parameters<typeof checkAlertRequest>[0], text?: string) => {
  const s = checkAlertRequest(r, catalog, text);
  assert.ok(!Array.isArray(s), Array.isArray(s) ? JSON.stringify(s) : '');
  return s as AlertSpec;
};
const fields = (r: Parameters<typeof checkAlertRequest>[0]) => {
  const s = checkAlertRequest(r, catalog);
  assert.ok(Array.isArray(s), `expected problems for ${JSON.stringify(r)}`);
  return s.map((p) => p.field).sort();
};

describe('alert requests', () => {
  it('each kind: what it needs, its defaults, exact integer thresholds', () => {
    const price = spec({ kind: 'price', symbol: 'BTC-USDT', direction: 'below', threshold: 65_000.123456789 }, '65000.123456789');
    assert.equal(price.threshold_1e9, 65_000_123_456_789n);
    assert.equal(price.once, true);
    assert.equal(spec({ kind: 'spread_bps', symbol: 'BTC-USDT', threshold: 5 }).direction, 'above');
    assert.equal(spec({ kind: 'pnl_below', threshold: -1_250.5 }).threshold_1e9, -1_250_500_000_000n);
    assert.equal(spec({ kind: 'edge_stale', edge_id: 'binance' }).threshold, 5, 'stale after 5 s by default');
    assert.equal(spec({ kind: 'basis_bps', underlying: 'btc', direction: 'above', threshold: 20 }).underlying, 'BTC');
    assert.deepEqual(spec({ kind: 'fill' }), { kind: 'fill', symbol: null, underlying: null, node_order_id: null, edge_id: null, direction: null, threshold: null, threshold_1e9: null, once: true, label: null });
  });

  it('refuses what a kind needs but lacks, fields it does not use, unknown names and non-finite levels', () => {
    assert.deepEqual(fields({ kind: 'moon' }), ['kind']);
    assert.deepEqual(fields({ kind: 'price' }), ['direction', 'symbol', 'threshold']);
    assert.deepEqual(fields({ kind: 'fill', threshold: 3 }), ['threshold']);
    assert.deepEqual(fields({ kind: 'price', symbol: 'ETH-USDT', direction: 'up', threshold: Number.POSITIVE_INFINITY }), ['direction', 'symbol', 'threshold']);
    assert.deepEqual(fields({ kind: 'price', symbol: 'BTC-USDT', direction: 'above', threshold: 0.0000000001 }), ['threshold'], 'past 9 decimals');
    assert.deepEqual(fields({ kind: 'edge_stale', edge_id: 'binance', threshold: 0 }), ['threshold']);
    assert.deepEqual(fields({ kind: 'basis_bps', underlying: 'DOGE', direction: 'above', threshold: 1 }), ['underlying']);
  });
});

describe('alert levels and arming', () => {
  it('levels are strict, in integer units for prices and PnL', () => {
    const above = { direction: 'above' as const, threshold: 100, threshold_1e9: 100_000_000_000n };
    assert.equal(levelHolds(above, { kind: 'price', mid_1e9: 100_000_000_000 }), false, 'at the level is not beyond it');
    assert.equal(levelHolds(above, { kind: 'price', mid_1e9: 100_000_000_001 }), true);
    assert.equal(levelHolds({ ...above, direction: 'below' }, { kind: 'spread_bps', spread_bps: 99.9 }), true);
    assert.equal(levelHolds({ direction: 'below', threshold: -5, threshold_1e9: -5_000_000_000n }, { kind: 'pnl_below', pnl_usd_1e9: -5_000_000_001n }), true);
    assert.equal(levelHolds({ direction: null, threshold: 5, threshold_1e9: null }, { kind: 'edge_stale', connected: true, stale_s: 4.9 }), false);
    assert.equal(levelHolds({ direction: null, threshold: 5, threshold_1e9: null }, { kind: 'edge_stale', connected: false, stale_s: 0 }), true, 'disconnected is stale');
  });

  it('a run of observations fires once per rising edge; a one-shot alert at most once (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { maxLength: 60 }), fc.boolean(), (holds, once) => {
        let state = { status: 'active' as 'active' | 'fired', armed: true };
        let fired = 0;
        for (const h of holds) {
          const r = step(state, h);
          if (r.fire) {
            fired++;
            if (once) state = { status: 'fired', armed: false };
          }
          state = { ...state, armed: r.armed };
        }
        // Rising edges: true at the start or true after false.
        const rises = holds.filter((h, i) => h && (i === 0 || !holds[i - 1])).length;
        return fired === (once ? Math.min(1, rises) : rises);
      }),
      { numRuns: 300, seed: 15 },
    );
  });

  it('order kinds match on order id and symbol, either absent meaning any', () => {
    assert.equal(orderMatches({ symbol: null, node_order_id: null }, { node_order_id: 'a', symbol: 'X' }), true);
    assert.equal(orderMatches({ symbol: 'X', node_order_id: 'b' }, { node_order_id: 'a', symbol: 'X' }), false);
    assert.equal(orderMatches({ symbol: 'Y', node_order_id: null }, { node_order_id: 'a', symbol: 'X' }), false);
  });
});
