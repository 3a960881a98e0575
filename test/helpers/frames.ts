/**
 * Deterministic frame contents for ring tests: a seeded PRNG (shared by producer and consumer
 * threads, so both derive the same size sequence) and a byte pattern derived from a frame's
 * sequence number, so a consumer can check every byte without the producer sending a copy.
 *
 * Payload of frame `seq` (length L):
 *
 *   +----------------+----------------------------------------+
 *   | seq: u32 LE    | patternByte(seq, 4), ..., (seq, L - 1) |   (L >= 4)
 *   +----------------+----------------------------------------+
 *   | patternByte(seq, 0), ..., (seq, L - 1)                  |   (L < 4)
 *   +---------------------------------------------------------+
 */

/** mulberry32: tiny, fast, and identical on every thread for the same seed. */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  nextU32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number {
    return min + (this.nextU32() % (max - min + 1));
  }

  chance(p: number): boolean {
    return this.nextU32() / 0x1_0000_0000 < p;
  }
}

export function patternByte(seq: number, j: number): number {
  return (Math.imul(seq, 0x9e3779b1) + Math.imul(j, 131) + (j >>> 8) + 17) & 0xff;
}

export function fillPayload(bytes: Uint8Array, offset: number, length: number, seq: number): void {
  let j = 0;
  if (length >= 4) {
    bytes[offset] = seq & 0xff;
    bytes[offset + 1] = (seq >>> 8) & 0xff;
    bytes[offset + 2] = (seq >>> 16) & 0xff;
    bytes[offset + 3] = (seq >>> 24) & 0xff;
    j = 4;
  }
  for (; j < length; j++) bytes[offset + j] = patternByte(seq, j);
}

export function makePayload(length: number, seq: number): Uint8Array {
  const bytes = new Uint8Array(length);
  fillPayload(bytes, 0, length, seq);
  return bytes;
}

/** Index of the first byte that differs from frame `seq`'s payload, or -1 when all match. */
export function checkPayload(bytes: Uint8Array, offset: number, length: number, seq: number): number {
  let j = 0;
  if (length >= 4) {
    const got = (bytes[offset]! | (bytes[offset + 1]! << 8) | (bytes[offset + 2]! << 16) | (bytes[offset + 3]! << 24)) >>> 0;
    if (got !== seq >>> 0) return 0;
    j = 4;
  }
  for (; j < length; j++) if (bytes[offset + j] !== patternByte(seq, j)) return j;
  return -1;
}

/**
 * Payload sizes for the cross-thread stress tests: mostly small frames, some medium, and a
 * steady share close to the ring's maximum (half the capacity), so frames rarely divide the
 * space left before the end and padding frames are written all the time.
 */
export function stressSize(prng: Prng, maxPayload: number): number {
  const r = prng.int(0, 99);
  if (r < 45) return prng.int(0, 64);
  if (r < 75) return prng.int(65, Math.min(600, maxPayload));
  if (r < 80) return maxPayload;
  if (r < 92) return prng.int(Math.max(0, maxPayload - 96), maxPayload);
  return prng.int(Math.max(0, (maxPayload >> 1) - 64), (maxPayload >> 1) + 64);
}
