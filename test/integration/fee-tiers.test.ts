/**
 * Fee tiers: each edge answers `FeeTier` with the account's rates after its REST latency; the
 * gateway's FeeTiers cache probes every edge of a venue (spot and perpetual) through the real
 * rings, and falls back to the catalog's schedule when a probe fails.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FeeTierInfo } from '../../actors/edge/messages.ts';
import { simEdge } from '../../actors/edge/sim/catalog.ts';
import { edgesOfVenue } from '../../domain/venues.ts';
import { FeeTiers } from '../../execution/fee-tiers.ts';
import { call, startTestService, type TestService, until } from '../helpers/service.ts';

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

describe('fee tiers (real service)', () => {
  let svc: TestService;

  before(async () => {
    svc = await startTestService();
    await until('service ready', async () => ((await call(svc.base, 'GET', '/v1/health/ready')).status === 200 ? true : undefined), 30_000);
  });

  after(async () => {
    await svc?.stop();
  });

  it('an edge answers the account tier after its REST latency', async () => {
    const spec = simEdge('venue-edge-okx')!;
    const started = Date.now();
    const info = await svc.service.topology.endpoint.ask<FeeTierInfo>('edge:venue-edge-okx', { t: 'FeeTier' }, 5_000);
    assert.deepEqual(info, { venue: 'okx', edge_id: 'venue-edge-okx', tier: 'base', maker_bps: spec.maker_bps, taker_bps: spec.taker_bps }, 'the schedule');
    assert.ok(Date.now() - started >= spec.market.latency_ms - 1, 'not before the venue latency');
  });

  it('probes every edge of a venue through the rings; a failed probe falls back to the defaults', async () => {
    const tiers = new FeeTiers(svc.service.topology.endpoint, silent);
    const edges = edgesOfVenue('bybit');
    assert.ok(edges.length >= 2, 'bybit has a spot and a perpetual edge');
    for (const e of edges) assert.equal(tiers.sourceOf('c1', 'live', e.edge_id), undefined, 'nothing before the probe');
    await tiers.probe('c1', 'live', 'bybit');
    for (const e of edges) {
      assert.equal(tiers.sourceOf('c1', 'live', e.edge_id), 'probed', `${e.edge_id} probed`);
      const r = tiers.rates('c1', 'live', e.edge_id);
      assert.deepEqual([r.maker_bps, r.taker_bps], [e.maker_bps, e.taker_bps], `${e.edge_id}: the answered rates`);
    }
    assert.equal(tiers.sourceOf('c1', 'sandbox', edges[0]!.edge_id), undefined, 'per mode');

    const failing = new FeeTiers({ ask: () => Promise.reject(new Error('edge away')) }, silent);
    await failing.probe('c2', 'live', 'kraken');
    const kraken = edgesOfVenue('kraken')[0]!;
    assert.equal(failing.sourceOf('c2', 'live', kraken.edge_id), 'default', 'the default schedule is cached');
    assert.deepEqual(failing.rates('c2', 'live', kraken.edge_id).taker_bps, kraken.taker_bps, 'at the catalog rate');
  });
});
