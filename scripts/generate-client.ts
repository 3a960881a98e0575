/**
 * Regenerates the typed client's schema (client/src/schema.ts) from the service's OpenAPI
 * document: fetched from `--base-url` when given (a running service), else from a service
 * started here on the embedded default (a temporary data directory, an ephemeral port), then
 * stopped.
 *
 *   npm run client:generate                       # starts a service of this checkout
 *   npm run client:generate -- --base-url http://127.0.0.1:8080
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { schemaSource } from '../client/scripts/schema.ts';
import { configFromEnv, DEFAULT_ALGO } from '../config.ts';
import { startService } from '../service.ts';

const TARGET = fileURLToPath(new URL('../client/src/schema.ts', import.meta.url));

async function fetchDocument(base: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${base.replace(/\/+$/, '')}/v1/openapi.json`, { signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`GET /v1/openapi.json answered ${res.status}`);
  return (await res.json()) as Record<string, unknown>;
}

const at = process.argv.indexOf('--base-url');
let document: Record<string, unknown>;
if (at >= 0 && process.argv[at + 1] !== undefined) {
  document = await fetchDocument(process.argv[at + 1]!);
} else {
  const dataDir = mkdtempSync(join(tmpdir(), 'client-generate-'));
  const service = await startService({ ...configFromEnv({ LOG_LEVEL: 'silent' }), host: '127.0.0.1', port: 0, dataDir, workers: 1, algo: { ...DEFAULT_ALGO, workers: 0 } });
  try {
    document = await fetchDocument(`http://127.0.0.1:${service.port}`);
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
writeFileSync(TARGET, await schemaSource(document));
console.log(`wrote ${TARGET}`);
