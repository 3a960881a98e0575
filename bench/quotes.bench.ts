/**
 * Quote endpoint throughput under wrk, against the foundation's authenticated GET /v1/api_keys
 * on the same service in the same run.
 *
 *   edge actors --L2 deltas--> book actor (worker) --seqlock write--> quote cache (shared memory)
 *                                                                          |
 *   wrk (1 thread, 50 conns) --> gateway: auth, bucket --> seqlock read ---+--> JSON (depth 10)
 *
 *   wrk (same settings) --> GET /v1/api_keys (baseline: auth, bucket, one LMDB read)
 *
 * The simulated venues keep moving during the run, so the quote read races the book actor's
 * writes as it would in production. Target: quotes >= 0.7x the baseline's requests/s.
 */
import { median, startServiceProcess } from './lib/processes.ts';
import { target, runIfMain, type BenchResult } from './lib/results.ts';
import { assertWrk, runWrk, WRK_CONNECTIONS, type WrkFigures } from './lib/wrk.ts';

const DURATION_S = Number(process.env['BENCH_QUOTES_SECONDS'] ?? 5);
const ROUNDS = Number(process.env['BENCH_QUOTES_ROUNDS'] ?? 3);
const SYMBOL = 'BTC-USDT';

export async function run(): Promise<BenchResult> {
  assertWrk();
  // Two workers, as in production: the edges and books run beside the gateway.
  const service = await startServiceProcess({ WORKERS: '2' });
  try {
    const base = `http://127.0.0.1:${service.port}`;
    const quoteUrl = `${base}/v1/quotes/${SYMBOL}`;
    const keysUrl = `${base}/v1/api_keys`;
    const auth = [`Authorization: Bearer ${service.apiKey}`];
    const deadline = Date.now() + 15_000;
    for (;;) {
      const res = await fetch(quoteUrl, { headers: { authorization: `Bearer ${service.apiKey}` } });
      const body = (await res.json()) as { source?: string };
      if (res.status === 200 && body.source === 'edge_nbbo') break;
      if (Date.now() > deadline) throw new Error(`no live quote for ${SYMBOL}: ${res.status} ${JSON.stringify(body)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    runWrk(quoteUrl, auth, DURATION_S);
    runWrk(keysUrl, auth, DURATION_S);
    const quoteRounds: WrkFigures[] = [];
    const keyRounds: WrkFigures[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      keyRounds.push(runWrk(keysUrl, auth, DURATION_S));
      quoteRounds.push(runWrk(quoteUrl, auth, DURATION_S));
    }
    if ([...quoteRounds, ...keyRounds].some((r) => r.non2xx > 0)) throw new Error('non-2xx answers during the run');
    const quoteRps = median(quoteRounds.map((r) => r.rps));
    const keyRps = median(keyRounds.map((r) => r.rps));
    const ratio = Number((quoteRps / keyRps).toFixed(3));
    return {
      name: 'quotes',
      description:
        `GET /v1/quotes/${SYMBOL} (depth 10, live simulated venues) vs authenticated GET /v1/api_keys, same service, ` +
        `wrk -t1 -c${WRK_CONNECTIONS} -d${DURATION_S}s, ${ROUNDS} alternating rounds, medians`,
      metrics: {
        quotes_rps: Math.round(quoteRps),
        quotes_p50_ms: median(quoteRounds.map((r) => r.p50_ms)),
        quotes_p99_ms: median(quoteRounds.map((r) => r.p99_ms)),
        api_keys_rps: Math.round(keyRps),
        api_keys_p99_ms: median(keyRounds.map((r) => r.p99_ms)),
        quotes_rounds_rps: quoteRounds.map((r) => Math.round(r.rps)).join(','),
        api_keys_rounds_rps: keyRounds.map((r) => Math.round(r.rps)).join(','),
      },
      ratios: { quotes_over_api_keys_rps: ratio },
      targets: { rps_ratio: target(ratio, 0.7, '>=') },
    };
  } finally {
    await service.stop();
  }
}

await runIfMain(import.meta.url, run);
