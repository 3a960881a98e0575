import type { PoolEntry } from '../../actors/dex-chain/chain.ts';
import type { DexChainMessage } from '../../actors/dex-chain/messages.ts';
import { CHAINS } from '../../domain/chains.ts';
import type { DexPair } from '../../domain/chains.ts';
import type { Endpoint } from '../../engine/endpoint.ts';

const ASK_TIMEOUT_MS = 2_000;
/** What `BASE-USD` stands for on a chain: its dollar tokens. */
const USD_QUOTES = new Set(['USDC', 'USDT', 'USD']);

function matches(q: DexPair, e: PoolEntry): boolean {
  const [base, quote] = e.symbol.split('-');
  if (q.chain !== null && e.chain !== q.chain) return false;
  return base === q.base && (quote === q.quote || (q.quote === 'USD' && USD_QUOTES.has(quote!)));
}

/** The pools a query names, asked of each chain actor it covers, deepest (lowest fee) first within a chain. */
export async function poolsFor(endpoint: Endpoint, q: DexPair): Promise<PoolEntry[]> {
  const chains = q.chain === null ? CHAINS.map((c) => c.chain) : [q.chain];
  const answers = await Promise.all(chains.map((chain) => endpoint.ask<PoolEntry[]>(`dex:${chain}`, { t: 'Pools' } satisfies DexChainMessage, ASK_TIMEOUT_MS).catch(() => [] as PoolEntry[])));
  return answers.flat().filter((e) => matches(q, e));
}

/** A chain-suffixed pair's quote (`GET /v1/quotes/ETH-USDC-dex-arb`): the pools' swap prices of the displayed size. */
export interface DexQuote {
  symbol: string;
  instrument_type: 'dex';
  nbbo: { bid: number; ask: number; mid: number; spread_bps: number; bid_size: number; ask_size: number; crossed: boolean };
  /** By pool id, `{chain}:{address}` (the spec's pool_id). */
  venues: Record<string, { bid: number; ask: number; bid_size: number; ask_size: number; age_ms: number }>;
  /** Each pool's displayed-size price as a level, best first. */
  book: { bids: [number, number][]; asks: [number, number][] };
  source: 'edge_rpc_snapshot';
  updated_ms: number;
}

/** The quote of a pair's pools: best bid and ask across them, each pool's own. */
export function dexQuote(symbol: string, pools: readonly PoolEntry[], now_ms = Date.now()): DexQuote {
  const venues: DexQuote['venues'] = {};
  for (const p of pools) venues[`${p.chain}:${p.pool_address}`] = { bid: p.bid, ask: p.ask, bid_size: p.bid_size, ask_size: p.ask_size, age_ms: Math.max(0, now_ms - p.updated_ms) };
  const bids = pools.map((p): [number, number] => [p.bid, p.bid_size]).sort((a, b) => b[0] - a[0]);
  const asks = pools.map((p): [number, number] => [p.ask, p.ask_size]).sort((a, b) => a[0] - b[0]);
  const [bid, bidSize] = bids[0] ?? [0, 0];
  const [ask, askSize] = asks[0] ?? [0, 0];
  const crossed = bid > 0 && ask > 0 && bid >= ask;
  const mid = bid > 0 && ask > 0 && !crossed ? (bid + ask) / 2 : 0;
  return {
    symbol,
    instrument_type: 'dex',
    nbbo: { bid, ask, mid: Number(mid.toPrecision(12)), spread_bps: mid > 0 ? Number((((ask - bid) / mid) * 1e4).toFixed(2)) : 0, bid_size: bidSize, ask_size: askSize, crossed },
    venues,
    book: { bids, asks },
    source: 'edge_rpc_snapshot',
    updated_ms: Math.max(0, ...pools.map((p) => p.updated_ms)),
  };
}
