import { hash } from 'node:crypto';
import type { CancelResult, ChildExecution, ChildPlacement, EdgeMessage, MakerFill } from '../../actors/edge/messages.ts';
import { edgeSpec, listingOf } from '../../actors/edge/sim/catalog.ts';
import { Ledger, isDollarAsset, type LedgerSnapshot, type SpotFill } from '../../actors/ledger/ledger.ts';
import { edgeKey, type BookEntry } from '../../actors/market/directory.ts';
import { routingVersion } from '../../actors/router/sor-cost.ts';
import type { RoutingPlan, VenueView } from '../../actors/router/sor-types.ts';
import { route } from '../../actors/router/sor.ts';
import { computeTca } from '../../actors/tca/tca.ts';
import { parseSymbol } from '../../domain/market.ts';
import type { ChildOrder, FillRecord, Mode, OrderRecord, OrderStatus } from '../../domain/orders.ts';
import { isTerminal } from '../../domain/orders.ts';
import { BPS, notionalUsd1e9, nowNs, PRICE_SCALE } from '../../domain/units.ts';
import type { Logger } from '../../engine/actor.ts';
import type { Endpoint } from '../../engine/endpoint.ts';
import type { Storage } from '../../storage/index.ts';
import type { Principal } from '../auth/principal.ts';
import { Errors } from '../errors.ts';
import type { KillSwitch } from '../kill-switch.ts';
import type { QuoteService } from '../market/quotes.ts';
import { legLimit, legReservation, restingCandidates } from './legs.ts';
import { bestSingleVenue, type VenueBooks } from './views.ts';

/** What a client sends to `POST /v1/orders`, after schema validation. */
export interface OrderRequest {
  client_order_id: string;
  symbol?: string;
  instrument?: { symbol: string; type?: 'spot' | 'perp' };
  side: 'buy' | 'sell';
  qty_1e8: number;
  order_type: 'market' | 'limit';
  limit_price_1e9?: number;
  time_in_force?: 'ioc' | 'gtc' | 'fok';
  venue?: string;
  constraints?: OrderRecord['constraints'];
  start_armed?: boolean;
}

export interface ExecutionConfig {
  /** Per-order notional cap (pre-trade risk), USD 1e9. */
  maxOrderNotionalUsd1e9: number;
  /** What a simulated venue account opens with, per quote currency, USD. */
  simAccountUsd: number;
}

export type ExecutionChannel = 'orders' | 'fills' | 'routing' | 'tca';

/** Where order events go: the private WebSocket channels and the SSE streams. */
export interface ExecutionEvents {
  /** Whether anyone listens for this client and mode: an event nobody reads is not built. */
  wants(channel: ExecutionChannel, client: string, mode: Mode): boolean;
  publish(channel: ExecutionChannel, client: string, mode: Mode, data: unknown): void;
}

const CHILD_TIMEOUT_MS = 2_000;
const LEDGER_CHECKPOINT_MS = 1_000;

interface LedgerState {
  client: string;
  mode: Mode;
  ledger: Ledger;
  /** id of the last fill the ledger holds */
  watermark: number;
  dirty: boolean;
}

/** A GTC leg on a venue's book, with what its fills and its order's settlement need. */
interface RestingLeg {
  order: OrderRecord;
  child: ChildOrder;
  reservation: number | false | undefined;
  /** the books at routing, for TCA's best-single-venue benchmark */
  views: readonly VenueView[];
  started: number;
  /** maker fills that arrived before the placement's answer was booked */
  early: MakerFill[];
}

/** What LMDB keeps of a ledger: the snapshot without its fill-id history, and the last fill in it. */
interface LedgerCheckpoint {
  snapshot: LedgerSnapshot;
  watermark: number;
}
/** Base assets a simulated account starts with, besides its cash. */
const SIM_BASE_ASSETS: Record<string, number> = { BTC: 1, ETH: 10, SOL: 100 };
const NODE_ID = 'node-1';
const HOME_REGION = 'local';

/**
 * The execution engine's coordinator on the gateway thread, next to LMDB: admission
 * (idempotency, kill switch, risk), routing (the pure SOR over the edges' books), durable order
 * and fill state, the positions ledgers, TCA and the private streams. Child orders run on the
 * edge actors through the rings.
 *
 *   POST /v1/orders -> admit -> views (edge books) -> SOR plan -> reserve -> LMDB + flushed -> 201
 *                   -> children to edges (IOC) -> fills -> ledger -> LMDB + flushed -> publish
 *                   -> all children done -> final status + TCA -> LMDB + flushed -> publish
 */
export class ExecutionService {
  private readonly ledgers = new Map<string, LedgerState>();
  private readonly running = new Map<string, Promise<void>>();
  /** Armed graphs being activated. */
  private readonly activating = new Set<string>();
  /** Admissions under way by `client|mode|client_order_id`, so concurrent twins make one order. */
  private readonly admitting = new Map<string, Promise<{ status: 200 | 201; order: OrderRecord }>>();
  private checkpointTimer: NodeJS.Timeout | undefined;
  /** Resting (GTC) legs by child id: what their maker fills are booked against. */
  private readonly restingLegs = new Map<string, RestingLeg>();
  /** Fills booked but not yet committed, for TCA without a read back. */
  private readonly fillsById = new Map<number, FillRecord>();

  constructor(
    private readonly storage: Storage,
    private readonly endpoint: Endpoint,
    private readonly books: VenueBooks,
    private readonly quotes: QuoteService,
    private readonly killSwitch: KillSwitch,
    private readonly credentialedVenues: (client: string, mode: Mode) => ReadonlySet<string>,
    private readonly events: ExecutionEvents,
    private readonly config: ExecutionConfig,
    private readonly log: Logger,
  ) {}

