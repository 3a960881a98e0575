/**
 * Little-endian fixed layouts for the hottest messages (the order request, child orders,
 * execution reports): a writer that reuses one growable buffer and a reader that decodes
 * straight from a ring slot (a SharedArrayBuffer view), without the msgpack envelope's copy.
 *
 * Field encodings (every layout is a sequence of these; the layouts are drawn beside their
 * messages, e.g. actors/edge/wire.ts):
 *
 *   u8 / u16 / u32       unsigned integers
 *   f64                  a number: quantities and prices are integers below 2^53, exact in f64
 *   f64?                 f64 where NaN stands for null
 *   str                  u16 byte length, then UTF-8 bytes
 *   str?                 u16 0xFFFF for null, else as str
 *   word                 u16 index in the lexicon (strings that repeat: symbols, venues, edge
 *                        ids), or 0 followed by a str for a string the lexicon does not hold
 */

const NULL_STRING = 0xffff;
const ASCII_FAST = 64;

/**
 * Strings that repeat on the hot path, as small integers. Every thread builds the same lexicon
 * from the same static reference data, so an index means the same string everywhere. Index 0
 * is reserved for "spelled out".
 */
export class Lexicon {
  private readonly index = new Map<string, number>();
  private readonly words: string[] = [''];

  constructor(words: Iterable<string>) {
    for (const word of words) {
      if (this.index.has(word)) continue;
      if (this.words.length >= NULL_STRING) throw new RangeError('lexicon holds at most 65,534 words');
      this.index.set(word, this.words.length);
      this.words.push(word);
    }
  }

  /** The word's index, or 0 when it must be spelled out. */
  indexOf(word: string): number {
    return this.index.get(word) ?? 0;
  }

  wordAt(index: number): string | undefined {
    return index > 0 ? this.words[index] : undefined;
  }

  get size(): number {
    return this.words.length - 1;
  }
}

/** A copy of `buffer`'s first `used` bytes in a buffer with room for `needed` bytes (at least twice the size). */
export function grownBuffer(buffer: Buffer, used: number, needed: number): Buffer<ArrayBuffer> {
  const next = Buffer.allocUnsafe(Math.max(buffer.length * 2, needed));
  buffer.copy(next, 0, 0, used);
  return next;
}

/** Writes one layout at a time into a reused buffer; `bytes()` is valid until the next `reset()`. */
export class WireWriter {
  private buffer = Buffer.allocUnsafe(1024);
  private view = new DataView(this.buffer.buffer, this.buffer.byteOffset, this.buffer.byteLength);
  private pos = 0;

  reset(): this {
    this.pos = 0;
    return this;
  }

  get length(): number {
    return this.pos;
  }

  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.pos);
  }

  u8(v: number): this {
    this.room(1);
    this.buffer[this.pos++] = v;
    return this;
  }

  u16(v: number): this {
    this.room(2);
    this.view.setUint16(this.pos, v, true);
    this.pos += 2;
    return this;
  }

  u32(v: number): this {
    this.room(4);
    this.view.setUint32(this.pos, v, true);
    this.pos += 4;
    return this;
  }

  f64(v: number): this {
    this.room(8);
    this.view.setFloat64(this.pos, v, true);
    this.pos += 8;
    return this;
  }

  optF64(v: number | null): this {
    return this.f64(v ?? Number.NaN);
  }

  str(s: string): this {
    const at = this.pos;
    this.room(2 + s.length * 3);
    let ascii = s.length <= ASCII_FAST;
    if (ascii) {
      const buffer = this.buffer;
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) {
          ascii = false;
          break;
        }
        buffer[at + 2 + i] = c;
      }
    }
    const length = ascii ? s.length : this.buffer.write(s, at + 2, 'utf8');
    if (length >= NULL_STRING) throw new RangeError(`a wire string holds at most ${NULL_STRING - 1} bytes`);
    this.view.setUint16(at, length, true);
    this.pos = at + 2 + length;
    return this;
  }

  optStr(s: string | null): this {
    return s === null ? this.u16(NULL_STRING) : this.str(s);
  }

  word(s: string, lexicon: Lexicon): this {
    const index = lexicon.indexOf(s);
    this.u16(index);
    return index === 0 ? this.str(s) : this;
  }

  private room(n: number): void {
    if (this.pos + n <= this.buffer.length) return;
    const next = (this.buffer = grownBuffer(this.buffer, this.pos, this.pos + n));
    this.view = new DataView(next.buffer, next.byteOffset, next.byteLength);
  }
}

/** Reads one layout from a slice of bytes (a ring slot is valid only during its handler). */
export class WireReader {
  private bytes: Uint8Array = new Uint8Array(0);
  private view = new DataView(this.bytes.buffer);
  private pos = 0;
  private end = 0;
  /** TextDecoder refuses SharedArrayBuffer views: non-ASCII strings are copied here first. */
  private scratch = Buffer.allocUnsafe(256);

  reset(bytes: Uint8Array, offset = 0, length = bytes.length - offset): this {
    if (bytes.buffer !== this.bytes.buffer || bytes.byteOffset !== this.bytes.byteOffset) {
      this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    this.bytes = bytes;
    this.pos = offset;
    this.end = offset + length;
    return this;
  }

  get remaining(): number {
    return this.end - this.pos;
  }

  u8(): number {
    this.need(1);
    return this.bytes[this.pos++]!;
  }

  u16(): number {
    this.need(2);
    const v = this.view.getUint16(this.pos, true);
    this.pos += 2;
    return v;
  }

  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  f64(): number {
    this.need(8);
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }

  optF64(): number | null {
    const v = this.f64();
    return Number.isNaN(v) ? null : v;
  }

  str(): string {
    return this.chars(this.u16());
  }

  optStr(): string | null {
    const length = this.u16();
    return length === NULL_STRING ? null : this.chars(length);
  }

  word(lexicon: Lexicon): string {
    const index = this.u16();
    if (index === 0) return this.str();
    const word = lexicon.wordAt(index);
    if (word === undefined) throw new RangeError(`lexicon has no word ${index}`);
    return word;
  }

  private chars(length: number): string {
    this.need(length);
    const bytes = this.bytes;
    const start = this.pos;
    this.pos += length;
    if (length <= ASCII_FAST) {
      let s = '';
      for (let i = start; i < start + length; i++) {
        const c = bytes[i]!;
        if (c >= 0x80) return this.utf8(start, length);
        s += String.fromCharCode(c);
      }
      return s;
    }
    return this.utf8(start, length);
  }

  private utf8(start: number, length: number): string {
    if (length > this.scratch.length) this.scratch = Buffer.allocUnsafe(length);
    this.scratch.set(this.bytes.subarray(start, start + length));
    return this.scratch.toString('utf8', 0, length);
  }

  private need(n: number): void {
    if (this.pos + n > this.end) throw new RangeError(`wire layout truncated: ${n} more bytes needed at ${this.pos}, frame ends at ${this.end}`);
  }
}
