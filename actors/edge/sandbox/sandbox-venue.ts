/**
 * The sandbox (paper-trading) venue of one edge: a child order with `is_sandbox` is executed here
 * instead of on the venue, against a read-only view of the venue's real book at the order's
 * arrival, which it never changes. Pure and deterministic: no I/O, no clock (time comes in as
 * integer ns), every random decision drawn from seeded streams, so the same seed, the same book
 * sequence and the same orders give the same fills. The model and its decisions:
 * `docs/sandbox-simulator.md`.
 *
 *   decision_ns ─▶ arrivalNs() ─▶ (edge waits; its book moves) ─▶ executeIoc / placeLimit(book at arrival)
 *                                                                   │ walk the visible levels (taker fee)
 *                                                                   └▶ rest: queue ahead = displayed qty
 *   venue tape ─▶ onTrade ─▶ maker fills of resting orders (queue first, or traded through; maker fee)
 *   venue L2   ─▶ onLevel ─▶ queue ahead shrinks with what is displayed (cancels ahead move it up)
 *
 * Fault streams (`SandboxSettings`): one `Rng` per (seed, edge, knob), and every order, maker
 * fill candidate, cancel and answer draws the same count of numbers whatever the outcome, so one
 * knob never shifts another's draws and a knob at 0 changes nothing.
 */
import { Side } from '../../../domain/market.ts';
import { venueFee1e9 } from '../../../domain/units.ts';
import type { MatchingRules } from '../../../domain/venues.ts';
import { Rng, seedFrom } from '../sim/rng.ts';
import { limitReject, marketReject, type SandboxReason } from './preflight.ts';

export type { SandboxReason } from './preflight.ts';

/**
 * The venue's book at arrival, best level first per side: what the edge already writes into its
 * depth-cache slot (`VenueDepth` fits as is). Read, never written.
 */
export interface SandboxBook {
  readonly bidsPx: ArrayLike<number>;
  readonly bidsQty: ArrayLike<number>;
  readonly bidCount: number;
  readonly asksPx: ArrayLike<number>;
  readonly asksQty: ArrayLike<number>;
  readonly askCount: number;
  /** The venue's feed is up; false refuses orders as the live venue does (`venue_disconnected`). */
  readonly connected?: boolean;
}

/** Fault injection; each knob optional and off by default. */
export interface SandboxSettings {
  seed?: number;
  /** Extra arrival latency (ms) on top of the venue's own. */
  latency_ms?: number;
  /** Probability (0..1) that the venue refuses an order the rules accept (`venue_rejected`). */
  reject_rate?: number;
  /** Probability (0..1) that an IOC walk or a maker fill comes short (fewer lots, maybe none). */
  partial_fill_rate?: number;
  /** A cancel arrives after a fill: at least one lot of the order fills at its price before it. */
  cancel_race?: boolean;
  /** Probability (0..1) that an answer is lost (`answerLost`). */
  disconnect_rate?: number;
}

/** What the sandbox needs of its edge. */
export interface SandboxEdge {
  edge_id: string;
  taker_bps: number;
  maker_bps: number;
  /** The venue's one-way latency (ms): the catalog's `market.latency_ms`. */
  venue_latency_ms: number;
  /** The listing's rules; undefined = not listed (`domain/venues.ts` `rulesOf` for this edge). */
  rules: (symbol: string) => MatchingRules | undefined;
  /**
   * Trade ids are `<prefix><n>`, n = 1, 2, ... per instance; default `sbx-`. The edge passes
   * `sbx-<start ms>-` so ids stay unique across restarts, as live ids do.
   */
  trade_id_prefix?: string;
}

/** One fill; a superset of the live venue's `ExecutionFill`, so the edge can price it the same way. */
export interface SandboxFill {
  price_1e9: number;
  qty_1e8: number;
  trade_id: string;
  ts_ns: number;
  /** `venueFee1e9` at the edge's taker or maker bps (USD 1e9, rounded up as venues round). */
  fee_1e9: number;
  liquidity: 'taker' | 'maker';
}

export interface SandboxExecution {
  /** false: refused (reason says why); `no_liquidity` is ok with no fills, as live. */
  ok: boolean;
  reason: SandboxReason | null;
  fills: SandboxFill[];
}

