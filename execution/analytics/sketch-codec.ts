import { DDSketch } from '@datadog/sketches-js';

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