  /**
   * The client's positions ledger in a mode. Fills are the durable truth; the ledger is a
   * checkpoint (written at most once a second, without the fill-id history) plus the fills after
   * its watermark, replayed here on first use after a restart. Reservations do not survive a
   * restart: the orders that held them were reconciled.
   */
  ledger(client: string, mode: Mode): Ledger {
    return this.ledgerState(client, mode).ledger;
  }

  private ledgerState(client: string, mode: Mode): LedgerState {
    const key = `${client}|${mode}`;
    let state = this.ledgers.get(key);
    if (state !== undefined) return state;
    const ledger = new Ledger(mode);
    state = { client, mode, ledger, watermark: 0, dirty: false };
    const stored = this.storage.orders.getLedger(client, mode) as LedgerCheckpoint | undefined;
    if (stored !== undefined) {
      const restored = ledger.restore(stored.snapshot);
      if (!restored.ok) this.log.error({ client_id: client, mode, reason: restored.reason }, 'ledger checkpoint not restored');
      for (const r of stored.snapshot.reservations) ledger.release(r.id);
      state.watermark = stored.watermark;
    }
    const parts = (symbol: string) => parseSymbol(symbol)!;
    for (const fill of this.storage.orders.fillsAfter(client, mode, state.watermark)) {
      ledger.applyFill(this.ledgerFill(fill, parts(fill.symbol).quote));
      state.watermark = fill.id;
    }
    this.ledgers.set(key, state);
    return state;
  }

  /** Writes the checkpoint of every ledger changed since the last one. */
  checkpoint(): void {
    for (const state of this.ledgers.values()) {
      if (!state.dirty) continue;
      state.dirty = false;
      const snapshot = state.ledger.snapshot();
      const checkpoint: LedgerCheckpoint = { snapshot: { ...snapshot, fill_ids: [] }, watermark: state.watermark };
      this.storage.orders.putLedger(state.client, state.mode, checkpoint);
    }
  }

  start(): void {
    this.checkpointTimer = setInterval(() => this.checkpoint(), LEDGER_CHECKPOINT_MS);
    this.checkpointTimer.unref();
  }

  /**
   * A simulated venue opens an account when credentials are stored: cash per quote currency it
   * trades and some base assets. Existing balances on the venue are left alone.
   */
  async openSimAccount(client: string, mode: Mode, venue: string): Promise<void> {
    const ledger = this.ledger(client, mode);
    if (ledger.rows().some((r) => r.venue === venue)) return;
    const quotes = new Set<string>();
    for (const spec of [edgeSpec(`venue-edge-${venue}`), edgeSpec(`venue-edge-${venue}-perp`)]) {
      for (const listing of spec?.listings ?? []) quotes.add(listing.quote);
    }
    if (quotes.size === 0) return; // prediction venues list no markets yet
    const balances = [
      ...[...quotes].map((asset) => ({ asset, qty_1e8: this.config.simAccountUsd * 1e8 })),
      ...Object.entries(SIM_BASE_ASSETS).map(([asset, qty]) => ({ asset, qty_1e8: qty * 1e8, mark_usd_1e9: this.markOf(asset) })),
    ];
    ledger.seed(venue, balances);
    this.ledgerState(client, mode).dirty = true;
    this.checkpoint();
    await this.storage.orders.durable();
  }

  /**
   * Idempotent on the body's `client_order_id` and, when sent, on the `Idempotency-Key` header:
   * the order keeps its `client_order_id` and answers to both keys. Either key seen before with
   * the same request returns the original order (200), with another request 409.
   */
  async submit(principal: Principal, request: OrderRequest, idempotencyKey: string | undefined): Promise<{ status: 200 | 201; order: OrderRecord }> {
    const scope = `${principal.client_id}|${principal.mode}|`;
    const keys = idempotencyKey === undefined ? [`${scope}${request.client_order_id}`] : [`${scope}hdr/${idempotencyKey}`, `${scope}${request.client_order_id}`];
    const hash = requestHash(request);
    // A request whose twin (by either key) is still being admitted waits for it, then answers
    // as a retry would.
    for (const key of keys) {
      const pending = this.admitting.get(key);
      if (pending === undefined) continue;
      const first = await pending.catch(() => undefined);
      if (first !== undefined) return this.replay(first.order, hash, key.slice(scope.length));
    }
    const admission = this.admitOnce(principal, request, idempotencyKey ?? null, hash);
    for (const key of keys) this.admitting.set(key, admission);
    try {
      return await admission;
    } finally {
      for (const key of keys) if (this.admitting.get(key) === admission) this.admitting.delete(key);
    }
  }

  /** A retry of a stored order: the original with 200, or 409 for another request under the same key. */
  private replay(order: OrderRecord, hash: string, key: string): { status: 200; order: OrderRecord } {
    if (order.request_hash !== hash) {
      const what = key.startsWith('hdr/') ? `Idempotency-Key ${key.slice(4)}` : `client_order_id ${key}`;
      throw Errors.conflict('IDEMPOTENCY_CONFLICT', `${what} was used with a different request`);
    }
    return { status: 200, order };
  }

