/**
 * DEX orders (docs/wallets-and-dex.md, "DEX orders"): what a chain-suffixed pair, or a
 * `BASE-USD` order from a client with a ready trading wallet, routes over (the pair's pools,
 * beside the CEX venues for `BASE-USD`); each pool's view for the SOR (its swap curve cut in
 * levels, its gas as a fixed fee); a pool leg sent to its chain and its answer as a venue's.
 *
 * A pool is a candidate like a venue: `venue` is its chain (the wallet's balances there are the
 * ledger rows it trades), `edge_id` its pool id `{chain}:{address}`.
 */
import type { ChildExecution } from '../actors/edge/messages.ts';
import type { PoolCurve, SwapOutcome, SwapRequest } from '../actors/dex-chain/chain.ts';
import type { DexChainMessage } from '../actors/dex-chain/messages.ts';
import { POOLS, type PoolSpec } from '../actors/dex-chain/pools.ts';
import { dexPair, isDexSymbol } from '../domain/chains.ts';
import { roundBps } from './sor/sor-cost.ts';
import type { BookEntry } from '../actors/market/directory.ts';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { ChildOrder, OrderRecord } from '../domain/orders.ts';
import { nowNs } from '../domain/units.ts';
import type { Ledger } from './ledger/ledger.ts';
import type { RoutingPlan, VenueView } from './sor/sor-types.ts';
import type { Messenger } from './types.ts';

export interface DexEntry {
  /** The order's symbol: `ETH-USDC-dex-arb`, or `ETH-USD` with pools beside the CEX venues. */
  symbol: string;
  instrument_type: 'dex';
  /** The CEX book's venues (mixed routing), then each pool's chain. */
  venues: readonly string[];
  edges: readonly string[];
  /** The CEX book routed beside the pools; null for a chain-suffixed pair (pools only). */
  cex: BookEntry | null;
  /** The consolidated book whose mid is the order's arrival (the CEX market of the pair). */
  reference: BookEntry | null;
  pools: readonly PoolSpec[];
}

/** The wallet a DEX order trades from, resolved and its commitment signed by the gateway (which holds the key). */
export interface OrderWallet {
  wallet_id: string;
  address: string;
  /** The wallet's signature over the order's commitment (keccak-256 of `dexCommitment`). */
  signature: string;
}

export function poolId(p: Pick<PoolSpec, 'chain' | 'pool_address'>): string {
  return `${p.chain}:${p.pool_address}`;
}

const BY_ID = new Map(POOLS.map((p) => [poolId(p), p]));

/** The pool a child's edge id names, if it is a pool. */
export function poolOfEdge(edgeId: string): PoolSpec | undefined {
  return edgeId.startsWith('dex-') ? BY_ID.get(edgeId) : undefined;
}

/**
 * The pools an order's symbol routes over: a chain-suffixed pair's pools on that chain; for
 * `BASE-USD` with a wallet, every chain's pools of the base against a dollar token. Undefined:
 * not a DEX order.
 */
export function dexEntry(symbol: string, withWallet: boolean, book: (symbol: string) => BookEntry | undefined): DexEntry | undefined {
  // Every order asks: anything but a chain-suffixed pair or (with a wallet) BASE-USD leaves here, before anything is parsed.
  if (!isDexSymbol(symbol) && !(withWallet && USD_PAIR.test(symbol))) return undefined;
  const q = dexPair(symbol);
  if (q === undefined) return undefined;
  const pools = POOLS.filter((p) => p.base === q.base && (q.chain === null ? p.quote === 'USDC' || p.quote === 'USDT' : p.chain === q.chain && p.quote === q.quote));
  if (pools.length === 0) return undefined;
  const cex = q.chain === null ? (book(`${q.base}-USD`) ?? null) : null;
  if (q.chain === null && cex === null) return undefined;
  const reference = cex ?? book(`${q.base}-${q.quote}`) ?? book(`${q.base}-USD`) ?? book(`${q.base}-USDT`) ?? null;
  return {
    symbol: q.chain === null ? `${q.base}-USD` : `${q.base}-${q.quote}-${q.chain}`,
    instrument_type: 'dex',
    venues: [...(cex?.venues ?? []), ...pools.map((p) => p.chain)],
    edges: [...(cex?.edges ?? []), ...pools.map(poolId)],
    cex,
    reference,
    pools,
  };
}

