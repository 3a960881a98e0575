/**
 * The regions' JetStream foundations on real `nats-server`s on loopback (test/helpers/nats.ts):
 * the lifecycle stream as `ensureStreams` defines it stores an event that two nodes observed
 * once (the venue event id is the message id) and each distinct event once; in a three-server
 * cluster with the streams replicated three ways, a server killed changes nothing a node sees:
 * publishing goes on through the others and nothing stored is lost.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { ensureStreams } from '../../actors/region-link/jetstream.ts';
import { LIFECYCLE_STREAM, lifecycleSubject } from '../../actors/region-link/subjects.ts';
import { skipWithoutNats, startNats, type NatsCluster } from '../helpers/nats.ts';
import { until } from '../helpers/service.ts';

const event = (slug: string) => JSON.stringify({ venue: 'polymarket', slug, outcome: 'YES' });

describe('regions: JetStream streams on nats-server', { timeout: 150_000, skip: skipWithoutNats }, () => {
  const open: NatsConnection[] = [];
  const clusters: NatsCluster[] = [];
  const node = async (urls: string[]) => {
    const nc = await connect({ servers: urls, reconnectTimeWait: 100, maxReconnectAttempts: -1 });
    open.push(nc);
    return nc;
  };
  after(async () => {
    await Promise.all(open.map((nc) => nc.close().catch(() => undefined)));
    await Promise.all(clusters.map((c) => c.stop()));
  });

  it('stores a lifecycle event two nodes observed once, by the venue event id', async () => {
    const nats = await startNats(1);
    clusters.push(nats);
    const [na, eu] = [await node(nats.urls), await node(nats.urls)];
    const jsm = await ensureStreams(na, 1);
    await ensureStreams(eu, 1); // the second node finds the streams and leaves them as defined
    const publish = (nc: NatsConnection, slug: string) => jetstream(nc).publish(lifecycleSubject('market_resolved'), event(slug), { msgID: `polymarket:${slug}` });
    const first = await publish(na, 'btc-up');
    const again = await publish(eu, 'btc-up');
    const other = await publish(eu, 'eth-up');
    assert.equal(first.duplicate, false);
    assert.equal(again.duplicate, true, 'the second region’s copy is dropped');
    assert.equal(again.seq, first.seq);
    assert.equal(other.duplicate, false);
    const info = await jsm.streams.info(LIFECYCLE_STREAM.name);
    assert.equal(info.state.messages, 2);
    assert.equal(info.config.duplicate_window, LIFECYCLE_STREAM.duplicate_window_ns);
  });

  it('a server killed in a three-server cluster changes nothing a node sees', async () => {
    const nats = await startNats(3);
    clusters.push(nats);
    const nc = await node(nats.urls);
    // A new cluster elects its JetStream leader within seconds of accepting clients.
    const jsm = await until('JetStream ready in the cluster', () => ensureStreams(nc, 3).catch(() => undefined), 30_000, 250);
    const js = jetstream(nc);
    for (let i = 0; i < 20; i++) await js.publish(lifecycleSubject('new_markets'), event(`m-${i}`), { msgID: `polymarket:m-${i}` });
    await nats.servers[0]!.kill();
    // Publishing goes on through the other two (the client fails over; the stream keeps a quorum).
    await until('a publish after the kill', () => js.publish(lifecycleSubject('new_markets'), event('m-20'), { msgID: 'polymarket:m-20' }).catch(() => undefined), 30_000, 200);
    for (let i = 21; i < 30; i++) await js.publish(lifecycleSubject('new_markets'), event(`m-${i}`), { msgID: `polymarket:m-${i}` });
    // Creating a consumer asks the cluster's JetStream leader, which the kill may have taken:
    // the remaining two elect another within seconds (longer on a loaded machine; CI once timed out here).
    const info = await until('the stream state after the kill', () => jsm.streams.info(LIFECYCLE_STREAM.name).catch(() => undefined), 30_000, 250);
    assert.equal(info.state.messages, 30, 'nothing stored before the kill was lost, nothing after it missed');
    assert.equal(info.config.num_replicas, 3);
    const slugs = await until('the 30 events read back after the kill', async () => {
      try {
        const read: string[] = [];
        const consumer = await js.consumers.get(LIFECYCLE_STREAM.name);
        const batch = await consumer.fetch({ max_messages: 30, expires: 5_000 });
        for await (const m of batch) read.push((m.json() as { slug: string }).slug);
        return read.length === 30 ? read : undefined;
      } catch {
        return undefined;
      }
    }, 40_000, 500);
    assert.deepEqual(slugs, Array.from({ length: 30 }, (_, i) => `m-${i}`), 'read back in order, each once');
  });
});
