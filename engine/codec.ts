import { Packr, Unpackr } from 'msgpackr';
import type { RingWriter } from './ring/spsc-ring.ts';

/**
 * msgpack codec for envelope frames. Plain msgpack (no shared record structures): a frame must
 * decode on its own, because a frame refused by a full ring is never sent and a sequential
 * structure stream would then desynchronise. Measured here at ~1.0 µs pack+unpack for an
 * order-sized envelope; the hottest messages get fixed binary layouts instead.
 */
export class FrameEncoder {
  private readonly packr = new Packr({ useRecords: false, moreTypes: false, useBigIntExtension: true });

  /** Encodes and writes; false when the ring is full (nothing written). */
  write(writer: RingWriter, type: number, value: unknown): boolean {
    // pack() returns a view of msgpackr's reusable buffer: valid until the next pack call,
    // and we copy it into the ring before returning.
    const bytes = this.packr.pack(value);
    return writer.tryWrite(type, bytes, 0, bytes.length);
  }
}

export class FrameDecoder {
  // copyBuffers: binary values must not alias the scratch buffer the next frame overwrites.
  private readonly unpackr = new Unpackr({ useRecords: false, moreTypes: false, copyBuffers: true });
  private scratch = Buffer.allocUnsafe(64 * 1024);

  /**
   * Decodes a frame's payload. The ring slot is a SharedArrayBuffer view, which TextDecoder
   * refuses, so the bytes are first copied into a private scratch buffer that is reused.
   */
  read(bytes: Uint8Array, offset: number, length: number): unknown {
    if (length > this.scratch.length) this.scratch = Buffer.allocUnsafe(1 << Math.ceil(Math.log2(length)));
    const scratch = this.scratch;
    if (length <= 64) for (let i = 0; i < length; i++) scratch[i] = bytes[offset + i]!;
    else scratch.set(bytes.subarray(offset, offset + length));
    return this.unpackr.unpack(scratch.subarray(0, length));
  }
}
