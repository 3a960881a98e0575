import { join } from 'node:path';
import { open } from 'lmdb';

/**
 * The last committed transaction id of a service's LMDB environment (`<dataDir>/lmdb`), read
 * from this process through a read-only handle: the difference over a round is how many write
 * transactions the service made, each a copy of the B-tree pages it touched and a sync.
 */
export function lmdbLastTxnId(dataDir: string): number {
  const env = open({ path: join(dataDir, 'lmdb'), readOnly: true });
  try {
    return (env.getStats() as { lastTxnId: number }).lastTxnId;
  } finally {
    void env.close();
  }
}
