/**
 * Messages of the probe actor: a diagnostic actor that exercises the runtime's contract
 * (request/reply, state, async replies, supervision, worker death) for tests, benchmarks and
 * operations checks.
 */
export type ProbeMessage =
  | { t: 'Echo'; payload: unknown }
  | { t: 'Add'; n: number }
  | { t: 'Get' }
  | { t: 'EchoLater'; payload: unknown; delay_ms: number }
  /** Asks any actor (a router, an edge) from this worker, as an actor of the engine would; answers its reply. */
  | { t: 'AskPeer'; peer: string; message: unknown; timeout_ms?: number }
  | { t: 'Publish'; topic: string; payload: unknown }
  | { t: 'Throw'; message: string }
  /** Ends the worker thread, after holding it `after_ms` (its mailbox fills meanwhile, unread). */
  | { t: 'ExitThread'; code: number; after_ms?: number }
  /** Holds the worker thread for `ms`: what it is sent meanwhile waits (a stalled venue edge). */
  | { t: 'Stall'; ms: number };

export interface ProbeState {
  readonly key: string;
  total: number;
  messages: number;
}
