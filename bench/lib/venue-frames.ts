/**
 * The simulated venue's level changes, recorded once and written as each live venue's depth
 * frames, for bench/depth-decode.bench.ts. Every venue gets the same changes: what differs is
 * the wire (field names, decimal text, ids, sequences, checksums) and what each venue's rules
 * make of them (a depth-limited view, a whole snapshot every push).
 *
 * The renderers know nothing of the adapters' code: ids and sequences are counted here, and the
 * checksums are computed here from the venue's own rules with node:zlib (as test/fakes/*-fake.ts
 * do), so a frame the sync accepts is one the venue would have sent, not one the sync wrote.
 *
 * Decimal text is `formatScaled` of the engine's integers (exact, no trailing zeros): a venue's
 * checksum covers its text, and the renderers take their checksums over the same text they send.
 *
 * Unit of the recording: 100 ms of the simulated edge's subscribed symbols, each symbol's net
 * change over it (the level's quantity at the end of the interval, once, as a 100 ms depth
 * stream carries it). A venue sends one frame per symbol that changed (Kalshi one per level).
 */
import { crc32 } from 'node:zlib';
import { Side } from '../../domain/market.ts';
import { formatScaled } from '../../actors/edge/live/decimal.ts';
import type { SimEdgeSpec } from '../../actors/edge/sim/catalog.ts';
import { LatentPriceModel } from '../../actors/edge/sim/latent-price.ts';
import { SimVenue, type VenueSink } from '../../actors/edge/sim/sim-venue.ts';

const NS_PER_MS = 1_000_000;
/** The simulated edge's tick: it is advanced in 10 ms steps, as the edge actor does. */
export const STEP_MS = 10;

/** The decimal text of a scaled integer, memoized: the renderers write the same prices and sizes over and over. */
function formatter(decimals: number): (scaled: number) => string {
  const texts = new Map<number, string>();
  return (scaled) => {
    let text = texts.get(scaled);
    if (text === undefined) texts.set(scaled, (text = formatScaled(scaled, decimals)));
    return text;
  };
}
const px = formatter(9);
const sz = formatter(8);

// ---------------------------------------------------------------------------------------------
// The recording

/** One symbol's book as the simulated venue holds it: qty_1e8 per price_1e9, per side. */
export class SimBook {
  readonly sides: [Map<number, number>, Map<number, number>] = [new Map(), new Map()];
  /** each side sorted best first, made when first asked for after a change */
  private sorted: [[number, number][] | null, [number, number][] | null] = [null, null];

  set(side: Side, price: number, qty: number): void {
    if (qty === 0) this.sides[side].delete(price);
    else this.sides[side].set(price, qty);
    this.sorted[side] = null;
  }

  qty(side: Side, price: number): number {
    return this.sides[side].get(price) ?? 0;
  }

  /** The best `depth` levels of a side, best first, as [price, qty] pairs (not to be changed). */
  top(side: Side, depth = Infinity): readonly (readonly [number, number])[] {
    let levels = this.sorted[side];
    if (levels === null) this.sorted[side] = levels = [...this.sides[side]].sort(side === Side.BID ? (a, b) => b[0] - a[0] : (a, b) => a[0] - b[0]);
    return depth < levels.length ? levels.slice(0, depth) : levels;
  }

  /** The best price of a side, or undefined when it is empty. */
  best(side: Side): number | undefined {
    let best: number | undefined;
    for (const p of this.sides[side].keys()) if (best === undefined || (side === Side.BID ? p > best : p < best)) best = p;
    return best;
  }

  /** The same, flat [price, qty, ...]. */
  flat(side: Side, depth = Infinity): number[] {
    return this.top(side, depth).flat();
  }

  clone(): SimBook {
    const copy = new SimBook();
    for (const side of [Side.BID, Side.ASK] as const) for (const [p, q] of this.sides[side]) copy.sides[side].set(p, q);
    return copy;
  }
}

/** One symbol's net change over a slice. */
export interface SymbolChange {
  /** index into `Recording.symbols` */
  sym: number;
  /** flat [side, price_1e9, qty_1e8, ...]: each level whose quantity differs from the slice's start, in the order first touched; 0 removes */
  levels: number[];
}

