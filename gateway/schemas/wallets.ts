import { Type } from 'typebox';
import type { WalletView } from '../../storage/wallets.ts';
import { CHAINS } from '../../domain/chains.ts';
import { describing, StringEnum } from './common.ts';

/** The spec's Wallet (`storage/wallets.ts` `walletView`). */
export const WalletSchema = describing<WalletView>()(
  Type.Object(
    {
      wallet_id: Type.String({ description: '`<signer_backend>:<address>`, e.g. managed:0xAbC...' }),
      address: Type.String({ description: 'EIP-55 checksummed' }),
      scope: Type.Literal('dex'),
      role: Type.Literal('trading', { description: 'service-managed DEX signer' }),
      signer_backend: Type.String(),
      status: StringEnum(['provisioning', 'ready'] as const, 'provisioning for about 5 s after creation, then ready'),
      can_trade_dex: Type.Boolean({ description: 'can sign DEX orders headlessly (once ready)' }),
      can_trade_api: Type.Boolean({ description: 'deprecated alias of can_trade_dex, to be removed' }),
      label: Type.String(),
      created_at_ms: Type.Integer(),
    },
    { $id: 'Wallet', additionalProperties: false },
  ),
);

export const CreateWalletBody = Type.Object(
  { label: Type.String({ minLength: 1, maxLength: 100, description: 'a name for the wallet' }) },
  { $id: 'CreateManagedWalletRequest', additionalProperties: false },
);

const CHAIN_IDS = CHAINS.map((c) => c.chain) as ['dex-eth', 'dex-arb'];

export const WithdrawBody = Type.Object(
  {
    chain: StringEnum(CHAIN_IDS),
    token: Type.String({ minLength: 1, maxLength: 20, description: 'a token the wallet holds on that chain: ETH (gas), USDC, ...' }),
    amount: Type.String({ minLength: 1, maxLength: 40, description: 'decimal text, > 0, at most 8 decimal places (and no more than the token has)' }),
    recipient: Type.String({ minLength: 1, maxLength: 64, description: 'EVM address; mixed case must carry a valid EIP-55 checksum' }),
  },
  { $id: 'WithdrawRequest', additionalProperties: false },
);

export const WithdrawResponse = Type.Object(
  {
    status: Type.Literal('submitted'),
    wallet_id: Type.String(),
    chain: Type.String(),
    token: Type.String(),
    amount: Type.String({ description: 'as asked, normalized' }),
    amount_1e8: Type.Integer(),
    from: Type.String(),
    recipient: Type.String({ description: 'checksummed' }),
    tx_hash: Type.String({ description: 'keccak-256 of the transfer the wallet signed' }),
    remaining_1e8: Type.String({ description: "the wallet's balance of the token on the chain after the transfer, qty_1e8 (decimal text: it can pass 2^53)" }),
  },
  { $id: 'WithdrawResponse', additionalProperties: false },
);

export const TokenInfoSchema = Type.Object(
  {
    tokens: Type.Array(
      Type.Object({
        symbol: Type.String(),
        name: Type.String(),
        decimals: Type.Integer({ minimum: 0, description: 'native decimals on its chain or ledger' }),
        chains: Type.Array(
          Type.Object({
            chain: StringEnum(CHAIN_IDS),
            chain_id: Type.Integer(),
            contract: Type.Union([Type.String(), Type.Null()], { description: 'EIP-55 contract address; null for the chain\'s native currency' }),
          }),
          { description: 'empty for an asset traded on CEX venues only' },
        ),
      }),
    ),
    count: Type.Integer({ minimum: 0 }),
  },
  { $id: 'TokenInfo' },
);
