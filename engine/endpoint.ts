import { NO_REPLY, type Actor, type ActorContext, type ActorEnvironment, type ActorRegistry, type BinaryFrameHandler, type Logger } from './actor.ts';
import { FrameDecoder, FrameEncoder } from './codec.ts';
import { FIRST_BINARY_FRAME_TYPE, FrameType, RuntimeError, RuntimeErrorCode } from './frames.ts';
import { LayoutTable, type MessageLayout } from './message-layout.ts';
import { actorKind, GATEWAY_THREAD, placeActor } from './placement.ts';
import { Mailbox } from './ring/mailbox.ts';
import { RingWriter, type RingHandle } from './ring/spsc-ring.ts';
import type { Scheduler } from './timers.ts';
import { WireReader, WireWriter } from './wire.ts';

export interface EndpointOptions {
  thread: number;
  workers: number;
  /** Algo worker threads after the actor workers (engine/placement.ts); 0 when there are none. */
  algoWorkers?: number;
  control: SharedArrayBuffer;
  scheduler: Scheduler;
  log: Logger;
  /** Actor factories; only worker threads host actors. */
  registry?: ActorRegistry;
  defaultAskTimeoutMs?: number;
  /** Called after an ask leaves, so a thread that parks asynchronously can poll for the reply. */
  onAskSent?: () => void;
  environment?: ActorEnvironment;
  /** Messages that travel as fixed layouts instead of msgpack; the same on every thread. */
  layouts?: readonly MessageLayout[];
}

export type PublishHandler = (topic: string, payload: unknown) => void;


interface PendingAsk {
  resolve(value: unknown): void;
  reject(err: Error): void;
  cancelTimer: () => void;
  dest: number;
}

interface ActorCell {
  readonly key: string;
  actor: Actor<unknown>;
  readonly ctx: CellContext;
  restarts: number;
  /** In the current batch's touched list. */
  touched: boolean;
}

interface Deferred {
  dest: number;
  type: number;
  value: unknown;
  /** A binary frame's own copy of its payload (`value` unused). */
  bytes?: Uint8Array;
}

const MAX_DEFERRED = 65_536;

/**
 * One thread's attachment to the runtime: its mailbox (inbound rings), its writers (one
 * outbound ring per peer thread, itself included), the actors it hosts, and the asks it is
 * waiting on. The gateway thread and every worker each own exactly one endpoint.
 */
export class Endpoint {
  readonly thread: number;
  readonly mailbox: Mailbox;
  private readonly workers: number;
  private readonly algoWorkers: number;
  private readonly writers: (RingWriter | undefined)[] = [];
  private readonly encoder = new FrameEncoder();
  private readonly decoder = new FrameDecoder();
  private readonly layouts: LayoutTable;
  private readonly wireOut = new WireWriter();
  private readonly wireIn = new WireReader();
  private readonly pending = new Map<number, PendingAsk>();
  private readonly cells = new Map<string, ActorCell>();
  private readonly deferred: Deferred[] = [];
  /** Actors with an onBatchEnd that received a message in the batch being drained. */
  private readonly touched: ActorCell[] = [];
  private readonly scheduler: Scheduler;
  private readonly registry: ActorRegistry;
  private readonly defaultAskTimeoutMs: number;
  private publishHandler: PublishHandler | undefined;
  private readonly onAskSent: (() => void) | undefined;
  readonly environment: ActorEnvironment;
  private nextCorrelation = 1;
  private readonly binaryHandlers = new Map<number, BinaryFrameHandler>();
  /** Work queued for the start of the next poll (atNextPoll). */
  private nextPoll: (() => void)[] = [];
  /** An actor here holds sockets (`ActorContext.holdsSockets`): the thread must park without blocking its event loop. */
  socketsHeld = false;
  readonly log: Logger;

  constructor(options: EndpointOptions) {
    this.thread = options.thread;
    this.workers = options.workers;
    this.algoWorkers = options.algoWorkers ?? 0;
    this.mailbox = new Mailbox(options.control);
    this.scheduler = options.scheduler;
    this.log = options.log;
    this.registry = options.registry ?? {};
    this.defaultAskTimeoutMs = options.defaultAskTimeoutMs ?? 5_000;
    this.onAskSent = options.onAskSent;
    this.environment = options.environment ?? { shared: {}, settings: {} };
    this.layouts = new LayoutTable(options.layouts ?? []);
    this.mailbox.onFrame((source, type, bytes, offset, length, endOfBatch) => {
      if (type < FIRST_BINARY_FRAME_TYPE) this.onFrame(source, type, this.decoder.read(bytes, offset, length), endOfBatch);
      else this.onBinaryFrame(source, type, bytes, offset, length, endOfBatch);
    });
  }

