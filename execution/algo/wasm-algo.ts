import { AbiMemory, BOOK_BYTES, FILL_BYTES, REJECT_BYTES, STATE_BYTES, type Action, type AlgoFill, type AlgoStateView, type BookSide, type RejectCode } from './abi.ts';

/** What an instance calls out to: the ABI's log and the mesh extension's send. */
export interface AlgoHost {
  log(level: number, text: string): void;
  /** 0 sent; negative refused (docs/deployments.md, mesh). */
  meshSend(to: string, data: Uint8Array): number;
}

export const MAX_LOG_BYTES = 512;
export const MAX_MESH_BYTES = 256;
const MESH_LABEL_BYTES = 64;
const ENCODER = new TextEncoder();

type Callback = 'algo_on_book' | 'algo_on_fill' | 'algo_on_reject' | 'algo_on_shutdown' | 'algo_on_mesh';

/** A callback's outcome: the number of actions, or how the algo failed (a trap, a bad answer). */
export type CallResult = number | { failed: string };

interface Exports {
  memory: WebAssembly.Memory;
  algo_alloc(size: number): number;
  algo_on_book(book: number, state: number): number;
  algo_on_fill(fill: number, state: number): void;
  algo_on_reject(reject: number): void;
  algo_on_shutdown(state: number): number;
  algo_on_mesh?(from: number, fromLen: number, data: number, dataLen: number): void;
}

/**
 * One instance of an algo module: its own memory, the record buffers it allocated once, and the
 * callbacks as the ABI defines them. A trap (and anything else the module throws) ends in a
 * `failed` answer, never an exception; a loop that never returns is the watchdog's (the caller
 * marks the callback in shared memory). Actions land in `actions` (reused).
 */
export class WasmAlgo {
  readonly actions: Action[] = [];
  private readonly exports: Exports;
  private readonly mem: AbiMemory;
  private readonly book: number;
  private readonly state: number;
  private readonly fill: number;
  private readonly reject: number;
  private mesh = 0;

  private constructor(instance: WebAssembly.Instance) {
    this.exports = instance.exports as unknown as Exports;
    this.mem = new AbiMemory(this.exports.memory);
    this.book = this.alloc(BOOK_BYTES);
    this.state = this.alloc(STATE_BYTES);
    this.fill = this.alloc(FILL_BYTES);
    this.reject = this.alloc(REJECT_BYTES);
  }

  /** Instantiates (the module's start function and its first allocations may trap too). */
  static create(module: WebAssembly.Module, host: AlgoHost): WasmAlgo | { failed: string } {
    let algo: WasmAlgo | undefined;
    const text = (ptr: number, len: number, cap: number) => algo?.mem.text(ptr, Math.min(len, cap));
    const imports = {
      env: {
        host_log_impl: (level: number, ptr: number, len: number) => {
          const line = text(ptr >>> 0, len >>> 0, MAX_LOG_BYTES);
          if (line !== undefined) host.log(level >>> 0, line);
        },
        host_mesh_send: (toPtr: number, toLen: number, dataPtr: number, dataLen: number): number => {
          if (toLen >>> 0 > MESH_LABEL_BYTES || dataLen >>> 0 > MAX_MESH_BYTES) return -2;
          const to = algo?.mem.text(toPtr >>> 0, toLen >>> 0);
          const data = algo?.mem.bytes(dataPtr >>> 0, dataLen >>> 0);
          return to === undefined || data === undefined ? -3 : host.meshSend(to, data);
        },
      },
    };
    try {
      algo = new WasmAlgo(new WebAssembly.Instance(module, imports));
      return algo;
    } catch (err) {
      return { failed: `instantiation failed: ${describe(err)}` };
    }
  }

  get memoryBytes(): number {
    return this.mem.byteLength;
  }

  onBook(bids: BookSide, asks: BookSide, symbolId: number, recvNs: number, state: AlgoStateView): CallResult {
    try {
      this.mem.writeBook(this.book, bids, asks, symbolId, recvNs);
      this.mem.writeState(this.state, state);
      return this.actionsAt(this.exports.algo_on_book(this.book, this.state), 'algo_on_book');
    } catch (err) {
      return failure('algo_on_book', err);
    }
  }

  onFill(fill: AlgoFill, state: AlgoStateView): CallResult {
    try {
      this.mem.writeFill(this.fill, fill);
      this.mem.writeState(this.state, state);
      this.exports.algo_on_fill(this.fill, this.state);
      return 0;
    } catch (err) {
      return failure('algo_on_fill', err);
    }
  }

  onReject(orderId: number, code: RejectCode): CallResult {
    try {
      this.mem.writeReject(this.reject, orderId, code);
      this.exports.algo_on_reject(this.reject);
      return 0;
    } catch (err) {
      return failure('algo_on_reject', err);
    }
  }

  onShutdown(state: AlgoStateView): CallResult {
    try {
      this.mem.writeState(this.state, state);
      return this.actionsAt(this.exports.algo_on_shutdown(this.state), 'algo_on_shutdown');
    } catch (err) {
      return failure('algo_on_shutdown', err);
    }
  }

  /** A mesh message (extension); ignored by a module without `algo_on_mesh`. */
  onMesh(from: string, data: Uint8Array): CallResult {
    const handler = this.exports.algo_on_mesh;
    if (handler === undefined || data.length > MAX_MESH_BYTES) return 0;
    try {
      if (this.mesh === 0) this.mesh = this.alloc(MESH_LABEL_BYTES + MAX_MESH_BYTES);
      const label = ENCODER.encode(from).subarray(0, MESH_LABEL_BYTES);
      this.mem.putBytes(this.mesh, label);
      this.mem.putBytes(this.mesh + MESH_LABEL_BYTES, data);
      handler(this.mesh, label.length, this.mesh + MESH_LABEL_BYTES, data.length);
      return 0;
    } catch (err) {
      return failure('algo_on_mesh', err);
    }
  }

  private alloc(size: number): number {
    const ptr = this.exports.algo_alloc(size) >>> 0;
    if (ptr === 0 || ptr + size > this.mem.byteLength) throw new Error(`algo_alloc(${size}) answered ${ptr}, outside the module's memory`);
    return ptr;
  }

  private actionsAt(ptr: number, callback: Callback): CallResult {
    const read = this.mem.readActions(ptr >>> 0, this.actions);
    return typeof read === 'string' ? { failed: `${callback} ${read}` } : read;
  }
}

function failure(callback: Callback, err: unknown): { failed: string } {
  if (err instanceof WebAssembly.RuntimeError) return { failed: `${callback} trapped: ${err.message}` };
  if (err instanceof RangeError) return { failed: `${callback} failed: ${err.message}` };
  return { failed: `${callback} failed: ${describe(err)}` };
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
