import { hash } from 'node:crypto';
import type { ChildExecution, EdgeMessage } from '../../actors/edge/messages.ts';
import { edgeSpec } from '../../actors/edge/sim/catalog.ts';
import { Ledger, isDollarAsset, type LedgerSnapshot, type SpotFill } from '../../actors/ledger/ledger.ts';
import { edgeKey, type BookEntry } from '../../actors/market/directory.ts';
import { routingVersion } from '../../actors/router/sor-cost.ts';
import type { RoutingPlan } from '../../actors/router/sor-types.ts';
import { route } from '../../actors/router/sor.ts';
import { computeTca } from '../../actors/tca/tca.ts';
import { parseSymbol } from '../../domain/market.ts';
import type { ChildOrder, FillRecord, Mode, OrderRecord, OrderStatus } from '../../domain/orders.ts';
import { isTerminal } from '../../domain/orders.ts';
import { BPS, nowNs, PRICE_SCALE } from '../../domain/units.ts';
import type { Logger } from '../../engine/actor.ts';
import type { Endpoint } from '../../engine/endpoint.ts';
import type { Storage } from '../../storage/index.ts';
import type { Principal } from '../auth/principal.ts';
import { Errors } from '../errors.ts';
import type { KillSwitch } from '../kill-switch.ts';
import type { QuoteService } from '../market/quotes.ts';
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

  async submit(principal: Principal, request: OrderRequest, idempotencyKey: string | undefined): Promise<{ status: 200 | 201; order: OrderRecord }> {
    const clientOrderId = idempotencyKey ?? request.client_order_id;
    const key = `${principal.client_id}|${principal.mode}|${clientOrderId}`;
    const hash = requestHash(request);
    // A request whose twin is still being admitted waits for it, then answers as a retry would.
    const pending = this.admitting.get(key);
    if (pending !== undefined) {
      const first = await pending.catch(() => undefined);
      if (first !== undefined) {
        if (first.order.request_hash !== hash) {
          throw Errors.conflict('IDEMPOTENCY_CONFLICT', `client_order_id ${clientOrderId} was used with a different request`);
        }
        return { status: 200, order: first.order };
      }
    }
    const admission = this.admitOnce(principal, request, clientOrderId, hash);
    this.admitting.set(key, admission);
    try {
      return await admission;
    } finally {
      if (this.admitting.get(key) === admission) this.admitting.delete(key);
    }
  }

  private async admitOnce(
    principal: Principal,
    request: OrderRequest,
    clientOrderId: string,
    hash: string,
  ): Promise<{ status: 200 | 201; order: OrderRecord }> {
    const client = principal.client_id;
    const mode = principal.mode;
    const existing = this.storage.orders.byClientOrderId(client, mode, clientOrderId);
    if (existing !== undefined) {
      if (existing.request_hash !== hash) {
        throw Errors.conflict('IDEMPOTENCY_CONFLICT', `client_order_id ${clientOrderId} was used with a different request`);
      }
      return { status: 200, order: existing };
    }
    if (this.killSwitch.active) throw Errors.unavailable('DISPATCH_HALTED', 'kill switch active: new orders are rejected');
    const entry = this.resolve(request);
    const order = this.newOrder(principal, request, clientOrderId, hash, entry);
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
    // Children are immediate-or-cancel: the legs in flight end by themselves; wait for them.
    await this.running.get(order.node_order_id);
    return this.storage.orders.getOrder(principal.client_id, principal.mode, id) ?? order;
  }

  /** Kill switch: nothing new is admitted (see `submit`); armed orders are cancelled. */
  async haltAll(): Promise<void> {
    for (const order of this.storage.orders.openOrders()) {
      if (order.status !== 'WAITING') continue;
      this.finish(order, 'CANCELLED', 'kill_switch', 'kill switch activated');
      this.storage.orders.putOrder(order);
      this.emitOrder(order);
    }
    await this.storage.orders.durable();
    await Promise.all(this.running.values());
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

  private newOrder(principal: Principal, request: OrderRequest, clientOrderId: string, hash: string, entry: BookEntry): OrderRecord {
    const id = this.storage.orders.nextOrderId();
    const now = nowNs();
    const tif = request.time_in_force ?? (request.order_type === 'market' ? 'ioc' : 'gtc');
    return {
      node_order_id: id,
      client_id: principal.client_id,
      client_order_id: clientOrderId,
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
    const limit = request.order_type === 'limit' ? request.limit_price_1e9 : (maxPrice ?? undefined);
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
    const rejection: [string, string] | undefined = this.killSwitch.active ? ['kill_switch', 'kill switch activated during admission'] : this.admit(order, plan);
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
      // A buy reserves what the leg may spend at worst: its cap price for the whole quantity plus
      // the fee (the SOR sizes legs to fit exactly that); a sell reserves its base quantity.
      const spec = edgeSpec(a.edge_id)!;
      const worst = Number((BigInt(a.limit_price_1e9) * BigInt(a.qty_1e8) + 999_999_999n) / 1_000_000_000n);
      const amount = order.side === 'buy' ? worst + Math.ceil((worst * Math.max(spec.taker_bps, spec.maker_bps)) / BPS) : a.qty_1e8;
      const reservation = ledger.reserve(a.venue, order.side === 'buy' ? parts.quote : parts.base, amount);
      reservations.push(reservation);
      order.children.push({
        child_id: `${order.node_order_id}-${order.children.length + 1}`,
        venue: a.venue,
        edge_id: a.edge_id,
        qty_1e8: a.qty_1e8,
        limit_price_1e9: a.limit_price_1e9,
        filled_qty_1e8: 0,
        status: reservation === false ? 'rejected' : 'sent',
        reason: reservation === false ? 'insufficient_balance' : null,
        fee_1e9: 0,
        venue_reported_cum_fee_1e9: 0,
      });
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
  private admit(order: OrderRecord, plan: RoutingPlan): [string, string] | undefined {
    if (plan.planned_qty_1e8 === 0) {
      const reasons = plan.candidates.filter((c) => c.reason !== null).map((c) => `${c.venue}: ${c.reason}`);
      return ['no_route', reasons.length > 0 ? `no venue can take the order (${reasons.join('; ')})` : 'no liquidity within the order limits'];
    }
    if (order.time_in_force === 'fok' && plan.planned_qty_1e8 < order.qty_1e8) {
      return ['fok_unfillable', `only ${plan.planned_qty_1e8} of ${order.qty_1e8} is available now`];
    }
    if (order.order_type === 'limit' && order.time_in_force === 'gtc') {
      return ['unsupported', 'resting (gtc) limit orders are not supported yet; use ioc or fok'];
    }
    if (plan.expected_notional_1e9 > this.config.maxOrderNotionalUsd1e9) {
      return ['risk_notional_cap', `order notional ${plan.expected_notional_1e9} exceeds the per-order cap ${this.config.maxOrderNotionalUsd1e9} (USD 1e9)`];
    }
    return undefined;
  }

  private async execute(order: OrderRecord, views: Parameters<typeof bestSingleVenue>[0], reservations: (number | false)[]): Promise<void> {
    const started = nowNs();
    // Every leg is immediate-or-cancel: they all answer within the child timeout, so their fills
    // are booked together and the order, its fills and the final status share one commit.
    const results = await Promise.all(
      order.children.map((child) =>
        child.status !== 'sent'
          ? undefined
          : this.endpoint
              .ask<ChildExecution>(
                edgeKey(child.edge_id),
                // The child's limit is the worst level the plan took: a market order does not
                // walk past what was routed to the venue.
                { t: 'Execute', child_id: child.child_id, symbol: order.symbol, side: order.side, qty_1e8: child.qty_1e8, limit_price_1e9: child.limit_price_1e9 } satisfies EdgeMessage,
                CHILD_TIMEOUT_MS,
              )
              .catch((err: unknown) => err as Error),
      ),
    );
    const fills: FillRecord[] = [];
    order.children.forEach((child, i) => {
      const result = results[i];
      if (result === undefined) return;
      if (result instanceof Error) {
        // The venue's answer is lost: the leg is in doubt until reconciled, never guessed.
        child.status = 'unconfirmed';
        child.reason = result.message;
        return;
      }
      this.bookChildFills(order, child, result, reservations[i], fills);
    });
    if (fills.length > 0) {
      order.first_fill_ts_ns = fills[0]!.exchange_ts_ns;
      order.time_to_first_fill_ms = Math.max(0, Math.round((fills[0]!.ts_unix_ns - order.created_unix_ns) / 1e6));
    }
    // Every leg answered (or is in doubt): the final status and TCA.
    const doubtful = order.children.some((c) => c.status === 'unconfirmed');
    const feeMismatch = order.children.some((c) => c.fee_1e9 !== c.venue_reported_cum_fee_1e9);
    order.reconciliation_state = doubtful ? 'reconciling' : feeMismatch ? 'unknown' : 'in_sync';
    if (doubtful) {
      order.status = 'UNCONFIRMED';
      order.venue_state = 'unknown';
      order.updated_unix_ns = nowNs();
    } else if (order.filled_qty_1e8 === order.qty_1e8) {
      this.finish(order, 'COMPLETED', null, null);
    } else if (order.filled_qty_1e8 > 0) {
      this.finish(order, 'CANCELLED', 'ioc_remainder', `filled ${order.filled_qty_1e8} of ${order.qty_1e8}; the rest found no liquidity within the limits and was cancelled`);
    } else {
      this.finish(order, 'REJECTED', 'no_fill', order.children.map((c) => `${c.venue}: ${c.reason ?? c.status}`).join('; '));
    }
    if (order.filled_qty_1e8 > 0) order.tca = this.tca(order, fills, views, started) as Record<string, unknown> | null;
    // Fills, the order and (through the watermark) the ledger in one commit, on disk before
    // anyone hears of them.
    for (const fill of fills) this.storage.orders.putFill(order.client_id, order.mode, fill);
    this.storage.orders.putOrder(order);
    await this.storage.orders.durable();
    if (this.events.wants('fills', order.client_id, order.mode)) for (const fill of fills) this.events.publish('fills', order.client_id, order.mode, fill);
    this.emitOrder(order);
    if (order.tca !== null && this.events.wants('tca', order.client_id, order.mode)) {
      this.events.publish('tca', order.client_id, order.mode, { node_order_id: order.node_order_id, tca: order.tca });
    }
  }

  /** One leg's answer: its fills as FillRecords, booked in the ledger against its reservation. */
  private bookChildFills(order: OrderRecord, child: ChildOrder, result: ChildExecution, reservation: number | false | undefined, out: FillRecord[]): void {
    const state = this.ledgerState(order.client_id, order.mode);
    const quote = parseSymbol(order.symbol)!.quote;
    for (const f of result.fills) {
      const fill = this.fillRecord(order, child, result, f);
      const applied = state.ledger.applyFill({
        ...this.ledgerFill(fill, quote),
        ...(reservation !== false && reservation !== undefined ? { reservation } : {}),
      });
      if (applied.status === 'rejected') this.log.error({ fill: fill.fill_id, reason: applied.reason }, 'ledger refused a fill');
      // The fill is put in this same turn, before any checkpoint can be.
      state.watermark = fill.id;
      state.dirty = true;
      out.push(fill);
      order.fill_ids.push(fill.id);
      order.filled_qty_1e8 += f.qty_1e8;
      child.filled_qty_1e8 += f.qty_1e8;
      child.fee_1e9 += f.fee_1e9;
      child.venue_reported_cum_fee_1e9 = f.cum_fee_1e9;
    }
    child.status = child.filled_qty_1e8 === child.qty_1e8 ? 'filled' : child.filled_qty_1e8 > 0 ? 'partial' : result.ok ? 'cancelled' : 'rejected';
    child.reason = result.reason ?? (child.filled_qty_1e8 < child.qty_1e8 ? 'ioc_remainder_cancelled' : null);
    if (reservation !== false && reservation !== undefined) state.ledger.release(reservation);
  }

  private tca(order: OrderRecord, fills: readonly FillRecord[], views: Parameters<typeof bestSingleVenue>[0], started: number): unknown {
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

  private fillRecord(order: OrderRecord, child: ChildOrder, result: ChildExecution, f: ChildExecution['fills'][number]): FillRecord {
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
      is_maker: false,
      maker_fee_bps_applied: null,
      taker_fee_bps_applied: result.taker_bps,
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
    const { request_hash: _h, fill_ids: _f, mode: _m, ...event } = order;
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
