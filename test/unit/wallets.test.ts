/**
 * Managed trading wallets: address derivation against a known key/address pair, the EIP-55
 * check of a recipient, and the wallet store over a real LMDB (storage/wallets.ts): one wallet
 * per client and mode, provisioning then ready by time, the key sealed at rest (a signature
 * recovers the wallet's address; the row does not hold the key in the clear, and under another
 * credentials key it does not open).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { Address } from 'ox';
import { Storage } from '../../storage/index.ts';
import { addressOf, checkAddress } from '../../storage/wallet-keys.ts';
import { digestOf, walletView } from '../../storage/wallets.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'seq-wallets-'));
  dirs.push(dir);
  return dir;
};

describe('wallet keys', () => {
  it('derives the address of a known key (the web3.js accounts example), checksummed', () => {
    const key = Buffer.from('4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318', 'hex');
    assert.equal(addressOf(key), '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23');
  });

  it('checks a recipient: 40 hex digits, the EIP-55 checksum when mixed case, lower and upper case taken as written', () => {
    assert.deepEqual(checkAddress('0x2c7536E3605D9C16a7a3D7b1898e529396a65c23'), { ok: true, address: '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23' });
    assert.deepEqual(checkAddress('0x2c7536e3605d9c16a7a3d7b1898e529396a65c23'), { ok: true, address: '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23' });
    assert.equal(checkAddress('0x2C7536E3605D9C16A7A3D7B1898E529396A65C23').ok, true);
    const typo = checkAddress('0x2c7536E3605D9C16a7a3D7b1898e529396a65C23');
    assert.equal(typo.ok, false);
    assert.match((typo as { reason: string }).reason, /checksum/);
    for (const bad of ['2c7536E3605D9C16a7a3D7b1898e529396a65c23', '0x2c7536E3605D9C16a7a3D7b1898e529396a65c2', '0xZZ7536E3605D9C16a7a3D7b1898e529396a65c23', '', '0x']) assert.equal(checkAddress(bad).ok, false, bad);
  });
});

describe('wallet store', () => {
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('one wallet per client and mode, provisioning until its time, its key sealed and used only to sign', async () => {
    const dir = tempDir();
    const storage = Storage.open(dir, { credentialsKey: '5e'.repeat(32) });
    try {
      const t0 = 1_800_000_000_000;
      const a = await storage.wallets.createManaged('alice', 'live', 'main', 5_000, t0);
      assert.equal(a.created, true);
      const w = (a as { wallet: { wallet_id: string; address: string } }).wallet;
      assert.equal(w.wallet_id, `managed:${w.address}`);
      assert.equal(Address.validate(w.address, { strict: true }), true);
      assert.equal(walletView(storage.wallets.get('alice', 'live')!, t0 + 4_999).status, 'provisioning');
      assert.equal(walletView(storage.wallets.get('alice', 'live')!, t0 + 4_999).can_trade_dex, false);
      assert.equal(walletView(storage.wallets.get('alice', 'live')!, t0 + 5_000).status, 'ready');
      // A second create finds the first; the other mode and another client have their own.
      const again = await storage.wallets.createManaged('alice', 'live', 'again', 5_000, t0 + 1);
      assert.deepEqual(again, { created: false, existing: storage.wallets.get('alice', 'live') });
      assert.equal(storage.wallets.get('alice', 'sandbox'), undefined);
      assert.equal(storage.wallets.get('bob', 'live'), undefined);
      const s = await storage.wallets.createManaged('alice', 'sandbox', 'paper', 0, t0);
      assert.notEqual((s as { wallet: { address: string } }).wallet.address, w.address);
      // The sealed key signs for the wallet's address.
      const digest = digestOf('a transfer');
      const sig = Buffer.from(storage.wallets.sign('alice', 'live', digest).slice(2), 'hex');
      const pub = secp256k1.Point.fromBytes(secp256k1.recoverPublicKey(sig, digest, { prehash: false })).toBytes(false);
      assert.equal(Address.checksum(`0x${Buffer.from(keccak_256(pub.subarray(1)).subarray(12)).toString('hex')}`), w.address);
      // The row holds a sealed box, no key in the clear (a 32-byte secret would be a bare Uint8Array of 32).
      const raw = storage.db.wallets.get(['alice', 'live']) as { key: { ciphertext: Uint8Array; iv: Uint8Array; tag: Uint8Array }; record: Record<string, unknown> };
      assert.equal(raw.key.ciphertext.length, 32);
      assert.deepEqual(Object.keys(raw.record).sort(), ['address', 'created_at_ms', 'label', 'ready_at_ms', 'signer_backend', 'wallet_id']);
    } finally {
      await storage.close();
    }
    // Under another credentials key the wallet's key does not open.
    const other = Storage.open(dir, { credentialsKey: '6f'.repeat(32) });
    try {
      assert.throws(() => other.wallets.sign('alice', 'live', digestOf('x')));
    } finally {
      await other.close();
    }
  });
});
