/**
 * The chains the DEX pools and trading wallets live on, and the tokens the service knows
 * (reference data, like venues.ts). Chain ids and contract addresses are the public mainnet
 * ones; the simulated chains (`actors/dex/`) produce blocks and gas around these figures.
 */
export interface ChainSpec {
  /** The venue id of the chain's pools and of a wallet's balances there (`BASE-QUOTE-CHAIN` symbols end in it). */
  chain: 'dex-eth' | 'dex-arb';
  chain_id: number;
  name: string;
  /** The gas currency. */
  native: 'ETH';
  /** Seconds between simulated blocks. */
  block_s: number;
  /** Typical base and priority fees, gwei, and gas units of one pool swap. */
  base_fee_gwei: number;
  priority_fee_gwei: number;
  swap_gas_units: number;
}

export const CHAINS: readonly ChainSpec[] = [
  { chain: 'dex-eth', chain_id: 1, name: 'Ethereum', native: 'ETH', block_s: 4, base_fee_gwei: 12, priority_fee_gwei: 1, swap_gas_units: 130_000 },
  { chain: 'dex-arb', chain_id: 42161, name: 'Arbitrum One', native: 'ETH', block_s: 1, base_fee_gwei: 0.02, priority_fee_gwei: 0, swap_gas_units: 450_000 },
];

export type ChainId = ChainSpec['chain'];

export function chainSpec(chain: string): ChainSpec | undefined {
  return CHAINS.find((c) => c.chain === chain);
}

export function isChain(value: string): value is ChainId {
  return chainSpec(value) !== undefined;
}

/** A DEX symbol: `BASE-QUOTE-CHAIN` (one chain), or `BASE-QUOTE` across every chain (`BASE-USD`: any dollar quote). */
export interface DexPair {
  base: string;
  quote: string;
  chain: ChainId | null;
}

const CHAIN_SUFFIX = /-dex-[a-z]+$/i;

/** Whether a symbol is a chain-suffixed DEX pair (a regex test first, no allocation: the CEX paths call this on every symbol). */
export function isDexSymbol(symbol: string): boolean {
  return CHAIN_SUFFIX.test(symbol) && dexPair(symbol)?.chain != null;
}

/** Parses a pool symbol (case-insensitive); undefined when it is no pair. */
export function dexPair(symbol: string): DexPair | undefined {
  const parts = symbol.split('-');
  if (parts.some((p) => p === '')) return undefined;
  if (parts.length === 4) {
    const chain = `${parts[2]!.toLowerCase()}-${parts[3]!.toLowerCase()}`;
    return isChain(chain) ? { base: parts[0]!.toUpperCase(), quote: parts[1]!.toUpperCase(), chain } : undefined;
  }
  return parts.length === 2 ? { base: parts[0]!.toUpperCase(), quote: parts[1]!.toUpperCase(), chain: null } : undefined;
}

export interface TokenSpec {
  symbol: string;
  name: string;
  /** On-chain decimals; null for an asset with no contract the service trades on a chain. */
  decimals: number | null;
  /** Contract address per chain (EIP-55); null for the chain's native currency. */
  contracts: Partial<Record<ChainId, string | null>>;
}