const USD_PAIR = /^[^-]+-usd$/i;

export function isDexEntry(entry: { instrument_type: string }): entry is DexEntry {
  return entry.instrument_type === 'dex';
}

/** What a DEX order's wallet signs: the order's identity and terms (deterministic: RFC 6979, so a retry signs the same). */
export function dexCommitment(clientId: string, mode: string, o: { client_order_id: string; symbol?: string; instrument?: { symbol: string }; side: string; qty_1e8: number; limit_price_1e9?: number }, address: string): string {
  return JSON.stringify(['sq-dex-order/v1', clientId, mode, address, o.client_order_id, o.symbol ?? o.instrument?.symbol ?? '', o.side, o.qty_1e8, o.limit_price_1e9 ?? null]);
}

/** In mixed routing a pool is worth a child only when its gas is at most this share of the child's notional (bps). */
export const MAX_GAS_SHARE_BPS = 100;
const CURVE_TIMEOUT_MS = 500;
const E18 = 1_000_000_000_000_000_000n;
const EMPTY = new Float64Array(0);

/** A swap's gas in USD 1e9: the base fee's and the priority fee's parts. */
export function gasUsd1e9(units: number, baseWei: number, priorityWei: number, ethUsd1e9: number): { gas_1e9: number; priority_fee_1e9: number; native_1e8: number } {
  const u = BigInt(units);
  const eth = BigInt(ethUsd1e9);
  const baseWeiTotal = u * BigInt(baseWei);
  const prioWeiTotal = u * BigInt(priorityWei);
  const wei = baseWeiTotal + prioWeiTotal;
  return {
    gas_1e9: Number((baseWeiTotal * eth + E18 - 1n) / E18),
    priority_fee_1e9: Number((prioWeiTotal * eth + E18 - 1n) / E18),
    // ETH in _1e8 units, rounded up: what the wallet pays.
    native_1e8: Number((wei + 10_000_000_000n - 1n) / 10_000_000_000n),
  };
}

/**
 * The pools' views for an order of `qty_1e8` on `side`: each pool's curve asked of its chain
 * (one ask per chain-suffixed pair), the wallet's balances on the chain, the gas of one swap as
 * a fee: its share of the order's notional in `taker_bps` (what the sweep weighs), the exact
 * amount in `fixed_fee` (what the plan charges, and the ETH it costs). Beside CEX venues a pool
 * needs a child large enough for its gas (MAX_GAS_SHARE_BPS), a minimum the plan reports as
 * `below_min_notional`, and a wallet that can pay the gas.
 */
export async function dexViews(endpoint: Messenger, entry: DexEntry, side: 'buy' | 'sell', qty_1e8: number, ledger: Ledger): Promise<VenueView[]> {
  const chainOf = new Map(entry.pools.map((p) => [p.symbol, p.chain]));
  const answers = await Promise.all(
    [...chainOf].map(([symbol, chain]) =>
      endpoint.ask<PoolCurve[]>(`dex:${chain}`, { t: 'Curves', symbol, side } satisfies DexChainMessage, CURVE_TIMEOUT_MS).catch(() => [] as PoolCurve[]),
    ),
  );
  const curves = new Map(answers.flat().map((c) => [c.pool_address, c]));
  const now = nowNs();
  // The pools of one chain spend one wallet, and the sweep keeps a budget per venue: each pool is
  // offered an equal share of what it spends (the quote of a buy, the base of a sell), so a plan
  // never spends a balance twice (two USDC pools on one chain each took all of it, and the second
  // child was refused for its balance). The rest of a large order goes to the CEX books.
  const spent = (pool: PoolSpec) => `${pool.chain}|${side === 'buy' ? pool.quote : pool.base}`;
  const sharing = new Map<string, bigint>();
  for (const pool of entry.pools) sharing.set(spent(pool), (sharing.get(spent(pool)) ?? 0n) + 1n);
  return entry.pools.map((pool) => {
    const n = sharing.get(spent(pool))!;
    const base = ledger.available(pool.chain, pool.base);
    const quote = ledger.available(pool.chain, pool.quote);
    const held = { base: side === 'sell' ? base / n : base, quote: side === 'buy' ? quote / n : quote, eth: ledger.available(pool.chain, 'ETH') };
    return poolView(pool, curves.get(pool.pool_address), side, qty_1e8, held, entry.cex !== null, now);
  });
}