export interface SandboxPlacement extends SandboxExecution {
  /** The sandbox's id of the resting part; 0 when nothing rests. */
  order_id: number;
  resting_qty_1e8: number;
}

/** A resting order's maker fill; `left_qty_1e8` still rests after it. */
export interface SandboxMakerFill {
  order_id: number;
  symbol: string;
  fill: SandboxFill;
  left_qty_1e8: number;
}

export interface SandboxCancel {
  /** 0 when the order was not resting (unknown, filled, or filled by the race). */
  cancelled_qty_1e8: number;
  /** `cancel_race`: the fill the cancel arrived after, to report before the cancel's answer. */
  fills: SandboxMakerFill[];
}

/** A resting order's state, for tests and diagnostics. */
export interface SandboxOrderState {
  symbol: string;
  side: Side;
  price_1e9: number;
  left_qty_1e8: number;
  /** Displayed quantity still ahead of it at its price. */
  queue_ahead_1e8: number;
}

interface Resting extends SandboxOrderState {
  id: number;
  lot: number;
  /** Arrival instant: trades at or before it are already in the book the order met. */
  placed_ns: number;
}

/** Resting orders of one symbol, each side in priority order (best price, then arrival). */
interface SymbolOrders {
  bids: Resting[];
  asks: Resting[];
}

/**
 * Sandbox order ids start here: live ids are seq x 256 + 255 (`sim-venue.ts`), far below, so an
 * edge can keep both in one map. Still a safe integer for 2^52 orders.
 */
export const SANDBOX_ORDER_BASE = 2 ** 52;
const NS_PER_MS = 1_000_000;
const NO_FILLS: readonly SandboxMakerFill[] = Object.freeze([]);

function checkRate(name: string, v: number | undefined): number {
  const rate = v ?? 0;
  if (!(rate >= 0 && rate <= 1)) throw new RangeError(`sandbox ${name}=${v} is not in [0, 1]`);
  return rate;
}

export class SandboxVenue {
  private readonly edge: SandboxEdge;
  private readonly rejectRate: number;
  private readonly partialRate: number;
  private readonly disconnectRate: number;
  private readonly cancelRace: boolean;
  private readonly latencyNs: number;
  private readonly prefix: string;
  private readonly rejectRng: Rng;
  private readonly takerPartialRng: Rng;
  private readonly makerPartialRng: Rng;
  private readonly raceRng: Rng;
  private readonly answerRng: Rng;
  private readonly bySymbol = new Map<string, SymbolOrders>();
  private readonly byId = new Map<number, Resting>();
  private orderSeq = 0;
  private tradeSeq = 0;
  /** Scratch of a walk: level prices and quantities taken, reused by every order. */
  private readonly walkPx: number[] = [];
  private readonly walkQty: number[] = [];

  constructor(edge: SandboxEdge, settings: SandboxSettings = {}) {
    this.edge = edge;
    this.rejectRate = checkRate('reject_rate', settings.reject_rate);
    this.partialRate = checkRate('partial_fill_rate', settings.partial_fill_rate);
    this.disconnectRate = checkRate('disconnect_rate', settings.disconnect_rate);
    this.cancelRace = settings.cancel_race === true;
    const latency = edge.venue_latency_ms + (settings.latency_ms ?? 0);
    if (!(latency >= 0 && Number.isFinite(latency))) throw new RangeError(`sandbox latency ${latency} ms is not a finite non-negative number`);
    this.latencyNs = Math.round(latency * NS_PER_MS);
    this.prefix = edge.trade_id_prefix ?? 'sbx-';
    const seed = settings.seed ?? 42;
    const stream = (knob: string) => new Rng(seedFrom(seed, 'sandbox', edge.edge_id, knob));
    this.rejectRng = stream('reject');
    this.takerPartialRng = stream('partial-taker');
    this.makerPartialRng = stream('partial-maker');
    this.raceRng = stream('cancel-race');
    this.answerRng = stream('disconnect');
  }

  /**
   * When an order decided at `decision_ns` reaches the venue: the venue's one-way latency plus
   * `latency_ms`. The edge executes it then, with the book as it is then (the book may have
   * moved since the decision: that is the point).
   */
  arrivalNs(decision_ns: number): number {
    return decision_ns + this.latencyNs;
  }

