import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { CredentialCipher, SealedBox } from './crypto.ts';
import type { Databases } from './database.ts';
import { addressOf, newSecretKey } from './wallet-keys.ts';

/**
 * Managed trading wallets (spec, Wallet), one per (client_id, mode): sandbox and live never mix.
 *
 *   wallets: [client_id, 'live'|'sandbox'] -> StoredWallet { record, sealed key }
 *
 * The secp256k1 secret is generated here, sealed with AES-256-GCM under the credentials key
 * (crypto.ts) with associated data naming the row and its address, and opened only to sign.
 * Provisioning is a time, not a timer: a wallet is `provisioning` until `ready_at_ms`, so a
 * restart in between changes nothing.
 */
export type WalletMode = 'live' | 'sandbox';

/** The managed signer's backend name: `wallet_id` is `managed:<address>`. */
export const MANAGED_BACKEND = 'managed';

export interface WalletRecord {
  wallet_id: string;
  address: string;
  label: string;
  signer_backend: string;
  created_at_ms: number;
  ready_at_ms: number;
}

/** The spec's Wallet object, plus the label and creation time the client gave. */
export interface WalletView {
  wallet_id: string;
  address: string;
  scope: 'dex';
  role: 'trading';
  signer_backend: string;
  status: 'provisioning' | 'ready';
  can_trade_dex: boolean;
  /** Deprecated alias of can_trade_dex (spec). */
  can_trade_api: boolean;
  label: string;
  created_at_ms: number;
}

interface StoredWallet {
  v: 1;
  record: WalletRecord;
  key: SealedBox;
}

const FORMAT = 'sq-wallet/v1';

function associatedData(clientId: string, mode: WalletMode, address: string): Buffer {
  return Buffer.from(JSON.stringify([FORMAT, clientId, mode, address]));
}

export type CreateWalletResult = { created: true; wallet: WalletRecord } | { created: false; existing: WalletRecord };

export class WalletStore {
  constructor(
    private readonly db: Databases,
    private readonly cipher: CredentialCipher,
  ) {}

  get(clientId: string, mode: WalletMode): WalletRecord | undefined {
    return (this.db.wallets.get([clientId, mode]) as StoredWallet | undefined)?.record;
  }

  /**
   * Creates the client's managed trading wallet in `mode`, provisioning for `provisionMs`; the
   * existing one (provisioning or ready) when there is one. Durable before it resolves.
   */
  async createManaged(clientId: string, mode: WalletMode, label: string, provisionMs: number, nowMs = Date.now()): Promise<CreateWalletResult> {
    const existing = this.get(clientId, mode);
    if (existing !== undefined) return { created: false, existing };
    const secret = newSecretKey();
    try {
      const address = addressOf(secret);
      const record: WalletRecord = { wallet_id: `${MANAGED_BACKEND}:${address}`, address, label, signer_backend: MANAGED_BACKEND, created_at_ms: nowMs, ready_at_ms: nowMs + provisionMs };
      const key = this.cipher.seal(secret, associatedData(clientId, mode, address));
      // Another request for the same client may have written first: the first one wins.
      const written = await this.db.wallets.ifNoExists([clientId, mode], () => {
        this.db.wallets.put([clientId, mode], { v: 1, record, key } satisfies StoredWallet);
      });
      if (!written) return { created: false, existing: this.get(clientId, mode)! };
      return { created: true, wallet: record };
    } finally {
      secret.fill(0);
    }
  }

  /**
   * Signs a 32-byte digest with the wallet's key (keccak-256 of what the DEX order commits to):
   * the 65-byte recoverable signature as 0x hex. The key is opened for this call only.
   */
  sign(clientId: string, mode: WalletMode, digest: Uint8Array): string {
    const stored = this.db.wallets.get([clientId, mode]) as StoredWallet | undefined;
    if (stored === undefined) throw new Error('no wallet to sign with');
    const secret = this.cipher.open(stored.key, associatedData(clientId, mode, stored.record.address));
    try {
      const sig = secp256k1.sign(digest, secret, { prehash: false, format: 'recovered' });
      return `0x${Buffer.from(sig).toString('hex')}`;
    } finally {
      secret.fill(0);
    }
  }
}

/** keccak-256 of a UTF-8 text (what a DEX order's signature covers). */
export function digestOf(text: string): Uint8Array {
  return keccak_256(new TextEncoder().encode(text));
}

/** A wallet as the API shows it at `nowMs`. */
export function walletView(w: WalletRecord, nowMs = Date.now()): WalletView {
  const ready = nowMs >= w.ready_at_ms;
  return {
    wallet_id: w.wallet_id,
    address: w.address,
    scope: 'dex',
    role: 'trading',
    signer_backend: w.signer_backend,
    status: ready ? 'ready' : 'provisioning',
    can_trade_dex: ready,
    can_trade_api: ready,
    label: w.label,
    created_at_ms: w.created_at_ms,
  };
}
