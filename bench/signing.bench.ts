/**
 * What signing adds to each order sent to a live venue (issue 16), on one thread:
 *
 *   Binance: HMAC-SHA256 hex of the order's query string     (binanceSignedQuery)
 *   Kraken:  HMAC-SHA512 of path + SHA-256(nonce + body)      (krakenApiSign)
 *
 * Same-run baseline: building the order's request itself (URLSearchParams of the venue's order
 * fields, the work every live order does signed or not). Mean µs per order, tinybench.
 */
import { Bench } from 'tinybench';
import { binanceSignedQuery, krakenApiSign } from '../actors/edge/live/signing.ts';
import { runIfMain, type BenchResult } from './lib/results.ts';

const TIME_MS = 1_000;
const BINANCE_SECRET = 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j';
const KRAKEN_SECRET = 'kQH5HW/8p1uGOVjbgWA7FunAmGO8lsSUXNsu3eow76sz84Q18fWxnyRzBHCd3pd5nE9qa99HAZtuZuj6F1huXg==';

export async function run(): Promise<BenchResult> {
  let n = 1_499_827_319_559;
  const binanceQuery = () => new URLSearchParams({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', quantity: '0.00100000', price: '97000.12', newClientOrderId: `ord_0mbx1abc${n}-1`, recvWindow: '5000', timestamp: String(n++) }).toString();
  const krakenBody = () => new URLSearchParams({ nonce: String(n++), ordertype: 'limit', pair: 'XBTUSD', price: '97000.1', type: 'buy', volume: '0.001', timeinforce: 'IOC', cl_ord_id: `ord_0mbx1abc${n}-1` }).toString();
  const bench = new Bench({ time: TIME_MS });
  bench
    .add('build the query (baseline)', () => void binanceQuery())
    .add('build + Binance signature', () => void binanceSignedQuery(binanceQuery(), BINANCE_SECRET))
    .add('build + Kraken API-Sign', () => {
      const nonce = String(n);
      void krakenApiSign('/0/private/AddOrder', nonce, krakenBody(), KRAKEN_SECRET);
    });
  await bench.run();
  const us = (name: string) => (bench.getTask(name)!.result as { latency: { mean: number } }).latency.mean * 1000;
  const base = us('build the query (baseline)');
  const binance = us('build + Binance signature');
  const kraken = us('build + Kraken API-Sign');
  return {
    name: 'signing',
    description: 'signing one order for a live venue on one thread (Binance HMAC-SHA256 query signature, Kraken HMAC-SHA512 API-Sign) against building the order query itself, tinybench, mean µs per order',
    metrics: {
      build_query_us: Number(base.toFixed(2)),
      binance_signed_us: Number(binance.toFixed(2)),
      kraken_signed_us: Number(kraken.toFixed(2)),
      binance_signing_added_us: Number((binance - base).toFixed(2)),
      kraken_signing_added_us: Number((kraken - base).toFixed(2)),
    },
    ratios: {
      binance_over_build: Number((binance / base).toFixed(2)),
      kraken_over_build: Number((kraken / base).toFixed(2)),
    },
    targets: {},
  };
}

await runIfMain(import.meta.url, run);