  private async admitOnce(
    principal: Principal,
    request: OrderRequest,
    idempotencyKey: string | null,
    hash: string,
  ): Promise<{ status: 200 | 201; order: OrderRecord }> {
    const client = principal.client_id;
    const mode = principal.mode;
    const byHeader = idempotencyKey === null ? undefined : this.storage.orders.byIdempotencyKey(client, mode, idempotencyKey);
    if (byHeader !== undefined) return this.replay(byHeader, hash, `hdr/${idempotencyKey}`);
    const existing = this.storage.orders.byClientOrderId(client, mode, request.client_order_id);
    if (existing !== undefined) return this.replay(existing, hash, request.client_order_id);
    if (this.killSwitch.active) throw Errors.unavailable('DISPATCH_HALTED', 'kill switch active: new orders are rejected');
    const entry = this.resolve(request);
    const order = this.newOrder(principal, request, idempotencyKey, hash, entry);
    if (request.start_armed === true) {
      order.status = 'WAITING';
      order.execution_type = 'armed';
      order.venue_state = 'not_sent';
      this.storage.orders.putClientOrderId(order);
      await this.persist(order);
      this.emitOrder(order);
      return { status: 201, order };
    }
    await this.dispatch(order, entry);
    return { status: 201, order };
  }

  /** Activates an armed graph: routes and dispatches it like a new order. */
  async activate(principal: Principal, graphId: string): Promise<OrderRecord> {
    const orderId = graphId.startsWith('grf_') ? `ord_${graphId.slice(4)}` : '';
    const order = this.storage.orders.getOrder(principal.client_id, principal.mode, orderId);
    if (order === undefined) throw Errors.notFound(`execution graph ${graphId} not found`);
    if (order.execution_type !== 'armed' || order.status !== 'WAITING' || this.activating.has(order.node_order_id)) {
      throw Errors.conflict('GRAPH_NOT_ARMED', `execution graph ${graphId} is not armed (status ${order.status})`);
    }
    if (this.killSwitch.active) throw Errors.unavailable('DISPATCH_HALTED', 'kill switch active: new orders are rejected');
    // Claimed before the first await: a concurrent activation of the same graph is a 409.
    this.activating.add(order.node_order_id);
    order.execution_type = 'graph';
    order.status = 'ACCEPTED';
    const entry = this.quotes.resolve(order.symbol, order.instrument_type)!;
    try {
      await this.dispatch(order, entry);
    } finally {
      this.activating.delete(order.node_order_id);
    }
    return order;
  }

  /** Routes without placing: the plan, its fees and landed cost. */
  async preview(principal: Principal, request: OrderRequest): Promise<{ plan: RoutingPlan; landed_cost_1e9: number | null }> {
    const entry = this.resolve(request);
    const views = await this.books.views(entry, this.credentialedVenues(principal.client_id, principal.mode), this.ledger(principal.client_id, principal.mode));
    const plan = route(this.routeRequest('preview', request, entry), views);
    const landed = plan.planned_qty_1e8 === 0 ? null : plan.expected_notional_1e9 + (request.side === 'buy' ? plan.expected_fee_1e9 : -plan.expected_fee_1e9);
    return { plan, landed_cost_1e9: landed };
  }

  /** Cancels every leg still working; terminal orders answer with their status. */
  async cancel(principal: Principal, id: string): Promise<OrderRecord> {
    const order = this.storage.orders.getOrder(principal.client_id, principal.mode, id);
    if (order === undefined) throw Errors.notFound(`order ${id} not found`);
    if (isTerminal(order.status)) return order;
    if (order.status === 'WAITING') {
      this.finish(order, 'CANCELLED', 'cancelled', 'cancelled by client before activation');
      await this.persist(order);
      this.emitOrder(order);
      return order;
    }
    // IOC legs in flight end by themselves: wait for them; resting legs are cancelled on their venues.
    await this.running.get(order.node_order_id);
    const working = this.workingOrder(order.node_order_id);
    if (working !== undefined) await this.cancelResting(working, 'cancelled');
    return this.storage.orders.getOrder(principal.client_id, principal.mode, id) ?? order;
  }

  /** Kill switch: nothing new is admitted (see `submit`); armed orders and resting legs are cancelled. */
  async haltAll(): Promise<void> {
    for (const order of this.storage.orders.openOrders()) {
      if (order.status !== 'WAITING') continue;
      this.finish(order, 'CANCELLED', 'kill_switch', 'kill switch activated');
      this.storage.orders.putOrder(order);
      this.emitOrder(order);
    }
    await this.storage.orders.durable();
    await Promise.all(this.running.values());
    const resting = new Set([...this.restingLegs.values()].map((l) => l.order));
    await Promise.all([...resting].map((order) => this.cancelResting(order, 'kill_switch')));
  }

  /** The in-memory order of a resting leg (the one its fills update), if the order has one. */
  private workingOrder(nodeOrderId: string): OrderRecord | undefined {
    for (const leg of this.restingLegs.values()) if (leg.order.node_order_id === nodeOrderId) return leg.order;
    return undefined;
  }

  /**
   * After a restart: a working order whose child answers were lost is reconciled against the
   * venues, never guessed. The simulated venues keep no history across a restart, so such an
   * order ends CANCELLED with what LMDB holds as filled and `reconciliation_state` reconciled.
   */
  async recover(): Promise<number> {
    let n = 0;
    for (const order of this.storage.orders.openOrders()) {
      if (order.status === 'WAITING') continue;
      order.reconciliation_state = 'reconciled';
      for (const child of order.children) if (child.status === 'sent') child.status = 'unconfirmed';
      this.finish(order, 'CANCELLED', 'reconciled_after_restart', 'the venue has no record of the working legs after a restart; nothing further will fill');
      this.storage.orders.putOrder(order);
      n++;
    }
    await this.storage.orders.durable();
    return n;
  }

