/**
 * EVM request signing (actors/edge/live/signing-evm.ts) against the vectors the venues' own SDKs
 * pin in their test suites: fixed (publicly known) private keys, fixed salts and nonces, expected
 * digests and signatures. A different byte here means the venue recovers another signer and
 * refuses the order. Each block names the repository and file its vectors were copied from.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Packr } from 'msgpackr';
import { TypedData } from 'ox';
import { keccak_256 } from '@noble/hashes/sha3.js';
import {
  POLYMARKET_CTF_EXCHANGE,
  POLYMARKET_NEG_RISK_CTF_EXCHANGE,
  POLYMARKET_SIDE,
  POLYMARKET_SIGNATURE_TYPE,
  evmAddress,
  hyperliquidActionHash,
  hyperliquidFloatToWire,
  hyperliquidL1Digest,
  hyperliquidMsgpack,
  hyperliquidOrderAction,
  hyperliquidOrderWire,
  hyperliquidSignL1Action,
  polymarketClobAuthDigest,
  polymarketClobAuthSignature,
  polymarketL1Headers,
  polymarketL2Headers,
  polymarketL2Signature,
  polymarketOrderDigest,
  polymarketOrderSignature,
  polymarketOrderStructHash,
  type EvmSignature,
  type PolymarketOrder,
} from '../../actors/edge/live/signing-evm.ts';

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/** The Polymarket SDKs' "publicly known private key" (Hardhat/Anvil account 0). */
const POLY_TEST_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const POLY_TEST_ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