  /** `disconnect_rate`: true when the edge should drop this answer (the order was executed; the journal keeps the truth). */
  answerLost(): boolean {
    return this.answerRng.uniform() < this.disconnectRate;
  }

  /**
   * Immediate-or-cancel at `limit_price_1e9` (any price when undefined) against `book` at
   * arrival `now_ns`: walks the visible levels best first, never better than a level's price,
   * never more than its displayed quantity (in whole lots), stopping at the limit; what the
   * depth cannot take is not filled. Taker fees.
   */
  executeIoc(book: SandboxBook, symbol: string, side: Side, qty_1e8: number, limit_price_1e9: number | undefined, now_ns: number): SandboxExecution {
    // Every order draws its numbers first, whatever happens to it (see the header).
    const rejectU = this.rejectRng.uniform();
    const cutU = this.takerPartialRng.uniform();
    const cutFrac = this.takerPartialRng.uniform();
    const rules = this.edge.rules(symbol);
    const refused = this.refusal(book, rules, qty_1e8, limit_price_1e9, rejectU);
    if (refused !== null) return { ok: false, reason: refused, fills: [] };
    const lot = rules!.lot_1e8;
    const isBuy = side === Side.BID;
    // The live engine's market order answers an empty opposite side this way (ok, no fills).
    if (limit_price_1e9 === undefined && (isBuy ? book.askCount : book.bidCount) === 0) return { ok: true, reason: 'no_liquidity', fills: [] };
    let filled = this.walk(book, side, qty_1e8, limit_price_1e9, lot);
    if (filled >= lot && cutU < this.partialRate) {
      // Strictly fewer lots than the depth allowed, possibly none: the best levels are kept.
      const lots = filled / lot;
      filled = Math.min(lots - 1, Math.floor(cutFrac * lots)) * lot;
    }
    return { ok: true, reason: null, fills: this.takerFills(filled, now_ns) };
  }

  /**
   * A limit order that may rest (GTC): the crossing part fills now as taker (as `executeIoc`,
   * never cut by `partial_fill_rate`: what it did not take would rest priced through the book);
   * the rest rests with a queue position = the quantity displayed at its price on its own side
   * at arrival (0 when its price improves the book or has no level).
   */
  placeLimit(book: SandboxBook, symbol: string, side: Side, qty_1e8: number, limit_price_1e9: number, now_ns: number): SandboxPlacement {
    const rejectU = this.rejectRng.uniform();
    const rules = this.edge.rules(symbol);
    const refused = this.refusal(book, rules, qty_1e8, limit_price_1e9, rejectU);
    if (refused !== null) return { ok: false, reason: refused, fills: [], order_id: 0, resting_qty_1e8: 0 };
    const lot = rules!.lot_1e8;
    const filled = this.walk(book, side, qty_1e8, limit_price_1e9, lot);
    const fills = this.takerFills(filled, now_ns);
    const rest = qty_1e8 - filled;
    if (rest <= 0) return { ok: true, reason: null, fills, order_id: 0, resting_qty_1e8: 0 };
    const id = SANDBOX_ORDER_BASE + ++this.orderSeq;
    const order: Resting = {
      id,
      symbol,
      side,
      price_1e9: limit_price_1e9,
      left_qty_1e8: rest,
      queue_ahead_1e8: displayedAt(book, side, limit_price_1e9),
      lot,
      placed_ns: now_ns,
    };
    this.insert(order);
    return { ok: true, reason: null, fills, order_id: id, resting_qty_1e8: rest };
  }