/** One pool's view (see dexViews) from its curve (undefined: the chain did not answer, offline) and the wallet's balances on its chain. */
export function poolView(pool: PoolSpec, c: PoolCurve | undefined, side: 'buy' | 'sell', qty_1e8: number, held: { base: bigint; quote: bigint; eth: bigint }, mixed: boolean, now_ns: number): VenueView {
  const px = c === undefined ? EMPTY : Float64Array.from(c.px);
  const qty = c === undefined ? EMPTY : Float64Array.from(c.qty);
  const g = c === undefined ? undefined : gasUsd1e9(c.gas.estimated_gas_units, c.gas.base_fee_native, c.gas.priority_fee_native, c.gas.native_price_1e9);
  const gas = g === undefined ? 0 : g.gas_1e9 + g.priority_fee_1e9;
  const notional = px.length > 0 ? (qty_1e8 * px[0]!) / 1e8 : 0;
  const gasBps = notional > 0 ? (gas / notional) * 10_000 : 0;
  const lot = c?.lot_1e8 ?? 1;
  // Beside CEX venues, a pool on a chain where the wallet cannot pay a swap's gas is out
  // (`insufficient_balance`); a pools-only order is refused for its gas instead (`gasRefusal`, clearer).
  const noGas = mixed && g !== undefined && held.eth < BigInt(g.native_1e8);
  return {
    venue: pool.chain,
    edge_id: poolId(pool),
    listed: true,
    online: c !== undefined,
    last_update_ns: now_ns,
    // The gateway resolved a ready wallet for the order: it can sign here.
    has_credentials: true,
    base_available_1e8: noGas ? 0 : Number(held.base),
    quote_available_1e8: noGas ? 0 : Number(held.quote),
    bids_px: side === 'sell' ? px : EMPTY,
    bids_qty: side === 'sell' ? qty : EMPTY,
    bid_count: side === 'sell' ? px.length : 0,
    asks_px: side === 'buy' ? px : EMPTY,
    asks_qty: side === 'buy' ? qty : EMPTY,
    ask_count: side === 'buy' ? px.length : 0,
    maker_bps: gasBps,
    taker_bps: gasBps,
    // The simulated chain executes a swap in its current block, at once.
    latency_ms: 0,
    rules: { tick_1e9: 1, lot_1e8: lot, min_qty_1e8: lot, min_notional_1e9: mixed ? Math.ceil((gas * 10_000) / MAX_GAS_SHARE_BPS) : 0 },
    fixed_fee: { usd_1e9: gas, native_1e8: g?.native_1e8 ?? 0 },
  };
}

/** The plan with each pool child charged its swap's gas exactly (the sweep weighed it as bps of the order). */
export function withGasFees(plan: RoutingPlan, views: readonly VenueView[]): RoutingPlan {
  const gasOf = new Map(views.filter((v) => v.fixed_fee !== undefined).map((v) => [v.edge_id, v.fixed_fee!.usd_1e9]));
  if (gasOf.size === 0 || plan.allocations.length === 0) return plan;
  let fee = 0;
  const allocations = plan.allocations.map((a) => {
    const gas = gasOf.get(a.edge_id);
    const next = gas === undefined ? a : { ...a, expected_fee_1e9: gas, fee_bps: a.notional_1e9 > 0 ? roundBps((gas / a.notional_1e9) * 10_000) : 0 };
    fee += next.expected_fee_1e9;
    return next;
  });
  return { ...plan, allocations, expected_fee_1e9: fee, expected_fee_bps: plan.expected_notional_1e9 > 0 ? roundBps((fee / plan.expected_notional_1e9) * 10_000) : null };
}

