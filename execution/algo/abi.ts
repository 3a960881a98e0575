/**
 * The public algo ABI (`sequence-algo-sdk`: Rust to wasm32, `#![no_std]`, repr(C)), byte for
 * byte. Little-endian; offsets follow repr(C) (each field at its alignment, the struct padded to
 * its largest alignment). The SDK's comment gives L2Book as 688 bytes; its layout is 656, and the
 * layout is what an algo compiled from it reads.
 *
 *   Level       0 px_1e9 u64 | 8 sz_1e8 u64                                               16 B
 *   L2Book      0 bids [Level;20] | 320 asks [Level;20] | 640 bid_ct u8 | 641 ask_ct u8 |
 *               642 symbol_id u16 | 644 _pad u32 | 648 recv_ns u64                        656 B
 *   OpenOrder   0 order_id u64 | 8 px_1e9 u64 | 16 qty_1e8 i64 (+ buy) | 24 filled_1e8 i64 |
 *               32 side i8 | 33 status u8 | 34 _pad [u8;6]                                 40 B
 *   AlgoState   0 position_1e8 i64 | 8 avg_entry_1e9 u64 | 16 realized_pnl_1e9 i64 |
 *               24 unrealized_pnl_1e9 i64 | 32 orders [OpenOrder;32] | 1312 order_ct u8 |
 *               1313 _pad [u8;7]                                                         1320 B
 *   Fill        0 order_id u64 | 8 px_1e9 u64 | 16 qty_1e8 i64 | 24 recv_ns u64 | 32 side i8 40 B
 *   Reject      0 order_id u64 | 8 code u8 | 9 _pad [u8;7]                                16 B
 *   Action      0 order_id u64 | 8 px_1e9 u64 | 16 qty_1e8 i64 | 24 side i8 (1 buy, -1 sell,
 *               0 cancel) | 25 is_cancel u8 | 26 order_type u8 | 27 _pad [u8;5]            32 B
 *   WasmActions 0 count u32 | 4 _pad u32 | 8 actions [Action;16]                          520 B
 *
 * 64-bit fields cross as two 32-bit halves of a JS number: prices, quantities and ids are
 * integers below 2^53 (recv_ns, a wall-clock nanosecond count near 2^61, is as exact as the
 * clock it comes from), and a value an algo returns above 2^53 is refused (not rounded).
 */
export const MAX_LEVELS = 20;
export const MAX_OPEN_ORDERS = 32;
export const MAX_ACTIONS = 16;

export const LEVEL_BYTES = 16;
export const BOOK_BYTES = 656;
export const OPEN_ORDER_BYTES = 40;
export const STATE_BYTES = 1320;
export const FILL_BYTES = 40;
export const REJECT_BYTES = 16;
export const ACTION_BYTES = 32;
export const ACTIONS_BYTES = 8 + MAX_ACTIONS * ACTION_BYTES;

const BOOK_ASKS = MAX_LEVELS * LEVEL_BYTES;
const BOOK_BID_CT = 2 * MAX_LEVELS * LEVEL_BYTES;
const STATE_ORDERS = 32;
const STATE_ORDER_CT = STATE_ORDERS + MAX_OPEN_ORDERS * OPEN_ORDER_BYTES;

/** OpenOrder.status */
export const OrderStatus = { PENDING: 0, ACKED: 1, PARTIAL: 2, DEAD: 3 } as const;
export type OrderStatus = (typeof OrderStatus)[keyof typeof OrderStatus];

/** Action.order_type */
export const OrderType = { LIMIT_GTC: 0, MARKET: 1, IOC: 2, FOK: 3, POST_ONLY: 4 } as const;

/** Reject.code */
export const RejectCode = {
  UNKNOWN: 0,
  INSUFFICIENT_BALANCE: 1,
  INVALID_PARAMS: 2,
  RATE_LIMIT: 3,
  EXCHANGE_BUSY: 4,
  NETWORK: 5,
  AUTH: 6,
  RISK: 100,
  POSITION_LIMIT: 101,
  KILL_SWITCH: 102,
  PRICE_DEVIATION: 103,
  DAILY_LOSS_LIMIT: 104,
} as const;
export type RejectCode = (typeof RejectCode)[keyof typeof RejectCode];

