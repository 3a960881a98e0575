/**
 * The live Hyperliquid perpetuals adapter's pure core: the codec (info requests and their
 * answers, signed exchange actions and their answers, the price and size rules, cloids, funding,
 * the WebSocket frames) and the `l2Book` sync (every push a whole snapshot, published as the
 * levels that changed).
 *
 * Samples, by source:
 *   - Hyperliquid's API docs (hyperliquid.gitbook.io/hyperliquid-docs/for-developers/api), their
 *     own example answers, copied from the markdown of the pages (the `// ...` comments the
 *     docs write inside some JSON examples are removed so the text parses; nothing else is
 *     changed): info-endpoint (openOrders, frontendOpenOrders, userFills, orderStatus with its
 *     `<status>` placeholder set to "filled", "Missing Order", l2Book, userRole, userFees),
 *     info-endpoint/perpetuals (meta, metaAndAssetCtxs, clearinghouseState, fundingHistory),
 *     exchange-endpoint (order: resting, error, filled; cancel: success, error), tick-and-lot-size
 *     (the price examples), error-responses (the error strings), rate-limits.
 *   - Answers recorded from api.hyperliquid.xyz in hyperliquid-dex/hyperliquid-python-sdk's
 *     tests/cassettes/info_test (the `CASSETTE_` constants, verbatim or their first rows):
 *     meta (2023, with kPEPE), l2Book DYDX, frontendOpenOrders, clearinghouseState (2023, first
 *     two positions), fundingHistory BTC, candleSnapshot kPEPE 1h, userRole, extraAgents.
 *   - Not from the docs, marked where used: `{"status":"err","response":"Unable to recover
 *     signer."}` and the "Too many cumulative requests sent (...)" refusal, as public client
 *     repositories recorded them from the venue; the scheduleCancel answer's type "default"
 *     (nktkas/hyperliquid's schema); "waitingForFill"; anything else made up for its case.
 *
 * Signed actions are checked by recovering the signer's address from the signature with
 * @noble/curves (independently of the signing code, which uses ox and is held to the SDKs'
 * vectors in venue-signing-evm.test.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { Side } from '../../domain/market.ts';
import { formatScaled } from '../../actors/edge/live/decimal.ts';
import { L2Book } from '../../actors/edge/live/l2-book.ts';
import { feeContextOf } from '../../actors/edge/live/binance/codec.ts';
import { krakenClientOrderId } from '../../actors/edge/live/kraken/codec.ts';
import { evmAddress, hyperliquidActionHash, hyperliquidL1Digest, hyperliquidMsgpack } from '../../actors/edge/live/signing-evm.ts';
import { HyperliquidBookSync, type HyperliquidBookData } from '../../actors/edge/live/hyperliquid/book-sync.ts';
import {
  ACCEPT_WINDOW_MS,
  CLOID,
  MIN_ORDER_VALUE_1e9,
  PING,
  accountOf,
  accountProbeOf,
  agentValidUntil,
  balancesOf,
  cancelAction,
  cancelByCloidAction,
  cancelCap,
  childIdOfCloid,
  clearinghouseStateRequest,
  coinOf,
  decodeCancelAnswer,
  decodeClearinghouseState,
  decodeFundingHistory,
  decodeHourlyCloses,
  decodeL2Book,
  decodeMeta,
  decodeMetaAndAssetCtxs,
  decodeOpenOrders,
  decodeOrderAnswer,
  decodeOrderStatus,
  decodeScheduleCancelAnswer,
  decodeSpotBalances,
  decodeUserFees,
  decodeUserFills,
  decodeUserRole,
  decodeWsFrame,
  errorKindOf,
  exchangeRequestBody,
  exchangeWeight,
  fundingHistoryRequest,
  fundingInfoOf,
  fundingPointsOf,
  hourlyCandlesRequest,
  hyperliquidCloid,
  infoWeight,
  isValidPrice,
  l2BookSubscription,
  legReportOf,
  metaRequest,
  orderAction,
  orderStateOf,
  orderStatusRequest,
  orderTerms,
  parseVenueJson,
  priceOnTick,
  priceStep1e9,
  scheduleCancelAction,
  settledReportOf,
  sizeOnLot,
  statusKind,
  symbolOfCoin,
  userFillsByTimeRequest,
  userRoleRequest,
  type HyperliquidInstrument,
  type HyperliquidRole,
} from '../../actors/edge/live/hyperliquid/codec.ts';

// ---- answers recorded from api.hyperliquid.xyz: hyperliquid-python-sdk tests/cassettes/info_test/*.yaml ----
// test_get_info (meta, 2023), test_get_l2_snapshot (l2Book DYDX), test_get_frontend_open_orders, test_extra_agents,
// test_get_funding_history[1684811870000] (its first 3 rows), test_get_candles_snapshot (its first 2 candles).
const CASSETTE_META = '{"universe":[{"maxLeverage":50,"name":"BTC","szDecimals":5},{"maxLeverage":50,"name":"ETH","szDecimals":4},{"maxLeverage":50,"name":"ATOM","szDecimals":2},{"maxLeverage":50,"name":"MATIC","szDecimals":1},{"maxLeverage":50,"name":"DYDX","szDecimals":1},{"maxLeverage":50,"name":"SOL","szDecimals":2},{"maxLeverage":50,"name":"AVAX","szDecimals":2},{"maxLeverage":50,"name":"BNB","szDecimals":3},{"maxLeverage":50,"name":"APE","szDecimals":1},{"maxLeverage":50,"name":"OP","szDecimals":1},{"maxLeverage":50,"name":"LTC","szDecimals":2},{"maxLeverage":50,"name":"ARB","szDecimals":1},{"maxLeverage":50,"name":"DOGE","szDecimals":0},{"maxLeverage":50,"name":"INJ","szDecimals":1},{"maxLeverage":50,"name":"SUI","szDecimals":1},{"maxLeverage":50,"name":"kPEPE","szDecimals":0},{"maxLeverage":50,"name":"CRV","szDecimals":1},{"maxLeverage":50,"name":"LDO","szDecimals":1},{"maxLeverage":50,"name":"LINK","szDecimals":1},{"maxLeverage":50,"name":"STX","szDecimals":1},{"maxLeverage":50,"name":"RNDR","szDecimals":1},{"maxLeverage":50,"name":"CFX","szDecimals":0},{"maxLeverage":50,"name":"FTM","szDecimals":0},{"maxLeverage":50,"name":"GMX","szDecimals":2},{"maxLeverage":50,"name":"SNX","szDecimals":1},{"maxLeverage":50,"name":"XRP","szDecimals":0},{"maxLeverage":50,"name":"BCH","szDecimals":3},{"maxLeverage":50,"name":"APT","szDecimals":2}]}';
const CASSETTE_L2 = '{"coin":"DYDX","levels":[[{"n":1,"px":"2.111","sz":"134.4"},{"n":1,"px":"2.1105","sz":"141.1"},{"n":1,"px":"2.1104","sz":"125.8"},{"n":1,"px":"2.1081","sz":"1379.2"},{"n":1,"px":"2.1075","sz":"1417.0"},{"n":2,"px":"2.1052","sz":"2800.9"},{"n":2,"px":"2.1017","sz":"3478.0"},{"n":1,"px":"2.1007","sz":"1655.6"},{"n":1,"px":"2.0998","sz":"1605.9"},{"n":2,"px":"2.0961","sz":"3695.0"},{"n":2,"px":"2.0947","sz":"3911.7"},{"n":2,"px":"2.0936","sz":"3736.5"},{"n":1,"px":"2.0903","sz":"12.0"},{"n":1,"px":"2.0861","sz":"15.0"},{"n":1,"px":"2.0819","sz":"25.0"},{"n":2,"px":"2.0786","sz":"3819.2"},{"n":1,"px":"2.0778","sz":"40.0"},{"n":1,"px":"2.0736","sz":"63.0"},{"n":2,"px":"2.0667","sz":"3669.0"},{"n":1,"px":"1.81","sz":"2397.0"}],[{"n":2,"px":"2.1124","sz":"352.3"},{"n":2,"px":"2.1125","sz":"364.9"},{"n":2,"px":"2.1128","sz":"3798.0"},{"n":2,"px":"2.113","sz":"3528.0"},{"n":2,"px":"2.1135","sz":"3635.0"},{"n":1,"px":"2.1141","sz":"1981.3"},{"n":1,"px":"2.1142","sz":"1957.3"},{"n":1,"px":"2.1146","sz":"1914.5"},{"n":2,"px":"2.1232","sz":"3245.0"},{"n":1,"px":"2.1274","sz":"1656.3"},{"n":1,"px":"2.1281","sz":"1839.9"},{"n":2,"px":"2.1298","sz":"3806.1"},{"n":2,"px":"2.1322","sz":"3578.7"},{"n":1,"px":"2.1347","sz":"11.0"},{"n":1,"px":"2.139","sz":"15.0"},{"n":1,"px":"2.1423","sz":"1983.8"},{"n":1,"px":"2.1432","sz":"24.0"},{"n":1,"px":"2.1468","sz":"1610.9"},{"n":1,"px":"2.1475","sz":"39.0"},{"n":1,"px":"2.1518","sz":"62.0"}]],"time":1689630203930}';
const CASSETTE_FRONTEND_OPEN_ORDERS = '[{"children":[],"coin":"INJ","isPositionTpsl":false,"isTrigger":true,"limitPx":"9.2037","oid":3184595907,"orderType":"Take Profit Market","origSz":"12.5","reduceOnly":true,"side":"A","sz":"12.5","tif":null,"timestamp":1700126022555,"triggerCondition":"Price above 10.004","triggerPx":"10.004"},{"children":[],"coin":"INJ","isPositionTpsl":false,"isTrigger":true,"limitPx":"9.1954","oid":3184595906,"orderType":"Stop Market","origSz":"12.5","reduceOnly":true,"side":"A","sz":"12.5","tif":null,"timestamp":1700126022555,"triggerCondition":"Price below 9.995","triggerPx":"9.995"},{"children":[{"children":[],"coin":"INJ","isPositionTpsl":false,"isTrigger":true,"limitPx":"9.1954","oid":3184595906,"orderType":"Stop Market","origSz":"12.5","reduceOnly":true,"side":"A","sz":"12.5","tif":null,"timestamp":1700126022555,"triggerCondition":"Price below 9.995","triggerPx":"9.995"},{"children":[],"coin":"INJ","isPositionTpsl":false,"isTrigger":true,"limitPx":"9.2037","oid":3184595907,"orderType":"Take Profit Market","origSz":"12.5","reduceOnly":true,"side":"A","sz":"12.5","tif":null,"timestamp":1700126022555,"triggerCondition":"Price above 10.004","triggerPx":"10.004"}],"coin":"INJ","isPositionTpsl":false,"isTrigger":false,"limitPx":"10.0","oid":3184595905,"orderType":"Limit","origSz":"12.5","reduceOnly":false,"side":"B","sz":"12.5","tif":"Gtc","timestamp":1700126022555,"triggerCondition":"N/A","triggerPx":"0.0"}]';
const CASSETTE_EXTRA_AGENTS = '[{"name":"ok","address":"0x286edfa08c04f6899dab3bfdecf2dd133f9733b9","validUntil":1767776120478},{"name":"new","address":"0xc06e6617005c1888aeb8b3017fe00f82b7b84fc0","validUntil":1771174068515}]';
const CASSETTE_FUNDING_HISTORY_FIRST_3 = '[{"coin":"BTC","fundingRate":"-0.00061334","premium":"-0.00091334","time":1683849600048},{"coin":"BTC","fundingRate":"-0.00074503","premium":"-0.00104503","time":1683878400388},{"coin":"BTC","fundingRate":"-0.00081798","premium":"-0.00111798","time":1683907200253}]';
const CASSETTE_CANDLES_FIRST_2 = '[{"T":1684702799999,"c":"0.001604","h":"0.001616","i":"1h","l":"0.001601","n":709,"o":"0.001601","s":"kPEPE","t":1684699200000,"v":"520665683.0"},{"T":1684706399999,"c":"0.001591","h":"0.001603","i":"1h","l":"0.001584","n":802,"o":"0.001603","s":"kPEPE","t":1684702800000,"v":"682593287.0"}]';

// ---- the docs' own example answers (comments inside the JSON removed) ----------------------------

/** info-endpoint/perpetuals, "Retrieve perpetuals metadata (universe and margin tables)". */
const DOCS_META = `{
    "universe": [
        { "name": "BTC", "szDecimals": 5, "maxLeverage": 50 },
        { "name": "ETH", "szDecimals": 4, "maxLeverage": 50 },
        { "name": "HPOS", "szDecimals": 0, "maxLeverage": 3, "onlyIsolated": true },
        { "name": "LOOM", "szDecimals": 1, "maxLeverage": 3, "isDelisted": true, "marginMode": "strictIsolated", "onlyIsolated": true }
    ],
    "marginTables": [
        [50, { "description": "", "marginTiers": [{ "lowerBound": "0.0", "maxLeverage": 50 }] }],
        [51, { "description": "tiered 10x", "marginTiers": [{ "lowerBound": "0.0", "maxLeverage": 10 }, { "lowerBound": "3000000.0", "maxLeverage": 5 }] }]
    ]
}`;