  /**
   * A trade printed by the venue (call before the `onLevel` of the same event, the order the
   * venue reports them in, or the queue would advance twice). It reaches the resting orders on
   * the maker side in priority order: one at the trade's price fills from what is left of the
   * trade after its queue ahead; one priced better than the trade (traded through: everything
   * ahead of it is gone) fills from the whole trade. Either way at most the traded quantity,
   * less what better-placed sandbox orders took from the same trade. Maker fees.
   */
  onTrade(symbol: string, price_1e9: number, qty_1e8: number, taker_side: Side, ts_ns: number): readonly SandboxMakerFill[] {
    const orders = this.bySymbol.get(symbol);
    if (orders === undefined || !(qty_1e8 > 0)) return NO_FILLS;
    // A sell taker hits resting buys and a buy taker resting sells.
    const makers = taker_side === Side.ASK ? orders.bids : orders.asks;
    if (makers.length === 0) return NO_FILLS;
    const isBid = taker_side === Side.ASK;
    let out: SandboxMakerFill[] | undefined;
    let taken = 0;
    for (let i = 0; i < makers.length; i++) {
      const o = makers[i]!;
      const through = isBid ? price_1e9 < o.price_1e9 : price_1e9 > o.price_1e9;
      // Priority order: once the trade does not reach an order it reaches no worse one.
      if (!through && price_1e9 !== o.price_1e9) break;
      if (ts_ns <= o.placed_ns) continue;
      let avail: number;
      if (through) {
        avail = qty_1e8 - taken;
        o.queue_ahead_1e8 = 0;
      } else {
        avail = qty_1e8 - o.queue_ahead_1e8 - taken;
        o.queue_ahead_1e8 = Math.max(0, o.queue_ahead_1e8 - qty_1e8);
      }
      if (avail < o.lot) continue;
      let q = Math.min(o.left_qty_1e8, avail - (avail % o.lot));
      const cutU = this.makerPartialRng.uniform();
      const cutFrac = this.makerPartialRng.uniform();
      if (cutU < this.partialRate) {
        const lots = q / o.lot;
        q = Math.min(lots - 1, Math.floor(cutFrac * lots)) * o.lot;
      }
      if (q <= 0) continue;
      taken += q;
      (out ??= []).push(this.makerFill(o, q, o.price_1e9, ts_ns));
    }
    if (out === undefined) return NO_FILLS;
    this.sweep(makers);
    return out;
  }

  /**
   * The venue's level (side, price) now displays `qty_1e8`: queue ahead never exceeds it, so
   * cancellations ahead move a resting order up; quantity added behind never moves it back.
   */
  onLevel(symbol: string, side: Side, price_1e9: number, qty_1e8: number): void {
    const orders = this.bySymbol.get(symbol);
    if (orders === undefined) return;
    const list = side === Side.BID ? orders.bids : orders.asks;
    for (let i = 0; i < list.length; i++) {
      const o = list[i]!;
      if (o.price_1e9 === price_1e9 && o.queue_ahead_1e8 > qty_1e8) o.queue_ahead_1e8 = Math.max(0, qty_1e8);
    }
  }

  /**
   * Cancels a resting order at `now_ns`. With `cancel_race` the cancel arrives after a fill: a
   * drawn number of lots (at least one, up to all that is left) fills at the order's price
   * first, and only the rest is cancelled.
   */
  cancel(order_id: number, now_ns: number): SandboxCancel {
    const o = this.byId.get(order_id);
    if (o === undefined) return { cancelled_qty_1e8: 0, fills: [] };
    const fills: SandboxMakerFill[] = [];
    if (this.cancelRace) {
      const lots = o.left_qty_1e8 / o.lot;
      const q = (1 + Math.min(lots - 1, Math.floor(this.raceRng.uniform() * lots))) * o.lot;
      fills.push(this.makerFill(o, q, o.price_1e9, now_ns));
    }
    const cancelled = o.left_qty_1e8;
    o.left_qty_1e8 = 0;
    const orders = this.bySymbol.get(o.symbol)!;
    this.sweep(o.side === Side.BID ? orders.bids : orders.asks);
    return { cancelled_qty_1e8: cancelled, fills };
  }

  /** A resting order's state (a copy), undefined when it no longer rests. */
  order(order_id: number): SandboxOrderState | undefined {
    const o = this.byId.get(order_id);
    if (o === undefined) return undefined;
    return { symbol: o.symbol, side: o.side, price_1e9: o.price_1e9, left_qty_1e8: o.left_qty_1e8, queue_ahead_1e8: o.queue_ahead_1e8 };
  }

  restingOrders(): number {
    return this.byId.size;
  }

  // -------------------------------------------------------------------------------------------

  /** The live venue's refusals in its order, then the `reject_rate` fault; null when accepted. */
  private refusal(book: SandboxBook, rules: MatchingRules | undefined, qty: number, limit: number | undefined, rejectU: number): SandboxReason | null {
    if (rules === undefined) return 'not_listed';
    if (book.connected === false) return 'venue_disconnected';
    const reason = limit === undefined ? marketReject(rules, qty) : limitReject(rules, limit, qty);
    if (reason !== null) return reason;
    return rejectU < this.rejectRate ? 'venue_rejected' : null;
  }