  async drain(): Promise<void> {
    await Promise.all(this.running.values());
    clearInterval(this.checkpointTimer);
    this.checkpoint();
    await this.storage.orders.durable();
  }

  private resolve(request: OrderRequest): BookEntry {
    const symbol = request.instrument?.symbol ?? request.symbol;
    if (symbol === undefined) throw Errors.validation([{ field: 'symbol', message: 'symbol or instrument.symbol is required' }]);
    const entry = this.quotes.resolve(symbol, request.instrument?.type);
    if (entry === undefined) throw Errors.notFound(`unknown symbol ${symbol}`);
    if (request.venue !== undefined && !entry.venues.includes(request.venue)) {
      throw Errors.validation([{ field: 'venue', message: `${request.venue} does not list ${entry.symbol}` }]);
    }
    return entry;
  }

  private newOrder(principal: Principal, request: OrderRequest, idempotencyKey: string | null, hash: string, entry: BookEntry): OrderRecord {
    const id = this.storage.orders.nextOrderId();
    const now = nowNs();
    const tif = request.time_in_force ?? (request.order_type === 'market' ? 'ioc' : 'gtc');
    return {
      node_order_id: id,
      client_id: principal.client_id,
      client_order_id: request.client_order_id,
      idempotency_key: idempotencyKey,
      mode: principal.mode,
      is_sandbox: principal.mode === 'sandbox',
      side: request.side,
      symbol: entry.symbol,
      instrument_type: entry.instrument_type,
      qty_1e8: request.qty_1e8,
      filled_qty_1e8: 0,
      order_type: request.order_type,
      time_in_force: tif,
      limit_price_1e9: request.limit_price_1e9 ?? null,
      status: 'ACCEPTED',
      execution_type: 'graph',
      venue_state: 'not_sent',
      reconciliation_state: 'in_sync',
      engine_phase: 'admitted',
      created_unix_ns: now,
      updated_unix_ns: now,
      constraints: request.constraints ?? null,
      expected_fee_1e9: null,
      expected_fee_bps: null,
      failure_class: null,
      failure_reason: null,
      first_fill_ts_ns: null,
      graph_id: `grf_${id.slice(4)}`,
      graph_name: null,
      home_region: HOME_REGION,
      node_id: NODE_ID,
      placed_price_1e9: request.limit_price_1e9 ?? request.constraints?.max_price_1e9 ?? null,
      pool_id: null,
      tca: null,
      time_to_first_fill_ms: null,
      lineage_deployment_id: null,
      routing_version: routingVersion(id),
      forced_venue: request.venue ?? null,
      arrival_mid_1e9: null,
      children: [],
      fill_ids: [],
      request_hash: hash,
    };
  }

  private routeRequest(id: string, request: Pick<OrderRequest, 'side' | 'qty_1e8' | 'order_type' | 'limit_price_1e9' | 'venue'>, entry: BookEntry, maxPrice?: number | null) {
    const arrival = this.arrivalMid(entry);
    // A market buy's max_price_1e9 caps the levels it may take; a sell has no maximum to honour.
    const limit = request.order_type === 'limit' ? request.limit_price_1e9 : request.side === 'buy' ? (maxPrice ?? undefined) : undefined;
    return {
      node_order_id: id,
      side: request.side,
      qty_1e8: request.qty_1e8,
      order_type: request.order_type,
      ...(limit !== undefined ? { limit_price_1e9: limit } : {}),
      ...(request.venue !== undefined ? { venue: request.venue } : {}),
      arrival_mid_1e9: arrival,
      now_ns: nowNs(),
    };
  }

  /** Consolidated mid at arrival, from the quote cache; 1 when there is no book (the SOR then finds nothing). */
  private arrivalMid(entry: BookEntry): number {
    const nbbo = this.quotes.nbbo1e9(entry);
    if (nbbo === undefined || nbbo.bid_1e9 <= 0 || nbbo.ask_1e9 <= 0) return 1;
    return Math.round((nbbo.bid_1e9 + nbbo.ask_1e9) / 2);
  }

