import type { MakerFill } from '../../actors/edge/messages.ts';
import type { Mode, OrderRecord } from '../../domain/orders.ts';
import type { ExactInt } from '../../domain/units.ts';
import type { Instrument, PositionFilters, PositionsView, PositionTotals, PositionView } from '../ledger/ledger.ts';
import type { SandboxWireRow } from '../sandbox.ts';
import { topic } from '../../engine/topic.ts';
import type { ResultCode } from '../result-codes.ts';
import type { RoutingPlan } from '../sor/sor-types.ts';
import type { ExecutionChannel, OrderRequest } from '../types.ts';
import type { VenueOrdersView } from '../venue-merge.ts';
import type { ResolutionFacts } from '../contract-outcomes.ts';
import type { ReconLogAnswer } from '../recon.ts';

/**
 * What a router actor (`router:<mode>|<client>`) is asked. The gateway is one sender (one
 * message per HTTP request); an actor on a worker (a strategy deployment) is another, with the
 * same admission, journal and events.
 */
export type RouterMessage =
  /**
   * `as: 'json'`: the order comes back as its public JSON text (the HTTP answer, built here, sent
   * as is). Asked from the journal's thread, a new order's 201 is answered by the journal with
   * the commit that makes the order durable, not by the router.
   */
  | { t: 'Submit'; request: OrderRequest; idempotency_key: string | null; as?: 'json' }
  /** As `Submit`, with what the sender resolved that the fixed Submit layout does not carry (a msgpack message): a prediction order's legs, a DEX order's wallet. */
  | { t: 'SubmitExtended'; request: OrderRequest; idempotency_key: string | null; as?: 'json' }
  | { t: 'Preview'; request: OrderRequest }
  | { t: 'Cancel'; node_order_id: string }
  | { t: 'Activate'; graph_id: string }
  /** What the venues show of the working orders (`GET /v1/orders` venue_view). */
  | { t: 'VenueView' }
  /** What reconciling with each venue found since the router started, and the orders it is reconciling (`ReconLogAnswer`, `GET /v1/data/recon`). */
  | { t: 'Recon' }
  /**
   * A page of the positions view (`PositionsPage`): the first (no `page`) computes the whole view
   * and the router keeps it for the next pages (`page`: that read and the row to go on from), so
   * every page is of one view however many rows a sandbox account holds, and no answer outgrows
   * a ring frame.
   */
  | { t: 'Positions'; filters: PositionFilters; page?: { read: number; from: number } }
  | { t: 'Risk' }
  /** Credentials were stored for a venue: open its simulated account and probe the fee tier. */
  | { t: 'CredentialsStored'; venue: string }
  | { t: 'CredentialsRemoved'; venue: string }
  /** A deployment stopped or failed: every working order it entered is cancelled; answers how many. */
  | { t: 'CancelLineage'; deployment_id: string }
  /** Kill switch: armed orders and resting legs are cancelled (admission already reads the flag). */
  | { t: 'Halt' }
  /** After a restart: this client's live orders of the last run, reconciled with their venues (execution/reconciliation.ts). */
  | { t: 'RecoverAfterRestart' }
  /**
   * Sandbox positions (POST /v1/sandbox/positions), checked by the sender (execution/sandbox.ts).
   * A call's rows travel in parts of SANDBOX_ROWS_PER_MESSAGE, so each message fits a ring
   * frame: `SandboxStage` parts first (kept by the router under `upload`), then one
   * `SandboxPositions` with the last rows, which applies the staged and its own rows as one unit,
   * journals the ledger's checkpoint and answers `SandboxWriteAnswer` once it is durable.
   */
  | { t: 'SandboxStage'; upload: number; rows: SandboxWireRow[] }
  | { t: 'SandboxPositions'; upload: number | null; rows: SandboxWireRow[]; replace: boolean }
  /**
   * POST /v1/sandbox/reset: working sandbox orders end, every sandbox position goes, then each
   * venue with markets gets `initial_balance_usd` of each of its quote assets; answers
   * `SandboxResetAnswer` once durable. The sender made the client's settings effective first.
   */
  | { t: 'SandboxReset'; initial_balance_usd: number }
  /** Shutdown: slices stop, legs in flight end, ledgers are checkpointed, all durable. */
  | { t: 'Drain' }
  /** Journal the TCA delta now (once every order that ended is folded): a query of the client's analytics reads its own orders. */
  | { t: 'FlushTca' }
  /** A prediction market resolved (stored before it is sent): the router's contracts of it become `resolved`. */
  | { t: 'MarketResolved'; resolution: ResolutionFacts }
  /**
   * POST /v1/markets/{slug}/redeem: the client's resolved contracts of these markets on `venue`
   * pay out (`RedeemAnswer`); on the token-style venue the credit lands `credit_delay_ms` later.
   */
  | { t: 'Redeem'; venue: string; markets: ResolutionFacts[]; credit_delay_ms: number }
  /** A managed wallet was created (stored first): the simulated chains fund it with gas and `usdc_1e8` (decimal text) of USDC. */
  | { t: 'WalletFunded'; usdc_1e8: string }
  /** POST /v1/wallets/withdraw: `qty_1e8` (decimal text) of `token` leaves the wallet's balance on `chain`; answers what is left. */
  | { t: 'Withdraw'; chain: string; token: string; qty_1e8: string }
  | MakerFill;

