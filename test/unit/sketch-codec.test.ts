/**
 * The sketches' stored forms (execution/analytics/sketch-codec.ts): the binary form, and the object
 * form through msgpack (buckets written before it), keep every quantile, the count, min, max and
 * sum; protobuf bytes from buckets written before those still decode.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { DDSketch } from '@datadog/sketches-js';
import { Packr } from 'msgpackr';
import { decodeSketch, encodeSketch, readSketch, writeSketch, type StoredSketch } from '../../execution/analytics/sketch-codec.ts';
import { WireReader, WireWriter } from '../../engine/wire.ts';

const ACCURACY = 0.01;
const packr = new Packr({ useRecords: false, mapsAsObjects: true });
const QUANTILES = [0, 0.1, 0.5, 0.75, 0.95, 0.99, 1];

describe('sketch stored form', () => {
  it('round-trips quantiles and summary figures, negative and zero values too (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.double({ min: 0.001, max: 1e6, noNaN: true })), { maxLength: 300 }), (points) => {
        const s = new DDSketch({ relativeAccuracy: ACCURACY });
        for (const [v, w] of points) s.accept(v, w);
        const w = new WireWriter();
        writeSketch(w, s);
        // The binary form (buckets now), and the object form through msgpack (buckets written before).
        const binary = readSketch(new WireReader().reset(w.bytes().slice()), ACCURACY);
        const object = decodeSketch(packr.unpack(packr.pack(encodeSketch(s))) as StoredSketch, ACCURACY);
        for (const back of [binary, object]) {
          assert.deepEqual([back.count, back.min, back.max, back.sum, back.zeroCount], [s.count, s.min, s.max, s.sum, s.zeroCount]);
          for (const q of QUANTILES) assert.ok(Object.is(back.getValueAtQuantile(q), s.getValueAtQuantile(q)), `q ${q}`);
        }
        // Still working sketches: more values go in where they belong.
        s.accept(5, 1);
        for (const back of [binary, object]) {
          back.accept(5, 1);
          for (const q of QUANTILES) assert.ok(Object.is(back.getValueAtQuantile(q), s.getValueAtQuantile(q)), `after one more, q ${q}`);
        }
      }),
      { numRuns: 200, seed: 27 },
    );
  });

  it('decodes the protobuf bytes of buckets written before', () => {
    const s = new DDSketch({ relativeAccuracy: ACCURACY });
    for (let i = 1; i <= 100; i++) s.accept(i);
    const back = decodeSketch(s.toProto(), ACCURACY);
    assert.equal(back.count, 100);
    assert.ok(Math.abs(back.getValueAtQuantile(0.5) - s.getValueAtQuantile(0.5)) < 1e-9);
  });
});
