import { refuse, ResultCode } from '../result-codes.ts';
import type { ActorContext } from '../../engine/actor.ts';
import { JournalFrameWriter } from './frame.ts';
import { decodeJournalAck, JOURNAL_FRAME_FLUSH_BYTES, JOURNAL_THREAD, JOURNAL_TIMEOUT_MS, JournalFrame } from './messages.ts';

/** Errors of frames no acknowledgement came for in time: on disk or not, nobody knows. */
const inDoubt = new WeakSet<object>();

/** Whether a commit's failure leaves its frame's fate unknown (a timeout), rather than certainly not on disk. */
export function journalInDoubt(err: unknown): boolean {
  return typeof err === 'object' && err !== null && inDoubt.has(err);
}

interface Waiter {
  resolve(): void;
  reject(err: Error): void;
}

interface InFlight {
  waiters: Waiter[];
  cancelTimeout: () => void;
}

/**
 * A worker's one link to the journal, shared by every router on the worker. Routers append
 * their write sets to the open frame (`frame`) and `commit()`; the frame leaves once, at the
 * start of the worker's next poll, so every order a batch of messages produced shares one
 * ring message, one LMDB commit and one acknowledgement. Each commit resolves when the journal
 * acknowledges its frame on disk, in frame order.
 */
export class JournalLink {
  private readonly writer = new JournalFrameWriter();
  private open: Waiter[] | undefined;
  private readonly inFlight = new Map<number, InFlight>();
  private sequence = 0;

  constructor(private readonly ctx: Pick<ActorContext, 'sendBinary' | 'onBinary' | 'atNextPoll' | 'schedule'>) {
    ctx.onBinary(JournalFrame.ACK, (_source, bytes, offset, length) => this.onAck(bytes, offset, length));
  }

  /** The frame being collected: append records, then `commit()`. */
  get frame(): JournalFrameWriter {
    return this.writer;
  }

  /** Resolves when the open frame (with what was just appended to it) is on disk. */
  commit(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (this.open === undefined) {
        this.open = [];
        this.ctx.atNextPoll(() => this.send());
      }
      this.open.push({ resolve, reject });
      // A large frame leaves now: a ring frame holds at most half the ring.
      if (this.writer.size >= JOURNAL_FRAME_FLUSH_BYTES) this.send();
    });
  }

  /**
   * Sends the open frame now; whoever waits on it is answered with its acknowledgement. A ledger
   * checkpoint's parts each leave this way, so no frame outgrows the ring (JournaledOrders).
   */
  flush(): void {
    if (this.writer.records === 0) return;
    this.open ??= [];
    this.send();
  }

  private send(): void {
    const waiters = this.open;
    if (waiters === undefined) return;
    this.open = undefined;
    const sequence = (this.sequence = (this.sequence + 1) >>> 0);
    try {
      this.ctx.sendBinary(JOURNAL_THREAD, JournalFrame.WRITE, this.writer.finish(sequence));
    } catch (err) {
      const refusal = refuse(ResultCode.JOURNAL_UNAVAILABLE, `journal frame not sent: ${err instanceof Error ? err.message : String(err)}`);
      for (const w of waiters) w.reject(refusal);
      return;
    } finally {
      this.writer.reset();
    }
    const cancelTimeout = this.ctx.schedule(JOURNAL_TIMEOUT_MS, () => {
      if (!this.inFlight.delete(sequence)) return;
      const err = refuse(ResultCode.JOURNAL_UNAVAILABLE, `journal did not acknowledge frame ${sequence} within ${JOURNAL_TIMEOUT_MS} ms`);
      inDoubt.add(err);
      for (const w of waiters) w.reject(err);
    });
    this.inFlight.set(sequence, { waiters, cancelTimeout });
  }

  private onAck(bytes: Uint8Array, offset: number, length: number): void {
    const { sequence, failure } = decodeJournalAck(bytes, offset, length);
    const frame = this.inFlight.get(sequence);
    if (frame === undefined) return; // timed out already
    this.inFlight.delete(sequence);
    frame.cancelTimeout();
    if (failure === null) for (const w of frame.waiters) w.resolve();
    else {
      // Refused, not failed: nothing of the frame is on disk (LMDB commits whole transactions).
      const err = refuse(ResultCode.JOURNAL_UNAVAILABLE, `durable write failed: ${failure}`);
      for (const w of frame.waiters) w.reject(err);
    }
  }
}
