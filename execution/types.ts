// The execution service's contract with the gateway: the order request it admits, its
// configuration and where its events go. Re-exported by service.ts.
import type { BookEntry } from '../actors/market/directory.ts';
import type { FillRecord, Mode, OrderRecord } from '../domain/orders.ts';
import type { ActorContext } from '../engine/actor.ts';
import type { PredictionLeg } from '../domain/prediction/order-leg.ts';
import type { OrderWallet } from './dex-orders.ts';

/** Whose order it is: the authenticated caller as execution sees it (the gateway's Principal is one). */
export interface OrderOwner {
  readonly client_id: string;
  readonly mode: Mode;
}

/** What execution reads of the consolidated market: symbol resolution and the NBBO (the gateway's QuoteService is one). */
export interface MarketView {
  resolve(symbol: string, instrumentType?: string): BookEntry | undefined;
  nbbo1e9(entry: BookEntry): { bid_1e9: number; ask_1e9: number; crossed: boolean } | undefined;
}

/** What a client sends to `POST /v1/orders`, after schema validation. */
export interface OrderRequest {
  client_order_id: string;
  symbol?: string;
  instrument?: { symbol: string; type?: 'spot' | 'perp' | 'prediction' };
  side: 'buy' | 'sell';
  qty_1e8: number;
  order_type: 'market' | 'limit';
  limit_price_1e9?: number;
  time_in_force?: 'ioc' | 'gtc' | 'fok';
  venue?: string;
  constraints?: OrderRecord['constraints'];
  start_armed?: boolean;
  /**
   * A prediction order's legs, resolved by the sender from the symbol (the router holds no
   * catalog): the named leg first, then the same outcome on other venues when the client asked
   * for cross-venue routing (`cross_venue_equivalents`).
   */
  prediction_legs?: PredictionLeg[];
  cross_venue_equivalents?: boolean;
  /** The DEX wallet the client named (`<signer_backend>:<address>`); the gateway resolves it into `wallet`. */
  wallet_id?: string;
  /**
   * A DEX order's wallet, resolved and ready, with its signature over the order (the gateway
   * holds the key): present, a chain-suffixed pair trades its pools and `BASE-USD` adds the
   * pools beside the CEX venues.
   */
  wallet?: OrderWallet;
  /**
   * The strategy deployment whose algo entered the order (set by the algo host, never by HTTP):
   * checked at the pre-trade gate against the client's running deployments, carried by the
   * order and its fills, and the order's changes are told to the deployment.
   */
  lineage_deployment_id?: string;
}

export interface ExecutionConfig {
  /** Per-order notional cap (pre-trade risk), USD 1e9. */
  maxOrderNotionalUsd1e9: number;
  /** What a simulated venue account opens with, per quote currency, USD. */
  simAccountUsd: number;
  /** How long the token-style venue's relayer takes to credit a redemption, ms (`REDEEM_CREDIT_DELAY_MS`). */
  redeemCreditDelayMs: number;
  /** How long a new managed wallet provisions before it is ready, ms (`WALLET_PROVISION_MS`). */
  walletProvisionMs: number;
  /** Venues on their real adapter (`LIVE_VENUES`): their accounts are the venue's balances, never simulated ones. */
  liveVenues?: readonly string[];
  /** This node's region among several (`REGION` with `NATS_URL`, docs/regions.md); absent on a single node. */
  region?: { name: string; localVenues: readonly string[] };
}

export type ExecutionChannel = 'orders' | 'fills' | 'routing' | 'tca' | 'funding' | 'margin';

/** Where order events go: the private WebSocket channels and the SSE streams. */
export interface ExecutionEvents {
  /** Whether anyone listens for this client and mode: an event nobody reads is not built. */
  wants(channel: ExecutionChannel, client: string, mode: Mode): boolean;
  publish(channel: ExecutionChannel, client: string, mode: Mode, data: unknown): void;
  /** An order a deployment entered changed (durable first): told to that deployment with the fills new to it. */
  lineage?(order: OrderRecord, fills: readonly FillRecord[]): void;
}

/** How execution reaches actors: an actor's context on a worker, or the gateway's endpoint. */
export type Messenger = Pick<ActorContext, 'ask' | 'tell'>;

/** Runs `fn` after `delayMs` on the caller's thread; returns its cancel (ActorContext.schedule). */
export type Schedule = (delayMs: number, fn: () => void) => () => void;

/** Whether dispatch is halted (the kill switch), as execution reads it. */
export interface HaltFlag {
  readonly active: boolean;
}

/**
 * Execution's durable order state: storage's OrderStore on the writer's thread, the router's
 * journaled store on a worker (writes go to the journal, reads are local). Writes land when
 * `durable()` resolves; nothing is acknowledged before.
 */
export interface OrderLog {
  nextOrderId(): string;
  nextFillId(): number;
  putOrder(order: OrderRecord): void;
  putClientOrderId(order: OrderRecord): void;
  putFill(clientId: string, mode: Mode, fill: FillRecord): void;
  putLedger(clientId: string, mode: Mode, snapshot: unknown): void;
  /**
   * The HTTP answer awaited under `token`, given by the journal once this write set is durable:
   * `status` with the order's API view as JSON, as the order is when the write set is sent.
   */
  putReply(token: number, status: number, order: OrderRecord): void;
  durable(): Promise<void>;
  getOrder(clientId: string, mode: Mode, id: string): OrderRecord | undefined;
  byClientOrderId(clientId: string, mode: Mode, clientOrderId: string): OrderRecord | undefined;
  byIdempotencyKey(clientId: string, mode: Mode, key: string): OrderRecord | undefined;
  getFill(clientId: string, mode: Mode, id: number): FillRecord | undefined;
  getLedger(clientId: string, mode: Mode): unknown;
  fillsAfter(clientId: string, mode: Mode, after: number): FillRecord[];
  listOrders(clientId: string, mode: Mode, options: { limit: number; openOnly?: boolean }): { orders: OrderRecord[] };
  /** The working orders this log holds (the router's: its own client's). */
  openOrders(): OrderRecord[];
}
