import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  alignFrame,
  CONTROL_BYTES,
  DOORBELL_I32,
  HEAD_I32,
  HEADER_BYTES,
  PADDING_TYPE,
  SLEEPING_I32,
  TAIL_I32,
} from '../../engine/ring/layout.ts';
import {
  createControl,
  createRing,
  maxPayload,
  RingReader,
  RingWriter,
  type RingHandle,
} from '../../engine/ring/spsc-ring.ts';
import { checkPayload, makePayload } from '../helpers/frames.ts';

interface Received {
  type: number;
  bytes: number[];
  offset: number;
  endOfBatch: boolean;
}

function pair(capacity: number, start = 0): { ring: RingHandle; writer: RingWriter; reader: RingReader; control: SharedArrayBuffer } {
  const ring = createRing(capacity);
  if (start !== 0) {
    // Free-running counters: start both near any u32 value, as after hours of traffic.
    const header = new Int32Array(ring.buffer, 0, HEADER_BYTES / 4);
    header[HEAD_I32] = start | 0;
    header[TAIL_I32] = start | 0;
  }
  const control = createControl();
  return { ring, writer: new RingWriter(ring, control), reader: new RingReader(ring), control };
}

function drain(reader: RingReader, limit = 1 << 20): Received[] {
  const out: Received[] = [];
  reader.read((type, bytes, offset, length, endOfBatch) => {
    out.push({ type, bytes: Array.from(bytes.subarray(offset, offset + length)), offset, endOfBatch });
  }, limit);
  return out;
}

describe('createRing / createControl', { timeout: 10_000 }, () => {
  it('allocates header + power-of-two data region and a control block', () => {
    for (const capacity of [1024, 2048, 65536]) {
      const ring = createRing(capacity);
      assert.equal(ring.capacity, capacity);
      assert.equal(ring.buffer.byteLength, HEADER_BYTES + capacity);
    }
    assert.equal(createControl().byteLength, CONTROL_BYTES);
  });

  it('rejects capacities that are not powers of two in [1024, 2^30]', () => {
    for (const capacity of [0, -1024, 1, 512, 1000, 1536, 3000, 1023, 1025, NaN, Infinity, 2 ** 31, 2 ** 32]) {
      assert.throws(() => createRing(capacity), RangeError, `capacity ${capacity}`);
    }
  });

  it('maxPayload is half the ring minus a frame header', () => {
    assert.equal(maxPayload(1024), 504);
    assert.equal(maxPayload(4096), 2040);
  });
});

