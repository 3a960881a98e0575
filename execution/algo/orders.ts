import type { DeploymentInstance } from '../../storage/deployments.ts';
import { ResultCode } from '../result-codes.ts';
import type { OrderRequest } from '../types.ts';
import { OrderType, RejectCode, type Action } from './abi.ts';

/**
 * An algo's actions as orders, and the engine's answers as the ABI's reject codes (pure).
 *
 *   order_type 0 limit GTC | 1 market | 2 IOC limit | 3 FOK limit | 4 post-only (refused: the
 *   engine has no post-only order; code 2)
 */
export type ActionIntent =
  | { t: 'order'; order_id: number; side: 1 | -1; qty_1e8: number; px_1e9: number; request: Omit<OrderRequest, 'client_order_id'> }
  | { t: 'cancel'; order_id: number }
  | { t: 'invalid'; order_id: number; reason: string };

const isId = (x: number) => Number.isSafeInteger(x) && x > 0;

export function actionIntent(a: Action, instance: DeploymentInstance, deploymentId: string): ActionIntent {
  const id = a.order_id;
  if (!isId(id)) return { t: 'invalid', order_id: Number.isSafeInteger(id) ? id : 0, reason: `order_id ${id} is not a positive integer below 2^53` };
  if (a.is_cancel !== 0 || a.side === 0) return { t: 'cancel', order_id: id };
  if (a.side !== 1 && a.side !== -1) return { t: 'invalid', order_id: id, reason: `side ${a.side} (1 buy, -1 sell, 0 cancel)` };
  if (!isId(a.qty_1e8)) return { t: 'invalid', order_id: id, reason: `qty_1e8 ${a.qty_1e8} is not a positive integer` };
  const limited = a.order_type === OrderType.LIMIT_GTC || a.order_type === OrderType.IOC || a.order_type === OrderType.FOK;
  if (limited && !isId(a.px_1e9)) return { t: 'invalid', order_id: id, reason: `px_1e9 ${a.px_1e9} is not a positive integer` };
  const base = {
    instrument: { symbol: instance.symbol, type: instance.instrument_type },
    side: a.side === 1 ? ('buy' as const) : ('sell' as const),
    qty_1e8: a.qty_1e8,
    venue: instance.venue,
    lineage_deployment_id: deploymentId,
  };
  const order = (request: Omit<OrderRequest, 'client_order_id'>): ActionIntent => ({ t: 'order', order_id: id, side: a.side as 1 | -1, qty_1e8: a.qty_1e8, px_1e9: a.px_1e9, request });
  switch (a.order_type) {
    case OrderType.LIMIT_GTC:
      return order({ ...base, order_type: 'limit', limit_price_1e9: a.px_1e9, time_in_force: 'gtc' });
    case OrderType.MARKET:
      return order({ ...base, order_type: 'market' });
    case OrderType.IOC:
      return order({ ...base, order_type: 'limit', limit_price_1e9: a.px_1e9, time_in_force: 'ioc' });
    case OrderType.FOK:
      return order({ ...base, order_type: 'limit', limit_price_1e9: a.px_1e9, time_in_force: 'fok' });
    case OrderType.POST_ONLY:
      return { t: 'invalid', order_id: id, reason: 'post-only orders are not supported by the engine' };
    default:
      return { t: 'invalid', order_id: id, reason: `order_type ${a.order_type} (0 limit GTC, 1 market, 2 IOC, 3 FOK, 4 post-only)` };
  }
}

/**
 * The client_order_id of an algo order: deployment, instance, run and the algo's own id. A run is
 * every start of the instances (an API start, a resume after a restart of the service or of the
 * algo worker), so an algo counting its ids from 1 again never meets an earlier order's id.
 */
export function algoClientOrderId(deploymentId: string, instance: number, epoch: string, orderId: number): string {
  return `${deploymentId}.${instance}.${epoch}.${orderId}`;
}

/** A refusal of the order request (no order was created). */
export function refusalCode(code: number): RejectCode {
  switch (code) {
    case ResultCode.DISPATCH_HALTED:
      return RejectCode.KILL_SWITCH;
    case ResultCode.INVALID_FIELD:
    case ResultCode.UNKNOWN_SYMBOL:
    case ResultCode.IDEMPOTENCY_CONFLICT:
      return RejectCode.INVALID_PARAMS;
    case ResultCode.JOURNAL_UNAVAILABLE:
      return RejectCode.EXCHANGE_BUSY;
    default:
      return RejectCode.UNKNOWN;
  }
}

/** A REJECTED order's failure class (and reason: a venue without the client's credentials is an auth failure). */
export function failureCode(failureClass: string | null, reason: string | null = null): RejectCode {
  if (failureClass === 'no_route' && reason !== null && reason.includes('no_credentials')) return RejectCode.AUTH;
  switch (failureClass) {
    case 'insufficient_balance':
    case 'insufficient_margin':
    case 'insufficient_gas':
      return RejectCode.INSUFFICIENT_BALANCE;
    case 'risk_notional_cap':
    case 'risk_lineage':
      return RejectCode.RISK;
    case 'kill_switch':
      return RejectCode.KILL_SWITCH;
    case 'fok_unfillable':
    case 'no_route':
      return RejectCode.EXCHANGE_BUSY;
    default:
      return RejectCode.UNKNOWN;
  }
}
