/**
 * A seqlock over slots of Float64 words in shared memory: one writer per slot, any number of
 * readers on any thread, and readers never block the writer. A slot's first word holds its
 * sequence (an Int32 at the slot's first byte), odd while the writer is inside.
 *
 *   writer:  seq -> odd, write the words, seq -> even
 *   reader:  load seq (odd: retry), copy, load seq again (changed: retry)
 *
 * Integers below 2^53 are exact in a double, so prices, quantities and timestamps fit a word.
 */
export interface SlotCopier {
  /** Copies the slot whose first word is `base` into the copier's own state; false when it was never written. */
  copySlot(words: Float64Array, base: number): boolean;
}

/** A writer mid-update is microseconds; a reader descheduled mid-copy on a busy machine may need a few tries. */
const READ_TRIES = 256;

export class SeqlockWords {
  readonly words: Float64Array;
  private readonly seq: Int32Array;

  constructor(buffer: SharedArrayBuffer, byteOffset = 0, words = (buffer.byteLength - byteOffset) / 8) {
    this.words = new Float64Array(buffer, byteOffset, words);
    this.seq = new Int32Array(buffer, byteOffset, words * 2);
  }

  /** Enters the slot at word `base` for writing; pair with `endWrite`. */
  beginWrite(base: number): void {
    const i = base * 2;
    Atomics.store(this.seq, i, Atomics.load(this.seq, i) + 1);
  }

  endWrite(base: number): void {
    const i = base * 2;
    Atomics.store(this.seq, i, Atomics.load(this.seq, i) + 1);
  }

  /** The slot's sequence now: it moves on every write, so an unchanged one means nothing to copy. */
  sequence(base: number): number {
    return Atomics.load(this.seq, base * 2);
  }

  /**
   * A consistent copy of the slot at `base` by `copier`: true when taken, false when the slot
   * was never written or no consistent copy could be taken in a few tries (practically never).
   */
  read(base: number, copier: SlotCopier): boolean {
    const seq = this.seq;
    const i = base * 2;
    for (let attempt = 0; attempt < READ_TRIES; attempt++) {
      const before = Atomics.load(seq, i);
      if ((before & 1) === 1) continue;
      if (!copier.copySlot(this.words, base)) return false;
      if (Atomics.load(seq, i) === before) return true;
    }
    return false;
  }
}
