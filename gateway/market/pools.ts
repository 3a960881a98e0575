import type { PoolEntry } from '../../actors/dex-chain/chain.ts';
import type { DexChainMessage } from '../../actors/dex-chain/messages.ts';
import { CHAINS, isChain, type ChainId } from '../../domain/chains.ts';
import type { Endpoint } from '../../engine/endpoint.ts';

const ASK_TIMEOUT_MS = 2_000;
/** What `BASE-USD` stands for on a chain: its dollar tokens. */
const USD_QUOTES = new Set(['USDC', 'USDT', 'USD']);

/** A DEX symbol: `BASE-QUOTE-CHAIN` (one chain), or `BASE-QUOTE` across every chain (`BASE-USD`: any dollar quote). */
export interface PoolQuery {
  base: string;
  quote: string;
  chain: ChainId | null;
}

/** Parses a pool symbol; undefined when it is no pair. */
export function poolQuery(symbol: string): PoolQuery | undefined {
  const parts = symbol.split('-');
  if (parts.length === 4 && isChain(`${parts[2]!.toLowerCase()}-${parts[3]!.toLowerCase()}`)) {
    return { base: parts[0]!.toUpperCase(), quote: parts[1]!.toUpperCase(), chain: `${parts[2]!.toLowerCase()}-${parts[3]!.toLowerCase()}` as ChainId };
  }
  if (parts.length === 2 && parts[0] !== '' && parts[1] !== '') return { base: parts[0]!.toUpperCase(), quote: parts[1]!.toUpperCase(), chain: null };
  return undefined;
}

function matches(q: PoolQuery, e: PoolEntry): boolean {
  const [base, quote] = e.symbol.split('-');
  if (q.chain !== null && e.chain !== q.chain) return false;
  return base === q.base && (quote === q.quote || (q.quote === 'USD' && USD_QUOTES.has(quote!)));
}

/** The pools a query names, asked of each chain actor it covers, deepest (lowest fee) first within a chain. */
export async function poolsFor(endpoint: Endpoint, q: PoolQuery): Promise<PoolEntry[]> {
  const chains = q.chain === null ? CHAINS.map((c) => c.chain) : [q.chain];
  const answers = await Promise.all(chains.map((chain) => endpoint.ask<PoolEntry[]>(`dex:${chain}`, { t: 'Pools' } satisfies DexChainMessage, ASK_TIMEOUT_MS).catch(() => [] as PoolEntry[])));
  return answers.flat().filter((e) => matches(q, e));
}
