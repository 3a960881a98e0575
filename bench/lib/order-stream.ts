/**
 * Seeded order streams for bench/matching.bench.ts: the same commands are fed to our engine and
 * to the npm peers, so the streams use only what every engine supports (integer prices on tick
 * 1, integer sizes on lot 1, limit / market / cancel) and contain no rejections.
 *
 *   build phase                      mix phase (measured)
 *   adds 90% / cancels 10%   --->    limit adds 70% / cancels 20% / market orders 10%
 *   until `startDepth` resting       market size steered so the book holds about `startDepth`
 *
 * Prices: a mid that random-walks (mean-reverting, a few ticks) around MID; a bid add rests
 * 1 to SPREAD_TICKS ticks below the mid (uniform), an ask add as far above it, so each side holds
 * about SPREAD_TICKS levels; when the mid has moved, some adds cross and trade as takers. Cancels
 * pick a uniformly random resting order. Market orders take about five orders' worth of
 * liquidity (0.7 adds = 0.2 cancels + 0.1 x 5 orders per operation), scaled by
 * resting / startDepth so the depth stays put.
 *
 * Why uniform over 500 ticks: with ~1,000 levels, 5,000 orders are ~5 per level and 400,000 are
 * ~400 per level, where the peers measure what issue 3 records for them (~180k ops/s steady,
 * ~19k deep, whose cancel rewrites a whole level). Liquidity concentrated near the touch (e.g.
 * offsets ~ u^2) makes the top levels thousands deep and the peers 3x slower still; that would
 * flatter our ratio, so the bench does not use it.
 *
 * The generator learns which orders are resting by running the stream through our OrderBook as
 * it writes it (a fill can remove an order, and the next cancel must pick a live one). That makes
 * the stream valid, not our fills right: the bench checks our fills against the peers'.
 */
import { Side } from '../../domain/market.ts';
import { OrderBook } from '../../actors/edge/sim/order-book.ts';
import type { FillEvent, MatchingRules } from '../../actors/edge/sim/matcher.ts';
import { mulberry32 } from '../../actors/edge/sim/rng.ts';

export const Op = { LIMIT: 0, MARKET: 1, CANCEL: 2 } as const;
export type Op = (typeof Op)[keyof typeof Op];

/** tick 1, lot 1, no minimums: the peers have no such rules, so nothing may be rejected. */
export const STREAM_RULES: MatchingRules = { tick_1e9: 1, lot_1e8: 1, min_qty_1e8: 0, min_notional_1e9: 0 };

export const MID = 1_000_000;
export const SPREAD_TICKS = 500;
export const MAX_ORDER_QTY = 100;
const MEAN_ORDER_QTY = (MAX_ORDER_QTY + 1) / 2;
const ORDERS_PER_MARKET = 5;

/** Commands as struct of arrays: the measured loop reads typed arrays, not objects. */
export interface OrderStream {
  length: number;
  op: Uint8Array;
  side: Uint8Array;
  /** order id (limit, market) or the id to cancel */
  id: Float64Array;
  /** limit price; 0 for market and cancel */
  price: Float64Array;
  /** limit or market size; 0 for cancel */
  qty: Float64Array;
}

export interface StreamSpec {
  seed: number;
  /** resting orders at the end of the build phase, held through the mix */
  startDepth: number;
  /** operations in the mix phase */
  mixOps: number;
}

export interface GeneratedStream {
  build: OrderStream;
  mix: OrderStream;
  stats: {
    restingAfterBuild: number;
    restingAfterMix: number;
    minRestingInMix: number;
    maxRestingInMix: number;
    levelsAfterBuild: number;
    mixFills: number;
    mixLimits: number;
    mixCancels: number;
    mixMarkets: number;
  };
}


function allocStream(capacity: number): OrderStream {
  return {
    length: 0,
    op: new Uint8Array(capacity),
    side: new Uint8Array(capacity),
    id: new Float64Array(capacity),
    price: new Float64Array(capacity),
    qty: new Float64Array(capacity),
  };
}

/** The first `n` commands of a stream (views, no copy). */
export function prefix(stream: OrderStream, n: number): OrderStream {
  const length = Math.min(n, stream.length);
  return {
    length,
    op: stream.op.subarray(0, length),
    side: stream.side.subarray(0, length),
    id: stream.id.subarray(0, length),
    price: stream.price.subarray(0, length),
    qty: stream.qty.subarray(0, length),
  };
}

