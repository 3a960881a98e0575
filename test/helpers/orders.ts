// The order as `GET /v1/orders/{id}` answers it, as far as the execution tests read it.

export const TERMINAL = new Set(['COMPLETED', 'CANCELLED', 'REJECTED', 'UNRESOLVED']);

export interface ApiChild {
  child_id: string;
  venue: string;
  qty_1e8: number;
  filled_qty_1e8: number;
  status: string;
  time_in_force?: string;
  reason: string | null;
}

export interface ApiOrder {
  node_order_id: string;
  status: string;
  qty_1e8: number;
  filled_qty_1e8: number;
  failure_class: string | null;
  failure_reason: string | null;
  children: ApiChild[];
  tca: { best_single_venue: { venue: string } | null; savings_usd_1e9: number | null; [k: string]: unknown } | null;
  [k: string]: unknown;
}

/** A fill as `GET /v1/orders/{id}?expand=fills` lists it, as far as the tests read it. */
export interface ApiFill {
  fill_id: string;
  node_order_id: string;
  venue: string;
  qty_1e8: number;
  price_1e9: number;
  fee_1e9: number;
  trade_id: string;
  is_maker: boolean;
}
