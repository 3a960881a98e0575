/**
 * The test algos (test/fixtures/algos, C on the algo ABI) against scripted books, through
 * WasmAlgo and AlgoState alone (no service): the test plays the host as the algo actor does
 * (compact the state before a book, mark it shown after each callback; track, ack, fill or end
 * each order) and checks every action and log line against its own model of each algo. The
 * crossing buyer buys only on a cross and never past its position limit counting live buys; the
 * market maker quotes the touch, holds inside 10 bps, cancels once outside it and at shutdown;
 * reject codes reach algo_on_reject; a trap is a `failed` answer, not an exception; two mesh
 * algos talk through their hosts. Then AlgoState's own arithmetic in exact integers: average
 * entry, realized and unrealized PnL through a flip, and the life of an order in `orders`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { OrderStatus, RejectCode, type Action, type BookSide } from '../../execution/algo/abi.ts';
import { AlgoState } from '../../execution/algo/algo-state.ts';
import { checkArtifact } from '../../execution/algo/artifact.ts';
import { actionIntent, failureCode, refusalCode } from '../../execution/algo/orders.ts';
import { WasmAlgo, type AlgoHost, type CallResult } from '../../execution/algo/wasm-algo.ts';
import { ResultCode } from '../../execution/result-codes.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'algos');
const modules = new Map<string, WebAssembly.Module>();

/** A fixture through the same artifact check the service runs (64 MiB cap). */
function moduleOf(name: string): WebAssembly.Module {
  let module = modules.get(name);
  if (module === undefined) {
    const check = checkArtifact(new Uint8Array(readFileSync(join(FIXTURES, `${name}.wasm`))), 64 << 20);
    if (!check.ok) throw new Error(`${name}: ${check.message}`);
    module = check.module;
    modules.set(name, module);
  }
  return module;
}

type Line = [level: number, text: string];

/** One instance and the host around it, playing the algo actor's part. */
class Harness {
  readonly algo: WasmAlgo;
  readonly state = new AlgoState();
  readonly logs: Line[] = [];
  private ns = 1_764_000_000_000_000;

  constructor(name: string, meshSend: AlgoHost['meshSend'] = () => -1) {
    const algo = WasmAlgo.create(moduleOf(name), { log: (level, text) => this.logs.push([level, text]), meshSend });
    if (!(algo instanceof WasmAlgo)) throw new Error(algo.failed);
    this.algo = algo;
  }

  /** Log lines since the last call. */
  private seen = 0;
  newLogs(): Line[] {
    const out = this.logs.slice(this.seen);
    this.seen = this.logs.length;
    return out;
  }

  book(bids: BookSide, asks: BookSide): CallResult {
    this.state.compact();
    const result = this.algo.onBook(bids, asks, 0, (this.ns += 1_000_000), this.state);
    this.state.shown();
    return result;
  }

  /** The book's actions (a copy: the algo's array is reused). */
  bookActions(bids: BookSide, asks: BookSide): Action[] {
    const result = this.book(bids, asks);
    assert.equal(typeof result, 'number', JSON.stringify(result));
    return this.algo.actions.slice(0, result as number).map((a) => ({ ...a }));
  }

  /** A new order the algo sent: tracked, and acked by the venue. */
  placed(a: Action): void {
    assert.equal(a.is_cancel, 0);
    assert.ok(a.side === 1 || a.side === -1);
    assert.ok(this.state.track(a.order_id, a.px_1e9, a.qty_1e8, a.side));
    this.state.acked(a.order_id);
  }

  fill(orderId: number, side: 1 | -1, qty_1e8: number, px_1e9: number): void {
    this.state.fill(orderId, side, qty_1e8, px_1e9);
    assert.equal(this.algo.onFill({ order_id: orderId, px_1e9, qty_1e8, recv_ns: (this.ns += 1_000), side }, this.state), 0);
    this.state.shown();
  }

  shutdown(): Action[] {
    const result = this.algo.onShutdown(this.state);
    this.state.shown();
    assert.equal(typeof result, 'number', JSON.stringify(result));
    return this.algo.actions.slice(0, result as number).map((a) => ({ ...a }));
  }
}