/** info-endpoint/perpetuals, "Retrieve perpetuals asset contexts", first perp dex. */
const DOCS_META_AND_ASSET_CTXS = `[
{
     "universe": [
        { "name": "BTC", "szDecimals": 5, "maxLeverage": 50 },
        { "name": "ETH", "szDecimals": 4, "maxLeverage": 50 },
        { "name": "HPOS", "szDecimals": 0, "maxLeverage": 3, "onlyIsolated": true }
    ],
    "marginTables":[ [ 50, { "description":"", "marginTiers":[ { "lowerBound":"0.0", "maxLeverage":50 } ] } ] ],
     "collateralToken":0
},
[
    { "dayNtlVlm":"1169046.29406", "funding":"0.0000125", "impactPxs":[ "14.3047", "14.3444" ], "markPx":"14.3161", "midPx":"14.314", "openInterest":"688.11", "oraclePx":"14.32", "premium":"0.00031774", "prevDayPx":"15.322" },
    { "dayNtlVlm":"1426126.295175", "funding":"0.0000125", "impactPxs":[ "6.0386", "6.0562" ], "markPx":"6.0436", "midPx":"6.0431", "openInterest":"1882.55", "oraclePx":"6.0457", "premium":"0.00028119", "prevDayPx":"6.3611" },
    { "dayNtlVlm":"809774.565507", "funding":"0.0000125", "impactPxs":[ "8.4505", "8.4722" ], "markPx":"8.4542", "midPx":"8.4557", "openInterest":"2912.05", "oraclePx":"8.4585", "premium":"0.00033694", "prevDayPx":"8.8097" }
]
]`;

/** info-endpoint/perpetuals, "Retrieve user's perpetuals account summary". */
const DOCS_CLEARINGHOUSE_STATE = `{
  "assetPositions": [
    {
      "position": {
        "coin": "ETH",
        "cumFunding": { "allTime": "514.085417", "sinceChange": "0.0", "sinceOpen": "0.0" },
        "entryPx": "2986.3",
        "leverage": { "rawUsd": "-95.059824", "type": "isolated", "value": 20 },
        "liquidationPx": "2866.26936529",
        "marginUsed": "4.967826",
        "maxLeverage": 50,
        "positionValue": "100.02765",
        "returnOnEquity": "-0.0026789",
        "szi": "0.0335",
        "unrealizedPnl": "-0.0134"
      },
      "type": "oneWay"
    }
  ],
  "crossMaintenanceMarginUsed": "0.0",
  "crossMarginSummary": { "accountValue": "13104.514502", "totalMarginUsed": "0.0", "totalNtlPos": "0.0", "totalRawUsd": "13104.514502" },
  "marginSummary": { "accountValue": "13109.482328", "totalMarginUsed": "4.967826", "totalNtlPos": "100.02765", "totalRawUsd": "13009.454678" },
  "time": 1708622398623,
  "withdrawable": "13104.514502"
}`;

/** info-endpoint/perpetuals, "Retrieve historical funding rates" (first perp dex). */
const DOCS_FUNDING_HISTORY = `[ { "coin":"ETH", "fundingRate": "-0.00022196", "premium": "-0.00052196", "time":1683849600076 } ]`;

/** info-endpoint, "Retrieve a user's open orders" and "... with additional frontend info". */
const DOCS_OPEN_ORDERS = `[ { "coin": "BTC", "limitPx": "29792.0", "oid": 91490942, "side": "A", "sz": "0.0", "timestamp": 1681247412573 } ]`;
const DOCS_FRONTEND_OPEN_ORDERS = `[
  { "coin": "BTC", "isPositionTpsl": false, "isTrigger": false, "limitPx": "29792.0", "oid": 91490942, "orderType": "Limit", "origSz": "5.0", "reduceOnly": false, "side": "A", "sz": "5.0", "timestamp": 1681247412573, "triggerCondition": "N/A", "triggerPx": "0.0" }
]`;

/** info-endpoint, "Retrieve a user's fills": a perp fill and a spot fill. */
const DOCS_USER_FILLS = `[
  {
    "closedPnl": "0.0", "coin": "AVAX", "crossed": false, "dir": "Open Long",
    "hash": "0xa166e3fa63c25663024b03f2e0da011a00307e4017465df020210d3d432e7cb8",
    "oid": 90542681, "px": "18.435", "side": "B", "startPosition": "26.86", "sz": "93.53", "time": 1681222254710,
    "fee": "0.01",
    "feeToken": "USDC",
    "builderFee": "0.01",
    "tid": 118906512037719
  },
  {
    "coin": "@107", "px": "18.62041381", "sz": "43.84", "side": "A", "time": 1735969713869, "startPosition": "10659.65434798",
    "dir": "Sell", "closedPnl": "8722.988077", "hash": "0x2222138cc516e3fe746c0411dd733f02e60086f43205af2ae37c93f6a792430b",
    "oid": 59071663721, "crossed": true, "fee": "0.304521", "tid": 907359904431134, "feeToken": "USDC"
  }
]`;

/** info-endpoint, "Query order status by oid or cloid": the successful answer (`<status>` set to "filled") and "Missing Order". */
const DOCS_ORDER_STATUS = `{
  "status": "order",
  "order": {
    "order": {
      "coin": "ETH", "side": "A", "limitPx": "2412.7", "sz": "0.0", "oid": 1, "timestamp": 1724361546645,
      "triggerCondition": "N/A", "isTrigger": false, "triggerPx": "0.0", "children": [], "isPositionTpsl": false,
      "reduceOnly": true, "orderType": "Market", "origSz": "0.0076", "tif": "FrontendMarket", "cloid": null
    },
    "status": "filled",
    "statusTimestamp": 1724361546645
  }
}`;
const DOCS_ORDER_MISSING = `{ "status": "unknownOid" }`;

/** info-endpoint, "L2 book snapshot" (the same shape is the WebSocket `l2Book` push's data). */
const DOCS_L2_BOOK = `{
  "coin": "BTC",
  "time": 1754450974231,
  "levels": [
    [ { "px": "113377.0", "sz": "7.6699", "n": 17 }, { "px": "113376.0", "sz": "4.13714", "n": 8 } ],
    [ { "px": "113397.0", "sz": "0.11543", "n": 3 } ]
  ]
}`;

/** info-endpoint, "Query a user's fees". */
const DOCS_USER_FEES = `{
  "dailyUserVlm": [ { "date": "2025-05-23", "userCross": "0.0", "userAdd": "0.0", "exchange": "2852367.0770729999" } ],
  "feeSchedule": {
    "cross": "0.00045", "add": "0.00015", "spotCross": "0.0007", "spotAdd": "0.0004",
    "tiers": {
      "vip": [ { "ntlCutoff": "5000000.0", "cross": "0.0004", "add": "0.00012", "spotCross": "0.0006", "spotAdd": "0.0003" } ],
      "mm": [ { "makerFractionCutoff": "0.005", "add": "-0.00001" } ]
    },
    "referralDiscount": "0.04",
    "stakingDiscountTiers": [ { "bpsOfMaxSupply": "0.0", "discount": "0.0" }, { "bpsOfMaxSupply": "0.0001", "discount": "0.05" } ]
  },
  "userCrossRate": "0.000315",
  "userAddRate": "0.000105",
  "userSpotCrossRate": "0.00049",
  "userSpotAddRate": "0.00028",
  "activeReferralDiscount": "0.0",
  "trial": null,
  "feeTrialReward": "0.0",
  "nextTrialAvailableTimestamp": null,
  "stakingLink": { "type": "tradingUser", "stakingUser": "0x54c049d9c7d3c92c2462bf3d28e083f3d6805061" },
  "activeStakingDiscount": { "bpsOfMaxSupply": "4.7577998927", "discount": "0.3" }
}`;