/** Tokens with a presence on the chains; every other asset is CEX-only (`tokenInfo` lists it without chains). */
export const TOKENS: readonly TokenSpec[] = [
  { symbol: 'ETH', name: 'Ether', decimals: 18, contracts: { 'dex-eth': null, 'dex-arb': null } },
  { symbol: 'WETH', name: 'Wrapped Ether', decimals: 18, contracts: { 'dex-eth': '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2', 'dex-arb': '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1' } },
  { symbol: 'USDC', name: 'USD Coin', decimals: 6, contracts: { 'dex-eth': '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', 'dex-arb': '0xaf88d065e77c8cC2239327C5EDb3A432268e5831' } },
  { symbol: 'USDT', name: 'Tether USD', decimals: 6, contracts: { 'dex-eth': '0xdAC17F958D2ee523a2206206994597C13D831ec7', 'dex-arb': '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9' } },
  { symbol: 'WBTC', name: 'Wrapped BTC', decimals: 8, contracts: { 'dex-eth': '0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599', 'dex-arb': '0x2f2a2543B76A4166549F7aaB2e75Bef0aefC5B0f' } },
  { symbol: 'ARB', name: 'Arbitrum', decimals: 18, contracts: { 'dex-arb': '0x912CE59144191C1204E64559FE8253a0e49E6548' } },
  { symbol: 'UNI', name: 'Uniswap', decimals: 18, contracts: { 'dex-eth': '0x1f9840a85d5aF5bf1D1762F925BDADdC4201F984', 'dex-arb': '0xFa7F8980b0f1E64A2062791cc3b0871572f1F7f0' } },
  { symbol: 'LINK', name: 'Chainlink', decimals: 18, contracts: { 'dex-eth': '0x514910771AF9Ca656af840dff83E8264EcF986CA', 'dex-arb': '0xf97f4df75117a78c1A5a0DBb814Af92458539FB4' } },
];

export function tokenSpec(symbol: string): TokenSpec | undefined {
  return TOKENS.find((t) => t.symbol === symbol);
}

/** The gas a new managed wallet is funded with on each simulated chain (ETH x 1e8; its USDC is the account balance, ledgers.ts `fundWallet`). */
export const WALLET_GAS_ETH_1E8 = 200_000_000;

/** Names and native decimals of the assets the CEX venues list (`venues.ts` ASSETS) and their quotes. */
const ASSET_NAMES: Readonly<Record<string, [string, number]>> = {
  BTC: ['Bitcoin', 8], ETH: ['Ether', 18], SOL: ['Solana', 9], XRP: ['XRP', 6], DOGE: ['Dogecoin', 8], BNB: ['BNB', 18], ADA: ['Cardano', 6],
  AVAX: ['Avalanche', 18], LINK: ['Chainlink', 18], SUI: ['Sui', 9], LTC: ['Litecoin', 8], DOT: ['Polkadot', 10], BCH: ['Bitcoin Cash', 8],
  ARB: ['Arbitrum', 18], UNI: ['Uniswap', 18], OP: ['Optimism', 18], NEAR: ['NEAR Protocol', 24], ATOM: ['Cosmos', 6],
  USDT: ['Tether USD', 6], USDC: ['USD Coin', 6], USD: ['US Dollar', 2], EUR: ['Euro', 2], GBP: ['Pound Sterling', 2],
};

/** GET /v1/token-info: one row per asset. */
export interface TokenInfo {
  symbol: string;
  name: string;
  decimals: number;
  /** Where it lives on the service's chains: its contract (null for the chain's native currency). */
  chains: { chain: ChainId; chain_id: number; contract: string | null }[];
}

/** Every asset the service knows: the CEX assets and quotes, and the chain tokens, by symbol. */
export function tokenInfo(cexAssets: readonly string[]): TokenInfo[] {
  const out = new Map<string, TokenInfo>();
  for (const symbol of [...cexAssets, ...Object.keys(ASSET_NAMES)]) {
    const known = ASSET_NAMES[symbol];
    if (known !== undefined && !out.has(symbol)) out.set(symbol, { symbol, name: known[0], decimals: known[1], chains: [] });
  }
  for (const t of TOKENS) {
    const row = out.get(t.symbol) ?? { symbol: t.symbol, name: t.name, decimals: t.decimals ?? 18, chains: [] };
    for (const c of CHAINS) {
      const contract = t.contracts[c.chain];
      if (contract !== undefined) row.chains.push({ chain: c.chain, chain_id: c.chain_id, contract });
    }
    out.set(t.symbol, row);
  }
  return [...out.values()].sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
}