/** 100 ms of the simulated venue's flow. */
export interface Slice {
  /** when the slice ends, ms since the epoch */
  t_ms: number;
  /** level events the simulated venue emitted in it, all symbols (what the simulated edge buffers) */
  events: number;
  /** the symbols whose book changed, in symbol order */
  changes: SymbolChange[];
}

export interface Recording {
  /** the simulated edge's subscribed symbols (`BTC-USDT`, ...) */
  symbols: string[];
  /** each symbol's book as the first slice begins, and after the last */
  opening: SimBook[];
  closing: SimBook[];
  /** when the first slice begins, ms since the epoch */
  start_ms: number;
  slice_ms: number;
  slices: Slice[];
}

/**
 * Runs a simulated venue from `start_ns` for `warmupMs`, takes every subscribed symbol's book,
 * then records `count` slices of `sliceMs`, each as its net level changes per symbol (what a
 * venue's 100 ms depth stream carries: the level's quantity at the end of the interval, once).
 * The books the changes build are checked against the venue's own at the end.
 */
export function recordFlow(spec: SimEdgeSpec, seed: number, start_ns: number, warmupMs: number, sliceMs: number, count: number): Recording {
  const index = new Map<string, number>();
  const pending: number[][] = [];
  const sink: VenueSink = {
    onLevel: (symbol, side, price, qty) => void pending[index.get(symbol)!]!.push(side, price, qty),
    onTrade() {},
    onStatus() {},
  };
  const venue = new SimVenue(spec, new LatentPriceModel(seed), seed, sink, { start_ns });
  const symbols = [...venue.subscribed()];
  symbols.forEach((s, i) => {
    index.set(s, i);
    pending.push([]);
  });
  let now = start_ns;
  for (let t = 0; t < warmupMs; t += STEP_MS) venue.advance((now += STEP_MS * NS_PER_MS));
  const bookOf = (symbol: string) => {
    const snap = venue.snapshot(symbol, 10_000, now)!;
    const book = new SimBook();
    for (const l of snap.bids) book.set(Side.BID, l.price_1e9, l.qty_1e8);
    for (const l of snap.asks) book.set(Side.ASK, l.price_1e9, l.qty_1e8);
    return book;
  };
  const books = symbols.map(bookOf);
  const opening = books.map((b) => b.clone());
  for (const p of pending) p.length = 0;
  const slices: Slice[] = [];
  for (let n = 0; n < count; n++) {
    for (let t = 0; t < sliceMs; t += STEP_MS) venue.advance((now += STEP_MS * NS_PER_MS));
    const slice: Slice = { t_ms: Math.round(now / NS_PER_MS), events: 0, changes: [] };
    for (let sym = 0; sym < symbols.length; sym++) {
      const events = pending[sym]!;
      if (events.length === 0) continue;
      slice.events += events.length / 3;
      const book = books[sym]!;
      // The quantity before the slice of each level touched, in the order first touched.
      const before = [new Map<number, number>(), new Map<number, number>()] as const;
      for (let i = 0; i < events.length; i += 3) {
        const side = events[i]! as Side;
        const price = events[i + 1]!;
        if (!before[side].has(price)) before[side].set(price, book.qty(side, price));
        book.set(side, price, events[i + 2]!);
      }
      events.length = 0;
      const levels: number[] = [];
      for (const side of [Side.BID, Side.ASK] as const) {
        for (const [price, was] of before[side]) {
          const qty = book.qty(side, price);
          if (qty !== was) levels.push(side, price, qty);
        }
      }
      if (levels.length > 0) slice.changes.push({ sym, levels });
    }
    slices.push(slice);
  }
  // The recording is the venue's book, or every venue measured below is measured on a wrong one.
  symbols.forEach((symbol, i) => {
    const venueBook = bookOf(symbol);
    for (const side of [Side.BID, Side.ASK] as const) {
      if (venueBook.flat(side).join() !== books[i]!.flat(side).join()) throw new Error(`recording of ${symbol} drifted from the simulated venue's book`);
    }
  });
  return { symbols, opening, closing: books, start_ms: Math.round(start_ns / NS_PER_MS) + warmupMs, slice_ms: sliceMs, slices };
}

// ---------------------------------------------------------------------------------------------
// What every renderer shares