export interface OpenOrder {
  order_id: number;
  px_1e9: number;
  /** signed: positive buys */
  qty_1e8: number;
  filled_1e8: number;
  side: 1 | -1;
  status: OrderStatus;
}

export interface AlgoStateView {
  position_1e8: number;
  avg_entry_1e9: number;
  realized_pnl_1e9: number;
  unrealized_pnl_1e9: number;
  orders: readonly OpenOrder[];
}

export interface Action {
  order_id: number;
  px_1e9: number;
  qty_1e8: number;
  side: number;
  is_cancel: number;
  order_type: number;
}

/** A fill as the algo hears it. */
export interface AlgoFill {
  order_id: number;
  px_1e9: number;
  qty_1e8: number;
  recv_ns: number;
  side: 1 | -1;
}

/** One side of a book to copy: prices and sizes in parallel arrays, best first. */
export interface BookSide {
  count: number;
  px: ArrayLike<number>;
  qty: ArrayLike<number>;
}

const TWO_32 = 2 ** 32;

/**
 * Reads and writes ABI records in a module's memory. The views are taken again whenever the
 * memory grew (growth detaches the old buffer). The book and the state, written on every
 * callback, go through a Uint32Array when the record is 4-byte aligned (as every allocator of
 * repr(C) records with u64 fields gives): indexed stores cost a fraction of DataView calls,
 * before and after the JIT has optimised them; an unaligned record goes through the DataView.
 */
export class AbiMemory {
  private view: DataView;
  private words: Uint32Array;

  constructor(private readonly memory: WebAssembly.Memory) {
    this.view = new DataView(memory.buffer);
    this.words = new Uint32Array(memory.buffer);
  }

  private dv(): DataView {
    if (this.view.buffer !== this.memory.buffer) this.view = new DataView(this.memory.buffer);
    return this.view;
  }

  private u32(): Uint32Array {
    if (this.words.buffer !== this.memory.buffer) this.words = new Uint32Array(this.memory.buffer);
    return this.words;
  }

  get byteLength(): number {
    return this.memory.buffer.byteLength;
  }

  /** Writes an L2Book: at most 20 levels a side, zeroing the slots it does not use. */
  writeBook(ptr: number, bids: BookSide, asks: BookSide, symbolId: number, recvNs: number): void {
    if ((ptr & 3) !== 0) return this.writeBookUnaligned(ptr, bids, asks, symbolId, recvNs);
    const w = this.u32();
    const bidCt = Math.min(bids.count, MAX_LEVELS);
    const askCt = Math.min(asks.count, MAX_LEVELS);
    const base = ptr >>> 2;
    const asksBase = base + (BOOK_ASKS >>> 2);
    for (let i = 0; i < MAX_LEVELS; i++) {
      const b = base + i * 4;
      const a = asksBase + i * 4;
      if (i < bidCt) {
        const px = bids.px[i]!;
        const qty = bids.qty[i]!;
        w[b] = px >>> 0;
        w[b + 1] = (px / TWO_32) >>> 0;
        w[b + 2] = qty >>> 0;
        w[b + 3] = (qty / TWO_32) >>> 0;
      } else w[b] = w[b + 1] = w[b + 2] = w[b + 3] = 0;
      if (i < askCt) {
        const px = asks.px[i]!;
        const qty = asks.qty[i]!;
        w[a] = px >>> 0;
        w[a + 1] = (px / TWO_32) >>> 0;
        w[a + 2] = qty >>> 0;
        w[a + 3] = (qty / TWO_32) >>> 0;
      } else w[a] = w[a + 1] = w[a + 2] = w[a + 3] = 0;
    }
    const tail = base + (BOOK_BID_CT >>> 2);
    w[tail] = bidCt | (askCt << 8) | ((symbolId & 0xffff) << 16);
    w[tail + 1] = 0;
    w[tail + 2] = recvNs >>> 0;
    w[tail + 3] = Math.floor(recvNs / TWO_32) >>> 0;
  }

