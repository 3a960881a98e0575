/**
 * A restart with an order working on a live venue (Binance on its adapter, against the local
 * fake): the order is not closed blind at start, as a simulated venue's is. Its router asks the
 * venue what became of the leg: what filled while the service was down is booked as fills with
 * the venue's trade ids, what still rested is cancelled, and the order ends CANCELLED with its
 * fills (the last run's orders end; nothing of them is left working on the venue).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BinanceFake } from '../fakes/binance-fake.ts';
import { call, startTestService, until, type TestService } from '../helpers/service.ts';
import type { ApiFill, ApiOrder } from '../helpers/orders.ts';
import { P, Q, startLiveVenue, type LiveVenueRun } from '../helpers/live-venue.ts';

const KEY = 'fake-binance-key-restart-0123';
const SECRET = 'fake-binance-secret-restart-0123456789';

describe('a live order across a restart', { timeout: 120_000 }, () => {
  let fake: BinanceFake;
  let run: LiveVenueRun;
  let urls: { rest: string; ws: string };
  let svc: TestService | undefined;

  before(async () => {
    fake = new BinanceFake(
      [{ symbol: 'BTCUSDT', base: 'BTC', quote: 'USDT', bids: [], asks: [] }],
      [{ apiKey: KEY, secret: SECRET, balances: { USDT: { free: 100_000 * Q, locked: 0 }, BTC: { free: 1 * Q, locked: 0 } } }],
    );
    urls = await fake.listen();
    run = await startLiveVenue({ venue: 'binance', symbol: 'BTC-USDT', fakeSymbol: 'BTCUSDT', fake, urls, credentials: { api_key: KEY, api_secret: SECRET }, client: 'restart-live' });
  });

  after(async () => {
    await (svc ?? run.svc)?.stop();
    await fake?.close();
  });

  it('what the venue filled while the service was down is booked after the restart; what rested is cancelled', async () => {
    await run.balancePulled(run.token, 'USDT', 100_000 * Q);
    const placed = await run.order({ client_order_id: 'across-restart', side: 'buy', qty_1e8: 2_000_000, order_type: 'limit', limit_price_1e9: run.mid - 20 * P, time_in_force: 'gtc' });
    const resting = await until('the leg rests on the venue', async () => fake.openOrders(KEY)[0]);
    await run.svc.stop(false);

    // While the service is down, a taker meets half of the resting order on the venue.
    fake.fillResting(KEY, resting.clientOrderId, 1_000_000);
    const trades = fake.tradesOf(resting.orderId);
    assert.equal(trades.length, 1);

    svc = await startTestService({ dataDir: run.svc.dataDir, liveVenues: [{ venue: 'binance', endpoints: urls }] });
    const done = await until('the order reconciled with the venue', async () => {
      const res = await call<ApiOrder & { fills?: ApiFill[] }>(svc!.base, 'GET', `/v1/orders/${placed.node_order_id}?expand=fills`, { token: run.token });
      return res.status === 200 && res.body.status === 'CANCELLED' ? res.body : undefined;
    }, 60_000, 200);
    assert.equal(done.filled_qty_1e8, 1_000_000, JSON.stringify(done));
    assert.equal(done.reconciliation_state, 'reconciled');
    assert.deepEqual((done.fills ?? []).map((f) => f.trade_id), trades.map((t) => String(t.id)), 'the fill made while down, with the venue trade id');
    assert.equal(fake.order(KEY, resting.clientOrderId)?.status, 'CANCELED', 'nothing of the last run is left working on the venue');
    // Booked once: the position moved by exactly that fill.
    const positions = await call<{ positions: { instrument: { symbol?: string }; qty_1e8: number }[] }>(svc.base, 'GET', '/v1/positions?venues=binance', { token: run.token });
    assert.ok(positions.body.positions.some((p) => p.instrument.symbol === 'BTC'));
  });
});
