import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { open } from 'lmdb';
import { Storage } from '../../storage/index.ts';
import { CURRENT_SCHEMA_VERSION, SCHEMA_VERSION_KEY } from '../../storage/migrations.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'seq-migrate-'));
  dirs.push(dir);
  return dir;
}

/** Writes a database as an older build left it: raw lmdb, no migrations. */
async function seed(dir: string, version: number, write: (root: ReturnType<typeof open>) => void): Promise<void> {
  const root = open({ path: join(dir, 'lmdb'), maxDbs: 64 });
  root.openDB({ name: 'meta' }).putSync(SCHEMA_VERSION_KEY, version);
  write(root);
  await root.flushed;
  await root.close();
}

describe('storage migrations', () => {
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('a new database starts at the current schema version', async () => {
    const storage = Storage.open(tempDir());
    assert.equal(storage.schemaVersion, CURRENT_SCHEMA_VERSION);
    await storage.close();
  });

  it('v1 -> v2 materialises the key list views of existing accounts', async () => {
    const dir = tempDir();
    const record = {
      id: 'key_abc',
      client_id: 'acme',
      key_prefix: 'sqk_test_abcdef',
      key_hash: 'f'.repeat(64),
      label: 'old',
      is_active: true,
      is_sandbox: true,
      created_at_ms: Date.UTC(2026, 0, 2),
      last_used_at_ms: null,
      deactivated_at_ms: null,
      rotated_to: null,
    };
    await seed(dir, 1, (root) => {
      root.openDB({ name: 'api_keys', sharedStructuresKey: Symbol.for('structures') }).putSync('acme', { records: [record] });
    });
    const storage = Storage.open(dir);
    try {
      assert.equal(storage.schemaVersion, CURRENT_SCHEMA_VERSION);
      const all = JSON.parse(storage.apiKeys.listJson('acme', { sandboxOnly: false }).toString('utf8'));
      assert.deepEqual(all, [
        {
          id: 'key_abc',
          key_prefix: 'sqk_test_abcdef',
          label: 'old',
          is_active: true,
          is_sandbox: true,
          last_used_at: null,
          created_at: '2026-01-02T00:00:00.000Z',
        },
      ]);
      assert.equal(JSON.parse(storage.apiKeys.listJson('acme', { sandboxOnly: true }).toString('utf8')).length, 1);
    } finally {
      await storage.close();
    }
  });

  it('refuses a database written by a newer build', async () => {
    const dir = tempDir();
    await seed(dir, CURRENT_SCHEMA_VERSION + 1, () => {});
    assert.throws(() => Storage.open(dir), /newer than this build/);
  });
});