/** A venue's frames: how each symbol's book opens, then the frames of each slice in order. */
export interface VenueStream<Opening> {
  /** per symbol: the snapshot (a REST answer's numbers, or the frame the stream opens with) */
  opening: Opening[];
  /** per slice: the frames the venue sends for it (one per symbol whose book changed; Kalshi: one per level), in order */
  slices: string[][];
  /** the levels all frames of `slices` carry */
  levels: number;
  /** the levels a side the venue's book holds (null: the whole book) */
  depth: number | null;
  /** per symbol, what the recording's prices are divided by on this venue (1 but for the prediction venues) */
  priceDivisors: number[];
}

/** A REST snapshot's numbers: flat [price_1e9, qty_1e8, ...] best first, and the venue's id for it. */
export interface RestSnapshot {
  id: number;
  bids: number[];
  asks: number[];
}

/** A change's levels split by side, each written by `level`. */
function bySide<T>(levels: readonly number[], level: (price: number, qty: number) => T): { bids: T[]; asks: T[] } {
  const bids: T[] = [];
  const asks: T[] = [];
  for (let i = 0; i < levels.length; i += 3) (levels[i] === Side.BID ? bids : asks).push(level(levels[i + 1]!, levels[i + 2]!));
  return { bids, asks };
}

/**
 * Walks the recording's slices with each symbol's book kept current: `frame` is called per
 * changed symbol after its changes are in `book`, and answers the frame (or frames) to send and
 * the levels they carry, or null for nothing.
 */
function render<O>(
  rec: Recording,
  depth: number | null,
  open: (sym: number, book: SimBook) => O,
  frame: (change: SymbolChange, book: SimBook, slice: Slice) => { text: string | string[]; levels: number } | null,
  priceDivisors: number[] = rec.symbols.map(() => 1),
): VenueStream<O> {
  const books = rec.opening.map((b) => b.clone());
  const opening = books.map((book, sym) => open(sym, book));
  let levels = 0;
  const slices = rec.slices.map((slice) => {
    const texts: string[] = [];
    for (const change of slice.changes) {
      const book = books[change.sym]!;
      for (let i = 0; i < change.levels.length; i += 3) book.set(change.levels[i] as Side, change.levels[i + 1]!, change.levels[i + 2]!);
      const out = frame(change, book, slice);
      if (out === null) continue;
      if (typeof out.text === 'string') texts.push(out.text);
      else texts.push(...out.text);
      levels += out.levels;
    }
    return texts;
  });
  return { opening, slices, levels, depth, priceDivisors };
}

/**
 * A depth-limited venue's view of a book (its top `depth` a side), and what a push of it
 * carries: every level of the view that is new or changed, and 0 for a level of the view that
 * left the book. A level only pushed below the depth by better ones is not sent (Kraken says
 * so; the syncs drop it by truncating to the depth).
 */
class TopView {
  private readonly view: [Map<number, number>, Map<number, number>] = [new Map(), new Map()];

  constructor(readonly depth: number) {}

  /** Takes the book's view; answers the levels that changed in it, flat [price, qty, ...] per side. */
  take(book: SimBook): [number[], number[]] {
    const out: [number[], number[]] = [[], []];
    for (const side of [Side.BID, Side.ASK] as const) {
      const old = this.view[side];
      const next = new Map(book.top(side, this.depth));
      for (const [p, q] of next) if (old.get(p) !== q) out[side].push(p, q);
      for (const p of old.keys()) if (!next.has(p) && book.qty(side, p) === 0) out[side].push(p, 0);
      this.view[side] = next;
    }
    return out;
  }
}

/** RFC 3339 with `digits` decimals of seconds (Kraken writes 6, Coinbase 9). */
function rfc3339(ms: number, digits: number): string {
  return `${new Date(ms).toISOString().slice(0, 23)}${'0'.repeat(digits - 3)}Z`;
}

/** The symbol without its dash: `BTCUSDT`. */
const joined = (symbol: string) => symbol.replace('-', '');

// ---------------------------------------------------------------------------------------------
// Binance: `depthUpdate` on the combined stream, U/u update ids, a REST snapshot's lastUpdateId

export function binanceSymbol(symbol: string): string {
  return joined(symbol);
}

