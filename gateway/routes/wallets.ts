import { Type, type Static } from 'typebox';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { chainSpec, tokenInfo, tokenSpec } from '../../domain/chains.ts';
import { ASSETS } from '../../domain/venues.ts';
import { decimalToScaled } from '../../domain/units.ts';
import { effectiveSandboxSettings } from '../../storage/sandbox-settings.ts';
import { checkAddress } from '../../storage/wallet-keys.ts';
import { digestOf, walletView, type WalletRecord } from '../../storage/wallets.ts';
import type { GatewayContext } from '../context.ts';
import { Errors } from '../errors.ts';
import { principalOf, type RequestContext, type RouteSpec } from '../http/route.ts';
import { CreateWalletBody, TokenInfoSchema, WalletSchema, WithdrawBody, WithdrawResponse } from '../schemas/wallets.ts';

const tags = ['wallets'];
let tokenRows: ReturnType<typeof tokenInfo> | undefined;
const tokens = () => (tokenRows ??= tokenInfo(ASSETS.map((a) => a.asset)));

/**
 * Managed trading wallets (spec, Wallets endpoints; docs/wallets-and-dex.md): one per client
 * and mode, created on request, provisioning for WALLET_PROVISION_MS, then ready; its key is
 * generated and sealed in storage (storage/wallets.ts) and never leaves it. Its balances are the
 * positions of the chain venues (`dex-eth`, `dex-arb`), held in the client's ledger.
 */
