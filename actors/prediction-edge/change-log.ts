import { marketSymbol, phaseAt, type PredictionVenue } from '../../domain/prediction/catalog.ts';
import type { EdgeStatus } from '../edge/messages.ts';
import type { CatalogPage, ListedEvent } from './messages.ts';

/**
 * A prediction edge's catalog as a change log: each change to an event's record takes the next
 * sequence, and `page` answers the records changed after a sequence, oldest change first, a
 * record superseded since skipped (the gateway reads it at its newer sequence). Entries of
 * superseded changes are compacted away once they outnumber the records. Shared by the simulated
 * edge and the live one, so the gateway reads both alike.
 */
export class CatalogChangeLog<R extends ListedEvent> {
  /** (seq, key) of every change, seq increasing. */
  private changes: { seq: number; key: string }[] = [];
  private seq = 0;
  /** Changes when the edge restarts: a reader starts again from sequence 0. */
  readonly epoch = Date.now();

  constructor(
    private readonly venue: PredictionVenue,
    /** the edge's records by key, the ones the log's entries name */
    private readonly records: ReadonlyMap<string, R>,
    /** the record as it goes on the wire (without what only the edge keeps) */
    private readonly wire: (rec: R) => ListedEvent,
  ) {}

  changed(key: string, rec: R): void {
    rec.seq = ++this.seq;
    this.changes.push({ seq: rec.seq, key });
  }

  /** Drops the entries of superseded changes when they have piled up. */
  compactIfLarge(): void {
    if (this.changes.length <= 2 * this.records.size + 1024) return;
    this.changes = this.changes.filter((c) => this.records.get(c.key)?.seq === c.seq);
  }

  /** Records changed after `after_seq`, oldest change first, up to about `max_markets` markets. */
  page(after_seq: number, max_markets: number): CatalogPage {
    const events: ListedEvent[] = [];
    let markets = 0;
    let i = lowerBound(this.changes, after_seq + 1);
    let next_seq = after_seq;
    for (; i < this.changes.length && markets < max_markets; i++) {
      const { seq, key } = this.changes[i]!;
      next_seq = seq;
      const rec = this.records.get(key);
      if (rec === undefined || rec.seq !== seq) continue;
      events.push(this.wire(rec));
      markets += rec.event.markets.length;
    }
    return { venue: this.venue, epoch: this.epoch, events, next_seq: i >= this.changes.length ? this.seq : next_seq, more: i < this.changes.length };
  }
}

/** The markets trading now among the listed records, as an edge's status lists its symbols. */
export function tradingSymbols(records: Iterable<ListedEvent>, now_ms: number): EdgeStatus['symbols'] {
  const symbols: EdgeStatus['symbols'] = [];
  for (const rec of records) {
    if (rec.delisted) continue;
    for (const m of rec.event.markets) if (phaseAt(m.timeline, now_ms) === 'open') symbols.push({ symbol: marketSymbol(m), instrument_type: 'prediction' });
  }
  return symbols;
}

/** First index whose seq is >= `seq`. */
function lowerBound(changes: readonly { seq: number }[], seq: number): number {
  let lo = 0;
  let hi = changes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (changes[mid]!.seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
