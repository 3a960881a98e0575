import { GATEWAY_THREAD } from '../../engine/placement.ts';

/**
 * The journal's binary frames (engine/frames.ts reserves 300-399 for storage and journaling).
 *
 *   JOURNAL_WRITE  worker -> gateway thread: a journal frame (frame.ts), every router write set
 *                  of that worker since its last poll
 *   JOURNAL_ACK    gateway thread -> worker, once the frame is on disk (or failed):
 *                    0  u32  sequence of the acknowledged frame
 *                    4  u8   1 durable | 0 failed
 *                    5  ...  failed: the reason, UTF-8
 */
export const JournalFrame = { WRITE: 300, ACK: 301 } as const;

/** The journal runs on the gateway thread, beside LMDB's writer. */
export const JOURNAL_THREAD = GATEWAY_THREAD;

/** How long a router waits for a commit before the write counts as failed. */
export const JOURNAL_TIMEOUT_MS = 30_000;

/** A frame is sent early once it holds this many bytes (a ring frame holds at most half the ring). */
export const JOURNAL_FRAME_FLUSH_BYTES = 64 * 1024;

/**
 * A ledger checkpoint larger than this leaves in parts of this size, one frame each (frame.ts
 * `ledgerPart`): a sandbox account of 10,000 positions checkpoints to megabytes, and a ring
 * frame holds half a ring (512 KiB by default), with room here for what the frame already held.
 */
export const LEDGER_PART_BYTES = 256 * 1024;

export function encodeJournalAck(sequence: number, failure: string | null): Uint8Array {
  const reason = failure === null ? Buffer.alloc(0) : Buffer.from(failure, 'utf8');
  const ack = Buffer.allocUnsafe(5 + reason.length);
  ack.writeUInt32LE(sequence, 0);
  ack[4] = failure === null ? 1 : 0;
  reason.copy(ack, 5);
  return ack;
}

export function decodeJournalAck(bytes: Uint8Array, offset: number, length: number): { sequence: number; failure: string | null } {
  const ack = Buffer.from(bytes.buffer, bytes.byteOffset + offset, length);
  return { sequence: ack.readUInt32LE(0), failure: ack[4] === 1 ? null : ack.toString('utf8', 5) };
}
