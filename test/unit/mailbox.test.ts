import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DOORBELL_I32, SLEEPING_I32 } from '../../engine/ring/layout.ts';
import { Mailbox } from '../../engine/ring/mailbox.ts';
import { createControl, createRing, RingWriter, type RingHandle } from '../../engine/ring/spsc-ring.ts';
import { makePayload } from '../helpers/frames.ts';

interface Fixture {
  control: SharedArrayBuffer;
  ctl: Int32Array;
  mailbox: Mailbox;
  rings: RingHandle[];
  writers: RingWriter[];
  seen: [source: number, type: number, firstByte: number | undefined, endOfBatch: boolean][];
}

function fixture(sources: number): Fixture {
  const control = createControl();
  const mailbox = new Mailbox(control);
  const rings: RingHandle[] = [];
  const writers: RingWriter[] = [];
  for (let s = 0; s < sources; s++) {
    const ring = createRing(1024);
    rings.push(ring);
    writers.push(new RingWriter(ring, control));
    mailbox.attach(s, ring);
  }
  const seen: Fixture['seen'] = [];
  mailbox.onFrame((source, type, bytes, offset, length, endOfBatch) => {
    seen.push([source, type, length > 0 ? bytes[offset] : undefined, endOfBatch]);
  });
  return { control, ctl: new Int32Array(control), mailbox, rings, writers, seen };
}

// A park that blocks would hold the test past its timeout: the bound turns a hang into a failure.
const PARK_FOREVER_MS = 120_000;

describe('Mailbox', { timeout: 10_000 }, () => {
  it('drains every ring round-robin, up to the budget per ring, tagging each frame with its source', () => {
    const { mailbox, writers, seen } = fixture(3);
    for (let i = 0; i < 4; i++) writers[0]!.tryWrite(i, makePayload(1, i));
    for (let i = 0; i < 2; i++) writers[2]!.tryWrite(10 + i, makePayload(1, 10 + i));
    assert.equal(mailbox.hasWork(), true);
    assert.equal(mailbox.poll(3), 5);
    assert.deepEqual(
      seen.map(([s, t, , e]) => [s, t, e]),
      [[0, 0, false], [0, 1, false], [0, 2, true], [2, 10, false], [2, 11, true]],
    );
    assert.equal(mailbox.poll(3), 1);
    assert.deepEqual(seen[5]!.slice(0, 2), [0, 3]);
    assert.equal(mailbox.poll(3), 0);
    assert.equal(mailbox.hasWork(), false);
  });

  it('reports pending bytes across rings', () => {
    const { mailbox, writers } = fixture(2);
    assert.equal(mailbox.pendingBytes(), 0);
    writers[0]!.tryWrite(1, makePayload(8, 1)); // 16-byte frame
    writers[1]!.tryWrite(1, makePayload(9, 1)); // 24-byte frame
    assert.equal(mailbox.pendingBytes(), 40);
    mailbox.poll(10);
    assert.equal(mailbox.pendingBytes(), 0);
  });

  it('detach stops reading a source; attach replaces its ring', () => {
    const { mailbox, writers, seen, control } = fixture(2);
    writers[1]!.tryWrite(5, makePayload(1, 5));
    mailbox.detach(1);
    assert.equal(mailbox.hasWork(), false);
    assert.equal(mailbox.poll(10), 0);
    const fresh = createRing(1024);
    const freshWriter = new RingWriter(fresh, control);
    freshWriter.tryWrite(6, makePayload(1, 6));
    mailbox.attach(1, fresh);
    assert.equal(mailbox.poll(10), 1);
    assert.deepEqual(seen.map(([s, t]) => [s, t]), [[1, 6]], 'the old ring is gone with its frame');
  });

  it('park returns at once when work is already waiting, and clears SLEEPING', () => {
    const { mailbox, writers, ctl } = fixture(2);
    writers[1]!.tryWrite(1, makePayload(4, 1));
    mailbox.park(PARK_FOREVER_MS);
    assert.equal(Atomics.load(ctl, SLEEPING_I32), 0);
    assert.equal(mailbox.poll(10), 1);
  });

  it('park waits out its timeout when nothing arrives, and clears SLEEPING', () => {
    const { mailbox, ctl } = fixture(1);
    mailbox.park(1);
    assert.equal(Atomics.load(ctl, SLEEPING_I32), 0);
    assert.equal(Atomics.load(ctl, DOORBELL_I32), 0, 'nobody rang');
  });

  it('parkAsync resolves at once when work is waiting', async () => {
    const { mailbox, writers, ctl } = fixture(1);
    writers[0]!.tryWrite(1, makePayload(4, 1));
    await mailbox.parkAsync(PARK_FOREVER_MS);
    assert.equal(Atomics.load(ctl, SLEEPING_I32), 0);
  });

  it('a commit while the consumer is parked rings the doorbell and wakes it', async () => {
    const { mailbox, writers, ctl } = fixture(2);
    const parked = mailbox.parkAsync(PARK_FOREVER_MS);
    assert.equal(Atomics.load(ctl, SLEEPING_I32), 1, 'the consumer announced its sleep');
    assert.equal(writers[1]!.tryWrite(7, makePayload(4, 7)), true);
    assert.equal(Atomics.load(ctl, DOORBELL_I32), 1);
    await parked;
    assert.equal(Atomics.load(ctl, SLEEPING_I32), 0);
    assert.equal(mailbox.poll(10), 1);
    writers[1]!.tryWrite(8, makePayload(4, 8));
    assert.equal(Atomics.load(ctl, DOORBELL_I32), 1, 'an awake consumer costs no doorbell');
  });

  it('wake() releases a parked consumer without any frame', async () => {
    const { mailbox, ctl } = fixture(1);
    const parked = mailbox.parkAsync(PARK_FOREVER_MS);
    mailbox.wake();
    await parked;
    assert.equal(Atomics.load(ctl, SLEEPING_I32), 0);
    assert.equal(mailbox.poll(10), 0);
  });
});
