import {
  alignFrame,
  CONTROL_BYTES,
  DOORBELL_I32,
  FRAME_HEADER_BYTES,
  HEAD_I32,
  HEADER_BYTES,
  isPowerOfTwo,
  MAX_CAPACITY,
  MIN_CAPACITY,
  PADDING_TYPE,
  SLEEPING_I32,
  TAIL_I32,
} from './layout.ts';

/** The shareable halves of one ring: what crosses `postMessage` to the other thread. */
export interface RingHandle {
  readonly buffer: SharedArrayBuffer;
  readonly capacity: number;
}

/**
 * A handler sees a view of the ring slot that is valid only until it returns: the bytes are
 * released to the producer when the batch ends. Copy (or decode) what must outlive the call.
 */
export type FrameHandler = (
  type: number,
  bytes: Uint8Array,
  offset: number,
  length: number,
  endOfBatch: boolean,
) => void;

export function createRing(capacity: number): RingHandle {
  if (!isPowerOfTwo(capacity) || capacity < MIN_CAPACITY || capacity > MAX_CAPACITY) {
    throw new RangeError(`ring capacity must be a power of two in [${MIN_CAPACITY}, ${MAX_CAPACITY}]`);
  }
  return { buffer: new SharedArrayBuffer(HEADER_BYTES + capacity), capacity };
}

export function createControl(): SharedArrayBuffer {
  return new SharedArrayBuffer(CONTROL_BYTES);
}

/** Largest payload a ring of this capacity accepts: half the ring, so a wrap always fits. */
export function maxPayload(capacity: number): number {
  return capacity / 2 - FRAME_HEADER_BYTES;
}

export class RingWriter {
  readonly capacity: number;
  private readonly mask: number;
  private readonly i32: Int32Array;
  private readonly bytes: Uint8Array;
  private readonly words: Int32Array;
  private readonly control: Int32Array;
  private readonly maxPayload: number;
  /** The producer owns HEAD, so it keeps the authoritative copy locally. */
  private head: number;
  /** Last TAIL read; refreshed only when the cached value says the ring is full. */
  private cachedTail: number;

  constructor(handle: RingHandle, control: SharedArrayBuffer) {
    this.capacity = handle.capacity;
    this.mask = handle.capacity - 1;
    this.i32 = new Int32Array(handle.buffer, 0, HEADER_BYTES / 4);
    this.bytes = new Uint8Array(handle.buffer, HEADER_BYTES, handle.capacity);
    this.words = new Int32Array(handle.buffer, HEADER_BYTES, handle.capacity >> 2);
    this.control = new Int32Array(control);
    this.maxPayload = maxPayload(handle.capacity);
    this.head = Atomics.load(this.i32, HEAD_I32) >>> 0;
    this.cachedTail = Atomics.load(this.i32, TAIL_I32) >>> 0;
  }

  /**
   * Copies one frame into the ring. Returns false when the ring is full (backpressure: nothing
   * is written, nothing is overwritten); the caller decides whether to retry, drop or fail.
   */
  tryWrite(type: number, payload: Uint8Array, start = 0, end = payload.length): boolean {
    const length = end - start;
    const offset = this.claim(length);
    if (offset < 0) return false;
    const bytes = this.bytes;
    if (length <= 64) {
      // A byte loop beats TypedArray#set's call overhead for the small frames that dominate.
      for (let i = 0; i < length; i++) bytes[offset + i] = payload[start + i]!;
    } else {
      bytes.set(payload.subarray(start, end), offset);
    }
    this.commit(type, length);
    return true;
  }