export function walletRoutes(ctx: GatewayContext): RouteSpec[] {
  const store = ctx.storage.wallets;
  const tradingWallet = (req: RequestContext): WalletRecord => {
    const p = principalOf(req);
    const w = store.get(p.client_id, p.mode);
    if (w === undefined) throw Errors.noTradingWallet();
    return w;
  };
  const trading: Omit<RouteSpec, 'path' | 'operationId'> = {
    method: 'get',
    summary: "The caller's trading wallet",
    tags,
    auth: 'bearer',
    responses: { 200: { description: 'The wallet', schema: WalletSchema }, 404: { description: 'NO_TRADING_WALLET' } },
    handler: (req) => ({ status: 200, body: walletView(tradingWallet(req)) }),
  };
  return [
    {
      method: 'get',
      path: '/v1/wallets',
      operationId: 'listWallets',
      summary: "The caller's DEX wallets",
      tags,
      auth: 'bearer',
      responses: { 200: { description: 'Wallets', schema: Type.Object({ wallets: Type.Array(WalletSchema) }) } },
      handler: (req) => {
        const p = principalOf(req);
        const w = store.get(p.client_id, p.mode);
        return { status: 200, body: { wallets: w === undefined ? [] : [walletView(w)] } };
      },
    },
    { ...trading, path: '/v1/wallets/trading', operationId: 'getTradingWallet' },
    { ...trading, path: '/v1/wallets/default', operationId: 'getDefaultWallet', summary: 'Alias of GET /v1/wallets/trading' },
    {
      method: 'post',
      path: '/v1/wallets/trading/create-managed',
      operationId: 'createManagedWallet',
      summary: 'Create the managed trading wallet (provisioning in the background, about 5 s)',
      description: 'A secp256k1 key is generated and sealed at rest; the simulated chains fund the wallet with gas and USDC on each chain. 409 while one exists or is provisioning.',
      tags,
      auth: 'bearer',
      body: CreateWalletBody,
      responses: { 201: { description: 'Created, provisioning', schema: WalletSchema }, 409: { description: 'a trading wallet exists or is being provisioned (WALLET_EXISTS)' } },
      handler: async (req) => {
        const p = principalOf(req);
        const body = req.body as Static<typeof CreateWalletBody>;
        const result = await store.createManaged(p.client_id, p.mode, body.label, ctx.executionConfig.walletProvisionMs);
        if (!result.created) {
          const existing = walletView(result.existing);
          throw Errors.conflict('WALLET_EXISTS', `a trading wallet ${existing.status === 'ready' ? 'exists' : 'is being provisioned'} (${existing.wallet_id})`);
        }
        const usd = p.mode === 'sandbox' ? effectiveSandboxSettings(ctx.storage.db, p.client_id).initial_balance_usd : ctx.executionConfig.simAccountUsd;
        const usdc_1e8 = decimalToScaled(usd, 8) ?? 0n;
        await ctx.execution.fundWallet(p, usdc_1e8);
        ctx.log.info({ client_id: p.client_id, mode: p.mode, wallet_id: result.wallet.wallet_id }, 'managed wallet created');
        return { status: 201, body: walletView(result.wallet) };
      },
    },
    {
      method: 'get',
      path: '/v1/token-info',
      operationId: 'getTokenInfo',
      summary: 'Every asset the service knows: symbol, name, decimals, and its contract on each chain',
      tags: ['market data'],
      auth: 'public',
      responses: { 200: { description: 'Tokens by symbol', schema: TokenInfoSchema } },
      handler: () => ({ status: 200, body: { tokens: tokens(), count: tokens().length } }),
    },
    {
      method: 'post',
      path: '/v1/wallets/withdraw',
      operationId: 'withdrawFromWallet',
      summary: 'Send tokens from the managed wallet to an external address',
      tags,
      auth: 'bearer',
      body: WithdrawBody,
      responses: {
        200: { description: 'Signed and submitted; the balance is debited', schema: WithdrawResponse },
        400: { description: 'unknown token on the chain, a malformed or non-positive amount, a malformed or checksum-failing address, more than the wallet holds' },
        404: { description: 'NO_TRADING_WALLET' },
        409: { description: 'TRADING_WALLET_NOT_READY' },
      },
      handler: async (req) => {
        const p = principalOf(req);
        const body = req.body as Static<typeof WithdrawBody>;
        const chain = chainSpec(body.chain)!;
        const token = tokenSpec(body.token);
        if (token === undefined || token.contracts[chain.chain] === undefined) throw Errors.validation([{ field: 'token', message: `${body.token} is not a token the service knows on ${chain.chain}` }]);
        const places = Math.min(8, token.decimals ?? 8);
        const amount = /^\d+(\.\d+)?$/.test(body.amount) ? decimalToScaled(body.amount, places) : undefined;
        if (amount === undefined || amount <= 0n) throw Errors.validation([{ field: 'amount', message: `must be a positive decimal with at most ${places} decimal places` }]);
        const qty_1e8 = amount * 10n ** BigInt(8 - places);
        const recipient = checkAddress(body.recipient);
        if (!recipient.ok) throw Errors.validation([{ field: 'recipient', message: recipient.reason }]);
        const wallet = tradingWallet(req);
        if (!walletView(wallet).can_trade_dex) throw Errors.tradingWalletNotReady(`${wallet.wallet_id} is still provisioning`);
        const remaining = await ctx.execution.withdraw(p, chain.chain, token.symbol, qty_1e8);
        const transfer = JSON.stringify({ chain_id: chain.chain_id, from: wallet.address, to: recipient.address, token: token.symbol, amount_1e8: qty_1e8.toString(), at_ms: Date.now() });
        const signature = store.sign(p.client_id, p.mode, digestOf(transfer));
        const body200: Static<typeof WithdrawResponse> = {
          status: 'submitted',
          wallet_id: wallet.wallet_id,
          chain: chain.chain,
          token: token.symbol,
          amount: body.amount,
          amount_1e8: Number(qty_1e8),
          from: wallet.address,
          recipient: recipient.address,
          tx_hash: `0x${Buffer.from(keccak_256(Buffer.from(signature.slice(2), 'hex'))).toString('hex')}`,
          remaining_1e8: remaining,
        };
        return { status: 200, body: body200 };
      },
    },
  ];
}