describe('RingWriter / RingReader', { timeout: 10_000 }, () => {
  it('round-trips frames with their type and bytes, in order', () => {
    const { writer, reader } = pair(1024);
    const payloads = [makePayload(0, 1), makePayload(1, 2), makePayload(13, 3), makePayload(64, 4), makePayload(65, 5), makePayload(300, 6)];
    payloads.forEach((p, i) => assert.equal(writer.tryWrite(100 + i, p), true));
    const got = drain(reader);
    assert.deepEqual(
      got.map((f) => [f.type, f.bytes]),
      payloads.map((p, i) => [100 + i, Array.from(p)]),
    );
    assert.equal(reader.isEmpty(), true);
    assert.equal(reader.usedBytes(), 0);
    assert.equal(writer.usedBytes(), 0);
  });

  it('writes only the [start, end) slice of the payload', () => {
    const { writer, reader } = pair(1024);
    const big = makePayload(200, 9);
    assert.equal(writer.tryWrite(1, big, 10, 20), true);
    assert.equal(writer.tryWrite(2, big, 50, 150), true);
    const got = drain(reader);
    assert.deepEqual(got[0]!.bytes, Array.from(big.subarray(10, 20)));
    assert.deepEqual(got[1]!.bytes, Array.from(big.subarray(50, 150)));
  });

  it('accounts 8-byte aligned frames in usedBytes', () => {
    const { writer, reader } = pair(1024);
    writer.tryWrite(1, makePayload(1, 0));
    writer.tryWrite(1, makePayload(8, 0));
    writer.tryWrite(1, makePayload(9, 0));
    const expected = alignFrame(1) + alignFrame(8) + alignFrame(9);
    assert.equal(expected, 16 + 16 + 24);
    assert.equal(writer.usedBytes(), expected);
    assert.equal(reader.usedBytes(), expected);
  });

  it('wraps with a padding frame that the reader never surfaces', () => {
    const capacity = 1024;
    const { ring, writer, reader } = pair(capacity);
    const frame = alignFrame(100); // 112 does not divide 1024
    for (let i = 0; i < 9; i++) assert.equal(writer.tryWrite(i, makePayload(100, i)), true);
    assert.equal(drain(reader).length, 9);
    const head = 9 * frame; // 1008: 16 bytes left before the end
    assert.equal(writer.tryWrite(9, makePayload(100, 9)), true);
    const words = new Int32Array(ring.buffer, HEADER_BYTES, capacity >> 2);
    assert.equal(words[head >> 2], capacity - head - 8, 'padding length fills the tail end');
    assert.equal(words[(head >> 2) + 1], PADDING_TYPE);
    assert.equal(words[0], 100, 'the real frame starts at offset 0');
    assert.equal(writer.usedBytes(), capacity - head + frame, 'padding counts as used until read');
    const got = drain(reader);
    assert.equal(got.length, 1);
    assert.equal(got[0]!.type, 9);
    assert.equal(got[0]!.offset, 8);
    assert.equal(checkPayload(Uint8Array.from(got[0]!.bytes), 0, 100, 9), -1);
    assert.equal(reader.usedBytes(), 0);
  });

  it('refuses a frame that fits in the free bytes but not after the padding it needs', () => {
    const { writer, reader } = pair(1024);
    for (let i = 0; i < 9; i++) assert.equal(writer.tryWrite(i, makePayload(100, i)), true); // head 1008
    assert.equal(drain(reader, 1).length, 1); // tail 112: 128 bytes free, 16 of them before the end
    assert.equal(writer.tryWrite(99, makePayload(112, 99)), false, '120-byte frame needs 16 + 120');
    assert.equal(writer.tryWrite(99, makePayload(100, 99)), true, '112-byte frame needs exactly 16 + 112');
    assert.equal(writer.tryWrite(100, makePayload(0, 100)), false, 'now full');
    const got = drain(reader);
    assert.deepEqual(got.map((f) => f.type), [1, 2, 3, 4, 5, 6, 7, 8, 99]);
  });

  it('a full ring refuses writes without touching the buffer, then accepts after a drain', () => {
    const { ring, writer, reader } = pair(1024);
    let written = 0;
    while (writer.tryWrite(written, makePayload(56, written))) written++;
    assert.equal(written, 1024 / alignFrame(56));
    const before = new Uint8Array(ring.buffer).slice();
    assert.equal(writer.tryWrite(999, makePayload(56, 999)), false);
    assert.equal(writer.tryWrite(999, makePayload(0, 999)), false);
    assert.equal(writer.claim(0), -1);
    assert.deepEqual(new Uint8Array(ring.buffer), before, 'no byte of the ring changed');
    const got = drain(reader);
    assert.deepEqual(got.map((f) => f.type), [...Array(written).keys()]);
    got.forEach((f) => assert.equal(checkPayload(Uint8Array.from(f.bytes), 0, 56, f.type), -1));
    assert.equal(writer.tryWrite(1000, makePayload(56, 1000)), true);
    assert.deepEqual(drain(reader).map((f) => f.type), [1000]);
  });

  it('throws RangeError for payloads over half the ring, and for negative lengths', () => {
    const { writer, reader } = pair(1024);
    assert.throws(() => writer.tryWrite(1, new Uint8Array(505)), RangeError);
    assert.throws(() => writer.claim(505), RangeError);
    assert.throws(() => writer.claim(-1), RangeError);
    assert.throws(() => writer.tryWrite(1, new Uint8Array(10), 8, 2), RangeError);
    assert.equal(writer.usedBytes(), 0, 'nothing written by the refused calls');
    assert.equal(writer.tryWrite(1, makePayload(504, 1)), true, 'exactly maxPayload is accepted');
    const got = drain(reader);
    assert.equal(got.length, 1);
    assert.equal(checkPayload(Uint8Array.from(got[0]!.bytes), 0, 504, 1), -1);
  });

  it('the largest payload is accepted from every position of an empty ring', () => {
    const { writer, reader } = pair(1024);
    for (let step = 0; step < 1024 / 8 + 3; step++) {
      assert.equal(writer.tryWrite(step, makePayload(504, step)), true, `step ${step}`);
      assert.deepEqual(drain(reader).map((f) => f.type), [step]);
      // Shift the position by one 8-byte slot to visit every offset.
      assert.equal(writer.tryWrite(-5, new Uint8Array(0)), true);
      drain(reader);
    }
  });

  it('claim/commit writes a frame in place', () => {
    const { writer, reader } = pair(1024);
    const offset = writer.claim(12);
    assert.equal(offset, 8, 'payload follows the 8-byte frame header');
    const slot = writer.slotBytes;
    for (let i = 0; i < 12; i++) slot[offset + i] = 200 + i;
    assert.equal(reader.isEmpty(), true, 'nothing is visible before commit');
    writer.commit(42, 12);
    const got = drain(reader);
    assert.deepEqual(got, [{ type: 42, bytes: [...Array(12).keys()].map((i) => 200 + i), offset: 8, endOfBatch: true }]);
    const second = writer.claim(3);
    assert.equal(second, alignFrame(12) + 8);
    slot.set([7, 8, 9], second);
    writer.commit(43, 3);
    assert.deepEqual(drain(reader).map((f) => [f.type, f.bytes]), [[43, [7, 8, 9]]]);
  });

  it('claim wraps too: the claimed slot after a padding frame is at offset 8', () => {
    const { writer, reader } = pair(1024);
    for (let i = 0; i < 9; i++) writer.tryWrite(i, makePayload(100, i));
    drain(reader);
    const offset = writer.claim(100);
    assert.equal(offset, 8);
    writer.slotBytes.set(makePayload(100, 77), offset);
    writer.commit(77, 100);
    const got = drain(reader);
    assert.deepEqual(got.map((f) => f.type), [77]);
    assert.equal(checkPayload(Uint8Array.from(got[0]!.bytes), 0, 100, 77), -1);
  });

  it('endOfBatch is true exactly on the last frame of each batch, and limit is respected', () => {
    const { writer, reader } = pair(1024);
    for (let i = 0; i < 5; i++) writer.tryWrite(i, makePayload(4, i));
    const first = drain(reader, 3);
    assert.deepEqual(first.map((f) => [f.type, f.endOfBatch]), [[0, false], [1, false], [2, true]]);
    const second = drain(reader, 10);
    assert.deepEqual(second.map((f) => [f.type, f.endOfBatch]), [[3, false], [4, true]]);
    assert.equal(reader.read(() => assert.fail('empty ring calls no handler'), 10), 0);
    writer.tryWrite(5, makePayload(4, 5));
    assert.equal(reader.read(() => assert.fail('limit 0 calls no handler'), 0), 0);
    assert.deepEqual(drain(reader, 1).map((f) => [f.type, f.endOfBatch]), [[5, true]]);
  });

  it('endOfBatch stays exact across a padding frame inside the batch', () => {
    const { writer, reader } = pair(1024);
    for (let i = 0; i < 8; i++) writer.tryWrite(i, makePayload(100, i));
    drain(reader); // head = tail = 896
    writer.tryWrite(10, makePayload(100, 10)); // ends at 1008
    writer.tryWrite(11, makePayload(100, 11)); // padding 1008..1024, then frame at 0
    writer.tryWrite(12, makePayload(100, 12));
    const got = drain(reader);
    assert.deepEqual(got.map((f) => [f.type, f.endOfBatch]), [[10, false], [11, false], [12, true]]);
    assert.equal(got[1]!.offset, 8);
  });

  it('a handler that throws still consumes its frame', () => {
    const { writer, reader } = pair(1024);
    for (let i = 0; i < 4; i++) writer.tryWrite(i, makePayload(16, i));
    const seen: number[] = [];
    assert.throws(
      () =>
        reader.read((type) => {
          seen.push(type);
          if (type === 1) throw new Error('poison');
        }, 10),
      /poison/,
    );
    assert.deepEqual(seen, [0, 1]);
    assert.equal(writer.usedBytes(), 2 * alignFrame(16), 'the two handled frames were released');
    assert.deepEqual(drain(reader).map((f) => f.type), [2, 3]);
  });

  it('a reader or writer attached later resumes from the shared HEAD/TAIL', () => {
    const { ring, writer, reader, control } = pair(1024);
    for (let i = 0; i < 3; i++) writer.tryWrite(i, makePayload(20, i));
    drain(reader, 1);
    const reader2 = new RingReader(ring);
    assert.deepEqual(drain(reader2).map((f) => f.type), [1, 2]);
    const writer2 = new RingWriter(ring, control);
    writer2.tryWrite(3, makePayload(20, 3));
    assert.deepEqual(drain(reader2).map((f) => f.type), [3]);
  });

  it('rings the doorbell once per sleep: the first frame after the consumer says it sleeps', () => {
    const { writer, control } = pair(1024);
    const ctl = new Int32Array(control);
    writer.tryWrite(1, makePayload(4, 1));
    assert.equal(Atomics.load(ctl, DOORBELL_I32), 0, 'an awake consumer is not rung');
    Atomics.store(ctl, SLEEPING_I32, 1);
    writer.tryWrite(2, makePayload(4, 2));
    assert.equal(Atomics.load(ctl, DOORBELL_I32), 1, 'the first frame rings');
    assert.equal(Atomics.load(ctl, SLEEPING_I32), 0, 'and takes the sleeping flag');
    writer.tryWrite(2, makePayload(4, 3));
    assert.equal(Atomics.load(ctl, DOORBELL_I32), 1, 'a consumer being woken is not rung again');
    Atomics.store(ctl, SLEEPING_I32, 1);
    const offset = writer.claim(4);
    assert.equal(Atomics.load(ctl, DOORBELL_I32), 1, 'claim alone publishes nothing');
    writer.slotBytes.set([1, 2, 3, 4], offset);
    writer.commit(3, 4);
    assert.equal(Atomics.load(ctl, DOORBELL_I32), 2, 'commit rings after the next sleep');
  });
});

