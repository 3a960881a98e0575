/**
 * The algo ABI byte for byte (execution/algo/abi.ts): every record the host writes (L2Book,
 * AlgoState with its OpenOrders, Fill, Reject) read back with an independent DataView at the
 * offsets the ABI documents, prices above 2^32 and negative i64s exact, counts capped, unused
 * slots and padding zeroed over garbage; a WasmActions record built by hand decoded field by
 * field, refused when it is malformed, a u64 past 2^53 NaN rather than rounded. Then the
 * actions as order intents (orders.ts) with the deployment's lineage, the engine's answers as
 * the ABI's reject codes, and the artifact check (artifact.ts): every committed fixture passes,
 * hand-assembled modules without the callbacks or with a foreign import are refused by name, and
 * the memory cap written into the module holds (memory.grow past it fails, the hog fixture traps
 * at the cap).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ResultCode } from '../../execution/result-codes.ts';
import {
  AbiMemory,
  ACTION_BYTES,
  ACTIONS_BYTES,
  BOOK_BYTES,
  FILL_BYTES,
  LEVEL_BYTES,
  MAX_ACTIONS,
  MAX_LEVELS,
  MAX_OPEN_ORDERS,
  OPEN_ORDER_BYTES,
  OrderStatus,
  REJECT_BYTES,
  RejectCode,
  STATE_BYTES,
  type Action,
  type AlgoStateView,
  type OpenOrder,
} from '../../execution/algo/abi.ts';
import { capMemory, checkArtifact, leb, WASM_PAGE } from '../../execution/algo/artifact.ts';
import { actionIntent, failureCode, refusalCode } from '../../execution/algo/orders.ts';
import { WasmAlgo } from '../../execution/algo/wasm-algo.ts';
import type { DeploymentInstance } from '../../storage/deployments.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'algos');
const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(join(FIXTURES, name)));

/** BTC at 93,712.19 USD in 1e9 units: far above 2^32. */
const BTC_1E9 = 93_712_190_000_000;
const GARBAGE = 0xee;

/** A fresh one-page memory full of garbage, the codec over it, and an independent view. */
function memory(): { mem: AbiMemory; dv: DataView; raw: WebAssembly.Memory } {
  const raw = new WebAssembly.Memory({ initial: 1 });
  new Uint8Array(raw.buffer).fill(GARBAGE);
  return { mem: new AbiMemory(raw), dv: new DataView(raw.buffer), raw };
}

const u64 = (dv: DataView, at: number): bigint => dv.getBigUint64(at, true);
const i64 = (dv: DataView, at: number): bigint => dv.getBigInt64(at, true);

function assertZero(dv: DataView, from: number, to: number, what: string): void {
  for (let p = from; p < to; p++) assert.equal(dv.getUint8(p), 0, `${what}: byte ${p - from} is not zero`);
}

/** Writes a u64 as two halves (the test's own encoder, for building records by hand). */
function putU64(dv: DataView, at: number, x: bigint): void {
  dv.setBigUint64(at, x, true);
}

function order(id: number, over: Partial<OpenOrder> = {}): OpenOrder {
  return { order_id: id, px_1e9: BTC_1E9 + id, qty_1e8: 1_000_000 * id, filled_1e8: 0, side: 1, status: OrderStatus.ACKED, ...over };
}

function state(orders: OpenOrder[], over: Partial<AlgoStateView> = {}): AlgoStateView {
  return { position_1e8: 0, avg_entry_1e9: 0, realized_pnl_1e9: 0, unrealized_pnl_1e9: 0, orders, ...over };
}

describe('ABI sizes', () => {
  it('match the layouts (algo.h asserts the same at compile time)', () => {
    assert.equal(LEVEL_BYTES, 16);
    assert.equal(BOOK_BYTES, 656);
    assert.equal(STATE_BYTES, 1320);
    assert.equal(ACTION_BYTES, 32);
    assert.equal(ACTIONS_BYTES, 520);
    assert.equal(FILL_BYTES, 40);
    assert.equal(REJECT_BYTES, 16);
    assert.equal(OPEN_ORDER_BYTES, 40);
    assert.equal(MAX_LEVELS, 20);
    assert.equal(MAX_OPEN_ORDERS, 32);
    assert.equal(MAX_ACTIONS, 16);
    // The derived sizes agree with the field offsets.
    assert.equal(2 * MAX_LEVELS * LEVEL_BYTES + 16, BOOK_BYTES);
    assert.equal(32 + MAX_OPEN_ORDERS * OPEN_ORDER_BYTES + 8, STATE_BYTES);
    assert.equal(8 + MAX_ACTIONS * ACTION_BYTES, ACTIONS_BYTES);
  });
});

