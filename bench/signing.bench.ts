/**
 * What signing adds to each order sent to a live venue (issue 16), on one thread:
 *
 *   Binance: HMAC-SHA256 hex of the order's query string     (binanceSignedQuery)
 *   Kraken:  HMAC-SHA512 of path + SHA-256(nonce + body)      (krakenApiSign)
 *   Bybit, OKX, KuCoin: HMAC-SHA256 of their strings to sign
 *   Bitstamp: HMAC-SHA256 hex of its v2 string to sign        (bitstamp/signing.ts signRequest:
 *            a fresh UUID nonce, the URL read for host and path, the X-Auth headers)
 *   Kalshi:  RSA-PSS with a 2048-bit key                      (kalshiSignature)
 *   Coinbase: an ES256 JWT                                     (coinbaseJwt, async: jose)
 *   Polymarket: an EIP-712 order signed with secp256k1         (polymarketOrderSignature, ox)
 *   Hyperliquid: msgpack action hash, phantom agent, EIP-712   (hyperliquidSignL1Action)
 *
 * Same-run baseline: building the order's request itself (URLSearchParams of the venue's order
 * fields, the work every live order does signed or not). Mean µs per order, tinybench, and the
 * process's CPU time per order, in three interleaved rounds (bench/lib/rounds.ts), each venue
 * against its round's baseline, the median round reported.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { binanceSignedQuery, bybitSignature, coinbaseJwt, kalshiSignature, krakenApiSign, kucoinSignature, okxSignature } from '../actors/edge/live/signing.ts';
import { signRequest as bitstampSignRequest } from '../actors/edge/live/bitstamp/signing.ts';
import { hyperliquidOrderAction, hyperliquidOrderWire, hyperliquidSignL1Action, polymarketOrderSignature, POLYMARKET_SIDE } from '../actors/edge/live/signing-evm.ts';
import { runIfMain, type BenchResult } from './lib/results.ts';
import { measureRounds, median, medianOfRounds, type Timing } from './lib/rounds.ts';

/** Rounds of every task, and each task's time per round (ms). */
const ROUNDS = 3;
const TIME_MS = 300;
const WARMUP_MS = 100;
const BASELINE = 'build the query (baseline)';
const BINANCE_SECRET = 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j';
/** A throwaway key (the Hyperliquid SDK tests' own): never a funded account. */
const EVM_KEY = '0x0123456789012345678901234567890123456789012345678901234567890123';
const EVM_ADDRESS = '0x14791697260E4c9A71f18484C9f997B308e59325';
const KRAKEN_SECRET = 'kQH5HW/8p1uGOVjbgWA7FunAmGO8lsSUXNsu3eow76sz84Q18fWxnyRzBHCd3pd5nE9qa99HAZtuZuj6F1huXg==';

