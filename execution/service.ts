import type { HaltFlag, Messenger, OrderLog } from './types.ts';
import type { ChildExecution, ChildPlacement, EdgeMessage, MakerFill, SandboxProfile, VenueBalances } from '../actors/edge/messages.ts';
import { isDollarAsset, type ContractOutcome, type EventContractInstrument, type Instrument, type Ledger } from './ledger/ledger.ts';
import type { ResolutionFacts } from './contract-outcomes.ts';
import { edgeKey } from '../actors/market/directory.ts';
import { isPredictionEntry, predictionEntry, venueSymbol, type RouteEntry } from './prediction-entry.ts';
import type { RouteRequest, RoutingPlan, VenueView } from './sor/sor-types.ts';
import { route } from './sor/sor.ts';
import { crossVenuePlan } from './cross-venue.ts';
import type { ChildOrder, FillRecord, Mode, OrderRecord } from '../domain/orders.ts';
import { isTerminal } from '../domain/orders.ts';
import { nowNs, PRICE_SCALE, wallClockNs } from '../domain/units.ts';
import type { Logger } from '../engine/actor.ts';
import { refuse, ResultCode } from './result-codes.ts';
import { Booking } from './booking.ts';
import { LiveBalanceRefresh } from './live-balances.ts';
import type { FeeTiers } from './fee-tiers.ts';
import { requestHash } from './idempotency.ts';
import { Ledgers } from './ledgers.ts';
import type { SandboxWireRow } from './sandbox.ts';
import { CHILD_TIMEOUT_MS, withParticipation, restingCandidates } from './legs.ts';
import { isSliced, roundUpToLots, sliceInterval, sliceQty } from './slicing.ts';
import { finish, newOrder, orderIdOfGraph } from './order-record.ts';
import { Reconciliation } from './reconciliation.ts';
import { ReconcileLog, type ReconLogAnswer } from './recon.ts';
import { RestingLegs } from './resting-legs.ts';
import { SlicedExecution } from './sliced-execution.ts';
import { admit, reserveLegs, unreservedReason } from './risk.ts';
import { perpMarginRefusal } from './perp-orders.ts';
import { lotRemainder } from './legs.ts';
import { legReportProblem } from './leg-reports.ts';
import { arrivalMid, routeRequest } from './route-request.ts';
import type { ExecutionConfig, ExecutionEvents, MarketView, OrderOwner, OrderRequest, Schedule } from './types.ts';
import { VenueObserver } from './venue-observer.ts';
import { FundingClock } from './funding-clock.ts';
import { edgesOfVenue } from '../domain/venues.ts';
import { dexEntry, gasRefusal, isDexEntry, poolOfEdge, swapExecution, swapMessage, withGasFees, type DexEntry } from './dex-orders.ts';
import type { SwapOutcome } from '../actors/dex-chain/chain.ts';
import { venueOrdersView, type VenueOrdersView } from './venue-merge.ts';
import type { VenueBooks } from './views.ts';

export { requestHash } from './idempotency.ts';

/** The working orders a venue view looks at, at most (the working set is bounded by the client's own flow). */
const MAX_VENUE_VIEW_ORDERS = 10_000;
export type { ExecutionChannel, ExecutionConfig, ExecutionEvents, OrderRequest } from './types.ts';

/** What an execution service runs on: its thread's messenger, timers and durable log, the shared market. */
export interface ExecutionDeps {
  orders: OrderLog;
  messenger: Messenger;
  schedule: Schedule;
  books: VenueBooks;
  feeTiers: FeeTiers;
  market: MarketView;
  halt: HaltFlag;
  credentialedVenues: (client: string, mode: Mode) => ReadonlySet<string>;
  /** How the edges execute this client's sandbox children (its effective sandbox settings). */
  sandboxProfile: (client: string) => SandboxProfile;
  events: ExecutionEvents;
  config: ExecutionConfig;
  log: Logger;
  /** The actor key the edges tell this service's maker fills to (its router). */
  self: string;
  /** The stored resolution binding an event contract (LMDB), for ledgers that missed the live event. */
  storedOutcome?: (contract: EventContractInstrument, venue: string) => ContractOutcome | undefined;
  /** Whether the client runs this deployment in this mode now (the lineage gate); absent, no order carries a lineage. */
  deploymentRunning?: (client: string, mode: Mode, deploymentId: string) => boolean;
}

/**
 * The execution engine's coordinator on the gateway thread, next to LMDB: admission
 * (idempotency, kill switch, risk), routing (the pure SOR over the edges' books), durable order
 * and fill state, the positions ledgers, TCA and the private streams. Child orders run on the
 * edge actors through the rings.
 *
 *   POST /v1/orders -> admit -> views (depth cache) -> SOR plan -> reserve -> LMDB + flushed -> 201
 *                   -> legs to the edges (IOC Execute, GTC Place) -> fills -> ledger
 *                   -> fills + final status + TCA -> LMDB + flushed -> publish
 *   resting legs:      maker fill -> ledger -> LMDB + flushed -> publish   (resting-legs.ts)
 *   sliced orders:     the same sweep once per slice until the horizon    (sliced-execution.ts)
 *   lost answers:      Reconcile with the edge, never guessed              (reconciliation.ts)
 */
