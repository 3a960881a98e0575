/**
 * The actor contract. An actor is a logical unit of state owned by exactly one worker thread;
 * it sees one message at a time, so its state needs no locks.
 *
 *   onStart(ctx)                        once, before the first message (and after a restart)
 *   onMessage(message, ctx, endOfBatch) per message; the return value (or resolved promise)
 *                                       is the reply when the sender used `ask`; flush batched
 *                                       I/O when `endOfBatch` is true
 *   onBatchEnd(ctx)                     once per drained batch, for every actor that received a
 *                                       message in it: the place to publish or flush once
 *   onStop(ctx)                         at shutdown, and before a restart after a throw
 */
export interface Actor<M = unknown> {
  onStart?(ctx: ActorContext): void;
  onMessage(message: M, ctx: ActorContext, endOfBatch: boolean): unknown;
  onBatchEnd?(ctx: ActorContext): void;
  onStop?(ctx: ActorContext): void;
}

/**
 * What an actor's `onMessage` returns (or resolves with) when the ask is answered by someone
 * else on the asker's thread (`Endpoint.answerAsk`): nothing is sent back.
 */
export const NO_REPLY: unique symbol = Symbol('no reply');

export type ActorFactory = (key: string) => Actor<never>;

/** Maps actor kinds (the part of the key before ':') to their factories. */
export type ActorRegistry = Readonly<Record<string, ActorFactory>>;

export interface Logger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** What the topology hands every actor: shared memory regions and plain settings. */
export interface ActorEnvironment {
  readonly shared: Readonly<Record<string, SharedArrayBuffer>>;
  readonly settings: Readonly<Record<string, string | number | boolean>>;
}

export interface ActorContext {
  readonly key: string;
  readonly environment: ActorEnvironment;
  readonly thread: number;
  readonly log: Logger;
  /** Fire-and-forget; false when the destination's ring is full. */
  tell(to: string, message: unknown): boolean;
  ask<R = unknown>(to: string, message: unknown, timeoutMs?: number): Promise<R>;
  /** Sends a topic update to the gateway for WebSocket fan-out; false when the ring is full. */
  publish(topic: string, payload: unknown): boolean;
  /** Runs `fn` after `delayMs` on this actor's thread; returns a cancel function. */
  schedule(delayMs: number, fn: () => void): () => void;
  /** Restart count of this actor since its thread started. */
  readonly restarts: number;
  /** During `onMessage` of an ask: its correlation id and the asking thread (0 and -1 for a tell). */
  readonly askCorrelation: number;
  readonly askThread: number;
  /** Sends a binary frame (a fixed layout, no msgpack) to a thread; see Endpoint.sendBinary. */
  sendBinary(thread: number, type: number, bytes: Uint8Array): void;
  /** Registers this thread's handler of a binary frame type (thread-wide, not per actor). */
  onBinary(type: number, handler: BinaryFrameHandler): void;
  /** Runs `fn` once at the start of this thread's next poll (Endpoint.atNextPoll). */
  atNextPoll(fn: () => void): void;
  /**
   * This actor owns sockets (a live venue edge): from now on its thread parks with
   * `Atomics.waitAsync`, so socket callbacks run while the thread waits for frames. Without it
   * an idle worker blocks in `Atomics.wait` and hears its sockets only when a frame or timer wakes it.
   */
  holdsSockets(): void;
}

/** See Endpoint: a binary frame's payload is `bytes[offset, offset + length)`, valid during the call. */
export type BinaryFrameHandler = (source: number, bytes: Uint8Array, offset: number, length: number) => void;