export function renderBinance(rec: Recording): VenueStream<RestSnapshot> {
  const ids = rec.symbols.map(() => 1_000_000);
  return render(
    rec,
    null,
    (sym, book) => ({ id: ids[sym]!, bids: book.flat(Side.BID), asks: book.flat(Side.ASK) }),
    (change, _book, slice) => {
      const s = binanceSymbol(rec.symbols[change.sym]!);
      const { bids, asks } = bySide(change.levels, (p, q) => [px(p), sz(q)]);
      const first = ids[change.sym]! + 1;
      const last = (ids[change.sym] = ids[change.sym]! + bids.length + asks.length);
      const data = { e: 'depthUpdate', E: slice.t_ms, s, U: first, u: last, b: bids, a: asks };
      return { text: JSON.stringify({ stream: `${s.toLowerCase()}@depth@100ms`, data }), levels: bids.length + asks.length };
    },
  );
}

// ---------------------------------------------------------------------------------------------
// OKX: `books` pushes with seqId/prevSeqId and the CRC-32 of the top 25 levels

/** OKX's checksum: the top 25 of each side as `px:sz`, bid and ask alternating, CRC-32 as a signed 32-bit integer. */
function okxChecksum(book: SimBook): number {
  const bids = book.top(Side.BID, 25);
  const asks = book.top(Side.ASK, 25);
  const parts: string[] = [];
  for (let i = 0; i < 25; i++) {
    if (bids[i] !== undefined) parts.push(px(bids[i]![0]), sz(bids[i]![1]));
    if (asks[i] !== undefined) parts.push(px(asks[i]![0]), sz(asks[i]![1]));
  }
  return crc32(parts.join(':')) | 0;
}

export function renderOkx(rec: Recording): VenueStream<string> {
  const seqs = rec.symbols.map(() => 500);
  const level = (p: number, q: number) => [px(p), sz(q), '0', '1'];
  const push = (sym: number, action: 'snapshot' | 'update', bids: string[][], asks: string[][], book: SimBook, ts: number, prevSeqId: number) =>
    JSON.stringify({ arg: { channel: 'books', instId: rec.symbols[sym]! }, action, data: [{ asks, bids, ts: String(ts), checksum: okxChecksum(book), prevSeqId, seqId: seqs[sym]! }] });
  return render(
    rec,
    null,
    (sym, book) => push(sym, 'snapshot', book.top(Side.BID).map(([p, q]) => level(p, q)), book.top(Side.ASK).map(([p, q]) => level(p, q)), book, rec.start_ms, -1),
    (change, book, slice) => {
      const { bids, asks } = bySide(change.levels, level);
      const prev = seqs[change.sym]!++;
      return { text: push(change.sym, 'update', bids, asks, book, slice.t_ms, prev), levels: bids.length + asks.length };
    },
  );
}

// ---------------------------------------------------------------------------------------------
// Kraken: v2 `book`, numbers as JSON numbers, a depth-limited book, the CRC-32 of the top 10

/** The depth the Kraken adapter subscribes (actors/edge/live/kraken/adapter.ts). */
export const KRAKEN_DEPTH = 100;

export function krakenSymbol(symbol: string): string {
  return symbol.replace('-', '/');
}

/**
 * Kraken's v2 checksum, as its guide and test/fakes/kraken-fake.ts compute it: the top 10 asks
 * (best first) then the top 10 bids, each price then quantity with the point and the leading
 * zeros removed, CRC-32 (node:zlib, unsigned).
 */
function krakenChecksum(book: SimBook): number {
  const token = (text: string) => text.replace('.', '').replace(/^0+/, '');
  const side = (s: Side) => book.top(s, 10).map(([p, q]) => token(px(p)) + token(sz(q))).join('');
  return crc32(side(Side.ASK) + side(Side.BID));
}

export function renderKraken(rec: Recording): VenueStream<string> {
  const views = rec.symbols.map(() => new TopView(KRAKEN_DEPTH));
  const side = (flat: readonly number[]) => {
    let out = '';
    for (let i = 0; i < flat.length; i += 2) out += `${i === 0 ? '' : ','}{"price":${px(flat[i]!)},"qty":${sz(flat[i + 1]!)}}`;
    return `[${out}]`;
  };
  const message = (sym: number, type: 'snapshot' | 'update', bids: number[], asks: number[], book: SimBook, ms: number) =>
    `{"channel":"book","type":"${type}","data":[{"symbol":"${krakenSymbol(rec.symbols[sym]!)}","bids":${side(bids)},"asks":${side(asks)},"checksum":${krakenChecksum(book)},"timestamp":"${rfc3339(ms, 6)}"}]}`;
  return render(
    rec,
    KRAKEN_DEPTH,
    (sym, book) => {
      const [bids, asks] = views[sym]!.take(book);
      return message(sym, 'snapshot', bids, asks, book, rec.start_ms);
    },
    (change, book, slice) => {
      const [bids, asks] = views[change.sym]!.take(book);
      if (bids.length + asks.length === 0) return null;
      return { text: message(change.sym, 'update', bids, asks, book, slice.t_ms), levels: (bids.length + asks.length) / 2 };
    },
  );
}

