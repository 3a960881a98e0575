import { book } from '../../actors/market/directory.ts';
import { isDexSymbol } from '../../domain/chains.ts';
import { dexCommitment, dexEntry, type OrderWallet } from '../../execution/dex-orders.ts';
import type { OrderRequest } from '../../execution/types.ts';
import { digestOf, walletView, type WalletStore } from '../../storage/wallets.ts';
import type { Principal } from '../auth/principal.ts';
import { Errors } from '../errors.ts';

/**
 * The wallet a DEX order trades from, resolved on the gateway (which holds the keys) and
 * carried to the router with the request, with the wallet's signature over the order (spec,
 * Orders and fills: `wallet_id`). A chain-suffixed pair needs the caller's ready trading
 * wallet (404 NO_TRADING_WALLET, 409 TRADING_WALLET_NOT_READY); an immediate `BASE-USD` order
 * adds pools beside the CEX venues when the caller has one ready, and stays CEX-only otherwise
 * (unless it named a `wallet_id`, which must then resolve). `connected:<address>` is a browser wallet, which a
 * headless API session never has (400); another `<backend>:<address>` than the caller's own
 * wallet is 404, as for a caller with none (whose wallet it is, is not said), on any order; the
 * caller's own on an order that trades no pool changes nothing.
 */
export function orderWallet(store: WalletStore, p: Principal, body: OrderRequest): OrderWallet | undefined {
  const symbol = body.instrument?.symbol ?? body.symbol ?? '';
  const spot = body.instrument?.type === undefined || body.instrument.type === 'spot';
  const chainSuffixed = spot && isDexSymbol(symbol);
  // A swap cannot rest: an order that may rest (gtc, or a limit without a time in force) routes BASE-USD over the CEX venues only.
  const immediate = body.time_in_force === 'ioc' || body.time_in_force === 'fok' || (body.time_in_force === undefined && body.order_type === 'market');
  // Whether BASE-USD has pools beside its CEX book: asked of the router's own rule (dex-orders.ts).
  const withPools = spot && !chainSuffixed && immediate && dexEntry(symbol, true, (s) => book(s, 'spot')) !== undefined;
  const named = body.wallet_id;
  if (named !== undefined) {
    if (named.toLowerCase().startsWith('connected:')) {
      throw Errors.validation([{ field: 'wallet_id', message: 'connected:<address> signs with a browser wallet, and none is connected to an API session: omit wallet_id (or name your managed wallet) to sign with the managed trading wallet' }]);
    }
  }
  const w = store.get(p.client_id, p.mode);
  // A wallet_id is checked whatever the order (never silently taken for another's), and on an
  // order that trades no pool it has nothing to sign: a client may send its wallet with every order.
  if (named !== undefined && (w === undefined || named.toLowerCase() !== w.wallet_id.toLowerCase())) {
    throw Errors.noTradingWallet(`no trading wallet ${named} for this key (GET /v1/wallets/trading names yours)`);
  }
  if (!chainSuffixed && !withPools) return undefined;
  const required = chainSuffixed || named !== undefined;
  if (w === undefined) {
    if (!required) return undefined;
    throw Errors.noTradingWallet();
  }
  if (!walletView(w).can_trade_dex) {
    if (!required) return undefined;
    throw Errors.tradingWalletNotReady(`${w.wallet_id} is still provisioning`);
  }
  const signature = store.sign(p.client_id, p.mode, digestOf(dexCommitment(p.client_id, p.mode, body, w.address)));
  return { wallet_id: w.wallet_id, address: w.address, signature };
}
