import { VENUES, type VenueId } from '../../../domain/market.ts';

/**
 * Where each venue with a live adapter is reached: its production base URLs, its published
 * testnet or demo where it has one, and the environment overrides (`LIVE_VENUES`,
 * `<VENUE>_REST_URL`, `<VENUE>_WS_URL`, `<VENUE>_TESTNET=1`). Data only, so the configuration
 * can check `LIVE_VENUES` at start without loading an adapter.
 */
export interface VenueEndpoints {
  /** REST base, no trailing slash (paths such as `/api/v3/order` are appended) */
  rest: string;
  /** WebSocket base (the adapter appends its stream path) */
  ws: string;
  /** headers every REST request carries (OKX's demo trading: `x-simulated-trading: 1`) */
  headers?: Record<string, string>;
}

export const LIVE_ENDPOINTS: Partial<Record<VenueId, { production: VenueEndpoints; testnet?: VenueEndpoints }>> = {
  binance: {
    production: { rest: 'https://api.binance.com', ws: 'wss://stream.binance.com:9443' },
    testnet: { rest: 'https://testnet.binance.vision', ws: 'wss://stream.testnet.binance.vision' },
  },
  okx: {
    production: { rest: 'https://www.okx.com', ws: 'wss://ws.okx.com:8443' },
    // OKX's demo trading: the same REST host with a header, its own WebSocket host.
    testnet: { rest: 'https://www.okx.com', ws: 'wss://wspap.okx.com:8443', headers: { 'x-simulated-trading': '1' } },
  },
  // Bybit v5: the adapter appends its stream path (`/v5/public/spot`); the testnet is the same
  // API on its own hosts (docs: Integration Guidance, WebSocket Connect).
  bybit: {
    production: { rest: 'https://api.bybit.com', ws: 'wss://stream.bybit.com' },
    testnet: { rest: 'https://api-testnet.bybit.com', ws: 'wss://stream-testnet.bybit.com' },
  },
  // Kraken spot publishes no testnet (its futures demo is another API): production only.
  kraken: {
    production: { rest: 'https://api.kraken.com', ws: 'wss://ws.kraken.com' },
  },
  // Coinbase Advanced Trade: REST and the market data socket, as is (no stream path). Its REST
  // sandbox (api-sandbox.coinbase.com) is not offered: it answers every request with the same
  // canned body, without authentication, covers accounts and orders only (no products, which the
  // adapter needs first) and has no WebSocket; docs/venues/coinbase.md.
  coinbase: {
    production: { rest: 'https://api.coinbase.com', ws: 'wss://advanced-trade-ws.coinbase.com' },
  },
  // KuCoin: the stream's server comes with a token from `POST /api/v1/bullet-public` on each
  // connection, so `ws` is empty; KUCOIN_WS_URL replaces that server, never the token. Its
  // sandbox is gone (sandbox.kucoin.com redirects to the docs since 2023): production only.
  kucoin: {
    production: { rest: 'https://api.kucoin.com', ws: '' },
  },
  // Bitstamp spot: its stream at the root of its own host. Production only: the reference's "Test
  // server" (sandbox.bitstamp.net) is a REST host with keys and markets of its own and no stream
  // the docs name, so its orders would be routed on production's book; docs/venues/bitstamp.md.
  bitstamp: {
    production: { rest: 'https://www.bitstamp.net', ws: 'wss://ws.bitstamp.net' },
  },
  // Hyperliquid perpetuals: one host for /info, /exchange and the stream (the adapter appends
  // `/ws`); its testnet is the same API on its own host, and orders signed for it name it (the
  // L1 signature's source "b"), so they cannot be replayed on mainnet.
  hyperliquid: {
    production: { rest: 'https://api.hyperliquid.xyz', ws: 'wss://api.hyperliquid.xyz' },
    testnet: { rest: 'https://api.hyperliquid-testnet.xyz', ws: 'wss://api.hyperliquid-testnet.xyz' },
  },
  // Kalshi (trade API v2): the adapter appends `/trade-api/v2` and `/trade-api/ws/v2`; its demo has keys of its own (kalshi/codec.ts REST_HOST, WS_HOST, DEMO_*).
  kalshi: {
    production: { rest: 'https://external-api.kalshi.com', ws: 'wss://external-api-ws.kalshi.com' },
    testnet: { rest: 'https://external-api.demo.kalshi.co', ws: 'wss://external-api-ws.demo.kalshi.co' },
  },
  // Polymarket CLOB V2 (production only: no public testnet); the adapter appends `/ws/market`, and reads its catalog from Gamma (gamma-api.polymarket.com).
  polymarket: { production: { rest: 'https://clob.polymarket.com', ws: 'wss://ws-subscriptions-clob.polymarket.com' } },
};

/** The live venues `LIVE_VENUES` names, with their endpoints; throws on an unknown venue or one without an adapter yet. */
export function liveVenuesFromEnv(env: NodeJS.ProcessEnv): { venue: VenueId; endpoints: VenueEndpoints }[] {
  const list = (env['LIVE_VENUES'] ?? '').split(',').map((v) => v.trim()).filter((v) => v !== '');
  const supported = Object.keys(LIVE_ENDPOINTS);
  return [...new Set(list)].map((venue) => {
    if (!(VENUES as readonly string[]).includes(venue)) throw new Error(`LIVE_VENUES: ${JSON.stringify(venue)} is not a venue id (${VENUES.join(', ')})`);
    const known = LIVE_ENDPOINTS[venue as VenueId];
    if (known === undefined) throw new Error(`LIVE_VENUES: no live adapter for ${venue} yet (live adapters: ${supported.join(', ')})`);
    const upper = venue.toUpperCase();
    const testnet = env[`${upper}_TESTNET`] === '1';
    if (testnet && known.testnet === undefined) throw new Error(`${upper}_TESTNET=1: ${venue} publishes no testnet`);
    const base = testnet ? known.testnet! : known.production;
    const url = (name: string, fallback: string, schemes: readonly string[]) => {
      const value = env[name];
      if (value === undefined || value === '') return fallback;
      let parsed: URL;
      try {
        parsed = new URL(value);
      } catch {
        throw new Error(`${name} must be a URL, got ${JSON.stringify(value)}`);
      }
      if (!schemes.includes(parsed.protocol)) throw new Error(`${name} must use ${schemes.join(' or ')}, got ${parsed.protocol}`);
      return value.replace(/\/+$/, '');
    };
    return {
      venue: venue as VenueId,
      endpoints: { rest: url(`${upper}_REST_URL`, base.rest, ['https:', 'http:']), ws: url(`${upper}_WS_URL`, base.ws, ['wss:', 'ws:']), ...(base.headers === undefined ? {} : { headers: base.headers }) },
    };
  });
}