  /** Wires the ring this thread writes to reach `dest` (whose mailbox control is given). */
  attachOutbound(dest: number, ring: RingHandle, destControl: SharedArrayBuffer): void {
    this.writers[dest] = new RingWriter(ring, destControl);
  }

  attachInbound(source: number, ring: RingHandle): void {
    this.mailbox.attach(source, ring);
  }

  onPublish(handler: PublishHandler): void {
    this.publishHandler = handler;
  }

  ownerOf(key: string): number {
    return placeActor(key, this.workers, this.algoWorkers);
  }

  tell(to: string, message: unknown): boolean {
    const layout = this.layouts.forMessage(to, message);
    if (layout !== undefined) return this.sendLayout(this.ownerOf(to), layout, to, 0, message);
    return this.send(this.ownerOf(to), FrameType.TELL, [to, message]);
  }

  ask<R = unknown>(to: string, message: unknown, timeoutMs = this.defaultAskTimeoutMs): Promise<R> {
    const dest = this.ownerOf(to);
    const correlation = this.nextCorrelation++;
    if (this.nextCorrelation > 0x7fffffff) this.nextCorrelation = 1;
    const layout = this.layouts.forMessage(to, message);
    return new Promise<R>((resolve, reject) => {
      const sent = layout !== undefined ? this.sendLayout(dest, layout, to, correlation, message) : this.send(dest, FrameType.ASK, [to, correlation, message]);
      if (!sent) {
        reject(new RuntimeError(RuntimeErrorCode.BACKPRESSURE, `mailbox of thread ${dest} is full`));
        return;
      }
      const cancelTimer = this.scheduler.schedule(timeoutMs, () => {
        if (this.pending.delete(correlation)) {
          reject(new RuntimeError(RuntimeErrorCode.TIMEOUT, `${to} did not answer within ${timeoutMs} ms`));
        }
      });
      this.pending.set(correlation, { resolve: resolve as (v: unknown) => void, reject, cancelTimer, dest });
      this.onAskSent?.();
    });
  }

  publish(topic: string, payload: unknown): boolean {
    if (this.thread === GATEWAY_THREAD) {
      this.publishHandler?.(topic, payload);
      return true;
    }
    return this.send(GATEWAY_THREAD, FrameType.PUBLISH, [topic, payload]);
  }

  /** Asks the owner of `key` to create the actor now rather than on its first message. */
  startActor(key: string): boolean {
    return this.send(this.ownerOf(key), FrameType.START_ACTOR, [key]);
  }

  /** Handles this thread's frames of a binary type (one handler per type and thread). */
  onBinary(type: number, handler: BinaryFrameHandler): void {
    if (type < FIRST_BINARY_FRAME_TYPE) throw new RangeError(`binary frame types start at ${FIRST_BINARY_FRAME_TYPE}, got ${type}`);
    this.binaryHandlers.set(type, handler);
  }

  /**
   * Sends a binary frame (no msgpack: the bytes are the message). When the ring is full it is
   * copied and sent on a later poll, in order with deferred replies.
   */
  sendBinary(dest: number, type: number, bytes: Uint8Array): void {
    const writer = this.writers[dest];
    if (writer === undefined) return;
    if (this.deferred.length === 0 && writer.tryWrite(type, bytes)) return;
    // A copy, whatever `bytes` is: a Buffer's slice() is a view, and the journal's frames and the
    // layouts' answers come from buffers reused at once (a deferred frame read as the next one).
    this.defer({ dest, type, value: undefined, bytes: new Uint8Array(bytes) });
  }

  /**
   * Runs `fn` at the start of this thread's next poll: after the continuations now queued have
   * run, before the next frames are read. Work several messages produced in one turn (a batch of
   * journal records) leaves once.
   */
  atNextPoll(fn: () => void): void {
    this.nextPoll.push(fn);
    if (this.nextPoll.length === 1) this.onAskSent?.();
  }