/** A one-level side (or an empty one for px 0). */
const side = (px: number, qty = 100_000_000): BookSide => (px === 0 ? { count: 0, px: [], qty: [] } : { count: 1, px: new Float64Array([px]), qty: new Float64Array([qty]) });

/** A five-level book around a touch: bids down, asks up, one tick apart. */
function deep(bid: number, ask: number, tick = 1_000_000_000): [BookSide, BookSide] {
  const n = 5;
  return [
    { count: n, px: Array.from({ length: n }, (_, i) => bid - i * tick), qty: Array.from({ length: n }, (_, i) => (i + 1) * 10_000_000) },
    { count: n, px: Array.from({ length: n }, (_, i) => ask + i * tick), qty: Array.from({ length: n }, (_, i) => (i + 1) * 20_000_000) },
  ];
}

const B = 93_712_190_000_000; // BTC in 1e9 units
const INSTANCE = { edge_id: 'edge-1', venue: 'binance', symbol: 'BTC-USD', instrument_type: 'spot' as const, symbol_id: 0 };

describe('crossing-buyer.wasm', () => {
  const QTY = 1_000_000;
  const MAX_POS = 3 * QTY;

  it('buys IOC at the ask exactly when the bid reaches the previous ask, up to 3 x QTY, and its fills move position and average entry', () => {
    const h = new Harness('crossing-buyer');
    // [best bid, best ask]; 0 = that side empty (the algo skips the book and keeps its previous ask).
    const script: [number, number][] = [
      [B, B + 10_000_000_000], // first book: nothing to compare with
      [B + 5_000_000_000, B + 15_000_000_000], // bid below the previous ask
      [B + 15_000_000_000, B + 16_000_000_001], // bid == previous ask: buy
      [B + 20_000_000_000, B + 21_000_000_002], // above: buy
      [B + 21_000_000_001, B + 22_000_000_000], // one unit short of the previous ask
      [0, B + 30_000_000_000], // no bids: skipped, previous ask kept
      [B + 22_000_000_000, B + 23_000_000_004], // reaches the ask before the skipped book: buy
      [B + 30_000_000_000, B + 31_000_000_000], // crosses, but the position is at 3 x QTY
      [B + 40_000_000_000, B + 41_000_000_000], // still crossing, still full
      [B + 41_000_000_000, B + 42_000_000_000],
    ];

    // The test's model of the algo and of AlgoState.
    let prevAsk = 0;
    let nextId = 1;
    let pos = 0n;
    let avg = 0n;
    const expectedLogs: Line[] = [];
    const buys: number[] = [];

    for (const [i, [bid, ask]] of script.entries()) {
      const actions = h.bookActions(side(bid), side(ask));
      let expected: Action[] = [];
      if (bid !== 0 && ask !== 0) {
        if (prevAsk !== 0 && bid >= prevAsk && pos < BigInt(MAX_POS)) {
          expected = [{ order_id: nextId, px_1e9: ask, qty_1e8: QTY, side: 1, is_cancel: 0, order_type: 2 }];
          expectedLogs.push([2, `cross buy id=${nextId} px=${ask}`]);
          nextId++;
        }
        prevAsk = ask;
      }
      assert.deepEqual(actions, expected, `book ${i + 1}`);

      for (const a of actions) {
        h.placed(a);
        assert.equal(h.state.liveOrders, 1);
        // The IOC fills in full at its limit.
        h.fill(a.order_id, 1, a.qty_1e8, a.px_1e9);
        avg = (pos * avg + BigInt(a.qty_1e8) * BigInt(a.px_1e9)) / (pos + BigInt(a.qty_1e8));
        pos += BigInt(a.qty_1e8);
        buys.push(a.px_1e9);
        expectedLogs.push([2, `fill id=${a.order_id} qty=${a.qty_1e8} px=${a.px_1e9} pos=${pos}`]);
        assert.equal(h.state.position_1e8, Number(pos));
        assert.equal(h.state.avg_entry_1e9, Number(avg));
        assert.equal(h.state.find(a.order_id)?.status, OrderStatus.DEAD, 'filled in full');
      }
    }

    assert.deepEqual(buys, [B + 16_000_000_001, B + 21_000_000_002, B + 23_000_000_004]);
    assert.equal(h.state.position_1e8, MAX_POS);
    // (p1 + p2) / 2 = B + 18_500_000_001.5 -> ...001; then (2 x that + p3) / 3 = B + 20_000_000_002 exactly.
    assert.equal(h.state.avg_entry_1e9, B + 20_000_000_002);
    assert.equal(h.state.realized_pnl_1e9, 0);
    assert.equal(h.state.fills, 3);
    assert.equal(h.state.filled_qty_1e8, 3 * QTY);
    assert.deepEqual(h.newLogs(), expectedLogs);
    // The filled orders were shown dead once, then left.
    h.book(side(B), side(B + 1));
    assert.deepEqual(h.state.orders, []);
  });

  it('counts the unfilled quantity of live buys against the limit, and frees it when an order ends', () => {
    const h = new Harness('crossing-buyer');
    const G = 1_000_000_000;
    assert.deepEqual(h.bookActions(side(B), side(B + G)), []);
    // Three crossing books: three live, unfilled IOCs (0 + 1, 2 QTY live < 3 QTY each time).
    const ids: number[] = [];
    for (let k = 1; k <= 3; k++) {
      const actions = h.bookActions(side(B + k * G), side(B + (k + 1) * G));
      assert.deepEqual(actions, [{ order_id: k, px_1e9: B + (k + 1) * G, qty_1e8: QTY, side: 1, is_cancel: 0, order_type: 2 }]);
      h.placed(actions[0]!);
      ids.push(k);
    }
    assert.equal(h.state.liveOrders, 3);
    // 0 position + 3 QTY live: full.
    assert.deepEqual(h.bookActions(side(B + 4 * G), side(B + 5 * G)), []);
    // Order 1 fills 0.4 QTY: position 0.4 + live 0.6 + 1 + 1 = 3 QTY: still full.
    h.fill(1, 1, 400_000, B + 2 * G);
    assert.equal(h.state.find(1)?.status, OrderStatus.PARTIAL);
    assert.deepEqual(h.bookActions(side(B + 5 * G), side(B + 6 * G)), []);
    // The rest of order 1 expires (IOC): position 0.4 + live 2 = 2.4 QTY < 3: one more buy.
    h.state.dead(1);
    const more = h.bookActions(side(B + 6 * G), side(B + 7 * G));
    assert.deepEqual(more, [{ order_id: 4, px_1e9: B + 7 * G, qty_1e8: QTY, side: 1, is_cancel: 0, order_type: 2 }]);
    // Order 1 was shown dead on that book: the next track drops it.
    h.placed(more[0]!);
    assert.deepEqual(h.state.orders.map((o) => o.order_id), [2, 3, 4]);
    assert.deepEqual(h.bookActions(side(B + 8 * G), side(B + 9 * G)), []);
    assert.deepEqual(h.newLogs(), [
      [2, `cross buy id=1 px=${B + 2 * G}`],
      [2, `cross buy id=2 px=${B + 3 * G}`],
      [2, `cross buy id=3 px=${B + 4 * G}`],
      [2, `fill id=1 qty=400000 px=${B + 2 * G} pos=400000`],
      [2, `cross buy id=4 px=${B + 7 * G}`],
    ]);
  });

  it('does not count sells or dead buys as live buys (it reads side and status from the state)', () => {
    const h = new Harness('crossing-buyer');
    const G = 1_000_000_000;
    // Sell orders working and a dead buy in the state: they take no room.
    for (let id = 100; id < 104; id++) assert.ok(h.state.track(id, B, QTY, -1));
    assert.ok(h.state.track(200, B, 5 * QTY, 1));
    h.state.dead(200);
    assert.deepEqual(h.bookActions(side(B), side(B + G)), []);
    assert.deepEqual(h.bookActions(side(B + G), side(B + 2 * G)).map((a) => a.order_id), [1]);
  });
});

