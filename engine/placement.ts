/**
 * Actor placement: which worker thread hosts an actor key. Deterministic, so every thread can
 * address any actor without a directory. Thread 0 is the gateway (main) thread and hosts no
 * actors; workers are threads 1..workers. (A stage beside the gateway thread's resources, as the
 * journal beside LMDB's writer, is a binary frame handler there, not an actor.)
 *
 * Key grammar: `<kind>:<id>`, e.g. `edge:binance`, `book:BTC-USDT`, `router:acme`. The per-worker
 * system actor `sys:<thread>` is pinned to its thread.
 */
export const GATEWAY_THREAD = 0;

export function actorKind(key: string): string {
  const colon = key.indexOf(':');
  return colon < 0 ? key : key.slice(0, colon);
}

export function systemActorKey(thread: number): string {
  return `sys:${thread}`;
}

/** 32-bit FNV-1a over UTF-16 code units. */
export function fnv1a32(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * FNV-1a, then murmur3's finaliser: cheap and stable across threads and restarts. FNV's low
 * bits depend only on the characters' low bits, which a power-of-two worker count would see.
 */
export function hashKey(key: string): number {
  let h = fnv1a32(key);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Algo workers (threads workers+1 .. workers+algoWorkers) host only `algo:` actors: strategy
 * code is untrusted and may have to be stopped by ending its thread, which must never take an
 * edge, a book or a router with it. Without algo workers an `algo:` actor lands on an actor worker.
 */
export function placeActor(key: string, workers: number, algoWorkers = 0): number {
  if (key.startsWith('sys:')) {
    const thread = Number(key.slice(4));
    if (Number.isInteger(thread) && thread >= 1 && thread <= workers + algoWorkers) return thread;
  }
  if (algoWorkers > 0 && key.startsWith('algo:')) return workers + 1 + (hashKey(key) % algoWorkers);
  return 1 + (hashKey(key) % workers);
}
