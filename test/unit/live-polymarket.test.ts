/**
 * The live Polymarket adapter's pure core: the CLOB V2 codec (accounts, order amounts, V2/V3
 * order ids and signatures, the POST /order body, L1/L2 requests, answers, trades, fees, cancels,
 * heartbeats, balances, the Gamma catalog, books) and the market-channel book sync.
 *
 * Samples, by source:
 *   - nautilus_trader crates/adapters/polymarket/src/signing/eip712.rs: "Reference vectors
 *     generated with py_clob_client_v2==1.0.0's ExchangeOrderBuilderV2" (Hardhat key #0, Polygon):
 *     five ECDSA orders (order hash and signature) and two POLY_1271 deposit-wallet orders.
 *   - Polymarket/py-clob-client-v2 tests/order_utils/test_exchange_order_builder_v2.py: the Amoy
 *     POLY_1271 signature (EXPECTED_POLY_1271_SIGNATURE).
 *   - Polymarket/ts-sdk packages/client/src/actions/orders/amounts.test.ts: limit and marketable
 *     amounts at the six tick sizes (TICK_CASES) and the protected buy/sell cases.
 *   - Polymarket/py-clob-client tests/test_utilities.py: the book summary hash 0458ea57...
 *   - docs.polymarket.com: the POST /order request and answer examples (api-reference/trade/
 *     post-a-new-order), the market channel's `book` and `price_change` examples (the second
 *     change of the latter is cut in the docs and left out here), error messages (resources/
 *     error-codes), heartbeat semantics (ts-sdk order-heartbeats.ts, order-response.ts strings).
 *   - nautilus_trader crates/adapters/polymarket/test_data: Gamma answers captured from
 *     gamma-api.polymarket.com (gamma_event.json, gamma_market.json, the closed and sports
 *     markets; trimmed here to the fields read, values verbatim) and CLOB answers
 *     (clob_market_closed_binary_accepting_false.json captured; http_*.json and ws_*.json are the
 *     adapter's own fixtures in the venue's shape, not captures).
 *   - Anything else marked "not from the docs" is made up for the case it tests.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Hash, Secp256k1, Signature, TypedData } from 'ox';
import { Side } from '../../domain/market.ts';
import { phaseAt } from '../../domain/prediction/catalog.ts';
import { classifySymbol } from '../../domain/prediction/symbols.ts';
import { checkCredentials } from '../../storage/credential-shapes.ts';
import { L2Book } from '../../actors/edge/live/l2-book.ts';
import { evmAddress, polymarketL1Headers, polymarketL2Headers, POLYGON_CHAIN_ID } from '../../actors/edge/live/signing-evm.ts';
import { PolymarketBookSync, type PolymarketBookSnapshot, type PolymarketLevelChange } from '../../actors/edge/live/polymarket/book-sync.ts';
import {
  accountProbeOf,
  apiKeyRequest,
  assetBalanceOf,
  balanceAllowanceQuery,
  bookPath,
  bookSummaryHash,
  cancelMarketOrdersBody,
  cancelOrderBody,
  cancelOutcome,
  catalogTokenId,
  clobMarketPath,
  tokenQueryPath,
  childOrderSalt,
  childOrderTerms,
  childOrderV2,
  credentialsWithApiKey,
  decodeApiKey,
  decodeBalanceAllowance,
  decodeClobMarket,
  decodeClobMarketInfo,
  decodeGammaEvents,
  decodeGammaMarkets,
  decodeHeartbeat,
  decodeMarketFrame,
  decodeNegRisk,
  decodeOpenOrders,
  decodeOrder,
  decodePostOrder,
  decodeRestBook,
  decodeTickSize,
  decodeTrades,
  decodeVersion,
  errorKindOf,
  exchangeKindOf,
  fillsOfOrder,
  gammaEventsPath,
  gammaMarketsByConditionPath,
  heartbeatBody,
  l2Request,
  legReportOf,
  limitOrderAmounts,
  listingFingerprint,
  marketableOrderAmounts,
  marketSubscription,
  marketSubscriptionUpdate,
  MAX_SALT,
  ORDER_V2_TYPE_STRING,
  ownOpenOrdersOf,
  polymarketAccountOf,
  polymarketError,
  polymarketOrderIdV2,
  polymarketOrderStructHashV2,
  polymarketTakerFee1e9,
  POLYMARKET_EXCHANGES,
  postOrderBody,
  settledReportOf,
  signedChildOrder,
  signPolymarketOrderV2,
  tickSizeOf,
  tradesQuery,
  UNKNOWN_INSTANT_MS,
  venueTokenId,
  ZERO_BYTES32,
  type PolymarketAccount,
  type PolymarketOrderV2,
  type PolymarketTickSize,
  type PolymarketTokenRules,
} from '../../actors/edge/live/polymarket/codec.ts';

/**
 * `assert.ok` with a message always: without one, a failing `assert.ok` reads the test's source to
 * print the expression, which hangs on tsx-transformed files instead of failing.
 */
function ok(value: unknown, message = 'expected a truthy value'): asserts value {
  assert.ok(value, message);
}

