import { DDSketch } from '@datadog/sketches-js';
import type { WireReader, WireWriter } from '../../engine/wire.ts';

/**
 * The stored form of a DDSketch, written with every bucket write. The library's own
 * `toProto` requires its protobuf module on every call and encodes through protobufjs: most of
 * a completed order's fold went there (bench/analytics.bench.ts). Every sketch here has the same
 * mapping (SKETCH_RELATIVE_ACCURACY), so only the occupied range of each store's bins is kept,
 * as float64 bytes, with the summary figures `fromProto` would lose (min, max, sum).
 *
 * This reads and sets DenseStore's fields (bins, offset, minKey, maxKey, count): the library is
 * pinned (2.1.1), and the round trip is held by the bucket tests (stored form, LMDB recomputation).
 */
export interface StoredSketch {
  /**
   * positive and negative stores, null when empty: [minKey, bins minKey..maxKey as float64 bytes,
   * the store's count, its offset, its bins' length]. The layout (offset, length) is kept because
   * the library's rank walk can answer from an empty slot at the edges: the same layout answers
   * the same.
   */
  p: StoredStore | null;
  n: StoredStore | null;
  z: number;
  count: number;
  min: number;
  max: number;
  sum: number;
}

type StoredStore = [minKey: number, bins: Uint8Array, count: number, offset: number, length: number];

interface DenseStoreFields {
  bins: number[];
  count: number;
  minKey: number;
  maxKey: number;
  offset: number;
}

function encodeStore(s: DenseStoreFields): StoredStore | null {
  if (s.count === 0 || s.minKey > s.maxKey) return null;
  const from = s.minKey - s.offset;
  const bins = new Float64Array(s.maxKey - s.minKey + 1);
  for (let i = 0; i < bins.length; i++) bins[i] = s.bins[from + i]!;
  // The count as the store summed it: a sum of the bins in another order can differ in the last bit.
  return [s.minKey, new Uint8Array(bins.buffer), s.count, s.offset, s.bins.length];
}

function decodeStore(into: DenseStoreFields, stored: StoredStore | null): void {
  if (stored === null) return;
  const [minKey, bytes, count, offset, length] = stored;
  // A copy: the bytes may sit at any offset of LMDB's buffer, and Float64Array needs alignment.
  const occupied = new Float64Array(bytes.byteLength / 8);
  new Uint8Array(occupied.buffer).set(bytes);
  const bins = new Array<number>(length).fill(0);
  for (let i = 0; i < occupied.length; i++) bins[minKey - offset + i] = occupied[i]!;
  into.bins = bins;
  into.offset = offset;
  into.minKey = minKey;
  into.maxKey = minKey + occupied.length - 1;
  into.count = count;
}

export function encodeSketch(s: DDSketch): StoredSketch {
  return {
    p: encodeStore(s.store as unknown as DenseStoreFields),
    n: encodeStore(s.negativeStore as unknown as DenseStoreFields),
    z: s.zeroCount,
    count: s.count,
    min: s.min,
    max: s.max,
    sum: s.sum,
  };
}

/** A sketch from its stored form, or from the protobuf bytes buckets were written with before. */
export function decodeSketch(stored: StoredSketch | Uint8Array, relativeAccuracy: number): DDSketch {
  if (stored instanceof Uint8Array) return DDSketch.fromProto(stored);
  const s = new DDSketch({ relativeAccuracy });
  decodeStore(s.store as unknown as DenseStoreFields, stored.p);
  decodeStore(s.negativeStore as unknown as DenseStoreFields, stored.n);
  s.zeroCount = stored.z;
  s.count = stored.count;
  s.min = stored.min;
  s.max = stored.max;
  s.sum = stored.sum;
  return s;
}

/**
 * The binary form (engine/wire.ts encodings), in a bucket's binary form (tca-bucket.ts):
 *
 *   sketch   f64 zero count, f64 count, f64 min, f64 max, f64 sum, then the positive and the
 *            negative store
 *   store    u8 0 when empty; else 1, f64 minKey, f64 offset, u32 bins' length, f64 the store's
 *            count, u32 n, then n f64: the bins minKey..minKey+n-1
 */
export function writeSketch(w: WireWriter, s: DDSketch): void {
  w.f64(s.zeroCount).f64(s.count).f64(s.min).f64(s.max).f64(s.sum);
  writeStore(w, s.store as unknown as DenseStoreFields);
  writeStore(w, s.negativeStore as unknown as DenseStoreFields);
}

export function readSketch(r: WireReader, relativeAccuracy: number): DDSketch {
  const s = new DDSketch({ relativeAccuracy });
  s.zeroCount = r.f64();
  s.count = r.f64();
  s.min = r.f64();
  s.max = r.f64();
  s.sum = r.f64();
  readStore(r, s.store as unknown as DenseStoreFields);
  readStore(r, s.negativeStore as unknown as DenseStoreFields);
  return s;
}

function writeStore(w: WireWriter, s: DenseStoreFields): void {
  if (s.count === 0 || s.minKey > s.maxKey) {
    w.u8(0);
    return;
  }
  const from = s.minKey - s.offset;
  const n = s.maxKey - s.minKey + 1;
  w.u8(1).f64(s.minKey).f64(s.offset).u32(s.bins.length).f64(s.count).u32(n);
  for (let i = 0; i < n; i++) w.f64(s.bins[from + i]!);
}

function readStore(r: WireReader, into: DenseStoreFields): void {
  if (r.u8() === 0) return;
  const minKey = r.f64();
  const offset = r.f64();
  const length = r.u32();
  const count = r.f64();
  const n = r.u32();
  if (minKey - offset < 0 || minKey - offset + n > length) throw new RangeError('sketch store: bins outside their layout');
  const bins = new Array<number>(length).fill(0);
  for (let i = 0; i < n; i++) bins[minKey - offset + i] = r.f64();
  into.bins = bins;
  into.offset = offset;
  into.minKey = minKey;
  into.maxKey = minKey + n - 1;
  into.count = count;
}