/** A router's answer: the result, or the engine's refusal (mapped to the envelope by the gateway). */
export type RouterAnswer<T> = { ok: T } | { refused: { code: ResultCode; message: string; field: string | null } } | { failed: string };

export interface PositionsPage {
  positions: PositionView[];
  /** over every row of the view, on every page */
  totals: PositionTotals;
  /** the next page to ask for, null on the last */
  next: { read: number; from: number } | null;
}

export interface SandboxWriteAnswer {
  written: number;
  deleted: number;
}

export interface SandboxResetAnswer {
  /** working orders the reset ended (cancelled, or finished while it waited) */
  orders_ended: number;
  /** venues that got balances, in venue order */
  venues_seeded: string[];
}

export interface RedeemAnswer {
  mode: 'auto_settled' | 'relayer_submitted' | 'noop';
  /** contracts paid out now (auto settlement), or to be paid when the relayer's credit lands */
  positions: number;
}

export interface SubmitAnswer {
  status: 200 | 201;
  order: OrderRecord;
  /** when the router took the request (wall clock, ns, sub-microsecond): an actor sender's latency figure */
  received_ns?: number;
}

export interface SubmitJsonAnswer {
  status: 200 | 201;
  json: string;
}

export interface PreviewAnswer {
  plan: RoutingPlan;
  landed_cost_1e9: number | null;
}

/** The ledger's part of the risk read-out; the gateway adds the kill switch, limits and working orders. */
export interface RiskAnswer {
  reserved: { venue: string; instrument: Instrument; locked_qty_1e8: ExactInt }[];
  nav_usd_1e9: ExactInt;
  cash_usd_1e9: ExactInt;
  gross_exposure_usd_1e9: ExactInt;
}

export type { PositionsView, ReconLogAnswer, VenueOrdersView };

export type OrderEvent = [channel: ExecutionChannel, client: string, mode: Mode, data: unknown];

/** A router's order events; the gateway fans them out to the client's channels and streams. */
export const ORDER_EVENTS_TOPIC = topic<OrderEvent>('$orders');

/** A router announces its key when it starts, so a halt or a drain reaches it. */
export const ROUTER_UP_TOPIC = topic<string>('$router');

export function routerKey(mode: Mode, client: string): string {
  return `router:${mode}|${client}`;
}

/** The (mode, client) of a router key, or undefined. */
export function routerOwner(key: string): { mode: Mode; client_id: string } | undefined {
  const body = key.startsWith('router:') ? key.slice(7) : '';
  const bar = body.indexOf('|');
  const mode = body.slice(0, bar);
  if (bar < 0 || (mode !== 'live' && mode !== 'sandbox')) return undefined;
  return { mode, client_id: body.slice(bar + 1) };
}