/** The SDKs' "publicly known private key" (Hardhat/Anvil account 0). */
const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const HARDHAT0 = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const API = { apiKey: 'f4f247b7-4ac7-ff29-a152-04fda0a8755a', secret: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', passphrase: 'pass' };

function account(overrides: Partial<PolymarketAccount> = {}): PolymarketAccount {
  return { signerKey: KEY, signerAddress: HARDHAT0, maker: HARDHAT0, signatureType: 0, api: API, ...overrides };
}

// ---------------------------------------------------------------------------------------------

describe('Polymarket token ids and accounts', () => {
  it('pads venue token ids to the catalog\'s 78 digits and strips them back (a captured 77-digit id)', () => {
    const short = '71183960810705820955071415844881728181970340514894896943812046065452395013351'; // gamma_market.json, 77 digits
    const padded = catalogTokenId(short)!;
    assert.equal(padded.length, 78);
    assert.equal(padded, `0${short}`);
    assert.deepEqual(classifySymbol(padded), { kind: 'token', token_id: padded }, 'the resolver takes the padded id');
    assert.equal(venueTokenId(padded), short);
    const full = '104239898038807136052399800151408521467737075933964991162589336683346093173875';
    assert.equal(catalogTokenId(full), full);
    assert.equal(catalogTokenId('1'.padEnd(79, '0')), undefined, 'past 78 digits');
    assert.equal(catalogTokenId(((1n << 256n)).toString()), undefined, 'past uint256');
    assert.equal(catalogTokenId('0x12'), undefined);
  });

  it('reads stored credentials: the signer key, the proxy as maker, the L2 key (storage/credential-shapes.ts names)', () => {
    const eoa = polymarketAccountOf({ api_key: '', api_secret: '', extra_json: { signer_private_key: KEY } });
    ok(eoa.ok);
    assert.deepEqual(eoa.account, { signerKey: KEY, signerAddress: HARDHAT0, maker: HARDHAT0, signatureType: 0, api: null });
    const proxy = '0x1111111111111111111111111111111111111111';
    const creds = { api_key: API.apiKey, api_secret: API.secret, passphrase: API.passphrase, extra_json: { signer_private_key: KEY, proxy_address: proxy } };
    assert.deepEqual(checkCredentials('polymarket', creds), [], 'the shape the store accepts');
    const safe = polymarketAccountOf(creds);
    ok(safe.ok);
    assert.deepEqual([safe.account.maker, safe.account.signatureType, safe.account.api], [proxy, 2, API]);
    const deposit = polymarketAccountOf(creds, 'deposit');
    ok(deposit.ok && deposit.account.signatureType === 3);
    const magic = polymarketAccountOf(creds, 'proxy');
    ok(magic.ok && magic.account.signatureType === 1);
    assert.deepEqual(polymarketAccountOf({ api_key: '', api_secret: '' }), { ok: false, reason: 'the signer key (extra_json.signer_private_key) is missing' });
    assert.equal(polymarketAccountOf({ api_key: '', api_secret: '', extra_json: { signer_private_key: KEY, proxy_address: '0x12' } }).ok, false);
  });

  it('derived L2 credentials go back under the names the store checks', () => {
    const creds = { api_key: '', api_secret: '', extra_json: { signer_private_key: KEY } };
    const api = decodeApiKey({ apiKey: API.apiKey, secret: API.secret, passphrase: API.passphrase });
    assert.deepEqual(api, API);
    const stored = credentialsWithApiKey(creds, api!);
    assert.deepEqual(checkCredentials('polymarket', stored), []);
    assert.deepEqual(polymarketAccountOf(stored).ok && polymarketAccountOf(stored), { ok: true, account: account() });
    assert.equal(decodeApiKey({ error: 'Could not derive api key!' }), undefined);
    assert.equal(decodeApiKey({ apiKey: 'k', secret: '', passphrase: 'p' }), undefined);
  });

  it('builds the L1 key requests with the ClobAuth headers of ../signing-evm.ts', () => {
    const derive = apiKeyRequest('derive', KEY, 1_700_000_000);
    assert.deepEqual(derive, { method: 'GET', path: '/auth/derive-api-key', headers: polymarketL1Headers(KEY, POLYGON_CHAIN_ID, 1_700_000_000, 0), body: '' });
    const create = apiKeyRequest('create', KEY, 1_700_000_000, 3);
    assert.deepEqual([create.method, create.path, create.headers['POLY_NONCE'], create.headers['POLY_ADDRESS']], ['POST', '/auth/api-key', '3', HARDHAT0]);
  });
});

// ---------------------------------------------------------------------------------------------

describe('Polymarket order amounts', () => {
  // ts-sdk amounts.test.ts TICK_CASES: 12.34 at each tick size.
  const TICK_CASES: { tick: PolymarketTickSize; price: string; limitProduct: bigint; marketBuyUp: bigint }[] = [
    { tick: '0.1', price: '0.3', limitProduct: 3_702_000n, marketBuyUp: 41_134_000n },
    { tick: '0.01', price: '0.37', limitProduct: 4_565_800n, marketBuyUp: 33_351_400n },
    { tick: '0.005', price: '0.375', limitProduct: 4_627_500n, marketBuyUp: 32_906_670n },
    { tick: '0.0025', price: '0.3725', limitProduct: 4_596_650n, marketBuyUp: 33_127_517n },
    { tick: '0.001', price: '0.373', limitProduct: 4_602_820n, marketBuyUp: 33_083_110n },
    { tick: '0.0001', price: '0.3729', limitProduct: 4_601_586n, marketBuyUp: 33_091_982n },
  ];
  const micro = (decimal: string) => BigInt(Math.round(Number(decimal) * 1e6));

  it('limit amounts at every tick size equal the SDK\'s (ts-sdk TICK_CASES)', () => {
    for (const c of TICK_CASES) {
      assert.deepEqual(limitOrderAmounts('buy', 12_340_000n, micro(c.price), c.tick), { makerAmount: c.limitProduct, takerAmount: 12_340_000n }, `buy ${c.tick}`);
      assert.deepEqual(limitOrderAmounts('sell', 12_340_000n, micro(c.price), c.tick), { makerAmount: 12_340_000n, takerAmount: c.limitProduct }, `sell ${c.tick}`);
    }
    assert.deepEqual(limitOrderAmounts('buy', 12_349_000n, 370_000n, '0.01'), { makerAmount: 4_565_800n, takerAmount: 12_340_000n }, 'the size floored to 2 decimals');
  });

  it('marketable amounts round the bound in the order\'s favour (ts-sdk protected cases)', () => {
    for (const c of TICK_CASES) {
      assert.deepEqual(marketableOrderAmounts('buy', 12_340_000n, micro(c.price), c.tick), { makerAmount: 12_340_000n, takerAmount: c.marketBuyUp }, `buy ${c.tick}`);
      assert.deepEqual(marketableOrderAmounts('sell', 12_340_000n, micro(c.price), c.tick), { makerAmount: 12_340_000n, takerAmount: c.limitProduct }, `sell ${c.tick}`);
    }
    assert.deepEqual(marketableOrderAmounts('buy', 12_349_000n, 370_000n, '0.01'), { makerAmount: 12_340_000n, takerAmount: 33_351_400n });
    assert.deepEqual(marketableOrderAmounts('buy', 100_000_000n, 550_000n, '0.01'), { makerAmount: 100_000_000n, takerAmount: 181_818_200n });
    assert.deepEqual(marketableOrderAmounts('sell', 180_000_000n, 540_000n, '0.01'), { makerAmount: 180_000_000n, takerAmount: 97_200_000n });
    assert.deepEqual(marketableOrderAmounts('sell', 9_990_000n, 100_000n, '0.1'), { makerAmount: 9_990_000n, takerAmount: 999_000n });
  });

  it('knows the six tick sizes', () => {
    assert.deepEqual([100_000_000, 10_000_000, 5_000_000, 2_500_000, 1_000_000, 100_000].map(tickSizeOf), ['0.1', '0.01', '0.005', '0.0025', '0.001', '0.0001']);
    assert.equal(tickSizeOf(20_000_000), undefined);
  });

  const rules = (tick_1e9: number, over: Partial<PolymarketTokenRules> = {}): PolymarketTokenRules => ({ token_id: '1234', tick_1e9, min_size_1e8: 500_000_000, exchange: 'ctf', trading: true, ...over });

  it('turns an IOC buy into a FAK spending whole cents, never above the limit (hand-computed)', () => {
    // 7.779 shares at 0.3333 on a 0.001 tick: the limit down to 0.333, the size to 7.77; 7.77 x 0.333 = 2.58741 -> $2.58;
    // 2.58 / 0.333 = 7.747747... up to 5 decimals = 7.74775 shares, an implied 0.332995... <= 0.333.
    const got = childOrderTerms(rules(1_000_000), 'buy', 777_900_000, 333_300_000, 'ioc');
    assert.deepEqual(got, { ok: true, terms: { side: 'buy', orderType: 'FAK', price_1e9: 333_000_000, qty_1e8: 774_775_000, amounts: { makerAmount: 2_580_000n, takerAmount: 7_747_750n } } });
  });

  it('turns an IOC sell into a FAK that never sells below the limit, and a GTC into resting amounts (hand-computed)', () => {
    // 10 shares, limit 0.555 on a 0.01 tick: a sell's limit goes up to 0.56; proceeds 5.60.
    assert.deepEqual(childOrderTerms(rules(10_000_000), 'sell', 1_000_000_000, 555_000_000, 'ioc'), {
      ok: true,
      terms: { side: 'sell', orderType: 'FAK', price_1e9: 560_000_000, qty_1e8: 1_000_000_000, amounts: { makerAmount: 10_000_000n, takerAmount: 5_600_000n } },
    });
    // GTC buy 12.345 at 0.37: 12.34 x 0.37 = 4.5658 (ts-sdk's case).
    assert.deepEqual(childOrderTerms(rules(10_000_000), 'buy', 1_234_500_000, 370_000_000, 'gtc'), {
      ok: true,
      terms: { side: 'buy', orderType: 'GTC', price_1e9: 370_000_000, qty_1e8: 1_234_000_000, amounts: { makerAmount: 4_565_800n, takerAmount: 12_340_000n } },
    });
  });

  it('clamps a limit that is only tighter, and refuses what the venue would', () => {
    const buyHigh = childOrderTerms(rules(10_000_000), 'buy', 1_000_000_000, 999_500_000, 'ioc');
    ok(buyHigh.ok && buyHigh.terms.price_1e9 === 990_000_000, 'a buy above 1 - tick is bounded at 0.99');
    assert.deepEqual(childOrderTerms(rules(10_000_000), 'sell', 1_000_000_000, 995_000_000, 'ioc'), { ok: false, reason: "polymarket: limit outside the market's price range" });
    assert.deepEqual(childOrderTerms(rules(10_000_000), 'buy', 1_000_000_000, 5_000_000, 'ioc'), { ok: false, reason: "polymarket: limit outside the market's price range" });
    assert.deepEqual(childOrderTerms(rules(10_000_000), 'buy', 100_000_000, 500_000_000, 'ioc'), { ok: false, reason: 'polymarket: a marketable order must be worth at least $1' }, '1 share at 0.50');
    assert.deepEqual(childOrderTerms(rules(10_000_000), 'sell', 100_000_000, 500_000_000, 'ioc'), { ok: false, reason: 'polymarket: a marketable order must be worth at least $1' });
    assert.deepEqual(childOrderTerms(rules(10_000_000), 'buy', 400_000_000, 500_000_000, 'gtc'), { ok: false, reason: "polymarket: below the market's minimum order size (5 shares)" });
    assert.deepEqual(childOrderTerms(rules(10_000_000), 'buy', 999_999, 500_000_000, 'gtc'), { ok: false, reason: 'polymarket: below the 0.01 share size step' });
    assert.deepEqual(childOrderTerms(rules(10_000_000), 'buy', 1_000_000_000, null, 'ioc'), { ok: false, reason: 'polymarket takes priced orders only' });
    assert.deepEqual(childOrderTerms(rules(20_000_000), 'buy', 1_000_000_000, 500_000_000, 'ioc'), { ok: false, reason: 'polymarket: unknown tick size 0.02' });
    assert.deepEqual(childOrderTerms(rules(10_000_000, { trading: false }), 'buy', 1_000_000_000, 500_000_000, 'ioc'), { ok: false, reason: 'polymarket: the market is not accepting orders' });
  });

  it('never signs more than the child asked, nor a worse price than its limit (property)', () => {
    const ticks = [100_000_000, 10_000_000, 5_000_000, 2_500_000, 1_000_000, 100_000];
    fc.assert(
      fc.property(fc.constantFrom(...ticks), fc.constantFrom<'buy' | 'sell'>('buy', 'sell'), fc.constantFrom<'ioc' | 'gtc'>('ioc', 'gtc'), fc.integer({ min: 1, max: 1e12 }), fc.integer({ min: 1, max: 999_999_999 }), (tick, side, tif, qty, limit) => {
        const got = childOrderTerms(rules(tick, { min_size_1e8: 0 }), side, qty, limit, tif);
        if (!got.ok) return;
        const { amounts, price_1e9, qty_1e8 } = got.terms;
        ok(qty_1e8 <= qty && qty_1e8 > 0);
        assert.equal(price_1e9 % tick, 0);
        ok(side === 'buy' ? price_1e9 <= limit : price_1e9 >= limit);
        // The signed ratio pUSD / shares against the limit, exactly.
        const usdc = side === 'buy' ? amounts.makerAmount : amounts.takerAmount;
        const shares = side === 'buy' ? amounts.takerAmount : amounts.makerAmount;
        if (side === 'buy') ok(usdc * 1_000_000_000n <= BigInt(price_1e9) * shares, 'a buy pays at most its price');
        else ok(usdc * 1_000_000_000n >= BigInt(price_1e9) * shares, 'a sell gets at least its price');
        ok(shares * 100n <= BigInt(qty));
      }),
      { numRuns: 400 },
    );
  });
});

// ---------------------------------------------------------------------------------------------

const PARITY_TOKEN = '71321045679252212594626385532706912750332728571942532289631379312455583992563';

function parityOrder(salt: bigint, side: 0 | 1, signatureType: 0 | 1 | 2 | 3, makerAmount: bigint, takerAmount: bigint, timestamp: bigint, builder = ZERO_BYTES32): PolymarketOrderV2 {
  return { salt, maker: HARDHAT0, signer: HARDHAT0, tokenId: PARITY_TOKEN, makerAmount, takerAmount, side, signatureType, timestamp, metadata: ZERO_BYTES32, builder };
}

describe('Polymarket V2 orders: ids and signatures (py-clob-client-v2 vectors)', () => {
  // nautilus eip712.rs test_signature_matches_py_clob_client_v2, Polygon, verbatim.
  const cases: [string, PolymarketOrderV2, boolean, string, string][] = [
    ['buy standard EOA', parityOrder(123456789n, 0, 0, 100000000n, 50000000n, 1713398400000n), false, '0x32961c48ddac87ed3582f8e02097cd0eff4fcf80460306bd44b3710438dfa64c', '0x89f178136333c8ebb32a19146cb891233e3202d474be6ef730c24dbc06ae4d2a0c99948a86d9b57de0f2c0bb8ec6964aa244ecf17cfa3a95b86878d0b64ad78a1b'],
    ['sell neg-risk EOA', parityOrder(987654321n, 1, 0, 50000000n, 100000000n, 1713398400000n), true, '0x8b878404bd92dea2bfea9975c9fcd816ec70a57ae431cb20d67bb773744aaef3', '0xf7d60d64364e2615b08d9f69f3ea9afd3b4f83ecfbf05ddd3ca83f4916277fb97d2d080758d17c8e91c928aceb8ff252477ebaec051b672832500f63b4d36b061c'],
    ['buy with a builder code', parityOrder(1n, 0, 0, 100000000n, 50000000n, 1713398500000n, '0x0000000000000000000000000000000000000000000000000000000000000001'), false, '0x3df0b6f6ddfca837bc36964cae968b34ad35640b5d98f557c104da97e804e36a', '0xf4d2b34659e8bc07a9572d40ee5a1639a1157409613b4c21566b1f33fd8fe11a364b3f306668cae7248ca7cdf72378f9266bc5628585aa939644400030671e081c'],
    ['buy POLY_PROXY', parityOrder(111_111_111n, 0, 1, 100000000n, 50000000n, 1713398400000n), false, '0x8f88fe2fb3448f4b8ba639992029f0a47a01a14d15b5f2bf9833516571efd279', '0x71a63c85b730cc934688f23ea6374afffef57a61690eba63dcb97a706c8a8d0f3d2a8e0280f3e252eb83be088ebae6b461a8eda18e559e079f59050b90057afa1c'],
    ['sell neg-risk POLY_GNOSIS_SAFE', parityOrder(222_222_222n, 1, 2, 50000000n, 100000000n, 1713398400000n), true, '0xb34248702810a1d76580234a33f942a9801c3680de54cb3ef104572a8d482190', '0xab9d33aee8b578fe5588c4a4b16bbef6fa05fc757020f95b98212e877a919e360a90296f02e97ecbabf3c200271ffe88eb9fd86912e8376cd27237bdad5f3abc1c'],
  ];

  for (const [name, order, negRisk, id, signature] of cases) {
    it(`${name}: order id and signature`, () => {
      const exchange = exchangeKindOf('v1', negRisk);
      assert.equal(polymarketOrderIdV2(order, exchange), id);
      assert.equal(signPolymarketOrderV2(order, KEY, exchange), signature);
    });
  }

  it('the id is keccak256(0x1901 ‖ domain separator ‖ hashStruct): the EIP-712 digest, recoverable to the signer', () => {
    const [, order, , id, signature] = cases[0]!;
    const typeHash = Hash.keccak256(Buffer.from(ORDER_V2_TYPE_STRING, 'utf8'), { as: 'Hex' });
    assert.equal(TypedData.hashType({ primaryType: 'Order', types: { Order: ORDER_FIELDS_FOR_TEST } }), typeHash, 'the type string is the struct\'s');
    const ds = TypedData.domainSeparator({ name: 'Polymarket CTF Exchange', version: '2', chainId: 137, verifyingContract: POLYMARKET_EXCHANGES.ctf.verifyingContract });
    assert.equal(Hash.keccak256(`0x1901${ds.slice(2)}${polymarketOrderStructHashV2(order).slice(2)}`), id);
    const sig = Secp256k1.recoverAddress({ payload: id as `0x${string}`, signature: Signature.fromHex(signature as `0x${string}`) });
    assert.equal(sig.toLowerCase(), HARDHAT0.toLowerCase());
  });

  it('ExchangeV3 signs the same struct under domain version 3 at its own address (clob-client-v2 ExchangeOrderBuilderV3)', () => {
    const [, order] = cases[0]!;
    const v3 = polymarketOrderIdV2(order, 'v3');
    assert.notEqual(v3, polymarketOrderIdV2(order, 'ctf'));
    const ds = TypedData.domainSeparator({ name: 'Polymarket CTF Exchange', version: '3', chainId: 137, verifyingContract: '0xe3333700cA9d93003F00f0F71f8515005F6c00Aa' });
    assert.equal(v3, Hash.keccak256(`0x1901${ds.slice(2)}${polymarketOrderStructHashV2(order).slice(2)}`));
    assert.deepEqual([exchangeKindOf('v2', true), exchangeKindOf('v2', false), exchangeKindOf('v1', false)], ['v3', 'v3', 'ctf']);
  });

  it('deposit-wallet (POLY_1271) orders: the ERC-7739 wrapped signature (nautilus parity, Polygon)', () => {
    const order: PolymarketOrderV2 = { ...parityOrder(333_333_333n, 0, 3, 100000000n, 50000000n, 1713398400000n), maker: '0x1111111111111111111111111111111111111111', signer: '0x1111111111111111111111111111111111111111' };
    const tail =
      '71e4f84a04f726465722875696e743235362073616c742c6164647265737320' +
      '6d616b65722c61646472657373207369676e65722c75696e7432353620746f' +
      '6b656e49642c75696e74323536206d616b6572416d6f756e742c75696e7432' +
      '35362074616b6572416d6f756e742c75696e743820736964652c75696e7438' +
      '207369676e6174757265547970652c75696e743235362074696d657374616d' +
      '702c62797465733332206d657461646174612c62797465733332206275696c' +
      '6465722900ba';
    assert.equal(polymarketOrderIdV2(order, 'ctf'), '0x48cfd4c03dcee72230750e2dc5ea71048e91244c2a9fec2ed6ef790a74869596');
    assert.equal(
      signPolymarketOrderV2(order, KEY, 'ctf'),
      '0x780beffb568c4510b8a135a92ca8071f124cf368fb0e902fe451c5f51e555791' +
        '0a2a87968caa08a242de85e83c27375fc09242e897aa77680f56622a54e6e7c' +
        '61c3264e159346253e26a64e00b69032db0e7d32f94628de3e6eecb50304d' +
        '7af3d2d3db4f9eed41f0490532a9460395d96602c6534a931bde4f0e3aad5' +
        tail,
    );
    assert.equal(polymarketOrderIdV2(order, 'ctf-neg-risk'), '0x82b94b9d570fdd7b07f517ea848606a9b74029f2387fbf07d8b9c856d652e608');
    assert.equal(
      signPolymarketOrderV2(order, KEY, 'ctf-neg-risk'),
      '0xa411986b67c58113f8787ee54c41def9376d57ef4262b56438438710720604b7' +
        '00137e0175d7ae6afc40c2988179ad84b1b71a739f0974c8df3c12372f31b22c' +
        '1c9b858f53327b0bd13af8ec14cfb35234fb9eb7b0504d1a4e61f433840d3' +
        '0e81ad3db4f9eed41f0490532a9460395d96602c6534a931bde4f0e3aad5' +
        tail,
    );
    assert.throws(() => signPolymarketOrderV2({ ...order, signer: HARDHAT0 }, KEY, 'ctf'), /wallet as maker and signer/);
  });

  it('deposit-wallet signature on Amoy (py-clob-client-v2 EXPECTED_POLY_1271_SIGNATURE)', () => {
    const wallet = '0x1111111111111111111111111111111111111111';
    const order: PolymarketOrderV2 = { salt: 479249096354n, maker: wallet, signer: wallet, tokenId: '1234', makerAmount: 100000000n, takerAmount: 50000000n, side: 0, signatureType: 3, timestamp: 1710000000000n, metadata: ZERO_BYTES32, builder: ZERO_BYTES32 };
    assert.equal(
      signPolymarketOrderV2(order, KEY, { version: '2', chainId: 80002, verifyingContract: '0xE111180000d2663C0091e4f400237545B87B996B' }),
      '0xa3a093c83b6c20c83355c16ce94c92e6e9fcbdeb840618cc74f6c57a42ad145b' +
        '2b98db73d2c73cbf1f2b6af288566ae81960ddbc3a13921027358a8bff3be6ff1c' +
        'a440cbd865bc0c6243d7a8df9a8bf48a8827b0a4abbb61c30e96d305423af148' +
        'd23d42d3ad94e65d78258cecaf8dcbaddac0f73dc085040f2c12bb595dd83804' +
        '4f726465722875696e743235362073616c742c61646472657373206d616b65722c' +
        '61646472657373207369676e65722c75696e7432353620746f6b656e49642c75' +
        '696e74323536206d616b6572416d6f756e742c75696e743235362074616b6572' +
        '416d6f756e742c75696e743820736964652c75696e7438207369676e61747572' +
        '65547970652c75696e743235362074696d657374616d702c6279746573333220' +
        '6d657461646174612c62797465733332206275696c6465722900ba',
    );
  });

  it('refuses what the CLOB cannot take', () => {
    const [, order] = cases[0]!;
    assert.throws(() => polymarketOrderIdV2({ ...order, salt: MAX_SALT + 1n }, 'ctf'), /2\^53/);
    assert.throws(() => polymarketOrderIdV2({ ...order, tokenId: '0x12' }, 'ctf'), /decimal/);
    assert.throws(() => polymarketOrderIdV2({ ...order, makerAmount: 0n }, 'ctf'), /positive/);
    assert.throws(() => polymarketOrderIdV2({ ...order, maker: '0x12' }, 'ctf'), /address/);
    assert.throws(() => signPolymarketOrderV2(order, '0x1234', 'ctf'), /32 bytes/);
  });
});

/** The Order type's fields, written out again to check the type hash independently of the codec. */
const ORDER_FIELDS_FOR_TEST = [
  { name: 'salt', type: 'uint256' },
  { name: 'maker', type: 'address' },
  { name: 'signer', type: 'address' },
  { name: 'tokenId', type: 'uint256' },
  { name: 'makerAmount', type: 'uint256' },
  { name: 'takerAmount', type: 'uint256' },
  { name: 'side', type: 'uint8' },
  { name: 'signatureType', type: 'uint8' },
  { name: 'timestamp', type: 'uint256' },
  { name: 'metadata', type: 'bytes32' },
  { name: 'builder', type: 'bytes32' },
] as const;

// ---------------------------------------------------------------------------------------------

describe('Polymarket child orders: salt, id before sending, POST /order', () => {
  it('the salt is the top 53 bits of keccak256("polymarket-salt:" + child id), deterministic (hand-computed)', () => {
    const id = 'ord_0mwz4ka3500001oq-1';
    const h = Hash.keccak256(Buffer.from(`polymarket-salt:${id}`, 'utf8'), { as: 'Hex' });
    assert.equal(childOrderSalt(id), BigInt(h) >> 203n);
    ok(childOrderSalt(id) <= MAX_SALT);
  });

  it('different children get different salts (property: 53 bits, no collision among these)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(fc.stringMatching(/^[0-9a-z]{13}$/), fc.stringMatching(/^[0-9A-Za-z]{3}$/), fc.nat(65535)), { minLength: 2, maxLength: 200, selector: (t) => t.join('|') }), (ids) => {
        const salts = new Set(ids.map(([t, s, n]) => childOrderSalt(`ord_${t}${s}-${n}`)));
        assert.equal(salts.size, ids.length);
      }),
      { numRuns: 50 },
    );
  });

  const rules: PolymarketTokenRules = { token_id: catalogTokenId(PARITY_TOKEN)!, tick_1e9: 10_000_000, min_size_1e8: 500_000_000, exchange: 'ctf', trading: true };

  it('knows the order id before sending, and the answer\'s orderID is that id', () => {
    const terms = childOrderTerms(rules, 'buy', 1_000_000_000, 550_000_000, 'ioc');
    ok(terms.ok);
    const signed = signedChildOrder(account(), rules, 'ord_0mwz4ka3500001oq-1', terms.terms, 1_713_398_400_000);
    assert.equal(signed.orderId, polymarketOrderIdV2(signed.order, 'ctf'));
    assert.equal(signed.order.tokenId, PARITY_TOKEN, 'the venue spelling');
    // The POST /order answer as the docs print it, carrying the id (not from the docs: the id value).
    const ack = decodePostOrder(200, { success: true, orderID: signed.orderId, status: 'matched', makingAmount: '5.5', takingAmount: '10', errorMsg: '', tradeIDs: ['t1'] });
    assert.deepEqual(ack, { kind: 'accepted', orderId: signed.orderId, status: 'matched', tradeIds: ['t1'], making: '5.5', taking: '10' });
    // The same child again is the same order: resending cannot make a second one.
    assert.equal(signedChildOrder(account(), rules, 'ord_0mwz4ka3500001oq-1', terms.terms, 1_713_398_400_000).orderId, signed.orderId);
    assert.notEqual(signedChildOrder(account(), rules, 'ord_0mwz4ka3500001oq-2', terms.terms, 1_713_398_400_000).orderId, signed.orderId);
  });

  it('writes the POST /order body as the SDKs do (docs\' example fields; salt a JSON number)', () => {
    const order = childOrderV2(account(), rules.token_id, 'ord_0mwz4ka3500001oq-1', { side: 'sell', orderType: 'GTC', price_1e9: 500_000_000, qty_1e8: 1_000_000_000, amounts: { makerAmount: 10_000_000n, takerAmount: 5_000_000n } }, 1_713_398_400_000);
    const body = postOrderBody(order, '0xsig', API.apiKey, 'GTC');
    assert.equal(
      body,
      `{"deferExec":false,"order":{"salt":${order.salt},"maker":"${HARDHAT0}","signer":"${HARDHAT0}","tokenId":"${PARITY_TOKEN}","makerAmount":"10000000","takerAmount":"5000000","side":"SELL","signatureType":0,"timestamp":"1713398400000","expiration":"0","metadata":"${ZERO_BYTES32}","builder":"${ZERO_BYTES32}","signature":"0xsig"},"owner":"${API.apiKey}","orderType":"GTC"}`,
    );
    // The docs' example (post-a-new-order) names the same order fields.
    const docs = ['maker', 'signer', 'tokenId', 'makerAmount', 'takerAmount', 'side', 'expiration', 'timestamp', 'metadata', 'builder', 'signature', 'salt', 'signatureType'];
    assert.deepEqual(Object.keys((JSON.parse(body) as { order: object }).order).sort(), [...docs].sort());
  });

  it('a deposit-wallet account signs with the wallet as maker and signer; the key stays POLY_ADDRESS', () => {
    const wallet = '0x1111111111111111111111111111111111111111';
    const acct = account({ maker: wallet, signatureType: 3 });
    const terms = childOrderTerms(rules, 'buy', 1_000_000_000, 550_000_000, 'gtc');
    ok(terms.ok);
    const signed = signedChildOrder(acct, rules, 'ord_0mwz4ka3500001oq-1', terms.terms, 1_713_398_400_000);
    assert.deepEqual([signed.order.maker, signed.order.signer, signed.order.signatureType], [wallet, wallet, 3]);
    assert.equal(l2Request(acct, 'POST', '/order', 1, { body: signed.body }).headers['POLY_ADDRESS'], HARDHAT0);
  });

  it('signs L2 requests over the path without its query, and the exact body', () => {
    const req = l2Request(account(), 'GET', '/data/trades', 1_713_398_400, { query: tradesQuery(HARDHAT0, { asset_id: catalogTokenId(PARITY_TOKEN)!, after_s: 1_713_398_000 }) });
    assert.equal(req.path, `/data/trades?maker_address=${HARDHAT0}&asset_id=${PARITY_TOKEN}&after=1713398000&next_cursor=MA%3D%3D`);
    assert.deepEqual(req.headers, polymarketL2Headers(HARDHAT0, API, 1_713_398_400, 'GET', '/data/trades', ''));
    const del = l2Request(account(), 'DELETE', '/order', 1_713_398_400, { body: cancelOrderBody('0xabc') });
    assert.equal(del.body, '{"orderID":"0xabc"}');
    assert.deepEqual(del.headers, polymarketL2Headers(HARDHAT0, API, 1_713_398_400, 'DELETE', '/order', '{"orderID":"0xabc"}'));
    assert.throws(() => l2Request(account({ api: null }), 'GET', '/data/orders', 1), /L2 credentials/);
    assert.equal(cancelMarketOrdersBody({ asset_id: catalogTokenId(PARITY_TOKEN)! }), `{"asset_id":"${PARITY_TOKEN}"}`);
  });
});