describe('AbiMemory.writeBook (L2Book, 656 B)', () => {
  const PTR = 4096;

  it('puts levels, counts, symbol_id and recv_ns at their offsets, prices above 2^32 exact', () => {
    const { mem, dv } = memory();
    const bids = { count: 3, px: new Float64Array([BTC_1E9, BTC_1E9 - 10_000_000, BTC_1E9 - 2 ** 40]), qty: new Float64Array([12_345_678, 2 ** 33 + 7, 1]) };
    const asks = { count: 2, px: [BTC_1E9 + 10_000_000, Number.MAX_SAFE_INTEGER], qty: [50_000_000, 2 ** 52] };
    const recvNs = 1_764_000_123_456_789; // below 2^53
    mem.writeBook(PTR, bids, asks, 0xbeef, recvNs);

    for (let i = 0; i < 3; i++) {
      assert.equal(u64(dv, PTR + i * 16), BigInt(bids.px[i]!), `bid ${i} px`);
      assert.equal(u64(dv, PTR + i * 16 + 8), BigInt(bids.qty[i]!), `bid ${i} sz`);
    }
    assert.equal(u64(dv, PTR + 320), BigInt(BTC_1E9 + 10_000_000));
    assert.equal(u64(dv, PTR + 328), 50_000_000n);
    assert.equal(u64(dv, PTR + 336), 9_007_199_254_740_991n);
    assert.equal(u64(dv, PTR + 344), 2n ** 52n);
    assert.equal(dv.getUint8(PTR + 640), 3);
    assert.equal(dv.getUint8(PTR + 641), 2);
    assert.equal(dv.getUint16(PTR + 642, true), 0xbeef);
    assert.equal(dv.getUint32(PTR + 644, true), 0, '_pad');
    assert.equal(u64(dv, PTR + 648), BigInt(recvNs));
    // Unused levels are zero, the bytes around the record are untouched.
    assertZero(dv, PTR + 3 * 16, PTR + 320, 'unused bids');
    assertZero(dv, PTR + 320 + 2 * 16, PTR + 640, 'unused asks');
    assert.equal(dv.getUint8(PTR - 1), GARBAGE);
    assert.equal(dv.getUint8(PTR + BOOK_BYTES), GARBAGE);
  });

  it('writes at most 20 levels a side and caps the counts at 20', () => {
    const { mem, dv } = memory();
    const n = 25;
    const bidPx = Array.from({ length: n }, (_, i) => BTC_1E9 - i * 1_000_000_000);
    const askPx = Array.from({ length: n }, (_, i) => BTC_1E9 + (i + 1) * 1_000_000_000);
    const qty = Array.from({ length: n }, (_, i) => (i + 1) * 100_000);
    mem.writeBook(PTR, { count: n, px: bidPx, qty }, { count: n, px: askPx, qty }, 7, 1);
    assert.equal(dv.getUint8(PTR + 640), 20);
    assert.equal(dv.getUint8(PTR + 641), 20);
    for (let i = 0; i < 20; i++) {
      assert.equal(u64(dv, PTR + i * 16), BigInt(bidPx[i]!));
      assert.equal(u64(dv, PTR + i * 16 + 8), BigInt(qty[i]!));
      assert.equal(u64(dv, PTR + 320 + i * 16), BigInt(askPx[i]!));
      assert.equal(u64(dv, PTR + 320 + i * 16 + 8), BigInt(qty[i]!));
    }
    // Bid 21 did not spill into asks[0], ask 21 not into the counts.
    assert.equal(u64(dv, PTR + 320), BigInt(askPx[0]!));
    assert.equal(dv.getUint16(PTR + 642, true), 7);
    assert.equal(u64(dv, PTR + 648), 1n);
    assert.equal(dv.getUint8(PTR + BOOK_BYTES), GARBAGE);
  });

  it('zeroes the levels a shallower book leaves unused (20 levels, then 2)', () => {
    const { mem, dv } = memory();
    const deep = Array.from({ length: 20 }, (_, i) => BTC_1E9 + i);
    mem.writeBook(PTR, { count: 20, px: deep, qty: deep }, { count: 20, px: deep, qty: deep }, 1, 5);
    mem.writeBook(PTR, { count: 2, px: [100, 99], qty: [1, 2] }, { count: 2, px: [101, 102], qty: [3, 4] }, 2, 6);
    assert.equal(dv.getUint8(PTR + 640), 2);
    assert.equal(dv.getUint8(PTR + 641), 2);
    assert.deepEqual([u64(dv, PTR), u64(dv, PTR + 8), u64(dv, PTR + 16), u64(dv, PTR + 24)], [100n, 1n, 99n, 2n]);
    assert.deepEqual([u64(dv, PTR + 320), u64(dv, PTR + 328), u64(dv, PTR + 336), u64(dv, PTR + 344)], [101n, 3n, 102n, 4n]);
    assertZero(dv, PTR + 2 * 16, PTR + 320, 'bids 2..19');
    assertZero(dv, PTR + 320 + 2 * 16, PTR + 640, 'asks 2..19');
  });

  it('writes a recv_ns of ns since the epoch (Date.now() * 1e6, above 2^53) as the exact integer of that double', () => {
    const { mem, dv } = memory();
    const ns = 1_764_000_000_123 * 1e6;
    assert.ok(ns > Number.MAX_SAFE_INTEGER);
    mem.writeBook(PTR, { count: 0, px: [], qty: [] }, { count: 0, px: [], qty: [] }, 0, ns);
    assert.equal(u64(dv, PTR + 648), BigInt(ns));
  });

  it('writes an empty side as count 0 and zero levels', () => {
    const { mem, dv } = memory();
    mem.writeBook(PTR, { count: 0, px: [], qty: [] }, { count: 1, px: [5], qty: [6] }, 0, 0);
    assert.equal(dv.getUint8(PTR + 640), 0);
    assert.equal(dv.getUint8(PTR + 641), 1);
    assertZero(dv, PTR, PTR + 320, 'bids');
    assert.equal(u64(dv, PTR + 320), 5n);
  });

  it('keeps writing after the memory grew (a grow detaches the old buffer)', () => {
    const { mem, raw } = memory();
    mem.writeBook(PTR, { count: 1, px: [1], qty: [1] }, { count: 1, px: [2], qty: [2] }, 0, 0);
    assert.equal(mem.byteLength, WASM_PAGE);
    raw.grow(1);
    assert.equal(mem.byteLength, 2 * WASM_PAGE);
    const far = WASM_PAGE + 100;
    mem.writeBook(far, { count: 1, px: [BTC_1E9], qty: [3] }, { count: 1, px: [BTC_1E9 + 1], qty: [4] }, 9, 10);
    const dv = new DataView(raw.buffer);
    assert.equal(u64(dv, far), BigInt(BTC_1E9));
    assert.equal(u64(dv, far + 320), BigInt(BTC_1E9 + 1));
    assert.equal(dv.getUint16(far + 642, true), 9);
  });
});

