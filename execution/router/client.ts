import type { Mode } from '../../domain/orders.ts';
import type { Logger } from '../../engine/actor.ts';
import type { PositionFilters } from '../ledger/ledger.ts';
import { refuse } from '../result-codes.ts';
import type { Messenger, OrderOwner, OrderRequest } from '../types.ts';
import { SANDBOX_ROWS_PER_MESSAGE, type SandboxWireRow } from '../sandbox.ts';
import {
  routerKey,
  type PositionsPage,
  type PositionsView,
  type PreviewAnswer,
  type ReconLogAnswer,
  type RedeemAnswer,
  type RiskAnswer,
  type RouterAnswer,
  type RouterMessage,
  type SandboxResetAnswer,
  type SandboxWriteAnswer,
  type SubmitAnswer,
  type SubmitJsonAnswer,
  type VenueOrdersView,
} from './messages.ts';
import type { OrderRecord } from '../../domain/orders.ts';
import type { ResolutionFacts } from '../contract-outcomes.ts';

/** How long a caller waits for a router: a cancel waits for legs in flight, a submit for its commit. */
const ROUTER_TIMEOUT_MS = 30_000;

/**
 * The routers as one sender sees them: each call is one message to the owner's router over the
 * rings, and its refusal is thrown as the engine's `ExecutionRefusal` again. The gateway's
 * routes use one; an actor on a worker can send the same messages itself.
 */
export class RouterClient {
  /** Every router started since this process began (they announce themselves), for halts and drains. */
  private readonly routers = new Set<string>();
  /** Names a sandbox write's staged parts at its router. */
  private nextUpload = 1;

  constructor(
    private readonly messenger: Messenger,
    private readonly log: Logger,
  ) {}

  /** A router announced itself (ROUTER_UP_TOPIC). */
  noteRouter(key: string): void {
    this.routers.add(key);
  }

  submit(owner: OrderOwner, request: OrderRequest, idempotencyKey: string | undefined): Promise<SubmitAnswer> {
    return this.call(owner, { t: submitTag(request), request, idempotency_key: idempotencyKey ?? null });
  }

  /**
   * As `submit`, answered with the order's public JSON (the 201 body): nothing to decode or
   * serialise here. On the journal's thread, a new order's answer comes with its commit.
   */
  submitJson(owner: OrderOwner, request: OrderRequest, idempotencyKey: string | undefined): Promise<SubmitJsonAnswer> {
    return this.call(owner, { t: submitTag(request), request, idempotency_key: idempotencyKey ?? null, as: 'json' });
  }

  preview(owner: OrderOwner, request: OrderRequest): Promise<PreviewAnswer> {
    return this.call(owner, { t: 'Preview', request });
  }

  cancel(owner: OrderOwner, nodeOrderId: string): Promise<OrderRecord> {
    return this.call(owner, { t: 'Cancel', node_order_id: nodeOrderId });
  }

  activate(owner: OrderOwner, graphId: string): Promise<OrderRecord> {
    return this.call(owner, { t: 'Activate', graph_id: graphId });
  }

  venueView(owner: OrderOwner): Promise<VenueOrdersView> {
    return this.call(owner, { t: 'VenueView' });
  }

  /** What the owner's router found reconciling with each venue since it started, and the orders it is reconciling. */
  recon(owner: OrderOwner): Promise<ReconLogAnswer> {
    return this.call(owner, { t: 'Recon' });
  }

  /** The positions view, asked page by page (every page of one view: see the `Positions` message). */
  async positions(owner: OrderOwner, filters: PositionFilters): Promise<PositionsView> {
    let page = await this.call<PositionsPage>(owner, { t: 'Positions', filters });
    const { positions, totals } = page;
    while (page.next !== null) {
      page = await this.call<PositionsPage>(owner, { t: 'Positions', filters, page: page.next });
      for (const p of page.positions) positions.push(p);
    }
    return { positions, totals };
  }

