import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const RESULTS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'results');

export interface BenchResult {
  name: string;
  /** What was measured and against which same-run baseline. */
  description: string;
  metrics: Record<string, number | string | boolean | null>;
  /** Ratios against the baseline measured in the same run, and the targets they are held to. */
  ratios: Record<string, number>;
  targets: Record<string, { value: number; met: boolean; rule: string }>;
}

/** Writes `bench/results/<name>.json` with the machine context; returns the path. */
export function writeResult(result: BenchResult): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const path = join(RESULTS_DIR, `${result.name}.json`);
  const doc = {
    ...result,
    measured_at: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model ?? 'unknown',
  };
  writeFileSync(path, JSON.stringify(doc, null, 2) + '\n');
  return path;
}

export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function target(value: number, threshold: number, rule: '>=' | '<='): { value: number; met: boolean; rule: string } {
  return { value, met: rule === '>=' ? value >= threshold : value <= threshold, rule: `${rule} ${threshold}` };
}

/**
 * Lets a benchmark file run on its own (`node --import tsx bench/x.bench.ts`): when `moduleUrl`
 * is the entry point, runs it, writes its JSON and prints the figures.
 */
export async function runIfMain(moduleUrl: string, run: () => Promise<BenchResult>): Promise<void> {
  if (process.argv[1] === undefined || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  const started = performance.now();
  const result = await run();
  const path = writeResult(result);
  console.log(JSON.stringify({ metrics: result.metrics, ratios: result.ratios, targets: result.targets }, null, 2));
  console.log(`wrote ${path} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
