import { TreeWriter } from './tree-writer.ts';

/** Characters a string may need no escape for: printable ASCII but `"` and `\`. */
function plain(c: number): boolean {
  return c >= 0x20 && c < 0x7f && c !== 0x22 && c !== 0x5c;
}

/**
 * Writes JSON as UTF-8 bytes, exactly what `JSON.stringify` writes for plain data (objects,
 * arrays, strings, numbers, booleans, null; `undefined` keys left out and `undefined` array
 * elements null, as JSON.stringify does). A new order's 201 body is built here on the router, straight
 * into bytes for the journal frame: `JSON.stringify(orderView(order))` copied the record, then built
 * the string in parts and flattened it, the largest allocation of an order on its worker.
 * Keys are encoded once; safe integers are written digit by digit; other numbers and strings
 * that need escapes take JSON.stringify's own text for that one value.
 */
export class JsonWriter extends TreeWriter {
  /**
   * `value`'s JSON: a view into this writer's buffer, valid until the next call. For a top-level
   * object, `omit` names keys to leave out and `append` entries to add after its own.
   */
  encode(value: unknown, omit?: ReadonlySet<string>, append?: Record<string, unknown>): Uint8Array {
    this.pos = 0;
    if (omit === undefined && append === undefined) this.value(value);
    else this.entries(value as Record<string, unknown>, omit, append);
    return this.buf.subarray(0, this.pos);
  }

  protected boolean(v: boolean): void {
    this.ascii(v ? 'true' : 'false');
  }

  protected nil(): void {
    this.ascii('null');
  }

  protected encodeKey(key: string): Uint8Array {
    return Buffer.from(`${JSON.stringify(key)}:`, 'utf8');
  }

  protected object(o: Record<string, unknown>): void {
    this.entries(o);
  }

  private entries(o: Record<string, unknown>, omit?: ReadonlySet<string>, append?: Record<string, unknown>): void {
    if (typeof (o as { toJSON?: unknown }).toJSON === 'function') throw new TypeError('JsonWriter writes plain data (no toJSON)');
    this.byte(0x7b);
    let first = true;
    for (const key in o) {
      if (omit?.has(key)) continue;
      first = this.entry(key, o[key], first);
    }
    if (append !== undefined) for (const key in append) first = this.entry(key, append[key], first);
    this.byte(0x7d);
  }

  /** Writes `"key":value` unless the value is one JSON leaves out; returns whether none was written yet. */
  private entry(key: string, v: unknown, first: boolean): boolean {
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') return first;
    if (!first) this.byte(0x2c);
    this.key(key);
    this.value(v);
    return false;
  }

  protected array(items: readonly unknown[]): void {
    this.byte(0x5b);
    for (let i = 0; i < items.length; i++) {
      if (i > 0) this.byte(0x2c);
      this.value(items[i]);
    }
    this.byte(0x5d);
  }

  protected number(v: number): void {
    // -0 is "0" in JSON, as JSON.stringify writes it.
    if (!Number.isSafeInteger(v)) {
      this.ascii(Number.isFinite(v) ? String(v) : 'null');
      return;
    }
    this.ensure(17);
    const buf = this.buf;
    let n = v;
    if (n < 0) {
      buf[this.pos++] = 0x2d;
      n = -n;
    }
    const start = this.pos;
    do {
      const q = Math.floor(n / 10);
      buf[this.pos++] = 0x30 + (n - q * 10);
      n = q;
    } while (n > 0);
    // Digits came least significant first.
    for (let i = start, j = this.pos - 1; i < j; i++, j--) {
      const t = buf[i]!;
      buf[i] = buf[j]!;
      buf[j] = t;
    }
  }

  protected string(s: string): void {
    const length = s.length;
    this.ensure(length + 2);
    const buf = this.buf;
    const start = this.pos;
    let p = start + 1;
    for (let i = 0; i < length; i++) {
      const c = s.charCodeAt(i);
      if (!plain(c)) {
        // Escapes, non-ASCII or lone surrogates: JSON.stringify's own text of this string.
        this.pos = start;
        this.utf8(JSON.stringify(s));
        return;
      }
      buf[p++] = c;
    }
    buf[start] = 0x22;
    buf[p++] = 0x22;
    this.pos = p;
  }

  private ascii(s: string): void {
    this.ensure(s.length);
    const buf = this.buf;
    for (let i = 0; i < s.length; i++) buf[this.pos++] = s.charCodeAt(i);
  }

  private utf8(s: string): void {
    this.ensure(s.length * 3);
    this.pos += this.buf.write(s, this.pos, 'utf8');
  }
}
