/**
 * A live edge's resting children (actors/edge/live/orders.ts) against a scripted venue: what a
 * maker fill leaves is the child's quantity less every fill told (never the venue's resting
 * read, which can lag the trades), a fill is told once, and a cancel whose follow-up lookup
 * fails does not answer (the router asks again) and loses no fill.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NO_REPLY } from '../../engine/actor.ts';
import { ChildJournal } from '../../actors/edge/child-journal.ts';
import { RecentMap } from '../../domain/recent.ts';
import { LiveOrders } from '../../actors/edge/live/orders.ts';
import type { LiveAccounts } from '../../actors/edge/live/accounts.ts';
import type { MakerFill } from '../../actors/edge/messages.ts';
import type { LegReport, LiveVenue, OrderLookup, VenueFill } from '../../actors/edge/live/venue.ts';
import { cancelledBetween } from '../../actors/edge/live/venue.ts';

const fill = (id: string, qty: number): VenueFill => ({ price_1e9: 100e9, qty_1e8: qty, trade_id: id, ts_ns: 1, fee_1e9: 10, is_maker: true });

function harness(lookups: (() => OrderLookup)[]) {
  const told: MakerFill[] = [];
  let cancels = 0;
  const venue = {
    venue: 'binance',
    acceptWindowMs: 0,
    submit: async (): Promise<LegReport> => ({ ok: true, reason: null, fills: [], resting_qty_1e8: 10 }),
    lookup: async () => {
      const next = lookups.shift();
      if (next === undefined) throw new Error('no answer');
      return next();
    },
    cancel: async () => {
      cancels++;
      return { found: true, cancelled_qty_1e8: 4 };
    },
  } as unknown as LiveVenue;
  const accounts = { account: (client_id: string) => ({ client_id, credentials: { api_key: 'k', api_secret: 's' } }), clients: () => ['c1'] } as unknown as LiveAccounts;
  const state = { sent: new RecentMap<string, never>(100), resting: new Map(), journal: new ChildJournal() } as unknown as ConstructorParameters<typeof LiveOrders>[2];
  const orders = new LiveOrders(venue, accounts, state, {
    venue: 'binance',
    edge_id: 'venue-edge-binance',
    maker_bps: 10,
    taker_bps: 10,
    tell: (_owner, f) => void told.push(f),
    log: { warn() {}, info() {} },
  });
  return { orders, told, cancels: () => cancels };
}

describe('LiveOrders: resting children', () => {
  it('a maker fill leaves the child quantity less every fill told, even when the resting read lags the trades', async () => {
    const h = harness([
      // The order read says 8 rest, but the trades already hold a second fill of 4 (it landed between the reads).
      () => ({ found: true, report: { ok: true, reason: null, fills: [fill('t1', 2), fill('t2', 4)], resting_qty_1e8: 8 } }),
    ]);
    await h.orders.leg('c1', 'router:live|c1', 'ord_x-1', 'BTC-USDT', 'buy', 10, 100e9, true);
    const result = await h.orders.cancel('ord_x-1');
    assert.deepEqual(
      h.told.map((f) => [f.fill.trade_id, f.left_qty_1e8]),
      [
        ['t1', 8],
        ['t2', 4],
      ],
    );
    assert.deepEqual(result, { child_id: 'ord_x-1', found: true, cancelled_qty_1e8: 4 });
    h.orders.stop();
  });

  it('a cancel whose lookup fails is not answered; asked again, it tells the fills first and answers the venue cancel it already has', async () => {
    const h = harness([
      () => {
        throw new Error('timeout');
      },
      () => ({ found: true, report: { ok: true, reason: null, fills: [fill('t9', 6)], resting_qty_1e8: 0 } }),
    ]);
    await h.orders.leg('c1', 'router:live|c1', 'ord_y-1', 'BTC-USDT', 'buy', 10, 100e9, true);
    assert.equal(await h.orders.cancel('ord_y-1'), NO_REPLY);
    assert.equal(h.told.length, 0);
    const again = await h.orders.cancel('ord_y-1');
    assert.equal(h.cancels(), 1, 'the venue was asked to cancel once');
    assert.deepEqual(h.told.map((f) => [f.fill.trade_id, f.left_qty_1e8]), [['t9', 4]]);
    assert.deepEqual(again, { child_id: 'ord_y-1', found: true, cancelled_qty_1e8: 4 });
    assert.deepEqual(h.orders.openChildren(), []);
    h.orders.stop();
  });
});

describe('cancelledBetween (what a cancel took off the book)', () => {
  it('is what rested less what filled between the reads; nothing found when it all filled', () => {
    assert.deepEqual(cancelledBetween({ resting_qty_1e8: 700, filled_qty_1e8: 300 }, { filled_qty_1e8: 300 }), { found: true, cancelled_qty_1e8: 700 });
    assert.deepEqual(cancelledBetween({ resting_qty_1e8: 700, filled_qty_1e8: 300 }, { filled_qty_1e8: 800 }), { found: true, cancelled_qty_1e8: 200 });
    assert.deepEqual(cancelledBetween({ resting_qty_1e8: 700, filled_qty_1e8: 300 }, { filled_qty_1e8: 1_000 }), { found: false, cancelled_qty_1e8: 0 });
    assert.deepEqual(cancelledBetween({ resting_qty_1e8: 700, filled_qty_1e8: 300 }, undefined), { found: true, cancelled_qty_1e8: 700 }, 'no longer listed: nothing more filled');
  });
});