  private async dispatch(order: OrderRecord, entry: BookEntry): Promise<void> {
    const ledger = this.ledger(order.client_id, order.mode);
    const views = await this.books.views(entry, this.credentialedVenues(order.client_id, order.mode), ledger);
    const request = this.routeRequest(order.node_order_id, {
      side: order.side,
      qty_1e8: order.qty_1e8,
      order_type: order.order_type,
      ...(order.limit_price_1e9 !== null ? { limit_price_1e9: order.limit_price_1e9 } : {}),
      ...(order.forced_venue !== null ? { venue: order.forced_venue } : {}),
    }, entry, order.constraints?.max_price_1e9);
    const plan = route({ ...request, routing_version: order.routing_version }, views);
    order.arrival_mid_1e9 = request.arrival_mid_1e9 > 1 ? request.arrival_mid_1e9 : null;
    order.expected_fee_1e9 = plan.expected_fee_1e9;
    order.expected_fee_bps = plan.expected_fee_bps === null ? null : Math.round(plan.expected_fee_bps);
    order.engine_phase = 'routed';
    if (this.events.wants('routing', order.client_id, order.mode)) this.events.publish('routing', order.client_id, order.mode, plan);

    // The books were awaited: a kill switch thrown meanwhile still stops this order here.
    const gtc = order.order_type === 'limit' && order.time_in_force === 'gtc' && order.limit_price_1e9 !== null;
    const remainder = order.qty_1e8 - plan.planned_qty_1e8;
    const restable = gtc && remainder > 0 ? restingCandidates(views, order.side, remainder, order.limit_price_1e9!, order.forced_venue) : [];
    const rejection: [string, string] | undefined = this.killSwitch.active ? ['kill_switch', 'kill switch activated during admission'] : this.admit(order, plan, restable.length > 0);
    if (rejection !== undefined) {
      this.finish(order, 'REJECTED', rejection[0], rejection[1]);
      await this.persist(order);
      this.storage.orders.putClientOrderId(order);
      this.emitOrder(order);
      return;
    }
    // Pre-trade risk: reserve what each leg may spend, now, synchronously: a concurrent order
    // planned on the same balances cannot reserve them twice.
    const parts = parseSymbol(order.symbol)!;
    const reservations: (number | false)[] = [];
    for (const a of plan.allocations) {
      // Each leg reserves what it may spend at worst (see legs.ts). The SOR sized the legs to
      // fit the plan's own limits exactly: when the protection band does not fit the balance,
      // the leg goes at the plan's limit.
      const spec = edgeSpec(a.edge_id)!;
      const feeBps = Math.max(spec.taker_bps, spec.maker_bps);
      const asset = order.side === 'buy' ? parts.quote : parts.base;
      const clientLimit = order.order_type === 'limit' ? order.limit_price_1e9 : order.side === 'buy' ? (order.constraints?.max_price_1e9 ?? null) : null;
      let limit = legLimit(order.side, order.order_type, a.limit_price_1e9, clientLimit, listingOf(a.edge_id, order.symbol)?.rules.tick_1e9 ?? 1);
      let reservation = ledger.reserve(a.venue, asset, legReservation(order.side, limit, a.qty_1e8, feeBps));
      if (reservation === false && limit !== a.limit_price_1e9) {
        limit = a.limit_price_1e9;
        reservation = ledger.reserve(a.venue, asset, legReservation(order.side, limit, a.qty_1e8, feeBps));
      }
      reservations.push(reservation);
      order.children.push({
        child_id: `${order.node_order_id}-${order.children.length + 1}`,
        venue: a.venue,
        edge_id: a.edge_id,
        qty_1e8: a.qty_1e8,
        limit_price_1e9: limit,
        filled_qty_1e8: 0,
        status: reservation === false ? 'rejected' : 'sent',
        reason: reservation === false ? 'insufficient_balance' : null,
        fee_1e9: 0,
        venue_reported_cum_fee_1e9: 0,
      });
    }
    // A GTC remainder rests on the first venue (lowest maker fee) whose balance takes it.
    for (const leg of restable) {
      const spec = edgeSpec(leg.edge_id)!;
      const asset = order.side === 'buy' ? parts.quote : parts.base;
      const reservation = ledger.reserve(leg.venue, asset, legReservation(order.side, leg.limit_price_1e9, leg.qty_1e8, Math.max(spec.taker_bps, spec.maker_bps)));
      if (reservation === false) continue;
      reservations.push(reservation);
      order.children.push({
        child_id: `${order.node_order_id}-${order.children.length + 1}`,
        venue: leg.venue,
        edge_id: leg.edge_id,
        qty_1e8: leg.qty_1e8,
        limit_price_1e9: leg.limit_price_1e9,
        time_in_force: 'gtc',
        filled_qty_1e8: 0,
        status: 'sent',
        reason: null,
        fee_1e9: 0,
        venue_reported_cum_fee_1e9: 0,
      });
      break;
    }
    if (order.children.every((c) => c.status === 'rejected')) {
      this.finish(order, 'REJECTED', 'insufficient_balance', 'balances were reserved by concurrent orders');
      await this.persist(order);
      this.storage.orders.putClientOrderId(order);
      this.emitOrder(order);
      return;
    }
    order.status = 'RUNNING';
    order.venue_state = 'sent';
    order.engine_phase = 'dispatching';
    this.storage.orders.putClientOrderId(order);
    await this.persist(order);
    this.emitOrder(order);
    const run = this.execute(order, views, reservations).catch((err: unknown) => {
      this.log.error({ node_order_id: order.node_order_id, err }, 'order execution failed');
    });
    this.running.set(order.node_order_id, run);
    void run.finally(() => this.running.delete(order.node_order_id));
  }

  /** Admission after routing: [failure_class, reason] or undefined when the order may go. */
  private admit(order: OrderRecord, plan: RoutingPlan, canRest: boolean): [string, string] | undefined {
    if (plan.planned_qty_1e8 === 0 && !canRest) {
      const reasons = plan.candidates.filter((c) => c.reason !== null).map((c) => `${c.venue}: ${c.reason}`);
      return ['no_route', reasons.length > 0 ? `no venue can take the order (${reasons.join('; ')})` : 'no liquidity within the order limits'];
    }
    if (order.time_in_force === 'fok' && plan.planned_qty_1e8 < order.qty_1e8) {
      return ['fok_unfillable', `only ${plan.planned_qty_1e8} of ${order.qty_1e8} is available now`];
    }
    // A limit order may trade all of its quantity at its limit: that is its notional.
    const notional = order.limit_price_1e9 !== null ? Math.max(plan.expected_notional_1e9, notionalUsd1e9(order.limit_price_1e9, order.qty_1e8)) : plan.expected_notional_1e9;
    if (notional > this.config.maxOrderNotionalUsd1e9) {
      return ['risk_notional_cap', `order notional ${notional} exceeds the per-order cap ${this.config.maxOrderNotionalUsd1e9} (USD 1e9)`];
    }
    return undefined;
  }

