import type { Level } from '../../../domain/market.ts';
import type { PredictionEvent, PredictionMarket, PredictionVenue } from '../../../domain/prediction/catalog.ts';
import type { PriceHistoryWindow } from '../../../domain/prediction/history.ts';
import type { Leg } from '../../../domain/prediction/symbols.ts';
import type { AccountProbe, AssetBalance, LiveVenue, MarketSink, OrderVenue } from './venue.ts';

/**
 * What a real prediction venue adapter implements (`kalshi/adapter.ts`, `polymarket/adapter.ts`)
 * for the live prediction edge (`actors/prediction-edge/live-actor.ts`). The adapter speaks the
 * venue's catalog, books and orders; the edge keeps what the simulated prediction edge keeps
 * (the catalog's change log, the figures table, the child journal), so the gateway and the
 * routers cannot tell the two apart.
 *
 * Symbols are the catalog's leg symbols throughout: a token id (Polymarket, 78 digits) or
 * `<ticker>:YES|NO` (Kalshi). Child orders are IOC: nothing rests on a prediction venue here.
 */

/** One event as the venue's catalog has it now. */
export interface CatalogRecord {
  event: PredictionEvent;
  /** parallel to `event.markets`: null while undetermined, else whether YES won */
  yes_won: (boolean | null)[];
  /** parallel: when the outcome was determined; null while undetermined */
  resolved_ms: (number | null)[];
  /** up/down events: the underlying's price at the open and at the close (USD), else null */
  anchor_usd: number | null;
  final_usd: number | null;
  /** parallel: the venue's own touch and volumes as its catalog read gives them; null when it gives none */
  figures: (CatalogFigures | null)[];
}

/** A market's touch (-1: that side is empty) and volumes as the catalog read tells them. */
export interface CatalogFigures {
  yes_bid_1e9: number;
  yes_ask_1e9: number;
  no_bid_1e9: number;
  no_ask_1e9: number;
  volume_24h_usd: number;
  volume_total_usd: number;
}

/** Both legs' books of a market, best first. */
export interface MarketBook {
  yes: { bids: Level[]; asks: Level[] };
  no: { bids: Level[]; asks: Level[] };
  /** the market's price tick */
  tick_1e9: number;
  /** when the venue last changed either book (ns) */
  ts_ns: number;
}

export interface LivePredictionVenue extends OrderVenue {
  readonly venue: PredictionVenue;
  /**
   * Starts the book stream. The sink hears of each market's books by market id (`onBookWhole`
   * with the market's YES book or its first token's, `onBookChanges`, `onBookBroken`); the edge
   * reads both legs with `marketBook`.
   */
  start(sink: MarketSink): void;
  stop(): void;
  /**
   * The venue's catalog now: every event it lists that the service follows (paged inside the
   * adapter, bounded by it). Rejects when the venue could not be read: the edge keeps what it had.
   */
  readCatalog(): Promise<CatalogRecord[]>;
  /** Starts streaming a market's books (idempotent); false when the venue cannot (unknown market). */
  follow(market: PredictionMarket): boolean;
  /** Stops streaming a market's books (delisted, or no longer asked for). */
  unfollow(market_id: string): void;
  /** Both legs' books of a followed market while they are whole, `depth` levels a side; else undefined. */
  marketBook(market_id: string, depth: number): MarketBook | undefined;
  /** Market-data connection state and counters, for the edge status. */
  stats(): { connected: boolean; subscribed: number; resyncs: number; disconnects: number; updates: number };
  probe(account: Parameters<LiveVenue['probe']>[0]): Promise<AccountProbe>;
  /**
   * The account's cash on the venue (Kalshi `USD`, Polymarket `USDC`), opening the client's live
   * ledger there. Event contracts held on the venue are not listed: the ledger books contracts
   * from the fills of orders sent through the service (docs/live-prediction-edge.md).
   */
  balances(account: Parameters<LiveVenue['balances']>[0]): Promise<AssetBalance[]>;
  /** A leg's price history in [from_ms, to_ms) at `step_ms`, as the venue serves it; null when it has none. Rejects when the venue could not be read. */
  history?(market: PredictionMarket, leg: Leg, from_ms: number, to_ms: number, step_ms: number): Promise<PriceHistoryWindow | null>;
}