  /**
   * Walks the opposite side of `book` best first into the scratch arrays; returns the quantity
   * taken. Each level gives at most its displayed quantity rounded down to whole lots (a venue
   * fills in lots), at its own price.
   */
  private walk(book: SandboxBook, side: Side, qty: number, limit: number | undefined, lot: number): number {
    const isBuy = side === Side.BID;
    const px = isBuy ? book.asksPx : book.bidsPx;
    const sz = isBuy ? book.asksQty : book.bidsQty;
    const count = isBuy ? book.askCount : book.bidCount;
    const walkPx = this.walkPx;
    const walkQty = this.walkQty;
    walkPx.length = 0;
    walkQty.length = 0;
    let remaining = qty;
    for (let i = 0; i < count && remaining > 0; i++) {
      const p = px[i]!;
      if (limit !== undefined && (isBuy ? p > limit : p < limit)) break;
      const shown = sz[i]!;
      const avail = shown - (shown % lot);
      if (!(p > 0) || !(avail > 0)) continue;
      const take = Math.min(remaining, avail);
      walkPx.push(p);
      walkQty.push(take);
      remaining -= take;
    }
    return qty - remaining;
  }

  /** The first `filled` of the last walk as taker fills, best level first. */
  private takerFills(filled: number, ts_ns: number): SandboxFill[] {
    const fills: SandboxFill[] = [];
    let left = filled;
    for (let i = 0; i < this.walkPx.length && left > 0; i++) {
      const price = this.walkPx[i]!;
      const q = Math.min(left, this.walkQty[i]!);
      left -= q;
      fills.push(this.fill(price, q, ts_ns, 'taker'));
    }
    return fills;
  }

  private makerFill(o: Resting, q: number, price: number, ts_ns: number): SandboxMakerFill {
    o.left_qty_1e8 -= q;
    return { order_id: o.id, symbol: o.symbol, fill: this.fill(price, q, ts_ns, 'maker'), left_qty_1e8: o.left_qty_1e8 };
  }

  private fill(price_1e9: number, qty_1e8: number, ts_ns: number, liquidity: 'taker' | 'maker'): SandboxFill {
    const bps = liquidity === 'taker' ? this.edge.taker_bps : this.edge.maker_bps;
    return { price_1e9, qty_1e8, trade_id: this.prefix + ++this.tradeSeq, ts_ns, fee_1e9: venueFee1e9(price_1e9, qty_1e8, bps), liquidity };
  }

  /** Inserts after every order with the same or a better price (price, then arrival priority). */
  private insert(o: Resting): void {
    let orders = this.bySymbol.get(o.symbol);
    if (orders === undefined) {
      orders = { bids: [], asks: [] };
      this.bySymbol.set(o.symbol, orders);
    }
    const list = o.side === Side.BID ? orders.bids : orders.asks;
    const isBid = o.side === Side.BID;
    let at = list.length;
    while (at > 0) {
      const p = list[at - 1]!.price_1e9;
      if (isBid ? p >= o.price_1e9 : p <= o.price_1e9) break;
      at--;
    }
    list.splice(at, 0, o);
    this.byId.set(o.id, o);
  }

  /** Drops the orders with nothing left from a side list and the id map. */
  private sweep(list: Resting[]): void {
    let w = 0;
    for (let r = 0; r < list.length; r++) {
      const o = list[r]!;
      if (o.left_qty_1e8 > 0) list[w++] = o;
      else this.byId.delete(o.id);
    }
    list.length = w;
  }
}

/** Quantity displayed at exactly `price` on `side` of the book (0 when no level shows it). */
function displayedAt(book: SandboxBook, side: Side, price: number): number {
  const px = side === Side.BID ? book.bidsPx : book.asksPx;
  const sz = side === Side.BID ? book.bidsQty : book.asksQty;
  const count = side === Side.BID ? book.bidCount : book.askCount;
  for (let i = 0; i < count; i++) if (px[i] === price) return Math.max(0, sz[i]!);
  return 0;
}
