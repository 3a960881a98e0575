import { isTerminal, type Mode, type OrderRecord } from '../domain/orders.ts';
import type { Logger } from '../engine/actor.ts';
import type { Schedule } from './types.ts';

/** How long after an order ends its live venues' balances are pulled again, and how often a busy venue is retried. */
export const REFRESH_DELAY_MS = 1_000;
const REFRESH_ATTEMPTS = 30;

/**
 * A live venue's balances, pulled again after the client's orders there end (the spec: initial
 * live state is pulled from venues; the ledger then books fills, and the venue stays the truth).
 * A pull only replaces the ledger's rows while no leg of the client is working on that venue:
 * a fill the venue has applied but this router has not booked yet (an answer in flight, a maker
 * fill not yet polled) would otherwise count twice. Coalesced per client, mode and venue.
 */
export class LiveBalanceRefresh {
  private readonly due = new Set<string>();

  constructor(
    private readonly liveVenues: readonly string[],
    private readonly schedule: Schedule,
    /** a leg of the client is sent, resting or in doubt on the venue */
    private readonly busy: (client: string, mode: Mode, venue: string) => boolean,
    /** asks the venue; applies the answer only if `quiet()` still holds when it arrives */
    private readonly pull: (client: string, mode: Mode, venue: string, quiet: () => boolean) => Promise<void>,
    private readonly log: Logger,
  ) {}

  /** An order was committed: once it has ended, its live venues with fills are refreshed soon. */
  afterCommit(order: OrderRecord): void {
    if (order.mode !== 'live' || !isTerminal(order.status) || this.liveVenues.length === 0) return;
    for (const child of order.children) {
      if (child.filled_qty_1e8 > 0 && this.liveVenues.includes(child.venue)) this.soon(order.client_id, order.mode, child.venue, 0);
    }
  }

  private soon(client: string, mode: Mode, venue: string, attempt: number): void {
    const key = `${client}|${mode}|${venue}`;
    if (attempt === 0 && this.due.has(key)) return;
    this.due.add(key);
    this.schedule(REFRESH_DELAY_MS, () => {
      if (this.busy(client, mode, venue) && attempt < REFRESH_ATTEMPTS) {
        this.soon(client, mode, venue, attempt + 1);
        return;
      }
      this.due.delete(key);
      if (this.busy(client, mode, venue)) return; // still working after 30 s: the next order's end pulls
      this.pull(client, mode, venue, () => !this.busy(client, mode, venue)).catch((err: unknown) => this.log.warn({ client_id: client, venue, err }, 'live balances not pulled again'));
    });
  }
}
