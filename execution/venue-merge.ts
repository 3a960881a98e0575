// The venue view of `GET /v1/orders` (spec, Orders and fills): what the venues themselves show of
// a live account's working orders, merged beside the engine's list on its first page.
import type { EdgeMessage, OpenOrdersAnswer } from '../actors/edge/messages.ts';
import { edgesOfVenue } from '../domain/venues.ts';
import { edgeKey } from '../actors/market/directory.ts';
import type { OrderRecord } from '../domain/orders.ts';
import { nowNs } from '../domain/units.ts';
import type { Messenger } from './types.ts';

/** How long one venue's open-orders answer is awaited before it counts as failed. */
export const VENUE_VIEW_TIMEOUT_MS = 500;

export interface VenueOrders {
  venue: string;
  edge_id: string;
  ok: boolean;
  error: string | null;
  /** the account's legs resting on the venue's book now */
  resting_child_ids: string[];
  /** legs the engine has resting there that the venue does not show (a reconciliation signal) */
  missing_on_venue: string[];
}

export interface VenueOrdersView {
  /** false when a venue did not answer: an empty list then does not mean nothing rests */
  all_succeeded: boolean;
  as_of_unix_ns: number;
  venues: VenueOrders[];
}

/**
 * Asks every edge of the account's credentialed venues (and any edge holding one of its resting
 * legs) which of the account's legs rest on its book. A venue that fails or times out is
 * reported with `ok: false`, and `all_succeeded` is then false.
 */
export async function venueOrdersView(endpoint: Messenger, credentialed: ReadonlySet<string>, open: readonly OrderRecord[]): Promise<VenueOrdersView> {
  const byEdge = new Map<string, { venue: string; children: string[] }>();
  for (const venue of [...credentialed].sort()) {
    for (const edge of edgesOfVenue(venue)) if (edge.instrument_type !== 'prediction') byEdge.set(edge.edge_id, { venue, children: [] });
  }
  for (const order of open) {
    for (const child of order.children) {
      if (child.status !== 'resting') continue;
      const entry = byEdge.get(child.edge_id) ?? { venue: child.venue, children: [] };
      entry.children.push(child.child_id);
      byEdge.set(child.edge_id, entry);
    }
  }
  const venues = await Promise.all(
    [...byEdge].map(async ([edgeId, { venue, children }]): Promise<VenueOrders> => {
      try {
        const answer = await endpoint.ask<OpenOrdersAnswer>(edgeKey(edgeId), { t: 'OpenOrders', child_ids: children } satisfies EdgeMessage, VENUE_VIEW_TIMEOUT_MS);
        const shown = new Set(answer.resting);
        return { venue, edge_id: edgeId, ok: true, error: null, resting_child_ids: answer.resting, missing_on_venue: children.filter((id) => !shown.has(id)) };
      } catch (err) {
        return { venue, edge_id: edgeId, ok: false, error: (err as Error).message, resting_child_ids: [], missing_on_venue: [] };
      }
    }),
  );
  return { all_succeeded: venues.every((v) => v.ok), as_of_unix_ns: nowNs(), venues };
}