export class ExecutionService {
  private readonly ledgers: Ledgers;
  private readonly funding: FundingClock;
  private readonly running = new Map<string, Promise<void>>();
  /** Armed graphs being activated. */
  private readonly activating = new Set<string>();
  /** Admissions under way by `client|mode|client_order_id`, so concurrent twins make one order. */
  private readonly admitting = new Map<string, Promise<{ status: 200 | 201; order: OrderRecord }>>();
  /** What each venue has done with our legs, for the SOR. */
  private readonly observer: VenueObserver;
  /** An order's fills on the ledger, its final status and TCA, its durable commits. */
  private readonly booking: Booking;
  /** The legs' answers, and the resting (GTC) legs with their maker fills and cancels. */
  private readonly legs: RestingLegs;
  /** Legs in doubt, asked of their venues; working orders closed after a restart. */
  private readonly reconciliation: Reconciliation;
  /** What reconciling with each venue found since this router started, and the orders it is reconciling. */
  private readonly reconciles = new ReconcileLog(nowNs());
  /** Sliced orders working now: their slices, and how to stop them between slices. */
  private readonly sliced: SlicedExecution;
  /** Token-style redemptions submitted and not yet credited, by `venue|market_id`. */
  private readonly redeeming = new Set<string>();
  private readonly schedule: Schedule;

  private readonly orders: OrderLog;
  private readonly endpoint: Messenger;
  private readonly books: VenueBooks;
  readonly feeTiers: FeeTiers;
  private readonly quotes: MarketView;
  private readonly killSwitch: HaltFlag;
  private readonly credentialedVenues: (client: string, mode: Mode) => ReadonlySet<string>;
  private readonly sandboxProfile: (client: string) => SandboxProfile;
  private readonly events: ExecutionEvents;
  private readonly config: ExecutionConfig;
  private readonly log: Logger;
  private readonly self: string;
  private readonly deploymentRunning: (client: string, mode: Mode, deploymentId: string) => boolean;

  constructor(deps: ExecutionDeps) {
    const { orders, log, config, events } = deps;
    this.orders = orders;
    this.endpoint = deps.messenger;
    this.books = deps.books;
    this.feeTiers = deps.feeTiers;
    this.quotes = deps.market;
    this.killSwitch = deps.halt;
    this.credentialedVenues = deps.credentialedVenues;
    this.sandboxProfile = deps.sandboxProfile;
    this.events = events;
    this.config = config;
    this.log = log;
    this.self = deps.self;
    this.deploymentRunning = deps.deploymentRunning ?? (() => false);
    this.ledgers = new Ledgers(orders, log, config, (asset) => this.markOf(asset), deps.storedOutcome);
    this.schedule = deps.schedule;
    this.observer = new VenueObserver(this.quotes);
    const liveBalances = new LiveBalanceRefresh(
      config.liveVenues ?? [],
      deps.schedule,
      (client, mode, venue) => this.orders.openOrders().some((o) => o.client_id === client && o.mode === mode && o.children.some((c) => c.venue === venue && (c.status === 'sent' || c.status === 'resting' || c.status === 'unconfirmed'))),
      (client, mode, venue, quiet) => this.openSimAccount(client, mode, venue, quiet),
      log,
    );
    this.booking = new Booking(orders, this.ledgers, events, this.observer, log, (order) => liveBalances.afterCommit(order));
    this.legs = new RestingLegs(this.endpoint, this.ledgers, this.booking, log, deps.schedule, this.reconciles);
    this.reconciliation = new Reconciliation(this.endpoint, this.ledgers, this.legs, this.booking, log, deps.schedule, this.reconciles, this.self);
    const steps = { executeLegs: this.executeLegs.bind(this), reconcileIfInDoubt: this.reconcileIfInDoubt.bind(this), viewsOf: this.viewsOf.bind(this), plan: this.plan.bind(this) };
    this.sliced = new SlicedExecution(steps, this.booking, this.ledgers, this.killSwitch, deps.schedule);
    this.funding = new FundingClock(this.endpoint, deps.schedule, this.ledgers, events, (asset, instrument) => this.markOf(asset, instrument), log);
  }

  /** The client's positions ledger in a mode (see ledgers.ts: checkpoint plus replayed fills). */
  ledger(client: string, mode: Mode): Ledger {
    return this.ledgers.ledger(client, mode);
  }

  /** What reconciling with each venue found since this router started, and the orders it is reconciling now (`GET /v1/data/recon`). */
  reconState(): ReconLogAnswer {
    return this.reconciles.snapshot();
  }

  /** Writes the checkpoint of every ledger with fills since its last one. */
  checkpoint(): void {
    this.ledgers.checkpoint(true);
  }

  start(): void {
    this.ledgers.start();
    this.funding.start();
  }

  /** Stops the timers (the actor's onStop); `drain` is the graceful end. */
  stop(): void {
    this.funding.stop();
    this.reconciliation.stop();
    this.legs.stop();
    this.ledgers.stop();
  }

