import { Side } from '../../../../domain/market.ts';
import { formatScaled } from '../decimal.ts';
import type { L2Book } from '../l2-book.ts';
import type { SyncOutcome } from '../binance/depth-sync.ts';

/** One push of the `books` channel (an element of the frame's `data`), decoded. */
export interface OkxBookData {
  /** changed (update) or all (snapshot) levels, flat [price_1e9, qty_1e8, ...]; qty 0 removes */
  bids: number[];
  asks: number[];
  /** the venue's own text of the same levels, flat [px, sz, ...], index for index with `bids`/`asks` */
  bidText: string[];
  askText: string[];
  /** CRC-32 of the top 25 levels after this push, signed; 0 when the venue sends none (deprecated, see below) */
  checksum: number;
  /** the `seqId` of the previous push; -1 on a snapshot */
  prevSeqId: number;
  seqId: number;
  ts_ms: number;
}

/** Levels per side the checksum covers. */
export const CHECKSUM_DEPTH = 25;

/**
 * CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320), as zlib computes it, over an ASCII
 * string, returned as the signed 32-bit integer OKX sends. A table rather than `zlib.crc32`:
 * that only exists from Node 20.15, the engines range admits any 20.x, and this folder's
 * README lists the libraries its code may use. The test holds it to zlib and to OKX's examples.
 */
const CRC_TABLE = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

export function crc32Signed(text: string): number {
  let c = -1;
  // charCodeAt is the UTF-8 byte here: checksum strings hold only digits, '.', '-' and ':'.
  for (let i = 0; i < text.length; i++) c = CRC_TABLE[(c ^ text.charCodeAt(i)) & 0xff]! ^ (c >>> 8);
  return (c ^ -1) | 0;
}

/**
 * OKX's checksum string: the top 25 levels of each side as `px:sz`, bid and ask alternating
 * (`bid1:ask1:bid2:ask2...`), the longer side's extra levels following on their own, in the
 * venue's original text (`0.5000` stays `0.5000`).
 */
export function checksumString(bids: readonly (readonly [string, string])[], asks: readonly (readonly [string, string])[]): string {
  const parts: string[] = [];
  const n = Math.max(Math.min(bids.length, CHECKSUM_DEPTH), Math.min(asks.length, CHECKSUM_DEPTH));
  for (let i = 0; i < n; i++) {
    const bid = bids[i];
    const ask = asks[i];
    if (bid !== undefined) parts.push(bid[0], bid[1]);
    if (ask !== undefined) parts.push(ask[0], ask[1]);
  }
  return parts.join(':');
}

/**
 * OKX v5's rule for keeping a local book from the public `books` channel (400 levels), from
 * https://www.okx.com/docs-v5/en/#order-book-trading-market-data-ws-order-book-channel: the
 * first push after subscribing is a full `snapshot` (`prevSeqId` -1), every later one an
 * `update` of absolute sizes (0 removes the level) whose `prevSeqId` is the `seqId` of the
 * push before it. The docs' two exceptions keep that chain and need no case of their own: a
 * quiet book gets an empty update whose `seqId` equals its `prevSeqId`, and after maintenance
 * an update may carry a `seqId` lower than its `prevSeqId`. Any other `prevSeqId` is a gap:
 * the book is cleared and the caller subscribes again for a new snapshot (OKX has no REST
 * snapshot to bridge with, unlike Binance).
 *
 * `checksum` is the CRC-32 of the top 25 levels after the push, over the venue's own decimal
 * text, so the text of each level is kept beside the book: our integers formatted back would
 * lose a price's trailing zeros. A mismatch is a gap too. OKX has deprecated the field (books,
 * books-l2-tbt, books50-l2-tbt; demo 2 June 2026, production 23 June 2026): it stays in the
 * push fixed at 0 and `seqId`/`prevSeqId` is the check. So a 0 is not verified; a real CRC of 0
 * (one in 2^32) goes unchecked once, which the sequence check still covers.
 *
 * Levels are kept as sent: the docs say nothing of trimming the book to 400 levels. Pure.
 */
