/**
 * Routing versions 2 and 3 cost venues with observed statistics: after orders have filled (and
 * their one-second markouts been read), the plans of version 2 and 3 orders on the `routing`
 * channel carry venue cost terms from what the venues did, while version 1 plans never do.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, startTradingService, type TestService } from '../helpers/service.ts';
import { StreamClient } from '../helpers/stream-client.ts';

const SYMBOL = 'BTC-USDT';
const FUNDED = ['binance', 'okx', 'bybit'];

interface Plan {
  node_order_id: string;
  routing_version: number;
  candidates: { venue: string; kept: boolean; cost: { adverse_selection_bps: number; reject_bps: number; impact_bps_per_unit: number } | null }[];
}

describe('execution: observed venue statistics in routing (real service)', () => {
  let svc: TestService;
  let base: string;
  let token: string;
  let stream: StreamClient | undefined;

  before(async () => {
    ({ svc, base, token } = await startTradingService({ client: 'stats-client', venues: FUNDED, symbol: SYMBOL }));
  });

  after(async () => {
    stream?.close();
    await svc?.stop();
  });

  it('v2 and v3 plans carry the venues observed costs once they have traded; v1 plans never do', async () => {
    const ticket = await call<{ ticket: string }>(base, 'GET', '/v1/ws/ticket', { token });
    stream = await StreamClient.open(`ws://127.0.0.1:${svc.service.port}/v1/stream?ticket=${ticket.body.ticket}`);
    stream.send({ subscribe: ['routing'] });
    await stream.next((f) => f.type === 'subscribed');

    const submit = async (coid: string, side: 'buy' | 'sell') => {
      const res = await call<{ node_order_id: string }>(base, 'POST', '/v1/orders', {
        token,
        body: { client_order_id: coid, symbol: SYMBOL, side, qty_1e8: 2_000_000, order_type: 'market' },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return (await stream!.next((f) => f.channel === 'routing' && (f.data as unknown as Plan).node_order_id === res.body.node_order_id, 10_000)).data as unknown as Plan;
    };
    // Warm-up: enough legs on every venue, and their markouts a second later.
    for (let i = 0; i < 24; i++) await submit(`warm-${i}`, i % 2 === 0 ? 'buy' : 'sell');
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    const observed = (p: Plan) => p.candidates.some((c) => c.kept && c.cost !== null && (c.cost.adverse_selection_bps !== 0 || c.cost.reject_bps !== 0 || c.cost.impact_bps_per_unit !== 0));
    const byVersion = new Map<number, Plan[]>();
    for (let i = 0; i < 30 && ![1, 2, 3].every((v) => (byVersion.get(v)?.length ?? 0) >= 2); i++) {
      const plan = await submit(`after-${i}`, i % 2 === 0 ? 'buy' : 'sell');
      byVersion.set(plan.routing_version, [...(byVersion.get(plan.routing_version) ?? []), plan]);
    }
    for (const v of [1, 2, 3]) assert.ok((byVersion.get(v)?.length ?? 0) >= 1, `plans of version ${v} seen`);
    for (const p of byVersion.get(1) ?? []) assert.equal(observed(p), false, `a v1 plan costs no observed statistics: ${JSON.stringify(p.candidates)}`);
    const later = [...(byVersion.get(2) ?? []), ...(byVersion.get(3) ?? [])];
    assert.ok(later.some(observed), `a v2/v3 plan carries observed venue costs: ${JSON.stringify(later.map((p) => p.candidates))}`);
  });
});