// ---------------------------------------------------------------------------------------------
// Coinbase: `l2_data` on one connection, `sequence_num` counting every message of it

export function renderCoinbase(rec: Recording): VenueStream<string> {
  let seq = 0;
  const update = (side: Side, p: number, q: number, time: string) => ({ side: side === Side.BID ? 'bid' : 'offer', event_time: time, price_level: px(p), new_quantity: sz(q) });
  const message = (sym: number, type: 'snapshot' | 'update', updates: object[], time: string) =>
    JSON.stringify({ channel: 'l2_data', client_id: '', timestamp: time, sequence_num: seq++, events: [{ type, product_id: rec.symbols[sym]!, updates }] });
  return render(
    rec,
    null,
    (sym, book) => {
      const time = rfc3339(rec.start_ms, 9);
      const updates = [...book.top(Side.BID).map(([p, q]) => update(Side.BID, p, q, time)), ...book.top(Side.ASK).map(([p, q]) => update(Side.ASK, p, q, time))];
      return message(sym, 'snapshot', updates, time);
    },
    (change, _book, slice) => {
      const time = rfc3339(slice.t_ms, 9);
      const updates: object[] = [];
      for (let i = 0; i < change.levels.length; i += 3) updates.push(update(change.levels[i] as Side, change.levels[i + 1]!, change.levels[i + 2]!, time));
      return { text: message(change.sym, 'update', updates, time), levels: updates.length };
    },
  );
}

// ---------------------------------------------------------------------------------------------
// Bybit: `orderbook.50.{symbol}` snapshot then deltas, `u` rising by one per push

/** The depth the Bybit adapter subscribes (actors/edge/live/bybit/adapter.ts). */
export const BYBIT_DEPTH = 50;

export function renderBybit(rec: Recording): VenueStream<string> {
  const views = rec.symbols.map(() => new TopView(BYBIT_DEPTH));
  const us = rec.symbols.map(() => 18_000_000);
  let crossSeq = 71_000_000_000;
  const levels = (flat: readonly number[]) => {
    const out: string[][] = [];
    for (let i = 0; i < flat.length; i += 2) out.push([px(flat[i]!), sz(flat[i + 1]!)]);
    return out;
  };
  const push = (sym: number, type: 'snapshot' | 'delta', bids: number[], asks: number[], ms: number) => {
    const s = joined(rec.symbols[sym]!);
    crossSeq += 1 + ((bids.length + asks.length) >> 1);
    return JSON.stringify({ topic: `orderbook.${BYBIT_DEPTH}.${s}`, type, ts: ms, data: { s, b: levels(bids), a: levels(asks), u: ++us[sym]!, seq: crossSeq }, cts: ms - 2 });
  };
  return render(
    rec,
    BYBIT_DEPTH,
    (sym, book) => {
      const [bids, asks] = views[sym]!.take(book);
      return push(sym, 'snapshot', bids, asks, rec.start_ms);
    },
    (change, book, slice) => {
      const [bids, asks] = views[change.sym]!.take(book);
      if (bids.length + asks.length === 0) return null;
      return { text: push(change.sym, 'delta', bids, asks, slice.t_ms), levels: (bids.length + asks.length) / 2 };
    },
  );
}

// ---------------------------------------------------------------------------------------------
// KuCoin: `/market/level2` increments, sequenceStart..sequenceEnd, a sequence per change

export function renderKucoin(rec: Recording): VenueStream<RestSnapshot> {
  const seqs = rec.symbols.map(() => 14_701_689_000);
  return render(
    rec,
    null,
    (sym, book) => ({ id: seqs[sym]!, bids: book.flat(Side.BID), asks: book.flat(Side.ASK) }),
    (change, _book, slice) => {
      const symbol = rec.symbols[change.sym]!;
      const start = seqs[change.sym]! + 1;
      const { bids, asks } = bySide(change.levels, (p, q) => [px(p), sz(q), String(++seqs[change.sym]!)]);
      const data = { changes: { asks, bids }, sequenceEnd: seqs[change.sym]!, sequenceStart: start, symbol, time: slice.t_ms };
      return { text: JSON.stringify({ type: 'message', topic: `/market/level2:${symbol}`, subject: 'trade.l2update', data }), levels: bids.length + asks.length };
    },
  );
}

