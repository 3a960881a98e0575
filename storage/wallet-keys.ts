import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import * as Address from 'ox/Address';

/**
 * EVM keys of the managed trading wallets: a secp256k1 secret key from the system's CSPRNG
 * (@noble/curves), its address the last 20 bytes of keccak-256 of the uncompressed public key
 * (without its 0x04 prefix), written with the EIP-55 checksum (ox). The secret never leaves
 * storage/wallets.ts unsealed.
 */
export function newSecretKey(): Uint8Array {
  return secp256k1.utils.randomSecretKey();
}

/** The checksummed address of a secret key. */
export function addressOf(secretKey: Uint8Array): string {
  const publicKey = secp256k1.getPublicKey(secretKey, false);
  const hash = keccak_256(publicKey.subarray(1));
  return Address.checksum(`0x${Buffer.from(hash.subarray(12)).toString('hex')}`);
}

export type AddressCheck = { ok: true; address: string } | { ok: false; reason: string };

/**
 * An address a client names (a withdrawal's recipient): 0x and 40 hex digits; mixed case must
 * carry a valid EIP-55 checksum (a typo in one is caught); all-lower or all-upper case carries
 * none and is taken as written, as wallets do. Answers the checksummed form.
 */
export function checkAddress(value: string): AddressCheck {
  if (!/^0x[0-9a-fA-F]{40}$/.test(value)) return { ok: false, reason: 'must be 0x followed by 40 hexadecimal digits' };
  const body = value.slice(2);
  const mixed = body !== body.toLowerCase() && body !== body.toUpperCase();
  if (mixed && !Address.validate(value, { strict: true })) return { ok: false, reason: 'fails its EIP-55 checksum (a mistyped character?)' };
  return { ok: true, address: Address.checksum(`0x${body.toLowerCase()}`) };
}
