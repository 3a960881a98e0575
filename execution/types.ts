// The execution service's contract with the gateway: the order request it admits, its
// configuration and where its events go. Re-exported by service.ts.
import type { BookEntry } from '../actors/market/directory.ts';
import type { Mode, OrderRecord } from '../domain/orders.ts';

/** Whose order it is: the authenticated caller as execution sees it (the gateway's Principal is one). */
export interface OrderOwner {
  readonly client_id: string;
  readonly mode: Mode;
}

/** What execution reads of the consolidated market: symbol resolution and the NBBO (the gateway's QuoteService is one). */
export interface MarketView {
  resolve(symbol: string, instrumentType?: string): BookEntry | undefined;
  nbbo1e9(entry: BookEntry): { bid_1e9: number; ask_1e9: number; crossed: boolean } | undefined;
}

/** What a client sends to `POST /v1/orders`, after schema validation. */
export interface OrderRequest {
  client_order_id: string;
  symbol?: string;
  instrument?: { symbol: string; type?: 'spot' | 'perp' };
  side: 'buy' | 'sell';
  qty_1e8: number;
  order_type: 'market' | 'limit';
  limit_price_1e9?: number;
  time_in_force?: 'ioc' | 'gtc' | 'fok';
  venue?: string;
  constraints?: OrderRecord['constraints'];
  start_armed?: boolean;
}

export interface ExecutionConfig {
  /** Per-order notional cap (pre-trade risk), USD 1e9. */
  maxOrderNotionalUsd1e9: number;
  /** What a simulated venue account opens with, per quote currency, USD. */
  simAccountUsd: number;
}

export type ExecutionChannel = 'orders' | 'fills' | 'routing' | 'tca';

/** Where order events go: the private WebSocket channels and the SSE streams. */
export interface ExecutionEvents {
  /** Whether anyone listens for this client and mode: an event nobody reads is not built. */
  wants(channel: ExecutionChannel, client: string, mode: Mode): boolean;
  publish(channel: ExecutionChannel, client: string, mode: Mode, data: unknown): void;
}
