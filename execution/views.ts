import { DEPTH_LEVELS, depthSlot, EDGE_STALE_MS, type DepthCacheReader, type VenueDepth } from '../actors/edge/depth-cache.ts';
import type { EdgeMessage, EdgeSnapshot } from '../actors/edge/messages.ts';
import { listingOf } from '../domain/venues.ts';
import type { Ledger } from './ledger/ledger.ts';
import { isPredictionEntry, type RouteEntry } from './prediction-entry.ts';
import { dexViews, isDexEntry } from './dex-orders.ts';
import { predictionViews } from './prediction-views.ts';
import { edgeKey } from '../actors/market/directory.ts';
import type { VenueStats, VenueView } from './sor/sor-types.ts';
import type { BenchmarkWalk, BestSingleVenue } from './tca/tca.ts';
import { parseSymbol } from '../domain/market.ts';
import { venueFee1e9 } from '../domain/units.ts';
import { perpCaps } from './perp-orders.ts';
import type { Messenger } from './types.ts';
import type { FeeRates } from './fee-tiers.ts';

/** Depth each edge reports for routing: the SOR's 50 levels. */
export const ROUTING_DEPTH = DEPTH_LEVELS;
const BOOK_TIMEOUT_MS = 500;
const NS_PER_MS = 1_000_000;

/**
 * The router's per-venue views of a symbol: each feeding edge's own book, whether it is online
 * and publishing, the caller's credentials and balances there.
 *
 * Books come from the depth cache (shared memory the edges write on every change), so routing
 * asks nothing through the rings. An edge that does not stream the symbol has no slot yet: it
 * is asked for its book, as a cold quote is.
 */
export class VenueBooks {
  constructor(
    private readonly endpoint: Messenger,
    private readonly depth: DepthCacheReader,
  ) {}

  async views(
    entry: RouteEntry,
    credentialed: ReadonlySet<string>,
    ledger: Ledger,
    fees: (edgeId: string) => FeeRates,
    stats: (venue: string) => VenueStats | undefined,
    intent: { side: 'buy' | 'sell'; qty_1e8: number },
  ): Promise<VenueView[]> {
    if (isPredictionEntry(entry)) return predictionViews(this.endpoint, entry, credentialed, ledger, stats, (edge) => this.depth.latencyMs(edge));
    if (isDexEntry(entry)) {
      // A DEX order: its pools' curves, beside the CEX book's venues when it has one.
      const [cex, pools] = await Promise.all([
        entry.cex === null ? [] : this.views(entry.cex, credentialed, ledger, fees, stats, intent),
        dexViews(this.endpoint, entry, intent.side, intent.qty_1e8, ledger),
      ]);
      return [...cex, ...pools];
    }
    const parts = parseSymbol(entry.symbol)!;
    const nowMs = Date.now();
    const depths: (VenueDepth | null | undefined)[] = [];
    let asks: Promise<void>[] | undefined;
    entry.edges.forEach((edge, i) => {
      // A venue without the caller's credentials cannot be a candidate: its book is not read
      // (the plan still lists it, with reason no_credentials).
      if (!credentialed.has(entry.venues[i]!)) return;
      const cached = this.depth.read(depthSlot(entry, i), edge);
      if (cached !== undefined) {
        // Online and publishing: the feed is up and the edge's timer beats.
        depths[i] = cached.connected && nowMs - cached.heartbeat_ms < EDGE_STALE_MS ? cached : null;
        return;
      }
      // Not streamed yet: subscribe it (as a cold quote does), so the next order reads the cache.
      this.endpoint.tell(edgeKey(edge), { t: 'Subscribe', symbol: entry.symbol } satisfies EdgeMessage);
      (asks ??= []).push(
        this.endpoint
          .ask<EdgeSnapshot | null>(edgeKey(edge), { t: 'Book', symbol: entry.symbol, depth: ROUTING_DEPTH } satisfies EdgeMessage, BOOK_TIMEOUT_MS)
          .then(
            (book) => void (depths[i] = book === null ? null : depthOf(book)),
            () => void (depths[i] = null),
          ),
      );
    });
    if (asks !== undefined) await Promise.all(asks);
    return entry.edges.map((edge, i) => {
      const venue = entry.venues[i]!;
      const book = depths[i];
      const rates = fees(edge);
      const observed = stats(venue);
      // A perp's balance is its margin: both sides draw on the quote (perp-orders.ts). A spot
      // order reads its balances straight into the view (no object in between).
      const perp = entry.instrument_type === 'perp' ? perpCaps(ledger, venue, entry.symbol, book?.bidCount ? book.bidsPx[0]! : 0, rates.taker_bps) : undefined;
      return {
        venue,
        edge_id: edge,
        listed: true,
        // Not read (no credentials) counts as online: the reason reported is the credentials.
        online: book !== null,
        // A book that has not changed since its last write is still current as of the edge's
        // last advance (its heartbeat): freshness is the edge's, not the last change's.
        last_update_ns: book == null ? 0 : Math.max(book.ts_ns, book.heartbeat_ms * NS_PER_MS),
        has_credentials: credentialed.has(venue),
        base_available_1e8: perp?.base_available_1e8 ?? Number(ledger.available(venue, parts.base)),
        quote_available_1e8: perp?.quote_available_1e8 ?? Number(ledger.available(venue, parts.quote)),
        bids_px: book?.bidsPx ?? EMPTY,
        bids_qty: book?.bidsQty ?? EMPTY,
        bid_count: book?.bidCount ?? 0,
        asks_px: book?.asksPx ?? EMPTY,
        asks_qty: book?.asksQty ?? EMPTY,
        ask_count: book?.askCount ?? 0,
        maker_bps: rates.maker_bps,
        taker_bps: rates.taker_bps,
        latency_ms: this.depth.latencyMs(edge),
        rules: listingOf(edge, entry.symbol)!.rules,
        ...(observed !== undefined ? { stats: observed } : {}),
      };
    });
  }
}