describe('AbiMemory.writeState (AlgoState, 1320 B; OpenOrder 40 B)', () => {
  const PTR = 8192;

  it('puts a short position, the average entry and negative PnL at their offsets, each order field at its own', () => {
    const { mem, dv } = memory();
    const orders = [
      order(1, { px_1e9: BTC_1E9, qty_1e8: 1_000_000, filled_1e8: 250_000, side: 1, status: OrderStatus.PARTIAL }),
      order(2 ** 40, { px_1e9: BTC_1E9 + 5_000_000_000, qty_1e8: -250_000_000, filled_1e8: 0, side: -1, status: OrderStatus.PENDING }),
      order(3, { px_1e9: 1, qty_1e8: -1, filled_1e8: 1, side: -1, status: OrderStatus.DEAD }),
    ];
    mem.writeState(PTR, state(orders, { position_1e8: -250_000_000, avg_entry_1e9: BTC_1E9, realized_pnl_1e9: -12_345_678_901_234, unrealized_pnl_1e9: -(2 ** 50) }));

    assert.equal(i64(dv, PTR), -250_000_000n);
    assert.equal(u64(dv, PTR + 8), BigInt(BTC_1E9));
    assert.equal(i64(dv, PTR + 16), -12_345_678_901_234n);
    assert.equal(i64(dv, PTR + 24), -(2n ** 50n));
    const o = (i: number) => PTR + 32 + i * 40;
    assert.deepEqual(
      [0, 1, 2].map((i) => [u64(dv, o(i)), u64(dv, o(i) + 8), i64(dv, o(i) + 16), i64(dv, o(i) + 24), dv.getInt8(o(i) + 32), dv.getUint8(o(i) + 33)]),
      [
        [1n, BigInt(BTC_1E9), 1_000_000n, 250_000n, 1, 2],
        [2n ** 40n, BigInt(BTC_1E9 + 5_000_000_000), -250_000_000n, 0n, -1, 0],
        [3n, 1n, -1n, 1n, -1, 3],
      ],
    );
    for (let i = 0; i < 3; i++) assertZero(dv, o(i) + 34, o(i) + 40, `order ${i} _pad`);
    assertZero(dv, o(3), PTR + 1312, 'unused order slots 3..31');
    assert.equal(dv.getUint8(PTR + 1312), 3, 'order_ct');
    assertZero(dv, PTR + 1313, PTR + 1320, 'state _pad');
    assert.equal(dv.getUint8(PTR - 1), GARBAGE);
    assert.equal(dv.getUint8(PTR + STATE_BYTES), GARBAGE);
  });

  it('writes a state without orders as 32 zero slots and order_ct 0', () => {
    const { mem, dv } = memory();
    mem.writeState(PTR, state([], { position_1e8: 7 }));
    assert.equal(i64(dv, PTR), 7n);
    assertZero(dv, PTR + 8, PTR + 1320, 'everything after the position');
  });

  it('clears slots a previous state used', () => {
    const { mem, dv } = memory();
    mem.writeState(PTR, state(Array.from({ length: 5 }, (_, i) => order(i + 1))));
    mem.writeState(PTR, state([order(9)]));
    assert.equal(dv.getUint8(PTR + 1312), 1);
    assert.equal(u64(dv, PTR + 32), 9n);
    assertZero(dv, PTR + 32 + 40, PTR + 1312, 'slots 1..31');
  });

  it('writes at most 32 orders: 33 give order_ct 32 and the 33rd is not written', () => {
    const { mem, dv } = memory();
    const orders = Array.from({ length: 33 }, (_, i) => order(i + 1, { side: i % 2 === 0 ? 1 : -1, qty_1e8: (i % 2 === 0 ? 1 : -1) * (i + 1) }));
    mem.writeState(PTR, state(orders));
    assert.equal(dv.getUint8(PTR + 1312), 32);
    for (let i = 0; i < 32; i++) {
      const at = PTR + 32 + i * 40;
      assert.equal(u64(dv, at), BigInt(i + 1));
      assert.equal(i64(dv, at + 16), BigInt((i % 2 === 0 ? 1 : -1) * (i + 1)));
      assert.equal(dv.getInt8(at + 32), i % 2 === 0 ? 1 : -1);
    }
    assertZero(dv, PTR + 1313, PTR + 1320, 'state _pad');
    assert.equal(dv.getUint8(PTR + STATE_BYTES), GARBAGE, 'the 33rd order did not run past the record');
  });
});