describe('Polymarket CLOB: published SDK vectors', () => {
  // Polymarket/python-order-utils tests/test_order_builder.py (test_build_order_signature,
  // test_build_order_signature_neg_risk) and Polymarket/clob-order-utils
  // tests/src/exchange.order.builder.test.ts ("specific salt"): the same order, Amoy testnet
  // (chain 80002), salt 479249096354. Both SDKs call the 0x1901 digest the order's "struct hash"/"order hash".
  const amoyExchange = { chainId: 80002, verifyingContract: '0xdFE02Eb6733538f8Ea35D585af8DE5958AD99E40' };
  const amoyNegRiskExchange = { chainId: 80002, verifyingContract: '0xC5d563A36AE78145C45a50134d48A1215220f80a' };
  const order: PolymarketOrder = {
    salt: 479249096354n,
    maker: POLY_TEST_ADDRESS,
    signer: POLY_TEST_ADDRESS,
    taker: ZERO_ADDRESS,
    tokenId: '1234',
    makerAmount: '100000000',
    takerAmount: '50000000',
    expiration: '0',
    nonce: '0',
    feeRateBps: '100',
    side: POLYMARKET_SIDE.BUY,
    signatureType: POLYMARKET_SIGNATURE_TYPE.EOA,
  };

  it('the key is the SDKs\' maker address', () => {
    assert.equal(evmAddress(POLY_TEST_KEY), POLY_TEST_ADDRESS);
    assert.equal(evmAddress(POLY_TEST_KEY.slice(2)), POLY_TEST_ADDRESS, 'with or without 0x');
  });

  it('CTF Exchange order: digest and signature (python-order-utils, clob-order-utils)', () => {
    assert.equal(polymarketOrderDigest(order, amoyExchange), '0x02ca1d1aa31103804173ad1acd70066cb6c1258a4be6dada055111f9a7ea4e55');
    assert.equal(
      polymarketOrderSignature(order, POLY_TEST_KEY, amoyExchange),
      '0x302cd9abd0b5fcaa202a344437ec0b6660da984e24ae9ad915a592a90facf5a51bb8a873cd8d270f070217fea1986531d5eec66f1162a81f66e026db653bf7ce1c',
    );
  });

  it('Neg Risk CTF Exchange: the same order, another verifying contract, another digest and signature', () => {
    assert.equal(polymarketOrderDigest(order, amoyNegRiskExchange), '0xf15790d3edc4b5aed427b0b543a9206fcf4b1a13dfed016d33bfb313076263b8');
    assert.equal(
      polymarketOrderSignature(order, POLY_TEST_KEY, amoyNegRiskExchange),
      '0x1b3646ef347e5bd144c65bd3357ba19c12c12abaeedae733cf8579bc51a2752c0454c3bc6b236957e393637982c769b8dc0706c0f5c399983d933850afd1cbcd1c',
    );
  });

  it('Polygon (chain 137) order hash (Polymarket/clob-client tests/order-utils/exchange.order.builder.test.ts, "builds a deterministic order hash")', () => {
    const polygonOrder: PolymarketOrder = {
      salt: '1',
      maker: '0x1111111111111111111111111111111111111111',
      signer: '0x1111111111111111111111111111111111111111',
      taker: ZERO_ADDRESS,
      tokenId: '101',
      makerAmount: '1000000',
      takerAmount: '2000000',
      expiration: '0',
      nonce: '2',
      feeRateBps: '0',
      side: POLYMARKET_SIDE.BUY,
      signatureType: POLYMARKET_SIGNATURE_TYPE.EOA,
    };
    const exchange = { chainId: 137, verifyingContract: '0x0000000000000000000000000000000000000001' };
    assert.equal(polymarketOrderDigest(polygonOrder, exchange), '0xeb162c6cc7aa28ad096a7c40fb9556d41fa1730d71103ba7103589ae1f18d942');
    // Numbers, decimal strings and bigints are the same uint256.
    assert.equal(polymarketOrderDigest({ ...polygonOrder, salt: 1, tokenId: 101n, nonce: 2 }, exchange), '0xeb162c6cc7aa28ad096a7c40fb9556d41fa1730d71103ba7103589ae1f18d942');
  });

  it('the digest is keccak256(0x1901 ‖ domain separator ‖ struct hash) (EIP-712); the domain tells the exchanges apart', () => {
    const structHash = polymarketOrderStructHash(order);
    const domainSeparator = TypedData.hashDomain({ domain: { name: 'Polymarket CTF Exchange', version: '1', chainId: 80002, verifyingContract: '0xdFE02Eb6733538f8Ea35D585af8DE5958AD99E40' } });
    const signable = Buffer.concat([Buffer.from('1901', 'hex'), Buffer.from(domainSeparator.slice(2), 'hex'), Buffer.from(structHash.slice(2), 'hex')]);
    assert.equal(`0x${Buffer.from(keccak_256(signable)).toString('hex')}`, '0x02ca1d1aa31103804173ad1acd70066cb6c1258a4be6dada055111f9a7ea4e55');
    assert.notEqual(polymarketOrderDigest(order, POLYMARKET_CTF_EXCHANGE), polymarketOrderDigest(order, POLYMARKET_NEG_RISK_CTF_EXCHANGE));
    assert.notEqual(polymarketOrderDigest(order, POLYMARKET_CTF_EXCHANGE), polymarketOrderDigest(order, amoyExchange), 'the chain id is in the domain');
    assert.equal(polymarketOrderDigest(order), polymarketOrderDigest(order, POLYMARKET_CTF_EXCHANGE), 'Polygon CTF Exchange by default');
  });

  it('refuses malformed fields rather than signing something else', () => {
    assert.throws(() => polymarketOrderDigest({ ...order, tokenId: '0x4d2' }), /decimal/);
    assert.throws(() => polymarketOrderDigest({ ...order, makerAmount: -1 }), /range/);
    assert.throws(() => polymarketOrderDigest({ ...order, salt: 2 ** 60 }), /integer/);
    assert.throws(() => polymarketOrderDigest({ ...order, side: 2 as 0 }), /side/);
    assert.throws(() => polymarketOrderDigest({ ...order, taker: '0x00' }), /address/);
    assert.throws(() => polymarketOrderSignature(order, '0x1234'), (e: Error) => /32 bytes/.test(e.message) && !e.message.includes('1234'));
  });

  // Polymarket/py-clob-client tests/signing/test_eip712.py and Polymarket/clob-client
  // tests/signing/eip712.test.ts: chain AMOY (80002), timestamp 10000000, nonce 23.
  it('ClobAuth (L1) signature', () => {
    const expected = '0xf62319a987514da40e57e2f4d7529f7bac38f0355bd88bb5adbb3768d80de6c1682518e0af677d5260366425f4361e7b70c25ae232aff0ab2331e2b164a1aedc1b';
    assert.equal(polymarketClobAuthSignature(POLY_TEST_KEY, 80002, 10000000, 23), expected);
    assert.equal(polymarketClobAuthSignature(POLY_TEST_KEY, 80002, '10000000', 23n), expected, 'the timestamp is signed as text');
    assert.notEqual(polymarketClobAuthDigest(POLY_TEST_ADDRESS, 137, 10000000, 23), polymarketClobAuthDigest(POLY_TEST_ADDRESS, 80002, 10000000, 23));
    assert.deepEqual(polymarketL1Headers(POLY_TEST_KEY, 80002, 10000000, 23), {
      POLY_ADDRESS: POLY_TEST_ADDRESS,
      POLY_SIGNATURE: expected,
      POLY_TIMESTAMP: '10000000',
      POLY_NONCE: '23',
    });
    assert.equal(polymarketL1Headers(POLY_TEST_KEY, 137, 1700000000).POLY_NONCE, '0', 'nonce 0 by default, as the SDKs');
  });

  // Polymarket/clob-client tests/signing/hmac.test.ts and Polymarket/py-clob-client
  // tests/signing/test_hmac.py (test_build_hmac_signature_matches_expected).
  it('L2 HMAC: urlsafe base64 with its padding, secret in either base64 alphabet, stray characters skipped', () => {
    const secret = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
    const expected = 'ZwAdJKvoYRlEKDkNMwd5BuwNNtg93kNaR_oU2HrfVvc=';
    assert.equal(polymarketL2Signature(secret, 1000000, 'test-sign', '/orders', '{"hash": "0x123"}'), expected);
    assert.equal(polymarketL2Signature(secret, '1000000', 'test-sign', '/orders', '{"hash": "0x123"}'), expected);
    // clob-client: "transforms base64url encoding to base64" and "ignores invalid symbols in base64".
    assert.equal(
      polymarketL2Signature('--_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 1000000, 'test-sign', '/orders', '{"hash": "0x123"}'),
      polymarketL2Signature('++/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', 1000000, 'test-sign', '/orders', '{"hash": "0x123"}'),
    );
    assert.equal(polymarketL2Signature('AAAAAAAAA^^AAAAAAAA<>AAAAA||AAAAAAAAAAAAAAAAAAAAA=', 1000000, 'test-sign', '/orders', '{"hash": "0x123"}'), expected);
  });

  it('L2 HMAC: the body is signed verbatim, no body is the empty body, the method is not recased', () => {
    const secret = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
    const sign = (method: string, body?: string) => polymarketL2Signature(secret, 1000000, method, '/orders', body);
    assert.equal(sign('GET'), sign('GET', ''));
    assert.notEqual(sign('GET'), sign('get'));
    assert.notEqual(sign('POST', '{"x":1, "y":2}'), sign('POST', '{"x":1,"y":2}'), 'whitespace is signed');
    assert.notEqual(sign('POST', '{"m":"it\'s"}'), sign('POST', '{"m":"it"s"}'), 'a quote is not swapped (py-clob-client would)');
    const headers = polymarketL2Headers(POLY_TEST_ADDRESS, { apiKey: 'k-1', secret, passphrase: 'pp' }, 1000000, 'test-sign', '/orders', '{"hash": "0x123"}');
    assert.deepEqual(headers, { POLY_ADDRESS: POLY_TEST_ADDRESS, POLY_SIGNATURE: 'ZwAdJKvoYRlEKDkNMwd5BuwNNtg93kNaR_oU2HrfVvc=', POLY_TIMESTAMP: '1000000', POLY_API_KEY: 'k-1', POLY_PASSPHRASE: 'pp' });
    assert.ok(!Object.values(headers).includes(secret), 'the secret is not sent');
  });
});

/** The Python SDK prints r and s with eth_utils.to_hex(int), which drops leading zeros. */
const pythonHex = (word: string) => `0x${BigInt(word).toString(16)}`;
const pythonForm = (sig: EvmSignature) => ({ r: pythonHex(sig.r), s: pythonHex(sig.s), v: sig.v });
/** alloy's Signature Display (the Rust SDK): r ‖ s ‖ v as one hex string. */
const rustForm = (sig: EvmSignature) => `${sig.r}${sig.s.slice(2)}${sig.v.toString(16)}`;

describe('Hyperliquid L1 actions: published SDK vectors', () => {
  // hyperliquid-dex/hyperliquid-python-sdk tests/signing_test.py, all with this key, nonce 0 unless said.
  const key = '0x0123456789012345678901234567890123456789012345678901234567890123';
  const sign = (action: object, isMainnet: boolean, vaultAddress?: string) => pythonForm(hyperliquidSignL1Action(key, action, 0, { isMainnet, vaultAddress }));
  // float_to_int_for_hashing(1000) = 1000 * 10^8: past 2^32, so packed as uint64.
  const dummy = { type: 'dummy', num: 100000000000 };

  it('phantom agent connectionId of a production order (test_phantom_agent_creation_matches_production)', () => {
    const wire = hyperliquidOrderWire({ asset: 4, isBuy: true, sz: 0.0147, limitPx: 1670.1, reduceOnly: false, orderType: { limit: { tif: 'Ioc' } } });
    assert.deepEqual(wire, { a: 4, b: true, p: '1670.1', s: '0.0147', r: false, t: { limit: { tif: 'Ioc' } } });
    assert.equal(hyperliquidActionHash(hyperliquidOrderAction([wire]), 1677777606040), '0x0fcbeda5ae3c4950a548021552a4fea2226858c4453571bf3f24ba017eac2908');
  });

  it('test_l1_action_signing_matches (an integer past 2^32)', () => {
    assert.deepEqual(sign(dummy, true), { r: '0x53749d5b30552aeb2fca34b530185976545bb22d0b3ce6f62e31be961a59298', s: '0x755c40ba9bf05223521753995abb2f73ab3229be8ec921f350cb447e384d8ed8', v: 27 });
    assert.deepEqual(sign(dummy, false), { r: '0x542af61ef1f429707e3c76c5293c80d01f74ef853e34b76efffcb57e574f9510', s: '0x17b8b32f086e8cdede991f1e2c529f5dd5297cbe8128500e00cbaf766204a613', v: 28 });
    // Our r keeps its leading zero: 32 bytes, as viem/ethers give them.
    assert.equal(hyperliquidSignL1Action(key, dummy, 0, { isMainnet: true }).r, '0x053749d5b30552aeb2fca34b530185976545bb22d0b3ce6f62e31be961a59298');
    assert.deepEqual(sign({ type: 'dummy', num: 100000000000n }, true), sign(dummy, true), 'a bigint packs as the number');
  });

  it('test_l1_action_signing_matches_with_vault', () => {
    const vault = '0x1719884eb866cb12b2287399b15f7db5e7d775ea';
    assert.deepEqual(sign(dummy, true, vault), { r: '0x3c548db75e479f8012acf3000ca3a6b05606bc2ec0c29c50c515066a326239', s: '0x4d402be7396ce74fbba3795769cda45aec00dc3125a984f2a9f23177b190da2c', v: 28 });
    assert.deepEqual(sign(dummy, false, vault), { r: '0xe281d2fb5c6e25ca01601f878e4d69c965bb598b88fac58e475dd1f5e56c362b', s: '0x7ddad27e9a238d045c035bc606349d075d5c5cd00a6cd1da23ab5c39d4ef0f60', v: 27 });
  });

  it('test_l1_action_signing_order_matches (order wire: 100 → "100", Gtc)', () => {
    const action = hyperliquidOrderAction([hyperliquidOrderWire({ asset: 1, isBuy: true, sz: 100, limitPx: 100, reduceOnly: false, orderType: { limit: { tif: 'Gtc' } } })]);
    assert.deepEqual(action, { type: 'order', orders: [{ a: 1, b: true, p: '100', s: '100', r: false, t: { limit: { tif: 'Gtc' } } }], grouping: 'na' });
    assert.deepEqual(sign(action, true), { r: '0xd65369825a9df5d80099e513cce430311d7d26ddf477f5b3a33d2806b100d78e', s: '0x2b54116ff64054968aa237c20ca9ff68000f977c93289157748a3162b6ea940e', v: 28 });
    assert.deepEqual(sign(action, false), { r: '0x82b2ba28e76b3d761093aaded1b1cdad4960b3af30212b343fb2e6cdfa4e3d54', s: '0x6b53878fc99d26047f4d7e8c90eb98955a109f44209163f52d8dc4278cbbd9f5', v: 27 });
  });

  it('test_l1_action_signing_order_with_cloid_matches', () => {
    const action = hyperliquidOrderAction([hyperliquidOrderWire({ asset: 1, isBuy: true, sz: 100, limitPx: 100, reduceOnly: false, orderType: { limit: { tif: 'Gtc' } }, cloid: '0x00000000000000000000000000000001' })]);
    assert.deepEqual(sign(action, true), { r: '0x41ae18e8239a56cacbc5dad94d45d0b747e5da11ad564077fcac71277a946e3', s: '0x3c61f667e747404fe7eea8f90ab0e76cc12ce60270438b2058324681a00116da', v: 27 });
    assert.deepEqual(sign(action, false), { r: '0xeba0664bed2676fc4e5a743bf89e5c7501aa6d870bdb9446e122c9466c5cd16d', s: '0x7f3e74825c9114bc59086f1eebea2928c190fdfbfde144827cb02b85bbe90988', v: 28 });
  });

  it('test_l1_action_signing_tpsl_order_matches (trigger wire: isMarket, triggerPx, tpsl)', () => {
    const wire = hyperliquidOrderWire({ asset: 1, isBuy: true, sz: 100, limitPx: 100, reduceOnly: false, orderType: { trigger: { triggerPx: 103, isMarket: true, tpsl: 'sl' } } });
    assert.deepEqual(Object.keys((wire.t as { trigger: object }).trigger), ['isMarket', 'triggerPx', 'tpsl']);
    const action = hyperliquidOrderAction([wire]);
    assert.deepEqual(sign(action, true), { r: '0x98343f2b5ae8e26bb2587daad3863bc70d8792b09af1841b6fdd530a2065a3f9', s: '0x6b5bb6bb0633b710aa22b721dd9dee6d083646a5f8e581a20b545be6c1feb405', v: 27 });
    assert.deepEqual(sign(action, false), { r: '0x971c554d917c44e0e1b6cc45d8f9404f32172a9d3b3566262347d0302896a2e4', s: '0x206257b104788f80450f8e786c329daa589aa0b32ba96948201ae556d5637eac', v: 28 });
  });

  it('test_create_sub_account_action, test_sub_account_transfer_action', () => {
    const create = { type: 'createSubAccount', name: 'example' };
    assert.deepEqual(sign(create, true), { r: '0x51096fe3239421d16b671e192f574ae24ae14329099b6db28e479b86cdd6caa7', s: '0xb71f7d293af92d3772572afb8b102d167a7cef7473388286bc01f52a5c5b423', v: 27 });
    assert.deepEqual(sign(create, false), { r: '0xa699e3ed5c2b89628c746d3298b5dc1cca604694c2c855da8bb8250ec8014a5b', s: '0x53f1b8153a301c72ecc655b1c315d64e1dcea3ee58921fd7507e35818fcc1584', v: 28 });
    const transfer = { type: 'subAccountTransfer', subAccountUser: '0x1d9470d4b963f552e6f671a81619d395877bf409', isDeposit: true, usd: 10 };
    assert.deepEqual(sign(transfer, true), { r: '0x43592d7c6c7d816ece2e206f174be61249d651944932b13343f4d13f306ae602', s: '0x71a926cb5c9a7c01c3359ec4c4c34c16ff8107d610994d4de0e6430e5cc0f4c9', v: 28 });
    assert.deepEqual(sign(transfer, false), { r: '0xe26574013395ad55ee2f4e0575310f003c5bb3351b5425482e2969fa51543927', s: '0xefb08999196366871f919fd0e138b3a7f30ee33e678df7cfaf203e25f0a4278', v: 28 });
  });

  it('test_schedule_cancel_action (an absent key, and a key left undefined, are the same action)', () => {
    const expectedWithout = { r: '0x6cdfb286702f5917e76cd9b3b8bf678fcc49aec194c02a73e6d4f16891195df9', s: '0x6557ac307fa05d25b8d61f21fb8a938e703b3d9bf575f6717ba21ec61261b2a0', v: 27 };
    assert.deepEqual(sign({ type: 'scheduleCancel' }, true), expectedWithout);
    assert.deepEqual(sign({ type: 'scheduleCancel', time: undefined }, true), expectedWithout, 'JSON.stringify drops it from the body too');
    assert.deepEqual(sign({ type: 'scheduleCancel' }, false), { r: '0xc75bb195c3f6a4e06b7d395acc20bbb224f6d23ccff7c6a26d327304e6efaeed', s: '0x342f8ede109a29f2c0723bd5efb9e9100e3bbb493f8fb5164ee3d385908233df', v: 28 });
    assert.deepEqual(sign({ type: 'scheduleCancel', time: 123456789 }, true), { r: '0x609cb20c737945d070716dcc696ba030e9976fcf5edad87afa7d877493109d55', s: '0x16c685d63b5c7a04512d73f183b3d7a00da5406ff1f8aad33f8ae2163bab758b', v: 28 });
    assert.deepEqual(sign({ type: 'scheduleCancel', time: 123456789 }, false), { r: '0x4e4f2dbd4107c69783e251b7e1057d9f2b9d11cee213441ccfa2be63516dc5bc', s: '0x706c656b23428c8ba356d68db207e11139ede1670481a9e01ae2dfcdb0e1a678', v: 27 });
  });

  // nktkas/hyperliquid tests/signing/mod.test.ts (L1_ACTION): the expiresAfter suffix, which the
  // Python SDK's action_hash also appends (0x00, then 8 bytes), and 32-byte r/s.
  it('expiresAfter and vault suffixes, hashes and signatures (nktkas/hyperliquid)', () => {
    const action = { type: 'order', orders: [{ a: 0, b: true, p: '30000', s: '0.1', r: false, t: { limit: { tif: 'Gtc' } } }], grouping: 'na' };
    const vault = '0x1234567890123456789012345678901234567890';
    assert.equal(hyperliquidActionHash(action, 1234567890), '0x25367e0dba84351148288c2233cd6130ed6cec5967ded0c0b7334f36f957cc90');
    assert.equal(hyperliquidActionHash(action, 1234567890, vault), '0x214e2ea3270981b6fd18174216691e69f56872663139d396b10ded319cb4bb1e');
    assert.equal(hyperliquidActionHash(action, 1234567890, null, 1234567890), '0xc30b002ba3775e4c31c43c1dfd3291dfc85c6ae06c6b9f393991de86cad5fac7');
    assert.equal(hyperliquidActionHash(action, 1234567890, vault, 1234567890), '0x2d62412aa0fc57441b5189841d81554a6a9680bf07204e1454983a9ca44f0744');
    const nkKey = '0x822e9959e022b78423eb653a62ea0020cd283e71a2a8133a6ff2aeffaf373cff';
    assert.deepEqual(hyperliquidSignL1Action(nkKey, action, 1234567890, { isMainnet: true }), { r: '0x61078d8ffa3cb591de045438a1ae2ed299b271891d1943a33901e7cfb3a31ed8', s: '0x0e91df4f9841641d3322dad8d932874b74d7e082cdb5b533f804964a6963aef9', v: 28 });
    assert.deepEqual(hyperliquidSignL1Action(nkKey, action, 1234567890, { isMainnet: false }), { r: '0x6b0283a894d87b996ad0182b86251cc80d27d61ef307449a2ed249a508ded1f7', s: '0x6f884e79f4a0a10af62db831af6f8e03b3f11d899eb49b352f836746ee9226da', v: 27 });
  });

  // hyperliquid-dex/hyperliquid-rust-sdk src/exchange/exchange_client.rs (test_cancel_action_hashing,
  // test_limit_order_action_hashing, ..._with_cloid): rmp-serde, the venue's own encoder, agrees.
  // The Rust SDK sends prices as it holds them ("2000.0"): the hash is over the text sent.
  it('Rust SDK: cancel and limit order actions, nonce 1583838', () => {
    const rustKey = 'e908f86dbb4d55ac876378565aafeabc187f6690f046459397b17d9b9a19688e';
    const cancel = { type: 'cancel', cancels: [{ a: 1, o: 82382 }] };
    assert.equal(rustForm(hyperliquidSignL1Action(rustKey, cancel, 1583838, { isMainnet: true })), '0x02f76cc5b16e0810152fa0e14e7b219f49c361e3325f771544c6f54e157bf9fa17ed0afc11a98596be85d5cd9f86600aad515337318f7ab346e5ccc1b03425d51b');
    assert.equal(rustForm(hyperliquidSignL1Action(rustKey, cancel, 1583838, { isMainnet: false })), '0x6ffebadfd48067663390962539fbde76cfa36f53be65abe2ab72c9db6d0db44457720db9d7c4860f142a484f070c84eb4b9694c3a617c83f0d698a27e55fd5e01c');
    const order = { type: 'order', orders: [{ a: 1, b: true, p: '2000.0', s: '3.5', r: false, t: { limit: { tif: 'Ioc' } } }], grouping: 'na' };
    assert.equal(rustForm(hyperliquidSignL1Action(rustKey, order, 1583838, { isMainnet: true })), '0x77957e58e70f43b6b68581f2dc42011fc384538a2e5b7bf42d5b936f19fbb67360721a8598727230f67080efee48c812a6a4442013fd3b0eed509171bef9f23f1c');
    assert.equal(rustForm(hyperliquidSignL1Action(rustKey, order, 1583838, { isMainnet: false })), '0xcd0925372ff1ed499e54883e9a6205ecfadec748f80ec463fe2f84f1209648776377961965cb7b12414186b1ea291e95fd512722427efcbcfb3b0b2bcd4d79d01c');
    const withCloid = { ...order, orders: [{ ...order.orders[0]!, c: '0x1e60610f0b3d420597c88c1fed2ad5ee' }] };
    assert.equal(rustForm(hyperliquidSignL1Action(rustKey, withCloid, 1583838, { isMainnet: true })), '0xd3e894092eb27098077145714630a77bbe3836120ee29df7d935d8510b03a08f456de5ec1be82aa65fc6ecda9ef928b0445e212517a98858cfaa251c4cd7552b1c');
    assert.equal(rustForm(hyperliquidSignL1Action(rustKey, withCloid, 1583838, { isMainnet: false })), '0x3768349dbb22a7fd770fc9fc50c7b5124a7da342ea579b309f58002ceae49b4357badc7909770919c45d850aabb08474ff2b7b3204ae5b66d9f7375582981f111c');
  });

  it('mainnet and testnet sign different digests of the same action hash', () => {
    const hash = hyperliquidActionHash(dummy, 0);
    assert.notEqual(hyperliquidL1Digest(hash, true), hyperliquidL1Digest(hash, false));
  });
});

describe('Hyperliquid msgpack: Python msgpack.packb bytes, and where msgpackr differs', () => {
  const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
  // The msgpack spec's encodings, as Python's packer chooses them (smallest form; uint64 for 2^32 and up).
  it('the dummy action byte for byte: fixmap, fixstr, uint64', () => {
    assert.equal(hex(hyperliquidMsgpack({ type: 'dummy', num: 100000000000 })), '82' + 'a474797065' + 'a564756d6d79' + 'a36e756d' + 'cf000000174876e800');
  });

  it('integer boundaries', () => {
    const cases: Array<[number | bigint, string]> = [
      [0, '00'], [127, '7f'], [128, 'cc80'], [255, 'ccff'], [256, 'cd0100'], [65535, 'cdffff'], [65536, 'ce00010000'],
      [0xffffffff, 'ceffffffff'], [2 ** 32, 'cf0000000100000000'], [2n ** 64n - 1n, 'cfffffffffffffffff'],
      [-1, 'ff'], [-32, 'e0'], [-33, 'd0df'], [-128, 'd080'], [-129, 'd1ff7f'], [-32768, 'd18000'], [-32769, 'd2ffff7fff'],
      [-(2 ** 31), 'd280000000'], [-(2 ** 31) - 1, 'd3ffffffff7fffffff'],
    ];
    for (const [value, expected] of cases) assert.equal(hex(hyperliquidMsgpack([value])).slice(2), expected, String(value));
  });

  it('string and container length forms', () => {
    assert.equal(hex(hyperliquidMsgpack(['x'.repeat(31)])).slice(2, 4), 'bf');
    assert.equal(hex(hyperliquidMsgpack(['x'.repeat(32)])).slice(2, 6), 'd920', 'str8 from 32 bytes (use_bin_type packing)');
    assert.equal(hex(hyperliquidMsgpack(['x'.repeat(256)])).slice(2, 8), 'da0100');
    assert.equal(hex(hyperliquidMsgpack(['é'])).slice(2), 'a2c3a9', 'UTF-8 byte length');
    assert.equal(hex(hyperliquidMsgpack(new Array(16).fill(0))).slice(0, 6), 'dc0010');
    const sixteen = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, i]));
    assert.equal(hex(hyperliquidMsgpack(sixteen)).slice(0, 6), 'de0010');
    assert.equal(hex(hyperliquidMsgpack({ n: null, t: true, f: false })), '83a16ec0a174c3a166c2');
  });

  it('equals msgpackr (useRecords off, variableMapSize on) wherever every integer is within 32 bits', () => {
    const packr = new Packr({ useRecords: false, variableMapSize: true });
    const actions: object[] = [
      hyperliquidOrderAction([hyperliquidOrderWire({ asset: 4, isBuy: true, sz: 0.0147, limitPx: 1670.1, reduceOnly: false, orderType: { limit: { tif: 'Ioc' } }, cloid: '0x00000000000000000000000000000001' })]),
      hyperliquidOrderAction([hyperliquidOrderWire({ asset: 10107, isBuy: false, sz: '12.5', limitPx: '0.000123', reduceOnly: true, orderType: { trigger: { triggerPx: 103, isMarket: false, tpsl: 'tp' } } })], 'normalTpsl', { b: '0xABCDEFabcdefABCDEFabcdefABCDEFabcdefABCD', f: 10 }),
      { type: 'cancel', cancels: [{ a: 1, o: 82382 }, { a: 200, o: 4294967295 }] },
      { type: 'updateLeverage', asset: 3, isCross: true, leverage: 20 },
      { type: 'scheduleCancel', time: -5, note: 'x'.repeat(40), list: new Array(20).fill(1) },
    ];
    for (const action of actions) assert.equal(hex(hyperliquidMsgpack(action)), hex(packr.pack(action)), JSON.stringify(action));
  });

  it('where msgpackr differs: map16 for every object by default, no uint64 form', () => {
    assert.equal(hex(new Packr({ useRecords: false }).pack({ a: 1 })), 'de0001a16101', 'map16 unless variableMapSize');
    const packr = new Packr({ useRecords: false, variableMapSize: true });
    assert.equal(hex(packr.pack(100000000000)).slice(0, 2), 'cb', 'a number past 2^32 is a float64');
    assert.equal(hex(packr.pack(100000000000n)).slice(0, 2), 'd3', 'a bigint below 2^63 is an int64');
    assert.equal(hex(hyperliquidMsgpack([100000000000])).slice(2, 4), 'cf', 'Python (and the venue) write uint64');
  });

  it('refuses what it cannot pack as the venue would', () => {
    assert.throws(() => hyperliquidMsgpack({ p: 1.5 }), /safe integers/);
    assert.throws(() => hyperliquidMsgpack({ o: 2 ** 60 }), /safe integers/);
    assert.throws(() => hyperliquidMsgpack({ o: 2n ** 64n }), /64 bits/);
    assert.throws(() => hyperliquidMsgpack({ d: new Date(0) }), /plain objects/);
    assert.throws(() => hyperliquidMsgpack([undefined]), /undefined/);
    assert.throws(() => hyperliquidMsgpack({ 1: 'a' }), /integer-like keys/);
    assert.throws(() => hyperliquidMsgpack({ s: '\ud800' }), /surrogate/);
  });
});

