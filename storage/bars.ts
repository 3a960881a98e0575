import type { Databases } from './database.ts';

/**
 * One-minute bars of the trade tape, so a day or a month of price history is a scan of 1,440
 * or 43,200 rows rather than millions of trades. Bars are built in memory as trades arrive and
 * written when their minute closes (and on shutdown).
 *
 *   bars_1m: [tape key, minute_ms] -> Bar
 */
export interface Bar {
  open_1e9: number;
  high_1e9: number;
  low_1e9: number;
  close_1e9: number;
  volume_1e8: number;
  trades: number;
  last_ts_ms: number;
}

export const MINUTE_MS = 60_000;

export class BarStore {
  private readonly open = new Map<string, { minute: number; bar: Bar }>();

  constructor(private readonly db: Databases) {}

  add(key: string, ts_ms: number, price_1e9: number, qty_1e8: number): void {
    const minute = ts_ms - (ts_ms % MINUTE_MS);
    let current = this.open.get(key);
    if (current !== undefined && current.minute !== minute) {
      if (minute < current.minute) return; // a late trade of a closed minute: the bar is final
      this.db.writes.watch(this.db.bars.put([key, current.minute], current.bar));
      current = undefined;
    }
    if (current === undefined) {
      current = {
        minute,
        bar: { open_1e9: price_1e9, high_1e9: price_1e9, low_1e9: price_1e9, close_1e9: price_1e9, volume_1e8: 0, trades: 0, last_ts_ms: ts_ms },
      };
      this.open.set(key, current);
    }
    const bar = current.bar;
    if (price_1e9 > bar.high_1e9) bar.high_1e9 = price_1e9;
    if (price_1e9 < bar.low_1e9) bar.low_1e9 = price_1e9;
    if (ts_ms >= bar.last_ts_ms) {
      bar.close_1e9 = price_1e9;
      bar.last_ts_ms = ts_ms;
    }
    bar.volume_1e8 += qty_1e8;
    bar.trades++;
  }

  /** Bars of `key` with from_ms <= minute < to_ms, ascending, including the open minute. */
  range(key: string, from_ms: number, to_ms: number): { minute_ms: number; bar: Bar }[] {
    const out: { minute_ms: number; bar: Bar }[] = [];
    for (const { key: k, value } of this.db.bars.getRange({ start: [key, from_ms - (from_ms % MINUTE_MS)], end: [key, to_ms] })) {
      out.push({ minute_ms: k[1], bar: value as Bar });
    }
    const current = this.open.get(key);
    if (current !== undefined && current.minute >= from_ms - (from_ms % MINUTE_MS) && current.minute < to_ms) {
      if (out.length === 0 || out[out.length - 1]!.minute_ms < current.minute) out.push({ minute_ms: current.minute, bar: current.bar });
    }
    return out;
  }

  /** Writes the bars still open (shutdown). */
  flushOpen(): void {
    for (const [key, { minute, bar }] of this.open) this.db.writes.watch(this.db.bars.put([key, minute], bar));
  }
}
