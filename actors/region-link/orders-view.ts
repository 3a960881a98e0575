/**
 * The other regions' orders and fills as this node reads them (pure: the link feeds it from the
 * `SEQ_ORDERS` stream). Each home region writes every durable order and fill record there once
 * its journal has them on disk; here the newest version of each order is kept (a replayed or
 * late older version never replaces it), and each fill once, by its home region and id (fill ids
 * are per node). Read by the global listings: newest first, as a node lists its own.
 */

/** What the view needs of an order record (the whole record is kept and served as is). */
export interface ViewedOrder {
  node_order_id: string;
  client_id: string;
  mode: string;
  home_region: string | null;
  updated_unix_ns: number;
}

export interface ViewedFill {
  id: number;
  node_order_id: string;
}

interface Account<O, F> {
  orders: Map<string, O>;
  /** by `region:id` */
  fills: Map<string, F & { home_region: string }>;
}

export class RemoteOrdersView<O extends ViewedOrder, F extends ViewedFill> {
  private readonly accounts = new Map<string, Account<O, F>>();
  private readonly lastHeard = new Map<string, number>();

  constructor(private readonly localRegion: string) {}

  private account(client: string, mode: string): Account<O, F> {
    const key = `${client}|${mode}`;
    let account = this.accounts.get(key);
    if (account === undefined) this.accounts.set(key, (account = { orders: new Map(), fills: new Map() }));
    return account;
  }

  /** An order record from `region`'s journal; false when it is this node's own or older than the one held. */
  order(region: string, record: O, nowMs: number): boolean {
    if (region === this.localRegion) return false;
    this.lastHeard.set(region, nowMs);
    const orders = this.account(record.client_id, record.mode).orders;
    const held = orders.get(record.node_order_id);
    if (held !== undefined && held.updated_unix_ns > record.updated_unix_ns) return false;
    orders.set(record.node_order_id, record);
    return true;
  }

  /** A fill record from `region`'s journal, of `client` in `mode`; once per (region, id). */
  fill(region: string, client: string, mode: string, record: F, nowMs: number): boolean {
    if (region === this.localRegion) return false;
    this.lastHeard.set(region, nowMs);
    const fills = this.account(client, mode).fills;
    const key = `${region}:${record.id}`;
    if (fills.has(key)) return false;
    fills.set(key, { ...record, home_region: region });
    return true;
  }

  /** The client's orders homed elsewhere (in `region` only, when given), newest first. */
  orders(client: string, mode: string, region?: string): O[] {
    const all = [...(this.accounts.get(`${client}|${mode}`)?.orders.values() ?? [])];
    return (region === undefined ? all : all.filter((o) => o.home_region === region)).sort(newestFirst);
  }

  get(client: string, mode: string, node_order_id: string): O | undefined {
    return this.accounts.get(`${client}|${mode}`)?.orders.get(node_order_id);
  }

  /** The client's fills of orders homed elsewhere, newest first (ids are ms x 4096 + sequence on every node). */
  fills(client: string, mode: string, region?: string): (F & { home_region: string })[] {
    const all = [...(this.accounts.get(`${client}|${mode}`)?.fills.values() ?? [])];
    return (region === undefined ? all : all.filter((f) => f.home_region === region)).sort((a, b) => b.id - a.id || (a.home_region < b.home_region ? -1 : 1));
  }

  /** Every region heard from, with when it last wrote (a region that writes nothing is not heard: see the link's liveness). */
  regions(): Map<string, number> {
    return this.lastHeard;
  }
}

function newestFirst(a: ViewedOrder, b: ViewedOrder): number {
  return a.node_order_id < b.node_order_id ? 1 : a.node_order_id > b.node_order_id ? -1 : 0;
}