describe('Hyperliquid wire decimals (the Python SDK float_to_wire rule: 8 decimals, normalized)', () => {
  it('numbers', () => {
    assert.equal(hyperliquidFloatToWire(1670.1), '1670.1');
    assert.equal(hyperliquidFloatToWire(0.0147), '0.0147');
    assert.equal(hyperliquidFloatToWire(100), '100');
    assert.equal(hyperliquidFloatToWire(0.00000001), '0.00000001');
    assert.equal(hyperliquidFloatToWire(123456.123), '123456.123');
    assert.equal(hyperliquidFloatToWire(0), '0');
    assert.equal(hyperliquidFloatToWire(-0), '0');
    assert.throws(() => hyperliquidFloatToWire(0.000000001), /rounded/);
    assert.throws(() => hyperliquidFloatToWire(1 / 3), /rounded/);
    assert.throws(() => hyperliquidFloatToWire(Number.NaN), /wire form/);
  });

  it('decimal strings, without a float in between', () => {
    assert.equal(hyperliquidFloatToWire('2000.0'), '2000');
    assert.equal(hyperliquidFloatToWire('0.10000000000'), '0.1');
    assert.equal(hyperliquidFloatToWire('007.50'), '7.5');
    assert.equal(hyperliquidFloatToWire('12345678901234567890.12345678'), '12345678901234567890.12345678');
    assert.throws(() => hyperliquidFloatToWire('0.000000001'), /8 decimals/);
    assert.throws(() => hyperliquidFloatToWire('1e-5'), /not a decimal/);
  });

  it('order wire refuses a malformed cloid', () => {
    assert.throws(() => hyperliquidOrderWire({ asset: 0, isBuy: true, sz: 1, limitPx: 1, reduceOnly: false, orderType: { limit: { tif: 'Gtc' } }, cloid: '0x1' }), /cloid/);
  });
});