// ---------------------------------------------------------------------------------------------

describe('Polymarket answers and errors', () => {
  it('reads the docs\' POST /order answer verbatim', () => {
    assert.deepEqual(decodePostOrder(200, { success: true, orderID: '0xabcdef1234567890abcdef1234567890abcdef12', status: 'live', makingAmount: '100000000', takingAmount: '200000000', errorMsg: '' }), {
      kind: 'accepted',
      orderId: '0xabcdef1234567890abcdef1234567890abcdef12',
      status: 'live',
      tradeIds: [],
      making: '100000000',
      taking: '200000000',
    });
  });

  it('a FAK or FOK that matched nothing is no fill, not a refusal (ts-sdk order-response.ts strings)', () => {
    const fak = decodePostOrder(400, { error: 'no orders found to match with FAK order. FAK orders are partially filled or killed if no match is found.' });
    assert.equal(fak.kind, 'no-fill');
    assert.deepEqual(settledReportOf(fak), { ok: true, reason: null, fills: [], resting_qty_1e8: 0 });
    assert.equal(decodePostOrder(200, { success: false, errorMsg: "order couldn't be fully filled. FOK orders are fully filled or killed.", orderID: '', status: '' }).kind, 'no-fill');
  });

  it('refusals, unknown fates and their kinds (docs error-codes, ts-sdk, nautilus fixtures)', () => {
    const funds = decodePostOrder(400, { error: 'not enough balance / allowance' });
    ok(funds.kind === 'refused' && funds.error.kind === 'funds');
    assert.deepEqual(settledReportOf(funds), { ok: false, reason: 'polymarket 400: not enough balance / allowance', fills: [], resting_qty_1e8: 0 });
    const cross = decodePostOrder(200, { success: false, errorMsg: 'invalid post-only order: order crosses book', orderID: '', status: '' });
    ok(cross.kind === 'refused' && cross.error.kind === 'refused');
    assert.equal(decodePostOrder(500, { error: 'Internal server error' }).kind, 'fate-unknown', 'nautilus http_order_response_error_500.json');
    assert.equal(decodePostOrder(502, '<html>bad gateway</html>').kind, 'fate-unknown');
    assert.equal(decodePostOrder(200, undefined).kind, 'fate-unknown');
    assert.equal(decodePostOrder(200, { success: true, orderID: '0x1', status: 'unmatched', errorMsg: '' }).kind, 'fate-unknown');
    assert.equal(settledReportOf({ kind: 'fate-unknown', reason: 'x' }), undefined);
    const failed = decodePostOrder(200, { success: false, orderID: null, errorMsg: 'Insufficient balance' }); // nautilus http_order_response_failed.json
    ok(failed.kind === 'refused' && failed.error.kind === 'funds');
  });

  it('classifies the documented messages and statuses', () => {
    const cases: [number, unknown, string][] = [
      [401, { error: 'Unauthorized/Invalid api key' }, 'auth'],
      [401, { error: 'Invalid L1 Request headers' }, 'auth'],
      [503, { error: 'Trading is currently disabled. Check polymarket.com for updates' }, 'halted'],
      [503, { error: 'Trading is currently cancel-only. New orders are not accepted, but cancels are allowed.' }, 'halted'],
      [429, { error: 'Too Many Requests' }, 'rate-limit'],
      [429, 'rate limited', 'rate-limit'],
      [400, { error: 'order_version_mismatch' }, 'version'],
      [400, { error: 'maker address not allowed, please use the deposit wallet flow' }, 'auth'],
      [400, { error: 'the order signer address has to be the address of the API KEY' }, 'auth'],
      [400, { error: 'invalid amounts, the market buy orders maker amount supports a max accuracy of 2 decimals' }, 'refused'],
      [404, { error: 'No orderbook exists for the requested token id' }, 'refused'],
      [500, { error: 'boom' }, 'fate-unknown'],
    ];
    for (const [status, body, kind] of cases) assert.equal(polymarketError(status, body)?.kind, kind, JSON.stringify(body));
    assert.equal(polymarketError(200, { success: true }), undefined);
    assert.equal(errorKindOf('already canceled or matched'), 'unknown-order');
  });

  it('heartbeats chain their ids; a stale id is answered with the expected one (ts-sdk order-heartbeats)', () => {
    assert.equal(heartbeatBody(''), '{"heartbeat_id":""}');
    assert.deepEqual(decodeHeartbeat({ heartbeat_id: 'hb-2' }), { ok: true, heartbeatId: 'hb-2' });
    assert.deepEqual(decodeHeartbeat({ error_msg: 'Invalid Heartbeat ID', heartbeat_id: 'hb-1' }), { ok: false, expected: 'hb-1' });
    assert.equal(decodeHeartbeat({ status: 'ok' }), undefined, 'the legacy /heartbeats answer carries no id');
  });

  it('reads the version, tick size and neg-risk answers', () => {
    assert.equal(decodeVersion({ version: 3 }), 3);
    assert.equal(decodeVersion({}), 2, 'clob-client-v2 defaults to 2');
    assert.equal(decodeTickSize({ minimum_tick_size: 0.01 }), 10_000_000);
    assert.equal(decodeTickSize({ minimum_tick_size: 0.02 }), undefined);
    assert.equal(decodeNegRisk({ neg_risk: true }), true);
    assert.deepEqual([clobMarketPath('0xc'), clobMarketPath('0xc', true), tokenQueryPath('/tick-size', catalogTokenId('42')!)], ['/markets/0xc', '/clob-markets/0xc', '/tick-size?token_id=42']);
  });
});

