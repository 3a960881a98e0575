import { MAX_OPEN_ORDERS, OrderStatus, type AlgoStateView, type OpenOrder } from './abi.ts';

/**
 * The AlgoState the host keeps true for one algo instance (pure): its position from its own
 * fills (average cost), realized PnL when it reduces, unrealized PnL at the book's mid, and its
 * orders with their status. The algo reads it on every callback; it never writes it.
 *
 * PnL is in USD 1e9 (price 1e9 x qty 1e8 / 1e8), computed in BigInt and truncated toward zero;
 * the average entry is the cost basis over the open quantity, truncated.
 *
 * An order that ended (status DEAD) stays in `orders` until the algo has seen it once (the next
 * callback that carries the state), then leaves, so 32 slots hold the working orders.
 */
export class AlgoState implements AlgoStateView {
  position_1e8 = 0;
  avg_entry_1e9 = 0;
  realized_pnl_1e9 = 0;
  unrealized_pnl_1e9 = 0;
  orders: OpenOrder[] = [];
  /** Totals for the deployment record. */
  fills = 0;
  filled_qty_1e8 = 0;
  /** The open position's exact cost (price 1e9 x qty 1e8), so the truncated average never drifts fill by fill. */
  private cost = 0n;
  /** Ended orders the algo has been shown: they leave at the next compact. */
  private readonly shownDead = new WeakSet<OpenOrder>();

  /** Restores the position part of a checkpoint (after a restart). */
  restore(p: { position_1e8: number; avg_entry_1e9: number; realized_pnl_1e9: number; fills: number; filled_qty_1e8: number }): void {
    this.position_1e8 = p.position_1e8;
    this.avg_entry_1e9 = p.avg_entry_1e9;
    this.realized_pnl_1e9 = p.realized_pnl_1e9;
    this.fills = p.fills;
    this.filled_qty_1e8 = p.filled_qty_1e8;
    this.cost = BigInt(p.avg_entry_1e9) * abs(BigInt(p.position_1e8));
  }

  get liveOrders(): number {
    let n = 0;
    for (const o of this.orders) if (o.status !== OrderStatus.DEAD) n++;
    return n;
  }

  /** A new order the algo asked for; false when 32 are already working. */
  track(orderId: number, px_1e9: number, qty_1e8: number, side: 1 | -1): boolean {
    this.compact();
    if (this.orders.length >= MAX_OPEN_ORDERS) return false;
    this.orders.push({ order_id: orderId, px_1e9, qty_1e8: side * qty_1e8, filled_1e8: 0, side, status: OrderStatus.PENDING });
    return true;
  }

  find(orderId: number): OpenOrder | undefined {
    for (const o of this.orders) if (o.order_id === orderId) return o;
    return undefined;
  }

  acked(orderId: number): void {
    const o = this.find(orderId);
    if (o !== undefined && o.status === OrderStatus.PENDING) o.status = OrderStatus.ACKED;
  }

  /** The order ended (cancelled, rejected, expired, or filled in full). */
  dead(orderId: number): void {
    const o = this.find(orderId);
    if (o !== undefined) o.status = OrderStatus.DEAD;
  }

  /** A fill of one of the algo's orders: the order, the position and the PnL move. */
  fill(orderId: number, side: 1 | -1, qty_1e8: number, px_1e9: number): void {
    if (!(qty_1e8 > 0)) return;
    const o = this.find(orderId);
    if (o !== undefined) {
      o.filled_1e8 += qty_1e8;
      if (o.status !== OrderStatus.DEAD) o.status = o.filled_1e8 >= Math.abs(o.qty_1e8) ? OrderStatus.DEAD : OrderStatus.PARTIAL;
    }
    this.fills++;
    this.filled_qty_1e8 += qty_1e8;
    const pos = BigInt(this.position_1e8);
    const q = BigInt(side * qty_1e8);
    const px = BigInt(px_1e9);
    const avg = BigInt(this.avg_entry_1e9);
    const next = pos + q;
    if (pos === 0n || pos > 0n === q > 0n) {
      // Adding: the average is the exact cost over the open quantity.
      this.cost += abs(q) * px;
      this.avg_entry_1e9 = Number(this.cost / abs(next));
    } else {
      // Reducing (and maybe flipping): what closes realizes against the average entry.
      const closed = abs(q) < abs(pos) ? abs(q) : abs(pos);
      const sign = pos > 0n ? 1n : -1n;
      this.realized_pnl_1e9 += Number(((px - avg) * closed * sign) / 100_000_000n);
      if (next === 0n) {
        this.avg_entry_1e9 = 0;
        this.cost = 0n;
      } else if (next > 0n !== pos > 0n) {
        this.avg_entry_1e9 = px_1e9;
        this.cost = abs(next) * px;
      } else {
        this.cost -= (this.cost * closed) / abs(pos);
      }
    }
    this.position_1e8 = Number(next);
  }

  /** Unrealized PnL at this mid (0 without a position or a mid). */
  mark(mid_1e9: number): void {
    if (this.position_1e8 === 0 || mid_1e9 <= 0) {
      this.unrealized_pnl_1e9 = 0;
      return;
    }
    this.unrealized_pnl_1e9 = Number(((BigInt(mid_1e9) - BigInt(this.avg_entry_1e9)) * BigInt(this.position_1e8)) / 100_000_000n);
  }

  /** The state was just shown to the algo: the ended orders in it have been seen. */
  shown(): void {
    for (const o of this.orders) if (o.status === OrderStatus.DEAD) this.shownDead.add(o);
  }

  /** Drops ended orders the algo has seen; call before writing the state for a callback. */
  compact(): void {
    let seen = 0;
    for (const o of this.orders) if (this.shownDead.has(o)) seen++;
    if (seen > 0) this.orders = this.orders.filter((o) => !this.shownDead.has(o));
  }
}

function abs(x: bigint): bigint {
  return x < 0n ? -x : x;
}
