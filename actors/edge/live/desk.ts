import type { ActorContext } from '../../../engine/actor.ts';
import { LIVE_HALT_TOPIC, type FeeTierInfo, type LiveHaltReport, type VenueBalances } from '../messages.ts';
import { LiveAccounts } from './accounts.ts';
import { edgeOrderState, LiveOrders } from './orders.ts';
import type { LiveVenue, OrderVenue } from './venue.ts';

/** Tries at cancelling the last run's leftovers on an account the venue did not answer. */
const LEFTOVER_ATTEMPTS = 8;

/** What the desk needs of the edge it serves. */
export interface DeskSpec {
  venue: LiveVenue['venue'];
  edge_id: string;
  maker_bps: number;
  taker_bps: number;
}

/**
 * What every live edge (spot, perp or prediction) does with its clients' accounts on the venue,
 * beside its books: child orders (`LiveOrders`), the kill switch's cancel-all, the last run's
 * leftovers cancelled at start, and fee-tier probes with a client's key. One per edge actor.
 */
export class LiveDesk {
  readonly accounts: LiveAccounts;
  readonly orders: LiveOrders;
  private halted = false;
  /** Probes in flight by client: the gateway's credentials probe and the router's fee tiers ask together after a store. */
  private readonly probing = new Map<string, Promise<FeeTierInfo>>();

  constructor(
    private readonly spec: DeskSpec,
    private readonly venue: OrderVenue & Pick<LiveVenue, 'probe' | 'balances'>,
    private readonly ctx: ActorContext,
  ) {
    const { shared, settings } = ctx.environment;
    const key = shared['credentialsKey'];
    if (key === undefined) throw new Error('a live edge needs the credentials key in shared memory');
    this.accounts = new LiveAccounts(String(settings['dataDir']), key, spec.venue);
    this.orders = new LiveOrders(venue, this.accounts, edgeOrderState(spec.edge_id), {
      venue: spec.venue,
      edge_id: spec.edge_id,
      maker_bps: spec.maker_bps,
      taker_bps: spec.taker_bps,
      tell: (owner, fill) => void ctx.tell(owner, fill),
      log: ctx.log,
    });
  }

  stop(): void {
    this.orders.stop();
  }

  /**
   * The kill switch's state, read on the edge's heartbeat. The routers cancel their working legs
   * on a halt; this catches what they do not know of (orders of a crashed run, orders placed on
   * the account by hand).
   */
  watchHalt(active: boolean, symbols: () => readonly string[]): void {
    if (active === this.halted) return;
    this.halted = active;
    if (!active) return;
    const { ctx, spec } = this;
    this.orders.cancelEverything(symbols()).then(
      ({ cancelled, failed }) => {
        ctx.log.warn({ edge: spec.edge_id, cancelled, failed }, 'kill switch: open orders cancelled on the venue');
        ctx.publish(LIVE_HALT_TOPIC.name, { venue: spec.venue, edge_id: spec.edge_id, at_ms: Date.now(), cancelled, failed } satisfies LiveHaltReport);
      },
      (err: unknown) => ctx.log.error({ edge: spec.edge_id, err: (err as Error).message }, 'kill switch: cancel-all not done'),
    );
  }

  /**
   * Leftovers of the last run, cancelled at start; an account the venue did not answer is tried
   * again, 2 s after the first try doubling to 30 s, eight times (a venue slow to answer right
   * after a restart must not leave a crashed run's order working for half a minute).
   */
  cancelLeftovers(attempt = 0): void {
    const { ctx, spec } = this;
    this.orders.cancelLeftovers().then(
      ({ cancelled, failed }) => {
        if (cancelled > 0 || failed > 0) ctx.log.warn({ edge: spec.edge_id, cancelled, failed, attempt }, 'orders of the last run cancelled on the venue');
        if (failed > 0 && attempt < LEFTOVER_ATTEMPTS) ctx.schedule(Math.min(30_000, 2_000 * 2 ** attempt), () => this.cancelLeftovers(attempt + 1));
      },
      (err: unknown) => ctx.log.error({ edge: spec.edge_id, err: (err as Error).message }, 'orders of the last run not cancelled'),
    );
  }

  feeTier(client_id: string | undefined): Promise<FeeTierInfo> {
    const key = client_id ?? '';
    let running = this.probing.get(key);
    if (running === undefined) {
      running = this.probeTier(client_id).finally(() => this.probing.delete(key));
      this.probing.set(key, running);
    }
    return running;
  }

  /**
   * The client's balances on the venue; `traded` are the assets this edge trades: one the venue
   * left out is zero (OKX, Bybit and Kraken list only what the account holds, and a balance sold
   * out must reach the ledger). Never rejects: a venue refusing a key is an answer, not a fault.
   */
  async balances(client_id: string, traded: readonly string[]): Promise<VenueBalances | null> {
    try {
      const account = this.accounts.account(client_id);
      if (account === undefined) return null;
      const rows = await this.venue.balances(account);
      const balances = rows.map((r) => ({ asset: r.asset, free_1e8: String(r.free_1e8), locked_1e8: String(r.locked_1e8) }));
      const listed = new Set(balances.map((b) => b.asset));
      for (const asset of traded) {
        if (listed.has(asset)) continue;
        listed.add(asset);
        balances.push({ asset, free_1e8: '0', locked_1e8: '0' });
      }
      return { venue: this.spec.venue, balances };
    } catch (err) {
      return { venue: this.spec.venue, balances: [], error: (err as Error).message };
    }
  }

  /** The client's rates and permissions as the venue reports them to its key; the base schedule without one. */
  private async probeTier(client_id: string | undefined): Promise<FeeTierInfo> {
    const { spec } = this;
    const base: FeeTierInfo = { venue: spec.venue, edge_id: spec.edge_id, tier: 'base', maker_bps: spec.maker_bps, taker_bps: spec.taker_bps };
    try {
      const account = client_id === undefined ? undefined : this.accounts.account(client_id);
      if (account === undefined) return base;
      const probe = await this.venue.probe(account);
      return { venue: spec.venue, edge_id: spec.edge_id, tier: probe.tier, maker_bps: probe.maker_bps, taker_bps: probe.taker_bps, can_withdraw: probe.can_withdraw };
    } catch (err) {
      this.ctx.log.warn({ edge: spec.edge_id, client_id, err: (err as Error).message }, 'fee tier probe failed: base schedule');
      return base;
    }
  }
}

/** The client of a live router's key (`router:live|<client>`, execution/router/messages.ts), or undefined. */
export function liveClientOf(owner: string): string | undefined {
  const router = homeOwnerOf(owner);
  return router.startsWith(LIVE_ROUTER) && router.length > LIVE_ROUTER.length ? router.slice(LIVE_ROUTER.length) : undefined;
}
const LIVE_ROUTER = 'router:live|';
const RELAY = 'relay:';

/** A client's live router key, the owner of its live children (the inverse of `liveClientOf`). */
export function liveRouterOf(client_id: string): string {
  return `${LIVE_ROUTER}${client_id}`;
}

/**
 * The owner an edge is given for a child it runs for another region's order (docs/regions.md):
 * the relay actor on this node, which carries the child's maker fills home. It names the home
 * region and the order's router there, so the edge still knows whose credentials sign it.
 */
export function relayOwner(homeRegion: string, owner: string): string {
  return `${RELAY}${homeRegion}|${owner}`;
}

/** The router that owns a child, through a relay when there is one. */
export function homeOwnerOf(owner: string): string {
  return owner.startsWith(RELAY) ? owner.slice(owner.indexOf('|') + 1) : owner;
}