describe('market-maker.wasm', () => {
  const QTY = 100_000;
  // A 2 bps market around 3,000.30 USD.
  const BID = 3_000_000_000_000;
  const ASK = 3_000_600_000_000;
  const MID = 3_000_300_000_000;
  /** The mid may move by MID / 1000 (10 bps) without a requote; one unit more is outside. */
  const BAND = MID / 1000;

  it('quotes both sides at the touch, holds inside 10 bps, cancels each live order once outside, requotes once they ended', () => {
    const h = new Harness('market-maker');
    const [bids, asks] = deep(BID, ASK);
    const quote = h.bookActions(bids, asks);
    assert.deepEqual(quote, [
      { order_id: 1, px_1e9: BID, qty_1e8: QTY, side: 1, is_cancel: 0, order_type: 0 },
      { order_id: 2, px_1e9: ASK, qty_1e8: QTY, side: -1, is_cancel: 0, order_type: 0 },
    ]);
    assert.deepEqual(h.newLogs(), [[2, `quote bid=${BID} ask=${ASK} pos=0`]]);
    for (const a of quote) h.placed(a);
    assert.deepEqual(
      h.state.orders.map((o) => [o.order_id, o.qty_1e8, o.side, o.status]),
      [
        [1, QTY, 1, OrderStatus.ACKED],
        [2, -QTY, -1, OrderStatus.ACKED],
      ],
    );

    // Inside the band (about 3.3 bps, then exactly 10 bps either way): nothing.
    for (const shift of [1_000_000_000, BAND, -BAND, -1_000_000_000]) {
      assert.deepEqual(h.bookActions(...deep(BID + shift, ASK + shift)), [], `shift ${shift}`);
    }
    // One unit past 10 bps: a cancel for each live order.
    const out = BAND + 1;
    const cancels = h.bookActions(...deep(BID + out, ASK + out));
    assert.deepEqual(cancels, [
      { order_id: 1, px_1e9: 0, qty_1e8: 0, side: 0, is_cancel: 1, order_type: 0 },
      { order_id: 2, px_1e9: 0, qty_1e8: 0, side: 0, is_cancel: 1, order_type: 0 },
    ]);
    assert.deepEqual(h.newLogs(), [[2, `requote mid=${MID + out}`]]);
    for (const a of cancels) assert.deepEqual(actionIntent(a, INSTANCE, 'dep-mm'), { t: 'cancel', order_id: a.order_id });
    // Still outside, the cancels pending: not sent again.
    assert.deepEqual(h.bookActions(...deep(BID - 2 * BAND, ASK - 2 * BAND)), []);
    // A refused cancel of 1 may be sent again; 2's is still remembered.
    assert.equal(h.algo.onReject(1, RejectCode.EXCHANGE_BUSY), 0);
    assert.deepEqual(h.bookActions(...deep(BID - 2 * BAND, ASK - 2 * BAND)).map((a) => [a.order_id, a.is_cancel]), [[1, 1]]);
    // Order 2 partly filled before its cancel landed, then both end.
    h.fill(2, -1, 40_000, ASK);
    assert.equal(h.state.position_1e8, -40_000);
    h.state.dead(1);
    h.state.dead(2);
    assert.equal(h.state.liveOrders, 0);
    // No live order: a new quote at the new touch, new ids.
    const NB = BID + 3 * BAND;
    const NA = ASK + 3 * BAND;
    assert.deepEqual(h.bookActions(...deep(NB, NA)), [
      { order_id: 3, px_1e9: NB, qty_1e8: QTY, side: 1, is_cancel: 0, order_type: 0 },
      { order_id: 4, px_1e9: NA, qty_1e8: QTY, side: -1, is_cancel: 0, order_type: 0 },
    ]);
    assert.deepEqual(h.newLogs(), [
      [3, `reject id=1 code=${RejectCode.EXCHANGE_BUSY}`],
      [2, `requote mid=${MID - 2 * BAND}`],
      [2, `fill id=2 side=-1 qty=40000 px=${ASK} pos=-40000`],
      [2, `quote bid=${NB} ask=${NA} pos=-40000`],
    ]);
    // The dead orders were shown on that book and leave at the next compact.
    h.state.compact();
    assert.deepEqual(h.state.orders, []);
  });

  it('quotes only the side that reduces a position at its limit', () => {
    const h = new Harness('market-maker');
    h.state.restore({ position_1e8: 5 * QTY, avg_entry_1e9: BID, realized_pnl_1e9: 0, fills: 5, filled_qty_1e8: 5 * QTY });
    assert.deepEqual(h.bookActions(...deep(BID, ASK)), [{ order_id: 1, px_1e9: ASK, qty_1e8: QTY, side: -1, is_cancel: 0, order_type: 0 }]);
    assert.deepEqual(h.newLogs(), [[2, `quote bid=0 ask=${ASK} pos=${5 * QTY}`]]);
  });

  it('cancels every live order at shutdown', () => {
    const h = new Harness('market-maker');
    for (const a of h.bookActions(...deep(BID, ASK))) h.placed(a);
    h.newLogs();
    assert.deepEqual(
      h.shutdown().map((a) => [a.order_id, a.side, a.is_cancel]),
      [
        [1, 0, 1],
        [2, 0, 1],
      ],
    );
    assert.deepEqual(h.newLogs(), [[2, 'shutdown pos=0 open=2']]);
    // With one ended, only the other.
    h.state.dead(1);
    assert.deepEqual(h.shutdown().map((a) => a.order_id), [2]);
    h.state.dead(2);
    assert.deepEqual(h.shutdown(), []);
    assert.deepEqual(h.newLogs(), [
      [2, 'shutdown pos=0 open=1'],
      [2, 'shutdown pos=0 open=0'],
    ]);
  });
});