type Command = { kind: 'write'; size: number; inPlace: boolean } | { kind: 'read'; limit: number };

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('write' as const),
      size: fc.oneof(fc.integer({ min: 0, max: 300 }), fc.constantFrom(0, 1, 7, 8, 9, 56, 63, 64, 65, 248, 300)),
      inPlace: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('read' as const), limit: fc.integer({ min: 1, max: 12 }) }) },
);

describe('RingWriter / RingReader property', { timeout: 30_000 }, () => {
  it('interleaved writes and partial reads deliver every accepted frame once, in order, intact', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(1024, 2048, 4096),
        fc.oneof(fc.constant(0), fc.constant(2 ** 32 - 8), fc.constant(2 ** 32 - 1000), fc.integer({ min: 0, max: 2 ** 29 - 1 }).map((n) => n * 8)),
        fc.array(commandArb, { minLength: 1, maxLength: 400, size: 'max' }),
        (capacity, start, commands) => {
          const { writer, reader } = pair(capacity, start);
          // Model: positions of the frames still in the ring, and the exact fit rule.
          let head = start >>> 0;
          let tail = start >>> 0;
          const queued: { seq: number; size: number; end: number }[] = [];
          let seq = 0;
          let accepted = 0;
          let delivered = 0;
          const check = (frames: { type: number; bytes: Uint8Array; length: number }[], expected: typeof queued) => {
            assert.equal(frames.length, expected.length);
            for (let i = 0; i < frames.length; i++) {
              const f = frames[i]!;
              const e = expected[i]!;
              assert.equal(f.type, e.seq, 'order');
              assert.equal(f.length, e.size, 'length');
              assert.equal(checkPayload(f.bytes, 0, f.length, e.seq), -1, `contents of frame ${e.seq}`);
            }
            delivered += frames.length;
          };
          const read = (limit: number) => {
            const frames: { type: number; bytes: Uint8Array; length: number }[] = [];
            const n = reader.read((type, bytes, offset, length) => {
              frames.push({ type, bytes: bytes.slice(offset, offset + length), length });
            }, limit);
            assert.equal(n, frames.length);
            const expected = queued.splice(0, Math.min(limit, queued.length));
            if (expected.length > 0) tail = expected[expected.length - 1]!.end;
            check(frames, expected);
          };
          for (const command of commands) {
            if (command.kind === 'read') {
              read(command.limit);
            } else {
              const frame = alignFrame(command.size);
              const contiguous = capacity - (head & (capacity - 1));
              const needed = contiguous < frame ? contiguous + frame : frame;
              const fits = capacity - ((head - tail) >>> 0) >= needed;
              let ok: boolean;
              if (command.inPlace) {
                const offset = writer.claim(command.size);
                ok = offset >= 0;
                if (ok) {
                  const payload = makePayload(command.size, seq);
                  writer.slotBytes.set(payload, offset);
                  writer.commit(seq, command.size);
                }
              } else {
                ok = writer.tryWrite(seq, makePayload(command.size, seq));
              }
              assert.equal(ok, fits, `write of ${command.size} bytes at head ${head}, tail ${tail}`);
              if (ok) {
                head = (head + needed) >>> 0;
                queued.push({ seq, size: command.size, end: head });
                accepted++;
              }
              seq++;
            }
            assert.equal(reader.usedBytes(), (head - tail) >>> 0);
            assert.equal(writer.usedBytes(), (head - tail) >>> 0);
          }
          read(1 << 20);
          assert.equal(delivered, accepted);
          assert.equal(reader.isEmpty(), true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
