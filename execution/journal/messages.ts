// The journal's message is one binary frame per router write set (frame.ts).
/** The journal's key: one instance, hosted on the gateway thread beside the LMDB writer. */
export const JOURNAL_ACTOR = 'journal:0';

/** How long a router waits for a commit before the write counts as failed. */
export const JOURNAL_TIMEOUT_MS = 30_000;
