import { grownBuffer } from '../../engine/wire.ts';

/** Distinct object keys remembered at most: records have a few dozen; a map keyed by data must not grow this without bound. */
const MAX_CACHED_KEYS = 4096;

/**
 * What the journal's record and reply writers share: a reused growable buffer, the walk over
 * plain data (strings, numbers, booleans, null, arrays, objects) and each object key encoded
 * once and copied after. A subclass says how each kind of value is written.
 */
export abstract class TreeWriter {
  protected buf = Buffer.allocUnsafe(4096);
  protected view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
  protected pos = 0;
  private readonly keys = new Map<string, Uint8Array>();

  protected abstract string(s: string): void;
  protected abstract number(v: number): void;
  protected abstract boolean(v: boolean): void;
  /** null, and `undefined` where it cannot be left out (an array element). */
  protected abstract nil(): void;
  protected abstract array(items: readonly unknown[]): void;
  protected abstract object(o: Record<string, unknown>): void;
  /** A key's bytes as they are written before its value, encoded once per distinct key. */
  protected abstract encodeKey(key: string): Uint8Array;

  protected value(v: unknown): void {
    switch (typeof v) {
      case 'string':
        this.string(v);
        return;
      case 'number':
        this.number(v);
        return;
      case 'boolean':
        this.boolean(v);
        return;
      case 'undefined':
        this.nil();
        return;
      case 'object':
        if (v === null) this.nil();
        else if (Array.isArray(v)) this.array(v);
        else this.object(v as Record<string, unknown>);
        return;
      default:
        throw new TypeError(`${this.constructor.name} cannot write a ${typeof v}`);
    }
  }

  protected key(key: string): void {
    let bytes = this.keys.get(key);
    if (bytes === undefined) {
      bytes = this.encodeKey(key);
      if (this.keys.size < MAX_CACHED_KEYS) this.keys.set(key, bytes);
    }
    const n = bytes.length;
    this.ensure(n);
    const buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < n; i++) buf[p++] = bytes[i]!;
    this.pos = p;
  }

  protected byte(b: number): void {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }

  protected ensure(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    const next = (this.buf = grownBuffer(this.buf, this.pos, this.pos + bytes));
    this.view = new DataView(next.buffer, next.byteOffset, next.byteLength);
  }
}