/** exchange-endpoint, "Place an order" and "Cancel order(s)" answers. */
const DOCS_ORDER_RESTING = `{ "status":"ok", "response":{ "type":"order", "data":{ "statuses":[ { "resting":{ "oid":77738308 } } ] } } }`;
const DOCS_ORDER_ERROR = `{ "status":"ok", "response":{ "type":"order", "data":{ "statuses":[ { "error":"Order must have minimum value of $10." } ] } } }`;
const DOCS_ORDER_FILLED = `{ "status":"ok", "response":{ "type":"order", "data":{ "statuses":[ { "filled":{ "totalSz":"0.02", "avgPx":"1891.4", "oid":77747314 } } ] } } }`;
const DOCS_CANCEL_OK = `{ "status":"ok", "response":{ "type":"cancel", "data":{ "statuses":[ "success" ] } } }`;
const DOCS_CANCEL_ERROR = `{ "status":"ok", "response":{ "type":"cancel", "data":{ "statuses":[ { "error":"Order was never placed, already canceled, or filled." } ] } } }`;

// ---- recorded answers (hyperliquid-python-sdk tests/cassettes/info_test) --------------------------

/** test_get_user_state.yaml: the summary and the first two of its eleven positions. */
const CASSETTE_USER_STATE_FIRST_2 = '{"assetPositions":[{"position":{"coin":"BTC","entryPx":"26951.0","leverage":{"type":"cross","value":20},"liquidationPx":"173198.69592357","marginUsed":"10.582271","maxTradeSzs":["0.76534","0.74964"],"positionValue":"211.64542","returnOnEquity":"-0.00756643","szi":"-0.00785","unrealizedPnl":"-0.08007"},"type":"oneWay"},{"position":{"coin":"ETH","entryPx":"1705.82","leverage":{"type":"cross","value":20},"liquidationPx":null,"marginUsed":"11.383755","maxTradeSzs":["11.8423","12.1091"],"positionValue":"227.675114","returnOnEquity":"0.01042942","szi":"0.1334","unrealizedPnl":"0.118726"},"type":"oneWay"}],"crossMarginSummary":{"accountValue":"1182.312496","totalMarginUsed":"171.740766","totalNtlPos":"3434.815334","totalRawUsd":"86.549602"},"marginSummary":{"accountValue":"1182.312496","totalMarginUsed":"171.740766","totalNtlPos":"3434.815334","totalRawUsd":"86.549602"},"withdrawable":"1010.57173"}';

// ---- helpers ------------------------------------------------------------------------------------

/** Hardhat/Anvil account 0, a publicly known key (also the Polymarket SDKs' test key). */
const AGENT_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const AGENT = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const MASTER = '0x31ca8395cf837de08b24da3f660e77761dfb974b';
const CHILD = 'ord_0mwz4ka3500001oq-1';

const json = (text: string): unknown => {
  const parsed = parseVenueJson(text);
  assert.ok(parsed !== undefined, 'valid JSON');
  return parsed;
};

/** The address that signed `digest`, recovered with @noble/curves from {r, s, v}. */
function recoverSigner(digest: string, signature: { r: string; s: string; v: number }): string {
  const sig = new secp256k1.Signature(BigInt(signature.r), BigInt(signature.s), signature.v - 27);
  const point = sig.recoverPublicKey(Buffer.from(digest.slice(2), 'hex'));
  const uncompressed = point.toBytes(false);
  return `0x${Buffer.from(keccak_256(uncompressed.slice(1)).slice(12)).toString('hex')}`;
}

/** The instruments of the docs' `meta` example, by coin. */
function docsInstruments(): Record<string, HyperliquidInstrument> {
  const list = decodeMeta(json(DOCS_META));
  assert.ok(list !== undefined);
  return Object.fromEntries(list.map((i) => [i.coin, i]));
}

/** Tick-and-lot-size's rule written independently, on the decimal text: at most 6 - szDecimals decimals, and 5 significant figures unless an integer. */
function referenceValid(price_1e9: number, szDecimals: number): boolean {
  if (!(price_1e9 > 0)) return false;
  const [whole, frac = ''] = formatScaled(price_1e9, 9).split('.') as [string, string?];
  if (frac.length > Math.max(0, 6 - szDecimals)) return false;
  if (frac === '') return true;
  const significant = whole === '0' ? frac.replace(/^0+/, '') : whole + frac;
  return significant.length <= 5;
}

const FEES = feeContextOf({ base: 'AVAX', quote: 'USDC' }, { maker_bps: 1.5, taker_bps: 4.5 });

// ---- tests --------------------------------------------------------------------------------------

describe('Hyperliquid instruments (meta)', () => {
  it("reads the docs' meta example: asset = index in the universe, lot 10^-szDecimals, delisted not trading", () => {
    const list = decodeMeta(json(DOCS_META));
    assert.deepEqual(list, [
      { symbol: 'BTC-USDC', coin: 'BTC', asset: 0, szDecimals: 5, lot_1e8: 1_000, maxLeverage: 50, onlyIsolated: false, delisted: false, trading: true },
      { symbol: 'ETH-USDC', coin: 'ETH', asset: 1, szDecimals: 4, lot_1e8: 10_000, maxLeverage: 50, onlyIsolated: false, delisted: false, trading: true },
      { symbol: 'HPOS-USDC', coin: 'HPOS', asset: 2, szDecimals: 0, lot_1e8: 100_000_000, maxLeverage: 3, onlyIsolated: true, delisted: false, trading: true },
      { symbol: 'LOOM-USDC', coin: 'LOOM', asset: 3, szDecimals: 1, lot_1e8: 10_000_000, maxLeverage: 3, onlyIsolated: true, delisted: true, trading: false },
    ]);
  });

  it('skips a coin that is not one of our symbols without shifting the asset index of the rest (recorded meta)', () => {
    const list = decodeMeta(json(CASSETTE_META))!;
    assert.equal(list.length, 27, '28 coins, kPEPE left out');
    const byCoin = new Map(list.map((i) => [i.coin, i]));
    assert.equal(byCoin.get('SUI')!.asset, 14);
    assert.equal(byCoin.has('kPEPE'), false);
    assert.equal(byCoin.get('CRV')!.asset, 16);
    assert.equal(byCoin.get('LDO')!.asset, 17);
    assert.deepEqual([byCoin.get('APT')!.asset, byCoin.get('APT')!.szDecimals, byCoin.get('APT')!.lot_1e8], [27, 2, 1_000_000]);
    assert.equal(decodeMeta({}), undefined);
    assert.equal(metaRequest(), '{"type":"meta"}');
  });

  it('maps our perp symbols to coins and back', () => {
    assert.equal(symbolOfCoin('BTC'), 'BTC-USDC');
    assert.equal(symbolOfCoin('kPEPE'), undefined);
    assert.equal(symbolOfCoin('xyz:TSLA'), undefined, 'a HIP-3 dex coin');
    assert.equal(coinOf('ETH-USDC'), 'ETH');
    assert.equal(coinOf('ETH-USDT'), undefined);
  });
});

describe('Hyperliquid tick and lot size', () => {
  it("takes the docs' valid prices and refuses their invalid ones", () => {
    // "1234.5 is valid but 1234.56 is not (too many significant figures)"
    assert.equal(isValidPrice(1_234_500_000_000, 2), true);
    assert.equal(isValidPrice(1_234_560_000_000, 2), false);
    // "0.001234 is valid, but 0.0012345 is not (more than 6 decimal places)"
    assert.equal(isValidPrice(1_234_000, 0), true);
    assert.equal(isValidPrice(1_234_500, 0), false);
    // "If szDecimals = 1, 0.01234 is valid but 0.012345 is not (more than 6 - szDecimals decimal places)"
    assert.equal(isValidPrice(12_340_000, 1), true);
    assert.equal(isValidPrice(12_345_000, 1), false);
    // "Integer prices are always allowed ... 123456 is a valid price even though 12345.6 is not."
    assert.equal(isValidPrice(123_456_000_000_000, 0), true);
    assert.equal(isValidPrice(12_345_600_000_000, 0), false);
  });

  it('rounds a limit toward the passive side, on the grid of its magnitude (hand-computed)', () => {
    // BTC (szDecimals 5): 97123.456789 has 5 integer digits, so no decimals.
    assert.equal(priceOnTick('buy', 97_123_456_789_000, 5), 97_123_000_000_000);
    assert.equal(priceOnTick('sell', 97_123_456_789_000, 5), 97_124_000_000_000);
    assert.equal(priceOnTick('sell', 99_999_500_000_000, 5), 100_000_000_000_000, 'up onto the next power of ten');
    assert.equal(priceOnTick('buy', 123_456_700_000_000, 5), 123_456_000_000_000, 'an integer price past 5 figures stays whole');
    // ETH (szDecimals 4): 4 integer digits leave 1 decimal (6 - 4 = 2 would allow 2).
    assert.equal(priceOnTick('buy', 3_456_789_000_000, 4), 3_456_700_000_000);
    assert.equal(priceOnTick('sell', 3_456_789_000_000, 4), 3_456_800_000_000);
    // szDecimals 2: 187.12345 -> 2 decimals by significant figures.
    assert.equal(priceOnTick('buy', 187_123_450_000, 2), 187_120_000_000);
    assert.equal(priceOnTick('sell', 187_123_450_000, 2), 187_130_000_000);
    // szDecimals 0: 0.123456789 -> 5 decimals; 0.0000123456 -> 6 decimals (the cap), not 9.
    assert.equal(priceOnTick('buy', 123_456_789, 0), 123_450_000);
    assert.equal(priceOnTick('sell', 123_456_789, 0), 123_460_000);
    assert.equal(priceOnTick('buy', 12_345, 0), 12_000);
    assert.equal(priceOnTick('sell', 12_345, 0), 13_000);
    assert.equal(priceOnTick('buy', 500, 0), 0, 'below the smallest price');
    assert.equal(priceOnTick('sell', 97_123_000_000_000, 5), 97_123_000_000_000, 'a valid price is kept');
    assert.equal(priceStep1e9(97_123_000_000_000, 5), 1_000_000_000);
    assert.equal(priceStep1e9(3_456_700_000_000, 4), 100_000_000);
  });

  it('lands on a valid price, never loosens the limit, and is the tightest such price (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2_000_000_000_000_000 }), fc.integer({ min: 0, max: 6 }), fc.constantFrom<'buy' | 'sell'>('buy', 'sell'), (limit, sz, side) => {
        const px = priceOnTick(side, limit, sz);
        if (side === 'buy') {
          assert.ok(px <= limit);
          if (px > 0) assert.ok(referenceValid(px, sz), `${px} at szDecimals ${sz}`);
          // The next valid price up is past the limit.
          assert.ok(priceOnTick('sell', px + 1, sz) > limit);
        } else {
          assert.ok(px >= limit && referenceValid(px, sz), `${px} at szDecimals ${sz}`);
          if (px > 1) assert.ok(priceOnTick('buy', px - 1, sz) < limit, 'the next valid price down is below the limit');
        }
        assert.equal(isValidPrice(px, sz), px > 0 && referenceValid(px, sz));
      }),
      { numRuns: 5_000 },
    );
  });

  it('cuts sizes down to the lot', () => {
    assert.equal(sizeOnLot(12_345_678, 5), 12_345_000);
    assert.equal(sizeOnLot(999, 5), 0);
    assert.equal(sizeOnLot(150_000_000, 0), 100_000_000);
    assert.equal(sizeOnLot(7, 8), 7);
  });
});