  /**
   * Reserves room for a payload of `length` bytes and returns its offset in `slotBytes`, or -1
   * when the ring is full. Exactly one `commit` must follow before the next `claim`. This lets
   * fixed binary layouts be written straight into the ring without an intermediate buffer.
   */
  claim(length: number): number {
    if (length > this.maxPayload || length < 0) {
      throw new RangeError(`frame payload of ${length} bytes exceeds the ring's ${this.maxPayload}`);
    }
    const frame = alignFrame(length);
    const capacity = this.capacity;
    let head = this.head;
    let index = head & this.mask;
    const contiguous = capacity - index;
    const needed = contiguous < frame ? contiguous + frame : frame;
    if (capacity - ((head - this.cachedTail) >>> 0) < needed) {
      this.cachedTail = Atomics.load(this.i32, TAIL_I32) >>> 0;
      if (capacity - ((head - this.cachedTail) >>> 0) < needed) return -1;
    }
    if (contiguous < frame) {
      const word = index >> 2;
      this.words[word] = contiguous - FRAME_HEADER_BYTES;
      this.words[word + 1] = PADDING_TYPE;
      head = (head + contiguous) >>> 0;
      this.head = head;
      index = 0;
    }
    return index + FRAME_HEADER_BYTES;
  }

  /** Publishes the frame reserved by the last `claim`. */
  commit(type: number, length: number): void {
    if (type === PADDING_TYPE) throw new RangeError('frame type -1 is reserved for ring padding');
    const index = this.head & this.mask;
    this.words[index >> 2] = length;
    this.words[(index >> 2) + 1] = type;
    this.head = (this.head + alignFrame(length)) >>> 0;
    // The store is sequentially consistent: the payload bytes are visible before HEAD moves.
    Atomics.store(this.i32, HEAD_I32, this.head | 0);
    // Only the producer that takes SLEEPING from 1 to 0 rings: a consumer being woken is not
    // woken again by every frame that follows (a futex wake is ~30 µs here), and of several
    // producers sharing the consumer's control block, one rings.
    if (Atomics.load(this.control, SLEEPING_I32) !== 0 && Atomics.compareExchange(this.control, SLEEPING_I32, 1, 0) === 1) {
      Atomics.add(this.control, DOORBELL_I32, 1);
      Atomics.notify(this.control, DOORBELL_I32);
    }
  }

  /** The ring's data region, for writing a claimed slot in place. */
  get slotBytes(): Uint8Array {
    return this.bytes;
  }

  /** Bytes in use as last seen by the producer (an upper bound: TAIL may have moved since). */
  usedBytes(): number {
    return (this.head - (Atomics.load(this.i32, TAIL_I32) >>> 0)) >>> 0;
  }

}

export class RingReader {
  readonly capacity: number;
  private readonly mask: number;
  private readonly i32: Int32Array;
  private readonly bytes: Uint8Array;
  private readonly words: Int32Array;
  private tail: number;

  constructor(handle: RingHandle) {
    this.capacity = handle.capacity;
    this.mask = handle.capacity - 1;
    this.i32 = new Int32Array(handle.buffer, 0, HEADER_BYTES / 4);
    this.bytes = new Uint8Array(handle.buffer, HEADER_BYTES, handle.capacity);
    this.words = new Int32Array(handle.buffer, HEADER_BYTES, handle.capacity >> 2);
    this.tail = Atomics.load(this.i32, TAIL_I32) >>> 0;
  }

  isEmpty(): boolean {
    return (Atomics.load(this.i32, HEAD_I32) >>> 0) === this.tail;
  }

  usedBytes(): number {
    return ((Atomics.load(this.i32, HEAD_I32) >>> 0) - this.tail) >>> 0;
  }

  /**
   * Hands up to `limit` frames to `handler` and releases their space in one TAIL store at the
   * end of the batch. Returns the number of frames handled (padding is not counted).
   */
  read(handler: FrameHandler, limit: number): number {
    const head = Atomics.load(this.i32, HEAD_I32) >>> 0;
    let tail = this.tail;
    if (tail === head) return 0;
    const words = this.words;
    const mask = this.mask;
    let handled = 0;
    try {
      while (tail !== head && handled < limit) {
        const index = tail & mask;
        const length = words[index >> 2]!;
        const type = words[(index >> 2) + 1]!;
        const next = (tail + alignFrame(length)) >>> 0;
        if (type === PADDING_TYPE) {
          tail = next;
          continue;
        }
        tail = next;
        handled++;
        handler(type, this.bytes, index + FRAME_HEADER_BYTES, length, tail === head || handled === limit);
      }
    } finally {
      // A throwing handler still consumes its frame: a poison message must not loop forever.
      this.tail = tail;
      Atomics.store(this.i32, TAIL_I32, tail | 0);
    }
    return handled;
  }
}