  /** Drains the mailbox (up to `budget` frames per inbound ring) and retries deferred replies. */
  poll(budget: number): number {
    if (this.nextPoll.length > 0) this.runNextPoll();
    if (this.deferred.length > 0) this.flushDeferred();
    const handled = this.mailbox.poll(budget);
    if (this.touched.length > 0) this.endBatch();
    return handled;
  }

  private runNextPoll(): void {
    const tasks = this.nextPoll;
    this.nextPoll = [];
    for (const task of tasks) {
      try {
        task();
      } catch (err) {
        this.log.error({ err }, 'next-poll task threw');
      }
    }
  }

  private endBatch(): void {
    const touched = this.touched;
    for (let i = 0; i < touched.length; i++) {
      const cell = touched[i]!;
      cell.touched = false;
      try {
        cell.actor.onBatchEnd?.(cell.ctx);
      } catch (err) {
        this.onActorFailure(cell, { t: 'BatchEnd' }, err, 0, 0);
      }
    }
    touched.length = 0;
  }

  /**
   * Answers a pending ask of this thread as if its reply had arrived: a stage on this thread
   * that gives the answer for the asked actor (which then returns NO_REPLY). Unknown or timed
   * out correlations are ignored.
   */
  answerAsk(correlation: number, value: unknown): void {
    this.settle(correlation, true, value);
  }

  get pendingAsks(): number {
    return this.pending.size;
  }

  get actorCount(): number {
    return this.cells.size;
  }

  actorRestarts(): number {
    let total = 0;
    for (const cell of this.cells.values()) total += cell.restarts;
    return total;
  }

  /** Fails every ask waiting on `dest`, as when that thread died. */
  failPendingTo(dest: number, reason: string): void {
    for (const [correlation, ask] of this.pending) {
      if (ask.dest !== dest) continue;
      this.pending.delete(correlation);
      ask.cancelTimer();
      ask.reject(new RuntimeError(RuntimeErrorCode.WORKER_DIED, reason));
    }
  }

  /** Calls every hosted actor's onStop; used on graceful shutdown. */
  stopActors(): void {
    for (const cell of this.cells.values()) {
      try {
        cell.actor.onStop?.(cell.ctx);
      } catch (err) {
        this.log.error({ actor: cell.key, err }, 'actor onStop failed');
      }
    }
    this.cells.clear();
  }

  failAllPending(reason: string): void {
    for (const dest of new Set([...this.pending.values()].map((p) => p.dest))) this.failPendingTo(dest, reason);
  }

  private send(dest: number, type: number, value: unknown): boolean {
    const writer = this.writers[dest];
    if (writer === undefined) return false;
    return this.encoder.write(writer, type, value);
  }

  /** A message in its fixed layout: u32 correlation | str key | body. */
  private sendLayout(dest: number, layout: MessageLayout, to: string, correlation: number, message: unknown): boolean {
    const writer = this.writers[dest];
    if (writer === undefined) return false;
    const w = this.wireOut.reset().u32(correlation).str(to);
    layout.encode(message as { t: string }, w);
    return writer.tryWrite(layout.type, w.bytes());
  }

  /** An ask's answer: in its layout's answer frame when it has one, else a msgpack REPLY_OK. */
  private reply(source: number, correlation: number, value: unknown, layout: MessageLayout | undefined): void {
    if (layout?.answer === undefined) {
      this.sendOrDefer(source, FrameType.REPLY_OK, [correlation, value]);
      return;
    }
    const w = this.wireOut.reset().u32(correlation);
    try {
      layout.answer.encode(value, w);
    } catch (err) {
      this.replyErr(source, correlation, RuntimeErrorCode.ACTOR_FAILED, `answer of ${layout.kind}/${layout.t} does not fit its layout: ${errorMessage(err)}`);
      return;
    }
    this.sendBinary(source, layout.type + 1, w.bytes());
  }

  private sendOrDefer(dest: number, type: number, value: unknown): void {
    if (this.deferred.length === 0 && this.send(dest, type, value)) return;
    this.defer({ dest, type, value });
  }

  private defer(d: Deferred): void {
    if (this.deferred.length >= MAX_DEFERRED) {
      this.log.error({ dest: d.dest, type: d.type }, 'deferred reply queue full; reply dropped');
      return;
    }
    this.deferred.push(d);
  }

