import type { Reconciled } from '../../actors/edge/child-journal.ts';
import type { CancelResult, ChildExecution, ChildPlacement, EdgeMessage, MakerFill } from '../../actors/edge/messages.ts';
import { isDollarAsset, type Ledger } from '../../actors/ledger/ledger.ts';
import { edgeKey, type BookEntry } from '../../actors/market/directory.ts';
import type { RoutingPlan, VenueView } from '../../actors/router/sor-types.ts';
import { route } from '../../actors/router/sor.ts';
import { parseSymbol } from '../../domain/market.ts';
import type { ChildOrder, FillRecord, Mode, OrderRecord } from '../../domain/orders.ts';
import { isTerminal } from '../../domain/orders.ts';
import { nowNs, PRICE_SCALE } from '../../domain/units.ts';
import type { Logger } from '../../engine/actor.ts';
import type { Endpoint } from '../../engine/endpoint.ts';
import type { Storage } from '../../storage/index.ts';
import type { Principal } from '../auth/principal.ts';
import { Errors } from '../errors.ts';
import type { KillSwitch } from '../kill-switch.ts';
import type { QuoteService } from '../market/quotes.ts';
import { fillRecord, ledgerFill } from './fills.ts';
import { requestHash } from './idempotency.ts';
import { Ledgers } from './ledgers.ts';
import { restingCandidates } from './legs.ts';
import { finish, newOrder, stampFirstFill } from './order-record.ts';
import { orderTca } from './order-tca.ts';
import { admit, reserveLegs } from './risk.ts';
import { arrivalMid, routeRequest } from './route-request.ts';
import type { ExecutionConfig, ExecutionEvents, OrderRequest } from './types.ts';
import type { VenueBooks } from './views.ts';
import type { FeeTiers } from './fee-tiers.ts';
import { VenueStatsTracker } from '../../actors/router/venue-stats.ts';

export { requestHash } from './idempotency.ts';
export type { ExecutionChannel, ExecutionConfig, ExecutionEvents, OrderRequest } from './types.ts';