  private writeBookUnaligned(ptr: number, bids: BookSide, asks: BookSide, symbolId: number, recvNs: number): void {
    const v = this.dv();
    const bidCt = Math.min(bids.count, MAX_LEVELS);
    const askCt = Math.min(asks.count, MAX_LEVELS);
    for (let i = 0; i < MAX_LEVELS; i++) {
      const b = ptr + i * LEVEL_BYTES;
      putU64(v, b, i < bidCt ? bids.px[i]! : 0);
      putU64(v, b + 8, i < bidCt ? bids.qty[i]! : 0);
      const a = ptr + BOOK_ASKS + i * LEVEL_BYTES;
      putU64(v, a, i < askCt ? asks.px[i]! : 0);
      putU64(v, a + 8, i < askCt ? asks.qty[i]! : 0);
    }
    v.setUint8(ptr + BOOK_BID_CT, bidCt);
    v.setUint8(ptr + BOOK_BID_CT + 1, askCt);
    v.setUint16(ptr + BOOK_BID_CT + 2, symbolId, true);
    v.setUint32(ptr + BOOK_BID_CT + 4, 0, true);
    putU64(v, ptr + BOOK_BID_CT + 8, recvNs);
  }

  writeState(ptr: number, s: AlgoStateView): void {
    if ((ptr & 3) !== 0) return this.writeStateUnaligned(ptr, s);
    const w = this.u32();
    const base = ptr >>> 2;
    put64w(w, base, s.position_1e8);
    put64w(w, base + 2, s.avg_entry_1e9);
    put64w(w, base + 4, s.realized_pnl_1e9);
    put64w(w, base + 6, s.unrealized_pnl_1e9);
    const count = Math.min(s.orders.length, MAX_OPEN_ORDERS);
    for (let i = 0; i < MAX_OPEN_ORDERS; i++) {
      const o = base + ((STATE_ORDERS + i * OPEN_ORDER_BYTES) >>> 2);
      if (i < count) {
        const order = s.orders[i]!;
        put64w(w, o, order.order_id);
        put64w(w, o + 2, order.px_1e9);
        put64w(w, o + 4, order.qty_1e8);
        put64w(w, o + 6, order.filled_1e8);
        w[o + 8] = (order.side & 0xff) | ((order.status & 0xff) << 8);
      } else w[o] = w[o + 1] = w[o + 2] = w[o + 3] = w[o + 4] = w[o + 5] = w[o + 6] = w[o + 7] = w[o + 8] = 0;
      w[o + 9] = 0;
    }
    const tail = base + (STATE_ORDER_CT >>> 2);
    w[tail] = count;
    w[tail + 1] = 0;
  }

  private writeStateUnaligned(ptr: number, s: AlgoStateView): void {
    const v = this.dv();
    putI64(v, ptr, s.position_1e8);
    putU64(v, ptr + 8, s.avg_entry_1e9);
    putI64(v, ptr + 16, s.realized_pnl_1e9);
    putI64(v, ptr + 24, s.unrealized_pnl_1e9);
    const count = Math.min(s.orders.length, MAX_OPEN_ORDERS);
    for (let i = 0; i < MAX_OPEN_ORDERS; i++) {
      const o = ptr + STATE_ORDERS + i * OPEN_ORDER_BYTES;
      const order = i < count ? s.orders[i]! : undefined;
      putU64(v, o, order?.order_id ?? 0);
      putU64(v, o + 8, order?.px_1e9 ?? 0);
      putI64(v, o + 16, order?.qty_1e8 ?? 0);
      putI64(v, o + 24, order?.filled_1e8 ?? 0);
      v.setInt8(o + 32, order?.side ?? 0);
      v.setUint8(o + 33, order?.status ?? 0);
      for (let p = 34; p < OPEN_ORDER_BYTES; p++) v.setUint8(o + p, 0);
    }
    v.setUint8(ptr + STATE_ORDER_CT, count);
    for (let p = 1; p < 8; p++) v.setUint8(ptr + STATE_ORDER_CT + p, 0);
  }