describe('reject codes reach algo_on_reject', () => {
  const codes = [RejectCode.INSUFFICIENT_BALANCE, RejectCode.RATE_LIMIT, RejectCode.RISK, RejectCode.KILL_SWITCH];

  for (const name of ['rejects', 'market-maker', 'crossing-buyer']) {
    it(`${name}: logs reject id=<id> code=<code> (warn) for codes 1, 3, 100, 102`, () => {
      const h = new Harness(name);
      for (const [i, code] of codes.entries()) assert.equal(h.algo.onReject(i + 1, code), 0);
      assert.equal(h.algo.onReject(2 ** 40, RejectCode.AUTH), 0);
      assert.deepEqual(h.newLogs(), [
        [3, 'reject id=1 code=1'],
        [3, 'reject id=2 code=3'],
        [3, 'reject id=3 code=100'],
        [3, 'reject id=4 code=102'],
        [3, `reject id=${2 ** 40} code=6`],
      ]);
    });
  }

  it("rejects: its market buy refused by the engine's answers, then the next one 5 books later", () => {
    const h = new Harness('rejects');
    const first = h.bookActions(side(B), side(B + 1));
    assert.deepEqual(first, [{ order_id: 1, px_1e9: 0, qty_1e8: 100_000, side: 1, is_cancel: 0, order_type: 1 }]);
    const intent = actionIntent(first[0]!, INSTANCE, 'dep-r');
    assert.equal(intent.t, 'order');
    if (intent.t === 'order') assert.equal(intent.request.order_type, 'market');
    // The host: tracked, then the engine refuses it (kill switch on): dead, and the algo hears 102.
    h.placed(first[0]!);
    h.state.dead(1);
    assert.equal(h.algo.onReject(1, refusalCode(ResultCode.DISPATCH_HALTED)), 0);
    for (let k = 2; k <= 5; k++) assert.deepEqual(h.bookActions(side(B), side(B + 1)), [], `book ${k}`);
    const second = h.bookActions(side(B), side(B + 1));
    assert.deepEqual(second.map((a) => [a.order_id, a.order_type]), [[2, 1]]);
    // This one is created, then REJECTED by the venue for want of balance.
    h.placed(second[0]!);
    h.state.dead(2);
    assert.equal(h.algo.onReject(2, failureCode('insufficient_balance')), 0);
    assert.deepEqual(h.newLogs(), [
      [2, 'market buy id=1'],
      [3, 'reject id=1 code=102'],
      [2, 'market buy id=2'],
      [3, 'reject id=2 code=1'],
    ]);
  });

  it('rejects: no new order while one is live', () => {
    const h = new Harness('rejects');
    const first = h.bookActions(side(B), side(B + 1));
    h.placed(first[0]!);
    for (let k = 2; k <= 8; k++) assert.deepEqual(h.bookActions(side(B), side(B + 1)), [], `book ${k}`);
    h.fill(1, 1, 100_000, B + 1);
    assert.deepEqual(h.bookActions(side(B), side(B + 1)).map((a) => a.order_id), [2]);
    assert.deepEqual(h.newLogs(), [
      [2, 'market buy id=1'],
      [2, 'fill id=1'],
      [2, 'market buy id=2'],
    ]);
  });
});