/**
 * Why a DEX order cannot go: its wallet's ETH on a chain does not cover the gas of its swaps
 * there (plus the ETH it sells). Checked before anything is reserved or sent.
 */
export function gasRefusal(order: OrderRecord, plan: RoutingPlan, views: readonly VenueView[], ledger: Ledger): [string, string] | undefined {
  const need = new Map<string, bigint>();
  for (const a of plan.allocations) {
    const pool = poolOfEdge(a.edge_id);
    if (pool === undefined) continue;
    const gas = BigInt(views.find((v) => v.edge_id === a.edge_id)?.fixed_fee?.native_1e8 ?? 0);
    const sold = order.side === 'sell' && pool.base === 'ETH' ? BigInt(a.qty_1e8) : 0n;
    need.set(pool.chain, (need.get(pool.chain) ?? 0n) + gas + sold);
  }
  for (const [chain, eth] of need) {
    const held = ledger.available(chain, 'ETH');
    if (held < eth) return ['insufficient_gas', `the wallet's ETH on ${chain} (${held} qty_1e8 available) does not cover the swap's gas and what it sells (${eth} qty_1e8)`];
  }
  return undefined;
}

/** A pool leg as its chain is asked to execute it; a sandbox leg is dry (priced on the live pool, nothing changes on chain). */
export function swapMessage(order: OrderRecord, child: ChildOrder, pool: PoolSpec): DexChainMessage {
  const request: SwapRequest = {
    symbol: pool.symbol,
    pool_address: pool.pool_address,
    side: order.side,
    qty_1e8: child.qty_1e8,
    limit_price_1e9: child.limit_price_1e9 ?? (order.side === 'buy' ? Number.MAX_SAFE_INTEGER : 1),
    dry: order.mode === 'sandbox',
  };
  return { t: 'Swap', request };
}

/** The chain's answer as a venue's leg report: one fill (the swap), its trade id the transaction's hash. */
export function swapExecution(child: ChildOrder, pool: PoolSpec, out: SwapOutcome, signature: string): ChildExecution {
  const ack = nowNs();
  if (!out.ok) return { child_id: child.child_id, venue: child.venue, edge_id: child.edge_id, ok: false, reason: `swap refused: ${out.reason}`, fills: [], taker_bps: pool.fee_bps, maker_bps: 0, ack_ns: ack };
  const gas = gasUsd1e9(out.gas_units, out.base_fee_wei, out.priority_fee_wei, out.native_price_1e9);
  const fee = gas.gas_1e9 + gas.priority_fee_1e9;
  const tx = `0x${Buffer.from(keccak_256(new TextEncoder().encode(`${signature}|${child.child_id}|${out.block}`))).toString('hex')}`;
  return {
    child_id: child.child_id,
    venue: child.venue,
    edge_id: child.edge_id,
    ok: true,
    reason: null,
    fills: [
      {
        price_1e9: out.price_1e9,
        qty_1e8: out.qty_1e8,
        trade_id: tx,
        ts_ns: ack,
        fee_1e9: fee,
        cum_fee_1e9: fee,
        dex: { pair: `${pool.base}-${pool.quote}`, fee_bps: pool.fee_bps, lp_fee_1e9: out.lp_fee_1e9, gas_1e9: gas.gas_1e9, priority_fee_1e9: gas.priority_fee_1e9, gas_native_1e8: gas.native_1e8 },
      },
    ],
    taker_bps: pool.fee_bps,
    maker_bps: 0,
    ack_ns: ack,
  };
}
