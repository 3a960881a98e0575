/**
 * Byte layout of one single-producer single-consumer ring and of a mailbox's control block.
 *
 * Ring SharedArrayBuffer (HEADER_BYTES + capacity):
 *
 *   0         128       256                          256 + capacity
 *   +---------+---------+----------------------------+
 *   | HEAD    | TAIL    | data (power-of-two bytes)  |
 *   +---------+---------+----------------------------+
 *     i32 at 0  i32 at 128
 *
 * HEAD is written only by the producer, TAIL only by the consumer; they sit 128 bytes apart so
 * the two threads never write the same cache line (or its adjacent-line prefetch pair).
 * Both are free-running u32 byte counters (stored as i32, read with `>>> 0`); the slot of a
 * position is `pos & (capacity - 1)`, and `(head - tail) >>> 0` is the bytes in use, which is
 * exact while capacity <= 2^30.
 *
 * A frame is 8-byte aligned:
 *
 *   +-------------+-------------+----------------------+---------+
 *   | length: i32 | type: i32   | payload (length B)   | padding |
 *   +-------------+-------------+----------------------+---------+
 *
 * A frame never wraps: when the contiguous space left before the end of the data region is too
 * small, the producer writes a PADDING frame that fills it and starts again at offset 0. The
 * producer publishes a frame by a single `Atomics.store` of HEAD after the bytes are written, so
 * the consumer never sees a half-written frame; the consumer releases space by storing TAIL once
 * per drained batch.
 *
 * Mailbox control SharedArrayBuffer (CONTROL_BYTES), one per consuming thread, shared by all the
 * rings that feed it:
 *
 *   0            128
 *   +------------+------------+
 *   | DOORBELL   | SLEEPING   |
 *   +------------+------------+
 *
 * The consumer sets SLEEPING, reads DOORBELL, re-checks every ring and only then waits on
 * DOORBELL. A producer bumps DOORBELL and notifies only when it reads SLEEPING != 0 after its
 * HEAD store, so a busy consumer costs producers one plain atomic load per frame and no futex.
 */

export const HEADER_BYTES = 256;
export const HEAD_I32 = 0;
export const TAIL_I32 = 128 / 4;

export const FRAME_HEADER_BYTES = 8;
export const FRAME_ALIGN = 8;

export const CONTROL_BYTES = 256;
export const DOORBELL_I32 = 0;
export const SLEEPING_I32 = 128 / 4;

/** Frame type of the filler written before a wrap; never surfaced to handlers. */
export const PADDING_TYPE = -1;

export const MIN_CAPACITY = 1024;
export const MAX_CAPACITY = 1 << 30;

export function alignFrame(payloadLength: number): number {
  return (payloadLength + FRAME_HEADER_BYTES + FRAME_ALIGN - 1) & ~(FRAME_ALIGN - 1);
}

export function isPowerOfTwo(n: number): boolean {
  return Number.isInteger(n) && n > 0 && (n & (n - 1)) === 0;
}
