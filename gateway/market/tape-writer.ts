import type { TapeBatch } from '../../actors/edge/messages.ts';
import { books } from '../../actors/market/directory.ts';
import { POOLS } from '../../actors/dex-chain/pools.ts';
import type { Logger } from '../../engine/actor.ts';
import type { Storage } from '../../storage/index.ts';

/** Tape key of a symbol: spot trades under the symbol, perpetual trades under `<symbol>:perp`. */
export function tapeKey(symbol: string, instrumentType: 'spot' | 'perp'): string {
  return instrumentType === 'perp' ? `${symbol}:perp` : symbol;
}

const PRUNE_EVERY_MS = 10 * 60_000;
/**
 * How long trades wait to be written. Ten edges report trades many times a second each, and
 * every event turn with a write is an LMDB transaction (a copy of the touched B-tree pages and
 * a sync): written as they came, the tape alone was about 300 transactions a second on an idle
 * service, and under load it split the journal's group commits. A history read may miss the
 * last tenth of a second, which the live streams carry.
 */
export const TAPE_WRITE_EVERY_MS = 100;

/**
 * Receives the edges' trade batches on the gateway thread (which owns LMDB) and appends them to
 * the tape and the minute bars; prunes raw trades past the retention in the background.
 */
export class TapeWriter {
  private readonly keys = [...books().map((b) => tapeKey(b.symbol, b.instrument_type)), ...new Set(POOLS.map((p) => p.symbol))];
  private pruneTimer: NodeJS.Timeout | undefined;
  private writeTimer: NodeJS.Timeout | undefined;
  private pending: TapeBatch[] = [];
  /** Batches dropped while storage was not writable. */
  private dropped = 0;

  constructor(
    private readonly storage: Storage,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.pruneTimer = setInterval(() => {
      this.storage.tape.prune(this.keys, Date.now()).catch((err: unknown) => this.log.error({ err }, 'tape prune failed'));
    }, PRUNE_EVERY_MS);
    this.pruneTimer.unref();
    this.writeTimer = setInterval(() => this.write(), TAPE_WRITE_EVERY_MS);
    this.writeTimer.unref();
  }

  /** Writes what is pending: the storage closes after this. */
  stop(): void {
    clearInterval(this.pruneTimer);
    clearInterval(this.writeTimer);
    this.write();
  }

  onBatch(batch: TapeBatch): void {
    this.pending.push(batch);
  }

  /** Every pending batch in one event turn: one transaction. */
  private write(): void {
    const batches = this.pending;
    this.pending = [];
    if (!this.storage.isOpen) return;
    // While commits fail (a full disk) the tape waits: history may miss those trades, but ten
    // failing commits a second are not added to the journal's, and lmdb-js's failed-write path
    // is where it has been seen to abort the process (storage-faults suite).
    if (!this.storage.writable) {
      if (this.dropped++ === 0) this.log.warn({}, 'trade tape paused: storage is not writable');
      return;
    }
    if (this.dropped > 0) {
      this.log.warn({ batches: this.dropped }, 'trade tape resumed; trades of the pause were not kept');
      this.dropped = 0;
    }
    for (const batch of batches) this.append(batch);
  }

  private append(batch: TapeBatch): void {
    const { symbols, numbers, trade_ids } = batch;
    for (let i = 0; i < symbols.length; i++) {
      const key = tapeKey(symbols[i]!, batch.instrument_type);
      const price = numbers[i * 4]!;
      const qty = numbers[i * 4 + 1]!;
      const ts = numbers[i * 4 + 3]!;
      this.storage.tape.append({
        symbol: key,
        ts_ms: ts,
        price_1e9: price,
        qty_1e8: qty,
        side: numbers[i * 4 + 2] === 0 ? 'buy' : 'sell',
        venue_id: batch.venue,
        instrument_type: batch.instrument_type,
        trade_id: trade_ids[i]!,
      });
      this.storage.bars.add(key, ts, price, qty);
    }
  }
}
