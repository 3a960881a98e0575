import { NO_REPLY } from '../../../engine/actor.ts';
import { RecentMap } from '../../../domain/recent.ts';
import { wallClockNs } from '../../../domain/units.ts';
import { ChildJournal, type Reconciled } from '../child-journal.ts';
import type { CancelResult, ChildExecution, ChildPlacement, MakerFill, ReconcileLegFacts } from '../messages.ts';
import type { LiveAccounts } from './accounts.ts';
import { RestFailure } from './rest.ts';
import type { LegReport, OrderVenue, VenueAccount, VenueFill } from './venue.ts';

type Answer = ChildExecution | ChildPlacement;

/** A child this edge sent to the venue: enough to look it up again. */
interface SentLeg {
  child_id: string;
  client_id: string;
  symbol: string;
  /** the router that owns it */
  owner: string;
  resting: boolean;
  sent_ms: number;
  qty_1e8: number;
}

/** A child resting on the venue: polled for its maker fills. */
interface RestingLeg extends SentLeg {
  /** trade ids already reported (the crossing part at placement, and maker fills told) */
  told: Set<string>;
  /** the quantity of those fills */
  told_qty_1e8: number;
  /** the child's quantity on the venue */
  qty_1e8: number;
  cum_fee_1e9: number;
  /** the venue's answer to our cancel, once it gave one */
  cancelled?: { found: boolean; cancelled_qty_1e8: number };
}

export interface LiveOrdersHost {
  venue: string;
  edge_id: string;
  maker_bps: number;
  taker_bps: number;
  tell(owner: string, fill: MakerFill): void;
  log: { warn(obj: object, msg?: string): void; info(obj: object, msg?: string): void };
}

/**
 * What an edge sent and what rests, per edge, kept at module level: the runtime makes a fresh
 * actor on a restart, and a fresh `LiveOrders` that forgot a sent child would book it as never
 * received, or stop polling a resting one. (A process restart is `closeAfterRestart`'s, and
 * `cancelLeftovers`'.)
 */
interface EdgeOrderState {
  sent: RecentMap<string, SentLeg>;
  resting: Map<string, RestingLeg>;
  journal: ChildJournal<Answer>;
}
const STATE = new Map<string, EdgeOrderState>();

/** The edge's order state on this thread, created once. */
export function edgeOrderState(edge_id: string): EdgeOrderState {
  let state = STATE.get(edge_id);
  if (state === undefined) STATE.set(edge_id, (state = { sent: new RecentMap(20_000), resting: new Map(), journal: new ChildJournal() }));
  return state;
}

/** How often a resting child is looked up for maker fills (the private stream is not used yet: docs/venues/binance.md). */
export const RESTING_POLL_MS = 1_000;
/** A lookup that finds nothing is final this long after the venue stopped accepting the request. */
const NOT_FOUND_MARGIN_MS = 1_000;

/**
 * A live edge's child orders: each sent under its child id as the venue's client order id,
 * answered as the simulated edge answers (`ChildExecution`, `ChildPlacement`), journaled, and
 * reconciled by asking the venue for that client order id when an answer was lost. A request
 * whose fate is unknown (timeout, 5xx) is never answered as refused: the edge stays silent, the
 * router's leg goes `UNCONFIRMED`, and `reconcile` finds what the venue did. A lookup that finds
 * nothing is only final once the venue can no longer accept the request (`acceptWindowMs`,
 * Binance's `recvWindow`), so a late arrival cannot execute after the child was booked as lost.
 */
