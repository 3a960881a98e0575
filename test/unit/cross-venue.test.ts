/**
 * Routing one prediction outcome across equivalent markets of both venues (fast-check): each
 * venue's leg book with its own binary_quadratic curve (ticker-style ceiled to the cent per
 * fill), buys and sells. Whatever the books, the cross-venue plan fills the order whenever one
 * venue alone could, and costs no more, all in, than the cheapest single venue could have; the
 * fee curves are in the SOR's cost, so a venue whose fee eats its better price is not preferred.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { crossVenuePlan } from '../../execution/cross-venue.ts';
import { compileBinaryFee } from '../../domain/prediction/fees.ts';
import { PREDICTION_RULES } from '../../domain/prediction/order-leg.ts';
import type { RouteRequest, RoutingPlan, VenueView } from '../../execution/sor/sor-types.ts';

const NOW = 1_000_000_000_000_000;
const CONTRACT = 100_000_000;
const CENT_1E7 = 10_000_000;

function leg(venue: string, curve: ReturnType<typeof compileBinaryFee>, asks: [number, number][], bids: [number, number][]): VenueView {
  const side = (levels: [number, number][], dir: 1 | -1) => {
    const sorted = [...new Map(levels.map(([c, q]) => [c, q])).entries()].sort((a, b) => dir * (a[0] - b[0]));
    return { px: Float64Array.from(sorted.map(([c]) => c * CENT_1E7)), qty: Float64Array.from(sorted.map(([, q]) => q * CONTRACT)) };
  };
  const a = side(asks, 1);
  const b = side(bids, -1);
  return {
    venue, edge_id: `venue-edge-${venue}`, listed: true, online: true, last_update_ns: NOW, has_credentials: true,
    base_available_1e8: 1e12, quote_available_1e8: 1e14,
    bids_px: b.px, bids_qty: b.qty, bid_count: b.px.length, asks_px: a.px, asks_qty: a.qty, ask_count: a.px.length,
    maker_bps: 0, taker_bps: curve.max_bps, latency_ms: 0, rules: PREDICTION_RULES, fee_curve: curve,
  };
}

/** All-in cost of a plan, USD 1e9 x 1e8: a buy pays price and fees, a sell receives price less fees. */
function costOf(plan: RoutingPlan, side: 'buy' | 'sell'): bigint {
  let pq = 0n;
  for (const a of plan.allocations) for (const l of a.levels) pq += BigInt(l.price_1e9) * BigInt(l.qty_1e8);
  return (side === 'buy' ? pq : -pq) + BigInt(plan.expected_fee_1e9) * 100_000_000n;
}

const level = fc.tuple(fc.integer({ min: 1, max: 99 }), fc.integer({ min: 1, max: 40 }));

describe('cross-venue routing of one outcome', () => {
  it('never costs more than the best single venue, and fills whenever one venue could (property)', () => {
    const kalshi = compileBinaryFee({ rate_bps: 700, multiplier: 1, rounding: 'ceil_to_cent' });
    fc.assert(
      fc.property(
        fc.array(level, { minLength: 1, maxLength: 6 }),
        fc.array(level, { minLength: 1, maxLength: 6 }),
        fc.array(level, { minLength: 1, maxLength: 6 }),
        fc.array(level, { minLength: 1, maxLength: 6 }),
        fc.constantFrom(0, 100, 200, 1_000),
        fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
        fc.integer({ min: 1, max: 60 }),
        (kAsks, kBids, pAsks, pBids, polyRate, side, contracts) => {
          const poly = compileBinaryFee({ rate_bps: polyRate, exponent: 1 });
          const views = [leg('kalshi', kalshi, kAsks, kBids), leg('polymarket', poly, pAsks, pBids)];
          const req: RouteRequest = { node_order_id: 'x', side, qty_1e8: contracts * CONTRACT, order_type: 'market', arrival_mid_1e9: 500_000_000, now_ns: NOW };
          const plan = crossVenuePlan(req, views);
          for (const v of views) {
            const alone = crossVenuePlan({ ...req, venue: v.venue }, views);
            if (alone.planned_qty_1e8 < req.qty_1e8) continue;
            assert.equal(plan.planned_qty_1e8, req.qty_1e8, 'a venue alone could fill it');
            assert.ok(costOf(plan, side) <= costOf(alone, side), `${side} ${contracts}: across ${costOf(plan, side)} > ${v.venue} alone ${costOf(alone, side)}`);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('prices the fee curve in: a cheaper price whose ticker-style fee makes it dearer loses the level', () => {
    const kalshi = compileBinaryFee({ rate_bps: 700, multiplier: 1, rounding: 'ceil_to_cent' });
    const free = compileBinaryFee({ rate_bps: 0, exponent: 1 });
    // 10 YES at 0.50: kalshi $5.00 + $0.18 fee; polymarket at 0.51: $5.10 and no fee.
    const views = [leg('kalshi', kalshi, [[50, 10]], [[49, 10]]), leg('polymarket', free, [[51, 10]], [[50, 10]])];
    const plan = crossVenuePlan({ node_order_id: 'x', side: 'buy', qty_1e8: 10 * CONTRACT, order_type: 'market', arrival_mid_1e9: 500_000_000, now_ns: NOW }, views);
    assert.deepEqual(plan.allocations.map((a) => [a.venue, a.qty_1e8]), [['polymarket', 10 * CONTRACT]]);
    assert.equal(plan.expected_fee_1e9, 0);
    const kalshiOnly = crossVenuePlan({ node_order_id: 'x', side: 'buy', qty_1e8: 10 * CONTRACT, order_type: 'market', arrival_mid_1e9: 500_000_000, now_ns: NOW, venue: 'kalshi' }, views);
    // ceil(10 x 0.5 x 0.5 x 700 / 10000 x 100) / 100 = ceil(17.5) cents = $0.18.
    assert.equal(kalshiOnly.expected_fee_1e9, 180_000_000);
  });
});