export class OkxBookSync {
  private whole = false;
  private lastSeqId = -1;
  /** the venue's [px, sz] text per price_1e9, per side, for exactly the levels in the book */
  private readonly text: [Map<number, [string, string]>, Map<number, [string, string]>] = [new Map(), new Map()];
  private readonly topPx = new Float64Array(CHECKSUM_DEPTH);
  private readonly topQty = new Float64Array(CHECKSUM_DEPTH);

  /**
   * @param changes receives each applied level as [side, price_1e9, qty_1e8]; the caller drains it
   */
  constructor(
    private readonly book: L2Book,
    private readonly changes: number[],
  ) {}

  /** The book is whole: a snapshot and every push since, in sequence and matching their checksums. */
  get synced(): boolean {
    return this.whole;
  }

  /** The last applied `seqId`, or -1 while the book is not whole. */
  get seqId(): number {
    return this.whole ? this.lastSeqId : -1;
  }

  /** Forgets the book (a gap, a reconnect): nothing is whole until the next snapshot. */
  reset(): void {
    this.book.clear();
    this.text[0].clear();
    this.text[1].clear();
    this.whole = false;
    this.lastSeqId = -1;
  }

  onPush(action: 'snapshot' | 'update', data: OkxBookData): SyncOutcome {
    return action === 'snapshot' ? this.onSnapshot(data) : this.onUpdate(data);
  }

  onSnapshot(data: OkxBookData): SyncOutcome {
    this.reset();
    this.apply(data, false);
    if (!this.checksumHolds(data.checksum)) {
      this.reset();
      return 'gap';
    }
    this.lastSeqId = data.seqId;
    this.whole = true;
    // The whole book is published on a sync, not its levels one by one.
    this.changes.length = 0;
    return 'synced';
  }

  onUpdate(data: OkxBookData): SyncOutcome {
    // Before the snapshot (or after a gap, until the new one): nothing to build on.
    if (!this.whole) return 'buffered';
    if (data.prevSeqId !== this.lastSeqId) {
      this.reset();
      return 'gap';
    }
    const published = this.changes.length;
    this.apply(data, true);
    if (!this.checksumHolds(data.checksum)) {
      // The levels of a push that broke the book must not be published.
      this.changes.length = published;
      this.reset();
      return 'gap';
    }
    this.lastSeqId = data.seqId;
    return 'applied';
  }

  /** The checksum string of the book as it stands (for diagnostics and tests). */
  checksumText(): string {
    return checksumString(this.top(Side.BID), this.top(Side.ASK));
  }

  private checksumHolds(expected: number): boolean {
    return expected === 0 || crc32Signed(this.checksumText()) === expected;
  }

  private top(side: Side): [string, string][] {
    const count = this.book.levelsInto(side, CHECKSUM_DEPTH, this.topPx, 0, this.topQty, 0);
    const text = this.text[side];
    const out = new Array<[string, string]>(count);
    for (let i = 0; i < count; i++) {
      const px = this.topPx[i]!;
      // Every level enters the book through `apply`, which records its text; the fallback only
      // guards a book written to from elsewhere, and would then fail the checksum, not pass it.
      out[i] = text.get(px) ?? [formatScaled(px, 9), formatScaled(this.topQty[i]!, 8)];
    }
    return out;
  }

  private apply(data: OkxBookData, record: boolean): void {
    this.side(Side.BID, data.bids, data.bidText, record);
    this.side(Side.ASK, data.asks, data.askText, record);
  }

  private side(side: Side, levels: readonly number[], texts: readonly string[], record: boolean): void {
    const { book, changes } = this;
    const text = this.text[side];
    for (let i = 0; i < levels.length; i += 2) {
      const px = levels[i]!;
      const qty = levels[i + 1]!;
      book.set(side, px, qty);
      if (qty > 0) text.set(px, [texts[i]!, texts[i + 1]!]);
      else text.delete(px);
      if (record) changes.push(side, px, qty);
    }
  }
}
