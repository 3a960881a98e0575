import { Side } from '../../../domain/market.ts';

/**
 * One symbol's price-level book as a venue publishes it: absolute quantity per price, a zero
 * quantity removing the level. Each side is kept sorted best first in plain arrays, so the top
 * levels a depth-cache write or a snapshot reads are the first ones, and an update near the
 * top (where nearly all of them land) moves few elements. Pure: no I/O, no clock.
 */
export class L2Book {
  private readonly bidPx: number[] = [];
  private readonly bidQty: number[] = [];
  private readonly askPx: number[] = [];
  private readonly askQty: number[] = [];

  clear(): void {
    this.bidPx.length = 0;
    this.bidQty.length = 0;
    this.askPx.length = 0;
    this.askQty.length = 0;
  }

  /** Sets the level's absolute quantity (0 removes it; removing an absent level is normal). */
  set(side: Side, price_1e9: number, qty_1e8: number): void {
    const bid = side === Side.BID;
    const px = bid ? this.bidPx : this.askPx;
    const qty = bid ? this.bidQty : this.askQty;
    // First index whose price is not better than `price_1e9`.
    let lo = 0;
    let hi = px.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (bid ? px[mid]! > price_1e9 : px[mid]! < price_1e9) lo = mid + 1;
      else hi = mid;
    }
    const found = lo < px.length && px[lo] === price_1e9;
    if (qty_1e8 <= 0) {
      if (found) {
        px.splice(lo, 1);
        qty.splice(lo, 1);
      }
    } else if (found) qty[lo] = qty_1e8;
    else {
      px.splice(lo, 0, price_1e9);
      qty.splice(lo, 0, qty_1e8);
    }
  }

  depth(side: Side): number {
    return side === Side.BID ? this.bidPx.length : this.askPx.length;
  }

  best(side: Side): number | undefined {
    return side === Side.BID ? this.bidPx[0] : this.askPx[0];
  }

  /** The top `depth` levels of a side into the arrays at the given offsets; answers how many. */
  levelsInto(side: Side, depth: number, prices: Float64Array, pricesAt: number, qtys: Float64Array, qtysAt: number): number {
    const px = side === Side.BID ? this.bidPx : this.askPx;
    const qty = side === Side.BID ? this.bidQty : this.askQty;
    const count = Math.min(depth, px.length);
    for (let i = 0; i < count; i++) {
      prices[pricesAt + i] = px[i]!;
      qtys[qtysAt + i] = qty[i]!;
    }
    return count;
  }

  /** The top `depth` levels of a side, flat [price, qty, ...], for a snapshot message. */
  flat(side: Side, depth: number): number[] {
    const px = side === Side.BID ? this.bidPx : this.askPx;
    const qty = side === Side.BID ? this.bidQty : this.askQty;
    const count = Math.min(depth, px.length);
    const out = new Array<number>(count * 2);
    for (let i = 0; i < count; i++) {
      out[2 * i] = px[i]!;
      out[2 * i + 1] = qty[i]!;
    }
    return out;
  }
}
