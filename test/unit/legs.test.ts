import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { legLimit, legReservation, MARKET_PROTECTION_BPS, withParticipation } from '../../execution/legs.ts';
import { route } from '../../execution/sor/sor.ts';
import type { VenueView } from '../../execution/sor/sor-types.ts';

const PX = 100_000_000_000_000; // 100,000.00 in 1e9
const TICK = 10_000_000; // 0.01

describe('execution legs: limits and reservations', () => {
  it('a market buy leg is widened by the protection band, to the tick', () => {
    assert.equal(MARKET_PROTECTION_BPS, 10, 'the documented band');
    // 10 bps of 100,000 = 100.00
    assert.equal(legLimit('buy', 'market', PX, null, TICK), PX + 100_000_000_000, 'buy up by 100.00');
    assert.equal(legLimit('sell', 'market', PX, null, TICK), PX - 100_000_000_000, 'sell down by 100.00');
    // a coarse tick: the band rounds down to whole ticks
    assert.equal(legLimit('buy', 'market', PX, null, 30_000_000_000), PX + 90_000_000_000, 'three ticks of 30.00 fit in 100.00');
  });

  it("never past a market buy's max_price_1e9, never below the planned level", () => {
    assert.equal(legLimit('buy', 'market', PX, PX + 5_000_000_000, TICK), PX + 5_000_000_000, 'capped by the client');
    assert.equal(legLimit('buy', 'market', PX, PX - 1, TICK), PX, 'the plan already honours the cap');
  });

  it("a limit order's leg goes at the client's limit on the venue's tick, rounded never to trade worse", () => {
    assert.equal(legLimit('buy', 'limit', PX, PX + 7 * TICK, TICK), PX + 7 * TICK, 'a buy limit on the tick as given');
    assert.equal(legLimit('sell', 'limit', PX, PX - 7 * TICK, TICK), PX - 7 * TICK, 'a sell limit on the tick as given');
    assert.equal(legLimit('buy', 'limit', PX, PX + 7 * TICK + 3, TICK), PX + 7 * TICK, 'an off-tick buy rounds down');
    assert.equal(legLimit('sell', 'limit', PX, PX - 7 * TICK - 3, TICK), PX - 7 * TICK, 'an off-tick sell rounds up');
    assert.equal(legLimit('buy', 'limit', TICK, TICK - 1, TICK), 0, 'a buy under one tick has no price there (the venue refuses 0), never one above the limit');
  });

  it('a buy reserves price x qty rounded up plus the fee rounded up; a sell its base', () => {
    // 0.001 BTC at 100,000.00 = 100.00 USD = 10,000,000,000 quote 1e8... in 1e8 units: 1e10
    assert.equal(legReservation('buy', PX, 100_000, 10), 10_000_000_000 + 10_000_000, '100.00 + 10 bps');
    assert.equal(legReservation('buy', 1_000_000_001, 1, 0), 2, 'any fraction rounds up');
    assert.equal(legReservation('sell', PX, 123_456, 10), 123_456, 'a sell locks its base');
  });
});

describe('execution legs: participation limit', () => {
  const view = (venue: string, asks: [number, number][]): VenueView => ({
    venue,
    edge_id: `venue-edge-${venue}`,
    listed: true,
    online: true,
    last_update_ns: 1_000,
    has_credentials: true,
    base_available_1e8: 1e12,
    quote_available_1e8: 1e15,
    bids_px: new Float64Array(0),
    bids_qty: new Float64Array(0),
    bid_count: 0,
    asks_px: Float64Array.from(asks, ([p]) => p),
    asks_qty: Float64Array.from(asks, ([, q]) => q),
    ask_count: asks.length,
    maker_bps: 0,
    taker_bps: 0,
    latency_ms: 0,
    rules: { tick_1e9: 1, lot_1e8: 1, min_qty_1e8: 1, min_notional_1e9: 0 },
  });

  it('shows the SOR only the allowed share of each level, rounded down; the views given are untouched', () => {
    const original = [view('a', [[100, 1_000], [101, 2_999]])];
    const capped = withParticipation(original, 500);
    assert.deepEqual([...capped[0]!.asks_qty], [50, 149], '5 % of each level, rounded down');
    assert.deepEqual([...capped[0]!.asks_px], [100, 101], 'prices unchanged');
    assert.deepEqual([...original[0]!.asks_qty], [1_000, 2_999], 'the original views are not modified');
  });

  it('a plan over capped views takes at most the share of each level; the rest is unfilled', () => {
    const views = [view('a', [[100, 1_000], [101, 1_000]]), view('b', [[100, 400]])];
    const plan = route(
      { node_order_id: 'ord_p', side: 'buy', qty_1e8: 10_000, order_type: 'market', arrival_mid_1e9: 99, now_ns: 1_000, routing_version: 1 },
      withParticipation(views, 1_000),
    );
    const taken = new Map(plan.allocations.map((a) => [a.venue, a.qty_1e8]));
    assert.equal(taken.get('a'), 200, '10 % of a: 100 + 100');
    assert.equal(taken.get('b'), 40, '10 % of b');
    assert.equal(plan.unfilled_qty_1e8, 10_000 - 240, 'the rest is unfilled');
  });
});