  /** A managed wallet was created: its chains' balances (ledgers.ts `fundWallet`). */
  fundWallet(owner: OrderOwner, usdc_1e8: bigint): Promise<string[]> {
    return this.ledgers.fundWallet(owner.client_id, owner.mode, usdc_1e8);
  }

  /** POST /v1/wallets/withdraw: debits the wallet's balance on the chain; refused (the amount) when it holds less. */
  async withdraw(owner: OrderOwner, chain: string, token: string, qty_1e8: bigint): Promise<bigint> {
    const done = await this.ledgers.withdraw(owner.client_id, owner.mode, chain, token, qty_1e8);
    if (done === false) {
      const available = this.ledgers.ledger(owner.client_id, owner.mode).available(chain, token);
      throw refuse(ResultCode.INVALID_FIELD, `the wallet holds ${available} (qty_1e8) of ${token} available on ${chain}, less than the ${qty_1e8} asked`, 'amount');
    }
    return done.left_qty_1e8;
  }

  /** Opens a simulated venue account when credentials are stored (see ledgers.ts). */
  /**
   * Opens the client's account on a venue in the ledger: a simulated venue's from
   * SIM_ACCOUNT_USD; a live venue's from the balances the venue reports (its edge asks with the
   * client's credentials), as the spec says: initial live state is pulled from venues.
   */
  async openSimAccount(client: string, mode: Mode, venue: string, applyIf?: () => boolean): Promise<void> {
    if (mode !== 'live' || !(this.config.liveVenues ?? []).includes(venue)) return this.ledgers.openSimAccount(client, mode, venue);
    // A venue with no spot edge (Hyperliquid) keeps its collateral on its perp edge.
    const edge = edgesOfVenue(venue).find((e) => e.instrument_type === 'spot') ?? edgesOfVenue(venue)[0];
    if (edge === undefined) return;
    const answer = await this.endpoint.ask<VenueBalances | null>(edgeKey(edge.edge_id), { t: 'Balances', client_id: client } satisfies EdgeMessage, 10_000);
    if (answer === null) return;
    if (answer.error !== undefined) throw new Error(`${venue} balances not pulled: ${answer.error}`);
    // A leg that started while the balances were asked for may have filled at the venue before
    // its fill is booked here: applying them now would count that fill twice.
    if (applyIf !== undefined && !applyIf()) return;
    await this.ledgers.syncVenue(client, mode, venue, answer.balances.map((b) => ({ asset: b.asset, qty_1e8: BigInt(b.free_1e8) + BigInt(b.locked_1e8) })));
  }

  /** POST /v1/sandbox/positions: stated positions on the sandbox ledger (ledgers.ts `writeSandbox`), durable before it resolves. */
  writeSandboxPositions(client: string, rows: readonly SandboxWireRow[], replace: boolean): Promise<{ written: number; deleted: number }> {
    return this.ledgers.writeSandbox(client, rows, replace);
  }

  /**
   * POST /v1/sandbox/reset: the client's working sandbox orders are cancelled first (an armed
   * one at once, a resting leg on its venue, IOC legs in flight awaited), so no reservation
   * outlives the ledger it was made on; then the sandbox ledger is cleared and seeded
   * (ledgers.ts `resetSandbox`). An order with a leg in doubt stays open until reconciled, and
   * what it fills then is booked on the new balances. Answers how many orders ended.
   */
  async resetSandbox(owner: OrderOwner, balance_1e8: bigint): Promise<{ orders_ended: number; venues_seeded: string[] }> {
    const open = this.orders.openOrders().filter((o) => o.client_id === owner.client_id && o.mode === 'sandbox');
    const ended = await Promise.all(
      open.map((o) =>
        this.cancel(owner, o.node_order_id).then(
          (after) => isTerminal(after.status),
          (err: unknown) => {
            this.log.warn({ node_order_id: o.node_order_id, err }, 'sandbox reset: order not cancelled');
            return false;
          },
        ),
      ),
    );
    const venues_seeded = await this.ledgers.resetSandbox(owner.client_id, balance_1e8);
    return { orders_ended: ended.filter((e) => e).length, venues_seeded };
  }