describe('failing algos', () => {
  it('trap.wasm: books 1 and 2 log, book 3 answers failed (algo_on_book trapped), not an exception', () => {
    const h = new Harness('trap');
    assert.equal(h.book(side(B), side(B + 1)), 0);
    assert.equal(h.book(side(B), side(B + 1)), 0);
    const third = h.book(side(B), side(B + 1));
    assert.equal(typeof third, 'object');
    assert.match(typeof third === 'object' ? third.failed : '', /^algo_on_book trapped: /);
    assert.deepEqual(h.newLogs(), [
      [2, 'book 1'],
      [2, 'book 2'],
    ]);
  });

  it('spin.wasm: books 1 and 2 return and log (book 3 would never return; it is not called)', () => {
    const h = new Harness('spin');
    assert.equal(h.book(side(B), side(B + 1)), 0);
    assert.equal(h.book(side(B), side(B + 1)), 0);
    assert.deepEqual(h.newLogs(), [
      [2, 'book 1'],
      [2, 'book 2'],
    ]);
  });

  it('each instance has its own statics: a second trap instance logs book 1 again', () => {
    const a = new Harness('trap');
    const b = new Harness('trap');
    a.book(side(B), side(B + 1));
    a.book(side(B), side(B + 1));
    assert.equal(b.book(side(B), side(B + 1)), 0);
    assert.deepEqual(b.newLogs(), [[2, 'book 1']]);
  });
});