  writeFill(ptr: number, f: AlgoFill): void {
    const v = this.dv();
    putU64(v, ptr, f.order_id);
    putU64(v, ptr + 8, f.px_1e9);
    putI64(v, ptr + 16, f.qty_1e8);
    putU64(v, ptr + 24, f.recv_ns);
    v.setInt8(ptr + 32, f.side);
    for (let p = 33; p < FILL_BYTES; p++) v.setUint8(ptr + p, 0);
  }

  writeReject(ptr: number, orderId: number, code: RejectCode): void {
    const v = this.dv();
    putU64(v, ptr, orderId);
    v.setUint8(ptr + 8, code);
    for (let p = 9; p < REJECT_BYTES; p++) v.setUint8(ptr + p, 0);
  }

  /**
   * The actions at `ptr` (a WasmActions) into `out` (reused objects); answers how many, or a
   * reason the record cannot be read (a count over 16, a record past the end of memory).
   */
  readActions(ptr: number, out: Action[]): number | string {
    if (ptr === 0) return 0;
    const v = this.dv();
    if (ptr + ACTIONS_BYTES > v.byteLength) return `actions pointer ${ptr} is outside the module's memory`;
    const count = v.getUint32(ptr, true);
    if (count > MAX_ACTIONS) return `returned ${count} actions; the ABI allows ${MAX_ACTIONS}`;
    for (let i = 0; i < count; i++) {
      const a = ptr + 8 + i * ACTION_BYTES;
      const action = (out[i] ??= { order_id: 0, px_1e9: 0, qty_1e8: 0, side: 0, is_cancel: 0, order_type: 0 });
      action.order_id = getU64(v, a);
      action.px_1e9 = getU64(v, a + 8);
      action.qty_1e8 = getI64(v, a + 16);
      action.side = v.getInt8(a + 24);
      action.is_cancel = v.getUint8(a + 25);
      action.order_type = v.getUint8(a + 26);
    }
    return count;
  }

  /** UTF-8 text of a log line or mesh message (bounded by the caller). */
  text(ptr: number, len: number): string | undefined {
    const buffer = this.memory.buffer;
    if (ptr < 0 || len < 0 || ptr + len > buffer.byteLength) return undefined;
    return DECODER.decode(new Uint8Array(buffer, ptr, len));
  }

  bytes(ptr: number, len: number): Uint8Array | undefined {
    const buffer = this.memory.buffer;
    if (ptr < 0 || len < 0 || ptr + len > buffer.byteLength) return undefined;
    return new Uint8Array(buffer, ptr, len).slice();
  }

  putBytes(ptr: number, bytes: Uint8Array): void {
    new Uint8Array(this.memory.buffer, ptr, bytes.length).set(bytes);
  }
}

const DECODER = new TextDecoder('utf-8', { fatal: false });

/** A u64 or an i64 at word `at`: the low word, then the high one (floor division gives a negative number's two's-complement high word). */
function put64w(w: Uint32Array, at: number, x: number): void {
  w[at] = x >>> 0;
  w[at + 1] = Math.floor(x / TWO_32) >>> 0;
}

function putU64(v: DataView, at: number, x: number): void {
  v.setUint32(at, x >>> 0, true);
  v.setUint32(at + 4, Math.floor(x / TWO_32) >>> 0, true);
}

function putI64(v: DataView, at: number, x: number): void {
  v.setUint32(at, x >>> 0, true);
  v.setInt32(at + 4, Math.floor(x / TWO_32) | 0, true);
}

/** NaN past 2^53: the caller refuses it rather than act on a rounded number. */
function getU64(v: DataView, at: number): number {
  const hi = v.getUint32(at + 4, true);
  return hi >= 0x200000 ? NaN : hi * TWO_32 + v.getUint32(at, true);
}

function getI64(v: DataView, at: number): number {
  const hi = v.getInt32(at + 4, true);
  return hi >= 0x200000 || hi < -0x200000 ? NaN : hi * TWO_32 + v.getUint32(at, true);
}
