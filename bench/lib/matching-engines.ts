/**
 * The three engines of bench/matching.bench.ts behind one shape: feed a range of an OrderStream,
 * optionally recording every fill as (maker id, taker id, price, qty), and read the L2 book.
 *
 * The peers' API (from their READMEs): `limit({ side, id, size, price })`, `market({ side, size })`,
 * `cancel(id)` with string ids and 'buy' / 'sell'. They report fills in the returned
 * IProcessOrder: `done` holds the makers filled completely (in matching order, with the size they
 * had), `partial` / `partialQuantityProcessed` the one maker left partially filled, which always
 * ends the matching. A limit taker itself also appears there (in `done` when fully filled, as
 * `partial` when it rests), so entries with the taker's id are skipped.
 */
import { OrderBook as NodejsOrderBook, Side as NodejsSide } from 'nodejs-order-book';
import { OrderBook as HftOrderBook, Side as HftSide } from 'hft-limit-order-book';
import { Side } from '../../domain/market.ts';
import type { FillEvent, MatchListener } from '../../actors/edge/sim/matcher.ts';
import { OrderBook } from '../../actors/edge/sim/order-book.ts';
import { Op, STREAM_RULES, type OrderStream } from './order-stream.ts';

/** Fills as flat [maker, taker, price, qty] quadruples; grows by doubling. */
export class FillLog {
  data = new Float64Array(4 * 1024);
  length = 0;

  push(maker: number, taker: number, price: number, qty: number): void {
    if (this.length * 4 === this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    const at = this.length++ * 4;
    this.data[at] = maker;
    this.data[at + 1] = taker;
    this.data[at + 2] = price;
    this.data[at + 3] = qty;
  }

  /** Index of the first differing fill, or -1 when both logs are equal. */
  firstDifference(other: FillLog): number {
    const n = Math.min(this.length, other.length);
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < 4; k++) if (this.data[i * 4 + k] !== other.data[i * 4 + k]) return i;
    }
    return this.length === other.length ? -1 : n;
  }

  describe(i: number): string {
    if (i >= this.length) return 'none';
    const d = this.data;
    return `maker ${d[i * 4]} taker ${d[i * 4 + 1]} price ${d[i * 4 + 2]} qty ${d[i * 4 + 3]}`;
  }
}

export type L2 = { bids: [number, number][]; asks: [number, number][] };

export interface BenchEngine {
  readonly name: string;
  /** Applies stream[from, to); with a log, records every fill. */
  run(stream: OrderStream, from: number, to: number, log?: FillLog): void;
  l2(): L2;
  fills: number;
}

/** Ours. The listener counts fills and level events (the work a venue would at least do). */
export class OursEngine implements BenchEngine {
  readonly name = 'ours';
  fills = 0;
  levelEvents = 0;
  private log: FillLog | undefined;
  readonly book: OrderBook;

  constructor(initialOrders: number) {
    const self = this;
    const listener: MatchListener = {
      onFill(f: FillEvent) {
        self.fills++;
        if (self.log !== undefined) self.log.push(f.maker_id, f.taker_id, f.price_1e9, f.qty_1e8);
      },
      onLevel() {
        self.levelEvents++;
      },
    };
    this.book = new OrderBook(STREAM_RULES, listener, { initialOrders });
  }

  run(s: OrderStream, from: number, to: number, log?: FillLog): void {
    this.log = log;
    const book = this.book;
    const op = s.op;
    const side = s.side;
    const id = s.id;
    const price = s.price;
    const qty = s.qty;
    for (let i = from; i < to; i++) {
      const k = op[i];
      if (k === Op.LIMIT) book.limit(id[i]!, side[i] as Side, price[i]!, qty[i]!);
      else if (k === Op.CANCEL) book.cancel(id[i]!);
      else book.market(id[i]!, side[i] as Side, qty[i]!);
    }
    this.log = undefined;
  }

  l2(): L2 {
    const pairs = (side: Side) => this.book.levels(side, Infinity).map((l): [number, number] => [l.price_1e9, l.qty_1e8]);
    return { bids: pairs(Side.BID), asks: pairs(Side.ASK) };
  }
}