describe('mesh-ping / mesh-pong', () => {
  /** Two instances whose hosts deliver each other's messages after the callback (as the actor's tell does). */
  function pair(peers: { ping: string; pong: string } = { ping: 'ping', pong: 'pong' }) {
    const queue: { to: Harness; from: string; data: Uint8Array }[] = [];
    const byLabel = new Map<string, Harness>();
    const host = (self: string) => (to: string, data: Uint8Array) => {
      const target = byLabel.get(to);
      if (target === undefined) return -1;
      queue.push({ to: target, from: self, data: data.slice() });
      return 0;
    };
    const ping = new Harness('mesh-ping', host('ping'));
    const pong = new Harness('mesh-pong', host('pong'));
    byLabel.set(peers.ping, ping);
    byLabel.set(peers.pong, pong);
    const drain = () => {
      for (let m = queue.shift(); m !== undefined; m = queue.shift()) assert.equal(m.to.algo.onMesh(m.from, m.data), 0);
    };
    return { ping, pong, drain };
  }

  it('ping sends on books 2 and 22, pong answers, ping logs the answers', () => {
    const { ping, pong, drain } = pair();
    for (let k = 1; k <= 41; k++) {
      assert.equal(ping.book(side(B), side(B + 1)), 0);
      assert.equal(pong.book(side(B), side(B + 1)), 0);
      drain();
    }
    assert.deepEqual(ping.newLogs(), [
      [2, 'sent ping 1 rc=0'],
      [2, 'got pong ping 1 from pong'],
      [2, 'sent ping 2 rc=0'],
      [2, 'got pong ping 2 from pong'],
    ]);
    assert.deepEqual(pong.newLogs(), [
      [2, 'got ping 1 from ping'],
      [2, 'got ping 2 from ping'],
    ]);
  });

  it('a send to a label nobody holds answers negative, and each side logs it', () => {
    const { ping, pong, drain } = pair({ ping: 'someone-else', pong: 'nobody' });
    ping.book(side(B), side(B + 1));
    ping.book(side(B), side(B + 1));
    drain();
    assert.deepEqual(ping.newLogs(), [[2, 'sent ping 1 rc=-1']]);
    // Pong's reply goes back to `from`, which no one holds here.
    assert.equal(pong.algo.onMesh('ghost', new TextEncoder().encode('hello\n')), 0);
    assert.deepEqual(pong.newLogs(), [
      [2, 'got hello. from ghost'],
      [3, 'reply refused rc=-1'],
    ]);
  });

  it('a module without algo_on_mesh ignores a message', () => {
    const h = new Harness('healthy');
    assert.equal(h.algo.onMesh('ping', new TextEncoder().encode('ping 1')), 0);
    assert.deepEqual(h.newLogs(), []);
  });
});