// ---------------------------------------------------------------------------------------------

describe('Polymarket orders, trades, fills and fees', () => {
  // nautilus test_data/http_open_order.json (the adapter's fixture in the venue's shape).
  const openOrder = {
    associate_trades: ['0xabc001'],
    id: '0x1234567890abcdef1234567890abcdef1234567890abcdef1234567890abcdef12',
    status: 'LIVE',
    market: '0xdd22472e552920b8438158ea7238bfadfa4f736aa4cee91a6b86c39ead110917',
    original_size: '100.0000',
    outcome: 'Yes',
    maker_address: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
    owner: '00000000-0000-0000-0000-000000000001',
    price: '0.5000',
    side: 'BUY',
    size_matched: '25.0000',
    asset_id: PARITY_TOKEN,
    expiration: null,
    order_type: 'GTC',
    created_at: 1703875200,
  };

  it('reads an order: what rests is original - matched while LIVE; an empty answer is not found', () => {
    const got = decodeOrder(openOrder);
    ok(got?.found === true);
    assert.deepEqual(got.order, {
      id: openOrder.id,
      status: 'LIVE',
      asset_id: PARITY_TOKEN,
      market: openOrder.market,
      side: 'buy',
      original_1e8: 10_000_000_000,
      matched_1e8: 2_500_000_000,
      price_1e9: 500_000_000,
      resting_1e8: 7_500_000_000,
      trade_ids: ['0xabc001'],
      order_type: 'GTC',
      created_ms: 1_703_875_200_000,
    });
    assert.deepEqual(legReportOf(got.order, []), { ok: true, reason: null, fills: [], resting_qty_1e8: 7_500_000_000 });
    assert.deepEqual(decodeOrder(null), { found: false });
    assert.deepEqual(decodeOrder({}), { found: false });
    assert.deepEqual(decodeOrder(''), { found: false });
    const matched = decodeOrder({ ...openOrder, status: 'MATCHED', size_matched: '100' });
    ok(matched?.found && matched.order.resting_1e8 === 0);
    assert.equal(decodeOrder({ id: 'x' }), undefined);
  });

  it('pages open orders and recognises ours by the order ids journaled when sent', () => {
    const page = decodeOpenOrders({ data: [openOrder, { ...openOrder, id: '0xBEEF', associate_trades: null, side: 'SELL', status: 'LIVE' }], next_cursor: 'LTE=' });
    ok(page !== undefined);
    assert.equal(page.next_cursor, 'LTE=');
    assert.deepEqual(page.orders[1]!.trade_ids, []);
    const journal = new Map([['ord_0mwz4ka3500001oq-1', '0xbeef'], ['ord_0mwz4ka3500001oq-2', '0xdead']]);
    assert.deepEqual(ownOpenOrdersOf(page.orders, journal).map((o) => o.child_id), ['ord_0mwz4ka3500001oq-1']);
    assert.equal(decodeOpenOrders({ data: [{ id: 1 }] }), undefined);
  });

  // nautilus test_data/http_trade_report.json (fixture in the venue's shape).
  const tradeRow = {
    id: 'trade-0xabcdef1234',
    taker_order_id: '0x1234567890abcdef1234567890abcdef1234567890abcdef1234567890abcdef12',
    market: '0xdd22472e552920b8438158ea7238bfadfa4f736aa4cee91a6b86c39ead110917',
    asset_id: PARITY_TOKEN,
    side: 'BUY',
    size: '25.0000',
    fee_rate_bps: '0',
    price: '0.5000',
    status: 'CONFIRMED',
    match_time: '2024-01-01T00:00:00Z',
    last_update: '2024-01-01T00:01:00Z',
    outcome: 'Yes',
    bucket_index: 0,
    owner: '00000000-0000-0000-0000-000000000001',
    maker_address: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
    transaction_hash: '0xabcdef1234567890abcdef1234567890abcdef1234567890abcdef1234567890ab',
    maker_orders: [
      { asset_id: PARITY_TOKEN, fee_rate_bps: '0', maker_address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', matched_amount: '25.0000', order_id: '0xmaker01', outcome: 'Yes', owner: '00000000-0000-0000-0000-000000000002', price: '0.5000', side: 'SELL' },
      { asset_id: PARITY_TOKEN, fee_rate_bps: '10', maker_address: '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc', matched_amount: '5.0000', order_id: '0xmaker02', outcome: 'Yes', owner: '00000000-0000-0000-0000-000000000003', price: '0.4900', side: 'SELL' },
    ],
    trader_side: 'TAKER',
  };
  const fee = { rate: '0.03', exponent: 1, taker_only: true };
  const t0 = Date.parse('2024-01-01T00:00:00Z') * 1_000_000;

  it('finds an order\'s fills as taker (with the taker fee) and as maker (no fee)', () => {
    const page = decodeTrades({ data: [tradeRow], next_cursor: 'LTE=' });
    ok(page !== undefined);
    // 25 x 0.03 x 0.5 x 0.5 = 0.1875 pUSD.
    assert.deepEqual(fillsOfOrder(page.trades, tradeRow.taker_order_id.toUpperCase().replace('0X', '0x'), fee), {
      fills: [{ price_1e9: 500_000_000, qty_1e8: 2_500_000_000, trade_id: 'trade-0xabcdef1234', ts_ns: t0, fee_1e9: 187_500_000, is_maker: false }],
      unsettled: [],
      failed: [],
    });
    assert.deepEqual(fillsOfOrder(page.trades, '0xmaker02', fee).fills, [{ price_1e9: 490_000_000, qty_1e8: 500_000_000, trade_id: 'trade-0xabcdef1234', ts_ns: t0, fee_1e9: 0, is_maker: true }]);
    assert.deepEqual(fillsOfOrder(page.trades, '0xother', fee).fills, []);
  });

  it('counts every status but FAILED as a fill, and says which are not settled yet', () => {
    const rows = ['MATCHED', 'MINED', 'RETRYING', 'FAILED', 'CONFIRMED'].map((status, i) => ({ ...tradeRow, id: `t${i}`, status, match_time: String(1_704_067_200 + i) }));
    const got = fillsOfOrder(decodeTrades(rows)!.trades, tradeRow.taker_order_id, null);
    assert.deepEqual(got.fills.map((f) => [f.trade_id, f.ts_ns, f.fee_1e9]), [['t0', t0, 0], ['t1', t0 + 1e9, 0], ['t2', t0 + 2e9, 0], ['t4', t0 + 4e9, 0]]);
    assert.deepEqual(got.unsettled, ['t0', 't1', 't2']);
    assert.deepEqual(got.failed, ['t3']);
  });

  it('takes match_time_nano when given, and refuses unreadable rows', () => {
    const got = decodeTrades([{ ...tradeRow, match_time_nano: '1704067200123456789' }]);
    assert.equal(got?.trades[0]!.match_ns, 1_704_067_200_123_456_000);
    assert.equal(decodeTrades([{ ...tradeRow, size: 'x' }]), undefined);
  });

  it('computes the taker fee C x rate x (p(1-p))^e, floored to 1e-5 pUSD (hand-computed)', () => {
    const crypto = { rate: '0.072', exponent: 1, taker_only: true };
    assert.equal(polymarketTakerFee1e9(10_000_000_000, 500_000_000, crypto), 1_800_000_000, '100 x 0.072 x 0.25 = 1.8');
    assert.equal(polymarketTakerFee1e9(1_000_000_000, 10_000_000, fee), 2_970_000, '10 x 0.03 x 0.0099 = 0.00297');
    assert.equal(polymarketTakerFee1e9(100_000_000, 333_000_000, { rate: '0.05', exponent: 1, taker_only: true }), 11_100_000, '0.05 x 0.333 x 0.667 = 0.01110555 -> 0.01110');
    assert.equal(polymarketTakerFee1e9(1_000_000, 500_000_000, fee), 70_000, '0.01 x 0.03 x 0.25 = 0.000075 -> 0.00007');
    assert.equal(polymarketTakerFee1e9(1_000_000, 999_000_000, fee), 0, 'below 0.00001: nothing');
    assert.equal(polymarketTakerFee1e9(10_000_000_000, 500_000_000, { rate: '0.25', exponent: 2, taker_only: true }), 1_562_500_000, '100 x 0.25 x 0.0625');
    assert.equal(polymarketTakerFee1e9(10_000_000_000, 0, crypto), 0);
    assert.throws(() => polymarketTakerFee1e9(1, 2e9, fee), RangeError);
    assert.throws(() => polymarketTakerFee1e9(1, 1, { rate: '0.1', exponent: 0, taker_only: true }), RangeError);
  });

  it('reads cancel answers (nautilus http_cancel_response_*.json fixtures)', () => {
    const id = '0xb816482a1234567890abcdef1234567890abcdef1234567890abcdef12345678';
    assert.equal(cancelOutcome({ canceled: [id], not_canceled: {} }, id), 'cancelled');
    assert.equal(cancelOutcome({ canceled: [], not_canceled: { [id]: 'already canceled or matched' } }, id), 'not-found');
    assert.equal(cancelOutcome({ canceled: [], not_canceled: { [id]: 'order not found' } }, id.toUpperCase().replace('0X', '0x')), 'not-found');
    assert.deepEqual(cancelOutcome({ canceled: [], not_canceled: { [id]: 'market is closed' } }, id), { refused: 'polymarket: market is closed' });
    assert.equal(cancelOutcome({ canceled: [], not_canceled: {} }, id), 'not-found');
    assert.equal(cancelOutcome({ error: 'x' }, id), undefined);
  });

  it('reads balances in base units (nautilus http_balance_allowance_collateral.json) and builds their queries', () => {
    const got = decodeBalanceAllowance({ balance: '1000000000', allowance: '999999999000000' });
    ok(got !== undefined);
    assert.equal(got.balance_base, 1_000_000_000n);
    assert.deepEqual(assetBalanceOf('USDC', got.balance_base), { asset: 'USDC', free_1e8: 100_000_000_000n, locked_1e8: 0n }, '1000 pUSD');
    assert.equal(decodeBalanceAllowance({ balance: '1.5' }), undefined, 'not base units');
    assert.deepEqual(balanceAllowanceQuery(account(), { collateral: true }), { asset_type: 'COLLATERAL', signature_type: 0 });
    assert.deepEqual(balanceAllowanceQuery(account({ signatureType: 2 }), { token_id: catalogTokenId(PARITY_TOKEN)!, exchange: 'v3' }), { asset_type: 'CONDITIONAL-V2', token_id: PARITY_TOKEN, signature_type: 2 });
    assert.deepEqual(accountProbeOf({ closed_only: true }, { maker_bps: 0, taker_bps: 0 }), { tier: 'base', maker_bps: 0, taker_bps: 0, can_trade: false, can_withdraw: true });
  });
});

// ---------------------------------------------------------------------------------------------

describe('Polymarket catalog', () => {
  // nautilus test_data/gamma_event.json (captured from gamma-api.polymarket.com), trimmed to the fields read.
  const gammaEvent = [
    {
      id: '30829',
      ticker: 'democratic-presidential-nominee-2028',
      slug: 'democratic-presidential-nominee-2028',
      title: 'Democratic Presidential Nominee 2028',
      negRisk: true,
      enableNegRisk: true,
      description: 'This market will resolve to “Yes” if the named individual wi',
      tags: [{ id: '101206', label: 'World Elections', slug: 'world-elections' }, { id: '1597', label: 'Global Elections', slug: 'global-elections' }],
      markets: [
        {
          id: '559657',
          question: 'Will Stephen A. Smith win the 2028 Democratic presidential nomination?',
          conditionId: '0xc8f1cf5d4f26e0fd9c8fe89f2a7b3263b902cf14fde7bfccef525753bb492e47',
          slug: 'will-stephen-a-smith-win-the-2028-democratic-presidential-nomination-914',
          endDate: '2028-11-07T00:00:00Z',
          startDate: '2025-07-11T18:36:02.893Z',
          description: 'This market will resolve to “Yes” if the named individual wi',
          outcomes: '["Yes", "No"]',
          outcomePrices: '["0.0105", "0.9895"]',
          active: true,
          closed: false,
          groupItemTitle: 'Stephen A. Smith',
          enableOrderBook: true,
          orderPriceMinTickSize: 0.001,
          orderMinSize: 5,
          clobTokenIds: '["60590045489347122735554346200880179420435533609307820342798544098823516727807", "76005700027045000587004110133818166617024719626220722682005164003117993034812"]',
          acceptingOrders: true,
          acceptingOrdersTimestamp: '2025-07-11T18:35:40Z',
          negRisk: true,
          umaResolutionStatuses: '[]',
          feesEnabled: false,
          feeType: null,
          rewardsMinSize: 20,
          rewardsMaxSpread: 3.5,
          createdAt: '2025-07-03T20:37:02.834964Z',
        },
        {
          id: '559659',
          question: 'Will Gretchen Whitmer win the 2028 Democratic presidential nomination?',
          conditionId: '0xe39adea057926dc197fe30a441f57a340b2a232d5a687010f78bba9b6e02620f',
          slug: 'will-gretchen-whitmer-win-the-2028-democratic-presidential-nomination-676',
          endDate: '2028-11-07T00:00:00Z',
          startDate: '2025-07-11T18:36:05.047Z',
          description: 'This market will resolve to “Yes” if the named individual wi',
          outcomes: '["Yes", "No"]',
          outcomePrices: '["0.0145", "0.9855"]',
          active: true,
          closed: false,
          groupItemTitle: 'Gretchen Whitmer',
          enableOrderBook: true,
          orderPriceMinTickSize: 0.001,
          orderMinSize: 5,
          clobTokenIds: '["57761428076807364758801249497410455358987881775226117256631754592198558850468", "64300336035644500626313522990854070672468621241744347587785777226296613235598"]',
          acceptingOrders: true,
          acceptingOrdersTimestamp: '2025-07-11T18:35:42Z',
          negRisk: true,
          umaResolutionStatuses: '[]',
          feesEnabled: false,
          feeType: null,
          clobRewards: [{ id: '88827', conditionId: '0xe39adea057926dc197fe30a441f57a340b2a232d5a687010f78bba9b6e02620f', assetAddress: '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174', rewardsAmount: 0, rewardsDailyRate: 0.001, startDate: '2026-02-27', endDate: '2500-12-31' }],
          rewardsMinSize: 20,
          rewardsMaxSpread: 3.5,
          createdAt: '2025-07-03T20:37:04.461062Z',
        },
      ],
    },
  ];

  it('reads a multi-outcome neg-risk event into catalog records (captured Gamma answer)', () => {
    const got = decodeGammaEvents(gammaEvent);
    ok(got !== undefined);
    assert.deepEqual(got.skipped, []);
    const rec = got.events[0]!;
    const { markets, ...event } = rec.event;
    assert.deepEqual(event, {
      venue: 'polymarket',
      event_id: '30829',
      slug: 'democratic-presidential-nominee-2028',
      title: 'Democratic Presidential Nominee 2028',
      description: 'This market will resolve to “Yes” if the named individual wi',
      tags: ['World Elections', 'Global Elections'],
      multi: true,
      neg_risk: true,
      url: 'https://polymarket.com/event/democratic-presidential-nominee-2028',
    });
    const close = Date.parse('2028-11-07T00:00:00Z');
    assert.deepEqual(markets[0], {
      venue: 'polymarket',
      market_id: 'will-stephen-a-smith-win-the-2028-democratic-presidential-nomination-914',
      event_id: '30829',
      event_slug: 'democratic-presidential-nominee-2028',
      question: 'Will Stephen A. Smith win the 2028 Democratic presidential nomination?',
      description: 'This market will resolve to “Yes” if the named individual wi',
      yes_token_id: '060590045489347122735554346200880179420435533609307820342798544098823516727807',
      no_token_id: '076005700027045000587004110133818166617024719626220722682005164003117993034812',
      condition_id: '0xc8f1cf5d4f26e0fd9c8fe89f2a7b3263b902cf14fde7bfccef525753bb492e47',
      outcome_index: 0,
      raw_outcome_name: 'Stephen A. Smith',
      is_placeholder: false,
      timeline: { listed_ms: Date.parse('2025-07-11T18:36:02.893Z'), open_ms: Date.parse('2025-07-11T18:36:02.893Z'), close_ms: close, determined_ms: UNKNOWN_INSTANT_MS, settled_ms: null },
      fee_rate_bps: 0,
      updown: null,
      equivalents: [],
      rewards: null,
    });
    assert.deepEqual(markets[1]!.rewards, { min_size: 20, max_spread_1e9: 35_000_000, rate_per_day_usdc_1e9: 1_000_000, end_ms: close }, 'rewards 0.001/day, 3.5 cents, ending at the close');
    assert.equal(markets[1]!.outcome_index, 1);
    assert.equal(phaseAt(markets[0]!.timeline, Date.parse('2026-07-01T00:00:00Z')), 'open');
    assert.equal(phaseAt(markets[0]!.timeline, close + 1), 'closed', 'not determined before the outcome is known');
    assert.deepEqual([rec.yes_won, rec.resolved_ms, rec.anchor_usd, rec.final_usd], [[null, null], [null, null], null, null]);
    assert.deepEqual(rec.tokens[0], {
      token_id: '60590045489347122735554346200880179420435533609307820342798544098823516727807',
      catalog_id: '060590045489347122735554346200880179420435533609307820342798544098823516727807',
      market_id: 'will-stephen-a-smith-win-the-2028-democratic-presidential-nomination-914',
      condition_id: '0xc8f1cf5d4f26e0fd9c8fe89f2a7b3263b902cf14fde7bfccef525753bb492e47',
      leg: 'YES',
      outcome: 'Yes',
      tick_1e9: 1_000_000,
      min_size_1e8: 500_000_000,
      exchange: 'ctf-neg-risk',
      neg_risk: true,
      trading: true,
      fee: null,
    });
    assert.deepEqual(rec.tokens.map((t) => t.leg), ['YES', 'NO', 'YES', 'NO']);
  });

  it('reads an up/down market with its anchor, and a resolved one with its winner (captured Gamma answers)', () => {
    // gamma_market.json (BTC up/down 5 minutes), and the same event with Gamma's eventMetadata (not from the capture: the anchor value).
    const updown = {
      id: '1557558',
      question: 'Bitcoin Up or Down - March 12, 5:20AM-5:25AM ET',
      conditionId: '0x78443f961b9a65869dcb39359de9960165c7e5cbad0904eac7f29cd77872a63b',
      slug: 'btc-updown-5m-1773307200',
      endDate: '2026-03-12T09:25:00Z',
      startDate: '2026-03-11T09:29:01.328428Z',
      outcomes: '["Up", "Down"]',
      outcomePrices: '["0.505", "0.495"]',
      active: true,
      closed: false,
      enableOrderBook: true,
      orderPriceMinTickSize: 0.01,
      orderMinSize: 5,
      clobTokenIds: '["104239898038807136052399800151408521467737075933964991162589336683346093173875", "71183960810705820955071415844881728181970340514894896943812046065452395013351"]',
      acceptingOrders: true,
      acceptingOrdersTimestamp: '2026-03-11T09:27:55Z',
      negRisk: false,
      feesEnabled: true,
      feeType: 'crypto_fees',
      events: [{ id: '260654', slug: 'btc-updown-5m-1773307200', title: 'Bitcoin Up or Down - March 12, 5:20AM-5:25AM ET', negRisk: false }],
    };
    const markets = decodeGammaMarkets([updown]);
    ok(markets !== undefined);
    const m = markets.markets[0]!;
    assert.deepEqual([m.market.updown, m.market.event_id, m.market.no_token_id, m.tokens[1]!.token_id, m.tokens[0]!.exchange, m.market.fee_rate_bps], [
      { underlying: 'BTC' },
      '260654',
      '071183960810705820955071415844881728181970340514894896943812046065452395013351',
      '71183960810705820955071415844881728181970340514894896943812046065452395013351',
      'ctf',
      0,
    ]);
    const asEvent = decodeGammaEvents([{ id: '260654', slug: 'btc-updown-5m-1773307200', title: updown.question, eventMetadata: { priceToBeat: 69123.45 }, markets: [updown] }]);
    assert.deepEqual([asEvent?.events[0]!.anchor_usd, asEvent?.events[0]!.final_usd], [69123.45, null]);

    // gamma_market_sports_market_money_line.json: resolved, first outcome won, a fee schedule.
    const sports = {
      id: '1878152',
      question: 'Counter-Strike: FaZe vs illwill (BO3) - HLC Belgrade Pro Playoffs',
      conditionId: '0x202abb9a80673068ec5ce9294d60e31eeaf3ab5c82fb21fb0c9142e5d0cab385',
      slug: 'cs2-faze-ill-2026-04-05',
      endDate: '2026-04-05T21:10:00Z',
      startDate: '2026-04-05T14:02:57.37498Z',
      outcomes: '["FaZe", "illwill"]',
      outcomePrices: '["1", "0"]',
      closed: true,
      enableOrderBook: true,
      orderPriceMinTickSize: 0.001,
      orderMinSize: 5,
      clobTokenIds: '["89972346417086440659189114668296975440208562769200022591480064439842896371398", "90510951248295963583566830308208121966213462932425555585207203442852394431867"]',
      acceptingOrders: false,
      acceptingOrdersTimestamp: '2026-04-05T14:01:51Z',
      negRisk: false,
      feesEnabled: true,
      feeType: 'sports_fees_v2',
      feeSchedule: { exponent: 1, rate: 0.03, rebateRate: 0.25, takerOnly: true },
      umaResolutionStatus: 'resolved',
      closedTime: '2026-04-05 19:37:33+00',
      events: [{ id: '346898', slug: 'cs2-faze-ill-2026-04-05', negRisk: false }],
    };
    // gamma_market_closed_binary_accepting_false.json: resolved NO.
    const katana = {
      id: '1460332',
      question: 'Katana FDV above $1B one day after launch?',
      conditionId: '0x8ccc3f4951ff02c1d34b87988752b4444ad17228732780a6cf22afefe8478bb6',
      slug: 'katana-fdv-above-1b-one-day-after-launch-395-996',
      endDate: '2028-01-01T05:00:00Z',
      startDate: '2026-02-27T23:34:28.752Z',
      outcomes: '["Yes", "No"]',
      outcomePrices: '["0", "1"]',
      closed: true,
      orderPriceMinTickSize: 0.001,
      orderMinSize: 5,
      clobTokenIds: '["108872296183993054938831082799825620165440189659433018108548854929333464287226", "89711174926330519158043401581181146613785179104141808554061413232025882707365"]',
      acceptingOrders: false,
      negRisk: false,
      feesEnabled: false,
      umaResolutionStatus: 'resolved',
      closedTime: '2026-03-19 23:20:15+00',
    };
    const resolved = decodeGammaMarkets([sports, katana, { ...katana, slug: 'proposed-only', umaResolutionStatus: 'proposed' }]);
    ok(resolved !== undefined);
    const [s, k, p] = resolved.markets;
    const closedAt = Date.parse('2026-04-05T19:37:33Z');
    assert.deepEqual([s!.yes_won, s!.resolved_ms, s!.market.timeline.close_ms, s!.market.timeline.determined_ms, s!.market.fee_rate_bps, s!.tokens[0]!.fee, s!.tokens[0]!.trading], [
      true,
      closedAt,
      closedAt,
      closedAt,
      300,
      { rate: '0.03', exponent: 1, taker_only: true },
      false,
    ]);
    assert.equal(phaseAt(s!.market.timeline, closedAt), 'determined');
    assert.deepEqual([k!.yes_won, k!.resolved_ms], [false, Date.parse('2026-03-19T23:20:15Z')]);
    assert.equal(p!.yes_won, null, 'resolved only once UMA says resolved');
  });

  it('Protocol V2 markets trade their positionIds on ExchangeV3 (api-integrations: "Choose the ID field by version")', () => {
    const position = ((1n << 248n) + 7n * 256n).toString(); // a binary-module position id, 75 digits (not from the docs)
    const v2 = decodeGammaMarkets([{ slug: 'v2-market', conditionId: '0x01', version: 'v2', outcomes: '["Yes", "No"]', positionIds: [position, (BigInt(position) + 1n).toString()], clobTokenIds: '["1", "2"]', orderPriceMinTickSize: 0.01, orderMinSize: 5 }]);
    const tok = v2!.markets[0]!.tokens[0]!;
    assert.deepEqual([tok.token_id, tok.catalog_id.length, tok.exchange], [position, 78, 'v3']);
  });

  it('leaves out what cannot be listed, with a reason', () => {
    const got = decodeGammaEvents([
      { id: '1', slug: 'e', markets: [{ slug: 'multi', conditionId: '0x1', outcomes: '["A","B","C"]', clobTokenIds: '["1","2","3"]', orderPriceMinTickSize: 0.01 }] },
      { id: '2', slug: 'f', markets: [{ slug: 'odd-tick', conditionId: '0x2', outcomes: '["Yes","No"]', clobTokenIds: '["1","2"]', orderPriceMinTickSize: 0.02 }] },
      { slug: 'no-id' },
    ]);
    assert.deepEqual(got, { events: [], skipped: ['multi: not a binary market', 'odd-tick: unknown tick size', 'an event without id or slug'] });
    assert.equal(decodeGammaEvents({}), undefined);
  });

  it('fingerprints what the change log publishes, so a resolution bumps the record', () => {
    const a = decodeGammaEvents(gammaEvent)!.events[0]!;
    const b = { ...a, yes_won: [false, null] };
    assert.equal(listingFingerprint(a), listingFingerprint(decodeGammaEvents(gammaEvent)!.events[0]!));
    assert.notEqual(listingFingerprint(a), listingFingerprint(b));
  });

  it('builds the Gamma paths', () => {
    assert.equal(gammaEventsPath(100, 200), '/events?active=true&closed=false&limit=100&offset=200');
    assert.equal(gammaMarketsByConditionPath(['0xa', '0xb']), '/markets?condition_ids=0xa&condition_ids=0xb');
    assert.throws(() => gammaMarketsByConditionPath([]), RangeError);
  });

  it('reads CLOB markets: the captured closed market\'s winner, and the compact clob-markets form', () => {
    // nautilus test_data/clob_market_closed_binary_accepting_false.json (captured), trimmed.
    const got = decodeClobMarket({
      accepting_orders: false,
      closed: true,
      condition_id: '0x8ccc3f4951ff02c1d34b87988752b4444ad17228732780a6cf22afefe8478bb6',
      minimum_order_size: 5,
      minimum_tick_size: 0.001,
      neg_risk: false,
      tokens: [
        { outcome: 'Yes', price: 0, token_id: '108872296183993054938831082799825620165440189659433018108548854929333464287226', winner: false },
        { outcome: 'No', price: 1, token_id: '89711174926330519158043401581181146613785179104141808554061413232025882707365', winner: true },
      ],
    });
    assert.deepEqual([got?.yes_won, got?.tick_1e9, got?.min_size_1e8, got?.accepting_orders], [false, 1_000_000, 500_000_000, false]);
    // clob-client-v2 MarketDetails field names (not from the docs: the values).
    assert.deepEqual(decodeClobMarketInfo({ c: '0xc', t: [{ t: '11', o: 'Yes' }, { t: '22', o: 'No' }], mts: 0.01, nr: true, fd: { r: 0.072, e: 1, to: true }, mos: 5, r: null }), {
      condition_id: '0xc',
      token_ids: ['11', '22'],
      tick_1e9: 10_000_000,
      min_size_1e8: 500_000_000,
      neg_risk: true,
      accepting: true,
      fee: { rate: '0.072', exponent: 1, taker_only: true },
    });
  });
});

// ---------------------------------------------------------------------------------------------

describe('Polymarket books on the wire', () => {
  it('reads the docs\' market-channel `book` example verbatim (prices written ".48")', () => {
    const text = `{"event_type":"book","asset_id":"65818619657568813474341868652308942079804919287380422192892211131408793125422","market":"0xbd31dc8a20211944f6b70f31557f1001557b59905b7738480ca09bd4532f84af","bids":[{"price":".48","size":"30"},{"price":".49","size":"20"},{"price":".50","size":"15"}],"asks":[{"price":".52","size":"25"},{"price":".53","size":"60"},{"price":".54","size":"10"}],"timestamp":"123456789000","hash":"0x0...."}`;
    assert.deepEqual(decodeMarketFrame(text), [
      {
        type: 'book',
        market: '0xbd31dc8a20211944f6b70f31557f1001557b59905b7738480ca09bd4532f84af',
        snapshot: {
          asset_id: '65818619657568813474341868652308942079804919287380422192892211131408793125422',
          bids: [480_000_000, 3_000_000_000, 490_000_000, 2_000_000_000, 500_000_000, 1_500_000_000],
          asks: [520_000_000, 2_500_000_000, 530_000_000, 6_000_000_000, 540_000_000, 1_000_000_000],
          ts_ms: 123_456_789_000,
          hash: '0x0....',
          source: 'stream',
        },
      },
    ]);
  });

  it('reads the docs\' `price_change` example (its first change) and the other events', () => {
    const text = `{"market":"0x5f65177b394277fd294cd75650044e32ba009a95022d88a0c1d565897d72f8f1","price_changes":[{"asset_id":"71321045679252212594626385532706912750332728571942532289631379312455583992563","price":"0.5","size":"200","side":"BUY","hash":"56621a121a47ed9333273e21c83b660cff37ae50","best_bid":"0.5","best_ask":"1"}],"timestamp":"1757908892351","event_type":"price_change"}`;
    assert.deepEqual(decodeMarketFrame(text), [
      {
        type: 'price_change',
        market: '0x5f65177b394277fd294cd75650044e32ba009a95022d88a0c1d565897d72f8f1',
        changes: [{ asset_id: PARITY_TOKEN, side: Side.BID, price_1e9: 500_000_000, qty_1e8: 20_000_000_000, ts_ms: 1_757_908_892_351, hash: '56621a121a47ed9333273e21c83b660cff37ae50' }],
        best: [{ asset_id: PARITY_TOKEN, bid_1e9: 500_000_000, ask_1e9: 1_000_000_000 }],
      },
    ]);
    // nautilus ws_market_tick_size_msg.json and ws_market_last_trade_msg.json, ws_market_resolved_msg.json (fixtures).
    const frames = decodeMarketFrame(
      JSON.stringify([
        { event_type: 'tick_size_change', market: '0xdd', asset_id: PARITY_TOKEN, new_tick_size: '0.01', old_tick_size: '0.1', timestamp: '1703875210000' },
        { event_type: 'last_trade_price', market: '0xdd', asset_id: PARITY_TOKEN, fee_rate_bps: '0', price: '0.51', side: 'BUY', size: '25.0', timestamp: '1703875202000' },
        { event_type: 'market_resolved', id: '1031769', market: '0x31', assets_ids: ['7604', '3169'], winning_asset_id: '7604', winning_outcome: 'Yes', timestamp: '1766790415550' },
        { event_type: 'price_change', market: '0xdd', price_changes: [{ asset_id: '1', price: 'x', size: '1', side: 'BUY' }], timestamp: '1' },
        { event_type: 'something_new' },
      ]),
    );
    assert.deepEqual(frames, [
      { type: 'tick_size_change', market: '0xdd', asset_id: PARITY_TOKEN, old_tick_1e9: 100_000_000, new_tick_1e9: 10_000_000, ts_ms: 1_703_875_210_000 },
      { type: 'last_trade_price', market: '0xdd', asset_id: PARITY_TOKEN, price_1e9: 510_000_000, qty_1e8: 2_500_000_000, side: 'buy', ts_ms: 1_703_875_202_000 },
      { type: 'market_resolved', market: '0x31', asset_ids: ['7604', '3169'], winning_asset_id: '7604', ts_ms: 1_766_790_415_550 },
      { type: 'unreadable', event_type: 'price_change', asset_ids: ['1'] },
    ]);
    assert.equal(decodeMarketFrame('PONG'), 'pong');
    assert.equal(decodeMarketFrame('not json'), undefined);
    assert.equal(decodeMarketFrame('{"event_type":"other"}'), undefined);
  });

  it('builds the subscriptions (docs: initial; nautilus: later operations)', () => {
    assert.equal(marketSubscription([catalogTokenId('123')!]), '{"assets_ids":["123"],"type":"market","custom_feature_enabled":true}');
    assert.equal(marketSubscription(['123'], false), '{"assets_ids":["123"],"type":"market"}');
    assert.equal(marketSubscriptionUpdate('unsubscribe', ['123']), '{"assets_ids":["123"],"operation":"unsubscribe"}');
    assert.equal(bookPath(catalogTokenId('123')!), '/book?token_id=123');
  });

  it('hashes a REST book as py-clob-client does (its test vector) and verifies the answer against it', () => {
    const raw = {
      market: '0xaabbcc',
      asset_id: '100',
      bids: [{ price: '0.3', size: '100' }, { price: '0.4', size: '100' }],
      asks: [{ price: '0.6', size: '100' }, { price: '0.7', size: '100' }],
      hash: '',
      timestamp: '123456789',
      min_order_size: '100',
      neg_risk: false,
      tick_size: '0.01',
      last_trade_price: '0.5',
    };
    assert.equal(bookSummaryHash(raw), '0458ea5755c9f73d64a14636fa5c36ed460ec394');
    const book = decodeRestBook({ ...raw, hash: '0458ea5755c9f73d64a14636fa5c36ed460ec394' });
    assert.deepEqual(book, {
      snapshot: { asset_id: '100', bids: [300_000_000, 10_000_000_000, 400_000_000, 10_000_000_000], asks: [600_000_000, 10_000_000_000, 700_000_000, 10_000_000_000], ts_ms: 123_456_789_000, hash: '0458ea5755c9f73d64a14636fa5c36ed460ec394', source: 'rest' },
      market: '0xaabbcc',
      tick_1e9: 10_000_000,
      min_size_1e8: 10_000_000_000,
      neg_risk: false,
      hash_verified: true,
    });
    assert.equal(decodeRestBook({ ...raw, hash: '0xabc123' })?.hash_verified, false);
    assert.equal(decodeRestBook({ ...raw, bids: [{ price: '0.3', size: '1e3' }] }), undefined);
  });
});

// ---------------------------------------------------------------------------------------------

const TOKEN = '7';

function snap(ts_ms: number, bids: [number, number][], asks: [number, number][], source: 'stream' | 'rest' = 'stream', hash: string | null = null): PolymarketBookSnapshot {
  return { asset_id: TOKEN, bids: bids.flat(), asks: asks.flat(), ts_ms, hash, source };
}

function change(ts_ms: number, side: Side, price_1e9: number, qty_1e8: number, hash: string | null = null): PolymarketLevelChange {
  return { asset_id: TOKEN, side, price_1e9, qty_1e8, ts_ms, hash };
}

describe('Polymarket book sync', () => {
  it('a snapshot makes the book whole; changes then set absolute sizes and are published', () => {
    const book = new L2Book();
    const changes: number[] = [];
    const sync = new PolymarketBookSync(book, changes);
    assert.equal(sync.synced, false);
    assert.equal(sync.onSnapshot(snap(10, [[480_000_000, 30], [490_000_000, 20]], [[520_000_000, 25]])), 'synced');
    assert.deepEqual([book.flat(Side.BID, 10), book.flat(Side.ASK, 10), changes], [[490_000_000, 20, 480_000_000, 30], [520_000_000, 25], []]);
    assert.equal(sync.onChange(change(11, Side.BID, 490_000_000, 0)), 'applied');
    assert.equal(sync.onChange(change(11, Side.ASK, 510_000_000, 5, 'h1')), 'applied');
    assert.deepEqual(changes, [Side.BID, 490_000_000, 0, Side.ASK, 510_000_000, 5]);
    assert.deepEqual([book.flat(Side.BID, 10), book.flat(Side.ASK, 10), sync.lastEventMs, sync.lastStreamHash], [[480_000_000, 30], [510_000_000, 5, 520_000_000, 25], 11, 'h1']);
  });

  it('a stream `book` on a whole book is published as the levels it changed', () => {
    const book = new L2Book();
    const changes: number[] = [];
    const sync = new PolymarketBookSync(book, changes);
    sync.onSnapshot(snap(10, [[480_000_000, 30], [490_000_000, 20]], [[520_000_000, 25]]));
    assert.equal(sync.onSnapshot(snap(12, [[480_000_000, 30], [470_000_000, 1]], [[520_000_000, 10]])), 'applied');
    assert.deepEqual(changes, [Side.BID, 490_000_000, 0, Side.BID, 470_000_000, 1, Side.ASK, 520_000_000, 10]);
  });

  it('time going backwards is a gap; a change before any snapshot is a gap once, then kept', () => {
    const sync = new PolymarketBookSync(new L2Book(), []);
    assert.equal(sync.onChange(change(5, Side.BID, 1_000_000, 1)), 'gap', 'never snapshotted');
    assert.equal(sync.onChange(change(6, Side.BID, 2_000_000, 1)), 'buffered');
    assert.equal(sync.pendingCount, 2);
    assert.equal(sync.onSnapshot(snap(10, [], [])), 'synced');
    assert.equal(sync.onChange(change(9, Side.BID, 1_000_000, 1)), 'gap', 'older than the snapshot');
    assert.equal(sync.synced, false);
    assert.equal(sync.onSnapshot(snap(20, [], [])), 'synced');
    assert.equal(sync.onSnapshot(snap(19, [], [])), 'gap', 'a stream book older than the book');
  });

  it('replays the changes kept while resyncing onto the REST snapshot (from its timestamp on)', () => {
    const book = new L2Book();
    const sync = new PolymarketBookSync(book, []);
    sync.onChange(change(100, Side.BID, 500_000_000, 10)); // gap
    sync.onChange(change(105, Side.BID, 510_000_000, 20)); // at the snapshot's instant: replayed (absolute, harmless)
    sync.onChange(change(107, Side.BID, 500_000_000, 0)); // after it: replayed
    assert.equal(sync.onSnapshot(snap(105, [[500_000_000, 10], [510_000_000, 20]], [[600_000_000, 1]], 'rest')), 'synced');
    assert.deepEqual(book.flat(Side.BID, 10), [510_000_000, 20]);
    assert.equal(sync.lastEventMs, 107);
  });

  it('a snapshot older than a dropped change cannot be bridged: stale', () => {
    const sync = new PolymarketBookSync(new L2Book(), [], 2);
    for (let t = 1; t <= 5; t++) sync.onChange(change(t * 10, Side.BID, 1_000_000, t));
    assert.equal(sync.onSnapshot(snap(25, [], [], 'rest')), 'stale', 'the change at 30 was dropped');
    sync.onChange(change(60, Side.BID, 1_000_000, 6));
    assert.equal(sync.onSnapshot(snap(55, [], [], 'rest')), 'synced');
  });

  it('a tick size change drops the book until the next snapshot', () => {
    const sync = new PolymarketBookSync(new L2Book(), []);
    sync.onSnapshot(snap(1, [[500_000_000, 1]], []));
    assert.equal(sync.onTickSizeChange(10_000_000), 'gap');
    assert.equal(sync.tick_1e9, 10_000_000);
    assert.equal(sync.onChange(change(2, Side.BID, 500_000_000, 2)), 'buffered');
    assert.equal(sync.onSnapshot(snap(3, [[500_000_000, 3]], [])), 'synced');
  });

  it('audits a REST read: agree, suspect once, gap twice or on the same hash', () => {
    const sync = new PolymarketBookSync(new L2Book(), []);
    assert.equal(sync.audit(snap(1, [], [], 'rest')), 'idle');
    sync.onSnapshot(snap(1, [[500_000_000, 1]], [[600_000_000, 2]], 'stream', 'aa'));
    assert.equal(sync.audit(snap(2, [[500_000_000, 1]], [[600_000_000, 2]], 'rest', 'bb')), 'agree');
    assert.equal(sync.audit(snap(3, [[500_000_000, 9]], [[600_000_000, 2]], 'rest', 'cc')), 'suspect');
    assert.equal(sync.audit(snap(4, [[500_000_000, 1]], [[600_000_000, 2]], 'rest', 'dd')), 'agree', 'the change arrived');
    assert.equal(sync.audit(snap(5, [[500_000_000, 9]], [], 'rest')), 'suspect');
    assert.equal(sync.audit(snap(6, [[500_000_000, 9]], [], 'rest')), 'gap');
    assert.equal(sync.synced, false);
    sync.onSnapshot(snap(7, [[500_000_000, 1]], [], 'stream', '0xABC'));
    assert.equal(sync.audit(snap(8, [[500_000_000, 2]], [], 'rest', 'abc')), 'gap', 'the venue says it is the same book');
  });

  type Op = { bid: boolean; tick: number; qty: number };
  const op = fc.record({ bid: fc.boolean(), tick: fc.integer({ min: 1, max: 30 }), qty: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 1_000_000 })) });
  /** A venue event: level changes in one message, or a trade's full `book`; time advances 0-2 ms. */
  const event = fc.record({ dt: fc.integer({ min: 0, max: 2 }), ops: fc.array(op, { minLength: 1, maxLength: 4 }), book: fc.boolean() });

  /** The venue's book as a naive model: price -> size per side, absolute sizes applied in order. */
  class Venue {
    readonly sides = [new Map<number, number>(), new Map<number, number>()];
    apply(o: Op): PolymarketLevelChange {
      const side = o.bid ? Side.BID : Side.ASK;
      const px = o.bid ? 500_000_000 - o.tick * 1_000_000 : 500_000_000 + o.tick * 1_000_000;
      if (o.qty === 0) this.sides[side]!.delete(px);
      else this.sides[side]!.set(px, o.qty);
      return change(0, side, px, o.qty);
    }
    flat(side: Side): number[] {
      return [...this.sides[side]!].sort((a, b) => (side === Side.BID ? b[0] - a[0] : a[0] - b[0])).flat();
    }
    snapshot(ts: number, source: 'stream' | 'rest'): PolymarketBookSnapshot {
      const worstFirst = (side: Side) => [...this.sides[side]!].sort((a, b) => (side === Side.BID ? a[0] - b[0] : b[0] - a[0]));
      return snap(ts, worstFirst(Side.BID), worstFirst(Side.ASK), source);
    }
  }

  /** The stream: per event, its time and either its changes or its full book, with the venue's book after it. */
  function stream(initial: Op[], events: { dt: number; ops: Op[]; book: boolean }[]) {
    const venue = new Venue();
    for (const o of initial) if (o.qty > 0) venue.apply(o);
    let ts = 1_000;
    const first = venue.snapshot(ts, 'stream');
    const out: { ts: number; changes: PolymarketLevelChange[] | null; snapshot: PolymarketBookSnapshot; bids: number[]; asks: number[] }[] = [];
    for (const e of events) {
      ts += e.dt;
      const changes = e.ops.map((o) => ({ ...venue.apply(o), ts_ms: ts }));
      out.push({ ts, changes: e.book ? null : changes, snapshot: venue.snapshot(ts, 'stream'), bids: venue.flat(Side.BID), asks: venue.flat(Side.ASK) });
    }
    return { first, out };
  }

  it('follows the venue\'s book through changes and trade snapshots, and its changes rebuild it (property)', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), fc.array(event, { minLength: 1, maxLength: 40 }), (initial, events) => {
        const { first, out } = stream(initial, events);
        const book = new L2Book();
        const changes: number[] = [];
        const sync = new PolymarketBookSync(book, changes);
        assert.equal(sync.onSnapshot(first), 'synced');
        const shadow = new L2Book();
        for (const side of [Side.BID, Side.ASK]) {
          const l = book.flat(side, 1_000);
          for (let i = 0; i < l.length; i += 2) shadow.set(side, l[i]!, l[i + 1]!);
        }
        for (const e of out) {
          changes.length = 0;
          const outcome = e.changes === null ? sync.onSnapshot(e.snapshot) : sync.onChanges(e.changes);
          assert.equal(outcome, 'applied');
          assert.deepEqual(book.flat(Side.BID, 1_000), e.bids);
          assert.deepEqual(book.flat(Side.ASK, 1_000), e.asks);
          for (let c = 0; c < changes.length; c += 3) shadow.set(changes[c] as Side, changes[c + 1]!, changes[c + 2]!);
          assert.deepEqual(shadow.flat(Side.BID, 1_000), e.bids);
          assert.deepEqual(shadow.flat(Side.ASK, 1_000), e.asks);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('resyncs from a REST snapshot taken mid-stream, replaying what came meanwhile (property)', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30 }), fc.array(event, { minLength: 2, maxLength: 40 }), fc.nat(), fc.nat(), (initial, events, a, b) => {
        const { out } = stream(initial, events.map((e) => ({ ...e, book: false })));
        // The stream is lost before `cut`; the REST read reflects every event up to `at` (>= cut), stamped with its time.
        const cut = a % out.length;
        const at = cut + (b % (out.length - cut));
        const book = new L2Book();
        const sync = new PolymarketBookSync(book, []);
        for (let i = cut; i <= at; i++) sync.onChanges(out[i]!.changes!);
        const rest = { ...out[at]!.snapshot, source: 'rest' as const };
        // Events stamped at the same instant as `at` but after it may have reached us already.
        let i = at + 1;
        for (; i < out.length && out[i]!.ts === out[at]!.ts && i % 2 === 0; i++) sync.onChanges(out[i]!.changes!);
        assert.equal(sync.onSnapshot(rest), 'synced');
        const reached = i - 1;
        assert.deepEqual(book.flat(Side.BID, 1_000), out[reached]!.bids);
        assert.deepEqual(book.flat(Side.ASK, 1_000), out[reached]!.asks);
        for (; i < out.length; i++) assert.equal(sync.onChanges(out[i]!.changes!), 'applied');
        assert.deepEqual(book.flat(Side.BID, 1_000), out[out.length - 1]!.bids);
        assert.deepEqual(book.flat(Side.ASK, 1_000), out[out.length - 1]!.asks);
        // The REST read of the final book agrees with the kept one.
        assert.equal(sync.audit({ ...out[out.length - 1]!.snapshot, source: 'rest' }), 'agree');
      }),
      { numRuns: 300 },
    );
  });
});

// A compile-time use of evmAddress: the account's signer address is the key's.
assert.equal(evmAddress(KEY), HARDHAT0);