  /**
   * Idempotent on the body's `client_order_id` and, when sent, on the `Idempotency-Key` header:
   * the order keeps its `client_order_id` and answers to both keys. Either key seen before with
   * the same request returns the original order (200), with another request 409.
   *
   * `reply`: a token the journal's thread awaits the HTTP answer under. A new order's 201 then
   * rides in the write set that makes it durable (Booking.persist); a replay (200) or a refusal
   * is the caller's to answer.
   */
  async submit(principal: OrderOwner, request: OrderRequest, idempotencyKey: string | undefined, reply?: number): Promise<{ status: 200 | 201; order: OrderRecord }> {
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
    const admission = this.admitOnce(principal, request, idempotencyKey ?? null, hash, reply);
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
      throw refuse(ResultCode.IDEMPOTENCY_CONFLICT, `${what} was used with a different request`);
    }
    return { status: 200, order };
  }

  private async admitOnce(
    principal: OrderOwner,
    request: OrderRequest,
    idempotencyKey: string | null,
    hash: string,
    reply: number | undefined,
  ): Promise<{ status: 200 | 201; order: OrderRecord }> {
    const client = principal.client_id;
    const mode = principal.mode;
    const byHeader = idempotencyKey === null ? undefined : this.orders.byIdempotencyKey(client, mode, idempotencyKey);
    if (byHeader !== undefined) return this.replay(byHeader, hash, `hdr/${idempotencyKey}`);
    const existing = this.orders.byClientOrderId(client, mode, request.client_order_id);
    if (existing !== undefined) return this.replay(existing, hash, request.client_order_id);
    if (this.killSwitch.active) throw refuse(ResultCode.DISPATCH_HALTED, 'kill switch active: new orders are rejected');
    const entry = this.resolve(request);
    const order = newOrder(this.orders.nextOrderId(), nowNs(), principal, request, idempotencyKey, hash, entry, this.config.region?.name);
    const lineage = request.lineage_deployment_id;
    if (lineage !== undefined && !this.deploymentRunning(client, mode, lineage)) {
      // Fail closed: an algo order names a deployment this client runs in this mode, or nothing trades.
      finish(order, 'REJECTED', 'risk_lineage', `no running deployment ${lineage} of this client in ${mode} mode`);
      this.orders.putClientOrderId(order);
      await this.booking.persist(order, reply);
      this.booking.emitOrder(order);
      return { status: 201, order };
    }
    if (request.start_armed === true) {
      order.status = 'WAITING';
      order.execution_type = 'armed';
      order.venue_state = 'not_sent';
      this.orders.putClientOrderId(order);
      await this.booking.persist(order, reply);
      this.booking.emitOrder(order);
      return { status: 201, order };
    }
    await this.dispatch(order, entry, reply);
    return { status: 201, order };
  }

  /** Activates an armed graph: routes and dispatches it like a new order. */
  async activate(principal: OrderOwner, graphId: string): Promise<OrderRecord> {
    const orderId = orderIdOfGraph(graphId);
    const order = this.orders.getOrder(principal.client_id, principal.mode, orderId);
    if (order === undefined) throw refuse(ResultCode.GRAPH_NOT_FOUND, `execution graph ${graphId} not found`);
    if (order.execution_type !== 'armed' || order.status !== 'WAITING' || this.activating.has(order.node_order_id)) {
      throw refuse(ResultCode.GRAPH_NOT_ARMED, `execution graph ${graphId} is not armed (status ${order.status})`);
    }
    if (this.killSwitch.active) throw refuse(ResultCode.DISPATCH_HALTED, 'kill switch active: new orders are rejected');
    // Claimed before the first await: a concurrent activation of the same graph is a 409.
    this.activating.add(order.node_order_id);
    order.execution_type = 'graph';
    order.status = 'ACCEPTED';
    const entry = order.prediction_legs !== undefined ? predictionEntry(order.prediction_legs) : (this.dexEntryOf(order.symbol, undefined, order.wallet !== undefined) ?? this.quotes.resolve(order.symbol, order.instrument_type)!);
    try {
      await this.dispatch(order, entry);
    } finally {
      this.activating.delete(order.node_order_id);
    }
    return order;
  }

  /** Routes without placing: the plan, its fees and landed cost. */
  async preview(principal: OrderOwner, request: OrderRequest): Promise<{ plan: RoutingPlan; landed_cost_1e9: number | null }> {
    const entry = this.resolve(request);
    const views = await this.viewsFor(principal, entry, request);
    // The same limits as a placed order: a market buy's price cap and the participation limit.
    const participation = request.constraints?.participation_limit_bps;
    const plan = routeOn(entry, routeRequest('preview', request, arrivalMid(this.quotes, entry, views), request.constraints?.max_price_1e9), views, participation);
    const landed = plan.planned_qty_1e8 === 0 ? null : plan.expected_notional_1e9 + (request.side === 'buy' ? plan.expected_fee_1e9 : -plan.expected_fee_1e9);
    return { plan, landed_cost_1e9: landed };
  }

  /** A prediction market resolved: the loaded ledgers' contracts of it become `resolved`, durable before this resolves. */
  marketResolved(r: ResolutionFacts): Promise<number> {
    return this.ledgers.resolve(r);
  }

  /**
   * Redeems the client's resolved contracts of `markets` on `venue`. The ticker-style venue
   * settles them itself: they are credited now (`auto_settled`). The token-style venue pays
   * through a relayer: the redemption is submitted and the credit lands `creditDelayMs` later
   * (`relayer_submitted`; asked again meanwhile, the same answer, submitted once). Nothing
   * resolved to redeem: `noop`.
   */
  async redeem(owner: OrderOwner, venue: string, markets: readonly ResolutionFacts[], creditDelayMs: number): Promise<{ mode: 'auto_settled' | 'relayer_submitted' | 'noop'; positions: number }> {
    const { client_id: client, mode } = owner;
    if (venue === 'kalshi') {
      const positions = await this.ledgers.redeem(client, mode, venue, markets);
      return { mode: positions > 0 ? 'auto_settled' : 'noop', positions };
    }
    const keys = markets.map((m) => `${venue}|${m.market_id}`);
    const pending = keys.some((k) => this.redeeming.has(k));
    const positions = this.ledgers.countResolved(client, mode, venue, markets);
    if (pending) return { mode: 'relayer_submitted', positions };
    if (positions === 0) return { mode: 'noop', positions: 0 };
    for (const k of keys) this.redeeming.add(k);
    this.schedule(creditDelayMs, () => {
      this.ledgers
        .redeem(client, mode, venue, markets)
        .catch((err: unknown) => this.log.error({ err, venue }, 'redemption credit not booked'))
        .finally(() => {
          for (const k of keys) this.redeeming.delete(k);
        });
    });
    return { mode: 'relayer_submitted', positions };
  }

  /** Cancels every leg still working; terminal orders answer with their status. */
  async cancel(principal: OrderOwner, id: string): Promise<OrderRecord> {
    const order = this.orders.getOrder(principal.client_id, principal.mode, id);
    if (order === undefined) throw refuse(ResultCode.ORDER_NOT_FOUND, `order ${id} not found`);
    if (isTerminal(order.status)) return order;
    if (order.status === 'WAITING') {
      finish(order, 'CANCELLED', 'cancelled', 'cancelled by client before activation');
      await this.booking.persist(order);
      this.booking.emitOrder(order);
      return order;
    }
    // A sliced order stops before its next slice.
    this.sliced.stop(order.node_order_id, 'cancelled');
    // IOC legs in flight end by themselves: wait for them; resting legs are cancelled on their venues.
    await this.running.get(order.node_order_id);
    const working = this.legs.workingOrder(order.node_order_id);
    if (working !== undefined) await this.legs.cancelResting(working, 'cancelled');
    return this.orders.getOrder(principal.client_id, principal.mode, id) ?? order;
  }

  /** Every working order a deployment entered is cancelled (its stop, its failure); answers how many. */
  async cancelLineage(principal: OrderOwner, deploymentId: string): Promise<number> {
    const open = this.orders.openOrders().filter((o) => o.lineage_deployment_id === deploymentId && o.mode === principal.mode);
    await Promise.all(open.map((o) => this.cancel(principal, o.node_order_id).catch(() => undefined)));
    return open.length;
  }

  /** What the venues show of the account's working orders (`GET /v1/orders` venue_view). */
  venueView(client: string, mode: Mode): Promise<VenueOrdersView> {
    const open = this.orders.listOrders(client, mode, { limit: MAX_VENUE_VIEW_ORDERS, openOnly: true }).orders;
    return venueOrdersView(this.endpoint, this.credentialedVenues(client, mode), open);
  }

  /** Kill switch: nothing new is admitted (see `submit`); armed orders and resting legs are cancelled. */
  /**
   * After a restart (`closeAfterRestart` kept them open): this client's live orders of the last
   * run with legs in doubt are reconciled with their venues. What the venue filled meanwhile is
   * booked as fills; a leg still resting is cancelled, as every order of the last run ends (its
   * GTC legs registered first, so their cancel holds once they turn out to rest). Answers how
   * many orders are being reconciled.
   */
  recoverAfterRestart(): number {
    let n = 0;
    for (const order of this.orders.openOrders()) {
      if (order.status !== 'UNCONFIRMED' || !order.children.some((c) => c.status === 'unconfirmed')) continue;
      if (this.legs.workingOrder(order.node_order_id) !== undefined) continue; // already being worked here
      const started = Date.now();
      for (const child of order.children) if (child.status === 'unconfirmed' && child.time_in_force === 'gtc') this.legs.register(order, child, false, [], started);
      void this.legs.cancelResting(order, 'cancelled');
      this.reconcileIfInDoubt(order, [], started, order.children.map(() => false));
      n++;
    }
    return n;
  }

  async haltAll(): Promise<void> {
    for (const order of this.orders.openOrders()) {
      if (order.status !== 'WAITING') continue;
      finish(order, 'CANCELLED', 'kill_switch', 'kill switch activated');
      this.orders.putOrder(order);
      this.booking.emitOrder(order);
    }
    await this.orders.durable();
    this.sliced.stopAll('kill_switch');
    await Promise.all(this.running.values());
    await Promise.all([...this.legs.orders()].map((order) => this.legs.cancelResting(order, 'kill_switch')));
  }

  async drain(): Promise<void> {
    this.funding.stop();
    this.reconciliation.stop();
    this.legs.stop();
    // A sliced order is not left waiting for its horizon: it stops with what has filled.
    this.sliced.stopAll('shutdown');
    await Promise.all(this.running.values());
    this.ledgers.stop();
    await this.orders.durable();
  }

  private resolve(request: OrderRequest): RouteEntry {
    const symbol = request.instrument?.symbol ?? request.symbol;
    if (symbol === undefined) throw refuse(ResultCode.INVALID_FIELD, 'symbol or instrument.symbol is required', 'symbol');
    const entry =
      request.prediction_legs !== undefined && request.prediction_legs.length > 0
        ? predictionEntry(request.prediction_legs)
        : this.dexEntryOf(symbol, request.instrument?.type, request.wallet !== undefined) ?? this.quotes.resolve(symbol, request.instrument?.type);
    if (entry === undefined) throw refuse(ResultCode.UNKNOWN_SYMBOL, `unknown symbol ${symbol}`);
    if (isPredictionEntry(entry) && request.time_in_force === 'gtc') {
      throw refuse(ResultCode.INVALID_FIELD, 'prediction orders are immediate-or-cancel (ioc or fok): nothing rests on a prediction venue', 'time_in_force');
    }
    if (isDexEntry(entry) && request.time_in_force === 'gtc') {
      throw refuse(ResultCode.INVALID_FIELD, 'DEX orders are immediate-or-cancel (ioc or fok): a swap executes in a block or not at all', 'time_in_force');
    }
    if (request.venue !== undefined && !entry.venues.includes(request.venue)) {
      // A perp order names a venue with no perpetuals: say so, and where perps trade.
      const noPerps = entry.instrument_type === 'perp' && !edgesOfVenue(request.venue).some((e) => e.instrument_type === 'perp');
      throw refuse(
        ResultCode.INVALID_FIELD,
        noPerps ? `${request.venue} has no perpetuals; ${entry.symbol} perps trade on ${entry.venues.join(', ')}` : `${request.venue} does not list ${entry.symbol}${entry.instrument_type === 'perp' ? ' as a perpetual' : ''}`,
        'venue',
      );
    }
    return entry;
  }

  /** A chain-suffixed pair's pools, or `BASE-USD`'s pools beside its CEX book for a client trading from a wallet (dex-orders.ts). */
  private dexEntryOf(symbol: string, type: string | undefined, withWallet: boolean): DexEntry | undefined {
    return type === undefined || type === 'spot' ? dexEntry(symbol, withWallet, (s) => this.quotes.resolve(s, 'spot')) : undefined;
  }

  private async dispatch(order: OrderRecord, entry: RouteEntry, reply?: number): Promise<void> {
    const ledger = this.ledger(order.client_id, order.mode);
    const views = await this.viewsOf(order, entry);
    // A sliced order routes its first slice now; the notional cap still weighs all of it.
    const sliced = isSliced(order);
    const deadline = sliced ? Date.now() + order.constraints!.horizon_ms! : 0;
    const qty = sliced ? roundUpToLots(sliceQty(order.qty_1e8, Date.now(), deadline, sliceInterval(order)), order.qty_1e8, views) : order.qty_1e8;
    const { plan, arrival } = this.plan(order, entry, views, qty);
    order.arrival_mid_1e9 = arrival > 1 ? arrival : null;
    order.expected_fee_1e9 = plan.expected_fee_1e9;
    order.expected_fee_bps = plan.expected_fee_bps === null ? null : Math.round(plan.expected_fee_bps);
    order.engine_phase = 'routed';

    // The books were awaited: a kill switch thrown meanwhile still stops this order here.
    const gtc = order.order_type === 'limit' && order.time_in_force === 'gtc' && order.limit_price_1e9 !== null;
    const remainder = order.qty_1e8 - plan.planned_qty_1e8;
    const restable = gtc && remainder > 0 ? restingCandidates(views, order.side, remainder, order.limit_price_1e9!, order.forced_venue) : [];
    const weighed = sliced && plan.planned_qty_1e8 > 0 ? { ...plan, expected_notional_1e9: Math.round((plan.expected_notional_1e9 * order.qty_1e8) / plan.planned_qty_1e8) } : plan;
    const rejection: [string, string] | undefined = this.killSwitch.active
      ? ['kill_switch', 'kill switch activated during admission']
      : (admit(order, weighed, restable.length > 0, this.config.maxOrderNotionalUsd1e9) ??
        (order.instrument_type === 'perp' ? perpMarginRefusal(order, views) : isDexEntry(entry) ? gasRefusal(order, plan, views, ledger) : undefined));
    if (rejection !== undefined) {
      finish(order, 'REJECTED', rejection[0], rejection[1]);
      // The idempotency key goes in the same durable write as the order its 201 answers with:
      // written after it, a crash in between let a retry place the order again.
      this.orders.putClientOrderId(order);
      await this.booking.persist(order, reply);
      this.booking.emitOrder(order);
      return;
    }
    // Pre-trade risk: reserve what each leg may spend, now, synchronously: a concurrent order
    // planned on the same balances cannot reserve them twice.
    const reservations = reserveLegs(order, plan, restable, ledger);
    order.lot_remainder_1e8 = lotRemainder(order, views, plan);
    if (order.children.every((c) => c.status === 'rejected')) {
      finish(order, 'REJECTED', 'insufficient_balance', unreservedReason(order, plan));
      this.orders.putClientOrderId(order);
      await this.booking.persist(order, reply);
      this.booking.emitOrder(order);
      return;
    }
    order.status = 'RUNNING';
    order.venue_state = 'sent';
    order.engine_phase = 'dispatching';
    this.orders.putClientOrderId(order);
    // The run is registered before the commit: the 201 leaves with the commit (the journal
    // answers it), so a cancel can arrive ahead of this continuation and must find the legs to wait for.
    let go!: (execute: boolean) => void;
    const run = new Promise<boolean>((resolve) => (go = resolve))
      .then((execute) => {
        if (!execute) return undefined;
        return sliced ? this.sliced.run(order, entry, views, reservations, deadline) : this.execute(order, views, reservations);
      })
      .catch((err: unknown) => {
        this.log.error({ node_order_id: order.node_order_id, err }, 'order execution failed');
      });
    this.running.set(order.node_order_id, run);
    void run.finally(() => this.running.delete(order.node_order_id));
    try {
      await this.booking.persist(order, reply);
    } catch (err) {
      // Not durable, so not accepted: no leg goes out and what it reserved is free again.
      go(false);
      for (const r of reservations) if (r !== false && r !== undefined) ledger.release(r);
      throw err;
    }
    this.booking.emitOrder(order);
    go(true);
  }

  private async execute(order: OrderRecord, views: readonly VenueView[], reservations: readonly (number | false | undefined)[]): Promise<void> {
    const started = nowNs();
    const { fills, early } = await this.executeLegs(order, views, reservations, started);
    await this.legs.afterLegs(order, views, started, fills, early);
    this.reconcileIfInDoubt(order, views, started, reservations);
  }

  /**
   * Sends the order's legs still `sent` (an IOC `Execute` each, a GTC `Place`) and books their
   * answers; legs whose answer is lost are left `unconfirmed` for reconciliation.
   */
  private async executeLegs(
    order: OrderRecord,
    views: readonly VenueView[],
    reservations: readonly (number | false | undefined)[],
    started: number,
  ): Promise<{ fills: FillRecord[]; early: MakerFill[] }> {
    // A resting leg is registered before it is sent: its first maker fill can arrive in the same
    // batch as the placement's answer, ahead of this function's continuation.
    order.children.forEach((child, i) => {
      if (child.time_in_force === 'gtc' && child.status === 'sent') {
        this.legs.register(order, child, reservations[i], views, started);
      }
    });
    // Every leg answers within the child timeout (a resting one with its crossing part), so the
    // first fills are booked together and share one commit with the order. A sandbox order's
    // legs carry the client's sandbox profile: the edge fills them in its sandbox venue.
    const sandbox = order.mode === 'sandbox' ? this.sandboxProfile(order.client_id) : null;
    const results = await Promise.all(
      order.children.map((child) =>
        child.status !== 'sent'
          ? undefined
          : this.timed(child, this.swap(order, child) ??
            this.endpoint
              .ask<ChildExecution | ChildPlacement>(
                edgeKey(child.edge_id),
                // An IOC leg's limit is the plan's worst level, widened by the protection band
                // for a market order (legs.ts): it does not walk far past what was routed.
                child.time_in_force === 'gtc'
                  ? ({ t: 'Place', owner: this.self, child_id: child.child_id, symbol: order.symbol, side: order.side, qty_1e8: child.qty_1e8, limit_price_1e9: child.limit_price_1e9!, sandbox } satisfies EdgeMessage)
                  : ({ t: 'Execute', owner: this.self, child_id: child.child_id, symbol: venueSymbol(order, child.venue), side: order.side, qty_1e8: child.qty_1e8, limit_price_1e9: child.limit_price_1e9, sandbox } satisfies EdgeMessage),
                CHILD_TIMEOUT_MS,
              )
              .catch((err: unknown) => err as Error)),
      ),
    );
    const fills: FillRecord[] = [];
    const early: MakerFill[] = [];
    order.children.forEach((child, i) => {
      const result = results[i];
      if (result === undefined) return;
      // The venue's answer is lost, or cannot be true of the leg (refused, never booked as it
      // came): the leg is in doubt until reconciled, never guessed. A resting leg stays
      // registered: maker fills that arrive meanwhile wait for the answer.
      const problem = result instanceof Error ? null : legReportProblem(child, order.side, result);
      if (result instanceof Error || problem !== null) {
        if (problem !== null) this.log.warn({ node_order_id: order.node_order_id, child_id: child.child_id, problem }, 'venue report refused; reconciling the leg');
        child.status = 'unconfirmed';
        child.reason = result instanceof Error ? result.message : `venue report refused: ${problem}`;
        this.observer.observeLostLeg(order, child);
        return;
      }
      this.legs.applyLegAnswer(order, child, result, reservations[i], fills, early);
      this.observer.observeLeg(order, child, result, views);
    });
    return { fills, early };
  }

  /** The leg's send and answer instants (its ack latency, for the venue analytics). */
  private timed<T>(child: ChildOrder, answer: Promise<T | Error>): Promise<T | Error> {
    child.sent_unix_ns = wallClockNs();
    return answer.then((r) => {
      if (!(r instanceof Error)) child.answered_unix_ns = wallClockNs();
      return r;
    });
  }

  /** A pool leg: its swap asked of the chain, the answer as a venue's leg report (dex-orders.ts); undefined for a venue's leg. */
  private swap(order: OrderRecord, child: ChildOrder): Promise<ChildExecution | Error> | undefined {
    const pool = poolOfEdge(child.edge_id);
    if (pool === undefined) return undefined;
    return this.endpoint
      .ask<SwapOutcome>(`dex:${pool.chain}`, swapMessage(order, child, pool), CHILD_TIMEOUT_MS)
      .then((out) => swapExecution(child, pool, out, order.wallet?.signature ?? ''))
      .catch((err: unknown) => err as Error);
  }

  private reconcileIfInDoubt(order: OrderRecord, views: readonly VenueView[], started: number, reservations: readonly (number | false | undefined)[]): void {
    if (!order.children.some((c) => c.status === 'unconfirmed')) return;
    void this.reconciliation.reconcileLegs(order, views, started, reservations).catch((err: unknown) =>
      this.log.error({ node_order_id: order.node_order_id, err }, 'reconciliation failed'),
    );
  }

  /** The venue views of an order's symbol: books (a DEX order's pool curves), balances, the client's fee tiers, venue statistics. */
  private viewsOf(order: OrderRecord, entry: RouteEntry): Promise<VenueView[]> {
    return this.viewsFor(order, entry, order);
  }

  private viewsFor(owner: OrderOwner, entry: RouteEntry, intent: { side: 'buy' | 'sell'; qty_1e8: number }): Promise<VenueView[]> {
    return this.books.views(
      entry,
      this.credentialedVenues(owner.client_id, owner.mode),
      this.ledger(owner.client_id, owner.mode),
      (edge) => this.feeTiers.rates(owner.client_id, owner.mode, edge),
      (venue) => this.observer.stats(venue),
      intent,
    );
  }

  /** The SOR plan for `qty` of the order, published on the routing channel, and the arrival mid it used. */
  private plan(order: OrderRecord, entry: RouteEntry, views: readonly VenueView[], qty: number): { plan: RoutingPlan; arrival: number } {
    const arrival = arrivalMid(this.quotes, entry, views);
    const request = routeRequest(order.node_order_id, {
      side: order.side,
      qty_1e8: qty,
      order_type: order.order_type,
      ...(order.limit_price_1e9 !== null ? { limit_price_1e9: order.limit_price_1e9 } : {}),
      ...(order.forced_venue !== null ? { venue: order.forced_venue } : {}),
    }, arrival, order.constraints?.max_price_1e9);
    const participation = order.constraints?.participation_limit_bps;
    const plan = routeOn(entry, { ...request, routing_version: order.routing_version }, views, participation);
    if (this.events.wants('routing', order.client_id, order.mode)) this.events.publish('routing', order.client_id, order.mode, plan);
    return { plan, arrival };
  }

  /**
   * A resting leg filled as maker (told by the edge): booked against the leg (see
   * resting-legs.ts), durable before it is published.
   */
  onMakerFill(m: MakerFill): void {
    this.legs.onMakerFill(m);
  }

  /** USD mark of an asset from the consolidated books (its USD, USDT or USDC pair). */
  markOf(asset: string, instrument?: Instrument): number | undefined {
    // A perp row is marked at the perp's consolidated mid; without a perp book, at its base's spot mark.
    if (instrument?.kind === 'perp') {
      const perp = this.quotes.resolve(instrument.symbol, 'perp');
      const mid = perp === undefined ? undefined : this.midOf(perp);
      return mid ?? this.markOf(instrument.base);
    }
    if (isDollarAsset(asset)) return PRICE_SCALE;
    for (const quote of ['USD', 'USDT', 'USDC']) {
      const entry = this.quotes.resolve(`${asset}-${quote}`, 'spot');
      const mid = entry === undefined ? undefined : this.midOf(entry);
      if (mid !== undefined) return mid;
    }
    return undefined;
  }

  /** A book's consolidated mid (price_1e9), rounded to the nearest integer; undefined without both sides. */
  private midOf(entry: NonNullable<ReturnType<MarketView['resolve']>>): number | undefined {
    const nbbo = this.quotes.nbbo1e9(entry);
    // Both sides are safe integers below 2^52, so their sum is exact in a double.
    return nbbo !== undefined && nbbo.bid_1e9 > 0 && nbbo.ask_1e9 > 0 ? Math.round((nbbo.bid_1e9 + nbbo.ask_1e9) / 2) : undefined;
  }
}

/**
 * The SOR's plan over `views` (within the participation limit, when the order has one): an
 * outcome with equivalents on several venues goes through the cross-venue plan, never worse
 * than its best single venue.
 */
function routeOn(entry: RouteEntry, request: RouteRequest, views: readonly VenueView[], participation: number | null | undefined): RoutingPlan {
  const routed = participation != null ? withParticipation(views, participation) : views;
  if (isPredictionEntry(entry) && entry.legs.length > 1) return crossVenuePlan(request, routed);
  // A pool child pays its swap's gas whatever its size: charged exactly on the plan.
  return isDexEntry(entry) ? withGasFees(route(request, routed), routed) : route(request, routed);
}