describe('AbiMemory.writeFill / writeReject', () => {
  it('writes a Fill (40 B) with its fields at 0, 8, 16, 24, 32 and zero padding', () => {
    const { mem, dv } = memory();
    const PTR = 512;
    mem.writeFill(PTR, { order_id: 2 ** 35 + 3, px_1e9: BTC_1E9, qty_1e8: 250_000_000, recv_ns: 1_764_000_000_000_000, side: -1 });
    assert.equal(u64(dv, PTR), 2n ** 35n + 3n);
    assert.equal(u64(dv, PTR + 8), BigInt(BTC_1E9));
    assert.equal(i64(dv, PTR + 16), 250_000_000n);
    assert.equal(u64(dv, PTR + 24), 1_764_000_000_000_000n);
    assert.equal(dv.getInt8(PTR + 32), -1);
    assertZero(dv, PTR + 33, PTR + 40, 'fill _pad');
    assert.equal(dv.getUint8(PTR + FILL_BYTES), GARBAGE);

    mem.writeFill(PTR, { order_id: 1, px_1e9: 2, qty_1e8: -3, recv_ns: 0, side: 1 });
    assert.equal(i64(dv, PTR + 16), -3n, 'qty is signed');
    assert.equal(dv.getInt8(PTR + 32), 1);
  });

  it('writes a Reject (16 B): order_id at 0, code at 8, zero padding', () => {
    const { mem, dv } = memory();
    const PTR = 2048;
    for (const code of [RejectCode.UNKNOWN, RejectCode.INSUFFICIENT_BALANCE, RejectCode.RISK, RejectCode.KILL_SWITCH, RejectCode.DAILY_LOSS_LIMIT]) {
      mem.writeReject(PTR, 2 ** 33 + code, code);
      assert.equal(u64(dv, PTR), 2n ** 33n + BigInt(code));
      assert.equal(dv.getUint8(PTR + 8), code);
      assertZero(dv, PTR + 9, PTR + 16, 'reject _pad');
      assert.equal(dv.getUint8(PTR + REJECT_BYTES), GARBAGE);
    }
  });
});

