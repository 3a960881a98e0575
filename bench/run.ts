/**
 * Runs every benchmark in sequence and writes one JSON file per benchmark under
 * bench/results/. Select some with arguments: `npm run bench -- ring`.
 */
import { writeResult, type BenchResult } from './lib/results.ts';

const BENCHES: Record<string, () => Promise<{ run(): Promise<BenchResult> }>> = {
  ring: () => import('./ring.bench.ts'),
  gateway: () => import('./gateway.bench.ts'),
  matching: () => import('./matching.bench.ts'),
  quotes: () => import('./quotes.bench.ts'),
  fanout: () => import('./fanout.bench.ts'),
  orders: () => import('./orders.bench.ts'),
  consolidation: () => import('./consolidation.bench.ts'),
  sor: () => import('./sor.bench.ts'),
  records: () => import('./records.bench.ts'),
  sandbox: () => import('./sandbox.bench.ts'),
  roundtrip: () => import('./roundtrip.bench.ts'),
  markets: () => import('./markets.bench.ts'),
  dex: () => import('./dex.bench.ts'),
  deployments: () => import('./deployments.bench.ts'),
  analytics: () => import('./analytics.bench.ts'),
  signing: () => import('./signing.bench.ts'),
  'depth-decode': () => import('./depth-decode.bench.ts'),
  client: () => import('./client.bench.ts'),
  harness: () => import('./harness.bench.ts'),
  regions: () => import('./regions.bench.ts'),
};

const selected = process.argv.slice(2);
const names = selected.length > 0 ? selected : Object.keys(BENCHES);
let failed = 0;
for (const name of names) {
  const load = BENCHES[name];
  if (load === undefined) {
    console.error(`unknown benchmark ${name}; known: ${Object.keys(BENCHES).join(', ')}`);
    process.exitCode = 2;
    continue;
  }
  try {
    const result = await (await load()).run();
    const path = writeResult(result);
    console.log(`${name}: ${JSON.stringify(result.ratios)} targets ${JSON.stringify(result.targets)} -> ${path}`);
  } catch (err) {
    failed++;
    console.error(`${name} failed:`, err);
  }
}
if (failed > 0) process.exitCode = 1;