describe('AlgoState', () => {
  const U = 100_000_000; // 1 unit of quantity (1e8)
  const P = 1_000_000_000; // 1 USD of price (1e9)

  it('averages entries, realizes what closes, flips at the fill price, marks the rest (exact integers)', () => {
    const s = new AlgoState();
    s.fill(1, 1, 2 * U, 100 * P);
    assert.deepEqual([s.position_1e8, s.avg_entry_1e9, s.realized_pnl_1e9], [2 * U, 100 * P, 0]);
    s.fill(2, 1, 2 * U, 110 * P);
    assert.deepEqual([s.position_1e8, s.avg_entry_1e9, s.realized_pnl_1e9], [4 * U, 105 * P, 0]);
    s.mark(107 * P);
    assert.equal(s.unrealized_pnl_1e9, (107 - 105) * 4 * P);
    // Sell 3 @ 120: (120 - 105) x 3 realized, 1 left at the same average.
    s.fill(3, -1, 3 * U, 120 * P);
    assert.deepEqual([s.position_1e8, s.avg_entry_1e9, s.realized_pnl_1e9], [1 * U, 105 * P, 45 * P]);
    // Sell 3 @ 90: closes 1 at (90 - 105) = -15, then short 2 at 90.
    s.fill(4, -1, 3 * U, 90 * P);
    assert.deepEqual([s.position_1e8, s.avg_entry_1e9, s.realized_pnl_1e9], [-2 * U, 90 * P, 30 * P]);
    s.mark(95 * P);
    assert.equal(s.unrealized_pnl_1e9, -10 * P);
    s.mark(85 * P);
    assert.equal(s.unrealized_pnl_1e9, 10 * P);
    // Adding to the short averages too: short 2 @ 90 + 2 @ 96 = short 4 @ 93.
    s.fill(5, -1, 2 * U, 96 * P);
    assert.deepEqual([s.position_1e8, s.avg_entry_1e9, s.realized_pnl_1e9], [-4 * U, 93 * P, 30 * P]);
    // Buy 4 @ 80 closes it: (80 - 93) x -4 = +52.
    s.fill(6, 1, 4 * U, 80 * P);
    assert.deepEqual([s.position_1e8, s.avg_entry_1e9, s.realized_pnl_1e9], [0, 0, 82 * P]);
    s.mark(95 * P);
    assert.equal(s.unrealized_pnl_1e9, 0);
    assert.equal(s.fills, 6);
    assert.equal(s.filled_qty_1e8, 16 * U);
  });

  it('truncates the average entry and PnL toward zero, at BTC prices above 2^32', () => {
    const s = new AlgoState();
    s.fill(1, 1, 1_000_000, B + 1);
    s.fill(2, 1, 2_000_000, B + 3);
    // (1 x (B + 1) + 2 x (B + 3)) / 3 = B + 7/3 -> B + 2
    assert.equal(s.avg_entry_1e9, B + 2);
    // A long of 0.03 marked 1 unit below the average: 0.03 x -1e-9 USD truncates to 0, not -1.
    s.mark(B + 1);
    assert.equal(s.unrealized_pnl_1e9, 0);
    s.mark(B - 10_000_000_000);
    // (B - 1e10 - (B + 2)) x 3_000_000 / 1e8 = -(10_000_000_002 x 3 / 100) = -300_000_000.06 -> -300_000_000
    assert.equal(s.unrealized_pnl_1e9, -300_000_000);
    // Sell 0.01 at B + 5: (5 - 2) x 1_000_000 / 1e8 = 0.03 -> 0.
    s.fill(3, -1, 1_000_000, B + 5);
    assert.equal(s.realized_pnl_1e9, 0);
    // Sell 0.02 at B + 1_000_000_002: 1_000_000_000 x 2_000_000 / 1e8 = 20_000_000.
    s.fill(4, -1, 2_000_000, B + 1_000_000_002);
    assert.deepEqual([s.position_1e8, s.avg_entry_1e9, s.realized_pnl_1e9], [0, 0, 20_000_000]);
    // Short 2.5 at B, marked 7 units above: a loss of 17.5 units truncates toward zero.
    s.fill(5, -1, 250_000_000, B);
    assert.equal(s.position_1e8, -250_000_000);
    s.mark(B + 7);
    assert.equal(s.unrealized_pnl_1e9, -17); // 7 x -250_000_000 / 1e8 = -17.5 -> -17
  });

  it('moves an order from pending to acked, partial and dead with its fills', () => {
    const s = new AlgoState();
    assert.ok(s.track(1, B, 3_000_000, 1));
    assert.ok(s.track(2, B + 5, 1_000_000, -1));
    assert.deepEqual(s.orders[0], { order_id: 1, px_1e9: B, qty_1e8: 3_000_000, filled_1e8: 0, side: 1, status: OrderStatus.PENDING });
    assert.deepEqual(s.orders[1], { order_id: 2, px_1e9: B + 5, qty_1e8: -1_000_000, filled_1e8: 0, side: -1, status: OrderStatus.PENDING });
    s.acked(1);
    assert.equal(s.find(1)?.status, OrderStatus.ACKED);
    s.fill(1, 1, 1_000_000, B);
    assert.equal(s.find(1)?.status, OrderStatus.PARTIAL);
    s.acked(1); // a late ack does not undo the partial
    assert.equal(s.find(1)?.status, OrderStatus.PARTIAL);
    s.fill(1, 1, 2_000_000, B);
    assert.deepEqual([s.find(1)?.status, s.find(1)?.filled_1e8], [OrderStatus.DEAD, 3_000_000]);
    // A sell fills in full from pending.
    s.fill(2, -1, 1_000_000, B + 5);
    assert.equal(s.find(2)?.status, OrderStatus.DEAD);
    assert.equal(s.liveOrders, 0);
    assert.equal(s.position_1e8, 2_000_000);
    // A late fill of an order already dead still counts in the position.
    s.fill(2, -1, 500_000, B + 5);
    assert.equal(s.find(2)?.status, OrderStatus.DEAD);
    assert.equal(s.position_1e8, 1_500_000);
  });

  it('keeps a dead order visible until it was shown, then drops it at the next compact or track', () => {
    const s = new AlgoState();
    s.track(1, B, 1, 1);
    s.track(2, B, 1, 1);
    s.track(3, B, 1, -1);
    s.dead(1);
    s.compact();
    assert.deepEqual(s.orders.map((o) => [o.order_id, o.status]), [
      [1, OrderStatus.DEAD],
      [2, OrderStatus.PENDING],
      [3, OrderStatus.PENDING],
    ]);
    s.shown();
    assert.equal(s.orders.length, 3, 'shown does not drop it by itself');
    s.compact();
    assert.deepEqual(s.orders.map((o) => o.order_id), [2, 3]);
    // Shown while live, then dead: still visible until shown again.
    s.dead(2);
    s.compact();
    assert.deepEqual(s.orders.map((o) => o.order_id), [2, 3]);
    s.shown();
    assert.ok(s.track(4, B, 1, 1));
    assert.deepEqual(s.orders.map((o) => o.order_id), [3, 4]);
    assert.equal(s.liveOrders, 2);
  });

  it('refuses the 33rd working order; a dead one frees its slot only once shown', () => {
    const s = new AlgoState();
    for (let id = 1; id <= 32; id++) assert.ok(s.track(id, B, 1, id % 2 === 0 ? 1 : -1), `order ${id}`);
    assert.equal(s.track(33, B, 1, 1), false);
    assert.equal(s.orders.length, 32);
    assert.equal(s.find(33), undefined);
    s.dead(7);
    assert.equal(s.track(33, B, 1, 1), false, 'the algo has not seen 7 end yet');
    s.shown();
    assert.ok(s.track(33, B, 1, 1));
    assert.equal(s.orders.length, 32);
    assert.equal(s.find(7), undefined);
    assert.equal(s.liveOrders, 32);
  });

  it('restores a checkpoint and keeps going from it', () => {
    const s = new AlgoState();
    s.restore({ position_1e8: -2 * U, avg_entry_1e9: 90 * P, realized_pnl_1e9: 30 * P, fills: 4, filled_qty_1e8: 10 * U });
    s.fill(9, 1, 1 * U, 80 * P);
    assert.deepEqual([s.position_1e8, s.avg_entry_1e9, s.realized_pnl_1e9, s.fills, s.filled_qty_1e8], [-1 * U, 90 * P, 40 * P, 5, 11 * U]);
  });
});
