import { TreeWriter } from './tree-writer.ts';

/** Strings this short are written by a loop (no native call) while they are ASCII. */
const SHORT_STRING = 64;

/**
 * Writes plain msgpack (maps with string keys, no records or extensions): what the order and
 * fill databases store and lmdb-js decodes on read (`mapsAsObjects`). Built for the records a
 * router journals twice per order: each map key's bytes are encoded once and copied after,
 * which msgpackr's general encoder repeats per record (bench/records.bench.ts measures both on
 * the same order record).
 *
 * Values: strings, numbers (integers below 2^32 in the smallest integer form that is not a
 * record id, others as float64: exact for every safe integer), booleans, null, arrays and plain objects. A key whose
 * value is `undefined` is left out, as JSON does; an `undefined` array element is nil. BigInts
 * and other types throw: records are integers in `_1e8`/`_1e9` units, not bigints.
 */
export class PlainMsgpackWriter extends TreeWriter {
  /** The encoding of `value`: a view into this writer's buffer, valid until the next call. */
  encode(value: unknown): Uint8Array {
    this.pos = 0;
    this.value(value);
    return this.buf.subarray(0, this.pos);
  }

  protected boolean(v: boolean): void {
    this.byte(v ? 0xc3 : 0xc2);
  }

  protected nil(): void {
    this.byte(0xc0);
  }

  protected encodeKey(key: string): Uint8Array {
    const at = this.pos;
    this.string(key);
    // A copy: a subarray would be a view that later records overwrite.
    const bytes = new Uint8Array(this.buf.subarray(at, this.pos));
    this.pos = at;
    return bytes;
  }

  protected object(object: Record<string, unknown>): void {
    this.ensure(3);
    const header = this.pos;
    this.buf[header] = 0xde; // map16, its count written after the entries
    this.pos += 3;
    let count = 0;
    for (const key in object) {
      const v = object[key];
      if (v === undefined) continue;
      this.key(key);
      this.value(v);
      count++;
    }
    if (count > 0xffff) throw new RangeError('plain msgpack: a map of more than 65535 entries');
    this.view.setUint16(header + 1, count);
  }

  protected array(items: readonly unknown[]): void {
    const n = items.length;
    if (n < 16) this.byte(0x90 | n);
    else if (n < 0x10000) {
      this.ensure(3);
      this.buf[this.pos] = 0xdc;
      this.view.setUint16(this.pos + 1, n);
      this.pos += 3;
    } else {
      this.ensure(5);
      this.buf[this.pos] = 0xdd;
      this.view.setUint32(this.pos + 1, n);
      this.pos += 5;
    }
    for (let i = 0; i < n; i++) this.value(items[i]);
  }

  protected number(v: number): void {
    this.ensure(9);
    const buf = this.buf;
    const p = this.pos;
    // -0 stays a double: an integer form would read back as 0.
    if (Number.isInteger(v) && (v !== 0 || 1 / v > 0)) {
      if (v >= 0) {
        // Not 0x40-0x7f as fixints: the order and fill databases decode with shared structures,
        // and to a structure-aware decoder those bytes name a record (msgpackr's records
        // extension) once any structured write created one (closeAfterRestart's putOrder does).
        if (v < 0x40) {
          buf[p] = v;
          this.pos = p + 1;
          return;
        }
        if (v < 0x100) {
          buf[p] = 0xcc;
          buf[p + 1] = v;
          this.pos = p + 2;
          return;
        }
        if (v < 0x10000) {
          buf[p] = 0xcd;
          this.view.setUint16(p + 1, v);
          this.pos = p + 3;
          return;
        }
        if (v < 0x100000000) {
          buf[p] = 0xce;
          this.view.setUint32(p + 1, v);
          this.pos = p + 5;
          return;
        }
      } else if (v >= -0x20) {
        buf[p] = v & 0xff;
        this.pos = p + 1;
        return;
      } else if (v >= -0x80000000) {
        buf[p] = 0xd2;
        this.view.setInt32(p + 1, v);
        this.pos = p + 5;
        return;
      }
    }
    buf[p] = 0xcb;
    this.view.setFloat64(p + 1, v);
    this.pos = p + 9;
  }

  protected string(s: string): void {
    const length = s.length;
    if (length < SHORT_STRING) {
      // fixstr or str8 of ASCII, by a loop; the first non-ASCII character falls back below.
      this.ensure(2 + length);
      const buf = this.buf;
      const start = this.pos;
      let p = start + (length < 32 ? 1 : 2);
      let ascii = true;
      for (let i = 0; i < length; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) {
          ascii = false;
          break;
        }
        buf[p++] = c;
      }
      if (ascii) {
        if (length < 32) buf[start] = 0xa0 | length;
        else {
          buf[start] = 0xd9;
          buf[start + 1] = length;
        }
        this.pos = p;
        return;
      }
    }
    // UTF-8 is at most 3 bytes per UTF-16 unit: the header is sized for that, then written exactly.
    const most = length * 3;
    const head = most < 0x100 ? 2 : most < 0x10000 ? 3 : 5;
    this.ensure(head + most);
    const at = this.pos;
    const n = this.buf.write(s, at + head, 'utf8');
    if (head === 2) {
      this.buf[at] = 0xd9;
      this.buf[at + 1] = n;
    } else if (head === 3) {
      this.buf[at] = 0xda;
      this.view.setUint16(at + 1, n);
    } else {
      this.buf[at] = 0xdb;
      this.view.setUint32(at + 1, n);
    }
    this.pos = at + head + n;
  }
}