  private async execute(order: OrderRecord, views: readonly VenueView[], reservations: (number | false)[]): Promise<void> {
    const started = nowNs();
    // A resting leg is registered before it is sent: its first maker fill can arrive in the same
    // batch as the placement's answer, ahead of this function's continuation.
    order.children.forEach((child, i) => {
      if (child.time_in_force === 'gtc' && child.status === 'sent') {
        this.restingLegs.set(child.child_id, { order, child, reservation: reservations[i], views, started, early: [] });
      }
    });
    // Every leg answers within the child timeout (a resting one with its crossing part), so the
    // first fills are booked together and share one commit with the order.
    const results = await Promise.all(
      order.children.map((child) =>
        child.status !== 'sent'
          ? undefined
          : this.endpoint
              .ask<ChildExecution | ChildPlacement>(
                edgeKey(child.edge_id),
                // An IOC leg's limit is the plan's worst level, widened by the protection band
                // for a market order (legs.ts): it does not walk far past what was routed.
                child.time_in_force === 'gtc'
                  ? ({ t: 'Place', child_id: child.child_id, symbol: order.symbol, side: order.side, qty_1e8: child.qty_1e8, limit_price_1e9: child.limit_price_1e9! } satisfies EdgeMessage)
                  : ({ t: 'Execute', child_id: child.child_id, symbol: order.symbol, side: order.side, qty_1e8: child.qty_1e8, limit_price_1e9: child.limit_price_1e9 } satisfies EdgeMessage),
                CHILD_TIMEOUT_MS,
              )
              .catch((err: unknown) => err as Error),
      ),
    );
    const fills: FillRecord[] = [];
    const early: MakerFill[] = [];
    order.children.forEach((child, i) => {
      const result = results[i];
      if (result === undefined) return;
      const leg = this.restingLegs.get(child.child_id);
      if (result instanceof Error) {
        // The venue's answer is lost: the leg is in doubt until reconciled, never guessed.
        child.status = 'unconfirmed';
        child.reason = result.message;
        this.restingLegs.delete(child.child_id);
        return;
      }
      const rests = 'resting_qty_1e8' in result && result.resting_qty_1e8 > 0;
      this.bookChildFills(order, child, result, reservations[i], fills, rests);
      if (rests && leg !== undefined) {
        child.status = 'resting';
        child.reason = null;
        early.push(...leg.early);
        leg.early = [];
      } else {
        this.restingLegs.delete(child.child_id);
      }
    });
    if (fills.length > 0) this.stampFirstFill(order, fills[0]!);
    if (order.children.some((c) => c.status === 'resting')) {
      // Working on a venue's book: fills come as the market reaches it (onMakerFill).
      order.status = order.filled_qty_1e8 > 0 ? 'PARTIAL' : 'ACTIVE';
      order.venue_state = 'open';
      order.engine_phase = 'working';
      order.updated_unix_ns = nowNs();
      await this.commit(order, fills);
      for (const m of early) this.onMakerFill(m);
      return;
    }
    this.settle(order, views, started);
    await this.commit(order, fills);
  }

  /**
   * Every leg has ended (or is in doubt): the final status and, when something filled, TCA.
   * The caller commits.
   */
  private settle(order: OrderRecord, views: readonly VenueView[], started: number, cancelled = false): void {
    const doubtful = order.children.some((c) => c.status === 'unconfirmed');
    const feeMismatch = order.children.some((c) => c.fee_1e9 !== c.venue_reported_cum_fee_1e9);
    order.reconciliation_state = doubtful ? 'reconciling' : feeMismatch ? 'unknown' : 'in_sync';
    if (doubtful) {
      order.status = 'UNCONFIRMED';
      order.venue_state = 'unknown';
      order.updated_unix_ns = nowNs();
    } else if (order.filled_qty_1e8 === order.qty_1e8) {
      this.finish(order, 'COMPLETED', null, null);
    } else if (cancelled) {
      this.finish(order, 'CANCELLED', 'cancelled', `cancelled by client with ${order.filled_qty_1e8} of ${order.qty_1e8} filled`);
    } else if (order.filled_qty_1e8 > 0) {
      this.finish(order, 'CANCELLED', 'ioc_remainder', `filled ${order.filled_qty_1e8} of ${order.qty_1e8}; the rest found no liquidity within the limits and was cancelled`);
    } else {
      this.finish(order, 'REJECTED', 'no_fill', order.children.map((c) => `${c.venue}: ${c.reason ?? c.status}`).join('; '));
    }
    if (order.filled_qty_1e8 > 0) {
      const fills = order.fill_ids.map((id) => this.fillsById.get(id) ?? this.storage.orders.getFill(order.client_id, order.mode, id)).filter((f): f is FillRecord => f !== undefined);
      order.tca = this.tca(order, fills, views, started) as Record<string, unknown> | null;
    }
  }

  /** Fills, the order and (through the watermark) the ledger in one commit, on disk before anyone hears of them. */
  private async commit(order: OrderRecord, fills: readonly FillRecord[]): Promise<void> {
    for (const fill of fills) this.storage.orders.putFill(order.client_id, order.mode, fill);
    this.storage.orders.putOrder(order);
    await this.storage.orders.durable();
    for (const fill of fills) this.fillsById.delete(fill.id);
    if (this.events.wants('fills', order.client_id, order.mode)) for (const fill of fills) this.events.publish('fills', order.client_id, order.mode, fill);
    this.emitOrder(order);
    if (isTerminal(order.status) && order.tca !== null && this.events.wants('tca', order.client_id, order.mode)) {
      this.events.publish('tca', order.client_id, order.mode, { node_order_id: order.node_order_id, tca: order.tca });
    }
  }

