/**
 * Remote edges (actors/region-link/remote-edges.ts): a status from another region becomes a
 * remote edge with its region; its own region's are ignored; a late, older status never replaces
 * a newer one; an edge whose node stops speaking is disconnected after the silence; the age adds
 * the time since arrival and half the measured round trip, never a remote clock reading; drift
 * names missing and unexpected remote venues.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { REMOTE_SILENCE_MS, RemoteEdges, type EdgeStatusMessage } from '../../actors/region-link/remote-edges.ts';

const status = (over: Partial<EdgeStatusMessage> = {}): EdgeStatusMessage => ({
  v: 1,
  region: 'eu',
  edge_id: 'venue-edge-kraken',
  venue: 'kraken',
  connected: true,
  symbols: [{ symbol: 'BTC-USD', instrument_type: 'spot' }],
  supports_algo_runtime: true,
  data_age_ms: 12,
  latency_ms: 3,
  seq: 1,
  ...over,
});

describe('remote edges', () => {
  it('lists another region’s edge as remote with its region, and ignores its own region’s', () => {
    const edges = new RemoteEdges('na');
    assert.equal(edges.apply(status(), 1_000), true);
    assert.equal(edges.apply(status({ region: 'na', edge_id: 'venue-edge-coinbase', venue: 'coinbase' }), 1_000), false);
    const [kraken, ...rest] = edges.list(1_000);
    assert.deepEqual(rest, []);
    assert.deepEqual(kraken, { edge_id: 'venue-edge-kraken', venue: 'kraken', region: 'eu', remote: true, connected: true, symbols: [{ symbol: 'BTC-USD', instrument_type: 'spot' }], symbol_count: 1, supports_algo_runtime: true, age_ms: 12, latency_ms: 3, transit_measured: false });
  });

  it('keeps the newest status: a late, older one changes nothing', () => {
    const edges = new RemoteEdges('na');
    edges.apply(status({ seq: 5, connected: false }), 1_000);
    assert.equal(edges.apply(status({ seq: 4, connected: true }), 1_100), false);
    assert.equal(edges.list(1_100)[0]!.connected, false);
    assert.equal(edges.apply(status({ seq: 6, connected: true }), 1_200), true);
    assert.equal(edges.list(1_200)[0]!.connected, true);
  });

  it('disconnects an edge whose node stopped speaking, after the silence and not before', () => {
    const edges = new RemoteEdges('na');
    edges.apply(status(), 1_000);
    assert.equal(edges.list(1_000 + REMOTE_SILENCE_MS)[0]!.connected, true);
    assert.equal(edges.list(1_000 + REMOTE_SILENCE_MS + 1)[0]!.connected, false);
    assert.deepEqual(edges.drift(['kraken'], 1_000 + REMOTE_SILENCE_MS + 1), { missing: ['kraken'], unexpected: [] });
  });

  it('ages data by the sender’s own age, the time since arrival and half the measured round trip', () => {
    const edges = new RemoteEdges('na');
    edges.apply(status({ data_age_ms: 20 }), 5_000);
    assert.equal(edges.list(5_030)[0]!.age_ms, 50, 'no round trip measured yet: nothing added for transit');
    edges.recordRoundTrip('eu', 80);
    const after = edges.list(5_030)[0]!;
    assert.equal(after.age_ms, 90);
    assert.equal(after.transit_measured, true);
    assert.equal(after.latency_ms, 3 + 40, 'an order reaches the venue after the edge’s own latency and half the round trip');
    edges.recordRoundTrip('eu', 180);
    assert.equal(edges.roundTrip('eu'), 100, 'a slow ping moves the average a fifth of the way');
  });

  it('reports drift: expected remote venues missing, remote venues nobody expected', () => {
    const edges = new RemoteEdges('na');
    edges.apply(status(), 1_000);
    edges.apply(status({ region: 'ap', edge_id: 'venue-edge-okx', venue: 'okx' }), 1_000);
    assert.deepEqual(edges.drift(['kraken', 'binance'], 1_500), { missing: ['binance'], unexpected: ['okx'] });
  });
});