const EMPTY = new Float64Array(0);

/** An edge's `Book` answer in the depth cache's shape. */
function depthOf(book: EdgeSnapshot): VenueDepth {
  const bids = levelsOf(book.bids);
  const asks = levelsOf(book.asks);
  return {
    connected: true,
    ts_ns: book.ts_ns,
    heartbeat_ms: Date.now(),
    bidCount: bids.count,
    askCount: asks.count,
    bidsPx: bids.px,
    bidsQty: bids.qty,
    asksPx: asks.px,
    asksQty: asks.qty,
  };
}

function levelsOf(flat: number[]): { px: Float64Array; qty: Float64Array; count: number } {
  const count = flat.length >> 1;
  const px = new Float64Array(count);
  const qty = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    px[i] = flat[2 * i]!;
    qty[i] = flat[2 * i + 1]!;
  }
  return { px, qty, count };
}

/**
 * The TCA benchmark: the cheapest single venue (price plus taker fee) the order could have used
 * alone (listed, online, credentialed, the forced venue when there is one) that could have
 * filled the whole order from its book at arrival; null when none could. `walk` is that venue's
 * exact book walk with each level's fee rounded as the venue rounds a fill's, so an order that
 * filled exactly that walk saves exactly 0.
 */
export function bestSingleVenue(views: readonly VenueView[], side: 'buy' | 'sell', qty_1e8: number, forced: string | null = null): { benchmark: BestSingleVenue; walk: BenchmarkWalk } | null {
  let best: { benchmark: BestSingleVenue; walk: BenchmarkWalk } | null = null;
  let bestCost = 0n;
  for (const v of views) {
    if (!v.listed || !v.online || !v.has_credentials || (forced !== null && v.venue !== forced)) continue;
    const px = side === 'buy' ? v.asks_px : v.bids_px;
    const qty = side === 'buy' ? v.asks_qty : v.bids_qty;
    const count = side === 'buy' ? v.ask_count : v.bid_count;
    let left = qty_1e8;
    let pq = 0n;
    let fee = 0;
    for (let i = 0; i < count && left > 0; i++) {
      const take = Math.min(left, qty[i]!);
      if (take <= 0) continue;
      pq += BigInt(px[i]!) * BigInt(take);
      fee += v.fee_curve !== undefined ? v.fee_curve.takerFeeUsd1e9(take, px[i]!) : venueFee1e9(px[i]!, take, v.taker_bps);
      left -= take;
    }
    if (left > 0) continue;
    // All-in cost in USD 1e9 x 1e8 (exact): a buy pays price and fee, a sell receives price less fee.
    const cost = side === 'buy' ? pq + BigInt(fee) * 100_000_000n : -pq + BigInt(fee) * 100_000_000n;
    if (best === null || cost < bestCost) {
      bestCost = cost;
      best = {
        benchmark: { venue: v.venue, avg_price_1e9: Number(pq / BigInt(qty_1e8)), fee_bps: v.taker_bps },
        walk: { pq, qty_1e8, fee_1e9: fee },
      };
    }
  }
  return best;
}
