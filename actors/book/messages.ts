/**
 * Messages of a book actor (`book:<symbol>` for spot, `book:<symbol>:perp` for perpetuals).
 * Level arrays are flat numbers to keep the envelopes small: `[side, price_1e9, qty_1e8, ...]`
 * for deltas, `[price_1e9, qty_1e8, ...]` best first for snapshots.
 */
export type BookMessage =
  /** `edge_ts_ns`: when the edge handed the batch to the engine (latency stamp, wall clock). */
  | { t: 'Levels'; venue: string; ts_ns: number; edge_ts_ns: number; levels: number[] }
  | { t: 'Snapshot'; venue: string; ts_ns: number; bids: number[]; asks: number[] }
  | { t: 'VenueDown'; venue: string; ts_ns: number }
  | { t: 'Get'; depth: number };

/** The reply to `Get`: the book as the quote endpoint needs it, integers throughout. */
export interface BookView {
  symbol: string;
  instrument_type: 'spot' | 'perp';
  updated_ms: number;
  nbbo: { bid_1e9: number; ask_1e9: number; bid_qty_1e8: number; ask_qty_1e8: number; crossed: boolean };
  venues: { venue: string; bid_1e9: number; ask_1e9: number; bid_qty_1e8: number; ask_qty_1e8: number; last_tick_ms: number }[];
  bids: [number, number][];
  asks: [number, number][];
}