// ---------------------------------------------------------------------------------------------
// Bitstamp: `diff_order_book_{pair}` stamped with `microtimestamp`, a REST snapshot stamped alike

export function bitstampSymbol(symbol: string): string {
  return joined(symbol).toLowerCase();
}

export function renderBitstamp(rec: Recording): VenueStream<RestSnapshot> {
  return render(
    rec,
    null,
    (_sym, book) => ({ id: rec.start_ms * 1_000, bids: book.flat(Side.BID), asks: book.flat(Side.ASK) }),
    (change, _book, slice) => {
      // A broadcast per pair, a few µs apart within the slice.
      const micro = slice.t_ms * 1_000 + change.sym * 7;
      const { bids, asks } = bySide(change.levels, (p, q) => [px(p), sz(q)]);
      const data = { timestamp: String(Math.floor(micro / 1_000_000)), microtimestamp: String(micro), bids, asks };
      return { text: JSON.stringify({ data, channel: `diff_order_book_${bitstampSymbol(rec.symbols[change.sym]!)}`, event: 'data' }), levels: bids.length + asks.length };
    },
  );
}

// ---------------------------------------------------------------------------------------------
// Hyperliquid: `l2Book`, every push the whole top 20 a side

/** The levels a side an `l2Book` push carries. */
export const HYPERLIQUID_DEPTH = 20;

/** The coin an `l2Book` push names (the symbol as is: Hyperliquid's own names would collide across quotes). */
export function hyperliquidCoin(symbol: string): string {
  return symbol;
}

export function renderHyperliquid(rec: Recording): VenueStream<string> {
  const views = rec.symbols.map(() => new TopView(HYPERLIQUID_DEPTH));
  const push = (sym: number, book: SimBook, ms: number) => {
    const side = (s: Side) => book.top(s, HYPERLIQUID_DEPTH).map(([p, q]) => ({ px: px(p), sz: sz(q), n: 1 }));
    const levels = [side(Side.BID), side(Side.ASK)];
    return { text: JSON.stringify({ channel: 'l2Book', data: { coin: hyperliquidCoin(rec.symbols[sym]!), time: ms, levels } }), levels: levels[0]!.length + levels[1]!.length };
  };
  return render(
    rec,
    HYPERLIQUID_DEPTH,
    (sym, book) => {
      views[sym]!.take(book);
      return push(sym, book, rec.start_ms).text;
    },
    // A push whenever the top 20 changed: the venue sends the book each block it changes in.
    (change, book, slice) => {
      const [bids, asks] = views[change.sym]!.take(book);
      return bids.length + asks.length === 0 ? null : push(change.sym, book, slice.t_ms);
    },
  );
}

// ---------------------------------------------------------------------------------------------
// Prediction venues: the same changes, each symbol's prices divided by a power of ten into (0, 1)

/**
 * Per symbol, the power of ten its prices are divided by to fall below 1 (a YES price), checked
 * exact: every price of the recording must stay a whole number of 1e-9 (it does while a price
 * has at most 9 - k decimals). Sizes stay as they are: both codecs read 8 decimals of size.
 */
function unitDivisors(rec: Recording): number[] {
  const prices = rec.symbols.map((_, sym) => [...rec.opening[sym]!.sides[Side.BID].keys(), ...rec.opening[sym]!.sides[Side.ASK].keys()]);
  for (const slice of rec.slices) for (const c of slice.changes) for (let i = 0; i < c.levels.length; i += 3) prices[c.sym]!.push(c.levels[i + 1]!);
  return prices.map((list, sym) => {
    let divisor = 1;
    const max = Math.max(...list);
    while (max / divisor >= 1_000_000_000) divisor *= 10;
    if (list.some((p) => p % divisor !== 0)) throw new Error(`${rec.symbols[sym]}: prices do not divide by ${divisor} exactly`);
    return divisor;
  });
}

// Kalshi: `orderbook_snapshot` then one `orderbook_delta` per level (a signed size change), `seq`
// counting every message of the subscription across its markets; YES bids and NO bids, asked
// with `use_yes_price` so NO bids come as YES asks.

