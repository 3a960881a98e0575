/**
 * What becomes of LMDB writes that are not awaited one by one. lmdb-js gives every write of one
 * event turn the same promise (that turn's transaction), rejected when the commit fails (disk
 * full, I/O error, a read-only filesystem); a write left unobserved then rejects unhandled, which
 * stops the process, and `flushed` never settles. Every fire-and-forget write is watched here:
 * one handler per transaction (a pointer compare per write), the first failure is kept for the
 * health read-out, and `settled` lets an acknowledgement wait for its transaction's outcome
 * instead of a `flushed` that will not come.
 */
export class WriteGuard {
  private last: Promise<unknown> | undefined;
  /** The first commit failure seen, if any (health reports it; readiness fails). */
  failure: Error | undefined;
  failures = 0;
  lastFailureAtMs: number | undefined;

  constructor(private readonly onFailure: (err: Error) => void = () => {}) {}

  watch(write: Promise<unknown>): void {
    if (write === this.last) return;
    this.last = write;
    write.catch((err: unknown) => {
      let error = err instanceof Error ? err : new Error(String(err));
      // lmdb-js rejects each write with "Commit failed" and the cause in a second promise,
      // `commitError`, rejected too: unobserved, that one alone stops the process.
      const cause = (err as { commitError?: Promise<unknown> } | undefined)?.commitError;
      if (cause !== undefined && typeof cause.catch === 'function') {
        cause.catch((reason: unknown) => {
          if (reason instanceof Error) this.onFailure(new Error(`commit failed: ${reason.message}`));
        });
        error = new Error(`${error.message}: the cause follows in the log`);
      }
      this.failures++;
      this.failure ??= error;
      this.lastFailureAtMs = Date.now();
      this.onFailure(error);
    });
  }

  /** The transaction of the last watched write: resolves when it commits, rejects when it failed. */
  settled(): Promise<unknown> {
    return this.last ?? Promise.resolve();
  }
}