  private stampFirstFill(order: OrderRecord, fill: FillRecord): void {
    if (order.first_fill_ts_ns !== null) return;
    order.first_fill_ts_ns = fill.exchange_ts_ns;
    order.time_to_first_fill_ms = Math.max(0, Math.round((fill.ts_unix_ns - order.created_unix_ns) / 1e6));
  }

  /**
   * A resting leg filled as maker (the edge's EXEC_TOPIC). Booked against the leg's reservation;
   * the leg ends when nothing is left, the order when no leg rests.
   */
  onMakerFill(m: MakerFill): void {
    const leg = this.restingLegs.get(m.child_id);
    if (leg === undefined) {
      this.log.warn({ child_id: m.child_id }, 'maker fill for no resting leg');
      return;
    }
    const { order, child } = leg;
    if (child.status === 'sent') {
      leg.early.push(m); // the placement's answer is still on its way
      return;
    }
    const fills: FillRecord[] = [];
    const execution: ChildExecution = { child_id: m.child_id, venue: m.venue, edge_id: m.edge_id, ok: true, reason: null, fills: [m.fill], taker_bps: 0, maker_bps: m.maker_bps, ack_ns: 0 };
    this.bookChildFills(order, child, execution, leg.reservation, fills, m.left_qty_1e8 > 0, true);
    this.stampFirstFill(order, fills[0]!);
    if (m.left_qty_1e8 > 0) {
      child.status = 'resting';
      order.status = 'PARTIAL';
      order.updated_unix_ns = nowNs();
    } else {
      this.restingLegs.delete(m.child_id);
      if (!order.children.some((c) => c.status === 'resting')) this.settle(order, leg.views, leg.started);
    }
    void this.commit(order, fills).catch((err: unknown) => this.log.error({ node_order_id: order.node_order_id, err }, 'maker fill commit failed'));
  }

  /** Cancels an order's resting legs on their venues; the order then settles as CANCELLED (or COMPLETED if they filled meanwhile). */
  private async cancelResting(order: OrderRecord, why: 'cancelled' | 'kill_switch'): Promise<void> {
    const legs = order.children.filter((c) => c.status === 'resting').map((c) => this.restingLegs.get(c.child_id)).filter((l) => l !== undefined);
    if (legs.length === 0) return;
    await Promise.all(
      legs.map(async (leg) => {
        try {
          await this.endpoint.ask<CancelResult>(edgeKey(leg.child.edge_id), { t: 'Cancel', child_id: leg.child.child_id } satisfies EdgeMessage, CHILD_TIMEOUT_MS);
        } catch (err) {
          leg.child.status = 'unconfirmed';
          leg.child.reason = `cancel not confirmed: ${(err as Error).message}`;
          return;
        }
        // Fills published before the cancel's answer were booked already (same ring, in order).
        if (leg.child.status !== 'resting') return;
        leg.child.status = leg.child.filled_qty_1e8 > 0 ? 'partial' : 'cancelled';
        leg.child.reason = why;
        if (leg.reservation !== false && leg.reservation !== undefined) this.ledgerState(order.client_id, order.mode).ledger.release(leg.reservation);
        this.restingLegs.delete(leg.child.child_id);
      }),
    );
    const first = legs[0]!;
    this.settle(order, first.views, first.started, true);
    if (why === 'kill_switch' && order.status === 'CANCELLED') order.failure_class = 'kill_switch';
    await this.commit(order, []);
  }

  /**
   * One leg's answer: its fills as FillRecords, booked in the ledger against its reservation,
   * which ends with the leg (a resting leg keeps it).
   */
  private bookChildFills(
    order: OrderRecord,
    child: ChildOrder,
    result: ChildExecution,
    reservation: number | false | undefined,
    out: FillRecord[],
    rests = false,
    isMaker = false,
  ): void {
    const state = this.ledgerState(order.client_id, order.mode);
    const quote = parseSymbol(order.symbol)!.quote;
    for (const f of result.fills) {
      const fill = this.fillRecord(order, child, result, f, isMaker);
      const applied = state.ledger.applyFill({
        ...this.ledgerFill(fill, quote),
        ...(reservation !== false && reservation !== undefined ? { reservation } : {}),
      });
      if (applied.status === 'rejected') this.log.error({ fill: fill.fill_id, reason: applied.reason }, 'ledger refused a fill');
      // The fill is put in this same turn, before any checkpoint can be.
      state.watermark = fill.id;
      state.dirty = true;
      out.push(fill);
      this.fillsById.set(fill.id, fill);
      order.fill_ids.push(fill.id);
      order.filled_qty_1e8 += f.qty_1e8;
      child.filled_qty_1e8 += f.qty_1e8;
      child.fee_1e9 += f.fee_1e9;
      child.venue_reported_cum_fee_1e9 = f.cum_fee_1e9;
    }
    if (rests) return;
    child.status = child.filled_qty_1e8 === child.qty_1e8 ? 'filled' : child.filled_qty_1e8 > 0 ? 'partial' : result.ok ? 'cancelled' : 'rejected';
    child.reason = result.reason ?? (child.filled_qty_1e8 < child.qty_1e8 ? 'ioc_remainder_cancelled' : null);
    if (reservation !== false && reservation !== undefined) state.ledger.release(reservation);
  }

