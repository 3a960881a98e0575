import { depthSlot, DepthTop } from '../../actors/edge/depth-cache.ts';
import { book } from '../../actors/market/directory.ts';
import type { DeploymentInstance, InstanceCheckpoint } from '../../storage/deployments.ts';
import { MAX_LEVELS } from './abi.ts';
import { AlgoState } from './algo-state.ts';
import type { WasmAlgo } from './wasm-algo.ts';

/** An order an instance's algo asked for, as the host tracks it. */
export interface AlgoOrder {
  order_id: number;
  client_order_id: string;
  side: 1 | -1;
  node_order_id: string | null;
  /** the book change whose callback placed it (edge ns), for the latency figures; 0 otherwise */
  book_ns: number;
  /** when this host took that book change (ns) */
  host_ns: number;
  /** the algo asked to cancel it before the engine answered */
  cancel_pending: boolean;
  rejected: boolean;
  dead: boolean;
}

/**
 * One algo instance: the deployment's module instantiated for one (edge, symbol), its AlgoState,
 * its orders by the algo's id and by client_order_id, the edge's book it reads (reused buffers),
 * and the figures of the record's live edge data.
 */
export class AlgoInstance {
  readonly state = new AlgoState();
  readonly orders = new Map<number, AlgoOrder>();
  readonly byClientOrderId = new Map<string, AlgoOrder>();
  readonly book: DepthTop;
  readonly slot: number;
  /** the book changed since the algo last saw it */
  dirty = false;
  /** when the edge published the change the algo is about to see (ns) */
  edgeNs = 0;
  /** when this host took it (ns) */
  hostNs = 0;
  orders_sent = 0;
  rejects = 0;
  cancels = 0;
  books = 0;
  last_book_ms: number | null = null;

  constructor(
    readonly index: number,
    readonly spec: DeploymentInstance,
    readonly algo: WasmAlgo,
    readonly label: string,
    depth: SharedArrayBuffer,
  ) {
    const entry = book(spec.symbol, spec.instrument_type);
    const edgeIndex = entry?.edges.indexOf(spec.edge_id) ?? -1;
    this.slot = entry !== undefined && edgeIndex >= 0 ? depthSlot(entry, edgeIndex) : -1;
    this.book = new DepthTop(depth, MAX_LEVELS);
  }

  restore(c: InstanceCheckpoint | undefined): void {
    if (c === undefined) return;
    this.state.restore(c);
    this.orders_sent = c.orders_sent;
    this.rejects = c.rejects;
    this.cancels = c.cancels;
    this.books = c.books;
    this.last_book_ms = c.last_book_ms;
  }

  /** Reads the edge's book; false when it has none yet. Marks the position at its mid. */
  readBook(): boolean {
    if (this.slot < 0 || !this.book.read(this.slot)) return false;
    const { bids, asks } = this.book;
    if (bids.count > 0 && asks.count > 0) this.state.mark(Math.floor((bids.px[0]! + asks.px[0]!) / 2));
    this.books++;
    this.last_book_ms = Date.now();
    return true;
  }

  track(order: AlgoOrder): void {
    this.orders.set(order.order_id, order);
    this.byClientOrderId.set(order.client_order_id, order);
  }

  /** An ended order leaves the maps once the engine has nothing more to say of it. */
  forget(order: AlgoOrder): void {
    this.orders.delete(order.order_id);
    this.byClientOrderId.delete(order.client_order_id);
  }

  checkpoint(): InstanceCheckpoint {
    const s = this.state;
    return {
      position_1e8: s.position_1e8,
      avg_entry_1e9: s.avg_entry_1e9,
      realized_pnl_1e9: s.realized_pnl_1e9,
      unrealized_pnl_1e9: s.unrealized_pnl_1e9,
      orders_sent: this.orders_sent,
      fills: s.fills,
      filled_qty_1e8: s.filled_qty_1e8,
      rejects: this.rejects,
      cancels: this.cancels,
      books: this.books,
      last_book_ms: this.last_book_ms,
      open_orders: s.liveOrders,
    };
  }
}