interface PeerOrder {
  id: string;
  price: number;
  size: number;
}
interface PeerResponse {
  done: PeerOrder[];
  partial: PeerOrder | null;
  partialQuantityProcessed: number;
  err: unknown;
}
interface PeerBook {
  limit(o: { side: never; id: string; size: number; price: number }): PeerResponse;
  market(o: { side: never; size: number }): PeerResponse;
  cancel(id: string): unknown;
  depth(): [[number, number][], [number, number][]];
}

const peerIds = new WeakMap<OrderStream, string[]>();

/**
 * The peers take string ids: convert a stream's ids once, before any timing, so the measured
 * loop does only what a caller of the package must do (build the options object).
 */
export function preparePeerIds(s: OrderStream): void {
  if (peerIds.has(s)) return;
  const out = new Array<string>(s.length);
  for (let i = 0; i < s.length; i++) out[i] = String(s.id[i]);
  peerIds.set(s, out);
}

export type PeerName = 'nodejs-order-book' | 'hft-limit-order-book';
export const PEERS: readonly PeerName[] = ['nodejs-order-book', 'hft-limit-order-book'];

/** A peer package with a fresh book. */
export class PeerEngine implements BenchEngine {
  fills = 0;
  private ob: PeerBook;
  private readonly buy: never;
  private readonly sell: never;

  constructor(readonly name: PeerName) {
    if (name === 'nodejs-order-book') {
      this.ob = new NodejsOrderBook() as unknown as PeerBook;
      this.buy = NodejsSide.BUY as never;
      this.sell = NodejsSide.SELL as never;
    } else {
      this.ob = new HftOrderBook() as unknown as PeerBook;
      this.buy = HftSide.BUY as never;
      this.sell = HftSide.SELL as never;
    }
  }

  run(s: OrderStream, from: number, to: number, log?: FillLog): void {
    const ob = this.ob;
    const ids = peerIds.get(s);
    if (ids === undefined) throw new Error('preparePeerIds(stream) before running a peer on it');
    const op = s.op;
    const side = s.side;
    const price = s.price;
    const qty = s.qty;
    const buy = this.buy;
    const sell = this.sell;
    if (log === undefined) {
      for (let i = from; i < to; i++) {
        const k = op[i];
        if (k === Op.LIMIT) ob.limit({ side: side[i] === Side.BID ? buy : sell, id: ids[i]!, size: qty[i]!, price: price[i]! });
        else if (k === Op.CANCEL) ob.cancel(ids[i]!);
        else ob.market({ side: side[i] === Side.BID ? buy : sell, size: qty[i]! });
      }
      return;
    }
    for (let i = from; i < to; i++) {
      const k = op[i];
      let r: PeerResponse | undefined;
      if (k === Op.LIMIT) r = ob.limit({ side: side[i] === Side.BID ? buy : sell, id: ids[i]!, size: qty[i]!, price: price[i]! });
      else if (k === Op.CANCEL) ob.cancel(ids[i]!);
      else r = ob.market({ side: side[i] === Side.BID ? buy : sell, size: qty[i]! });
      if (r === undefined) continue;
      if (r.err !== null) throw new Error(`${this.name} rejected command ${i}: ${JSON.stringify(r.err)}`);
      const taker = s.id[i]!;
      const takerId = ids[i];
      for (const maker of r.done) {
        if (maker.id === takerId) continue;
        log.push(Number(maker.id), taker, maker.price, maker.size);
        this.fills++;
      }
      if (r.partial !== null && r.partial.id !== takerId && r.partialQuantityProcessed > 0) {
        log.push(Number(r.partial.id), taker, r.partial.price, r.partialQuantityProcessed);
        this.fills++;
      }
    }
  }

  l2(): L2 {
    const [asks, bids] = this.ob.depth();
    return { bids: bids.map(([p, q]) => [p, q]), asks: asks.map(([p, q]) => [p, q]) };
  }
}

export function sameL2(a: L2, b: L2): boolean {
  const same = (x: [number, number][], y: [number, number][]) => x.length === y.length && x.every((l, i) => l[0] === y[i]![0] && l[1] === y[i]![1]);
  return same(a.bids, b.bids) && same(a.asks, b.asks);
}