  private flushDeferred(): void {
    let sent = 0;
    while (sent < this.deferred.length) {
      const d = this.deferred[sent]!;
      const ok = d.bytes === undefined ? this.send(d.dest, d.type, d.value) : (this.writers[d.dest]?.tryWrite(d.type, d.bytes) ?? true);
      if (!ok) break;
      sent++;
    }
    this.deferred.splice(0, sent);
  }

  private onBinaryFrame(source: number, type: number, bytes: Uint8Array, offset: number, length: number, endOfBatch: boolean): void {
    const layout = this.layouts.empty ? undefined : (this.layouts.message(type) ?? this.layouts.answer(type));
    if (layout !== undefined) {
      this.onLayoutFrame(source, type, layout, this.wireIn.reset(bytes, offset, length), endOfBatch);
      return;
    }
    const handler = this.binaryHandlers.get(type);
    if (handler === undefined) {
      this.log.warn({ type, source }, 'binary frame of a type nobody handles dropped');
      return;
    }
    try {
      handler(source, bytes, offset, length);
    } catch (err) {
      this.log.error({ type, source, err }, 'binary frame handler threw');
    }
  }

  private onLayoutFrame(source: number, type: number, layout: MessageLayout, r: WireReader, endOfBatch: boolean): void {
    const correlation = r.u32();
    if (type === layout.type + 1) {
      let value: unknown;
      try {
        value = layout.answer!.decode(r);
      } catch (err) {
        this.settle(correlation, false, { code: RuntimeErrorCode.ACTOR_FAILED, message: `undecodable answer of ${layout.kind}/${layout.t}: ${errorMessage(err)}` });
        return;
      }
      this.settle(correlation, true, value);
      return;
    }
    let key: string;
    let message: unknown;
    try {
      key = r.str();
      message = layout.decode(r);
    } catch (err) {
      this.log.error({ type, source, err }, 'undecodable message frame dropped');
      if (correlation !== 0) this.replyErr(source, correlation, RuntimeErrorCode.ACTOR_FAILED, `undecodable ${layout.kind}/${layout.t}: ${errorMessage(err)}`);
      return;
    }
    this.deliver(key, message, endOfBatch, source, correlation, layout);
  }

  private onFrame(source: number, type: number, body: unknown, endOfBatch: boolean): void {
    const frame = body as unknown[];
    switch (type) {
      case FrameType.TELL:
        this.deliver(frame[0] as string, frame[1], endOfBatch, source, 0);
        return;
      case FrameType.ASK:
        this.deliver(frame[0] as string, frame[2], endOfBatch, source, frame[1] as number);
        return;
      case FrameType.REPLY_OK:
      case FrameType.REPLY_ERR:
        this.settle(frame[0] as number, type === FrameType.REPLY_OK, frame[1]);
        return;
      case FrameType.PUBLISH:
        this.publishHandler?.(frame[0] as string, frame[1]);
        return;
      case FrameType.START_ACTOR:
        this.cellFor(frame[0] as string);
        return;
      default:
        this.log.warn({ type, source }, 'unknown frame type dropped');
    }
  }

  private settle(correlation: number, ok: boolean, value: unknown): void {
    const ask = this.pending.get(correlation);
    if (ask === undefined) return; // timed out already
    this.pending.delete(correlation);
    ask.cancelTimer();
    if (ok) ask.resolve(value);
    else {
      const e = value as { code: string; message: string };
      ask.reject(new RuntimeError(e.code, e.message));
    }
  }