export class LiveOrders {
  private readonly sent: RecentMap<string, SentLeg>;
  private readonly inflight = new Map<string, Promise<unknown>>();
  private readonly reconciling = new Map<string, Promise<Reconciled<Answer> | typeof NO_REPLY>>();
  private readonly resting: Map<string, RestingLeg>;
  private readonly journal: ChildJournal<Answer>;
  /** Resting children with a lookup in flight: one at a time each, whoever asks (poll, cancel, kill switch). */
  private readonly polling = new Set<string>();
  private pollTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly venue: OrderVenue,
    private readonly accounts: LiveAccounts,
    state: EdgeOrderState,
    private readonly host: LiveOrdersHost,
  ) {
    ({ sent: this.sent, resting: this.resting, journal: this.journal } = state);
    // Children left resting by an instance the runtime replaced go on being polled.
    if (this.resting.size > 0) this.startPolling();
  }

  stop(): void {
    this.stopped = true;
    if (this.pollTimer !== undefined) clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }

  /** Every client with credentials on this venue; none when the credentials cannot be read (logged). */
  private clients(): string[] {
    try {
      return this.accounts.clients();
    } catch (err) {
      this.host.log.warn({ edge: this.host.edge_id, err: (err as Error).message }, 'venue credentials not listed');
      return [];
    }
  }

  /** The client's account, or undefined when it has none or its row does not open (a fault: logged, never thrown into the actor). */
  private account(client_id: string): VenueAccount | undefined {
    try {
      return this.accounts.account(client_id);
    } catch (err) {
      this.host.log.warn({ edge: this.host.edge_id, client_id, err: (err as Error).message }, 'venue credentials unreadable');
      return undefined;
    }
  }

  openChildren(): string[] {
    return [...this.resting.keys()];
  }

  /** Sends a child (`Execute`: IOC, `Place`: GTC); answers the venue's report, or NO_REPLY when its fate is unknown. */
  async leg(client_id: string, owner: string, child_id: string, symbol: string, side: 'buy' | 'sell', qty_1e8: number, limit_price_1e9: number | null, gtc: boolean): Promise<Answer | typeof NO_REPLY> {
    if (this.journal.refused(child_id)) return this.answer(child_id, gtc, { ok: false, reason: 'reconciled_as_not_received', fills: [], resting_qty_1e8: 0 });
    // The same child twice (a duplicated frame): never sent again; the first send's answer stands.
    if (this.sent.get(child_id) !== undefined) {
      const known = this.journal.peek(child_id);
      return known?.known === true ? known.result : NO_REPLY;
    }
    const account = this.account(client_id);
    if (account === undefined) return this.answer(child_id, gtc, { ok: false, reason: `no ${this.host.venue} credentials stored for this client`, fills: [], resting_qty_1e8: 0 });
    const leg: SentLeg = { child_id, client_id, symbol, owner, resting: gtc, sent_ms: Date.now(), qty_1e8 };
    this.sent.set(child_id, leg, leg.sent_ms);
    const request = this.venue.submit(account, { child_id, symbol, side, qty_1e8, limit_price_1e9, time_in_force: gtc ? 'gtc' : 'ioc' });
    this.inflight.set(child_id, request);
    try {
      const report = await request;
      const answer = this.answer(child_id, gtc, report);
      this.journal.record(child_id, answer);
      if (gtc && report.resting_qty_1e8 > 0) this.rest(leg, report);
      return answer;
    } catch (err) {
      if (err instanceof RestFailure && err.kind === 'rate_limited') {
        // Never sent: a definite refusal, safe to answer.
        const answer = this.answer(child_id, gtc, { ok: false, reason: `${this.host.venue}: ${err.message}`, fills: [], resting_qty_1e8: 0 });
        this.journal.record(child_id, answer);
        return answer;
      }
      this.host.log.warn({ edge: this.host.edge_id, child_id, err: (err as Error).message }, 'child order fate unknown: left to reconciliation');
      return NO_REPLY;
    } finally {
      this.inflight.delete(child_id);
    }
  }

  /** What the venue did with a child whose answer was lost: `Reconciled`, or NO_REPLY when the venue cannot be asked now (the router asks again). */
  reconcile(child_id: string, facts?: ReconcileLegFacts): Promise<Reconciled<Answer> | typeof NO_REPLY> | Reconciled<Answer> {
    const known = this.journal.peek(child_id);
    if (known !== undefined) return known;
    // A leg of the last run (the router reconciles it after a restart): what the router knows of
    // it stands in for what this edge would have kept, so the venue is asked, never guessed.
    if (facts !== undefined && this.sent.get(child_id) === undefined) this.sent.set(child_id, { child_id, ...facts }, facts.sent_ms);
    let running = this.reconciling.get(child_id);
    if (running === undefined) {
      running = this.findOut(child_id).finally(() => this.reconciling.delete(child_id));
      this.reconciling.set(child_id, running);
    }
    return running;
  }

  async cancel(child_id: string): Promise<CancelResult | typeof NO_REPLY> {
    const leg = this.resting.get(child_id);
    if (leg === undefined) return { child_id, found: false, cancelled_qty_1e8: 0 };
    const account = this.account(leg.client_id);
    if (account === undefined) return NO_REPLY;
    try {
      const result = leg.cancelled ?? (await this.venue.cancel(account, child_id, leg.symbol));
      leg.cancelled = result;
      // Fills that came before the cancel are told first, so the router books them before the
      // answer. Without that lookup the answer waits: the router asks again, and the leg stays
      // in the polls meanwhile, so no fill is dropped.
      await this.poll(leg, account);
      this.resting.delete(child_id);
      return { child_id, found: result.found, cancelled_qty_1e8: result.cancelled_qty_1e8 };
    } catch (err) {
      this.host.log.warn({ edge: this.host.edge_id, child_id, err: (err as Error).message }, 'cancel not confirmed by the venue');
      return NO_REPLY;
    }
  }

  /**
   * At start: orders of the last run still open on the venue. The journal closed their orders
   * when the service started (`closeAfterRestart`), so the venue must not go on filling them:
   * each is cancelled by its child id. Orders placed on the account by other means are left
   * alone. What filled while the service was down is in the balances pulled at start.
   */
  async cancelLeftovers(): Promise<{ cancelled: number; failed: number }> {
    let cancelled = 0;
    let failed = 0;
    for (const client of this.clients()) {
      const account = this.account(client);
      if (account === undefined) continue;
      try {
        for (const { child_id, symbol } of await this.venue.ownOpenOrders(account)) {
          if (this.sent.get(child_id) !== undefined) continue; // sent by this run
          const result = await this.venue.cancel(account, child_id, symbol);
          if (result.found) cancelled++;
        }
      } catch (err) {
        failed++;
        this.host.log.warn({ edge: this.host.edge_id, client_id: client, err: (err as Error).message }, 'leftover orders of the last run not cancelled');
      }
    }
    return { cancelled, failed };
  }

  /** The kill switch: every open order of every client with credentials, on the given symbols. */
  async cancelEverything(symbols: readonly string[]): Promise<{ cancelled: number; failed: number }> {
    let cancelled = 0;
    let failed = 0;
    for (const client of this.clients()) {
      const account = this.account(client);
      if (account === undefined) continue;
      try {
        cancelled += await this.venue.cancelAll(account, symbols);
      } catch (err) {
        failed++;
        this.host.log.warn({ edge: this.host.edge_id, client_id: client, err: (err as Error).message }, 'kill switch: cancel-all failed on the venue');
      }
    }
    for (const leg of [...this.resting.values()]) {
      const account = this.account(leg.client_id);
      if (account !== undefined) await this.poll(leg, account).catch(() => undefined);
    }
    return { cancelled, failed };
  }

  private async findOut(child_id: string): Promise<Reconciled<Answer> | typeof NO_REPLY> {
    const pending = this.inflight.get(child_id);
    if (pending !== undefined) await pending.catch(() => undefined);
    const known = this.journal.peek(child_id);
    if (known !== undefined) return known;
    const leg = this.sent.get(child_id);
    // Never sent from here: refused from now on, as the simulated edge does.
    if (leg === undefined) return this.journal.reconcile(child_id);
    const account = this.account(leg.client_id);
    if (account === undefined) return NO_REPLY;
    try {
      let found = await this.venue.lookup(account, child_id, leg.symbol);
      const finalAt = leg.sent_ms + this.venue.acceptWindowMs + NOT_FOUND_MARGIN_MS;
      if (!found.found && Date.now() < finalAt) {
        await new Promise((resolve) => setTimeout(resolve, finalAt - Date.now()));
        found = await this.venue.lookup(account, child_id, leg.symbol);
      }
      if (!found.found) {
        this.journal.refuse(child_id);
        return { known: false };
      }
      const answer = this.answer(child_id, leg.resting, found.report);
      this.journal.record(child_id, answer);
      if (leg.resting && found.report.resting_qty_1e8 > 0) this.rest(leg, found.report);
      return { known: true, result: answer };
    } catch (err) {
      this.host.log.warn({ edge: this.host.edge_id, child_id, err: (err as Error).message }, 'reconcile: venue not reachable, the router asks again');
      return NO_REPLY;
    }
  }

  private rest(leg: SentLeg, report: LegReport): void {
    let cum = 0;
    let qty = 0;
    for (const f of report.fills) {
      cum += f.fee_1e9;
      qty += f.qty_1e8;
    }
    this.resting.set(leg.child_id, { ...leg, told: new Set(report.fills.map((f) => f.trade_id)), told_qty_1e8: qty, cum_fee_1e9: cum });
    this.startPolling();
  }

  private startPolling(): void {
    if (this.pollTimer !== undefined || this.stopped) return;
    this.pollTimer = setInterval(() => this.pollAll(), RESTING_POLL_MS);
    this.pollTimer.unref();
  }

  private pollAll(): void {
    if (this.resting.size === 0) {
      clearInterval(this.pollTimer);
      this.pollTimer = undefined;
      return;
    }
    for (const leg of this.resting.values()) {
      // One lookup in flight per leg: a slow venue must not stack them (each costs request weight).
      if (this.polling.has(leg.child_id)) continue;
      const account = this.account(leg.client_id);
      if (account !== undefined) void this.poll(leg, account).catch(() => undefined);
    }
  }

  /**
   * Tells the owner every fill of a resting child not told yet; forgets the child once nothing
   * rests. What is left after each fill is the child's quantity less everything told, so a
   * fill that lands between the venue's order and trades reads cannot inflate it.
   */
  private async poll(leg: RestingLeg, account: VenueAccount): Promise<void> {
    this.polling.add(leg.child_id);
    try {
      const found = await this.venue.lookup(account, leg.child_id, leg.symbol, leg.told_qty_1e8);
      if (!found.found) return;
      for (const f of found.report.fills) {
        if (leg.told.has(f.trade_id)) continue;
        leg.told.add(f.trade_id);
        leg.told_qty_1e8 += f.qty_1e8;
        leg.cum_fee_1e9 += f.fee_1e9;
        const left = Math.max(0, leg.qty_1e8 - leg.told_qty_1e8);
        this.host.tell(leg.owner, { t: 'MakerFill', child_id: leg.child_id, venue: this.host.venue, edge_id: this.host.edge_id, fill: this.fillOf(f, leg.cum_fee_1e9), left_qty_1e8: left, maker_bps: this.host.maker_bps });
      }
      if (found.report.resting_qty_1e8 === 0) this.resting.delete(leg.child_id);
    } finally {
      this.polling.delete(leg.child_id);
    }
  }

  private answer(child_id: string, gtc: boolean, report: LegReport): Answer {
    let cum = 0;
    const fills = report.fills.map((f) => {
      cum += f.fee_1e9;
      return this.fillOf(f, cum);
    });
    const execution: ChildExecution = { child_id, venue: this.host.venue, edge_id: this.host.edge_id, ok: report.ok, reason: report.reason, fills, taker_bps: this.host.taker_bps, maker_bps: this.host.maker_bps, ack_ns: wallClockNs() };
    return gtc ? { ...execution, resting_qty_1e8: report.resting_qty_1e8 } : execution;
  }

  private fillOf(f: VenueFill, cum_fee_1e9: number): ChildExecution['fills'][number] {
    const fill: ChildExecution['fills'][number] = { price_1e9: f.price_1e9, qty_1e8: f.qty_1e8, trade_id: f.trade_id, ts_ns: f.ts_ns, fee_1e9: f.fee_1e9, cum_fee_1e9, is_maker: f.is_maker };
    if (f.commission !== undefined) fill.commission = f.commission;
    if (f.region !== undefined) fill.region = f.region;
    return fill;
  }
}
