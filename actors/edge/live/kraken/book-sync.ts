import { Side } from '../../../../domain/market.ts';
import type { FeedOutcome } from '../book-feeds.ts';
import type { L2Book } from '../l2-book.ts';
import { crc32Signed } from '../okx/book-sync.ts';

/** One symbol's entry of a v2 `book` message (an element of its `data`), decoded by `codec.ts`. */
export interface KrakenBookData {
  /** the v2 symbol, `BTC/USD` */
  symbol: string;
  /** all (snapshot) or changed (update) levels, flat [price_1e9, qty_1e8, ...]; qty 0 removes, in the order sent */
  bids: number[];
  asks: number[];
  /** the venue's own text of the same numbers, flat [price, qty, ...], index for index with `bids`/`asks` */
  bidText: string[];
  askText: string[];
  /** CRC-32 (unsigned) of the top 10 levels after this message; null when the message carries none */
  checksum: number | null;
  /** the venue's `timestamp` in ms; null when absent */
  ts_ms: number | null;
}

/** Levels per side the checksum covers, whatever the subscribed depth. */
export const CHECKSUM_LEVELS = 10;

/** The depths the `book` channel accepts (any other is refused at subscribe); 10 is its default. */
export type KrakenBookDepth = 10 | 25 | 100 | 500 | 1000;

/**
 * One number's part of the checksum string: the venue's text with its decimal point removed and
 * then its leading zeros ("0.00100000" -> "100000", "45285.2" -> "452852"). Trailing zeros stay,
 * which is why the text must be the venue's and not our integer printed back.
 */
export function checksumToken(text: string): string {
  let out = '';
  let leading = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '.') continue;
    if (leading && c === '0') continue;
    leading = false;
    out += c;
  }
  return out;
}

/** CRC-32 (zlib's) of the checksum string as the unsigned integer Kraken sends. */
export function crc32Unsigned(text: string): number {
  return crc32Signed(text) >>> 0;
}

/**
 * Kraken's WebSocket v2 `book` channel kept whole, after
 * https://docs.kraken.com/api/docs/guides/spot-ws-book-v2 ("Spot Websockets (v2) Book Checksum"):
 *
 *  - a subscription answers with one `snapshot` of the subscribed depth, then `update`s of
 *    absolute quantities, a quantity of 0 removing the level; one update may touch the same level
 *    more than once, applied in the order sent. Every message is applied whole before the check.
 *  - the book is truncated to the subscribed depth after every message: a level pushed out of
 *    that depth is never sent with quantity 0, and keeping it would corrupt the top 10 the
 *    checksum covers once levels above it go away.
 *  - `checksum` is the CRC-32 over the top 10 asks (best first) then the top 10 bids (best
 *    first), each level its price then its quantity as `checksumToken` writes them. The snapshot
 *    carries one too (the guide's worked example is a snapshot).
 *  - there is no sequence number: the checksum is the only gap detector. A mismatch clears the
 *    book and answers 'gap'; the caller unsubscribes and subscribes again for a new snapshot.
 *
 * The token is taken from the venue's own text of each number, kept per level beside the book.
 * v2 sends prices and quantities as JSON numbers "containing full precision" (trailing zeros on
 * the wire: `"qty":0.10000000`), and the guide tells clients to decode them as decimal text, not
 * floats; `codec.ts` reads that text out of the frame. (Formatting our integers with the pair's
 * `pair_decimals`/`lot_decimals`, as python-kraken-sdk does, gives the same string while the
 * wire pads to those decimals; the wire's own text needs no such assumption.)
 *
 * Changes published for an update are the levels it set, then a removal (qty 0) for each level
 * the truncation dropped, so a book built from them stays the venue's book. Pure.
 */
export class KrakenBookSync {
  private whole = false;
  /** the checksum token per price_1e9, per side, for exactly the levels in the book */
  private readonly tokens: [Map<number, string>, Map<number, string>] = [new Map(), new Map()];
  private scratchPx = new Float64Array(CHECKSUM_LEVELS);
  private scratchQty = new Float64Array(CHECKSUM_LEVELS);

