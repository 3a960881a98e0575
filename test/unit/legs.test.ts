import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { legLimit, legReservation, MARKET_PROTECTION_BPS } from '../../gateway/execution/legs.ts';

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

  it("a limit order's leg goes at the client's limit", () => {
    assert.equal(legLimit('buy', 'limit', PX, PX + 7, TICK), PX + 7, 'buy limit');
    assert.equal(legLimit('sell', 'limit', PX, PX - 7, TICK), PX - 7, 'sell limit');
  });

  it('a buy reserves price x qty rounded up plus the fee rounded up; a sell its base', () => {
    // 0.001 BTC at 100,000.00 = 100.00 USD = 10,000,000,000 quote 1e8... in 1e8 units: 1e10
    assert.equal(legReservation('buy', PX, 100_000, 10), 10_000_000_000 + 10_000_000, '100.00 + 10 bps');
    assert.equal(legReservation('buy', 1_000_000_001, 1, 0), 2, 'any fraction rounds up');
    assert.equal(legReservation('sell', PX, 123_456, 10), 123_456, 'a sell locks its base');
  });
});