export function kalshiTicker(symbol: string): string {
  return `KX${joined(symbol)}-26NOV27`;
}

export function renderKalshi(rec: Recording): VenueStream<string> {
  const divisors = unitDivisors(rec);
  const price = (sym: number, p: number) => px(p / divisors[sym]!);
  const marketId = (sym: number) => `9b0f6b43-5b68-4f9f-9f02-${String(sym).padStart(12, '0')}`;
  const before = rec.opening.map((b) => b.clone());
  const sid = 1;
  let seq = 0;
  return render(
    rec,
    null,
    (sym, book) => {
      // Levels ascending, best bid last, as the docs' examples list them.
      const side = (s: Side) => book.top(s).map(([p, q]) => [price(sym, p), sz(q)]).reverse();
      return JSON.stringify({ type: 'orderbook_snapshot', sid, seq: ++seq, msg: { market_ticker: kalshiTicker(rec.symbols[sym]!), market_id: marketId(sym), yes_dollars_fp: side(Side.BID), no_dollars_fp: side(Side.ASK) } });
    },
    (change, _book, slice) => {
      const was = before[change.sym]!;
      const texts: string[] = [];
      const ts = new Date(slice.t_ms).toISOString().slice(0, 19) + 'Z';
      for (let i = 0; i < change.levels.length; i += 3) {
        const side = change.levels[i] as Side;
        const p = change.levels[i + 1]!;
        const q = change.levels[i + 2]!;
        const delta = q - was.qty(side, p);
        was.set(side, p, q);
        const msg = { market_ticker: kalshiTicker(rec.symbols[change.sym]!), market_id: marketId(change.sym), price_dollars: price(change.sym, p), delta_fp: sz(delta), side: side === Side.BID ? 'yes' : 'no', ts, ts_ms: slice.t_ms };
        texts.push(JSON.stringify({ type: 'orderbook_delta', sid, seq: ++seq, msg }));
      }
      return { text: texts, levels: texts.length };
    },
    divisors,
  );
}

// Polymarket: market-channel `book` events, then `price_change` events of absolute sizes, no
// sequence number (the sync holds them to the venue's timestamps).

/** A token id per symbol, as long as the venue's (77 decimal digits). */
export function polymarketToken(sym: number): string {
  return `713210456792522125946263855327069127503327285719425322896313793124555${10_000_000 + sym}`;
}

export function renderPolymarket(rec: Recording): VenueStream<string> {
  const divisors = unitDivisors(rec);
  const price = (sym: number, p: number) => px(p / divisors[sym]!);
  const market = (sym: number) => `0x5f65177b394277fd294cd75650044e32ba009a95022d88a0c1d565897d7${(0x1000 + sym).toString(16)}`;
  const after = rec.opening.map((b) => b.clone());
  let hashes = 0;
  const hash = () => (++hashes).toString(16).padStart(40, '0');
  return render(
    rec,
    null,
    (sym, book) => {
      // Worst first, as the venue sends them.
      const side = (s: Side) => book.top(s).map(([p, q]) => ({ price: price(sym, p), size: sz(q) })).reverse();
      return JSON.stringify({ event_type: 'book', asset_id: polymarketToken(sym), market: market(sym), bids: side(Side.BID), asks: side(Side.ASK), timestamp: String(rec.start_ms), hash: `0x${hash()}` });
    },
    (change, _book, slice) => {
      const book = after[change.sym]!;
      const best = (s: Side) => {
        const b = book.best(s);
        return b === undefined ? (s === Side.BID ? '0' : '1') : price(change.sym, b);
      };
      const price_changes: object[] = [];
      for (let i = 0; i < change.levels.length; i += 3) {
        const side = change.levels[i] as Side;
        book.set(side, change.levels[i + 1]!, change.levels[i + 2]!);
        price_changes.push({ asset_id: polymarketToken(change.sym), price: price(change.sym, change.levels[i + 1]!), size: sz(change.levels[i + 2]!), side: side === Side.BID ? 'BUY' : 'SELL', hash: hash(), best_bid: best(Side.BID), best_ask: best(Side.ASK) });
      }
      return { text: JSON.stringify({ market: market(change.sym), price_changes, timestamp: String(slice.t_ms), event_type: 'price_change' }), levels: price_changes.length };
    },
    divisors,
  );
}
