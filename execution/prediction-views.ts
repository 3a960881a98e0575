import { DEPTH_LEVELS } from '../actors/edge/depth-cache.ts';
import { edgeKey } from '../actors/market/directory.ts';
import type { PredictionBook, PredictionEdgeMessage } from '../actors/prediction-edge/messages.ts';
import type { Level } from '../domain/market.ts';
import { compileBinaryFee } from '../domain/prediction/fees.ts';
import { PREDICTION_RULES } from '../domain/prediction/order-leg.ts';
import type { Ledger } from './ledger/ledger.ts';
import type { PredictionEntry } from './prediction-entry.ts';
import type { VenueStats, VenueView } from './sor/sor-types.ts';
import type { Messenger } from './types.ts';

const BOOK_TIMEOUT_MS = 500;
const EMPTY = new Float64Array(0);

/**
 * The SOR's views of a prediction order's legs: each venue's book of its own leg of the outcome,
 * asked of its edge now (a prediction venue refreshes its books once a second, and there are
 * thousands of legs: no shared depth slots), the client's contracts of that leg and the venue's
 * cash, and the market's fee curve. A venue without the client's credentials is not asked.
 */
export async function predictionViews(
  endpoint: Messenger,
  entry: PredictionEntry,
  credentialed: ReadonlySet<string>,
  ledger: Ledger,
  stats: (venue: string) => VenueStats | undefined,
  latencyMs: (edgeId: string) => number,
): Promise<VenueView[]> {
  const asked = Date.now();
  const books = await Promise.all(
    entry.legs.map((leg) =>
      credentialed.has(leg.venue)
        ? endpoint
            .ask<PredictionBook | null>(edgeKey(leg.edge_id), { t: 'Book', market_id: leg.market_id, depth: DEPTH_LEVELS } satisfies PredictionEdgeMessage, BOOK_TIMEOUT_MS)
            .catch(() => null)
        : Promise.resolve(undefined),
    ),
  );
  return entry.legs.map((leg, i) => {
    const book = books[i];
    const side = book == null ? undefined : leg.leg === 'YES' ? book.yes : book.no;
    const bids = levels(side?.bids);
    const asks = levels(side?.asks);
    const curve = compileBinaryFee(leg.fee);
    const observed = stats(leg.venue);
    return {
      venue: leg.venue,
      edge_id: leg.edge_id,
      listed: true,
      online: book !== null,
      // The edge answered with its book as of now (it quotes the current second's book).
      last_update_ns: book == null ? 0 : asked * 1_000_000,
      has_credentials: credentialed.has(leg.venue),
      base_available_1e8: Number(ledger.available(leg.venue, leg.instrument)),
      quote_available_1e8: Number(ledger.available(leg.venue, leg.cash)),
      bids_px: bids.px,
      bids_qty: bids.qty,
      bid_count: bids.count,
      asks_px: asks.px,
      asks_qty: asks.qty,
      ask_count: asks.count,
      maker_bps: 0,
      taker_bps: curve.max_bps,
      latency_ms: latencyMs(leg.edge_id),
      rules: PREDICTION_RULES,
      fee_curve: curve,
      ...(observed !== undefined ? { stats: observed } : {}),
    };
  });
}

function levels(side: readonly Level[] | undefined): { px: Float64Array; qty: Float64Array; count: number } {
  if (side === undefined || side.length === 0) return { px: EMPTY, qty: EMPTY, count: 0 };
  const px = new Float64Array(side.length);
  const qty = new Float64Array(side.length);
  side.forEach((l, i) => {
    px[i] = l.price_1e9;
    qty[i] = l.qty_1e8;
  });
  return { px, qty, count: side.length };
}
