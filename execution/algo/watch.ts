/**
 * Callback watch words: how the gateway thread sees an algo callback that does not return. WASM
 * cannot be interrupted from inside its thread, so an algo worker marks each callback here and
 * the deployments manager, on the gateway thread, ends the worker when one runs past its budget
 * (docs/deployments.md, "Isolation").
 *
 * Shared buffer (Float64 words), one slot of 4 words per thread:
 *   0 started_ms   wall clock when the callback began; 0 while none runs (written last)
 *   1 key_hash     engine/placement hashKey of the deployment's actor key
 *   2 callback     which callback (CALLBACKS index)
 *   3 instance     which instance of the deployment
 * A reader loads started, then the rest, then started again: equal and non-zero, the slot is
 * one callback's.
 */
export const CALLBACKS = ['algo_on_book', 'algo_on_fill', 'algo_on_reject', 'algo_on_shutdown', 'algo_on_mesh', 'instantiate'] as const;
export type CallbackName = (typeof CALLBACKS)[number];

const SLOT_WORDS = 4;
const MAX_THREADS = 128;

export function createCallbackWatch(): SharedArrayBuffer {
  return new SharedArrayBuffer(MAX_THREADS * SLOT_WORDS * 8);
}

/** The algo worker's side: its own slot. */
export class CallbackMarker {
  private readonly words: Float64Array;
  private readonly base: number;

  constructor(buffer: SharedArrayBuffer, thread: number) {
    this.words = new Float64Array(buffer);
    this.base = thread * SLOT_WORDS;
  }

  enter(keyHash: number, callback: number, instance: number): void {
    const w = this.words;
    w[this.base + 1] = keyHash;
    w[this.base + 2] = callback;
    w[this.base + 3] = instance;
    w[this.base] = Date.now();
  }

  leave(): void {
    this.words[this.base] = 0;
  }
}

export interface RunningCallback {
  thread: number;
  started_ms: number;
  key_hash: number;
  callback: CallbackName;
  instance: number;
}

/** The watchdog's side (`words`: a Float64Array over the buffer): a callback running on `thread` now, if one is. */
export function runningCallback(w: Float64Array, thread: number): RunningCallback | undefined {
  const base = thread * SLOT_WORDS;
  const started = w[base]!;
  if (started === 0) return undefined;
  const key_hash = w[base + 1]!;
  const callback = CALLBACKS[w[base + 2]!] ?? 'algo_on_book';
  const instance = w[base + 3]!;
  if (w[base] !== started) return undefined;
  return { thread, started_ms: started, key_hash, callback, instance };
}

/** The watchdog ended `thread`: its slot no longer names a running callback. */
export function clearCallback(w: Float64Array, thread: number): void {
  w[thread * SLOT_WORDS] = 0;
}