  private tca(order: OrderRecord, fills: readonly FillRecord[], views: readonly VenueView[], started: number): unknown {
    const nbboBid = Math.max(0, ...views.map((v) => (v.bid_count > 0 ? v.bids_px[0]! : 0)));
    const nbboAsk = Math.min(Infinity, ...views.map((v) => (v.ask_count > 0 ? v.asks_px[0]! : Infinity)));
    const mid = order.arrival_mid_1e9 ?? 0;
    const spreadBps = nbboBid > 0 && Number.isFinite(nbboAsk) && mid > 0 ? ((nbboAsk - nbboBid) * BPS) / mid : 0;
    return (
      computeTca({
        side: order.side,
        qty_1e8: order.qty_1e8,
        fills: fills.map((f) => ({ venue: f.venue, qty_1e8: f.qty_1e8, price_1e9: f.price_1e9, fee_1e9: f.fee_1e9, ts_ns: f.ts_unix_ns, is_maker: f.is_maker })),
        arrival_mid_1e9: mid,
        arrival_ts_ns: order.created_unix_ns,
        completed_ts_ns: Math.max(order.updated_unix_ns, started),
        best_single_venue: bestSingleVenue(views, order.side, order.qty_1e8),
        arrival_spread_bps: spreadBps,
      }) ?? null
    );
  }

  /** A durable fill as the ledger books it (the same mapping live and on replay). */
  private ledgerFill(fill: FillRecord, quote: string): SpotFill {
    return {
      fill_id: fill.fill_id,
      venue: fill.venue,
      symbol: fill.symbol,
      side: fill.side,
      qty_1e8: fill.qty_1e8,
      price_1e9: fill.price_1e9,
      fee_1e9: fill.fee_1e9,
      fee_asset: quote,
      // USD 1e9 to quote units 1e8, rounded up against the client; quotes here are USD-pegged.
      fee_qty_1e8: Math.ceil(fill.fee_1e9 / 10),
      quote_usd_1e9: PRICE_SCALE,
    };
  }

  private fillRecord(order: OrderRecord, child: ChildOrder, result: ChildExecution, f: ChildExecution['fills'][number], isMaker: boolean): FillRecord {
    const id = this.storage.orders.nextFillId();
    const quote = parseSymbol(order.symbol)!.quote;
    return {
      id,
      fill_id: `fil_${id.toString(36)}`,
      node_order_id: order.node_order_id,
      venue: child.venue,
      symbol: order.symbol,
      side: order.side,
      instrument_type: order.instrument_type,
      qty_1e8: f.qty_1e8,
      price_1e9: f.price_1e9,
      fee_1e9: f.fee_1e9,
      ts_unix_ns: nowNs(),
      commission_asset: quote,
      exchange_ts_ns: f.ts_ns,
      execution_region: edgeSpec(child.edge_id)?.region ?? 'unknown',
      fee_breakdown: {
        commission_1e9: f.fee_1e9,
        lp_fee_1e9: 0,
        gas_1e9: 0,
        priority_fee_1e9: 0,
        mev_tip_1e9: 0,
        funding_1e9: 0,
        rebate_1e9: 0,
        hop_fees_1e9: 0,
        commission_asset: quote,
      },
      is_maker: isMaker,
      maker_fee_bps_applied: isMaker ? result.maker_bps : null,
      taker_fee_bps_applied: isMaker ? null : result.taker_bps,
      trade_id: f.trade_id,
      venue_reported_cum_fee_1e9: f.cum_fee_1e9,
      lineage_deployment_id: null,
    };
  }

  private finish(order: OrderRecord, status: OrderStatus, failureClass: string | null, reason: string | null): void {
    order.status = status;
    order.failure_class = failureClass;
    order.failure_reason = reason;
    order.engine_phase = 'done';
    order.venue_state = status === 'COMPLETED' ? 'filled' : status === 'REJECTED' && order.children.length === 0 ? 'not_sent' : 'closed';
    order.updated_unix_ns = nowNs();
  }

  private async persist(order: OrderRecord): Promise<void> {
    order.updated_unix_ns = nowNs();
    this.storage.orders.putOrder(order);
    await this.storage.orders.durable();
  }

  private emitOrder(order: OrderRecord): void {
    if (!this.events.wants('orders', order.client_id, order.mode)) return;
    const { request_hash: _h, fill_ids: _f, mode: _m, idempotency_key: _k, ...event } = order;
    this.events.publish('orders', order.client_id, order.mode, event);
  }

  /** USD mark of an asset from the consolidated books (its USD, USDT or USDC pair). */
  markOf(asset: string): number | undefined {
    if (isDollarAsset(asset)) return PRICE_SCALE;
    for (const quote of ['USD', 'USDT', 'USDC']) {
      const entry = this.quotes.resolve(`${asset}-${quote}`, 'spot');
      const nbbo = entry === undefined ? undefined : this.quotes.nbbo1e9(entry);
      if (nbbo !== undefined && nbbo.bid_1e9 > 0 && nbbo.ask_1e9 > 0) return Math.round((nbbo.bid_1e9 + nbbo.ask_1e9) / 2);
    }
    return undefined;
  }
}

/**
 * sha256 of the request as JSON with keys sorted at every depth: the idempotency fingerprint.
 * The string is exactly `JSON.stringify` of the key-sorted request (stored hashes stay valid),
 * built in one pass.
 */
export function requestHash(request: OrderRequest): string {
  return hash('sha256', canonicalJson(request), 'hex');
}

function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const record = value as Record<string, unknown>;
  let out = '';
  for (const key of Object.keys(record).sort()) {
    const v = record[key];
    if (v === undefined) continue;
    out += `${out === '' ? '' : ','}${JSON.stringify(key)}:${canonicalJson(v)}`;
  }
  return `{${out}}`;
}
