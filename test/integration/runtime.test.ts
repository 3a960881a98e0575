/**
 * The real runtime end to end: Topology (engine/topology.ts) with 2 actor workers loading
 * actors/registry.ts, driven from this (gateway) thread through the rings.
 *
 *   test (thread 0) --ask--> ring --> worker 1 / worker 2 --> probe actors --> ring --> reply
 *                  <--publish-------- probe actor
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { RuntimeError, RuntimeErrorCode } from '../../engine/frames.ts';
import { createLogger } from '../../engine/log.ts';
import { placeActor } from '../../engine/placement.ts';
import type { WorkerStats } from '../../engine/system-actor.ts';
import { Topology } from '../../engine/topology.ts';
import type { ProbeMessage } from '../../actors/probe/messages.ts';

const WORKERS = 2;
const registryUrl = new URL('../../actors/registry.ts', import.meta.url).href;

/** The n-th probe key (in a stable order) that lands on `worker`. */
function keyOn(worker: number, n = 0, prefix = 'probe:t'): string {
  for (let i = 0, found = 0; ; i++) {
    const key = `${prefix}${i}`;
    if (placeActor(key, WORKERS) === worker && found++ === n) return key;
  }
}

async function rejection(promise: Promise<unknown>): Promise<RuntimeError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof RuntimeError, `expected a RuntimeError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the ask to fail');
}

/** Resolves when `condition` holds; the bound turns a runtime that never recovers into a failure. */
async function eventually(condition: () => boolean, what: string, boundMs = 15_000): Promise<void> {
  const giveUp = Date.now() + boundMs;
  while (!condition()) {
    if (Date.now() > giveUp) assert.fail(`never happened: ${what}`);
    await sleep(10);
  }
}

describe('runtime: topology with 2 workers', { timeout: 60_000 }, () => {
  let topology: Topology;
  const ask = <R = unknown>(key: string, message: ProbeMessage, timeoutMs?: number) =>
    topology.endpoint.ask<R>(key, message, timeoutMs);

  before(async () => {
    topology = new Topology({ workers: WORKERS, registryUrl, log: createLogger('silent'), logLevel: 'silent' });
    await topology.start();
  });

  after(async () => {
    await topology?.stop();
  });

  it('starts every worker and reports them up', () => {
    assert.equal(topology.ready, true);
    const status = topology.status();
    assert.deepEqual(
      status.map((s) => [s.thread, s.state, s.restarts]),
      [
        [1, 'up', 0],
        [2, 'up', 0],
      ],
    );
    assert.equal(new Set(status.map((s) => s.thread_id)).size, WORKERS);
    assert.ok(status.every((s) => typeof s.thread_id === 'number'));
  });

  it('answers Echo on each worker, from the worker placement says', async () => {
    for (const worker of [1, 2]) {
      const key = keyOn(worker);
      const payload = { worker, text: 'héllo ✓', nested: [1, -2.5, null, true, { deep: 'x'.repeat(300) }] };
      assert.deepEqual(await ask(key, { t: 'Echo', payload }), payload);
      const got = await ask<{ thread: number }>(key, { t: 'Get' });
      assert.equal(got.thread, worker);
    }
  });

  it('keeps per-actor state across asks', async () => {
    const a = keyOn(1, 1);
    const b = keyOn(2, 1);
    assert.equal(await ask(a, { t: 'Add', n: 5 }), 5);
    assert.equal(await ask(a, { t: 'Add', n: 7 }), 12);
    assert.equal(await ask(b, { t: 'Add', n: 100 }), 100);
    assert.deepEqual(await ask(a, { t: 'Get' }), { total: 12, messages: 3, restarts: 0, thread: 1 });
    assert.deepEqual(await ask(b, { t: 'Get' }), { total: 100, messages: 2, restarts: 0, thread: 2 });
  });

  it('matches thousands of concurrent replies to their asks', async () => {
    const keys = Array.from({ length: 16 }, (_, i) => `probe:many-${i}`);
    const asks: Promise<unknown>[] = [];
    for (let round = 0; round < 150; round++) {
      for (const key of keys) asks.push(ask(key, { t: 'Echo', payload: `${key}/${round}` }));
    }
    const replies = await Promise.all(asks);
    replies.forEach((reply, i) => assert.equal(reply, `${keys[i % keys.length]}/${Math.floor(i / keys.length)}`));
    const adds = keys.flatMap((key) => Array.from({ length: 50 }, () => ask<number>(key, { t: 'Add', n: 2 })));
    await Promise.all(adds);
    for (const key of keys) assert.equal((await ask<{ total: number }>(key, { t: 'Get' })).total, 100);
  });

  it('lets an actor ask a peer on the other worker, and on its own', async () => {
    const asker = keyOn(1, 2);
    const remote = keyOn(2, 2);
    const local = keyOn(1, 3);
    assert.deepEqual(await ask(asker, { t: 'AskPeer', peer: remote, message: { t: 'Echo', payload: [1, 'two'] } }), [1, 'two']);
    assert.equal(await ask(asker, { t: 'AskPeer', peer: remote, message: { t: 'Add', n: 9 } }), 9);
    assert.equal(await ask(asker, { t: 'AskPeer', peer: local, message: { t: 'Add', n: 4 } }), 4);
    assert.deepEqual(await ask(remote, { t: 'Get' }), { total: 9, messages: 3, restarts: 0, thread: 2 });
    // Two hops: worker 2 asks worker 1, which asks worker 2.
    const hop = await ask(remote, { t: 'AskPeer', peer: asker, message: { t: 'AskPeer', peer: remote, message: { t: 'Echo', payload: 'round' } } });
    assert.equal(hop, 'round');
  });

  it('returns async replies (EchoLater), each to its own ask', async () => {
    const key = keyOn(2, 4);
    const replies = await Promise.all([
      ask(key, { t: 'EchoLater', payload: 'slow', delay_ms: 60 }),
      ask(key, { t: 'EchoLater', payload: 'fast', delay_ms: 5 }),
      ask(key, { t: 'EchoLater', payload: { n: 3 }, delay_ms: 30 }),
    ]);
    assert.deepEqual(replies, ['slow', 'fast', { n: 3 }]);
  });

  it('fails an ask that outlives its timeout with ACTOR_TIMEOUT, and drops the late reply', async () => {
    const key = keyOn(1, 4);
    const err = await rejection(ask(key, { t: 'EchoLater', payload: 'late', delay_ms: 300 }, 50));
    assert.equal(err.code, RuntimeErrorCode.TIMEOUT);
    assert.equal(err.code, 'ACTOR_TIMEOUT');
    await sleep(350); // the late reply has arrived by now and must settle nothing
    assert.equal(await ask(key, { t: 'Echo', payload: 'next' }), 'next');
    assert.equal(topology.endpoint.pendingAsks, 0);
  });

  it('answers NO_SUCH_ACTOR_KIND for a key whose kind is not registered', async () => {
    const err = await rejection(ask('nosuchkind:1', { t: 'Get' }));
    assert.equal(err.code, RuntimeErrorCode.NO_SUCH_ACTOR_KIND);
    assert.match(err.message, /nosuchkind:1/);
  });

  it('restarts an actor that threw: ACTOR_FAILED, then fresh state with restarts = 1', async () => {
    const key = keyOn(2, 5);
    assert.equal(await ask(key, { t: 'Add', n: 5 }), 5);
    const err = await rejection(ask(key, { t: 'Throw', message: 'kaboom' }));
    assert.equal(err.code, RuntimeErrorCode.ACTOR_FAILED);
    assert.match(err.message, /kaboom/);
    assert.deepEqual(await ask(key, { t: 'Get' }), { total: 0, messages: 1, restarts: 1, thread: 2 });
    assert.equal(await ask(key, { t: 'Add', n: 2 }), 2);
    const stats = await topology.stats();
    assert.equal(stats[1]?.actor_restarts, 1);
  });

  it('returns binary payloads intact when several replies are decoded back to back', async () => {
    const key = keyOn(1, 7);
    const replies = await Promise.all(
      [1, 2, 3].map((n) => ask(key, { t: 'Echo', payload: new Uint8Array(8).fill(n) }) as Promise<Uint8Array>),
    );
    assert.deepEqual(replies.map((r) => [...r]), [1, 2, 3].map((n) => Array(8).fill(n)));
  });

  it('does not restart a healthy actor when a replaced instance fails late', async () => {
    const key = keyOn(1, 8);
    const peer = keyOn(2, 8);
    // The first instance waits on a peer that answers after the inner ask's 300 ms timeout.
    const stale = ask(key, { t: 'AskPeer', peer, message: { t: 'EchoLater', payload: 'late', delay_ms: 600 }, timeout_ms: 300 });
    await rejection(ask(key, { t: 'Throw', message: 'replace me' }));
    await ask(key, { t: 'Add', n: 5 });
    assert.equal((await rejection(stale)).code, RuntimeErrorCode.ACTOR_FAILED);
    const state = (await ask(key, { t: 'Get' })) as { total: number; restarts: number };
    assert.deepEqual({ total: state.total, restarts: state.restarts }, { total: 5, restarts: 1 });
  });

  it('delivers a publish from an actor to the endpoint onPublish handler', async () => {
    const published: [string, unknown][] = [];
    topology.endpoint.onPublish((topic, payload) => published.push([topic, payload]));
    for (const worker of [1, 2]) {
      const ok = await ask(keyOn(worker, 6), { t: 'Publish', topic: `prices:W${worker}`, payload: { bid_1e9: 123_000_000_000 + worker } });
      assert.equal(ok, true);
    }
    // The publish frame precedes the reply in the same ring, so it has been handled already.
    assert.deepEqual(published, [
      ['prices:W1', { bid_1e9: 123_000_000_001 }],
      ['prices:W2', { bid_1e9: 123_000_000_002 }],
    ]);
  });

  it('stats() returns one entry per worker', async () => {
    const stats = await topology.stats();
    assert.equal(stats.length, WORKERS);
    stats.forEach((s, i) => {
      assert.ok(s !== null, `worker ${i + 1} answered`);
      const entry: WorkerStats = s;
      assert.equal(entry.t, 'Pong');
      assert.equal(entry.thread, i + 1);
      assert.ok(entry.actors >= 1);
      assert.ok(entry.heap_used_bytes > 0);
      // TAIL moves at the end of a batch, so the Stats frame being handled still counts: an idle
      // mailbox reports only that batch, far below one ring.
      assert.ok(entry.mailbox_pending_bytes >= 0 && entry.mailbox_pending_bytes < 4096, `${entry.mailbox_pending_bytes} B pending`);
    });
  });

  it('survives a worker death: pending asks fail WORKER_DIED, ready drops and returns, asks work again', async () => {
    const victim = 2;
    const before = topology.status();
    const readiness: boolean[] = [];
    topology.onReadyChange((ready) => readiness.push(ready));
    const stateful = keyOn(victim, 7);
    assert.equal(await ask(stateful, { t: 'Add', n: 41 }), 41);

    const waiting = ask(keyOn(victim, 8), { t: 'EchoLater', payload: 'never', delay_ms: 10_000 }, 20_000);
    const exiting = ask(keyOn(victim, 9), { t: 'ExitThread', code: 3 }, 20_000);
    const [waitErr, exitErr] = await Promise.all([rejection(waiting), rejection(exiting)]);
    assert.equal(exitErr.code, RuntimeErrorCode.WORKER_DIED);
    assert.equal(waitErr.code, RuntimeErrorCode.WORKER_DIED);
    assert.equal(readiness[0], false, 'ready went false when the worker died');

    await eventually(() => topology.ready, 'the worker restarted and answered its ping');
    assert.deepEqual(readiness.slice(0, 1), [false]);
    assert.equal(readiness.at(-1), true);
    const status = topology.status();
    assert.deepEqual(
      status.map((s) => [s.thread, s.state, s.restarts]),
      [
        [1, 'up', 0],
        [2, 'up', 1],
      ],
    );
    assert.notEqual(status[1]!.thread_id, before[1]!.thread_id, 'a new thread');

    // The restarted worker hosts fresh actors; the survivor kept its state and reaches the new one.
    assert.deepEqual(await ask(stateful, { t: 'Get' }), { total: 0, messages: 1, restarts: 0, thread: victim });
    const survivor = keyOn(1, 1);
    assert.equal((await ask<{ total: number }>(survivor, { t: 'Get' })).total, 12);
    assert.deepEqual(await ask(survivor, { t: 'AskPeer', peer: stateful, message: { t: 'Add', n: 1 } }), 1);
    assert.deepEqual(await ask(stateful, { t: 'AskPeer', peer: survivor, message: { t: 'Add', n: 1 } }), 13);
    const stats = await topology.stats();
    assert.ok(stats.every((s) => s !== null));
  });

  it('stop() resolves, ready goes false and every worker exits', async () => {
    await topology.stop();
    assert.equal(topology.ready, false);
    assert.deepEqual(
      topology.status().map((s) => [s.thread, s.state, s.thread_id]),
      [
        [1, 'stopped', null],
        [2, 'stopped', null],
      ],
    );
    assert.equal(topology.endpoint.pendingAsks, 0);
    await topology.stop(); // idempotent
  });
});
