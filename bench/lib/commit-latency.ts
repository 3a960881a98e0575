import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { percentile } from './results.ts';

/**
 * The durable-commit floor of this machine: an order-sized record put at `rate` per second
 * (a few per millisecond tick, as a gateway under load batches them), each timed from its put
 * to `flushed` (commit and fsync). Opened as storage/database.ts opens the real store. No
 * acknowledgement that waits for its own commit can have a lower p99 than this.
 */
export async function commitLatency(rate: number, seconds: number): Promise<{ p50_ms: number; p99_ms: number; commits: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'seq-commit-'));
  const root = open({ path: dir, maxDbs: 4, compression: false, noMemInit: true });
  const db = root.openDB({ name: 'orders' });
  const record = { node_order_id: 'ord_0000000000000abc', padding: 'x'.repeat(900), qty_1e8: 100_000 };
  const latencies: number[] = [];
  const perTick = Math.max(1, Math.round(rate / 1000));
  let n = 0;
  const started = performance.now();
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      for (let k = 0; k < perTick; k++) {
        const t0 = performance.now();
        void db.put(n++, record);
        void root.flushed.then(() => latencies.push(performance.now() - t0));
      }
      if (performance.now() - started > seconds * 1000) {
        clearInterval(timer);
        setTimeout(resolve, 200);
      }
    }, 1);
  });
  await root.close();
  rmSync(dir, { recursive: true, force: true });
  latencies.sort((a, b) => a - b);
  return { p50_ms: Number(percentile(latencies, 50).toFixed(2)), p99_ms: Number(percentile(latencies, 99).toFixed(2)), commits: latencies.length };
}
