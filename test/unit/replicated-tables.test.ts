/**
 * The records regions replicate (storage/replicated-tables.ts) on a real LMDB in a temp dir: API
 * keys issued on two nodes at once end up as the union on both (neither list drops the other's),
 * a revocation on either side wins and stops the key authenticating, and a node holding keys the
 * other's list lacked publishes the union back; a client profile applies whole; a credential row
 * applies still sealed, only when newer, and is refused under a credentials key the node lacks.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Storage } from '../../storage/index.ts';
import { replicatedTables } from '../../storage/replicated-tables.ts';
import type { ApiKeyRecord } from '../../storage/api-keys.ts';

const dirs: string[] = [];
const open = (key = 'ab'.repeat(32)) => {
  const dir = mkdtempSync(join(tmpdir(), 'seq-replica-'));
  dirs.push(dir);
  return Storage.open(dir, { credentialsKey: key });
};

describe('replicated records', () => {
  const opened: Storage[] = [];
  after(async () => {
    for (const s of opened) await s.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('API keys issued on two nodes at once: the union on both, a revocation wins, the union goes back', async () => {
    const [a, b] = [open(), open()];
    opened.push(a, b);
    const [ta, tb] = [replicatedTables(a), replicatedTables(b)];
    const sentByA: [string, unknown][] = [];
    ta.apiKeys.onWritten((k, v) => sentByA.push([k, v]));
    const keyA = await a.apiKeys.create('c', { label: 'a', sandbox: false });
    const keyB = await b.apiKeys.create('c', { label: 'b', sandbox: false });
    const [[bucketKey, listA]] = sentByA as [[string, ApiKeyRecord[]]];
    // b's list (only its key) reaches a: a keeps its own key and publishes the union back.
    await ta.apiKeys.apply(bucketKey, b.apiKeys.list('c', { sandboxOnly: false }));
    assert.ok(a.apiKeys.findActive(keyA.raw_key) && a.apiKeys.findActive(keyB.raw_key), 'both keys work on a');
    const union = sentByA.at(-1)![1] as ApiKeyRecord[];
    assert.deepEqual(new Set(union.map((r) => r.id)), new Set([keyA.record.id, keyB.record.id]));
    await tb.apiKeys.apply(bucketKey, union);
    assert.ok(b.apiKeys.findActive(keyA.raw_key), 'a’s key works on b');
    // a revokes its key; b's stale list (a's key still active) must not bring it back on a.
    const stale = b.apiKeys.list('c', { sandboxOnly: false });
    await a.apiKeys.deactivate(a.apiKeys.get('c', keyA.record.id)!);
    await ta.apiKeys.apply(bucketKey, stale);
    assert.equal(a.apiKeys.findActive(keyA.raw_key), undefined, 'a revocation is never undone by a stale list');
    await tb.apiKeys.apply(bucketKey, a.apiKeys.list('c', { sandboxOnly: false }));
    assert.equal(b.apiKeys.findActive(keyA.raw_key), undefined, 'revoked on a: stops working on b');
    assert.ok(b.apiKeys.findActive(keyB.raw_key));
    assert.equal(listA.length, 1);
  });

  it('applies a profile whole, and a sealed credential only when newer and under a key it holds', async () => {
    const [a, b, other] = [open(), open(), open('cd'.repeat(32))];
    opened.push(a, b, other);
    const [ta, tb, tOther] = [replicatedTables(a), replicatedTables(b), replicatedTables(other)];
    await tb.clients.apply('c.' + Buffer.from('c|x').toString('base64url'), { client_id: 'c|x', tier: 'pro', rate_limit_qps: 50, is_admin: false, created_at_ms: 1 });
    assert.equal(b.clients.get('c|x')?.tier, 'pro');
    const sent: [string, unknown][] = [];
    ta.credentials.onWritten((k, v) => sent.push([k, v]));
    await a.credentials.put('c', 'live', 'kraken', { api_key: 'key-kraken-0123456789', api_secret: 'secret-kraken-0123456789abcdef' });
    const [[rowKey, row]] = sent as [[string, unknown]];
    await tb.credentials.apply(rowKey, row as never);
    assert.equal(b.credentials.get('c', 'live', 'kraken')?.api_key, 'key-kraken-0123456789', 'opened on b with the shared key');
    await assert.rejects(tOther.credentials.apply(rowKey, row as never), /does not hold/);
    assert.equal(other.credentials.sealedRow('c', 'live', 'kraken'), undefined);
    await tb.credentials.apply(rowKey, null);
    assert.equal(b.credentials.get('c', 'live', 'kraken'), undefined, 'a removal applies');
  });
});
