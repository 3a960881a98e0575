import { dexPair, POOLS } from '../../actors/dex-chain/pools.ts';
import { dexCommitment, type OrderWallet } from '../../execution/dex-orders.ts';
import type { OrderRequest } from '../../execution/types.ts';
import { digestOf, walletView, type WalletStore } from '../../storage/wallets.ts';
import type { Principal } from '../auth/principal.ts';
import { Errors } from '../errors.ts';

/**
 * The wallet a DEX order trades from, resolved on the gateway (which holds the keys) and
 * carried to the router with the request, with the wallet's signature over the order (spec,
 * Orders and fills: `wallet_id`). A chain-suffixed pair needs the caller's ready trading
 * wallet (404 NO_TRADING_WALLET, 409 TRADING_WALLET_NOT_READY); `BASE-USD` adds pools beside
 * the CEX venues when the caller has one ready, and stays CEX-only otherwise (unless it named a
 * `wallet_id`, which must then resolve). `connected:<address>` is a browser wallet, which a
 * headless API session never has (400); another `<backend>:<address>` than the caller's own
 * wallet is 404, as for a caller with none (whose wallet it is, is not said).
 */
export function orderWallet(store: WalletStore, p: Principal, body: OrderRequest): OrderWallet | undefined {
  const symbol = body.instrument?.symbol ?? body.symbol ?? '';
  const pair = body.instrument?.type === undefined || body.instrument.type === 'spot' ? dexPair(symbol) : undefined;
  const chainSuffixed = pair !== undefined && pair.chain !== null;
  const withPools = pair !== undefined && pair.chain === null && pair.quote === 'USD' && POOLS.some((pool) => pool.base === pair.base);
  const named = body.wallet_id;
  if (named !== undefined) {
    if (named.toLowerCase().startsWith('connected:')) {
      throw Errors.validation([{ field: 'wallet_id', message: 'connected:<address> signs with a browser wallet, and none is connected to an API session: omit wallet_id (or name your managed wallet) to sign with the managed trading wallet' }]);
    }
    if (!chainSuffixed && !withPools) {
      throw Errors.validation([{ field: 'wallet_id', message: 'applies to DEX orders: a chain-suffixed pair (ETH-USDC-dex-arb) or BASE-USD routed across venues and pools' }]);
    }
  }
  if (!chainSuffixed && !withPools) return undefined;
  const required = chainSuffixed || named !== undefined;
  const w = store.get(p.client_id, p.mode);
  if (w === undefined || (named !== undefined && named.toLowerCase() !== w.wallet_id.toLowerCase())) {
    if (!required) return undefined;
    throw Errors.noTradingWallet(named === undefined ? undefined : `no trading wallet ${named} for this key (GET /v1/wallets/trading names yours)`);
  }
  if (!walletView(w).can_trade_dex) {
    if (!required) return undefined;
    throw Errors.tradingWalletNotReady(`${w.wallet_id} is still provisioning`);
  }
  const signature = store.sign(p.client_id, p.mode, digestOf(dexCommitment(p.client_id, p.mode, body, w.address)));
  return { wallet_id: w.wallet_id, address: w.address, signature };
}
