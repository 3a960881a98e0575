import type { Databases } from './database.ts';

/**
 * The trade tape: every trade the edges report, for price history and the data endpoints.
 *
 *   trades: [symbol, ts_ms, seq] -> TradeRow       ordered by symbol then time, so a history
 *                                                  query is one range scan
 *
 * The tape writer (gateway/market/tape-writer.ts) appends what arrived every 100 ms in one event
 * turn, which lmdb-js makes one transaction; writes are not flushed per
 * trade: the tape is market data, re-creatable from the venues, not client state. Rows older
 * than the retention are pruned in the background.
 */
export interface TradeRow {
  price_1e9: number;
  qty_1e8: number;
  /** taker side */
  side: 'buy' | 'sell';
  venue_id: string;
  instrument_type: 'spot' | 'perp';
  trade_id: string;
}

export interface TapeTrade extends TradeRow {
  symbol: string;
  ts_ms: number;
}

export interface TapeStats {
  written: number;
  pruned: number;
  last_write_ms: number;
  oldest_kept_ms: number;
}

export class TradeTape {
  private seq = 0;
  private written = 0;
  private pruned = 0;
  private lastWriteMs = 0;
  private oldestKeptMs = 0;

  constructor(
    private readonly db: Databases,
    readonly retentionMs: number,
  ) {}

  append(trade: TapeTrade): void {
    const { symbol, ts_ms, ...row } = trade;
    // seq keeps two trades of the same millisecond apart; it wraps long after a ms passes.
    this.seq = (this.seq + 1) % 1_000_000_000;
    this.db.writes.watch(this.db.trades.put([symbol, ts_ms, this.seq], row));
    this.written++;
    this.lastWriteMs = Date.now();
  }

  /** Trades of `symbol` with from_ms <= ts < to_ms, ascending, at most `limit`. */
  range(symbol: string, from_ms: number, to_ms: number, limit = Infinity): TapeTrade[] {
    const out: TapeTrade[] = [];
    for (const { key, value } of this.db.trades.getRange({ start: [symbol, from_ms], end: [symbol, to_ms], limit })) {
      out.push({ symbol, ts_ms: key[1], ...(value as TradeRow) });
    }
    return out;
  }

  /** The last `limit` trades of `symbol`, ascending. */
  latest(symbol: string, limit: number, venue?: string): TapeTrade[] {
    const out: TapeTrade[] = [];
    for (const { key, value } of this.db.trades.getRange({ start: [symbol, Number.MAX_SAFE_INTEGER], end: [symbol, 0], reverse: true })) {
      const row = value as TradeRow;
      if (venue !== undefined && row.venue_id !== venue) continue;
      out.push({ symbol, ts_ms: key[1], ...row });
      if (out.length >= limit) break;
    }
    return out.reverse();
  }

  /** Per-symbol trade counts over [from_ms, to_ms). */
  counts(symbols: readonly string[], from_ms: number, to_ms: number): Record<string, number> {
    const out: Record<string, number> = {};
    for (const symbol of symbols) {
      out[symbol] = this.db.trades.getKeysCount({ start: [symbol, from_ms], end: [symbol, to_ms] });
    }
    return out;
  }

  /** Deletes rows older than the retention; returns how many. */
  async prune(symbols: readonly string[], now_ms: number): Promise<number> {
    const cutoff = now_ms - this.retentionMs;
    let removed = 0;
    await this.db.root.transaction(() => {
      for (const symbol of symbols) {
        for (const key of this.db.trades.getKeys({ start: [symbol, 0], end: [symbol, cutoff] })) {
          this.db.trades.remove(key);
          removed++;
        }
      }
    });
    this.pruned += removed;
    this.oldestKeptMs = cutoff;
    return removed;
  }

  stats(): TapeStats {
    return { written: this.written, pruned: this.pruned, last_write_ms: this.lastWriteMs, oldest_kept_ms: this.oldestKeptMs };
  }
}
