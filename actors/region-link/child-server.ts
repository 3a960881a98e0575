import type { Logger } from '../../engine/actor.ts';
import type { Reconciled } from '../edge/child-journal.ts';
import { relayOwner } from '../edge/live/desk.ts';
import { refusedLeg } from '../edge/live/venue.ts';
import type { CancelResult, ChildExecution, ChildPlacement, EdgeMessage, MakerFill } from '../edge/messages.ts';
import { edgeKey } from '../market/directory.ts';
import { parseChildRequest, type ChildReply, type ChildRequest } from './child-protocol.ts';
import type { EdgeAsker } from './link.ts';
import { ServedChildren } from './served-children.ts';

/** How long an edge may take over a child (a venue's latency, a live venue's REST round trip). */
const EDGE_ASK_MS = 5_000;

type Answer = ChildExecution | ChildPlacement;

/**
 * This node running children on its edges for orders homed in other regions (on the gateway
 * thread, beside the link): each request is checked, run once on the local edge under a relay
 * owner (so the edge's maker fills come back here, `relay-actor.ts`), and recorded
 * (`ServedChildren`), so a repeat, a lookup after a lost answer or a maker-fill poll is answered
 * from what really happened, and a child looked up before it arrived is refused when it does.
 */
export class ChildServer {
  private readonly served: ServedChildren;
  /** children whose edge has not answered yet: a lookup waits for them */
  private readonly running = new Map<string, Promise<unknown>>();

  constructor(
    region: string,
    private readonly edges: EdgeAsker,
    private readonly log: Logger,
  ) {
    this.served = new ServedChildren(region);
  }

  async serve(edge_id: string, raw: unknown): Promise<ChildReply> {
    const request = parseChildRequest(raw);
    if (typeof request === 'string') {
      this.log.warn({ edge: edge_id, reason: request }, 'region link: a child request refused as malformed');
      return { report: refusedLeg(`malformed child request: ${request}`) };
    }
    switch (request.op) {
      case 'submit':
        return this.submit(edge_id, request);
      case 'lookup':
        return this.lookup(edge_id, request);
      case 'cancel':
        return this.cancel(edge_id, request);
    }
  }

  /** A maker fill the edge told the relay: the child's report gains it (the home polls it). */
  onMakerFill(fill: MakerFill): void {
    this.served.makerFill(fill.child_id, fill.fill, fill.left_qty_1e8);
  }

  private async submit(edge_id: string, r: Extract<ChildRequest, { op: 'submit' }>): Promise<ChildReply> {
    const owner = relayOwner(r.home, r.owner);
    const admission = this.served.admit(r.child_id, owner, r.tif === 'gtc');
    if (admission === 'refused') return { report: refusedLeg('reconciled_as_not_received') };
    if (admission === 'known') {
      // The same child again: never run twice; the first run's report.
      await this.running.get(r.child_id)?.catch(() => undefined);
      const report = this.served.get(r.child_id)?.report;
      return report === undefined ? { unknown: 'the child ran here and its edge has not answered' } : { report };
    }
    const base = { owner, child_id: r.child_id, symbol: r.symbol, side: r.side, qty_1e8: r.qty_1e8 };
    const message: EdgeMessage = r.tif === 'gtc' ? { t: 'Place', ...base, limit_price_1e9: r.limit_price_1e9! } : { t: 'Execute', ...base, limit_price_1e9: r.limit_price_1e9 };
    const run = this.edges.ask<Answer>(edgeKey(edge_id), message, EDGE_ASK_MS);
    this.running.set(r.child_id, run);
    try {
      return { report: this.served.settle(r.child_id, await run) };
    } catch (err) {
      // Its fate is the edge's to tell: the home's lookup asks the edge's own record.
      this.log.warn({ edge: edge_id, child_id: r.child_id, err: (err as Error).message }, 'region link: a remote child not answered by its edge');
      return { unknown: `${edge_id} did not answer` };
    } finally {
      this.running.delete(r.child_id);
    }
  }

  private async lookup(edge_id: string, r: Extract<ChildRequest, { op: 'lookup' }>): Promise<ChildReply> {
    await this.running.get(r.child_id)?.catch(() => undefined);
    const known = this.served.lookup(r.child_id);
    if (known !== 'unknown' && known !== 'pending') return { lookup: known };
    // Not answered here (the edge did not answer, or this node restarted): the edge's own record,
    // or its venue, knows; a child it never saw is refused from now on, here and there.
    const owner = relayOwner(r.home, r.facts.owner);
    let reconciled: Reconciled<Answer>;
    try {
      reconciled = await this.edges.ask<Reconciled<Answer>>(edgeKey(edge_id), { t: 'Reconcile', child_id: r.child_id, leg: { ...r.facts, owner } } satisfies EdgeMessage, EDGE_ASK_MS);
    } catch (err) {
      return { unknown: `${edge_id} did not answer a reconcile: ${(err as Error).message}` };
    }
    if (!reconciled.known) {
      this.served.refuse(r.child_id);
      return { lookup: { found: false } };
    }
    this.served.admit(r.child_id, owner, r.facts.resting);
    return { lookup: { found: true, report: this.served.settle(r.child_id, reconciled.result) } };
  }

  private async cancel(edge_id: string, r: Extract<ChildRequest, { op: 'cancel' }>): Promise<ChildReply> {
    if (this.served.get(r.child_id) === undefined) return { cancel: { found: false, cancelled_qty_1e8: 0 } };
    try {
      const result = await this.edges.ask<CancelResult>(edgeKey(edge_id), { t: 'Cancel', child_id: r.child_id } satisfies EdgeMessage, EDGE_ASK_MS);
      this.served.cancelled(r.child_id);
      return { cancel: { found: result.found, cancelled_qty_1e8: result.cancelled_qty_1e8 } };
    } catch (err) {
      return { unknown: `${edge_id} did not answer a cancel: ${(err as Error).message}` };
    }
  }
}
