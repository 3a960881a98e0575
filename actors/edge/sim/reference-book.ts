/**
 * A naive matching engine with the same contract as OrderBook: one array of resting orders,
 * linear scans for everything, BigInt notional. Obviously correct and slow; it exists only as
 * the oracle of the differential tests (test/unit/order-book.test.ts). Keep it boring.
 */
import { Side } from '../../../domain/market.ts';
import { QTY_SCALE } from '../../../domain/units.ts';
import type { Matcher, MatchingRules, MatchListener, RejectReason, SubmitResult } from './matcher.ts';

interface RestingOrder {
  id: number;
  side: Side;
  price: number;
  qty: number;
  /** arrival sequence: time priority */
  seq: number;
}

export class ReferenceBook implements Matcher {
  readonly rules: MatchingRules;
  private orders: RestingOrder[] = [];
  private seq = 0;

  constructor(
    rules: MatchingRules,
    private readonly listener: MatchListener,
  ) {
    this.rules = { ...rules };
  }

  limit(id: number, side: Side, price_1e9: number, qty_1e8: number): SubmitResult {
    if (!(id > 0)) throw new RangeError(`order id must be positive, got ${id}`);
    const rejected = this.validateLimit(id, price_1e9, qty_1e8);
    if (rejected !== undefined) return rejected;
    const filled = this.match(id, side, qty_1e8, price_1e9);
    const rest = qty_1e8 - filled;
    if (rest > 0) {
      this.orders.push({ id, side, price: price_1e9, qty: rest, seq: this.seq++ });
      this.listener.onLevel(side, price_1e9, this.levelTotal(side, price_1e9));
    }
    return { ok: true, reason: undefined, filled_qty_1e8: filled, resting_qty_1e8: rest };
  }

  market(id: number, side: Side, qty_1e8: number): SubmitResult {
    if (!(id > 0)) throw new RangeError(`order id must be positive, got ${id}`);
    const rejected = this.validateQty(qty_1e8) ?? this.validateId(id);
    if (rejected !== undefined) return rejected;
    const opposite = side === Side.BID ? Side.ASK : Side.BID;
    if (!this.orders.some((o) => o.side === opposite)) return reject('no_liquidity');
    const filled = this.match(id, side, qty_1e8, undefined);
    return { ok: true, reason: undefined, filled_qty_1e8: filled, resting_qty_1e8: 0 };
  }

  cancel(id: number): boolean {
    const index = this.orders.findIndex((o) => o.id === id);
    if (index < 0) return false;
    const [order] = this.orders.splice(index, 1);
    this.listener.onLevel(order!.side, order!.price, this.levelTotal(order!.side, order!.price));
    return true;
  }

  reduce(id: number, new_qty_1e8: number): boolean {
    const order = this.orders.find((o) => o.id === id);
    if (order === undefined) return false;
    if (!(new_qty_1e8 > 0 && new_qty_1e8 < order.qty) || new_qty_1e8 % this.rules.lot_1e8 !== 0) return false;
    order.qty = new_qty_1e8;
    this.listener.onLevel(order.side, order.price, this.levelTotal(order.side, order.price));
    return true;
  }

  bestBid(): number | undefined {
    return this.levels(Side.BID, 1)[0]?.price_1e9;
  }

  bestAsk(): number | undefined {
    return this.levels(Side.ASK, 1)[0]?.price_1e9;
  }

  levels(side: Side, depth: number): { price_1e9: number; qty_1e8: number }[] {
    const totals = new Map<number, number>();
    for (const o of this.orders) if (o.side === side) totals.set(o.price, (totals.get(o.price) ?? 0) + o.qty);
    const prices = [...totals.keys()].sort((a, b) => (side === Side.BID ? b - a : a - b));
    return prices.slice(0, depth).map((price) => ({ price_1e9: price, qty_1e8: totals.get(price)! }));
  }

  levelsInto(side: Side, depth: number, prices: Float64Array, pricesAt: number, qtys: Float64Array, qtysAt: number): number {
    const levels = this.levels(side, depth);
    levels.forEach((l, i) => {
      prices[pricesAt + i] = l.price_1e9;
      qtys[qtysAt + i] = l.qty_1e8;
    });
    return levels.length;
  }

  restingOrders(): number {
    return this.orders.length;
  }

  restingQty(id: number): number {
    return this.orders.find((o) => o.id === id)?.qty ?? 0;
  }

  snapshotOrders(side: Side): { id: number; price_1e9: number; qty_1e8: number }[] {
    return this.orders
      .filter((o) => o.side === side)
      .sort((a, b) => (a.price === b.price ? a.seq - b.seq : side === Side.BID ? b.price - a.price : a.price - b.price))
      .map((o) => ({ id: o.id, price_1e9: o.price, qty_1e8: o.qty }));
  }

  /** Fills against the best opposite order, one maker at a time, while it crosses `limit`. */
  private match(takerId: number, side: Side, qty: number, limit: number | undefined): number {
    const opposite = side === Side.BID ? Side.ASK : Side.BID;
    let remaining = qty;
    while (remaining > 0) {
      let best: RestingOrder | undefined;
      for (const o of this.orders) {
        if (o.side !== opposite) continue;
        if (limit !== undefined && (side === Side.BID ? o.price > limit : o.price < limit)) continue;
        const better =
          best === undefined ||
          (side === Side.BID ? o.price < best.price : o.price > best.price) ||
          (o.price === best.price && o.seq < best.seq);
        if (better) best = o;
      }
      if (best === undefined) break;
      const q = Math.min(remaining, best.qty);
      best.qty -= q;
      remaining -= q;
      if (best.qty === 0) this.orders.splice(this.orders.indexOf(best), 1);
      this.listener.onFill({ maker_id: best.id, taker_id: takerId, taker_side: side, price_1e9: best.price, qty_1e8: q });
      this.listener.onLevel(opposite, best.price, this.levelTotal(opposite, best.price));
    }
    return qty - remaining;
  }

  private levelTotal(side: Side, price: number): number {
    let total = 0;
    for (const o of this.orders) if (o.side === side && o.price === price) total += o.qty;
    return total;
  }

  /** Same order as OrderBook: tick, lot, min_qty, min_notional, duplicate_id. */
  private validateLimit(id: number, price: number, qty: number): SubmitResult | undefined {
    const rules = this.rules;
    if (!Number.isSafeInteger(price) || price <= 0 || price % rules.tick_1e9 !== 0) return reject('tick');
    const bad = this.validateQty(qty);
    if (bad !== undefined) return bad;
    if (rules.min_notional_1e9 > 0 && !meetsMinNotional(price, qty, rules.min_notional_1e9)) return reject('min_notional');
    return this.validateId(id);
  }

  private validateQty(qty: number): SubmitResult | undefined {
    if (!Number.isSafeInteger(qty) || qty % this.rules.lot_1e8 !== 0) return reject('lot');
    if (qty <= 0 || qty < this.rules.min_qty_1e8) return reject('min_qty');
    return undefined;
  }

  private validateId(id: number): SubmitResult | undefined {
    return this.orders.some((o) => o.id === id) ? reject('duplicate_id') : undefined;
  }
}

function reject(reason: RejectReason): SubmitResult {
  return { ok: false, reason, filled_qty_1e8: 0, resting_qty_1e8: 0 };
}

/** Exact min-notional check: floor(price x qty / QTY_SCALE) >= min, in BigInt. */
export function meetsMinNotional(price: number, qty: number, min: number): boolean {
  return BigInt(price) * BigInt(qty) >= BigInt(min) * BigInt(QTY_SCALE);
}