describe('AbiMemory.readActions (WasmActions, 520 B)', () => {
  const PTR = 1024;

  function putAction(dv: DataView, i: number, a: { id: bigint; px: bigint; qty: bigint; side: number; cancel: number; type: number }): void {
    const at = PTR + 8 + i * 32;
    putU64(dv, at, a.id);
    putU64(dv, at + 8, a.px);
    dv.setBigInt64(at + 16, a.qty, true);
    dv.setInt8(at + 24, a.side);
    dv.setUint8(at + 25, a.cancel);
    dv.setUint8(at + 26, a.type);
  }

  it('decodes a limit buy, a market sell and a cancel field by field', () => {
    const { mem, dv } = memory();
    dv.setUint32(PTR, 3, true);
    dv.setUint32(PTR + 4, 0xdeadbeef, true); // _pad: ignored
    putAction(dv, 0, { id: 1n, px: BigInt(BTC_1E9), qty: 1_000_000n, side: 1, cancel: 0, type: 0 });
    putAction(dv, 1, { id: 2n ** 40n, px: 0n, qty: 250_000_000n, side: -1, cancel: 0, type: 1 });
    putAction(dv, 2, { id: 1n, px: 0n, qty: 0n, side: 0, cancel: 1, type: 0 });
    const out: Action[] = [];
    assert.equal(mem.readActions(PTR, out), 3);
    assert.deepEqual(out, [
      { order_id: 1, px_1e9: BTC_1E9, qty_1e8: 1_000_000, side: 1, is_cancel: 0, order_type: 0 },
      { order_id: 2 ** 40, px_1e9: 0, qty_1e8: 250_000_000, side: -1, is_cancel: 0, order_type: 1 },
      { order_id: 1, px_1e9: 0, qty_1e8: 0, side: 0, is_cancel: 1, order_type: 0 },
    ]);
  });

  it('reuses the objects of `out` and decodes a negative qty as negative', () => {
    const { mem, dv } = memory();
    const out: Action[] = [];
    dv.setUint32(PTR, 1, true);
    putAction(dv, 0, { id: 5n, px: 6n, qty: -7n, side: -1, cancel: 0, type: 3 });
    assert.equal(mem.readActions(PTR, out), 1);
    const first = out[0];
    putAction(dv, 0, { id: 8n, px: 9n, qty: 10n, side: 1, cancel: 0, type: 2 });
    assert.equal(mem.readActions(PTR, out), 1);
    assert.equal(out[0], first, 'the same object');
    assert.deepEqual(out[0], { order_id: 8, px_1e9: 9, qty_1e8: 10, side: 1, is_cancel: 0, order_type: 2 });
    putAction(dv, 0, { id: 5n, px: 6n, qty: -7n, side: -1, cancel: 0, type: 3 });
    mem.readActions(PTR, out);
    assert.equal(out[0]!.qty_1e8, -7);
  });

  it('answers 0 for pointer 0 and for count 0', () => {
    const { mem, dv } = memory();
    assert.equal(mem.readActions(0, []), 0);
    dv.setUint32(PTR, 0, true);
    assert.equal(mem.readActions(PTR, []), 0);
  });

  it('accepts 16 actions and refuses 17 with a reason', () => {
    const { mem, dv } = memory();
    for (let i = 0; i < 16; i++) putAction(dv, i, { id: BigInt(i + 1), px: 1n, qty: 1n, side: 1, cancel: 0, type: 0 });
    dv.setUint32(PTR, 16, true);
    const out: Action[] = [];
    assert.equal(mem.readActions(PTR, out), 16);
    assert.deepEqual(out.map((a) => a.order_id), Array.from({ length: 16 }, (_, i) => i + 1));
    dv.setUint32(PTR, 17, true);
    const refused = mem.readActions(PTR, out);
    assert.equal(typeof refused, 'string');
    assert.match(String(refused), /17 actions.*16/);
    dv.setUint32(PTR, 0xffffffff, true);
    assert.equal(typeof mem.readActions(PTR, out), 'string');
  });

  it('refuses a record that runs past the end of memory', () => {
    const { mem } = memory();
    assert.match(String(mem.readActions(WASM_PAGE - ACTIONS_BYTES + 1, [])), /outside the module's memory/);
    assert.match(String(mem.readActions(WASM_PAGE + 64, [])), /outside the module's memory/);
    // The last place a whole record fits is read (the garbage count is refused, but not as outside).
    assert.match(String(mem.readActions(WASM_PAGE - ACTIONS_BYTES, [])), /actions; the ABI allows 16/);
  });

  it('decodes a u64 at 2^53 or above as NaN, 2^53 - 1 exactly, and actionIntent refuses the NaN', () => {
    const { mem, dv } = memory();
    dv.setUint32(PTR, 4, true);
    putAction(dv, 0, { id: 2n ** 53n - 1n, px: 2n ** 53n - 1n, qty: 2n ** 53n - 1n, side: 1, cancel: 0, type: 0 });
    putAction(dv, 1, { id: 2n ** 53n, px: 1n, qty: 1n, side: 1, cancel: 0, type: 0 });
    putAction(dv, 2, { id: 3n, px: 2n ** 64n - 1n, qty: 1n, side: 1, cancel: 0, type: 0 });
    putAction(dv, 3, { id: 4n, px: 1n, qty: 2n ** 62n, side: 1, cancel: 0, type: 1 });
    const out: Action[] = [];
    assert.equal(mem.readActions(PTR, out), 4);
    assert.equal(out[0]!.order_id, Number.MAX_SAFE_INTEGER);
    assert.equal(out[0]!.px_1e9, Number.MAX_SAFE_INTEGER);
    assert.equal(out[0]!.qty_1e8, Number.MAX_SAFE_INTEGER);
    assert.ok(Number.isNaN(out[1]!.order_id));
    assert.ok(Number.isNaN(out[2]!.px_1e9));
    assert.ok(Number.isNaN(out[3]!.qty_1e8));
    assert.equal(out[3]!.order_id, 4);

    const bad = [1, 2, 3].map((i) => actionIntent(out[i]!, INSTANCE, 'dep-1'));
    assert.deepEqual(bad.map((b) => b.t), ['invalid', 'invalid', 'invalid']);
    assert.equal(bad[0]!.order_id, 0, 'a NaN id is answered as 0');
    assert.match(bad[0]!.t === 'invalid' ? bad[0]!.reason : '', /order_id NaN/);
    assert.match(bad[1]!.t === 'invalid' ? bad[1]!.reason : '', /px_1e9 NaN/);
    assert.match(bad[2]!.t === 'invalid' ? bad[2]!.reason : '', /qty_1e8 NaN/);
  });
});

const INSTANCE: DeploymentInstance = { edge_id: 'edge-binance-1', venue: 'binance', symbol: 'BTC-USD', instrument_type: 'perp', symbol_id: 3 };

function action(over: Partial<Action>): Action {
  return { order_id: 7, px_1e9: BTC_1E9, qty_1e8: 1_000_000, side: 1, is_cancel: 0, order_type: 0, ...over };
}

describe('actionIntent', () => {
  const lineage = { instrument: { symbol: 'BTC-USD', type: 'perp' as const }, venue: 'binance', lineage_deployment_id: 'dep-42' };

  it('maps order_type 0 to a limit GTC at the limit price, with the lineage, venue and instrument', () => {
    assert.deepEqual(actionIntent(action({ order_type: 0 }), INSTANCE, 'dep-42'), {
      t: 'order',
      order_id: 7,
      side: 1,
      qty_1e8: 1_000_000,
      px_1e9: BTC_1E9,
      request: { ...lineage, side: 'buy', qty_1e8: 1_000_000, order_type: 'limit', limit_price_1e9: BTC_1E9, time_in_force: 'gtc' },
    });
  });

  it('maps 1 to a market order (no price needed), 2 to a limit IOC, 3 to a limit FOK', () => {
    const market = actionIntent(action({ order_type: 1, px_1e9: 0, side: -1 }), INSTANCE, 'dep-42');
    assert.deepEqual(market, { t: 'order', order_id: 7, side: -1, qty_1e8: 1_000_000, px_1e9: 0, request: { ...lineage, side: 'sell', qty_1e8: 1_000_000, order_type: 'market' } });
    const ioc = actionIntent(action({ order_type: 2 }), INSTANCE, 'dep-42');
    assert.equal(ioc.t, 'order');
    if (ioc.t === 'order') assert.deepEqual(ioc.request, { ...lineage, side: 'buy', qty_1e8: 1_000_000, order_type: 'limit', limit_price_1e9: BTC_1E9, time_in_force: 'ioc' });
    const fok = actionIntent(action({ order_type: 3, side: -1 }), INSTANCE, 'dep-42');
    assert.equal(fok.t, 'order');
    if (fok.t === 'order') assert.deepEqual(fok.request, { ...lineage, side: 'sell', qty_1e8: 1_000_000, order_type: 'limit', limit_price_1e9: BTC_1E9, time_in_force: 'fok' });
  });

  it('carries the lineage, venue and instrument of the instance on every order', () => {
    const spot: DeploymentInstance = { edge_id: 'e2', venue: 'kraken', symbol: 'ETH-USD', instrument_type: 'spot', symbol_id: 0 };
    for (const order_type of [0, 1, 2, 3]) {
      const intent = actionIntent(action({ order_type }), spot, 'dep-spot');
      assert.equal(intent.t, 'order');
      if (intent.t !== 'order') continue;
      assert.equal(intent.request.lineage_deployment_id, 'dep-spot');
      assert.equal(intent.request.venue, 'kraken');
      assert.deepEqual(intent.request.instrument, { symbol: 'ETH-USD', type: 'spot' });
      assert.equal('client_order_id' in intent.request, false, 'the host adds the client_order_id');
    }
  });

  it('refuses post-only, an unknown order_type, a bad side, a zero or negative qty, a limit without a price, id 0', () => {
    const cases: [Partial<Action>, RegExp][] = [
      [{ order_type: 4 }, /post-only/],
      [{ order_type: 9 }, /order_type 9/],
      [{ side: 2 }, /side 2/],
      [{ side: -2 }, /side -2/],
      [{ qty_1e8: 0 }, /qty_1e8 0/],
      [{ qty_1e8: -5 }, /qty_1e8 -5/],
      [{ qty_1e8: 1.5 }, /qty_1e8 1.5/],
      [{ px_1e9: 0, order_type: 0 }, /px_1e9 0/],
      [{ px_1e9: 0, order_type: 2 }, /px_1e9 0/],
      [{ px_1e9: 0, order_type: 3 }, /px_1e9 0/],
      [{ order_id: 0 }, /order_id 0/],
    ];
    for (const [over, reason] of cases) {
      const intent = actionIntent(action(over), INSTANCE, 'dep-42');
      assert.equal(intent.t, 'invalid', JSON.stringify(over));
      if (intent.t === 'invalid') {
        assert.match(intent.reason, reason);
        assert.equal(intent.order_id, over.order_id ?? 7);
      }
    }
  });

  it('maps is_cancel (or side 0) to a cancel of that id, whatever the other fields', () => {
    assert.deepEqual(actionIntent(action({ is_cancel: 1, side: 0, qty_1e8: 0, px_1e9: 0 }), INSTANCE, 'd'), { t: 'cancel', order_id: 7 });
    assert.deepEqual(actionIntent(action({ is_cancel: 1, side: 1, order_type: 9 }), INSTANCE, 'd'), { t: 'cancel', order_id: 7 });
    assert.deepEqual(actionIntent(action({ is_cancel: 0, side: 0 }), INSTANCE, 'd'), { t: 'cancel', order_id: 7 });
    assert.equal(actionIntent(action({ is_cancel: 1, order_id: 0 }), INSTANCE, 'd').t, 'invalid', 'a cancel needs an id');
  });
});

describe('refusalCode / failureCode', () => {
  it('maps the engine refusals', () => {
    assert.equal(refusalCode(ResultCode.DISPATCH_HALTED), 102);
    assert.equal(refusalCode(ResultCode.DISPATCH_HALTED), RejectCode.KILL_SWITCH);
    assert.equal(refusalCode(ResultCode.INVALID_FIELD), RejectCode.INVALID_PARAMS);
    assert.equal(refusalCode(ResultCode.UNKNOWN_SYMBOL), RejectCode.INVALID_PARAMS);
    assert.equal(refusalCode(ResultCode.IDEMPOTENCY_CONFLICT), RejectCode.INVALID_PARAMS);
    assert.equal(refusalCode(ResultCode.JOURNAL_UNAVAILABLE), RejectCode.EXCHANGE_BUSY);
    assert.equal(refusalCode(ResultCode.ORDER_NOT_FOUND), 0);
    assert.equal(refusalCode(-1), 0);
  });

  it('maps the failure classes of a rejected order', () => {
    const table: [string | null, string | null, number][] = [
      ['kill_switch', null, 102],
      ['risk_notional_cap', null, 100],
      ['risk_lineage', 'no running deployment', 100],
      ['insufficient_balance', null, 1],
      ['insufficient_margin', null, 1],
      ['insufficient_gas', null, 1],
      ['no_route', 'binance: no_credentials for this client', 6],
      ['no_route', 'no venue quotes BTC-USD', 4],
      ['no_route', null, 4],
      ['fok_unfillable', null, 4],
      ['insufficient_balance', 'no_credentials', 1],
      ['venue_error', null, 0],
      [null, null, 0],
      [null, 'no_credentials', 0],
    ];
    for (const [cls, reason, code] of table) assert.equal(failureCode(cls, reason), code, `${cls} / ${reason}`);
    assert.equal(failureCode('no_route'), 4, 'reason defaults to null');
  });
});

// ---------------------------------------------------------------- hand-assembled modules

const wasmName = (s: string): number[] => {
  const b = [...new TextEncoder().encode(s)];
  return [...leb(b.length), ...b];
};

const section = (id: number, payload: number[]): number[] => [id, ...leb(payload.length), ...payload];

interface ModuleSpec {
  /** function imports (type () -> ()), or a memory import */
  imports?: { module: string; name: string; kind?: 'function' | 'memory' }[];
  /** exported function names (each its own empty function); 'memory' exports the memory */
  exports: string[];
  /** the module's own memory; omitted: none */
  memory?: { min: number; max?: number };
}

/** A tiny valid module: one type () -> (), empty functions, the sections in order. */
function buildModule(spec: ModuleSpec): Uint8Array {
  const imports = spec.imports ?? [];
  const importedFns = imports.filter((i) => (i.kind ?? 'function') === 'function').length;
  const fns = spec.exports.filter((e) => e !== 'memory');
  const bytes = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  bytes.push(...section(1, [0x01, 0x60, 0x00, 0x00]));
  if (imports.length > 0) {
    const payload = [...leb(imports.length)];
    for (const i of imports) {
      payload.push(...wasmName(i.module), ...wasmName(i.name));
      if ((i.kind ?? 'function') === 'function') payload.push(0x00, 0x00);
      else payload.push(0x02, 0x00, 0x01);
    }
    bytes.push(...section(2, payload));
  }
  bytes.push(...section(3, [...leb(fns.length), ...fns.map(() => 0x00)]));
  if (spec.memory !== undefined) {
    const { min, max } = spec.memory;
    bytes.push(...section(5, max === undefined ? [0x01, 0x00, ...leb(min)] : [0x01, 0x01, ...leb(min), ...leb(max)]));
  }
  const exp = [...leb(spec.exports.length)];
  let f = importedFns;
  for (const e of spec.exports) exp.push(...wasmName(e), ...(e === 'memory' ? [0x02, 0x00] : [0x00, ...leb(f++)]));
  bytes.push(...section(7, exp));
  bytes.push(...section(10, [...leb(fns.length), ...fns.flatMap(() => [0x02, 0x00, 0x0b])]));
  return new Uint8Array(bytes);
}

const CALLBACKS = ['algo_alloc', 'algo_on_book', 'algo_on_fill', 'algo_on_reject', 'algo_on_shutdown'];

/** The exported memory of an instance of `module` (imports answered by no-ops). */
function memoryOf(module: WebAssembly.Module): WebAssembly.Memory {
  const noop = () => 0;
  const instance = new WebAssembly.Instance(module, { env: { host_log_impl: noop, host_mesh_send: noop } });
  const memory = instance.exports['memory'];
  assert.ok(memory instanceof WebAssembly.Memory);
  return memory;
}

describe('checkArtifact', () => {
  const MiB = 1 << 20;

  it('passes every committed fixture, with has_mesh only for the mesh algos', () => {
    const names = readdirSync(FIXTURES).filter((n) => n.endsWith('.wasm'));
    assert.ok(names.length >= 9, names.join(', '));
    for (const name of names) {
      const check = checkArtifact(fixture(name), 64 * MiB);
      assert.ok(check.ok, `${name}: ${check.ok ? '' : check.message}`);
      if (check.ok) assert.equal(check.has_mesh, name.startsWith('mesh-'), name);
    }
  });

  it('refuses random bytes as not valid WebAssembly', () => {
    let seed = 12345;
    const random = Uint8Array.from({ length: 1000 }, () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) & 0xff);
    assert.deepEqual(checkArtifact(random, 64 * MiB), { ok: false, message: 'artifact is not a valid WebAssembly module' });
    assert.equal(checkArtifact(new Uint8Array(0), 64 * MiB).ok, false);
    const truncated = fixture('healthy.wasm').subarray(0, 100);
    assert.deepEqual(checkArtifact(truncated, 64 * MiB), { ok: false, message: 'artifact is not a valid WebAssembly module' });
  });

  it('accepts a hand-assembled module with the callbacks and memory (the builder is right)', () => {
    const check = checkArtifact(buildModule({ exports: ['memory', ...CALLBACKS], memory: { min: 1 } }), 64 * MiB);
    assert.ok(check.ok, check.ok ? '' : check.message);
  });

  it('names the missing exports of a module that exports only its memory', () => {
    const check = checkArtifact(buildModule({ exports: ['memory'], memory: { min: 1 } }), 64 * MiB);
    assert.equal(check.ok, false);
    if (!check.ok) assert.equal(check.message, "artifact does not export algo_alloc, algo_on_book, algo_on_fill, algo_on_reject, algo_on_shutdown (the algo ABI's callbacks)");
    const oneShort = checkArtifact(buildModule({ exports: ['memory', ...CALLBACKS.filter((c) => c !== 'algo_on_reject')], memory: { min: 1 } }), 64 * MiB);
    assert.equal(oneShort.ok, false);
    if (!oneShort.ok) assert.match(oneShort.message, /does not export algo_on_reject \(/);
  });

  it('refuses a module that does not export its memory as `memory`', () => {
    const check = checkArtifact(buildModule({ exports: CALLBACKS, memory: { min: 1 } }), 64 * MiB);
    assert.equal(check.ok, false);
    if (!check.ok) assert.match(check.message, /does not export its memory as `memory`/);
  });

  it('refuses an import the host does not provide, naming it', () => {
    const check = checkArtifact(buildModule({ imports: [{ module: 'env', name: 'host_log_impl' }, { module: 'env', name: 'other' }], exports: ['memory', ...CALLBACKS], memory: { min: 1 } }), 64 * MiB);
    assert.equal(check.ok, false);
    if (!check.ok) assert.equal(check.message, 'artifact imports env.other (function); the host provides only env.host_log_impl, env.host_mesh_send');
    const wasi = checkArtifact(buildModule({ imports: [{ module: 'wasi_snapshot_preview1', name: 'fd_write' }], exports: ['memory', ...CALLBACKS], memory: { min: 1 } }), 64 * MiB);
    assert.equal(wasi.ok, false);
    if (!wasi.ok) assert.match(wasi.message, /imports wasi_snapshot_preview1\.fd_write \(function\)/);
  });

  it('refuses an imported memory', () => {
    const check = checkArtifact(buildModule({ imports: [{ module: 'env', name: 'memory', kind: 'memory' }], exports: ['memory', ...CALLBACKS] }), 64 * MiB);
    assert.equal(check.ok, false);
    if (!check.ok) assert.match(check.message, /imports env\.memory \(memory\)/);
  });

  it('refuses a module whose initial memory is over the cap', () => {
    const check = checkArtifact(buildModule({ exports: ['memory', ...CALLBACKS], memory: { min: 100 } }), 4 * MiB);
    assert.deepEqual(check, { ok: false, message: 'artifact asks for 6400 KiB of initial memory; the cap is 4096 KiB' });
  });
});

describe('capMemory', () => {
  it('writes the cap as the maximum of a fixture memory: growing past it fails', () => {
    const bytes = fixture('healthy.wasm');
    const capped = capMemory(bytes, 10);
    assert.ok(capped instanceof Uint8Array);
    assert.notEqual(capped, bytes);
    assert.ok(WebAssembly.validate(capped));
    const memory = memoryOf(new WebAssembly.Module(capped));
    assert.equal(memory.buffer.byteLength, 2 * WASM_PAGE, 'the initial size is kept');
    assert.equal(memory.grow(8), 2);
    assert.equal(memory.buffer.byteLength, 10 * WASM_PAGE);
    assert.throws(() => memory.grow(1), RangeError);
    // Uncapped, the same module grows past it.
    assert.equal(memoryOf(new WebAssembly.Module(bytes)).grow(20), 2);
    // The rest of the module is unchanged: same exports and imports.
    assert.deepEqual(WebAssembly.Module.exports(new WebAssembly.Module(capped)), WebAssembly.Module.exports(new WebAssembly.Module(bytes)));
    assert.deepEqual(WebAssembly.Module.imports(new WebAssembly.Module(capped)), WebAssembly.Module.imports(new WebAssembly.Module(bytes)));
  });

  it('answers the same bytes when the maximum is already within the cap, lowers a larger one', () => {
    const capped = capMemory(fixture('healthy.wasm'), 10);
    assert.ok(capped instanceof Uint8Array);
    assert.equal(capMemory(capped, 10), capped);
    assert.equal(capMemory(capped, 64), capped);
    const lower = capMemory(capped, 4);
    assert.ok(lower instanceof Uint8Array && lower !== capped);
    const memory = memoryOf(new WebAssembly.Module(lower));
    assert.equal(memory.grow(2), 2);
    assert.throws(() => memory.grow(1), RangeError);

    // A hand-built memory with a maximum over the cap, with a multi-byte LEB (300 pages).
    const own = buildModule({ exports: ['memory', ...CALLBACKS], memory: { min: 1, max: 300 } });
    const ownCapped = capMemory(own, 200);
    assert.ok(ownCapped instanceof Uint8Array);
    const m = memoryOf(new WebAssembly.Module(ownCapped));
    assert.equal(m.grow(199), 1);
    assert.throws(() => m.grow(1), RangeError);
  });

  it('explains a module it cannot cap', () => {
    assert.match(String(capMemory(buildModule({ exports: CALLBACKS }), 64)), /defines no memory of its own/);
    assert.match(String(capMemory(buildModule({ exports: ['memory', ...CALLBACKS], memory: { min: 65 } }), 64)), /initial memory/);
  });

  it('holds the hog fixture to a 4 MiB cap: it traps when the grow is refused, its memory within the cap', () => {
    const check = checkArtifact(fixture('hog.wasm'), 4 << 20);
    assert.ok(check.ok);
    if (!check.ok) return;
    const logs: [number, string][] = [];
    const algo = WasmAlgo.create(check.module, { log: (level, text) => logs.push([level, text]), meshSend: () => -1 });
    assert.ok(algo instanceof WasmAlgo);
    if (!(algo instanceof WasmAlgo)) return;
    const side = { count: 1, px: [100], qty: [1] };
    const empty = { position_1e8: 0, avg_entry_1e9: 0, realized_pnl_1e9: 0, unrealized_pnl_1e9: 0, orders: [] };
    // 2 pages at start, 16 more a book: 18, 34, 50 fit under 64; the 4th grow (to 66) is refused.
    assert.equal(algo.onBook(side, side, 0, 1, empty), 0);
    assert.equal(algo.onBook(side, side, 0, 2, empty), 0);
    assert.equal(algo.onBook(side, side, 0, 3, empty), 0);
    const fourth = algo.onBook(side, side, 0, 4, empty);
    assert.equal(typeof fourth, 'object');
    assert.match(typeof fourth === 'object' ? fourth.failed : '', /^algo_on_book trapped: /);
    assert.ok(algo.memoryBytes <= 4 << 20, `${algo.memoryBytes}`);
    assert.equal(algo.memoryBytes, 50 * WASM_PAGE);
    assert.deepEqual(logs, [
      [1, 'grew to 18 pages'],
      [1, 'grew to 34 pages'],
      [1, 'grew to 50 pages'],
      [4, 'grow failed at 50 pages'],
    ]);
  });
});