  /**
   * Sandbox positions, already checked (execution/sandbox.ts), written as one unit by the
   * client's sandbox router: in parts that each fit a ring frame, the last one applying them all.
   */
  async sandboxPositions(client: string, rows: readonly SandboxWireRow[], replace: boolean): Promise<SandboxWriteAnswer> {
    const owner = { client_id: client, mode: 'sandbox' as const };
    const last = Math.max(0, rows.length - SANDBOX_ROWS_PER_MESSAGE);
    let upload: number | null = null;
    for (let from = 0; from < last; from += SANDBOX_ROWS_PER_MESSAGE) {
      upload ??= this.nextUpload++;
      await this.call<boolean>(owner, { t: 'SandboxStage', upload, rows: rows.slice(from, Math.min(from + SANDBOX_ROWS_PER_MESSAGE, last)) });
    }
    return this.call(owner, { t: 'SandboxPositions', upload, rows: rows.slice(last), replace });
  }

  /** Resets the client's sandbox account (working orders end, balances seeded); the caller made its settings effective first. */
  sandboxReset(client: string, initialBalanceUsd: number): Promise<SandboxResetAnswer> {
    return this.call({ client_id: client, mode: 'sandbox' }, { t: 'SandboxReset', initial_balance_usd: initialBalanceUsd });
  }

  risk(owner: OrderOwner): Promise<RiskAnswer> {
    return this.call(owner, { t: 'Risk' });
  }

  credentialsChanged(owner: OrderOwner, venue: string, stored: boolean): Promise<boolean> {
    return this.call(owner, { t: stored ? 'CredentialsStored' : 'CredentialsRemoved', venue });
  }

  /** A market resolved: every router moves its client's contracts of it to `resolved` (routers not running meet it when they load). */
  async marketResolved(resolution: ResolutionFacts): Promise<void> {
    await this.everyRouter({ t: 'MarketResolved', resolution });
  }

  redeem(owner: OrderOwner, venue: string, markets: ResolutionFacts[], creditDelayMs: number): Promise<RedeemAnswer> {
    return this.call(owner, { t: 'Redeem', venue, markets, credit_delay_ms: creditDelayMs });
  }

  /** A managed wallet was created: fund its chains (durable before it resolves). */
  fundWallet(owner: OrderOwner, usdc_1e8: bigint): Promise<string[]> {
    return this.call(owner, { t: 'WalletFunded', usdc_1e8: usdc_1e8.toString() });
  }

  /** A withdrawal from the wallet's balance on a chain; answers what is left (qty_1e8, decimal text). */
  withdraw(owner: OrderOwner, chain: string, token: string, qty_1e8: bigint): Promise<string> {
    return this.call(owner, { t: 'Withdraw', chain, token, qty_1e8: qty_1e8.toString() });
  }

  /** The owner's router journals its TCA delta; resolves once it is merged on disk. */
  flushTca(owner: OrderOwner): Promise<boolean> {
    return this.call(owner, { t: 'FlushTca' });
  }

  /** After a restart: the owner's live orders of the last run, reconciled with their venues; answers how many. */
  recoverAfterRestart(owner: { client_id: string; mode: Mode }): Promise<number> {
    return this.call(owner, { t: 'RecoverAfterRestart' });
  }

  /** Kill switch: every router cancels its armed orders and resting legs. */
  async haltAll(): Promise<void> {
    await this.everyRouter({ t: 'Halt' });
  }

  /** Shutdown: every router stops its slices, waits for legs in flight and makes its state durable. */
  async drain(): Promise<void> {
    await this.everyRouter({ t: 'Drain' });
  }

  private async everyRouter(message: RouterMessage): Promise<void> {
    await Promise.all(
      [...this.routers].map((key) =>
        this.messenger.ask(key, message, ROUTER_TIMEOUT_MS).catch((err: unknown) => this.log.error({ router: key, type: message.t, err }, 'router did not answer')),
      ),
    );
  }

  private async call<T>(owner: { client_id: string; mode: Mode }, message: RouterMessage): Promise<T> {
    const answer = await this.messenger.ask<RouterAnswer<T>>(routerKey(owner.mode, owner.client_id), message, ROUTER_TIMEOUT_MS);
    if ('ok' in answer) return answer.ok;
    if ('refused' in answer) throw refuse(answer.refused.code, answer.refused.message, answer.refused.field);
    throw new Error(answer.failed);
  }
}

/** A prediction order's legs and a DEX order's wallet travel as msgpack (`SubmitExtended`); every other order in the fixed Submit layout. */
function submitTag(request: OrderRequest): 'Submit' | 'SubmitExtended' {
  return request.prediction_legs !== undefined || request.wallet !== undefined ? 'SubmitExtended' : 'Submit';
}