describe('Hyperliquid client order ids', () => {
  it("packs a child id as Kraken's UUID does, written as a cloid (0x + 32 hex), and reads it back", () => {
    const cloid = hyperliquidCloid(CHILD);
    assert.equal(cloid, '0x5e9ce000106d4500a9dbd8248293b100');
    assert.equal(cloid, `0x${krakenClientOrderId(CHILD)!.replace(/-/g, '')}`);
    assert.match(cloid!, CLOID);
    assert.equal(childIdOfCloid(cloid!), CHILD);
    assert.equal(childIdOfCloid(cloid!.toUpperCase().replace('0X', '0x')), CHILD, 'either case');
  });

  it("takes no foreign cloid for ours (the docs' example) and refuses ids it cannot pack", () => {
    assert.equal(childIdOfCloid('0x1234567890abcdef1234567890abcdef'), undefined);
    assert.equal(childIdOfCloid('0x00000000000000000000000000000001'), undefined);
    assert.equal(childIdOfCloid('5e9ce000106d4500a9dbd8248293b100'), undefined, 'without 0x');
    for (const bad of ['ord_0mwz4ka3500001oq-65536', 'ord_0mwz4ka3500001oq', 'x', '']) assert.equal(hyperliquidCloid(bad), undefined, bad);
  });

  it('round-trips every child id the store can make, injectively (property)', () => {
    const b36 = fc.constantFrom(...'0123456789abcdefghijklmnopqrstuvwxyz');
    const b62 = fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz');
    const child = fc.tuple(fc.string({ unit: b36, minLength: 13, maxLength: 13 }), fc.string({ unit: b62, minLength: 3, maxLength: 3 }), fc.integer({ min: 0, max: 65_535 })).map(([t, s, n]) => `ord_${t}${s}-${n}`);
    fc.assert(
      fc.property(child, child, (a, b) => {
        const ca = hyperliquidCloid(a)!;
        assert.match(ca, CLOID);
        assert.equal(childIdOfCloid(ca), a);
        assert.equal(ca === hyperliquidCloid(b), a === b);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('Hyperliquid account: signer, master, vault', () => {
  it("reads the docs' userRole answers (placeholder addresses filled in) and the recorded one", () => {
    assert.deepEqual(decodeUserRole(json('{"role":"user"}')), { role: 'user' });
    assert.deepEqual(decodeUserRole(json(`{"role":"agent", "data": {"user": "${MASTER.toUpperCase().replace('0X', '0x')}"}}`)), { role: 'agent', master: MASTER });
    assert.deepEqual(decodeUserRole(json('{"role":"vault"}')), { role: 'vault' });
    assert.deepEqual(decodeUserRole(json(`{"role":"subAccount", "data":{"master":"${MASTER}"}}`)), { role: 'subAccount', master: MASTER });
    assert.deepEqual(decodeUserRole(json('{"role":"missing"}')), { role: 'missing' });
    assert.equal(decodeUserRole(json('{"role":"agent", "data": {"user": "0x..."}}')), undefined, "the docs' placeholder is no address");
    assert.deepEqual(decodeUserRole(json('{"role":"vault"}')), { role: 'vault' }, 'test_user_role.yaml');
    assert.equal(userRoleRequest(AGENT.toUpperCase().replace('0X', '0x')), `{"type":"userRole","user":"${AGENT}"}`);
  });

  const agentRole: HyperliquidRole = { role: 'agent', master: MASTER };

  it("finds the master through the agent's role; the info requests read the master, the agent signs", () => {
    const r = accountOf({ api_key: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', api_secret: AGENT_KEY }, agentRole);
    assert.deepEqual(r, { ok: true, account: { signer: AGENT, signerKind: 'agent', master: MASTER, user: MASTER, vaultAddress: null } });
    assert.equal(evmAddress(AGENT_KEY).toLowerCase(), AGENT);
  });

  it('trades for a vault or a subaccount of the same master, reading its state', () => {
    const vault = '0xdfc24b077bc1425ad1dea75bcb6f8158e10df303';
    const creds = { api_key: AGENT, api_secret: AGENT_KEY, passphrase: vault.toUpperCase().replace('0X', '0x') };
    assert.deepEqual(accountOf(creds, agentRole, { role: 'vault' }), { ok: true, account: { signer: AGENT, signerKind: 'agent', master: MASTER, user: vault, vaultAddress: vault } });
    assert.equal(accountOf(creds, agentRole, { role: 'subAccount', master: MASTER }).ok, true);
    assert.deepEqual(accountOf(creds, agentRole, { role: 'subAccount', master: '0x8c967e73e6b15087c42a10d344cff4c96d877f1d' }), { ok: false, reason: "the subaccount is not the agent's master's" });
    assert.equal(accountOf(creds, agentRole, { role: 'user' }).ok, false);
    assert.equal(accountOf(creds, agentRole).ok, false, "the vault's role must have been read");
  });

  it('refuses a key that is not the agent\'s, an unknown agent, and keyless roles; takes an owner key, flagged', () => {
    assert.deepEqual(accountOf({ api_key: MASTER, api_secret: AGENT_KEY }, agentRole), { ok: false, reason: 'the agent key (api_secret) is not the key of the agent address (api_key)' });
    assert.equal(accountOf({ api_key: AGENT, api_secret: 'nope' }, agentRole).ok, false);
    assert.deepEqual(accountOf({ api_key: AGENT, api_secret: AGENT_KEY }, { role: 'missing' }), { ok: false, reason: 'Hyperliquid does not know this agent: never approved, expired or pruned' });
    assert.equal(accountOf({ api_key: AGENT, api_secret: AGENT_KEY }, { role: 'vault' }).ok, false);
    const owner = accountOf({ api_key: AGENT, api_secret: AGENT_KEY }, { role: 'user' });
    assert.ok(owner.ok);
    assert.deepEqual(owner.account, { signer: AGENT, signerKind: 'owner', master: AGENT, user: AGENT, vaultAddress: null });
    assert.equal(accountProbeOf(owner.account, undefined, { maker_bps: 1.5, taker_bps: 4.5 }).can_withdraw, true);
  });

  it('reads when a named agent expires from extraAgents (recorded answer)', () => {
    const body = json(CASSETTE_EXTRA_AGENTS);
    assert.equal(agentValidUntil(body, '0xC06E6617005C1888AEB8B3017FE00F82B7B84FC0'), 1_771_174_068_515);
    assert.equal(agentValidUntil(body, AGENT), null, 'an agent it does not list');
    assert.equal(agentValidUntil({}, AGENT), undefined);
  });

  it("reads the account's own rates from userFees (docs example): add is maker, cross is taker", () => {
    const fees = decodeUserFees(json(DOCS_USER_FEES));
    assert.deepEqual(fees, { maker_bps: 1.05, taker_bps: 3.15, add: '0.000105', cross: '0.000315' });
    assert.deepEqual(decodeUserFees({ userAddRate: '-0.00001', userCrossRate: '0.00045' }), { maker_bps: -0.1, taker_bps: 4.5, add: '-0.00001', cross: '0.00045' }, 'a maker rebate');
    assert.equal(decodeUserFees({ userAddRate: '0.000105' }), undefined);
    const account = { signer: AGENT, signerKind: 'agent' as const, master: MASTER, user: MASTER, vaultAddress: null };
    assert.deepEqual(accountProbeOf(account, fees, { maker_bps: 1.5, taker_bps: 4.5 }), { tier: 'add 0.000105 / cross 0.000315', maker_bps: 1.05, taker_bps: 3.15, can_trade: true, can_withdraw: false });
    assert.deepEqual(accountProbeOf(account, undefined, { maker_bps: 1.5, taker_bps: 4.5 }), { tier: 'base schedule', maker_bps: 1.5, taker_bps: 4.5, can_trade: true, can_withdraw: false });
  });
});

describe('Hyperliquid balances and positions (clearinghouseState)', () => {
  it("reads the docs' example: USDC free = withdrawable, locked = the rest of the equity; the position in engine units", () => {
    const state = decodeClearinghouseState(json(DOCS_CLEARINGHOUSE_STATE))!;
    assert.equal(state.account_value_1e8, 1_310_948_232_800n);
    assert.equal(state.withdrawable_1e8, 1_310_451_450_200n);
    assert.equal(state.margin_used_1e8, 496_782_600n);
    assert.equal(state.time_ms, 1_708_622_398_623);
    assert.deepEqual(state.positions, [
      {
        coin: 'ETH',
        symbol: 'ETH-USDC',
        qty_1e8: 3_350_000,
        entry_1e9: 2_986_300_000_000,
        position_value_1e9: 100_027_650_000,
        unrealized_pnl_1e9: -13_400_000,
        margin_used_1e9: 4_967_826_000,
        leverage: { type: 'isolated', value: 20 },
        liquidation_1e9: 2_866_269_365_290,
        max_leverage: 50,
        cum_funding_all_time_1e9: 514_085_417_000,
        cum_funding_since_open_1e9: 0,
      },
    ]);
    // Cash = equity less unrealized PnL: 13109.482328 - (-0.0134) = 13109.495728; withdrawable
    // 13104.514502 is free, 4.981226 held (the perp row marks the -0.0134 itself).
    assert.deepEqual(balancesOf(state), [{ asset: 'USDC', free_1e8: 1_310_451_450_200n, locked_1e8: 498_122_600n }]);
    assert.equal(clearinghouseStateRequest(MASTER), `{"type":"clearinghouseState","user":"${MASTER}"}`);
  });

  it('reads a recorded answer: short sizes negative, a null liquidation price, no cumFunding, no time', () => {
    const state = decodeClearinghouseState(json(CASSETTE_USER_STATE_FIRST_2))!;
    const [btc, eth] = state.positions;
    assert.deepEqual([btc!.qty_1e8, btc!.entry_1e9, btc!.liquidation_1e9, btc!.margin_used_1e9, btc!.unrealized_pnl_1e9], [-785_000, 26_951_000_000_000, 173_198_695_923_570, 10_582_271_000, -80_070_000]);
    assert.deepEqual([btc!.leverage, btc!.cum_funding_since_open_1e9, btc!.max_leverage], [{ type: 'cross', value: 20 }, null, null]);
    assert.equal(eth!.liquidation_1e9, null);
    assert.equal(state.time_ms, null);
    // 1182.312496 - (-0.08007 + 0.118726) = 1182.27384 cash; 1010.57173 withdrawable, 172.10211 held.
    assert.deepEqual(balancesOf(state), [{ asset: 'USDC', free_1e8: 101_057_173_000n, locked_1e8: 17_170_211_000n }]);
  });

  it('rounds balances down past 8 places, refuses unreadable answers, and reads spot balances (unified accounts)', () => {
    const state = decodeClearinghouseState({ marginSummary: { accountValue: '1.000000019', totalMarginUsed: '0.000000001' }, withdrawable: '0.999999999', assetPositions: [] })!;
    assert.deepEqual([state.account_value_1e8, state.withdrawable_1e8, state.margin_used_1e8], [100_000_001n, 99_999_999n, 1n]);
    assert.equal(decodeClearinghouseState({ marginSummary: {}, withdrawable: '1', assetPositions: [] }), undefined);
    assert.equal(decodeClearinghouseState({ ...(json(DOCS_CLEARINGHOUSE_STATE) as object), assetPositions: [{ position: { coin: 'ETH', szi: 'x' } }] }), undefined);
    // The spot page's `spotClearinghouseState` shape: {balances: [{coin, token, hold, total, entryNtl}]}.
    assert.deepEqual(decodeSpotBalances({ balances: [{ coin: 'USDC', token: 0, hold: '0.0', total: '14.625485', entryNtl: '0.0' }, { coin: 'PURR', token: 1, hold: '500', total: '2000', entryNtl: '1234.56' }] }), [
      { asset: 'USDC', free_1e8: 1_462_548_500n, locked_1e8: 0n },
      { asset: 'PURR', free_1e8: 150_000_000_000n, locked_1e8: 50_000_000_000n },
    ]);
  });
});

describe('Hyperliquid orders (orderStatus, open orders)', () => {
  it("reads the docs' orderStatus answer and its Missing Order", () => {
    assert.deepEqual(decodeOrderStatus(json(DOCS_ORDER_STATUS)), {
      found: true,
      order: { oid: '1', cloid: null, child_id: null, coin: 'ETH', side: 'sell', limit_1e9: 2_412_700_000_000, qty_1e8: 760_000, remaining_1e8: 0, filled_1e8: 760_000, status: 'filled', state: 'filled', resting_1e8: 0, timestamp_ms: 1_724_361_546_645, status_ms: 1_724_361_546_645 },
    });
    assert.deepEqual(decodeOrderStatus(json(DOCS_ORDER_MISSING)), { found: false });
    assert.equal(decodeOrderStatus({ status: 'order', order: { order: {}, status: 'open' } }), undefined);
  });

  it('reads one of our resting orders: child id from the cloid, what rests is what is left', () => {
    const cloid = hyperliquidCloid(CHILD)!.toUpperCase().replace('0X', '0x');
    const body = json(`{"status":"order","order":{"order":{"coin":"BTC","side":"B","limitPx":"97123.0","sz":"0.0015","oid":18446744073709551615,"timestamp":1,"origSz":"0.002","cloid":"${cloid}"},"status":"open","statusTimestamp":2}}`);
    const r = decodeOrderStatus(body);
    assert.ok(r?.found === true);
    assert.deepEqual([r.order.oid, r.order.cloid, r.order.child_id, r.order.side, r.order.qty_1e8, r.order.remaining_1e8, r.order.filled_1e8, r.order.resting_1e8], ['18446744073709551615', hyperliquidCloid(CHILD), CHILD, 'buy', 200_000, 150_000, 50_000, 150_000]);
    assert.deepEqual(legReportOf(r.order, []), { ok: true, reason: null, fills: [], resting_qty_1e8: 150_000 });
    const rejected = decodeOrderStatus({ status: 'order', order: { order: { coin: 'BTC', side: 'B', limitPx: '1.0', sz: '1.0', origSz: '1.0', oid: 5 }, status: 'perpMarginRejected' } });
    assert.ok(rejected?.found === true);
    assert.deepEqual(legReportOf(rejected.order, []), { ok: false, reason: 'hyperliquid: perpMarginRejected', fills: [], resting_qty_1e8: 0 });
  });

  it("classes the docs' statuses: working, filled, cancelled, rejected, and an IOC that matched nothing", () => {
    assert.equal(orderStateOf('open'), 'working');
    assert.equal(orderStateOf('triggered'), 'working');
    assert.equal(orderStateOf('filled'), 'filled');
    for (const s of ['canceled', 'marginCanceled', 'vaultWithdrawalCanceled', 'openInterestCapCanceled', 'selfTradeCanceled', 'reduceOnlyCanceled', 'siblingFilledCanceled', 'delistedCanceled', 'liquidatedCanceled', 'scheduledCancel']) assert.equal(orderStateOf(s), 'cancelled', s);
    for (const s of ['rejected', 'tickRejected', 'minTradeNtlRejected', 'perpMarginRejected', 'reduceOnlyRejected', 'badAloPxRejected', 'badTriggerPxRejected', 'marketOrderNoLiquidityRejected', 'oracleRejected', 'perpMaxPositionRejected']) assert.equal(orderStateOf(s), 'rejected', s);
    assert.equal(orderStateOf('iocCancelRejected'), 'no-fill');
    assert.equal(orderStateOf('someFutureRejected'), 'rejected', 'by its suffix');
    assert.equal(orderStateOf('mystery'), undefined);
  });

  it("reads open orders: the docs' openOrders and frontendOpenOrders examples and a recorded answer", () => {
    const [plain] = decodeOpenOrders(json(DOCS_OPEN_ORDERS))!;
    assert.deepEqual([plain!.oid, plain!.side, plain!.limit_1e9, plain!.qty_1e8, plain!.resting_1e8, plain!.child_id], ['91490942', 'sell', 29_792_000_000_000, 0, 0, null]);
    const [frontend] = decodeOpenOrders(json(DOCS_FRONTEND_OPEN_ORDERS))!;
    assert.deepEqual([frontend!.qty_1e8, frontend!.resting_1e8, frontend!.state], [500_000_000, 500_000_000, 'working']);
    const recorded = decodeOpenOrders(json(CASSETTE_FRONTEND_OPEN_ORDERS))!;
    assert.deepEqual(recorded.map((o) => [o.oid, o.side, o.limit_1e9, o.qty_1e8, o.child_id]), [
      ['3184595907', 'sell', 9_203_700_000, 1_250_000_000, null],
      ['3184595906', 'sell', 9_195_400_000, 1_250_000_000, null],
      ['3184595905', 'buy', 10_000_000_000, 1_250_000_000, null],
    ]);
    assert.equal(decodeOpenOrders({}), undefined);
  });

  it('builds the lookups: by cloid (lowercase) or by u64 oid (a bare integer past 2^53)', () => {
    assert.equal(orderStatusRequest(MASTER, { cloid: '0x5E9CE000106D4500A9DBD8248293B100' }), `{"type":"orderStatus","user":"${MASTER}","oid":"0x5e9ce000106d4500a9dbd8248293b100"}`);
    assert.equal(orderStatusRequest(MASTER, { oid: '18446744073709551615' }), `{"type":"orderStatus","user":"${MASTER}","oid":18446744073709551615}`);
    assert.equal(orderStatusRequest(MASTER, { oid: '77738308' }), `{"type":"orderStatus","user":"${MASTER}","oid":77738308}`);
  });
});

describe('Hyperliquid fills (userFills, userFillsByTime)', () => {
  it("reads the docs' example: tid as the trade id, crossed = taker, the USDC fee rounded up; oldest first", () => {
    const fills = decodeUserFills(json(DOCS_USER_FILLS), FEES);
    assert.deepEqual(fills, [
      { price_1e9: 18_435_000_000, qty_1e8: 9_353_000_000, trade_id: '118906512037719', ts_ns: 1_681_222_254_710 * 1_000_000, fee_1e9: 10_000_000, is_maker: true },
      { price_1e9: 18_620_413_810, qty_1e8: 4_384_000_000, trade_id: '907359904431134', ts_ns: 1_735_969_713_869 * 1_000_000, fee_1e9: 304_521_000, is_maker: false },
    ]);
    assert.deepEqual(decodeUserFills(json(DOCS_USER_FILLS), FEES, { oid: '90542681' })!.map((f) => f.trade_id), ['118906512037719'], "one order's fills");
    const cloid = hyperliquidCloid(CHILD)!;
    const withCloid = `[{"coin":"BTC","px":"97123.0","sz":"0.001","side":"B","time":9,"oid":3,"crossed":true,"fee":"0.04","feeToken":"USDC","tid":4,"cloid":"${cloid}"},{"coin":"BTC","px":"97123.0","sz":"0.001","side":"B","time":9,"oid":5,"crossed":true,"fee":"0.04","feeToken":"USDC","tid":6}]`;
    assert.deepEqual(decodeUserFills(json(withCloid), FEES, { cloid: cloid.toUpperCase().replace('0X', '0x') })!.map((f) => f.trade_id), ['4'], 'by our cloid');
  });

  it('rounds fees against us, prices a fee in another token by the rate, and keeps u64 trade ids exact', () => {
    const row = (fee: string, feeToken = 'USDC', tid = '1') => `{"coin":"BTC","px":"100000.0","sz":"0.001","side":"B","time":5,"oid":7,"crossed":true,"fee":"${fee}","feeToken":"${feeToken}","tid":${tid}}`;
    assert.equal(decodeUserFills(json(`[${row('0.0000001234')}]`), FEES)![0]!.fee_1e9, 124);
    assert.equal(decodeUserFills(json(`[${row('-0.0000001234')}]`), FEES)![0]!.fee_1e9, -123, 'a rebate rounds toward +inf too');
    const hype = decodeUserFills(json(`[${row('0.0021', 'HYPE')}]`), FEES)![0]!;
    assert.deepEqual(hype.commission, { asset: 'HYPE', qty_1e8: 210_000 });
    assert.equal(hype.fee_1e9, FEES.fallbackFee(100_000_000_000_000, 100_000, false));
    const big = `[${row('0.045', 'USDC', '18446744073709551614')}]`;
    assert.equal(decodeUserFills(json(big), FEES)![0]!.trade_id, '18446744073709551614');
    assert.notEqual(String((JSON.parse(big) as { tid: number }[])[0]!.tid), '18446744073709551614', 'plain JSON.parse would change it');
    assert.equal(decodeUserFills(json('[{"coin":"SUI","crossed":true,"fee":"0.0","oid":189324432,"px":"1.3189","side":"A","sz":"142.7","time":1683245884863}]'), FEES), undefined, 'a 2023-era row without tid');
    assert.equal(userFillsByTimeRequest(MASTER, 1, 2), `{"type":"userFillsByTime","user":"${MASTER}","startTime":1,"endTime":2,"aggregateByTime":false}`);
  });
});

describe('Hyperliquid funding (metaAndAssetCtxs, fundingHistory)', () => {
  it("reads the docs' asset contexts matched to the universe by position, and makes FundingInfo", () => {
    const { instruments, ctxs } = decodeMetaAndAssetCtxs(json(DOCS_META_AND_ASSET_CTXS))!;
    assert.equal(instruments.length, 3);
    assert.deepEqual(ctxs[0], { coin: 'BTC', symbol: 'BTC-USDC', asset: 0, mark_1e9: 14_316_100_000, oracle_1e9: 14_320_000_000, mid_1e9: 14_314_000_000, funding_1e9: 12_500, funding_bps: 0.125, premium_bps: 3.1774, open_interest_1e8: 68_811_000_000 });
    assert.deepEqual(ctxs.map((c) => c.premium_bps), [3.1774, 2.8119, 3.3694]);
    const now = 1_700_000_123_456;
    assert.deepEqual(fundingInfoOf(ctxs[0]!, now), { symbol: 'BTC-USDC', rate_bps: 0.125, rate_1e9: 12_500, interval_hours: 1, next_funding_ns: 1_700_002_800_000 * 1_000_000, premium_bps: 3.1774, ts_ns: now * 1_000_000 });
  });

  it("takes the mark's premium over the oracle when the venue has none (the HIP-3 example's TSLA prices)", () => {
    const body = [{ universe: [{ name: 'TSLA', szDecimals: 3, maxLeverage: 10 }] }, [{ funding: '0.0', openInterest: '12.208', premium: null, oraclePx: '450.78', markPx: '465.13', midPx: '464.92', impactPxs: null }]];
    const { ctxs } = decodeMetaAndAssetCtxs(body)!;
    // (465.13 - 450.78) / 450.78 = 0.03183371... -> 318.3371 bps
    assert.equal(ctxs[0]!.premium_bps, null);
    assert.equal(fundingInfoOf(ctxs[0]!, 0).premium_bps, 318.3371);
  });

  it("reads the docs' and a recorded funding history: rates exact, at the whole hour they settled", () => {
    assert.deepEqual(decodeFundingHistory(json(DOCS_FUNDING_HISTORY)), [{ coin: 'ETH', time_ms: 1_683_849_600_076, instant_ms: 1_683_849_600_000, rate_1e9: -221_960, rate_bps: -2.2196, premium_bps: -5.2196 }]);
    const rows = decodeFundingHistory(json(CASSETTE_FUNDING_HISTORY_FIRST_3))!;
    assert.deepEqual(rows.map((r) => [r.instant_ms, r.rate_1e9, r.rate_bps]), [
      [1_683_849_600_000, -613_340, -6.1334],
      [1_683_878_400_000, -745_030, -7.4503],
      [1_683_907_200_000, -817_980, -8.1798],
    ]);
    const marks = new Map([
      [1_683_849_600_000, 27_000_000_000_000],
      [1_683_907_200_000, 26_800_000_000_000],
    ]);
    assert.deepEqual(fundingPointsOf(rows, (t) => marks.get(t)), [
      { ts_ns: 1_683_849_600_000 * 1_000_000, rate_bps: -6.1334, rate_1e9: -613_340, mark_1e9: 27_000_000_000_000 },
      { ts_ns: 1_683_907_200_000 * 1_000_000, rate_bps: -8.1798, rate_1e9: -817_980, mark_1e9: 26_800_000_000_000 },
    ], 'an hour without a price is left out');
    assert.equal(fundingHistoryRequest('ETH', 1_683_849_600_000), '{"type":"fundingHistory","coin":"ETH","startTime":1683849600000}');
  });

  it('reads hourly closes by the hour each candle ends at (recorded kPEPE candles)', () => {
    assert.deepEqual([...decodeHourlyCloses(json(CASSETTE_CANDLES_FIRST_2))!], [
      [1_684_702_800_000, 1_604_000],
      [1_684_706_400_000, 1_591_000],
    ]);
    assert.equal(hourlyCandlesRequest('BTC', 1, 2), '{"type":"candleSnapshot","req":{"coin":"BTC","interval":"1h","startTime":1,"endTime":2}}');
  });
});

describe('Hyperliquid exchange actions', () => {
  const { BTC, LOOM } = docsInstruments();
  const NONCE = 1_700_000_000_000;

  it("a child's terms: the size to the lot, the limit onto the price rule, refused below $10 or unpriced", () => {
    assert.deepEqual(orderTerms(BTC!, 'buy', 123_456, 97_123_456_789_000), { ok: true, terms: { sz_1e8: 123_000, px_1e9: 97_123_000_000_000 } });
    assert.deepEqual(orderTerms(BTC!, 'sell', 123_456, 97_123_456_789_000), { ok: true, terms: { sz_1e8: 123_000, px_1e9: 97_124_000_000_000 } });
    assert.equal(orderTerms(BTC!, 'buy', 123_456, null).ok, false);
    assert.equal(orderTerms(BTC!, 'buy', 999, 97_123_000_000_000).ok, false, 'below the lot');
    // 0.0001 BTC at 97123 is $9.71.
    assert.deepEqual(orderTerms(BTC!, 'buy', 10_000, 97_123_000_000_000), { ok: false, reason: "below Hyperliquid's minimum order value for BTC ($10)" });
    assert.equal(MIN_ORDER_VALUE_1e9, 10_000_000_000);
    assert.deepEqual(orderTerms(LOOM!, 'buy', 100_000_000, 1_000_000_000), { ok: false, reason: 'LOOM is delisted on Hyperliquid' });
  });

  it('builds the order action in the venue key order, signed by the agent over the action, the nonce and expiresAfter', () => {
    const terms = { sz_1e8: 123_000, px_1e9: 97_123_000_000_000 };
    const action = orderAction(BTC!, CHILD, 'buy', terms, 'ioc')!;
    assert.equal(JSON.stringify(action), '{"type":"order","orders":[{"a":0,"b":true,"p":"97123","s":"0.00123","r":false,"t":{"limit":{"tif":"Ioc"}},"c":"0x5e9ce000106d4500a9dbd8248293b100"}],"grouping":"na"}');
    assert.equal(JSON.stringify(orderAction(BTC!, CHILD, 'sell', terms, 'gtc')!.orders[0]!.t), '{"limit":{"tif":"Gtc"}}');
    assert.equal(orderAction(BTC!, 'not-a-child', 'buy', terms, 'ioc'), undefined);

    const expiresAfter = NONCE + ACCEPT_WINDOW_MS;
    const body = JSON.parse(exchangeRequestBody(action, { privateKey: AGENT_KEY, nonce: NONCE, isMainnet: true, expiresAfter })) as { action: unknown; nonce: number; signature: { r: string; s: string; v: number }; expiresAfter: number };
    assert.deepEqual(Object.keys(body), ['action', 'nonce', 'signature', 'expiresAfter']);
    assert.deepEqual(body.action, action);
    assert.equal(body.nonce, NONCE);
    assert.equal(body.expiresAfter, 1_700_000_005_000);
    assert.match(body.signature.r, /^0x[0-9a-f]{64}$/);
    const digest = (vault: string | null, expires: number | null, mainnet = true) => hyperliquidL1Digest(hyperliquidActionHash(action, NONCE, vault, expires), mainnet);
    assert.equal(recoverSigner(digest(null, expiresAfter), body.signature), AGENT);
    assert.notEqual(recoverSigner(digest(null, null), body.signature), AGENT, 'expiresAfter is part of what is signed');
    assert.notEqual(recoverSigner(digest(null, expiresAfter, false), body.signature), AGENT, 'a mainnet signature is not a testnet one');
  });

  it('sends and hashes the vault address, lowercase, when trading for a vault', () => {
    const action = orderAction(BTC!, CHILD, 'buy', { sz_1e8: 123_000, px_1e9: 97_123_000_000_000 }, 'gtc')!;
    const vault = '0xAbCdEf0000000000000000000000000000000123';
    const body = JSON.parse(exchangeRequestBody(action, { privateKey: AGENT_KEY, nonce: NONCE, isMainnet: true, vaultAddress: vault })) as { signature: { r: string; s: string; v: number }; vaultAddress: string };
    assert.deepEqual(Object.keys(body), ['action', 'nonce', 'signature', 'vaultAddress']);
    assert.equal(body.vaultAddress, vault.toLowerCase());
    assert.equal(recoverSigner(hyperliquidL1Digest(hyperliquidActionHash(action, NONCE, vault), true), body.signature), AGENT);
    assert.notEqual(recoverSigner(hyperliquidL1Digest(hyperliquidActionHash(action, NONCE, null), true), body.signature), AGENT);
  });

  it('builds cancels by cloid and by oid (a u64 past 2^53 sent and hashed as an integer), each signed', () => {
    const byCloid = cancelByCloidAction(0, '0x5E9CE000106D4500A9DBD8248293B100');
    assert.equal(JSON.stringify(byCloid), '{"type":"cancelByCloid","cancels":[{"asset":0,"cloid":"0x5e9ce000106d4500a9dbd8248293b100"}]}');
    const b1 = JSON.parse(exchangeRequestBody(byCloid, { privateKey: AGENT_KEY, nonce: NONCE, isMainnet: true })) as { signature: { r: string; s: string; v: number } };
    assert.equal(recoverSigner(hyperliquidL1Digest(hyperliquidActionHash(byCloid, NONCE), true), b1.signature), AGENT);
    assert.throws(() => cancelByCloidAction(0, '0x123'), /cloid/);

    assert.deepEqual(cancelAction(0, '77738308'), { type: 'cancel', cancels: [{ a: 0, o: 77_738_308 }] });
    const big = cancelAction(3, '18446744073709551615');
    assert.equal(big.cancels[0]!.o, 18_446_744_073_709_551_615n);
    assert.ok(Buffer.from(hyperliquidMsgpack(big)).toString('hex').includes('a16fcfffffffffffffffff'), 'o: uint64 0xffffffffffffffff');
    const text = exchangeRequestBody(big, { privateKey: AGENT_KEY, nonce: NONCE, isMainnet: true });
    assert.ok(text.startsWith('{"action":{"type":"cancel","cancels":[{"a":3,"o":18446744073709551615}]},"nonce":1700000000000,'), text);
    const b2 = JSON.parse(text) as { signature: { r: string; s: string; v: number } };
    assert.equal(recoverSigner(hyperliquidL1Digest(hyperliquidActionHash(big, NONCE), true), b2.signature), AGENT);
    assert.throws(() => cancelAction(0, '1.5'), /u64/);
  });

  it("schedules the dead man's switch at least 5 s ahead, moves it on, or removes it", () => {
    assert.deepEqual(scheduleCancelAction(NONCE + 5_000, NONCE), { type: 'scheduleCancel', time: 1_700_000_005_000 });
    assert.throws(() => scheduleCancelAction(NONCE + 4_999, NONCE), /5 s/);
    assert.deepEqual(scheduleCancelAction(null, NONCE), { type: 'scheduleCancel' });
    const action = scheduleCancelAction(NONCE + 60_000, NONCE);
    const body = JSON.parse(exchangeRequestBody(action, { privateKey: AGENT_KEY, nonce: NONCE, isMainnet: false })) as { action: unknown; signature: { r: string; s: string; v: number } };
    assert.deepEqual(body.action, { type: 'scheduleCancel', time: 1_700_000_060_000 });
    assert.equal(recoverSigner(hyperliquidL1Digest(hyperliquidActionHash(action, NONCE), false), body.signature), AGENT);
  });
});

describe('Hyperliquid exchange answers', () => {
  it("reads the docs' order answers: resting, an error, filled", () => {
    const resting = decodeOrderAnswer(json(DOCS_ORDER_RESTING));
    assert.deepEqual(resting, { ok: true, statuses: [{ kind: 'resting', oid: '77738308', cloid: null }] });
    assert.equal(settledReportOf(resting.ok ? resting.statuses[0]! : { kind: 'pending', status: '' }), undefined, 'its fills and what rests are looked up');
    const error = decodeOrderAnswer(json(DOCS_ORDER_ERROR));
    assert.deepEqual(error, { ok: true, statuses: [{ kind: 'error', error: { kind: 'refused', reason: 'hyperliquid: Order must have minimum value of $10.' } }] });
    assert.deepEqual(settledReportOf(error.ok ? error.statuses[0]! : { kind: 'pending', status: '' }), { ok: false, reason: 'hyperliquid: Order must have minimum value of $10.', fills: [], resting_qty_1e8: 0 });
    assert.deepEqual(decodeOrderAnswer(json(DOCS_ORDER_FILLED)), { ok: true, statuses: [{ kind: 'filled', oid: '77747314', cloid: null, total_1e8: 2_000_000, avg_1e9: 1_891_400_000_000 }] });
    const withCloid = decodeOrderAnswer(json(`{"status":"ok","response":{"type":"order","data":{"statuses":[{"resting":{"oid":1,"cloid":"${hyperliquidCloid(CHILD)}"}}]}}}`));
    assert.deepEqual(withCloid, { ok: true, statuses: [{ kind: 'resting', oid: '1', cloid: hyperliquidCloid(CHILD) }] });
  });

  it('an IOC that matched nothing is a report without fills; a status not yet settled is looked up', () => {
    // error-responses' IocCancel string, with the " asset=N" tail a public client recorded on a cancel error from the venue.
    const ioc = decodeOrderAnswer(json('{"status":"ok","response":{"type":"order","data":{"statuses":[{"error":"Order could not immediately match against any resting orders. asset=0"}]}}}'));
    assert.ok(ioc.ok);
    assert.deepEqual(settledReportOf(ioc.statuses[0]!), { ok: true, reason: null, fills: [], resting_qty_1e8: 0 });
    const margin = decodeOrderAnswer(json('{"status":"ok","response":{"type":"order","data":{"statuses":[{"error":"Insufficient margin to place order."}]}}}'));
    assert.deepEqual(margin.ok && margin.statuses[0], { kind: 'error', error: { kind: 'funds', reason: 'hyperliquid: Insufficient margin to place order.' } });
    const waiting = decodeOrderAnswer(json('{"status":"ok","response":{"type":"order","data":{"statuses":["waitingForFill"]}}}'));
    assert.deepEqual(waiting, { ok: true, statuses: [{ kind: 'pending', status: 'waitingForFill' }] });
    assert.equal(settledReportOf({ kind: 'pending', status: 'waitingForFill' }), undefined);
  });

  it('a batch-wide error is every order\'s; a mismatched or unreadable answer leaves the fate unknown', () => {
    const batch = decodeOrderAnswer(json(DOCS_ORDER_ERROR), 2);
    assert.ok(batch.ok);
    assert.equal(batch.statuses.length, 2);
    assert.deepEqual(batch.statuses[1], batch.statuses[0]);
    assert.equal(decodeOrderAnswer(json('{"status":"ok","response":{"type":"order","data":{"statuses":[{},{},{}]}}}'), 2).ok, false);
    assert.deepEqual(decodeOrderAnswer({}), { ok: false, kind: 'fate-unknown', reason: 'hyperliquid: an answer that cannot be read' });
    assert.deepEqual(decodeOrderAnswer(parseVenueJson('<html>502</html>')), { ok: false, kind: 'fate-unknown', reason: 'hyperliquid: an answer that cannot be read' });
    const unreadable = decodeOrderAnswer(json('{"status":"ok","response":{"type":"order","data":{"statuses":[{"surprise":1}]}}}'));
    assert.deepEqual(unreadable.ok && unreadable.statuses[0], { kind: 'error', error: { kind: 'fate-unknown', reason: 'hyperliquid: an order status that cannot be read' } });
    assert.equal(settledReportOf(unreadable.ok ? unreadable.statuses[0]! : { kind: 'pending', status: '' }), undefined);
  });

  it('a whole action refused ("status":"err", HTTP 200) says why (bodies as recorded from the venue by public clients, not the docs)', () => {
    assert.deepEqual(decodeOrderAnswer(json('{"status":"err","response":"Unable to recover signer."}')), { ok: false, kind: 'auth', reason: 'hyperliquid: Unable to recover signer.' });
    const limit = 'Too many cumulative requests sent (97460 > 97456) for cumulative volume traded $87457.46. Place taker orders to free up 1 request per USDC traded.';
    assert.deepEqual(decodeOrderAnswer({ status: 'err', response: limit }), { ok: false, kind: 'rate-limit', reason: `hyperliquid: ${limit}` });
    assert.equal(errorKindOf('User or API Wallet 0x0000000000000000000000000000000000000001 does not exist.'), 'auth');
    assert.equal(errorKindOf('Price must be divisible by tick size.'), 'refused');
    assert.equal(errorKindOf('Order price cannot be more than 80% away from the reference price'), 'refused');
  });

  it("reads the docs' cancel answers and the schedule-cancel answer", () => {
    assert.deepEqual(decodeCancelAnswer(json(DOCS_CANCEL_OK)), { ok: true, statuses: [{ ok: true }] });
    assert.deepEqual(decodeCancelAnswer(json(DOCS_CANCEL_ERROR)), { ok: true, statuses: [{ ok: false, kind: 'unknown-order', reason: 'hyperliquid: Order was never placed, already canceled, or filled.' }] });
    assert.equal(decodeCancelAnswer(json(DOCS_ORDER_RESTING)).ok, false, 'not a cancel answer');
    assert.deepEqual(decodeScheduleCancelAnswer(json('{"status":"ok","response":{"type":"default"}}')), { ok: true });
    assert.deepEqual(decodeScheduleCancelAnswer({ status: 'err', response: 'Cannot set scheduled cancel time until enough volume traded' }), { ok: false, kind: 'refused', reason: 'hyperliquid: Cannot set scheduled cancel time until enough volume traded' });
  });

  it('reads HTTP statuses: 422 and other 4xx refused, 429 the IP limit, 5xx fate unknown', () => {
    assert.equal(statusKind(200), undefined);
    assert.equal(statusKind(422), 'refused');
    assert.equal(statusKind(429), 'rate-limit');
    assert.equal(statusKind(502), 'fate-unknown');
  });
});

describe('Hyperliquid rate limits', () => {
  it('weighs info requests 2, 20 or 60, plus one per 20 (or 60) items of the history requests', () => {
    for (const t of ['l2Book', 'allMids', 'clearinghouseState', 'orderStatus', 'spotClearinghouseState', 'exchangeStatus']) assert.equal(infoWeight(t), 2, t);
    assert.equal(infoWeight('userRole'), 60);
    assert.equal(infoWeight('meta'), 20);
    assert.equal(infoWeight('frontendOpenOrders'), 20);
    assert.equal(infoWeight('userFillsByTime', 45), 23);
    assert.equal(infoWeight('fundingHistory', 500), 45);
    assert.equal(infoWeight('candleSnapshot', 120), 22);
  });

  it('weighs exchange actions 1 + floor(batch / 40); cancels keep headroom past the address limit', () => {
    assert.equal(exchangeWeight(), 1);
    assert.equal(exchangeWeight(79), 2);
    assert.equal(exchangeWeight(80), 3);
    assert.equal(cancelCap(10_000), 20_000);
    assert.equal(cancelCap(200_000), 300_000);
  });
});

describe('Hyperliquid l2Book: decoding', () => {
  it("reads the docs' l2Book example exactly, and a recorded DYDX book of 20 levels a side", () => {
    assert.deepEqual(decodeL2Book(json(DOCS_L2_BOOK)), { coin: 'BTC', time_ms: 1_754_450_974_231, bids: [113_377_000_000_000, 766_990_000, 113_376_000_000_000, 413_714_000], asks: [113_397_000_000_000, 11_543_000] });
    const dydx = decodeL2Book(json(CASSETTE_L2))!;
    assert.deepEqual([dydx.coin, dydx.time_ms, dydx.bids.length, dydx.asks.length], ['DYDX', 1_689_630_203_930, 40, 40]);
    assert.deepEqual([dydx.bids.slice(0, 2), dydx.bids.slice(-2), dydx.asks.slice(0, 2)], [
      [2_111_000_000, 13_440_000_000],
      [1_810_000_000, 239_700_000_000],
      [2_112_400_000, 35_230_000_000],
    ]);
    assert.equal(decodeL2Book({ coin: 'BTC', time: 1, levels: [[{ px: '1e5', sz: '1', n: 1 }], []] }), undefined, 'a price with an exponent');
    assert.equal(decodeL2Book({ coin: 'BTC', time: 1, levels: [[{ px: '1.0000000001', sz: '1', n: 1 }], []] }), undefined, 'a digit past our scale');
  });

  it('reads the WebSocket frames: l2Book pushes, pong, subscription answers, errors, the greeting', () => {
    assert.equal(l2BookSubscription('subscribe', 'BTC'), '{"method":"subscribe","subscription":{"type":"l2Book","coin":"BTC"}}');
    assert.equal(PING, '{"method":"ping"}');
    assert.deepEqual(decodeWsFrame(`{"channel":"l2Book","data":${DOCS_L2_BOOK}}`), { kind: 'l2Book', coin: 'BTC', data: decodeL2Book(json(DOCS_L2_BOOK)) });
    assert.deepEqual(decodeWsFrame('{"channel":"l2Book","data":{"coin":"ETH","time":1,"levels":[[{"px":"abc","sz":"1","n":1}],[]]}}'), { kind: 'l2Book', coin: 'ETH', data: null });
    assert.deepEqual(decodeWsFrame('{"channel":"pong"}'), { kind: 'pong' });
    assert.deepEqual(decodeWsFrame('{"channel":"subscriptionResponse","data":{"method":"subscribe","subscription":{"type":"l2Book","coin":"BTC"}}}'), { kind: 'subscriptionResponse', method: 'subscribe', type: 'l2Book', coin: 'BTC' });
    assert.deepEqual(decodeWsFrame('{"channel":"error","data":"Invalid subscription"}'), { kind: 'error', message: 'Invalid subscription' });
    assert.deepEqual(decodeWsFrame('Websocket connection established.'), { kind: 'greeting' });
    assert.equal(decodeWsFrame('{"channel":"trades","data":[]}'), undefined);
    assert.equal(decodeWsFrame('not json'), undefined);
  });
});

describe('Hyperliquid l2Book: the sync', () => {
  const book = (coin: string, time_ms: number, bids: number[], asks: number[]): HyperliquidBookData => ({ coin, time_ms, bids, asks });

  it("makes the book whole on the first push (the docs' example), then publishes only what changed", () => {
    const l2 = new L2Book();
    const changes: number[] = [];
    const sync = new HyperliquidBookSync(l2, changes);
    assert.equal(sync.synced, false);
    const first = decodeL2Book(json(DOCS_L2_BOOK))!;
    assert.equal(sync.onBook(first), 'synced');
    assert.equal(sync.synced, true);
    assert.deepEqual(changes, [], 'a sync publishes the whole book, not its levels');
    assert.deepEqual(l2.flat(Side.BID, 20), first.bids);
    assert.deepEqual(l2.flat(Side.ASK, 20), first.asks);

    // Half a second later: 113376 gone, 113377 smaller, 113375 new; the ask side gains 113398.
    const next = book('BTC', first.time_ms + 500, [113_377_000_000_000, 700_000_000, 113_375_000_000_000, 150_000_000], [113_397_000_000_000, 11_543_000, 113_398_000_000_000, 200_000_000]);
    assert.equal(sync.onBook(next), 'applied');
    assert.deepEqual(changes, [Side.BID, 113_376_000_000_000, 0, Side.BID, 113_377_000_000_000, 700_000_000, Side.BID, 113_375_000_000_000, 150_000_000, Side.ASK, 113_398_000_000_000, 200_000_000]);
    assert.deepEqual(l2.flat(Side.BID, 20), next.bids);
    assert.deepEqual(l2.flat(Side.ASK, 20), next.asks);
    changes.length = 0;

    assert.equal(sync.onBook(next), 'applied', 'the same snapshot again');
    assert.deepEqual(changes, []);
    assert.equal(sync.lastTimeMs, first.time_ms + 500);
  });

  it('ignores a push older than the last (stale), keeping the book whole; an unreadable push breaks it', () => {
    const l2 = new L2Book();
    const changes: number[] = [];
    const sync = new HyperliquidBookSync(l2, changes);
    sync.onBook(book('BTC', 1_000, [100_000_000_000, 1], [101_000_000_000, 1]));
    assert.equal(sync.onBook(book('BTC', 999, [99_000_000_000, 5], [])), 'stale');
    assert.deepEqual([l2.flat(Side.BID, 5), l2.flat(Side.ASK, 5), changes, sync.synced], [[100_000_000_000, 1], [101_000_000_000, 1], [], true]);
    assert.equal(sync.onBook(book('BTC', 1_000, [100_000_000_000, 2], [101_000_000_000, 1])), 'applied', 'the same time is the same block: applied');
    assert.equal(sync.onUnreadable(), 'gap');
    assert.deepEqual([sync.synced, l2.depth(Side.BID), l2.depth(Side.ASK)], [false, 0, 0]);
    assert.equal(sync.onBook(book('BTC', 5, [1, 1], [2, 1])), 'synced', 'after a reset any time is taken');
  });

  it('after any sequence of snapshots, the published changes turn the previous book into the new one (property)', () => {
    const level = fc.tuple(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 0, max: 5 }));
    const snapshot = fc.record({ bids: fc.array(level, { maxLength: 25 }), asks: fc.array(level, { maxLength: 25 }), dt: fc.integer({ min: 0, max: 3 }) });
    const flat = (levels: [number, number][], base: number) => levels.flatMap(([tick, qty]) => [base + tick * 1_000_000, qty * 10_000_000]);
    /** The book a snapshot stands for: its last quantity per price, zero levels absent. */
    const model = (f: number[]) => {
      const m = new Map<number, number>();
      for (let i = 0; i < f.length; i += 2) if (f[i + 1]! > 0) m.set(f[i]!, f[i + 1]!);
      else m.delete(f[i]!);
      return m;
    };
    const sorted = (m: Map<number, number>, desc: boolean) => [...m].sort((a, b) => (desc ? b[0] - a[0] : a[0] - b[0])).flat();
    fc.assert(
      fc.property(fc.array(snapshot, { minLength: 1, maxLength: 30 }), (pushes) => {
        const l2 = new L2Book();
        const changes: number[] = [];
        const sync = new HyperliquidBookSync(l2, changes);
        const copy = new L2Book();
        let time = 0;
        pushes.forEach((p, i) => {
          time += p.dt;
          const bids = flat(p.bids, 1_000_000_000);
          const asks = flat(p.asks, 2_000_000_000);
          const outcome = sync.onBook({ coin: 'BTC', time_ms: time, bids, asks });
          if (i === 0) {
            assert.equal(outcome, 'synced');
            assert.deepEqual(changes, []);
            for (const [side, f] of [[Side.BID, bids], [Side.ASK, asks]] as const) for (let j = 0; j < f.length; j += 2) copy.set(side, f[j]!, f[j + 1]!);
          } else {
            assert.equal(outcome, 'applied');
            for (let j = 0; j < changes.length; j += 3) copy.set(changes[j] as Side, changes[j + 1]!, changes[j + 2]!);
            changes.length = 0;
          }
          const wantBids = sorted(model(bids), true);
          const wantAsks = sorted(model(asks), false);
          assert.deepEqual(l2.flat(Side.BID, 100), wantBids);
          assert.deepEqual(l2.flat(Side.ASK, 100), wantAsks);
          assert.deepEqual(copy.flat(Side.BID, 100), wantBids, 'the copy, changed only by what was published');
          assert.deepEqual(copy.flat(Side.ASK, 100), wantAsks);
        });
      }),
      { numRuns: 500 },
    );
  });
});
