import { statfsSync } from 'node:fs';

/** The free space below which writes are refused, unless STORAGE_MIN_FREE_MB says otherwise. */
export const DEFAULT_MIN_FREE_BYTES = 64 * 1024 * 1024;

/** How stale a free-space reading may be for callers that do not ask for a fresh one. */
const READ_EVERY_MS = 100;

/**
 * Free space on the data directory's filesystem, so a filling disk refuses writes before LMDB
 * meets ENOSPC. lmdb-js's failed-write path has aborted the process ("corrupted size vs.
 * prev_size" after a 'No space left on device' page write; lmdb-js issue #40 says the same of
 * its segfaults), so a commit that would fail for space is never attempted: the journal reads
 * the space fresh before each frame (a statfs is a few µs beside a ~0.3 ms fdatasync), the
 * other writers use a reading at most 100 ms old.
 */
export class DiskSpace {
  private freeBytes = Number.POSITIVE_INFINITY;
  private readAtMs = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly path: string,
    readonly minFreeBytes: number = DEFAULT_MIN_FREE_BYTES,
  ) {}

  /** Bytes an unprivileged writer may still use (statfs `bavail`); Infinity when it cannot be read. */
  free(fresh = false): number {
    const now = Date.now();
    if (fresh || now - this.readAtMs >= READ_EVERY_MS) {
      this.readAtMs = now;
      try {
        const s = statfsSync(this.path);
        this.freeBytes = s.bavail * s.bsize;
      } catch {
        // A filesystem that cannot say its free space is not refused on that account.
        this.freeBytes = Number.POSITIVE_INFINITY;
      }
    }
    return this.freeBytes;
  }

  /** Why writes are refused for space, or undefined while there is room. */
  shortage(fresh = false): string | undefined {
    const free = this.free(fresh);
    if (free >= this.minFreeBytes) return undefined;
    return `the data directory's filesystem has ${mib(free)} MiB free, below the ${mib(this.minFreeBytes)} MiB kept in reserve (STORAGE_MIN_FREE_MB)`;
  }
}

function mib(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}