const CHILD_TIMEOUT_MS = 2_000;
/** Reconciliation of legs in doubt: attempts, each after a longer wait (250 ms, 500 ms, ...). */
const RECONCILE_ATTEMPTS = 8;
const RECONCILE_BACKOFF_MS = 250;
/** How long after a fill its markout (the adverse-selection statistic) is read. */
const MARKOUT_MS = 1_000;

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
  private readonly ledgers: Ledgers;
  private readonly running = new Map<string, Promise<void>>();
  /** Armed graphs being activated. */
  private readonly activating = new Set<string>();
  /** Admissions under way by `client|mode|client_order_id`, so concurrent twins make one order. */
  private readonly admitting = new Map<string, Promise<{ status: 200 | 201; order: OrderRecord }>>();
  /** Resting (GTC) legs by child id: what their maker fills are booked against. */
  private readonly restingLegs = new Map<string, RestingLeg>();
  /** What each venue has done with our legs: versions 2 and 3 of the SOR cost with it. */
  private readonly venueStats = new VenueStatsTracker();
  /** Fills booked but not yet committed, for TCA without a read back. */
  private readonly fillsById = new Map<number, FillRecord>();

  constructor(
    private readonly storage: Storage,
    private readonly endpoint: Endpoint,
    private readonly books: VenueBooks,
    private readonly feeTiers: FeeTiers,
    private readonly quotes: QuoteService,
    private readonly killSwitch: KillSwitch,
    private readonly credentialedVenues: (client: string, mode: Mode) => ReadonlySet<string>,
    private readonly events: ExecutionEvents,
    private readonly config: ExecutionConfig,
    private readonly log: Logger,
  ) {
    this.ledgers = new Ledgers(storage, log, config, (asset) => this.markOf(asset));
  }

  /** The client's positions ledger in a mode (see ledgers.ts: checkpoint plus replayed fills). */
  ledger(client: string, mode: Mode): Ledger {
    return this.ledgers.ledger(client, mode);
  }

  /** Writes the checkpoint of every ledger changed since the last one. */
  checkpoint(): void {
    this.ledgers.checkpoint();
  }

  start(): void {
    this.ledgers.start();
  }

  /** Opens a simulated venue account when credentials are stored (see ledgers.ts). */
  openSimAccount(client: string, mode: Mode, venue: string): Promise<void> {
    return this.ledgers.openSimAccount(client, mode, venue);
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
    const order = newOrder(this.storage.orders.nextOrderId(), nowNs(), principal, request, idempotencyKey, hash, entry);
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
    const views = await this.books.views(entry, this.credentialedVenues(principal.client_id, principal.mode), this.ledger(principal.client_id, principal.mode), (edge) => this.feeTiers.rates(principal.client_id, principal.mode, edge), (venue) => this.venueStats.stats(venue));
    const plan = route(routeRequest('preview', request, arrivalMid(this.quotes, entry)), views);
    const landed = plan.planned_qty_1e8 === 0 ? null : plan.expected_notional_1e9 + (request.side === 'buy' ? plan.expected_fee_1e9 : -plan.expected_fee_1e9);
    return { plan, landed_cost_1e9: landed };
  }

  /** Cancels every leg still working; terminal orders answer with their status. */
  async cancel(principal: Principal, id: string): Promise<OrderRecord> {
    const order = this.storage.orders.getOrder(principal.client_id, principal.mode, id);
    if (order === undefined) throw Errors.notFound(`order ${id} not found`);
    if (isTerminal(order.status)) return order;
    if (order.status === 'WAITING') {
      finish(order, 'CANCELLED', 'cancelled', 'cancelled by client before activation');
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
      finish(order, 'CANCELLED', 'kill_switch', 'kill switch activated');
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
      for (const child of order.children) {
        if (child.status === 'sent' || child.status === 'unconfirmed') child.status = 'unconfirmed';
        else if (child.status === 'resting') {
          // The venue restarted with the process: nothing of the resting leg is left on its book.
          child.status = child.filled_qty_1e8 > 0 ? 'partial' : 'cancelled';
          child.reason = 'no record on the venue after a restart';
        }
      }
      finish(order, 'CANCELLED', 'reconciled_after_restart', 'the venue has no record of the working legs after a restart; nothing further will fill');
      this.storage.orders.putOrder(order);
      n++;
    }
    await this.storage.orders.durable();
    return n;
  }

  async drain(): Promise<void> {
    await Promise.all(this.running.values());
    this.ledgers.stop();
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

  private async dispatch(order: OrderRecord, entry: BookEntry): Promise<void> {
    const ledger = this.ledger(order.client_id, order.mode);
    const views = await this.books.views(entry, this.credentialedVenues(order.client_id, order.mode), ledger, (edge) => this.feeTiers.rates(order.client_id, order.mode, edge), (venue) => this.venueStats.stats(venue));
    const request = routeRequest(order.node_order_id, {
      side: order.side,
      qty_1e8: order.qty_1e8,
      order_type: order.order_type,
      ...(order.limit_price_1e9 !== null ? { limit_price_1e9: order.limit_price_1e9 } : {}),
      ...(order.forced_venue !== null ? { venue: order.forced_venue } : {}),
    }, arrivalMid(this.quotes, entry), order.constraints?.max_price_1e9);
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
    const rejection: [string, string] | undefined = this.killSwitch.active ? ['kill_switch', 'kill switch activated during admission'] : admit(order, plan, restable.length > 0, this.config.maxOrderNotionalUsd1e9);
    if (rejection !== undefined) {
      finish(order, 'REJECTED', rejection[0], rejection[1]);
      await this.persist(order);
      this.storage.orders.putClientOrderId(order);
      this.emitOrder(order);
      return;
    }
    // Pre-trade risk: reserve what each leg may spend, now, synchronously: a concurrent order
    // planned on the same balances cannot reserve them twice.
    const reservations = reserveLegs(order, plan, restable, ledger);
    if (order.children.every((c) => c.status === 'rejected')) {
      finish(order, 'REJECTED', 'insufficient_balance', 'balances were reserved by concurrent orders');
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
      if (result instanceof Error) {
        // The venue's answer is lost: the leg is in doubt until reconciled, never guessed. A
        // resting leg stays registered: maker fills that arrive meanwhile wait for the answer.
        child.status = 'unconfirmed';
        child.reason = result.message;
        this.venueStats.onLeg({ venue: child.venue, side: order.side, accepted: false, filled_qty_1e8: 0, vwap_1e9: 0, best_at_routing_1e9: 0 });
        return;
      }
      this.applyLegAnswer(order, child, result, reservations[i], fills, early);
      this.observeLeg(order, child, result, views);
    });
    await this.afterLegs(order, views, started, fills, early);
    if (order.children.some((c) => c.status === 'unconfirmed')) {
      void this.reconcileLegs(order, views, started, reservations).catch((err: unknown) =>
        this.log.error({ node_order_id: order.node_order_id, err }, 'reconciliation failed'),
      );
    }
  }

  /** A leg's answer as a venue statistic: accepted or refused, and how far it filled past the best price. */
  private observeLeg(order: OrderRecord, child: ChildOrder, result: ChildExecution, views: readonly VenueView[]): void {
    let qty = 0;
    let notional = 0; // a statistic in doubles (bps), not money
    for (const f of result.fills) {
      qty += f.qty_1e8;
      notional += f.price_1e9 * f.qty_1e8;
    }
    const view = views.find((v) => v.venue === child.venue);
    const best = view === undefined ? 0 : order.side === 'buy' ? (view.ask_count > 0 ? view.asks_px[0]! : 0) : view.bid_count > 0 ? view.bids_px[0]! : 0;
    this.venueStats.onLeg({ venue: child.venue, side: order.side, accepted: result.ok, filled_qty_1e8: qty, vwap_1e9: qty > 0 ? notional / qty : 0, best_at_routing_1e9: best });
  }

  /** Markouts: the consolidated mid MARKOUT_MS after each fill, against the fill's price. */
  private scheduleMarkouts(order: OrderRecord, fills: readonly FillRecord[]): void {
    const entry = this.quotes.resolve(order.symbol, order.instrument_type);
    if (entry === undefined || fills.length === 0) return;
    const marks = fills.map((f) => ({ venue: f.venue, price: f.price_1e9 }));
    setTimeout(() => {
      const nbbo = this.quotes.nbbo1e9(entry);
      if (nbbo === undefined || nbbo.bid_1e9 <= 0 || nbbo.ask_1e9 <= 0 || nbbo.crossed) return;
      const mid = (nbbo.bid_1e9 + nbbo.ask_1e9) / 2;
      for (const m of marks) this.venueStats.onMarkout(m.venue, order.side, m.price, mid);
    }, MARKOUT_MS).unref();
  }

  /** A leg's answer, from the venue or from reconciliation: its fills booked, and whether it rests. */
  private applyLegAnswer(order: OrderRecord, child: ChildOrder, result: ChildExecution | ChildPlacement, reservation: number | false | undefined, fills: FillRecord[], early: MakerFill[]): void {
    const leg = this.restingLegs.get(child.child_id);
    const rests = 'resting_qty_1e8' in result && result.resting_qty_1e8 > 0;
    this.bookChildFills(order, child, result, reservation, fills, rests);
    if (rests && leg !== undefined) {
      child.status = 'resting';
      child.reason = null;
      early.push(...leg.early);
      leg.early = [];
    } else {
      this.restingLegs.delete(child.child_id);
    }
  }

  /** Every leg has answered or is in doubt: the order rests, or settles; either way it is committed. */
  private async afterLegs(order: OrderRecord, views: readonly VenueView[], started: number, fills: FillRecord[], early: MakerFill[], reconciled = false): Promise<void> {
    if (fills.length > 0) stampFirstFill(order, fills[0]!);
    const doubtful = order.children.some((c) => c.status === 'unconfirmed');
    if (!doubtful && order.children.some((c) => c.status === 'resting')) {
      if (reconciled) order.reconciliation_state = 'reconciled';
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
    if (reconciled) order.reconciliation_state = 'reconciled';
    await this.commit(order, fills);
  }

  /**
   * Legs whose answer was lost are asked of their venue (`Reconcile`) until it answers: what it
   * did is booked; a child it never saw is refused from then on and ends `cancelled`. Never
   * guessed. Gives up after RECONCILE_ATTEMPTS (the order stays UNCONFIRMED, and a restart
   * reconciles it).
   */
  private async reconcileLegs(order: OrderRecord, views: readonly VenueView[], started: number, reservations: (number | false)[]): Promise<void> {
    for (let attempt = 1; attempt <= RECONCILE_ATTEMPTS; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, RECONCILE_BACKOFF_MS * attempt));
      const fills: FillRecord[] = [];
      const early: MakerFill[] = [];
      await Promise.all(
        order.children.map(async (child, i) => {
          if (child.status !== 'unconfirmed') return;
          let answer: Reconciled<ChildExecution | ChildPlacement>;
          try {
            answer = await this.endpoint.ask(edgeKey(child.edge_id), { t: 'Reconcile', child_id: child.child_id } satisfies EdgeMessage, CHILD_TIMEOUT_MS);
          } catch {
            return; // the edge is still away: the next attempt asks again
          }
          if (answer.known) {
            this.applyLegAnswer(order, child, answer.result, reservations[i], fills, early);
            return;
          }
          child.status = 'cancelled';
          child.reason = 'not received by the venue (reconciled)';
          this.restingLegs.delete(child.child_id);
          const reservation = reservations[i];
          if (reservation !== false && reservation !== undefined) this.ledgers.ledger(order.client_id, order.mode).release(reservation);
        }),
      );
      if (!order.children.some((c) => c.status === 'unconfirmed')) {
        await this.afterLegs(order, views, started, fills, early, true);
        return;
      }
      if (fills.length > 0) await this.commit(order, fills);
    }
    this.log.error({ node_order_id: order.node_order_id }, 'legs still unconfirmed after reconciliation attempts');
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
      finish(order, 'COMPLETED', null, null);
    } else if (cancelled) {
      finish(order, 'CANCELLED', 'cancelled', `cancelled by client with ${order.filled_qty_1e8} of ${order.qty_1e8} filled`);
    } else if (order.filled_qty_1e8 > 0) {
      finish(order, 'CANCELLED', 'ioc_remainder', `filled ${order.filled_qty_1e8} of ${order.qty_1e8}; the rest found no liquidity within the limits and was cancelled`);
    } else {
      finish(order, 'REJECTED', 'no_fill', order.children.map((c) => `${c.venue}: ${c.reason ?? c.status}`).join('; '));
    }
    if (order.filled_qty_1e8 > 0) {
      const fills = order.fill_ids.map((id) => this.fillsById.get(id) ?? this.storage.orders.getFill(order.client_id, order.mode, id)).filter((f): f is FillRecord => f !== undefined);
      order.tca = orderTca(order, fills, views, started) as Record<string, unknown> | null;
    }
  }

  /** Fills, the order and (through the watermark) the ledger in one commit, on disk before anyone hears of them. */
  private async commit(order: OrderRecord, fills: readonly FillRecord[]): Promise<void> {
    for (const fill of fills) this.storage.orders.putFill(order.client_id, order.mode, fill);
    this.storage.orders.putOrder(order);
    await this.storage.orders.durable();
    for (const fill of fills) this.fillsById.delete(fill.id);
    this.scheduleMarkouts(order, fills);
    if (this.events.wants('fills', order.client_id, order.mode)) for (const fill of fills) this.events.publish('fills', order.client_id, order.mode, fill);
    this.emitOrder(order);
    if (isTerminal(order.status) && order.tca !== null && this.events.wants('tca', order.client_id, order.mode)) {
      this.events.publish('tca', order.client_id, order.mode, { node_order_id: order.node_order_id, tca: order.tca });
    }
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
    if (child.status === 'sent' || child.status === 'unconfirmed') {
      leg.early.push(m); // the placement's answer is still on its way (or being reconciled)
      return;
    }
    const fills: FillRecord[] = [];
    const execution: ChildExecution = { child_id: m.child_id, venue: m.venue, edge_id: m.edge_id, ok: true, reason: null, fills: [m.fill], taker_bps: 0, maker_bps: m.maker_bps, ack_ns: 0 };
    this.bookChildFills(order, child, execution, leg.reservation, fills, m.left_qty_1e8 > 0, true);
    stampFirstFill(order, fills[0]!);
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
        if (leg.reservation !== false && leg.reservation !== undefined) this.ledgers.ledger(order.client_id, order.mode).release(leg.reservation);
        this.restingLegs.delete(leg.child.child_id);
      }),
    );
    // A maker fill that raced the cancel may have completed (and settled) the order already.
    if (isTerminal(order.status)) return;
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
    const state = this.ledgers.state(order.client_id, order.mode);
    const quote = parseSymbol(order.symbol)!.quote;
    for (const f of result.fills) {
      const fill = fillRecord(this.storage.orders.nextFillId(), nowNs(), order, child, result, f, isMaker);
      const applied = state.ledger.applyFill({
        ...ledgerFill(fill, quote),
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

