/**
 * Market vocabulary shared by edges, books, fair price and the gateway.
 */
export const Side = { BID: 0, ASK: 1 } as const;
export type Side = (typeof Side)[keyof typeof Side];

export const INSTRUMENT_TYPES = ['spot', 'perp', 'prediction'] as const;
export type InstrumentType = (typeof INSTRUMENT_TYPES)[number];

export const SPOT_VENUES = ['binance', 'coinbase', 'kraken', 'okx', 'bybit', 'kucoin', 'bitstamp'] as const;
export const PERP_VENUES = ['hyperliquid'] as const;
export const PREDICTION_VENUES = ['kalshi', 'polymarket'] as const;
export const VENUES = [...SPOT_VENUES, ...PERP_VENUES, ...PREDICTION_VENUES] as const;
export type VenueId = (typeof VENUES)[number];

export function isVenueId(value: string): value is VenueId {
  return (VENUES as readonly string[]).includes(value);
}

/** Canonical CEX symbol `BASE-QUOTE`, e.g. `BTC-USDT`; spot and perp share it. */
export interface SymbolParts {
  base: string;
  quote: string;
}

const SYMBOL = /^([A-Z0-9]{1,15})-([A-Z0-9]{2,10})$/;

export function parseSymbol(symbol: string): SymbolParts | undefined {
  const m = SYMBOL.exec(symbol);
  return m ? { base: m[1]!, quote: m[2]! } : undefined;
}

/** USD settlement variants that collapse into one underlying (spec, Fair price rule 6). */
export const USD_QUOTES = ['USD', 'USDT', 'USDC'] as const;

export function isUsdQuote(quote: string): boolean {
  return (USD_QUOTES as readonly string[]).includes(quote);
}

/** The underlying of a symbol for fair price: the base of a USD-settled pair, else undefined. */
export function underlyingOf(symbol: string): string | undefined {
  const parts = parseSymbol(symbol);
  return parts !== undefined && isUsdQuote(parts.quote) ? parts.base : undefined;
}

/** One aggregated price level. */
export interface Level {
  price_1e9: number;
  qty_1e8: number;
}