  /**
   * @param changes receives each applied level as [side, price_1e9, qty_1e8]; the caller drains it
   * @param depth the depth subscribed (the book is truncated to it)
   */
  constructor(
    private readonly book: L2Book,
    private readonly changes: number[],
    readonly depth: KrakenBookDepth = 10,
  ) {}

  /** The book is whole: a snapshot and every update since, each matching its checksum. */
  get synced(): boolean {
    return this.whole;
  }

  /** Forgets the book (a gap, a reconnect): nothing is whole until the next snapshot. */
  reset(): void {
    this.book.clear();
    this.tokens[0].clear();
    this.tokens[1].clear();
    this.whole = false;
  }

  onPush(type: 'snapshot' | 'update', data: KrakenBookData): FeedOutcome {
    return type === 'snapshot' ? this.onSnapshot(data) : this.onUpdate(data);
  }

  onSnapshot(data: KrakenBookData): FeedOutcome {
    this.reset();
    this.apply(data, false);
    if (!this.checksumHolds(data.checksum)) {
      this.reset();
      return 'gap';
    }
    this.whole = true;
    // The whole book is published on a sync, not its levels one by one.
    this.changes.length = 0;
    return 'synced';
  }

  onUpdate(data: KrakenBookData): FeedOutcome {
    // Before the snapshot (or after a gap, until the new one): nothing to build on.
    if (!this.whole) return 'buffered';
    const published = this.changes.length;
    this.apply(data, true);
    if (!this.checksumHolds(data.checksum)) {
      // The levels of a message that broke the book must not be published.
      this.changes.length = published;
      this.reset();
      return 'gap';
    }
    return 'applied';
  }

  /** The checksum string of the book as it stands (for diagnostics and tests). */
  checksumText(): string {
    return this.topTokens(Side.ASK) + this.topTokens(Side.BID);
  }

  /** The CRC-32 the venue should send for the book as it stands. */
  checksum(): number {
    return crc32Unsigned(this.checksumText());
  }

  /**
   * A message without a checksum is taken as sent: the docs and captured traffic show one on
   * every snapshot and update, and the next message's checksum covers the book again.
   */
  private checksumHolds(expected: number | null): boolean {
    return expected === null || this.checksum() === expected;
  }

  private topTokens(side: Side): string {
    const count = this.book.levelsInto(side, CHECKSUM_LEVELS, this.scratchPx, 0, this.scratchQty, 0);
    const tokens = this.tokens[side];
    let out = '';
    // Every level enters the book through `apply`, which records its token; a level without one
    // could only come from elsewhere, and then fails the checksum rather than passing it.
    for (let i = 0; i < count; i++) out += tokens.get(this.scratchPx[i]!) ?? '?';
    return out;
  }

  private apply(data: KrakenBookData, record: boolean): void {
    this.side(Side.BID, data.bids, data.bidText, record);
    this.side(Side.ASK, data.asks, data.askText, record);
    this.truncate(Side.BID, record);
    this.truncate(Side.ASK, record);
  }

  private side(side: Side, levels: readonly number[], texts: readonly string[], record: boolean): void {
    const { book, changes } = this;
    const tokens = this.tokens[side];
    for (let i = 0; i < levels.length; i += 2) {
      const px = levels[i]!;
      const qty = levels[i + 1]!;
      book.set(side, px, qty);
      if (qty > 0) tokens.set(px, checksumToken(texts[i]!) + checksumToken(texts[i + 1]!));
      else tokens.delete(px);
      if (record) changes.push(side, px, qty);
    }
  }

  /** Drops the levels past the subscribed depth, worst first. */
  private truncate(side: Side, record: boolean): void {
    const count = this.book.depth(side);
    if (count <= this.depth) return;
    if (this.scratchPx.length < count) {
      this.scratchPx = new Float64Array(count);
      this.scratchQty = new Float64Array(count);
    }
    this.book.levelsInto(side, count, this.scratchPx, 0, this.scratchQty, 0);
    const tokens = this.tokens[side];
    for (let i = count - 1; i >= this.depth; i--) {
      const px = this.scratchPx[i]!;
      this.book.set(side, px, 0);
      tokens.delete(px);
      if (record) this.changes.push(side, px, 0);
    }
  }
}