  /** `correlation` 0 means a tell: nobody waits for the result. */
  private deliver(key: string, message: unknown, endOfBatch: boolean, source: number, correlation: number, layout?: MessageLayout): void {
    const cell = this.cellFor(key);
    if (cell === undefined) {
      if (correlation !== 0) {
        this.replyErr(source, correlation, RuntimeErrorCode.NO_SUCH_ACTOR_KIND, `no actor kind for ${key}`);
      }
      return;
    }
    if (!cell.touched && cell.actor.onBatchEnd !== undefined) {
      cell.touched = true;
      this.touched.push(cell);
    }
    let result: unknown;
    cell.ctx.askCorrelation = correlation;
    cell.ctx.askThread = correlation === 0 ? -1 : source;
    try {
      result = cell.actor.onMessage(message, cell.ctx, endOfBatch);
    } catch (err) {
      this.onActorFailure(cell, message, err, source, correlation);
      return;
    } finally {
      cell.ctx.askCorrelation = 0;
      cell.ctx.askThread = -1;
    }
    if (isThenable(result)) {
      const instance = cell.actor;
      result.then(
        (value) => correlation !== 0 && value !== NO_REPLY && this.reply(source, correlation, value, layout),
        (err: unknown) => {
          // A late failure of an instance already replaced must not restart its successor.
          if (cell.actor === instance) this.onActorFailure(cell, message, err, source, correlation);
          else if (correlation !== 0) this.replyErr(source, correlation, RuntimeErrorCode.ACTOR_FAILED, errorMessage(err));
        },
      );
    } else if (correlation !== 0 && result !== NO_REPLY) {
      this.reply(source, correlation, result, layout);
    }
  }

  private replyErr(source: number, correlation: number, code: string, message: string): void {
    this.sendOrDefer(source, FrameType.REPLY_ERR, [correlation, { code, message }]);
  }

  /** Supervision: log with context, replace the actor with a fresh instance, answer the ask. */
  private onActorFailure(cell: ActorCell, message: unknown, err: unknown, source: number, correlation: number): void {
    const messageType = (message as { t?: unknown } | null)?.t;
    this.log.error(
      { actor: cell.key, thread: this.thread, message_type: messageType, restarts: cell.restarts + 1, err },
      'actor threw; restarting',
    );
    try {
      cell.actor.onStop?.(cell.ctx);
    } catch {
      // The failed instance is discarded either way.
    }
    cell.restarts++;
    cell.actor = this.createActor(cell.key)!;
    this.startCell(cell);
    if (correlation !== 0) {
      this.replyErr(source, correlation, RuntimeErrorCode.ACTOR_FAILED, `${cell.key} failed: ${errorMessage(err)}`);
    }
  }

  private createActor(key: string): Actor<unknown> | undefined {
    const factory = this.registry[actorKind(key)];
    return factory === undefined ? undefined : (factory(key) as Actor<unknown>);
  }

  private cellFor(key: string): ActorCell | undefined {
    let cell = this.cells.get(key);
    if (cell !== undefined) return cell;
    const actor = this.createActor(key);
    if (actor === undefined) return undefined;
    const ctx = new CellContext(this, key, this.scheduler, this.log);
    cell = { key, actor, ctx, restarts: 0, touched: false };
    ctx.cell = cell;
    this.cells.set(key, cell);
    this.startCell(cell);
    return cell;
  }

  private startCell(cell: ActorCell): void {
    try {
      cell.actor.onStart?.(cell.ctx);
    } catch (err) {
      this.log.error({ actor: cell.key, err }, 'actor onStart failed');
    }
  }
}

class CellContext implements ActorContext {
  cell: ActorCell | undefined;
  readonly thread: number;
  askCorrelation = 0;
  askThread = -1;

  constructor(
    private readonly endpoint: Endpoint,
    readonly key: string,
    private readonly scheduler: Scheduler,
    readonly log: Logger,
  ) {
    this.thread = endpoint.thread;
  }

  get restarts(): number {
    return this.cell?.restarts ?? 0;
  }

  get environment(): ActorEnvironment {
    return this.endpoint.environment;
  }

  tell(to: string, message: unknown): boolean {
    return this.endpoint.tell(to, message);
  }

  ask<R = unknown>(to: string, message: unknown, timeoutMs?: number): Promise<R> {
    return this.endpoint.ask<R>(to, message, timeoutMs);
  }

  publish(topic: string, payload: unknown): boolean {
    return this.endpoint.publish(topic, payload);
  }

  schedule(delayMs: number, fn: () => void): () => void {
    return this.scheduler.schedule(delayMs, fn);
  }

  sendBinary(thread: number, type: number, bytes: Uint8Array): void {
    this.endpoint.sendBinary(thread, type, bytes);
  }

  onBinary(type: number, handler: BinaryFrameHandler): void {
    this.endpoint.onBinary(type, handler);
  }

  atNextPoll(fn: () => void): void {
    this.endpoint.atNextPoll(fn);
  }

  holdsSockets(): void {
    this.endpoint.socketsHeld = true;
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