export function generateStream(spec: StreamSpec): GeneratedStream {
  const random = mulberry32(spec.seed);
  // Resting ids with O(1) removal of any of them: a dense array plus id -> index.
  let live = new Float64Array(1024);
  let liveCount = 0;
  const liveIndex = new Map<number, number>();
  const addLive = (id: number) => {
    if (liveCount === live.length) {
      const bigger = new Float64Array(live.length * 2);
      bigger.set(live);
      live = bigger;
    }
    liveIndex.set(id, liveCount);
    live[liveCount++] = id;
  };
  const removeLive = (id: number) => {
    const i = liveIndex.get(id);
    if (i === undefined) return;
    liveIndex.delete(id);
    const last = live[--liveCount]!;
    if (i !== liveCount) {
      live[i] = last;
      liveIndex.set(last, i);
    }
  };

  let fills = 0;
  const book: OrderBook = new OrderBook(
    STREAM_RULES,
    {
      onFill(fill: FillEvent) {
        fills++;
        // The engine is consistent during callbacks: a fully filled maker is already gone.
        if (book.restingQty(fill.maker_id) === 0) removeLive(fill.maker_id);
      },
      onLevel() {},
    },
    { initialOrders: spec.startDepth * 2 },
  );

  let nextId = 1;
  let mid = MID;
  const stepMid = () => {
    if (random() < 0.02) mid += random() < 0.5 - (mid - MID) / 16 ? 1 : -1;
  };

  const emitLimit = (s: OrderStream) => {
    stepMid();
    const side: Side = random() < 0.5 ? Side.BID : Side.ASK;
    const offset = 1 + Math.floor(random() * SPREAD_TICKS);
    const price = side === Side.BID ? mid - offset : mid + offset;
    const qty = 1 + Math.floor(random() * MAX_ORDER_QTY);
    const id = nextId++;
    const i = s.length++;
    s.op[i] = Op.LIMIT;
    s.side[i] = side;
    s.id[i] = id;
    s.price[i] = price;
    s.qty[i] = qty;
    if (book.limit(id, side, price, qty).resting_qty_1e8 > 0) addLive(id);
  };
  const emitCancel = (s: OrderStream): boolean => {
    if (liveCount === 0) return false;
    const id = live[Math.floor(random() * liveCount)]!;
    const i = s.length++;
    s.op[i] = Op.CANCEL;
    s.side[i] = 0;
    s.id[i] = id;
    s.price[i] = 0;
    s.qty[i] = 0;
    book.cancel(id);
    removeLive(id);
    return true;
  };
  const emitMarket = (s: OrderStream): boolean => {
    const side: Side = random() < 0.5 ? Side.BID : Side.ASK;
    if ((side === Side.BID ? book.bestAsk() : book.bestBid()) === undefined) return false;
    const pressure = Math.min(4, Math.max(0.25, book.restingOrders() / spec.startDepth));
    const qty = Math.max(1, Math.round(MEAN_ORDER_QTY * ORDERS_PER_MARKET * pressure * (0.5 + random())));
    const id = nextId++;
    const i = s.length++;
    s.op[i] = Op.MARKET;
    s.side[i] = side;
    s.id[i] = id;
    s.price[i] = 0;
    s.qty[i] = qty;
    book.market(id, side, qty);
    return true;
  };

  // Build: adds with a few cancels; fills from crossing adds can slow it, so it runs until the
  // depth is reached rather than for a fixed count.
  let build = allocStream(Math.ceil(spec.startDepth * 1.3) + 1024);
  while (book.restingOrders() < spec.startDepth) {
    if (build.length + 1 >= build.op.length) build = growStream(build);
    if (random() < 0.1) emitCancel(build);
    else emitLimit(build);
  }
  const restingAfterBuild = book.restingOrders();
  const levelsAfterBuild = book.levels(Side.BID, Infinity).length + book.levels(Side.ASK, Infinity).length;

  const mix = allocStream(spec.mixOps);
  fills = 0;
  let minResting = Infinity;
  let maxResting = 0;
  let limits = 0;
  let cancels = 0;
  let markets = 0;
  while (mix.length < spec.mixOps) {
    const u = random();
    if (u < 0.7) {
      emitLimit(mix);
      limits++;
    } else if (u < 0.9) {
      if (emitCancel(mix)) cancels++;
    } else if (emitMarket(mix)) markets++;
    const resting = book.restingOrders();
    if (resting < minResting) minResting = resting;
    if (resting > maxResting) maxResting = resting;
  }
  return {
    build: prefix(build, build.length),
    mix,
    stats: {
      restingAfterBuild,
      restingAfterMix: book.restingOrders(),
      minRestingInMix: minResting,
      maxRestingInMix: maxResting,
      levelsAfterBuild,
      mixFills: fills,
      mixLimits: limits,
      mixCancels: cancels,
      mixMarkets: markets,
    },
  };
}

function growStream(s: OrderStream): OrderStream {
  const bigger = allocStream(s.op.length * 2);
  bigger.op.set(s.op);
  bigger.side.set(s.side);
  bigger.id.set(s.id);
  bigger.price.set(s.price);
  bigger.qty.set(s.qty);
  bigger.length = s.length;
  return bigger;
}