export async function run(): Promise<BenchResult> {
  let n = 1_499_827_319_559;
  const binanceQuery = () => new URLSearchParams({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', quantity: '0.00100000', price: '97000.12', newClientOrderId: `ord_0mbx1abc${n}-1`, recvWindow: '5000', timestamp: String(n++) }).toString();
  const krakenBody = () => new URLSearchParams({ nonce: String(n++), ordertype: 'limit', pair: 'XBTUSD', price: '97000.1', type: 'buy', volume: '0.001', timeinforce: 'IOC', cl_ord_id: `ord_0mbx1abc${n}-1` }).toString();
  const bitstampBody = 'amount=0.001&price=97000.12&ioc_order=True&client_order_id=ord_0mbx1abc-1';
  const body = JSON.stringify({ category: 'spot', symbol: 'BTCUSDT', side: 'Buy', orderType: 'Limit', qty: '0.001', price: '97000.12', timeInForce: 'IOC', orderLinkId: 'ord_0mbx1abc-1' });
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  /** The baseline's work (the order's query built), then what the venue's signer takes. */
  const built = <T>(x: T): T => {
    binanceQuery();
    return x;
  };
  const tasks: [string, () => unknown][] = [
    [BASELINE, () => void binanceQuery()],
    ['build + Binance signature', () => void binanceSignedQuery(binanceQuery(), BINANCE_SECRET)],
    [
      'build + Kraken API-Sign',
      () => {
        const nonce = String(n);
        void krakenApiSign('/0/private/AddOrder', nonce, krakenBody(), KRAKEN_SECRET);
      },
    ],
    ['build + Bybit signature', () => void bybitSignature(String(n++), 'key', '5000', built(body), BINANCE_SECRET)],
    ['build + OKX signature', () => void okxSignature(new Date(n++).toISOString(), 'POST', '/api/v5/trade/order', built(body), BINANCE_SECRET)],
    ['build + KuCoin signature', () => void kucoinSignature(String(n++), 'POST', '/api/v1/orders', built(body), BINANCE_SECRET)],
    // As the adapter signs an order: a fresh UUID nonce, the URL read for host and path, the headers built.
    ['build + Bitstamp v2 signature', () => void bitstampSignRequest({ api_key: 'key', api_secret: BINANCE_SECRET }, 'POST', 'https://www.bitstamp.net/api/v2/buy/btcusd/', built(bitstampBody), randomUUID(), n++)],
    ['build + Kalshi RSA-PSS', () => void kalshiSignature(String(n++), 'POST', '/trade-api/v2/portfolio/orders', built(rsa))],
    [
      'build + Polymarket EIP-712 order',
      () =>
        void polymarketOrderSignature(
          built({ salt: BigInt(n++), maker: EVM_ADDRESS, signer: EVM_ADDRESS, taker: '0x0000000000000000000000000000000000000000', tokenId: 71321045679252212594626385532706912750332728571942532289631379312455583992563n, makerAmount: 50_000_000n, takerAmount: 100_000_000n, expiration: 0n, nonce: 0n, feeRateBps: 0n, side: POLYMARKET_SIDE.BUY, signatureType: 0 }),
          EVM_KEY,
        ),
    ],
    [
      'build + Hyperliquid L1 action',
      () => void hyperliquidSignL1Action(EVM_KEY, built(hyperliquidOrderAction([hyperliquidOrderWire({ asset: 0, isBuy: true, limitPx: '97000.1', sz: '0.001', reduceOnly: false, orderType: { limit: { tif: 'Ioc' } } })])), n++, { isMainnet: true }),
    ],
    ['build + Coinbase ES256 JWT', async () => void (await coinbaseJwt('organizations/o/apiKeys/k', built(ec), 'POST', 'api.coinbase.com', '/api/v3/brokerage/orders', Math.floor(n++ / 1000)))],
  ];
  const timed = await measureRounds(tasks, { rounds: ROUNDS, timeMs: TIME_MS, warmupMs: WARMUP_MS });
  const base = timed.get(BASELINE)!;
  const wallUs = (t: Timing) => t.wallMs.map((ms) => ms * 1000);
  const venues = { binance: 'Binance signature', kraken: 'Kraken API-Sign', bybit: 'Bybit signature', okx: 'OKX signature', kucoin: 'KuCoin signature', bitstamp: 'Bitstamp v2 signature', kalshi: 'Kalshi RSA-PSS', coinbase: 'Coinbase ES256 JWT', polymarket: 'Polymarket EIP-712 order', hyperliquid: 'Hyperliquid L1 action' };
  const metrics: BenchResult['metrics'] = { rounds: ROUNDS, build_query_us: Number(median(wallUs(base)).toFixed(2)), build_query_cpu_us: Number(median(base.cpuUs).toFixed(2)) };
  const ratios: BenchResult['ratios'] = {};
  for (const [venue, task] of Object.entries(venues)) {
    const t = timed.get(`build + ${task}`)!;
    // Per round against that round's baseline; the median round.
    metrics[`${venue}_signed_us`] = Number(median(wallUs(t)).toFixed(2));
    metrics[`${venue}_signing_added_us`] = Number(medianOfRounds(wallUs(t), wallUs(base), (x, b) => x - b).toFixed(2));
    metrics[`${venue}_cpu_signing_added_us`] = Number(medianOfRounds(t.cpuUs, base.cpuUs, (x, b) => x - b).toFixed(2));
    ratios[`${venue}_over_build`] = Number(medianOfRounds(t.wallMs, base.wallMs, (x, b) => x / b).toFixed(2));
    ratios[`${venue}_over_build_cpu`] = Number(medianOfRounds(t.cpuUs, base.cpuUs, (x, b) => x / b).toFixed(2));
  }
  return {
    name: 'signing',
    description: 'signing one order for a live venue on one thread (each venue\'s scheme: HMAC for Binance, Kraken, Bybit, OKX, KuCoin, Bitstamp; RSA-PSS 2048 for Kalshi; an ES256 JWT for Coinbase; EIP-712 secp256k1 for Polymarket and Hyperliquid) against building the order query itself, tinybench mean µs per order and process CPU µs per order, median of 3 interleaved rounds',
    metrics,
    ratios,
    targets: {},
  };
}

await runIfMain(import.meta.url, run);
